// Method options shared by `compute scores/decay` and `figure` (see cli_method.h).
#include "app/cli_method.h"

#include "ui/io/qkfile.h"

#include <QFileInfo>

#include <climits>
#include <set>

namespace poslab::cli {

const std::vector<std::string> kMethods = {"nope", "sinusoidal", "learned", "shaw", "t5", "transformer-xl", "alibi", "rope", "xpos"};

OptionSpec flag(const std::string& name, const std::string& help) { return {name, "", help, "", ""}; }

std::string argOf(const ParamInfo& info) {
    switch (info.kind) {
    case ParamKind::Int: return "N";
    case ParamKind::Real: return "F";
    case ParamKind::Choice: return "K";
    case ParamKind::RealList: return "LIST";
    case ParamKind::IntList: return "LIST";
    case ParamKind::Seed: return "S";
    case ParamKind::Text: return "TEXT";
    case ParamKind::Bool: return "";
    }
    return "X";
}

// A Bool option is a flag that sets the value its default is not: --name, or --no-name.
std::string flagName(const ParamInfo& info, bool defaultOn) { return (defaultOn ? "no-" : "") + info.option(); }


// ----- options generated from the parameter table ------------------------------------------------

std::string optionWithValue(const ParamInfo& info, const std::string& option, const ParamValue& v, const ParamValue& def) {
    if (info.kind == ParamKind::Bool) {
        const bool on = std::get_if<bool>(&v) && std::get<bool>(v);
        const bool defOn = std::get_if<bool>(&def) && std::get<bool>(def);
        if (on == defOn) return "no --" + flagName(info, defOn);
        return "--" + flagName(info, defOn);
    }
    const std::string t = formatParamValue(info, v);
    return "--" + option + " " + (t.empty() ? std::string("unset") : t);
}

namespace {

// Explicit frequencies replace base and scaling: giving both is a conflict, never ignored.
void checkThetaConflicts(const Options& o) {
    if (o.has("theta")) {
        if (o.has("base")) fail("--theta conflicts with --base", "explicit frequencies (--theta) or a base (--base), not both", o.raw("base"));
        if (o.has("scaling") && o.raw("scaling") != "none")
            fail("--theta conflicts with --scaling", "explicit frequencies (--theta) or --scaling, not both", o.raw("scaling"));
    }
}

const ParamInfo& ownInfo(std::string_view name) { return findParam(scoreParamTable(), name)->info; }

}  // namespace

OptionSpec paramSpec(std::string_view name, const std::string& def, const std::string& help) {
    const ParamInfo& i = ownInfo(name);
    return {i.option(), argOf(i), help.empty() ? std::string(i.help) : help, def, i.valid()};
}

std::vector<OptionSpec> concat(std::vector<OptionSpec> a, const std::vector<OptionSpec>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

int toInt(const Options& o, const std::string& name, int def) {
    if (!o.has(name)) return def;
    return static_cast<int>(o.integer(name, INT_MIN, INT_MAX));
}

void readOwnOptions(const Options& o, std::initializer_list<std::string_view> names, ScoreParams& p) {
    for (auto n : names) {
        const Param<ScoreParams>* decl = findParam(scoreParamTable(), n);
        const std::string opt = decl->info.option();
        if (!o.has(opt)) continue;
        auto r = parseParamText(decl->info, o.raw(opt));
        if (!r) fail("invalid --" + opt, decl->info.valid(), o.raw(opt));
        decl->set(p, r.value());
    }
}

OptionSpec precisionSpec() { return paramSpec("precision", "float32"); }

Precision precisionOf(const Options& o) {
    if (!o.has("precision")) return Precision::Float32;
    auto r = parseParamText(ownInfo("precision"), o.raw("precision"));
    if (!r) fail("invalid --precision", ownInfo("precision").valid(), o.raw("precision"));
    return *enumFromKey<Precision>(std::get<std::string>(r.value()));
}

// The RoPE frequency options (`frequencies`, `rope`, and the rope method of scores/decay).
std::vector<OptionSpec> ropeFrequencySpecs(bool withHeadDim) {
    std::vector<OptionSpec> s;
    if (withHeadDim) {
        const ParamInfo& h = findParam(ropeParamTable(), "head_dim")->info;
        s.push_back({h.option(), "N", std::string(h.help), "required", h.valid()});
    }
    return concat(s, tableSpecs(ropeParamTable(), TableSelection{.skipFlags = kParamShared | kParamApplyOnly}));
}

std::vector<OptionSpec> ropeApplySpecs() {
    std::vector<OptionSpec> s;
    for (const auto& p : ropeParamTable())
        if (p.info.has(kParamApplyOnly))
            s.push_back({p.info.option(), argOf(p.info), std::string(p.info.help), p.info.defaultText(p.get(RopeParams{})),
                         p.info.valid()});
    return s;
}

void refuseUnreadMaxPositions(const Options& o, const RopeParams& r) {
    if (!o.has("max-positions") || r.readsMaxPositions()) return;
    std::string now = r.theta.empty() ? " with --scaling " + std::string(enumKey(r.scaling)) : " with --theta";
    if (r.original_max_positions) now += " and --original-max-positions";
    if (r.factor) now += " and --factor";
    fail("--max-positions cannot change the output",
         "it is read only with --scaling dynamic, with yarn, longrope or llama3 without --original-max-positions, or with "
         "yarn or longrope without --factor (otherwise it is only the model's context, which compute contributions and "
         "figure frequencies and contributions mark)",
         "--max-positions " + o.raw("max-positions") + now);
}

void readRope(const Options& o, RopeParams& r) {
    std::map<std::string, std::string> rename;
    checkThetaConflicts(o);
    r.precision = precisionOf(o);   // before the table: angle_precision and code_path depend on it
    readTable(o, ropeParamTable(), TableSelection{}, r, rename);
    refuseUnreadMaxPositions(o, r);
}

std::vector<OptionSpec> sinusoidalMethodSpecs() { return tableSpecs(sinusoidalParamTable(), TableSelection{}); }

void readSinusoidal(const Options& o, SinusoidalParams& p) {
    std::map<std::string, std::string> rename;
    readTable(o, sinusoidalParamTable(), TableSelection{}, p, rename);
}

// ----- methods ----------------------------------------------------------------------------------

std::string methodList() { return ownInfo("method").valid(); }

namespace {
// decay and figure use --max-distance for the plotted range: a method's own option of that name
// is prefixed with the method's key (T5's --t5-max-distance).
TableSelection methodSelection(Method m, bool decay) {
    TableSelection s;
    s.group = methodParamGroup(m);
    s.skip = {"seed"};   // --seed seeds the content and every table (compute scores' contract)
    if (decay) s.reserved = {"max-distance"};
    s.prefix = std::string(methodKey(m)) + "-";
    return s;
}
}  // namespace

std::vector<OptionSpec> methodSpecs(Method m, bool decay) {
    const std::string_view g = methodParamGroup(m);
    if (g.empty()) return {};
    return tableSpecs(scoreParamTable(), methodSelection(m, decay));
}

void readMethodOptions(const Options& o, Method m, bool decay, ScoreParams& p, std::map<std::string, std::string>& rename,
                       const std::set<std::string>& alwaysRead) {
    const std::string_view g = methodParamGroup(m);
    if (g.empty()) return;
    if (m == Method::Rope) checkThetaConflicts(o);
    p.rope.precision = p.precision;   // what the rope table's rules read (ropeParams() does the same)
    TableSelection sel = methodSelection(m, decay);
    sel.alwaysRead = alwaysRead;
    readTable(o, scoreParamTable(), sel, p, rename);
    if (m == Method::Rope && !alwaysRead.count("max_positions")) refuseUnreadMaxPositions(o, p.rope);
}

// Finds an option's value before the full parse (--method and --preset decide the options).
std::optional<std::string> peekOption(const std::vector<std::string>& args, const std::string& name) {
    const std::string flag = "--" + name, prefix = flag + "=";
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == flag && i + 1 < args.size()) return args[i + 1];
        if (args[i].rfind(prefix, 0) == 0) return args[i].substr(prefix.size());
    }
    return std::nullopt;
}

