#pragma once
// Decay with distance: how each method's positional score varies with the relative distance
// d = i − j >= 0 between query i and key j (what the decay view plots).
//   nope           constant s·q·k (no positional dependence)
//   sinusoidal     s·PE_0·PE_d (depends only on d)
//   learned        s·E_0·E_d (position 0 against d, within the table)
//   shaw           s·q·a^K[clip(−d, −k, k) + k] for the configured content's q at position 0
//   t5             table[bucket(−d)][head]  (causal key before query)
//   transformer-xl s·(u + v)·... the positional terms b + d at distance d
//   alibi          −m_head·d
//   rope           s·Σ_pairs (q_pair · R(d·θ_i) k_pair) with the content's q, k at positions
//                  (d, 0); with ones content this is s·Σ_i 2cos(d·θ_i)
//                  bound: RoFormer's long-term decay bound (1/(r/2))·Σ_{j=1..r/2} |S_j|,
//                  S_j = Σ_{k<j} e^{i d θ_k}  (the relative upper bound of their Figure 2)
//   xpos           rope's value times ζ^(d/scale_base) per pair (the explicit decay)
// Exact definitions are stated in decay.cpp's comments beside each method.
#include "core/scores.h"

namespace poslab {

struct DecayCurve {
    std::vector<std::int64_t> distance;   // 0 .. max_distance (or the requested sample)
    Vector value;
    std::optional<Vector> bound;          // rope (and xpos) only
};

// Curve at distances 0..max_distance. Precondition: params validate, 0 <= max_distance <= 2^31.
Result<DecayCurve> decayCurve(const ScoreParams& params, std::int64_t max_distance);

// Curve at an explicit list of distances (for views that sample a long range).
Result<DecayCurve> decayCurveAt(const ScoreParams& params, const std::vector<std::int64_t>& distances);

}  // namespace poslab
