#include "ui/panel/parameterpanel.h"

#include "core/presets.h"
#include "ui/panel/controls.h"
#include "ui/render/theme.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace poslab::ui {

namespace {

QString qs(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

QSpinBox* intSpin(int lo, int hi, QWidget* parent) {
    auto* s = new QSpinBox(parent);
    s->setRange(lo, hi);
    s->setKeyboardTracking(false);
    return s;
}

QDoubleSpinBox* realSpin(double lo, double hi, double step, int decimals, QWidget* parent) {
    auto* s = new QDoubleSpinBox(parent);
    s->setRange(lo, hi);
    s->setSingleStep(step);
    s->setDecimals(decimals);
    s->setKeyboardTracking(false);
    return s;
}

QFormLayout* form(QWidget* w) {
    auto* f = new QFormLayout(w);
    f->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    f->setContentsMargins(6, 6, 6, 6);
    return f;
}

// The setters below change a control only when its value differs: refresh() runs after every
// edit (60 times a second during a drag), and an unchanged control must not repaint or relayout.
void setCombo(QComboBox* c, int data) {
    const int i = std::max(0, c->findData(data));
    if (c->currentIndex() == i) return;
    const QSignalBlocker b(c);
    c->setCurrentIndex(i);
}

void setSpin(QSpinBox* s, qint64 v) {
    const int x = static_cast<int>(std::clamp<qint64>(v, s->minimum(), s->maximum()));
    if (s->value() == x) return;
    const QSignalBlocker b(s);
    s->setValue(x);
}

void setSpin(QDoubleSpinBox* s, double v) {
    if (s->value() == v) return;
    const QSignalBlocker b(s);
    s->setValue(v);
}

void setCheck(QCheckBox* c, bool v) {
    if (c->isChecked() == v) return;
    const QSignalBlocker b(c);
    c->setChecked(v);
}

void setLine(QLineEdit* e, const QString& text) {
    if (e->hasFocus() || e->text() == text) return;  // never overwrite what the user is typing
    const QSignalBlocker b(e);
    e->setText(text);
}

void setLabel(QLabel* l, const QString& text) {
    if (l->text() != text) l->setText(text);
}

void showIf(QWidget* w, bool on) {
    if (w->isVisibleTo(w->parentWidget()) != on) w->setVisible(on);
}

void enableIf(QWidget* w, bool on) {
    if (w->isEnabled() != on) w->setEnabled(on);
}

template <class T>
std::optional<double> optD(const std::optional<T>& v) {
    if (!v) return std::nullopt;
    return static_cast<double>(*v);
}

}  // namespace

std::optional<std::vector<double>> parseNumberList(const QString& text) {
    std::vector<double> out;
    for (const auto& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const double v = part.trimmed().toDouble(&ok);
        if (!ok || !std::isfinite(v)) return std::nullopt;
        out.push_back(v);
    }
    if (out.empty()) return std::nullopt;
    return out;
}

QString numberListText(const std::vector<double>& v) {
    QStringList parts;
    for (double x : v) parts << QString::fromStdString(formatNumber(x));
    return parts.join(QLatin1Char(','));
}

ParameterPanel::ParameterPanel(Scene* scene, QWidget* parent) : QWidget(parent), scene_(scene) {
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(4, 4, 4, 4);
    l->addWidget(buildConfigBox());
    l->addWidget(buildGeneral());
    l->addWidget(buildRope());
    l->addWidget(buildSinusoidal());
    l->addWidget(buildXpos());
    l->addWidget(buildLearned());
    l->addWidget(buildShaw());
    l->addWidget(buildT5());
    l->addWidget(buildTransformerXL());
    l->addWidget(buildAlibi());
    l->addWidget(buildView());
    l->addStretch(1);
    connect(scene_, &Scene::changed, this, &ParameterPanel::refresh);
    connect(scene_, &Scene::activeConfigChanged, this, &ParameterPanel::refresh);
    refresh();
}

void ParameterPanel::editCfg(const QString& text, const QString& field, const std::function<void(ScoreParams&)>& f) {
    if (refreshing_) return;
    scene_->editActive(text, field, [&](MethodConfig& c) { f(c.params); });
}

void ParameterPanel::editScene(const QString& text, const QString& field, const std::function<void(SceneParams&)>& f) {
    if (refreshing_) return;
    scene_->edit(text, field, f);
}

void ParameterPanel::connectFinish(SliderSpin* s) {
    connect(s, &SliderSpin::editingFinished, scene_, &Scene::finishMerge);
}

QWidget* ParameterPanel::buildConfigBox() {
    auto* box = new QGroupBox(tr("Configuration"), this);
    auto* f = form(box);
    auto* row = new QWidget(box);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    config_ = new QComboBox(row);
    config_->setObjectName(QStringLiteral("config"));
    config_->setToolTip(tr("The configuration the panel edits (compare mode shows several side by side)"));
    addConfig_ = new QPushButton(tr("Compare +"), row);
    addConfig_->setToolTip(tr("Add a copy of this configuration to compare against"));
    removeConfig_ = new QPushButton(tr("Remove"), row);
    h->addWidget(config_, 1);
    h->addWidget(addConfig_);
    h->addWidget(removeConfig_);
    f->addRow(tr("Editing"), row);
    label_ = new QLineEdit(box);
    label_->setPlaceholderText(tr("automatic"));
    f->addRow(tr("Label"), label_);
    preset_ = new QComboBox(box);
    preset_->setObjectName(QStringLiteral("preset"));
    preset_->addItem(tr("(custom)"), QString());
    for (const auto& p : modelPresets()) preset_->addItem(qs(p.name), qs(p.key));
    f->addRow(tr("Model preset"), preset_);
    presetNote_ = new QLabel(box);
    presetNote_->setWordWrap(true);
    presetNote_->setVisible(false);
    f->addRow(presetNote_);
    problem_ = new QLabel(box);
    problem_->setObjectName(QStringLiteral("problem"));
    problem_->setWordWrap(true);
    problem_->setStyleSheet(QStringLiteral("QLabel { color: #b00020; font-weight: bold; }"));
    problem_->setVisible(false);
    f->addRow(problem_);

    connect(config_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (!refreshing_) scene_->setActiveConfig(i);
    });
    connect(addConfig_, &QPushButton::clicked, scene_, &Scene::addConfig);
    connect(removeConfig_, &QPushButton::clicked, this, [this] { scene_->removeConfig(scene_->activeConfig()); });
    connect(label_, &QLineEdit::editingFinished, this, [this] {
        const QString t = label_->text().trimmed();
        if (refreshing_) return;
        scene_->editActive(tr("Rename"), QString(), [&](MethodConfig& c) { c.label = t; });
    });
    connect(preset_, &QComboBox::activated, this, [this](int i) {
        const QString key = preset_->itemData(i).toString();
        if (!key.isEmpty()) applyPreset(key);
    });
    return box;
}

