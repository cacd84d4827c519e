#include "ui/render/layout.h"

#include "ui/render/pairsrenderer.h"
#include "ui/render/plot.h"
#include "ui/render/typeset.h"

#include <QFontMetricsF>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

// ---- Arrangements -----------------------------------------------------------------------------------

ViewArrangement sceneArrangement(const SceneParams& scene) {
    ViewArrangement a;
    const bool show[6] = {scene.view.showPairs, scene.view.showHeatmap, scene.view.showDecay, scene.view.showFrequencies,
                          scene.view.showContributions, scene.view.showPrecision};
    const ViewKind all[6] = {ViewKind::Pairs,         ViewKind::Heatmap,  ViewKind::Decay, ViewKind::Frequencies,
                             ViewKind::Contributions, ViewKind::Precision};
    for (int i = 0; i < 6; ++i)
        if (show[i]) a.views.push_back(all[i]);
    if (a.views.empty()) a.views.assign(std::begin(all), std::begin(all) + 4);
    // Automatic pairs of rotating configurations (each with room for eight): the dials' height is known.
    bool dials = scene.pairs.empty() && !scene.methods.empty();
    for (const auto& m : scene.methods) dials = dials && methodRotates(m.params.method) && pairCount(m.params) >= 8;
    if (dials) a.pairsDials = static_cast<int>(scene.methods.size());
    return a;
}

double usableHeight(ViewKind view, const QRectF& rect, const ViewArrangement& a, const Theme& theme) {
    if (view == ViewKind::Pairs && a.pairsDials > 0) return std::min(rect.height(), pairsUsableHeight(rect, a.pairsDials, theme));
    return rect.height();
}

namespace {
// `n` shares of `r` along one axis (weights `shares`, equal when empty), `gap` between them, in
// whole pixels so that neighbours never overlap.
std::vector<QRectF> splitRect(const QRectF& r, int n, bool horizontal, std::vector<double> shares, double gap) {
    std::vector<QRectF> out;
    if (n <= 0) return out;
    if (shares.size() != std::size_t(n)) shares.assign(std::size_t(n), 1.0);
    double total = 0;
    for (double s : shares) total += s;
    const double length = (horizontal ? r.width() : r.height()) - gap * (n - 1);
    double at = horizontal ? r.left() : r.top();
    double used = 0;
    for (int i = 0; i < n; ++i) {
        used += shares[std::size_t(i)];
        const double end = i == n - 1 ? (horizontal ? r.right() : r.bottom())
                                      : std::round((horizontal ? r.left() : r.top()) + length * used / total + gap * i);
        out.push_back(horizontal ? QRectF(at, r.top(), end - at, r.height()) : QRectF(r.left(), at, r.width(), end - at));
        at = end + gap;
    }
    return out;
}
}  // namespace

std::vector<QRectF> placeRects(const QRectF& rect, ArrangementKind kind, int n, double gap) {
    if (n <= 0 || rect.isEmpty()) return {};
    if (kind == ArrangementKind::Auto) kind = n == 1 ? ArrangementKind::Single : n == 2 ? ArrangementKind::Row : ArrangementKind::Grid;
    if (kind == ArrangementKind::Single || n == 1) return {rect};
    if (kind == ArrangementKind::Row) return splitRect(rect, n, true, {}, gap);
    if (kind == ArrangementKind::Column) return splitRect(rect, n, false, {}, gap);
    // Grid: rows of two, equal heights; an odd last one spans its row.
    std::vector<QRectF> out;
    const int rows = (n + 1) / 2;
    int k = 0;
    for (const QRectF& row : splitRect(rect, rows, false, {}, gap)) {
        const int inRow = std::min(2, n - k);
        for (const QRectF& r : splitRect(row, inRow, true, {}, gap)) out.push_back(r);
        k += inRow;
    }
    return out;
}

double viewGap(const Theme& theme) { return std::max(6.0, std::round(plot::lineHeight(theme.smallFont()) * 0.4)); }

