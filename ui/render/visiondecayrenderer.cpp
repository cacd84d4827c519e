#include "ui/render/visiondecayrenderer.h"

#include "ui/render/colormap.h"
#include "ui/render/heatmaprenderer.h"
#include "ui/render/layout.h"
#include "ui/render/plot.h"
#include "ui/render/vectorcells.h"

#include <QFontMetricsF>
#include <QImage>
#include <QObject>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

namespace {

using Fonts = plot::ThemeFonts;
Fonts fontsOf(const Theme& t) { return plot::themeFonts(t); }

struct Frame {
    QRectF heading, subtitle, note, plot;   // plot: the room for the cells
    VisionDecayGeometry g;
    double barLabelW = 0;
};


Frame frameOf(const QRectF& rect, const VisionDecayPicture& pic, const Theme& t) {
    Frame f;
    const Fonts fo = fontsOf(t);
    const double margin = std::round(fo.lh * 0.6);
    const QRectF in = rect.adjusted(margin, margin * 0.6, -margin, -margin * 0.6);
    double y = in.top();
    f.heading = QRectF(in.left(), y, in.width(), fo.lhT * 1.2);
    y += f.heading.height();
    f.subtitle = QRectF(in.left(), y, in.width(), fo.lh * 1.2);
    y += f.subtitle.height();
    if (!pic.decay) return f;
    f.note = QRectF(in.left(), y, in.width(), fo.lh * 1.2);
    y += f.note.height() + fo.lh * 0.3;
    const VisionDecay& d = *pic.decay;
    const ColorScale scale = visionDecayScale(d);
    const QFontMetricsF sm(fo.small);
    for (const QString& s : plot::tickLabels(colorbarTicks(scale.lo, scale.hi, 400, fo.slh)))
        f.barLabelW = std::max(f.barLabelW, sm.horizontalAdvance(s));
    // Row numbers on the left, column numbers on top; the colour bar and its labels on the right.
    const double rowLabelW = sm.horizontalAdvance(QString::number(d.grid.h - 1)) + fo.slh * 0.6 + fo.lh * 1.2;
    const double colLabelH = fo.slh * 1.2 + fo.lh * 1.2;
    const double barW = std::round(fo.lh * 0.9), barRoom = fo.lh + barW + 8 + f.barLabelW;
    f.plot = QRectF(in.left() + rowLabelW, y + colLabelH, std::max(0.0, in.width() - rowLabelW - barRoom),
                    std::max(0.0, in.bottom() - y - colLabelH));
    f.g.rows = d.grid.h;
    f.g.cols = d.grid.w;
    const double cell = std::min(f.plot.width() / double(d.grid.w), f.plot.height() / double(d.grid.h));
    if (!(cell > 0) || f.plot.width() < 8 || f.plot.height() < 8) return f;
    // Whole pixels per patch when a patch has a few, else the exact fraction (a pixel = a block).
    f.g.cell = cell >= 2 ? std::floor(cell) : cell;
    const double w = f.g.cell * double(d.grid.w), h = f.g.cell * double(d.grid.h);
    // The grid centred across the room it has and under the notes (its column numbers just above
    // it), the colour bar beside it.
    const double left = std::round(f.plot.left() + (f.plot.width() - w) / 2), top = std::round(f.plot.top());
    f.g.cells = QRectF(left, top, w, h);
    f.g.colorbar = QRectF(f.g.cells.right() + fo.lh, top, barW, h);
    return f;
}

// Exact means of `v` over `n` blocks of consecutive entries (block k: [floor(k·L/n), floor((k+1)·L/n))).
std::vector<double> blockMeans(const Vector& v, std::int64_t n) {
    const std::int64_t len = v.size();
    std::vector<double> out(static_cast<std::size_t>(n));
    for (std::int64_t k = 0; k < n; ++k) {
        const std::int64_t a = k * len / n, b = std::max(a + 1, (k + 1) * len / n);
        out[static_cast<std::size_t>(k)] = v.segment(a, b - a).mean();
    }
    return out;
}

// The cells as an image: one pixel per patch, or per block of patches (the block's exact mean).
QImage decayImage(const VisionDecay& d, const QRectF& cells, const ColorScale& scale) {
    const std::int64_t cols = std::min<std::int64_t>(d.grid.w, std::max<std::int64_t>(1, std::llround(cells.width())));
    const std::int64_t rows = std::min<std::int64_t>(d.grid.h, std::max<std::int64_t>(1, std::llround(cells.height())));
    const std::vector<double> r = blockMeans(d.rowTerm, rows), c = blockMeans(d.colTerm, cols);
    QImage img(static_cast<int>(cols), static_cast<int>(rows), QImage::Format_RGB32);
    for (std::int64_t i = 0; i < rows; ++i) {
        auto* line = reinterpret_cast<QRgb*>(img.scanLine(static_cast<int>(i)));
        for (std::int64_t j = 0; j < cols; ++j) line[j] = scale.rgb(r[static_cast<std::size_t>(i)] + c[static_cast<std::size_t>(j)]);
    }
    return img;
}

QStringList headingForms(const VisionDecayPicture& pic) {
    const QString enc = visionEncoderTitle(pic.params.encoder);
    if (!pic.decay) return {QObject::tr("2-D RoPE decay of the %1 encoder").arg(enc), QObject::tr("2-D RoPE decay")};
    const VisionDecay& d = *pic.decay;
    return {QObject::tr("2-D RoPE of the %1 encoder: the score from patch (%2, %3) to every patch of the %4×%5 grid")
                .arg(enc).arg(d.row).arg(d.col).arg(d.grid.h).arg(d.grid.w),
            QObject::tr("%1: score from patch (%2, %3), %4×%5 patches").arg(enc).arg(d.row).arg(d.col).arg(d.grid.h).arg(d.grid.w),
            QObject::tr("From patch (%1, %2)").arg(d.row).arg(d.col)};
}

}  // namespace

