#pragma once
// `poslab figure VIEW [OPTIONS] -o FILE`: render a view without a window (implemented in
// app/cli_figure.cpp). args: everything after "figure". Returns the exit status (0, 1, 2 as
// cli.md states); prints its own error line "poslab: error: ..." on stderr.
#include <QStringList>

namespace poslab::cli {

int runFigure(const QStringList& args);

}  // namespace poslab::cli
