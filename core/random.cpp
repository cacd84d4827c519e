#include "core/random.h"

#include <cmath>
#include <numbers>

namespace poslab {
namespace {
struct SplitMix64 {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in (0, 1): 53 random bits, never exactly 0.
    double uniform() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }
};
}  // namespace

Matrix seededNormal(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed, std::uint64_t stream,
                    double stddev) {
    Matrix m(rows, cols);
    SplitMix64 rng{seed * 0x9E3779B97F4A7C15ull ^ (stream + 1) * 0xD1B54A32D192ED03ull};
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

}  // namespace poslab
