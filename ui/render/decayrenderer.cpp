#include "ui/render/decayrenderer.h"

#include "ui/model/sceneparams.h"
#include "ui/render/layout.h"
#include "ui/render/plot.h"
#include "ui/render/typeset.h"

#include <QFontMetricsF>
#include <QObject>
#include <QPolygonF>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace poslab::ui {

namespace {
constexpr double kLogFloor = 1e-12;
}

double decayPlotValue(double v, bool logY) {
    if (!logY) return v;
    return std::max(std::abs(v), kLogFloor);
}

namespace {

// x of a column: the centre of the distances it covers.
double columnX(const DecaySeries& s, std::size_t i) {
    if (i < s.distanceFrom.size() && i < s.distanceTo.size())
        return 0.5 * (double(s.distanceFrom[i]) + double(s.distanceTo[i]));
    return double(s.distance[i]);
}

bool hasWideColumns(const DecaySeries& s) {
    for (std::size_t i = 0; i < s.distanceFrom.size() && i < s.distanceTo.size(); ++i)
        if (s.distanceTo[i] > s.distanceFrom[i]) return true;
    return false;
}

// The data's extent (x: the window of distances; y: what the value axis must hold).
struct DecayExtent {
    double xMin = 0, xMax = 1, yMin = 0, yMax = 1;
};

// Where a layer's window or chunk ends its curve: a dash-dotted vertical line at the largest
// visible distance, in the series' colour, named in the legend ("A: window 1024: no key further
// than 1023"); none when the stop lies outside the distances shown.
void addStopLines(std::vector<DecayLine>& lines, const DecayResult& r, const Theme& t, double xMin, double xMax, double yMin,
                  double yMax) {
    for (std::size_t k = 0; k < r.series.size(); ++k) {
        const DecaySeries& s = r.series[k];
        if (!s.error.isEmpty() || !s.visibleTo) continue;
        const double x = static_cast<double>(*s.visibleTo);
        if (x < xMin || x > xMax) continue;
        DecayLine stop;
        stop.name = r.series.size() > 1 ? s.title + QStringLiteral(": ") + s.stopText : s.stopText;
        stop.pen = QPen(t.series(static_cast<int>(k)), 1.5, Qt::DashDotLine);
        stop.points = {QPointF(x, r.logY ? std::max(yMin, kLogFloor) : yMin), QPointF(x, yMax)};
        lines.push_back(std::move(stop));
    }
}

// What the chart plots, in data units, before it is laid out in a rectangle (into `d`: its
// lines, title and axis titles); returns the data's extent.
DecayExtent decayData(DecayPlot& d, const DecayResult& r, const Theme& t) {
    DecayExtent e;
    QStringList errors;
    for (const auto& s : r.series)
        if (!s.error.isEmpty()) errors << s.title + QStringLiteral(": ") + s.error;

    // The x axis is the window of distances [from, to − 1] exactly (zoom and pan).
    double xMin = double(std::max<std::int64_t>(r.distanceFrom, r.logX ? 1 : 0));
    double xMax = double(r.distanceTo - 1);
    if (xMax <= xMin) {
        // One distance: centred, half a distance either side (a log axis: up to the next).
        if (!r.logX) xMin -= 0.5;
        xMax = xMin + 1;
    }
    double yMin = std::numeric_limits<double>::infinity(), yMax = -yMin;
    // RoFormer's bound's own extent, kept apart: a bound far above the score (loose, as with
    // unrelated q and k) would flatten the score to a line at 0 (see kFarAbove below).
    double boundMin = yMin, boundMax = yMax;
    bool growingBound = false;
    // On a log value axis a 0 (ALiBi's term at distance 0, a band's |v| through a sign change) is
    // drawn at the floor, off the bottom of the plot: it does not set the axis' lower end, or one
    // zero would squeeze the curve into the top of a dozen empty decades.
    auto grow = [&](double v) {
        if (!std::isfinite(v) || (r.logY && v <= kLogFloor)) return;
        double& lo = growingBound ? boundMin : yMin;
        double& hi = growingBound ? boundMax : yMax;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    };
    std::vector<DecayLine>& lines = d.lines;
    std::vector<std::pair<std::size_t, QString>> boundLines;   // each bound's dashed line in lines, its series' title
    int k = 0;
    std::int64_t widest = 1;
    bool sampled = false;
    QStringList notes;
    for (const auto& s : r.series) {
        const QColor col = t.series(k++);
        if (!s.error.isEmpty()) continue;
        sampled = sampled || s.sampled;
        if (!s.note.isEmpty()) notes << s.title + QStringLiteral(": ") + s.note;
        const bool band = hasWideColumns(s);
        for (std::size_t i = 0; i < s.distanceFrom.size() && i < s.distanceTo.size(); ++i)
            widest = std::max(widest, s.distanceTo[i] - s.distanceFrom[i] + 1);
        // The exact envelope of every column (min … max over its distances), under its mean.
        auto bandOf = [&](const std::vector<double>& lo, const std::vector<double>& hi, const std::vector<double>& absLo,
                          const std::vector<double>& absHi, int alpha) {
            DecayLine b;
            b.pen = QPen(Qt::NoPen);
            b.band = true;
            QColor fill = col;
            fill.setAlpha(alpha);
            b.brush = QBrush(fill);
            for (std::size_t i = 0; i < s.distance.size() && i < lo.size() && i < hi.size(); ++i) {
                const double x = columnX(s, i);
                if (r.logX && x < 1) continue;
                double a = lo[i], c = hi[i];
                if (r.logY) {
                    // |v| over the column: from its smallest |v| (0 when it changes sign) to its largest.
                    a = decayPlotValue(i < absLo.size() ? absLo[i] : a, true);
                    c = decayPlotValue(i < absHi.size() ? absHi[i] : c, true);
                }
                b.points.emplace_back(x, c);
                b.lower.emplace_back(x, a);
                grow(a);
                grow(c);
            }
            lines.push_back(std::move(b));
        };
        if (band) bandOf(s.valueMin, s.valueMax, s.absMin, s.absMax, 80);
        DecayLine line;
        line.name = s.title;
        line.pen = QPen(col, t.lineWidth);
        line.points.reserve(s.distance.size());
        for (std::size_t i = 0; i < s.distance.size(); ++i) {
            const double x = columnX(s, i);
            if (r.logX && x < 1) continue;
            const double v = decayPlotValue(s.value[i], r.logY);
            line.points.emplace_back(x, v);
            grow(v);
        }
        lines.push_back(std::move(line));
        if (r.showBound && !s.scoreBound.empty()) {
            // RoFormer's bound where it is a bound: on |score|, in the score's own units, on the
            // score's axis (core decay's scoreBound). It is loose (Abel summation): on a linear
            // axis far above the score; never rescaled to look closer.
            growingBound = true;
            // The bound is >= 0: its |·| envelope is its envelope.
            if (band) bandOf(s.scoreBoundMin, s.scoreBoundMax, s.scoreBoundMin, s.scoreBoundMax, 40);
            boundLines.push_back({lines.size(), s.title});
            DecayLine b;
            b.name = QObject::tr("%1 upper bound on |score| (RoFormer)").arg(s.title);
            b.pen = QPen(col, std::max(1.0, t.lineWidth * 0.8), Qt::DashLine);
            for (std::size_t i = 0; i < s.distance.size() && i < s.scoreBound.size(); ++i) {
                const double x = columnX(s, i);
                if (r.logX && x < 1) continue;
                const double v = decayPlotValue(s.scoreBound[i], r.logY);
                b.points.emplace_back(x, v);
                grow(v);
            }
            growingBound = false;
            lines.push_back(std::move(b));
        }
    }
    // The bound in the value range, unless (linear axis) it reaches more than kFarAbove times
    // the score's largest |value|: then the axis is the score's (the score would be a flat line
    // at 0 under a loose bound), the bound is drawn in the same units where it falls inside and
    // runs above the plot elsewhere (clipped, never rescaled), and the title says so with its
    // largest value; the tooltip gives its values.
    constexpr double kFarAbove = 8;
    const double scoreReach = std::max(std::abs(yMin), std::abs(yMax));
    d.boundAbove = !r.logY && boundMin <= boundMax && yMin <= yMax && scoreReach > 0 && boundMax > kFarAbove * scoreReach;
    QString boundNote;
    if (d.boundAbove) {
        // The legend says where the line is even when the title (and its note) has no room.
        for (const auto& [i, title] : boundLines) lines[i].name = QObject::tr("%1 RoFormer bound, above the plot").arg(title);
        boundNote = boundMin > yMax ? QObject::tr("RoFormer's bound (dashed) runs above the plot, up to %1").arg(formatValue(boundMax))
                                    : QObject::tr("RoFormer's bound (dashed) runs partly above the plot, up to %1").arg(formatValue(boundMax));
    } else if (boundMin <= boundMax) {
        yMin = std::min(yMin, boundMin);
        yMax = std::max(yMax, boundMax);
    }
    if (!(yMax >= yMin)) {
        yMin = r.logY ? 1e-3 : -1;
        yMax = 1;
    }
    // Values beyond ±1e300 are drawn clipped (an axis to them would overflow: 1.2 · 1e308).
    yMin = std::clamp(yMin, -1e300, 1e300);
    yMax = std::clamp(yMax, -1e300, 1e300);
    // A flat curve, or one whose span is below the resolution of its values (a few ulps: a tick
    // step there could not be told from its neighbours): an axis around it.
    if (yMax - yMin <= 1e-12 * std::max(std::abs(yMin), std::abs(yMax))) {
        const double mid = yMin + (yMax - yMin) / 2;
        const double dy = r.logY ? mid * 0.5 : std::max(1.0, std::abs(mid) * 0.1);
        yMin = mid - dy;
        yMax = mid + dy;
    }
    addStopLines(lines, r, t, xMin, xMax, yMin, yMax);
    e = {xMin, xMax, yMin, yMax};

    // What a column is: every distance it covers (band: their exact min … max, line: their
    // mean), or, past the work limit, one sampled distance.
    // What the value axis holds: the score, or (learned, sinusoidal, Shaw, T5, Transformer-XL,
    // ALiBi) the positional term alone, without the content term q·k/√d a heatmap's score has.
    bool anyTerm = false, anyScore = false;
    for (const auto& s : r.series) {
        if (!s.error.isEmpty()) continue;
        (s.positionalTerm ? anyTerm : anyScore) = true;
    }
    const QString quantity = anyTerm && !anyScore ? QObject::tr("positional term")
                             : anyTerm           ? QObject::tr("score or positional term")
                                                 : QObject::tr("score");
    d.xTitle = r.logX ? QObject::tr("distance i − j (log)") : QObject::tr("distance i − j");
    // A short plot's axis says it shorter ("score or term"), never cut mid-word.
    const QString shortQuantity = anyTerm && !anyScore ? QObject::tr("term") : anyTerm ? QObject::tr("score or term") : quantity;
    for (const QString& q : {quantity, shortQuantity})
        if (d.yTitleForms.isEmpty() || d.yTitleForms.back() != (r.logY ? QObject::tr("|%1| (log)").arg(q) : q))
            d.yTitleForms << (r.logY ? QObject::tr("|%1| (log)").arg(q) : q);
    if (!errors.isEmpty()) {
        d.error = true;
        d.titleForms = {errors.join(QStringLiteral("; "))};
        return e;
    }
    // (A title's " · " parts go first when it does not fit: the axis still says what is plotted.)
    QString title = anyTerm && !anyScore ? QObject::tr("Positional term against distance i − j · without the content term q·k/√d")
                    : anyTerm            ? QObject::tr("Score or positional term against distance i − j · RoPE, xPos, NoPE: the score; "
                                                       "the others: their positional term alone")
                                         : QObject::tr("Score against distance i − j");
    if (sampled)
        title += QObject::tr(" · sampled: one distance per point (the whole curve is past the work limit)");
    else if (widest > 1)
        title += QObject::tr(" · each point: up to %1 distances, band min … max, line their mean").arg(widest);
    if (!notes.isEmpty()) title += QStringLiteral(" · ") + notes.join(QStringLiteral("; "));
    if (!boundNote.isEmpty()) title += QStringLiteral(" · ") + boundNote;
    // Longest first: the whole title, then without its last " · " parts one by one, then a
    // shorter way to say it (a slide's half-width plot), never a title cut mid-phrase: the axes
    // say the rest.
    const QStringList parts = title.split(QStringLiteral(" · "));
    for (qsizetype n = parts.size(); n >= 1; --n) d.titleForms.append(parts.mid(0, n).join(QStringLiteral(" · ")));
    d.titleForms.append(anyTerm && !anyScore ? QObject::tr("Positional term by distance")
                        : anyTerm            ? QObject::tr("Score or term by distance")
                                             : QObject::tr("Score by distance"));
    return e;
}

// Nice linear ticks for the value axis: its ends (the data a label's height beyond, in value
// units, so that its lowest label sits above the distance axis' labels, never on them) and its
// step; up to 6 ticks, fewer until neighbouring labels are 1.3 label heights apart.
struct ValueAxis {
    double from = 0, to = 1, step = 1;
};
ValueAxis linearValueAxis(double lo, double hi, double plotH, double labelH) {
    const auto niceStep = [](double a, double b, int ticks) { return plot::tickStep(a, b, ticks - 1); };
    const double pad = plotH > labelH * 4 ? (hi - lo) * labelH * 0.8 / (plotH - labelH * 1.6) : (hi - lo) * 0.08;
    // The axis' ends for a tick step: the data a pad beyond; with fewer than two ticks inside, out
    // to the ticks around the data, half a step beyond them; a tick in the room beyond the data
    // keeps that room beyond it (its label clear of the distance axis' labels).
    ValueAxis a;
    double reach = 0.5;
    const auto ends = [&](double step) {
        a.step = step;
        a.from = lo - pad;
        a.to = hi + pad;
        if (std::floor(a.to / step) - std::ceil(a.from / step) < 1) {
            a.from = std::floor(lo / step) * step - step * reach;
            a.to = std::ceil(hi / step) * step + step * reach;
        }
        if (const double first = std::ceil(a.from / step) * step; first < lo) a.from = std::min(a.from, first - pad);
        if (const double last = std::floor(a.to / step) * step; last > hi) a.to = std::max(a.to, last + pad);
    };
    double step = niceStep(lo, hi, 6);
    ends(step);
    const auto apart = [&] { return plotH <= 0 || plotH * a.step / (a.to - a.from) >= labelH * 1.3; };
    for (int n = 5; n >= 2 && !apart(); --n) {
        step = std::max(step, niceStep(lo, hi, n));
        ends(step);
    }
    // Still too close: the ticks around the data (three on a short plot) with a quarter of a
    // step beyond them instead of half: 2.5 steps in the plot's height, not 3.
    if (!apart()) {
        reach = 0.25;
        ends(step);
    }
    return a;
}

// Minor values of a log axis: 2 … 9 × 10^k inside [lo, hi] (none past 8 decades: a grey wash).
std::vector<double> logMinor(double lo, double hi) {
    std::vector<double> out;
    const int e0 = int(std::floor(std::log10(lo))), e1 = int(std::ceil(std::log10(hi)));
    if (e1 - e0 > 8) return out;
    for (int e = e0; e <= e1; ++e)
        for (int m = 2; m <= 9; ++m)
            if (const double v = m * std::pow(10.0, e); v > lo && v < hi) out.push_back(v);
    return out;
}

// Log ticks with at least two values: plot::ticks(), else (inside one decade) the powers of ten
// around [lo, hi] widen the range (the value axis) or integer ticks fill it (the distance axis).
plot::AxisTicks logTicks(double& lo, double& hi, bool widen) {
    plot::AxisTicks t;
    t.values = plot::ticks(lo, hi, 6, true);
    if (t.values.size() < 2 && widen) {
        lo = std::pow(10.0, std::floor(std::log10(lo)));
        hi = std::max(std::pow(10.0, std::ceil(std::log10(hi))), lo * 10);
        t.values = plot::ticks(lo, hi, 6, true);
    }
    if (t.values.size() < 2) {
        t.values.clear();
        for (std::int64_t v : plot::integerTicks(std::int64_t(std::ceil(lo)), std::int64_t(std::floor(hi)), 6)) t.values.push_back(double(v));
        t.labels = plot::tickLabels(t.values);
    } else {
        t.labels = plot::tickLabels(t.values, true);
    }
    t.minor = logMinor(lo, hi);
    return t;
}

}  // namespace

