// core/precision.h and the reduced-precision RoPE paths of core/rope.h:
//   * bfloat16 / float16 rounding against their bit-level definitions (nearest representable
//     value by exact distance, ties to the even significand) over many values, subnormals,
//     overflow and NaN;
//   * ropeFrequencies/ropeTables/ropeApply against PyTorch 1.13 on CPU running transformers' own
//     rotate_half/apply_rotary_pos_emb (tests/data/precision/generate_precision_reference.py),
//     bit for bit.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <vector>

#include "core/precision.h"
#include "core/rope.h"
#include "support/testsupport.h"

using namespace poslab;

namespace poslab::detail {   // core/precision_avx2.cpp: the AVX2 groups of 8 torch runs
void torchVectorCosSin(const float* angles, std::size_t n, float* cosOut, float* sinOut);
}

namespace {

std::uint32_t bitsOf(float x) {
    std::uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    return u;
}
float floatOf(std::uint32_t u) {
    float x;
    std::memcpy(&x, &u, sizeof x);
    return x;
}

// bfloat16 by definition: the two bfloat16 neighbours of x (its float32 bits truncated to the
// upper 16, and the next pattern up in magnitude; the pattern after the largest finite value
// stands for 2^128 = overflow), the nearer by exact distance, a tie to the even pattern.
float refBFloat16(float x) {
    const std::uint32_t u = bitsOf(x);
    const std::uint32_t lo = u & 0xFFFF0000u, hi = lo + 0x10000u;
    const double a = std::fabs(double(x));
    const double loV = std::fabs(double(floatOf(lo)));
    const double hiV = (hi & 0x7FFFFFFFu) == 0x7F800000u ? std::ldexp(1.0, 128) : std::fabs(double(floatOf(hi)));
    const double dLo = a - loV, dHi = hiV - a;
    std::uint32_t pick = dLo < dHi ? lo : dHi < dLo ? hi : (((lo >> 16) & 1u) == 0 ? lo : hi);
    return floatOf(pick);
}

// Every non-negative finite float16 value, ascending, with its bit pattern (decoded exactly).
struct Half {
    double value;
    std::uint16_t bits;
};
const std::vector<Half>& halves() {
    static const std::vector<Half> v = [] {
        std::vector<Half> out;
        for (std::uint32_t b = 0; b < 0x7C00u; ++b) {
            const int e = int(b >> 10), m = int(b & 0x3FFu);
            const double val = e == 0 ? std::ldexp(double(m), -24) : std::ldexp(double(1024 + m), e - 25);
            out.push_back({val, std::uint16_t(b)});
        }
        return out;
    }();
    return v;
}
// float16 by definition: nearest of all float16 values by exact distance, ties to the even
// pattern; beyond 65504 the next step (65536) stands for overflow to infinity.
float refFloat16(float x) {
    const double a = std::fabs(double(x));
    const auto& h = halves();
    if (a > 65504.0) {
        const double dLo = a - 65504.0, dHi = 65536.0 - a;   // 65504 is odd (0x7BFF), 2^16 even
        if (dLo < dHi) return std::copysign(65504.0f, x);
        return std::copysign(std::numeric_limits<float>::infinity(), x);
    }
    auto it = std::lower_bound(h.begin(), h.end(), a, [](const Half& e, double v) { return e.value < v; });
    if (it->value == a) return std::copysign(float(a), x);
    const Half hi = *it, lo = *(it - 1);
    const double dLo = a - lo.value, dHi = hi.value - a;
    const Half pick = dLo < dHi ? lo : dHi < dLo ? hi : ((lo.bits & 1u) == 0 ? lo : hi);
    return std::copysign(float(pick.value), x);
}

bool sameFloat(float a, float b) { return bitsOf(a) == bitsOf(b) || (std::isnan(a) && std::isnan(b)); }

QString hex(float x) { return QString::number(bitsOf(x), 16); }

}  // namespace