std::vector<ViewPlacement> placeViews(const QRectF& rect, const ViewArrangement& a, const Theme& theme) {
    std::vector<ViewPlacement> out;
    const auto& v = a.views;
    if (v.empty()) return out;
    const double gap = viewGap(theme);
    ArrangementKind kind = a.kind;
    if (kind == ArrangementKind::Auto) kind = v.size() == 1 ? ArrangementKind::Single : ArrangementKind::Grid;
    if (kind == ArrangementKind::Single || v.size() == 1) {
        out.push_back({v.front(), rect});
        return out;
    }
    // The contributions and precision views: each a row of its own below the others (the last
    // third of the height).
    for (ViewKind own : {ViewKind::Precision, ViewKind::Contributions}) {
        if (kind == ArrangementKind::Row || std::find(v.begin(), v.end(), own) == v.end()) continue;
        ViewArrangement rest{a.kind, {}, a.pairsDials};
        for (ViewKind k : v)
            if (k != own) rest.views.push_back(k);
        const double h = std::round((rect.height() - gap) * 2.0 / 3.0);
        out = placeViews(QRectF(rect.left(), rect.top(), rect.width(), h), rest, theme);
        out.push_back({own, QRectF(rect.left(), rect.top() + h + gap, rect.width(), rect.height() - h - gap)});
        return out;
    }
    // Equal shares along one axis (whole pixels, so that neighbours never overlap).
    const auto split = [&](const QRectF& r, const std::vector<ViewKind>& vs, bool horizontal, std::vector<double> shares) {
        const auto rects = splitRect(r, int(vs.size()), horizontal, std::move(shares), gap);
        for (std::size_t i = 0; i < vs.size(); ++i) out.push_back({vs[i], rects[i]});
    };
    if (kind == ArrangementKind::Row) {
        split(rect, v, true, {});
        return out;
    }
    if (kind == ArrangementKind::Column) {
        split(rect, v, false, {});
        return out;
    }
    // Grid, explorer order: two columns, the pairs view over the decay view beside the heatmap
    // over the frequency view; a column with one view gives it the whole height, a single
    // column the whole width. In a column, the plot that needs height (pairs, heatmap) takes 3/5
    // of it; what a view cannot use (usableHeight: the pair dials are as large with less) goes to
    // the other view of its column, so plots grow before text shrinks.
    std::vector<ViewKind> left, right;
    bool explorer = v.size() <= 4;
    for (ViewKind k : v) {
        auto& col = (k == ViewKind::Pairs || k == ViewKind::Decay) ? left : right;
        if (k == ViewKind::Contributions || k == ViewKind::Precision) explorer = false;
        else col.push_back(k);
    }
    const auto rank = [](ViewKind k) { return k == ViewKind::Pairs || k == ViewKind::Heatmap ? 0 : 1; };
    for (const auto* col : {&left, &right})
        if (col->size() > 2 || (col->size() == 2 && rank((*col)[0]) == rank((*col)[1]))) explorer = false;
    if (explorer) {
        std::vector<std::vector<ViewKind>*> cols;
        for (auto* col : {&left, &right})
            if (!col->empty()) cols.push_back(col);
        const auto colRects = splitRect(rect, int(cols.size()), true, {}, gap);
        for (std::size_t c = 0; c < cols.size(); ++c) {
            auto& col = *cols[c];
            std::sort(col.begin(), col.end(), [&](ViewKind x, ViewKind y) { return rank(x) < rank(y); });
            const QRectF r = colRects[c];
            if (col.size() == 1) {
                out.push_back({col.front(), r});
                continue;
            }
            double upperH = std::round((r.height() - gap) * 3.0 / 5.0);
            const double lowerH = r.height() - upperH - gap;
            const auto use = [&](ViewKind k, double h) { return std::ceil(usableHeight(k, QRectF(r.left(), r.top(), r.width(), h), a, theme)); };
            if (const double u = use(col[0], upperH); u < upperH) upperH = u;
            else if (const double l = use(col[1], lowerH); l < lowerH) upperH += lowerH - l;
            out.push_back({col[0], QRectF(r.left(), r.top(), r.width(), upperH)});
            out.push_back({col[1], QRectF(r.left(), r.top() + upperH + gap, r.width(), r.height() - upperH - gap)});
        }
        // In reading order (the arrangement's).
        std::vector<ViewPlacement> ordered;
        for (ViewKind k : v)
            for (const auto& p : out)
                if (p.view == k) ordered.push_back(p);
        return ordered;
    }
    // Other views: rows of two, equal heights.
    std::vector<ViewKind> top(v.begin(), v.begin() + std::min<std::ptrdiff_t>(2, std::ptrdiff_t(v.size())));
    std::vector<ViewKind> bottom(v.begin() + std::ptrdiff_t(top.size()), v.begin() + std::min<std::ptrdiff_t>(4, std::ptrdiff_t(v.size())));
    if (bottom.empty()) {
        split(rect, top, true, {});
        return out;
    }
    const double topH = std::round((rect.height() - gap) / 2.0);
    split(QRectF(rect.left(), rect.top(), rect.width(), topH), top, true, {});
    split(QRectF(rect.left(), rect.top() + topH + gap, rect.width(), rect.height() - topH - gap), bottom, true, {});
    return out;
}

