#include "ui/panel/controls.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
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
    // The double nearest the rounded decimal (2.41e7, not 24099999.999999996 as v·10^k / 10^k gives).
    return std::stod(formatReadable(v, digits));
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
        if (!problem_.isEmpty() || (hasShown_ && (text() == shown_ || text() == full_))) return;
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
    const QString full = QString::fromStdString(formatParamValue(info_, v));
    const bool changed = !hasShown_ || full != full_;
    full_ = full;
    brief_ = QString::fromStdString(formatParamValue(info_, v, kFieldDigits));
    const QString t = hasFocus() ? full_ : brief_;
    shown_ = t;
    hasShown_ = true;
    // What the person is typing stays, unless the scene's value changed under it.
    if (hasFocus() && !changed) return;
    if (text() == t && problem_.isEmpty()) return;
    showText(t);
}

void ParamEdit::showText(const QString& t) {
    const QSignalBlocker b(this);
    setText(t);
    check();
}

// Editing or copying starts from the full value; leaving the box unedited shows it for people again.
void ParamEdit::focusInEvent(QFocusEvent* e) {
    if (hasShown_ && text() == brief_ && full_ != brief_) {
        shown_ = full_;
        showText(full_);
    }
    QLineEdit::focusInEvent(e);
}

void ParamEdit::focusOutEvent(QFocusEvent* e) {
    QLineEdit::focusOutEvent(e);
    if (hasShown_ && text() == full_ && full_ != brief_) {
        shown_ = brief_;
        showText(brief_);
    }
}

namespace {
// Passes a wheel event over an unfocused control on to its parent (the panel's scroll area):
// ignored and filtered, QApplication offers it to the parents in turn.
class WheelGuard : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject* o, QEvent* e) override {
        if (e->type() != QEvent::Wheel) return false;
        auto* w = qobject_cast<QWidget*>(o);
        if (!w || w->hasFocus()) return false;
        e->ignore();
        return true;
    }
};
}  // namespace

void wheelOnlyWhenFocused(QWidget* root) {
    static const QString name = QStringLiteral("wheelGuard");
    QObject* guard = root->findChild<QObject*>(name, Qt::FindDirectChildrenOnly);
    if (!guard) {
        guard = new WheelGuard(root);
        guard->setObjectName(name);
    }
    for (QWidget* w : root->findChildren<QWidget*>()) {
        if (!qobject_cast<QComboBox*>(w) && !qobject_cast<QAbstractSpinBox*>(w) && !qobject_cast<QAbstractSlider*>(w)) continue;
        if ((w->focusPolicy() & Qt::WheelFocus) == Qt::WheelFocus) w->setFocusPolicy(Qt::StrongFocus);
        w->removeEventFilter(guard);
        w->installEventFilter(guard);
    }
}

// ---- SliderSpin ------------------------------------------------------------------------------------

SliderSpin::SliderSpin(const ParamInfo& info, QWidget* parent) : QWidget(parent), info_(info) {
    auto* l = new QHBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    slider_ = new QSlider(Qt::Horizontal, this);
    edit_ = new ParamEdit(info, this);
    // The slider spans the declaration's slider range (base θ: 10 … 1e7, d: 2 … 256) inside the
    // valid range, or the valid range; an open lower bound starts just above it.
    lo_ = std::isfinite(info.lo) ? info.lo : 0.0;
    hi_ = std::isfinite(info.hi) ? info.hi : 1e12;
    if (std::isfinite(info.sliderLo) && info.sliderLo > lo_) lo_ = info.sliderLo;
    if (std::isfinite(info.sliderHi) && info.sliderHi < hi_ && info.sliderHi > lo_) hi_ = info.sliderHi;
    even_ = info.kind == ParamKind::Int && (info.even || info.has(kParamSliderEven));
    if (even_ && lo_ < 2) lo_ = 2;
    if (lo_ == info.lo && info.loOpen) lo_ = lo_ > 0 ? lo_ * 1.01 : (info.kind == ParamKind::Int ? 1 : 1e-3);
    if (lo_ <= 0) lo_ = info.kind == ParamKind::Int ? 1 : 1e-3;
    // Even integers step by 2 over the range (a pixel is a few dimensions, never hundreds);
    // a wide range moves on a log scale.
    log_ = !even_ && hi_ / lo_ > 100;
    if (even_) hi_ = lo_ + 2 * std::floor((hi_ - lo_) / 2);
    const double steps = even_ ? (hi_ - lo_) / 2 : hi_ - lo_;
    slider_->setRange(0, log_ ? 1000 : std::max(1, static_cast<int>(std::lround(steps))));
    slider_->setPageStep(std::max(1, slider_->maximum() / 20));
    slider_->setTracking(true);
    // Wide enough for a hand: at least 25 px per decade on a log slider (base θ: 6 decades), a
    // few dimensions per pixel on d's. The panel's form puts the row under its label when the
    // panel is narrower (QFormLayout::WrapLongRows).
    // (The handle's length comes on top: the track the handle's centre travels is what a pixel moves.)
    const int handle = 32;
    slider_->setMinimumWidth(handle + (log_ ? std::clamp(static_cast<int>(std::ceil(25 * std::log10(hi_ / lo_))), 100, 200) : 150));
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
    const double s = std::clamp(v, lo_, hi_) - lo_;
    return static_cast<int>(std::lround(even_ ? s / 2 : s));
}

double SliderSpin::fromSlider(int s) const {
    double v;
    if (log_) {
        v = std::exp(std::log(lo_) + (std::log(hi_) - std::log(lo_)) * s / 1000.0);
        v = info_.kind == ParamKind::Int ? std::round(roundSignificant(v, 2)) : roundSignificant(v, 3);
    } else {
        v = lo_ + (even_ ? 2.0 * s : s);
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
