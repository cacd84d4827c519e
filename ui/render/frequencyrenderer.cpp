#include "ui/render/frequencyrenderer.h"

#include "ui/render/layout.h"
#include "ui/render/plot.h"
#include "ui/model/sceneparams.h"

#include <QFontMetricsF>
#include <QObject>
#include <QPainterPath>

#include <algorithm>
#include <optional>
#include <cmath>
#include <numbers>

namespace poslab::ui {

namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;

// The θ axis beside a wavelength axis from `lo` to `hi` positions: θ = 2π / wavelength, ticked at
// θ's own round values (powers of ten: 1, 0.1, 0.01 …), not at the wavelengths' (6.283e-05 …).
std::vector<double> thetaTicks(double lo, double hi, int maxTicks) {
    std::vector<double> out;
    for (double th : plot::ticks(kTwoPi / hi, kTwoPi / lo, maxTicks, true))
        if (th >= kTwoPi / hi * (1 - 1e-12) && th <= kTwoPi / lo * (1 + 1e-12)) out.push_back(th);
    return out;
}

// One line per configuration; `brief`: a method without frequencies says only that (the rule when
// the full notes would take more than a third of the view).
QStringList notes(const FrequencyResult& r, bool brief = false) {
    QStringList out;
    for (const auto& c : r.configs) {
        QString s = c.title + QStringLiteral(": ") +
                    (!c.error.isEmpty() ? c.error : (brief && !c.hasFrequencies) ? QObject::tr("no rotation frequencies") : c.note);
        if (c.hasFrequencies && c.attentionFactor != 1.0)
            s += QObject::tr(" · attention factor %1").arg(displayValue(c.attentionFactor));
        out << s;
    }
    return out;
}

bool hasPicture(const FrequencyConfigResult& c) {
    return c.error.isEmpty() && (!c.slopes.empty() || !c.t5Distance.empty() || !c.temperatureScale.empty());
}

// A NoPE layer with temperature tuning (Llama 4): the query scale τ(i) against query position i
// on a log axis up to 10M, with its values at 8k, 128k, 1M and 10M marked and written beside.
void drawTemperature(QPainter& p, const QRectF& area, const FrequencyConfigResult& c, const Theme& t) {
    const double lh = plot::lineHeight(t.smallFont());
    QRectF a = area.adjusted(6, 2, -6, -2);
    const QMarginsF m = plot::axesMargins(t);
    p.setFont(t.smallFont());
    const QString title = QObject::tr("%1: NoPE layer, query scale τ(i) = log1p(⌊(i+1)/%2⌋)·%3 + 1 up to 10M positions")
                              .arg(c.title, displayValue(c.temperatureTuning.at(0)), displayValue(c.temperatureTuning.at(1)));
    plot::text(p, QPointF(a.left(), a.top() + lh / 2),
               fitText(QStringList{title, QObject::tr("%1: NoPE layer, query scale τ(i) up to 10M positions").arg(c.title),
                                   QObject::tr("%1: query scale τ(i)").arg(c.title), c.title},
                       t.smallFont(), a.width()),
               plot::Align::Left, t.foreground);
    a.setTop(a.top() + lh + 4);
    // The marks' values in a column at the right: "8k: τ = 1.05".
    const auto markName = [](std::int64_t v) {
        return v >= 1048576 ? QStringLiteral("%1M").arg(v / 1048576) : QStringLiteral("%1k").arg(v / 1024);
    };
    QStringList entries;
    for (std::size_t k = 0; k < c.temperatureMarks.size(); ++k)
        entries << QObject::tr("%1: τ = %2").arg(markName(c.temperatureMarks[k]), displayValue(c.temperatureAtMarks[k]));
    const QFontMetricsF fm(t.smallFont());
    double legendW = 0;
    for (const auto& e : entries) legendW = std::max(legendW, fm.horizontalAdvance(e));
    const bool legend = legendW + 16 <= a.width() * 0.35;
    const QRectF pr = a.marginsRemoved(QMarginsF(m.left(), m.top(), legend ? legendW + 16 : 8, m.bottom()));
    if (pr.width() < 30 || pr.height() < 30) return;
    double hi = 1;
    for (double v : c.temperatureScale) hi = std::max(hi, v);
    const plot::Axis ax{1, double(c.temperaturePositions.back()), true, pr.left(), pr.right()};
    const plot::Axis ay{1, hi * 1.05, false, pr.bottom(), pr.top()};
    plot::axes(p, pr, ax, ay, t, QObject::tr("query position i"), QObject::tr("query scale τ(i)"), true, 8,
               std::max(2, static_cast<int>(pr.height() / (lh * 1.6))));
    QPainterPath path;
    bool first = true;
    for (std::size_t k = 0; k < c.temperaturePositions.size(); ++k) {
        if (c.temperaturePositions[k] < 1) continue;
        const QPointF pt(ax.map(double(c.temperaturePositions[k])), ay.map(c.temperatureScale[k]));
        if (first) path.moveTo(pt);
        else path.lineTo(pt);
        first = false;
    }
    p.save();
    p.setClipRect(pr.adjusted(-1, -1, 1, 1));
    p.setPen(QPen(t.series(0), 1.5 * t.lineWidth));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    p.setPen(Qt::NoPen);
    p.setBrush(t.series(0));
    for (std::size_t k = 0; k < c.temperatureMarks.size(); ++k)
        p.drawEllipse(QPointF(ax.map(double(c.temperatureMarks[k])), ay.map(c.temperatureAtMarks[k])), 3.5, 3.5);
    p.restore();
    if (!legend) return;
    for (int k = 0; k < entries.size(); ++k)
        plot::text(p, QPointF(pr.right() + 12, pr.top() + lh / 2 + k * lh), entries[k], plot::Align::Left, t.foreground);
    layoutRecord(p, LayoutItemKind::Legend, QRectF(pr.right() + 10, pr.top(), legendW + 4, entries.size() * lh));
}

// ALiBi: the slope of every head (log axis: the slopes are a geometric sequence), a legend entry
// per head beside the plot, in columns; shorter entries by rule, and past what fits the title
// gives the range instead.
void drawAlibi(QPainter& p, const QRectF& area, const FrequencyConfigResult& c, const Theme& t) {
    const int H = static_cast<int>(c.slopes.size());
    const double lh = plot::lineHeight(t.smallFont());
    const QFontMetricsF fm(t.smallFont());
    QRectF a = area.adjusted(6, 2, -6, -2);
    const QMarginsF m = plot::axesMargins(t);
    const double plotH = a.height() - lh - 4 - m.top() - m.bottom();
    const int rowsFit = std::max(1, static_cast<int>(plotH / lh));
    const int cols = (H + rowsFit - 1) / rowsFit;
    const auto entry = [&](int h, bool full) {
        return full ? QObject::tr("head %1: m = %2").arg(h).arg(displayValue(c.slopes[std::size_t(h)]))
                    : QStringLiteral("%1: %2").arg(h).arg(displayValue(c.slopes[std::size_t(h)]));
    };
    const auto columnWidth = [&](bool full) {
        double w = 0;
        for (int h = 0; h < H; ++h) w = std::max(w, fm.horizontalAdvance(entry(h, full)));
        return w + lh + 12;
    };
    bool full = true;
    double colW = columnWidth(true);
    if (cols * colW > a.width() * 0.45) {
        full = false;
        colW = columnWidth(false);
    }
    const bool legend = cols * colW <= a.width() * 0.5;
    const double mMin = *std::min_element(c.slopes.begin(), c.slopes.end()), mMax = *std::max_element(c.slopes.begin(), c.slopes.end());
    p.setFont(t.smallFont());
    const QString title = legend ? QObject::tr("%1: slope m_h of each head (bias −m_h·(i − j))").arg(c.title)
                                 : QObject::tr("%1: slope m_h of %2 heads, %3 (head 0) … %4 (head %5)")
                                       .arg(c.title)
                                       .arg(H)
                                       .arg(displayValue(c.slopes.front()), displayValue(c.slopes.back()))
                                       .arg(H - 1);
    // Shorter by rule rather than cut: the heads' range, then the name alone.
    plot::text(p, QPointF(a.left(), a.top() + lh / 2),
               fitText(QStringList{title, QObject::tr("%1: slope m_h of %2 heads").arg(c.title).arg(H),
                                   QObject::tr("%1: %2 slopes m_h").arg(c.title).arg(H), c.title},
                       t.smallFont(), a.width()),
               plot::Align::Left, t.foreground);
    a.setTop(a.top() + lh + 4);
    QRectF pr = a.marginsRemoved(QMarginsF(m.left(), m.top(), legend ? cols * colW + 8 : 8, m.bottom()));
    if (pr.width() < 30 || pr.height() < 30 || !(mMin > 0)) return;
    double lo = std::pow(10.0, std::floor(std::log10(mMin))), hi = std::pow(10.0, std::ceil(std::log10(mMax)));
    if (hi <= lo) hi = lo * 10;
    const plot::Axis ax{-0.5, H - 0.5, false, pr.left(), pr.right()};
    const plot::Axis ay{lo, hi, true, pr.bottom(), pr.top()};
    plot::axes(p, pr, ax, ay, t, QObject::tr("head h"), QObject::tr("slope m_h"), true, std::min(H, 8),
               std::max(2, static_cast<int>(pr.height() / (lh * 1.6))));
    // The slopes, joined (a straight line on the log axis for a power-of-two H).
    QPainterPath path;
    for (int h = 0; h < H; ++h) {
        const QPointF pt(ax.map(h), ay.map(c.slopes[std::size_t(h)]));
        if (h == 0) path.moveTo(pt);
        else path.lineTo(pt);
    }
    p.setPen(QPen(t.muted, 1));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    const double r = std::clamp(pr.width() / (H * 3.0), 1.5, 4.0 * t.lineWidth);
    p.setPen(Qt::NoPen);
    for (int h = 0; h < H; ++h) {
        p.setBrush(t.series(h));
        p.drawEllipse(QPointF(ax.map(h), ay.map(c.slopes[std::size_t(h)])), r, r);
    }
    if (!legend) return;
    p.setFont(t.smallFont());
    for (int h = 0; h < H; ++h) {
        const double x = pr.right() + 12 + (h / rowsFit) * colW, y = pr.top() + lh / 2 + (h % rowsFit) * lh;
        p.setPen(Qt::NoPen);
        p.setBrush(t.series(h));
        p.drawEllipse(QPointF(x + lh * 0.35, y), lh * 0.3, lh * 0.3);
        plot::text(p, QPointF(x + lh * 0.8, y), entry(h, full), plot::Align::Left, t.foreground);
    }
    layoutRecord(p, LayoutItemKind::Legend, QRectF(pr.right() + 10, pr.top(), cols * colW, std::min(H, rowsFit) * lh));
}

// T5: the bucket of each distance |i − j|, for a key before the query (solid) and after it
// (dashed, bidirectional), with where exact buckets end and where the last bucket starts.
void drawT5(QPainter& p, const QRectF& area, const FrequencyConfigResult& c, int k, const Theme& t) {
    const double lh = plot::lineHeight(t.smallFont());
    QRectF a = area.adjusted(6, 2, -6, -2);
    p.setFont(t.smallFont());
    // Two lines: the title, then the rule's numbers (moved below rather than cut).
    plot::text(p, QPointF(a.left(), a.top() + lh / 2),
               fitText(QStringList{QObject::tr("%1: bucket of each distance").arg(c.title), QObject::tr("%1: buckets").arg(c.title), c.title},
                       t.smallFont(), a.width()),
               plot::Align::Left, t.foreground);
    plot::text(p, QPointF(a.left(), a.top() + lh * 1.5),
               fitText(QStringList{QObject::tr("%1 buckets · exact below %2 · logarithmic up to %3")
                                       .arg(c.t5Buckets)
                                       .arg(c.t5MaxExact)
                                       .arg(c.t5MaxDistance),
                                   QObject::tr("%1 buckets · exact < %2 · log to %3").arg(c.t5Buckets).arg(c.t5MaxExact).arg(c.t5MaxDistance),
                                   QObject::tr("%1 buckets, exact < %2").arg(c.t5Buckets).arg(c.t5MaxExact)},
                       t.smallFont(), a.width()),
               plot::Align::Left, t.muted);
    a.setTop(a.top() + 2 * lh + 4);
    a.setBottom(a.bottom() - lh - 2);   // the legend line
    const QMarginsF m = plot::axesMargins(t);
    const QRectF pr = a.marginsRemoved(QMarginsF(m.left(), m.top(), 12, m.bottom()));
    if (pr.width() < 30 || pr.height() < 30 || c.t5Distance.size() < 2) return;
    const double xMax = double(c.t5Distance.back());
    const plot::Axis ax{0, xMax, false, pr.left(), pr.right()};
    const plot::Axis ay{-0.5, c.t5Buckets - 0.5, false, pr.bottom(), pr.top()};
    plot::axes(p, pr, ax, ay, t, QStringList{QObject::tr("distance |i − j| (tokens)"), QObject::tr("distance |i − j|"), QObject::tr("|i − j|")},
               QStringList{QObject::tr("bucket")}, true, 6,
               std::max(2, static_cast<int>(pr.height() / (lh * 1.6))));
    const auto steps = [&](const std::vector<std::int64_t>& b) {
        QPainterPath path;
        for (std::size_t i = 0; i < b.size() && i < c.t5Distance.size(); ++i) {
            const QPointF pt(ax.map(double(c.t5Distance[i])), ay.map(double(b[i])));
            if (i == 0) path.moveTo(pt);
            else {
                path.lineTo(QPointF(pt.x(), path.currentPosition().y()));
                path.lineTo(pt);
            }
        }
        return path;
    };
    const QColor col = t.series(k);
    p.save();
    p.setClipRect(pr.adjusted(-2, -2, 2, 2));
    // Where the exact buckets end and where every longer distance shares the last one.
    p.setPen(QPen(t.muted, 1, Qt::DotLine));
    for (double n : {double(c.t5MaxExact), double(c.t5MaxDistance)})
        if (n <= xMax) p.drawLine(QPointF(ax.map(n), pr.top()), QPointF(ax.map(n), pr.bottom()));
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(col, t.lineWidth));
    p.drawPath(steps(c.t5Before));
    if (!c.t5After.empty()) {
        p.setPen(QPen(col, t.lineWidth, Qt::DashLine));
        p.drawPath(steps(c.t5After));
    }
    p.restore();
    // Their labels, low in the plot (below the curves), right of each line; one that would run
    // into the next or out of the plot is left out.
    p.setFont(t.smallFont());
    const QFontMetricsF fm(t.smallFont());
    const QString labels[2] = {QObject::tr("exact below %1").arg(c.t5MaxExact),
                               QObject::tr("≥ %1: last bucket").arg(c.t5MaxDistance)};
    const double xs[2] = {ax.map(double(c.t5MaxExact)), ax.map(double(c.t5MaxDistance))};
    for (int i = 0; i < 2; ++i) {
        const double w = fm.horizontalAdvance(labels[i]);
        const double right = i == 0 ? xs[1] - 4 : pr.right() - 2;
        if (xs[i] + 4 + w > right) continue;
        plot::text(p, QPointF(xs[i] + 4, pr.bottom() - lh * 0.7), labels[i], plot::Align::Left, t.muted);
    }
    // Legend: the line styles.
    const double ly = a.bottom() + lh / 2 + 2;
    double x = pr.left();
    // An entry that does not fit whole is left out, with its line.
    const auto item = [&](Qt::PenStyle style, const QString& s) {
        const FittedText f = fitText(s, t.smallFont(), std::max(0.0, a.right() - x - lh * 1.6 - 4));
        if (f.text.isEmpty() || f.elided) return;
        p.setPen(QPen(col, t.lineWidth, style));
        p.drawLine(QPointF(x, ly), QPointF(x + lh * 1.6, ly));
        x += lh * 1.6 + 4;
        x += plot::text(p, QPointF(x, ly), f, plot::Align::Left, t.foreground).width() + 16;
    };
    item(Qt::SolidLine, c.t5After.empty() ? QObject::tr("key before the query (a later key: bucket 0)") : QObject::tr("key before the query"));
    if (!c.t5After.empty()) item(Qt::DashLine, QObject::tr("key after it"));
}

}  // namespace