// ---- Panels --------------------------------------------------------------------------------------------

std::vector<PanelPlacement> placePanels(const QRectF& rect, int n, const PanelChrome& c, bool square, double maxAspect) {
    std::vector<PanelPlacement> out;
    n = std::max(n, 1);
    maxAspect = std::max(1.0, maxAspect);
    // The plot one cell of a cols × rows grid gets.
    const auto plotSize = [&](int cols, int rows) {
        double w = std::max(8.0, rect.width() / cols - c.left - c.right);
        double h = std::max(8.0, rect.height() / rows - c.top - c.bottom);
        if (square) w = h = std::min(w, h);
        else {
            w = std::min(w, h * maxAspect);
            h = std::min(h, w * maxAspect);
        }
        return QSizeF(std::floor(w), std::floor(h));
    };
    int bestCols = n;
    double best = -1;
    bool bestTall = false;
    for (int cols = 1; cols <= n; ++cols) {
        const int rows = (n + cols - 1) / cols;
        const QSizeF s = plotSize(cols, rows);
        // The area all plots cover; a grid with empty cells loses nothing by it. A grid whose
        // plots are tall enough for what stands beside them beats any that is not.
        const double area = s.width() * s.height();
        const bool tall = s.height() >= c.minPlotHeight;
        if ((tall && !bestTall) || (tall == bestTall && area > best * (1 + 1e-9))) {
            best = area;
            bestCols = cols;
            bestTall = tall;
        }
    }
    const int cols = bestCols, rows = (n + cols - 1) / cols;
    const QSizeF s = plotSize(cols, rows);
    const double w = rect.width() / cols, h = rect.height() / rows;
    for (int k = 0; k < n; ++k) {
        PanelPlacement p;
        p.area = QRectF(rect.left() + (k % cols) * w, rect.top() + (k / cols) * h, w, h);
        const double freeW = w - c.left - c.right - s.width();
        const double freeH = h - c.top - c.bottom - s.height();
        const double x0 = std::floor(p.area.left() + c.left + std::max(0.0, freeW / 2));
        const double y0 = std::floor(p.area.top() + c.top + std::max(0.0, freeH / 2));
        p.plot = QRectF(x0, y0, s.width(), s.height());
        out.push_back(p);
    }
    return out;
}

// ---- Text ----------------------------------------------------------------------------------------------

