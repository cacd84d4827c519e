#include "ui/window/mainwindow.h"

#include "ui/io/presets.h"
#include "ui/io/export.h"
#include "ui/io/modelconfig.h"
#include "ui/io/qkfile.h"
#include "ui/io/session.h"
#include "ui/panel/parameterpanel.h"
#include "ui/render/heatmaprenderer.h"
#include "ui/render/layout.h"
#include "ui/render/pairsrenderer.h"
#include "ui/teaching/demopanel.h"
#include "ui/teaching/handbook.h"
#include "ui/views/layersview.h"
#include "ui/views/positionsview.h"
#include "ui/views/visiondecayview.h"
#include "ui/window/welcome.h"
#include "ui/window/windowstate.h"
#include "ui/views/views.h"
#include "ui/window/teaching.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QCursor>
#include <QGuiApplication>
#include <QScreen>
#include <QDialog>
#include <QKeyEvent>
#include <QDockWidget>
#include <QStyle>
#include <QTabWidget>

#include <algorithm>
#include <cmath>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMimeData>
#include <QMouseEvent>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QShortcut>
#include <QVBoxLayout>
#include <QMessageBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QElapsedTimer>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>

namespace poslab::ui {

namespace {
QString qs(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }
}

MainWindow::MainWindow(bool persist, QWidget* parent) : QMainWindow(parent), persist_(persist) {
    setWindowTitle(tr("PosLab — positional encodings, live"));
    setAcceptDrops(true);   // config.json / .gguf / .npz / .safetensors (dropEvent)
    scene_.setLoader(&refreshQk);   // the query/key files a scene names
    pairs_ = new PairsView(this);
    pairs_->setObjectName(QStringLiteral("pairsView"));
    heatmap_ = new HeatmapView(this);
    heatmap_->setObjectName(QStringLiteral("heatmapView"));
    decay_ = new DecayView(this);
    decay_->setObjectName(QStringLiteral("decayView"));
    frequencies_ = new FrequencyView(this);
    frequencies_->setObjectName(QStringLiteral("frequencyView"));
    contributions_ = new ContributionsView(this);
    contributions_->setObjectName(QStringLiteral("contributionsView"));
    precision_ = new PrecisionView(this);
    precision_->setObjectName(QStringLiteral("precisionView"));
    layers_ = new LayersView(this);
    layers_->setObjectName(QStringLiteral("layersView"));
    // Each view's name for people (a full-screen view's window title, screen readers).
    for (auto [view, kind] : {std::pair<QWidget*, ViewKind>{pairs_, ViewKind::Pairs}, {heatmap_, ViewKind::Heatmap},
                              {decay_, ViewKind::Decay}, {frequencies_, ViewKind::Frequencies},
                              {contributions_, ViewKind::Contributions}, {precision_, ViewKind::Precision}})
        view->setAccessibleName(viewTitle(kind));
    layers_->setAccessibleName(tr("Layers"));
    positions_ = new PositionsView(this);
    positions_->setObjectName(QStringLiteral("positionsView"));
    positions_->setAccessibleName(tr("Positions"));
    visionDecay_ = new VisionDecayView(this);
    visionDecay_->setObjectName(QStringLiteral("visionDecayView"));
    visionDecay_->setAccessibleName(tr("Vision decay"));
    // A click on a patch measures the decay from it (one undo step).
    connect(visionDecay_, &VisionDecayView::patchClicked, this, [this](std::int64_t row, std::int64_t col) {
        scene_.edit(tr("Choose patch %1, %2").arg(row).arg(col), QString(), [&](SceneParams& s) { s.visionPatch = {row, col}; });
    });

    rows_ = new QSplitter(Qt::Vertical, this);
    rows_->setObjectName(QStringLiteral("rows"));
    // The explorer views in two columns (the layout engine's grid): pairs over decay beside
    // heatmap over frequencies; each column splits its own height.
    grid_ = new QSplitter(Qt::Horizontal, rows_);
    grid_->setObjectName(QStringLiteral("grid"));
    left_ = new QSplitter(Qt::Vertical, grid_);
    left_->setObjectName(QStringLiteral("left"));
    right_ = new QSplitter(Qt::Vertical, grid_);
    right_->setObjectName(QStringLiteral("right"));
    left_->addWidget(pairs_);
    left_->addWidget(decay_);
    right_->addWidget(heatmap_);
    right_->addWidget(frequencies_);
    rows_->addWidget(contributions_);   // RoPE's per-pair contributions, a row of its own (View menu; hidden by default)
    rows_->addWidget(precision_);       // RoPE's precision errors, a row of its own (View menu; hidden by default)
    precision_->hide();                 // until a scene shows it (its minimum width must not widen a restored window)
    rows_->addWidget(layers_);          // the layer overview, a row of its own (when the configuration has a layer pattern)
    layers_->hide();
    // The token layout's position ids (when the scene has a layout) beside the vision encoder's 2-D
    // decay (when the scene has a patch grid): a row of their own.
    positionsRow_ = new QSplitter(Qt::Horizontal, rows_);
    positionsRow_->setObjectName(QStringLiteral("positionsRow"));
    positionsRow_->addWidget(positions_);
    positionsRow_->addWidget(visionDecay_);
    positionsRow_->setStretchFactor(0, 3);
    positionsRow_->setStretchFactor(1, 2);
    rows_->addWidget(positionsRow_);
    positions_->hide();
    visionDecay_->hide();
    positionsRow_->hide();
    grid_->setStretchFactor(0, 1);
    grid_->setStretchFactor(1, 1);
    for (auto* s : {left_, right_}) {
        s->setStretchFactor(0, 3);
        s->setStretchFactor(1, 2);
    }
    rows_->setStretchFactor(0, 2);
    rows_->setStretchFactor(1, 1);
    for (auto* s : {rows_, grid_, left_, right_, positionsRow_}) {
        s->setChildrenCollapsible(false);
        // Sizes come from the layout engine (applyLayout) until the user drags a handle.
        connect(s, &QSplitter::splitterMoved, this, [this] {
            userArranged_ = true;
            scheduleWindowStateSave();
        });
    }
    setCentralWidget(rows_);

    panel_ = new ParameterPanel(&scene_, this);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(panel_);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    panelScroll_ = scroll;
    fitPanelWidth();
    connect(panel_, &ParameterPanel::lookChanged, this, [this] {
        fitPanelWidth();
        fitDocks();
    });
    auto* dock = new QDockWidget(tr("Parameters"), this);
    dock->setObjectName(QStringLiteral("parametersDock"));
    dock->setWidget(scroll);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, dock);

