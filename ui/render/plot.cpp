#include "ui/render/plot.h"
#include "core/format.h"

#include "ui/render/layout.h"
#include "ui/render/typeset.h"

#include <QAbstractTextDocumentLayout>
#include <QFontMetricsF>
#include <QLineF>
#include <QPolygonF>
#include <QPaintEngine>
#include <QPainterPath>
#include <QSet>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextLayout>

#include <algorithm>
#include <cmath>
#include <optional>

namespace poslab::ui::plot {

double Axis::map(double v) const {
    double t;
    if (log) {
        // log10 of the ends once per range (a plot maps thousands of values per picture).
        if (logOf_[0] != lo || logOf_[1] != hi) {
            logOf_[0] = lo;
            logOf_[1] = hi;
            logEnds_[0] = std::log10(std::max(lo, 1e-300));
            logEnds_[1] = std::log10(std::max(hi, 1e-300));
        }
        const double l0 = logEnds_[0], l1 = logEnds_[1];
        t = (std::log10(std::max(v, 1e-300)) - l0) / (l1 - l0 == 0 ? 1 : l1 - l0);
    } else {
        t = (v - lo) / (hi - lo == 0 ? 1 : hi - lo);
    }
    return a + t * (b - a);
}

double Axis::unmap(double px) const {
    const double t = (px - a) / (b - a == 0 ? 1 : b - a);
    if (log) {
        const double l0 = std::log10(std::max(lo, 1e-300)), l1 = std::log10(std::max(hi, 1e-300));
        return std::pow(10.0, l0 + t * (l1 - l0));
    }
    return lo + t * (hi - lo);
}

std::vector<double> ticks(double lo, double hi, int maxTicks, bool log) {
    std::vector<double> out;
    if (!std::isfinite(lo) || !std::isfinite(hi)) return out;
    if (hi < lo) std::swap(lo, hi);
    maxTicks = std::max(maxTicks, 2);
    if (log) {
        if (hi <= 0) return out;
        lo = std::max(lo, hi * 1e-300);
        const int e0 = static_cast<int>(std::ceil(std::log10(lo) - 1e-9));
        const int e1 = static_cast<int>(std::floor(std::log10(hi) + 1e-9));
        const int decades = e1 - e0 + 1;
        const int step = std::max(1, static_cast<int>(std::ceil(double(decades) / maxTicks)));
        for (int e = e0; e <= e1; e += step) out.push_back(std::pow(10.0, e));
        if (decades <= 2) {
            std::vector<double> more;
            for (int e = e0 - 1; e <= e1; ++e)
                for (double m : {2.0, 5.0}) {
                    const double v = m * std::pow(10.0, e);
                    if (v >= lo && v <= hi) more.push_back(v);
                }
            out.insert(out.end(), more.begin(), more.end());
            std::sort(out.begin(), out.end());
        }
        return out;
    }
    if (hi == lo) return {lo};
    return stepTicks(lo, hi, tickStep(lo, hi, maxTicks), maxTicks);
}

double tickStep(double lo, double hi, int maxTicks) {
    const double raw = (hi - lo) / std::max(maxTicks, 1);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        step = m * mag;
        if (step >= raw) break;
    }
    return step;
}

std::vector<double> stepTicks(double lo, double hi, double step, int cap) {
    std::vector<double> out;
    if (!(step > 0) || !std::isfinite(lo) || !std::isfinite(hi)) return out;
    const double k0 = std::ceil(lo / step - 1e-9), n = std::floor(hi / step + 1e-9) - k0;
    for (int i = 0; i <= int(std::min(n, double(std::max(cap, 0)))); ++i) {
        const double v = (k0 + i) * step;
        out.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
    }
    return out;
}

std::int64_t integerTickStep(std::int64_t lo, std::int64_t hi, int maxTicks) {
    if (hi < lo) std::swap(lo, hi);
    const double raw = double(hi - lo) / double(std::max(maxTicks, 1));
    std::int64_t step = 1;
    for (std::int64_t mag = 1; step < raw && mag <= (std::int64_t{1} << 60) / 10; mag *= 10) {
        for (std::int64_t m : {1, 2, 5}) {
            step = m * mag;
            if (double(step) >= raw) break;
        }
    }
    return step;
}

