#include "ui/teaching/stepper.h"

#include "ui/panel/controls.h"
#include "ui/render/formula.h"
#include "ui/render/typeset.h"
#include "ui/teaching/workedtext.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFontMetricsF>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <cmath>

namespace poslab::ui {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString fmtValue(double v) { return qs(formatReadable(v, 4, NumberStyle::Typeset)); }

qreal wrapped(QPainter& p, const QRectF& r, const QString& s, const QFont& f, const QColor& c, int flags = Qt::AlignLeft | Qt::AlignTop) {
    if (s.isEmpty()) return 0;
    p.setFont(f);
    p.setPen(c);
    QRectF used;
    p.drawText(QRectF(r.left(), r.top(), r.width(), 100000), flags | Qt::TextWordWrap, keepFormulasTogether(typeset(s)), &used);
    return used.height();
}

QString joinNumbers(const std::vector<double>& v) {
    QStringList l;
    for (double x : v) l << qs(formatReadable(x, 10));   // a box whose numbers are the input
    return l.join(QStringLiteral(", "));
}

}  // namespace

std::optional<std::vector<double>> parseWorkedNumbers(const QString& text) {
    std::vector<double> out;
    QString t = text;
    t.replace(QChar(0x2212), QLatin1Char('-'));
    t.remove(QLatin1Char('['));
    t.remove(QLatin1Char(']'));
    const auto parts = t.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    for (const auto& p : parts) {
        bool ok = false;
        const double v = p.toDouble(&ok);
        if (!ok) return std::nullopt;
        out.push_back(v);
    }
    return out;
}

qreal paintWorkedStep(QPainter& p, const QRectF& rect, const WorkedExample& ex, int step, const Theme& t) {
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    const int n = int(ex.steps.size());
    step = std::clamp(step, 0, std::max(0, n - 1));
    const QFont body = t.bodyFont(), small = t.smallFont(), title = t.titleFont();
    QFont bold = body;
    bold.setBold(true);
    const qreal gap = QFontMetricsF(body, p.device()).height() * 0.5;
    const qreal x = rect.left(), w = rect.width();
    qreal y = rect.top();
    y += wrapped(p, QRectF(x, y, w, 0), workedTitle(ex), title, t.foreground) + gap * 0.6;
    // Trail of the steps: done ones in the foreground, the current one bold, later ones muted.
    {
        QStringList parts;
        p.setFont(small);
        QString trail;
        for (int i = 0; i < n; ++i) {
            const QString s = QStringLiteral("%1. %2").arg(i + 1).arg(workedStepTitle(ex, ex.steps[std::size_t(i)]));
            trail += (i ? QStringLiteral("  ›  ") : QString()) + (i == step ? QStringLiteral("[") + s + QStringLiteral("]") : s);
        }
        y += wrapped(p, QRectF(x, y, w, 0), trail, small, t.muted) + gap;
    }
    if (n == 0) {
        p.restore();
        return y - rect.top();
    }
    const WorkedStep& s = ex.steps[std::size_t(step)];
    y += wrapped(p, QRectF(x, y, w, 0), QObject::tr("Step %1 of %2 — %3").arg(step + 1).arg(n).arg(workedStepTitle(ex, s)), title, t.foreground) + gap * 0.5;
    y += wrapped(p, QRectF(x, y, w, 0), workedStepExplanation(ex, s), body, t.foreground) + gap;
    // The operation, typeset.
    const Formula f = Formula::parse(qs(s.formula));
    QFont ff;
    ff.setPointSizeF(t.fontPt * 1.5 * t.fontScale);
    QSizeF fs = f.size(ff, p.device());
    if (fs.width() > w - 16 && fs.width() > 0) {
        ff.setPointSizeF(std::max(6.0, ff.pointSizeF() * (w - 16) / fs.width()));
        fs = f.size(ff, p.device());
    }
    f.paint(&p, QPointF(x + 8, y), ff, t.foreground);
    y += fs.height() + gap * 1.2;
    // Values: a name, then cells "label / value" flowing over lines.
    const QFontMetricsF fmS(small, p.device()), fmB(bold, p.device());
    for (const auto& v : s.values) {
        y += wrapped(p, QRectF(x, y, w, 0), qs(v.name), bold, t.foreground) + 2;
        qreal cx = x + 12, rowH = 0;
        for (std::size_t i = 0; i < v.values.size(); ++i) {
            const QString label = i < v.labels.size() ? qs(v.labels[i]) : QString();
            const QString val = fmtValue(v.values[i]);
            const qreal cw = std::max(fmS.horizontalAdvance(label), fmB.horizontalAdvance(val)) + fmB.horizontalAdvance(QStringLiteral("  "));
            if (cx + cw > x + w && cx > x + 12) {
                cx = x + 12;
                y += rowH + 4;
                rowH = 0;
            }
            qreal cy = y;
            if (!label.isEmpty()) {
                p.setFont(small);
                p.setPen(t.muted);
                p.drawText(QPointF(cx, cy + fmS.ascent()), typeset(label));
                cy += fmS.height();
            }
            p.setFont(bold);
            p.setPen(t.foreground);
            p.drawText(QPointF(cx, cy + fmB.ascent()), val);
            cy += fmB.height();
            rowH = std::max(rowH, cy - y);
            cx += cw;
        }
        y += rowH + gap;
    }
    p.restore();
    return y - rect.top();
}

