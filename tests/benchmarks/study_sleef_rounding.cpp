// Study (not a test, not a benchmark): how far SLEEF 3.5's float32 cos/sin — PyTorch's CPU
// float32 cos/sin, which float32 RoPE must reproduce bit for bit — are from correctly rounded,
// over EVERY float x in [0, 2^21) (the angles p·θ of positions below 2^20), through both of
// their argument reductions (the short one when all 8 lanes have |x| < 125, the long one
// otherwise: the lane's neighbours choose, core/precision_avx2.cpp).
//
// Why: a fast exact path could compute cos/sin in double (the decay sweep does, error ~1e-16)
// and round to float32, falling back to SLEEF only near a rounding boundary, IF SLEEF's result
// were the correctly rounded one outside a narrow band around each boundary. This measures that
// band: for every x where SLEEF's result differs from f32(cos(x)) (glibc's double cos, < 1 double
// ulp), the distance of the true value from the nearest float32 rounding boundary, in float32
// ulps. Measured 2026-11-25 (26 s on two threads):
//   1 241 513 984 values, every SLEEF result faithful (one of the two floats around the truth);
//   cos: 16.5 M (short) / 19.2 M (long) differ, up to 0.436 / 0.381 ulp from a boundary;
//   sin:  4.3 M / 10.2 M differ, up to 0.404 / 0.366 ulp;
//   by the result's binade (cos and sin alike): [0.5, 1) up to 0.44 ulp; [0.25, 0.5) 0.098;
//   [0.125, 0.25) 0.059; then 0.017, 0.004, …; below 2^-8 up to 0.29.
// A guard band of 0.44 ulp flags 88 % of the values in [0.5, 1), where two thirds of all cos and
// sin values of uniformly spread angles lie: the double path cannot replace SLEEF there, so float32 RoPE's decay keeps calling SLEEF for every value (issue #11's 16 ms at
// D = 131 072 is not reachable bit for bit on two cores: SLEEF's cos + sin alone take ~20 ms).
//
// Build: part of tests/benchmarks (x86-64 with AVX2). Run: study_sleef_rounding [--threads N].
#include <immintrin.h>
#include <sleef.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Stat {
    long values = 0, unfaithful = 0;
    long differ[2][2] = {{0, 0}, {0, 0}};      // [cos|sin][short|long]
    double maxDist[2][2] = {{0, 0}, {0, 0}};   // ulps from a rounding boundary
    double binDist[2][8] = {};                 // [cos|sin][binade of the result: 0 = [0.5, 1), 1 = [0.25, 0.5), …, 7 = smaller]
};

float fromBits(std::uint32_t b) {
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}

// Distance (float32 ulps) of the double v from the nearest float32 rounding boundary, f = f32(v).
double boundaryDistance(double v, float f) {
    const double a = std::fabs(v);
    const float af = std::fabs(f);
    const double ulp = a >= af ? double(std::nextafter(af, INFINITY)) - af : double(af) - double(std::nextafter(af, 0.0f));
    return (ulp * 0.5 - std::fabs(a - double(af))) / ulp;
}

void check(double truth, float got, int fn, int path, Stat& s) {
    const float f = static_cast<float>(truth);
    if (got == f) return;
    ++s.differ[fn][path];
    const double d = boundaryDistance(truth, f);
    s.maxDist[fn][path] = std::max(s.maxDist[fn][path], d);
    const int bin = truth == 0 ? 7 : std::clamp(-std::ilogb(truth) - 1, 0, 7);
    s.binDist[fn][bin] = std::max(s.binDist[fn][bin], d);
    const float other = double(f) < truth ? std::nextafter(f, INFINITY) : std::nextafter(f, -INFINITY);
    if (got != other) ++s.unfaithful;
}

}  // namespace

int main(int argc, char** argv) {
    int threads = 2;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::string(argv[i]) == "--threads") threads = std::max(1, std::atoi(argv[i + 1]));
    const std::uint32_t end = 0x4a000000u;   // the bits of 2^21
    std::vector<Stat> st(static_cast<std::size_t>(threads));
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            Stat& s = st[static_cast<std::size_t>(t)];
            alignas(32) float in[8], c[8], sn[8];
            // Seven values a group; the eighth lane chooses the reduction: 1000 (long), 0 (short).
            for (std::uint32_t b0 = std::uint32_t(t) * 7; b0 < end; b0 += 7 * std::uint32_t(threads)) {
                const int m = static_cast<int>(std::min<std::uint32_t>(7, end - b0));
                double rc[7], rs[7];
                for (int l = 0; l < 7; ++l) in[l] = l < m ? fromBits(b0 + std::uint32_t(l)) : 0.0f;
                for (int l = 0; l < m; ++l) {
                    rc[l] = std::cos(double(in[l]));
                    rs[l] = std::sin(double(in[l]));
                }
                for (int path = 1; path >= 0; --path) {
                    if (path == 0 && !(in[m - 1] < 125.0f)) break;
                    in[7] = path == 1 ? 1000.0f : 0.0f;
                    const __m256 x = _mm256_load_ps(in);
                    _mm256_store_ps(c, Sleef_cosf8_u10(x));
                    _mm256_store_ps(sn, Sleef_sinf8_u10(x));
                    for (int l = 0; l < m; ++l) {
                        check(rc[l], c[l], 0, path, s);
                        check(rs[l], sn[l], 1, path, s);
                    }
                }
                s.values += m;
            }
        });
    for (auto& p : pool) p.join();
    Stat a;
    for (const Stat& s : st) {
        a.values += s.values;
        a.unfaithful += s.unfaithful;
        for (int f = 0; f < 2; ++f) {
            for (int p = 0; p < 2; ++p) {
                a.differ[f][p] += s.differ[f][p];
                a.maxDist[f][p] = std::max(a.maxDist[f][p], s.maxDist[f][p]);
            }
            for (int b = 0; b < 8; ++b) a.binDist[f][b] = std::max(a.binDist[f][b], s.binDist[f][b]);
        }
    }
    std::printf("values %ld, not faithful %ld\n", a.values, a.unfaithful);
    const char* fn[2] = {"cos", "sin"};
    const char* path[2] = {"short", "long"};
    for (int f = 0; f < 2; ++f) {
        for (int p = 0; p < 2; ++p)
            std::printf("%s, %s reduction: %ld differ from correctly rounded, up to %.4f ulp from a rounding boundary\n", fn[f], path[p],
                        a.differ[f][p], a.maxDist[f][p]);
        std::printf("%s by the result's binade [0.5,1) [0.25,0.5) … (ulp from a boundary):", fn[f]);
        for (int b = 0; b < 8; ++b) std::printf(" %.4f", a.binDist[f][b]);
        std::printf("\n");
    }
    return a.unfaithful == 0 ? 0 : 1;
}
