// Pair vectors: what the view draws is the core's numbers. RoPE pairs equal the rows of
// ropeRotate (half and interleaved layouts, partial rotary, YaRN), xPos pairs equal a full-sequence
// xposApply, sinusoidal points equal sinusoidalEncoding; arrow tips sit where the vector says
// and the tooltip reports its exact value; non-rotating methods describe what they do instead.
#include "core/learned.h"
#include "core/rope.h"
#include "core/shaw.h"
#include "core/t5.h"
#include "core/transformer_xl.h"
#include "core/scores.h"
#include "core/sinusoidal.h"
#include "core/xpos.h"
#include "ui/model/compute.h"
#include "ui/render/layout.h"
#include "ui/render/pairsrenderer.h"

#include <QtTest>

using namespace poslab;
using namespace poslab::ui;

namespace {

// The pair view of `r` drawn into an image of `size` (the renderer alone, as export draws it).
QImage drawPairs(const PairsResult& r, const QSize& size, const Theme& theme) {
    QImage img(size, QImage::Format_RGB32);
    QPainter painter(&img);
    renderPairs(painter, QRectF(img.rect()), r, theme);
    return img;
}

}  // namespace

class TestPairsRenderer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A pane with room below four circles shows eight automatic pairs, their circles nearly as
    // large; a small or a wide-and-short pane keeps four. The layout of the computed pairs fills
    // the pane's height.
    // Every position's colour (arrow, label, legend) reads on the theme's background: WCAG's
    // contrast ratio for graphics and large text, at least 3 (viridis' blues on near-black were
    // about 2.8, its last greens on white 2.2).
    void positionColoursContrastWithTheBackground_data() {
        QTest::addColumn<QString>("theme");
        for (const QString& name : themeNames()) QTest::newRow(qPrintable(name)) << name;
    }
    void positionColoursContrastWithTheBackground() {
        QFETCH(QString, theme);
        const Theme t = themeByName(theme);
        const auto luminance = [](const QColor& c) {
            const auto lin = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
            return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
        };
        const double bg = luminance(t.background);
        for (int n : {2, 7, 12})
            for (int k = 0; k < n; ++k) {
                const double fg = luminance(positionColor(k, n, t));
                const double ratio = (std::max(fg, bg) + 0.05) / (std::min(fg, bg) + 0.05);
                QVERIFY2(ratio >= 3.0, qPrintable(QStringLiteral("position %1 of %2: %3 on %4, contrast %5")
                                                      .arg(k).arg(n).arg(positionColor(k, n, t).name(), t.background.name()).arg(ratio)));
            }
    }

    // Automatic pairs: eight where four would leave the pane's lower part empty, fewer where four
    // circles would be too small to read (minPlotSide).
    void automaticPairsFillThePane_data() {
        QTest::addColumn<QSizeF>("size");
        QTest::addColumn<int>("configs");
        QTest::addColumn<QString>("theme");
        QTest::addColumn<double>("fontScale");
        QTest::addColumn<int>("expected");
        const QString light = QStringLiteral("light"), projector = QStringLiteral("projector");
        QTest::newRow("explorer_1920x1080_one_config") << QSizeF(939, 635) << 1 << light << 1.0 << 8;
        // Four in a row would leave over a quarter of the pane empty: eight in two rows, legible.
        QTest::newRow("explorer_1280x720_one_config") << QSizeF(630, 400) << 1 << light << 1.0 << 8;
        // A pane that four fill keeps four.
        QTest::newRow("explorer_1280x720_projector_text1.5_one_config") << QSizeF(637, 425) << 1 << projector << 1.5 << 4;
        // Wide and short: eight in one row are as large as four (the width was empty).
        QTest::newRow("wide_short_1600x300") << QSizeF(1600, 300) << 1 << light << 1.0 << 8;
        QTest::newRow("explorer_1920x1080_four_configs") << QSizeF(939, 635) << 4 << light << 1.0 << 4;
        // The window's pane beside the docks in compare mode: eight in a row would cut their text.
        QTest::newRow("window_1920x1080_three_configs") << QSizeF(540, 600) << 3 << light << 1.0 << 4;
        QTest::newRow("full_1920x1080_one_config") << QSizeF(1920, 1080) << 1 << light << 1.0 << 8;
        // Large type: four in a row would leave a third of the pane empty; eight in two rows fill it.
        QTest::newRow("full_1920x1080_projector_text1.5") << QSizeF(1920, 1080) << 1 << projector << 1.5 << 8;
        // Four configurations in the explorer's pane at 1280 × 720, large type: four circles of
        // each would be under three lines of type; two are legible.
        QTest::newRow("explorer_1280x720_projector_text1.5_four_configs") << QSizeF(637, 425) << 4 << projector << 1.5 << 2;
    }
    void automaticPairsFillThePane() {
        QFETCH(QSizeF, size);
        QFETCH(int, configs);
        QFETCH(QString, theme);
        QFETCH(double, fontScale);
        QFETCH(int, expected);
        const Theme t = themeByName(theme, fontScale);
        const QRectF rect(QPointF(0, 0), size);
        const int n = automaticPairsFor(rect, configs, t);
        QCOMPARE(n, expected);
        SceneParams s;
        s.methods.assign(std::size_t(configs), s.methods.front());
        const auto circle = [&](int autoPairs) {
            DisplaySpec d;
            d.autoPairs = autoPairs;
            const PairsResult r = computePairs(s, d);
            const auto rows = layoutPairs(rect, r, t);
            [&] { QCOMPARE(int(rows.front().cells.size()), autoPairs); }();
            const auto& cells = rows.front().cells;
            double bottom = 0;
            for (const auto& c : cells) bottom = std::max(bottom, c.cell.bottom());
            return std::tuple<double, double, double>{rows.front().plotSide, bottom, rows.front().row.bottom()};
        };
        const auto [four, fourBottom, rowBottom] = circle(4);
        const auto [chosen, chosenBottom, chosenRowBottom] = circle(n);
        Q_UNUSED(chosenRowBottom);
        if (n < 4) {
            // Fewer because four would be illegible; the fewer are legible.
            QVERIFY(four < minPlotSide(t));
            QVERIFY2(chosen >= minPlotSide(t), qPrintable(QStringLiteral("%1 against %2").arg(chosen).arg(minPlotSide(t))));
            return;
        }
        QVERIFY(chosen >= minPlotSide(t));
        // Eight nearly as large as four; or, where four leave a quarter of the row empty, at least
        // half as large, filling it.
        if (chosen < 0.85 * four) {
            QCOMPARE(n, 8);
            QVERIFY2(chosen >= 0.5 * four, qPrintable(QStringLiteral("%1 against %2").arg(chosen).arg(four)));
            QVERIFY(rowBottom - fourBottom > (rowBottom - rect.top()) / 4);
        }
        // Eight fill the first row's height where four leave a large part of it empty.
        if (n == 8 && size.height() > 600) {
            QVERIFY(rowBottom - fourBottom > rowBottom / 4);
            QVERIFY(rowBottom - chosenBottom < rowBottom / 6);
        }
    }

    void ropePairsAreTheCoresRotation_data() {
        QTest::addColumn<int>("layout");
        QTest::addColumn<int>("content");
        QTest::addColumn<double>("partial");
        QTest::addColumn<int>("scaling");
        QTest::newRow("half_ones_full") << int(RopeLayout::Half) << int(Content::Ones) << 1.0 << int(RopeScaling::None);
        QTest::newRow("interleaved_random_full") << int(RopeLayout::Interleaved) << int(Content::Random) << 1.0 << int(RopeScaling::None);
        QTest::newRow("half_formula_partial0.5") << int(RopeLayout::Half) << int(Content::Formula) << 0.5 << int(RopeScaling::None);
        QTest::newRow("half_random_yarn") << int(RopeLayout::Half) << int(Content::Random) << 1.0 << int(RopeScaling::Yarn);
    }
    void ropePairsAreTheCoresRotation() {
        QFETCH(int, layout);
        QFETCH(int, content);
        QFETCH(double, partial);
        QFETCH(int, scaling);
        SceneParams s;
        auto& p = s.methods[0].params;
        p.content = static_cast<Content>(content);
        p.rope.layout = static_cast<RopeLayout>(layout);
        p.rope.partial_rotary_factor = partial;
        p.rope.scaling = static_cast<RopeScaling>(scaling);
        if (p.rope.scaling == RopeScaling::Yarn) {
            p.rope.max_positions = 256;
            p.rope.original_max_positions = 64;
            p.rope.seq_len = 64;   // what the frequencies view and scores use for N = 64
        }
        const PairsResult r = computePairs(s);
        const auto& c = r.configs.at(0);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        const ScoreParams ep = effectiveParams(s, 0);
        const Matrix q = contentRows(ep.content, false, c.positions, ep.dim, ep.seed);
        const Matrix rot = ropeRotate(ep.ropeParams(), c.positions, q);
        QVERIFY(!c.pairs.empty());
        for (const auto& pp : c.pairs) {
            for (std::size_t m = 0; m < c.positions.size(); ++m) {
                QCOMPARE(pp.query[m].x(), rot(static_cast<Eigen::Index>(m), pp.channelA));
                QCOMPARE(pp.query[m].y(), rot(static_cast<Eigen::Index>(m), pp.channelB));
            }
            if (p.rope.layout == RopeLayout::Interleaved) QCOMPARE(pp.channelB, pp.channelA + 1);
            else QCOMPARE(pp.channelB, pp.channelA + ep.ropeParams().rotaryDim() / 2);
        }
    }

    void xposPairsAreTheFullSequenceApplication() {
        SceneParams s;
        s.length = 40;
        s.positions = {0, 3, 19, 39};
        auto& p = s.methods[0].params;
        p.method = Method::Xpos;
        p.content = Content::Random;
        p.xpos.scale_base = 16;   // a visible spiral
        const PairsResult r = computePairs(s);
        const auto& c = r.configs.at(0);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        const ScoreParams ep = effectiveParams(s, 0);
        const Positions all = arangePositions(0, s.length);
        const Matrix qa = xposApply(ep.xposParams(), contentRows(ep.content, false, all, ep.dim, ep.seed), 0, false);
        const Matrix ka = xposApply(ep.xposParams(), contentRows(ep.content, true, all, ep.dim, ep.seed), 0, true);
        for (const auto& pp : c.pairs)
            for (std::size_t m = 0; m < c.positions.size(); ++m) {
                const auto row = static_cast<Eigen::Index>(c.positions[m]);
                QCOMPARE(pp.query[m].x(), qa(row, pp.channelA));
                QCOMPARE(pp.query[m].y(), qa(row, pp.channelB));
                QCOMPARE(pp.key[m].x(), ka(row, pp.channelA));
                QCOMPARE(pp.key[m].y(), ka(row, pp.channelB));
            }
        // The spiral: the first query's radius changes along the trail.
        const auto& trail = c.pairs.front().trail;
        QVERIFY(std::hypot(trail.back().x(), trail.back().y()) != std::hypot(trail.front().x(), trail.front().y()));
    }

    void sinusoidalPointsAreTheEncoding_data() {
        QTest::addColumn<int>("layout");
        QTest::newRow("interleaved") << int(SinusoidalLayout::Interleaved);
        QTest::newRow("concat") << int(SinusoidalLayout::Concat);
    }
    void sinusoidalPointsAreTheEncoding() {
        QFETCH(int, layout);
        SceneParams s;
        auto& p = s.methods[0].params;
        p.method = Method::Sinusoidal;
        p.sinusoidal.layout = static_cast<SinusoidalLayout>(layout);
        const PairsResult r = computePairs(s);
        const auto& c = r.configs.at(0);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        const Matrix pe = sinusoidalEncoding(effectiveParams(s, 0).sinusoidalParams(), c.positions);
        for (const auto& pp : c.pairs)
            for (std::size_t m = 0; m < c.positions.size(); ++m) {
                QCOMPARE(pp.query[m].x(), pe(static_cast<Eigen::Index>(m), pp.channelA));   // cos
                QCOMPARE(pp.query[m].y(), pe(static_cast<Eigen::Index>(m), pp.channelB));   // sin
            }
    }

    void arrowTipIsDrawnAndTooltipShowsTheValue() {
        SceneParams s;
        s.positions = {0, 5};
        s.pairs = {0};
        const PairsResult r = computePairs(s);
        const Theme theme = themeByName(QStringLiteral("light"));
        const QRectF rect(0, 0, 500, 420);
        const QImage img = drawPairs(r, rect.size().toSize(), theme);
        const auto layout = layoutPairs(rect, r, theme);
        QCOMPARE(layout.size(), std::size_t{1});
        QCOMPARE(layout[0].cells.size(), std::size_t{1});
        const auto& cl = layout[0].cells[0];
        const QPointF v = r.configs[0].pairs[0].query[1];
        const QPointF tip(cl.center.x() + v.x() * cl.scale, cl.center.y() - v.y() * cl.scale);
        // Just inside the arrow head, the pixel has the position's colour.
        const QPointF dir = (tip - cl.center) / std::hypot(tip.x() - cl.center.x(), tip.y() - cl.center.y());
        const QColor drawn(img.pixel((tip - dir * 3).toPoint()));
        const QColor expected = positionColor(1, 2, theme);
        QVERIFY2(std::abs(drawn.red() - expected.red()) + std::abs(drawn.green() - expected.green()) +
                         std::abs(drawn.blue() - expected.blue()) < 60,
                 qPrintable(drawn.name() + QStringLiteral(" vs ") + expected.name()));
        const auto hit = hitTestPairs(rect, r, theme, tip);
        QVERIFY(hit.has_value());
        QCOMPARE(hit->position, 1);
        const QString tip1 = pairsToolTip(r, *hit);
        QVERIFY2(tip1.contains(QStringLiteral("position m = 5")), qPrintable(tip1));
        QVERIFY(tip1.contains(formatValue(v.x())));
        QVERIFY(tip1.contains(formatValue(r.configs[0].pairs[0].angle[1])));
    }

    // A trail shows where the pair's vector is across positions. A pair that turns far between
    // trail samples (pair 0 turns 1 rad a position) is drawn as dots on the circle: no chord
    // crosses the inside of the circle, where the vector never is. A slow pair is a line.
    void trailStaysWhereTheVectorIs_data() {
        QTest::addColumn<int>("pair");
        QTest::addColumn<bool>("dots");
        QTest::newRow("pair0_1rad_per_position_dots") << 0 << true;
        QTest::newRow("pair10_0.24rad_per_position_dots") << 10 << true;
        QTest::newRow("pair63_slow_line") << 63 << false;
    }
    void trailStaysWhereTheVectorIs() {
        QFETCH(int, pair);
        QFETCH(bool, dots);
        SceneParams s;
        s.length = 1024;
        s.methods[0].params.dim = 128;
        s.positions = {0, 512};
        s.pairs = {pair};
        const PairsResult r = computePairs(s);
        const auto& pp = r.configs.at(0).pairs.at(0);
        QCOMPARE(trailAsDots(pp), dots);
        const Theme theme = themeByName(QStringLiteral("light"));
        const QRectF rect(0, 0, 520, 480);
        const QImage img = drawPairs(r, rect.size().toSize(), theme);
        const auto layout = layoutPairs(rect, r, theme);
        const auto& cl = layout.at(0).cells.at(0);
        const double R = std::hypot(pp.trail.front().x(), pp.trail.front().y()) * cl.scale;
        // Ink inside the circle (0.45 R .. 0.75 R), away from the arrows and the axes.
        std::vector<double> arrows;
        for (const auto& q : pp.query) arrows.push_back(std::atan2(q.y(), q.x()));
        const auto near = [](double a, double b, double tol) { return std::abs(std::remainder(a - b, 2 * M_PI)) < tol; };
        int inside = 0, looked = 0;
        for (double rad = 0.45; rad <= 0.75; rad += 0.05)
            for (double a = 0; a < 2 * M_PI; a += 0.01) {
                bool skip = false;
                for (double x : arrows) skip = skip || near(a, x, 0.3);
                for (int k = 0; k < 4; ++k) skip = skip || near(a, k * M_PI / 2, 0.08);
                if (skip) continue;
                const QPoint px = QPointF(cl.center.x() + rad * R * std::cos(a), cl.center.y() - rad * R * std::sin(a)).toPoint();
                ++looked;
                if (QColor(img.pixel(px)) != theme.background) ++inside;
            }
        QVERIFY(looked > 500);
        if (dots) QVERIFY2(inside == 0, qPrintable(QStringLiteral("%1 of %2 pixels inside the circle are inked").arg(inside).arg(looked)));
        // The trail itself is drawn: the pixel at a middle trail sample is not the background.
        const QPointF mid = pp.trail[pp.trail.size() / 2];
        const QPoint at = QPointF(cl.center.x() + mid.x() * cl.scale, cl.center.y() - mid.y() * cl.scale).toPoint();
        QVERIFY(QColor(img.pixel(at)) != theme.background);
    }

    void nonRotatingMethodsSayWhatTheyDo_data() {
        QTest::addColumn<int>("method");
        QTest::addColumn<bool>("curve");
        QTest::addColumn<bool>("table");
        QTest::newRow("nope") << int(Method::NoPE) << false << false;
        QTest::newRow("alibi") << int(Method::Alibi) << true << false;
        QTest::newRow("t5") << int(Method::T5) << true << true;
        QTest::newRow("shaw") << int(Method::Shaw) << true << true;
        QTest::newRow("learned") << int(Method::Learned) << false << true;
        QTest::newRow("transformer-xl") << int(Method::TransformerXL) << false << true;
    }
    void nonRotatingMethodsSayWhatTheyDo() {
        QFETCH(int, method);
        QFETCH(bool, curve);
        QFETCH(bool, table);
        SceneParams s;
        s.methods[0].params.method = static_cast<Method>(method);
        const PairsResult r = computePairs(s);
        const auto& c = r.configs.at(0);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QVERIFY(!c.rotates);
        QCOMPARE(c.summary, QString::fromUtf8(methodSummary(c.method).data()));
        QVERIFY(!c.curveTitle.isEmpty() || curve);
        QCOMPARE(!c.curves.empty(), curve);
        QCOMPARE(c.table.size() > 0, table);
        if (method == int(Method::Alibi)) {
            // bias −m_h·d: the core's slopes
            const Vector slopes = alibiSlopes(effectiveParams(s, 0).alibiParams());
            QCOMPARE(c.curves[0].y[10], -slopes(0) * c.curves[0].x[10]);
        }
        QImage img(600, 400, QImage::Format_RGB32);
        QPainter p(&img);
        renderPairs(p, QRectF(0, 0, 600, 400), r, themeByName(QStringLiteral("light")));
    }

    // Tables are drawn at display resolution: rows and columns are samples of the core's table,
    // labelled with the row and column they are.
    void tablesAreSampledCoreEntries_data() {
        QTest::addColumn<int>("method");
        QTest::newRow("t5_buckets1024_heads256") << int(Method::T5);
        QTest::newRow("shaw_k700_d600") << int(Method::Shaw);
        QTest::newRow("learned_d1000") << int(Method::Learned);
        QTest::newRow("transformer-xl_d900") << int(Method::TransformerXL);
    }
    void tablesAreSampledCoreEntries() {
        QFETCH(int, method);
        SceneParams s;
        s.length = 2000;
        auto& p = s.methods[0].params;
        p.method = static_cast<Method>(method);
        p.t5.num_buckets = 1024;
        p.t5.heads = 256;
        p.t5.max_distance = 100000;
        p.shaw.max_relative_position = 700;
        p.dim = method == int(Method::Shaw) ? 600 : method == int(Method::Learned) ? 1000 : 900;
        p.learned.table_size = 4000;
        DisplaySpec d;
        d.tableRows = 100;
        d.tableCols = 50;
        const PairsResult r = computePairs(s, d);
        const auto& c = r.configs.at(0);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QCOMPARE(c.table.rows(), Eigen::Index(100));
        QCOMPARE(c.table.cols(), Eigen::Index(50));
        QCOMPARE(c.tableRows.size(), std::size_t(100));
        QCOMPARE(c.tableCols.size(), std::size_t(50));
        const ScoreParams ep = effectiveParams(s, 0);
        Matrix full;
        std::int64_t rowOffset = 0;
        switch (ep.method) {
        case Method::T5: full = t5BiasTable(ep.t5Params()); break;
        case Method::Shaw: full = shawKeyTable(ep.shawParams()); rowOffset = ep.shawParams().max_relative_position; break;
        case Method::Learned: full = learnedTable(ep.learnedParams()); break;
        default: full = transformerXLPosEmb(ep.dim, std::vector<std::int64_t>(c.tableRows.begin(), c.tableRows.end())); break;
        }
        QCOMPARE(c.tableCols.front(), std::int64_t(0));
        QCOMPARE(c.tableCols.back(), std::int64_t(full.cols() - 1));
        for (Eigen::Index i = 0; i < c.table.rows(); i += 7)
            for (Eigen::Index j = 0; j < c.table.cols(); j += 3) {
                const Eigen::Index fr = ep.method == Method::TransformerXL ? i : Eigen::Index(c.tableRows[std::size_t(i)] + rowOffset);
                QCOMPARE(c.table(i, j), full(fr, Eigen::Index(c.tableCols[std::size_t(j)])));
            }
        // The tooltip names the sampled column by its own index.
        QImage img(900, 500, QImage::Format_RGB32);
        const Theme theme = themeByName(QStringLiteral("light"));
        const auto rows = layoutPairs(QRectF(0, 0, 900, 500), r, theme);
        const QRectF t = rows.at(0).table;
        QVERIFY(t.width() > 10);
        const QPointF last(t.right() - 0.5, t.top() + 0.5);
        const auto hit = hitTestPairs(QRectF(0, 0, 900, 500), r, theme, last);
        QVERIFY(hit && hit->tableCol == 49 && hit->tableRow == 0);
        const QString tip = pairsToolTip(r, *hit);
        QVERIFY2(tip.contains(QStringLiteral(" = %1\n").arg(full.cols() - 1)), qPrintable(tip));
    }

    // A curve with far more points than pixels is drawn column by column with its whole vertical
    // extent: a zig-zag between −1 and 1 inks the plot from top to bottom, a flat run one row.
    void denseCurvesKeepTheirExtent() {
        PairsResult r;
        PairsConfigResult c;
        c.method = Method::T5;
        c.title = QStringLiteral("dense");
        CurveSeries zig;
        zig.highlight = true;
        for (int x = 0; x < 20000; ++x) {
            zig.x.push_back(x);
            zig.y.push_back(x < 10000 ? ((x % 2) ? 1.0 : -1.0) : 0.0);
        }
        c.curves.push_back(zig);
        r.configs.push_back(c);
        const Theme theme = themeByName(QStringLiteral("light"));
        QImage img(800, 500, QImage::Format_RGB32);
        img.fill(theme.background);
        {
            QPainter p(&img);
            renderPairs(p, QRectF(0, 0, 800, 500), r, theme);
        }
        const QRectF plot = layoutPairs(QRectF(0, 0, 800, 500), r, theme).at(0).curve;
        const auto inked = [&](int x, int y) {
            const QColor px = img.pixelColor(x, y), ref = theme.series(0);
            return std::abs(px.red() - ref.red()) + std::abs(px.green() - ref.green()) + std::abs(px.blue() - ref.blue()) < 60;
        };
        // Left quarter (the zig-zag): series colour near the top and near the bottom of the data.
        const int xz = int(plot.left() + plot.width() * 0.25);
        int top = -1, bottom = -1;
        for (int y = int(plot.top()); y < int(plot.bottom()); ++y)
            if (inked(xz, y)) {
                if (top < 0) top = y;
                bottom = y;
            }
        QVERIFY2(top >= 0 && bottom - top > plot.height() * 0.8, qPrintable(QStringLiteral("%1 .. %2").arg(top).arg(bottom)));
        // Right quarter (flat at 0): a thin line in the middle.
        const int xf = int(plot.left() + plot.width() * 0.75);
        int count = 0;
        for (int y = int(plot.top()); y < int(plot.bottom()); ++y) count += inked(xf, y);
        QVERIFY2(count > 0 && count < 8, qPrintable(QString::number(count)));
    }
};

QTEST_MAIN(TestPairsRenderer)
#include "test_pairs_renderer.moc"
