#include "ui/model/sceneparams.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

QString scalingTitle(RopeScaling s) {
    switch (s) {
    case RopeScaling::None: return {};
    case RopeScaling::Linear: return QStringLiteral("linear");
    case RopeScaling::Dynamic: return QStringLiteral("dynamic NTK");
    case RopeScaling::Yarn: return QStringLiteral("YaRN");
    case RopeScaling::LongRope: return QStringLiteral("LongRoPE");
    case RopeScaling::Llama3: return QStringLiteral("Llama 3");
    }
    return {};
}

namespace {

int headCount(const ScoreParams& p) {
    if (p.method == Method::Alibi) return p.alibi.heads;
    if (p.method == Method::T5) return p.t5.heads;
    return 1;
}

}  // namespace

const ParamTable<ViewOptions>& viewParamTable() {
    using K = ParamKind;
    using namespace viewreads;
    using V = ViewOptions;
    static const ParamTable<ViewOptions> t = {
        field<&V::softmax>({.name = "softmax", .kind = K::Bool, .label = "softmax", .help = "row-wise softmax weights instead of raw scores", .readers = kHeatmap | kDecay | kPrecision}),
        field<&V::causal>({.name = "causal", .kind = K::Bool, .label = "causal", .help = "mask keys after the query (j > i)", .readers = kHeatmap | kDecay | kPrecision}),
        field<&V::colormap>({.name = "colormap", .kind = K::Choice, .label = "Colour map",
                             .help = "automatic: diverging for signed scores, viridis for softmax weights",
                             .choiceLabels = {"automatic", "viridis", "diverging (blue–white–red)"}, .readers = kHeatmap}),
        field<&V::showDifference>({.name = "show_difference", .kind = K::Bool, .label = "difference",
                                   .help = "compare mode: add panels B − A (between configurations of one method and head dimension)", .readers = kHeatmap}),
        field<&V::colorLink>({.name = "link_color_ranges", .kind = K::Choice, .label = "Link colour ranges",
                              .help = "compare mode: one colour range for every panel, or each its own (automatic: its own when "
                                      "the panels' ranges differ by more than 10×)",
                              .choiceLabels = {"automatic", "linked", "each panel its own"}, .readers = kHeatmap}),
        field<&V::aggregate>({.name = "aggregate", .kind = K::Choice, .label = "Pixel shows",
                              .help = "heatmap: a pixel covering a block of cells shows their exact mean, max or min",
                              .choiceLabels = {"mean of its cells", "max of its cells", "min of its cells"}, .readers = kHeatmap | kPrecision}),
        field<&V::heatmapSquareCells>({.name = "heatmap_square_cells", .kind = K::Bool, .label = "square cells",
                                       .help = "keep heatmap cells square instead of filling the panel", .readers = kHeatmap}),
        field<&V::decayMaxDistance>({.name = "decay_max_distance", .kind = K::Int, .lo = 1, .hi = double(kMaxDecayDistance),
                                     .label = "Decay distance", .help = "largest relative distance plotted",
                                     .unit = "tokens", .flags = kParamSlider, .readers = kDecay | kContributions}),
        field<&V::decayLogX>({.name = "decay_log_x", .kind = K::Bool, .label = "log distance", .help = "log distance axis", .readers = kDecay}),
        field<&V::decayLogY>({.name = "decay_log_y", .kind = K::Bool, .label = "log |score|", .help = "log value axis (|value|)", .readers = kDecay}),
        field<&V::decayShowBound>({.name = "decay_show_bound", .kind = K::Bool, .label = "RoPE bound",
                                   .help = "RoFormer's long-term decay upper bound", .readers = kDecay}),
        // The view window (zoom and pan in the heatmap and decay views, `figure --range`).
        field<&V::heatmapQueryFrom>({.name = "heatmap_query_from", .kind = K::Int, .lo = 0, .hi = double(kMaxLength - 1),
                                     .optional = true, .label = "Query window from",
                                     .help = "heatmap zoom: first query position i shown", .unit = "tokens", .unset = "0", .readers = kHeatmap})
            .when([](const V& v) { return v.showHeatmap; }),
        field<&V::heatmapQueryTo>({.name = "heatmap_query_to", .kind = K::Int, .lo = 1, .hi = double(kMaxLength),
                                   .optional = true, .label = "Query window to",
                                   .help = "heatmap zoom: query positions shown end before this one", .unit = "tokens",
                                   .unset = "N", .readers = kHeatmap})
            .when([](const V& v) { return v.showHeatmap; }),
        field<&V::heatmapKeyFrom>({.name = "heatmap_key_from", .kind = K::Int, .lo = 0, .hi = double(kMaxLength - 1),
                                   .optional = true, .label = "Key window from",
                                   .help = "heatmap zoom: first key position j shown", .unit = "tokens", .unset = "0", .readers = kHeatmap})
            .when([](const V& v) { return v.showHeatmap; }),
        field<&V::heatmapKeyTo>({.name = "heatmap_key_to", .kind = K::Int, .lo = 1, .hi = double(kMaxLength),
                                 .optional = true, .label = "Key window to",
                                 .help = "heatmap zoom: key positions shown end before this one", .unit = "tokens",
                                 .unset = "N", .readers = kHeatmap})
            .when([](const V& v) { return v.showHeatmap; }),
        field<&V::decayFrom>({.name = "decay_from", .kind = K::Int, .lo = 0, .hi = double(kMaxDecayDistance),
                              .optional = true, .label = "Distance window from",
                              .help = "decay zoom: first distance shown", .unit = "tokens", .unset = "0", .readers = kDecay})
            .when([](const V& v) { return v.showDecay; }),
        field<&V::decayTo>({.name = "decay_to", .kind = K::Int, .lo = 1, .hi = double(kMaxDecayDistance + 1),
                            .optional = true, .label = "Distance window to",
                            .help = "decay zoom: distances shown end before this one", .unit = "tokens",
                            .unset = "max distance + 1", .readers = kDecay})
            .when([](const V& v) { return v.showDecay; }),
        field<&V::showPairs>({.name = "show_pairs", .kind = K::Bool, .label = "pairs", .help = "show the pair-vector view", .readers = kPairs}),
        field<&V::showHeatmap>({.name = "show_heatmap", .kind = K::Bool, .label = "heatmap", .help = "show the heatmap", .readers = kHeatmap}),
        field<&V::showDecay>({.name = "show_decay", .kind = K::Bool, .label = "decay", .help = "show the decay chart", .readers = kDecay}),
        field<&V::showFrequencies>({.name = "show_frequencies", .kind = K::Bool, .label = "frequencies",
                                    .help = "show the frequency view", .readers = kFrequencies}),
        field<&V::showContributions>({.name = "show_contributions", .kind = K::Bool, .label = "contributions",
                                      .help = "show RoPE's per-pair contributions to the score against distance", .readers = kContributions}),
        field<&V::showPrecision>({.name = "show_precision", .kind = K::Bool, .label = "precision",
                                  .help = "show RoPE's angle and cos/sin errors in the model's dtype and the positions that collide", .readers = kPrecision}),
        field<&V::showLayers>({.name = "show_layers", .kind = K::Bool, .label = "layers",
                               .help = "show the layer overview (when the configuration has a model's layer pattern)"}),
        field<&V::theme>({.name = "theme", .kind = K::Text, .label = "Theme", .help = "light, dark or projector"}),
        field<&V::fontScale>({.name = "font_scale", .kind = K::Real, .lo = 0.5, .hi = 3, .label = "Text size",
                              .help = "text size factor"}),
    };
    return t;
}