std::vector<std::int64_t> integerTicks(std::int64_t lo, std::int64_t hi, int maxTicks) {
    if (hi < lo) std::swap(lo, hi);
    maxTicks = std::max(maxTicks, 1);
    std::int64_t step = integerTickStep(lo, hi, maxTicks);
    const auto ticksOf = [&](std::int64_t st) {
        std::vector<std::int64_t> out;
        const std::int64_t first = lo >= 0 ? (lo + st - 1) / st * st : -((-lo) / st * st);
        for (std::int64_t v = first; v <= hi; v += st) out.push_back(v);
        return out;
    };
    std::vector<std::int64_t> out = ticksOf(step);
    // An axis needs two ticks to carry a scale: where the nice step leaves one (0 … 47 with room
    // for two: a step of 50), the next smaller 1-2-5 step.
    while (out.size() < 2 && step > 1 && hi > lo) {
        const std::int64_t mag = [&] { std::int64_t m = 1; while (m * 10 <= step) m *= 10; return m; }();
        const std::int64_t lead = step / mag;
        step = lead == 5 ? 2 * mag : lead == 2 ? mag : mag / 2 > 0 ? mag / 2 : 1;
        if (lead == 1 && mag >= 10) step = mag / 2;   // 10 → 5, 100 → 50
        out = ticksOf(step);
    }
    return out;
}

namespace {
// tickLabel() at `digits` significant digits.
QString labelAt(double v, bool log, int digits) {
    if (v == 0) return QStringLiteral("0");
    const double av = std::abs(v);
    if (log) {
        const double e = std::log10(av);
        if (std::abs(e - std::round(e)) < 1e-9) {
            const int k = static_cast<int>(std::round(e));
            if (k >= -3 && k <= 4) return QString::fromStdString(formatReadable(v, digits));
            return QStringLiteral("1e%1").arg(k);
        }
    }
    if (av >= 1e-3 && av < 1e6 && std::abs(v - std::round(v)) < 1e-9 * std::max(1.0, av))
        return QString::number(static_cast<long long>(std::llround(v)));
    return QString::fromStdString(formatReadable(v, digits));
}

QStringList oneWay(const std::vector<double>& values, QStringList out, int digits) {
    const bool exponent = std::any_of(out.begin(), out.end(), [](const QString& s) { return s.contains(QLatin1Char('e')); });
    if (!exponent) return out;
    for (std::size_t i = 0; i < values.size(); ++i)
        if (values[i] != 0 && std::isfinite(values[i])) out[qsizetype(i)] = QString::fromStdString(formatScientific(values[i], digits));
    return out;
}
}  // namespace

QString tickLabel(double v, bool log) { return labelAt(v, log, 4); }

QStringList tickLabels(const std::vector<double>& values, bool log) {
    // 4 significant digits, more when two different values would read the same ("1" for 0.99995
    // and 1.00005 on a narrow range).
    QStringList out;
    for (int digits = 4; digits <= 17; ++digits) {
        out.clear();
        for (double v : values) out << labelAt(v, log, digits);
        out = oneWay(values, out, digits);
        bool apart = true;
        for (std::size_t i = 1; i < values.size() && apart; ++i)
            for (std::size_t j = 0; j < i && apart; ++j)
                apart = values[i] == values[j] || out[qsizetype(i)] != out[qsizetype(j)];
        if (apart) break;
    }
    return out;
}

QStringList labelsOneWay(const std::vector<double>& values, QStringList out) { return oneWay(values, std::move(out), 4); }

double lineHeight(const QFont& f) { return QFontMetricsF(f).height(); }

ThemeFonts themeFonts(const Theme& t) {
    ThemeFonts f{t.titleFont(), t.bodyFont(), t.smallFont()};
    f.lhT = lineHeight(f.title);
    f.lh = lineHeight(f.body);
    f.slh = lineHeight(f.small);
    return f;
}

QString frequencySymbol(Method m) { return typeset(m == Method::Sinusoidal ? QStringLiteral("w_i") : QStringLiteral("θ_i")); }

