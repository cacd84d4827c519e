#pragma once
// What every libFuzzer target here asserts, beyond "no crash, no sanitizer report":
// FUZZ_ASSERT(condition, what, detail) aborts with a one-line reason when a reader breaks its
// contract (libFuzzer then saves the input as a crash). Active in every build type (unlike
// assert(), which NDEBUG removes). Also the checks the three q/k readers share.
#include "ui/io/qkfile.h"

#include <QString>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace fuzzcheck {

[[noreturn]] inline void fail(const char* file, const char* what, const QString& detail) {
    std::fprintf(stderr, "%s: contract violated: %s: %s\n", file, what, qPrintable(detail.left(500)));
    std::abort();
}

// A message shown to people: one non-empty line, whatever the input holds.
inline bool oneLine(const QString& s) {
    return !s.isEmpty() && !s.contains(QLatin1Char('\n')) && !s.contains(QLatin1Char('\r'));
}

}  // namespace fuzzcheck

#define FUZZ_ASSERT(condition, what, detail)                                            \
    do {                                                                                \
        if (!(condition)) ::fuzzcheck::fail(__FILE__, what, QString(detail));           \
    } while (false)

namespace fuzzcheck {

// The contract of a q/k file reader (parseNpy, parseNpz, parseSafetensors) on one input:
// a refusal is one line; every accepted tensor lies inside the buffer (stored data, or a
// deflated member) with bytes = its shape's size; the rows loaded from it (heads 0 and 1) have
// the shape's d, N >= 1, and finite values. `name` gives the file type (its extension).
inline void checkQkReader(poslab::ui::TensorList (*parse)(const char*, std::size_t), const std::uint8_t* data,
                          std::size_t size, const QString& name) {
    using namespace poslab;
    using namespace poslab::ui;
    const char* bytes = reinterpret_cast<const char*>(data);
    const TensorList t = parse(bytes, size);
    if (!t.ok()) {
        FUZZ_ASSERT(!t.error.contains(QLatin1Char('\n')), "refusal not one line", t.error);
    } else {
        for (const auto& e : t.tensors) {
            if (!e.shape.empty() && e.shape.front() < 0) continue;   // a dtype nobody asked for
            std::uint64_t n = static_cast<std::uint64_t>(tensorDTypeSize(e.dtype));
            for (auto s : e.shape) n *= static_cast<std::uint64_t>(s);
            FUZZ_ASSERT(n == e.bytes, "bytes differ from the shape", QString::number(e.bytes));
            const std::uint64_t stored = e.deflated ? e.compressedBytes : e.bytes;
            FUZZ_ASSERT(e.offset <= size && stored <= size - e.offset, "tensor outside the buffer",
                        QString::number(e.offset));
        }
    }
    for (int head : {0, 1}) {
        const QkLoad r = loadQkFromBuffer(bytes, size, head, name);
        if (!r.content) {
            FUZZ_ASSERT(oneLine(r.error), "load refusal not one line", r.error);
            continue;
        }
        const auto n = r.content->length();
        const int d = r.content->dim();
        FUZZ_ASSERT(n >= 1 && d >= 1, "empty rows accepted", QString::number(n));
        const Matrix q = r.content->rows(false, {0, n - 1});
        const Matrix k = r.content->rows(true, {n - 1, 0});
        FUZZ_ASSERT(q.cols() == d && k.cols() == d, "row width", QString::number(q.cols()));
        FUZZ_ASSERT(q.allFinite() && k.allFinite(), "non-finite rows accepted", QString());
    }
}

}  // namespace fuzzcheck
