// libFuzzer target: the config.json reader (ui/io/modelconfig.h parseHfConfig), what
// `--config FILE`, File → Open model configuration… and drag-and-drop read.
// Build and run: tests/fuzz/run_fuzzers.sh fuzz_modelconfig; seeds in tests/fuzz/corpus/modelconfig/.
//
// Beyond "no crash, no sanitizer report", the reader's contract aborts on violation:
//   - a refusal is one non-empty line (file text is escaped: a key or value with a newline);
//   - an accepted configuration validates, and its RoPE frequencies (for a RoPE model) are
//     finite: what the views and `compute frequencies` then draw.
#include "ui/io/modelconfig.h"

#include <QByteArray>
#include <QString>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace poslab;
using namespace poslab::ui;

namespace {
[[noreturn]] void violated(const char* what, const QString& detail) {
    std::fprintf(stderr, "fuzz_modelconfig: %s: %s\n", what, qPrintable(detail.left(500)));
    std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QByteArray json(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const ModelConfigResult r = parseHfConfig(json);
    if (!r.config) {
        if (r.error.isEmpty() || r.error.contains(QLatin1Char('\n')) || r.error.contains(QLatin1Char('\r')))
            violated("refusal not one line", r.error);
        return 0;
    }
    const ScoreParams& p = r.config->params;
    if (auto e = p.validate()) violated("accepted parameters that do not validate", QString::fromStdString(e->parameter));
    if (p.method == Method::Rope) {
        const RopeFrequencies f = ropeFrequencies(p.ropeParams());
        for (Eigen::Index i = 0; i < f.inv_freq.size(); ++i)
            if (!std::isfinite(f.inv_freq[i])) violated("non-finite inv_freq", QString::number(i));
        if (!std::isfinite(f.attention_factor)) violated("non-finite attention factor", QString());
    }
    return 0;
}
