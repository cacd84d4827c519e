#include "ui/render/frequencyrenderer.h"

#include "ui/render/layout.h"
#include "ui/render/plot.h"
#include "ui/render/typeset.h"
#include "ui/model/sceneparams.h"

#include <QFontMetricsF>
#include <QObject>
#include <QPainterPath>

#include <algorithm>
#include <bit>
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

bool hasPicture(const FrequencyConfigResult& c) {
    return c.error.isEmpty() && (!c.slopes.empty() || !c.t5Distance.empty() || !c.temperatureScale.empty());
}

// One line per configuration, as much as the plots leave room for (FrequencyLayout::Notes):
// Full its note; Brief a method without frequencies says only that; Unpictured, as Brief, not for
// a configuration whose picture is drawn (its title names it); Minimal only for a configuration
// the view shows nowhere else. An error is always said; so is a picture left out (`dropped`).
QStringList notes(const FrequencyResult& r, FrequencyLayout::Notes mode = FrequencyLayout::Notes::Full,
                  const std::vector<int>& dropped = {}, std::vector<int>* configs = nullptr) {
    using N = FrequencyLayout::Notes;
    QStringList out;
    for (int k = 0; k < static_cast<int>(r.configs.size()); ++k) {
        const auto& c = r.configs[static_cast<std::size_t>(k)];
        const bool left = std::find(dropped.begin(), dropped.end(), k) != dropped.end();
        const bool pictured = hasPicture(c) && !left;
        QString s;
        if (!c.error.isEmpty()) s = c.error;
        else if (left) s = QObject::tr("no room for its picture at this size");
        else if (mode == N::Unpictured && pictured) continue;
        else if (mode == N::Minimal && (pictured || c.hasFrequencies)) continue;
        else s = (mode != N::Full && !c.hasFrequencies) ? QObject::tr("no rotation frequencies") : c.note;
        s = c.title + QStringLiteral(": ") + s;
        if (c.error.isEmpty() && c.hasFrequencies && c.attentionFactor != 1.0)
            s += QObject::tr(" · attention factor %1").arg(displayValue(c.attentionFactor));
        out << s;
        if (configs) configs->push_back(k);
    }
    return out;
}

// The room a picture's panel keeps around its plot (its title lines, tick labels, axis titles);
// `titles`: the axis titles are drawn.
QMarginsF pictureMargins(const FrequencyConfigResult& c, const Theme& t, bool titles) {
    const double lh = plot::lineHeight(t.smallFont());
    if (!c.slopes.empty()) {
        const double mMin = *std::min_element(c.slopes.begin(), c.slopes.end());
        const double mMax = *std::max_element(c.slopes.begin(), c.slopes.end());
        double lo = mMin > 0 ? std::pow(10.0, std::floor(std::log10(mMin))) : 1e-3, hi = mMax > 0 ? std::pow(10.0, std::ceil(std::log10(mMax))) : 1;
        if (hi <= lo) hi = lo * 10;
        const QMarginsF m = plot::axesMargins(t, titles, titles, plot::tickLabelWidth(t, lo, hi, true));
        return QMarginsF(6 + m.left(), 2 + lh + 4 + m.top(), 6 + 8, 2 + m.bottom());
    }
    if (!c.temperatureScale.empty()) {
        double hi = 1;
        for (double v : c.temperatureScale) hi = std::max(hi, v);
        const QMarginsF m = plot::axesMargins(t, titles, titles, plot::tickLabelWidth(t, 1, hi * 1.05));
        return QMarginsF(6 + m.left(), 2 + lh + 4 + m.top(), 6 + 8, 2 + m.bottom());
    }
    const QMarginsF m = plot::axesMargins(t, titles, titles, plot::tickLabelWidth(t, -0.5, c.t5Buckets - 0.5));
    return QMarginsF(6 + m.left(), 2 + 2 * lh + 4 + m.top(), 6 + 12, 2 + lh + 2 + m.bottom());
}

