// The token layout in the window (issue 30): the panel's editor (ui/panel/tokenlayouteditor)
// adds, changes, moves and removes text, image and video entries, each change one undo step
// through the Scene that also sets N to the layout's token count; the positions view
// (ui/views/positionsview) appears with a layout, shows the core's ids for it, and goes with it;
// the heatmap then outlines the image's rows and the frequency view colours each pair by its axis
// (sectioned or interleaved). Screenshots (POSLAB_SCREENSHOT_DIR) at 1920×1080
// and 1280×720.
#include <QtTest>

#include <QPushButton>
#include <QSpinBox>
#include <QUndoStack>

#include "core/mrope.h"
#include "ui/panel/parameterpanel.h"
#include "ui/panel/tokenlayouteditor.h"
#include "ui/views/positionsview.h"
#include "ui/views/visiondecayview.h"
#include "ui/views/views.h"
#include "support/windowsupport.h"
#include "ui/window/mainwindow.h"

using namespace poslab;
using namespace poslab::ui;

namespace {

bool settle(MainWindow& w) { return testsupport::settleWindow(w); }

void shot(QWidget& w, const QString& name) {
    const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR");
    if (dir.isEmpty()) return;
    w.grab().save(dir + QStringLiteral("/ui_") + name + QStringLiteral(".png"));
}

// One editor operation: "+text", "+image", "+video", "set R F V", "up R", "down R", "remove R".
void apply(TokenLayoutEditor* e, const QString& op) {
    const QStringList p = op.split(QLatin1Char(' '));
    if (p[0] == QLatin1String("+text")) e->addButton(TokenKind::Text)->click();
    else if (p[0] == QLatin1String("+image")) e->addButton(TokenKind::Image)->click();
    else if (p[0] == QLatin1String("+video")) e->addButton(TokenKind::Video)->click();
    else if (p[0] == QLatin1String("set")) e->fieldControl(p[1].toInt(), p[2].toInt())->setValue(p[3].toInt());
    else if (p[0] == QLatin1String("up")) e->moveEntry(p[1].toInt(), -1);
    else if (p[0] == QLatin1String("down")) e->moveEntry(p[1].toInt(), +1);
    else if (p[0] == QLatin1String("remove")) e->removeEntry(p[1].toInt());
}

}  // namespace