DecayPlot decayPlot(const QRectF& rect, const DecayResult& r, const Theme& t) {
    DecayPlot out;
    const DecayExtent d = decayData(out, r, t);
    const plot::ThemeFonts f = plot::themeFonts(t);
    const QRectF inner = rect.adjusted(4, 4, -4, -4);
    // The legend under the plot: every named line in full, in as many rows as the width needs.
    std::vector<DecayLegend::Entry> entries;
    for (const DecayLine& l : out.lines)
        if (!l.band && !l.name.isEmpty()) entries.push_back({l.name, l.pen, 0});
    out.legend = decayLegend(std::move(entries), t, std::max(1.0, inner.width()));
    out.legendRect = QRectF(inner.left(), inner.bottom() - out.legend.height(), inner.width(), out.legend.height());
    // A short chart keeps its height for the plot: the title goes (the axes say what is plotted);
    // an error is always said.
    const bool roomForTitle = rect.height() >= f.lhT * 2 + f.slh * 12;
    double top = inner.top();
    if (!out.titleForms.isEmpty() && (roomForTitle || out.error)) {
        // The first form that fits; where even the shortest would be cut, none (the axes say
        // what is plotted). An error is said even cut.
        const FittedText fitted = fitText(out.titleForms, t.titleFont(), inner.width() - 24);
        if (out.error || !fitted.text.contains(QChar(0x2026))) out.title = fitted.text;
    }
    if (out.error) {
        // An error is said whole, wrapped (at most half the height: the rest is the plot).
        out.title = out.titleForms.front();
        const double h = plot::wrappedTextHeight(t.titleFont(), std::max(1.0, inner.width()), out.title);
        out.titleRect = QRectF(inner.left(), top, inner.width(), std::min(h, std::max(0.0, inner.height() / 2)));
        top = out.titleRect.bottom();
    } else if (!out.title.isEmpty()) {
        out.titleRect = QRectF(inner.left(), top, inner.width(), f.lhT * 1.3);
        top = out.titleRect.bottom();
    }
    top += f.slh * 0.6;   // half of the top value label above the plot
    const double bottom = std::max(top + 1, out.legendRect.top() - (f.slh + 6 + f.lh + 2));
    const double plotH = bottom - top;
    const double labelH = QFontMetricsF(t.smallFont()).height();

    // The value axis.
    out.y.log = r.logY;
    if (r.logY) {
        out.y.lo = std::max(d.yMin, kLogFloor);
        out.y.hi = std::max(std::min(d.yMax * 1.2, 1e300), out.y.lo * 10);
        out.yTicks = logTicks(out.y.lo, out.y.hi, true);
        out.yTicks.minor.clear();   // minor lines on the distance axis only: both would be a mesh
    } else {
        const ValueAxis a = linearValueAxis(d.yMin, d.yMax, plotH, labelH);
        out.y.lo = a.from;
        out.y.hi = a.to;
        out.yTicks.values = plot::stepTicks(a.from, a.to, a.step, 64);
        out.yTicks.labels = plot::tickLabels(out.yTicks.values);
    }
    // The distance axis: the window exactly; integer ticks (multiples of a 1, 2, 5 × 10^k step >= 1).
    out.x.log = r.logX;
    out.x.lo = d.xMin;
    out.x.hi = d.xMax;
    if (r.logX) {
        out.xTicks = logTicks(out.x.lo, out.x.hi, false);
    } else {
        for (std::int64_t v : plot::integerTicks(std::int64_t(std::ceil(d.xMin)), std::int64_t(std::floor(d.xMax)), 6))
            out.xTicks.values.push_back(double(v));
        out.xTicks.labels = plot::tickLabels(out.xTicks.values);
    }
    // Left: the widest value label and the axis title; right: room for the last distance label's
    // half (it moves left to end with the plot, plot::axes).
    double labelW = 0;
    const QFontMetricsF fm(t.smallFont());
    for (const QString& s : out.yTicks.labels) labelW = std::max(labelW, fm.horizontalAdvance(typeset(s)));
    const QMarginsF m = plot::axesMargins(t, true, true, labelW);
    const double left = inner.left() + m.left(), right = std::max(left + 1, inner.right() - m.right());
    out.plot = QRectF(QPointF(left, top), QPointF(right, bottom));
    out.x.a = out.plot.left();
    out.x.b = out.plot.right();
    out.y.a = out.plot.bottom();
    out.y.b = out.plot.top();
    return out;
}

