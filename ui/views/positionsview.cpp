#include "ui/views/positionsview.h"

#include <QPainter>

namespace poslab::ui {

PositionsView::PositionsView(QWidget* parent) : PictureView(parent) {}

void PositionsView::setParams(const MropeParams& params) {
    if (numbered_ && params == params_) return;
    params_ = params;
    numbered_ = true;
    picture_ = positionsPictureOf(params);
    update();
}

std::optional<std::int64_t> PositionsView::tokenAt(const QPoint& pos) const {
    if (!picture_.error.isEmpty()) return std::nullopt;
    const PositionsGeometry g = positionsGeometry(QRectF(rect()), picture_, theme_);
    const QPointF p(pos);
    for (const auto& c : g.strip)
        if (c.count == 1 && c.rect.contains(p)) return c.from;
    for (const auto& gr : g.grids) {
        if (!gr.cells.contains(p)) continue;
        const double side = gr.cells.width() / double(gr.cols);
        const auto col = std::min<std::int64_t>(gr.cols - 1, static_cast<std::int64_t>((p.x() - gr.cells.left()) / side));
        const auto row = std::min<std::int64_t>(gr.rows - 1, static_cast<std::int64_t>((p.y() - gr.cells.top()) / side));
        return gr.firstToken + row * gr.cols + col;
    }
    return std::nullopt;
}

void PositionsView::paintPicture(QPainter& p, const QRectF& rect) const {
    renderPositions(p, rect, picture_, theme_);
    ++paints_;
}

QString PositionsView::toolTipAt(const QPoint& pos) const {
    const auto k = tokenAt(pos);
    if (!k) return {};
    const auto kind = picture_.positions.kinds[static_cast<std::size_t>(*k)];
    const QString name = kind == TokenKind::Text ? tr("text") : kind == TokenKind::Image ? tr("image") : tr("video");
    const auto& ids = picture_.positions.ids;
    return tr("token %1 (%2)\nt = %3, h = %4, w = %5").arg(*k).arg(name).arg(ids(0, *k)).arg(ids(1, *k)).arg(ids(2, *k));
}

}  // namespace poslab::ui
