// Heatmap renderer: the pixel at the centre of cell (i, j) has the colour map's colour of the
// core's own score for query i and key j; hovering there reports i, j and that exact number
// (as `poslab compute scores` prints it); masked cells are grey; colour maps are the exact
// tables; the layout asks for no more cells than pixels.
#include "support/runposlab.h"
#include "core/scores.h"
#include "ui/model/compute.h"
#include "ui/render/heatmaprenderer.h"
#include "ui/render/layout.h"
#include "ui/render/plot.h"
#include "ui/views/views.h"
#include "ui/io/export.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <set>

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

void saveShot(const QImage& img, const QString& name) {
    const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR");
    if (!dir.isEmpty()) img.save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

// A scene of one layer structure: window W (causal or not), or chunk C; N, softmax.
SceneParams layerScene(qint64 length, qint64 window, qint64 chunk, bool causal, bool softmax) {
    SceneParams s;
    s.length = length;
    s.view.causal = causal;
    s.view.softmax = softmax;
    s.methods[0].params.content = Content::Random;
    if (window > 0) s.methods[0].params.attention.window = window;
    if (chunk > 0) s.methods[0].params.attention.chunk = chunk;
    return s;
}

// A compare scene from "rope,alibi,t5" (a method key, or "rope@B" for RoPE with base B).
SceneParams compareScene(const QString& methods) {
    SceneParams s;
    s.methods.clear();
    for (const QString& m : methods.split(QLatin1Char(','))) {
        MethodConfig c;
        const QStringList parts = m.split(QLatin1Char('@'));
        c.params.method = *methodFromKey(parts[0].toStdString());
        if (parts.size() > 1) c.params.rope.base = parts[1].toDouble();
        s.methods.push_back(c);
    }
    return s;
}

// Distinct colours among the pixels of `r` (inset by a pixel: not the frame).
int distinctColours(const QImage& img, const QRectF& r) {
    std::set<QRgb> seen;
    const QRect px = r.toAlignedRect().adjusted(2, 2, -2, -2).intersected(img.rect());
    for (int y = px.top(); y <= px.bottom(); ++y)
        for (int x = px.left(); x <= px.right(); ++x) seen.insert(img.pixel(x, y));
    return static_cast<int>(seen.size());
}

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
                QVERIFY2(tip.contains(QStringLiteral("= ") + formatValue(core)), qPrintable(tip + QStringLiteral(" / ") + formatValue(core)));
                QVERIFY(tip.contains(QStringLiteral("query i = %1, key j = %2").arg(i).arg(j)));
            }
    }

    // Compare mode: when the configurations' ranges differ by more than 10× (ALiBi's bias
    // against RoPE's scores) each panel takes its own colour range, so that none is one flat
    // colour; within 10× (RoPE with two bases) the range stays linked; the toggle overrides both.
    void compareColourRanges_data() {
        QTest::addColumn<QString>("methods");
        QTest::addColumn<int>("link");        // ColorRangeLink
        QTest::addColumn<qint64>("length");
        QTest::addColumn<bool>("own");
        const int autoLink = int(ColorRangeLink::Auto), linked = int(ColorRangeLink::Linked), own = int(ColorRangeLink::Own);
        QTest::newRow("rope_alibi_auto_N1024") << "rope,alibi" << autoLink << qint64(1024) << true;
        QTest::newRow("rope_alibi_t5_xpos_auto_N1024") << "rope,alibi,t5,xpos" << autoLink << qint64(1024) << true;
        QTest::newRow("alibi_rope_auto_N256") << "alibi,rope" << autoLink << qint64(256) << true;
        QTest::newRow("rope_rope500000_auto_N1024") << "rope,rope@500000" << autoLink << qint64(1024) << false;
        QTest::newRow("rope_rope100_auto_N64") << "rope,rope@100" << autoLink << qint64(64) << false;
        QTest::newRow("rope_alibi_linked_N1024") << "rope,alibi" << linked << qint64(1024) << false;
        QTest::newRow("rope_rope500000_own_N1024") << "rope,rope@500000" << own << qint64(1024) << true;
    }
    void compareColourRanges() {
        QFETCH(QString, methods);
        QFETCH(int, link);
        QFETCH(qint64, length);
        QFETCH(bool, own);
        SceneParams s = compareScene(methods);
        s.length = length;
        s.view.colorLink = static_cast<ColorRangeLink>(link);
        QVERIFY2(!sceneProblem(s), qPrintable(sceneProblem(s).value_or(QString())));
        const Theme theme = themeByName(QStringLiteral("projector"));
        const QRectF rect(0, 0, 1280, 720);
        const int configs = int(s.methods.size());
        DisplaySpec d;
        d.heatmapCells = heatmapCellsFor(rect, heatmapPanelCount(s), theme, 1.0, false, false, heatmapPanelCount(s) - configs,
                                         heatmapDifferenceNote(s));
        const HeatmapResult r = computeHeatmap(s, d);
        QCOMPARE(r.ownRanges, own);
        for (int c = 1; c < configs; ++c) {
            const bool same = r.panels[std::size_t(c)].lo == r.panels[0].lo && r.panels[std::size_t(c)].hi == r.panels[0].hi;
            QVERIFY2(same != own, qPrintable(QStringLiteral("%1: [%2, %3] against A's [%4, %5]").arg(c)
                                                 .arg(r.panels[std::size_t(c)].lo).arg(r.panels[std::size_t(c)].hi)
                                                 .arg(r.panels[0].lo).arg(r.panels[0].hi)));
        }
        QImage img(rect.size().toSize(), QImage::Format_RGB32);
        QPainter p(&img);
        renderHeatmap(p, rect, r, theme);
        p.end();
        saveShot(img, QStringLiteral("compare_ranges_") + QString::fromLatin1(QTest::currentDataTag()));
        if (!own && link == int(ColorRangeLink::Linked)) return;   // linked on purpose: a panel may be flat
        // No configuration's panel is one flat colour: each shows its structure in many colours.
        const auto layout = layoutHeatmap(rect, int(r.panels.size()), theme, false, false, heatmapDifferences(r), r.differenceNote);
        for (int c = 0; c < configs; ++c) {
            const int colours = distinctColours(img, layout[std::size_t(c)].image);
            QVERIFY2(colours >= 16, qPrintable(QStringLiteral("%1: %2 colours").arg(r.panels[std::size_t(c)].title).arg(colours)));
        }
    }

    // Difference panels only between configurations of one method and head dimension; the others
    // are said in one whole sentence under the panels, wrapped within the view, never cut.
    void differencesOnlyOfOneKind_data() {
        QTest::addColumn<QString>("methods");
        QTest::addColumn<QString>("theme");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QStringList>("differences");   // the difference panels' titles
        QTest::addColumn<QString>("missing");           // the configurations the sentence names
        const QSize small(1280, 720), large(1920, 1080);
        for (const char* theme : {"projector", "light"})
            for (const QSize& size : {small, large}) {
                const QString tag = QStringLiteral("_%1_%2x%3").arg(QLatin1String(theme)).arg(size.width()).arg(size.height());
                QTest::addRow("rope_alibi_t5_xpos%s", qPrintable(tag)) << "rope,alibi,t5,xpos" << QString::fromLatin1(theme) << size
                                                                     << QStringList{} << "B (ALiBi), C (T5) and D (xPos)";
                QTest::addRow("rope_rope500000_alibi%s", qPrintable(tag)) << "rope,rope@500000,alibi" << QString::fromLatin1(theme) << size
                                                                        << QStringList{QStringLiteral("B − A")} << "C (ALiBi)";
            }
        QTest::newRow("rope_rope100_rope500000_projector_1280x720") << "rope,rope@100,rope@500000" << "projector" << small
                                                                   << QStringList{QStringLiteral("B − A"), QStringLiteral("C − A")} << "";
    }
    void differencesOnlyOfOneKind() {
        QFETCH(QString, methods);
        QFETCH(QString, theme);
        QFETCH(QSize, size);
        QFETCH(QStringList, differences);
        QFETCH(QString, missing);
        SceneParams s = compareScene(methods);
        s.length = 256;
        s.view.theme = theme;
        s.view.showHeatmap = true;
        s.view.showPairs = s.view.showDecay = s.view.showFrequencies = false;
        ExportRequest req;
        req.view = ViewKind::Heatmap;
        req.format = ExportFormat::Json;
        req.pixels = size;
        const LayoutReport report = exportLayout(s, req);
        const QByteArray json = exportJson(s, req);
        const QJsonArray panels = QJsonDocument::fromJson(json).object().value(QStringLiteral("views")).toObject()
                                      .value(QStringLiteral("heatmap")).toObject().value(QStringLiteral("panels")).toArray();
        QStringList titles;
        for (const auto& p : panels)
            if (p.toObject().value(QStringLiteral("difference")).toBool()) {
                titles << p.toObject().value(QStringLiteral("title")).toString();
                QVERIFY2(!p.toObject().contains(QStringLiteral("error")), qPrintable(p.toObject().value(QStringLiteral("error")).toString()));
            }
        QCOMPARE(titles, differences);
        QCOMPARE(panels.size(), qsizetype(s.methods.size()) + differences.size());
        // The sentence: whole (ends with a full stop, not elided), inside the view, naming them.
        QString said;
        for (const auto& item : report.items) {
            if (item.kind != LayoutItemKind::Text || item.text.isEmpty()) continue;
            QVERIFY2(!(item.elided && item.text.contains(QStringLiteral("difference"))), qPrintable(item.text));
            if (!item.text.startsWith(QStringLiteral("No difference"))) continue;
            QVERIFY2(!item.elided, qPrintable(item.text));
            QVERIFY2(report.bounds.contains(item.rect), qPrintable(item.text));
            said = item.text;
        }
        if (missing.isEmpty()) {
            QVERIFY2(said.isEmpty(), qPrintable(said));
            return;
        }
        QVERIFY2(said.contains(missing), qPrintable(said));
        QVERIFY2(said.endsWith(QLatin1Char('.')), qPrintable(said));
        QVERIFY(!said.contains(QStringLiteral("…")));
        if (const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR"); !dir.isEmpty()) {
            req.format = ExportFormat::Png;
            QString error;
            exportToFile(dir + QStringLiteral("/compare_differences_") + QString::fromLatin1(QTest::currentDataTag()) + QStringLiteral(".png"),
                         s, req, &error);
        }
    }

    // One panel sampled (past the work budget) and the other aggregated: the difference is still
    // drawn, of samples on both sides (the aggregated configuration's own cells at the samples).
    void sampledAgainstAggregatedDifference() {
        // A: ones content (ALiBi's scores a function of i − j: exact blocks); B: random content,
        // past the work budget (sampled).
        SceneParams s = compareScene(QStringLiteral("alibi,alibi"));
        s.length = 4096;
        s.methods[0].params.content = Content::Ones;
        s.methods[1].params.content = Content::Random;
        DisplaySpec d;
        d.heatmapCells = 128;
        const HeatmapResult r = computeHeatmap(s, d);
        QCOMPARE(r.panels.size(), std::size_t{3});
        QCOMPARE(r.panels[0].cells, HeatmapCells::Aggregate);
        QCOMPARE(r.panels[1].cells, HeatmapCells::Sample);
        const HeatmapPanel& diff = r.panels[2];
        QVERIFY2(diff.error.isEmpty(), qPrintable(diff.error));
        QCOMPARE(diff.cells, HeatmapCells::Sample);
        QCOMPARE(diff.queries, r.panels[1].queries);
        QCOMPARE(diff.keys, r.panels[1].keys);
        const Matrix a = scores(effectiveParams(s, 0), diff.queries, diff.keys, s.length).value();
        for (int row : {0, 40, 127})
            for (int col : {0, 64, 127}) QCOMPARE(diff.values(row, col), r.panels[1].values(row, col) - a(row, col));
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

    // Every view honours the layer: a window's or chunk's masked cells are masked (also after
    // softmax, where their weight is 0), a block aggregates its visible cells only (a block with
    // none is masked), and the edges of the window or chunks are drawn.
    void layerMaskedCellsAreMasked_data() {
        QTest::addColumn<qint64>("length");
        QTest::addColumn<qint64>("window");
        QTest::addColumn<qint64>("chunk");
        QTest::addColumn<bool>("causal");
        QTest::addColumn<bool>("softmax");
        QTest::newRow("window8_causal_N40_scores") << qint64(40) << qint64(8) << qint64(0) << true << false;
        QTest::newRow("window8_causal_N40_softmax") << qint64(40) << qint64(8) << qint64(0) << true << true;
        QTest::newRow("window9_bidirectional_N40_scores") << qint64(40) << qint64(9) << qint64(0) << false << false;
        QTest::newRow("chunk8_N40_softmax") << qint64(40) << qint64(8) << qint64(0 + 8) << false << true;
        QTest::newRow("window100_causal_N2000_blocks") << qint64(2000) << qint64(100) << qint64(0) << true << false;
        QTest::newRow("window100_causal_N2000_blocks_softmax") << qint64(2000) << qint64(100) << qint64(0) << true << true;
        QTest::newRow("chunk300_N2000_blocks") << qint64(2000) << qint64(0) << qint64(300) << false << false;
        QTest::newRow("window100_causal_N5000_sampled_softmax") << qint64(5000) << qint64(100) << qint64(0) << true << true;
    }
    void layerMaskedCellsAreMasked() {
        QFETCH(qint64, length);
        QFETCH(qint64, window);
        QFETCH(qint64, chunk);
        QFETCH(bool, causal);
        QFETCH(bool, softmax);
        if (chunk > 0) window = 0;
        const SceneParams s = layerScene(length, window, chunk, causal, softmax);
        DisplaySpec d;
        d.heatmapCells = 200;
        d.heatmapWork = length <= 2000 ? std::int64_t{1} << 32 : std::int64_t{1} << 20;   // N = 5000: sampled
        const HeatmapResult r = computeHeatmap(s, d);
        const HeatmapPanel& panel = r.panels[0];
        QVERIFY2(panel.error.isEmpty(), qPrintable(panel.error));
        const ScoreParams ep = effectiveParams(s, 0);
        const bool c = ep.attention.causalWith(ep.causal);
        const auto rows = static_cast<int>(panel.queries.size()), cols = static_cast<int>(panel.keys.size());
        int maskedSeen = 0, partial = 0;
        for (int row = 0; row < rows; row += std::max(1, rows / 23))
            for (int col = 0; col < cols; col += std::max(1, cols / 29)) {
                const double v = panel.values(row, col);
                if (panel.cells != HeatmapCells::Aggregate) {   // one cell: exact or sampled
                    const bool vis = visible(ep.attention, c, panel.queries[std::size_t(row)], panel.keys[std::size_t(col)], length);
                    QCOMPARE(std::isfinite(v), vis);
                    maskedSeen += vis ? 0 : 1;
                    continue;
                }
                // The block's visible cells, from the core, their mean by hand.
                const auto& qr = panel.queryRanges[std::size_t(row)];
                const auto& kr = panel.keyRanges[std::size_t(col)];
                Positions qs, ks;
                for (auto i = qr.from; i < qr.to; ++i) qs.push_back(i);
                for (auto j = kr.from; j < kr.to; ++j) ks.push_back(j);
                const Matrix cells = scores(ep, qs, ks, length).value();
                double sum = 0;
                std::int64_t n = 0, all = 0;
                for (std::size_t a = 0; a < qs.size(); ++a)
                    for (std::size_t b = 0; b < ks.size(); ++b, ++all)
                        if (visible(ep.attention, c, qs[a], ks[b], length)) sum += cells(Eigen::Index(a), Eigen::Index(b)), ++n;
                if (n == 0) {
                    QVERIFY(!std::isfinite(v));
                    ++maskedSeen;
                } else {
                    QVERIFY2(std::abs(v - sum / double(n)) <= 1e-9 * (1 + std::abs(v)),
                             qPrintable(QStringLiteral("block %1,%2: %3 vs %4").arg(row).arg(col).arg(v).arg(sum / double(n))));
                    partial += n < all ? 1 : 0;
                }
            }
        QVERIFY(maskedSeen > 0);
        QCOMPARE(panel.cells, length > 2000 ? HeatmapCells::Sample : length > 200 ? HeatmapCells::Aggregate : HeatmapCells::Exact);
        if (panel.cells == HeatmapCells::Aggregate) QVERIFY(partial > 0);
        // Drawn as masked; the mask named in the subtitle's words and the tooltip; edges drawn.
        const Theme theme = themeByName(QStringLiteral("light"));
        const QRectF rect(0, 0, 1920 / 2, 1080 / 2);
        QImage img(rect.size().toSize(), QImage::Format_RGB32);
        QPainter p(&img);
        renderHeatmap(p, rect, r, theme);
        p.end();
        saveShot(img, QStringLiteral("heatmap_") + QString::fromLatin1(QTest::currentDataTag()));
        const auto l = layoutHeatmap(rect, 1, theme);
        QVERIFY(!heatmapMaskText(panel).isEmpty());
        const auto edges = heatmapMaskEdges(l[0].image, panel);
        QVERIFY(!edges.empty());
        for (const auto& e : edges) {
            QVERIFY(l[0].image.adjusted(-0.5, -0.5, 0.5, 0.5).contains(e.p1()));
            QVERIFY(l[0].image.adjusted(-0.5, -0.5, 0.5, 0.5).contains(e.p2()));
        }
        // A far masked cell (query last, key 0: outside every window and chunk here) is masked grey.
        const QPointF far = cellCentre(l[0], panel, rows - 1, 0);
        QCOMPARE(QColor(img.pixel(pixelOf(far))), theme.masked);
        const auto hit = hitTestHeatmap(rect, r, theme, far);
        QVERIFY(hit && hit->masked);
        const QString tip = heatmapToolTip(r, *hit);
        QVERIFY2(tip.contains(window > 0 ? QStringLiteral("window") : QStringLiteral("chunk")), qPrintable(tip));
    }

    // The sink strip beside the cells: each row's bar is p_sink of its query (exact cells), or
    // the heatmap's statistic of p_sink over every query of the row's block (aggregated blocks),
    // checked against the core asked one query at a time; past the work budget, p_sink of each
    // block's centre query, said to be sampled. Its scale carries three labelled ticks.
    void sinkMassStripBesideTheCells_data() {
        QTest::addColumn<qint64>("length");
        QTest::addColumn<qint64>("window");
        QTest::addColumn<double>("sink");
        QTest::addColumn<bool>("softmax");
        QTest::addColumn<int>("aggregate");      // Aggregate: mean, max, min
        QTest::addColumn<qint64>("keysTo");      // zoom the keys to [0, keysTo) (0: all)
        QTest::addColumn<int>("workLog2");       // DisplaySpec::heatmapWork = 2^workLog2
        QTest::addColumn<int>("cells");          // HeatmapCells the panel shows
        QTest::addColumn<bool>("sampled");       // the strip samples one query per block
        const int exact = int(HeatmapCells::Exact), blocks = int(HeatmapCells::Aggregate), samples = int(HeatmapCells::Sample);
        const int mean = int(Aggregate::Mean), max = int(Aggregate::Max), min = int(Aggregate::Min);
        QTest::newRow("sink0.5_window16_N64") << qint64(64) << qint64(16) << 0.5 << true << mean << qint64(0) << 26 << exact << false;
        QTest::newRow("sink2_full_N64") << qint64(64) << qint64(0) << 2.0 << true << mean << qint64(0) << 26 << exact << false;
        QTest::newRow("sink0_window128_N3000_samples") << qint64(3000) << qint64(128) << 0.0 << true << mean << qint64(0) << 26 << samples << false;
        QTest::newRow("sink0_window128_N3000_blocks_mean") << qint64(3000) << qint64(128) << 0.0 << true << mean << qint64(0) << 30 << blocks << false;
        QTest::newRow("sink1_window128_N3000_blocks_max") << qint64(3000) << qint64(128) << 1.0 << true << max << qint64(0) << 30 << blocks << false;
        QTest::newRow("sink-1_full_N1500_blocks_min") << qint64(1500) << qint64(0) << -1.0 << true << min << qint64(0) << 30 << blocks << false;
        QTest::newRow("sink3_full_N2000_scores_blocks_mean") << qint64(2000) << qint64(0) << 3.0 << false << mean << qint64(0) << 30 << blocks << false;
        QTest::newRow("sink0_full_N3000_scores_keys0-100_sampled") << qint64(3000) << qint64(0) << 0.0 << false << mean << qint64(100) << 26 << blocks << true;
    }
    void sinkMassStripBesideTheCells() {
        QFETCH(qint64, length);
        QFETCH(qint64, window);
        QFETCH(double, sink);
        QFETCH(bool, softmax);
        QFETCH(int, aggregate);
        QFETCH(qint64, keysTo);
        QFETCH(int, workLog2);
        QFETCH(int, cells);
        QFETCH(bool, sampled);
        SceneParams s = layerScene(length, window, 0, true, softmax);
        s.methods[0].params.attention.sink = {sink};
        s.view.aggregate = Aggregate(aggregate);
        if (keysTo > 0) {
            s.view.heatmapKeyFrom = 0;
            s.view.heatmapKeyTo = keysTo;
        }
        const Theme theme = themeByName(QStringLiteral("light"));
        const QRectF rect(0, 0, 960, 540);
        DisplaySpec d;
        d.heatmapCells = heatmapCellsFor(rect, 1, theme, 1.0, false, heatmapHasSinkStrip(s));
        d.heatmapWork = std::int64_t{1} << workLog2;
        const HeatmapResult r = computeHeatmap(s, d);
        const HeatmapPanel& panel = r.panels[0];
        QVERIFY2(panel.error.isEmpty(), qPrintable(panel.error));
        QVERIFY2(panel.sinkError.isEmpty(), qPrintable(panel.sinkError));
        QCOMPARE(int(panel.cells), cells);
        QCOMPARE(panel.sinkMass.size(), panel.queries.size());
        QCOMPARE(panel.sinkSampled, sampled);
        ScoreParams ep = effectiveParams(s, 0);
        ep.softmax = true;
        const auto pSink = [&](std::int64_t i) {
            std::vector<double> m;
            const auto w = scores(ep, Positions{i}, Positions{0}, length, &m);
            return w && m.size() == 1 ? m[0] : std::nan("");
        };
        if (panel.cells == HeatmapCells::Aggregate && !sampled) {
            // Brute force: every query of each block on its own, then the block's statistic.
            QVERIFY(!panel.queryRanges.empty() && panel.queryRanges.front().size() > 1);
            for (std::size_t row = 0; row < panel.queryRanges.size(); ++row) {
                const PositionRange& q = panel.queryRanges[row];
                double sum = 0, lo = 1e300, hi = -1e300;
                for (std::int64_t i = q.from; i < q.to; ++i) {
                    const double v = pSink(i);
                    sum += v;
                    lo = std::min(lo, v);
                    hi = std::max(hi, v);
                }
                const double expected = aggregate == int(Aggregate::Mean) ? sum / double(q.size()) : aggregate == int(Aggregate::Max) ? hi : lo;
                QVERIFY2(std::abs(panel.sinkMass[row] - expected) <= 1e-13 * std::max(1.0, std::abs(expected)),
                         qPrintable(QStringLiteral("row %1 (queries %2 … %3): %4 vs %5").arg(row).arg(q.from).arg(q.to - 1)
                                        .arg(panel.sinkMass[row], 0, 'g', 17).arg(expected, 0, 'g', 17)));
            }
        } else if (sampled) {
            QCOMPARE(panel.cells, HeatmapCells::Aggregate);
            for (std::size_t row = 0; row < panel.queryRanges.size(); row += 11) {
                const PositionRange& q = panel.queryRanges[row];
                QCOMPARE(panel.sinkMass[row], pSink(q.from + (q.size() - 1) / 2));
            }
        } else {
            // Each row's p_sink is the core's for the row's query (exact or sampled), and with
            // softmax each exact row sums to 1 − p_sink.
            std::vector<double> mass;
            scores(ep, panel.queries, Positions{0}, length, &mass).value();
            for (std::size_t i = 0; i < mass.size(); ++i) QCOMPARE(panel.sinkMass[i], mass[i]);
            for (Eigen::Index i = 0; panel.cells == HeatmapCells::Exact && softmax && i < panel.values.rows(); i += 7) {
                double sum = 0;
                for (Eigen::Index j = 0; j < panel.values.cols(); ++j)
                    if (std::isfinite(panel.values(i, j))) sum += panel.values(i, j);
                QVERIFY(std::abs(sum + panel.sinkMass[std::size_t(i)] - 1.0) < 1e-9);
            }
        }
        QVERIFY(heatmapHasSinkStrip(r));
        const auto l = layoutHeatmap(rect, 1, theme, false, true);
        QVERIFY(!l[0].sink.isEmpty());
        QVERIFY(l[0].sink.left() > l[0].image.right() && l[0].colorbar.left() > l[0].sink.right());
        QImage img(rect.size().toSize(), QImage::Format_RGB32);
        LayoutReport report;
        report.bounds = rect;
        {
            QPainter p(&img);
            LayoutCapture capture(report);
            capture.setView(QStringLiteral("heatmap"));
            renderHeatmap(p, rect, r, theme);
        }
        saveShot(img, QStringLiteral("heatmap_") + QString::fromLatin1(QTest::currentDataTag()));
        // The scale: three labelled ticks 0, s, 2s under the strip, 2s at or above the largest
        // bar; nothing overlaps.
        const double most = *std::max_element(panel.sinkMass.begin(), panel.sinkMass.end());
        const auto ticks = sinkStripTicks(most);
        QCOMPARE(ticks.size(), std::size_t(3));
        QVERIFY(ticks.back() >= most && ticks.back() * 2 / 3 <= most + 1e-15);
        QStringList under;
        for (const auto& item : report.items)
            if (item.kind == LayoutItemKind::Text && item.rect.top() >= l[0].sink.bottom() && item.rect.left() >= l[0].sink.left() - 6 &&
                item.rect.right() <= l[0].sink.right() + 6 && item.rect.top() < l[0].sink.bottom() + 4 + d.heatmapCells)
                under << item.text;
        for (const QString& label : sinkStripLabels(ticks)) QVERIFY2(under.contains(label), qPrintable(under.join(QLatin1Char('|'))));
        const QStringList problems = layoutProblems(report);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, 6).join(QLatin1Char('\n'))));
        // The row with the largest p_sink reaches past two thirds of the strip; its colour there.
        const auto top = std::max_element(panel.sinkMass.begin(), panel.sinkMass.end()) - panel.sinkMass.begin();
        const double rh = l[0].sink.height() / double(panel.sinkMass.size());
        const QPointF mid(l[0].sink.left() + l[0].sink.width() * 0.6, l[0].sink.top() + (double(top) + 0.5) * rh);
        QCOMPARE(QColor(img.pixel(pixelOf(mid))), theme.series(0));
        const auto hit = hitTestHeatmap(rect, r, theme, cellCentre(l[0], panel, int(top), 0));
        QVERIFY(hit.has_value());
        QVERIFY(heatmapToolTip(r, *hit).contains(QStringLiteral("p_sink")));
    }

    // The strip's scale: three ticks from 0, the top at or above the largest p_sink and below
    // 1.5 times it (the bars fill at least two thirds), labels distinct.
    void sinkStripTicksFitTheLargest_data() {
        QTest::addColumn<double>("most");
        // 0.0009 and 0.00095: a scale 0, 5e-4, 1e-3 (either side of 0.001, one way of writing).
        for (double v : {1.0, 0.999, 0.5, 0.3333, 0.0101, 0.0123, 0.002, 0.0009, 0.00095, 0.0007, 3.1e-5, 1e-9})
            QTest::newRow(qPrintable(QString::number(v, 'g', 4))) << v;
    }
    void sinkStripTicksFitTheLargest() {
        QFETCH(double, most);
        const auto t = sinkStripTicks(most);
        QCOMPARE(t.size(), std::size_t(3));
        QCOMPARE(t[0], 0.0);
        QVERIFY(std::abs(t[2] - 2 * t[1]) <= 1e-15 * t[2]);
        QVERIFY2(t[2] >= most && t[2] <= most * 1.5 + 1e-300, qPrintable(QString::number(t[2])));
        QStringList labels = sinkStripLabels(t);
        // Written one way (the check every figure's axis labels pass: layoutProblems).
        LayoutReport one;
        {
            QImage img(600, 40, QImage::Format_ARGB32_Premultiplied);
            QPainter p(&img);
            LayoutCapture capture(one);
            LayoutGroup group;
            for (qsizetype k = 0; k < labels.size(); ++k) plot::text(p, QPointF(40 + 150 * double(k), 20), labels[k]);
        }
        QCOMPARE(one.items.size(), std::size_t(3));
        const QStringList problems = layoutProblems(one);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        labels.removeDuplicates();
        QCOMPARE(labels.size(), 3);
        // The labels fit under the strip, a space apart.
        const Theme theme = themeByName(QStringLiteral("projector"));
        const auto l = layoutHeatmap(QRectF(0, 0, 1280, 720), 1, theme, false, true);
        const QFontMetricsF fm(theme.smallFont());
        QVERIFY(fm.horizontalAdvance(labels.join(QStringLiteral("  "))) <= l[0].sink.width());
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
        v.setResult(std::make_shared<const decltype(r)>(r));
        const auto l = layoutHeatmap(QRectF(v.rect()), 1, v.theme());
        const QPointF c = cellCentre(l[0], r.panels[0], 5, 3);
        const QString tip = v.toolTipAt(c.toPoint());
        QVERIFY(tip.contains(QStringLiteral("query i = 5, key j = 3")));
        QVERIFY(tip.contains(formatValue(coreScore(s, r.panels[0], 5, 3))));
        QVERIFY(v.toolTipAt(QPoint(2, 2)).isEmpty());
    }

    void tooltipAgreesWithPoslabCompute() {
        // The command line run as a user runs it (tests/support/runposlab.h); when it fails, the
        // test fails naming the run: a broken CLI is a failure, never a skip.
        const auto run = testsupport::runPoslab({QStringLiteral("compute"), QStringLiteral("scores"), QStringLiteral("--method"),
                                                 QStringLiteral("rope"), QStringLiteral("--length"), QStringLiteral("12"),
                                                 QStringLiteral("--dim"), QStringLiteral("64")});
        QVERIFY2(run.code == 0, qPrintable(run.describe()));
        const auto rows = run.json().value(QStringLiteral("scores")).toArray();
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
                QVERIFY(heatmapToolTip(r, *hit).contains(formatValue(cli)));
            }
    }
};

QTEST_MAIN(TestHeatmapRenderer)
#include "test_heatmap_renderer.moc"
