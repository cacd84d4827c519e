#include "ui/render/pairsrenderer.h"

#include "ui/render/vectorcells.h"

#include "ui/render/colormap.h"
#include "ui/render/heatmaprenderer.h"
#include "ui/render/plot.h"
#include "ui/render/typeset.h"
#include "ui/model/sceneparams.h"
#include "ui/render/layout.h"
#include "core/method.h"

#include <QFontMetricsF>
#include <QObject>
#include <QPainterPath>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace poslab::ui {

namespace {


double headerHeight(const PairsConfigResult& c, const Theme& t, double width, bool summary = true) {
    const double title = plot::lineHeight(t.titleFont());
    const QFontMetricsF fm(t.smallFont());
    const QRectF sum = fm.boundingRect(QRectF(0, 0, std::max(50.0, width - 8), 1000), Qt::TextWordWrap, c.summary);
    double h = title + 4 + (summary ? sum.height() + 4 : 0.0);
    if (c.rotates && c.error.isEmpty()) h += plot::lineHeight(t.smallFont()) + 4;  // legend
    if (summary && !c.note.isEmpty() && c.error.isEmpty()) {
        const QRectF note = fm.boundingRect(QRectF(0, 0, std::max(50.0, width - 8), 1000), Qt::TextWordWrap, c.note);
        h += note.height() + 2;
    }
    return h;
}

double maxRadius(const PairsResult& r) {
    double m2 = 0;
    auto grow = [&](const QPointF& v) { m2 = std::max(m2, v.x() * v.x() + v.y() * v.y()); };
    for (const auto& c : r.configs)
        for (const auto& p : c.pairs) {
            for (const auto& v : p.query) grow(v);
            for (const auto& v : p.key) grow(v);
            for (const auto& v : p.trail) grow(v);
        }
    const double m = std::sqrt(m2);
    return m > 0 && std::isfinite(m) ? m : 1.0;
}

// The side of the largest circles `k` cells get in `body` (`labelH` of text lines each, above and
// below), over every grid of columns × rows; `cols` receives the best grid's columns.
double bestCircleSide(const QRectF& body, int k, double labelH, int& cols) {
    double side = 0;
    cols = k;
    for (int c = 1; c <= k; ++c) {
        const int r = (k + c - 1) / c;
        const double sd = std::min(body.width() / c - 4, body.height() / r - labelH);
        if (sd > side + 1e-9) {
            side = sd;
            cols = c;
        }
    }
    return side;
}

// Text lines of a cell with its text (two above the circle, two below) and without (the position
// labels only: a line above and below, where they sit wholly outside the circle).
double cellLabelHeight(const Theme& t, bool cellText) {
    const double small = plot::lineHeight(t.smallFont());
    return cellText ? small * 4.6 + 8 : small * 2.0 + 4;
}

// The width the cells' text lines need in their shortest forms (renderPairs: "i = 10", the
// θ_i value, "m = 32:", the angle without its parenthesis): narrower cells would cut them.
double cellTextWidth(const PairsConfigResult& cfg, const Theme& t) {
    const QFontMetricsF fm(t.smallFont());
    int far = 0;
    for (int k = 1; k < static_cast<int>(cfg.positions.size()); ++k)
        if (cfg.positions[std::size_t(k)] > cfg.positions[std::size_t(far)]) far = k;
    double w = cfg.positions.empty() ? 0.0 : fm.horizontalAdvance(QObject::tr("m = %1:").arg(cfg.positions[std::size_t(far)]));
    for (const auto& pp : cfg.pairs) {
        w = std::max({w, fm.horizontalAdvance(QObject::tr("i = %1").arg(pp.pair)), fm.horizontalAdvance(displayValue(pp.theta))});
        if (std::size_t(far) < pp.angle.size())
            w = std::max(w, fm.horizontalAdvance(typeset(angleText(pp.angle[std::size_t(far)]).section(QStringLiteral(" ("), 0, 0))));
    }
    return w;
}

QPointF toScreen(const PairsCellLayout& l, const QPointF& v) { return {l.center.x() + v.x() * l.scale, l.center.y() - v.y() * l.scale}; }

}  // namespace

bool trailAsDots(const PairPanel& pair) {
    // A chord of angle a has length 2r·sin(a/2): 20° gives 0.347 r (compared squared).
    constexpr double kMaxChord2 = 0.347 * 0.347;
    for (std::size_t i = 1; i < pair.trail.size(); ++i) {
        const QPointF a = pair.trail[i - 1], b = pair.trail[i];
        const double r2 = std::max(QPointF::dotProduct(a, a), QPointF::dotProduct(b, b));
        const QPointF ab = b - a;
        if (r2 > 0 && QPointF::dotProduct(ab, ab) > kMaxChord2 * r2) return true;
    }
    return false;
}

QString angleText(double a) {
    const double turns = a / (2 * std::numbers::pi);
    if (std::abs(turns) >= 1.0) return QObject::tr("%1 rad (%2 turns)").arg(plot::tickLabel(a), displayValue(turns));
    return QObject::tr("%1 rad (%2°)").arg(displayValue(a), displayValue(a * 180.0 / std::numbers::pi));
}

QColor positionColor(int k, int n, const Theme& t) {
    // Sequential viridis from 0 to 0.58 (past it, its greens have less than 3:1 contrast on white); on a dark
    // background from 0.45 to 1 (below 0.45 its blues have less than 3:1 contrast on near-black).
    const bool dark = t.background.lightness() < 128;
    const double lo = dark ? 0.45 : 0.0, hi = dark ? 1.0 : 0.58;
    const double f = n <= 1 ? 0.0 : double(k) / double(n - 1);
    return QColor::fromRgb(colormapRgb(ColormapKind::Viridis, lo + f * (hi - lo)));
}