class TestPositionsView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void editorEditsTheScene_data() {
        QTest::addColumn<QStringList>("ops");
        QTest::addColumn<QString>("tokens");
        QTest::addColumn<qint64>("length");
        QTest::addColumn<int>("steps");   // undo steps
        QTest::newRow("text") << QStringList{"+text"} << "text:8" << qint64(8) << 1;
        QTest::newRow("text image text") << QStringList{"+text", "+image", "+text"} << "text:8,image:1x8x8,text:8" << qint64(32) << 3;
        QTest::newRow("image image gets text between") << QStringList{"+image", "+image"} << "image:1x8x8,text:2,image:1x8x8"
                                                       << qint64(34) << 2;
        QTest::newRow("video 2x8x8") << QStringList{"+text", "+video"} << "text:8,video:2x8x8" << qint64(40) << 2;
        QTest::newRow("set image H 12") << QStringList{"+text", "+image", "set 1 1 12"} << "text:8,image:1x12x8" << qint64(32) << 3;
        QTest::newRow("set text 3") << QStringList{"+text", "set 0 0 3"} << "text:3" << qint64(3) << 2;
        QTest::newRow("move image up") << QStringList{"+text", "+image", "up 1"} << "image:1x8x8,text:8" << qint64(24) << 3;
        QTest::newRow("move text down") << QStringList{"+text", "+image", "down 0"} << "image:1x8x8,text:8" << qint64(24) << 3;
        QTest::newRow("remove first") << QStringList{"+text", "+image", "remove 0"} << "image:1x8x8" << qint64(16) << 3;
        QTest::newRow("remove all") << QStringList{"+text", "remove 0"} << "" << qint64(8) << 2;
    }
    void editorEditsTheScene() {
        QFETCH(QStringList, ops);
        QFETCH(QString, tokens);
        QFETCH(qint64, length);
        QFETCH(int, steps);
        MainWindow w(false);
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        TokenLayoutEditor* e = w.panel()->tokenLayoutEditor();
        QVERIFY(e);
        const SceneParams before = w.scene()->params();
        const int start = w.scene()->undoStack()->count();
        for (const QString& op : ops) {
            apply(e, op);
            w.scene()->finishMerge();
        }
        QCOMPARE(QString::fromStdString(w.scene()->params().mrope.tokens), tokens);
        QCOMPARE(w.scene()->params().length, length);
        QCOMPARE(w.scene()->undoStack()->count(), start + steps);
        QCOMPARE(e->rowCount(), tokens.isEmpty() ? 0 : static_cast<int>(tokens.count(QLatin1Char(',')) + 1));
        // The positions view shows exactly the core's ids for the layout, whenever there is one.
        PositionsView* v = w.positionsView();
        QCOMPARE(v->isVisible(), !tokens.isEmpty());
        if (!tokens.isEmpty()) {
            auto expected = mropePositions(w.scene()->params().mrope);
            QVERIFY(expected.ok());
            QVERIFY2(v->picture().error.isEmpty(), qPrintable(v->picture().error));
            QVERIFY(v->picture().positions.ids == expected.value().ids);
        }
        // Undo takes every step back: the scene it started from.
        for (int k = 0; k < steps; ++k) w.scene()->undoStack()->undo();
        QVERIFY(w.scene()->params() == before);
        QVERIFY(!v->isVisible());
        QCOMPARE(e->rowCount(), 0);
    }

    // The window with a layout at the sizes a lecture uses: the positions view, the heatmap with
    // the image's rows outlined (its subtitle says so), no view squeezed below its minimum.
    void windowWithALayout_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("tokens");
        QTest::addColumn<bool>("interleaved");
        QTest::newRow("1920x1080") << QSize(1920, 1080) << "text:6,image:1x8x12,text:4" << false;
        QTest::newRow("1280x720") << QSize(1280, 720) << "text:6,image:1x8x12,text:4" << false;
        QTest::newRow("1920x1080 image 74x74") << QSize(1920, 1080) << "text:20,image:1x74x74,text:20" << false;
        QTest::newRow("1280x720 interleaved") << QSize(1280, 720) << "text:6,image:1x8x12,text:4" << true;
    }
    void windowWithALayout() {
        QFETCH(QSize, size);
        QFETCH(QString, tokens);
        QFETCH(bool, interleaved);
        MainWindow w(false);
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto layout = parseTokenLayout(tokens.toStdString());
        QVERIFY(layout.ok());
        w.scene()->edit(QStringLiteral("layout"), QString(), [&](SceneParams& s) {
            s.mrope.tokens = tokens.toStdString();
            if (interleaved) {
                s.mrope.model = MropeModel::Qwen3VL;
                s.methods[0].mropeLayout = MropeLayout::Interleaved;
            }
            s.length = mropePositions(layout.value(), s.mrope).value().ids.cols();
        });
        QVERIFY(settle(w));
        QVERIFY(w.positionsView()->isVisible());
        QVERIFY(w.positionsView()->height() >= w.positionsView()->minimumSizeHint().height() / 2);
        QVERIFY2(!sceneProblem(w.scene()->params()), qPrintable(sceneProblem(w.scene()->params()).value_or(QString())));
        const HeatmapResult& h = w.heatmapView()->result();
        QCOMPARE(h.tokenBlocks.size(), std::size_t(1));
        QCOMPARE(h.tokenBlocks[0].from, qint64(tokens.section(',', 0, 0).section(':', 1).toLongLong()));
        QVERIFY(h.panels.at(0).error.isEmpty());
        // The frequency view colours each pair by the axis the core gives it (the model's split of
        // rotary_dim/2 = 32 without sections: Qwen2-VL 8,12,12; Qwen3-VL 12,10,10 interleaved).
        const auto& f = w.frequencyView()->result().configs.at(0);
        const auto axes = mropeAxes(32, interleaved ? std::vector<std::int64_t>{12, 10, 10} : std::vector<std::int64_t>{8, 12, 12},
                                    interleaved ? MropeLayout::Interleaved : MropeLayout::Sectioned);
        QVERIFY(axes.ok());
        QVERIFY(f.axis == axes.value());
        QVERIFY2(f.note.contains(interleaved ? "interleaved" : "sectioned"), qPrintable(f.note));
        shot(w, QStringLiteral("positions_%1x%2_%3%4").arg(size.width()).arg(size.height()).arg(tokens.size()).arg(interleaved ? "_interleaved" : ""));
    }

    // Compare mode over one layout: configuration A Qwen2-VL's sections, B Qwen3-VL's interleaving
    // (each configuration its own, like its other method parameters); the frequency view colours
    // each panel's pairs by that configuration's axes, and editing B's sections leaves A's alone.
    void compareSectionedBesideInterleaved() {
        MainWindow w(false);
        w.resize(1920, 1080);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.scene()->edit(QStringLiteral("compare"), QString(), [](SceneParams& s) {
            s.mrope.tokens = "text:6,image:1x8x12,text:4";
            s.length = 6 + 24 + 4;
            s.methods[0].params.dim = 128;
            s.methods[0].params.rope.base = 1e6;
            s.methods[0].label = QStringLiteral("Qwen2-VL");
            s.methods[0].mropeSection = {16, 24, 24};
            s.methods[0].mropeLayout = MropeLayout::Sectioned;
            s.methods.push_back(s.methods[0]);
            s.methods[1].params.rope.base = 5e6;
            s.methods[1].label = QStringLiteral("Qwen3-VL");
            s.methods[1].mropeSection = {24, 20, 20};
            s.methods[1].mropeLayout = MropeLayout::Interleaved;
        });
        QVERIFY(settle(w));
        QVERIFY2(!sceneProblem(w.scene()->params()), qPrintable(sceneProblem(w.scene()->params()).value_or(QString())));
        const auto& r = w.frequencyView()->result();
        QCOMPARE(r.configs.size(), std::size_t(2));
        QCOMPARE(r.configs[0].axis, mropeAxes(64, {16, 24, 24}, MropeLayout::Sectioned).value());
        QCOMPARE(r.configs[1].axis, mropeAxes(64, {24, 20, 20}, MropeLayout::Interleaved).value());
        QVERIFY2(r.configs[0].note.contains("sectioned 16,24,24"), qPrintable(r.configs[0].note));
        QVERIFY2(r.configs[1].note.contains("interleaved 24,20,20"), qPrintable(r.configs[1].note));
        shot(w, QStringLiteral("compare_sectioned_interleaved_1920x1080"));
        // The panel edits the active configuration's sections only.
        w.scene()->setActiveConfig(1);
        w.scene()->editActive(QStringLiteral("sections"), QStringLiteral("mrope.mrope_section"),
                              [](MethodConfig& c) { c.mropeSection = {32, 16, 16}; });
        QVERIFY(settle(w));
        QCOMPARE(w.scene()->params().methods[0].mropeSection, (std::vector<std::int64_t>{16, 24, 24}));
        QCOMPARE(w.frequencyView()->result().configs[1].axis, mropeAxes(64, {32, 16, 16}, MropeLayout::Interleaved).value());
    }

    // The vision encoder's 2-D decay beside the positions: shown while the scene has a patch grid,
    // its numbers the core's; a click on a patch measures from it (one undo step).
    void visionDecayClickChoosesThePatch() {
        MainWindow w(false);
        w.resize(1920, 1080);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(!w.visionDecayView()->isVisible());
        w.scene()->edit(QStringLiteral("vision"), QString(), [](SceneParams& s) {
            s.mrope.tokens = "text:6,image:1x8x12,text:4";
            s.length = 34;
            s.vision.encoder = VisionRope::Qwen;
            s.vision.grid = "1x16x24";
        });
        QVERIFY(settle(w));
        VisionDecayView* v = w.visionDecayView();
        QVERIFY(v->isVisible());
        QVERIFY(w.positionsView()->isVisible());
        QVERIFY(v->width() >= v->minimumSizeHint().width() && v->height() >= v->minimumSizeHint().height());
        QVERIFY(v->picture().decay.has_value());
        QCOMPARE(v->picture().decay->row, std::int64_t(8));   // the centre without a chosen patch
        QCOMPARE(v->picture().decay->col, std::int64_t(12));
        // Click the centre of patch (3, 20).
        const auto at = [&](std::int64_t r, std::int64_t c) {
            const VisionDecayGeometry geo = v->decayGeometry();
            return QPointF(geo.cells.left() + geo.cell * (double(c) + 0.5), geo.cells.top() + geo.cell * (double(r) + 0.5)).toPoint();
        };
        QCOMPARE(v->patchAt(at(3, 20)), (std::optional<std::array<std::int64_t, 2>>{{3, 20}}));
        const int steps = w.scene()->undoStack()->count();
        QTest::mouseClick(v, Qt::LeftButton, {}, at(3, 20));
        QCOMPARE(w.scene()->params().visionPatch, (std::vector<std::int64_t>{3, 20}));
        QCOMPARE(w.scene()->undoStack()->count(), steps + 1);
        QCOMPARE(v->picture().decay->row, std::int64_t(3));
        QCOMPARE(v->picture().decay->col, std::int64_t(20));
        const auto want = visionDecay([] {
            VisionRopeParams p;
            p.grid = "1x16x24";
            return p;
        }(), 3, 20);
        QVERIFY(want.ok());
        QCOMPARE(v->picture().decay->rowTerm, want.value().rowTerm);
        QCOMPARE(v->picture().decay->colTerm, want.value().colTerm);
        shot(w, QStringLiteral("vision_decay_1920x1080"));
        // Without a grid the view goes.
        w.scene()->edit(QStringLiteral("no grid"), QString(), [](SceneParams& s) { s.vision.grid.clear(); });
        QVERIFY(settle(w));
        QVERIFY(!v->isVisible());
    }
};

QTEST_MAIN(TestPositionsView)
#include "test_positionsview.moc"
