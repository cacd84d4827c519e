#pragma once
// Small composite controls for the parameter panel: a slider coupled to a spin box (linear or
// logarithmic), and an optional number (check box + spin box). The slider reports every value
// while it is dragged (valueChanged, not on release); typed values commit on Enter/focus-out.
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QSlider>
#include <QWidget>

#include <optional>

namespace poslab::ui {

class SliderSpin : public QWidget {
    Q_OBJECT
public:
    enum class Scale { Linear, Log };
    // Integer or real values in [lo, hi]; `step` is the spin box step and the slider's
    // granularity on a linear scale (e.g. 2 for even dimensions).
    SliderSpin(double lo, double hi, double step, int decimals, Scale scale, QWidget* parent = nullptr);
    double value() const { return spin_->value(); }
    void setValue(double v);          // no signal
    void setRange(double lo, double hi);
    QSlider* slider() const { return slider_; }
    QDoubleSpinBox* spin() const { return spin_; }

Q_SIGNALS:
    void valueChanged(double value);
    void editingFinished();           // slider released or typing finished

private:
    int toSlider(double v) const;
    double fromSlider(int s) const;
    QSlider* slider_;
    QDoubleSpinBox* spin_;
    double lo_, hi_, step_;
    Scale scale_;
    int decimals_;
};

class OptionalNumber : public QWidget {
    Q_OBJECT
public:
    OptionalNumber(double lo, double hi, double step, int decimals, double defaultValue, QWidget* parent = nullptr);
    std::optional<double> value() const;
    void setValue(std::optional<double> v);   // no signal
    QCheckBox* check() const { return check_; }
    QDoubleSpinBox* spin() const { return spin_; }

Q_SIGNALS:
    void valueChanged(std::optional<double> value);

private:
    QCheckBox* check_;
    QDoubleSpinBox* spin_;
};

// One line of text that follows live values (a score under a slider drag). Unlike QLabel, whose
// setText() asks every ancestor for a new layout (up to the main window, repainting it), a new
// text here only repaints this line: its size hint is one line of `sample` text whatever it shows.
// Text too wide for the line is elided; the full text is the tool tip.
class TextLine : public QWidget {
    Q_OBJECT
public:
    explicit TextLine(const QString& sample, QWidget* parent = nullptr);
    void setText(const QString& text);
    QString text() const { return text_; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent*) override;

private:
    QString text_, sample_;
};

// 3 significant digits (slider values read as round numbers: 10000, 12300, 0.0456).
double roundSignificant(double v, int digits = 3);

}  // namespace poslab::ui