    connect(&scene_, &Scene::changed, this, &MainWindow::onSceneChanged);
    connect(&scheduler_, &Scheduler::pairsReady, pairs_, &PairsView::setResult);
    connect(&scheduler_, &Scheduler::heatmapReady, heatmap_, &HeatmapView::setResult);
    connect(&scheduler_, &Scheduler::decayReady, decay_, &DecayView::setResult);
    connect(&scheduler_, &Scheduler::frequenciesReady, frequencies_, &FrequencyView::setResult);
    connect(&scheduler_, &Scheduler::contributionsReady, contributions_, &ContributionsView::setResult);
    connect(&scheduler_, &Scheduler::precisionReady, precision_, &PrecisionView::setResult);
    for (ViewBase* v : {static_cast<ViewBase*>(pairs_), static_cast<ViewBase*>(heatmap_), static_cast<ViewBase*>(frequencies_),
                        static_cast<ViewBase*>(contributions_), static_cast<ViewBase*>(precision_)})
        connect(v, &ViewBase::resized, this, &MainWindow::updateDisplay);
    connect(decay_, &DecayView::resized, this, &MainWindow::updateDisplay);
    // Zoom and pan: each gesture is one undo step (its events merge into it).
    connect(heatmap_, &HeatmapView::windowRequested, this, [this](const ViewWindow& q, const ViewWindow& k, bool newStep) {
        if (newStep) scene_.finishMerge();
        scene_.edit(tr("Zoom heatmap"), QStringLiteral("view.heatmap_window"), [&](SceneParams& s) { setHeatmapWindow(s, q, k); });
    });
    connect(decay_, &DecayView::windowRequested, this, [this](const ViewWindow& d, bool newStep) {
        if (newStep) scene_.finishMerge();
        scene_.edit(tr("Zoom decay"), QStringLiteral("view.decay_window"), [&](SceneParams& s) { setDecayWindow(s, d); });
    });
    connect(layers_, &LayersView::layerClicked, this, &MainWindow::showLayer);

    // Each view: "Show this view full screen" in its context menu (a right click without a drag:
    // a right drag is the heatmap's and the decay chart's zoom rectangle, see eventFilter) and F11.
    for (QWidget* v : views()) {
        auto* a = new QAction(tr("Show this view full screen"), v);
        a->setObjectName(QStringLiteral("viewFullScreen"));
        a->setShortcut(QKeySequence(Qt::Key_F11));
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        a->setStatusTip(tr("The view alone on the screen; Esc or F11 brings it back"));
        connect(a, &QAction::triggered, this, [this, v] {
            if (fullScreenView_) leaveViewFullScreen();
            else showViewFullScreen(v);
        });
        v->addAction(a);
        v->setContextMenuPolicy(Qt::PreventContextMenu);
        if (v->focusPolicy() == Qt::NoFocus) v->setFocusPolicy(Qt::ClickFocus);
    }

    sharpen_ = new QTimer(this);
    sharpen_->setSingleShot(true);
    sharpen_->setInterval(200);
    connect(sharpen_, &QTimer::timeout, this, [this] {
        editsStreaming_ = false;
        updateDisplay();   // the full resolution again (the scheduler recomputes what changed)
    });

    buildMenus();
    installTeaching(this);
    // A dock opened or closed (the deck, the teaching dock) changes the room the views have.
    for (QDockWidget* d : findChildren<QDockWidget*>())
        connect(d, &QDockWidget::visibilityChanged, this, &MainWindow::queueFitDocks);
    statusBar()->showMessage(tr("Drag a slider: every view follows. Hover a view for exact values."));
    resize(1500, 950);
    // The views' visibility follows the scene before the saved geometry is restored: a view
    // that is hidden by default (contributions) must not widen the minimum size the restored
    // geometry is clamped to.
    onSceneChanged();
    if (persist_) {
        stateSave_ = new QTimer(this);
        stateSave_->setSingleShot(true);
        stateSave_->setInterval(500);
        connect(stateSave_, &QTimer::timeout, this, &MainWindow::saveWindowState);
        restoreSettings();
        restored_ = true;
        onSceneChanged();
    }
}

MainWindow::~MainWindow() {
    // A field left with an edit in progress commits it when it loses focus: while the scene
    // still exists, not from QWidget's destructor after the members are gone.
    if (QWidget* f = focusWidget()) f->clearFocus();
}