const ParamTable<SceneParams>& sceneParamTable() {
    using K = ParamKind;
    using namespace viewreads;
    using S = SceneParams;
    static const ParamTable<SceneParams> t = [] {
    ParamTable<SceneParams> t = {
        field<&S::length>({.name = "length", .kind = K::Int, .lo = 1, .hi = static_cast<double>(kMaxLength),
                           .label = "Positions N", .help = "sequence length N: positions 0 … N−1", .unit = "tokens",
                           .flags = kParamSlider, .readers = kEveryView}),
        field<&S::positions>({.name = "positions", .kind = K::IntList, .lo = 0, .hi = static_cast<double>(kMaxPosition),
                              .label = "Positions of interest",
                              .help = "positions of the pair vectors: a list (0,1,8) or ranges (0:4,16)",
                              .maxEntries = 4096, .readers = kPairs}),
        field<&S::pairs>({.name = "pairs", .kind = K::IntList, .lo = 0, .hi = 32767, .label = "Pairs",
                          .help = "pair indices i to draw, e.g. 0,4,16,31; empty = automatic", .unset = "automatic", .readers = kPairs | kPrecision}),
        field<&S::head>({.name = "head", .kind = K::Int, .lo = 0, .hi = 4095, .label = "Head", .help = "ALiBi / T5 head shown", .readers = kPairs | kHeatmap | kDecay}),
        field<&S::presetKey>({.name = "preset", .kind = K::Text, .label = "Preset", .help = "the model preset last applied"}),
        field<&S::qFile>({.name = "q_file", .kind = K::Text, .label = "Query file",
                          .help = "file of the real query rows (.npy, .npz, .safetensors); empty = the content chosen",
                          .unset = "none", .readers = kEveryView}),
        field<&S::kFile>({.name = "k_file", .kind = K::Text, .label = "Key file",
                          .help = "file of the real key rows (the query file for one file holding q and k)",
                          .unset = "none", .readers = kEveryView}),
    };
    appendNested(t, "mrope", &S::mrope, mropeParamTable());
    // The sections are each configuration's (methodParamTable()).
    std::erase_if(t, [](const Param<SceneParams>& p) {
        return p.group == "mrope" && (p.info.name == "mrope_section" || p.info.name == "mrope_layout");
    });
    // The token layout and its sections: every token rotated by its own (t, h, w) in the heatmap
    // and the decay, and each frequency's axis in the frequency view.
    for (auto& p : t)
        if (p.group == "mrope") p.info.readers = kHeatmap | kDecay | kFrequencies;
    // The vision encoder of the 2-D decay: the entries the map reads, and the chosen patch. No
    // scheduled view reads them (the vision decay is drawn on the GUI thread, as the positions).
    {
        ParamTable<SceneParams> vision;
        appendNested(vision, "vision", &S::vision, visionRopeParamTable());
        for (auto& p : vision)
            if (p.info.name == "vision" || p.info.name == "grid" || p.info.name == "head_dim" || p.info.name == "base") {
                p.info.readers = 0;
                p.info.flags &= ~kParamShared;
                t.push_back(std::move(p));
            }
        auto patch = field<&S::visionPatch>({.name = "patch", .kind = K::IntList, .lo = 0, .hi = static_cast<double>(kMaxLayoutTokens),
                                             .label = "Chosen patch",
                                             .help = "the patch the 2-D decay is measured from: row,column (click the map); empty = the centre",
                                             .unset = "the centre", .maxEntries = 2});
        patch.group = "vision";
        t.push_back(std::move(patch));
    }
    return t;
    }();
    return t;
}
bool sameViewInputs(ViewKind view, const SceneParams& a, const SceneParams& b) {
    if (a.methods.size() != b.methods.size() || a.qk != b.qk) return false;
    const unsigned bit = viewBit(view);
    for (std::size_t k = 0; k < a.methods.size(); ++k) {
        const MethodConfig &x = a.methods[k], &y = b.methods[k];
        if (x.label != y.label || x.params != y.params) return false;
        for (const auto& p : methodParamTable())
            if ((p.info.readers & bit) && p.get(x) != p.get(y)) return false;
    }
    for (const auto& p : sceneParamTable())
        if ((p.info.readers & bit) && p.get(a) != p.get(b)) return false;
    for (const auto& p : viewParamTable())
        if ((p.info.readers & bit) && p.get(a.view) != p.get(b.view)) return false;
    return true;
}