class TestPrecision : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // torchCosSin on this CPU (two groups of 8 per SLEEF 16-lane call where it has AVX-512) gives
    // the AVX2 8-lane groups' bits: every lane, tensors of every length (the zero-padded last
    // group), arguments mixing the short (|x| < 125) and long argument reductions within and
    // across groups, 125 itself, NaN, ±inf, subnormals and huge values.
    void avx512GroupsMatchAvx2_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("length");
        QTest::newRow("all short, 1<<20") << 0 << (1 << 20);
        QTest::newRow("all long, 1<<20") << 1 << (1 << 20);
        QTest::newRow("short and long groups mixed, 1<<20") << 2 << (1 << 20);
        QTest::newRow("125 boundary, 1<<20 + 5") << 3 << (1 << 20) + 5;
        QTest::newRow("any bit pattern, 1<<20 + 13") << 4 << (1 << 20) + 13;
        QTest::newRow("decay table rows (p·inv_freq), 64 pairs, 16384 positions") << 5 << (1 << 20);
        QTest::newRow("mixed, 9 elements") << 2 << 9;
    }
    void avx512GroupsMatchAvx2() {
        QFETCH(int, kind);
        QFETCH(int, length);
        if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) QSKIP("no AVX2 + FMA: torchCosSin is SLEEF's scalar path");
        std::mt19937 rng(std::uint32_t(kind * 7919 + length));
        std::uniform_real_distribution<float> shortArg(-124.99f, 124.99f), longArg(-3e6f, 3e6f);
        std::uniform_int_distribution<std::uint32_t> bits;
        const float special[] = {0.0f, -0.0f, 125.0f, -125.0f, 124.99999f, 125.00001f,
                                 std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                                 std::numeric_limits<float>::quiet_NaN(), 1e-40f, 3e38f};
        std::vector<float> x(static_cast<std::size_t>(length));
        bool groupLong = false;
        for (std::size_t i = 0; i < x.size(); ++i) {
            if (i % 8 == 0) groupLong = bits(rng) % 2 == 0;
            switch (kind) {
            case 0: x[i] = shortArg(rng); break;
            case 1: x[i] = longArg(rng); break;
            case 2: x[i] = groupLong && bits(rng) % 3 == 0 ? longArg(rng) : shortArg(rng); break;
            case 3: x[i] = bits(rng) % 4 == 0 ? special[bits(rng) % 6] : shortArg(rng); break;
            case 4: x[i] = bits(rng) % 16 == 0 ? special[bits(rng) % 11] : floatOf(bits(rng)); break;
            default: x[i] = float(i / 64) * std::pow(10000.0f, -float(i % 64) / 64.0f); break;
            }
        }
        std::vector<float> c(x.size()), s(x.size()), c8(x.size()), s8(x.size());
        torchCosSin(x.data(), x.size(), c.data(), s.data());
        detail::torchVectorCosSin(x.data(), x.size(), c8.data(), s8.data());
        for (std::size_t i = 0; i < x.size(); ++i)
            if (bitsOf(c[i]) != bitsOf(c8[i]) || bitsOf(s[i]) != bitsOf(s8[i]))
                QFAIL(qPrintable(QString("element %1 (x = %2): cos 0x%3 / sin 0x%4, the AVX2 groups give 0x%5 / 0x%6")
                                     .arg(i).arg(double(x[i]), 0, 'g', 9).arg(hex(c[i]), hex(s[i]), hex(c8[i]), hex(s8[i]))));
    }

    // Random float32 bit patterns over the whole range (normal, subnormal, huge).
    void bfloat16MatchesDefinition() {
        std::mt19937 rng(14);
        std::uniform_int_distribution<std::uint32_t> bits;
        int checked = 0;
        for (int n = 0; n < 2000000; ++n) {
            const float x = floatOf(bits(rng));
            if (std::isnan(x)) continue;
            const float got = roundBFloat16(x), want = refBFloat16(x);
            if (!sameFloat(got, want))
                QFAIL(qPrintable(QString("bfloat16(%1 = 0x%2) = 0x%3, want 0x%4").arg(double(x), 0, 'g', 9).arg(hex(x), hex(got), hex(want))));
            ++checked;
        }
        QVERIFY(checked > 1900000);
    }

    // Exact ties and their float32 neighbours (both parities), in every binade.
    void bfloat16TiesToEven_data() {
        QTest::addColumn<float>("x");
        QTest::addColumn<float>("want");
        QTest::newRow("1+2^-8 (tie) -> 1") << floatOf(0x3F808000u) << 1.0f;
        QTest::newRow("1+3*2^-8 (tie) -> 1+2^-6") << floatOf(0x3F818000u) << floatOf(0x3F820000u);
        QTest::newRow("above tie -> up") << floatOf(0x3F808001u) << floatOf(0x3F810000u);
        QTest::newRow("257 -> 256") << 257.0f << 256.0f;
        QTest::newRow("259 -> 260") << 259.0f << 260.0f;
        QTest::newRow("4097 -> 4096") << 4097.0f << 4096.0f;
        QTest::newRow("largest float -> inf") << std::numeric_limits<float>::max() << std::numeric_limits<float>::infinity();
        QTest::newRow("-largest float -> -inf") << -std::numeric_limits<float>::max() << -std::numeric_limits<float>::infinity();
        QTest::newRow("subnormal 0x00018000 (tie) -> 0x00020000") << floatOf(0x00018000u) << floatOf(0x00020000u);
        QTest::newRow("subnormal 0x00008000 (tie) -> 0") << floatOf(0x00008000u) << 0.0f;
        QTest::newRow("-0") << -0.0f << -0.0f;
        QTest::newRow("inf") << std::numeric_limits<float>::infinity() << std::numeric_limits<float>::infinity();
    }
    void bfloat16TiesToEven() {
        QFETCH(float, x);
        QFETCH(float, want);
        QCOMPARE(hex(roundBFloat16(x)), hex(want));
        QCOMPARE(hex(refBFloat16(x)), hex(want));
    }

    void float16MatchesDefinition() {
        std::mt19937 rng(16);
        // Exponents where float16 has normals, subnormals, underflow and overflow.
        std::uniform_int_distribution<int> exponent(-30, 17);
        std::uniform_int_distribution<std::uint32_t> mantissa(0, (1u << 23) - 1);
        std::bernoulli_distribution negative(0.5);
        for (int n = 0; n < 1000000; ++n) {
            const std::uint32_t u = (negative(rng) ? 0x80000000u : 0u) | (std::uint32_t(exponent(rng) + 127) << 23) | mantissa(rng);
            const float x = floatOf(u);
            const float got = roundFloat16(x), want = refFloat16(x);
            if (!sameFloat(got, want))
                QFAIL(qPrintable(QString("float16(%1) = %2, want %3").arg(double(x), 0, 'g', 9).arg(double(got), 0, 'g', 9).arg(double(want), 0, 'g', 9)));
        }
        // Every midpoint between consecutive float16 values (ties), and its float32 neighbours.
        const auto& h = halves();
        for (std::size_t i = 0; i + 1 < h.size(); ++i) {
            const auto mid = float((h[i].value + h[i + 1].value) / 2);   // exact in float32
            for (float x : {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e9f), -mid}) {
                const float got = roundFloat16(x), want = refFloat16(x);
                if (!sameFloat(got, want))
                    QFAIL(qPrintable(QString("float16(%1) = %2, want %3").arg(double(x), 0, 'g', 9).arg(double(got), 0, 'g', 9).arg(double(want), 0, 'g', 9)));
            }
        }
    }

    void float16EdgeCases_data() {
        QTest::addColumn<float>("x");
        QTest::addColumn<float>("want");
        const float inf = std::numeric_limits<float>::infinity();
        QTest::newRow("65504") << 65504.0f << 65504.0f;
        QTest::newRow("65519 -> 65504") << 65519.0f << 65504.0f;
        QTest::newRow("65520 (tie) -> inf") << 65520.0f << inf;
        QTest::newRow("-1e6 -> -inf") << -1e6f << -inf;
        QTest::newRow("2049 -> 2048") << 2049.0f << 2048.0f;
        QTest::newRow("2051 -> 2052") << 2051.0f << 2052.0f;
        QTest::newRow("1044.27 -> 1044") << 1044.27f << 1044.0f;
        QTest::newRow("smallest subnormal 2^-24") << std::ldexp(1.0f, -24) << std::ldexp(1.0f, -24);
        QTest::newRow("2^-25 (tie) -> 0") << std::ldexp(1.0f, -25) << 0.0f;
        QTest::newRow("3*2^-25 (tie) -> 2^-23") << 3 * std::ldexp(1.0f, -25) << std::ldexp(1.0f, -23);
        QTest::newRow("subnormal 1.5*2^-20 kept") << 1.5f * std::ldexp(1.0f, -20) << 1.5f * std::ldexp(1.0f, -20);
        QTest::newRow("-0") << -0.0f << -0.0f;
    }
    void float16EdgeCases() {
        QFETCH(float, x);
        QFETCH(float, want);
        QCOMPARE(hex(roundFloat16(x)), hex(want));
    }

    void nanStaysNan() {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        QVERIFY(std::isnan(roundBFloat16(nan)));
        QVERIFY(std::isnan(roundFloat16(nan)));
        QVERIFY(std::isnan(roundToPrecision(Precision::BFloat16, std::nan(""))));
    }

    void roundToPrecisionRoundsThroughFloat32_data() {
        QTest::addColumn<int>("precision");
        QTest::addColumn<double>("x");
        QTest::addColumn<double>("want");
        // 1 + 2^-8 + 2^-30: float32 first gives the tie 1 + 2^-8, which goes to even (1), while a
        // direct rounding of the double would go up: torch computes in float32, then rounds.
        const double x = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30);
        QTest::newRow("bfloat16 double-rounds via float32") << int(Precision::BFloat16) << x << 1.0;
        QTest::newRow("float32") << int(Precision::Float32) << 0.1 << double(0.1f);
        QTest::newRow("double") << int(Precision::Double) << 0.1 << 0.1;
        QTest::newRow("float16 bfloat16 positions 257") << int(Precision::Float16) << 257.0 << 257.0;
        QTest::newRow("bfloat16 position 257") << int(Precision::BFloat16) << 257.0 << 256.0;
    }
    void roundToPrecisionRoundsThroughFloat32() {
        QFETCH(int, precision);
        QFETCH(double, x);
        QFETCH(double, want);
        QCOMPARE(roundToPrecision(Precision(precision), x), want);
    }

    // ropePositionCollisions against the rounding's definition (refBFloat16/refFloat16, float32
    // by cast): positions grouped by the value the angle dtype holds, groups of two or more only.
    void positionCollisions_data() {
        QTest::addColumn<int>("precision");
        QTest::addColumn<int>("anglePrecision");
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        QTest::addColumn<int>("groups");          // how many held values two or more positions share
        QTest::addColumn<qint64>("firstColliding");  // the smallest colliding position (-1: none)
        const int bf = int(Precision::BFloat16), hf = int(Precision::Float16), f32 = int(Precision::Float32);
        // bfloat16 holds 0..256; 257 → 256; from 256 to 512 one value per 4 integers ({4k−1, 4k, 4k+1}).
        QTest::newRow("bfloat16 angles 0..1023") << bf << bf << qint64(0) << qint64(1024) << 64 + 128 + 1 << qint64(256);
        QTest::newRow("bfloat16 angles 0..256") << bf << bf << qint64(0) << qint64(257) << 0 << qint64(-1);
        // transformers main: the angles are float32 whatever the dtype, every position up to 2^24 is held.
        QTest::newRow("bfloat16 float32 angles 0..65535") << bf << f32 << qint64(0) << qint64(65536) << 0 << qint64(-1);
        QTest::newRow("float16 angles 0..4096") << hf << hf << qint64(0) << qint64(4097) << 513 << qint64(2048);
        QTest::newRow("float16 angles 0..2048") << hf << hf << qint64(0) << qint64(2049) << 0 << qint64(-1);
        QTest::newRow("float32 2^24 - 4 .. 2^24 + 4") << f32 << f32 << qint64((1 << 24) - 4) << qint64((1 << 24) + 5) << 2 << qint64(1 << 24);
        QTest::newRow("float32 angles 0..1048575") << f32 << f32 << qint64(0) << qint64(1 << 20) << 0 << qint64(-1);
        QTest::newRow("double 2^24 .. 2^24 + 8") << int(Precision::Double) << f32 << qint64(1 << 24) << qint64((1 << 24) + 9) << 0 << qint64(-1);
    }
    void positionCollisions() {
        QFETCH(int, precision);
        QFETCH(int, anglePrecision);
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        QFETCH(int, groups);
        QFETCH(qint64, firstColliding);
        RopeParams p;
        p.head_dim = 8;
        p.precision = Precision(precision);
        p.angle_precision = Precision(anglePrecision);
        // Given out of order and with a repeat: the result is the same.
        Positions pos;
        for (std::int64_t q = to - 1; q >= from; --q) pos.push_back(q);
        if (!pos.empty()) pos.push_back(pos.front());
        const std::vector<PositionCollision> got = ropePositionCollisions(p, pos);
        QCOMPARE(int(got.size()), groups);
        QCOMPARE(got.empty() ? qint64(-1) : qint64(got.front().positions.front()), firstColliding);
        if (from == 0) {
            const auto first = ropeFirstCollision(p, to);
            QCOMPARE(first ? qint64(*first) : qint64(-1), firstColliding);
        }
        // Brute force by the definition of each rounding.
        const Precision ap = ropeAnglePrecision(p);
        const auto held = [&](std::int64_t q) {
            const float f = float(q);
            switch (ap) {
                case Precision::Double: return double(q);
                case Precision::Float32: return double(f);
                case Precision::BFloat16: return double(refBFloat16(f));
                case Precision::Float16: return double(refFloat16(f));
            }
            return double(q);
        };
        std::map<double, std::vector<std::int64_t>> byValue;
        for (std::int64_t q = from; q < to; ++q) byValue[held(q)].push_back(q);
        std::vector<PositionCollision> want;
        for (auto& [v, ps] : byValue)
            if (ps.size() > 1) want.push_back({v, ps});
        QCOMPARE(got.size(), want.size());
        for (std::size_t g = 0; g < want.size(); ++g) {
            QCOMPARE(got[g].value, want[g].value);
            QCOMPARE(got[g].positions, want[g].positions);
        }
    }

    // ropePrecisionErrors for a few pairs computes only their table entries (and the groups of 8
    // they sit in): the path's cos/sin must still be ropeTables' bit for bit, with the table's
    // last group partial, interleaved layout, and the exact values in double.
    void precisionErrorsForPairs_data() {
        QTest::addColumn<int>("precision");
        QTest::addColumn<int>("angles");
        QTest::addColumn<int>("dim");
        QTest::addColumn<bool>("interleaved");
        QTest::addColumn<qint64>("count");
        const int bf = int(Precision::BFloat16), hf = int(Precision::Float16), f32 = int(Precision::Float32);
        QTest::newRow("bfloat16 float32 angles d=128 half") << bf << f32 << 128 << false << qint64(300);
        QTest::newRow("bfloat16 angles d=6 half (partial last group)") << bf << bf << 6 << false << qint64(301);
        QTest::newRow("float16 angles d=10 interleaved") << hf << hf << 10 << true << qint64(257);
        QTest::newRow("float32 d=64 interleaved") << f32 << f32 << 64 << true << qint64(129);
        QTest::newRow("double d=16") << int(Precision::Double) << f32 << 16 << false << qint64(40);
    }
    void precisionErrorsForPairs() {
        QFETCH(int, precision);
        QFETCH(int, angles);
        QFETCH(int, dim);
        QFETCH(bool, interleaved);
        QFETCH(qint64, count);
        RopeParams p;
        p.head_dim = dim;
        p.precision = Precision(precision);
        p.angle_precision = Precision(angles);
        p.layout = interleaved ? RopeLayout::Interleaved : RopeLayout::Half;
        p.seq_len = 5000;
        QVERIFY(!p.validate());
        Positions pos;
        for (std::int64_t k = 0; k < count; ++k) pos.push_back(k * 13 % 4099);
        const int h = dim / 2;
        const std::vector<int> pairs = {h - 1, 0, h / 2};
        const RopePrecisionErrors some = ropePrecisionErrors(p, pos, pairs);
        const RopeFrequencies f = ropeRuntimeFrequencies(p, 5000);
        const RopeTables t = ropeTables(p, f, pos);
        RopeParams x = p;
        x.precision = Precision::Double;
        const RopeFrequencies fx = ropeRuntimeFrequencies(x, 5000);
        const RopeTables tx = ropeTables(x, fx, pos);
        for (std::size_t c = 0; c < pairs.size(); ++c) {
            const Eigen::Index j = interleaved ? 2 * pairs[c] : pairs[c];
            for (Eigen::Index k = 0; k < Eigen::Index(pos.size()); ++k) {
                QCOMPARE(some.cos(k, Eigen::Index(c)), t.cos(k, j) - tx.cos(k, j));
                QCOMPARE(some.sin(k, Eigen::Index(c)), t.sin(k, j) - tx.sin(k, j));
                // The phase of the rotation the path applies against the exact angle: no more
                // than its angle error plus what rounding cos and sin to the dtype can turn it
                // (half an ulp of each, about 2^-9·√2 in bfloat16), and ~0 in double.
                const double ph = some.phase(k, Eigen::Index(c)), ang = some.angle(k, Eigen::Index(c));
                const double ulp = p.precision == Precision::BFloat16 ? 0x1p-8 : p.precision == Precision::Float16 ? 0x1p-11
                                 : p.precision == Precision::Float32 ? 0x1p-24 : 0x1p-52;
                QVERIFY2(std::abs(std::remainder(ph - ang, 2 * M_PI)) <= 1.5 * ulp + 1e-12,
                         qPrintable(QString("position %1 pair %2: phase %3, angle %4").arg(pos[std::size_t(k)]).arg(pairs[c]).arg(ph).arg(ang)));
            }
        }
        if (p.precision == Precision::BFloat16 && p.angle_precision == Precision::Float32)
            QVERIFY(some.phase.cwiseAbs().maxCoeff() > 1e-3);   // the cos/sin rounding shows
        // ... and the same numbers as the all-pairs call, column for column.
        const RopePrecisionErrors all = ropePrecisionErrors(p, pos);
        for (std::size_t c = 0; c < pairs.size(); ++c) {
            QVERIFY(some.angle.col(Eigen::Index(c)) == all.angle.col(pairs[c]));
            QVERIFY(some.cos.col(Eigen::Index(c)) == all.cos.col(pairs[c]));
        }
    }

    // PyTorch 1.13 + transformers' rotate_half/apply_rotary_pos_emb, bit for bit.
    void matchesPyTorch_data() {
        QTest::addColumn<int>("index");
        const auto cases = testsupport::loadJson(QStringLiteral(POSLAB_SOURCE_DIR "/tests/data/precision/rope_precision_reference.json"))
                               .value("cases").toArray();
        QVERIFY(cases.size() >= 32);   // 20 transformers (main, legacy), 12 Meta complex64
        for (int i = 0; i < cases.size(); ++i) {
            const auto c = cases[i].toObject();
            const QString tag = QString("%1_%2_angles-%3_d%4_theta%5")
                                    .arg(c["path"].toString(), c["precision"].toString(), c["angle_precision"].toString())
                                    .arg(c["head_dim"].toInt()).arg(c["base"].toDouble());
            QTest::newRow(qPrintable(tag)) << i;
        }
    }
    void matchesPyTorch() {
        QFETCH(int, index);
        const auto c = testsupport::loadJson(QStringLiteral(POSLAB_SOURCE_DIR "/tests/data/precision/rope_precision_reference.json"))
                           .value("cases").toArray()[index].toObject();
        RopeParams p;
        p.head_dim = c["head_dim"].toInt();
        p.base = c["base"].toDouble();
        p.precision = *enumFromKey<Precision>(c["precision"].toString().toStdString());
        p.angle_precision = *enumFromKey<Precision>(c["angle_precision"].toString().toStdString());
        // Meta's complex64 path (cases "meta"): interleaved pairs.
        if (c.contains("code_path")) p.code_path = *enumFromKey<RopeCodePath>(c["code_path"].toString().toStdString());
        if (c.contains("layout")) p.layout = *enumFromKey<RopeLayout>(c["layout"].toString().toStdString());
        QVERIFY(!p.validate());
        Positions pos;
        for (const auto& v : c["positions"].toArray()) pos.push_back(std::int64_t(v.toDouble()));
        const RopeFrequencies f = ropeFrequencies(p, pos.back() + 1);
        const Vector inv = testsupport::toVector(c["inv_freq"].toArray());
        QCOMPARE(f.inv_freq.size(), inv.size());
        for (Eigen::Index i = 0; i < inv.size(); ++i)
            QVERIFY2(f.inv_freq[i] == inv[i], qPrintable(QString("inv_freq[%1]: %2 vs torch %3").arg(i).arg(f.inv_freq[i], 0, 'g', 17).arg(inv[i], 0, 'g', 17)));
        const RopeTables t = ropeTables(p, f, pos);
        const Matrix x = testsupport::toMatrix(c["q"]);
        const Matrix rotated = ropeApply(p, t, x);
        const struct {
            const char* name;
            const Matrix& got;
        } outputs[] = {{"cos", t.cos}, {"sin", t.sin}, {"rotated", rotated}};
        for (const auto& o : outputs) {
            const Matrix want = testsupport::toMatrix(c[o.name]);
            QCOMPARE(o.got.rows(), want.rows());
            QCOMPARE(o.got.cols(), want.cols());
            int differ = 0;
            QString first;
            for (Eigen::Index k = 0; k < want.rows(); ++k)
                for (Eigen::Index j = 0; j < want.cols(); ++j)
                    if (o.got(k, j) != want(k, j)) {
                        if (differ++ == 0)
                            first = QString("position %1 channel %2: %3 vs torch %4").arg(pos[std::size_t(k)]).arg(j)
                                        .arg(o.got(k, j), 0, 'g', 17).arg(want(k, j), 0, 'g', 17);
                    }
            QVERIFY2(differ == 0, qPrintable(QString("%1: %2 entries differ, first %3").arg(o.name).arg(differ).arg(first)));
        }
        // bfloat16/float16: the attention scores q̃·k̃ᵀ·head_dim^-0.5 (float32 accumulation, one
        // rounding to the dtype, the scale in the dtype), bit for bit.
        if (c.contains("scores")) {
            const Matrix rk = ropeApply(p, t, testsupport::toMatrix(c["k"]));
            const Matrix got = precisionScores(p.precision, rotated, rk, 1.0 / std::sqrt(double(p.head_dim)));
            const Matrix want = testsupport::toMatrix(c["scores"]);
            QCOMPARE(got.rows(), want.rows());
            QCOMPARE(got.cols(), want.cols());
            int differ = 0;
            QString first;
            for (Eigen::Index i = 0; i < want.rows(); ++i)
                for (Eigen::Index j = 0; j < want.cols(); ++j)
                    if (got(i, j) != want(i, j) && differ++ == 0)
                        first = QString("query %1 key %2: %3 vs torch %4").arg(pos[std::size_t(i)]).arg(pos[std::size_t(j)])
                                    .arg(got(i, j), 0, 'g', 17).arg(want(i, j), 0, 'g', 17);
            QVERIFY2(differ == 0, qPrintable(QString("scores: %1 entries differ, first %2").arg(differ).arg(first)));
        }
    }
};

QTEST_APPLESS_MAIN(TestPrecision)
#include "test_precision.moc"
