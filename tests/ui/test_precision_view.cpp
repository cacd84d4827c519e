// The precision view: computePrecision (ui/model/compute.h) against the core it calls — each column's
// min and max over every position it covers, the collisions, the largest error at the log-spaced
// positions — and the renderer (ui/render/precisionrenderer.h): collision marks drawn where and
// only where positions collide. The score error heatmap (dtype − double) against scores() in both
// precisions, cell by cell and block by block; the hover text (precisionToolTip) under the
// plots and the heatmap. And the view in the window at N = 8192.
#include "core/precision.h"
#include "core/rope.h"
#include "core/scores.h"
#include "ui/model/compute.h"
#include "ui/window/mainwindow.h"
#include "ui/render/precisionrenderer.h"
#include "ui/views/scheduler.h"
#include "ui/views/views.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace poslab;
using namespace poslab::ui;

namespace {

SceneParams precisionScene(std::int64_t n, int dim, Precision dtype, Precision angles) {
    SceneParams s;
    s.length = n;
    s.methods.front().params.method = Method::Rope;
    s.methods.front().params.dim = dim;
    s.methods.front().params.precision = dtype;
    s.methods.front().params.rope.angle_precision = angles;
    s.view.showPrecision = true;
    return s;
}

// Pixels of exactly this colour in the image.
int countColour(const QImage& img, const QColor& c) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            if (img.pixelColor(x, y) == c) ++n;
    return n;
}

}  // namespace

