// The main window as a user drives it (offscreen): every method in every view from the default
// scene, live updates from the panel's sliders, undo/redo through the Edit menu's stack, compare
// mode, presets, and that nothing shows "nan". With POSLAB_SCREENSHOT_DIR set, each case saves
// a screenshot there (how the views were looked at during development).
#include "ui/io/presets.h"
#include "support/windowsupport.h"
#include "ui/window/mainwindow.h"
#include "ui/panel/controls.h"
#include "ui/panel/parameterpanel.h"
#include "ui/render/frequencyrenderer.h"
#include "ui/io/export.h"
#include "ui/render/heatmaprenderer.h"
#include "ui/render/layout.h"
#include "ui/render/pairsrenderer.h"
#include "ui/teaching/animation.h"
#include "ui/teaching/formulapanel.h"
#include "ui/window/teaching.h"
#include "ui/views/views.h"

#include <QApplication>
#include <QBackingStore>
#include <QComboBox>
#include <QDockWidget>
#include <QTabWidget>
#include <QLineEdit>
#include <QSpinBox>
#include <QLabel>
#include <QSlider>
#include <QSplitter>
#include <QSettings>
#include <QScreen>
#include <QMenu>
#include <QStandardPaths>
#include <QMimeData>
#include <QDropEvent>
#include <QTemporaryDir>
#include <QUrl>
#include <QtTest>

#include <ctime>

using namespace poslab;
using namespace poslab::ui;

namespace {

// Waits until every visible view has painted the scheduler's latest results.
bool settle(MainWindow& w, int timeoutMs = 20000) { return testsupport::settleWindow(w, true, timeoutMs); }

// Shows the window at `size` and waits until every view has painted the first results.
bool open(MainWindow& w, const QSize& size) {
    w.resize(size);
    w.show();
    return QTest::qWaitForWindowExposed(&w) && settle(w);
}

void shot(QWidget& w, const QString& name) {
    const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR");
    if (dir.isEmpty()) return;
    w.grab().save(dir + QStringLiteral("/ui_") + name + QStringLiteral(".png"));
}

// Work done on the calling (GUI) thread since construction: its CPU time, and the wall clock.
class GuiWork {
public:
    GuiWork() : cpu0_(threadCpuMs()) { wall_.start(); }
    double cpuMs() const { return threadCpuMs() - cpu0_; }
    qint64 wallMs() const { return wall_.elapsed(); }

private:
    static double threadCpuMs() {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
    }
    double cpu0_;
    QElapsedTimer wall_;
};

QString allText(const MainWindow& w) {
    QString s;
    for (const auto& c : w.findChildren<QLabel*>()) s += c->text() + QLatin1Char('\n');
    return s;
}

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("PosLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("test_mainwindow"));
        QSettings().clear();
    }

    void layoutAndLastScenePersist() {
        SceneParams edited;
        QSize size;
        {
            MainWindow w(true);
            w.resize(1300, 850);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.scene()->editActive(QStringLiteral("alibi"), QString(), [](MethodConfig& c) {
                c.params.method = Method::Alibi;
                c.params.alibi.heads = 12;
            });
            w.scene()->edit(QStringLiteral("length"), QString(), [](SceneParams& s) {
                s.length = 300;
                s.view.theme = QStringLiteral("dark");
            });
            edited = w.scene()->params();
            size = w.size();
            w.close();
        }
        MainWindow w2(true);
        QCOMPARE(w2.scene()->params(), SceneParams{});   // the default until the last scene is restored
        w2.restoreLastScene();
        QCOMPARE(w2.scene()->params(), edited);
        QCOMPARE(w2.size(), size);
        QCOMPARE(w2.scene()->undoStack()->count(), 0);
        QSettings().clear();
    }