namespace {

// One configuration's pictures in `cell` (layoutPairs): the header, then the dials or the bias
// curve and table, by the rules below; `radius` is the largest vector of all configurations.
PairsRowLayout layoutPairsCell(const QRectF& cell, const PairsConfigResult& cfg, const Theme& t, double radius) {
    PairsRowLayout r;
    r.row = cell;
    const double small = plot::lineHeight(t.smallFont());
    const double minSide = minPlotSide(t);
    // No plot fits: the title, and under it (else beside it) what could not be drawn.
    const auto noRoom = [&](PairsRowLayout x, const QString& sentence) {
        x.summary = false;
        x.legend = false;
        x.cells.clear();
        x.curveText = x.curve = x.table = x.tableBar = QRectF();
        x.plotSide = 0;
        const double th = plot::lineHeight(t.titleFont());
        x.header = QRectF(cell.left() + 4, cell.top() + 2, cell.width() - 8, std::min(th + 4, std::max(0.0, cell.height() - 4)));
        if (cell.bottom() - 2 - x.header.bottom() >= small) {
            x.missingText = QRectF(x.header.left(), x.header.bottom(), x.header.width(), cell.bottom() - 2 - x.header.bottom());
            x.missing = sentence;
            if (x.missingText.height() < 2 * small)
                x.missing = fitText(QStringList{sentence, QObject::tr("no room at this size"), QObject::tr("no room")}, t.smallFont(),
                                    x.missingText.width())
                                .text;
        } else {
            // Beside the title; the title by its letter where "no room" would not fit beside it whole.
            const QFontMetricsF tfm(t.titleFont());
            const double need = QFontMetricsF(t.smallFont()).horizontalAdvance(QObject::tr("no room"));
            double titleW = tfm.horizontalAdvance(typeset(cfg.title)) + small;
            if (x.header.width() - titleW < need) {
                x.shortTitle = true;
                titleW = tfm.horizontalAdvance(typeset(cfg.title.section(QStringLiteral(": "), 0, 0))) + small;
            }
            x.missingText = QRectF(x.header.left() + titleW, x.header.top(), std::max(0.0, x.header.width() - titleW), th);
            x.missing = fitText(QStringList{sentence, QObject::tr("no room at this size"), QObject::tr("no room")}, t.smallFont(),
                                x.missingText.width())
                            .text;
        }
        return x;
    };
    // The plots come first: the summary sentence goes when the header would take more than a
    // third of the row (the formula sheet and the tooltip still say it).
    double hh = headerHeight(cfg, t, cell.width());
    if (hh > cell.height() / 3 && cfg.error.isEmpty()) {
        r.summary = false;
        hh = headerHeight(cfg, t, cell.width(), false);
    }
    hh = std::min(hh, cell.height() * 0.5);
    r.header = QRectF(cell.left() + 4, cell.top() + 2, cell.width() - 8, hh);
    const QRectF body(cell.left() + 4, r.header.bottom() + 2, cell.width() - 8, cell.bottom() - r.header.bottom() - 4);
    if (!cfg.error.isEmpty()) return r;
    if (cfg.rotates) {
        const int k = std::max<int>(1, static_cast<int>(cfg.pairs.size()));
        // The grid (columns × rows) whose circles are largest; a cell is as wide as its
        // share and as tall as its circle plus its text lines (two above, two below). When
        // the circles would be smaller than three lines of text, the lines go (by rule).
        int cols = k;
        double labelH = cellLabelHeight(t, true);
        double plotSide = bestCircleSide(body, k, labelH, cols);
        // The lines go too where even their shortest forms would not fit the cells.
        if (plotSide < small * 3 || body.width() / cols - 4 < cellTextWidth(cfg, t)) {
            r.cellText = false;
            labelH = cellLabelHeight(t, false);   // room for the position labels outside the circle
            plotSide = bestCircleSide(body, k, labelH, cols);
        }
        // Still below a legible size: the summary gives its lines to the circles too.
        if (plotSide < minSide && r.summary) {
            PairsRowLayout shorter = r;
            shorter.summary = false;
            shorter.header.setHeight(std::min(headerHeight(cfg, t, cell.width(), false), cell.height() * 0.5));
            const QRectF b(body.left(), shorter.header.bottom() + 2, body.width(), cell.bottom() - shorter.header.bottom() - 4);
            int c2 = k;
            const double s2 = bestCircleSide(b, k, labelH, c2);
            if (s2 > plotSide) {
                shorter.cellText = r.cellText;
                r = shorter;
                plotSide = s2;
                cols = c2;
            }
        }
        const QRectF b(body.left(), r.header.bottom() + 2, body.width(), cell.bottom() - r.header.bottom() - 4);
        r.plotSide = plotSide;
        // Smaller than a line of type a dial shows nothing: the row says so instead.
        if (plotSide < small) return noRoom(r, k == 1 ? QObject::tr("no room for the pair dial at this size") : QObject::tr("no room for the %1 pair dials at this size").arg(k));
        const double cw = b.width() / cols;
        const double ch = plotSide + labelH;
        const double above = r.cellText ? small * 2 + 4 : small + 2;
        for (int i = 0; i < static_cast<int>(cfg.pairs.size()); ++i) {
            PairsCellLayout cl;
            cl.pairIndex = i;
            cl.cell = QRectF(b.left() + (i % cols) * cw, b.top() + (i / cols) * ch, cw, ch);
            cl.center = QPointF(cl.cell.center().x(), cl.cell.top() + above + plotSide / 2);
            cl.scale = plotSide / 2 * 0.92 / radius;
            r.cells.push_back(cl);
        }
        return r;
    }
    // A bias curve and/or a table. Legible first, by rule: the curve's sentence goes (the header
    // names the method), then the axis titles, then the curve and the table stack instead of
    // standing side by side, and last the table goes (a line says so).
    const bool hasCurve = !cfg.curves.empty();
    const bool hasTable = cfg.table.size() > 0;
    const double textFull = [&] {
        if (cfg.curveTitle.isEmpty()) return 0.0;
        const QFontMetricsF fm(t.bodyFont());
        return fm.boundingRect(QRectF(0, 0, body.width(), 1000), Qt::TextWordWrap, cfg.curveTitle).height() + 6;
    }();
    // The table's colour bar and its labels (the widest its ticks write, drawTable), its row
    // labels left of it.
    const QFontMetricsF sfm(t.smallFont());
    double barLabelW = 0, rowLabelW = 0;
    if (hasTable) {
        double m = 0;
        for (Eigen::Index i = 0; i < cfg.table.size(); ++i)
            if (std::isfinite(cfg.table.data()[i])) m = std::max(m, std::abs(cfg.table.data()[i]));
        if (m == 0) m = 1;
        for (double h : {3.0, 6.0, 12.0, 24.0})
            for (const QString& s : plot::tickLabels(colorbarTicks(-m, m, small * h, small))) barLabelW = std::max(barLabelW, sfm.horizontalAdvance(typeset(s)));
        for (auto v : cfg.tableRows) rowLabelW = std::max(rowLabelW, sfm.horizontalAdvance(QString::number(v)));
    }
    const double barW = std::max(10.0, small * 0.8) + 8 + barLabelW + 6;
    struct Option {
        bool text, titles, stacked, table, tableTitle = true;
    };
    const auto place = [&](const Option& o) {
        PairsRowLayout x = r;
        x.axisTitles = o.titles;
        // At most the body's height (the text is shortened by rule past it, plot::wrappedText).
        const double textH = o.text ? std::min(textFull, body.height()) : 0.0;
        x.curveText = o.text && textH > 0 ? QRectF(body.left(), body.top(), body.width(), textH) : QRectF();
        QRectF area(body.left(), body.top() + textH, body.width(), std::max(0.0, body.height() - textH));
        if (hasTable && !o.table) {
            // The line that says the table is left out.
            x.missing = fitText(QStringList{QObject::tr("%1: no room at this size").arg(cfg.tableTitle), QObject::tr("table: no room at this size"),
                                            QObject::tr("table: no room")},
                                t.smallFont(), area.width())
                            .text;
            x.missingText = QRectF(area.left(), area.bottom() - small, area.width(), small);
            area.setBottom(area.bottom() - small - 2);
        }
        const QMarginsF m = plot::axesMargins(t, o.titles, o.titles);
        const QMarginsF tm = plot::axesMargins(t, o.titles, o.titles, rowLabelW);
        const bool table = hasTable && o.table;
        if (hasCurve && table) {
            if (o.stacked) {
                const double split = area.height() * 0.5;
                x.curve = QRectF(area.left(), area.top(), area.width(), split).marginsRemoved(m);
                x.table = QRectF(area.left(), area.top() + split, area.width(), area.height() - split).marginsRemoved(tm);
            } else {
                const double split = area.width() * 0.58;
                x.curve = QRectF(area.left(), area.top(), split, area.height()).marginsRemoved(m);
                x.table = QRectF(area.left() + split, area.top(), area.width() - split, area.height()).marginsRemoved(tm);
            }
            x.table.setRight(x.table.right() - barW + tm.right());
        } else if (hasCurve) {
            x.curve = area.marginsRemoved(m);
        } else if (table) {
            x.table = area.marginsRemoved(tm);
            x.table.setRight(x.table.right() - barW + tm.right());
        }
        if (table) {
            x.tableTitle = o.tableTitle;
            if (o.tableTitle) x.table.setTop(x.table.top() + small * 2);  // room for the table title
            x.tableBar = QRectF(x.table.right() + 8, x.table.top(), std::max(10.0, small * 0.8), x.table.height());
        }
        double side = 1e300;
        if (hasCurve) side = std::min({side, x.curve.width(), x.curve.height()});
        if (table) side = std::min({side, x.table.width(), x.table.height()});
        x.plotSide = side >= 1e300 ? 0.0 : std::max(0.0, side);
        return x;
    };
    // Nothing to plot (NoPE): the sentence says so.
    if (!hasCurve && !hasTable) return place({true, true, false, false});
    std::vector<Option> options;
    for (bool text : {true, false}) {
        if (text && textFull <= 0) continue;
        for (bool titles : {true, false})
            for (bool stacked : {false, true}) {
                if (stacked && !(hasCurve && hasTable)) continue;
                options.push_back({text, titles, stacked, true});
            }
    }
    if (hasTable) options.push_back({false, false, true, true, false});   // the table without its title
    if (hasCurve && hasTable) options.push_back({false, false, false, false});
    PairsRowLayout best;
    bool any = false;
    for (const Option& o : options) {
        PairsRowLayout x = place(o);
        if (x.plotSide >= minSide) return x;
        if (!any || x.plotSide > best.plotSide + 0.5) best = x, any = true;
    }
    if (!any) return r;
    // Nothing legible fits: the row says so instead of drawing a sliver.
    if (best.plotSide < small) return noRoom(r, hasCurve ? QObject::tr("no room for the curve at this size") : QObject::tr("no room for the table at this size"));
    return best;
}

}  // namespace

