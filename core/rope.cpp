#include "core/rope.h"
#include "core/ensure.h"
#include "core/parallel.h"
#include "core/precision.h"
#include "core/rope_detail.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

// Float32 mode reproduces torch's float32 tensor arithmetic. Each torch op on float32 tensors
// (and Python scalars, which torch casts to float32) is written here as the same op in double
// followed by a rounding to float32 (`rd`). For +, −, ×, ÷ of two float32 values this double
// rounding gives exactly the float32 result (53 >= 2·24 + 2). pow, cos and sin of a tensor are
// torch's own functions (core/precision.h: SLEEF in the vector blocks, the C library in the tail),
// chosen by each element's index in the tensor torch applies them to. Python-side scalar
// arithmetic (factor defaults, YaRN correction dims, attention factors, dynamic base' at init)
// stays in double, as in Python. BFloat16/Float16 compute the frequencies in float32 as well.

namespace poslab {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
constexpr double kMaxBase = 1e12;
constexpr int kMaxHeadDim = 65536;
constexpr double kMinFactor = 1e-6;
constexpr double kMaxFactor = 1e6;
// Dynamic NTK's rescaled base must stay inside float32's range (torch holds it as float32).
constexpr double kMaxDynamicBase = 1e38;

struct Rounder {
    bool f32;
    double operator()(double x) const { return f32 ? static_cast<double>(static_cast<float>(x)) : x; }
};

bool finite(double x) { return std::isfinite(x); }

// base^(2i/r), i = 0..r/2−1, as torch: exponent f32(f32(2i)/f32(r)), torch's float32 pow of
// f32(base) over the r/2 exponents (one tensor of r/2 elements).
Vector posFreqs(double base, int r, const Rounder& rd) {
    const int h = r / 2;
    Vector out(h);
    const double b = rd(base);
    for (int i = 0; i < h; ++i) {
        const double e = rd(rd(2.0 * i) / rd(static_cast<double>(r)));
        out[i] = rd.f32 ? static_cast<double>(torchPowf(static_cast<float>(b), static_cast<float>(e),
                                                        inTorchVectorBlock(static_cast<std::size_t>(i),
                                                                           static_cast<std::size_t>(h))))
                        : std::pow(b, e);
    }
    return out;
}

// 1 / base^(2i/r) (torch: `1.0 / tensor` is reciprocal(), rounded).
Vector defaultInvFreq(double base, int r, const Rounder& rd) {
    Vector p = posFreqs(base, r, rd);
    for (Eigen::Index i = 0; i < p.size(); ++i) p[i] = rd(1.0 / p[i]);
    return p;
}

// Python's get_mscale(scale, mscale) from the YaRN reference.
double yarnGetMscale(double scale, double mscale = 1.0) {
    if (scale <= 1.0) return 1.0;
    return 0.1 * mscale * std::log(scale) + 1.0;
}

double yarnCorrectionDim(double numRotations, int dim, double base, double maxPos) {
    return (dim * std::log(maxPos / (numRotations * 2 * std::numbers::pi))) / (2 * std::log(base));
}

RopeYarnRange yarnRange(const RopeParams& p) {
    const int r = p.rotaryDim();
    const double orig = static_cast<double>(p.originalMaxPositions());
    double low = yarnCorrectionDim(p.beta_fast, r, p.base, orig);
    double high = yarnCorrectionDim(p.beta_slow, r, p.base, orig);
    if (p.truncate) {
        low = std::floor(low);
        high = std::ceil(high);
    }
    return {std::max(low, 0.0), std::min(high, static_cast<double>(r - 1)), p.beta_fast, p.beta_slow};
}

// The dynamic-NTK base' for a Python-int seq_len (double arithmetic).
double dynamicBaseInit(const RopeParams& p, std::int64_t s) {
    const int r = p.rotaryDim();
    const double factor = *p.factor;
    const double maxPos = static_cast<double>(p.max_positions);
    const double sl = static_cast<double>(std::max(s, p.max_positions));
    return p.base * std::pow((factor * sl / maxPos) - (factor - 1), static_cast<double>(r) / (r - 2));
}

// The dynamic-NTK base' for a runtime int64-tensor seq_len (float32 tensor arithmetic in Float32 mode).
double dynamicBaseRuntime(const RopeParams& p, std::int64_t s, const Rounder& rd) {
    const int r = p.rotaryDim();
    const double factor = *p.factor;
    const double sl = static_cast<double>(std::max(s, p.max_positions));
    double t = rd(rd(sl) * rd(factor));                       // factor * seq_len
    t = rd(t / rd(static_cast<double>(p.max_positions)));     // / max_position_embeddings
    t = rd(t - rd(factor - 1));                               // - (factor - 1)
    t = rd(std::pow(t, static_cast<double>(r) / (r - 2)));    // ** (dim / (dim - 2))
    return rd(rd(p.base) * t);                                // base * ...
}

Vector toVector(const std::vector<double>& v, const Rounder& rd) {
    Vector out(static_cast<Eigen::Index>(v.size()));
    for (std::size_t i = 0; i < v.size(); ++i) out[static_cast<Eigen::Index>(i)] = rd(v[i]);
    return out;
}

// One pair of Llama 3's scaling (HF _compute_llama3_parameters), from its unscaled inv_freq.
struct Llama3Pair {
    double wavelength = 0, smooth = 0, inv_freq = 0;
    RopeLlama3Band band = RopeLlama3Band::Unchanged;
};
Llama3Pair llama3Pair(const RopeParams& p, double inv, const Rounder& rd) {
    const double factor = *p.factor;
    const double low = p.low_freq_factor, high = p.high_freq_factor;
    const double oldContext = static_cast<double>(p.originalMaxPositions());
    const double fT = rd(factor), lowWT = rd(oldContext / low), highWT = rd(oldContext / high);
    Llama3Pair out;
    // wavelen = 2π / inv_freq  (torch: reciprocal(inv_freq) * 2π)
    const double wl = rd.f32 ? rd(rd(1.0 / inv) * rd(kTwoPi)) : kTwoPi / inv;
    const double fl = wl > lowWT ? rd(inv / fT) : inv;
    // smooth = (old_context_len / wavelen − low) / (high − low)
    const double ratio = rd.f32 ? rd(rd(1.0 / wl) * rd(oldContext)) : oldContext / wl;
    // low == high (Llama 4 Scout: 1 and 1): the smooth band is empty; upstream divides by zero
    // only for a wavelength exactly at the edge, where it keeps the pair (no NaN here).
    const double smooth = high == low ? 0.0 : rd(rd(ratio - rd(low)) / rd(high - low));
    const double smoothed = rd(rd(rd(rd(1.0 - smooth) * fl) / fT) + rd(smooth * fl));
    const bool medium = !(wl < highWT) && !(wl > lowWT);
    out.wavelength = wl;
    out.smooth = smooth;
    out.inv_freq = medium ? smoothed : fl;
    out.band = medium ? RopeLlama3Band::Smoothed : wl > lowWT ? RopeLlama3Band::Divided : RopeLlama3Band::Unchanged;
    return out;
}

enum class SeqMode { Init, Runtime };

RopeFrequencies computeFrequencies(const RopeParams& p, std::optional<std::int64_t> seqLen, SeqMode mode) {
    const Rounder rd{p.precision != Precision::Double};
    const int r = p.rotaryDim();
    const int h = r / 2;
    RopeFrequencies out;
    out.rotary_dim = r;
    out.attention_factor = 1.0;

    if (!p.theta.empty()) {
        out.inv_freq = toVector(p.theta, rd);
        return out;
    }

    switch (p.scaling) {
    case RopeScaling::None:
        out.inv_freq = defaultInvFreq(p.base, r, rd);
        break;

    case RopeScaling::Linear: {
        out.inv_freq = defaultInvFreq(p.base, r, rd);
        const double f = rd(*p.factor);
        for (int i = 0; i < h; ++i) out.inv_freq[i] = rd(out.inv_freq[i] / f);
        break;
    }

    case RopeScaling::Dynamic: {
        double base;
        if (mode == SeqMode::Runtime && seqLen && *seqLen > p.max_positions)
            base = dynamicBaseRuntime(p, *seqLen, rd);
        else
            base = dynamicBaseInit(p, seqLen.value_or(p.max_positions));
        out.inv_freq = defaultInvFreq(base, r, rd);
        break;
    }

    case RopeScaling::Yarn: {
        const double factor = p.resolvedFactor();
        if (p.attention_factor) {
            out.attention_factor = *p.attention_factor;
        } else if (p.mscale.value_or(0.0) != 0.0 && p.mscale_all_dim.value_or(0.0) != 0.0) {
            out.attention_factor = yarnGetMscale(factor, *p.mscale) / yarnGetMscale(factor, *p.mscale_all_dim);
        } else {
            out.attention_factor = yarnGetMscale(factor);
        }
        const Vector pos = posFreqs(p.base, r, rd);
        const double f = rd(factor);
        const RopeYarnRange range = yarnRange(p);
        const double low = range.low;
        double high = range.high;
        if (low == high) high += 0.001;  // Prevent singularity (as upstream)
        const double lowT = rd(low), span = rd(high - low);
        out.inv_freq.resize(h);
        for (int i = 0; i < h; ++i) {
            const double extrap = rd(1.0 / pos[i]);
            const double interp = rd(1.0 / rd(f * pos[i]));
            const double ramp = std::clamp(rd(rd(rd(static_cast<double>(i)) - lowT) / span), 0.0, 1.0);
            const double extrapFactor = rd(1.0 - ramp);
            out.inv_freq[i] = rd(rd(interp * rd(1.0 - extrapFactor)) + rd(extrap * extrapFactor));
        }
        break;
    }

    case RopeScaling::LongRope: {
        const double factor = p.resolvedFactor();
        const double orig = static_cast<double>(p.originalMaxPositions());
        if (p.attention_factor)
            out.attention_factor = *p.attention_factor;
        else if (factor <= 1.0)
            out.attention_factor = 1.0;
        else
            out.attention_factor = std::sqrt(1 + std::log(factor) / std::log(orig));
        const bool useLong = seqLen && *seqLen > p.originalMaxPositions();
        const Vector ext = toVector(useLong ? p.long_factor : p.short_factor, rd);
        const Vector pos = posFreqs(p.base, r, rd);
        out.inv_freq.resize(h);
        for (int i = 0; i < h; ++i) out.inv_freq[i] = rd(1.0 / rd(ext[i] * pos[i]));
        break;
    }

    case RopeScaling::Llama3: {
        const Vector inv = defaultInvFreq(p.base, r, rd);
        out.inv_freq.resize(h);
        for (int i = 0; i < h; ++i) out.inv_freq[i] = llama3Pair(p, inv[i], rd).inv_freq;
        break;
    }
    }
    return out;
}

ParamError rangeError(const std::string& name, const std::string& valid, double got) {
    return ParamError{name, valid, formatNumber(got)};
}

// A list of exactly n numbers (its entries' range is the table's).
Check checkListSize(const std::string& name, const std::vector<double>& v, std::size_t n) {
    if (v.size() != n)
        return ParamError{name, formatInt(static_cast<std::int64_t>(n)) + " numbers (rotary_dim/2)",
                          formatInt(static_cast<std::int64_t>(v.size())) + " numbers"};
    return std::nullopt;
}

}  // namespace

