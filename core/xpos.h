#pragma once
// xPos (Sun et al. 2022), as torchscale's XPOS module computes it:
//   interleaved RoPE with θ_i = 10000^(−i/(d/2)) at the token positions offset … offset+L−1,
//   times scale[pos,i] = ζ_i^(c_pos/scale_base), ζ_i = (2i + 0.4d)/(1.4d),
//   where the scale exponent uses centred positions c: arange(min_pos, max_pos),
//   min_pos = −(L+offset)//2 (floor division), max_pos = L+offset+min_pos, last L rows used,
//   so row t (token offset+t) has c = min_pos + offset + t.
//   Queries use ζ^(+c/scale_base); keys are called with downscale = true and use 1/scale,
//   so q·k carries ζ^((m−n)/scale_base).
// Application (pair (2i, 2i+1), angle a = pos·θ_i, s = scale[pos,i]):
//   out[2i]   = x[2i]·(cos a·s) − x[2i+1]·(sin a·s)
//   out[2i+1] = x[2i+1]·(cos a·s) + x[2i]·(sin a·s)
// Float32 mode reproduces torchscale's float32 operation order: θ_i = f32(1/f32(10000^f32(i/(d/2)))),
// ζ_i = f32(f32(f32(2i) + f32(0.4d)) / f32(1.4d)), exponent f32(f32(c)/f32(scale_base)),
// scale = f32(ζ_i^exponent) (1/scale rounded with downscale), angle f32(f32(pos)·θ_i), sin/cos
// rounded, each multiplied by the scale and rounded (duplicate_interleave(t * scale)), then
// x·cos + rotate_every_two(x)·sin with every product and the sum rounded.
// Double mode computes the same formulas exactly in double.
//
// Range: the scale grows like (7/2)^(|c|/scale_base); to keep scale and 1/scale far inside the
// float32 range the product |c|/scale_base·ln(7/2) must stay <= kXposMaxLogScale (60), i.e.
// scale ∈ [e^−60, e^60]. xposCheckExtent / xposCheckPositions say whether a call satisfies this;
// the functions below clamp the exponent to that range when called outside it (a precondition
// violation; torchscale itself would return inf/NaN there), so they always return finite numbers.
#include "core/param.h"
#include "core/types.h"

namespace poslab {

struct XposParams {
    int head_dim = 64;            // even, 2 .. 65536
    double scale_base = 512.0;    // > 0 and <= 1e12
    Precision precision = Precision::Float32;
    Check validate() const;
    bool operator==(const XposParams&) const = default;
};
// Every parameter of XposParams declared once (core/param.h): validate() checks each one's
// range first, the command line, sessions and the panel are generated from it.
const ParamTable<XposParams>& xposParamTable();


inline constexpr double kXposMaxLogScale = 60.0;

// Centred position c used by the scale exponent for token offset+t of a call of `length` tokens
// (t = 0 .. length−1): floor(−(length+offset)/2) + offset + t.
std::int64_t xposCentredPosition(std::int64_t length, std::int64_t offset, std::int64_t t);

// Whether a call with `length` tokens after `offset` keeps every |c|/scale_base·ln(7/2) <= 60.
// Names "length" (or "offset" when offset > 0 and length alone would pass). Also checks
// length >= 1, offset >= 0, length+offset <= 2^40.
Check xposCheckExtent(const XposParams& params, std::int64_t length, std::int64_t offset);

// Same for xposApplyAt: positions in [0, 2^40], centred with a sequence of `length` tokens.
Check xposCheckPositions(const XposParams& params, const Positions& positions, std::int64_t length);

// Inverse frequencies θ_i (head_dim/2 numbers) and the per-pair bases ζ_i (head_dim/2 numbers).
Vector xposInvFreq(const XposParams& params);
Vector xposZeta(const XposParams& params);

// scale actually applied, L × head_dim/2 (1/scale with downscale). Precondition: length >= 1, offset >= 0.
Matrix xposScale(const XposParams& params, std::int64_t length, std::int64_t offset, bool downscale);

// Rotate and scale rows of x (length × head_dim; row t is token offset+t).
Matrix xposApply(const XposParams& params, const Matrix& x, std::int64_t offset, bool downscale);

// Rotation angles per pair (L × head_dim/2) at positions offset … offset+L−1.
Matrix xposAngles(const XposParams& params, std::int64_t length, std::int64_t offset);

// For views that need arbitrary positions of one sequence of `length` tokens (offset 0): row k of
// x (|positions| × head_dim) is the token at positions[k]; its rotation angle uses positions[k]
// and its scale exponent the centred c = positions[k] + floor(−length/2), exactly the numbers
// xposApply(params, X, 0, downscale) gives row positions[k] of a full length × head_dim input X.
// Precondition: length >= 1, x.rows() == positions.size(), x.cols() == head_dim.
Matrix xposApplyAt(const XposParams& params, const Matrix& x, const Positions& positions, std::int64_t length,
                   bool downscale);

// The scale rows xposApplyAt uses (|positions| × head_dim/2; 1/scale with downscale).
Matrix xposScaleAt(const XposParams& params, const Positions& positions, std::int64_t length, bool downscale);

}  // namespace poslab
