#include "ui/views/views.h"

#include "ui/render/decayrenderer.h"
#include "ui/render/enlarge.h"
#include "ui/render/contributionsrenderer.h"
#include "ui/render/precisionrenderer.h"
#include "ui/render/frequencyrenderer.h"
#include "ui/render/heatmaprenderer.h"
#include "ui/render/pairsrenderer.h"
#include "ui/views/zoom.h"

#include <QBackingStore>
#include <QGestureEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QNativeGestureEvent>
#include <QPainter>
#include <QPinchGesture>
#include <QRubberBand>
#include <QToolTip>
#include <QWheelEvent>
#include <QWindow>

#include <cmath>

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
    // A picture at the device's resolution, or at logical resolution while edits stream (each
    // pixel copied as a block of device pixels: copyEnlarged, at half the time of QPainter's
    // scaled copy without a smoothing hint, which gives the same pixels where it cannot).
    const bool atResolution = pic.resolution == dpr || pic.resolution == 1.0;
    fromPicture_ = !pic.image.isNull() && atResolution && pic.image.size() == pictureSize(size(), pic.resolution) &&
                   pic.image.devicePixelRatio() == pic.resolution && pic.theme == themeKey_;
    resolution_ = fromPicture_ ? pic.resolution : dpr;
    enlarged_ = false;
    if (fromPicture_ && pic.resolution == dpr) {
        p.drawImage(QPointF(0, 0), pic.image);
    } else if (fromPicture_) {
        // The window's backing store, asked only while its window is on screen: before a first
        // paint a platform may have no image yet (xcb, Wayland), and QBackingStore::paintDevice()
        // does not check (a grab() of a view in a window never shown).
        const QWindow* shown = window()->windowHandle();
        enlarged_ = shown && shown->isExposed() && backingStore() && copyEnlarged(p, pic.image, backingStore()->paintDevice());
        if (!enlarged_) p.drawImage(QRectF(rect()), pic.image);
    } else {
        draw(p, QRectF(rect()));
    }
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
void PairsView::draw(QPainter& p, const QRectF& r) const { renderPairs(p, r, *result_, theme_); }
QString PairsView::toolTipAt(const QPoint& pos) const {
    const auto hit = hitTestPairs(QRectF(rect()), *result_, theme_, QPointF(pos));
    return hit ? pairsToolTip(*result_, *hit) : QString();
}

// ---- Zoom gestures (both views)
namespace {

// One wheel notch (120 eighths of a degree) zooms in by 20 %.
double wheelFactor(const QWheelEvent* e) {
    const QPoint d = e->angleDelta();
    const int steps = d.y() != 0 ? d.y() : d.x();
    return std::pow(0.8, steps / 120.0);
}

bool isRubberPress(const QMouseEvent* e) {
    return e->button() == Qt::RightButton || (e->button() == Qt::LeftButton && (e->modifiers() & Qt::ShiftModifier));
}

// The zoom factor of a pinch event (native trackpad zoom or a touch QPinchGesture), with the
// point it is about and whether it starts a gesture; nullopt for other events.
struct Pinch {
    double factor = 1;
    QPointF at;          // global position
    bool start = false;
};
std::optional<Pinch> pinchOf(QEvent* event) {
    if (event->type() == QEvent::NativeGesture) {
        auto* g = static_cast<QNativeGestureEvent*>(event);
        if (g->gestureType() == Qt::BeginNativeGesture) return Pinch{1, g->globalPosition(), true};
        if (g->gestureType() != Qt::ZoomNativeGesture) return std::nullopt;
        // value(): the change of magnification since the last event (0.1 = 10 % larger).
        return Pinch{1.0 / std::max(0.05, 1.0 + g->value()), g->globalPosition(), false};
    }
    if (event->type() == QEvent::Gesture) {
        auto* g = static_cast<QGestureEvent*>(event);
        if (auto* pinch = static_cast<QPinchGesture*>(g->gesture(Qt::PinchGesture))) {
            g->accept(pinch);
            const double f = pinch->scaleFactor();
            return Pinch{f > 0 ? 1.0 / f : 1.0, pinch->centerPoint(), pinch->state() == Qt::GestureStarted};
        }
    }
    return std::nullopt;
}

}  // namespace