// ============================================================================ StepCanvas
StepCanvas::StepCanvas(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("stepCanvas"));
    theme_ = themeByName(QStringLiteral("light"));
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
}

void StepCanvas::set(const std::optional<WorkedExample>& ex, int step, const QString& error) {
    ex_ = ex;
    step_ = step;
    error_ = error;
    setMinimumHeight(int(std::ceil(measure(std::max(width(), 300)))));
    update();
}

void StepCanvas::setTheme(const Theme& t) {
    theme_ = t;
    setMinimumHeight(int(std::ceil(measure(std::max(width(), 300)))));
    update();
}

qreal StepCanvas::measure(int w) const {
    QImage probe(std::max(1, w), 8, QImage::Format_ARGB32_Premultiplied);
    QPainter p(&probe);
    qreal h = 20;
    if (ex_) h += paintWorkedStep(p, QRectF(10, 10, w - 20, 100000), *ex_, step_, theme_);
    if (!error_.isEmpty()) h += 40;
    return h;
}

QSize StepCanvas::sizeHint() const { return {420, int(std::ceil(measure(std::max(width(), 420))))}; }

void StepCanvas::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    const int h = int(std::ceil(measure(width())));
    if (h != minimumHeight()) setMinimumHeight(h);
}

void StepCanvas::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), theme_.background);
    qreal y = 10;
    if (!error_.isEmpty()) {
        y += wrapped(p, QRectF(10, y, width() - 20, 0), error_, theme_.bodyFont(), theme_.error) + 8;
    }
    if (ex_) paintWorkedStep(p, QRectF(10, y, width() - 20, height() - y), *ex_, step_, theme_);
}

