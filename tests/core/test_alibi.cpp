// ALiBi slopes (ofirpress get_slopes, MPT gen_slopes generalisation) and biases.
#include <QtTest>

#include <cmath>

#include "core/alibi.h"
#include "support/testsupport.h"

using namespace poslab;

namespace {
// The closed form, written independently of the recursion: p = 2^⌊log2 H⌋;
// h < p: 2^(−B(h+1)/p); h >= p: 2^(−B(2(h−p)+1)/(2p)).
double closedFormSlope(int heads, int h, double biasMax) {
    int p = 1;
    while (2 * p <= heads) p *= 2;
    if (h < p) return std::exp2(-biasMax * (h + 1) / p);
    return std::exp2(-biasMax * (2 * (h - p) + 1) / (2.0 * p));
}

// MPT gen_slopes, transcribed in float32:
//   _n_heads = 2 ** ceil(log2(n_heads)); m = arange(1, _n_heads + 1).float() * (bias_max / _n_heads)
//   slopes = 1.0 / pow(2, m); if _n_heads != n_heads: slopes = cat([slopes[1::2], slopes[::2]])[:n_heads]
std::vector<double> mptSlopes(int heads, double biasMax) {
    int n = 1;
    while (n < heads) n *= 2;
    const float scale = float(biasMax / n);
    std::vector<float> s;
    for (int k = 1; k <= n; ++k) {
        const float m = float(k) * scale;
        s.push_back(1.0f / float(std::pow(2.0, double(m))));
    }
    std::vector<float> order;
    if (n != heads) {
        for (int i = 1; i < n; i += 2) order.push_back(s[std::size_t(i)]);
        for (int i = 0; i < n; i += 2) order.push_back(s[std::size_t(i)]);
    } else {
        order = s;
    }
    return std::vector<double>(order.begin(), order.begin() + heads);
}
}  // namespace