std::vector<PairsRowLayout> layoutPairs(const QRectF& rect, const PairsResult& result, const Theme& t) {
    std::vector<PairsRowLayout> rows;
    const int n = static_cast<int>(result.configs.size());
    if (n == 0) return rows;
    const double radius = maxRadius(result);
    const double minSide = minPlotSide(t);
    // One configuration a row, as long as every one's plots stay legible (minPlotSide); else the
    // grid of configurations (columns × rows) whose smallest plot is largest.
    const auto inGrid = [&](int cols) {
        const int gridRows = (n + cols - 1) / cols;
        const double w = rect.width() / cols, h = rect.height() / gridRows;
        std::vector<PairsRowLayout> out;
        double smallest = 1e300;
        for (int c = 0; c < n; ++c) {
            const QRectF cell(rect.left() + (c % cols) * w, rect.top() + (c / cols) * h, w, h);
            const auto& cfg = result.configs[static_cast<std::size_t>(c)];
            out.push_back(layoutPairsCell(cell, cfg, t, radius));
            // A configuration with nothing to plot (NoPE says so in words) does not count.
            const bool plots = cfg.rotates ? !cfg.pairs.empty() : (!cfg.curves.empty() || cfg.table.size() > 0);
            if (cfg.error.isEmpty() && plots) smallest = std::min(smallest, out.back().plotSide);
        }
        return std::pair{out, smallest};
    };
    auto [best, bestSide] = inGrid(1);
    if (bestSide >= minSide) return best;
    for (int cols = 2; cols <= n; ++cols) {
        auto [grid, side] = inGrid(cols);
        if (side > bestSide + 0.5) {
            best = std::move(grid);
            bestSide = side;
        }
    }
    return best;
}

namespace {
// `configs` rotating configurations of k pairs each, as the automatic pairs show them (a title,
// the RoPE summary and the legend above each): what automaticPairsFor and pairsUsableHeight lay out.
// With `numbers`, each dial's pair, θ_i and angles as RoPE (dim 64) has them, so that its text
// lines are as wide as drawn ones (whether the cells keep them decides how tall the cells are).
PairsResult automaticDials(int configs, int k, bool numbers = false) {
    PairsResult r;
    for (int c = 0; c < configs; ++c) {
        PairsConfigResult cfg;
        cfg.title = QStringLiteral("%1: RoPE").arg(QChar('A' + c % 26));
        cfg.rotates = true;
        cfg.summary = methodSummaryText(Method::Rope);
        cfg.positions = {0, 1, 2, 4, 8, 16, 32};
        cfg.pairs.assign(std::size_t(k), PairPanel{});
        if (numbers) {
            const auto shown = defaultPairs(32, k);
            for (std::size_t i = 0; i < cfg.pairs.size() && i < shown.size(); ++i) {
                auto& pp = cfg.pairs[i];
                pp.pair = shown[i];
                pp.theta = std::pow(10000.0, -shown[i] / 32.0);
                for (auto m : cfg.positions) pp.angle.push_back(double(m) * pp.theta);
            }
        }
        r.configs.push_back(std::move(cfg));
    }
    return r;
}
}  // namespace

int automaticPairsFor(const QRectF& rect, int configs, const Theme& t) {
    // The layout of `configs` rotating configurations of k pairs each (a title, the RoPE
    // summary and the legend above each): how large their circles are, and how much of the
    // first one's body the circles and their text fill.
    configs = std::max(1, configs);
    struct Dials {
        double side = 0, empty = 0, cellWidth = 0;
    };
    const auto dials = [&](int k) {
        const PairsResult r = automaticDials(configs, k);
        const auto rows = layoutPairs(rect, r, t);
        Dials d;
        const auto& first = rows.front();
        if (first.cells.empty()) return d;
        d.side = first.plotSide;
        double bottom = 0;
        for (const auto& c : first.cells) bottom = std::max(bottom, c.cell.bottom());
        const double bodyTop = first.header.bottom() + 2, bodyH = first.row.bottom() - 2 - bodyTop;
        d.empty = bodyH > 0 ? (first.row.bottom() - 2 - bottom) / bodyH : 0.0;
        d.cellWidth = first.cells.front().cell.width();
        return d;
    };
    const double minSide = minPlotSide(t);
    const Dials four = dials(4);
    if (four.side < minSide) {
        // Fewer pairs rather than illegible circles: two, else one (else the largest there are).
        const Dials two = dials(2);
        if (two.side >= minSide) return 2;
        const Dials one = dials(1);
        if (one.side >= minSide || one.side > two.side + 0.5) return one.side > four.side + 0.5 ? 1 : 4;
        return two.side > four.side + 0.5 ? 2 : 4;
    }
    const Dials eight = dials(8);
    const QFontMetricsF fm(t.smallFont());
    // Eight cells stay as wide as their text lines (else the numbers would be cut): whole, or
    // where four would leave a quarter of the pane empty, in their shorter forms.
    const double textW = fm.horizontalAdvance(QStringLiteral("θᵢ = 0.0001334 rad/pos"));
    const double shortW = fm.horizontalAdvance(QStringLiteral("θᵢ = 0.0001334"));
    if (eight.side >= 0.85 * four.side && eight.cellWidth >= textW) return 8;
    if (four.empty >= 0.25 && eight.side >= std::max(minSide, 0.5 * four.side) && eight.cellWidth >= shortW) return 8;
    return 4;
}

