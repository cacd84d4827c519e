// libFuzzer target: the GGUF metadata reader (ui/io/gguf.h parseGgufMetadata) and the
// configuration built from it (ui/io/modelconfig.h parseGgufConfig).
// Build and run: tests/fuzz/run_fuzzers.sh fuzz_gguf; seeds in tests/fuzz/corpus/gguf/.
//
// Contract checked (abort on violation): never reads outside [data, data + size) (ASan: the
// input is libFuzzer's exactly-sized buffer); a refusal is one line; an accepted header has
// version 2 or 3 and at most kGgufMaxKeys entries; an accepted configuration validates.
#include "ui/io/gguf.h"
#include "ui/io/modelconfig.h"

#include "fuzzcheck.h"

#include <QString>

#include <cstdint>

using namespace poslab;
using namespace poslab::ui;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const char* bytes = reinterpret_cast<const char*>(data);
    const GgufResult g = parseGgufMetadata(bytes, size);
    if (!g.meta) {
        assert(fuzzcheck::oneLine(g.error) || fuzzcheck::explain("refusal not one line", g.error));
    } else {
        assert((g.meta->version == 2 || g.meta->version == 3) ||
               fuzzcheck::explain("accepted version", QString::number(g.meta->version)));
        assert(g.meta->kv.size() <= kGgufMaxKeys ||
               fuzzcheck::explain("too many keys", QString::number(g.meta->kv.size())));
    }
    const ModelConfigResult r = parseGgufConfig(bytes, size);
    if (!r.config) {
        assert(fuzzcheck::oneLine(r.error) ||
               fuzzcheck::explain("configuration refusal not one line", r.error));
    } else {
        const auto e = r.config->params.validate();
        assert(!e || fuzzcheck::explain("accepted parameters that do not validate",
                                        e ? QString::fromStdString(e->parameter) : QString()));
    }
    return 0;
}
