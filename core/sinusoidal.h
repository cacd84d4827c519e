#pragma once
// Absolute sinusoidal position encoding (Vaswani et al. 2017 §3.5) and its framework variants.
//
// Frequencies, K = ceil(dim/2) (interleaved) or floor(dim/2) (concat) of them, i = 0..K-1:
//   vaswani        w_i = base^(−2i/dim)
//   tensor2tensor  w_i = min_timescale·exp(−i·ln(base/min_timescale)/max(K−1, 1))
//                  exactly as tensor2tensor's get_timing_signal_1d writes it (it MULTIPLIES by
//                  min_timescale; conventions.md follows the code). With min_timescale = 1 this
//                  is fairseq's (half−1) table and the last frequency is exactly 1/base.
//                  dim = 1: interleaved has the one frequency min_timescale (a sin column),
//                  concat none (a zero column), as tensor2tensor pads.
// Layouts (row p of the |positions| × dim output):
//   interleaved  PE[p,2i] = sin(p·w_i), PE[p,2i+1] = cos(p·w_i)   (DistilBERT; odd dim ends with sin)
//   concat       PE[p] = [sin(p·w_0..K−1) | cos(p·w_0..K−1)]     (fairseq, t2t, Transformer-XL;
//                odd dim gets a zero last column)
// Precision: Float32 reproduces the reference (interleaved: double maths stored as float32,
// DistilBERT, angle = p / base^(2i/dim); concat: float32 frequencies, float32 angle
// f32(f32(p)·w), sin/cos rounded to float32 — Transformer-XL/GPT-J for vaswani,
// fairseq (min_timescale = 1) / tensor2tensor for tensor2tensor). Double: exact double maths.
// Output is always finite for valid params (|angle| <= 2^63·1e6).
// Properties (Double): PE(p+Δ) = R(Δ)·PE(p) for every (sin, cos) pair; for even dim
// PE(p)·PE(q) = Σ cos((p−q)·w_i) depends only on p−q (an odd interleaved dim adds a lone sine).
#include "core/param.h"
#include "core/types.h"

namespace poslab {

enum class SinusoidalLayout { Interleaved, Concat };
enum class SinusoidalFrequencies { Vaswani, Tensor2Tensor };

template <>
struct EnumKeys<SinusoidalLayout> {
    static constexpr std::array<EnumKey<SinusoidalLayout>, 2> keys{
        {{SinusoidalLayout::Interleaved, "interleaved"}, {SinusoidalLayout::Concat, "concat"}}};
};
template <>
struct EnumKeys<SinusoidalFrequencies> {
    static constexpr std::array<EnumKey<SinusoidalFrequencies>, 2> keys{
        {{SinusoidalFrequencies::Vaswani, "vaswani"}, {SinusoidalFrequencies::Tensor2Tensor, "tensor2tensor"}}};
};

struct SinusoidalParams {
    int dim = 64;                      // 1 .. 65536 (odd allowed)
    double base = 10000.0;             // largest timescale, (1, 1e30]
    double min_timescale = 1.0;        // tensor2tensor only: [1e-6, 1e6] and < base (always finite)
    SinusoidalLayout layout = SinusoidalLayout::Interleaved;
    SinusoidalFrequencies frequencies = SinusoidalFrequencies::Vaswani;
    Precision precision = Precision::Float32;
    Check validate() const;
    bool operator==(const SinusoidalParams&) const = default;
};
// Every parameter of SinusoidalParams declared once (core/param.h): validate() checks each one's
// range first, the command line, sessions and the panel are generated from it.
const ParamTable<SinusoidalParams>& sinusoidalParamTable();


// The K angular frequencies w_i (rounded as the layout's reference rounds them).
Vector sinusoidalFrequencies(const SinusoidalParams& params);

// |positions| × dim encoding. Positions may be any integers >= 0.
Matrix sinusoidalEncoding(const SinusoidalParams& params, const Positions& positions);

}  // namespace poslab
