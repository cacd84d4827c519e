#pragma once
// The view widgets: thin wrappers that hold the latest result value, draw it with its renderer
// (the same function export uses) and show a tooltip with the exact value under the mouse.
// When the result carries a Picture that fits the view's size and theme (the scheduler's workers
// drew it with the same renderer), the view copies its pixels instead of drawing again.
// Each records the generation it last painted (for tests and the live-update benchmark).
#include "ui/render/decayrenderer.h"
#include "ui/render/theme.h"
#include "ui/model/results.h"
#include "ui/model/sceneparams.h"

#include <QPixmap>
#include <QPointer>
#include <QWidget>

#include <optional>

QT_BEGIN_NAMESPACE
class QRubberBand;
QT_END_NAMESPACE

namespace poslab::ui {

class ViewBase : public QWidget {
    Q_OBJECT
public:
    explicit ViewBase(QWidget* parent = nullptr);
    void setTheme(const Theme& theme);
    const Theme& theme() const { return theme_; }
    std::uint64_t paintedGeneration() const { return painted_; }
    std::uint64_t resultGeneration() const { return generation_; }
    // The tooltip text at a widget position ("" = none).
    virtual QString toolTipAt(const QPoint& pos) const = 0;
    QSize minimumSizeHint() const override { return {240, 200}; }
    // Whether the last paint copied the worker's picture (false: drawn here).
    bool paintedFromPicture() const { return fromPicture_; }
    // The pixel ratio the renderer drew what the last paint showed at: the view's own, or 1 for
    // a picture drawn at logical resolution while edits stream (Picture::resolution).
    double paintedResolution() const { return resolution_; }
    // Whether the last paint enlarged a logical picture itself, straight into the window's
    // backing store (copyEnlarged, ui/render/enlarge.h), rather than by QPainter's scaled copy.
    bool paintedByEnlarging() const { return enlarged_; }

Q_SIGNALS:
    void painted(std::uint64_t generation);
    void resized();

protected:
    virtual void draw(QPainter& painter, const QRectF& rect) const = 0;
    virtual const Picture& picture() const = 0;
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent* e) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void setGeneration(std::uint64_t g) {
        generation_ = g;
        update();
    }
    Theme theme_;

private:
    std::uint64_t generation_ = 0, painted_ = 0;
    bool fromPicture_ = false, enlarged_ = false;
    double resolution_ = 1.0;
    QString themeKey_;   // themeKey(theme_), what a picture must have been drawn in
};

// A view of one kind of result R (a value with `generation` and `picture`): it holds the
// scheduler's result, shared (never copied: a heatmap's values are megabytes), and shows its
// picture. (A template cannot be a Q_OBJECT: it declares no signals or slots.)
template <class R>
class ResultView : public ViewBase {
public:
    using ViewBase::ViewBase;
    void setResult(Shared<R> r) {
        if (!r) return;
        result_ = std::move(r);
        setGeneration(result_->generation);
    }
    const R& result() const { return *result_; }

protected:
    const Picture& picture() const override { return result_->picture; }
    Shared<R> result_ = std::make_shared<const R>();
};

class PairsView : public ResultView<PairsResult> {
    Q_OBJECT
public:
    using ResultView::ResultView;
    QString toolTipAt(const QPoint& pos) const override;

protected:
    void draw(QPainter& painter, const QRectF& rect) const override;
};

// How a zoom gesture reaches the scene: each gesture is one undo step; the events of one gesture
// (a drag, a run of wheel notches, a pinch) merge into it.
enum class ZoomGesture { None, Wheel, Pinch, Pan, Rubber, Reset, Keys };