FrequencyLayout layoutFrequencies(const QRectF& rect, const FrequencyResult& result, const Theme& t) {
    FrequencyLayout l;
    const QFontMetricsF fm(t.smallFont());
    const auto height = [&](bool brief) {
        double h = 4;
        for (const auto& n : notes(result, brief)) h += fm.boundingRect(QRectF(0, 0, rect.width() - 12, 1000), Qt::TextWordWrap, n).height() + 2;
        return h;
    };
    double h = height(false);
    bool any0 = false;
    for (const auto& c : result.configs) any0 = any0 || (c.error.isEmpty() && (c.hasFrequencies || hasPicture(c)));
    if (any0 && h > rect.height() / 3) {
        l.brief = true;
        h = height(true);
    }
    l.header = QRectF(rect.left() + 6, rect.top() + 2, rect.width() - 12, h);
    double lo = std::numeric_limits<double>::infinity(), hi = 0;
    bool any = false;
    for (const auto& c : result.configs) {
        if (!c.hasFrequencies || !c.error.isEmpty()) continue;
        any = true;
        l.pairs = std::max(l.pairs, static_cast<int>(c.after.size()));
        for (const auto* v : {&c.before, &c.after})
            for (double th : *v)
                if (th > 0 && std::isfinite(th)) {
                    lo = std::min(lo, kTwoPi / th);
                    hi = std::max(hi, kTwoPi / th);
                }
        for (auto ctx : {c.originalContext, c.context})
            if (ctx > 0) {
                lo = std::min(lo, double(ctx));
                hi = std::max(hi, double(ctx));
            }
    }
    any = any && hi > 0;
    // The frequency plot and one panel per picture share the space below the notes (layout.h).
    std::vector<int> pics;
    for (int k = 0; k < static_cast<int>(result.configs.size()); ++k)
        if (hasPicture(result.configs[static_cast<std::size_t>(k)])) pics.push_back(k);
    const int n = (any ? 1 : 0) + static_cast<int>(pics.size());
    if (n == 0) return l;
    const QRectF body(rect.left(), l.header.bottom(), rect.width(), rect.bottom() - l.header.bottom());
    const auto areas = placePanels(body, n, PanelChrome{}, false, 3.0);
    for (std::size_t i = 0; i < pics.size(); ++i) l.pictures.push_back({pics[i], areas[i + (any ? 1 : 0)].area});
    if (!any) return l;
    const QRectF freqArea = areas[0].area;
    l.lo = std::pow(10.0, std::floor(std::log10(lo)));
    l.hi = std::pow(10.0, std::ceil(std::log10(hi)));
    if (l.hi <= l.lo) l.hi = l.lo * 10;
    QMarginsF m = plot::axesMargins(t);
    // The θ axis on the right: its widest tick label, then its title.
    double thetaW = 0;
    for (const QString& s : plot::tickLabels(thetaTicks(l.lo, l.hi, 12), true)) thetaW = std::max(thetaW, fm.horizontalAdvance(s));
    m.setRight(thetaW + 6 + 6 + plot::lineHeight(t.bodyFont()) + 4);
    l.area = freqArea;
    l.plot = freqArea.marginsRemoved(m);
    if (l.plot.height() < 20 || l.plot.width() < 20) l.plot = QRectF();
    return l;
}

