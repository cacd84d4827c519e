// ui/render/layersrenderer: the layer overview of the shipped model configurations. Each row's
// text says the layer's type, positional signal, base and scaling and reach as the config gives
// them; each bar covers exactly the distances the layer sees (and nothing past its window or
// chunk); a point maps back to its row.
#include <QtTest>

#include <QImage>
#include <QPainter>

#include "ui/io/modelconfig.h"
#include "ui/render/layersrenderer.h"

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
        QTest::newRow("modernbert-base_1") << "modernbert-base" << 1 << "sliding" << "RoPE" << "θ 10 000" << "" << "window 128";
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
        for (std::size_t i = 0; i < centre.size(); ++i) {
            QVERIFY2(seen[i] > 0, qPrintable(QString::number(i)));
            centre[i] /= seen[i];
        }
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
