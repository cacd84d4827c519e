// Colour maps (ui/render/colormap.h): the table index of t (clamped, NaN → 0), the ends of each
// map, viridis' luminance rising from end to end, the diverging map light at its centre and
// symmetric in luminance about it, ColorScale's normalisation (diverging: 0 → the centre), keys.
#include "ui/render/colormap.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace poslab::ui;

namespace {
// Relative luminance (Rec. 709 weights on linearised sRGB).
double luminance(QRgb c) {
    auto lin = [](int v) {
        const double x = v / 255.0;
        return x <= 0.04045 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * lin(qRed(c)) + 0.7152 * lin(qGreen(c)) + 0.0722 * lin(qBlue(c));
}
}  // namespace

class TestColormap : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void indexOfT_data() {
        QTest::addColumn<double>("t");
        QTest::addColumn<int>("index");
        QTest::newRow("0") << 0.0 << 0;
        QTest::newRow("1") << 1.0 << 255;
        QTest::newRow("0.5") << 0.5 << 128;   // floor(127.5 + 0.5)
        QTest::newRow("0.25") << 0.25 << 64;  // floor(63.75 + 0.5)
        QTest::newRow("-0.3") << -0.3 << 0;
        QTest::newRow("1.7") << 1.7 << 255;
        QTest::newRow("NaN") << std::numeric_limits<double>::quiet_NaN() << 0;
        QTest::newRow("+inf") << std::numeric_limits<double>::infinity() << 255;
        QTest::newRow("-inf") << -std::numeric_limits<double>::infinity() << 0;
    }
    void indexOfT() {
        QFETCH(double, t);
        QFETCH(int, index);
        QCOMPARE(colormapIndex(t), index);
    }

    void endsAreTheTablesEnds_data() {
        QTest::addColumn<int>("kind");
        QTest::newRow("viridis") << int(ColormapKind::Viridis);
        QTest::newRow("diverging") << int(ColormapKind::Diverging);
    }
    void endsAreTheTablesEnds() {
        QFETCH(int, kind);
        const auto k = ColormapKind(kind);
        const auto& table = k == ColormapKind::Diverging ? kDivergingRgb : kViridisRgb;
        QCOMPARE(colormapRgb(k, 0.0), 0xff000000u | table.front());
        QCOMPARE(colormapRgb(k, 1.0), 0xff000000u | table.back());
        QCOMPARE(qAlpha(colormapRgb(k, 0.37)), 255);
        QCOMPARE(colormapRgb(k, std::nan("")), colormapRgb(k, 0.0));
        QCOMPARE(colormapRgb(k, 5.0), colormapRgb(k, 1.0));
    }

    void viridisEndsAreDarkPurpleAndYellow() {
        const QRgb lo = colormapRgb(ColormapKind::Viridis, 0.0), hi = colormapRgb(ColormapKind::Viridis, 1.0);
        QVERIFY(qBlue(lo) > qGreen(lo) && qRed(lo) > qGreen(lo));   // #440154
        QVERIFY(qRed(hi) > 200 && qGreen(hi) > 200 && qBlue(hi) < 60); // #fde725
    }

    void viridisLuminanceRises() {
        // Rising over every 4 entries; between neighbours at most the table's 8-bit rounding back.
        for (int i = 1; i < 256; ++i) {
            QVERIFY2(luminance(kViridisRgb[i]) > luminance(kViridisRgb[i - 1]) - 1e-3, qPrintable(QString::number(i)));
            if (i >= 4) QVERIFY2(luminance(kViridisRgb[i]) > luminance(kViridisRgb[i - 4]), qPrintable(QString::number(i)));
        }
    }

    void divergingIsLightestAtItsCentre() {
        // Lightness rises to the middle and falls after it (within the tables' 8-bit rounding),
        // symmetric within a few percent.
        const double centre = luminance(colormapRgb(ColormapKind::Diverging, 0.5));
        for (int i = 0; i < 128; ++i) {
            QVERIFY(luminance(kDivergingRgb[i]) <= luminance(kDivergingRgb[i + 1]) + 5e-3);
            QVERIFY(luminance(kDivergingRgb[255 - i]) <= luminance(kDivergingRgb[254 - i]) + 5e-3);
            QVERIFY(std::abs(luminance(kDivergingRgb[i]) - luminance(kDivergingRgb[255 - i])) < 0.05);
        }
        QVERIFY(centre > 0.7);
        const QRgb lo = kDivergingRgb.front(), hi = kDivergingRgb.back();
        QVERIFY(qBlue(lo) > qRed(lo));   // negative: blue
        QVERIFY(qRed(hi) > qBlue(hi));   // positive: red
    }

    void scaleNormalises_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<double>("v");
        QTest::addColumn<double>("t");
        const int V = int(ColormapKind::Viridis), D = int(ColormapKind::Diverging);
        QTest::newRow("viridis [0,1] 0.25") << V << 0.0 << 1.0 << 0.25 << 0.25;
        QTest::newRow("viridis [2,6] 5") << V << 2.0 << 6.0 << 5.0 << 0.75;
        QTest::newRow("viridis [2,6] 2") << V << 2.0 << 6.0 << 2.0 << 0.0;
        QTest::newRow("diverging [-3,3] 0") << D << -3.0 << 3.0 << 0.0 << 0.5;
        QTest::newRow("diverging [-3,3] -3") << D << -3.0 << 3.0 << -3.0 << 0.0;
        QTest::newRow("diverging [-3,3] 1.5") << D << -3.0 << 3.0 << 1.5 << 0.75;
        QTest::newRow("empty range [1,1] 1") << V << 1.0 << 1.0 << 1.0 << 0.5;
        QTest::newRow("NaN") << D << -1.0 << 1.0 << std::numeric_limits<double>::quiet_NaN() << 0.0;
        QTest::newRow("+inf") << V << 0.0 << 1.0 << std::numeric_limits<double>::infinity() << 0.0;
    }
    void scaleNormalises() {
        QFETCH(int, kind);
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(double, v);
        QFETCH(double, t);
        const ColorScale s{ColormapKind(kind), lo, hi};
        QCOMPARE(s.normalise(v), t);
        QCOMPARE(s.rgb(v), colormapRgb(ColormapKind(kind), t));
    }

    void keysRoundTrip_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<int>("kind");
        QTest::newRow("viridis") << QStringLiteral("viridis") << int(ColormapKind::Viridis);
        QTest::newRow("diverging") << QStringLiteral("diverging") << int(ColormapKind::Diverging);
    }
    void keysRoundTrip() {
        QFETCH(QString, key);
        QFETCH(int, kind);
        QCOMPARE(colormapKey(ColormapKind(kind)), key);
        QCOMPARE(int(colormapFromKey(key, ColormapKind(1 - kind))), kind);
    }

    void unknownKeyGivesTheFallback_data() {
        QTest::addColumn<QString>("key");
        QTest::newRow("Viridis") << QStringLiteral("Viridis");
        QTest::newRow("empty") << QString();
        QTest::newRow("jet") << QStringLiteral("jet");
    }
    void unknownKeyGivesTheFallback() {
        QFETCH(QString, key);
        QCOMPARE(colormapFromKey(key, ColormapKind::Diverging), ColormapKind::Diverging);
        QCOMPARE(colormapFromKey(key, ColormapKind::Viridis), ColormapKind::Viridis);
    }
};

QTEST_APPLESS_MAIN(TestColormap)
#include "test_colormap.moc"