const ModelPreset& presetOrFail(const std::string& key) {
    const ModelPreset* p = findPreset(key);
    if (!p) {
        std::string keys;
        for (const auto& m : modelPresets()) keys += (keys.empty() ? "" : ", ") + m.key;
        fail("invalid --preset", "one of " + keys, key);
    }
    return *p;
}

OptionSpec configSpec() {
    return {"config", "FILE",
            "start from a model's configuration (Hugging Face config.json, v4 or v5 form, or GGUF metadata); other "
            "options override its values",
            "none", "a readable config.json or GGUF file"};
}

std::optional<ui::ModelFileConfig> peekConfig(const std::vector<std::string>& args) {
    const auto path = peekOption(args, "config");
    if (!path) return std::nullopt;
    if (peekOption(args, "preset")) fail("--config and --preset conflict", "one of them", "both");
    const ui::ModelConfigResult r = ui::readModelConfigFile(QString::fromStdString(*path));
    if (!r.config) throw CliError{2, "--config " + *path + ": " + r.error.toStdString()};
    return r.config;
}

std::vector<std::pair<std::string, ui::ModelFileConfig>> peekConfigs(const std::vector<std::string>& args) {
    std::vector<std::pair<std::string, ui::ModelFileConfig>> out;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string path;
        if (args[i] == "--config" && i + 1 < args.size()) path = args[++i];
        else if (args[i].rfind("--config=", 0) == 0) path = args[i].substr(9);
        else continue;
        out.emplace_back(path, *peekConfig({"--config", path}));
    }
    if (!out.empty() && peekOption(args, "preset")) fail("--config and --preset conflict", "one of them", "both");
    return out;
}