double pairsUsableHeight(const QRectF& rect, int configs, const Theme& t) {
    configs = std::max(1, configs);
    if (rect.width() <= 0 || rect.height() <= 0) return std::max(0.0, rect.height());
    // The dials at height h: how many, how large, and how far down their cells reach.
    struct Fill {
        int k = 0;
        double side = 0, bottom = 0;
        bool dials = false;
    };
    const auto at = [&](double h) {
        const QRectF r(rect.left(), rect.top(), rect.width(), h);
        Fill f;
        f.k = automaticPairsFor(r, configs, t);
        const auto rows = layoutPairs(r, automaticDials(configs, f.k, true), t);
        f.side = 1e300;
        for (const auto& row : rows) {
            if (row.cells.empty()) return Fill{};
            f.side = std::min(f.side, row.plotSide);
            for (const auto& c : row.cells) f.bottom = std::max(f.bottom, c.cell.bottom() - rect.top());
        }
        f.dials = !rows.empty();
        return f;
    };
    const Fill full = at(rect.height());
    if (!full.dials) return rect.height();
    // The least height that shows the same dials as large (their cells and two pixels under them);
    // the layout's rules (the summary dropped, eight pairs for four) depend on the height, so search.
    double lo = std::min(rect.height(), full.bottom + 2), hi = rect.height();
    const auto same = [&](double h) {
        const Fill f = at(h);
        return f.dials && f.k == full.k && f.side >= full.side - 0.5;
    };
    if (same(lo)) return std::ceil(lo);
    for (int i = 0; i < 12 && hi - lo > 1; ++i) {
        const double mid = (lo + hi) / 2;
        (same(mid) ? hi : lo) = mid;
    }
    return std::ceil(hi);
}

static void drawTable(QPainter& p, const PairsConfigResult& cfg, const PairsRowLayout& r, const Theme& t) {
    if (r.table.width() < 10 || r.table.height() < 10) return;
    double m = 0;
    for (Eigen::Index i = 0; i < cfg.table.size(); ++i)
        if (std::isfinite(cfg.table.data()[i])) m = std::max(m, std::abs(cfg.table.data()[i]));
    if (m == 0) m = 1;
    ColorScale s{ColormapKind::Diverging, -m, m};
    const int rows = static_cast<int>(cfg.table.rows()), cols = static_cast<int>(cfg.table.cols());
    QImage img(cols, rows, QImage::Format_RGB32);
    for (int i = 0; i < rows; ++i) {
        auto* line = reinterpret_cast<QRgb*>(img.scanLine(i));
        for (int j = 0; j < cols; ++j) line[j] = s.rgb(cfg.table(i, j));
    }
    drawCells(p, r.table, img);
    layoutRecord(p, LayoutItemKind::Plot, r.table);
    p.setPen(QPen(t.foreground, t.axisWidth));
    p.setBrush(Qt::NoBrush);
    p.drawRect(r.table);
    p.setFont(t.smallFont());
    const double small = plot::lineHeight(t.smallFont());
    // The title may be as wide as the row allows around the table's centre.
    const double titleRoom = 2 * std::min(r.table.center().x() - r.row.left(), r.row.right() - r.table.center().x()) - 8;
    if (r.tableTitle)
        plot::text(p, QPointF(r.table.center().x(), r.table.top() - small - 4), fitText(cfg.tableTitle, t.smallFont(), titleRoom),
                   plot::Align::Center, t.foreground);
    // Row ticks from the row labels.
    const double rh = r.table.height() / rows;
    const int maxTicks = std::max(2, static_cast<int>(r.table.height() / (small * 1.8)));
    const int step = std::max(1, rows / maxTicks);
    double lastY = -1e300, rowLabelsW = 0;
    std::optional<LayoutGroup> group(std::in_place);   // each axis' labels, one group
    for (int i = 0; i < rows; i += step) {
        const double y = r.table.top() + (i + 0.5) * rh;
        p.drawLine(QPointF(r.table.left() - 4, y), QPointF(r.table.left(), y));
        if (y - lastY < small) continue;   // a label that would touch the previous one is left out
        lastY = y;
        rowLabelsW = std::max(rowLabelsW, QFontMetricsF(t.smallFont()).horizontalAdvance(QString::number(cfg.tableRows[static_cast<std::size_t>(i)])));
        plot::text(p, QPointF(r.table.left() - 6, y), QString::number(cfg.tableRows[static_cast<std::size_t>(i)]),
                   plot::Align::Right, t.muted);
    }
    // Column ticks at round column labels (the columns may be a sample: labels are linear in the index).
    const double cw = r.table.width() / cols;
    const double c0 = cfg.tableCols.empty() ? 0.0 : double(cfg.tableCols.front());
    const double c1 = cfg.tableCols.empty() ? double(cols - 1) : double(cfg.tableCols.back());
    group.reset();
    group.emplace();
    const auto colTicks = plot::ticks(c0, c1, std::max(2, static_cast<int>(r.table.width() / 50)));
    const QStringList colLabels = plot::tickLabels(colTicks);
    const QFontMetricsF tfm(t.smallFont());
    const double gap = std::max(4.0, tfm.horizontalAdvance(QLatin1Char(' ')));
    double lastRight = -1e300;
    for (std::size_t i = 0; i < colTicks.size(); ++i) {
        const double v = colTicks[i];
        const double k = c1 > c0 ? (v - c0) / (c1 - c0) * (cols - 1) : 0.0;
        const double x = r.table.left() + (k + 0.5) * cw;
        p.drawLine(QPointF(x, r.table.bottom()), QPointF(x, r.table.bottom() + 4));
        // A label that would run into the previous one is left out (the tick stays).
        const double w = tfm.horizontalAdvance(colLabels[qsizetype(i)]);
        if (x - w / 2 < lastRight + gap) continue;
        lastRight = x + w / 2;
        plot::text(p, QPointF(x, r.table.bottom() + 4 + small / 2), colLabels[qsizetype(i)], plot::Align::Center, t.muted);
    }
    group.reset();
    p.setFont(t.bodyFont());
    const double body = plot::lineHeight(t.bodyFont());
    // The axis titles where the rule keeps them, each along its side of the table (a title that
    // does not fit whole is left out).
    const QFontMetricsF bfm(t.bodyFont());
    if (r.axisTitles && bfm.horizontalAdvance(typeset(cfg.tableColLabel)) <= r.table.width())
        plot::text(p, QPointF(r.table.center().x(), r.table.bottom() + 6 + small + body / 2), cfg.tableColLabel, plot::Align::Center,
                   t.foreground);
    if (r.axisTitles && bfm.horizontalAdvance(typeset(cfg.tableRowLabel)) <= r.table.height())
        plot::verticalText(p, QPointF(r.table.left() - 10 - rowLabelsW - body / 2, r.table.center().y()), cfg.tableRowLabel, t.foreground);
    // Colour bar
    QImage bar(1, 256, QImage::Format_RGB32);
    for (int i = 0; i < 256; ++i) bar.setPixel(0, 255 - i, colormapRgb(ColormapKind::Diverging, i / 255.0));
    drawCells(p, r.tableBar, bar);
    p.setPen(QPen(t.foreground, 1));
    p.drawRect(r.tableBar);
    p.setFont(t.smallFont());
    const plot::Axis ax{-m, m, false, r.tableBar.bottom(), r.tableBar.top()};
    group.emplace();
    const auto barValues = colorbarTicks(-m, m, r.tableBar.height(), small);
    const QStringList barLabels = plot::tickLabels(barValues);
    for (std::size_t i = 0; i < barValues.size(); ++i) {
        const double y = ax.map(barValues[i]);
        p.drawLine(QPointF(r.tableBar.right(), y), QPointF(r.tableBar.right() + 3, y));
        plot::text(p, QPointF(r.tableBar.right() + 5, y), barLabels[qsizetype(i)], plot::Align::Left, t.muted);
    }
}

