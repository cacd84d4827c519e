// ui/render/positionsrenderer: the token sequence of a multimodal layout and its position ids.
// The numbers drawn are the core's (mropePositions): under each strip cell its token index and
// t, h, w ids, under each grid cell (or on its row and column) the ids of that patch's token; the
// strip says honestly what it leaves out (the cells cover every token once, in order); the text
// stays apart (layoutProblems) and at the theme's sizes in every theme, from a small window to a
// slide, for a 1 369-token image and a 30-frame video too.
#include <QtTest>

#include <QImage>
#include <QPainter>

#include "core/mrope.h"
#include "ui/render/heatmaprenderer.h"
#include "ui/render/layout.h"
#include "ui/render/positionsrenderer.h"
#include "ui/render/theme.h"

#include <algorithm>
#include <map>

using namespace poslab;
using namespace poslab::ui;

namespace {

MropeParams paramsOf(const QString& tokens, const QString& model = QStringLiteral("qwen2-vl")) {
    MropeParams p;
    p.tokens = tokens.toStdString();
    p.model = model == QLatin1String("qwen3-vl") ? MropeModel::Qwen3VL : model == QLatin1String("qwen2.5-vl") ? MropeModel::Qwen25VL : MropeModel::Qwen2VL;
    return p;
}

// Qwen3-VL: a 30-frame 40×40 video, one video:1x40x40 per frame with a timestamp between.
QString qwen3Video(int frames) {
    QStringList parts{QStringLiteral("text:4")};
    for (int f = 0; f < frames; ++f) parts << QStringLiteral("text:3") << QStringLiteral("video:1x40x40");
    parts << QStringLiteral("text:6");
    return parts.join(QLatin1Char(','));
}

LayoutReport reportOf(const PositionsPicture& pic, const QSize& size, const Theme& t) {
    LayoutReport report;
    report.bounds = QRectF(QPointF(0, 0), QSizeF(size));
    QImage img(size, QImage::Format_ARGB32_Premultiplied);
    QPainter p(&img);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    LayoutCapture capture(report);
    capture.setView(QStringLiteral("positions"));
    renderPositions(p, report.bounds, pic, t);
    return report;
}

// The texts whose centre lies in `r`, top to bottom.
QStringList textsIn(const LayoutReport& report, const QRectF& r) {
    std::vector<std::pair<double, QString>> found;
    for (const auto& item : report.items)
        if (item.kind == LayoutItemKind::Text && r.contains(item.rect.center())) found.emplace_back(item.rect.center().y(), item.text);
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    QStringList out;
    for (const auto& f : found) out << f.second;
    return out;
}

}  // namespace

