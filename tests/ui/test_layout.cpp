// The layout engine (ui/render/layout.h): view arrangements, compare mode's panel grid, text
// fitting, colour-bar ticks, and the report every figure carries: at the sizes of a laptop, a
// full-HD projector and a 4K screen (device pixel ratio 2), in every theme, text ×1 and ×1.5, with
// one to four configurations, no text overlaps other text or a plot, nothing is cut, no label
// lies over a line, an arrow or cells (the figure drawn without its text shows what each covers),
// the labels of an axis or a dial stay apart and write numbers one way, every panel that exists
// for a plot has one of at least three lines of small type, and the ink of `figure all` covers at
// least 85 % of the image's rows and columns. A view too small for that says so in words. The
// decay chart (on linear and log axes) and the layer overview pass the
// same checks; legend entries are never abbreviated; every frequency-plot context line is labelled.
#include "ui/model/compute.h"
#include "ui/io/export.h"
#include "ui/render/heatmaprenderer.h"
#include "ui/render/layersrenderer.h"
#include "ui/io/modelconfig.h"
#include "ui/render/layout.h"
#include "ui/teaching/demoscenes.h"
#include "ui/render/plot.h"
#include "support/figuretexts.h"

#include <QJsonArray>
#include <QPainter>
#include <QTextLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QtTest>

#include <algorithm>

using namespace poslab;
using namespace poslab::ui;

namespace {

const Method kMethods[] = {Method::Rope, Method::Alibi, Method::T5, Method::Sinusoidal, Method::Xpos,
                           Method::Learned, Method::Shaw, Method::TransformerXL, Method::NoPE};

// 1–4 configurations; `offset` rotates through the methods so that every method is drawn.
SceneParams sceneWith(int configs, int offset) {
    SceneParams s;
    s.methods.clear();
    for (int c = 0; c < configs; ++c) {
        MethodConfig m;
        m.params.method = kMethods[(offset + c) % std::size(kMethods)];
        m.params.dim = 64;
        s.methods.push_back(m);
    }
    return s;
}

struct Screen {
    const char* name;
    int width, height, dpi;
};
const Screen kScreens[] = {{"1280x720", 1280, 720, 96}, {"1920x1080", 1920, 1080, 96}, {"3840x2160_dpr2", 3840, 2160, 192}};

// Fraction of the image's rows and of its columns that hold any pixel other than the background.
std::pair<double, double> inkedRowsAndColumns(const QImage& img, QRgb background) {
    const int w = img.width(), h = img.height();
    std::vector<char> row(std::size_t(h), 0), col(std::size_t(w), 0);
    for (int y = 0; y < h; ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(img.constScanLine(y));
        for (int x = 0; x < w; ++x)
            if ((line[x] & 0xffffffu) != (background & 0xffffffu)) {
                row[std::size_t(y)] = 1;
                col[std::size_t(x)] = 1;
            }
    }
    return {double(std::count(row.begin(), row.end(), 1)) / h, double(std::count(col.begin(), col.end(), 1)) / w};
}

// With POSLAB_SCREENSHOT_DIR set, the figure `r` asks for as <dir>/<prefix>_<data tag>.png (for
// looking at what a row checked); an empty string when saved or not asked, else the error.
QString saveScreenshot(const QString& prefix, const SceneParams& scene, ExportRequest r) {
    const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR");
    if (dir.isEmpty()) return {};
    r.format = ExportFormat::Png;
    QString error;
    const QString path = QStringLiteral("%1/%2_%3.png").arg(dir, prefix, QString::fromUtf8(QTest::currentDataTag()));
    return exportToFile(path, scene, r, &error) ? QString() : path + QStringLiteral(": ") + error;
}

// The first problems of a list, one a line, for a failure message.
QByteArray firstProblems(const QStringList& problems) { return problems.mid(0, 6).join(QLatin1Char('\n')).toUtf8(); }

}  // namespace


class TestLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A raised exponent ("base^(2i/r)") lies within the text's own rectangle: the first line's
    // superscript was drawn above it, so a view's clip cut its top off (the frequency plot's
    // header on slide 19 at 1280×720).
    void wrappedTextInkStaysInItsRectangle_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("px");
        for (int px : {12, 16, 24, 32}) {
            QTest::newRow(qPrintable(QStringLiteral("exponent-first-line-%1px").arg(px)))
                << QStringLiteral("YaRN ×8: θ_i = 1/base^(2i/r) before scaling and after") << px;
            QTest::newRow(qPrintable(QStringLiteral("plain-%1px").arg(px))) << QStringLiteral("each dot's colour is the axis its pair follows") << px;
        }
    }
    void wrappedTextInkStaysInItsRectangle() {
        QFETCH(QString, text);
        QFETCH(int, px);
        QImage img(900, 200, QImage::Format_ARGB32_Premultiplied);
        img.fill(Qt::white);
        LayoutReport report;
        {
            QPainter p(&img);
            LayoutCapture capture(report);
            QFont f;
            f.setPixelSize(px);
            p.setFont(f);
            plot::wrappedText(p, QRectF(10, 60, 880, 130), text, Qt::black);
        }
        QCOMPARE(int(report.items.size()), 1);
        const QRectF r = report.items.front().rect;
        // Every inked pixel within the recorded rectangle (a pixel of antialiasing forgiven).
        int top = img.height(), bottom = -1;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x)
                if (qGray(img.pixel(x, y)) < 200) top = std::min(top, y), bottom = std::max(bottom, y);
        QVERIFY(bottom >= 0);
        QVERIFY2(top >= r.top() - 1 && bottom <= r.bottom() + 1 && top >= 60 - 1,
                 qPrintable(QStringLiteral("ink rows %1 … %2, text rectangle %3 … %4").arg(top).arg(bottom).arg(r.top()).arg(r.bottom())));
    }

    // Wrapped text never leaves a last line of one or two characters or a bracket's closing
    // fragment ("w)" alone under slide 23's "… its pair follows (t, h or"), at any width.
    void wrappedTextLeavesNoOrphan_data() {
        QTest::addColumn<QString>("text");
        QTest::newRow("mrope-header") << QStringLiteral("Qwen2-VL: M-RoPE, sectioned 16,24,24: each dot's colour is the axis its pair follows (t, h or w)");
        QTest::newRow("short-last-word") << QStringLiteral("Pairs that turn more than β fast times keep their frequency, so a is b");
        QTest::newRow("bracket-tail") << QStringLiteral("Learned tables fail at positions past the table (N = 8192)");
    }
    void wrappedTextLeavesNoOrphan() {
        QFETCH(QString, text);
        QFont f;
        f.setPixelSize(16);
        QStringList bad;
        for (int width = 60; width <= 900; width += 2) {
            QImage img(width + 20, 400, QImage::Format_ARGB32_Premultiplied);
            LayoutReport report;
            {
                QPainter p(&img);
                LayoutCapture capture(report);
                p.setFont(f);
                plot::wrappedText(p, QRectF(0, 0, width, 390), text, Qt::black);
            }
            QCOMPARE(int(report.items.size()), 1);
            const QString drawn = report.items.front().text;
            // The lines as Qt wraps the drawn text at this width.
            QTextLayout tl(drawn, f);
            QTextOption o;
            o.setWrapMode(QTextOption::WordWrap);
            tl.setTextOption(o);
            QStringList lines;
            tl.beginLayout();
            for (QTextLine l = tl.createLine(); l.isValid(); l = tl.createLine()) {
                l.setLineWidth(width);
                lines << drawn.mid(l.textStart(), l.textLength()).trimmed();
            }
            tl.endLayout();
            if (lines.size() < 2) continue;
            const QString last = lines.back();
            // No line may be cut inside a word (a word wider than the width wraps anywhere).
            const bool tooNarrow = std::any_of(lines.begin(), lines.end(), [&](const QString& l) { return QFontMetricsF(f).horizontalAdvance(l) > width + 1; });
            if (tooNarrow) continue;
            // A bracket closed on the last line, opened on an earlier one, with at most two words.
            static const QRegularExpression space(QStringLiteral("[ \\x{00A0}]+"));
            const bool fragment = last.contains(QLatin1Char(')')) && !last.contains(QLatin1Char('(')) && last.split(space).size() <= 2;
            if (last.size() <= 2 || fragment) bad << QStringLiteral("%1 px: \"%2\"").arg(width).arg(last);
        }
        QVERIFY2(bad.isEmpty(), qPrintable(bad.mid(0, 6).join(QStringLiteral("; "))));
    }

    void viewsCoverTheRectangle_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("views");
        QTest::addColumn<QSizeF>("size");
        for (auto kind : EnumKeys<ArrangementKind>::keys)
            for (int n = 1; n <= 4; ++n)
                for (QSizeF size : {QSizeF(1280, 720), QSizeF(700, 1200), QSizeF(333, 211)})
                    QTest::newRow(qPrintable(QStringLiteral("%1_%2views_%3x%4").arg(QString::fromUtf8(kind.key.data())).arg(n).arg(size.width()).arg(size.height())))
                        << int(kind.value) << n << size;
    }
    void viewsCoverTheRectangle() {
        QFETCH(int, kind);
        QFETCH(int, views);
        QFETCH(QSizeF, size);
        const Theme theme = themeByName(QStringLiteral("light"));
        ViewArrangement a{static_cast<ArrangementKind>(kind), {}};
        for (int i = 0; i < views; ++i) a.views.push_back(kAllViews[i]);
        const QRectF rect(QPointF(10, 20), size);
        const auto placed = placeViews(rect, a, theme);
        const bool single = a.kind == ArrangementKind::Single || views == 1;
        QCOMPARE(int(placed.size()), single ? 1 : views);
        double area = 0;
        for (std::size_t i = 0; i < placed.size(); ++i) {
            QVERIFY(rect.contains(placed[i].rect));
            QVERIFY(placed[i].rect.width() > 0 && placed[i].rect.height() > 0);
            area += placed[i].rect.width() * placed[i].rect.height();
            for (std::size_t j = i + 1; j < placed.size(); ++j) QVERIFY(!placed[i].rect.intersects(placed[j].rect));
        }
        // Only the gaps between views are left empty.
        const double gap = viewGap(theme);
        const double rectArea = size.width() * size.height();
        QVERIFY2(area >= rectArea - gap * (size.width() + size.height()) * 2, qPrintable(QStringLiteral("%1 of %2").arg(area).arg(rectArea)));
    }

    // A slide's chosen views (no view kinds): every kind, 1–4 views.
    void rectsCoverTheRectangle_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("n");
        QTest::addColumn<QSizeF>("size");
        for (auto kind : EnumKeys<ArrangementKind>::keys)
            for (int n = 1; n <= 4; ++n)
                for (QSizeF size : {QSizeF(1920, 900), QSizeF(640, 1000)})
                    QTest::newRow(qPrintable(QStringLiteral("%1_%2_%3x%4").arg(QString::fromUtf8(kind.key.data())).arg(n).arg(size.width()).arg(size.height())))
                        << int(kind.value) << n << size;
    }
    void rectsCoverTheRectangle() {
        QFETCH(int, kind);
        QFETCH(int, n);
        QFETCH(QSizeF, size);
        const auto k = static_cast<ArrangementKind>(kind);
        const double gap = 12;
        const QRectF rect(QPointF(30, 40), size);
        const auto rects = placeRects(rect, k, n, gap);
        QCOMPARE(int(rects.size()), k == ArrangementKind::Single ? 1 : n);
        double area = 0;
        for (std::size_t i = 0; i < rects.size(); ++i) {
            QVERIFY(rect.contains(rects[i]));
            area += rects[i].width() * rects[i].height();
            for (std::size_t j = i + 1; j < rects.size(); ++j) QVERIFY(!rects[i].intersects(rects[j]));
        }
        QVERIFY(area >= size.width() * size.height() - gap * (size.width() + size.height()) * 3);   // only the gaps are left
        if (k == ArrangementKind::Row && n > 1) QCOMPARE(rects[0].height(), size.height());
        if (k == ArrangementKind::Column && n > 1) QCOMPARE(rects[0].width(), size.width());
        if (k == ArrangementKind::Grid && n == 3) QCOMPARE(rects[2].width(), size.width());   // the third spans its row
    }

    // `figure … -o F.json` writes the layout the PNG of the same request is drawn with.
    // A text item's "px" is its font's pixel size in the report's pixels: the point size at the
    // device's 96 dpi, times the painter's scale (a rotated label keeps its size) and the capture's.
    void textCarriesItsPixelSize_data() {
        QTest::addColumn<double>("pointSize");
        QTest::addColumn<double>("painterScale");
        QTest::addColumn<double>("rotation");
        QTest::addColumn<double>("captureScale");
        QTest::newRow("12pt") << 12.0 << 1.0 << 0.0 << 1.0;
        QTest::newRow("18pt") << 18.0 << 1.0 << 0.0 << 1.0;
        QTest::newRow("12pt-painter-scaled-0.5") << 12.0 << 0.5 << 0.0 << 1.0;
        QTest::newRow("12pt-rotated-90") << 12.0 << 1.0 << 90.0 << 1.0;
        QTest::newRow("12pt-capture-scale-2") << 12.0 << 1.0 << 0.0 << 2.0;
    }
    void textCarriesItsPixelSize() {
        QFETCH(double, pointSize);
        QFETCH(double, painterScale);
        QFETCH(double, rotation);
        QFETCH(double, captureScale);
        QImage img(400, 400, QImage::Format_ARGB32_Premultiplied);
        img.fill(Qt::white);
        LayoutReport report;
        {
            QPainter p(&img);
            LayoutCapture capture(report, captureScale);
            QFont f = p.font();
            f.setPointSizeF(pointSize);
            p.setFont(f);
            p.translate(200, 200);
            p.scale(painterScale, painterScale);
            p.rotate(rotation);
            plot::text(p, QPointF(0, 0), QStringLiteral("label"));
            QRectF used;
            plot::recordedText(p, QRectF(-100, 20, 200, 100), Qt::AlignLeft | Qt::AlignTop, QStringLiteral("wrapped"), &used);
        }
        QCOMPARE(report.items.size(), std::size_t(2));
        const double expected = pointSize * img.logicalDpiY() / 72.0 * painterScale * captureScale;
        for (const LayoutItem& i : report.items) {
            QCOMPARE(i.kind, LayoutItemKind::Text);
            QVERIFY2(std::abs(i.px - expected) < 0.01, qPrintable(QStringLiteral("%1: %2 px, expected %3").arg(i.text).arg(i.px).arg(expected)));
        }
        QCOMPARE(smallestTextPx(report), report.items.front().px);
    }

    void jsonCarriesTheLayout() {
        const SceneParams scene = sceneWith(2, 0);
        ExportRequest r;
        r.format = ExportFormat::Json;
        r.pixels = QSize(1280, 720);
        const QJsonDocument doc = QJsonDocument::fromJson(exportJson(scene, r));
        const QJsonArray layout = doc.object().value(QStringLiteral("layout")).toArray();
        LayoutReport report = exportLayout(scene, r);
        // Panels are the report's bookkeeping (layout.h), not in the JSON.
        std::erase_if(report.items, [](const LayoutItem& i) { return i.kind == LayoutItemKind::Panel; });
        QVERIFY(!layout.isEmpty());
        QCOMPARE(layout.size(), qsizetype(report.items.size()));
        QStringList kinds;
        for (qsizetype i = 0; i < layout.size(); ++i) {
            const QJsonObject o = layout[i].toObject();
            const LayoutItem& item = report.items[std::size_t(i)];
            QCOMPARE(o.value(QStringLiteral("view")).toString(), item.view);
            QCOMPARE(o.value(QStringLiteral("kind")).toString(), layoutItemKindKey(item.kind));
            const QJsonArray rect = o.value(QStringLiteral("rect")).toArray();
            QCOMPARE(rect.size(), qsizetype(4));
            QVERIFY(std::abs(rect[0].toDouble() - item.rect.x()) <= 0.01 && std::abs(rect[3].toDouble() - item.rect.height()) <= 0.01);
            QCOMPARE(o.contains(QStringLiteral("text")), item.kind == LayoutItemKind::Text);
            // Every text its font's pixel size (cli.md "Added in 0.4").
            QCOMPARE(o.contains(QStringLiteral("px")), item.kind == LayoutItemKind::Text);
            if (item.kind == LayoutItemKind::Text)
                QVERIFY(item.px > 4 && std::abs(o.value(QStringLiteral("px")).toDouble() - item.px) <= 0.01);
            QCOMPARE(o.value(QStringLiteral("elided")).toBool(), item.elided);
            kinds << o.value(QStringLiteral("kind")).toString();
        }
        for (const char* k : {"plot", "text", "legend", "colorbar"}) QVERIFY2(kinds.contains(QLatin1String(k)), k);
    }

    void panelsFillTheirShare_data() {
        QTest::addColumn<int>("panels");
        QTest::addColumn<QSizeF>("size");
        for (int n = 1; n <= 7; ++n)
            for (QSizeF size : {QSizeF(1200, 500), QSizeF(500, 900), QSizeF(800, 800)})
                QTest::newRow(qPrintable(QStringLiteral("%1panels_%2x%3").arg(n).arg(size.width()).arg(size.height()))) << n << size;
    }
    void panelsFillTheirShare() {
        QFETCH(int, panels);
        QFETCH(QSizeF, size);
        const PanelChrome chrome{60, 40, 80, 40};
        const QRectF rect(QPointF(0, 0), size);
        const auto square = placePanels(rect, panels, chrome, true);
        const auto fill = placePanels(rect, panels, chrome, false);
        QCOMPARE(int(square.size()), panels);
        QCOMPARE(int(fill.size()), panels);
        for (int k = 0; k < panels; ++k) {
            const auto& s = square[std::size_t(k)];
            const auto& f = fill[std::size_t(k)];
            QCOMPARE(s.plot.width(), s.plot.height());
            QVERIFY(s.area.contains(s.plot) && f.area.contains(f.plot));
            QVERIFY(rect.contains(f.area));
            // Filling never gives less than square cells, and uses the panel's share up to the aspect limit.
            QVERIFY(f.plot.width() * f.plot.height() >= s.plot.width() * s.plot.height());
            const double freeW = f.area.width() - chrome.left - chrome.right, freeH = f.area.height() - chrome.top - chrome.bottom;
            QVERIFY(f.plot.width() >= std::min(freeW, f.plot.height() * 2.5) - 1);
            QVERIFY(f.plot.height() >= std::min(freeH, f.plot.width() * 2.5) - 1);
            for (int j = k + 1; j < panels; ++j) QVERIFY(!f.area.intersects(fill[std::size_t(j)].area));
        }
    }

    void textIsAbbreviatedByRule_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("room");   // a string as wide as the room
        QTest::addColumn<QString>("expected");
        QTest::addColumn<bool>("elided");
        QTest::newRow("fits") << "scores · N = 64" << "scores · N = 64" << "scores · N = 64" << false;
        QTest::newRow("drop_dot_tail") << "scores · causal · N = 64" << "scores · causal" << "scores · causal" << true;
        QTest::newRow("drop_parenthesis") << "32 rad (5.09 turns)" << "32 rad (5" << "32 rad" << true;
        QTest::newRow("drop_nested_parenthesis") << "Embedding table E (seeded N(0, 0.02²), seed 0)" << "Embedding table E (seeded"
                                                 << "Embedding table E" << true;
        QTest::newRow("cut") << "Llama 3.1 8B Instruct" << "Llama 3.1" << "" << true;
        // A part dropped inside a parenthesis closes it: never "(32 buckets · exact below 8".
        QTest::newRow("drop_dot_tail_in_parenthesis") << "T5 (32 buckets · exact below 8 · log up to 128)"
                                                      << "T5 (32 buckets · exact below 8)" << "T5 (32 buckets · exact below 8)" << true;
    }
    void textIsAbbreviatedByRule() {
        QFETCH(QString, text);
        QFETCH(QString, room);
        QFETCH(QString, expected);
        QFETCH(bool, elided);
        const QFont font = themeByName(QStringLiteral("light")).bodyFont();
        const double width = QFontMetricsF(font).horizontalAdvance(room);
        const FittedText f = fitText(text, font, width);
        QCOMPARE(f.elided, elided);
        QVERIFY(f.width <= width + 0.01);
        if (!expected.isEmpty()) QCOMPARE(f.text, expected);
        else QVERIFY(f.text.endsWith(QChar(0x2026)));
    }

    void colourBarsCarryThreeTicks_data() {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<double>("height");
        QTest::newRow("symmetric_short") << -20.0 << 20.0 << 60.0;
        QTest::newRow("difference_tiny") << -1e-7 << 1e-7 << 50.0;
        QTest::newRow("flat_zero") << 0.0 << 0.0 << 120.0;
        QTest::newRow("flat_value") << 0.25 << 0.25 << 120.0;
        QTest::newRow("weights_tall") << 0.0 << 1.0 << 900.0;
        QTest::newRow("odd_range") << 3.37 << 8.02 << 70.0;
    }
    void colourBarsCarryThreeTicks() {
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(double, height);
        const double label = 14;
        const auto t = colorbarTicks(lo, hi, height, label);
        QVERIFY2(t.size() >= 3, qPrintable(QString::number(t.size())));
        QVERIFY(std::is_sorted(t.begin(), t.end()));
        QStringList labels;
        for (double v : t) labels << QString::number(v, 'g', 4);
        labels.removeDuplicates();
        QCOMPARE(labels.size(), int(t.size()));   // distinct labels
        if (hi > lo) {
            QVERIFY(t.front() >= lo - 1e-12 * std::abs(lo) && t.back() <= hi + 1e-12 * std::abs(hi));
            for (std::size_t i = 1; i < t.size(); ++i) QVERIFY(height * (t[i] - t[i - 1]) / (hi - lo) >= label);
        }
    }

    // The report of every figure: no text over text or plots, nothing cut, all inside.
    void figuresHaveNoOverlapsAndNothingCut_data() {
        QTest::addColumn<QString>("view");
        QTest::addColumn<int>("screen");
        QTest::addColumn<QString>("theme");
        QTest::addColumn<double>("fontScale");
        QTest::addColumn<int>("configs");
        QTest::addColumn<int>("offset");
        const QStringList views = viewKeys() << QStringLiteral("all");
        int offset = 0;
        for (int s = 0; s < int(std::size(kScreens)); ++s)
            for (const QString& theme : themeNames())
                for (double scale : {1.0, 1.5})
                    for (int configs = 1; configs <= 4; ++configs)
                        for (const QString& view : views) {
                            QTest::newRow(qPrintable(QStringLiteral("%1_%2_%3_text%4_%5configs_from_%6")
                                                         .arg(view, QLatin1String(kScreens[s].name), theme)
                                                         .arg(scale)
                                                         .arg(configs)
                                                         .arg(QString::fromUtf8(methodKey(kMethods[offset % std::size(kMethods)]).data()))))
                                << view << s << theme << scale << configs << offset;
                            ++offset;
                        }
        // The figures of the visual review (issue #12): four configurations with ALiBi and T5
        // (RoPE, ALiBi, T5, sinusoidal) at 1280 × 720 and 4K, projector, text × 1.5.
        for (int s : {0, 2})
            for (const QString& view : views)
                QTest::newRow(qPrintable(QStringLiteral("review_%1_%2_projector_text1.5_4configs_from_rope").arg(view, QLatin1String(kScreens[s].name))))
                    << view << s << QStringLiteral("projector") << 1.5 << 4 << 0;
    }
    void figuresHaveNoOverlapsAndNothingCut() {
        QFETCH(QString, view);
        QFETCH(int, screen);
        QFETCH(QString, theme);
        QFETCH(double, fontScale);
        QFETCH(int, configs);
        QFETCH(int, offset);
        const SceneParams scene = sceneWith(configs, offset);
        ExportRequest r;
        r.view = viewFromKey(view);
        r.format = ExportFormat::Json;
        r.pixels = QSize(kScreens[screen].width, kScreens[screen].height);
        r.dpi = kScreens[screen].dpi;
        r.theme = theme;
        r.fontScale = fontScale;
        // Drawn without its text: what each label would cover shows (layoutInkProblems).
        QImage textFree;
        const LayoutReport report = exportLayout(scene, r, &textFree);
        QVERIFY(!report.items.empty());
        // Overlaps, labels run together or written two ways, panels without a legible plot
        // (minPlotSide: three lines of small type), text over lines, arrows or cells.
        QStringList problems = layoutProblems(report) + layoutInkProblems(report, textFree, exportTheme(scene, r));
        // Nothing is abbreviated on a full-HD or 4K screen with text × 1 and one or two
        // configurations. Elsewhere (1280 × 720, text × 1.5, three or four configurations) some
        // labels are abbreviated by rule (layout.h fitText): allowed, never drawn over other ink.
        if (kScreens[screen].width >= 1920 && fontScale == 1.0 && configs <= 2)
            for (const auto& item : report.items)
                if (item.elided) problems << QStringLiteral("cut: %1 \"%2\"").arg(item.view, item.text);
        // Every colour bar carries at least three labelled ticks: a vertical bar's labels just
        // right of it, centred along it (to half a label's height); a horizontal bar's just under it.
        for (const auto& bar : report.items) {
            if (bar.kind != LayoutItemKind::Colorbar) continue;
            const bool vertical = bar.rect.height() >= bar.rect.width();
            int labels = 0;
            for (const auto& item : report.items) {
                if (item.kind != LayoutItemKind::Text || item.view != bar.view) continue;
                const QRectF& r = item.rect;
                const double half = r.height() / 2;
                if (vertical ? r.left() >= bar.rect.right() && r.left() <= bar.rect.right() + 16 &&
                                   r.center().y() >= bar.rect.top() - half && r.center().y() <= bar.rect.bottom() + half
                             : r.top() >= bar.rect.bottom() - 1 && r.top() <= bar.rect.bottom() + half &&
                                   r.center().x() >= bar.rect.left() - 4 && r.center().x() <= bar.rect.right() + 4)
                    ++labels;
            }
            if (labels < 3)
                problems << QStringLiteral("colour bar with %1 labels: %2 at %3,%4 %5×%6")
                                .arg(labels)
                                .arg(bar.view)
                                .arg(bar.rect.x())
                                .arg(bar.rect.y())
                                .arg(bar.rect.width())
                                .arg(bar.rect.height());
        }
        // A legend's entries are written in full: a legend wraps, moves or takes another row
        // before it shortens one (the decay chart's "A: RoPE…" beside room below it).
        for (const auto& legend : report.items) {
            if (legend.kind != LayoutItemKind::Legend) continue;
            for (const auto& item : report.items)
                if (item.kind == LayoutItemKind::Text && item.elided && item.view == legend.view && legend.rect.contains(item.rect.center()))
                    problems << QStringLiteral("legend entry abbreviated: %1 \"%2\"").arg(item.view, item.text);
        }
        // With text × 1.5 there, a label may take a shorter form, never be cut mid-word ("…").
        if (kScreens[screen].width >= 1920 && configs <= 2)
            for (const auto& item : report.items)
                if (item.text.contains(QChar(0x2026))) problems << QStringLiteral("cut mid-word: %1 \"%2\"").arg(item.view, item.text);
        if (const QString e = saveScreenshot(QStringLiteral("figure"), scene, r); !e.isEmpty()) QFAIL(qPrintable(e));
        // The first six problems (POSLAB_ALL_PROBLEMS=1: every one).
        const qsizetype shown = qEnvironmentVariableIsSet("POSLAB_ALL_PROBLEMS") ? problems.size() : 6;
        QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, shown).join(QLatin1Char('\n'))));
        // Every view drew its plot(s) and reported them.
        for (const auto& placed : placeViews(QRectF(0, 0, r.pixels.width(), r.pixels.height()),
                                             r.view ? ViewArrangement{ArrangementKind::Auto, {*r.view}} : sceneArrangement(scene),
                                             exportTheme(scene, r))) {
            const QString key = viewKey(placed.view);
            const bool any = std::any_of(report.items.begin(), report.items.end(), [&](const LayoutItem& i) { return i.view == key; });
            QVERIFY2(any, qPrintable(key));
        }
    }

    // Every context line of the frequency plot is labelled (beside its line, else at the top of
    // the legend), a clear gap from the θ axis' labels (half a label's height), and passes the
    // figures' checks: RoPE with context 2048 and 32768 (base 1e6) among one to four
    // configurations, the frequencies view alone and in `figure all`.
    void contextLinesAreLabelled_data() {
        QTest::addColumn<QString>("view");
        QTest::addColumn<int>("screen");
        QTest::addColumn<double>("fontScale");
        QTest::addColumn<int>("configs");
        QTest::addColumn<qint64>("context");
        for (const char* view : {"frequencies", "all"})
            for (int s = 0; s < int(std::size(kScreens)); ++s)
                for (double scale : {1.0, 1.5})
                    for (int configs : {1, 2, 4})
                        for (qint64 context : {2048, 32768})
                            QTest::newRow(qPrintable(QStringLiteral("%1_%2_projector_text%3_%4configs_context%5")
                                                         .arg(QLatin1String(view), QLatin1String(kScreens[s].name))
                                                         .arg(scale)
                                                         .arg(configs)
                                                         .arg(context)))
                                << QString::fromLatin1(view) << s << scale << configs << context;
    }
    void contextLinesAreLabelled() {
        QFETCH(QString, view);
        QFETCH(int, screen);
        QFETCH(double, fontScale);
        QFETCH(int, configs);
        QFETCH(qint64, context);
        SceneParams scene = sceneWith(configs, 0);   // RoPE, ALiBi, T5, sinusoidal
        scene.methods[0].params.rope.max_positions = context;
        if (context > 2048) scene.methods[0].params.rope.base = 1e6;
        ExportRequest r;
        r.view = viewFromKey(view);
        r.format = ExportFormat::Json;
        r.pixels = QSize(kScreens[screen].width, kScreens[screen].height);
        r.dpi = kScreens[screen].dpi;
        r.theme = QStringLiteral("projector");
        r.fontScale = fontScale;
        QImage textFree;
        const LayoutReport report = exportLayout(scene, r, &textFree);
        QStringList problems = layoutProblems(report) + layoutInkProblems(report, textFree, exportTheme(scene, r));
        const QString number = QString::number(context);
        std::vector<const LayoutItem*> labels;
        for (const auto& i : report.items)
            if (i.view == QLatin1String("frequencies") && i.kind == LayoutItemKind::Text &&
                (i.text == number || i.text.endsWith(QLatin1Char(' ') + number)))
                labels.push_back(&i);
        if (labels.empty()) problems << QStringLiteral("context %1 unlabelled").arg(number);
        for (const LayoutItem* label : labels)
            for (const auto& i : report.items) {
                if (&i == label || i.view != label->view || i.kind != LayoutItemKind::Text) continue;
                const bool sameHeight = i.rect.top() < label->rect.bottom() && label->rect.top() < i.rect.bottom();
                const double gap = std::max(i.rect.left() - label->rect.right(), label->rect.left() - i.rect.right());
                if (sameHeight && gap < 0.5 * std::min(i.rect.height(), label->rect.height()))
                    problems << QStringLiteral("\"%1\" %2 px from \"%3\"").arg(label->text).arg(gap, 0, 'f', 1).arg(i.text);
            }
        if (const QString e = saveScreenshot(QStringLiteral("context"), scene, r); !e.isEmpty()) QFAIL(qPrintable(e));
        QVERIFY2(problems.isEmpty(), firstProblems(problems).constData());
    }

    // The decay chart on log axes (distance, |score|, both): its labels apart, written one way,
    // off the curves, the legend in full; one to four configurations from RoPE (with its bound),
    // ALiBi, T5 and xPos.
    void decayOnLogAxesPassesTheChecks_data() {
        QTest::addColumn<int>("screen");
        QTest::addColumn<double>("fontScale");
        QTest::addColumn<int>("configs");
        QTest::addColumn<bool>("logX");
        QTest::addColumn<bool>("logY");
        for (int s = 0; s < int(std::size(kScreens)); ++s)
            for (double scale : {1.0, 1.5})
                for (int configs = 1; configs <= 4; ++configs)
                    for (auto [x, y] : {std::pair{true, false}, std::pair{false, true}, std::pair{true, true}})
                        QTest::newRow(qPrintable(QStringLiteral("%1_text%2_%3configs_log%4%5")
                                                     .arg(QLatin1String(kScreens[s].name))
                                                     .arg(scale)
                                                     .arg(configs)
                                                     .arg(x ? QStringLiteral("X") : QString(), y ? QStringLiteral("Y") : QString())))
                            << s << scale << configs << x << y;
    }
    void decayOnLogAxesPassesTheChecks() {
        QFETCH(int, screen);
        QFETCH(double, fontScale);
        QFETCH(int, configs);
        QFETCH(bool, logX);
        QFETCH(bool, logY);
        SceneParams scene = sceneWith(configs, 0);
        const Method methods[] = {Method::Rope, Method::Alibi, Method::T5, Method::Xpos};
        for (int c = 0; c < configs; ++c) scene.methods[std::size_t(c)].params.method = methods[c];
        scene.view.decayLogX = logX;
        scene.view.decayLogY = logY;
        ExportRequest r;
        r.view = ViewKind::Decay;
        r.format = ExportFormat::Json;
        r.pixels = QSize(kScreens[screen].width, kScreens[screen].height);
        r.dpi = kScreens[screen].dpi;
        r.theme = QStringLiteral("projector");
        r.fontScale = fontScale;
        QImage textFree;
        const LayoutReport report = exportLayout(scene, r, &textFree);
        QVERIFY(report.items.size() > 6);
        QStringList problems = layoutProblems(report) + layoutInkProblems(report, textFree, exportTheme(scene, r));
        for (const auto& item : report.items)
            if (item.elided) problems << QStringLiteral("abbreviated: \"%1\"").arg(item.text);
        if (const QString e = saveScreenshot(QStringLiteral("decaylog"), scene, r); !e.isEmpty()) QFAIL(qPrintable(e));
        QVERIFY2(problems.isEmpty(), firstProblems(problems).constData());
    }

    // Each demonstration's scene (what its slide and the window show beside the numbers), at
    // 1280×720 and 1920×1080, light and projector: no overlaps, nothing cut, all inside.
    void demonstrationScenesHaveNoOverlaps_data() {
        QTest::addColumn<int>("demo");
        QTest::addColumn<int>("screen");
        QTest::addColumn<QString>("theme");
        for (const auto& d : demonstrations())
            for (int s : {0, 1})
                for (const QString theme : {QStringLiteral("light"), QStringLiteral("projector")})
                    QTest::newRow(qPrintable(QStringLiteral("%1_%2_%3").arg(QString::fromStdString(d.key), QLatin1String(kScreens[s].name), theme)))
                        << int(d.id) << s << theme;
    }
    void demonstrationScenesHaveNoOverlaps() {
        QFETCH(int, demo);
        QFETCH(int, screen);
        QFETCH(QString, theme);
        const SceneParams scene = demoScene(DemoId(demo));
        ExportRequest r;
        r.format = ExportFormat::Json;
        r.pixels = QSize(kScreens[screen].width, kScreens[screen].height);
        r.dpi = kScreens[screen].dpi;
        r.theme = theme;
        const LayoutReport report = exportLayout(scene, r);
        QVERIFY(!report.items.empty());
        const QStringList problems = layoutProblems(report);
        QVERIFY2(problems.isEmpty(), firstProblems(problems).constData());
        if (const QString e = saveScreenshot(QStringLiteral("scene"), scene, r); !e.isEmpty()) QFAIL(qPrintable(e));
    }

    // The layer overview of each shipped model (`figure layers`, the Layers view) with its
    // temperature curve where a layer has one: at 1280×720 and 1920×1080, light and projector, no
    // overlaps, all inside; at 1920×1080 light nothing of the curve's band is cut.
    void layersOverviewHasNoOverlaps_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("screen");
        QTest::addColumn<QString>("theme");
        QTest::addColumn<double>("fontScale");
        for (const char* m : {"llama-4-scout", "gemma-3-27b", "gpt-oss-20b", "modernbert-base", "smollm3-3b"})
            for (int s : {0, 1})
                for (const QString theme : themeNames())
                    for (double scale : {1.0, 1.5})
                        QTest::newRow(qPrintable(QStringLiteral("%1_%2_%3_text%4").arg(QLatin1String(m), QLatin1String(kScreens[s].name), theme).arg(scale)))
                            << QString::fromLatin1(m) << s << theme << scale;
    }
    void layersOverviewHasNoOverlaps() {
        QFETCH(QString, model);
        QFETCH(int, screen);
        QFETCH(QString, theme);
        QFETCH(double, fontScale);
        const ModelConfigResult c = readModelConfigFile(QStringLiteral(POSLAB_SOURCE_DIR "/resources/models/") + model + QStringLiteral(".json"));
        QVERIFY2(c.config, qPrintable(c.error));
        LayersPicture pic;
        pic.model = c.config->params.model;
        pic.dim = c.config->params.dim;
        pic.context = c.config->contextLength.value_or(131072);
        pic.title = model;
        const Theme t = themeByName(theme, fontScale);
        const QRectF rect(0, 0, kScreens[screen].width, kScreens[screen].height);
        LayoutReport report;
        report.bounds = rect;
        // Drawn without its text: what each label would cover shows (layoutInkProblems).
        QImage img(rect.size().toSize(), QImage::Format_ARGB32);
        {
            QPainter p(&img);
            LayoutCapture capture(report);
            capture.setView(QStringLiteral("layers"));
            capture.setPaintText(false);
            drawLayers(p, rect, pic, t);
        }
        QVERIFY(report.items.size() > 10);
        QStringList problems = layoutProblems(report) + layoutInkProblems(report, img, t);
        if (const auto tp = layersTemperaturePlot(rect, pic, t); tp && screen == 1 && theme == QLatin1String("light") && fontScale == 1.0)
            for (const auto& item : report.items)
                if (item.elided && item.rect.top() >= tp->plot.top() - 40) problems << QStringLiteral("cut: \"%1\"").arg(item.text);
        // At 1920×1080 nothing is abbreviated: the legend line moves left under the table before
        // its note is shortened.
        if (screen == 1)
            for (const auto& item : report.items)
                if (item.elided) problems << QStringLiteral("abbreviated at 1920×1080: \"%1\"").arg(item.text);
        if (const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR"); !dir.isEmpty()) {
            QImage shot(rect.size().toSize(), QImage::Format_ARGB32);
            QPainter p(&shot);
            drawLayers(p, rect, pic, t);
            shot.save(QStringLiteral("%1/layers_%2.png").arg(dir, QString::fromUtf8(QTest::currentDataTag())));
        }
        QVERIFY2(problems.isEmpty(), firstProblems(problems).constData());
    }

    void reportFindsOverlaps() {
        // The check the figures pass can fail: overlapping text, text across a plot's edge.
        LayoutReport r;
        r.bounds = QRectF(0, 0, 100, 100);
        r.items.push_back({QStringLiteral("v"), LayoutItemKind::Plot, QRectF(10, 10, 50, 50), {}, false});
        r.items.push_back({QStringLiteral("v"), LayoutItemKind::Text, QRectF(20, 20, 10, 5), QStringLiteral("inside"), false});
        QVERIFY(layoutProblems(r).isEmpty());
        r.items.push_back({QStringLiteral("v"), LayoutItemKind::Text, QRectF(55, 50, 20, 8), QStringLiteral("edge"), false});
        QCOMPARE(layoutProblems(r).size(), 1);
        r.items.push_back({QStringLiteral("v"), LayoutItemKind::Text, QRectF(22, 22, 10, 5), QStringLiteral("over"), false});
        QCOMPARE(layoutProblems(r).size(), 2);
        r.items.push_back({QStringLiteral("v"), LayoutItemKind::Text, QRectF(95, 95, 10, 5), QStringLiteral("out"), false});
        QCOMPARE(layoutProblems(r).size(), 3);
    }

    void reportFindsLabelsRunTogetherAndPanelsWithoutPlots() {
        LayoutReport r;
        r.bounds = QRectF(0, 0, 300, 100);
        const auto text = [&](const char* s, QRectF rect, int group) {
            LayoutItem i{QStringLiteral("v"), LayoutItemKind::Text, rect, QString::fromUtf8(s), false};
            i.group = group;
            r.items.push_back(i);
        };
        // "1" and "3" a pixel apart read as "13": closer than a quarter of their height.
        text("1", QRectF(10, 10, 8, 12), 1);
        text("3", QRectF(19, 10, 8, 12), 1);
        QCOMPARE(layoutProblems(r).size(), 1);
        QVERIFY(layoutProblems(r).front().startsWith(QStringLiteral("labels run together")));
        r.items.back().rect.moveLeft(22);   // 4 px: apart
        QVERIFY(layoutProblems(r).isEmpty());
        // One axis, two ways of writing its numbers; 0 is either.
        text("10000", QRectF(40, 40, 30, 12), 2);
        text("1e5", QRectF(40, 60, 20, 12), 2);
        QCOMPARE(layoutProblems(r).size(), 1);
        QVERIFY(layoutProblems(r).front().startsWith(QStringLiteral("numbers written two ways")));
        r.items.back().text = QStringLiteral("100000");
        text("0", QRectF(80, 40, 8, 12), 3);
        text("1e-7", QRectF(80, 60, 24, 12), 3);
        QVERIFY(layoutProblems(r).isEmpty());
        // A panel needs a plot of minPlot in both directions.
        r.minPlot = 30;
        r.items.push_back({QStringLiteral("v"), LayoutItemKind::Panel, QRectF(150, 0, 150, 100), {}, false});
        QCOMPARE(layoutProblems(r).size(), 1);
        r.items.push_back({QStringLiteral("v"), LayoutItemKind::Plot, QRectF(160, 10, 100, 20), {}, false});
        QCOMPARE(layoutProblems(r).size(), 1);
        r.items.push_back({QStringLiteral("v"), LayoutItemKind::Plot, QRectF(160, 40, 40, 40), {}, false});
        QVERIFY(layoutProblems(r).isEmpty());
    }

    // Text left unpainted shows what it would cover: a curve under it is a problem, the grid not.
    void inkUnderTextIsFound() {
        const Theme t = themeByName(QStringLiteral("light"));
        QImage img(200, 60, QImage::Format_ARGB32_Premultiplied);
        img.fill(t.background);
        {
            QPainter p(&img);
            p.setRenderHint(QPainter::Antialiasing, true);
            p.setPen(QPen(t.series(0), 2));
            p.drawLine(QPointF(0, 20), QPointF(100, 20));
            p.setPen(QPen(t.grid, 1));
            p.drawLine(QPointF(100, 40), QPointF(200, 40));
        }
        LayoutReport r;
        r.bounds = QRectF(img.rect());
        const auto unpainted = [&](QRectF rect) {
            LayoutItem i{QStringLiteral("v"), LayoutItemKind::Text, rect, QStringLiteral("label"), false};
            i.unpainted = true;
            r.items.push_back(i);
        };
        unpainted(QRectF(20, 14, 40, 12));    // across the curve
        unpainted(QRectF(120, 34, 40, 12));   // across a grid line
        unpainted(QRectF(20, 40, 40, 12));    // on the background
        const QStringList problems = layoutInkProblems(r, img, t);
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.front().contains(QStringLiteral("[20, 14")), qPrintable(problems.front()));
    }

    // One axis writes its numbers one way.
    void tickLabelsAreWrittenOneWay() {
        QCOMPARE(plot::tickLabels({1, 10, 100}, true), (QStringList{QStringLiteral("1"), QStringLiteral("10"), QStringLiteral("100")}));
        QCOMPARE(plot::tickLabels({1, 10, 100, 1000, 10000, 100000}, true),
                 (QStringList{QStringLiteral("1e0"), QStringLiteral("1e1"), QStringLiteral("1e2"), QStringLiteral("1e3"), QStringLiteral("1e4"),
                              QStringLiteral("1e5")}));
        QCOMPARE(plot::tickLabels({0.0001, 0.001, 0.01}, true), (QStringList{QStringLiteral("1e-4"), QStringLiteral("1e-3"), QStringLiteral("1e-2")}));
        QCOMPARE(plot::tickLabels({0, 500000, 1e6, 1.5e6}),
                 (QStringList{QStringLiteral("0"), QStringLiteral("5e5"), QStringLiteral("1e6"), QStringLiteral("1.5e6")}));
        QCOMPARE(plot::tickLabels({-20, 0, 20}), (QStringList{QStringLiteral("-20"), QStringLiteral("0"), QStringLiteral("20")}));
    }

    // Too small a view for a legible plot: no panel is left blank; what cannot be drawn is said.
    void tooSmallAViewSaysSo_data() {
        QTest::addColumn<QString>("view");
        QTest::addColumn<QSize>("size");
        for (const char* v : {"pairs", "frequencies", "heatmap"})
            for (QSize size : {QSize(480, 270), QSize(320, 200)})
                QTest::newRow(qPrintable(QStringLiteral("%1_%2x%3").arg(QLatin1String(v)).arg(size.width()).arg(size.height())))
                    << QString::fromLatin1(v) << size;
    }
    void tooSmallAViewSaysSo() {
        QFETCH(QString, view);
        QFETCH(QSize, size);
        SceneParams scene = sceneWith(4, 0);   // RoPE, ALiBi, T5, sinusoidal
        ExportRequest r;
        r.view = viewFromKey(view);
        r.format = ExportFormat::Json;
        r.pixels = size;
        r.theme = QStringLiteral("projector");
        r.fontScale = 1.5;
        const LayoutReport report = exportLayout(scene, r);
        bool said = false;
        for (const auto& i : report.items) said = said || (i.kind == LayoutItemKind::Text && i.text.contains(QStringLiteral("no room")));
        for (const auto& panel : report.items) {
            if (panel.kind != LayoutItemKind::Panel) continue;
            const bool plot = std::any_of(report.items.begin(), report.items.end(), [&](const LayoutItem& i) {
                return i.kind == LayoutItemKind::Plot && panel.rect.contains(i.rect.center()) && i.rect.width() >= 8 && i.rect.height() >= 8;
            });
            const bool words = std::any_of(report.items.begin(), report.items.end(), [&](const LayoutItem& i) {
                return i.kind == LayoutItemKind::Text && panel.rect.contains(i.rect.center()) && i.text.contains(QStringLiteral("no room"));
            });
            QVERIFY2(plot || words, qPrintable(QStringLiteral("a blank panel at %1, %2").arg(panel.rect.x()).arg(panel.rect.y())));
        }
        // Something gave way (fewer pairs or plots, a table, the differences), and it is said.
        if (view != QLatin1String("pairs")) QVERIFY(said);
        if (const QString e = saveScreenshot(QStringLiteral("small"), scene, r); !e.isEmpty()) QFAIL(qPrintable(e));
    }

    // Numbers shown to people carry at most 4 significant digits (exact values stay in hover,
    // export and `compute`); tick and colour-bar labels carry 4 where the value needs them.
    void tickLabelsCarryFourDigits_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("label");
        QTest::newRow("tiny") << 0.000123456 << "0.0001235";
        QTest::newRow("huge") << 1234567.0 << "1.235e6";   // core/format.h: no exponent sign or padding
        QTest::newRow("fraction") << 0.6283185 << "0.6283";
        QTest::newRow("integer") << 32768.0 << "32768";
        QTest::newRow("round") << 0.5 << "0.5";
    }
    void tickLabelsCarryFourDigits() {
        QFETCH(double, value);
        QFETCH(QString, label);
        QCOMPARE(plot::tickLabel(value), label);
    }
    void figureNumbersCarryAtMostFourDigits_data() {
        QTest::addColumn<int>("offset");
        for (int m = 0; m < int(std::size(kMethods)); ++m)
            QTest::newRow(methodKey(kMethods[m]).data()) << m;
    }
    void figureNumbersCarryAtMostFourDigits() {
        QFETCH(int, offset);
        const SceneParams scene = sceneWith(2, offset);
        // A decimal fraction or a number in exponent form (integers are exact).
        static const QRegularExpression number(QStringLiteral("(?<![\\w.])(\\d+\\.\\d+(?:e[+-]?\\d+)?|\\d+e[+-]?\\d+)"));
        QStringList long_;
        for (const auto& [view, report] : testsupport::everyFigureLayout(scene)) {
            for (const auto& item : report.items)
                for (auto it = number.globalMatch(item.text); it.hasNext();) {
                    QString digits = it.next().captured(1);
                    digits = digits.left(digits.indexOf(QLatin1Char('e')) < 0 ? digits.size() : digits.indexOf(QLatin1Char('e')));
                    digits.remove(QLatin1Char('.'));
                    while (digits.startsWith(QLatin1Char('0'))) digits.remove(0, 1);
                    if (digits.size() > 4) long_ << view + QStringLiteral(": ") + item.text;
                }
        }
        long_.removeDuplicates();
        QVERIFY2(long_.isEmpty(), qPrintable(long_.mid(0, 8).join(QLatin1Char('\n'))));
    }

    // The views fill the space they are given (issue #12): the pair dials' share of their column
    // is no taller than they can use (the heatmap beside them keeps its own); what they leave goes
    // to the decay view below them, so the band between the dials' last ink and the next view is
    // at most three lines of small type. Rotating configurations (their dials' size is known),
    // one to four; all four views, and three.
    void pairsLeaveNoEmptyBand_data() {
        QTest::addColumn<int>("screen");
        QTest::addColumn<QString>("theme");
        QTest::addColumn<double>("fontScale");
        QTest::addColumn<int>("configs");
        QTest::addColumn<QString>("views");
        const struct {
            int screen;
            const char* theme;
            double scale;
        } looks[] = {{0, "projector", 1.5}, {1, "light", 1.0}, {1, "projector", 1.5}};
        for (const auto& look : looks)
            for (int configs = 1; configs <= 4; ++configs)
                for (const char* views : {"all", "pairs_decay_frequencies", "pairs_heatmap_decay"})
                    QTest::newRow(qPrintable(QStringLiteral("%1_%2_text%3_%4configs_%5")
                                                 .arg(QLatin1String(kScreens[look.screen].name), QLatin1String(look.theme))
                                                 .arg(look.scale)
                                                 .arg(configs)
                                                 .arg(QLatin1String(views))))
                        << look.screen << QString::fromLatin1(look.theme) << look.scale << configs << QString::fromLatin1(views);
    }
    void pairsLeaveNoEmptyBand() {
        QFETCH(int, screen);
        QFETCH(QString, theme);
        QFETCH(double, fontScale);
        QFETCH(int, configs);
        QFETCH(QString, views);
        const Method rotating[] = {Method::Rope, Method::Xpos, Method::Sinusoidal, Method::Rope};
        SceneParams scene = sceneWith(configs, 0);
        for (int c = 0; c < configs; ++c) scene.methods[std::size_t(c)].params.method = rotating[c];
        const bool all = views == QLatin1String("all");
        scene.view.showHeatmap = all || views.contains(QLatin1String("heatmap"));
        scene.view.showFrequencies = all || views.contains(QLatin1String("frequencies"));
        ExportRequest r;
        r.format = ExportFormat::Json;
        r.pixels = QSize(kScreens[screen].width, kScreens[screen].height);
        r.dpi = kScreens[screen].dpi;
        r.theme = theme;
        r.fontScale = fontScale;
        const Theme t = exportTheme(scene, r);
        const double px = r.dpi / 96.0;   // the report's pixels per logical pixel
        const LayoutReport report = exportLayout(scene, r);
        double ink = 0;
        for (const auto& i : report.items)
            if (i.view == QLatin1String("pairs") && i.kind != LayoutItemKind::Panel) ink = std::max(ink, i.rect.bottom());
        QVERIFY(ink > 0);
        double next = 1e300;
        const auto placed = placeViews(QRectF(0, 0, r.pixels.width() / px, r.pixels.height() / px), sceneArrangement(scene), t);
        for (const auto& p : placed)
            if (p.view != ViewKind::Pairs && p.rect.top() * px > ink) next = std::min(next, p.rect.top() * px);
        QVERIFY(next < 1e300);
        if (const QString e = saveScreenshot(QStringLiteral("band"), scene, r); !e.isEmpty()) QFAIL(qPrintable(e));
        const double band = next - ink, lines = 3 * plot::lineHeight(t.smallFont()) * px;
        QVERIFY2(band <= lines, qPrintable(QStringLiteral("%1 px empty under the dials (at most %2)").arg(band).arg(lines)));
    }

    void allViewsFillTheImage_data() {
        QTest::addColumn<int>("screen");
        QTest::addColumn<QString>("theme");
        QTest::addColumn<int>("configs");
        for (int s = 0; s < int(std::size(kScreens)); ++s)
            for (const QString& theme : themeNames())
                for (int configs = 1; configs <= 4; ++configs)
                    QTest::newRow(qPrintable(QStringLiteral("%1_%2_%3configs").arg(QLatin1String(kScreens[s].name), theme).arg(configs)))
                        << s << theme << configs;
    }
    void allViewsFillTheImage() {
        QFETCH(int, screen);
        QFETCH(QString, theme);
        QFETCH(int, configs);
        const SceneParams scene = sceneWith(configs, configs);
        ExportRequest r;
        r.format = ExportFormat::Png;
        r.pixels = QSize(kScreens[screen].width, kScreens[screen].height);
        r.dpi = kScreens[screen].dpi;
        r.theme = theme;
        QString error;
        const auto bytes = exportBytes(scene, r, &error);
        QVERIFY2(bytes, qPrintable(error));
        const QImage img = QImage::fromData(*bytes, "png").convertToFormat(QImage::Format_RGB32);
        QCOMPARE(img.size(), r.pixels);
        const auto [rows, cols] = inkedRowsAndColumns(img, exportTheme(scene, r).background.rgb());
        QVERIFY2(rows >= 0.85 && cols >= 0.85, qPrintable(QStringLiteral("rows %1, columns %2").arg(rows).arg(cols)));
    }
};

QTEST_MAIN(TestLayout)
#include "test_layout.moc"
