#pragma once
// The intermediate numbers of RoPE's scalings, one by one, for the teaching views (formula
// sheets): exactly the numbers ropeFrequencies (core/rope.h) computes on its way, so that a sheet
// never re-derives them. Numbers only; the words are ui's.
//
//   dynamic  ℓ = max(seq_len, max_positions) and base' = base·(factor·ℓ/max_positions −
//            (factor − 1))^(r/(r−2)) in double, as ropeFrequencies(params, seq_len) uses it (before
//            its float32 rounding in Float32 mode).
//   llama3   the wavelength bounds orig/high_freq_factor and orig/low_freq_factor, and for each
//            pair its wavelength 2π/θ_i, the band it falls in and the smooth factor, as compared
//            and computed by ropeFrequencies (float32 in Float32 mode).
#include "core/rope.h"

#include <vector>

namespace poslab {

struct RopeDynamicBase {
    std::int64_t length = 0;   // ℓ = max(seq_len, max_positions)
    double base = 0;           // base'
};
// seq_len: as ropeFrequencies (nullopt = params.seq_len, else max_positions).
// Precondition: params.scaling == Dynamic and params validate.
RopeDynamicBase ropeDynamicBase(const RopeParams& params, std::optional<std::int64_t> seq_len = std::nullopt);

enum class RopeLlama3Band {
    Unchanged,   // wavelength < orig/high_freq_factor: θ_i kept
    Divided,     // wavelength > orig/low_freq_factor: θ_i/factor
    Smoothed,    // between: (1 − smooth)·θ_i/factor + smooth·θ_i
};
struct RopeLlama3Detail {
    double highFreqWavelength = 0;    // orig/high_freq_factor (the shorter bound)
    double lowFreqWavelength = 0;     // orig/low_freq_factor (the longer bound)
    Vector wavelength;                // per pair, 2π/θ_i of the unscaled θ_i
    std::vector<RopeLlama3Band> band; // per pair
    Vector smooth;                    // per pair, (orig/wavelength − low)/(high − low) (used in the Smoothed band)
};
// Precondition: params.scaling == Llama3 and params validate.
RopeLlama3Detail ropeLlama3Detail(const RopeParams& params);

}  // namespace poslab
