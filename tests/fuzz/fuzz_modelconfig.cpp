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

#include "fuzzcheck.h"

#include <cmath>
#include <cstdint>

using namespace poslab;
using namespace poslab::ui;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QByteArray json(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const ModelConfigResult r = parseHfConfig(json);
    if (!r.config) {
        assert(fuzzcheck::oneLine(r.error) || fuzzcheck::explain("refusal not one line", r.error));
        return 0;
    }
    const ScoreParams& p = r.config->params;
    const auto e = p.validate();
    assert(!e || fuzzcheck::explain("accepted parameters that do not validate",
                                    e ? QString::fromStdString(e->parameter) : QString()));
    if (p.method == Method::Rope) {
        const RopeFrequencies f = ropeFrequencies(p.ropeParams());
        for (Eigen::Index i = 0; i < f.inv_freq.size(); ++i)
            assert(std::isfinite(f.inv_freq[i]) ||
                   fuzzcheck::explain("non-finite inv_freq", QString::number(i)));
        assert(std::isfinite(f.attention_factor) ||
               fuzzcheck::explain("non-finite attention factor", QString()));
    }
    return 0;
}
