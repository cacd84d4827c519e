#pragma once
// The view widgets: thin wrappers that hold the latest result value, draw it with its renderer
// (the same function export uses) and show a tooltip with the exact value under the mouse.
// When the result carries a Picture that fits the view's size and theme (the scheduler's workers
// drew it with the same renderer), the view copies its pixels instead of drawing again.
// Each records the generation it last painted (for tests and the live-update benchmark).
#include "ui/render/theme.h"
#include "ui/results.h"

#include <QChartView>
#include <QWidget>

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
    bool fromPicture_ = false;
    QString themeKey_;   // themeKey(theme_), what a picture must have been drawn in
};

class PairsView : public ViewBase {
    Q_OBJECT
public:
    using ViewBase::ViewBase;
    void setResult(const PairsResult& r) {
        result_ = r;
        setGeneration(r.generation);
    }
    const PairsResult& result() const { return result_; }
    QString toolTipAt(const QPoint& pos) const override;

protected:
    void draw(QPainter& painter, const QRectF& rect) const override;
    const Picture& picture() const override { return result_.picture; }

private:
    PairsResult result_;
};

class HeatmapView : public ViewBase {
    Q_OBJECT
public:
    using ViewBase::ViewBase;
    void setResult(const HeatmapResult& r) {
        result_ = r;
        setGeneration(r.generation);
    }
    const HeatmapResult& result() const { return result_; }
    QString toolTipAt(const QPoint& pos) const override;
    // Cells per axis for `panels` panels at the current size (device pixels).
    int cellsFor(int panels) const;

protected:
    void draw(QPainter& painter, const QRectF& rect) const override;
    const Picture& picture() const override { return result_.picture; }

private:
    HeatmapResult result_;
};

class FrequencyView : public ViewBase {
    Q_OBJECT
public:
    using ViewBase::ViewBase;
    void setResult(const FrequencyResult& r) {
        result_ = r;
        setGeneration(r.generation);
    }
    const FrequencyResult& result() const { return result_; }
    QString toolTipAt(const QPoint& pos) const override;

protected:
    void draw(QPainter& painter, const QRectF& rect) const override;
    const Picture& picture() const override { return result_.picture; }

private:
    FrequencyResult result_;
};

// RoPE's per-pair contributions (ui/render/contributionsrenderer.h).
class ContributionsView : public ViewBase {
    Q_OBJECT
public:
    using ViewBase::ViewBase;
    void setResult(const ContributionsResult& r) {
        result_ = r;
        setGeneration(r.generation);
    }
    const ContributionsResult& result() const { return result_; }
    QString toolTipAt(const QPoint&) const override { return {}; }

protected:
    void draw(QPainter& painter, const QRectF& rect) const override;
    const Picture& picture() const override { return result_.picture; }

private:
    ContributionsResult result_;
};

// RoPE in the scene's dtype against exact double (ui/render/precisionrenderer.h).
class PrecisionView : public ViewBase {
    Q_OBJECT
public:
    using ViewBase::ViewBase;
    void setResult(const PrecisionResult& r) {
        result_ = r;
        setGeneration(r.generation);
    }
    const PrecisionResult& result() const { return result_; }
    QString toolTipAt(const QPoint&) const override { return {}; }

protected:
    void draw(QPainter& painter, const QRectF& rect) const override;
    const Picture& picture() const override { return result_.picture; }

private:
    PrecisionResult result_;
};

// The decay view is a QChartView (Qt Charts); the chart is configured by the renderer's
// configureDecayChart(), exactly as renderDecay() does for export.
class DecayView : public QChartView {
    Q_OBJECT
public:
    explicit DecayView(QWidget* parent = nullptr);
    void setTheme(const Theme& theme);
    void setResult(const DecayResult& r);
    const DecayResult& result() const { return result_; }
    std::uint64_t paintedGeneration() const { return painted_; }
    std::uint64_t resultGeneration() const { return result_.generation; }
    QString toolTipAt(const QPoint& pos) const;
    QSize minimumSizeHint() const override { return {240, 200}; }

Q_SIGNALS:
    void painted(std::uint64_t generation);
    void resized();

protected:
    void paintEvent(QPaintEvent* e) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    Theme theme_;
    DecayResult result_;
    std::uint64_t painted_ = 0;
};

}  // namespace poslab::ui