// ----------------------------------------------------------------------------------- params

const ParamTable<RopeParams>& ropeParamTable() {
    using K = ParamKind;
    static const ParamTable<RopeParams> t = {
        field<&RopeParams::head_dim>({.name = "head_dim", .kind = K::Int, .lo = 2, .hi = kMaxHeadDim, .even = true,
                                      .label = "Head dimension", .help = "head dimension", .flags = kParamShared}),
        field<&RopeParams::base>({.name = "base", .kind = K::Real, .lo = 1, .hi = kMaxBase, .loOpen = true,
                                  .label = "Base θ", .help = "rope theta", .flags = kParamSlider,
                                  .sliderLo = 10, .sliderHi = 1e7}),
        field<&RopeParams::partial_rotary_factor>(
            {.name = "partial_rotary_factor", .kind = K::Real, .lo = 0, .hi = 1, .loOpen = true,
             .label = "Partial rotary factor",
             .help = "rotary_dim = int(head_dim*F), even; the exponent uses rotary_dim (GPT-NeoX)",
             .resets = "rotary_dim"}),
        field<&RopeParams::rotary_dim>({.name = "rotary_dim", .kind = K::Int, .lo = 2, .hi = kMaxHeadDim, .even = true,
                                        .label = "Rotary dim",
                                        .help = "rotate only the first N channels; frequencies use N (GPT-J); "
                                                "not with the partial rotary factor",
                                        .unset = "from the partial factor", .validNote = "(at most head_dim)",
                                        .resets = "partial_rotary_factor", .flags = kParamZeroUnset}),
        field<&RopeParams::scaling>({.name = "scaling", .kind = K::Choice, .label = "Scaling", .help = "RoPE scaling type",
                                     .choiceLabels = {"none", "linear (position interpolation)", "dynamic NTK", "YaRN",
                                                      "LongRoPE", "Llama 3"}}),
        field<&RopeParams::factor>({.name = "factor", .kind = K::Real, .lo = kMinFactor, .hi = kMaxFactor,
                                    .optional = true, .label = "Factor", .help = "scaling factor",
                                    .unset = "yarn, longrope: max/original max positions; linear, dynamic, llama3: required"}).when([](const RopeParams& r) { return r.scaling != RopeScaling::None; }),
        field<&RopeParams::max_positions>({.name = "max_positions", .kind = K::Int, .lo = 1,
                                           .hi = static_cast<double>(kMaxPosition), .label = "Max positions",
                                           .help = "max_position_embeddings", .unit = "tokens"}),
        field<&RopeParams::original_max_positions>(
            {.name = "original_max_positions", .kind = K::Int, .lo = 1, .hi = static_cast<double>(kMaxPosition),
             .optional = true, .label = "Original max positions", .help = "original_max_position_embeddings",
             .unit = "tokens", .unset = "= max-positions"}).when([](const RopeParams& r) {
                return r.scaling == RopeScaling::Yarn || r.scaling == RopeScaling::LongRope || r.scaling == RopeScaling::Llama3;
            }),
        field<&RopeParams::seq_len>({.name = "seq_len", .kind = K::Int, .lo = 1, .hi = static_cast<double>(kMaxPosition + 1),
                                     .optional = true, .label = "Sequence length",
                                     .help = "current sequence length (dynamic, longrope)", .unit = "tokens",
                                     .unset = "the sequence length (the runtime rule)"}).when([](const RopeParams& r) { return r.scaling == RopeScaling::Dynamic || r.scaling == RopeScaling::LongRope; }),
        field<&RopeParams::beta_fast>({.name = "beta_fast", .kind = K::Real, .lo = 0, .hi = kMaxFactor, .loOpen = true,
                                       .label = "β fast", .help = "YaRN beta_fast: rotations at which the ramp starts"}).when([](const RopeParams& r) { return r.scaling == RopeScaling::Yarn; }),
        field<&RopeParams::beta_slow>({.name = "beta_slow", .kind = K::Real, .lo = 0, .hi = kMaxFactor, .loOpen = true,
                                       .label = "β slow", .help = "YaRN beta_slow: rotations at which the ramp ends"}).when([](const RopeParams& r) { return r.scaling == RopeScaling::Yarn; }),
        field<&RopeParams::mscale>({.name = "mscale", .kind = K::Real, .lo = 0, .hi = kMaxFactor, .optional = true,
                                    .label = "mscale", .help = "YaRN mscale (DeepSeek)"})
            .when([](const RopeParams& r) {   // attention factor mscale/mscale_all_dim: both, and none given
                return r.scaling == RopeScaling::Yarn && !r.attention_factor && r.mscale_all_dim.value_or(0.0) != 0.0;
            }, "with yarn scaling, a nonzero mscale_all_dim and no explicit attention factor (YaRN's factor is mscale/mscale_all_dim)"),
        field<&RopeParams::mscale_all_dim>({.name = "mscale_all_dim", .kind = K::Real, .lo = 0, .hi = kMaxFactor,
                                            .optional = true, .label = "mscale_all_dim",
                                            .help = "YaRN mscale_all_dim (DeepSeek)"})
            .when([](const RopeParams& r) {
                return r.scaling == RopeScaling::Yarn && !r.attention_factor && r.mscale.value_or(0.0) != 0.0;
            }, "with yarn scaling, a nonzero mscale and no explicit attention factor (YaRN's factor is mscale/mscale_all_dim)"),
        field<&RopeParams::truncate>({.name = "truncate", .kind = K::Bool, .label = "Truncate",
                                      .help = "YaRN: floor/ceil the correction range (off: fractional, gpt-oss)"}).when([](const RopeParams& r) { return r.scaling == RopeScaling::Yarn; }),
        field<&RopeParams::attention_factor>({.name = "attention_factor", .kind = K::Real, .lo = 0, .hi = kMaxFactor,
                                              .loOpen = true, .optional = true, .label = "Attention factor",
                                              .help = "explicit attention factor (yarn, longrope)", .unset = "derived"}).when([](const RopeParams& r) { return r.scaling == RopeScaling::Yarn || r.scaling == RopeScaling::LongRope; }),
        field<&RopeParams::low_freq_factor>({.name = "low_freq_factor", .kind = K::Real, .lo = 0, .hi = kMaxFactor,
                                             .loOpen = true, .label = "Low-freq factor", .help = "Llama 3 low_freq_factor"}).when([](const RopeParams& r) { return r.scaling == RopeScaling::Llama3; }),
        field<&RopeParams::high_freq_factor>({.name = "high_freq_factor", .kind = K::Real, .lo = 0, .hi = kMaxFactor,
                                              .loOpen = true, .label = "High-freq factor", .help = "Llama 3 high_freq_factor",
                                              .validNote = "and >= low_freq_factor"}).when([](const RopeParams& r) { return r.scaling == RopeScaling::Llama3; }),
        field<&RopeParams::short_factor>({.name = "short_factor", .kind = K::RealList, .lo = kMinFactor, .hi = kMaxFactor,
                                          .label = "Short factor", .help = "LongRoPE short factors, rotary_dim/2 numbers",
                                          .unset = "required for longrope"}).when([](const RopeParams& r) { return r.scaling == RopeScaling::LongRope; }),
        field<&RopeParams::long_factor>({.name = "long_factor", .kind = K::RealList, .lo = kMinFactor, .hi = kMaxFactor,
                                         .label = "Long factor", .help = "LongRoPE long factors, rotary_dim/2 numbers",
                                         .unset = "required for longrope"}).when([](const RopeParams& r) { return r.scaling == RopeScaling::LongRope; }),
        field<&RopeParams::theta>({.name = "theta", .kind = K::RealList, .lo = 0, .hi = kMaxFactor, .loOpen = true,
                                   .label = "Explicit θ",
                                   .help = "explicit per-pair frequencies, rotary_dim/2 numbers (replaces base and scaling)",
                                   .unset = "none", .flags = kParamApplyOnly}),
        field<&RopeParams::layout>({.name = "layout", .kind = K::Choice, .label = "Layout",
                                    .help = "half: pairs (j, j+r/2) (Llama/NeoX); interleaved: pairs (2i, 2i+1) "
                                            "(GPT-J/Meta/RoFormer)",
                                    .flags = kParamApplyOnly,
                                    .choiceLabels = {"half-split (Llama, NeoX)", "interleaved (GPT-J, Meta)"}}),
        field<&RopeParams::precision>({.name = "precision", .kind = K::Choice, .label = "Precision",
                                       .help = "float32 reproduces the frameworks' float32 rounding; double is exact; "
                                               "bfloat16/float16: the model in that dtype as transformers main runs it",
                                       .flags = kParamShared}),
        field<&RopeParams::angle_precision>(
            {.name = "angle_precision", .kind = K::Choice, .label = "Angle precision",
             .help = "dtype the angles position·inv_freq are built in with --precision bfloat16/float16: float32 "
                     "(transformers main) or the model dtype (legacy paths)",
             .flags = kParamApplyOnly, .choices = {"float32", "bfloat16", "float16"},
             .choiceLabels = {"float32 (transformers main)", "bfloat16 (legacy)", "float16 (legacy)"}})
            .when([](const RopeParams& r) { return r.precision == Precision::BFloat16 || r.precision == Precision::Float16; }),
        field<&RopeParams::code_path>(
            {.name = "code_path", .kind = K::Choice, .label = "Code path",
             .help = "whose float32/bfloat16/float16 rotation: transformers (cos/sin cast to the dtype, "
                     "x*cos + rotate_half(x)*sin) or meta-complex64 (Meta llama: torch.polar complex64 "
                     "freqs_cis times x viewed as complex, cast back; needs --layout interleaved)",
             .flags = kParamApplyOnly,
             .choiceLabels = {"transformers (cos/sin in the dtype)", "Meta complex64 (polar, interleaved)"}})
            .when([](const RopeParams& r) { return r.precision != Precision::Double; }),
    };
    return t;
}

