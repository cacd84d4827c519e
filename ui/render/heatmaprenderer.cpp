#include "ui/render/heatmaprenderer.h"

#include "ui/render/layout.h"
#include "ui/render/vectorcells.h"
#include "ui/render/plot.h"
#include "ui/model/sceneparams.h"

#include <QFontMetricsF>
#include <QObject>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

namespace {

struct Metrics {
    double title, sub, tickW, small, body, barW, barGap, barLabelW;
};

Metrics metrics(const Theme& t) {
    Metrics m;
    m.title = plot::lineHeight(t.titleFont());
    m.sub = plot::lineHeight(t.smallFont());
    m.small = m.sub;
    m.body = plot::lineHeight(t.bodyFont());
    const QFontMetricsF fm(t.smallFont());
    m.tickW = fm.horizontalAdvance(QStringLiteral("1000000"));
    m.barW = std::max(10.0, m.small * 0.8);
    m.barGap = m.small * 0.6;
    m.barLabelW = fm.horizontalAdvance(QStringLiteral("−0.0000"));
    return m;
}

// The fractional cell (column or row) where position p lies: within the block that holds it,
// its share of that block; past the ranges, the nearest end.
double positionToCell(std::int64_t p, const std::vector<PositionRange>& ranges) {
    if (ranges.empty()) return 0.5;
    auto it = std::upper_bound(ranges.begin(), ranges.end(), p,
                               [](std::int64_t x, const PositionRange& r) { return x < r.to; });
    if (it == ranges.end()) return static_cast<double>(ranges.size()) - 0.5;
    const auto k = static_cast<double>(it - ranges.begin());
    if (p < it->from) return k;
    return k + (static_cast<double>(p - it->from) + 0.5) / static_cast<double>(it->size());
}

// Zoomed: the window shown is not the whole N × N matrix.
bool zoomed(const HeatmapResult& r) {
    return r.queryTo > r.queryFrom && (r.queryFrom > 0 || r.queryTo < r.length || r.keyFrom > 0 || r.keyTo < r.length);
}

QString statName(Aggregate a) {
    return a == Aggregate::Mean ? QObject::tr("mean") : a == Aggregate::Max ? QObject::tr("max") : QObject::tr("min");
}

// "556×556": the size of the blocks (all but the last row/column, which may be shorter).
QString blockSize(const HeatmapPanel& p) {
    const auto q = p.queryRanges.empty() ? 1 : p.queryRanges.front().size();
    const auto k = p.keyRanges.empty() ? 1 : p.keyRanges.front().size();
    return QStringLiteral("%1×%2").arg(q).arg(k);
}

}  // namespace

QString heatmapCellsText(const HeatmapPanel& p) {
    switch (p.cells) {
    case HeatmapCells::Exact: return {};
    case HeatmapCells::Aggregate:
        if (p.difference && p.aggregate != Aggregate::Mean)
            return QObject::tr("difference of the %1 of %2 blocks").arg(p.aggregate == Aggregate::Max ? QObject::tr("maxima")
                                                                                                         : QObject::tr("minima"),
                                                                         blockSize(p));
        return QObject::tr("%1 of %2 blocks").arg(statName(p.aggregate), blockSize(p));
    case HeatmapCells::Sample:
        return QObject::tr("%1 × %2 samples (one cell per %3 block)").arg(p.queries.size()).arg(p.keys.size()).arg(blockSize(p));
    }
    return {};
}

bool heatmapCellMasked(const HeatmapPanel& panel, bool causal, Eigen::Index row, Eigen::Index col) {
    if (!std::isfinite(panel.values(row, col))) return true;
    // A block is masked when none of its cells is visible (its value is then −inf); a single
    // cell, exact or sampled, when its key lies after its query.
    if (!causal || panel.cells == HeatmapCells::Aggregate || panel.keys.empty() || panel.queries.empty()) return false;
    return panel.keys[static_cast<std::size_t>(col)] > panel.queries[static_cast<std::size_t>(row)];
}

namespace {

QString subtitle(const HeatmapResult& r, const HeatmapPanel& p) {
    QString what = p.difference ? QObject::tr("difference") : r.softmax ? QObject::tr("softmax weights")
                                                                         : QObject::tr("scores");
    QStringList parts{what};
    if (r.causal) parts << QObject::tr("causal");
    parts << QStringLiteral("N = %1").arg(r.length);
    if (!r.content.isEmpty()) parts << r.content;
    if (zoomed(r))
        parts << QObject::tr("i %1–%2, j %3–%4").arg(r.queryFrom).arg(r.queryTo - 1).arg(r.keyFrom).arg(r.keyTo - 1);
    if (const QString cells = heatmapCellsText(p); !cells.isEmpty()) parts << cells;
    return parts.join(QStringLiteral(" · "));
}

}  // namespace

