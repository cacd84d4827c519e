#pragma once
// `poslab compute WHAT` and `poslab presets` (see docs/spec/cli.md). Throw CliError
// (app/cli_common.h) on invalid input; return the exit status otherwise.
#include <string>
#include <vector>

namespace poslab::cli {

// args: everything after "compute" (args[0] = WHAT).
int runCompute(const std::vector<std::string>& args);
// args: everything after "presets".
int runPresets(const std::vector<std::string>& args);
// The WHATs `poslab compute` accepts, comma-separated, in the order of cli.md (the one list:
// the errors and `poslab --help` both print it).
const std::string& computeWhatNames();
// The text of `poslab compute --help`.
std::string computeHelp();

}  // namespace poslab::cli