// ---- Heatmap
HeatmapView::HeatmapView(QWidget* parent) : ResultView(parent) {
    setFocusPolicy(Qt::StrongFocus);   // Home, + and − after a click
    grabGesture(Qt::PinchGesture);
    setStatusTip(heatmapZoomHelp());
}

void HeatmapView::setWindow(const ViewWindow& queries, const ViewWindow& keys, std::int64_t length) {
    queries_ = queries;
    keys_ = keys;
    length_ = std::max<std::int64_t>(1, length);
}

HeatmapView::PanelAxes HeatmapView::axesAt(const QPointF& p) const {
    const int n = std::max<int>(1, static_cast<int>(result_->panels.size()));
    const auto layout = layoutHeatmap(QRectF(rect()), n, theme_, result_->squareCells, heatmapHasSinkStrip(*result_), heatmapDifferences(*result_),
                                      result_->differenceNote);
    std::size_t k = 0;
    for (std::size_t i = 0; i < layout.size(); ++i)
        if (layout[i].image.contains(p)) {
            k = i;
            break;
        }
    PanelAxes a;
    a.image = layout[k].image;
    if (k < result_->panels.size()) {
        a.keys = result_->panels[k].keyRanges;
        a.queries = result_->panels[k].queryRanges;
    }
    return a;
}

namespace {
// A point `t` of `extent` pixels along an axis in positions (HeatmapView::keyAt).
double axisPosition(const std::vector<PositionRange>& ranges, const ViewWindow& window, double t, double extent) {
    const double f = t / std::max(1.0, extent);
    if (!ranges.empty() && ranges.front().from == window.from && ranges.back().to == window.to)
        return heatmapPositionAtCell(f * static_cast<double>(ranges.size()), ranges);
    return static_cast<double>(window.from) + f * static_cast<double>(window.size());
}
}  // namespace

double HeatmapView::keyAt(const PanelAxes& a, const ViewWindow& window, double x) {
    return axisPosition(a.keys, window, x - a.image.left(), a.image.width());
}

double HeatmapView::queryAt(const PanelAxes& a, const ViewWindow& window, double y) {
    return axisPosition(a.queries, window, y - a.image.top(), a.image.height());
}

void HeatmapView::request(const ViewWindow& q, const ViewWindow& k, ZoomGesture g) {
    if (q == queries_ && k == keys_) return;
    const bool newStep = g != last_ || g == ZoomGesture::Rubber || g == ZoomGesture::Reset || g == ZoomGesture::Keys;
    last_ = g;
    Q_EMIT windowRequested(q, k, newStep);
}

void HeatmapView::zoomAbout(const QPointF& p, double factor, ZoomGesture g) {
    const PanelAxes a = axesAt(p);
    const QPointF at = a.image.contains(p) ? p : a.image.center();
    request(zoomWindow(queries_, queryAt(a, queries_, at.y()), factor, 0, length_),
            zoomWindow(keys_, keyAt(a, keys_, at.x()), factor, 0, length_), g);
}

bool HeatmapView::event(QEvent* event) {
    if (auto pinch = pinchOf(event)) {
        if (pinch->start) last_ = ZoomGesture::None;
        else zoomAbout(mapFromGlobal(pinch->at), pinch->factor, ZoomGesture::Pinch);
        event->accept();
        return true;
    }
    return ViewBase::event(event);
}

void HeatmapView::wheelEvent(QWheelEvent* e) {
    zoomAbout(e->position(), wheelFactor(e), ZoomGesture::Wheel);
    e->accept();
}