void MainWindow::buildMenus() {
    auto* file = menuBar()->addMenu(tr("&File"));
    auto* open = file->addAction(tr("&Open session…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), QString(),
                                                          tr("PosLab sessions (*.%1)").arg(QLatin1String(kSessionSuffix)));
        if (!path.isEmpty()) openSession(path);
    });
    open->setShortcut(QKeySequence::Open);
    open->setObjectName(QStringLiteral("windowOpenSession"));   // SessionActions replaces it
    auto* save = file->addAction(tr("&Save session as…"), this, [this] {
        QString path = QFileDialog::getSaveFileName(this, tr("Save session"), QString(),
                                                    tr("PosLab sessions (*.%1)").arg(QLatin1String(kSessionSuffix)));
        if (path.isEmpty()) return;
        if (!path.endsWith(QLatin1Char('.') + QLatin1String(kSessionSuffix))) path += QLatin1Char('.') + QLatin1String(kSessionSuffix);
        QString error;
        if (!saveSession(path, scene_.committed(), &error)) QMessageBox::warning(this, tr("Save session"), error);
    });
    save->setShortcut(QKeySequence::SaveAs);
    save->setObjectName(QStringLiteral("windowSaveSessionAs"));   // SessionActions replaces it
    auto* openConfig = file->addAction(tr("Open model &configuration…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open model configuration"), QString(),
                                                          tr("Model configurations (*.json *.gguf);;All files (*)"));
        if (!path.isEmpty()) openModelConfig(path);
    });
    openConfig->setObjectName(QStringLiteral("windowOpenModelConfig"));
    auto* openQk = file->addAction(tr("Open &queries and keys…"), this, [this] {
        const QString filter = tr("Queries and keys (*.npy *.npz *.safetensors);;All files (*)");
        const QString q = QFileDialog::getOpenFileName(this, tr("Open queries (tensor q, or a file holding q and k)"),
                                                       QString(), filter);
        if (q.isEmpty()) return;
        QString k;
        if (QFileInfo(q).suffix().toLower() == QLatin1String("npy")) {
            k = QFileDialog::getOpenFileName(this, tr("Open the keys (tensor k) for %1").arg(QFileInfo(q).fileName()),
                                             QFileInfo(q).absolutePath(), filter);
            if (k.isEmpty()) return;
        }
        openQueriesAndKeys(q, k);
    });
    openQk->setObjectName(QStringLiteral("windowOpenQueriesAndKeys"));
    file->addAction(tr("&Reset to the default scene"), this, [this] { scene_.apply(tr("Reset scene"), SceneParams{}); });
    file->addSeparator();
    auto* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    auto* edit = menuBar()->addMenu(tr("&Edit"));
    // The platform's keys, and Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y on every platform.
    const auto keys = [](QKeySequence::StandardKey standard, std::initializer_list<QKeySequence> always) {
        QList<QKeySequence> list = QKeySequence::keyBindings(standard);
        for (const QKeySequence& k : always)
            if (!list.contains(k)) list << k;
        return list;
    };
    undo_ = scene_.undoStack()->createUndoAction(this, tr("&Undo"));
    undo_->setShortcuts(keys(QKeySequence::Undo, {QKeySequence(Qt::CTRL | Qt::Key_Z)}));
    redo_ = scene_.undoStack()->createRedoAction(this, tr("&Redo"));
    redo_->setShortcuts(keys(QKeySequence::Redo, {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)}));
    edit->addAction(undo_);
    edit->addAction(redo_);
    qApp->installEventFilter(this);
    edit->addSeparator();
    edit->addAction(tr("&Compare: add a configuration"), &scene_, &Scene::addConfig);
    edit->addAction(tr("Compare: &remove this configuration"), this, [this] { scene_.removeConfig(scene_.activeConfig()); });

    auto* view = menuBar()->addMenu(tr("&View"));
    const QString names[6] = {tr("&Pair vectors"), tr("&Heatmap"), tr("&Decay curves"), tr("&Frequencies"),
                              tr("Per-pair &contributions"), tr("P&recision")};
    for (int i = 0; i < 6; ++i) {
        auto* a = view->addAction(names[i]);
        a->setCheckable(true);
        a->setChecked(i < 4);
        connect(a, &QAction::toggled, this, [this, i](bool on) {
            scene_.edit(on ? tr("Show view") : tr("Hide view"), QString(), [&](SceneParams& s) {
                bool* f[6] = {&s.view.showPairs, &s.view.showHeatmap, &s.view.showDecay, &s.view.showFrequencies,
                              &s.view.showContributions, &s.view.showPrecision};
                *f[i] = on;
            });
        });
        viewActions_[i] = a;
    }
    layersAction_ = view->addAction(tr("&Layer overview"));
    layersAction_->setCheckable(true);
    layersAction_->setChecked(true);
    layersAction_->setStatusTip(tr("The model's layers (when the configuration has a layer pattern): click one to show it"));
    connect(layersAction_, &QAction::toggled, this, [this](bool on) {
        scene_.edit(on ? tr("Show view") : tr("Hide view"), QString(), [&](SceneParams& s) { s.view.showLayers = on; });
    });
    view->addSeparator();
    auto* fit = view->addAction(tr("&Arrange views to fit"), this, [this] {
        userArranged_ = false;
        applyLayout();
    });
    fit->setObjectName(QStringLiteral("arrangeViews"));
    fit->setStatusTip(tr("Size the views as figures are laid out, undoing dragged splitters"));
    auto* themes = view->addMenu(tr("&Theme"));
    for (const auto& n : themeNames())
        themes->addAction(n, this, [this, n] { scene_.edit(tr("Theme"), QString(), [&](SceneParams& s) { s.view.theme = n; }); });
    auto* bigger = view->addAction(tr("&Larger text"), this, [this] {
        scene_.edit(tr("Text size"), QStringLiteral("font_scale"), [](SceneParams& s) { s.view.fontScale = std::min(3.0, s.view.fontScale + 0.1); });
    });
    bigger->setShortcut(QKeySequence::ZoomIn);
    auto* smaller = view->addAction(tr("&Smaller text"), this, [this] {
        scene_.edit(tr("Text size"), QStringLiteral("font_scale"), [](SceneParams& s) { s.view.fontScale = std::max(0.5, s.view.fontScale - 0.1); });
    });
    smaller->setShortcut(QKeySequence::ZoomOut);

    auto* presets = menuBar()->addMenu(tr("&Presets"));
    for (const auto& p : modelPresets()) {
        const QString key = qs(p.key);
        auto* a = presets->addAction(qs(p.name), this, [this, key] { panel_->applyPreset(key); });
        a->setToolTip(qs(p.note));
        a->setStatusTip(QStringLiteral("%1 — %2").arg(qs(p.note), qs(p.source)));
    }

    auto* help = menuBar()->addMenu(tr("&Help"));
    // The offline handbook (ui/teaching/handbook.h) and the welcome page (welcome.h).
    auto* handbook = help->addAction(tr("&Handbook"), this, [this] {
        auto* d = findChild<HandbookDialog*>();
        if (!d) d = new HandbookDialog(this);
        d->show();
        d->raise();
    });
    handbook->setShortcut(QKeySequence::HelpContents);
    handbook->setObjectName(QStringLiteral("helpHandbook"));
    auto* welcome = help->addAction(tr("&Welcome page"), this, [this] {
        auto* d = new WelcomeDialog(this);
        d->setAttribute(Qt::WA_DeleteOnClose);
        d->show();
    });
    welcome->setObjectName(QStringLiteral("helpWelcome"));
    help->addAction(tr("&Methods"), this, [this] {
        QString text;
        for (Method m : kAllMethods) text += QStringLiteral("<p><b>%1</b>: %2</p>").arg(methodTitleText(m).toHtmlEscaped(), methodSummaryText(m).toHtmlEscaped());
        QMessageBox::information(this, tr("Methods"), text);
    });
    help->addAction(tr("&About PosLab"), this, [this] {
        QMessageBox::about(this, tr("About PosLab"),
                           tr("<p><b>PosLab %1</b></p><p>See how transformers encode token positions: every number is "
                              "the real implementations' (see <tt>poslab compute</tt>).</p>")
                               .arg(poslabVersion()));
    });
}

