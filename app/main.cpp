// poslab: the window (no arguments, or --session FILE) or the command line (compute, figure,
// presets, --help, --version). All dispatch lives in app/cli.cpp.
#include "app/cli.h"

int main(int argc, char** argv) { return poslab::cli::run(argc, argv); }
