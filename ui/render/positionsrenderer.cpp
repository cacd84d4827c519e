#include "ui/render/positionsrenderer.h"

#include "ui/render/layout.h"
#include "ui/render/plot.h"

#include <QFontMetricsF>
#include <QObject>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

namespace {

// One entry of the layout in the token sequence.
struct Run {
    std::int64_t from = 0, count = 0;
    int segment = 0;
};

std::int64_t segmentTokens(const TokenSegment& s, int merge) {
    if (s.kind == TokenKind::Text) return s.n;
    return s.t * (s.h / merge) * (s.w / merge);
}

std::vector<Run> runsOf(const PositionsPicture& pic) {
    std::vector<Run> runs;
    std::int64_t at = 0;
    for (std::size_t i = 0; i < pic.layout.size(); ++i) {
        const std::int64_t n = segmentTokens(pic.layout[i], pic.merge);
        if (n > 0) runs.push_back({at, n, static_cast<int>(i)});
        at += n;
    }
    return runs;
}

QColor kindColor(TokenKind k, const Theme& t) {
    switch (k) {
    case TokenKind::Text: return t.series(0);
    case TokenKind::Image: return t.series(1);
    case TokenKind::Video: return t.series(2);
    }
    return t.foreground;
}

// The kind's colour as a cell's fill: light enough for the foreground's text on it.
QColor cellFill(TokenKind k, const Theme& t) {
    const QColor c = kindColor(k, t), b = t.background;
    const double a = 0.32;
    return QColor::fromRgbF(float(b.redF() * (1 - a) + c.redF() * a), float(b.greenF() * (1 - a) + c.greenF() * a),
                            float(b.blueF() * (1 - a) + c.blueF() * a));
}

QString kindName(TokenKind k) {
    switch (k) {
    case TokenKind::Text: return QObject::tr("text");
    case TokenKind::Image: return QObject::tr("image");
    case TokenKind::Video: return QObject::tr("video");
    }
    return {};
}

// "image 1×4×6 → 2×3" and shorter forms, for the label over an entry's cells.
QStringList segmentForms(const TokenSegment& s, int merge, std::int64_t tokens) {
    const QString name = kindName(s.kind);
    if (s.kind == TokenKind::Text)
        return {QObject::tr("%1, %2 tokens").arg(name, plot::countText(tokens)), QObject::tr("%1 %2").arg(name, plot::countText(tokens)),
                name, QString()};
    const QString grid = QStringLiteral("%1×%2×%3").arg(s.t).arg(s.h).arg(s.w);
    const QString merged = s.t > 1 ? QStringLiteral("%1×%2×%3").arg(s.t).arg(s.h / merge).arg(s.w / merge)
                                   : QStringLiteral("%1×%2").arg(s.h / merge).arg(s.w / merge);
    return {QObject::tr("%1 %2 patches → %3 = %4 tokens").arg(name, grid, merged, plot::countText(tokens)),
            QObject::tr("%1 %2 → %3").arg(name, grid, merged), QObject::tr("%1 %2").arg(name, merged), name, QString()};
}

using Fonts = plot::ThemeFonts;
Fonts fontsOf(const Theme& t) { return plot::themeFonts(t); }

// Everything positionsGeometry and renderPositions share.
struct Frame {
    QRectF rect;
    double margin = 0;
    QRectF heading, legend, labels, strip, stripNote, gridNote, grids;
    double headerWidth = 0;       // the strip's row headers
    double cellW = 0, cellGap = 0;
    PositionsGeometry g;
    std::int64_t shownTokens = 0;
    double gridCell = 0;
    bool bodyIds = false;         // the cells' ids in body type (large cells), else small
    std::vector<PanelPlacement> panels;
};

// The strip's cells for `capacity` cells: every token when they fit; else each run its first and
// last tokens around an elision, the room left shared by the runs' lengths; with too many runs,
// runs from both ends and one elision for those between.
std::vector<PositionsStripCell> stripCells(const std::vector<Run>& runs, std::int64_t total, std::int64_t capacity) {
    std::vector<PositionsStripCell> cells;
    if (total <= capacity) {
        for (const Run& r : runs)
            for (std::int64_t k = 0; k < r.count; ++k) cells.push_back({r.from + k, 1, r.segment, {}});
        return cells;
    }
    const auto base = [](const Run& r) { return std::min<std::int64_t>(r.count, 3); };
    std::int64_t need = 0;
    for (const Run& r : runs) need += base(r);
    // Cells for one run given `a` cells (a >= base): all of it, or its first and last tokens.
    const auto runCells = [&](const Run& r, std::int64_t a) {
        if (a >= r.count) {
            for (std::int64_t k = 0; k < r.count; ++k) cells.push_back({r.from + k, 1, r.segment, {}});
            return;
        }
        const std::int64_t first = std::max<std::int64_t>(1, a / 2), last = std::max<std::int64_t>(1, a - 1 - first);
        for (std::int64_t k = 0; k < first; ++k) cells.push_back({r.from + k, 1, r.segment, {}});
        cells.push_back({r.from + first, r.count - first - last, r.segment, {}});
        for (std::int64_t k = r.count - last; k < r.count; ++k) cells.push_back({r.from + k, 1, r.segment, {}});
    };
    if (need <= capacity) {
        // The room left, shared in proportion to what each run leaves out.
        std::int64_t spare = capacity - need, hidden = 0;
        for (const Run& r : runs) hidden += r.count - base(r);
        std::vector<std::int64_t> alloc;
        std::int64_t given = 0;
        for (const Run& r : runs) {
            const std::int64_t extra =
                hidden > 0 ? static_cast<std::int64_t>(std::floor(double(spare) * double(r.count - base(r)) / double(hidden))) : 0;
            alloc.push_back(base(r) + std::min(extra, r.count - base(r)));
            given += alloc.back() - base(r);
        }
        // What rounding left over goes to the first runs still eliding.
        for (std::size_t i = 0; i < runs.size() && given < spare; ++i)
            if (alloc[i] < runs[i].count) {
                ++alloc[i];
                ++given;
            }
        for (std::size_t i = 0; i < runs.size(); ++i) runCells(runs[i], alloc[i]);
        return cells;
    }
    // Runs from both ends while they fit beside one elision for the runs between.
    std::size_t front = 0, back = runs.size();
    std::int64_t used = 1;
    bool fromFront = true;
    while (front < back) {
        const Run& r = fromFront ? runs[front] : runs[back - 1];
        if (used + base(r) > capacity) break;
        used += base(r);
        fromFront ? ++front : --back;
        fromFront = !fromFront;
    }
    if (front == back) {   // every run fitted after all (rounding): no elision needed
        for (const Run& r : runs) runCells(r, base(r));
        return cells;
    }
    for (std::size_t i = 0; i < front; ++i) runCells(runs[i], base(runs[i]));
    const std::int64_t from = runs[front].from, to = runs[back - 1].from + runs[back - 1].count;
    cells.push_back({from, to - from, -1, {}});
    for (std::size_t i = back; i < runs.size(); ++i) runCells(runs[i], base(runs[i]));
    return cells;
}

QStringList headingForms(const PositionsPicture& pic) {
    const QString model = mropeModelTitle(pic.model);
    if (!pic.error.isEmpty()) return {QObject::tr("Position ids (t, h, w) of %1").arg(model), QObject::tr("Position ids")};
    const std::int64_t n = pic.positions.ids.cols();
    return {QObject::tr("Position ids (t, h, w) of %1 · %2 tokens · position offset %3")
                .arg(model, plot::countText(n), plot::countText(pic.positions.rope_deltas)),
            QObject::tr("%1 · %2 tokens · position offset %3").arg(model, plot::countText(n), plot::countText(pic.positions.rope_deltas)),
            QObject::tr("%1 · %2 tokens").arg(model, plot::countText(n))};
}

// The kinds present, in legend order.
std::vector<TokenKind> kindsPresent(const PositionsPicture& pic) {
    std::vector<TokenKind> out;
    for (TokenKind k : {TokenKind::Text, TokenKind::Image, TokenKind::Video})
        if (std::find(pic.positions.kinds.begin(), pic.positions.kinds.end(), k) != pic.positions.kinds.end()) out.push_back(k);
    return out;
}

Frame frameOf(const QRectF& rect, const PositionsPicture& pic, const Theme& t) {
    Frame f;
    f.rect = rect;
    const Fonts fo = fontsOf(t);
    f.margin = std::round(fo.lh * 0.6);
    const QRectF in = rect.adjusted(f.margin, f.margin * 0.6, -f.margin, -f.margin * 0.6);
    double y = in.top();
    f.heading = QRectF(in.left(), y, in.width(), fo.lhT * 1.2);
    // The legend beside the heading when both fit on its line, else on a line of its own.
    {
        const QFontMetricsF tm(fo.title), bm(fo.body);
        const double headingW = tm.horizontalAdvance(headingForms(pic).front());
        double legendW = bm.horizontalAdvance(QObject::tr("t time, h row, w column"));
        for (TokenKind k : kindsPresent(pic)) legendW += fo.lh * 0.7 * 1.4 + bm.horizontalAdvance(kindName(k)) + fo.lh;
        if (pic.error.isEmpty() && headingW + fo.lh * 2 + legendW <= in.width()) {
            f.heading.setWidth(headingW + fo.lh);
            f.legend = QRectF(in.left() + headingW + fo.lh * 2, y, in.width() - headingW - fo.lh * 2, f.heading.height());
            y += f.heading.height() + fo.lh * 0.2;
        } else {
            y += f.heading.height();
            f.legend = QRectF(in.left(), y, in.width(), fo.lh * 1.3);
            y += f.legend.height() + fo.lh * 0.3;
        }
    }
    if (!pic.error.isEmpty()) return f;
    const double top = y;

    // The vision frames, in order.
    struct F {
        int segment;
        std::int64_t frame, first, rows, cols;
    };
    std::vector<F> frames;
    {
        std::int64_t at = 0;
        for (std::size_t i = 0; i < pic.layout.size(); ++i) {
            const TokenSegment& s = pic.layout[i];
            const std::int64_t count = segmentTokens(s, pic.merge);
            if (s.kind != TokenKind::Text) {
                const std::int64_t rows = s.h / pic.merge, cols = s.w / pic.merge;
                for (std::int64_t k = 0; k < s.t; ++k) frames.push_back({static_cast<int>(i), k, at + k * rows * cols, rows, cols});
            }
            at += count;
        }
    }
    // Side by side when stacking would leave the grids less than a few lines (a wide, short
    // view: the window's row): the strip and its notes on the left, the grids on the right.
    const double stripH = std::ceil(4 * fo.slh + fo.slh * 0.4);
    const double stacked = fo.lh * 1.15 + stripH + fo.lh * 0.2 + fo.lh * 1.2 + (frames.empty() ? 0 : fo.lh * 1.4);
    // Whichever gives the first frame's cells more room (by a margin: stacked reads more easily).
    bool side = false;
    if (!frames.empty()) {
        const double rows = double(frames.front().rows), cols = double(frames.front().cols), chrome = 3 * fo.lh;
        const double stackedCell = std::min(in.width() / cols, (in.bottom() - top - stacked - chrome) / rows);
        const double sideCell = std::min((in.width() * 0.38 - fo.lh - chrome) / cols, (in.bottom() - top - chrome) / rows);
        side = sideCell > 1.3 * std::max(0.0, stackedCell);
    }
    const double stripAreaW = side ? std::round(in.width() * 0.62) : in.width();

    const std::int64_t n = pic.positions.ids.cols();
    const QFontMetricsF sm(t.smallFont());
    f.headerWidth = std::ceil(std::max({sm.horizontalAdvance(QObject::tr("token")), sm.horizontalAdvance(QStringLiteral("t")),
                                         sm.horizontalAdvance(QStringLiteral("h")), sm.horizontalAdvance(QStringLiteral("w"))}) +
                              fo.slh * 0.6);
    const std::int64_t maxId = n > 0 ? std::max<std::int64_t>(pic.positions.ids.maxCoeff(), n - 1) : 0;
    const double idW = sm.horizontalAdvance(QString::number(maxId));
    const double elW = sm.horizontalAdvance(QStringLiteral("+") + QString::number(n));
    f.cellW = std::ceil(std::max({idW, elW, fo.slh * 1.2}) + fo.slh * 0.5);
    f.cellGap = std::max(1.0, std::round(fo.slh * 0.12));

    f.labels = QRectF(in.left() + f.headerWidth, y, stripAreaW - f.headerWidth, fo.lh * 1.15);
    y += f.labels.height();
    const auto capacity =
        std::max<std::int64_t>(1, static_cast<std::int64_t>(std::floor((f.labels.width() + f.cellGap) / (f.cellW + f.cellGap))));
    f.g.strip = stripCells(runsOf(pic), n, capacity);
    // Every token fits: the cells take up to 2.5 times their least width, filling the line.
    if (n > 0 && n <= capacity)
        f.cellW = std::floor(std::min(f.cellW * 2.5, (f.labels.width() + f.cellGap) / double(n) - f.cellGap));
    double x = f.labels.left();
    for (auto& c : f.g.strip) {
        c.rect = QRectF(x, y, f.cellW, stripH);
        x += f.cellW + f.cellGap;
        if (c.count == 1) ++f.shownTokens;
    }
    f.strip = QRectF(f.labels.left(), y, std::max(0.0, x - f.cellGap - f.labels.left()), stripH);
    y += stripH + fo.lh * 0.2;
    f.stripNote = QRectF(in.left(), y, stripAreaW, fo.lh * 1.2);
    y += f.stripNote.height();
    if (frames.empty()) return f;
    f.gridNote = QRectF(in.left(), y, stripAreaW, fo.lh * 1.2);
    y += f.gridNote.height() + fo.lh * 0.2;
    f.grids = side ? QRectF(in.left() + stripAreaW + fo.lh, top, in.width() - stripAreaW - fo.lh, std::max(0.0, in.bottom() - top))
                   : QRectF(in.left(), y, in.width(), std::max(0.0, in.bottom() - y));

    // Frames as panels: the most (up to 24) whose cells stay at least minCell wide.
    const double rowIdW = idW + fo.slh * 0.5;
    const PanelChrome chrome{rowIdW, fo.lh * 1.2 + fo.slh * 1.1, fo.slh * 0.5, fo.slh * 0.3, 0};
    const double minCell = std::max(3.0, fo.slh * 0.3);
    std::size_t k = std::min<std::size_t>(frames.size(), 24);
    for (; k >= 1; --k) {
        auto panels = placePanels(f.grids, static_cast<int>(k), chrome, true);
        if (panels.size() != k) continue;
        double cell = 1e18;
        for (std::size_t i = 0; i < k; ++i)
            cell = std::min({cell, panels[i].plot.width() / double(frames[i].cols), panels[i].plot.height() / double(frames[i].rows)});
        if (cell >= minCell || k == 1) {
            if (cell < 1) break;   // not even one pixel a cell: no grids
            f.panels = std::move(panels);
            // Cells no larger than a comfortable frame for their three ids, in body type when the
            // room allows (a small layout's few cells grow into the figure rather than leave it
            // empty), else in small type.
            const double bodyIdW = QFontMetricsF(fo.body).horizontalAdvance(QString::number(maxId));
            const double bodyNeed = std::max(3 * fo.lh + 4, bodyIdW + 8);
            f.gridCell = std::floor(std::min(cell, cell >= bodyNeed ? bodyNeed * 2.5 : std::max(3 * fo.slh + 2, idW + 4) * 1.6));
            f.bodyIds = f.gridCell >= bodyNeed;
            break;
        }
    }
    const bool fitIds = f.gridCell >= 3 * fo.slh + 2 && f.gridCell >= idW + 4;
    for (std::size_t i = 0; i < f.panels.size(); ++i) {
        const F& fr = frames[i];
        const QRectF& plot = f.panels[i].plot;
        const double w = f.gridCell * double(fr.cols), h = f.gridCell * double(fr.rows);
        // Left-aligned in its panel, under the panel's title (and, stacked, under the strip).
        const QRectF cells(std::round(f.panels[i].area.left() + chrome.left), std::round(plot.top()), w, h);
        f.g.grids.push_back({fr.segment, fr.frame, fr.first, fr.rows, fr.cols, cells, fitIds});
    }
    f.g.framesLeftOut = static_cast<std::int64_t>(frames.size() - f.g.grids.size());
    return f;
}

// A step of 1, 2 or 5 × 10^k, the smallest at least `minStep`.
std::int64_t niceStep(double minStep) {
    std::int64_t s = 1;
    for (;;) {
        for (std::int64_t m : {1, 2, 5})
            if (double(s * m) >= minStep) return s * m;
        s *= 10;
    }
}

// A small layout in a large picture: its type grows (up to twice the theme's) while every token,
// every frame and the ids in their cells still fit, so the picture is filled rather than left
// mostly empty; otherwise the theme as it is.
Theme fittedTheme(const QRectF& rect, const PositionsPicture& pic, const Theme& t) {
    if (!pic.error.isEmpty() || pic.positions.ids.cols() == 0) return t;
    const bool vision = std::any_of(pic.positions.kinds.begin(), pic.positions.kinds.end(), [](TokenKind k) { return k != TokenKind::Text; });
    for (double s : {2.0, 1.75, 1.5, 1.3, 1.15}) {
        Theme big = t;
        big.fontScale = t.fontScale * s;
        const Frame f = frameOf(rect, pic, big);
        bool ok = f.shownTokens == pic.positions.ids.cols() && f.g.framesLeftOut == 0 && (!vision || !f.g.grids.empty()) &&
                  QFontMetricsF(big.titleFont()).horizontalAdvance(headingForms(pic).front()) <= f.heading.width() + 0.5 &&
                  f.strip.right() <= rect.right() && f.stripNote.bottom() <= rect.bottom();
        for (const auto& g : f.g.grids) ok = ok && g.idsInCells && g.cells.bottom() <= rect.bottom() && g.cells.right() <= rect.right();
        if (ok) return big;
    }
    return t;
}

}  // namespace