void HeatmapView::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton && e->button() != Qt::RightButton) return ViewBase::mousePressEvent(e);
    pressAt_ = e->position();
    pressAxes_ = axesAt(pressAt_);
    pressQueries_ = queries_;
    pressKeys_ = keys_;
    last_ = ZoomGesture::None;
    if (isRubberPress(e)) {
        drag_ = Drag::Rubber;
        if (!band_) band_ = new QRubberBand(QRubberBand::Rectangle, this);
        band_->setGeometry(QRect(pressAt_.toPoint(), QSize()));
        band_->show();
    } else {
        drag_ = Drag::Pan;
        setCursor(Qt::ClosedHandCursor);
    }
    e->accept();
}

void HeatmapView::mouseMoveEvent(QMouseEvent* e) {
    if (drag_ == Drag::Pan) {
        // Positions per pixel of the window at the press: the cells follow the mouse.
        const double dk = keyAt(pressAxes_, pressKeys_, pressAt_.x()) - keyAt(pressAxes_, pressKeys_, e->position().x());
        const double dq = queryAt(pressAxes_, pressQueries_, pressAt_.y()) - queryAt(pressAxes_, pressQueries_, e->position().y());
        request(panWindow(pressQueries_, std::llround(dq), 0, length_), panWindow(pressKeys_, std::llround(dk), 0, length_),
                ZoomGesture::Pan);
        return;
    }
    if (drag_ == Drag::Rubber) {
        if (band_) band_->setGeometry(QRectF(pressAt_, e->position()).normalized().toRect());
        return;
    }
    ViewBase::mouseMoveEvent(e);
}

void HeatmapView::mouseReleaseEvent(QMouseEvent* e) {
    const Drag d = drag_;
    drag_ = Drag::None;
    unsetCursor();
    if (band_) band_->hide();
    if (d == Drag::Rubber) {
        const QRectF r = QRectF(pressAt_, e->position()).normalized().intersected(pressAxes_.image);
        // A click without a rectangle (a few pixels) does nothing.
        if (r.width() >= 3 && r.height() >= 3)
            request(spanWindow(queryAt(pressAxes_, pressQueries_, r.top()), queryAt(pressAxes_, pressQueries_, r.bottom()), 0, length_),
                    spanWindow(keyAt(pressAxes_, pressKeys_, r.left()), keyAt(pressAxes_, pressKeys_, r.right()), 0, length_),
                    ZoomGesture::Rubber);
    }
    last_ = ZoomGesture::None;   // the next gesture is a new undo step
    e->accept();
}

void HeatmapView::mouseDoubleClickEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return ViewBase::mouseDoubleClickEvent(e);
    request({0, length_}, {0, length_}, ZoomGesture::Reset);
    e->accept();
}

void HeatmapView::keyPressEvent(QKeyEvent* e) {
    if (e->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier)) return ViewBase::keyPressEvent(e);
    const QPointF centre = axesAt(QPointF(rect().center())).image.center();
    switch (e->key()) {
    case Qt::Key_Home: request({0, length_}, {0, length_}, ZoomGesture::Reset); break;
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomAbout(centre, 0.5, ZoomGesture::Keys); break;
    case Qt::Key_Minus: zoomAbout(centre, 2.0, ZoomGesture::Keys); break;
    default: return ViewBase::keyPressEvent(e);
    }
    e->accept();
}

void HeatmapView::draw(QPainter& p, const QRectF& r) const { renderHeatmap(p, r, *result_, theme_); }
QString HeatmapView::toolTipAt(const QPoint& pos) const {
    const auto hit = hitTestHeatmap(QRectF(rect()), *result_, theme_, QPointF(pos));
    return hit ? heatmapToolTip(*result_, *hit) : QString();
}
int HeatmapView::cellsFor(int panels, bool square, bool sinkStrip, int differences, const QString& note) const {
    return heatmapCellsFor(QRectF(rect()), panels, theme_, devicePixelRatioF(), square, sinkStrip, differences, note);
}

