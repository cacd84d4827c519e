#pragma once
// The main window: the parameter panel in a dock on the left, the views in splitters
// (pair vectors | heatmap over decay | frequencies, the contributions view in a row below), sized
// by the layout engine as figures are (until the user drags one), menus File, Edit (undo/redo), View,
// Presets, Help. It only wires things together: panel → Scene → Scheduler → views.
// Window geometry, dock/splitter state and the last scene persist in QSettings. The window's
// state (geometry, maximised, docks, splitters) is written when it changes (a maximise at once, a
// move or resize a moment after it ends), not only on quit, so that a crash does not lose it.
#include "ui/model/scene.h"
#include "ui/render/layout.h"
#include "ui/views/scheduler.h"

#include <QElapsedTimer>
#include <QMainWindow>

#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QScrollArea;
class QSplitter;
class QTimer;
class QAction;
QT_END_NAMESPACE

namespace poslab::ui {

class ParameterPanel;
class PairsView;
class HeatmapView;
class DecayView;
class FrequencyView;
class ContributionsView;
class PrecisionView;
class LayersView;
class PositionsView;
class VisionDecayView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // persist = false: neither read nor write QSettings (tests, benchmarks).
    explicit MainWindow(bool persist = true, QWidget* parent = nullptr);
    ~MainWindow() override;

    Scene* scene() { return &scene_; }
    Scheduler* scheduler() { return &scheduler_; }
    ParameterPanel* panel() { return panel_; }
    PairsView* pairsView() { return pairs_; }
    HeatmapView* heatmapView() { return heatmap_; }
    DecayView* decayView() { return decay_; }
    FrequencyView* frequencyView() { return frequencies_; }
    ContributionsView* contributionsView() { return contributions_; }
    PrecisionView* precisionView() { return precision_; }
    LayersView* layersView() { return layers_; }
    PositionsView* positionsView() { return positions_; }
    VisionDecayView* visionDecayView() { return visionDecay_; }

    // The layer overview's click: shows `layer` of the edited configuration's model in every view
    // (compare = false), or puts it beside the shown one as the other configuration (compare =
    // true: a copy of the edited configuration showing `layer`, added if there is only one).
    // One undo step either way.
    void showLayer(std::int64_t layer, bool compare);

    // Opens a session file (its current scene); false with a message box on failure.
    bool openSession(const QString& path, QString* error = nullptr);

    // Opens a model configuration (config.json or GGUF) into the edited configuration, one undo
    // step; false with a message box (unless `error` is given) naming the file and the key.
    bool openModelConfig(const QString& path, QString* error = nullptr);

    // Opens real queries and keys (File → Open queries and keys…): qPath's tensor q and kPath's
    // tensor k (kPath empty: both from qPath, a .npz or .safetensors). One undo step sets the
    // scene's files, head 0, every configuration's dimension to the files' d and N to their N (at
    // most kMaxLength); false with a message box (unless `error` is given) naming the file.
    bool openQueriesAndKeys(const QString& qPath, const QString& kPath = {}, QString* error = nullptr);

    // Restores the last scene from QSettings (if any and persist).
    void restoreLastScene();

