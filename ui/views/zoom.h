#pragma once
// Zoom and pan arithmetic of the view window (sceneparams.h, ViewWindow): integer half-open
// windows [from, to) inside a whole range [lo, hi). Pure functions; the heatmap and decay views
// turn wheel, pinch, drag and rubber-band gestures into these.
#include "ui/model/sceneparams.h"

#include <QString>

namespace poslab::ui {

// `w` scaled by `factor` (< 1 zooms in, > 1 out) about the point `anchor` (a position, kept
// where it is on screen): the size becomes round(size · factor), changing by at least one
// position when factor != 1, between 1 and the whole range; then shifted to lie in [lo, hi).
ViewWindow zoomWindow(const ViewWindow& w, double anchor, double factor, std::int64_t lo, std::int64_t hi);
// `w` moved by `delta` positions, stopped at the ends of [lo, hi) (its size is kept).
ViewWindow panWindow(const ViewWindow& w, std::int64_t delta, std::int64_t lo, std::int64_t hi);
// The window covering the span [a, b] of (fractional) positions, a <= b or not: from floor of
// the smaller, to ceil of the larger (at least one position), clipped to [lo, hi).
ViewWindow spanWindow(double a, double b, std::int64_t lo, std::int64_t hi);

// The gestures, for the views' status tips and tooltips.
QString heatmapZoomHelp();
QString decayZoomHelp();

}  // namespace poslab::ui
