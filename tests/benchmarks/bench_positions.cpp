// Multimodal positions benchmark (issue 30): what `poslab compute positions` computes and prints —
// the token layout parsed, get_rope_index's ids (core/mrope.h) and the JSON document — in process,
// median of --repeat runs. Default layout: the 1000 text tokens, a 74×74-patch image
// (image:1x74x74, 37×37 = 1369 tokens after merging by 2) and a 30-frame 40×40 video
// (video:30x40x40, 30·20·20 = 12000 tokens). Prints one JSON object:
//   {"tokens_layout", "model", "tokens", "bytes", "ms_median", "ms_min"}
//   bench_positions [--tokens LAYOUT] [--model qwen2-vl|qwen2.5-vl|qwen3-vl] [--repeat N]
#include "core/json.h"
#include "core/mrope.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace poslab;

namespace {
[[noreturn]] void usage(const std::string& why) {
    std::fprintf(stderr, "bench_positions: %s\nusage: bench_positions [--tokens LAYOUT] [--model M] [--repeat N]\n", why.c_str());
    std::exit(2);
}
}  // namespace

int main(int argc, char** argv) {
    MropeParams p;
    p.tokens = "text:1000,image:1x74x74,video:30x40x40";
    int repeat = 9;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) usage("missing value for " + a);
        const std::string v = argv[++i];
        if (a == "--tokens") p.tokens = v;
        else if (a == "--model") {
            const auto m = enumFromKey<MropeModel>(v);
            if (!m) usage("unknown model " + v);
            p.model = *m;
        } else if (a == "--repeat") repeat = std::max(1, std::atoi(v.c_str()));
        else usage("unknown option " + a);
    }
    if (auto e = p.validate()) usage(e->message());
    std::vector<double> ms;
    std::size_t bytes = 0;
    std::int64_t tokens = 0;
    for (int r = 0; r < repeat; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        const auto res = mropePositions(p);
        if (!res) usage(res.error().message());
        const MropePositions& m = res.value();
        JsonWriter j;
        j.beginObject();
        j.key("position_ids").intMatrix(m.ids);
        j.key("rope_deltas").integer(m.rope_deltas);
        j.key("kinds").beginArray();
        for (TokenKind k : m.kinds) j.string(tokenKindKey(k));
        j.endArray();
        j.endObject();
        bytes = j.text().size();
        tokens = m.ids.cols();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    std::printf("{\"tokens_layout\": \"%s\", \"model\": \"%s\", \"tokens\": %lld, \"bytes\": %zu, \"ms_median\": %.3f, \"ms_min\": %.3f}\n",
                p.tokens.c_str(), std::string(enumKey(p.model)).c_str(), static_cast<long long>(tokens), bytes, ms[ms.size() / 2],
                ms.front());
    return 0;
}
