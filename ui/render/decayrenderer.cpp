#include "ui/render/decayrenderer.h"

#include "ui/model/sceneparams.h"
#include "ui/render/layout.h"
#include "ui/render/plot.h"
#include "ui/render/typeset.h"

#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QTextDocument>
#include <QGraphicsTextItem>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsItemGroup>
#include <QAreaSeries>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QObject>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

namespace {
constexpr double kLogFloor = 1e-12;
}

double decayPlotValue(double v, bool logY) {
    if (!logY) return v;
    return std::max(std::abs(v), kLogFloor);
}

namespace {

double niceNumber(double x, bool ceiling) {
    const double z = std::pow(10.0, std::floor(std::log10(x)));
    const double q = x / z;
    double n;
    if (ceiling) n = q <= 1.0 ? 1 : q <= 2.0 ? 2 : q <= 5.0 ? 5 : 10;
    else n = q < 1.5 ? 1 : q < 3.0 ? 2 : q < 7.0 ? 5 : 10;
    return n * z;
}

}  // namespace

NiceRange niceRange(double lo, double hi, int ticks) {
    if (!(std::isfinite(lo) && std::isfinite(hi) && hi > lo) || ticks < 2) return {lo, hi, std::max(2, ticks)};
    const double range = niceNumber(hi - lo, true);
    const double step = niceNumber(range / (ticks - 1), false);
    const double a = std::floor(lo / step), b = std::ceil(hi / step);
    NiceRange r{a * step, b * step, int(b - a) + 1};
    // Qt Charts puts tick i at lo + i·(hi − lo)/(ticks − 1); in floating point the tick meant to
    // be 0 can come out as −1.1e−16 and is printed so. Nudge lo by ulps until it is exactly 0.
    if (r.lo < 0 && r.hi > 0) {
        const NiceRange nice = r;
        const int k = int(std::llround(-a));
        for (int iter = 0; iter < 8; ++iter) {
            const double z = r.lo + (k * (r.hi - r.lo) / (r.ticks - 1));
            if (z == 0) break;
            r.lo -= z;
        }
        if (r.lo > lo || r.lo + (k * (r.hi - r.lo) / (r.ticks - 1)) != 0) r = nice;
    }
    return r;
}

namespace {

// The series a result needs, in order: (name, points, pen); a band (area) has its upper edge
// in `points` and its lower edge in `lower`, filled with `brush`, without a legend entry.
struct SeriesSpec {
    QString name;
    QList<QPointF> points;
    QPen pen;
    bool area = false;
    QList<QPointF> lower;
    QBrush brush;
};

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

}  // namespace

// Where a layer's window or chunk ends its curve: a dashed vertical line at the largest visible
// distance, in the series' colour, named in the legend ("A: window 1024: no key further than
// 1023"); none when the stop lies outside the distances shown.
void addStopLines(std::vector<SeriesSpec>& specs, const DecayResult& r, const Theme& t, double xMin, double xMax,
                  double yMin, double yMax) {
    for (std::size_t k = 0; k < r.series.size(); ++k) {
        const DecaySeries& s = r.series[k];
        if (!s.error.isEmpty() || !s.visibleTo) continue;
        const double x = static_cast<double>(*s.visibleTo);
        if (x < xMin || x > xMax) continue;
        QPen pen(t.series(static_cast<int>(k)), 1.5, Qt::DashDotLine);
        const QString name = r.series.size() > 1 ? s.title + QStringLiteral(": ") + s.stopText : s.stopText;
        SeriesSpec stop{name, {}, pen, false, {}, {}};
        const double lo = r.logY ? std::max(yMin, kLogFloor) : yMin, hi = yMax;
        stop.points = {QPointF(x, lo), QPointF(x, hi)};
        specs.push_back(std::move(stop));
    }
}

