#pragma once
// A Hugging Face model folder where a config file is expected (--config, File → Open model
// configuration…): a snapshot folder (…/config.json inside), a cache folder
// (models--org--name, whose refs/main names the snapshot under snapshots/<rev>/), or that cache
// folder's snapshots/ directory.
#include <QString>

namespace poslab::ui {

// The config.json that `folder` stands for, or an empty string and `error` saying what the
// folder holds instead and what would be accepted. Only folders are looked into; `folder` must be
// a directory.
QString configFileInFolder(const QString& folder, QString* error);

}  // namespace poslab::ui