ColorScale visionDecayScale(const VisionDecay& d) {
    const double lo = d.minValue(), hi = d.maxValue();
    if (lo >= 0 || hi <= 0) {
        const double pad = hi > lo ? 0.0 : std::max(std::abs(hi) * 1e-6, 1e-12);
        return ColorScale{ColormapKind::Viridis, lo - pad, hi + pad};
    }
    const double m = std::max(std::abs(lo), std::abs(hi));
    return ColorScale{ColormapKind::Diverging, -m, m};
}

QString visionEncoderTitle(VisionRope e) {
    return e == VisionRope::Qwen ? QObject::tr("Qwen2-VL vision") : QObject::tr("Pixtral");
}

VisionDecayPicture visionDecayPictureOf(VisionRopeParams params, std::int64_t row, std::int64_t col) {
    VisionDecayPicture pic;
    params.merge = 1;
    params.patches_per_side = 4096;
    pic.params = params;
    auto d = visionDecay(params, row, col);
    if (!d) pic.error = QString::fromStdString(d.error().message());
    else pic.decay = std::move(d.value());
    return pic;
}

VisionDecayGeometry visionDecayGeometry(const QRectF& rect, const VisionDecayPicture& pic, const Theme& theme) {
    return frameOf(rect, pic, theme).g;
}

std::optional<std::array<std::int64_t, 2>> visionDecayPatchAt(const QRectF& rect, const VisionDecayPicture& pic, const Theme& theme,
                                                               const QPointF& point) {
    const VisionDecayGeometry g = visionDecayGeometry(rect, pic, theme);
    if (g.cells.isEmpty() || !g.cells.contains(point) || g.cell <= 0) return std::nullopt;
    const auto r = std::clamp<std::int64_t>(static_cast<std::int64_t>(std::floor((point.y() - g.cells.top()) / g.cell)), 0, g.rows - 1);
    const auto c = std::clamp<std::int64_t>(static_cast<std::int64_t>(std::floor((point.x() - g.cells.left()) / g.cell)), 0, g.cols - 1);
    return std::array<std::int64_t, 2>{r, c};
}