void configureDecayChart(QChart* chart, const DecayResult& r, const Theme& t) {
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
    auto grow = [&](double v) {
        if (!std::isfinite(v)) return;
        double& lo = growingBound ? boundMin : yMin;
        double& hi = growingBound ? boundMax : yMax;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    };
    std::vector<SeriesSpec> specs;
    std::vector<std::pair<std::size_t, QString>> boundSpecs;   // each bound's dashed line in specs, its series' title
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
        auto bandOf = [&](const QString& name, const std::vector<double>& lo, const std::vector<double>& hi,
                          const std::vector<double>& absLo, const std::vector<double>& absHi, int alpha) {
            SeriesSpec b{name, {}, QPen(Qt::NoPen), true, {}, {}};
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
                b.points.append(QPointF(x, c));
                b.lower.append(QPointF(x, a));
                grow(a);
                grow(c);
            }
            specs.push_back(std::move(b));
        };
        if (band) bandOf(QObject::tr("%1 range").arg(s.title), s.valueMin, s.valueMax, s.absMin, s.absMax, 80);
        SeriesSpec line{s.title, {}, QPen(col, t.lineWidth), false, {}, {}};
        line.points.reserve(static_cast<qsizetype>(s.distance.size()));
        for (std::size_t i = 0; i < s.distance.size(); ++i) {
            const double x = columnX(s, i);
            if (r.logX && x < 1) continue;
            const double v = decayPlotValue(s.value[i], r.logY);
            line.points.append(QPointF(x, v));
            grow(v);
        }
        specs.push_back(std::move(line));
        if (r.showBound && !s.scoreBound.empty()) {
            // RoFormer's bound where it is a bound: on |score|, in the score's own units, on the
            // score's axis (core decay's scoreBound). It is loose (Abel summation): on a linear
            // axis far above the score; never rescaled to look closer.
            const QString boundName = QObject::tr("%1 upper bound on |score| (RoFormer)").arg(s.title);
            // The bound is >= 0: its |·| envelope is its envelope.
            growingBound = true;
            if (band) bandOf(QObject::tr("%1 upper bound range").arg(s.title), s.scoreBoundMin, s.scoreBoundMax, s.scoreBoundMin, s.scoreBoundMax, 40);
            boundSpecs.push_back({specs.size(), s.title});
            SeriesSpec b{boundName, {}, QPen(col, std::max(1.0, t.lineWidth * 0.8), Qt::DashLine), false, {}, {}};
            for (std::size_t i = 0; i < s.distance.size() && i < s.scoreBound.size(); ++i) {
                const double x = columnX(s, i);
                if (r.logX && x < 1) continue;
                const double v = decayPlotValue(s.scoreBound[i], r.logY);
                b.points.append(QPointF(x, v));
                grow(v);
            }
            growingBound = false;
            specs.push_back(std::move(b));
        }
    }
    // The bound in the value range, unless (linear axis) it reaches more than kFarAbove times
    // the score's largest |value|: then the axis is the score's (the score would be a flat line
    // at 0 under a loose bound), the bound is drawn in the same units where it falls inside and
    // runs above the plot elsewhere (clipped, never rescaled), and the title says so with its
    // largest value; the tooltip gives its values.
    constexpr double kFarAbove = 8;
    const double scoreReach = std::max(std::abs(yMin), std::abs(yMax));
    const bool boundAbove = !r.logY && boundMin <= boundMax && yMin <= yMax && scoreReach > 0 && boundMax > kFarAbove * scoreReach;
    QString boundNote;
    if (boundAbove) {
        // The legend says where the line is even when the title (and its note) has no room.
        for (const auto& [i, title] : boundSpecs) specs[i].name = QObject::tr("%1 RoFormer bound, above the plot").arg(title);
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
    if (yMax == yMin) {
        const double d = r.logY ? yMax * 0.5 : std::max(1.0, std::abs(yMax) * 0.1);
        yMin -= d;
        yMax += d;
    }

    addStopLines(specs, r, t, xMin, xMax, yMin, yMax);

    // Reuse the chart's series and axes when the structure is unchanged (a slider drag): only
    // points and ranges change, which keeps a live update cheap.
    const auto hAxes = chart->axes(Qt::Horizontal);
    const auto vAxes = chart->axes(Qt::Vertical);
    const auto existing = chart->series();
    bool reuse = hAxes.size() == 1 && vAxes.size() == 1 && existing.size() == static_cast<qsizetype>(specs.size()) &&
                 (qobject_cast<QLogValueAxis*>(hAxes.front()) != nullptr) == r.logX &&
                 (qobject_cast<QLogValueAxis*>(vAxes.front()) != nullptr) == r.logY &&
                 chart->property("poslabTheme").toString() == t.name + QString::number(t.fontScale);
    for (qsizetype i = 0; reuse && i < existing.size(); ++i)
        reuse = existing[i]->name() == specs[static_cast<std::size_t>(i)].name &&
                (existing[i]->type() == QAbstractSeries::SeriesTypeArea) == specs[static_cast<std::size_t>(i)].area;

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
    // A short chart keeps its height for the plot: the title goes (the axis says what is plotted),
    // or Qt Charts squeezes the axes until it cuts every label to "...". A narrow one drops the
    // title's " · " parts that do not fit (layout.h fitText).
    const double small = QFontMetricsF(t.smallFont()).height(), titleH = QFontMetricsF(t.titleFont()).height();
    const bool roomForTitle = chart->size().height() <= 0 || chart->size().height() >= titleH * 2 + small * 12;
    // Where even the first part does not fit (a slide's half-width plot in the projector theme),
    // a shorter way to say it, never a title cut mid-phrase: the axes say the rest.
    if (chart->size().width() > 0) {
        // Longest first: the whole title, then without its last " · " parts one by one.
        const QStringList parts = title.split(QStringLiteral(" · "));
        QStringList forms;
        for (qsizetype n = parts.size(); n >= 1; --n) forms.append(parts.mid(0, n).join(QStringLiteral(" · ")));
        forms.append(anyTerm && !anyScore ? QObject::tr("Positional term by distance")
                     : anyTerm            ? QObject::tr("Score or term by distance")
                                          : QObject::tr("Score by distance"));
        title = fitText(forms, t.titleFont(), chart->size().width() - 24).text;
    }
    chart->setTitle(!errors.isEmpty() ? errors.join(QStringLiteral("; ")) : roomForTitle ? title : QString());
    chart->setTitleBrush(errors.isEmpty() ? QBrush(t.foreground) : QBrush(t.error));
    // Each range or tick-count change makes Qt Charts lay the axis out again (label text
    // shaping), so the nice range is computed here and applied only when it differs.
    const auto setLog = [](QLogValueAxis* a, double lo, double hi) {
        if (a->min() != lo || a->max() != hi) a->setRange(lo, hi);
    };
    // Linear axes have ticks at nice steps anchored at 0 (Qt Charts' dynamic ticks). The distance
    // axis ends where the data ends; so does the value axis, a label's height beyond (setY).
    const auto setTicks = [](QValueAxis* a, double lo, double hi, double step) {
        if (a->tickType() != QValueAxis::TicksDynamic) a->setTickType(QValueAxis::TicksDynamic);
        if (a->tickAnchor() != 0.0) a->setTickAnchor(0.0);
        if (a->tickInterval() != step) a->setTickInterval(step);
        if (a->min() != lo || a->max() != hi) a->setRange(lo, hi);
    };
    const auto niceStep = [](double lo, double hi, int ticks) {
        const NiceRange n = niceRange(lo, hi, ticks);
        return (n.hi - n.lo) / std::max(1, n.ticks - 1);
    };
    // The value labels stay apart (layout.h: a quarter of their height; here more than half):
    // up to 6 ticks, fewer where the plot, the chart less its title, margins, distance labels and
    // axis title (an estimate on the generous side), is too short for them.
    // renderDecay() lays the chart out once and tells the plot's and a tick label's real heights
    // (the properties below); until then, estimates.
    const double body = QFontMetricsF(t.bodyFont()).height();
    const QVariant measuredPlot = chart->property("poslabPlotHeight"), measuredLabel = chart->property("poslabLabelHeight");
    const double plotH = measuredPlot.isValid() ? measuredPlot.toDouble()
                         : chart->size().height() <= 0
                             ? 0.0
                             : chart->size().height() - 8 - (chart->title().isEmpty() ? 0.0 : titleH * 1.6) - small * 1.5 - body * 1.6 - 16;
    const double labelH = measuredLabel.isValid() ? measuredLabel.toDouble() : small * 1.3;
    const auto setY = [&](QValueAxis* a, double lo, double hi) {
        // The axis ends where the data ends, a label's height beyond it (in value units), so that
        // its lowest label sits above the distance axis's first label, never on it.
        const double pad = plotH > labelH * 4 ? (hi - lo) * labelH * 0.8 / (plotH - labelH * 1.6) : (hi - lo) * 0.08;
        // The axis's ends for a tick step: the data a pad beyond; with fewer than two ticks
        // inside, out to the ticks around the data, half a step beyond them; a tick in the room
        // beyond the data keeps that room beyond it (its label clear of the distance axis's labels).
        double from = 0, to = 0, reach = 0.5;
        const auto ends = [&](double step) {
            from = lo - pad;
            to = hi + pad;
            if (std::floor(to / step) - std::ceil(from / step) < 1) {
                from = std::floor(lo / step) * step - step * reach;
                to = std::ceil(hi / step) * step + step * reach;
            }
            if (const double first = std::ceil(from / step) * step; first < lo) from = std::min(from, first - pad);
            if (const double last = std::floor(to / step) * step; last > hi) to = std::max(to, last + pad);
        };
        // Up to 6 ticks; fewer until neighbouring labels are 1.3 label heights apart on the axis as
        // it finally ends.
        double step = niceStep(lo, hi, 6);
        ends(step);
        const auto apart = [&] { return plotH <= 0 || plotH * step / (to - from) >= labelH * 1.3; };
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
        setTicks(a, from, to, step);
    };
    // Distance ticks: integers (multiples of a 1, 2, 5 × 10^k step >= 1) inside the window.
    const auto setDistance = [](QValueAxis* a, double lo, double hi) {
        if (a->min() != lo || a->max() != hi) a->setRange(lo, hi);
        const double step = double(plot::integerTickStep(std::int64_t(lo), std::int64_t(hi), 6));
        if (a->tickType() != QValueAxis::TicksDynamic) a->setTickType(QValueAxis::TicksDynamic);
        if (a->tickAnchor() != 0) a->setTickAnchor(0);
        if (a->tickInterval() != step) a->setTickInterval(step);
    };
    auto setRanges = [&](QAbstractAxis* ax, QAbstractAxis* ay) {
        if (auto* a = qobject_cast<QLogValueAxis*>(ax)) setLog(a, xMin, xMax);
        if (auto* a = qobject_cast<QValueAxis*>(ax)) setDistance(a, xMin, xMax);
        if (auto* a = qobject_cast<QLogValueAxis*>(ay)) setLog(a, std::max(yMin, kLogFloor), yMax * 1.2);
        if (auto* a = qobject_cast<QValueAxis*>(ay)) setY(a, yMin, yMax);
    };
    if (reuse) {
        for (qsizetype i = 0; i < existing.size(); ++i) {
            const auto& spec = specs[static_cast<std::size_t>(i)];
            if (spec.area) {
                auto* area = static_cast<QAreaSeries*>(existing[i]);
                area->upperSeries()->replace(spec.points);
                area->lowerSeries()->replace(spec.lower);
                if (area->brush() != spec.brush) area->setBrush(spec.brush);
                continue;
            }
            auto* line = static_cast<QLineSeries*>(existing[i]);
            line->replace(spec.points);
            if (line->pen() != spec.pen) line->setPen(spec.pen);
        }
        setRanges(hAxes.front(), vAxes.front());
        return;
    }

    chart->removeAllSeries();
    for (auto* a : chart->axes()) {
        // Qt Charts deletes an axis's graphics later (deleteLater): hide them now, or the next
        // paint shows the old labels under the new ones.
        a->setVisible(false);
        chart->removeAxis(a);
        delete a;
    }
    chart->setProperty("poslabTheme", t.name + QString::number(t.fontScale));
    chart->setBackgroundBrush(t.background);
    chart->setBackgroundRoundness(0);
    chart->setPlotAreaBackgroundVisible(false);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setTitleFont(t.titleFont());

    QAbstractAxis* ax = nullptr;
    QAbstractAxis* ay = nullptr;
    if (r.logX) {
        auto* a = new QLogValueAxis;
        a->setBase(10);
        a->setLabelFormat(QStringLiteral("%g"));
        a->setMinorTickCount(8);
        ax = a;
    } else {
        auto* a = new QValueAxis;
        a->setLabelFormat(QStringLiteral("%.0f"));
        ax = a;
    }
    if (r.logY) {
        auto* a = new QLogValueAxis;
        a->setBase(10);
        a->setLabelFormat(QStringLiteral("%g"));
        ay = a;
    } else {
        auto* a = new QValueAxis;
        a->setLabelFormat(QStringLiteral("%.4g"));   // numbers shown: 4 significant digits
        ay = a;
    }
    setRanges(ax, ay);
    ax->setTitleText(r.logX ? QObject::tr("distance i − j (log)") : QObject::tr("distance i − j"));
    ay->setTitleText(r.logY ? QObject::tr("|%1| (log)").arg(quantity) : quantity);
    for (auto* a : {ax, ay}) {
        a->setLabelsFont(t.smallFont());
        a->setTitleFont(t.bodyFont());
        a->setLabelsBrush(t.muted);
        a->setTitleBrush(t.foreground);
        a->setLinePen(QPen(t.foreground, t.axisWidth));
        a->setGridLinePen(QPen(t.grid, 1));
        a->setMinorGridLinePen(QPen(t.grid.lighter(t.background.lightness() < 128 ? 80 : 104), 1));
    }
    chart->addAxis(ax, Qt::AlignBottom);
    chart->addAxis(ay, Qt::AlignLeft);
    for (const auto& spec : specs) {
        if (spec.area) {
            auto* upper = new QLineSeries;
            auto* lower = new QLineSeries;
            upper->replace(spec.points);
            lower->replace(spec.lower);
            auto* area = new QAreaSeries(upper, lower);
            upper->setParent(area);
            lower->setParent(area);
            area->setName(spec.name);
            area->setPen(spec.pen);
            area->setBrush(spec.brush);
            chart->addSeries(area);
            area->attachAxis(ax);
            area->attachAxis(ay);
            for (auto* m : chart->legend()->markers(area)) m->setVisible(false);
            continue;
        }
        auto* line = new QLineSeries;
        line->setName(spec.name);
        line->replace(spec.points);
        line->setPen(spec.pen);
        chart->addSeries(line);
        line->attachAxis(ax);
        line->attachAxis(ay);
    }
    chart->legend()->setVisible(true);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setFont(t.smallFont());
    chart->legend()->setLabelColor(t.foreground);
    chart->legend()->setBackgroundVisible(false);
    // The legend shows each line as drawn (solid score, dashed bound), and takes no more height
    // than its entries: the plot gets the rest.
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    chart->legend()->setContentsMargins(0, 0, 0, 0);
    if (chart->layout()) chart->layout()->setContentsMargins(0, 0, 0, 0);
}


