#include "ui/views/layersview.h"

#include <QMouseEvent>
#include <QPainter>

namespace poslab::ui {

LayersView::LayersView(QWidget* parent) : PictureView(parent) {
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

std::optional<std::int64_t> LayersView::layerAt(const QPoint& pos) const {
    return layerRowAt(QRectF(rect()), picture_, theme_, QPointF(pos));
}

void LayersView::paintPicture(QPainter& p, const QRectF& rect) const { drawLayers(p, rect, picture_, theme_); }

void LayersView::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return QWidget::mousePressEvent(e);
    const auto layer = layerAt(e->position().toPoint());
    if (!layer) return;
    Q_EMIT layerClicked(*layer, (e->modifiers() & (Qt::ShiftModifier | Qt::ControlModifier)) != 0);
    e->accept();
}

QString LayersView::toolTipAt(const QPoint& pos) const {
    const auto layer = layerAt(pos);
    if (!layer) return {};
    const auto layers = layerRowLayersAt(QRectF(rect()), picture_, theme_, QPointF(pos));
    const LayerRowText t = layerRowText(picture_.model, *layer, picture_.context);
    // A group's row: every layer of it (they are alike), and which one a click shows.
    QStringList parts{layers.size() > 1 ? tr("%1 layers alike: %2").arg(layers.size()).arg(layerListText(layers))
                                        : tr("layer %1").arg(t.index),
                      t.type, t.signal};
    if (!t.base.isEmpty()) parts << t.base;
    if (!t.scaling.isEmpty()) parts << t.scaling;
    parts << t.reach;
    return parts.join(QStringLiteral(" · ")) + QStringLiteral("\n") +
           (layers.size() > 1 ? tr("Click: show layer %1 in every view · Shift-click: compare it beside the shown one").arg(*layer)
                              : tr("Click: show this layer in every view · Shift-click: compare it beside the shown one"));
}

}  // namespace poslab::ui
