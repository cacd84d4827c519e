#pragma once
// Decay-with-distance chart: each configuration's score against the relative distance i − j,
// overlaid, on linear or log axes (a log value axis plots |value|), RoFormer's bound dashed, a
// layer's window or chunk stop dash-dotted, each column of several distances a band (its exact
// min … max) under its mean.
//
//   decayPlot(rect, result, theme)   → the chart laid out as values: every line and band in data
//        units, both axes (range, pixel ends, ticks and their labels), the title, the legend, and
//        where each goes in `rect`. What is drawn, and what a view's mouse maps through.
//   renderDecay(painter, rect, result, theme) draws decayPlot() with QPainter (plot.h's axes), on
//        any painter and any thread: the window's view (drawn on a worker like every other view),
//        export, `poslab figure`, slides.
// Preconditions: none on the result (a series with an error is named in the title, in the error
// colour, and draws nothing); a rect smaller than the chrome leaves a plot of at least 1 × 1 px.
#include "ui/model/results.h"
#include "ui/render/plot.h"
#include "ui/render/theme.h"

#include <QBrush>
#include <QPainter>
#include <QPen>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace poslab::ui {

// The chart's legend, the same in figures and in the window: every line by name, its line drawn
// as the chart draws it (solid score, dashed bound, dash-dotted stop), in full, flowed into as
// many centred rows as `width` needs. An entry is shortened by rule (fitText) only when it alone
// is wider than `width`.
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
// The legend of `entries` (name and pen each; widths are measured here) for `width` pixels.
DecayLegend decayLegend(std::vector<DecayLegend::Entry> entries, const Theme& theme, double width);
// Draws `l` in `area` (its height l.height()), recorded as a Legend item when layout capture is on.
void drawDecayLegend(QPainter& p, const QRectF& area, const DecayLegend& l, const Theme& theme);

// One drawn line of the chart, in data units (x: distance, y: the plotted value: decayPlotValue).
// A band is the area between `points` (upper edge) and `lower`, filled with `brush`, without a
// legend entry; a line has one unless its name is empty.
struct DecayLine {
    QString name;
    std::vector<QPointF> points;
    QPen pen;
    bool band = false;
    std::vector<QPointF> lower;
    QBrush brush;
};

struct DecayPlot {
    std::vector<DecayLine> lines;     // in drawing order: per configuration band, line, bound band, bound; then stops
    plot::Axis x, y;                  // ranges and pixel ends (x: plot left → right, y: bottom → top)
    plot::AxisTicks xTicks, yTicks;   // labels as plot::tickLabels() writes them
    QString xTitle;
    QStringList yTitleForms;          // the value axis' title, longest first (the first that fits is drawn)
    QStringList titleForms;           // the chart's title, longest first
    QString title;                    // the form drawn: the first that fits; none where even the last would be cut
    bool error = false;               // the title names a configuration's error (drawn, cut if it must be)
    QRectF titleRect, plot, legendRect;   // in the rect's coordinates; titleRect empty: no title
    DecayLegend legend;
    bool boundAbove = false;          // RoFormer's bound runs above the plot (the score keeps the axis)
};

// The chart of `result` laid out in `rect` for `theme`.
DecayPlot decayPlot(const QRectF& rect, const DecayResult& result, const Theme& theme);

void renderDecay(QPainter& painter, const QRectF& rect, const DecayResult& result, const Theme& theme);

// The sample nearest to distance `d` (index into each series' distance list), or nullopt.
std::optional<std::size_t> nearestDecaySample(const DecayResult& result, double d);
// "distance 12\nA: RoPE = 1.234… (bound 0.9…)" for every series.
QString decayToolTip(const DecayResult& result, std::size_t sample);

// Value plotted for v: v, or |v| on a log value axis (clamped to a tiny positive floor).
double decayPlotValue(double v, bool logY);

}  // namespace poslab::ui
