#include "ui/panel/controls.h"

#include <QCoreApplication>
#include <QFocusEvent>
#include <QHBoxLayout>
#include <QPainter>
#include <QSignalBlocker>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

namespace {
QString qs(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }
}  // namespace

double roundSignificant(double v, int digits) {
    if (v == 0 || !std::isfinite(v)) return v;
    const double mag = std::pow(10.0, digits - 1 - static_cast<int>(std::floor(std::log10(std::abs(v)))));
    return std::round(v * mag) / mag;
}

QString paramLabel(const ParamInfo& info) {
    const std::string label(info.label.empty() ? info.name : info.label);
    return QCoreApplication::translate("param", label.c_str());
}

QString paramToolTip(const ParamInfo& info) {
    const std::string help(info.help);
    QString t = QCoreApplication::translate("param", help.c_str());
    t += QStringLiteral("\n") + QCoreApplication::translate("param", "Valid: %1").arg(QString::fromStdString(info.valid()));
    if (!info.unset.empty()) t += QStringLiteral("; ") + QCoreApplication::translate("param", "empty: %1").arg(qs(info.unset));
    return t;
}

// ---- ParamEdit -------------------------------------------------------------------------------------

ParamEdit::ParamEdit(const ParamInfo& info, QWidget* parent) : QLineEdit(parent), info_(info) {
    setObjectName(QString::fromUtf8(info.name.data(), static_cast<qsizetype>(info.name.size())));
    setToolTip(paramToolTip(info));
    if (info.optional || !info.unset.empty()) setPlaceholderText(qs(info.unset.empty() ? std::string_view("unset") : info.unset));
    connect(this, &QLineEdit::textEdited, this, &ParamEdit::check);
    connect(this, &QLineEdit::editingFinished, this, [this] {
        check();
        if (!problem_.isEmpty() || (hasShown_ && text() == shown_)) return;
        auto v = parseParamText(info_, text().toStdString());
        if (!v) return;
        shown_ = text();
        hasShown_ = true;
        Q_EMIT committed(v.value());
    });
}

void ParamEdit::check() {
    QString p;
    if (auto v = parseParamText(info_, text().toStdString()); !v) p = QString::fromStdString(v.error().message());
    if (p == problem_) return;
    problem_ = p;
    setStyleSheet(p.isEmpty() ? QString() : QStringLiteral("QLineEdit { border: 2px solid #c62828; }"));
    setToolTip(p.isEmpty() ? paramToolTip(info_) : p);
    Q_EMIT problemChanged(p);
}

void ParamEdit::showValue(const ParamValue& v) {
    const QString t = QString::fromStdString(formatParamValue(info_, v));
    const bool changed = !hasShown_ || t != shown_;
    shown_ = t;
    hasShown_ = true;
    // What the person is typing stays, unless the scene's value changed under it.
    if (hasFocus() && !changed) return;
    if (text() == t && problem_.isEmpty()) return;
    const QSignalBlocker b(this);
    setText(t);
    check();
}

// ---- SliderSpin ------------------------------------------------------------------------------------

SliderSpin::SliderSpin(const ParamInfo& info, QWidget* parent) : QWidget(parent), info_(info) {
    auto* l = new QHBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    slider_ = new QSlider(Qt::Horizontal, this);
    edit_ = new ParamEdit(info, this);
    // The slider spans the valid range; an open lower bound starts just above it.
    lo_ = std::isfinite(info.lo) ? info.lo : 0.0;
    hi_ = std::isfinite(info.hi) ? info.hi : 1e12;
    even_ = info.kind == ParamKind::Int && (info.even || info.has(kParamSliderEven));
    if (even_ && lo_ < 2) lo_ = 2;
    if (info.loOpen) lo_ = lo_ > 0 ? lo_ * 1.01 : (info.kind == ParamKind::Int ? 1 : 1e-3);
    if (lo_ <= 0) lo_ = info.kind == ParamKind::Int ? 1 : 1e-3;
    log_ = hi_ / lo_ > 100;
    slider_->setRange(0, log_ ? 1000 : std::max(1, static_cast<int>(std::lround(hi_ - lo_))));
    slider_->setPageStep(std::max(1, slider_->maximum() / 20));
    slider_->setTracking(true);
    edit_->setMinimumWidth(edit_->fontMetrics().horizontalAdvance(QStringLiteral("0000000.000")) + 12);
    edit_->setMaximumWidth(edit_->fontMetrics().horizontalAdvance(QStringLiteral("00000000000000")) + 12);
    l->addWidget(slider_, 1);
    l->addWidget(edit_);
    connect(slider_, &QSlider::valueChanged, this, [this](int s) {
        if (toSlider(value_) == s) return;  // the box already holds a value on this tick
        value_ = fromSlider(s);
        edit_->showValue(info_.kind == ParamKind::Int ? ParamValue{static_cast<std::int64_t>(std::llround(value_))}
                                                      : ParamValue{value_});
        Q_EMIT valueChanged(value_);
    });
    connect(slider_, &QSlider::sliderReleased, this, &SliderSpin::editingFinished);
    connect(edit_, &ParamEdit::committed, this, [this](const ParamValue& v) {
        if (auto* i = std::get_if<std::int64_t>(&v)) value_ = static_cast<double>(*i);
        else if (auto* d = std::get_if<double>(&v)) value_ = *d;
        else return;
        const QSignalBlocker b(slider_);
        slider_->setValue(toSlider(value_));
        Q_EMIT valueChanged(value_);
        Q_EMIT editingFinished();
    });
    connect(edit_, &ParamEdit::problemChanged, this, &SliderSpin::problemChanged);
}

int SliderSpin::toSlider(double v) const {
    if (log_) {
        const double t = (std::log(std::max(v, lo_)) - std::log(lo_)) / (std::log(hi_) - std::log(lo_));
        return static_cast<int>(std::lround(std::clamp(t, 0.0, 1.0) * 1000));
    }
    return static_cast<int>(std::lround(std::clamp(v, lo_, hi_) - lo_));
}

double SliderSpin::fromSlider(int s) const {
    double v;
    if (log_) {
        v = std::exp(std::log(lo_) + (std::log(hi_) - std::log(lo_)) * s / 1000.0);
        if (info_.kind == ParamKind::Int) {
            v = even_ ? std::round(v / 2) * 2 : std::round(roundSignificant(v, 2));
        } else {
            v = roundSignificant(v, 3);
        }
    } else {
        v = lo_ + s;
    }
    // The slider only proposes values the declaration accepts.
    v = std::clamp(v, lo_, hi_);
    if (even_ && std::fmod(v, 2.0) != 0) v -= 1;
    return v;
}

void SliderSpin::setValue(double v) {
    value_ = v;
    edit_->showValue(info_.kind == ParamKind::Int ? ParamValue{static_cast<std::int64_t>(std::llround(v))} : ParamValue{v});
    const QSignalBlocker b(slider_);
    const int s = toSlider(v);
    if (!slider_->isSliderDown() && slider_->value() != s) slider_->setValue(s);
}

// ---- TextLine --------------------------------------------------------------------------------------

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
