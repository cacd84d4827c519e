#include "ui/window/teaching.h"

#include "ui/window/mainwindow.h"
#include "ui/teaching/animation.h"
#include "ui/io/atomicfile.h"
#include "ui/io/export.h"
#include "ui/teaching/deck.h"
#include "ui/teaching/deckexport.h"
#include "ui/teaching/deckpanel.h"
#include "ui/teaching/demopanel.h"
#include "ui/teaching/demoscenes.h"
#include "ui/teaching/demotext.h"
#include "ui/teaching/formulapanel.h"
#include "ui/teaching/presentation.h"
#include "ui/teaching/presenter.h"
#include "ui/teaching/stepper.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>
#include <QGuiApplication>
#include <QScreen>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>

#include <algorithm>

namespace poslab::ui {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }
constexpr const char* kControllerProperty = "poslabTeaching";
}  // namespace

TeachingController* teachingOf(MainWindow* window) {
    if (!window) return nullptr;
    return window->findChild<TeachingController*>(QStringLiteral("teachingController"), Qt::FindDirectChildrenOnly);
}

TeachingController* installTeaching(MainWindow* window) {
    if (auto* t = teachingOf(window)) return t;
    auto* t = new TeachingController(window);
    window->setProperty(kControllerProperty, true);
    return t;
}

TeachingController::TeachingController(MainWindow* window) : QObject(window), window_(window) {
    setObjectName(QStringLiteral("teachingController"));
    deckModel_ = new DeckModel(window_->scene(), demoDeck(), this);
    animator_ = new Animator(window_->scene(), this);
    buildDock();
    buildMenu();
    connect(window_->scene(), &Scene::changed, this, &TeachingController::syncTheme);
    connect(demoPanel_, &DemoPanel::demoRequested, this, &TeachingController::applyDemo);
    syncTheme();
}

PresentationWindow* TeachingController::presentation() const { return presentation_.data(); }
PresenterView* TeachingController::presenterView() const { return presenter_.data(); }

QAction* TeachingController::menuAction() const { return menu_->menuAction(); }

QAction* TeachingController::demoAction(DemoId id) const {
    for (auto* a : demoActions_)
        if (a->data().toInt() == int(id)) return a;
    return nullptr;
}

void TeachingController::buildDock() {
    dock_ = new QDockWidget(tr("Teaching"), window_);
    dock_->setObjectName(QStringLiteral("teachingDock"));
    dock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable | QDockWidget::DockWidgetClosable);
    tabs_ = new QTabWidget(dock_);
    tabs_->setObjectName(QStringLiteral("teachingTabs"));
    demoPanel_ = new DemoPanel(tabs_);
    formulaPanel_ = new FormulaPanel(window_->scene(), tabs_);
    worked_ = new WorkedExampleWidget(tabs_);
    animationPanel_ = new AnimationPanel(window_->scene(), animator_, tabs_);
    tabs_->addTab(demoPanel_, tr("Demonstration"));
    tabs_->addTab(formulaPanel_, tr("Formulas"));
    tabs_->addTab(worked_, tr("Worked example"));
    tabs_->addTab(animationPanel_, tr("Animate"));
    tabs_->setCurrentWidget(formulaPanel_);
    dock_->setWidget(tabs_);
    // The window still fits a 1280-pixel screen beside the parameters (the tabs would ask for 406).
    tabs_->setMinimumWidth(360);
    dock_->setMinimumWidth(360);
    window_->addDockWidget(Qt::RightDockWidgetArea, dock_);

    deckDock_ = new QDockWidget(tr("Deck"), window_);
    deckDock_->setObjectName(QStringLiteral("deckDock"));
    deckDock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable | QDockWidget::DockWidgetClosable);
    deckPanel_ = new DeckPanel(deckModel_, deckDock_);
    deckDock_->setWidget(deckPanel_);
    window_->addDockWidget(Qt::RightDockWidgetArea, deckDock_);
    window_->tabifyDockWidget(dock_, deckDock_);
    dock_->raise();
    deckDock_->hide();
    connect(deckPanel_, &DeckPanel::addSceneRequested, this, &TeachingController::addSceneToDeck);
    connect(deckPanel_, &DeckPanel::presentRequested, this, [this](int i) { startPresentation(true, i); });
    // A presentation that is open follows the deck's edits.
    connect(deckModel_, &DeckModel::changed, this, [this] {
        if (!presentation_ || presentation_->deck().scenes == deckModel_->deck().scenes) return;
        Session d = deckModel_->deck();
        d.current = std::clamp(presentation_->current(), 0, int(d.scenes.size()) - 1);
        presentation_->setDeck(d);
    });
}