void ParameterPanel::applyPreset(const QString& key) {
    const ModelPreset* p = findPreset(key.toStdString());
    if (!p) return;
    SceneParams s = scene_->params();
    auto& c = s.methods[static_cast<std::size_t>(scene_->activeConfig())];
    c.params = p->params;
    c.label = qs(p->name);
    s.presetKey = key;
    s.head = std::clamp(s.head, 0, std::max(1, p->heads) - 1);
    scene_->apply(tr("Preset %1").arg(qs(p->name)), s);
}

QWidget* ParameterPanel::buildGeneral() {
    auto* box = new QGroupBox(tr("Method and sequence"), this);
    auto* f = form(box);
    method_ = new QComboBox(box);
    method_->setObjectName(QStringLiteral("method"));
    for (Method m : kAllMethods) method_->addItem(qs(methodTitle(m)), static_cast<int>(m));
    f->addRow(tr("Method"), method_);
    summary_ = new QLabel(box);
    summary_->setWordWrap(true);
    QFont sf = summary_->font();
    sf.setItalic(true);
    summary_->setFont(sf);
    f->addRow(summary_);
    dim_ = new SliderSpin(2, kMaxDim, 2, 0, SliderSpin::Scale::Log, box);
    dim_->setObjectName(QStringLiteral("dim"));
    dim_->slider()->setObjectName(QStringLiteral("dimSlider"));
    dim_->setToolTip(tr("Query/key dimension d (the head dimension for RoPE and xPos)"));
    f->addRow(tr("Head dimension d"), dim_);
    base_ = new SliderSpin(1.01, 1e9, 1, 2, SliderSpin::Scale::Log, box);
    base_->setObjectName(QStringLiteral("base"));
    base_->slider()->setObjectName(QStringLiteral("baseSlider"));
    base_->setToolTip(tr("Base θ (rope_theta; the sinusoid's largest timescale)"));
    f->addRow(tr("Base θ"), base_);
    length_ = new SliderSpin(1, kMaxLength, 1, 0, SliderSpin::Scale::Log, box);
    length_->setObjectName(QStringLiteral("length"));
    length_->slider()->setObjectName(QStringLiteral("lengthSlider"));
    length_->setToolTip(tr("Sequence length N: positions 0 … N−1"));
    f->addRow(tr("Positions N"), length_);
    positions_ = new QLineEdit(box);
    positions_->setObjectName(QStringLiteral("positions"));
    positions_->setToolTip(tr("Positions of interest for the pair vectors: a list (0,1,8) or ranges (0:4,16)"));
    f->addRow(tr("Positions of interest"), positions_);
    pairs_ = new QLineEdit(box);
    pairs_->setObjectName(QStringLiteral("pairs"));
    pairs_->setPlaceholderText(tr("auto (high to low frequency)"));
    pairs_->setToolTip(tr("Pair indices i to draw, e.g. 0,4,16,31; empty = automatic"));
    f->addRow(tr("Pairs"), pairs_);
    head_ = intSpin(0, 4095, box);
    head_->setObjectName(QStringLiteral("head"));
    head_->setToolTip(tr("ALiBi / T5 head shown"));
    f->addRow(tr("Head"), head_);
    auto* contentRow = new QWidget(box);
    auto* ch = new QHBoxLayout(contentRow);
    ch->setContentsMargins(0, 0, 0, 0);
    content_ = new QComboBox(contentRow);
    content_->setObjectName(QStringLiteral("content"));
    content_->addItem(tr("ones"), static_cast<int>(Content::Ones));
    content_->addItem(tr("random (seeded)"), static_cast<int>(Content::Random));
    content_->addItem(tr("formula"), static_cast<int>(Content::Formula));
    seed_ = intSpin(0, 1 << 30, contentRow);
    seed_->setPrefix(tr("seed "));
    ch->addWidget(content_, 1);
    ch->addWidget(seed_);
    f->addRow(tr("Query/key content"), contentRow);
    precision_ = new QComboBox(box);
    precision_->addItem(tr("float32 (as the frameworks)"), static_cast<int>(Precision::Float32));
    precision_->addItem(tr("double (exact)"), static_cast<int>(Precision::Double));
    f->addRow(tr("Precision"), precision_);

    connect(method_, &QComboBox::currentIndexChanged, this, [this](int i) {
        const auto m = static_cast<Method>(method_->itemData(i).toInt());
        editCfg(tr("Method"), QString(), [&](ScoreParams& p) { p.method = m; });
    });
    connect(dim_, &SliderSpin::valueChanged, this, [this](double v) {
        editCfg(tr("Dimension"), QStringLiteral("dim"), [&](ScoreParams& p) { p.dim = static_cast<int>(std::lround(v)); });
    });
    connectFinish(dim_);
    connect(base_, &SliderSpin::valueChanged, this, [this](double v) {
        editCfg(tr("Base"), QStringLiteral("base"), [&](ScoreParams& p) {
            if (p.method == Method::Sinusoidal) p.sinusoidal.base = v;
            else p.rope.base = v;
        });
    });
    connectFinish(base_);
    connect(length_, &SliderSpin::valueChanged, this, [this](double v) {
        editScene(tr("Length"), QStringLiteral("length"), [&](SceneParams& s) { s.length = static_cast<std::int64_t>(std::llround(v)); });
    });
    connectFinish(length_);
    connect(positions_, &QLineEdit::editingFinished, this, [this] {
        auto p = parsePositions(positions_->text());
        if (!p) {
            problem_->setText(tr("positions: a list like 0,1,8 or ranges like 0:4 (at most 64), got \"%1\"").arg(positions_->text()));
            problem_->setVisible(true);
            return;
        }
        editScene(tr("Positions"), QString(), [&](SceneParams& s) { s.positions = *p; });
    });
    connect(pairs_, &QLineEdit::editingFinished, this, [this] {
        const QString t = pairs_->text().trimmed();
        std::vector<int> pairs;
        if (!t.isEmpty() && t != QLatin1String("auto")) {
            auto p = parsePositions(t, 16);
            if (!p) {
                problem_->setText(tr("pairs: a list of pair indices like 0,4,31 (at most 16), got \"%1\"").arg(t));
                problem_->setVisible(true);
                return;
            }
            for (auto x : *p) pairs.push_back(static_cast<int>(std::min<std::int64_t>(x, 1 << 20)));
        }
        editScene(tr("Pairs"), QString(), [&](SceneParams& s) { s.pairs = pairs; });
    });
    connect(head_, &QSpinBox::valueChanged, this, [this](int v) {
        editScene(tr("Head"), QStringLiteral("head"), [&](SceneParams& s) { s.head = v; });
    });
    connect(content_, &QComboBox::currentIndexChanged, this, [this](int i) {
        const auto c = static_cast<Content>(content_->itemData(i).toInt());
        editCfg(tr("Content"), QString(), [&](ScoreParams& p) { p.content = c; });
    });
    connect(seed_, &QSpinBox::valueChanged, this, [this](int v) {
        editCfg(tr("Seed"), QStringLiteral("seed"), [&](ScoreParams& p) { p.seed = static_cast<std::uint64_t>(v); });
    });
    connect(precision_, &QComboBox::currentIndexChanged, this, [this](int i) {
        const auto pr = static_cast<Precision>(precision_->itemData(i).toInt());
        editCfg(tr("Precision"), QString(), [&](ScoreParams& p) {
            p.precision = pr;
            p.rope.precision = pr;
            p.xpos.precision = pr;
            p.sinusoidal.precision = pr;
        });
    });
    return box;
}

