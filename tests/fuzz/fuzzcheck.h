#pragma once
// What every libFuzzer target here asserts, beyond "no crash, no sanitizer report": the reader's
// contract, as plain assert()s kept active in every build type (tests/fuzz/CMakeLists.txt
// compiles the targets with -UNDEBUG), written
//     assert(condition || fuzzcheck::explain("what broke", detail));
// explain() prints one line naming what broke and the offending value and returns false, so the
// assert aborts and libFuzzer saves the input as a crash. Also the contract the three q/k
// readers share (qkReaderKeepsContract).
#ifdef NDEBUG
#error \
    "the fuzz targets' assert() checks must stay active: compile them with -UNDEBUG (tests/fuzz/CMakeLists.txt)"
#endif
#include "ui/io/qkfile.h"

#include <QString>

#include <cassert>
#include <cstdint>
#include <cstdio>

namespace fuzzcheck {

// Prints "contract violated: <what>: <detail>" (detail cut to 500 characters); returns false.
inline bool explain(const char* what, const QString& detail) {
    std::fprintf(stderr, "contract violated: %s: %s\n", what, qPrintable(detail.left(500)));
    return false;
}

// A message shown to people: one non-empty line, whatever the input holds.
inline bool oneLine(const QString& s) {
    return !s.isEmpty() && !s.contains(QLatin1Char('\n')) && !s.contains(QLatin1Char('\r'));
}

// Whether a q/k file reader (parseNpy, parseNpz, parseSafetensors) keeps its contract on one
// input (explained on stderr where it does not): a refusal is one line; every accepted tensor
// lies inside the buffer (stored data, or a deflated member) with bytes = its shape's size; the
// rows loaded from it (heads 0 and 1) have the shape's d, N >= 1, and finite values. `name`
// gives the file type (its extension).
inline bool qkReaderKeepsContract(poslab::ui::TensorList (*parse)(const char*, std::size_t),
                                  const std::uint8_t* data, std::size_t size, const QString& name) {
    using namespace poslab;
    using namespace poslab::ui;
    const char* bytes = reinterpret_cast<const char*>(data);
    const TensorList t = parse(bytes, size);
    if (!t.ok()) {
        if (t.error.contains(QLatin1Char('\n'))) return explain("refusal not one line", t.error);
    } else {
        for (const auto& e : t.tensors) {
            if (!e.shape.empty() && e.shape.front() < 0) continue;  // a dtype nobody asked for
            std::uint64_t n = static_cast<std::uint64_t>(tensorDTypeSize(e.dtype));
            for (auto s : e.shape) n *= static_cast<std::uint64_t>(s);
            if (n != e.bytes) return explain("bytes differ from the shape", QString::number(e.bytes));
            const std::uint64_t stored = e.deflated ? e.compressedBytes : e.bytes;
            if (e.offset > size || stored > size - e.offset)
                return explain("tensor outside the buffer", QString::number(e.offset));
        }
    }
    for (int head : {0, 1}) {
        const QkLoad r = loadQkFromBuffer(bytes, size, head, name);
        if (!r.content) {
            if (!oneLine(r.error)) return explain("load refusal not one line", r.error);
            continue;
        }
        const auto n = r.content->length();
        const int d = r.content->dim();
        if (n < 1 || d < 1) return explain("empty rows accepted", QString::number(n));
        const Matrix q = r.content->rows(false, {0, n - 1});
        const Matrix k = r.content->rows(true, {n - 1, 0});
        if (q.cols() != d || k.cols() != d) return explain("row width", QString::number(q.cols()));
        if (!q.allFinite() || !k.allFinite()) return explain("non-finite rows accepted", QString());
    }
    return true;
}

}  // namespace fuzzcheck