    // The maximised state survives a crash as it survives a quit: it is written when it changes,
    // so a window that never gets its close event (a crash, a kill) still leaves it behind.
    void maximisedStateSurvivesACrash() {
        QSettings().clear();
        {
            auto* w = new MainWindow(true);
            w->resize(1300, 820);
            w->show();
            QVERIFY(QTest::qWaitForWindowExposed(w));
            w->showMaximized();
            QTRY_VERIFY(w->isMaximized());
            QVERIFY(QSettings().contains(QStringLiteral("window/geometry")));
            // A crash: no closeEvent, nothing more written (the destructor saves nothing).
            delete w;
        }
        {
            MainWindow w2(true);
            w2.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w2));
            QVERIFY(w2.isMaximized());
            // Un-maximised, it is back at the size it had before (its normal geometry).
            w2.showNormal();
            QTRY_VERIFY(!w2.isMaximized());
            QTRY_COMPARE(w2.size(), QSize(1300, 820));
            QTRY_VERIFY(!QSettings().value(QStringLiteral("window/geometry")).toByteArray().isEmpty());
        }
        {
            // ... and a window left normal (after being maximised) starts normal.
            MainWindow w3(true);
            w3.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w3));
            QVERIFY(!w3.isMaximized());
        }
        QSettings().clear();
    }

    // Each view can be shown full screen: from its context menu (a right click without a drag) or
    // F11 with the view focused; the view itself fills the screen (still live: drawn anew at that
    // size), and Esc puts it back in its place, its neighbours' sizes as they were.
    void viewFullScreenAndBack_data() {
        QTest::addColumn<QString>("view");
        for (const char* v : {"pairsView", "heatmapView", "decayView", "frequencyView"}) QTest::newRow(v) << QString::fromLatin1(v);
    }
    void viewFullScreenAndBack() {
        QFETCH(QString, view);
        MainWindow w(false);
        w.resize(1280, 720);
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QVERIFY(settle(w));
        QWidget* v = w.findChild<QWidget*>(view);
        QVERIFY(v);
        auto* home = qobject_cast<QSplitter*>(v->parentWidget());
        QVERIFY(home);
        const int index = home->indexOf(v);
        const QList<int> sizes = home->sizes();
        const QSize before = v->size();
        QAction* a = v->findChild<QAction*>(QStringLiteral("viewFullScreen"));
        QVERIFY(a && v->actions().contains(a));
        // F11 on the focused view.
        v->setFocus();
        QTRY_VERIFY(v->hasFocus());
        QTest::keyClick(v, Qt::Key_F11);
        QTRY_VERIFY(w.fullScreenWindow());
        QWidget* fs = w.fullScreenWindow();
        QCOMPARE(v->window(), fs);
        QVERIFY(fs->isFullScreen());
        QTRY_COMPARE(fs->size(), fs->screen()->geometry().size());
        QTRY_COMPARE(v->size(), fs->size());
        const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR");
        if (!dir.isEmpty()) {
            // At a projector's and a laptop's size (the offscreen screen is smaller).
            fs->showNormal();
            for (const QSize size : {QSize(1920, 1080), QSize(1280, 720)}) {
                fs->resize(size);
                QTRY_COMPARE(v->size(), size);
                QTest::qWait(1500);   // the scheduler draws the view at its new size
                fs->grab().save(QStringLiteral("%1/fullscreen_%2_%3x%4.png").arg(dir, view).arg(size.width()).arg(size.height()));
            }
            fs->showFullScreen();
        }
        // Esc: back in its place.
        QTest::keyClick(fs, Qt::Key_Escape);
        QTRY_VERIFY(!w.fullScreenWindow());
        QCOMPARE(v->window(), &w);
        QCOMPARE(v->parentWidget(), home);
        QCOMPARE(home->indexOf(v), index);
        QVERIFY(v->isVisible());
        QTRY_COMPARE(home->sizes(), sizes);
        QTRY_COMPARE(v->size(), before);
        // The context menu: a right click without a drag.
        QWidget* target = v;
        const QPoint at(target->width() / 2, target->height() / 2);
        QTest::mousePress(target, Qt::RightButton, {}, at);
        QTest::mouseRelease(target, Qt::RightButton, {}, at);
        QMenu* menu = nullptr;
        QTRY_VERIFY((menu = v->findChild<QMenu*>(QStringLiteral("viewContextMenu"))) && menu->isVisible());
        QVERIFY(menu->actions().contains(a));
        menu->close();
        a->trigger();
        QTRY_VERIFY(w.fullScreenWindow());
        QCOMPARE(v->window(), w.fullScreenWindow());
        a->trigger();   // F11 again (the same action): back
        QTRY_VERIFY(!w.fullScreenWindow());
        QCOMPARE(home->indexOf(v), index);
    }

    // The parameter panel in the window follows the projector theme and text ×1.5: its fonts grow
    // with the text size, its colours are the theme's (screenshots at 1920×1080 and 1280×720).
    void panelFollowsTheLook_data() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1920x1080") << QSize(1920, 1080);
        QTest::newRow("1280x720") << QSize(1280, 720);
    }
    void panelFollowsTheLook() {
        QFETCH(QSize, size);
        MainWindow w(false);
        const double appPt = QApplication::font().pointSizeF();
        w.scene()->edit(QStringLiteral("look"), QString(), [](SceneParams& s) {
            s.view.theme = QStringLiteral("projector");
            s.view.fontScale = 1.5;
        });
        QVERIFY(open(w, size));
        const Theme t = themeByName(QStringLiteral("projector"), 1.5);
        QVERIFY(w.panel()->font().pointSizeF() >= appPt * 1.5 - 1e-9);
        QCOMPARE(w.panel()->palette().color(QPalette::Window), t.panel);
        QCOMPARE(w.panel()->palette().color(QPalette::WindowText), t.foreground);
        auto* label = w.panel()->findChild<QLabel*>();
        QVERIFY(label);
        QVERIFY(label->font().pointSizeF() >= appPt * 1.5 - 1e-9);
        // What is drawn: the panel's background is the theme's panel colour.
        const QImage img = w.panel()->grab().toImage();
        QCOMPARE(img.pixelColor(2, img.height() - 3).rgb(), t.panel.rgb());
        // The teaching dock's widgets too (its tabs, the formula panel's spin boxes).
        auto* tabs = w.findChild<QTabWidget*>(QStringLiteral("teachingTabs"));
        QVERIFY(tabs);
        QVERIFY(tabs->font().pointSizeF() >= appPt * 1.5 - 1e-9);
        QCOMPARE(tabs->palette().color(QPalette::Window), t.panel);
        auto* spin = tabs->findChild<QSpinBox*>();
        QVERIFY(spin);
        QVERIFY(spin->font().pointSizeF() >= appPt * 1.5 - 1e-9);
        QCOMPARE(spin->palette().color(QPalette::Text), t.foreground);
        shot(w, QStringLiteral("panel_projector_text1.5_") + QString::fromLatin1(QTest::currentDataTag()));
    }

    // While edits stream in (a drag: edits < 250 ms apart) on a high-DPI screen the heatmap asks
    // for one cell per logical pixel (a quarter of the work at DPR 2); 200 ms after the last
    // edit, for one per device pixel again. At DPR 1 nothing changes. (test_mainwindow_hidpi runs
    // this at DPR 2.)
    // Each view shows the very result the scheduler delivered, not a copy of it: a heatmap's
    // values are megabytes, and copying them on the GUI thread cost every frame of a drag.
    void viewsShowTheDeliveredResultsNotCopies() {
        MainWindow w(false);
        Shared<HeatmapResult> heat;
        Shared<PairsResult> pairs;
        Shared<DecayResult> decay;
        Shared<FrequencyResult> freqs;
        connect(w.scheduler(), &Scheduler::heatmapReady, this, [&](const Shared<HeatmapResult>& r) { heat = r; });
        connect(w.scheduler(), &Scheduler::pairsReady, this, [&](const Shared<PairsResult>& r) { pairs = r; });
        connect(w.scheduler(), &Scheduler::decayReady, this, [&](const Shared<DecayResult>& r) { decay = r; });
        connect(w.scheduler(), &Scheduler::frequenciesReady, this, [&](const Shared<FrequencyResult>& r) { freqs = r; });
        QVERIFY(open(w, QSize(1600, 1000)));
        w.scene()->edit(QStringLiteral("Head dimension"), QStringLiteral("methods.0.dim"),
                        [](SceneParams& s) { s.methods.front().params.dim = 96; });
        QVERIFY(w.scheduler()->waitIdle());
        QVERIFY(heat && pairs && decay && freqs);
        QCOMPARE(heat->generation, w.scheduler()->latestGeneration());
        QCOMPARE(&w.heatmapView()->result(), heat.get());
        QVERIFY(!heat->panels.empty() && heat->panels[0].values.size() > 0);
        QCOMPARE(w.heatmapView()->result().panels[0].values.data(), heat->panels[0].values.data());
        QCOMPARE(&w.pairsView()->result(), pairs.get());
        QCOMPARE(&w.decayView()->result(), decay.get());
        QCOMPARE(&w.frequencyView()->result(), freqs.get());
    }

    void heatmapIsCoarseWhileEditsStream() {
        MainWindow w(false);
        SceneParams s;
        s.length = 4096;   // more positions than cells either way
        w.scene()->setParams(s);
        QVERIFY(open(w, QSize(1600, 1000)));
        QTest::qWait(300);   // (no stream yet)
        auto* heat = w.findChild<HeatmapView*>(QStringLiteral("heatmapView"));
        QVERIFY(heat);
        const double dpr = heat->devicePixelRatioF();
        const int full = w.scheduler()->display().heatmapCells;
        QCOMPARE(full, heat->cellsFor(1));
        const auto edit = [&](int dim) {
            w.scene()->edit(QStringLiteral("Head dimension"), QStringLiteral("methods.0.dim"),
                            [dim](SceneParams& s) { s.methods.front().params.dim = dim; });
        };
        edit(66);
        edit(68);   // a stream
        const int coarse = w.scheduler()->display().heatmapCells;
        QCOMPARE(coarse, dpr > 1 ? std::max(16, static_cast<int>(full / dpr)) : full);
        QTRY_COMPARE_WITH_TIMEOUT(w.scheduler()->display().heatmapCells, full, 2000);
        // The sharpened picture arrives: the view's result has blocks of the full resolution (the
        // blocks are whole cells: 4096 keys in 430 asked-for columns are 410 blocks of 10).
        // Whole blocks of k = ⌈4096 / full⌉ keys: ⌈4096 / k⌉ columns (at most `full`; fewer than 90 %
        // of it where k is small, e.g. 920 cells: blocks of 5, 820 columns).
        const int k = (4096 + full - 1) / full, expected = (4096 + k - 1) / k;
        const auto cols = [&] { return int(heat->result().panels.front().values.cols()); };
        QTRY_VERIFY2_WITH_TIMEOUT(cols() == expected && cols() <= full,
                                  qPrintable(QStringLiteral("%1 columns for %2 cells (expected %3)").arg(cols()).arg(full).arg(expected)), 5000);
    }

    // While edits stream in on a high-DPI screen the renderers draw every picture at logical
    // resolution (pixel ratio 1, a quarter of the pixels at DPR 2), each pixel a block of device
    // pixels, and the decay chart gets one sample per logical pixel. 200 ms after the last edit
    // every view is sharp again: drawn at the screen's pixel ratio. At DPR 1 nothing changes
    // (QT_SCALE_FACTOR=2 runs this at DPR 2: test_mainwindow_hidpi).
    void picturesAreLogicalWhileEditsStream() {
        MainWindow w(false);
        SceneParams s;   // bench_live_update's scene
        s.length = 1024;
        s.methods[0].params.dim = 128;
        s.positions = {0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512};
        w.scene()->setParams(s);
        QVERIFY(open(w, QSize(1600, 1000)));
        QTest::qWait(300);   // (no stream yet)
        QVERIFY(settle(w));
        const double dpr = w.pairsView()->devicePixelRatioF();
        const std::vector<ViewBase*> views = {w.pairsView(), w.heatmapView(), w.decayView(), w.frequencyView()};
        const auto samples = [&](double ratio) { return std::clamp(static_cast<int>(w.decayView()->width() * ratio), 64, 2048); };
        // What the view's renderer draws for the result the view holds, at `ratio`, scaled up
        // to device pixels without smoothing.
        const auto drawn = [&](ViewBase* v, double ratio) {
            QImage img(pictureSize(v->size(), ratio), QImage::Format_RGB32);
            img.setDevicePixelRatio(ratio);
            QPainter p(&img);
            const QRectF r(QPointF(0, 0), QSizeF(v->size()));
            if (v == w.pairsView()) renderPairs(p, r, w.pairsView()->result(), v->theme());
            if (v == w.heatmapView()) renderHeatmap(p, r, w.heatmapView()->result(), v->theme());
            if (v == w.decayView()) renderDecay(p, r, w.decayView()->result(), v->theme());
            if (v == w.frequencyView()) renderFrequencies(p, r, w.frequencyView()->result(), v->theme());
            p.end();
            return img;
        };
        const auto picture = [&](ViewBase* v) {
            if (v == w.pairsView()) return w.pairsView()->result().picture;
            if (v == w.heatmapView()) return w.heatmapView()->result().picture;
            if (v == w.decayView()) return w.decayView()->result().picture;
            return w.frequencyView()->result().picture;
        };
        const auto check = [&](double resolution, const char* when) {
            for (ViewBase* v : views) {
                const QString what = v->objectName() + QLatin1Char(' ') + QLatin1String(when);
                QVERIFY2(v->paintedFromPicture(), qPrintable(what + QStringLiteral(": drew itself")));
                QCOMPARE(v->paintedResolution(), resolution);
                const Picture pic = picture(v);
                QCOMPARE(pic.resolution, resolution);
                QCOMPARE(pic.image.devicePixelRatio(), resolution);
                QCOMPARE(pic.image.size(), pictureSize(v->size(), resolution));
                const QImage ours = drawn(v, resolution);
                QVERIFY2(pic.image == ours, qPrintable(what + QStringLiteral(": not the renderer's drawing")));
                // On screen: each of the picture's pixels a block of device pixels, nothing smoothed.
                QImage shown = v->grab().toImage().convertToFormat(QImage::Format_RGB32);
                QImage blocks = ours.scaled(pictureSize(v->size(), dpr), Qt::IgnoreAspectRatio, Qt::FastTransformation);
                shown.setDevicePixelRatio(1);
                blocks.setDevicePixelRatio(1);
                QVERIFY2(shown == blocks, qPrintable(what + QStringLiteral(": not the picture's pixels on screen")));
                // The window's own paint (into its backing store, what the screen shows): a
                // logical picture at a whole pixel ratio is enlarged by copyEnlarged, not by
                // QPainter's scaled copy, and gives the same blocks. (The view's rectangle of the
                // store is painted magenta first: what the test reads is this paint's.)
                // (QBackingStore's image is asked for again after the paint: its paint may replace it.)
                QPaintDevice* store = w.backingStore()->paintDevice();
                QVERIFY2(store && store->devType() == QInternal::Image, qPrintable(what));
                {
                    auto* image = static_cast<QImage*>(store);   // (written in place, as the paint does)
                    const QRect r = QRect(v->mapTo(&w, QPoint(0, 0)) * dpr, blocks.size()).intersected(image->rect());
                    for (int y = r.top(); y <= r.bottom(); ++y) {
                        auto* row = reinterpret_cast<quint32*>(const_cast<uchar*>(image->constScanLine(y)));
                        std::fill(row + r.left(), row + r.right() + 1, 0xffff00ffu);
                    }
                }
                v->repaint();
                QCOMPARE(v->paintedByEnlarging(), resolution == 1.0 && dpr == std::floor(dpr) && dpr > 1.0);
                store = w.backingStore()->paintDevice();
                QVERIFY2(store && store->devType() == QInternal::Image, qPrintable(what));
                QImage screen = static_cast<QImage*>(store)->convertToFormat(QImage::Format_RGB32);
                QCOMPARE(screen.devicePixelRatio(), dpr);
                screen.setDevicePixelRatio(1);
                const QRect where(v->mapTo(&w, QPoint(0, 0)) * dpr, blocks.size());
                QVERIFY2(screen.rect().contains(where), qPrintable(what));
                QVERIFY2(screen.copy(where) == blocks, qPrintable(what + QStringLiteral(": not the picture's pixels in the window")));
                if (v == views.back() && !qEnvironmentVariableIsEmpty("POSLAB_SCREENSHOT_DIR"))   // the window as the screen gets it
                    screen.save(qEnvironmentVariable("POSLAB_SCREENSHOT_DIR") + QStringLiteral("/ui_backingstore_") +
                                QString::fromLatin1(when).replace(QLatin1Char(' '), QLatin1Char('_')) + QStringLiteral(".png"));
            }
        };
        check(dpr, "before");
        QCOMPARE(w.scheduler()->display().decaySamples, samples(dpr));
        // A drag: an edit every 40 ms until each view has painted a picture of the stream (the
        // first edit is not part of one yet) — at most 5 s on a loaded machine.
        int dim = 128;
        const auto edit = [&] {
            dim = dim == 128 ? 130 : 128;
            w.scene()->edit(QStringLiteral("Head dimension"), QStringLiteral("methods.0.dim"),
                            [dim](SceneParams& s) { s.methods.front().params.dim = dim; });
        };
        edit();
        edit();
        const std::uint64_t streamed = w.scheduler()->latestGeneration();
        const auto paintedStreamed = [&] {
            return std::all_of(views.begin(), views.end(), [&](ViewBase* v) { return v->paintedGeneration() >= streamed; });
        };
        QElapsedTimer t;
        t.start();
        while (!paintedStreamed() && t.elapsed() < 5000) {
            QTest::qWait(40);
            if (!paintedStreamed()) edit();
        }
        QVERIFY(paintedStreamed());
        shot(w, QStringLiteral("streaming"));
        check(1.0, "during the stream");
        QCOMPARE(w.scheduler()->display().decaySamples, samples(1.0));
        // The edits pause: sharp again.
        QVERIFY(settle(w));
        QTRY_VERIFY_WITH_TIMEOUT(std::all_of(views.begin(), views.end(), [&](ViewBase* v) { return v->paintedResolution() == dpr; }), 5000);
        QVERIFY(settle(w));
        check(dpr, "after the stream");
        QCOMPARE(w.scheduler()->display().decaySamples, samples(dpr));
        QCOMPARE(w.decayView()->result().generation, w.decayView()->paintedGeneration());
        if (auto* formulas = w.findChild<FormulaPanel*>()) QVERIFY(formulas->waitIdle());   // (10 Hz during a drag)
        QCoreApplication::processEvents();
        shot(w, QStringLiteral("sharpened"));
    }

    // The views keep 45 % of the window: on a 1280-pixel screen (a classroom projector; text ×1.5
    // too) the teaching dock becomes a tab beside the parameters, so that the window fits the
    // screen and each plot has room; at 1920 the docks stand side by side (not with text ×1.5),
    // and a window widened again gets its teaching dock back on the right.
    void viewsKeepTheirShareOfTheWindow_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("theme");
        QTest::addColumn<double>("fontScale");
        QTest::addColumn<bool>("tabbed");
        QTest::newRow("1280x720_light") << QSize(1280, 720) << "light" << 1.0 << true;
        QTest::newRow("1280x720_projector_text1.5") << QSize(1280, 720) << "projector" << 1.5 << true;
        QTest::newRow("1920x1080_light") << QSize(1920, 1080) << "light" << 1.0 << false;
        QTest::newRow("1920x1080_dark") << QSize(1920, 1080) << "dark" << 1.0 << false;
        QTest::newRow("1920x1080_projector") << QSize(1920, 1080) << "projector" << 1.0 << false;
        // Text ×1.5 widens both docks past 55 % of the window.
        QTest::newRow("1920x1080_projector_text1.5") << QSize(1920, 1080) << "projector" << 1.5 << true;
    }
    void viewsKeepTheirShareOfTheWindow() {
        QFETCH(QSize, size);
        QFETCH(QString, theme);
        QFETCH(double, fontScale);
        QFETCH(bool, tabbed);
        MainWindow w(false);
        w.scene()->edit(QStringLiteral("look"), QString(), [&](SceneParams& s) {
            s.view.theme = theme;
            s.view.fontScale = fontScale;
        });
        QVERIFY(open(w, size));
        auto* params = w.findChild<QDockWidget*>(QStringLiteral("parametersDock"));
        auto* teach = w.findChild<QDockWidget*>(QStringLiteral("teachingDock"));
        QVERIFY(params && teach);
        QTRY_COMPARE(w.tabifiedDockWidgets(params).contains(teach), tabbed);
        QVERIFY(settle(w));
        shot(w, QStringLiteral("room_") + QString::fromLatin1(QTest::currentDataTag()));
        QVERIFY2(w.width() <= size.width(), qPrintable(QStringLiteral("window %1 px wide on a %2 px screen").arg(w.width()).arg(size.width())));
        auto* heat = w.findChild<HeatmapView*>(QStringLiteral("heatmapView"));
        auto* pairs = w.findChild<PairsView*>(QStringLiteral("pairsView"));
        QVERIFY(heat && pairs);
        QVERIFY2(heat->width() + pairs->width() >= w.width() * 45 / 100 - 16,
                 qPrintable(QStringLiteral("views %1 + %2 of %3").arg(heat->width()).arg(pairs->width()).arg(w.width())));
        // The heatmap's cells (what the renderer lays out in the view) are no thumbnail (before
        // the teaching dock made room, ×1.5 type at 1280 left them about ten pixels wide).
        const auto cells = layoutHeatmap(QRectF(QPointF(0, 0), QSizeF(heat->size())), 1, heat->theme()).front().image;
        QVERIFY2(std::min(cells.width(), cells.height()) >= (fontScale > 1 ? 100 : 150),
                 qPrintable(QStringLiteral("heatmap cells %1 × %2").arg(cells.width()).arg(cells.height())));
        if (tabbed) {   // wider again: the teaching dock goes back to the right
            teach->raise();
            QVERIFY(settle(w));
            auto* formulas = w.findChild<FormulaPanel*>();
            QVERIFY(formulas && formulas->waitIdle(5000));
            QVERIFY(settle(w));
            shot(w, QStringLiteral("room_teaching_") + QString::fromLatin1(QTest::currentDataTag()));
            w.resize(2560, size.height());
            QTRY_VERIFY(!w.tabifiedDockWidgets(params).contains(teach));
            QCOMPARE(w.dockWidgetArea(teach), Qt::RightDockWidgetArea);
            QVERIFY(teach->isVisible());
        }
    }

    // The window places its views as every figure does (ui/render/layout.h placeViews): at a
    // laptop's and a full-HD screen's size, in the projector theme with text ×1.5, in compare
    // mode, with the contributions view shown; a dragged splitter keeps its place.
    void viewsArePlacedByTheLayoutEngine_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("theme");
        QTest::addColumn<double>("fontScale");
        QTest::addColumn<int>("configs");
        QTest::addColumn<bool>("contributions");
        QTest::newRow("1920x1080_light") << QSize(1920, 1080) << "light" << 1.0 << 1 << false;
        QTest::newRow("1920x1080_projector_text1.5") << QSize(1920, 1080) << "projector" << 1.5 << 1 << false;
        QTest::newRow("1920x1080_compare3") << QSize(1920, 1080) << "light" << 1.0 << 3 << false;
        QTest::newRow("1920x1080_dark_contributions") << QSize(1920, 1080) << "dark" << 1.0 << 1 << true;
    }
    void viewsArePlacedByTheLayoutEngine() {
        QFETCH(QSize, size);
        QFETCH(QString, theme);
        QFETCH(double, fontScale);
        QFETCH(int, configs);
        QFETCH(bool, contributions);
        MainWindow w(false);
        w.scene()->edit(QStringLiteral("look"), QString(), [&](SceneParams& s) {
            s.view.theme = theme;
            s.view.fontScale = fontScale;
            s.view.showContributions = contributions;
            const Method more[] = {Method::Alibi, Method::T5, Method::Xpos};
            for (int c = 1; c < configs; ++c) {
                MethodConfig m;
                m.params.method = more[c - 1];
                s.methods.push_back(m);
            }
        });
        QVERIFY(open(w, size));
        QWidget* central = w.centralWidget();
        const Theme t = themeByName(theme, fontScale);
        const auto placed = placeViews(QRectF(QPointF(0, 0), QSizeF(central->size())), sceneArrangement(w.scene()->params()), t);
        QWidget* widgets[] = {w.pairsView(), w.heatmapView(), w.decayView(), w.frequencyView(), w.contributionsView()};
        int visible = 0;
        for (int i = 0; i < 5; ++i) visible += widgets[i]->isVisible() ? 1 : 0;
        QCOMPARE(int(placed.size()), visible);
        for (const auto& p : placed) {
            QWidget* v = widgets[int(p.view)];
            QVERIFY(v->isVisible());
            const QRect got(v->mapTo(central, QPoint(0, 0)), v->size());
            const QRectF want = p.rect;
            const auto near = [](double a, double b) { return std::abs(a - b) <= 1.5; };
            QVERIFY2(near(got.left(), want.left()) && near(got.top(), want.top()) && near(got.width(), want.width()) &&
                         near(got.height(), want.height()),
                     qPrintable(QStringLiteral("%1: window %2,%3 %4x%5, engine %6,%7 %8x%9")
                                    .arg(viewKey(p.view))
                                    .arg(got.left()).arg(got.top()).arg(got.width()).arg(got.height())
                                    .arg(want.left()).arg(want.top()).arg(want.width()).arg(want.height())));
        }
        shot(w, QStringLiteral("layout_") + QString::fromLatin1(QTest::currentDataTag()));
        // A dragged splitter keeps its place across a resize (the pairs view's column: pairs over decay).
        auto* column = qobject_cast<QSplitter*>(w.pairsView()->parentWidget());
        QVERIFY(column && column->indexOf(w.decayView()) == 1);
        const QList<int> before = column->sizes();
        Q_EMIT column->splitterMoved(before[0] - 40, 1);
        column->setSizes({before[0] - 40, before[1] + 40});
        w.resize(size + QSize(0, 1));
        QVERIFY(settle(w));
        w.resize(size);
        QVERIFY(settle(w));
        QVERIFY(std::abs(column->sizes()[0] - (before[0] - 40)) <= 1);
    }

    // The window with its docks (parameters, teaching) fits a 1280×720 screen.
    void fitsA1280By720Screen() {
        MainWindow w(false);
        QVERIFY(open(w, QSize(1280, 720)));
        QVERIFY2(w.minimumSizeHint().width() <= 1280, qPrintable(QString::number(w.minimumSizeHint().width())));
        QVERIFY2(w.minimumSizeHint().height() <= 720, qPrintable(QString::number(w.minimumSizeHint().height())));
        QCOMPARE(w.size(), QSize(1280, 720));
        shot(w, QStringLiteral("1280x720"));
    }

    void defaultSceneShowsEveryView() {
        MainWindow w(false);
        QVERIFY(open(w, QSize(1600, 1000)));
        QCOMPARE(w.pairsView()->result().configs.size(), std::size_t{1});
        QCOMPARE(w.pairsView()->result().configs[0].method, Method::Rope);
        QVERIFY(!w.pairsView()->result().configs[0].pairs.empty());
        QVERIFY(w.heatmapView()->result().panels[0].error.isEmpty());
        QCOMPARE(static_cast<std::int64_t>(w.heatmapView()->result().panels[0].queries.size()), std::int64_t{64});
        QVERIFY(!w.decayView()->result().series[0].value.empty());
        QVERIFY(!w.frequencyView()->result().configs[0].after.empty());
        shot(w, QStringLiteral("default"));
    }

    void everyMethodInEveryView_data() {
        QTest::addColumn<int>("method");
        for (Method m : kAllMethods) QTest::newRow(std::string(methodKey(m)).c_str()) << static_cast<int>(m);
    }
    void everyMethodInEveryView() {
        QFETCH(int, method);
        MainWindow w(false);
        QVERIFY(open(w, QSize(1600, 1000)));
        auto* combo = w.panel()->methodControl();
        combo->setCurrentIndex(combo->findData(method));
        QCOMPARE(static_cast<int>(w.scene()->params().methods[0].params.method), method);
        QVERIFY(settle(w));
        const auto& pr = w.pairsView()->result().configs.at(0);
        QCOMPARE(static_cast<int>(pr.method), method);
        QVERIFY2(pr.error.isEmpty(), qPrintable(pr.error));
        const auto& hm = w.heatmapView()->result().panels.at(0);
        QVERIFY2(hm.error.isEmpty(), qPrintable(hm.error));
        for (Eigen::Index i = 0; i < hm.values.size(); ++i) QVERIFY(!std::isnan(hm.values.data()[i]));
        const auto& dc = w.decayView()->result().series.at(0);
        QVERIFY2(dc.error.isEmpty(), qPrintable(dc.error));
        for (double v : dc.value) QVERIFY(std::isfinite(v));
        QVERIFY(!allText(w).contains(QStringLiteral("nan"), Qt::CaseInsensitive));
        shot(w, QStringLiteral("method_") + QString::fromUtf8(methodKey(static_cast<Method>(method)).data()));
    }

    // A config.json dropped on the window sets the active configuration (one undo step); the
    // panel's note names the file and its keys; a bad file changes nothing and names the key.
    void modelConfigDropAndOpen() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("llama.json"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(R"({"model_type":"llama","hidden_size":4096,"num_attention_heads":32,"max_position_embeddings":131072,
                "rope_theta":500000.0,"rope_scaling":{"rope_type":"llama3","factor":8.0,"low_freq_factor":1.0,
                "high_freq_factor":4.0,"original_max_position_embeddings":8192}})");
        }
        MainWindow w(false);
        QVERIFY(open(w, QSize(1400, 900)));
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&w, &drop);
        const ScoreParams& p = w.scene()->params().methods[0].params;
        QCOMPARE(p.method, Method::Rope);
        QCOMPARE(p.dim, 128);
        QCOMPARE(p.rope.base, 500000.0);
        QCOMPARE(p.rope.scaling, RopeScaling::Llama3);
        QCOMPARE(w.scene()->undoStack()->count(), 1);
        QVERIFY(settle(w));
        auto* note = w.panel()->presetNoteLabel();
        QVERIFY(note->isVisible());
        QVERIFY2(note->text().contains(QStringLiteral("llama.json")), qPrintable(note->text()));
        QVERIFY2(note->text().contains(QStringLiteral("rope_scaling.factor")), qPrintable(note->text()));
        QVERIFY(!note->text().contains(QStringLiteral("vocab_size")));
        QCOMPARE(static_cast<int>(w.frequencyView()->result().configs[0].after.size()), 64);
        shot(w, QStringLiteral("model_config_llama31"));
        w.scene()->undoStack()->undo();
        QCOMPARE(w.scene()->params().methods[0].params, ScoreParams{});
        QVERIFY(settle(w));
        QVERIFY(!note->isVisible());
        // A bad value: nothing changes, the message names the file and the key.
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(R"({"head_dim":16,"max_position_embeddings":8,"rope_scaling":{"type":"linear","factor":-2}})");
        }
        QString error;
        QVERIFY(!w.openModelConfig(bad, &error));
        QCOMPARE(error, QStringLiteral("bad.json: rope_scaling.factor must be a number from 1e-6 to 1e6, got -2"));
        QCOMPARE(w.scene()->undoStack()->index(), 0);
        // A file that is not .json/.gguf is not taken by a drop.
        QMimeData other;
        other.setUrls({QUrl::fromLocalFile(dir.filePath(QStringLiteral("notes.txt")))});
        QDragEnterEvent enter2(QPoint(50, 50), Qt::CopyAction, &other, Qt::LeftButton, Qt::NoModifier);
        enter2.setAccepted(false);
        QCoreApplication::sendEvent(&w, &enter2);
        QVERIFY(!enter2.isAccepted());
    }

    // A model configuration makes the scene its model's own (a decoder's is causal) and the note
    // under the preset selector shows the read report: the family, what was read, what is not
    // modelled with a warning line, and a warning for a family read Llama-style (issue #28).
    void modelConfigNoteShowsTheReport() {
        const QString real = QStringLiteral(POSLAB_SOURCE_DIR "/tests/data/config/real/");
        MainWindow w(false);
        QVERIFY(open(w, QSize(1600, 1000)));
        QVERIFY(w.openModelConfig(real + QStringLiteral("gemma-2-27b.json")));
        QVERIFY(settle(w));
        QVERIFY(w.scene()->params().view.causal);
        QCOMPARE(*w.scene()->params().methods[0].params.attention.softmax_scale, 1.0 / 12);
        auto* note = w.panel()->presetNoteLabel();
        QVERIFY(note->isVisible());
        QVERIFY2(note->text().contains(QStringLiteral("gemma2")) && note->text().contains(QStringLiteral("causal decoder")),
                 qPrintable(note->text()));
        QVERIFY2(note->text().contains(QStringLiteral("sliding_window")), qPrintable(note->text()));
        // The soft-cap is applied (the scene's scores are capped), so it is read, not a warning.
        QCOMPARE(w.scene()->params().methods[0].params.attention.softcap, std::optional<double>(50.0));
        QVERIFY2(note->text().contains(QStringLiteral("attn_logit_softcapping")), qPrintable(note->text()));
        // What the family's code does with the scores, in numbers: the scale 144^−½ = 1/12, the cap,
        // the layers (even ones slide).
        for (const char* says : {"modeling_gemma2.py", "scores × 0.08333 (not 1/√128", "soft-capped: s ↦ 50·tanh(s/50)",
                                 "46 layers: 23 sliding (window 4096), 23 full"})
            QVERIFY2(note->text().contains(QString::fromUtf8(says)), qPrintable(QString::fromUtf8(says) + QStringLiteral(" in ") + note->text()));
        QVERIFY2(!note->text().contains(QStringLiteral("Not modelled")) && !note->text().contains(QStringLiteral("Warning")),
                 qPrintable(note->text()));
        shot(w, QStringLiteral("model_config_gemma2_27b"));
        QVERIFY(w.openModelConfig(real + QStringLiteral("llama-3.1-8b.json")));
        QVERIFY(settle(w));
        QVERIFY2(!note->text().contains(QStringLiteral("Warning")), qPrintable(note->text()));
        QVERIFY(w.openModelConfig(real + QStringLiteral("olmo-2-7b.json")));
        QVERIFY(settle(w));
        QVERIFY2(note->text().contains(QStringLiteral("Not modelled: rms_norm_eps")), qPrintable(note->text()));
        QVERIFY2(note->text().contains(QStringLiteral("Warning: one part of this model's attention is not drawn")), qPrintable(note->text()));
        QVERIFY2(!note->text().contains(QStringLiteral("(s)")), qPrintable(note->text()));
        // DeepSeek MLA: the head is 128 unrotated + 64 rotated channels, drawn (issue 28).
        QVERIFY(w.openModelConfig(real + QStringLiteral("deepseek-v2-lite.json")));
        QVERIFY(settle(w));
        QCOMPARE(w.scene()->params().methods[0].params.dim, 192);
        QVERIFY2(note->text().contains(QStringLiteral("RoPE on 64 of the head's 192 channels, the other 128 unrotated")), qPrintable(note->text()));
        QVERIFY2(!note->text().contains(QStringLiteral("Not modelled")) && !note->text().contains(QStringLiteral("Warning")),
                 qPrintable(note->text()));
        QVERIFY(w.openModelConfig(real + QStringLiteral("internlm2-7b.json")));
        QVERIFY(settle(w));
        QVERIFY2(note->text().contains(QStringLiteral("Warning: model_type internlm2 is not in PosLab's family table")),
                 qPrintable(note->text()));
        // An encoder's scene attends both ways.
        QVERIFY(w.openModelConfig(real + QStringLiteral("snowflake-arctic-embed-m-bert.json")));
        QVERIFY(settle(w));
        QVERIFY(!w.scene()->params().view.causal);
    }

    // Opening a Qwen-VL config in the window sets the scene's M-RoPE as `--config` does on the
    // command line (cli.md "Multimodal positions"): the file's sections, θ, merge size and the
    // model's layout (Qwen3-VL interleaves); the token layout is kept and N follows its token count
    // under the new merge size. A config without M-RoPE clears the sections a previous file set.
    void qwenVlConfigSetsTheScenesSections_data() {
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QList<qint64>>("section");
        QTest::addColumn<bool>("interleaved");
        QTest::addColumn<double>("theta");
        QTest::addColumn<int>("merge");
        QTest::addColumn<qint64>("length");   // text:3,image:1x4x4,text:2 under that merge
        QTest::newRow("qwen2-vl v4 rope_scaling mrope")
            << QByteArray(R"({"model_type": "qwen2_vl", "hidden_size": 3584, "num_attention_heads": 28, "rope_theta": 1000000.0,
                "max_position_embeddings": 32768, "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]},
                "vision_config": {"spatial_merge_size": 2}})")
            << "qwen2-vl" << QList<qint64>{16, 24, 24} << false << 1e6 << 2 << qint64(3 + 4 + 2);
        QTest::newRow("qwen2.5-vl v5 merge 1")
            << QByteArray(R"({"model_type": "qwen2_5_vl", "hidden_size": 1024, "num_attention_heads": 16, "rope_theta": 1000000.0,
                "rope_parameters": {"rope_type": "default", "rope_theta": 1000000.0, "mrope_section": [8, 12, 12]},
                "vision_config": {"spatial_merge_size": 1, "tokens_per_second": 2}})")
            << "qwen2.5-vl" << QList<qint64>{8, 12, 12} << false << 1e6 << 1 << qint64(3 + 16 + 2);
        QTest::newRow("qwen3-vl v5 text_config interleaved")
            << QByteArray(R"({"model_type": "qwen3_vl", "text_config": {"model_type": "qwen3_vl_text", "head_dim": 128,
                "hidden_size": 2048, "num_attention_heads": 16, "rope_parameters": {"rope_type": "default", "rope_theta": 5000000,
                "mrope_section": [24, 20, 20], "mrope_interleaved": true}}, "vision_config": {"spatial_merge_size": 2}})")
            << "qwen3-vl" << QList<qint64>{24, 20, 20} << true << 5e6 << 2 << qint64(3 + 4 + 2);
    }
    void qwenVlConfigSetsTheScenesSections() {
        QFETCH(QByteArray, config);
        QFETCH(QString, model);
        QFETCH(QList<qint64>, section);
        QFETCH(bool, interleaved);
        QFETCH(double, theta);
        QFETCH(int, merge);
        QFETCH(qint64, length);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("config.json"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(config);
        }
        MainWindow w(false);
        QVERIFY(open(w, QSize(1600, 1000)));
        // A layout first, with sections that are not the file's.
        w.scene()->edit(QStringLiteral("layout"), QString(), [](SceneParams& p) {
            p.mrope.tokens = "text:3,image:1x4x4,text:2";
            p.methods[0].mropeSection = {8, 12, 12};
            p.methods[0].mropeLayout = MropeLayout::Sectioned;
            p.length = 9;
        });
        QVERIFY(w.openModelConfig(path));
        QVERIFY(settle(w));
        const SceneParams& s = w.scene()->params();
        QCOMPARE(QString::fromStdString(std::string(enumKey(s.mrope.model))), model);
        const MethodConfig& c = s.methods[0];
        QCOMPARE(QList<qint64>(c.mropeSection.begin(), c.mropeSection.end()), section);
        QCOMPARE(c.mropeLayout, interleaved ? MropeLayout::Interleaved : MropeLayout::Sectioned);
        QCOMPARE(s.mrope.merge, merge);
        QCOMPARE(s.methods[0].params.rope.base, theta);
        QCOMPARE(s.mrope.tokens, std::string("text:3,image:1x4x4,text:2"));
        QCOMPARE(s.length, length);
        QVERIFY2(!sceneProblem(s), qPrintable(sceneProblem(s).value_or(QString())));
        // The frequency view colours each pair by the file's axes.
        QTRY_VERIFY_WITH_TIMEOUT(!w.frequencyView()->result().configs.empty() && !w.frequencyView()->result().configs[0].axis.empty(), 10000);
        const int half = static_cast<int>(s.methods[0].params.ropeParams().rotaryDim() / 2);
        QCOMPARE(w.frequencyView()->result().configs[0].axis,
                 mropeAxes(half, c.mropeSection, c.mropeLayout).value());
        // One undo step gives the scene before the file.
        w.scene()->undoStack()->undo();
        QCOMPARE(w.scene()->params().methods[0].mropeSection, (std::vector<std::int64_t>{8, 12, 12}));
        // A file without M-RoPE: the sections go (the model's split of its own head), the layout stays.
        w.scene()->undoStack()->redo();
        QVERIFY(w.openModelConfig(QStringLiteral(POSLAB_SOURCE_DIR "/tests/data/config/real/llama-3.2-1b.json")));
        QVERIFY(w.scene()->params().methods[0].mropeSection.empty());
        QCOMPARE(w.scene()->params().mrope.tokens, std::string("text:3,image:1x4x4,text:2"));
    }

    // File → Open queries and keys: one undo step; the content selector shows "file: NAME"; every
    // view (and the contributions view) computes from the file's rows; a session naming a file
    // that is gone shows its error in the views and keeps the path.
    void realQueriesAndKeys() {
        const QString file = QStringLiteral(POSLAB_SOURCE_DIR "/tests/data/qk/3d_float32.npz");
        MainWindow w(false);
        QVERIFY(open(w, QSize(1600, 1000)));
        QVERIFY(w.openQueriesAndKeys(file));
        QCOMPARE(w.scene()->undoStack()->count(), 1);
        const SceneParams& s = w.scene()->params();
        QCOMPARE(s.qFile, file);
        QCOMPARE(s.length, std::int64_t(5));
        QCOMPARE(s.methods[0].params.dim, 8);
        auto* content = w.panel()->findChild<QComboBox*>(QStringLiteral("content"));
        QVERIFY(content);
        QCOMPARE(content->currentText(), QStringLiteral("file: 3d_float32.npz"));
        w.scene()->edit(QStringLiteral("show"), QString(), [](SceneParams& p) { p.view.showContributions = true; });
        QVERIFY(settle(w));
        QVERIFY(w.contributionsView()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!w.contributionsView()->result().configs.empty(), 10000);
        const auto& c = w.contributionsView()->result().configs[0];
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QVERIFY(c.content.contains(QStringLiteral("3d_float32.npz")));
        QVERIFY(w.heatmapView()->result().panels[0].error.isEmpty());
        // The decay is the mean over the file's rows, at the distances it holds (0 … N − 1).
        QVERIFY2(w.decayView()->result().series[0].error.isEmpty(), qPrintable(w.decayView()->result().series[0].error));
        QCOMPARE(w.decayView()->result().series[0].distance.back(), std::int64_t(4));
        // The heatmap is the file's scores (head 0): s·(R_i q_i)·(R_j k_j).
        ScoreParams p = effectiveParams(s, 0);
        QVERIFY(p.source);
        auto want = scores(p, arangePositions(0, 5), arangePositions(0, 5), 5);
        QVERIFY(want);
        QVERIFY(w.heatmapView()->result().panels[0].values == want.value());
        // The pair vectors are the file's tokens: at position 0 (no rotation) pair 0 is (q_0[0], q_0[4]).
        const Matrix q0 = p.source->rows(false, {0}), k0 = p.source->rows(true, {0});
        const auto& pair0 = w.pairsView()->result().configs[0].pairs.front();
        QCOMPARE(pair0.pair, 0);
        QCOMPARE(w.pairsView()->result().configs[0].positions.front(), std::int64_t(0));
        QCOMPARE(pair0.query.front(), QPointF(q0(0, 0), q0(0, 4)));
        QCOMPARE(pair0.key.front(), QPointF(k0(0, 0), k0(0, 4)));
        // Each view says where its rows come from.
        QCOMPARE(w.heatmapView()->result().content, QStringLiteral("file: 3d_float32.npz · head 0"));
        QVERIFY2(w.decayView()->result().series[0].note.startsWith(QStringLiteral("mean over the rows i ≥ d of file: 3d_float32.npz · head 0")),
                 qPrintable(w.decayView()->result().series[0].note));
        QVERIFY2(w.pairsView()->result().configs[0].note.startsWith(QStringLiteral("file: 3d_float32.npz · head 0")),
                 qPrintable(w.pairsView()->result().configs[0].note));
        shot(w, QStringLiteral("real_qk"));
        // Choosing another content closes the file.
        content->setCurrentIndex(content->findData(QStringLiteral("random")));
        QVERIFY(w.scene()->params().qFile.isEmpty());
        QVERIFY(content->findData(QStringLiteral("file")) < 0);
        // A scene naming a missing file: the views say so, the path stays.
        SceneParams gone = w.scene()->params();
        gone.qFile = QStringLiteral("/nonexistent/q.npz");
        w.scene()->setParams(gone);
        QVERIFY(settle(w));
        QCOMPARE(w.scene()->params().qFile, QStringLiteral("/nonexistent/q.npz"));
        QVERIFY2(w.heatmapView()->result().panels[0].error.contains(QStringLiteral("q.npz: cannot read")),
                 qPrintable(w.heatmapView()->result().panels[0].error));
        QVERIFY(w.heatmapView()->result().content.isEmpty());
    }

    void dimSliderUpdatesEveryViewWhileDragging() {
        MainWindow w(false);
        QVERIFY(open(w, QSize(1400, 900)));
        auto* slider = w.panel()->dimControl()->slider();
        slider->setSliderDown(true);          // a drag in progress: valueChanged must still apply
        slider->setValue(slider->value() + 60);
        const int dim = w.scene()->params().methods[0].params.dim;
        QVERIFY(dim > 64);
        QVERIFY(settle(w));
        QCOMPARE(static_cast<int>(w.frequencyView()->result().configs[0].after.size()), dim / 2);
        QCOMPARE(w.pairsView()->result().configs[0].pairs.back().pair, dim / 2 - 1);
        slider->setValue(slider->value() + 20);
        slider->setSliderDown(false);
        QVERIFY(settle(w));
        // One drag = one undo step.
        QCOMPARE(w.scene()->undoStack()->count(), 1);
        w.scene()->undoStack()->undo();
        QCOMPARE(w.scene()->params().methods[0].params.dim, 64);
        QVERIFY(settle(w));
        QCOMPARE(static_cast<int>(w.frequencyView()->result().configs[0].after.size()), 32);
        QCOMPARE(w.panel()->dimControl()->value(), 64.0);
    }


    // Undo and redo are the scene's wherever the focus is: a text field or spin box of the
    // panel (which would otherwise undo its own text), a view, the teaching dock.
    void undoRedoKeysReachTheSceneFromAnyField_data() {
        QTest::addColumn<QString>("focus");
        QTest::addColumn<QKeyCombination>("undoKey");
        QTest::addColumn<QKeyCombination>("redoKey");
        const QKeyCombination ctrlZ(Qt::ControlModifier, Qt::Key_Z), ctrlShiftZ(Qt::ControlModifier | Qt::ShiftModifier, Qt::Key_Z),
            ctrlY(Qt::ControlModifier, Qt::Key_Y);
        QTest::newRow("positionsLineEdit_ctrlZ_ctrlShiftZ") << QStringLiteral("positions") << ctrlZ << ctrlShiftZ;
        QTest::newRow("positionsLineEdit_ctrlZ_ctrlY") << QStringLiteral("positions") << ctrlZ << ctrlY;
        QTest::newRow("dimNumberBox_ctrlZ_ctrlShiftZ") << QStringLiteral("dimSpin") << ctrlZ << ctrlShiftZ;
        QTest::newRow("heatmapView_ctrlZ_ctrlY") << QStringLiteral("heatmapView") << ctrlZ << ctrlY;
        QTest::newRow("animationSpinBox_ctrlZ_ctrlShiftZ") << QStringLiteral("animationFrom") << ctrlZ << ctrlShiftZ;
    }
    void undoRedoKeysReachTheSceneFromAnyField() {
        QFETCH(QString, focus);
        QFETCH(QKeyCombination, undoKey);
        QFETCH(QKeyCombination, redoKey);
        MainWindow w(false);
        auto* teaching = installTeaching(&w);
        QVERIFY(open(w, QSize(1400, 900)));
        QApplication::setActiveWindow(&w);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QWidget* field = nullptr;
        if (focus == QLatin1String("dimSpin")) field = w.panel()->dimControl()->edit();
        else if (focus == QLatin1String("heatmapView")) field = w.heatmapView();
        else if (focus == QLatin1String("animationFrom")) field = teaching->animationPanel()->findChild<QSpinBox*>();
        else field = w.panel()->findChild<QLineEdit*>(focus);
        QVERIFY(field);
        field->setFocusPolicy(std::max(field->focusPolicy(), Qt::ClickFocus));
        if (focus == QLatin1String("animationFrom")) {
            teaching->dock()->show();
            teaching->tabs()->setCurrentWidget(teaching->animationPanel());
        }
        field->setFocus();
        QTRY_VERIFY(field->hasFocus());
        // The field's own text has something to undo (typed, not committed).
        if (auto* line = qobject_cast<QLineEdit*>(field)) {
            line->end(false);
            QTest::keyClicks(line, QStringLiteral(",3"));
            QVERIFY(line->isUndoAvailable());
        }
        const SceneParams before = w.scene()->params();
        w.scene()->edit(QStringLiteral("length"), QString(), [](SceneParams& s) { s.length = 99; });
        const SceneParams after = w.scene()->params();
        QVERIFY(!(after == before));
        QTest::keyClick(field, undoKey.key(), undoKey.keyboardModifiers());
        QCOMPARE(w.scene()->params().length, before.length);
        QCOMPARE(w.scene()->undoStack()->index(), 0);
        QTest::keyClick(field, redoKey.key(), redoKey.keyboardModifiers());
        QCOMPARE(w.scene()->params().length, 99);
        QCOMPARE(w.scene()->undoStack()->index(), 1);
    }

    // A drag must only repaint what changed: nothing that follows an edit (the teaching dock's
    // focus ranges, its score line and formula sheets) may ask the main window for a new layout,
    // which would re-lay out and repaint the whole window on every edit.
    void sliderDragDoesNotRelayTheWindowOut() {
        MainWindow w(false);
        auto* teaching = installTeaching(&w);
        QVERIFY(open(w, QSize(1600, 1000)));
        QVERIFY(teaching->formulaPanel()->waitIdle());
        QCoreApplication::processEvents();
        struct Counter : QObject {
            int layouts = 0;
            bool eventFilter(QObject*, QEvent* e) override {
                if (e->type() == QEvent::LayoutRequest) ++layouts;
                return false;
            }
        } counter;
        w.installEventFilter(&counter);
        for (auto* slider : {w.panel()->dimControl()->slider(), w.panel()->baseControl()->slider()}) {
            slider->setSliderDown(true);
            for (int i = 0; i < 12; ++i) {
                slider->setValue(slider->value() + 1);
                QVERIFY(settle(w));
                QVERIFY(teaching->formulaPanel()->waitIdle());
                QCoreApplication::processEvents();
            }
            slider->setSliderDown(false);
        }
        QVERIFY(settle(w));
        QVERIFY(w.scene()->params().methods[0].params.dim > 64);
        QCOMPARE(counter.layouts, 0);
    }

    // The extremes the panel accepts: the GUI thread never works for 100 ms on one edit or one
    // repaint, the worker finishes, and every view shows numbers or the core's message.
    void extremeValuesDoNotFreeze_data() {
        QTest::addColumn<int>("which");
        const char* names[] = {"rope_d4096_N65536", "rope_base1e9_yarn_N65536", "rope_softmax_N65536_random", "alibi_heads4096",
                               "t5_buckets1024_heads256_N65536", "shaw_k4096_d4096", "learned_table65536_d1024",
                               "transformer-xl_d4096", "xpos_scale_base1_N65536", "sinusoidal_d4096_N65536_formula",
                               "decay_max_distance_1048576_log"};
        for (int i = 0; i < 11; ++i) QTest::newRow(names[i]) << i;
    }
    void extremeValuesDoNotFreeze() {
        QFETCH(int, which);
        MainWindow w(false);
        QVERIFY(open(w, QSize(1600, 1000)));
        SceneParams s = w.scene()->params();
        auto& p = s.methods[0].params;
        switch (which) {
        case 0: p.dim = 4096; s.length = 65536; break;
        case 1: p.rope.base = 1e9; p.rope.scaling = RopeScaling::Yarn; p.rope.factor = 32; p.rope.original_max_positions = 2048; s.length = 65536; break;
        case 2: s.view.softmax = true; p.content = Content::Random; s.length = 65536; break;
        case 3: p.method = Method::Alibi; p.alibi.heads = 4096; s.head = 4095; break;
        case 4: p.method = Method::T5; p.t5.num_buckets = 1024; p.t5.heads = 256; p.t5.max_distance = 1000000; s.length = 65536; break;
        case 5: p.method = Method::Shaw; p.shaw.max_relative_position = 4096; p.dim = 4096; break;
        case 6: p.method = Method::Learned; p.learned.table_size = 65536; p.dim = 1024; s.length = 65536; break;
        case 7: p.method = Method::TransformerXL; p.dim = 4096; s.length = 4096; break;
        case 8: p.method = Method::Xpos; p.xpos.scale_base = 1; s.length = 65536; break;
        case 9: p.method = Method::Sinusoidal; p.dim = 4096; p.content = Content::Formula; s.length = 65536; break;
        case 10: s.view.decayMaxDistance = 1 << 20; s.view.decayLogX = true; s.view.decayLogY = true; break;
        }
        // Every Scene::changed listener is connected (panel, views, teaching, session actions):
        // the GUI thread's own CPU time is what is measured, so that other processes on a busy
        // machine do not count; the wall clock only has to show no hang.
        GuiWork t;
        w.scene()->apply(QStringLiteral("extreme"), s);
        QVERIFY2(t.cpuMs() < 100, qPrintable(QStringLiteral("edit took %1 ms of GUI-thread CPU").arg(t.cpuMs())));
        QVERIFY2(t.wallMs() < 1000, qPrintable(QStringLiteral("edit took %1 ms").arg(t.wallMs())));
        QVERIFY(settle(w, 120000));
        for (QWidget* v : {static_cast<QWidget*>(w.pairsView()), static_cast<QWidget*>(w.heatmapView()),
                           static_cast<QWidget*>(w.decayView()), static_cast<QWidget*>(w.frequencyView())}) {
            t = GuiWork();
            v->repaint();
            QVERIFY2(t.cpuMs() < 100, qPrintable(QStringLiteral("%1 repaint took %2 ms of CPU").arg(v->objectName()).arg(t.cpuMs())));
        }
        for (const auto& panel : w.heatmapView()->result().panels) {
            QVERIFY(panel.values.rows() <= 2048 && panel.values.cols() <= 2048);
            for (Eigen::Index i = 0; i < panel.values.size(); ++i) QVERIFY(!std::isnan(panel.values.data()[i]));
        }
        for (const auto& ser : w.decayView()->result().series)
            for (double v : ser.value) QVERIFY(!std::isnan(v));
        QVERIFY(!allText(w).contains(QStringLiteral("nan"), Qt::CaseInsensitive));
        const QString tip = w.heatmapView()->toolTipAt(QPoint(w.heatmapView()->width() / 2, w.heatmapView()->height() / 2));
        QVERIFY(!tip.contains(QStringLiteral("nan")));
        shot(w, QStringLiteral("extreme_%1").arg(which));
    }

    void compareModeWithDifference() {
        MainWindow w(false);
        w.resize(1700, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.scene()->addConfig();
        QCOMPARE(w.scene()->activeConfig(), 1);
        w.scene()->editActive(QStringLiteral("YaRN"), QString(), [](MethodConfig& c) {
            c.params.rope.scaling = RopeScaling::Yarn;
            c.params.rope.factor = 4.0;
            c.params.rope.max_positions = 64;
            c.params.rope.original_max_positions = 16;
        });
        QVERIFY(settle(w));
        const auto& hm = w.heatmapView()->result();
        QCOMPARE(hm.panels.size(), std::size_t{3});
        QVERIFY(hm.panels[2].difference);
        QVERIFY2(hm.panels[1].error.isEmpty(), qPrintable(hm.panels[1].error));
        // Linked colour range across A and B.
        QCOMPARE(hm.panels[0].lo, hm.panels[1].lo);
        QCOMPARE(hm.panels[0].hi, hm.panels[1].hi);
        // The difference is B − A, entry by entry.
        QCOMPARE(hm.panels[2].values(3, 1), hm.panels[1].values(3, 1) - hm.panels[0].values(3, 1));
        QCOMPARE(w.decayView()->result().series.size(), std::size_t{2});
        const auto& fr = w.frequencyView()->result().configs;
        QVERIFY(fr[1].scaled);
        QVERIFY(fr[1].after.back() < fr[1].before.back());   // low frequencies divided by the factor
        shot(w, QStringLiteral("compare_rope_yarn"));
    }

    void presetSetsPositionalParameters() {
        if (modelPresets().empty()) QSKIP("no presets");
        MainWindow w(false);
        w.show();
        const auto& preset = modelPresets().back();
        w.panel()->applyPreset(QString::fromStdString(preset.key));
        QCOMPARE(w.scene()->params().presetKey, QString::fromStdString(preset.key));
        QVERIFY((w.scene()->params().methods[0].params == preset.params));
        QVERIFY(settle(w));
        QVERIFY(!sceneProblem(w.scene()->params()));
        w.scene()->undoStack()->undo();
        QVERIFY(w.scene()->params().presetKey.isEmpty());
    }

    void invalidCombinationShowsTheCoresMessage() {
        MainWindow w(false);
        w.show();
        w.scene()->editActive(QStringLiteral("odd"), QString(), [](MethodConfig& c) { c.params.dim = 63; });
        QVERIFY(settle(w));
        QVERIFY(w.panel()->problemLabel()->isVisibleTo(&w));
        const QString expected = QString::fromStdString(effectiveParams(w.scene()->params(), 0).validate()->message());
        QCOMPARE(w.panel()->problemLabel()->text(), expected);
        QCOMPARE(w.heatmapView()->result().panels[0].error, expected);
        QVERIFY(!w.heatmapView()->toolTipAt(QPoint(300, 300)).contains(QStringLiteral("nan")));
    }

    // The workers draw each view with its renderer (Scheduler::setRender) and the view copies
    // the picture: after any change the views settle on a picture of their size and theme, and
    // its pixels are the renderer's for the result the view holds (what export draws).
    void viewsShowTheRenderersPicture_data() {
        QTest::addColumn<QString>("change");
        for (const char* c : {"default", "dark_theme", "resized", "compare_mode", "alibi_large_text"}) QTest::newRow(c) << QString::fromLatin1(c);
    }
    void viewsShowTheRenderersPicture() {
        QFETCH(QString, change);
        MainWindow w(false);
        auto* teaching = installTeaching(&w);
        QVERIFY(open(w, QSize(1500, 950)));
        if (change == QLatin1String("dark_theme"))
            w.scene()->edit(QStringLiteral("theme"), QString(), [](SceneParams& s) { s.view.theme = QStringLiteral("dark"); });
        if (change == QLatin1String("resized")) w.resize(1100, 760);
        if (change == QLatin1String("compare_mode")) {
            w.scene()->addConfig();
            w.scene()->editActive(QStringLiteral("base"), QStringLiteral("rope.base"), [](MethodConfig& c) { c.params.rope.base = 500000; });
        }
        if (change == QLatin1String("alibi_large_text"))
            w.scene()->edit(QStringLiteral("alibi"), QString(), [](SceneParams& s) {
                s.methods[0].params.method = Method::Alibi;
                s.view.fontScale = 1.6;
            });
        QVERIFY(settle(w));
        QVERIFY(teaching->formulaPanel()->waitIdle());
        QCoreApplication::processEvents();
        const auto direct = [](ViewBase* v, auto render, const auto& result) {
            // At device pixels (QT_SCALE_FACTOR=2 runs this at a device pixel ratio of 2).
            QImage img(pictureSize(v->size(), v->devicePixelRatioF()), QImage::Format_RGB32);
            img.setDevicePixelRatio(v->devicePixelRatioF());
            QPainter p(&img);
            render(p, QRectF(QPointF(0, 0), QSizeF(v->size())), result, v->theme());
            return img;
        };
        const auto check = [&](ViewBase* v, const QImage& expected) {
            const QImage shown = v->grab().toImage().convertToFormat(QImage::Format_RGB32);
            QVERIFY2(v->paintedFromPicture(), qPrintable(v->objectName() + QStringLiteral(" drew itself instead of its picture")));
            QCOMPARE(shown.size(), expected.size());
            QVERIFY2(shown == expected, qPrintable(v->objectName() + QStringLiteral(": the picture differs from the renderer's drawing")));
        };
        check(w.pairsView(), direct(w.pairsView(), renderPairs, w.pairsView()->result()));
        check(w.heatmapView(), direct(w.heatmapView(), renderHeatmap, w.heatmapView()->result()));
        check(w.frequencyView(), direct(w.frequencyView(), renderFrequencies, w.frequencyView()->result()));
        QCOMPARE(w.heatmapView()->theme().name, w.scene()->params().view.theme);
        // The formula sheets: drawn on the formula worker, copied by the views.
        for (FormulaView* f : {teaching->formulaPanel()->definitionsView(), teaching->formulaPanel()->numbersView()}) {
            if (!f->isVisible()) continue;
            const QImage sheet = f->grab().toImage();
            QVERIFY2(f->paintedFromDrawing(), qPrintable(f->objectName()));
            QCOMPARE(QColor(sheet.pixel(2, 2)), themeByName(w.scene()->params().view.theme).background);
        }
    }

    void themesRender_data() {
        QTest::addColumn<QString>("theme");
        QTest::newRow("dark") << QStringLiteral("dark");
        QTest::newRow("projector") << QStringLiteral("projector");
    }
    void themesRender() {
        QFETCH(QString, theme);
        MainWindow w(false);
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.scene()->edit(QStringLiteral("theme"), QString(), [&](SceneParams& s) { s.view.theme = theme; });
        QVERIFY(settle(w));
        QCOMPARE(w.heatmapView()->theme().name, theme);
        const QImage img = w.heatmapView()->grab().toImage();
        QCOMPARE(QColor(img.pixel(2, 2)), themeByName(theme).background);
        shot(w, QStringLiteral("theme_") + theme);
        // The decay chart in the theme too: the worker's picture, drawn in it, on screen.
        QTRY_VERIFY(w.decayView()->paintedFromPicture());
        const QImage decay = w.decayView()->grab().toImage();
        QCOMPARE(QColor(decay.pixel(2, 2)), themeByName(theme).background);
        QCOMPARE(w.decayView()->result().picture.theme, themeKey(w.decayView()->theme()));
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_mainwindow.moc"