Theme MainWindow::viewsTheme() const {
    // A view shown full screen: its text with the screen, as legible as a slide's (layout.h).
    if (fullScreen_ && fullScreen_->screen())
        return themeByName(themeName_, legibleFontScale(themeName_, fullScreen_->screen()->geometry().height(), fontScale_));
    return themeByName(themeName_, fontScale_);
}

void MainWindow::setViewsTheme(const Theme& t) {
    pairs_->setTheme(t);
    heatmap_->setTheme(t);
    decay_->setTheme(t);
    frequencies_->setTheme(t);
    contributions_->setTheme(t);
    precision_->setTheme(t);
    layers_->setTheme(t);
    positions_->setTheme(t);
    visionDecay_->setTheme(t);
}

void MainWindow::onSceneChanged() {
    const SceneParams& s = scene_.params();
    // Edits closer than a quarter of a second apart are a stream (a drag, an animation).
    if (sharpen_ && lastSceneChange_.isValid() && lastSceneChange_.elapsed() < 250) {
        editsStreaming_ = true;
        sharpen_->start();
    }
    lastSceneChange_.restart();
    if (s.view.theme != themeName_ || s.view.fontScale != fontScale_) {
        themeName_ = s.view.theme;
        fontScale_ = s.view.fontScale;
        setViewsTheme(viewsTheme());
    }
    const bool show[6] = {s.view.showPairs, s.view.showHeatmap, s.view.showDecay, s.view.showFrequencies,
                          s.view.showContributions, s.view.showPrecision};
    QWidget* views[6] = {pairs_, heatmap_, decay_, frequencies_, contributions_, precision_};
    for (int i = 0; i < 6; ++i) {
        views[i]->setVisible(show[i]);
        if (viewActions_[i]) {
            const QSignalBlocker b(viewActions_[i]);
            viewActions_[i]->setChecked(show[i]);
        }
    }
    // The layer overview: the edited configuration's pattern, its shown layer, and the other
    // configuration's layer when it shows the same model (compare mode).
    const int active = scene_.activeConfig();
    const ScoreParams& ap = s.methods[static_cast<std::size_t>(active)].params;
    const bool showLayers = s.view.showLayers && !ap.model.empty();
    layers_->setPicture(layersPictureOf(s, active));
    layers_->setVisible(showLayers);
    if (layersAction_) {
        const QSignalBlocker b(layersAction_);
        layersAction_->setChecked(s.view.showLayers);
    }
    // The positions view: the scene's token layout and its ids, whenever it has one.
    positions_->setParams(s.mrope);
    positions_->setVisible(!s.mrope.tokens.empty());
    visionDecay_->setParams(s.vision, visionPatchOf(s));
    visionDecay_->setVisible(!s.vision.grid.empty());
    positionsRow_->setVisible(!s.mrope.tokens.empty() || !s.vision.grid.empty());
    left_->setVisible(show[0] || show[2]);
    right_->setVisible(show[1] || show[3]);
    grid_->setVisible(show[0] || show[1] || show[2] || show[3]);
    heatmap_->setWindow(heatmapQueryWindow(s), heatmapKeyWindow(s), s.length);
    decay_->setWindow(decayWindow(s), decayRange(s));
    applyLayout();
    updateOutput(false);   // the request below computes what it changed
    scheduler_.request(s);
}

std::vector<QWidget*> MainWindow::views() const {
    return {pairs_, heatmap_, decay_, frequencies_, contributions_, precision_, layers_, positions_, visionDecay_};
}

void MainWindow::showViewFullScreen(QWidget* view) {
    auto* home = qobject_cast<QSplitter*>(view ? view->parentWidget() : nullptr);
    if (fullScreenView_ || !home) return;
    fullScreenHome_ = home;
    fullScreenIndex_ = home->indexOf(view);
    fullScreenSizes_ = home->sizes();
    fullScreenView_ = view;
    auto* w = new QWidget(this, Qt::Window);
    w->setObjectName(QStringLiteral("fullScreenView"));
    w->setWindowTitle(tr("PosLab — %1").arg(view->accessibleName()));
    auto* layout = new QVBoxLayout(w);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view);   // the view itself: live, at the screen's size (the scheduler draws it there)
    view->show();
    auto* esc = new QShortcut(QKeySequence(Qt::Key_Escape), w);
    connect(esc, &QShortcut::activated, this, &MainWindow::leaveViewFullScreen);
    fullScreen_ = w;
    w->setScreen(screen());
    w->showFullScreen();
    setViewsTheme(viewsTheme());
    w->activateWindow();
    view->setFocus();
    updateDisplay();
}

void MainWindow::leaveViewFullScreen() {
    if (!fullScreenView_) return;
    QWidget* view = fullScreenView_;
    QWidget* w = fullScreen_;
    fullScreenView_ = nullptr;
    fullScreen_ = nullptr;
    setViewsTheme(viewsTheme());
    fullScreenHome_->insertWidget(fullScreenIndex_, view);
    fullScreenHome_->setSizes(fullScreenSizes_);
    w->hide();
    w->deleteLater();
    activateWindow();
    view->setFocus();
    onSceneChanged();   // visibility and sizes as the scene says
}

