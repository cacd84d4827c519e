// Autosave: writes after changes (debounced), a clean finish removes the file, a run that is
// killed (SIGKILL, a real child process) leaves its autosave as a leftover for the next start,
// while a running instance's autosave is never taken for a leftover.
#include <QApplication>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <cstdio>
#include <cstring>

#include "ui/io/autosave.h"

using namespace poslab;
using namespace poslab::ui;

namespace {

SceneParams markedScene(int length) {
    SceneParams s;
    s.length = length;
    s.methods.front().label = QStringLiteral("autosaved %1").arg(length);
    return s;
}

// Child mode: autosave a scene into `dir`, say so, then wait to be killed (or exit cleanly).
int childMain(int argc, char** argv) {
    QApplication app(argc, argv);
    const QString dir = QString::fromLocal8Bit(argv[2]);
    const bool clean = argc > 4 && std::strcmp(argv[4], "clean") == 0;
    Autosave a(dir);
    if (!a.start()) return 3;
    a.setScene(markedScene(std::atoi(argv[3])));
    if (!a.saveNow()) return 4;
    if (clean) {
        a.finish();
        return 0;
    }
    std::printf("saved %s\n", qPrintable(a.filePath()));
    std::fflush(stdout);
    for (;;) QThread::sleep(1);   // until SIGKILL
}

QStringList autosaveFiles(const QString& dir) {
    return QDir(dir).entryList({QStringLiteral("autosave-*.poslab")}, QDir::Files, QDir::Name);
}

// Starts a child that autosaves `length` and is then killed with SIGKILL.
bool crashChild(const QString& dir, int length) {
    QProcess p;
    p.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--autosave-child"), dir, QString::number(length)});
    if (!p.waitForStarted(10000)) return false;
    if (!p.waitForReadyRead(20000)) return false;
    const QByteArray line = p.readLine();
    if (!line.startsWith("saved ")) return false;
    p.kill();   // SIGKILL: no destructor, no finish()
    p.waitForFinished(10000);
    return p.exitStatus() == QProcess::CrashExit;
}

}  // namespace

class TestAutosave : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void writesAfterQuietDelay();
    void writesDuringContinuousChanges();
    void finishRemovesFile();
    void killedRunLeavesLeftover();
    void cleanExitLeavesNothing();
    void runningInstanceIsNotALeftover();
    void leftoversNewestFirstAndDiscard();
    void unreadableLeftoverIsReported();
    void unwritableDirectoryFailsCleanly();
    void killedWindowRestoresItsDeck_data();
    void killedWindowRestoresItsDeck();
};

void TestAutosave::writesAfterQuietDelay() {
    QTemporaryDir dir;
    Autosave a(dir.path());
    a.setDelays(50, 1000);
    QVERIFY(a.start());
    QSignalSpy saved(&a, &Autosave::saved);
    a.setScene(markedScene(11));
    QVERIFY(a.pending());
    QVERIFY(!QFile::exists(a.filePath()));   // not before the quiet delay
    QVERIFY(saved.wait(5000));
    QVERIFY(!a.pending());
    QString error;
    const auto back = loadSession(a.filePath(), &error);
    QVERIFY2(back.has_value(), qPrintable(error));
    QVERIFY(*back == markedScene(11));
}

void TestAutosave::writesDuringContinuousChanges() {
    // Edits every 20 ms never leave 100 ms of quiet; the longest delay (300 ms) still saves.
    QTemporaryDir dir;
    Autosave a(dir.path());
    a.setDelays(100, 300);
    QVERIFY(a.start());
    QSignalSpy saved(&a, &Autosave::saved);
    QElapsedTimer t;
    t.start();
    int n = 1;
    while (saved.isEmpty() && t.elapsed() < 3000) {
        a.setScene(markedScene(++n));
        QTest::qWait(20);
    }
    QVERIFY2(!saved.isEmpty(), "nothing saved while changes kept coming");
    QVERIFY2(t.elapsed() < 1500, qPrintable(QString::number(t.elapsed())));
}

