#include "ui/teaching/presenter.h"

#include "ui/teaching/demoscenes.h"
#include "ui/teaching/presentation.h"

#include <QCloseEvent>
#include <QCoreApplication>
#include <QDateTime>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <optional>

namespace poslab::ui {

PresenterScreens presenterScreens(const QList<QScreen*>& screens, QScreen* home) {
    PresenterScreens s;
    if (screens.isEmpty()) return s;
    s.presenter = home && screens.contains(home) ? home : screens.front();
    s.audience = s.presenter;
    for (QScreen* sc : screens)
        if (sc != s.presenter) {
            s.audience = sc;
            break;
        }
    return s;
}

RehearsalGeometry rehearsalGeometry(const QRect& available, const QMargins& frame, const QSize& presenterMinimum) {
    const int fw = frame.left() + frame.right(), fh = frame.top() + frame.bottom();
    // The audience's slide: 16:9, as wide as half the screen (frame included) allows, and as the
    // presenter view's smallest width leaves room for.
    int aw = std::max(16, std::min(available.width() / 2 - fw, available.width() - presenterMinimum.width() - 2 * fw));
    int ah = aw * 9 / 16;
    if (ah > available.height() - fh) {
        ah = std::max(9, available.height() - fh);
        aw = ah * 16 / 9;
    }
    RehearsalGeometry g;
    g.audience = QRect(available.left() + frame.left(), available.top() + frame.top(), aw, ah);
    // The presenter view: the rest of the width, the whole height.
    const int left = available.left() + aw + fw;
    g.presenter = QRect(left + frame.left(), available.top() + frame.top(), std::max(16, available.right() + 1 - left - fw),
                        std::max(16, available.height() - fh));
    return g;
}

// ============================================================================ preview
SlidePreview::SlidePreview(QWidget* parent) : QWidget(parent) {
    setMinimumSize(160, 90);
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

QSize SlidePreview::sizeHint() const { return {480, heightForWidth(480)}; }

int SlidePreview::heightForWidth(int w) const { return std::max(1, int(std::lround(w * aspect_))); }

QRectF SlidePreview::pictureRect() const {
    if (image_.isNull()) return {};
    const QSizeF img = image_.deviceIndependentSize();
    const qreal k = std::min(width() / img.width(), height() / img.height());
    const QSizeF s = img * k;
    return QRectF((width() - s.width()) / 2, (height() - s.height()) / 2, s.width(), s.height());
}

void SlidePreview::setImage(const QImage& image) {
    image_ = image;
    placeholder_.clear();
    if (!image.isNull() && image.width() > 0) {
        const double aspect = double(image.height()) / image.width();
        if (std::abs(aspect - aspect_) > 1e-3) {
            aspect_ = aspect;
            updateGeometry();   // the box takes the slide's shape
        }
    }
    update();
}

void SlidePreview::setPlaceholder(const QString& text) {
    image_ = QImage();
    placeholder_ = text;
    update();
}

void SlidePreview::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Window).darker(115));
    if (image_.isNull()) {
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, placeholder_);
        return;
    }
    // The slide scaled to fit, centred, aspect ratio kept (the box has its shape: it fills it).
    const QRectF target = pictureRect();
    p.setRenderHint(QPainter::SmoothPixmapTransform);
    p.drawImage(target, image_);
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(target.adjusted(-0.5, -0.5, 0.5, 0.5));
}

