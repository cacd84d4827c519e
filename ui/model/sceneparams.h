#pragma once
// SceneParams: everything the window shows, as one plain value. The Scene (scene.h) holds one;
// sessions serialise it; export renders from it. Copyable, comparable, with defaults that are
// the default scene (RoPE, head_dim 64, base 10000, N = 64, ones content).
//
// Per-method numbers live in each configuration's core ScoreParams. Scene-wide choices
// (sequence length, positions of interest, pairs, head, heatmap softmax/causal) live here and are
// applied to every configuration by effectiveParams(): ScoreParams::head/causal/softmax of a
// stored configuration are ignored.
#include "core/aggregate.h"
#include "core/mrope.h"
#include "core/visionrope.h"
#include "core/scores.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

// QString fields (theme, preset key) in the parameter table: UTF-8 text.
template <>
struct poslab::ParamCodec<QString> {
    static ParamValue to(const QString& v) { return v.toStdString(); }
    static void from(const ParamValue& v, QString& out) {
        if (auto* x = std::get_if<std::string>(&v)) out = QString::fromStdString(*x);
    }
};

namespace poslab::ui {

// Loaded real queries and keys: what (qFile, kFile, head) gave, or why they could not be read.
struct QkState {
    QString qFile, kFile;
    int head = 0;
    std::shared_ptr<const ContentSource> content;   // null on error
    QString error;                                  // one line naming the file
};

// One method with its parameters, as one column of a comparison.
struct MethodConfig {
    QString label;              // legend / panel title; empty = derived (configTitle())
    ScoreParams params;         // method, dim, content, seed, precision and per-method structs
    // M-RoPE of this configuration (issue 30), read when the scene has a token layout: which
    // frequencies follow t, h and w (empty = the scene's model's split scaled to rotary_dim/2,
    // mropeSectionFor), sectioned (Qwen2/2.5-VL) or interleaved (Qwen3-VL). Per configuration,
    // so compare mode shows Qwen2-VL's sections beside Qwen3-VL's interleaving over one layout.
    // Session object "mrope" of the method; methodParamTable().
    std::vector<std::int64_t> mropeSection;
    MropeLayout mropeLayout = MropeLayout::Sectioned;
    bool operator==(const MethodConfig&) const = default;
};
// The parameters a configuration holds beside its ScoreParams (group "mrope": mrope_section,
// mrope_layout, declared once in core/mrope.h's table).
const ParamTable<MethodConfig>& methodParamTable();

// Heatmap colour map: auto = diverging for signed scores, viridis for softmax weights.
enum class HeatmapColormap { Auto, Viridis, Diverging };

// Compare mode's colour ranges: auto = each panel its own when the panels' ranges differ by more
// than 10× (heatmapOwnRanges), else one linked range; linked; own.
enum class ColorRangeLink { Auto, Linked, Own };
}  // namespace poslab::ui

template <>
struct poslab::EnumKeys<poslab::ui::HeatmapColormap> {
    static constexpr std::array<EnumKey<ui::HeatmapColormap>, 3> keys{{{ui::HeatmapColormap::Auto, "auto"},
                                                                     {ui::HeatmapColormap::Viridis, "viridis"},
                                                                     {ui::HeatmapColormap::Diverging, "diverging"}}};
};
template <>
struct poslab::EnumKeys<poslab::ui::ColorRangeLink> {
    static constexpr std::array<EnumKey<ui::ColorRangeLink>, 3> keys{{{ui::ColorRangeLink::Auto, "auto"},
                                                                    {ui::ColorRangeLink::Linked, "linked"},
                                                                    {ui::ColorRangeLink::Own, "own"}}};
};

