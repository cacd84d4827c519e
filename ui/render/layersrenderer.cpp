#include "ui/render/layersrenderer.h"

#include "ui/render/layout.h"
#include "ui/model/sceneparams.h"
#include "ui/render/plot.h"

#include <QFontMetricsF>
#include <QLinearGradient>
#include <QObject>
#include <QPolygonF>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace poslab::ui {

namespace {

// Text drawn into a box (QPainter::drawText) and recorded in the layout report (layout.h) as the
// rectangle its ink takes, so that `figure layers -o F.json` carries the overview's `layout`;
// left unpainted where the capture asks (LayoutCapture::setPaintText: the ink check).
void drawRecordedText(QPainter& p, const QRectF& box, int flags, const QString& text, bool elided = false) {
    const bool paint = layoutPaintsText();
    if (paint) p.drawText(box, flags, text);
    if (layoutCapturing() && !text.isEmpty())
        layoutRecord(p, LayoutItemKind::Text, p.boundingRect(box, flags, text).intersected(box), text, elided, paint);
}

}  // namespace

namespace {

QString number(double v) { return displayValue(v); }

// A count or a base for people: integers with thin-space thousands (500 000), others 4 digits.
QString count(double v) {
    if (!(std::abs(v) < 1e15) || v != std::floor(v)) return number(v);
    return plot::countText(static_cast<std::int64_t>(std::llround(v)));
}

// Axis ticks: 1, 10, 100, 1k, 10k, 100k, 1M, 10M, ...
QString tickText(double d) {
    if (d >= 1e9) return number(d / 1e9) + QStringLiteral("G");
    if (d >= 1e6) return number(d / 1e6) + QStringLiteral("M");
    if (d >= 1e3) return number(d / 1e3) + QStringLiteral("k");
    return number(d);
}

QString scalingText(const RopeParams& r) {
    switch (r.scaling) {
    case RopeScaling::None: return {};
    case RopeScaling::Linear: return QObject::tr("linear ×%1").arg(number(r.resolvedFactor()));
    case RopeScaling::Dynamic: return QObject::tr("dynamic ×%1").arg(number(r.resolvedFactor()));
    case RopeScaling::Yarn: return QObject::tr("YaRN ×%1").arg(number(r.resolvedFactor()));
    case RopeScaling::LongRope: return QObject::tr("LongRoPE ×%1").arg(number(r.resolvedFactor()));
    case RopeScaling::Llama3: return QObject::tr("Llama 3 ×%1").arg(number(r.resolvedFactor()));
    }
    return {};
}

// The layout of the picture: heading, column x positions (each as wide as its widest text),
// the bar plot area, the rows.
struct Geometry {
    QRectF heading, table, plot, axis;
    double rowH = 0;
    std::int64_t layers = 0;   // the layers shown (0 … layers − 1)
    std::int64_t rows = 0;     // the rows drawn: one per layer, or one per group
    // Grouped (layers too many for a line of text each): each row's layers, alike in everything
    // the row shows (layerGroups); empty otherwise.
    std::vector<std::vector<std::int64_t>> groups;
    // The layer a row stands for: its own, or its group's first.
    std::int64_t layerOf(std::int64_t row) const {
        return groups.empty() ? row : groups[static_cast<std::size_t>(row)].front();
    }
    double cols[6] = {};   // x of: index, type, signal, base/scaling, reach; [5] = the table's right end
    // The temperature band under the axis and legend (empty: none): the caption left of the
    // curve's plot area, which lines up with the bar plot; the x tick labels under it.
    QRectF tempBand, tempCaption, tempPlot;
    std::optional<AttentionParams> tuned;   // the tuned layers' attention (temperature_tuning)
    // The legend line under the axis, or two lines (the entries; the chunked layers' note and the
    // context) where one does not fit from the table's left edge to the plot's right.
    bool legendTwoLines = false;
};

// The legend's parts (legendParts): which signals the rows show (RoPE, NoPE, NoPE with
// temperature tuning), the chunked layers' note (empty: none), the context.
struct LegendParts {
    bool present[3] = {};
    QString note, context;
};
LegendParts legendParts(const LayersPicture& pic, std::int64_t rows);
// The name of legend entry k (0 RoPE, 1 NoPE, 2 NoPE with temperature tuning).
QString legendName(int k);
// The entries' width (each: swatch, text, a line's height of space), and the note's and context's.
double legendEntriesWidth(const LegendParts& l, const QFontMetricsF& fm, double lh);

// The forms of a group's layer list for its row, longest first: every run ("0–4, 6–10, 12–16
// (15)"), the first two and the last ("0–4, 6–10, …, 60–61 (52)"), the first and the last, the
// count alone ("52 layers"). A group of one layer: its index.
QStringList groupForms(const std::vector<std::int64_t>& layers) {
    const QString text = layerListText(layers);
    if (layers.size() == 1) return {text, text};
    QStringList runs = text.split(QStringLiteral(", "));
    const QString count = QStringLiteral(" (%1)").arg(layers.size());
    const QString ellipsis = QStringLiteral("…");
    QStringList forms{text + count};
    if (runs.size() > 3) forms << QStringList{runs[0], runs[1], ellipsis, runs.back()}.join(QStringLiteral(", ")) + count;
    else forms << forms.front();
    if (runs.size() > 2) forms << QStringList{runs[0], ellipsis, runs.back()}.join(QStringLiteral(", ")) + count;
    forms << QObject::tr("%1 layers").arg(layers.size());
    return forms;
}

// The attention of the first shown layer with temperature tuning (a NoPE layer of Llama 4).
std::optional<AttentionParams> tunedAttention(const LayerPattern& m, std::int64_t rows) {
    for (std::int64_t i = 0; i < rows; ++i) {
        const LayerParams lp = layerParams(m, i);
        if (!lp.rope && lp.attention.temperature_tuning.size() == 2) return lp.attention;
    }
    return std::nullopt;
}

// The temperature curve's position axis ends at the context or 10M, whichever is larger.
constexpr std::int64_t kTemperatureAxisEnd = 10'000'000;
std::int64_t temperatureAxisEnd(std::int64_t context) { return std::max<std::int64_t>(context, kTemperatureAxisEnd); }

// τ's range on the plot: 1 (below the first step) to τ at the axis' end, a little room either
// side so that the curve does not run along the frame.
std::pair<double, double> temperatureRange(const AttentionParams& a, std::int64_t positionTo) {
    const double hi = temperatureScale(a, positionTo - 1, Precision::Double);
    const double span = hi > 1.0 ? hi - 1.0 : 1.0;
    return {1.0 - span * 0.08, 1.0 + span * 1.08};
}

QString cellText(const LayerRowText& rt, int c) {
    switch (c) {
    case 0: return rt.index;
    case 1: return rt.type;
    case 2: return rt.signal;
    case 3: return rt.scaling.isEmpty() ? rt.base : rt.base + QStringLiteral(", ") + rt.scaling;
    default: return rt.reach;
    }
}

QString headText(int c) {
    // The context QObject::tr reads (QT_TR_NOOP here would file them under the namespace).
    const char* heads[5] = {QT_TRANSLATE_NOOP("QObject", "layer"), QT_TRANSLATE_NOOP("QObject", "type"),
                            QT_TRANSLATE_NOOP("QObject", "position"), QT_TRANSLATE_NOOP("QObject", "base, scaling"),
                            QT_TRANSLATE_NOOP("QObject", "sees")};
    return QObject::tr(heads[c]);
}

LegendParts legendParts(const LayersPicture& pic, std::int64_t rows) {
    LegendParts l;
    for (std::int64_t i = 0; i < rows; ++i) {
        const LayerParams lp = layerParams(pic.model, i);
        l.present[lp.rope ? 0 : lp.attention.temperature_tuning.empty() ? 1 : 2] = true;
    }
    if (firstLayerOfType(pic.model, LayerType::Chunked)) l.note = QObject::tr("chunked: fades, fewer queries see that far back");
    l.context = QObject::tr("context %1 positions").arg(count(static_cast<double>(pic.context)));
    return l;
}

QString legendName(int k) {
    switch (k) {
    case 0: return QObject::tr("RoPE");
    case 1: return QObject::tr("NoPE");
    default: return QObject::tr("NoPE, queries × τ(i) (temperature tuning)");
    }
}

double legendEntriesWidth(const LegendParts& l, const QFontMetricsF& fm, double lh) {
    double w = 0;
    for (int k = 0; k < 3; ++k)
        if (l.present[k]) w += lh * 1.1 + fm.horizontalAdvance(legendName(k)) + lh;
    return w;
}

Geometry geometry(const QRectF& r, const LayersPicture& pic, const Theme& t) {
    Geometry g;
    g.layers = layerCount(pic.model);
    if (pic.firstRows >= 0) g.layers = std::min(g.layers, pic.firstRows);
    g.rows = g.layers;
    const QFont body = t.font(t.fontPt);
    const double lh = plot::lineHeight(body);
    const double th = plot::lineHeight(t.font(t.titlePt));
    g.heading = QRectF(r.left() + 8, r.top() + 4, r.width() - 16, th * 2.2);
    const double top = g.heading.bottom() + lh * 1.4;   // column headers above the rows
    const double axisH = lh * 2.6;
    double bottom = r.bottom() - axisH;
    // The temperature band: as tall as leaves every row a full line (5.5 to 9 lines), never
    // taking the rows' text away (rows under 0.6 of a line have none); where they have none
    // anyway, 5.5 lines while each row keeps 3 pixels of bar; else no band.
    if (pic.temperatureCurve) g.tuned = tunedAttention(pic.model, g.layers);
    const auto bandFor = [&](std::int64_t n) {
        if (!g.tuned || n <= 0) return 0.0;
        const double avail = bottom - top, rows = static_cast<double>(n);
        if (avail - lh * 5.5 >= rows * lh * 0.6) return std::clamp(avail - rows * lh, lh * 5.5, lh * 9);
        if (avail < rows * lh * 0.6 && avail - lh * 5.5 >= rows * 3) return lh * 5.5;
        return 0.0;
    };
    // A line of text per layer, or one row per group of layers alike (Gemma 3's 62 layers: two
    // rows, "sliding" and "full"), each at least a line tall.
    if (g.layers > 0 && (bottom - bandFor(g.layers) - top) / static_cast<double>(g.layers) < lh) {
        auto groups = layerGroups(pic.model, g.layers);
        if (groups.size() < static_cast<std::size_t>(g.layers)) {
            g.groups = std::move(groups);
            g.rows = static_cast<std::int64_t>(g.groups.size());
        }
    }
    if (const double band = bandFor(g.rows); band > 0) {
        bottom -= band;
        g.tempBand = QRectF(r.left() + 8, r.bottom() - band, r.width() - 16, band);
    }
    // Grouped rows are at most two lines tall (the axis follows them up).
    const auto rowHeight = [&] {
        if (g.rows <= 0) return 0.0;
        const double h = std::max(1.0, (bottom - top) / static_cast<double>(g.rows));
        return g.groups.empty() ? h : std::min(h, lh * 2);
    };
    g.rowH = rowHeight();
    if (!g.groups.empty()) bottom = top + g.rowH * static_cast<double>(g.rows);
    // Column widths: the widest cell (or heading) of each column; the layers repeat a few
    // patterns, so the distinct rows are few.
    const QFontMetricsF fm(body);
    double w[5] = {};
    for (int c = 0; c < 5; ++c) w[c] = fm.horizontalAdvance(headText(c));
    if (!g.groups.empty()) w[0] = fm.horizontalAdvance(QObject::tr("layers"));
    for (std::int64_t i = 0; i < g.rows; ++i) {
        const LayerRowText rt = layerRowText(pic.model, g.layerOf(i), pic.context);
        for (int c = 1; c < 5; ++c) w[c] = std::max(w[c], fm.horizontalAdvance(cellText(rt, c)));
        const QString index = g.groups.empty() ? rt.index : groupForms(g.groups[static_cast<std::size_t>(i)]).value(1);
        w[0] = std::max(w[0], fm.horizontalAdvance(index));
    }
    const double gap = lh * 0.8;
    // The table takes what its text needs, at most 55 % of the width: past that the columns go,
    // base and scaling first, then the reach, then the type (the tooltip still says them); what
    // is left of a column too narrow for its text elides.
    bool shown[5] = {true, true, true, true, true};
    const auto totalWidth = [&] {
        double sum = 0;
        for (int c = 0; c < 5; ++c)
            if (shown[c]) sum += w[c] + gap;
        return sum;
    };
    for (int drop : {3, 4, 1})
        if (totalWidth() > r.width() * 0.55) shown[drop] = false;
    const double total = totalWidth();
    const double tableW = std::min(total, r.width() * 0.55);
    const double squeeze = total > 0 ? tableW / total : 1.0;
    g.table = QRectF(r.left() + 8, top, tableW, bottom - top);
    double x = g.table.left();
    for (int c = 0; c < 5; ++c) {
        g.cols[c] = x;
        if (shown[c]) x += (w[c] + gap) * squeeze;
    }
    g.cols[5] = g.table.right();
    g.plot = QRectF(g.table.right() + lh * 0.5, top, std::max(10.0, r.right() - 12 - lh * 1.2 - g.table.right() - lh * 0.5),
                    bottom - top);
    g.axis = QRectF(g.plot.left(), bottom, g.plot.width(), axisH);
    // The legend line: on two lines where one would run past the plot from the table's left edge
    // (the rows give up a line's height).
    {
        const LegendParts parts = legendParts(pic, g.layers);
        const double one = legendEntriesWidth(parts, fm, lh) + (parts.note.isEmpty() ? 0.0 : fm.horizontalAdvance(parts.note) + lh) +
                           fm.horizontalAdvance(parts.context);
        if (g.rows > 0 && one + lh > g.plot.right() - g.table.left() && bottom - top - lh > static_cast<double>(g.rows)) {
            g.legendTwoLines = true;
            if (g.groups.empty()) {   // (grouped rows leave the room under them)
                bottom -= lh;
                g.rowH = rowHeight();
            }
            g.table.setBottom(bottom);
            g.plot.setBottom(bottom);
            g.axis = QRectF(g.plot.left(), bottom, g.plot.width(), axisH + lh);
        }
    }
    if (!g.tempBand.isEmpty() && !g.groups.empty()) {
        // Grouped rows: the band follows the axis and legend up (at most 9 lines), no gap above it.
        const double bandTop = g.axis.bottom() + lh * 0.3;
        g.tempBand = QRectF(g.tempBand.left(), bandTop, g.tempBand.width(), std::min(lh * 9, r.bottom() - bandTop));
    }
    if (!g.tempBand.isEmpty()) {
        // The curve under the bars (the same left and right ends), its τ labels left of it, the
        // caption left of those; the position labels on the band's last line.
        const QFontMetricsF small(t.font(t.fontPt * 0.85));
        const double yLabelW = small.horizontalAdvance(QStringLiteral("1.888")) + 6;
        g.tempPlot = QRectF(g.plot.left(), g.tempBand.top() + lh * 0.5, g.plot.width(),
                            std::max(4.0, g.tempBand.height() - lh * 0.5 - lh * 1.3));
        g.tempCaption = QRectF(g.tempBand.left(), g.tempBand.top() + lh * 0.3,
                               std::max(0.0, g.tempPlot.left() - yLabelW - lh * 0.5 - g.tempBand.left()),
                               g.tempBand.height() - lh * 0.3);
    }
    return g;
}

LayersTemperaturePlot temperaturePlotOf(const Geometry& g, const LayersPicture& pic) {
    LayersTemperaturePlot tp;
    tp.plot = g.tempPlot;
    tp.attention = *g.tuned;
    tp.positionTo = temperatureAxisEnd(pic.context);
    std::tie(tp.tauLo, tp.tauHi) = temperatureRange(tp.attention, tp.positionTo);
    return tp;
}

double xOf(const Geometry& g, double d, double dmax) {
    const double l = std::log10(std::max(1.0, d)), lmax = std::log10(std::max(10.0, dmax));
    return g.plot.left() + g.plot.width() * std::clamp(l / lmax, 0.0, 1.0);
}

// The temperature band: τ(i) of the tuned layers against the query position, exact per pixel
// column (τ is monotone in i: a column's first and last position bound every value it covers).
void drawTemperature(QPainter& p, const Geometry& g, const LayersPicture& pic, const Theme& t, const QColor& curveC) {
    const LayersTemperaturePlot tp = temperaturePlotOf(g, pic);
    const AttentionParams& a = tp.attention;
    const QFont body = t.font(t.fontPt), small = t.font(t.fontPt * 0.85);
    const double lh = plot::lineHeight(body), sh = plot::lineHeight(small);
    const QRectF& pr = tp.plot;
    const double F = a.temperature_tuning[0], S = a.temperature_tuning[1];
    const auto tau = [&](std::int64_t i) { return temperatureScale(a, i, Precision::Double); };
    p.save();
    p.fillRect(pr, t.panel);
    layoutRecord(p, LayoutItemKind::Plot, pr);

    // Positions: powers of ten, labelled where they do not run into the previous label.
    p.setFont(small);
    double lastRight = -1e9;
    for (double d = 1; d <= static_cast<double>(tp.positionTo) * 1.0001; d *= 10) {
        const double x = tp.x(d);
        p.setPen(QPen(t.grid, 1));
        p.drawLine(QPointF(x, pr.top()), QPointF(x, pr.bottom()));
        const QString label = tickText(d);
        const double half = p.fontMetrics().horizontalAdvance(label) / 2 + 3;
        // A label at the frame's corner starts there (left-aligned), clear of the τ labels that
        // end left of the frame.
        const bool corner = x - half + 3 < pr.left();
        if ((!corner && x - half < lastRight) || x + half > g.tempBand.right() + 4) continue;
        lastRight = corner ? pr.left() + 2 * half : x + half;
        p.setPen(t.muted);
        if (corner) drawRecordedText(p, QRectF(pr.left(), pr.bottom() + 2, 80, sh), Qt::AlignLeft | Qt::AlignTop, label);
        else drawRecordedText(p, QRectF(x - 40, pr.bottom() + 2, 80, sh), Qt::AlignHCenter | Qt::AlignTop, label);
    }
    // τ: round ticks, as many as fit a label height apart, at least the two ends.
    std::vector<double> ys = plot::ticks(tp.tauLo, tp.tauHi, std::max(2, static_cast<int>(pr.height() / (sh * 1.3))));
    if (ys.size() < 2) ys = {1.0, temperatureScale(a, tp.positionTo - 1, Precision::Double)};
    double lastTop = 1e9;
    for (double v : ys) {
        const double y = tp.y(v);
        if (y < pr.top() - 0.5 || y > pr.bottom() + 0.5) continue;
        p.setPen(QPen(t.grid, 1));
        p.drawLine(QPointF(pr.left(), y), QPointF(pr.right(), y));
        if (y + sh / 2 > lastTop) continue;
        const double labelTop = std::clamp(y - sh / 2, pr.top() - sh / 2, pr.bottom() - sh / 2);
        lastTop = labelTop;
        p.setPen(t.muted);
        drawRecordedText(p, QRectF(pr.left() - lh * 4, labelTop, lh * 4 - 4, sh), Qt::AlignRight | Qt::AlignVCenter, number(v));
    }
    p.setPen(QPen(t.foreground, t.axisWidth));
    p.drawLine(pr.bottomLeft(), pr.bottomRight());
    p.drawLine(pr.bottomLeft(), pr.topLeft());

    // The context's last position: a dashed line, labelled where the curve leaves room.
    const std::int64_t last = std::max<std::int64_t>(pic.context, 1) - 1;
    const double xc = tp.x(static_cast<double>(std::max<std::int64_t>(last, 1)));
    p.setPen(QPen(t.foreground, 1, Qt::DashLine));
    p.drawLine(QPointF(xc, pr.top()), QPointF(xc, pr.bottom()));
    {
        const QString label = QObject::tr("context");
        const double w = p.fontMetrics().horizontalAdvance(label) + 4;
        const bool high = tp.y(tau(last)) < pr.center().y();   // the curve is in the top half there
        const double y = high ? pr.bottom() - sh - 2 : pr.top() + 2;
        const double x = xc - w - 3 >= pr.left() + 2 ? xc - w - 3 : xc + 3;
        if (x + w <= pr.right() && sh + 4 <= pr.height()) {
            p.setPen(t.foreground);
            drawRecordedText(p, QRectF(x, y, w, sh), Qt::AlignLeft | Qt::AlignVCenter, label);
        }
    }
    // What the axis is: inside the plot at its top left, where τ is still 1.
    {
        // As wide as the room left of where the curve climbs to the text's height (τ grows with i).
        const double textBottom = pr.top() + 2 + sh + 2;
        std::int64_t lo = 0, hi = std::max<std::int64_t>(last, 1);   // the first position whose τ reaches the text
        if (tp.y(tau(hi)) >= textBottom) lo = hi;
        while (lo < hi) {
            const std::int64_t mid = lo + (hi - lo) / 2;
            if (tp.y(tau(mid)) < textBottom) hi = mid;
            else lo = mid + 1;
        }
        const double room = std::min(tp.x(static_cast<double>(std::max<std::int64_t>(lo, 1))), xc) - pr.left() - 8;
        const FittedText what = fitText(QStringList{QObject::tr("τ(i) against the query position i (log scale)"), QObject::tr("τ(i), position i (log)")},
                                        small, room);
        if (!what.text.isEmpty() && sh + 4 <= pr.height())
            plot::text(p, QPointF(pr.left() + 4, pr.top() + 2 + sh / 2), what, plot::Align::Left, t.muted);
    }

    // The curve: each pixel column from its first to its last position.
    p.setClipRect(pr.adjusted(-1, -2, 1, 2));
    QPolygonF curve;
    const double l1 = std::log10(static_cast<double>(tp.positionTo));
    const int columns = std::max(1, static_cast<int>(std::ceil(pr.width())));
    std::int64_t next = 1;   // the first position not yet drawn
    for (int c = 0; c < columns && next <= tp.positionTo; ++c) {
        // Positions whose x lies in [left + c, left + c + 1).
        const double to = std::pow(10.0, l1 * (c + 1) / pr.width());
        const std::int64_t p1 = std::min<std::int64_t>(tp.positionTo, static_cast<std::int64_t>(std::ceil(to)) - 1);
        if (p1 < next) continue;
        // τ is a step function: a step is drawn upright at the position where it happens.
        if (!curve.isEmpty()) curve << QPointF(tp.x(static_cast<double>(next)), curve.last().y());
        curve << QPointF(tp.x(static_cast<double>(next)), tp.y(tau(next)));
        if (p1 > next) curve << QPointF(tp.x(static_cast<double>(p1)), tp.y(tau(p1)));
        next = p1 + 1;
    }
    p.setPen(QPen(curveC, t.lineWidth));
    p.setBrush(Qt::NoBrush);
    p.drawPolyline(curve);
    p.setClipping(false);

    // The caption: what τ is, where it starts, what it reaches at the context's end.
    const QRectF& cap = g.tempCaption;
    if (cap.width() > lh * 2) {
        const std::int64_t firstStep = static_cast<std::int64_t>(std::ceil(F)) - 1;
        const std::vector<std::pair<QStringList, bool>> lines = {
            {{QObject::tr("Temperature tuning (NoPE layers): queries × τ(i)"), QObject::tr("NoPE layers: queries × τ(i)"),
              QObject::tr("queries × τ(i)")},
             true},
            {{QObject::tr("τ(i) = log(⌊(i+1)/%1⌋ + 1)·%2 + 1").arg(formatValue(F), number(S))}, false},
            {{QObject::tr("τ = 1 for i < %1, a step every %2 positions").arg(count(static_cast<double>(firstStep)), count(F)),
              QObject::tr("τ = 1 for i < %1").arg(count(static_cast<double>(firstStep)))},
             false},
            {{QObject::tr("τ = %1 at the context's last position %2").arg(number(tau(last)), count(static_cast<double>(last))),
              QObject::tr("τ = %1 at position %2").arg(number(tau(last)), count(static_cast<double>(last)))},
             false},
        };
        double y = cap.top();
        for (const auto& [forms, head] : lines) {
            if (y + lh > cap.bottom() + 0.5) break;
            const QFont f = head ? body : small;
            p.setFont(f);
            plot::text(p, QPointF(cap.left(), y + lh / 2), fitText(forms, f, cap.width()), plot::Align::Left,
                       head ? curveC.darker(115) : t.foreground);
            y += head ? lh * 1.15 : lh;
        }
    }
    p.restore();
}

}  // namespace