// The heatmap zooms and pans (zoom.h): wheel and pinch about the mouse, drag to pan, Shift+drag
// or right-drag for a rectangle, double-click or Home to show everything, + and − to zoom about
// the centre. It asks for a new window with windowRequested(); the window it shows comes back
// with setWindow() (the scene's), which may run ahead of the result drawn.
class HeatmapView : public ResultView<HeatmapResult> {
    Q_OBJECT
public:
    explicit HeatmapView(QWidget* parent = nullptr);
    QString toolTipAt(const QPoint& pos) const override;
    // Cells per axis for `panels` panels at the current size (device pixels); `square`: the
    // scene's view.heatmapSquareCells.
    // `sinkStrip`: room for the sink-mass strip beside the cells (heatmapHasSinkStrip).
    int cellsFor(int panels, bool square = false, bool sinkStrip = false, int differences = 0, const QString& note = {}) const;
    // The scene's window and sequence length N (the whole range is [0, N)).
    void setWindow(const ViewWindow& queries, const ViewWindow& keys, std::int64_t length);
    ViewWindow queryWindow() const { return queries_; }
    ViewWindow keyWindow() const { return keys_; }

Q_SIGNALS:
    // A zoom or pan asks for this window; `newStep`: it starts a new undo step (the first event
    // of a gesture), else it continues the last one.
    void windowRequested(const poslab::ui::ViewWindow& queries, const poslab::ui::ViewWindow& keys, bool newStep);

protected:
    void draw(QPainter& painter, const QRectF& rect) const override;
    bool event(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    // One panel as drawn: its image and the blocks of its columns and rows (empty: none drawn).
    struct PanelAxes {
        QRectF image;
        std::vector<PositionRange> keys, queries;
    };
    // The panel under `p` (or the first panel), and a point in positions, key across and query
    // down, as the cells are drawn (heatmapPositionAtCell) when the drawn blocks span `window`
    // (the scene's, which may run ahead of the picture), else linearly over `window`.
    PanelAxes axesAt(const QPointF& p) const;
    static double keyAt(const PanelAxes& a, const ViewWindow& window, double x);
    static double queryAt(const PanelAxes& a, const ViewWindow& window, double y);
    void zoomAbout(const QPointF& p, double factor, ZoomGesture g);
    void request(const ViewWindow& q, const ViewWindow& k, ZoomGesture g);

    ViewWindow queries_{0, 1}, keys_{0, 1};
    std::int64_t length_ = 1;
    ZoomGesture last_ = ZoomGesture::None;   // the gesture the last request belonged to
    enum class Drag { None, Pan, Rubber } drag_ = Drag::None;
    QPointF pressAt_;
    PanelAxes pressAxes_;
    ViewWindow pressQueries_, pressKeys_;
    QPointer<QRubberBand> band_;
};

class FrequencyView : public ResultView<FrequencyResult> {
    Q_OBJECT
public:
    using ResultView::ResultView;
    QString toolTipAt(const QPoint& pos) const override;

protected:
    void draw(QPainter& painter, const QRectF& rect) const override;
};

// RoPE's per-pair contributions (ui/render/contributionsrenderer.h).
class ContributionsView : public ResultView<ContributionsResult> {
    Q_OBJECT
public:
    using ResultView::ResultView;
    QString toolTipAt(const QPoint&) const override { return {}; }

protected:
    void draw(QPainter& painter, const QRectF& rect) const override;
};

// RoPE in the scene's dtype against exact double (ui/render/precisionrenderer.h).
class PrecisionView : public ResultView<PrecisionResult> {
    Q_OBJECT
public:
    using ResultView::ResultView;
    QString toolTipAt(const QPoint& pos) const override;
    // Blocks per axis for the score error heatmap at the view's size (DisplaySpec::precisionCells).
    int cellsFor(int configs, bool square = false) const;

protected:
    void draw(QPainter& painter, const QRectF& rect) const override;
};

// The decay view: the chart drawn by the decay renderer (on a worker, like every other view;
// here when the picture does not fit), zoomed and panned over the distances like the heatmap
// (wheel, pinch, drag, Shift+drag or right-drag for a range, double-click or Home); the value
// axis follows the data. The mouse maps through the chart's layout (decayPlot()).
class DecayView : public ResultView<DecayResult> {
    Q_OBJECT
public:
    explicit DecayView(QWidget* parent = nullptr);
    // The scene's window of distances and the whole range (decayRange()).
    void setWindow(const ViewWindow& distances, const ViewWindow& whole);
    ViewWindow distanceWindow() const { return window_; }
    // The chart as laid out at the view's size and theme (computed when first asked for).
    const DecayPlot& chart() const;
    const DecayLegend& legend() const { return chart().legend; }
    QString toolTipAt(const QPoint& pos) const override;

Q_SIGNALS:
    // As HeatmapView::windowRequested, for the distances.
    void windowRequested(const poslab::ui::ViewWindow& distances, bool newStep);

protected:
    void draw(QPainter& painter, const QRectF& rect) const override;
    bool event(QEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    // The distance at widget x (fractional; on a log axis through the axis), or NaN outside the plot.
    double distanceAt(double x, bool clampToPlot = false) const;
    void zoomAbout(double x, double factor, ZoomGesture g);
    void request(const ViewWindow& w, ZoomGesture g);

    // chart() for the result, size and theme it was laid out for.
    mutable std::optional<DecayPlot> chart_;
    mutable Shared<DecayResult> chartOf_;   // (held: a freed result's address could come back)
    mutable QSize chartSize_;
    mutable QString chartTheme_;
    ViewWindow window_{0, 257}, whole_{0, 257};
    ZoomGesture last_ = ZoomGesture::None;
    enum class Drag { None, Pan, Rubber } drag_ = Drag::None;
    QPointF pressAt_;
    ViewWindow pressWindow_;
    QPointer<QRubberBand> band_;
};

}  // namespace poslab::ui