int RopeParams::rotaryDim() const {
    if (rotary_dim != 0) return rotary_dim;
    return static_cast<int>(head_dim * partial_rotary_factor);  // Python int(): truncation
}

std::int64_t RopeParams::originalMaxPositions() const { return original_max_positions.value_or(max_positions); }

bool RopeParams::readsMaxPositions() const {
    if (!theta.empty()) return false;
    const bool ramp = scaling == RopeScaling::Yarn || scaling == RopeScaling::LongRope;
    return scaling == RopeScaling::Dynamic || ((ramp || scaling == RopeScaling::Llama3) && !original_max_positions) ||
           (ramp && !factor);
}

double RopeParams::resolvedFactor() const {
    if (factor) return *factor;
    if (scaling == RopeScaling::Yarn || scaling == RopeScaling::LongRope)
        return static_cast<double>(max_positions) / static_cast<double>(originalMaxPositions());
    return 1.0;
}

Check RopeParams::validate() const {
    if (auto e = checkParams(ropeParamTable(), *this)) return e;
    if (rotary_dim != 0) {
        if (partial_rotary_factor != 1.0)
            return ParamError{"rotary_dim", "unset (0) when partial_rotary_factor is given; use one of them",
                              formatInt(rotary_dim)};
        if (rotary_dim < 2 || rotary_dim > head_dim || rotary_dim % 2 != 0)
            return ParamError{"rotary_dim", "an even integer from 2 to head_dim (" + formatInt(head_dim) + ")",
                              formatInt(rotary_dim)};
    } else {
        const int r = rotaryDim();
        if (r < 2 || r % 2 != 0)
            return ParamError{"partial_rotary_factor",
                              "a factor F in (0, 1] with int(head_dim·F) even and >= 2",
                              formatNumber(partial_rotary_factor) + " (int(" + formatInt(head_dim) + "·" +
                                  formatNumber(partial_rotary_factor) + ") = " + formatInt(r) + ")"};
    }
    const int r = rotaryDim();
    const auto half = static_cast<std::size_t>(r / 2);
    if (code_path == RopeCodePath::MetaComplex64 && layout != RopeLayout::Interleaved)
        return ParamError{"layout",
                          "interleaved with code_path meta-complex64 (view_as_complex pairs channels 2i, 2i+1)",
                          std::string(enumKey(layout))};

    // Equal factors are what Llama 4 Scout ships (upstream warns and computes: no smooth band).
    if (high_freq_factor < low_freq_factor)
        return rangeError("high_freq_factor",
                          "a number >= low_freq_factor (" + formatNumber(low_freq_factor) + ") and <= 1e6",
                          high_freq_factor);
    const bool longrope = scaling == RopeScaling::LongRope && theta.empty();
    if (longrope) {
        if (auto e = checkListSize("short_factor", short_factor, half)) return e;
        if (auto e = checkListSize("long_factor", long_factor, half)) return e;
    }
    if (!theta.empty())
        if (auto e = checkListSize("theta", theta, half)) return e;

    if (!theta.empty()) return std::nullopt;  // explicit frequencies replace the scaling

    if ((scaling == RopeScaling::Yarn || scaling == RopeScaling::LongRope) && !factor) {
        const double f = resolvedFactor();
        if (f < kMinFactor || f > kMaxFactor)
            return ParamError{"original_max_positions",
                              "a value with max_positions/original_max_positions (the default factor) from 1e-6 to 1e6",
                              formatInt(originalMaxPositions()) + " (factor " + formatNumber(f) + ")"};
    }

    const bool needsFactor =
        scaling == RopeScaling::Linear || scaling == RopeScaling::Dynamic || scaling == RopeScaling::Llama3;
    if (needsFactor && !factor)
        return ParamError{"factor", "a number from 1e-6 to 1e6 (required for linear, dynamic and llama3 scaling)",
                          "none"};
    if (scaling == RopeScaling::Dynamic) {
        if (r < 4)
            return ParamError{"rotary_dim", "at least 4 rotated channels for dynamic scaling (exponent r/(r−2))",
                              formatInt(r)};
        const std::int64_t worst = std::max(seq_len.value_or(kMaxPosition + 1), max_positions);
        const Rounder rd{precision != Precision::Double};
        const double b1 = dynamicBaseInit(*this, worst);
        const double b2 = dynamicBaseRuntime(*this, worst, rd);
        if (!finite(b1) || !finite(b2) || b1 > kMaxDynamicBase || b2 > kMaxDynamicBase)
            return rangeError("factor",
                              "a factor for which dynamic NTK's base·(factor·seq_len/max_positions − factor + 1)"
                              "^(r/(r−2)) stays <= 1e38 (float32 range) up to seq_len " +
                                  formatInt(worst),
                              *factor);
    }
    if (scaling == RopeScaling::LongRope && !attention_factor && resolvedFactor() > 1.0 &&
        originalMaxPositions() < 2)
        return ParamError{"original_max_positions",
                          "an integer >= 2 for longrope's derived attention factor sqrt(1 + ln(factor)/ln(original))",
                          formatInt(originalMaxPositions())};
    return std::nullopt;
}

