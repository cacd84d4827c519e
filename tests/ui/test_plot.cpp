// Plot helpers (ui/render/plot.h): ticks lie within their range, rise by one round step (1, 2 or
// 5 × 10^k), at most about maxTicks of them, their labels all different; log ticks are powers of
// ten (with 2 and 5 on short ranges); integer ticks are multiples of a step >= 1; labels are
// written one way; Axis::map is monotone, sends the ends to the pixel ends and unmap inverts it.
#include "ui/render/plot.h"

#include <QImage>
#include <QPainter>
#include <QPainterPath>

#include <QtTest>

#include <cmath>
#include <set>

using namespace poslab::ui;
using namespace poslab::ui::plot;

namespace {
bool isRoundStep(double step) {
    const double mag = std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (std::abs(step - m * mag) < 1e-9 * step) return true;
    return false;
}
}  // namespace

namespace {
// The alpha summed over an image: pixels covered, partial ones in part.
double ink(const QImage& img) {
    double sum = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) sum += qAlpha(img.pixel(x, y)) / 255.0;
    return sum;
}
// An antialiased transparent image of `size` with `draw` painted on it.
template <class Draw>
QImage drawn(QSize size, Draw draw) {
    QImage img(size, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::transparent);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    draw(p);
    return img;
}
}  // namespace

