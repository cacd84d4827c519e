#include "ui/render/precisionrenderer.h"

#include "ui/render/plot.h"
#include "ui/model/sceneparams.h"

#include <QFontMetricsF>
#include <QObject>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

namespace {

// Tick count that fits a plot of this width.
int ticksFor(double width, int most) { return std::clamp(static_cast<int>(width / 70), 2, most); }

// Text cut to `width` pixels in the painter's font (an ellipsis says so).
QString fit(const QPainter& p, const QString& s, double width) {
    return QFontMetricsF(p.font()).elidedText(s, Qt::ElideRight, std::max(10.0, width));
}

// Column c of the result on the position axis: its middle.
double columnX(const PositionRange& r) { return 0.5 * static_cast<double>(r.from + r.to - 1); }

// The bands of one quantity (per pair: min and max per column) in a plot rectangle, with the
// collision strip under it.
void bandPlot(QPainter& p, const QRectF& area, const PrecisionConfigResult& c, const std::vector<std::vector<double>>& lo,
              const std::vector<std::vector<double>>& hi, const QString& yLabel, const Theme& t) {
    double yMax = 0;
    for (std::size_t i = 0; i < lo.size(); ++i)
        for (std::size_t k = 0; k < lo[i].size(); ++k)
            if (std::isfinite(lo[i][k]) && std::isfinite(hi[i][k])) yMax = std::max({yMax, std::abs(lo[i][k]), std::abs(hi[i][k])});
    if (yMax <= 0) yMax = 1;   // no error at all (double): a flat line at 0 on ±1
    yMax *= 1.08;
    const double x1 = static_cast<double>(std::max<std::int64_t>(c.end - 1, 1));
    const plot::Axis x{0, x1, false, area.left(), area.right()};
    const plot::Axis y{-yMax, yMax, false, area.bottom(), area.top()};
    plot::axes(p, area, x, y, t, QObject::tr("position"), yLabel, true, ticksFor(area.width(), 6), 5);
    p.save();
    p.setClipRect(area);
    for (std::size_t i = 0; i < lo.size(); ++i) {
        QColor col = t.series(static_cast<int>(i));
        QPainterPath top, bottom;
        bool first = true;
        for (std::size_t k = 0; k < c.columns.size(); ++k) {
            if (!std::isfinite(lo[i][k])) continue;
            const double px = x.map(columnX(c.columns[k]));
            const QPointF a(px, y.map(hi[i][k])), b(px, y.map(lo[i][k]));
            if (first) {
                top.moveTo(a);
                bottom.moveTo(b);
                first = false;
            } else {
                top.lineTo(a);
                bottom.lineTo(b);
            }
        }
        // The band between the two envelopes, then its edges.
        QPainterPath band = top;
        band.connectPath(bottom.toReversed());
        band.closeSubpath();
        QColor fill = col;
        fill.setAlphaF(0.35);
        p.fillPath(band, fill);
        p.setPen(QPen(col, t.lineWidth * 0.8));
        p.drawPath(top);
        p.drawPath(bottom);
    }
    p.restore();
    // Collision strip: a mark under every column holding a colliding position.
    const double stripH = std::max(3.0, plot::lineHeight(t.smallFont()) * 0.3);
    const QRectF strip(area.left(), area.bottom() - stripH, area.width(), stripH);
    QColor mark = t.error;
    for (std::size_t k = 0; k < c.columns.size(); ++k) {
        if (!c.columnCollides[k]) continue;
        const double a = x.map(static_cast<double>(c.columns[k].from) - 0.5), b = x.map(static_cast<double>(c.columns[k].to) - 0.5);
        p.fillRect(QRectF(std::max(a, strip.left()), strip.top(), std::max(1.0, std::min(b, strip.right()) - std::max(a, strip.left())), stripH), mark);
    }
}

void logPlot(QPainter& p, const QRectF& area, const PrecisionConfigResult& c, const Theme& t) {
    double lo = std::numeric_limits<double>::infinity(), hi = 0;
    for (double v : c.logMaxAbs)
        if (v > 0) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    const bool none = hi <= 0;
    if (none) {
        lo = 1e-8;
        hi = 1;
    }
    lo = std::pow(10.0, std::floor(std::log10(lo)));
    hi = std::pow(10.0, std::ceil(std::log10(hi * 1.01)));
    if (hi <= lo) hi = lo * 10;
    const plot::Axis x{1, static_cast<double>(std::max<std::int64_t>(c.logEnd, 2)), true, area.left(), area.right()};
    const plot::Axis y{lo, hi, true, area.bottom(), area.top()};
    plot::axes(p, area, x, y, t, QObject::tr("position (log, %1 samples)").arg(c.logPositions.size()),
               QObject::tr("max |Δcos|, |Δsin|"), true, ticksFor(area.width(), 7), 5);
    p.save();
    p.setClipRect(area);
    const auto vline = [&](double pos, const QColor& col, Qt::PenStyle style, const QString& label, double labelRow) {
        if (pos < 1 || pos > x.hi) return;
        const double px = x.map(pos);
        p.setPen(QPen(col, t.lineWidth, style));
        p.drawLine(QPointF(px, area.top()), QPointF(px, area.bottom()));
        p.setFont(t.smallFont());
        const bool right = px < area.center().x();
        plot::text(p, QPointF(px + (right ? 4 : -4), area.top() + plot::lineHeight(t.smallFont()) * labelRow), label,
                   right ? plot::Align::Left : plot::Align::Right, col);
    };
    if (!none) {
        QPainterPath path;
        bool first = true;
        for (std::size_t k = 0; k < c.logPositions.size(); ++k) {
            const double v = std::max(c.logMaxAbs[k], lo);   // exact zeros sit on the floor
            const QPointF pt(x.map(static_cast<double>(c.logPositions[k])), y.map(v));
            if (first) path.moveTo(pt), first = false;
            else path.lineTo(pt);
        }
        p.setPen(QPen(t.series(0), t.lineWidth));
        p.drawPath(path);
    } else {
        p.setFont(t.bodyFont());
        plot::text(p, area.center(), QObject::tr("no error: double precision is the reference"), plot::Align::Center, t.muted);
    }
    vline(static_cast<double>(c.length), t.foreground, Qt::DashLine, QObject::tr("N = %1").arg(c.length), 0.7);
    if (c.firstCollision)
        vline(static_cast<double>(*c.firstCollision), t.error, Qt::DotLine,
              QObject::tr("positions collide from %1").arg(*c.firstCollision), 1.9);
    p.restore();
}

void renderPanel(QPainter& p, const QRectF& rect, const PrecisionConfigResult& c, const Theme& t) {
    p.setFont(t.titleFont());
    const double titleH = plot::lineHeight(t.titleFont());
    plot::text(p, QPointF(rect.center().x(), rect.top() + titleH * 0.6), c.title, plot::Align::Center, t.foreground);
    double top = rect.top() + titleH * 1.2;
    if (!c.error.isEmpty()) {
        p.setFont(t.bodyFont());
        const QRectF box(rect.left() + rect.width() * 0.08, top + rect.height() * 0.1, rect.width() * 0.84, rect.height());
        const double used = plot::wrappedText(p, box, c.error, t.error);
        plot::wrappedText(p, box.adjusted(0, used + plot::lineHeight(t.bodyFont()), 0, 0),
                          QObject::tr("This view shows the angle, cos and sin errors of RoPE in bfloat16, float16 or "
                                      "float32 against exact double precision, and the positions the dtype cannot "
                                      "tell apart."),
                          t.muted);
        return;
    }
    p.setFont(t.smallFont());
    const double smallH = plot::lineHeight(t.smallFont());
    plot::text(p, QPointF(rect.center().x(), top + smallH * 0.5), fit(p, c.path, rect.width() - 16), plot::Align::Center, t.muted);
    top += smallH * 1.2;
    // Caption: the pairs' colours, what a band is, the collisions.
    QStringList pairs;
    for (std::size_t i = 0; i < c.pairs.size(); ++i) pairs << QObject::tr("pair %1").arg(c.pairs[i]);
    const QString what = c.sampled ? QObject::tr("one position per column (sampled: N·r/2 > 2^22)")
                                   : QObject::tr("band = min..max over each column's positions");
    const QString collide = c.colliding > 0
                                ? QObject::tr("%1 of %2 positions collide in %3 (red marks)").arg(c.colliding).arg(c.end).arg(c.dtypeName)
                                : QObject::tr("no two positions of 0..%1 collide in %2").arg(c.end - 1).arg(c.dtypeName);
    const double captionH = smallH * 2.4;
    const QMarginsF m = plot::axesMargins(t);
    QRectF area(rect.left(), top, rect.width(), rect.bottom() - top - captionH);
    if (area.height() < 90 || area.width() < 120) return;
    const double gap = 4, h = (area.height() - 2 * gap) / 3;
    const auto sub = [&](int i) {
        return QRectF(area.left(), area.top() + i * (h + gap), area.width(), h).marginsRemoved(QMarginsF(m.left(), 4, 10, m.bottom()));
    };
    bandPlot(p, sub(0), c, c.angleMin, c.angleMax, QObject::tr("Δangle (rad)"), t);
    bandPlot(p, sub(1), c, c.cosMin, c.cosMax, QObject::tr("Δcos"), t);
    logPlot(p, sub(2), c, t);
    // Legend of the pairs (coloured), then the caption.
    p.setFont(t.smallFont());
    double lx = rect.left() + 8;
    const double ly = rect.bottom() - captionH + smallH * 0.6;
    for (std::size_t i = 0; i < c.pairs.size(); ++i) {
        const QRectF r = plot::text(p, QPointF(lx, ly), QStringLiteral("■ ") + pairs[static_cast<int>(i)], plot::Align::Left,
                                    t.series(static_cast<int>(i)));
        lx = r.right() + 10;
    }
    plot::text(p, QPointF(lx, ly), fit(p, what, rect.right() - lx - 8), plot::Align::Left, t.muted);
    plot::text(p, QPointF(rect.left() + 8, ly + smallH * 1.1), fit(p, collide, rect.width() - 16), plot::Align::Left,
               c.colliding > 0 ? t.error : t.muted);
}

}  // namespace

void renderPrecision(QPainter& p, const QRectF& rect, const PrecisionResult& result, const Theme& t) {
    plot::configColumns(p, rect, static_cast<int>(result.configs.size()), t, [&](QPainter& q, const QRectF& r, int i) {
        renderPanel(q, r, result.configs[static_cast<std::size_t>(i)], t);
    });
}

}  // namespace poslab::ui
