#pragma once
// The main window: the parameter panel in a dock on the left, the views in splitters
// (pair vectors | heatmap over decay | frequencies, the contributions view in a row below), sized
// by the layout engine as figures are (until the user drags one), menus File, Edit (undo/redo), View,
// Presets, Help. It only wires things together: panel → Scene → Scheduler → views.
// Window geometry, dock/splitter state and the last scene persist in QSettings.
#include "ui/model/scene.h"
#include "ui/views/scheduler.h"

#include <QMainWindow>

QT_BEGIN_NAMESPACE
class QSplitter;
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

protected:
    void closeEvent(QCloseEvent* e) override;
    // A dropped config.json / .gguf opens as a model configuration; a .npz / .safetensors as
    // queries and keys.
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;
    // Undo and redo belong to the scene from anywhere in the window: a text field or spin box
    // with focus does not take their keys for its own text.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildMenus();
    void onSceneChanged();
    void updateDisplay();
    // The splitters' sizes as the layout engine places the visible views (ui/render/layout.h:
    // the same placement as `figure all` and every export), unless the user dragged a splitter.
    void applyLayout();
    void saveSettings();
    void restoreSettings();

    bool persist_;
    Scene scene_;
    Scheduler scheduler_;
    ParameterPanel* panel_ = nullptr;
    PairsView* pairs_ = nullptr;
    HeatmapView* heatmap_ = nullptr;
    DecayView* decay_ = nullptr;
    FrequencyView* frequencies_ = nullptr;
    ContributionsView* contributions_ = nullptr;
    PrecisionView* precision_ = nullptr;
    LayersView* layers_ = nullptr;
    QAction* layersAction_ = nullptr;
    QSplitter* rows_ = nullptr;
    QSplitter* top_ = nullptr;
    QSplitter* bottom_ = nullptr;
    bool userArranged_ = false;   // a splitter was dragged: its sizes stay (View → Arrange views to fit resets)
    QAction* viewActions_[6] = {};
    QAction* undo_ = nullptr;
    QAction* redo_ = nullptr;
    QString themeName_;
    double fontScale_ = 0;
};

}  // namespace poslab::ui
