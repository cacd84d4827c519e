#include "ui/teaching/presentation.h"

#include "ui/io/export.h"
#include "ui/render/layout.h"
#include "ui/render/plot.h"
#include "ui/teaching/demopanel.h"
#include "ui/teaching/demoscenes.h"
#include "ui/teaching/formulapanel.h"

#include <QCloseEvent>
#include <QFontMetricsF>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <limits>
#include <cmath>

namespace poslab::ui {

// ============================================================================ arrangement
std::vector<ViewKind> slideViews(const SessionScene& slide) {
    if (slide.slide.arrangement == SlideArrangement::Auto || slide.slide.views.empty()) return visibleViews(slide.scene);
    return slide.slide.views;
}

std::vector<QRectF> slideViewRects(SlideArrangement arrangement, int n, const QRectF& area, qreal gap) {
    // The layout engine's (ui/render/layout.h): the same rules as the window and every figure.
    if (n <= 0 || area.isEmpty()) return {};
    // A demonstration's two views: stacked or side by side, whichever gives each the larger short
    // side.
    const qreal halfW = (area.width() - gap) / 2, halfH = (area.height() - gap) / 2;
    const bool stack = arrangement == SlideArrangement::Demo && std::min(area.width(), halfH) > std::min(halfW, area.height());
    const ArrangementKind kind = n == 1 ? ArrangementKind::Single
                                 : n == 2 ? (stack ? ArrangementKind::Column : ArrangementKind::Row)
                                          : ArrangementKind::Grid;
    return placeRects(area, kind, n, gap);
}

double slideMinTextPx(double height, double textScale) { return legibleTextPx(height) * textScale; }

QString slideSpeakerNotes(const SessionScene& slide) {
    QString notes = slideNotesText(slide);
    if (const auto demo = demoOfSlide(slide)) {
        const QString numbers = demoSpeakerNotes(*demo);
        if (!numbers.isEmpty()) notes += (notes.isEmpty() ? QString() : QStringLiteral("\n\n")) + numbers;
    }
    return notes;
}

// ============================================================================ overlay
AnnotationOverlay::AnnotationOverlay(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("annotationOverlay"));
    setAttribute(Qt::WA_TranslucentBackground);
    setAttribute(Qt::WA_NoSystemBackground);
    setAttribute(Qt::WA_TransparentForMouseEvents, true);
    setMouseTracking(true);
    setFocusPolicy(Qt::NoFocus);
}

void AnnotationOverlay::setTool(Tool t) {
    tool_ = t;
    drawing_ = false;
    setAttribute(Qt::WA_TransparentForMouseEvents, t == Tool::None);
    setCursor(t == Tool::Pen ? Qt::CrossCursor : t == Tool::Pointer ? Qt::BlankCursor : Qt::ArrowCursor);
    if (t != Tool::Pointer) pointer_ = QPointF(-100, -100);
    update();
}

void AnnotationOverlay::clear() {
    strokes_.clear();
    update();
    Q_EMIT strokesChanged();
}

void AnnotationOverlay::setStrokes(const std::vector<Stroke>& s) {
    strokes_ = s;
    update();
}

