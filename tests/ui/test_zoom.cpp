// Zoom and pan (issue 11, part 2): the view window is scene state. Its arithmetic (zoom about a
// point, pan, rectangle), clipping to the sequence, sessions and undo, the computations that
// compute only the window, and the heatmap and decay views driven by wheel, drag, rubber band,
// double-click and Home as a user drives them (offscreen). With POSLAB_SCREENSHOT_DIR set it
// saves screenshots of a zoomed heatmap (with the hover tooltip) and a zoomed decay chart.
#include "core/decay.h"
#include "core/scores.h"
#include "ui/model/compute.h"
#include "ui/window/mainwindow.h"
#include "ui/render/heatmaprenderer.h"
#include "ui/render/plot.h"
#include "ui/model/scene.h"
#include "ui/views/scheduler.h"
#include "ui/io/session.h"
#include "ui/views/views.h"
#include "ui/views/zoom.h"
#include "support/windowsupport.h"

#include <QApplication>
#include <QLabel>
#include <QPainter>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QNativeGestureEvent>
#include <QPointingDevice>
#include <QWheelEvent>
#include <QtTest>

using namespace poslab;
using namespace poslab::ui;

Q_DECLARE_METATYPE(poslab::ui::ViewWindow)
Q_DECLARE_METATYPE(poslab::ui::SceneParams)
Q_DECLARE_METATYPE(std::vector<std::int64_t>)

namespace {

QString text(const ViewWindow& w) { return QStringLiteral("[%1, %2)").arg(w.from).arg(w.to); }
#define COMPARE_WINDOW(got, want) QVERIFY2((got) == (want), qPrintable(text(got) + QStringLiteral(" != ") + text(want)))

bool settle(MainWindow& w) { return testsupport::settleHeatmapAndDecay(w); }

bool open(MainWindow& w) {
    w.resize(1500, 950);
    w.show();
    return QTest::qWaitForWindowExposed(&w) && settle(w);
}

void wheel(QWidget* target, const QPointF& at, int notches, Qt::KeyboardModifiers mods = Qt::NoModifier) {
    QWheelEvent e(at, target->mapToGlobal(at), QPoint(), QPoint(0, 120 * notches), Qt::NoButton, mods, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(target, &e);
}

// The first heatmap panel's cell area in the view's coordinates.
QRectF heatImage(HeatmapView* v) {
    return layoutHeatmap(QRectF(v->rect()), std::max<int>(1, int(v->result().panels.size())), v->theme()).front().image;
}

// The widget point of the centre of heatmap cell (query, key) for the view's current window.
QPoint cellCentre(HeatmapView* v, std::int64_t query, std::int64_t key) {
    const QRectF img = heatImage(v);
    const ViewWindow q = v->queryWindow(), k = v->keyWindow();
    return QPointF(img.left() + (double(key - k.from) + 0.5) / double(k.size()) * img.width(),
                   img.top() + (double(query - q.from) + 0.5) / double(q.size()) * img.height())
        .toPoint();
}

// The decay plot area in the view's coordinates.
QRectF decayPlot(DecayView* v) { return v->chart().plot; }

void shot(const QImage& img, const QString& name) {
    const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR");
    if (!dir.isEmpty()) img.save(dir + QStringLiteral("/zoom_") + name + QStringLiteral(".png"));
}

// The window's picture with the tooltip (a window of its own) drawn where Qt puts it on a large
// screen, just below and right of the mouse at `at` (the offscreen screen is 800 × 600 and
// would push it aside).
QImage withToolTip(QWidget* w, const QPoint& at) {
    QImage img = w->window()->grab().toImage();
    for (QWidget* top : QApplication::topLevelWidgets()) {
        if (top->inherits("QTipLabel") && top->isVisible()) {
            QPainter p(&img);
            p.drawPixmap(w->mapTo(w->window(), at) + QPoint(2, 16), top->grab());
        }
    }
    return img;
}

}  // namespace

class TestZoom : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("PosLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("test_zoom"));
        QSettings().clear();
    }

    // ---- Arithmetic ------------------------------------------------------------------------------

    void zoomWindowKeepsThePointUnderTheMouse_data() {
        QTest::addColumn<ViewWindow>("window");
        QTest::addColumn<double>("anchor");
        QTest::addColumn<double>("factor");
        QTest::addColumn<ViewWindow>("want");
        QTest::newRow("0:64 in x0.5 about 32") << ViewWindow{0, 64} << 32.0 << 0.5 << ViewWindow{16, 48};
        QTest::newRow("0:64 in x0.5 about 0") << ViewWindow{0, 64} << 0.0 << 0.5 << ViewWindow{0, 32};
        QTest::newRow("0:64 in x0.5 about 64") << ViewWindow{0, 64} << 64.0 << 0.5 << ViewWindow{32, 64};
        QTest::newRow("48:64 out x2 about 64") << ViewWindow{48, 64} << 64.0 << 2.0 << ViewWindow{32, 64};
        QTest::newRow("16:48 out x4 clips to 0:64") << ViewWindow{16, 48} << 20.0 << 4.0 << ViewWindow{0, 64};
        QTest::newRow("10:12 in x0.8 shrinks by one") << ViewWindow{10, 12} << 11.0 << 0.8 << ViewWindow{11, 12};
        QTest::newRow("5:6 in stays one cell") << ViewWindow{5, 6} << 5.5 << 0.5 << ViewWindow{5, 6};
        QTest::newRow("5:6 out x1.1 about 5.9 grows by one") << ViewWindow{5, 6} << 5.9 << 1.1 << ViewWindow{4, 6};
        QTest::newRow("5:6 out x1.1 about 5.1 grows by one") << ViewWindow{5, 6} << 5.1 << 1.1 << ViewWindow{5, 7};
    }
    void zoomWindowKeepsThePointUnderTheMouse() {
        QFETCH(ViewWindow, window);
        QFETCH(double, anchor);
        QFETCH(double, factor);
        QFETCH(ViewWindow, want);
        COMPARE_WINDOW(zoomWindow(window, anchor, factor, 0, 64), want);
    }

