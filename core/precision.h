#pragma once
// Reduced-precision arithmetic as PyTorch does it on CPU (docs/spec/cli.md "Precision",
// docs/spec/conventions.md "PyTorch's own float32 functions on CPU").
//
//   roundBFloat16  float32 → bfloat16 (8-bit significand, float32's exponent range), round to
//                  nearest even exactly as c10::BFloat16's round_to_nearest_even: subnormals
//                  keep 16 bits, values beyond the largest bfloat16 become ±inf, NaN stays NaN.
//   roundFloat16   float32 → IEEE binary16, round to nearest even, with subnormals (quantum 2^-24),
//                  |x| >= 65520 → ±inf, NaN stays NaN (c10::Half / F16C's conversion).
//   roundToPrecision(p, x)  the value of the double x held in p's tensors: Double → x; Float32 →
//                  f32(x); BFloat16 / Float16 → the float32 value f32(x) rounded once more to the
//                  dtype (a bfloat16/float16 elementwise op is computed in float32 and rounded).
//
// PyTorch 1.13's float32 pow of a contiguous tensor of n elements (`base ** tensor`): elements
// in the first n − n mod 16 run through SLEEF's 1-ulp powf, the last n mod 16 through the C
// library's powf; torchPowf takes `vectorBlock` (= inTorchVectorBlock(i, n)) to pick the same.
// Its cos/sin (torchCosSin) run every element, the tail too, through SLEEF's AVX2 cosf8/sinf8 in
// groups of 8 from the tensor's start; a lane's result depends on the other lanes of its group
// (SLEEF switches the argument reduction of the whole vector when one lane is large), so they
// are computed for a whole tensor at once. (Measured on Debian's python3-torch 1.13.1, AVX2,
// libsleef3 3.5.1, one thread: tests/data/precision.) Bit-exact on CPUs with AVX2 and FMA (as
// PyTorch's kernels); elsewhere SLEEF's scalar cos/sin, which may differ in the last bit.
#include "core/types.h"

#include <cstddef>

namespace poslab {

float roundBFloat16(float x);
float roundFloat16(float x);
// Inline: the rope tables and rotations call it for every element.
inline double roundToPrecision(Precision p, double x) {
    switch (p) {
    case Precision::Double: return x;
    case Precision::Float32: return static_cast<double>(static_cast<float>(x));
    case Precision::BFloat16: return static_cast<double>(roundBFloat16(static_cast<float>(x)));
    case Precision::Float16: return static_cast<double>(roundFloat16(static_cast<float>(x)));
    }
    return x;
}

// True for the reduced dtypes (bfloat16, float16).
inline bool isHalfPrecision(Precision p) { return p == Precision::BFloat16 || p == Precision::Float16; }

// Element `index` of a contiguous tensor of `n` elements is in one of PyTorch's vector blocks.
inline bool inTorchVectorBlock(std::size_t index, std::size_t n) { return index < n - n % 16; }

// Attention scores as a model in the reduced dtype p (bfloat16/float16) computes them (docs/spec/cli.md
// "Precision"; transformers' `torch.matmul(q, k.transpose) * scaling`): for rows q_i and k_j
// (|q| × n and |k| × n, entries already held in p), the dot product accumulated in float32 in
// channel order (torch 1.13's CPU bfloat16 matmul), rounded to p, times the scale rounded to p
// (torch casts a Python scalar to the tensor's dtype), rounded:
//   score_ij = rd(rd(Σ_c f32 q_ic·k_jc) · rd(scale)).  Output |q| × |k|.
// Precondition: isHalfPrecision(p), q.cols() == k.cols().
Matrix precisionScores(Precision p, const Matrix& q, const Matrix& k, double scale);

float torchPowf(float base, float exponent, bool vectorBlock);
// cos and sin of the n float32 angles of one contiguous tensor, as torch computes them.
void torchCosSin(const float* angles, std::size_t n, float* cosOut, float* sinOut);

}  // namespace poslab