namespace {

// A window whose ends are both set must not be empty: from < to.
std::optional<QString> windowProblem(const ViewOptions& v) {
    const auto check = [](const std::optional<std::int64_t>& from, const std::optional<std::int64_t>& to,
                          const char* fromName, const char* toName) -> std::optional<QString> {
        if (from && to && *from >= *to)
            return QStringLiteral("%1: less than %2 (%3), got %4").arg(QLatin1String(fromName), QLatin1String(toName)).arg(*to).arg(*from);
        return std::nullopt;
    };
    if (auto e = check(v.heatmapQueryFrom, v.heatmapQueryTo, "heatmap_query_from", "heatmap_query_to")) return e;
    if (auto e = check(v.heatmapKeyFrom, v.heatmapKeyTo, "heatmap_key_from", "heatmap_key_to")) return e;
    return check(v.decayFrom, v.decayTo, "decay_from", "decay_to");
}

std::optional<std::int64_t> unlessEqual(std::int64_t v, std::int64_t whole) {
    if (v == whole) return std::nullopt;
    return v;
}

}  // namespace

ViewWindow clipWindow(std::optional<std::int64_t> from, std::optional<std::int64_t> to, std::int64_t lo, std::int64_t hi) {
    const ViewWindow whole{lo, std::max(hi, lo + 1)};
    const std::int64_t a = std::max(from.value_or(whole.from), whole.from);
    const std::int64_t b = std::min(to.value_or(whole.to), whole.to);
    if (a >= b) return whole;
    return {a, b};
}