void MainWindow::applyLayout() {
    if (fullScreenView_ || userArranged_ || rows_->width() <= 0 || rows_->height() <= 0) return;
    const Theme t = heatmap_->theme();
    const int gap = static_cast<int>(viewGap(t));
    for (auto* sp : {rows_, grid_, left_, right_, positionsRow_})
        if (sp->handleWidth() != gap) sp->setHandleWidth(gap);
    // The layer overview (a model's layer pattern): a row of its own at the bottom, a third of the
    // height; the engine places the other views above it.
    QRectF area(QPointF(0, 0), QSizeF(rows_->size()));
    double layersH = 0, positionsH = 0;
    if (layers_->isVisibleTo(rows_)) {
        const auto [views, layers] = splitForLayers(area, t);
        area = views;
        layersH = layers.height();
    }
    // The positions view likewise: a row below the others, two fifths of what is left (its strip
    // and the patch grids beside it need more than the overview's third).
    if (positionsRow_->isVisibleTo(rows_)) {
        const double gap = std::round(viewGap(t));
        positionsH = std::round((area.height() - gap) * 0.4);
        area.setHeight(std::max(0.0, area.height() - positionsH - gap));
    }
    PlacementKey key{area.size(), sceneArrangement(scene_.params()), t.name, t.fontPt, t.fontScale};
    if (placementKey_ != key) {
        placement_ = placeViews(area, key.arrangement, t);
        placementKey_ = std::move(key);
    }
    const auto& placed = placement_;
    const auto rectOf = [&](ViewKind v) {
        for (const auto& p : placed)
            if (p.view == v) return p.rect;
        return QRectF();
    };
    const auto len = [](double v) { return static_cast<int>(std::lround(v)); };
    const QRectF pairs = rectOf(ViewKind::Pairs), heat = rectOf(ViewKind::Heatmap), decay = rectOf(ViewKind::Decay),
                 freq = rectOf(ViewKind::Frequencies), contrib = rectOf(ViewKind::Contributions),
                 prec = rectOf(ViewKind::Precision);
    // The columns: each view's share of its column, the columns' widths, the grid's height.
    const QRectF grid = pairs.united(heat).united(decay).united(freq);
    const double leftW = std::max(pairs.width(), decay.width()), rightW = std::max(heat.width(), freq.width());
    // Only what changed (an edit that shows or hides no view changes nothing: no relayout).
    const auto set = [](QSplitter* sp, QList<int> sizes) {
        const QList<int> now = sp->sizes();
        for (qsizetype i = 0; i < sizes.size() && i < now.size(); ++i)
            if (!sp->widget(static_cast<int>(i))->isVisibleTo(sp)) sizes[i] = now[i];
        if (sizes != now) sp->setSizes(sizes);
    };
    set(rows_, {len(grid.height()), len(contrib.height()), len(prec.height()), len(layersH), len(positionsH)});
    set(grid_, {len(leftW), len(rightW)});
    set(left_, {len(pairs.height()), len(decay.height())});
    set(right_, {len(heat.height()), len(freq.height())});
}

void MainWindow::updateOutput(bool recompute) {
    const SceneParams& s = scene_.params();
    const int panels = heatmapPanelCount(s);
    // While edits stream in (a slider drag, an animation) on a high-DPI screen, the views are
    // computed and drawn at logical rather than device resolution: the renderers draw at pixel
    // ratio 1 and each pixel becomes a block of device pixels (as a standard screen shows it),
    // one heatmap cell and one decay sample per logical pixel. About a quarter of the drawing
    // at DPR 2; the full resolution follows 200 ms after the last edit (sharpen_).
    const double dpr = heatmap_->devicePixelRatioF();
    const double resolution = editsStreaming_ && dpr > 1 ? 1.0 : dpr;
    // The workers draw each visible view at its size and theme (the views then only copy pixels).
    RenderSpec r;
    const auto sizeOf = [](const QWidget* v) { return v->isVisibleTo(v->parentWidget()) ? v->size() : QSize(); };
    r.pairs = sizeOf(pairs_);
    r.heatmap = sizeOf(heatmap_);
    r.decay = sizeOf(decay_);
    r.frequencies = sizeOf(frequencies_);
    r.contributions = sizeOf(contributions_);
    r.precision = sizeOf(precision_);
    r.devicePixelRatio = dpr;
    r.logical = resolution < dpr;
    r.theme = heatmap_->theme();
    DisplaySpec d = scheduler_.display();
    d.heatmapCells = heatmap_->cellsFor(panels, s.view.heatmapSquareCells, heatmapHasSinkStrip(s), panels - static_cast<int>(s.methods.size()),
                                        heatmapDifferenceNote(s));
    if (resolution < dpr) d.heatmapCells = std::max(16, static_cast<int>(d.heatmapCells / dpr));
    d.decaySamples = std::clamp(static_cast<int>(decay_->width() * resolution), 64, 2048);
    // At most 128 blocks per axis in the window: each one costs a score in the dtype and one in
    // double (past the work budget, one sampled cell each); 300 would add ~20 ms at N = 8192.
    d.precisionCells = std::min(128, precision_->cellsFor(static_cast<int>(s.methods.size()), s.view.heatmapSquareCells));
    d.autoPairs = automaticPairsFor(QRectF(QPointF(0, 0), QSizeF(pairs_->size())), static_cast<int>(s.methods.size()), r.theme);
    scheduler_.setOutput(r, d, recompute);
}

void MainWindow::showLayer(std::int64_t layer, bool compare) {
    SceneParams s = scene_.committed();   // not an animation's frame
    const int active = scene_.activeConfig();
    MethodConfig& shown = s.methods[static_cast<std::size_t>(active)];
    if (shown.params.model.empty() || layer < 0 || layer >= layerCount(shown.params.model)) return;
    if (!compare) {
        if (shown.params.model.layer == layer) return;
        scene_.editActive(tr("Show layer %1").arg(layer), QString(), [layer](MethodConfig& c) { c.params.applyLayer(layer); });
        return;
    }
    MethodConfig beside = shown;
    beside.params.applyLayer(layer);
    beside.label = tr("%1 layer %2").arg(shown.label.isEmpty() ? QString::fromStdString(shown.params.model.model_type) : shown.label)
                       .arg(layer)
                       .left(kMaxLabelLength);
    if (s.methods.size() == 1) {
        s.methods.push_back(beside);
    } else {
        s.methods[static_cast<std::size_t>(active == 0 ? 1 : 0)] = beside;
    }
    scene_.apply(tr("Compare layer %1").arg(layer), s);
}

bool MainWindow::openSession(const QString& path, QString* error) {
    QString err;
    auto s = loadSession(path, &err);
    if (!s) {
        if (error) *error = err;
        else QMessageBox::warning(this, tr("Open session"), err);
        return false;
    }
    scene_.setParams(*s);
    return true;
}

void MainWindow::restoreLastScene() {
    if (!persist_) return;
    QSettings settings;
    const QByteArray json = settings.value(QStringLiteral("scene/last")).toByteArray();
    if (json.isEmpty()) return;
    QString error;
    if (auto session = sessionFromJson(json, QStringLiteral("settings"), &error)) {
        const auto& scenes = session->scenes;
        const int cur = std::clamp(session->current, 0, static_cast<int>(scenes.size()) - 1);
        if (!scenes.empty()) scene_.setParams(scenes[static_cast<std::size_t>(cur)].scene);
    }
}

void MainWindow::saveSettings() {
    if (!persist_) return;
    saveWindowState();
    QSettings settings;
    settings.setValue(QStringLiteral("scene/last"), sceneToJson(scene_.committed(), true));
}