const Session& TeachingController::deck() const { return deckModel_->deck(); }

void TeachingController::showDeck(int index) {
    deckDock_->show();
    deckDock_->raise();
    if (index >= 0) deckPanel_->select(index);
}

void TeachingController::buildMenu() {
    menu_ = new QMenu(tr("&Teach"), window_);
    menu_->setObjectName(QStringLiteral("teachMenu"));
    // Put it before Help.
    QAction* before = nullptr;
    for (QAction* a : window_->menuBar()->actions())
        if (a->text().remove(QLatin1Char('&')) == tr("Help")) before = a;
    if (before) window_->menuBar()->insertMenu(before, menu_);
    else window_->menuBar()->addMenu(menu_);

    // Demonstrations, by section (each section once, in the order sections first appear in
    // the lecture, its demonstrations in lecture order); each is one click inside the menu.
    std::vector<std::string> sections;
    for (const auto& d : demonstrations())
        if (std::find(sections.begin(), sections.end(), d.section) == sections.end()) sections.push_back(d.section);
    std::vector<const DemoInfo*> ordered;
    for (const auto& section : sections)
        for (const auto& d : demonstrations())
            if (d.section == section) ordered.push_back(&d);
    QString section;
    for (const DemoInfo* dp : ordered) {
        const auto& d = *dp;
        if (qs(d.section) != section) {
            section = qs(d.section);
            menu_->addSection(section);
        }
        auto* a = menu_->addAction(demoTitle(d.id));
        a->setData(int(d.id));
        a->setObjectName(QStringLiteral("demo-") + qs(d.key));
        a->setStatusTip(demoClaim(d.id));
        a->setToolTip(demoClaim(d.id));
        const DemoId id = d.id;
        connect(a, &QAction::triggered, this, [this, id] { applyDemo(id); });
        demoActions_.push_back(a);
    }
    menu_->addSection(tr("Worked examples"));
    const std::pair<QString, WorkedKind> examples[] = {{tr("RoPE on a small vector, step by step"), WorkedKind::Rope},
                                                       {tr("A sinusoidal row, step by step"), WorkedKind::Sinusoidal},
                                                       {tr("ALiBi slopes for H heads, step by step"), WorkedKind::Alibi},
                                                       {tr("Which T5 bucket, step by step"), WorkedKind::T5}};
    for (const auto& [name, kind] : examples) {
        const WorkedKind k = kind;
        menu_->addAction(name, this, [this, k] { showWorkedExample(k); });
    }
    menu_->addAction(tr("&Formulas of the current method"), this, &TeachingController::showFormulas);

    menu_->addSection(tr("Presentation"));
    present_ = menu_->addAction(tr("&Present the deck"), this, [this] { startPresentation(true); });
    present_->setShortcut(QKeySequence(Qt::Key_F5));
    present_->setObjectName(QStringLiteral("teachPresent"));
    auto* presenter = menu_->addAction(tr("Present with the presenter &view"), this, [this] { startPresenterView(); });
    presenter->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    presenter->setObjectName(QStringLiteral("teachPresenterView"));
    presenter->setStatusTip(tr("The slide for the audience; the current and next slide, the notes and a timer for you"));
    auto* editDeck = menu_->addAction(tr("&Edit the deck…"), this, [this] { showDeck(); });
    editDeck->setObjectName(QStringLiteral("teachEditDeck"));
    editDeck->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    auto* add = menu_->addAction(tr("&Add this scene to the deck"), this, &TeachingController::addSceneToDeck);
    add->setObjectName(QStringLiteral("teachAddScene"));
    menu_->addAction(tr("Reset the deck to the lecture"), this, [this] {
        deckModel_->resetToLecture(demoDeck());
        window_->statusBar()->showMessage(tr("The deck holds the %1 slides of the lecture.").arg(deck().scenes.size()), 4000);
    });
    menu_->addAction(tr("Open a deck…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(window_, tr("Open a deck"), QString(),
                                                          tr("PosLab sessions (*.%1)").arg(QLatin1String(kSessionSuffix)));
        if (path.isEmpty()) return;
        QString error;
        if (auto s = loadSessionFile(path, &error)) {
            setDeck(*s);
            Q_EMIT deckOpened(path, deck());
        } else {
            QMessageBox::warning(window_, tr("Open a deck"), error);
        }
    });
    menu_->addAction(tr("Save the deck…"), this, [this] {
        QString path = QFileDialog::getSaveFileName(window_, tr("Save the deck"), QStringLiteral("deck.%1").arg(QLatin1String(kSessionSuffix)),
                                                    tr("PosLab sessions (*.%1)").arg(QLatin1String(kSessionSuffix)));
        if (path.isEmpty()) return;
        QString error;
        if (!saveSessionFile(path, deck(), &error)) QMessageBox::warning(window_, tr("Save the deck"), error);
    });
    auto* exportDeckAction = menu_->addAction(tr("E&xport the deck…"), this, &TeachingController::exportDeck);
    exportDeckAction->setObjectName(QStringLiteral("teachExportDeck"));
    exportDeckAction->setStatusTip(tr("Every slide as the audience sees it: one PDF (a page per slide) or a folder of PNG images"));

    menu_->addSection(tr("Animation"));
    auto* play = menu_->addAction(tr("Play the position forward"), animator_, &Animator::toggle);
    play->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Space));
    menu_->addAction(tr("Animation settings and export (GIF, PNG)…"), this, [this] {
        dock_->show();
        dock_->raise();
        tabs_->setCurrentWidget(animationPanel_);
    });

    // Toolbar: the chooser (click it, pick one: two clicks) and Present.
    toolbar_ = new QToolBar(tr("Teaching"), window_);
    toolbar_->setObjectName(QStringLiteral("teachingToolbar"));
    chooser_ = new QComboBox(toolbar_);
    chooser_->setObjectName(QStringLiteral("demoChooser"));
    chooser_->addItem(tr("Show a demonstration…"));
    for (const auto& d : demonstrations()) chooser_->addItem(demoTitle(d.id), int(d.id));
    chooser_->setToolTip(tr("Apply a demonstration's ready scene and show its numbers"));
    connect(chooser_, &QComboBox::activated, this, [this](int index) {
        if (index <= 0) return;
        const DemoId id = DemoId(chooser_->itemData(index).toInt());
        applyDemo(id);
        const QSignalBlocker b(chooser_);
        chooser_->setCurrentIndex(0);
    });
    toolbar_->addWidget(chooser_);
    toolbar_->addAction(present_);
    window_->addToolBar(Qt::TopToolBarArea, toolbar_);
}