double LayersTemperaturePlot::x(double position) const {
    const double l = std::log10(std::max(1.0, position)), lmax = std::log10(std::max(10.0, static_cast<double>(positionTo)));
    return plot.left() + plot.width() * std::clamp(l / lmax, 0.0, 1.0);
}

double LayersTemperaturePlot::y(double tau) const {
    return plot.bottom() - plot.height() * (tau - tauLo) / (tauHi > tauLo ? tauHi - tauLo : 1.0);
}

std::optional<LayersTemperaturePlot> layersTemperaturePlot(const QRectF& rect, const LayersPicture& pic, const Theme& theme) {
    const Geometry g = geometry(rect, pic, theme);
    if (g.rows == 0 || g.tempPlot.isEmpty() || !g.tuned) return std::nullopt;
    return temperaturePlotOf(g, pic);
}

QString layersSubtitle(const LayerPattern& m, int dim) {
    QStringList parts;
    if (m.bidirectional) parts << QObject::tr("bidirectional (an encoder): each query sees keys on both sides");
    if (m.softmax_scale)
        parts << QObject::tr("scores × %1 (not 1/√%2 = %3)").arg(number(*m.softmax_scale)).arg(dim).arg(number(1.0 / std::sqrt(std::max(1, dim))));
    else
        parts << QObject::tr("scores × 1/√%1").arg(dim);
    if (m.softcap) parts << QObject::tr("soft-capped: s ↦ %1·tanh(s/%1)").arg(number(*m.softcap));
    if (m.query_scaling.size() == 2)
        parts << QObject::tr("queries × 1 + %1·ln(1 + ⌊p/%2⌋)").arg(number(m.query_scaling[1]), number(m.query_scaling[0]));
    if (m.qk_norm != QkNorm::None)
        parts << QObject::tr("q/k RMS norm %1 the rotation%2")
                     .arg(m.qk_norm == QkNorm::Before ? QObject::tr("before") : QObject::tr("after"))
                     .arg(m.qk_norm_rope_only ? QObject::tr(" (RoPE layers only)") : QString());
    if (!m.sink.empty())
        parts << QObject::tr("a sink logit per head (%1 heads): rows sum to less than 1").arg(m.sink.size());
    else if (m.model_type == "gpt_oss")
        parts << QObject::tr("a learned sink logit per head (in the weights: --sink to set them): rows sum to less than 1");
    return parts.join(QStringLiteral(" · "));
}

