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
    QRectF row;                 // the configuration's share of the view (a row, or a cell of a grid)
    QRectF header;              // title, summary, legend
    bool summary = true;        // the summary fits (dropped, by rule, when it would squeeze the plots)
    bool cellText = true;       // each cell's text lines (dropped, by rule, when the circles would be tiny)
    bool shortTitle = false;    // the title by its letter ("D" of "D: Sinusoidal"), to say "no room" beside it
    bool legend = true;         // the positions' legend (rotating methods; dropped with the dials where none fits)
    std::vector<PairsCellLayout> cells;   // rotating methods
    QRectF curveText, curve, table, tableBar;  // other methods (empty rects when absent)
    bool axisTitles = true;     // the curve's and table's axis titles (dropped, by rule, when a plot would be too small)
    bool tableTitle = true;     // the table's title (dropped, by rule, after the axis titles)
    double plotSide = 0;        // the smaller side of its smallest plot (a circle's diameter, a curve's or table's)
    // What could not be drawn, in words, and where (a table left out, no room for any plot).
    QString missing;
    QRectF missingText;
};

// The configurations' pictures: one configuration a row while each one's plots are at least
// minPlotSide (layout.h), else the grid of configurations whose smallest plot is largest. In each,
// by rule: the summary goes when the header would take a third of the row; the cells' text lines
// when the circles would be under three lines; a curve's sentence, then its axis titles, then the
// curve and table side by side (stacked instead), then the table, when a plot would be under
// minPlotSide; where nothing legible fits, a sentence says so (PairsRowLayout::missing).
std::vector<PairsRowLayout> layoutPairs(const QRectF& rect, const PairsResult& result, const Theme& theme);

// How many automatic pairs (DisplaySpec::autoPairs) a pair-vector view of this size shows for
// `configs` configurations (laid out as layoutPairs lays out rotating ones): four; eight when
// eight circles are at least 85 % as large as four and each cell is as wide as its text lines, or
// when four would leave a quarter of the pane's height empty and eight stay legible, half as large
// and as wide as their text's shorter forms; two or one when four circles would be under
// minPlotSide (fewer dials rather than illegible ones).
int automaticPairsFor(const QRectF& rect, int configs, const Theme& theme);

// The height of `rect` that the automatic pairs of `configs` rotating configurations (as
// automaticPairsFor counts them) can use: the least height at which as many dials are as large as
// in the whole of `rect`, down to their cells' bottom. Below it the dials shrink; above it the
// view stays empty (layout.h placeViews gives that height to other views).
double pairsUsableHeight(const QRectF& rect, int configs, const Theme& theme);

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
