#include "ui/render/frequencyrenderer.h"

#include "ui/render/plot.h"
#include "ui/model/sceneparams.h"

#include <QFontMetricsF>
#include <QObject>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace poslab::ui {

namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;

QStringList notes(const FrequencyResult& r) {
    QStringList out;
    for (const auto& c : r.configs) {
        QString s = c.title + QStringLiteral(": ") + (c.error.isEmpty() ? c.note : c.error);
        if (c.hasFrequencies && c.attentionFactor != 1.0)
            s += QObject::tr(" · attention factor %1").arg(displayValue(c.attentionFactor));
        out << s;
    }
    return out;
}

}  // namespace

FrequencyLayout layoutFrequencies(const QRectF& rect, const FrequencyResult& result, const Theme& t) {
    FrequencyLayout l;
    const QFontMetricsF fm(t.smallFont());
    double h = 4;
    for (const auto& n : notes(result)) h += fm.boundingRect(QRectF(0, 0, rect.width() - 12, 1000), Qt::TextWordWrap, n).height() + 2;
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
    if (!any || !(hi > 0)) return l;
    l.lo = std::pow(10.0, std::floor(std::log10(lo)));
    l.hi = std::pow(10.0, std::ceil(std::log10(hi)));
    if (l.hi <= l.lo) l.hi = l.lo * 10;
    QMarginsF m = plot::axesMargins(t);
    m.setRight(m.left() * 0.9);   // the θ axis on the right
    l.plot = QRectF(rect.left(), l.header.bottom(), rect.width(), rect.bottom() - l.header.bottom()).marginsRemoved(m);
    if (l.plot.height() < 20 || l.plot.width() < 20) l.plot = QRectF();
    return l;
}

void renderFrequencies(QPainter& p, const QRectF& rect, const FrequencyResult& result, const Theme& t) {
    p.save();
    p.fillRect(rect, t.background);
    p.setRenderHint(QPainter::Antialiasing, true);
    const FrequencyLayout l = layoutFrequencies(rect, result, t);
    if (l.plot.isEmpty()) {
        // Nothing to plot: say so plainly, in readable type.
        p.setFont(t.bodyFont());
        QStringList lines = notes(result);
        const QRectF box = rect.adjusted(rect.width() * 0.08, rect.height() * 0.2, -rect.width() * 0.08, 0);
        plot::wrappedText(p, box, lines.join(QStringLiteral("\n\n")), t.muted);
        p.restore();
        return;
    }
    p.setFont(t.smallFont());
    double y = l.header.top();
    int k = 0;
    for (const auto& n : notes(result)) {
        const auto& c = result.configs[static_cast<std::size_t>(k)];
        y += plot::wrappedText(p, QRectF(l.header.left(), y, l.header.width(), 1000), n,
                               !c.error.isEmpty() ? t.error : (c.hasFrequencies ? t.series(k) : t.muted)) + 2;
        ++k;
    }
    if (l.plot.isEmpty()) {
        p.restore();
        return;
    }
    const plot::Axis ax{0, double(std::max(1, l.pairs - 1)), false, l.plot.left(), l.plot.right()};
    const plot::Axis ay{l.lo, l.hi, true, l.plot.bottom(), l.plot.top()};
    plot::axes(p, l.plot, ax, ay, t, QObject::tr("pair i"), QObject::tr("wavelength 2π/θ_i (positions)"), true, 8,
               std::max(2, static_cast<int>(l.plot.height() / (plot::lineHeight(t.smallFont()) * 1.6))));
    // Right axis: θ = 2π/wavelength at the same heights.
    p.setFont(t.smallFont());
    p.setPen(QPen(t.foreground, t.axisWidth));
    for (double wl : plot::ticks(l.lo, l.hi, std::max(2, static_cast<int>(l.plot.height() / (plot::lineHeight(t.smallFont()) * 1.6))), true)) {
        const double yy = ay.map(wl);
        p.drawLine(QPointF(l.plot.right(), yy), QPointF(l.plot.right() + 4, yy));
        plot::text(p, QPointF(l.plot.right() + 6, yy), QString::number(kTwoPi / wl, 'g', 2), plot::Align::Left, t.muted);
    }
    p.setFont(t.bodyFont());
    plot::verticalText(p, QPointF(rect.right() - plot::lineHeight(t.bodyFont()) / 2 - 2, l.plot.center().y()),
                       QObject::tr("θ_i (rad / position)"), t.foreground);
    p.save();
    p.setClipRect(l.plot.adjusted(-4, -4, 4, 4));
    // Context lengths.
    std::vector<std::int64_t> marked;
    for (const auto& c : result.configs) {
        if (!c.hasFrequencies || !c.error.isEmpty()) continue;
        for (auto ctx : {c.originalContext, c.context}) {
            if (ctx <= 0 || std::find(marked.begin(), marked.end(), ctx) != marked.end()) continue;
            marked.push_back(ctx);
            const double yy = ay.map(double(ctx));
            p.setPen(QPen(t.error, std::max(1.0, t.lineWidth * 0.7), Qt::DashDotLine));
            p.drawLine(QPointF(l.plot.left(), yy), QPointF(l.plot.right(), yy));
            p.setFont(t.smallFont());
            plot::text(p, QPointF(l.plot.left() + 6, yy - plot::lineHeight(t.smallFont()) / 2 - 1),
                       ctx == c.originalContext ? QObject::tr("original context %1").arg(ctx) : QObject::tr("context %1").arg(ctx),
                       plot::Align::Left, t.error);
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
            plot::text(p, QPointF(l.plot.right() - 6, ly), s, plot::Align::Right, t.series(k));
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