// `titleRight`: where the row's title ends (a legend with no free corner in the plot moves to
// the title's line).
static void drawCurves(QPainter& p, const PairsConfigResult& cfg, const PairsRowLayout& r, const Theme& t, double titleRight) {
    if (r.curve.width() < 10 || r.curve.height() < 10) return;
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    for (const auto& s : cfg.curves)
        for (std::size_t i = 0; i < s.x.size(); ++i) {
            if (!std::isfinite(s.y[i])) continue;
            x0 = std::min(x0, s.x[i]);
            x1 = std::max(x1, s.x[i]);
            y0 = std::min(y0, s.y[i]);
            y1 = std::max(y1, s.y[i]);
        }
    if (!(x1 >= x0)) return;
    if (x1 == x0) x1 = x0 + 1;
    if (y1 == y0) {
        y0 -= 1;
        y1 += 1;
    }
    const double pad = (y1 - y0) * 0.05;
    plot::Axis ax{x0, x1, false, r.curve.left(), r.curve.right()};
    plot::Axis ay{y0 - pad, y1 + pad, false, r.curve.bottom(), r.curve.top()};
    // An axis title whole, else from its symbol on ("i − j" of "distance i − j").
    const auto forms = [&](const QString& title) {
        if (!r.axisTitles || title.isEmpty()) return QStringList();
        static const QRegularExpression symbol(QStringLiteral("\\s(\\|?[a-zA-Z](?=\\s|\\||$).*)$"));
        const auto m = symbol.match(title);
        QStringList titles(title);
        if (m.hasMatch()) titles.append(m.captured(1));
        return titles;
    };
    const QStringList xTitles = forms(cfg.curveXLabel), yTitles = forms(cfg.curveYLabel);
    plot::axes(p, r.curve, ax, ay, t, xTitles, yTitles);
    p.save();
    p.setClipRect(r.curve);
    p.setRenderHint(QPainter::Antialiasing, true);
    std::vector<QLineF> ink;   // every segment drawn, for the legend's place
    int k = 0;
    for (const auto& s : cfg.curves) {
        // The polyline at pixel resolution: in each pixel column its first point, lowest, highest
        // and last (at most four vertices a column). A T5 step curve over ±4096 packs a thousand
        // jumps into a few columns; drawing all of them costs overdraw, not picture.
        std::vector<QPointF> pts;
        const std::size_t n = std::min(s.x.size(), s.y.size());
        bool open = false;
        long column = 0;
        QPointF first, lo, hi, last;
        const auto flush = [&] {
            if (open) pts.insert(pts.end(), {first, lo, hi, last});
        };
        for (std::size_t i = 0; i < n; ++i) {
            if (!std::isfinite(s.y[i])) continue;
            const QPointF pt(ax.map(s.x[i]), ay.map(s.y[i]));
            const long c = std::lround(std::floor(pt.x()));
            if (open && c == column) {
                if (pt.y() < lo.y()) lo = pt;
                if (pt.y() > hi.y()) hi = pt;
                last = pt;
                continue;
            }
            flush();
            open = true;
            column = c;
            first = lo = hi = last = pt;
        }
        flush();
        for (std::size_t i = 1; i < pts.size(); ++i) ink.emplace_back(pts[i - 1], pts[i]);
        QColor c = cfg.curves.size() == 1 ? t.series(0) : t.series(k);
        if (!s.highlight && cfg.curves.size() > 1) c.setAlpha(150);
        QPen pen(c, s.highlight ? t.lineWidth * 1.6 : t.lineWidth * 0.8);
        p.setBrush(Qt::NoBrush);
        if (pts.size() > 2 * std::size_t(std::max(1.0, r.curve.width()))) {
            // A dense zig-zag: stroking it as one path makes the raster engine fill a polygon
            // that crosses itself thousands of times (seconds); independent round-capped
            // segments draw the same picture in milliseconds.
            pen.setCapStyle(Qt::RoundCap);
            p.setPen(pen);
            std::vector<QLineF> lines;
            lines.reserve(pts.size());
            for (std::size_t i = 1; i < pts.size(); ++i) lines.emplace_back(pts[i - 1], pts[i]);
            p.drawLines(lines.data(), int(lines.size()));
        } else {
            pen.setJoinStyle(Qt::RoundJoin);
            p.setPen(pen);
            p.drawPolyline(pts.data(), int(pts.size()));
        }
        ++k;
    }
    p.restore();
    // Legend of the highlighted series, in the corner of the plot with the least ink under it
    // (ALiBi's lines fan out from the top left, T5's steps cross the middle).
    p.setFont(t.smallFont());
    const double small = plot::lineHeight(t.smallFont());
    const QFontMetricsF fm(t.smallFont());
    std::vector<int> entries;
    double legendW = 0;
    for (int j = 0; j < int(cfg.curves.size()); ++j) {
        const auto& s = cfg.curves[std::size_t(j)];
        if ((s.highlight || cfg.curves.size() <= 4) && entries.size() < 4 &&
            r.curve.top() + 4 + (double(entries.size()) + 1) * small <= r.curve.bottom()) {
            entries.push_back(j);
            legendW = std::max(legendW, fm.horizontalAdvance(typeset(s.name)));
        }
    }
    if (entries.empty()) return;
    const double legendH = double(entries.size()) * small;
    const bool inside = legendW + 12 <= r.curve.width();   // else no corner holds it
    const auto inkUnder = [&](const QRectF& box) {
        int n = 0;
        for (const QLineF& l : ink)
            if (box.intersects(QRectF(l.p1(), l.p2()).normalized().adjusted(-1, -1, 1, 1))) ++n;
        return n;
    };
    const QRectF corners[] = {
        QRectF(r.curve.right() - 6 - legendW, r.curve.top() + 4, legendW, legendH),      // top right (the default)
        QRectF(r.curve.left() + 6, r.curve.top() + 4, legendW, legendH),                   // top left
        QRectF(r.curve.right() - 6 - legendW, r.curve.bottom() - 4 - legendH, legendW, legendH),   // bottom right
        QRectF(r.curve.left() + 6, r.curve.bottom() - 4 - legendH, legendW, legendH),      // bottom left
    };
    int best = 0, bestInk = inkUnder(corners[0]);
    for (int c = 1; c < 4 && bestInk > 0; ++c)
        if (const int n = inkUnder(corners[c]); n < bestInk) best = c, bestInk = n;
    if (bestInk > 0 || !inside) {
        // Every corner has a line under it: the entries move to the title's line, right-aligned,
        // where they fit (else the tooltip names the series).
        // The names whole, else without their parentheses ("head 0" of "head 0 (m = 0.5)").
        const double space = fm.horizontalAdvance(QStringLiteral("   "));
        static const QRegularExpression paren(QStringLiteral("\\s*\\([^()]*\\)\\s*$"));
        for (bool whole : {true, false}) {
            QStringList names;
            double total = 0;
            for (int j : entries) {
                names << (whole ? cfg.curves[std::size_t(j)].name : QString(cfg.curves[std::size_t(j)].name).remove(paren));
                total += fm.horizontalAdvance(typeset(names.back())) + (total > 0 ? space : 0.0);
            }
            if (r.header.right() - total < titleRight + space) continue;
            double x = r.header.right();
            const double y = r.header.top() + plot::lineHeight(t.titleFont()) / 2;
            for (qsizetype i = names.size() - 1; i >= 0; --i) {
                const int j = entries[std::size_t(i)];
                const QColor c = cfg.curves.size() == 1 ? t.series(0) : t.series(j);
                x -= plot::text(p, QPointF(x, y), FittedText{names[i], 0, !whole}, plot::Align::Right, c).width() + space;
            }
            return;
        }
        return;
    }
    const QRectF& box = corners[best];
    const bool right = best == 0 || best == 2;
    double y = box.top() + small / 2;
    for (int j : entries) {
        const QColor c = cfg.curves.size() == 1 ? t.series(0) : t.series(j);
        plot::text(p, QPointF(right ? box.right() : box.left(), y), cfg.curves[std::size_t(j)].name,
                   right ? plot::Align::Right : plot::Align::Left, c);
        y += small;
    }
}

