// ui/render/layersrenderer: the layer overview of the shipped model configurations. Each row's
// text says the layer's type, positional signal, base and scaling and reach as the config gives
// them; each bar covers exactly the distances the layer sees (and nothing past its window or
// chunk); a point maps back to its row.
#include <QtTest>

#include <QImage>
#include <QPainter>

#include "ui/io/modelconfig.h"
#include "ui/render/layersrenderer.h"
#include "ui/render/layout.h"
#include "ui/render/plot.h"

#include <algorithm>
#include <cmath>

using namespace poslab;
using namespace poslab::ui;

namespace {

LayersPicture pictureOf(const QString& key) {
    const ModelConfigResult r = readModelConfigFile(QStringLiteral(POSLAB_SOURCE_DIR "/resources/models/") + key + QStringLiteral(".json"));
    LayersPicture pic;
    if (!r.config) return pic;
    pic.model = r.config->params.model;
    pic.dim = r.config->params.dim;
    pic.context = r.config->contextLength.value_or(131072);
    pic.title = key;
    return pic;
}

QString plain(QString s) { return s.replace(QChar(0x2009), QLatin1Char(' ')); }

}  // namespace

class TestLayersRenderer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rowText_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<int>("layer");
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("signal");
        QTest::addColumn<QString>("base");
        QTest::addColumn<QString>("scaling");
        QTest::addColumn<QString>("reach");
        QTest::newRow("gemma-3-27b_0") << "gemma-3-27b" << 0 << "sliding" << "RoPE" << "θ 10 000" << "" << "window 1 024";
        QTest::newRow("gemma-3-27b_5") << "gemma-3-27b" << 5 << "full" << "RoPE" << "θ 1 000 000" << "linear ×8" << "everything";
        QTest::newRow("llama-4-scout_0") << "llama-4-scout" << 0 << "chunked" << "RoPE" << "θ 500 000" << "Llama 3 ×16" << "chunk 8 192";
        // τ at the last of 10 485 760 positions: log1p(⌊10485760/8192⌋)·0.1 + 1 = 1.7155…
        QTest::newRow("llama-4-scout_3") << "llama-4-scout" << 3 << "full" << "NoPE, τ ≤ 1.716" << "" << "" << "everything";
        QTest::newRow("gpt-oss-20b_0") << "gpt-oss-20b" << 0 << "sliding" << "RoPE" << "θ 150 000" << "YaRN ×32" << "window 128";
        QTest::newRow("command-a_3") << "command-a" << 3 << "full" << "NoPE" << "" << "" << "everything";
        // ModernBERT is bidirectional: its window of 128 reaches 64 on either side.
        QTest::newRow("modernbert-base_1") << "modernbert-base" << 1 << "sliding" << "RoPE" << "θ 10 000" << "" << "window 128 (±64)";
        QTest::newRow("modernbert-base_0") << "modernbert-base" << 0 << "full" << "RoPE" << "θ 160 000" << "" << "everything";
    }
    void rowText() {
        QFETCH(QString, key);
        QFETCH(int, layer);
        QFETCH(QString, type);
        QFETCH(QString, signal);
        QFETCH(QString, base);
        QFETCH(QString, scaling);
        QFETCH(QString, reach);
        const LayersPicture pic = pictureOf(key);
        QVERIFY(layerCount(pic.model) > layer);
        const LayerRowText t = layerRowText(pic.model, layer, pic.context);
        QCOMPARE(t.index, QString::number(layer));
        QCOMPARE(t.type, type);
        QCOMPARE(t.signal, signal);
        QCOMPARE(plain(t.base), base);
        QCOMPARE(t.scaling, scaling);
        QCOMPARE(plain(t.reach), reach);
    }

    // The bars, read back from the pixels: a sliding layer's bar is coloured before its window
    // and empty well past it; a full layer's bar reaches the end of the axis. Every row's centre
    // maps back to its layer.
    void barsCoverWhatEachLayerSees_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<int>("local");    // a layer with a window or chunk
        QTest::addColumn<int>("global");   // a layer that sees everything
        QTest::newRow("gemma-3-27b") << "gemma-3-27b" << 0 << 5;
        QTest::newRow("llama-4-scout") << "llama-4-scout" << 0 << 3;
        QTest::newRow("gpt-oss-20b") << "gpt-oss-20b" << 0 << 1;
    }
    void barsCoverWhatEachLayerSees() {
        QFETCH(QString, key);
        QFETCH(int, local);
        QFETCH(int, global);
        const LayersPicture pic = pictureOf(key);
        const Theme theme = themeByName(QStringLiteral("light"));
        QImage img(1600, 1000, QImage::Format_ARGB32);
        img.fill(Qt::white);
        QPainter p(&img);
        const QRectF rect(0, 0, 1600, 1000);
        drawLayers(p, rect, pic, theme);
        p.end();
        // Row centres and the bar area: found through layerRowAt, scanning down one column.
        std::vector<double> centre(static_cast<std::size_t>(layerCount(pic.model)), 0);
        std::vector<int> seen(centre.size(), 0);
        for (int y = 0; y < 1000; ++y)
            if (auto row = layerRowAt(rect, pic, theme, QPointF(800, y))) {
                QVERIFY(*row >= 0 && *row < layerCount(pic.model));
                centre[static_cast<std::size_t>(*row)] += y;
                ++seen[static_cast<std::size_t>(*row)];
            }
        // (A row per layer, or per group of layers alike: the local and the global layer have one.)
        QVERIFY(seen[std::size_t(local)] > 0 && seen[std::size_t(global)] > 0);
        for (std::size_t i = 0; i < centre.size(); ++i)
            if (seen[i] > 0) centre[i] /= seen[i];
        QVERIFY(!layerRowAt(rect, pic, theme, QPointF(800, 2)));   // the heading is no row
        const auto isBar = [&](int row, int x) {
            const QColor c = img.pixelColor(x, static_cast<int>(centre[static_cast<std::size_t>(row)]));
            // A bar pixel is the signal colour blended on white: clearly not white or grey.
            return std::abs(c.red() - c.blue()) > 12 || std::abs(c.green() - c.blue()) > 12;
        };
        // The bar's right end of the local layer lies left of the global layer's.
        int localEnd = 0, globalEnd = 0;
        for (int x = 0; x < 1600; ++x) {
            if (isBar(local, x)) localEnd = x;
            if (isBar(global, x)) globalEnd = x;
        }
        QVERIFY2(globalEnd > 1500, qPrintable(QString::number(globalEnd)));
        QVERIFY2(localEnd < globalEnd - 200, qPrintable(QStringLiteral("%1 %2").arg(localEnd).arg(globalEnd)));
        QVERIFY(localEnd > 700);
    }

    // The temperature curve is drawn only where a shown layer has temperature tuning (Llama 4's
    // NoPE layers; SmolLM3's NoPE layers have none), on a position axis up to max(context, 10M).
    void temperatureCurveOnlyWithTuning_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("curve");
        QTest::newRow("llama-4-scout") << "llama-4-scout" << true;
        QTest::newRow("gemma-3-27b") << "gemma-3-27b" << false;
        QTest::newRow("gpt-oss-20b") << "gpt-oss-20b" << false;
        QTest::newRow("smollm3-3b") << "smollm3-3b" << false;
        QTest::newRow("command-a") << "command-a" << false;
        QTest::newRow("modernbert-base") << "modernbert-base" << false;
    }
    void temperatureCurveOnlyWithTuning() {
        QFETCH(QString, key);
        QFETCH(bool, curve);
        LayersPicture pic = pictureOf(key);
        QVERIFY(layerCount(pic.model) > 0);
        const Theme theme = themeByName(QStringLiteral("light"));
        const auto tp = layersTemperaturePlot(QRectF(0, 0, 1600, 1000), pic, theme);
        QCOMPARE(tp.has_value(), curve);
        if (!curve) return;
        QCOMPARE(tp->positionTo, std::max<std::int64_t>(pic.context, 10'000'000));
        QCOMPARE(tp->attention.temperature_tuning, pic.model.temperature_tuning);
        // A shorter context still runs the axis to 10M; the first three layers alone (no NoPE
        // layer among them) have no curve.
        pic.context = 8192;
        QCOMPARE(layersTemperaturePlot(QRectF(0, 0, 1600, 1000), pic, theme)->positionTo, std::int64_t(10'000'000));
        pic.firstRows = 3;
        QVERIFY(!layersTemperaturePlot(QRectF(0, 0, 1600, 1000), pic, theme));
        // A picture that asks for none (a slide whose table says τ) has none.
        pic.firstRows = -1;
        QVERIFY(layersTemperaturePlot(QRectF(0, 0, 1600, 1000), pic, theme));
        pic.temperatureCurve = false;
        QVERIFY(!layersTemperaturePlot(QRectF(0, 0, 1600, 1000), pic, theme));
    }

    // The curve read back from the pixels: in the pixel column of position i the curve's colour
    // lies at τ(i) = log(⌊(i+1)/F⌋ + 1)·S + 1 (the column's segment spans τ of its first and last
    // position, which bracket τ(i)), and where τ is flat across the column, nowhere else.
    // (Rows first: at 1280×720 the 48 layers take two rows, one per kind, and leave the curve room.)
    void temperatureCurveFollowsTau_data() {
        QTest::addColumn<QString>("theme");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("room");
        for (const char* t : {"light", "projector"})
            for (const QSize sz : {QSize(1600, 1000), QSize(1920, 1080), QSize(1280, 720)})
                QTest::newRow(qPrintable(QStringLiteral("%1_%2x%3").arg(QLatin1String(t)).arg(sz.width()).arg(sz.height())))
                    << QString::fromLatin1(t) << sz << true;   // (Llama 4's 48 layers in two rows leave room even at 720)
    }
    void temperatureCurveFollowsTau() {
        QFETCH(QString, theme);
        QFETCH(QSize, size);
        QFETCH(bool, room);
        const LayersPicture pic = pictureOf(QStringLiteral("llama-4-scout"));
        const Theme t = themeByName(theme);
        const QRectF rect(QPointF(0, 0), QSizeF(size));
        const auto tp = layersTemperaturePlot(rect, pic, t);
        QCOMPARE(tp.has_value(), room);
        if (!room) return;
        QVERIFY(tp->plot.height() >= 20);
        QImage img(size, QImage::Format_ARGB32);
        img.fill(Qt::white);
        QPainter p(&img);
        p.setRenderHint(QPainter::Antialiasing, true);
        drawLayers(p, rect, pic, t);
        p.end();
        if (const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR"); !dir.isEmpty())
            img.save(dir + QStringLiteral("/layers_temperature_") + QString::fromLatin1(QTest::currentDataTag()) + QStringLiteral(".png"));
        const QColor curve = t.series(2);
        const auto isCurve = [&](int x, int y) {
            const QColor c = img.pixelColor(x, y);
            return std::abs(c.red() - curve.red()) + std::abs(c.green() - curve.green()) + std::abs(c.blue() - curve.blue()) < 90;
        };
        const std::vector<double>& tt = pic.model.temperature_tuning;
        QCOMPARE(tt.size(), std::size_t(2));
        const auto tau = [&](double i) { return std::log1p(std::floor((i + 1) / tt[0])) * tt[1] + 1; };
        for (const std::int64_t i : {std::int64_t(50), std::int64_t(3000), std::int64_t(8191), std::int64_t(40000), std::int64_t(300000),
                                     std::int64_t(2000000), std::int64_t(9000000)}) {
            const int x = static_cast<int>(std::floor(tp->x(double(i))));
            const double y = tp->y(tau(double(i)));
            std::vector<int> hits;
            // The two columns nearest to x(i) (a step at a column's edge inks its neighbour as much).
            for (int xx : {static_cast<int>(std::floor(tp->x(double(i)) - 0.5)), static_cast<int>(std::floor(tp->x(double(i)) + 0.5))})
                for (int yy = static_cast<int>(tp->plot.top()); yy < static_cast<int>(tp->plot.bottom()); ++yy)
                    if (isCurve(xx, yy)) hits.push_back(yy);
            std::sort(hits.begin(), hits.end());
            QVERIFY2(!hits.empty(), qPrintable(QStringLiteral("position %1: no curve in column %2").arg(i).arg(x)));
            const bool near = std::any_of(hits.begin(), hits.end(), [&](int yy) { return std::abs(yy + 0.5 - y) <= 3; });
            QVERIFY2(near, qPrintable(QStringLiteral("position %1: curve at %2…%3, τ at %4").arg(i).arg(hits.front()).arg(hits.back()).arg(y)));
            // Flat columns (below the first step, and between steps while they are wider than a
            // pixel): the curve is there only.
            const double l0 = std::pow(10.0, std::log10(double(std::max<std::int64_t>(i, 1))) - 2.0 / tp->plot.width() * std::log10(double(tp->positionTo)));
            const double l1 = std::pow(10.0, std::log10(double(i)) + 2.0 / tp->plot.width() * std::log10(double(tp->positionTo)));
            if (tau(l0) == tau(l1))
                for (int yy : hits) QVERIFY2(std::abs(yy + 0.5 - y) <= 4, qPrintable(QStringLiteral("position %1: stray curve at %2").arg(i).arg(yy)));
        }
        // τ's labels are numbers of the plot's range; the x axis reaches 10M.
        LayoutReport report;
        report.bounds = rect;
        {
            QImage scratch(size, QImage::Format_ARGB32);
            QPainter sp(&scratch);
            LayoutCapture capture(report);
            capture.setView(QStringLiteral("layers"));
            drawLayers(sp, rect, pic, t);
        }
        QStringList below;   // texts under the curve's plot
        for (const auto& item : report.items)
            if (item.kind == LayoutItemKind::Text && item.rect.top() >= tp->plot.bottom() - 0.5) below << item.text;
        QVERIFY2(below.contains(QStringLiteral("10M")) && below.contains(QStringLiteral("1k")), qPrintable(below.join(QLatin1Char('|'))));
        const QStringList problems = layoutProblems(report);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, 6).join(QLatin1Char('\n'))));
    }

    // A window's bar ends where the layer's reach ends on the log distance axis 1 … context:
    // a decoder's window W at W − 1 back (bar up to distance W), a bidirectional model's at ⌊W/2⌋
    // (bar up to ⌊W/2⌋ + 1): the local bar's length over the full bar's is log(end)/log(context).
    // The same ModernBERT drawn as a decoder (bidirectional off) reaches W − 1.
    void windowBarsReachTheirSide_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("bidirectional");
        QTest::addColumn<int>("local");
        QTest::addColumn<int>("global");
        QTest::addColumn<double>("barEnd");   // the distance where the local bar ends
        QTest::newRow("modernbert-base") << "modernbert-base" << true << 1 << 0 << 65.0;
        QTest::newRow("modernbert-base_as_decoder") << "modernbert-base" << false << 1 << 0 << 128.0;
        QTest::newRow("gpt-oss-20b") << "gpt-oss-20b" << false << 0 << 1 << 128.0;
    }
    void windowBarsReachTheirSide() {
        QFETCH(QString, key);
        QFETCH(bool, bidirectional);
        QFETCH(int, local);
        QFETCH(int, global);
        QFETCH(double, barEnd);
        LayersPicture pic = pictureOf(key);
        QCOMPARE(pic.model.bidirectional, key == QLatin1String("modernbert-base"));
        pic.model.bidirectional = bidirectional;
        const Theme theme = themeByName(QStringLiteral("light"));
        QImage img(1600, 1000, QImage::Format_ARGB32);
        img.fill(Qt::white);
        QPainter p(&img);
        const QRectF rect(0, 0, 1600, 1000);
        drawLayers(p, rect, pic, theme);
        p.end();
        const auto rowY = [&](int row) {
            double sum = 0;
            int n = 0;
            for (int y = 0; y < 1000; ++y)
                if (auto r = layerRowAt(rect, pic, theme, QPointF(800, y)); r && *r == row) sum += y, ++n;
            return static_cast<int>(sum / std::max(n, 1));
        };
        const QColor bar = theme.series(0);
        const auto isBar = [&](int x, int y) {
            const QColor c = img.pixelColor(x, y);
            return std::abs(c.red() - bar.red()) + std::abs(c.green() - bar.green()) + std::abs(c.blue() - bar.blue()) < 120;
        };
        // The bar: the run of bar pixels that ends at the rightmost one (grid lines drawn over it
        // leave gaps of a pixel or two; the row's text in the table lies well left of it).
        const auto extent = [&](int y) {
            int last = -1;
            for (int x = 0; x < 1600; ++x)
                if (isBar(x, y)) last = x;
            int first = last;
            for (int x = last; x >= 0 && last >= 0; --x) {
                if (isBar(x, y)) first = x;
                else if (first - x > 3) break;
            }
            return std::pair<int, int>(first, last);
        };
        const auto [l0, l1] = extent(rowY(local));
        const auto [g0, g1] = extent(rowY(global));
        QVERIFY(l0 > 0 && g0 > 0);
        QVERIFY(std::abs(l0 - g0) <= 1);
        const double measured = double(l1 + 1 - l0) / double(g1 + 1 - g0);
        const double expected = std::log10(barEnd) / std::log10(double(pic.context));
        QVERIFY2(std::abs(measured - expected) < 0.004, qPrintable(QStringLiteral("%1 vs %2 (bars %3…%4, %5…%6)").arg(measured).arg(expected).arg(l0).arg(l1).arg(g0).arg(g1)));
        // The plot's heading says which distance it is.
        LayoutReport report;
        report.bounds = rect;
        {
            QImage scratch(1600, 1000, QImage::Format_ARGB32);
            QPainter sp(&scratch);
            LayoutCapture capture(report);
            drawLayers(sp, rect, pic, theme);
        }
        const bool eitherSide = std::any_of(report.items.begin(), report.items.end(), [](const LayoutItem& i) {
            return i.text.contains(QStringLiteral("|i − j|")) && i.text.contains(QStringLiteral("either side"));
        });
        QCOMPARE(eitherSide, bidirectional);
    }

    // A real model's many layers stay legible: every row at least a line of text tall (a row per
    // layer where they fit, else a row per group of layers alike), each with its text (layer,
    // type, position), and a point at row k's centre is row k's layer (grouped: the group's first).
    void manyLayersStayLegible_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("theme");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("grouped");
        // The window's overview: a third of the views' height at 1280×720 and 1920×1080.
        QTest::newRow("gemma-3-27b_light_1264x200") << "gemma-3-27b" << "light" << QSize(1264, 200) << true;
        QTest::newRow("gemma-3-27b_light_1900x300") << "gemma-3-27b" << "light" << QSize(1900, 300) << true;
        QTest::newRow("gemma-3-27b_projector_1900x300") << "gemma-3-27b" << "projector" << QSize(1900, 300) << true;
        QTest::newRow("gemma-3-27b_light_1600x1000") << "gemma-3-27b" << "light" << QSize(1600, 1000) << true;
        QTest::newRow("gemma-3-27b_light_1600x1600") << "gemma-3-27b" << "light" << QSize(1600, 1600) << false;
        QTest::newRow("llama-4-scout_light_1264x200") << "llama-4-scout" << "light" << QSize(1264, 200) << true;
        QTest::newRow("gpt-oss-20b_projector_1264x200") << "gpt-oss-20b" << "projector" << QSize(1264, 200) << true;
    }
    void manyLayersStayLegible() {
        QFETCH(QString, key);
        QFETCH(QString, theme);
        QFETCH(QSize, size);
        QFETCH(bool, grouped);
        const LayersPicture pic = pictureOf(key);
        const Theme t = themeByName(theme);
        const QRectF rect(QPointF(0, 0), QSizeF(size));
        QImage img(size, QImage::Format_ARGB32);
        img.fill(Qt::white);
        LayoutReport report;
        {
            QPainter p(&img);
            LayoutCapture capture(report);
            drawLayers(p, rect, pic, t);
        }
        if (const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR"); !dir.isEmpty())
            img.save(dir + QStringLiteral("/layers_") + QString::fromLatin1(QTest::currentDataTag()) + QStringLiteral(".png"));
        // The rows, read through layerRowAt down the middle of the bars.
        struct Run {
            int from, to;
            std::int64_t layer;
        };
        std::vector<Run> runs;
        for (int y = 0; y < size.height(); ++y) {
            const auto layer = layerRowAt(rect, pic, t, QPointF(size.width() * 0.8, y + 0.5));
            if (!layer) continue;
            if (!runs.empty() && runs.back().to == y && runs.back().layer == *layer) runs.back().to = y + 1;
            else runs.push_back({y, y + 1, *layer});
        }
        const auto groups = layerGroups(pic.model, layerCount(pic.model));
        QCOMPARE(runs.size(), grouped ? groups.size() : std::size_t(layerCount(pic.model)));
        const double line = plot::lineHeight(t.font(t.fontPt));
        for (std::size_t k = 0; k < runs.size(); ++k) {
            const Run& r = runs[k];
            QVERIFY2(r.to - r.from >= std::floor(line), qPrintable(QStringLiteral("row %1: %2 px, a line is %3 px").arg(k).arg(r.to - r.from).arg(line)));
            // The click at its centre: row k's layer.
            const auto at = layerRowAt(rect, pic, t, QPointF(size.width() * 0.5, (r.from + r.to) / 2.0));
            QVERIFY(at.has_value());
            QCOMPARE(*at, grouped ? groups[k].front() : std::int64_t(k));
            // Its text: the layer (or the group's layers), the type and the position signal.
            const LayerRowText rt = layerRowText(pic.model, *at, pic.context);
            int texts = 0;
            bool type = false, signal = false;
            for (const auto& i : report.items) {
                if (i.kind != LayoutItemKind::Text || i.rect.center().y() < r.from || i.rect.center().y() >= r.to) continue;
                ++texts;
                type = type || i.text == rt.type;
                signal = signal || i.text == rt.signal;
                QVERIFY2(!i.elided, qPrintable(i.text));
            }
            QVERIFY2(texts >= 3 && type && signal, qPrintable(QStringLiteral("row %1: %2 texts").arg(k).arg(texts)));
        }
    }

    // Groups: the layers alike in everything a row shows, in the order of their first layer.
    void layerGroupsAndTheirText() {
        const LayersPicture pic = pictureOf(QStringLiteral("gemma-3-27b"));
        const auto groups = layerGroups(pic.model, layerCount(pic.model));
        QCOMPARE(groups.size(), std::size_t{2});
        QCOMPARE(groups[0].size(), std::size_t{52});
        QCOMPARE(groups[1].size(), std::size_t{10});
        QCOMPARE(layerListText(groups[1]), QStringLiteral("5, 11, 17, 23, 29, 35, 41, 47, 53, 59"));
        QVERIFY(layerListText(groups[0]).startsWith(QStringLiteral("0–4, 6–10, ")));
        QVERIFY(layerListText(groups[0]).endsWith(QStringLiteral(", 60–61")));
        for (const auto& g : groups)
            for (std::int64_t layer : g) {
                const LayerRowText a = layerRowText(pic.model, layer, pic.context), b = layerRowText(pic.model, g.front(), pic.context);
                QCOMPARE(a.type + a.signal + a.base + a.scaling + a.reach, b.type + b.signal + b.base + b.scaling + b.reach);
            }
    }

    // No pattern: a message instead of rows, and no row under any point.
    void emptyPatternSaysSo() {
        LayersPicture pic;
        const Theme theme;
        QImage img(400, 300, QImage::Format_ARGB32);
        img.fill(Qt::white);
        QPainter p(&img);
        drawLayers(p, QRectF(0, 0, 400, 300), pic, theme);
        p.end();
        QVERIFY(!layerRowAt(QRectF(0, 0, 400, 300), pic, theme, QPointF(200, 150)));
        int dark = 0;
        for (int y = 0; y < 300; ++y)
            for (int x = 0; x < 400; ++x) dark += qGray(img.pixel(x, y)) < 128;
        QVERIFY(dark > 50);   // the message
    }
};

QTEST_MAIN(TestLayersRenderer)
#include "test_layersrenderer.moc"