QString countText(std::int64_t v) {
    QString digits = QString::number(v < 0 ? -static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v));
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(i, QChar(0x2009));
    return v < 0 ? QStringLiteral("−") + digits : digits;
}

namespace {
QRectF textAt(QPainter& p, const QPointF& at, const QString& raw, Align h, const QColor& c, bool elided) {
    const QString s = typeset(raw);
    const QFontMetricsF fm(p.font());
    const double w = fm.horizontalAdvance(s);
    const double ht = fm.height();
    double x = at.x();
    if (h == Align::Center) x -= w / 2;
    if (h == Align::Right) x -= w;
    const QRectF r(x, at.y() - ht / 2, w, ht);
    const bool paint = layoutPaintsText();   // off: the ink check sees what the text covers
    if (paint) {
        p.save();
        if (c.isValid()) p.setPen(c);
        p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, s);
        p.restore();
    }
    // The report holds the text's ink (what could cover other ink), not its line box.
    if (layoutCapturing() && !s.isEmpty())
        layoutRecord(p, LayoutItemKind::Text, fm.tightBoundingRect(s).translated(r.left(), r.top() + fm.ascent()), s,
                     elided || s.contains(QChar(0x2026)), paint);
    return r;
}
}  // namespace

QRectF text(QPainter& p, const QPointF& at, const QString& s, Align h, const QColor& c) { return textAt(p, at, s, h, c, false); }

QRectF text(QPainter& p, const QPointF& at, const FittedText& s, Align h, const QColor& c) {
    return textAt(p, at, s.text, h, c, s.elided);
}

QRectF fittedLine(QPainter& p, const QRectF& r, const QStringList& forms, const QColor& c, const QFont& font) {
    p.setFont(font);
    return text(p, QPointF(r.left(), r.center().y()), fitText(forms, font, r.width()), Align::Left, c);
}

void verticalText(QPainter& p, const QPointF& at, const QString& s, const QColor& c) {
    p.save();
    p.translate(at);
    p.rotate(-90);
    text(p, QPointF(0, 0), s, Align::Center, c);
    p.restore();
}

QRectF recordedText(QPainter& p, const QRectF& r, int flags, const QString& s, QRectF* used) {
    QRectF u;
    // A capture that does not paint text (LayoutCapture::setPaintText) sees what lies under it.
    const bool paint = layoutPaintsText();
    if (paint) p.drawText(r, flags, s, &u);
    else u = p.boundingRect(r, flags, s);
    if (used) *used = u;
    // Where the ink is, also where it runs past `r` (drawText does not clip): the report shows it.
    if (layoutCapturing() && !s.trimmed().isEmpty()) layoutRecord(p, LayoutItemKind::Text, u, s, false, paint);
    return u;
}

void recordedText(QPainter& p, const QPointF& baseline, const QString& s) {
    const bool paint = layoutPaintsText();
    if (paint) p.drawText(baseline, s);
    if (!layoutCapturing() || s.trimmed().isEmpty()) return;
    const QFontMetricsF fm(p.font(), p.device());
    layoutRecord(p, LayoutItemKind::Text, QRectF(baseline.x(), baseline.y() - fm.ascent(), fm.horizontalAdvance(s), fm.height()), s, false,
                 paint);
}

void configColumns(QPainter& p, const QRectF& rect, int count, const Theme& t,
                   const std::function<void(QPainter&, const QRectF&, int)>& panel) {
    p.save();
    p.fillRect(rect, t.background);
    p.setRenderHint(QPainter::Antialiasing, true);
    const double w = rect.width() / std::max(1, count);
    for (int i = 0; i < count; ++i) {
        const QRectF r(rect.left() + i * w, rect.top(), w, rect.height());
        p.save();
        p.setClipRect(r);
        panel(p, r, i);
        p.restore();
    }
    p.restore();
}

