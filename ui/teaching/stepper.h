#pragma once
// The worked-example stepper: pick an example (RoPE on a small vector, a sinusoidal row, ALiBi
// slopes, a T5 bucket), edit its inputs, and step through it one operation at a time with Back
// and Next. Each step shows its title, one sentence, the operation typeset, and the numbers it
// produced (core/worked_examples.h computes them with the real core functions).
#include "core/worked_examples.h"
#include "ui/render/theme.h"

#include <QWidget>

#include <optional>

QT_BEGIN_NAMESPACE
class QComboBox;
class QStackedWidget;
class QPushButton;
class QLabel;
class QSpinBox;
class QDoubleSpinBox;
class QLineEdit;
class QCheckBox;
QT_END_NAMESPACE

namespace poslab::ui {

enum class WorkedKind { Rope, Sinusoidal, Alibi, T5 };

// Draws step `step` (0-based) of an example: the trail of earlier step titles, the step's
// title, explanation, formula and values. Returns the height used.
qreal paintWorkedStep(QPainter& p, const QRectF& rect, const WorkedExample& ex, int step, const Theme& theme);

// "1, 0, 1, 0" → numbers; nullopt on a malformed list.
std::optional<std::vector<double>> parseWorkedNumbers(const QString& text);

class StepCanvas : public QWidget {
    Q_OBJECT
public:
    explicit StepCanvas(QWidget* parent = nullptr);
    void set(const std::optional<WorkedExample>& ex, int step, const QString& error);
    void setTheme(const Theme& t);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;

private:
    qreal measure(int w) const;
    std::optional<WorkedExample> ex_;
    int step_ = 0;
    QString error_;
    Theme theme_;
};

class WorkedExampleWidget : public QWidget {
    Q_OBJECT
public:
    explicit WorkedExampleWidget(QWidget* parent = nullptr);

    void setExample(WorkedKind k);
    WorkedKind example() const { return kind_; }
    int step() const { return step_; }
    int stepCount() const;
    const std::optional<WorkedExample>& current() const { return example_; }
    QString inputError() const { return error_; }
    void setTheme(const Theme& t);

    // Input editors (tests drive them).
    QSpinBox* ropeDim() const { return ropeDim_; }
    QSpinBox* ropePosition() const { return ropePos_; }
    QLineEdit* ropeTheta() const { return ropeTheta_; }
    QLineEdit* ropeQ() const { return ropeQ_; }
    QComboBox* ropeLayout() const { return ropeLayout_; }
    QSpinBox* alibiHeads() const { return alibiHeads_; }
    QSpinBox* t5Relative() const { return t5Rel_; }
    QPushButton* nextButton() const { return next_; }
    QPushButton* backButton() const { return back_; }

public Q_SLOTS:
    void next();
    void back();
    void setStep(int step);

Q_SIGNALS:
    void stepChanged(int step);

private:
    void recompute();
    void update_();
    QWidget* buildRopeInputs();
    QWidget* buildSinusoidalInputs();
    QWidget* buildAlibiInputs();
    QWidget* buildT5Inputs();

    WorkedKind kind_ = WorkedKind::Rope;
    int step_ = 0;
    std::optional<WorkedExample> example_;
    QString error_;

    QComboBox* which_ = nullptr;
    QStackedWidget* inputs_ = nullptr;
    QPushButton* back_ = nullptr;
    QPushButton* next_ = nullptr;
    QLabel* counter_ = nullptr;
    StepCanvas* canvas_ = nullptr;
    // RoPE
    QSpinBox* ropeDim_ = nullptr;
    QSpinBox* ropePos_ = nullptr;
    QLineEdit* ropeTheta_ = nullptr;
    QLineEdit* ropeQ_ = nullptr;
    QComboBox* ropeLayout_ = nullptr;
    QComboBox* ropePrecision_ = nullptr;
    // Sinusoidal
    QSpinBox* sinDim_ = nullptr;
    QSpinBox* sinPos_ = nullptr;
    QDoubleSpinBox* sinBase_ = nullptr;
    QComboBox* sinLayout_ = nullptr;
    // ALiBi
    QSpinBox* alibiHeads_ = nullptr;
    QDoubleSpinBox* alibiB_ = nullptr;
    QSpinBox* alibiQuery_ = nullptr;
    // T5
    QSpinBox* t5Rel_ = nullptr;
    QSpinBox* t5Buckets_ = nullptr;
    QSpinBox* t5MaxDist_ = nullptr;
    QCheckBox* t5Bidir_ = nullptr;
};

}  // namespace poslab::ui
