#pragma once
// After a model configuration's parse (ui/io/modelconfig.h): what its family's attention does
// beyond the layer pattern (ui/io/families.h: causal or not, the layout of a config without
// layers, Gemma 2's soft-cap, Ministral 3's query scaling) and the read report — every key of
// the file as used / ignored / not_modelled, and the defaults taken (docs/spec/cli.md "compute config").
#include "ui/io/families.h"
#include "ui/io/modelconfig.h"

#include <QJsonObject>

namespace poslab::ui {

struct GgufMetadata;

// The family table's row of a config object: its model_type, else its architectures[0] (`via`
// receives that name), or nullptr.
const Family* familyFor(const QJsonObject& o, QString* via = nullptr);

// `top`: the file's object; `read`: the object read (top, or its text_config, with the family's
// class defaults added). Returns an error naming the file's key for a value the family reads that
// is not valid (attn_logit_softcapping: "x").
std::optional<QString> finishHfConfig(const QJsonObject& top, const QJsonObject& read, ModelFileConfig& out);
// The parameters' validate() failure, if any, as "<the file's key> must be <valid>, got <value>"
// (the key the parameter came from, else the parameter's name).
std::optional<QString> validationError(const ModelFileConfig& out);

// A GGUF file: its metadata keys (used, else ignored), causal (llama.cpp's decoders).
void finishGgufConfig(const GgufMetadata& m, ModelFileConfig& out);

}  // namespace poslab::ui