void MainWindow::saveWindowState() {
    if (!persist_ || !restored_) return;
    if (stateSave_) stateSave_->stop();
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/arranged"), userArranged_);
    settings.setValue(QStringLiteral("window/docksTabbedForRoom"), docksTabbedForRoom_);
    settings.setValue(QStringLiteral("window/viewRows"), rows_->saveState());
    settings.setValue(QStringLiteral("window/grid"), grid_->saveState());
    settings.setValue(QStringLiteral("window/left"), left_->saveState());
    settings.setValue(QStringLiteral("window/right"), right_->saveState());
    settings.sync();   // on disk now: a crash after this keeps it
}

void MainWindow::scheduleWindowStateSave() {
    if (stateSave_ && restored_ && isVisible()) stateSave_->start();
}

void MainWindow::changeEvent(QEvent* e) {
    QMainWindow::changeEvent(e);
    // Maximised, full screen or back: written at once (the geometry of a maximised window is its
    // normal geometry plus the flag, so the next start restores both).
    if (e->type() == QEvent::WindowStateChange && isVisible()) saveWindowState();
}

void MainWindow::moveEvent(QMoveEvent* e) {
    QMainWindow::moveEvent(e);
    scheduleWindowStateSave();
}

void MainWindow::resizeEvent(QResizeEvent* e) {
    QMainWindow::resizeEvent(e);
    scheduleWindowStateSave();
    queueFitDocks();
}

void MainWindow::queueFitDocks() {
    if (fitDocksQueued_) return;   // once the resize has settled (moving a dock resizes again)
    fitDocksQueued_ = true;
    QTimer::singleShot(0, this, [this] {
        fitDocksQueued_ = false;
        fitDocks();
    });
}

void MainWindow::fitDocks() {
    auto* params = findChild<QDockWidget*>(QStringLiteral("parametersDock"));
    auto* teach = findChild<QDockWidget*>(QStringLiteral("teachingDock"));
    auto* deck = findChild<QDockWidget*>(QStringLiteral("deckDock"));
    if (!params || !teach || fullScreenView_) return;
    const Theme t = heatmap_->theme();
    // Two plots side by side: each a heatmap's chrome around at least 160 pixels of cells.
    const PanelChrome c = heatmapChrome(t);
    const int twoViews = static_cast<int>(std::ceil(2 * (c.left + c.right + 160) + viewGap(t)));
    const int need = std::max(twoViews, width() * 45 / 100);
    const int separators = 2 * style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent, nullptr, this) + 4;
    const int paramsW = !params->isHidden() ? std::max(panelWidthNeeded(), 300) : 0;
    if (params->isFloating() || params->isHidden() || dockWidgetArea(params) != Qt::LeftDockWidgetArea) return;
    // The docks beside the views on the right (the teaching dock, the deck when it is open): as wide
    // as they stand there, else as they would (their tabs at the theme's text size).
    const auto tabbedWithParams = [&](QDockWidget* d) { return tabifiedDockWidgets(params).contains(d); };
    const auto sideWidth = [&](QDockWidget* d) {
        const bool beside = !tabbedWithParams(d) && d->isVisible();
        return std::max({d->minimumWidth(), d->minimumSizeHint().width(), 400, beside ? d->width() : d->sizeHint().width()});
    };
    QList<QDockWidget*> right;   // the right-hand docks a person has open, docked
    for (QDockWidget* d : {teach, deck})
        if (d && !d->isFloating() && !d->isHidden() && (tabbedWithParams(d) || dockWidgetArea(d) == Qt::RightDockWidgetArea)) right.append(d);
    if (right.isEmpty()) {
        docksTabbedForRoom_ = false;
        return;
    }
    // The right-hand column is as wide as its widest dock (docks tabbed together share one column).
    int teachW = 0;
    for (QDockWidget* d : right) teachW = std::max(teachW, sideWidth(d));
    int roomBeside = width() - paramsW - teachW - separators;   // for the views, with the right docks beside them
    const bool anyBeside = std::any_of(right.begin(), right.end(), [&](QDockWidget* d) { return !tabbedWithParams(d); });
    // What the views really have, once the docks stand beside them (a panel wider than it says).
    if (anyBeside && isVisible() && centralWidget() && centralWidget()->width() > 0)
        roomBeside = std::min(roomBeside, centralWidget()->width());
    if (anyBeside) {
        if (roomBeside >= need) {
            if (!std::any_of(right.begin(), right.end(), tabbedWithParams)) docksTabbedForRoom_ = false;
            return;
        }
        // No room: the right docks become tabs of the parameters. The tab in front: the parameters,
        // unless a demonstration is on show in the teaching dock or the deck is being edited.
        const auto* tabs = teach->findChild<QTabWidget*>(QStringLiteral("teachingTabs"));
        const auto* demo = tabs ? qobject_cast<const DemoPanel*>(tabs->currentWidget()) : nullptr;
        const bool showingDemo = demo && demo->currentDemo().has_value();
        QDockWidget* front = params;
        if (deck && right.contains(deck) && !tabbedWithParams(deck) && deck->isVisible()) front = deck;   // just opened
        else if (showingDemo) front = teach;
        for (QDockWidget* d : right)
            if (!tabbedWithParams(d)) tabifyDockWidget(params, d);
        front->raise();
        docksTabbedForRoom_ = true;
        tabbedAtWidth_ = width();
        // As wide as the parameters need (up to 40 %), not as the teaching tabs would like.
        resizeDocks({params}, {std::min(std::max(panelWidthNeeded(), 300), std::max(380, width() * 2 / 5))}, Qt::Horizontal);
    } else if (docksTabbedForRoom_ && roomBeside >= need + 40 && width() > tabbedAtWidth_ + 40) {
        // (40: no flicker about the edge; and only once the window is wider than when they were tabbed)
        addDockWidget(Qt::RightDockWidgetArea, teach);
        teach->show();
        if (deck && right.contains(deck)) {
            addDockWidget(Qt::RightDockWidgetArea, deck);
            tabifyDockWidget(teach, deck);
            deck->show();
            deck->raise();
        }
        docksTabbedForRoom_ = false;
    }
}

int MainWindow::panelWidthNeeded() const {
    return panel_->minimumSizeHint().width() + panelScroll_->verticalScrollBar()->sizeHint().width() + 8;
}

void MainWindow::fitPanelWidth() {
    // The dock is as wide as the panel needs at its text size (a projector's larger type too), up
    // to 40 % of the window; past that the panel scrolls rather than being cut.
    panelScroll_->setMinimumWidth(std::min(std::max(panelWidthNeeded(), 300), std::max(380, width() * 2 / 5)));
}