ViewWindow heatmapRange(const SceneParams& scene) { return {0, std::max<std::int64_t>(1, scene.length)}; }

ViewWindow decayRange(const SceneParams& scene) {
    const std::int64_t d = std::max<std::int64_t>(1, scene.view.decayMaxDistance);
    return {scene.view.decayLogX ? 1 : 0, d + 1};
}

ViewWindow heatmapQueryWindow(const SceneParams& scene) {
    const ViewWindow r = heatmapRange(scene);
    return clipWindow(scene.view.heatmapQueryFrom, scene.view.heatmapQueryTo, r.from, r.to);
}

ViewWindow heatmapKeyWindow(const SceneParams& scene) {
    const ViewWindow r = heatmapRange(scene);
    return clipWindow(scene.view.heatmapKeyFrom, scene.view.heatmapKeyTo, r.from, r.to);
}

ViewWindow decayWindow(const SceneParams& scene) {
    const ViewWindow r = decayRange(scene);
    return clipWindow(scene.view.decayFrom, scene.view.decayTo, r.from, r.to);
}

void setHeatmapWindow(SceneParams& scene, const ViewWindow& queries, const ViewWindow& keys) {
    const ViewWindow r = heatmapRange(scene);
    auto& v = scene.view;
    v.heatmapQueryFrom = unlessEqual(queries.from, r.from);
    v.heatmapQueryTo = unlessEqual(queries.to, r.to);
    v.heatmapKeyFrom = unlessEqual(keys.from, r.from);
    v.heatmapKeyTo = unlessEqual(keys.to, r.to);
}

void setDecayWindow(SceneParams& scene, const ViewWindow& distances) {
    const ViewWindow r = decayRange(scene);
    // On a log axis the range starts at 1; a window from 0 or 1 is the whole range's start.
    scene.view.decayFrom = distances.from <= r.from ? std::nullopt : std::optional<std::int64_t>(distances.from);
    scene.view.decayTo = unlessEqual(distances.to, r.to);
}