    void panAndSpanWindows_data() {
        QTest::addColumn<ViewWindow>("got");
        QTest::addColumn<ViewWindow>("want");
        QTest::newRow("pan 10:20 by +5") << panWindow({10, 20}, 5, 0, 64) << ViewWindow{15, 25};
        QTest::newRow("pan 10:20 by -15 stops at 0") << panWindow({10, 20}, -15, 0, 64) << ViewWindow{0, 10};
        QTest::newRow("pan 50:60 by +10 stops at 64") << panWindow({50, 60}, 10, 0, 64) << ViewWindow{54, 64};
        QTest::newRow("span 2.3..7.6") << spanWindow(2.3, 7.6, 0, 64) << ViewWindow{2, 8};
        QTest::newRow("span 7.6..2.3") << spanWindow(7.6, 2.3, 0, 64) << ViewWindow{2, 8};
        QTest::newRow("span 3..3 is one cell") << spanWindow(3, 3, 0, 64) << ViewWindow{3, 4};
        QTest::newRow("span -5..100 clips") << spanWindow(-5, 100, 0, 64) << ViewWindow{0, 64};
    }
    void panAndSpanWindows() {
        QFETCH(ViewWindow, got);
        QFETCH(ViewWindow, want);
        COMPARE_WINDOW(got, want);
    }

    void windowIsClippedToTheSequence_data() {
        QTest::addColumn<qint64>("from");   // -1 = unset
        QTest::addColumn<qint64>("to");
        QTest::addColumn<qint64>("length");
        QTest::addColumn<ViewWindow>("want");
        QTest::newRow("unset N=64") << qint64(-1) << qint64(-1) << qint64(64) << ViewWindow{0, 64};
        QTest::newRow("10:20 N=64") << qint64(10) << qint64(20) << qint64(64) << ViewWindow{10, 20};
        QTest::newRow("from 10 N=64") << qint64(10) << qint64(-1) << qint64(64) << ViewWindow{10, 64};
        QTest::newRow("10:100 N=64") << qint64(10) << qint64(100) << qint64(64) << ViewWindow{10, 64};
        QTest::newRow("70:80 N=64 (outside)") << qint64(70) << qint64(80) << qint64(64) << ViewWindow{0, 64};
    }
    void windowIsClippedToTheSequence() {
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        QFETCH(qint64, length);
        QFETCH(ViewWindow, want);
        SceneParams s;
        s.length = length;
        if (from >= 0) s.view.heatmapQueryFrom = s.view.heatmapKeyFrom = from;
        if (to >= 0) s.view.heatmapQueryTo = s.view.heatmapKeyTo = to;
        COMPARE_WINDOW(heatmapQueryWindow(s), want);
        COMPARE_WINDOW(heatmapKeyWindow(s), want);
        // The same numbers as a decay window with max distance length − 1.
        s.view.decayMaxDistance = length - 1;
        if (from >= 0) s.view.decayFrom = from;
        if (to >= 0) s.view.decayTo = to;
        COMPARE_WINDOW(decayWindow(s), want);
    }

    void wholeWindowIsStoredUnset() {
        SceneParams s;
        setHeatmapWindow(s, {0, 64}, {0, 64});
        setDecayWindow(s, {0, 257});
        QCOMPARE(s, SceneParams{});
        setHeatmapWindow(s, {3, 9}, {0, 64});
        QCOMPARE(s.view.heatmapQueryFrom, std::optional<std::int64_t>(3));
        QCOMPARE(s.view.heatmapKeyFrom, std::optional<std::int64_t>());
        QVERIFY(s != SceneParams{});
    }

    void emptyWindowIsAProblemNamingTheField() {
        SceneParams s;
        s.view.decayFrom = 20;
        s.view.decayTo = 10;
        const auto p = sceneProblem(s);
        QVERIFY(p);
        QVERIFY2(p->startsWith(QStringLiteral("decay_from: less than decay_to (10), got 20")), qPrintable(*p));
        s.view.decayTo = 21;
        QVERIFY(!sceneProblem(s));
    }

    // ---- Sessions and undo -----------------------------------------------------------------------

    void windowRoundTripsThroughSessions_data() {
        QTest::addColumn<SceneParams>("scene");
        SceneParams a;
        a.view.heatmapQueryFrom = 10;
        a.view.heatmapQueryTo = 20;
        QTest::newRow("heatmap queries 10:20") << a;
        SceneParams b;
        b.length = 4096;
        setHeatmapWindow(b, {100, 4096}, {0, 7});
        QTest::newRow("N=4096 queries 100:, keys :7") << b;
        SceneParams c;
        c.view.decayMaxDistance = 100000;
        setDecayWindow(c, {5000, 5100});
        QTest::newRow("decay 5000:5100 of 100000") << c;
        SceneParams d;
        d.view.decayLogX = true;
        setDecayWindow(d, {1, 50});
        QTest::newRow("log decay :50") << d;
    }
    void windowRoundTripsThroughSessions() {
        QFETCH(SceneParams, scene);
        QVERIFY(scene != SceneParams{} || scene.view.decayTo);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("zoom.poslab"));
        QString error;
        QVERIFY2(saveSession(path, scene, &error), qPrintable(error));
        const auto back = loadSession(path, &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(*back, scene);
        QCOMPARE(heatmapQueryWindow(*back), heatmapQueryWindow(scene));
        QCOMPARE(decayWindow(*back), decayWindow(scene));
        // The session spells the window as the table names it.
        const QByteArray json = sceneToJson(scene);
        QVERIFY(json.contains("\"heatmap_query_from\""));
        QVERIFY(json.contains("\"decay_to\""));
    }

