// The main window's saved state (ui/window/windowstate.h, MainWindow::restoreSettings): no saved
// [window] value can crash or lose the window, and a first start fits the screen it opens on.
//
// The decoding and placement rows are pure. The window rows start a real MainWindow with a saved
// state and check it opens within a screen, with its parameters on show, and starts again after
// quitting. CTest runs this file offscreen and, through tests/support/with-x11.sh, on a real X
// server at 1920×1080 with the openbox window manager and at 1280×720 without one (the crash of
// issue #27 — maximise, quit, start again — only happened under a real X server).
#include "support/testsupport.h"
#include "ui/window/mainwindow.h"
#include "ui/window/windowstate.h"

#include <QDataStream>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QRandomGenerator>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QtTest>

#include <optional>

using namespace poslab::ui;

namespace {

// What QWidget::saveGeometry() writes (format 3.0), for states no window here can make.
QByteArray geometryBytes(QRect normal, bool maximized, bool fullScreen, int screenWidth, int major = 3) {
    QByteArray out;
    QDataStream s(&out, QIODevice::WriteOnly);
    s.setVersion(QDataStream::Qt_4_0);
    s << quint32(0x1D9D0CB) << quint16(major) << quint16(0);
    s << normal.adjusted(-4, -24, 4, 4) << normal << qint32(0) << quint8(maximized ? Qt::WindowMaximized : 0)
      << quint8(fullScreen ? Qt::WindowFullScreen : 0) << qint32(screenWidth);
    if (major > 2) s << normal;
    return out;
}

QList<QRect> screensAvailable() {
    QList<QRect> out;
    for (const QScreen* s : QGuiApplication::screens()) out.append(s->availableGeometry());
    return out;
}

using Keys = QList<QPair<QString, QVariant>>;

void writeWindowKeys(const Keys& keys) {
    QSettings settings;
    settings.remove(QStringLiteral("window"));
    for (const auto& [k, v] : keys) settings.setValue(QStringLiteral("window/") + k, v);
    settings.sync();
}

Keys readWindowKeys() {
    QSettings settings;
    Keys out;
    settings.beginGroup(QStringLiteral("window"));
    for (const QString& k : settings.childKeys()) out.append({k, settings.value(k)});
    return out;
}

// The [window] keys of a settings file (the saved state of a real session).
Keys windowKeysOf(const QString& file) {
    QSettings f(file, QSettings::IniFormat);
    Keys out;
    f.beginGroup(QStringLiteral("window"));
    for (const QString& k : f.childKeys()) out.append({k, f.value(k)});
    return out;
}

QByteArray savedGeometryOfIssue27() {
    for (const auto& [k, v] : windowKeysOf(QStringLiteral(POSLAB_SOURCE_DIR "/tests/ui/data/window-maximised-1920.conf")))
        if (k == QLatin1String("geometry")) return v.toByteArray();
    return {};
}

// What a person sees of a window that started: on a screen, big enough to use, the parameters there.
QString windowProblem(const MainWindow& w) {
    if (!w.isVisible()) return QStringLiteral("the window is not visible");
    const QRect frame = w.frameGeometry();
    bool onScreen = false;
    for (const QScreen* s : QGuiApplication::screens()) {
        // (a frame may reach a few pixels past the work area: window managers draw borders there)
        if (s->geometry().adjusted(-8, -8, 8, 8).contains(frame)) onScreen = true;
    }
    if (!onScreen) {
        QString docks;
        for (const QDockWidget* d : w.findChildren<QDockWidget*>())
            docks += QStringLiteral(" %1%2 min %3×%4;").arg(d->objectName(), d->isVisible() ? QString() : QStringLiteral(" (hidden)"))
                         .arg(d->minimumSizeHint().width()).arg(d->minimumSizeHint().height());
        if (auto* rows = w.findChild<QSplitter*>(QStringLiteral("rows")))
            for (int i = 0; i < rows->count(); ++i)
                docks += QStringLiteral(" row %1 %2%3 min %4;").arg(i).arg(rows->widget(i)->objectName(), rows->widget(i)->isVisible() ? QString() : QStringLiteral(" (hidden)"))
                             .arg(rows->widget(i)->minimumSizeHint().height());
        docks += QStringLiteral(" maximised %1").arg(w.isMaximized());
        return QStringLiteral("frame %1,%2 %3×%4 is not within a screen (window minimum %5×%6, views minimum %7×%8;%9)")
            .arg(frame.x()).arg(frame.y()).arg(frame.width()).arg(frame.height())
            .arg(w.minimumSizeHint().width()).arg(w.minimumSizeHint().height())
            .arg(w.centralWidget()->minimumSizeHint().width()).arg(w.centralWidget()->minimumSizeHint().height()).arg(docks);
    }
    if (w.width() < 400 || w.height() < 300) return QStringLiteral("window only %1×%2").arg(w.width()).arg(w.height());
    const auto* params = w.findChild<QDockWidget*>(QStringLiteral("parametersDock"));
    if (!params || !params->isVisible()) return QStringLiteral("the parameters dock is not shown");
    if (params->isFloating()) {
        bool dockOnScreen = false;
        for (const QScreen* s : QGuiApplication::screens())
            if (s->availableGeometry().intersects(params->frameGeometry())) dockOnScreen = true;
        if (!dockOnScreen) return QStringLiteral("the floating parameters dock is off every screen");
    }
    return {};
}

// Start the window as `poslab` does (saved state read, shown), let the window manager and the
// queued layout run, check it, and quit (saving, as Ctrl+Q does).
QString startAndQuit(int settleMs, bool maximise = false) {
    MainWindow w(true);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w, 5000)) return QStringLiteral("the window was never exposed");
    if (maximise) w.showMaximized();
    QTest::qWait(settleMs);
    QString problem = windowProblem(w);
    w.close();
    return problem;
}

}  // namespace

