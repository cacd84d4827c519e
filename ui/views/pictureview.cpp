#include "ui/views/pictureview.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

namespace poslab::ui {

PictureView::PictureView(QWidget* parent) : QWidget(parent) { setMouseTracking(true); }

void PictureView::setTheme(const Theme& theme) {
    theme_ = theme;
    update();
}

void PictureView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    paintPicture(p, QRectF(rect()));
}

bool PictureView::event(QEvent* e) {
    if (e->type() != QEvent::ToolTip) return QWidget::event(e);
    auto* h = static_cast<QHelpEvent*>(e);
    const QString text = toolTipAt(h->pos());
    if (text.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(h->globalPos(), text, this);
    return true;
}

}  // namespace poslab::ui
