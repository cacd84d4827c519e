#include "ui/render/vectorcells.h"

#include <QPaintEngine>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

bool isVectorPainter(QPainter& p) {
    const QPaintEngine* e = p.paintEngine();
    if (!e) return false;
    switch (e->type()) {
    case QPaintEngine::SVG:
    case QPaintEngine::Pdf:
    case QPaintEngine::Picture: return true;
    default: return false;
    }
}

QImage enlargedCells(const QImage& cells, const QSizeF& target) {
    if (cells.isNull()) return cells;
    const int kx = std::clamp(int(std::ceil(2 * target.width() / cells.width())), 1, std::max(1, kMaxVectorImageSide / cells.width()));
    const int ky = std::clamp(int(std::ceil(2 * target.height() / cells.height())), 1, std::max(1, kMaxVectorImageSide / cells.height()));
    if (kx == 1 && ky == 1) return cells;
    // By hand: every pixel is its cell's colour exactly (QImage::scaled may blend at this size).
    const QImage src = cells.convertToFormat(QImage::Format_ARGB32);
    QImage out(src.width() * kx, src.height() * ky, QImage::Format_ARGB32);
    for (int y = 0; y < out.height(); ++y) {
        const auto* in = reinterpret_cast<const QRgb*>(src.constScanLine(y / ky));
        auto* line = reinterpret_cast<QRgb*>(out.scanLine(y));
        for (int x = 0; x < out.width(); ++x) line[x] = in[x / kx];
    }
    return out;
}

void drawCells(QPainter& p, const QRectF& target, const QImage& cells) {
    if (cells.isNull() || target.isEmpty()) return;
    p.save();
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    if (!isVectorPainter(p)) {
        p.drawImage(target, cells);
        p.restore();
        return;
    }
    const int cols = cells.width(), rows = cells.height();
    if (qint64(cols) * rows > kMaxVectorCells) {
        p.drawImage(target, enlargedCells(cells, target.size()));
        p.restore();
        return;
    }
    // One rectangle per horizontal run of equal colour; each reaches half a cell into its right
    // and lower neighbours, which are drawn later and cover it, so that viewers' antialiasing of
    // two edges at one coordinate shows no seams.
    const QImage img = cells.convertToFormat(QImage::Format_RGB32);
    const double cw = target.width() / cols, ch = target.height() / rows;
    const double overlapX = cw * 0.5, overlapY = ch * 0.5;
    p.setPen(Qt::NoPen);
    p.setRenderHint(QPainter::Antialiasing, false);
    for (int r = 0; r < rows; ++r) {
        const auto* line = reinterpret_cast<const QRgb*>(img.constScanLine(r));
        int c = 0;
        while (c < cols) {
            int e = c + 1;
            while (e < cols && line[e] == line[c]) ++e;
            const double x0 = target.left() + c * cw, y0 = target.top() + r * ch;
            const double x1 = target.left() + e * cw + (e < cols ? overlapX : 0.0);
            const double y1 = target.top() + (r + 1) * ch + (r + 1 < rows ? overlapY : 0.0);
            p.fillRect(QRectF(QPointF(x0, y0), QPointF(x1, y1)), QColor::fromRgb(line[c]));
            c = e;
        }
    }
    p.restore();
}

}  // namespace poslab::ui