class TestPositionsRenderer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void idsDrawnAreTheCores_data() {
        QTest::addColumn<QString>("tokens");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("theme");
        QTest::addColumn<QSize>("size");
        QTest::newRow("qwen2-vl_text3_image1x4x6_text2") << "text:3,image:1x4x6,text:2" << "qwen2-vl" << "light" << QSize(1600, 1000);
        QTest::newRow("qwen2.5-vl_video4x4x4") << "text:2,video:4x4x4,text:3" << "qwen2.5-vl" << "dark" << QSize(1600, 1000);
        QTest::newRow("qwen2-vl_image1x74x74_slide") << "text:5,image:1x74x74,text:5" << "qwen2-vl" << "projector" << QSize(1920, 1080);
        QTest::newRow("qwen2-vl_text1000_image74_video30x40x40") << "text:1000,image:1x74x74,text:3,video:30x40x40,text:2" << "qwen2-vl"
                                                                 << "light" << QSize(1280, 720);
        QTest::newRow("qwen3-vl_30_frames") << qwen3Video(30) << "qwen3-vl" << "light" << QSize(1920, 1080);
        QTest::newRow("qwen2-vl_two_images_small") << "text:2,image:1x8x8,text:1,image:1x4x12,text:2" << "qwen2-vl" << "light"
                                                   << QSize(800, 600);
    }
    void idsDrawnAreTheCores() {
        QFETCH(QString, tokens);
        QFETCH(QString, model);
        QFETCH(QString, theme);
        QFETCH(QSize, size);
        const MropeParams params = paramsOf(tokens, model);
        auto expected = mropePositions(params);
        QVERIFY(expected.ok());
        const IntMatrix& ids = expected.value().ids;
        const PositionsPicture pic = positionsPictureOf(params);
        QVERIFY2(pic.error.isEmpty(), qPrintable(pic.error));
        const Theme t = themeByName(theme);
        const LayoutReport report = reportOf(pic, size, t);
        const PositionsGeometry g = positionsGeometry(report.bounds, pic, t);

        // The strip: every token once, in order; a token's cell says index, t, h, w; an elision "+n".
        QVERIFY(!g.strip.empty());
        std::int64_t next = 0;
        for (const auto& c : g.strip) {
            QCOMPARE(c.from, next);
            next += c.count;
            const QStringList texts = textsIn(report, c.rect);
            if (c.count == 1) {
                const QStringList want = {QString::number(c.from), QString::number(ids(0, c.from)), QString::number(ids(1, c.from)),
                                          QString::number(ids(2, c.from))};
                QCOMPARE(texts, want);
            } else {
                QCOMPARE(texts, QStringList{QStringLiteral("+%1").arg(c.count)});
            }
        }
        QCOMPARE(next, ids.cols());

        // The grids: the cells' ids, or the rows' h and the columns' w beside them.
        for (const auto& gr : g.grids) {
            const double c = gr.cells.width() / double(gr.cols);
            const auto token = [&](std::int64_t r, std::int64_t col) { return gr.firstToken + r * gr.cols + col; };
            if (gr.idsInCells) {
                for (std::int64_t r = 0; r < gr.rows; ++r)
                    for (std::int64_t col = 0; col < gr.cols; ++col) {
                        const QRectF cell(gr.cells.left() + c * col, gr.cells.top() + c * r, c, c);
                        const std::int64_t k = token(r, col);
                        QCOMPARE(textsIn(report, cell), (QStringList{QString::number(ids(0, k)), QString::number(ids(1, k)),
                                                                     QString::number(ids(2, k))}));
                    }
            } else {
                int rowLabels = 0, colLabels = 0;
                for (const auto& item : report.items) {
                    if (item.kind != LayoutItemKind::Text) continue;
                    const QPointF m = item.rect.center();
                    if (m.x() < gr.cells.left() && m.x() > gr.cells.left() - 200 && m.y() > gr.cells.top() && m.y() < gr.cells.bottom()) {
                        const auto r = static_cast<std::int64_t>((m.y() - gr.cells.top()) / c);
                        QCOMPARE(item.text, QString::number(ids(1, token(r, 0))));
                        ++rowLabels;
                    }
                    if (m.y() < gr.cells.top() && m.y() > gr.cells.top() - c - 40 && m.x() > gr.cells.left() && m.x() < gr.cells.right()) {
                        const auto col = static_cast<std::int64_t>((m.x() - gr.cells.left()) / c);
                        if (item.text.startsWith(QLatin1String("t = ")) || item.text.contains(QLatin1Char(' '))) continue;   // the title
                        QCOMPARE(item.text, QString::number(ids(2, token(0, col))));
                        ++colLabels;
                    }
                }
                QVERIFY2(rowLabels >= 2 && colLabels >= 2, qPrintable(QStringLiteral("%1 row and %2 column labels").arg(rowLabels).arg(colLabels)));
            }
        }
        // At least the first grid is drawn at every size here.
        QVERIFY(!g.grids.empty() || pic.positions.kinds.end() == std::find(pic.positions.kinds.begin(), pic.positions.kinds.end(), TokenKind::Image));

        // Text apart, inside the picture, at the theme's sizes.
        const QStringList problems = layoutProblems(report);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, 6).join(QLatin1Char('\n'))));
        const double smallPx = fontPixelSize(t.smallFont(), nullptr);
        QVERIFY2(smallestTextPx(report) >= smallPx - 0.5, qPrintable(QStringLiteral("%1 < %2").arg(smallestTextPx(report)).arg(smallPx)));
    }

    // What the strip leaves out is said: with elisions a line counts the tokens shown.
    void elisionIsSaid_data() {
        QTest::addColumn<QString>("tokens");
        QTest::addColumn<bool>("elided");
        QTest::newRow("text3_image1x4x6_text2") << "text:3,image:1x4x6,text:2" << false;
        QTest::newRow("text5_image1x74x74_text5") << "text:5,image:1x74x74,text:5" << true;
    }
    void elisionIsSaid() {
        QFETCH(QString, tokens);
        QFETCH(bool, elided);
        const PositionsPicture pic = positionsPictureOf(paramsOf(tokens));
        const Theme t = themeByName(QStringLiteral("light"));
        const LayoutReport report = reportOf(pic, QSize(1600, 1000), t);
        const PositionsGeometry g = positionsGeometry(report.bounds, pic, t);
        std::int64_t shown = 0;
        for (const auto& c : g.strip) shown += c.count == 1 ? 1 : 0;
        QCOMPARE(shown < pic.positions.ids.cols(), elided);
        const QString want = QStringLiteral("%1 of ").arg(shown);
        bool said = false;
        for (const auto& item : report.items) said = said || (item.kind == LayoutItemKind::Text && item.text.startsWith(want));
        QCOMPARE(said, elided);
    }

    // The heatmap's outline of an image: its tokens' rows across every key shown, and its own
    // square, at the cells of those positions (one cell each, or a zoomed window clipping it).
    void heatmapOutlinesTheImage_data() {
        QTest::addColumn<qint64>("from");    // the window shown [from, to) of queries and keys
        QTest::addColumn<qint64>("to");
        QTest::addColumn<qint64>("blockFrom");
        QTest::addColumn<qint64>("blockTo");
        QTest::addColumn<QRectF>("band");     // in cells of the window
        QTest::addColumn<QRectF>("square");
        QTest::newRow("whole_4_8") << qint64(0) << qint64(12) << qint64(4) << qint64(8) << QRectF(0, 4, 12, 4) << QRectF(4, 4, 4, 4);
        QTest::newRow("zoom_6_12_clips") << qint64(6) << qint64(12) << qint64(4) << qint64(8) << QRectF(0, 0, 6, 2) << QRectF(0, 0, 2, 2);
        QTest::newRow("zoom_8_12_outside") << qint64(8) << qint64(12) << qint64(4) << qint64(8) << QRectF() << QRectF();
    }
    void heatmapOutlinesTheImage() {
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        QFETCH(qint64, blockFrom);
        QFETCH(qint64, blockTo);
        QFETCH(QRectF, band);
        QFETCH(QRectF, square);
        HeatmapResult result;
        result.tokenBlocks.push_back({blockFrom, blockTo, 1});
        HeatmapPanel panel;
        for (qint64 p = from; p < to; ++p) {
            panel.queryRanges.push_back({p, p + 1});
            panel.keyRanges.push_back({p, p + 1});
        }
        const double cell = 10;
        const QRectF image(100, 50, cell * double(to - from), cell * double(to - from));
        const auto outlines = heatmapTokenOutlines(image, panel, result);
        if (band.isNull()) {
            QVERIFY(outlines.empty());
            return;
        }
        QCOMPARE(outlines.size(), std::size_t(1));
        const auto px = [&](const QRectF& r) {
            return QRectF(image.left() + r.x() * cell, image.top() + r.y() * cell, r.width() * cell, r.height() * cell);
        };
        QCOMPARE(outlines[0].band, px(band));
        QCOMPARE(outlines[0].square, px(square));
    }

    // A layout the rule refuses is the core's message, not a picture of wrong ids.
    void refusedLayoutIsTheMessage_data() {
        QTest::addColumn<QString>("tokens");
        QTest::addColumn<QString>("message");
        QTest::newRow("odd_grid") << "text:2,image:1x3x4" << "merge size 2 divides";
        QTest::newRow("empty") << "" << "No token layout";
        QTest::newRow("bad_entry") << "text:2,picture:3" << "tokens";
    }
    void refusedLayoutIsTheMessage() {
        QFETCH(QString, tokens);
        QFETCH(QString, message);
        const PositionsPicture pic = positionsPictureOf(paramsOf(tokens));
        QVERIFY2(pic.error.contains(message), qPrintable(pic.error));
        const LayoutReport report = reportOf(pic, QSize(800, 500), themeByName(QStringLiteral("light")));
        bool shown = false;
        for (const auto& item : report.items) shown = shown || item.text.contains(message.section(QLatin1Char(' '), 0, 0));
        QVERIFY(shown);
    }
};

QTEST_MAIN(TestPositionsRenderer)
#include "test_positionsrenderer.moc"