namespace poslab::ui {

// Which views are visible (also the order they are laid out in).
enum class ViewKind { Pairs, Heatmap, Decay, Frequencies, Contributions, Precision };

// The views as the readers of a scene or view parameter (ParamInfo::readers of sceneParamTable()
// and viewParamTable()): each declaration says which views read it, and the scheduler recomputes
// a view when, and only when, one of those changes (sameViewInputs).
constexpr unsigned viewBit(ViewKind k) { return 1u << static_cast<unsigned>(k); }
namespace viewreads {
inline constexpr unsigned kPairs = viewBit(ViewKind::Pairs), kHeatmap = viewBit(ViewKind::Heatmap),
                          kDecay = viewBit(ViewKind::Decay), kFrequencies = viewBit(ViewKind::Frequencies),
                          kContributions = viewBit(ViewKind::Contributions), kPrecision = viewBit(ViewKind::Precision);
inline constexpr unsigned kEveryView = kPairs | kHeatmap | kDecay | kFrequencies | kContributions | kPrecision;
}  // namespace viewreads

struct ViewOptions {
    // Heatmap
    bool softmax = false;               // row-wise softmax weights instead of raw scores
    bool causal = false;                // mask keys after the query (j > i)
    HeatmapColormap colormap = HeatmapColormap::Auto;
    bool showDifference = true;         // compare mode: add a "B − A" panel (each config of A's kind − the first)
    ColorRangeLink colorLink = ColorRangeLink::Auto;   // compare mode: one colour range or each panel its own
    Aggregate aggregate = Aggregate::Mean;   // a pixel covering many cells: their mean, max or min
    bool heatmapSquareCells = false;    // keep heatmap cells square (else they fill the panel)
    // Decay
    std::int64_t decayMaxDistance = 256;  // largest relative distance plotted, 1 .. 1'048'576
    bool decayLogX = false;             // log distance axis (starts at distance 1)
    bool decayLogY = false;             // log value axis (plots |value|)
    bool decayShowBound = true;         // RoPE's long-term decay upper bound
    // View window (zoom and pan): half-open ranges [from, to) of positions (heatmap: queries i,
    // keys j) and of distances (decay), like `--range A:B`. Unset = the whole range (from 0,
    // to N or decayMaxDistance + 1); the views clip the window to the range (window() below).
    std::optional<std::int64_t> heatmapQueryFrom, heatmapQueryTo, heatmapKeyFrom, heatmapKeyTo;
    std::optional<std::int64_t> decayFrom, decayTo;
    // Visibility
    bool showPairs = true, showHeatmap = true, showDecay = true, showFrequencies = true;
    bool showContributions = false;     // RoPE's per-pair contributions (off by default)
    bool showPrecision = false;         // RoPE's precision errors and collisions (off by default)
    bool showLayers = true;             // the layer overview, when the edited configuration has a layer pattern
    // Look
    QString theme = QStringLiteral("light");  // "light", "dark", "projector" (render/theme.h)
    double fontScale = 1.0;             // 0.5 .. 3

    bool operator==(const ViewOptions&) const = default;
};

struct SceneParams {
    // 1 configuration = single mode; >= 2 = compare mode (side by side, linked axes).
    std::vector<MethodConfig> methods{MethodConfig{}};
    // Sequence length N: the sequence is positions 0 .. N−1 (heatmap axes, softmax normaliser,
    // xPos centring, dynamic/longrope runtime length). 1 .. kMaxLength.
    std::int64_t length = 64;
    // Positions of interest (pair-vector arrows); those >= N are left out of the views.
    Positions positions = {0, 1, 2, 4, 8, 16, 32};
    // Chosen pair indices for the pair-vector view; empty = automatic (defaultPairs()).
    std::vector<int> pairs;
    // ALiBi / T5 head shown (clamped to each configuration's head count).
    int head = 0;
    ViewOptions view;
    // Model preset the scene was last set from (ui/io/presets.h key); empty = none/custom.
    QString presetKey;
    // Real queries and keys (File → Open queries and keys…, figure --q/--k/--qk): the file of the
    // q tensor and of the k tensor (the same file for --qk); empty = the configurations' own
    // content. Head `head` of [H, N, d] tensors. Every configuration scores these rows.
    QString qFile, kFile;
    // The rows of (qFile, kFile, head), loaded by ui/io/qkfile.h refreshQk() — not declared (a
    // cache of the files), compared by identity.
    std::shared_ptr<const QkState> qk;
    // Multimodal positions (issue 30): a token layout (text, image and video entries) numbered by
    // a Qwen-VL rule, and the M-RoPE sections (session object "mrope", core/mrope.h's table).
    // Empty tokens: positions 0 … N−1. With a layout N is its token count (sceneProblem), the
    // positions view shows its ids, and the heatmap and decay views rotate each token of a RoPE
    // configuration by its own (t, h, w) ids (scoringParams). The sections are each
    // configuration's (MethodConfig::mropeSection, mropeLayout): mrope.mrope_section and
    // mrope.mrope_layout are not read here, nor declared in the scene's table.
    MropeParams mrope;
    // The vision encoder's 2-D decay (issue 30): the score from one chosen patch to every patch of
    // the grid, shown beside the positions view while `vision.grid` is set (session object
    // "vision": vision, grid, head_dim, base, patch). Its merge size and patches per side are not
    // read (the map is over the patches' rows and columns). visionPatch: row, column; empty = the
    // centre patch (H/2, W/2), as `figure vision-decay` without --patch.
    VisionRopeParams vision;
    std::vector<std::int64_t> visionPatch;