QWidget* ParameterPanel::buildRope() {
    ropeBox_ = new QGroupBox(tr("RoPE"), this);
    auto* v = new QVBoxLayout(ropeBox_);
    v->setContentsMargins(0, 0, 0, 0);
    auto* top = new QWidget(ropeBox_);
    auto* f = form(top);
    ropeLayout_ = new QComboBox(top);
    ropeLayout_->addItem(tr("half-split (Llama, NeoX)"), static_cast<int>(RopeLayout::Half));
    ropeLayout_->addItem(tr("interleaved (GPT-J, Meta)"), static_cast<int>(RopeLayout::Interleaved));
    f->addRow(tr("Layout"), ropeLayout_);
    partial_ = realSpin(0.01, 1.0, 0.05, 3, top);
    partial_->setToolTip(tr("partial_rotary_factor (NeoX): rotary_dim = int(head_dim·F)"));
    f->addRow(tr("Partial rotary factor"), partial_);
    rotaryDim_ = intSpin(0, kMaxDim, top);
    rotaryDim_->setSingleStep(2);
    rotaryDim_->setSpecialValueText(tr("from factor"));
    rotaryDim_->setToolTip(tr("rotary_dim (GPT-J): rotate only the first N channels; 0 = from the partial factor"));
    f->addRow(tr("Rotary dim"), rotaryDim_);
    ropeScaling_ = new QComboBox(top);
    ropeScaling_->setObjectName(QStringLiteral("scaling"));
    ropeScaling_->addItem(tr("none"), static_cast<int>(RopeScaling::None));
    ropeScaling_->addItem(tr("linear (position interpolation)"), static_cast<int>(RopeScaling::Linear));
    ropeScaling_->addItem(tr("dynamic NTK"), static_cast<int>(RopeScaling::Dynamic));
    ropeScaling_->addItem(tr("YaRN"), static_cast<int>(RopeScaling::Yarn));
    ropeScaling_->addItem(tr("LongRoPE"), static_cast<int>(RopeScaling::LongRope));
    ropeScaling_->addItem(tr("Llama 3"), static_cast<int>(RopeScaling::Llama3));
    f->addRow(tr("Scaling"), ropeScaling_);
    factor_ = new OptionalNumber(1e-6, 1e6, 0.5, 3, 4.0, top);
    factor_->setToolTip(tr("Scaling factor; unset = max/original max positions (YaRN, LongRoPE)"));
    f->addRow(tr("Factor"), factor_);
    maxPos_ = intSpin(1, 1 << 30, top);
    f->addRow(tr("Max positions"), maxPos_);
    origMax_ = new OptionalNumber(1, 1 << 30, 1024, 0, 4096, top);
    origMax_->setToolTip(tr("original_max_position_embeddings; unset = max positions"));
    f->addRow(tr("Original max positions"), origMax_);
    seqLen_ = new OptionalNumber(1, 1 << 30, 1024, 0, 4096, top);
    seqLen_->setToolTip(tr("Current sequence length for dynamic / LongRoPE; unset = N (the runtime rule)"));
    f->addRow(tr("Sequence length"), seqLen_);
    theta_ = new QLineEdit(top);
    theta_->setPlaceholderText(tr("none (from base and scaling)"));
    theta_->setToolTip(tr("Explicit per-pair frequencies, rotary_dim/2 numbers"));
    f->addRow(tr("Explicit θ"), theta_);
    v->addWidget(top);

    yarnRows_ = new QWidget(ropeBox_);
    auto* fy = form(yarnRows_);
    betaFast_ = realSpin(1e-3, 1e6, 1, 3, yarnRows_);
    betaSlow_ = realSpin(1e-3, 1e6, 0.5, 3, yarnRows_);
    mscale_ = new OptionalNumber(0, 1e6, 0.1, 3, 1.0, yarnRows_);
    mscaleAll_ = new OptionalNumber(0, 1e6, 0.1, 3, 1.0, yarnRows_);
    truncate_ = new QCheckBox(tr("floor/ceil the correction range"), yarnRows_);
    attnFactor_ = new OptionalNumber(1e-6, 1e6, 0.05, 4, 1.0, yarnRows_);
    fy->addRow(tr("β fast"), betaFast_);
    fy->addRow(tr("β slow"), betaSlow_);
    fy->addRow(tr("mscale"), mscale_);
    fy->addRow(tr("mscale_all_dim"), mscaleAll_);
    fy->addRow(tr("Truncate"), truncate_);
    fy->addRow(tr("Attention factor"), attnFactor_);
    v->addWidget(yarnRows_);

    llamaRows_ = new QWidget(ropeBox_);
    auto* fl = form(llamaRows_);
    lowFreq_ = realSpin(1e-3, 1e6, 0.5, 3, llamaRows_);
    highFreq_ = realSpin(1e-3, 1e6, 0.5, 3, llamaRows_);
    fl->addRow(tr("Low-freq factor"), lowFreq_);
    fl->addRow(tr("High-freq factor"), highFreq_);
    v->addWidget(llamaRows_);

    longRows_ = new QWidget(ropeBox_);
    auto* fr = form(longRows_);
    shortFactor_ = new QLineEdit(longRows_);
    longFactor_ = new QLineEdit(longRows_);
    shortFactor_->setToolTip(tr("rotary_dim/2 numbers; empty = all 1"));
    longFactor_->setToolTip(tr("rotary_dim/2 numbers; empty = all equal to the factor"));
    fr->addRow(tr("Short factor"), shortFactor_);
    fr->addRow(tr("Long factor"), longFactor_);
    v->addWidget(longRows_);

    connect(ropeLayout_, &QComboBox::currentIndexChanged, this, [this](int i) {
        const auto l = static_cast<RopeLayout>(ropeLayout_->itemData(i).toInt());
        editCfg(tr("Layout"), QString(), [&](ScoreParams& p) { p.rope.layout = l; });
    });
    connect(partial_, &QDoubleSpinBox::valueChanged, this, [this](double x) {
        editCfg(tr("Partial rotary"), QStringLiteral("partial"), [&](ScoreParams& p) { p.rope.partial_rotary_factor = x; });
    });
    connect(rotaryDim_, &QSpinBox::valueChanged, this, [this](int x) {
        editCfg(tr("Rotary dim"), QStringLiteral("rotary_dim"), [&](ScoreParams& p) { p.rope.rotary_dim = x; });
    });
    connect(ropeScaling_, &QComboBox::currentIndexChanged, this, [this](int i) {
        const auto s = static_cast<RopeScaling>(ropeScaling_->itemData(i).toInt());
        editCfg(tr("Scaling"), QString(), [&](ScoreParams& p) {
            p.rope.scaling = s;
            // linear, dynamic and llama3 require a factor: give them a typical one.
            if ((s == RopeScaling::Linear || s == RopeScaling::Dynamic || s == RopeScaling::Llama3) && !p.rope.factor)
                p.rope.factor = s == RopeScaling::Llama3 ? 8.0 : 4.0;
            if ((s == RopeScaling::Yarn || s == RopeScaling::LongRope || s == RopeScaling::Llama3) && !p.rope.original_max_positions)
                p.rope.original_max_positions = std::max<std::int64_t>(1, p.rope.max_positions / 4);
            const int half = std::max(1, p.ropeParams().rotaryDim() / 2);
            if (s == RopeScaling::LongRope) {
                if (static_cast<int>(p.rope.short_factor.size()) != half) p.rope.short_factor.assign(static_cast<std::size_t>(half), 1.0);
                if (static_cast<int>(p.rope.long_factor.size()) != half)
                    p.rope.long_factor.assign(static_cast<std::size_t>(half), p.rope.resolvedFactor());
            }
        });
    });
    connect(factor_, &OptionalNumber::valueChanged, this, [this](std::optional<double> x) {
        editCfg(tr("Factor"), QStringLiteral("factor"), [&](ScoreParams& p) { p.rope.factor = x; });
    });
    connect(maxPos_, &QSpinBox::valueChanged, this, [this](int x) {
        editCfg(tr("Max positions"), QStringLiteral("max_positions"), [&](ScoreParams& p) { p.rope.max_positions = x; });
    });
    connect(origMax_, &OptionalNumber::valueChanged, this, [this](std::optional<double> x) {
        editCfg(tr("Original max positions"), QStringLiteral("original_max"), [&](ScoreParams& p) {
            p.rope.original_max_positions = x ? std::optional<std::int64_t>(std::llround(*x)) : std::nullopt;
        });
    });
    connect(seqLen_, &OptionalNumber::valueChanged, this, [this](std::optional<double> x) {
        editCfg(tr("Sequence length"), QStringLiteral("seq_len"), [&](ScoreParams& p) {
            p.rope.seq_len = x ? std::optional<std::int64_t>(std::llround(*x)) : std::nullopt;
        });
    });
    connect(theta_, &QLineEdit::editingFinished, this, [this] {
        const QString t = theta_->text().trimmed();
        std::vector<double> th;
        if (!t.isEmpty()) {
            auto v = parseNumberList(t);
            if (!v) {
                problem_->setText(tr("theta: comma-separated numbers, got \"%1\"").arg(t));
                problem_->setVisible(true);
                return;
            }
            th = *v;
        }
        editCfg(tr("Explicit θ"), QString(), [&](ScoreParams& p) { p.rope.theta = th; });
    });
    connect(betaFast_, &QDoubleSpinBox::valueChanged, this, [this](double x) {
        editCfg(tr("β fast"), QStringLiteral("beta_fast"), [&](ScoreParams& p) { p.rope.beta_fast = x; });
    });
    connect(betaSlow_, &QDoubleSpinBox::valueChanged, this, [this](double x) {
        editCfg(tr("β slow"), QStringLiteral("beta_slow"), [&](ScoreParams& p) { p.rope.beta_slow = x; });
    });
    connect(mscale_, &OptionalNumber::valueChanged, this, [this](std::optional<double> x) {
        editCfg(tr("mscale"), QStringLiteral("mscale"), [&](ScoreParams& p) { p.rope.mscale = x; });
    });
    connect(mscaleAll_, &OptionalNumber::valueChanged, this, [this](std::optional<double> x) {
        editCfg(tr("mscale_all_dim"), QStringLiteral("mscale_all_dim"), [&](ScoreParams& p) { p.rope.mscale_all_dim = x; });
    });
    connect(truncate_, &QCheckBox::toggled, this, [this](bool on) {
        editCfg(tr("Truncate"), QString(), [&](ScoreParams& p) { p.rope.truncate = on; });
    });
    connect(attnFactor_, &OptionalNumber::valueChanged, this, [this](std::optional<double> x) {
        editCfg(tr("Attention factor"), QStringLiteral("attention_factor"), [&](ScoreParams& p) { p.rope.attention_factor = x; });
    });
    connect(lowFreq_, &QDoubleSpinBox::valueChanged, this, [this](double x) {
        editCfg(tr("Low-freq factor"), QStringLiteral("low_freq"), [&](ScoreParams& p) { p.rope.low_freq_factor = x; });
    });
    connect(highFreq_, &QDoubleSpinBox::valueChanged, this, [this](double x) {
        editCfg(tr("High-freq factor"), QStringLiteral("high_freq"), [&](ScoreParams& p) { p.rope.high_freq_factor = x; });
    });
    auto listEdit = [this](QLineEdit* e, bool isLong) {
        connect(e, &QLineEdit::editingFinished, this, [this, e, isLong] {
            const QString t = e->text().trimmed();
            std::vector<double> v;
            if (!t.isEmpty()) {
                auto parsed = parseNumberList(t);
                if (!parsed) {
                    problem_->setText(tr("%1: comma-separated numbers, got \"%2\"").arg(isLong ? QStringLiteral("long_factor") : QStringLiteral("short_factor"), t));
                    problem_->setVisible(true);
                    return;
                }
                v = *parsed;
            }
            editCfg(isLong ? tr("Long factor") : tr("Short factor"), QString(), [&](ScoreParams& p) {
                (isLong ? p.rope.long_factor : p.rope.short_factor) = v;
            });
        });
    };
    listEdit(shortFactor_, false);
    listEdit(longFactor_, true);
    return ropeBox_;
}