// ============================================================================ WorkedExampleWidget
WorkedExampleWidget::WorkedExampleWidget(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("workedExample"));
    auto* lay = new QVBoxLayout(this);
    which_ = new QComboBox(this);
    which_->setObjectName(QStringLiteral("workedWhich"));
    which_->addItems({tr("RoPE on a small vector"), tr("A sinusoidal row"), tr("ALiBi slopes for H heads"), tr("Which T5 bucket?")});
    lay->addWidget(which_);
    inputs_ = new QStackedWidget(this);
    inputs_->addWidget(buildRopeInputs());
    inputs_->addWidget(buildSinusoidalInputs());
    inputs_->addWidget(buildAlibiInputs());
    inputs_->addWidget(buildT5Inputs());
    lay->addWidget(inputs_);
    auto* nav = new QHBoxLayout;
    back_ = new QPushButton(tr("◀ Back"), this);
    back_->setObjectName(QStringLiteral("workedBack"));
    next_ = new QPushButton(tr("Next ▶"), this);
    next_->setObjectName(QStringLiteral("workedNext"));
    counter_ = new QLabel(this);
    counter_->setObjectName(QStringLiteral("workedCounter"));
    nav->addWidget(back_);
    nav->addWidget(counter_, 1, Qt::AlignCenter);
    nav->addWidget(next_);
    lay->addLayout(nav);
    canvas_ = new StepCanvas(this);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(canvas_);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    lay->addWidget(scroll, 1);

    wheelOnlyWhenFocused(this);
    connect(which_, &QComboBox::currentIndexChanged, this, [this](int i) { setExample(WorkedKind(i)); });
    connect(back_, &QPushButton::clicked, this, &WorkedExampleWidget::back);
    connect(next_, &QPushButton::clicked, this, &WorkedExampleWidget::next);
    recompute();
}

QWidget* WorkedExampleWidget::buildRopeInputs() {
    auto* w = new QWidget(this);
    auto* f = new QFormLayout(w);
    ropeDim_ = new QSpinBox(w);
    ropeDim_->setRange(2, 64);
    ropeDim_->setSingleStep(2);
    ropeDim_->setValue(RopeExampleInput{}.dim);
    ropePos_ = new QSpinBox(w);
    ropePos_->setRange(0, 1'000'000);
    ropePos_->setValue(int(RopeExampleInput{}.position));
    ropeTheta_ = new QLineEdit(joinNumbers(RopeExampleInput{}.theta), w);
    ropeQ_ = new QLineEdit(joinNumbers(RopeExampleInput{}.q), w);
    ropeLayout_ = new QComboBox(w);
    ropeLayout_->addItems({tr("interleaved (GPT-J, Meta, RoFormer)"), tr("half-split (HF Llama, NeoX)")});
    ropePrecision_ = new QComboBox(w);
    ropePrecision_->addItems({tr("float32 (as the frameworks)"), tr("double")});
    f->addRow(tr("d"), ropeDim_);
    f->addRow(tr("position m"), ropePos_);
    f->addRow(tr("θ (d/2 numbers)"), ropeTheta_);
    f->addRow(tr("q (d numbers)"), ropeQ_);
    f->addRow(tr("layout"), ropeLayout_);
    f->addRow(tr("precision"), ropePrecision_);
    connect(ropeDim_, &QSpinBox::valueChanged, this, [this](int d) {
        // Keep θ and q the right length: θ_i = 100^(−2i/d) (θ = [1, 0.1] at d = 4), q = [1, 0, 1, 0, …].
        std::vector<double> th, q;
        for (int i = 0; i < d / 2; ++i) th.push_back(std::pow(100.0, -2.0 * i / d));
        for (int i = 0; i < d; ++i) q.push_back(i % 2 == 0 ? 1.0 : 0.0);
        const QSignalBlocker a(ropeTheta_), b(ropeQ_);
        ropeTheta_->setText(joinNumbers(th));
        ropeQ_->setText(joinNumbers(q));
        recompute();
    });
    connect(ropePos_, &QSpinBox::valueChanged, this, &WorkedExampleWidget::recompute);
    connect(ropeTheta_, &QLineEdit::textChanged, this, &WorkedExampleWidget::recompute);
    connect(ropeQ_, &QLineEdit::textChanged, this, &WorkedExampleWidget::recompute);
    connect(ropeLayout_, &QComboBox::currentIndexChanged, this, &WorkedExampleWidget::recompute);
    connect(ropePrecision_, &QComboBox::currentIndexChanged, this, &WorkedExampleWidget::recompute);
    return w;
}

