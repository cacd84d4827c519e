#pragma once
// Decay with distance: how each method's score varies with the relative distance
// d = i − j >= 0 between a query at position d and a key at position 0 (what the decay view
// plots). The content's rows of position 0 (q, k) are held fixed while the position moves;
// s = 1/sqrt(dim).
//   nope           s·q·k (constant: no positional dependence)
//   sinusoidal     s·PE_d·PE_0 (the position–position term; depends only on d)
//   learned        s·E_d·E_0 (within the table; error naming max_distance past it)
//   shaw           s·q·a^K[clip(−d, −k, k) + k]
//   t5             table[bucket(−d)][head]  (key before the query; unscaled, as T5 adds it)
//   transformer-xl s·(b + d) = s·(q + v)·W_R R_d  (the positional terms at distance d)
//   alibi          −m_head·d
//   rope           s·(R_d q)·(R_0 k) with all rope options; with ones content and full rotary
//                  this is s·Σ_i 2cos(d·θ_i)
//                  bound: RoFormer's long-term decay bound (1/(r/2))·Σ_{j=1..r/2} |S_j|,
//                  S_j = Σ_{k<j} e^{i d θ_k}  (the relative upper bound of their Figure 2)
//   xpos           rope's value with each pair times ζ^(d/scale_base) (the explicit decay); no bound
// Real content (params.source set, N = its length): value(d) = mean over i = d … N−1 of
// score(i, i − d) of the N-token sequence (scores.h diagonalMeans), count(d) = N − d; distances
// must be below N. rope keeps its bound (frequencies of the N-token sequence).
// Exact definitions are stated in decay.cpp's comments beside each method.
// The layer's attention structure (params.attention): a NoPE layer's curve is nope's; a window or
// chunk ends the curve at visibleTo() (distances past it are left out, `visibleTo` says where);
// for the methods whose value is s·q̃·k̃ (all but t5 and alibi, whose decay is their bias) the
// softmax scale replaces s, the q/k norm multiplies by rsqrt(mean(q²)+eps)·rsqrt(mean(k²)+eps) of
// the position-0 content (exact for nope, rope and xpos, whose rotations keep the norm), and
// the query scaling (temperature tuning, Ministral 3's) multiplies distance d by its factor at d
// (the query sits at position d); then the logit soft-cap C·tanh(v/C) (the score bound too).
// Real content: the means of the scores (scores.h), which apply all of these row by row.
#include "core/scores.h"

namespace poslab {

struct DecayCurve {
    std::vector<std::int64_t> distance;   // 0 .. max_distance (or the requested sample)
    Vector value;
    std::optional<Vector> bound;          // rope only: RoFormer's relative bound (their Figure 2)
    // rope only, content held fixed (not a mean over a sequence's rows): RoFormer's bound in the
    // value's own units, |value(d)| <= scoreBound(d). With g_j = q̃_j·(R_0 k)̃_j* the pair j's
    // complex product (times the attention factor), g_{r/2} = 0 and c the pass-through channels'
    // constant: s·(max_j |g_j − g_{j+1}| · Σ_j |S_j| + |c|) (Abel summation, RoFormer §3.4.3),
    // times the layer's softmax-scale, norm and temperature factors as the value.
    std::optional<Vector> scoreBound;
    std::vector<std::int64_t> count;      // real content only: rows each mean covers
    // A window or chunk (attention.h): the largest distance the layer sees; the curve stops there.
    std::optional<std::int64_t> visibleTo;
};

// Curve at distances 0..max_distance. Errors: params that do not validate; max_distance outside
// 0 .. 2^24 − 1 (names "max_distance"); a non-finite value (names "result").
Result<DecayCurve> decayCurve(const ScoreParams& params, std::int64_t max_distance);

// Curve at an explicit list of distances (for views that sample a long range): 1 .. 2^24 of
// them, each in 0 .. 2^31.
Result<DecayCurve> decayCurveAt(const ScoreParams& params, const std::vector<std::int64_t>& distances);

// For the tests: what decayCurve's float32 xPos computes per pair and distance (decay.cpp
// xposFloat32Rows) at strictly increasing distances in 0 .. 2^24 − 1: the query's float32 scales
// f32(ζ_i^e(d)) (|distances| × dim/2) and its rotated, scaled rows ξ_d(q) (|distances| × dim), q
// the configuration's position-0 query row; the curve is s·rows·k. Errors: params that do not
// validate, a method other than xpos or a precision other than float32 (names "method" or
// "precision"), distances not strictly increasing or out of range (names "distances").
struct XposDecayFloat32 {
    Matrix scale;
    Matrix rows;
};
Result<XposDecayFloat32> xposDecayFloat32(const ScoreParams& params, const std::vector<std::int64_t>& distances);

// The scores f(δ) = score(i, j) for δ = i − j in [lo, hi] (scores.h scoresByDistance) of a
// sequence of `length` positions, by the O(|δ|·d) sweep of decayCurve where it applies: ones
// content without q/k norm (and scoresAreDistanceFunction()) with
//   rope (double)   decayCurve's value at |δ| (no bound), frequencies of `length` positions;
//   transformer-xl  s·(a + c + (1 + v)·W_R R_δ): a = q·k = dim, c = u·k, R_δ the float32 concat
//                   sinusoid of min(δ, clamp_len) (δ < 0: its sin half negated, as f32 sin is odd);
//   xpos (double)   s·Σ_i 2·ζ_i^(δ/scale_base)·cos(δ·θ_i) (both signs), when the centred exponents
//                   stay inside xPos's clamp (length <= 60/ln(7/2)·scale_base).
// The two halves of the distances run on two threads. Equal to scoresByDistance up to the
// rounding of the sums (a few ulps of the largest term; tests/core/test_aggregate.cpp).
// Returns nullopt where it does not apply (the caller takes scoresByDistance).
std::optional<Result<std::vector<double>>> sweptDistanceScores(const ScoreParams& params, std::int64_t length,
                                                               std::int64_t lo, std::int64_t hi);

}  // namespace poslab
