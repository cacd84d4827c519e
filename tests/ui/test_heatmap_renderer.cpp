// Heatmap renderer: the pixel at the centre of cell (i, j) has the colour map's colour of the
// core's own score for query i and key j; hovering there reports i, j and that exact number
// (as `poslab compute scores` prints it); masked cells are grey; colour maps are the exact
// tables; the layout asks for no more cells than pixels.
#include "core/scores.h"
#include "ui/model/compute.h"
#include "ui/render/heatmaprenderer.h"
#include "ui/views/views.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

using namespace poslab;
using namespace poslab::ui;

namespace {

QPointF cellCentre(const HeatmapPanelLayout& l, const HeatmapPanel& p, int row, int col) {
    return {l.image.left() + (col + 0.5) * l.image.width() / static_cast<double>(p.keys.size()),
            l.image.top() + (row + 0.5) * l.image.height() / static_cast<double>(p.queries.size())};
}

// The core's score for (i, j) asked exactly as the view asks (the same query and key lists).
double coreScore(const SceneParams& s, const HeatmapPanel& p, int row, int col) {
    auto r = scores(effectiveParams(s, 0), p.queries, p.keys, s.length);
    return r.value()(row, col);
}
// The same entry asked on its own: equal up to summation order.
double coreSingle(const SceneParams& s, std::int64_t i, std::int64_t j) {
    auto r = scores(effectiveParams(s, 0), Positions{i}, Positions{j}, s.length);
    return r.value()(0, 0);
}
QPoint pixelOf(const QPointF& p) { return {static_cast<int>(std::floor(p.x())), static_cast<int>(std::floor(p.y()))}; }

}  // namespace