LayersPicture layersPictureOf(const SceneParams& s, int active) {
    LayersPicture pic;
    if (active < 0 || active >= static_cast<int>(s.methods.size())) return pic;
    const ScoreParams& ap = s.methods[static_cast<std::size_t>(active)].params;
    pic.model = ap.model;
    pic.model.layer = 0;
    pic.dim = ap.dim;
    pic.context = ap.rope.max_positions;
    pic.selected = ap.model.empty() ? -1 : ap.model.layer;
    pic.title = configTitle(s, active);
    for (int i = 0; i < static_cast<int>(s.methods.size()); ++i) {
        if (i == active) continue;
        LayerPattern other = s.methods[static_cast<std::size_t>(i)].params.model;
        const std::int64_t layer = other.layer;
        other.layer = 0;
        if (other == pic.model && !other.empty()) {
            pic.compared = layer;
            break;
        }
    }
    return pic;
}

int layersConfigOf(const SceneParams& s) {
    if (!s.view.showLayers) return -1;
    for (int i = 0; i < static_cast<int>(s.methods.size()); ++i)
        if (!s.methods[static_cast<std::size_t>(i)].params.model.empty()) return i;
    return -1;
}

std::pair<QRectF, QRectF> splitForLayers(const QRectF& area, const Theme& theme) {
    const double gap = std::round(viewGap(theme));
    const double h = std::round((area.height() - gap) / 3.0);
    return {QRectF(area.left(), area.top(), area.width(), std::max(0.0, area.height() - h - gap)),
            QRectF(area.left(), area.bottom() - h, area.width(), h)};
}

