#pragma once
// `poslab figure VIEW [OPTIONS] -o FILE`: render a view without a window (implemented in
// app/cli_figure.cpp). args: everything after "figure". Returns the exit status (0, 1, 2 as
// cli.md states); prints its own error line "poslab: error: ..." on stderr.
#include <QStringList>

#include <string>
#include <vector>

namespace poslab::cli {

int runFigure(const QStringList& args);
// The same in process (the Python module): throws CliError (code 0 after --help) instead of
// printing it, returns the warnings instead of printing them. Uses the QApplication alive, else
// makes one for the call (none for --help).
QStringList runFigureInProcess(const std::vector<std::string>& args);

}  // namespace poslab::cli