namespace {
// An exponent typeset() leaves as written ("base^(2i/r)": a script without Unicode forms) as
// rich text: the group raised and smaller (<sup>), its parentheses dropped; nullopt without one.
// `plain`: what the reader sees, without the caret and the parentheses ("1/base2i/r").
std::optional<QString> superscriptHtml(const QString& s, QString* plain = nullptr) {
    if (!s.contains(QStringLiteral("^(")) && !s.contains(QStringLiteral("^{"))) return std::nullopt;
    QString html, text;
    for (qsizetype i = 0; i < s.size(); ++i) {
        const QChar c = s[i];
        if (c == QLatin1Char('^') && i > 0 && i + 1 < s.size() && (s[i + 1] == QLatin1Char('(') || s[i + 1] == QLatin1Char('{'))) {
            const QChar open = s[i + 1], close = open == QLatin1Char('(') ? QLatin1Char(')') : QLatin1Char('}');
            int depth = 0;
            qsizetype end = -1;
            for (qsizetype j = i + 1; j < s.size() && end < 0; ++j) {
                if (s[j] == open) ++depth;
                else if (s[j] == close && --depth == 0) end = j;
            }
            if (end > i + 2) {
                const QString group = s.mid(i + 2, end - i - 2);
                html += QStringLiteral("<sup>") + group.toHtmlEscaped() + QStringLiteral("</sup>");
                text += group;
                i = end;
                continue;
            }
        }
        if (c == QLatin1Char('\n')) html += QStringLiteral("<br>");
        else html += QString(c).toHtmlEscaped();
        text += c;
    }
    if (plain) *plain = text;
    return QStringLiteral("<span style=\"white-space: pre-wrap\">") + html + QStringLiteral("</span>");
}

void setUpDocument(QTextDocument& doc, const QFont& font, double width, const QString& html) {
    doc.setDocumentMargin(0);
    doc.setDefaultFont(font);
    doc.setTextWidth(width);
    doc.setHtml(html);
    // The exponent raised at the text's own size, not Qt's two thirds of it: the smallest text
    // of a figure is its font (a slide's legible minimum, layout.h legibleTextPx), exponents too.
    std::vector<std::pair<int, int>> scripts;   // position, length
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextFragment f = it.fragment();
            if (f.isValid() && f.charFormat().verticalAlignment() == QTextCharFormat::AlignSuperScript) scripts.emplace_back(f.position(), f.length());
        }
    constexpr double kRaise = 35;   // percent of the line's height
    for (const auto& [at, length] : scripts) {
        QTextCursor c(&doc);
        c.setPosition(at);
        c.setPosition(at + length, QTextCursor::KeepAnchor);
        QTextCharFormat raised;
        raised.setVerticalAlignment(QTextCharFormat::AlignNormal);
        raised.setBaselineOffset(kRaise);
        c.mergeCharFormat(raised);
    }
    // A script on the first line rises above the line's top: the document starts lower by what
    // sticks out, so that the text's rectangle holds its ink (a view's clip cut the top of the
    // frequency plot's "base²ⁱᐟʳ" header on a slide).
    doc.size();   // lays it out
    const QTextLayout* first = doc.begin().layout();
    if (!first || first->lineCount() == 0) return;
    const int firstEnd = doc.begin().position() + first->lineAt(0).textStart() + first->lineAt(0).textLength();
    const QFontMetricsF fm(font);
    double out = 0;
    for (const auto& [at, length] : scripts) {
        if (at >= firstEnd) continue;
        const QString script = doc.toPlainText().mid(at, length);
        const double inkTop = -fm.tightBoundingRect(script).top() + fm.height() * kRaise / 100.0;
        out = std::max(out, inkTop - first->lineAt(0).ascent());
    }
    if (out > 0) {
        QTextFrameFormat f = doc.rootFrame()->frameFormat();
        f.setTopMargin(std::ceil(out) + 1);
        doc.rootFrame()->setFrameFormat(f);
    }
}