QString mropeModelTitle(MropeModel m) {
    switch (m) {
    case MropeModel::Qwen2VL: return QStringLiteral("Qwen2-VL");
    case MropeModel::Qwen25VL: return QStringLiteral("Qwen2.5-VL");
    case MropeModel::Qwen3VL: return QStringLiteral("Qwen3-VL");
    }
    return {};
}

PositionsPicture positionsPictureOf(const MropeParams& params) {
    PositionsPicture pic;
    pic.model = params.model;
    pic.merge = params.merge;
    if (params.tokens.empty()) {
        pic.error = QObject::tr("No token layout: add text, image or video entries to see their position ids.");
        return pic;
    }
    if (auto problem = params.validate()) {
        pic.error = QString::fromStdString(problem->message());
        return pic;
    }
    auto layout = parseTokenLayout(params.tokens);
    if (!layout) {
        pic.error = QString::fromStdString(layout.error().message());
        return pic;
    }
    auto positions = mropePositions(layout.value(), params);
    if (!positions) {
        pic.error = QString::fromStdString(positions.error().message());
        return pic;
    }
    pic.layout = std::move(layout.value());
    pic.positions = std::move(positions.value());
    return pic;
}

PositionsGeometry positionsGeometry(const QRectF& rect, const PositionsPicture& pic, const Theme& theme) {
    return frameOf(rect, pic, fittedTheme(rect, pic, theme)).g;
}