    bool operator==(const SceneParams& o) const = default;
};

// Whether what `view` computes from the scene is the same for a and b: the configurations, the
// loaded query/key rows and every parameter of sceneParamTable() and viewParamTable() that
// declares the view among its readers. (Its size, resolution and theme are the scheduler's.)
bool sameViewInputs(ViewKind view, const SceneParams& a, const SceneParams& b);

// The parameter tables of the scene-wide choices (core/param.h): view options (session object
// "view") and the scene's own fields (length, positions, pairs, head, preset). Sessions and the
// panel are generated from them as from scoreParamTable().
const ParamTable<ViewOptions>& viewParamTable();
const ParamTable<SceneParams>& sceneParamTable();

inline constexpr std::int64_t kMaxLength = 1048576;     // limit on N (2^20): every view draws it exactly or says what it samples
inline constexpr std::int64_t kMaxDecayDistance = 1048576;   // largest decay distance

// A half-open window [from, to) of positions or distances: what a zoomed view shows (the same
// half-open range as the aggregation's blocks, core/aggregate.h).
using ViewWindow = PositionRange;
// The window a view shows of the whole range [lo, hi) (lo < hi): the scene's [from, to) (an
// unset end = that end of the range) clipped to the range; the whole range when nothing of the
// window lies in it (a window kept from a longer sequence) or from >= to.
ViewWindow clipWindow(std::optional<std::int64_t> from, std::optional<std::int64_t> to, std::int64_t lo, std::int64_t hi);
// The whole ranges: heatmap positions [0, N); decay distances [0, D + 1) ([1, D + 1) on a log
// distance axis), D = view.decayMaxDistance.
ViewWindow heatmapRange(const SceneParams& scene);
ViewWindow decayRange(const SceneParams& scene);
// The windows the views show (clipWindow of the scene's view window and the whole range).
ViewWindow heatmapQueryWindow(const SceneParams& scene);
ViewWindow heatmapKeyWindow(const SceneParams& scene);
ViewWindow decayWindow(const SceneParams& scene);
// Sets the scene's view window; a window equal to the whole range is stored as unset, so that
// zooming back out gives the scene it started from.
void setHeatmapWindow(SceneParams& scene, const ViewWindow& queries, const ViewWindow& keys);
void setDecayWindow(SceneParams& scene, const ViewWindow& distances);
inline constexpr int kMaxConfigs = 4;                   // compare mode: at most four columns
inline constexpr int kMaxLabelLength = 200;             // a configuration's label, in characters


// The configuration's core parameters with the scene-wide head / causal / softmax applied
// (head clamped to the method's head count) and per-method dims synchronised.
ScoreParams effectiveParams(const SceneParams& scene, int config);

// effectiveParams with the scene's token layout applied to a RoPE configuration (not a NoPE
// layer): its rows rotated by each token's (t, h, w) ids through the sections
// (core/mrope.h mropeContentSource), scored as NoPE. What the heatmap and decay views compute.
// effectiveParams unchanged without a layout or when the layout does not number (sceneProblem).
ScoreParams scoringParams(const SceneParams& scene, int config);
// Whether configuration `config` is scored through the scene's M-RoPE ids.
bool usesTokenLayout(const SceneParams& scene, int config);
// The scene's layout numbered by its rule; nullopt without a layout or when the rule refuses it.
std::optional<MropePositions> scenePositions(const SceneParams& scene);
// The chosen patch of the vision decay: the scene's (row, column), else the grid's centre; (0, 0)
// without a grid that parses.
std::array<std::int64_t, 2> visionPatchOf(const SceneParams& scene);
// The sections configuration `config` uses for `half` = rotary_dim/2 frequencies: its own, else
// the scene model's split scaled to `half` (Qwen2-VL and Qwen2.5-VL 16,24,24 of 64: ¼ t, ⅜ h,
// ⅜ w; Qwen3-VL 24,20,20 of 64: 5⁄16 each to h and w, the rest t).
std::vector<std::int64_t> mropeSectionFor(const SceneParams& scene, int config, int half);
// The axis (0 t, 1 h, 2 w) of each of configuration `config`'s `half` frequencies.
Result<std::vector<int>> mropeAxesFor(const SceneParams& scene, int config, int half);
// The model's own split of `half` frequencies (as mropeSectionFor without the scene's).
std::vector<std::int64_t> defaultMropeSection(MropeModel model, int half);

// The method's name for people, short ("RoPE", "Transformer-XL"): never its key ("transformer-xl").
QString methodDisplayName(Method m);
// The method's title ("RoPE (rotary)") and one-sentence summary (core/method.h) translated: the
// core marks them POSLAB_TR_NOOP("Method", …), so they are shown through the context "Method".
QString methodTitleText(Method m);
QString methodSummaryText(Method m);
// A RoPE scaling's name for people ("linear", "dynamic NTK", "YaRN"); "" for none.
QString scalingTitle(RopeScaling s);
// "A: RoPE" style title: the label if set, else a description (method, scaling).
QString configTitle(const SceneParams& scene, int config);

// Number of 2-D pairs the pair view can show for a configuration (rope: rotary_dim/2,
// xpos: head_dim/2, sinusoidal: floor(dim/2); 0 for methods that do not rotate).
int pairCount(const ScoreParams& p);
// Automatic pairs: `shown` (four unless the view has room for more) indices spanning high (0)
// to low (count−1) frequency.
std::vector<int> defaultPairs(int count, int shown = 4);
// The pairs the view shows: the scene's choice filtered to [0, count), else defaultPairs(count,
// automatic).
std::vector<int> effectivePairs(const SceneParams& scene, int config, int automatic = 4);

// Checks the whole scene as a session can hold it: every declared parameter of the scene, its
// view options and each configuration in range (the tables), 1 .. kMaxConfigs configurations,
// labels of at most kMaxLabelLength characters, then every configuration's validate(). Returns
// the first problem in the core's wording, with "A: " naming the configuration in compare mode.
std::optional<QString> sceneProblem(const SceneParams& scene);
// Problem of one configuration only (nullopt = it validates), including the query/key files'.
std::optional<QString> configProblem(const SceneParams& scene, int config);
// sceneProblem() apart from the query/key files (what a session must satisfy: the files it names
// are loaded, and checked, when the scene is shown; a missing one never makes a session unreadable).
std::optional<QString> sceneProblemApartFromFiles(const SceneParams& scene);
// The query/key files named by the scene: not loaded, unreadable, or shorter than N.
std::optional<QString> qkProblem(const SceneParams& scene);

// Human forms used by panel, tooltips and legends.
// Numbers for people, both through formatReadable (core/format.h): shortest form of the value at
// 6 significant digits (hover text, tooltips, messages) or at 4 (legends, captions), both plain
// ("2.41e7": a legend's labels keep the widths their layout measured).
// Files and the clipboard keep the full value (formatNumber).
QString formatValue(double v);
QString displayValue(double v);
QString positionsText(const Positions& p);    // "0,1,2,8"
// Parses "0,1,2,9", "0:8" (half-open range) or a mix "0:4,10,20"; nullopt on bad syntax.
// At most `maxCount` entries.
std::optional<Positions> parsePositions(const QString& text, std::size_t maxCount = 64);

}  // namespace poslab::ui