// Wrapped text without an orphan: a bracket closing the text (at most 16 characters: "(t, h or
// w)", "(N = 8192)") is kept whole, and a last word of at most three characters ("w)", "b") goes
// to its line with the word before it (no-break spaces), in each paragraph.
QString withoutOrphans(const QString& s) {
    QStringList paragraphs = s.split(QLatin1Char('\n'));
    for (QString& para : paragraphs) {
        QString t = para;
        while (t.endsWith(QLatin1Char(' '))) t.chop(1);
        if (t.endsWith(QLatin1Char(')'))) {
            int depth = 0;
            qsizetype open = -1;
            for (qsizetype i = t.size() - 1; i >= 0 && open < 0; --i) {
                if (t[i] == QLatin1Char(')')) ++depth;
                else if (t[i] == QLatin1Char('(') && --depth == 0) open = i;
            }
            if (open >= 0 && t.size() - open <= 16)
                for (qsizetype i = open; i < t.size(); ++i)
                    if (t[i] == QLatin1Char(' ')) t[i] = QChar(0x00A0);
        }
        const qsizetype space = t.lastIndexOf(QLatin1Char(' '));
        if (space > 0 && t.size() - space - 1 <= 3 && t.left(space).trimmed().contains(QLatin1Char(' '))) t[space] = QChar(0x00A0);
        para = t + para.mid(t.size());
    }
    return paragraphs.join(QLatin1Char('\n'));
}
}  // namespace

double wrappedTextHeight(const QFont& font, double width, const QString& raw) {
    const QString s = withoutOrphans(typeset(raw));
    if (const auto html = superscriptHtml(s)) {
        QTextDocument doc;
        setUpDocument(doc, font, width, *html);
        return doc.size().height();
    }
    return QFontMetricsF(font).boundingRect(QRectF(0, 0, width, 1e6), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, s).height();
}

double wrappedText(QPainter& p, const QRectF& r, const QString& raw, const QColor& c) {
    // Text that does not fit the rectangle's height is shortened by rule (whole words, then "…"),
    // never drawn over what lies below it.
    const QString s = withoutOrphans(typeset(raw));
    // An exponent with no Unicode form is drawn raised (rich text) where the whole text fits.
    QString plain;
    if (const auto html = superscriptHtml(s, &plain)) {
        QTextDocument doc;
        setUpDocument(doc, p.font(), r.width(), *html);
        if (r.height() <= 0 || doc.size().height() <= r.height() + 0.5) {
            const QRectF used(r.topLeft(), QSizeF(std::min(r.width(), doc.idealWidth()), doc.size().height()));
            const bool paint = layoutPaintsText();
            if (paint) {
                p.save();
                p.translate(r.topLeft());
                QAbstractTextDocumentLayout::PaintContext ctx;
                ctx.palette.setColor(QPalette::Text, c);
                doc.documentLayout()->draw(&p, ctx);
                p.restore();
            }
            layoutRecord(p, LayoutItemKind::Text, used, plain, false, paint);
            return used.height();
        }
    }
    constexpr int flags = Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap;
    const QFontMetricsF fm(p.font());
    const auto heightOf = [&](const QString& x) { return fm.boundingRect(r, flags, x).height(); };
    QString text = s;
    if (r.height() > 0 && heightOf(text) > r.height() + 0.5) {
        qsizetype lo = 0, hi = s.size();
        while (lo < hi) {
            const qsizetype mid = (lo + hi + 1) / 2;
            if (heightOf(s.left(mid).trimmed() + QStringLiteral("…")) <= r.height() + 0.5) lo = mid;
            else hi = mid - 1;
        }
        // Back to a word boundary where there is one.
        qsizetype cut = lo;
        while (cut > 0 && cut < s.size() && !s.at(cut).isSpace()) --cut;
        if (cut == 0) cut = lo;
        text = lo > 0 ? s.left(cut).trimmed() + QStringLiteral("…") : QString();
        if (text.isEmpty()) return 0.0;
    }
    QRectF used;
    const bool paint = layoutPaintsText();
    if (paint) {
        p.save();
        p.setPen(c);
        p.drawText(r, flags, text, &used);
        p.restore();
    } else {
        used = p.boundingRect(r, flags, text);
    }
    layoutRecord(p, LayoutItemKind::Text, used, text, false, paint);
    return used.height();
}

QMarginsF axesMargins(const Theme& t, bool xLabel, bool yLabel) {
    return axesMargins(t, xLabel, yLabel, QFontMetricsF(t.smallFont()).horizontalAdvance(QStringLiteral("−0.0000")));
}

QMarginsF axesMargins(const Theme& t, bool xLabel, bool yLabel, double tickW) {
    const double h = lineHeight(t.smallFont());
    const double hb = lineHeight(t.bodyFont());   // axis titles are in the body font
    return QMarginsF(tickW + 10 + (yLabel ? hb + 2 : 0), h * 0.6, h * 0.8, h + 6 + (xLabel ? hb + 2 : 0));
}