// ---- Frequencies
void FrequencyView::draw(QPainter& p, const QRectF& r) const { renderFrequencies(p, r, *result_, theme_); }
void ContributionsView::draw(QPainter& p, const QRectF& r) const { renderContributions(p, r, *result_, theme_); }
void PrecisionView::draw(QPainter& p, const QRectF& r) const { renderPrecision(p, r, *result_, theme_); }
QString PrecisionView::toolTipAt(const QPoint& pos) const { return precisionToolTip(QRectF(rect()), *result_, theme_, QPointF(pos)); }
int PrecisionView::cellsFor(int configs, bool square) const {
    return precisionCellsFor(QRectF(rect()), configs, theme_, devicePixelRatioF(), square);
}
QString FrequencyView::toolTipAt(const QPoint& pos) const {
    const auto hit = hitTestFrequencies(QRectF(rect()), *result_, theme_, QPointF(pos));
    return hit ? frequencyToolTip(*result_, *hit) : QString();
}

// ---- Decay
DecayView::DecayView(QWidget* parent) : ResultView(parent) {
    setFocusPolicy(Qt::StrongFocus);   // Home, + and − after a click
    grabGesture(Qt::PinchGesture);
    setStatusTip(decayZoomHelp());
}

void DecayView::draw(QPainter& p, const QRectF& r) const { renderDecay(p, r, *result_, theme_); }

const DecayPlot& DecayView::chart() const {
    const QString key = themeKey(theme_);
    if (!chart_ || chartOf_ != result_ || chartSize_ != size() || chartTheme_ != key) {
        chart_ = decayPlot(QRectF(rect()), *result_, theme_);
        chartOf_ = result_;
        chartSize_ = size();
        chartTheme_ = key;
    }
    return *chart_;
}

QString DecayView::toolTipAt(const QPoint& pos) const {
    const DecayPlot& c = chart();
    if (!c.plot.contains(QPointF(pos))) return {};
    const auto i = nearestDecaySample(*result_, c.x.unmap(pos.x()));
    return i ? decayToolTip(*result_, *i) : QString();
}

void DecayView::mouseMoveEvent(QMouseEvent* event) {
    if (drag_ == Drag::Pan) {
        // Distances per pixel of the window at the press: the curve follows the mouse.
        const QRectF plot = chart().plot;
        const double dx = event->position().x() - pressAt_.x();
        if (chart().x.log && pressWindow_.from >= 1) {
            // Log axis: both ends move by the same factor.
            const double last = double(std::max(pressWindow_.to - 1, pressWindow_.from + 1));
            const double r = std::pow(last / double(pressWindow_.from), -dx / std::max(1.0, plot.width()));
            const std::int64_t from = std::llround(double(pressWindow_.from) * r);
            request(panWindow(pressWindow_, from - pressWindow_.from, whole_.from, whole_.to), ZoomGesture::Pan);
        } else {
            const double span = double(std::max<std::int64_t>(1, pressWindow_.size() - 1));
            request(panWindow(pressWindow_, std::llround(-dx / std::max(1.0, plot.width()) * span), whole_.from, whole_.to),
                    ZoomGesture::Pan);
        }
        return;
    }
    if (drag_ == Drag::Rubber) {
        const QRectF plot = chart().plot;
        const double x0 = std::clamp(pressAt_.x(), plot.left(), plot.right());
        const double x1 = std::clamp(event->position().x(), plot.left(), plot.right());
        if (band_) band_->setGeometry(QRectF(QPointF(std::min(x0, x1), plot.top()), QPointF(std::max(x0, x1), plot.bottom())).toRect());
        return;
    }
    ViewBase::mouseMoveEvent(event);   // the tooltip
}

}  // namespace poslab::ui

