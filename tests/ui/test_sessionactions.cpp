// The window's session and export actions: File menu entries, save/open through them with the
// current file in the title and the recent list, export from the window at the window's size
// with overwrite confirmation, and the restore offer after a real window process was killed.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <cstdio>
#include <cstring>
#include <functional>

#include "ui/window/exportdialog.h"
#include "ui/window/mainwindow.h"
#include "ui/window/sessionactions.h"
#include "ui/window/teaching.h"
#include "ui/views/views.h"

using namespace poslab;
using namespace poslab::ui;

namespace {

SceneParams childScene() {
    SceneParams s;
    s.methods.front().params.method = Method::Alibi;
    s.methods.front().params.dim = 8;
    s.length = 123;
    s.view.theme = QStringLiteral("dark");
    return s;
}

// A deck as a lecture has it: titled scenes with speaker notes, the second one current.
Session lectureDeck() {
    Session d;
    d.scenes.clear();
    for (int i = 0; i < 3; ++i) {
        SceneParams s;
        s.length = 16 * (i + 1);
        s.methods.front().params.dim = 8 << i;
        d.scenes.push_back(SessionScene{QStringLiteral("Slide %1: rotation").arg(i + 1),
                                        QStringLiteral("say: the score depends on m − n\nthen show slide %1").arg(i + 2), s});
    }
    d.current = 1;
    return d;
}

// What the child's deck is after its edit (the edit is of the current scene).
Session editedLectureDeck() {
    Session d = lectureDeck();
    d.scenes[1].scene = childScene();
    return d;
}

// Child mode: a real window with autosave in `dir` (with "deck": the lecture deck open); after
// an edit has been autosaved it says so and keeps running until it is killed.
int childMain(int argc, char** argv) {
    QApplication app(argc, argv);
    MainWindow window(false);
    SessionActions::Options o;
    o.recentFiles = false;
    o.autosaveDir = QString::fromLocal8Bit(argv[2]);
    SessionActions actions(&window, o);
    actions.autosave()->setDelays(50, 200);
    actions.offerRestore();
    window.show();
    const bool quit = argc > 3 && std::strcmp(argv[3], "quit") == 0;
    if (argc > 3 && std::strcmp(argv[3], "deck") == 0) actions.setSession(lectureDeck());
    QObject::connect(actions.autosave(), &Autosave::saved, [quit](const QString& path) {
        std::printf("saved %s\n", qPrintable(path));
        std::fflush(stdout);
        if (quit) QCoreApplication::quit();
    });
    window.scene()->apply(QStringLiteral("child edit"), childScene());
    return QApplication::exec();
}

QMenu* fileMenu(MainWindow& w) {
    for (QAction* a : w.menuBar()->actions())
        if (a->menu()) return a->menu();
    return nullptr;
}

SessionActions::Options testOptions(const QString& autosaveDir) {
    SessionActions::Options o;
    o.autosaveDir = autosaveDir;
    return o;
}

bool killedChildWindow(const QString& autosaveDir, bool deck = false) {
    QProcess p;
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    QStringList args{QStringLiteral("--window-child"), autosaveDir};
    if (deck) args << QStringLiteral("deck");
    p.start(QCoreApplication::applicationFilePath(), args);
    if (!p.waitForStarted(10000) || !p.waitForReadyRead(30000)) return false;
    if (!p.readLine().startsWith("saved ")) return false;
    p.kill();
    p.waitForFinished(10000);
    return p.exitStatus() == QProcess::CrashExit;
}

}  // namespace

class TestSessionActions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void fileMenuHasTheActions();
    void saveAndOpenThroughTheActions();
    void openEditSaveKeepsTheWholeDeck_data();
    void openEditSaveKeepsTheWholeDeck();
    void openReportsErrorsAndUnknownFields();
    void recentListNewestFirst();
    void exportFromTheWindow();
    void exportAsksBeforeReplacing();
    void exportDialogStartsFromTheWindow();
    void exportDialogLabelsShowNoAmpersand();
    void menusNameEachEntryOnce_data();
    void menusNameEachEntryOnce();
    void killedWindowIsOfferedForRestore_data();
    void killedWindowIsOfferedForRestore();
    void cleanQuitLeavesNoAutosave();
};

void TestSessionActions::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);   // QSettings in a test location
}

void TestSessionActions::init() { clearRecentSessions(); }