// ============================================================================ presenter view
namespace {
// A label of up to three lines that cuts its text short with "…" to its width and asks for no
// width of its own (a long slide title never widens the window); the whole text is its tooltip.
class ElidedLabel : public QLabel {
public:
    explicit ElidedLabel(QWidget* parent) : QLabel(parent) {
        setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        setMinimumWidth(0);
    }
    void setFullText(const QString& text) {
        full_ = text;
        setToolTip(text);
        elide();
    }

protected:
    void resizeEvent(QResizeEvent* e) override {
        QLabel::resizeEvent(e);
        elide();
    }

private:
    // A title that does not fit first gets a smaller type (85 %), then a second line (broken
    // between words), then a smaller type still (70 %) and a third line; only then "…" at the end
    // of the third.
    void elide() {
        if (!base_) base_ = font();
        const int room = std::max(0, contentsRect().width());
        const QStringList words = full_.split(QLatin1Char(' '));
        // The title broken greedily between words into at most `maxLines` lines of `fm`; empty
        // if it does not fit.
        const auto wrap = [&](const QFontMetrics& fm, int maxLines) {
            QStringList lines;
            for (const QString& w : words) {
                if (!lines.isEmpty() && fm.horizontalAdvance(lines.back() + QLatin1Char(' ') + w) <= room)
                    lines.back() += QLatin1Char(' ') + w;
                else if (fm.horizontalAdvance(w) <= room && lines.size() < maxLines)
                    lines << w;
                else
                    return QString();
            }
            return lines.join(QLatin1Char('\n'));
        };
        QFont f = *base_;
        QString shown;
        for (const auto& [scale, lines] : {std::pair{1.0, 1}, std::pair{0.85, 1}, std::pair{0.85, 2}, std::pair{0.7, 2}, std::pair{0.7, 3}}) {
            f.setPointSizeF(base_->pointSizeF() * scale);
            shown = wrap(QFontMetrics(f), lines);
            if (!shown.isEmpty()) break;
        }
        if (shown.isEmpty()) {
            // Three lines at the smallest type, as the last step above allows, the third cut
            // short (a word wider than a line is cut where it stands).
            const QFontMetrics fm(f);
            constexpr int kLines = 3;
            QStringList lines;
            qsizetype k = 0;
            while (k < words.size() && lines.size() < kLines - 1) {
                QString line = words[k++];
                while (k < words.size() && fm.horizontalAdvance(line + QLatin1Char(' ') + words[k]) <= room) line += QLatin1Char(' ') + words[k++];
                if (fm.horizontalAdvance(line) > room) line = fm.elidedText(line, Qt::ElideRight, room);
                lines << line;
            }
            if (k < words.size()) lines << fm.elidedText(words.mid(k).join(QLatin1Char(' ')), Qt::ElideRight, room);
            shown = lines.join(QLatin1Char('\n'));
        }
        if (f != font()) setFont(f);
        setText(shown);
    }
    QString full_;
    std::optional<QFont> base_;
};
}  // namespace

PresenterView::PresenterView(PresentationWindow* audience, QWidget* parent) : QWidget(parent, Qt::Window), audience_(audience) {
    setObjectName(QStringLiteral("presenterView"));
    setWindowTitle(tr("PosLab — presenter view"));
    setFocusPolicy(Qt::StrongFocus);
    audience->setAudience(true);

    current_ = new SlidePreview(this);
    current_->setObjectName(QStringLiteral("presenterCurrent"));
    next_ = new SlidePreview(this);
    next_->setObjectName(QStringLiteral("presenterNext"));
    notes_ = new QPlainTextEdit(this);
    notes_->setObjectName(QStringLiteral("presenterNotes"));
    notes_->setReadOnly(true);
    notes_->setFocusPolicy(Qt::NoFocus);   // the keys stay the presentation's
    QFont nf = notes_->font();
    nf.setPointSizeF(nf.pointSizeF() * 1.4);
    notes_->setFont(nf);
    counter_ = new QLabel(this);
    counter_->setObjectName(QStringLiteral("presenterCounter"));
    // Titles are cut short with "…" (the whole title in the tooltip): a long one never widens the view.
    title_ = new ElidedLabel(this);
    title_->setObjectName(QStringLiteral("presenterTitle"));
    nextTitle_ = new ElidedLabel(this);
    nextTitle_->setObjectName(QStringLiteral("presenterNextTitle"));
    static_cast<ElidedLabel*>(nextTitle_)->setFullText(tr("Next"));
    elapsedLabel_ = new QLabel(this);
    elapsedLabel_->setObjectName(QStringLiteral("presenterElapsed"));
    elapsedLabel_->setToolTip(tr("Time since the presentation started"));
    clockLabel_ = new QLabel(this);
    clockLabel_->setObjectName(QStringLiteral("presenterClock"));
    clockLabel_->setToolTip(tr("The time of day"));
    for (QLabel* l : {elapsedLabel_, clockLabel_, counter_, title_}) {
        QFont f = l->font();
        f.setPointSizeF(f.pointSizeF() * 2);
        f.setBold(true);
        l->setFont(f);
    }
    // The keys, for the presenter only (the audience's window never lists them).
    auto* keys = new QLabel(tr("Keys: → or PgDn next · ← or PgUp back · Home/End first/last · P pointer · D draw · "
                               "C clear · F numbers · B black screen · Esc end"),
                            this);
    keys->setObjectName(QStringLiteral("presenterKeys"));
    keys->setWordWrap(true);
    keys->setForegroundRole(QPalette::PlaceholderText);
    auto* prev = new QPushButton(tr("◀ Previous"), this);
    prev->setObjectName(QStringLiteral("presenterPrevious"));
    auto* nextB = new QPushButton(tr("Next ▶"), this);
    nextB->setObjectName(QStringLiteral("presenterNextButton"));
    auto* restart = new QPushButton(tr("Restart the timer"), this);
    restart->setObjectName(QStringLiteral("presenterRestartTimer"));
    for (QPushButton* b : {prev, nextB, restart}) b->setFocusPolicy(Qt::NoFocus);
    connect(prev, &QPushButton::clicked, audience, &PresentationWindow::previous);
    connect(nextB, &QPushButton::clicked, audience, &PresentationWindow::next);
    connect(restart, &QPushButton::clicked, this, &PresenterView::restartTimer);

    // The previews take their slide's shape (heightForWidth); the notes take the rest of the height.
    auto* side = new QVBoxLayout;
    side->addWidget(nextTitle_);
    side->addWidget(next_);
    side->addWidget(new QLabel(tr("Notes"), this));
    side->addWidget(notes_, 1);
    auto* clocks = new QHBoxLayout;
    clocks->addWidget(elapsedLabel_);
    clocks->addStretch(1);
    clocks->addWidget(clockLabel_);
    side->addLayout(clocks);

    auto* main = new QVBoxLayout;
    // The counter and the title across the whole window (over the notes' column too): at
    // 1280×720 with one screen the presenter view is 638 px wide, and the slide's column alone
    // left a title about 370 px.
    auto* heading = new QHBoxLayout;
    heading->addWidget(counter_);
    heading->addWidget(title_, 1);
    main->addWidget(current_);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(prev);
    buttons->addWidget(nextB);
    buttons->addStretch(1);
    buttons->addWidget(restart);
    main->addLayout(buttons);
    main->addWidget(keys);
    main->addStretch(1);

    auto* outer = new QVBoxLayout(this);
    outer->addLayout(heading);
    auto* grid = new QHBoxLayout;
    outer->addLayout(grid, 1);
    grid->addLayout(main, 3);
    grid->addLayout(side, 2);

    // The next slide is drawn by a hidden copy of the audience window (same deck, size, theme).
    lookahead_ = new PresentationWindow(audience->deck(), this);
    lookahead_->setWindowFlag(Qt::Window, false);
    lookahead_->hide();
    lookahead_->setKeyHints(false);

    // A change of the audience's picture (slide, size, F, B) is shown once, after the event that
    // caused it.
    connect(audience, &PresentationWindow::pictureChanged, this, [this] { QTimer::singleShot(0, this, &PresenterView::refresh); });
    connect(audience, &PresentationWindow::finished, this, &QWidget::close);
    connect(audience, &QObject::destroyed, this, &QWidget::close);

    timer_ = new QTimer(this);
    timer_->setInterval(250);
    connect(timer_, &QTimer::timeout, this, &PresenterView::tick);
    timer_->start();
    elapsed_.start();
    tick();
    refresh();
}