DecayLegend decayLegend(QChart* chart, const Theme& t, double width) {
    DecayLegend l;
    const QFontMetricsF fm(t.smallFont());
    l.line = fm.height();
    l.marker = l.line * 1.5;
    l.gap = l.line * 0.3;
    l.spacing = l.line;
    // The chart's legend entries: its line series (the bands, area series, have none).
    for (QAbstractSeries* series : chart->series()) {
        auto* line = qobject_cast<QLineSeries*>(series);
        if (!line || series->type() == QAbstractSeries::SeriesTypeArea || series->name().isEmpty()) continue;
        l.entries.push_back({series->name(), line->pen(), l.marker + l.gap + fm.horizontalAdvance(typeset(series->name()))});
    }
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

// Qt Charts writes its tick values as it adds up the steps ("-5.551e-17" for 0) and with one
// printf format ("1e-05" beside "0.001"): each axis' labels are rewritten by the rule of every
// other axis (plot::tickLabels: 4 significant digits, one way), a value within a billionth of a
// step of 0 as 0; each keeps its place against its tick (right-aligned on the value axis, centred
// on the distance axis).
void relabelDecayTicks(QGraphicsScene& scene) {
    std::vector<QGraphicsItem*> groups;
    for (QGraphicsItem* item : scene.items())
        if (item->isVisible() && item->type() == QGraphicsItemGroup::Type) groups.push_back(item);
    for (QGraphicsItem* g : groups) {
        std::vector<QGraphicsTextItem*> labels;
        std::vector<double> values;
        bool numbers = true;
        for (QGraphicsItem* child : g->childItems()) {
            auto* text = dynamic_cast<QGraphicsTextItem*>(child);
            if (!text || !text->isVisible()) continue;
            bool ok = false;
            const double v = text->toPlainText().replace(QChar(0x2212), QLatin1Char('-')).toDouble(&ok);
            numbers = numbers && ok && std::isfinite(v);
            labels.push_back(text);
            values.push_back(v);
        }
        if (!numbers || labels.size() < 2) continue;
        double step = std::numeric_limits<double>::infinity();
        for (std::size_t i = 1; i < values.size(); ++i)
            if (values[i] != values[i - 1]) step = std::min(step, std::abs(values[i] - values[i - 1]));
        for (double& v : values)
            if (std::isfinite(step) && std::abs(v) < step * 1e-9) v = 0;
        const QStringList written = plot::tickLabels(values);
        bool vertical = true;
        for (auto* text : labels) vertical = vertical && std::abs(text->sceneBoundingRect().right() - labels.front()->sceneBoundingRect().right()) < 1;
        for (std::size_t i = 0; i < labels.size(); ++i) {
            if (labels[i]->toPlainText() == written[qsizetype(i)]) continue;
            const double before = labels[i]->boundingRect().width();
            labels[i]->setTextWidth(-1);   // one line, as wide as the new text
            labels[i]->setPlainText(written[qsizetype(i)]);
            const double shift = before - labels[i]->boundingRect().width();
            labels[i]->moveBy(vertical ? shift : shift / 2, 0);
        }
    }
}

// The chart as the window's QChartView shows it: configureDecayChart(), laid out (outside a
// running event loop Qt Charts does not lay itself out: without this its axes, title and legend
// would be missing), then painted; with layout capture on, what Qt Charts placed is recorded. The
// legend is the figure's own (decayLegend: every entry in full, in as many rows as it needs),
// under the chart, which keeps the rest of the height.
void renderDecay(QPainter& painter, const QRectF& rect, const DecayResult& result, const Theme& theme) {
    QGraphicsScene scene;
    auto* chart = new QChart;  // owned by the scene
    scene.addItem(chart);
    chart->setGeometry(QRectF(QPointF(0, 0), rect.size()));
    configureDecayChart(chart, result, theme);
    const DecayLegend legend = decayLegend(chart, theme, rect.width() - 8);
    chart->legend()->setVisible(false);
    const QSizeF chartSize(rect.width(), std::max(1.0, rect.height() - legend.height()));
    chart->setGeometry(QRectF(QPointF(0, 0), chartSize));
    configureDecayChart(chart, result, theme);   // the title fitted to the chart's own height
    chart->legend()->setVisible(false);
    // Laid out again once the fonts and labels are known: the first pass can squeeze the axes
    // until Qt Charts cuts every label to "...". Then the value axis is set again for the plot's
    // and its labels' real heights (the ticks apart, the lowest label clear of the distance axis).
    const auto layOut = [&] {
        for (int pass = 0; pass < 2 && chart->layout(); ++pass) {
            chart->layout()->invalidate();
            chart->layout()->activate();
        }
    };
    layOut();
    double labelHeight = 0;
    for (QGraphicsItem* item : scene.items())
        if (auto* text = dynamic_cast<QGraphicsTextItem*>(item);
            text && text->isVisible() && item->parentItem() && item->parentItem()->type() == QGraphicsItemGroup::Type) {
            const double m = text->document() ? text->document()->documentMargin() : 0.0;
            labelHeight = std::max(labelHeight, text->boundingRect().height() - 2 * m);
        }
    if (labelHeight > 0 && chart->plotArea().height() > 0) {
        chart->setProperty("poslabPlotHeight", chart->plotArea().height());
        chart->setProperty("poslabLabelHeight", labelHeight);
        configureDecayChart(chart, result, theme);
        chart->legend()->setVisible(false);
        layOut();
    }
    scene.setSceneRect(QRectF(QPointF(0, 0), chartSize));
    relabelDecayTicks(scene);   // the tick labels written as every other axis writes them
    // What Qt Charts placed as text (title, tick labels, axis titles): recorded after painting;
    // the tick labels of one axis (one item group) as one LayoutGroup. Without text painting
    // (LayoutCapture::setPaintText) the text is hidden, so that the image shows what it covers.
    struct Placed {
        QString text;
        QRectF box;
        const QGraphicsItem* group;
        QFont font;
    };
    std::vector<Placed> placed;
    const bool capturing = layoutCapturing(), paintText = layoutPaintsText();
    if (capturing) {
        for (QGraphicsItem* item : scene.items()) {
            if (!item->isVisible()) continue;
            QString text;
            QFont font;
            QRectF box = item->sceneBoundingRect();
            if (auto* t = dynamic_cast<QGraphicsTextItem*>(item)) {
                text = t->toPlainText();
                font = t->font();
                // The text without the document's margin around it.
                const double m = t->document() ? t->document()->documentMargin() : 0.0;
                box = t->mapRectToScene(t->boundingRect().adjusted(m, m, -m, -m));
            } else if (auto* st = dynamic_cast<QGraphicsSimpleTextItem*>(item)) {
                text = st->text();
                font = st->font();
            } else {
                continue;
            }
            if (text.isEmpty()) continue;
            const QGraphicsItem* parent = item->parentItem();
            placed.push_back({text, box, parent && parent->type() == QGraphicsItemGroup::Type ? parent : nullptr, font});
            if (!paintText) item->setVisible(false);
        }
    }
    painter.save();
    painter.fillRect(rect, theme.background);
    painter.setRenderHint(QPainter::Antialiasing, true);
    scene.render(&painter, QRectF(rect.topLeft(), chartSize), scene.sceneRect());
    drawDecayLegend(painter, QRectF(rect.left() + 4, rect.top() + chartSize.height(), rect.width() - 8, legend.height()), legend, theme);
    painter.restore();
    if (capturing) {
        const QPointF at = rect.topLeft();
        // The view exists for its plot when some series has values (layout.h: a panel).
        if (std::any_of(result.series.begin(), result.series.end(), [](const DecaySeries& s) { return s.error.isEmpty() && !s.distance.empty(); }))
            layoutRecord(painter, LayoutItemKind::Panel, rect);
        layoutRecord(painter, LayoutItemKind::Plot, chart->plotArea().translated(at));
        // Qt Charts cuts a label that does not fit with "...".
        const auto record = [&](const Placed& x) {
            const bool elided = x.text.contains(QStringLiteral("...")) || x.text.contains(QChar(0x2026));
            layoutRecordText(painter, x.box.translated(at), x.text, x.font, elided, paintText);
        };
        std::vector<const QGraphicsItem*> groups;   // in the order they first appear
        for (const Placed& x : placed) {
            if (!x.group) record(x);
            else if (std::find(groups.begin(), groups.end(), x.group) == groups.end()) groups.push_back(x.group);
        }
        for (const QGraphicsItem* g : groups) {
            LayoutGroup group;
            for (const Placed& x : placed)
                if (x.group == g) record(x);
        }
    }
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
