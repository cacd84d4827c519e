// Register-blocked dot products (see scores_kernel.h). One generic body, instantiated for three
// vector widths inside functions compiled for AVX-512, AVX2+FMA and baseline x86-64; the
// dispatcher asks the CPU once. Multiply-adds are written as explicit fused operations where the
// target has them, so the speed does not depend on -ffp-contract.
#include "core/scores_kernel.h"
#include "core/ensure.h"

#include "core/parallel.h"

#include <algorithm>
#include <cstring>

namespace poslab {
namespace {

typedef double v2d __attribute__((vector_size(16)));
typedef double v4d __attribute__((vector_size(32)));
typedef double v8d __attribute__((vector_size(64)));

enum class Isa { Sse2, Avx2, Avx512 };

Isa detectIsa() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return Isa::Avx512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return Isa::Avx2;
#endif
    return Isa::Sse2;
}

const Isa kIsa = detectIsa();

constexpr int kPanelVectors = 3;   // vectors of keys per micro-tile row

int panelWidth(Isa isa) {
    switch (isa) {
    case Isa::Avx512: return kPanelVectors * 8;
    case Isa::Avx2: return kPanelVectors * 4;
    case Isa::Sse2: return kPanelVectors * 2;
    }
    return kPanelVectors * 2;
}

template <class V>
__attribute__((always_inline)) inline void load(V& v, const double* p) {
    std::memcpy(&v, p, sizeof(V));
}

// MR query rows × one panel (kPanelVectors·W keys). `valid` keys of the panel are stored.
// Lanes all-ones where a stored value is below +∞ (finite or −∞; false for NaN).
template <class V>
using Mask = decltype(V{} < V{});

// `below` keeps, lane by lane, whether every stored value so far was below +∞ (the finiteness
// check of scores(), fused into the stores while the values are in registers).
template <class V, int MR>
__attribute__((always_inline)) inline void tile(const double* q, int dim, const double* panel, double scale,
                                               double* out, std::int64_t ldo, int valid, Mask<V>& below) {
    constexpr int W = sizeof(V) / sizeof(double);
    constexpr int NR = kPanelVectors * W;
    V acc[MR][kPanelVectors];
    for (int r = 0; r < MR; ++r)
        for (int v = 0; v < kPanelVectors; ++v) acc[r][v] = V{} ;
    for (int c = 0; c < dim; ++c) {
        const double* b = panel + static_cast<std::int64_t>(c) * NR;
        V b0, b1, b2;
        load(b0, b);
        load(b1, b + W);
        load(b2, b + 2 * W);
        for (int r = 0; r < MR; ++r) {
            const double a = q[static_cast<std::int64_t>(r) * dim + c];
            const V av = a - V{};   // broadcast
            acc[r][0] += av * b0;
            acc[r][1] += av * b1;
            acc[r][2] += av * b2;
        }
    }
    const V inf = __builtin_inf() - V{};
    for (int r = 0; r < MR; ++r) {
        double* o = out + r * ldo;
        if (valid == NR) {
            for (int v = 0; v < kPanelVectors; ++v) {
                const V x = acc[r][v] * scale;
                below &= x < inf;
                std::memcpy(o + v * W, &x, sizeof(V));
            }
        } else {
            double tmp[NR];
            for (int v = 0; v < kPanelVectors; ++v) {
                const V x = acc[r][v] * scale;
                std::memcpy(tmp + v * W, &x, sizeof(V));
            }
            for (int j = 0; j < valid; ++j) {
                o[j] = tmp[j];
                if (!(tmp[j] < __builtin_inf())) below[0] = 0;
            }
        }
    }
}

// Running sum/min/max in vector lanes plus a scalar part for partial tiles.
template <class V>
struct Reducer {
    V vsum{}, vmin, vmax;
    double sum = 0, mn = __builtin_inf(), mx = -__builtin_inf();
    std::int64_t count = 0;
};

template <class V, int MR>
__attribute__((always_inline)) inline void tileReduce(const double* q, int dim, const double* panel, double scale,
                                                     std::int64_t row0, std::int64_t col0, bool causal, int valid,
                                                     Reducer<V>& red) {
    constexpr int W = sizeof(V) / sizeof(double);
    constexpr int NR = kPanelVectors * W;
    V acc[MR][kPanelVectors];
    for (int r = 0; r < MR; ++r)
        for (int v = 0; v < kPanelVectors; ++v) acc[r][v] = V{};
    for (int c = 0; c < dim; ++c) {
        const double* b = panel + static_cast<std::int64_t>(c) * NR;
        V b0, b1, b2;
        load(b0, b);
        load(b1, b + W);
        load(b2, b + 2 * W);
        for (int r = 0; r < MR; ++r) {
            const double a = q[static_cast<std::int64_t>(r) * dim + c];
            const V av = a - V{};
            acc[r][0] += av * b0;
            acc[r][1] += av * b1;
            acc[r][2] += av * b2;
        }
    }
    for (int r = 0; r < MR; ++r) {
        // Keys of this row inside the panel: all `valid`, or up to the diagonal when causal.
        std::int64_t n = valid;
        if (causal) n = std::min<std::int64_t>(n, row0 + r - col0 + 1);
        if (n <= 0) continue;
        if (n == NR) {
            for (int v = 0; v < kPanelVectors; ++v) {
                const V x = acc[r][v] * scale;
                red.vsum += x;
                red.vmin = x < red.vmin ? x : red.vmin;
                red.vmax = x > red.vmax ? x : red.vmax;
            }
            red.count += NR;
        } else {
            double tmp[NR];
            for (int v = 0; v < kPanelVectors; ++v) {
                const V x = acc[r][v] * scale;
                std::memcpy(tmp + v * W, &x, sizeof(V));
            }
            for (std::int64_t j = 0; j < n; ++j) {
                red.sum += tmp[j];
                red.mn = tmp[j] < red.mn ? tmp[j] : red.mn;
                red.mx = tmp[j] > red.mx ? tmp[j] : red.mx;
            }
            red.count += n;
        }
    }
}

template <class V, int TR>
__attribute__((always_inline)) inline DotSummary dotsSummary(const double* q, std::int64_t rows, std::int64_t rowStart,
                                                            const PackedKeys& keys, std::int64_t cols, double scale,
                                                            bool causal) {
    constexpr int W = sizeof(V) / sizeof(double);
    constexpr int NR = kPanelVectors * W;
    const int dim = keys.dim;
    Reducer<V> red;
    red.vmin = __builtin_inf() - V{};
    red.vmax = -__builtin_inf() - V{};
    const std::int64_t panels = (cols + NR - 1) / NR;
    for (std::int64_t p = 0; p < panels; ++p) {
        const double* panel = keys.data.data() + p * dim * NR;
        const int valid = static_cast<int>(std::min<std::int64_t>(NR, cols - p * NR));
        std::int64_t r = 0;
        // Causal: rows whose diagonal is left of this panel contribute nothing.
        if (causal) r = std::max<std::int64_t>(0, std::min<std::int64_t>(rows, p * NR - rowStart)) / TR * TR;
        for (; r + TR <= rows; r += TR)
            tileReduce<V, TR>(q + r * dim, dim, panel, scale, rowStart + r, p * NR, causal, valid, red);
        for (; r < rows; ++r) tileReduce<V, 1>(q + r * dim, dim, panel, scale, rowStart + r, p * NR, causal, valid, red);
    }
    DotSummary s;
    double lanes[W];
    std::memcpy(lanes, &red.vsum, sizeof(V));
    s.sum = red.sum;
    for (int i = 0; i < W; ++i) s.sum += lanes[i];
    double mn = red.mn, mx = red.mx;
    std::memcpy(lanes, &red.vmin, sizeof(V));
    for (int i = 0; i < W; ++i) mn = lanes[i] < mn ? lanes[i] : mn;
    std::memcpy(lanes, &red.vmax, sizeof(V));
    for (int i = 0; i < W; ++i) mx = lanes[i] > mx ? lanes[i] : mx;
    s.min = mn;
    s.max = mx;
    s.count = red.count;
    return s;
}

template <class V, int TR>
__attribute__((always_inline)) inline bool dots(const double* q, std::int64_t rows, const PackedKeys& keys,
                                               std::int64_t cols, double scale, double* out) {
    constexpr int W = sizeof(V) / sizeof(double);
    constexpr int NR = kPanelVectors * W;
    const int dim = keys.dim;
    const std::int64_t panels = (cols + NR - 1) / NR;
    Mask<V> below = ~Mask<V>{};
    for (std::int64_t p = 0; p < panels; ++p) {
        const double* panel = keys.data.data() + p * dim * NR;
        const int valid = static_cast<int>(std::min<std::int64_t>(NR, cols - p * NR));
        std::int64_t r = 0;
        for (; r + TR <= rows; r += TR)
            tile<V, TR>(q + r * dim, dim, panel, scale, out + r * cols + p * NR, cols, valid, below);
        for (; r < rows; ++r) tile<V, 1>(q + r * dim, dim, panel, scale, out + r * cols + p * NR, cols, valid, below);
    }
    bool all = true;
    for (int i = 0; i < W; ++i) all = all && below[i] != 0;
    return all;
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx512f,fma"), optimize("fp-contract=fast")))
DotSummary summaryAvx512(const double* q, std::int64_t rows, std::int64_t r0, const PackedKeys& keys, std::int64_t cols,
                         double scale, bool causal) {
    return dotsSummary<v8d, 8>(q, rows, r0, keys, cols, scale, causal);
}
__attribute__((target("avx2,fma"), optimize("fp-contract=fast")))
DotSummary summaryAvx2(const double* q, std::int64_t rows, std::int64_t r0, const PackedKeys& keys, std::int64_t cols,
                       double scale, bool causal) {
    return dotsSummary<v4d, 4>(q, rows, r0, keys, cols, scale, causal);
}
__attribute__((target("avx512f,fma"), optimize("fp-contract=fast")))
bool dotsAvx512(const double* q, std::int64_t rows, const PackedKeys& keys, std::int64_t cols, double scale, double* out) {
    return dots<v8d, 8>(q, rows, keys, cols, scale, out);
}
__attribute__((target("avx2,fma"), optimize("fp-contract=fast")))
bool dotsAvx2(const double* q, std::int64_t rows, const PackedKeys& keys, std::int64_t cols, double scale, double* out) {
    return dots<v4d, 4>(q, rows, keys, cols, scale, out);
}
#endif
bool dotsSse2(const double* q, std::int64_t rows, const PackedKeys& keys, std::int64_t cols, double scale, double* out) {
    return dots<v2d, 4>(q, rows, keys, cols, scale, out);
}
DotSummary summarySse2(const double* q, std::int64_t rows, std::int64_t r0, const PackedKeys& keys, std::int64_t cols,
                       double scale, bool causal) {
    return dotsSummary<v2d, 4>(q, rows, r0, keys, cols, scale, causal);
}

}  // namespace

PackedKeys packKeys(const double* k, std::int64_t n, int dim) {
    POSLAB_ENSURE(n >= 0 && dim >= 1, "n >= 0, dim >= 1");
    PackedKeys p;
    p.n = n;
    p.dim = dim;
    p.nr = panelWidth(kIsa);
    const std::int64_t panels = (n + p.nr - 1) / p.nr;
    p.data.assign(static_cast<std::size_t>(panels * dim * p.nr), 0.0);
    const auto pack = [&](std::int64_t j0, std::int64_t j1) {
        for (std::int64_t j = j0; j < j1; ++j) {
            const std::int64_t panel = j / p.nr, r = j % p.nr;
            double* dst = p.data.data() + panel * dim * p.nr + r;
            const double* src = k + j * dim;
            for (int c = 0; c < dim; ++c) dst[static_cast<std::int64_t>(c) * p.nr] = src[c];
        }
    };
    // Large key sets (the full matrix of scores()) in pieces of 64 panels on the caller's threads
    // (core/parallel.h); small ones, often packed inside pieces already, on this thread.
    const std::int64_t piece = 64 * static_cast<std::int64_t>(p.nr);
    if (n * dim < (std::int64_t{1} << 18)) {
        pack(0, n);
    } else {
        parallelFor(static_cast<std::size_t>((n + piece - 1) / piece), [&](std::size_t b0, std::size_t b1) {
            pack(static_cast<std::int64_t>(b0) * piece, std::min(n, static_cast<std::int64_t>(b1) * piece));
        });
    }
    return p;
}

bool scaledDots(const double* q, std::int64_t rows, const PackedKeys& keys, std::int64_t cols, double scale,
                double* out) {
    POSLAB_ENSURE(cols >= 0 && cols <= keys.n, "0 <= cols <= keys.n");
    if (rows <= 0 || cols <= 0) return true;
    switch (kIsa) {
#if defined(__x86_64__) || defined(__i386__)
    case Isa::Avx512: return dotsAvx512(q, rows, keys, cols, scale, out);
    case Isa::Avx2: return dotsAvx2(q, rows, keys, cols, scale, out);
#endif
    default: return dotsSse2(q, rows, keys, cols, scale, out);
    }
}

DotSummary scaledDotsSummary(const double* q, std::int64_t rows, std::int64_t rowStart, const PackedKeys& keys,
                             std::int64_t cols, double scale, bool causal) {
    if (rows <= 0 || cols <= 0) return {};
    switch (kIsa) {
#if defined(__x86_64__) || defined(__i386__)
    case Isa::Avx512: return summaryAvx512(q, rows, rowStart, keys, cols, scale, causal);
    case Isa::Avx2: return summaryAvx2(q, rows, rowStart, keys, cols, scale, causal);
#endif
    default: return summarySse2(q, rows, rowStart, keys, cols, scale, causal);
    }
}

const char* scaledDotsIsa() {
    switch (kIsa) {
    case Isa::Avx512: return "avx512";
    case Isa::Avx2: return "avx2";
    case Isa::Sse2: return "sse2";
    }
    return "sse2";
}

}  // namespace poslab
