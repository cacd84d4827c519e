#include "core/demonstrations.h"

#include "core/alibi.h"
#include "core/learned.h"
#include "core/random.h"
#include "core/rope.h"
#include "core/rope_detail.h"
#include "core/shaw.h"
#include "core/sinusoidal.h"
#include "core/t5.h"
#include "core/transformer_xl.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>

namespace poslab {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

// Seed streams of the demonstrations' own random inputs (distinct from the core's tables).
constexpr std::uint64_t kStreamTokens = 31, kStreamQ = 51, kStreamK = 52, kStreamX = 41, kStreamY = 42;

Matrix permuteRows(const Matrix& m, const std::vector<int>& perm) {
    Matrix out(m.rows(), m.cols());
    for (std::size_t r = 0; r < perm.size(); ++r) out.row(Eigen::Index(r)) = m.row(perm[r]);
    return out;
}
Matrix permuteCols(const Matrix& m, const std::vector<int>& perm) {
    Matrix out(m.rows(), m.cols());
    for (std::size_t c = 0; c < perm.size(); ++c) out.col(Eigen::Index(c)) = m.col(perm[c]);
    return out;
}
double maxAbs(const Matrix& a) { return a.size() == 0 ? 0.0 : a.cwiseAbs().maxCoeff(); }

// Largest (max − min) over the diagonals p − q = const of a square matrix.
double diagonalSpread(const Matrix& m) {
    const Eigen::Index n = m.rows();
    double worst = 0;
    for (Eigen::Index off = -(n - 1); off <= n - 1; ++off) {
        double lo = INFINITY, hi = -INFINITY;
        for (Eigen::Index p = 0; p < n; ++p) {
            const Eigen::Index q = p - off;
            if (q < 0 || q >= n) continue;
            lo = std::min(lo, m(p, q));
            hi = std::max(hi, m(p, q));
        }
        if (hi >= lo) worst = std::max(worst, hi - lo);
    }
    return worst;
}

Positions shifted(std::int64_t begin, int count) { return arangePositions(begin, begin + count); }

Check checkInt(const char* name, std::int64_t v, std::int64_t lo, std::int64_t hi, const char* extra = "") {
    if (v < lo || v > hi)
        return ParamError{name, "an integer from " + formatInt(lo) + " to " + formatInt(hi) + extra, formatInt(v)};
    return std::nullopt;
}
Check checkEven(const char* name, std::int64_t v, std::int64_t lo, std::int64_t hi) {
    if (v < lo || v > hi || v % 2 != 0)
        return ParamError{name, "an even integer from " + formatInt(lo) + " to " + formatInt(hi), formatInt(v)};
    return std::nullopt;
}
Check checkBase(double base) {
    if (!std::isfinite(base) || base <= 1 || base > 1e12) return ParamError{"base", "a number in (1, 1e12]", formatNumber(base)};
    return std::nullopt;
}

std::string sci(double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3g", x);
    return buf;
}

}  // namespace

// ============================================================================ catalogue
const std::vector<DemoInfo>& demonstrations() {
    static const std::vector<DemoInfo> list = {
        {DemoId::PermutationEquivariance, "permutation", "Attention without positions is permutation-equivariant",
         "Shuffle the tokens and the outputs shuffle the same way: without positions, attention cannot see order.", "Attention"},
        {DemoId::SinusoidalShift, "sinusoidal-shift", "Sinusoidal: a shift is a rotation",
         "PE(p+Δ) = R(Δ)·PE(p): moving Δ positions rotates every (sin, cos) pair by Δ·w_i.", "Sinusoidal"},
        {DemoId::SinusoidalRelative, "sinusoidal-relative", "Sinusoidal: PE(p)·PE(q) depends only on p − q",
         "The dot product of two encodings is constant along every diagonal p − q = const.", "Sinusoidal"},
        {DemoId::SinusoidalTokens, "sinusoidal-tokens", "Sinusoidal: relativity is lost once tokens are added",
         "(x + PE(p))·(y + PE(q)) varies along a diagonal: the cross terms x·PE(q), PE(p)·y are absolute.", "Sinusoidal"},
        {DemoId::RopeShiftInvariance, "rope-shift", "RoPE: the score depends only on m − n",
         "Shift every position by Δ and the score heatmap is unchanged.", "RoPE"},
        {DemoId::RopeNorm, "rope-norm", "RoPE: norms are preserved",
         "A rotation never changes a vector's length: |R_m x| = |x| at every position.", "RoPE"},
        {DemoId::RopeDecay, "rope-decay", "RoPE: long-term decay",
         "With equal content, the score and RoFormer's bound shrink as the distance grows.", "RoPE"},
        {DemoId::RopeComplexIdentity, "rope-complex", "RoPE: the complex identity (with its sine term)",
         "⟨R_m q, R_n k⟩ = Re[Σ q̃_j k̃_j* e^{i(m−n)θ_j}] exactly; dropping the sine term (a common error) is wrong.", "RoPE"},
        {DemoId::KvCache, "kv-cache", "KV cache: rotate once vs recompute every step",
         "RoPE rotates each key once and caches it; relative-bias methods recompute one term per cached key at every step.", "Inference"},
        {DemoId::Extrapolation, "extrapolation", "Beyond the training length",
         "Learned tables fail, sinusoidal and ALiBi continue, RoPE's slow pairs leave the trained range; "
         "linear interpolation, NTK and YaRN bring them back.", "Long context"},
        {DemoId::HalfVsInterleaved, "rope-layouts", "Half-split vs interleaved RoPE",
         "The same rotation up to a permutation of channels; mixing the layouts gives wrong numbers.", "RoPE"},
        {DemoId::ComparisonTable, "comparison", "Comparison of the methods",
         "Learnable, extrapolation, relative, memory: each cell links to the scene that shows it.", "Overview"},
    };
    return list;
}

