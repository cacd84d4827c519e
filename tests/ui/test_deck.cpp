// Deck authoring: every operation of the deck panel changes the deck as it says, is one undo
// step (undo gives back the deck and the window's scene, redo the edit), makes the deck the open
// session, and survives save → reopen and a crash (the autosave). The "slide" object of the
// session format round-trips, old decks still load, bad ones are refused with one line; slides
// honour their arrangement and never show the speaker notes.
#include "core/demonstrations.h"
#include "ui/window/mainwindow.h"
#include "ui/window/sessionactions.h"
#include "support/pdftext.h"
#include "ui/teaching/deck.h"
#include "ui/teaching/deckexport.h"
#include "ui/teaching/deckpanel.h"
#include "ui/teaching/demopanel.h"
#include "ui/teaching/demoscenes.h"
#include "ui/teaching/presentation.h"
#include "ui/teaching/presenter.h"
#include "ui/window/teaching.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QMenu>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QScreen>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <functional>

using namespace poslab;
using namespace poslab::ui;

namespace {

// A small deck of four distinguishable slides (a deck of the session, as one opened from a file).
Session smallDeck() {
    Session d;
    d.scenes.clear();
    for (int i = 0; i < 4; ++i) {
        SessionScene s;
        s.title = QStringLiteral("Slide %1").arg(i + 1);
        s.notes = QStringLiteral("notes %1").arg(i + 1);
        s.scene.length = 16 + 8 * i;
        d.scenes.push_back(s);
    }
    d.current = 1;
    return d;
}

QStringList titles(const Session& d) {
    QStringList out;
    for (const auto& s : d.scenes) out << s.title;
    return out;
}

int countViews(const QImage& img, const QRectF& r, QColor bg) {
    int ink = 0;
    for (int y = int(r.top()); y < int(r.bottom()); y += 4)
        for (int x = int(r.left()); x < int(r.right()); x += 4)
            if (img.pixelColor(x, y) != bg) ++ink;
    return ink;
}

}  // namespace

class TestDeck : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void authoringOperation_data();
    void authoringOperation();
    void dragReordersTheDeck();
    void addThisSceneOpensThePanelOnTheNewSlide();
    void firstEditMakesTheDeckTheSessionAndUndoTakesItBack();
    void slideFormatRoundTrips_data();
    void slideFormatRoundTrips();
    void badSlideIsRefusedWithOneLine_data();
    void badSlideIsRefusedWithOneLine();
    void olderDecksStillLoad();
    void authoredDeckSurvivesSaveAndReopen();
    void authoredDeckSurvivesACrash();
    void slidesHonourTheirArrangement_data();
    void slidesHonourTheirArrangement();
    void notesAreNotOnTheSlide();
    void theWholeLectureAt1920x1080_data();
    void theWholeLectureAt1920x1080();
    void keyHintsOnlyWhenAsked();
    void presenterViewBesideTheAudience();
    void presentingStartsAtTheFirstOrSelectedSlide_data();
    void presentingStartsAtTheFirstOrSelectedSlide();
    void presenterTitleShrinksBeforeItIsCut();
    void presenterShowsEveryTitleOfTheLectureWhole();
    void audienceNeverSeesKeysOrNotes_data();
    void audienceNeverSeesKeysOrNotes();
    void rehearsalGeometryIsSideBySide_data();
    void rehearsalGeometryIsSideBySide();
    void rehearsalWindowsFitTheScreen_data();
    void rehearsalWindowsFitTheScreen();
    void presenterPreviewsFillTheirBoxes_data();
    void presenterPreviewsFillTheirBoxes();
    void drawingsStayWithWhatTheyWereDrawnOn_data();
    void drawingsStayWithWhatTheyWereDrawnOn();
    void deleteKeyRemovesAndSelectionStaysNear_data();
    void deleteKeyRemovesAndSelectionStaysNear();
    void showingASlideKeepsTheExplorersLook_data();
    void showingASlideKeepsTheExplorersLook();
    void exportTheDeckFromTheWindow_data();
    void exportTheDeckFromTheWindow();
    void slidesFillTheirHeight_data();
    void slidesFillTheirHeight();
    void longContextSlidesAtTheFullContext_data();
    void longContextSlidesAtTheFullContext();
    void bf16SlideShowsBothPaths();
    void layersSlideShowsLocalAndGlobal();
};

void TestDeck::authoringOperation_data() {
    QTest::addColumn<QString>("op");
    QTest::addColumn<QStringList>("titlesAfter");
    QTest::addColumn<int>("currentAfter");
    QTest::newRow("up_slide2") << "up" << QStringList{"Slide 2", "Slide 1", "Slide 3", "Slide 4"} << 0;
    QTest::newRow("down_slide2") << "down" << QStringList{"Slide 1", "Slide 3", "Slide 2", "Slide 4"} << 2;
    QTest::newRow("duplicate_slide2") << "duplicate" << QStringList{"Slide 1", "Slide 2", "Slide 2 (copy)", "Slide 3", "Slide 4"} << 2;
    QTest::newRow("delete_slide2") << "delete" << QStringList{"Slide 1", "Slide 3", "Slide 4"} << 1;
    QTest::newRow("retitle_slide2") << "retitle" << QStringList{"Slide 1", "RoPE rotates", "Slide 3", "Slide 4"} << 1;
    QTest::newRow("notes_slide2") << "notes" << QStringList{"Slide 1", "Slide 2", "Slide 3", "Slide 4"} << 1;
    QTest::newRow("arrange_single_slide2") << "single" << QStringList{"Slide 1", "Slide 2", "Slide 3", "Slide 4"} << 1;
    QTest::newRow("arrange_sideBySide_slide2") << "side" << QStringList{"Slide 1", "Slide 2", "Slide 3", "Slide 4"} << 1;
    QTest::newRow("arrange_grid_slide2") << "grid" << QStringList{"Slide 1", "Slide 2", "Slide 3", "Slide 4"} << 1;
    QTest::newRow("arrange_demo_slide2") << "demo" << QStringList{"Slide 1", "Slide 2", "Slide 3", "Slide 4"} << 1;
    QTest::newRow("select_slide4") << "select" << QStringList{"Slide 1", "Slide 2", "Slide 3", "Slide 4"} << 3;
}

void TestDeck::authoringOperation() {
    QFETCH(QString, op);
    QFETCH(QStringList, titlesAfter);
    QFETCH(int, currentAfter);
    MainWindow w(false);
    SessionActions actions(&w, SessionActions::Options{false, false, {}});
    actions.setSession(smallDeck());
    auto* t = teachingOf(&w);
    DeckModel* m = t->deckModel();
    DeckPanel* panel = t->deckPanel();
    t->showDeck();
    QVERIFY(m->isSession());
    QCOMPARE(panel->selected(), 1);
    const Session before = m->deck();
    const SceneParams windowBefore = w.scene()->committed();
    const int stepsBefore = w.scene()->undoStack()->count();

    auto chooseArrangement = [&](SlideArrangement a) {
        QComboBox* box = panel->arrangementBox();
        box->setCurrentIndex(box->findData(int(a)));
        Q_EMIT box->activated(box->currentIndex());
    };
    if (op == "up") panel->upButton()->click();
    else if (op == "down") panel->downButton()->click();
    else if (op == "duplicate") panel->duplicateButton()->click();
    else if (op == "delete") panel->deleteButton()->click();
    else if (op == "retitle") {
        panel->titleEdit()->selectAll();
        QTest::keyClicks(panel->titleEdit(), QStringLiteral("RoPE rotates"));
    } else if (op == "notes") {
        panel->notesEdit()->selectAll();
        QTest::keyClicks(panel->notesEdit(), QStringLiteral("say: m - n"));
    } else if (op == "single") chooseArrangement(SlideArrangement::Single);
    else if (op == "side") chooseArrangement(SlideArrangement::SideBySide);
    else if (op == "grid") chooseArrangement(SlideArrangement::Grid);
    else if (op == "demo") {
        chooseArrangement(SlideArrangement::Demo);
        QComboBox* demo = panel->demoBox();
        demo->setCurrentIndex(demo->findData(QStringLiteral("t5-buckets")));
        Q_EMIT demo->activated(demo->currentIndex());
    } else if (op == "select") panel->list()->setCurrentRow(3);

    const Session after = m->deck();
    QCOMPARE(titles(after), titlesAfter);
    QCOMPARE(after.current, currentAfter);
    QCOMPARE(panel->selected(), currentAfter);
    // The window shows the current slide; the session is the deck.
    QVERIFY(w.scene()->committed() == after.scenes[std::size_t(after.current)].scene);
    QVERIFY(actions.session() == after);
    if (op == "notes") QCOMPARE(after.scenes[1].notes, QStringLiteral("say: m - n"));
    if (op == "single") {
        QCOMPARE(after.scenes[1].slide.arrangement, SlideArrangement::Single);
        QCOMPARE(int(after.scenes[1].slide.views.size()), 1);
    }
    if (op == "side") QCOMPARE(int(after.scenes[1].slide.views.size()), 2);
    if (op == "grid") QCOMPARE(int(after.scenes[1].slide.views.size()), 4);
    if (op == "demo") {
        QCOMPARE(after.scenes[1].slide.demo, QStringLiteral("t5-buckets"));
        QCOMPARE(demoOfSlide(after.scenes[1]).value(), DemoId::T5Buckets);
    }
    // One undo step per action (typing a title or notes merges into one; the demonstration is a
    // second choice after the arrangement).
    const int steps = op == "demo" ? 2 : 1;
    QCOMPARE(w.scene()->undoStack()->count(), stepsBefore + steps);
    for (int k = 0; k < steps; ++k) w.scene()->undoStack()->undo();
    QVERIFY(m->deck() == before);
    QVERIFY(w.scene()->committed() == windowBefore);
    QVERIFY(actions.session() == before);
    QCOMPARE(panel->selected(), before.current);
    QCOMPARE(panel->titleEdit()->text(), before.scenes[std::size_t(before.current)].title);
    for (int k = 0; k < steps; ++k) w.scene()->undoStack()->redo();
    QVERIFY(m->deck() == after);
    QVERIFY(actions.session() == after);
}

