#include "core/precision.h"
#include "core/ensure.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

// SLEEF 3.5's scalar FMA powf gives the bits of the AVX2 vector function torch calls
// (Sleef_powf8_u10; its lanes are independent). sleef.h declares it only to files compiled with
// FMA enabled; libsleef exports it regardless, so it is declared here.
extern "C" {
float Sleef_powf1_u10purecfma(float, float);
float Sleef_cosf_u10(float);   // scalar, for CPUs without AVX2 + FMA
float Sleef_sinf_u10(float);
}

namespace poslab {

float roundBFloat16(float x) {
    if (std::isnan(x)) return x;
    std::uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    // c10::round_to_nearest_even: add 0x7FFF plus the lowest kept bit, keep the upper 16 bits.
    const std::uint32_t lsb = (u >> 16) & 1u;
    u = (u + 0x7FFFu + lsb) & 0xFFFF0000u;
    float out;
    std::memcpy(&out, &u, sizeof out);
    return out;
}

float roundFloat16(float x) {
    if (std::isnan(x) || std::isinf(x) || x == 0.0f) return x;
    const double a = std::fabs(static_cast<double>(x));
    // 65504 is the largest float16; halfway to the next binade step (65536) is 65520, and a tie
    // there goes to the even significand, which is 2^16: overflow.
    if (a >= 65520.0) return std::copysign(std::numeric_limits<float>::infinity(), x);
    int e = 0;
    std::frexp(a, &e);                             // a = m·2^e, m in [0.5, 1): floor(log2 a) = e − 1
    const int exponent = e - 1 < -14 ? -14 : e - 1;  // subnormals share the quantum of 2^-14
    const double quantum = std::ldexp(1.0, exponent - 10);
    const double r = std::nearbyint(a / quantum) * quantum;   // a/quantum is exact; ties to even
    return static_cast<float>(std::copysign(r, static_cast<double>(x)));
}

Matrix precisionScores(Precision p, const Matrix& q, const Matrix& k, double scale) {
    POSLAB_ENSURE(isHalfPrecision(p), "isHalfPrecision(p)");
    POSLAB_ENSURE(q.cols() == k.cols(), "q.cols() == k.cols()");
    const Eigen::Index n = q.cols(), nk = k.rows();
    const double sc = roundToPrecision(p, scale);
    Matrix out(q.rows(), nk);
    // Keys channel-major in float (exact: the entries are bfloat16/float16 values), so that the
    // channel loop runs over all keys at once: acc[j] += q_ic·k_jc, one key per lane. A product of
    // two bfloat16/float16 values is exact in float32, each sum one float32 rounding, in channel
    // order for every key, as torch's.
    std::vector<float> kt(static_cast<std::size_t>(n * nk)), acc(static_cast<std::size_t>(nk));
    for (Eigen::Index j = 0; j < nk; ++j)
        for (Eigen::Index c = 0; c < n; ++c) kt[static_cast<std::size_t>(c * nk + j)] = static_cast<float>(k(j, c));
    for (Eigen::Index i = 0; i < q.rows(); ++i) {
        std::fill(acc.begin(), acc.end(), 0.0f);
        for (Eigen::Index c = 0; c < n; ++c) {
            const auto qc = static_cast<float>(q(i, c));
            const float* kc = kt.data() + c * nk;
            float* a = acc.data();
            for (Eigen::Index j = 0; j < nk; ++j) a[j] += qc * kc[j];
        }
        for (Eigen::Index j = 0; j < nk; ++j)
            out(i, j) = roundToPrecision(p, roundToPrecision(p, static_cast<double>(acc[static_cast<std::size_t>(j)])) * sc);
    }
    return out;
}

float torchPowf(float base, float exponent, bool vectorBlock) {
    return vectorBlock ? Sleef_powf1_u10purecfma(base, exponent) : std::pow(base, exponent);
}
namespace detail {
void torchVectorCosSin(const float* angles, std::size_t n, float* cosOut, float* sinOut);     // precision_avx2.cpp
void torchVectorCosSin512(const float* angles, std::size_t n, float* cosOut, float* sinOut);  // precision_avx512.cpp
}
void torchCosSin(const float* angles, std::size_t n, float* cosOut, float* sinOut) {
    // PyTorch's kernels are AVX2 + FMA; a CPU without them gets SLEEF's scalar functions (the
    // same accuracy class, not always the same last bit) instead of an illegal instruction.
    static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    static const bool avx512 = avx2 && __builtin_cpu_supports("avx512f");
    if (avx512) {   // the same bits, two groups of 8 at a time
        detail::torchVectorCosSin512(angles, n, cosOut, sinOut);
        return;
    }
    if (avx2) {
        detail::torchVectorCosSin(angles, n, cosOut, sinOut);
        return;
    }
    for (std::size_t i = 0; i < n; ++i) {
        cosOut[i] = Sleef_cosf_u10(angles[i]);
        sinOut[i] = Sleef_sinf_u10(angles[i]);
    }
}

}  // namespace poslab
