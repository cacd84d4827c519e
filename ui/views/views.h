#pragma once
// The view widgets: thin wrappers that hold the latest result value, draw it with its renderer
// (the same function export uses) and show a tooltip with the exact value under the mouse.
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

Q_SIGNALS:
    void painted(std::uint64_t generation);

protected:
    virtual void draw(QPainter& painter, const QRectF& rect) const = 0;
    void paintEvent(QPaintEvent*) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void setGeneration(std::uint64_t g) {
        generation_ = g;
        update();
    }
    Theme theme_;

private:
    std::uint64_t generation_ = 0, painted_ = 0;
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

Q_SIGNALS:
    void resized();

protected:
    void draw(QPainter& painter, const QRectF& rect) const override;
    void resizeEvent(QResizeEvent* e) override;

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

private:
    FrequencyResult result_;
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
