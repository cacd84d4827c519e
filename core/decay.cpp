// Decay with distance (see decay.h). Exact definitions, for a distance d >= 0 (query at
// position d, key at position 0, so that d = i − j), s = 1/sqrt(dim), and the content's fixed
// rows q = contentRows(content, query, {0}) and k = contentRows(content, key, {0}) (position 0's
// rows: the content is held fixed while the position moves):
//   nope           s·q·k                                     (constant)
//   sinusoidal     s·PE_d·PE_0                               (sinusoidalEncoding, params.sinusoidal)
//   learned        s·E_d·E_0                                 (error past the table, naming max_distance)
//   shaw           s·q·a^K[clip(−d, −k, k) + k]              (key table row of relative position −d)
//   t5             table[bucket(−d)][head]                   (t5Bias at query d, key 0; unscaled)
//   transformer-xl s·(b + d) = s·(q + v)·W_R R_d            (transformerXLTerms at query d, key 0)
//   alibi          −m_head·d                                 (alibiBias at query d, key 0)
//   rope           s·(R_d q)·(R_0 k)                         (ropeTables/ropeApply at positions d and 0;
//                  dynamic/longrope use seq_len = params.rope.seq_len or max(distances)+1).
//                  With ones content and full rotary this is s·Σ_i 2cos(d·θ_i).
//                  bound(d) = (1/(r/2))·Σ_{j=1..r/2} |S_j|,  S_j = Σ_{k=0..j−1} e^{i·d·θ_k}, θ the
//                  frequencies actually used (RoFormer §3.4.3: |Σ_i h_i e^{i(m−n)θ_i}| <=
//                  max_i |h_{i+1} − h_i| · Σ_j |S_j|; their Figure 2 plots this relative bound).
//   xpos           s·(ξ_d(q))·k with ξ_d the interleaved rotation by d·θ_i times ζ_i^(d/scale_base):
//                  the product of the query's ζ^(+c/sb) and the key's ζ^(−c'/sb) for c − c' = d,
//                  i.e. rope's value with each pair damped by its explicit decay. No bound.
#include "core/decay.h"

#include "core/parallel.h"
#include "core/precision.h"
#include "core/random.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <functional>
#include <numbers>