void TestDeck::dragReordersTheDeck() {
    MainWindow w(false);
    SessionActions actions(&w, SessionActions::Options{false, false, {}});
    actions.setSession(smallDeck());
    auto* t = teachingOf(&w);
    QListWidget* list = t->deckPanel()->list();
    // What a drop of row 0 below row 2 does to the list's model.
    QVERIFY(list->model()->moveRow(QModelIndex(), 0, QModelIndex(), 3));
    QCOMPARE(titles(t->deck()), (QStringList{"Slide 2", "Slide 3", "Slide 1", "Slide 4"}));
    QCOMPARE(list->item(2)->text().trimmed(), QStringLiteral("3   Slide 1"));
    w.scene()->undoStack()->undo();
    QCOMPARE(titles(t->deck()), (QStringList{"Slide 1", "Slide 2", "Slide 3", "Slide 4"}));
}

void TestDeck::addThisSceneOpensThePanelOnTheNewSlide() {
    MainWindow w(false);
    w.show();
    auto* t = teachingOf(&w);
    const int lecture = t->deckModel()->count();
    QCOMPARE(lecture, int(demonstrations().size()));
    w.scene()->edit(QStringLiteral("length"), QStringLiteral("length"), [](SceneParams& s) { s.length = 77; });
    t->addSceneToDeck();
    QCOMPARE(t->deckModel()->count(), lecture + 1);
    QVERIFY(t->deckDock()->isVisible());
    QCOMPARE(t->deckPanel()->selected(), lecture);
    QCOMPARE(t->deckPanel()->list()->currentRow(), lecture);
    QCOMPARE(t->deck().scenes.back().scene.length, 77);
    QVERIFY(!t->deck().scenes.back().title.isEmpty());
    QCOMPARE(t->deckPanel()->titleEdit()->selectedText(), t->deck().scenes.back().title);
    QCOMPARE(w.scene()->committed().length, 77);   // the window keeps its scene
}

void TestDeck::firstEditMakesTheDeckTheSessionAndUndoTakesItBack() {
    MainWindow w(false);
    SessionActions actions(&w, SessionActions::Options{false, false, {}});
    auto* t = teachingOf(&w);
    QVERIFY(!t->deckModel()->isSession());
    QCOMPARE(actions.session().scenes.size(), std::size_t(1));
    const SceneParams window = w.scene()->committed();
    t->addSceneToDeck();
    QVERIFY(t->deckModel()->isSession());
    QCOMPARE(actions.session().scenes.size(), demonstrations().size() + 1);
    QCOMPARE(actions.session().current, int(demonstrations().size()));
    // An edit in the window is an edit of the current slide.
    w.scene()->edit(QStringLiteral("length"), QStringLiteral("length"), [](SceneParams& s) { s.length = 99; });
    QCOMPARE(actions.session().scenes.back().scene.length, 99);
    QCOMPARE(t->deck().scenes.back().scene.length, 99);
    w.scene()->undoStack()->undo();   // the length
    w.scene()->undoStack()->undo();   // the added slide
    QVERIFY(!t->deckModel()->isSession());
    QCOMPARE(t->deckModel()->count(), int(demonstrations().size()));
    QCOMPARE(actions.session().scenes.size(), std::size_t(1));
    QVERIFY(w.scene()->committed() == window);
}

void TestDeck::slideFormatRoundTrips_data() {
    QTest::addColumn<int>("arrangement");
    QTest::addColumn<QString>("views");
    QTest::addColumn<QString>("demo");
    QTest::newRow("single_heatmap") << int(SlideArrangement::Single) << "heatmap" << "";
    QTest::newRow("sideBySide_decay_heatmap") << int(SlideArrangement::SideBySide) << "decay,heatmap" << "";
    QTest::newRow("grid_three") << int(SlideArrangement::Grid) << "frequencies,pairs,decay" << "";
    QTest::newRow("grid_four") << int(SlideArrangement::Grid) << "pairs,heatmap,decay,frequencies" << "";
    QTest::newRow("demo_noViews_t5") << int(SlideArrangement::Demo) << "" << "t5-buckets";
    QTest::newRow("demo_heatmap_formulaSheet") << int(SlideArrangement::Demo) << "heatmap" << "";
}

void TestDeck::slideFormatRoundTrips() {
    QFETCH(int, arrangement);
    QFETCH(QString, views);
    QFETCH(QString, demo);
    Session d = smallDeck();
    SlideLayout& l = d.scenes[2].slide;
    l.arrangement = SlideArrangement(arrangement);
    for (const QString& k : views.split(QLatin1Char(','), Qt::SkipEmptyParts))
        for (ViewKind v : kAllViews)
            if (viewKey(v) == k) l.views.push_back(v);
    l.demo = demo;
    const QByteArray json = sessionToJson(d);
    QVERIFY(json.contains("\"slide\""));
    QCOMPARE(json.count("\"slide\""), 1);   // auto slides write nothing
    QString error;
    QStringList warnings;
    const auto back = sessionFromJson(json, QStringLiteral("deck"), &error, &warnings);
    QVERIFY2(back.has_value(), qPrintable(error));
    QVERIFY(warnings.isEmpty());
    QVERIFY(*back == d);
    QCOMPARE(sessionToJson(*back), json);
}

void TestDeck::badSlideIsRefusedWithOneLine_data() {
    QTest::addColumn<QByteArray>("slide");
    QTest::addColumn<QString>("message");
    QTest::newRow("arrangement_unknown") << QByteArray(R"({"arrangement": "carousel"})")
                                         << "deck: scenes[0].slide.arrangement: one of auto, single, side_by_side, grid, demo, got \"carousel\"";
    QTest::newRow("single_twoViews") << QByteArray(R"({"arrangement": "single", "views": ["heatmap", "decay"]})")
                                     << "deck: scenes[0].slide.views: 1 of pairs, heatmap, decay, frequencies, contributions, precision without repeats for single, got 2";
    QTest::newRow("grid_repeatedView") << QByteArray(R"({"arrangement": "grid", "views": ["heatmap", "heatmap"]})")
                                       << "deck: scenes[0].slide.views[1]: 1 to 4 of pairs, heatmap, decay, frequencies, contributions, precision without repeats for grid, got \"heatmap\"";
    QTest::newRow("demo_unknownKey") << QByteArray(R"({"arrangement": "demo", "demo": "nope"})") << "deck: scenes[0].slide.demo: a demonstration (";
    QTest::newRow("single_withDemo") << QByteArray(R"({"arrangement": "single", "views": ["decay"], "demo": "t5-buckets"})")
                                     << "deck: scenes[0].slide.demo: only for the demo arrangement, got arrangement single";
    QTest::newRow("views_notArray") << QByteArray(R"({"arrangement": "grid", "views": "heatmap"})")
                                    << "deck: scenes[0].slide.views: 1 to 4 of pairs, heatmap, decay, frequencies, contributions, precision without repeats for grid, got \"heatmap\"";
}

