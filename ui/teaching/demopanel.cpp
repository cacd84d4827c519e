#include "ui/teaching/demopanel.h"

#include "core/t5.h"
#include "ui/render/colormap.h"
#include "ui/render/formula.h"
#include "ui/render/frequencyrenderer.h"
#include "ui/render/positionsrenderer.h"
#include "ui/render/layersrenderer.h"
#include "ui/render/plot.h"
#include "ui/render/typeset.h"

#include <QFontMetricsF>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollArea>
#include <QTextLayout>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>

namespace poslab::ui {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString shortNumber(double v) { return qs(formatReadable(v, 4, NumberStyle::Typeset)); }
// An extrapolation row's method for people ("RoPE + dynamic NTK"), not its key ("rope-ntk").
QString extrapolationRowName(const std::string& key) {
    if (auto m = methodFromKey(key)) return methodDisplayName(*m);
    static const std::pair<const char*, RopeScaling> scalings[] = {
        {"rope-linear", RopeScaling::Linear}, {"rope-ntk", RopeScaling::Dynamic}, {"rope-yarn", RopeScaling::Yarn}};
    for (const auto& [k, sc] : scalings)
        if (key == k) return methodDisplayName(Method::Rope) + QStringLiteral(" + ") + scalingTitle(sc);
    return qs(key);
}

// A figure's label as a person reads it: a leading method or row key ("rope: positional
// operations", "rope-ntk: pairs past …") becomes its display name ("RoPE: …", "RoPE + dynamic NTK: …").
QString figureLabel(const DemoData& d, const DemoFigure& f) {
    const QString label = d.text(f).label;
    const qsizetype colon = label.indexOf(QStringLiteral(": "));
    if (colon <= 0) return label;
    const std::string key = label.left(colon).toStdString();
    const QString name = extrapolationRowName(key);
    return name == qs(key) ? label : name + label.mid(colon);
}

// A figure's value as a person reads it: a yes/no figure (its key ends in "_defined", 1 or 0 in
// `compute demo`) in words, a number in its short form.
QString figureValue(const DemoFigure& f) {
    if (f.name.ends_with("_defined")) return f.value != 0 ? QObject::tr("yes") : QObject::tr("no");
    return shortNumber(f.value);
}

// An exponent typeset() has no Unicode form for ("2^(−8(h+1)/H)", "e^(i(m−n)θⱼ)"): drawn raised by
// plot::wrappedText, as the figures draw theirs, never with its caret.
bool raisedExponent(const QString& typesetText) {
    return typesetText.contains(QStringLiteral("^(")) || typesetText.contains(QStringLiteral("^{"));
}

// Wrapped text at (x, y) with width w; returns the height used.
qreal text(QPainter& p, qreal x, qreal y, qreal w, const QString& s, const QFont& f, const QColor& c,
           int flags = Qt::AlignLeft | Qt::AlignTop) {
    if (s.isEmpty()) return 0;
    p.setFont(f);
    p.setPen(c);
    const QString shown = keepFormulasTogether(typeset(s));
    if (raisedExponent(shown) && !(flags & (Qt::AlignRight | Qt::AlignHCenter))) return ui::plot::wrappedText(p, QRectF(x, y, w, 0), shown, c);
    QRectF used;
    ui::plot::recordedText(p, QRectF(x, y, w, 100000), flags | Qt::TextWordWrap, shown, &used);
    return used.height();
}
qreal textHeight(QPainter& p, qreal w, const QString& s, const QFont& f) {
    if (s.isEmpty()) return 0;
    const QString shown = keepFormulasTogether(typeset(s));
    if (raisedExponent(shown)) return ui::plot::wrappedTextHeight(f, w, shown);
    const QFontMetricsF fm(f, p.device());
    return fm.boundingRect(QRectF(0, 0, w, 100000), Qt::TextWordWrap, shown).height();
}

// A matrix as a heatmap in a square area, sharing `scale`; caption above. Returns the height used.
// captionHeight: the room the caption takes at least (side by side matrices: the taller caption's,
// so that the two squares start at one height).
qreal matrixPlot(QPainter& p, const QRectF& area, const Matrix& m, const ColorScale& scale, const QString& caption, const Theme& t,
                 qreal captionHeight = 0) {
    qreal y = area.top();
    y += std::max(captionHeight, text(p, area.left(), y, area.width(), caption, t.smallFont(), t.foreground, Qt::AlignHCenter | Qt::AlignTop)) + 4;
    const qreal side = std::min(area.width(), std::max<qreal>(40, area.bottom() - y));
    // Square cells (a token × channel matrix is wider than tall): the longer side takes `side`.
    const qreal cell = side / qreal(std::max<Eigen::Index>({m.rows(), m.cols(), 1}));
    const qreal bw = m.cols() > 0 ? cell * qreal(m.cols()) : side, bh = m.rows() > 0 ? cell * qreal(m.rows()) : side;
    const QRectF box(area.left() + (area.width() - bw) / 2, y, bw, bh);
    if (m.rows() > 0 && m.cols() > 0) {
        const qreal cw = cell, ch = cell;
        for (Eigen::Index r = 0; r < m.rows(); ++r)
            for (Eigen::Index c = 0; c < m.cols(); ++c)
                p.fillRect(QRectF(box.left() + c * cw, box.top() + r * ch, cw + 0.6, ch + 0.6), QColor(scale.rgb(m(r, c))));
    }
    p.setPen(QPen(t.foreground, t.axisWidth));
    p.setBrush(Qt::NoBrush);
    p.drawRect(box);
    layoutRecordCells(p, box, int(m.cols()), int(m.rows()));
    return (box.bottom() - area.top());
}

}  // namespace

bool firstLineIsAStub(const QString& s, const QFont& font, qreal width, QPaintDevice* device) {
    QTextLayout tl(s, font, device);
    QTextOption o;
    o.setWrapMode(QTextOption::WordWrap);
    tl.setTextOption(o);
    std::vector<qreal> widths;
    tl.beginLayout();
    for (QTextLine l = tl.createLine(); l.isValid(); l = tl.createLine()) {
        l.setLineWidth(width);
        widths.push_back(l.naturalTextWidth());
    }
    tl.endLayout();
    return widths.size() >= 2 && widths.front() < 0.5 * *std::max_element(widths.begin(), widths.end());
}

