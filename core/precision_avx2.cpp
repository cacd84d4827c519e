// PyTorch 1.13's float32 cos/sin of a contiguous tensor (at::vml's map over Vectorized<float>):
// groups of 8 consecutive elements from the tensor's start go through SLEEF's AVX2 functions, the
// last partial group zero-padded. The group matters: SLEEF's vector cos/sin switch the argument
// reduction of ALL eight lanes when one lane is large, so a lane's bits depend on its neighbours
// (measured: cos(81.91f) is 0.97398752 alone, 0.97398758 beside angles of order 1e4).
// Compiled with -mavx2 -mfma (core/CMakeLists.txt); used only through core/precision.h.
#include <immintrin.h>
#include <sleef.h>

#include <algorithm>
#include <cstddef>

namespace poslab::detail {

void torchVectorCosSin(const float* angles, std::size_t n, float* cosOut, float* sinOut) {
    const std::size_t full = n - n % 8;
    for (std::size_t g = 0; g < full; g += 8) {
        const __m256 x = _mm256_loadu_ps(angles + g);
        _mm256_storeu_ps(cosOut + g, Sleef_cosf8_u10(x));
        _mm256_storeu_ps(sinOut + g, Sleef_sinf8_u10(x));
    }
    for (std::size_t g = full; g < n; g += 8) {   // the last partial group, zero-padded
        alignas(32) float in[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        alignas(32) float c[8], s[8];
        const std::size_t m = std::min<std::size_t>(8, n - g);
        std::copy(angles + g, angles + g + m, in);
        const __m256 x = _mm256_load_ps(in);
        _mm256_store_ps(c, Sleef_cosf8_u10(x));
        _mm256_store_ps(s, Sleef_sinf8_u10(x));
        std::copy(c, c + m, cosOut + g);
        std::copy(s, s + m, sinOut + g);
    }
}

}  // namespace poslab::detail
