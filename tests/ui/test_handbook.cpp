// The offline handbook (Help ▸ Handbook, F1): it is compiled in, names every view, every method
// (with its demonstrations), every demonstration in lecture order, every `poslab compute WHAT`
// and `figure VIEW`, every menu shortcut of the window and every key of presentation mode — and
// presentation mode handles exactly the keys the handbook lists.
#include "core/demonstrations.h"
#include "core/method.h"
#include "ui/io/export.h"
#include "ui/window/mainwindow.h"
#include "ui/window/sessionactions.h"
#include "ui/teaching/handbook.h"
#include "ui/teaching/presentation.h"
#include "ui/teaching/demoscenes.h"
#include "ui/teaching/demotext.h"

#include <QAction>
#include <QApplication>
#include <QKeyEvent>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QTextBrowser>
#include <QTextDocument>
#include <QtTest>

using namespace poslab;
using namespace poslab::ui;

namespace {

QString qs(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

// The handbook as a reader sees it (HTML rendered to plain text).
QString handbookText(const QMainWindow* w) {
    QTextDocument doc;
    doc.setHtml(handbookHtml(w));
    return doc.toPlainText();
}

bool presentationHandles(int key) {
    for (const auto& row : presentationKeys())
        for (int k : row.keys)
            if (k == key) return true;
    return false;
}

}  // namespace

class TestHandbook : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void isCompiledIn();
    void namesEveryView_data();
    void namesEveryView();
    void namesEveryMethodWithItsDemonstrations_data();
    void namesEveryMethodWithItsDemonstrations();
    void listsTheLectureInOrder();
    void listsEveryComputeWhat();
    void listsEveryFigureView();
    void listsTheWindowShortcuts_data();
    void listsTheWindowShortcuts();
    void everyMenuShortcutIsListed();
    void presentationHandlesExactlyTheListedKeys_data();
    void presentationHandlesExactlyTheListedKeys();
    void opensFromHelpWithF1();
};

void TestHandbook::isCompiledIn() {
    const QString html = handbookHtml(nullptr);
    QVERIFY2(html.contains(QStringLiteral("<h1>PosLab handbook</h1>")), qPrintable(html.left(200)));
    QVERIFY(!html.contains(QStringLiteral("<!--@")));   // every generated section filled
}

void TestHandbook::namesEveryView_data() {
    QTest::addColumn<int>("view");
    for (ViewKind v : kAllViews) QTest::newRow(qPrintable(viewKey(v))) << int(v);
}

void TestHandbook::namesEveryView() {
    QFETCH(int, view);
    const QString text = handbookText(nullptr);
    // Its own paragraph under "The views" (hand-written: a new view must be described).
    const QString views = text.section(QStringLiteral("The views"), 2).section(QStringLiteral("The methods"), 0, 0);
    QVERIFY2(views.contains(viewTitle(ViewKind(view))), qPrintable(viewTitle(ViewKind(view))));
}

void TestHandbook::namesEveryMethodWithItsDemonstrations_data() {
    QTest::addColumn<int>("method");
    for (Method m : kAllMethods) QTest::newRow(methodKey(m).data()) << int(m);
}

void TestHandbook::namesEveryMethodWithItsDemonstrations() {
    QFETCH(int, method);
    const Method m = Method(method);
    const QString text = handbookText(nullptr);
    const QString methods = text.section(QStringLiteral("The methods"), 2).section(QStringLiteral("The lecture"), 0, 0);
    const QString title = qs(methodTitle(m));
    QVERIFY2(methods.contains(title), qPrintable(title));
    QVERIFY(methods.contains(QStringLiteral("--method %1").arg(qs(methodKey(m)))));
    QVERIFY(methods.contains(qs(methodSummary(m))));
    // Its demonstrations are named in its entry (the entry ends where the next method's starts).
    const QString entry = methods.section(title, 1).section(QStringLiteral("(--method "), 1, 1);
    for (const auto& d : demonstrations())
        for (const auto& k : d.methods)
            if (k == methodKey(m)) QVERIFY2(entry.contains(demoTitle(d.id)), qPrintable(demoTitle(d.id)));
}