PanelChrome heatmapChrome(const Theme& theme, bool compact) {
    const Metrics m = metrics(theme);
    PanelChrome c;
    c.left = (compact ? 0 : m.body + 6) + m.tickW + 6;       // y label + tick labels
    c.right = m.barGap + m.barW + 6 + m.barLabelW + 6;        // colour bar + its labels
    c.top = m.title + (compact ? 0 : m.sub) + 8 + m.small / 2; // title + subtitle + half the top tick label
    c.bottom = m.small + 6 + (compact ? 0 : m.body + 6);     // x tick labels + x label
    return c;
}

std::vector<HeatmapPanelLayout> layoutHeatmap(const QRectF& rect, int panels, const Theme& theme, bool square) {
    const Metrics m = metrics(theme);
    std::vector<HeatmapPanelLayout> out;
    panels = std::max(panels, 1);
    // Several panels share their axes: one strip of axis title and tick labels left of the grid,
    // one below it.
    const bool shared = panels > 1;
    const auto place = [&](bool compact) {
        PanelChrome c = heatmapChrome(theme, compact);
        if (!shared) return placePanels(rect, panels, c, square);
        const double left = c.left - 6, bottom = c.bottom - 6;
        c.left = 6;
        c.bottom = 6;
        return placePanels(rect.adjusted(left, 0, 0, -bottom), panels, c, square);
    };
    // Plots grow before text shrinks: when the full chrome would leave the cells shorter than five
    // lines of tick labels (a colour bar needs three labels), the subtitle and the axis titles go.
    auto placed = place(false);
    const bool compact = std::min(placed.front().plot.width(), placed.front().plot.height()) < m.small * 5;
    if (compact) placed = place(true);
    double firstLeft = 1e300;
    for (const auto& pl : placed) firstLeft = std::min(firstLeft, pl.area.left());
    for (const auto& pl : placed) {
        HeatmapPanelLayout l;
        l.compact = compact;
        l.area = pl.area;
        l.image = pl.plot;
        l.colorbar = QRectF(l.image.right() + m.barGap, l.image.top(), m.barW, l.image.height());
        if (shared) {
            l.yTickLabels = pl.area.left() < firstLeft + 0.5;
            l.xTickLabels = std::none_of(placed.begin(), placed.end(), [&](const PanelPlacement& o) {
                return std::abs(o.area.left() - pl.area.left()) < 0.5 && o.area.top() > pl.area.top() + 0.5;
            });
        }
        if (!compact && !shared) {
            const double w = l.image.width() + m.barGap + m.barW;
            l.xTitle = QRectF(l.image.center().x() - w / 2, l.image.bottom() + 6 + m.small, w, m.body);
            l.yTitle = QRectF(l.image.left() - 6 - m.tickW - 6 - m.body + 2, l.image.top(), m.body, l.image.height());
        }
        out.push_back(l);
    }
    if (shared && !compact) {
        // The titles next to the plots they name: left of the first column's tick labels, below
        // the last row's, over the plots' whole extent.
        double left = 1e300, right = -1e300, top = 1e300, bottom = -1e300;
        for (const auto& l : out) {
            left = std::min(left, l.image.left());
            right = std::max(right, l.colorbar.right());
            top = std::min(top, l.image.top());
            bottom = std::max(bottom, l.image.bottom());
        }
        out.front().xTitle = QRectF(left, bottom + 6 + m.small, right - left, m.body);
        out.front().yTitle = QRectF(left - 6 - m.tickW - 6 - m.body + 2, top, m.body, bottom - top);
    }
    return out;
}

int heatmapCellsFor(const QRectF& rect, int panels, const Theme& theme, double dpr, bool square) {
    // One cell per device pixel along the shorter side of the plot (so that no cell is thinner
    // than a pixel either way).
    const auto l = layoutHeatmap(rect, panels, theme, square);
    const QRectF& im = l.front().image;
    return std::max(16, static_cast<int>(std::floor(std::min(im.width(), im.height()) * dpr)));
}

