// ui/views/layersview in the window: opening a model configuration with a layer pattern shows
// the layer overview; a click on a row shows that layer in every view (its window, its RoPE, its
// NoPE) in one undo step; Shift-click puts a layer beside the shown one (compare mode); a
// configuration without a pattern hides the overview. Screenshots (POSLAB_SCREENSHOT_DIR) at
// 1920×1080, light and projector, for Gemma 3, Llama 4 and GPT-OSS.
#include "support/testsupport.h"

#include <QtTest>

#include <QFontMetricsF>
#include <QUndoStack>

#include <optional>

#include "support/windowsupport.h"
#include "ui/window/mainwindow.h"
#include "ui/views/layersview.h"
#include "ui/views/views.h"

using namespace poslab;
using namespace poslab::ui;

namespace {

QString model(const QString& key) { return testsupport::modelFile(key); }

bool settle(MainWindow& w) { return testsupport::settleWindow(w); }

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

    // Gemma 3 27B's 62 layers in the window at 1280×720 and 1920×1080: every row at least a line
    // of text tall (rows of layers alike, grouped), and a click at a row's centre selects that
    // row: the scene shows one of its layers and the highlight is drawn under the pointer.
    void clickSelectsTheRowUnderThePointer_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("theme");
        QTest::newRow("1280x720_light") << QSize(1280, 720) << "light";
        QTest::newRow("1280x720_projector") << QSize(1280, 720) << "projector";
        QTest::newRow("1920x1080_light") << QSize(1920, 1080) << "light";
    }
    void clickSelectsTheRowUnderThePointer() {
        QFETCH(QSize, size);
        QFETCH(QString, theme);
        MainWindow w(false);
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QString error;
        QVERIFY2(w.openModelConfig(model(QStringLiteral("gemma-3-27b")), &error), qPrintable(error));
        w.scene()->edit(QStringLiteral("theme"), QString(), [&](SceneParams& s) { s.view.theme = theme; });
        QVERIFY(settle(w));
        LayersView* v = w.layersView();
        QVERIFY(v->isVisible());
        // The rows: runs of one layer down the bars.
        std::vector<std::pair<int, int>> rows;
        std::optional<std::int64_t> last;
        for (int y = 0; y < v->height(); ++y) {
            const auto at = v->layerAt(QPoint(v->width() * 4 / 5, y));
            if (at && at == last && !rows.empty() && rows.back().second == y) rows.back().second = y + 1;
            else if (at) rows.emplace_back(y, y + 1);
            last = at;
        }
        QVERIFY(rows.size() >= 2);
        const double line = QFontMetricsF(themeByName(theme).font(themeByName(theme).fontPt)).height();
        for (const auto& [from, to] : rows)
            QVERIFY2(to - from >= std::floor(line), qPrintable(QStringLiteral("a row of %1 px, a line is %2 px").arg(to - from).arg(line)));
        for (std::size_t k = rows.size(); k-- > 0;) {
            const QPoint centre(v->width() * 3 / 5, (rows[k].first + rows[k].second) / 2);
            const auto under = v->layerAt(centre);
            QVERIFY(under.has_value());
            QTest::mouseClick(v, Qt::LeftButton, Qt::NoModifier, centre);
            QCOMPARE(w.scene()->params().methods[0].params.model.layer, *under);
            QVERIFY(settle(w));
            // The highlight is on the clicked row, and on no other.
            const QImage img = v->grab().toImage();
            const QRgb clicked = img.pixel(4, centre.y());
            for (std::size_t j = 0; j < rows.size(); ++j) {
                const QRgb other = img.pixel(4, (rows[j].first + rows[j].second) / 2);
                QVERIFY2((other == clicked) == (j == k), qPrintable(QStringLiteral("clicked row %1, row %2").arg(k).arg(j)));
            }
        }
        shot(w, QStringLiteral("layers_gemma-3-27b_") + QString::fromLatin1(QTest::currentDataTag()));
    }
};

QTEST_MAIN(TestLayersView)
#include "test_layersview.moc"