class TestAlibi : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // ofirpress get_slopes, Python doubles: reproduced bit for bit in Double precision.
    void golden_data() {
        QTest::addColumn<QString>("name");
        const auto cases = testsupport::golden("alibi_ofirpress.json").value("cases").toArray();
        for (const auto& c : cases) {
            const QString name = c.toObject().value("name").toString();
            if (c.toObject().value("function").toString().endsWith("get_slopes")) QTest::newRow(qPrintable(name)) << name;
        }
    }
    void golden() {
        QFETCH(QString, name);
        const auto c = testsupport::goldenCase("alibi_ofirpress.json", name);
        AlibiParams p;
        p.heads = c.value("params").toObject().value("n_heads").toInt();
        p.precision = Precision::Double;
        const Vector expected = testsupport::toVector(c.value("output").toArray());
        const Vector got = alibiSlopes(p);
        QCOMPARE(got.size(), expected.size());
        for (Eigen::Index i = 0; i < got.size(); ++i)
            QVERIFY2(got[i] == expected[i], qPrintable(QString("head %1: %2 vs %3").arg(i).arg(got[i], 0, 'g', 17).arg(expected[i], 0, 'g', 17)));
        // Float32: each of those slopes rounded to float32
        p.precision = Precision::Float32;
        const Vector f = alibiSlopes(p);
        for (Eigen::Index i = 0; i < f.size(); ++i) QCOMPARE(f[i], double(float(expected[i])));
    }

    // Hand-derived from the recursion (B = 8).
    void handDerived_data() {
        QTest::addColumn<int>("heads");
        QTest::addColumn<QList<double>>("slopes");
        QTest::addRow("H1") << 1 << QList<double>{1.0 / 256};
        QTest::addRow("H2") << 2 << QList<double>{1.0 / 16, 1.0 / 256};
        // H=3: p=2 → 2^-4, 2^-8; get_slopes(4) = 2^-2, 2^-4, 2^-6, 2^-8 → [0::2][:1] = 2^-2
        QTest::addRow("H3") << 3 << QList<double>{0.0625, 0.00390625, 0.25};
        // H=6: p=4 → 2^-2, 2^-4, 2^-6, 2^-8; get_slopes(8)[0::2][:2] = 2^-1, 2^-3
        QTest::addRow("H6") << 6 << QList<double>{0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125};
        QTest::addRow("H8") << 8 << QList<double>{0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625};
    }
    void handDerived() {
        QFETCH(int, heads);
        QFETCH(QList<double>, slopes);
        AlibiParams p;
        p.heads = heads;
        const Vector got = alibiSlopes(p);
        QCOMPARE(got.size(), Eigen::Index(slopes.size()));
        for (int i = 0; i < slopes.size(); ++i) QCOMPARE(got[i], slopes[i]);  // exact powers of two
    }

    // Powers of two: geometric with ratio = first slope = 2^(−B/H).
    void geometricForPowersOfTwo_data() {
        QTest::addColumn<int>("heads");
        QTest::addColumn<double>("biasMax");
        for (int h : {1, 2, 4, 8, 16, 32, 64, 128, 1024, 4096})
            for (double b : {8.0, 4.0, 16.0, 12.5, 0.25})
                QTest::addRow("H%d_B%g", h, b) << h << b;
    }
    void geometricForPowersOfTwo() {
        QFETCH(int, heads);
        QFETCH(double, biasMax);
        AlibiParams p;
        p.heads = heads;
        p.bias_max = biasMax;
        QVERIFY(!p.validate());
        const Vector s = alibiSlopes(p);
        QCOMPARE(s.size(), Eigen::Index(heads));
        const double ratio = std::exp2(-biasMax / heads);
        QVERIFY(std::abs(s[0] / ratio - 1) <= 1e-15);
        for (int i = 1; i < heads; ++i)
            QVERIFY2(std::abs(s[i] / s[i - 1] / ratio - 1) <= 1e-12, qPrintable(QString("head %1").arg(i)));
        // the last slope is 2^−B
        QVERIFY(std::abs(s[heads - 1] / std::exp2(-biasMax) - 1) <= 1e-12);
    }

    // Any H: the recursion equals the independent closed form (interleave rule for H not a power of two).
    void closedForm_data() {
        QTest::addColumn<int>("heads");
        QTest::addColumn<double>("biasMax");
        for (int h : {3, 5, 6, 7, 12, 20, 24, 40, 71, 100, 1000, 4095})
            for (double b : {8.0, 16.0, 3.5}) QTest::addRow("H%d_B%g", h, b) << h << b;
    }
    void closedForm() {
        QFETCH(int, heads);
        QFETCH(double, biasMax);
        AlibiParams p;
        p.heads = heads;
        p.bias_max = biasMax;
        const Vector s = alibiSlopes(p);
        QCOMPARE(s.size(), Eigen::Index(heads));
        for (int h = 0; h < heads; ++h) {
            const double e = closedFormSlope(heads, h, biasMax);
            QVERIFY2(std::abs(s[h] / e - 1) <= 1e-12, qPrintable(QString("head %1: %2 vs %3").arg(h).arg(s[h]).arg(e)));
        }
        // the extra heads interleave between the first p slopes: all distinct, all in (0, 1)
        for (int h = 0; h < heads; ++h) QVERIFY(s[h] > 0 && s[h] < 1);
    }

    // MPT's gen_slopes (float32, ceil power of two, [1::2] then [::2]) gives the same slopes in
    // the same order, within 1 float32 ulp of the float32-rounded ofirpress slopes (MPT rounds
    // twice, 1/f32(2^m): bit-identical for bias_max 8 up to 64 heads, 1 ulp off e.g. at H=128).
    void matchesMpt_data() {
        QTest::addColumn<int>("heads");
        QTest::addColumn<double>("biasMax");
        for (int h : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 40, 48, 64, 100, 128})
            for (double b : {8.0, 16.0, 5.0}) QTest::addRow("H%d_B%g", h, b) << h << b;
    }
    void matchesMpt() {
        QFETCH(int, heads);
        QFETCH(double, biasMax);
        AlibiParams p;
        p.heads = heads;
        p.bias_max = biasMax;
        p.precision = Precision::Float32;
        const Vector s = alibiSlopes(p);
        const auto mpt = mptSlopes(heads, biasMax);
        const double tol = (biasMax == 8.0 && heads <= 64) ? 0.0 : 1.2e-7;
        for (int h = 0; h < heads; ++h)
            QVERIFY2(std::abs(s[h] / mpt[std::size_t(h)] - 1) <= tol,
                     qPrintable(QString("head %1: %2 vs %3").arg(h).arg(s[h], 0, 'g', 9).arg(mpt[std::size_t(h)], 0, 'g', 9)));
    }

    // b[h][i][j] = −m_h·(i−j) (causal form, also returned above the diagonal), −m_h·|i−j| symmetric.
    void bias_data() {
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("head");
        QTest::addColumn<bool>("symmetric");
        QTest::addColumn<QString>("precision");
        for (bool sym : {false, true})
            for (QString prec : {"double", "float32"})
                for (auto [h, head] : {std::pair{8, 0}, std::pair{8, 7}, std::pair{12, 9}, std::pair{1, 0}})
                    QTest::addRow("H%d_head%d_%s_%s", h, head, sym ? "symmetric" : "causal", qPrintable(prec))
                        << h << head << sym << prec;
    }
    void bias() {
        QFETCH(int, heads);
        QFETCH(int, head);
        QFETCH(bool, symmetric);
        QFETCH(QString, precision);
        AlibiParams p;
        p.heads = heads;
        p.symmetric = symmetric;
        p.precision = precision == "double" ? Precision::Double : Precision::Float32;
        const double m = alibiSlopes(p)[head];
        const Positions qs = {0, 1, 5, 100, 1000000}, ks = {0, 3, 5, 99, 1000000, 2000000};
        const Matrix b = alibiBias(p, head, qs, ks);
        QCOMPARE(b.rows(), Eigen::Index(qs.size()));
        QCOMPARE(b.cols(), Eigen::Index(ks.size()));
        for (std::size_t i = 0; i < qs.size(); ++i)
            for (std::size_t j = 0; j < ks.size(); ++j) {
                const double d = double(qs[i] - ks[j]);
                const double expected = -m * (symmetric ? std::abs(d) : d);
                QCOMPARE(b(Eigen::Index(i), Eigen::Index(j)), expected);
                if (qs[i] == ks[j]) QCOMPARE(b(Eigen::Index(i), Eigen::Index(j)), 0.0);
            }
    }

    // ofirpress adds +m·j (key index) to every row; that differs from −m·(i−j) by the per-row
    // constant m·i, so the softmax is the same.
    void ofirpressOffsetIsRowConstant() {
        AlibiParams p;
        p.heads = 12;
        const Positions pos = arangePositions(0, 20);
        for (int h : {0, 5, 11}) {
            const double m = alibiSlopes(p)[h];
            const Matrix b = alibiBias(p, h, pos, pos);
            for (int i = 0; i < 20; ++i)
                for (int j = 0; j <= i; ++j) QVERIFY(std::abs((b(i, j) + m * i) - m * j) <= 1e-12);
        }
    }

    void validation_data() {
        QTest::addColumn<int>("heads");
        QTest::addColumn<double>("biasMax");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("got");
        QTest::addRow("heads0") << 0 << 8.0 << "heads" << "0";
        QTest::addRow("heads-3") << -3 << 8.0 << "heads" << "-3";
        QTest::addRow("heads4097") << 4097 << 8.0 << "heads" << "4097";
        QTest::addRow("bias0") << 8 << 0.0 << "bias_max" << "0";
        QTest::addRow("bias-1") << 8 << -1.0 << "bias_max" << "-1";
        QTest::addRow("bias_nan") << 8 << std::nan("") << "bias_max" << "nan";
        QTest::addRow("bias_inf") << 8 << double(INFINITY) << "bias_max" << "inf";
        QTest::addRow("bias2000") << 8 << 2000.0 << "bias_max" << "2000";
    }
    void validation() {
        QFETCH(int, heads);
        QFETCH(double, biasMax);
        QFETCH(QString, field);
        QFETCH(QString, got);
        AlibiParams p;
        p.heads = heads;
        p.bias_max = biasMax;
        const Check c = p.validate();
        QVERIFY(c.has_value());
        QCOMPARE(QString::fromStdString(c->parameter), field);
        QCOMPARE(QString::fromStdString(c->got), got);
        QVERIFY(!c->valid.empty());
    }

    void lengthValidation_data() {
        QTest::addColumn<int>("heads");
        QTest::addColumn<qint64>("length");
        QTest::addColumn<bool>("valid");
        QTest::addRow("H8_L16") << 8 << qint64(16) << true;
        QTest::addRow("H1_L8192") << 1 << qint64(8192) << true;
        QTest::addRow("H1_L8193") << 1 << qint64(8193) << false;
        QTest::addRow("H64_L1024") << 64 << qint64(1024) << true;
        QTest::addRow("H64_L1025") << 64 << qint64(1025) << false;
        QTest::addRow("H8_L0") << 8 << qint64(0) << false;
    }
    void lengthValidation() {
        QFETCH(int, heads);
        QFETCH(qint64, length);
        QFETCH(bool, valid);
        const Check c = alibiValidateLength(heads, length);
        QCOMPARE(!c.has_value(), valid);
        if (c) {
            QCOMPARE(QString::fromStdString(c->parameter), QString("length"));
            QCOMPARE(QString::fromStdString(c->got), QString::number(length));
        }
    }

    // Extreme valid parameters give finite slopes.
    void extremesFinite() {
        for (int h : {1, 3, 4096})
            for (double b : {1e-9, 1024.0})
                for (Precision prec : {Precision::Double, Precision::Float32}) {
                    AlibiParams p;
                    p.heads = h;
                    p.bias_max = b;
                    p.precision = prec;
                    QVERIFY(!p.validate());
                    const Vector s = alibiSlopes(p);
                    QVERIFY(s.allFinite());
                    QVERIFY((s.array() >= 0).all() && (s.array() <= 1).all());
                    QVERIFY(alibiBias(p, h - 1, {0, kMaxPosition}, {kMaxPosition, 0}).allFinite());
                }
    }
};

QTEST_APPLESS_MAIN(TestAlibi)
#include "test_alibi.moc"