void TestDeck::badSlideIsRefusedWithOneLine() {
    QFETCH(QByteArray, slide);
    QFETCH(QString, message);
    const QByteArray json = R"({"format": "poslab-session", "schema": 1, "scenes": [{"slide": )" + slide + "}]}";
    QString error;
    QVERIFY(!sessionFromJson(json, QStringLiteral("deck"), &error).has_value());
    QVERIFY2(error.startsWith(message), qPrintable(error));
    QVERIFY(!error.contains(QLatin1Char('\n')));
}

void TestDeck::olderDecksStillLoad() {
    // A deck written before arrangements: no "slide", the demonstration's key in the notes.
    const QByteArray json = R"({"format": "poslab-session", "schema": 1, "current": 1, "scenes": [
        {"title": "T5", "notes": "[demo:t5-buckets] exact near, logarithmic far"},
        {"title": "plain", "notes": "say something"}]})";
    QString error;
    const auto d = sessionFromJson(json, QStringLiteral("old"), &error);
    QVERIFY2(d.has_value(), qPrintable(error));
    QVERIFY(d->scenes[0].slide.isAuto());
    QCOMPARE(demoOfSlide(d->scenes[0]).value(), DemoId::T5Buckets);
    QCOMPARE(slideNotesText(d->scenes[0]), QStringLiteral("exact near, logarithmic far"));
    QVERIFY(!demoOfSlide(d->scenes[1]).has_value());
    // And it opens as the deck in the window.
    MainWindow w(false);
    SessionActions actions(&w, SessionActions::Options{false, false, {}});
    actions.setSession(*d);
    QVERIFY(teachingOf(&w)->deckModel()->isSession());
    QCOMPARE(teachingOf(&w)->deckPanel()->selected(), 1);
}

void TestDeck::authoredDeckSurvivesSaveAndReopen() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("lecture.poslab"));
    Session expected;
    {
        MainWindow w(false);
        SessionActions actions(&w, SessionActions::Options{false, false, {}});
        auto* t = teachingOf(&w);
        DeckPanel* panel = t->deckPanel();
        t->addSceneToDeck();                        // the lecture + this scene
        QTest::keyClicks(panel->titleEdit(), QStringLiteral("My RoPE slide"));
        panel->notesEdit()->setPlainText(QStringLiteral("ask: why m − n?"));
        panel->arrangementBox()->setCurrentIndex(panel->arrangementBox()->findData(int(SlideArrangement::SideBySide)));
        Q_EMIT panel->arrangementBox()->activated(panel->arrangementBox()->currentIndex());
        panel->select(0);
        panel->deleteButton()->click();             // the first demonstration goes
        panel->select(3);
        panel->duplicateButton()->click();
        expected = t->deck();
        QCOMPARE(expected.scenes.size(), demonstrations().size() + 1);
        QVERIFY(actions.saveTo(path));
    }
    MainWindow w(false);
    SessionActions actions(&w, SessionActions::Options{false, false, {}});
    QVERIFY(actions.openFile(path));
    auto* t = teachingOf(&w);
    QVERIFY(t->deckModel()->isSession());
    QVERIFY(t->deck() == expected);
    const SessionScene& mine = t->deck().scenes.back();
    QCOMPARE(mine.title, QStringLiteral("My RoPE slide"));
    QCOMPARE(mine.notes, QStringLiteral("ask: why m − n?"));
    QCOMPARE(mine.slide.arrangement, SlideArrangement::SideBySide);
    // The window shows the current slide in its own look (theme, text size: deck.h).
    QVERIFY(w.scene()->committed() == withLook(expected.scenes[std::size_t(expected.current)].scene, w.scene()->committed()));
}

void TestDeck::authoredDeckSurvivesACrash() {
    QTemporaryDir dir;
    Session expected;
    {
        // A run that authors a deck and then ends without a clean exit (no finish()): its autosave
        // stays, as after a crash.
        MainWindow w(false);
        SessionActions actions(&w, SessionActions::Options{false, true, dir.path()});
        actions.offerRestore();   // takes the autosave slot
        QVERIFY(actions.autosave()->started());
        auto* t = teachingOf(&w);
        t->addSceneToDeck();
        t->deckModel()->setTitle(t->deckModel()->count() - 1, QStringLiteral("Autosaved slide"));
        t->deckModel()->setLayout(2, SlideLayout{SlideArrangement::Single, {ViewKind::Decay}, {}});
        t->deckModel()->moveSlide(0, 5);
        expected = t->deck();
        QVERIFY(actions.autosave()->saveNow());
    }
    MainWindow w(false);
    SessionActions actions(&w, SessionActions::Options{false, true, dir.path()});
    actions.offerRestore();
    QMessageBox* box = actions.restorePrompt();
    QVERIFY2(box, "no restore offer after a run that did not exit cleanly");
    box->findChild<QPushButton*>(QStringLiteral("restoreButton"))->click();
    auto* t = teachingOf(&w);
    QVERIFY(t->deckModel()->isSession());
    QVERIFY(t->deck() == expected);
    QCOMPARE(t->deck().scenes.back().title, QStringLiteral("Autosaved slide"));
    QVERIFY(actions.session() == expected);
}

void TestDeck::slidesHonourTheirArrangement_data() {
    QTest::addColumn<int>("arrangement");
    QTest::addColumn<int>("views");
    QTest::addColumn<bool>("numbers");
    QTest::newRow("single_1") << int(SlideArrangement::Single) << 1 << false;
    QTest::newRow("sideBySide_2") << int(SlideArrangement::SideBySide) << 2 << false;
    QTest::newRow("grid_3") << int(SlideArrangement::Grid) << 3 << false;
    QTest::newRow("grid_4") << int(SlideArrangement::Grid) << 4 << false;
    QTest::newRow("demo_2") << int(SlideArrangement::Demo) << 2 << true;
}

void TestDeck::slidesHonourTheirArrangement() {
    QFETCH(int, arrangement);
    QFETCH(int, views);
    QFETCH(bool, numbers);
    SessionScene s = demoSlide(DemoId::T5Buckets);
    s.slide.arrangement = SlideArrangement(arrangement);
    s.slide.views.assign(std::begin(kAllViews), std::begin(kAllViews) + views);
    if (arrangement != int(SlideArrangement::Demo)) s.slide.demo.clear();
    Session d;
    d.scenes = {s};
    PresentationWindow p(d);
    p.resize(1920, 1080);
    const QImage img = p.renderSlide(QSize(1920, 1080));
    const auto L = p.lastLayout();
    QCOMPARE(p.numbersShown(), numbers);
    QCOMPARE(!L.numbers.isEmpty(), numbers);
    QCOMPARE(int(L.viewRects.size()), views);
    // The views fill their area: together at least 90 % of it (the rest is gaps), none overlap,
    // and each one has ink.
    qreal area = 0;
    for (std::size_t i = 0; i < L.viewRects.size(); ++i) {
        const QRectF& r = L.viewRects[i];
        QVERIFY(L.views.adjusted(-0.5, -0.5, 0.5, 0.5).contains(r));
        area += r.width() * r.height();
        for (std::size_t j = 0; j < i; ++j) QVERIFY(!r.intersects(L.viewRects[j]));
        QVERIFY(countViews(img, r, p.slideTheme().background) > 100);
    }
    QVERIFY2(area >= 0.9 * L.views.width() * L.views.height(), qPrintable(QString::number(area / (L.views.width() * L.views.height()))));
    if (!numbers) QVERIFY(L.views.width() >= 1920 * 0.9);   // the whole width
}

void TestDeck::notesAreNotOnTheSlide() {
    SessionScene s = demoSlide(DemoId::AlibiSlopes);
    Session with, without;
    with.scenes = {s};
    s.notes.clear();
    without.scenes = {s};
    PresentationWindow a(with), b(without);
    a.resize(1280, 720);
    b.resize(1280, 720);
    QCOMPARE(a.renderSlide(QSize(1280, 720)), b.renderSlide(QSize(1280, 720)));
    // N shows them to the presenter only on request.
    QTest::keyClick(&a, Qt::Key_N);
    QVERIFY(a.renderSlide(QSize(1280, 720)) != b.renderSlide(QSize(1280, 720)));
}

void TestDeck::theWholeLectureAt1920x1080_data() {
    QTest::addColumn<int>("slide");
    const Session d = demoDeck();
    for (int i = 0; i < int(d.scenes.size()); ++i)
        QTest::newRow(QStringLiteral("%1_%2").arg(i + 1, 2, 10, QLatin1Char('0')).arg(d.scenes[std::size_t(i)].slide.demo).toUtf8()) << i;
}