std::vector<double> colorbarTicks(double lo, double hi, double barHeight, double labelHeight) {
    const auto spaced = [&](const std::vector<double>& t) {
        if (t.size() < 3) return false;
        const double px = barHeight * std::abs(t[1] - t[0]) / (hi - lo);
        return px >= labelHeight * 1.05;
    };
    if (hi > lo && std::isfinite(lo) && std::isfinite(hi)) {
        const int most = std::max(3, static_cast<int>(barHeight / (labelHeight * 1.6)));
        for (int m = std::min(most, 4); m <= most + 6; ++m) {
            auto t = plot::ticks(lo, hi, m);
            if (t.size() >= 3 && t.size() <= static_cast<std::size_t>(most) && spaced(t)) return t;
        }
        // Three labels need two label heights between the ends; a shorter bar gets what fits.
        if (barHeight >= labelHeight * 2.1) return {lo, (lo + hi) / 2, hi};
        if (barHeight >= labelHeight * 1.05) return {lo, hi};
        return {};
    }
    // A flat panel: the one value in the middle, one unit of its last significant digit either side.
    const double v = std::isfinite(lo) ? lo : 0.0;
    const double d = v == 0 ? 1.0 : std::pow(10.0, std::floor(std::log10(std::abs(v))) - 3);
    return {v - d, v, v + d};
}

ColorScale heatmapScale(const HeatmapPanel& panel) {
    ColorScale s;
    s.kind = panel.diverging ? ColormapKind::Diverging : ColormapKind::Viridis;
    s.lo = panel.lo;
    s.hi = panel.hi;
    return s;
}

QImage heatmapImage(const HeatmapPanel& panel, const Theme& theme, bool causal) {
    const int rows = static_cast<int>(panel.values.rows()), cols = static_cast<int>(panel.values.cols());
    QImage img(std::max(cols, 1), std::max(rows, 1), QImage::Format_RGB32);
    img.fill(theme.masked);
    const ColorScale s = heatmapScale(panel);
    const QRgb masked = theme.masked.rgb();
    // The same mapping as ColorScale::rgb (t = (v − lo)/(hi − lo), entry floor(t·255 + 0.5),
    // clamped), inlined: this loop runs for every cell on every live update.
    const auto& table = s.kind == ColormapKind::Diverging ? kDivergingRgb : kViridisRgb;
    const bool flat = !(s.hi > s.lo);
    const double scale = flat ? 0.0 : 255.0 / (s.hi - s.lo);
    const std::uint32_t mid = 0xff000000u | table[colormapIndex(0.5)];
    for (int r = 0; r < rows; ++r) {
        auto* line = reinterpret_cast<QRgb*>(img.scanLine(r));
        const double* v = panel.values.data() + static_cast<std::ptrdiff_t>(r) * cols;
        const bool cellMask = causal && panel.cells != HeatmapCells::Aggregate && !panel.keys.empty() && !panel.queries.empty();
        const auto qpos = panel.queries.empty() ? 0 : panel.queries[static_cast<std::size_t>(r)];
        for (int c = 0; c < cols; ++c) {
            const double x = v[c];
            if (!std::isfinite(x) || (cellMask && panel.keys[static_cast<std::size_t>(c)] > qpos)) {
                line[c] = masked;
                continue;
            }
            if (flat) {
                line[c] = mid;
                continue;
            }
            const double u = (x - s.lo) * scale + 0.5;
            const int k = u <= 0.0 ? 0 : u >= 255.0 ? 255 : static_cast<int>(u);
            line[c] = 0xff000000u | table[static_cast<std::size_t>(k)];
        }
    }
    return img;
}