void MainWindow::restoreSettings() {
    QSettings settings;
    // The docks first, while the window is not yet maximised. Qt keeps a dock state restored into a
    // hidden maximised or full-screen window aside and applies it again at the first resize that fits
    // it, over whatever was done to the docks in between: fitDocks() tabifying the teaching dock there
    // left Qt's layout pointing at a tab bar that was gone (the crash at every start, issue #27).
    const QByteArray state = settings.value(QStringLiteral("window/state")).toByteArray();
    if (!state.isEmpty() && !restoreState(state)) {
        qWarning("PosLab: the saved dock layout could not be read; the docks are laid out fresh");
        layDocksFresh();
    }
    settleDocks();
    // Then the geometry, only where it fits the screens present (windowstate.h).
    QList<QRect> available;
    for (const QScreen* s : QGuiApplication::screens()) available.append(s->availableGeometry());
    const QByteArray geometry = settings.value(QStringLiteral("window/geometry")).toByteArray();
    const GeometryPlacement place = placeSavedGeometry(decodeSavedGeometry(geometry), available, frameEstimate(), minimumSizeHint());
    switch (place.kind) {
    case GeometryPlacement::Kind::Restore:
        restoreGeometry(geometry);
        break;
    case GeometryPlacement::Kind::Adjust:
        qWarning("PosLab: the saved window geometry was moved onto the screen: %s", qPrintable(place.why));
        setGeometry(place.normal);
        if (place.fullScreen) setWindowState(Qt::WindowFullScreen);
        else if (place.maximized) setWindowState(Qt::WindowMaximized);
        break;
    case GeometryPlacement::Kind::Drop:
        if (!geometry.isEmpty()) qWarning("PosLab: the saved window geometry was dropped: %s", qPrintable(place.why));
        fitFirstStart();
        break;
    }
    // Splitter sizes the user chose; else the layout engine's (applyLayout).
    userArranged_ = settings.value(QStringLiteral("window/arranged"), false).toBool();
    docksTabbedForRoom_ = settings.value(QStringLiteral("window/docksTabbedForRoom"), false).toBool();
    if (userArranged_) {
        // Each splitter keeps the direction it was built with (a saved state carries one too).
        const auto restore = [&](QSplitter* s, const QString& key) {
            const Qt::Orientation built = s->orientation();
            const bool ok = s->restoreState(settings.value(key).toByteArray()) && s->orientation() == built;
            s->setOrientation(built);
            return ok;
        };
        bool ok = restore(rows_, QStringLiteral("window/viewRows"));
        ok = restore(grid_, QStringLiteral("window/grid")) && ok;
        ok = restore(left_, QStringLiteral("window/left")) && ok;
        ok = restore(right_, QStringLiteral("window/right")) && ok;
        if (!ok) {
            qWarning("PosLab: saved view sizes could not be read; the views are arranged to fit");
            userArranged_ = false;
        }
    }
}

QMargins MainWindow::frameEstimate() const {
    // Before the first show the window manager's frame is unknown: a title bar and thin borders.
    const int title = std::max(24, style()->pixelMetric(QStyle::PM_TitleBarHeight, nullptr, this) + 6);
    return QMargins(4, title, 4, 4);
}

void MainWindow::fitFirstStart() {
    // The preferred size where the screen has room, else as much as it has (a 1280×720 projector).
    const QScreen* screen = QGuiApplication::screenAt(QCursor::pos());
    if (!screen) screen = QGuiApplication::primaryScreen();
    if (!screen) return;
    setGeometry(firstStartGeometry(screen->availableGeometry(), QSize(1500, 950), frameEstimate(), minimumSizeHint()));
}

void MainWindow::showEvent(QShowEvent* e) {
    QMainWindow::showEvent(e);
    if (shownOnce_) return;
    shownOnce_ = true;
    QTimer::singleShot(0, this, &MainWindow::ensureFitsScreen);
}

void MainWindow::ensureFitsScreen() {
    // Whatever was restored (dock sizes, docks stacked in odd places), the window must fit the
    // screen it opened on: docks that make it larger than the screen are laid out fresh (the right
    // ones then become tabs of the parameters), and a window reaching past the screen is moved in.
    const QScreen* s = screen();
    if (!s || isFullScreen()) return;
    const QRect avail = s->availableGeometry();
    QMargins frame(geometry().left() - frameGeometry().left(), geometry().top() - frameGeometry().top(),
                   frameGeometry().right() - geometry().right(), frameGeometry().bottom() - geometry().bottom());
    if (frame.left() < 0 || frame.top() < 0 || frame.right() < 0 || frame.bottom() < 0) frame = frameEstimate();
    const QRect room = avail.marginsRemoved(frame);
    const auto tooBig = [&] { return minimumSizeHint().width() > room.width() || minimumSizeHint().height() > room.height(); };
    if (tooBig()) {
        qWarning("PosLab: the restored docks make the window larger than the %dx%d screen; they are laid out fresh",
                 avail.width(), avail.height());
        layDocksFresh();
        fitDocks();
    }
    if (tooBig() && userArranged_) {   // the views' saved sizes, then: arranged to fit again
        qWarning("PosLab: the saved view sizes make the window larger than the screen; the views are arranged to fit");
        userArranged_ = false;
        applyLayout();
    }
    if (avail.adjusted(-8, -8, 8, 8).contains(frameGeometry())) return;
    if (isMaximized()) showNormal();   // maximised past the screen (no window manager to do it)
    QRect r(geometry().topLeft(), geometry().size().boundedTo(room.size()).expandedTo(minimumSizeHint()));
    r.moveLeft(std::clamp(r.left(), room.left(), std::max(room.left(), room.right() - r.width() + 1)));
    r.moveTop(std::clamp(r.top(), room.top(), std::max(room.top(), room.bottom() - r.height() + 1)));
    setGeometry(r);
}

