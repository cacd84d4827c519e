#pragma once
// The demonstrations as commands (docs/spec/cli.md, "Demonstrations"): `poslab demos`,
// `poslab compute demo KEY [method options]`; `poslab figure demo KEY -o F` is in cli_figure.
// Throw CliError (app/cli_common.h) on invalid input; return the exit status otherwise.
#include "core/demonstrations.h"

#include <string>
#include <vector>

namespace poslab::cli {

// args: everything after "demos".
int runDemos(const std::vector<std::string>& args);
// args: everything after "compute demo" (args[0] = KEY).
int runComputeDemo(const std::vector<std::string>& args);
// The demonstration with that key, or exit 2 listing the keys (`what` names the argument).
DemoId demoOrFail(const std::string& key);
// "one of permutation, sinusoidal-shift, …" in lecture order.
std::string demoKeyList();

}  // namespace poslab::cli