// ------------------------------------------------------------------------------ frequencies

Vector RopeFrequencies::wavelength() const {
    Vector w(inv_freq.size());
    for (Eigen::Index i = 0; i < inv_freq.size(); ++i) w[i] = kTwoPi / inv_freq[i];
    return w;
}

RopeFrequencies ropeFrequencies(const RopeParams& params, std::optional<std::int64_t> seq_len) {
    return computeFrequencies(params, seq_len ? seq_len : params.seq_len, SeqMode::Init);
}

RopeFrequencies ropeRuntimeFrequencies(const RopeParams& params, std::int64_t seq_len) {
    return computeFrequencies(params, seq_len, SeqMode::Runtime);
}

RopeFrequencies ropeDefaultFrequencies(const RopeParams& params) {
    RopeParams p = params;
    p.scaling = RopeScaling::None;
    return computeFrequencies(p, std::nullopt, SeqMode::Init);
}

RopeYarnRange ropeYarnCorrectionRange(const RopeParams& params) { return yarnRange(params); }

// ----------------------------------------------------------------------------------- tables

Precision ropeAnglePrecision(const RopeParams& params) {
    if (params.precision == Precision::Double) return Precision::Double;
    if (params.precision == Precision::Float32 || params.code_path == RopeCodePath::MetaComplex64)
        return Precision::Float32;
    return params.angle_precision;
}