namespace poslab::ui {

void DecayView::setWindow(const ViewWindow& distances, const ViewWindow& whole) {
    window_ = distances;
    whole_ = whole;
}

double DecayView::distanceAt(double x, bool clampToPlot) const {
    const DecayPlot& c = chart();
    const QRectF plot = c.plot;
    if (plot.width() <= 0) return std::nan("");
    if (clampToPlot) x = std::clamp(x, plot.left(), plot.right());
    else if (x < plot.left() || x > plot.right()) return std::nan("");
    return c.x.unmap(x);
}

void DecayView::request(const ViewWindow& w, ZoomGesture g) {
    if (w == window_) return;
    const bool newStep = g != last_ || g == ZoomGesture::Rubber || g == ZoomGesture::Reset || g == ZoomGesture::Keys;
    last_ = g;
    Q_EMIT windowRequested(w, newStep);
}

void DecayView::zoomAbout(double x, double factor, ZoomGesture g) {
    double anchor = distanceAt(x);
    if (std::isnan(anchor)) anchor = double(window_.from) + double(window_.size()) / 2;
    const bool logAxis = chart().x.log;
    ViewWindow w = zoomWindow(window_, anchor, factor, whole_.from, whole_.to);
    if (logAxis && window_.from >= 1 && anchor >= 1) {
        // On a log axis the point under the mouse stays in log space.
        const double la = std::log(anchor), l0 = std::log(double(window_.from)), l1 = std::log(double(std::max(window_.to - 1, window_.from + 1)));
        const ViewWindow l = spanWindow(std::exp(la - (la - l0) * factor), std::exp(la + (l1 - la) * factor) + 1, whole_.from, whole_.to);
        if (l != window_) w = l;
    }
    request(w, g);
}

bool DecayView::event(QEvent* event) {
    if (auto pinch = pinchOf(event)) {
        if (pinch->start) last_ = ZoomGesture::None;
        else zoomAbout(mapFromGlobal(pinch->at).x(), pinch->factor, ZoomGesture::Pinch);
        event->accept();
        return true;
    }
    return ViewBase::event(event);
}

void DecayView::wheelEvent(QWheelEvent* e) {
    zoomAbout(e->position().x(), wheelFactor(e), ZoomGesture::Wheel);
    e->accept();
}

void DecayView::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton && e->button() != Qt::RightButton) return ViewBase::mousePressEvent(e);
    pressAt_ = e->position();
    pressWindow_ = window_;
    last_ = ZoomGesture::None;
    if (isRubberPress(e)) {
        drag_ = Drag::Rubber;
        if (!band_) band_ = new QRubberBand(QRubberBand::Rectangle, this);
        const QRectF plot = chart().plot;
        band_->setGeometry(QRectF(QPointF(pressAt_.x(), plot.top()), QSizeF(1, plot.height())).toRect());
        band_->show();
    } else {
        drag_ = Drag::Pan;
        setCursor(Qt::ClosedHandCursor);
    }
    e->accept();
}

void DecayView::mouseReleaseEvent(QMouseEvent* e) {
    const Drag d = drag_;
    drag_ = Drag::None;
    unsetCursor();
    if (band_) band_->hide();
    if (d == Drag::Rubber && std::abs(e->position().x() - pressAt_.x()) >= 3) {
        const double a = distanceAt(pressAt_.x(), true), b = distanceAt(e->position().x(), true);
        if (!std::isnan(a) && !std::isnan(b))
            request(spanWindow(std::round(std::min(a, b)), std::round(std::max(a, b)) + 1, whole_.from, whole_.to),
                    ZoomGesture::Rubber);
    }
    last_ = ZoomGesture::None;
    e->accept();
}

void DecayView::mouseDoubleClickEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return ViewBase::mouseDoubleClickEvent(e);
    request(whole_, ZoomGesture::Reset);
    e->accept();
}

void DecayView::keyPressEvent(QKeyEvent* e) {
    if (e->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier)) return ViewBase::keyPressEvent(e);
    const double centre = chart().plot.center().x();
    switch (e->key()) {
    case Qt::Key_Home: request(whole_, ZoomGesture::Reset); break;
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomAbout(centre, 0.5, ZoomGesture::Keys); break;
    case Qt::Key_Minus: zoomAbout(centre, 2.0, ZoomGesture::Keys); break;
    default: return ViewBase::keyPressEvent(e);
    }
    e->accept();
}

}  // namespace poslab::ui
