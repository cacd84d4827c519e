// torchCosSin on CPUs with AVX-512: the same bits as the AVX2 groups of 8 (precision_avx2.cpp),
// two groups per call of SLEEF's 16-lane functions. A SLEEF 3.5 cos/sin lane depends on its own
// argument and on the vector's argument reduction only: the short one (Cody–Waite) when every lane
// has |x| < 125 (TRIGRANGEMAX2f), the long one (Payne–Hanek) otherwise, NaN counting as large.
// Two groups of 8 that would take the same reduction alone take it together, and then each lane
// is the 8-lane function's bit for bit (test_precision `avx512GroupsMatchAvx2`, 6 million random
// grouped arguments of every kind, and offline 2^26 with no difference); a pair of groups that
// would not goes through the 8-lane path one group at a time. (Pairing each group with the next
// of its kind instead of its neighbour was tried: no faster on the decay table.)
// Compiled with -mavx512f -mavx2 -mfma (core/CMakeLists.txt); used only through core/precision.h.
#include <immintrin.h>
#include <sleef.h>

#include <cstddef>

namespace poslab::detail {

void torchVectorCosSin(const float* angles, std::size_t n, float* cosOut, float* sinOut);  // precision_avx2.cpp

void torchVectorCosSin512(const float* angles, std::size_t n, float* cosOut, float* sinOut) {
    const std::size_t pairs = n - n % 16;
    const __m512 limit = _mm512_set1_ps(125.0f);
    std::size_t g = 0;
    for (; g < pairs; g += 16) {
        const __m512 x = _mm512_loadu_ps(angles + g);
        // Lanes with |x| < 125 (ordered: NaN is not).
        const auto shortLanes = static_cast<unsigned>(_mm512_cmp_ps_mask(_mm512_abs_ps(x), limit, _CMP_LT_OQ));
        const bool lowShort = (shortLanes & 0xFFu) == 0xFFu, highShort = (shortLanes >> 8) == 0xFFu;
        if (lowShort == highShort) {
            _mm512_storeu_ps(cosOut + g, Sleef_cosf16_u10avx512f(x));
            _mm512_storeu_ps(sinOut + g, Sleef_sinf16_u10avx512f(x));
        } else {
            torchVectorCosSin(angles + g, 16, cosOut + g, sinOut + g);
        }
    }
    if (g < n) torchVectorCosSin(angles + g, n - g, cosOut + g, sinOut + g);   // groups of 8 from g
}

}  // namespace poslab::detail