std::vector<std::vector<std::int64_t>> layerGroups(const LayerPattern& m, std::int64_t layers) {
    std::vector<std::vector<std::int64_t>> groups;
    std::vector<LayerParams> kinds;
    for (std::int64_t i = 0; i < layers; ++i) {
        const LayerParams lp = layerParams(m, i);
        std::size_t k = 0;
        while (k < kinds.size() && !(kinds[k].type == lp.type && kinds[k].rope == lp.rope &&
                                     kinds[k].ropeParams == lp.ropeParams && kinds[k].attention == lp.attention))
            ++k;
        if (k == kinds.size()) {
            kinds.push_back(lp);
            groups.emplace_back();
        }
        groups[k].push_back(i);
    }
    return groups;
}

QString layerListText(const std::vector<std::int64_t>& layers) {
    QStringList runs;
    for (std::size_t a = 0; a < layers.size();) {
        std::size_t b = a;
        while (b + 1 < layers.size() && layers[b + 1] == layers[b] + 1) ++b;
        runs << (b == a ? QString::number(layers[a]) : QStringLiteral("%1–%2").arg(layers[a]).arg(layers[b]));
        a = b + 1;
    }
    return runs.join(QStringLiteral(", "));
}

LayerRowText layerRowText(const LayerPattern& m, std::int64_t layer, std::int64_t context) {
    const LayerParams lp = layerParams(m, layer);
    LayerRowText t;
    t.index = QString::number(layer);
    t.type = lp.type == LayerType::Full ? QObject::tr("full") : lp.type == LayerType::Sliding ? QObject::tr("sliding") : QObject::tr("chunked");
    t.signal = lp.rope ? QObject::tr("RoPE") : QObject::tr("NoPE");
    if (!lp.rope && !lp.attention.temperature_tuning.empty() && context > 0) {
        // The query scale reached at the last position of the context.
        t.signal += QObject::tr(", τ ≤ %1").arg(number(temperatureScale(lp.attention, context - 1, Precision::Double)));
    }
    if (lp.rope) {
        t.base = QObject::tr("θ %1").arg(count(lp.ropeParams.base));
        t.scaling = scalingText(lp.ropeParams);
    }
    if (lp.attention.window && m.bidirectional)
        t.reach = QObject::tr("window %1 (±%2)").arg(count(static_cast<double>(*lp.attention.window)),
                                                   count(static_cast<double>(*lp.attention.window / 2)));
    else if (lp.attention.window) t.reach = QObject::tr("window %1").arg(count(static_cast<double>(*lp.attention.window)));
    else if (lp.attention.chunk) t.reach = QObject::tr("chunk %1").arg(count(static_cast<double>(*lp.attention.chunk)));
    else t.reach = QObject::tr("everything");
    return t;
}