// The default deck as a lecturer gives it: 1920×1080, projector theme, text ×1.5. Every slide
// fits its frame and its numbers column fits without being squeezed. With $POSLAB_SCREENSHOT_DIR set, each slide is saved to look at.
void TestDeck::theWholeLectureAt1920x1080() {
    QFETCH(int, slide);
    Session d = demoDeck();
    for (auto& s : d.scenes) {
        s.scene.view.theme = QStringLiteral("projector");
        s.scene.view.fontScale = 1.5;
    }
    d.current = slide;
    PresentationWindow p(d);
    p.resize(1920, 1080);
    const QImage img = p.renderSlide(QSize(1920, 1080));
    const auto L = p.lastLayout();
    const QRectF frame(0, 0, 1920, 1080);
    for (const QRectF& r : {L.title, L.counter, L.footer}) QVERIFY(frame.contains(r));
    // The comparison table and the layer overviews take the whole slide; every other slide has views.
    const auto demo = demoOfSlide(d.scenes[std::size_t(slide)]);
    const bool tableOnly = demo && demoFillsSlide(*demo);
    QCOMPARE(L.views.isEmpty(), tableOnly);
    const QRectF content = tableOnly ? L.numbers : L.views;
    QVERIFY(frame.contains(content));
    QVERIFY(content.top() >= L.title.bottom());
    QVERIFY(content.bottom() <= L.footer.top());
    if (!L.numbers.isEmpty()) {
        QVERIFY(frame.contains(L.numbers));
        QVERIFY(!L.numbers.intersects(L.views));
        // It fits at a type size it chose (not squeezed as a drawing), not below the window's ×1.
        QVERIFY2(L.numbersHeightNeeded <= L.numbers.height() + 1, qPrintable(QString::number(L.numbersHeightNeeded)));
        QVERIFY2(L.numbersScale >= 0.95, qPrintable(QString::number(L.numbersScale)));
    }
    // A whole-slide demonstration fills its slide (larger type while it fits), not its top half.
    if (tableOnly) QVERIFY2(L.numbersHeightNeeded >= 0.8 * L.numbers.height(), qPrintable(QString::number(L.numbersHeightNeeded / L.numbers.height())));
    // The views (or the table) take most of the slide.
    QVERIFY2(content.width() * content.height() >= 0.35 * 1920 * 1080, qPrintable(QString::number(content.width() * content.height() / (1920.0 * 1080))));
    const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR");
    if (!dir.isEmpty()) img.save(QStringLiteral("%1/lecture_%2.png").arg(dir).arg(slide + 1, 2, 10, QLatin1Char('0')));
}

// The footer's keys are the presenter's: never shown by themselves (the audience may be looking),
// H shows and hides them, other keys leave them as they are; never on a figure of a slide.
void TestDeck::keyHintsOnlyWhenAsked() {
    Session d = demoDeck();
    d.current = 3;
    PresentationWindow p(d);
    p.resize(1280, 720);
    auto footerInk = [&p] {
        const QImage img = p.renderSlide(QSize(1280, 720));
        return countViews(img, p.lastLayout().footer, img.pixelColor(1, 1));
    };
    QVERIFY(!p.keyHints());
    QCOMPARE(footerInk(), 0);
    QTest::keyClick(&p, Qt::Key_H);
    QVERIFY(p.keyHints());
    QVERIFY(footerInk() > 20);
    QTest::keyClick(&p, Qt::Key_Right);
    QCOMPARE(p.current(), 4);
    QVERIFY(p.keyHints());
    QTest::keyClick(&p, Qt::Key_H);
    QVERIFY(!p.keyHints());
    QCOMPARE(footerInk(), 0);
    PresentationWindow figure(d);
    figure.resize(1280, 720);
    figure.setKeyHints(false);
    const QImage img = figure.renderSlide(QSize(1280, 720));
    QCOMPARE(countViews(img, figure.lastLayout().footer, img.pixelColor(1, 1)), 0);
}

// The presenter view: the current slide as the audience sees it, the next slide, the notes and a
// timer; the audience's window shows neither the keys' footer nor the notes; the presentation keys
// pressed in the presenter view move both; Esc ends both. Offscreen there is one screen: both are
// windows (the rehearsal), and presenterScreens says so.
void TestDeck::presenterViewBesideTheAudience() {
    const PresenterScreens one = presenterScreens(QGuiApplication::screens(), QGuiApplication::primaryScreen());
    QCOMPARE(one.separate(), QGuiApplication::screens().size() > 1);
    QVERIFY(!presenterScreens({}, nullptr).separate());
    MainWindow w(false);
    w.show();
    auto* t = teachingOf(&w);
    t->setDeck(smallDeck());
    PresentationWindow* p = t->startPresenterView(1);
    PresenterView* v = t->presenterView();
    QVERIFY(p && v);
    QVERIFY(p->isVisible() && v->isVisible());
    QCOMPARE(p->current(), 1);
    // Two screens (ctest test_deck_two_screens): the audience full screen on the other one.
    if (qEnvironmentVariableIsSet("POSLAB_EXPECT_SCREENS"))
        QCOMPARE(int(QGuiApplication::screens().size()), qEnvironmentVariableIntValue("POSLAB_EXPECT_SCREENS"));
    if (QGuiApplication::screens().size() > 1) {
        QVERIFY(p->isFullScreen());
        QVERIFY(p->screen() != v->screen());
        QCOMPARE(v->screen(), w.screen());
        QCOMPARE(t->startPresentation(), p);   // F5 again: the same presentation
    } else {
        QVERIFY(!p->isFullScreen());   // one screen: a rehearsal in windows
    }
    // The audience: no footer, no notes, even after N.
    QVERIFY(p->audience());
    QVERIFY(!p->keyHints());
    Session bare = smallDeck();
    for (auto& sl : bare.scenes) sl.notes.clear();
    PresentationWindow plain(bare);
    plain.setKeyHints(false);
    plain.resize(p->size());
    QTest::keyClick(p, Qt::Key_N);
    QVERIFY(!p->notesShown());
    QCOMPARE(p->renderSlide(p->size()), plain.renderSlide(p->size()));
    QCOMPARE(countViews(p->slideImage(), p->lastLayout().footer, p->slideTheme().background), 0);
    // The presenter: this slide as shown, the next one, the notes, the timer.
    QTRY_COMPARE(v->currentSlide()->image(), p->slideImage());
    QVERIFY(!v->nextSlide()->image().isNull());
    QVERIFY(v->nextSlide()->image() != v->currentSlide()->image());
    QCOMPARE(v->notes()->toPlainText(), QStringLiteral("notes 2"));
    QVERIFY(v->counterLabel()->text().contains(QStringLiteral("2 / 4")));
    QCOMPARE(v->elapsedLabel()->text(), QStringLiteral("00:00"));
    QVERIFY(QRegularExpression(QStringLiteral("^\\d\\d:\\d\\d$")).match(v->clockLabel()->text()).hasMatch());
    const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR");
    for (const QSize size : {QSize(1920, 1080), QSize(1280, 720)}) {
        v->resize(size);
        p->resize(size);
        QTRY_COMPARE(v->currentSlide()->image(), p->slideImage());
        if (!dir.isEmpty()) {
            v->grab().save(QStringLiteral("%1/presenter_%2x%3.png").arg(dir).arg(size.width()).arg(size.height()));
            p->slideImage().save(QStringLiteral("%1/audience_%2x%3.png").arg(dir).arg(size.width()).arg(size.height()));
        }
    }
    // The timer runs.
    QTRY_COMPARE_WITH_TIMEOUT(v->elapsedLabel()->text(), QStringLiteral("00:01"), 3000);
    QVERIFY(v->elapsedMs() >= 1000);
    v->restartTimer();
    QCOMPARE(v->elapsedLabel()->text(), QStringLiteral("00:00"));
    // Next and previous move both.
    QTest::keyClick(v, Qt::Key_Right);
    QCOMPARE(p->current(), 2);
    QTRY_COMPARE(v->notes()->toPlainText(), QStringLiteral("notes 3"));
    QVERIFY(v->counterLabel()->text().contains(QStringLiteral("3 / 4")));
    QTRY_COMPARE(v->currentSlide()->image(), p->slideImage());
    QTest::keyClick(v, Qt::Key_End);
    QCOMPARE(p->current(), 3);
    QTRY_VERIFY(v->nextSlide()->image().isNull());   // the end of the deck
    QTest::mouseClick(v->findChild<QPushButton*>(QStringLiteral("presenterPrevious")), Qt::LeftButton);
    QCOMPARE(p->current(), 2);
    QTRY_COMPARE(v->notes()->toPlainText(), QStringLiteral("notes 3"));
    // Esc in the presenter view ends both.
    QTest::keyClick(v, Qt::Key_Escape);
    QTRY_VERIFY(!t->presenterView());
    QTRY_VERIFY(!t->presentation());
}