double tickLabelWidth(const Theme& t, double lo, double hi, bool log, int maxTicks) {
    const QFontMetricsF fm(t.smallFont());
    double w = 0;
    // The widest over every tick count up to `maxTicks` (the axis may draw any of them); most
    // counts give the same ticks, and each label is measured once.
    std::vector<double> last;
    QSet<QString> measured;
    for (int n = 2; n <= maxTicks; ++n) {
        std::vector<double> t = ticks(lo, hi, n, log);
        if (t == last) continue;
        for (const QString& s : tickLabels(t, log))
            if (!measured.contains(s)) {
                measured.insert(s);
                w = std::max(w, fm.horizontalAdvance(typeset(s)));
            }
        last = std::move(t);
    }
    return w;
}

void axes(QPainter& p, const QRectF& plot, const Axis& x, const Axis& y, const Theme& t, const QString& xLabel,
          const QString& yLabel, bool grid, int maxTicksX, int maxTicksY) {
    axes(p, plot, x, y, t, xLabel.isEmpty() ? QStringList{} : QStringList{xLabel}, yLabel.isEmpty() ? QStringList{} : QStringList{yLabel},
         grid, maxTicksX, maxTicksY);
}

void axes(QPainter& p, const QRectF& plot, const Axis& x, const Axis& y, const Theme& t, const QStringList& xLabel,
          const QStringList& yLabel, bool grid, int maxTicksX, int maxTicksY) {
    AxisTicks xt{ticks(x.lo, x.hi, maxTicksX, x.log), {}, {}}, yt{ticks(y.lo, y.hi, maxTicksY, y.log), {}, {}};
    xt.labels = tickLabels(xt.values, x.log);
    yt.labels = tickLabels(yt.values, y.log);
    axes(p, plot, x, y, t, xLabel, yLabel, xt, yt, grid);
}

void axes(QPainter& p, const QRectF& plot, const Axis& x, const Axis& y, const Theme& t, const QStringList& xLabel,
          const QStringList& yLabel, const AxisTicks& xt, const AxisTicks& yt, bool grid) {
    p.save();
    p.setFont(t.smallFont());
    const double h = lineHeight(t.smallFont());
    QPen gridPen(t.grid, 1);
    QPen axisPen(t.foreground, t.axisWidth);
    if (grid && (!xt.minor.empty() || !yt.minor.empty())) {
        // Minor grid lines, fainter than the major ones (between a log axis' decades).
        p.setPen(QPen(t.grid.lighter(t.background.lightness() < 128 ? 80 : 104), 1));
        for (double v : xt.minor) p.drawLine(QPointF(x.map(v), plot.top()), QPointF(x.map(v), plot.bottom()));
        for (double v : yt.minor) p.drawLine(QPointF(plot.left(), y.map(v)), QPointF(plot.right(), y.map(v)));
    }
    double maxLabelW = 0;
    double lastY = -1e300, lastRight = -1e300;
    // Labels of one axis stay a space apart (closer, "10" and "20" read as "1020").
    const double gap = std::max(4.0, QFontMetricsF(t.smallFont()).horizontalAdvance(QLatin1Char(' ')));
    std::optional<LayoutGroup> group;   // each axis' tick labels, one group
    group.emplace();
    for (std::size_t i = 0; i < xt.values.size(); ++i) {
        const double v = xt.values[i];
        const double px = x.map(v);
        if (grid) {
            p.setPen(gridPen);
            p.drawLine(QPointF(px, plot.top()), QPointF(px, plot.bottom()));
        }
        p.setPen(axisPen);
        p.drawLine(QPointF(px, plot.bottom()), QPointF(px, plot.bottom() + 4));
        if (qsizetype(i) >= xt.labels.size()) continue;
        const QString& label = xt.labels[qsizetype(i)];
        const double w = QFontMetricsF(t.smallFont()).horizontalAdvance(typeset(label));
        // A label at the right end moves left to end with the plot (never past the figure's edge).
        const double cx = std::min(px, plot.right() - w / 2);
        if (cx - w / 2 < lastRight + gap) continue;
        lastRight = cx + w / 2;
        text(p, QPointF(cx, plot.bottom() + 4 + h / 2), label, Align::Center, t.muted);
    }
    group.reset();
    group.emplace();
    for (std::size_t i = 0; i < yt.values.size(); ++i) {
        const double py = y.map(yt.values[i]);
        if (grid) {
            p.setPen(gridPen);
            p.drawLine(QPointF(plot.left(), py), QPointF(plot.right(), py));
        }
        p.setPen(axisPen);
        p.drawLine(QPointF(plot.left() - 4, py), QPointF(plot.left(), py));
        // A label that would touch the previous one is left out (the tick stays).
        if (std::abs(py - lastY) < h * 0.9 || qsizetype(i) >= yt.labels.size()) continue;
        lastY = py;
        const QRectF r = text(p, QPointF(plot.left() - 6, py), yt.labels[qsizetype(i)], Align::Right, t.muted);
        maxLabelW = std::max(maxLabelW, r.width());
    }
    group.reset();
    p.setPen(axisPen);
    p.setBrush(Qt::NoBrush);
    p.drawRect(plot);
    layoutRecord(p, LayoutItemKind::Plot, plot);
    p.setFont(t.bodyFont());
    const double hb = lineHeight(t.bodyFont());
    // Titles as they fit along their axis (a parenthesis dropped first: layout.h fitText).
    if (!xLabel.isEmpty())
        text(p, QPointF(plot.center().x(), plot.bottom() + 6 + h + hb / 2), fitText(xLabel, t.bodyFont(), plot.width()), Align::Center,
             t.foreground);
    if (!yLabel.isEmpty()) {
        p.save();
        p.translate(QPointF(plot.left() - 10 - maxLabelW - hb / 2, plot.center().y()));
        p.rotate(-90);
        text(p, QPointF(0, 0), fitText(yLabel, t.bodyFont(), plot.height()), Align::Center, t.foreground);
        p.restore();
    }
    p.restore();
}