void PresenterView::restartTimer() {
    elapsed_.restart();
    tick();
}

void PresenterView::tick() {
    const qint64 s = elapsed_.elapsed() / 1000;
    const QString mmss = QStringLiteral("%1:%2").arg(s / 60 % 60, 2, 10, QLatin1Char('0')).arg(s % 60, 2, 10, QLatin1Char('0'));
    elapsedLabel_->setText(s >= 3600 ? QStringLiteral("%1:%2").arg(s / 3600).arg(mmss) : mmss);
    clockLabel_->setText(QTime::currentTime().toString(QStringLiteral("HH:mm")));
}

void PresenterView::refresh() {
    if (!audience_) return;
    const int i = audience_->current(), n = audience_->count();
    counter_->setText(tr("Slide %1 / %2 —").arg(i + 1).arg(n));
    static_cast<ElidedLabel*>(title_)->setFullText(audience_->slide().title);
    current_->setImage(audience_->slideImage());
    const QString notes = slideSpeakerNotes(audience_->slide());   // with the numbers the slide may leave out
    notes_->setPlainText(notes.isEmpty() ? tr("(no notes for this slide)") : notes);
    if (i + 1 < n) {
        if (!(lookahead_->deck().scenes == audience_->deck().scenes)) lookahead_->setDeck(audience_->deck());
        lookahead_->resize(audience_->size());
        lookahead_->setThemeName(audience_->slideTheme().name);
        lookahead_->setTextZoom(audience_->textZoom());
        lookahead_->goTo(i + 1);
        next_->setImage(lookahead_->renderSlide(audience_->size()));
        static_cast<ElidedLabel*>(nextTitle_)->setFullText(tr("Next: %1").arg(audience_->deck().scenes[std::size_t(i + 1)].title));
    } else {
        next_->setPlaceholder(tr("The end of the deck"));
        static_cast<ElidedLabel*>(nextTitle_)->setFullText(tr("Next"));
    }
}

void PresenterView::keyPressEvent(QKeyEvent* e) {
    // The presentation keys move the audience's slide (and so this view); Esc ends both.
    if (!audience_) return QWidget::keyPressEvent(e);
    QKeyEvent copy(e->type(), e->key(), e->modifiers(), e->text());
    QCoreApplication::sendEvent(audience_, &copy);
    e->setAccepted(copy.isAccepted());
}

void PresenterView::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    current_->update();
}

void PresenterView::closeEvent(QCloseEvent* e) {
    timer_->stop();
    if (audience_ && audience_->isVisible()) audience_->leave();
    QWidget::closeEvent(e);
}

}  // namespace poslab::ui
