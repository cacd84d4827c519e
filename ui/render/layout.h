#pragma once
// The layout engine: one place that decides where views, panels, text, legends and colour bars go
// in a rectangle, for a theme and text size. The window (its splitters' initial shares), compare
// mode (the heatmap's panel grid), presentation slides, `figure all` and every export use it.
//
//   placeViews(rect, arrangement, theme)  → one rectangle per view (the arrangement says which
//        views and how: one full size, two side by side or stacked, the 2×2 explorer grid)
//   placePanels(rect, n, chrome, square)  → a grid of n panels (compare mode's configurations),
//        each a plot rectangle with the chrome (titles, tick labels, colour bar) around it; the
//        grid that gives the plots the most area wins, so plots grow before text shrinks
//   fitText(text, font, width)            → the text as drawn in at most `width` pixels: whole,
//        else abbreviated by rule (a parenthesised or " · " tail dropped), else elided with "…";
//        `elided` says whether anything was cut
//
// What was placed is reported: a LayoutCapture on the stack makes every renderer on this thread
// record its plot areas, text, legends and colour bars (layoutRecord()) into a LayoutReport, in
// the capture's pixels (figure pixels for an export). `figure … -o F.json` writes that report as
// `layout` (docs/spec/cli.md): [{"view", "kind", "rect": [x, y, w, h], "text", "px", "cells", "elided"}],
// "px" (text items) the pixel size of the text's font in the figure: what legibility is measured by.
#include "ui/render/theme.h"
#include "ui/model/sceneparams.h"

#include <QFont>
#include <QImage>
#include <QPainter>
#include <QRectF>
#include <QSize>
#include <QString>

#include <optional>
#include <vector>

namespace poslab::ui {

// ---- Arrangements of views -------------------------------------------------------------------

// How views share a rectangle.
//   Auto    what the window does: 1 view full size, more the explorer grid
//   Single  the first view, full size
//   Row     side by side, equal widths
//   Column  stacked, equal heights
//   Grid    2×2. Explorer views (pairs, heatmap, decay, frequencies) in two columns: pairs over
//           decay beside heatmap over frequencies; a view alone in its column takes all of it,
//           one column all the width. In a column the pairs or heatmap view takes 3/5 of the
//           height, less what it cannot use (usableHeight: the pair dials are as large with less),
//           which goes to the view below it: plots grow before text shrinks. Other views: two
//           per row, rows equal.
// With more than one view, the contributions view (a wide strip of per-pair curves) takes a row
// of its own below the others, a third of the height, in every kind but Row.
enum class ArrangementKind { Auto, Single, Row, Column, Grid };

}  // namespace poslab::ui

template <>
struct poslab::EnumKeys<poslab::ui::ArrangementKind> {
    static constexpr std::array<EnumKey<ui::ArrangementKind>, 5> keys{{{ui::ArrangementKind::Auto, "auto"},
                                                                     {ui::ArrangementKind::Single, "single"},
                                                                     {ui::ArrangementKind::Row, "row"},
                                                                     {ui::ArrangementKind::Column, "column"},
                                                                     {ui::ArrangementKind::Grid, "grid"}}};
};