void AnnotationOverlay::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QColor ink(220, 0, 80);
    p.setPen(QPen(ink, penWidth_, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p.setBrush(Qt::NoBrush);
    for (const auto& s : strokes_) {
        if (s.size() == 1) {
            p.drawPoint(s.front());
            continue;
        }
        QPainterPath path;
        path.moveTo(s.front());
        for (std::size_t i = 1; i < s.size(); ++i) path.lineTo(s[i]);
        p.drawPath(path);
    }
    if (tool_ == Tool::Pointer && rect().contains(pointer_.toPoint())) {
        // A laser dot with a halo, visible on white and on colour.
        const qreal r = std::max<qreal>(9, height() / 90.0);
        QRadialGradient g(pointer_, r * 2.2);
        g.setColorAt(0, QColor(255, 0, 0, 200));
        g.setColorAt(0.45, QColor(255, 0, 0, 120));
        g.setColorAt(1, QColor(255, 0, 0, 0));
        p.setPen(Qt::NoPen);
        p.setBrush(g);
        p.drawEllipse(pointer_, r * 2.2, r * 2.2);
        p.setBrush(QColor(255, 20, 20));
        p.drawEllipse(pointer_, r * 0.55, r * 0.55);
    }
}

void AnnotationOverlay::mousePressEvent(QMouseEvent* e) {
    if (tool_ == Tool::Pen && e->button() == Qt::LeftButton) {
        strokes_.push_back({e->position()});
        drawing_ = true;
        update();
    }
}

void AnnotationOverlay::mouseMoveEvent(QMouseEvent* e) {
    if (tool_ == Tool::Pointer) {
        const QPointF old = pointer_;
        pointer_ = e->position();
        const qreal r = std::max<qreal>(9, height() / 90.0) * 2.5;
        update(QRectF(old.x() - r, old.y() - r, 2 * r, 2 * r).toAlignedRect());
        update(QRectF(pointer_.x() - r, pointer_.y() - r, 2 * r, 2 * r).toAlignedRect());
    } else if (tool_ == Tool::Pen && drawing_ && !strokes_.empty()) {
        strokes_.back().push_back(e->position());
        update();
    }
}

void AnnotationOverlay::mouseReleaseEvent(QMouseEvent*) {
    if (drawing_) {
        drawing_ = false;
        Q_EMIT strokesChanged();
    }
}

void AnnotationOverlay::leaveEvent(QEvent*) {
    if (tool_ == Tool::Pointer) {
        pointer_ = QPointF(-100, -100);
        update();
    }
}

// ============================================================================ window
PresentationWindow::PresentationWindow(const Session& deck, QWidget* parent) : QWidget(parent, Qt::Window) {
    setObjectName(QStringLiteral("presentation"));
    setWindowTitle(tr("PosLab — presentation"));
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::StrongFocus);
    overlay_ = new AnnotationOverlay(this);
    overlay_->setGeometry(rect());
    connect(overlay_, &AnnotationOverlay::strokesChanged, this, &PresentationWindow::storeStrokes);
    setDeck(deck);
}

void PresentationWindow::setDeck(const Session& deck) {
    deck_ = deck;
    if (deck_.scenes.empty()) deck_.scenes.push_back(SessionScene{});
    drawings_.clear();
    overlay_->setStrokes({});
    current_ = std::clamp(deck_.current, 0, count() - 1);
    applySlideDefaults();
    invalidate();
}

namespace {

constexpr int kSlideAnchor = -1, kNumbersAnchor = 1000, kTitleAnchor = 1001, kPlotAnchor = 2000;

// The parts of a slide a drawing can belong to, each with a key that finds the same part after
// the slide reflows: each plot's data area (the same plots are drawn in the same order whatever
// the shape; those of the numbers column come last), each arranged view (or the views' area of an
// "auto" slide), the numbers column, the title band. The first that holds a stroke's middle is its.
std::vector<std::pair<int, QRectF>> anchorRects(const PresentationWindow::Layout& L) {
    std::vector<std::pair<int, QRectF>> out;
    for (std::size_t k = 0; k < L.plots.size(); ++k) out.emplace_back(kPlotAnchor + int(k), L.plots[k]);
    for (std::size_t k = 0; k < L.viewRects.size(); ++k) out.emplace_back(int(k), L.viewRects[k]);
    if (L.viewRects.empty() && !L.views.isEmpty()) out.emplace_back(0, L.views);
    if (!L.numbers.isEmpty()) out.emplace_back(kNumbersAnchor, L.numbers);
    if (!L.title.isEmpty()) out.emplace_back(kTitleAnchor, L.title.united(L.counter));
    return out;
}

}  // namespace