QWidget* ParameterPanel::buildSinusoidal() {
    sinBox_ = new QGroupBox(tr("Sinusoidal"), this);
    auto* f = form(sinBox_);
    sinLayout_ = new QComboBox(sinBox_);
    sinLayout_->addItem(tr("interleaved (sin 2i, cos 2i+1)"), static_cast<int>(SinusoidalLayout::Interleaved));
    sinLayout_->addItem(tr("concat ([sin | cos])"), static_cast<int>(SinusoidalLayout::Concat));
    sinFreq_ = new QComboBox(sinBox_);
    sinFreq_->addItem(tr("Vaswani base^(−2i/d)"), static_cast<int>(SinusoidalFrequencies::Vaswani));
    sinFreq_->addItem(tr("tensor2tensor / fairseq"), static_cast<int>(SinusoidalFrequencies::Tensor2Tensor));
    minTimescale_ = realSpin(1e-6, 1e6, 0.5, 4, sinBox_);
    f->addRow(tr("Layout"), sinLayout_);
    f->addRow(tr("Frequencies"), sinFreq_);
    f->addRow(tr("Min timescale"), minTimescale_);
    connect(sinLayout_, &QComboBox::currentIndexChanged, this, [this](int i) {
        const auto l = static_cast<SinusoidalLayout>(sinLayout_->itemData(i).toInt());
        editCfg(tr("Sinusoid layout"), QString(), [&](ScoreParams& p) { p.sinusoidal.layout = l; });
    });
    connect(sinFreq_, &QComboBox::currentIndexChanged, this, [this](int i) {
        const auto k = static_cast<SinusoidalFrequencies>(sinFreq_->itemData(i).toInt());
        editCfg(tr("Sinusoid frequencies"), QString(), [&](ScoreParams& p) { p.sinusoidal.frequencies = k; });
    });
    connect(minTimescale_, &QDoubleSpinBox::valueChanged, this, [this](double x) {
        editCfg(tr("Min timescale"), QStringLiteral("min_timescale"), [&](ScoreParams& p) { p.sinusoidal.min_timescale = x; });
    });
    return sinBox_;
}

