#include "ui/views/layersview.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace poslab::ui {

LayersView::LayersView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Click a layer to show it in every view; Shift-click to compare it beside the shown one"));
}

void LayersView::setPicture(const LayersPicture& picture) {
    if (picture.model == picture_.model && picture.selected == picture_.selected && picture.compared == picture_.compared &&
        picture.context == picture_.context && picture.dim == picture_.dim && picture.title == picture_.title)
        return;
    picture_ = picture;
    update();
}

void LayersView::setTheme(const Theme& theme) {
    theme_ = theme;
    update();
}

std::optional<std::int64_t> LayersView::layerAt(const QPoint& pos) const {
    return layerRowAt(QRectF(rect()), picture_, theme_, QPointF(pos));
}

void LayersView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    drawLayers(p, QRectF(rect()), picture_, theme_);
}

void LayersView::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return QWidget::mousePressEvent(e);
    const auto layer = layerAt(e->position().toPoint());
    if (!layer) return;
    Q_EMIT layerClicked(*layer, (e->modifiers() & (Qt::ShiftModifier | Qt::ControlModifier)) != 0);
    e->accept();
}

bool LayersView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* h = static_cast<QHelpEvent*>(e);
        const auto layers = layerRowLayersAt(QRectF(rect()), picture_, theme_, QPointF(h->pos()));
        if (const auto layer = layerAt(h->pos())) {
            const LayerRowText t = layerRowText(picture_.model, *layer, picture_.context);
            // A group's row: every layer of it (they are alike), and which one a click shows.
            QStringList parts{layers.size() > 1 ? tr("%1 layers alike: %2").arg(layers.size()).arg(layerListText(layers))
                                                : tr("layer %1").arg(t.index),
                              t.type, t.signal};
            if (!t.base.isEmpty()) parts << t.base;
            if (!t.scaling.isEmpty()) parts << t.scaling;
            parts << t.reach;
            QToolTip::showText(h->globalPos(),
                               parts.join(QStringLiteral(" · ")) + QStringLiteral("\n") +
                                   (layers.size() > 1 ? tr("Click: show layer %1 in every view · Shift-click: compare it beside the shown one").arg(*layer)
                                                      : tr("Click: show this layer in every view · Shift-click: compare it beside the shown one")),
                               this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(e);
}

}  // namespace poslab::ui
