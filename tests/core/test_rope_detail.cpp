// The intermediate numbers of RoPE's scalings (core/rope_detail.h) are the ones ropeFrequencies
// uses: dynamic NTK's base' gives its inverse frequencies, Llama 3's bands and smooth factors give
// its blend, pair by pair.
#include "core/rope.h"
#include "core/rope_detail.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace poslab;

class TestRopeDetail : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void dynamicBaseGivesTheFrequencies_data() {
        QTest::addColumn<int>("dim");
        QTest::addColumn<double>("base");
        QTest::addColumn<double>("factor");
        QTest::addColumn<qint64>("maxPositions");
        QTest::addColumn<qint64>("seqLen");
        QTest::addColumn<qint64>("length");
        QTest::newRow("d32_base20000_f3_max128_seq300") << 32 << 20000.0 << 3.0 << qint64(128) << qint64(300) << qint64(300);
        QTest::newRow("d128_base500000_f8_max8192_seq32768") << 128 << 500000.0 << 8.0 << qint64(8192) << qint64(32768) << qint64(32768);
        QTest::newRow("d64_base10000_f2_max2048_seq100_within") << 64 << 10000.0 << 2.0 << qint64(2048) << qint64(100) << qint64(2048);
        QTest::newRow("d4_base10_f1.5_max16_seq17") << 4 << 10.0 << 1.5 << qint64(16) << qint64(17) << qint64(17);
    }
    void dynamicBaseGivesTheFrequencies() {
        QFETCH(int, dim);
        QFETCH(double, base);
        QFETCH(double, factor);
        QFETCH(qint64, maxPositions);
        QFETCH(qint64, seqLen);
        QFETCH(qint64, length);
        RopeParams p;
        p.head_dim = dim;
        p.base = base;
        p.scaling = RopeScaling::Dynamic;
        p.factor = factor;
        p.max_positions = maxPositions;
        p.precision = Precision::Double;
        QVERIFY(!p.validate());
        const RopeDynamicBase b = ropeDynamicBase(p, seqLen);
        QCOMPARE(b.length, length);
        // θ_i = base'^(−2i/r): every pair, in double.
        const Vector inv = ropeFrequencies(p, seqLen).inv_freq;
        for (Eigen::Index i = 0; i < inv.size(); ++i)
            QVERIFY2(std::abs(inv[i] / std::pow(b.base, -2.0 * double(i) / dim) - 1) < 1e-12, qPrintable(QString::number(i)));
        // params.seq_len is the default, as for ropeFrequencies.
        p.seq_len = seqLen;
        QCOMPARE(ropeDynamicBase(p).base, b.base);
    }

    void llama3DetailGivesTheBlend_data() {
        QTest::addColumn<double>("factor");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::addColumn<qint64>("original");
        QTest::addColumn<int>("precision");
        QTest::newRow("f8_low1_high4_orig8192_float32") << 8.0 << 1.0 << 4.0 << qint64(8192) << int(Precision::Float32);
        QTest::newRow("f16_low2_high8_orig2048_double") << 16.0 << 2.0 << 8.0 << qint64(2048) << int(Precision::Double);
        QTest::newRow("f32_low1.5_high3_orig4096_float32") << 32.0 << 1.5 << 3.0 << qint64(4096) << int(Precision::Float32);
    }
    void llama3DetailGivesTheBlend() {
        QFETCH(double, factor);
        QFETCH(double, low);
        QFETCH(double, high);
        QFETCH(qint64, original);
        QFETCH(int, precision);
        RopeParams p;
        p.head_dim = 128;
        p.base = 500000;
        p.scaling = RopeScaling::Llama3;
        p.factor = factor;
        p.low_freq_factor = low;
        p.high_freq_factor = high;
        p.original_max_positions = original;
        p.precision = Precision(precision);
        QVERIFY(!p.validate());
        const RopeLlama3Detail d = ropeLlama3Detail(p);
        QCOMPARE(d.highFreqWavelength, double(original) / high);
        QCOMPARE(d.lowFreqWavelength, double(original) / low);
        const Vector f0 = ropeDefaultFrequencies(p).inv_freq, f = ropeFrequencies(p).inv_freq;
        QCOMPARE(Eigen::Index(d.band.size()), f.size());
        int seen[3] = {0, 0, 0};
        for (Eigen::Index i = 0; i < f.size(); ++i) {
            const double wl = d.wavelength[i];
            QVERIFY(std::abs(wl / (2 * std::numbers::pi / f0[i]) - 1) < 1e-6);
            const double ratio = f[i] / f0[i];
            const QString at = QStringLiteral("pair %1, wavelength %2").arg(i).arg(wl);
            switch (d.band[std::size_t(i)]) {
                case RopeLlama3Band::Unchanged:
                    QVERIFY2(wl < d.highFreqWavelength * (1 + 1e-6) && ratio == 1, qPrintable(at));
                    break;
                case RopeLlama3Band::Divided:
                    QVERIFY2(wl > d.lowFreqWavelength * (1 - 1e-6) && std::abs(ratio * factor - 1) < 1e-6, qPrintable(at));
                    break;
                case RopeLlama3Band::Smoothed: {
                    QVERIFY2(wl >= d.highFreqWavelength * (1 - 1e-6) && wl <= d.lowFreqWavelength * (1 + 1e-6), qPrintable(at));
                    const double s = d.smooth[i];
                    QVERIFY2(std::abs(s - (double(original) / wl - low) / (high - low)) < 1e-5, qPrintable(at));
                    QVERIFY2(std::abs(ratio - ((1 - s) / factor + s)) < 1e-5, qPrintable(at));
                    break;
                }
            }
            ++seen[int(d.band[std::size_t(i)])];
        }
        // Each row's bounds fall between pairs: all three bands occur.
        QVERIFY(seen[0] > 0 && seen[1] > 0 && seen[2] > 0);
    }
};

QTEST_MAIN(TestRopeDetail)
#include "test_rope_detail.moc"
