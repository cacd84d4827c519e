// Decay benchmark: decayCurve() (what `poslab compute decay` computes, without printing) for
// every method at D distances and dimension d, median of --repeat runs of the computation in
// process. Prints one JSON object per case on its own line:
//   {"method", "precision", "max_distance", "dim", "ms_median", "ms_min", "sum", "min", "max",
//    "bound_sum"?}
// so that bench_decay.py can set it beside NumPy computing the same curve in the same run.
//   bench_decay [--max-distance D] [--dim d] [--repeat N] [--method M] [--precision P] [--base B]
#include "core/decay.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace poslab;

namespace {

[[noreturn]] void usage(const std::string& why) {
    std::fprintf(stderr, "bench_decay: %s\nusage: bench_decay [--max-distance D] [--dim d] [--repeat N] [--method M] "
                         "[--precision float32|double] [--base B]\n", why.c_str());
    std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
    std::int64_t maxD = 131072;
    int dim = 128, repeat = 7;
    double base = 10000.0;
    std::vector<std::string> methods = {"nope", "sinusoidal", "shaw", "t5", "transformer-xl", "alibi", "rope", "xpos"};
    std::vector<Precision> precisions = {Precision::Double};
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) usage("missing value for " + a);
        const std::string v = argv[++i];
        if (a == "--max-distance") maxD = std::stoll(v);
        else if (a == "--dim") dim = std::stoi(v);
        else if (a == "--repeat") repeat = std::max(1, std::stoi(v));
        else if (a == "--base") base = std::stod(v);
        else if (a == "--method") methods = {v};
        else if (a == "--precision") precisions = {v == "float32" ? Precision::Float32 : Precision::Double};
        else usage("unknown option " + a);
    }
    for (const auto& m : methods) {
        const auto method = methodFromKey(m);
        if (!method) usage("unknown method " + m);
        for (auto pr : precisions) {
            ScoreParams p;
            p.method = *method;
            p.dim = dim;
            p.content = Content::Formula;
            p.precision = pr;
            p.rope.base = base;
            p.alibi.heads = 8;
            p.t5.heads = 8;
            // xPos's scale ζ^(d/scale_base) stays in float range only for d/scale_base·ln(3.5) <= 60:
            // a scale_base that admits the whole range (torchscale's 512 admits about 24 500).
            p.xpos.scale_base = std::max(512.0, static_cast<double>(maxD) / 40.0);
            std::vector<double> ms;
            Result<DecayCurve> last = ParamError{"", "", ""};
            for (int r = 0; r < repeat; ++r) {
                const auto t0 = std::chrono::steady_clock::now();
                last = decayCurve(p, maxD);
                const auto t1 = std::chrono::steady_clock::now();
                if (!last) break;
                ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            }
            if (!last) {
                // A refusal (the work limit) is a result too: say so, with how long refusing took.
                if (last.error().valid.find("work limit") == std::string::npos) {
                    std::fprintf(stderr, "bench_decay: %s: %s: %s, got %s\n", m.c_str(), last.error().parameter.c_str(),
                                 last.error().valid.c_str(), last.error().got.c_str());
                    return 1;
                }
                std::printf("{\"method\": \"%s\", \"precision\": \"%s\", \"refused\": \"%s, got %s\"}\n", m.c_str(),
                            pr == Precision::Double ? "double" : "float32", last.error().valid.c_str(),
                            last.error().got.c_str());
                continue;
            }
            std::sort(ms.begin(), ms.end());
            const DecayCurve& c = last.value();
            std::printf("{\"method\": \"%s\", \"precision\": \"%s\", \"max_distance\": %lld, \"dim\": %d, "
                        "\"ms_median\": %.3f, \"ms_min\": %.3f, \"sum\": %.17g, \"min\": %.17g, \"max\": %.17g",
                        m.c_str(), pr == Precision::Double ? "double" : "float32", static_cast<long long>(maxD), dim,
                        ms[ms.size() / 2], ms.front(), c.value.sum(), c.value.minCoeff(), c.value.maxCoeff());
            if (c.bound) std::printf(", \"bound_sum\": %.17g", c.bound->sum());
            std::printf("}\n");
            std::fflush(stdout);
        }
    }
    return 0;
}