void renderFrequencies(QPainter& p, const QRectF& rect, const FrequencyResult& result, const Theme& t) {
    p.save();
    p.fillRect(rect, t.background);
    p.setRenderHint(QPainter::Antialiasing, true);
    const FrequencyLayout l = layoutFrequencies(rect, result, t);
    if (l.plot.isEmpty() && l.pictures.empty()) {
        // Nothing to plot: say so plainly, in readable type.
        p.setFont(t.bodyFont());
        QStringList lines = notes(result);
        const QRectF box = rect.adjusted(rect.width() * 0.08, rect.height() * 0.2, -rect.width() * 0.08, 0);
        // Too long for the view: each method says only that it has no frequencies.
        if (QFontMetricsF(t.bodyFont()).boundingRect(box, Qt::TextWordWrap, lines.join(QStringLiteral("\n\n"))).height() > box.height())
            lines = notes(result, true);
        plot::wrappedText(p, box, lines.join(QStringLiteral("\n\n")), t.muted);
        p.restore();
        return;
    }
    p.setFont(t.smallFont());
    double y = l.header.top();
    int k = 0;
    for (const auto& n : notes(result, l.brief)) {
        const auto& c = result.configs[static_cast<std::size_t>(k)];
        y += plot::wrappedText(p, QRectF(l.header.left(), y, l.header.width(), 1000), n,
                               !c.error.isEmpty() ? t.error : (c.hasFrequencies ? t.series(k) : t.muted)) + 2;
        ++k;
    }
    for (const auto& pic : l.pictures) {
        layoutRecord(p, LayoutItemKind::Panel, pic.area);   // each picture must be legible (layout.h)
        const auto& c = result.configs[static_cast<std::size_t>(pic.config)];
        if (!c.slopes.empty()) drawAlibi(p, pic.area, c, t);
        else if (!c.temperatureScale.empty()) drawTemperature(p, pic.area, c, t);
        else drawT5(p, pic.area, c, pic.config, t);
    }
    if (!l.area.isEmpty()) layoutRecord(p, LayoutItemKind::Panel, l.area);
    if (l.plot.isEmpty()) {
        p.restore();
        return;
    }
    const plot::Axis ax{0, double(std::max(1, l.pairs - 1)), false, l.plot.left(), l.plot.right()};
    const plot::Axis ay{l.lo, l.hi, true, l.plot.bottom(), l.plot.top()};
    plot::axes(p, l.plot, ax, ay, t, QStringList{QObject::tr("pair i"), QObject::tr("i")},
               QStringList{QObject::tr("wavelength 2π/θ_i (positions)"), QObject::tr("wavelength 2π/θ_i"), QObject::tr("2π/θ_i")}, true, 8,
               std::max(2, static_cast<int>(l.plot.height() / (plot::lineHeight(t.smallFont()) * 1.6))));
    // Right axis: θ = 2π/wavelength at the same heights.
    p.setFont(t.smallFont());
    p.setPen(QPen(t.foreground, t.axisWidth));
    std::optional<LayoutGroup> thetaGroup(std::in_place);   // one axis, written one way (plot::tickLabels)
    const auto thetas = thetaTicks(l.lo, l.hi, std::max(2, static_cast<int>(l.plot.height() / (plot::lineHeight(t.smallFont()) * 1.6))));
    const QStringList thetaLabels = plot::tickLabels(thetas, true);
    for (std::size_t i = 0; i < thetas.size(); ++i) {
        const double yy = ay.map(kTwoPi / thetas[i]);
        p.drawLine(QPointF(l.plot.right(), yy), QPointF(l.plot.right() + 4, yy));
        plot::text(p, QPointF(l.plot.right() + 6, yy), thetaLabels[qsizetype(i)], plot::Align::Left, t.muted);
    }
    thetaGroup.reset();
    p.setFont(t.bodyFont());
    p.save();
    p.translate(QPointF(l.area.right() - plot::lineHeight(t.bodyFont()) / 2 - 2, l.plot.center().y()));
    p.rotate(-90);
    plot::text(p, QPointF(0, 0), fitText(QObject::tr("θ_i (rad / position)"), t.bodyFont(), l.plot.height()), plot::Align::Center,
               t.foreground);
    p.restore();
    p.save();
    p.setClipRect(l.plot.adjusted(-4, -4, 4, 4));
    // Context lengths.
    std::vector<std::int64_t> marked;
    // The legend's rows, top left inside the plot: the wavelengths grow with the pair index, so
    // the curves rise from the bottom left and leave that corner empty (top right they end).
    const double legendH = plot::lineHeight(t.smallFont());
    int legendRows = 0;
    for (const auto& c : result.configs) legendRows += c.hasFrequencies && c.error.isEmpty();
    const double legendBottom = std::min(l.plot.bottom(), l.plot.top() + 4 + legendRows * legendH);
    for (const auto& c : result.configs) {
        if (!c.hasFrequencies || !c.error.isEmpty()) continue;
        for (auto ctx : {c.originalContext, c.context}) {
            if (ctx <= 0 || std::find(marked.begin(), marked.end(), ctx) != marked.end()) continue;
            marked.push_back(ctx);
            const double yy = ay.map(double(ctx));
            p.setPen(QPen(t.error, std::max(1.0, t.lineWidth * 0.7), Qt::DashDotLine));
            p.drawLine(QPointF(l.plot.left(), yy), QPointF(l.plot.right(), yy));
            p.setFont(t.smallFont());
            const double lh = plot::lineHeight(t.smallFont());
            const QStringList forms = ctx == c.originalContext && c.originalContext != c.context
                                          ? QStringList{QObject::tr("original context %1").arg(ctx), QObject::tr("original %1").arg(ctx),
                                                        QString::number(ctx)}
                                          : QStringList{QObject::tr("context %1").arg(ctx), QString::number(ctx)};
            // Where this configuration's curve crosses the line: left of it the curve is below the
            // line (the wavelengths grow with i), right of it above. So a label goes above the
            // line at the left end, or below it at the right end, clear of the crossing (and of
            // the legend's rows, top left): the longest form that is clear at either; else the
            // shortest above at the left (at the right where the legend is).
            double crossX = l.plot.right();
            for (std::size_t i = 0; i < c.after.size(); ++i)
                if (kTwoPi / c.after[i] >= double(ctx)) {
                    crossX = ax.map(double(i));
                    break;
                }
            const double above = yy - lh / 2 - 1, below = yy + lh / 2 + 1;
            const bool aboveFits = yy - lh - 1 >= l.plot.top(), belowFits = yy + lh + 1 <= l.plot.bottom();
            std::optional<FittedText> label;
            bool right = false;
            double labelY = aboveFits ? above : below;
            for (const QString& form : forms) {
                const FittedText f = fitText(form, t.smallFont(), l.plot.width() - 12);
                if (f.elided) continue;
                if (aboveFits && l.plot.left() + 6 + f.width <= crossX - 4 && above - lh / 2 >= legendBottom) {
                    label = f, right = false, labelY = above;
                    break;
                }
                if (belowFits && l.plot.right() - 6 - f.width >= crossX + 4) {
                    label = f, right = true, labelY = below;
                    break;
                }
            }
            if (!label) {
                label = fitText(forms.back(), t.smallFont(), l.plot.width() - 12);
                if (label->text.isEmpty() || label->elided) continue;
                right = labelY - lh / 2 < legendBottom && labelY + lh / 2 > l.plot.top();
            }
            plot::text(p, QPointF(right ? l.plot.right() - 6 : l.plot.left() + 6, labelY), *label,
                       right ? plot::Align::Right : plot::Align::Left, t.error);
        }
    }
    k = 0;
    for (const auto& c : result.configs) {
        if (!c.hasFrequencies || !c.error.isEmpty()) {
            ++k;
            continue;
        }
        const QColor col = t.series(k);
        auto draw = [&](const std::vector<double>& th, Qt::PenStyle style, bool dots) {
            QPainterPath path;
            for (std::size_t i = 0; i < th.size(); ++i) {
                const QPointF pt(ax.map(double(i)), ay.map(kTwoPi / th[i]));
                if (i == 0) path.moveTo(pt);
                else path.lineTo(pt);
            }
            p.setPen(QPen(col, t.lineWidth, style));
            p.setBrush(Qt::NoBrush);
            p.drawPath(path);
            if (dots && th.size() <= 128) {
                p.setBrush(col);
                for (std::size_t i = 0; i < th.size(); ++i) p.drawEllipse(QPointF(ax.map(double(i)), ay.map(kTwoPi / th[i])), 2.2, 2.2);
            }
        };
        if (c.scaled && c.before != c.after) draw(c.before, Qt::DashLine, false);
        draw(c.after, Qt::SolidLine, true);
        ++k;
    }
    p.restore();
    // Legend
    p.setFont(t.smallFont());
    const double lh = plot::lineHeight(t.smallFont());
    double ly = l.plot.top() + lh / 2 + 4;
    k = 0;
    for (const auto& c : result.configs) {
        if (c.hasFrequencies && c.error.isEmpty()) {
            QString s = c.title;
            if (c.scaled && c.before != c.after) s += QObject::tr(" (dashed: before scaling)");
            // Legend lines stay inside the plot (one that would not fit is left out).
            if (ly + lh / 2 <= l.plot.bottom())
                plot::text(p, QPointF(l.plot.left() + 6, ly),
                           fitText(QStringList{s, c.title, c.title.section(QStringLiteral(": "), 0, 0)}, t.smallFont(), l.plot.width() - 12),
                           plot::Align::Left, t.series(k));
            ly += lh;
        }
        ++k;
    }
    p.restore();
}