void drawLayers(QPainter& p, const QRectF& rect, const LayersPicture& pic, const Theme& t) {
    p.save();
    p.fillRect(rect, t.background);
    const QFont body = t.font(t.fontPt), title = t.font(t.titlePt);
    const Geometry g = geometry(rect, pic, t);
    p.setFont(title);
    p.setPen(t.foreground);
    if (g.rows == 0) {
        drawRecordedText(p, rect, Qt::AlignCenter | Qt::TextWordWrap,
                   QObject::tr("No layer pattern: open a model configuration (File → Open model configuration…)"));
        p.restore();
        return;
    }
    const double dmax = static_cast<double>(std::max<std::int64_t>(pic.context, 16));
    const QString name = pic.title.isEmpty() ? QString::fromStdString(pic.model.model_type) : pic.title;
    const std::int64_t all = layerCount(pic.model);
    const QString heading =
        g.layers < all      ? QObject::tr("%1 — layers 0–%2 of %3 (the pattern repeats)").arg(name).arg(g.layers - 1).arg(all)
        : !g.groups.empty() && g.rows == 1
            ? QObject::tr("%1 — %2 layers of one kind: what each sees, and with which positional signal").arg(name).arg(g.layers)
        : !g.groups.empty() ? QObject::tr("%1 — %2 layers of %3 kinds: what each kind sees, and with which positional signal")
                                  .arg(name).arg(g.layers).arg(g.rows)
                            : QObject::tr("%1 — %2 layers: what each layer sees, and with which positional signal").arg(name).arg(g.layers);
    drawRecordedText(p, g.heading, Qt::AlignLeft | Qt::AlignTop,
               p.fontMetrics().elidedText(heading, Qt::ElideRight, static_cast<int>(g.heading.width())));
    {
        // What every layer shares: the score scale, q/k norm, sinks.
        p.setFont(t.font(t.fontPt));
        p.setPen(t.muted);
        const QString shared = layersSubtitle(pic.model, pic.dim);
        drawRecordedText(p, QRectF(g.heading.left(), g.heading.top() + plot::lineHeight(title) * 1.15, g.heading.width(),
                          plot::lineHeight(t.font(t.fontPt)) * 1.1),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   p.fontMetrics().elidedText(shared, Qt::ElideRight, static_cast<int>(g.heading.width())));
        p.setFont(title);
        p.setPen(t.foreground);
    }

    // Column headers.
    p.setFont(body);
    const double lh = plot::lineHeight(body);
    p.setPen(t.muted);
    const double hy = g.table.top() - lh * 1.2;
    for (int c = 0; c < 5; ++c)
        if (g.cols[c + 1] - g.cols[c] > 4) {
            const QString head = c == 0 && !g.groups.empty() ? QObject::tr("layers") : headText(c);
            drawRecordedText(p, QRectF(g.cols[c], hy, g.cols[c + 1] - g.cols[c], lh), Qt::AlignLeft | Qt::AlignVCenter,
                       p.fontMetrics().elidedText(head, Qt::ElideRight, static_cast<int>(g.cols[c + 1] - g.cols[c] - 2)));
        }
    // The axis's words in the longest form that fits, shortened by whole words ("(log sca…" never).
    const QStringList axisForms = pic.model.bidirectional
                                      ? QStringList{QObject::tr("distance |i − j| it can attend to, on either side (log scale)"),
                                                    QObject::tr("distance |i − j| it can attend to (log scale)"),
                                                    QObject::tr("distance |i − j| (log)"), QObject::tr("|i − j| (log)")}
                                      : QStringList{QObject::tr("distance i − j it can attend to (log scale)"),
                                                    QObject::tr("distance i − j (log scale)"), QObject::tr("i − j (log)")};
    drawRecordedText(p, QRectF(g.plot.left(), hy, g.plot.width(), lh), Qt::AlignLeft | Qt::AlignVCenter,
                     fitText(axisForms, p.font(), rect.right() - g.plot.left() - 4).text);

    // Rows: text when they are tall enough to read; the bars always.
    const bool text = g.rowH >= lh * 0.6;
    QFont rowFont = body;
    if (text && g.rowH < lh) rowFont.setPointSizeF(body.pointSizeF() * g.rowH / lh);
    p.setFont(rowFont);
    const QColor ropeC = t.series(0), nopeC = t.series(1), tempC = t.series(2);
    for (std::int64_t i = 0; i < g.rows; ++i) {
        const double y = g.table.top() + g.rowH * static_cast<double>(i);
        const QRectF row(rect.left() + 2, y, rect.width() - 4, g.rowH);
        const auto holds = [&](std::int64_t layer) {
            if (layer < 0) return false;
            if (g.groups.empty()) return layer == i;
            const auto& group = g.groups[static_cast<std::size_t>(i)];
            return std::binary_search(group.begin(), group.end(), layer);
        };
        if (holds(pic.selected) || holds(pic.compared)) {
            QColor hl = holds(pic.selected) ? t.series(3) : t.series(4);
            hl.setAlpha(70);
            p.fillRect(row, hl);
        } else if (i % 2 == 1) {
            p.fillRect(row, t.panel);
        }
        const LayerParams lp = layerParams(pic.model, g.layerOf(i));
        const QColor signalC = lp.rope ? ropeC : (!lp.attention.temperature_tuning.empty() ? tempC : nopeC);
        if (text) {
            const LayerRowText rt = layerRowText(pic.model, g.layerOf(i), pic.context);
            for (int c = 0; c < 5; ++c) {
                p.setPen(c == 2 ? signalC.darker(115) : t.foreground);
                const double width = g.cols[c + 1] - g.cols[c] - 2;
                if (width <= 2) continue;   // a column left out for want of room
                if (c == 0 && !g.groups.empty()) {
                    // The group's layers, as many runs as fit, with their count.
                    const FittedText f = fitText(groupForms(g.groups[static_cast<std::size_t>(i)]), p.font(), width);
                    drawRecordedText(p, QRectF(g.cols[c], y, width, g.rowH), Qt::AlignLeft | Qt::AlignVCenter, f.text,
                                     f.elided && f.text.endsWith(QStringLiteral("…")));
                    continue;
                }
                drawRecordedText(p, QRectF(g.cols[c], y, width, g.rowH), Qt::AlignLeft | Qt::AlignVCenter,
                           p.fontMetrics().elidedText(cellText(rt, c), Qt::ElideRight, static_cast<int>(width)));
            }
        }
        // The bar: from distance 0 to the farthest visible distance: causal, W − 1 keys back; a
        // bidirectional model's window ⌊W/2⌋ on either side (the axis is then |i − j|).
        const auto reach = visibleTo(lp.attention, !pic.model.bidirectional);
        const double x1 = reach ? xOf(g, static_cast<double>(*reach) + 1, dmax) : g.plot.right();
        const double pad = std::min(2.0, g.rowH * 0.15);
        const QRectF bar(g.plot.left(), y + pad, std::max(1.0, x1 - g.plot.left()), std::max(1.0, g.rowH - 2 * pad));
        QColor fill = signalC;
        fill.setAlpha(200);
        if (lp.attention.chunk) {
            // A chunked layer's query sees back to the start of its chunk only: distance d is seen
            // by the fraction (C − d)/C of the queries, so the bar fades towards C − 1.
            QLinearGradient fade(bar.topLeft(), bar.topRight());
            const double c = static_cast<double>(*lp.attention.chunk);
            for (int k = 0; k <= 16; ++k) {
                const double d = 1 + (c - 1) * k / 16.0;
                const double at = (xOf(g, d, dmax) - bar.left()) / std::max(1.0, bar.width());
                QColor col = fill;
                col.setAlpha(static_cast<int>(40 + 160 * (c - d + 1) / c));
                fade.setColorAt(std::clamp(at, 0.0, 1.0), col);
            }
            p.fillRect(bar, fade);
        } else {
            p.fillRect(bar, fill);
        }
        if (reach && x1 < g.plot.right()) {
            // Past the window or chunk: nothing is seen.
            p.setPen(QPen(t.muted, 1, Qt::DotLine));
            p.drawLine(QPointF(x1, y + g.rowH / 2), QPointF(g.plot.right(), y + g.rowH / 2));
        }
    }

    // Distance axis: powers of ten, the context at the end.
    p.setFont(body);
    p.setPen(QPen(t.foreground, t.axisWidth));
    layoutRecord(p, LayoutItemKind::Plot, QRectF(g.plot.left(), g.plot.top(), g.plot.width(), g.axis.top() - g.plot.top()));
    p.drawLine(QPointF(g.plot.left(), g.axis.top()), QPointF(g.plot.right(), g.axis.top()));
    double lastLabelRight = -1e9;
    for (double d = 1; d <= dmax * 1.0001; d *= 10) {
        const double x = xOf(g, d, dmax);
        p.setPen(QPen(t.grid, 1));
        p.drawLine(QPointF(x, g.plot.top()), QPointF(x, g.axis.top()));
        p.setPen(t.muted);
        // A label only where it does not run into the previous one (narrow views).
        const double half = p.fontMetrics().horizontalAdvance(tickText(d)) / 2 + 3;
        if (x - half < lastLabelRight) continue;
        lastLabelRight = x + half;
        drawRecordedText(p, QRectF(x - 40, g.axis.top() + 2, 80, lh), Qt::AlignHCenter | Qt::AlignTop, tickText(d));
    }
    // Legend under the axis: the entries, the chunked layers' note, the context; moved left (as
    // far as the table's edge) when it would run past the plot; on two lines where one does not
    // fit even so (Geometry::legendTwoLines); the note shortened only where that leaves it no room.
    double ly = g.axis.top() + lh * 1.3;
    const LegendParts parts = legendParts(pic, g.layers);
    const QFontMetricsF lfm(p.font());
    const double entriesW = legendEntriesWidth(parts, lfm, lh);
    const double tailW = (parts.note.isEmpty() ? 0.0 : lfm.horizontalAdvance(parts.note) + lh) + lfm.horizontalAdvance(parts.context);
    // (A few pixels to spare: the entries advance by whole pixels.)
    const auto startFor = [&](double width) { return std::max(g.table.left(), std::min(g.plot.left(), g.plot.right() - width - 4)); };
    double lx = startFor(g.legendTwoLines ? entriesW : entriesW + tailW);
    const std::pair<QColor, QString> legend[] = {{ropeC, legendName(0)}, {nopeC, legendName(1)}, {tempC, legendName(2)}};
    for (int k = 0; k < 3; ++k) {
        if (!parts.present[k]) continue;
        const auto& [c, s] = legend[k];
        p.fillRect(QRectF(lx, ly + lh * 0.25, lh * 0.9, lh * 0.5), c);
        lx += lh * 1.1;
        p.setPen(t.foreground);
        const double w = p.fontMetrics().horizontalAdvance(s);
        drawRecordedText(p, QRectF(lx, ly, w + 4, lh), Qt::AlignLeft | Qt::AlignVCenter, s);
        lx += w + lh;
    }
    if (g.legendTwoLines) {
        ly += lh;
        lx = startFor(tailW);
    }
    if (!parts.note.isEmpty()) {
        // What is left of the line after the context's text; elided when narrow (and so reported).
        const double room = g.plot.right() - lx - p.fontMetrics().horizontalAdvance(parts.context) - lh;
        const QString note = p.fontMetrics().elidedText(parts.note, Qt::ElideRight, static_cast<int>(std::max(0.0, room)));
        p.setPen(t.muted);
        const double w = p.fontMetrics().horizontalAdvance(note);
        drawRecordedText(p, QRectF(lx, ly, w + 4, lh), Qt::AlignLeft | Qt::AlignVCenter, note, note != parts.note);
        lx += w + lh;
    }
    if (p.fontMetrics().horizontalAdvance(parts.context) <= g.plot.right() - lx) {   // only where it fits
        p.setPen(t.muted);
        drawRecordedText(p, QRectF(lx, ly, g.plot.right() - lx, lh), Qt::AlignRight | Qt::AlignVCenter, parts.context);
    }
    if (!g.tempBand.isEmpty()) drawTemperature(p, g, pic, t, tempC);
    p.restore();
}

