// The welcome page: shown at the first start only (unless asked for at every start), and each
// of its start paths does what it says — explore (nothing changes), the lecture (its first slide
// in the window, the deck panel open), present it, a real model's preset, the handbook.
#include "ui/io/presets.h"
#include "ui/window/mainwindow.h"
#include "ui/teaching/deck.h"
#include "ui/teaching/demoscenes.h"
#include "ui/teaching/handbook.h"
#include "ui/teaching/presentation.h"
#include "ui/window/teaching.h"
#include "ui/window/welcome.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QPushButton>
#include <QSettings>
#include <QtTest>

using namespace poslab;
using namespace poslab::ui;

class TestWelcome : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() {
        QSettings s;
        s.remove(QStringLiteral("welcome"));
    }
    void shownAtTheFirstStartOnly();
    void shownAtEveryStartWhenAsked();
    void exploreChangesNothing();
    void lectureOpensItsFirstSlideAndTheDeck();
    void presentStartsPresentationMode();
    void presetTakesTheModel_data();
    void presetTakesTheModel();
    void handbookButtonOpensTheHandbook();
    void helpMenuShowsItAgain();
};

void TestWelcome::shownAtTheFirstStartOnly() {
    MainWindow w(false);
    QPointer<WelcomeDialog> d = welcomeAtStart(&w);
    QVERIFY(d);
    QVERIFY(d->isVisible());
    QVERIFY(!d->isModal());
    d->close();
    QVERIFY(!welcomeAtStart(&w));   // the second start
}

void TestWelcome::shownAtEveryStartWhenAsked() {
    MainWindow w(false);
    WelcomeDialog* d = welcomeAtStart(&w);
    QVERIFY(d);
    QVERIFY(!d->atEveryStartBox()->isChecked());
    d->atEveryStartBox()->setChecked(true);
    d->close();
    WelcomeDialog* again = welcomeAtStart(&w);
    QVERIFY(again);
    QVERIFY(again->atEveryStartBox()->isChecked());
    again->atEveryStartBox()->setChecked(false);
    again->close();
    QVERIFY(!welcomeAtStart(&w));
}

void TestWelcome::exploreChangesNothing() {
    MainWindow w(false);
    const SceneParams before = w.scene()->committed();
    const int undo = w.scene()->undoStack()->count();
    WelcomeDialog d(&w);
    d.show();
    const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR");
    if (!dir.isEmpty()) d.grab().save(dir + QStringLiteral("/welcome.png"));
    d.exploreButton()->click();
    QVERIFY(!d.isVisible());
    QVERIFY(w.scene()->committed() == before);
    QCOMPARE(w.scene()->undoStack()->count(), undo);
}

void TestWelcome::lectureOpensItsFirstSlideAndTheDeck() {
    MainWindow w(false);
    auto* t = teachingOf(&w);
    QVERIFY(t->deckDock()->isHidden());
    const SceneParams look = w.scene()->committed();
    WelcomeDialog d(&w);
    d.show();
    d.lectureButton()->click();
    QVERIFY(!d.isVisible());
    QVERIFY(!t->deckDock()->isHidden());
    QCOMPARE(t->deckModel()->current(), 0);
    QCOMPARE(t->deck().scenes.front().slide.demo, demoDeck().scenes.front().slide.demo);
    // The first slide in the window, in the window's own theme and text size (deck.h withLook).
    QVERIFY(w.scene()->committed() == withLook(t->deck().scenes.front().scene, look));
    QCOMPARE(w.scene()->committed().view.theme, look.view.theme);
    QVERIFY(t->deck().scenes.front() == demoDeck().scenes.front());
}

void TestWelcome::presentStartsPresentationMode() {
    MainWindow w(false);
    auto* t = teachingOf(&w);
    WelcomeDialog d(&w);
    d.show();
    d.presentButton()->click();
    QVERIFY(!d.isVisible());
    QVERIFY(t->presentation());
    QVERIFY(t->presentation()->isVisible());
    QCOMPARE(t->presentation()->count(), int(demoDeck().scenes.size()));
    t->presentation()->leave();
}

void TestWelcome::presetTakesTheModel_data() {
    QTest::addColumn<QString>("key");
    for (const char* k : {"llama-3.1-8b", "t5-base", "bloom"}) QTest::newRow(k) << QString::fromLatin1(k);
}

void TestWelcome::presetTakesTheModel() {
    QFETCH(QString, key);
    MainWindow w(false);
    WelcomeDialog d(&w);
    d.show();
    const int i = d.presetBox()->findData(key);
    QVERIFY(i >= 0);
    d.presetBox()->setCurrentIndex(i);
    d.presetButton()->click();
    QVERIFY(!d.isVisible());
    const ModelPreset* p = findPreset(key.toStdString());
    QVERIFY(p);
    QCOMPARE(w.scene()->committed().presetKey, key);
    QVERIFY(w.scene()->committed().methods.front().params == p->params);
}

void TestWelcome::handbookButtonOpensTheHandbook() {
    MainWindow w(false);
    WelcomeDialog d(&w);
    d.show();
    d.handbookButton()->click();
    auto* h = w.findChild<HandbookDialog*>();
    QVERIFY(h && h->isVisible());
    QVERIFY(d.isVisible());   // the welcome stays: the handbook is beside it
}

void TestWelcome::helpMenuShowsItAgain() {
    MainWindow w(false);
    QVERIFY(welcomeAtStart(&w));
    for (auto* d : w.findChildren<WelcomeDialog*>()) d->close();
    QVERIFY(!welcomeAtStart(&w));
    auto* a = w.findChild<QAction*>(QStringLiteral("helpWelcome"));
    QVERIFY(a);
    a->trigger();
    bool visible = false;
    for (auto* d : w.findChildren<WelcomeDialog*>()) visible = visible || d->isVisible();
    QVERIFY(visible);
}

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("PosLabTests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_welcome"));
    TestWelcome t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_welcome.moc"