void renderHeatmap(QPainter& p, const QRectF& rect, const HeatmapResult& result, const Theme& t) {
    p.save();
    p.fillRect(rect, t.background);
    const int n = static_cast<int>(result.panels.size());
    if (n == 0) {
        p.restore();
        return;
    }
    const auto layout = layoutHeatmap(rect, n, t, result.squareCells);
    const Metrics m = metrics(t);
    for (int k = 0; k < n; ++k) {
        const auto& panel = result.panels[static_cast<std::size_t>(k)];
        const auto& l = layout[static_cast<std::size_t>(k)];
        p.setFont(t.titleFont());
        const double titleY = l.area.top() + m.title / 2 + 2;
        p.setPen(t.foreground);
        plot::text(p, QPointF(l.area.center().x(), titleY), fitText(panel.title, t.titleFont(), l.area.width() - 8),
                   plot::Align::Center, t.foreground);
        p.setFont(t.smallFont());
        if (!l.compact)
            plot::text(p, QPointF(l.area.center().x(), titleY + m.title / 2 + m.sub / 2 + 2),
                       fitText(subtitle(result, panel), t.smallFont(), l.area.width() - 8), plot::Align::Center, t.muted);
        if (!panel.error.isEmpty() || panel.values.size() == 0) {
            p.setPen(QPen(t.grid, 1));
            p.setBrush(t.panel);
            p.drawRect(l.image);
            p.setFont(t.bodyFont());
            plot::wrappedText(p, l.image.adjusted(8, 8, -8, -8),
                              panel.error.isEmpty() ? QObject::tr("computing…") : panel.error, t.error);
            continue;
        }
        // Cells, nearest neighbour.
        drawCells(p, l.image, heatmapImage(panel, t, result.causal));
        layoutRecord(p, LayoutItemKind::Plot, l.image);
        // Axes: positions of the samples.
        // Frame just outside the cells (a one-pixel cell at the edge stays visible).
        p.setPen(QPen(t.foreground, 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(l.image.adjusted(-1, -1, 0, 0));
        const auto cells = static_cast<double>(panel.keys.size());
        const double cw = l.image.width() / cells, ch = l.image.height() / static_cast<double>(panel.queries.size());
        // Integer ticks over the window shown, keys across and queries down; spaced at least
        // 1.6 widths of the widest label apart, so labels never overlap.
        const int maxTicks = std::max(2, static_cast<int>(l.image.width() / (m.tickW * 1.6)));
        p.setFont(t.smallFont());
        // Integer ticks over the window shown: keys across (keyRanges), queries down (queryRanges);
        // a label that would touch the previous one is left out.
        const auto span = [&](const std::vector<PositionRange>& r) {
            return r.empty() ? std::pair<std::int64_t, std::int64_t>{0, result.length - 1}
                             : std::pair<std::int64_t, std::int64_t>{r.front().from, r.back().to - 1};
        };
        const auto [k0, k1] = span(panel.keyRanges);
        const auto [q0, q1] = span(panel.queryRanges);
        const QFontMetricsF tickFm(t.smallFont());
        double lastRight = -1e300;
        for (std::int64_t v : plot::integerTicks(k0, k1, maxTicks)) {
            const double x = l.image.left() + positionToCell(v, panel.keyRanges) * cw;
            p.setPen(QPen(t.foreground, t.axisWidth));
            p.drawLine(QPointF(x, l.image.bottom() + 1), QPointF(x, l.image.bottom() + 5));
            const QString label = plot::tickLabel(static_cast<double>(v));
            const double w = tickFm.horizontalAdvance(label);
            if (l.xTickLabels && x - w / 2 >= lastRight + 4) {
                plot::text(p, QPointF(x, l.image.bottom() + 4 + m.small / 2), label, plot::Align::Center, t.muted);
                lastRight = x + w / 2;
            }
        }
        double lastBottom = -1e300;
        for (std::int64_t v : plot::integerTicks(q0, q1, maxTicks)) {
            const double y = l.image.top() + positionToCell(v, panel.queryRanges) * ch;
            p.setPen(QPen(t.foreground, t.axisWidth));
            p.drawLine(QPointF(l.image.left() - 6, y), QPointF(l.image.left() - 2, y));
            if (l.yTickLabels && y - m.small / 2 >= lastBottom) {
                plot::text(p, QPointF(l.image.left() - 6, y), plot::tickLabel(static_cast<double>(v)), plot::Align::Right, t.muted);
                lastBottom = y + m.small / 2;
            }
        }
        p.setFont(t.bodyFont());
        if (!l.xTitle.isEmpty())
            plot::text(p, l.xTitle.center(),
                       fitText(QStringList{QObject::tr("key position j"), QObject::tr("key j")}, t.bodyFont(), l.xTitle.width()),
                       plot::Align::Center, t.foreground);
        if (!l.yTitle.isEmpty()) {
            const FittedText yTitle =
                fitText(QStringList{QObject::tr("query position i"), QObject::tr("query i")}, t.bodyFont(), l.yTitle.height());
            p.save();
            p.translate(l.yTitle.center());
            p.rotate(-90);
            plot::text(p, QPointF(0, 0), yTitle, plot::Align::Center, t.foreground);
            p.restore();
        }
        // Colour bar.
        const ColorScale s = heatmapScale(panel);
        QImage bar(1, 256, QImage::Format_RGB32);
        for (int i = 0; i < 256; ++i)
            bar.setPixel(0, 255 - i, colormapRgb(s.kind, i / 255.0));
        drawCells(p, l.colorbar, bar);
        p.setPen(QPen(t.foreground, 1));
        p.drawRect(l.colorbar);
        layoutRecord(p, LayoutItemKind::Colorbar, l.colorbar);
        p.setFont(t.smallFont());
        // At least three labelled ticks, whatever the range (a flat difference panel too).
        const auto barValues = colorbarTicks(s.lo, s.hi, l.colorbar.height(), m.small);
        const double barLo = barValues.empty() ? s.lo : std::min(s.lo, barValues.front());
        const double barHi = barValues.empty() ? s.hi : std::max(s.hi, barValues.back());
        const plot::Axis barAxis{barLo, barHi > barLo ? barHi : barLo + 1, false, l.colorbar.bottom(), l.colorbar.top()};
        for (double v : barValues) {
            const double y = barAxis.map(v);
            p.drawLine(QPointF(l.colorbar.right(), y), QPointF(l.colorbar.right() + 4, y));
            plot::text(p, QPointF(l.colorbar.right() + 6, y), plot::tickLabel(v), plot::Align::Left, t.muted);
        }
    }
    p.restore();
}

std::optional<HeatmapHit> hitTestHeatmap(const QRectF& rect, const HeatmapResult& result, const Theme& theme,
                                         const QPointF& point) {
    const int n = static_cast<int>(result.panels.size());
    if (n == 0) return std::nullopt;
    const auto layout = layoutHeatmap(rect, n, theme, result.squareCells);
    for (int k = 0; k < n; ++k) {
        const auto& l = layout[static_cast<std::size_t>(k)];
        const auto& panel = result.panels[static_cast<std::size_t>(k)];
        if (!l.image.contains(point) || panel.values.size() == 0) continue;
        HeatmapHit h;
        h.panel = k;
        const auto cols = static_cast<int>(panel.keys.size()), rows = static_cast<int>(panel.queries.size());
        h.col = std::clamp(static_cast<int>((point.x() - l.image.left()) / l.image.width() * cols), 0, cols - 1);
        h.row = std::clamp(static_cast<int>((point.y() - l.image.top()) / l.image.height() * rows), 0, rows - 1);
        h.query = panel.queries[static_cast<std::size_t>(h.row)];
        h.key = panel.keys[static_cast<std::size_t>(h.col)];
        h.value = panel.values(h.row, h.col);
        h.masked = heatmapCellMasked(panel, result.causal, h.row, h.col);
        return h;
    }
    return std::nullopt;
}

QString heatmapToolTip(const HeatmapResult& result, const HeatmapHit& hit) {
    const auto& panel = result.panels.at(static_cast<std::size_t>(hit.panel));
    const QString what = panel.difference ? QObject::tr("difference") : result.softmax ? QObject::tr("weight")
                                                                                        : QObject::tr("score");
    QString s = panel.title + QLatin1Char('\n');
    if (panel.cells == HeatmapCells::Aggregate && std::size_t(hit.row) < panel.queryRanges.size() &&
        std::size_t(hit.col) < panel.keyRanges.size()) {
        const auto& qr = panel.queryRanges[std::size_t(hit.row)];
        const auto& kr = panel.keyRanges[std::size_t(hit.col)];
        s += QObject::tr("queries i = %1 … %2, keys j = %3 … %4").arg(qr.from).arg(qr.to - 1).arg(kr.from).arg(kr.to - 1) +
             QLatin1Char('\n');
        if (hit.masked)
            s += QObject::tr("%1: masked (causal, every j > i)").arg(what);
        else
            s += QStringLiteral("%1 of the block's %2 = %3").arg(statName(panel.aggregate), what, formatValue(hit.value));
        return s;
    }
    s += QObject::tr("query i = %1, key j = %2 (i − j = %3)").arg(hit.query).arg(hit.key).arg(hit.query - hit.key) +
         QLatin1Char('\n');
    if (panel.cells == HeatmapCells::Sample) s += QObject::tr("(a sampled cell) ");
    if (hit.masked && result.causal && hit.key > hit.query)
        s += QObject::tr("%1: masked (causal, j > i)").arg(what);
    else if (hit.masked)
        s += QObject::tr("%1: not a finite number").arg(what);
    else
        s += QStringLiteral("%1 = %2").arg(what, formatValue(hit.value));
    return s;
}

}  // namespace poslab::ui
