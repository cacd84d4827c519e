#pragma once
// The presenter view: what the lecturer sees while the audience sees the slide (presentation.h).
//   left    the slide number and title, the current slide as the audience sees it (the audience
//           window's own picture, scaled), ◀ previous · next ▶ · restart the timer, the keys
//   right   the next slide (or "end of the deck"), the speaker notes, and a timer: time since the
//           presentation started (mm:ss, h:mm:ss past an hour) and the clock (hh:mm)
// Each preview's box has its slide's shape (no bands beside or above the picture), and a long
// title is cut short with "…" rather than widening the window: the view never grows past the
// size it is given.
// The audience window is put in audience mode (PresentationWindow::setAudience): no key-hint
// footer and no notes band, ever. The presentation keys pressed here go to the audience window,
// so both move together; Esc there (or here) ends both.
//
// Where the two go (presenterScreens): with two or more screens the audience's slide is full
// screen on a screen other than the main window's, and the presenter view fills the main
// window's screen; with one screen there is no second place for the audience, so the
// presenter view opens as a window beside a windowed audience slide (a rehearsal):
// rehearsalGeometry() puts them side by side within the screen, without overlap.
#include <QMargins>
#include <QPointer>
#include <QRect>
#include <QSize>
#include <QWidget>

#include <QElapsedTimer>

QT_BEGIN_NAMESPACE
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QScreen;
class QTimer;
QT_END_NAMESPACE

namespace poslab::ui {

class PresentationWindow;

// The screens of a presentation: the audience's and the presenter's (the same screen when
// there is only one; nullptrs when there are none).
struct PresenterScreens {
    QScreen* audience = nullptr;
    QScreen* presenter = nullptr;
    bool separate() const { return audience && presenter && audience != presenter; }
};
// `screens` in the order QGuiApplication::screens() gives them; `home` = the main window's
// screen (the presenter's). The audience gets the first other screen.
PresenterScreens presenterScreens(const QList<QScreen*>& screens, QScreen* home);

// One screen: where the two windows go inside `available` (the screen's available geometry), as
// client rectangles, given the margins the window manager's frames add (`frame`): the audience's
// slide on the left, 16:9 (as large as half the width allows), the presenter view on the right,
// filling the rest (at least `presenterMinimum` wide: the audience's slide is made smaller for
// it); frames included, neither overlaps the other nor leaves `available`.
struct RehearsalGeometry {
    QRect audience, presenter;
};
RehearsalGeometry rehearsalGeometry(const QRect& available, const QMargins& frame, const QSize& presenterMinimum = QSize());

// A widget that shows a slide image scaled to fit, keeping its aspect ratio; its height follows
// its width in the slide's proportions (heightForWidth), so that in a layout the picture fills it.
class SlidePreview : public QWidget {
    Q_OBJECT
public:
    explicit SlidePreview(QWidget* parent = nullptr);
    void setImage(const QImage& image);
    void setPlaceholder(const QString& text);   // shown instead of an image (e.g. the end of the deck)
    const QImage& image() const { return image_; }
    // The rectangle the picture fills inside the widget.
    QRectF pictureRect() const;
    QSize sizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int w) const override;

protected:
    void paintEvent(QPaintEvent*) override;

private:
    QImage image_;
    QString placeholder_;
    double aspect_ = 9.0 / 16.0;   // height / width of the slides shown
};

class PresenterView : public QWidget {
    Q_OBJECT
public:
    // `audience` is the presentation window the audience sees (not owned); it is put in
    // audience mode. The view closes when the audience window finishes.
    explicit PresenterView(PresentationWindow* audience, QWidget* parent = nullptr);

    PresentationWindow* audience() const { return audience_; }
    SlidePreview* currentSlide() const { return current_; }
    SlidePreview* nextSlide() const { return next_; }
    QPlainTextEdit* notes() const { return notes_; }
    QLabel* elapsedLabel() const { return elapsedLabel_; }
    QLabel* clockLabel() const { return clockLabel_; }
    QLabel* counterLabel() const { return counter_; }
    QLabel* titleLabel() const { return title_; }
    QLabel* nextTitleLabel() const { return nextTitle_; }
    // Milliseconds since the presentation started (or the timer was restarted).
    qint64 elapsedMs() const { return elapsed_.elapsed(); }

public Q_SLOTS:
    void restartTimer();
    // Reads the audience window's slide, the next one and the notes anew.
    void refresh();

protected:
    void keyPressEvent(QKeyEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void closeEvent(QCloseEvent* e) override;

private:
    void tick();
    QPointer<PresentationWindow> audience_;
    PresentationWindow* lookahead_ = nullptr;   // a hidden copy that draws the next slide
    SlidePreview* current_ = nullptr;
    SlidePreview* next_ = nullptr;
    QPlainTextEdit* notes_ = nullptr;
    QLabel* elapsedLabel_ = nullptr;
    QLabel* clockLabel_ = nullptr;
    QLabel* counter_ = nullptr;
    QLabel* title_ = nullptr;
    QLabel* nextTitle_ = nullptr;
    QTimer* timer_ = nullptr;
    QElapsedTimer elapsed_;
};

}  // namespace poslab::ui
