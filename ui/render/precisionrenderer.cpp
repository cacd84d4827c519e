#include "ui/render/precisionrenderer.h"

#include "ui/render/heatmaprenderer.h"
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
// Text as it fits in `width` (layout.h fitText: the first of the forms that fits, by rule).
FittedText fit(const QPainter& p, const QStringList& forms, double width) { return fitText(forms, p.font(), std::max(10.0, width)); }

// Column c of the result on the position axis: its middle.
double columnX(const PositionRange& r) { return 0.5 * static_cast<double>(r.from + r.to - 1); }

// The position axis of the band plots and the log axis of the third plot (as drawn above).
plot::Axis positionAxis(const QRectF& area, const PrecisionConfigResult& c) {
    return {0, static_cast<double>(std::max<std::int64_t>(c.end - 1, 1)), false, area.left(), area.right()};
}
plot::Axis logPositionAxis(const QRectF& area, const PrecisionConfigResult& c) {
    return {1, static_cast<double>(std::max<std::int64_t>(c.logEnd, 2)), true, area.left(), area.right()};
}

// "[lo, hi]" or the one value where the column holds one (or the error's min equals its max).
QString span(double lo, double hi) {
    if (!std::isfinite(lo) || !std::isfinite(hi)) return QObject::tr("none");
    if (lo == hi) return formatValue(lo);
    return QStringLiteral("%1 … %2").arg(formatValue(lo), formatValue(hi));
}

// The position a sampled column holds (computePrecision: its middle one).
std::int64_t columnSample(const PositionRange& r) { return r.from + (r.size() - 1) / 2; }


