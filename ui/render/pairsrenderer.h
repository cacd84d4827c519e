#pragma once
// Pair-vector renderer. One row per configuration.
//   Rotating methods (RoPE, xPos, sinusoidal): one square cell per chosen pair i, the 2-D vector
//   of that pair of the query (arrow) and key (hollow dot) at each position of interest, a trail
//   of the vector across positions 0 … max (a line where consecutive samples are close, dots
//   where a pair turns too fast between samples for a line between them to mean anything: see
//   trailAsDots), the reference circle, and the angle m·θ_i of the
//   furthest position drawn as an arc and written out. All cells share one scale (linked axes).
//   Other methods: their one-sentence summary, the bias/index curve against distance and the
//   table they add (learned, Shaw, T5, Transformer-XL) as a colour image.
#include "ui/render/theme.h"
#include "ui/model/results.h"

#include <QPainter>
#include <QRectF>

#include <optional>

namespace poslab::ui {

struct PairsCellLayout {
    int pairIndex = 0;          // index into PairsConfigResult::pairs
    QRectF cell;                // the whole cell
    QPointF center;             // origin of the 2-D plane
    double scale = 1;           // pixels per unit
};

struct PairsRowLayout {
    QRectF row;
    QRectF header;              // title, summary, legend
    bool summary = true;        // the summary fits (dropped, by rule, when it would squeeze the plots)
    bool cellText = true;       // each cell's text lines (dropped, by rule, when the circles would be tiny)
    std::vector<PairsCellLayout> cells;   // rotating methods
    QRectF curveText, curve, table, tableBar;  // other methods (empty rects when absent)
};

std::vector<PairsRowLayout> layoutPairs(const QRectF& rect, const PairsResult& result, const Theme& theme);

// How many automatic pairs (DisplaySpec::autoPairs) a pair-vector view of this size shows for
// `configs` configurations: four, or eight when eight circles in their best grid are at least
// 85 % as large as four would be and each cell is as wide as its text lines (a wide and tall
// pane then shows twice the frequencies instead of leaving its lower half empty).
int automaticPairsFor(const QRectF& rect, int configs, const Theme& theme);

// Colour of the k-th of n positions of interest (sequential, readable on the theme's background).
QColor positionColor(int k, int n, const Theme& theme);

// Whether a trail is drawn as dots: some step between consecutive trail samples spans more than
// about 20° of the circle (a chord that long cuts through the circle where the vector never is).
bool trailAsDots(const PairPanel& pair);

void renderPairs(QPainter& painter, const QRectF& rect, const PairsResult& result, const Theme& theme);

struct PairsHit {
    int config = 0;
    int pairIndex = -1;         // rotating: index into pairs
    int position = -1;          // rotating: index into positions
    int curvePoint = -1;        // non-rotating: index into curves[highlight].x
    int tableRow = -1, tableCol = -1;
};
std::optional<PairsHit> hitTestPairs(const QRectF& rect, const PairsResult& result, const Theme& theme,
                                     const QPointF& point);
QString pairsToolTip(const PairsResult& result, const PairsHit& hit);

// "32 rad (5.09 turns)" / "0.25 rad (14.3°)".
QString angleText(double radians);

}  // namespace poslab::ui
