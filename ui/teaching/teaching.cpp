#include "ui/teaching/teaching.h"

#include "ui/mainwindow.h"
#include "ui/teaching/animation.h"
#include "ui/teaching/demopanel.h"
#include "ui/teaching/demoscenes.h"
#include "ui/teaching/formulapanel.h"
#include "ui/teaching/presentation.h"
#include "ui/teaching/stepper.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>
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
    deck_ = demoDeck();
    animator_ = new Animator(window_->scene(), this);
    buildDock();
    buildMenu();
    connect(window_->scene(), &Scene::changed, this, &TeachingController::syncTheme);
    connect(demoPanel_, &DemoPanel::demoRequested, this, &TeachingController::applyDemo);
    syncTheme();
}

PresentationWindow* TeachingController::presentation() const { return presentation_.data(); }

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
    dock_->setMinimumWidth(420);
    window_->addDockWidget(Qt::RightDockWidgetArea, dock_);
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
        auto* a = menu_->addAction(qs(d.title));
        a->setData(int(d.id));
        a->setObjectName(QStringLiteral("demo-") + qs(d.key));
        a->setStatusTip(qs(d.claim));
        a->setToolTip(qs(d.claim));
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
    menu_->addAction(tr("&Add this scene to the deck"), this, &TeachingController::addSceneToDeck);
    menu_->addAction(tr("Reset the deck to the demonstrations"), this, [this] {
        setDeck(demoDeck());
        window_->statusBar()->showMessage(tr("The deck holds the %1 demonstrations.").arg(deck_.scenes.size()), 4000);
    });
    menu_->addAction(tr("Open a deck…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(window_, tr("Open a deck"), QString(),
                                                          tr("PosLab sessions (*.%1)").arg(QLatin1String(kSessionSuffix)));
        if (path.isEmpty()) return;
        QString error;
        if (auto s = loadSessionFile(path, &error)) {
            setDeck(*s);
            Q_EMIT deckOpened(path, deck_);
        } else {
            QMessageBox::warning(window_, tr("Open a deck"), error);
        }
    });
    menu_->addAction(tr("Save the deck…"), this, [this] {
        QString path = QFileDialog::getSaveFileName(window_, tr("Save the deck"), QStringLiteral("deck.%1").arg(QLatin1String(kSessionSuffix)),
                                                    tr("PosLab sessions (*.%1)").arg(QLatin1String(kSessionSuffix)));
        if (path.isEmpty()) return;
        QString error;
        if (!saveSessionFile(path, deck_, &error)) QMessageBox::warning(window_, tr("Save the deck"), error);
    });

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
    for (const auto& d : demonstrations()) chooser_->addItem(qs(d.title), int(d.id));
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
}

void TeachingController::applyDemo(DemoId id) {
    SceneParams s = demoScene(id);
    const SceneParams& cur = window_->scene()->params();
    s.view.theme = cur.view.theme;
    s.view.fontScale = cur.view.fontScale;
    window_->scene()->apply(tr("Demonstration: %1").arg(qs(demoInfo(id).title)), s);
    demoPanel_->showDemo(id);
    dock_->show();
    dock_->raise();
    tabs_->setCurrentWidget(demoPanel_);
    window_->statusBar()->showMessage(qs(demoInfo(id).claim), 6000);
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
    deck_ = deck;
    if (deck_.scenes.empty()) deck_ = demoDeck();
    deck_.current = std::clamp(deck_.current, 0, int(deck_.scenes.size()) - 1);
    if (presentation_) presentation_->setDeck(deck_);
}

void TeachingController::addSceneToDeck() {
    bool ok = false;
    const QString title = QInputDialog::getText(window_, tr("Add this scene to the deck"), tr("Slide title"), QLineEdit::Normal,
                                                configTitle(window_->scene()->params(), 0), &ok);
    if (!ok) return;
    SessionScene sl;
    sl.title = title;
    sl.scene = window_->scene()->committed();
    if (int(deck_.scenes.size()) >= kMaxSessionScenes) return;
    deck_.scenes.push_back(sl);
    window_->statusBar()->showMessage(tr("Slide %1 added to the deck.").arg(deck_.scenes.size()), 4000);
}

PresentationWindow* TeachingController::startPresentation(bool fullScreen) {
    if (presentation_) {
        presentation_->raise();
        presentation_->activateWindow();
        return presentation_;
    }
    auto* p = new PresentationWindow(deck_, window_);
    p->setAttribute(Qt::WA_DeleteOnClose);
    presentation_ = p;
    connect(p, &PresentationWindow::slideChanged, this, [this](int i) { deck_.current = i; });
    connect(p, &PresentationWindow::finished, this, [this](int i) { deck_.current = i; });
    if (fullScreen) p->showFullScreen();
    else p->show();
    p->setFocus();
    return p;
}

}  // namespace poslab::ui
