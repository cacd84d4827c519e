#pragma once
// Decay-with-distance chart (Qt Charts): each configuration's score against the relative
// distance i − j, overlaid, linear or log axes (log value axis plots |value|), RoPE's upper
// bound dashed. configureDecayChart() fills a QChart (the window's QChartView uses it);
// renderDecay() draws the same chart, laid out as the window lays it out, onto any QPainter
// (export, `poslab figure`, slides).
#include "ui/render/theme.h"
#include "ui/model/results.h"

#include <QPainter>
#include <QRectF>

#include <optional>

#include <QPen>
#include <QString>

#include <vector>

QT_BEGIN_NAMESPACE
class QChart;
class QGraphicsScene;
QT_END_NAMESPACE

namespace poslab::ui {

// Rebuilds `chart`'s series and axes for the result, styled by the theme.
void configureDecayChart(QChart* chart, const DecayResult& result, const Theme& theme);

void renderDecay(QPainter& painter, const QRectF& rect, const DecayResult& result, const Theme& theme);

// The chart's legend, the same in figures and in the window (Qt Charts' own legend is hidden: it
// shortens entries to "A: RoPE…"): every line series of the chart by name, its line drawn as the
// series draws it (solid score, dashed bound, dash-dotted stop), in full, flowed into as many
// centred rows as `width` needs. An entry is shortened by rule (fitText) only when it alone is
// wider than `width`.
struct DecayLegend {
    struct Entry {
        QString name;
        QPen pen;
        double width = 0;   // sample, gap and text
    };
    std::vector<Entry> entries;
    std::vector<std::vector<std::size_t>> rows;   // indices into entries
    double marker = 0, gap = 0, spacing = 0, line = 0;
    double height() const { return rows.empty() ? 0.0 : double(rows.size()) * line + 2 * gap; }
};
DecayLegend decayLegend(QChart* chart, const Theme& theme, double width);
// Draws `l` in `area` (its height l.height()), recorded as a Legend item when layout capture is on.
void drawDecayLegend(QPainter& p, const QRectF& area, const DecayLegend& l, const Theme& theme);

// Rewrites the chart's tick labels in `scene` (after Qt Charts laid it out) by the rule of every
// other axis (plot::tickLabels: 4 significant digits, one format per axis, 0 rather than
// "-5.551e-17"), each kept in its place against its tick. Labels already so are left alone.
void relabelDecayTicks(QGraphicsScene& scene);

// The sample nearest to distance `d` (index into each series' distance list), or nullopt.
std::optional<std::size_t> nearestDecaySample(const DecayResult& result, double d);
// "distance 12\nA: RoPE = 1.234… (bound 0.9…)" for every series.
QString decayToolTip(const DecayResult& result, std::size_t sample);

// Value plotted for v: v, or |v| on a log value axis (clamped to a tiny positive floor).
double decayPlotValue(double v, bool logY);

// The range a linear axis shows for data in [lo, hi] with about `ticks` ticks, as Qt Charts'
// applyNiceNumbers() makes it (loose nice numbers: steps of 1, 2 or 5 × 10^k; the bounds are
// multiples of the step around the data). Precondition: lo < hi, both finite, ticks >= 2.
struct NiceRange {
    double lo = 0, hi = 1;
    int ticks = 2;
};
NiceRange niceRange(double lo, double hi, int ticks);

}  // namespace poslab::ui