void TestSessionActions::fileMenuHasTheActions() {
    QTemporaryDir dir;
    MainWindow w(false);
    SessionActions actions(&w, testOptions(dir.path()));
    QMenu* file = fileMenu(w);
    QVERIFY(file);
    const QList<QAction*> items = file->actions();
    QVERIFY(items.contains(actions.openAction()));
    QVERIFY(items.contains(actions.saveAction()));
    QVERIFY(items.contains(actions.saveAsAction()));
    QVERIFY(items.contains(actions.exportAction()));
    QVERIFY(items.contains(actions.recentMenu()->menuAction()));
    // One action per standard shortcut (the window's own open/save-as were replaced).
    for (QAction* mine : {actions.openAction(), actions.saveAction(), actions.saveAsAction(), actions.exportAction()}) {
        QVERIFY(!mine->shortcut().isEmpty());
        int n = 0;
        for (QAction* a : items) n += a->shortcut() == mine->shortcut();
        QCOMPARE(n, 1);
    }
    // The window's other entries stay (reset, quit).
    QVERIFY(items.size() >= 8);
}

void TestSessionActions::saveAndOpenThroughTheActions() {
    QTemporaryDir dir;
    MainWindow w(false);
    SessionActions actions(&w, testOptions(dir.path()));
    w.scene()->apply(QStringLiteral("edit"), childScene());
    const QString path = dir.filePath(QStringLiteral("lecture.poslab"));
    QString error;
    QVERIFY2(actions.saveTo(path, &error), qPrintable(error));
    QCOMPARE(actions.currentFile(), QFileInfo(path).absoluteFilePath());
    QVERIFY(w.windowTitle().startsWith(QStringLiteral("lecture.poslab")));
    QVERIFY(!w.isWindowModified());
    w.scene()->edit(QStringLiteral("length"), QStringLiteral("length"), [](SceneParams& s) { s.length = 50; });
    QVERIFY(w.isWindowModified());
    // Open brings the saved scene back and clears the modified mark.
    QVERIFY2(actions.openFile(path, &error), qPrintable(error));
    QVERIFY(w.scene()->params() == childScene());
    QVERIFY(!w.isWindowModified());
    // Save writes to the current file.
    w.scene()->edit(QStringLiteral("length"), QStringLiteral("length"), [](SceneParams& s) { s.length = 77; });
    QVERIFY(actions.save());
    QCOMPARE(loadSession(path, &error)->length, std::int64_t(77));
    // An invalid scene is not written (it could not be opened again); the file keeps the last save.
    w.scene()->edit(QStringLiteral("base"), QStringLiteral("rope.base"), [](SceneParams& s) {
        s.methods.front().params.method = Method::Rope;
        s.methods.front().params.rope.base = 0.5;
    });
    QVERIFY(!actions.saveTo(path, &error));
    QVERIFY2(error.contains(QStringLiteral("base")), qPrintable(error));
    QCOMPARE(loadSession(path, &error)->length, std::int64_t(77));
}

void TestSessionActions::openEditSaveKeepsTheWholeDeck_data() {
    QTest::addColumn<bool>("fromTeachMenu");
    QTest::newRow("fileOpen") << false;
    QTest::newRow("teachOpenADeck") << true;
}

void TestSessionActions::openEditSaveKeepsTheWholeDeck() {
    // A deck opened, its current scene edited in the window, saved: every scene, title and note
    // is still there, and the edit is in the current one.
    QFETCH(bool, fromTeachMenu);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("lecture.poslab"));
    QString error;
    QVERIFY2(saveSessionFile(path, lectureDeck(), &error), qPrintable(error));
    MainWindow w(false);
    SessionActions actions(&w, testOptions(dir.path()));
    if (fromTeachMenu) Q_EMIT teachingOf(&w)->deckOpened(path, lectureDeck());   // what Teach ▸ Open a deck… does
    else QVERIFY2(actions.openFile(path, &error), qPrintable(error));
    QVERIFY(actions.session() == lectureDeck());
    QCOMPARE(w.scene()->params(), lectureDeck().scenes[1].scene);
    QVERIFY(teachingOf(&w)->deck() == lectureDeck());
    QCOMPARE(actions.currentFile(), QFileInfo(path).absoluteFilePath());
    w.scene()->apply(QStringLiteral("edit"), childScene());
    QVERIFY(actions.session() == editedLectureDeck());
    QVERIFY(actions.save());
    const auto back = loadSessionFile(path, &error);
    QVERIFY2(back.has_value(), qPrintable(error));
    QVERIFY(*back == editedLectureDeck());
}

