#include "core/alibi.h"

#include <algorithm>
#include <cmath>

namespace poslab {

namespace {
constexpr int kMaxHeads = 4096;
constexpr double kMaxBias = 1024.0;

// ofirpress get_slopes_power_of_2(n), with 8 generalised to bias_max (MPT's alibi_bias_max):
//   start = 2**(-B/n); ratio = start; [start * ratio**i for i in range(n)]   (Python doubles)
// For B = 8, 2**-(log2(n)-3) == 8/n exactly, so start is bit-identical to ofirpress.
void powerOfTwoSlopes(int n, double biasMax, std::vector<double>& out) {
    const double start = std::pow(2.0, -(biasMax / n));
    for (int i = 0; i < n; ++i) out.push_back(start * std::pow(start, static_cast<double>(i)));
}
}  // namespace

const ParamTable<AlibiParams>& alibiParamTable() {
    using K = ParamKind;
    static const ParamTable<AlibiParams> t = {
        field<&AlibiParams::heads>({.name = "heads", .kind = K::Int, .lo = 1, .hi = kMaxHeads, .label = "Heads",
                                    .help = "ALiBi heads"}),
        field<&AlibiParams::bias_max>({.name = "bias_max", .kind = K::Real, .lo = 0, .hi = kMaxBias, .loOpen = true,
                                       .label = "Bias max B", .help = "MPT's alibi_bias_max (8: the paper's slopes)"}),
        field<&AlibiParams::symmetric>({.name = "symmetric", .kind = K::Bool, .label = "Symmetric",
                                        .help = "-m*|i-j| everywhere instead of the causal -m*(i-j)", .flags = kParamShared}),
        field<&AlibiParams::precision>({.name = "precision", .kind = K::Choice, .label = "Precision",
                                        .help = "float32 rounds the slopes as BLOOM/MPT tensors hold them",
                                        .flags = kParamShared, .choices = {"float32", "double"}}),
    };
    return t;
}

Check AlibiParams::validate() const { return checkParams(alibiParamTable(), *this); }

Check alibiValidateLength(int heads, std::int64_t length) {
    constexpr std::int64_t kMaxLength = 1'000'000;
    constexpr std::int64_t kMaxEntries = std::int64_t{1} << 26;
    const std::int64_t h = std::max(heads, 1);
    std::int64_t maxL = 1;
    while (maxL < kMaxLength && h * (maxL + 1) * (maxL + 1) <= kMaxEntries) ++maxL;
    if (length < 1 || length > maxL)
        return ParamError{"length",
                          "an integer from 1 to " + formatInt(maxL) + " (heads·length² <= 67108864)",
                          formatInt(length)};
    return std::nullopt;
}

Vector alibiSlopes(const AlibiParams& params) {
    const int n = std::clamp(params.heads, 1, kMaxHeads);
    std::vector<double> s;
    s.reserve(static_cast<std::size_t>(n));
    int p = 1;
    while (p * 2 <= n) p *= 2;  // closest_power_of_2 = 2**floor(log2(n))
    powerOfTwoSlopes(p, params.bias_max, s);
    if (p != n) {
        // get_slopes(2p)[0::2][:n-p]
        std::vector<double> twice;
        powerOfTwoSlopes(2 * p, params.bias_max, twice);
        for (int i = 0; i < n - p; ++i) s.push_back(twice[std::size_t(2 * i)]);
    }
    Vector out(n);
    for (int i = 0; i < n; ++i) out[i] = roundTo(params.precision, s[std::size_t(i)]);
    return out;
}

Matrix alibiBias(const AlibiParams& params, int head, const Positions& queries, const Positions& keys) {
    const Vector slopes = alibiSlopes(params);
    const double m = slopes[std::clamp<Eigen::Index>(head, 0, slopes.size() - 1)];
    Matrix out(static_cast<Eigen::Index>(queries.size()), static_cast<Eigen::Index>(keys.size()));
    for (std::size_t i = 0; i < queries.size(); ++i)
        for (std::size_t j = 0; j < keys.size(); ++j) {
            // i − j as a double (exact for |positions| <= 2^52)
            double d = static_cast<double>(queries[i]) - static_cast<double>(keys[j]);
            if (params.symmetric) d = std::abs(d);
            out(Eigen::Index(i), Eigen::Index(j)) = -m * d;
        }
    return out;
}

}  // namespace poslab