const DemoInfo& demoInfo(DemoId id) {
    for (const auto& d : demonstrations())
        if (d.id == id) return d;
    return demonstrations().front();
}

std::optional<DemoId> demoFromKey(const std::string& key) {
    for (const auto& d : demonstrations())
        if (d.key == key) return d.id;
    return std::nullopt;
}

// ============================================================================ attention
Matrix attentionOutput(const Matrix& q, const Matrix& k, const Matrix& v) {
    const double s = 1.0 / std::sqrt(double(q.cols()));
    Matrix a = (q * k.transpose()) * s;
    for (Eigen::Index r = 0; r < a.rows(); ++r) {
        const double mx = a.row(r).maxCoeff();
        a.row(r) = (a.row(r).array() - mx).exp().matrix();
        a.row(r) /= a.row(r).sum();
    }
    return a * v;
}

// ============================================================================ permutation
Check PermutationInput::validate() const {
    if (auto e = checkInt("tokens", tokens, 2, 64)) return e;
    if (auto e = checkEven("dim", dim, 2, 256)) return e;
    if (!permutation.empty()) {
        if (permutation.size() != std::size_t(tokens))
            return ParamError{"permutation", "a permutation of 0.." + formatInt(tokens - 1) + " (" + formatInt(tokens) + " numbers)",
                              formatInt(std::int64_t(permutation.size())) + " numbers"};
        std::vector<bool> seen(std::size_t(tokens), false);
        for (int p : permutation) {
            if (p < 0 || p >= tokens || seen[std::size_t(p)])
                return ParamError{"permutation", "a permutation of 0.." + formatInt(tokens - 1), formatInt(p)};
            seen[std::size_t(p)] = true;
        }
    }
    return std::nullopt;
}

std::vector<int> PermutationInput::resolvedPermutation() const {
    if (!permutation.empty()) return permutation;
    std::vector<int> p(static_cast<std::size_t>(tokens));
    for (int i = 0; i < tokens; ++i) p[std::size_t(i)] = tokens - 1 - i;
    return p;
}

Result<PermutationResult> demoPermutation(const PermutationInput& in) {
    if (auto e = in.validate()) return *e;
    PermutationResult r;
    r.permutation = in.resolvedPermutation();
    r.tokens = seededNormal(in.tokens, in.dim, in.seed, kStreamTokens);
    const Matrix& X = r.tokens;
    const Matrix PX = permuteRows(X, r.permutation);
    r.out = attentionOutput(X, X, X);
    r.outShuffled = attentionOutput(PX, PX, PX);
    r.nopeError = maxAbs(r.outShuffled - permuteRows(r.out, r.permutation));

    // Positions 0..n−1 stay with the slots; the tokens move.
    const Positions pos = arangePositions(0, in.tokens);
    RopeParams rp;
    rp.head_dim = in.dim;
    rp.precision = Precision::Double;
    auto ropeOut = [&](const Matrix& x) {
        const Matrix rx = ropeRotate(rp, pos, x);
        return attentionOutput(rx, rx, x);
    };
    r.ropeError = maxAbs(ropeOut(PX) - permuteRows(ropeOut(X), r.permutation));

    SinusoidalParams sp;
    sp.dim = in.dim;
    sp.precision = Precision::Double;
    const Matrix pe = sinusoidalEncoding(sp, pos);
    auto sinOut = [&](const Matrix& x) {
        const Matrix h = x + pe;
        return attentionOutput(h, h, h);
    };
    r.sinusoidalError = maxAbs(sinOut(PX) - permuteRows(sinOut(X), r.permutation));
    return r;
}

// ============================================================================ sinusoidal
Check SinusoidalDemoInput::validate() const {
    if (auto e = checkEven("dim", dim, 2, 1024)) return e;
    if (auto e = checkBase(base)) return e;
    if (auto e = checkInt("positions", positions, 8, 1024)) return e;
    if (auto e = checkInt("delta", delta, 0, 1'000'000)) return e;
    if (auto e = checkInt("layout", layout, 0, 1, " (0 interleaved, 1 concat)")) return e;
    return std::nullopt;
}

Result<SinusoidalDemoResult> demoSinusoidal(const SinusoidalDemoInput& in) {
    if (auto e = in.validate()) return *e;
    SinusoidalParams p;
    p.dim = in.dim;
    p.base = in.base;
    p.layout = in.layout == 0 ? SinusoidalLayout::Interleaved : SinusoidalLayout::Concat;
    p.frequencies = SinusoidalFrequencies::Vaswani;
    p.precision = in.precision;
    if (auto e = p.validate()) return *e;

    SinusoidalDemoResult r;
    const int K = in.dim / 2;
    const Vector w = sinusoidalFrequencies(p);
    // R(Δ) acting on (sin, cos) of each pair: sin(a+δ) = sin a cos δ + cos a sin δ,
    // cos(a+δ) = cos a cos δ − sin a sin δ.
    r.rotation = Matrix::Zero(in.dim, in.dim);
    for (int i = 0; i < K; ++i) {
        const int s = p.layout == SinusoidalLayout::Interleaved ? 2 * i : i;
        const int c = p.layout == SinusoidalLayout::Interleaved ? 2 * i + 1 : K + i;
        const double d = double(in.delta) * w[i];
        r.rotation(s, s) = std::cos(d);
        r.rotation(s, c) = std::sin(d);
        r.rotation(c, s) = -std::sin(d);
        r.rotation(c, c) = std::cos(d);
    }
    const Matrix pe = sinusoidalEncoding(p, shifted(0, in.positions));
    const Matrix peShift = sinusoidalEncoding(p, shifted(in.delta, in.positions));
    r.shiftError = maxAbs(peShift - pe * r.rotation.transpose());

    r.dot = pe * pe.transpose();
    r.relativeSpread = diagonalSpread(r.dot);

    const Matrix x = seededNormal(1, in.dim, in.seed, kStreamX);
    const Matrix y = seededNormal(1, in.dim, in.seed, kStreamY);
    const Matrix hx = pe.rowwise() + x.row(0);
    const Matrix hy = pe.rowwise() + y.row(0);
    r.dotWithTokens = hx * hy.transpose();
    r.tokensSpread = diagonalSpread(r.dotWithTokens);
    // (p, q) = (3, 1) and the same offset Δ' = positions/2 later (inside 0 .. positions−1: positions >= 8).
    const int p0 = 3, q0 = 1;
    const int h = in.positions / 2;
    r.dotAtPositions[0][0] = p0;
    r.dotAtPositions[0][1] = q0;
    r.dotAtPositions[1][0] = p0 + h;
    r.dotAtPositions[1][1] = q0 + h;
    for (int k = 0; k < 2; ++k) {
        r.dotAt[k] = r.dot(r.dotAtPositions[k][0], r.dotAtPositions[k][1]);
        r.dotWithTokensAt[k] = r.dotWithTokens(r.dotAtPositions[k][0], r.dotAtPositions[k][1]);
    }
    return r;
}

