#pragma once
// xPos (Sun et al. 2022), as torchscale's XPOS module computes it:
//   interleaved RoPE with θ_i = 10000^(−i/(d/2)) at the token positions offset … offset+L−1,
//   times scale[pos,i] = ζ_i^(c_pos/scale_base), ζ_i = (2i + 0.4d)/(1.4d),
//   where the scale exponent uses centred positions c: arange(min_pos, max_pos),
//   min_pos = −(L+offset)//2 (floor division), max_pos = L+offset+min_pos, last L rows used.
//   Queries use ζ^(+c/scale_base); keys are called with downscale = true and use 1/scale,
//   so q·k carries ζ^((m−n)/scale_base).
#include "core/types.h"

namespace poslab {

struct XposParams {
    int head_dim = 64;            // even, 2 .. 65536
    double scale_base = 512.0;    // > 0
    Precision precision = Precision::Float32;
    Check validate() const;
};

// scale actually applied, L × head_dim/2 (1/scale with downscale). Precondition: length >= 1, offset >= 0.
Matrix xposScale(const XposParams& params, std::int64_t length, std::int64_t offset, bool downscale);

// Rotate and scale rows of x (length × head_dim; row t is token offset+t).
Matrix xposApply(const XposParams& params, const Matrix& x, std::int64_t offset, bool downscale);

// Rotation angles per pair (L × head_dim/2) at positions offset … offset+L−1.
Matrix xposAngles(const XposParams& params, std::int64_t length, std::int64_t offset);

}  // namespace poslab