namespace poslab {

namespace {

constexpr std::int64_t kMaxDecayPoints = std::int64_t{1} << 24;
constexpr std::int64_t kMaxDecayDistance = std::int64_t{1} << 31;
constexpr std::int64_t kChunk = 4096;

// Rotation of one row x at positions `pos` (rows of the result), interleaved xPos with the
// explicit decay ζ^(d/scale_base) for the query at distance d.
Matrix xposQueryRows(const XposParams& xp, const Matrix& x, const Positions& pos) {
    const int half = xp.head_dim / 2;
    RopeTables t;
    t.cos.resize(static_cast<Eigen::Index>(pos.size()), xp.head_dim);
    t.sin.resize(static_cast<Eigen::Index>(pos.size()), xp.head_dim);
    for (std::size_t r = 0; r < pos.size(); ++r) {
        const Matrix angle = xposAngles(xp, 1, pos[r]);
        // One token at offset o has the centred exponent o + min_pos, min_pos = −(1+o)//2 (Python
        // floor division): o = 2d + 1 gives 2d + 1 − (d + 1) = d.
        const Matrix scale = xposScale(xp, 1, 2 * pos[r] + 1, false);
        const auto row = static_cast<Eigen::Index>(r);
        for (int i = 0; i < half; ++i) {
            const double c = roundTo(xp.precision, roundTo(xp.precision, std::cos(angle(0, i))) * scale(0, i));
            const double s = roundTo(xp.precision, roundTo(xp.precision, std::sin(angle(0, i))) * scale(0, i));
            t.cos(row, 2 * i) = t.cos(row, 2 * i + 1) = c;
            t.sin(row, 2 * i) = t.sin(row, 2 * i + 1) = s;
        }
    }
    RopeParams rp;
    rp.head_dim = xp.head_dim;
    rp.layout = RopeLayout::Interleaved;
    rp.precision = xp.precision;
    return ropeApply(rp, t, x.replicate(static_cast<Eigen::Index>(pos.size()), 1));
}

Vector roformerBound(const Vector& theta, const std::vector<std::int64_t>& distances) {
    const Eigen::Index half = theta.size();
    Vector b(static_cast<Eigen::Index>(distances.size()));
    for (std::size_t n = 0; n < distances.size(); ++n) {
        const double d = static_cast<double>(distances[n]);
        std::complex<double> s(0, 0);
        double total = 0;
        for (Eigen::Index j = 0; j < half; ++j) {
            s += std::polar(1.0, std::fmod(d * theta[j], 2 * std::numbers::pi));   // S_{j+1}
            total += std::abs(s);
        }
        b[static_cast<Eigen::Index>(n)] = half > 0 ? total / static_cast<double>(half) : 0.0;
    }
    return b;
}

// RoFormer's bound in the value's units (decay.h DecayCurve::scoreBound) from the relative bound
// (1/h)·Σ_j |S_j|: g_j the complex product of the query's pair j and the rotated key's (times the
// attention factor, as the value has it), g_h = 0; Abel summation gives
// |Σ_j g_j e^{i d θ_j}| <= max_j |g_j − g_{j+1}|·Σ_j |S_j|, and the pass-through channels add c.
Vector roformerScoreBound(const Vector& relative, const Matrix& q, const Matrix& rk, Eigen::Index h, bool inter, double att,
                          double s, Eigen::Index dim) {
    auto g = [&](Eigen::Index i) -> std::complex<double> {
        if (i >= h) return {0, 0};
        const Eigen::Index j0 = inter ? 2 * i : i, j1 = inter ? 2 * i + 1 : i + h;
        return {(q(0, j0) * rk(0, j0) + q(0, j1) * rk(0, j1)) * att, (q(0, j0) * rk(0, j1) - q(0, j1) * rk(0, j0)) * att};
    };
    double gmax = 0;
    for (Eigen::Index i = 0; i < h; ++i) gmax = std::max(gmax, std::abs(g(i) - g(i + 1)));
    double constant = 0;
    for (Eigen::Index c = 2 * h; c < dim; ++c) constant += q(0, c) * rk(0, c);
    return (s * (gmax * static_cast<double>(h) * relative.array() + std::abs(constant))).matrix();
}

// ---------------------------------------------------------------------------------------------
// The O(D·d) sweep. Every method whose curve is a sum over frequency pairs of cos/sin(d·w_k)
// gets those values block by block: for a block starting at d0, cos/sin(d0·w_k) once (std::cos
// of the argument), times a per-pair table e^{i·t·w_k}, t < kBlock (std::cos too): one complex
// product per value, so the error stays at a few ulp (no error growth, nothing to resynchronise),
// and the inner loops run across t, which the compiler vectorises.
//   Double   the true cos/sin(d·w_k) (the direct evaluation's own rounding of d·w_k is ~1e-16·d·w_k).
//   Angle32  the frameworks' float32: f32(cos(f32(d·w_k))) with w_k a float32 and d < 2^24. The
//            float32 angle x = d·w_k + δ (d·w_k is exact in double), cos x = cos(d·w)cos δ −
//            sin(d·w) sin δ with cos δ, sin δ by Taylor (|δ| <= 1/8); the result is rounded to
//            float32 only where every value within kGuard of it rounds the same, otherwise (and for
//            |δ| > 1/8) std::cos(x) itself is used: the output equals the direct evaluation bit
//            for bit.
//   Round32  f32(cos(angle)) with a double angle ≈ d·w_k (the interleaved float32 sinusoid); the
//            same guard widened by the angle's own rounding, and the reference `exact` beside it.
// (Float32 RoPE takes torch's own SLEEF cos/sin instead, which are not correctly rounded and
// depend on their 8-lane group: ropeFloat32Values below, no sweep.)
enum class Trig { Double, Angle32, Round32 };

constexpr std::int64_t kBlock = 512;
constexpr double kGuard = 1e-14;
// Work limits (pair·distance steps): the sweep takes ~1-3 ns a step, the direct per-value
// evaluation ~100 ns. Both limits keep a curve well within 20 s on one core.
constexpr double kFastWorkLimit = 2147483648.0;   // 2^31
constexpr double kDirectWorkLimit = 33554432.0;   // 2^25

struct Sweep {
    Vector w;                 // frequencies (per pair)
    Vector g;                 // optional log-magnitude per unit distance (Double only): e^{d·g}
    Trig mode = Trig::Double;
    // Round32 / Angle32 fallback for one value: the direct evaluation of cos and sin.
    std::function<void(std::int64_t d, Eigen::Index k, double& c, double& s)> exact;
};

// The Angle32 sweep over float32 frequencies w: its fallback is the direct evaluation
// f32(cos/sin(f32(f32(d)·f32(w_i)))).
Sweep angle32Sweep(const Vector& w) {
    Sweep sw{w, {}, Trig::Angle32, {}};
    sw.exact = [w](std::int64_t d, Eigen::Index i, double& c, double& sn) {
        const double x = static_cast<double>(static_cast<float>(static_cast<float>(d) * static_cast<float>(w[i])));
        c = roundTo(Precision::Float32, std::cos(x));
        sn = roundTo(Precision::Float32, std::sin(x));
    };
    return sw;
}

// 0 where every value within eps of v rounds to the same float32, else 1 (64-bit lanes only,
// so that the loops vectorise).
inline std::int64_t roundsApart(double v, double eps) {
    const double lo = static_cast<double>(static_cast<float>(v - eps));
    const double hi = static_cast<double>(static_cast<float>(v + eps));
    return lo != hi;
}

// Angle32 for one pair over one block: c/s hold cos/sin(d·w) (d = dd0 + t, exact angle e = d·w);
// they become f32(cos/sin(x)) with x = f32(e), δ = x − e, cos x = cos e·cos δ − sin e·sin δ. The
// Taylor series of cos δ, sin δ is cut at the degree that the block's largest |δ| (at most half a
// float32 ulp of its largest angle) needs for a truncation error below 1e-16, far inside kGuard:
//   L = 1: |δ| <= 2^-20   sin δ ≈ δ,               cos δ ≈ 1 − δ²/2         (error < 2e-19)
//   L = 2: |δ| <= 2^-11   sin δ to δ³,             cos δ to δ⁴              (error < 3e-19)
//   L = 3: |δ| <= 2^-6    sin δ to δ⁵,             cos δ to δ⁶              (error < 5e-17)
//   L = 4: |δ| <= 1/8     sin δ to δ⁹,             cos δ to δ¹⁰             (error < 1e-17)
// (past 1/8 a value is flagged and evaluated directly). Returns whether any value was flagged
// (flags in bb: 1 where the float32 rounding is not certain).
template <int L>
__attribute__((always_inline)) inline std::int64_t angle32Block(double dd0, double w, const double* tt, std::int64_t len,
                                                                double* cc, double* ss, std::int64_t* bb) {
    std::int64_t any = 0;
    for (std::int64_t t = 0; t < len; ++t) {
        const double e = (dd0 + tt[t]) * w;   // exact: d < 2^24, w a float
        const double x = static_cast<double>(static_cast<float>(e));
        const double del = x - e, d2 = del * del;
        double sd, cd;
        if constexpr (L == 1) {
            sd = del;
            cd = 1 - d2 * 0.5;
        } else if constexpr (L == 2) {
            sd = del * (1 - d2 * (1.0 / 6));
            cd = 1 - d2 * 0.5 * (1 - d2 * (1.0 / 12));
        } else if constexpr (L == 3) {
            sd = del * (1 - d2 * (1.0 / 6) * (1 - d2 * (1.0 / 20)));
            cd = 1 - d2 * 0.5 * (1 - d2 * (1.0 / 12) * (1 - d2 * (1.0 / 30)));
        } else {
            sd = del * (1 - d2 * (1.0 / 6) * (1 - d2 * (1.0 / 20) * (1 - d2 * (1.0 / 42) * (1 - d2 * (1.0 / 72)))));
            cd = 1 - d2 * 0.5 * (1 - d2 * (1.0 / 12) * (1 - d2 * (1.0 / 30) * (1 - d2 * (1.0 / 56) * (1 - d2 * (1.0 / 90)))));
        }
        const double cx = cc[t] * cd - ss[t] * sd, sx = ss[t] * cd + cc[t] * sd;
        std::int64_t flag = roundsApart(cx, kGuard) | roundsApart(sx, kGuard);
        if constexpr (L == 4) flag |= std::abs(del) > 0.125;
        bb[t] = flag;
        any |= flag;
        cc[t] = static_cast<double>(static_cast<float>(cx));
        ss[t] = static_cast<double>(static_cast<float>(sx));
    }
    return any;
}

// The per-pair tables e^{i·t·w_k} (times e^{t·g_k}), t < B, of sweepRun: built once per run, so
// that sweepRunTwo's halves share them (the same values either way).
struct SweepTables {
    std::int64_t B = 0;
    std::vector<double> tc, ts;   // [k·B + t]
};

// Pairs k0 .. k1−1 of the tables (sized for all of them).
void fillSweepTables(const Sweep& sw, SweepTables& tb, Eigen::Index k0, Eigen::Index k1) {
    const bool mag = sw.g.size() == sw.w.size() && sw.w.size() > 0;
    const std::int64_t B = tb.B;
    for (Eigen::Index k = k0; k < k1; ++k)
        for (std::int64_t t = 0; t < B; ++t) {
            const double a = static_cast<double>(t) * sw.w[k];
            const double m = mag ? std::exp(static_cast<double>(t) * sw.g[k]) : 1.0;
            tb.tc[static_cast<std::size_t>(k * B + t)] = m * std::cos(a);
            tb.ts[static_cast<std::size_t>(k * B + t)] = m * std::sin(a);
        }
}

// The tables for blocks of B; with `two`, the pairs in two halves on the caller's threads
// (core/parallel.h; a cos and a sin per entry: about 1 ms for 64 pairs × 512).
SweepTables sweepTables(const Sweep& sw, std::int64_t B, bool two = false) {
    const Eigen::Index h = sw.w.size();
    SweepTables tb;
    tb.B = B;
    tb.tc.resize(static_cast<std::size_t>(h * B));
    tb.ts.resize(tb.tc.size());
    if (two && h >= 2 && h * B >= 8192) {
        parallelFor(2, [&](std::size_t h0, std::size_t h1) {
            for (std::size_t i = h0; i < h1; ++i) fillSweepTables(sw, tb, i == 0 ? 0 : h / 2, i == 0 ? h / 2 : h);
        });
    } else {
        fillSweepTables(sw, tb, 0, h);
    }
    return tb;
}

#if defined(__clang__)
#define POSLAB_SWEEP_CLONES
#else
#define POSLAB_SWEEP_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#endif
// Calls consume(k, c, s, offset, len) for every pair k and block [first+offset, first+offset+len)
// of the run of consecutive distances first .. first+n−1, with c/s the values at those distances.
// AVX-512 or AVX2 where the CPU has it, SSE2 otherwise; never an FMA (decay.cpp is compiled with
// -ffp-contract=off): the same roundings on every machine and in every clone.
// (clang 14 does not multiversion function templates: there, the default target only.)
// `shared`: the tables for B = min(kBlock, n), else built here.
template <class F>
POSLAB_SWEEP_CLONES void sweepRun(const Sweep& sw, std::int64_t first, std::int64_t n, F&& consume,
                                  const SweepTables* shared = nullptr) {
    const Eigen::Index h = sw.w.size();
    const std::int64_t B = std::min(kBlock, n);
    const bool mag = sw.g.size() == h && h > 0;
    SweepTables own;
    if (!shared) own = sweepTables(sw, B);
    const SweepTables& tb = shared ? *shared : own;
    const std::vector<double>& tc = tb.tc;
    const std::vector<double>& ts = tb.ts;
    std::vector<double> c(static_cast<std::size_t>(B)), s(c.size());
    std::vector<std::int64_t> bad(c.size());
    std::vector<double> tt(c.size());
    for (std::int64_t t = 0; t < B; ++t) tt[static_cast<std::size_t>(t)] = static_cast<double>(t);   // exact
    for (std::int64_t b0 = 0; b0 < n; b0 += B) {
        const std::int64_t len = std::min(B, n - b0);
        const std::int64_t d0 = first + b0;
        const double dd0 = static_cast<double>(d0);
        for (Eigen::Index k = 0; k < h; ++k) {
            const double a0 = dd0 * sw.w[k];
            const double m0 = mag ? std::exp(dd0 * sw.g[k]) : 1.0;
            const double C0 = m0 * std::cos(a0), S0 = m0 * std::sin(a0);
            const double* TC = tc.data() + k * B;
            const double* TS = ts.data() + k * B;
            double* cc = c.data();
            double* ss = s.data();
            for (std::int64_t t = 0; t < len; ++t) {
                cc[t] = C0 * TC[t] - S0 * TS[t];
                ss[t] = S0 * TC[t] + C0 * TS[t];
            }
            if (sw.mode != Trig::Double) {
                const double w = sw.w[k];
                std::int64_t* bb = bad.data();
                std::int64_t any = 0;
                // Branch-free flags, so that the loops vectorise; the fix-up pass after them
                // evaluates the flagged values directly (rare: none in most blocks).
                if (sw.mode == Trig::Angle32) {
                    // The largest |δ| in the block: half a float32 ulp of its largest angle.
                    const double top = std::abs((dd0 + static_cast<double>(len - 1)) * w);
                    const double dmax = top > 0 ? std::ldexp(1.0, std::ilogb(top) - 24) : 0.0;
                    if (dmax <= 0x1p-20) any = angle32Block<1>(dd0, w, tt.data(), len, cc, ss, bb);
                    else if (dmax <= 0x1p-11) any = angle32Block<2>(dd0, w, tt.data(), len, cc, ss, bb);
                    else if (dmax <= 0x1p-6) any = angle32Block<3>(dd0, w, tt.data(), len, cc, ss, bb);
                    else any = angle32Block<4>(dd0, w, tt.data(), len, cc, ss, bb);
                } else {
                    // The angle's own rounding (d·w vs fl(d/divisor)) is below 3e-16·|d·w|.
                    for (std::int64_t t = 0; t < len; ++t) {
                        const double eps = kGuard + std::abs((dd0 + tt[t]) * w) * 3e-16;
                        const std::int64_t flag = roundsApart(cc[t], eps) | roundsApart(ss[t], eps);
                        bb[t] = flag;
                        any |= flag;
                        cc[t] = static_cast<double>(static_cast<float>(cc[t]));
                        ss[t] = static_cast<double>(static_cast<float>(ss[t]));
                    }
                }
                if (any)
                    for (std::int64_t t = 0; t < len; ++t)
                        if (bb[t] != 0) sw.exact(d0 + t, k, cc[t], ss[t]);
            }
            consume(k, static_cast<const double*>(cc), static_cast<const double*>(ss), b0, len);
        }
    }
}

// run(first, len) over [0, n) in two halves (whole sweep blocks) on the caller's threads
// (core/parallel.h).
template <class F>
void twoHalves(std::int64_t n, F&& run) {
    const std::int64_t half = n >= 2 * kBlock ? (n / 2 / kBlock) * kBlock : 0;
    if (half == 0) {
        run(std::int64_t{0}, n);
        return;
    }
    parallelFor(2, [&](std::size_t h0, std::size_t h1) {
        for (std::size_t h = h0; h < h1; ++h) h == 0 ? run(std::int64_t{0}, half) : run(half, n - half);
    });
}

// sweepRun over first .. first+n−1 on two threads (consume's offsets relative to first as
// sweepRun's; the halves write disjoint ranges). The split falls on a block boundary of the one
// sweepRun over the whole run, so the values are that sweepRun's bit for bit.
// Both halves have B = kBlock (each at least kBlock long) and share the one run's tables.
template <class F>
void sweepRunTwo(const Sweep& sw, std::int64_t first, std::int64_t n, F&& consume) {
    const SweepTables tb = sweepTables(sw, std::min(kBlock, n), n >= 2 * kBlock);
    twoHalves(n, [&](std::int64_t a, std::int64_t len) {
        sweepRun(
            sw, first + a, len,
            [&](Eigen::Index i, const double* C, const double* S, std::int64_t b0, std::int64_t m) { consume(i, C, S, a + b0, m); },
            &tb);
    });
}

// Runs of consecutive distances of a strictly increasing list: calls run(index, first, n).
template <class F>
void forEachRun(const std::vector<std::int64_t>& u, F&& run) {
    std::size_t a = 0;
    while (a < u.size()) {
        std::size_t b = a + 1;
        while (b < u.size() && u[b] == u[b - 1] + 1) ++b;
        run(static_cast<Eigen::Index>(a), u[a], static_cast<std::int64_t>(b - a));
        a = b;
    }
}

// `weight`: the cost of a step relative to the double sweep's (the float32 guard and its Taylor
// correction take about four).
std::optional<ParamError> workLimit(std::int64_t points, Eigen::Index pairs, bool fast, std::int64_t maxD,
                                    double weight = 1.0) {
    const double work = static_cast<double>(points) * static_cast<double>(std::max<Eigen::Index>(pairs, 1)) * weight;
    const double limit = fast ? kFastWorkLimit : kDirectWorkLimit;
    if (work <= limit) return std::nullopt;
    return ParamError{"max_distance",
                      "a curve within the work limit (distances × frequency pairs" + std::string(weight != 1.0 ? " × " + formatNumber(weight) : "") + " <= " +
                          formatInt(static_cast<std::int64_t>(limit)) + (fast ? "" : " on this method's direct path") +
                          ")",
                      formatInt(maxD) + " (" + formatInt(points) + " distances × " + formatInt(pairs) + " pairs)"};
}

}  // namespace

Result<DecayCurve> decayCurve(const ScoreParams& params, std::int64_t max_distance) {
    if (max_distance < 0 || max_distance >= kMaxDecayPoints)
        return ParamError{"max_distance", "an integer from 0 to " + formatInt(kMaxDecayPoints - 1), formatInt(max_distance)};
    // A window or chunk: the curve ends where the layer stops seeing.
    if (auto reach = visibleTo(params.attention, params.attention.causalWith(params.causal)))
        max_distance = std::min(max_distance, *reach);
    std::vector<std::int64_t> d(static_cast<std::size_t>(max_distance + 1));
    for (std::int64_t i = 0; i <= max_distance; ++i) d[static_cast<std::size_t>(i)] = i;
    return decayCurveAt(params, d);
}

namespace {

template <bool F32>
inline double rnd(double x) {
    if constexpr (F32) return static_cast<double>(static_cast<float>(x));
    else return x;
}

// One row of the float32 RoPE table, half layout (pair i's two channels share column i): the
// rotated query r0 = f32(f32(q0·c) + f32(−q1·s)), r1 = f32(f32(q1·c) + f32(q0·s)) with
// c = f32(C·att), s = f32(S·att), and Σ_i r0·k0 + r1·k1 in double in four chains (pair i in chain
// i mod 4). Float arithmetic gives the bits of rounding each exact double op (a product of two
// floats is exact in double; a double sum of two floats rounds to the float sum, 53 >= 2·24 + 2),
// and -ffp-contract=off keeps FMA out; cloned so that the loop takes 16 float lanes.
POSLAB_SWEEP_CLONES double ropeRowFloat32(const float* C, const float* S, const float* q0, const float* q1,
                                          const double* k0, const double* k1, float att, std::size_t hh,
                                          double* term) {
    for (std::size_t i = 0; i < hh; ++i) {
        const float c = C[i] * att, sn = S[i] * att;
        const float r0 = q0[i] * c + -q1[i] * sn;
        const float r1 = q1[i] * c + q0[i] * sn;
        term[i] = static_cast<double>(r0) * k0[i] + static_cast<double>(r1) * k1[i];
    }
    double acc[4] = {0, 0, 0, 0};   // four chains: the sum is latency-bound otherwise
    std::size_t i = 0;
    for (; i + 4 <= hh; i += 4)
        for (std::size_t l = 0; l < 4; ++l) acc[l] += term[i + l];
    for (; i < hh; ++i) acc[0] += term[i];
    return (acc[0] + acc[1]) + (acc[2] + acc[3]);
}

// Float32 RoPE values s-less: val[n] += Σ_i (R_{u[n]} q)_i·(R_0 k)_i over the rotated pairs, as
// ropeTables/ropeApply compute them for the positions u as one tensor: angles f32(f32(d)·inv_freq),
// cos/sin by torch's own float32 functions (torchCosSin: SLEEF's 8-lane functions over the
// flattened [|u|, r] table in groups of 8 from its start, so a value's bits depend on its group),
// times f32(attention), rounded; every op of x·cos + rotate(x)·sin rounded to float32. The table
// is built in blocks of kBlock rows (kBlock·r is a multiple of 8: the groups stay torch's); with
// the half layout and r/2 a multiple of 8 both halves of a row are the same groups, so only the
// first half is evaluated. The rows are split in two (on a block) for two threads: each value is
// the one-thread value bit for bit.
void ropeFloat32Values(const Vector& invFreq, bool inter, double att, const Matrix& q, const Matrix& rk,
                       const std::vector<std::int64_t>& u, Vector& val) {
    const Eigen::Index h = invFreq.size(), r = 2 * h;
    const bool halfOnly = !inter && h % 8 == 0;
    const auto w = static_cast<std::size_t>(halfOnly ? h : r);   // table columns evaluated per row
    const auto hh = static_cast<std::size_t>(h);
    std::vector<float> colFreq(w);   // the inv_freq of each table column
    for (std::size_t j = 0; j < w; ++j)
        colFreq[j] = static_cast<float>(invFreq[static_cast<Eigen::Index>(inter ? j / 2 : j % hh)]);
    // Per pair i: the table columns of its two channels, f32(q), and R_0 k.
    std::vector<std::size_t> c0(hh), c1(hh);
    std::vector<double> q0(hh), q1(hh), k0(hh), k1(hh);
    std::vector<float> q0f(hh), q1f(hh);
    for (std::size_t i = 0; i < hh; ++i) {
        const auto ei = static_cast<Eigen::Index>(i);
        const Eigen::Index j0 = inter ? 2 * ei : ei, j1 = inter ? 2 * ei + 1 : ei + h;
        c0[i] = halfOnly ? i : static_cast<std::size_t>(j0);
        c1[i] = halfOnly ? i : static_cast<std::size_t>(j1);
        q0[i] = rnd<true>(q(0, j0));
        q1[i] = rnd<true>(q(0, j1));
        k0[i] = rk(0, j0);
        k1[i] = rk(0, j1);
        q0f[i] = static_cast<float>(q0[i]);
        q1f[i] = static_cast<float>(q1[i]);
    }
    const auto attF = static_cast<float>(att);   // att is a float32 value
    const std::size_t n = u.size();
    const auto B = static_cast<std::size_t>(kBlock);
    // Rows [first, first + count) (first a multiple of kBlock: the groups of 8 stay the whole
    // table's); the two halves of the rows run on two threads and write disjoint values.
    auto run = [&](std::int64_t first, std::int64_t count) {
        std::vector<float> ang(B * w), cv(ang.size()), sv(ang.size());
        std::vector<double> term(hh);
        const auto end = static_cast<std::size_t>(first + count);
        for (auto a = static_cast<std::size_t>(first); a < end; a += B) {
            const std::size_t m = std::min(B, end - a);
            for (std::size_t t = 0; t < m; ++t) {
                const float p = static_cast<float>(u[a + t]);
                float* row = ang.data() + t * w;
                for (std::size_t j = 0; j < w; ++j) row[j] = p * colFreq[j];
            }
            torchCosSin(ang.data(), m * w, cv.data(), sv.data());
            for (std::size_t t = 0; t < m; ++t) {
                const float* C = cv.data() + t * w;
                const float* S = sv.data() + t * w;
                if (halfOnly) {   // contiguous: vectorises
                    val[static_cast<Eigen::Index>(a + t)] +=
                        ropeRowFloat32(C, S, q0f.data(), q1f.data(), k0.data(), k1.data(), attF, hh, term.data());
                    continue;
                }
                for (std::size_t i = 0; i < hh; ++i) {
                    const double ca = rnd<true>(static_cast<double>(C[c0[i]]) * att), sa = rnd<true>(static_cast<double>(S[c0[i]]) * att);
                    const double cb = rnd<true>(static_cast<double>(C[c1[i]]) * att), sb = rnd<true>(static_cast<double>(S[c1[i]]) * att);
                    const double r0 = rnd<true>(rnd<true>(q0[i] * ca) + rnd<true>(-q1[i] * sa));
                    const double r1 = rnd<true>(rnd<true>(q1[i] * cb) + rnd<true>(q0[i] * sb));
                    term[i] = r0 * k0[i] + r1 * k1[i];
                }
                double acc[4] = {0, 0, 0, 0};   // four chains: the sum is latency-bound otherwise
                std::size_t i = 0;
                for (; i + 4 <= hh; i += 4)
                    for (std::size_t l = 0; l < 4; ++l) acc[l] += term[i + l];
                for (; i < hh; ++i) acc[0] += term[i];
                val[static_cast<Eigen::Index>(a + t)] += (acc[0] + acc[1]) + (acc[2] + acc[3]);
            }
        }
    };
    twoHalves(static_cast<std::int64_t>(n), run);
}

// ---------------------------------------------------------------------------------------------
// Float32 xPos in O(D·d): the query rotated and scaled exactly as xposQueryRows computes it
// (xpos.cpp scaleRow and applyRow's roundings, ropeApply's interleaved float32 path), for the
// query at distance d (centred exponent c = d, angle position d):
//   e      = f32(f32(d) / f32(scale_base)), clamped to ±60/ln(7/2) (scaleRow)
//   sc_i   = f32(pow(ζ_i, e))                           (ζ_i = xposZeta, float32)
//   C, S   = f32(cos / sin(f32(f32(d)·inv_i)))           (inv_i = xposInvFreq, float32)
//   c, s   = f32(C·sc_i), f32(S·sc_i)
//   r0, r1 = f32(f32(q0·c) + f32(−q1·s)), f32(f32(q1·c) + f32(q0·s))   (q0, q1 = f32(q))
// C and S come from the Angle32 sweep (bit for bit, without a magnitude: the scale is its own
// float32 rounding). sc_i without a std::pow per value: v ≈ ζ_i^e = exp(e·λ), λ = ln ζ_i
// (std::log), as the magnitude of the sweep's block scheme times a correction:
//   v = [exp(d0·g)·exp(t·g)]·P(y),  g = λ/f32(scale_base), d = d0 + t (block start d0),
//   y = e·λ − d·g (|y| <= 1.26·|e − d/scale_base| + 1e-14 <= 3.7e-6: e is d/scale_base rounded to
//   float32), P(y) = 1 + y + y²/2 (truncation < 1e-17),
// exp(d0·g) once per pair and block and exp(t·g) once per pair (a table) by expBelowZero; the
// clamped distances (e = 60/ln(7/2)) take the pair's f32(pow(ζ_i, e)), computed once. v is used
// where every value within kScaleUlps double ulps of it (>= 1.1e-13·v) rounds to the same float32,
// else (about 4 values in 10^6) f32(std::pow(ζ_i, e)) itself. The bound on |v − ζ_i^e|/ζ_i^e:
// λ's rounding times |e| <= 48 gives 1.4e-14; the roundings of d0·g and t·g (|·| <= 61) 1.4e-14;
// those of e·λ and d·g (y's subtraction is exact) 1.4e-14; expBelowZero twice and the products
// < 3e-15: below 4.5e-14. std::pow's own result is within 2.3e-16 of ζ_i^e, so where v's
// neighbourhood rounds to one float32, std::pow's value rounds to it too: sc_i equals the direct
// evaluation's bit for bit.
constexpr std::uint64_t kScaleUlps = 1024;   // 1024·2^-53 = 1.14e-13 relative at the least
// workLimit's weight: a pair and distance takes about 2.9 ns on one thread (the Angle32 sweep, the
// scale, the rotation), the double xPos sweep's 0.8 ns (D = 131 072, d = 128; two threads
// halve the time).
constexpr double kXposFloat32Weight = 4.0;

// e^y for y in [−700, 0] (here [−61, 0]), vectorisable (no calls, no branches, no FMA):
// y = k·ln 2 + r with k = round(y/ln 2) (ln 2 split hi/lo, k·hi exact), |r| <= 0.35, e^r by its
// Taylor series to r^13 (truncation < 5e-18), times 2^k built in the exponent bits. Relative
// error below 1e-15 (a few roundings of the Horner steps).
__attribute__((always_inline)) inline double expBelowZero(double y) {
    constexpr double kInvLn2 = 1.4426950408889634074;
    constexpr double kLn2Hi = 6.93147180369123816490e-01;   // 0x3FE62E42FEE00000: 32 bits
    constexpr double kLn2Lo = 1.90821492927058770002e-10;
    constexpr double kShift = 0x1.8p52;   // adding it rounds to an integer held in the low bits
    const double t = y * kInvLn2 + kShift;
    const double kd = t - kShift;
    const double r = (y - kd * kLn2Hi) - kd * kLn2Lo;
    double p = 1.0 / 6227020800.0;   // 1/13!
    p = p * r + 1.0 / 479001600.0;
    p = p * r + 1.0 / 39916800.0;
    p = p * r + 1.0 / 3628800.0;
    p = p * r + 1.0 / 362880.0;
    p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    const std::int64_t k = std::bit_cast<std::int64_t>(t) - std::bit_cast<std::int64_t>(kShift);
    return p * std::bit_cast<double>((k + 1023) << 52);
}

// 1 where a float32 rounding boundary (a midpoint between two floats) lies within kScaleUlps
// double ulps of v > 0 in its binade, else 0: the 29 bits below float32's 24 within kScaleUlps of
// 2^28 (the boundaries near a power of two are those of the binade below it, where the float32
// spacing is the smaller). 64-bit lanes only, so that the loop vectorises.
__attribute__((always_inline)) inline std::int64_t nearFloat32Boundary(double v) {
    const std::uint64_t low = std::bit_cast<std::uint64_t>(v) & ((std::uint64_t{1} << 29) - 1);
    return low - ((std::uint64_t{1} << 28) - kScaleUlps) <= 2 * kScaleUlps;   // wraps below
}

// One pair over one block of m distances d0 .. d0+m−1, the first mc of them unclamped (C, S from
// the Angle32 sweep, e the distances' exponents, tt[t] = t, lam = ln ζ, g = λ/f32(scale_base),
// base = exp(d0·g), T the pair's table exp(t·g), tail the pair's clamped scale, zeta = ζ, x0/x1 =
// f32(q) of the pair):
// sc the float32 scales; with out, out[t] += r0·k0 + r1·k1, else r0/r1 stored. The rotation in
// float arithmetic: each float op is the correctly rounded result, the direct evaluation's f32 of
// the double op (a product of two floats is exact in double; a sum rounded first to double then
// to float rounds as once, 53 >= 2·24 + 2), sixteen lanes a vector. Its own clones (the sweep's
// consumer is too large to be inlined into sweepRun's): the loops vectorise at the CPU's width,
// never with an FMA.
POSLAB_SWEEP_CLONES void xposFloat32Block(const double* C, const double* S, const double* e, const double* tt, std::int64_t d0,
                                          std::int64_t m, std::int64_t mc, double lam, double g, double base, const double* T,
                                          float tail, double zeta, float x0, float x1, double k0, double k1, float* sc,
                                          double* out, float* r0, float* r1) {
    alignas(64) std::int64_t bb[kBlock];
    std::int64_t any = 0;
    const double dd0 = static_cast<double>(d0);
    for (std::int64_t t = 0; t < mc; ++t) {
        const double y = e[t] * lam - (dd0 + tt[t]) * g;
        const double v = (base * T[t]) * (1 + y * (1 + y * 0.5));
        const std::int64_t flag = nearFloat32Boundary(v);
        bb[t] = flag;
        any |= flag;
        sc[t] = static_cast<float>(v);
    }
    for (std::int64_t t = mc; t < m; ++t) sc[t] = tail;
    if (any)
        for (std::int64_t t = 0; t < mc; ++t)
            if (bb[t] != 0) sc[t] = static_cast<float>(std::pow(zeta, e[t]));
    const float nx1 = -x1;
    if (out) {
        for (std::int64_t t = 0; t < m; ++t) {
            const float c = static_cast<float>(C[t]) * sc[t], sn = static_cast<float>(S[t]) * sc[t];
            const float a = x0 * c + nx1 * sn, b = x1 * c + x0 * sn;
            out[t] += static_cast<double>(a) * k0 + static_cast<double>(b) * k1;
        }
    } else {
        for (std::int64_t t = 0; t < m; ++t) {
            const float c = static_cast<float>(C[t]) * sc[t], sn = static_cast<float>(S[t]) * sc[t];
            r0[t] = x0 * c + nx1 * sn;
            r1[t] = x1 * c + x0 * sn;
        }
    }
}

// The float32 xPos query (q the position-0 row, interleaved pairs) at the strictly increasing
// distances u (< 2^24), on two threads. With val (|u| values, k the key row): val[n] +=
// Σ_i r0_i·k0_i + r1_i·k1_i (pairs in order). Without: calls rows(i, index, sc, r0, r1, m) for
// every pair i and block of m consecutive distances u[index .. index+m−1] with the scales and the
// rotated, scaled pair (above).
template <class Rows>
void xposFloat32Rows(const XposParams& xp, const Matrix& q, const Matrix& k, const std::vector<std::int64_t>& u,
                     double* val, Rows&& rows) {
    const Vector inv = xposInvFreq(xp);
    const Vector zeta = xposZeta(xp);
    const Eigen::Index h = inv.size();
    const double lim = kXposMaxLogScale / std::log(3.5);
    const double sb = roundTo(Precision::Float32, xp.scale_base);
    std::vector<double> ev(u.size());   // e per distance: shared by every pair
    for (std::size_t n = 0; n < u.size(); ++n)
        ev[n] = std::clamp(roundTo(Precision::Float32, static_cast<double>(static_cast<float>(u[n])) / sb), -lim, lim);
    // The clamped distances (e = lim; d >= 0) are those from clampFrom on (e grows with d).
    const auto clampFrom = static_cast<Eigen::Index>(std::find(ev.begin(), ev.end(), lim) - ev.begin());
    // Per pair: λ, g, the clamped scale, f32(q); the table exp(t·g), t < B (arguments below −700
    // only where the distance is clamped, whose v is not used).
    const std::int64_t B = std::min<std::int64_t>(kBlock, static_cast<std::int64_t>(u.size()));
    Vector lam(h), g(h);
    std::vector<float> tail(static_cast<std::size_t>(h)), q0(tail.size()), q1(tail.size());
    std::vector<double> T(static_cast<std::size_t>(h * B)), tt(static_cast<std::size_t>(B));
    for (std::int64_t t = 0; t < B; ++t) tt[static_cast<std::size_t>(t)] = static_cast<double>(t);
    for (Eigen::Index i = 0; i < h; ++i) {
        const auto j = static_cast<std::size_t>(i);
        lam[i] = std::log(zeta[i]);
        g[i] = lam[i] / sb;
        tail[j] = static_cast<float>(std::pow(zeta[i], lim));
        q0[j] = static_cast<float>(q(0, 2 * i));
        q1[j] = static_cast<float>(q(0, 2 * i + 1));
        for (std::int64_t t = 0; t < B; ++t)
            T[j * static_cast<std::size_t>(B) + static_cast<std::size_t>(t)] = expBelowZero(std::max(static_cast<double>(t) * g[i], -700.0));
    }
    const Sweep sw = angle32Sweep(inv);
    forEachRun(u, [&](Eigen::Index idx, std::int64_t first, std::int64_t len) {
        sweepRunTwo(sw, first, len, [&](Eigen::Index i, const double* C, const double* S, std::int64_t b0, std::int64_t m) {
            // Per call (the two threads call it at once): the block's scales and rows on the stack.
            alignas(64) float sc[kBlock], r0[kBlock], r1[kBlock];
            const Eigen::Index at = idx + b0;
            const auto j = static_cast<std::size_t>(i);
            const std::int64_t d0 = first + b0;
            const double base = expBelowZero(std::max(static_cast<double>(d0) * g[i], -700.0));
            const std::int64_t mc = std::clamp<std::int64_t>(clampFrom - at, 0, m);
            xposFloat32Block(C, S, ev.data() + at, tt.data(), d0, m, mc, lam[i], g[i], base, T.data() + j * static_cast<std::size_t>(B),
                             tail[j], zeta[i], q0[j], q1[j], val ? k(0, 2 * i) : 0.0, val ? k(0, 2 * i + 1) : 0.0, sc,
                             val ? val + at : nullptr, r0, r1);
            if (!val) rows(i, at, static_cast<const float*>(sc), static_cast<const float*>(r0), static_cast<const float*>(r1), m);
        });
    });
}

// Values on a strictly increasing list u of distances (maxD = u.back()).
Result<DecayCurve> curveOnSorted(const ScoreParams& params, const std::vector<std::int64_t>& u) {
    const std::int64_t maxD = u.back();
    const auto n = static_cast<Eigen::Index>(u.size());
    const double s = 1.0 / std::sqrt(static_cast<double>(params.dim));
    const Positions zero{0};
    const Matrix q = contentRows(params.content, false, zero, params.dim, params.seed);
    const Matrix k = contentRows(params.content, true, zero, params.dim, params.seed);
    constexpr std::int64_t k2p24 = std::int64_t{1} << 24;

    DecayCurve curve;
    curve.distance = u;
    curve.value = Vector::Zero(n);
    Vector& val = curve.value;

    switch (params.method) {
    case Method::NoPE: val.setConstant(s * q.row(0).dot(k.row(0))); return curve;
    case Method::Shaw: {
        // clip(0 − d, −k, k) + k = k − min(d, k): at most k + 1 distinct key rows.
        const ShawParams sp = params.shawParams();
        const std::int64_t kk = sp.max_relative_position;
        const std::int64_t top = std::min(maxD, kk);
        std::vector<std::int64_t> rowsWanted;
        for (auto d : u) {
            if (d > top) break;
            rowsWanted.push_back(kk - d);
        }
        if (rowsWanted.empty() || rowsWanted.back() != kk - top) rowsWanted.push_back(kk - top);
        const Matrix rows = shawKeyRows(sp, rowsWanted);
        const Vector dots = s * (rows * q.row(0).transpose());
        const double last = dots[dots.size() - 1];
        for (Eigen::Index i = 0; i < n; ++i) val[i] = u[std::size_t(i)] >= top ? last : dots[i];
        return curve;
    }
    case Method::Rope: {
        const RopeParams rp = params.ropeParams();
        const RopeFrequencies freqs = ropeFrequencies(rp, rp.seq_len ? rp.seq_len : std::optional<std::int64_t>(maxD + 1));
        const Matrix rk = ropeApply(rp, ropeTables(rp, freqs, zero), k);
        const Eigen::Index h = freqs.inv_freq.size(), r = 2 * h;
        const bool f32 = rp.precision == Precision::Float32;
        if (f32 && maxD >= k2p24) break;   // float32 positions round: the direct path
        if (isHalfPrecision(rp.precision)) break;   // bfloat16/float16: the direct path (precisionScores)
        if (auto e = workLimit(n, h, true, maxD, f32 ? 4.0 : 2.0)) return *e;   // value and bound
        const bool inter = rp.layout == RopeLayout::Interleaved;
        const double att = roundTo(rp.precision, freqs.attention_factor);
        const Sweep sw{freqs.inv_freq, {}, Trig::Double, {}};
        double constant = 0;
        for (Eigen::Index c = r; c < params.dim; ++c) constant += roundTo(rp.precision, q(0, c)) * rk(0, c);
        // RoFormer's bound with the frequencies used, in double: (1/(r/2))·Σ_j |S_j|, S_j the
        // partial sums over the pairs in order (accumulated per block while the pairs go by).
        // One double sweep gives the bound and, in double precision, the values too (the rotation
        // for d·θ_i is the bound's term); each run in two halves on two threads, each half with
        // its own partial sums (the split on a sweep block: the one-thread values bit for bit).
        Vector bound = Vector::Zero(n);
        if (f32) ropeFloat32Values(freqs.inv_freq, inter, att, q, rk, u, val);
        forEachRun(u, [&](Eigen::Index idx, std::int64_t first, std::int64_t len) {
            twoHalves(len, [&](std::int64_t a, std::int64_t m) {
                std::vector<double> re(static_cast<std::size_t>(kBlock)), im(re.size());
                sweepRun(sw, first + a, m, [&](Eigen::Index i, const double* C, const double* S, std::int64_t b0, std::int64_t mm) {
                    if (!f32) {
                        const Eigen::Index j0 = inter ? 2 * i : i, j1 = inter ? 2 * i + 1 : i + h;
                        double* out = val.data() + idx + a + b0;
                        const double k0 = rk(0, j0), k1 = rk(0, j1);
                        const double a0 = (q(0, j0) * k0 + q(0, j1) * k1) * att, b1 = (q(0, j0) * k1 - q(0, j1) * k0) * att;
                        for (std::int64_t t = 0; t < mm; ++t) out[t] += C[t] * a0 + S[t] * b1;
                    }
                    if (i == 0) std::fill(re.begin(), re.end(), 0.0), std::fill(im.begin(), im.end(), 0.0);
                    double* out = bound.data() + idx + a + b0;
                    double* x = re.data();
                    double* y = im.data();
                    for (std::int64_t t = 0; t < mm; ++t) {
                        x[t] += C[t];
                        y[t] += S[t];
                        out[t] += std::sqrt(x[t] * x[t] + y[t] * y[t]);
                    }
                });
            });
        });
        val = s * (val.array() + constant).matrix();
        if (h > 0) bound /= static_cast<double>(h);
        curve.scoreBound = roformerScoreBound(bound, q, rk, h, inter, att, s, params.dim);
        curve.bound = std::move(bound);
        return curve;
    }
    case Method::Sinusoidal: {
        const SinusoidalParams sp = params.sinusoidalParams();
        const Vector w = sinusoidalFrequencies(sp);
        const Eigen::Index K = w.size();
        const bool concat = sp.layout == SinusoidalLayout::Concat;
        const bool angle32 = sp.precision == Precision::Float32 && concat;
        // Float32 past 2^24 (positions round) or Round32 at angles past 2^24 rad (its guard widens
        // with the angle until most values need the direct evaluation): the direct path.
        if (sp.precision == Precision::Float32 && (angle32 ? maxD >= k2p24 : static_cast<double>(maxD) * w.cwiseAbs().maxCoeff() > 16777216.0))
            break;
        if (auto e = workLimit(n, K, true, maxD, sp.precision == Precision::Float32 ? 4.0 : 1.0)) return *e;
        const Matrix pe0 = sinusoidalEncoding(sp, zero);
        auto sinIdx = [&](Eigen::Index i) { return concat ? i : 2 * i; };
        auto cosIdx = [&](Eigen::Index i) { return concat ? K + i : 2 * i + 1; };
        Sweep sw{w, {}, angle32 ? Trig::Angle32 : sp.precision == Precision::Float32 ? Trig::Round32 : Trig::Double, {}};
        // The direct value of one pair at one distance, as sinusoidalEncoding computes it: float32
        // angles f32(d)·f32(w) (concat), else the double angle d/divisor (Vaswani,
        // divisor = base^(2i/dim), the expression of sinusoidal.cpp's doubleFrequencies) or d·w
        // (tensor2tensor), its sin and cos rounded to float32.
        sw.exact = [&](std::int64_t d, Eigen::Index i, double& c, double& sn) {
            double x;
            if (angle32)
                x = static_cast<double>(static_cast<float>(d) * static_cast<float>(w[i]));
            else if (sp.frequencies == SinusoidalFrequencies::Vaswani)
                x = static_cast<double>(d) / std::pow(sp.base, static_cast<double>(2 * i) / sp.dim);
            else
                x = static_cast<double>(d) * w[i];
            c = roundTo(Precision::Float32, std::cos(x));
            sn = roundTo(Precision::Float32, std::sin(x));
        };
        forEachRun(u, [&](Eigen::Index idx, std::int64_t first, std::int64_t len) {
            sweepRun(sw, first, len, [&](Eigen::Index i, const double* C, const double* S, std::int64_t b0, std::int64_t m) {
                const double a = cosIdx(i) < sp.dim ? pe0(0, cosIdx(i)) : 0.0;
                const double b = sinIdx(i) < sp.dim ? pe0(0, sinIdx(i)) : 0.0;
                double* out = val.data() + idx + b0;
                for (std::int64_t t = 0; t < m; ++t) out[t] += C[t] * a + S[t] * b;
            });
        });
        val *= s;
        return curve;
    }
    case Method::TransformerXL: {
        // s·(b + d) = s·(q + v)·W_R R_d = s·R_d·c with c = W_Rᵀ(q + v); R_d the float32 concat
        // Vaswani sinusoid (transformerXLPosEmb) of the clamped distance.
        const TransformerXLParams tp = params.transformerXLParams();
        const std::int64_t clampAt = tp.clamp_len > 0 ? tp.clamp_len : maxD;
        const std::int64_t top = std::min(maxD, clampAt);
        if (top >= k2p24) break;
        std::vector<std::int64_t> mapped;
        for (auto d : u) {
            if (d >= top) break;
            mapped.push_back(d);
        }
        mapped.push_back(top);
        const Vector w = sinusoidalFrequencies(transformerXLSinusoid(tp.dim));
        const Eigen::Index K = w.size();
        // The weights W_R (dim × dim numbers) count as dim distances.
        if (auto e = workLimit(static_cast<std::int64_t>(mapped.size()) + tp.dim, K, true, maxD, 4.0)) return *e;
        const TransformerXLWeights wt = transformerXLWeights(tp);
        const Vector coef = wt.w_r.transpose() * (q.row(0).transpose() + wt.v);
        Vector mv = Vector::Zero(static_cast<Eigen::Index>(mapped.size()));
        const Sweep sw = angle32Sweep(w);
        // On two threads: this float32 sweep (its guard and Taylor correction) is the slowest.
        forEachRun(mapped, [&](Eigen::Index idx, std::int64_t first, std::int64_t len) {
            sweepRunTwo(sw, first, len, [&](Eigen::Index i, const double* C, const double* S, std::int64_t b0, std::int64_t m) {
                const double a = K + i < tp.dim ? coef[K + i] : 0.0, b = coef[i];
                double* out = mv.data() + idx + b0;
                for (std::int64_t t = 0; t < m; ++t) out[t] += C[t] * a + S[t] * b;
            });
        });
        const Eigen::Index last = mv.size() - 1;
        for (Eigen::Index i = 0; i < n; ++i) val[i] = s * mv[std::min(i, last)];
        return curve;
    }
    case Method::Xpos: {
        // Float32: the sweep of xposFloat32Rows (above). Double: value = s·Σ_i ζ_i^e(d)·((R_d q)_i·k_i) with e(d) = d/scale_base, clamped at
        // ±60/ln(7/2) as scaleRow does (only past the extent precondition): the damped rotation
        // e^{d·(ln ζ_i/sb + iθ_i)} before the clamp, the constant ζ_i^lim times the rotation after.
        const XposParams xp = params.xposParams();
        const Eigen::Index h = xp.head_dim / 2;
        if (xp.precision == Precision::Float32) {
            // Float32: xposFloat32Rows (the Angle32 sweep, the guarded float32 scale, the
            // rotation's roundings) dotted with k; past 2^24 (positions round) the direct path.
            if (maxD >= k2p24) break;
            if (auto e = workLimit(n, h, true, maxD, kXposFloat32Weight)) return *e;
            xposFloat32Rows(xp, q, k, u, val.data(), [](Eigen::Index, Eigen::Index, const float*, const float*, const float*, std::int64_t) {});
            val *= s;
            return curve;
        }
        if (xp.precision != Precision::Double) break;
        const double lim = kXposMaxLogScale / std::log(3.5);
        const Vector inv = xposInvFreq(xp);
        const Vector zeta = xposZeta(xp);
        if (auto e = workLimit(n, h, true, maxD)) return *e;
        Vector g(h), tailScale(h);
        for (Eigen::Index i = 0; i < h; ++i) {
            g[i] = std::log(zeta[i]) / xp.scale_base;
            tailScale[i] = std::pow(zeta[i], lim);
        }
        std::size_t split = 0;
        while (split < u.size() && static_cast<double>(u[split]) / xp.scale_base <= lim) ++split;
        const std::vector<std::int64_t> head(u.begin(), u.begin() + static_cast<std::ptrdiff_t>(split));
        const std::vector<std::int64_t> tail(u.begin() + static_cast<std::ptrdiff_t>(split), u.end());
        for (int part = 0; part < 2; ++part) {
            const Sweep sw{inv, part == 0 ? g : Vector(), Trig::Double, {}};
            const Eigen::Index offset = part == 0 ? 0 : static_cast<Eigen::Index>(split);
            forEachRun(part == 0 ? head : tail, [&](Eigen::Index idx, std::int64_t first, std::int64_t len) {
                sweepRun(sw, first, len, [&](Eigen::Index i, const double* C, const double* S, std::int64_t b0, std::int64_t m) {
                    const double f = part == 0 ? 1.0 : tailScale[i];
                    const double q0 = f * q(0, 2 * i), q1 = f * q(0, 2 * i + 1), k0 = k(0, 2 * i), k1 = k(0, 2 * i + 1);
                    double* out = val.data() + offset + idx + b0;
                    for (std::int64_t t = 0; t < m; ++t)
                        out[t] += (q0 * C[t] - q1 * S[t]) * k0 + (q1 * C[t] + q0 * S[t]) * k1;
                });
            });
        }
        val *= s;
        return curve;
    }
    default: break;
    }

    // The direct per-distance evaluation (learned, t5, alibi: O(D) or bounded by their tables;
    // positions past float32's exact integers: bounded by the direct work limit).
    if (params.method == Method::Rope || params.method == Method::Xpos || params.method == Method::Sinusoidal ||
        params.method == Method::TransformerXL)
        if (auto e = workLimit(n, params.dim / 2, false, maxD)) return *e;
    RopeParams rp;
    RopeFrequencies freqs;
    Matrix rotatedKey;
    if (params.method == Method::Rope) {
        rp = params.ropeParams();
        freqs = ropeFrequencies(rp, rp.seq_len ? rp.seq_len : std::optional<std::int64_t>(maxD + 1));
        rotatedKey = ropeApply(rp, ropeTables(rp, freqs, zero), k);
    }
    Matrix pe0;
    if (params.method == Method::Sinusoidal) pe0 = sinusoidalEncoding(params.sinusoidalParams(), zero);
    Matrix e0;
    if (params.method == Method::Learned) {
        auto r = learnedEncoding(params.learnedParams(), zero);
        if (!r) return r.error();
        e0 = r.value();
    }
    for (std::size_t a = 0; a < u.size(); a += kChunk) {
        const std::size_t b = std::min(u.size(), a + kChunk);
        const Positions pos(u.begin() + static_cast<std::ptrdiff_t>(a), u.begin() + static_cast<std::ptrdiff_t>(b));
        const auto m = static_cast<Eigen::Index>(pos.size());
        Vector v(m);
        switch (params.method) {
        case Method::Sinusoidal: v = s * (sinusoidalEncoding(params.sinusoidalParams(), pos) * pe0.row(0).transpose()); break;
        case Method::Learned: {
            auto r = learnedEncoding(params.learnedParams(), pos);
            if (!r) return ParamError{"max_distance", r.error().valid, r.error().got};
            v = s * (r.value() * e0.row(0).transpose());
            break;
        }
        case Method::T5: v = t5Bias(params.t5Params(), params.head, pos, zero).col(0); break;
        case Method::TransformerXL: {
            const TransformerXLTerms t =
                transformerXLTerms(params.transformerXLParams(), pos, zero, q.replicate(m, 1), k);
            v = s * (t.b + t.d).col(0);
            break;
        }
        case Method::Alibi: v = alibiBias(params.alibiParams(), params.head, pos, zero).col(0); break;
        case Method::Rope: {
            const Matrix rq = ropeApply(rp, ropeTables(rp, freqs, pos), q.replicate(m, 1));
            if (isHalfPrecision(rp.precision))
                v = precisionScores(rp.precision, rq, rotatedKey, s).col(0);
            else
                v = s * (rq * rotatedKey.row(0).transpose());
            break;
        }
        case Method::Xpos: {
            const Matrix rq = xposQueryRows(params.xposParams(), q, pos);
            v = s * (rq * k.row(0).transpose());
            break;
        }
        default: v.setZero(); break;
        }
        val.segment(static_cast<Eigen::Index>(a), m) = v;
    }
    if (params.method == Method::Rope) {
        curve.bound = roformerBound(freqs.inv_freq, u);
        const Eigen::Index h = freqs.inv_freq.size();
        curve.scoreBound = roformerScoreBound(*curve.bound, q, rotatedKey, h, rp.layout == RopeLayout::Interleaved,
                                              freqs.attention_factor, s, params.dim);
    }
    return curve;
}

}  // namespace

namespace {
Result<DecayCurve> decayCurvePlain(const ScoreParams& params, const std::vector<std::int64_t>& distances);
}  // namespace

Result<XposDecayFloat32> xposDecayFloat32(const ScoreParams& params, const std::vector<std::int64_t>& distances) {
    if (auto e = params.validate()) return *e;
    if (params.method != Method::Xpos) return ParamError{"method", "xpos", std::string(methodKey(params.method))};
    if (params.precision != Precision::Float32) return ParamError{"precision", "float32", "another precision"};
    if (distances.empty()) return ParamError{"distances", "at least one distance", "an empty list"};
    for (std::size_t i = 0; i < distances.size(); ++i)
        if (distances[i] < 0 || distances[i] >= (std::int64_t{1} << 24) || (i > 0 && distances[i] <= distances[i - 1]))
            return ParamError{"distances", "strictly increasing distances from 0 to 2^24 − 1", formatInt(distances[i])};
    const XposParams xp = params.xposParams();
    const Matrix q = contentRows(params.content, false, Positions{0}, params.dim, params.seed);
    XposDecayFloat32 out;
    const auto n = static_cast<Eigen::Index>(distances.size());
    out.scale.resize(n, xp.head_dim / 2);
    out.rows.resize(n, xp.head_dim);
    xposFloat32Rows(xp, q, q, distances, nullptr,
                    [&](Eigen::Index i, Eigen::Index at, const float* sc, const float* r0, const float* r1, std::int64_t m) {
                        for (std::int64_t t = 0; t < m; ++t) {
                            out.scale(at + t, i) = sc[t];
                            out.rows(at + t, 2 * i) = r0[t];
                            out.rows(at + t, 2 * i + 1) = r1[t];
                        }
                    });
    return out;
}

Result<DecayCurve> decayCurveAt(const ScoreParams& layer, const std::vector<std::int64_t>& distances) {
    if (auto e = layer.validate()) return *e;
    ScoreParams params = layer;
    params.method = layer.effectiveMethod();
    const AttentionParams& at = layer.attention;
    const std::optional<std::int64_t> reach = visibleTo(at, at.causalWith(layer.causal));
    std::vector<std::int64_t> seen;
    if (reach) {
        for (auto d : distances)
            if (d <= *reach) seen.push_back(d);
        if (seen.empty())
            return ParamError{at.chunk ? "chunk" : "window", "a layer that sees at least one of the distances asked for (it sees up to " + formatInt(*reach) + ")",
                              formatInt(distances.empty() ? 0 : distances.front())};
    }
    auto r = decayCurvePlain(params, reach ? seen : distances);
    if (!r) return r;
    DecayCurve& c = r.value();
    c.visibleTo = reach;
    const Method m = params.method;
    // T5 and ALiBi: the curve is the bias itself. Real content: diagonalMeans scored the rows
    // with the whole attention structure (scale, norms, query scaling, soft-cap) already.
    if (m == Method::T5 || m == Method::Alibi || params.source) return r;
    double f = scoreScale(at, params.dim) * std::sqrt(static_cast<double>(params.dim));
    if (at.qk_norm != QkNorm::None) {
        const Positions zero{0};
        for (bool key : {false, true}) {
            const Matrix x = contentRows(params.content, key, zero, params.dim, params.seed);
            f *= 1.0 / std::sqrt(x.row(0).squaredNorm() / params.dim + at.norm_eps);
        }
    }
    for (Eigen::Index i = 0; i < c.value.size(); ++i) {
        const double scale = f * queryScale(at, c.distance[static_cast<std::size_t>(i)], params.precision);
        c.value[i] *= scale;
        if (c.scoreBound) (*c.scoreBound)[i] *= std::abs(scale);
        // The soft-cap is odd and increasing: |C·tanh(v/C)| <= C·tanh(bound/C) when |v| <= bound.
        c.value[i] = softcapScore(at, c.value[i], params.precision);
        if (c.scoreBound) (*c.scoreBound)[i] = softcapScore(at, (*c.scoreBound)[i], params.precision);
    }
    for (Eigen::Index i = 0; i < c.value.size(); ++i)
        if (!std::isfinite(c.value[i]))
            return ParamError{"result", "parameters for which every value is finite", formatNumber(c.value[i])};
    return r;
}

namespace {
Result<DecayCurve> decayCurvePlain(const ScoreParams& params, const std::vector<std::int64_t>& distances) {
    if (distances.empty()) return ParamError{"distances", "at least one distance", "an empty list"};
    if (static_cast<std::int64_t>(distances.size()) > kMaxDecayPoints)
        return ParamError{"distances", "at most " + formatInt(kMaxDecayPoints) + " distances",
                          formatInt(static_cast<std::int64_t>(distances.size()))};
    bool increasing = true;
    for (std::size_t i = 0; i < distances.size(); ++i) {
        const auto x = distances[i];
        if (x < 0 || x > kMaxDecayDistance)
            return ParamError{"max_distance", "distances from 0 to " + formatInt(kMaxDecayDistance), formatInt(x)};
        if (i > 0 && x <= distances[i - 1]) increasing = false;
    }

    Result<DecayCurve> r = ParamError{"distances", "", ""};
    if (params.source) {
        const std::int64_t n = params.source->length();
        auto m = diagonalMeans(params, distances, n);
        if (!m) return m.error();
        DecayCurve c;
        c.distance = distances;
        c.value = std::move(m.value().value);
        c.count = std::move(m.value().count);
        if (params.method == Method::Rope) {
            const RopeParams rp = params.ropeParams();
            const RopeFrequencies freqs = ropeFrequencies(rp, rp.seq_len ? rp.seq_len : std::optional<std::int64_t>(n));
            std::vector<std::int64_t> u = distances;
            std::sort(u.begin(), u.end());
            u.erase(std::unique(u.begin(), u.end()), u.end());
            const Vector bu = roformerBound(freqs.inv_freq, u);
            Vector b(static_cast<Eigen::Index>(distances.size()));
            for (std::size_t i = 0; i < distances.size(); ++i)
                b[static_cast<Eigen::Index>(i)] =
                    bu[static_cast<Eigen::Index>(std::lower_bound(u.begin(), u.end(), distances[i]) - u.begin())];
            c.bound = std::move(b);
        }
        r = std::move(c);
    } else if (increasing) {
        r = curveOnSorted(params, distances);
    } else {
        std::vector<std::int64_t> u = distances;
        std::sort(u.begin(), u.end());
        u.erase(std::unique(u.begin(), u.end()), u.end());
        auto ru = curveOnSorted(params, u);
        if (!ru) return ru.error();
        const DecayCurve& cu = ru.value();
        DecayCurve c;
        c.distance = distances;
        c.value.resize(static_cast<Eigen::Index>(distances.size()));
        if (cu.bound) c.bound = Vector(c.value.size());
        if (cu.scoreBound) c.scoreBound = Vector(c.value.size());
        for (std::size_t i = 0; i < distances.size(); ++i) {
            const auto at = static_cast<Eigen::Index>(std::lower_bound(u.begin(), u.end(), distances[i]) - u.begin());
            c.value[static_cast<Eigen::Index>(i)] = cu.value[at];
            if (c.bound) (*c.bound)[static_cast<Eigen::Index>(i)] = (*cu.bound)[at];
            if (c.scoreBound) (*c.scoreBound)[static_cast<Eigen::Index>(i)] = (*cu.scoreBound)[at];
        }
        r = std::move(c);
    }
    if (!r) return r.error();
    const DecayCurve& curve = r.value();
    for (Eigen::Index i = 0; i < curve.value.size(); ++i)
        if (!std::isfinite(curve.value[i]))
            return ParamError{"result", "parameters for which every value is finite", formatNumber(curve.value[i])};
    return r;
}

}  // namespace


std::optional<Result<std::vector<double>>> sweptDistanceScores(const ScoreParams& params, std::int64_t length,
                                                               std::int64_t lo, std::int64_t hi) {
    if (params.content != Content::Ones || params.source || params.attention.qk_norm != QkNorm::None ||
        !scoresAreDistanceFunction(params) || lo > hi)
        return std::nullopt;
    const double s = scoreScale(params.attention, params.dim);
    std::vector<double> f(static_cast<std::size_t>(hi - lo + 1));
    auto finish = [&](auto&& value) -> Result<std::vector<double>> {
        for (std::int64_t x = lo; x <= hi; ++x) {
            const double y = value(x);
            if (!std::isfinite(y)) return ParamError{"result", "parameters for which every score is finite", formatNumber(y)};
            f[static_cast<std::size_t>(x - lo)] = y;
        }
        return f;
    };
    if (params.method == Method::Rope && params.precision == Precision::Double) {
        // decayCurve's double rope value without its bound; ones content scores (i, j) and (j, i)
        // alike. The sequence's length fixes dynamic/longrope factors (the scores' runtime rule).
        const RopeParams rp = params.ropeParams();
        const RopeFrequencies freqs = ropeFrequencies(rp, rp.seq_len ? rp.seq_len : std::optional<std::int64_t>(length));
        const Matrix q = Matrix::Ones(1, params.dim);
        const Matrix rk = ropeApply(rp, ropeTables(rp, freqs, Positions{0}), q);
        const Eigen::Index h = freqs.inv_freq.size(), r = 2 * h;
        const std::int64_t top = std::max(std::abs(lo), std::abs(hi));
        if (static_cast<double>(top + 1) * static_cast<double>(std::max<Eigen::Index>(h, 1)) > kFastWorkLimit) return std::nullopt;
        const bool inter = rp.layout == RopeLayout::Interleaved;
        const double att = freqs.attention_factor;
        double constant = 0;
        for (Eigen::Index c = r; c < params.dim; ++c) constant += q(0, c) * rk(0, c);
        const Sweep sw{freqs.inv_freq, {}, Trig::Double, {}};
        std::vector<double> v(static_cast<std::size_t>(top + 1));
        sweepRunTwo(sw, 0, top + 1, [&](Eigen::Index i, const double* C, const double* S, std::int64_t b0, std::int64_t m) {
            const Eigen::Index j0 = inter ? 2 * i : i, j1 = inter ? 2 * i + 1 : i + h;
            const double k0 = rk(0, j0), k1 = rk(0, j1);
            const double a0 = (q(0, j0) * k0 + q(0, j1) * k1) * att, b1 = (q(0, j0) * k1 - q(0, j1) * k0) * att;
            double* out = v.data() + b0;
            for (std::int64_t t = 0; t < m; ++t) out[t] += C[t] * a0 + S[t] * b1;
        });
        return finish([&](std::int64_t x) {
            return softcapScore(params.attention, s * (v[static_cast<std::size_t>(std::abs(x))] + constant), params.precision);
        });
    }
    if (params.method == Method::TransformerXL) {
        const TransformerXLParams tp = params.transformerXLParams();
        // Distances are clamped from above only (keys after the query keep their distance).
        const std::int64_t above = tp.clamp_len > 0 ? std::min(hi, tp.clamp_len) : hi;
        const std::int64_t top2 = std::max(above, -lo);
        if (top2 >= (std::int64_t{1} << 24) || static_cast<double>(top2 + 1) * tp.dim > kFastWorkLimit) return std::nullopt;
        const Vector w = sinusoidalFrequencies(transformerXLSinusoid(tp.dim));
        const Eigen::Index K = w.size();
        const TransformerXLWeights wt = transformerXLWeights(tp);
        const Vector coef = wt.w_r.transpose() * (Vector::Ones(tp.dim) + wt.v);
        const double constant = static_cast<double>(tp.dim) + wt.u.sum();   // a + c
        Sweep sw{w, {}, Trig::Angle32, {}};
        sw.exact = [&](std::int64_t d, Eigen::Index i, double& c, double& sn) {
            const double x = static_cast<double>(static_cast<float>(static_cast<float>(d) * static_cast<float>(w[i])));
            c = roundTo(Precision::Float32, std::cos(x));
            sn = roundTo(Precision::Float32, std::sin(x));
        };
        // cosPart(δ) = Σ cos-half coefficients·cos, sinPart(δ) = Σ sin-half coefficients·sin, δ = 0 .. top2.
        std::vector<double> cosPart(static_cast<std::size_t>(top2 + 1)), sinPart(cosPart.size());
        sweepRunTwo(sw, 0, top2 + 1, [&](Eigen::Index i, const double* C, const double* S, std::int64_t b0, std::int64_t m) {
            const double a = K + i < tp.dim ? coef[K + i] : 0.0, b = coef[i];
            double* oc = cosPart.data() + b0;
            double* os = sinPart.data() + b0;
            for (std::int64_t t = 0; t < m; ++t) {
                oc[t] += C[t] * a;
                os[t] += S[t] * b;
            }
        });
        return finish([&](std::int64_t x) {
            const auto at = static_cast<std::size_t>(x >= 0 ? std::min(x, above) : -x);
            const double positional = x >= 0 ? cosPart[at] + sinPart[at] : cosPart[at] - sinPart[at];
            return softcapScore(params.attention, s * (constant + positional), params.precision);
        });
    }
    if (params.method == Method::Xpos) {
        const XposParams xp = params.xposParams();
        const double lim = kXposMaxLogScale / std::log(3.5);
        const std::int64_t top = std::max(std::abs(lo), std::abs(hi));
        if (static_cast<double>(length) > lim * xp.scale_base || static_cast<double>(top + 1) * (xp.head_dim / 2) > kFastWorkLimit)
            return std::nullopt;
        const Vector inv = xposInvFreq(xp);
        const Vector zeta = xposZeta(xp);
        const Eigen::Index h = inv.size();
        // A sum of 2·ζ^(±δ/sb)·cos(δθ) per sign of δ: the sweep with magnitude e^{±δ·g}, g = ln ζ / sb.
        std::vector<double> up(static_cast<std::size_t>(hi >= 0 ? hi + 1 : 0)), down(static_cast<std::size_t>(lo < 0 ? -lo + 1 : 0));
        for (int sign : {1, -1}) {
            std::vector<double>& out = sign > 0 ? up : down;
            if (out.empty()) continue;
            Vector g(h);
            for (Eigen::Index i = 0; i < h; ++i) g[i] = sign * std::log(zeta[i]) / xp.scale_base;
            const Sweep sw{inv, g, Trig::Double, {}};
            sweepRunTwo(sw, 0, static_cast<std::int64_t>(out.size()),
                        [&](Eigen::Index, const double* C, const double*, std::int64_t b0, std::int64_t m) {
                            double* o = out.data() + b0;
                            for (std::int64_t t = 0; t < m; ++t) o[t] += 2 * C[t];
                        });
        }
        return finish([&](std::int64_t x) {
            return softcapScore(params.attention, s * (x >= 0 ? up[static_cast<std::size_t>(x)] : down[static_cast<std::size_t>(-x)]),
                                params.precision);
        });
    }
    return std::nullopt;
}

}  // namespace poslab
