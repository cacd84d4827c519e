#include "ui/views/views.h"

#include "ui/render/decayrenderer.h"
#include "ui/render/contributionsrenderer.h"
#include "ui/render/precisionrenderer.h"
#include "ui/render/frequencyrenderer.h"
#include "ui/render/heatmaprenderer.h"
#include "ui/render/pairsrenderer.h"

#include <QChart>
#include <QCoreApplication>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace poslab::ui {

ViewBase::ViewBase(QWidget* parent) : QWidget(parent), themeKey_(themeKey(theme_)) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void ViewBase::setTheme(const Theme& theme) {
    theme_ = theme;
    themeKey_ = themeKey(theme);
    update();
}

void ViewBase::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const Picture& pic = picture();
    const double dpr = devicePixelRatioF();
    fromPicture_ = !pic.image.isNull() && pic.image.size() == pictureSize(size(), dpr) &&
                   pic.image.devicePixelRatio() == dpr && pic.theme == themeKey_;
    if (fromPicture_)
        p.drawImage(QPointF(0, 0), pic.image);
    else
        draw(p, QRectF(rect()));
    painted_ = generation_;
    Q_EMIT painted(painted_);
}

void ViewBase::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    Q_EMIT resized();
}

void ViewBase::mouseMoveEvent(QMouseEvent* event) {
    const QString tip = toolTipAt(event->position().toPoint());
    if (tip.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), tip, this);
}

void ViewBase::leaveEvent(QEvent*) { QToolTip::hideText(); }

// ---- Pairs
void PairsView::draw(QPainter& p, const QRectF& r) const { renderPairs(p, r, result_, theme_); }
QString PairsView::toolTipAt(const QPoint& pos) const {
    const auto hit = hitTestPairs(QRectF(rect()), result_, theme_, QPointF(pos));
    return hit ? pairsToolTip(result_, *hit) : QString();
}

// ---- Heatmap
void HeatmapView::draw(QPainter& p, const QRectF& r) const { renderHeatmap(p, r, result_, theme_); }
QString HeatmapView::toolTipAt(const QPoint& pos) const {
    const auto hit = hitTestHeatmap(QRectF(rect()), result_, theme_, QPointF(pos));
    return hit ? heatmapToolTip(result_, *hit) : QString();
}
int HeatmapView::cellsFor(int panels) const { return heatmapCellsFor(QRectF(rect()), panels, theme_, devicePixelRatioF()); }

// ---- Frequencies
void FrequencyView::draw(QPainter& p, const QRectF& r) const { renderFrequencies(p, r, result_, theme_); }
void ContributionsView::draw(QPainter& p, const QRectF& r) const { renderContributions(p, r, result_, theme_); }
void PrecisionView::draw(QPainter& p, const QRectF& r) const { renderPrecision(p, r, result_, theme_); }
QString FrequencyView::toolTipAt(const QPoint& pos) const {
    const auto hit = hitTestFrequencies(QRectF(rect()), result_, theme_, QPointF(pos));
    return hit ? frequencyToolTip(result_, *hit) : QString();
}

// ---- Decay
DecayView::DecayView(QWidget* parent) : QChartView(new QChart, parent) {
    setRenderHint(QPainter::Antialiasing, true);
    setMouseTracking(true);
    setRubberBand(QChartView::NoRubberBand);
    // One chart fills the view: repaint all of it, so that no pixel of replaced axes (a theme
    // or log-axis change rebuilds them) survives a partial update.
    setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    chart()->legend()->setVisible(true);
}

void DecayView::setTheme(const Theme& theme) {
    theme_ = theme;
    setBackgroundBrush(theme.background);
    configureDecayChart(chart(), result_, theme_);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    viewport()->update();
}

void DecayView::setResult(const DecayResult& r) {
    result_ = r;
    configureDecayChart(chart(), result_, theme_);
    // Qt Charts lays out axes on a posted LayoutRequest; do it now so that the next paint shows
    // the new result completely (ticks included) rather than in two passes.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    viewport()->update();
}

void DecayView::paintEvent(QPaintEvent* e) {
    QChartView::paintEvent(e);
    painted_ = result_.generation;
    Q_EMIT painted(painted_);
}

void DecayView::resizeEvent(QResizeEvent* e) {
    QChartView::resizeEvent(e);
    Q_EMIT resized();
}

QString DecayView::toolTipAt(const QPoint& pos) const {
    auto* c = chart();
    const QPointF scenePos = mapToScene(pos);
    const QPointF chartPos = c->mapFromScene(scenePos);
    if (!c->plotArea().contains(chartPos) || c->series().isEmpty()) return {};
    const QPointF value = c->mapToValue(chartPos, c->series().front());
    const auto i = nearestDecaySample(result_, value.x());
    return i ? decayToolTip(result_, *i) : QString();
}

void DecayView::mouseMoveEvent(QMouseEvent* event) {
    QChartView::mouseMoveEvent(event);
    const QString tip = toolTipAt(event->position().toPoint());
    if (tip.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), tip, this);
}

}  // namespace poslab::ui