// ------------------------------------------------------------------ presenting

// F5 starts at the first slide (not where the last presentation ended), or at the slide selected
// in the deck list while the list is open; "Present from here" at the selected slide.
void TestDeck::presentingStartsAtTheFirstOrSelectedSlide_data() {
    QTest::addColumn<bool>("session");        // the deck is the session (authored), else the lecture
    QTest::addColumn<int>("lastShown");       // where an earlier presentation ended (−1: none)
    QTest::addColumn<int>("selected");        // the slide selected in the open deck list (−1: list closed)
    QTest::addColumn<int>("expected");
    QTest::newRow("lecture_afterEndingAt5_listClosed") << false << 5 << -1 << 0;
    QTest::newRow("lecture_afterEndingAt5_listOn3") << false << 5 << 3 << 3;
    QTest::newRow("lecture_listOn7") << false << -1 << 7 << 7;
    QTest::newRow("session_afterEndingAt3_listClosed") << true << 3 << -1 << 0;
    QTest::newRow("session_listOn2") << true << -1 << 2 << 2;
}

void TestDeck::presentingStartsAtTheFirstOrSelectedSlide() {
    QFETCH(bool, session);
    QFETCH(int, lastShown);
    QFETCH(int, selected);
    QFETCH(int, expected);
    MainWindow w(false);
    SessionActions actions(&w, SessionActions::Options{false, false, {}});
    auto* t = teachingOf(&w);
    w.show();
    if (session) actions.setSession(smallDeck());
    if (lastShown >= 0) {
        PresentationWindow* p = t->startPresentation(false);
        p->goTo(lastShown);
        QTest::keyClick(p, Qt::Key_Escape);
        QTRY_VERIFY(!t->presentation());
    }
    if (selected >= 0) {
        t->showDeck(selected);
        QVERIFY(t->deckDock()->isVisible());
    }
    PresentationWindow* p = t->startPresentation(false);
    QCOMPARE(p->current(), expected);
    p->close();
    QTRY_VERIFY(!t->presentation());
    // The presenter view likewise.
    PresentationWindow* q = t->startPresenterView();
    QCOMPARE(q->current(), expected);
    q->close();
    QTRY_VERIFY(!t->presentation());
}

// The presenter view's title: a long one takes a smaller type and a second line before it is cut
// with "…" (the default deck's first title in the half of a 1920-pixel screen that rehearsing on
// one screen gives it); too long even then, it is cut, the whole title in the tooltip.
void TestDeck::presenterTitleShrinksBeforeItIsCut() {
    MainWindow w(false);
    w.show();
    auto* t = teachingOf(&w);
    Session deck = smallDeck();
    const QString title = QStringLiteral("Attention without positions is permutation-equivariant");
    deck.scenes[0].title = title;
    deck.scenes[1].title = title + QStringLiteral(", and so is every layer of it, which a long title says at length, and at "
                                                  "greater length still, for as long as it takes to outgrow three lines");
    t->setDeck(deck);
    t->startPresenterView(0);
    PresenterView* v = t->presenterView();
    QVERIFY(v);
    QVERIFY(QTest::qWaitForWindowExposed(v));
    QTest::qWait(50);   // (placed beside the audience's window on this one screen)
    v->resize(958, 1000);
    auto* label = v->findChild<QLabel*>(QStringLiteral("presenterTitle"));
    QVERIFY(label);
    QTRY_COMPARE(label->text().replace(QLatin1Char('\n'), QLatin1Char(' ')), title);
    QTest::keyClick(v, Qt::Key_Right);
    QTRY_VERIFY(label->text().endsWith(QChar(0x2026)));
    // Cut at the end of its third line, as many lines as the smallest type allows (it was cut
    // at the end of the second).
    QCOMPARE(label->text().count(QLatin1Char('\n')), 2);
    for (const QString& line : label->text().split(QLatin1Char('\n')))
        QVERIFY2(QFontMetrics(label->font()).horizontalAdvance(line) <= label->contentsRect().width(), qPrintable(line));
    QCOMPARE(label->toolTip(), deck.scenes[1].title);
    t->presentation()->close();
}

// Every title of the default lecture is shown whole (on up to three lines) in the presenter view
// as wide as it opens beside the audience's window on this one screen (CTest runs it on 1280×720,
// 638 px, and on 1920×1080, 958 px): at 1280×720 the title had about 370 px beside the slide
// counter, and seven titles were cut.
void TestDeck::presenterShowsEveryTitleOfTheLectureWhole() {
    MainWindow w(false);
    w.show();
    auto* t = teachingOf(&w);
    const Session deck = demoDeck();
    t->setDeck(deck);
    t->startPresenterView(0);
    PresenterView* v = t->presenterView();
    QVERIFY(v);
    QVERIFY(QTest::qWaitForWindowExposed(v));
    QTest::qWait(50);   // (placed beside the audience's window on this one screen)
    auto* label = v->findChild<QLabel*>(QStringLiteral("presenterTitle"));
    QVERIFY(label);
    QStringList cut;
    for (std::size_t i = 0; i < deck.scenes.size(); ++i) {
        if (i > 0) QTest::keyClick(v, Qt::Key_Right);
        const QString title = deck.scenes[i].title;
        if (!QTest::qWaitFor([&] { return label->toolTip() == title; }, 2000)) {
            cut << QStringLiteral("slide %1 not shown").arg(i + 1);
            continue;
        }
        QCoreApplication::processEvents();
        if (label->text().replace(QLatin1Char('\n'), QLatin1Char(' ')) != title) cut << label->text() + QStringLiteral(" (%1 px of a %2 px view)").arg(label->width()).arg(v->width());
    }
    QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QStringLiteral(" | "))));
    t->presentation()->close();
}

// The audience's window never shows the keys or the notes: F5 (one window) and Shift+F5 (with the
// presenter view), from the first paint on.
void TestDeck::audienceNeverSeesKeysOrNotes_data() {
    QTest::addColumn<bool>("presenter");
    QTest::newRow("F5_presentation") << false;
    QTest::newRow("ShiftF5_presenterView") << true;
}

void TestDeck::audienceNeverSeesKeysOrNotes() {
    QFETCH(bool, presenter);
    MainWindow w(false);
    w.show();
    auto* t = teachingOf(&w);
    t->setDeck(smallDeck());
    PresentationWindow* p = presenter ? t->startPresenterView() : t->startPresentation(false);
    QVERIFY(QTest::qWaitForWindowExposed(p));
    QVERIFY(!p->keyHints());
    QVERIFY(!p->notesShown());
    const QImage shown = p->slideImage();
    // The same slide without notes and without keys draws the same picture; with the keys it
    // would differ.
    Session bare = smallDeck();
    for (auto& sl : bare.scenes) sl.notes.clear();
    bare.current = p->current();
    PresentationWindow plain(bare);
    plain.setKeyHints(false);
    plain.resize(p->size());
    QCOMPARE(shown, plain.renderSlide(p->size(), shown.devicePixelRatio()));
    plain.setKeyHints(true);
    QVERIFY(shown != plain.renderSlide(p->size(), shown.devicePixelRatio()));
    if (presenter) {
        // Asking changes nothing on the audience's window.
        QTest::keyClick(t->presenterView(), Qt::Key_H);
        QTest::keyClick(t->presenterView(), Qt::Key_N);
        QVERIFY(!p->keyHints());
        QVERIFY(!p->notesShown());
        QVERIFY(t->presenterView()->findChild<QLabel*>(QStringLiteral("presenterKeys")));
    }
    p->close();
    QTRY_VERIFY(!t->presentation());
}