FittedText fitText(const QString& raw, const QFont& font, double width) {
    const QString s = typeset(raw);
    const QFontMetricsF fm(font);
    const auto fits = [&](const QString& t) { return fm.horizontalAdvance(t) <= width + 0.01; };
    if (fits(s)) return {s, fm.horizontalAdvance(s), false};
    // Rule 1: drop trailing " · …" parts, one at a time.
    QString t = s;
    // A part dropped inside a parenthesis closes it again ("(32 buckets · exact below 8)").
    const auto closed = [](const QString& x) {
        return x.count(QLatin1Char('(')) > x.count(QLatin1Char(')')) ? x + QLatin1Char(')') : x;
    };
    for (qsizetype at = t.lastIndexOf(QStringLiteral(" · ")); at > 0; at = t.lastIndexOf(QStringLiteral(" · "))) {
        t = t.left(at);
        const QString c = closed(t);
        if (fits(c)) return {c, fm.horizontalAdvance(c), true};
    }
    t = closed(t);
    // Rule 2: drop a trailing parenthesis (with any inside it: "(seeded N(0, 0.02²), seed 0)").
    const auto withoutParen = [](const QString& x) {
        const QString u = x.trimmed();
        if (!u.endsWith(QLatin1Char(')'))) return x;
        int depth = 0;
        for (qsizetype i = u.size() - 1; i >= 0; --i) {
            if (u[i] == QLatin1Char(')')) ++depth;
            else if (u[i] == QLatin1Char('(') && --depth == 0) return u.left(i).trimmed();
        }
        return x;
    };
    const QString noParen = withoutParen(t);
    if (noParen != t && !noParen.isEmpty() && fits(noParen)) return {noParen, fm.horizontalAdvance(noParen), true};
    // Rule 3: cut with an ellipsis after the last whole word that fits ("Score against…", never
    // "Score against distanc…"); mid-word only when not even the first word fits.
    const QString rest = noParen.isEmpty() ? t : noParen;
    const QString ellipsis(QChar(0x2026));
    for (qsizetype at = rest.lastIndexOf(QLatin1Char(' ')); at > 0; at = rest.lastIndexOf(QLatin1Char(' '), at - 1)) {
        QString head = rest.left(at);
        while (!head.isEmpty() && !head.back().isLetterOrNumber() && head.back() != QLatin1Char(')')) head.chop(1);
        if (head.isEmpty()) continue;
        const QString c = head + ellipsis;
        if (fits(c)) return {c, fm.horizontalAdvance(c), true};
    }
    const QString cut = fm.elidedText(rest, Qt::ElideRight, std::max(0.0, width));
    return {cut, fm.horizontalAdvance(cut), true};
}

FittedText fitText(const QStringList& forms, const QFont& font, double width) {
    if (forms.isEmpty()) return {};
    const QFontMetricsF fm(font);
    for (qsizetype i = 0; i < forms.size(); ++i) {
        const QString form = typeset(forms[i]);
        const double w = fm.horizontalAdvance(form);
        if (w <= width + 0.01) return {form, w, i > 0};
    }
    FittedText f = fitText(forms.back(), font, width);
    f.elided = true;
    return f;
}

// ---- The report -----------------------------------------------------------------------------------------

namespace {
thread_local LayoutCapture* tCapture = nullptr;
}

QString layoutItemKindKey(LayoutItemKind k) {
    switch (k) {
    case LayoutItemKind::Plot: return QStringLiteral("plot");
    case LayoutItemKind::Text: return QStringLiteral("text");
    case LayoutItemKind::Legend: return QStringLiteral("legend");
    case LayoutItemKind::Colorbar: return QStringLiteral("colorbar");
    case LayoutItemKind::Panel: return QStringLiteral("panel");
    }
    return {};
}

LayoutCapture::LayoutCapture(LayoutReport& report, double scale) : previous_(tCapture), report_(report), scale_(scale) {
    tCapture = this;
}

LayoutCapture::~LayoutCapture() { tCapture = previous_; }

void LayoutCapture::setView(const QString& view) { view_ = view; }