// ============================================================================ RoPE
Check RopeDemoInput::validate() const {
    if (auto e = checkEven("head_dim", head_dim, 2, 1024)) return e;
    if (auto e = checkBase(base)) return e;
    if (auto e = checkInt("tokens", tokens, 2, 256)) return e;
    if (auto e = checkInt("shift", shift, 0, 1'000'000'000)) return e;
    if (auto e = checkInt("layout", layout, 0, 1, " (0 half-split, 1 interleaved)")) return e;
    if (auto e = checkInt("m", m, 0, 1'000'000'000)) return e;
    if (auto e = checkInt("n", n, 0, 1'000'000'000)) return e;
    return params().validate();
}

RopeParams RopeDemoInput::params() const {
    RopeParams p;
    p.head_dim = head_dim;
    p.base = base;
    p.layout = layout == 0 ? RopeLayout::Half : RopeLayout::Interleaved;
    p.precision = precision;
    return p;
}

Result<RopeDemoResult> demoRope(const RopeDemoInput& in) {
    if (auto e = in.validate()) return *e;
    RopeDemoResult r;
    const RopeParams p = in.params();
    r.q = seededNormal(in.tokens, in.head_dim, in.seed, kStreamQ);
    r.k = seededNormal(in.tokens, in.head_dim, in.seed, kStreamK);
    const Matrix& Q = r.q;
    const Matrix& K = r.k;
    const double s = 1.0 / std::sqrt(double(in.head_dim));
    const Positions p0 = shifted(0, in.tokens), p1 = shifted(in.shift, in.tokens);
    auto scoresAt = [&](const RopeParams& rp, const Positions& pos) {
        return Matrix((ropeRotate(rp, pos, Q) * ropeRotate(rp, pos, K).transpose()) * s);
    };
    r.scores = scoresAt(p, p0);
    r.scoresShifted = scoresAt(p, p1);
    r.shiftError = maxAbs(r.scores - r.scoresShifted);
    RopeParams p32 = p;
    p32.precision = Precision::Float32;
    r.shiftErrorFloat32 = maxAbs(scoresAt(p32, p0) - scoresAt(p32, p1));

    for (const Positions* pos : {&p0, &p1}) {
        const Matrix rq = ropeRotate(p, *pos, Q);
        for (Eigen::Index i = 0; i < Q.rows(); ++i)
            r.normError = std::max(r.normError, std::abs(rq.row(i).norm() - Q.row(i).norm()) / Q.row(i).norm());
    }

    // Complex identity at (m, n) with q = Q row 0, k = K row 0.
    const Matrix q = Q.row(0), k = K.row(0);
    const Matrix rqm = ropeRotate(p, Positions{in.m}, q);
    const Matrix rkn = ropeRotate(p, Positions{in.n}, k);
    r.inner = (rqm.row(0).dot(rkn.row(0)));
    const RopeFrequencies f = ropeFrequencies(p);
    const int rd = f.rotary_dim;
    double full = 0, cosOnly = 0, sine = 0;
    for (int j = 0; j < rd / 2; ++j) {
        const int c0 = p.layout == RopeLayout::Interleaved ? 2 * j : j;
        const int c1 = p.layout == RopeLayout::Interleaved ? 2 * j + 1 : j + rd / 2;
        // q̃ k̃* = (a + ib)(c − id) = (ac + bd) + i(bc − ad)
        const double a = q(0, c0), b = q(0, c1), c = k(0, c0), d = k(0, c1);
        const double re = a * c + b * d, im = b * c - a * d;
        const double phi = double(in.m - in.n) * f.inv_freq[j];
        cosOnly += re * std::cos(phi);
        sine += -im * std::sin(phi);
    }
    for (int c = rd; c < in.head_dim; ++c) {  // pass-through channels (partial rotary): plain product
        cosOnly += q(0, c) * k(0, c);
    }
    full = cosOnly + sine;
    r.complexFull = full;
    r.cosOnly = cosOnly;
    r.sineTerm = sine;
    r.identityError = std::abs(r.inner - full);
    r.cosOnlyError = std::abs(r.inner - cosOnly);
    return r;
}

Check RopeDecayInput::validate() const {
    if (auto e = checkEven("head_dim", head_dim, 2, 1024)) return e;
    if (auto e = checkBase(base)) return e;
    if (distances.empty() || distances.size() > 4096)
        return ParamError{"distances", "1 to 4096 distances", formatInt(std::int64_t(distances.size())) + " distances"};
    for (auto d : distances)
        if (auto e = checkInt("distances", d, 0, 1'000'000'000)) return e;
    return std::nullopt;
}

Result<RopeDecayResult> demoRopeDecay(const RopeDecayInput& in) {
    if (auto e = in.validate()) return *e;
    ScoreParams sp;
    sp.method = Method::Rope;
    sp.dim = in.head_dim;
    sp.content = Content::Ones;
    sp.precision = Precision::Double;
    sp.rope.head_dim = in.head_dim;
    sp.rope.base = in.base;
    sp.rope.precision = Precision::Double;
    auto curve = decayCurveAt(sp, in.distances);
    if (!curve) return curve.error();
    RopeDecayResult r;
    r.distance = curve.value().distance;
    const auto& v = curve.value().value;
    r.value.assign(v.data(), v.data() + v.size());
    if (curve.value().bound) r.bound.assign(curve.value().bound->data(), curve.value().bound->data() + curve.value().bound->size());
    // Cross-check with the rotation itself: ones q at position d, ones k at position 0.
    const RopeParams rp = sp.ropeParams();
    const Matrix ones = Matrix::Ones(1, in.head_dim);
    const Matrix k0 = ropeRotate(rp, Positions{0}, ones);
    const double s = 1.0 / std::sqrt(double(in.head_dim));
    for (auto d : r.distance) r.directValue.push_back(s * ropeRotate(rp, Positions{d}, ones).row(0).dot(k0.row(0)));
    return r;
}

// ============================================================================ KV cache
Check KvCacheInput::validate() const {
    if (auto e = checkInt("steps", steps, 1, 512)) return e;
    if (auto e = checkEven("head_dim", head_dim, 2, 256)) return e;
    if (auto e = checkInt("heads", heads, 1, 256)) return e;
    return std::nullopt;
}

Result<KvCacheResult> demoKvCache(const KvCacheInput& in) {
    if (auto e = in.validate()) return *e;
    KvCacheResult r;
    const int T = in.steps;
    RopeParams rp;
    rp.head_dim = in.head_dim;
    rp.precision = Precision::Double;
    const Matrix Q = seededNormal(T, in.head_dim, in.seed, kStreamQ);
    const Matrix K = seededNormal(T, in.head_dim, in.seed, kStreamK);

    // RoPE with a cache: key j is rotated once, at its own position, when it arrives.
    Matrix cache(T, in.head_dim);
    for (int t = 1; t <= T; ++t) {
        const std::int64_t pos = t - 1;
        cache.row(pos) = ropeRotate(rp, Positions{pos}, K.row(pos)).row(0);
        const Matrix q = ropeRotate(rp, Positions{pos}, Q.row(pos));
        const Matrix cached = q * cache.topRows(t).transpose();
        // Full recomputation of every key at this step.
        const Matrix full = q * ropeRotate(rp, arangePositions(0, t), K.topRows(t)).transpose();
        r.ropeCacheError = std::max(r.ropeCacheError, maxAbs(cached - full));
        r.steps.push_back({t, t - 1, 2, t});
    }
    const std::vector<Method> methods = {Method::Rope, Method::Xpos, Method::Alibi, Method::T5, Method::Shaw,
                                         Method::TransformerXL, Method::Sinusoidal, Method::Learned, Method::NoPE};
    for (Method m : methods) {
        KvCacheMethodCount c{m, {}, 0};
        for (const auto& s : r.steps) {
            std::int64_t n = 0;
            switch (m) {
                case Method::Rope: case Method::Xpos: n = s.ropeRotations; break;
                case Method::Sinusoidal: case Method::Learned: n = 1; break;  // PE of the new token, added once
                case Method::NoPE: n = 0; break;
                default: n = s.relativeTerms; break;
            }
            c.perStep.push_back(n);
            c.total += n;
        }
        r.methods.push_back(std::move(c));
    }

    // A relative term cached one step earlier is wrong now: compare the terms for keys 0..T−2 as
    // seen by query T−2 (previous step) and by query T−1 (this step).
    if (T >= 2) {
        const Positions keys = arangePositions(0, T - 1);
        const Positions prevQ{T - 2}, lastQ{T - 1};
        AlibiParams ap;
        ap.heads = in.heads;
        for (int h = 0; h < in.heads; ++h)
            r.alibiStaleError = std::max(r.alibiStaleError, maxAbs(alibiBias(ap, h, prevQ, keys) - alibiBias(ap, h, lastQ, keys)));
        T5Params tp;
        tp.heads = in.heads;
        tp.bidirectional = false;  // decoding is causal
        r.t5StaleError = maxAbs(t5Bias(tp, 0, prevQ, keys) - t5Bias(tp, 0, lastQ, keys));
        ShawParams sh;
        const IntMatrix i0 = shawIndexAt(prevQ, keys, sh.max_relative_position);
        const IntMatrix i1 = shawIndexAt(lastQ, keys, sh.max_relative_position);
        for (Eigen::Index j = 0; j < i0.cols(); ++j) r.shawIndicesChanged += i0(0, j) != i1(0, j);
        const auto d0 = transformerXLDistances(T - 1, 0);
        const auto d1 = transformerXLDistances(T, 0);
        for (std::size_t j = 0; j + 1 < d1.size() && j < d0.size(); ++j) r.txlDistancesChanged += d0[j] != d1[j];
    }
    return r;
}

// ============================================================================ extrapolation
Check ExtrapolationInput::validate() const {
    if (auto e = checkInt("train_length", train_length, 2, 1'048'576)) return e;
    if (auto e = checkInt("target_length", target_length, train_length + 1, 16 * 1'048'576)) return e;
    if (auto e = checkEven("head_dim", head_dim, 4, 1024)) return e;
    if (auto e = checkBase(base)) return e;
    if (auto e = checkInt("alibi_heads", alibi_heads, 1, 1024)) return e;
    return std::nullopt;
}

const ExtrapolationRow* ExtrapolationResult::find(const std::string& method) const {
    for (const auto& r : rows)
        if (r.method == method) return &r;
    return nullptr;
}

Result<ExtrapolationResult> demoExtrapolation(const ExtrapolationInput& in) {
    if (auto e = in.validate()) return *e;
    ExtrapolationResult res;
    const std::int64_t L = in.train_length, T = in.target_length;
    const std::int64_t last = T - 1;

    {   // NoPE: nothing positional to extrapolate.
        ExtrapolationRow r;
        r.method = "nope";
        r.verdict = "nothing positional to extrapolate, and no notion of order either";
        res.rows.push_back(r);
    }
    {   // Learned.
        LearnedParams lp;
        lp.dim = in.head_dim;
        lp.table_size = L;
        ExtrapolationRow r;
        r.method = "learned";
        auto e = learnedEncoding(lp, Positions{last});
        r.defined = e.ok();
        if (!e.ok()) r.error = e.error().message();
        r.verdict = r.defined ? "defined" : "fails: position " + formatInt(last) + " has no row in a table of " + formatInt(L);
        res.rows.push_back(r);
    }
    {   // Sinusoidal: defined, but a row never seen in training. Max cosine similarity to trained rows.
        SinusoidalParams sp;
        sp.dim = in.head_dim;
        sp.base = in.base;
        sp.precision = Precision::Double;
        const Matrix target = sinusoidalEncoding(sp, Positions{last});
        const double tn = target.norm();
        double best = -1;
        // Every trained row when L <= 65536, else 65536 evenly spaced ones (bounded work).
        const std::int64_t samples = std::min<std::int64_t>(L, 65536);
        const std::int64_t block = 4096;
        for (std::int64_t b = 0; b < samples; b += block) {
            Positions pos;
            for (std::int64_t k = b; k < std::min(samples, b + block); ++k) pos.push_back(samples == L ? k : k * (L - 1) / (samples - 1));
            const Matrix rows = sinusoidalEncoding(sp, pos);
            const Vector dots = rows * target.row(0).transpose();
            for (Eigen::Index i = 0; i < dots.size(); ++i) best = std::max(best, dots[i] / (rows.row(i).norm() * tn));
        }
        ExtrapolationRow r;
        r.method = "sinusoidal";
        r.value = best;
        r.verdict = "defined at every position; the model never saw row " + formatInt(last) + " (closest trained row: cosine " + sci(best) + ")";
        res.rows.push_back(r);
    }
    {   // ALiBi: a linear continuation.
        AlibiParams ap;
        ap.heads = in.alibi_heads;
        const Matrix b = alibiBias(ap, in.alibi_heads - 1, Positions{last}, Positions{0});
        ExtrapolationRow r;
        r.method = "alibi";
        r.value = b(0, 0);
        r.verdict = "defined: the bias keeps falling linearly (flattest head at distance " + formatInt(last) + ": " + sci(r.value) + ")";
        res.rows.push_back(r);
    }
    {   // Shaw: clipped.
        ShawParams sh;
        const IntMatrix idx = shawIndexAt(Positions{last}, Positions{0}, sh.max_relative_position);
        ExtrapolationRow r;
        r.method = "shaw";
        r.value = double(idx(0, 0));
        r.verdict = "defined: distances beyond k = " + formatInt(sh.max_relative_position) + " share the last embedding (index " +
                    formatInt(idx(0, 0)) + ")";
        res.rows.push_back(r);
    }
    {   // T5: the last bucket.
        T5Params tp;
        ExtrapolationRow r;
        r.method = "t5";
        r.value = double(t5Bucket(-last, tp));
        r.verdict = "defined: every distance past max_distance = " + formatInt(tp.max_distance) + " falls in bucket " +
                    formatInt(std::int64_t(r.value));
        res.rows.push_back(r);
    }
    {   // Transformer-XL: relative sinusoid, defined.
        ExtrapolationRow r;
        r.method = "transformer-xl";
        const Matrix e = transformerXLPosEmb(in.head_dim, {last});
        r.defined = e.allFinite();
        r.value = e.norm();
        r.verdict = "defined: the relative sinusoid exists at every distance (unseen ones past L)";
        res.rows.push_back(r);
    }
    // RoPE variants.
    RopeParams base;
    base.head_dim = in.head_dim;
    base.base = in.base;
    base.precision = Precision::Double;
    base.max_positions = L;
    const Vector trained = ropeFrequencies(base).inv_freq;
    auto ropeRow = [&](const std::string& name, const RopeParams& p, std::optional<std::int64_t> seqLen, const std::string& how) {
        const RopeFrequencies f = ropeFrequencies(p, seqLen);
        ExtrapolationRow r;
        r.method = name;
        r.pairs = int(f.inv_freq.size());
        for (Eigen::Index i = 0; i < f.inv_freq.size(); ++i) {
            const double trainedMax = double(L - 1) * trained[i];
            const double target = double(last) * f.inv_freq[i];
            if (trainedMax < kTwoPi && target > trainedMax * (1 + 1e-3)) ++r.unseenPairs;
        }
        const Eigen::Index lo = f.inv_freq.size() - 1;
        r.lowestPairRatio = (double(last) * f.inv_freq[lo]) / (double(L - 1) * trained[lo]);
        r.highestPairStep = f.inv_freq[0];
        r.attentionFactor = f.attention_factor;
        r.base = p.scaling == RopeScaling::Dynamic ? ropeDynamicBase(p, seqLen).base : p.base;
        r.verdict = how + ": " + formatInt(r.unseenPairs) + " of " + formatInt(r.pairs) +
                    " pairs reach angles never seen in training; slowest pair at " + sci(r.lowestPairRatio) + "× its trained range";
        res.rows.push_back(r);
    };
    ropeRow("rope", base, std::nullopt, "plain RoPE");
    RopeParams lin = base;
    lin.scaling = RopeScaling::Linear;
    lin.factor = in.factor();
    ropeRow("rope-linear", lin, std::nullopt, "linear interpolation (positions / " + sci(in.factor()) + ")");
    RopeParams ntk = base;
    ntk.scaling = RopeScaling::Dynamic;
    ntk.factor = in.factor();
    ntk.seq_len = T;
    ropeRow("rope-ntk", ntk, T, "NTK (dynamic base)");
    RopeParams yarn = base;
    yarn.scaling = RopeScaling::Yarn;
    yarn.factor = in.factor();
    yarn.original_max_positions = L;
    yarn.max_positions = T;
    ropeRow("rope-yarn", yarn, std::nullopt, "YaRN (ramp between pairs)");
    return res;
}

// ============================================================================ layouts
Check LayoutDemoInput::validate() const {
    if (auto e = checkEven("head_dim", head_dim, 2, 1024)) return e;
    if (auto e = checkBase(base)) return e;
    if (auto e = checkInt("tokens", tokens, 2, 256)) return e;
    if (auto e = checkInt("shift", shift, 0, 1'000'000'000)) return e;
    return std::nullopt;
}

Result<LayoutDemoResult> demoLayouts(const LayoutDemoInput& in) {
    if (auto e = in.validate()) return *e;
    LayoutDemoResult r;
    const int d = in.head_dim;
    for (int c = 0; c < d; ++c) r.permutation.push_back(c < d / 2 ? 2 * c : 2 * (c - d / 2) + 1);
    RopeParams half;
    half.head_dim = d;
    half.base = in.base;
    half.precision = Precision::Double;
    half.layout = RopeLayout::Half;
    RopeParams inter = half;
    inter.layout = RopeLayout::Interleaved;

    const Matrix Q = seededNormal(in.tokens, d, in.seed, kStreamQ);
    const Matrix K = seededNormal(in.tokens, d, in.seed, kStreamK);
    const Positions p0 = shifted(0, in.tokens), p1 = shifted(in.shift, in.tokens);
    const double s = 1.0 / std::sqrt(double(d));

    const Matrix halfOfPermuted = ropeRotate(half, p0, permuteCols(Q, r.permutation));
    const Matrix permutedInter = permuteCols(ropeRotate(inter, p0, Q), r.permutation);
    r.permutationError = maxAbs(halfOfPermuted - permutedInter);

    auto S = [&](const RopeParams& pq, const RopeParams& pk, const Matrix& q, const Matrix& k, const Positions& pos) {
        return Matrix(ropeRotate(pq, pos, q) * ropeRotate(pk, pos, k).transpose() * s);
    };
    const Matrix correct = S(inter, inter, Q, K, p0);
    r.scoreError = maxAbs(S(half, half, permuteCols(Q, r.permutation), permuteCols(K, r.permutation), p0) - correct);
    r.wrongLayoutScoreError = maxAbs(S(half, half, Q, K, p0) - correct);
    r.mixedShiftError = maxAbs(S(half, inter, Q, K, p0) - S(half, inter, Q, K, p1));
    r.consistentShiftError = maxAbs(S(half, half, Q, K, p0) - S(half, half, Q, K, p1));

    // The seed example in float32, as the frameworks compute it.
    r.seedPosition = 2;
    r.seedTheta = {1.0, 0.1};
    r.seedQ = {1.0, 0.0, 1.0, 0.0};
    RopeParams seed;
    seed.head_dim = int(r.seedQ.size());
    seed.theta = r.seedTheta;
    seed.precision = Precision::Float32;
    Matrix q(1, seed.head_dim);
    for (int c = 0; c < seed.head_dim; ++c) q(0, c) = r.seedQ[std::size_t(c)];
    seed.layout = RopeLayout::Interleaved;
    const Matrix a = ropeRotate(seed, Positions{r.seedPosition}, q);
    seed.layout = RopeLayout::Half;
    const Matrix b = ropeRotate(seed, Positions{r.seedPosition}, q);
    r.seedInterleaved.assign(a.data(), a.data() + a.size());
    r.seedHalf.assign(b.data(), b.data() + b.size());
    r.seedDifference = (a - b).norm();
    return r;
}

// ============================================================================ table
const TableRow* ComparisonTable::find(Method m) const {
    for (const auto& r : rows)
        if (r.method == m) return &r;
    return nullptr;
}

ComparisonTable comparisonTable() {
    ComparisonTable t;
    t.columns = {"Learnable", "Extrapolation", "Relative", "Memory"};
    const LearnedParams lp;
    const ShawParams sh;
    const T5Params tp;
    const TransformerXLParams xp;
    const double learnedParams = double(learnedTable(lp).size());
    const double shawParams = double(shawKeyTable(sh).size() + shawValueTable(sh).size());
    const double t5Params = double(t5BiasTable(tp).size());
    const auto w = transformerXLWeights(xp);
    const double txlParams = double(w.u.size() + w.v.size() + w.w_r.size());
    using D = DemoId;
    auto row = [&](Method m, TableCell a, TableCell b, TableCell c, TableCell d) {
        TableRow r{m, {std::move(a), std::move(b), std::move(c), std::move(d)}};
        t.rows.push_back(std::move(r));
    };
    auto mem = [&](double n, const std::string& runtime) {
        return TableCell{formatNumber(n) + " parameters; " + runtime, D::KvCache, n};
    };
    for (Method m : kAllMethods) {
        switch (m) {
            case Method::NoPE:
                row(m, {"nothing to learn", D::PermutationEquivariance, 0},
                    {"nothing positional to extrapolate", D::Extrapolation, 0},
                    {"neither: permutation-equivariant", D::PermutationEquivariance, 0}, mem(0, "no positional work"));
                break;
            case Method::Sinusoidal:
                row(m, {"no: a fixed formula", D::SinusoidalShift, 0},
                    {"defined everywhere, unseen rows past L", D::Extrapolation, 0},
                    {"absolute; PE·PE is relative only without tokens", D::SinusoidalTokens, 0},
                    mem(0, "added once per token"));
                break;
            case Method::Learned:
                row(m, {"yes: " + formatInt(lp.table_size) + " × " + formatInt(lp.dim) + " table", D::Extrapolation, 0},
                    {"fails past the table", D::Extrapolation, 0}, {"absolute (indexed by position)", D::Extrapolation, 0},
                    mem(learnedParams, "added once per token"));
                break;
            case Method::Shaw:
                row(m, {"yes: (2k+1) × d key and value tables", D::KvCache, 0},
                    {"clipped at ±k", D::Extrapolation, 0}, {"relative, clipped at ±k", D::KvCache, 0},
                    mem(shawParams, "one term per cached key per step"));
                break;
            case Method::T5:
                row(m, {"yes: one bias per bucket and head", D::KvCache, 0},
                    {"last bucket past max_distance", D::Extrapolation, 0}, {"relative, log buckets", D::KvCache, 0},
                    mem(t5Params, "one bias per cached key per step"));
                break;
            case Method::TransformerXL:
                row(m, {"yes: u, v, W_R", D::KvCache, 0}, {"defined (relative sinusoid)", D::Extrapolation, 0},
                    {"relative (four terms)", D::KvCache, 0}, mem(txlParams, "one term per cached key per step"));
                break;
            case Method::Alibi:
                row(m, {"no: fixed slopes", D::Extrapolation, 0}, {"yes: linear bias continues", D::Extrapolation, 0},
                    {"relative: −m_h (i − j)", D::KvCache, 0}, mem(0, "one bias per cached key per step"));
                break;
            case Method::Rope:
                row(m, {"no: fixed rotation frequencies", D::RopeComplexIdentity, 0},
                    {"slow pairs leave the trained range; fixed by scaling", D::Extrapolation, 0},
                    {"relative: depends only on m − n", D::RopeShiftInvariance, 0},
                    mem(0, "keys rotated once, then cached"));
                break;
            case Method::Xpos:
                row(m, {"no: fixed rotation and decay", D::RopeDecay, 0},
                    {"better than RoPE (explicit decay)", D::RopeDecay, 0},
                    {"relative: depends only on m − n", D::RopeShiftInvariance, 0},
                    mem(0, "keys rotated and scaled once, then cached"));
                break;
        }
    }
    return t;
}

// ============================================================================ summaries
Result<DemoSummary> runDemonstration(DemoId id) {
    DemoSummary s;
    s.id = id;
    s.claim = demoInfo(id).claim;
    auto fig = [&](std::string label, double v, std::string note = {}) { s.figures.push_back({std::move(label), v, std::move(note)}); };
    // Positions of the sinusoidal example pairs, and a short list of numbers ("[−1.325, 0, 0.493, 0]").
    std::optional<SinusoidalDemoResult> sinusoidal;
    auto at = [&](int k, int j) { return formatInt(sinusoidal ? sinusoidal->dotAtPositions[k][j] : 0); };
    auto list = [](const std::vector<double>& v) {
        std::string out = "[";
        for (std::size_t i = 0; i < v.size(); ++i) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.3f", v[i]);
            std::string t = buf;
            while (t.find('.') != std::string::npos && (t.back() == '0' || t.back() == '.')) {
                const bool dot = t.back() == '.';
                t.pop_back();
                if (dot) break;
            }
            if (t == "-0") t = "0";
            if (!t.empty() && t[0] == '-') t = "−" + t.substr(1);
            out += (i ? ", " : "") + t;
        }
        return out + "]";
    };
    switch (id) {
        case DemoId::PermutationEquivariance: {
            auto r = demoPermutation();
            if (!r) return r.error();
            const auto& v = r.value();
            fig("max |out(shuffled) − shuffled(out)|, no positions", v.nopeError, "≈ 0: outputs shuffle with the tokens");
            fig("the same with RoPE", v.ropeError, "≠ 0: positions break the symmetry");
            fig("the same with sinusoidal PE", v.sinusoidalError, "≠ 0");
            s.holds = v.nopeError < 1e-12 && v.ropeError > 1e-3 && v.sinusoidalError > 1e-3;
            s.conclusion = "Without positions, attention is blind to order.";
            break;
        }
        case DemoId::SinusoidalShift: {
            auto r = demoSinusoidal();
            if (!r) return r.error();
            fig("max |PE(p+Δ) − R(Δ)·PE(p)|, Δ = " + formatInt(SinusoidalDemoInput{}.delta), r.value().shiftError, "≈ 0: a shift is a rotation");
            s.holds = r.value().shiftError < 1e-9;
            s.conclusion = "R(Δ) does not depend on p: the same rotation moves every position by Δ.";
            break;
        }
        case DemoId::SinusoidalRelative: {
            auto r = demoSinusoidal();
            if (!r) return r.error();
            sinusoidal = r.value();
            fig("PE(" + at(0, 0) + ")·PE(" + at(0, 1) + ")", r.value().dotAt[0]);
            fig("PE(" + at(1, 0) + ")·PE(" + at(1, 1) + ")", r.value().dotAt[1], "the same: only p − q matters");
            fig("max spread along a diagonal", r.value().relativeSpread, "≈ 0");
            s.holds = r.value().relativeSpread < 1e-9;
            s.conclusion = "PE(p)·PE(q) = Σ cos((p − q)·w_i): a function of p − q alone.";
            break;
        }
        case DemoId::SinusoidalTokens: {
            auto r = demoSinusoidal();
            if (!r) return r.error();
            sinusoidal = r.value();
            fig("(x + PE(" + at(0, 0) + "))·(y + PE(" + at(0, 1) + "))", r.value().dotWithTokensAt[0]);
            fig("(x + PE(" + at(1, 0) + "))·(y + PE(" + at(1, 1) + "))", r.value().dotWithTokensAt[1], "differs: same offset, different score");
            fig("max spread along a diagonal, with tokens", r.value().tokensSpread, "≫ 0");
            fig("max spread without tokens", r.value().relativeSpread, "≈ 0");
            s.holds = r.value().tokensSpread > 1e-2 && r.value().relativeSpread < 1e-9;
            s.conclusion = "The cross terms x·PE(q) and PE(p)·y depend on absolute positions.";
            break;
        }
        case DemoId::RopeShiftInvariance: {
            auto r = demoRope();
            if (!r) return r.error();
            fig("max |S(positions) − S(positions + " + formatInt(RopeDemoInput{}.shift) + ")|", r.value().shiftError, "≈ 0: heatmap unchanged");
            fig("the same with float32 tables", r.value().shiftErrorFloat32, "rounding only");
            s.holds = r.value().shiftError < 1e-9;
            s.conclusion = "⟨R_m q, R_n k⟩ = ⟨q, R_{n−m} k⟩: only m − n enters the score.";
            break;
        }
        case DemoId::RopeNorm: {
            auto r = demoRope();
            if (!r) return r.error();
            fig("max | |R_m x| − |x| | / |x|", r.value().normError, "≈ 0");
            s.holds = r.value().normError < 1e-12;
            s.conclusion = "Rotations change direction, never length.";
            break;
        }
        case DemoId::RopeDecay: {
            auto r = demoRopeDecay();
            if (!r) return r.error();
            const auto& v = r.value();
            for (std::size_t i = 0; i < v.distance.size(); ++i)
                fig("score at distance " + formatInt(v.distance[i]), v.value[i],
                    i < v.bound.size() ? "RoFormer bound " + sci(v.bound[i]) : "");
            s.holds = !v.bound.empty() && v.bound.back() < v.bound.front() && std::abs(v.value.back()) < std::abs(v.value.front());
            s.conclusion = "Far tokens get smaller scores: the high-frequency pairs average out.";
            break;
        }
        case DemoId::RopeComplexIdentity: {
            auto r = demoRope();
            if (!r) return r.error();
            const auto& v = r.value();
            fig("⟨R_" + formatInt(RopeDemoInput{}.m) + " q, R_" + formatInt(RopeDemoInput{}.n) + " k⟩", v.inner);
            fig("Re[Σ q̃ k̃* e^{i(m−n)θ}]", v.complexFull, "error " + sci(v.identityError));
            fig("cos-only form Σ Re(q̃ k̃*) cos((m−n)θ)", v.cosOnly, "error " + sci(v.cosOnlyError));
            fig("the sine term", v.sineTerm, "what the cos-only form misses");
            s.holds = v.identityError < 1e-9 && v.cosOnlyError > 1e-3;
            s.conclusion = "The identity is exact with its sine term; the cos-only form is wrong.";
            break;
        }
        case DemoId::KvCache: {
            auto r = demoKvCache();
            if (!r) return r.error();
            const auto& v = r.value();
            for (const auto& m : v.methods)
                if (m.method == Method::Rope || m.method == Method::Alibi || m.method == Method::T5)
                    fig(std::string(methodKey(m.method)) + ": positional operations over " + formatInt(std::int64_t(v.steps.size())) + " steps",
                        double(m.total));
            fig("RoPE: cached keys vs full recomputation, max |diff|", v.ropeCacheError, "≈ 0: rotate once, cache");
            fig("ALiBi: a bias cached one step ago is off by", v.alibiStaleError, "must be recomputed");
            fig("T5: a bias cached one step ago is off by", v.t5StaleError);
            s.holds = v.ropeCacheError < 1e-12 && v.alibiStaleError > 0;
            s.conclusion = "RoPE's cost per step is constant; relative biases grow with the cache.";
            break;
        }
        case DemoId::Extrapolation: {
            auto r = demoExtrapolation();
            if (!r) return r.error();
            const auto& v = r.value();
            for (const auto& row : v.rows) {
                if (row.method == "learned") fig("learned: defined at position " + formatInt(ExtrapolationInput{}.target_length - 1), row.defined ? 1 : 0, row.error);
                else if (row.method.rfind("rope", 0) == 0) fig(row.method + ": pairs past their trained angles", row.unseenPairs);
                else if (row.method == "alibi") fig("alibi: bias at distance " + formatInt(ExtrapolationInput{}.target_length - 1) + " (flattest head)", row.value);
            }
            const auto* lr = v.find("learned");
            const auto* rope = v.find("rope");
            const auto* yarn = v.find("rope-yarn");
            s.holds = lr && !lr->defined && rope && rope->unseenPairs > 0 && yarn && yarn->unseenPairs == 0;
            s.conclusion = "Training length " + formatInt(ExtrapolationInput{}.train_length) + ", asked for " + formatInt(ExtrapolationInput{}.target_length) + ".";
            break;
        }
        case DemoId::HalfVsInterleaved: {
            auto r = demoLayouts();
            if (!r) return r.error();
            const auto& v = r.value();
            fig("max |half(πx) − π·interleaved(x)|", v.permutationError, "≈ 0: same rotation up to π");
            fig("seed example: |half − interleaved|", v.seedDifference, list(v.seedHalf) + " vs " + list(v.seedInterleaved));
            fig("scores with the wrong layout, max |diff|", v.wrongLayoutScoreError);
            fig("q half, k interleaved: shift changes scores by", v.mixedShiftError, "relativity lost");
            s.holds = v.permutationError < 1e-12 && v.seedDifference > 0.1 && v.mixedShiftError > 1e-3;
            s.conclusion = "Convert checkpoints by permuting channels; never mix the layouts.";
            break;
        }
        case DemoId::ComparisonTable: {
            const auto t = comparisonTable();
            for (const auto& row : t.rows)
                fig(std::string(methodKey(row.method)) + ": positional parameters",
                    row.cells[int(TableColumn::Memory)].number);
            s.holds = true;
            s.conclusion = "Every cell is backed by a demonstration's numbers.";
            break;
        }
    }
    return s;
}

}  // namespace poslab