QWidget* ParameterPanel::buildXpos() {
    xposBox_ = new QGroupBox(tr("xPos"), this);
    auto* f = form(xposBox_);
    scaleBase_ = new SliderSpin(1, 1e6, 1, 1, SliderSpin::Scale::Log, xposBox_);
    f->addRow(tr("Scale base"), scaleBase_);
    connect(scaleBase_, &SliderSpin::valueChanged, this, [this](double x) {
        editCfg(tr("Scale base"), QStringLiteral("scale_base"), [&](ScoreParams& p) { p.xpos.scale_base = x; });
    });
    connectFinish(scaleBase_);
    return xposBox_;
}

QWidget* ParameterPanel::buildLearned() {
    learnedBox_ = new QGroupBox(tr("Learned absolute"), this);
    auto* f = form(learnedBox_);
    tableSize_ = intSpin(1, 65536, learnedBox_);
    learnedSeed_ = intSpin(0, 1 << 30, learnedBox_);
    f->addRow(tr("Table size"), tableSize_);
    f->addRow(tr("Table seed"), learnedSeed_);
    connect(tableSize_, &QSpinBox::valueChanged, this, [this](int x) {
        editCfg(tr("Table size"), QStringLiteral("table_size"), [&](ScoreParams& p) { p.learned.table_size = x; });
    });
    connect(learnedSeed_, &QSpinBox::valueChanged, this, [this](int x) {
        editCfg(tr("Table seed"), QStringLiteral("learned_seed"), [&](ScoreParams& p) { p.learned.seed = static_cast<std::uint64_t>(x); });
    });
    return learnedBox_;
}

