#include "ui/panel/controls.h"

#include <QHBoxLayout>
#include <QPainter>
#include <QSignalBlocker>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

double roundSignificant(double v, int digits) {
    if (v == 0 || !std::isfinite(v)) return v;
    const double mag = std::pow(10.0, digits - 1 - static_cast<int>(std::floor(std::log10(std::abs(v)))));
    return std::round(v * mag) / mag;
}

SliderSpin::SliderSpin(double lo, double hi, double step, int decimals, Scale scale, QWidget* parent)
    : QWidget(parent), lo_(lo), hi_(hi), step_(step), scale_(scale), decimals_(decimals) {
    auto* l = new QHBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    slider_ = new QSlider(Qt::Horizontal, this);
    spin_ = new QDoubleSpinBox(this);
    spin_->setDecimals(decimals);
    spin_->setRange(lo, hi);
    spin_->setSingleStep(step);
    spin_->setKeyboardTracking(false);
    spin_->setMinimumWidth(spin_->fontMetrics().horizontalAdvance(QStringLiteral("0000000.00")) + 16);
    slider_->setTracking(true);
    setRange(lo, hi);
    l->addWidget(slider_, 1);
    l->addWidget(spin_);
    connect(slider_, &QSlider::valueChanged, this, [this](int s) {
        double v = fromSlider(s);
        if (toSlider(spin_->value()) == s) return;  // the spin box already holds a value on this tick
        const QSignalBlocker b(spin_);
        spin_->setValue(v);
        Q_EMIT valueChanged(spin_->value());
    });
    connect(slider_, &QSlider::sliderReleased, this, &SliderSpin::editingFinished);
    connect(spin_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        const QSignalBlocker b(slider_);
        slider_->setValue(toSlider(v));
        Q_EMIT valueChanged(v);
    });
    connect(spin_, &QDoubleSpinBox::editingFinished, this, &SliderSpin::editingFinished);
}

void SliderSpin::setRange(double lo, double hi) {
    lo_ = lo;
    hi_ = hi;
    spin_->setRange(lo, hi);
    if (scale_ == Scale::Log) {
        slider_->setRange(0, 1000);
    } else {
        slider_->setRange(0, std::max(1, static_cast<int>(std::lround((hi - lo) / step_))));
    }
    slider_->setPageStep(std::max(1, slider_->maximum() / 20));
}

int SliderSpin::toSlider(double v) const {
    if (scale_ == Scale::Log) {
        const double t = (std::log(std::max(v, lo_)) - std::log(lo_)) / (std::log(hi_) - std::log(lo_));
        return static_cast<int>(std::lround(std::clamp(t, 0.0, 1.0) * 1000));
    }
    return static_cast<int>(std::lround((v - lo_) / step_));
}

double SliderSpin::fromSlider(int s) const {
    if (scale_ == Scale::Log) {
        double v = std::exp(std::log(lo_) + (std::log(hi_) - std::log(lo_)) * s / 1000.0);
        if (decimals_ == 0 && step_ > 1) v = std::round(v / step_) * step_;   // e.g. even dimensions
        else if (decimals_ == 0) v = std::round(roundSignificant(v, 2));
        else v = roundSignificant(v, 3);
        return std::clamp(v, lo_, hi_);
    }
    return std::clamp(lo_ + s * step_, lo_, hi_);
}

void SliderSpin::setValue(double v) {
    const QSignalBlocker a(spin_);
    const QSignalBlocker b(slider_);
    if (spin_->value() != v) spin_->setValue(v);
    const int s = toSlider(v);
    if (!slider_->isSliderDown() && slider_->value() != s) slider_->setValue(s);
}

OptionalNumber::OptionalNumber(double lo, double hi, double step, int decimals, double defaultValue, QWidget* parent)
    : QWidget(parent) {
    auto* l = new QHBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    check_ = new QCheckBox(this);
    spin_ = new QDoubleSpinBox(this);
    spin_->setRange(lo, hi);
    spin_->setSingleStep(step);
    spin_->setDecimals(decimals);
    spin_->setValue(defaultValue);
    spin_->setKeyboardTracking(false);
    spin_->setEnabled(false);
    l->addWidget(check_);
    l->addWidget(spin_, 1);
    connect(check_, &QCheckBox::toggled, this, [this](bool on) {
        spin_->setEnabled(on);
        Q_EMIT valueChanged(value());
    });
    connect(spin_, &QDoubleSpinBox::valueChanged, this, [this](double) { Q_EMIT valueChanged(value()); });
}

std::optional<double> OptionalNumber::value() const {
    if (!check_->isChecked()) return std::nullopt;
    return spin_->value();
}

void OptionalNumber::setValue(std::optional<double> v) {
    const QSignalBlocker a(check_);
    const QSignalBlocker b(spin_);
    if (check_->isChecked() != v.has_value()) check_->setChecked(v.has_value());
    if (spin_->isEnabled() != v.has_value()) spin_->setEnabled(v.has_value());
    if (v && spin_->value() != *v) spin_->setValue(*v);
}

TextLine::TextLine(const QString& sample, QWidget* parent) : QWidget(parent), sample_(sample) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void TextLine::setText(const QString& text) {
    if (text == text_) return;
    text_ = text;
    setToolTip(text);
    setAccessibleName(text);
    update();
}

QSize TextLine::sizeHint() const { return {fontMetrics().horizontalAdvance(sample_) + 8, fontMetrics().height() + 4}; }
QSize TextLine::minimumSizeHint() const { return {40, fontMetrics().height() + 4}; }

void TextLine::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(rect().adjusted(2, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter,
               fontMetrics().elidedText(text_, Qt::ElideRight, width() - 4));
}

}  // namespace poslab::ui
