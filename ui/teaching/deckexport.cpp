#include "ui/teaching/deckexport.h"

#include "ui/io/atomicfile.h"
#include "ui/io/export.h"
#include "ui/render/theme.h"
#include "ui/teaching/demoscenes.h"
#include "ui/teaching/presentation.h"

#include <QCoreApplication>
#include <QDir>
#include <QFontMetricsF>
#include <QImage>
#include <QPainter>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <memory>

namespace poslab::ui {

namespace {

// The words of the exported deck, in the context "DeckExport" (Q_DECLARE_TR_FUNCTIONS: lupdate
// extracts them; a local function named tr would leave them under another context).
struct DeckExport {
    Q_DECLARE_TR_FUNCTIONS(DeckExport)
};

// Text of the notes band: the slide's notes without the "[demo:…]" tag.
QString notesOf(const SessionScene& s) { return slideNotesText(s).trimmed(); }

// Draws the slides of one deck: a hidden presentation window in audience mode at the slide's size
// (its paintSlide is what the audience sees), and the notes band under it.
class DeckPages {
public:
    DeckPages(const Session& deck, const DeckExportOptions& o) : deck_(deck), o_(o) {
        Session d = deck;
        d.current = 0;
        slides_ = std::make_unique<PresentationWindow>(d);
        slides_->setAudience(true);   // no key hints, no notes band: the audience's picture
        slides_->setThemeName(o.theme);
        slides_->resize(o.slide);
        const qreal H = o.slide.height();
        // The notes' type: the slides' body text at this height (about 19 px at 1080 px).
        notesTheme_ = themeByName(o.theme, std::clamp(1.45 * H / 1080.0, 0.5, 3.0));
        pad_ = std::round(std::min<qreal>(o.slide.width(), H) * 0.03);
        if (o.notes) {
            qreal need = 0;
            for (const auto& s : deck.scenes) need = std::max(need, textHeight(notesOf(s), notesTheme_.bodyFont()));
            const qreal heading = QFontMetricsF(notesTheme_.smallFont()).height() * 1.4;
            band_ = int(std::ceil(std::clamp(need + heading + 2 * pad_, H * 0.2, H)));
        }
    }

    QSize pageSize() const { return QSize(o_.slide.width(), o_.slide.height() + band_); }
    int count() const { return int(deck_.scenes.size()); }
    QColor background() const { return slides_->slideTheme().background; }

    void paint(QPainter& p, int i) {
        slides_->goTo(i);
        const QSize page = pageSize();
        p.fillRect(QRectF(0, 0, page.width(), page.height()), slides_->slideTheme().background);
        p.save();
        p.setClipRect(QRectF(0, 0, o_.slide.width(), o_.slide.height()));
        slides_->paintSlide(p, o_.slide);
        p.restore();
        if (band_ > 0) paintNotes(p, i);
    }

private:
    qreal textWidth() const { return o_.slide.width() - 2 * pad_; }
    qreal textHeight(const QString& text, const QFont& f) const {
        if (text.isEmpty()) return 0;
        return QFontMetricsF(f).boundingRect(QRectF(0, 0, textWidth(), 1e7), Qt::TextWordWrap, text).height();
    }

    void paintNotes(QPainter& p, int i) {
        const Theme& t = notesTheme_;
        const qreal top = o_.slide.height();
        const QRectF band(0, top, o_.slide.width(), band_);
        p.fillRect(band, t.panel);
        p.setPen(QPen(t.muted, std::max(1.0, o_.slide.height() / 540.0)));
        p.drawLine(QPointF(pad_, top), QPointF(o_.slide.width() - pad_, top));
        const QFont small = t.smallFont();
        const qreal headingH = QFontMetricsF(small).height() * 1.4;
        p.setFont(small);
        p.setPen(t.muted);
        p.drawText(QRectF(pad_, top + pad_ * 0.5, textWidth(), headingH), Qt::AlignLeft | Qt::AlignVCenter,
                   DeckExport::tr("Speaker notes, slide %1 of %2").arg(i + 1).arg(count()));
        const QRectF area(pad_, top + pad_ * 0.5 + headingH, textWidth(), band_ - pad_ - headingH);
        QString text = notesOf(deck_.scenes[std::size_t(i)]);
        QFont f = t.bodyFont();
        p.setPen(t.foreground);
        if (text.isEmpty()) {
            text = DeckExport::tr("(no speaker notes)");
            p.setPen(t.muted);
        }
        // Notes longer than the band (the band is at most a slide tall): smaller type until they fit.
        for (int k = 0; k < 30 && textHeight(text, f) > area.height() && f.pointSizeF() > 4; ++k)
            f.setPointSizeF(f.pointSizeF() * 0.92);
        p.setFont(f);
        p.drawText(area, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, text);
    }