QWidget* WorkedExampleWidget::buildSinusoidalInputs() {
    auto* w = new QWidget(this);
    auto* f = new QFormLayout(w);
    sinDim_ = new QSpinBox(w);
    sinDim_->setRange(2, 64);
    sinDim_->setSingleStep(2);
    sinDim_->setValue(SinusoidalExampleInput{}.dim);
    sinPos_ = new QSpinBox(w);
    sinPos_->setRange(0, 1'000'000);
    sinPos_->setValue(int(SinusoidalExampleInput{}.position));
    sinBase_ = new QDoubleSpinBox(w);
    sinBase_->setRange(1.01, 1e9);
    sinBase_->setDecimals(2);
    sinBase_->setValue(SinusoidalExampleInput{}.base);
    sinLayout_ = new QComboBox(w);
    sinLayout_->addItems({tr("interleaved (Vaswani, DistilBERT)"), tr("concatenated (fairseq, Transformer-XL)")});
    f->addRow(tr("d"), sinDim_);
    f->addRow(tr("position p"), sinPos_);
    f->addRow(tr("base"), sinBase_);
    f->addRow(tr("layout"), sinLayout_);
    connect(sinDim_, &QSpinBox::valueChanged, this, &WorkedExampleWidget::recompute);
    connect(sinPos_, &QSpinBox::valueChanged, this, &WorkedExampleWidget::recompute);
    connect(sinBase_, &QDoubleSpinBox::valueChanged, this, &WorkedExampleWidget::recompute);
    connect(sinLayout_, &QComboBox::currentIndexChanged, this, &WorkedExampleWidget::recompute);
    return w;
}

QWidget* WorkedExampleWidget::buildAlibiInputs() {
    auto* w = new QWidget(this);
    auto* f = new QFormLayout(w);
    alibiHeads_ = new QSpinBox(w);
    alibiHeads_->setRange(1, 1024);
    alibiHeads_->setValue(AlibiExampleInput{}.heads);
    alibiB_ = new QDoubleSpinBox(w);
    alibiB_->setRange(0.01, 1024);
    alibiB_->setValue(AlibiExampleInput{}.bias_max);
    alibiQuery_ = new QSpinBox(w);
    alibiQuery_->setRange(0, 4096);
    alibiQuery_->setValue(int(AlibiExampleInput{}.query_position));
    f->addRow(tr("heads H"), alibiHeads_);
    f->addRow(tr("bias max B"), alibiB_);
    f->addRow(tr("query position"), alibiQuery_);
    connect(alibiHeads_, &QSpinBox::valueChanged, this, &WorkedExampleWidget::recompute);
    connect(alibiB_, &QDoubleSpinBox::valueChanged, this, &WorkedExampleWidget::recompute);
    connect(alibiQuery_, &QSpinBox::valueChanged, this, &WorkedExampleWidget::recompute);
    return w;
}