namespace {

// The points of a polyline less those within `tolerance` of the chord that skips them (greedy:
// from each kept point, as far along as every skipped point stays that close and between the
// chord's ends). The first and last points stay.
QPolygonF simplified(const QPolygonF& in, double tolerance) {
    if (in.size() < 3) return in;
    QPolygonF out;
    out.reserve(in.size());
    out << in.front();
    qsizetype anchor = 0;
    for (qsizetype i = 2; i < in.size(); ++i) {
        const QPointF a = in[anchor], d = in[i] - a;
        const double len2 = QPointF::dotProduct(d, d), len = std::sqrt(len2);
        // (At most 64 points skipped per chord: a straight run would otherwise cost its length squared.)
        bool close = len > 0 && i - anchor <= 64;
        for (qsizetype k = anchor + 1; close && k < i; ++k) {
            const QPointF e = in[k] - a;
            const double along = QPointF::dotProduct(e, d);
            close = std::abs(d.x() * e.y() - d.y() * e.x()) <= tolerance * len && along >= 0 && along <= len2;
        }
        if (!close) {
            out << in[i - 1];
            anchor = i - 1;
        }
    }
    out << in.back();
    return out;
}

}  // namespace

void polyline(QPainter& p, const QPolygonF& points, const QPen& pen) {
    const double w = pen.widthF();
    const bool simple = pen.style() == Qt::SolidLine || pen.style() == Qt::DashLine || pen.style() == Qt::DotLine ||
                        pen.style() == Qt::DashDotLine || pen.style() == Qt::DashDotDotLine;
    const QTransform& m = p.worldTransform();
    // Only on raster images and screens (a PDF or SVG keeps the polyline as one path), and for
    // square caps (the segments' caps are what covers the joins).
    const bool raster = p.paintEngine() && p.paintEngine()->type() == QPaintEngine::Raster;
    if (points.size() < 2 || !raster || pen.isCosmetic() || w <= 1 || !simple || pen.capStyle() != Qt::SquareCap || !m.isAffine() ||
        std::abs(m.m12()) > 1e-9 || std::abs(m.m21()) > 1e-9) {
        p.setPen(pen);
        p.drawPolyline(points);
        return;
    }
    // A quarter of a device pixel: no point closer than that to the line without it matters (and
    // fewer, longer segments overlap less at their caps: the same ink as the joined stroke).
    const double scale = std::max(std::abs(m.m11()), std::abs(m.m22())) * (p.device() ? p.device()->devicePixelRatioF() : 1.0);
    const QPolygonF line = simplified(points, 0.25 / std::max(scale, 1e-9));
    QPen solid = pen;
    solid.setStyle(Qt::SolidLine);
    solid.setCapStyle(Qt::SquareCap);
    p.setPen(solid);
    std::vector<QLineF> lines;
    lines.reserve(std::size_t(line.size()));
    if (pen.style() == Qt::SolidLine) {
        for (qsizetype i = 1; i < line.size(); ++i)
            if (line[i] != line[i - 1]) lines.emplace_back(line[i - 1], line[i]);
    } else {
        // The pen's pattern in pixels (QPen::dashPattern is in pen widths), walked along the whole
        // line; each dash as its segments, their square caps reaching half a width beyond its
        // ends as QPainter's own dashes do.
        std::vector<double> pattern;
        for (double d : pen.dashPattern()) pattern.push_back(std::max(d * w, 0.5));
        if (pattern.empty()) pattern = {w, w};
        if (pattern.size() % 2 == 1) pattern.push_back(pattern.back());
        std::size_t k = 0;           // the pattern's current entry (even: dash, odd: gap)
        double left = pattern[0];    // what is left of it
        for (qsizetype i = 1; i < line.size(); ++i) {
            const QPointF a = line[i - 1], b = line[i];
            const double len = QLineF(a, b).length();
            if (!(len > 0)) continue;
            const QPointF u = (b - a) / len;
            double t = 0;
            while (t < len) {
                const double step = std::min(left, len - t);
                if (k % 2 == 0 && step > 0) lines.emplace_back(a + u * t, a + u * (t + step));
                t += step;
                left -= step;
                if (left <= 1e-9) {
                    k = (k + 1) % pattern.size();
                    left = pattern[k];
                }
            }
        }
    }
    if (!lines.empty()) p.drawLines(lines.data(), int(lines.size()));
}