// The bands of one quantity (per pair: min and max per column) in a plot rectangle, with the
// collision strip under it.
void bandPlot(QPainter& p, const QRectF& area, const PrecisionConfigResult& c, const std::vector<std::vector<double>>& lo,
              const std::vector<std::vector<double>>& hi, const QStringList& yLabel, const Theme& t) {
    double yMax = 0;
    for (std::size_t i = 0; i < lo.size(); ++i)
        for (std::size_t k = 0; k < lo[i].size(); ++k)
            if (std::isfinite(lo[i][k]) && std::isfinite(hi[i][k])) yMax = std::max({yMax, std::abs(lo[i][k]), std::abs(hi[i][k])});
    if (yMax <= 0) yMax = 1;   // no error at all (double): a flat line at 0 on ±1
    yMax *= 1.08;
    const plot::Axis x = positionAxis(area, c);
    const plot::Axis y{-yMax, yMax, false, area.bottom(), area.top()};
    plot::axes(p, area, x, y, t, QStringList{QObject::tr("position")}, yLabel, true, ticksFor(area.width(), 6), 5);
    p.save();
    p.setClipRect(area);
    // Column centres in pixels (a column's band spans to the next column's centre).
    std::vector<double> px(c.columns.size());
    for (std::size_t k = 0; k < c.columns.size(); ++k) px[k] = x.map(columnX(c.columns[k]));
    for (std::size_t i = 0; i < lo.size(); ++i) {
        QColor col = t.series(static_cast<int>(i));
        QPainterPath top, bottom;
        std::vector<QRectF> band;
        band.reserve(c.columns.size());
        bool first = true;
        for (std::size_t k = 0; k < c.columns.size(); ++k) {
            if (!std::isfinite(lo[i][k])) continue;
            const QPointF a(px[k], y.map(hi[i][k])), b(px[k], y.map(lo[i][k]));
            if (first) {
                top.moveTo(a);
                bottom.moveTo(b);
                first = false;
            } else {
                top.lineTo(a);
                bottom.lineTo(b);
            }
            const double half = 0.5 * (k + 1 < px.size() ? px[k + 1] - px[k] : k > 0 ? px[k] - px[k - 1] : 2.0);
            band.emplace_back(QPointF(px[k] - half, a.y()), QPointF(px[k] + half, b.y()));
        }
        // The band between the two envelopes: one rectangle per column, without antialiasing
        // (a band of hundreds of noisy columns filled as one polygon crosses each scanline
        // hundreds of times, and Qt's rasterisers are quadratic in that: 20–40 ms of the view at
        // N = 8192); then its edges over it.
        QColor fill = col;
        fill.setAlphaF(0.35);
        p.setRenderHint(QPainter::Antialiasing, false);
        p.setPen(Qt::NoPen);
        p.setBrush(fill);
        p.drawRects(band.data(), static_cast<int>(band.size()));
        p.setBrush(Qt::NoBrush);
        p.setRenderHint(QPainter::Antialiasing, true);
        // The edges: with a column every two pixels or more (a short sequence: the band is the
        // curve itself) at the theme's line width, as every other curve; with dense columns,
        // hairlines (one device pixel, Qt's cosmetic stroker, for the same reason as the band).
        const bool sparse = static_cast<double>(c.columns.size()) * 2 <= area.width();
        QPen edge(col, sparse ? t.lineWidth : std::min(1.0, t.lineWidth * 0.8));
        edge.setCosmetic(!sparse);
        edge.setJoinStyle(Qt::RoundJoin);
        p.setPen(edge);
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

// The log plot's axis titles, longest form first. It plots the cos/sin error, not the angle's
// (the plot above it): the position axis's title names cos and sin in every form, since the value
// axis along a short plot (a slide) may hold no more than "max |Δ|".
QStringList logPlotValueTitles() { return {QObject::tr("max |Δcos|, |Δsin|"), QObject::tr("|Δcos|, |Δsin|"), QObject::tr("max |Δ|")}; }
QStringList logPlotPositionTitles(std::size_t samples) {
    return {QObject::tr("max |Δcos|, |Δsin| against position (log, %1 samples)").arg(samples),
            QObject::tr("max |Δcos|, |Δsin| against position (log)"), QObject::tr("|Δcos|, |Δsin| against position (log)"),
            QObject::tr("|Δcos|, |Δsin| by log position"), QObject::tr("|Δcos|, |Δsin|")};
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
    const plot::Axis x = logPositionAxis(area, c);
    const plot::Axis y{lo, hi, true, area.bottom(), area.top()};
    plot::axes(p, area, x, y, t, logPlotPositionTitles(c.logPositions.size()), logPlotValueTitles(), true,
               ticksFor(area.width(), 7), 5);
    p.save();
    p.setClipRect(area);
    // The lines are named in the caption below the plots (a label inside the plot would be drawn
    // over the curve).
    const auto vline = [&](double pos, const QColor& col, Qt::PenStyle style) {
        if (pos < 1 || pos > x.hi) return;
        const double px = x.map(pos);
        p.setPen(QPen(col, t.lineWidth, style));
        p.drawLine(QPointF(px, area.top()), QPointF(px, area.bottom()));
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
    vline(static_cast<double>(c.length), t.foreground, Qt::DashLine);
    if (c.firstCollision) vline(static_cast<double>(*c.firstCollision), t.error, Qt::DotLine);
    p.restore();
}

void renderPanel(QPainter& p, const PrecisionPanelLayout& l, const PrecisionConfigResult& c, const Theme& t) {
    const QRectF& rect = l.column;
    p.setFont(t.titleFont());
    const double titleH = plot::lineHeight(t.titleFont());
    // Fitted to the column (a slide's large type): shortened by rule, never cut at both edges.
    plot::text(p, QPointF(rect.center().x(), rect.top() + titleH * 0.6), fit(p, {c.title}, rect.width() - 16), plot::Align::Center,
               t.foreground);
    if (!c.error.isEmpty()) {
        p.setFont(t.bodyFont());
        const double top = rect.top() + titleH * 1.2;
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
    plot::text(p, QPointF(rect.center().x(), rect.top() + titleH * 1.2 + smallH * 0.5), fit(p, {c.path}, rect.width() - 16),
               plot::Align::Center, t.muted);
    // Caption: the pairs' colours, what a band is, the collisions.
    QStringList pairs;
    for (std::size_t i = 0; i < c.pairs.size(); ++i) pairs << QObject::tr("pair %1").arg(c.pairs[i]);
    const bool onePerColumn = std::all_of(c.columns.begin(), c.columns.end(), [](const PositionRange& r) { return r.size() == 1; });
    const QStringList what = onePerColumn ? QStringList{QObject::tr("every position drawn")}
                           : c.sampled ? QStringList{QObject::tr("one position per column (sampled: N·r/2 > 2^22)"),
                                                     QObject::tr("one position per column"), QObject::tr("sampled")}
                                       : QStringList{QObject::tr("band = min..max over each column's positions"),
                                                     QObject::tr("band = min..max per column"), QObject::tr("band: min..max")};
    // Longest first: what collides, what the log plot's vertical lines mark; then shorter.
    const QString collided = c.colliding > 0
                                 ? QObject::tr("%1 of %2 positions collide in %3 (red marks)").arg(c.colliding).arg(c.end).arg(c.dtypeName)
                                 : QObject::tr("no two positions of 0..%1 collide in %2").arg(c.end - 1).arg(c.dtypeName);
    const QString shortCollided = c.colliding > 0 ? QObject::tr("%1 of %2 collide in %3").arg(c.colliding).arg(c.end).arg(c.dtypeName)
                                                  : QObject::tr("no collisions in %1").arg(c.dtypeName);
    const QString marks = (c.firstCollision ? QObject::tr(" · red dotted: first collision at %1").arg(*c.firstCollision) : QString()) +
                          QObject::tr(" · dashed: N = %1").arg(c.length);
    const QStringList collide{collided + marks, collided, shortCollided};
    if (l.angle.isEmpty()) return;
    bandPlot(p, l.angle, c, c.angleMin, c.angleMax, {QObject::tr("Δangle (rad)"), QObject::tr("Δangle")}, t);
    if (!l.cos.isEmpty()) bandPlot(p, l.cos, c, c.cosMin, c.cosMax, {QObject::tr("Δcos")}, t);
    if (!l.log.isEmpty()) logPlot(p, l.log, c, t);
    if (!l.heatmap.isEmpty() && !c.scoreError.panels.empty()) {
        p.save();
        p.setClipRect(l.heatmap);
        renderHeatmap(p, l.heatmap, c.scoreError, t);
        p.restore();
    }
    if (!l.heatmapLeftOut.isEmpty() && !c.scoreError.panels.empty()) {
        p.setFont(t.smallFont());
        plot::text(p, QPointF(l.heatmapLeftOut.left(), l.heatmapLeftOut.center().y()),
                   fit(p, {QObject::tr("score error heatmap: no room at this size"), QObject::tr("heatmap: no room")}, l.heatmapLeftOut.width()),
                   plot::Align::Left, t.muted);
    }
    // Legend of the pairs (coloured), then the caption.
    p.setFont(t.smallFont());
    double lx = rect.left() + 8;
    const double ly = l.captionTop + smallH * 0.6;
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

namespace {
// Whether the score error heatmaps are drawn with square cells (the scene's heatmapSquareCells).
bool precisionSquareCells(const PrecisionResult& result) {
    return std::any_of(result.configs.begin(), result.configs.end(), [](const PrecisionConfigResult& c) { return c.scoreError.squareCells; });
}
}  // namespace

std::vector<PrecisionPanelLayout> layoutPrecision(const QRectF& rect, int configs, const Theme& t, bool square) {
    std::vector<PrecisionPanelLayout> out;
    const int n = std::max(1, configs);
    const double w = rect.width() / n;
    const double titleH = plot::lineHeight(t.titleFont()), smallH = plot::lineHeight(t.smallFont());
    const QMarginsF m = plot::axesMargins(t);
    for (int i = 0; i < configs; ++i) {
        PrecisionPanelLayout l;
        l.column = QRectF(rect.left() + i * w, rect.top(), w, rect.height());
        const double top = l.column.top() + titleH * 1.2 + smallH * 1.2;
        const double captionH = smallH * 2.4;
        l.captionTop = l.column.bottom() - captionH;
        QRectF area(l.column.left(), top, l.column.width(), l.captionTop - top);
        if (area.height() < 90 || area.width() < 120) {
            out.push_back(l);
            continue;
        }
        // The score error heatmap beside the three plots when the column is wide, else below them.
        QRectF plots = area;
        if (area.width() >= 1.6 * area.height()) {
            const double hw = std::min(area.width() * 0.4, area.height() * 1.25);
            l.heatmap = QRectF(area.right() - hw, area.top(), hw, area.height());
            plots.setRight(l.heatmap.left() - 6);
        } else if (area.height() >= 300) {
            // Square cells in a strip as wide as the column would leave it small: it takes more
            // of the height (the plots above make room by rule: fewer of them).
            const double hh = square ? std::min(area.width() * 0.8, area.height() * 0.5) : area.height() * 0.4;
            l.heatmap = QRectF(area.left(), area.bottom() - hh, area.width(), hh);
            plots.setBottom(l.heatmap.top() - 6);
        }
        // Cells too small to read: the heatmap gives its room to the plots, a line says so.
        if (!l.heatmap.isEmpty()) {
            const QRectF cells = layoutHeatmap(l.heatmap, 1, t, square).front().image;
            if (std::min(cells.width(), cells.height()) < minPlotSide(t)) {
                l.heatmap = QRectF();
                plots = area.adjusted(0, 0, 0, -smallH - 4);
                l.heatmapLeftOut = QRectF(area.left() + 8, area.bottom() - smallH, area.width() - 16, smallH);
            }
        }
        // Three plots (angle, cos, the log plot) where each is tall enough for its axis title's
        // shortest form along it; else the cos plot goes (the angle's error says the same), then
        // the log plot: a short panel (a slide at 1280×720) holds fewer plots, never cut titles.
        const double need = QFontMetricsF(t.bodyFont()).horizontalAdvance(logPlotValueTitles().back()) + 8;
        const double gap = 4;
        int count = 3;
        const auto plotHeight = [&](int k) { return (plots.height() - (k - 1) * gap) / k - 8 - m.bottom(); };
        while (count > 1 && plotHeight(count) < need) --count;
        const double h = (plots.height() - (count - 1) * gap) / count;
        const auto sub = [&](int k) {
            return QRectF(plots.left(), plots.top() + k * (h + gap), plots.width(), h).marginsRemoved(QMarginsF(m.left(), 4, 10, m.bottom()));
        };
        l.angle = sub(0);
        if (count == 3) l.cos = sub(1);
        if (count >= 2) l.log = sub(count - 1);
        out.push_back(l);
    }
    return out;
}

int precisionCellsFor(const QRectF& rect, int configs, const Theme& theme, double devicePixelRatio, bool square) {
    const auto l = layoutPrecision(rect, configs, theme, square);
    if (l.empty() || l.front().heatmap.isEmpty()) return 16;
    return std::min(512, heatmapCellsFor(l.front().heatmap, 1, theme, devicePixelRatio, square));
}

void renderPrecision(QPainter& p, const QRectF& rect, const PrecisionResult& result, const Theme& t) {
    const auto layout = layoutPrecision(rect, static_cast<int>(result.configs.size()), t, precisionSquareCells(result));
    plot::configColumns(p, rect, static_cast<int>(result.configs.size()), t, [&](QPainter& q, const QRectF&, int i) {
        renderPanel(q, layout[static_cast<std::size_t>(i)], result.configs[static_cast<std::size_t>(i)], t);
    });
}

QString precisionToolTip(const QRectF& rect, const PrecisionResult& result, const Theme& t, const QPointF& point) {
    const auto layout = layoutPrecision(rect, static_cast<int>(result.configs.size()), t, precisionSquareCells(result));
    for (std::size_t k = 0; k < layout.size(); ++k) {
        const PrecisionPanelLayout& l = layout[k];
        const PrecisionConfigResult& c = result.configs[k];
        if (!l.column.contains(point) || !c.error.isEmpty()) continue;
        if (l.heatmap.contains(point) && !c.scoreError.panels.empty()) {
            const auto hit = hitTestHeatmap(l.heatmap, c.scoreError, t, point);
            return hit ? c.title + QLatin1Char('\n') + heatmapToolTip(c.scoreError, *hit) : QString();
        }
        if ((l.angle.contains(point) || l.cos.contains(point)) && !c.columns.empty()) {
            // The column under the cursor: the positions it stands for, each pair's errors there.
            const double pos = positionAxis(l.angle, c).unmap(point.x());
            auto it = std::upper_bound(c.columns.begin(), c.columns.end(), pos,
                                       [](double x, const PositionRange& r) { return x < static_cast<double>(r.to) - 0.5; });
            if (it == c.columns.end()) --it;
            const auto col = static_cast<std::size_t>(it - c.columns.begin());
            const PositionRange& r = *it;
            QString s = c.title + QLatin1Char('\n') + c.path + QLatin1Char('\n');
            s += r.size() == 1 ? QObject::tr("position %1").arg(r.from)
                               : c.sampled ? QObject::tr("position %1 (sampled for %2 … %3)").arg(columnSample(r)).arg(r.from).arg(r.to - 1)
                                           : QObject::tr("positions %1 … %2").arg(r.from).arg(r.to - 1);
            if (c.columnCollides[col]) s += QObject::tr(" · collides in %1").arg(c.dtypeName);
            for (std::size_t i = 0; i < c.pairs.size(); ++i)
                s += QLatin1Char('\n') + QObject::tr("pair %1: Δangle = %2 rad, Δcos = %3, Δsin = %4")
                                              .arg(c.pairs[i])
                                              .arg(span(c.angleMin[i][col], c.angleMax[i][col]), span(c.cosMin[i][col], c.cosMax[i][col]),
                                                   span(c.sinMin[i][col], c.sinMax[i][col]));
            return s;
        }
        if (l.log.contains(point) && !c.logPositions.empty()) {
            // The nearest sampled position on the log axis.
            const double pos = logPositionAxis(l.log, c).unmap(point.x());
            std::size_t best = 0;
            for (std::size_t i = 1; i < c.logPositions.size(); ++i)
                if (std::abs(std::log(static_cast<double>(c.logPositions[i]) / pos)) <
                    std::abs(std::log(static_cast<double>(c.logPositions[best]) / pos)))
                    best = i;
            return c.title + QLatin1Char('\n') +
                   QObject::tr("position %1: max over the pairs of |Δcos|, |Δsin| = %2")
                       .arg(c.logPositions[best])
                       .arg(formatValue(c.logMaxAbs[best]));
        }
    }
    return {};
}

}  // namespace poslab::ui
