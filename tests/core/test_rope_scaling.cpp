// RoPE scaling types: the shape of each scaling (YaRN bands and ramp, Llama 3 smooth band, linear,
// dynamic NTK's seq_len rule and runtime float32 arithmetic, LongRoPE's short/long choice),
// attention factors derived by hand, and independent float-typed transcriptions of the
// transformers-main float32 code for every scaling type.
#include <QtTest>

#include <cmath>
#include <numbers>

#include "core/precision.h"
#include "core/rope.h"
#include "support/testsupport.h"

using namespace poslab;
using testsupport::maxRelDiff;

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kF32Ulp = 1.1920928955078125e-7;

QString numTag(double x) {
    QString s = QString::number(x, 'g', 6);
    s.replace('+', "");
    return s;
}
const char* precTag(Precision p) { return p == Precision::Float32 ? "f32" : "f64"; }

// ---- float-typed transcriptions of transformers main (torch float32 tensors; Python scalars
// cast to float32 where they meet a tensor; `1.0 / t` is reciprocal(t); pow of the r/2 exponents
// is torch 1.13's own float32 pow — SLEEF in the vector blocks, powf in the tail — which differs
// from a correctly rounded pow by an ulp on a few exponents (measured: 1e6**(74/128)). ----
float powf32(float b, float e, int i, int n) { return torchPowf(b, e, inTorchVectorBlock(std::size_t(i), std::size_t(n))); }

std::vector<float> refPosFreqs(double base, int r) {
    std::vector<float> v;
    for (int i = 0; i < r / 2; ++i) v.push_back(powf32(float(base), float(2 * i) / float(r), i, r / 2));
    return v;
}
std::vector<float> refDefault(double base, int r) {
    std::vector<float> v = refPosFreqs(base, r);
    for (float& x : v) x = 1.0f / x;
    return v;
}

std::vector<float> refYarn(double base, int r, double factor, double orig, double bf, double bs, bool truncate) {
    const std::vector<float> pos = refPosFreqs(base, r);
    auto cd = [&](double rot) { return (r * std::log(orig / (rot * 2 * kPi))) / (2 * std::log(base)); };
    double low = cd(bf), high = cd(bs);
    if (truncate) {
        low = std::floor(low);
        high = std::ceil(high);
    }
    low = std::max(low, 0.0);
    high = std::min(high, double(r - 1));
    if (low == high) high += 0.001;
    std::vector<float> out;
    for (int i = 0; i < r / 2; ++i) {
        const float extrap = 1.0f / pos[i];
        const float interp = 1.0f / (float(factor) * pos[i]);
        float ramp = (float(i) - float(low)) / float(high - low);
        ramp = std::min(std::max(ramp, 0.0f), 1.0f);
        const float ef = 1.0f - ramp;
        out.push_back(interp * (1.0f - ef) + extrap * ef);
    }
    return out;
}

std::vector<float> refLlama3(double base, int r, double factor, double lowF, double highF, double orig) {
    const std::vector<float> inv = refDefault(base, r);
    const float lowW = float(orig / lowF), highW = float(orig / highF);
    std::vector<float> out;
    for (float f : inv) {
        const float wl = (1.0f / f) * float(2 * kPi);
        const float fl = wl > lowW ? f / float(factor) : f;
        const float smooth = ((1.0f / wl) * float(orig) - float(lowF)) / float(highF - lowF);
        const float sm = (1.0f - smooth) * fl / float(factor) + smooth * fl;
        out.push_back(!(wl < highW) && !(wl > lowW) ? sm : fl);
    }
    return out;
}

std::vector<float> refLongrope(double base, int r, const std::vector<double>& ext) {
    const std::vector<float> pos = refPosFreqs(base, r);
    std::vector<float> out;
    for (int i = 0; i < r / 2; ++i) out.push_back(1.0f / (float(ext[std::size_t(i)]) * pos[std::size_t(i)]));
    return out;
}

