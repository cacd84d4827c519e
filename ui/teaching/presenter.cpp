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

// ============================================================================ preview
SlidePreview::SlidePreview(QWidget* parent) : QWidget(parent) {
    setMinimumSize(160, 90);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void SlidePreview::setImage(const QImage& image) {
    image_ = image;
    placeholder_.clear();
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
    // The slide scaled to fit, centred, aspect ratio kept.
    const QSizeF img = image_.deviceIndependentSize();
    const qreal k = std::min(width() / img.width(), height() / img.height());
    const QSizeF s = img * k;
    const QRectF target((width() - s.width()) / 2, (height() - s.height()) / 2, s.width(), s.height());
    p.setRenderHint(QPainter::SmoothPixmapTransform);
    p.drawImage(target, image_);
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(target.adjusted(-0.5, -0.5, 0.5, 0.5));
}

// ============================================================================ presenter view
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
    nextTitle_ = new QLabel(tr("Next"), this);
    elapsedLabel_ = new QLabel(this);
    elapsedLabel_->setObjectName(QStringLiteral("presenterElapsed"));
    elapsedLabel_->setToolTip(tr("Time since the presentation started"));
    clockLabel_ = new QLabel(this);
    clockLabel_->setObjectName(QStringLiteral("presenterClock"));
    clockLabel_->setToolTip(tr("The time of day"));
    for (QLabel* l : {elapsedLabel_, clockLabel_, counter_}) {
        QFont f = l->font();
        f.setPointSizeF(f.pointSizeF() * 2);
        f.setBold(true);
        l->setFont(f);
    }
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

    auto* side = new QVBoxLayout;
    side->addWidget(nextTitle_);
    side->addWidget(next_, 3);
    side->addWidget(new QLabel(tr("Notes"), this));
    side->addWidget(notes_, 4);
    auto* clocks = new QHBoxLayout;
    clocks->addWidget(elapsedLabel_);
    clocks->addStretch(1);
    clocks->addWidget(clockLabel_);
    side->addLayout(clocks);

    auto* main = new QVBoxLayout;
    main->addWidget(counter_);
    main->addWidget(current_, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(prev);
    buttons->addWidget(nextB);
    buttons->addStretch(1);
    buttons->addWidget(restart);
    main->addLayout(buttons);

    auto* grid = new QHBoxLayout(this);
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
    counter_->setText(tr("Slide %1 / %2 — %3").arg(i + 1).arg(n).arg(audience_->slide().title));
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
        nextTitle_->setText(tr("Next: %1").arg(audience_->deck().scenes[std::size_t(i + 1)].title));
    } else {
        next_->setPlaceholder(tr("The end of the deck"));
        nextTitle_->setText(tr("Next"));
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