// One screen: the audience's 16:9 slide on the left, the presenter view on the right, frames
// included within the available area and not overlapping.
void TestDeck::rehearsalGeometryIsSideBySide_data() {
    QTest::addColumn<QRect>("available");
    QTest::addColumn<QMargins>("frame");
    QTest::addColumn<QSize>("presenterMinimum");
    QTest::newRow("1920x1080_noFrame") << QRect(0, 0, 1920, 1080) << QMargins() << QSize();
    QTest::newRow("1920x1080_openbox") << QRect(0, 0, 1920, 1080) << QMargins(1, 22, 1, 5) << QSize();
    QTest::newRow("1280x720_openbox") << QRect(0, 0, 1280, 720) << QMargins(1, 22, 1, 5) << QSize();
    QTest::newRow("1366x768_panelAtTop") << QRect(0, 28, 1366, 740) << QMargins(4, 30, 4, 4) << QSize();
    QTest::newRow("secondScreen_3840x2160") << QRect(1920, 0, 3840, 2160) << QMargins(2, 24, 2, 2) << QSize();
    QTest::newRow("wide_2560x600") << QRect(0, 0, 2560, 600) << QMargins(1, 22, 1, 5) << QSize();
    QTest::newRow("800x600_presenterNeeds500") << QRect(0, 0, 800, 600) << QMargins(1, 22, 1, 5) << QSize(500, 400);
}

void TestDeck::rehearsalGeometryIsSideBySide() {
    QFETCH(QRect, available);
    QFETCH(QMargins, frame);
    QFETCH(QSize, presenterMinimum);
    const RehearsalGeometry g = rehearsalGeometry(available, frame, presenterMinimum);
    QVERIFY(g.presenter.width() >= presenterMinimum.width());
    const QRect a = g.audience.marginsAdded(frame), v = g.presenter.marginsAdded(frame);
    QVERIFY2(available.contains(a), qPrintable(QStringLiteral("audience %1,%2 %3x%4").arg(a.x()).arg(a.y()).arg(a.width()).arg(a.height())));
    QVERIFY2(available.contains(v), qPrintable(QStringLiteral("presenter %1,%2 %3x%4").arg(v.x()).arg(v.y()).arg(v.width()).arg(v.height())));
    QVERIFY(!a.intersects(v));
    QVERIFY(a.right() < v.left());
    QVERIFY(std::abs(g.audience.width() * 9.0 / 16.0 - g.audience.height()) <= 1.0);
    // Neither is left tiny: the audience at least a third of the width or the whole height, the
    // presenter at least 40 % of the width.
    if (presenterMinimum.isEmpty()) {
        QVERIFY(g.audience.width() >= available.width() / 3 || a.height() >= available.height() - 1);
        QVERIFY(v.width() >= available.width() * 2 / 5);
    }
}

// The two windows opened with one screen (offscreen: no frames): side by side, within the
// screen, the presenter view as wide as it was placed even when a slide's title is very long.
void TestDeck::rehearsalWindowsFitTheScreen_data() {
    QTest::addColumn<QString>("title");
    QTest::newRow("shortTitle") << QStringLiteral("RoPE");
    QTest::newRow("longTitle") << QStringLiteral("Local and global layers: how Gemma 3 and Llama 4 reach 128k and what the "
                                                 "window, the chunk and the NoPE layers each contribute to it, at length");
}

void TestDeck::rehearsalWindowsFitTheScreen() {
    QFETCH(QString, title);
    if (QGuiApplication::screens().size() > 1) return;   // two screens: test_deck_two_screens
    MainWindow w(false);
    w.show();
    auto* t = teachingOf(&w);
    Session d = smallDeck();
    for (auto& sl : d.scenes) sl.title = title;
    t->setDeck(d);
    PresentationWindow* p = t->startPresenterView(0);
    PresenterView* v = t->presenterView();
    QVERIFY(QTest::qWaitForWindowExposed(v));
    const QRect screen = w.screen()->availableGeometry();
    const auto within = [&] {
        return screen.contains(p->frameGeometry()) && screen.contains(v->frameGeometry()) &&
               !p->frameGeometry().intersects(v->frameGeometry());
    };
    const auto where = [&] {
        const QRect a = p->frameGeometry(), b = v->frameGeometry();
        return QStringLiteral("screen %1x%2, audience %3,%4 %5x%6, presenter %7,%8 %9x%10")
            .arg(screen.width()).arg(screen.height()).arg(a.x()).arg(a.y()).arg(a.width()).arg(a.height())
            .arg(b.x()).arg(b.y()).arg(b.width()).arg(b.height());
    };
    QVERIFY2(within(), qPrintable(where()));
    const int width = v->width();
    // Every slide shown (the next slide's title too): the view keeps its width.
    for (int i = 0; i < p->count(); ++i) {
        p->goTo(i);
        QApplication::processEvents();
        QCOMPARE(v->width(), width);
    }
    QVERIFY2(within(), qPrintable(where()));
    QVERIFY(v->minimumSizeHint().width() <= width);
    const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR");
    if (!dir.isEmpty()) v->grab().save(QStringLiteral("%1/rehearsal_presenter_%2.png").arg(dir, QLatin1String(QTest::currentDataTag())));
    p->close();
    QTRY_VERIFY(!t->presentation());
}

// The presenter view's previews have their slide's shape: the picture fills the box (no band of
// more than 2 px on any side), at the sizes a presenter's screen has.
void TestDeck::presenterPreviewsFillTheirBoxes_data() {
    QTest::addColumn<QSize>("size");
    QTest::newRow("1920x1080") << QSize(1920, 1080);
    QTest::newRow("1280x720") << QSize(1280, 720);
    QTest::newRow("1366x768") << QSize(1366, 768);
    QTest::newRow("960x1000") << QSize(960, 1000);
}

void TestDeck::presenterPreviewsFillTheirBoxes() {
    QFETCH(QSize, size);
    Session d = smallDeck();
    d.current = 0;
    PresentationWindow audience(d);
    audience.resize(1280, 720);
    PresenterView v(&audience);
    v.resize(size);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    QTRY_VERIFY(!v.nextSlide()->image().isNull());
    for (SlidePreview* preview : {v.currentSlide(), v.nextSlide()}) {
        const QSizeF img = preview->image().deviceIndependentSize();
        const QSize box = preview->size();
        const qreal k = std::min(box.width() / img.width(), box.height() / img.height());
        const qreal bandX = box.width() - img.width() * k, bandY = box.height() - img.height() * k;
        QVERIFY2(bandX <= 2 && bandY <= 2, qPrintable(QStringLiteral("%1: box %2x%3, bands %4 and %5 px")
                                                      .arg(preview->objectName()).arg(box.width()).arg(box.height()).arg(bandX).arg(bandY)));
        // And the previews use the room: the current slide at least 45 % of the view's width.
        if (preview == v.currentSlide()) QVERIFY2(box.width() >= size.width() * 0.45, qPrintable(QString::number(box.width())));
    }
    const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR");
    if (!dir.isEmpty()) v.grab().save(QStringLiteral("%1/presenter_previews_%2x%3.png").arg(dir).arg(size.width()).arg(size.height()));
}

// A drawing belongs to what it was drawn on: when F shows or hides the numbers column, N the notes
// band, or the window changes size, it keeps its place on that view (or column) relative to it;
// drawn on the numbers column, it goes with the column when F hides it and comes back with it.
void TestDeck::drawingsStayWithWhatTheyWereDrawnOn_data() {
    QTest::addColumn<QString>("on");       // "view" or "numbers"
    QTest::addColumn<QString>("change");   // "F", "N", "resize"
    QTest::newRow("view_F") << "view" << "F";
    QTest::newRow("view_N") << "view" << "N";
    QTest::newRow("view_resize") << "view" << "resize";
    QTest::newRow("numbers_resize") << "numbers" << "resize";
    QTest::newRow("numbers_FtwiceHidesThenBrings") << "numbers" << "F";
}