namespace {

// A line's points in pixels, split where a value is not finite (a gap, never a jump to NaN).
// A point far outside the plot (a loose bound above it) is not moved: each segment is cut where it
// leaves a band four plot heights beyond the plot, so that it crosses the plot's edge where the
// line does, and no coordinate is large enough to upset the rasteriser. `clamp` (a band's edges,
// which must stay one polygon): such points are held at the band's edge instead.
std::vector<QPolygonF> pixelRuns(const std::vector<QPointF>& points, const plot::Axis& x, const plot::Axis& y, bool clamp = false) {
    const double h = std::abs(y.a - y.b), top = std::min(y.a, y.b) - 4 * h, bottom = std::max(y.a, y.b) + 4 * h;
    std::vector<QPolygonF> runs(1);
    const auto gap = [&] {
        if (!runs.back().isEmpty()) runs.emplace_back();
    };
    QPointF prev;                  // the last point in pixels (not cut)
    bool hasPrev = false;
    for (const QPointF& pt : points) {
        const bool usable = std::isfinite(pt.x()) && std::isfinite(pt.y()) && !(x.log && pt.x() <= 0) && !(y.log && pt.y() <= 0);
        const QPointF q = usable ? QPointF(x.map(pt.x()), y.map(pt.y())) : QPointF();
        if (!usable || !std::isfinite(q.x()) || !std::isfinite(q.y())) {
            gap();
            hasPrev = false;
            continue;
        }
        if (clamp) {
            runs.back().append(QPointF(q.x(), std::clamp(q.y(), top, bottom)));
            continue;
        }
        const bool inside = q.y() >= top && q.y() <= bottom;
        if (!hasPrev) {
            if (inside) runs.back().append(q);
            prev = q;
            hasPrev = true;
            continue;
        }
        // The segment prev → q within the band [top, bottom] (Liang–Barsky on y).
        double t0 = 0, t1 = 1;
        const double dy = q.y() - prev.y();
        for (const double limit : {top, bottom}) {
            if (dy == 0) break;
            const double t = (limit - prev.y()) / dy;
            const bool entering = limit == top ? dy > 0 : dy < 0;
            if (entering) t0 = std::max(t0, t);
            else t1 = std::min(t1, t);
        }
        const bool prevInside = prev.y() >= top && prev.y() <= bottom;
        if ((dy == 0 && !inside) || t0 > t1) {
            gap();   // wholly beyond the band
        } else {
            const QPointF a = prev + (q - prev) * t0, b = prev + (q - prev) * t1;
            if (!prevInside) {
                gap();
                runs.back().append(a);
            }
            runs.back().append(b);
            if (!inside) gap();
        }
        prev = q;
    }
    if (runs.back().isEmpty()) runs.pop_back();
    return runs;
}

}  // namespace

