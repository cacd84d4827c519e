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
#include "core/xpos.h"

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

// Two significant digits, for a small number in a sentence ("0.00024").
std::string sci2(double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2g", x);
    return buf;
}

std::string sci(double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4g", x);
    return buf;
}

}  // namespace

// ============================================================================ catalogue
const std::vector<DemoInfo>& demonstrations() {
    // Lecture order: no positions, absolute (sinusoidal, learned), relative (Shaw, T5,
    // Transformer-XL), RoPE, ALiBi, inference, long context (scalings), overview.
    static const std::vector<DemoInfo> list = {
        {DemoId::PermutationEquivariance, "permutation", "Attention without positions is permutation-equivariant",
         "Shuffle the tokens and the outputs shuffle the same way: without positions and without a causal mask, attention cannot see order.", "Attention",
         {"nope", "rope", "sinusoidal"}},
        {DemoId::SinusoidalShift, "sinusoidal-shift", "Sinusoidal: a shift is a rotation",
         "PE(p+Δ) = R(Δ)·PE(p): moving Δ positions rotates every (sin, cos) pair by Δ·w_i.", "Sinusoidal", {"sinusoidal"}},
        {DemoId::SinusoidalRelative, "sinusoidal-relative", "Sinusoidal: PE(p)·PE(q) depends only on p − q",
         "The dot product of two encodings is constant along every diagonal p − q = const.", "Sinusoidal", {"sinusoidal"}},
        {DemoId::SinusoidalTokens, "sinusoidal-tokens", "Sinusoidal: relativity is lost once tokens are added",
         "(x + PE(p))·(y + PE(q)) varies along a diagonal: the cross terms x·PE(q), PE(p)·y are absolute.", "Sinusoidal", {"sinusoidal"}},
        {DemoId::LearnedTable, "learned-table", "Learned positions: a table with an end",
         "A learned encoding is one trained row per position: a position past the last row has no encoding at all.", "Learned",
         {"learned"}},
        {DemoId::ShawClipping, "shaw-clipping", "Shaw: relative distances clipped at ±k",
         "One learned vector per distance −k … k: distances beyond k look the same, and a shift of every position changes nothing.",
         "Relative", {"shaw"}},
        {DemoId::T5Buckets, "t5-buckets", "T5: the bucket staircase",
         "Exact buckets near, logarithmic ones far, one last bucket past the maximum distance: the bias sees near distances sharply and far ones coarsely.",
         "Relative", {"t5"}},
        {DemoId::TransformerXLTerms, "transformer-xl-terms", "Transformer-XL: four terms",
         "q·k = (a) content·content + (b) content·distance + (c) global content bias + (d) global distance bias; (d) depends on i − j alone.",
         "Relative", {"transformer-xl"}},
        {DemoId::RopeShiftInvariance, "rope-shift", "RoPE: the score depends only on m − n",
         "Shift every position by Δ and the score heatmap is unchanged.", "RoPE", {"rope"}},
        {DemoId::RopeNorm, "rope-norm", "RoPE: norms are preserved",
         "A rotation never changes a vector's length: |R_m x| = |x| at every position.", "RoPE", {"rope"}},
        {DemoId::RopeDecay, "rope-decay", "RoPE: long-term decay, for equal content",
         "With equal content (q = k), the score and RoFormer's bound on it shrink as the distance grows; with random q and k the "
         "score does not decay (Barbero et al., 2025).", "RoPE", {"rope"}},
        {DemoId::XposDecay, "xpos-decay", "xPos: RoPE with an explicit decay",
         "xPos multiplies pair i of RoPE by ζᵢ^((m−n)/512), ζᵢ < 1: its score still depends on m − n only, and falls with distance "
         "for random content too, where RoPE's does not.",
         "RoPE", {"xpos", "rope"}},
        {DemoId::RopeComplexIdentity, "rope-complex", "RoPE: the complex identity (with its sine term)",
         "⟨R_m q, R_n k⟩ = Re[Σ q̃_j k̃_j* e^(i(m−n)θ_j)] exactly; dropping the sine term (a common error) is wrong.", "RoPE", {"rope"}},
        {DemoId::HalfVsInterleaved, "rope-layouts", "Half-split vs interleaved RoPE",
         "The same rotation up to a permutation of channels; mixing the layouts gives wrong numbers.", "RoPE", {"rope"}},
        {DemoId::AlibiSlopes, "alibi-slopes", "ALiBi: one slope per head, a linear penalty",
         "Head h subtracts m_h·(i − j) with m_h = 2^(−8h/H) (H a power of 2): a straight line in the distance, defined at every distance, so it runs "
         "past the training length; the steep heads give far tokens almost no weight.",
         "ALiBi", {"alibi"}},
        {DemoId::KvCache, "kv-cache", "KV cache: what can be cached",
         "RoPE rotates each key once and caches it; ALiBi caches m·j once per key, since −m·i is the same for the whole row and softmax "
         "ignores it; T5 and Shaw must recompute one term per cached key at every step.", "Inference",
         {"rope", "alibi", "t5", "shaw", "transformer-xl", "xpos", "sinusoidal", "learned", "nope"}},
        {DemoId::Extrapolation, "extrapolation", "Beyond the training length",
         "Learned tables fail, sinusoidal and ALiBi stay defined, RoPE's slow pairs reach angles never seen in training; "
         "linear interpolation, NTK and YaRN bring those angles back into the trained range.", "Long context",
         {"rope", "learned", "sinusoidal", "alibi", "shaw", "t5", "transformer-xl", "nope", "linear", "dynamic", "yarn"}},
        {DemoId::Llama3Bands, "llama3-bands", "Llama 3.1: three frequency bands, 8k → 128k",
         "Short wavelengths are kept, long ones divided by the factor, and the band between is blended smoothly.", "Long context",
         {"rope", "llama3"}},
        {DemoId::YarnRamp, "yarn-ramp", "YaRN: a ramp between β fast and β slow, and a temperature",
         "Pairs that turn more than β fast times in the original context keep their frequency, pairs that turn less than β slow times are "
         "interpolated, a linear ramp between; cos and sin are multiplied by 0.1·ln s + 1, so the logits by its square.",
         "Long context", {"rope", "yarn"}},
        {DemoId::RopeBf16, "rope-bf16", "RoPE in bf16 at position 4096",
         "Angles built in bfloat16 (the legacy path) are off by radians at long context and integer positions above 256 collide; "
         "building the angles in float32 (transformers main) removes the error.",
         "Long context", {"rope"}},
        {DemoId::LocalGlobalLayers, "local-global-layers", "Local and global layers: how Gemma 3 and Llama 4 reach 128k and beyond",
         "Most layers see only a window (Gemma 3: 1024 tokens) or a chunk (Llama 4: 8192); a few global layers reach every token — "
         "Gemma 3's with RoPE at base 10⁶ stretched ×8, Llama 4's with no RoPE at all and queries sharpened as positions grow.",
         "Long context", {"rope", "nope", "linear", "llama3"}},
        {DemoId::ComparisonTable, "comparison", "Comparison of the methods",
         "Learnable, extrapolation, relative, memory: each cell links to the scene that shows it.", "Overview",
         {"nope", "sinusoidal", "learned", "shaw", "t5", "transformer-xl", "alibi", "rope", "xpos"}},
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
        // One x at every position: its length before and after the rotation.
        const Matrix rx = ropeRotate(p, *pos, Q.row(0).replicate(Q.rows(), 1));
        for (Eigen::Index i = 0; i < rx.rows(); ++i) {
            r.normPositions.push_back((*pos)[std::size_t(i)]);
            r.normBefore.push_back(Q.row(0).norm());
            r.normAfter.push_back(rx.row(i).norm());
        }
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
    if (curve.value().scoreBound)
        r.scoreBound.assign(curve.value().scoreBound->data(), curve.value().scoreBound->data() + curve.value().scoreBound->size());
    // Cross-check with the rotation itself: ones q at position d, ones k at position 0.
    const RopeParams rp = sp.ropeParams();
    const Matrix ones = Matrix::Ones(1, in.head_dim);
    const Matrix k0 = ropeRotate(rp, Positions{0}, ones);
    const double s = 1.0 / std::sqrt(double(in.head_dim));
    for (auto d : r.distance) r.directValue.push_back(s * ropeRotate(rp, Positions{d}, ones).row(0).dot(k0.row(0)));
    // Random Gaussian q and k (one pair per draw): the mean |score| at each distance.
    r.draws = 256;
    r.randomMeanAbs.assign(r.distance.size(), 0.0);
    Positions at(r.distance.begin(), r.distance.end());
    for (int seed = 0; seed < r.draws; ++seed) {
        const Matrix q = seededNormal(1, in.head_dim, std::uint64_t(seed), kStreamQ);
        const Matrix k = seededNormal(1, in.head_dim, std::uint64_t(seed), kStreamK);
        const Matrix rk = ropeRotate(rp, Positions{0}, k);
        const Matrix rq = ropeRotate(rp, at, q.replicate(Eigen::Index(at.size()), 1));
        const Vector v = s * (rq * rk.row(0).transpose());
        for (std::size_t i = 0; i < r.distance.size(); ++i) r.randomMeanAbs[i] += std::abs(v[Eigen::Index(i)]) / r.draws;
    }
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
        r.steps.push_back({t, t - 1, 2, 1, t});
    }
    const std::vector<Method> methods = {Method::Rope, Method::Xpos, Method::Alibi, Method::T5, Method::Shaw,
                                         Method::TransformerXL, Method::Sinusoidal, Method::Learned, Method::NoPE};
    for (Method m : methods) {
        KvCacheMethodCount c{m, {}, 0};
        for (const auto& s : r.steps) {
            std::int64_t n = 0;
            switch (m) {
                case Method::Rope: case Method::Xpos: n = s.ropeRotations; break;
                case Method::Alibi: n = s.alibiTerms; break;                   // m·j of the new key, cached
                case Method::Sinusoidal: case Method::Learned: n = 1; break;  // PE of the new token, added once
                case Method::NoPE: n = 0; break;
                default: n = s.relativeTerms; break;
            }
            c.perStep.push_back(n);
            c.total += n;
        }
        r.methods.push_back(std::move(c));
    }

    // A positional term cached one step earlier, reused now: the attention weights of the last
    // query (T−1) over keys 0..T−1 with each old key's term from query T−2 (the new key's term is
    // fresh), against the weights with every term recomputed. softmax(z + c) = softmax(z) for a
    // constant c, so only what changes the row's shape counts.
    if (T >= 2) {
        const Positions keys = arangePositions(0, T), oldKeys = arangePositions(0, T - 1);
        const Positions prevQ{T - 2}, lastQ{T - 1};
        const double sc = 1.0 / std::sqrt(double(in.head_dim));
        const Vector content = sc * (K * Q.row(T - 1).transpose());
        auto weights = [](Vector z) {
            z.array() -= z.maxCoeff();
            z = z.array().exp().matrix();
            return Vector(z / z.sum());
        };
        // fresh: 1 × T terms of query T−1; prev: 1 × (T−1) terms of query T−2 for the old keys.
        auto staleError = [&](const Matrix& fresh, const Matrix& prev) {
            Vector now = content + fresh.row(0).transpose();
            Vector cached = now;
            for (int j = 0; j + 1 < T; ++j) cached[j] = content[j] + prev(0, j);
            return (weights(now) - weights(cached)).cwiseAbs().maxCoeff();
        };
        // ALiBi as BLOOM caches it: the key's own term m_h·j, computed once when key j arrives
        // (the new key's too); −m_h·i is left out, the same for the whole row.
        AlibiParams ap;
        ap.heads = in.heads;
        const Vector slopes = alibiSlopes(ap);
        for (int h = 0; h < in.heads; ++h) {
            const Matrix fresh = alibiBias(ap, h, lastQ, keys);
            Matrix cached(1, T);
            for (int j = 0; j < T; ++j) cached(0, j) = slopes[h] * j;
            r.alibiStaleLogit = std::max(r.alibiStaleLogit, maxAbs(cached - fresh));
            Vector now = content + fresh.row(0).transpose(), withCache = content + cached.row(0).transpose();
            r.alibiStaleError = std::max(r.alibiStaleError, (weights(now) - weights(withCache)).cwiseAbs().maxCoeff());
        }
        T5Params tp;
        tp.heads = in.heads;
        tp.bidirectional = false;  // decoding is causal
        r.t5StaleError = staleError(t5Bias(tp, 0, lastQ, keys), t5Bias(tp, 0, prevQ, oldKeys));
        ShawParams sh;
        sh.dim = in.head_dim;
        auto shawTerms = [&](const Positions& q, const Positions& k) {
            const IntMatrix ix = shawIndexAt(q, k, sh.max_relative_position);
            std::vector<std::int64_t> rows;
            for (Eigen::Index j = 0; j < ix.cols(); ++j) rows.push_back(ix(0, j));
            return Matrix((sc * (shawKeyRows(sh, rows) * Q.row(T - 1).transpose())).transpose());
        };
        r.shawStaleError = staleError(shawTerms(lastQ, keys), shawTerms(prevQ, oldKeys));
        const IntMatrix i0 = shawIndexAt(prevQ, oldKeys, sh.max_relative_position);
        const IntMatrix i1 = shawIndexAt(lastQ, oldKeys, sh.max_relative_position);
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
        r.verdict = "defined: every distance past the maximum distance " + formatInt(tp.max_distance) + " falls in bucket " +
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
    // The sizes of the demonstrations the cells link to (the same numbers on every slide).
    const LearnedParams lp = demoParams(DemoId::LearnedTable).learnedParams();
    const ShawParams sh = demoParams(DemoId::ShawClipping).shawParams();
    const T5Params tp = demoParams(DemoId::T5Buckets).t5Params();
    const TransformerXLParams xp = demoParams(DemoId::TransformerXLTerms).transformerXLParams();
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
                row(m, {"yes: " + formatInt(lp.table_size) + " × " + formatInt(lp.dim) + " table", D::LearnedTable, 0},
                    {"fails past the table", D::Extrapolation, 0}, {"absolute (indexed by position)", D::LearnedTable, 0},
                    mem(learnedParams, "added once per token"));
                break;
            case Method::Shaw:
                row(m, {"yes: (2k+1) × d key and value tables (k = " + formatInt(sh.max_relative_position) + ", d = " + formatInt(sh.dim) + ")",
                         D::ShawClipping, 0},
                    {"clipped at ±k", D::Extrapolation, 0}, {"relative, clipped at ±k", D::ShawClipping, 0},
                    mem(shawParams, "one term per cached key per step"));
                break;
            case Method::T5:
                row(m, {"yes: one bias per bucket and head", D::T5Buckets, 0},
                    {"last bucket past the maximum distance", D::Extrapolation, 0}, {"relative, log buckets", D::T5Buckets, 0},
                    mem(t5Params, "one bias per cached key per step"));
                break;
            case Method::TransformerXL:
                row(m, {"yes: u, v, W", D::TransformerXLTerms, 0}, {"defined (relative sinusoid)", D::Extrapolation, 0},
                    {"relative (four terms)", D::TransformerXLTerms, 0}, mem(txlParams, "one term per cached key per step"));
                break;
            case Method::Alibi:
                row(m, {"no: fixed slopes", D::AlibiSlopes, 0}, {"yes: linear bias continues", D::Extrapolation, 0},
                    {"relative: −m_h (i − j)", D::AlibiSlopes, 0}, mem(0, "m·j cached once per key"));
                break;
            case Method::Rope:
                row(m, {"no: fixed rotation frequencies", D::RopeComplexIdentity, 0},
                    {"slow pairs leave the trained range; scaling brings them back", D::Extrapolation, 0},
                    {"relative: depends only on m − n", D::RopeShiftInvariance, 0},
                    mem(0, "keys rotated once, then cached"));
                break;
            case Method::Xpos:
                row(m, {"no: fixed rotation and decay", D::XposDecay, 0},
                    {"explicit decay: far scores fall for any content", D::XposDecay, 0},
                    {"relative: depends only on m − n", D::XposDecay, 0},
                    mem(0, "keys rotated and scaled once, then cached"));
                break;
        }
    }
    return t;
}