    void sessionWithBadWindowIsOneLineNamingTheField_data() {
        QTest::addColumn<QStringList>("values");   // key=value set in the view object
        QTest::addColumn<QString>("message");
        QTest::newRow("heatmap_query_from -1") << QStringList{"heatmap_query_from=-1"} << QStringLiteral("heatmap_query_from: an integer from 0 to 1048575, got -1");
        QTest::newRow("heatmap_key_to 1048577") << QStringList{"heatmap_key_to=1048577"} << QStringLiteral("heatmap_key_to: an integer from 1 to 1048576, got 1048577");
        QTest::newRow("decay_to 0") << QStringList{"decay_to=0"} << QStringLiteral("decay_to: an integer from 1 to 1048577, got 0");
        QTest::newRow("decay_from 1.5") << QStringList{"decay_from=1.5"} << QStringLiteral("decay_from");
        QTest::newRow("decay_from 9, decay_to 9") << QStringList{"decay_from=9", "decay_to=9"}
                                                  << QStringLiteral("decay_from: less than decay_to (9), got 9");
    }
    void sessionWithBadWindowIsOneLineNamingTheField() {
        QFETCH(QStringList, values);
        QFETCH(QString, message);
        QByteArray json = sceneToJson(SceneParams{});
        for (const QString& kv : values) {
            const QByteArray key = "\"" + kv.section(QLatin1Char('='), 0, 0).toUtf8() + "\": ";
            QVERIFY(json.contains(key + "null"));
            json.replace(key + "null", key + kv.section(QLatin1Char('='), 1).toUtf8());
        }
        QString error;
        const auto s = sessionFromJson(json, QStringLiteral("test"), &error);
        QVERIFY(!s);
        QVERIFY2(error.contains(message) && !error.contains(QLatin1Char('\n')), qPrintable(error));
    }

    void zoomGesturesAreUndoStepsMergedWhileDragging() {
        Scene scene;
        // A wheel run: three edits of the window merge into one step.
        for (std::int64_t to : {48, 40, 32}) scene.edit(QStringLiteral("zoom"), QStringLiteral("view.heatmap_window"), [&](SceneParams& s) {
            setHeatmapWindow(s, {0, to}, {0, to});
        });
        QCOMPARE(scene.undoStack()->count(), 1);
        scene.finishMerge();   // a new gesture
        scene.edit(QStringLiteral("pan"), QStringLiteral("view.heatmap_window"), [&](SceneParams& s) { setHeatmapWindow(s, {8, 40}, {8, 40}); });
        QCOMPARE(scene.undoStack()->count(), 2);
        QCOMPARE(heatmapQueryWindow(scene.params()), (ViewWindow{8, 40}));
        scene.undoStack()->undo();
        QCOMPARE(heatmapQueryWindow(scene.params()), (ViewWindow{0, 32}));
        scene.undoStack()->undo();
        QCOMPARE(scene.params(), SceneParams{});
        scene.undoStack()->redo();
        QCOMPARE(heatmapKeyWindow(scene.params()), (ViewWindow{0, 32}));
    }

    // ---- Computations: only the window ----------------------------------------------------------

    void heatmapComputesExactlyTheWindow_data() {
        QTest::addColumn<int>("method");
        QTest::addColumn<ViewWindow>("queries");
        QTest::addColumn<ViewWindow>("keys");
        for (Method m : {Method::Rope, Method::Alibi, Method::T5, Method::Sinusoidal, Method::Xpos})
            for (auto [q, k] : {std::pair{ViewWindow{10, 14}, ViewWindow{0, 5}}, std::pair{ViewWindow{50, 64}, ViewWindow{30, 64}}})
                QTest::newRow(qPrintable(QStringLiteral("%1 i %2:%3 j %4:%5").arg(QString::fromUtf8(methodKey(m).data())).arg(q.from).arg(q.to).arg(k.from).arg(k.to)))
                    << int(m) << q << k;
    }
    void heatmapComputesExactlyTheWindow() {
        QFETCH(int, method);
        QFETCH(ViewWindow, queries);
        QFETCH(ViewWindow, keys);
        SceneParams s;
        s.methods.front().params.method = Method(method);
        s.methods.front().params.content = Content::Random;
        setHeatmapWindow(s, queries, keys);
        const HeatmapResult r = computeHeatmap(s);
        const HeatmapPanel& p = r.panels.front();
        QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
        QCOMPARE(p.queries, arangePositions(queries.from, queries.to));
        QCOMPARE(p.keys, arangePositions(keys.from, keys.to));
        // The same numbers as the whole matrix at those cells.
        const auto whole = scores(effectiveParams(s, 0), arangePositions(0, 64), arangePositions(0, 64), 64);
        QVERIFY(whole);
        for (Eigen::Index i = 0; i < p.values.rows(); ++i)
            for (Eigen::Index j = 0; j < p.values.cols(); ++j)
                QCOMPARE(p.values(i, j), whole.value()(queries.from + i, keys.from + j));
        QCOMPARE(r.queryFrom, queries.from);
        QCOMPARE(r.keyTo, keys.to);
    }

