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

}  // namespace

// ============================================================================ catalogue
const std::vector<DemoInfo>& demonstrations() {
    // Lecture order: no positions, absolute (sinusoidal, learned), relative (Shaw, T5,
    // Transformer-XL), RoPE, ALiBi, inference, long context (scalings), multimodal, overview.
    static const std::vector<DemoInfo> list = {
        {DemoId::PermutationEquivariance, "permutation", "Attention", {"nope", "rope", "sinusoidal"}},
        {DemoId::SinusoidalShift, "sinusoidal-shift", "Sinusoidal", {"sinusoidal"}},
        {DemoId::SinusoidalRelative, "sinusoidal-relative", "Sinusoidal", {"sinusoidal"}},
        {DemoId::SinusoidalTokens, "sinusoidal-tokens", "Sinusoidal", {"sinusoidal"}},
        {DemoId::LearnedTable, "learned-table", "Learned", {"learned"}},
        {DemoId::ShawClipping, "shaw-clipping", "Relative", {"shaw"}},
        {DemoId::T5Buckets, "t5-buckets", "Relative", {"t5"}},
        {DemoId::TransformerXLTerms, "transformer-xl-terms", "Relative", {"transformer-xl"}},
        {DemoId::RopeShiftInvariance, "rope-shift", "RoPE", {"rope"}},
        {DemoId::RopeNorm, "rope-norm", "RoPE", {"rope"}},
        {DemoId::RopeDecay, "rope-decay", "RoPE", {"rope"}},
        {DemoId::XposDecay, "xpos-decay", "RoPE", {"xpos", "rope"}},
        {DemoId::RopeComplexIdentity, "rope-complex", "RoPE", {"rope"}},
        {DemoId::HalfVsInterleaved, "rope-layouts", "RoPE", {"rope"}},
        {DemoId::AlibiSlopes, "alibi-slopes", "ALiBi", {"alibi"}},
        {DemoId::KvCache, "kv-cache", "Inference", {"rope", "alibi", "t5", "shaw", "transformer-xl", "xpos", "sinusoidal", "learned", "nope"}},
        {DemoId::Extrapolation, "extrapolation", "Long context", {"rope", "learned", "sinusoidal", "alibi", "shaw", "t5", "transformer-xl", "nope", "linear", "dynamic", "yarn"}},
        {DemoId::Llama3Bands, "llama3-bands", "Long context", {"rope", "llama3"}},
        {DemoId::YarnRamp, "yarn-ramp", "Long context", {"rope", "yarn"}},
        {DemoId::RopeBf16, "rope-bf16", "Long context", {"rope"}},
        {DemoId::LocalGlobalLayers, "local-global-layers", "Long context", {"rope", "nope", "linear", "llama3"}},
        {DemoId::MropeImage, "mrope-image", "Multimodal", {"rope"}},
        {DemoId::MropeSections, "mrope-sections", "Multimodal", {"rope"}},
        {DemoId::ComparisonTable, "comparison", "Overview", {"nope", "sinusoidal", "learned", "shaw", "t5", "transformer-xl", "alibi", "rope", "xpos"}},
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

    // One x, the content the slide's dials draw (ones: query = key), rotated to each position:
    // its length before and after the rotation, and the largest relative change.
    const Matrix x = Matrix::Ones(1, in.head_dim);
    for (const Positions* pos : {&p0, &p1}) {
        const Matrix rx = ropeRotate(p, *pos, x.replicate(Eigen::Index(pos->size()), 1));
        for (Eigen::Index i = 0; i < rx.rows(); ++i) {
            r.normError = std::max(r.normError, std::abs(rx.row(i).norm() - x.norm()) / x.norm());
            r.normPositions.push_back((*pos)[std::size_t(i)]);
            r.normBefore.push_back(x.norm());
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
                case Method::Rope: n = s.ropeRotations; break;
                case Method::Xpos: n = s.relativeTerms + 1; break;   // torchscale: every key again, and the query
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
        // Transformer-XL: its positional terms b = q·W_R R_(i−j) and d = v·W_R R_(i−j) follow
        // i − j through a sinusoid; each old key's terms as they were one step earlier (query
        // position T−2, the current query's content), the new key's fresh.
        TransformerXLParams tx;
        tx.dim = in.head_dim;
        auto txlTerms = [&](const Positions& q, const Positions& k) {
            const auto terms = transformerXLTerms(tx, q, k, Q.row(T - 1), K.topRows(Eigen::Index(k.size())));
            return Matrix(sc * (terms.b + terms.d));
        };
        r.txlStaleError = staleError(txlTerms(lastQ, keys), txlTerms(prevQ, oldKeys));
        // xPos: its scale's exponent is centred on the sequence length, so a key rotated and
        // scaled when it arrived (a sequence of j + 1 tokens) is not the key of a sequence of T:
        // each cached key is off by its own factor, which softmax does not ignore. torchscale
        // keeps the keys unrotated and applies xPos to all of them at every step.
        XposParams xp;
        xp.head_dim = in.head_dim;
        xp.precision = Precision::Double;   // the centring's error alone, no rounding
        const Matrix qx = xposApplyAt(xp, Q.row(T - 1), lastQ, T, false);
        const Vector xFresh = sc * (xposApplyAt(xp, K.topRows(T), keys, T, true) * qx.transpose());
        Vector xCached = xFresh;
        for (int j = 0; j + 1 < T; ++j)
            xCached[j] = sc * (xposApplyAt(xp, K.row(j), Positions{j}, j + 1, true) * qx.transpose())(0, 0);
        r.xposStaleError = (weights(xFresh) - weights(xCached)).cwiseAbs().maxCoeff();
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
        res.rows.push_back(r);
    }
    {   // ALiBi: a linear continuation.
        AlibiParams ap;
        ap.heads = in.alibi_heads;
        const Matrix b = alibiBias(ap, in.alibi_heads - 1, Positions{last}, Positions{0});
        ExtrapolationRow r;
        r.method = "alibi";
        r.value = b(0, 0);
        res.rows.push_back(r);
    }
    {   // Shaw: clipped.
        ShawParams sh;
        const IntMatrix idx = shawIndexAt(Positions{last}, Positions{0}, sh.max_relative_position);
        ExtrapolationRow r;
        r.method = "shaw";
        r.value = double(idx(0, 0));
        r.limit = sh.max_relative_position;
        res.rows.push_back(r);
    }
    {   // T5: the last bucket.
        T5Params tp;
        ExtrapolationRow r;
        r.method = "t5";
        r.value = double(t5Bucket(-last, tp));
        r.limit = tp.max_distance;
        res.rows.push_back(r);
    }
    {   // Transformer-XL: relative sinusoid, defined.
        ExtrapolationRow r;
        r.method = "transformer-xl";
        const Matrix e = transformerXLPosEmb(in.head_dim, {last});
        r.defined = e.allFinite();
        r.value = e.norm();
        res.rows.push_back(r);
    }
    // RoPE variants.
    RopeParams base;
    base.head_dim = in.head_dim;
    base.base = in.base;
    base.precision = Precision::Double;
    base.max_positions = L;
    const Vector trained = ropeFrequencies(base).inv_freq;
    auto ropeRow = [&](const std::string& name, const RopeParams& p, std::optional<std::int64_t> seqLen) {
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
        res.rows.push_back(r);
    };
    ropeRow("rope", base, std::nullopt);
    RopeParams lin = base;
    lin.scaling = RopeScaling::Linear;
    lin.factor = in.factor();
    ropeRow("rope-linear", lin, std::nullopt);
    RopeParams ntk = base;
    ntk.scaling = RopeScaling::Dynamic;
    ntk.factor = in.factor();
    ntk.seq_len = T;
    ropeRow("rope-ntk", ntk, T);
    RopeParams yarn = base;
    yarn.scaling = RopeScaling::Yarn;
    yarn.factor = in.factor();
    yarn.original_max_positions = L;
    yarn.max_positions = T;
    ropeRow("rope-yarn", yarn, std::nullopt);
    return res;
}

// ============================================================================ layouts
Check LayoutDemoInput::validate() const {
    if (auto e = checkEven("head_dim", head_dim, 2, 1024)) return e;
    if (auto e = checkBase(base)) return e;
    if (auto e = checkInt("tokens", tokens, 2, 256)) return e;
    if (auto e = checkInt("shift", shift, 0, 1'000'000'000)) return e;
    if (auto e = checkInt("heatmap_tokens", heatmap_tokens, 2, 256)) return e;
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
    // Over the heatmaps' own content: the number beside them is the largest difference they draw.
    const Positions ph = shifted(0, in.heatmap_tokens);
    const Matrix Qh = contentRows(Content::Random, false, ph, d, in.seed), Kh = contentRows(Content::Random, true, ph, d, in.seed);
    r.wrongLayoutScoreError = maxAbs(S(half, half, Qh, Kh, ph) - S(inter, inter, Qh, Kh, ph));
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
    // A row: the demonstration behind each column's cell, the parameter count, and the numbers
    // the cells' words name (learned: rows × dim; Shaw: k, d; T5: buckets, heads; Transformer-XL:
    // d): the Learnable cell gives the factors of the Memory cell's count on the same slide.
    auto row = [&](Method m, D learnable, D extrapolation, D relative, double parameters, std::vector<double> args = {}) {
        TableRow r{m, {{learnable, 0, args}, {extrapolation, 0, {}}, {relative, 0, {}}, {D::KvCache, parameters, {}}}};
        t.rows.push_back(std::move(r));
    };
    for (Method m : kAllMethods) {
        switch (m) {
            case Method::NoPE: row(m, D::PermutationEquivariance, D::Extrapolation, D::PermutationEquivariance, 0); break;
            case Method::Sinusoidal: row(m, D::SinusoidalShift, D::Extrapolation, D::SinusoidalTokens, 0); break;
            case Method::Learned:
                row(m, D::LearnedTable, D::Extrapolation, D::LearnedTable, learnedParams, {double(lp.table_size), double(lp.dim)});
                break;
            case Method::Shaw:
                row(m, D::ShawClipping, D::Extrapolation, D::ShawClipping, shawParams, {double(sh.max_relative_position), double(sh.dim)});
                break;
            case Method::T5: row(m, D::T5Buckets, D::Extrapolation, D::T5Buckets, t5Params, {double(tp.num_buckets), double(tp.heads)}); break;
            case Method::TransformerXL:
                row(m, D::TransformerXLTerms, D::Extrapolation, D::TransformerXLTerms, txlParams, {double(xp.dim)});
                break;
            case Method::Alibi: row(m, D::AlibiSlopes, D::Extrapolation, D::AlibiSlopes, 0); break;
            case Method::Rope: row(m, D::RopeComplexIdentity, D::Extrapolation, D::RopeShiftInvariance, 0); break;
            case Method::Xpos: row(m, D::XposDecay, D::XposDecay, D::XposDecay, 0); break;
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
        case DemoId::MropeImage:
        case DemoId::MropeSections: {
            // Qwen2-VL-7B's text RoPE (head 128, rope_theta 10⁶); the sections demonstration puts
            // Qwen3-VL's interleaved split on the same RoPE, so only the assignment differs.
            const MropeSectionsInput in;
            ScoreParams p = sceneOf(Method::Rope, in.rope.head_dim, Precision::Double);
            p.rope.base = in.rope.base;
            p.rope.max_positions = 32768;   // Qwen2-VL-7B's max_position_embeddings
            return p;
        }
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
        {DemoId::MropeImage, {}},
        {DemoId::MropeSections, {"rope.base"}},
    };
    static const std::vector<std::string> none;
    auto it = m.find(id);
    return it == m.end() ? none : it->second;
}

// ============================================================================ summaries
// One function per demonstration (a table of id → function below): each measures on the scene
// and returns ids and numbers — the figures (named as `compute demo` prints them) and the facts
// its sentences need. The words are ui/teaching/demotext.cpp's.
const DemoFigure* DemoSummary::find(const std::string& name) const {
    for (const auto& f : figures)
        if (f.name == name) return &f;
    return nullptr;
}

double DemoSummary::fact(const std::string& name) const {
    auto it = facts.find(name);
    return it == facts.end() || it->second.empty() ? 0.0 : it->second.front();
}

const std::vector<double>& DemoSummary::factList(const std::string& name) const {
    static const std::vector<double> none;
    auto it = facts.find(name);
    return it == facts.end() ? none : it->second;
}

namespace {

// A summary being filled: figures in the order a slide shows them, facts for its sentences.
struct Summary {
    DemoSummary s;
    void fig(std::string name, double v) { s.figures.push_back({std::move(name), v, {}}); }
    void figList(std::string name, std::vector<double> v) {
        const double first = v.empty() ? 0.0 : v.front();
        s.figures.push_back({std::move(name), first, std::move(v)});
    }
    void fact(const std::string& name, double v) { s.facts[name] = {v}; }
    void factList(const std::string& name, std::vector<double> v) { s.facts[name] = std::move(v); }
};

using DemoRun = Result<DemoSummary> (*)(const ScoreParams& scene);

SinusoidalDemoInput sinusoidalInputOf(const ScoreParams& scene) {
    SinusoidalDemoInput in;
    in.dim = scene.dim;
    in.base = scene.sinusoidal.base;
    in.layout = scene.sinusoidal.layout == SinusoidalLayout::Interleaved ? 0 : 1;
    in.precision = scene.precision;
    return in;
}

RopeDemoInput ropeInputOf(const ScoreParams& scene) {
    RopeDemoInput in;
    in.head_dim = scene.dim;
    in.base = scene.rope.base;
    in.layout = scene.rope.layout == RopeLayout::Half ? 0 : 1;
    in.precision = scene.precision;
    return in;
}

// The sinusoidal example pairs' positions: facts p0, q0 (first pair) and p1, q1 (second).
void pairFacts(Summary& o, const SinusoidalDemoResult& v) {
    o.fact("p0", double(v.dotAtPositions[0][0]));
    o.fact("q0", double(v.dotAtPositions[0][1]));
    o.fact("p1", double(v.dotAtPositions[1][0]));
    o.fact("q1", double(v.dotAtPositions[1][1]));
}

Result<DemoSummary> runPermutation(const ScoreParams& scene) {
    Summary o;
    PermutationInput in;
    in.dim = scene.dim;
    auto r = demoPermutation(in);
    if (!r) return r.error();
    const auto& v = r.value();
    o.fig("nope_error", v.nopeError);
    o.fig("rope_error", v.ropeError);
    o.fig("sinusoidal_error", v.sinusoidalError);
    o.s.holds = v.nopeError < 1e-12 && v.ropeError > 1e-3 && v.sinusoidalError > 1e-3;
    return o.s;
}

Result<DemoSummary> runSinusoidalShift(const ScoreParams& scene) {
    Summary o;
    const SinusoidalDemoInput in = sinusoidalInputOf(scene);
    auto r = demoSinusoidal(in);
    if (!r) return r.error();
    o.fact("delta", double(in.delta));
    o.fig("shift_error", r.value().shiftError);
    o.s.holds = r.value().shiftError < 1e-9;
    return o.s;
}

Result<DemoSummary> runSinusoidalRelative(const ScoreParams& scene) {
    Summary o;
    auto r = demoSinusoidal(sinusoidalInputOf(scene));
    if (!r) return r.error();
    pairFacts(o, r.value());
    o.fact("dim", double(scene.dim));   // the slide's decay plot shows PE·PE/√dim
    o.fig("dot_first", r.value().dotAt[0]);
    o.fig("dot_second", r.value().dotAt[1]);
    o.fig("diagonal_spread", r.value().relativeSpread);
    o.s.holds = r.value().relativeSpread < 1e-9;
    return o.s;
}

Result<DemoSummary> runSinusoidalTokens(const ScoreParams& scene) {
    Summary o;
    auto r = demoSinusoidal(sinusoidalInputOf(scene));
    if (!r) return r.error();
    pairFacts(o, r.value());
    o.fig("dot_first", r.value().dotWithTokensAt[0]);
    o.fig("dot_second", r.value().dotWithTokensAt[1]);
    o.fig("tokens_spread", r.value().tokensSpread);
    o.fig("diagonal_spread", r.value().relativeSpread);
    o.s.holds = r.value().tokensSpread > 1e-2 && r.value().relativeSpread < 1e-9;
    return o.s;
}

Result<DemoSummary> runRopeShift(const ScoreParams& scene) {
    Summary o;
    const RopeDemoInput in = ropeInputOf(scene);
    auto r = demoRope(in);
    if (!r) return r.error();
    o.fact("shift", double(in.shift));
    o.fig("shift_error", r.value().shiftError);
    o.fig("shift_error_float32", r.value().shiftErrorFloat32);
    o.s.holds = r.value().shiftError < 1e-9;
    return o.s;
}

Result<DemoSummary> runRopeNorm(const ScoreParams& scene) {
    Summary o;
    const RopeDemoInput in = ropeInputOf(scene);
    auto r = demoRope(in);
    if (!r) return r.error();
    const auto& v = r.value();
    o.fact("tokens", double(in.tokens));
    o.fig("norm_error", v.normError);
    std::vector<double> at(v.normPositions.begin(), v.normPositions.end());
    o.figList("position", at);
    o.figList("norm_before", v.normBefore);
    o.figList("norm_after", v.normAfter);
    double spread = 0;
    for (std::size_t i = 0; i < v.normAfter.size(); ++i) spread = std::max(spread, std::abs(v.normAfter[i] - v.normBefore[i]) / v.normBefore[i]);
    o.s.holds = v.normError < 1e-12 && spread < 1e-12;
    return o.s;
}

Result<DemoSummary> runRopeDecay(const ScoreParams& scene) {
    Summary o;
    RopeDecayInput in;
    in.head_dim = scene.dim;
    in.base = scene.rope.base;
    auto r = demoRopeDecay(in);
    if (!r) return r.error();
    const auto& v = r.value();
    std::vector<double> dist(v.distance.begin(), v.distance.end());
    for (std::size_t i = 0; i < v.distance.size(); ++i)
        if (v.distance[i] == 0 || v.distance[i] == v.distance.back()) {
            o.fig("score_at_" + formatInt(v.distance[i]), v.value[i]);
            if (i < v.scoreBound.size()) o.fact("score_bound_at_" + formatInt(v.distance[i]), v.scoreBound[i]);
        }
    o.figList("distance", dist);
    o.figList("score", v.value);
    o.figList("bound", v.scoreBound);
    o.figList("relative_bound", v.bound);
    o.figList("random_mean_abs", v.randomMeanAbs);
    o.fact("draws", double(v.draws));
    const double nearRandom = v.randomMeanAbs.empty() ? 0 : v.randomMeanAbs.front();
    const double farRandom = v.randomMeanAbs.empty() ? 0 : v.randomMeanAbs.back();
    o.fig("random_far_over_near", nearRandom > 0 ? farRandom / nearRandom : 0);
    bool bounded = v.scoreBound.size() == v.value.size();
    for (std::size_t i = 0; bounded && i < v.value.size(); ++i) bounded = std::abs(v.value[i]) <= v.scoreBound[i] * (1 + 1e-12);
    o.s.holds = bounded && !v.scoreBound.empty() && v.scoreBound.back() < v.scoreBound.front() &&
                std::abs(v.value.back()) < std::abs(v.value.front()) && nearRandom > 0 && farRandom > 0.5 * nearRandom;
    return o.s;
}

Result<DemoSummary> runRopeComplex(const ScoreParams& scene) {
    Summary o;
    const RopeDemoInput in = ropeInputOf(scene);
    auto r = demoRope(in);
    if (!r) return r.error();
    const auto& v = r.value();
    o.fact("m", double(in.m));
    o.fact("n", double(in.n));
    o.fact("cos_only_error", v.cosOnlyError);
    o.fig("inner", v.inner);
    o.fig("complex_form", v.complexFull);
    o.fig("cos_only_form", v.cosOnly);
    o.fig("sine_term", v.sineTerm);
    o.fig("identity_error", v.identityError);
    o.s.holds = v.identityError < 1e-9 && v.cosOnlyError > 1e-3;
    return o.s;
}

Result<DemoSummary> runKvCache(const ScoreParams& scene) {
    Summary o;
    KvCacheInput in;
    in.head_dim = scene.dim;
    auto r = demoKvCache(in);
    if (!r) return r.error();
    const auto& v = r.value();
    std::vector<double> every, order;
    // The positional work of every method over the steps (the slide's chart draws three).
    for (const auto& m : v.methods) {
        every.push_back(double(m.total));
        order.push_back(double(int(m.method)));
    }
    o.fact("steps", double(v.steps.size()));
    o.factList("methods", order);   // Method ids, in the order of "operations"
    o.figList("operations", every);
    // The four numbers the claim rests on first (a slide shows those: ui demoSlideFigures), one
    // per method it names; ALiBi's stale logit (before softmax) after them.
    o.fig("rope_cache_error", v.ropeCacheError);
    o.fig("alibi_stale_error", v.alibiStaleError);
    o.fig("t5_stale_error", v.t5StaleError);
    o.fig("shaw_stale_error", v.shawStaleError);
    o.fig("alibi_stale_logit", v.alibiStaleLogit);
    o.fig("xpos_stale_error", v.xposStaleError);
    o.fig("txl_stale_error", v.txlStaleError);
    o.s.holds = v.ropeCacheError < 1e-12 && v.alibiStaleError < 1e-12 && v.t5StaleError > 1e-6 && v.shawStaleError > 1e-6 &&
                v.xposStaleError > 1e-6 && v.txlStaleError > 1e-6;
    return o.s;
}

Result<DemoSummary> runExtrapolation(const ScoreParams& scene) {
    Summary o;
    ExtrapolationInput in;
    in.head_dim = scene.dim;
    in.base = scene.rope.base;
    auto r = demoExtrapolation(in);
    if (!r) return r.error();
    const auto& v = r.value();
    o.fact("train_length", double(in.train_length));
    o.fact("target_length", double(in.target_length));
    for (const auto& row : v.rows) {
        std::string key = row.method;
        for (char& c : key)
            if (c == '-') c = '_';
        if (row.method == "learned")
            o.fig("learned_defined", row.defined ? 1 : 0);
        else if (row.method.rfind("rope", 0) == 0) {
            o.fig(key + "_unseen_pairs", row.unseenPairs);
            o.fact(key + "_pairs", row.pairs);
            o.fact(key + "_attention_factor", row.attentionFactor);
        } else if (row.method == "alibi")
            o.fig("alibi_bias_at_target", row.value);
    }
    const auto* lr = v.find("learned");
    const auto* rope = v.find("rope");
    const auto* yarn = v.find("rope-yarn");
    o.s.holds = lr && !lr->defined && rope && rope->unseenPairs > 0 && yarn && yarn->unseenPairs == 0;
    return o.s;
}

Result<DemoSummary> runLayouts(const ScoreParams& scene) {
    Summary o;
    LayoutDemoInput in;
    in.head_dim = scene.dim;
    in.base = scene.rope.base;
    auto r = demoLayouts(in);
    if (!r) return r.error();
    const auto& v = r.value();
    o.factList("seed_half", v.seedHalf);
    o.factList("seed_interleaved", v.seedInterleaved);
    o.fig("permutation_error", v.permutationError);
    o.fig("seed_difference", v.seedDifference);
    o.fig("wrong_layout_error", v.wrongLayoutScoreError);
    o.fig("mixed_shift_error", v.mixedShiftError);
    o.s.holds = v.permutationError < 1e-12 && v.seedDifference > 0.1 && v.mixedShiftError > 1e-3;
    return o.s;
}

Result<DemoSummary> runComparison(const ScoreParams&) {
    Summary o;
    const auto t = comparisonTable();
    for (const auto& row : t.rows) {
        std::string key(methodKey(row.method));
        for (char& c : key)
            if (c == '-') c = '_';
        o.fig(key + "_parameters", row.cells[int(TableColumn::Memory)].number);
    }
    // Every cell names a demonstration of the catalogue (the default deck) about its method.
    o.s.holds = true;
    for (const auto& row : t.rows)
        for (const auto& c : row.cells) {
            if (!c.demo || !demoFromKey(demoInfo(*c.demo).key)) {
                o.s.holds = false;
                continue;
            }
            const auto& ms = demoInfo(*c.demo).methods;
            if (std::find(ms.begin(), ms.end(), std::string(methodKey(row.method))) == ms.end()) o.s.holds = false;
        }
    return o.s;
}

Result<DemoSummary> runLearnedTable(const ScoreParams& scene) {
    Summary o;
    const LearnedParams lp = scene.learnedParams();
    if (auto e = lp.validate()) return *e;
    const std::int64_t L = lp.table_size, last = L - 1, asked = kLearnedAsked;
    const auto lastRow = learnedEncoding(lp, Positions{last});
    const auto askedRow = learnedEncoding(lp, Positions{asked});
    o.fig("table_rows", double(L));
    o.fig("last_row_defined", lastRow.ok() ? 1 : 0);
    o.fig("asked_position", double(asked));
    o.fig("asked_row_defined", askedRow.ok() ? 1 : 0);
    if (lastRow.ok()) o.fig("last_row_norm", lastRow.value().norm());
    o.s.holds = lastRow.ok() && !askedRow.ok();
    return o.s;
}

Result<DemoSummary> runShawClipping(const ScoreParams& scene) {
    Summary o;
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
    o.fact("k", double(k));
    o.fact("tokens", double(kShawTokens));
    o.fact("shift", double(kShawShift));
    o.figList("distance", dist);
    o.figList("index", index);
    o.fig("beyond_k_difference", beyond);
    o.fig("within_k_difference", within);
    o.fig("shift_indices_changed", double(changed));
    o.s.holds = beyond == 0 && within > 0 && changed == 0;
    return o.s;
}

Result<DemoSummary> runT5Buckets(const ScoreParams& scene) {
    Summary o;
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
    // Where the last bucket begins: the log scale reaches it before the maximum distance (91 for
    // 16 buckets a direction and 128), and every farther distance shares it.
    std::int64_t lastFrom = tp.max_distance;
    while (lastFrom > 0 && bucket(lastFrom - 1) == lastBucket) --lastFrom;
    const bool saturated = lastBucket == nb - 1 && bucket(10 * tp.max_distance) == nb - 1 && bucket(tp.max_distance - 1) <= nb - 1;
    std::vector<double> dist, buckets;
    for (std::int64_t d : {0LL, 1LL, 2LL, 4LL, 7LL, 8LL, 9LL, 12LL, 16LL, 24LL, 32LL, 48LL, 64LL, 96LL, 127LL, 128LL, 256LL, 1000LL, 100000LL}) {
        dist.push_back(double(d));
        buckets.push_back(double(bucket(d)));
    }
    o.fact("bidirectional", tp.bidirectional ? 1 : 0);
    o.fact("max_distance", double(tp.max_distance));
    o.fact("last_bucket_from", double(lastFrom));
    o.figList("distance", dist);
    o.figList("bucket", buckets);
    o.fig("max_exact", double(maxExact));
    o.fig("exact_up_to", double(exactUpTo));
    o.fig("log_buckets", double(distinctFar));
    o.fig("last_bucket", double(lastBucket));
    o.s.holds = exactUpTo >= maxExact && monotone && saturated;
    return o.s;
}

Result<DemoSummary> runTransformerXL(const ScoreParams& scene) {
    Summary o;
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
    o.fact("b_diagonal_spread", bSpread);
    o.fig("term_a", maxAbs(t.a));
    o.fig("term_b", maxAbs(t.b));
    o.fig("term_c", maxAbs(t.c));
    o.fig("term_d", maxAbs(t.d));
    o.fig("c_column_spread", colSpread);
    o.fig("d_diagonal_spread", dSpread);
    o.s.holds = maxAbs(t.a) > 0 && maxAbs(t.b) > 0 && maxAbs(t.c) > 0 && maxAbs(t.d) > 0 && colSpread < 1e-9 && dSpread < 1e-9;
    return o.s;
}

Result<DemoSummary> runAlibiSlopes(const ScoreParams& scene) {
    Summary o;
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
    o.fact("heads", double(H));
    o.fact("train_end", double(kAlibiTrain - 1));
    o.fact("asked", double(kAlibiAsked));
    o.figList("slopes", slopes);
    o.figList("formula", formula);
    o.fig("slope_formula_error", formulaError);
    o.fig("linearity_error", linearity);
    o.fig("bias_at_train_end", b(0, kAlibiTrain - 1));
    o.fig("bias_at_asked", b(0, kAlibiAsked));
    o.s.holds = formulaError < 1e-6 && linearity < 1e-6 * std::max(1.0, std::abs(b(0, kAlibiAsked)));
    return o.s;
}

Result<DemoSummary> runLlama3Bands(const ScoreParams& scene) {
    Summary o;
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
    o.fig("original_context", double(rp.originalMaxPositions()));
    o.fig("context", double(rp.max_positions));
    o.fig("factor", factor);
    o.fig("high_freq_wavelength", d.highFreqWavelength);
    o.fig("low_freq_wavelength", d.lowFreqWavelength);
    o.fig("pairs_kept", double(kept));
    o.fig("pairs_smoothed", double(smoothed));
    o.fig("pairs_divided", double(divided));
    o.fig("kept_ratio_error", keptError);
    o.fig("divided_ratio_error", dividedError);
    const double tol = rp.precision == Precision::Float32 ? 1e-6 : 1e-12;
    o.s.holds = kept + smoothed + divided == std::int64_t(d.band.size()) && kept > 0 && divided > 0 && keptError <= tol && dividedError <= tol && between;
    return o.s;
}

Result<DemoSummary> runYarnRamp(const ScoreParams& scene) {
    Summary o;
    RopeParams rp = scene.ropeParams();
    if (rp.scaling != RopeScaling::Yarn) return ParamError{"scaling", "yarn (this demonstration is about YaRN)", std::string(enumKey(rp.scaling))};
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
    o.fact("factor", factor);
    o.fact("expected_attention_factor", expected);
    o.fig("beta_fast", range.fastRotations);
    o.fig("beta_slow", range.slowRotations);
    o.fig("ramp_low", range.low);
    o.fig("ramp_high", range.high);
    o.fig("pairs_kept", double(kept));
    o.fig("pairs_ramp", double(ramp));
    o.fig("pairs_divided", double(divided));
    o.fig("attention_factor", after.attention_factor);
    o.fig("temperature_error", temperatureError);
    o.figList("frequency_ratio", ratio);
    const double tol = rp.precision == Precision::Float32 ? 1e-6 : 1e-12;
    o.s.holds = keptError <= tol && dividedError <= tol && kept + ramp + divided == std::int64_t(ratio.size()) && temperatureError < 1e-6;
    return o.s;
}

Result<DemoSummary> runRopeBf16(const ScoreParams& scene) {
    Summary o;
    RopeBf16Input in;
    in.rope = scene.ropeParams();
    auto r = demoRopeBf16(in);
    if (!r) return r.error();
    const RopePathErrors& legacy = r.value().legacy;
    const RopePathErrors& main = r.value().main;
    const std::int64_t last = in.positions.back();
    std::vector<double> positions;
    for (auto p : in.positions) positions.push_back(double(p));
    o.fact("precision", double(int(in.rope.precision)));
    o.fact("legacy_precision", double(int(legacy.anglePrecision)));
    o.fact("last", double(last));
    o.fact("legacy_max_phase_at", double(legacy.maxPhaseAt));
    for (std::size_t k = 0; k < in.positions.size(); ++k) {
        const std::int64_t p = in.positions[k];
        if (p == 512 || p == 2048 || p == last) o.fig("legacy_phase_error_" + formatInt(p), legacy.phaseError[k]);
    }
    o.fig("legacy_max_phase_error", legacy.maxPhaseError);
    if (legacy.firstCollision) o.fig("legacy_first_collision", double(*legacy.firstCollision));
    o.fig("legacy_colliding_positions", double(legacy.collidingPositions));
    o.fig("main_phase_error_" + formatInt(last), main.phaseError.back());
    o.fig("main_max_phase_error", main.maxPhaseError);
    o.fig("legacy_max_cos_sin_error", legacy.maxCosSinError);
    o.fig("main_max_cos_sin_error", main.maxCosSinError);
    o.fig("main_colliding_positions", double(main.collidingPositions));
    o.figList("position", positions);
    o.figList("legacy_phase_error", legacy.phaseError);
    o.figList("main_phase_error", main.phaseError);
    o.s.holds = legacy.maxPhaseError > 1.0 && legacy.firstCollision.has_value() && main.maxPhaseError < 1e-2 && main.collidingPositions == 0;
    return o.s;
}

Result<DemoSummary> runXposDecay(const ScoreParams& scene) {
    Summary o;
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
    o.fact("draws", double(draws));
    o.fact("scale_base", xp.scale_base);
    o.fact("last_distance", double(dist.back()));
    o.figList("distance", dl);
    o.figList("xpos_score", toList(xposOnes.value()));
    o.figList("rope_score", toList(ropeOnes.value()));
    o.figList("xpos_random_mean_abs", toList(xposRandom));
    o.figList("rope_random_mean_abs", toList(ropeRandom));
    o.figList("xpos_envelope", envelope);
    o.fig("identity_error", identity);
    o.fig("shift_error", shift);
    const double xr = xposRandom[xposRandom.size() - 1] / xposRandom[0], rr = ropeRandom[ropeRandom.size() - 1] / ropeRandom[0];
    o.fig("xpos_random_far_over_near", xr);
    o.fig("rope_random_far_over_near", rr);
    o.s.holds = identity <= 1e-9 * std::max(1.0, scaleRef) && shift < 1e-9 && xr < 0.5 * rr;
    return o.s;
}

Result<DemoSummary> runLocalGlobal(const ScoreParams& scene) {
    Summary o;
    const LayerPattern& first = scene.model;
    if (first.empty()) return ParamError{"model", "a model whose layers differ (a layer pattern: --config)", "none"};
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
    o.fact("far", double(far));
    o.fig("gemma_layers", double(a.layers));
    o.fig("gemma_local_layers", double(a.local));
    o.fig("gemma_global_layers", double(a.global));
    o.fig("gemma_local_reach", double(a.localReach.value_or(0)));
    o.fig("gemma_local_base", a.localBase);
    o.fig("gemma_global_base", a.globalBase);
    o.fig("gemma_global_factor", a.globalFactor);
    o.fig("gemma_layers_seeing_128k", double(a.seeingFar));
    o.fig("llama4_layers", double(b.layers));
    o.fig("llama4_local_layers", double(b.local));
    o.fig("llama4_global_layers", double(b.global));
    o.fig("llama4_nope_layers", double(b.nope));
    o.fig("llama4_local_reach", double(b.localReach.value_or(0)));
    o.fig("llama4_rope_base", b.localBase);
    o.fig("llama4_rope_factor", b.localFactor);
    o.fig("llama4_layers_seeing_128k", double(b.seeingFar));
    std::vector<double> atList;
    for (auto p : at) atList.push_back(double(p));
    o.figList("temperature_position", atList);
    o.figList("llama4_temperature", b.temperature);
    bool rising = b.temperature.size() == at.size() && b.temperature.front() > 1;
    for (std::size_t k = 1; k < b.temperature.size(); ++k) rising = rising && b.temperature[k] > b.temperature[k - 1];
    o.s.holds = reaches(a) && reaches(b) && b.globalNope == b.global && rising;
    return o.s;
}

Result<DemoSummary> runMropeImage(const ScoreParams&) {
    Summary o;
    const MropeImageInput in;
    auto r = demoMropeImage(in);
    if (!r) return r.error();
    const auto& v = r.value();
    std::int64_t tValues = v.tLast - v.tFirst + 1;
    o.fact("image_begin", double(v.imageBegin));
    o.fact("text_before_last_id", double(v.textBeforeLast));
    o.fact("image_t", double(v.tFirst));
    o.fact("h_first", double(v.hFirst));
    o.fact("h_last", double(v.hLast));
    o.fact("w_first", double(v.wFirst));
    o.fact("w_last", double(v.wLast));
    o.fact("last_id", double(v.lastId));
    o.fig("image_t_values", double(tValues));
    o.fig("text_after_first_id", double(v.textAfterFirst));
    o.fig("position_offset", double(v.positions.rope_deltas));
    o.fig("image_rows", double(v.rows));
    o.fig("image_cols", double(v.cols));
    o.fig("tokens", double(v.tokens));
    o.fig("image_tokens", double(v.imageEnd - v.imageBegin));
    o.fig("largest_image_id", double(v.largestImageId));
    o.s.holds = tValues == 1 && v.tFirst == v.textBeforeLast + 1 && v.hFirst == v.tFirst && v.wFirst == v.tFirst &&
                v.rows * v.cols == v.imageEnd - v.imageBegin && v.textAfterFirst == v.largestImageId + 1 &&
                v.positions.rope_deltas == v.lastId + 1 - v.tokens && v.positions.rope_deltas < 0;
    return o.s;
}

Result<DemoSummary> runMropeSections(const ScoreParams& scene) {
    Summary o;
    MropeSectionsInput in;
    in.rope.base = scene.rope.base;
    auto r = demoMropeSections(in);
    if (!r) return r.error();
    const auto& v = r.value();
    // The distance the figures quote: 8 patches (a small image's extent), else the largest.
    const auto at8 = std::find(in.distances.begin(), in.distances.end(), std::int64_t{8});
    const std::size_t k = at8 != in.distances.end() ? std::size_t(at8 - in.distances.begin()) : in.distances.size() - 1;
    auto spread = [&](const MropeLayoutSummary& l) {
        double lo = INFINITY, hi = -INFINITY;
        for (const auto& a : l.axis) lo = std::min(lo, a.decay[k]), hi = std::max(hi, a.decay[k]);
        return hi - lo;
    };
    static const char* const axisKey[3] = {"t", "h", "w"};
    o.fact("distance", double(in.distances[k]));
    o.fact("head_dim", double(in.rope.head_dim));
    o.fact("base", in.rope.base);
    o.factList("sectioned_section", std::vector<double>(v.sectioned.section.begin(), v.sectioned.section.end()));
    o.factList("interleaved_section", std::vector<double>(v.interleaved.section.begin(), v.interleaved.section.end()));
    const auto& sec = v.sectioned.axis;
    o.fig("sectioned_t_share_at_distance", sec[0].decay[k]);
    o.fig("sectioned_w_share_at_distance", sec[2].decay[k]);
    o.fig("interleaved_spread", spread(v.interleaved));
    o.fig("sectioned_spread", spread(v.sectioned));
    for (const auto* l : {&v.sectioned, &v.interleaved}) {
        const std::string name = l == &v.sectioned ? "sectioned" : "interleaved";
        for (int a = 0; a < 3; ++a) {
            const MropeAxisSummary& ax = l->axis[std::size_t(a)];
            o.fig(name + "_" + axisKey[a] + "_frequencies", double(ax.count));
            o.fact(name + "_" + axisKey[a] + "_first", double(ax.firstIndex));
            o.fact(name + "_" + axisKey[a] + "_last", double(ax.lastIndex));
        }
    }
    o.fig("identity_error", std::max(v.sectioned.identityError, v.interleaved.identityError));
    o.figList("distance", std::vector<double>(in.distances.begin(), in.distances.end()));
    for (const auto* l : {&v.sectioned, &v.interleaved})
        for (int a = 0; a < 3; ++a)
            o.figList((l == &v.sectioned ? std::string("sectioned_") : std::string("interleaved_")) + axisKey[a] + "_share",
                      l->axis[std::size_t(a)].decay);
    const bool blocks = sec[0].slowest > sec[1].fastest && sec[1].slowest > sec[2].fastest;
    o.s.holds = blocks && spread(v.sectioned) > 2 * spread(v.interleaved) && sec[2].decay[k] > sec[0].decay[k] &&
                std::max(v.sectioned.identityError, v.interleaved.identityError) < 1e-9;
    return o.s;
}


const std::map<DemoId, DemoRun>& demoRuns() {
    static const std::map<DemoId, DemoRun> runs = {
        {DemoId::PermutationEquivariance, runPermutation},
        {DemoId::SinusoidalShift, runSinusoidalShift},
        {DemoId::SinusoidalRelative, runSinusoidalRelative},
        {DemoId::SinusoidalTokens, runSinusoidalTokens},
        {DemoId::RopeShiftInvariance, runRopeShift},
        {DemoId::RopeNorm, runRopeNorm},
        {DemoId::RopeDecay, runRopeDecay},
        {DemoId::RopeComplexIdentity, runRopeComplex},
        {DemoId::KvCache, runKvCache},
        {DemoId::Extrapolation, runExtrapolation},
        {DemoId::HalfVsInterleaved, runLayouts},
        {DemoId::ComparisonTable, runComparison},
        {DemoId::LearnedTable, runLearnedTable},
        {DemoId::ShawClipping, runShawClipping},
        {DemoId::T5Buckets, runT5Buckets},
        {DemoId::TransformerXLTerms, runTransformerXL},
        {DemoId::AlibiSlopes, runAlibiSlopes},
        {DemoId::Llama3Bands, runLlama3Bands},
        {DemoId::YarnRamp, runYarnRamp},
        {DemoId::RopeBf16, runRopeBf16},
        {DemoId::LocalGlobalLayers, runLocalGlobal},
        {DemoId::XposDecay, runXposDecay},
        {DemoId::MropeImage, runMropeImage},
        {DemoId::MropeSections, runMropeSections},
    };
    return runs;
}

}  // namespace

Result<DemoSummary> runDemonstration(DemoId id) { return runDemonstration(id, demoParams(id)); }

Result<DemoSummary> runDemonstration(DemoId id, const ScoreParams& scene) {
    const auto& runs = demoRuns();
    auto it = runs.find(id);
    if (it == runs.end()) return ParamError{"demonstration", "a demonstration of the catalogue", formatInt(int(id))};
    auto r = it->second(scene);
    if (r) r.value().id = id;
    return r;
}

}  // namespace poslab
