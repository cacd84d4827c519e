// ui/views/layersview in the window: opening a model configuration with a layer pattern shows
// the layer overview; a click on a row shows that layer in every view (its window, its RoPE, its
// NoPE) in one undo step; Shift-click puts a layer beside the shown one (compare mode); a
// configuration without a pattern hides the overview. Screenshots (POSLAB_SCREENSHOT_DIR) at
// 1920×1080, light and projector, for Gemma 3, Llama 4 and GPT-OSS.
#include <QtTest>

#include <QUndoStack>

#include "ui/window/mainwindow.h"
#include "ui/views/layersview.h"
#include "ui/views/views.h"

using namespace poslab;
using namespace poslab::ui;

namespace {

QString model(const QString& key) { return QStringLiteral(POSLAB_SOURCE_DIR "/resources/models/") + key + QStringLiteral(".json"); }

bool settle(MainWindow& w, int timeoutMs = 20000) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        w.scheduler()->waitIdle(timeoutMs);
        QCoreApplication::processEvents();
        if (!w.scheduler()->busy()) {
            QTest::qWait(20);
            return true;
        }
        QTest::qWait(5);
    }
    return false;
}

// The widget point at the middle of `layer`'s row (the bar area).
QPoint rowPoint(LayersView* v, std::int64_t layer) {
    for (int y = 0; y < v->height(); ++y)
        if (v->layerAt(QPoint(v->width() / 2, y)) == layer) {
            int y1 = y;
            while (y1 + 1 < v->height() && v->layerAt(QPoint(v->width() / 2, y1 + 1)) == layer) ++y1;
            return QPoint(v->width() / 2, (y + y1) / 2);
        }
    return QPoint(-1, -1);
}

void shot(QWidget& w, const QString& name) {
    const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR");
    if (dir.isEmpty()) return;
    w.grab().save(dir + QStringLiteral("/ui_") + name + QStringLiteral(".png"));
}

}  // namespace

class TestLayersView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void clickShowsTheLayer_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<int>("local");     // a sliding or chunked layer
        QTest::addColumn<int>("global");    // a full layer
        QTest::addColumn<bool>("globalNope");
        QTest::newRow("gemma-3-27b") << "gemma-3-27b" << 0 << 5 << false;
        QTest::newRow("llama-4-scout") << "llama-4-scout" << 0 << 3 << true;
        QTest::newRow("gpt-oss-20b") << "gpt-oss-20b" << 0 << 1 << false;
    }
    void clickShowsTheLayer() {
        QFETCH(QString, key);
        QFETCH(int, local);
        QFETCH(int, global);
        QFETCH(bool, globalNope);
        MainWindow w(false);
        w.resize(1920, 1080);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(!w.layersView()->isVisible());   // the default scene has no layer pattern
        QString error;
        QVERIFY2(w.openModelConfig(model(key), &error), qPrintable(error));
        QVERIFY(settle(w));
        LayersView* v = w.layersView();
        QVERIFY(v->isVisible());
        QCOMPARE(v->picture().selected, std::int64_t(0));
        const int steps = w.scene()->undoStack()->count();

        // Click the global layer: every view shows it.
        const QPoint g = rowPoint(v, global);
        QVERIFY(g.y() >= 0);
        QTest::mouseClick(v, Qt::LeftButton, Qt::NoModifier, g);
        const ScoreParams& p = w.scene()->params().methods[0].params;
        QCOMPARE(p.model.layer, std::int64_t(global));
        QVERIFY(!p.attention.window && !p.attention.chunk);
        QCOMPARE(p.attention.nope, globalNope);
        QCOMPARE(w.scene()->undoStack()->count(), steps + 1);
        QVERIFY(settle(w));
        QCOMPARE(v->picture().selected, std::int64_t(global));
        shot(w, QStringLiteral("layers_") + key + QStringLiteral("_global"));

        // Shift-click the local layer: compare mode, the local layer beside the global one.
        QTest::mouseClick(v, Qt::LeftButton, Qt::ShiftModifier, rowPoint(v, local));
        QCOMPARE(w.scene()->params().methods.size(), std::size_t(2));
        const ScoreParams& b = w.scene()->params().methods[1].params;
        QCOMPARE(b.model.layer, std::int64_t(local));
        QVERIFY(b.attention.window || b.attention.chunk);
        QCOMPARE(w.scene()->params().methods[0].params.model.layer, std::int64_t(global));
        QCOMPARE(w.scene()->undoStack()->count(), steps + 2);
        QVERIFY(settle(w));
        QCOMPARE(v->picture().compared, std::int64_t(local));
        shot(w, QStringLiteral("layers_") + key + QStringLiteral("_compare"));
        w.scene()->edit(QStringLiteral("theme"), QString(), [](SceneParams& s) { s.view.theme = QStringLiteral("projector"); });
        QVERIFY(settle(w));
        shot(w, QStringLiteral("layers_") + key + QStringLiteral("_compare_projector"));

        // Undo the theme, the comparison and the click: one configuration showing layer 0 again.
        w.scene()->undoStack()->undo();
        w.scene()->undoStack()->undo();
        w.scene()->undoStack()->undo();
        QCOMPARE(w.scene()->params().methods.size(), std::size_t(1));
        QCOMPARE(w.scene()->params().methods[0].params.model.layer, std::int64_t(0));

        // The view can be hidden, and a scene without a pattern hides it.
        w.scene()->edit(QStringLiteral("hide"), QString(), [](SceneParams& s) { s.view.showLayers = false; });
        QVERIFY(!v->isVisible());
        w.scene()->undoStack()->undo();
        QVERIFY(v->isVisible());
        w.scene()->apply(QStringLiteral("Reset"), SceneParams{});
        QVERIFY(!v->isVisible());
    }
};

QTEST_MAIN(TestLayersView)
#include "test_layersview.moc"