void PresentationWindow::storeStrokes() {
    // The drawing as shown, each stroke relative to the part of the slide under its middle; the
    // strokes on a part the slide does not show now (F hid the numbers) are kept as they were.
    const auto parts = anchorRects(shown_);
    const auto shown = [&](int anchor) {
        return anchor == kSlideAnchor || std::any_of(parts.begin(), parts.end(), [&](const auto& a) { return a.first == anchor; });
    };
    std::vector<AnchoredStroke> kept;
    for (const AnchoredStroke& s : drawings_[current_])
        if (!shown(s.anchor)) kept.push_back(s);
    const QRectF whole(QPointF(0, 0), QSizeF(size()));
    for (const auto& stroke : overlay_->strokes()) {
        if (stroke.empty()) continue;
        QRectF box(stroke.front(), QSizeF(0, 0));
        for (const QPointF& pt : stroke) box = box.united(QRectF(pt, QSizeF(0, 0)));
        AnchoredStroke a;
        QRectF r = whole;
        for (const auto& [key, rect] : parts)
            if (rect.contains(box.center())) {
                a.anchor = key;
                r = rect;
                break;
            }
        if (r.width() <= 0 || r.height() <= 0) continue;
        for (const QPointF& pt : stroke)
            a.points.emplace_back((pt.x() - r.left()) / r.width(), (pt.y() - r.top()) / r.height());
        kept.push_back(std::move(a));
    }
    drawings_[current_] = std::move(kept);
}

void PresentationWindow::showStrokes() {
    const auto it = drawings_.find(current_);
    if (it == drawings_.end() || it->second.empty()) {
        overlay_->setStrokes({});
        return;
    }
    slideImage();   // the layout of the slide as it is shown now
    const auto parts = anchorRects(shown_);
    std::vector<AnnotationOverlay::Stroke> strokes;
    for (const AnchoredStroke& a : it->second) {
        QRectF r(QPointF(0, 0), QSizeF(size()));
        if (a.anchor != kSlideAnchor) {
            const auto part = std::find_if(parts.begin(), parts.end(), [&](const auto& p) { return p.first == a.anchor; });
            if (part == parts.end()) continue;   // not on the slide now
            r = part->second;
        }
        AnnotationOverlay::Stroke s;
        for (const QPointF& pt : a.points) s.emplace_back(r.left() + pt.x() * r.width(), r.top() + pt.y() * r.height());
        strokes.push_back(std::move(s));
    }
    overlay_->setStrokes(strokes);
}

void PresentationWindow::applySlideDefaults() {
    // Views arranged to fill the slide get the whole width, as does an "auto" slide with three or
    // more views; F shows the numbers.
    switch (slide().slide.arrangement) {
    case SlideArrangement::Demo: showNumbers_ = true; break;
    case SlideArrangement::Single:
    case SlideArrangement::SideBySide:
    case SlideArrangement::Grid: showNumbers_ = false; break;
    case SlideArrangement::Auto: {
        const auto& v = slide().scene.view;
        const int views = int(v.showPairs) + int(v.showHeatmap) + int(v.showDecay) + int(v.showFrequencies);
        showNumbers_ = demoOfSlide(slide()).has_value() || views <= 2;
        break;
    }
    }
}

const SessionScene& PresentationWindow::slide() const { return deck_.scenes[std::size_t(current_)]; }

void PresentationWindow::goTo(int index) {
    const int i = std::clamp(index, 0, count() - 1);
    if (i == current_) return;
    current_ = i;
    deck_.current = i;
    blank_ = false;
    applySlideDefaults();
    invalidate();
    showStrokes();
    Q_EMIT slideChanged(i);
}

void PresentationWindow::next() { goTo(current_ + 1); }
void PresentationWindow::previous() { goTo(current_ - 1); }

void PresentationWindow::leave() {
    if (!finishedEmitted_) {
        finishedEmitted_ = true;
        Q_EMIT finished(current_);
    }
    close();
}

void PresentationWindow::closeEvent(QCloseEvent* e) {
    if (!finishedEmitted_) {
        finishedEmitted_ = true;
        Q_EMIT finished(current_);
    }
    QWidget::closeEvent(e);
}

void PresentationWindow::invalidate() {
    cache_ = QImage();
    update();
    Q_EMIT pictureChanged();
}

void PresentationWindow::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    overlay_->setGeometry(rect());
    overlay_->setPenWidth(std::max(4.0, height() / 180.0));
    invalidate();
    showStrokes();
}