// A NoPE layer with temperature tuning (Llama 4): the query scale τ(i) against query position i
// on a log axis up to 10M, with its values at 8k, 128k, 1M and 10M marked and written beside.
void drawTemperature(QPainter& p, const QRectF& area, const FrequencyConfigResult& c, const Theme& t, bool titles) {
    const double lh = plot::lineHeight(t.smallFont());
    QRectF a = area.adjusted(6, 2, -6, -2);
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
    QRectF pr = area.marginsRemoved(pictureMargins(c, t, titles));
    // The values beside the plot where they leave it legible.
    const bool legend = legendW + 16 <= a.width() * 0.35 && pr.width() - legendW - 8 >= minPlotSide(t);
    if (legend) pr.setRight(pr.right() - legendW - 8);
    if (pr.width() < 30 || pr.height() < 30) return;
    double hi = 1;
    for (double v : c.temperatureScale) hi = std::max(hi, v);
    const plot::Axis ax{1, double(c.temperaturePositions.back()), true, pr.left(), pr.right()};
    const plot::Axis ay{1, hi * 1.05, false, pr.bottom(), pr.top()};
    plot::axes(p, pr, ax, ay, t, titles ? QObject::tr("query position i") : QString(), titles ? QObject::tr("query scale τ(i)") : QString(), true, 8,
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
void drawAlibi(QPainter& p, const QRectF& area, const FrequencyConfigResult& c, const Theme& t, bool titles) {
    const int H = static_cast<int>(c.slopes.size());
    const double lh = plot::lineHeight(t.smallFont());
    const QFontMetricsF fm(t.smallFont());
    QRectF a = area.adjusted(6, 2, -6, -2);
    QRectF pr = area.marginsRemoved(pictureMargins(c, t, titles));
    const double plotH = pr.height();
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
    // The legend beside the plot where it leaves the plot legible.
    const bool legend = cols * colW <= a.width() * 0.5 && pr.width() - cols * colW >= minPlotSide(t);
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
    if (legend) pr.setRight(pr.right() - cols * colW);
    if (pr.width() < 30 || pr.height() < 30 || !(mMin > 0)) return;
    double lo = std::pow(10.0, std::floor(std::log10(mMin))), hi = std::pow(10.0, std::ceil(std::log10(mMax)));
    if (hi <= lo) hi = lo * 10;
    const plot::Axis ax{-0.5, H - 0.5, false, pr.left(), pr.right()};
    const plot::Axis ay{lo, hi, true, pr.bottom(), pr.top()};
    plot::axes(p, pr, ax, ay, t, titles ? QObject::tr("head h") : QString(), titles ? QObject::tr("slope m_h") : QString(), true, std::min(H, 8),
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
void drawT5(QPainter& p, const QRectF& area, const FrequencyConfigResult& c, int k, const Theme& t, bool titles) {
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
                                   QObject::tr("%1 buckets, exact < %2").arg(c.t5Buckets).arg(c.t5MaxExact),
                                   QObject::tr("%1 buckets").arg(c.t5Buckets)},
                       t.smallFont(), a.width()),
               plot::Align::Left, t.muted);
    a.setTop(a.top() + 2 * lh + 4);
    a.setBottom(a.bottom() - lh - 2);   // the legend line
    const QRectF pr = area.marginsRemoved(pictureMargins(c, t, titles));
    if (pr.width() < 30 || pr.height() < 30 || c.t5Distance.size() < 2) return;
    const double xMax = double(c.t5Distance.back());
    const plot::Axis ax{0, xMax, false, pr.left(), pr.right()};
    const plot::Axis ay{-0.5, c.t5Buckets - 0.5, false, pr.bottom(), pr.top()};
    plot::axes(p, pr, ax, ay, t,
               titles ? QStringList{QObject::tr("distance |i − j| (tokens)"), QObject::tr("distance |i − j|"), QObject::tr("|i − j|")} : QStringList{},
               titles ? QStringList{QObject::tr("bucket")} : QStringList{}, true, 6,
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

namespace {
// The configuration whose drawn curve is `c`'s frequencies before scaling (slide 17: the scalings'
// "before" is RoPE's own curve A), else nullptr.
const FrequencyConfigResult* beforeIsDrawn(const FrequencyResult& result, const FrequencyConfigResult& c) {
    for (const auto& o : result.configs) {
        if (&o == &c || !o.hasFrequencies || !o.error.isEmpty() || o.after.size() != c.before.size() || o.after.empty()) continue;
        bool same = true;
        for (std::size_t i = 0; i < o.after.size() && same; ++i)
            same = std::abs(o.after[i] - c.before[i]) <= 1e-9 * std::max(std::abs(o.after[i]), std::abs(c.before[i]));
        if (same) return &o;
    }
    return nullptr;
}
}  // namespace

FrequencyLayout layoutFrequencies(const QRectF& rect, const FrequencyResult& result, const Theme& t) {
    using N = FrequencyLayout::Notes;
    FrequencyLayout l;
    const QFontMetricsF fm(t.smallFont());
    const auto notesHeight = [&](N mode, const std::vector<int>& dropped) {
        const QStringList lines = notes(result, mode, dropped);
        if (lines.isEmpty()) return 4.0;
        double h = 4;
        for (const auto& n : lines) h += plot::wrappedTextHeight(t.smallFont(), rect.width() - 12, n) + 2;
        return h;
    };
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
    std::vector<int> pics;
    for (int k = 0; k < static_cast<int>(result.configs.size()); ++k)
        if (hasPicture(result.configs[static_cast<std::size_t>(k)])) pics.push_back(k);
    if (!any && pics.empty()) {
        l.header = QRectF(rect.left() + 6, rect.top() + 2, rect.width() - 12, notesHeight(N::Full, {}));
        return l;
    }
    if (any) {
        l.lo = std::pow(10.0, std::floor(std::log10(lo)));
        l.hi = std::pow(10.0, std::ceil(std::log10(hi)));
        if (l.hi <= l.lo) l.hi = l.lo * 10;
    }
    const double hb = plot::lineHeight(t.bodyFont());
    // The frequency plot's tick labels and titles; the θ axis on the right: its widest tick
    // label, then its title.
    const auto freqMargins = [&](bool theta, bool titles) {
        QMarginsF m = plot::axesMargins(t, titles, titles, plot::tickLabelWidth(t, l.lo, l.hi, true));
        if (theta) {
            double thetaW = 0;
            for (const QString& s : plot::tickLabels(thetaTicks(l.lo, l.hi, 12), true)) thetaW = std::max(thetaW, fm.horizontalAdvance(s));
            m.setRight(thetaW + 6 + 6 + (titles ? hb + 4 : 0.0));
        }
        return m;
    };
    // The panels (the plot first, then the pictures in order) in rows of `body`: every way to
    // break the sequence into rows (equal heights), each row's width shared so that its plots
    // are equally wide after each panel's own margins; the one whose smallest plot is largest.
    struct Arranged {
        std::vector<QRectF> areas;
        double side = -1e300;
    };
    const auto arrange = [](const QRectF& body, const std::vector<QMarginsF>& chrome) {
        const int n = static_cast<int>(chrome.size());
        Arranged best;
        for (int rows = 1; rows <= n; ++rows)
            for (unsigned breaks = 0; breaks < (1u << (n - 1)); ++breaks) {
                if (std::popcount(breaks) + 1 != rows) continue;
                const double rowH = body.height() / rows;
                Arranged a;
                a.areas.resize(std::size_t(n));
                a.side = 1e300;
                for (int i = 0, start = 0, row = 0; i < n; ++i) {
                    if (i < n - 1 && !((breaks >> i) & 1u)) continue;
                    double fixed = 0;
                    for (int j = start; j <= i; ++j) fixed += chrome[std::size_t(j)].left() + chrome[std::size_t(j)].right();
                    const double plotW = (body.width() - fixed) / (i - start + 1);
                    double x = body.left();
                    for (int j = start; j <= i; ++j) {
                        const QMarginsF& c = chrome[std::size_t(j)];
                        const double w = c.left() + plotW + c.right();
                        a.areas[std::size_t(j)] = QRectF(x, body.top() + row * rowH, w, rowH);
                        x += w;
                        a.side = std::min({a.side, plotW, rowH - c.top() - c.bottom()});
                    }
                    start = i + 1;
                    ++row;
                }
                if (a.side > best.side + 0.5) best = std::move(a);
            }
        return best;
    };
    struct Level {
        N notes;
        bool theta, titles, dropPictures;
    };
    const Level levels[] = {{N::Full, true, true, false},      {N::Brief, true, true, false},    {N::Unpictured, true, true, false},
                            {N::Minimal, true, true, false},   {N::Minimal, false, true, false}, {N::Minimal, false, false, false},
                            {N::Minimal, false, false, true}};
    const double minSide = minPlotSide(t);
    FrequencyLayout best;
    double bestSide = -1e300;
    for (const Level& lv : levels) {
        if (lv.dropPictures && (pics.empty() || !any)) continue;
        FrequencyLayout x = l;
        x.notes = lv.notes;
        x.theta = lv.theta && any;
        x.titles = lv.titles;
        if (lv.dropPictures) x.dropped = pics;
        const double h = notesHeight(x.notes, x.dropped);
        x.header = QRectF(rect.left() + 6, rect.top() + 2, rect.width() - 12, h);
        const QRectF body(rect.left(), x.header.bottom(), rect.width(), std::max(0.0, rect.bottom() - x.header.bottom()));
        std::vector<QMarginsF> chrome;
        if (any) chrome.push_back(freqMargins(x.theta, x.titles));
        if (!lv.dropPictures)
            for (int k : pics) chrome.push_back(pictureMargins(result.configs[std::size_t(k)], t, x.titles));
        const Arranged a = arrange(body, chrome);
        std::size_t i = 0;
        if (any) {
            x.area = a.areas[i++];
            x.plot = x.area.marginsRemoved(chrome.front());
        }
        if (!lv.dropPictures)
            for (int k : pics) x.pictures.push_back({k, a.areas[i++]});
        // Notes may take a third of the view (the plots the rest), however large the plots.
        const bool notesFit = h <= rect.height() / 3 || lv.notes == N::Minimal;
        if (a.side >= minSide && notesFit) {
            best = x;
            bestSide = a.side;
            break;
        }
        if (a.side > bestSide + 0.5) {
            best = x;
            bestSide = a.side;
        }
    }
    l = best;
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
            lines = notes(result, FrequencyLayout::Notes::Brief);
        plot::wrappedText(p, box, lines.join(QStringLiteral("\n\n")), t.muted);
        p.restore();
        return;
    }
    p.setFont(t.smallFont());
    double y = l.header.top();
    std::vector<int> noted;
    const QStringList lines = notes(result, l.notes, l.dropped, &noted);
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const int k = noted[std::size_t(i)];
        const auto& c = result.configs[static_cast<std::size_t>(k)];
        y += plot::wrappedText(p, QRectF(l.header.left(), y, l.header.width(), 1000), lines[i],
                               !c.error.isEmpty() ? t.error : (c.hasFrequencies ? t.series(k) : t.muted)) + 2;
    }
    for (const auto& pic : l.pictures) {
        layoutRecord(p, LayoutItemKind::Panel, pic.area);   // each picture must be legible (layout.h)
        const auto& c = result.configs[static_cast<std::size_t>(pic.config)];
        if (!c.slopes.empty()) drawAlibi(p, pic.area, c, t, l.titles);
        else if (!c.temperatureScale.empty()) drawTemperature(p, pic.area, c, t, l.titles);
        else drawT5(p, pic.area, c, pic.config, t, l.titles);
    }
    if (!l.area.isEmpty()) layoutRecord(p, LayoutItemKind::Panel, l.area);
    if (l.plot.isEmpty()) {
        // Even the rules leave the plot no room: its place says so.
        if (!l.area.isEmpty()) {
            p.setFont(t.smallFont());
            plot::wrappedText(p, l.area.adjusted(6, 4, -6, -4), QObject::tr("no room for the frequency plot at this size"), t.muted);
        }
        p.restore();
        return;
    }
    const plot::Axis ax{0, double(std::max(1, l.pairs - 1)), false, l.plot.left(), l.plot.right()};
    const plot::Axis ay{l.lo, l.hi, true, l.plot.bottom(), l.plot.top()};
    // The frequency's name: wᵢ when every plotted configuration is sinusoidal, else θᵢ.
    bool sinusoidal = false, other = false;
    for (const auto& c : result.configs)
        if (c.hasFrequencies) (c.method == Method::Sinusoidal ? sinusoidal : other) = true;
    const QString f = plot::frequencySymbol(sinusoidal && !other ? Method::Sinusoidal : Method::Rope);
    plot::axes(p, l.plot, ax, ay, t, l.titles ? QStringList{QObject::tr("pair i"), QObject::tr("i")} : QStringList{},
               l.titles ? QStringList{QObject::tr("wavelength 2π/%1 (positions)").arg(f), QObject::tr("wavelength 2π/%1").arg(f), QObject::tr("2π/%1").arg(f)}
                        : QStringList{},
               true, 8,
               std::max(2, static_cast<int>(l.plot.height() / (plot::lineHeight(t.smallFont()) * 1.6))));
    // Right axis: θ = 2π/wavelength at the same heights (where the rule keeps it).
    if (l.theta) {
        p.setFont(t.smallFont());
        p.setPen(QPen(t.foreground, t.axisWidth));
        std::optional<LayoutGroup> thetaGroup(std::in_place);
        const auto thetas = thetaTicks(l.lo, l.hi, std::max(2, static_cast<int>(l.plot.height() / (plot::lineHeight(t.smallFont()) * 1.6))));
        const QStringList thetaLabels = plot::tickLabels(thetas, true);
        for (std::size_t i = 0; i < thetas.size(); ++i) {
            const double yy = ay.map(kTwoPi / thetas[i]);
            p.drawLine(QPointF(l.plot.right(), yy), QPointF(l.plot.right() + 4, yy));
            plot::text(p, QPointF(l.plot.right() + 6, yy), thetaLabels[qsizetype(i)], plot::Align::Left, t.muted);
        }
        thetaGroup.reset();
        if (l.titles) {
            p.setFont(t.bodyFont());
            p.save();
            p.translate(QPointF(l.area.right() - plot::lineHeight(t.bodyFont()) / 2 - 2, l.plot.center().y()));
            p.rotate(-90);
            plot::text(p, QPointF(0, 0), fitText(QObject::tr("%1 (rad / position)").arg(f), t.bodyFont(), l.plot.height()), plot::Align::Center,
                       t.foreground);
            p.restore();
        }
    }
    p.save();
    p.setClipRect(l.plot.adjusted(-4, -4, 4, 4));
    // Context lengths.
    std::vector<std::int64_t> marked;
    std::vector<std::pair<std::int64_t, QStringList>> unlabelledContexts;   // no place beside their line
    // The legend's rows, top left inside the plot: the wavelengths grow with the pair index, so
    // the curves rise from the bottom left and leave that corner empty (top right they end).
    const double legendH = plot::lineHeight(t.smallFont());
    int legendRows = 0;
    for (const auto& c : result.configs) legendRows += c.hasFrequencies && c.error.isEmpty();
    {
        bool axes = false;   // M-RoPE: the three axes' rows under the configurations'
        for (const auto& c : result.configs) axes = axes || (!c.axis.empty() && c.hasFrequencies && c.error.isEmpty());
        if (axes) legendRows += 3;
    }
    const double legendBottom = std::min(l.plot.bottom(), l.plot.top() + 4 + legendRows * legendH);
    // Every curve's segments (a context label goes where none runs).
    std::vector<QLineF> contextCurveInk;
    for (const auto& c : result.configs) {
        if (!c.hasFrequencies || !c.error.isEmpty()) continue;
        for (const auto* th : {&c.after, &c.before})
            for (std::size_t i = 1; i < th->size(); ++i)
                contextCurveInk.emplace_back(QPointF(ax.map(double(i - 1)), ay.map(kTwoPi / (*th)[i - 1])),
                                             QPointF(ax.map(double(i)), ay.map(kTwoPi / (*th)[i])));
    }
    const double curveDot = 2.2 + t.lineWidth;   // the dots and the line's half width
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
            // the legend's rows, top left); else below it at the left end or above it at the
            // right, where no curve (of any configuration) runs under it: the longest form that
            // is clear somewhere. A label at the right end keeps half a line from the frame (the
            // θ axis' labels are just outside it).
            double crossX = l.plot.right();
            for (std::size_t i = 0; i < c.after.size(); ++i)
                if (kTwoPi / c.after[i] >= double(ctx)) {
                    crossX = ax.map(double(i));
                    break;
                }
            const double above = yy - lh / 2 - 1, below = yy + lh / 2 + 1;
            const bool aboveFits = yy - lh - 1 >= l.plot.top(), belowFits = yy + lh + 1 <= l.plot.bottom();
            const double leftX = l.plot.left() + 6, rightX = l.plot.right() - std::max(6.0, lh / 2);
            std::optional<FittedText> label;
            bool right = false;
            double labelY = aboveFits ? above : below;
            const auto clearOfCurves = [&](const QRectF& r) {
                const QRectF hit = r.adjusted(-curveDot, -curveDot, curveDot, curveDot);
                for (const QLineF& seg : contextCurveInk)
                    for (double f : {0.0, 0.25, 0.5, 0.75, 1.0})
                        if (hit.contains(seg.pointAt(f))) return false;
                return true;
            };
            for (const QString& form : forms) {
                const FittedText f = fitText(form, t.smallFont(), l.plot.width() - 12);
                if (f.elided) continue;
                if (aboveFits && leftX + f.width <= crossX - 4 && above - lh / 2 >= legendBottom) {
                    label = f, right = false, labelY = above;
                    break;
                }
                if (belowFits && rightX - f.width >= crossX + 4) {
                    label = f, right = true, labelY = below;
                    break;
                }
                if (belowFits && leftX + f.width <= rightX && below - lh / 2 >= legendBottom &&
                    clearOfCurves(QRectF(leftX, below - lh / 2, f.width, lh))) {
                    label = f, right = false, labelY = below;
                    break;
                }
                if (aboveFits && rightX - f.width >= leftX && above - lh / 2 >= legendBottom &&
                    clearOfCurves(QRectF(rightX - f.width, above - lh / 2, f.width, lh))) {
                    label = f, right = true, labelY = above;
                    break;
                }
            }
            // Nowhere clear of the curves and the legend: the label goes to the legend's first
            // rows (unlabelledContexts), never over a curve.
            if (!label) {
                unlabelledContexts.push_back({ctx, forms});
                continue;
            }
            plot::text(p, QPointF(right ? rightX : leftX, labelY), *label, right ? plot::Align::Right : plot::Align::Left, t.error);
        }
    }
    int k = 0;
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
            if (dots && !c.axis.empty() && c.axis.size() == th.size()) {
                // M-RoPE: each pair's dot in its axis' colour (frequencyAxisColor), larger.
                p.setPen(Qt::NoPen);
                for (std::size_t i = 0; i < th.size(); ++i) {
                    p.setBrush(frequencyAxisColor(c.axis[i], t));
                    p.drawEllipse(QPointF(ax.map(double(i)), ay.map(kTwoPi / th[i])), 3.6, 3.6);
                }
            } else if (dots && th.size() <= 128) {
                p.setBrush(col);
                for (std::size_t i = 0; i < th.size(); ++i) p.drawEllipse(QPointF(ax.map(double(i)), ay.map(kTwoPi / th[i])), 2.2, 2.2);
            }
        };
        // A "before" that is another configuration's curve is not drawn under it (it could not be
        // seen): the legend names that curve instead (beforeIsDrawn).
        if (c.scaled && c.before != c.after && !beforeIsDrawn(result, c)) draw(c.before, Qt::DashLine, false);
        draw(c.after, Qt::SolidLine, true);
        ++k;
    }
    p.restore();
    // Legend, top left inside the plot, each entry in the longest form that ends before the
    // curves reach its line (they rise to the right); a line a context line crosses is skipped.
    p.setFont(t.smallFont());
    const double lh = plot::lineHeight(t.smallFont());
    std::vector<QLineF> curveInk;
    for (const auto& c : result.configs) {
        if (!c.hasFrequencies || !c.error.isEmpty()) continue;
        for (const auto* th : {&c.after, &c.before})
            for (std::size_t i = 1; i < th->size(); ++i)
                curveInk.emplace_back(QPointF(ax.map(double(i - 1)), ay.map(kTwoPi / (*th)[i - 1])), QPointF(ax.map(double(i)), ay.map(kTwoPi / (*th)[i])));
    }
    const double dot = 2.2 + t.lineWidth;   // the dots and the line's half width
    const auto clearUntil = [&](double y0, double y1) {
        double x = l.plot.right();
        for (const QLineF& s : curveInk)
            if (std::max(s.y1(), s.y2()) + dot >= y0 && std::min(s.y1(), s.y2()) - dot <= y1) x = std::min(x, std::min(s.x1(), s.x2()) - dot);
        return x;
    };
    double ly = l.plot.top() + lh / 2 + 4;
    // A context line with no place for its label beside it is named in the legend, in its colour,
    // first: the top rows have the most room left of the curves (they rise to the right).
    const auto crossedByContext = [&](double y) {
        for (auto ctx : marked)
            if (std::abs(ay.map(double(ctx)) - y) < lh / 2 + 2) return true;
        return false;
    };
    for (const auto& [ctx, forms] : unlabelledContexts) {
        while (crossedByContext(ly) && ly + lh <= l.plot.bottom()) ly += lh;
        if (ly + lh / 2 > l.plot.bottom()) break;
        // The longest form whose ink (digits have no descent: the ink, not the line box, must be
        // clear) ends before the curves, a little closer to the frame than an entry.
        const QFontMetricsF fm(t.smallFont());
        std::optional<QString> fits;
        for (const QString& form : forms) {
            const QRectF ink = fm.tightBoundingRect(typeset(form)).translated(0, ly - fm.height() / 2 + fm.ascent());
            const double room = clearUntil(ink.top() - 1, ink.bottom() + 1) - 2 - (l.plot.left() + 3);
            if (fm.horizontalAdvance(typeset(form)) <= room) {
                fits = form;
                break;
            }
        }
        if (!fits) continue;
        plot::text(p, QPointF(l.plot.left() + 3, ly), *fits, plot::Align::Left, t.error);
        ly += lh;
    }
    k = 0;
    for (const auto& c : result.configs) {
        if (c.hasFrequencies && c.error.isEmpty()) {
            QString s = c.title;
            if (c.scaled && c.before != c.after) {
                if (const auto* same = beforeIsDrawn(result, c)) {
                    const QString letter = same->title.section(QStringLiteral(": "), 0, 0);
                    s += QObject::tr(" (before scaling: %1)").arg(letter.size() <= 3 ? letter : same->title);
                } else {
                    s += QObject::tr(" (dashed: before scaling)");
                }
            }
            const auto crossed = [&](double y) {
                for (auto ctx : marked)
                    if (std::abs(ay.map(double(ctx)) - y) < lh / 2 + 2) return true;
                return false;
            };
            while (crossed(ly) && ly + lh <= l.plot.bottom()) ly += lh;
            // Legend lines stay inside the plot (one that would not fit is left out).
            if (ly + lh / 2 <= l.plot.bottom()) {
                const double room = clearUntil(ly - lh / 2, ly + lh / 2) - 4 - (l.plot.left() + 6);
                const FittedText f = fitText(QStringList{s, c.title, c.title.section(QStringLiteral(": "), 0, 0)}, t.smallFont(), room);
                if (!f.text.contains(QChar(0x2026)) && f.width <= room) plot::text(p, QPointF(l.plot.left() + 6, ly), f, plot::Align::Left, t.series(k));
            }
            ly += lh;
        }
        ++k;
    }
    // M-RoPE: which colour is which axis, under the configurations' entries.
    bool axes = false;
    for (const auto& c : result.configs) axes = axes || (!c.axis.empty() && c.hasFrequencies && c.error.isEmpty());
    const QStringList axisNames = {QObject::tr("t (time)"), QObject::tr("h (row)"), QObject::tr("w (column)")};
    // The three on one row when it has room (a small plot in compare mode has few rows clear of
    // the curves and the context lines), else one row each.
    if (axes) {
        const QFontMetricsF fm(t.smallFont());
        double rowW = 0;
        for (const QString& n : axisNames) rowW += lh + fm.horizontalAdvance(typeset(n)) + lh * 0.8;
        while (ly + lh <= l.plot.bottom()) {
            bool crossed = false;
            for (auto ctx : marked) crossed = crossed || std::abs(ay.map(double(ctx)) - ly) < lh / 2 + 2;
            if (!crossed) break;
            ly += lh;
        }
        if (ly + lh / 2 <= l.plot.bottom() && rowW <= clearUntil(ly - lh / 2, ly + lh / 2) - 4 - (l.plot.left() + 6)) {
            double x = l.plot.left() + 6;
            for (int a = 0; a < 3; ++a) {
                p.setPen(Qt::NoPen);
                p.setBrush(frequencyAxisColor(a, t));
                p.drawEllipse(QPointF(x + lh * 0.35, ly), 3.6, 3.6);
                const QRectF r = plot::text(p, QPointF(x + lh, ly), axisNames[a], plot::Align::Left, t.foreground);
                x = r.right() + lh * 0.8;
            }
            axes = false;   // drawn
        }
    }
    if (axes) {
        const QStringList& names = axisNames;
        for (int a = 0; a < 3; ++a) {
            while (ly + lh <= l.plot.bottom()) {
                bool crossed = false;
                for (auto ctx : marked) crossed = crossed || std::abs(ay.map(double(ctx)) - ly) < lh / 2 + 2;
                if (!crossed) break;
                ly += lh;
            }
            if (ly + lh / 2 > l.plot.bottom()) break;
            const double room = clearUntil(ly - lh / 2, ly + lh / 2) - 4 - (l.plot.left() + 6);
            const FittedText f = fitText(QStringList{names[a], names[a].left(1)}, t.smallFont(), room - lh);
            if (!f.text.contains(QChar(0x2026)) && f.width + lh <= room) {
                p.setPen(Qt::NoPen);
                p.setBrush(frequencyAxisColor(a, t));
                p.drawEllipse(QPointF(l.plot.left() + 6 + lh * 0.35, ly), 3.6, 3.6);
                plot::text(p, QPointF(l.plot.left() + 6 + lh, ly), f, plot::Align::Left, t.foreground);
            }
            ly += lh;
        }
    }
    p.restore();
}

QColor frequencyAxisColor(int axis, const Theme& t) { return t.series(axis == 0 ? 3 : axis == 1 ? 4 : 5); }

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
