// Multimodal positions on the command line: parse, validate through the core, print. No maths here.
#include "app/cli_positions.h"

#include "app/cli_method.h"

#include <algorithm>
#include <cstdio>

namespace poslab::cli {

namespace {

// Option selections of the M-RoPE table.
const TableSelection kLayoutOptions{.only = {"tokens", "model", "merge", "tokens_per_second", "second_per_grid"}};
const TableSelection kSectionOptions{.only = {"mrope_section", "mrope_layout"}};
const TableSelection kTokenOptions{
    .only = {"tokens", "model", "merge", "tokens_per_second", "second_per_grid", "mrope_section", "mrope_layout"}};
// The vision table in `positions` (--merge comes from the layout table: one option).
const TableSelection kVisionOptions{.only = {"vision", "grid", "patches_per_side"}};
const TableSelection kVisionRead{.only = {"vision", "grid", "patches_per_side", "merge"}};

void writeIds(JsonWriter& j, const IntMatrix& ids) {
    j.beginArray();
    for (Eigen::Index a = 0; a < ids.rows(); ++a) {
        j.beginArray();
        for (Eigen::Index k = 0; k < ids.cols(); ++k) j.integer(ids(a, k));
        j.endArray();
    }
    j.endArray();
}

// Options given that the command does not read in this mode: exit 2 naming the first.
void refuseGiven(const Options& o, const std::vector<std::string>& names, const std::string& why) {
    for (const auto& n : names)
        if (o.has(n)) fail("--" + n + " cannot change the output", why, "--" + n + (o.raw(n).empty() ? "" : " " + o.raw(n)));
}

// Options that cannot change the ids of this layout: every rule numbers text 0…N−1, and only
// videos read the temporal spacing.
void refuseUnread(const Options& o, const MropePositions& m) {
    const bool vision = std::any_of(m.kinds.begin(), m.kinds.end(), [](TokenKind k) { return k != TokenKind::Text; });
    const bool video = std::any_of(m.kinds.begin(), m.kinds.end(), [](TokenKind k) { return k == TokenKind::Video; });
    if (!vision)
        refuseGiven(o, {"merge", "tokens-per-second", "second-per-grid"},
                    "it is read only for a layout with an image or a video (text is numbered 0…N−1 under every rule)");
    if (!video)
        refuseGiven(o, {"tokens-per-second", "second-per-grid"}, "it is read only for a layout with a video (it spaces video frames)");
}

// The model's own layout when --mrope-layout is not given: Qwen3-VL always interleaves.
void modelLayout(const Options& o, MropeParams& p, bool fromConfig) {
    if (!o.has("mrope-layout") && !fromConfig)
        p.mrope_layout = p.model == MropeModel::Qwen3VL ? MropeLayout::Interleaved : MropeLayout::Sectioned;
}

}  // namespace

std::vector<OptionSpec> mropeFrequencySpecs() {
    auto s = tableSpecs(mropeParamTable(), kSectionOptions);
    s.push_back(tableSpecs(visionRopeParamTable(), TableSelection{.only = {"vision"}}).front());
    s.back().def = "none";
    s.back().help = "the vision encoder's 2-D RoPE frequencies (with --head-dim, --base) instead of the text model's";
    return s;
}

std::vector<OptionSpec> mropeLayoutSpecs() { return tableSpecs(mropeParamTable(), kLayoutOptions); }

MropeParams readMropeLayout(const Options& o, const MropeParams& start, const std::string& command) {
    MropeParams p = start;
    std::map<std::string, std::string> rename;
    readTable(o, mropeParamTable(), kLayoutOptions, p, rename);
    if (p.tokens.empty())
        fail("missing --tokens for " + command,
             command == "compute positions" ? "a token layout such as text:3,image:1x4x6,text:2, or --vision"
                                            : "a token layout such as text:3,image:1x4x6,text:2",
             "none");
    check(p.validate(), rename);
    auto r = mropePositions(p);
    if (!r) failParam(r.error(), rename);
    refuseUnread(o, r.value());
    return p;
}

std::vector<OptionSpec> mropeTokenSpecs() { return tableSpecs(mropeParamTable(), kTokenOptions); }

MropeParams mropeOfConfig(const std::optional<ui::ModelFileConfig>& config) {
    return config && config->mrope ? *config->mrope : MropeParams{};
}

std::optional<std::vector<int>> frequencyAxes(const Options& o, const MropeParams& start, int half) {
    MropeParams p = start;
    std::map<std::string, std::string> rename;
    readTable(o, mropeParamTable(), kSectionOptions, p, rename);
    check(p.validate(), rename);
    if (p.mrope_section.empty()) return std::nullopt;
    auto axes = mropeAxes(half, p.mrope_section, p.mrope_layout);
    if (!axes) failParam(axes.error());
    return axes.value();
}

std::optional<MropeTokens> readMropeTokens(const Options& o, const MropeParams& start, int half) {
    MropeParams p = start;
    const bool configSections = !start.mrope_section.empty();
    std::map<std::string, std::string> rename;
    readTable(o, mropeParamTable(), kTokenOptions, p, rename);
    if (p.tokens.empty()) {
        refuseGiven(o, {"mrope-section", "mrope-layout"},
                    "it is read only with --tokens (without a layout every token's t, h and w are equal: plain RoPE)");
        return std::nullopt;
    }
    modelLayout(o, p, configSections && !o.has("model"));
    check(p.validate(), rename);
    if (p.mrope_section.empty())
        fail("missing --mrope-section for --tokens",
             "three integers A,B,C with A+B+C = rotary_dim/2 = " + std::to_string(half) +
                 " (Qwen2-VL's 16,24,24 and Qwen3-VL's 24,20,20 for head_dim 128), or a Qwen-VL --config",
             "none");
    MropeTokens t;
    auto pos = mropePositions(p);
    if (!pos) failParam(pos.error(), rename);
    t.positions = std::move(pos.value());
    refuseUnread(o, t.positions);
    auto axes = mropeAxes(half, p.mrope_section, p.mrope_layout);
    if (!axes) failParam(axes.error());
    t.axes = axes.value();
    return t;
}

std::int64_t readSceneTokens(const Options& o, const MropeParams& start, int half, MropeParams& target) {
    if (!o.has("tokens")) {
        refuseGiven(o, {"model", "merge", "tokens-per-second", "second-per-grid", "mrope-section", "mrope-layout"},
                    "it is read only with --tokens (without a layout every token's t, h and w are equal: plain RoPE)");
        return 0;
    }
    auto t = readMropeTokens(o, start, half);
    MropeParams p = start;
    const bool configSections = !start.mrope_section.empty();
    std::map<std::string, std::string> rename;
    readTable(o, mropeParamTable(), kTokenOptions, p, rename);
    modelLayout(o, p, configSections && !o.has("model"));
    target = p;
    return t->positions.ids.cols();
}

bool visionRequested(const Options& o) { return o.has("vision"); }

void writeVisionFrequencies(const Options& o, JsonWriter& j) {
    VisionRopeParams v;
    std::map<std::string, std::string> rename;
    readTable(o, visionRopeParamTable(), TableSelection{.only = {"vision"}}, v, rename);
    o.require("head-dim");
    v.head_dim = static_cast<int>(o.integer("head-dim", 4, 65536));
    if (o.has("base")) v.theta = o.number("base");
    v.precision = precisionOf(o) == Precision::Double ? Precision::Double : Precision::Float32;
    if (precisionOf(o) != Precision::Double && precisionOf(o) != Precision::Float32)
        fail("invalid --precision with --vision", "float32 or double (the encoders compute their angles in float32)",
             o.raw("precision"));
    check(v.validate());
    const VisionFrequencies f = visionFrequencies(v);
    Vector wl(f.inv_freq.size());
    for (Eigen::Index i = 0; i < wl.size(); ++i) wl[i] = 2 * 3.14159265358979323846 / f.inv_freq[i];
    j.key("rotary_dim").integer(v.head_dim);
    j.key("inv_freq").vector(f.inv_freq);
    j.key("wavelength").vector(wl);
    j.key("attention_factor").number(1.0);
    j.key("axis").beginArray();
    for (int a : f.axis) j.integer(a);
    j.endArray();
}

std::vector<OptionSpec> positionsSpecs() {
    auto specs = tableSpecs(mropeParamTable(), kLayoutOptions);
    for (auto& s : specs)
        if (s.name == "tokens") s.def = "required (or --vision)";
    specs = concat(specs, tableSpecs(visionRopeParamTable(), kVisionOptions));
    for (auto& s : specs)
        if (s.name == "vision") s.def = "none";
    specs.push_back(configSpec());
    return specs;
}

void writePositions(const Options& o, const std::vector<std::string>& args, JsonWriter& j) {
    const auto config = peekConfig(args);
    if (config && !config->mrope)
        fail("--config " + o.raw("config") + " has no multimodal positions",
             "a Qwen2-VL, Qwen2.5-VL or Qwen3-VL config (model_type " + config->modelType.toStdString() + " numbers tokens 0…N−1)",
             o.raw("config"));
    if (o.has("vision")) {
        refuseGiven(o, {"tokens", "model", "tokens-per-second", "second-per-grid"}, "it is read only with --tokens, not with --vision");
        VisionRopeParams v;
        if (config) v.merge = config->mrope->merge;
        std::map<std::string, std::string> rename;
        readTable(o, visionRopeParamTable(), kVisionRead, v, rename);
        o.require("grid");
        check(v.validate(), rename);
        const VisionGrid g = parseVisionGrid(v.grid).value();
        j.key("position_ids").beginArray();
        if (v.encoder == VisionRope::Qwen) {
            for (const auto& rc : qwenVisionPositionIds(g, v.merge)) j.beginArray().integer(rc[0]).integer(rc[1]).endArray();
        } else {
            if (g.t != 1) fail("invalid --grid for --vision pixtral", "1xHxW (Pixtral numbers one image's patches)", v.grid);
            for (auto id : pixtralPositionIds(g, v.patches_per_side)) j.integer(id);
        }
        j.endArray();
    } else {
        refuseGiven(o, {"grid", "patches-per-side"}, "it is read only with --vision");
        const MropeParams p = readMropeLayout(o, mropeOfConfig(config), "compute positions");
        auto r = mropePositions(p);
        const MropePositions& m = r.value();
        guardOutput(4 * m.ids.cols(), "tokens", o.raw("tokens").substr(0, 64));
        j.key("position_ids");
        writeIds(j, m.ids);
        j.key("rope_deltas").integer(m.rope_deltas);
        j.key("kinds").beginArray();
        for (TokenKind k : m.kinds) j.string(tokenKindKey(k));
        j.endArray();
    }
}

}  // namespace poslab::cli