void TestSessionActions::openReportsErrorsAndUnknownFields() {
    QTemporaryDir dir;
    MainWindow w(false);
    SessionActions actions(&w, testOptions(dir.path()));
    const SceneParams before = w.scene()->params();
    const QString bad = dir.filePath(QStringLiteral("bad.poslab"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"format\":\"poslab-session\",\"schema\":3,\"scenes\":[{}]}");
    f.close();
    QString error;
    QVERIFY(!actions.openFile(bad, &error));
    QVERIFY2(error.contains(QStringLiteral("written by a newer PosLab (schema 3)")), qPrintable(error));
    QVERIFY(w.scene()->params() == before);   // the scene is untouched
    // Unknown fields: opened, and reported.
    QByteArray json = sceneToJson(childScene());
    json.replace("\"schema\": 1,", "\"schema\": 1, \"future\": true,");
    const QString extra = dir.filePath(QStringLiteral("extra.poslab"));
    QFile g(extra);
    QVERIFY(g.open(QIODevice::WriteOnly));
    g.write(json);
    g.close();
    QVERIFY2(actions.openFile(extra, &error), qPrintable(error));
    QVERIFY(w.scene()->params() == childScene());
    QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("unknown field")), qPrintable(w.statusBar()->currentMessage()));
}

void TestSessionActions::recentListNewestFirst() {
    QTemporaryDir dir;
    MainWindow w(false);
    SessionActions actions(&w, testOptions(dir.path()));
    QStringList paths;
    for (int i = 0; i < kMaxRecentSessions + 2; ++i) {
        paths << dir.filePath(QStringLiteral("s%1.poslab").arg(i));
        QVERIFY(actions.saveTo(paths.back()));
    }
    const QStringList recent = recentSessions();
    QCOMPARE(recent.size(), kMaxRecentSessions);
    QCOMPARE(recent.front(), QFileInfo(paths.back()).absoluteFilePath());
    QVERIFY(!recent.contains(QFileInfo(paths.front()).absoluteFilePath()));
    // The menu lists them (plus "Clear the list").
    int files = 0;
    for (QAction* a : actions.recentMenu()->actions()) files += a->toolTip().endsWith(QStringLiteral(".poslab"));
    QCOMPARE(files, kMaxRecentSessions);
    // Re-opening moves a file to the top; a deleted file disappears from the list.
    QVERIFY(actions.openFile(paths[5]));
    QCOMPARE(recentSessions().front(), QFileInfo(paths[5]).absoluteFilePath());
    QVERIFY(QFile::remove(paths[6]));
    QVERIFY(!recentSessions().contains(QFileInfo(paths[6]).absoluteFilePath()));
}

void TestSessionActions::exportFromTheWindow() {
    QTemporaryDir dir;
    MainWindow w(false);
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    SessionActions actions(&w, testOptions(dir.path()));
    w.scene()->apply(QStringLiteral("edit"), childScene());
    const ExportRequest req = actions.windowRequest(ViewKind::Heatmap, ExportFormat::Png);
    const QSize viewPixels = w.heatmapView()->size() * w.heatmapView()->devicePixelRatioF();
    QCOMPARE(req.pixels, viewPixels);
    const QString path = dir.filePath(QStringLiteral("heat.png"));
    QString error;
    QVERIFY2(actions.exportTo(path, req, &error), qPrintable(error));
    QImageReader reader(path);
    QVERIFY(reader.text(QStringLiteral("poslab-session")).contains(QStringLiteral("\"length\":123")));
    QCOMPARE(reader.read().size(), viewPixels);
}