void renderPairs(QPainter& p, const QRectF& rect, const PairsResult& result, const Theme& t) {
    p.save();
    p.fillRect(rect, t.background);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    const auto rows = layoutPairs(rect, result, t);
    const double small = plot::lineHeight(t.smallFont());
    const double radius = maxRadius(result);
    for (std::size_t c = 0; c < rows.size(); ++c) {
        const auto& cfg = result.configs[c];
        const auto& r = rows[c];
        // Header: title, summary, legend.
        p.setFont(t.titleFont());
        const double th = plot::lineHeight(t.titleFont());
        const double titleRight =
            plot::text(p, QPointF(r.header.left(), r.header.top() + th / 2),
                       fitText(r.shortTitle ? QStringList{cfg.title.section(QStringLiteral(": "), 0, 0)}
                                            : QStringList{cfg.title, cfg.title.section(QStringLiteral(": "), 0, 0)},
                               t.titleFont(), r.header.width()),
                       plot::Align::Left, t.foreground)
                .right();
        p.setFont(t.smallFont());
        double y = r.header.top() + th + 2;
        if (r.summary)
            y += plot::wrappedText(p, QRectF(r.header.left(), y, r.header.width(), r.header.bottom() - y), cfg.summary, t.muted) + 2;
        if (!cfg.error.isEmpty()) {
            p.setFont(t.bodyFont());
            plot::wrappedText(p, QRectF(r.header.left(), y + 4, r.header.width(), r.row.bottom() - y - 4), cfg.error, t.error);
            continue;
        }
        if (r.summary && !cfg.note.isEmpty())
            y += plot::wrappedText(p, QRectF(r.header.left(), y, r.header.width(), r.header.bottom() - y), cfg.note, t.muted) + 2;
        // A configuration's pictures must be legible (layout.h: a panel).
        if (cfg.rotates ? !cfg.pairs.empty() : (!cfg.curves.empty() || cfg.table.size() > 0)) layoutRecord(p, LayoutItemKind::Panel, r.row);
        if (!r.missing.isEmpty()) {
            // What could not be drawn, in words.
            p.setFont(t.smallFont());
            plot::wrappedText(p, r.missingText, r.missing, t.muted);
        }
        if (!cfg.rotates) {
            p.setFont(t.bodyFont());
            if (!cfg.curveTitle.isEmpty() && !r.curveText.isEmpty()) plot::wrappedText(p, r.curveText, cfg.curveTitle, t.foreground);
            drawCurves(p, cfg, r, t, titleRight);
            if (cfg.table.size() > 0) drawTable(p, cfg, r, t);
            continue;
        }
        if (!r.legend) continue;
        // Legend: positions in their colours; query arrow, key dot.
        const int np = static_cast<int>(cfg.positions.size());
        double x = r.header.left();
        const double ly = y + small / 2;
        // On one line: "position m:" (else "m:", else nothing) and the positions, as many as fit.
        const QFontMetricsF hfm(t.smallFont());
        double numbersW = 0;
        for (int k = 0; k < np; ++k) numbersW += hfm.horizontalAdvance(QString::number(cfg.positions[std::size_t(k)])) + 6;
        for (const QString& lead : {QObject::tr("position m:"), QObject::tr("m:")}) {
            const double w = hfm.horizontalAdvance(typeset(lead)) + 6;
            if (x + w + numbersW > r.header.right()) continue;
            x += plot::text(p, QPointF(x, ly), lead, plot::Align::Left, t.foreground).width() + 6;
            break;
        }
        for (int k = 0; k < np; ++k) {
            const QString num = QString::number(cfg.positions[static_cast<std::size_t>(k)]);
            if (x + hfm.horizontalAdvance(num) > r.header.right()) break;
            x += plot::text(p, QPointF(x, ly), num, plot::Align::Left, positionColor(k, np, t)).width() + 6;
        }
        x += 10;
        const QString legend = cfg.method == Method::Sinusoidal ? QObject::tr("→ PE_m pair (cos, sin)   ··· trail over positions")
                               : cfg.keyDiffers               ? QObject::tr("→ query q_m   ○ key k_m   ··· trail over positions")
                                                              : QObject::tr("→ query = key (ones content)   ··· trail over positions");
        // The legend's parts as they fit: both, the first, or none (never cut in the middle).
        const QStringList parts = legend.split(QStringLiteral("   "));
        const FittedText fitted = fitText(QStringList{legend, parts.front()}, t.smallFont(), std::max(0.0, r.header.right() - x));
        if (!fitted.elided || fitted.text == parts.front())
            x += plot::text(p, QPointF(x, ly), fitted.text, plot::Align::Left, t.muted).width();
        // Cells
        for (const auto& cl : r.cells) {
            const auto& pp = cfg.pairs[static_cast<std::size_t>(cl.pairIndex)];
            p.setFont(t.smallFont());
            // The ink of the cell's text lines, which position labels must not cover.
            std::vector<QRectF> cellText;
            const auto textLine = [&](double y, const FittedText& s, const QColor& c) {
                if (!r.cellText) return;
                const QRectF line = plot::text(p, QPointF(cl.cell.center().x(), y), s, plot::Align::Center, c);
                const QFontMetricsF fm(t.smallFont());
                cellText.push_back(fm.tightBoundingRect(s.text).translated(line.left(), line.top() + fm.ascent()));
            };
            textLine(cl.cell.top() + small / 2,
                     fitText(QStringList{QObject::tr("pair i = %1").arg(pp.pair), QObject::tr("i = %1").arg(pp.pair)}, t.smallFont(),
                             cl.cell.width() - 4),
                     t.foreground);
            const QString theta = displayValue(pp.theta);
            // The pair's frequency by its method's own name: wᵢ for sinusoidal (the claims, the
            // formula sheet and the worked example's), θᵢ for the rotations.
            const QString freq = plot::frequencySymbol(cfg.method);
            textLine(cl.cell.top() + small * 1.5,
                     fitText(QStringList{QObject::tr("%1 = %2 rad/pos").arg(freq, theta), QObject::tr("%1 = %2").arg(freq, theta), theta},
                             t.smallFont(), cl.cell.width() - 4),
                     t.muted);
            const double R = cl.scale * radius;
            // Frame: axes through the origin, reference circle of the trail radius.
            p.setPen(QPen(t.grid, 1));
            p.drawLine(QPointF(cl.center.x() - R, cl.center.y()), QPointF(cl.center.x() + R, cl.center.y()));
            p.drawLine(QPointF(cl.center.x(), cl.center.y() - R), QPointF(cl.center.x(), cl.center.y() + R));
            double rr2 = 0;
            for (const auto& v : pp.trail) rr2 = std::max(rr2, v.x() * v.x() + v.y() * v.y());
            double rr = std::sqrt(rr2);
            if (!pp.query.empty()) rr = std::max(rr, std::hypot(pp.query.front().x(), pp.query.front().y()));
            p.setPen(QPen(t.muted, 1, Qt::DashLine));
            p.setBrush(Qt::NoBrush);
            p.drawEllipse(cl.center, rr * cl.scale, rr * cl.scale);
            layoutRecordFramelessPlot(p, QRectF(cl.center.x() - R, cl.center.y() - R, 2 * R, 2 * R));
            // Trail, in an opaque faint colour (the foreground 27 % over the background).
            if (pp.trail.size() > 1) {
                const auto mix = [](int a, int b) { return (a * 70 + b * 185) / 255; };
                const QColor tc(mix(t.foreground.red(), t.background.red()), mix(t.foreground.green(), t.background.green()),
                                mix(t.foreground.blue(), t.background.blue()));
                if (trailAsDots(pp) && isVectorPainter(p)) {
                    // A figure: each dot a circle of its own (no bitmaps in an SVG or PDF).
                    const double d = std::max(2.0, t.lineWidth * 1.2);
                    p.save();
                    p.setRenderHint(QPainter::Antialiasing, true);
                    p.setPen(Qt::NoPen);
                    p.setBrush(tc);
                    for (const auto& v : pp.trail) p.drawEllipse(toScreen(cl, v), d / 2, d / 2);
                    p.restore();
                } else if (trailAsDots(pp)) {
                    // The pair turns too far between samples for a line: the sampled positions
                    // themselves, each where the vector is. One antialiased dot, stamped at each
                    // (a wide round-capped pen strokes every point as curves: far slower).
                    const double dpr = p.device() ? p.device()->devicePixelRatio() : 1.0;
                    const double d = std::max(2.0, t.lineWidth * 1.2);
                    const int side = static_cast<int>(std::ceil((d + 2) * dpr));
                    QImage dot(side, side, QImage::Format_ARGB32_Premultiplied);
                    dot.fill(Qt::transparent);
                    {
                        QPainter dp(&dot);
                        dp.setRenderHint(QPainter::Antialiasing, true);
                        dp.setPen(Qt::NoPen);
                        dp.setBrush(tc);
                        dp.drawEllipse(QPointF(side / 2.0, side / 2.0), d * dpr / 2, d * dpr / 2);
                    }
                    dot.setDevicePixelRatio(dpr);
                    const double half = side / dpr / 2;
                    for (const auto& v : pp.trail) {
                        const QPointF c = toScreen(cl, v);
                        // Whole device pixels: a copy, not a resampling.
                        p.drawImage(QPointF(std::round((c.x() - half) * dpr) / dpr, std::round((c.y() - half) * dpr) / dpr), dot);
                    }
                } else {
                    // Separate segments: a joined stroke of a path that circles many times is
                    // filled as one self-crossing polygon, which costs the raster engine far
                    // more than the picture is worth.
                    std::vector<QLineF> segs;
                    segs.reserve(pp.trail.size());
                    QPointF prev = toScreen(cl, pp.trail.front());
                    for (std::size_t i = 1; i < pp.trail.size(); ++i) {
                        const QPointF q = toScreen(cl, pp.trail[i]);
                        segs.emplace_back(prev, q);
                        prev = q;
                    }
                    p.setPen(QPen(tc, 1));
                    p.drawLines(segs.data(), int(segs.size()));
                }
            }
            // Angle arc of the furthest position.
            if (!pp.query.empty()) {
                int far = 0;
                for (int k = 1; k < np; ++k)
                    if (cfg.positions[static_cast<std::size_t>(k)] > cfg.positions[static_cast<std::size_t>(far)]) far = k;
                const QPointF v = pp.query[static_cast<std::size_t>(far)];
                const double a = pp.angle[static_cast<std::size_t>(far)];
                const double phi = std::atan2(v.y(), v.x());
                const double sweep = std::fmod(a, 2 * std::numbers::pi);
                const double start = phi - sweep;
                const double ar = std::max(8.0, rr * cl.scale * 0.35);
                QColor ac = positionColor(far, np, t);
                p.setPen(QPen(ac, std::max(1.0, t.lineWidth * 0.8)));
                p.drawArc(QRectF(cl.center.x() - ar, cl.center.y() - ar, 2 * ar, 2 * ar),
                          static_cast<int>(std::lround(start * 180 / std::numbers::pi * 16)),
                          static_cast<int>(std::lround(sweep * 180 / std::numbers::pi * 16)));
                p.setFont(t.smallFont());
                const auto farPos = cfg.positions[static_cast<std::size_t>(far)];
                textLine(cl.cell.bottom() - small * 2.1 - 2,
                         fitText(QStringList{QObject::tr("m·%1 at m = %2:").arg(plot::frequencySymbol(cfg.method)).arg(farPos), QObject::tr("m = %1:").arg(farPos)},
                                 t.smallFont(), cl.cell.width() - 4),
                         t.foreground);
                textLine(cl.cell.bottom() - small * 1.1 - 2, fitText(angleText(a), t.smallFont(), cl.cell.width() - 4), t.foreground);
            }
            // Arrows and key dots; position labels where they collide neither with each other
            // nor with the ink of the cell's text lines.
            std::vector<QRectF> placed = cellText;
            const LayoutGroup labels;   // the dial's position labels
            for (int k = 0; k < np && k < static_cast<int>(pp.query.size()); ++k) {
                const QColor col = positionColor(k, np, t);
                const QPointF tip = toScreen(cl, pp.query[static_cast<std::size_t>(k)]);
                p.setPen(QPen(col, t.lineWidth));
                plot::arrow(p, cl.center, tip, std::max(6.0, t.lineWidth * 4));
                if (cfg.keyDiffers && k < static_cast<int>(pp.key.size())) {
                    p.setPen(QPen(col, std::max(1.0, t.lineWidth * 0.8)));
                    p.setBrush(Qt::NoBrush);
                    p.drawEllipse(toScreen(cl, pp.key[static_cast<std::size_t>(k)]), 3.5, 3.5);
                }
                const QPointF dir = tip - cl.center;
                const double len = std::max(1e-9, std::hypot(dir.x(), dir.y()));
                const QPointF u = dir / len;
                const QString lab = QString::number(cfg.positions[static_cast<std::size_t>(k)]);
                const QFontMetricsF lfm(t.smallFont());
                const double w = lfm.horizontalAdvance(lab);
                const QRectF ink = lfm.tightBoundingRect(lab);
                // In the arrow's direction, wholly outside the reference circle (and the tip), a
                // gap away: its ink's nearest corner lies beyond the circle's tangent there.
                const double gap = small * 0.15;
                const double reach = std::abs(u.x()) * ink.width() / 2 + std::abs(u.y()) * ink.height() / 2;
                const QPointF inkCentre = cl.center + u * (std::max(len, rr * cl.scale) + 2 * gap + reach);
                // plot::text centres the advance box on `at`: the ink's centre sits that far off.
                const QPointF inkOffset(ink.center().x() - w / 2, ink.center().y() - lfm.height() / 2 + lfm.ascent());
                const QPointF at = inkCentre - inkOffset;
                // Its ink, as plot::text places it, with room around it: labels closer than a
                // quarter of their height read as one number ("1", "3", "2" as "132").
                const QRectF lr = ink.translated(at.x() - w / 2, at.y() - lfm.height() / 2 + lfm.ascent()).adjusted(-gap, -gap, gap, gap);
                // Position labels stay inside their cell, clear of each other and of its text.
                bool clash = !cl.cell.intersected(r.row).contains(lr);
                for (const auto& q : placed)
                    if (q.intersects(lr)) clash = true;
                if (!clash) {
                    placed.push_back(lr);
                    plot::text(p, at, lab, plot::Align::Center, col);
                }
            }
        }
    }
    p.restore();
}

