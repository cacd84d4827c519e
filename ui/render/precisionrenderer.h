#pragma once
// Precision renderer (RoPE in the scene's dtype against exact double), one column per
// configuration, three plots stacked:
//   · the angle error (rad) against position 0 .. N−1, one band per chosen pair (each column's
//     min..max over its positions, a line where it is one position);
//   · the cos error against position, the same way;
//   · the largest |cos error| or |sin error| over all pairs at log-spaced positions up to 2^20,
//     log-log, with the scene's N and the first colliding position marked.
// The positions that collide in the angle dtype (different integers held as one value) are
// marked by a strip under the first two plots, and counted in the caption. Beside the plots (below
// them in a narrow, tall column; left out when there is no room) the score error heatmap, drawn by
// renderHeatmap (ui/render/heatmaprenderer.h). Every number drawn is the result's
// (ui/model/compute.h computePrecision).
#include "ui/render/theme.h"
#include "ui/model/results.h"

#include <QPainter>
#include <QRectF>
#include <QString>

#include <vector>

namespace poslab::ui {

// Geometry of one configuration's column: the plot frames (empty when the column is too small) and
// the score error heatmap's rectangle (empty when left out), the caption's top.
struct PrecisionPanelLayout {
    QRectF column, angle, cos, log, heatmap;
    // Where a line says the score error heatmap is left out (no room for legible cells: its
    // cells would be under minPlotSide, layout.h); empty when it is drawn.
    QRectF heatmapLeftOut;
    double captionTop = 0;
};
// `square`: the heatmap's cells square (a slide: view.heatmapSquareCells, HeatmapResult::squareCells);
// below the plots it then takes up to half the height, so that it keeps its axis titles.
std::vector<PrecisionPanelLayout> layoutPrecision(const QRectF& rect, int configs, const Theme& theme, bool square = false);
// Blocks per axis the score error heatmap should ask for (DisplaySpec::precisionCells): its cells'
// shorter side in device pixels, 16 .. 512.
int precisionCellsFor(const QRectF& rect, int configs, const Theme& theme, double devicePixelRatio = 1.0, bool square = false);

void renderPrecision(QPainter& painter, const QRectF& rect, const PrecisionResult& result, const Theme& theme);

// What lies under `point`, in numbers (the hover text; empty over nothing): on the angle and cos
// plots the column's positions, whether they collide, and per chosen pair its angle error and cos
// error there (min … max over the column, or the one value); on the log plot the nearest sampled
// position and its largest |Δcos|, |Δsin|; on the heatmap the cell or block and its score error
// (heatmapToolTip).
QString precisionToolTip(const QRectF& rect, const PrecisionResult& result, const Theme& theme, const QPointF& point);

}  // namespace poslab::ui