void TeachingController::syncTheme() {
    const SceneParams& s = window_->scene()->params();
    if (s.view.theme == themeName_ && s.view.fontScale == fontScale_) return;
    themeName_ = s.view.theme;
    fontScale_ = s.view.fontScale;
    const Theme t = themeByName(themeName_, fontScale_);
    demoPanel_->setTheme(t);
    worked_->setTheme(t);
    // The dock's own widgets (tabs, spin boxes, labels) in the theme's type and colours, as the
    // parameter panel beside it.
    tabs_->setFont(themeWidgetFont(t, fontScale_));
    tabs_->setPalette(themeWidgetPalette(t));
    tabs_->setAutoFillBackground(true);
}

void TeachingController::applyDemo(DemoId id) {
    SceneParams s = demoScene(id);
    const SceneParams& cur = window_->scene()->params();
    s.view.theme = cur.view.theme;
    s.view.fontScale = cur.view.fontScale;
    window_->scene()->apply(tr("Demonstration: %1").arg(demoTitle(id)), s);
    demoPanel_->showDemo(id);
    dock_->show();
    dock_->raise();
    tabs_->setCurrentWidget(demoPanel_);
    window_->statusBar()->showMessage(demoClaim(id), 6000);
    Q_EMIT demoApplied(id);
}

void TeachingController::showWorkedExample(WorkedKind kind) {
    worked_->setExample(kind);
    dock_->show();
    dock_->raise();
    tabs_->setCurrentWidget(worked_);
}

void TeachingController::showFormulas() {
    dock_->show();
    dock_->raise();
    tabs_->setCurrentWidget(formulaPanel_);
}

void TeachingController::setDeck(const Session& deck) {
    deckModel_->reset(deck.scenes.empty() ? demoDeck() : deck, false);
    if (presentation_) presentation_->setDeck(deckModel_->deck());
}