void TestHandbook::listsTheLectureInOrder() {
    const QString text = handbookText(nullptr);
    const QString lecture = text.section(QStringLiteral("The lecture"), 2).section(QStringLiteral("The command line"), 0, 0);
    qsizetype at = 0;
    for (const auto& d : demonstrations()) {
        const qsizetype i = lecture.indexOf(demoTitle(d.id) + QStringLiteral(" (") + qs(d.key) + QStringLiteral("): ") + demoClaim(d.id), at);
        QVERIFY2(i >= at, qPrintable(qs(d.key)));
        at = i + 1;
    }
    // ... which is the default deck's order.
    const Session deck = demoDeck();
    QCOMPARE(deck.scenes.size(), demonstrations().size());
    for (std::size_t i = 0; i < deck.scenes.size(); ++i) QCOMPARE(deck.scenes[i].slide.demo, qs(demonstrations()[i].key));
}

// The program's own list: `poslab compute` without WHAT names every WHAT in its one error line.
void TestHandbook::listsEveryComputeWhat() {
    QProcess p;
    p.start(QStringLiteral(POSLAB_EXE), {QStringLiteral("compute")});
    QVERIFY(p.waitForFinished(60000));
    const QString err = QString::fromUtf8(p.readAllStandardError()).trimmed();
    QCOMPARE(p.exitCode(), 2);
    const QString list = err.section(QStringLiteral("one of "), 1).section(QStringLiteral(", got"), 0, 0);
    const QStringList whats = list.split(QStringLiteral(", "));
    QVERIFY2(whats.size() >= 10, qPrintable(err));
    const QString text = handbookText(nullptr);
    const QString cli = text.section(QStringLiteral("The command line"), 2);
    const QString line = cli.section(QStringLiteral("WHAT is one of: "), 1).section(QLatin1Char('.'), 0, 0);
    QCOMPARE(line.split(QStringLiteral(", ")), whats);
}

void TestHandbook::listsEveryFigureView() {
    const QString text = handbookText(nullptr);
    const QString line = text.section(QStringLiteral("VIEW is one of: "), 1).section(QLatin1Char('.'), 0, 0);
    for (const QString& k : viewKeys() + QStringList{QStringLiteral("all"), QStringLiteral("demo")})
        QVERIFY2(line.split(QStringLiteral(", ")).contains(k), qPrintable(k));
}

void TestHandbook::listsTheWindowShortcuts_data() {
    QTest::addColumn<QKeySequence>("keys");
    QTest::addColumn<QString>("path");
    QTest::newRow("F5_present") << QKeySequence(Qt::Key_F5) << QStringLiteral("Teach ▸ Present the deck");
    QTest::newRow("CtrlShiftD_editDeck") << QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D) << QStringLiteral("Teach ▸ Edit the deck");
    QTest::newRow("F1_handbook") << QKeySequence(QKeySequence::HelpContents) << QStringLiteral("Help ▸ Handbook");
    QTest::newRow("CtrlE_export") << QKeySequence(Qt::CTRL | Qt::Key_E) << QStringLiteral("File ▸ Export figure or data");
    QTest::newRow("CtrlSpace_play") << QKeySequence(Qt::CTRL | Qt::Key_Space) << QStringLiteral("Teach ▸ Play the position forward");
    QTest::newRow("CtrlY_redo") << QKeySequence(Qt::CTRL | Qt::Key_Y) << QStringLiteral("Edit ▸ Redo");
}

void TestHandbook::listsTheWindowShortcuts() {
    QFETCH(QKeySequence, keys);
    QFETCH(QString, path);
    MainWindow w(false);
    SessionActions actions(&w, SessionActions::Options{false, false, {}});
    const QString text = handbookText(&w);
    const QString section = text.section(QStringLiteral("Keyboard shortcuts of the window"), 1).section(QStringLiteral("Presentation mode"), 0, 0);
    // A table row: the keys in one cell, the menu path in the next.
    bool found = false;
    const QStringList lines = section.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i + 1 < lines.size(); ++i)
        if (lines[i].split(QStringLiteral(" or ")).contains(keys.toString(QKeySequence::NativeText)) && lines[i + 1].startsWith(path))
            found = true;
    QVERIFY2(found, qPrintable(section));
}

