#pragma once
// Small plotting helpers shared by the QPainter renderers: axes with "nice" ticks (linear and
// log10), text placement, and an arrow. No widget, no state.
#include "core/method.h"
#include "ui/render/layout.h"
#include "ui/render/theme.h"

#include <QPainter>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <functional>

#include <cstdint>
#include <limits>
#include <vector>

namespace poslab::ui::plot {

// A value range mapped onto a pixel interval [a, b] (b < a for a y axis that grows upwards).
struct Axis {
    double lo = 0, hi = 1;
    bool log = false;          // log10 scale; lo, hi > 0
    double a = 0, b = 1;       // pixel ends
    double map(double v) const;
    double unmap(double px) const;

    // (map()'s own: the log10 of lo and hi, for the lo and hi they were taken of; NaN: none yet.)
    mutable double logOf_[2] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()};
    mutable double logEnds_[2] = {0, 0};
};

// 2–8 round tick values within [lo, hi] (1, 2, 5 × 10^k steps); log: powers of ten (and 2, 5
// between them when the range is short).
std::vector<double> ticks(double lo, double hi, int maxTicks, bool log = false);
// The step of ticks()' linear ticks: the smallest 1, 2 or 5 × 10^k at least (hi − lo) / maxTicks
// (precondition: lo < hi, both finite, maxTicks >= 1).
double tickStep(double lo, double hi, int maxTicks);
// The multiples of `step` within [lo, hi] (a billionth of a step of slack at each end), at most
// `cap` + 1 of them, counted from the first (k · step past 2^53 would not advance); a value
// within a billionth of a step of 0 is exactly 0.
std::vector<double> stepTicks(double lo, double hi, double step, int cap);
// Integer ticks within [lo, hi] (positions, distances): at most about `maxTicks`, multiples of a
// step of 1, 2 or 5 × 10^k that is at least 1 (a window of a few positions gets every position).
std::vector<std::int64_t> integerTicks(std::int64_t lo, std::int64_t hi, int maxTicks);
std::int64_t integerTickStep(std::int64_t lo, std::int64_t hi, int maxTicks);
// Tick label: integers as integers, else up to 4 significant digits; log: 10^k as "1e5".
QString tickLabel(double v, bool log = false);
// The labels of one axis' ticks, written one way: as tickLabel() writes them when none needs an
// exponent, else every one but 0 as mantissa e exponent ("1e0 … 1e5", "5e5, 1e6, 1.5e6"),
// never "10000" beside "1e5"; with more digits than 4 where two different ticks would read the
// same ("0.9999, 0.99995, 1, 1.00005" rather than "0.9999, 1, 1, 1").
QStringList tickLabels(const std::vector<double>& values, bool log = false);
// The rule of tickLabels() for labels written another way first (`labels[i]` writes `values[i]`):
// unchanged when none has an exponent, else every one but 0 as mantissa e exponent.
QStringList labelsOneWay(const std::vector<double>& values, QStringList labels);

enum class Align { Left, Center, Right };
// Draws text with its anchor point at `p`: h-aligned as given, v-centred. Returns its rect.
// The text is recorded in the layout report (layout.h) when one is being captured.
QRectF text(QPainter& p, const QPointF& at, const QString& s, Align h = Align::Center, const QColor& c = {});
// A view of one panel per configuration, side by side: fills `rect` with the background, then
// calls panel(p, column, i) for i = 0 … count−1 with equal columns, each clipped to its column.
void configColumns(QPainter& p, const QRectF& rect, int count, const Theme& t,
                   const std::function<void(QPainter&, const QRectF&, int)>& panel);
// Text fitted by fitText() (layout.h): recorded as elided when it was abbreviated or cut.
QRectF text(QPainter& p, const QPointF& at, const FittedText& s, Align h, const QColor& c);
// One line of text in `r` in `font`: the first of `forms` (longest first) that fits r's width
// (fitText), left-aligned at r's left edge and centred on its middle.
QRectF fittedLine(QPainter& p, const QRectF& r, const QStringList& forms, const QColor& c, const QFont& font);
// Text rotated 90° counter-clockwise, centred at `at`.
void verticalText(QPainter& p, const QPointF& at, const QString& s, const QColor& c);