void MainWindow::layDocksFresh() {
    auto* params = findChild<QDockWidget*>(QStringLiteral("parametersDock"));
    auto* teach = findChild<QDockWidget*>(QStringLiteral("teachingDock"));
    auto* deck = findChild<QDockWidget*>(QStringLiteral("deckDock"));
    if (params) {
        params->setFloating(false);
        addDockWidget(Qt::LeftDockWidgetArea, params);
        params->show();
    }
    if (teach) {
        teach->setFloating(false);
        addDockWidget(Qt::RightDockWidgetArea, teach);
    }
    if (deck && teach) {   // (an open deck stays open)
        const bool open = !deck->isHidden();
        deck->setFloating(false);
        addDockWidget(Qt::RightDockWidgetArea, deck);
        tabifyDockWidget(teach, deck);
        deck->setVisible(open);
        (open ? deck : teach)->raise();
    }
    // Toolbars back in the top row (a toolbar restored at the side makes the window taller).
    for (QToolBar* tb : findChildren<QToolBar*>()) {
        if (tb->parentWidget() != this) continue;
        addToolBar(Qt::TopToolBarArea, tb);
        tb->show();
    }
    docksTabbedForRoom_ = false;
}

void MainWindow::settleDocks() {
    // A floating dock that is not on any screen comes back into the window; the parameters are
    // never lost (they cannot be closed, so a hidden parameters dock is shown again).
    for (QDockWidget* d : findChildren<QDockWidget*>()) {
        if (!d->isFloating()) continue;
        const QRect g = d->geometry();
        bool onScreen = false;
        for (const QScreen* s : QGuiApplication::screens())
            if (s->availableGeometry().intersected(g).width() >= 48 && s->availableGeometry().intersected(g).height() >= 32) onScreen = true;
        if (!onScreen || g.width() < 48 || g.height() < 32) {
            qWarning("PosLab: the %s dock was off every screen; it is docked again", qPrintable(d->windowTitle()));
            d->setFloating(false);
        }
    }
    if (auto* params = findChild<QDockWidget*>(QStringLiteral("parametersDock")); params && params->isHidden()) params->show();
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    if (watched == rows_ && event->type() == QEvent::Resize) {   // (the filter watches the whole application)
        applyLayout();
        return false;
    }
    if (fullScreen_ && watched == fullScreen_ && event->type() == QEvent::Close) {   // closed by the window manager
        QTimer::singleShot(0, this, &MainWindow::leaveViewFullScreen);
        return false;
    }
    // A right click without a drag on a view opens its context menu.
    if ((event->type() == QEvent::MouseButtonPress || event->type() == QEvent::MouseButtonRelease) && watched->isWidgetType()) {
        const auto* me = static_cast<QMouseEvent*>(event);
        QWidget* view = nullptr;
        for (auto* w = static_cast<QWidget*>(watched); w && !view; w = w->parentWidget())
            for (QWidget* v : views())
                if (w == v) view = v;
        if (view && me->button() == Qt::RightButton) {
            const QPoint at = me->globalPosition().toPoint();
            if (event->type() == QEvent::MouseButtonPress) {
                rightPress_ = at;
            } else if ((at - rightPress_).manhattanLength() <= 4) {
                rightPress_ = QPoint(-1, -1);
                auto* menu = new QMenu(view);
                menu->setObjectName(QStringLiteral("viewContextMenu"));
                menu->setAttribute(Qt::WA_DeleteOnClose);
                menu->addActions(view->actions());
                menu->popup(at);
            }
        }
    }
    if (event->type() != QEvent::ShortcutOverride || !watched->isWidgetType()) return QMainWindow::eventFilter(watched, event);
    // A text field accepts the override for its own undo/redo keys; left unaccepted, the keys
    // reach the Edit menu's actions. Only in this window (its docks included), not in dialogs.
    const auto* key = static_cast<QKeyEvent*>(event);
    const QKeySequence pressed(key->keyCombination());
    if (!undo_->shortcuts().contains(pressed) && !redo_->shortcuts().contains(pressed)) return false;
    for (auto* w = static_cast<QWidget*>(watched); w; w = w->parentWidget()) {
        if (w == this) {
            event->ignore();
            return true;
        }
        if (qobject_cast<QDialog*>(w)) break;
    }
    return false;
}

void MainWindow::closeEvent(QCloseEvent* e) {
    saveSettings();
    QMainWindow::closeEvent(e);
}

bool MainWindow::openModelConfig(const QString& path, QString* error) {
    const QString name = QFileInfo(path).fileName();
    const ModelConfigResult r = readModelConfigFile(path);
    if (!r.config) {
        const QString message = name + QStringLiteral(": ") + r.error;
        if (error) *error = message;
        else QMessageBox::warning(this, tr("Open model configuration"), message);
        return false;
    }
    panel_->applyModelConfig(*r.config, name);
    return true;
}

bool MainWindow::openQueriesAndKeys(const QString& qPath, const QString& kPath, QString* error) {
    const QkLoad r = loadQk(qPath, kPath.isEmpty() ? qPath : kPath, 0, !kPath.isEmpty());
    if (!r.content) {
        if (error) *error = r.error;
        else QMessageBox::warning(this, tr("Open queries and keys"), r.error);
        return false;
    }
    auto state = std::make_shared<QkState>();
    state->qFile = qPath;
    state->kFile = kPath;
    state->content = r.content;
    const auto rows = r.content;
    scene_.edit(tr("Open queries and keys %1").arg(QString::fromStdString(rows->name())), QString(), [&](SceneParams& p) {
        p.qFile = qPath;
        p.kFile = kPath;
        p.head = 0;
        p.qk = state;
        for (auto& c : p.methods) c.params.dim = rows->dim();
        p.length = std::min<std::int64_t>(rows->length(), kMaxLength);
    });
    scene_.finishMerge();
    return true;
}

namespace {
// The local file of a drop that PosLab opens (.json, .gguf, .npz, .safetensors), or empty.
QString droppedFile(const QMimeData* m) {
    if (!m || !m->hasUrls() || m->urls().size() != 1) return {};
    const QString path = m->urls().front().toLocalFile();
    const QString suffix = QFileInfo(path).suffix().toLower();
    for (const char* s : {"json", "gguf", "npz", "safetensors"})
        if (suffix == QLatin1String(s)) return path;
    return {};
}
}  // namespace

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (!droppedFile(e->mimeData()).isEmpty()) e->acceptProposedAction();
    else QMainWindow::dragEnterEvent(e);
}

void MainWindow::dropEvent(QDropEvent* e) {
    const QString path = droppedFile(e->mimeData());
    if (path.isEmpty()) return QMainWindow::dropEvent(e);
    e->acceptProposedAction();
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("npz") || suffix == QLatin1String("safetensors")) openQueriesAndKeys(path);
    else openModelConfig(path);
}

}  // namespace poslab::ui
