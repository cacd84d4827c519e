#pragma once
// Rotary position embedding (RoPE): frequencies for every scaling type, cos/sin tables and
// application in the half-split and interleaved layouts, partial rotary.
//
// Frequencies (r = rotary_dim, i = 0 .. r/2-1), as Hugging Face transformers main
// (modeling_rope_utils.py) computes them:
//   default   inv_freq[i] = 1 / base^(2i/r)                       (float32 by default)
//   linear    inv_freq / factor
//   dynamic   base' = base·((factor·s/max_pos) − (factor−1))^(r/(r−2)), s = max(seq_len, max_pos)
//   yarn      ramp blend of inv_freq and inv_freq/factor between the correction dims of
//             beta_fast, beta_slow (floor/ceil unless truncate = false); attention factor
//             0.1·ln(factor)+1, or the mscale/mscale_all_dim ratio, or explicit
//   longrope  inv_freq[i] = 1/(ext[i]·base^(2i/r)), ext = long_factor iff s > original_max,
//             else short_factor; attention factor sqrt(1 + ln(factor)/ln(original_max))
//   llama3    wavelength band: > orig/low_freq_factor → /factor; < orig/high_freq_factor →
//             unchanged; between → smooth blend (1−t)·f/factor + t·f
//   explicit  `theta` (r/2 numbers) replaces all of the above.
// See spec/conventions.md for every detail (factor defaults, v4 vs main, precision).
//
// Application at position p (angles a_i = p·inv_freq[i], c = attention_factor):
//   half        out[j]      = x[j]·cos a_j − x[j+r/2]·sin a_j,   j < r/2
//               out[j+r/2]  = x[j+r/2]·cos a_j + x[j]·sin a_j
//   interleaved out[2i]     = x[2i]·cos a_i − x[2i+1]·sin a_i
//               out[2i+1]   = x[2i+1]·cos a_i + x[2i]·sin a_i
//   channels r .. head_dim−1 pass through; cos and sin are multiplied by c.
#include "core/types.h"

namespace poslab {

enum class RopeScaling { None, Linear, Dynamic, Yarn, LongRope, Llama3 };
enum class RopeLayout { Half, Interleaved };

struct RopeParams {
    int head_dim = 64;                       // even, 2 .. 65536
    double base = 10000.0;                   // rope_theta, > 1
    double partial_rotary_factor = 1.0;      // (0, 1]; rotary_dim = int(head_dim·F) (NeoX)
    int rotary_dim = 0;                      // 0 = from partial factor; else even, 2..head_dim (GPT-J)
    RopeScaling scaling = RopeScaling::None;
    std::optional<double> factor;            // > 0; required for linear/dynamic/llama3
    std::int64_t max_positions = 2048;       // max_position_embeddings, >= 1
    std::optional<std::int64_t> original_max_positions;  // default = max_positions
    std::optional<std::int64_t> seq_len;     // dynamic/longrope current length (none = runtime rule)
    double beta_fast = 32.0, beta_slow = 1.0;              // yarn
    std::optional<double> mscale, mscale_all_dim;          // yarn (DeepSeek)
    bool truncate = true;                                  // yarn
    std::optional<double> attention_factor;               // yarn/longrope explicit
    double low_freq_factor = 1.0, high_freq_factor = 4.0;  // llama3
    std::vector<double> short_factor, long_factor;         // longrope, rotary_dim/2 each
    std::vector<double> theta;               // explicit per-pair frequencies, rotary_dim/2 numbers
    RopeLayout layout = RopeLayout::Half;
    Precision precision = Precision::Float32;

    Check validate() const;
    int rotaryDim() const;                   // the number of rotated channels r
    double resolvedFactor() const;           // factor after defaults (yarn/longrope: max/orig)
    std::int64_t originalMaxPositions() const;
};

struct RopeFrequencies {
    Vector inv_freq;                 // r/2 entries, float32-rounded in Float32 mode
    double attention_factor = 1.0;
    int rotary_dim = 0;
    Vector wavelength() const;       // 2π / inv_freq
};

// Inverse frequencies for a call whose longest sequence is `seq_len` (dynamic, longrope);
// nullopt = params.seq_len, else the static (init-time) rule.
RopeFrequencies ropeFrequencies(const RopeParams& params, std::optional<std::int64_t> seq_len = std::nullopt);

// Unscaled default frequencies 1/base^(2i/r) for the same params (the "before" of a scaling).
RopeFrequencies ropeDefaultFrequencies(const RopeParams& params);

// cos/sin tables, |positions| × r, laid out for params.layout (half: cat(f, f); interleaved:
// each frequency twice in a row), already multiplied by the attention factor.
// Float32 mode: angle = f32(p·inv_freq), cos/sin rounded to float32, times f32(attention).
struct RopeTables {
    Matrix cos, sin;
};
RopeTables ropeTables(const RopeParams& params, const RopeFrequencies& freqs, const Positions& positions);

// Rotate rows of x (|positions| × head_dim, row k at positions[k]) with the tables above.
// Precondition: x.rows() == tables.cos.rows(), x.cols() == params.head_dim.
Matrix ropeApply(const RopeParams& params, const RopeTables& tables, const Matrix& x);

// Convenience: the whole pipeline with the runtime rule for dynamic/longrope
// (seq_len = params.seq_len or max(positions)+1).
Matrix ropeRotate(const RopeParams& params, const Positions& positions, const Matrix& x);

// Per-pair rotation angle p·inv_freq[i] for each position (|positions| × r/2), the quantity the
// pair-vector view draws. Float32 mode rounds each angle to float32.
Matrix ropeAngles(const RopeParams& params, const RopeFrequencies& freqs, const Positions& positions);

}  // namespace poslab