QWidget* WorkedExampleWidget::buildT5Inputs() {
    auto* w = new QWidget(this);
    auto* f = new QFormLayout(w);
    t5Rel_ = new QSpinBox(w);
    t5Rel_->setRange(-1'000'000'000, 1'000'000'000);
    t5Rel_->setValue(int(T5ExampleInput{}.relative));
    t5Buckets_ = new QSpinBox(w);
    t5Buckets_->setRange(2, 1024);
    t5Buckets_->setValue(T5ExampleInput{}.num_buckets);
    t5MaxDist_ = new QSpinBox(w);
    t5MaxDist_->setRange(2, 1'000'000'000);
    t5MaxDist_->setValue(int(T5ExampleInput{}.max_distance));
    t5Bidir_ = new QCheckBox(tr("bidirectional (encoder)"), w);
    t5Bidir_->setChecked(T5ExampleInput{}.bidirectional);
    f->addRow(tr("offset key − query"), t5Rel_);
    f->addRow(tr("buckets"), t5Buckets_);
    f->addRow(tr("max distance"), t5MaxDist_);
    f->addRow(QString(), t5Bidir_);
    connect(t5Rel_, &QSpinBox::valueChanged, this, &WorkedExampleWidget::recompute);
    connect(t5Buckets_, &QSpinBox::valueChanged, this, &WorkedExampleWidget::recompute);
    connect(t5MaxDist_, &QSpinBox::valueChanged, this, &WorkedExampleWidget::recompute);
    connect(t5Bidir_, &QCheckBox::toggled, this, &WorkedExampleWidget::recompute);
    return w;
}

void WorkedExampleWidget::setExample(WorkedKind k) {
    kind_ = k;
    {
        const QSignalBlocker b(which_);
        which_->setCurrentIndex(int(k));
    }
    inputs_->setCurrentIndex(int(k));
    step_ = 0;
    recompute();
}

int WorkedExampleWidget::stepCount() const { return example_ ? int(example_->steps.size()) : 0; }

void WorkedExampleWidget::recompute() {
    Result<WorkedExample> r = ParamError{"input", "", ""};
    error_.clear();
    switch (kind_) {
        case WorkedKind::Rope: {
            RopeExampleInput in;
            in.dim = ropeDim_->value();
            in.position = ropePos_->value();
            auto th = parseWorkedNumbers(ropeTheta_->text());
            auto q = parseWorkedNumbers(ropeQ_->text());
            if (!th) {
                error_ = tr("θ: a list of numbers separated by commas");
                break;
            }
            if (!q) {
                error_ = tr("q: a list of numbers separated by commas");
                break;
            }
            in.theta = *th;
            in.q = *q;
            in.layout = ropeLayout_->currentIndex() == 0 ? RopeLayout::Interleaved : RopeLayout::Half;
            in.precision = ropePrecision_->currentIndex() == 0 ? Precision::Float32 : Precision::Double;
            r = ropeWorkedExample(in);
            break;
        }
        case WorkedKind::Sinusoidal: {
            SinusoidalExampleInput in;
            in.dim = sinDim_->value();
            in.position = sinPos_->value();
            in.base = sinBase_->value();
            in.layout = sinLayout_->currentIndex() == 0 ? SinusoidalLayout::Interleaved : SinusoidalLayout::Concat;
            r = sinusoidalWorkedExample(in);
            break;
        }
        case WorkedKind::Alibi: {
            AlibiExampleInput in;
            in.heads = alibiHeads_->value();
            in.bias_max = alibiB_->value();
            in.query_position = alibiQuery_->value();
            r = alibiWorkedExample(in);
            break;
        }
        case WorkedKind::T5: {
            T5ExampleInput in;
            in.relative = t5Rel_->value();
            in.num_buckets = t5Buckets_->value();
            in.max_distance = t5MaxDist_->value();
            in.bidirectional = t5Bidir_->isChecked();
            r = t5WorkedExample(in);
            break;
        }
    }
    if (error_.isEmpty()) {
        if (r.ok()) example_ = r.value();
        else error_ = qs(r.error().message());
    }
    if (!error_.isEmpty()) example_.reset();
    step_ = std::clamp(step_, 0, std::max(0, stepCount() - 1));
    update_();
}

void WorkedExampleWidget::update_() {
    const int n = stepCount();
    back_->setEnabled(step_ > 0);
    next_->setEnabled(step_ + 1 < n);
    counter_->setText(n ? tr("step %1 of %2").arg(step_ + 1).arg(n) : tr("fix the inputs"));
    canvas_->set(example_, step_, error_);
}

void WorkedExampleWidget::next() { setStep(step_ + 1); }
void WorkedExampleWidget::back() { setStep(step_ - 1); }

void WorkedExampleWidget::setStep(int s) {
    const int c = std::clamp(s, 0, std::max(0, stepCount() - 1));
    if (c == step_) return;
    step_ = c;
    update_();
    Q_EMIT stepChanged(step_);
}

void WorkedExampleWidget::setTheme(const Theme& t) { canvas_->setTheme(t); }

}  // namespace poslab::ui