void TestDeck::drawingsStayWithWhatTheyWereDrawnOn() {
    QFETCH(QString, on);
    QFETCH(QString, change);
    Session d;
    d.scenes = {demoSlide(DemoId::RopeDecay)};
    d.scenes.front().notes = QStringLiteral("a note\nover two lines");
    PresentationWindow p(d);
    p.resize(1920, 1080);
    p.show();
    QVERIFY(QTest::qWaitForWindowExposed(&p));
    p.slideImage();
    const auto before = p.lastLayout();
    QVERIFY(p.numbersShown() && !before.numbers.isEmpty() && !before.viewRects.empty());
    const QRectF region = on == "view" ? before.viewRects.front() : before.numbers;
    // A stroke across the middle of that part of the slide.
    const QPointF a = region.topLeft() + QPointF(region.width() * 0.3, region.height() * 0.4);
    const QPointF b = region.topLeft() + QPointF(region.width() * 0.6, region.height() * 0.55);
    // What it is drawn on: the plot (data area) under its middle, else the view or the column.
    const auto partOf = [&](const PresentationWindow::Layout& L, int plot) {
        if (plot >= 0) return plot < int(L.plots.size()) ? L.plots[std::size_t(plot)] : QRectF();
        return on == "view" ? (L.viewRects.empty() ? QRectF() : L.viewRects.front()) : L.numbers;
    };
    int plot = -1;
    for (std::size_t k = 0; k < before.plots.size() && plot < 0; ++k)
        if (before.plots[k].contains((a + b) / 2)) plot = int(k);
    if (on == "view") QVERIFY2(plot >= 0, "no plot under the stroke drawn on the view");
    const QRectF part = partOf(before, plot);
    QTest::keyClick(&p, Qt::Key_D);
    QTest::mousePress(p.overlay(), Qt::LeftButton, {}, a.toPoint());
    QTest::mouseMove(p.overlay(), ((a + b) / 2).toPoint());
    QTest::mouseMove(p.overlay(), b.toPoint());
    QTest::mouseRelease(p.overlay(), Qt::LeftButton, {}, b.toPoint());
    QCOMPARE(int(p.overlay()->strokes().size()), 1);
    const auto relative = [](const QPointF& pt, const QRectF& r) {
        return QPointF((pt.x() - r.left()) / r.width(), (pt.y() - r.top()) / r.height());
    };
    const QPointF startIn = relative(p.overlay()->strokes().front().front(), part);
    const QPointF endIn = relative(p.overlay()->strokes().front().back(), part);
    if (change == "F") QTest::keyClick(&p, Qt::Key_F);
    else if (change == "N") QTest::keyClick(&p, Qt::Key_N);
    else p.resize(1280, 720);
    QApplication::processEvents();
    p.slideImage();
    if (on == "numbers" && change == "F") {
        QVERIFY(p.lastLayout().numbers.isEmpty());
        QCOMPARE(int(p.overlay()->strokes().size()), 0);   // hidden with its column
        QTest::keyClick(&p, Qt::Key_F);                    // and back with it
        p.slideImage();
    }
    const QRectF moved = partOf(p.lastLayout(), plot);
    QVERIFY(!moved.isEmpty());
    if (on == "view") QVERIFY2(moved != part, "the change did not move the plot: the test would prove nothing");
    QCOMPARE(int(p.overlay()->strokes().size()), 1);
    const auto& stroke = p.overlay()->strokes().front();
    const QPointF startNow = relative(stroke.front(), moved), endNow = relative(stroke.back(), moved);
    const qreal tolerance = 2.0 / std::min(moved.width(), moved.height());
    QVERIFY2((startNow - startIn).manhattanLength() < tolerance && (endNow - endIn).manhattanLength() < tolerance,
             qPrintable(QStringLiteral("drawn at (%1, %2) of it, now at (%3, %4)").arg(startIn.x()).arg(startIn.y()).arg(startNow.x()).arg(startNow.y())));
    p.close();
}

// ------------------------------------------------------------------ deck list

// Delete (or Backspace) in the deck list removes the selected slide; the selection stays where it
// was (the slide that took its place, or the new last one), whether the deck was the lecture or
// the session.
void TestDeck::deleteKeyRemovesAndSelectionStaysNear_data() {
    QTest::addColumn<bool>("session");
    QTest::addColumn<int>("selected");
    QTest::addColumn<int>("key");
    QTest::addColumn<int>("selectedAfter");
    QTest::newRow("lecture_slide6_Delete") << false << 5 << int(Qt::Key_Delete) << 5;
    QTest::newRow("lecture_lastSlide_Delete") << false << int(demonstrations().size()) - 1 << int(Qt::Key_Delete)
                                              << int(demonstrations().size()) - 2;
    QTest::newRow("lecture_slide3_Backspace") << false << 2 << int(Qt::Key_Backspace) << 2;
    QTest::newRow("session_slide3_Delete") << true << 2 << int(Qt::Key_Delete) << 2;
    QTest::newRow("session_slide1_Delete") << true << 0 << int(Qt::Key_Delete) << 0;
}

void TestDeck::deleteKeyRemovesAndSelectionStaysNear() {
    QFETCH(bool, session);
    QFETCH(int, selected);
    QFETCH(int, key);
    QFETCH(int, selectedAfter);
    MainWindow w(false);
    SessionActions actions(&w, SessionActions::Options{false, false, {}});
    auto* t = teachingOf(&w);
    if (session) actions.setSession(smallDeck());
    w.show();
    t->showDeck(selected);
    DeckPanel* panel = t->deckPanel();
    QCOMPARE(panel->selected(), selected);
    const Session before = t->deck();
    const QString removed = before.scenes[std::size_t(selected)].title;
    panel->list()->setFocus();
    QTest::keyClick(panel->list(), Qt::Key(key));
    QCOMPARE(t->deckModel()->count(), int(before.scenes.size()) - 1);
    QStringList expected = titles(before);
    expected.removeAt(selected);
    QCOMPARE(titles(t->deck()), expected);
    QCOMPARE(panel->selected(), selectedAfter);
    QCOMPARE(panel->list()->currentRow(), selectedAfter);
    QCOMPARE(panel->titleEdit()->text(), expected[selectedAfter]);
    QVERIFY(!titles(t->deck()).contains(removed));
    // The window shows the selected slide (the deck is the session now).
    QVERIFY(w.scene()->committed() == withLook(t->deck().scenes[std::size_t(selectedAfter)].scene, w.scene()->committed()));
    // One undo brings it back.
    w.scene()->undoStack()->undo();
    QCOMPARE(titles(t->deck()), titles(before));
}

// Showing a slide (a click in the list) puts the slide's scene in the window but keeps the
// explorer's own theme and text size; the slide itself is not changed by the click, and the
// window's edits go into it.
void TestDeck::showingASlideKeepsTheExplorersLook_data() {
    QTest::addColumn<QString>("theme");
    QTest::addColumn<double>("fontScale");
    QTest::addColumn<int>("slide");
    QTest::newRow("light_x1.3_slide3") << "light" << 1.3 << 2;
    QTest::newRow("dark_x0.8_slide8") << "dark" << 0.8 << 7;
    QTest::newRow("light_x1_slide21") << "light" << 1.0 << int(demonstrations().size()) - 1;
}

void TestDeck::showingASlideKeepsTheExplorersLook() {
    QFETCH(QString, theme);
    QFETCH(double, fontScale);
    QFETCH(int, slide);
    MainWindow w(false);
    SessionActions actions(&w, SessionActions::Options{false, false, {}});
    auto* t = teachingOf(&w);
    w.scene()->edit(QStringLiteral("look"), QStringLiteral("look"), [&](SceneParams& s) {
        s.view.theme = theme;
        s.view.fontScale = fontScale;
    });
    w.show();
    t->showDeck(0);
    t->deckModel()->setTitle(0, QStringLiteral("Retitled"));   // the deck is the session from now on
    QVERIFY(t->deckModel()->isSession());
    const SessionScene target = t->deck().scenes[std::size_t(slide)];
    t->deckPanel()->list()->setCurrentRow(slide);   // a click on the row
    QCOMPARE(t->deckModel()->current(), slide);
    const SceneParams shown = w.scene()->committed();
    QCOMPARE(shown.view.theme, theme);
    QCOMPARE(shown.view.fontScale, fontScale);
    QCOMPARE(shown.length, target.scene.length);
    QVERIFY(shown.methods == target.scene.methods);
    // The click does not change the slide; an edit in the window goes into it.
    QVERIFY(t->deck().scenes[std::size_t(slide)] == target);
    w.scene()->edit(QStringLiteral("length"), QStringLiteral("length"), [](SceneParams& s) { s.length = 40; });
    QCOMPARE(t->deck().scenes[std::size_t(slide)].scene.length, 40);
    QVERIFY(actions.session() == t->deck());
    // A second click elsewhere: the look is still the explorer's.
    t->deckPanel()->list()->setCurrentRow(slide == 0 ? 1 : 0);
    QCOMPARE(w.scene()->committed().view.theme, theme);
    QCOMPARE(w.scene()->committed().view.fontScale, fontScale);
}

// Teach ▸ Export the deck…: the deck the window holds (an authored one included), as one PDF with
// a page per slide (titles as text; notes only when asked) or a folder of PNGs.
void TestDeck::exportTheDeckFromTheWindow_data() {
    QTest::addColumn<QString>("target");   // "deck.pdf" or "slides/"
    QTest::addColumn<bool>("notes");
    QTest::newRow("pdf") << "deck.pdf" << false;
    QTest::newRow("pdf_notes") << "deck.pdf" << true;
    QTest::newRow("pngFolder") << "slides/" << false;
}