// Whatever a menu of the window has a shortcut for is in the handbook (walked independently:
// every QAction of the window reachable from the menu bar).
void TestHandbook::everyMenuShortcutIsListed() {
    MainWindow w(false);
    SessionActions actions(&w, SessionActions::Options{false, false, {}});
    const QString text = handbookText(&w);
    int n = 0;
    for (QAction* top : w.menuBar()->actions()) {
        if (!top->menu()) continue;
        QList<QMenu*> menus{top->menu()};
        while (!menus.isEmpty()) {
            QMenu* m = menus.takeFirst();
            for (QAction* a : m->actions()) {
                if (a->menu()) menus << a->menu();
                for (const QKeySequence& k : a->shortcuts()) {
                    QVERIFY2(text.contains(k.toString(QKeySequence::NativeText)), qPrintable(a->text()));
                    ++n;
                }
            }
        }
    }
    QVERIFY(n >= 10);
    QCOMPARE(windowShortcutRows(&w).size() > 0, true);
}

void TestHandbook::presentationHandlesExactlyTheListedKeys_data() {
    QTest::addColumn<int>("key");
    QList<int> keys;
    for (int k = Qt::Key_A; k <= Qt::Key_Z; ++k) keys << k;
    for (int k = Qt::Key_0; k <= Qt::Key_9; ++k) keys << k;
    for (int k = Qt::Key_F1; k <= Qt::Key_F12; ++k) keys << k;
    keys << Qt::Key_Left << Qt::Key_Right << Qt::Key_Up << Qt::Key_Down << Qt::Key_PageUp << Qt::Key_PageDown
         << Qt::Key_Home << Qt::Key_End << Qt::Key_Space << Qt::Key_Return << Qt::Key_Enter << Qt::Key_Backspace
         << Qt::Key_Escape << Qt::Key_Delete << Qt::Key_Insert << Qt::Key_Plus << Qt::Key_Minus
         << Qt::Key_Period << Qt::Key_Question;
    for (int k : keys) QTest::newRow(qPrintable(QKeySequence(k).toString(QKeySequence::PortableText))) << k;
}

void TestHandbook::presentationHandlesExactlyTheListedKeys() {
    QFETCH(int, key);
    Session deck = demoDeck();
    deck.current = 2;
    PresentationWindow p(deck);
    p.resize(640, 360);
    QKeyEvent e(QEvent::KeyPress, key, Qt::NoModifier);
    e.setAccepted(false);
    QApplication::sendEvent(&p, &e);
    QCOMPARE(e.isAccepted(), presentationHandles(key));
    if (presentationHandles(key)) {
        const QString text = handbookText(nullptr).section(QStringLiteral("Presentation mode"), 2);
        QVERIFY(text.contains(QKeySequence(key).toString(QKeySequence::NativeText)));
    }
}

void TestHandbook::opensFromHelpWithF1() {
    MainWindow w(false);
    auto* a = w.findChild<QAction*>(QStringLiteral("helpHandbook"));
    QVERIFY(a);
    QVERIFY(a->shortcuts().contains(QKeySequence(QKeySequence::HelpContents)));
    a->trigger();
    auto* d = w.findChild<HandbookDialog*>();
    QVERIFY(d && d->isVisible());
    QVERIFY(d->browser()->toPlainText().contains(QStringLiteral("Keyboard shortcuts of the window")));
    const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR");
    if (!dir.isEmpty()) {
        d->grab().save(dir + QStringLiteral("/handbook_start.png"));
        d->showSection(QStringLiteral("keys"));
        d->grab().save(dir + QStringLiteral("/handbook_keys.png"));
    }
    a->trigger();   // again: the same dialog, not a second one
    QCOMPARE(w.findChildren<HandbookDialog*>().size(), 1);
}

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("PosLabTests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_handbook"));
    TestHandbook t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_handbook.moc"
