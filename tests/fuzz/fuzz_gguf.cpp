// libFuzzer target: the GGUF metadata reader (ui/io/gguf.h parseGgufMetadata) and the
// configuration built from it (ui/io/modelconfig.h parseGgufConfig).
// Build and run: tests/fuzz/run_fuzzers.sh fuzz_gguf; seeds in tests/fuzz/corpus/gguf/.
//
// Contract checked (abort on violation): never reads outside [data, data + size) (ASan: the
// input is libFuzzer's exactly-sized buffer); a refusal is one line; an accepted header has
// version 2 or 3 and at most kGgufMaxKeys entries; an accepted configuration validates.
#include "ui/io/gguf.h"
#include "ui/io/modelconfig.h"

#include <QString>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace poslab;
using namespace poslab::ui;

namespace {
[[noreturn]] void violated(const char* what, const QString& detail) {
    std::fprintf(stderr, "fuzz_gguf: %s: %s\n", what, qPrintable(detail.left(500)));
    std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const char* bytes = reinterpret_cast<const char*>(data);
    const GgufResult g = parseGgufMetadata(bytes, size);
    if (!g.meta) {
        if (g.error.isEmpty() || g.error.contains(QLatin1Char('\n'))) violated("refusal not one line", g.error);
    } else {
        if (g.meta->version != 2 && g.meta->version != 3) violated("accepted version", QString::number(g.meta->version));
        if (g.meta->kv.size() > kGgufMaxKeys) violated("too many keys", QString::number(g.meta->kv.size()));
    }
    const ModelConfigResult r = parseGgufConfig(bytes, size);
    if (!r.config) {
        if (r.error.isEmpty() || r.error.contains(QLatin1Char('\n'))) violated("configuration refusal not one line", r.error);
    } else if (auto e = r.config->params.validate()) {
        violated("accepted parameters that do not validate", QString::fromStdString(e->parameter));
    }
    return 0;
}