    const Session& deck_;
    DeckExportOptions o_;
    std::unique_ptr<PresentationWindow> slides_;
    Theme notesTheme_;
    qreal pad_ = 0;
    int band_ = 0;
};

// "Gemma 3: local and global layers" → "gemma-3-local-and-global-layers" (at most 40 characters).
QString slug(const QString& title) {
    QString s = title.normalized(QString::NormalizationForm_KD).toLower();
    static const QRegularExpression other(QStringLiteral("[^a-z0-9]+"));
    s.replace(other, QStringLiteral("-"));
    s = s.left(40);
    while (s.startsWith(QLatin1Char('-'))) s.remove(0, 1);
    while (s.endsWith(QLatin1Char('-'))) s.chop(1);
    return s;
}

QString deckTitle(const Session& deck) {
    return DeckExport::tr("PosLab deck of %1 slides").arg(deck.scenes.size());
}

}  // namespace

std::optional<QString> deckExportProblem(const Session& deck, const DeckExportOptions& o) {
    if (deck.scenes.empty()) return DeckExport::tr("the deck has no slides: at least one slide");
    if (std::ssize(deck.scenes) > kMaxSessionScenes)
        return DeckExport::tr("the deck has %1 slides: at most %2").arg(deck.scenes.size()).arg(kMaxSessionScenes);
    const auto side = [](const char* name, int v) -> std::optional<QString> {
        if (v < kMinExportPixels || v > kMaxExportPixels)
            return QStringLiteral("%1: an integer from %2 to %3, got %4").arg(QLatin1String(name)).arg(kMinExportPixels).arg(kMaxExportPixels).arg(v);
        return std::nullopt;
    };
    if (auto e = side("width", o.slide.width())) return e;
    if (auto e = side("height", o.slide.height())) return e;
    if (!themeNames().contains(o.theme))
        return QStringLiteral("theme: one of %1, got %2").arg(themeNames().join(QStringLiteral(", ")), o.theme);
    // With the notes band a page is up to twice a slide's height: one image must stay within the
    // PNG limit.
    const qint64 area = qint64(o.slide.width()) * o.slide.height() * (o.notes ? 2 : 1);
    if (area > kMaxExportArea)
        return QStringLiteral("width × height: at most %1 pixels a page%2, got %3 × %4")
            .arg(kMaxExportArea / (o.notes ? 2 : 1))
            .arg(o.notes ? DeckExport::tr(" with notes") : QString())
            .arg(o.slide.width())
            .arg(o.slide.height());
    return std::nullopt;
}

QSize deckPageSize(const Session& deck, const DeckExportOptions& o) {
    if (deckExportProblem(deck, o)) return {};
    return DeckPages(deck, o).pageSize();
}

std::optional<QByteArray> deckPdf(const Session& deck, const DeckExportOptions& o, QString* error) {
    if (auto e = deckExportProblem(deck, o)) {
        if (error) *error = *e;
        return std::nullopt;
    }
    DeckPages pages(deck, o);
    PaintedDocument doc;
    doc.title = deckTitle(deck);
    QStringList titles;
    for (const auto& s : deck.scenes) titles << s.title;
    doc.description = titles.join(QStringLiteral(" · "));
    doc.session = sessionToJson(deck, true);
    doc.attachmentName = QStringLiteral("deck.%1").arg(QLatin1String(kSessionSuffix));
    doc.attachment = sessionToJson(deck);
    return paintedPdf(doc, QSizeF(pages.pageSize()), pages.count(), [&](QPainter& p, int i) { pages.paint(p, i); }, error);
}

namespace {
std::optional<QByteArray> slidePng(DeckPages& pages, const Session& deck, int i, QString* error) {
    QImage img(pages.pageSize(), QImage::Format_ARGB32_Premultiplied);
    if (img.isNull()) {
        if (error) *error = DeckExport::tr("not enough memory for a %1 × %2 image").arg(pages.pageSize().width()).arg(pages.pageSize().height());
        return std::nullopt;
    }
    img.fill(pages.background());
    {
        QPainter p(&img);
        pages.paint(p, i);
    }
    const SessionScene& s = deck.scenes[std::size_t(i)];
    return encodePng(img, s.title, deckTitle(deck) + QStringLiteral(", slide %1").arg(i + 1), sceneToJson(s.scene, true), error);
}
}  // namespace

std::optional<QByteArray> deckSlidePng(const Session& deck, int i, const DeckExportOptions& o, QString* error) {
    if (auto e = deckExportProblem(deck, o)) {
        if (error) *error = *e;
        return std::nullopt;
    }
    if (i < 0 || i >= std::ssize(deck.scenes)) {
        if (error) *error = DeckExport::tr("slide: an integer from 1 to %1, got %2").arg(deck.scenes.size()).arg(i + 1);
        return std::nullopt;
    }
    DeckPages pages(deck, o);
    return slidePng(pages, deck, i, error);
}

QStringList deckPngNames(const Session& deck) {
    const int n = int(deck.scenes.size());
    const int digits = std::max(2, int(QString::number(n).size()));
    QStringList out;
    for (int i = 0; i < n; ++i) {
        const SessionScene& s = deck.scenes[std::size_t(i)];
        QString key;
        if (auto id = demoOfSlide(s)) key = QString::fromStdString(demoInfo(*id).key);
        if (key.isEmpty()) key = slug(s.title);
        if (key.isEmpty()) key = QStringLiteral("slide");
        out << QStringLiteral("%1-%2.png").arg(i + 1, digits, 10, QLatin1Char('0')).arg(key);
    }
    return out;
}

bool writeDeckPngs(const QString& dir, const Session& deck, const DeckExportOptions& o, QString* error) {
    if (auto e = deckExportProblem(deck, o)) {
        if (error) *error = *e;
        return false;
    }
    if (!QDir().mkpath(dir)) {
        if (error) *error = DeckExport::tr("cannot create the folder %1").arg(QDir::toNativeSeparators(dir));
        return false;
    }
    DeckPages pages(deck, o);
    const QStringList names = deckPngNames(deck);
    for (int i = 0; i < pages.count(); ++i) {
        const auto bytes = slidePng(pages, deck, i, error);
        if (!bytes) return false;
        if (!writeFileAtomically(QDir(dir).filePath(names[i]), *bytes, error)) return false;
    }
    return true;
}

}  // namespace poslab::ui
