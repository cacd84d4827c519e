#pragma once
// The demonstration panel: a demonstration's claim, its numbers (core/demonstrations.h), what
// they show, and a small picture of the evidence (the two heatmaps that must be equal, the decay
// curve, the operation counts, the extrapolation verdicts, the bf16 phase error of both code
// paths, the two models' layer overviews, the comparison table whose cells open the
// demonstration that shows them). paintDemo() draws it on any painter — the dock in the window
// and presentation mode call the same function.
#include "core/demonstrations.h"
#include "ui/teaching/demotext.h"
#include "ui/render/theme.h"

#include <QWidget>

#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QScrollArea;
QT_END_NAMESPACE

namespace poslab::ui {

// Everything a demonstration computed, at its default inputs (computed once, then cached), and
// those inputs (the numbers the panel names come from them, never from the text).
struct DemoData {
    SinusoidalDemoInput sinusoidalInput;
    RopeDemoInput ropeInput;
    ExtrapolationInput extrapolationInput;
    DemoSummary summary;
    DemoTexts texts;   // the summary's words (demotext.h): one label and note per figure, the conclusion
    std::optional<PermutationResult> permutation;
    std::optional<SinusoidalDemoResult> sinusoidal;
    std::optional<RopeDemoResult> rope;
    std::optional<RopeDecayResult> decay;
    std::optional<KvCacheResult> kv;
    std::optional<ExtrapolationResult> extrapolation;
    std::optional<LayoutDemoResult> layouts;
    std::optional<ComparisonTable> table;
    std::optional<MropeSectionsResult> sections;
    QString error;   // when a computation failed (should not happen at the defaults)
    // The words of one of summary's figures.
    const DemoFigureText& text(const DemoFigure& f) const;
};
const DemoData& demoData(DemoId id);

// The demonstration's claim as a formula source (ui/render/formula.h); empty for the table.
QString demoFormula(DemoId id);

// Demonstrations whose own evidence is wide (the comparison table, the two layer overviews): on
// a slide it takes the whole width, without the scene's views beside it.
bool demoFillsSlide(DemoId id);

// A clickable area of a painted demonstration (comparison-table cells).
struct DemoHit {
    QRectF rect;
    DemoId target;
};

// How much of a demonstration a slide holds: presentation mode takes the most that fits at the
// slide's smallest legible type (never smaller type). Full: everything; NoNotes: the figures
// without the notes under them; FewFigures: also only the first kSlideFigures figures (those that
// carry the claim); ClaimOnly: the claim, its formula, those figures and the conclusion, without
// the evidence picture. What a slide leaves out is in its speaker notes (demoSpeakerNotes).
enum class DemoDetail { Full, NoNotes, FewFigures, ClaimOnly };
inline constexpr int kSlideFigures = 3;
// The figures that carry the demonstration's claim (what FewFigures and ClaimOnly keep): the first
// kSlideFigures, or one per method the claim names where it names more (kv-cache: RoPE, ALiBi,
// T5 and Shaw, each with its own stale error).
int demoSlideFigures(DemoId id);

// Whether `s` wrapped at `width` in `font` (on `device`) has a first line shorter than half its
// widest line: a stub, beside which a value would stand for the whole label.
bool firstLineIsAStub(const QString& s, const QFont& font, qreal width, QPaintDevice* device);

// Draws the demonstration in `rect` (top-aligned). Returns the height used. `hits` receives the
// clickable cells. `compact` leaves out the title (when a title above already says it); a compact
// formula never shrinks below the theme's small type (it is left out where it cannot fit: the
// formula sheet has it).
qreal paintDemo(QPainter& p, const QRectF& rect, DemoId id, const Theme& theme, std::vector<DemoHit>* hits = nullptr,
                bool compact = false, DemoDetail detail = DemoDetail::Full);

// Every figure of the demonstration with its value and note, one per line, as plain text: what a
// slide that holds less (DemoDetail) leaves to the speaker notes.
QString demoSpeakerNotes(DemoId id);

class DemoCanvas : public QWidget {
    Q_OBJECT
public:
    explicit DemoCanvas(QWidget* parent = nullptr);
    void setDemo(std::optional<DemoId> id);
    void setTheme(const Theme& t);
    std::optional<DemoId> demo() const { return demo_; }
    const std::vector<DemoHit>& hits() const { return hits_; }
    QSize sizeHint() const override;

Q_SIGNALS:
    void demoRequested(poslab::DemoId id);

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    qreal measure(int width) const;
    std::optional<DemoId> demo_;
    Theme theme_;
    std::vector<DemoHit> hits_;
};

class DemoPanel : public QWidget {
    Q_OBJECT
public:
    explicit DemoPanel(QWidget* parent = nullptr);
    void showDemo(DemoId id);
    std::optional<DemoId> currentDemo() const { return canvas_->demo(); }
    DemoCanvas* canvas() const { return canvas_; }
    void setTheme(const Theme& t) { canvas_->setTheme(t); }

Q_SIGNALS:
    void demoRequested(poslab::DemoId id);

private:
    DemoCanvas* canvas_ = nullptr;
    QScrollArea* scroll_ = nullptr;
};

}  // namespace poslab::ui