void TeachingController::addSceneToDeck() {
    if (deckModel_->count() >= kMaxSessionScenes) {
        window_->statusBar()->showMessage(tr("The deck is full (%1 slides).").arg(kMaxSessionScenes), 6000);
        return;
    }
    const int i = deckModel_->addWindowScene(configTitle(window_->scene()->committed(), 0));
    showDeck(i);
    deckPanel_->focusTitle();
    window_->statusBar()->showMessage(tr("Slide %1 added to the deck: give it a title, choose its views.").arg(i + 1), 6000);
}

int TeachingController::firstSlide(int from) const {
    if (from >= 0) return std::clamp(from, 0, deckModel_->count() - 1);
    // F5: the slide selected in the deck list while the list is open, else the first slide (not
    // where the last presentation ended).
    return deckDock_->isVisible() ? std::clamp(deckPanel_->selected(), 0, deckModel_->count() - 1) : 0;
}

PresentationWindow* TeachingController::startPresentation(bool fullScreen, int from) {
    if (presentation_) {
        if (from >= 0) presentation_->goTo(from);
        presentation_->raise();
        presentation_->activateWindow();
        return presentation_;
    }
    Session d = deckModel_->deck();
    d.current = firstSlide(from);
    auto* p = new PresentationWindow(d, window_);
    p->setAttribute(Qt::WA_DeleteOnClose);
    presentation_ = p;
    // Where the presentation is, is the deck's current slide while the deck is not the session
    // (the window's scene does not depend on it); a session's current slide is the window's.
    const auto follow = [this](int i) {
        if (deckModel_->isSession()) return;
        Session cur = deckModel_->deck();
        cur.current = i;
        deckModel_->reset(cur, false);
    };
    connect(p, &PresentationWindow::slideChanged, this, follow);
    connect(p, &PresentationWindow::finished, this, follow);
    if (fullScreen && presenterScreens(QGuiApplication::screens(), window_->screen()).separate()) return startPresenterView(from);
    if (fullScreen) p->showFullScreen();
    else p->show();
    p->setFocus();
    return p;
}

PresentationWindow* TeachingController::startPresenterView(int from) {
    PresentationWindow* p = presentation_ ? presentation_.data() : startPresentation(false, firstSlide(from));
    if (from >= 0) p->goTo(from);
    if (presenter_) {
        presenter_->raise();
        presenter_->activateWindow();
        return p;
    }
    auto* v = new PresenterView(p, window_);
    v->setAttribute(Qt::WA_DeleteOnClose);
    presenter_ = v;
    const PresenterScreens screens = presenterScreens(QGuiApplication::screens(), window_->screen());
    if (screens.separate()) {
        // The audience's slide full screen on the other screen; the presenter's view on this one.
        p->setScreen(screens.audience);
        p->setGeometry(screens.audience->geometry());
        p->showFullScreen();
        v->setScreen(screens.presenter);
        v->setGeometry(screens.presenter->availableGeometry());
        v->showMaximized();
    } else {
        // One screen: a rehearsal, the audience's slide and the presenter view as windows side by
        // side within the screen. Placed once with no frames known, and again when the window
        // manager has framed them (its frames are known only then).
        p->showNormal();
        placeSideBySide();
        v->show();
        placeSideBySide();
        QTimer::singleShot(250, this, &TeachingController::placeSideBySide);
    }
    v->activateWindow();
    v->setFocus();
    return p;
}

bool TeachingController::exportDeckTo(const QString& path, bool notes, QString* error) {
    DeckExportOptions options;
    options.notes = notes;
    const bool pdf = exportFormatFromPath(path) == ExportFormat::Pdf && !QFileInfo(path).isDir();
    QString why;
    bool ok = false;
    if (pdf) {
        const auto bytes = deckPdf(deck(), options, &why);
        ok = bytes && writeFileAtomically(path, *bytes, &why);
    } else {
        ok = writeDeckPngs(path, deck(), options, &why);
    }
    if (!ok) {
        if (error) *error = tr("Cannot export the deck to %1: %2").arg(QDir::toNativeSeparators(path), why);
        return false;
    }
    window_->statusBar()->showMessage(pdf ? tr("Exported the deck's %1 slides to %2").arg(deck().scenes.size()).arg(QDir::toNativeSeparators(path))
                                          : tr("Exported the deck's %1 slides as PNG images into %2")
                                                .arg(deck().scenes.size())
                                                .arg(QDir::toNativeSeparators(path)),
                                      8000);
    return true;
}

