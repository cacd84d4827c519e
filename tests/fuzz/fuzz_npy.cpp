// libFuzzer target: the .npy header and data (ui/io/qkfile.h parseNpy) and the
// query/key rows built from it (loadQkFromBuffer, heads 0 and 1).
// Build and run: tests/fuzz/run_fuzzers.sh fuzz_npy; seeds in tests/fuzz/corpus/npy/.
//
// Contract checked (abort on violation): never reads outside [data, data + size) (ASan: the
// input is libFuzzer's exactly-sized buffer, and accepted tensors are read whole); a refusal is
// one line; every accepted tensor lies inside the buffer (stored data) with bytes = its shape's
// size; accepted rows have the shape's d, N >= 1, and finite values.
#include "ui/io/qkfile.h"

#include <QString>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace poslab;
using namespace poslab::ui;

namespace {
[[noreturn]] void violated(const char* what, const QString& detail) {
    std::fprintf(stderr, "fuzz_npy: %s: %s\n", what, qPrintable(detail.left(500)));
    std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const char* bytes = reinterpret_cast<const char*>(data);
    const TensorList t = parseNpy(bytes, size);
    if (!t.ok()) {
        if (t.error.contains(QLatin1Char('\n'))) violated("refusal not one line", t.error);
    } else {
        for (const auto& e : t.tensors) {
            if (!e.shape.empty() && e.shape.front() < 0) continue;   // a dtype nobody asked for
            std::uint64_t n = static_cast<std::uint64_t>(tensorDTypeSize(e.dtype));
            for (auto s : e.shape) n *= static_cast<std::uint64_t>(s);
            if (n != e.bytes) violated("bytes differ from the shape", QString::number(e.bytes));
            if (!e.deflated && (e.offset > size || e.bytes > size - e.offset))
                violated("tensor outside the buffer", QString::number(e.offset));
            if (e.deflated && (e.offset > size || e.compressedBytes > size - e.offset))
                violated("deflated member outside the buffer", QString::number(e.offset));
        }
    }
    for (int head : {0, 1}) {
        const QkLoad r = loadQkFromBuffer(bytes, size, head, QStringLiteral("f.npy"));
        if (!r.content) {
            if (r.error.isEmpty() || r.error.contains(QLatin1Char('\n'))) violated("load refusal not one line", r.error);
            continue;
        }
        const auto n = r.content->length();
        const int d = r.content->dim();
        if (n < 1 || d < 1) violated("empty rows accepted", QString::number(n));
        const Matrix q = r.content->rows(false, {0, n - 1});
        const Matrix k = r.content->rows(true, {n - 1, 0});
        if (q.cols() != d || k.cols() != d) violated("row width", QString::number(q.cols()));
        if (!q.allFinite() || !k.allFinite()) violated("non-finite rows accepted", QString());
    }
    return 0;
}