std::optional<PairsHit> hitTestPairs(const QRectF& rect, const PairsResult& result, const Theme& t, const QPointF& point) {
    const auto rows = layoutPairs(rect, result, t);
    for (std::size_t c = 0; c < rows.size(); ++c) {
        const auto& r = rows[c];
        if (!r.row.contains(point)) continue;
        const auto& cfg = result.configs[c];
        PairsHit hit;
        hit.config = static_cast<int>(c);
        for (const auto& cl : r.cells) {
            if (!cl.cell.contains(point)) continue;
            const auto& pp = cfg.pairs[static_cast<std::size_t>(cl.pairIndex)];
            double best = 12.0 * 12.0;
            for (int k = 0; k < static_cast<int>(pp.query.size()); ++k) {
                const QPointF d = toScreen(cl, pp.query[static_cast<std::size_t>(k)]) - point;
                const double dd = d.x() * d.x() + d.y() * d.y();
                if (dd <= best) {  // later (larger) positions win ties: they are drawn on top
                    best = dd;
                    hit.pairIndex = cl.pairIndex;
                    hit.position = k;
                }
            }
            if (hit.position >= 0) return hit;
        }
        if (r.table.contains(point) && cfg.table.size() > 0) {
            hit.tableRow = std::clamp(static_cast<int>((point.y() - r.table.top()) / r.table.height() * cfg.table.rows()), 0,
                                      static_cast<int>(cfg.table.rows()) - 1);
            hit.tableCol = std::clamp(static_cast<int>((point.x() - r.table.left()) / r.table.width() * cfg.table.cols()), 0,
                                      static_cast<int>(cfg.table.cols()) - 1);
            return hit;
        }
        if (r.curve.contains(point) && !cfg.curves.empty()) {
            const CurveSeries* s = &cfg.curves.front();
            for (const auto& cs : cfg.curves)
                if (cs.highlight) s = &cs;
            double x0 = s->x.front(), x1 = s->x.back();
            for (const auto& cs : cfg.curves)
                for (double v : cs.x) {
                    x0 = std::min(x0, v);
                    x1 = std::max(x1, v);
                }
            const double xv = x0 + (point.x() - r.curve.left()) / r.curve.width() * (x1 - x0);
            int best = 0;
            for (int i = 1; i < static_cast<int>(s->x.size()); ++i)
                if (std::abs(s->x[static_cast<std::size_t>(i)] - xv) < std::abs(s->x[static_cast<std::size_t>(best)] - xv)) best = i;
            hit.curvePoint = best;
            return hit;
        }
    }
    return std::nullopt;
}