void renderDecay(QPainter& p, const QRectF& rect, const DecayResult& result, const Theme& t) {
    const DecayPlot c = decayPlot(rect, result, t);
    p.save();
    p.setClipRect(rect, Qt::IntersectClip);   // nothing past its rectangle, however small
    p.fillRect(rect, t.background);
    p.setRenderHint(QPainter::Antialiasing, true);
    // The view exists for its plot when some series has values (layout.h: a panel).
    if (std::any_of(result.series.begin(), result.series.end(), [](const DecaySeries& s) { return s.error.isEmpty() && !s.distance.empty(); }))
        layoutRecord(p, LayoutItemKind::Panel, rect);
    if (c.error && !c.titleRect.isEmpty()) {
        p.setFont(t.titleFont());
        plot::wrappedText(p, c.titleRect, c.title, t.error);
    } else if (!c.titleRect.isEmpty()) {
        p.setFont(t.titleFont());
        // A shorter form of the title is a way to say it, not a cut (only "…" is).
        const FittedText title = fitText(c.title, t.titleFont(), c.titleRect.width() - 24);
        plot::text(p, c.titleRect.center(), title, plot::Align::Center, t.foreground);
    }
    plot::axes(p, c.plot, c.x, c.y, t, QStringList{c.xTitle}, c.yTitleForms, c.xTicks, c.yTicks, true);
    p.save();
    p.setClipRect(c.plot.adjusted(-1, -1, 1, 1), Qt::IntersectClip);
    for (const DecayLine& l : c.lines) {
        if (l.band) {
            const auto upper = pixelRuns(l.points, c.x, c.y, true), lower = pixelRuns(l.lower, c.x, c.y, true);
            if (upper.size() != 1 || lower.size() != 1) continue;   // a band with a gap is left to its line
            QPolygonF poly = upper.front();
            for (qsizetype i = lower.front().size() - 1; i >= 0; --i) poly.append(lower.front()[i]);
            p.setPen(Qt::NoPen);
            p.setBrush(l.brush);
            p.drawPolygon(poly);
            continue;
        }
        p.setPen(l.pen);
        p.setBrush(Qt::NoBrush);
        for (const QPolygonF& run : pixelRuns(l.points, c.x, c.y)) {
            if (run.size() == 1) p.drawPoint(run.front());
            else plot::polyline(p, run, l.pen);
        }
    }
    p.restore();
    drawDecayLegend(p, c.legendRect, c.legend, t);
    p.restore();
}

