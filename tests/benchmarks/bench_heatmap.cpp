// Heatmap benchmark: computeHeatmap() (what the window's heatmap task computes, before drawing)
// for a long sequence, every relative method with ones content (double precision for RoPE and
// xPos), each pixel the exact mean or max of its block of cells. Median of --repeat runs.
// Prints one JSON object per case on its own line:
//   {"method", "aggregate", "length", "cells", "dim", "window", "ms_median", "ms_min", "exact": true|false}
// The targets: N = 65536 within one 60 Hz frame (16.7 ms, issue #11); a sliding-window layer at
// N = 131072 (--window W, causal) within the live-update targets (issue #17).
//   bench_heatmap [--length N] [--cells C] [--dim d] [--repeat R] [--method M] [--window W] [--precision P]
#include "ui/model/compute.h"

#include <QCoreApplication>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace poslab;
using namespace poslab::ui;

namespace {

[[noreturn]] void usage(const std::string& why) {
    std::fprintf(stderr, "bench_heatmap: %s\nusage: bench_heatmap [--length N] [--cells C] [--dim d] [--repeat R] [--method M] [--window W] [--precision P]\n",
                 why.c_str());
    std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    std::int64_t length = 65536;
    int cells = 512, dim = 128, repeat = 9;
    std::int64_t window = 0;   // 0: full attention
    Precision precision = Precision::Double;
    std::vector<std::string> methods = {"rope", "xpos", "alibi", "t5", "shaw", "transformer-xl", "nope"};
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) usage("missing value for " + a);
        const std::string v = argv[++i];
        if (a == "--length") length = std::stoll(v);
        else if (a == "--cells") cells = std::stoi(v);
        else if (a == "--dim") dim = std::stoi(v);
        else if (a == "--repeat") repeat = std::max(1, std::stoi(v));
        else if (a == "--method") methods = {v};
        else if (a == "--window") window = std::stoll(v);
        else if (a == "--precision") {
            const auto pr = enumFromKey<Precision>(v);
            if (!pr) usage("unknown precision " + v);
            precision = *pr;
        }
        else usage("unknown option " + a);
    }
    for (const auto& m : methods) {
        const auto method = methodFromKey(m);
        if (!method) usage("unknown method " + m);
        for (Aggregate agg : {Aggregate::Mean, Aggregate::Max}) {
            SceneParams scene;
            scene.length = length;
            auto& p = scene.methods.front().params;
            p.method = *method;
            p.dim = dim;
            p.content = Content::Ones;
            p.precision = precision;
            p.xpos.scale_base = 65536;   // ζ^(d/scale_base) within double range over the whole sequence
            scene.view.aggregate = agg;
            if (window > 0) {
                p.attention.window = window;
                p.causal = true;
            }
            DisplaySpec d;
            d.heatmapCells = cells;
            std::vector<double> ms;
            bool exact = true;
            for (int r = 0; r < repeat; ++r) {
                const auto t0 = std::chrono::steady_clock::now();
                const HeatmapResult res = computeHeatmap(scene, d);
                const auto t1 = std::chrono::steady_clock::now();
                ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
                const auto& panel = res.panels.front();
                if (!panel.error.isEmpty()) {
                    std::fprintf(stderr, "bench_heatmap: %s: %s\n", m.c_str(), panel.error.toUtf8().constData());
                    return 1;
                }
                exact = panel.cells != HeatmapCells::Sample;
            }
            std::sort(ms.begin(), ms.end());
            std::printf("{\"method\": \"%s\", \"aggregate\": \"%s\", \"length\": %lld, \"cells\": %d, \"dim\": %d, "
                        "\"window\": %lld, \"ms_median\": %.3f, \"ms_min\": %.3f, \"exact\": %s}\n",
                        m.c_str(), std::string(enumKey(agg)).c_str(), static_cast<long long>(length), cells, dim,
                        static_cast<long long>(window),
                        ms[ms.size() / 2], ms.front(), exact ? "true" : "false");
            std::fflush(stdout);
        }
    }
    return 0;
}