LayoutGroup::LayoutGroup() {
    if (LayoutCapture* c = tCapture) {
        previous_ = c->group_;
        c->group_ = ++c->groups_;
    }
}

LayoutGroup::~LayoutGroup() {
    if (LayoutCapture* c = tCapture) c->group_ = previous_;
}

bool layoutCapturing() { return tCapture != nullptr; }
LayoutCapture* currentLayoutCapture() { return tCapture; }
bool layoutPaintsText() { return !tCapture || tCapture->paintText(); }

double minPlotSide(const Theme& theme) { return 3 * plot::lineHeight(theme.smallFont()); }

double fontPixelSize(const QFont& font, const QPaintDevice* device) {
    if (font.pixelSize() > 0) return font.pixelSize();
    const double dpi = device && device->logicalDpiY() > 0 ? device->logicalDpiY() : 96.0;
    return font.pointSizeF() * dpi / 72.0;
}

double legibleTextPx(double height) { return std::max(1.0, height) * 24.0 / 1080.0; }

double legibleFontScale(const QString& themeName, double height, double textScale) {
    const double smallPx = fontPixelSize(themeByName(themeName, 1.0).smallFont(), nullptr);
    return std::clamp(legibleTextPx(height) * textScale / smallPx, 0.5, 3.0);
}

double smallestTextPx(const LayoutReport& report) {
    double least = 0;
    for (const LayoutItem& i : report.items)
        if (i.kind == LayoutItemKind::Text && i.px > 0 && (least == 0 || i.px < least)) least = i.px;
    return least;
}

void layoutRecordItem(const QPainter& p, LayoutItemKind kind, const QRectF& rect, const QString& text, bool elided, bool painted,
                      const QFont& font) {
    LayoutCapture* c = tCapture;
    if (!c || rect.isEmpty()) return;
    QRectF r = p.transform().mapRect(rect);
    r = QRectF(r.left() * c->scale_, r.top() * c->scale_, r.width() * c->scale_, r.height() * c->scale_);
    LayoutItem item{c->view_, kind, r, text, elided};
    if (kind == LayoutItemKind::Text) {
        item.group = c->group_;
        item.unpainted = !painted;
        // The painter's scale (a column drawn scaled to fit, a rotated label: the same length).
        const double k = std::sqrt(std::abs(p.transform().determinant()));
        item.px = fontPixelSize(font, p.device()) * k * c->scale_;
    }
    c->report_.items.push_back(item);
}

void layoutRecord(const QPainter& p, LayoutItemKind kind, const QRectF& rect, const QString& text, bool elided, bool painted) {
    if (!tCapture) return;
    layoutRecordItem(p, kind, rect, text, elided, painted, p.font());
}

void layoutRecordText(const QPainter& p, const QRectF& rect, const QString& text, const QFont& font, bool elided, bool painted) {
    if (!tCapture) return;
    layoutRecordItem(p, LayoutItemKind::Text, rect, text, elided, painted, font);
}

void layoutRecordCells(const QPainter& p, const QRectF& rect, int columns, int rows) {
    LayoutCapture* c = tCapture;
    if (!c) return;
    const std::size_t n = c->report_.items.size();
    layoutRecord(p, LayoutItemKind::Plot, rect);
    if (c->report_.items.size() > n) c->report_.items.back().cells = QSize(columns, rows);
}

void layoutRecordFramelessPlot(const QPainter& p, const QRectF& rect) {
    LayoutCapture* c = tCapture;
    if (!c) return;
    const std::size_t n = c->report_.items.size();
    layoutRecord(p, LayoutItemKind::Plot, rect);
    if (c->report_.items.size() > n) c->report_.items.back().frameless = true;
}