namespace poslab::ui {

// Which views, in reading order, and how they share the space. A slide, the window and a figure
// each hold one.
struct ViewArrangement {
    ArrangementKind kind = ArrangementKind::Auto;
    std::vector<ViewKind> views;   // empty: nothing is placed
    // The pairs view shows the automatic dials of this many rotating configurations: it can say
    // how much height it uses (pairsrenderer.h pairsUsableHeight). 0: it uses all it is given.
    int pairsDials = 0;
    bool operator==(const ViewArrangement&) const = default;
};

// The arrangement the scene's visible views get in the window (kind Auto): the views it shows,
// in window order (pairs, heatmap, decay, frequencies, contributions); all four classic views
// when it shows none.
ViewArrangement sceneArrangement(const SceneParams& scene);

struct ViewPlacement {
    ViewKind view;
    QRectF rect;
};

// The height a view of the arrangement can use in `rect` (its width and the height it is given):
// the pairs view its dials' (ViewArrangement::pairsDials), every other view all of it.
double usableHeight(ViewKind view, const QRectF& rect, const ViewArrangement& arrangement, const Theme& theme);

// Space between views: the window's splitter handle (6 px), more for large type.
double viewGap(const Theme& theme);

// One rectangle per view of the arrangement, covering `rect` except for the gaps between them.
std::vector<ViewPlacement> placeViews(const QRectF& rect, const ViewArrangement& arrangement, const Theme& theme);

// `n` rectangles of an arrangement without view kinds (a slide's chosen views): Single the whole
// rectangle; Row / Column equal shares; Grid rows of two of equal height, an odd last one
// spanning its row; Auto one → Single, two → Row, more → Grid. `gap` between neighbours.
std::vector<QRectF> placeRects(const QRectF& rect, ArrangementKind kind, int n, double gap);

// ---- Panels (compare mode) ---------------------------------------------------------------------

// Room the chrome around one panel's plot needs, in pixels.
struct PanelChrome {
    double left = 0, top = 0, right = 0, bottom = 0;
    double minPlotHeight = 0;   // what the plot needs beside it (a colour bar's three labels)
};

struct PanelPlacement {
    QRectF area;   // the panel's share of the rectangle
    QRectF plot;   // its plot (the cells), inside `area` less the chrome
};

// The grid of `n` panels (columns × rows) whose plots get the most area, among the grids whose
// plots are at least chrome.minPlotHeight tall when any is; with `square` the plots
// are square (the largest that fits), else they fill their share up to an aspect ratio of
// `maxAspect` (wider or taller), centred. Plots are whole pixels.
std::vector<PanelPlacement> placePanels(const QRectF& rect, int n, const PanelChrome& chrome, bool square,
                                        double maxAspect = 2.5);

// ---- Text ------------------------------------------------------------------------------------

struct FittedText {
    QString text;
    double width = 0;
    bool elided = false;   // anything was dropped or cut
};
// `s` as it fits in `width` pixels of `font`: whole; else without a trailing parenthesis or
// " · …" tail; else cut with "…".
FittedText fitText(const QString& s, const QFont& font, double width);
// The first of `forms` (longest first, each a shorter way to say the same) that fits; else the
// last one fitted as above. `elided` unless the first form fits.
FittedText fitText(const QStringList& forms, const QFont& font, double width);

// ---- The report --------------------------------------------------------------------------------

// Panel: a part of a view that exists to show a plot (a configuration's pair dials or bias curve,
// a picture of the frequencies view, a heatmap panel). Its plot must be legible: at least one
// plot item of minPlotSide() in both directions lies in it (layoutProblems). Panels are the
// report's own bookkeeping: the JSON `layout` (cli.md) lists the other kinds only.
enum class LayoutItemKind { Plot, Text, Legend, Colorbar, Panel };
QString layoutItemKindKey(LayoutItemKind k);   // "plot", "text", "legend", "colorbar", "panel"

struct LayoutItem {
    QString view;                  // "pairs", "heatmap", "decay", "frequencies", "slide"
    LayoutItemKind kind = LayoutItemKind::Text;
    QRectF rect;                   // in the capture's pixels
    QString text;                  // text items
    bool elided = false;
    // Labels that belong together (the tick labels of one axis or colour bar, the position
    // labels of one dial): the same number > 0 (LayoutGroup). They must stay apart by a
    // quarter of their height and write their numbers one way (layoutProblems).
    int group = 0;
    // The text was recorded but not painted (LayoutCapture::setPaintText(false)): what the image
    // shows under its rectangle is what it would cover.
    bool unpainted = false;
    // A plot without a frame (a pair dial): labels may straddle its edge (the ink check still
    // sees what they cover).
    bool frameless = false;
    // Text items: the pixel size of the text's font in the capture's pixels (its point size at
    // the device's resolution, times the painter's scale and the capture's): what a reader at
    // the back of a room gets (fontPixelSize).
    double px = 0;
    // Plot items that are a grid of cells (a heatmap, a matrix of numbers): its columns × rows;
    // empty for other plots. A slide's cells are square: rect width / columns = height / rows.
    QSize cells = QSize();
};

struct LayoutReport {
    std::vector<LayoutItem> items;
    QRectF bounds;                 // the whole figure, in the same pixels
    double minPlot = 0;            // the smallest legible plot side in these pixels (0: not checked)
};

// The smallest side a plot may have and still be read: three lines of the theme's small type
// (two tick labels and the room between them; a dial with its position labels around it).
// Renderers give a plot at least this by rule (fewer or shorter labels, the legend moved, the
// grid re-flowed) and say in words where even that cannot make room.
double minPlotSide(const Theme& theme);

// While one is alive, layoutRecord() on this thread appends to `report`. Rectangles are mapped
// through the painter's transform, then multiplied by `scale` (device pixels per logical pixel:
// a PNG's DPI / 96).
class LayoutCapture {
public:
    LayoutCapture(LayoutReport& report, double scale = 1.0);
    ~LayoutCapture();
    LayoutCapture(const LayoutCapture&) = delete;
    LayoutCapture& operator=(const LayoutCapture&) = delete;
    // The view the next records belong to.
    void setView(const QString& view);
    // Whether text drawn through plot::text and plot::wrappedText is painted (default) or only
    // recorded (LayoutItem::unpainted): a test then reads what lies under each text's rectangle.
    void setPaintText(bool paint) { paintText_ = paint; }
    bool paintText() const { return paintText_; }

private:
    LayoutCapture* previous_;
    friend void layoutRecordItem(const QPainter&, LayoutItemKind, const QRectF&, const QString&, bool, bool, const QFont&);
    friend bool layoutCapturing();
    friend class LayoutGroup;
    friend void layoutRecordFramelessPlot(const QPainter&, const QRectF&);
    friend void layoutRecordCells(const QPainter&, const QRectF&, int, int);
    LayoutReport& report_;
    double scale_;
    QString view_;
    bool paintText_ = true;
    int group_ = 0, groups_ = 0;
};

// While one is alive, the text recorded on this thread belongs to one new group
// (LayoutItem::group): the tick labels of an axis, the position labels of a dial.
class LayoutGroup {
public:
    LayoutGroup();
    ~LayoutGroup();
    LayoutGroup(const LayoutGroup&) = delete;
    LayoutGroup& operator=(const LayoutGroup&) = delete;

private:
    int previous_ = 0;
};

bool layoutCapturing();
// The capture active on this thread, or nullptr.
LayoutCapture* currentLayoutCapture();
// Records an item drawn with painter `p` at `rect` (painter coordinates). No-op without a capture.
// Text joins the current LayoutGroup; `painted` false: the text was left unpainted (paintText).
void layoutRecord(const QPainter& p, LayoutItemKind kind, const QRectF& rect, const QString& text = {}, bool elided = false,
                  bool painted = true);

// What layoutRecord and layoutRecordText do: the item, the text's font `font`.
void layoutRecordItem(const QPainter& p, LayoutItemKind kind, const QRectF& rect, const QString& text, bool elided, bool painted,
                      const QFont& font);

// Records text drawn in `font` (not the painter's: a formula's glyphs).
void layoutRecordText(const QPainter& p, const QRectF& rect, const QString& text, const QFont& font, bool elided = false,
                      bool painted = true);

// The pixel size of `font` on `device` (its pixel size, else its point size at the device's
// logical resolution; 96 dpi without a device), before any painter transform.
double fontPixelSize(const QFont& font, const QPaintDevice* device);

// The smallest text legible from the back of a lecture room on a picture `height` pixels tall:
// 24 px at 1080, 16 px at 720 (slides, a view shown full screen).
double legibleTextPx(double height);
// The text scale (Theme::fontScale) at which theme `themeName`'s smallest type (its small font)
// is legibleTextPx(height) × textScale, within the themes' range (0.5 … 3).
double legibleFontScale(const QString& themeName, double height, double textScale = 1.0);

// The smallest "px" of the report's text items (0 without text).
double smallestTextPx(const LayoutReport& report);

// Records a plot of `columns` × `rows` cells (LayoutItem::cells) drawn with painter `p` at `rect`.
void layoutRecordCells(const QPainter& p, const QRectF& rect, int columns, int rows);

// Records a plot without a frame (LayoutItem::frameless) drawn with painter `p` at `rect`.
void layoutRecordFramelessPlot(const QPainter& p, const QRectF& rect);

// Whether text recorded now is to be painted (no capture, or one that paints text).
bool layoutPaintsText();

// Problems of a report, one line each (empty = none): text overlapping other text, a legend or a
// colour bar; text partly over a plot (text wholly inside a plot is an annotation and allowed);
// anything outside the report's bounds; labels of one group closer than a quarter of their height
// (they would read as one: "1", "3", "2" as "132") or writing their numbers two ways ("1e5" beside
// "10000"); with report.minPlot, a panel without a plot at least that large in both directions.
// `tolerance` pixels of overlap are forgiven (antialiasing).
QStringList layoutProblems(const LayoutReport& report, double tolerance = 1.0);

// Problems of the text a figure covers: `image` is the figure drawn with a capture that does not
// paint text (LayoutCapture::setPaintText(false)), in the report's pixels. Under each unpainted
// text there must be nothing but the background, the grid lines and the panel colour (and their
// antialiased blends): a label over a curve, an arrow, a frame or heatmap cells is a problem.
QStringList layoutInkProblems(const LayoutReport& report, const QImage& image, const Theme& theme);

}  // namespace poslab::ui
