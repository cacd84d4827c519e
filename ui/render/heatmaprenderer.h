#pragma once
// Attention heatmap renderer: one panel per configuration (and per difference) in the grid the
// layout engine chooses, query positions down, key positions across, a colour bar with values beside each panel.
// Cells are drawn nearest-neighbour, so the pixel at a cell's centre has exactly the colour map's
// colour for that cell's value; masked cells (causal, outside a window or chunk) are drawn in
// Theme::masked, and a window's or chunk's edges as thin lines. With a sink logit, a strip beside
// the cells shows each row's sink mass p_sink (for aggregated blocks the statistic over the
// block's queries: HeatmapPanel::sinkMass) as a bar on its own scale 0 … a round top at or above
// the largest, with three labelled ticks (sinkStripTicks).
#include "ui/render/colormap.h"
#include "ui/render/layout.h"
#include "ui/render/theme.h"
#include "ui/model/results.h"
#include "ui/model/sceneparams.h"

#include <QImage>
#include <QLineF>
#include <QPainter>
#include <QRectF>

#include <optional>

namespace poslab::ui {

struct HeatmapPanelLayout {
    QRectF area;        // the whole panel
    QRectF image;       // the cells
    QRectF sink;        // the sink-mass strip beside the cells (empty without one)
    QRectF colorbar;    // the colour bar
    bool compact = false;   // subtitle and axis titles left out (by rule: the cells would be too small)
    // Where this panel's axis titles go (empty: none). Several panels (compare mode: one window of
    // positions for all) share their axes: the first panel's titles span the grid (left of its
    // first column, below its lowest panels) and the others have none; tick labels only on the
    // first column (queries) and under the lowest panel of each column (keys). The cells get the
    // room a title and tick labels per panel would take.
    QRectF xTitle, yTitle;
    bool xTickLabels = true, yTickLabels = true;
    // A difference panel left out by rule (no room: empty rectangles); the grid's first panel
    // carries the line that says so (`leftOut`, empty when none is).
    bool shown = true;
    QRectF leftOut;
    // The grid's first panel: where the sentence saying why some configurations have no
    // difference panel goes (HeatmapResult::differenceNote), wrapped, under everything else.
    QRectF note;
};

// Room around each panel's cells: title and subtitle, tick labels and axis titles, colour bar.
// `compact`: without the subtitle and the axis titles.
// `sinkStrip`: room for the sink-mass strip between the cells and the colour bar.
PanelChrome heatmapChrome(const Theme& theme, bool compact = false, bool sinkStrip = false);

// Geometry of `panels` panels in `rect` (independent of the values), placed by the layout
// engine (placePanels): the cells fill their share; `square` keeps each cell square;
// `sinkStrip` puts a narrow strip for each row's sink mass between the cells and the colour bar.
// With more than one panel the axis titles are the grid's, not each panel's (xTitle, yTitle).
// `differences`: how many of the panels, the last ones, are differences (compare mode's B − A …):
// when the cells of all the panels would be smaller than minPlotSide (layout.h) they are left out
// (HeatmapPanelLayout::shown) and a line under the grid says so, the others taking the room.
// `note`: a sentence under the grid (HeatmapResult::differenceNote) given the lines it wraps to.
std::vector<HeatmapPanelLayout> layoutHeatmap(const QRectF& rect, int panels, const Theme& theme, bool square = false,
                                              bool sinkStrip = false, int differences = 0, const QString& note = {});
// The difference panels of a result (its last ones).
int heatmapDifferences(const HeatmapResult& result);
// Whether a result's panels carry a sink-mass strip (a configuration with a sink logit).
bool heatmapHasSinkStrip(const HeatmapResult& result);
// The same for a scene (before its result exists): a configuration with a sink logit.
bool heatmapHasSinkStrip(const SceneParams& scene);

// The sink strip's scale for the largest p_sink `maxMass`: {0, s, 2s}, 2s ≥ maxMass, s the
// smallest of 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10^k that reaches it (so the largest bar fills at
// least two thirds of the strip); {0, 0.5, 1} when maxMass ≤ 0 or is not finite.
std::vector<double> sinkStripTicks(double maxMass);
// The sink strip ticks' labels: as the other tick labels (4 significant digits), below 0.001 in a
// short exponent form ("1.5e-4"); written one way (plot::labelsOneWay): when one needs an exponent
// every one but 0 has one ("5e-4, 1e-3", never "5e-4" beside "0.001").
QStringList sinkStripLabels(const std::vector<double>& ticks);

// Cells per axis the view should ask for: the shorter side of the cells' rectangle in device
// pixels (>= 16).
int heatmapCellsFor(const QRectF& rect, int panels, const Theme& theme, double devicePixelRatio = 1.0, bool square = false,
                    bool sinkStrip = false, int differences = 0, const QString& note = {});

// The mask of a panel's layer in words, for the subtitle: "window 1024", "bidirectional window
// 128 (|i − j| ≤ 64)", "chunks of 8192"; empty for full attention.
QString heatmapMaskText(const HeatmapPanel& panel);
// Why a cell (query i, key j) is masked: "causal, j > i", "window 1024, j ≤ i − 1024",
// "chunk 8192, j in an earlier chunk".
QString heatmapMaskReason(const HeatmapPanel& panel, std::int64_t query, std::int64_t key);
// The edges of the panel's window (the band's far edge, both edges when bidirectional) or chunks
// (the squares along the diagonal), as line segments in `image`'s pixels; clipped to the image.
// Empty for full attention, and for chunks narrower than 3 pixels (the squares would be ink only).
std::vector<QLineF> heatmapMaskEdges(const QRectF& image, const HeatmapPanel& panel);

// The scene's images and videos over a panel's cells (HeatmapResult::tokenBlocks), in `image`'s
// pixels: `band` the rows of the entry's tokens as queries across every key shown (what a patch's
// query sees, the text around it included), `square` those rows against the entry's own tokens as
// keys. Clipped to the window shown; a block outside it has none.
struct HeatmapTokenOutline {
    QRectF band, square;
    int kind = 1;   // 1 image, 2 video
};
std::vector<HeatmapTokenOutline> heatmapTokenOutlines(const QRectF& image, const HeatmapPanel& panel, const HeatmapResult& result);

// The labelled ticks of a colour bar for values lo..hi on a bar `barHeight` pixels tall with
// labels `labelHeight` tall: at least three, never closer than a label's height (a flat range
// lo == hi gets the value with one step of its 4th significant digit either side). A bar shorter
// than two label heights gets the two ends, or nothing: the layout gives colour bars that room.
std::vector<double> colorbarTicks(double lo, double hi, double barHeight, double labelHeight);

// The colour scale of a panel (diverging: symmetric around 0).
ColorScale heatmapScale(const HeatmapPanel& panel);
// The panel's cells as an image (|keys| × |queries| pixels).
// Masked: non-finite values, and j > i when `causal` (softmax weights of masked keys are 0).
QImage heatmapImage(const HeatmapPanel& panel, const Theme& theme, bool causal = false);

// What the panel's values stand for, for the subtitle: "" (one cell each), "mean of 556×556
// blocks", "118 × 118 samples (one cell per 556×556 block)".
QString heatmapCellsText(const HeatmapPanel& panel);
// Whether a value is drawn as masked: non-finite, or a single cell (exact or sampled) with its
// key after its query when causal. An aggregated block is masked only when no cell is visible.
bool heatmapCellMasked(const HeatmapPanel& panel, bool causal, Eigen::Index row, Eigen::Index col);

void renderHeatmap(QPainter& painter, const QRectF& rect, const HeatmapResult& result, const Theme& theme);

// Where a point lies in positions, the inverse of how the cells are placed: `cells` is its
// distance from the image's edge in cells (columns or rows); a fraction f of cell k is position
// ranges[k].from + f · |ranges[k]| (position p covers [p, p + 1)), so a point on a drawn block
// maps into that block even where blocks differ in size (the last may be shorter). Before the
// first cell and past the last, the edge blocks' sizes continue. Empty ranges: NaN.
double heatmapPositionAtCell(double cells, const std::vector<PositionRange>& ranges);

struct HeatmapHit {
    int panel = 0;
    int row = 0, col = 0;               // value indices (cells, blocks or samples)
    std::int64_t query = 0, key = 0;    // positions i, j
    double value = 0;
    bool masked = false;
};
std::optional<HeatmapHit> hitTestHeatmap(const QRectF& rect, const HeatmapResult& result, const Theme& theme,
                                         const QPointF& point);
// "A: RoPE\nquery i = 3, key j = 1\nscore = 0.123…" (the value as `poslab compute` prints it).
QString heatmapToolTip(const HeatmapResult& result, const HeatmapHit& hit);

}  // namespace poslab::ui
