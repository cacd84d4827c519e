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
// See docs/spec/conventions.md for every detail (factor defaults, v4 vs main, precision).
//
// Application at position p (angles a_i = p·inv_freq[i], c = attention_factor):
//   half        out[j]      = x[j]·cos a_j − x[j+r/2]·sin a_j,   j < r/2
//               out[j+r/2]  = x[j+r/2]·cos a_j + x[j]·sin a_j
//   interleaved out[2i]     = x[2i]·cos a_i − x[2i+1]·sin a_i
//               out[2i+1]   = x[2i+1]·cos a_i + x[2i]·sin a_i
//   channels r .. head_dim−1 pass through; cos and sin are multiplied by c.
#include "core/param.h"
#include "core/types.h"

namespace poslab {

enum class RopeScaling { None, Linear, Dynamic, Yarn, LongRope, Llama3 };
enum class RopeLayout { Half, Interleaved };
// Whose code computes the rotation in float32/bfloat16/float16 (docs/spec/cli.md "Precision"):
//   transformers    transformers main: cos/sin tables in float32 (torch's SLEEF cos/sin, times the
//                   attention factor) cast to the model dtype, x·cos + rotate(x)·sin with every op
//                   rounded to the dtype (angle_precision chooses the legacy paths).
//   meta-complex64  Meta llama's precompute_freqs_cis / apply_rotary_emb: angles f32(p·inv_freq),
//                   freqs_cis = torch.polar(1, angle) in complex64 (torch 1.13's CPU polar is the C
//                   library's cosf/sinf per element, not SLEEF), x.float() viewed as complex
//                   (pairs (2i, 2i+1): needs layout = interleaved), the complex64 product without
//                   fma (torch's AVX2 complex<float> multiply):
//                     re = f32(f32(x0·c) − f32(x1·s)),  im = f32(f32(x0·s) + f32(x1·c)),
//                   then .type_as(x): rounded once to the model dtype. Of a tensor of m complex
//                   elements, the last m mod 8 run through torch's compiled scalar loop, which
//                   contracts to fma two at a time: re = fma(x0, c, −f32(x1·s)), im = fma(x0, s,
//                   f32(x1·c)), except the last one when m mod 8 is odd (measured: 0 of 161 328
//                   values differ). ropeApply models one call on the rows given as one head
//                   ([1, n, 1, r] in Meta's layout, m = n·r/2); with several heads the tail is
//                   presumably per row of r/2 elements (not measured, not modelled). cos and sin stay float32
//                   (never the dtype); angle_precision is ignored (Meta builds angles in float32).
//                   Measured bit for bit against torch 1.13 (tests/data/precision).
enum class RopeCodePath { Transformers, MetaComplex64 };

template <>
struct EnumKeys<RopeScaling> {
    static constexpr std::array<EnumKey<RopeScaling>, 6> keys{{{RopeScaling::None, "none"},
                                                                {RopeScaling::Linear, "linear"},
                                                                {RopeScaling::Dynamic, "dynamic"},
                                                                {RopeScaling::Yarn, "yarn"},
                                                                {RopeScaling::LongRope, "longrope"},
                                                                {RopeScaling::Llama3, "llama3"}}};
};
template <>
struct EnumKeys<RopeCodePath> {
    static constexpr std::array<EnumKey<RopeCodePath>, 2> keys{
        {{RopeCodePath::Transformers, "transformers"}, {RopeCodePath::MetaComplex64, "meta-complex64"}}};
};
template <>
struct EnumKeys<RopeLayout> {
    static constexpr std::array<EnumKey<RopeLayout>, 2> keys{{{RopeLayout::Half, "half"}, {RopeLayout::Interleaved, "interleaved"}}};
};

struct RopeParams {
    // Valid ranges (validate() names the field and the range; non-finite numbers never pass):
    int head_dim = 64;                       // even, 2 .. 65536
    double base = 10000.0;                   // rope_theta, > 1 and <= 1e12
    double partial_rotary_factor = 1.0;      // (0, 1]; rotary_dim = int(head_dim·F), even >= 2 (NeoX)
    int rotary_dim = 0;                      // 0 = from partial factor; else even, 2..head_dim (GPT-J);
                                             // not together with partial_rotary_factor != 1
    RopeScaling scaling = RopeScaling::None;
    std::optional<double> factor;            // 1e-6 .. 1e6; required for linear/dynamic/llama3
    std::int64_t max_positions = 2048;       // max_position_embeddings, 1 .. 2^40
    std::optional<std::int64_t> original_max_positions;  // 1 .. 2^40; default = max_positions
    std::optional<std::int64_t> seq_len;     // dynamic/longrope current length, 1 .. 2^40+1 (none = runtime rule)
    double beta_fast = 32.0, beta_slow = 1.0;              // yarn, each in (0, 1e6]
    std::optional<double> mscale, mscale_all_dim;          // yarn (DeepSeek), [0, 1e6]; 0 acts as unset
    bool truncate = true;                                  // yarn
    std::optional<double> attention_factor;               // yarn/longrope explicit, (0, 1e6]
    double low_freq_factor = 1.0, high_freq_factor = 4.0;  // llama3, 0 < low < high <= 1e6
    std::vector<double> short_factor, long_factor;         // longrope, rotary_dim/2 each, 1e-6 .. 1e6
    std::vector<double> theta;               // explicit per-pair frequencies, rotary_dim/2 numbers in (0, 1e6]
    RopeLayout layout = RopeLayout::Half;
    Precision precision = Precision::Float32;  // the model's dtype (docs/spec/cli.md "Precision")
    // The dtype the angles are built in when precision is bfloat16/float16: float32 (transformers
    // main), bfloat16 or float16 (legacy paths: positions and inv_freq cast to it, the product
    // rounded to it before cos/sin). Ignored for float32 and double.
    Precision angle_precision = Precision::Float32;
    // Whose code path rounds the rotation (see RopeCodePath); no effect in double precision.
    // meta-complex64 requires layout = interleaved.
    RopeCodePath code_path = RopeCodePath::Transformers;

