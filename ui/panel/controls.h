#pragma once
// Controls of the parameter panel, generated from the parameter table (core/param.h).
//
// Every box accepts exactly what the core accepts: the text is parsed by parseParamText (the
// command line's parser: scientific notation, lists, ranges) and checked against the
// declaration's range. Nothing is clamped, truncated or rounded: text that is not valid is
// marked invalid where it was typed, the row shows the message naming the valid range, and
// nothing is sent to the scene (the views keep the last valid scene).
// A box shows the scene's value unless the person is typing in it; a value that changed in the
// scene (undo, a preset, a reset) replaces what is in the box, and Enter in a box whose text
// is the shown value edits nothing.
#include "core/param.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSlider>
#include <QWidget>

#include <optional>

namespace poslab::ui {

// A line edit for one parameter's text, validated on every keystroke. While it is not being
// edited it shows real numbers for people (at most kFieldDigits significant digits: 2.41e7, not
// 24099999.999999996); focused (to edit or copy) it holds the full value. Enter or leaving the
// box with either text unchanged edits nothing.
class ParamEdit : public QLineEdit {
    Q_OBJECT
public:
    explicit ParamEdit(const ParamInfo& info, QWidget* parent = nullptr);
    // Shows the scene's value (no signal). Keeps what the person is typing unless the value
    // changed since it was last shown.
    void showValue(const ParamValue& v);
    const ParamInfo& info() const { return info_; }
    // The problem with the current text ("" = valid).
    QString problem() const { return problem_; }
    // The value as files keep it (what the box holds while focused).
    QString fullText() const { return full_; }
    static constexpr int kFieldDigits = 6;

Q_SIGNALS:
    void committed(const poslab::ParamValue& value);   // Enter / focus out with a new valid value
    void problemChanged(const QString& problem);

protected:
    void focusInEvent(QFocusEvent* e) override;
    void focusOutEvent(QFocusEvent* e) override;

private:
    void check();
    void showText(const QString& t);
    ParamInfo info_;
    QString full_, brief_;   // the scene's value: in full, and for people
    QString shown_;       // the text of the value last shown from the scene
    bool hasShown_ = false;
    QString problem_;
};

// A number box with a slider beside it (linear or logarithmic over the valid range). The slider
// reports every value while it is dragged; a typed value commits on Enter/focus-out and may lie
// anywhere in the valid range (the slider then rests at its end).
class SliderSpin : public QWidget {
    Q_OBJECT
public:
    SliderSpin(const ParamInfo& info, QWidget* parent = nullptr);
    double value() const { return value_; }
    void setValue(double v);          // no signal
    QSlider* slider() const { return slider_; }
    ParamEdit* edit() const { return edit_; }

Q_SIGNALS:
    void valueChanged(double value);
    void editingFinished();           // slider released or typing finished
    void problemChanged(const QString& problem);

private:
    int toSlider(double v) const;
    double fromSlider(int s) const;
    ParamInfo info_;
    QSlider* slider_;
    ParamEdit* edit_;
    double lo_, hi_, value_ = 0;
    bool log_ = true;
    bool even_ = false;   // the slider proposes even values only (ParamInfo::even, kParamSliderEven)
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

// The mouse wheel over a combo box, spin box or slider changes it only once it has the keyboard
// focus (a click or Tab gives it); otherwise the wheel goes on to what holds it, so scrolling a
// panel never changes a setting behind the person's back. Applies to every such control under
// `root` (call it once the controls exist).
void wheelOnlyWhenFocused(QWidget* root);

// The declaration's words for people, translated ("β fast", its help line with the valid range).
QString paramLabel(const ParamInfo& info);
QString paramToolTip(const ParamInfo& info);

}  // namespace poslab::ui