QString pairsToolTip(const PairsResult& result, const PairsHit& hit) {
    const auto& cfg = result.configs.at(static_cast<std::size_t>(hit.config));
    if (hit.pairIndex >= 0 && hit.position >= 0) {
        const auto& pp = cfg.pairs.at(static_cast<std::size_t>(hit.pairIndex));
        const auto k = static_cast<std::size_t>(hit.position);
        const QPointF q = pp.query.at(k);
        QString s = cfg.title + QLatin1Char('\n') +
                    QObject::tr("pair i = %1 (channels %2, %3), %4 = %5").arg(pp.pair).arg(pp.channelA).arg(pp.channelB).arg(plot::frequencySymbol(cfg.method), formatValue(pp.theta)) +
                    QLatin1Char('\n') + QObject::tr("position m = %1, angle m·%2 = %3").arg(cfg.positions.at(k)).arg(plot::frequencySymbol(cfg.method), formatValue(pp.angle.at(k))) +
                    QLatin1Char('\n') + QObject::tr("%1 = (%2, %3)").arg(cfg.method == Method::Sinusoidal ? QObject::tr("PE (cos, sin)") : QObject::tr("q"),
                                                                 formatValue(q.x()), formatValue(q.y()));
        if (k < pp.key.size())
            s += QLatin1Char('\n') + QObject::tr("k = (%1, %2)").arg(formatValue(pp.key[k].x()), formatValue(pp.key[k].y()));
        return s;
    }
    if (hit.tableRow >= 0) {
        return cfg.title + QLatin1Char('\n') +
               QObject::tr("%1 = %2, %3 = %4").arg(cfg.tableRowLabel).arg(cfg.tableRows.at(static_cast<std::size_t>(hit.tableRow)))
                   .arg(cfg.tableColLabel)
                   .arg(static_cast<std::size_t>(hit.tableCol) < cfg.tableCols.size() ? cfg.tableCols[std::size_t(hit.tableCol)] : hit.tableCol) +
               QLatin1Char('\n') + QObject::tr("value = %1").arg(formatValue(cfg.table(hit.tableRow, hit.tableCol)));
    }
    if (hit.curvePoint >= 0) {
        const CurveSeries* s = &cfg.curves.front();
        for (const auto& cs : cfg.curves)
            if (cs.highlight) s = &cs;
        const auto i = static_cast<std::size_t>(hit.curvePoint);
        return cfg.title + QLatin1Char('\n') + s->name + QLatin1Char('\n') +
               QStringLiteral("%1 = %2: %3 = %4").arg(cfg.curveXLabel, formatValue(s->x.at(i)), cfg.curveYLabel, formatValue(s->y.at(i)));
    }
    return {};
}

}  // namespace poslab::ui