void TestAutosave::finishRemovesFile() {
    QTemporaryDir dir;
    Autosave a(dir.path());
    QVERIFY(a.start());
    a.setScene(markedScene(5));
    QVERIFY(a.saveNow());
    QVERIFY(QFile::exists(a.filePath()));
    a.finish();
    QVERIFY(autosaveFiles(dir.path()).isEmpty());
    QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());   // no lock either
}

void TestAutosave::killedRunLeavesLeftover() {
    QTemporaryDir dir;
    QVERIFY(crashChild(dir.path(), 321));
    QCOMPARE(autosaveFiles(dir.path()).size(), 1);
    Autosave next(dir.path());
    QStringList problems;
    const auto left = next.leftovers(&problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    QCOMPARE(left.size(), std::size_t(1));
    QVERIFY(left.front().session.scenes.front().scene == markedScene(321));
    // The new run takes another slot and keeps the leftover until it is answered.
    QVERIFY(next.start());
    QVERIFY(next.filePath() != left.front().path);
    QCOMPARE(next.leftovers().size(), std::size_t(1));
    Autosave::discard(left.front());
    QVERIFY(next.leftovers().empty());
}

void TestAutosave::cleanExitLeavesNothing() {
    QTemporaryDir dir;
    QProcess p;
    p.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--autosave-child"), dir.path(), QStringLiteral("9"), QStringLiteral("clean")});
    QVERIFY(p.waitForFinished(20000));
    QCOMPARE(p.exitCode(), 0);
    QVERIFY(autosaveFiles(dir.path()).isEmpty());
    QVERIFY(Autosave(dir.path()).leftovers().empty());
}

void TestAutosave::runningInstanceIsNotALeftover() {
    QTemporaryDir dir;
    Autosave running(dir.path());
    QVERIFY(running.start());
    running.setScene(markedScene(7));
    QVERIFY(running.saveNow());
    Autosave other(dir.path());
    QVERIFY(other.leftovers().empty());
    QVERIFY(other.start());
    QVERIFY(other.filePath() != running.filePath());
    // A second window in another process likewise (its lock names a live process).
    QProcess child;
    child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--autosave-child"), dir.path(), QStringLiteral("8")});
    QVERIFY(child.waitForReadyRead(20000));
    QVERIFY(Autosave(dir.path()).leftovers().empty());
    child.kill();
    child.waitForFinished(10000);
    QCOMPARE(Autosave(dir.path()).leftovers().size(), std::size_t(1));
}

void TestAutosave::leftoversNewestFirstAndDiscard() {
    QTemporaryDir dir;
    QVERIFY(crashChild(dir.path(), 100));
    QTest::qWait(1100);   // distinct modification times (1 s resolution on some file systems)
    QVERIFY(crashChild(dir.path(), 200));
    const auto left = Autosave(dir.path()).leftovers();
    QCOMPARE(left.size(), std::size_t(2));
    QVERIFY(left[0].session.scenes.front().scene == markedScene(200));
    QVERIFY(left[1].session.scenes.front().scene == markedScene(100));
    QVERIFY(left[0].saved >= left[1].saved);
    for (const auto& l : left) Autosave::discard(l);
    QVERIFY(autosaveFiles(dir.path()).isEmpty());
}

void TestAutosave::unreadableLeftoverIsReported() {
    QTemporaryDir dir;
    QFile f(dir.filePath(QStringLiteral("autosave-3.poslab")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"format\": \"poslab-session\", \"schema\": 1, \"scen");   // torn write of an old version
    f.close();
    QStringList problems;
    QVERIFY(Autosave(dir.path()).leftovers(&problems).empty());
    QCOMPARE(problems.size(), 1);
    QVERIFY2(problems.front().contains(QStringLiteral("truncated")), qPrintable(problems.front()));
}

void TestAutosave::unwritableDirectoryFailsCleanly() {
    QTemporaryDir dir;
    QFile f(dir.filePath(QStringLiteral("file")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.close();
    Autosave a(dir.filePath(QStringLiteral("file/autosave")));   // parent is a file
    QString error;
    QVERIFY(!a.start(&error));
    QVERIFY2(error.contains(QStringLiteral("cannot create the autosave directory")), qPrintable(error));
    QSignalSpy failed(&a, &Autosave::failed);
    a.setScene(markedScene(3));
    QVERIFY(!a.saveNow());
    QCOMPARE(failed.size(), 1);
}

namespace {

// PosLab's window as a process of its own: offscreen, with its own home, settings and data
// folders (so that its autosave folder is the test's).
void startWindow(QProcess& p, const QString& home, const QStringList& args, const QString& answer = {}) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("HOME"), home);
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/.config"));
    env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/.local/share"));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), home + QStringLiteral("/.cache"));
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), home + QStringLiteral("/.run"));
    if (!answer.isEmpty()) env.insert(QStringLiteral("POSLAB_ANSWER_RESTORE"), answer);
    QDir(home).mkpath(QStringLiteral(".run"));
    QFile::setPermissions(home + QStringLiteral("/.run"), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p.start(QStringLiteral(POSLAB_EXE), args);
}

// The slide titles of every autosave under `home` other than `except`, waiting up to `ms` for one
// whose titles are `titles`; its path, or empty.
QString waitForAutosave(const QString& home, const QStringList& titles, const QString& except, int ms) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) {
        QDirIterator it(home, {QStringLiteral("autosave-*.poslab")}, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            if (path == except) continue;
            QString error;
            const auto session = loadSessionFile(path, &error);
            if (!session) continue;
            QStringList got;
            for (const auto& sc : session->scenes) got << sc.title;
            if (got == titles) return path;
        }
        QTest::qWait(100);
    }
    return {};
}

}  // namespace