Matrix ropeAngles(const RopeParams& params, const RopeFrequencies& freqs, const Positions& positions) {
    // The angle dtype A: float32 (transformers main), or bfloat16/float16 (the legacy paths:
    // positions and inv_freq cast to A, the product computed in float32 and rounded to A).
    const Precision ap = ropeAnglePrecision(params);
    const auto n = static_cast<Eigen::Index>(positions.size());
    const Eigen::Index h = freqs.inv_freq.size();
    Vector inv(h);
    for (Eigen::Index i = 0; i < h; ++i) inv[i] = roundToPrecision(ap, freqs.inv_freq[i]);
    Matrix a(n, h);
    for (Eigen::Index k = 0; k < n; ++k) {
        const double p = roundToPrecision(ap, static_cast<double>(positions[static_cast<std::size_t>(k)]));
        for (Eigen::Index i = 0; i < h; ++i) a(k, i) = roundToPrecision(ap, p * inv[i]);
    }
    return a;
}

namespace {

// Whether the rotation is Meta's complex64 one (RopeCodePath), which needs float32 or a reduced dtype.
bool metaComplex(const RopeParams& params) {
    return params.code_path == RopeCodePath::MetaComplex64 && params.precision != Precision::Double;
}

// freqs_cis = torch.polar(1, angle)·attention in complex64: torch 1.13's CPU polar kernel computes
// abs·std::cos(angle), abs·std::sin(angle) per element with the C library's float functions.
void metaCosSin(double angle, double att, double& c, double& s) {
    const auto a = static_cast<float>(angle);
    const float cf = std::cos(a), sf = std::sin(a);
    c = static_cast<double>(cf);
    s = static_cast<double>(sf);
    if (att != 1.0) {
        c = static_cast<double>(static_cast<float>(c * att));
        s = static_cast<double>(static_cast<float>(s * att));
    }
}

}  // namespace