// ============================================================================ scenes
namespace {

// The sizes of the demonstrations that have no input struct of their own.
constexpr std::int64_t kLearnedTable = 2048, kLearnedAsked = 8191;   // the extrapolation demo's L and T − 1
constexpr int kShawTokens = 12;                                      // positions 0 .. 11 (and shifted)
constexpr std::int64_t kShawShift = 100;
constexpr int kTxlTokens = 8;
constexpr std::int64_t kAlibiTrain = 2048, kAlibiAsked = 8191;

ScoreParams sceneOf(Method m, int dim, Precision precision) {
    ScoreParams p;
    p.method = m;
    p.dim = dim;
    p.precision = precision;
    p.rope.precision = precision;
    return p;
}

}  // namespace

ScoreParams demoParams(DemoId id) {
    switch (id) {
        case DemoId::PermutationEquivariance: return sceneOf(Method::NoPE, PermutationInput{}.dim, Precision::Double);
        case DemoId::SinusoidalShift:
        case DemoId::SinusoidalRelative:
        case DemoId::SinusoidalTokens: {
            const SinusoidalDemoInput in;
            ScoreParams p = sceneOf(Method::Sinusoidal, in.dim, in.precision);
            p.sinusoidal.base = in.base;
            p.sinusoidal.layout = in.layout == 0 ? SinusoidalLayout::Interleaved : SinusoidalLayout::Concat;
            return p;
        }
        case DemoId::RopeShiftInvariance:
        case DemoId::RopeNorm:
        case DemoId::RopeComplexIdentity: {
            const RopeDemoInput in;
            ScoreParams p = sceneOf(Method::Rope, in.head_dim, in.precision);
            p.rope.base = in.base;
            return p;
        }
        case DemoId::RopeDecay: return sceneOf(Method::Rope, RopeDecayInput{}.head_dim, Precision::Double);
        case DemoId::KvCache: return sceneOf(Method::Rope, KvCacheInput{}.head_dim, Precision::Double);
        case DemoId::Extrapolation: return sceneOf(Method::Rope, ExtrapolationInput{}.head_dim, Precision::Double);
        case DemoId::HalfVsInterleaved: return sceneOf(Method::Rope, LayoutDemoInput{}.head_dim, Precision::Double);
        case DemoId::ComparisonTable: return sceneOf(Method::Rope, 64, Precision::Double);
        case DemoId::LearnedTable: {
            ScoreParams p = sceneOf(Method::Learned, 64, Precision::Double);
            p.learned.table_size = kLearnedTable;
            return p;
        }
        case DemoId::ShawClipping: {
            ScoreParams p = sceneOf(Method::Shaw, 16, Precision::Double);
            p.shaw.max_relative_position = 4;
            return p;
        }
        case DemoId::T5Buckets: return sceneOf(Method::T5, 64, Precision::Double);   // 32 buckets, max_distance 128
        case DemoId::TransformerXLTerms: return sceneOf(Method::TransformerXL, 16, Precision::Double);
        case DemoId::AlibiSlopes: return sceneOf(Method::Alibi, 64, Precision::Double);   // 8 heads
        case DemoId::Llama3Bands: {
            // meta-llama/Llama-3.1-8B's config.json (the llama-3.1-8b preset, resources/presets):
            // head 128, θ 500000, 8192 → 131072, factor 8, bands 1 and 4.
            ScoreParams p;
            p.method = Method::Rope;
            p.dim = p.rope.head_dim = 128;
            p.rope.base = 500000;
            p.rope.max_positions = 131072;
            p.rope.layout = RopeLayout::Half;
            p.rope.scaling = RopeScaling::Llama3;
            p.rope.factor = 8.0;
            p.rope.low_freq_factor = 1.0;
            p.rope.high_freq_factor = 4.0;
            p.rope.original_max_positions = 8192;
            return p;
        }
        case DemoId::YarnRamp: {
            // A YaRN extension 4096 → 32768 (s = 8), head 128, base 10000, β fast 32, β slow 1.
            ScoreParams p = sceneOf(Method::Rope, 128, Precision::Float32);
            p.rope.scaling = RopeScaling::Yarn;
            p.rope.original_max_positions = 4096;
            p.rope.max_positions = 32768;
            return p;
        }
        case DemoId::RopeBf16: {
            // The model: head 128, base 10 000, bfloat16 (the scene's dtype; each path sets
            // its own angle dtype).
            const RopeBf16Input in;
            ScoreParams p = sceneOf(Method::Rope, in.rope.head_dim, in.rope.precision);
            p.rope.base = in.rope.base;
            return p;
        }
        case DemoId::LocalGlobalLayers: return demoLayerModels().front().params;
        case DemoId::XposDecay: {
            ScoreParams p = sceneOf(Method::Xpos, 64, Precision::Double);
            p.xpos.head_dim = 64;
            p.xpos.precision = Precision::Double;
            return p;
        }
    }
    return ScoreParams{};
}