DecayLegend decayLegend(std::vector<DecayLegend::Entry> entries, const Theme& t, double width) {
    DecayLegend l;
    const QFontMetricsF fm(t.smallFont());
    l.line = fm.height();
    l.marker = l.line * 1.5;
    l.gap = l.line * 0.3;
    l.spacing = l.line;
    l.entries = std::move(entries);
    for (auto& e : l.entries) e.width = l.marker + l.gap + fm.horizontalAdvance(typeset(e.name));
    double used = 0;
    for (std::size_t i = 0; i < l.entries.size(); ++i) {
        const double w = l.entries[i].width;
        if (l.rows.empty() || used + l.spacing + w > width) {
            l.rows.push_back({i});
            used = w;
        } else {
            l.rows.back().push_back(i);
            used += l.spacing + w;
        }
    }
    return l;
}

void drawDecayLegend(QPainter& p, const QRectF& area, const DecayLegend& l, const Theme& t) {
    if (l.rows.empty()) return;
    p.save();
    p.setFont(t.smallFont());
    QRectF all;
    double y = area.top() + l.gap;
    for (const auto& row : l.rows) {
        double w = -l.spacing;
        for (std::size_t i : row) w += l.spacing + std::min(l.entries[i].width, area.width());
        double x = area.left() + std::max(0.0, (area.width() - w) / 2);
        const double yc = y + l.line / 2;
        for (std::size_t i : row) {
            const auto& e = l.entries[i];
            QPen pen = e.pen;
            pen.setCapStyle(Qt::FlatCap);
            p.setPen(pen);
            p.drawLine(QPointF(x, yc), QPointF(x + l.marker, yc));
            const double textW = std::min(e.width, area.width()) - l.marker - l.gap;
            const FittedText fitted = fitText(e.name, t.smallFont(), textW);
            const QRectF r = plot::text(p, QPointF(x + l.marker + l.gap, yc), fitted, plot::Align::Left, t.foreground);
            // The legend holds each entry's line box and its ink (which may overhang the box).
            const QFontMetricsF fm(p.font());
            const QString shown = typeset(fitted.text);
            all = all.united(QRectF(x, y, r.right() - x, l.line)).united(fm.tightBoundingRect(shown).translated(r.left(), r.top() + fm.ascent()));
            x += std::min(e.width, area.width()) + l.spacing;
        }
        y += l.line;
    }
    layoutRecord(p, LayoutItemKind::Legend, all.adjusted(-1, -1, 1, 1));
    p.restore();
}

