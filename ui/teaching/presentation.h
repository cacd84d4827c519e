#pragma once
// Presentation mode: a full-screen window that shows one deck slide at a time in the
// high-contrast projector theme, with type and lines scaled for a 1920×1080 projector:
//   title band   the slide title and its number ("3 / 12")
//   left         the slide's views, drawn by the same renderers as the window (export.h paintViews),
//                arranged as the slide says (SlideLayout, session.h): one view filling the slide,
//                two side by side, a 2×2 grid, or a demonstration's views beside its numbers;
//                "auto" (older decks) = the scene's shown views in the window's grid
//   right        the slide's numbers: a demonstration's panel (demopanel.h paintDemo) when the
//                slide was made from one, else the formula sheet of its first configuration
//                (shown by default for a demonstration, and for an "auto" slide with at most two
//                views; F shows or hides it)
// Speaker notes are never part of the slide the audience sees: N shows them only in a presenter's
// band at the bottom (one screen), and figures of a slide never include them; with a presenter
// view (presenter.h) the audience window shows neither the notes nor the key-hint footer.
// Keys (in the handbook: presentationKeys(); H lists them in a footer, never on the audience's
// window of a presenter view, never by itself):
//       PageDown, →, ↓, Space, Enter = next; PageUp, ←, ↑, Backspace = previous; Home/End;
//       P = pointer, D = draw, C = clear the drawing, N = speaker notes, H = the keys,
//       B = black screen, F = toggle the numbers column, Ctrl++ / Ctrl+− / Ctrl+0 = larger, smaller,
//       the deck's own text; Esc = leave (emits finished(current)).
// Text on a slide is never smaller than slideMinTextPx: a slide that cannot hold its numbers at
// that size holds less (DemoDetail, demopanel.h) and leaves the rest to the speaker notes.
// The pointer/annotation overlay is a transparent widget on top; drawings belong to a slide
// and are kept while the deck is open. A drawing belongs to what it was drawn on (a plot's data
// area, else a view, the numbers column, the title): it is kept relative to that part of the
// slide, so when F, N or a new window size moves that part, the drawing moves and scales with it
// (and while F hides the numbers column, the drawings on it are hidden with it).
#include "ui/render/layout.h"
#include "ui/render/theme.h"
#include "ui/io/session.h"

#include <QImage>
#include <QPointer>
#include <QWidget>

#include <map>
#include <vector>

namespace poslab::ui {

// The views a slide shows, in order (the arrangement's, else the scene's shown views).
std::vector<ViewKind> slideViews(const SessionScene& slide);
// Where a slide's n views go inside `area` (gap between them): one fills it; two side by side
// (a demonstration's two are stacked when that gives each a larger short side); three or four a 2×2 grid (a
// third spans the bottom row). Pure geometry, so a layout engine can take it over.
std::vector<QRectF> slideViewRects(SlideArrangement arrangement, int n, const QRectF& area, qreal gap);

// The smallest text a slide holds at `height` pixels: 24 px at 1080, 16 px at 720 (legible from
// the back of a lecture room), times `textScale` (the deck's text size and the presenter's zoom).
double slideMinTextPx(double height, double textScale = 1.0);

// A slide's speaker notes (slideNotesText) and, for a demonstration's slide, every number of it
// with its note (demoSpeakerNotes): what the slide itself may leave out.
QString slideSpeakerNotes(const SessionScene& slide);

// The keys of presentation mode, for the handbook and the welcome page: each row's keys (Qt::Key
// values) and what they do. keyPressEvent handles exactly these keys (tests/ui/test_handbook checks).
struct PresentationKey {
    std::vector<int> keys;
    const char* action;
};
const std::vector<PresentationKey>& presentationKeys();

class AnnotationOverlay : public QWidget {
    Q_OBJECT
public:
    enum class Tool { None, Pointer, Pen };
    explicit AnnotationOverlay(QWidget* parent);
    void setTool(Tool t);
    Tool tool() const { return tool_; }
    void clear();
    // Strokes of the current drawing (for tests and for keeping them per slide).
    using Stroke = std::vector<QPointF>;
    const std::vector<Stroke>& strokes() const { return strokes_; }
    void setStrokes(const std::vector<Stroke>& s);
    void setPenWidth(qreal w) { penWidth_ = w; }
    QPointF pointer() const { return pointer_; }

Q_SIGNALS:
    void strokesChanged();

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void leaveEvent(QEvent*) override;

private:
    Tool tool_ = Tool::None;
    std::vector<Stroke> strokes_;
    bool drawing_ = false;
    QPointF pointer_{-100, -100};
    qreal penWidth_ = 6;
};

class PresentationWindow : public QWidget {
    Q_OBJECT
public:
    explicit PresentationWindow(const Session& deck, QWidget* parent = nullptr);