    // A long window is aggregated like the whole matrix (H9's exact blocks), over the window only:
    // each block's mean/max/min equals that of its cells computed one by one.
    void heatmapAggregatesWithinALongWindow_data() {
        QTest::addColumn<int>("method");
        QTest::addColumn<int>("aggregate");
        for (Method m : {Method::Rope, Method::Alibi})
            for (Aggregate a : {Aggregate::Mean, Aggregate::Max, Aggregate::Min})
                QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(QString::fromUtf8(methodKey(m).data()),
                                                                      QString::fromUtf8(enumKey(a).data()))))
                    << int(m) << int(a);
    }
    void heatmapAggregatesWithinALongWindow() {
        QFETCH(int, method);
        QFETCH(int, aggregate);
        SceneParams s;
        s.length = 65536;
        s.methods.front().params.method = Method(method);
        s.methods.front().params.precision = Precision::Double;
        s.view.aggregate = Aggregate(aggregate);
        setHeatmapWindow(s, {1000, 9000}, {60000, 65536});
        DisplaySpec d;
        d.heatmapCells = 100;
        const HeatmapPanel p = computeHeatmap(s, d).panels.front();
        QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
        QCOMPARE(int(p.cells), int(HeatmapCells::Aggregate));
        QCOMPARE(p.queryRanges.front().from, std::int64_t{1000});
        QCOMPARE(p.queryRanges.back().to, std::int64_t{9000});
        QCOMPARE(p.keyRanges.front().from, std::int64_t{60000});
        QCOMPARE(p.keyRanges.back().to, std::int64_t{65536});
        QCOMPARE(p.queryRanges.size(), std::size_t{100});
        const ScoreParams params = effectiveParams(s, 0);
        for (auto [r, c] : {std::pair<std::size_t, std::size_t>{0, 0}, {37, 61}, {99, p.keyRanges.size() - 1}}) {
            const auto& qr = p.queryRanges[r];
            const auto& kr = p.keyRanges[c];
            const auto cells = scores(params, arangePositions(qr.from, qr.to), arangePositions(kr.from, kr.to), s.length);
            QVERIFY(cells);
            const Matrix& m = cells.value();
            const double want = Aggregate(aggregate) == Aggregate::Mean ? m.mean()
                                : Aggregate(aggregate) == Aggregate::Max ? m.maxCoeff()
                                                                         : m.minCoeff();
            const double got = p.values(Eigen::Index(r), Eigen::Index(c));
            QVERIFY2(std::abs(got - want) <= 1e-9 * std::max(1.0, std::abs(want)),
                     qPrintable(QStringLiteral("block %1,%2: %3 != %4").arg(r).arg(c).arg(got, 0, 'g', 17).arg(want, 0, 'g', 17)));
        }
    }

    void decayComputesExactlyTheWindow_data() {
        QTest::addColumn<int>("method");
        QTest::addColumn<ViewWindow>("window");
        QTest::addColumn<bool>("logX");
        for (Method m : {Method::Rope, Method::Alibi, Method::T5, Method::TransformerXL})
            for (auto w : {ViewWindow{100, 140}, ViewWindow{0, 3}, ViewWindow{250, 257}})
                QTest::newRow(qPrintable(QStringLiteral("%1 %2:%3").arg(QString::fromUtf8(methodKey(m).data())).arg(w.from).arg(w.to)))
                    << int(m) << w << false;
        QTest::newRow("rope log 10:20") << int(Method::Rope) << ViewWindow{10, 20} << true;
    }
    void decayComputesExactlyTheWindow() {
        QFETCH(int, method);
        QFETCH(ViewWindow, window);
        QFETCH(bool, logX);
        SceneParams s;
        s.methods.front().params.method = Method(method);
        s.view.decayLogX = logX;
        setDecayWindow(s, window);
        const DecayResult r = computeDecay(s);
        const DecaySeries& d = r.series.front();
        QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
        std::vector<std::int64_t> want;
        for (auto x = window.from; x < window.to; ++x) want.push_back(x);
        QCOMPARE(d.distance, want);
        const auto whole = decayCurve(effectiveParams(s, 0), 256);
        QVERIFY(whole);
        for (std::size_t k = 0; k < want.size(); ++k) QCOMPARE(d.value[k], whole.value().value(want[k]));
        QCOMPARE(r.distanceFrom, window.from);
        QCOMPARE(r.distanceTo, window.to);
    }

    // ---- The views, driven by the mouse and keys --------------------------------------------------

    void heatmapWheelZoomsAboutTheMouse_data() {
        QTest::addColumn<qint64>("query");
        QTest::addColumn<qint64>("key");
        QTest::newRow("cell i 40 j 20") << qint64(40) << qint64(20);
        QTest::newRow("cell i 0 j 63") << qint64(0) << qint64(63);
        QTest::newRow("cell i 31 j 31") << qint64(31) << qint64(31);
    }
    void heatmapWheelZoomsAboutTheMouse() {
        QFETCH(qint64, query);
        QFETCH(qint64, key);
        MainWindow w(false);
        QVERIFY(open(w));
        auto* v = w.heatmapView();
        const QPoint at = cellCentre(v, query, key);
        wheel(v, at, 1);
        wheel(v, at, 1);
        const ViewWindow q = heatmapQueryWindow(w.scene()->params()), k = heatmapKeyWindow(w.scene()->params());
        QVERIFY2(q.size() < 64 && k.size() < 64, qPrintable(text(q) + text(k)));
        QCOMPARE(q.size(), std::int64_t{41});   // 64 · 0.8 = 51, 51 · 0.8 = 41 (rounded)
        // The cell under the mouse is still under the mouse (to within a cell).
        QVERIFY2(q.from <= query && query < q.to && k.from <= key && key < k.to, qPrintable(text(q) + text(k)));
        QVERIFY(std::abs(cellCentre(v, query, key).x() - at.x()) <= heatImage(v).width() / double(k.size()));
        // Two notches, one gesture: one undo step back to the whole matrix.
        QCOMPARE(w.scene()->undoStack()->count(), 1);
        w.scene()->undoStack()->undo();
        QCOMPARE(w.scene()->params(), SceneParams{});
        QCOMPARE(v->queryWindow(), (ViewWindow{0, 64}));
    }

    // A trackpad pinch (native zoom gestures, value = the change of magnification) zooms like
    // the wheel about the fingers; the whole pinch is one undo step.
    void pinchZoomsAboutTheFingers_data() {
        QTest::addColumn<bool>("heatmap");
        QTest::newRow("heatmap") << true;
        QTest::newRow("decay") << false;
    }
    void pinchZoomsAboutTheFingers() {
        QFETCH(bool, heatmap);
        MainWindow w(false);
        QVERIFY(open(w));
        QWidget* target = heatmap ? static_cast<QWidget*>(w.heatmapView()) : w.decayView();
        const QPointF at = heatmap ? QPointF(cellCentre(w.heatmapView(), 40, 20)) : decayPlot(w.decayView()).center();
        const auto send = [&](Qt::NativeGestureType type, double value) {
            QNativeGestureEvent e(type, QPointingDevice::primaryPointingDevice(), 2, at, at, target->mapToGlobal(at), value, QPointF());
            QCoreApplication::sendEvent(target, &e);
        };
        send(Qt::BeginNativeGesture, 0);
        send(Qt::ZoomNativeGesture, 0.25);   // 25 % larger: the window shrinks to 1/1.25 = 0.8
        send(Qt::ZoomNativeGesture, 0.25);
        send(Qt::EndNativeGesture, 0);
        if (heatmap) {
            const ViewWindow q = heatmapQueryWindow(w.scene()->params()), k = heatmapKeyWindow(w.scene()->params());
            QCOMPARE(q.size(), std::int64_t{41});   // 64 · 0.8 = 51, 51 · 0.8 = 41
            QVERIFY2(q.from <= 40 && 40 < q.to && k.from <= 20 && 20 < k.to, qPrintable(text(q) + text(k)));
        } else {
            const ViewWindow d = decayWindow(w.scene()->params());
            QCOMPARE(d.size(), std::int64_t{165});   // 257 · 0.8 = 206, · 0.8 = 165
            QVERIFY2(std::abs((d.from + d.to) / 2.0 - 128.5) <= 1, qPrintable(text(d)));
        }
        QCOMPARE(w.scene()->undoStack()->count(), 1);
        // A second pinch is a step of its own.
        send(Qt::BeginNativeGesture, 0);
        send(Qt::ZoomNativeGesture, -0.2);   // smaller: the window grows
        send(Qt::EndNativeGesture, 0);
        QCOMPARE(w.scene()->undoStack()->count(), 2);
    }

    void heatmapZoomsDownToSingleCellsWithExactValues() {
        MainWindow w(false);
        QVERIFY(open(w));
        auto* v = w.heatmapView();
        for (int k = 0; k < 40; ++k) wheel(v, cellCentre(v, 37, 12), 1);
        QCOMPARE(heatmapQueryWindow(w.scene()->params()).size(), std::int64_t{1});
        QVERIFY(settle(w));
        const HeatmapPanel& p = v->result().panels.front();
        QCOMPARE(p.queries, (Positions{37}));
        QCOMPARE(p.keys, (Positions{12}));
        const auto exact = scores(effectiveParams(w.scene()->params(), 0), Positions{37}, Positions{12}, 64);
        QVERIFY(exact);
        const QString tip = v->toolTipAt(heatImage(v).center().toPoint());
        QVERIFY2(tip.contains(QStringLiteral("query i = 37, key j = 12")), qPrintable(tip));
        QVERIFY2(tip.contains(formatValue(exact.value()(0, 0))), qPrintable(tip));
    }

    void heatmapDragPans() {
        MainWindow w(false);
        QVERIFY(open(w));
        w.scene()->edit(QStringLiteral("zoom"), QString(), [](SceneParams& s) { setHeatmapWindow(s, {20, 36}, {20, 36}); });
        QVERIFY(settle(w));
        auto* v = w.heatmapView();
        const int before = w.scene()->undoStack()->count();
        const QRectF img = heatImage(v);
        // Cells need not be square (the layout fills the view): one cell across, one down.
        const double cellW = img.width() / 16, cellH = img.height() / 16;
        const QPoint start = img.center().toPoint();
        const auto by = [&](double keys, double queries) {
            return start + QPoint(int(std::lround(keys * cellW)), int(std::lround(queries * cellH)));
        };
        QTest::mousePress(v, Qt::LeftButton, Qt::NoModifier, start);
        // Drag right by 3 cells and down by 5: the window moves left by 3 keys, up by 5 queries.
        QTest::mouseMove(v, by(1.5, 2));
        QTest::mouseMove(v, by(3, 5));
        QTest::mouseRelease(v, Qt::LeftButton, Qt::NoModifier, by(3, 5));
        COMPARE_WINDOW(heatmapKeyWindow(w.scene()->params()), (ViewWindow{17, 33}));
        COMPARE_WINDOW(heatmapQueryWindow(w.scene()->params()), (ViewWindow{15, 31}));
        QCOMPARE(w.scene()->undoStack()->count(), before + 1);   // the whole drag is one step
        // Past the edge the window stops at position 0.
        QTest::mousePress(v, Qt::LeftButton, Qt::NoModifier, start);
        QTest::mouseMove(v, start + QPoint(int(img.width() * 1.5), 0));
        QTest::mouseRelease(v, Qt::LeftButton, Qt::NoModifier, start + QPoint(int(img.width() * 1.5), 0));
        COMPARE_WINDOW(heatmapKeyWindow(w.scene()->params()), (ViewWindow{0, 16}));
        QCOMPARE(w.scene()->undoStack()->count(), before + 2);
    }

    void heatmapRubberBandZoomsToTheRectangle_data() {
        QTest::addColumn<int>("button");
        QTest::addColumn<int>("modifiers");
        QTest::newRow("shift+left drag") << int(Qt::LeftButton) << int(Qt::ShiftModifier);
        QTest::newRow("right drag") << int(Qt::RightButton) << int(Qt::NoModifier);
    }
    void heatmapRubberBandZoomsToTheRectangle() {
        QFETCH(int, button);
        QFETCH(int, modifiers);
        MainWindow w(false);
        QVERIFY(open(w));
        auto* v = w.heatmapView();
        // From cell (i 10, j 40) to cell (i 19, j 49): queries 10..19, keys 40..49.
        const QPoint a = cellCentre(v, 10, 40), b = cellCentre(v, 19, 49);
        QTest::mousePress(v, Qt::MouseButton(button), Qt::KeyboardModifiers(modifiers), a);
        QTest::mouseMove(v, b);
        QTest::mouseRelease(v, Qt::MouseButton(button), Qt::KeyboardModifiers(modifiers), b);
        COMPARE_WINDOW(heatmapQueryWindow(w.scene()->params()), (ViewWindow{10, 20}));
        COMPARE_WINDOW(heatmapKeyWindow(w.scene()->params()), (ViewWindow{40, 50}));
        QCOMPARE(w.scene()->undoStack()->count(), 1);
        QVERIFY(settle(w));
        QCOMPARE(v->result().panels.front().queries, arangePositions(10, 20));
    }

    // Blocks need not divide the window evenly (the last may be shorter): a gesture maps the mouse
    // to the block drawn under it, not linearly over the window (which drifts by up to a block).
    // N = (C − 1)·B + 1 for C cells: C − 1 blocks of B positions and a last one of 1.
    void heatmapGesturesFollowTheDrawnBlocks_data() {
        QTest::addColumn<int>("blockSize");
        QTest::addColumn<int>("fromEnd");   // the rectangle's last column, counted from the end
        QTest::newRow("blocks of 40, near the end") << 40 << 2;
        QTest::newRow("blocks of 40, middle") << 40 << 200;
        QTest::newRow("blocks of 7, near the end") << 7 << 3;
    }
    void heatmapGesturesFollowTheDrawnBlocks() {
        QFETCH(int, blockSize);
        QFETCH(int, fromEnd);
        MainWindow w(false);
        QVERIFY(open(w));
        auto* v = w.heatmapView();
        const int cells = v->cellsFor(1);
        QVERIFY2(cells > fromEnd + 10, qPrintable(QString::number(cells)));
        const std::int64_t n = std::int64_t(cells - 1) * blockSize + 1;
        // ALiBi: its scores depend on i − j alone, so every block is exact at once (no sampled pass).
        w.scene()->edit(QStringLiteral("length"), QString(), [n](SceneParams& s) {
            s.length = n;
            s.methods.front().params.method = Method::Alibi;
        });
        QVERIFY(settle(w));
        const HeatmapPanel& p = v->result().panels.front();
        QCOMPARE(p.cells, HeatmapCells::Aggregate);
        QCOMPARE(int(p.keyRanges.size()), cells);   // the premise: C blocks, the last of one position
        QCOMPARE(p.keyRanges.back().size(), std::int64_t{1});
        QCOMPARE(p.keyRanges.front().size(), std::int64_t(blockSize));
        const QRectF img = heatImage(v);
        const int c1 = cells - 1 - fromEnd, c0 = c1 - 3;
        // Pixels (the mouse is at whole pixels) inside columns/rows c0 and c1.
        const auto across = [&](int c) { return int(std::ceil(img.left() + (c + 0.5) * img.width() / cells - 0.5)); };
        const auto down = [&](int c) { return int(std::ceil(img.top() + (c + 0.5) * img.height() / cells - 0.5)); };
        const QPoint a(across(c0), down(c0)), b(across(c1), down(c1));
        // The blocks drawn under the two corners, as the hover reports them.
        const auto hitA = hitTestHeatmap(QRectF(v->rect()), v->result(), v->theme(), QPointF(a));
        const auto hitB = hitTestHeatmap(QRectF(v->rect()), v->result(), v->theme(), QPointF(b));
        QVERIFY(hitA && hitB);
        QVERIFY2(hitA->col == c0 && hitB->col == c1, qPrintable(QStringLiteral("%1 %2").arg(hitA->col).arg(hitB->col)));
        const PositionRange k0 = p.keyRanges[std::size_t(hitA->col)], k1 = p.keyRanges[std::size_t(hitB->col)];
        const PositionRange q0 = p.queryRanges[std::size_t(hitA->row)], q1 = p.queryRanges[std::size_t(hitB->row)];
        QVERIFY2(v->toolTipAt(a).contains(QStringLiteral("keys j = %1 … %2").arg(k0.from).arg(k0.to - 1)), qPrintable(v->toolTipAt(a)));
        // A rectangle between them zooms to a window that starts in the first corner's block and
        // ends in the second's (linearly, it drifted by most of a block near the end).
        QTest::mousePress(v, Qt::RightButton, Qt::NoModifier, a);
        QTest::mouseMove(v, b);
        QTest::mouseRelease(v, Qt::RightButton, Qt::NoModifier, b);
        const ViewWindow k = heatmapKeyWindow(w.scene()->params()), q = heatmapQueryWindow(w.scene()->params());
        QVERIFY2(k.from >= k0.from && k.from <= k0.to && k.to >= k1.from && k.to <= k1.to,
                 qPrintable(text(k) + QStringLiteral(" not from block [%1, %2) to block [%3, %4)").arg(k0.from).arg(k0.to).arg(k1.from).arg(k1.to)));
        QVERIFY2(q.from >= q0.from && q.from <= q0.to && q.to >= q1.from && q.to <= q1.to,
                 qPrintable(text(q) + QStringLiteral(" not from block [%1, %2) to block [%3, %4)").arg(q0.from).arg(q0.to).arg(q1.from).arg(q1.to)));
        QVERIFY(k.size() > 2 * blockSize);
    }

    // heatmapPositionAtCell inverts the cells' placement: a point in cell k is a position of block k.
    void positionAtCellFallsInTheDrawnBlock_data() {
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        QTest::addColumn<int>("count");
        QTest::newRow("N 10001, 400 cells") << qint64(0) << qint64(10001) << 400;
        QTest::newRow("N 15961, 400 cells (last block 1)") << qint64(0) << qint64(15961) << 400;
        QTest::newRow("window 123..9999, 77 cells") << qint64(123) << qint64(9999) << 77;
        QTest::newRow("one cell each") << qint64(5) << qint64(45) << 100;
    }
    void positionAtCellFallsInTheDrawnBlock() {
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        QFETCH(int, count);
        const auto ranges = splitRange(from, to, count);
        double last = -1e300;
        for (std::size_t k = 0; k < ranges.size(); ++k)
            for (double f : {0.0, 0.25, 0.5, 0.999}) {
                const double pos = heatmapPositionAtCell(double(k) + f, ranges);
                QVERIFY2(pos >= double(ranges[k].from) && pos < double(ranges[k].to),
                         qPrintable(QStringLiteral("cell %1 + %2 → %3, block [%4, %5)").arg(k).arg(f).arg(pos).arg(ranges[k].from).arg(ranges[k].to)));
                QVERIFY(pos > last);
                last = pos;
            }
        QCOMPARE(heatmapPositionAtCell(0, ranges), double(from));
        QCOMPARE(heatmapPositionAtCell(double(ranges.size()), ranges), double(to));
        QVERIFY(heatmapPositionAtCell(-1, ranges) < double(from));
        QVERIFY(std::isnan(heatmapPositionAtCell(0.5, {})));
    }

    void heatmapDoubleClickAndHomeReset_data() {
        QTest::addColumn<bool>("doubleClick");
        QTest::newRow("double-click") << true;
        QTest::newRow("Home") << false;
    }
    void heatmapDoubleClickAndHomeReset() {
        QFETCH(bool, doubleClick);
        MainWindow w(false);
        QVERIFY(open(w));
        w.scene()->edit(QStringLiteral("zoom"), QString(), [](SceneParams& s) { setHeatmapWindow(s, {3, 9}, {30, 40}); });
        auto* v = w.heatmapView();
        if (doubleClick) {
            QTest::mouseDClick(v, Qt::LeftButton, Qt::NoModifier, heatImage(v).center().toPoint());
        } else {
            v->setFocus();
            QTest::keyClick(v, Qt::Key_Home);
        }
        QCOMPARE(w.scene()->params(), SceneParams{});
        QCOMPARE(w.scene()->undoStack()->count(), 2);   // the reset is an undo step of its own
        w.scene()->undoStack()->undo();
        COMPARE_WINDOW(heatmapKeyWindow(w.scene()->params()), (ViewWindow{30, 40}));
    }

    void integerTicks_data() {
        QTest::addColumn<qint64>("lo");
        QTest::addColumn<qint64>("hi");
        QTest::addColumn<int>("maxTicks");
        QTest::addColumn<std::vector<std::int64_t>>("want");
        QTest::newRow("10..12 max 8: every position") << qint64(10) << qint64(12) << 8 << std::vector<std::int64_t>{10, 11, 12};
        QTest::newRow("0..65535 max 6") << qint64(0) << qint64(65535) << 6 << std::vector<std::int64_t>{0, 20000, 40000, 60000};
        QTest::newRow("1000..1010 max 4") << qint64(1000) << qint64(1010) << 4 << std::vector<std::int64_t>{1000, 1005, 1010};
        QTest::newRow("7..7 max 5") << qint64(7) << qint64(7) << 5 << std::vector<std::int64_t>{7};
        QTest::newRow("1..1048576 max 6") << qint64(1) << qint64(1048576) << 6
                                          << std::vector<std::int64_t>{200000, 400000, 600000, 800000, 1000000};
        // Never a single tick where two fit in: 0..47 with room for two gets 20, not 50.
        QTest::newRow("0..47 max 2: two ticks at least") << qint64(0) << qint64(47) << 2 << std::vector<std::int64_t>{0, 20, 40};
        QTest::newRow("3..9 max 1: two ticks at least") << qint64(3) << qint64(9) << 1 << std::vector<std::int64_t>{4, 6, 8};
        QTest::newRow("101..180 max 1") << qint64(101) << qint64(180) << 1 << std::vector<std::int64_t>{120, 140, 160, 180};
    }
    void integerTicks() {
        QFETCH(qint64, lo);
        QFETCH(qint64, hi);
        QFETCH(int, maxTicks);
        QFETCH(std::vector<std::int64_t>, want);
        QCOMPARE(plot::integerTicks(lo, hi, maxTicks), want);
    }

    void decayWheelDragRubberAndReset() {
        MainWindow w(false);
        QVERIFY(open(w));
        DecayView* v = w.decayView();
        QWidget* vp = v;
        QRectF plot = decayPlot(v);
        // Wheel at distance 128 (the middle of 0..256): the window shrinks about it.
        wheel(vp, plot.center(), 1);
        wheel(vp, plot.center(), 1);
        wheel(vp, plot.center(), 1);
        ViewWindow d = decayWindow(w.scene()->params());
        QCOMPARE(d.size(), std::int64_t{132});   // 257 · 0.8 = 206, · 0.8 = 165, · 0.8 = 132
        QVERIFY2(d.from > 0 && d.to < 257 && std::abs((d.from + d.to) / 2.0 - 128.5) <= 1, qPrintable(text(d)));
        QCOMPARE(w.scene()->undoStack()->count(), 1);
        QVERIFY(settle(w));
        // The x axis is the window.
        QCOMPARE(v->result().series.front().distance.front(), d.from);
        QCOMPARE(v->result().series.front().distance.back(), d.to - 1);
        // Drag left by a quarter of the plot: the window moves right by a quarter of its span.
        plot = decayPlot(v);
        const ViewWindow beforePan = d;
        const QPoint start = plot.center().toPoint();
        const int dx = int(std::lround(plot.width() / 4));
        QTest::mousePress(vp, Qt::LeftButton, Qt::NoModifier, start);
        QTest::mouseMove(vp, start - QPoint(dx / 2, 0));
        QTest::mouseMove(vp, start - QPoint(dx, 0));
        QTest::mouseRelease(vp, Qt::LeftButton, Qt::NoModifier, start - QPoint(dx, 0));
        d = decayWindow(w.scene()->params());
        QCOMPARE(d.size(), beforePan.size());
        QVERIFY2(std::abs(double(d.from - beforePan.from) - (beforePan.size() - 1) / 4.0) <= 1.5, qPrintable(text(d)));
        QCOMPARE(w.scene()->undoStack()->count(), 2);
        QVERIFY(settle(w));
        // Shift+drag from distance a to distance b: exactly those distances.
        plot = decayPlot(v);
        const auto xOf = [&](double dist) {
            const ViewWindow cur = decayWindow(w.scene()->params());
            return int(std::lround(plot.left() + (dist - double(cur.from)) / double(cur.size() - 1) * plot.width()));
        };
        const std::int64_t a = d.from + 10, b = d.from + 30;
        const int y = int(plot.center().y());
        QTest::mousePress(vp, Qt::LeftButton, Qt::ShiftModifier, QPoint(xOf(double(a)), y));
        QTest::mouseMove(vp, QPoint(xOf(double(b)), y));
        QTest::mouseRelease(vp, Qt::LeftButton, Qt::ShiftModifier, QPoint(xOf(double(b)), y));
        COMPARE_WINDOW(decayWindow(w.scene()->params()), (ViewWindow{a, b + 1}));
        QCOMPARE(w.scene()->undoStack()->count(), 3);
        QVERIFY(settle(w));
        QCOMPARE(v->result().series.front().distance, arangePositions(a, b + 1));
        // Double-click shows every distance again; Home too.
        QTest::mouseDClick(vp, Qt::LeftButton, Qt::NoModifier, decayPlot(v).center().toPoint());
        QCOMPARE(w.scene()->params(), SceneParams{});
        w.scene()->undoStack()->undo();
        COMPARE_WINDOW(decayWindow(w.scene()->params()), (ViewWindow{a, b + 1}));
        v->setFocus();
        QTest::keyClick(v, Qt::Key_Home);
        QCOMPARE(w.scene()->params(), SceneParams{});
    }

    void decayZoomsToSingleDistances() {
        MainWindow w(false);
        QVERIFY(open(w));
        DecayView* v = w.decayView();
        for (int k = 0; k < 40; ++k) wheel(v, decayPlot(v).center(), 1);
        const ViewWindow d = decayWindow(w.scene()->params());
        QCOMPARE(d.size(), std::int64_t{1});
        QVERIFY(settle(w));
        QCOMPARE(v->result().series.front().distance, (std::vector<std::int64_t>{d.from}));
        // Hovering shows that distance's exact value.
        const auto exact = decayCurveAt(effectiveParams(w.scene()->params(), 0), {d.from});
        QVERIFY(exact);
        const QString tip = v->toolTipAt(decayPlot(v).center().toPoint());
        QVERIFY2(tip.contains(QStringLiteral("distance i − j = %1").arg(d.from)), qPrintable(tip));
        QVERIFY2(tip.contains(formatValue(exact.value().value[0])), qPrintable(tip));
        for (int k = 0; k < 3; ++k) wheel(v, decayPlot(v).center(), -1);
        QCOMPARE(decayWindow(w.scene()->params()).size(), std::int64_t{4});
        QCOMPARE(w.scene()->undoStack()->count(), 1);   // one wheel run
    }

    void windowSurvivesASessionSavedFromTheWindow() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("z.poslab"));
        SceneParams zoomed;
        {
            MainWindow w(false);
            QVERIFY(open(w));
            wheel(w.heatmapView(), cellCentre(w.heatmapView(), 50, 10), 3);
            wheel(w.decayView(), decayPlot(w.decayView()).center(), 2);
            zoomed = w.scene()->params();
            QVERIFY(zoomed.view.heatmapQueryFrom || zoomed.view.heatmapQueryTo);
            QVERIFY(zoomed.view.decayFrom && zoomed.view.decayTo);
            QString error;
            QVERIFY2(saveSession(path, zoomed, &error), qPrintable(error));
        }
        QString error;
        const auto back = loadSession(path, &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(*back, zoomed);
        MainWindow w(false);
        w.scene()->setParams(*back);
        QVERIFY(open(w));
        QCOMPARE(w.heatmapView()->queryWindow(), heatmapQueryWindow(zoomed));
        QCOMPARE(w.heatmapView()->result().panels.front().queries.front(), heatmapQueryWindow(zoomed).from);
        QCOMPARE(w.decayView()->result().series.front().distance.front(), decayWindow(zoomed).from);
    }

    void screenshots() {
        if (qEnvironmentVariableIsEmpty("POSLAB_SCREENSHOT_DIR")) QSKIP("POSLAB_SCREENSHOT_DIR not set");
        MainWindow w(false);
        QVERIFY(open(w));
        w.scene()->edit(QStringLiteral("zoom"), QString(), [](SceneParams& s) {
            s.length = 4096;
            s.methods.front().params.content = Content::Random;
            setHeatmapWindow(s, {1000, 1012}, {990, 1002});
            s.view.decayMaxDistance = 4096;
            setDecayWindow(s, {1000, 1100});
        });
        QVERIFY(settle(w));
        auto* v = w.heatmapView();
        const QPoint at = cellCentre(v, 1005, 997);
        QTest::mouseMove(v, at);
        QTest::qWait(50);
        shot(withToolTip(v, at), QStringLiteral("heatmap_cells_hover"));
        shot(w.grab().toImage(), QStringLiteral("window"));
        // The decay chart zoomed to 20 distances, hovering one of them.
        w.scene()->edit(QStringLiteral("zoom"), QString(), [](SceneParams& s) { setDecayWindow(s, {1000, 1020}); });
        QVERIFY(settle(w));
        DecayView* d = w.decayView();
        const QPoint dat = decayPlot(d).center().toPoint();
        QTest::mouseMove(d, dat);
        QTest::qWait(50);
        shot(withToolTip(d, dat), QStringLiteral("decay_distances_hover"));
    }
};

QTEST_MAIN(TestZoom)
#include "test_zoom.moc"
