#pragma once
// The presenter view: what the lecturer sees while the audience sees the slide (presentation.h).
//   left    the current slide, as the audience sees it (the audience window's own picture, scaled)
//   right   the next slide (or "end of the deck"), the speaker notes, and a timer: time since the
//           presentation started (mm:ss, h:mm:ss past an hour) and the clock (hh:mm)
//   bottom  ◀ previous · next ▶ · restart the timer
// The audience window is put in audience mode (PresentationWindow::setAudience): no key-hint
// footer and no notes band, ever. The presentation keys pressed here go to the audience window,
// so both move together; Esc there (or here) ends both.
//
// Where the two go (presenterScreens): with two or more screens the audience's slide is full
// screen on a screen other than the main window's, and the presenter view fills the main
// window's screen; with one screen there is no second place for the audience, so the
// presenter view opens as a window beside a windowed audience slide (a rehearsal).
#include <QPointer>
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

// A widget that shows a slide image scaled to fit, keeping its aspect ratio.
class SlidePreview : public QWidget {
    Q_OBJECT
public:
    explicit SlidePreview(QWidget* parent = nullptr);
    void setImage(const QImage& image);
    void setPlaceholder(const QString& text);   // shown instead of an image (e.g. the end of the deck)
    const QImage& image() const { return image_; }
    QSize sizeHint() const override { return {480, 270}; }

protected:
    void paintEvent(QPaintEvent*) override;

private:
    QImage image_;
    QString placeholder_;
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
    QLabel* nextTitle_ = nullptr;
    QTimer* timer_ = nullptr;
    QElapsedTimer elapsed_;
};

}  // namespace poslab::ui
