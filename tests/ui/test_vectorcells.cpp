// Figures a paper accepts: in SVG and PDF a heatmap of up to kMaxVectorCells cells is drawn as
// filled rectangles (no bitmap at all), a larger one as one image at the figure's resolution
// (never a small bitmap scaled up), colour bars are rectangles, and the pair trails' dots are
// circles, not stamped bitmaps. PNG (raster) keeps drawing the cell image pixel for pixel.
#include "ui/io/export.h"
#include "ui/render/vectorcells.h"

#include <QRegularExpression>
#include <QSvgGenerator>
#include <QSvgRenderer>
#include <QBuffer>
#include <QtTest>

using namespace poslab;
using namespace poslab::ui;

namespace {

SceneParams heatmapScene(int length) {
    SceneParams s;
    s.length = length;
    s.view.showPairs = false;
    s.view.showDecay = false;
    s.view.showFrequencies = false;
    s.view.showHeatmap = true;
    return s;
}

struct SvgImage {
    double width = 0, height = 0;   // as drawn (user units)
    int pixelsWide = 0;             // the embedded PNG's width
};

std::vector<SvgImage> svgImages(const QByteArray& svg) {
    std::vector<SvgImage> out;
    static const QRegularExpression re(QStringLiteral("<image[^>]*width=\"([0-9.]+)\"[^>]*height=\"([0-9.]+)\"[^>]*base64,([^\"]+)\""));
    auto it = re.globalMatch(QString::fromUtf8(svg));
    while (it.hasNext()) {
        const auto m = it.next();
        SvgImage im;
        im.width = m.captured(1).toDouble();
        im.height = m.captured(2).toDouble();
        im.pixelsWide = QImage::fromData(QByteArray::fromBase64(m.captured(3).toLatin1())).width();
        out.push_back(im);
    }
    return out;
}

QByteArray exportOf(const SceneParams& s, ExportFormat f, std::optional<ViewKind> view) {
    ExportRequest r;
    r.format = f;
    r.view = view;
    r.pixels = QSize(1200, 900);
    QString error;
    const auto bytes = exportBytes(s, r, &error);
    if (!bytes) qFatal("%s", qPrintable(error));
    return *bytes;
}

// The SVG drawn by Qt's renderer at `scale` (to look at: $POSLAB_SCREENSHOT_DIR/<name>.png).
QImage drawSvg(const QByteArray& svg, QSize size, const QString& name) {
    QSvgRenderer r(svg);
    QImage img(size, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::white);
    QPainter p(&img);
    r.render(&p);
    p.end();
    const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR");
    if (!dir.isEmpty()) img.save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
    return img;
}

}  // namespace

