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
#include "ui/sceneparams.h"

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
    QString title;                       // "RoPE (rotary) — half-split, base 10000"
    std::vector<FormulaLine> definitions;
    std::vector<FormulaLine> numbers;    // the same with the current numbers
    std::optional<double> score;         // scores()(query, key), if defined
    QString note;                        // a sentence (errors, e.g. learned position past the table)
    FormulaFocus focus;                  // after clamping
};

FormulaSheet formulaSheet(const SceneParams& scene, int config, const FormulaFocus& focus);

// Draws a title and a list of formulas (label above each), in a theme's colours and size.
class FormulaView : public QWidget {
    Q_OBJECT
public:
    explicit FormulaView(QWidget* parent = nullptr);
    void setSheet(const QString& title, const std::vector<FormulaLine>& lines, const QString& note = {});
    void setTheme(const Theme& theme, double formulaPt);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return {200, 80}; }
    int lineCount() const { return int(formulas_.size()); }
    const std::vector<Formula>& formulas() const { return formulas_; }
    // Paints the whole sheet into `rect` (also used by presentation mode); returns the height used.
    qreal paintSheet(QPainter& p, const QRectF& rect) const;

protected:
    void paintEvent(QPaintEvent*) override;

private:
    QString title_, note_;
    std::vector<QString> labels_;
    std::vector<Formula> formulas_;
    Theme theme_;
    double formulaPt_ = 15;
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
    };
    void start(Request request);
    void showSheet(const FormulaSheet& sheet);

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
    QLabel* score_ = nullptr;
    FormulaView* defs_ = nullptr;
    FormulaView* nums_ = nullptr;
    FormulaSheet sheet_;
};

}  // namespace poslab::ui