void renderPositions(QPainter& p, const QRectF& rect, const PositionsPicture& pic, const Theme& theme) {
    const Theme t = fittedTheme(rect, pic, theme);
    p.save();
    p.fillRect(rect, t.background);
    p.setClipRect(rect);
    const Fonts fo = fontsOf(t);
    const Frame f = frameOf(rect, pic, t);
    using plot::Align;

    if (!pic.error.isEmpty()) {
        plot::fittedLine(p, f.heading, headingForms(pic), t.foreground, fo.title);
        p.setFont(fo.body);
        p.setPen(t.error);
        plot::wrappedText(p, QRectF(f.legend.left(), f.legend.top(), f.legend.width(), rect.bottom() - f.legend.top()), pic.error,
                          t.error);
        p.restore();
        return;
    }
    const IntMatrix& ids = pic.positions.ids;
    const std::int64_t n = ids.cols();
    plot::fittedLine(p, f.heading, headingForms(pic), t.foreground, fo.title);

    // Legend: the kinds present, then what the ids mean.
    {
        p.setFont(fo.body);
        double x = f.legend.left();
        const double sw = std::round(fo.lh * 0.7), cy = f.legend.center().y();
        for (TokenKind k : kindsPresent(pic)) {
            const QRectF sq(x, cy - sw / 2, sw, sw);
            p.fillRect(sq, cellFill(k, t));
            p.setPen(QPen(kindColor(k, t), std::max(1.0, sw / 8)));
            p.drawRect(sq);
            const QRectF r = plot::text(p, QPointF(x + sw * 1.4, cy), kindName(k), Align::Left, t.foreground);
            x = r.right() + fo.lh;
        }
        plot::fittedLine(p, QRectF(x, f.legend.top(), f.legend.right() - x, f.legend.height()),
             {QObject::tr("t time, h row, w column: each frequency of RoPE follows one of the three"),
              QObject::tr("t time, h row, w column"), QObject::tr("t, h, w")},
             t.muted, fo.body);
    }

    // The strip: entry labels over their cells, row headers, cells.
    const QFontMetricsF sm(fo.small);
    {
        p.setFont(fo.small);
        const double rowH = fo.slh, top = f.strip.top() + fo.slh * 0.2;
        const QStringList heads = {QObject::tr("token"), QStringLiteral("t"), QStringLiteral("h"), QStringLiteral("w")};
        for (int r = 0; r < 4; ++r)
            plot::text(p, QPointF(f.strip.left() - fo.slh * 0.3, top + rowH * (r + 0.5)), heads[r], Align::Right, r == 0 ? t.muted : t.foreground);
        layoutRecord(p, LayoutItemKind::Plot, f.strip);
        for (const auto& c : f.g.strip) {
            if (c.count == 1) {
                const TokenKind kind = pic.positions.kinds[static_cast<std::size_t>(c.from)];
                p.fillRect(c.rect, cellFill(kind, t));
                const double cx = c.rect.center().x();
                plot::text(p, QPointF(cx, top + rowH * 0.5), QString::number(c.from), Align::Center, t.muted);
                for (int a = 0; a < 3; ++a)
                    plot::text(p, QPointF(cx, top + rowH * (a + 1.5)), QString::number(ids(a, c.from)), Align::Center, t.foreground);
            } else {
                p.fillRect(c.rect, t.panel);
                plot::text(p, QPointF(c.rect.center().x(), c.rect.center().y()), QStringLiteral("+") + QString::number(c.count),
                           Align::Center, t.muted);
            }
        }
        // Labels over each entry's (or the elided entries') cells, with a tick line under them.
        p.setFont(fo.body);
        std::size_t i = 0;
        while (i < f.g.strip.size()) {
            std::size_t j = i;
            while (j + 1 < f.g.strip.size() && f.g.strip[j + 1].segment == f.g.strip[i].segment) ++j;
            const QRectF span(f.g.strip[i].rect.left(), f.labels.top(), f.g.strip[j].rect.right() - f.g.strip[i].rect.left(),
                              f.labels.height());
            const int seg = f.g.strip[i].segment;
            QStringList forms;
            if (seg < 0) {
                const auto& c = f.g.strip[i];
                forms = {QObject::tr("%1 tokens of the entries between").arg(plot::countText(c.count)), QObject::tr("more entries"),
                         QStringLiteral("…"), QString()};
            } else {
                const TokenSegment& s = pic.layout[static_cast<std::size_t>(seg)];
                forms = segmentForms(s, pic.merge, segmentTokens(s, pic.merge));
            }
            const FittedText ft = fitText(forms, fo.body, span.width() - 2);
            if (!ft.text.isEmpty())
                plot::text(p, QPointF(span.left() + 1, span.top() + fo.lh * 0.5), ft, Align::Left,
                           seg < 0 ? t.muted : kindColor(pic.layout[static_cast<std::size_t>(seg)].kind, t));
            p.setPen(QPen(seg < 0 ? t.muted : kindColor(pic.layout[static_cast<std::size_t>(seg)].kind, t), 2));
            p.drawLine(QPointF(span.left(), span.bottom() - 2), QPointF(span.right(), span.bottom() - 2));
            i = j + 1;
        }
        const std::int64_t hidden = n - f.shownTokens;
        plot::fittedLine(p, f.stripNote,
             hidden == 0 ? QStringList{QObject::tr("Every token, in order: its index in the sequence, then its t, h and w ids."),
                                       QObject::tr("Each token: index, t, h, w.")}
                         : QStringList{QObject::tr("%1 of %2 tokens shown; +n stands for n tokens left out between those beside "
                                                   "it (their ids continue the run).")
                                           .arg(plot::countText(f.shownTokens), plot::countText(n)),
                                       QObject::tr("%1 of %2 tokens shown; +n: n tokens left out.")
                                           .arg(plot::countText(f.shownTokens), plot::countText(n)),
                                       QObject::tr("%1 of %2 shown").arg(plot::countText(f.shownTokens), plot::countText(n))},
             t.muted, fo.body);
    }

    // The grids.
    if (!f.gridNote.isEmpty()) {
        QStringList forms;
        const bool idsInCells = !f.g.grids.empty() && f.g.grids.front().idsInCells;
        QString left;
        if (f.g.framesLeftOut > 0)
            left = QObject::tr("%n frame(s) left out (no room for their cells).", nullptr, static_cast<int>(f.g.framesLeftOut));
        if (f.g.grids.empty())
            forms = {QObject::tr("No room for the patch grids: a larger picture shows them."), QObject::tr("No room for the grids.")};
        else if (idsInCells)
            forms = {(QObject::tr("Each image or video frame as its grid of merged patches; every cell (t, h, w).") + QLatin1Char(' ') + left).trimmed(),
                     QObject::tr("Patch grids; each cell t, h, w.")};
        else
            forms = {(QObject::tr("Each image or video frame as its grid of merged patches: cells too small for their ids (%1 px), so rows "
                                  "give h (left), columns w (top), the frame's t in its title.")
                          .arg(f.gridCell) +
                      QLatin1Char(' ') + left)
                         .trimmed(),
                     (QObject::tr("Cells too small for their ids: rows give h, columns w, the title t.") + QLatin1Char(' ') + left).trimmed(),
                     QObject::tr("Rows h, columns w, title t.")};
        plot::fittedLine(p, f.gridNote, forms, t.muted, fo.body);
    }
    for (std::size_t gi = 0; gi < f.g.grids.size(); ++gi) {
        const PositionsGrid& g = f.g.grids[gi];
        const PanelPlacement& panel = f.panels[gi];
        const TokenSegment& s = pic.layout[static_cast<std::size_t>(g.segment)];
        const std::int64_t tId = ids(0, g.firstToken);
        // Which image or video this is (1-based, counted per kind).
        int ordinal = 0;
        for (int k = 0; k <= g.segment; ++k) ordinal += pic.layout[static_cast<std::size_t>(k)].kind == s.kind ? 1 : 0;
        QStringList forms;
        if (s.kind == TokenKind::Image)
            forms = {QObject::tr("image %1: %2×%3 tokens, t = %4").arg(ordinal).arg(g.rows).arg(g.cols).arg(tId),
                     QObject::tr("image %1, t = %2").arg(ordinal).arg(tId), QObject::tr("t = %1").arg(tId)};
        else
            forms = {QObject::tr("video %1, frame %2 of %3: t = %4").arg(ordinal).arg(g.frame + 1).arg(s.t).arg(tId),
                     QObject::tr("frame %1: t = %2").arg(g.frame + 1).arg(tId), QObject::tr("t = %1").arg(tId)};
        plot::fittedLine(p, QRectF(panel.area.left(), panel.area.top(), panel.area.width() - fo.lh * 0.6, fo.lh * 1.2), forms, kindColor(s.kind, t), fo.body);

        const double c = g.cells.width() / double(g.cols);
        const QColor fill = cellFill(s.kind, t);
        p.fillRect(g.cells, fill);
        if (c >= 4) {
            p.setPen(QPen(t.background, c >= 12 ? 1.0 : 0.5));
            for (std::int64_t k = 1; k < g.cols; ++k) p.drawLine(QPointF(g.cells.left() + c * k, g.cells.top()), QPointF(g.cells.left() + c * k, g.cells.bottom()));
            for (std::int64_t k = 1; k < g.rows; ++k) p.drawLine(QPointF(g.cells.left(), g.cells.top() + c * k), QPointF(g.cells.right(), g.cells.top() + c * k));
        }
        p.setPen(QPen(kindColor(s.kind, t), 1.5));
        p.drawRect(g.cells);
        layoutRecord(p, LayoutItemKind::Plot, g.cells);
        p.setFont(fo.small);
        const auto token = [&](std::int64_t r, std::int64_t col) { return g.firstToken + r * g.cols + col; };
        if (g.idsInCells) {
            if (f.bodyIds) p.setFont(fo.body);
            const double idLine = f.bodyIds ? fo.lh : fo.slh;
            for (std::int64_t r = 0; r < g.rows; ++r)
                for (std::int64_t col = 0; col < g.cols; ++col) {
                    const std::int64_t k = token(r, col);
                    const double cx = g.cells.left() + c * (double(col) + 0.5), cy = g.cells.top() + c * (double(r) + 0.5);
                    for (int a = 0; a < 3; ++a)
                        plot::text(p, QPointF(cx, cy + idLine * (a - 1)), QString::number(ids(a, k)), Align::Center, t.foreground);
                }
        } else {
            // Row ids (h) on the left, column ids (w) on top, every k-th so that they stay apart.
            const std::int64_t rowStep = niceStep(fo.slh * 1.1 / c);
            double widest = 0;
            for (std::int64_t col = 0; col < g.cols; ++col) widest = std::max(widest, sm.horizontalAdvance(QString::number(ids(2, token(0, col)))));
            const std::int64_t colStep = niceStep((widest + fo.slh * 0.6) / c);
            // Every step-th, and the last one where it stays a label's room from the one before.
            const auto marks = [](std::int64_t n, std::int64_t step, double cell, double room) {
                std::vector<std::int64_t> out;
                for (std::int64_t k = 0; k < n; k += step) out.push_back(k);
                if (!out.empty() && out.back() != n - 1 && double(n - 1 - out.back()) * cell >= room) out.push_back(n - 1);
                return out;
            };
            {
                LayoutGroup group;
                for (std::int64_t r : marks(g.rows, rowStep, c, fo.slh * 1.1))
                    plot::text(p, QPointF(g.cells.left() - fo.slh * 0.25, g.cells.top() + c * (double(r) + 0.5)),
                               QString::number(ids(1, token(r, 0))), Align::Right, t.foreground);
            }
            {
                LayoutGroup group;
                for (std::int64_t col : marks(g.cols, colStep, c, widest + fo.slh * 0.6))
                    plot::text(p, QPointF(g.cells.left() + c * (double(col) + 0.5), g.cells.top() - fo.slh * 0.6),
                               QString::number(ids(2, token(0, col))), Align::Center, t.foreground);
            }
        }
    }
    p.restore();
}

}  // namespace poslab::ui