QStringList layoutProblems(const LayoutReport& report, double tol) {
    QStringList out;
    const auto describe = [](const LayoutItem& i) {
        return QStringLiteral("%1 %2 \"%3\" [%4, %5, %6 × %7]")
            .arg(i.view, layoutItemKindKey(i.kind), i.text)
            .arg(i.rect.x(), 0, 'f', 0)
            .arg(i.rect.y(), 0, 'f', 0)
            .arg(i.rect.width(), 0, 'f', 0)
            .arg(i.rect.height(), 0, 'f', 0);
    };
    const auto shrink = [tol](const QRectF& r) { return r.adjusted(tol, tol, -tol, -tol); };
    const auto& items = report.items;
    for (std::size_t a = 0; a < items.size(); ++a) {
        const LayoutItem& A = items[a];
        if (!report.bounds.isEmpty() && !report.bounds.adjusted(-tol, -tol, tol, tol).contains(A.rect))
            out << QStringLiteral("outside the figure: ") + describe(A);
        if (A.kind != LayoutItemKind::Text) continue;
        const QRectF ra = shrink(A.rect);
        for (std::size_t b = 0; b < items.size(); ++b) {
            if (a == b) continue;
            const LayoutItem& B = items[b];
            if (!ra.intersects(B.rect)) continue;
            switch (B.kind) {
            case LayoutItemKind::Text:
                if (b > a) out << QStringLiteral("text over text: %1 and %2").arg(describe(A), describe(B));
                break;
            case LayoutItemKind::Colorbar: out << QStringLiteral("text over a colour bar: %1 and %2").arg(describe(A), describe(B)); break;
            case LayoutItemKind::Plot:
            case LayoutItemKind::Legend:
                if (B.frameless) break;
                // Wholly inside: an annotation of the plot, an entry of the legend.
                if (!B.rect.adjusted(-tol, -tol, tol, tol).contains(A.rect))
                    out << QStringLiteral("text partly over a %1: %2 and %3").arg(layoutItemKindKey(B.kind), describe(A), describe(B));
                break;
            case LayoutItemKind::Panel: break;
            }
        }
    }
    // Labels of one group: apart by a quarter of their height (closer, "1", "3" and "2" read as
    // "132"), and one way of writing numbers (never "1e5" beside "10000").
    static const QRegularExpression plain(QStringLiteral("^[−-]?\\d+(\\.\\d+)?$"));
    static const QRegularExpression exponent(QStringLiteral("^[−-]?\\d+(\\.\\d+)?e[+−-]?\\d+$"));
    std::vector<std::size_t> grouped;
    for (std::size_t a = 0; a < items.size(); ++a)
        if (items[a].kind == LayoutItemKind::Text && items[a].group > 0) grouped.push_back(a);
    std::sort(grouped.begin(), grouped.end(), [&](std::size_t a, std::size_t b) { return items[a].group < items[b].group; });
    for (std::size_t from = 0; from < grouped.size();) {
        std::size_t to = from;
        while (to < grouped.size() && items[grouped[to]].group == items[grouped[from]].group) ++to;
        bool anyPlain = false, anyExponent = false;
        QStringList labels;
        for (std::size_t i = from; i < to; ++i) {
            const LayoutItem& A = items[grouped[i]];
            labels << A.text;
            anyPlain = anyPlain || (plain.match(A.text).hasMatch() && A.text != QLatin1String("0"));
            anyExponent = anyExponent || exponent.match(A.text).hasMatch();
            for (std::size_t j = i + 1; j < to; ++j) {
                const LayoutItem& B = items[grouped[j]];
                const double room = 0.25 * std::min(A.rect.height(), B.rect.height());
                const double dx = std::max(B.rect.left() - A.rect.right(), A.rect.left() - B.rect.right());
                const double dy = std::max(B.rect.top() - A.rect.bottom(), A.rect.top() - B.rect.bottom());
                if (dx < room && dy < room) out << QStringLiteral("labels run together: %1 and %2").arg(describe(A), describe(B));
            }
        }
        if (anyPlain && anyExponent)
            out << QStringLiteral("numbers written two ways in one axis (%1): %2").arg(items[grouped[from]].view, labels.join(QStringLiteral(", ")));
        from = to;
    }
    // Panels: a plot at least minPlot in both directions in each.
    if (report.minPlot > 0)
        for (const LayoutItem& P : items) {
            if (P.kind != LayoutItemKind::Panel) continue;
            QSizeF largest;
            bool legible = false;
            for (const LayoutItem& B : items) {
                if (B.kind != LayoutItemKind::Plot || B.view != P.view || !P.rect.contains(B.rect.center())) continue;
                if (B.rect.width() * B.rect.height() > largest.width() * largest.height()) largest = B.rect.size();
                legible = legible || std::min(B.rect.width(), B.rect.height()) >= report.minPlot - tol;
            }
            if (!legible)
                out << QStringLiteral("a panel without a legible plot (at least %1 px; the largest %2 × %3): %4")
                           .arg(report.minPlot, 0, 'f', 0)
                           .arg(largest.width(), 0, 'f', 0)
                           .arg(largest.height(), 0, 'f', 0)
                           .arg(describe(P));
        }
    return out;
}