// Dynamic at run time: seq_len is an int64 tensor, so base' is float32 tensor arithmetic.
std::vector<float> refDynamicRuntime(double base, int r, double factor, std::int64_t maxPos, std::int64_t seq) {
    const std::int64_t s = std::max(seq, maxPos);
    float t = float(s) * float(factor);
    t = t / float(maxPos);
    t = t - float(factor - 1);
    t = float(std::pow(double(t), double(r) / (r - 2)));
    const float b = float(base) * t;
    std::vector<float> out;
    for (int i = 0; i < r / 2; ++i) out.push_back(1.0f / powf32(b, float(2 * i) / float(r), i, r / 2));
    return out;
}
// Dynamic at init / with a Python int seq_len: base' in double, then float32.
std::vector<float> refDynamicInit(double base, int r, double factor, std::int64_t maxPos, std::int64_t seq) {
    const double s = double(std::max(seq, maxPos));
    const double b = base * std::pow((factor * s / double(maxPos)) - (factor - 1), double(r) / (r - 2));
    return refDefault(b, r);
}

void expectExactF32(const Vector& got, const std::vector<float>& want) {
    QCOMPARE(got.size(), Eigen::Index(want.size()));
    for (std::size_t i = 0; i < want.size(); ++i)
        QVERIFY2(got[Eigen::Index(i)] == double(want[i]),
                 qPrintable(QString("pair %1: %2 vs %3").arg(i).arg(got[Eigen::Index(i)], 0, 'g', 9).arg(want[i], 0, 'g', 9)));
}

std::vector<double> ramp(int n, double a, double b) {
    std::vector<double> v;
    for (int i = 0; i < n; ++i) v.push_back(a + b * i);
    return v;
}

}  // namespace