ScoreParams effectiveParams(const SceneParams& scene, int config) {
    ScoreParams p = scene.methods.at(static_cast<std::size_t>(config)).params;
    p.head = std::clamp(scene.head, 0, std::max(1, headCount(p)) - 1);
    p.causal = scene.view.causal;
    p.softmax = scene.view.softmax;
    if (!scene.qFile.isEmpty() && scene.qk && scene.qk->content) p.source = scene.qk->content;
    return p;
}

std::vector<std::int64_t> defaultMropeSection(MropeModel model, int half) {
    const std::int64_t n = std::max(0, half);
    if (model == MropeModel::Qwen3VL) {
        const std::int64_t hw = n * 5 / 16;
        return {n - 2 * hw, hw, hw};
    }
    const std::int64_t t = n / 4, h = (n - t) / 2;
    return {t, h, n - t - h};
}

std::vector<std::int64_t> mropeSectionFor(const SceneParams& scene, int config, int half) {
    const auto& c = scene.methods.at(static_cast<std::size_t>(config));
    return c.mropeSection.empty() ? defaultMropeSection(scene.mrope.model, half) : c.mropeSection;
}

Result<std::vector<int>> mropeAxesFor(const SceneParams& scene, int config, int half) {
    return mropeAxes(half, mropeSectionFor(scene, config, half), scene.methods.at(static_cast<std::size_t>(config)).mropeLayout);
}

const ParamTable<MethodConfig>& methodParamTable() {
    static const ParamTable<MethodConfig> t = [] {
        ParamTable<MethodConfig> t;
        const auto info = [](std::string_view name) {
            ParamInfo i = findParam(mropeParamTable(), name)->info;
            i.readers = viewreads::kHeatmap | viewreads::kDecay | viewreads::kFrequencies;
            return i;
        };
        auto section = field<&MethodConfig::mropeSection>(info("mrope_section"));
        auto layout = field<&MethodConfig::mropeLayout>(info("mrope_layout"));
        section.group = layout.group = "mrope";
        t.push_back(std::move(section));
        t.push_back(std::move(layout));
        return t;
    }();
    return t;
}

std::optional<MropePositions> scenePositions(const SceneParams& scene) {
    if (scene.mrope.tokens.empty() || scene.mrope.validate()) return std::nullopt;
    auto r = mropePositions(scene.mrope);
    if (!r) return std::nullopt;
    return std::move(r.value());
}

std::array<std::int64_t, 2> visionPatchOf(const SceneParams& scene) {
    if (scene.visionPatch.size() == 2) return {scene.visionPatch[0], scene.visionPatch[1]};
    const auto g = parseVisionGrid(scene.vision.grid);
    if (!g) return {0, 0};
    return {g.value().h / 2, g.value().w / 2};
}

bool usesTokenLayout(const SceneParams& scene, int config) {
    if (scene.mrope.tokens.empty()) return false;
    const ScoreParams& p = scene.methods.at(static_cast<std::size_t>(config)).params;
    return p.method == Method::Rope && !p.attention.nope;
}

ScoreParams scoringParams(const SceneParams& scene, int config) {
    ScoreParams p = effectiveParams(scene, config);
    if (!usesTokenLayout(scene, config) || p.ropeParams().validate()) return p;
    const auto positions = scenePositions(scene);
    if (!positions || positions->ids.cols() != scene.length) return p;
    const int half = p.ropeParams().rotaryDim() / 2;
    auto axes = mropeAxesFor(scene, config, half);
    if (!axes) return p;
    p.source = mropeContentSource(p, p.ropeParams(), positions->ids, axes.value());
    p.method = Method::NoPE;
    return p;
}

QString methodDisplayName(Method m) {
    switch (m) {
    case Method::NoPE: return QStringLiteral("NoPE");
    case Method::Sinusoidal: return QStringLiteral("Sinusoidal");
    case Method::Learned: return QStringLiteral("Learned");
    case Method::Shaw: return QStringLiteral("Shaw");
    case Method::T5: return QStringLiteral("T5");
    case Method::TransformerXL: return QStringLiteral("Transformer-XL");
    case Method::Alibi: return QStringLiteral("ALiBi");
    case Method::Rope: return QStringLiteral("RoPE");
    case Method::Xpos: return QStringLiteral("xPos");
    }
    return {};
}