Theme PresentationWindow::slideTheme() const {
    const qreal h = std::max(height(), 360);
    // The deck's own text size (the slide's scene) and the presenter's zoom (Ctrl++ / Ctrl+−).
    const double textScale = std::clamp(slide().scene.view.fontScale, 0.5, 3.0) * zoom_;
    // The theme's smallest type (its small font: tick labels, notes, table cells) at
    // slideMinTextPx; every other text is larger.
    Theme t = themeByName(themeName_, legibleFontScale(themeName_, h, textScale));
    t.lineWidth *= std::max(1.0, h / 1080.0);
    t.axisWidth *= std::max(1.0, h / 1080.0);
    return t;
}

void PresentationWindow::setTextZoom(double zoom) {
    const double z = std::clamp(zoom, 0.5, 2.0);
    if (z == zoom_) return;
    zoom_ = z;
    invalidate();
}

LayoutReport PresentationWindow::slideLayout(QSize size) const {
    LayoutReport report;
    report.bounds = QRectF(QPointF(0, 0), QSizeF(size));
    QImage img(size, QImage::Format_ARGB32_Premultiplied);
    if (img.isNull()) return report;
    QPainter p(&img);
    LayoutCapture capture(report);
    paintSlide(p, size);
    return report;
}

QImage PresentationWindow::renderSlide(QSize size, qreal dpr) const {
    QImage img(size * dpr, QImage::Format_ARGB32_Premultiplied);
    img.setDevicePixelRatio(dpr);
    const Theme t = slideTheme();
    img.fill(blank_ ? QColor(Qt::black) : t.background);
    if (blank_) return img;
    QPainter p(&img);
    paintSlide(p, size);
    p.end();
    return img;
}