    // "Show this view full screen" (each view's context menu — a right click without a drag —
    // and F11 on the focused view): the view alone in a full-screen window, drawn by the same
    // renderers and layout engine at the screen's size and still live; Esc or F11 puts it back
    // where it was. One view at a time.
    void showViewFullScreen(QWidget* view);
    void leaveViewFullScreen();
    QWidget* fullScreenWindow() const { return fullScreen_; }
    // The views that can be shown full screen (each carries the action "viewFullScreen").
    std::vector<QWidget*> views() const;

protected:
    void closeEvent(QCloseEvent* e) override;
    void changeEvent(QEvent* e) override;
    void moveEvent(QMoveEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void showEvent(QShowEvent* e) override;
    // A dropped config.json / .gguf opens as a model configuration; a .npz / .safetensors as
    // queries and keys.
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;
    // Undo and redo belong to the scene from anywhere in the window: a text field or spin box
    // with focus does not take their keys for its own text.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // The views' theme: the scene's, or with a view shown full screen its text scaled with the
    // screen (legibleFontScale); and handing one to every view.
    Theme viewsTheme() const;
    void setViewsTheme(const Theme& theme);
    void buildMenus();
    void onSceneChanged();
    void updateDisplay() { updateOutput(true); }
    // The views' pictures (sizes, device pixel ratio, theme) and display resolution for the
    // scheduler; `recompute`: recompute the last scene for what changed (false: a request follows).
    void updateOutput(bool recompute);
    // The splitters' sizes as the layout engine places the visible views (ui/render/layout.h:
    // the same placement as `figure all` and every export), unless the user dragged a splitter.
    void applyLayout();
    // The views keep at least 45 % of the window's width (and room for two plots side by side): where
    // the parameters and the teaching dock beside each other would leave them less (a 1280-pixel
    // projector, text ×1.5), the teaching dock becomes a tab of the parameters' dock; it goes back
    // to the right once there is room again, unless the user has moved it meanwhile.
    void fitDocks();
    void queueFitDocks();   // fitDocks() once the current resize or dock change has settled
    // The parameter panel's width at its text size (its minimum size hint and a scroll bar).
    int panelWidthNeeded() const;
    void fitPanelWidth();
    void saveSettings();
    // The window's part of the settings (geometry, maximised, docks, splitters), flushed to disk.
    void saveWindowState();
    // saveWindowState() once the window has not moved or resized for a moment.
    void scheduleWindowStateSave();
    void restoreSettings();
    QMargins frameEstimate() const;   // the window manager's frame before it is known
    void fitFirstStart();             // the window on a first start: within the screen it opens on
    void layDocksFresh();             // the docks where a first start puts them
    void ensureFitsScreen();          // after the first show: the window within its screen, whatever was restored
    void settleDocks();               // a restored floating dock off every screen comes back in

    bool persist_;
    QWidget* fullScreen_ = nullptr;       // the full-screen window holding fullScreenView_
    QWidget* fullScreenView_ = nullptr;
    QSplitter* fullScreenHome_ = nullptr; // where the view goes back: splitter, index, sizes
    int fullScreenIndex_ = 0;
    QList<int> fullScreenSizes_;
    QPoint rightPress_{-1, -1};          // a right press on a view (global), for its context menu
    QTimer* stateSave_ = nullptr;
    bool restored_ = false;   // the saved state was read: from now on changes are written
    Scene scene_;
    Scheduler scheduler_;
    ParameterPanel* panel_ = nullptr;
    QScrollArea* panelScroll_ = nullptr;
    PairsView* pairs_ = nullptr;
    HeatmapView* heatmap_ = nullptr;
    DecayView* decay_ = nullptr;
    FrequencyView* frequencies_ = nullptr;
    ContributionsView* contributions_ = nullptr;
    PrecisionView* precision_ = nullptr;
    LayersView* layers_ = nullptr;
    PositionsView* positions_ = nullptr;
    VisionDecayView* visionDecay_ = nullptr;
    QSplitter* positionsRow_ = nullptr;   // the positions view beside the vision decay
    QAction* layersAction_ = nullptr;
    QSplitter* rows_ = nullptr;
    QSplitter* grid_ = nullptr;    // the explorer views' columns (left_, right_)
    QSplitter* left_ = nullptr;    // pairs over decay
    QSplitter* right_ = nullptr;   // heatmap over frequencies
    bool docksTabbedForRoom_ = false;   // fitDocks() made the teaching dock a tab of the parameters'
    bool fitDocksQueued_ = false;
    bool shownOnce_ = false;
    int tabbedAtWidth_ = 0;   // the window's width when fitDocks() last tabbed the right docks
    QElapsedTimer lastSceneChange_;
    // Scene edits < 250 ms apart (a drag, an animation): on a high-DPI screen the views are
    // computed and drawn at logical rather than device resolution (updateOutput).
    bool editsStreaming_ = false;
    QTimer* sharpen_ = nullptr;     // 200 ms after the last streamed edit: full resolution again
    bool userArranged_ = false;   // a splitter was dragged: its sizes stay (View → Arrange views to fit resets)
    // The layout engine's last answer and what it depends on (applyLayout runs on every edit; the
    // engine measures the pair dials, so it is asked again only when one of these changes).
    struct PlacementKey {
        QSizeF area;
        ViewArrangement arrangement;
        QString theme;
        double fontPt = 0, fontScale = 0;
        bool operator==(const PlacementKey&) const = default;
    };
    std::optional<PlacementKey> placementKey_;
    std::vector<ViewPlacement> placement_;
    QAction* viewActions_[6] = {};
    QAction* undo_ = nullptr;
    QAction* redo_ = nullptr;
    QString themeName_;
    double fontScale_ = 0;
};

}  // namespace poslab::ui
