// Teaching mode: demonstrations reachable in two clicks, applying one sets its scene and shows
// its numbers, presentation navigation through a deck with annotations, the formula sheets, the
// worked-example stepper, the animation, and the GIF writer's output decoded.
#include "core/rope_detail.h"
#include "core/scores.h"
#include "core/shaw.h"
#include "ui/io/export.h"
#include "ui/model/compute.h"
#include "ui/window/mainwindow.h"
#include "ui/teaching/animation.h"
#include "ui/teaching/demopanel.h"
#include "ui/teaching/demoscenes.h"
#include "ui/teaching/formulapanel.h"
#include "ui/teaching/gifwriter.h"
#include "ui/teaching/presentation.h"
#include "ui/teaching/stepper.h"
#include "ui/window/teaching.h"

#include <QBuffer>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QPainter>
#include <QRegularExpression>
#include <QImageReader>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <random>

using namespace poslab;
using namespace poslab::ui;

namespace {

// Walks a GIF's blocks: returns the number of image descriptors, or −1 if the structure is broken.
struct GifInfo {
    QByteArray signature;
    int width = 0, height = 0;
    bool globalTable = false;
    int frames = 0;
    bool loops = false;
    bool trailer = false;
};
GifInfo parseGif(const QByteArray& b) {
    GifInfo g;
    if (b.size() < 13) return g;
    g.signature = b.left(6);
    auto u8 = [&](qsizetype i) { return i < b.size() ? int(quint8(b[i])) : -1; };
    auto u16 = [&](qsizetype i) { return u8(i) | (u8(i + 1) << 8); };
    g.width = u16(6);
    g.height = u16(8);
    const int flags = u8(10);
    g.globalTable = flags & 0x80;
    qsizetype i = 13 + (g.globalTable ? 3 * (1 << ((flags & 7) + 1)) : 0);
    auto skipSubBlocks = [&](qsizetype j) {
        while (j < b.size() && u8(j) != 0) j += u8(j) + 1;
        return j + 1;
    };
    while (i < b.size()) {
        const int c = u8(i);
        if (c == 0x3B) {
            g.trailer = true;
            break;
        }
        if (c == 0x21) {
            if (u8(i + 1) == 0xFF && b.mid(i + 3, 11) == "NETSCAPE2.0") g.loops = true;
            i = skipSubBlocks(i + 2);
        } else if (c == 0x2C) {
            const int lf = u8(i + 9);
            i += 10 + ((lf & 0x80) ? 3 * (1 << ((lf & 7) + 1)) : 0);
            i += 1;  // LZW minimum code size
            i = skipSubBlocks(i);
            ++g.frames;
        } else {
            g.frames = -1;
            break;
        }
    }
    return g;
}

std::vector<QImage> readAllFrames(const QByteArray& bytes) {
    QBuffer buf;
    buf.setData(bytes);
    buf.open(QIODevice::ReadOnly);
    QImageReader r(&buf, "gif");
    std::vector<QImage> out;
    for (;;) {
        QImage img = r.read();
        if (img.isNull()) break;
        out.push_back(img.convertToFormat(QImage::Format_RGB32));
    }
    return out;
}

QRgb paletteColour(QRgb c) { return GifWriter::palette()[GifWriter::paletteIndex(c)]; }

int inkPixels(const QImage& img, QColor bg) {
    int n = 0;
    const QRgb b = bg.rgb();
    for (int y = 0; y < img.height(); y += 2)
        for (int x = 0; x < img.width(); x += 2) n += (img.pixel(x, y) | 0xFF000000u) != (b | 0xFF000000u);
    return n;
}

}  // namespace