    // Also rejected: dynamic with rotary_dim < 4 (the exponent r/(r−2) divides by zero upstream)
    // or with factor·seq_len/max_positions so large that base' leaves the float32 range (checked
    // at seq_len, or at the longest runtime length 2^40+1 when seq_len is unset); longrope with a
    // derived attention factor and original_max_positions = 1 (ln 1 = 0 divides upstream).
    Check validate() const;
    bool operator==(const RopeParams&) const = default;
    int rotaryDim() const;                   // the number of rotated channels r
    double resolvedFactor() const;           // factor after defaults (yarn/longrope: max/orig; else factor or 1)
    std::int64_t originalMaxPositions() const;
    // Whether the frequencies (and attention factor) read max_positions: dynamic NTK always; YaRN,
    // LongRoPE and Llama 3 where it stands in for an unset original_max_positions; YaRN and
    // LongRoPE where the unset factor is max/original. Never with explicit theta. Elsewhere it is
    // only the model's context, which views may mark (the frequencies and contributions views).
    bool readsMaxPositions() const;
};
// Every parameter of RopeParams declared once (core/param.h): validate() checks each one's
// range first, the command line, sessions and the panel are generated from it.
const ParamTable<RopeParams>& ropeParamTable();


struct RopeFrequencies {
    Vector inv_freq;                 // r/2 entries, float32-rounded in Float32 mode
    double attention_factor = 1.0;
    int rotary_dim = 0;
    Vector wavelength() const;       // 2π / inv_freq (computed in double)
};

// Inverse frequencies as the scaling's init function computes them when called with a Python int
// `seq_len` (dynamic, longrope): the number the `frequencies` command prints.
// nullopt = params.seq_len; if that is unset too, the static (init-time) rule: dynamic uses
// seq_len = max_positions (i.e. unscaled frequencies), longrope uses short_factor.
// Dynamic computes base' in double (Python floats) and rounds it to float32 (Float32 mode).
RopeFrequencies ropeFrequencies(const RopeParams& params, std::optional<std::int64_t> seq_len = std::nullopt);

// Inverse frequencies a freshly built Hugging Face rotary module uses in its forward pass for a
// call whose longest sequence is `seq_len` = max(position_ids)+1 (the runtime rule):
//   dynamic   seq_len <= max_positions → the init frequencies (ropeFrequencies(params, nullopt)
//             with params.seq_len ignored); beyond → recomputed with seq_len as an int64 tensor,
//             so in Float32 mode base' = f32(base · f32(f32(f32(f32(s)·f32(factor))/f32(max)) −
//             f32(factor−1))^(r/(r−2))) is float32 arithmetic (this differs from ropeFrequencies
//             by up to a few float32 ulps of base').
//   longrope  long_factor iff seq_len > original_max_positions (for all positions of the call).
//   others    identical to ropeFrequencies(params).
// The module's state across calls (growth/reset caching) is not modelled: every call is fresh.
RopeFrequencies ropeRuntimeFrequencies(const RopeParams& params, std::int64_t seq_len);

// Unscaled default frequencies 1/base^(2i/r) for the same params (the "before" of a scaling).
// (With explicit theta: the theta values, as for ropeFrequencies.)
RopeFrequencies ropeDefaultFrequencies(const RopeParams& params);

// YaRN's correction range [low, high] (pair indices) after floor/ceil (truncate) and clamping to
// [0, r−1], before the +0.001 singularity guard: pairs i <= low keep their frequency, pairs
// i >= high are divided by factor, the ramp is linear in between.
struct RopeYarnRange {
    double low = 0, high = 0;
    double fastRotations = 0, slowRotations = 0;   // the β_fast and β_slow it was computed from
};
RopeYarnRange ropeYarnCorrectionRange(const RopeParams& params);

// cos/sin tables, |positions| × r, laid out for params.layout (half: cat(f, f); interleaved:
// each frequency twice in a row), already multiplied by the attention factor.
// Float32 mode: angle = f32(f32(p)·inv_freq) (torch's float32 matmul of inv_freq and the
// positions converted with .float()), cos/sin by torch's float32 functions (core/precision.h),
// times f32(attention), rounded. Double mode: cos(p·inv_freq)·attention in double.
// BFloat16/Float16: the float32 (or angle_precision) angles, cos/sin in float32 times the
// attention factor, then rounded to the dtype (transformers main's cos.to(dtype)).
// code_path meta-complex64 (not Double): cos/sin are the C library's cosf/sinf of the float32
// angle times f32(attention), rounded to float32 only (complex64's parts), for any dtype.
struct RopeTables {
    Matrix cos, sin;
};
RopeTables ropeTables(const RopeParams& params, const RopeFrequencies& freqs, const Positions& positions);

// Rotate rows of x (|positions| × head_dim, row k at positions[k]) with the tables above.
// Precondition: x.rows() == tables.cos.rows(), x.cols() == params.head_dim (both checked), finite
// entries (not checked: a pass over x is no cheap check).
// Float32 mode: x is rounded to float32 first and every elementwise operation is rounded like
// torch's `x*cos + rotate(x)*sin` (products, then the sum); pass-through channels are f32(x).
// BFloat16/Float16: the same with every rounding to the dtype.
// code_path meta-complex64: x rounded to the dtype, then the complex64 product of RopeCodePath in
// float32, rounded to the dtype at the end.
Matrix ropeApply(const RopeParams& params, const RopeTables& tables, const Matrix& x);

// Convenience: the whole pipeline with the runtime rule for dynamic/longrope:
// ropeRuntimeFrequencies(params, params.seq_len or max(positions)+1), ropeTables, ropeApply.
Matrix ropeRotate(const RopeParams& params, const Positions& positions, const Matrix& x);

// Per-pair rotation angle p·inv_freq[i] for each position (|positions| × r/2), the quantity the
// pair-vector view draws. Float32 mode rounds each angle to float32 (as ropeTables does); with
// bfloat16/float16 the angles are those of ropeAnglePrecision(params).
Matrix ropeAngles(const RopeParams& params, const RopeFrequencies& freqs, const Positions& positions);

// The dtype the angles are computed in: Double, Float32, or angle_precision for the reduced dtypes
// on the transformers path (the meta-complex64 path: Float32).
Precision ropeAnglePrecision(const RopeParams& params);

// What reduced precision does to the angles and tables (`compute precision`, docs/spec/cli.md
// "Precision"): per position (rows) and pair (columns, r/2), the angle the path uses (ropeAngles)
// minus the exact angle p·inv_freq in double, wrapped to (−π, π]; the cos and sin the path uses
// (ropeTables' entry of the pair, attention factor included) minus the exact double ones; and per
// position the largest |cos error| or |sin error| over the pairs; and the phase error, the angle of
// the rotation the path applies, atan2(sin, cos) of its table entries, minus the exact angle,
// wrapped to (−π, π] (with float32 angles in bfloat16 what remains is cos/sin's rounding: at most
// about 2^-9·√2 = 2.8e-3). The frequencies follow the
// runtime rule (seq_len = params.seq_len or max(positions)+1), in params.precision and in double.
// Precondition: params validate, positions valid and, with float16 angles, at most 65504.
struct RopePrecisionErrors {
    Matrix angle, cos, sin;
    Vector max_abs;
    Matrix phase;
};
RopePrecisionErrors ropePrecisionErrors(const RopeParams& params, const Positions& positions);
// The same for the listed pairs only (columns in the list's order; max_abs over them), in
// O(|positions|·(r/2 + |pairs|)): of the path's float32 cos/sin, only the groups of 8 table
// entries holding these pairs' entries are computed (an entry's bits depend on its group).
// Precondition: each pair in [0, r/2).
RopePrecisionErrors ropePrecisionErrors(const RopeParams& params, const Positions& positions, const std::vector<int>& pairs);

// Positions that collide in the angle dtype (ropeAnglePrecision): different integers of
// `positions` that the dtype holds as the same value, so that the model gives them the same
// angles. One entry per held value shared by two or more of the given positions, in increasing
// order of that value, each with its positions in increasing order (duplicates in the list count
// once). bfloat16 holds every integer up to 256, float16 up to 2048, float32 up to 2^24; double
// never collides. Precondition: positions valid.
struct PositionCollision {
    double value = 0;                 // the value the dtype holds
    std::vector<std::int64_t> positions;
};
std::vector<PositionCollision> ropePositionCollisions(const RopeParams& params, const Positions& positions);
// The smallest position p with p + 1 < end that the angle dtype holds as the same value as p + 1
// (rounding is monotone, so the first collision among 0 .. end−1 is between neighbours):
// bfloat16 256, float16 2048, float32 2^24; nullopt when 0 .. end−1 has none. O(answer).
std::optional<std::int64_t> ropeFirstCollision(const RopeParams& params, std::int64_t end);

// The largest position the angle dtype holds as a finite number (float16: 65504; else kMaxPosition).
std::int64_t ropeMaxFinitePosition(const RopeParams& params);

}  // namespace poslab
