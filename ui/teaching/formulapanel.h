#pragma once
// The formula panel: the current method's defining formulas, typeset (ui/render/formula.h), and
// the same formulas with the scene's current numbers substituted — θ_i, m·θ_i mod 2π, cos, sin,
// the rotated pair, the q·k terms (cos and sin parts) and the score the heatmap shows.
//
// formulaSheet() computes everything from the core for a scene, a configuration and a focus
// (query position, key position, pair); the widgets only draw it. The score it prints is
// scores()'s, the value of the heatmap cell (query, key) before softmax.
#include "ui/render/formula.h"
#include "ui/render/theme.h"
#include "ui/model/sceneparams.h"

#include <QCoreApplication>
#include <QThreadPool>
#include <QTimer>
#include <QWidget>

#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QSpinBox;
class QLabel;
class QScrollArea;
QT_END_NAMESPACE

namespace poslab::ui {

class Scene;
class TextLine;

struct FormulaLine {
    QString label;   // "Frequencies", "pair 3 of q at m = 5" (plain text)
    QString tex;     // formula source for Formula::parse
};

struct FormulaFocus {
    std::int64_t query = 5;   // m (RoPE, sinusoidal) / i (bias methods); clamped to [0, N)
    std::int64_t key = 2;     // n / j; clamped to [0, N)
    int pair = 0;             // rotary or sinusoidal pair index; clamped to the method's pairs
};

struct FormulaSheet {
    // The sheet's words: built by free functions off the GUI thread, they take FormulaSheet::tr
    // (context "FormulaSheet", which lupdate extracts).
    Q_DECLARE_TR_FUNCTIONS(FormulaSheet)
public:
    QString title;                       // "RoPE (rotary) — half-split, base 10000"
    std::vector<FormulaLine> definitions;
    std::vector<FormulaLine> numbers;    // the same with the current numbers
    std::optional<double> score;         // scores()(query, key), if defined
    QString note;                        // a sentence (errors, e.g. learned position past the table)
    FormulaFocus focus;                  // after clamping
};

FormulaSheet formulaSheet(const SceneParams& scene, int config, const FormulaFocus& focus);

// A sheet: a title, formulas with a label above each, and a note, in a theme and formula size.
struct SheetContent {
    QString title, note;
    std::vector<QString> labels;
    std::vector<Formula> formulas;   // parsed; copies share their cached layouts
    Theme theme;
    double formulaPt = 15;
};

// Parses `lines` into a sheet; formulas whose source equals one of `reuse` (by index) keep that
// formula and its cached layouts (the definitions stay the same while the numbers follow).
SheetContent sheetContent(const QString& title, const std::vector<FormulaLine>& lines, const QString& note,
                          const Theme& theme, double formulaPt, const std::vector<Formula>& reuse = {});

// Paints a sheet into `rect` (top-left aligned; the height is open-ended); returns the height used.
qreal paintSheet(QPainter& p, const QRectF& rect, const SheetContent& sheet);

// A sheet drawn for a view `width` logical pixels wide: its picture (what FormulaView paints,
// made on a worker thread) and the view height it needs.
struct SheetDrawing {
    SheetContent content;
    QImage image;        // the view's whole area, background included; devicePixelRatio() set
    int width = 0;       // logical width drawn for
    int height = 0;      // logical height the view needs
};
// A width <= 0 gives the content alone (no image).
SheetDrawing drawSheet(SheetContent content, int width, double devicePixelRatio);

// Draws a title and a list of formulas (label above each), in a theme's colours and size. Shows a
// SheetDrawing's picture when it fits the view's width, device pixel ratio and theme, and draws
// the sheet itself otherwise.
class FormulaView : public QWidget {
    Q_OBJECT
public:
    explicit FormulaView(QWidget* parent = nullptr);
    void setSheet(const QString& title, const std::vector<FormulaLine>& lines, const QString& note = {});
    // A sheet drawn on a worker (its content replaces this view's).
    void setDrawing(SheetDrawing drawing);
    void setTheme(const Theme& theme, double formulaPt);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return {200, 80}; }
    int lineCount() const { return int(sheet_.formulas.size()); }
    const std::vector<Formula>& formulas() const { return sheet_.formulas; }
    // Paints the whole sheet into `rect` (also used by presentation mode); returns the height used.
    qreal paintSheet(QPainter& p, const QRectF& rect) const { return ui::paintSheet(p, rect, sheet_); }
    // Whether the last paint copied a worker's drawing (false: drawn here).
    bool paintedFromDrawing() const { return fromDrawing_; }

Q_SIGNALS:
    void resized();

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    bool drawingFits() const;
    void contentChanged();
    SheetContent sheet_;
    SheetDrawing drawing_;   // image null: none
    bool fromDrawing_ = false;
    mutable int hintWidth_ = -1, hintHeight_ = 0;   // sizeHint() cache for the current content
    int layoutHeight_ = -1;                          // the height the layout was last told
};

// Panel: focus controls (query, key, pair) and the two sheets (definitions, numbers).
// The panel computes its sheet off the GUI thread (a transformer-XL sheet at d = 4096 draws a
// 4096² W_R): refresh() asks, the newest request wins, and the views change when it arrives.
class FormulaPanel : public QWidget {
    Q_OBJECT
public:
    explicit FormulaPanel(Scene* scene, QWidget* parent = nullptr);
    ~FormulaPanel() override;
    const FormulaSheet& sheet() const { return sheet_; }
    FormulaView* definitionsView() const { return defs_; }
    FormulaView* numbersView() const { return nums_; }
    void setFocusPositions(std::int64_t query, std::int64_t key, int pair);
    void refresh();
    // Blocks (processing events) until the newest request is shown or `timeoutMs` passes.
    static constexpr int kCooldownMs = 100;
    bool waitIdle(int timeoutMs = 10000);

private:
    struct Request {
        SceneParams scene;
        int config = 0;
        FormulaFocus focus;
        // How the views look: the worker draws both sheets for them.
        Theme theme;
        double formulaPt = 14;
        int width = 0;
        double devicePixelRatio = 1;
        std::vector<Formula> reuseDefinitions, reuseNumbers;
    };
    struct Result {
        FormulaSheet sheet;
        SheetDrawing definitions, numbers;
    };
    void start(Request request);
    void showSheet(Result result);

    void request();

    Scene* scene_;
    QThreadPool pool_;
    bool running_ = false;
    std::optional<Request> pending_;
    // At most one sheet per cooldown while edits stream in (a slider drag): the views come
    // first, the formulas follow at 10 Hz and show the last edit once the drag pauses.
    QTimer* cooldown_ = nullptr;
    bool dirty_ = false;
    QSpinBox* query_ = nullptr;
    QSpinBox* key_ = nullptr;
    QSpinBox* pair_ = nullptr;
    TextLine* score_ = nullptr;
    FormulaView* defs_ = nullptr;
    FormulaView* nums_ = nullptr;
    FormulaSheet sheet_;
};

}  // namespace poslab::ui