class TestVectorCells : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void svgHeatmapIsVectorCellsOrAFullImage_data() {
        QTest::addColumn<int>("length");
        QTest::addColumn<bool>("vector");
        QTest::newRow("length16_vector") << 16 << true;
        QTest::newRow("length64_vector") << 64 << true;
        QTest::newRow("length157_vector") << 157 << true;   // the 157×157
        QTest::newRow("length400_image") << 400 << false;
    }
    void svgHeatmapIsVectorCellsOrAFullImage() {
        QFETCH(int, length);
        QFETCH(bool, vector);
        const QByteArray svg = exportOf(heatmapScene(length), ExportFormat::Svg, ViewKind::Heatmap);
        const auto images = svgImages(svg);
        const int rects = int(svg.count("<rect"));
        if (vector) {
            QVERIFY2(images.empty(), qPrintable(QStringLiteral("%1 images").arg(images.size())));
            // At least one rectangle per row of cells (runs of equal colour merge), and the colour
            // bar's 256 steps at most merged likewise.
            QVERIFY2(rects >= length, qPrintable(QString::number(rects)));
        } else {
            QCOMPARE(int(images.size()), 1);
            // At the figure's resolution: at least as many pixels as it is drawn wide.
            QVERIFY2(images.front().pixelsWide >= images.front().width,
                     qPrintable(QStringLiteral("%1 px drawn %2 wide").arg(images.front().pixelsWide).arg(images.front().width)));
        }
        // Never a small bitmap (the old colour bar and dots were 1×256 and a few pixels).
        for (const auto& im : images) QVERIFY(im.pixelsWide >= 64);
        // It draws: the same picture as the PNG, away from the antialiased edges.
        const QImage drawn = drawSvg(svg, QSize(1200, 900), QStringLiteral("vector_heatmap_%1").arg(length));
        QImage png;
        QVERIFY(png.loadFromData(exportOf(heatmapScene(length), ExportFormat::Png, ViewKind::Heatmap)));
        QCOMPARE(drawn.size(), png.size());
        int same = 0, total = 0;
        for (int y = 0; y < png.height(); y += 9)
            for (int x = 0; x < png.width(); x += 9, ++total) {
                const QColor a = drawn.pixelColor(x, y), b = png.pixelColor(x, y);
                same += std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue()) < 24;
            }
        QVERIFY2(same > total * 0.9, qPrintable(QStringLiteral("%1 of %2 samples alike").arg(same).arg(total)));
    }

    void pdfHeatmapHasNoBitmapUpToTheLimit_data() {
        QTest::addColumn<int>("length");
        QTest::addColumn<int>("images");
        QTest::newRow("length64_noImage") << 64 << 0;
        QTest::newRow("length400_oneImage") << 400 << 1;
    }
    void pdfHeatmapHasNoBitmapUpToTheLimit() {
        QFETCH(int, length);
        QFETCH(int, images);
        const QByteArray pdf = exportOf(heatmapScene(length), ExportFormat::Pdf, ViewKind::Heatmap);
        QCOMPARE(int(pdf.count("/Subtype /Image")), images);
    }

    void pairDotsAreCirclesInSvg() {
        SceneParams s;   // the default RoPE scene: its fastest pair turns ~57° a step, drawn as dots
        const QByteArray svg = exportOf(s, ExportFormat::Svg, ViewKind::Pairs);
        QVERIFY2(svgImages(svg).empty(), qPrintable(QStringLiteral("%1 images").arg(svgImages(svg).size())));
        QVERIFY(svg.count("<ellipse") + svg.count("<circle") + svg.count("<path") > 30);
        drawSvg(svg, QSize(2400, 1800), QStringLiteral("vector_pairs"));
    }

    void enlargedCellsKeepCellsSharp() {
        QImage cells(3, 2, QImage::Format_RGB32);
        for (int y = 0; y < 2; ++y)
            for (int x = 0; x < 3; ++x) cells.setPixel(x, y, qRgb(x * 100, y * 100, 7));
        const QImage big = enlargedCells(cells, QSizeF(300, 100));
        QCOMPARE(big.width() % 3, 0);
        QVERIFY(big.width() >= 600);
        QVERIFY(big.height() >= 200);
        // Every pixel is exactly its cell's colour.
        for (int y = 0; y < big.height(); y += 7)
            for (int x = 0; x < big.width(); x += 5)
                QCOMPARE(big.pixel(x, y), cells.pixel(x * 3 / big.width(), y * 2 / big.height()));
    }

    void pngStillDrawsPixelCells() {
        // A raster painter gets the image itself (exact colours at cell centres): unchanged.
        QImage cells(2, 1, QImage::Format_RGB32);
        cells.setPixel(0, 0, qRgb(255, 0, 0));
        cells.setPixel(1, 0, qRgb(0, 0, 255));
        QImage out(100, 50, QImage::Format_RGB32);
        out.fill(Qt::white);
        QPainter p(&out);
        QVERIFY(!isVectorPainter(p));
        drawCells(p, QRectF(0, 0, 100, 50), cells);
        p.end();
        QCOMPARE(out.pixel(25, 25), qRgb(255, 0, 0));
        QCOMPARE(out.pixel(75, 25), qRgb(0, 0, 255));
        // And an SVG painter is a vector one.
        QBuffer b;
        b.open(QIODevice::WriteOnly);
        QSvgGenerator gen;
        gen.setOutputDevice(&b);
        QPainter sp(&gen);
        QVERIFY(isVectorPainter(sp));
    }
};

QTEST_MAIN(TestVectorCells)
#include "test_vectorcells.moc"