    void setDeck(const Session& deck);
    const Session& deck() const { return deck_; }
    int current() const { return current_; }
    int count() const { return int(deck_.scenes.size()); }
    const SessionScene& slide() const;
    AnnotationOverlay* overlay() const { return overlay_; }
    bool numbersShown() const { return showNumbers_; }
    bool notesShown() const { return showNotes_; }
    bool blanked() const { return blank_; }

    // The theme a slide is drawn in at the window's size (projector, scaled to the height).
    Theme slideTheme() const;
    // Renders the current slide (without the overlay) at `size` (logical pixels) on an image of
    // size × dpr device pixels (a 4K screen at device pixel ratio 2: size 1920×1080, dpr 2); what
    // paintEvent shows at the screen's ratio.
    QImage renderSlide(QSize size, qreal dpr = 1) const;
    // The same drawing on any painter (SVG, PDF) covering (0, 0, size); the theme's text and
    // lines are scaled to the window's height (resize it to `size` first).
    void paintSlide(QPainter& p, QSize size) const;
    // The theme slides are drawn in: "projector" (default), "light" or "dark" (figures).
    void setThemeName(const QString& name) { themeName_ = name; invalidate(); }
    // The footer with the keys: off unless asked for (H, or here); never in audience mode.
    void setKeyHints(bool on) { keyHints_ = on && !audience_; invalidate(); }
    bool keyHints() const { return keyHints_; }
    // Audience mode (a presenter view shows the notes and the keys elsewhere, presenter.h): no
    // key-hint footer and no notes band on this window, whatever is pressed.
    void setAudience(bool on);
    bool audience() const { return audience_; }
    // The layout report (ui/render/layout.h) of the current slide drawn at `size`: every text with
    // its pixel size ("px"), the plots, legends and colour bars; view "slide" for the slide's own
    // title, counter and numbers column.
    LayoutReport slideLayout(QSize size) const;
    // Ctrl++ / Ctrl+− while presenting: the slide's text size times this (1 = the deck's own).
    double textZoom() const { return zoom_; }
    void setTextZoom(double zoom);
    // The picture of the current slide at the window's size and device pixel ratio, as shown
    // (drawn once per slide and size; the presenter view shows the same picture).
    QImage slideImage() const;

    // Areas of the last rendered slide (for checks of clipping and overlap).
    struct Layout {
        QRectF title, counter, views, numbers, footer;
        std::vector<QRectF> viewRects;   // each arranged view's area (empty for "auto")
        qreal numbersHeightNeeded = 0;   // height the numbers column wanted at the chosen scale
        double numbersScale = 1;         // font scale used for the numbers column
        std::vector<QRectF> plots;       // the data areas drawn, in drawing order (slideImage() only)
        int numbersDetail = 0;           // how much of a demonstration it holds (DemoDetail, demopanel.h)
    };
    Layout lastLayout() const { return layout_; }

public Q_SLOTS:
    void next();
    void previous();
    void goTo(int index);
    void leave();

Q_SIGNALS:
    void slideChanged(int index);
    void finished(int index);
    // What the window shows changed (slide, size, numbers, notes, black screen): slideImage() anew.
    void pictureChanged();

protected:
    void paintEvent(QPaintEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void closeEvent(QCloseEvent*) override;

private:
    void invalidate();
    void storeStrokes();
    void showStrokes();
    void applySlideDefaults();
    // A stroke kept relative to the part of the slide it was drawn on (anchor: a view's index, the
    // views' area, the numbers column, the title, or the whole slide), in that part's unit square.
    struct AnchoredStroke {
        int anchor = -1;
        std::vector<QPointF> points;
    };
    Session deck_;
    QString themeName_ = QStringLiteral("projector");
    int current_ = 0;
    bool showNumbers_ = true, showNotes_ = false, blank_ = false, keyHints_ = false, audience_ = false;
    AnnotationOverlay* overlay_ = nullptr;
    mutable QImage cache_;
    mutable Layout layout_;
    mutable Layout shown_;   // the layout of slideImage(), with its plots: what drawings belong to
    std::map<int, std::vector<AnchoredStroke>> drawings_;
    bool finishedEmitted_ = false;
    double zoom_ = 1.0;
};

}  // namespace poslab::ui