// QPainter::drawText in the painter's font and pen, the text recorded in the layout report
// (layout.h) where its ink lies: for text laid out by Qt's own flags (wrapped paragraphs, a
// slide's title) rather than by text().
QRectF recordedText(QPainter& p, const QRectF& r, int flags, const QString& s, QRectF* used = nullptr);
// At a baseline point, as QPainter::drawText(QPointF, QString).
void recordedText(QPainter& p, const QPointF& baseline, const QString& s);
// Text wrapped into a rectangle (top-left aligned); returns the height used.
// An exponent typeset() cannot write in Unicode ("base^(2i/r)") is drawn as a real superscript
// (raised, smaller, without its parentheses) and recorded without the caret.
double wrappedText(QPainter& p, const QRectF& r, const QString& s, const QColor& c);
// The height wrappedText() takes for `s` in `font` at `width` (no height limit).
double wrappedTextHeight(const QFont& font, double width, const QString& s);

// Frame with ticks and grid: x along the bottom, y along the left, labels from the theme.
void axes(QPainter& p, const QRectF& plot, const Axis& x, const Axis& y, const Theme& t, const QString& xLabel,
          const QString& yLabel, bool grid = true, int maxTicksX = 6, int maxTicksY = 6);
// The same with each title given as forms, longest first (layout.h fitText: the first that fits).
void axes(QPainter& p, const QRectF& plot, const Axis& x, const Axis& y, const Theme& t, const QStringList& xForms,
          const QStringList& yForms, bool grid = true, int maxTicksX = 6, int maxTicksY = 6);

// The ticks of one axis as given: values inside the axis' range, each one's label (one way:
// tickLabels()), and minor values (grid lines only, no tick or label).
struct AxisTicks {
    std::vector<double> values;
    QStringList labels;
    std::vector<double> minor;
};
// The same with each axis' ticks given rather than chosen (a chart with ticks of its own rule:
// the decay chart's integer distances and its value axis' nice steps).
void axes(QPainter& p, const QRectF& plot, const Axis& x, const Axis& y, const Theme& t, const QStringList& xForms,
          const QStringList& yForms, const AxisTicks& xTicks, const AxisTicks& yTicks, bool grid = true);

// Margins that axes() needs around the plot for its tick labels and titles.
QMarginsF axesMargins(const Theme& t, bool xLabel = true, bool yLabel = true);
// The same for y tick labels at most `tickLabelWidth` wide (the widest of tickLabels()).
QMarginsF axesMargins(const Theme& t, bool xLabel, bool yLabel, double tickLabelWidth);
// The width of the widest label of the ticks axes() draws for [lo, hi] with up to `maxTicks`.
double tickLabelWidth(const Theme& t, double lo, double hi, bool log = false, int maxTicks = 30);

// A polyline in `pen`, as QPainter::drawPolyline draws it, faster: a pen wider than one pixel is
// drawn as the line's segments (the raster engine fills each with its line rasteriser, about six
// times faster than stroking the joined path; the segments' square caps cover the joins), a
// dashed pen's dashes walked along the whole line (the pattern does not restart at each point).
// Other pens (cosmetic, one pixel or less, other caps than square) and other painters than a raster
// one (PDF, SVG: the polyline stays one path) go to drawPolyline.
void polyline(QPainter& p, const QPolygonF& points, const QPen& pen);

// Arrow from `from` to `to` with a head of `head` pixels, in the painter's pen (the head filled
// in its colour and outlined in it).
void arrow(QPainter& p, const QPointF& from, const QPointF& to, double head);

// A count for people: an integer with thin-space thousands ("500 000", "−1 369").
QString countText(std::int64_t v);

// The name of pair i's frequency, typeset, as the method's own texts write it: wᵢ for sinusoidal
// (its claims, formula sheet and worked example), θᵢ for the rotations (RoPE, xPos, M-RoPE).
QString frequencySymbol(Method m);

// Height of one text line of the font in pixels for this painter.
double lineHeight(const QFont& f);
// A theme's title, body and small fonts with their line heights (lhT, lh, slh).
struct ThemeFonts {
    QFont title, body, small;
    double lhT = 0, lh = 0, slh = 0;
};
ThemeFonts themeFonts(const Theme& t);

}  // namespace poslab::ui::plot
