#include "ui/panel/parameterpanel.h"

#include "ui/io/presets.h"
#include "ui/panel/tokenlayouteditor.h"
#include "ui/panel/controls.h"
#include "ui/render/theme.h"

#include <QCheckBox>
#include <QApplication>
#include <QCoreApplication>
#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

namespace {

QString qs(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

QFormLayout* form(QWidget* w) {
    auto* f = new QFormLayout(w);
    f->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    // A row too wide for the panel (a slider and its box beside a long label) goes under its
    // label at the panel's full width rather than squeezing the slider.
    f->setRowWrapPolicy(QFormLayout::WrapLongRows);
    f->setContentsMargins(6, 6, 6, 6);
    return f;
}

// The setters below change a control only when its value differs: refresh() runs after every
// edit (60 times a second during a drag), and an unchanged control must not repaint or relayout.
void setLabel(QLabel* l, const QString& text) {
    if (l->text() != text) l->setText(text);
}
void showIf(QWidget* w, bool on) {
    if (w && w->isVisibleTo(w->parentWidget()) != on) w->setVisible(on);
}
void enableIf(QWidget* w, bool on) {
    if (w->isEnabled() != on) w->setEnabled(on);
}

// The own fields of a configuration that the window sets scene-wide (scene head, view causal
// and softmax): no control of their own per configuration.
const std::vector<std::string_view> kSceneWide = {"head", "causal", "softmax"};

}  // namespace

ParameterPanel::ParameterPanel(Scene* scene, QWidget* parent) : QWidget(parent), scene_(scene) {
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(4, 4, 4, 4);
    l->addWidget(buildConfigBox());

    const auto config = [this]() -> const ScoreParams& {
        return scene_->params().methods[static_cast<std::size_t>(scene_->activeConfig())].params;
    };
    const auto editCfg = [this](const QString& text, const QString& path, std::function<void(ScoreParams&)> f) {
        editConfig(text, path, std::move(f));
    };
    const auto sceneOf = [this]() -> const SceneParams& { return scene_->params(); };
    const auto editSc = [this](const QString& text, const QString& path, std::function<void(SceneParams&)> f) {
        editScene(text, path, std::move(f));
    };

    // Method and sequence: the configuration's own fields, then the scene's.
    auto* general = new QGroupBox(tr("Method and sequence"), this);
    auto* gf = form(general);
    addRows<ScoreParams>(gf, general, scoreParamTable(), {}, QString(), config, editCfg, kSceneWide);
    summary_ = new QLabel(general);
    summary_->setWordWrap(true);
    QFont sf = summary_->font();
    sf.setItalic(true);
    summary_->setFont(sf);
    gf->insertRow(1, summary_);
    addRows<SceneParams>(gf, general, sceneParamTable(), {}, QStringLiteral("scene."), sceneOf, editSc, {"preset", "q_file", "k_file"});
    l->addWidget(general);

    // One box per method with parameters of its own.
    for (Method m : kAllMethods) {
        const std::string_view g = methodParamGroup(m);
        if (g.empty()) continue;
        auto* box = new QGroupBox(methodTitleText(m), this);
        box->setObjectName(qs(g));
        addRows<ScoreParams>(form(box), box, scoreParamTable(), g, QString(), config, editCfg);
        methodBoxes_.emplace_back(m, box);
        l->addWidget(box);
    }

    // The layer's attention structure (every method): window, chunk, NoPE, temperature tuning,
    // q/k norm, softmax scale, sinks.
    auto* attention = new QGroupBox(tr("Attention"), this);
    attention->setObjectName(QStringLiteral("attention"));
    addRows<ScoreParams>(form(attention), attention, scoreParamTable(), "attention", QString(), config, editCfg);
    l->addWidget(attention);

    // The model's layer pattern, and the RoPE parameters of each layer type: only when a model
    // configuration gave the configuration a pattern (a layer type's box only when it has such layers).
    modelBox_ = new QGroupBox(tr("Model layers"), this);
    modelBox_->setObjectName(QStringLiteral("model"));
    addRows<ScoreParams>(form(modelBox_), modelBox_, scoreParamTable(), "model", QString(), config, editCfg);
    l->addWidget(modelBox_);
    const std::pair<LayerType, QString> perType[] = {{LayerType::Full, tr("RoPE of the full layers")},
                                                     {LayerType::Sliding, tr("RoPE of the sliding layers")},
                                                     {LayerType::Chunked, tr("RoPE of the chunked layers")}};
    for (const auto& [type, title] : perType) {
        const std::string group = "model_rope_" + std::string(enumKey(type));
        auto* box = new QGroupBox(title, this);
        box->setObjectName(qs(group));
        addRows<ScoreParams>(form(box), box, scoreParamTable(), group, QString(), config, editCfg);
        layerRopeBoxes_.emplace_back(type, box);
        l->addWidget(box);
    }

    // Multimodal positions: the token layout as an editor, then the rule's and the sections' rows.
    auto* tokens = new QGroupBox(tr("Token layout (multimodal positions)"), this);
    tokens->setObjectName(QStringLiteral("mrope"));
    auto* tokensForm = form(tokens);
    tokens_ = new TokenLayoutEditor(scene_, tokens);
    tokens_->setObjectName(QStringLiteral("tokenLayoutEditor"));
    tokensForm->addRow(tokens_);
    addRows<SceneParams>(tokensForm, tokens, sceneParamTable(), "mrope", QStringLiteral("scene."), sceneOf, editSc, {"tokens"});
    // The sections are the edited configuration's (compare mode: each its own).
    const auto methodOf = [this]() -> const MethodConfig& { return scene_->params().methods[static_cast<std::size_t>(scene_->activeConfig())]; };
    const auto editMethod = [this](const QString& text, const QString& path, std::function<void(MethodConfig&)> f) {
        if (refreshing_) return;
        scene_->editActive(text, path, [&](MethodConfig& c) { f(c); });
    };
    addRows<MethodConfig>(tokensForm, tokens, methodParamTable(), "mrope", QString(), methodOf, editMethod);
    l->addWidget(tokens);

    // The vision encoder's 2-D decay: its encoder, patch grid (shown while set), head and base, and
    // the patch the decay is measured from (also chosen by a click on the map).
    auto* vision = new QGroupBox(tr("Vision encoder (2-D RoPE decay)"), this);
    vision->setObjectName(QStringLiteral("vision"));
    addRows<SceneParams>(form(vision), vision, sceneParamTable(), "vision", QStringLiteral("scene."), sceneOf, editSc);
    l->addWidget(vision);

    // Views.
    auto* view = new QGroupBox(tr("Views"), this);
    const auto viewOf = [this]() -> const ViewOptions& { return scene_->params().view; };
    const auto editView = [this](const QString& text, const QString& path, std::function<void(ViewOptions&)> f) {
        editScene(text, path, [&](SceneParams& s) { f(s.view); });
    };
    addRows<ViewOptions>(form(view), view, viewParamTable(), {}, QStringLiteral("view."), viewOf, editView);
    l->addWidget(view);
    l->addStretch(1);

    dim_ = qobject_cast<SliderSpin*>(control(QStringLiteral("dim")));
    base_ = qobject_cast<SliderSpin*>(control(QStringLiteral("rope.base")));
    length_ = qobject_cast<SliderSpin*>(control(QStringLiteral("scene.length")));
    method_ = qobject_cast<QComboBox*>(control(QStringLiteral("method")));
    if (dim_) dim_->slider()->setObjectName(QStringLiteral("dimSlider"));
    if (base_) base_->slider()->setObjectName(QStringLiteral("baseSlider"));
    if (length_) length_->slider()->setObjectName(QStringLiteral("lengthSlider"));

    // Scrolling the panel over a control never changes it (a click first).
    wheelOnlyWhenFocused(this);

    connect(scene_, &Scene::changed, this, &ParameterPanel::refresh);
    connect(scene_, &Scene::activeConfigChanged, this, &ParameterPanel::refresh);
    refresh();
}

QWidget* ParameterPanel::control(const QString& path) const {
    for (const auto& r : rows_)
        if (r.path == path) return r.widget;
    return nullptr;
}

void ParameterPanel::editConfig(const QString& text, const QString& path, std::function<void(ScoreParams&)> f) {
    if (refreshing_) return;
    scene_->editActive(text, path, [&](MethodConfig& c) { f(c.params); });
}

void ParameterPanel::editScene(const QString& text, const QString& path, std::function<void(SceneParams&)> f) {
    if (refreshing_) return;
    scene_->edit(text, path, [&](SceneParams& s) { f(s); });
}

// The control of one declared parameter. `commit(v, merge)` applies a checked value; sliders
// merge their drag into one undo step.
QWidget* ParameterPanel::makeControl(const ParamInfo& info, const QString& path, std::function<ParamValue()> value,
                                     std::function<void(const ParamValue&, bool)> commit, Row& row) {
    QWidget* parent = this;
    const QString name = qs(info.name);
    auto showProblem = [](QLabel* msg) {
        return [msg](const QString& p) {
            setLabel(msg, p);
            showIf(msg, !p.isEmpty());
        };
    };
    row.message = new QLabel(parent);
    row.message->setWordWrap(true);
    row.message->setStyleSheet(QStringLiteral("QLabel { color: #c62828; }"));
    row.message->setVisible(false);
    row.message->setObjectName(name + QStringLiteral("Problem"));

    if ((info.kind == ParamKind::Int || info.kind == ParamKind::Real) && info.has(kParamSlider) && !info.optional) {
        auto* s = new SliderSpin(info, parent);
        s->setObjectName(name);
        s->setToolTip(paramToolTip(info));
        connect(s, &SliderSpin::valueChanged, this, [commit, kind = info.kind](double v) {
            commit(kind == ParamKind::Int ? ParamValue{static_cast<std::int64_t>(std::llround(v))} : ParamValue{v}, true);
        });
        connect(s, &SliderSpin::editingFinished, scene_, &Scene::finishMerge);
        connect(s, &SliderSpin::problemChanged, this, showProblem(row.message));
        row.refresh = [s, value] {
            const ParamValue v = value();
            if (auto* i = std::get_if<std::int64_t>(&v)) s->setValue(static_cast<double>(*i));
            else if (auto* d = std::get_if<double>(&v)) s->setValue(*d);
        };
        return s;
    }
    if (info.kind == ParamKind::Bool) {
        auto* c = new QCheckBox(paramLabel(info), parent);
        c->setObjectName(name);
        c->setToolTip(paramToolTip(info));
        connect(c, &QCheckBox::toggled, this, [commit](bool on) { commit(ParamValue{on}, false); });
        row.refresh = [c, value] {
            const ParamValue v = value();
            const bool on = std::holds_alternative<bool>(v) && std::get<bool>(v);
            if (c->isChecked() == on) return;
            const QSignalBlocker b(c);
            c->setChecked(on);
        };
        return c;
    }
    const bool theme = info.kind == ParamKind::Text && info.name == "theme";
    if (info.kind == ParamKind::Choice || theme) {
        auto* c = new QComboBox(parent);
        c->setObjectName(name);
        c->setToolTip(paramToolTip(info));
        if (theme) {
            for (const auto& n : themeNames()) c->addItem(n, n);
        } else {
            for (std::size_t i = 0; i < info.choices.size(); ++i) {
                const std::string label(i < info.choiceLabels.size() ? info.choiceLabels[i] : info.choices[i]);
                c->addItem(QCoreApplication::translate("param", label.c_str()), qs(info.choices[i]));
            }
        }
        // The method combo keeps the Method as its item data (tests and menus select by it).
        if (info.name == "method")
            for (int i = 0; i < c->count(); ++i)
                c->setItemData(i, static_cast<int>(*methodFromKey(c->itemData(i).toString().toStdString())));
        connect(c, &QComboBox::currentIndexChanged, this, [this, c, commit, info](int i) {
            if (refreshing_ || i < 0) return;
            QString key = c->itemData(i).toString();
            if (info.name == "method") key = qs(methodKey(static_cast<Method>(c->itemData(i).toInt())));
            if (info.name == "content") {
                // The "file: NAME" entry stands for the scene's query/key files (refresh() adds it);
                // choosing a content of the configuration's own closes them.
                if (key == QLatin1String("file")) return;
                if (!scene_->committed().qFile.isEmpty()) {
                    scene_->edit(tr("Query/key content"), QString(), [&](SceneParams& s) {
                        s.qFile.clear();
                        s.kFile.clear();
                        s.methods[static_cast<std::size_t>(scene_->activeConfig())].params.content =
                            *contentFromKey(key.toStdString());
                    });
                    return;
                }
            }
            commit(ParamValue{key.toStdString()}, false);
        });
        row.refresh = [c, value, info] {
            const ParamValue v = value();
            const auto* key = std::get_if<std::string>(&v);
            int i = -1;
            if (key) {
                if (info.name == "method") i = c->findData(static_cast<int>(*methodFromKey(*key)));
                else i = c->findData(QString::fromStdString(*key));
            }
            i = std::max(0, i);
            if (c->currentIndex() == i) return;
            const QSignalBlocker b(c);
            c->setCurrentIndex(i);
        };
        return c;
    }
    auto* e = new ParamEdit(info, parent);
    connect(e, &ParamEdit::committed, this, [commit](const ParamValue& v) { commit(v, false); });
    connect(e, &ParamEdit::problemChanged, this, showProblem(row.message));
    row.refresh = [e, value] { e->showValue(value()); };
    (void)path;
    return e;
}

template <class S>
void ParameterPanel::addRows(QFormLayout* form, QWidget* parent, const ParamTable<S>& table, std::string_view group,
                             const QString& prefix, std::function<const S&()> get,
                             std::function<void(const QString&, const QString&, std::function<void(S&)>)> edit,
                             const std::vector<std::string_view>& skip) {
    QHBoxLayout* checks = nullptr;   // consecutive check boxes share a row
    for (const auto& p : table) {
        if (p.group != group || p.info.has(kParamShared)) continue;
        if (std::find(skip.begin(), skip.end(), p.info.name) != skip.end()) continue;
        Row row;
        row.path = prefix + QString::fromStdString(p.path());
        const Param<S>* decl = &p;
        const ParamTable<S>* tbl = &table;
        const QString text = paramLabel(p.info);
        const QString path = row.path;
        auto value = [get, decl] { return decl->get(get()); };
        auto commit = [this, edit, decl, tbl, text, path](const ParamValue& v, bool merge) {
            if (refreshing_) return;
            edit(text, merge ? path : QString(), [&](S& s) {
                if (setParam(*tbl, s, *decl, v)) return;   // refused: nothing changes
                if constexpr (std::is_same_v<S, ScoreParams>) {
                    // An edit of the model's pattern shows the layer anew (its RoPE, mask, NoPE, ...).
                    if (decl->group == "model" || decl->group.starts_with("model_rope_")) s.applyLayer(s.model.layer);
                    // A scaling that needs numbers gets typical ones, shown in its rows.
                    if (decl->path() == "rope.scaling") {
                        RopeParams& r = s.rope;
                        const RopeScaling sc = r.scaling;
                        if ((sc == RopeScaling::Linear || sc == RopeScaling::Dynamic || sc == RopeScaling::Llama3) && !r.factor)
                            r.factor = sc == RopeScaling::Llama3 ? 8.0 : 4.0;
                        if ((sc == RopeScaling::Yarn || sc == RopeScaling::LongRope || sc == RopeScaling::Llama3) &&
                            !r.original_max_positions)
                            r.original_max_positions = std::max<std::int64_t>(1, r.max_positions / 4);
                        const int half = std::max(1, s.ropeParams().rotaryDim() / 2);
                        if (sc == RopeScaling::LongRope) {
                            if (static_cast<int>(r.short_factor.size()) != half) r.short_factor.assign(std::size_t(half), 1.0);
                            if (static_cast<int>(r.long_factor.size()) != half)
                                r.long_factor.assign(std::size_t(half), r.resolvedFactor());
                        }
                    }
                }
            });
        };
        row.relevant = [get, decl] { return decl->matters(get()); };
        row.widget = makeControl(p.info, row.path, value, commit, row);
        row.widget->setProperty("paramPath", row.path);
        if (p.info.kind == ParamKind::Bool) {
            if (!checks || checks->count() >= 3) {
                auto* holder = new QWidget(parent);
                checks = new QHBoxLayout(holder);
                checks->setContentsMargins(0, 0, 0, 0);
                form->addRow(holder);
            }
            row.widget->setParent(checks->parentWidget());
            checks->addWidget(row.widget);
        } else {
            checks = nullptr;
            auto* label = new QLabel(paramLabel(p.info), parent);
            label->setToolTip(paramToolTip(p.info));
            label->setBuddy(row.widget);
            form->addRow(label, row.widget);
            row.rowLabel = label;
        }
        row.message->setParent(parent);
        form->addRow(row.message);
        row.message->setVisible(false);
        rows_.push_back(std::move(row));
    }
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
    label_->setObjectName(QStringLiteral("label"));
    label_->setPlaceholderText(tr("automatic"));
    label_->setMaxLength(kMaxLabelLength);
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
    // Enter renames only when the text is not what the scene last showed (a preset or a reset
    // replaces the text, so Enter after them renames nothing).
    connect(label_, &QLineEdit::editingFinished, this, [this] {
        const QString t = label_->text().trimmed();
        if (refreshing_ || t == labelShown_) return;
        labelShown_ = t;
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
    SceneParams s = scene_->committed();   // not an animation's frame
    auto& c = s.methods[static_cast<std::size_t>(scene_->activeConfig())];
    c.params = p->params;
    c.label = qs(p->name);
    s.presetKey = key;
    s.head = std::clamp(s.head, 0, std::max(1, p->heads) - 1);
    scene_->apply(tr("Preset %1").arg(qs(p->name)), s);
}

// The panel follows the scene's theme and text size (a projector needs a legible panel too).
// Only a change of either touches fonts and palettes: refresh() runs on every edit.
void ParameterPanel::applyLook(const QString& themeName, double fontScale) {
    const QString key = themeName + QLatin1Char('/') + QString::number(fontScale);
    if (key == lookKey_) return;
    lookKey_ = key;
    const Theme t = themeByName(themeName, fontScale);
    setFont(themeWidgetFont(t, fontScale));
    setPalette(themeWidgetPalette(t));
    setAutoFillBackground(true);
    Q_EMIT lookChanged();
}

// The model note under the preset selector: what was read (the family, the keys used), what is
// not modelled, and a warning line whenever something is not modelled or was guessed.
QString ParameterPanel::modelFileNote(const ModelFileConfig& config, const QString& fileName) const {
    const ConfigReport& r = config.report;
    QStringList lines;
    // Who the file is and whose code reads it (the family's modeling file), then what that code
    // does to the scores: the numbers a researcher checks first.
    const QString kind = config.params.causal ? tr("a causal decoder") : tr("a bidirectional encoder");
    if (!r.family.isEmpty() && r.family == config.modelType)
        lines << tr("From %1: %2, read as %3 reads it: %4.").arg(fileName, config.modelType, r.source, kind);
    else
        lines << tr("From %1 (%2): read as %3, %4.")
                     .arg(fileName, config.modelType.isEmpty() ? tr("model") : config.modelType,
                          r.family.isEmpty() ? tr("an unknown family") : r.family, kind);
    const ScoreParams& p = config.params;
    const LayerPattern& m = p.model;
    const AttentionParams& a = p.attention;
    QStringList attention;
    if (p.method == Method::Rope) {
        const QString pairs = p.rope.layout == RopeLayout::Interleaved ? tr("interleaved (2i, 2i + 1)") : tr("half-split (i, i + d/2)");
        if (!m.empty() && m.rope_sliding.base != m.rope_full.base)
            attention << tr("RoPE θ %1 on full layers, %2 on sliding ones, %3 pairs")
                             .arg(displayValue(m.rope_full.base), displayValue(m.rope_sliding.base), pairs);
        else
            attention << tr("RoPE θ %1, %2 pairs").arg(displayValue(m.empty() ? p.rope.base : m.rope_full.base), pairs);
        // Partial rotary (DeepSeek MLA: qk_rope of qk_nope + qk_rope): the rest pass unrotated.
        if (p.rope.rotaryDim() < p.dim)
            attention << tr("RoPE on %1 of the head's %2 channels, the other %3 unrotated")
                             .arg(p.rope.rotaryDim())
                             .arg(p.dim)
                             .arg(p.dim - p.rope.rotaryDim());
    }
    const double scale = scoreScale(a, p.dim);
    attention << (a.softmax_scale ? tr("scores × %1 (not 1/√%2 = %3)").arg(displayValue(scale)).arg(p.dim).arg(displayValue(1.0 / std::sqrt(double(p.dim))))
                                  : tr("scores × 1/√%1").arg(p.dim));
    if (a.softcap) attention << tr("soft-capped: s ↦ %1·tanh(s/%1) before the mask").arg(displayValue(*a.softcap));
    if (a.query_scaling.size() == 2)
        attention << tr("queries × 1 + %1·ln(1 + ⌊p/%2⌋)").arg(displayValue(a.query_scaling[1]), displayValue(a.query_scaling[0]));
    if (const auto types = parseLayerTypes(m.layer_types); types && !types->empty()) {
        const auto count = [&](LayerType t) { return static_cast<int>(std::count(types->begin(), types->end(), t)); };
        QStringList kinds;
        if (int n = count(LayerType::Sliding)) kinds << tr("%1 sliding (window %2)").arg(n).arg(m.window ? QString::number(*m.window) : QStringLiteral("?"));
        if (int n = count(LayerType::Chunked)) kinds << tr("%1 chunked (chunk %2)").arg(n).arg(m.chunk ? QString::number(*m.chunk) : QStringLiteral("?"));
        if (int n = count(LayerType::Full)) kinds << tr("%1 full").arg(n);
        attention << tr("%1 layers: %2").arg(types->size()).arg(kinds.join(QStringLiteral(", ")));
    }
    lines << tr("Attention: %1.").arg(attention.join(QStringLiteral("; ")));
    // The keys that set a parameter (rope_scaling.factor, ...), then the other keys the report
    // says were used (the layer pattern's, the scale's, ...).
    QStringList read = config.keys();
    for (const auto& [k, what] : r.used) {
        bool covered = false;
        for (const QString& e : read) covered = covered || e == k || e.startsWith(k + QLatin1Char('.'));
        if (!covered) read << k;
    }
    read.sort();
    if (!read.isEmpty()) lines << tr("Read: %1.").arg(read.join(QStringLiteral(", ")));
    QStringList notModelled;
    for (const auto& [k, v] : r.notModelled) notModelled << tr("%1 (%2)").arg(k, v);
    if (!notModelled.isEmpty()) lines << tr("Not modelled: %1.").arg(notModelled.join(QStringLiteral("; ")));
    for (const QString& w : r.warnings) lines << tr("Warning: %1.").arg(w);
    if (!notModelled.isEmpty())
        lines << (notModelled.size() == 1
                      ? tr("Warning: one part of this model's attention is not drawn; the views differ from the model there.")
                      : tr("Warning: %1 parts of this model's attention are not drawn; the views differ from the model there.")
                            .arg(notModelled.size()));
    return lines.join(QLatin1Char('\n'));
}

void ParameterPanel::applyModelConfig(const ModelFileConfig& config, const QString& fileName) {
    SceneParams s = scene_->committed();   // not an animation's frame
    auto& c = s.methods[static_cast<std::size_t>(scene_->activeConfig())];
    c.params = config.params;
    c.label = fileName;
    s.presetKey.clear();
    s.head = std::clamp(s.head, 0, std::max(1, config.heads) - 1);
    // The model's own masking: a decoder's scene is causal, an encoder's bidirectional.
    s.view.causal = config.params.causal;
    // A Qwen-VL file's multimodal positions, as `--config` sets them on the command line: its
    // sections and their layout (Qwen3-VL interleaves), the position-id rule, the merge size and
    // tokens_per_second. The token layout (and the processor's second_per_grid, which no config
    // holds) stays; N follows the layout's token count under the file's merge size. A file without
    // M-RoPE leaves no sections of an earlier file behind (the model's own split is used).
    if (config.mrope) {
        MropeParams m = *config.mrope;
        c.mropeSection = m.mrope_section;
        c.mropeLayout = m.mrope_layout;
        m.tokens = s.mrope.tokens;
        m.second_per_grid = s.mrope.second_per_grid;
        m.mrope_section.clear();   // the configuration's (above), not the scene's
        m.mrope_layout = MropeLayout::Sectioned;
        s.mrope = m;
        if (!m.tokens.empty())
            if (auto r = mropePositions(m)) s.length = std::clamp<std::int64_t>(r.value().ids.cols(), 1, kMaxLength);
    } else {
        c.mropeSection.clear();
        c.mropeLayout = MropeLayout::Sectioned;
    }
    fileParams_ = config.params;
    fileNote_ = modelFileNote(config, fileName);
    scene_->apply(tr("Open model configuration %1").arg(fileName), s);
}

void ParameterPanel::refresh() {
    refreshing_ = true;
    if (tokens_) tokens_->refresh();
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
    {
        // The label shows the scene's label; what is being typed stays unless the label changed
        // in the scene (a preset, a reset, undo, another configuration).
        const QString label = s.methods[static_cast<std::size_t>(a)].label;
        if ((label != labelShown_ || !label_->hasFocus()) && label_->text() != label) {
            const QSignalBlocker b(label_);
            label_->setText(label);
        }
        labelShown_ = label;
    }
    {
        const int pi = std::max(0, preset_->findData(s.presetKey));
        if (preset_->currentIndex() != pi) {
            const QSignalBlocker b(preset_);
            preset_->setCurrentIndex(pi);
        }
        const ModelPreset* mp = s.presetKey.isEmpty() ? nullptr : findPreset(s.presetKey.toStdString());
        const bool fromFile = !mp && fileParams_ && p == *fileParams_;
        showIf(presetNote_, mp != nullptr || fromFile);
        if (mp) setLabel(presetNote_, QStringLiteral("%1 — %2").arg(qs(mp->note), qs(mp->source)));
        else if (fromFile) setLabel(presetNote_, fileNote_);
    }
    if (auto e = sceneProblem(s)) {
        setLabel(problem_, *e);
        showIf(problem_, true);
    } else {
        showIf(problem_, false);
    }
    applyLook(s.view.theme, s.view.fontScale);
    setLabel(summary_, methodSummaryText(p.method));
    for (const auto& [m, box] : methodBoxes_) showIf(box, m == p.method);
    showIf(modelBox_, !p.model.empty());
    for (const auto& [type, box] : layerRopeBoxes_) showIf(box, !p.model.empty() && firstLayerOfType(p.model, type).has_value());
    for (auto& r : rows_) {
        r.refresh();
        const bool on = r.relevant();
        showIf(r.widget, on);
        showIf(r.rowLabel, on);
        if (!on) showIf(r.message, false);
    }
    // Real queries and keys: the content selector shows "file: NAME" (and selects it).
    if (auto* content = qobject_cast<QComboBox*>(control(QStringLiteral("content")))) {
        const QSignalBlocker b(content);
        int fi = content->findData(QStringLiteral("file"));
        if (!s.qFile.isEmpty()) {
            const QString name = s.qk && s.qk->content ? QString::fromStdString(s.qk->content->name())
                                                       : QFileInfo(s.qFile).fileName();
            const QString text = tr("file: %1").arg(name);
            if (fi < 0) {
                content->addItem(text, QStringLiteral("file"));
                fi = content->count() - 1;
            } else if (content->itemText(fi) != text) {
                content->setItemText(fi, text);
            }
            content->setToolTip(s.kFile.isEmpty() ? s.qFile : s.qFile + QStringLiteral("\n") + s.kFile);
            if (content->currentIndex() != fi) content->setCurrentIndex(fi);
        } else if (fi >= 0) {
            content->removeItem(fi);
        }
    }
    // Seed only for random content; the head only for methods with heads (and files with heads).
    if (auto* seed = control(QStringLiteral("seed"))) enableIf(seed, p.content == Content::Random && s.qFile.isEmpty());
    if (auto* head = control(QStringLiteral("scene.head")))
        enableIf(head, p.method == Method::Alibi || p.method == Method::T5 || !s.qFile.isEmpty());
    if (auto* diff = control(QStringLiteral("view.show_difference"))) enableIf(diff, s.methods.size() > 1);
    if (auto* link = control(QStringLiteral("view.link_color_ranges"))) enableIf(link, s.methods.size() > 1);
    refreshing_ = false;
}

}  // namespace poslab::ui
