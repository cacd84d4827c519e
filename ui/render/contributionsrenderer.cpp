#include "ui/render/contributionsrenderer.h"

#include "ui/render/colormap.h"
#include "ui/render/layout.h"
#include "ui/render/plot.h"
#include "ui/model/sceneparams.h"

#include <QFontMetricsF>
#include <QImage>
#include <QObject>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

int firstPairPast(const std::vector<double>& wavelengths, std::int64_t context) {
    for (std::size_t i = 0; i < wavelengths.size(); ++i)
        if (wavelengths[i] > static_cast<double>(context)) return static_cast<int>(i);
    return static_cast<int>(wavelengths.size());
}

namespace {

void renderPanel(QPainter& p, const QRectF& rect, const ContributionsConfigResult& c, const Theme& t) {
    p.setFont(t.titleFont());
    const double titleH = plot::lineHeight(t.titleFont());
    plot::text(p, QPointF(rect.center().x(), rect.top() + titleH * 0.6), c.title, plot::Align::Center, t.foreground);
    p.setFont(t.smallFont());
    const double smallH = plot::lineHeight(t.smallFont());
    double top = rect.top() + titleH * 1.2;
    if (!c.error.isEmpty()) {
        // Nothing to plot: say why, and what the view would show, in readable type.
        p.setFont(t.bodyFont());
        const QRectF box(rect.left() + rect.width() * 0.08, top + rect.height() * 0.1, rect.width() * 0.84, rect.height());
        const double used = plot::wrappedText(p, box, c.error, t.error);
        plot::wrappedText(p, box.adjusted(0, used + plot::lineHeight(t.bodyFont()), 0, 0),
                          QObject::tr("This view splits RoPE's score s·(R_i q_i)·(R_j k_j) into its rotary pairs: "
                                      "for each pair p and distance t, c_p(t) = s·(R q)_p·(R k)_p, and each pair's "
                                      "share of Σ|c|."),
                          t.muted);
        return;
    }
    // The content line as it fits the column (its parenthesis goes first).
    plot::text(p, QPointF(rect.center().x(), top + smallH * 0.5), fitText(c.content, t.smallFont(), rect.width() - 8), plot::Align::Center,
               t.muted);
    top += smallH * 1.2;
    const int pairs = static_cast<int>(c.value.rows());
    const int cols = static_cast<int>(c.value.cols());
    if (pairs == 0 || cols == 0) return;
    // Legend of the wavelength lines and the colour bar take the bottom.
    const double legendH = smallH * 1.4, barH = std::max(8.0, smallH * 0.7);
    const QMarginsF m = plot::axesMargins(t);
    QRectF area(rect.left(), top, rect.width(), rect.bottom() - top - legendH - barH - smallH * 1.6);
    area = area.marginsRemoved(QMarginsF(m.left(), 4, 8, m.bottom()));
    if (area.width() < 60 || area.height() < 30) return;
    const double shareW = std::clamp(area.width() * 0.2, 40.0, 160.0);
    const QRectF heat(area.left(), area.top(), area.width() - shareW - 10, area.height());
    const QRectF share(heat.right() + 10, area.top(), shareW, area.height());

    // The image: one pixel per (pair, column), scaled into the plot.
    QImage img(cols, pairs, QImage::Format_RGB32);
    for (int r = 0; r < pairs; ++r) {
        auto* line = reinterpret_cast<QRgb*>(img.scanLine(r));
        for (int k = 0; k < cols; ++k) line[k] = colormapRgb(ColormapKind::Diverging, 0.5 + c.value(r, k) / (2 * c.absMax));
    }
    p.save();
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    p.drawImage(heat, img);
    p.restore();
    const double d0 = static_cast<double>(c.distance.front()), d1 = static_cast<double>(c.distance.back());
    plot::Axis x{d0, d1 > d0 ? d1 : d0 + 1, false, heat.left(), heat.right()};
    plot::Axis y{-0.5, pairs - 0.5, false, heat.top(), heat.bottom()};
    plot::axes(p, heat, x, y, t, QObject::tr("distance t (tokens)"), QObject::tr("pair p (0 = fastest)"), false);

    // Share of Σ|c| per pair.
    double maxShare = 0;
    for (double s : c.share) maxShare = std::max(maxShare, s);
    if (maxShare <= 0) maxShare = 1;
    p.fillRect(share, t.panel);
    const double rowH = share.height() / pairs;
    for (int r = 0; r < pairs; ++r) {
        const double w = share.width() * c.share[static_cast<std::size_t>(r)] / maxShare;
        p.fillRect(QRectF(share.left(), share.top() + r * rowH, w, std::max(1.0, rowH * 0.85)), t.series(0));
    }
    p.setPen(QPen(t.foreground, t.axisWidth));
    p.drawRect(share);
    layoutRecord(p, LayoutItemKind::Plot, heat);
    layoutRecord(p, LayoutItemKind::Plot, share);

    // Where the wavelengths pass the training context.
    const int before = firstPairPast(c.wavelengthBefore, c.trainingContext);
    const int after = firstPairPast(c.wavelengthAfter, c.trainingContext);
    auto mark = [&](int pair, Qt::PenStyle style, const QColor& col) {
        if (pair >= pairs) return;
        const double yy = heat.top() + pair * rowH;
        p.setPen(QPen(col, t.lineWidth * 1.2, style));
        p.drawLine(QPointF(heat.left(), yy), QPointF(share.right(), yy));
    };
    const QColor lineCol = t.foreground;
    mark(before, Qt::DashLine, lineCol);
    if (c.scaled) mark(after, Qt::SolidLine, lineCol);
    // Colour bar: −max, 0, +max.
    const QRectF bar(heat.left(), heat.bottom() + m.bottom() + smallH * 0.1, heat.width() * 0.6, barH);
    QImage cb(256, 1, QImage::Format_RGB32);
    for (int i = 0; i < 256; ++i) cb.setPixel(i, 0, colormapRgb(ColormapKind::Diverging, i / 255.0));
    p.drawImage(bar, cb);
    p.setPen(QPen(t.foreground, t.axisWidth));
    p.drawRect(bar);
    const double ty = bar.bottom() + smallH * 0.6;
    plot::text(p, QPointF(bar.left(), ty), displayValue(-c.absMax), plot::Align::Center, t.muted);
    plot::text(p, QPointF(bar.center().x(), ty), QStringLiteral("0"), plot::Align::Center, t.muted);
    plot::text(p, QPointF(bar.right(), ty), displayValue(c.absMax), plot::Align::Center, t.muted);
    const QRectF cpLabel = plot::text(p, QPointF(bar.right() + 8, bar.center().y()), QObject::tr("c_p(t)"), plot::Align::Left, t.muted);
    layoutRecord(p, LayoutItemKind::Colorbar, bar);
    // What the bars beside the plot mean, in the colour bar's row (below the share bars the
    // distance axis' labels would cover it), right-aligned to the bars; shorter forms by rule.
    const QString maxText = displayValue(100 * maxShare);
    plot::text(p, QPointF(share.right(), bar.center().y()),
               fitText(QStringList{QObject::tr("share of |score| (max %1 %)").arg(maxText), QObject::tr("share (max %1 %)").arg(maxText),
                                   QObject::tr("max %1 %").arg(maxText)},
                       t.smallFont(), share.right() - cpLabel.right() - 12),
               plot::Align::Right, t.muted);
    // Legend of the lines.
    auto pairText = [&](int pair) {
        return pair >= pairs ? QObject::tr("no pair") : QObject::tr("pairs ≥ %1").arg(pair);
    };
    QString legend = QObject::tr("- - wavelength > training context %1: %2").arg(c.trainingContext).arg(pairText(before));
    if (c.scaled) legend += QObject::tr("   —— after scaling: %1").arg(pairText(after));
    plot::text(p, QPointF(rect.left() + 8, rect.bottom() - legendH * 0.5), fitText(legend, t.smallFont(), rect.width() - 16),
               plot::Align::Left, t.foreground);
}

}  // namespace

void renderContributions(QPainter& p, const QRectF& rect, const ContributionsResult& result, const Theme& t) {
    plot::configColumns(p, rect, static_cast<int>(result.configs.size()), t, [&](QPainter& q, const QRectF& r, int i) {
        renderPanel(q, r, result.configs[static_cast<std::size_t>(i)], t);
    });
}

}  // namespace poslab::ui