QWidget* ParameterPanel::buildShaw() {
    shawBox_ = new QGroupBox(tr("Shaw relative"), this);
    auto* f = form(shawBox_);
    shawK_ = new SliderSpin(1, 4096, 1, 0, SliderSpin::Scale::Log, shawBox_);
    shawSeed_ = intSpin(0, 1 << 30, shawBox_);
    f->addRow(tr("Max relative position k"), shawK_);
    f->addRow(tr("Table seed"), shawSeed_);
    connect(shawK_, &SliderSpin::valueChanged, this, [this](double x) {
        editCfg(tr("Clip distance"), QStringLiteral("shaw_k"), [&](ScoreParams& p) { p.shaw.max_relative_position = std::llround(x); });
    });
    connectFinish(shawK_);
    connect(shawSeed_, &QSpinBox::valueChanged, this, [this](int x) {
        editCfg(tr("Table seed"), QStringLiteral("shaw_seed"), [&](ScoreParams& p) { p.shaw.seed = static_cast<std::uint64_t>(x); });
    });
    return shawBox_;
}

QWidget* ParameterPanel::buildT5() {
    t5Box_ = new QGroupBox(tr("T5 buckets"), this);
    auto* f = form(t5Box_);
    t5Buckets_ = intSpin(2, 1024, t5Box_);
    t5MaxDist_ = intSpin(2, 1000000000, t5Box_);
    t5Heads_ = intSpin(1, 256, t5Box_);
    t5Seed_ = intSpin(0, 1 << 30, t5Box_);
    f->addRow(tr("Buckets"), t5Buckets_);
    f->addRow(tr("Max distance"), t5MaxDist_);
    f->addRow(tr("Heads"), t5Heads_);
    f->addRow(tr("Table seed"), t5Seed_);
    auto* note = new QLabel(tr("Bidirectional (encoder) buckets; the causal toggle switches to decoder buckets."), t5Box_);
    note->setWordWrap(true);
    f->addRow(note);
    connect(t5Buckets_, &QSpinBox::valueChanged, this, [this](int x) {
        editCfg(tr("Buckets"), QStringLiteral("num_buckets"), [&](ScoreParams& p) { p.t5.num_buckets = x; });
    });
    connect(t5MaxDist_, &QSpinBox::valueChanged, this, [this](int x) {
        editCfg(tr("Max distance"), QStringLiteral("max_distance"), [&](ScoreParams& p) { p.t5.max_distance = x; });
    });
    connect(t5Heads_, &QSpinBox::valueChanged, this, [this](int x) {
        editCfg(tr("Heads"), QStringLiteral("t5_heads"), [&](ScoreParams& p) { p.t5.heads = x; });
    });
    connect(t5Seed_, &QSpinBox::valueChanged, this, [this](int x) {
        editCfg(tr("Table seed"), QStringLiteral("t5_seed"), [&](ScoreParams& p) { p.t5.seed = static_cast<std::uint64_t>(x); });
    });
    return t5Box_;
}

QWidget* ParameterPanel::buildTransformerXL() {
    txlBox_ = new QGroupBox(tr("Transformer-XL"), this);
    auto* f = form(txlBox_);
    clampLen_ = intSpin(0, 1 << 30, txlBox_);
    clampLen_->setSpecialValueText(tr("none"));
    txlSeed_ = intSpin(0, 1 << 30, txlBox_);
    f->addRow(tr("Clamp length"), clampLen_);
    f->addRow(tr("Weights seed"), txlSeed_);
    connect(clampLen_, &QSpinBox::valueChanged, this, [this](int x) {
        editCfg(tr("Clamp length"), QStringLiteral("clamp_len"), [&](ScoreParams& p) { p.transformer_xl.clamp_len = x; });
    });
    connect(txlSeed_, &QSpinBox::valueChanged, this, [this](int x) {
        editCfg(tr("Weights seed"), QStringLiteral("txl_seed"), [&](ScoreParams& p) { p.transformer_xl.seed = static_cast<std::uint64_t>(x); });
    });
    return txlBox_;
}

QWidget* ParameterPanel::buildAlibi() {
    alibiBox_ = new QGroupBox(tr("ALiBi"), this);
    auto* f = form(alibiBox_);
    alibiHeads_ = intSpin(1, 4096, alibiBox_);
    biasMax_ = realSpin(0.01, 1024, 1, 2, alibiBox_);
    f->addRow(tr("Heads"), alibiHeads_);
    f->addRow(tr("Bias max B"), biasMax_);
    auto* note = new QLabel(tr("Symmetric −m·|i−j| bias unless causal."), alibiBox_);
    note->setWordWrap(true);
    f->addRow(note);
    connect(alibiHeads_, &QSpinBox::valueChanged, this, [this](int x) {
        editCfg(tr("Heads"), QStringLiteral("alibi_heads"), [&](ScoreParams& p) { p.alibi.heads = x; });
    });
    connect(biasMax_, &QDoubleSpinBox::valueChanged, this, [this](double x) {
        editCfg(tr("Bias max"), QStringLiteral("bias_max"), [&](ScoreParams& p) { p.alibi.bias_max = x; });
    });
    return alibiBox_;
}

