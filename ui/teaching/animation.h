#pragma once
// Animation: play the position forward so the rotations sweep. A timer moves the scene's
// position of interest (the pair-vector arrow) from `from` to `to` at a chosen speed, shown as
// the Scene's preview (scene.h): nothing goes on the undo stack, and when the animation stops
// (toggled off, at the end of the sweep, or for an export) the scene shows its own positions
// again. Edits while it plays apply to the scene itself. The same sweep exports as an animated GIF
// (gifwriter.h) or as a numbered PNG sequence, each frame drawn by the window's renderers
// (export.h paintViews) at the chosen size.
#include "ui/model/sceneparams.h"

#include <QImage>
#include <QObject>
#include <QSize>
#include <QTimer>
#include <QWidget>

#include <optional>

QT_BEGIN_NAMESPACE
class QSpinBox;
class QDoubleSpinBox;
class QComboBox;
class QPushButton;
class QLabel;
QT_END_NAMESPACE

namespace poslab::ui {

class Scene;

struct AnimationSpec {
    std::int64_t from = 0;               // first position (clamped to [0, N))
    std::int64_t to = 63;                // last position (clamped to [0, N)), may be < from (backwards)
    std::int64_t step = 1;               // >= 1
    double positionsPerSecond = 8;       // 0.25 .. 480
    std::optional<ViewKind> view = ViewKind::Pairs;   // nullopt = the scene's visible views
    QSize frameSize{720, 720};           // export frames, 64 .. 4096 per side
    QString theme;                       // export theme; empty = the scene's

    std::optional<QString> problem() const;              // first invalid field, or nullopt
    std::vector<std::int64_t> positions(std::int64_t length) const;  // the frames' positions
    int delayCentiseconds() const;       // GIF frame delay, >= 2
    static constexpr int kMaxFrames = 2000;
};

// The scene of one frame: the scene with its positions of interest = {position}.
SceneParams animationFrameScene(const SceneParams& scene, std::int64_t position);
QImage renderAnimationFrame(const SceneParams& scene, const AnimationSpec& spec, std::int64_t position);

// Whole sweep to files (atomic for the GIF). `written` receives the PNG file names.
bool exportAnimationGif(const QString& path, const SceneParams& scene, const AnimationSpec& spec, QString* error);
bool exportAnimationPngs(const QString& directory, const QString& baseName, const SceneParams& scene,
                         const AnimationSpec& spec, QStringList* written, QString* error);

class Animator : public QObject {
    Q_OBJECT
public:
    explicit Animator(Scene* scene, QObject* parent = nullptr);
    void setSpec(const AnimationSpec& spec);
    const AnimationSpec& spec() const { return spec_; }
    bool playing() const { return timer_.isActive(); }
    std::int64_t position() const { return position_; }
    int intervalMs() const { return timer_.interval(); }

public Q_SLOTS:
    void play();              // from the sweep's first position
    void stop();              // back to the scene as it was set up
    void toggle();
    void advance();           // one tick while playing: the next position; after the last, stop()

Q_SIGNALS:
    void positionChanged(std::int64_t position);
    void playingChanged(bool playing);

private:
    void showPosition();
    Scene* scene_;
    AnimationSpec spec_;
    QTimer timer_;
    std::int64_t position_ = 0;
    int perTick_ = 1;
};

class AnimationPanel : public QWidget {
    Q_OBJECT
public:
    AnimationPanel(Scene* scene, Animator* animator, QWidget* parent = nullptr);
    AnimationSpec spec() const;
    // Sets the controls (and so the animator's spec); positions are limited to the scene's.
    void setSpec(const AnimationSpec& spec);
    QPushButton* playButton() const { return play_; }

    // Export the sweep of the scene as it is set up (a playing animation stops first).
    bool exportGifTo(const QString& path, QString* error);
    bool exportPngsTo(const QString& directory, QStringList* written, QString* error);

public Q_SLOTS:
    void exportGif();
    void exportPngs();

private:
    void pushSpec();
    Scene* scene_;
    Animator* animator_;
    QSpinBox* from_ = nullptr;
    QSpinBox* to_ = nullptr;
    QSpinBox* step_ = nullptr;
    QDoubleSpinBox* speed_ = nullptr;
    QComboBox* view_ = nullptr;
    QSpinBox* width_ = nullptr;
    QSpinBox* height_ = nullptr;
    QPushButton* play_ = nullptr;
    QLabel* status_ = nullptr;
};

}  // namespace poslab::ui