class TestWindowState : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("PosLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("test_windowstate"));
        QSettings().clear();
        QSettings().setValue(QStringLiteral("welcome/seen"), true);
    }

    // decodeSavedGeometry reads what Qt writes, and nothing else.
    void decodesSavedGeometry_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("decodes");
        QTest::addColumn<QRect>("normal");
        QTest::addColumn<bool>("maximized");
        const QRect r(210, 72, 1500, 950);
        QTest::newRow("format 3, normal") << geometryBytes(r, false, false, 1920) << true << r << false;
        QTest::newRow("format 3, maximised") << geometryBytes(r, true, false, 1920) << true << r << true;
        QTest::newRow("format 2 (Qt 5.x)") << geometryBytes(r, false, false, 1920, 2) << true << r << false;
        QTest::newRow("empty") << QByteArray() << false << QRect() << false;
        QTest::newRow("text") << QByteArray("1500x950+210+72") << false << QRect() << false;
        QTest::newRow("wrong magic") << QByteArray(geometryBytes(r, false, false, 1920)).replace(0, 1, "\x02") << false << QRect() << false;
        QTest::newRow("format 9") << geometryBytes(r, false, false, 1920, 9) << false << QRect() << false;
        QTest::newRow("cut inside the rectangles") << geometryBytes(r, false, false, 1920).left(20) << false << QRect() << false;
        QTest::newRow("cut before the client rectangle") << geometryBytes(r, false, false, 1920).left(50) << false << QRect() << false;
        QTest::newRow("the saved maximised window of issue 27") << savedGeometryOfIssue27() << true << QRect(210, 72, 1500, 950) << true;
    }
    void decodesSavedGeometry() {
        QFETCH(QByteArray, bytes);
        QFETCH(bool, decodes);
        const auto g = decodeSavedGeometry(bytes);
        QCOMPARE(g.has_value(), decodes);
        if (!g) return;
        QFETCH(QRect, normal);
        QFETCH(bool, maximized);
        QCOMPARE(g->normal, normal);
        QCOMPARE(g->maximized, maximized);
    }

    // A saved geometry is restored, moved onto a screen or dropped for the screens present.
    void placesSavedGeometry_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QList<QRect>>("screens");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QRect>("normal");
        const QList<QRect> hd{QRect(0, 0, 1920, 1080)};
        const QList<QRect> p720{QRect(0, 0, 1280, 720)};
        const QList<QRect> two{QRect(0, 0, 1920, 1080), QRect(1920, 0, 1280, 720)};
        const int restore = int(GeometryPlacement::Kind::Restore), adjust = int(GeometryPlacement::Kind::Adjust),
                  drop = int(GeometryPlacement::Kind::Drop);
        QTest::newRow("fits 1920x1080") << geometryBytes({210, 72, 1500, 950}, false, false, 1920) << hd << restore << QRect(210, 72, 1500, 950);
        QTest::newRow("maximised, fits") << geometryBytes({210, 72, 1500, 950}, true, false, 1920) << hd << restore << QRect(210, 72, 1500, 950);
        QTest::newRow("1500x950 on 1280x720") << geometryBytes({210, 72, 1500, 950}, false, false, 1920) << p720 << adjust
                                              << QRect(4, 30, 1272, 686);
        QTest::newRow("saved on 3840x2160, now 1920x1080") << geometryBytes({400, 300, 3000, 1800}, false, false, 3840) << hd << adjust
                                                           << QRect(4, 30, 1912, 1046);
        QTest::newRow("off every screen") << geometryBytes({-5000, 4000, 800, 600}, false, false, 1920) << hd << adjust
                                          << QRect(560, 253, 800, 600);
        QTest::newRow("on the second screen") << geometryBytes({2000, 40, 1000, 600}, false, false, 1280) << two << restore
                                              << QRect(2000, 40, 1000, 600);
        QTest::newRow("second screen gone") << geometryBytes({2000, 40, 1000, 600}, false, false, 1280) << hd << adjust
                                            << QRect(460, 253, 1000, 600);
        QTest::newRow("zero size") << geometryBytes({0, 0, 0, 0}, false, false, 1920) << hd << drop << QRect();
        QTest::newRow("absurd size") << geometryBytes({0, 0, 2000000, 900}, false, false, 1920) << hd << drop << QRect();
        QTest::newRow("garbage") << QByteArray("\xff\xfe garbage", 10) << hd << drop << QRect();
        QTest::newRow("no screen") << geometryBytes({210, 72, 1500, 950}, false, false, 1920) << QList<QRect>{} << drop << QRect();
    }
    void placesSavedGeometry() {
        QFETCH(QByteArray, bytes);
        QFETCH(QList<QRect>, screens);
        QFETCH(int, kind);
        QFETCH(QRect, normal);
        const auto p = placeSavedGeometry(decodeSavedGeometry(bytes), screens, QMargins(4, 30, 4, 4));
        QCOMPARE(int(p.kind), kind);
        if (p.kind != GeometryPlacement::Kind::Drop) QCOMPARE(p.normal, normal);
        if (p.kind != GeometryPlacement::Kind::Restore) QVERIFY2(!p.why.isEmpty(), "a placement that changes the saved state says why");
    }

    // A first start's size on common screens: within the available area, frame included.
    void firstStartFits_data() {
        QTest::addColumn<QRect>("available");
        QTest::newRow("1280x720") << QRect(0, 0, 1280, 720);
        QTest::newRow("1366x768 with a panel") << QRect(0, 0, 1366, 740);
        QTest::newRow("1920x1080") << QRect(0, 0, 1920, 1080);
        QTest::newRow("3840x2160 at DPR 2 (1920x1080 logical)") << QRect(0, 0, 1920, 1080);
        QTest::newRow("second screen at x 1920") << QRect(1920, 0, 1280, 720);
    }
    void firstStartFits() {
        QFETCH(QRect, available);
        const QMargins frame(4, 30, 4, 4);
        const QRect r = firstStartGeometry(available, QSize(1500, 950), frame);
        QVERIFY(available.contains(r.marginsAdded(frame)));
        QCOMPARE(r.width(), std::min(1500, available.width() - 8));
        QCOMPARE(r.height(), std::min(950, available.height() - 34));
    }

    // The window started on each saved state: on screen, parameters shown; quit and started again.
    void savedStateStartsTheWindow_data() {
        QTest::addColumn<Keys>("keys");
        QVERIFY(!savedGeometryOfIssue27().isEmpty());
        const Keys real = windowKeysOf(QStringLiteral(POSLAB_SOURCE_DIR "/tests/ui/data/window-maximised-1920.conf"));
        QTest::newRow("maximised at 1920x1080, quit (issue 27)") << real;
        Keys fullScreen = real;
        for (auto& [k, v] : fullScreen)
            if (k == QLatin1String("geometry")) v = geometryBytes({210, 72, 1500, 950}, false, true, 1920);
        QTest::newRow("full screen") << fullScreen;
        Keys big = real;
        for (auto& [k, v] : big)
            if (k == QLatin1String("geometry")) v = geometryBytes({200, 100, 3400, 2000}, false, false, 3840);
        QTest::newRow("saved on a 3840x2160 screen") << big;
        Keys off = real;
        for (auto& [k, v] : off)
            if (k == QLatin1String("geometry")) v = geometryBytes({-6000, 5000, 900, 700}, true, false, 1920);
        QTest::newRow("off every screen, maximised") << off;
        Keys garbage;
        for (const QString k : {"geometry", "state", "viewRows", "grid", "left", "right"})
            garbage.append({k, QByteArray("\x00\x00\x00\xff garbage \x01\x02\x03", 18)});
        garbage.append({QStringLiteral("arranged"), true});
        garbage.append({QStringLiteral("docksTabbedForRoom"), QStringLiteral("perhaps")});
        QTest::newRow("garbage bytes") << garbage;
        QTest::newRow("text where bytes belong") << Keys{{QStringLiteral("geometry"), QStringLiteral("1500x950")},
                                                         {QStringLiteral("state"), 42},
                                                         {QStringLiteral("arranged"), QStringLiteral("yes")}};
        QTest::newRow("nothing saved (first start)") << Keys{};
    }
    void savedStateStartsTheWindow() {
        QFETCH(Keys, keys);
        writeWindowKeys(keys);
        QString problem = startAndQuit(400);
        QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("first start: ") + problem));
        problem = startAndQuit(400);
        QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("start after quitting: ") + problem));
    }

    // What a person does: maximise, quit, start again (twice); tabbed and floating docks, saved.
    void personMaximisesQuitsAndStartsAgain_data() {
        QTest::addColumn<QString>("docks");
        QTest::newRow("docks as they start") << QString();
        QTest::newRow("teaching dock tabbed with the parameters") << QStringLiteral("tabbed");
        QTest::newRow("teaching dock floating") << QStringLiteral("floating");
        QTest::newRow("deck dock shown") << QStringLiteral("deck");
    }
    void personMaximisesQuitsAndStartsAgain() {
        QFETCH(QString, docks);
        writeWindowKeys({});
        {
            MainWindow w(true);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w, 5000));
            auto* params = w.findChild<QDockWidget*>(QStringLiteral("parametersDock"));
            auto* teach = w.findChild<QDockWidget*>(QStringLiteral("teachingDock"));
            auto* deck = w.findChild<QDockWidget*>(QStringLiteral("deckDock"));
            QVERIFY(params && teach && deck);
            if (docks == QLatin1String("tabbed")) w.tabifyDockWidget(params, teach);
            if (docks == QLatin1String("floating")) teach->setFloating(true);
            if (docks == QLatin1String("deck")) deck->show();
            QTest::qWait(100);
            w.showMaximized();
            QTest::qWait(600);
            w.close();
        }
        for (int start = 1; start <= 2; ++start) {
            const QString problem = startAndQuit(400);
            QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("start %1 after maximising: ").arg(start) + problem));
        }
    }

    // A first start on this screen: within it; any dock opened leaves the views their share
    // (a right-hand dock that leaves no room becomes a tab of the parameters).
    void docksLeaveTheViewsTheirShare_data() {
        QTest::addColumn<QStringList>("open");
        QTest::newRow("nothing opened") << QStringList{};
        QTest::newRow("deck") << QStringList{QStringLiteral("deckDock")};
        QTest::newRow("teaching") << QStringList{QStringLiteral("teachingDock")};
        QTest::newRow("teaching and deck") << QStringList{QStringLiteral("teachingDock"), QStringLiteral("deckDock")};
    }
    void docksLeaveTheViewsTheirShare() {
        QFETCH(QStringList, open);
        writeWindowKeys({});
        MainWindow w(true);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w, 5000));
        QTest::qWait(300);
        const QString problem = windowProblem(w);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const QRect avail = w.screen()->availableGeometry();
        QVERIFY2(avail.adjusted(-8, -8, 8, 8).contains(w.frameGeometry()),
                 qPrintable(QStringLiteral("first start %1×%2 on a %3×%4 screen").arg(w.frameGeometry().width())
                                .arg(w.frameGeometry().height()).arg(avail.width()).arg(avail.height())));
        for (const QString& name : open) {
            auto* d = w.findChild<QDockWidget*>(name);
            QVERIFY(d);
            d->show();
            d->raise();
            QTest::qWait(200);
        }
        QTest::qWait(300);
        const int views = w.centralWidget()->width();
        QVERIFY2(views * 100 >= w.width() * 44,
                 qPrintable(QStringLiteral("the views have %1 of the window's %2 px").arg(views).arg(w.width())));
        w.close();
    }

    // Mutations of a real saved state's [window] values (bytes flipped, cut, extended, swapped
    // between keys, replaced by other types): every start opens the window. 10 rows × 20 starts.
    void savedStateFuzz_data() {
        QTest::addColumn<int>("seed");
        for (int seed = 0; seed < 10; ++seed) QTest::newRow(qPrintable(QStringLiteral("seeds %1-%2").arg(seed * 20).arg(seed * 20 + 19))) << seed;
    }
    void savedStateFuzz() {
        QFETCH(int, seed);
        const Keys base = windowKeysOf(QStringLiteral(POSLAB_SOURCE_DIR "/tests/ui/data/window-maximised-1920.conf"));
        QVERIFY(base.size() >= 8);
        QElapsedTimer timer;
        timer.start();
        for (int run = 0; run < 20; ++run) {
            QRandomGenerator rng(quint32(seed * 20 + run + 1));
            Keys keys = base;
            const int edits = 1 + int(rng.bounded(3));
            for (int e = 0; e < edits; ++e) {
                auto& [key, value] = keys[int(rng.bounded(keys.size()))];
                QByteArray b = value.toByteArray();
                switch (rng.bounded(7)) {
                case 0:   // flip bytes
                    for (int i = 0, n = 1 + int(rng.bounded(4)); i < n && !b.isEmpty(); ++i)
                        b[int(rng.bounded(b.size()))] = char(rng.bounded(256));
                    value = b;
                    break;
                case 1:   // cut
                    value = b.left(int(rng.bounded(b.size() + 1)));
                    break;
                case 2:   // extend
                    for (int i = 0, n = 1 + int(rng.bounded(40)); i < n; ++i) b.append(char(rng.bounded(256)));
                    value = b;
                    break;
                case 3:   // a big-endian int at a random place: sizes, counts, coordinates
                    if (b.size() >= 4) {
                        const int at = int(rng.bounded(b.size() - 3));
                        const quint32 v = rng.bounded(4) == 0 ? 0xFFFFFFFFu : rng.generate() >> rng.bounded(31);
                        for (int i = 0; i < 4; ++i) b[at + i] = char((v >> (24 - 8 * i)) & 0xFF);
                    }
                    value = b;
                    break;
                case 4:   // another key's value
                    value = keys[int(rng.bounded(keys.size()))].second;
                    break;
                case 5:   // another type
                    value = rng.bounded(2) ? QVariant(int(rng.generate())) : QVariant(QStringLiteral("x%1").arg(rng.generate()));
                    break;
                default:   // the window state flags of the geometry: maximised / full screen / both
                    if (key == QLatin1String("geometry") && b.size() > 46) {
                        b[44] = char(rng.bounded(2) ? Qt::WindowMaximized : 0);
                        b[45] = char(rng.bounded(2) ? Qt::WindowFullScreen : 0);
                    }
                    value = b;
                }
            }
            writeWindowKeys(keys);
            {
                MainWindow w(true);
                w.show();
                QVERIFY2(QTest::qWaitForWindowExposed(&w, 5000), qPrintable(QStringLiteral("run %1: not exposed").arg(seed * 20 + run)));
                QTest::qWait(150);
                const QString problem = windowProblem(w);
                QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("run %1: ").arg(seed * 20 + run) + problem));
            }
        }
        qInfo("20 starts in %lld ms", static_cast<long long>(timer.elapsed()));
    }

    // Values a previous start wrote are read back by the next (the window saves what it restores).
    void savedStateRoundTrips() {
        writeWindowKeys({});
        QSize normal;
        {
            MainWindow w(true);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.resize(1000, 640);
            QTest::qWait(200);
            normal = w.size();
            w.close();
        }
        QVERIFY(!readWindowKeys().isEmpty());
        MainWindow w(true);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTest::qWait(100);
        QCOMPARE(w.size(), normal);
    }
};

QTEST_MAIN(TestWindowState)
#include "test_windowstate.moc"