class TestRopeScaling : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // ---------------------------------------------------------------- YaRN
    void yarnBands_data() {
        QTest::addColumn<int>("d");
        QTest::addColumn<double>("base");
        QTest::addColumn<double>("factor");
        QTest::addColumn<qint64>("orig");
        QTest::addColumn<double>("betaFast");
        QTest::addColumn<double>("betaSlow");
        QTest::addColumn<bool>("truncate");
        QTest::addColumn<int>("prec");
        struct C { int d; double base, factor; qint64 orig; double bf, bs; bool tr; };
        const C cases[] = {
            {64, 10000, 4, 2048, 32, 1, true},    {128, 10000, 16, 4096, 32, 1, true},
            {128, 1e6, 4, 32768, 32, 1, true},    {64, 10000, 8, 4096, 32, 1, false},
            {64, 150000, 32, 4096, 32, 1, false}, {128, 500000, 2.5, 8192, 16, 2, true},
            {16, 10000, 4, 2048, 32, 1, true},    {64, 10000, 1.5, 2048, 64, 0.5, true},
        };
        for (const C& c : cases)
            for (Precision p : {Precision::Float32, Precision::Double})
                QTest::newRow(qPrintable(QString("d%1_theta%2_f%3_orig%4_beta%5_%6_%7_%8")
                                             .arg(c.d).arg(numTag(c.base)).arg(c.factor).arg(c.orig)
                                             .arg(c.bf).arg(c.bs).arg(c.tr ? "trunc" : "notrunc").arg(precTag(p))))
                    << c.d << c.base << c.factor << c.orig << c.bf << c.bs << c.tr << int(p);
    }
    void yarnBands() {
        QFETCH(int, d);
        QFETCH(double, base);
        QFETCH(double, factor);
        QFETCH(qint64, orig);
        QFETCH(double, betaFast);
        QFETCH(double, betaSlow);
        QFETCH(bool, truncate);
        QFETCH(int, prec);
        RopeParams p;
        p.head_dim = d;
        p.base = base;
        p.scaling = RopeScaling::Yarn;
        p.factor = factor;
        p.max_positions = std::int64_t(orig * factor);
        p.original_max_positions = orig;
        p.beta_fast = betaFast;
        p.beta_slow = betaSlow;
        p.truncate = truncate;
        p.precision = Precision(prec);
        QVERIFY(!p.validate());
        // Correction range, derived here from the paper's formula.
        auto cd = [&](double rot) { return d * std::log(double(orig) / (rot * 2 * kPi)) / (2 * std::log(base)); };
        double low = cd(betaFast), high = cd(betaSlow);
        if (truncate) {
            low = std::floor(low);
            high = std::ceil(high);
        }
        low = std::max(low, 0.0);
        high = std::min(high, double(d - 1));
        const RopeYarnRange range = ropeYarnCorrectionRange(p);
        QCOMPARE(range.low, low);
        QCOMPARE(range.high, high);
        QVERIFY(high > low);

        const RopeFrequencies f = ropeFrequencies(p);
        const Vector def = ropeDefaultFrequencies(p).inv_freq;
        const double tol = p.precision == Precision::Float32 ? 2 * kF32Ulp : 1e-15;
        double prevRatio = 1.0;
        for (int i = 0; i < d / 2; ++i) {
            const double ratio = f.inv_freq[i] / def[i];
            if (i <= low) {
                QCOMPARE(f.inv_freq[i], def[i]);  // high-frequency pairs unchanged
            } else if (i >= high) {
                QVERIFY2(std::abs(ratio * factor - 1) <= tol,  // low-frequency pairs divided by factor
                         qPrintable(QString("pair %1 ratio %2").arg(i).arg(ratio, 0, 'g', 17)));
            } else {
                QVERIFY(ratio < 1.0 && ratio > 1.0 / factor);
            }
            QVERIFY(ratio <= prevRatio + 1e-6);  // the ramp is monotone
            prevRatio = ratio;
            if (p.precision == Precision::Double) {  // exact blend in double
                const double t = std::clamp((i - low) / (high - low), 0.0, 1.0);
                const double want = def[i] / factor * t + def[i] * (1 - t);
                QVERIFY(std::abs(f.inv_freq[i] / want - 1) <= 1e-14);
            }
        }
        QCOMPARE(f.attention_factor, factor > 1 ? 0.1 * std::log(factor) + 1.0 : 1.0);
        if (p.precision == Precision::Float32)
            expectExactF32(f.inv_freq, refYarn(base, d, factor, double(orig), betaFast, betaSlow, truncate));
    }

    void yarnAttentionFactor_data() {
        QTest::addColumn<double>("factor");
        QTest::addColumn<double>("mscale");
        QTest::addColumn<double>("mscaleAllDim");
        QTest::addColumn<double>("explicitAttention");
        QTest::addColumn<double>("want");
        const double nan = std::nan("");
        const double l40 = std::log(40.0);
        QTest::newRow("factor4_default") << 4.0 << nan << nan << nan << 0.1 * std::log(4.0) + 1.0;
        QTest::newRow("factor4_default_value_1.1386294361119890") << 4.0 << nan << nan << nan << 1.138629436111989;
        QTest::newRow("deepseek_v3_factor40_mscale1_mscale_all_dim1") << 40.0 << 1.0 << 1.0 << nan << 1.0;
        QTest::newRow("factor40_mscale0.707_mscale_all_dim1")
            << 40.0 << 0.707 << 1.0 << nan << (0.1 * 0.707 * l40 + 1.0) / (0.1 * l40 + 1.0);
        QTest::newRow("factor40_mscale1_mscale_all_dim0_falls_back") << 40.0 << 1.0 << 0.0 << nan << 0.1 * l40 + 1.0;
        QTest::newRow("factor40_mscale_only") << 40.0 << 1.0 << nan << nan << 0.1 * l40 + 1.0;
        QTest::newRow("factor0.5_default") << 0.5 << nan << nan << nan << 1.0;
        QTest::newRow("factor1_default") << 1.0 << nan << nan << nan << 1.0;
        QTest::newRow("factor0.5_mscale2_mscale_all_dim1") << 0.5 << 2.0 << 1.0 << nan << 1.0;
        QTest::newRow("factor4_explicit0.5") << 4.0 << 1.0 << 1.0 << 0.5 << 0.5;
    }
    void yarnAttentionFactor() {
        QFETCH(double, factor);
        QFETCH(double, mscale);
        QFETCH(double, mscaleAllDim);
        QFETCH(double, explicitAttention);
        QFETCH(double, want);
        RopeParams p;
        p.scaling = RopeScaling::Yarn;
        p.factor = factor;
        if (!std::isnan(mscale)) p.mscale = mscale;
        if (!std::isnan(mscaleAllDim)) p.mscale_all_dim = mscaleAllDim;
        if (!std::isnan(explicitAttention)) p.attention_factor = explicitAttention;
        QVERIFY(!p.validate());
        const RopeFrequencies f = ropeFrequencies(p);
        QVERIFY2(std::abs(f.attention_factor - want) <= 1e-15 * want,
                 qPrintable(QString("%1 vs %2").arg(f.attention_factor, 0, 'g', 17).arg(want, 0, 'g', 17)));
        // cos/sin carry the attention factor: at position 0, cos = attention (float32-rounded).
        const RopeTables t = ropeTables(p, f, {0});
        QCOMPARE(t.cos(0, 0), double(float(want)));
        QCOMPARE(t.sin(0, 0), 0.0);
    }

    void yarnFactorDefault() {
        // factor unset: max_positions / original_max_positions (8192/2048 = 4), both ways round.
        RopeParams p;
        p.scaling = RopeScaling::Yarn;
        p.max_positions = 8192;
        p.original_max_positions = 2048;
        QVERIFY(!p.validate());
        QCOMPARE(p.resolvedFactor(), 4.0);
        RopeParams q = p;
        q.factor = 4.0;
        QCOMPARE(ropeFrequencies(p).inv_freq, ropeFrequencies(q).inv_freq);
        QCOMPARE(ropeFrequencies(p).attention_factor, 0.1 * std::log(4.0) + 1.0);
        // original_max_positions unset → = max_positions → factor 1: nothing changes.
        RopeParams u;
        u.scaling = RopeScaling::Yarn;
        QVERIFY(!u.validate());
        QCOMPARE(u.resolvedFactor(), 1.0);
        QCOMPARE(ropeFrequencies(u).inv_freq, ropeDefaultFrequencies(u).inv_freq);
        QCOMPARE(ropeFrequencies(u).attention_factor, 1.0);
        // max < original: factor < 1, attention 1.
        RopeParams s = p;
        s.max_positions = 1024;
        QCOMPARE(s.resolvedFactor(), 0.5);
        QCOMPARE(ropeFrequencies(s).attention_factor, 1.0);
    }

    // ---------------------------------------------------------------- Llama 3
    void llama3Band_data() {
        QTest::addColumn<int>("d");
        QTest::addColumn<double>("base");
        QTest::addColumn<double>("factor");
        QTest::addColumn<double>("lowF");
        QTest::addColumn<double>("highF");
        QTest::addColumn<qint64>("orig");
        QTest::addColumn<int>("prec");
        struct C { int d; double base, factor, lo, hi; qint64 orig; };
        const C cases[] = {{128, 500000, 8, 1, 4, 8192},  {128, 500000, 32, 1, 4, 8192}, {64, 10000, 4, 1, 4, 2048},
                           {128, 500000, 8, 2, 16, 8192}, {64, 1e6, 16, 0.5, 8, 4096},  {32, 10000, 8, 1, 2, 1024}};
        for (const C& c : cases)
            for (Precision p : {Precision::Float32, Precision::Double})
                QTest::newRow(qPrintable(QString("d%1_theta%2_f%3_low%4_high%5_orig%6_%7")
                                             .arg(c.d).arg(numTag(c.base)).arg(c.factor).arg(c.lo).arg(c.hi)
                                             .arg(c.orig).arg(precTag(p))))
                    << c.d << c.base << c.factor << c.lo << c.hi << c.orig << int(p);
    }
    void llama3Band() {
        QFETCH(int, d);
        QFETCH(double, base);
        QFETCH(double, factor);
        QFETCH(double, lowF);
        QFETCH(double, highF);
        QFETCH(qint64, orig);
        QFETCH(int, prec);
        RopeParams p;
        p.head_dim = d;
        p.base = base;
        p.scaling = RopeScaling::Llama3;
        p.factor = factor;
        p.low_freq_factor = lowF;
        p.high_freq_factor = highF;
        p.max_positions = orig * 16;
        p.original_max_positions = orig;
        p.precision = Precision(prec);
        QVERIFY(!p.validate());
        const RopeFrequencies f = ropeFrequencies(p);
        const Vector def = ropeDefaultFrequencies(p).inv_freq;
        const double tol = p.precision == Precision::Float32 ? 2 * kF32Ulp : 1e-15;
        int unchanged = 0, divided = 0, smooth = 0;
        for (int i = 0; i < d / 2; ++i) {
            const double wl = 2 * kPi / def[i];
            if (wl < double(orig) / highF * (1 - 1e-6)) {
                QCOMPARE(f.inv_freq[i], def[i]);
                ++unchanged;
            } else if (wl > double(orig) / lowF * (1 + 1e-6)) {
                QVERIFY(std::abs(f.inv_freq[i] * factor / def[i] - 1) <= tol);
                ++divided;
            } else if (wl > double(orig) / highF * (1 + 1e-6) && wl < double(orig) / lowF * (1 - 1e-6)) {
                // The smooth band lies between f/factor and f.
                QVERIFY(f.inv_freq[i] <= def[i] * (1 + tol) && f.inv_freq[i] >= def[i] / factor * (1 - tol));
                if (p.precision == Precision::Double) {
                    const double s = (double(orig) / wl - lowF) / (highF - lowF);
                    QVERIFY(std::abs(f.inv_freq[i] / ((1 - s) * def[i] / factor + s * def[i]) - 1) <= 1e-14);
                }
                ++smooth;
            }
        }
        QVERIFY(unchanged > 0 && divided > 0);
        QCOMPARE(f.attention_factor, 1.0);
        if (p.precision == Precision::Float32)
            expectExactF32(f.inv_freq, refLlama3(base, d, factor, lowF, highF, double(orig)));
        // Llama 3.1 (hand count): wavelengths 2π·5e5^(i/64) < 2048 for i <= 28, > 8192 for i >= 35.
        if (d == 128 && base == 500000 && factor == 8 && lowF == 1 && highF == 4 && orig == 8192) {
            QCOMPARE(unchanged, 29);
            QCOMPARE(smooth, 6);
            QCOMPARE(divided, 29);
        }
    }

    // ---------------------------------------------------------------- linear
    void linear_data() {
        QTest::addColumn<int>("d");
        QTest::addColumn<double>("base");
        QTest::addColumn<double>("factor");
        QTest::addColumn<int>("prec");
        for (int d : {16, 64, 128})
            for (double f : {2.0, 4.0, 0.5, 3.7})
                for (Precision p : {Precision::Float32, Precision::Double})
                    QTest::newRow(qPrintable(QString("d%1_theta1e4_f%2_%3").arg(d).arg(f).arg(precTag(p))))
                        << d << 10000.0 << f << int(p);
    }
    void linear() {
        QFETCH(int, d);
        QFETCH(double, base);
        QFETCH(double, factor);
        QFETCH(int, prec);
        RopeParams p;
        p.head_dim = d;
        p.base = base;
        p.scaling = RopeScaling::Linear;
        p.factor = factor;
        p.precision = Precision(prec);
        QVERIFY(!p.validate());
        const RopeFrequencies f = ropeFrequencies(p);
        const Vector def = ropeDefaultFrequencies(p).inv_freq;
        const double tol = p.precision == Precision::Float32 ? kF32Ulp : 1e-15;
        QVERIFY(maxRelDiff(f.inv_freq, def / factor) <= tol);
        QCOMPARE(f.attention_factor, 1.0);
        if (p.precision == Precision::Float32) {
            std::vector<float> want = refDefault(base, d);
            for (float& x : want) x = x / float(factor);
            expectExactF32(f.inv_freq, want);
        } else {  // position interpolation: angle at p equals the unscaled angle at p/factor
            const Positions pos{0, 10, 4096, 100000};
            const Matrix a = ropeAngles(p, f, pos);
            for (std::size_t k = 0; k < pos.size(); ++k)
                for (int i = 0; i < d / 2; ++i)
                    QVERIFY(std::abs(a(Eigen::Index(k), i) - double(pos[k]) / factor * def[i]) <=
                            1e-12 * std::max(1.0, std::abs(a(Eigen::Index(k), i))));
        }
    }

    // ---------------------------------------------------------------- dynamic NTK
    void dynamic_data() {
        QTest::addColumn<int>("d");
        QTest::addColumn<double>("base");
        QTest::addColumn<double>("factor");
        QTest::addColumn<qint64>("maxPos");
        QTest::addColumn<qint64>("seq");
        QTest::addColumn<int>("prec");
        struct C { int d; double base, factor; qint64 maxPos, seq; };
        const C cases[] = {{64, 10000, 2, 2048, 1}, {64, 10000, 2, 2048, 2048}, {64, 10000, 2, 2048, 2049},
                           {64, 10000, 2, 2048, 8192}, {128, 500000, 4, 4096, 131072}, {16, 10000, 8, 64, 1000},
                           {4, 10000, 3, 100, 12345},  {128, 10000, 0.5, 2048, 9000}, {96, 1e6, 16, 32768, 1000000}};
        for (const C& c : cases)
            for (Precision p : {Precision::Float32, Precision::Double})
                QTest::newRow(qPrintable(QString("d%1_theta%2_f%3_max%4_seq%5_%6")
                                             .arg(c.d).arg(numTag(c.base)).arg(c.factor).arg(c.maxPos).arg(c.seq)
                                             .arg(precTag(p))))
                    << c.d << c.base << c.factor << c.maxPos << c.seq << int(p);
    }
    void dynamic() {
        QFETCH(int, d);
        QFETCH(double, base);
        QFETCH(double, factor);
        QFETCH(qint64, maxPos);
        QFETCH(qint64, seq);
        QFETCH(int, prec);
        RopeParams p;
        p.head_dim = d;
        p.base = base;
        p.scaling = RopeScaling::Dynamic;
        p.factor = factor;
        p.max_positions = maxPos;
        p.precision = Precision(prec);
        QVERIFY(!p.validate());
        const Vector def = ropeDefaultFrequencies(p).inv_freq;
        // Init (no seq_len): unscaled.
        QVERIFY(maxRelDiff(ropeFrequencies(p).inv_freq, def) <= 1e-15);
        const RopeFrequencies init = ropeFrequencies(p, seq);
        const RopeFrequencies run = ropeRuntimeFrequencies(p, seq);
        QCOMPARE(init.attention_factor, 1.0);
        if (seq <= maxPos) {
            QVERIFY(maxRelDiff(init.inv_freq, def) <= 1e-15);
            QVERIFY(maxRelDiff(run.inv_freq, def) <= 1e-15);  // the reset rule
        } else {
            // base' = base·(1 + factor·(s/max − 1))^(r/(r−2)) > base for any factor > 0.
            QCOMPARE(init.inv_freq[0], 1.0);
            for (int i = 1; i < d / 2; ++i) QVERIFY(init.inv_freq[i] < def[i]);
            const double sd = double(seq), md = double(maxPos);
            const double bp = base * std::pow(factor * sd / md - (factor - 1), double(d) / (d - 2));
            for (int i = 0; i < d / 2; ++i) {
                const double want = std::pow(bp, -2.0 * i / d);
                // float32: the exponent f32(2i/r) carries up to half an ulp, amplified by ln(base').
                const double tol = p.precision == Precision::Float32 ? (std::log(bp) + 4) * kF32Ulp : 1e-13;
                QVERIFY2(std::abs(init.inv_freq[i] / want - 1) <= tol, qPrintable(QString("pair %1").arg(i)));
                // runtime float32 base' stays within the contract (2e-6 relative) of the init value
                QVERIFY(std::abs(run.inv_freq[i] / init.inv_freq[i] - 1) <= 2e-6);
            }
        }
        if (p.precision == Precision::Float32) {
            expectExactF32(init.inv_freq, refDynamicInit(base, d, factor, maxPos, seq));
            if (seq > maxPos) expectExactF32(run.inv_freq, refDynamicRuntime(base, d, factor, maxPos, seq));
        } else {
            QVERIFY(maxRelDiff(run.inv_freq, init.inv_freq) <= 1e-15);
        }
        // seq_len in params acts like the argument.
        RopeParams ps = p;
        ps.seq_len = seq;
        QCOMPARE(ropeFrequencies(ps).inv_freq, init.inv_freq);
        // ropeRotate applies the runtime rule with seq_len = max(positions)+1.
        const Positions pos{0, 3, seq - 1};
        Matrix x(3, d);
        for (Eigen::Index n = 0; n < x.size(); ++n) x(n / d, n % d) = std::sin(0.5 + 0.7 * double(n));
        const Matrix want = ropeApply(p, ropeTables(p, run, pos), x);
        QCOMPARE(ropeRotate(p, pos, x), want);
    }

    // ---------------------------------------------------------------- LongRoPE
    void longrope_data() {
        QTest::addColumn<int>("d");
        QTest::addColumn<double>("base");
        QTest::addColumn<qint64>("maxPos");
        QTest::addColumn<qint64>("orig");
        QTest::addColumn<double>("factor");  // NaN = unset
        QTest::addColumn<qint64>("seq");     // 0 = unset
        QTest::addColumn<int>("prec");
        const double nan = std::nan("");
        struct C { int d; double base; qint64 maxPos, orig; double factor; qint64 seq; };
        const C cases[] = {{96, 10000, 131072, 4096, nan, 0},    {96, 10000, 131072, 4096, nan, 4096},
                           {96, 10000, 131072, 4096, nan, 4097}, {64, 10000, 131072, 4096, 8.0, 5000},
                           {64, 10000, 2048, 4096, nan, 5000},   {16, 10000, 2048, 2048, 4.0, 2049},
                           {16, 10000, 2048, 2048, nan, 2049}};
        for (const C& c : cases)
            for (Precision p : {Precision::Float32, Precision::Double})
                QTest::newRow(qPrintable(QString("d%1_theta%2_max%3_orig%4_f%5_seq%6_%7")
                                             .arg(c.d).arg(numTag(c.base)).arg(c.maxPos).arg(c.orig)
                                             .arg(std::isnan(c.factor) ? QString("unset") : QString::number(c.factor))
                                             .arg(c.seq ? QString::number(c.seq) : QString("unset")).arg(precTag(p))))
                    << c.d << c.base << c.maxPos << c.orig << c.factor << c.seq << int(p);
    }
    void longrope() {
        QFETCH(int, d);
        QFETCH(double, base);
        QFETCH(qint64, maxPos);
        QFETCH(qint64, orig);
        QFETCH(double, factor);
        QFETCH(qint64, seq);
        QFETCH(int, prec);
        RopeParams p;
        p.head_dim = d;
        p.base = base;
        p.scaling = RopeScaling::LongRope;
        p.max_positions = maxPos;
        p.original_max_positions = orig;
        if (!std::isnan(factor)) p.factor = factor;
        if (seq) p.seq_len = seq;
        p.short_factor = ramp(d / 2, 1.0, 0.01);
        p.long_factor = ramp(d / 2, 1.0, 0.75);
        p.precision = Precision(prec);
        QVERIFY(!p.validate());
        const RopeFrequencies f = ropeFrequencies(p);
        const bool useLong = seq > orig;
        const std::vector<double>& ext = useLong ? p.long_factor : p.short_factor;
        // float32: the exponent f32(2i/r) carries up to half an ulp, amplified by ln(base).
        const double tol = p.precision == Precision::Float32 ? (std::log(base) + 4) * kF32Ulp : 1e-14;
        for (int i = 0; i < d / 2; ++i) {
            const double want = 1.0 / (ext[std::size_t(i)] * std::pow(base, 2.0 * i / d));
            QVERIFY2(std::abs(f.inv_freq[i] / want - 1) <= tol, qPrintable(QString("pair %1").arg(i)));
        }
        if (p.precision == Precision::Float32) expectExactF32(f.inv_freq, refLongrope(base, d, ext));
        const double fac = std::isnan(factor) ? double(maxPos) / double(orig) : factor;
        const double att = fac <= 1 ? 1.0 : std::sqrt(1 + std::log(fac) / std::log(double(orig)));
        QCOMPARE(f.attention_factor, att);
        // Runtime rule: long factors for every position of a call longer than orig.
        RopeParams pr = p;
        pr.seq_len.reset();
        const Positions shortCall{0, 5, orig - 1}, longCall{0, 5, orig};
        const Matrix x = Matrix::Ones(3, d);
        const Matrix rs = ropeRotate(pr, shortCall, x), rl = ropeRotate(pr, longCall, x);
        const RopeFrequencies fs = ropeFrequencies(pr, orig), fl = ropeFrequencies(pr, orig + 1);
        QCOMPARE(rs, ropeApply(pr, ropeTables(pr, fs, shortCall), x));
        QCOMPARE(rl, ropeApply(pr, ropeTables(pr, fl, longCall), x));
        // Position 5 rotates differently in the two calls (long vs short factors).
        QVERIFY(testsupport::maxAbsDiff(rs.row(1), rl.row(1)) > 1e-3);
        QCOMPARE(ropeRuntimeFrequencies(pr, orig + 1).inv_freq, fl.inv_freq);
    }

    void longropePhi3Attention() {
        // Phi-3-mini-128k: 131072 / 4096 = 32 → sqrt(1 + ln 32 / ln 4096) = sqrt(1 + 5/12) = sqrt(17/12).
        RopeParams p;
        p.head_dim = 96;
        p.scaling = RopeScaling::LongRope;
        p.max_positions = 131072;
        p.original_max_positions = 4096;
        p.short_factor.assign(48, 1.0);
        p.long_factor.assign(48, 2.0);
        QVERIFY(!p.validate());
        QVERIFY(std::abs(ropeFrequencies(p).attention_factor - std::sqrt(17.0 / 12.0)) <= 1e-15);
        p.attention_factor = 1.25;  // explicit wins
        QCOMPARE(ropeFrequencies(p).attention_factor, 1.25);
    }

    void longropeFactorInParamsFollowsMain() {
        // conventions.md's v4-vs-main case (d16, max 8192, factor 4 and original 2048 in the rope
        // parameters): main keeps factor 4 and uses original 2048, so the attention factor is
        // sqrt(1 + ln 4/ln 2048) = sqrt(1 + 2/11) = sqrt(13/11) ≈ 1.0871 (v4: 1.0742), and a call of
        // 2049 tokens uses the long factors (v4: short).
        RopeParams p;
        p.head_dim = 16;
        p.scaling = RopeScaling::LongRope;
        p.max_positions = 8192;
        p.original_max_positions = 2048;
        p.factor = 4.0;
        p.short_factor = ramp(8, 1.0, 0.1);
        p.long_factor = ramp(8, 2.0, 1.0);
        QVERIFY(!p.validate());
        const RopeFrequencies f = ropeFrequencies(p, 2049);
        QVERIFY(std::abs(f.attention_factor - std::sqrt(13.0 / 11.0)) <= 1e-15);
        QVERIFY(std::abs(f.attention_factor - 1.0871) < 5e-5);
        for (int i = 0; i < 8; ++i)
            QVERIFY(std::abs(f.inv_freq[i] * p.long_factor[std::size_t(i)] * std::pow(10000.0, 2.0 * i / 16) - 1) < 1e-6);
    }

    // ---------------------------------------------------------------- explicit theta
    void explicitThetaReplacesScaling_data() {
        QTest::addColumn<int>("scaling");
        QTest::newRow("theta_with_none") << int(RopeScaling::None);
        QTest::newRow("theta_with_linear_f4") << int(RopeScaling::Linear);
        QTest::newRow("theta_with_yarn_f4") << int(RopeScaling::Yarn);
        QTest::newRow("theta_with_llama3_f4") << int(RopeScaling::Llama3);
    }
    void explicitThetaReplacesScaling() {
        QFETCH(int, scaling);
        for (Precision prec : {Precision::Float32, Precision::Double}) {
            RopeParams p;
            p.head_dim = 6;
            p.scaling = RopeScaling(scaling);
            p.factor = 4.0;
            p.theta = {1.0, 0.1, 0.003};
            p.precision = prec;
            QVERIFY(!p.validate());
            const RopeFrequencies f = ropeFrequencies(p);
            QCOMPARE(f.inv_freq.size(), Eigen::Index(3));
            for (int i = 0; i < 3; ++i) QCOMPARE(f.inv_freq[i], roundTo(prec, p.theta[std::size_t(i)]));
            QCOMPARE(f.attention_factor, 1.0);
        }
    }
};

QTEST_APPLESS_MAIN(TestRopeScaling)
#include "test_rope_scaling.moc"
