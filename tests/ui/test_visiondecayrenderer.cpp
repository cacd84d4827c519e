// ui/render/visiondecayrenderer: a vision encoder's 2-D RoPE decay over its patch grid. The
// colours drawn are the core's scores (visionDecay) through the diverging scale: a cell's centre
// pixel is its patch's score, and where a pixel covers a block of patches, the exact mean of the
// block (rowTerm and colTerm are averaged apart: the score is their sum); the chosen patch is the
// largest score; a point maps back to its patch (the window's click); the text stays apart
// (layoutProblems) in every theme; a patch outside the grid is the core's one-line message.
#include <QtTest>

#include <QImage>
#include <QPainter>

#include "core/visionrope.h"
#include "ui/render/colormap.h"
#include "ui/render/layout.h"
#include "ui/render/theme.h"
#include "ui/render/visiondecayrenderer.h"

#include <cmath>

using namespace poslab;
using namespace poslab::ui;

namespace {

VisionRopeParams paramsOf(const QString& encoder, const QString& grid, int headDim = 80) {
    VisionRopeParams p;
    p.encoder = encoder == QLatin1String("pixtral") ? VisionRope::Pixtral : VisionRope::Qwen;
    p.grid = grid.toStdString();
    p.head_dim = headDim;
    return p;
}

QImage draw(const VisionDecayPicture& pic, const QSize& size, const Theme& t, LayoutReport* report = nullptr) {
    QImage img(size, QImage::Format_RGB32);
    img.fill(Qt::white);
    QPainter p(&img);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    std::optional<LayoutCapture> capture;
    if (report) {
        report->bounds = QRectF(QPointF(0, 0), QSizeF(size));
        capture.emplace(*report);
        capture->setView(QStringLiteral("vision-decay"));
    }
    renderVisionDecay(p, QRectF(QPointF(0, 0), QSizeF(size)), pic, t);
    return img;
}

int colourDistance(QRgb a, QRgb b) {
    return std::abs(qRed(a) - qRed(b)) + std::abs(qGreen(a) - qGreen(b)) + std::abs(qBlue(a) - qBlue(b));
}

}  // namespace