std::vector<LayersRow> layersRows(const QRectF& rect, const LayersPicture& pic, const Theme& theme) {
    const Geometry g = geometry(rect, pic, theme);
    std::vector<LayersRow> rows;
    for (std::int64_t i = 0; i < g.rows; ++i) {
        LayersRow row;
        row.rect = QRectF(rect.left() + 2, g.table.top() + g.rowH * static_cast<double>(i), rect.width() - 4, g.rowH);
        if (g.groups.empty()) row.layers = {i};
        else row.layers = g.groups[static_cast<std::size_t>(i)];
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<std::int64_t> layerRowLayersAt(const QRectF& rect, const LayersPicture& pic, const Theme& theme, const QPointF& pt) {
    const Geometry g = geometry(rect, pic, theme);
    if (g.rows == 0 || g.rowH <= 0 || pt.y() < g.table.top() || pt.y() >= g.table.top() + g.rowH * static_cast<double>(g.rows) ||
        !rect.contains(pt))
        return {};
    const auto row = std::clamp<std::int64_t>(static_cast<std::int64_t>((pt.y() - g.table.top()) / g.rowH), 0, g.rows - 1);
    if (g.groups.empty()) return {row};
    return g.groups[static_cast<std::size_t>(row)];
}

std::optional<std::int64_t> layerRowAt(const QRectF& rect, const LayersPicture& pic, const Theme& theme, const QPointF& pt) {
    const auto layers = layerRowLayersAt(rect, pic, theme, pt);
    if (layers.empty()) return std::nullopt;
    if (std::binary_search(layers.begin(), layers.end(), pic.selected)) return pic.selected;
    return layers.front();
}

}  // namespace poslab::ui