void renderVisionDecay(QPainter& p, const QRectF& rect, const VisionDecayPicture& pic, const Theme& t) {
    p.save();
    p.fillRect(rect, t.background);
    p.setClipRect(rect);
    const Fonts fo = fontsOf(t);
    const Frame f = frameOf(rect, pic, t);
    using plot::Align;
    plot::fittedLine(p, f.heading, headingForms(pic), t.foreground, fo.title);
    if (!pic.decay) {
        p.setFont(fo.body);
        plot::wrappedText(p, QRectF(f.subtitle.left(), f.subtitle.top(), f.subtitle.width(), rect.bottom() - f.subtitle.top()), pic.error,
                          t.error);
        p.restore();
        return;
    }
    const VisionDecay& d = *pic.decay;
    const VisionRopeParams& vp = pic.params;
    const int pairs = vp.head_dim / 2;
    {
        const QString frames = d.grid.t > 1 ? QObject::tr("; each of the %1 frames has the same map (the encoder's 2-D positions repeat per frame)").arg(d.grid.t)
                                            : QString();
        plot::fittedLine(p, f.subtitle,
             {QObject::tr("Colour: (R(p*)·q)·(R(p)·k)/√%1 with q = k = ones; %2 pairs follow the patch row, %3 its column (θ %4)%5")
                  .arg(vp.head_dim).arg(pairs / 2).arg(pairs - pairs / 2).arg(plot::tickLabel(vp.theta)).arg(frames),
              QObject::tr("Score q·k/√%1 (q = k = ones): %2 pairs follow the row, %3 the column")
                  .arg(vp.head_dim).arg(pairs / 2).arg(pairs - pairs / 2),
              QObject::tr("Score from the outlined patch")},
             t.muted, fo.body);
    }
    {
        QStringList forms;
        if (f.g.cells.isEmpty())
            forms = {QObject::tr("No room for the patch grid: a larger picture shows it."), QObject::tr("No room for the grid.")};
        else if (f.g.cell < 1)
            forms = {QObject::tr("%1×%2 patches on %3×%4 pixels: each pixel the exact mean of the patches it covers. Largest %5 at the "
                                 "patch itself, smallest %6.")
                         .arg(d.grid.h).arg(d.grid.w).arg(std::llround(f.g.cells.height())).arg(std::llround(f.g.cells.width()))
                         .arg(plot::tickLabel(d.maxValue()), plot::tickLabel(d.minValue())),
                     QObject::tr("Each pixel the mean of the patches it covers.")};
        else
            forms = {QObject::tr("One cell per patch. Largest %1 at the patch itself (every cosine 1), smallest %2.")
                         .arg(plot::tickLabel(d.maxValue()), plot::tickLabel(d.minValue())),
                     QObject::tr("One cell per patch; largest %1, smallest %2.").arg(plot::tickLabel(d.maxValue()), plot::tickLabel(d.minValue()))};
        plot::fittedLine(p, f.note, forms, t.muted, fo.body);
    }
    if (f.g.cells.isEmpty()) {
        p.restore();
        return;
    }
    const ColorScale scale = visionDecayScale(d);
    drawCells(p, f.g.cells, decayImage(d, f.g.cells, scale));
    p.setPen(QPen(t.foreground, 1));
    p.drawRect(f.g.cells);
    layoutRecord(p, LayoutItemKind::Plot, f.g.cells);
    // The chosen patch: outlined (at least a few pixels, centred on it).
    {
        const double side = std::max(f.g.cell, 6.0);
        const QPointF c(f.g.cells.left() + f.g.cell * (double(d.col) + 0.5), f.g.cells.top() + f.g.cell * (double(d.row) + 0.5));
        p.setPen(QPen(t.foreground, 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(c.x() - side / 2, c.y() - side / 2, side, side));
    }
    // Row numbers (left), column numbers (top), every k-th so that they stay apart.
    p.setFont(fo.small);
    const QFontMetricsF sm(fo.small);
    {
        const LayoutGroup group;
        const int maxTicks = std::max(2, static_cast<int>(f.g.cells.height() / (fo.slh * 1.4)));
        for (std::int64_t r : plot::integerTicks(0, d.grid.h - 1, maxTicks))
            plot::text(p, QPointF(f.g.cells.left() - fo.slh * 0.3, f.g.cells.top() + f.g.cell * (double(r) + 0.5)), QString::number(r),
                       Align::Right, t.muted);
    }
    {
        const LayoutGroup group;
        const double labelW = sm.horizontalAdvance(QString::number(d.grid.w - 1)) + fo.slh;
        const int maxTicks = std::max(2, static_cast<int>(f.g.cells.width() / labelW));
        for (std::int64_t c : plot::integerTicks(0, d.grid.w - 1, maxTicks))
            plot::text(p, QPointF(f.g.cells.left() + f.g.cell * (double(c) + 0.5), f.g.cells.top() - fo.slh * 0.7), QString::number(c),
                       Align::Center, t.muted);
    }
    p.setFont(fo.body);
    plot::text(p, QPointF(f.g.cells.center().x(), f.g.cells.top() - fo.slh * 1.4 - fo.lh * 0.5),
               fitText(QStringList{QObject::tr("patch column (w)"), QObject::tr("column")}, fo.body, f.g.cells.width()), Align::Center,
               t.foreground);
    {
        const QString rowTitle = QObject::tr("patch row (h)");
        if (QFontMetricsF(fo.body).horizontalAdvance(rowTitle) <= f.g.cells.height())
            plot::verticalText(p, QPointF(f.g.cells.left() - sm.horizontalAdvance(QString::number(d.grid.h - 1)) - fo.slh * 0.6 - fo.lh * 0.6,
                                          f.g.cells.center().y()),
                               rowTitle, t.foreground);
    }
    // The colour bar.
    {
        QImage bar(1, 256, QImage::Format_RGB32);
        for (int i = 0; i < 256; ++i) bar.setPixel(0, 255 - i, colormapRgb(scale.kind, i / 255.0));
        drawCells(p, f.g.colorbar, bar);
        p.setPen(QPen(t.foreground, 1));
        p.drawRect(f.g.colorbar);
        layoutRecord(p, LayoutItemKind::Colorbar, f.g.colorbar);
        p.setFont(fo.small);
        const double span = scale.hi - scale.lo;
        std::vector<double> values;
        for (double v : colorbarTicks(scale.lo, scale.hi, f.g.colorbar.height(), fo.slh))
            if (v >= scale.lo - 1e-9 * span && v <= scale.hi + 1e-9 * span) values.push_back(v);
        const plot::Axis ax{scale.lo, scale.hi, false, f.g.colorbar.bottom(), f.g.colorbar.top()};
        const QStringList labels = plot::tickLabels(values);
        const LayoutGroup group;
        for (std::size_t i = 0; i < values.size(); ++i) {
            const double yv = ax.map(values[i]);
            p.drawLine(QPointF(f.g.colorbar.right(), yv), QPointF(f.g.colorbar.right() + 4, yv));
            plot::text(p, QPointF(f.g.colorbar.right() + 6, yv), labels[qsizetype(i)], Align::Left, t.muted);
        }
    }
    p.restore();
}

}  // namespace poslab::ui