std::optional<std::size_t> nearestDecaySample(const DecayResult& result, double d) {
    const DecaySeries* s = nullptr;
    for (const auto& x : result.series)
        if (x.error.isEmpty() && !x.distance.empty()) {
            s = &x;
            break;
        }
    if (!s) return std::nullopt;
    const auto it = std::lower_bound(s->distance.begin(), s->distance.end(), static_cast<std::int64_t>(std::ceil(d)));
    std::size_t i = static_cast<std::size_t>(it - s->distance.begin());
    if (i >= s->distance.size()) i = s->distance.size() - 1;
    if (i > 0 && std::abs(double(s->distance[i - 1]) - d) < std::abs(double(s->distance[i]) - d)) --i;
    return i;
}

QString decayToolTip(const DecayResult& result, std::size_t sample) {
    QStringList lines;
    for (const auto& s : result.series) {
        if (!s.error.isEmpty() || sample >= s.distance.size()) continue;
        const bool wide = sample < s.distanceFrom.size() && s.distanceTo[sample] > s.distanceFrom[sample];
        if (lines.isEmpty())
            lines << (wide ? QObject::tr("distances i − j = %1 … %2").arg(s.distanceFrom[sample]).arg(s.distanceTo[sample])
                           : QObject::tr("distance i − j = %1").arg(s.distance[sample]));
        QString line = wide ? QObject::tr("%1: mean %2, min %3, max %4")
                                  .arg(s.title, formatValue(s.value[sample]), formatValue(s.valueMin[sample]),
                                       formatValue(s.valueMax[sample]))
                            : QStringLiteral("%1 = %2").arg(s.title, formatValue(s.value[sample]));
        if (sample < s.scoreBound.size() && sample < s.bound.size())
            line += QObject::tr(" (bound on |score| %1; RoFormer's relative bound %2)").arg(formatValue(s.scoreBound[sample]), formatValue(s.bound[sample]));
        else if (sample < s.bound.size())
            line += QObject::tr(" (RoFormer's relative bound %1)").arg(formatValue(s.bound[sample]));
        lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace poslab::ui