const std::vector<std::string>& demoSceneParams(DemoId id) {
    static const std::map<DemoId, std::vector<std::string>> m = {
        {DemoId::PermutationEquivariance, {"dim"}},
        {DemoId::SinusoidalShift, {"dim", "precision", "sinusoidal.base", "sinusoidal.layout"}},
        {DemoId::SinusoidalRelative, {"dim", "precision", "sinusoidal.base", "sinusoidal.layout"}},
        {DemoId::SinusoidalTokens, {"dim", "precision", "sinusoidal.base", "sinusoidal.layout"}},
        {DemoId::RopeShiftInvariance, {"dim", "precision", "rope.base", "rope.layout"}},
        {DemoId::RopeNorm, {"dim", "precision", "rope.base", "rope.layout"}},
        {DemoId::RopeComplexIdentity, {"dim", "precision", "rope.base", "rope.layout"}},
        {DemoId::RopeDecay, {"dim", "rope.base"}},
        {DemoId::KvCache, {"dim"}},
        {DemoId::Extrapolation, {"dim", "rope.base"}},
        {DemoId::HalfVsInterleaved, {"dim", "rope.base"}},
        {DemoId::ComparisonTable, {}},
        {DemoId::LearnedTable, {"dim", "learned.table_size", "learned.seed"}},
        {DemoId::ShawClipping, {"dim", "shaw.max_relative_position", "shaw.seed"}},
        {DemoId::T5Buckets, {"causal", "t5.num_buckets", "t5.max_distance"}},
        {DemoId::TransformerXLTerms, {"dim", "transformer_xl.clamp_len", "transformer_xl.seed"}},
        {DemoId::AlibiSlopes, {"precision", "alibi.heads", "alibi.bias_max"}},
        {DemoId::Llama3Bands, {"dim", "precision", "rope.*"}},
        {DemoId::YarnRamp, {"dim", "precision", "rope.*"}},
        {DemoId::RopeBf16, {"dim", "precision", "rope.base"}},
        {DemoId::LocalGlobalLayers, {}},
        {DemoId::XposDecay, {"dim", "xpos.scale_base"}},
    };
    static const std::vector<std::string> none;
    auto it = m.find(id);
    return it == m.end() ? none : it->second;
}

// ============================================================================ summaries
const DemoFigure* DemoSummary::find(const std::string& name) const {
    for (const auto& f : figures)
        if (f.name == name) return &f;
    return nullptr;
}

Result<DemoSummary> runDemonstration(DemoId id) { return runDemonstration(id, demoParams(id)); }

