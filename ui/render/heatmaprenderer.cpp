#include "ui/render/heatmaprenderer.h"
#include "core/format.h"

#include "ui/render/layout.h"
#include "ui/render/vectorcells.h"
#include "ui/render/plot.h"
#include "ui/model/sceneparams.h"

#include <QFontMetricsF>
#include <QObject>

#include <algorithm>
#include <limits>
#include <cmath>

namespace poslab::ui {

namespace {

struct Metrics {
    double title, sub, tickW, small, body, barW, barGap, barLabelW, sinkW;
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
    // The sink strip: wide enough for its scale's three labels under it (sinkStripTicks; the
    // widest: "0", "0.0015", "0.003").
    m.sinkW = std::max(m.small * 2.5, fm.horizontalAdvance(QStringLiteral("0   0.0015   0.003")) + 4);
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

QString heatmapMaskText(const HeatmapPanel& p) {
    const AttentionParams& a = p.attention;
    if (a.chunk) return QObject::tr("chunks of %1").arg(*a.chunk);
    if (a.window) {
        if (p.maskCausal) return QObject::tr("window %1").arg(*a.window);
        return QObject::tr("bidirectional window %1 (|i − j| ≤ %2)").arg(*a.window).arg(*a.window / 2);
    }
    return {};
}

QString heatmapMaskReason(const HeatmapPanel& p, std::int64_t i, std::int64_t j) {
    const AttentionParams& a = p.attention;
    if (p.maskCausal && j > i) return QObject::tr("causal, j > i");
    if (a.chunk) return QObject::tr("chunk %1: j in an earlier chunk than i").arg(*a.chunk);
    if (a.window) {
        if (p.maskCausal) return QObject::tr("window %1: j ≤ i − %1").arg(*a.window);
        return QObject::tr("window %1: |i − j| > %2").arg(*a.window).arg(*a.window / 2);
    }
    return {};
}

namespace {

// The number of cells (columns or rows) before position p, a cell edge: within the block that
// holds p, its share of that block; 0 before the ranges, all of them past them.
double positionEdge(std::int64_t p, const std::vector<PositionRange>& ranges) {
    if (ranges.empty() || p <= ranges.front().from) return 0;
    if (p >= ranges.back().to) return static_cast<double>(ranges.size());
    auto it = std::upper_bound(ranges.begin(), ranges.end(), p,
                               [](std::int64_t x, const PositionRange& r) { return x < r.to; });
    const auto k = static_cast<double>(it - ranges.begin());
    return k + static_cast<double>(p - it->from) / static_cast<double>(it->size());
}

}  // namespace

std::vector<HeatmapTokenOutline> heatmapTokenOutlines(const QRectF& image, const HeatmapPanel& panel, const HeatmapResult& result) {
    std::vector<HeatmapTokenOutline> out;
    if (panel.queryRanges.empty() || panel.keyRanges.empty()) return out;
    const double cw = image.width() / static_cast<double>(panel.keyRanges.size());
    const double ch = image.height() / static_cast<double>(panel.queryRanges.size());
    const std::int64_t q0 = panel.queryRanges.front().from, q1 = panel.queryRanges.back().to;
    const std::int64_t k0 = panel.keyRanges.front().from, k1 = panel.keyRanges.back().to;
    for (const auto& b : result.tokenBlocks) {
        const std::int64_t a = std::max(b.from, q0), z = std::min(b.to, q1);
        if (z <= a) continue;
        HeatmapTokenOutline o;
        o.kind = b.kind;
        const double y0 = image.top() + positionEdge(a, panel.queryRanges) * ch, y1 = image.top() + positionEdge(z, panel.queryRanges) * ch;
        o.band = QRectF(image.left(), y0, image.width(), y1 - y0);
        const std::int64_t ka = std::max(b.from, k0), kz = std::min(b.to, k1);
        if (kz > ka) {
            const double x0 = image.left() + positionEdge(ka, panel.keyRanges) * cw, x1 = image.left() + positionEdge(kz, panel.keyRanges) * cw;
            o.square = QRectF(x0, y0, x1 - x0, y1 - y0);
        }
        out.push_back(o);
    }
    return out;
}

double heatmapPositionAtCell(double cells, const std::vector<PositionRange>& ranges) {
    if (ranges.empty()) return std::numeric_limits<double>::quiet_NaN();
    const auto n = static_cast<double>(ranges.size());
    const auto size = [](const PositionRange& r) { return static_cast<double>(r.size()); };
    if (cells < 0) return static_cast<double>(ranges.front().from) + cells * size(ranges.front());
    if (cells >= n) return static_cast<double>(ranges.back().to) + (cells - n) * size(ranges.back());
    const auto k = static_cast<std::size_t>(cells);
    return static_cast<double>(ranges[k].from) + (cells - static_cast<double>(k)) * size(ranges[k]);
}

std::vector<QLineF> heatmapMaskEdges(const QRectF& image, const HeatmapPanel& p) {
    std::vector<QLineF> out;
    if (p.queryRanges.empty() || p.keyRanges.empty()) return out;
    const AttentionParams& a = p.attention;
    const std::int64_t q0 = p.queryRanges.front().from, q1 = p.queryRanges.back().to;
    const std::int64_t k0 = p.keyRanges.front().from, k1 = p.keyRanges.back().to;
    const double cw = image.width() / static_cast<double>(p.keyRanges.size());
    const double ch = image.height() / static_cast<double>(p.queryRanges.size());
    const auto at = [&](double key, double query) {
        // Positions (cell edges) to pixels; a non-integer position between its neighbours.
        const auto edge = [](double x, const std::vector<PositionRange>& r) {
            const auto f = static_cast<std::int64_t>(std::floor(x));
            const double e0 = positionEdge(f, r), e1 = positionEdge(f + 1, r);
            return e0 + (x - static_cast<double>(f)) * (e1 - e0);
        };
        return QPointF(image.left() + edge(key, p.keyRanges) * cw, image.top() + edge(query, p.queryRanges) * ch);
    };
    // The line key = query + c (cell edges) across the window, as a polyline (the blocks may differ
    // in size at the end, so positions do not map to pixels by one affine map).
    const auto diagonal = [&](std::int64_t c) {
        const std::int64_t y0 = std::max(q0, k0 - c), y1 = std::min(q1, k1 - c);
        if (y1 <= y0) return;
        constexpr int kPieces = 32;
        QPointF prev = at(double(y0 + c), double(y0));
        for (int s = 1; s <= kPieces; ++s) {
            const double y = double(y0) + double(y1 - y0) * s / kPieces;
            const QPointF next = at(y + double(c), y);
            out.emplace_back(prev, next);
            prev = next;
        }
    };
    if (a.chunk) {
        const std::int64_t C = *a.chunk;
        if (static_cast<double>(C) * std::min(image.width() / double(k1 - k0), image.height() / double(q1 - q0)) < 3) return out;
        for (std::int64_t c = std::max(q0, k0) / C; c * C < std::min(q1, k1); ++c) {
            const std::int64_t lo = c * C, hi = lo + C;
            const QRectF r(at(double(std::max(lo, k0)), double(std::max(lo, q0))),
                           at(double(std::min(hi, k1)), double(std::min(hi, q1))));
            if (r.width() <= 0 || r.height() <= 0) continue;
            out.emplace_back(r.topLeft(), r.topRight());
            out.emplace_back(r.topRight(), r.bottomRight());
            out.emplace_back(r.bottomRight(), r.bottomLeft());
            out.emplace_back(r.bottomLeft(), r.topLeft());
        }
    } else if (a.window) {
        const std::int64_t W = *a.window;
        if (p.maskCausal) {
            diagonal(-(W - 1));   // the first visible key of row i: j = i − W + 1
        } else {
            diagonal(-(W / 2));   // |i − j| <= ⌊W/2⌋: j from i − ⌊W/2⌋ to i + ⌊W/2⌋
            diagonal(W / 2 + 1);
        }
    }
    return out;
}

namespace {

QString subtitle(const HeatmapResult& r, const HeatmapPanel& p) {
    QString what = !p.quantity.isEmpty() ? p.quantity : p.difference ? QObject::tr("difference") : r.softmax ? QObject::tr("softmax weights")
                                                                         : QObject::tr("scores");
    QStringList parts{what};
    if (r.causal) parts << QObject::tr("causal");
    if (const QString mask = heatmapMaskText(p); !mask.isEmpty()) parts << mask;
    parts << QStringLiteral("N = %1").arg(r.length);
    if (!r.content.isEmpty()) parts << r.content;
    if (!r.tokenBlocks.empty()) {
        bool video = false, image = false;
        for (const auto& b : r.tokenBlocks) (b.kind == 2 ? video : image) = true;
        parts << (image && video ? QObject::tr("outlined: image and video tokens as queries")
                  : video        ? QObject::tr("outlined: video tokens as queries")
                                 : QObject::tr("outlined: image tokens as queries"));
    }
    if (zoomed(r))
        parts << QObject::tr("i %1–%2, j %3–%4").arg(r.queryFrom).arg(r.queryTo - 1).arg(r.keyFrom).arg(r.keyTo - 1);
    if (const QString cells = heatmapCellsText(p); !cells.isEmpty()) parts << cells;
    return parts.join(QStringLiteral(" · "));
}

}  // namespace

PanelChrome heatmapChrome(const Theme& theme, bool compact, bool sinkStrip) {
    const Metrics m = metrics(theme);
    PanelChrome c;
    c.left = (compact ? 0 : m.body + 6) + m.tickW + 6;       // y label + tick labels
    c.right = m.barGap + m.barW + 6 + m.barLabelW + 6;        // colour bar + its labels
    if (sinkStrip) c.right += m.barGap + m.sinkW;             // the sink strip before the colour bar
    c.top = m.title + (compact ? 0 : m.sub) + 8 + m.small / 2; // title + subtitle + half the top tick label
    c.bottom = m.small + 6 + (compact ? 0 : m.body + 6);     // x tick labels + x label
    c.minPlotHeight = m.small * 2.1;                         // the colour bar's three labels (colorbarTicks)
    return c;
}

int heatmapDifferences(const HeatmapResult& result) {
    int n = 0;
    for (auto it = result.panels.rbegin(); it != result.panels.rend() && it->difference; ++it) ++n;
    return n;
}

namespace {
std::vector<HeatmapPanelLayout> layoutHeatmapPanels(const QRectF& rect, int panels, const Theme& theme, bool square, bool sinkStrip);
}

std::vector<HeatmapPanelLayout> layoutHeatmap(const QRectF& rect, int panels, const Theme& theme, bool square, bool sinkStrip,
                                              int differences, const QString& note) {
    if (!note.isEmpty()) {
        // The note's lines under everything else, wrapped to the width (never cut).
        const QRectF noteRect(rect.left() + 6, 0, std::max(1.0, rect.width() - 12), 0);
        const double h = std::ceil(plot::wrappedTextHeight(theme.smallFont(), noteRect.width(), note)) + 4;
        auto out = layoutHeatmap(rect.adjusted(0, 0, 0, -h), panels, theme, square, sinkStrip, differences);
        out.front().note = QRectF(noteRect.left(), rect.bottom() - h + 2, noteRect.width(), h - 2);
        return out;
    }
    panels = std::max(panels, 1);
    differences = std::clamp(differences, 0, panels - 1);
    auto all = layoutHeatmapPanels(rect, panels, theme, square, sinkStrip);
    const auto side = [](const std::vector<HeatmapPanelLayout>& l) { return std::min(l.front().image.width(), l.front().image.height()); };
    const double minSide = minPlotSide(theme);
    if (differences == 0 || side(all) >= minSide) return all;
    // The differences give way: the configurations' own panels take the room, above a line
    // that says what is left out.
    const double line = metrics(theme).small + 4;
    auto own = layoutHeatmapPanels(rect.adjusted(0, 0, 0, -line), panels - differences, theme, square, sinkStrip);
    if (side(own) < side(all)) return all;
    own.front().leftOut = QRectF(rect.left() + 6, rect.bottom() - line, rect.width() - 12, line);
    for (int k = 0; k < differences; ++k) {
        HeatmapPanelLayout hidden;
        hidden.shown = false;
        hidden.compact = own.front().compact;
        own.push_back(hidden);
    }
    return own;
}

namespace {
std::vector<HeatmapPanelLayout> layoutHeatmapPanels(const QRectF& rect, int panels, const Theme& theme, bool square, bool sinkStrip) {
    const Metrics m = metrics(theme);
    std::vector<HeatmapPanelLayout> out;
    panels = std::max(panels, 1);
    // Several panels share their axes: one strip of axis title and tick labels left of the grid,
    // one below it.
    const bool shared = panels > 1;
    const auto place = [&](bool compact) {
        PanelChrome c = heatmapChrome(theme, compact, sinkStrip);
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
        double x = l.image.right() + m.barGap;
        if (sinkStrip) {
            l.sink = QRectF(x, l.image.top(), m.sinkW, l.image.height());
            x = l.sink.right() + m.barGap;
        }
        l.colorbar = QRectF(x, l.image.top(), m.barW, l.image.height());
        if (shared) {
            l.yTickLabels = pl.area.left() < firstLeft + 0.5;
            l.xTickLabels = std::none_of(placed.begin(), placed.end(), [&](const PanelPlacement& o) {
                return std::abs(o.area.left() - pl.area.left()) < 0.5 && o.area.top() > pl.area.top() + 0.5;
            });
        }
        if (!compact && !shared) {
            // The key axis title under the cells and the colour bar (under the cells alone with a
            // sink strip, whose scale's labels sit under it).
            const double w = l.sink.isEmpty() ? l.image.width() + m.barGap + m.barW : l.image.width();
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
}  // namespace

bool heatmapHasSinkStrip(const HeatmapResult& result) {
    return std::any_of(result.panels.begin(), result.panels.end(),
                       [](const HeatmapPanel& p) { return !p.sinkMass.empty() || !p.sinkError.isEmpty(); });
}

bool heatmapHasSinkStrip(const SceneParams& scene) {
    for (int c = 0; c < static_cast<int>(scene.methods.size()); ++c)
        if (effectiveParams(scene, c).sinkLogit()) return true;
    return false;
}

int heatmapCellsFor(const QRectF& rect, int panels, const Theme& theme, double dpr, bool square, bool sinkStrip, int differences,
                    const QString& note) {
    // One cell per device pixel along the shorter side of the plot (so that no cell is thinner
    // than a pixel either way).
    const auto l = layoutHeatmap(rect, panels, theme, square, sinkStrip, differences, note);
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

std::vector<double> sinkStripTicks(double maxMass) {
    if (!(maxMass > 0) || !std::isfinite(maxMass)) return {0.0, 0.5, 1.0};
    const double half = maxMass / 2;
    double mag = std::pow(10.0, std::floor(std::log10(half)));
    for (int round = 0; round < 2; ++round, mag *= 10)
        for (double f : {1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0}) {
            const double s = f * mag;
            if (s * 2 >= maxMass * (1 - 1e-12)) return {0.0, s, 2 * s};
        }
    return {0.0, half, maxMass};
}

namespace {
QString sinkStripLabel(double v) {
    if (v == 0 || std::abs(v) >= 1e-3 || !std::isfinite(v)) return plot::tickLabel(v);
    return QString::fromStdString(formatScientific(v, 3));
}
}  // namespace

QStringList sinkStripLabels(const std::vector<double>& ticks) {
    QStringList labels;
    for (double v : ticks) labels << sinkStripLabel(v);
    return plot::labelsOneWay(ticks, labels);
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

namespace {

// The window's or chunks' edges over the cells: thin lines in the foreground colour.
void drawMaskEdges(QPainter& p, const QRectF& image, const HeatmapPanel& panel, const Theme& t) {
    const auto edges = heatmapMaskEdges(image, panel);
    if (edges.empty()) return;
    p.save();
    p.setClipRect(image);
    p.setPen(QPen(t.foreground, 1));
    p.drawLines(edges.data(), static_cast<int>(edges.size()));
    p.restore();
}

// The images and videos of the token layout: each one's band of query rows outlined in its kind's
// colour (the positions view's: series 1 image, 2 video), its own square dashed.
void drawTokenOutlines(QPainter& p, const QRectF& image, const HeatmapPanel& panel, const HeatmapResult& result, const Theme& t) {
    const auto outlines = heatmapTokenOutlines(image, panel, result);
    if (outlines.empty()) return;
    p.save();
    p.setClipRect(image.adjusted(-2, -2, 2, 2));
    p.setBrush(Qt::NoBrush);
    for (const auto& o : outlines) {
        const QColor c = t.series(o.kind);
        p.setPen(QPen(c, 2));
        p.drawRect(o.band);
        if (!o.square.isEmpty()) {
            p.setPen(QPen(c, 1.5, Qt::DashLine));
            p.drawRect(o.square);
        }
    }
    p.restore();
}

// Each row's sink mass p_sink as a bar from the strip's left edge, on the strip's own scale
// 0 … top (sinkStripTicks: three labelled ticks under the strip, what the bars are under them).
void drawSinkStrip(QPainter& p, const HeatmapPanelLayout& l, const HeatmapPanel& panel, const Theme& t, const Metrics& m) {
    p.save();
    p.setPen(QPen(t.grid, 1));
    p.setBrush(t.panel);
    p.drawRect(l.sink);
    layoutRecord(p, LayoutItemKind::Plot, l.sink);
    if (panel.sinkMass.empty()) {
        p.restore();
        return;
    }
    double most = 0;
    for (double v : panel.sinkMass) most = std::max(most, v);
    const std::vector<double> ticks = sinkStripTicks(most);
    const double scale = ticks.back();
    const double rh = l.sink.height() / static_cast<double>(panel.sinkMass.size());
    // Grid lines at the inner ticks, under the bars.
    p.setPen(QPen(t.grid, 1));
    for (std::size_t k = 1; k + 1 < ticks.size(); ++k) {
        const double x = l.sink.left() + l.sink.width() * ticks[k] / scale;
        p.drawLine(QPointF(x, l.sink.top()), QPointF(x, l.sink.bottom()));
    }
    p.setPen(Qt::NoPen);
    p.setBrush(t.series(0));
    for (std::size_t r = 0; r < panel.sinkMass.size(); ++r)
        p.drawRect(QRectF(l.sink.left(), l.sink.top() + static_cast<double>(r) * rh,
                          l.sink.width() * std::clamp(panel.sinkMass[r] / scale, 0.0, 1.0), std::max(rh, 0.5)));
    p.setFont(t.smallFont());
    const double y = l.sink.bottom() + 4 + m.small / 2;
    p.setPen(QPen(t.foreground, t.axisWidth));
    std::optional<LayoutGroup> group(std::in_place);
    const QStringList labels = sinkStripLabels(ticks);
    for (std::size_t k = 0; k < ticks.size(); ++k) {
        const double x = l.sink.left() + l.sink.width() * ticks[k] / scale;
        p.drawLine(QPointF(x, l.sink.bottom()), QPointF(x, l.sink.bottom() + 3));
        const plot::Align a = k == 0 ? plot::Align::Left : k + 1 == ticks.size() ? plot::Align::Right : plot::Align::Center;
        plot::text(p, QPointF(x, y), labels[qsizetype(k)], a, t.muted);
    }
    group.reset();
    if (!l.compact) {
        // What a bar is: the block's statistic, one query's p_sink, or a sampled query's.
        const bool sampled = panel.sinkSampled || panel.cells == HeatmapCells::Sample;
        QStringList forms;
        if (sampled) forms = {QObject::tr("p_sink, sampled"), QObject::tr("sampled")};
        else if (panel.cells == HeatmapCells::Aggregate) forms = {QObject::tr("%1 p_sink").arg(statName(panel.aggregate)), QObject::tr("p_sink")};
        else forms = {QObject::tr("p_sink"), QObject::tr("sink")};
        p.setFont(t.bodyFont());
        plot::text(p, QPointF(l.sink.center().x(), l.sink.bottom() + 6 + m.small + m.body / 2),
                   fitText(forms, t.bodyFont(), l.sink.width() + m.barGap), plot::Align::Center, t.foreground);
    }
    p.restore();
}

}  // namespace

void renderHeatmap(QPainter& p, const QRectF& rect, const HeatmapResult& result, const Theme& t) {
    p.save();
    p.fillRect(rect, t.background);
    const int n = static_cast<int>(result.panels.size());
    if (n == 0) {
        p.restore();
        return;
    }
    const auto layout = layoutHeatmap(rect, n, t, result.squareCells, heatmapHasSinkStrip(result), heatmapDifferences(result),
                                      result.differenceNote);
    const Metrics m = metrics(t);
    // Cells smaller than a line of type show nothing: the view says so instead.
    if (std::min(layout.front().image.width(), layout.front().image.height()) < m.small) {
        p.setFont(t.bodyFont());
        plot::wrappedText(p, rect.adjusted(8, 8, -8, -8), n == 1 ? QObject::tr("no room for the heatmap at this size") : QObject::tr("no room for the %1 heatmap panels at this size").arg(n), t.muted);
        p.restore();
        return;
    }
    if (!layout.front().note.isEmpty()) {
        // Why some configurations have no difference panel: a whole sentence, wrapped.
        p.setFont(t.smallFont());
        plot::wrappedText(p, layout.front().note, result.differenceNote, t.muted);
    }
    if (!layout.front().leftOut.isEmpty()) {
        // The difference panels left out by rule, in words.
        QStringList names;
        for (const auto& panel : result.panels)
            if (panel.difference) names << panel.title;
        p.setFont(t.smallFont());
        plot::text(p, QPointF(layout.front().leftOut.left(), layout.front().leftOut.center().y()),
                   fitText(QStringList{QObject::tr("%1: no room at this size").arg(names.join(QStringLiteral(", "))),
                                       QObject::tr("differences to A: no room at this size"), QObject::tr("differences: no room")},
                           t.smallFont(), layout.front().leftOut.width()),
                   plot::Align::Left, t.muted);
    }
    for (int k = 0; k < n; ++k) {
        const auto& panel = result.panels[static_cast<std::size_t>(k)];
        const auto& l = layout[static_cast<std::size_t>(k)];
        if (!l.shown) continue;
        p.setFont(t.titleFont());
        const double titleY = l.area.top() + m.title / 2 + 2;
        p.setPen(t.foreground);
        // Shorter by rule: without its " · head h of H" tail, the panel's own short form, its
        // configuration's letter ("B" of "B: ALiBi").
        QStringList titles{panel.title};
        if (panel.title.contains(QStringLiteral(" · "))) titles << panel.title.section(QStringLiteral(" · "), 0, 0);
        if (!panel.shortTitle.isEmpty()) titles << panel.shortTitle;
        if (const auto colon = panel.title.indexOf(QStringLiteral(": ")); colon > 0 && colon <= 3) titles << panel.title.left(colon);
        plot::text(p, QPointF(l.area.center().x(), titleY), fitText(titles, t.titleFont(), l.area.width() - 8), plot::Align::Center,
                   t.foreground);
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
        // Cells, nearest neighbour (a panel that says why it has none, above, has no plot to show).
        layoutRecord(p, LayoutItemKind::Panel, l.area);
        drawCells(p, l.image, heatmapImage(panel, t, result.causal));
        layoutRecordCells(p, l.image, int(panel.keys.size()), int(panel.queries.size()));
        drawMaskEdges(p, l.image, panel, t);
        drawTokenOutlines(p, l.image, panel, result, t);
        if (!l.sink.isEmpty()) drawSinkStrip(p, l, panel, t, m);
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
        std::optional<LayoutGroup> group;   // each axis' labels, one group, written one way (plot::tickLabels)
        group.emplace();
        const auto labelsOf = [](const std::vector<std::int64_t>& ticks) {
            return plot::tickLabels(std::vector<double>(ticks.begin(), ticks.end()));
        };
        const auto keyTicks = plot::integerTicks(k0, k1, maxTicks);
        const QStringList keyLabels = labelsOf(keyTicks);
        const double gap = std::max(4.0, tickFm.horizontalAdvance(QLatin1Char(' ')));
        for (std::size_t i = 0; i < keyTicks.size(); ++i) {
            const std::int64_t v = keyTicks[i];
            const double x = l.image.left() + positionToCell(v, panel.keyRanges) * cw;
            p.setPen(QPen(t.foreground, t.axisWidth));
            p.drawLine(QPointF(x, l.image.bottom() + 1), QPointF(x, l.image.bottom() + 5));
            const QString& label = keyLabels[qsizetype(i)];
            const double w = tickFm.horizontalAdvance(label);
            // With a sink strip, its scale's labels sit under it: tick labels stay left of it.
            const bool clearOfStrip = l.sink.isEmpty() || x + w / 2 <= l.sink.left() - 4;
            if (l.xTickLabels && x - w / 2 >= lastRight + gap && clearOfStrip) {
                plot::text(p, QPointF(x, l.image.bottom() + 4 + m.small / 2), label, plot::Align::Center, t.muted);
                lastRight = x + w / 2;
            }
        }
        double lastBottom = -1e300;
        group.reset();
        group.emplace();
        const auto queryTicks = plot::integerTicks(q0, q1, maxTicks);
        const QStringList queryLabels = labelsOf(queryTicks);
        for (std::size_t i = 0; i < queryTicks.size(); ++i) {
            const std::int64_t v = queryTicks[i];
            const double y = l.image.top() + positionToCell(v, panel.queryRanges) * ch;
            p.setPen(QPen(t.foreground, t.axisWidth));
            p.drawLine(QPointF(l.image.left() - 6, y), QPointF(l.image.left() - 2, y));
            if (l.yTickLabels && y - m.small / 2 >= lastBottom) {
                plot::text(p, QPointF(l.image.left() - 6, y), queryLabels[qsizetype(i)], plot::Align::Right, t.muted);
                lastBottom = y + m.small / 2;
            }
        }
        group.reset();
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
        const LayoutGroup barGroup;
        const QStringList barLabels = plot::tickLabels(barValues);
        for (std::size_t i = 0; i < barValues.size(); ++i) {
            const double y = barAxis.map(barValues[i]);
            p.drawLine(QPointF(l.colorbar.right(), y), QPointF(l.colorbar.right() + 4, y));
            plot::text(p, QPointF(l.colorbar.right() + 6, y), barLabels[qsizetype(i)], plot::Align::Left, t.muted);
        }
    }
    p.restore();
}

std::optional<HeatmapHit> hitTestHeatmap(const QRectF& rect, const HeatmapResult& result, const Theme& theme,
                                         const QPointF& point) {
    const int n = static_cast<int>(result.panels.size());
    if (n == 0) return std::nullopt;
    const auto layout = layoutHeatmap(rect, n, theme, result.squareCells, heatmapHasSinkStrip(result), heatmapDifferences(result),
                                      result.differenceNote);
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
    const QString what = !panel.quantity.isEmpty() ? panel.quantity : panel.difference ? QObject::tr("difference") : result.softmax ? QObject::tr("weight")
                                                                                        : QObject::tr("score");
    QString s = panel.title + QLatin1Char('\n');
    if (panel.cells == HeatmapCells::Aggregate && std::size_t(hit.row) < panel.queryRanges.size() &&
        std::size_t(hit.col) < panel.keyRanges.size()) {
        const auto& qr = panel.queryRanges[std::size_t(hit.row)];
        const auto& kr = panel.keyRanges[std::size_t(hit.col)];
        s += QObject::tr("queries i = %1 … %2, keys j = %3 … %4").arg(qr.from).arg(qr.to - 1).arg(kr.from).arg(kr.to - 1) +
             QLatin1Char('\n');
        if (hit.masked) {
            const QString mask = heatmapMaskText(panel);
            s += mask.isEmpty() ? QObject::tr("%1: masked (causal, every j > i)").arg(what)
                                : QObject::tr("%1: masked (no visible cell: %2%3)")
                                      .arg(what, panel.maskCausal && !panel.attention.chunk ? QObject::tr("causal, ") : QString(), mask);
        } else {
            s += QStringLiteral("%1 of the block's visible %2s = %3").arg(statName(panel.aggregate), what, formatValue(hit.value));
        }
        if (std::size_t(hit.row) < panel.sinkMass.size()) {
            if (panel.sinkSampled)
                s += QLatin1Char('\n') + QObject::tr("sink mass p_sink of query i = %1 (sampled for the block): %2")
                                             .arg(qr.from + (qr.size() - 1) / 2)
                                             .arg(formatValue(panel.sinkMass[std::size_t(hit.row)]));
            else
                s += QLatin1Char('\n') + QObject::tr("%1 sink mass p_sink of queries i = %2 … %3: %4")
                                             .arg(statName(panel.aggregate))
                                             .arg(qr.from)
                                             .arg(qr.to - 1)
                                             .arg(formatValue(panel.sinkMass[std::size_t(hit.row)]));
        }
        return s;
    }
    s += QObject::tr("query i = %1, key j = %2 (i − j = %3)").arg(hit.query).arg(hit.key).arg(hit.query - hit.key) +
         QLatin1Char('\n');
    if (panel.cells == HeatmapCells::Sample) s += QObject::tr("(a sampled cell) ");
    const QString reason = hit.masked ? heatmapMaskReason(panel, hit.query, hit.key) : QString();
    if (hit.masked && result.causal && hit.key > hit.query)
        s += QObject::tr("%1: masked (causal, j > i)").arg(what);
    else if (hit.masked && !reason.isEmpty())
        s += QObject::tr("%1: masked (%2)").arg(what, reason);
    else if (hit.masked)
        s += QObject::tr("%1: not a finite number").arg(what);
    else
        s += QStringLiteral("%1 = %2").arg(what, formatValue(hit.value));
    if (std::size_t(hit.row) < panel.sinkMass.size())
        s += QLatin1Char('\n') + QObject::tr("sink mass p_sink of query i = %1").arg(formatValue(panel.sinkMass[std::size_t(hit.row)]));
    return s;
}

}  // namespace poslab::ui