QString methodTitleText(Method m) {
    // The core's table holds string literals: data() is NUL-terminated, as translate() needs.
    return QCoreApplication::translate("Method", methodTitle(m).data());
}

QString methodSummaryText(Method m) { return QCoreApplication::translate("Method", methodSummary(m).data()); }

QString configTitle(const SceneParams& scene, int config) {
    const auto& c = scene.methods.at(static_cast<std::size_t>(config));
    QString title = c.label;
    if (title.isEmpty()) {
        const auto& p = c.params;
        title = methodDisplayName(p.method);
        if (p.method == Method::Rope && p.rope.scaling != RopeScaling::None) title += QStringLiteral(" + ") + scalingTitle(p.rope.scaling);
    }
    if (scene.methods.size() > 1) title = QString(QChar('A' + config)) + QStringLiteral(": ") + title;
    return title;
}

int pairCount(const ScoreParams& p) {
    switch (p.method) {
    case Method::Rope: {
        if (p.ropeParams().validate()) return 0;
        return p.ropeParams().rotaryDim() / 2;
    }
    case Method::Xpos: return p.dim / 2;
    case Method::Sinusoidal: return p.dim / 2;
    default: return 0;
    }
}

std::vector<int> defaultPairs(int count, int shown) {
    std::vector<int> out;
    if (count <= 0) return out;
    const int n = std::min(count, std::max(1, shown));
    for (int k = 0; k < n; ++k) {
        const int i = n == 1 ? 0 : static_cast<int>(std::lround(double(k) * (count - 1) / (n - 1)));
        if (out.empty() || out.back() != i) out.push_back(i);
    }
    return out;
}

std::vector<int> effectivePairs(const SceneParams& scene, int config, int automatic) {
    const int count = pairCount(scene.methods.at(static_cast<std::size_t>(config)).params);
    std::vector<int> out;
    for (int i : scene.pairs)
        if (i >= 0 && i < count && std::find(out.begin(), out.end(), i) == out.end()) out.push_back(i);
    if (out.empty()) return defaultPairs(count, automatic);
    return out;
}

std::optional<QString> qkProblem(const SceneParams& scene) {
    if (scene.qFile.isEmpty()) return std::nullopt;
    if (!scene.qk || scene.qk->qFile != scene.qFile || scene.qk->kFile != scene.kFile)
        return QStringLiteral("the query/key files %1 are not loaded").arg(scene.qFile);
    if (!scene.qk->content) return scene.qk->error;
    if (scene.length > scene.qk->content->length())
        return QStringLiteral("length: at most the N of the query/key file (%1) = %2, got %3")
            .arg(QString::fromStdString(scene.qk->content->name()))
            .arg(scene.qk->content->length())
            .arg(scene.length);
    return std::nullopt;
}

std::optional<QString> configProblem(const SceneParams& scene, int config) {
    if (auto e = qkProblem(scene)) return e;
    const auto p = effectiveParams(scene, config);
    if (auto e = p.validate()) return QString::fromStdString(e->message());
    return std::nullopt;
}

