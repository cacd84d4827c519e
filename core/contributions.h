#pragma once
// Per-pair contributions of RoPE to the score, against distance: which frequency pairs carry
// position and which carry content (`poslab compute contributions`, the contributions view).
//
// For the rotary pairs p = 0 … r/2 − 1 (channels (p, p + r/2) for the half layout, (2p, 2p + 1)
// interleaved), s = the layer's softmax scale (attention.softmax_scale, else 1/sqrt(dim)), R_m the
// rotation at position m (all rope options, precision), q and k RMS-normalised when the layer has a
// q/k norm (before or after the rotation alike: a rotation keeps the norm), the query row times the
// layer's query scaling at its position (attention.h queryScale):
//   content of the configuration (ones, random, formula; query at distance t, key at 0, the
//   rows of position 0, as decayCurve):
//       c_p(t) = s · (R_t q)_p · (R_0 k)_p
//   real content (params.source, N rows; distances below N):
//       c_p(t) = mean over i = t … N−1 of s · (R_i q_i)_p · (R_{i−t} k_{i−t})_p,  count(t) = N − t
//   rest(t)  = the same for the channels past rotary_dim (partial rotary; 0 otherwise), so that
//              Σ_p c_p(t) + rest(t) = decayCurve's value(t) (in double precision exactly up to
//              summation order).
//   share_p  = Σ_t |c_p(t)| / Σ_p' Σ_t |c_p'(t)| over the distances asked for (0 when all are 0).
//   capped(t) = C·tanh(total(t)/C) with the layer's logit soft-cap C (Gemma 2): the score the model
//              uses; the pairs' terms add up to the score before the cap (a cap does not split by pair).
// Frequencies: inv_freq after scaling (the sequence length of the decay rule: seq_len, else
// N for real content, else max distance + 1) and before it (ropeDefaultFrequencies);
// wavelength = 2π/inv_freq. training_context = original_max_positions of a scaled
// configuration, else max_positions.
#include "core/scores.h"

namespace poslab {

struct Contributions {
    std::vector<std::int64_t> distance;      // as asked
    Matrix value;                            // pairs × distances: c_p(t)
    Vector rest;                             // per distance
    Vector total;                            // per distance: Σ_p c_p(t) + rest(t)
    std::optional<Vector> capped;            // with a soft-cap: C·tanh(total/C) per distance
    Vector share;                            // per pair
    Vector wavelengthBefore, wavelengthAfter;   // per pair, tokens
    std::int64_t trainingContext = 0;
    std::int64_t context = 0;                // max_positions
    std::vector<std::int64_t> count;         // real content only
};

// Errors: params that do not validate; a method other than rope (names `method`); no distance,
// or a distance outside 0 … 2^31 (names `max_distance`; real content: below N); more than 2^16
// distances, or work (distances × N × dim for real content) past 2^34 (names `max_distance`).
Result<Contributions> pairContributions(const ScoreParams& params, const std::vector<std::int64_t>& distances);

}  // namespace poslab
