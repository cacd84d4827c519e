// Dispatch of the `poslab` executable (docs/spec/cli.md): no command or --session → the
// window; compute / presets / figure / --help / --version → stdout. Every error path prints one
// line "poslab: error: ..." on stderr and leaves stdout empty.
#include "app/cli.h"

#include "app/cli_common.h"
#include "app/cli_compute.h"
#include "app/cli_demo.h"
#include "app/cli_figure.h"
#include "core/parallel.h"
#include "ui/model/poolparallel.h"
#include "ui/window/explorer.h"

#include <QString>
#include <QStringList>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <thread>
#include <vector>

#ifndef POSLAB_VERSION
#define POSLAB_VERSION "0.0.0"
#endif

namespace poslab::cli {

namespace {

const char* kHelp =
    "Usage:\n"
    "  poslab                              open the window on the default scene\n"
    "  poslab --session FILE               open the window on a saved session\n"
    "  poslab compute WHAT [OPTIONS]       compute, print ONE JSON object on stdout\n"
    "  poslab figure VIEW [OPTIONS] -o F   render a view without a window (PNG/SVG/PDF by extension)\n"
    "  poslab presets                      list the built-in model presets as JSON\n"
    "  poslab demos                        list the demonstrations (lecture order) as JSON\n"
    "  poslab compute demo KEY [OPTIONS]   one demonstration's claim, whether it holds, its numbers\n"
    "  poslab figure demo KEY -o F         a demonstration's slide (PNG/SVG/PDF)\n"
    "  poslab --help | --version\n\n"
    "WHAT: %WHATS%\n"
    "      (`poslab compute WHAT --help` lists the options with defaults and valid ranges).\n"
    "Exit status: 0 success; 2 invalid usage or parameter (one line on stderr); 1 other failure (I/O).\n";

void printError(const std::string& line) {
    std::fflush(stdout);
    std::fprintf(stderr, "poslab: error: %s\n", oneLine(line).c_str());
}

// Runs a command with the core's parallel work on hardware_concurrency threads; the window's
// work runs on its Scheduler's pool instead (ui/model/poolparallel.h).
template <class F>
int withCoreThreads(F&& command) {
    const ParallelScope parallel(ui::threadsParallelFor(std::max(1u, std::thread::hardware_concurrency())));
    return command();
}

int dispatch(int argc, char** argv) {
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
    if (args.empty()) return poslab::ui::runExplorer(argc, argv, QString());
    const std::string& cmd = args.front();
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (cmd == "compute") return withCoreThreads([&] { return runCompute(rest); });
    if (cmd == "presets") return runPresets(rest);
    if (cmd == "demos") return runDemos(rest);
    if (cmd == "figure") {
        QStringList list;
        for (const auto& a : rest) list << QString::fromLocal8Bit(a.c_str());
        return withCoreThreads([&] { return runFigure(list); });
    }
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        if (args.size() > 1 && cmd != "help") fail("unexpected argument after --help", "nothing", args[1]);
        std::string help = kHelp;
        const auto at = help.find("%WHATS%");
        if (at != std::string::npos) help.replace(at, 7, computeWhatNames());
        std::fputs(help.c_str(), stdout);
        return 0;
    }
    if (cmd == "--version") {
        if (args.size() > 1) fail("unexpected argument after --version", "nothing", args[1]);
        std::printf("poslab %s\n", POSLAB_VERSION);
        return 0;
    }
    if (cmd == "--session" || cmd.rfind("--session=", 0) == 0) {
        std::string file;
        std::size_t used = 1;
        if (cmd == "--session") {
            if (args.size() < 2) fail("missing value for --session", "a session FILE", "nothing");
            file = args[1];
            used = 2;
        } else {
            file = cmd.substr(10);
        }
        if (file.empty()) fail("invalid --session", "a session FILE", "an empty name");
        if (args.size() > used) fail("unexpected argument after --session FILE", "nothing", args[used]);
        return poslab::ui::runExplorer(argc, argv, QString::fromLocal8Bit(file.c_str()));
    }
    fail("unknown command", "compute, figure, presets, demos, --session FILE, --help or --version", cmd);
}

}  // namespace

std::string oneLine(std::string text) {
    for (char& c : text)
        if ((static_cast<unsigned char>(c) < 0x20) || c == 0x7f) c = ' ';
    return text;
}

int run(int argc, char** argv) {
    try {
        return dispatch(argc, argv);
    } catch (const CliError& e) {
        printError(e.line);
        return e.code;
    } catch (const std::bad_alloc&) {
        printError("out of memory");
        return 1;
    } catch (const std::exception& e) {
        printError(std::string("internal failure: ") + e.what());
        return 1;
    } catch (...) {
        printError("internal failure");
        return 1;
    }
}

}  // namespace poslab::cli