namespace {
thread_local QkArrays* tQkArrays = nullptr;
}

QkArrays::QkArrays() : previous_(tQkArrays) { tQkArrays = this; }
QkArrays::~QkArrays() { tQkArrays = previous_; }

std::vector<OptionSpec> qkSpecs() {
    return {
        {"q", "FILE", "query rows from a file (.npy, .npz or .safetensors tensor q; shape [N,d], [H,N,d] or [1,H,N,d]); "
                      "needs --k",
         "none", "a readable .npy, .npz or .safetensors file"},
        {"k", "FILE", "key rows from a file (tensor k), with --q", "none", "a readable .npy, .npz or .safetensors file"},
        {"qk", "FILE", "query and key rows from one .npz or .safetensors file holding tensors q and k", "none",
         "a readable .npz or .safetensors file"},
    };
}

std::shared_ptr<const ContentSource> readQk(const Options& o) {
    const bool q = o.has("q"), k = o.has("k"), qk = o.has("qk");
    if (!q && !k && !qk) return nullptr;
    if (qk && (q || k)) fail("--qk and --q/--k conflict", "--qk FILE or --q FILE --k FILE", q ? "--q" : "--k");
    if (!qk && !(q && k)) fail(q ? "--q needs --k" : "--k needs --q", "--q FILE --k FILE", q ? "--q alone" : "--k alone");
    if (o.has("content")) fail("--content and the query/key files conflict", "one of them", "both");
    const int head = static_cast<int>(o.has("head") ? o.integer("head", 0, 4095) : 0);
    const std::string qPath = o.raw(qk ? "qk" : "q"), kPath = o.raw(qk ? "qk" : "k");
    if (!qk && tQkArrays) {
        const auto inMemory = [](const std::string& value) -> const ui::TensorBuffer* {
            for (const auto& b : tQkArrays->buffers)
                if (b.label.toStdString() == value) return &b;
            return nullptr;
        };
        const ui::TensorBuffer* qb = inMemory(qPath);
        const ui::TensorBuffer* kb = inMemory(kPath);
        if (qb || kb) {
            const auto input = [](const ui::TensorBuffer* b, const std::string& path) {
                return b ? ui::QkInput(*b) : ui::QkInput(QString::fromStdString(path));
            };
            const ui::QkLoad r = ui::loadQk(input(qb, qPath), input(kb, kPath), head);
            if (!r.content) {
                // A file's message names its option as the command line's does; an array's its label.
                const bool kFault = !r.error.startsWith((qb ? qb->label : QFileInfo(QString::fromStdString(qPath)).fileName()) + ": ");
                const bool array = kFault ? kb != nullptr : qb != nullptr;
                throw CliError{r.io ? 1 : 2, (array ? "" : kFault ? "--k " : "--q ") + r.error.toStdString()};
            }
            return r.content;
        }
    }
    const ui::QkLoad r = ui::loadQk(QString::fromStdString(qPath), QString::fromStdString(kPath), head, !qk);
    if (!r.content) {
        // Name the option whose file is at fault (the message starts with that file's name).
        const bool kFault = !qk && r.error.startsWith(QFileInfo(QString::fromStdString(kPath)).fileName() + ": ") &&
                            !r.error.startsWith(QFileInfo(QString::fromStdString(qPath)).fileName() + ": ");
        const std::string line = (qk ? "--qk " : kFault ? "--k " : "--q ") + r.error.toStdString();
        throw CliError{r.io ? 1 : 2, line};
    }
    return r.content;
}

RopeParams ropeOfConfig(const ui::ModelFileConfig& c, const std::string& path) {
    if (c.params.method != Method::Rope)
        fail("--config " + path + " is not a RoPE model", "a config with RoPE (rope_theta, rope_parameters, ...)",
             "method " + std::string(methodKey(c.params.method)));
    return c.params.ropeParams();
}

// ----- layers -------------------------------------------------------------------------------------

namespace {
TableSelection attentionSelection() {
    TableSelection s;
    s.group = "attention";
    return s;
}
TableSelection layerSelection() {
    TableSelection s;
    s.group = "model";
    s.only = {"layer"};
    return s;
}
}  // namespace