RopeTables ropeTables(const RopeParams& params, const RopeFrequencies& freqs, const Positions& positions) {
    const Rounder rd{params.precision != Precision::Double};
    const Precision dtype = params.precision;
    const Matrix a = ropeAngles(params, freqs, positions);
    const Eigen::Index n = a.rows(), h = a.cols(), r = 2 * h;
    const double att = rd(freqs.attention_factor);
    const bool inter = params.layout == RopeLayout::Interleaved;
    // torch computes cos and sin of the whole [n, r] table (cat(f, f), or each frequency twice)
    // at once, and an entry's bits depend on its neighbours in that tensor (core/precision.h).
    const auto total = static_cast<std::size_t>(n) * static_cast<std::size_t>(r);
    RopeTables t{Matrix(n, r), Matrix(n, r)};
    if (metaComplex(params)) {
        for (Eigen::Index k = 0; k < n; ++k)
            for (Eigen::Index j = 0; j < r; ++j) metaCosSin(a(k, inter ? j / 2 : j % h), att, t.cos(k, j), t.sin(k, j));
        return t;
    }
    std::vector<float> emb, cosv, sinv;
    if (rd.f32) {
        emb.resize(total);
        cosv.resize(total);
        sinv.resize(total);
    }
    // Rows in pieces on the caller's threads (core/parallel.h). A piece of 64 rows holds 64·r
    // entries, a multiple of 16, so torchCosSin's groups of 8 (two at a time with AVX-512) fall
    // where they fall for the whole tensor, and only the last piece holds its tail: the same bits
    // as one call over the whole tensor, whichever thread runs which piece.
    constexpr Eigen::Index piece = 64;
    parallelFor(static_cast<std::size_t>((n + piece - 1) / piece), [&](std::size_t b0, std::size_t b1) {
        const Eigen::Index k0 = static_cast<Eigen::Index>(b0) * piece, k1 = std::min(n, static_cast<Eigen::Index>(b1) * piece);
        if (rd.f32) {
            for (Eigen::Index k = k0; k < k1; ++k)
                for (Eigen::Index j = 0; j < r; ++j)
                    emb[static_cast<std::size_t>(k * r + j)] = static_cast<float>(a(k, inter ? j / 2 : j % h));
            const auto e0 = static_cast<std::size_t>(k0 * r);
            torchCosSin(emb.data() + e0, static_cast<std::size_t>((k1 - k0) * r), cosv.data() + e0, sinv.data() + e0);
        }
        for (Eigen::Index k = k0; k < k1; ++k) {
            for (Eigen::Index j = 0; j < r; ++j) {
                const Eigen::Index i = inter ? j / 2 : j % h;
                double c, s;
                if (rd.f32) {
                    const auto e = static_cast<std::size_t>(k * r + j);
                    c = roundToPrecision(dtype, rd(static_cast<double>(cosv[e]) * att));
                    s = roundToPrecision(dtype, rd(static_cast<double>(sinv[e]) * att));
                } else {
                    c = std::cos(a(k, i)) * att;
                    s = std::sin(a(k, i)) * att;
                }
                t.cos(k, j) = c;
                t.sin(k, j) = s;
            }
        }
    });
    return t;
}

Matrix ropeApply(const RopeParams& params, const RopeTables& tables, const Matrix& x) {
    // Each elementwise op of x·cos + rotate_half(x)·sin computed in float32 and rounded to the dtype.
    // The entries' finiteness is not checked: a pass over x is not a cheap check.
    POSLAB_ENSURE(x.rows() == tables.cos.rows(), "x.rows() == tables.cos.rows()");
    POSLAB_ENSURE(x.cols() == params.head_dim, "x.cols() == params.head_dim");
    const auto rd = [p = params.precision](double v) { return roundToPrecision(p, v); };
    const Eigen::Index n = x.rows(), d = x.cols(), r = tables.cos.cols(), h = r / 2;
    const bool inter = params.layout == RopeLayout::Interleaved;
    Matrix out(n, d);
    if (metaComplex(params)) {
        // Meta: x.float() as complex64 times freqs_cis, .type_as(x). Products of two floats are
        // exact in double, so f32(f32(a·b) ∓ f32(c·d)) is the float32 arithmetic without fma.
        const auto f32 = [](double v) { return static_cast<double>(static_cast<float>(v)); };
        const Eigen::Index total = n * h, tail = total % 8, fmaEnd = total - tail + 2 * (tail / 2);
        for (Eigen::Index k = 0; k < n; ++k) {
            for (Eigen::Index c = r; c < d; ++c) out(k, c) = rd(x(k, c));
            for (Eigen::Index i = 0; i < h; ++i) {
                const Eigen::Index j0 = 2 * i, j1 = 2 * i + 1, e = k * h + i;
                const double x0 = rd(x(k, j0)), x1 = rd(x(k, j1));
                const double c = tables.cos(k, j0), s = tables.sin(k, j0);
                if (e >= total - tail && e < fmaEnd) {
                    // torch's scalar tail, two elements at a time: re = fma(x0, c, −f32(x1·s)),
                    // im = fma(x0, s, f32(x1·c)).
                    const auto a = static_cast<float>(x0);
                    out(k, j0) = rd(static_cast<double>(std::fma(a, static_cast<float>(c), -static_cast<float>(x1 * s))));
                    out(k, j1) = rd(static_cast<double>(std::fma(a, static_cast<float>(s), static_cast<float>(x1 * c))));
                } else {
                    out(k, j0) = rd(f32(f32(x0 * c) - f32(x1 * s)));
                    out(k, j1) = rd(f32(f32(x0 * s) + f32(x1 * c)));
                }
            }
        }
        return out;
    }
    for (Eigen::Index k = 0; k < n; ++k) {
        for (Eigen::Index c = r; c < d; ++c) out(k, c) = rd(x(k, c));
        for (Eigen::Index i = 0; i < h; ++i) {
            const Eigen::Index j0 = inter ? 2 * i : i, j1 = inter ? 2 * i + 1 : i + h;
            const double x0 = rd(x(k, j0)), x1 = rd(x(k, j1));
            // out = x*cos + rotate(x)*sin, rotate(x)[j0] = −x[j1], rotate(x)[j1] = x[j0]
            out(k, j0) = rd(rd(x0 * tables.cos(k, j0)) + rd(-x1 * tables.sin(k, j0)));
            out(k, j1) = rd(rd(x1 * tables.cos(k, j1)) + rd(x0 * tables.sin(k, j1)));
        }
    }
    return out;
}