namespace {
// Whether colour `c` lies within `tol` (per channel) of the blend of `a` and `b`.
bool nearBlend(QRgb c, const QColor& a, const QColor& b, int tol) {
    const double ar = a.red(), ag = a.green(), ab = a.blue();
    const double dr = b.red() - ar, dg = b.green() - ag, db = b.blue() - ab;
    const double len2 = dr * dr + dg * dg + db * db;
    const double cr = qRed(c), cg = qGreen(c), cb = qBlue(c);
    double t = len2 > 0 ? ((cr - ar) * dr + (cg - ag) * dg + (cb - ab) * db) / len2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    return std::abs(cr - (ar + t * dr)) <= tol && std::abs(cg - (ag + t * dg)) <= tol && std::abs(cb - (ab + t * db)) <= tol;
}
}  // namespace

QStringList layoutInkProblems(const LayoutReport& report, const QImage& image, const Theme& t) {
    QStringList out;
    // A figure's pixels are opaque (its background fills it): premultiplied or not, the same.
    const bool direct = image.format() == QImage::Format_RGB32 || image.format() == QImage::Format_ARGB32 ||
                        image.format() == QImage::Format_ARGB32_Premultiplied;
    const QImage img = direct ? image : image.convertToFormat(QImage::Format_ARGB32);
    constexpr int kTol = 24;
    for (const LayoutItem& item : report.items) {
        if (item.kind != LayoutItemKind::Text || !item.unpainted) continue;
        // The text's ink less a pixel all round (antialiased edges of neighbours may touch it).
        const QRect r = item.rect.adjusted(1, 1, -1, -1).toAlignedRect().intersected(img.rect());
        if (r.isEmpty()) continue;
        int ink = 0;
        for (int y = r.top(); y <= r.bottom(); ++y) {
            const auto* line = reinterpret_cast<const QRgb*>(img.constScanLine(y));
            for (int x = r.left(); x <= r.right(); ++x) {
                const QRgb c = line[x];
                if (!nearBlend(c, t.background, t.grid, kTol) && !nearBlend(c, t.panel, t.grid, kTol) &&
                    !nearBlend(c, t.background, t.panel, kTol))
                    ++ink;
            }
        }
        // A few stray pixels are forgiven (a tick's antialiased end); a line through the label is not.
        if (ink > 2 + r.width() * r.height() / 50)
            out << QStringLiteral("text over ink (%1 of %2 pixels): %3 \"%4\" [%5, %6, %7 × %8]")
                       .arg(ink)
                       .arg(r.width() * r.height())
                       .arg(item.view, item.text)
                       .arg(item.rect.x(), 0, 'f', 0)
                       .arg(item.rect.y(), 0, 'f', 0)
                       .arg(item.rect.width(), 0, 'f', 0)
                       .arg(item.rect.height(), 0, 'f', 0);
    }
    return out;
}

}  // namespace poslab::ui