QWidget* ParameterPanel::buildView() {
    auto* box = new QGroupBox(tr("Views"), this);
    auto* f = form(box);
    auto* hm = new QWidget(box);
    auto* h = new QHBoxLayout(hm);
    h->setContentsMargins(0, 0, 0, 0);
    softmax_ = new QCheckBox(tr("softmax"), hm);
    softmax_->setObjectName(QStringLiteral("softmax"));
    causal_ = new QCheckBox(tr("causal"), hm);
    causal_->setObjectName(QStringLiteral("causal"));
    difference_ = new QCheckBox(tr("difference"), hm);
    difference_->setToolTip(tr("Compare mode: add panels B − A"));
    h->addWidget(softmax_);
    h->addWidget(causal_);
    h->addWidget(difference_);
    h->addStretch(1);
    f->addRow(tr("Heatmap"), hm);
    colormap_ = new QComboBox(box);
    colormap_->addItem(tr("automatic"), static_cast<int>(HeatmapColormap::Auto));
    colormap_->addItem(tr("viridis"), static_cast<int>(HeatmapColormap::Viridis));
    colormap_->addItem(tr("diverging (blue–white–red)"), static_cast<int>(HeatmapColormap::Diverging));
    f->addRow(tr("Colour map"), colormap_);
    decayMax_ = new SliderSpin(1, 1 << 20, 1, 0, SliderSpin::Scale::Log, box);
    decayMax_->setObjectName(QStringLiteral("decayMax"));
    f->addRow(tr("Decay distance"), decayMax_);
    auto* dc = new QWidget(box);
    auto* h2 = new QHBoxLayout(dc);
    h2->setContentsMargins(0, 0, 0, 0);
    logX_ = new QCheckBox(tr("log distance"), dc);
    logY_ = new QCheckBox(tr("log |score|"), dc);
    bound_ = new QCheckBox(tr("RoPE bound"), dc);
    h2->addWidget(logX_);
    h2->addWidget(logY_);
    h2->addWidget(bound_);
    h2->addStretch(1);
    f->addRow(tr("Decay axes"), dc);
    auto* look = new QWidget(box);
    auto* h3 = new QHBoxLayout(look);
    h3->setContentsMargins(0, 0, 0, 0);
    theme_ = new QComboBox(look);
    theme_->setObjectName(QStringLiteral("theme"));
    for (const auto& n : themeNames()) theme_->addItem(n, n);
    fontScale_ = realSpin(0.5, 3.0, 0.1, 2, look);
    fontScale_->setPrefix(tr("text ×"));
    h3->addWidget(theme_, 1);
    h3->addWidget(fontScale_);
    f->addRow(tr("Theme"), look);

    auto viewEdit = [this](QCheckBox* c, const QString& text, bool ViewOptions::*field) {
        connect(c, &QCheckBox::toggled, this, [this, text, field](bool on) {
            editScene(text, QString(), [&](SceneParams& s) { s.view.*field = on; });
        });
    };
    viewEdit(softmax_, tr("Softmax"), &ViewOptions::softmax);
    viewEdit(causal_, tr("Causal"), &ViewOptions::causal);
    viewEdit(difference_, tr("Difference"), &ViewOptions::showDifference);
    viewEdit(logX_, tr("Log distance"), &ViewOptions::decayLogX);
    viewEdit(logY_, tr("Log score"), &ViewOptions::decayLogY);
    viewEdit(bound_, tr("Bound"), &ViewOptions::decayShowBound);
    connect(colormap_, &QComboBox::currentIndexChanged, this, [this](int i) {
        const auto c = static_cast<HeatmapColormap>(colormap_->itemData(i).toInt());
        editScene(tr("Colour map"), QString(), [&](SceneParams& s) { s.view.colormap = c; });
    });
    connect(decayMax_, &SliderSpin::valueChanged, this, [this](double x) {
        editScene(tr("Decay distance"), QStringLiteral("decay_max"), [&](SceneParams& s) { s.view.decayMaxDistance = std::llround(x); });
    });
    connectFinish(decayMax_);
    connect(theme_, &QComboBox::currentIndexChanged, this, [this](int i) {
        const QString n = theme_->itemData(i).toString();
        editScene(tr("Theme"), QString(), [&](SceneParams& s) { s.view.theme = n; });
    });
    connect(fontScale_, &QDoubleSpinBox::valueChanged, this, [this](double x) {
        editScene(tr("Text size"), QStringLiteral("font_scale"), [&](SceneParams& s) { s.view.fontScale = x; });
    });
    return box;
}