class TestHeatmapRenderer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void pixelHasTheColourOfTheCoresScore_data() {
        QTest::addColumn<int>("method");
        QTest::addColumn<qint64>("length");
        QTest::addColumn<bool>("softmax");
        QTest::addColumn<int>("content");
        QTest::newRow("rope_N64_scores_ones") << int(Method::Rope) << qint64(64) << false << int(Content::Ones);
        QTest::newRow("rope_N64_softmax_random") << int(Method::Rope) << qint64(64) << true << int(Content::Random);
        QTest::newRow("alibi_N48_scores_formula") << int(Method::Alibi) << qint64(48) << false << int(Content::Formula);
        QTest::newRow("t5_N100_scores_ones") << int(Method::T5) << qint64(100) << false << int(Content::Ones);
        QTest::newRow("sinusoidal_N5000_sampled_ones") << int(Method::Sinusoidal) << qint64(5000) << false << int(Content::Ones);
    }
    void pixelHasTheColourOfTheCoresScore() {
        QFETCH(int, method);
        QFETCH(qint64, length);
        QFETCH(bool, softmax);
        QFETCH(int, content);
        SceneParams s;
        s.methods[0].params.method = static_cast<Method>(method);
        s.methods[0].params.content = static_cast<Content>(content);
        s.length = length;
        s.view.softmax = softmax;
        const Theme theme = themeByName(QStringLiteral("light"));
        const QRectF rect(0, 0, 700, 600);
        DisplaySpec d;
        d.heatmapCells = heatmapCellsFor(rect, 1, theme);
        const HeatmapResult r = computeHeatmap(s, d);
        QVERIFY2(r.panels[0].error.isEmpty(), qPrintable(r.panels[0].error));
        QImage img(700, 600, QImage::Format_RGB32);
        QPainter p(&img);
        renderHeatmap(p, rect, r, theme);
        p.end();
        const auto layout = layoutHeatmap(rect, 1, theme);
        const HeatmapPanel& panel = r.panels[0];
        QVERIFY(static_cast<double>(panel.keys.size()) <= layout[0].image.width() + 1);
        const int rows = static_cast<int>(panel.queries.size());
        for (int row : {0, rows / 3, rows - 1})
            for (int col : {0, rows / 2, rows - 1}) {
                const auto i = panel.queries[static_cast<std::size_t>(row)];
                const auto j = panel.keys[static_cast<std::size_t>(col)];
                const double core = coreScore(s, panel, row, col);
                QVERIFY(std::abs(coreSingle(s, i, j) - core) <= 1e-12 * std::max(1.0, std::abs(core)));
                const QPointF c = cellCentre(layout[0], panel, row, col);
                const QRgb expected = heatmapScale(panel).rgb(core);
                QCOMPARE(QColor(img.pixel(pixelOf(c))).name(), QColor(expected).name());
                const auto hit = hitTestHeatmap(rect, r, theme, c);
                QVERIFY(hit.has_value());
                QCOMPARE(hit->query, i);
                QCOMPARE(hit->key, j);
                QVERIFY(hit->value == core);   // exactly, not fuzzily
                const QString tip = heatmapToolTip(r, *hit);
                QVERIFY2(tip.contains(QStringLiteral("= ") + QString::fromStdString(formatNumber(core))), qPrintable(tip + QStringLiteral(" / ") + QString::fromStdString(formatNumber(core))));
                QVERIFY(tip.contains(QStringLiteral("query i = %1, key j = %2").arg(i).arg(j)));
            }
    }

    void causalCellsAreMasked() {
        SceneParams s;
        s.view.causal = true;
        s.length = 32;
        const Theme theme = themeByName(QStringLiteral("light"));
        const QRectF rect(0, 0, 500, 450);
        const HeatmapResult r = computeHeatmap(s, DisplaySpec{});
        QImage img(500, 450, QImage::Format_RGB32);
        QPainter p(&img);
        renderHeatmap(p, rect, r, theme);
        p.end();
        const auto l = layoutHeatmap(rect, 1, theme);
        const QPointF above = cellCentre(l[0], r.panels[0], 2, 20);   // key 20 after query 2
        QCOMPARE(QColor(img.pixel(pixelOf(above))), theme.masked);
        const auto hit = hitTestHeatmap(rect, r, theme, above);
        QVERIFY(hit && hit->masked);
        QVERIFY(heatmapToolTip(r, *hit).contains(QStringLiteral("masked")));
        const QPointF below = cellCentre(l[0], r.panels[0], 20, 2);
        QVERIFY(QColor(img.pixel(pixelOf(below))) != theme.masked);
    }

    void colormapsAreTheExactTables_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<double>("t");
        QTest::addColumn<QString>("rgb");
        // matplotlib viridis entries 0, 128, 255; CET-D1A entries 0, 255.
        QTest::newRow("viridis_0") << 0 << 0.0 << "#440154";
        QTest::newRow("viridis_half") << 0 << 128.0 / 255 << "#21918c";
        QTest::newRow("viridis_1") << 0 << 1.0 << "#fde725";
        QTest::newRow("diverging_0") << 1 << 0.0 << "#172971";
        QTest::newRow("diverging_1") << 1 << 1.0 << "#660702";
    }
    void colormapsAreTheExactTables() {
        QFETCH(int, kind);
        QFETCH(double, t);
        QFETCH(QString, rgb);
        QCOMPARE(QColor(colormapRgb(kind ? ColormapKind::Diverging : ColormapKind::Viridis, t)).name(), rgb);
    }

    void viewTooltipAgreesWithRenderer() {
        SceneParams s;
        s.length = 16;
        HeatmapView v;
        v.resize(600, 500);
        v.setTheme(themeByName(QStringLiteral("light")));
        HeatmapResult r = computeHeatmap(s, DisplaySpec{});
        r.generation = 1;
        v.setResult(r);
        const auto l = layoutHeatmap(QRectF(v.rect()), 1, v.theme());
        const QPointF c = cellCentre(l[0], r.panels[0], 5, 3);
        const QString tip = v.toolTipAt(c.toPoint());
        QVERIFY(tip.contains(QStringLiteral("query i = 5, key j = 3")));
        QVERIFY(tip.contains(QString::fromStdString(formatNumber(coreScore(s, r.panels[0], 5, 3)))));
        QVERIFY(v.toolTipAt(QPoint(2, 2)).isEmpty());
    }

    void tooltipAgreesWithPoslabCompute() {
        const QString exe = QStringLiteral(POSLAB_EXE);
        if (!QFileInfo::exists(exe)) QSKIP("poslab executable not built in this tree");
        QProcess proc;
        proc.start(exe, {QStringLiteral("compute"), QStringLiteral("scores"), QStringLiteral("--method"), QStringLiteral("rope"),
                         QStringLiteral("--length"), QStringLiteral("12"), QStringLiteral("--dim"), QStringLiteral("64")});
        QVERIFY(proc.waitForFinished(30000));
        if (proc.exitCode() != 0) QSKIP("poslab compute scores not available yet");
        const auto doc = QJsonDocument::fromJson(proc.readAllStandardOutput());
        const auto rows = doc.object().value(QStringLiteral("scores")).toArray();
        QCOMPARE(rows.size(), 12);
        SceneParams s;
        s.length = 12;
        const HeatmapResult r = computeHeatmap(s, DisplaySpec{});
        const Theme theme = themeByName(QStringLiteral("light"));
        const QRectF rect(0, 0, 600, 500);
        const auto l = layoutHeatmap(rect, 1, theme);
        for (int i : {0, 5, 11})
            for (int j : {0, 7, 11}) {
                const double cli = rows[i].toArray()[j].toDouble();
                const auto hit = hitTestHeatmap(rect, r, theme, cellCentre(l[0], r.panels[0], i, j));
                QVERIFY(hit.has_value());
                QCOMPARE(hit->value, cli);
                QVERIFY(heatmapToolTip(r, *hit).contains(QString::fromStdString(formatNumber(cli))));
            }
    }
};

QTEST_MAIN(TestHeatmapRenderer)
#include "test_heatmap_renderer.moc"