class TestVisionDecayRenderer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cellsAreTheCoresScores_data() {
        QTest::addColumn<QString>("encoder");
        QTest::addColumn<QString>("grid");
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("col");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("theme");
        QTest::newRow("qwen 1x16x16 centre 1600x1000 light") << "qwen" << "1x16x16" << 8 << 8 << QSize(1600, 1000) << "light";
        QTest::newRow("qwen 2x12x20 corner 900x600 dark") << "qwen" << "2x12x20" << 0 << 19 << QSize(900, 600) << "dark";
        QTest::newRow("pixtral 1x32x24 1920x1080 projector") << "pixtral" << "1x32x24" << 30 << 2 << QSize(1920, 1080) << "projector";
        QTest::newRow("qwen 1x40x40 window row 700x360") << "qwen" << "1x40x40" << 5 << 33 << QSize(700, 360) << "light";
    }
    void cellsAreTheCoresScores() {
        QFETCH(QString, encoder);
        QFETCH(QString, grid);
        QFETCH(int, row);
        QFETCH(int, col);
        QFETCH(QSize, size);
        QFETCH(QString, theme);
        const Theme t = themeByName(theme);
        const VisionDecayPicture pic = visionDecayPictureOf(paramsOf(encoder, grid), row, col);
        QVERIFY2(pic.error.isEmpty(), qPrintable(pic.error));
        const auto want = visionDecay([&] {
            auto p = paramsOf(encoder, grid);
            p.merge = 1;
            return p;
        }(), row, col);
        QVERIFY(want.ok());
        QCOMPARE(pic.decay->rowTerm, want.value().rowTerm);
        LayoutReport report;
        const QImage img = draw(pic, size, t, &report);
        const VisionDecayGeometry g = visionDecayGeometry(QRectF(QPointF(0, 0), QSizeF(size)), pic, t);
        QVERIFY(g.cell >= 2);
        QVERIFY(QRectF(QPointF(0, 0), QSizeF(size)).contains(g.cells));
        const ColorScale scale = visionDecayScale(*pic.decay);
        // One sign (ones content, a small grid): viridis from the smallest score to the largest.
        if (pic.decay->minValue() > 0) QVERIFY(scale.kind == ColormapKind::Viridis && scale.hi == pic.decay->maxValue());
        for (std::int64_t r = 0; r < g.rows; r += std::max<std::int64_t>(1, g.rows / 7))
            for (std::int64_t c = 0; c < g.cols; c += std::max<std::int64_t>(1, g.cols / 7)) {
                if (r == row && c == col) continue;   // outlined
                const QPoint at = QPointF(g.cells.left() + g.cell * (double(c) + 0.5), g.cells.top() + g.cell * (double(r) + 0.5)).toPoint();
                QVERIFY2(colourDistance(img.pixel(at), scale.rgb(want.value().value(r, c))) <= 6,
                         qPrintable(QStringLiteral("patch %1,%2").arg(r).arg(c)));
                QCOMPARE(visionDecayPatchAt(QRectF(QPointF(0, 0), QSizeF(size)), pic, t, QPointF(at)),
                         (std::optional<std::array<std::int64_t, 2>>{{r, c}}));
            }
        // The chosen patch holds the largest score: √head_dim (every cosine 1).
        QVERIFY(std::abs(pic.decay->value(row, col) - std::sqrt(80.0)) < 1e-9);
        QCOMPARE(pic.decay->maxValue(), pic.decay->value(row, col));
        const QStringList problems = layoutProblems(report);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, 6).join('\n')));
        QVERIFY(!visionDecayPatchAt(QRectF(QPointF(0, 0), QSizeF(size)), pic, t, QPointF(1, 1)));
    }

    // More patches than pixels: each pixel is the exact mean of the block of patches it covers.
    void blocksAreExactMeans() {
        const Theme t = themeByName(QStringLiteral("light"));
        const VisionDecayPicture pic = visionDecayPictureOf(paramsOf("qwen", "1x2000x1500", 16), 100, 1400);
        QVERIFY(pic.decay);
        const QSize size(640, 400);
        const QImage img = draw(pic, size, t);
        const VisionDecayGeometry g = visionDecayGeometry(QRectF(QPointF(0, 0), QSizeF(size)), pic, t);
        QVERIFY(g.cell < 1);
        const std::int64_t cols = std::llround(g.cells.width()), rows = std::llround(g.cells.height());
        const ColorScale scale = visionDecayScale(*pic.decay);
        for (std::int64_t i : {std::int64_t(3), rows / 2, rows - 4})
            for (std::int64_t j : {std::int64_t(5), cols / 3, cols - 6}) {
                // Block (i, j): rows [i·H/rows, (i+1)·H/rows), columns likewise; brute-force mean.
                const std::int64_t r0 = i * 2000 / rows, r1 = (i + 1) * 2000 / rows, c0 = j * 1500 / cols, c1 = (j + 1) * 1500 / cols;
                double sum = 0;
                for (std::int64_t r = r0; r < r1; ++r)
                    for (std::int64_t c = c0; c < c1; ++c) sum += pic.decay->value(r, c);
                const double mean = sum / double((r1 - r0) * (c1 - c0));
                // Pixel (i, j) of the cells (their rectangle starts on whole pixels).
                const QPoint at(static_cast<int>(g.cells.left()) + static_cast<int>(j), static_cast<int>(g.cells.top()) + static_cast<int>(i));
                QVERIFY2(colourDistance(img.pixel(at), scale.rgb(mean)) <= 6, qPrintable(QStringLiteral("block %1,%2").arg(i).arg(j)));
            }
    }

    // A patch outside the grid: the picture is the core's message naming `patch`.
    void patchOutsideIsTheMessage() {
        const VisionDecayPicture pic = visionDecayPictureOf(paramsOf("qwen", "1x4x6"), 4, 0);
        QVERIFY(!pic.decay);
        QVERIFY2(pic.error.startsWith(QStringLiteral("patch")), qPrintable(pic.error));
        LayoutReport report;
        draw(pic, QSize(800, 500), themeByName(QStringLiteral("light")), &report);
        bool shown = false;
        for (const auto& item : report.items) shown = shown || item.text.contains(QStringLiteral("patch"));
        QVERIFY(shown);
    }
};

QTEST_MAIN(TestVisionDecayRenderer)
#include "test_visiondecayrenderer.moc"
