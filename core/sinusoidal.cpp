#include "core/sinusoidal.h"

#include <cmath>

namespace poslab {

namespace {

constexpr int kMaxDim = 65536;

int frequencyCount(const SinusoidalParams& p) {
    return p.layout == SinusoidalLayout::Interleaved ? (p.dim + 1) / 2 : p.dim / 2;
}

// How one row is computed: the frequency (as a double holding the value the reference uses),
// and whether the angle is formed as p / divisor (DistilBERT's `pos / 10000**(2i/d)`) or p · w.
struct Frequency {
    double w = 0;          // angular frequency
    double divisor = 0;    // > 0: angle = p / divisor (double maths); 0: angle = p · w
};

// Exact-double frequencies (Double precision, and the interleaved float32 reference, whose
// maths is double and only the stored result is float32).
std::vector<Frequency> doubleFrequencies(const SinusoidalParams& p, int k) {
    std::vector<Frequency> f(static_cast<std::size_t>(k));
    if (p.frequencies == SinusoidalFrequencies::Vaswani) {
        for (int i = 0; i < k; ++i) {
            const double divisor = std::pow(p.base, static_cast<double>(2 * i) / p.dim);
            f[std::size_t(i)] = {1.0 / divisor, divisor};
        }
    } else {
        const double inc = std::log(p.base / p.min_timescale) / std::max(k - 1, 1);
        for (int i = 0; i < k; ++i)
            f[std::size_t(i)] = {p.min_timescale * std::exp(-static_cast<double>(i) * inc), 0.0};
    }
    return f;
}

// float32 frequencies of the concat references.
//   vaswani (Transformer-XL / GPT-J): inv_freq = 1 / (base ** (arange(0, d, 2).float() / d)),
//     every op in float32.
//   tensor2tensor (fairseq when min_timescale == 1, tensor2tensor otherwise):
//     inc = f32(ln(base/min) / max(K−1, 1)) — fairseq divides in Python doubles; tensor2tensor
//     divides f32(ln(base/min)) by f32(max(K−1, 1)) in float32 (the two agree for K a power of
//     two); w_i = f32(f32(min) · f32(exp(f32(i · −inc)))).
std::vector<Frequency> float32Frequencies(const SinusoidalParams& p, int k) {
    std::vector<Frequency> f(static_cast<std::size_t>(k));
    if (p.frequencies == SinusoidalFrequencies::Vaswani) {
        const float base = static_cast<float>(p.base);
        const float dim = static_cast<float>(p.dim);
        for (int i = 0; i < k; ++i) {
            const float e = static_cast<float>(2 * i) / dim;
            const float pw = static_cast<float>(std::pow(static_cast<double>(base), static_cast<double>(e)));
            f[std::size_t(i)] = {static_cast<double>(1.0f / pw), 0.0};
        }
    } else {
        const int denom = std::max(k - 1, 1);
        float inc;
        if (p.min_timescale == 1.0)
            inc = static_cast<float>(std::log(p.base) / denom);
        else
            inc = static_cast<float>(std::log(p.base / p.min_timescale)) / static_cast<float>(denom);
        const float minTs = static_cast<float>(p.min_timescale);
        for (int i = 0; i < k; ++i) {
            const float arg = static_cast<float>(i) * -inc;
            const float e = static_cast<float>(std::exp(static_cast<double>(arg)));
            f[std::size_t(i)] = {static_cast<double>(minTs * e), 0.0};
        }
    }
    return f;
}

bool float32Angles(const SinusoidalParams& p) {
    return p.precision == Precision::Float32 && p.layout == SinusoidalLayout::Concat;
}

std::vector<Frequency> frequenciesFor(const SinusoidalParams& p) {
    const int k = frequencyCount(p);
    return float32Angles(p) ? float32Frequencies(p, k) : doubleFrequencies(p, k);
}

}  // namespace

const ParamTable<SinusoidalParams>& sinusoidalParamTable() {
    using K = ParamKind;
    static const ParamTable<SinusoidalParams> t = {
        field<&SinusoidalParams::dim>({.name = "dim", .kind = K::Int, .lo = 1, .hi = kMaxDim, .label = "Dimension",
                                       .help = "model dimension (odd allowed)", .flags = kParamShared}),
        field<&SinusoidalParams::base>({.name = "base", .kind = K::Real, .lo = 1, .hi = 1e30, .loOpen = true,
                                        .label = "Base (largest timescale)", .help = "largest timescale",
                                        .flags = kParamSlider, .sliderLo = 10, .sliderHi = 1e7}),
        field<&SinusoidalParams::min_timescale>({.name = "min_timescale", .kind = K::Real, .lo = 1e-6, .hi = 1e6,
                                                 .label = "Min timescale",
                                                 .help = "smallest timescale (tensor2tensor frequencies only)",
                                                 .validNote = "and below base"}).when([](const SinusoidalParams& p) { return p.frequencies == SinusoidalFrequencies::Tensor2Tensor; }),
        field<&SinusoidalParams::layout>({.name = "layout", .kind = K::Choice, .label = "Layout",
                                          .help = "interleaved (sin at 2i, cos at 2i+1) or concat ([sin | cos])",
                                          .choiceLabels = {"interleaved (sin 2i, cos 2i+1)", "concat ([sin | cos])"}}),
        field<&SinusoidalParams::frequencies>(
            {.name = "frequencies", .kind = K::Choice, .label = "Frequencies",
             .help = "vaswani (w_i = base^(-2i/d)) or tensor2tensor (log-spaced over d/2-1 steps)",
             .choiceLabels = {"Vaswani base^(−2i/d)", "tensor2tensor / fairseq"}}),
        field<&SinusoidalParams::precision>({.name = "precision", .kind = K::Choice, .label = "Precision",
                                             .help = "float32 rounds as the reference code", .flags = kParamShared,
                                             .choices = {"float32", "double"}}),
    };
    return t;
}

Check SinusoidalParams::validate() const {
    if (auto e = checkParams(sinusoidalParamTable(), *this)) return e;
    if (frequencies == SinusoidalFrequencies::Tensor2Tensor && !(min_timescale < base))
        return ParamError{"min_timescale", "a number from 1e-6 to 1e6 and below base (" + formatNumber(base) + ")",
                          formatNumber(min_timescale)};
    return std::nullopt;
}

Vector sinusoidalFrequencies(const SinusoidalParams& params) {
    const auto f = frequenciesFor(params);
    Vector w(static_cast<Eigen::Index>(f.size()));
    for (std::size_t i = 0; i < f.size(); ++i) w[Eigen::Index(i)] = f[i].w;
    return w;
}

Matrix sinusoidalEncoding(const SinusoidalParams& params, const Positions& positions) {
    const auto f = frequenciesFor(params);
    const int k = static_cast<int>(f.size());
    const bool f32Angles = float32Angles(params);
    const bool interleaved = params.layout == SinusoidalLayout::Interleaved;
    Matrix out = Matrix::Zero(static_cast<Eigen::Index>(positions.size()), params.dim);
    std::vector<double> s(static_cast<std::size_t>(k)), c(static_cast<std::size_t>(k));
    for (std::size_t r = 0; r < positions.size(); ++r) {
        const std::int64_t pos = positions[r];
        if (f32Angles) {
            // torch.arange(...).float() · inv_freq in float32, sin/cos of that float32 angle.
            const float pf = static_cast<float>(pos);
            for (int i = 0; i < k; ++i) {
                const float angle = pf * static_cast<float>(f[std::size_t(i)].w);
                s[std::size_t(i)] = static_cast<double>(static_cast<float>(std::sin(static_cast<double>(angle))));
                c[std::size_t(i)] = static_cast<double>(static_cast<float>(std::cos(static_cast<double>(angle))));
            }
        } else {
            const double pd = static_cast<double>(pos);
            for (int i = 0; i < k; ++i) {
                const auto& fi = f[std::size_t(i)];
                const double angle = fi.divisor > 0 ? pd / fi.divisor : pd * fi.w;
                s[std::size_t(i)] = roundTo(params.precision, std::sin(angle));
                c[std::size_t(i)] = roundTo(params.precision, std::cos(angle));
            }
        }
        const auto row = static_cast<Eigen::Index>(r);
        if (interleaved) {
            for (int j = 0; j < params.dim; ++j)
                out(row, j) = (j % 2 == 0) ? s[std::size_t(j / 2)] : c[std::size_t(j / 2)];
        } else {
            for (int i = 0; i < k; ++i) {
                out(row, i) = s[std::size_t(i)];
                out(row, k + i) = c[std::size_t(i)];
            }
            // odd dim: the last column stays zero
        }
    }
    return out;
}

}  // namespace poslab