// The window killed with SIGKILL after its deck was autosaved: the next start restores that deck
// (not the default lecture): its slides, titles and notes, and the slide it was on.
void TestAutosave::killedWindowRestoresItsDeck_data() {
    QTest::addColumn<QStringList>("titles");
    QTest::addColumn<int>("current");
    QTest::newRow("threeSlides_current2") << QStringList{"Mine: rotation", "Mine: decay", "Mine: buckets"} << 2;
    QTest::newRow("twoSlides_current0") << QStringList{"Only two", "slides here"} << 0;
}

void TestAutosave::killedWindowRestoresItsDeck() {
    QFETCH(QStringList, titles);
    QFETCH(int, current);
    QTemporaryDir home;
    Session deck;
    deck.scenes.clear();
    for (const QString& t : titles) {
        SessionScene sc;
        sc.title = t;
        sc.notes = QStringLiteral("say: ") + t;
        sc.scene.length = 16 + int(deck.scenes.size());
        deck.scenes.push_back(sc);
    }
    deck.current = current;
    const QString file = home.filePath(QStringLiteral("edited.poslab"));
    QString error;
    QVERIFY2(saveSessionFile(file, deck, &error), qPrintable(error));

    // First run: the edited deck is the session; once autosaved, SIGKILL.
    QProcess first;
    startWindow(first, home.path(), {QStringLiteral("--session"), file});
    QVERIFY(first.waitForStarted(10000));
    const QString leftover = waitForAutosave(home.path(), titles, {}, 30000);
    QVERIFY2(!leftover.isEmpty(), "the first run never autosaved its deck");
    first.kill();
    QVERIFY(first.waitForFinished(10000));
    QCOMPARE(first.exitStatus(), QProcess::CrashExit);

    // Second run: it offers the restore (answered "restore"), and its own autosave then holds
    // the deck it restored.
    QProcess second;
    startWindow(second, home.path(), {}, QStringLiteral("restore"));
    QVERIFY(second.waitForStarted(10000));
    const QString restored = waitForAutosave(home.path(), titles, leftover, 30000);
    second.kill();
    second.waitForFinished(10000);
    QVERIFY2(!restored.isEmpty(), "the second run did not restore the edited deck");
    const auto back = loadSessionFile(restored, &error);
    QVERIFY2(back.has_value(), qPrintable(error));
    QCOMPARE(back->current, current);
    for (std::size_t k = 0; k < deck.scenes.size(); ++k) {
        QCOMPARE(back->scenes[k].notes, deck.scenes[k].notes);
        QCOMPARE(back->scenes[k].scene.length, deck.scenes[k].scene.length);
    }
}

int main(int argc, char** argv) {
    if (argc >= 4 && std::strcmp(argv[1], "--autosave-child") == 0) return childMain(argc, argv);
    QApplication app(argc, argv);
    TestAutosave t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_autosave.moc"