namespace {

// Two (or one) matrices side by side with one colour scale.
qreal matrixPair(QPainter& p, const QRectF& r, const Matrix& a, const QString& ca, const Matrix* b, const QString& cb, const Theme& t) {
    double mx = a.size() ? a.cwiseAbs().maxCoeff() : 1;
    if (b && b->size()) mx = std::max(mx, b->cwiseAbs().maxCoeff());
    ColorScale sc{ColormapKind::Diverging, -std::max(mx, 1e-12), std::max(mx, 1e-12)};
    const qreal gap = 16;
    const qreal w = b ? (r.width() - gap) / 2 : std::min(r.width(), r.width() * 0.6);
    const qreal side = std::min(w, 260.0 * t.fontScale * (t.fontPt / 10.0));
    const QRectF ra(r.left() + (b ? 0 : (r.width() - w) / 2), r.top(), w, side + 60);
    const qreal captions = b ? std::max(textHeight(p, w, ca, t.smallFont()), textHeight(p, w, cb, t.smallFont())) : 0;
    qreal h = matrixPlot(p, ra, a, sc, ca, t, captions);
    if (b) h = std::max(h, matrixPlot(p, QRectF(r.left() + w + gap, r.top(), w, side + 60), *b, sc, cb, t, captions));
    return h;
}

// A small line chart: x positions given as categories (equally spaced), several series.
struct Series {
    QString name;
    std::vector<double> y;
    QColor color;
    bool dots = false;   // markers only (a measurement drawn over the formula's line)
};
// logY: the values are magnitudes on a log axis (|y|, labels at its ends).
qreal lineChart(QPainter& p, const QRectF& r, const std::vector<QString>& xlabels, const std::vector<Series>& series, const QString& xname,
                const Theme& t, bool logY = false) {
    const QFont sf = t.smallFont();
    const QFontMetricsF fm(sf, p.device());
    const qreal h = std::min(r.width() * 0.55, 240.0 * t.fontScale * (t.fontPt / 10.0));
    const auto plotted = [logY](double v) { return logY ? std::log10(std::max(std::abs(v), 1e-300)) : v; };
    double lo = logY ? INFINITY : 0, hi = logY ? -INFINITY : 0;
    for (const auto& s : series)
        for (double v : s.y) {
            lo = std::min(lo, plotted(v));
            hi = std::max(hi, plotted(v));
        }
    if (logY) {
        if (!(hi >= lo)) lo = 0, hi = 1;
        lo = std::floor(lo);
        hi = std::ceil(hi);
    }
    if (hi - lo < 1e-12) hi = lo + 1;
    const qreal left = r.left() + fm.horizontalAdvance(QStringLiteral("−000.0")) + 6;
    const QRectF plot(left, r.top() + 4, r.right() - left - 6, h - fm.height() * 2.6);
    // The legend's entries wrap within the width (a slide's narrow column), never run past it.
    const qreal legendLeft = plot.left() + 30, legendW = std::max<qreal>(40, r.right() - legendLeft);
    std::vector<qreal> entryH;
    qreal legendH = 0;
    for (const auto& s : series) {
        entryH.push_back(std::max(fm.height(), textHeight(p, legendW, typeset(s.name), sf)));
        legendH += entryH.back();
    }
    const qreal total = h + legendH + 8;
    p.setPen(QPen(t.grid, 1));
    p.drawLine(QPointF(plot.left(), plot.bottom()), QPointF(plot.right(), plot.bottom()));
    p.setPen(QPen(t.foreground, t.axisWidth));
    p.drawLine(plot.bottomLeft(), plot.topLeft());
    auto Y = [&](double v) { return plot.bottom() - (plotted(v) - lo) / (hi - lo) * plot.height(); };
    auto X = [&](std::size_t i) { return xlabels.size() > 1 ? plot.left() + plot.width() * double(i) / double(xlabels.size() - 1) : plot.center().x(); };
    if (!logY && lo < 0 && hi > 0) {
        p.setPen(QPen(t.grid, 1, Qt::DashLine));
        p.drawLine(QPointF(plot.left(), Y(0)), QPointF(plot.right(), Y(0)));
    }
    p.setFont(sf);
    p.setPen(t.muted);
    const double top = logY ? std::pow(10.0, hi) : hi, bottom = logY ? std::pow(10.0, lo) : lo;
    // Clear of the dots at the plot's left edge.
    const qreal labelsRight = left - r.left() - 4 - std::max<qreal>(3, t.lineWidth * 2.2);
    ui::plot::recordedText(p, QRectF(r.left(), Y(top) - fm.height() / 2, labelsRight, fm.height()), Qt::AlignRight | Qt::AlignVCenter, shortNumber(top));
    ui::plot::recordedText(p, QRectF(r.left(), Y(bottom) - fm.height() / 2, labelsRight, fm.height()), Qt::AlignRight | Qt::AlignVCenter, shortNumber(bottom));
    // x labels: skip some when crowded.
    qreal lastRight = -1e9;
    for (std::size_t i = 0; i < xlabels.size(); ++i) {
        const qreal w = fm.horizontalAdvance(xlabels[i]);
        const qreal x = std::clamp(X(i) - w / 2, r.left(), r.right() - w);
        if (x < lastRight + 6) continue;
        ui::plot::recordedText(p, QPointF(x, plot.bottom() + fm.ascent() + 3), xlabels[i]);
        lastRight = x + w;
    }
    // The axis title as it fits the plot's width (a parenthesis dropped first, layout.h fitText).
    ui::plot::recordedText(p, QRectF(plot.left(), plot.bottom() + fm.height() + 3, plot.width(), fm.height()), Qt::AlignHCenter,
                           fitText(xname, sf, plot.width()).text);
    p.setRenderHint(QPainter::Antialiasing);
    // Lines first, then the dotted series on top of them.
    for (bool dotsPass : {false, true})
    for (const auto& s : series) {
        if (s.dots != dotsPass) continue;
        QPainterPath path;
        for (std::size_t i = 0; i < s.y.size(); ++i) {
            const QPointF pt(X(i), Y(s.y[i]));
            if (i == 0) path.moveTo(pt);
            else path.lineTo(pt);
        }
        if (s.dots) {
            p.setPen(Qt::NoPen);
            p.setBrush(s.color);
            const qreal rad = std::max<qreal>(3, t.lineWidth * 2.2);
            for (std::size_t i = 0; i < s.y.size(); ++i) p.drawEllipse(QPointF(X(i), Y(s.y[i])), rad, rad);
            continue;
        }
        p.setPen(QPen(s.color, t.lineWidth, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
    }
    // Legend below the axis title, one entry per line.
    qreal ly = plot.bottom() + fm.height() * 2 + 6;
    for (const auto& s : series) {
        if (s.dots) {
            p.setPen(Qt::NoPen);
            p.setBrush(s.color);
            const qreal rad = std::max<qreal>(3, t.lineWidth * 2.2);
            p.drawEllipse(QPointF(plot.left() + 12, ly + fm.height() / 2), rad, rad);
            p.setBrush(Qt::NoBrush);
        } else {
            p.setPen(QPen(s.color, t.lineWidth));
            p.drawLine(QPointF(plot.left(), ly + fm.height() / 2), QPointF(plot.left() + 24, ly + fm.height() / 2));
        }
        text(p, legendLeft, ly, legendW, s.name, sf, t.foreground);
        ly += entryH[std::size_t(&s - series.data())];
    }
    return total;
}

// T5's bucket against the distance d of a key before the query, for every integer d from 0 to
// 4·max_distance, as the step function it is, on a log(1 + d) axis: one step per distance up to
// max_exact, logarithmically spaced steps up to max_distance, flat after. Returns height.
qreal t5Staircase(QPainter& p, const QRectF& r, const T5Params& tp, const Theme& t) {
    const QFont sf = t.smallFont();
    const QFontMetricsF fm(sf, p.device());
    const qreal h = std::min(r.width() * 0.55, 240.0 * t.fontScale * (t.fontPt / 10.0));
    const std::int64_t dMax = 4 * tp.max_distance;
    const std::int64_t nb = tp.bidirectional ? tp.num_buckets / 2 : tp.num_buckets;
    const std::int64_t maxExact = nb / 2;
    const qreal left = r.left() + fm.horizontalAdvance(QStringLiteral("000")) + 8;
    const QRectF plot(left, r.top() + fm.height() * 0.6, r.right() - left - 6, h - fm.height() * 3.2);
    auto X = [&](double d) { return plot.left() + plot.width() * std::log1p(d) / std::log1p(double(dMax) + 1); };
    double top = 1;
    for (std::int64_t d = 0; d <= dMax; ++d) top = std::max(top, double(t5Bucket(-d, tp)));
    // The two bounds' labels on two lines above the staircase's top step, clear of it and of the
    // bounds' dashed lines (which end below them).
    const qreal head = std::min(plot.height() * 0.4, 2 * fm.height() + 4);
    auto Y = [&](double b) { return plot.bottom() - b / top * (plot.height() - head); };
    p.save();
    p.setFont(sf);
    // Axes, bucket ticks (0, max_exact, last) and distance ticks at powers of two.
    p.setPen(QPen(t.foreground, t.axisWidth));
    p.drawLine(plot.bottomLeft(), plot.topLeft());
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.setPen(t.muted);
    for (double b : {0.0, double(maxExact), top}) {
        ui::plot::recordedText(p, QRectF(r.left(), Y(b) - fm.height() / 2, left - r.left() - 4, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                   QString::number(b));
    }
    qreal lastRight = -1e9;
    for (std::int64_t d = 0; d <= dMax; d = d == 0 ? 1 : d * 2) {
        const QString l = QString::number(d);
        const qreal w = fm.horizontalAdvance(l);
        const qreal x = std::clamp(X(double(d)) - w / 2, r.left(), r.right() - w);
        if (x < lastRight + 4) continue;
        ui::plot::recordedText(p, QPointF(x, plot.bottom() + fm.ascent() + 3), l);
        lastRight = x + w;
    }
    ui::plot::recordedText(p, QRectF(plot.left(), plot.bottom() + fm.height() + 3, plot.width(), fm.height()), Qt::AlignHCenter,
                           fitText(QObject::tr("distance d of the key before the query (log scale)"), sf, plot.width()).text);
    // The two bounds the staircase shows: the exact range, and where the last bucket begins (the
    // log scale reaches it before the rule's maximum distance: 91 for 128).
    std::int64_t lastFrom = tp.max_distance;
    while (lastFrom > 0 && t5Bucket(-(lastFrom - 1), tp) == t5Bucket(-tp.max_distance, tp)) --lastFrom;
    p.setPen(QPen(t.muted, 1, Qt::DashLine));
    for (std::int64_t d : {maxExact, lastFrom}) p.drawLine(QPointF(X(double(d)), Y(top) - 2), QPointF(X(double(d)), plot.bottom()));
    p.setPen(t.muted);
    // Each label over its line's end, within the plot's width.
    const auto label = [&](double d, const QString& s, int row) {
        const qreal w = fm.horizontalAdvance(s);
        const qreal x = std::clamp(X(d) - w / 2, plot.left() + 2, plot.right() - w);
        ui::plot::recordedText(p, QPointF(x, plot.top() + row * fm.height() + fm.ascent()), s);
    };
    label(double(maxExact), QObject::tr("exact up to %1").arg(maxExact), 0);
    label(double(lastFrom), QObject::tr("last bucket from %1").arg(lastFrom), 1);
    // The steps: bucket(d) holds on [d, d + 1).
    QPainterPath path;
    for (std::int64_t d = 0; d <= dMax; ++d) {
        const double b = double(t5Bucket(-d, tp));
        const QPointF a(X(double(d)), Y(b)), e(X(double(std::min(d + 1, dMax))), Y(b));
        if (d == 0) path.moveTo(a);
        else path.lineTo(a);
        path.lineTo(e);
    }
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(t.series(0), t.lineWidth, Qt::SolidLine, Qt::FlatCap, Qt::MiterJoin));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    p.restore();
    return h;
}

// Rows of (cells), the first row a header; column widths as fractions. Returns height; fills hits.
qreal tableGrid(QPainter& p, const QRectF& r, const std::vector<std::vector<QString>>& rows, const std::vector<double>& frac,
                const Theme& t, const std::vector<std::vector<std::optional<DemoId>>>* links, std::vector<DemoHit>* hits) {
    const QFont sf = t.smallFont();
    QFont hf = sf;
    hf.setBold(true);
    const qreal pad = 4;
    qreal y = r.top();
    for (std::size_t ri = 0; ri < rows.size(); ++ri) {
        const QFont& f = ri == 0 ? hf : sf;
        // Row height: the tallest wrapped cell.
        qreal rh = 0, x = r.left();
        std::vector<qreal> xs;
        for (std::size_t c = 0; c < rows[ri].size(); ++c) {
            const qreal w = r.width() * frac[c];
            xs.push_back(x);
            rh = std::max(rh, textHeight(p, w - 2 * pad, rows[ri][c], f));
            x += w;
        }
        rh += 2 * pad;
        if (ri == 0) p.fillRect(QRectF(r.left(), y, r.width(), rh), t.panel);
        for (std::size_t c = 0; c < rows[ri].size(); ++c) {
            const qreal w = r.width() * frac[c];
            const std::optional<DemoId>* link = nullptr;   // the cell's link, if it has one
            if (links && ri > 0 && ri - 1 < links->size() && c < (*links)[ri - 1].size() && (*links)[ri - 1][c]) link = &(*links)[ri - 1][c];
            const QColor col = link ? t.series(4) : t.foreground;
            text(p, xs[c] + pad, y + pad, w - 2 * pad, rows[ri][c], f, link ? QColor(t.name == QLatin1String("dark") ? t.series(1) : QColor(0, 90, 170)) : col);
            if (link && hits) hits->push_back({QRectF(xs[c], y, w, rh), **link});
        }
        p.setPen(QPen(t.grid, 1));
        p.drawLine(QPointF(r.left(), y + rh), QPointF(r.right(), y + rh));
        y += rh;
    }
    return y - r.top();
}

// Local and global layers: the two models' numbers as a table (a column each), then the first
// periods of each model's layer overview side by side (the overview's own rows and bars).
// `rows`: the first rows of each overview (12: two periods of Gemma 3's pattern, three of Llama
// 4's; 6: one period of Gemma 3's); 0: the table alone.
qreal layerModelsEvidence(QPainter& p, const QRectF& r, const DemoSummary& s, const Theme& t, qreal gap, int rows = 12) {
    const std::vector<DemoLayerModel>& models = demoLayerModels();
    if (models.size() < 2) return 0;
    auto num = [&](const char* name) {
        const DemoFigure* f = s.find(name);
        return f ? figureValue(*f) : QStringLiteral("?");
    };
    // The texts of a model's first local and first global layer, as the overview writes them.
    auto rowOf = [](const DemoLayerModel& m, bool global) {
        const LayerPattern& pat = m.params.model;
        for (LayerType type : global ? std::vector<LayerType>{LayerType::Full} : std::vector<LayerType>{LayerType::Sliding, LayerType::Chunked})
            if (const auto layer = firstLayerOfType(pat, type)) return layerRowText(pat, *layer, m.context);
        return LayerRowText{};
    };
    auto signal = [](const LayerRowText& rt) {
        QStringList parts{rt.signal};
        if (!rt.base.isEmpty()) parts << rt.base;
        if (!rt.scaling.isEmpty()) parts << rt.scaling;
        return parts.join(QStringLiteral(", "));
    };
    const LayerRowText gl = rowOf(models[0], false), gg = rowOf(models[0], true), ll = rowOf(models[1], false), lg = rowOf(models[1], true);
    QString tau;
    if (const DemoFigure* f = s.find("llama4_temperature")) {
        QStringList l;
        for (double v : f->list) l << shortNumber(v);
        tau = l.join(QStringLiteral(" / "));
    }
    const std::vector<std::vector<QString>> table = {
        {QString(), qs(models[0].name), qs(models[1].name)},
        {QObject::tr("layers"), num("gemma_layers"), num("llama4_layers")},
        {QObject::tr("local layers"), QObject::tr("%1 %2: %3, up to %4 tokens back").arg(num("gemma_local_layers"), gl.type, gl.reach, num("gemma_local_reach")),
         QObject::tr("%1 %2: %3, up to %4 tokens back").arg(num("llama4_local_layers"), ll.type, ll.reach, num("llama4_local_reach"))},
        {QObject::tr("their positions"), signal(gl), signal(ll)},
        {QObject::tr("global layers (see everything)"), QObject::tr("%1: %2").arg(num("gemma_global_layers"), signal(gg)),
         QObject::tr("%1: %2").arg(num("llama4_global_layers"), signal(lg))},
        {QObject::tr("layers that see a token 128k back"), QObject::tr("%1 of %2").arg(num("gemma_layers_seeing_128k"), num("gemma_layers")),
         QObject::tr("%1 of %2").arg(num("llama4_layers_seeing_128k"), num("llama4_layers"))},
        {QObject::tr("query scale τ at 128k / 1M / 10M"), QObject::tr("none"), tau},
    };
    qreal y = r.top();
    y += tableGrid(p, QRectF(r.left(), y, r.width(), 0), table, {0.24, 0.38, 0.38}, t, nullptr, nullptr) + gap;
    if (rows <= 0) return y - r.top();
    // Two periods of Gemma 3's pattern (12 layers), three of Llama 4's: side by side on a slide,
    // one under the other where that leaves each too narrow for its columns (the dock).
    const double lh = plot::lineHeight(t.font(t.fontPt));
    const qreal h = plot::lineHeight(t.font(t.titlePt)) * 2.2 + lh * (4.0 + rows * 1.15) + 8;
    const bool stacked = (r.width() - gap) / 2 < lh * 34;
    const qreal colW = stacked ? r.width() : (r.width() - gap) / 2;
    for (int k = 0; k < 2; ++k) {
        LayersPicture pic;
        pic.model = models[std::size_t(k)].params.model;
        pic.dim = models[std::size_t(k)].params.dim;
        pic.context = models[std::size_t(k)].context;
        pic.title = qs(models[std::size_t(k)].name);
        pic.firstRows = rows;
        pic.temperatureCurve = false;   // τ at 128k / 1M / 10M is in the table above, its formula in the heading
        drawLayers(p, stacked ? QRectF(r.left(), y + k * (h + gap), colW, h) : QRectF(r.left() + k * (colW + gap), y, colW, h), pic, t);
    }
    return y + (stacked ? 2 * h + gap : h) + gap - r.top();
}

}  // namespace

// ============================================================================ data
const DemoFigureText& DemoData::text(const DemoFigure& f) const {
    static const DemoFigureText none;
    const std::ptrdiff_t i = &f - summary.figures.data();
    return i >= 0 && std::size_t(i) < texts.figures.size() ? texts.figures[std::size_t(i)] : none;
}

const DemoData& demoData(DemoId id) {
    static std::map<DemoId, DemoData> cache;
    auto it = cache.find(id);
    if (it != cache.end()) return it->second;
    DemoData d;
    auto s = runDemonstration(id);
    if (s.ok()) {
        d.summary = s.value();
        d.texts = describeDemo(d.summary);
    }
    else d.error = qs(s.error().message());
    auto keep = [&](auto r, auto& slot) {
        if (r.ok()) slot = r.value();
        else d.error = qs(r.error().message());
    };
    switch (id) {
        case DemoId::PermutationEquivariance: keep(demoPermutation(), d.permutation); break;
        case DemoId::SinusoidalShift:
        case DemoId::SinusoidalRelative:
        case DemoId::SinusoidalTokens: keep(demoSinusoidal(d.sinusoidalInput), d.sinusoidal); break;
        case DemoId::RopeShiftInvariance:
        case DemoId::RopeNorm:
        case DemoId::RopeComplexIdentity: keep(demoRope(d.ropeInput), d.rope); break;
        case DemoId::RopeDecay: keep(demoRopeDecay(), d.decay); break;
        case DemoId::KvCache: keep(demoKvCache(), d.kv); break;
        case DemoId::Extrapolation: keep(demoExtrapolation(d.extrapolationInput), d.extrapolation); break;
        case DemoId::HalfVsInterleaved: keep(demoLayouts(), d.layouts); break;
        case DemoId::ComparisonTable: d.table = comparisonTable(); break;
        case DemoId::LearnedTable:
        case DemoId::ShawClipping:
        case DemoId::T5Buckets:
        case DemoId::TransformerXLTerms:
        case DemoId::AlibiSlopes:
        case DemoId::Llama3Bands:
        case DemoId::YarnRamp:
        case DemoId::RopeBf16:
        case DemoId::LocalGlobalLayers:
        case DemoId::XposDecay:
        case DemoId::MropeImage: break;   // the summary holds every number they show
        case DemoId::MropeSections: keep(demoMropeSections(), d.sections); break;
    }
    return cache.emplace(id, std::move(d)).first->second;
}

// ============================================================================ painting
int demoSlideFigures(DemoId id) { return id == DemoId::KvCache ? 4 : kSlideFigures; }

bool demoFillsSlide(DemoId id) { return id == DemoId::ComparisonTable || id == DemoId::LocalGlobalLayers || id == DemoId::MropeImage; }

QString demoFormula(DemoId id) {
    switch (id) {
        case DemoId::PermutationEquivariance: return QStringLiteral("\\mathrm{Attn}(P X) = P\\, \\mathrm{Attn}(X),\\quad \\mathrm{Attn}(X) = \\mathrm{softmax}\\left(\\frac{X X^{\\top}}{\\sqrt{d}}\\right) X");
        case DemoId::SinusoidalShift: return QStringLiteral("PE(p + \\Delta) = R(\\Delta)\\, PE(p),\\quad R(\\Delta) = \\mathrm{diag}\\begin{pmatrix} \\cos \\Delta w_i & \\sin \\Delta w_i \\\\ -\\sin \\Delta w_i & \\cos \\Delta w_i \\end{pmatrix}");
        case DemoId::SinusoidalRelative: return QStringLiteral("PE(p) \\cdot PE(q) = \\sum_i \\cos\\left((p - q)\\, w_i\\right)");
        case DemoId::SinusoidalTokens: return QStringLiteral("(x + PE_p)\\cdot(y + PE_q) = x \\cdot y + x \\cdot PE_q + PE_p \\cdot y + PE_p \\cdot PE_q");
        case DemoId::RopeShiftInvariance: return QStringLiteral("\\langle R_{m+\\Delta} q, R_{n+\\Delta} k \\rangle = \\langle q, R_{n-m} k \\rangle = \\langle R_m q, R_n k \\rangle");
        case DemoId::RopeNorm: return QStringLiteral("\\lVert R_m x \\rVert = \\lVert x \\rVert,\\quad R_m^{\\top} R_m = I");
        case DemoId::RopeDecay:
            return QStringLiteral("|s_{mn}| \\le \\frac{1}{\\sqrt{d}} \\max_j |h_j - h_{j+1}| \\sum_{j=1}^{d/2} |S_j|,\\quad S_j = \\sum_{k<j} e^{i(m-n)\\theta_k},\\quad "
                                  "h_j = \\tilde q_j \\tilde k_j^{*}");
        case DemoId::RopeComplexIdentity: return QStringLiteral("\\langle R_m q, R_n k \\rangle = \\Re\\left[\\sum_j \\tilde q_j\\, \\tilde k_j^{*}\\, e^{i(m-n)\\theta_j}\\right]");
        case DemoId::KvCache:
            return QStringLiteral("K_j = R_j k_j\\ \\text{(once)},\\quad -m_h (i - j) = -m_h i + m_h j\\ \\text{(cache } m_h j \\text{)},\\quad "
                                  "b_{\\mathrm{bucket}(i-j)}\\ \\text{(every step)}");
        case DemoId::Extrapolation: {
            // Linear: θ_i/s with s = T/L; NTK: base' = base·(s·T/L − (s − 1))^(d/(d−2)) at the target length T.
            const ExtrapolationInput& in = demoData(id).extrapolationInput;
            const ExtrapolationRow* ntk = demoData(id).extrapolation ? demoData(id).extrapolation->find("rope-ntk") : nullptr;
            const QString s = formulaNumber(in.factor()), L = QString::number(in.train_length), T = QString::number(in.target_length);
            return QStringLiteral("\\theta_i' = \\frac{\\theta_i}{s},\\ s = \\frac{%1}{%2} = %3\\ \\text{(linear)},\\quad "
                                  "\\mathrm{base}' = %4 \\left(\\frac{%3 \\cdot %1}{%2} - %5\\right)^{%6/%7} = %8\\ \\text{(NTK)}")
                .arg(T, L, s, formulaNumber(in.base), formulaNumber(in.factor() - 1), QString::number(in.head_dim), QString::number(in.head_dim - 2),
                     ntk ? formulaNumber(ntk->base) : QStringLiteral("\\ldots"));
        }
        case DemoId::HalfVsInterleaved: return QStringLiteral("R^{\\mathrm{half}}_m(\\pi x) = \\pi\\, R^{\\mathrm{inter}}_m(x)");
        case DemoId::ComparisonTable: return {};
        case DemoId::LearnedTable: return QStringLiteral("h_p = x_p + E[p],\\quad E \\in \\mathbb{R}^{L \\times d},\\quad p \\le L - 1");
        case DemoId::ShawClipping: return QStringLiteral("e_{ij} = \\frac{q_i \\cdot (k_j + a^K_{\\mathrm{clip}(j-i,\\,-k,\\,k)})}{\\sqrt{d}}");
        case DemoId::T5Buckets: return QStringLiteral("b(d) = d\\ (d < e),\\quad b(d) = e + \\frac{\\ln(d/e)}{\\ln(D/e)}\\,(n - e)\\ (\\text{capped at } n - 1)");
        case DemoId::TransformerXLTerms: return QStringLiteral("A_{ij} = \\text{(a) } q_i k_j + \\text{(b) } q_i W_R R_{i-j} + \\text{(c) } u\\, k_j + \\text{(d) } v\\, W_R R_{i-j}");
        case DemoId::AlibiSlopes: return QStringLiteral("s_{ij} = q_i \\cdot k_j - m_h\\,(i - j),\\quad m_h = 2^{-8(h+1)/H}");
        case DemoId::Llama3Bands: return QStringLiteral("\\theta_i' = \\theta_i\\ (\\lambda_i < L/4),\\quad \\theta_i' = \\theta_i / s\\ (\\lambda_i > L),\\quad \\text{blended between}");
        case DemoId::YarnRamp: return QStringLiteral("\\theta_i' = (1 - \\gamma_i)\\,\\frac{\\theta_i}{s} + \\gamma_i\\,\\theta_i,\\quad c = 0.1 \\ln s + 1");
        case DemoId::RopeBf16:
            return QStringLiteral("\\phi_i(p) = \\mathrm{bf16}\\left(\\mathrm{bf16}(p)\\cdot \\mathrm{bf16}(\\theta_i)\\right)\\ \\text{(legacy)},\\quad "
                                  "\\phi_i(p) = \\mathrm{f32}(p\\, \\theta_i)\\ \\text{(transformers main)}");
        case DemoId::XposDecay:
            return QStringLiteral("\\langle \\xi_m q, \\xi_n k \\rangle = \\sum_i \\zeta_i^{(m-n)/512}\\, \\Re\\left[\\tilde q_i \\tilde k_i^{*} e^{i(m-n)\\theta_i}\\right],\\quad "
                                  "\\zeta_i = \\frac{2i + 0.4d}{1.4d} < 1");
        case DemoId::MropeImage:
            return QStringLiteral("(t, h, w) = (c,\\ c + r,\\ c + q)\\ \\text{(patch in row } r \\text{, column } q),\\quad "
                                  "\\Delta = \\max \\mathrm{id} + 1 - N");
        case DemoId::MropeSections:
            return QStringLiteral("\\langle R q, R k \\rangle = \\sum_i \\Re\\left[\\tilde q_i \\tilde k_i^{*} e^{i\\, \\Delta_{a(i)} \\theta_i}\\right],\\quad "
                                  "a(i) \\in \\{t, h, w\\}");
        case DemoId::LocalGlobalLayers:
            return QStringLiteral("i - W < j \\le i\\ \\text{(sliding)},\\quad \\lfloor j/C \\rfloor = \\lfloor i/C \\rfloor\\ \\text{(chunked)},\\quad "
                                  "\\tau(i) = 1 + 0.1 \\ln\\left(1 + \\lfloor (i+1)/8192 \\rfloor\\right)\\ \\text{(NoPE)}");
    }
    return {};
}

QString demoSpeakerNotes(DemoId id) {
    const DemoData& d = demoData(id);
    QStringList lines;
    for (const auto& f : d.summary.figures) {
        if (!f.list.empty()) continue;
        QString line = typeset(d.text(f).label) + QStringLiteral(": ") + shortNumber(f.value);
        if (!d.text(f).note.isEmpty()) line += QStringLiteral(" (") + typeset(d.text(f).note) + QLatin1Char(')');
        lines << line;
    }
    // The verdicts table a slide leaves out where it cannot hold it at a legible size.
    if (id == DemoId::Extrapolation && d.extrapolation)
        for (const auto& r : d.extrapolation->rows) lines << qs(r.method) + QStringLiteral(": ") + typeset(extrapolationVerdict(r, d.extrapolationInput));
    return lines.join(QLatin1Char('\n'));
}

qreal paintDemo(QPainter& p, const QRectF& rect, DemoId id, const Theme& t, std::vector<DemoHit>* hits, bool compact, DemoDetail detail) {
    const DemoData& d = demoData(id);
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    const qreal x = rect.left(), w = rect.width();
    qreal y = rect.top();
    const QFont body = t.bodyFont();
    const QFont small = t.smallFont();
    QFont bold = body;
    bold.setBold(true);
    const qreal gap = QFontMetricsF(body, p.device()).height() * 0.5;
    if (!compact) {
        y += text(p, x, y, w, demoTitle(id), t.titleFont(), t.foreground) + gap * 0.5;
    }
    y += text(p, x, y, w, demoClaim(id), body, t.foreground) + gap;
    // The claim as a typeset formula.
    if (const QString tex = demoFormula(id); !tex.isEmpty()) {
        const Formula f = Formula::parse(tex);
        QFont ff;
        ff.setPointSizeF(t.fontPt * 1.35 * t.fontScale);
        // On a slide: no script smaller than the small type (TeX's 0.5 for scripts of scripts
        // would be half the smallest legible size), and the formula no smaller than that.
        const double minPt = compact ? small.pointSizeF() / 0.7 : 6.0;
        const FormulaScriptFloor scripts(compact ? 0.7 : 0.0);
        QSizeF fs = f.size(ff, p.device());
        if (fs.width() > w - 16 && fs.width() > 0) {
            ff.setPointSizeF(std::max(minPt, ff.pointSizeF() * (w - 16) / fs.width()));
            fs = f.size(ff, p.device());
        }
        if (fs.width() <= w + 0.5 || !compact) {
            f.paint(&p, QPointF(x + 8, y), ff, t.foreground);
            y += fs.height() + gap;
        }
    }
    if (!d.error.isEmpty()) {
        y += text(p, x, y, w, d.error, body, t.error) + gap;
        p.restore();
        return y - rect.top();
    }

    // Figures: label (and note) on the left, value on the right.
    const qreal valueW = std::min(w * 0.32, QFontMetricsF(bold, p.device()).horizontalAdvance(QStringLiteral("−0.000 × 10⁻¹⁶")) + 8);
    const qreal labelW = w - valueW - 8;
    if (id != DemoId::ComparisonTable && id != DemoId::LocalGlobalLayers) {   // those two: a table of their own below
        int shown = 0;
        for (const auto& f : d.summary.figures) {
            if (!f.list.empty()) continue;   // lists are the evidence's charts below
            if (detail >= DemoDetail::FewFigures && shown == demoSlideFigures(id)) break;
            ++shown;
            // Label and value side by side; where either does not fit its column (a formula kept
            // whole wider than the label's column, a long value), the label takes the whole width
            // and the value goes under it, right-aligned: nothing drawn over or cut.
            const QString label = figureLabel(d, f), value = figureValue(f);
            // A label whose first line is a stub (a formula kept whole went to the next line:
            // "seed" beside 1.389, "example: |half − interleaved|" under it) would lend its value
            // to the stub: it takes the whole width, the value under it.
            const QString laid = keepFormulasTogether(typeset(label));
            const bool fits =
                QFontMetricsF(body, p.device()).boundingRect(QRectF(0, 0, labelW, 100000), Qt::TextWordWrap, laid).width() <= labelW + 0.5 &&
                QFontMetricsF(bold, p.device()).horizontalAdvance(typeset(value)) <= valueW + 0.5 && !firstLineIsAStub(laid, body, labelW, p.device());
            qreal h1 = 0;
            if (fits) {
                h1 = text(p, x, y, labelW, label, body, t.foreground);
                h1 = std::max(h1, text(p, x + labelW + 8, y, valueW, value, bold, t.foreground, Qt::AlignRight | Qt::AlignTop));
            } else {
                h1 = text(p, x, y, w, label, body, t.foreground);
                h1 += text(p, x, y + h1, w, value, bold, t.foreground, Qt::AlignRight | Qt::AlignTop);
            }
            qreal h = h1;
            if (!d.text(f).note.isEmpty() && detail == DemoDetail::Full) h += text(p, x + 12, y + h1, labelW - 12, d.text(f).note, small, t.muted);
            y += h + gap * 0.6;
        }
        y += gap * 0.4;
    }

    // Evidence.
    const QRectF area(x, y, w, 100000);
    if (detail != DemoDetail::ClaimOnly || demoFillsSlide(id)) switch (id) {
        case DemoId::PermutationEquivariance:
            if (d.permutation) {
                const auto& v = *d.permutation;
                QStringList perm;
                for (int i : v.permutation) perm << QString::number(i);
                y += text(p, x, y, w, QObject::tr("Shuffle order: row r of the shuffled input is token %1.").arg(perm.join(QStringLiteral(", "))), small, t.muted) + 4;
                Matrix back(v.outShuffled.rows(), v.outShuffled.cols());
                for (std::size_t r = 0; r < v.permutation.size(); ++r) back.row(v.permutation[r]) = v.outShuffled.row(Eigen::Index(r));
                y += matrixPair(p, QRectF(x, y, w, 0), v.out, QObject::tr("out(X)"), &back, QObject::tr("out(shuffled X), rows put back"), t) + gap;
            }
            break;
        case DemoId::SinusoidalShift:
            if (d.sinusoidal) {
                y += matrixPair(p, QRectF(x, y, w, 0), d.sinusoidal->rotation,
                                QObject::tr("R(Δ): one 2×2 rotation per pair, Δ = %1").arg(d.sinusoidalInput.delta), nullptr, {}, t) + gap;
            }
            break;
        case DemoId::SinusoidalRelative:
            if (d.sinusoidal)
                y += matrixPair(p, QRectF(x, y, w, 0), d.sinusoidal->dot, QObject::tr("PE(p)·PE(q): constant along diagonals"), nullptr, {}, t) + gap;
            break;
        case DemoId::SinusoidalTokens:
            if (d.sinusoidal)
                y += matrixPair(p, QRectF(x, y, w, 0), d.sinusoidal->dot, QObject::tr("PE(p)·PE(q)"), &d.sinusoidal->dotWithTokens,
                                QObject::tr("(x + PE(p))·(y + PE(q))"), t) + gap;
            break;
        case DemoId::RopeShiftInvariance:
            if (d.rope)
                y += matrixPair(p, QRectF(x, y, w, 0), d.rope->scores, QObject::tr("positions 0 … %1").arg(d.ropeInput.tokens - 1), &d.rope->scoresShifted,
                                QObject::tr("positions %1 … %2").arg(d.ropeInput.shift).arg(d.ropeInput.shift + d.ropeInput.tokens - 1), t) + gap;
            break;
        case DemoId::RopeNorm: {
            // One x rotated to each position: its length before (line) and after (dots) the rotation.
            const DemoFigure* xs = d.summary.find("position");
            const DemoFigure* before = d.summary.find("norm_before");
            const DemoFigure* after = d.summary.find("norm_after");
            if (!xs || !before || !after) break;
            std::vector<QString> xl;
            for (double v : xs->list) xl.push_back(shortNumber(v));
            Series a{d.text(*after).label, after->list, t.series(1)};
            a.dots = true;
            y += lineChart(p, QRectF(x, y, w, 0), xl, {{d.text(*before).label, before->list, t.series(0)}, a},
                           QObject::tr("position m (length axis from 0)"), t) + gap;
            break;
        }
        case DemoId::RopeComplexIdentity:
            break;
        case DemoId::RopeDecay:
            if (d.decay) {
                std::vector<QString> xl;
                for (auto v : d.decay->distance) xl.push_back(QString::number(v));
                // |score| and RoFormer's bound on it, in the same units on one log axis; random
                // content's mean |score| beside them.
                y += lineChart(p, QRectF(x, y, w, 0), xl,
                               {{QObject::tr("RoFormer's bound on |score|"), d.decay->scoreBound, t.series(1)},
                                {QObject::tr("|score|, equal content (q = k = ones)"), d.decay->value, t.series(0)},
                                {QObject::tr("mean |score|, random q, k"), d.decay->randomMeanAbs, t.series(2)}},
                               QObject::tr("distance m − n (|score|, log axis)"), t, true) + gap;
            }
            break;
        case DemoId::KvCache:
            if (d.kv) {
                std::vector<QString> xl;
                std::vector<double> rope, alibi, t5;
                for (const auto& s : d.kv->steps) xl.push_back(QString::number(s.step));
                for (const auto& m : d.kv->methods) {
                    std::vector<double> cum;
                    double acc = 0;
                    for (auto v : m.perStep) cum.push_back(acc += double(v));
                    if (m.method == Method::Rope) rope = cum;
                    if (m.method == Method::Alibi) alibi = cum;
                    if (m.method == Method::T5) t5 = cum;
                }
                y += lineChart(p, QRectF(x, y, w, 0), xl,
                               {{QObject::tr("RoPE: %1 rotations per step").arg(d.kv->steps.empty() ? 0 : d.kv->steps.back().ropeRotations), rope, t.series(0)},
                                {QObject::tr("ALiBi: m·j of the new key, cached"), alibi, t.series(2)},
                                {QObject::tr("T5 / Shaw / Transformer-XL: one term per cached key"), t5, t.series(1)}},
                               QObject::tr("decoding step (cumulative positional operations)"), t) + gap;
            }
            break;
        case DemoId::Extrapolation:
            if (d.extrapolation) {
                std::vector<std::vector<QString>> rows = {{QObject::tr("method"), QObject::tr("past the training length")}};
                for (const auto& r : d.extrapolation->rows) rows.push_back({extrapolationRowName(r.method), extrapolationVerdict(r, d.extrapolationInput)});
                y += tableGrid(p, area, rows, {0.24, 0.76}, t, nullptr, nullptr) + gap;
            }
            break;
        case DemoId::HalfVsInterleaved:
            if (d.layouts) {
                auto vec = [](const std::vector<double>& v) {
                    QStringList l;
                    for (double x : v) l << shortNumber(x);
                    return QStringLiteral("[") + l.join(QStringLiteral(", ")) + QStringLiteral("]");
                };
                y += text(p, x, y, w, QObject::tr("q = %1, m = %2, θ = %3").arg(vec(d.layouts->seedQ)).arg(d.layouts->seedPosition).arg(vec(d.layouts->seedTheta)),
                          body, t.foreground) + 4;
                y += text(p, x, y, w, QObject::tr("interleaved: %1").arg(vec(d.layouts->seedInterleaved)), body, t.foreground) + 4;
                y += text(p, x, y, w, QObject::tr("half-split:  %1").arg(vec(d.layouts->seedHalf)), body, t.foreground) + gap;
            }
            break;
        case DemoId::LearnedTable:
        case DemoId::TransformerXLTerms:
        case DemoId::Llama3Bands:
            break;
        case DemoId::RopeBf16: {
            // The phase error of both paths at the demonstration's positions, on a log axis.
            const DemoFigure* xs = d.summary.find("position");
            const DemoFigure* legacy = d.summary.find("legacy_phase_error");
            const DemoFigure* main = d.summary.find("main_phase_error");
            if (!xs || !legacy || !main) break;
            std::vector<QString> xl;
            for (double v : xs->list) xl.push_back(shortNumber(v));
            y += lineChart(p, QRectF(x, y, w, 0), xl, {{figureLabel(d, *legacy), legacy->list, t.series(1)}, {figureLabel(d, *main), main->list, t.series(0)}},
                           QObject::tr("position p: largest phase error over the pairs (rad)"), t) + gap;
            break;
        }
        case DemoId::LocalGlobalLayers: {
            // A slide that cannot hold two periods of each pattern holds one of Gemma 3's, then the table alone.
            const int rows = detail <= DemoDetail::NoNotes ? 12 : detail == DemoDetail::FewFigures ? 6 : 0;
            y += layerModelsEvidence(p, QRectF(x, y, w, 0), d.summary, t, gap, rows);
            break;
        }
        case DemoId::MropeImage: {
            // The sequence as the positions view draws it: the strip of tokens with their (t, h, w)
            // and the image's grid with its ids.
            const PositionsPicture pic = positionsPictureOf(MropeImageInput{}.params());
            // Shorter where the slide holds less (DemoDetail): the strip stays, the grid gives way.
            const qreal frac = detail == DemoDetail::Full ? 0.27 : detail == DemoDetail::NoNotes ? 0.25 : detail == DemoDetail::FewFigures ? 0.23 : 0.21;
            const qreal h = std::min(w * frac, 520.0 * t.fontScale * (t.fontPt / 10.0));
            renderPositions(p, QRectF(x, y, w, h), pic, t);
            y += h + gap;
            break;
        }
        case DemoId::MropeSections:
            if (d.sections) {
                // Which axis each frequency follows, in both layouts: one cell per frequency i,
                // coloured as the frequency view colours its dots (t, h, w).
                const QFont sf = small;
                for (const MropeLayoutSummary* l : {&d.sections->sectioned, &d.sections->interleaved}) {
                    const bool sec = l == &d.sections->sectioned;
                    QStringList parts;
                    for (auto v : l->section) parts << QString::number(v);
                    y += text(p, x, y, w, (sec ? QObject::tr("Qwen2-VL, sections [%1]") : QObject::tr("Qwen3-VL, interleaved [%1]")).arg(parts.join(QStringLiteral(", "))),
                              sf, t.foreground) + 2;
                    const qreal cell = w / qreal(std::max<std::size_t>(1, l->axes.size()));
                    const qreal ch = std::max<qreal>(QFontMetricsF(sf, p.device()).height() * 0.9, cell);
                    p.setPen(Qt::NoPen);
                    for (std::size_t i = 0; i < l->axes.size(); ++i) {
                        p.setBrush(frequencyAxisColor(l->axes[i], t));
                        p.drawRect(QRectF(x + cell * qreal(i), y, cell * 0.92, ch));
                    }
                    y += ch + gap * 0.5;
                }
                // The legend: the axes' colours, and which end is fast.
                const QFontMetricsF fm(sf, p.device());
                qreal lx = x;
                for (int a = 0; a < 3; ++a) {
                    const qreal sw = fm.height() * 0.8;
                    p.setPen(Qt::NoPen);
                    p.setBrush(frequencyAxisColor(a, t));
                    p.drawRect(QRectF(lx, y + (fm.height() - sw) / 2, sw, sw));
                    const QString name = a == 0 ? QObject::tr("t (time)") : a == 1 ? QObject::tr("h (rows)") : QObject::tr("w (columns)");
                    text(p, lx + sw + 6, y, fm.horizontalAdvance(name) + 4, name, sf, t.foreground);
                    lx += sw + 6 + fm.horizontalAdvance(name) + fm.height();
                }
                y += fm.height() + 2;
                y += text(p, x, y, w, QObject::tr("frequency i from 0 (fastest) to 63 (slowest)"), sf, t.muted) + gap;
                // Each axis's share of the score against the distance along it.
                const DemoFigure* xs = d.summary.find("distance");
                if (xs && detail <= DemoDetail::NoNotes) {
                    std::vector<QString> xl;
                    for (double v : xs->list) xl.push_back(shortNumber(v));
                    std::vector<Series> series;
                    int k = 0;
                    for (const char* name : {"sectioned_t_share", "sectioned_w_share", "interleaved_t_share", "interleaved_w_share"})
                        if (const DemoFigure* f = d.summary.find(name)) series.push_back({figureLabel(d, *f), f->list, t.series(k++)});
                    y += lineChart(p, QRectF(x, y, w, 0), xl, series, figureLabel(d, *xs), t) + gap;
                }
            }
            break;
        case DemoId::XposDecay: {
            // |score| against distance on one log axis: equal content for both, random content's mean.
            const DemoFigure* xs = d.summary.find("distance");
            const DemoFigure* xo = d.summary.find("xpos_score");
            const DemoFigure* ro = d.summary.find("rope_score");
            const DemoFigure* xr = d.summary.find("xpos_random_mean_abs");
            const DemoFigure* rr = d.summary.find("rope_random_mean_abs");
            if (!xs || !xo || !ro || !xr || !rr) break;
            std::vector<QString> xl;
            for (double v : xs->list) xl.push_back(shortNumber(v));
            y += lineChart(p, QRectF(x, y, w, 0), xl,
                           {{QObject::tr("|score| RoPE, equal content"), ro->list, t.series(0)},
                            {QObject::tr("|score| xPos, equal content"), xo->list, t.series(1)},
                            {QObject::tr("mean |score| RoPE, random q, k"), rr->list, t.series(2)},
                            {QObject::tr("mean |score| xPos, random q, k"), xr->list, t.series(3)}},
                           QObject::tr("distance m − n (|score|, log axis)"), t, true) + gap;
            break;
        }
        case DemoId::ShawClipping:
        case DemoId::T5Buckets:
        case DemoId::AlibiSlopes:
        case DemoId::YarnRamp: {
            // The demonstration's list against its x axis (the "distance" list, else the index).
            const DemoFigure* xs = nullptr;
            std::vector<const DemoFigure*> ys;
            for (const auto& f : d.summary.figures) {
                if (f.list.empty()) continue;
                if (f.name == "distance") xs = &f;
                else ys.push_back(&f);
            }
            if (ys.empty()) break;
            std::vector<QString> xl;
            const std::size_t n = ys.front()->list.size();
            for (std::size_t i = 0; i < n; ++i)
                xl.push_back(xs && i < xs->list.size() ? shortNumber(xs->list[i]) : QString::number(id == DemoId::AlibiSlopes ? i + 1 : i));
            if (id == DemoId::T5Buckets) {
                y += t5Staircase(p, QRectF(x, y, w, 0), demoParams(id).t5Params(), t) + gap;
                break;
            }
            std::vector<Series> series;
            for (std::size_t k = 0; k < ys.size(); ++k) series.push_back({figureLabel(d, *ys[k]), ys[k]->list, t.series(int(k))});
            // ALiBi: the measured slopes as dots on the formula's line (the two coincide).
            if (id == DemoId::AlibiSlopes && series.size() > 1) series.front().dots = true;
            const QString xname = xs ? figureLabel(d, *xs) : id == DemoId::AlibiSlopes ? QObject::tr("head h") : QObject::tr("pair i");
            y += lineChart(p, QRectF(x, y, w, 0), xl, series, xname, t) + gap;
            break;
        }
        case DemoId::ComparisonTable:
            if (d.table) {
                std::vector<std::vector<QString>> rows;
                std::vector<std::vector<std::optional<DemoId>>> links;
                std::vector<QString> head{QObject::tr("method")};
                for (TableColumn c : {TableColumn::Learnable, TableColumn::Extrapolation, TableColumn::Relative, TableColumn::Memory})
                    head.push_back(comparisonColumnTitle(c));
                rows.push_back(head);
                for (const auto& r : d.table->rows) {
                    std::vector<QString> cells{methodDisplayName(r.method).replace(QLatin1Char('-'), QStringLiteral("-\u200B"))};
                    std::vector<std::optional<DemoId>> l{std::nullopt};
                    for (int c = 0; c < 4; ++c) {
                        cells.push_back(comparisonCellText(r.method, TableColumn(c), r.cells[c]));
                        l.push_back(r.cells[c].demo);
                    }
                    rows.push_back(cells);
                    links.push_back(l);
                }
                y += tableGrid(p, area, rows, {0.18, 0.19, 0.21, 0.21, 0.21}, t, &links, hits) + gap * 0.5;
                // Only where a click can do it (the dock), never on a slide or in a figure.
                if (hits) y += text(p, x, y, w, QObject::tr("Click a cell to open the scene that shows it."), small, t.muted) + gap;
            }
            break;
    }
    if (!d.texts.conclusion.isEmpty()) {
        const QString mark = d.summary.holds ? QStringLiteral("✓ ") : QStringLiteral("✗ ");
        y += text(p, x, y, w, mark + d.texts.conclusion, bold, d.summary.holds ? t.foreground : t.error) + gap;
    }
    p.restore();
    return y - rect.top();
}

// ============================================================================ widgets
DemoCanvas::DemoCanvas(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("demoCanvas"));
    setMouseTracking(true);
    theme_ = themeByName(QStringLiteral("light"));
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
}

void DemoCanvas::setDemo(std::optional<DemoId> id) {
    demo_ = id;
    hits_.clear();
    setMinimumHeight(int(std::ceil(measure(std::max(width(), 300)))));
    updateGeometry();
    update();
}

void DemoCanvas::setTheme(const Theme& t) {
    theme_ = t;
    setMinimumHeight(int(std::ceil(measure(std::max(width(), 300)))));
    update();
}

qreal DemoCanvas::measure(int width) const {
    if (!demo_) return 40;
    QImage probe(std::max(width, 1), 8, QImage::Format_ARGB32_Premultiplied);
    QPainter p(&probe);
    std::vector<DemoHit> measuring;   // measured as painted in the dock (with its click hint)
    const qreal h = paintDemo(p, QRectF(10, 10, width - 20, 100000), *demo_, theme_, &measuring);
    return h + 20;
}

QSize DemoCanvas::sizeHint() const { return {420, int(std::ceil(measure(std::max(width(), 420))))}; }

void DemoCanvas::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    const int h = int(std::ceil(measure(width())));
    if (h != minimumHeight()) setMinimumHeight(h);
}