std::vector<OptionSpec> layerSpecs() {
    auto s = tableSpecs(scoreParamTable(), layerSelection());
    for (auto& spec : s) spec.valid = "an integer from 0 to the model's layers − 1 (with --config)";
    s.push_back({"layer-type", "T", "the first layer of that type (with --config; conflicts with --layer)", "none",
                 "one of full, sliding, chunked (a type the model has)"});
    return s;
}

std::vector<OptionSpec> attentionSpecs() { return tableSpecs(scoreParamTable(), attentionSelection()); }

void selectLayer(const Options& o, ScoreParams& p, bool hasConfig) {
    const bool byIndex = o.has("layer"), byType = o.has("layer-type");
    if ((byIndex || byType) && !hasConfig)
        fail(std::string("--") + (byIndex ? "layer" : "layer-type") + " needs --config", "--config FILE of a model",
             o.raw(byIndex ? "layer" : "layer-type"));
    if (byIndex && byType) fail("--layer conflicts with --layer-type", "one of them", "both");
    if (!hasConfig) return;
    const std::int64_t n = layerCount(p.model);
    std::int64_t layer = 0;
    if (byIndex) {
        auto r = parseParamText(findParam(scoreParamTable(), "model.layer")->info, o.raw("layer"));
        if (!r) fail("invalid --layer", "an integer from 0 to " + formatInt(std::max<std::int64_t>(n, 1) - 1) + " (the model's layers)", o.raw("layer"));
        layer = std::get<std::int64_t>(r.value());
        if (layer >= std::max<std::int64_t>(n, 1))
            fail("invalid --layer", "an integer from 0 to " + formatInt(std::max<std::int64_t>(n, 1) - 1) + " (the model has " +
                                        formatInt(std::max<std::int64_t>(n, 1)) + " layers)",
                 o.raw("layer"));
    }
    if (byType) {
        std::string have;
        for (LayerType t : {LayerType::Full, LayerType::Sliding, LayerType::Chunked})
            if (n == 0 ? t == LayerType::Full : firstLayerOfType(p.model, t).has_value())
                have += (have.empty() ? "" : ", ") + std::string(enumKey(t));
        const auto t = enumFromKey<LayerType>(o.raw("layer-type"));
        if (!t) fail("invalid --layer-type", "one of full, sliding, chunked", o.raw("layer-type"));
        if (n == 0) {
            if (*t != LayerType::Full) fail("invalid --layer-type", "a type the model has: " + have, o.raw("layer-type"));
        } else {
            const auto first = firstLayerOfType(p.model, *t);
            if (!first) fail("invalid --layer-type", "a type the model has: " + have, o.raw("layer-type"));
            layer = *first;
        }
    }
    if (n > 0) p.applyLayer(layer);
}

void readAttention(const Options& o, ScoreParams& p, std::map<std::string, std::string>& rename) {
    readTable(o, scoreParamTable(), attentionSelection(), p, rename);
}

void writeLayerKeys(JsonWriter& j, const ScoreParams& p) {
    const bool pattern = layerCount(p.model) > 0;
    j.key("layer").integer(pattern ? p.model.layer : 0);
    j.key("layer_type").string(layerTypeConfigKey(p.attention.type()));
    j.key("rope").boolean(p.method == Method::Rope && !p.attention.nope);
}

void writeLayerFields(JsonWriter& j, const LayerPattern& m, std::int64_t i, int dim) {
    const LayerParams lp = layerParams(m, i);
    const RopeParams& r = lp.ropeParams;
    j.key("index").integer(i);
    j.key("layer_type").string(layerTypeConfigKey(lp.type));
    j.key("rope").boolean(lp.rope);
    j.key("rope_type").string(r.scaling == RopeScaling::None ? std::string_view("default") : enumKey(r.scaling));
    j.key("rope_theta").number(r.base);
    if (r.scaling != RopeScaling::None) j.key("factor").number(r.resolvedFactor());
    if (lp.rope) j.key("layout").string(enumKey(r.layout));
    // The head's width and the channels RoPE rotates (DeepSeek MLA: qk_nope + qk_rope, the rope part).
    if (lp.rope) j.key("head_dim").integer(dim).key("rotary_dim").integer(r.rotaryDim());
    if (lp.attention.window) j.key("window").integer(*lp.attention.window);
    if (lp.attention.chunk) j.key("chunk").integer(*lp.attention.chunk);
    if (!lp.attention.temperature_tuning.empty()) j.key("temperature_tuning").doubles(lp.attention.temperature_tuning);
    if (lp.attention.qk_norm != QkNorm::None) j.key("qk_norm").string(enumKey(lp.attention.qk_norm));
    j.key("softmax_scale").number(scoreScale(lp.attention, dim));
}

}  // namespace poslab::cli