void arrow(QPainter& p, const QPointF& from, const QPointF& to, double head) {
    p.drawLine(from, to);
    const QPointF d = to - from;
    const double len = std::hypot(d.x(), d.y());
    if (len < 1e-6) return;
    const QPointF u = d / len;
    const QPointF n(-u.y(), u.x());
    const double hl = std::min(head, len * 0.6);
    const QPointF tri[3] = {to, to - u * hl + n * hl * 0.45, to - u * hl - n * hl * 0.45};
    const QPen pen = p.pen();
    p.save();
    if (pen.style() == Qt::SolidLine && pen.joinStyle() == Qt::BevelJoin && !pen.isCosmetic() && pen.widthF() > 0) {
        // The head filled and outlined in the pen is the triangle grown by half the pen's width,
        // its corners bevelled: that hexagon, filled (stroking the outline costs ten times more:
        // the pair dials draw dozens of arrows per frame).
        const QPointF centre = (tri[0] + tri[1] + tri[2]) / 3;
        const double h = pen.widthF() / 2;
        const auto outward = [&](const QPointF& a, const QPointF& b) {
            const QPointF e = b - a;
            const double l = std::hypot(e.x(), e.y());
            QPointF m = l > 0 ? QPointF(-e.y(), e.x()) / l : QPointF();
            if (QPointF::dotProduct(m, centre - a) > 0) m = -m;
            return m * h;
        };
        QPolygonF hexagon;
        for (int i = 0; i < 3; ++i) {
            const QPointF& v = tri[i];
            hexagon << v + outward(tri[(i + 2) % 3], v) << v + outward(v, tri[(i + 1) % 3]);
        }
        p.setPen(Qt::NoPen);
        p.setBrush(pen.color());
        p.drawPolygon(hexagon);
    } else {
        p.setBrush(pen.color());
        p.drawPolygon(tri, 3);
    }
    p.restore();
}

}  // namespace poslab::ui::plot