void ParameterPanel::refresh() {
    refreshing_ = true;
    const SceneParams& s = scene_->params();
    const int a = scene_->activeConfig();
    const ScoreParams& p = s.methods[static_cast<std::size_t>(a)].params;
    {
        QStringList titles;
        for (int i = 0; i < static_cast<int>(s.methods.size()); ++i) titles << configTitle(s, i);
        if (s.methods.size() == 1) titles[0] = QStringLiteral("A: ") + titles[0];
        QStringList current;
        for (int i = 0; i < config_->count(); ++i) current << config_->itemText(i);
        const QSignalBlocker b(config_);
        if (current != titles) {
            config_->clear();
            config_->addItems(titles);
        }
        if (config_->currentIndex() != a) config_->setCurrentIndex(a);
    }
    enableIf(addConfig_, static_cast<int>(s.methods.size()) < kMaxConfigs);
    enableIf(removeConfig_, s.methods.size() > 1);
    setLine(label_, s.methods[static_cast<std::size_t>(a)].label);
    {
        const int pi = std::max(0, preset_->findData(s.presetKey));
        if (preset_->currentIndex() != pi) {
            const QSignalBlocker b(preset_);
            preset_->setCurrentIndex(pi);
        }
        const ModelPreset* mp = s.presetKey.isEmpty() ? nullptr : findPreset(s.presetKey.toStdString());
        showIf(presetNote_, mp != nullptr);
        if (mp) setLabel(presetNote_, QStringLiteral("%1 — %2").arg(qs(mp->note), qs(mp->source)));
    }
    if (auto e = sceneProblem(s)) {
        setLabel(problem_, *e);
        showIf(problem_, true);
    } else {
        showIf(problem_, false);
    }
    setCombo(method_, static_cast<int>(p.method));
    setLabel(summary_, qs(methodSummary(p.method)));
    dim_->setValue(p.dim);
    const bool hasBase = p.method == Method::Rope || p.method == Method::Sinusoidal;
    enableIf(base_, hasBase);
    base_->setValue(p.method == Method::Sinusoidal ? p.sinusoidal.base : p.rope.base);
    length_->setValue(static_cast<double>(s.length));
    setLine(positions_, positionsText(s.positions));
    {
        QStringList parts;
        for (int i : s.pairs) parts << QString::number(i);
        setLine(pairs_, parts.join(QLatin1Char(',')));
    }
    const bool heads = p.method == Method::Alibi || p.method == Method::T5;
    enableIf(head_, heads);
    setSpin(head_, s.head);
    setCombo(content_, static_cast<int>(p.content));
    setSpin(seed_, static_cast<qint64>(p.seed));
    enableIf(seed_, p.content == Content::Random);
    setCombo(precision_, static_cast<int>(p.precision));

    showIf(ropeBox_, p.method == Method::Rope);
    showIf(sinBox_, p.method == Method::Sinusoidal);
    showIf(xposBox_, p.method == Method::Xpos);
    showIf(learnedBox_, p.method == Method::Learned);
    showIf(shawBox_, p.method == Method::Shaw);
    showIf(t5Box_, p.method == Method::T5);
    showIf(txlBox_, p.method == Method::TransformerXL);
    showIf(alibiBox_, p.method == Method::Alibi);

    const RopeParams& r = p.rope;
    setCombo(ropeLayout_, static_cast<int>(r.layout));
    setSpin(partial_, r.partial_rotary_factor);
    setSpin(rotaryDim_, r.rotary_dim);
    setCombo(ropeScaling_, static_cast<int>(r.scaling));
    factor_->setValue(r.factor);
    setSpin(maxPos_, r.max_positions);
    origMax_->setValue(optD(r.original_max_positions));
    seqLen_->setValue(optD(r.seq_len));
    setLine(theta_, numberListText(r.theta));
    showIf(yarnRows_, r.scaling == RopeScaling::Yarn || r.scaling == RopeScaling::LongRope);
    for (QWidget* w : {static_cast<QWidget*>(betaFast_), static_cast<QWidget*>(betaSlow_), static_cast<QWidget*>(mscale_),
                       static_cast<QWidget*>(mscaleAll_), static_cast<QWidget*>(truncate_)})
        enableIf(w, r.scaling == RopeScaling::Yarn);
    setSpin(betaFast_, r.beta_fast);
    setSpin(betaSlow_, r.beta_slow);
    mscale_->setValue(r.mscale);
    mscaleAll_->setValue(r.mscale_all_dim);
    setCheck(truncate_, r.truncate);
    attnFactor_->setValue(r.attention_factor);
    showIf(llamaRows_, r.scaling == RopeScaling::Llama3);
    setSpin(lowFreq_, r.low_freq_factor);
    setSpin(highFreq_, r.high_freq_factor);
    showIf(longRows_, r.scaling == RopeScaling::LongRope);
    setLine(shortFactor_, numberListText(r.short_factor));
    setLine(longFactor_, numberListText(r.long_factor));

    setCombo(sinLayout_, static_cast<int>(p.sinusoidal.layout));
    setCombo(sinFreq_, static_cast<int>(p.sinusoidal.frequencies));
    setSpin(minTimescale_, p.sinusoidal.min_timescale);
    enableIf(minTimescale_, p.sinusoidal.frequencies == SinusoidalFrequencies::Tensor2Tensor);
    scaleBase_->setValue(p.xpos.scale_base);
    setSpin(tableSize_, p.learned.table_size);
    setSpin(learnedSeed_, static_cast<qint64>(p.learned.seed));
    shawK_->setValue(static_cast<double>(p.shaw.max_relative_position));
    setSpin(shawSeed_, static_cast<qint64>(p.shaw.seed));
    setSpin(t5Buckets_, p.t5.num_buckets);
    setSpin(t5MaxDist_, p.t5.max_distance);
    setSpin(t5Heads_, p.t5.heads);
    setSpin(t5Seed_, static_cast<qint64>(p.t5.seed));
    setSpin(clampLen_, p.transformer_xl.clamp_len);
    setSpin(txlSeed_, static_cast<qint64>(p.transformer_xl.seed));
    setSpin(alibiHeads_, p.alibi.heads);
    setSpin(biasMax_, p.alibi.bias_max);

    setCheck(softmax_, s.view.softmax);
    setCheck(causal_, s.view.causal);
    setCheck(difference_, s.view.showDifference);
    enableIf(difference_, s.methods.size() > 1);
    setCombo(colormap_, static_cast<int>(s.view.colormap));
    decayMax_->setValue(static_cast<double>(s.view.decayMaxDistance));
    setCheck(logX_, s.view.decayLogX);
    setCheck(logY_, s.view.decayLogY);
    setCheck(bound_, s.view.decayShowBound);
    {
        const int ti = std::max(0, theme_->findData(s.view.theme));
        if (theme_->currentIndex() != ti) {
            const QSignalBlocker b(theme_);
            theme_->setCurrentIndex(ti);
        }
    }
    setSpin(fontScale_, s.view.fontScale);
    refreshing_ = false;
}

}  // namespace poslab::ui
