#include "core/random.h"
#include "core/ensure.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace poslab {
namespace {
constexpr std::uint64_t kGamma = 0x9E3779B97F4A7C15ull;

std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

struct SplitMix64 {
    std::uint64_t state;
    std::uint64_t next() { return mix(state += kGamma); }
    // Uniform in (0, 1): 53 random bits, never exactly 0.
    double uniform() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }
};

std::uint64_t initialState(std::uint64_t seed, std::uint64_t stream) {
    return seed * kGamma ^ (stream + 1) * 0xD1B54A32D192ED03ull;
}
}  // namespace

Matrix seededNormal(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed, std::uint64_t stream,
                    double stddev) {
    POSLAB_ENSURE(rows >= 0 && cols >= 0, "rows, cols >= 0");
    Matrix m(rows, cols);
    SplitMix64 rng{initialState(seed, stream)};
    const Eigen::Index n = rows * cols;
    double* out = m.data();
    for (Eigen::Index i = 0; i < n; i += 2) {
        const double u1 = rng.uniform();
        const double u2 = rng.uniform();
        const double r = std::sqrt(-2.0 * std::log(u1));
        const double a = 2.0 * std::numbers::pi * u2;
        out[i] = stddev * r * std::cos(a);
        if (i + 1 < n) out[i + 1] = stddev * r * std::sin(a);
    }
    return m;
}

double seededNormalAt(std::uint64_t n, std::uint64_t seed, std::uint64_t stream, double stddev) {
    // Entry n belongs to Box–Muller pair n/2, which consumes uniforms 2·(n/2) and 2·(n/2)+1;
    // SplitMix64's k-th output (0-based) mixes state0 + (k+1)·gamma.
    const std::uint64_t pair = n / 2;
    SplitMix64 rng{initialState(seed, stream) + (2 * pair) * kGamma};
    const double u1 = rng.uniform();
    const double u2 = rng.uniform();
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double a = 2.0 * std::numbers::pi * u2;
    return (n % 2 == 0) ? stddev * r * std::cos(a) : stddev * r * std::sin(a);
}

Matrix seededNormalRows(const std::vector<std::int64_t>& rows, Eigen::Index cols, std::uint64_t seed,
                        std::uint64_t stream, double stddev) {
    POSLAB_ENSURE(cols >= 0, "cols >= 0");
    POSLAB_ENSURE(std::all_of(rows.begin(), rows.end(), [](std::int64_t r) { return r >= 0; }), "every row index >= 0");
    Matrix m(static_cast<Eigen::Index>(rows.size()), cols);
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const auto base = static_cast<std::uint64_t>(rows[r]) * static_cast<std::uint64_t>(cols);
        for (Eigen::Index c = 0; c < cols; ++c)
            m(static_cast<Eigen::Index>(r), c) = seededNormalAt(base + static_cast<std::uint64_t>(c), seed, stream, stddev);
    }
    return m;
}

}  // namespace poslab