class TestPlot : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void linearTicksAreRoundAndWithin_data() {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<int>("maxTicks");
        QTest::addColumn<QList<double>>("expected");   // empty: properties only
        QTest::newRow("[0, 1] 6") << 0.0 << 1.0 << 6 << QList<double>{0, 0.2, 0.4, 0.6, 0.8, 1.0};
        QTest::newRow("[0, 10] 5") << 0.0 << 10.0 << 5 << QList<double>{0, 2, 4, 6, 8, 10};
        QTest::newRow("[-1, 1] 4") << -1.0 << 1.0 << 4 << QList<double>{-1, -0.5, 0, 0.5, 1};
        QTest::newRow("[3, 97] 6") << 3.0 << 97.0 << 6 << QList<double>{20, 40, 60, 80};
        QTest::newRow("[10, 0] reversed") << 10.0 << 0.0 << 5 << QList<double>{0, 2, 4, 6, 8, 10};
        QTest::newRow("[-0.3, 0.7] 6") << -0.3 << 0.7 << 6 << QList<double>{};
        QTest::newRow("[1e-7, 3e-7] 6") << 1e-7 << 3e-7 << 6 << QList<double>{};
        QTest::newRow("[0, 131072] 8") << 0.0 << 131072.0 << 8 << QList<double>{};
        QTest::newRow("[-3.7e5, 1.2e6] 6") << -3.7e5 << 1.2e6 << 6 << QList<double>{};
        QTest::newRow("[0.9999, 1.0001] 6") << 0.9999 << 1.0001 << 6 << QList<double>{};
    }
    void linearTicksAreRoundAndWithin() {
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(int, maxTicks);
        QFETCH(QList<double>, expected);
        const std::vector<double> t = ticks(lo, hi, maxTicks);
        const double a = std::min(lo, hi), b = std::max(lo, hi);
        QVERIFY(t.size() >= 2);
        QVERIFY(int(t.size()) <= maxTicks + 1);
        for (double v : t) QVERIFY2(v >= a - 1e-12 * (b - a) && v <= b + 1e-12 * (b - a), qPrintable(QString::number(v)));
        const double step = t[1] - t[0];
        QVERIFY(isRoundStep(step));
        for (std::size_t i = 1; i < t.size(); ++i) QVERIFY(std::abs((t[i] - t[i - 1]) - step) < 1e-9 * step);
        const QStringList labels = tickLabels(t);
        QCOMPARE(std::set<QString>(labels.begin(), labels.end()).size(), t.size());
        if (!expected.isEmpty()) {
            QCOMPARE(t.size(), std::size_t(expected.size()));
            for (std::size_t i = 0; i < t.size(); ++i) QVERIFY2(std::abs(t[i] - expected[qsizetype(i)]) < 1e-12, qPrintable(QString::number(t[i])));
        }
    }

    void degenerateRanges_data() {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<bool>("log");
        QTest::addColumn<int>("count");
        QTest::newRow("[2, 2]") << 2.0 << 2.0 << false << 1;
        QTest::newRow("[0, inf]") << 0.0 << qInf() << false << 0;
        QTest::newRow("[NaN, 1]") << qQNaN() << 1.0 << false << 0;
        QTest::newRow("log [-5, -1]") << -5.0 << -1.0 << true << 0;
    }
    void degenerateRanges() {
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(bool, log);
        QFETCH(int, count);
        QCOMPARE(int(ticks(lo, hi, 6, log).size()), count);
    }

    // A range of a few ulps far from 0 (a near-constant curve): ticks end, at most maxTicks + 1
    // of them (stepping by adding the step to a value 2^53 steps from 0 never advanced).
    void fewUlpRangesEnd_data() {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::newRow("[1, 1+ulp]") << 1.0 << std::nextafter(1.0, 2.0);
        QTest::newRow("[2.5, 2.5+ulp]") << 2.5 << std::nextafter(2.5, 3.0);
        QTest::newRow("[-1e6, -1e6+4ulp]") << -1e6 << std::nextafter(std::nextafter(std::nextafter(std::nextafter(-1e6, 0.0), 0.0), 0.0), 0.0);
        QTest::newRow("[1e300, 1.0000001e300]") << 1e300 << 1.0000001e300;
    }
    void fewUlpRangesEnd() {
        QFETCH(double, lo);
        QFETCH(double, hi);
        const std::vector<double> t = ticks(lo, hi, 6);
        QVERIFY2(t.size() <= 7, qPrintable(QString::number(t.size())));
        for (double v : t) QVERIFY(std::isfinite(v));
    }

    void logTicks_data() {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<int>("maxTicks");
        QTest::addColumn<QList<double>>("expected");
        QTest::addColumn<QStringList>("labels");
        QTest::newRow("[1, 1e5] 6") << 1.0 << 1e5 << 6 << QList<double>{1, 10, 100, 1e3, 1e4, 1e5}
                                    << QStringList{"1e0", "1e1", "1e2", "1e3", "1e4", "1e5"};
        QTest::newRow("[1, 50] short: 2 and 5 between") << 1.0 << 50.0 << 6 << QList<double>{1, 2, 5, 10, 20, 50}
                                                        << QStringList{"1", "2", "5", "10", "20", "50"};
        QTest::newRow("[1, 1e12] 4: every 4th decade") << 1.0 << 1e12 << 4 << QList<double>{1, 1e4, 1e8, 1e12}
                                                       << QStringList{"1e0", "1e4", "1e8", "1e12"};
        QTest::newRow("[0.5, 30]") << 0.5 << 30.0 << 6 << QList<double>{0.5, 1, 2, 5, 10, 20}
                                   << QStringList{"0.5", "1", "2", "5", "10", "20"};
    }
    void logTicks() {
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(int, maxTicks);
        QFETCH(QList<double>, expected);
        QFETCH(QStringList, labels);
        const std::vector<double> t = ticks(lo, hi, maxTicks, true);
        QCOMPARE(t.size(), std::size_t(expected.size()));
        for (std::size_t i = 0; i < t.size(); ++i) QVERIFY(std::abs(t[i] / expected[qsizetype(i)] - 1) < 1e-12);
        QCOMPARE(tickLabels(t, true), labels);
    }

    void integerTicksAreMultiplesOfAStep_data() {
        QTest::addColumn<qint64>("lo");
        QTest::addColumn<qint64>("hi");
        QTest::addColumn<int>("maxTicks");
        QTest::addColumn<qint64>("step");
        QTest::newRow("[0, 4] 10: every position") << qint64(0) << qint64(4) << 10 << qint64(1);
        QTest::newRow("[0, 100] 5") << qint64(0) << qint64(100) << 5 << qint64(20);
        QTest::newRow("[0, 131071] 6") << qint64(0) << qint64(131071) << 6 << qint64(50000);
        QTest::newRow("[-7, 23] 4") << qint64(-7) << qint64(23) << 4 << qint64(10);
        QTest::newRow("[1000, 1003] 6") << qint64(1000) << qint64(1003) << 6 << qint64(1);
    }
    void integerTicksAreMultiplesOfAStep() {
        QFETCH(qint64, lo);
        QFETCH(qint64, hi);
        QFETCH(int, maxTicks);
        QFETCH(qint64, step);
        QCOMPARE(integerTickStep(lo, hi, maxTicks), std::int64_t(step));
        const auto t = integerTicks(lo, hi, maxTicks);
        QVERIFY(t.size() >= 2);
        for (std::size_t i = 0; i < t.size(); ++i) {
            QVERIFY(t[i] >= lo && t[i] <= hi);
            QCOMPARE(t[i] % step, std::int64_t(0));
            if (i) QCOMPARE(t[i] - t[i - 1], std::int64_t(step));
        }
        QVERIFY(t.front() - step < lo);   // none missing at either end
        QVERIFY(t.back() + step > hi);
    }

    void tickLabelsAreWrittenOneWay_data() {
        QTest::addColumn<QList<double>>("values");
        QTest::addColumn<QStringList>("labels");
        QTest::newRow("integers") << QList<double>{0, 2, 4} << QStringList{"0", "2", "4"};
        QTest::newRow("decimals") << QList<double>{-0.5, 0, 0.25} << QStringList{"-0.5", "0", "0.25"};
        QTest::newRow("0.9999 … 1.0001 (4 digits would read 1, 1, 1)")
            << QList<double>{0.9999, 0.99995, 1, 1.00005, 1.0001} << QStringList{"0.9999", "0.99995", "1", "1.00005", "1.0001"};
        QTest::newRow("2e6 … 2.0004e6") << QList<double>{2e6, 2.0002e6, 2.0004e6} << QStringList{"2e6", "2.0002e6", "2.0004e6"};
        QTest::newRow("5e5, 1e6, 1.5e6") << QList<double>{0, 5e5, 1e6, 1.5e6} << QStringList{"0", "5e5", "1e6", "1.5e6"};
    }
    void tickLabelsAreWrittenOneWay() {
        QFETCH(QList<double>, values);
        QFETCH(QStringList, labels);
        QCOMPARE(tickLabels({values.begin(), values.end()}), labels);
    }

    void axisMapping_data() {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<bool>("log");
        QTest::addColumn<double>("a");
        QTest::addColumn<double>("b");
        QTest::newRow("x [0, 10] → [50, 450]") << 0.0 << 10.0 << false << 50.0 << 450.0;
        QTest::newRow("y [-1, 1] → [300, 20] (upwards)") << -1.0 << 1.0 << false << 300.0 << 20.0;
        QTest::newRow("log [1, 1e4] → [0, 400]") << 1.0 << 1e4 << true << 0.0 << 400.0;
        QTest::newRow("log y [1e-3, 1] → [200, 0]") << 1e-3 << 1.0 << true << 200.0 << 0.0;
    }
    void axisMapping() {
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(bool, log);
        QFETCH(double, a);
        QFETCH(double, b);
        const Axis ax{lo, hi, log, a, b};
        QCOMPARE(ax.map(lo), a);
        QVERIFY(std::abs(ax.map(hi) - b) < 1e-9);
        double prev = ax.map(lo);
        for (int i = 1; i <= 50; ++i) {
            const double v = log ? lo * std::pow(hi / lo, i / 50.0) : lo + (hi - lo) * i / 50.0;
            const double px = ax.map(v);
            QVERIFY((b > a) ? px > prev : px < prev);   // monotone, in the pixels' direction
            QVERIFY(std::min(a, b) - 1e-9 <= px && px <= std::max(a, b) + 1e-9);
            QVERIFY(std::abs(ax.unmap(px) - v) <= 1e-9 * std::max(1.0, std::abs(v)));
            prev = px;
        }
        if (log) QVERIFY(std::abs(ax.map(std::sqrt(lo * hi)) - (a + b) / 2) < 1e-9);   // geometric middle
        else QVERIFY(std::abs(ax.map((lo + hi) / 2) - (a + b) / 2) < 1e-9);
    }

    // plot::polyline draws what QPainter::drawPolyline draws (wide pens as their segments, for
    // speed): the same pixels inked, to within the antialiased edge; dashes keep their pattern
    // along the whole line, not restarted at each of its points.
    void polylineInksWhatDrawPolylineInks_data() {
        QTest::addColumn<double>("width");
        QTest::addColumn<int>("style");
        QTest::addColumn<double>("step");   // pixels between points
        QTest::newRow("solid_w2_step1") << 2.0 << int(Qt::SolidLine) << 1.0;
        QTest::newRow("solid_w3_step4") << 3.0 << int(Qt::SolidLine) << 4.0;
        QTest::newRow("solid_w1.5_step0.5") << 1.5 << int(Qt::SolidLine) << 0.5;
        QTest::newRow("solid_w1_step1") << 1.0 << int(Qt::SolidLine) << 1.0;
        QTest::newRow("dash_w2_step1") << 2.0 << int(Qt::DashLine) << 1.0;
        QTest::newRow("dash_w2.4_step7") << 2.4 << int(Qt::DashLine) << 7.0;
        QTest::newRow("dashdot_w1.5_step2") << 1.5 << int(Qt::DashDotLine) << 2.0;
    }
    void polylineInksWhatDrawPolylineInks() {
        QFETCH(double, width);
        QFETCH(int, style);
        QFETCH(double, step);
        QPolygonF line;
        for (double x = 10; x < 390; x += step) line << QPointF(x, 100 + 60 * std::sin(x / 23.0) * std::exp(-x / 300.0));
        const QPen pen(QColor(0, 90, 200), width, Qt::PenStyle(style));
        const auto draw = [&](bool ours) {
            return drawn(QSize(400, 200), [&](QPainter& p) {
                if (ours) plot::polyline(p, line, pen);
                else {
                    p.setPen(pen);
                    p.drawPolyline(line);
                }
            });
        };
        const QImage ours = draw(true), qt = draw(false);
        // Ink (alpha summed), and the pixels covered at least half in one and not at all in the other.
        const double inkOurs = ink(ours), inkQt = ink(qt);
        int strayOurs = 0, strayQt = 0;
        for (int y = 0; y < 200; ++y)
            for (int x = 0; x < 400; ++x) {
                const int a = qAlpha(ours.pixel(x, y)), b = qAlpha(qt.pixel(x, y));
                strayOurs += a >= 128 && b == 0;
                strayQt += b >= 128 && a == 0;
            }
        QVERIFY(inkQt > 300);
        QVERIFY2(std::abs(inkOurs - inkQt) <= 0.05 * inkQt, qPrintable(QStringLiteral("ink %1 vs drawPolyline's %2").arg(inkOurs).arg(inkQt)));
        if (style == Qt::SolidLine) {
            QVERIFY2(strayOurs <= inkQt * 0.01 && strayQt <= inkQt * 0.01, qPrintable(QStringLiteral("%1 / %2 pixels inked by one only").arg(strayOurs).arg(strayQt)));
        } else {
            // Dashed: about as much ink as Qt's dashes, well under the solid line's.
            QPen solid = pen;
            solid.setStyle(Qt::SolidLine);
            const double inkSolid = ink(drawn(QSize(400, 200), [&](QPainter& p) { plot::polyline(p, line, solid); }));
            QVERIFY2(inkOurs < 0.85 * inkSolid, qPrintable(QStringLiteral("dashes %1, solid %2").arg(inkOurs).arg(inkSolid)));
        }
    }

    // An arrow's head is the filled triangle outlined in the pen, as QPainter draws that path:
    // the same ink to within the antialiased edge.
    void arrowHeadIsTheOutlinedTriangle_data() {
        QTest::addColumn<double>("width");
        QTest::addColumn<double>("head");
        QTest::addColumn<double>("angle");
        QTest::newRow("w2_head10_0deg") << 2.0 << 10.0 << 0.0;
        QTest::newRow("w3_head14_37deg") << 3.0 << 14.0 << 37.0;
        QTest::newRow("w1.5_head8_200deg") << 1.5 << 8.0 << 200.0;
        QTest::newRow("w4_head6_90deg") << 4.0 << 6.0 << 90.0;
    }
    void arrowHeadIsTheOutlinedTriangle() {
        QFETCH(double, width);
        QFETCH(double, head);
        QFETCH(double, angle);
        const QPointF from(100, 100), to = from + 70 * QPointF(std::cos(angle * M_PI / 180), std::sin(angle * M_PI / 180));
        const QPen pen(QColor(200, 40, 0), width);
        const auto draw = [&](bool ours) {
            return drawn(QSize(200, 200), [&](QPainter& p) {
                p.setPen(pen);
                if (ours) {
                    plot::arrow(p, from, to, head);
                    return;
                }
                // The reference: the shaft, then the head's path filled and stroked by QPainter.
                p.drawLine(from, to);
                const QPointF u = (to - from) / 70.0, n(-u.y(), u.x());
                QPainterPath path;
                path.moveTo(to);
                path.lineTo(to - u * head + n * head * 0.45);
                path.lineTo(to - u * head - n * head * 0.45);
                path.closeSubpath();
                p.setBrush(pen.color());
                p.drawPath(path);
            });
        };
        const QImage ours = draw(true), qt = draw(false);
        const double inkOurs = ink(ours), inkQt = ink(qt);
        int differ = 0;
        for (int y = 0; y < 200; ++y)
            for (int x = 0; x < 200; ++x) differ += std::abs(qAlpha(ours.pixel(x, y)) - qAlpha(qt.pixel(x, y))) > 128;
        QVERIFY2(std::abs(inkOurs - inkQt) <= 0.03 * inkQt, qPrintable(QStringLiteral("ink %1 vs %2").arg(inkOurs).arg(inkQt)));
        QVERIFY2(differ <= 3, qPrintable(QStringLiteral("%1 pixels differ by more than half").arg(differ)));
    }

    void countsHaveThinSpaces_data() {
        QTest::addColumn<qint64>("v");
        QTest::addColumn<QString>("text");
        QTest::newRow("0") << qint64(0) << "0";
        QTest::newRow("999") << qint64(999) << "999";
        QTest::newRow("500000") << qint64(500000) << QString::fromUtf8("500\u2009000");
        QTest::newRow("-1369") << qint64(-1369) << QString::fromUtf8("\u22121\u2009369");
        QTest::newRow("1234567") << qint64(1234567) << QString::fromUtf8("1\u2009234\u2009567");
    }
    void countsHaveThinSpaces() {
        QFETCH(qint64, v);
        QFETCH(QString, text);
        QCOMPARE(countText(v), text);
    }
};

QTEST_APPLESS_MAIN(TestPlot)
#include "test_plot.moc"