void PresentationWindow::paintSlide(QPainter& p, QSize size) const {
    const SessionScene& sl = slide();
    const Theme t = slideTheme();
    if (auto* capture = currentLayoutCapture()) capture->setView(QStringLiteral("slide"));
    p.fillRect(QRectF(0, 0, size.width(), size.height()), t.background);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    const qreal W = size.width(), H = size.height();
    const qreal margin = std::round(std::min(W, H) * 0.03);
    Layout L;

    // Title band.
    QFont titleF = t.titleFont();
    titleF.setPointSizeF(titleF.pointSizeF() * 1.7);
    const QFontMetricsF tfm(titleF, p.device());
    const QString counter = QStringLiteral("%1 / %2").arg(current_ + 1).arg(count());
    QFont counterF = t.bodyFont();
    const QFontMetricsF cfm(counterF, p.device());
    const qreal counterW = cfm.horizontalAdvance(counter) + margin * 0.5;
    const QString title = sl.title.isEmpty() ? tr("PosLab") : sl.title;
    const qreal room = W - 2 * margin - counterW;
    // Every slide's title in one size: a title too long for one line takes two (broken between
    // words after its colon or comma where that keeps the lines about even, else where they are
    // most even) while two lines take at most 15 % of the slide's height (large text, ×1.5, would
    // leave the content too little: the title takes a smaller type first); only a title too long
    // for two lines takes a smaller type, and only one too long even at the theme's title size is
    // cut.
    const auto twoLines = [&](const QFontMetricsF& fm) -> QString {
        const qreal total = fm.horizontalAdvance(title);
        QString best;
        qreal bestCost = 1e300;
        for (qsizetype i = title.indexOf(QLatin1Char(' ')); i > 0; i = title.indexOf(QLatin1Char(' '), i + 1)) {
            const QString a = title.left(i), b = title.mid(i + 1);
            const qreal wa = fm.horizontalAdvance(a), wb = fm.horizontalAdvance(b);
            if (wa > room || wb > room) continue;
            const QChar last = a.back();
            const qreal bonus = last == QLatin1Char(':') ? 0.25 : last == QLatin1Char(',') || last == QChar(0x2014) ? 0.1 : 0.0;
            const qreal cost = std::max(wa, wb) - bonus * total;
            if (cost < bestCost) bestCost = cost, best = a + QLatin1Char('\n') + b;
        }
        return best;
    };
    QString shown = title;
    int titleLines = 1;
    if (tfm.horizontalAdvance(title) > room) {
        const bool twoFit = tfm.lineSpacing() + tfm.height() * 1.25 <= 0.15 * H;
        shown = twoFit ? twoLines(tfm) : QString();
        titleLines = 2;
        if (!twoFit) {
            // Smaller until it fits one line (the rule before two lines), then two lines at the
            // theme's title size.
            while (titleF.pointSizeF() > t.titleFont().pointSizeF()) {
                titleF.setPointSizeF(std::max(t.titleFont().pointSizeF(), titleF.pointSizeF() * 0.94));
                if (QFontMetricsF(titleF, p.device()).horizontalAdvance(title) <= room) {
                    shown = title;
                    titleLines = 1;
                    break;
                }
            }
            if (shown.isEmpty()) shown = twoLines(QFontMetricsF(titleF, p.device()));
        }
        while (shown.isEmpty() && titleF.pointSizeF() > t.titleFont().pointSizeF()) {
            titleF.setPointSizeF(std::max(t.titleFont().pointSizeF(), titleF.pointSizeF() * 0.94));
            shown = twoLines(QFontMetricsF(titleF, p.device()));
        }
        if (shown.isEmpty()) titleLines = 1;
    }
    const QFontMetricsF tfm2(titleF, p.device());
    if (shown.isEmpty()) shown = tfm2.elidedText(title, Qt::ElideRight, room);
    const qreal titleH = titleLines == 1 ? tfm2.height() * 1.25 : tfm2.lineSpacing() * (titleLines - 1) + tfm2.height() * 1.25;
    L.title = QRectF(margin, margin * 0.6, room, titleH);
    L.counter = QRectF(W - margin - counterW, margin * 0.6, counterW, tfm2.height() * 1.25);   // beside the first line
    p.setFont(titleF);
    p.setPen(t.foreground);
    ui::plot::recordedText(p, L.title, Qt::AlignLeft | Qt::AlignVCenter, shown);
    p.setFont(counterF);
    p.setPen(t.muted);
    ui::plot::recordedText(p, L.counter, Qt::AlignRight | Qt::AlignVCenter, counter);
    p.setPen(QPen(t.foreground, std::max(2.0, H / 540.0)));
    const qreal ruleY = L.title.bottom() + margin * 0.25;
    p.drawLine(QPointF(margin, ruleY), QPointF(W - margin, ruleY));

    // Footer with the keys.
    const QFont small = t.smallFont();
    const QFontMetricsF sfm(small, p.device());
    const QString keys = tr("PgDn/→ next · PgUp/← back · P pointer · D draw · C clear · N notes · F numbers · B black · H keys · Esc leave");
    L.footer = QRectF(margin, H - margin * 0.4 - sfm.height(), W - 2 * margin, sfm.height());
    // The keys are the presenter's, not lecture content: only when asked for (H), never on figures.
    if (keyHints_) {
        p.setFont(small);
        p.setPen(t.muted);
        ui::plot::recordedText(p, L.footer, Qt::AlignLeft | Qt::AlignVCenter, sfm.elidedText(keys, Qt::ElideRight, L.footer.width()));
    }

    qreal contentTop = ruleY + margin * 0.5;
    qreal contentBottom = L.footer.top() - margin * 0.4;
    // Speaker notes band.
    const QString notes = slideSpeakerNotes(sl);
    if (showNotes_ && !notes.isEmpty()) {
        const QFont nf = t.bodyFont();
        const qreal nh = std::min((contentBottom - contentTop) * 0.25,
                                  QFontMetricsF(nf, p.device()).boundingRect(QRectF(0, 0, W - 2 * margin - 24, 10000), Qt::TextWordWrap, notes).height() + 16);
        const QRectF nr(margin, contentBottom - nh, W - 2 * margin, nh);
        p.fillRect(nr, t.panel);
        p.setFont(nf);
        p.setPen(t.foreground);
        ui::plot::recordedText(p, nr.adjusted(12, 8, -12, -8), Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, notes);
        contentBottom = nr.top() - margin * 0.3;
    }

    const std::optional<DemoId> demo = demoOfSlide(sl);
    const bool tableOnly = demo && demoFillsSlide(*demo);
    const qreal contentH = contentBottom - contentTop;
    const qreal fullW = W - 2 * margin;

    // The numbers column: a demonstration's panel, else the formula sheet of the first
    // configuration, at `detail`.
    auto draw = [&](QPainter& painter, const Theme& th, const QRectF& r, DemoDetail detail) -> qreal {
        if (demo) return paintDemo(painter, r, *demo, th, nullptr, true, detail);
        const FormulaSheet sh = formulaSheet(sl.scene, 0, FormulaFocus{});
        FormulaView v;
        v.setTheme(th, th.fontPt * 1.45);
        std::vector<FormulaLine> lines = sh.definitions;
        lines.insert(lines.end(), sh.numbers.begin(), sh.numbers.end());
        v.setSheet(sh.title, lines, sh.note);
        return v.paintSheet(painter, r);
    };
    // The theme at text scale `k`, and the height the column needs in it at width `w`.
    const auto themeAt = [&](double k) {
        Theme th = themeByName(themeName_, k);
        th.lineWidth = t.lineWidth;
        th.axisWidth = t.axisWidth;
        return th;
    };
    // A text wider than the column (a formula kept whole: "max |S(positions) − S(positions + 100)|")
    // would be cut at its edge: the column does not hold it at that width (infinitely tall).
    const auto needAt = [&](const Theme& th, qreal w, DemoDetail detail) {
        LayoutReport scratch;   // measuring draws nothing the report should hold
        qreal h = 0;
        {
            LayoutCapture quiet(scratch);
            QImage probe(int(w) + 2, 8, QImage::Format_ARGB32_Premultiplied);
            QPainter pp(&probe);
            h = draw(pp, th, QRectF(0, 0, w, 1e6), detail);
        }
        for (const LayoutItem& item : scratch.items)
            if (item.kind == LayoutItemKind::Text && (item.rect.left() < -1 || item.rect.right() > w + 1))
                return std::numeric_limits<qreal>::infinity();
        return h;
    };
    // The slide's type, never smaller: the most of the demonstration that fits, in a column of
    // 30 % of the width, else up to 46 % (the views give way before the numbers shrink).
    Theme nt = t;
    double scale = t.fontScale;
    DemoDetail detail = DemoDetail::Full;
    qreal numbersW = 0, need = 0;
    if (tableOnly || showNumbers_) {
        const std::vector<DemoDetail> levels = demo ? std::vector<DemoDetail>{DemoDetail::Full, DemoDetail::NoNotes, DemoDetail::FewFigures,
                                                                             DemoDetail::ClaimOnly}
                                                    : std::vector<DemoDetail>{DemoDetail::Full};
        // The narrowest column that holds it: the views keep what the numbers do not need.
        const std::vector<double> fractions = tableOnly ? std::vector<double>{1.0} : std::vector<double>{0.3, 0.38, 0.46};
        const auto tryAt = [&](const Theme& th) {
            for (const DemoDetail level : levels)
                for (const double f : fractions) {
                    numbersW = std::round(tableOnly ? fullW : (fullW - margin) * f);
                    detail = level;
                    need = needAt(th, numbersW, level);
                    if (need <= contentH) return true;
                }
            return false;
        };
        // A deck's text size above the legible minimum is a wish: where even the least detail
        // does not fit at it, the column's type comes down towards that minimum, never below.
        const double floorScale = legibleFontScale(themeName_, std::max(height(), 360), std::min(1.0, zoom_ * sl.scene.view.fontScale));
        bool fits = tryAt(nt);
        while (!fits && scale > floorScale * 1.001) {
            scale = std::max(floorScale, scale * 0.92);
            nt = themeAt(scale);
            fits = tryAt(nt);
        }
    }
    if (tableOnly) {
        L.numbers = QRectF(margin, contentTop, fullW, contentH);
    } else if (showNumbers_) {
        L.views = QRectF(margin, contentTop, fullW - numbersW - margin, contentH);
        L.numbers = QRectF(L.views.right() + margin, contentTop, numbersW, contentH);
    } else {
        L.views = QRectF(margin, contentTop, fullW, contentH);
    }

    if (!L.views.isEmpty()) {
        // The views in the slide's type: their smallest labels at slideMinTextPx too (they make
        // room by rule: fewer ticks, shorter labels, the legend moved).
        const Theme& vt = t;
        // A heatmap's cells square on a slide: the diagonals a claim is about run at 45°.
        SceneParams scene = sl.scene;
        scene.view.heatmapSquareCells = true;
        if (sl.slide.arrangement == SlideArrangement::Auto) {
            paintViews(p, L.views, scene, std::nullopt, vt, p.device()->devicePixelRatioF());
        } else {
            const std::vector<ViewKind> views = slideViews(sl);
            const auto rects = slideViewRects(sl.slide.arrangement, int(views.size()), L.views, margin * 0.5);
            L.viewRects.clear();
            for (std::size_t k = 0; k < rects.size(); ++k) {
                paintViews(p, rects[k], scene, views[k], vt, p.device()->devicePixelRatioF());
                L.viewRects.push_back(rects[k]);
            }
        }
        if (auto* capture = currentLayoutCapture()) capture->setView(QStringLiteral("slide"));
    }
    if (!L.numbers.isEmpty()) {
        qreal drawW = L.numbers.width();
        // A demonstration alone on its slide (the comparison table, the layer overviews): the
        // largest type that still fits (found by bisection to within 1 %), so that it fills the
        // slide instead of its top part. Its cells wrap, so its height jumps with the type size: a
        // slightly narrower table (down to 80 % of the width, centred) is taken when that fills
        // more of the height.
        if (tableOnly && need <= L.numbers.height()) {
            const double start = scale;
            for (const double fraction : {1.0, 0.95, 0.9, 0.85, 0.8}) {
                const qreal w = L.numbers.width() * fraction;
                double lo = start, hi = start;
                Theme best = themeAt(lo);
                qreal bestNeed = needAt(best, w, detail);
                if (bestNeed > L.numbers.height()) continue;
                for (int iter = 0; iter < 8 && hi < 3 * t.fontScale; ++iter) {   // bracket: grow until it no longer fits
                    hi = lo * 1.3;
                    const Theme th = themeAt(hi);
                    const qreal n = needAt(th, w, detail);
                    if (n > L.numbers.height()) break;
                    lo = hi, best = th, bestNeed = n;
                }
                while (hi > lo * 1.01) {
                    const double mid = std::sqrt(lo * hi);
                    const Theme th = themeAt(mid);
                    const qreal n = needAt(th, w, detail);
                    if (n > L.numbers.height()) {
                        hi = mid;
                    } else {
                        lo = mid, best = th, bestNeed = n;
                    }
                }
                if (bestNeed > need * 1.02 || fraction == 1.0) scale = lo, nt = best, need = bestNeed, drawW = w;
                if (need >= 0.92 * L.numbers.height()) break;
            }
        }
        L.numbersHeightNeeded = need;
        L.numbersScale = scale;
        L.numbersDetail = int(detail);
        p.save();
        // What does not fit even with the least detail is cut at the column's edge, never drawn
        // smaller (numbersHeightNeeded says how much).
        p.setClipRect(L.numbers.adjusted(-2, -2, 2, 2));
        draw(p, nt, QRectF(L.numbers.left() + (L.numbers.width() - drawW) / 2, L.numbers.top(), drawW, L.numbers.height()), detail);
        p.restore();
    }
    layout_ = L;
}