void DemoCanvas::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), theme_.background);
    hits_.clear();
    if (!demo_) {
        p.setPen(theme_.muted);
        p.setFont(theme_.bodyFont());
        p.drawText(rect().adjusted(10, 10, -10, -10), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                   tr("Choose a demonstration in the Teach menu."));
        return;
    }
    paintDemo(p, QRectF(10, 10, width() - 20, height() - 20), *demo_, theme_, &hits_);
}

void DemoCanvas::mousePressEvent(QMouseEvent* e) {
    for (const auto& h : hits_)
        if (h.rect.contains(e->position())) {
            Q_EMIT demoRequested(h.target);
            return;
        }
    QWidget::mousePressEvent(e);
}

void DemoCanvas::mouseMoveEvent(QMouseEvent* e) {
    bool over = false;
    for (const auto& h : hits_) over |= h.rect.contains(e->position());
    setCursor(over ? Qt::PointingHandCursor : Qt::ArrowCursor);
}

DemoPanel::DemoPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("demoPanel"));
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    canvas_ = new DemoCanvas(this);
    scroll_ = new QScrollArea(this);
    scroll_->setWidget(canvas_);
    scroll_->setWidgetResizable(true);
    scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    lay->addWidget(scroll_);
    connect(canvas_, &DemoCanvas::demoRequested, this, &DemoPanel::demoRequested);
}

void DemoPanel::showDemo(DemoId id) { canvas_->setDemo(id); }

}  // namespace poslab::ui