void TestSessionActions::exportAsksBeforeReplacing() {
    QTemporaryDir dir;
    MainWindow w(false);
    SessionActions actions(&w, testOptions(dir.path()));
    const QString path = dir.filePath(QStringLiteral("fig.svg"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("old");
    f.close();
    QStringList asked;
    bool answer = false;
    actions.setConfirmReplace([&](const QString& p) {
        asked << p;
        return answer;
    });
    ExportRequest req;
    req.format = ExportFormat::Svg;
    req.pixels = QSize(400, 300);
    QString error;
    QVERIFY(!actions.exportTo(path, req, &error));
    QCOMPARE(asked, QStringList{path});
    {
        QFile r(path);
        QVERIFY(r.open(QIODevice::ReadOnly));
        QCOMPARE(r.readAll(), QByteArray("old"));
    }
    answer = true;
    QVERIFY2(actions.exportTo(path, req, &error), qPrintable(error));
    QCOMPARE(asked.size(), 2);
    QFile r(path);
    QVERIFY(r.open(QIODevice::ReadOnly));
    QVERIFY(r.readAll().startsWith("<?xml"));
    // A new file is not asked about.
    QVERIFY(actions.exportTo(dir.filePath(QStringLiteral("new.svg")), req, &error));
    QCOMPARE(asked.size(), 2);
}

void TestSessionActions::exportDialogStartsFromTheWindow() {
    QTemporaryDir dir;
    MainWindow w(false);
    SessionActions actions(&w, testOptions(dir.path()));
    ExportDialog d(w.scene()->params(), [&](std::optional<ViewKind> v, ExportFormat f) {
        ExportRequest r;
        r.view = v;
        r.format = f;
        r.pixels = v ? QSize(640, 480) : QSize(1500, 900);
        r.dpi = 144;
        return r;
    });
    QCOMPARE(d.request().pixels, QSize(1500, 900));   // all views first
    QCOMPARE(d.request().dpi, 144);
    ExportRequest r;
    r.view = ViewKind::Decay;
    r.format = ExportFormat::Pdf;
    r.pixels = QSize(800, 500);
    r.dpi = 300;
    r.theme = QStringLiteral("projector");
    r.fontScale = 1.5;
    d.setRequest(r);
    const ExportRequest back = d.request();
    QVERIFY(back.view == r.view && back.format == r.format && back.pixels == r.pixels && back.dpi == r.dpi &&
            back.theme == r.theme && back.fontScale == r.fontScale);
}

void TestSessionActions::exportDialogLabelsShowNoAmpersand() {
    // An '&' shows literally in a label without a buddy; with one it must mark one mnemonic.
    QTemporaryDir dir;
    MainWindow w(false);
    SessionActions actions(&w, testOptions(dir.path()));
    ExportDialog d(w.scene()->params(), [&](std::optional<ViewKind> v, ExportFormat f) { return actions.windowRequest(v, f); }, &w);
    d.show();
    QVERIFY(QTest::qWaitForWindowExposed(&d));
    int labels = 0, mnemonics = 0;
    for (QLabel* l : d.findChildren<QLabel*>()) {
        if (!l->isVisibleTo(&d) || l->text().isEmpty()) continue;
        ++labels;
        const QString text = l->text();
        if (!l->buddy()) {
            QVERIFY2(!text.contains(QLatin1Char('&')), qPrintable(QStringLiteral("label without buddy: ") + text));
            continue;
        }
        QString rest = text;
        rest.replace(QStringLiteral("&&"), QString());
        QVERIFY2(rest.count(QLatin1Char('&')) == 1, qPrintable(text));
        const qsizetype at = rest.indexOf(QLatin1Char('&'));
        QVERIFY2(at + 1 < rest.size() && rest.at(at + 1).isLetterOrNumber(), qPrintable(text));
        ++mnemonics;
    }
    QVERIFY(labels >= 6);
    QVERIFY(mnemonics >= 6);   // view, format, size, resolution, theme, text size
    d.close();
}

void TestSessionActions::menusNameEachEntryOnce_data() {
    QTest::addColumn<QString>("menu");
    for (const char* m : {"File", "Edit", "View", "Presets", "Teach", "Help"}) QTest::newRow(m) << QString::fromLatin1(m);
}

void TestSessionActions::menusNameEachEntryOnce() {
    // The window as the application builds it: teaching mode and the session actions installed.
    QFETCH(QString, menu);
    QTemporaryDir dir;
    MainWindow w(false);
    SessionActions::Options o = testOptions(dir.path());
    o.recentFiles = false;
    SessionActions actions(&w, o);
    const auto plain = [](QString t) {
        t.remove(QLatin1Char('&'));
        t.remove(QChar(0x2026));   // …
        return t.trimmed();
    };
    QMenu* found = nullptr;
    for (QAction* a : w.menuBar()->actions())
        if (a->menu() && plain(a->text()) == menu) found = a->menu();
    QVERIFY2(found, qPrintable(menu));
    std::function<void(QMenu*, const QString&)> check = [&](QMenu* m, const QString& where) {
        QStringList seen;
        for (QAction* a : m->actions()) {
            const QString t = plain(a->text());
            if (t.isEmpty()) continue;   // separators
            QVERIFY2(!seen.contains(t), qPrintable(QStringLiteral("%1: \"%2\" twice").arg(where, t)));
            seen << t;
            if (a->menu()) check(a->menu(), where + QStringLiteral(" > ") + t);
        }
    };
    check(found, menu);
    QVERIFY(found->actions().size() >= 2);
}

void TestSessionActions::killedWindowIsOfferedForRestore_data() {
    QTest::addColumn<bool>("deck");
    QTest::addColumn<bool>("restore");
    QTest::newRow("scene_answerRestore") << false << true;
    QTest::newRow("scene_answerDiscard") << false << false;
    QTest::newRow("deckOfThree_answerRestore") << true << true;
    QTest::newRow("deckOfThree_answerDiscard") << true << false;
}

void TestSessionActions::killedWindowIsOfferedForRestore() {
    QFETCH(bool, deck);
    QFETCH(bool, restore);
    QTemporaryDir dir;
    QVERIFY(killedChildWindow(dir.path(), deck));
    MainWindow w(false);
    SessionActions actions(&w, testOptions(dir.path()));
    w.show();
    const SceneParams before = w.scene()->params();
    const Session teachingBefore = teachingOf(&w)->deck();
    actions.offerRestore();
    QMessageBox* box = actions.restorePrompt();
    QVERIFY2(box, "no restore offer after a killed run");
    QVERIFY(box->text().contains(QStringLiteral("did not close properly")));
    QCOMPARE(box->text().contains(QStringLiteral("deck of 3 scenes")), deck);
    auto* button = box->findChild<QPushButton*>(restore ? QStringLiteral("restoreButton") : QStringLiteral("discardButton"));
    QVERIFY(button);
    button->click();
    if (restore && deck) {
        // The whole deck: every scene with its title and notes, and the current one in the window.
        const Session expected = editedLectureDeck();
        QVERIFY(actions.session() == expected);
        QCOMPARE(w.scene()->params(), childScene());
        QVERIFY(teachingOf(&w)->deck() == expected);
        // It is the open session: saved whole, and autosaved whole again.
        const QString path = dir.filePath(QStringLiteral("restored.poslab"));
        QVERIFY(actions.saveTo(path));
        QString error;
        const auto saved = loadSessionFile(path, &error);
        QVERIFY2(saved.has_value(), qPrintable(error));
        QVERIFY(*saved == expected);
        QVERIFY(actions.autosave()->saveNow());
        const auto autosaved = loadSessionFile(actions.autosave()->filePath(), &error);
        QVERIFY2(autosaved.has_value(), qPrintable(error));
        QVERIFY(*autosaved == expected);
    } else if (restore) {
        QVERIFY(w.scene()->params() == childScene());
        QCOMPARE(actions.session().scenes.size(), std::size_t(1));
    } else {
        QVERIFY(w.scene()->params() == before);
        QVERIFY(teachingOf(&w)->deck() == teachingBefore);
    }
    // Answered: not offered again.
    MainWindow w2(false);
    SessionActions again(&w2, testOptions(dir.path()));
    again.offerRestore();
    QVERIFY(!again.restorePrompt());
}

void TestSessionActions::cleanQuitLeavesNoAutosave() {
    // A window process that autosaved and then quit normally leaves nothing to restore.
    QTemporaryDir dir;
    QProcess p;
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--window-child"), dir.path(), QStringLiteral("quit")});
    QVERIFY(p.waitForStarted(10000));
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QVERIFY2(p.readAll().startsWith("saved "), "the child did not autosave before quitting");
    QVERIFY(QDir(dir.path()).entryList({QStringLiteral("autosave-*.poslab")}, QDir::Files).isEmpty());
    MainWindow w(false);
    SessionActions next(&w, testOptions(dir.path()));
    next.offerRestore();
    QVERIFY(!next.restorePrompt());
}

int main(int argc, char** argv) {
    if (argc >= 3 && std::strcmp(argv[1], "--window-child") == 0) return childMain(argc, argv);
    QApplication app(argc, argv);
    TestSessionActions t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_sessionactions.moc"