class TestTeaching : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Numbers a slide shows carry 4 significant digits: YaRN's attention factor in the frequency
    // view's notes (was 1.138629436111989) and ALiBi's slopes in the legend (was m = 0.00390625).
    void slideNumbersHaveFourSignificantDigits_data() {
        QTest::addColumn<int>("id");
        QTest::addColumn<QString>("shown");
        QTest::addColumn<QString>("notShown");
        QTest::newRow("extrapolation attention factor") << int(DemoId::Extrapolation) << "attention factor 1.139" << "1.13862";
        QTest::newRow("yarn-ramp attention factor") << int(DemoId::YarnRamp) << "attention factor 1.208" << "1.20794";
        QTest::newRow("alibi legend") << int(DemoId::AlibiSlopes) << "m = 0.003906" << "0.00390625";
    }
    void slideNumbersHaveFourSignificantDigits() {
        QFETCH(int, id);
        QFETCH(QString, shown);
        QFETCH(QString, notShown);
        SceneParams s = demoScene(DemoId(id));
        s.view.showPairs = true;   // ALiBi's legend is the pair view's curves
        if (DemoId(id) == DemoId::AlibiSlopes) s.head = 7;   // the flattest head: m = 2^−8
        ExportRequest r;
        r.format = ExportFormat::Svg;
        r.pixels = QSize(1920, 1080);
        QString error;
        const auto bytes = exportBytes(s, r, &error);
        QVERIFY2(bytes.has_value(), qPrintable(error));
        // What is drawn: the text elements (not the scene kept as metadata).
        QString svg = QString::fromUtf8(*bytes);
        svg.remove(QRegularExpression(QStringLiteral("<metadata.*</metadata>|<desc>.*</desc>"),
                                      QRegularExpression::DotMatchesEverythingOption | QRegularExpression::InvertedGreedinessOption));
        if (qEnvironmentVariableIsSet("POSLAB_DUMP_SVG")) {
            QFile f(QDir::temp().filePath(QStringLiteral("slide-%1.svg").arg(id)));
            if (f.open(QIODevice::WriteOnly)) f.write(svg.toUtf8());
        }
        QVERIFY2(svg.contains(shown), qPrintable(shown));
        QVERIFY2(!svg.contains(notShown), qPrintable(notShown));
    }

    void initTestCase() { QApplication::setStyle(QStringLiteral("Fusion")); }

    // ------------------------------------------------------------------ reachability
    void everyDemonstrationIsTwoClicksFromTheDefaultScene_data() {
        QTest::addColumn<int>("id");
        for (const auto& d : demonstrations()) QTest::newRow(d.key.c_str()) << int(d.id);
    }
    void everyDemonstrationIsTwoClicksFromTheDefaultScene() {
        QFETCH(int, id);
        MainWindow w(false);
        auto* t = installTeaching(&w);
        QVERIFY(t);
        QCOMPARE(installTeaching(&w), t);  // idempotent
        QCOMPARE(w.scene()->params(), SceneParams{});
        // Click 1: the "Teach" entry of the menu bar; click 2: the demonstration inside it.
        QVERIFY(w.menuBar()->actions().contains(t->menuAction()));
        QAction* a = t->demoAction(DemoId(id));
        QVERIFY(a);
        QVERIFY(t->menu()->actions().contains(a));  // directly in the menu, not in a submenu
        QSignalSpy applied(t, &TeachingController::demoApplied);
        a->trigger();
        QCOMPARE(applied.count(), 1);
        // The ready scene is set (theme kept) and the numbers are shown.
        SceneParams expected = demoScene(DemoId(id));
        expected.view.theme = SceneParams{}.view.theme;
        expected.view.fontScale = SceneParams{}.view.fontScale;
        QCOMPARE(w.scene()->params(), expected);
        QVERIFY(!sceneProblem(w.scene()->params()));
        QCOMPARE(t->demoPanel()->currentDemo().value(), DemoId(id));
        QCOMPARE(t->tabs()->currentWidget(), static_cast<QWidget*>(t->demoPanel()));
        const QString tex = demoFormula(DemoId(id));
        if (!tex.isEmpty()) QVERIFY2(Formula::parse(tex).ok(), qPrintable(Formula::parse(tex).error()));
        const DemoData& d = demoData(DemoId(id));
        QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
        QVERIFY(d.summary.holds);
        QVERIFY(!d.summary.figures.empty());
        // The panel paints them.
        t->dock()->resize(520, 900);
        t->demoPanel()->resize(500, 880);
        const QImage shot = t->demoPanel()->canvas()->grab().toImage();
        QVERIFY(shot.width() > 100 && shot.height() > 100);
        QVERIFY(inkPixels(shot, themeByName(QStringLiteral("light")).background) > 200);
        if (const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR"); !dir.isEmpty())
            shot.save(QStringLiteral("%1/dock_%2.png").arg(dir, QString::fromStdString(demoInfo(DemoId(id)).key)));
        // One undo step brings the default scene back.
        w.scene()->undoStack()->undo();
        QCOMPARE(w.scene()->params(), SceneParams{});
    }

    // "RoPE: norms are preserved" shows it: the slide's arrows are one x rotated to each position
    // (the same content everywhere), so each pair's arrow has the same length at every position,
    // on the circle its trail draws; the slide shows the pairs and nothing unrelated.
    void ropeNormSlideArrowsKeepTheirLength_data() {
        QTest::addColumn<int>("panel");
        const SceneParams s = demoScene(DemoId::RopeNorm);
        for (std::size_t i = 0; i < s.pairs.size(); ++i) QTest::newRow(qPrintable(QStringLiteral("pair%1").arg(s.pairs[i]))) << int(i);
    }
    void ropeNormSlideArrowsKeepTheirLength() {
        QFETCH(int, panel);
        const SceneParams s = demoScene(DemoId::RopeNorm);
        QVERIFY(s.view.showPairs);
        QVERIFY(!s.view.showFrequencies && !s.view.showHeatmap && !s.view.showDecay);
        const PairsResult r = computePairs(s);
        QCOMPARE(int(r.configs.size()), 1);
        const PairsConfigResult& c = r.configs[0];
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QVERIFY(c.rotates);
        QVERIFY(c.positions.size() >= 3);
        const PairPanel& p = c.pairs.at(std::size_t(panel));
        auto len = [](QPointF v) { return std::hypot(v.x(), v.y()); };
        QVERIFY(!p.query.empty());
        const double first = len(p.query.front());
        QVERIFY(first > 0);
        for (std::size_t k = 0; k < p.query.size(); ++k)
            QVERIFY2(std::abs(len(p.query[k]) - first) <= 1e-6 * first,
                     qPrintable(QStringLiteral("position %1: length %2, at %3: %4").arg(c.positions[k]).arg(len(p.query[k])).arg(c.positions[0]).arg(first)));
        for (const QPointF& q : p.trail) QVERIFY(std::abs(len(q) - first) <= 1e-6 * first);
        // The arrows turn: the positions are not all the same angle.
        QVERIFY(std::abs(p.angle.back() - p.angle.front()) > 1e-3 || p.theta < 1e-6);
    }

    void toolbarChooserAppliesADemonstration() {
        MainWindow w(false);
        auto* t = installTeaching(&w);
        QComboBox* c = t->demoChooser();
        QCOMPARE(c->count(), int(demonstrations().size()) + 1);
        const int index = c->findData(int(DemoId::RopeShiftInvariance));
        QVERIFY(index > 0);
        QSignalSpy applied(t, &TeachingController::demoApplied);
        Q_EMIT c->activated(index);  // click the combo, click the entry
        QCOMPARE(applied.count(), 1);
        QCOMPARE(applied.at(0).at(0).value<DemoId>(), DemoId::RopeShiftInvariance);
        QCOMPARE(c->currentIndex(), 0);
    }

    void comparisonTableCellsOpenTheirScenes() {
        MainWindow w(false);
        auto* t = installTeaching(&w);
        t->applyDemo(DemoId::ComparisonTable);
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* canvas = t->demoPanel()->canvas();
        canvas->repaint();
        QApplication::processEvents();
        QVERIFY(!canvas->hits().empty());
        // Every row × column is clickable: 9 methods × 4 columns.
        QCOMPARE(int(canvas->hits().size()), 9 * 4);
        const DemoHit hit = canvas->hits()[std::size_t(2 * 4 + 2)];  // learned, relative
        QSignalSpy applied(t, &TeachingController::demoApplied);
        QTest::mouseClick(canvas, Qt::LeftButton, {}, hit.rect.center().toPoint());
        QCOMPARE(applied.count(), 1);
        QCOMPARE(applied.at(0).at(0).value<DemoId>(), hit.target);
        QCOMPARE(t->demoPanel()->currentDemo().value(), hit.target);
    }

    // ------------------------------------------------------------------ presentation
    void presentationNavigatesTheDeck() {
        MainWindow w(false);
        auto* t = installTeaching(&w);
        PresentationWindow* p = t->startPresentation(false);
        QVERIFY(p);
        p->resize(1920, 1080);
        QVERIFY(QTest::qWaitForWindowExposed(p));
        QCOMPARE(p->count(), int(demonstrations().size()));
        QCOMPARE(p->current(), 0);
        QSignalSpy changed(p, &PresentationWindow::slideChanged);
        QTest::keyClick(p, Qt::Key_PageDown);
        QCOMPARE(p->current(), 1);
        QTest::keyClick(p, Qt::Key_Right);
        QTest::keyClick(p, Qt::Key_Space);
        QCOMPARE(p->current(), 3);
        QTest::keyClick(p, Qt::Key_PageUp);
        QCOMPARE(p->current(), 2);
        QTest::keyClick(p, Qt::Key_Left);
        QCOMPARE(p->current(), 1);
        QTest::keyClick(p, Qt::Key_End);
        QCOMPARE(p->current(), p->count() - 1);
        QTest::keyClick(p, Qt::Key_PageDown);  // past the end: stays
        QCOMPARE(p->current(), p->count() - 1);
        QTest::keyClick(p, Qt::Key_Home);
        QCOMPARE(p->current(), 0);
        QTest::keyClick(p, Qt::Key_PageUp);  // before the start: stays
        QCOMPARE(p->current(), 0);
        QCOMPARE(changed.count(), 7);
        QCOMPARE(p->slide().title, demoTitle(demonstrations().front().id));

        // Annotation overlay: draw on slide 0, it stays with slide 0.
        auto* ov = p->overlay();
        QTest::keyClick(p, Qt::Key_D);
        QCOMPARE(ov->tool(), AnnotationOverlay::Tool::Pen);
        QTest::mousePress(ov, Qt::LeftButton, {}, QPoint(300, 300));
        QTest::mouseMove(ov, QPoint(400, 350));
        QTest::mouseMove(ov, QPoint(500, 420));
        QTest::mouseRelease(ov, Qt::LeftButton, {}, QPoint(500, 420));
        QCOMPARE(int(ov->strokes().size()), 1);
        QVERIFY(ov->strokes().front().size() >= 2);
        QTest::keyClick(p, Qt::Key_PageDown);
        QCOMPARE(int(ov->strokes().size()), 0);
        QTest::keyClick(p, Qt::Key_PageUp);
        QCOMPARE(int(ov->strokes().size()), 1);
        QTest::keyClick(p, Qt::Key_C);
        QCOMPARE(int(ov->strokes().size()), 0);
        QTest::keyClick(p, Qt::Key_P);
        QCOMPARE(ov->tool(), AnnotationOverlay::Tool::Pointer);
        QTest::mouseMove(ov, QPoint(640, 480));
        QCOMPARE(ov->pointer(), QPointF(640, 480));
        // The overlay draws on top: a grab shows the pointer's red.
        const QImage withPointer = p->grab().toImage();
        const QRgb c = withPointer.pixel(640, 480);
        QVERIFY2(qRed(c) > 200 && qGreen(c) < 80, qPrintable(QString::number(c, 16)));
        // N and F toggle notes and the numbers column; B blanks.
        QTest::keyClick(p, Qt::Key_N);
        QVERIFY(p->notesShown());
        QTest::keyClick(p, Qt::Key_F);
        QVERIFY(!p->numbersShown());
        QTest::keyClick(p, Qt::Key_B);
        QVERIFY(p->blanked());
        QTest::keyClick(p, Qt::Key_B);
        // Esc leaves and reports where it was.
        QTest::keyClick(p, Qt::Key_PageDown);
        QSignalSpy finished(p, &PresentationWindow::finished);
        QPointer<PresentationWindow> guard(p);
        QTest::keyClick(p, Qt::Key_Escape);
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.at(0).at(0).toInt(), 1);
        QCOMPARE(t->deck().current, 1);
        QTRY_VERIFY(guard.isNull());  // deleted on close
    }

    void presentationAt1920x1080FitsEverySlide_data() {
        QTest::addColumn<int>("slide");
        for (int i = 0; i < int(demonstrations().size()); ++i) QTest::newRow(demonstrations()[std::size_t(i)].key.c_str()) << i;
        QTest::newRow("non-demo-slide-four-views") << -1;
        QTest::newRow("non-demo-slide-formulas") << -2;
    }
    void presentationAt1920x1080FitsEverySlide() {
        QFETCH(int, slide);
        Session deck = demoDeck();
        const int row = slide;
        if (slide < 0) {
            SessionScene s;
            s.title = QStringLiteral("RoPE, default scene");
            if (slide == -2) {  // two views leave room for the formula column
                s.scene.view.showDecay = false;
                s.scene.view.showFrequencies = false;
            }
            deck.scenes = {s};
            slide = 0;
        }
        deck.current = slide;
        PresentationWindow p(deck);
        p.resize(1920, 1080);
        const QImage img = p.renderSlide(QSize(1920, 1080));
        const auto L = p.lastLayout();
        const QRectF frame(0, 0, 1920, 1080);
        // Areas inside the frame and apart from each other.
        for (const QRectF& r : {L.title, L.counter, L.footer}) QVERIFY(frame.contains(r));
        QVERIFY(!L.title.intersects(L.counter));
        if (!L.views.isEmpty()) {
            QVERIFY(frame.contains(L.views));
            QVERIFY(L.views.top() >= L.title.bottom());
            QVERIFY(L.views.bottom() <= L.footer.top());
        }
        if (!L.numbers.isEmpty()) {
            QVERIFY(frame.contains(L.numbers));
            QVERIFY(!L.numbers.intersects(L.views));
            QVERIFY(L.numbers.bottom() <= L.footer.top());
        }
        // Legible from the back: body text of the slide at least 20 px, title at least 36 px.
        const Theme t = p.slideTheme();
        QVERIFY2(t.bodyFont().pointSizeF() * 96.0 / 72.0 >= 20, qPrintable(QString::number(t.bodyFont().pointSizeF())));
        QVERIFY(t.lineWidth >= 3);
        // The numbers column fits without being shrunk below 0.8 of the theme's text size.
        QVERIFY2(L.numbersScale >= 0.8 * t.fontScale * 0.75, qPrintable(QString::number(L.numbersScale)));
        QVERIFY(inkPixels(img, t.background) > 2000);
        if (!qEnvironmentVariableIsEmpty("POSLAB_TEACH_SCREENSHOTS"))
            img.save(QStringLiteral("/tmp/teach_slide_%1.png").arg(row < 0 ? QStringLiteral("plain%1").arg(-row) : QString::number(row)));
    }

    void demoDeckRoundTripsThroughASession() {
        const Session deck = demoDeck();
        QString error;
        const auto back = sessionFromJson(sessionToJson(deck), QStringLiteral("deck"), &error);
        QVERIFY2(back.has_value(), qPrintable(error));
        QCOMPARE(back->scenes.size(), deck.scenes.size());
        for (std::size_t i = 0; i < deck.scenes.size(); ++i) {
            QCOMPARE(demoOfSlide(back->scenes[i]).value(), demonstrations()[i].id);
            QVERIFY(!slideNotesText(back->scenes[i]).contains(QStringLiteral("[demo:")));
        }
        SessionScene plain;
        plain.notes = QStringLiteral("just notes");
        QVERIFY(!demoOfSlide(plain).has_value());
    }

    // The numbers a demonstration names come from its inputs and results, not from the text: the
    // extrapolation formula shows NTK's base' for the demonstration's lengths and dimension.
    void demoTextsTakeTheirNumbersFromTheInputs() {
        const DemoData& d = demoData(DemoId::Extrapolation);
        const ExtrapolationInput& in = d.extrapolationInput;
        RopeParams ntk;
        ntk.head_dim = in.head_dim;
        ntk.base = in.base;
        ntk.precision = Precision::Double;
        ntk.max_positions = in.train_length;
        ntk.scaling = RopeScaling::Dynamic;
        ntk.factor = in.factor();
        const double baseNtk = ropeDynamicBase(ntk, in.target_length).base;
        QVERIFY(baseNtk > in.base);
        const QString tex = demoFormula(DemoId::Extrapolation);
        QVERIFY2(Formula::parse(tex).ok(), qPrintable(Formula::parse(tex).error()));
        for (const QString& part : {formulaNumber(baseNtk), QStringLiteral("^{%1/%2}").arg(in.head_dim).arg(in.head_dim - 2),
                                    QStringLiteral("\\frac{%1}{%2} = %3").arg(in.target_length).arg(in.train_length).arg(formulaNumber(in.factor()))})
            QVERIFY2(tex.contains(part), qPrintable(part + QStringLiteral(" not in ") + tex));
        QVERIFY(!tex.contains(QStringLiteral("\\ldots")));
        // The sinusoidal summary names the positions its numbers are at.
        const DemoData& s = demoData(DemoId::SinusoidalRelative);
        QVERIFY(s.sinusoidal.has_value());
        const auto& at = s.sinusoidal->dotAtPositions;
        QCOMPARE(s.text(s.summary.figures.at(1)).label, QStringLiteral("PE(%1)·PE(%2)").arg(at[1][0]).arg(at[1][1]));
        // The layouts demonstration's seed example: the note lists the numbers it computed.
        const DemoData& l = demoData(DemoId::HalfVsInterleaved);
        QVERIFY(l.layouts.has_value());
        QCOMPARE(l.layouts->seedQ.size(), l.layouts->seedHalf.size());
        bool found = false;
        for (const auto& f : l.summary.figures)
            if (l.text(f).label.startsWith(QStringLiteral("seed example"))) found = l.text(f).note.contains(QString::number(l.layouts->seedHalf[0], 'f', 3).replace('-', QChar(0x2212)));
        QVERIFY(found);
    }

    // ------------------------------------------------------------------ formulas
    void formulaSheetsParseForEveryMethod_data() {
        QTest::addColumn<int>("method");
        for (Method m : kAllMethods) QTest::newRow(std::string(methodKey(m)).c_str()) << int(m);
    }
    void formulaSheetsParseForEveryMethod() {
        QFETCH(int, method);
        SceneParams s;
        s.methods[0].params.method = Method(method);
        s.methods[0].params.content = Content::Random;
        const FormulaSheet sh = formulaSheet(s, 0, FormulaFocus{7, 3, 2});
        QVERIFY(!sh.title.isEmpty());
        QVERIFY(!sh.definitions.empty());
        QVERIFY(!sh.numbers.empty());
        for (const auto* lines : {&sh.definitions, &sh.numbers})
            for (const auto& l : *lines) {
                const Formula f = Formula::parse(l.tex);
                QVERIFY2(f.ok(), qPrintable(l.tex + QStringLiteral(": ") + f.error()));
            }
        // The score is the heatmap's value at (7, 3).
        ScoreParams p = effectiveParams(s, 0);
        p.softmax = false;
        p.causal = false;
        auto sc = scores(p, {7}, {3}, s.length);
        QVERIFY(sc.ok());
        QVERIFY(sh.score.has_value());
        QCOMPARE(*sh.score, sc.value()(0, 0));
    }

    void ropeSheetSubstitutesTheCurrentNumbers() {
        SceneParams s;  // RoPE, d = 64, base 10000, float32
        const FormulaSheet sh = formulaSheet(s, 0, FormulaFocus{5, 2, 1});
        QCOMPARE(sh.focus.pair, 1);
        RopeParams rp = effectiveParams(s, 0).ropeParams();
        const double th = ropeFrequencies(rp, s.length).inv_freq[1];
        auto has = [&](const QString& needle) {
            for (const auto& l : sh.numbers)
                if (l.tex.contains(needle)) return true;
            return false;
        };
        QVERIFY(has(formulaNumber(th)));                       // θ_1
        QVERIFY(has(formulaNumber(std::cos(5 * th))));         // cos m θ_1 (float32 rounding is far below 4 digits)
        QVERIFY(has(formulaNumber(std::sin(5 * th))));
        QVERIFY(has(QStringLiteral("\\sin")));                 // the sine term is there
        // Clamping: positions past N and pairs past d/2.
        const FormulaSheet c = formulaSheet(s, 0, FormulaFocus{1000, -4, 99});
        QCOMPARE(c.focus.query, s.length - 1);
        QCOMPARE(c.focus.key, std::int64_t(0));
        QCOMPARE(c.focus.pair, 31);
    }

    void shawSheetPositionTermMatchesTheTable() {
        SceneParams s;
        s.methods[0].params.method = Method::Shaw;
        s.methods[0].params.content = Content::Random;
        const FormulaSheet sh = formulaSheet(s, 0, FormulaFocus{9, 2, 0});
        const ScoreParams p = effectiveParams(s, 0);
        const ShawParams sp = p.shawParams();
        const Matrix q = contentRows(p.content, false, {9}, p.dim, p.seed);
        const Matrix table = shawKeyTable(sp);
        const double qa = q.row(0).dot(table.row(2 - 9 + sp.max_relative_position));  // clip(2 − 9, ±16) + 16
        bool found = false;
        for (const auto& l : sh.numbers) found |= l.tex.contains(QStringLiteral("q_i \\cdot a^K = ") + formulaNumber(qa));
        QVERIFY2(found, qPrintable(formulaNumber(qa)));
    }

    void formulaPanelFollowsTheScene() {
        MainWindow w(false);
        auto* t = installTeaching(&w);
        auto* fp = t->formulaPanel();
        QVERIFY(fp->waitIdle());
        QVERIFY(fp->sheet().title.startsWith(QStringLiteral("RoPE")));
        w.scene()->editActive(QStringLiteral("method"), QStringLiteral("method"), [](MethodConfig& c) { c.params.method = Method::Alibi; });
        QVERIFY(fp->waitIdle());
        QVERIFY(fp->sheet().title.startsWith(QStringLiteral("ALiBi")));
        // Several edits in a row: the newest one is what the panel ends up showing.
        for (Method m : {Method::T5, Method::Shaw, Method::Sinusoidal})
            w.scene()->editActive(QStringLiteral("method"), QStringLiteral("method"), [m](MethodConfig& c) { c.params.method = m; });
        QVERIFY(fp->waitIdle());
        QVERIFY2(fp->sheet().title.startsWith(QStringLiteral("Sinusoidal")), qPrintable(fp->sheet().title));
        QVERIFY(fp->definitionsView()->lineCount() >= 2);
        fp->resize(500, 800);
        const QImage img = fp->definitionsView()->grab().toImage();
        QVERIFY(inkPixels(img, themeByName(QStringLiteral("light")).background) > 100);
    }

    // ------------------------------------------------------------------ worked examples
    void stepperStepsThroughTheRopeExample() {
        WorkedExampleWidget wx;
        QCOMPARE(wx.example(), WorkedKind::Rope);
        QVERIFY(wx.inputError().isEmpty());
        const int n = wx.stepCount();
        QCOMPARE(n, 8);
        QCOMPARE(wx.step(), 0);
        QVERIFY(!wx.backButton()->isEnabled());
        for (int i = 1; i < n; ++i) QTest::mouseClick(wx.nextButton(), Qt::LeftButton);
        QCOMPARE(wx.step(), n - 1);
        QVERIFY(!wx.nextButton()->isEnabled());
        wx.back();
        QCOMPARE(wx.step(), n - 2);
        // Result = [cos 2, sin 2, cos 0.2, sin 0.2].
        const auto& r = wx.current()->result;
        QVERIFY(std::abs(r[0] - std::cos(2.0)) < 1e-6 && std::abs(r[1] - std::sin(2.0)) < 1e-6);
        // Editing an input recomputes; the step is kept.
        wx.ropeQ()->setText(QStringLiteral("0, 1, 0, 0"));
        QCOMPARE(wx.step(), n - 2);
        QVERIFY(std::abs(wx.current()->result[0] + std::sin(2.0)) < 1e-6);  // (0,1) rotated by 2: (−sin 2, cos 2)
        QVERIFY(std::abs(wx.current()->result[1] - std::cos(2.0)) < 1e-6);
        // A malformed input is reported, not crashed on.
        wx.ropeTheta()->setText(QStringLiteral("1, abc"));
        QVERIFY(!wx.inputError().isEmpty());
        QCOMPARE(wx.stepCount(), 0);
        wx.ropeTheta()->setText(QStringLiteral("1"));  // wrong count
        QVERIFY(wx.inputError().contains(QStringLiteral("theta")));
        // Changing d resizes θ and q to valid defaults.
        wx.ropeDim()->setValue(6);
        QVERIFY(wx.inputError().isEmpty());
        QCOMPARE(wx.current()->result.size(), std::size_t(6));
    }

    void stepperOtherExamples() {
        WorkedExampleWidget wx;
        wx.setExample(WorkedKind::Alibi);
        QVERIFY(wx.inputError().isEmpty());
        QCOMPARE(wx.current()->result.size(), std::size_t(12));
        QCOMPARE(wx.current()->result[8], std::pow(2.0, -0.5));  // H = 12: first of the "other" heads
        wx.setExample(WorkedKind::T5);
        QCOMPARE(wx.current()->result.at(0), 13.0);
        wx.t5Relative()->setValue(50);
        QCOMPARE(wx.current()->result.at(0), 29.0);
        wx.setExample(WorkedKind::Sinusoidal);
        QCOMPARE(wx.current()->result.size(), std::size_t(8));
        QVERIFY(std::abs(wx.current()->result[0] - std::sin(5.0)) < 5e-6);
        // Painting a step puts ink on the canvas.
        QImage img(600, 900, QImage::Format_ARGB32_Premultiplied);
        img.fill(Qt::white);
        QPainter p(&img);
        const qreal h = paintWorkedStep(p, QRectF(10, 10, 580, 880), *wx.current(), 1, themeByName(QStringLiteral("light")));
        p.end();
        QVERIFY(h > 50);
        QVERIFY(inkPixels(img, Qt::white) > 100);
    }

    void numberListParsing() {
        QCOMPARE(parseWorkedNumbers(QStringLiteral("1, 0.1")).value(), (std::vector<double>{1, 0.1}));
        QCOMPARE(parseWorkedNumbers(QStringLiteral("[1 −2; 3]")).value(), (std::vector<double>{1, -2, 3}));
        QVERIFY(!parseWorkedNumbers(QStringLiteral("1, x")).has_value());
        QVERIFY(parseWorkedNumbers(QString()).value().empty());
    }

    // ------------------------------------------------------------------ animation
    void animatorMovesThePositionThroughTheScene() {
        MainWindow w(false);
        auto* t = installTeaching(&w);
        Animator* a = t->animator();
        AnimationSpec spec;
        spec.from = 0;
        spec.to = 10;
        spec.step = 2;
        spec.positionsPerSecond = 8;
        a->setSpec(spec);
        QCOMPARE(a->intervalMs(), 125);
        a->play();
        QVERIFY(a->playing());
        QCOMPARE(w.scene()->params().positions, (Positions{0}));
        a->advance();
        QCOMPARE(w.scene()->params().positions, (Positions{2}));
        for (int i = 0; i < 4; ++i) a->advance();
        QCOMPARE(w.scene()->params().positions, (Positions{10}));
        QSignalSpy moved(a, &Animator::positionChanged);
        a->stop();
        a->play();
        QTRY_VERIFY_WITH_TIMEOUT(moved.count() >= 3, 2000);   // the timer plays it too
        a->stop();
        QVERIFY(!a->playing());
        // Fast speeds move several positions per tick instead of ticking faster than ~30 Hz.
        spec.positionsPerSecond = 240;
        spec.step = 1;
        a->setSpec(spec);
        QVERIFY(a->intervalMs() >= 33);
    }

    // However the animation stops, the scene is the one set up before it started, and the
    // animation left no undo step; an edit made while it plays is kept (and undoes to the set-up).
    void animationLeavesTheSceneAsItWasSetUp_data() {
        QTest::addColumn<QString>("stop");
        QTest::addColumn<bool>("editWhilePlaying");
        for (const char* how : {"toggleOff", "endOfSweep", "exportGif", "exportPngs", "playButton"}) {
            QTest::newRow(how) << QString::fromLatin1(how) << false;
            QTest::newRow((QByteArray(how) + "_editWhilePlaying").constData()) << QString::fromLatin1(how) << true;
        }
    }
    void animationLeavesTheSceneAsItWasSetUp() {
        QFETCH(QString, stop);
        QFETCH(bool, editWhilePlaying);
        QTemporaryDir dir;
        MainWindow w(false);
        auto* t = installTeaching(&w);
        Animator* a = t->animator();
        w.scene()->edit(QStringLiteral("positions"), QStringLiteral("positions"), [](SceneParams& s) { s.positions = {3, 7, 9}; });
        w.scene()->finishMerge();
        SceneParams setUp = w.scene()->params();
        const SceneParams beforeEdit = setUp;
        const int steps = w.scene()->undoStack()->count();
        AnimationSpec spec;
        spec.from = 1;
        spec.to = 6;
        spec.frameSize = QSize(96, 96);
        t->animationPanel()->setSpec(spec);
        if (stop == QLatin1String("playButton")) t->animationPanel()->playButton()->click();
        else a->toggle();
        QVERIFY(a->playing());
        a->advance();
        a->advance();
        QCOMPARE(w.scene()->params().positions, (Positions{3}));
        QCOMPARE(w.scene()->committed(), setUp);
        if (editWhilePlaying) {
            w.scene()->edit(QStringLiteral("length"), QString(), [](SceneParams& s) { s.length = 40; });
            setUp.length = 40;
            QCOMPARE(w.scene()->params().positions, (Positions{3}));   // still playing
            QCOMPARE(w.scene()->params().length, 40);
        }
        if (stop == QLatin1String("toggleOff")) {
            a->toggle();
        } else if (stop == QLatin1String("playButton")) {
            t->animationPanel()->playButton()->click();
        } else if (stop == QLatin1String("endOfSweep")) {
            for (int i = 0; i < 3; ++i) a->advance();
            QCOMPARE(w.scene()->params().positions, (Positions{6}));   // the last frame is shown
            QVERIFY(a->playing());
            a->advance();
        } else if (stop == QLatin1String("exportGif")) {
            QString error;
            QVERIFY2(t->animationPanel()->exportGifTo(dir.filePath(QStringLiteral("a.gif")), &error), qPrintable(error));
            QFile f(dir.filePath(QStringLiteral("a.gif")));
            QVERIFY(f.open(QIODevice::ReadOnly));
            QCOMPARE(parseGif(f.readAll()).frames, 6);   // the whole sweep, 1 … 6
        } else {
            QString error;
            QStringList written;
            QVERIFY2(t->animationPanel()->exportPngsTo(dir.path(), &written, &error), qPrintable(error));
            QCOMPARE(written.size(), 6);
        }
        QVERIFY(!a->playing());
        QVERIFY(!w.scene()->previewing());
        QCOMPARE(w.scene()->params(), setUp);
        QCOMPARE(w.scene()->undoStack()->count(), steps + (editWhilePlaying ? 1 : 0));
        if (editWhilePlaying) {
            w.scene()->undoStack()->undo();
            QCOMPARE(w.scene()->params(), beforeEdit);   // the set-up, not a frame
        }
        QCOMPARE(t->animationPanel()->playButton()->text(), QStringLiteral("▶ Play"));
    }

    void animationSpecPositions() {
        AnimationSpec s;
        s.from = 3;
        s.to = 0;
        QCOMPARE(s.positions(64), (std::vector<std::int64_t>{3, 2, 1, 0}));
        s.from = 60;
        s.to = 100;
        s.step = 2;
        QCOMPARE(s.positions(64), (std::vector<std::int64_t>{60, 62}));
        s.step = 0;
        QVERIFY(s.problem().has_value());
        s.step = 1;
        s.frameSize = QSize(10, 10);
        QVERIFY(s.problem().has_value());
        s.frameSize = QSize(100, 100);
        QVERIFY(!s.problem().has_value());
        s.positionsPerSecond = 4;
        QCOMPARE(s.delayCentiseconds(), 25);
    }

    void animationExportsGifAndPngSequence() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        SceneParams s;
        s.length = 16;
        AnimationSpec spec;
        spec.from = 0;
        spec.to = 5;
        spec.frameSize = QSize(160, 120);
        QString error;
        const QString gif = dir.filePath(QStringLiteral("sweep.gif"));
        QVERIFY2(exportAnimationGif(gif, s, spec, &error), qPrintable(error));
        QFile f(gif);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        const GifInfo g = parseGif(bytes);
        QCOMPARE(g.signature, QByteArray("GIF89a"));
        QCOMPARE(g.width, 160);
        QCOMPARE(g.height, 120);
        QCOMPARE(g.frames, 6);
        QVERIFY(g.trailer && g.loops);
        const auto frames = readAllFrames(bytes);
        QCOMPARE(int(frames.size()), 6);
        // Frames differ (the arrow moves) and match the rendered frames after palette mapping.
        QVERIFY(frames[0] != frames[1]);
        const QImage r0 = renderAnimationFrame(s, spec, 0).convertToFormat(QImage::Format_RGB32);
        int mismatches = 0;
        for (int y = 0; y < 120; y += 3)
            for (int x = 0; x < 160; x += 3) mismatches += (frames[0].pixel(x, y) | 0xFF000000u) != paletteColour(r0.pixel(x, y));
        QCOMPARE(mismatches, 0);

        QStringList written;
        QVERIFY2(exportAnimationPngs(dir.filePath(QStringLiteral("frames")), QStringLiteral("frame"), s, spec, &written, &error), qPrintable(error));
        QCOMPARE(written.size(), 6);
        QVERIFY(written.front().endsWith(QStringLiteral("frame_0000.png")));
        QVERIFY(written.back().endsWith(QStringLiteral("frame_0005.png")));
        QImage png(written[3]);
        QCOMPARE(png.size(), QSize(160, 120));
        // A bad spec writes nothing.
        spec.step = 0;
        QVERIFY(!exportAnimationGif(dir.filePath(QStringLiteral("bad.gif")), s, spec, &error));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("bad.gif"))));
    }

    // ------------------------------------------------------------------ GIF writer
    void gifWriterHeaderAndFrames_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("frames");
        QTest::addColumn<bool>("noise");
        QTest::newRow("w40_h30_f3_flat") << 40 << 30 << 3 << false;
        QTest::newRow("w1_h1_f1_flat") << 1 << 1 << 1 << false;
        // Random indices fill the LZW table (4096 codes) and force clear codes.
        QTest::newRow("w300_h200_f2_noise") << 300 << 200 << 2 << true;
        QTest::newRow("w257_h3_f1_noise") << 257 << 3 << 1 << true;
    }
    void gifWriterHeaderAndFrames() {
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(int, frames);
        QFETCH(bool, noise);
        std::mt19937 rng(42);
        std::vector<QImage> in;
        const auto& pal = GifWriter::palette();
        for (int k = 0; k < frames; ++k) {
            QImage img(width, height, QImage::Format_RGB32);
            for (int y = 0; y < height; ++y)
                for (int x = 0; x < width; ++x) {
                    QRgb c;
                    if (noise) c = pal[rng() % 256];
                    else c = qRgb((x * 255) / std::max(1, width - 1), (y * 255) / std::max(1, height - 1), (k * 80) % 256);
                    img.setPixel(x, y, c);
                }
            in.push_back(img);
        }
        const QByteArray bytes = encodeGif(in, 10);
        const GifInfo g = parseGif(bytes);
        QCOMPARE(g.signature, QByteArray("GIF89a"));
        QCOMPARE(g.width, width);
        QCOMPARE(g.height, height);
        QVERIFY(g.globalTable);
        QCOMPARE(g.frames, frames);
        QVERIFY(g.trailer);
        // Qt's GIF reader decodes every frame to the palette-mapped pixels.
        const auto out = readAllFrames(bytes);
        QCOMPARE(int(out.size()), frames);
        for (int k = 0; k < frames; ++k) {
            QCOMPARE(out[std::size_t(k)].size(), QSize(width, height));
            int bad = 0;
            for (int y = 0; y < height; ++y)
                for (int x = 0; x < width; ++x)
                    bad += (out[std::size_t(k)].pixel(x, y) | 0xFF000000u) != paletteColour(in[std::size_t(k)].pixel(x, y));
            QCOMPARE(bad, 0);
        }
    }

    void gifPaletteKeepsPlotColoursExact() {
        for (QRgb c : {qRgb(0, 0, 0), qRgb(255, 255, 255), qRgb(102, 153, 204)}) QCOMPARE(paletteColour(c), c);
        QCOMPARE(GifWriter::palette().size(), 256);
        // Greys map to a grey within 4 levels.
        for (int v = 0; v < 256; v += 7) {
            const QRgb g = paletteColour(qRgb(v, v, v));
            QCOMPARE(qRed(g), qGreen(g));
            QVERIFY(std::abs(qRed(g) - v) <= 4);
        }
    }
};

QTEST_MAIN(TestTeaching)
#include "test_teaching.moc"