std::optional<FrequencyHit> hitTestFrequencies(const QRectF& rect, const FrequencyResult& result, const Theme& t,
                                               const QPointF& point) {
    const FrequencyLayout l = layoutFrequencies(rect, result, t);
    if (l.plot.isEmpty() || !l.plot.adjusted(-6, -6, 6, 6).contains(point) || l.pairs == 0) return std::nullopt;
    const plot::Axis ax{0, double(std::max(1, l.pairs - 1)), false, l.plot.left(), l.plot.right()};
    FrequencyHit h;
    h.pair = std::clamp(static_cast<int>(std::lround(ax.unmap(point.x()))), 0, l.pairs - 1);
    return h;
}

QString frequencyToolTip(const FrequencyResult& result, const FrequencyHit& hit) {
    QStringList lines{QObject::tr("pair i = %1").arg(hit.pair)};
    for (const auto& c : result.configs) {
        if (!c.hasFrequencies || !c.error.isEmpty() || hit.pair >= static_cast<int>(c.after.size())) continue;
        const auto i = static_cast<std::size_t>(hit.pair);
        lines << QObject::tr("%1: θ_i = %2, wavelength = %3").arg(c.title, formatValue(c.after[i]), formatValue(kTwoPi / c.after[i]));
        if (c.scaled && c.before[i] != c.after[i])
            lines << QObject::tr("    before scaling: θ_i = %1, wavelength = %2").arg(formatValue(c.before[i]), formatValue(kTwoPi / c.before[i]));
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace poslab::ui
