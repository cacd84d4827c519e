#pragma once
// The dot-product kernel behind scoresSummary(): out[i][j] = scale·(q_i · k_j) for a block of
// query rows against the first `cols` key rows, with the keys packed once into column panels.
// Runtime dispatch picks AVX-512, AVX2+FMA or SSE2 code (GCC target attributes; no
// instruction the CPU lacks is ever executed). Plain C++ (GCC vector extensions), no Eigen.
#include <cstdint>
#include <vector>

namespace poslab {

struct PackedKeys {
    std::vector<double> data;   // panels of `nr` keys: panel p, channel c, key r at [(p·dim + c)·nr + r]
    std::int64_t n = 0;         // number of keys
    int dim = 0;
    int nr = 0;                 // keys per panel (depends on the instruction set chosen)
};

// k: n × dim, row-major. Precondition: n >= 0, dim >= 1.
PackedKeys packKeys(const double* k, std::int64_t n, int dim);

// q: rows × dim row-major; out: rows × cols row-major (leading dimension cols).
// Precondition: 0 <= cols <= keys.n. Returns whether every value stored is below +∞ (finite or
// −∞: no NaN, no +∞), checked while the values are in registers (scores() needs no pass of its own).
bool scaledDots(const double* q, std::int64_t rows, const PackedKeys& keys, std::int64_t cols, double scale,
                double* out);

// Sum, minimum and maximum of scale·(q_i · k_j) over rows i (global index rowStart + r) and keys
// j < cols, and with `causal` only j <= i — the same numbers as scaledDots without storing them.
struct DotSummary {
    double sum = 0;
    double min = 0, max = 0;
    std::int64_t count = 0;   // entries summarised (min/max are meaningful when count > 0)
};
DotSummary scaledDotsSummary(const double* q, std::int64_t rows, std::int64_t rowStart, const PackedKeys& keys,
                             std::int64_t cols, double scale, bool causal);

// Which code path the dispatcher chose: "avx512", "avx2", "sse2" (for benchmarks and tests).
const char* scaledDotsIsa();

}  // namespace poslab