class TestPrecisionView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void columnsAreExactEnvelopes_data() {
        QTest::addColumn<qint64>("length");
        QTest::addColumn<int>("dim");
        QTest::addColumn<int>("dtype");
        QTest::addColumn<int>("angles");
        QTest::addColumn<int>("columns");
        QTest::addColumn<qint64>("colliding");   // positions of 0 .. N−1 that collide
        QTest::addColumn<qint64>("first");       // first colliding position up to 2^20 (-1: none)
        const int bf = int(Precision::BFloat16), hf = int(Precision::Float16), f32 = int(Precision::Float32);
        // 0..299 in bfloat16: 256..299 hold 256, 258, 260, ...; every odd one and its even
        // neighbour(s) collide: 256,257 | 259,260,261 | ... | 295,296,297 | 299 → 300 alone.
        QTest::newRow("bfloat16 angles N=300 d=16") << qint64(300) << 16 << bf << bf << 37 << qint64(2 + 3 * 10) << qint64(256);
        QTest::newRow("bfloat16 float32 angles N=300 d=16") << qint64(300) << 16 << bf << f32 << 37 << qint64(0) << qint64(-1);
        QTest::newRow("float16 angles N=3000 d=32") << qint64(3000) << 32 << hf << hf << 64 << qint64(2 + 3 * 237) << qint64(2048);
        QTest::newRow("float32 N=1000 d=64") << qint64(1000) << 64 << f32 << f32 << 100 << qint64(0) << qint64(-1);
        QTest::newRow("double N=200 d=8") << qint64(200) << 8 << int(Precision::Double) << f32 << 50 << qint64(0) << qint64(-1);
    }
    void columnsAreExactEnvelopes() {
        QFETCH(qint64, length);
        QFETCH(int, dim);
        QFETCH(int, dtype);
        QFETCH(int, angles);
        QFETCH(int, columns);
        QFETCH(qint64, colliding);
        QFETCH(qint64, first);
        const SceneParams s = precisionScene(length, dim, Precision(dtype), Precision(angles));
        DisplaySpec d;
        d.decaySamples = columns;
        const PrecisionResult res = computePrecision(s, d);
        QCOMPARE(int(res.configs.size()), 1);
        const PrecisionConfigResult& c = res.configs[0];
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QVERIFY(!c.sampled);
        QCOMPARE(c.end, std::int64_t(length));
        QCOMPARE(c.columns, splitRange(0, length, columns));
        QCOMPARE(c.pairs, effectivePairs(s, 0));
        // Every position at once, from the core.
        RopeParams rp = effectiveParams(s, 0).ropeParams();
        rp.seq_len = length;
        const RopePrecisionErrors e = ropePrecisionErrors(rp, arangePositions(0, length));
        for (std::size_t i = 0; i < c.pairs.size(); ++i)
            for (std::size_t k = 0; k < c.columns.size(); ++k) {
                const auto r = c.columns[k];
                const auto a = e.angle.col(c.pairs[i]).segment(r.from, r.size());
                const auto cv = e.cos.col(c.pairs[i]).segment(r.from, r.size());
                QCOMPARE(c.angleMin[i][k], a.minCoeff());
                QCOMPARE(c.angleMax[i][k], a.maxCoeff());
                QCOMPARE(c.cosMin[i][k], cv.minCoeff());
                QCOMPARE(c.cosMax[i][k], cv.maxCoeff());
            }
        QCOMPARE(c.colliding, std::int64_t(colliding));
        QCOMPARE(c.firstCollision ? qint64(*c.firstCollision) : qint64(-1), first);
        // A column is marked iff one of its positions collides.
        std::vector<bool> want(c.columns.size(), false);
        for (const auto& g : ropePositionCollisions(rp, arangePositions(0, length)))
            for (auto q : g.positions) want[std::size_t(q / c.columns.front().size())] = true;
        QCOMPARE(c.columnCollides, want);
        // The log panel: these positions exactly.
        QCOMPARE(c.logEnd, Precision(angles) == Precision::Float16 && Precision(dtype) != Precision::Double && Precision(dtype) != Precision::Float32
                               ? std::int64_t(65504) : std::int64_t(1) << 20);
        QCOMPARE(c.logPositions.front(), std::int64_t(1));
        QCOMPARE(c.logPositions.back(), c.logEnd);
        const RopePrecisionErrors le = ropePrecisionErrors(rp, c.logPositions);
        for (std::size_t k = 0; k < c.logPositions.size(); ++k) QCOMPARE(c.logMaxAbs[k], le.max_abs[Eigen::Index(k)]);
        if (Precision(dtype) == Precision::Double)
            for (double v : c.logMaxAbs) QCOMPARE(v, 0.0);
    }

    // Past 2^22 angle evaluations each column is its middle position, and says so.
    void longSequencesAreSampled() {
        const SceneParams s = precisionScene(std::int64_t(1) << 20, 128, Precision::BFloat16, Precision::BFloat16);
        DisplaySpec d;
        d.decaySamples = 64;
        const auto c = computePrecision(s, d).configs.at(0);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QVERIFY(c.sampled);
        QCOMPARE(int(c.columns.size()), 64);
        RopeParams rp = effectiveParams(s, 0).ropeParams();
        rp.seq_len = s.length;
        const auto r = c.columns[10];
        const RopePrecisionErrors e = ropePrecisionErrors(rp, {r.from + (r.size() - 1) / 2});
        QCOMPARE(c.angleMin[0][10], e.angle(0, c.pairs[0]));
        QCOMPARE(c.angleMax[0][10], e.angle(0, c.pairs[0]));
        // bfloat16 angles: almost every position above 256 collides.
        QVERIFY2(c.colliding > (std::int64_t(1) << 20) - 400, qPrintable(QString::number(c.colliding)));
    }

    // The score error heatmap: one cell each when N fits the cells, else the heatmap's exact
    // block statistic; every value against scores() in the dtype minus scores() in double.
    void scoreErrorHeatmap_data() {
        QTest::addColumn<int>("cells");
        QTest::addColumn<int>("aggregate");
        QTest::addColumn<bool>("causal");
        QTest::newRow("exact cells") << 40 << int(Aggregate::Mean) << false;
        QTest::newRow("mean of 4x4 blocks") << 10 << int(Aggregate::Mean) << false;
        QTest::newRow("max of 4x4 blocks causal") << 10 << int(Aggregate::Max) << true;
        QTest::newRow("min of 7x7 blocks") << 6 << int(Aggregate::Min) << false;
    }
    void scoreErrorHeatmap() {
        QFETCH(int, cells);
        QFETCH(int, aggregate);
        QFETCH(bool, causal);
        SceneParams s = precisionScene(40, 16, Precision::BFloat16, Precision::Float32);
        s.methods.front().params.content = Content::Random;
        s.view.aggregate = Aggregate(aggregate);
        s.view.causal = causal;
        DisplaySpec d;
        d.precisionCells = cells;
        const auto c = computePrecision(s, d).configs.at(0);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QCOMPARE(int(c.scoreError.panels.size()), 1);
        const HeatmapPanel& h = c.scoreError.panels[0];
        QVERIFY2(h.error.isEmpty(), qPrintable(h.error));
        QCOMPARE(h.cells, cells >= 40 ? HeatmapCells::Exact : HeatmapCells::Aggregate);
        QCOMPARE(int(h.queryRanges.size()), std::min(cells, 40));
        ScoreParams p = effectiveParams(s, 0), x = p;
        x.precision = Precision::Double;
        const Positions all = arangePositions(0, 40);
        const Matrix err = scores(p, all, all, 40).value() - scores(x, all, all, 40).value();
        QVERIFY(err.cwiseAbs().maxCoeff() > 1e-4);   // bfloat16 errs
        double absMax = 0;
        for (std::size_t a = 0; a < h.queryRanges.size(); ++a)
            for (std::size_t b = 0; b < h.keyRanges.size(); ++b) {
                double sum = 0, lo = std::numeric_limits<double>::infinity(), hi = -lo;
                int n = 0;
                for (auto i = h.queryRanges[a].from; i < h.queryRanges[a].to; ++i)
                    for (auto j = h.keyRanges[b].from; j < h.keyRanges[b].to; ++j) {
                        if (causal && j > i) continue;
                        sum += err(i, j);
                        lo = std::min(lo, err(i, j));
                        hi = std::max(hi, err(i, j));
                        ++n;
                    }
                const double want = n == 0 ? -std::numeric_limits<double>::infinity()
                                   : aggregate == int(Aggregate::Mean) ? sum / n
                                   : aggregate == int(Aggregate::Max) ? hi : lo;
                const double got = h.values(Eigen::Index(a), Eigen::Index(b));
                if (!std::isfinite(want)) QCOMPARE(got, want);
                else QVERIFY2(std::abs(got - want) <= 1e-15, qPrintable(QString("%1 vs %2").arg(got).arg(want)));
                if (std::isfinite(want)) absMax = std::max(absMax, std::abs(want));
            }
        QVERIFY(h.diverging);
        QCOMPARE(h.hi, absMax);
    }

    // Hovering shows the numbers under the cursor.
    void hoverText() {
        SceneParams s = precisionScene(300, 16, Precision::BFloat16, Precision::BFloat16);
        DisplaySpec d;
        d.decaySamples = 300;   // one position per column
        d.precisionCells = 30;  // 10×10 blocks
        const PrecisionResult res = computePrecision(s, d);
        const auto& c = res.configs.at(0);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        const Theme t = themeByName(QStringLiteral("light"), 1.0);
        const QRectF rect(0, 0, 1400, 700);
        const auto l = layoutPrecision(rect, 1, t).at(0);
        QVERIFY(!l.angle.isEmpty() && !l.heatmap.isEmpty());
        // The angle plot over position 257 (x axis 0 .. 299): position, collision, each pair's errors.
        const double x = l.angle.left() + l.angle.width() * (257.0 / 299.0);
        const QString tip = precisionToolTip(rect, res, t, QPointF(x, l.angle.center().y()));
        QVERIFY2(tip.contains(QStringLiteral("position 257")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("collides in bfloat16")), qPrintable(tip));
        RopeParams rp = effectiveParams(s, 0).ropeParams();
        rp.seq_len = s.length;
        const RopePrecisionErrors e = ropePrecisionErrors(rp, {257}, c.pairs);
        for (std::size_t i = 0; i < c.pairs.size(); ++i) {
            const QString line = QStringLiteral("pair %1: Δangle = %2 rad, Δcos = %3, Δsin = %4")
                                     .arg(c.pairs[i])
                                     .arg(formatValue(e.angle(0, Eigen::Index(i))), formatValue(e.cos(0, Eigen::Index(i))),
                                          formatValue(e.sin(0, Eigen::Index(i))));
            QVERIFY2(tip.contains(line), qPrintable(tip + "\n— wanted —\n" + line));
        }
        // The heatmap: the block under the cursor and its statistic.
        const QString hm = precisionToolTip(rect, res, t, l.heatmap.center());
        QVERIFY2(hm.contains(QStringLiteral("score error")) && hm.contains(QStringLiteral("queries i = ")) &&
                     hm.contains(QStringLiteral("mean of the block")),
                 qPrintable(hm));
        // The log plot: a sampled position and its largest error.
        const QString lg = precisionToolTip(rect, res, t, l.log.center());
        QVERIFY2(lg.contains(QStringLiteral("max over the pairs")), qPrintable(lg));
        // Outside every plot: nothing.
        QVERIFY(precisionToolTip(rect, res, t, QPointF(2, 2)).isEmpty());
    }

    void otherMethodsSaySo() {
        SceneParams s = precisionScene(64, 16, Precision::BFloat16, Precision::BFloat16);
        s.methods.front().params.method = Method::Alibi;
        s.methods.front().params.precision = Precision::Float32;
        const auto c = computePrecision(s, {}).configs.at(0);
        QVERIFY2(c.error.contains(QStringLiteral("RoPE")), qPrintable(c.error));
        QImage img(600, 400, QImage::Format_RGB32);
        QPainter p(&img);
        renderPrecision(p, QRectF(0, 0, 600, 400), computePrecision(s, {}), Theme{});
        p.end();
        QVERIFY(countColour(img, Theme{}.error) > 0);   // the message, in the error colour
    }

    // The collision strip is drawn where positions collide and nowhere else.
    void collisionMarks_data() {
        QTest::addColumn<int>("angles");
        QTest::addColumn<bool>("marked");
        QTest::newRow("bfloat16 angles (legacy)") << int(Precision::BFloat16) << true;
        QTest::newRow("float32 angles (transformers main)") << int(Precision::Float32) << false;
    }
    void collisionMarks() {
        QFETCH(int, angles);
        QFETCH(bool, marked);
        const SceneParams s = precisionScene(4096, 64, Precision::BFloat16, Precision(angles));
        DisplaySpec d;
        d.decaySamples = 400;
        const PrecisionResult res = computePrecision(s, d);
        const Theme t = themeByName(QStringLiteral("light"), 1.0);
        QImage img(1000, 800, QImage::Format_RGB32);
        QPainter p(&img);
        renderPrecision(p, QRectF(0, 0, 1000, 800), res, t);
        p.end();
        const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR");
        if (!dir.isEmpty()) img.save(dir + QStringLiteral("/precision_%1.png").arg(marked ? "bf16_legacy" : "bf16_main"));
        // The marks are filled in the theme's error colour (the caption's text is antialiased).
        QCOMPARE(countColour(img, t.error) > 200, marked);
    }

    // The window: the view follows the scene at N = 8192 and is computed within a frame budget.
    void windowShowsIt() {
        MainWindow w(false);
        SceneParams s = precisionScene(8192, 128, Precision::BFloat16, Precision::BFloat16);
        w.scene()->setParams(s);
        w.resize(1500, 950);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.precisionView()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!w.precisionView()->result().configs.empty() &&
                                     w.precisionView()->paintedGeneration() == w.precisionView()->resultGeneration(),
                                 20000);
        const auto& c = w.precisionView()->result().configs[0];
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QCOMPARE(c.end, std::int64_t(8192));
        QVERIFY(!c.sampled);
        QCOMPARE(c.firstCollision, std::optional<std::int64_t>(256));
        // The score error heatmap is there (past the window's work budget: sampled, and says so).
        QCOMPARE(int(c.scoreError.panels.size()), 1);
        QVERIFY2(c.scoreError.panels[0].error.isEmpty(), qPrintable(c.scoreError.panels[0].error));
        QVERIFY(c.scoreError.panels[0].values.size() > 0);
        qInfo("precision view task at N = 8192, d = 128, bfloat16 angles: %.1f ms", w.scheduler()->lastViewMs().precision);
        // Switching the angles to float32 (transformers main) recomputes it: no collision.
        s.methods.front().params.rope.angle_precision = Precision::Float32;
        w.scene()->setParams(s);
        QTRY_VERIFY_WITH_TIMEOUT(!w.precisionView()->result().configs.empty() &&
                                     !w.precisionView()->result().configs[0].firstCollision &&
                                     w.precisionView()->paintedGeneration() == w.precisionView()->resultGeneration(),
                                 20000);
        qInfo("precision view task at N = 8192, d = 128: %.1f ms", w.scheduler()->lastViewMs().precision);
        const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR");
        if (!dir.isEmpty()) w.grab().save(dir + QStringLiteral("/ui_precision_window.png"));
    }
};

QTEST_MAIN(TestPrecisionView)
#include "test_precision_view.moc"