std::optional<QString> sceneProblem(const SceneParams& scene) {
    if (scene.methods.empty() || scene.methods.size() > std::size_t(kMaxConfigs))
        return QStringLiteral("methods: 1 to %1 configurations, got %2").arg(kMaxConfigs).arg(scene.methods.size());
    // Positions of interest at or past N are not an error: the pair view leaves them out.
    if (auto e = checkParams(sceneParamTable(), scene)) return QString::fromStdString(e->message());
    if (auto e = checkParams(viewParamTable(), scene.view)) return QString::fromStdString(e->message());
    if (auto e = windowProblem(scene.view)) return *e;
    for (int i = 0; i < static_cast<int>(scene.methods.size()); ++i) {
        const auto& c = scene.methods[static_cast<std::size_t>(i)];
        const QString who = scene.methods.size() > 1 ? QString(QChar('A' + i)) + QStringLiteral(": ") : QString();
        if (c.label.size() > kMaxLabelLength)
            return who + QStringLiteral("label: at most %1 characters, got %2").arg(kMaxLabelLength).arg(c.label.size());
        for (const auto& p : scoreParamTable())
            if (p.group.empty())
                if (auto e = p.info.check(p.get(c.params))) return who + QString::fromStdString(e->message());
        if (auto e = checkParams(methodParamTable(), c)) return who + QString::fromStdString(e->message());
    }
    if (scene.visionPatch.size() == 1)
        return QStringLiteral("patch: row,column (two numbers) or empty for the centre, got %1").arg(scene.visionPatch[0]);
    if (!scene.mrope.tokens.empty()) {
        if (auto e = scene.mrope.validate()) return QString::fromStdString(e->message());
        auto r = mropePositions(scene.mrope);
        if (!r) return QString::fromStdString(r.error().message());
        const std::int64_t n = r.value().ids.cols();
        if (n != scene.length)
            return QStringLiteral("length: the token layout's %1 tokens, got %2").arg(n).arg(scene.length);
        for (int i = 0; i < static_cast<int>(scene.methods.size()); ++i) {
            if (!usesTokenLayout(scene, i)) continue;
            const ScoreParams p = effectiveParams(scene, i);
            if (p.ropeParams().validate()) continue;   // configProblem names it
            const int half = p.ropeParams().rotaryDim() / 2;
            if (auto a = mropeAxesFor(scene, i, half); !a) {
                const QString who = scene.methods.size() > 1 ? QString(QChar('A' + i)) + QStringLiteral(": ") : QString();
                return who + QString::fromStdString(a.error().message());
            }
        }
    }
    for (int i = 0; i < static_cast<int>(scene.methods.size()); ++i) {
        if (auto e = configProblem(scene, i)) {
            if (scene.methods.size() > 1) return QString(QChar('A' + i)) + QStringLiteral(": ") + *e;
            return e;
        }
    }
    return std::nullopt;
}

std::optional<QString> sceneProblemApartFromFiles(const SceneParams& scene) {
    SceneParams s = scene;
    s.qFile.clear();
    s.kFile.clear();
    s.qk.reset();
    return sceneProblem(s);
}

QString formatValue(double v) { return QString::fromStdString(formatReadable(v)); }
QString displayValue(double v) { return QString::fromStdString(formatReadable(v, 4)); }

QString positionsText(const Positions& p) {
    QStringList parts;
    for (auto x : p) parts << QString::number(x);
    return parts.join(QLatin1Char(','));
}

std::optional<Positions> parsePositions(const QString& text, std::size_t maxCount) {
    Positions out;
    const auto parts = text.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (QString part : parts) {
        part = part.trimmed();
        if (part.isEmpty()) continue;
        bool ok = false;
        if (part.contains(QLatin1Char(':'))) {
            const auto ab = part.split(QLatin1Char(':'));
            if (ab.size() != 2) return std::nullopt;
            bool okA = false, okB = false;
            const qint64 a = ab[0].trimmed().toLongLong(&okA);
            const qint64 b = ab[1].trimmed().toLongLong(&okB);
            if (!okA || !okB || a < 0 || b < a) return std::nullopt;
            if (static_cast<std::size_t>(b - a) + out.size() > maxCount) return std::nullopt;
            for (qint64 x = a; x < b; ++x) out.push_back(x);
        } else {
            const qint64 x = part.toLongLong(&ok);
            if (!ok || x < 0) return std::nullopt;
            out.push_back(x);
        }
        if (out.size() > maxCount) return std::nullopt;
    }
    if (out.empty()) return std::nullopt;
    return out;
}

}  // namespace poslab::ui