void TeachingController::exportDeck() {
    // What to write: one PDF or a folder of PNGs, with or without the speaker notes.
    QDialog ask(window_);
    ask.setObjectName(QStringLiteral("exportDeckDialog"));
    ask.setWindowTitle(tr("Export the deck"));
    auto* layout = new QVBoxLayout(&ask);
    layout->addWidget(new QLabel(tr("Every slide of the deck, %1 in all, as the audience sees it: 1920 × 1080, projector theme.")
                                     .arg(deckModel_->count()),
                                 &ask));
    auto* asPdf = new QRadioButton(tr("One &PDF file, a page per slide (text stays text)"), &ask);
    asPdf->setObjectName(QStringLiteral("exportDeckPdf"));
    auto* asPng = new QRadioButton(tr("A &folder of PNG images, one per slide (01-…png, 02-…png, …)"), &ask);
    asPng->setObjectName(QStringLiteral("exportDeckPng"));
    asPdf->setChecked(true);
    auto* notes = new QCheckBox(tr("With each slide's speaker &notes under it (a handout for you, not for the audience)"), &ask);
    notes->setObjectName(QStringLiteral("exportDeckNotes"));
    for (QWidget* w : std::initializer_list<QWidget*>{asPdf, asPng, notes}) layout->addWidget(w);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &ask);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Choose where…"));
    connect(buttons, &QDialogButtonBox::accepted, &ask, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &ask, &QDialog::reject);
    layout->addWidget(buttons);
    if (ask.exec() != QDialog::Accepted) return;

    QString path;
    if (asPdf->isChecked()) {
        path = QFileDialog::getSaveFileName(window_, tr("Export the deck as a PDF"), QDir::homePath() + QStringLiteral("/deck.pdf"),
                                            tr("PDF documents (*.pdf)"));
        if (path.isEmpty()) return;
        if (QFileInfo(path).suffix().compare(QLatin1String("pdf"), Qt::CaseInsensitive) != 0) path += QStringLiteral(".pdf");
    } else {
        path = QFileDialog::getExistingDirectory(window_, tr("Export the deck into a folder of PNG images"), QDir::homePath());
        if (path.isEmpty()) return;
        // Files of the same names are replaced only when asked.
        int existing = 0;
        for (const QString& name : deckPngNames(deck())) existing += QFileInfo::exists(QDir(path).filePath(name)) ? 1 : 0;
        if (existing > 0 &&
            QMessageBox::question(window_, tr("Replace the images?"),
                                  tr("Images of this deck already exist in %1 (%2 of %3). Replace them?")
                                      .arg(QDir::toNativeSeparators(path))
                                      .arg(existing)
                                      .arg(deckModel_->count()),
                                  QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel) != QMessageBox::Yes)
            return;
    }
    QString error;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const bool ok = exportDeckTo(path, notes->isChecked(), &error);
    QApplication::restoreOverrideCursor();
    if (!ok) QMessageBox::warning(window_, tr("Export the deck"), error);
}

void TeachingController::placeSideBySide() {
    if (!presentation_ || !presenter_ || presentation_->isFullScreen()) return;
    QScreen* screen = presenterScreens(QGuiApplication::screens(), window_->screen()).presenter;
    const QRect avail = screen ? screen->availableGeometry() : QRect(0, 0, 1280, 720);
    // The frame the window manager adds (none before the window is framed, none offscreen).
    const auto frameOf = [](const QWidget* w) {
        const QRect f = w->frameGeometry(), g = w->geometry();
        return QMargins(std::max(0, g.left() - f.left()), std::max(0, g.top() - f.top()), std::max(0, f.right() - g.right()),
                        std::max(0, f.bottom() - g.bottom()));
    };
    const QMargins a = frameOf(presentation_), b = frameOf(presenter_);
    const QMargins frame(std::max(a.left(), b.left()), std::max(a.top(), b.top()), std::max(a.right(), b.right()),
                         std::max(a.bottom(), b.bottom()));
    const RehearsalGeometry g = rehearsalGeometry(avail, frame, presenter_->minimumSizeHint().expandedTo(presenter_->minimumSize()));
    presentation_->setGeometry(g.audience);
    presenter_->setGeometry(g.presenter);
}

}  // namespace poslab::ui