Matrix ropeRotate(const RopeParams& params, const Positions& positions, const Matrix& x) {
    std::int64_t seq = 1;
    if (params.seq_len) {
        seq = *params.seq_len;
    } else if (!positions.empty()) {
        seq = *std::max_element(positions.begin(), positions.end()) + 1;
    }
    const RopeFrequencies freqs = ropeRuntimeFrequencies(params, seq);
    return ropeApply(params, ropeTables(params, freqs, positions), x);
}

std::int64_t ropeMaxFinitePosition(const RopeParams& params) {
    return ropeAnglePrecision(params) == Precision::Float16 ? 65504 : kMaxPosition;
}

namespace {

// ropeTables' cos and sin at column j(i) (half: i; interleaved: 2i) of every row, for the listed
// pairs only (n × |pairs|), bit for bit: torch's float32 cos/sin of an entry depend on the group
// of 8 it sits in, counted from the start of the [n, r] table (the last one zero-padded), so
// exactly those groups are computed, each whole.
RopeTables ropeTablePairs(const RopeParams& params, const RopeFrequencies& freqs, const Positions& positions,
                          const std::vector<int>& pairs) {
    const Rounder rd{params.precision != Precision::Double};
    const Precision dtype = params.precision;
    const Matrix a = ropeAngles(params, freqs, positions);
    const Eigen::Index n = a.rows(), h = a.cols(), r = 2 * h;
    const auto np = static_cast<Eigen::Index>(pairs.size());
    const double att = rd(freqs.attention_factor);
    const bool inter = params.layout == RopeLayout::Interleaved;
    RopeTables t{Matrix(n, np), Matrix(n, np)};
    const auto column = [&](int i) { return inter ? Eigen::Index(2) * i : Eigen::Index(i); };
    if (metaComplex(params)) {
        for (Eigen::Index k = 0; k < n; ++k)
            for (Eigen::Index c = 0; c < np; ++c) metaCosSin(a(k, pairs[static_cast<std::size_t>(c)]), att, t.cos(k, c), t.sin(k, c));
        return t;
    }
    if (!rd.f32) {
        for (Eigen::Index k = 0; k < n; ++k)
            for (Eigen::Index c = 0; c < np; ++c) {
                const double x = a(k, pairs[static_cast<std::size_t>(c)]);
                t.cos(k, c) = std::cos(x) * att;
                t.sin(k, c) = std::sin(x) * att;
            }
        return t;
    }
    const auto total = static_cast<std::size_t>(n) * static_cast<std::size_t>(r);
    std::vector<std::size_t> groups;
    groups.reserve(static_cast<std::size_t>(n * np));
    for (Eigen::Index k = 0; k < n; ++k)
        for (int i : pairs) groups.push_back(static_cast<std::size_t>(k * r + column(i)) / 8);
    std::sort(groups.begin(), groups.end());
    groups.erase(std::unique(groups.begin(), groups.end()), groups.end());
    std::vector<float> emb(groups.size() * 8, 0.0f), cosv(emb.size()), sinv(emb.size());
    for (std::size_t g = 0; g < groups.size(); ++g)
        for (std::size_t l = 0; l < 8; ++l) {
            const std::size_t e = groups[g] * 8 + l;
            if (e >= total) break;   // the table's last group: zero-padded, as torchCosSin does
            const auto k = static_cast<Eigen::Index>(e / static_cast<std::size_t>(r)), j = static_cast<Eigen::Index>(e % static_cast<std::size_t>(r));
            emb[g * 8 + l] = static_cast<float>(a(k, inter ? j / 2 : j % h));
        }
    torchCosSin(emb.data(), emb.size(), cosv.data(), sinv.data());
    for (Eigen::Index k = 0; k < n; ++k)
        for (Eigen::Index c = 0; c < np; ++c) {
            const std::size_t e = static_cast<std::size_t>(k * r + column(pairs[static_cast<std::size_t>(c)]));
            const std::size_t g = static_cast<std::size_t>(std::lower_bound(groups.begin(), groups.end(), e / 8) - groups.begin());
            const std::size_t at = g * 8 + e % 8;
            t.cos(k, c) = roundToPrecision(dtype, rd(static_cast<double>(cosv[at]) * att));
            t.sin(k, c) = roundToPrecision(dtype, rd(static_cast<double>(sinv[at]) * att));
        }
    return t;
}

}  // namespace