void TestDeck::exportTheDeckFromTheWindow() {
    QFETCH(QString, target);
    QFETCH(bool, notes);
    MainWindow w(false);
    SessionActions actions(&w, SessionActions::Options{false, false, {}});
    actions.setSession(smallDeck());
    auto* t = teachingOf(&w);
    t->deckModel()->setTitle(2, QStringLiteral("Retitled third"));
    auto* action = t->menu()->findChild<QAction*>(QStringLiteral("teachExportDeck"));
    if (!action)
        for (QAction* a : t->menu()->actions())
            if (a->objectName() == QLatin1String("teachExportDeck")) action = a;
    QVERIFY2(action, "no Teach ▸ Export the deck… entry");
    QTemporaryDir dir;
    const QString path = dir.filePath(target);
    QString error;
    QVERIFY2(t->exportDeckTo(path, notes, &error), qPrintable(error));
    const QStringList expected = titles(t->deck());
    if (target.endsWith(QLatin1Char('/'))) {
        QCOMPARE(QDir(path).entryList(QDir::Files, QDir::Name), deckPngNames(t->deck()));
        QCOMPARE(deckPngNames(t->deck()).at(2), QStringLiteral("03-retitled-third.png"));
        return;
    }
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QStringList pages = testsupport::pdfPageTexts(f.readAll());
    QCOMPARE(int(pages.size()), int(expected.size()));
    for (qsizetype i = 0; i < pages.size(); ++i) {
        const QString page = testsupport::withoutSpaces(pages[i]);
        QVERIFY2(page.contains(testsupport::withoutSpaces(expected[i])), qPrintable(page.left(200)));
        const QString note = testsupport::withoutSpaces(t->deck().scenes[std::size_t(i)].notes);
        QCOMPARE(page.contains(note), notes);
    }
}

// Every slide of the lecture fills at least 85 % of the slide's height (the footer band, hidden
// from the audience, left out): in each column that holds the slide's views (or the comparison
// table), the inked rows reach from the title to within 15 % of the bottom. At 1280×720,
// 1920×1080 and 3840×2160 (device pixel ratio 2), in each theme.
void TestDeck::slidesFillTheirHeight_data() {
    QTest::addColumn<int>("slide");
    QTest::addColumn<QString>("theme");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<qreal>("dpr");
    const Session d = demoDeck();
    const struct {
        const char* name;
        QSize size;
        qreal dpr;
    } screens[] = {{"1280x720", {1280, 720}, 1}, {"1920x1080", {1920, 1080}, 1}, {"3840x2160_dpr2", {1920, 1080}, 2}};
    for (int i = 0; i < int(d.scenes.size()); ++i)
        for (const QString& theme : themeNames())
            for (const auto& sc : screens)
                QTest::newRow(QStringLiteral("%1_%2_%3_%4").arg(i + 1, 2, 10, QLatin1Char('0')).arg(d.scenes[std::size_t(i)].slide.demo, theme,
                                                                                                     QLatin1String(sc.name)).toUtf8())
                    << i << theme << sc.size << sc.dpr;
}

void TestDeck::slidesFillTheirHeight() {
    QFETCH(int, slide);
    QFETCH(QString, theme);
    QFETCH(QSize, size);
    QFETCH(qreal, dpr);
    Session d = demoDeck();
    d.current = slide;
    PresentationWindow p(d);
    p.setThemeName(theme);
    p.setKeyHints(false);
    p.resize(size);
    const QImage img = p.renderSlide(size, dpr);
    QCOMPARE(img.size(), size * dpr);
    const auto L = p.lastLayout();
    const QRectF content = L.views.isEmpty() ? L.numbers : L.views;
    const int x0 = int(content.left() * dpr), x1 = int(content.right() * dpr);
    const int bottom = int(L.footer.top() * dpr);   // the hidden footer's band is not the slide's
    const QRgb bg = p.slideTheme().background.rgb() & 0xffffffu;
    int first = -1, last = -1;
    for (int y = 0; y < bottom; ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(img.constScanLine(y));
        for (int x = x0; x < x1; ++x)
            if ((line[x] & 0xffffffu) != bg) {
                if (first < 0) first = y;
                last = y;
                break;
            }
    }
    QVERIFY(first >= 0);
    const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR");
    if (!dir.isEmpty() && dpr == 1)
        img.save(QStringLiteral("%1/slide_%2_%3_%4x%5.png").arg(dir).arg(slide + 1, 2, 10, QLatin1Char('0')).arg(theme).arg(size.width()).arg(size.height()));
    // Square heatmap cells (issue 27: diagonals at 45°) cannot fill both directions of a wide
    // area: the content fills its height, or the width of its area.
    int left = -1, right = -1;
    for (int x = x0; x < x1; ++x)
        for (int y = std::max(first, 0); y <= last; ++y)
            if ((reinterpret_cast<const QRgb*>(img.constScanLine(y))[x] & 0xffffffu) != bg) {
                if (left < 0) left = x;
                right = x;
                break;
            }
    const double filled = double(last - first + 1) / bottom;
    const double filledWide = x1 > x0 ? double(right - left + 1) / (x1 - x0) : 0.0;
    QVERIFY2(filled >= 0.85 || filledWide >= 0.9,
             qPrintable(QStringLiteral("inked rows cover %1 % of the slide's height, inked columns %2 % of the content's width")
                            .arg(100 * filled, 0, 'f', 1)
                            .arg(100 * filledWide, 0, 'f', 1)));
}

// The long-context slides show the model at its extended context, not a shorter stand-in.
void TestDeck::longContextSlidesAtTheFullContext_data() {
    QTest::addColumn<int>("demo");
    QTest::addColumn<qint64>("length");
    QTest::addColumn<qint64>("original");
    QTest::newRow("llama3-bands_131072") << int(DemoId::Llama3Bands) << qint64(131072) << qint64(8192);
    QTest::newRow("yarn-ramp_32768") << int(DemoId::YarnRamp) << qint64(32768) << qint64(4096);
}

// RoPE in bfloat16: the precision view of the same model on its two code paths, at 4096.
void TestDeck::bf16SlideShowsBothPaths() {
    const SceneParams s = demoScene(DemoId::RopeBf16);
    QVERIFY(!sceneProblem(s));
    QVERIFY(s.view.showPrecision);
    QCOMPARE(visibleViews(s), std::vector<ViewKind>{ViewKind::Precision});
    QCOMPARE(s.methods.size(), std::size_t(2));
    for (const auto& m : s.methods) QCOMPARE(m.params.precision, Precision::BFloat16);
    QCOMPARE(s.methods[0].params.rope.angle_precision, Precision::BFloat16);
    QCOMPARE(s.methods[1].params.rope.angle_precision, Precision::Float32);
    QVERIFY(s.length > 4096);
}

// Local and global layers: each model's local layer next to its global one, the decay to 128k.
void TestDeck::layersSlideShowsLocalAndGlobal() {
    const SceneParams s = demoScene(DemoId::LocalGlobalLayers);
    QVERIFY(!sceneProblem(s));
    QCOMPARE(s.methods.size(), std::size_t(4));
    std::vector<LayerType> types;
    for (const auto& m : s.methods) {
        QVERIFY(!m.params.model.empty());
        types.push_back(m.params.attention.type());
    }
    QCOMPARE(types, (std::vector<LayerType>{LayerType::Sliding, LayerType::Full, LayerType::Chunked, LayerType::Full}));
    QVERIFY(s.methods[3].params.attention.nope);      // Llama 4's global layer has no RoPE
    QVERIFY(!s.methods[1].params.attention.nope);     // Gemma 3's has
    QCOMPARE(qint64(s.view.decayMaxDistance), qint64(131072));
    QVERIFY(s.view.causal);   // decoders: Gemma 3's window reaches 1023 back, not ±512
}

void TestDeck::longContextSlidesAtTheFullContext() {
    QFETCH(int, demo);
    QFETCH(qint64, length);
    QFETCH(qint64, original);
    const SceneParams s = demoScene(DemoId(demo));
    QCOMPARE(qint64(s.length), length);
    QCOMPARE(qint64(s.methods.front().params.rope.max_positions), length);
    QCOMPARE(qint64(s.methods.front().params.rope.original_max_positions.value_or(0)), original);
    QVERIFY(s.positions.back() == length - 1);
}

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("PosLabTests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_deck"));
    TestDeck t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_deck.moc"