Result<DemoSummary> runDemonstration(DemoId id, const ScoreParams& scene) {
    DemoSummary s;
    s.id = id;
    s.claim = demoInfo(id).claim;
    auto fig = [&](std::string name, std::string label, double v, std::string note = {}) {
        s.figures.push_back({std::move(label), v, std::move(note), std::move(name), {}});
    };
    auto figList = [&](std::string name, std::string label, std::vector<double> v, std::string note = {}) {
        s.figures.push_back({std::move(label), v.empty() ? 0.0 : v.front(), std::move(note), std::move(name), std::move(v)});
    };
    // Numbers written into sentences carry 4 significant digits.
    auto num = [](double v) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.4g", v);
        std::string t = buf;
        if (!t.empty() && t[0] == '-') t = "−" + t.substr(1);
        return t;
    };
    // The scene's inputs for the demonstrations with an input struct.
    SinusoidalDemoInput sinIn;
    sinIn.dim = scene.dim;
    sinIn.base = scene.sinusoidal.base;
    sinIn.layout = scene.sinusoidal.layout == SinusoidalLayout::Interleaved ? 0 : 1;
    sinIn.precision = scene.precision;
    RopeDemoInput ropeIn;
    ropeIn.head_dim = scene.dim;
    ropeIn.base = scene.rope.base;
    ropeIn.layout = scene.rope.layout == RopeLayout::Half ? 0 : 1;
    ropeIn.precision = scene.precision;
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
            PermutationInput in;
            in.dim = scene.dim;
            auto r = demoPermutation(in);
            if (!r) return r.error();
            const auto& v = r.value();
            fig("nope_error", "max |out(shuffled) − shuffled(out)|, no positions", v.nopeError, "≈ 0: outputs shuffle with the tokens");
            fig("rope_error", "the same with RoPE", v.ropeError, "≠ 0: positions break the symmetry");
            fig("sinusoidal_error", "the same with sinusoidal PE", v.sinusoidalError, "≠ 0");
            s.holds = v.nopeError < 1e-12 && v.ropeError > 1e-3 && v.sinusoidalError > 1e-3;
            s.conclusion = "Without positions (and without a causal mask, which alone reveals some order), attention is blind to order.";
            break;
        }
        case DemoId::SinusoidalShift: {
            auto r = demoSinusoidal(sinIn);
            if (!r) return r.error();
            fig("shift_error", "max |PE(p+Δ) − R(Δ)·PE(p)|, Δ = " + formatInt(sinIn.delta), r.value().shiftError, "≈ 0: a shift is a rotation");
            s.holds = r.value().shiftError < 1e-9;
            s.conclusion = "R(Δ) does not depend on p: the same rotation moves every position by Δ.";
            break;
        }
        case DemoId::SinusoidalRelative: {
            auto r = demoSinusoidal(sinIn);
            if (!r) return r.error();
            sinusoidal = r.value();
            fig("dot_first", "PE(" + at(0, 0) + ")·PE(" + at(0, 1) + ")", r.value().dotAt[0]);
            fig("dot_second", "PE(" + at(1, 0) + ")·PE(" + at(1, 1) + ")", r.value().dotAt[1], "the same: only p − q matters");
            fig("diagonal_spread", "max spread along a diagonal", r.value().relativeSpread, "≈ 0");
            s.holds = r.value().relativeSpread < 1e-9;
            s.conclusion = "PE(p)·PE(q) = Σ cos((p − q)·w_i): a function of p − q alone.";
            break;
        }
        case DemoId::SinusoidalTokens: {
            auto r = demoSinusoidal(sinIn);
            if (!r) return r.error();
            sinusoidal = r.value();
            fig("dot_first", "(x + PE(" + at(0, 0) + "))·(y + PE(" + at(0, 1) + "))", r.value().dotWithTokensAt[0]);
            fig("dot_second", "(x + PE(" + at(1, 0) + "))·(y + PE(" + at(1, 1) + "))", r.value().dotWithTokensAt[1], "differs: same offset, different score");
            fig("tokens_spread", "max spread along a diagonal, with tokens", r.value().tokensSpread, "≫ 0");
            fig("diagonal_spread", "max spread without tokens", r.value().relativeSpread, "≈ 0");
            s.holds = r.value().tokensSpread > 1e-2 && r.value().relativeSpread < 1e-9;
            s.conclusion = "The cross terms x·PE(q) and PE(p)·y depend on absolute positions.";
            break;
        }
        case DemoId::RopeShiftInvariance: {
            auto r = demoRope(ropeIn);
            if (!r) return r.error();
            fig("shift_error", "max |S(positions) − S(positions + " + formatInt(ropeIn.shift) + ")|", r.value().shiftError, "≈ 0: heatmap unchanged");
            fig("shift_error_float32", "the same with float32 tables", r.value().shiftErrorFloat32, "rounding only");
            s.holds = r.value().shiftError < 1e-9;
            s.conclusion = "⟨R_m q, R_n k⟩ = ⟨q, R_{n−m} k⟩: only m − n enters the score.";
            break;
        }
        case DemoId::RopeNorm: {
            auto r = demoRope(ropeIn);
            if (!r) return r.error();
            const auto& v = r.value();
            fig("norm_error", "max | |R_m x| − |x| | / |x|, " + formatInt(ropeIn.tokens) + " random vectors", v.normError, "≈ 0");
            std::vector<double> at(v.normPositions.begin(), v.normPositions.end());
            figList("position", "position m", at);
            figList("norm_before", "|x| (one random x)", v.normBefore);
            figList("norm_after", "|R_m x|: the same x rotated to position m", v.normAfter);
            double spread = 0;
            for (std::size_t i = 0; i < v.normAfter.size(); ++i) spread = std::max(spread, std::abs(v.normAfter[i] - v.normBefore[i]) / v.normBefore[i]);
            s.holds = v.normError < 1e-12 && spread < 1e-12;
            s.conclusion = "Rotations change direction, never length.";
            break;
        }
        case DemoId::RopeDecay: {
            RopeDecayInput in;
            in.head_dim = scene.dim;
            in.base = scene.rope.base;
            auto r = demoRopeDecay(in);
            if (!r) return r.error();
            const auto& v = r.value();
            std::vector<double> dist(v.distance.begin(), v.distance.end());
            for (std::size_t i = 0; i < v.distance.size(); ++i)
                if (v.distance[i] == 0 || v.distance[i] == v.distance.back())
                    fig("score_at_" + formatInt(v.distance[i]), "equal content: score at distance " + formatInt(v.distance[i]), v.value[i],
                        i < v.scoreBound.size() ? "RoFormer's bound on |score|: " + num(v.scoreBound[i]) : "");
            figList("distance", "distance m − n", dist);
            figList("score", "equal content (ones): score", v.value);
            figList("bound", "RoFormer's bound on |score| (same units)", v.scoreBound);
            figList("relative_bound", "RoFormer's relative bound (1/(d/2))·Σ|S_j| (their Figure 2)", v.bound);
            figList("random_mean_abs", "random q, k: mean |score| over " + formatInt(v.draws) + " draws", v.randomMeanAbs);
            const double nearRandom = v.randomMeanAbs.empty() ? 0 : v.randomMeanAbs.front();
            const double farRandom = v.randomMeanAbs.empty() ? 0 : v.randomMeanAbs.back();
            fig("random_far_over_near", "random q, k: mean |score| far / near", nearRandom > 0 ? farRandom / nearRandom : 0,
                "≈ 1: no decay without equal content");
            bool bounded = v.scoreBound.size() == v.value.size();
            for (std::size_t i = 0; bounded && i < v.value.size(); ++i) bounded = std::abs(v.value[i]) <= v.scoreBound[i] * (1 + 1e-12);
            s.holds = bounded && !v.scoreBound.empty() && v.scoreBound.back() < v.scoreBound.front() &&
                      std::abs(v.value.back()) < std::abs(v.value.front()) && nearRandom > 0 && farRandom > 0.5 * nearRandom;
            s.conclusion = "Equal content: far tokens get smaller scores (the high-frequency pairs average out). Random content: no decay — "
                           "the decay is a property of aligned q and k, not of RoPE alone.";
            break;
        }
        case DemoId::RopeComplexIdentity: {
            auto r = demoRope(ropeIn);
            if (!r) return r.error();
            const auto& v = r.value();
            fig("inner", "⟨R_" + formatInt(ropeIn.m) + " q, R_" + formatInt(ropeIn.n) + " k⟩", v.inner);
            fig("complex_form", "Re[Σ q̃ k̃* e^{i(m−n)θ}]", v.complexFull, "error " + num(v.identityError));
            fig("cos_only_form", "cos-only form Σ Re(q̃ k̃*) cos((m−n)θ)", v.cosOnly, "error " + num(v.cosOnlyError));
            fig("sine_term", "the sine term", v.sineTerm, "what the cos-only form misses");
            fig("identity_error", "|inner − complex form|", v.identityError);
            s.holds = v.identityError < 1e-9 && v.cosOnlyError > 1e-3;
            s.conclusion = "The identity is exact with its sine term; the cos-only form is wrong.";
            break;
        }
        case DemoId::KvCache: {
            KvCacheInput in;
            in.head_dim = scene.dim;
            auto r = demoKvCache(in);
            if (!r) return r.error();
            const auto& v = r.value();
            std::vector<double> every;
            std::string order;
            // The positional work of every method over the steps (the slide's chart draws three).
            for (const auto& m : v.methods) {
                every.push_back(double(m.total));
                order += (order.empty() ? "" : ", ") + std::string(methodTitle(m.method));
            }
            figList("operations", "positional operations over " + formatInt(std::int64_t(v.steps.size())) + " steps: " + order, every);
            fig("rope_cache_error", "RoPE: scores from cached keys vs full recomputation, max |diff|", v.ropeCacheError, "≈ 0: rotate once, cache");
            fig("alibi_stale_logit", "ALiBi before softmax: cached m·j differs from −m(i − j) by", v.alibiStaleLogit,
                "m·i: the same for every key of the row");
            fig("alibi_stale_error", "ALiBi after softmax: attention weights with m·j cached, max |diff|", v.alibiStaleError,
                "≈ 0: softmax ignores a row constant, so cached m·j is exact");
            fig("t5_stale_error", "T5 after softmax: weights with buckets cached one step ago, max |diff|", v.t5StaleError, "≠ 0: must be recomputed");
            fig("shaw_stale_error", "Shaw after softmax: the same with clipped indices cached", v.shawStaleError, "≠ 0: must be recomputed");
            s.holds = v.ropeCacheError < 1e-12 && v.alibiStaleError < 1e-12 && v.t5StaleError > 1e-6 && v.shawStaleError > 1e-6;
            s.conclusion = "RoPE and ALiBi do constant positional work per step; T5 and Shaw recompute a term for every cached key.";
            break;
        }
        case DemoId::Extrapolation: {
            ExtrapolationInput in;
            in.head_dim = scene.dim;
            in.base = scene.rope.base;
            auto r = demoExtrapolation(in);
            if (!r) return r.error();
            const auto& v = r.value();
            for (const auto& row : v.rows) {
                std::string key = row.method;
                for (char& c : key)
                    if (c == '-') c = '_';
                // The learned row's note is the demonstration's own sentence, never the core's validation message.
                if (row.method == "learned")
                    fig("learned_defined", "learned: a row for position " + formatInt(in.target_length - 1), row.defined ? 1 : 0,
                        row.defined ? "defined" : "no row " + formatInt(in.target_length - 1) + " in a table of " + formatInt(in.train_length));
                else if (row.method.rfind("rope", 0) == 0)
                    fig(key + "_unseen_pairs", row.method + ": pairs past their trained angles", row.unseenPairs,
                        "of " + formatInt(row.pairs) + (row.attentionFactor != 1 ? "; attention factor " + num(row.attentionFactor) : ""));
                else if (row.method == "alibi")
                    fig("alibi_bias_at_target", "alibi: bias at distance " + formatInt(in.target_length - 1) + " (flattest head)", row.value);
            }
            const auto* lr = v.find("learned");
            const auto* rope = v.find("rope");
            const auto* yarn = v.find("rope-yarn");
            s.holds = lr && !lr->defined && rope && rope->unseenPairs > 0 && yarn && yarn->unseenPairs == 0;
            s.conclusion = "Training length " + formatInt(in.train_length) + ", asked for " + formatInt(in.target_length) + ".";
            break;
        }
        case DemoId::HalfVsInterleaved: {
            LayoutDemoInput in;
            in.head_dim = scene.dim;
            in.base = scene.rope.base;
            auto r = demoLayouts(in);
            if (!r) return r.error();
            const auto& v = r.value();
            fig("permutation_error", "max |half(πx) − π·interleaved(x)|", v.permutationError, "≈ 0: same rotation up to π");
            fig("seed_difference", "seed example: |half − interleaved|", v.seedDifference, list(v.seedHalf) + " vs " + list(v.seedInterleaved));
            fig("wrong_layout_error", "scores with the wrong layout, max |diff|", v.wrongLayoutScoreError);
            fig("mixed_shift_error", "q half, k interleaved: shift changes scores by", v.mixedShiftError, "relativity lost");
            s.holds = v.permutationError < 1e-12 && v.seedDifference > 0.1 && v.mixedShiftError > 1e-3;
            s.conclusion = "Convert checkpoints by permuting channels; never mix the layouts.";
            break;
        }
        case DemoId::ComparisonTable: {
            const auto t = comparisonTable();
            for (const auto& row : t.rows) {
                std::string key(methodKey(row.method));
                for (char& c : key)
                    if (c == '-') c = '_';
                fig(key + "_parameters", std::string(methodKey(row.method)) + ": positional parameters", row.cells[int(TableColumn::Memory)].number);
            }
            // Every cell names a demonstration of the catalogue (the default deck) about its method.
            s.holds = true;
            for (const auto& row : t.rows)
                for (const auto& c : row.cells) {
                    if (!c.demo || !demoFromKey(demoInfo(*c.demo).key)) {
                        s.holds = false;
                        continue;
                    }
                    const auto& ms = demoInfo(*c.demo).methods;
                    if (std::find(ms.begin(), ms.end(), std::string(methodKey(row.method))) == ms.end()) s.holds = false;
                }
            s.conclusion = s.holds ? "Every cell is backed by a demonstration of its own method in this deck."
                                   : "Some cells are not backed by a demonstration of their method.";
            break;
        }
        case DemoId::LearnedTable: {
            const LearnedParams lp = scene.learnedParams();
            if (auto e = lp.validate()) return *e;
            const std::int64_t L = lp.table_size, last = L - 1, asked = kLearnedAsked;
            const auto lastRow = learnedEncoding(lp, Positions{last});
            const auto askedRow = learnedEncoding(lp, Positions{asked});
            fig("table_rows", "rows in the table (one per trained position)", double(L));
            fig("last_row_defined", "a row for position " + formatInt(last) + " (the last one)", lastRow.ok() ? 1 : 0, lastRow.ok() ? "defined" : "");
            fig("asked_position", "position asked for", double(asked));
            fig("asked_row_defined", "a row for position " + formatInt(asked), askedRow.ok() ? 1 : 0,
                askedRow.ok() ? "defined: the table is long enough" : "no row " + formatInt(asked) + " in a table of " + formatInt(L));
            if (lastRow.ok()) fig("last_row_norm", "|row " + formatInt(last) + "|", lastRow.value().norm(), "a trained vector");
            s.holds = lastRow.ok() && !askedRow.ok();
            s.conclusion = askedRow.ok() ? "This table reaches position " + formatInt(asked) + "; a longer request would fail the same way."
                                         : "No row " + formatInt(asked) + " in a table of " + formatInt(L) + ": a learned table cannot go past its end.";
            break;
        }
        case DemoId::ShawClipping: {
            const ShawParams sp = scene.shawParams();
            if (auto e = sp.validate()) return *e;
            const std::int64_t k = sp.max_relative_position;
            // Distances 0 .. 3k (key after query): index of each, and the key embedding row it selects.
            std::vector<double> dist, index;
            std::vector<std::int64_t> rows;
            for (std::int64_t d = 0; d <= 3 * k && d <= 4096; ++d) {
                const IntMatrix ix = shawIndexAt(Positions{0}, Positions{d}, k);
                dist.push_back(double(d));
                index.push_back(double(ix(0, 0)));
                rows.push_back(ix(0, 0));
            }
            const Matrix emb = shawKeyRows(sp, rows);
            double beyond = 0, within = INFINITY;
            for (std::size_t d = 0; d < rows.size(); ++d) {
                if (std::int64_t(d) > k) beyond = std::max(beyond, (emb.row(Eigen::Index(d)) - emb.row(Eigen::Index(k))).cwiseAbs().maxCoeff());
                if (std::int64_t(d) < k)
                    within = std::min(within, (emb.row(Eigen::Index(d)) - emb.row(Eigen::Index(d + 1))).cwiseAbs().maxCoeff());
            }
            if (!std::isfinite(within)) within = 0;
            const Positions p0 = arangePositions(0, kShawTokens), p1 = arangePositions(kShawShift, kShawShift + kShawTokens);
            const IntMatrix a = shawIndexAt(p0, p0, k), b = shawIndexAt(p1, p1, k);
            std::int64_t changed = 0;
            for (Eigen::Index i = 0; i < a.rows(); ++i)
                for (Eigen::Index j = 0; j < a.cols(); ++j) changed += a(i, j) != b(i, j);
            figList("distance", "distance j − i", dist);
            figList("index", "embedding index used (clip(j − i, −k, k) + k)", index, "k = " + formatInt(k));
            fig("beyond_k_difference", "max |a(d) − a(k)| for every d > k", beyond, "0: beyond k every distance looks the same");
            fig("within_k_difference", "min |a(d) − a(d+1)| for d < k", within, "> 0: inside ±k each distance has its own vector");
            fig("shift_indices_changed", "indices changed by shifting " + formatInt(kShawTokens) + " positions by " + formatInt(kShawShift),
                double(changed), "0: only j − i matters");
            s.holds = beyond == 0 && within > 0 && changed == 0;
            s.conclusion = "Shaw sees distances up to k = " + formatInt(k) + " exactly and nothing beyond; a shift changes nothing.";
            break;
        }
        case DemoId::T5Buckets: {
            const T5Params tp = scene.t5Params();
            if (auto e = tp.validate()) return *e;
            const std::int64_t nb = tp.bidirectional ? tp.num_buckets / 2 : tp.num_buckets;
            const std::int64_t maxExact = nb / 2;
            // Keys before the query (relative = −d): buckets 0 .. nb − 1 in both directions' rule.
            auto bucket = [&](std::int64_t d) { return t5Bucket(-d, tp); };
            std::int64_t exactUpTo = -1;
            for (std::int64_t d = 0; d <= tp.max_distance; ++d) {
                if (bucket(d) != d) break;
                exactUpTo = d;
            }
            bool monotone = true;
            std::int64_t prev = -1, distinctFar = 0;
            for (std::int64_t d = 0; d <= 2 * tp.max_distance; ++d) {
                const std::int64_t b = bucket(d);
                if (b < prev) monotone = false;
                if (d > maxExact && d < tp.max_distance && b != prev) ++distinctFar;
                prev = b;
            }
            const std::int64_t lastBucket = bucket(tp.max_distance);
            const bool saturated = lastBucket == nb - 1 && bucket(10 * tp.max_distance) == nb - 1 && bucket(tp.max_distance - 1) <= nb - 1;
            std::vector<double> dist, buckets;
            for (std::int64_t d : {0LL, 1LL, 2LL, 4LL, 7LL, 8LL, 9LL, 12LL, 16LL, 24LL, 32LL, 48LL, 64LL, 96LL, 127LL, 128LL, 256LL, 1000LL, 100000LL}) {
                dist.push_back(double(d));
                buckets.push_back(double(bucket(d)));
            }
            figList("distance", "distance i − j", dist);
            figList("bucket", "bucket", buckets);
            fig("max_exact", "exact buckets up to (the rule's exact range)", double(maxExact), "buckets ÷ " + std::string(tp.bidirectional ? "4" : "2"));
            fig("exact_up_to", "largest d with bucket(d) = d, checked against the rule", double(exactUpTo),
                "exact for |k| ≤ " + formatInt(exactUpTo));
            fig("log_buckets", "log buckets up to the maximum distance", double(distinctFar), "logarithmically spaced");
            fig("last_bucket", "bucket at the maximum distance " + formatInt(tp.max_distance) + " and beyond", double(lastBucket), "saturated");
            s.holds = exactUpTo >= maxExact && monotone && saturated;
            s.conclusion = "Exact for |k| ≤ " + formatInt(exactUpTo) + ", logarithmic up to " + formatInt(tp.max_distance) +
                           ", then one bucket for every farther distance.";
            break;
        }
        case DemoId::TransformerXLTerms: {
            const TransformerXLParams xp = scene.transformerXLParams();
            if (auto e = xp.validate()) return *e;
            const Positions pos = arangePositions(0, kTxlTokens);
            const Matrix q = contentRows(Content::Random, false, pos, xp.dim, xp.seed);
            const Matrix k = contentRows(Content::Random, true, pos, xp.dim, xp.seed);
            const TransformerXLTerms t = transformerXLTerms(xp, pos, pos, q, k);
            if (t.a.size() == 0) return ParamError{"dim", "an even integer from 2 to 4096", formatInt(xp.dim)};
            // (c) = u·k_j depends on the key only: spread down each column; (d) on i − j only: along diagonals.
            double colSpread = 0;
            for (Eigen::Index j = 0; j < t.c.cols(); ++j) colSpread = std::max(colSpread, t.c.col(j).maxCoeff() - t.c.col(j).minCoeff());
            const double dSpread = diagonalSpread(t.d);
            const double bSpread = diagonalSpread(t.b);
            fig("term_a", "(a) q_i·k_j, content with content: max |·|", maxAbs(t.a));
            fig("term_b", "(b) q_i·W R_{i−j}, content with distance: max |·|", maxAbs(t.b), "varies along a diagonal: " + num(bSpread));
            fig("term_c", "(c) u·k_j, a global content bias: max |·|", maxAbs(t.c), "the same for every query: spread " + num(colSpread));
            fig("term_d", "(d) v·W R_{i−j}, a global distance bias: max |·|", maxAbs(t.d), "constant along diagonals: spread " + num(dSpread));
            fig("c_column_spread", "(c): spread down a column", colSpread);
            fig("d_diagonal_spread", "(d): spread along a diagonal", dSpread);
            s.holds = maxAbs(t.a) > 0 && maxAbs(t.b) > 0 && maxAbs(t.c) > 0 && maxAbs(t.d) > 0 && colSpread < 1e-9 && dSpread < 1e-9;
            s.conclusion = "Four terms, each measured: only (a) and (b) look at the query's content; (d) is a pure function of i − j.";
            break;
        }
        case DemoId::AlibiSlopes: {
            AlibiParams ap = scene.alibiParams();
            ap.symmetric = false;
            if (auto e = ap.validate()) return *e;
            const Vector m = alibiSlopes(ap);
            const int H = int(m.size());
            double formulaError = 0;
            std::vector<double> slopes, formula;
            for (int h = 1; h <= H; ++h) {
                const double f = std::pow(2.0, -8.0 * h / H);
                slopes.push_back(m[h - 1]);
                formula.push_back(f);
                formulaError = std::max(formulaError, std::abs(m[h - 1] - f) / f);
            }
            // The penalty along one row: −m·d for d = 0 .. T − 1 (a straight line, past the training length too).
            const Positions query{kAlibiAsked};
            Positions keys;
            for (std::int64_t d = 0; d <= kAlibiAsked; d += 1) keys.push_back(kAlibiAsked - d);
            const Matrix b = alibiBias(ap, H - 1, query, keys);
            double linearity = 0;
            for (Eigen::Index d = 1; d < b.cols(); ++d) linearity = std::max(linearity, std::abs((b(0, d) - b(0, d - 1)) + m[H - 1]));
            figList("slopes", "slopes m_h, h = 1 … " + formatInt(H), slopes);
            figList("formula", "2^(−8h/H)", formula);
            fig("slope_formula_error", "max relative |m_h − 2^(−8h/H)|", formulaError, "≈ 0");
            fig("linearity_error", "max |b(d+1) − b(d) + slope of head H|, d = 0 … " + formatInt(kAlibiAsked), linearity, "≈ 0: a straight line");
            fig("bias_at_train_end", "flattest head at distance " + formatInt(kAlibiTrain - 1), b(0, kAlibiTrain - 1));
            fig("bias_at_asked", "flattest head at distance " + formatInt(kAlibiAsked), b(0, kAlibiAsked), "the same line, further down");
            s.holds = formulaError < 1e-6 && linearity < 1e-6 * std::max(1.0, std::abs(b(0, kAlibiAsked)));
            s.conclusion = "A fixed line per head: nothing was learned per position, so nothing runs out past the training length.";
            break;
        }
        case DemoId::Llama3Bands: {
            RopeParams rp = scene.ropeParams();
            if (rp.scaling != RopeScaling::Llama3)
                return ParamError{"scaling", "llama3 (this demonstration is about Llama 3.1's scaling)", std::string(enumKey(rp.scaling))};
            if (auto e = rp.validate()) return *e;
            const RopeLlama3Detail d = ropeLlama3Detail(rp);
            const RopeFrequencies before = ropeDefaultFrequencies(rp), after = ropeFrequencies(rp);
            const double factor = rp.resolvedFactor();
            std::int64_t kept = 0, divided = 0, smoothed = 0;
            double keptError = 0, dividedError = 0;
            bool between = true;
            for (std::size_t i = 0; i < d.band.size(); ++i) {
                const double ratio = after.inv_freq[Eigen::Index(i)] / before.inv_freq[Eigen::Index(i)];
                switch (d.band[i]) {
                    case RopeLlama3Band::Unchanged: ++kept; keptError = std::max(keptError, std::abs(ratio - 1)); break;
                    case RopeLlama3Band::Divided: ++divided; dividedError = std::max(dividedError, std::abs(ratio * factor - 1)); break;
                    case RopeLlama3Band::Smoothed:
                        ++smoothed;
                        if (ratio < 1 / factor * (1 - 1e-6) || ratio > 1 + 1e-6) between = false;
                        break;
                }
            }
            fig("original_context", "original context", double(rp.originalMaxPositions()));
            fig("context", "context after scaling", double(rp.max_positions));
            fig("factor", "factor", factor);
            fig("high_freq_wavelength", "wavelengths below " + num(d.highFreqWavelength) + " tokens: kept", d.highFreqWavelength);
            fig("low_freq_wavelength", "wavelengths above " + num(d.lowFreqWavelength) + " tokens: divided by " + num(factor), d.lowFreqWavelength);
            fig("pairs_kept", "pairs kept", double(kept));
            fig("pairs_smoothed", "pairs blended between the bounds", double(smoothed));
            fig("pairs_divided", "pairs divided by the factor", double(divided));
            fig("kept_ratio_error", "kept: max |θ'/θ − 1|", keptError);
            fig("divided_ratio_error", "divided: max |s·θ'/θ − 1|", dividedError);
            const double tol = rp.precision == Precision::Float32 ? 1e-6 : 1e-12;
            s.holds = kept + smoothed + divided == std::int64_t(d.band.size()) && kept > 0 && divided > 0 && keptError <= tol && dividedError <= tol && between;
            s.conclusion = formatInt(kept) + " fast pairs untouched, " + formatInt(smoothed) + " blended, " + formatInt(divided) +
                           " slow pairs stretched ×" + num(factor) + ": local detail kept, long range reached.";
            break;
        }
        case DemoId::YarnRamp: {
            RopeParams rp = scene.ropeParams();
            if (rp.scaling != RopeScaling::Yarn)
                return ParamError{"scaling", "yarn (this demonstration is about YaRN)", std::string(enumKey(rp.scaling))};
            if (auto e = rp.validate()) return *e;
            const RopeYarnRange range = ropeYarnCorrectionRange(rp);
            const RopeFrequencies before = ropeDefaultFrequencies(rp), after = ropeFrequencies(rp);
            const double factor = rp.resolvedFactor();
            std::int64_t kept = 0, ramp = 0, divided = 0;
            double keptError = 0, dividedError = 0;
            std::vector<double> ratio;
            for (Eigen::Index i = 0; i < after.inv_freq.size(); ++i) {
                const double r = after.inv_freq[i] / before.inv_freq[i];
                ratio.push_back(r);
                if (double(i) <= range.low) {
                    ++kept;
                    keptError = std::max(keptError, std::abs(r - 1));
                } else if (double(i) >= range.high) {
                    ++divided;
                    dividedError = std::max(dividedError, std::abs(r * factor - 1));
                } else {
                    ++ramp;
                }
            }
            const double expected = 0.1 * std::log(factor) + 1.0;
            const double temperatureError = std::abs(after.attention_factor - expected);
            fig("beta_fast", "β fast (rotations in the original context)", range.fastRotations);
            fig("beta_slow", "β slow", range.slowRotations);
            fig("ramp_low", "ramp starts after pair", range.low);
            fig("ramp_high", "ramp ends at pair", range.high);
            fig("pairs_kept", "pairs kept (turn more than β fast times)", double(kept));
            fig("pairs_ramp", "pairs on the ramp", double(ramp));
            fig("pairs_divided", "pairs interpolated ×1/" + num(factor), double(divided));
            fig("attention_factor", "attention factor (cos and sin multiplied by)", after.attention_factor, "0.1·ln " + num(factor) + " + 1 = " + num(expected));
            fig("temperature_error", "|attention factor − (0.1·ln s + 1)|", temperatureError);
            figList("frequency_ratio", "θ'_i/θ_i per pair", ratio);
            const double tol = rp.precision == Precision::Float32 ? 1e-6 : 1e-12;
            s.holds = keptError <= tol && dividedError <= tol && kept + ramp + divided == std::int64_t(ratio.size()) && temperatureError < 1e-6;
            s.conclusion = "Fast pairs untouched, slow pairs interpolated, a ramp of " + formatInt(ramp) + " pairs between; logits sharpened by " +
                           num(after.attention_factor) + "² = " + num(after.attention_factor * after.attention_factor) + ".";
            break;
        }
        case DemoId::RopeBf16: {
            RopeBf16Input in;
            in.rope = scene.ropeParams();
            auto r = demoRopeBf16(in);
            if (!r) return r.error();
            const RopePathErrors& legacy = r.value().legacy;
            const RopePathErrors& main = r.value().main;
            const std::string dtype(enumKey(in.rope.precision)), legacyDtype(enumKey(legacy.anglePrecision));
            const std::int64_t last = in.positions.back();
            const std::string range = "0 … " + formatInt(last);
            std::vector<double> positions;
            for (auto p : in.positions) positions.push_back(double(p));
            for (std::size_t k = 0; k < in.positions.size(); ++k) {
                const std::int64_t p = in.positions[k];
                if (p == 512 || p == 2048 || p == last)
                    fig("legacy_phase_error_" + formatInt(p), "phase error at " + formatInt(p) + ", angles in " + legacyDtype, legacy.phaseError[k],
                        p == last ? "radians: max over the pairs of |angle − p·θ_i|" : "");
            }
            fig("legacy_max_phase_error", "largest over " + range + ", angles in " + legacyDtype, legacy.maxPhaseError,
                "at position " + formatInt(legacy.maxPhaseAt) + " (π: the phase is as wrong as it can be)");
            if (legacy.firstCollision)
                fig("legacy_first_collision", "first position " + legacyDtype + " holds as its neighbour", double(*legacy.firstCollision),
                    formatInt(*legacy.firstCollision) + " and " + formatInt(*legacy.firstCollision + 1) + " get the same angles");
            fig("legacy_colliding_positions", "positions of " + range + " sharing their angle with another", double(legacy.collidingPositions),
                "angles in " + legacyDtype);
            fig("main_phase_error_" + formatInt(last), "phase error at " + formatInt(last) + ", angles in float32 (transformers main)", main.phaseError.back());
            fig("main_max_phase_error", "largest over " + range + ", angles in float32", main.maxPhaseError);
            fig("main_max_cos_sin_error", "largest |Δcos|, |Δsin| over " + range + ", angles in float32", main.maxCosSinError,
                "what remains: cos and sin rounded to " + dtype);
            fig("main_colliding_positions", "positions sharing their angle, angles in float32", double(main.collidingPositions));
            figList("position", "position p", positions);
            figList("legacy_phase_error", "angles in " + legacyDtype + " (legacy)", legacy.phaseError);
            figList("main_phase_error", "angles in float32 (transformers main)", main.phaseError);
            s.holds = legacy.maxPhaseError > 1.0 && legacy.firstCollision.has_value() && main.maxPhaseError < 1e-2 && main.collidingPositions == 0;
            s.conclusion = s.holds ? "Angles in " + legacyDtype + ": off by up to " + num(legacy.maxPhaseError) + " rad, " +
                                         formatInt(legacy.collidingPositions) + " positions collide; in float32: at most " + sci2(main.maxPhaseError) + " rad."
                                   : "In " + dtype + " the angles are as good in both paths (" + num(legacy.maxPhaseError) +
                                         " rad at most): the error needs a reduced dtype.";
            break;
        }
        case DemoId::XposDecay: {
            // xPos against RoPE (interleaved, base 10000: xPos's own θ) at the rope-decay slide's
            // distances, in double: equal content (ones), and random content (mean |score| over draws).
            XposParams xp = scene.xposParams();
            xp.head_dim = scene.dim;
            xp.precision = Precision::Double;
            if (auto e = xp.validate()) return *e;
            const std::vector<std::int64_t> dist = RopeDecayInput{}.distances;
            for (auto d : dist)
                if (double(d) / xp.scale_base * std::log(3.5) > kXposMaxLogScale)
                    return ParamError{"scale_base", "a scale base for which ζ^(d/scale_base) stays in range at distance " + formatInt(dist.back()),
                                      formatNumber(xp.scale_base)};
            auto curveOf = [&](Method m, Content c, std::uint64_t seed) -> Result<Vector> {
                ScoreParams p = sceneOf(m, xp.head_dim, Precision::Double);
                p.content = c;
                p.seed = seed;
                p.xpos = xp;
                p.rope.head_dim = xp.head_dim;
                p.rope.layout = RopeLayout::Interleaved;
                auto r = decayCurveAt(p, dist);
                if (!r) return r.error();
                return r.value().value;
            };
            auto xposOnes = curveOf(Method::Xpos, Content::Ones, 0);
            if (!xposOnes) return xposOnes.error();
            auto ropeOnes = curveOf(Method::Rope, Content::Ones, 0);
            if (!ropeOnes) return ropeOnes.error();
            const int draws = 64;
            Vector xposRandom = Vector::Zero(Eigen::Index(dist.size())), ropeRandom = xposRandom;
            for (int seed = 0; seed < draws; ++seed) {
                auto a = curveOf(Method::Xpos, Content::Random, std::uint64_t(seed));
                auto b = curveOf(Method::Rope, Content::Random, std::uint64_t(seed));
                if (!a) return a.error();
                if (!b) return b.error();
                xposRandom += a.value().cwiseAbs() / draws;
                ropeRandom += b.value().cwiseAbs() / draws;
            }
            // The formula, written out: s·Σ_i 2·ζ_i^(d/scale_base)·cos(d·θ_i), θ_i = 10000^(−i/(d/2)),
            // ζ_i = (2i + 0.4·dim)/(1.4·dim).
            const int half = xp.head_dim / 2;
            const double sc = 1.0 / std::sqrt(double(xp.head_dim));
            double identity = 0, scaleRef = 0;
            std::vector<double> envelope;
            for (std::size_t k = 0; k < dist.size(); ++k) {
                const double d = double(dist[k]);
                double sum = 0, slowest = 0;
                for (int i = 0; i < half; ++i) {
                    const double zeta = (2.0 * i + 0.4 * xp.head_dim) / (1.4 * xp.head_dim);
                    const double damp = std::pow(zeta, d / xp.scale_base);
                    sum += 2 * damp * std::cos(d * std::pow(10000.0, -double(i) / half));
                    slowest = std::max(slowest, damp);
                }
                envelope.push_back(slowest);
                identity = std::max(identity, std::abs(xposOnes.value()[Eigen::Index(k)] - sc * sum));
                scaleRef = std::max(scaleRef, std::abs(sc * sum));
            }
            // Shift invariance: scores of 8 random tokens at positions 0 … 7 and 100 … 107.
            const Matrix Q = seededNormal(8, xp.head_dim, 0, kStreamQ), K = seededNormal(8, xp.head_dim, 0, kStreamK);
            auto S = [&](std::int64_t offset) { return Matrix(xposApply(xp, Q, offset, false) * xposApply(xp, K, offset, true).transpose() * sc); };
            const double shift = maxAbs(S(0) - S(100));
            auto toList = [](const Vector& v) { return std::vector<double>(v.data(), v.data() + v.size()); };
            std::vector<double> dl(dist.begin(), dist.end());
            figList("distance", "distance m − n", dl);
            figList("xpos_score", "xPos, equal content: score", toList(xposOnes.value()));
            figList("rope_score", "RoPE, equal content: score", toList(ropeOnes.value()));
            figList("xpos_random_mean_abs", "xPos, random q, k: mean |score| over " + formatInt(draws) + " draws", toList(xposRandom));
            figList("rope_random_mean_abs", "RoPE, random q, k: mean |score| over " + formatInt(draws) + " draws", toList(ropeRandom));
            figList("xpos_envelope", "xPos: the slowest pair's factor ζ_max^(d/" + num(xp.scale_base) + ")", envelope);
            fig("identity_error", "xPos score against s·Σ 2ζᵢ^(d/" + num(xp.scale_base) + ")·cos(d·θᵢ): max |diff|", identity, "≈ 0: RoPE's terms, each damped");
            fig("shift_error", "max |S(0 … 7) − S(100 … 107)|, random tokens", shift, "≈ 0: depends only on m − n");
            const double xr = xposRandom[xposRandom.size() - 1] / xposRandom[0], rr = ropeRandom[ropeRandom.size() - 1] / ropeRandom[0];
            fig("xpos_random_far_over_near", "xPos, random q, k: mean |score| at " + formatInt(dist.back()) + " / at 0", xr, "< 1: decays for any content");
            fig("rope_random_far_over_near", "RoPE, random q, k: the same", rr, "≈ 1: no decay without equal content");
            s.holds = identity <= 1e-9 * std::max(1.0, scaleRef) && shift < 1e-9 && xr < 0.5 * rr;
            s.conclusion = s.holds ? "xPos keeps RoPE's relativity and makes the decay explicit: far scores fall whatever q and k are."
                                   : "With this scale base the explicit decay is too slow to show at these distances.";
            break;
        }
        case DemoId::LocalGlobalLayers: {
            const LayerPattern& first = scene.model;
            if (first.empty())
                return ParamError{"model", "a model whose layers differ (a layer pattern: --config)", "none"};
            if (auto e = first.validate()) return *e;
            const DemoLayerModel& second = demoLayerModels().at(1);
            // The farthest distance of a 128k context, and the last positions of 128k, 1M and 10M.
            const std::int64_t far = 131071;
            const std::vector<std::int64_t> at = {131071, 1048575, 10485759};
            const LayerSummary a = summariseLayers(first, far, at, Precision::Float32);
            const LayerSummary b = summariseLayers(second.params.model, far, at, Precision::Float32);
            auto reaches = [&](const LayerSummary& m) {
                const bool slowerGlobal = m.globalNope == m.global || m.globalBase * m.globalFactor > m.localBase * m.localFactor;
                return m.local > m.global && m.global > 0 && m.localReach && *m.localReach < far && m.seeingFar == m.global && slowerGlobal;
            };
            const std::string farText = "distance " + formatInt(far) + " (128k)";
            fig("gemma_layers", "Gemma 3: layers", double(a.layers));
            fig("gemma_local_layers", "Gemma 3: local layers", double(a.local));
            fig("gemma_global_layers", "Gemma 3: global layers", double(a.global));
            fig("gemma_local_reach", "Gemma 3: farthest distance a local layer sees", double(a.localReach.value_or(0)));
            fig("gemma_local_base", "Gemma 3: RoPE base of the local layers", a.localBase);
            fig("gemma_global_base", "Gemma 3: RoPE base of the global layers", a.globalBase);
            fig("gemma_global_factor", "Gemma 3: linear scaling factor of the global layers", a.globalFactor);
            fig("gemma_layers_seeing_128k", "Gemma 3: layers that see " + farText, double(a.seeingFar));
            fig("llama4_layers", "Llama 4: layers", double(b.layers));
            fig("llama4_local_layers", "Llama 4: chunked RoPE layers", double(b.local));
            fig("llama4_global_layers", "Llama 4: global layers", double(b.global));
            fig("llama4_nope_layers", "Llama 4: layers without RoPE", double(b.nope));
            fig("llama4_local_reach", "Llama 4: farthest distance a chunked layer sees", double(b.localReach.value_or(0)));
            fig("llama4_rope_base", "Llama 4: RoPE base", b.localBase);
            fig("llama4_rope_factor", "Llama 4: Llama 3 scaling factor", b.localFactor);
            fig("llama4_layers_seeing_128k", "Llama 4: layers that see " + farText, double(b.seeingFar));
            std::vector<double> atList;
            for (auto p : at) atList.push_back(double(p));
            figList("temperature_position", "query position", atList);
            figList("llama4_temperature", "Llama 4: query scale τ of the NoPE layers", b.temperature, "1 + 0.1·ln(1 + ⌊(p + 1)/8192⌋)");
            bool rising = b.temperature.size() == at.size() && b.temperature.front() > 1;
            for (std::size_t k = 1; k < b.temperature.size(); ++k) rising = rising && b.temperature[k] > b.temperature[k - 1];
            s.holds = reaches(a) && reaches(b) && b.globalNope == b.global && rising;
            s.conclusion = s.holds ? "At 128k only " + formatInt(a.seeingFar) + " of " + formatInt(a.layers) + " Gemma 3 layers and " +
                                         formatInt(b.seeingFar) + " of " + formatInt(b.layers) + " Llama 4 layers see the far tokens; the others look back at most " +
                                         formatInt(a.localReach.value_or(0)) + " and " + formatInt(b.localReach.value_or(0)) + " tokens."
                                   : "This pattern does not split into local layers and a few global ones that reach 128k.";
            break;
        }
    }
    return s;
}

}  // namespace poslab