RopePrecisionErrors ropePrecisionErrors(const RopeParams& params, const Positions& positions, const std::vector<int>& pairs) {
    POSLAB_ENSURE(!params.validate(), "params validate");
    POSLAB_ENSURE(!validatePositions(positions), "positions valid");
    POSLAB_ENSURE(ropeAnglePrecision(params) != Precision::Float16 ||
                      *std::max_element(positions.begin(), positions.end()) <= 65504,
                  "positions at most 65504 with float16 angles");
    POSLAB_ENSURE(std::all_of(pairs.begin(), pairs.end(), [h = params.rotaryDim() / 2](int i) { return i >= 0 && i < h; }),
                  "each pair in [0, r/2)");
    std::int64_t seq = 1;
    if (params.seq_len) {
        seq = *params.seq_len;
    } else if (!positions.empty()) {
        seq = *std::max_element(positions.begin(), positions.end()) + 1;
    }
    RopeParams exact = params;
    exact.precision = Precision::Double;
    const RopeFrequencies f = ropeRuntimeFrequencies(params, seq);
    const RopeFrequencies fx = ropeRuntimeFrequencies(exact, seq);
    // The path's angles and its table entries for the pairs asked (ropeTablePairs: bit for bit
    // ropeTables'); the exact ones: p·inv_freq, cos and sin of it times the attention factor, all
    // in double (what ropeTables computes in Double mode).
    const Matrix a = ropeAngles(params, f, positions);
    const RopeTables t = ropeTablePairs(params, f, positions, pairs);
    const auto n = static_cast<Eigen::Index>(positions.size());
    const auto h = static_cast<Eigen::Index>(pairs.size());
    RopePrecisionErrors e{Matrix(n, h), Matrix(n, h), Matrix(n, h), Vector::Zero(n), Matrix(n, h)};
    const auto wrap = [](double d) {
        d = std::remainder(d, kTwoPi);   // [−π, π]
        return d <= -std::numbers::pi ? std::numbers::pi : d;
    };
    for (Eigen::Index k = 0; k < n; ++k) {
        const double p = static_cast<double>(positions[static_cast<std::size_t>(k)]);
        for (Eigen::Index c = 0; c < h; ++c) {
            const int i = pairs[static_cast<std::size_t>(c)];
            const double ax = p * fx.inv_freq[i];
            e.angle(k, c) = wrap(a(k, i) - ax);
            e.phase(k, c) = wrap(std::atan2(t.sin(k, c), t.cos(k, c)) - ax);
            e.cos(k, c) = t.cos(k, c) - std::cos(ax) * fx.attention_factor;
            e.sin(k, c) = t.sin(k, c) - std::sin(ax) * fx.attention_factor;
            e.max_abs[k] = std::max({e.max_abs[k], std::abs(e.cos(k, c)), std::abs(e.sin(k, c))});
        }
    }
    return e;
}

RopePrecisionErrors ropePrecisionErrors(const RopeParams& params, const Positions& positions) {
    std::vector<int> all(static_cast<std::size_t>(params.rotaryDim() / 2));
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
    return ropePrecisionErrors(params, positions, all);
}

std::vector<PositionCollision> ropePositionCollisions(const RopeParams& params, const Positions& positions) {
    POSLAB_ENSURE(!validatePositions(positions), "positions valid");
    const Precision ap = ropeAnglePrecision(params);
    std::vector<std::int64_t> sorted = positions;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    // Rounding is monotone: positions holding the same value are consecutive in sorted order.
    std::vector<PositionCollision> out;
    for (std::size_t a = 0; a < sorted.size();) {
        const double v = roundToPrecision(ap, static_cast<double>(sorted[a]));
        std::size_t b = a + 1;
        while (b < sorted.size() && roundToPrecision(ap, static_cast<double>(sorted[b])) == v) ++b;
        if (b - a > 1)
            out.push_back({v, std::vector<std::int64_t>(sorted.begin() + static_cast<std::ptrdiff_t>(a),
                                                        sorted.begin() + static_cast<std::ptrdiff_t>(b))});
        a = b;
    }
    return out;
}

std::optional<std::int64_t> ropeFirstCollision(const RopeParams& params, std::int64_t end) {
    const Precision ap = ropeAnglePrecision(params);
    if (ap == Precision::Double) return std::nullopt;
    double prev = roundToPrecision(ap, 0.0);
    for (std::int64_t q = 1; q < end; ++q) {
        const double v = roundToPrecision(ap, static_cast<double>(q));
        if (v == prev) return q - 1;
        prev = v;
    }
    return std::nullopt;
}

// ============================================================================ rope_detail.h
RopeDynamicBase ropeDynamicBase(const RopeParams& params, std::optional<std::int64_t> seq_len) {
    POSLAB_ENSURE(params.scaling == RopeScaling::Dynamic, "params.scaling == Dynamic");
    POSLAB_ENSURE(!params.validate(), "params validate");
    const std::int64_t s = seq_len ? *seq_len : params.seq_len.value_or(params.max_positions);
    return {std::max(s, params.max_positions), dynamicBaseInit(params, s)};
}

RopeLlama3Detail ropeLlama3Detail(const RopeParams& params) {
    POSLAB_ENSURE(params.scaling == RopeScaling::Llama3, "params.scaling == Llama3");
    POSLAB_ENSURE(!params.validate(), "params validate");
    const Rounder rd{params.precision != Precision::Double};
    const Vector inv = defaultInvFreq(params.base, params.rotaryDim(), rd);
    const double orig = static_cast<double>(params.originalMaxPositions());
    RopeLlama3Detail d;
    d.highFreqWavelength = orig / params.high_freq_factor;
    d.lowFreqWavelength = orig / params.low_freq_factor;
    d.wavelength.resize(inv.size());
    d.smooth.resize(inv.size());
    for (Eigen::Index i = 0; i < inv.size(); ++i) {
        const Llama3Pair pr = llama3Pair(params, inv[i], rd);
        d.wavelength[i] = pr.wavelength;
        d.smooth[i] = pr.smooth;
        d.band.push_back(pr.band);
    }
    return d;
}

}  // namespace poslab