QImage PresentationWindow::slideImage() const {
    const qreal dpr = devicePixelRatioF();
    if (cache_.size() != size() * dpr) {
        // The plots' data areas as drawn: what a drawing on the slide belongs to.
        LayoutReport report;
        {
            LayoutCapture capture(report);
            cache_ = renderSlide(size(), dpr);
        }
        shown_ = layout_;
        for (const LayoutItem& item : report.items)
            if (item.kind == LayoutItemKind::Plot) shown_.plots.push_back(item.rect);
        layout_.plots = shown_.plots;
    }
    return cache_;
}

void PresentationWindow::setAudience(bool on) {
    audience_ = on;
    if (on) keyHints_ = showNotes_ = false;
    invalidate();
}

void PresentationWindow::paintEvent(QPaintEvent*) {
    const QImage img = slideImage();
    QPainter p(this);
    p.drawImage(0, 0, img);
}

const std::vector<PresentationKey>& presentationKeys() {
    static const std::vector<PresentationKey> keys = {
        {{Qt::Key_PageDown, Qt::Key_Right, Qt::Key_Down, Qt::Key_Space, Qt::Key_Return, Qt::Key_Enter}, "next slide"},
        {{Qt::Key_PageUp, Qt::Key_Left, Qt::Key_Up, Qt::Key_Backspace}, "previous slide"},
        {{Qt::Key_Home}, "first slide"},
        {{Qt::Key_End}, "last slide"},
        {{Qt::Key_P}, "laser pointer on/off"},
        {{Qt::Key_D}, "draw on the slide on/off (the drawing stays with the slide)"},
        {{Qt::Key_C}, "clear the drawing"},
        {{Qt::Key_N}, "speaker notes on/off (a band at the bottom; never on figures)"},
        {{Qt::Key_H}, "the keys on/off (a footer; never on the audience's screen of a presenter view)"},
        {{Qt::Key_F}, "the numbers column on/off"},
        {{Qt::Key_B}, "black screen on/off"},
        {{Qt::Key_Plus, Qt::Key_Equal}, "larger text (with or without Ctrl)"},
        {{Qt::Key_Minus}, "smaller text (with or without Ctrl)"},
        {{Qt::Key_0}, "the deck's own text size (with or without Ctrl)"},
        {{Qt::Key_Escape}, "leave presentation mode"},
    };
    return keys;
}

