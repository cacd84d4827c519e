#pragma once
// Frequencies renderer: per pair i, the wavelength 2π/θ_i (left log axis, in positions) and so
// θ_i itself (right axis, the same curve read as radians per position), after scaling (solid)
// and before it (dashed) when a scaling changes them, with the original context length marked.
// All configurations share the plot (linked axes).
#include "ui/render/theme.h"
#include "ui/model/results.h"

#include <QPainter>
#include <QRectF>

#include <optional>

namespace poslab::ui {

struct FrequencyLayout {
    QRectF header;   // notes
    QRectF plot;     // the plot area (empty when nothing has frequencies)
    double lo = 1, hi = 10;   // wavelength range of the log axis
    int pairs = 0;            // x axis: 0 .. pairs−1
};
FrequencyLayout layoutFrequencies(const QRectF& rect, const FrequencyResult& result, const Theme& theme);

void renderFrequencies(QPainter& painter, const QRectF& rect, const FrequencyResult& result, const Theme& theme);

struct FrequencyHit {
    int pair = 0;
};
std::optional<FrequencyHit> hitTestFrequencies(const QRectF& rect, const FrequencyResult& result, const Theme& theme,
                                               const QPointF& point);
QString frequencyToolTip(const FrequencyResult& result, const FrequencyHit& hit);

}  // namespace poslab::ui
