#pragma once
// Frequencies renderer: per pair i, the wavelength 2π/θ_i (left log axis, in positions) and so
// θ_i itself (right axis, the same curve read as radians per position), after scaling (solid)
// and before it (dashed) when a scaling changes them, with the original context length marked.
// All configurations share the plot (linked axes). A method without frequencies shows the
// picture it is known by, in a panel of its own beside the plot: ALiBi the slope m_h of every head
// (a legend entry per head, 4 significant digits), T5 its distance → bucket map.
#include "ui/render/theme.h"
#include "ui/model/results.h"

#include <QPainter>
#include <QRectF>

#include <optional>

namespace poslab::ui {

// The plots come first. By rule, until every plot is at least minPlotSide (layout.h): the notes
// get shorter (a method without frequencies says only that), then leave out what a picture's
// title says, then all but what the view shows nowhere else; then the θ axis goes, then the axis
// titles; last the pictures (a note says each is left out). The plot and the pictures are placed
// in the rows, and within a row the widths, whose smallest plot is largest (each panel's own
// tick labels and titles around it).
struct FrequencyLayout {
    enum class Notes { Full, Brief, Unpictured, Minimal };
    QRectF header;   // notes
    Notes notes = Notes::Full;
    bool theta = true;        // the θ axis on the right of the frequency plot
    bool titles = true;       // axis titles
    std::vector<int> dropped; // configurations whose picture is left out (no room: a note says so)
    QRectF area;     // the frequency plot's share, with its axes (empty when nothing has frequencies)
    QRectF plot;     // the plot area (empty when nothing has frequencies)
    double lo = 1, hi = 10;   // wavelength range of the log axis
    int pairs = 0;            // x axis: 0 .. pairs−1
    struct Picture {
        int config = 0;       // index into FrequencyResult::configs
        QRectF area;
    };
    std::vector<Picture> pictures;   // ALiBi slopes, T5 buckets (placed with the plot)
};
FrequencyLayout layoutFrequencies(const QRectF& rect, const FrequencyResult& result, const Theme& theme);

// M-RoPE: the colour of the pairs following axis 0 (t), 1 (h) or 2 (w) (FrequencyConfigResult::axis).
QColor frequencyAxisColor(int axis, const Theme& theme);

void renderFrequencies(QPainter& painter, const QRectF& rect, const FrequencyResult& result, const Theme& theme);

struct FrequencyHit {
    int pair = 0;
};
std::optional<FrequencyHit> hitTestFrequencies(const QRectF& rect, const FrequencyResult& result, const Theme& theme,
                                               const QPointF& point);
QString frequencyToolTip(const FrequencyResult& result, const FrequencyHit& hit);

}  // namespace poslab::ui