void PresentationWindow::keyPressEvent(QKeyEvent* e) {
    switch (e->key()) {
        case Qt::Key_PageDown: case Qt::Key_Right: case Qt::Key_Down: case Qt::Key_Space: case Qt::Key_Return: case Qt::Key_Enter:
            next();
            break;
        case Qt::Key_PageUp: case Qt::Key_Left: case Qt::Key_Up: case Qt::Key_Backspace:
            previous();
            break;
        case Qt::Key_Home: goTo(0); break;
        case Qt::Key_End: goTo(count() - 1); break;
        case Qt::Key_Escape: leave(); break;
        case Qt::Key_P:
            overlay_->setTool(overlay_->tool() == AnnotationOverlay::Tool::Pointer ? AnnotationOverlay::Tool::None : AnnotationOverlay::Tool::Pointer);
            break;
        case Qt::Key_D:
            overlay_->setTool(overlay_->tool() == AnnotationOverlay::Tool::Pen ? AnnotationOverlay::Tool::None : AnnotationOverlay::Tool::Pen);
            break;
        case Qt::Key_C:
            overlay_->clear();
            drawings_.erase(current_);   // the hidden strokes too
            break;
        case Qt::Key_N:
            showNotes_ = !showNotes_ && !audience_;   // the presenter view has them
            invalidate();
            showStrokes();
            break;
        case Qt::Key_H:
            keyHints_ = !keyHints_ && !audience_;   // the presenter view lists them
            invalidate();
            showStrokes();
            break;
        case Qt::Key_F:
            showNumbers_ = !showNumbers_;
            invalidate();
            showStrokes();
            break;
        case Qt::Key_B:
            blank_ = !blank_;
            invalidate();
            break;
        case Qt::Key_Plus: case Qt::Key_Equal: setTextZoom(zoom_ * 1.15); break;
        case Qt::Key_Minus: setTextZoom(zoom_ / 1.15); break;
        case Qt::Key_0: setTextZoom(1.0); break;
        default: QWidget::keyPressEvent(e); return;
    }
    e->accept();
}

}  // namespace poslab::ui
