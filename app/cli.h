#pragma once
// The `poslab` command line, exactly as docs/spec/cli.md specifies it.
// Exit status: 0 success; 2 invalid usage or parameter (one line on stderr
// "poslab: error: <what>, <valid range>, got <value>", empty stdout); 1 other failure (I/O).

#include <string>

namespace poslab::cli {

// `text` as one line: every control character (newline, carriage return, tab, ...) becomes a
// space, so that an error or warning quoting a file's content is still exactly one line.
std::string oneLine(std::string text);

// Parses argv and dispatches: no command (or --session) → the window; `compute`, `figure`,
// `presets`, `--help`, `--version` → stdout. Never throws; returns the exit status.
int run(int argc, char** argv);

}  // namespace poslab::cli
