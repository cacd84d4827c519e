#include "ui/views/visiondecayview.h"

#include "ui/model/sceneparams.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace poslab::ui {

VisionDecayView::VisionDecayView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setCursor(Qt::CrossCursor);
}

void VisionDecayView::setParams(const VisionRopeParams& params, std::array<std::int64_t, 2> patch) {
    if (computed_ && params == params_ && patch == patch_) return;
    params_ = params;
    patch_ = patch;
    computed_ = true;
    picture_ = visionDecayPictureOf(params, patch[0], patch[1]);
    update();
}

void VisionDecayView::setTheme(const Theme& theme) {
    theme_ = theme;
    update();
}

std::optional<std::array<std::int64_t, 2>> VisionDecayView::patchAt(const QPoint& pos) const {
    return visionDecayPatchAt(QRectF(rect()), picture_, theme_, QPointF(pos));
}

void VisionDecayView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    renderVisionDecay(p, QRectF(rect()), picture_, theme_);
}

void VisionDecayView::mousePressEvent(QMouseEvent* e) {
    if (e->button() == Qt::LeftButton)
        if (const auto rc = patchAt(e->position().toPoint())) {
            Q_EMIT patchClicked((*rc)[0], (*rc)[1]);
            return;
        }
    QWidget::mousePressEvent(e);
}

bool VisionDecayView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* h = static_cast<QHelpEvent*>(e);
        if (const auto rc = patchAt(h->pos()); rc && picture_.decay) {
            QToolTip::showText(h->globalPos(),
                               tr("patch (%1, %2): score %3 from (%4, %5)\nclick to measure from this patch")
                                   .arg((*rc)[0])
                                   .arg((*rc)[1])
                                   .arg(formatValue(picture_.decay->value((*rc)[0], (*rc)[1])))
                                   .arg(picture_.decay->row)
                                   .arg(picture_.decay->col),
                               this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(e);
}

}  // namespace poslab::ui
