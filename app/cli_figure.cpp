// `poslab figure VIEW [OPTIONS] -o FILE` and `poslab figure --batch FILE [--force]`: render
// what the window shows, without a window, through ui/io/export.h (the renderers the window uses).
//
// The scene is the default scene, or a session (--session FILE: a .poslab file, or any figure
// PosLab exported, which carries its scene), then a model preset (--preset KEY), then the method
// options of `compute scores/decay` (--method M, --dim d, --content, --seed, --precision and M's
// own options, applied to the first configuration; T5's max distance is --t5-max-distance as in
// `compute decay`), then the scene options below.
// The output format follows the file name: .png .svg .pdf .csv .json. An existing file is
// only replaced with --force. Exit status and error lines as `poslab compute` (cli.md).
//
// Batch file (JSON): {"figures": [{"view": "heatmap", "output": "fig.svg", "session":
// "lecture.poslab", "scene": 0, "width": 1200, "height": 800, "dpi": 96, "theme": "light",
// "font_scale": 1, "args": ["--length", "128"]}, ...]} — each entry is the command line of one
// figure ("args" holds any further options); relative paths are relative to the batch file.
// Every entry is checked before anything is written; then the figures are written in order.
#include "app/cli_figure.h"

#include "app/cli.h"
#include "app/cli_common.h"
#include "app/cli_demo.h"
#include "app/cli_method.h"
#include "ui/io/presets.h"
#include "ui/io/atomicfile.h"
#include "ui/io/export.h"
#include "ui/io/qkfile.h"
#include "app/cli_positions.h"
#include "ui/render/layersrenderer.h"
#include "ui/render/positionsrenderer.h"
#include "ui/render/visiondecayrenderer.h"
#include "ui/render/theme.h"
#include "ui/teaching/deckexport.h"
#include "ui/teaching/demoscenes.h"
#include "ui/teaching/demotext.h"
#include "ui/teaching/presentation.h"
#include "ui/io/session.h"

#include <QApplication>
#include <QPainter>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace poslab::cli {

namespace {

using ui::ExportFormat;
using ui::ExportRequest;
using ui::SceneParams;
using ui::ViewKind;

std::string s(const QString& q) { return q.toStdString(); }
QString q(const std::string& s) { return QString::fromStdString(s); }

std::string viewList() {
    return "one of " + s(ui::viewKeys().join(QStringLiteral(", "))) + ", all, layers (with --config), positions (with --tokens), vision-decay (with --vision), demo KEY, deck";
}

OptionSpec flagSpec(const std::string& name, const std::string& help) { return {name, "", help, "", ""}; }

// The themes --theme accepts: the renderer's (ui/render/theme.h).
std::vector<std::string> themeChoices() {
    std::vector<std::string> out;
    for (const QString& t : ui::themeNames()) out.push_back(s(t));
    return out;
}

// A scene or view option of figure from its parameter's declaration (ui/model/sceneparams.cpp):
// the valid range --help shows and errors name is the table's, as for compute's options.
template <class S>
OptionSpec declaredSpec(const ParamTable<S>& table, std::string_view name, const std::string& option,
                        const std::string& arg, const std::string& help, const std::string& def) {
    return {option, arg, help, def, findParam(table, name)->info.valid()};
}

// Reads such an option with the declaration's parser and range (as the panel and compute read
// theirs: 6.4e1 is 64); anything else is exit 2 "invalid --OPTION, <valid>, got TEXT".
template <class S>
void readDeclared(const Options& o, const std::string& option, const ParamTable<S>& table, std::string_view name,
                  S& target) {
    if (!o.has(option)) return;
    const Param<S>* p = findParam(table, name);
    const auto r = parseParamText(p->info, o.raw(option));
    if (!r) fail("invalid --" + option, p->info.valid(), o.raw(option));
    p->set(target, r.value());
}

// --config FILE, up to kMaxConfigs times: two or more make compare mode (one column each).
OptionSpec compareConfigSpec() {
    OptionSpec c = configSpec();
    c.help += "; given 2 to " + std::to_string(ui::kMaxConfigs) + " times, the models side by side (compare mode)";
    c.repeatable = true;
    return c;
}

// View options generated from the view parameter table (ui/model/sceneparams.cpp).
const TableSelection& viewSelection() {
    static const TableSelection sel{.only = {"aggregate", "link_color_ranges"}};
    return sel;
}

std::vector<OptionSpec> figureSpecs() {
    return concat(std::vector<OptionSpec>{
        {"output", "FILE", "the file to write (-o FILE); its extension chooses the format", "required",
         "a file name ending in .png, .svg, .pdf, .csv or .json"},
        flagSpec("force", "replace FILE if it exists"),
        {"session", "FILE", "start from a saved session (.poslab) or from the scene embedded in a figure PosLab exported",
         "the default scene", "a readable session or exported figure"},
        {"scene", "K", "which scene of a multi-scene session (a deck)", "the session's current scene",
         "an integer from 0 to scenes−1"},
        {"preset", "KEY", "a model preset (`poslab presets` lists them) for the scene's method", "none",
         "a preset key, e.g. llama-3.1-8b"},
        compareConfigSpec(),
        {"width", "W", "width in pixels (PNG); SVG/PDF: width/dpi inches", "1200 (all: 1600)", "an integer from 64 to 16384"},
        {"height", "H", "height in pixels (PNG); SVG/PDF: height/dpi inches", "800 (all: 1000)", "an integer from 64 to 16384"},
        {"dpi", "D", "dots per inch: 96 draws at screen scale, 192 twice as fine, 300 for print", "96",
         "an integer from 24 to 2400"},
        {"theme", "T", "light (paper), dark, or projector (high contrast, large type)", "the scene's (light)",
         "light, dark or projector"},
        {"font-scale", "F", "text size factor", "the scene's (1)", "a number from 0.5 to 3"},
        // Scene options (the panel's scene-wide settings).
        declaredSpec(ui::sceneParamTable(), "length", "length", "N", "sequence length: positions 0 … N−1", "the scene's (64)"),
        {"positions", "LIST", "positions of interest (pair-vector arrows)", "the scene's (0,1,2,4,8,16,32)",
         "a LIST or RANGE of integers >= 0 (those >= N are left out)"},
        {"pairs", "LIST", "pair indices shown by the pair-vector view", "automatic", "a LIST of integers from 0 to 32767"},
        declaredSpec(ui::sceneParamTable(), "head", "head", "h",
                     "ALiBi/T5 head; with --q/--k/--qk also the files' head ([H,N,d] tensors)", "0"),
        flagSpec("softmax", "heatmap: softmax weights instead of scores"),
        flagSpec("causal", "heatmap: mask keys after the query (a decoder's --config is causal without it)"),
        flagSpec("bidirectional", "every key visible both ways: overrides a decoder --config's causal masking"),
        {"colormap", "C", "heatmap colours: auto (diverging for scores, viridis for weights), viridis or diverging",
         "auto", "auto, viridis or diverging"},
        declaredSpec(ui::viewParamTable(), "decay_max_distance", "max-distance", "D", "decay: largest distance plotted",
                     "the scene's (256)"),
        flagSpec("log-x", "decay: logarithmic distance axis"),
        flagSpec("log-y", "decay: logarithmic |value| axis"),
        flagSpec("no-bound", "decay: hide RoPE's upper bound"),
        flagSpec("no-difference", "heatmap (compare mode): hide the B − A panels"),
        // The view window (zoom and pan): the scene's view.heatmap_*_from/to and view.decay_from/to.
        {"range", "A:B",
         "the window drawn, as zoom and pan show it: heatmap: query positions A … B−1 (and keys, unless --key-range); "
         "decay: distances A … B−1",
         "the whole range (the scene's window)", "A:B, integers with 0 <= A < B <= N (heatmap) or max distance + 1 (decay)"},
        {"key-range", "A:B", "heatmap: the window of key positions j, A … B−1", "--range, else the whole range",
         "A:B, integers with 0 <= A < B <= N"},
    }, tableSpecs(ui::viewParamTable(), viewSelection()));
}

// The views that draw each of figure's scene, view and method options (the others draw nothing
// from it). `figure VIEW` with an option VIEW does not draw keeps it in the scene the file embeds
// (--session FIGURE takes it back; test_figure's sceneOptionsApply relies on that) and says so on
// stderr, one note per option; `figure all` refuses an option none of its drawn views reads (cli.md
// "Added in 0.4": nothing silently ignored). An option not listed is drawn by every view.
const std::map<std::string, std::set<ViewKind>>& viewOptionReaders() {
    using V = ViewKind;
    // The scores' inputs: the heatmap, the decay curve and the precision view's score error
    // heatmap; the contributions take the layer's scale, q/k norm and query scaling
    // (core/contributions.h), neither its masks nor the soft-cap (the pairs add up to the score
    // before the cap).
    const std::set<ViewKind> scores = {V::Heatmap, V::Decay, V::Precision};
    const std::set<ViewKind> scaled = {V::Heatmap, V::Decay, V::Contributions, V::Precision};
    // What the content and the layout (which channels pair up) enter: every view but the
    // frequencies (RoPE's angles alone).
    const std::set<ViewKind> rows = {V::Pairs, V::Heatmap, V::Decay, V::Contributions, V::Precision};
    static const std::map<std::string, std::set<ViewKind>> m = {
        {"positions", {V::Pairs}},
        {"pairs", {V::Pairs, V::Precision}},
        {"length", {V::Pairs, V::Heatmap, V::Precision}},
        {"softmax", {V::Heatmap, V::Precision}},
        {"causal", {V::Heatmap, V::Precision}},
        {"colormap", {V::Heatmap}},
        {"aggregate", {V::Heatmap, V::Precision}},
        {"no-difference", {V::Heatmap}},
        {"content", rows},
        {"q", rows},
        {"k", rows},
        {"qk", rows},
        {"layout", rows},
        {"code-path", rows},
        {"window", scores},
        {"chunk", scores},
        {"nope", {V::Pairs, V::Heatmap, V::Decay, V::Frequencies}},   // contributions, precision: refused
        {"temperature-tuning", scaled},
        {"qk-norm", scaled},
        {"norm-eps", scaled},
        {"softmax-scale", scaled},
        {"softcap", scores},
        {"query-scaling", scaled},
        {"sink", {V::Heatmap, V::Precision}},
        {"max-distance", {V::Decay, V::Contributions}},
        {"log-x", {V::Decay}},
        {"log-y", {V::Decay}},
        {"no-bound", {V::Decay}},
        // The training context: marked by these two; read by every view where the scaling reads it
        // (RopeParams::readsMaxPositions).
        {"max-positions", {V::Frequencies, V::Contributions}},
    };
    return m;
}

// The views `figure VIEW` draws: VIEW, or for `all` those the scene shows.
std::set<ViewKind> drawnViews(const std::optional<ViewKind>& view, const SceneParams& sc) {
    if (view) return {*view};
    std::set<ViewKind> v;
    if (sc.view.showPairs) v.insert(ViewKind::Pairs);
    if (sc.view.showHeatmap) v.insert(ViewKind::Heatmap);
    if (sc.view.showDecay) v.insert(ViewKind::Decay);
    if (sc.view.showFrequencies) v.insert(ViewKind::Frequencies);
    if (sc.view.showContributions) v.insert(ViewKind::Contributions);
    if (sc.view.showPrecision) v.insert(ViewKind::Precision);
    return v;
}

// "the decay view", "the heatmap and precision views", "the pairs, heatmap and decay views".
std::string viewNames(const std::set<ViewKind>& views) {
    std::string names;
    std::size_t k = 0;
    for (ViewKind v : views) {
        names += (k == 0 ? "" : k + 1 == views.size() ? " and " : ", ") + s(ui::viewKey(v));
        ++k;
    }
    return "the " + names + (views.size() == 1 ? " view" : " views");
}

// The options given that none of the drawn views reads: for `figure VIEW` one note each (kept in
// the scene the file embeds), for `figure all` exit 2 naming the first.
void checkUnreadViewOptions(const Options& o, const std::optional<ViewKind>& view, const SceneParams& sc,
                            const std::string& viewArg, QStringList& notes) {
    const std::set<ViewKind> drawn = drawnViews(view, sc);
    const ui::MethodConfig& first = sc.methods.front();
    for (const auto& [option, readers] : viewOptionReaders()) {
        if (!o.has(option)) continue;
        if (option == "max-positions" && first.params.method == Method::Rope && first.params.ropeParams().readsMaxPositions())
            continue;
        bool read = false;
        for (ViewKind r : readers) read = read || drawn.count(r);
        if (read) continue;
        if (!view)
            fail("--" + option + " cannot change the output",
                 "it is read only by " + viewNames(readers) + ", which this scene does not show",
                 "figure " + viewArg + " --" + option);
        notes << QStringLiteral("figure %1 does not draw --%2 (it sets %3); kept in the scene saved in the file")
                     .arg(q(viewArg), q(option), q(viewNames(readers)));
    }
}

// A sink without softmax, B − A panels or linked colour ranges without a second configuration:
// nothing reads them.
void refuseSinkAndDifference(const Options& o, const SceneParams& sc) {
    if (o.has("sink") && !sc.view.softmax)
        fail("--sink cannot change the output", "it is read only with --softmax (the sink joins the softmax's normaliser)",
             "--sink without --softmax");
    if (o.has("no-difference") && sc.methods.size() < 2)
        fail("--no-difference cannot change the output", "it is read only in compare mode (two or more configurations)",
             "one configuration");
    if (o.has("link-color-ranges") && sc.methods.size() < 2)
        fail("--link-color-ranges cannot change the output", "it is read only in compare mode (two or more configurations)",
             "--link-color-ranges " + o.raw("link-color-ranges") + " with one configuration");
}

// A window `--name A:B` (half-open, like RANGE) inside [0, hi]: A < B <= hi. Anything else is
// exit 2 naming the option and the valid range.
ui::ViewWindow windowOption(const Options& o, const std::string& name, std::int64_t hi, const std::string& what) {
    const std::string& t = o.raw(name);
    const std::string valid = "A:B with 0 <= A < B <= " + std::to_string(hi) + " (" + what + ")";
    const auto colon = t.find(':');
    if (colon == std::string::npos) fail("invalid --" + name, valid, t.empty() ? "nothing" : t);
    const auto a = parseInteger(t.substr(0, colon)), b = parseInteger(t.substr(colon + 1));
    if (!a || !b || *a < 0 || *a >= *b || *b > hi) fail("invalid --" + name, valid, t);
    return {*a, *b};
}

// The options that choose and set the method of the first configuration (`compute scores`'s).
std::vector<OptionSpec> methodChoiceSpecs() {
    return {
        {"method", "M", "positional method of the (first) configuration; its own options follow it", "the scene's (rope)",
         methodList()},
        paramSpec("dim", "the scene's (64)"),
        paramSpec("content", "the scene's (ones)"),
        paramSpec("seed", "the scene's (0)", "seed of random content and of the learned tables"),
        precisionSpec(),
    };
}

// The layer chooser and the layer's attention structure (cli.md "Added in 0.3").
std::vector<OptionSpec> layerAndAttentionSpecs() { return concat(layerSpecs(), attentionSpecs()); }

// Every method's own options, each marked with its methods (for --help).
std::vector<OptionSpec> everyMethodSpecs() {
    std::vector<OptionSpec> all;
    for (const auto& key : kMethods)
        for (auto spec : methodSpecs(*methodFromKey(key), true)) {
            auto it = std::find_if(all.begin(), all.end(), [&](const OptionSpec& a) { return a.name == spec.name; });
            if (it == all.end()) {
                spec.help = "(" + key + ") " + spec.help;
                all.push_back(spec);
            } else {
                it->help.insert(it->help.find(')'), ", " + key);
            }
        }
    return all;
}

std::string figureHelp() {
    return helpText(
        "poslab figure VIEW [--session FILE] [OPTIONS] -o FILE [--force]\n"
        "       poslab figure --batch FILE [--force]",
        "Render a view exactly as the window draws it, without a window. VIEW: " + viewList() +
            " (all = the views the scene shows, laid out as in the window).\n"
            "The format follows FILE's extension: .png (raster), .svg and .pdf (vector, text as text), .csv and .json\n"
            "(the plotted values). Every file carries the scene (PNG text chunk, SVG metadata, PDF XMP metadata,\n"
            "CSV comment, JSON key), so `--session FIGURE` reproduces it. --batch FILE renders the figures a JSON file\n"
            "lists: {\"figures\": [{\"view\", \"output\", \"session\", \"scene\", \"width\", \"height\", \"dpi\", \"theme\",\n"
            "\"font_scale\", \"args\": [more options]}]}.\n"
            "Method options (as `poslab compute scores`) apply to the first configuration; each applies to its\n"
            "method only (`poslab figure VIEW --method M --help` lists M's).\n"
            "`poslab figure layers --config FILE -o F` draws a model's layer overview (`figure layers --help`).\n"
            "`poslab figure positions --tokens LAYOUT [--model M] -o F` draws multimodal position ids (`figure positions --help`).\n"
            "`poslab figure vision-decay --vision qwen|pixtral --grid TxHxW [--patch R,C] -o F` draws a vision encoder's 2-D\n"
            "RoPE decay from one patch (`figure vision-decay --help`).\n"
            "`poslab figure demo KEY -o F` draws a demonstration's slide (`figure demo KEY --help`).\n"
            "`poslab figure deck [--session FILE] [--theme T] [--width W --height H] [--notes] -o F.pdf|DIR/` writes every slide\n"
            "of the deck: one PDF page per slide, or one PNG per slide in DIR (`figure deck --help`).\n"
            "In a --batch file, \"view\" is any of these: \"demo KEY\", \"layers\", \"deck\" (and \"session\" the deck's session).",
        concat(concat(concat(figureSpecs(), methodChoiceSpecs()), everyMethodSpecs()), layerAndAttentionSpecs()));
}

struct Job {
    QString output;
    SceneParams scene;
    ExportRequest request;
    QStringList warnings;   // printed once the figure is written (an error is the only line)
    QStringList notes;      // options the view does not draw, a --session the options override
};

void printWarnings(const QStringList& warnings, const QStringList& notes = {}) {
    for (const auto& w : warnings) std::fprintf(stderr, "poslab: warning: %s\n", oneLine(w.toStdString()).c_str());
    for (const auto& n : notes) std::fprintf(stderr, "poslab: note: %s\n", oneLine(n.toStdString()).c_str());
}
void printWarnings(const Job& job) { printWarnings(job.warnings, job.notes); }
// Warnings and notes into `out` when given (the Python module: notes as "note: …"), else on stderr.
void reportWarnings(const Job& job, QStringList* out) {
    if (!out) return printWarnings(job);
    *out += job.warnings;
    for (const auto& n : job.notes) *out += QStringLiteral("note: ") + n;
}

// -o FILE / -o=FILE / -oFILE → --output.
std::vector<std::string> normalise(const std::vector<std::string>& args) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "-o") {
            if (i + 1 >= args.size()) fail("missing value for -o", "a file name ending in .png, .svg, .pdf, .csv or .json", "nothing");
            out.push_back("--output");
            out.push_back(args[++i]);
        } else if (a.rfind("-o=", 0) == 0) {
            out.push_back("--output=" + a.substr(3));
        } else if (a.size() > 2 && a.rfind("-o", 0) == 0 && a[2] != '-') {
            out.push_back("--output=" + a.substr(2));
        } else {
            out.push_back(a);
        }
    }
    return out;
}

// The session in a --session FILE (a .poslab file, or a figure PosLab exported). Unknown fields go
// to `warnings`.
ui::Session loadSessionArg(const QString& path, QStringList& warnings) {
    QString error;
    std::optional<ui::Session> session;
    const QFileInfo info(path);
    if (!info.exists()) failIo("cannot read --session file '" + s(path) + "': no such file");
    const auto exported = ui::exportFormatFromPath(path);
    if (exported) {
        // A figure PosLab exported; a .json may also be a session saved under that name.
        if (*exported == ExportFormat::Json) {
            QFile f(path);
            if (f.open(QIODevice::ReadOnly) && f.peek(4096).contains("\"poslab-session\"") &&
                !f.peek(4096).contains("\"poslab-data\""))
                session = ui::loadSessionFile(path, &error, &warnings);
        }
        if (!session && error.isEmpty()) session = ui::sessionFromExport(path, &error, &warnings);
    } else {
        session = ui::loadSessionFile(path, &error, &warnings);
    }
    if (!session) {
        if (error.startsWith(QStringLiteral("cannot open")) || error.startsWith(QStringLiteral("cannot read")))
            failIo(s(error));
        fail("invalid --session", "a PosLab session", s(error));
    }
    return *session;
}

// The scene a session holds: its current one, or scene `sceneK` (the raw --scene text).
// Unknown fields go to `warnings`.
SceneParams loadScene(const QString& path, const std::optional<std::string>& sceneK, QStringList& warnings) {
    const std::optional<ui::Session> session = loadSessionArg(path, warnings);
    int index = session->current;
    if (sceneK) {
        const std::string valid = "an integer from 0 to " + std::to_string(session->scenes.size() - 1) + " (the session's scenes)";
        // The one number syntax (core/param.h parseInteger): 2, 2.0 and 2e0 are scene 2.
        const std::optional<std::int64_t> k = parseInteger(*sceneK);
        if (!k || *k < 0 || *k >= static_cast<std::int64_t>(session->scenes.size())) fail("invalid --scene", valid, *sceneK);
        index = static_cast<int>(*k);
    }
    return session->scenes.at(static_cast<std::size_t>(index)).scene;
}

// `probe`: the scene only (prepare() without --session, to tell whether the session held anything
// the other options leave).
Job prepare(std::vector<std::string> args, bool forceAll, bool probe = false) {
    args = normalise(args);
    if (args.empty()) fail("missing VIEW for figure", viewList(), "nothing");
    const std::string viewArg = args.front();
    if (viewArg == "--help" || viewArg == "-h") {
        std::fputs(figureHelp().c_str(), stdout);
        throw CliError{0, ""};
    }
    if (viewArg.rfind("-", 0) == 0) fail("missing VIEW for figure (the first argument)", viewList(), viewArg);
    std::optional<ViewKind> view;
    if (viewArg != "all") {
        view = ui::viewFromKey(q(viewArg));
        if (!view) fail("invalid VIEW", viewList(), viewArg);
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());

    // The base scene (default or session), then the method whose own options are accepted:
    // --method, else the preset's, else the scene's first configuration's.
    Job job;
    const auto sessionArg = peekOption(rest, "session");
    const auto sceneArg = peekOption(rest, "scene");
    if (sceneArg && !sessionArg) fail("--scene needs --session", "--session FILE --scene K", *sceneArg);
    job.scene = sessionArg ? loadScene(q(*sessionArg), sceneArg, job.warnings) : SceneParams{};
    SceneParams& sc = job.scene;
    const ModelPreset* preset = nullptr;
    if (auto key = peekOption(rest, "preset")) preset = &presetOrFail(*key);
    const auto modelConfigs = peekConfigs(rest);
    if (modelConfigs.size() > static_cast<std::size_t>(ui::kMaxConfigs))
        fail("too many --config for figure " + viewArg, "at most " + std::to_string(ui::kMaxConfigs) + " models side by side",
             std::to_string(modelConfigs.size()));
    const std::optional<ui::ModelFileConfig> modelConfig =
        modelConfigs.empty() ? std::nullopt : std::optional<ui::ModelFileConfig>(modelConfigs.front().second);
    const auto methodArg = peekOption(rest, "method");
    Method method = preset ? preset->params.method
                    : modelConfig ? modelConfig->params.method
                                  : sc.methods.front().params.method;
    if (methodArg) {
        const auto m = methodFromKey(*methodArg);
        if (!m) fail("invalid --method", methodList(), *methodArg);
        method = *m;
    }
    if ((view == ViewKind::Contributions || view == ViewKind::Precision) && method != Method::Rope)
        fail("invalid --method for figure " + viewArg, "rope (the " + viewArg + " view shows RoPE's rotary pairs)",
             std::string(methodKey(method)));
    auto specs = concat(concat(concat(concat(figureSpecs(), methodChoiceSpecs()), methodSpecs(method, true)), qkSpecs()), layerAndAttentionSpecs());
    if (method == Method::Rope) specs = concat(specs, mropeTokenSpecs());   // --tokens: M-RoPE (heatmap, decay)
    Options o(rest, specs, "figure " + viewArg + " (method " + std::string(methodKey(method)) + ")");
    if (o.help()) {
        if (methodArg)
            std::fputs(helpText("poslab figure " + viewArg + " --method " + *methodArg + " [options] -o FILE",
                                std::string(methodTitle(method)) + ": " + std::string(methodSummary(method)), specs)
                           .c_str(),
                       stdout);
        else
            std::fputs(figureHelp().c_str(), stdout);
        throw CliError{0, ""};
    }

    // A model preset replaces the (first) configuration, as the window's Presets menu does.
    if (preset) {
        auto& config = sc.methods.front();
        config.params = preset->params;
        config.label = q(preset->name);
        sc.presetKey = q(preset->key);
        sc.head = std::clamp(sc.head, 0, std::max(1, preset->heads) - 1);
    }
    // A model configuration file likewise (the window's File → Open model configuration…);
    // several: one configuration each, side by side (compare mode).
    if (modelConfig) {
        sc.methods.front().params = modelConfig->params;
        sc.methods.front().label = QFileInfo(q(modelConfigs.front().first)).fileName();
        sc.presetKey.clear();
        sc.head = std::clamp(sc.head, 0, std::max(1, modelConfig->heads) - 1);
        sc.methods.resize(1);
        for (std::size_t k = 1; k < modelConfigs.size(); ++k) {
            ui::MethodConfig other;
            other.params = modelConfigs[k].second.params;
            other.label = QFileInfo(q(modelConfigs[k].first)).fileName();
            selectLayer(o, other.params, true);
            sc.methods.push_back(std::move(other));
        }
    }
    auto& config = sc.methods.front();
    // The layer --layer / --layer-type choose (a config's layer 0 by default).
    selectLayer(o, config.params, modelConfig.has_value());
    // Method options, on top of the preset's or the scene's values.
    ScoreParams& mp = config.params;
    if (mp.method != method) {
        mp.method = method;
        config.label.clear();   // the title follows the method
        sc.presetKey.clear();
    }
    const std::uint64_t seedBefore = mp.seed;
    readOwnOptions(o, {"dim", "content", "seed"}, mp);
    if (o.has("seed") || mp.seed != seedBefore) mp.learned.seed = mp.shaw.seed = mp.t5.seed = mp.transformer_xl.seed = mp.seed;
    if (o.has("precision")) mp.precision = precisionOf(o);
    std::map<std::string, std::string> rename{{"head_dim", "dim"}};
    // The frequencies and contributions views mark the training context (max_positions, original).
    // (checkUnreadViewOptions says which views draw it).
    readMethodOptions(o, method, true, mp, rename, {"max_positions"});
    readAttention(o, mp, rename);
    if ((view == ViewKind::Contributions || view == ViewKind::Precision) && o.has("nope"))
        fail("invalid --nope for figure " + viewArg,
             "a RoPE layer (the " + viewArg + " view shows RoPE's rotary pairs; a NoPE layer has none)", "--nope");
    {
        ScoreParams checked = mp;
        checked.head = 0;
        check(checked.validate(), rename);
    }
    // Real queries and keys: every configuration scores the files' rows; --dim defaults to their
    // d and --length to their N (at most the window's kMaxLength).
    if (auto rows = readQk(o)) {
        sc.qFile = q(o.raw(o.has("qk") ? "qk" : "q"));
        sc.kFile = o.has("qk") ? QString() : q(o.raw("k"));
        sc.head = 0;
        readDeclared(o, "head", ui::sceneParamTable(), "head", sc);
        auto st = std::make_shared<ui::QkState>();
        st->qFile = sc.qFile;
        st->kFile = sc.kFile;
        st->head = sc.head;
        st->content = rows;
        sc.qk = st;
        if (!o.has("dim"))
            for (auto& c : sc.methods) c.params.dim = rows->dim();
        if (!o.has("length")) sc.length = std::min<std::int64_t>(rows->length(), ui::kMaxLength);
    } else {
        ui::refreshQk(sc);   // a session's files
    }
    // Scene options.
    readDeclared(o, "length", ui::sceneParamTable(), "length", sc);
    // A token layout (cli.md "Multimodal positions"): each token of the RoPE configuration rotated
    // by its own (t, h, w) ids in the heatmap and decay views, the frequencies coloured by the axis
    // each follows; N is its token count.
    if (method == Method::Rope) {
        if (o.has("tokens") && view == ViewKind::Pairs)
            fail("--tokens cannot change the output",
                 "figure pairs draws each pair's rotation at plain positions; under M-RoPE a pair turns by the token's id on "
                 "the pair's one axis, the same arrows at that id (figure positions draws the ids, figure frequencies --tokens "
                 "each pair's axis)",
                 "figure pairs --tokens");
        if (o.has("tokens") && view && *view != ViewKind::Heatmap && *view != ViewKind::Decay && *view != ViewKind::Frequencies)
            fail("--tokens cannot change the output",
                 "it is read only by figure heatmap, decay and frequencies (or all); figure positions draws the ids",
                 "figure " + viewArg + " --tokens");
        const int half = sc.methods.front().params.ropeParams().rotaryDim() / 2;
        if (const std::int64_t n = readSceneTokens(o, mropeOfConfig(modelConfig), half, sc.mrope); n > 0) {
            if (sc.methods.front().params.attention.nope)
                fail("--tokens cannot change the output", "it is read only on a RoPE layer (this one applies no positional encoding)",
                     "--tokens " + o.raw("tokens"));
            if (o.has("length") && sc.length != n)
                fail("--length does not match --tokens", "the layout's token count " + formatInt(n) + " or no --length", o.raw("length"));
            sc.length = n;
            // The sections are each configuration's: the options' (or the first file's) for the
            // first, each further --config its own file's (compare mode: Qwen2-VL's sections
            // beside Qwen3-VL's interleaving); a file without M-RoPE takes the model's split.
            sc.methods.front().mropeSection = sc.mrope.mrope_section;
            sc.methods.front().mropeLayout = sc.mrope.mrope_layout;
            for (std::size_t k = 1; k < modelConfigs.size() && k < sc.methods.size(); ++k) {
                const auto& other = modelConfigs[k].second.mrope;
                sc.methods[k].mropeSection = other ? other->mrope_section : std::vector<std::int64_t>{};
                sc.methods[k].mropeLayout = other ? other->mrope_layout : MropeLayout::Sectioned;
            }
            sc.mrope.mrope_section.clear();
            sc.mrope.mrope_layout = MropeLayout::Sectioned;
        }
    }
    if (o.has("positions")) sc.positions = o.positions("positions", 0, kMaxPosition);
    if (o.has("pairs")) {
        const Positions p = o.positions("pairs", 0, 32767);
        sc.pairs.assign(p.begin(), p.end());
    }
    readDeclared(o, "head", ui::sceneParamTable(), "head", sc);
    if (o.has("softmax")) sc.view.softmax = true;
    if (o.has("causal") && o.has("bidirectional")) fail("give at most one of --causal and --bidirectional", "one direction", "both");
    if (o.has("bidirectional") && !(modelConfig && modelConfig->params.causal))
        fail("--bidirectional changes nothing here: the scene attends both ways unless --causal or a decoder's --config "
             "masks it",
             "--bidirectional with a decoder's --config", "--bidirectional");
    if (o.has("causal")) sc.view.causal = true;
    // A model configuration makes the scene its model's own: a decoder's is causal.
    if (modelConfig && !o.has("causal")) sc.view.causal = modelConfig->params.causal && !o.has("bidirectional");
    if (o.has("bidirectional")) sc.view.causal = false;
    if (o.has("colormap")) {
        const std::string c = o.choice("colormap", {"auto", "viridis", "diverging"}, "auto");
        sc.view.colormap = c == "viridis" ? ui::HeatmapColormap::Viridis
                           : c == "diverging" ? ui::HeatmapColormap::Diverging
                                              : ui::HeatmapColormap::Auto;
    }
    readDeclared(o, "max-distance", ui::viewParamTable(), "decay_max_distance", sc.view);
    if (o.has("log-x")) sc.view.decayLogX = true;
    if (o.has("log-y")) sc.view.decayLogY = true;
    if (o.has("no-bound")) sc.view.decayShowBound = false;
    if (o.has("no-difference")) sc.view.showDifference = false;
    {
        std::map<std::string, std::string> viewRename;
        readTable(o, ui::viewParamTable(), viewSelection(), sc.view, viewRename);
    }
    // The view window, checked against the scene's N and max distance as set above.
    if (o.has("range") || o.has("key-range")) {
        const bool heat = view == ViewKind::Heatmap, decay = view == ViewKind::Decay;
        const std::string option = o.has("range") ? "--range" : "--key-range";
        if (!heat && !(decay && !o.has("key-range")))
            fail(option + " draws a window of figure " + (o.has("key-range") ? "heatmap" : "heatmap or decay"),
                 o.has("key-range") ? "figure heatmap --key-range A:B" : "figure heatmap|decay --range A:B", viewArg);
        if (heat) {
            const std::string what = "positions 0 … N−1, N = " + std::to_string(sc.length);
            ui::ViewWindow queries = ui::heatmapQueryWindow(sc), keys = ui::heatmapKeyWindow(sc);
            if (o.has("range")) queries = keys = windowOption(o, "range", sc.length, what);
            if (o.has("key-range")) keys = windowOption(o, "key-range", sc.length, what);
            ui::setHeatmapWindow(sc, queries, keys);
        } else {
            const std::int64_t d = sc.view.decayMaxDistance;
            ui::setDecayWindow(sc, windowOption(o, "range", d + 1, "distances 0 … " + std::to_string(d) + ", the max distance"));
        }
    }
    if (auto problem = ui::sceneProblem(sc)) fail("invalid scene", "a scene every method accepts", s(*problem));
    refuseSinkAndDifference(o, sc);
    checkUnreadViewOptions(o, view, sc, viewArg, job.notes);
    // --seed and --head as the table says when they are read (random content or seeded tables;
    // heads of ALiBi/T5 or of query/key files), for the configuration they set.
    {
        ScoreParams probe = sc.methods.front().params;
        if (sc.qk) probe.source = sc.qk->content;
        refuseIrrelevant(o, scoreParamTable(), TableSelection{.only = {"seed"}}, probe);
        bool headRead = sc.qk != nullptr;
        for (const auto& c : sc.methods) headRead = headRead || findParam(scoreParamTable(), "head")->matters(c.params);
        if (o.has("head") && !headRead)
            fail("--head cannot change the output", "it is read only with --method alibi or t5, query/key files or a --sink per head",
                 "--head " + o.raw("head"));
    }

    // Output.
    o.require("output");
    job.output = q(o.raw("output"));
    const auto format = ui::exportFormatFromPath(job.output);
    if (job.output.isEmpty() || !format)
        fail("invalid --output", o.spec("output").valid, o.raw("output"));
    job.request.view = view;
    job.request.format = *format;
    const bool all = !view;
    job.request.pixels = QSize(static_cast<int>(o.has("width") ? o.integer("width", ui::kMinExportPixels, ui::kMaxExportPixels) : (all ? 1600 : 1200)),
                               static_cast<int>(o.has("height") ? o.integer("height", ui::kMinExportPixels, ui::kMaxExportPixels) : (all ? 1000 : 800)));
    if (o.has("dpi")) job.request.dpi = static_cast<int>(o.integer("dpi", ui::kMinDpi, ui::kMaxDpi));
    if (o.has("theme")) job.request.theme = q(o.choice("theme", themeChoices(), "light"));
    if (o.has("font-scale")) {
        const double f = o.number("font-scale");
        if (!(f >= 0.5 && f <= 3.0)) fail("invalid --font-scale", o.spec("font-scale").valid, o.raw("font-scale"));
        job.request.fontScale = f;
    }
    if (auto problem = ui::exportRequestProblem(job.request)) {
        const QString p = *problem;
        const std::string option = p.startsWith(QStringLiteral("dpi")) ? "--dpi" : "--width/--height";
        fail("invalid " + option, s(p.section(QStringLiteral(": "), 1).section(QStringLiteral(", got "), 0, 0)),
             s(p.section(QStringLiteral(", got "), -1)));
    }
    const bool force = forceAll || o.has("force");
    const QFileInfo out(job.output);
    if (out.exists() && !force)
        fail("output file exists", "pass --force to overwrite it", s(job.output));
    if (out.isDir()) fail("invalid --output", "a file, not a directory", o.raw("output"));
    // A session every setting of which the other options override: the figure is the one drawn
    // without it (said, not refused: cli.md "Added in 0.4").
    if (sessionArg && !probe) {
        std::optional<QByteArray> alone;
        try {
            alone = ui::sceneToJson(prepare(withoutOption(withoutOption(args, "session", false), "scene", false), true, true).scene, true);
        } catch (const CliError&) {
            // the options need the session's scene: it counts
        }
        // (A session holding the default scene overrides nothing either: no note for it.)
        QStringList ignored;
        if (alone && *alone == ui::sceneToJson(job.scene, true) &&
            ui::sceneToJson(loadScene(q(*sessionArg), sceneArg, ignored), true) != ui::sceneToJson(SceneParams{}, true))
            job.notes << QStringLiteral("--session %1: the other options override every setting it holds (the figure is the "
                                        "same without it)")
                             .arg(q(*sessionArg));
    }
    return job;
}

// A picture painted by `paint` as PNG, SVG or PDF bytes at 96 dpi, through the one image writer
// (ui::paintedPicture): a white page, no session (the PNG carries no text chunk).
QByteArray paintedBytes(ui::ExportFormat format, QSize size, const QString& title, const std::function<void(QPainter&)>& paint) {
    ui::PaintedDocument doc;
    doc.title = title;
    QString error;
    const auto bytes = ui::paintedPicture(format, doc, size, 96, Qt::white, [&](QPainter& p, const QRectF&) { paint(p); }, &error);
    if (!bytes) failIo(s(error));
    return *bytes;
}

// What the overview plots against distance for layer i (distances 1 … context on a log axis):
// the farthest distance the layer sees (visible_to: a window W − 1 back, or ⌊W/2⌋ either side in a
// bidirectional model; a chunk C − 1; the context − 1 for a full layer), the
// positional signal ("rope", "nope", "nope_temperature") and, with temperature tuning, the query
// scale τ at the context's last position.
struct LayerReach {
    std::optional<std::int64_t> visibleTo;
    std::int64_t attendsTo = 0;
    std::string signal;
    std::optional<double> temperatureAtContext;
};
LayerReach layerReach(const ui::LayersPicture& pic, std::int64_t i) {
    const LayerParams lp = layerParams(pic.model, i);
    LayerReach r;
    r.visibleTo = visibleTo(lp.attention, !pic.model.bidirectional);
    r.attendsTo = std::min(r.visibleTo.value_or(pic.context - 1), pic.context - 1);
    const bool tuned = !lp.rope && !lp.attention.temperature_tuning.empty();
    r.signal = lp.rope ? "rope" : tuned ? "nope_temperature" : "nope";
    if (tuned) r.temperatureAtContext = temperatureScale(lp.attention, pic.context - 1, Precision::Double);
    return r;
}

// The layout report of a figure drawn at `size` (its view named `view`): drawn once, offscreen.
ui::LayoutReport figureLayout(const QSize& size, const QString& view, const std::function<void(QPainter&, const QRectF&)>& draw) {
    ui::LayoutReport report;
    report.bounds = QRectF(0, 0, size.width(), size.height());
    QImage img(size, QImage::Format_ARGB32_Premultiplied);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    ui::LayoutCapture capture(report);
    capture.setView(view);
    draw(p, report.bounds);
    return report;
}

// A rectangle as [x, y, width, height].
void writeRect(JsonWriter& w, const QRectF& r) { w.beginArray().number(r.x()).number(r.y()).number(r.width()).number(r.height()).endArray(); }

// `figure layers -o F.json`: the overview's data (one entry per layer: the fields of `compute
// layers` and what the figure plots against distance) and the `layout` of the figure of that size.
QByteArray layersJson(const ui::LayersPicture& pic, int dim, const QSize& size, const ui::Theme& theme) {
    const ui::LayoutReport report =
        figureLayout(size, QStringLiteral("layers"), [&](QPainter& p, const QRectF& rect) { ui::drawLayers(p, rect, pic, theme); });
    JsonWriter w(JsonWriter::Style::Pretty);
    w.beginObject();
    w.key("format").string("poslab-data");
    w.key("app_version").string(s(ui::poslabVersion()));
    w.key("title").string(s(QStringLiteral("Layers: ") + pic.title));
    w.key("views").beginObject();
    w.key("layers").beginObject();
    w.key("model_type").string(pic.model.model_type);
    w.key("num_layers").integer(layerCount(pic.model));
    w.key("bidirectional").boolean(pic.model.bidirectional);
    w.key("context").integer(pic.context);
    w.key("distance_axis").beginObject();
    w.key("from").integer(1);
    w.key("to").integer(pic.context);
    w.key("log").boolean(true);
    w.endObject();
    if (pic.selected >= 0) w.key("selected").integer(pic.selected);
    w.key("layers").beginArray();
    for (std::int64_t i = 0; i < layerCount(pic.model); ++i) {
        const LayerReach r = layerReach(pic, i);
        w.beginObject();
        writeLayerFields(w, pic.model, i, dim);
        if (r.visibleTo) w.key("visible_to").integer(*r.visibleTo);
        else w.key("visible_to").null();
        w.key("attends_to").integer(r.attendsTo);
        w.key("signal").string(r.signal);
        if (r.temperatureAtContext) w.key("temperature_at_context").number(*r.temperatureAtContext);
        w.endObject();
    }
    w.endArray();
    w.endObject();
    w.endObject();
    ui::writeLayoutJson(w.key("layout"), report);
    w.endObject();
    return QByteArray::fromStdString(w.text()) + '\n';
}

// `figure layers -o F.csv`: one row per layer, the JSON entry's fields as columns (empty: absent).
QByteArray layersCsv(const ui::LayersPicture& pic, int dim) {
    std::string out = "# PosLab " + s(ui::poslabVersion()) + " — Layers: " + s(pic.title) + "\n# context: " +
                      formatInt(pic.context) + " (distance axis 1 … context, log" +
                      (pic.model.bidirectional ? std::string("; bidirectional: visible_to is ⌊W/2⌋ on either side") : std::string()) + ")\n";
    out += "index,layer_type,rope,rope_type,rope_theta,factor,window,chunk,temperature_floor_scale,temperature_attn_scale,"
           "qk_norm,softmax_scale,visible_to,attends_to,signal,temperature_at_context\n";
    for (std::int64_t i = 0; i < layerCount(pic.model); ++i) {
        const LayerParams lp = layerParams(pic.model, i);
        const RopeParams& rp = lp.ropeParams;
        const AttentionParams& a = lp.attention;
        const LayerReach r = layerReach(pic, i);
        const auto opt = [](const auto& v, auto f) { return v ? f(*v) : std::string(); };
        const auto& tt = a.temperature_tuning;
        std::vector<std::string> cells = {
            formatInt(i),
            std::string(layerTypeConfigKey(lp.type)),
            lp.rope ? "true" : "false",
            rp.scaling == RopeScaling::None ? std::string("default") : std::string(enumKey(rp.scaling)),
            formatNumber(rp.base),
            rp.scaling == RopeScaling::None ? std::string() : formatNumber(rp.resolvedFactor()),
            opt(a.window, [](std::int64_t v) { return formatInt(v); }),
            opt(a.chunk, [](std::int64_t v) { return formatInt(v); }),
            tt.size() == 2 ? formatNumber(tt[0]) : std::string(),
            tt.size() == 2 ? formatNumber(tt[1]) : std::string(),
            a.qk_norm == QkNorm::None ? std::string() : std::string(enumKey(a.qk_norm)),
            formatNumber(scoreScale(a, dim)),
            opt(r.visibleTo, [](std::int64_t v) { return formatInt(v); }),
            formatInt(r.attendsTo),
            r.signal,
            opt(r.temperatureAtContext, [](double v) { return formatNumber(v); }),
        };
        for (std::size_t k = 0; k < cells.size(); ++k) out += (k ? "," : "") + cells[k];
        out += "\n";
    }
    return QByteArray::fromStdString(out);
}

// A one-picture figure's own options (figure layers, figure demo): the output file and its
// formats, size, theme, text size and --force, declared once with their defaults, and read into
// one value with the same checks and messages.
struct PictureOutput {
    QString path;
    ui::ExportFormat format = ui::ExportFormat::Png;
    int width = 0, height = 0;
    QString theme;
    double fontScale = 1.0;
};
struct PictureDefaults {
    std::vector<ui::ExportFormat> formats;   // the formats the command writes
    std::string outputHelp;
    int width = 1600, height = 1000;
    std::string theme = "light", themeHelp = "light (paper), dark, or projector (high contrast, large type)";
    bool fontScale = true;                    // offers --font-scale
};

std::vector<OptionSpec> pictureSpecs(const PictureDefaults& d) {
    std::string exts;
    for (std::size_t k = 0; k < d.formats.size(); ++k)
        exts += (k == 0 ? "." : k + 1 == d.formats.size() ? " or ." : ", .") + s(ui::exportFormatKey(d.formats[k]));
    std::vector<OptionSpec> specs = {
        {"output", "FILE", d.outputHelp, "required", "a file name ending in " + exts},
        {"width", "W", "width in pixels (SVG/PDF: at 96 dpi)", std::to_string(d.width), "an integer from 64 to 16384"},
        {"height", "H", "height in pixels", std::to_string(d.height), "an integer from 64 to 16384"},
        {"theme", "T", d.themeHelp, d.theme, "one of light, dark, projector"},
    };
    if (d.fontScale) specs.push_back({"font-scale", "F", "text size factor", "1", "a number from 0.5 to 3"});
    specs.push_back(flagSpec("force", "overwrite an existing output file"));
    return specs;
}

PictureOutput readPictureOutput(const Options& o, const PictureDefaults& d, bool forceAll = false) {
    PictureOutput out;
    o.require("output");
    out.path = q(o.raw("output"));
    const auto format = ui::exportFormatFromPath(out.path);
    if (out.path.isEmpty() || !format || std::find(d.formats.begin(), d.formats.end(), *format) == d.formats.end())
        fail("invalid --output", o.spec("output").valid, o.raw("output"));
    out.format = *format;
    out.width = int(o.has("width") ? o.integer("width", 64, 16384) : d.width);
    out.height = int(o.has("height") ? o.integer("height", 64, 16384) : d.height);
    out.theme = q(o.has("theme") ? o.choice("theme", themeChoices(), d.theme) : d.theme);
    if (d.fontScale && o.has("font-scale")) {
        out.fontScale = o.number("font-scale");
        if (!(out.fontScale >= 0.5 && out.fontScale <= 3.0)) fail("invalid --font-scale", o.spec("font-scale").valid, o.raw("font-scale"));
    }
    const QFileInfo file(out.path);
    if (file.exists() && !o.has("force") && !forceAll) fail("output file exists", "pass --force to overwrite it", s(out.path));
    if (file.isDir()) fail("invalid --output", "a file, not a directory", o.raw("output"));
    return out;
}

const PictureDefaults& layersPictureDefaults() {
    static const PictureDefaults d{{ui::ExportFormat::Png, ui::ExportFormat::Svg, ui::ExportFormat::Pdf, ui::ExportFormat::Csv,
                                    ui::ExportFormat::Json},
                                   "the file to write: .png, .svg or .pdf; .json or .csv: the overview's data"};
    return d;
}

const PictureDefaults& demoPictureDefaults() {
    static const PictureDefaults d{{ui::ExportFormat::Png, ui::ExportFormat::Svg, ui::ExportFormat::Pdf, ui::ExportFormat::Json},
                                   "the file to write: .png, .svg or .pdf; .json: the slide's layout report (every text with "
                                   "its pixel size)",
                                   1920,
                                   1080,
                                   "projector",
                                   "projector (high contrast, large type, as presented), light or dark",
                                   false};
    return d;
}

// What a figure writes, once every figure of a batch is checked: the picture is drawn and the
// file written only when it is called.
using FigureWriter = std::function<void()>;

// The options of a batch entry, with --force when the batch has it (and the entry has not).
std::vector<std::string> withForce(std::vector<std::string> args, bool force) {
    if (force && std::find(args.begin(), args.end(), "--force") == args.end()) args.push_back("--force");
    return args;
}

// A one-picture figure's options: `args` from `first` on parsed against `specs`; with --help, its
// help (usage, description, the options) printed and the command done.
Options figureOptions(const std::vector<std::string>& args, std::size_t first, const std::vector<OptionSpec>& specs,
                      const std::string& context, const std::string& usage, const std::string& description) {
    Options o(std::vector<std::string>(args.begin() + std::ptrdiff_t(first), args.end()), specs, context);
    if (o.help()) {
        std::fputs(helpText(usage, description, specs).c_str(), stdout);
        throw CliError{0, ""};
    }
    return o;
}

// A one-picture figure's bytes into its file, atomically (exit 1 when the writer made nothing or
// the file cannot be written).
void writeFigureFile(const PictureOutput& out, const QByteArray& bytes) {
    QString error;
    if (bytes.isEmpty()) failIo("the " + s(ui::exportFormatKey(out.format)) + " writer produced nothing");
    if (!ui::writeFileAtomically(out.path, bytes, &error)) failIo(s(error));
}

// `poslab figure layers --config FILE -o F` (cli.md "Added in 0.3"): the layer overview.
FigureWriter prepareLayersFigure(const std::vector<std::string>& rawArgs) {
    const std::vector<std::string> args = normalise(rawArgs);
    std::vector<OptionSpec> specs = concat(std::vector<OptionSpec>{configSpec()}, pictureSpecs(layersPictureDefaults()));
    specs.front().def = "required";
    specs = concat(specs, layerSpecs());
    const Options o = figureOptions(args, 1, specs, "figure layers", "poslab figure layers --config FILE -o FILE",
                                    "The layer overview: one row per layer (type, RoPE or NoPE, base and scaling, window or chunk) "
                                    "and, against distance,\n"
                                    "what each layer can attend to and with which positional signal. --layer or "
                                    "--layer-type highlights a layer.");
    o.require("config");
    std::vector<std::string> rest(args.begin() + 1, args.end());
    const auto config = peekConfig(rest);
    ScoreParams params = config->params;
    if (params.method != Method::Rope || layerCount(params.model) == 0)
        fail("--config " + o.raw("config") + " has no layer pattern", "a config with num_hidden_layers and RoPE",
             "method " + std::string(methodKey(params.method)));
    const bool highlight = o.has("layer") || o.has("layer-type");
    selectLayer(o, params, true);
    const PictureOutput out = readPictureOutput(o, layersPictureDefaults());
    const int width = out.width, height = out.height;
    ui::LayersPicture pic;
    pic.model = params.model;
    pic.dim = params.dim;
    pic.context = config->contextLength.value_or(params.rope.max_positions);
    pic.selected = highlight ? params.model.layer : -1;
    pic.title = QFileInfo(q(o.raw("config"))).completeBaseName();
    return [=] {
        const ui::Theme theme = ui::themeByName(out.theme, out.fontScale);
        const QSize size(width, height);
        writeFigureFile(out, out.format == ui::ExportFormat::Json  ? layersJson(pic, params.dim, size, theme)
                             : out.format == ui::ExportFormat::Csv ? layersCsv(pic, params.dim)
                                                                   : paintedBytes(out.format, size, QStringLiteral("PosLab layers: ") + pic.title,
                                                                                  [&](QPainter& p) { ui::drawLayers(p, QRectF(0, 0, width, height), pic, theme); }));
    };
}

const PictureDefaults& positionsPictureDefaults() {
    static const PictureDefaults d{{ui::ExportFormat::Png, ui::ExportFormat::Svg, ui::ExportFormat::Pdf, ui::ExportFormat::Json},
                                   "the file to write: .png, .svg or .pdf; .json: the ids, where each token's cell and each grid "
                                   "were drawn, and the layout report"};
    return d;
}

// `figure positions -o F.json`: the ids (as `compute positions`), the strip's cells and the grids
// as drawn, and the layout report of the figure of that size.
QByteArray positionsJson(const ui::PositionsPicture& pic, const QSize& size, const ui::Theme& theme) {
    const QRectF rect(0, 0, size.width(), size.height());
    const ui::LayoutReport report =
        figureLayout(size, QStringLiteral("positions"), [&](QPainter& p, const QRectF& r) { ui::renderPositions(p, r, pic, theme); });
    const ui::PositionsGeometry g = ui::positionsGeometry(rect, pic, theme);
    JsonWriter w(JsonWriter::Style::Pretty);
    w.beginObject();
    w.key("format").string("poslab-data");
    w.key("app_version").string(s(ui::poslabVersion()));
    w.key("title").string(s(QStringLiteral("Position ids: ") + ui::mropeModelTitle(pic.model)));
    w.key("views").beginObject();
    w.key("positions").beginObject();
    w.key("model").string(enumKey(pic.model));
    w.key("position_ids").beginArray();
    for (Eigen::Index a = 0; a < pic.positions.ids.rows(); ++a) {
        w.beginArray();
        for (Eigen::Index k = 0; k < pic.positions.ids.cols(); ++k) w.integer(pic.positions.ids(a, k));
        w.endArray();
    }
    w.endArray();
    w.key("rope_deltas").integer(pic.positions.rope_deltas);
    w.key("kinds").beginArray();
    for (TokenKind k : pic.positions.kinds) w.string(tokenKindKey(k));
    w.endArray();
    w.key("strip").beginArray();
    for (const auto& c : g.strip) {
        w.beginObject();
        w.key("from").integer(c.from);
        w.key("count").integer(c.count);
        w.key("rect");
        writeRect(w, c.rect);
        w.endObject();
    }
    w.endArray();
    w.key("grids").beginArray();
    for (const auto& gr : g.grids) {
        w.beginObject();
        w.key("entry").integer(gr.segment);
        w.key("frame").integer(gr.frame);
        w.key("first_token").integer(gr.firstToken);
        w.key("rows").integer(gr.rows);
        w.key("cols").integer(gr.cols);
        w.key("ids_in_cells").boolean(gr.idsInCells);
        w.key("rect");
        writeRect(w, gr.cells);
        w.endObject();
    }
    w.endArray();
    w.key("frames_left_out").integer(g.framesLeftOut);
    w.endObject();
    w.endObject();
    ui::writeLayoutJson(w.key("layout"), report);
    w.endObject();
    return QByteArray::fromStdString(w.text()) + '\n';
}

// `poslab figure positions --tokens LAYOUT [--model M] … -o F`: the token sequence and its
// position ids (cli.md "Multimodal positions").
FigureWriter preparePositionsFigure(const std::vector<std::string>& rawArgs) {
    const std::vector<std::string> args = normalise(rawArgs);
    std::vector<OptionSpec> specs = concat(concat(mropeLayoutSpecs(), std::vector<OptionSpec>{configSpec()}),
                                           pictureSpecs(positionsPictureDefaults()));
    for (auto& spec : specs)
        if (spec.name == "tokens") spec.def = "required";
    const Options o =
        figureOptions(args, 1, specs, "figure positions", "poslab figure positions --tokens LAYOUT [--model M] [--merge M] -o FILE",
                      "The token sequence as a strip, coloured by kind (text, image, video), with each token's t, h and w "
                      "ids,\nand each image and video frame as its grid of merged patches with their ids "
                      "(get_rope_index of Qwen2-VL,\nQwen2.5-VL or Qwen3-VL, as `compute positions`). Long runs keep their "
                      "first and last tokens, and say what is left out.");
    std::vector<std::string> rest(args.begin() + 1, args.end());
    const auto config = peekConfig(rest);
    if (config && !config->mrope)
        fail("--config " + o.raw("config") + " has no multimodal positions",
             "a Qwen2-VL, Qwen2.5-VL or Qwen3-VL config (model_type " + config->modelType.toStdString() + " numbers tokens 0…N−1)",
             o.raw("config"));
    const MropeParams params = readMropeLayout(o, mropeOfConfig(config), "figure positions");
    const PictureOutput out = readPictureOutput(o, positionsPictureDefaults());
    const ui::PositionsPicture pic = ui::positionsPictureOf(params);
    if (!pic.error.isEmpty()) fail("invalid --tokens", "a layout the model's rule numbers", s(pic.error));
    return [=] {
        const ui::Theme theme = ui::themeByName(out.theme, out.fontScale);
        const QSize size(out.width, out.height);
        writeFigureFile(out, out.format == ui::ExportFormat::Json
                                 ? positionsJson(pic, size, theme)
                                 : paintedBytes(out.format, size, QStringLiteral("PosLab position ids: ") + ui::mropeModelTitle(pic.model),
                                                [&](QPainter& p) { ui::renderPositions(p, QRectF(0, 0, size.width(), size.height()), pic, theme); }));
    };
}

const PictureDefaults& visionDecayPictureDefaults() {
    static const PictureDefaults d{{ui::ExportFormat::Png, ui::ExportFormat::Svg, ui::ExportFormat::Pdf, ui::ExportFormat::Json},
                                   "the file to write: .png, .svg or .pdf; .json: the scores (score(r, c) = row_term[r] + "
                                   "col_term[c]), where the cells were drawn, and the layout report"};
    return d;
}

// `figure vision-decay -o F.json`: the decay's numbers, the cells as drawn and the layout report.
QByteArray visionDecayJson(const ui::VisionDecayPicture& pic, const QSize& size, const ui::Theme& theme) {
    const QRectF rect(0, 0, size.width(), size.height());
    const ui::LayoutReport report =
        figureLayout(size, QStringLiteral("vision-decay"), [&](QPainter& p, const QRectF& r) { ui::renderVisionDecay(p, r, pic, theme); });
    const ui::VisionDecayGeometry g = ui::visionDecayGeometry(rect, pic, theme);
    const VisionDecay& d = *pic.decay;
    JsonWriter w(JsonWriter::Style::Pretty);
    w.beginObject();
    w.key("format").string("poslab-data");
    w.key("app_version").string(s(ui::poslabVersion()));
    w.key("title").string(s(QStringLiteral("2-D RoPE decay: ") + ui::visionEncoderTitle(pic.params.encoder)));
    w.key("views").beginObject();
    w.key("vision-decay").beginObject();
    w.key("vision").string(enumKey(pic.params.encoder));
    w.key("grid").beginArray().integer(d.grid.t).integer(d.grid.h).integer(d.grid.w).endArray();
    w.key("patch").beginArray().integer(d.row).integer(d.col).endArray();
    w.key("head_dim").integer(pic.params.head_dim);
    w.key("base").number(pic.params.theta);
    w.key("scale").number(d.scale);
    w.key("row_term").beginArray();
    for (Eigen::Index k = 0; k < d.rowTerm.size(); ++k) w.number(d.rowTerm[k]);
    w.endArray();
    w.key("col_term").beginArray();
    for (Eigen::Index k = 0; k < d.colTerm.size(); ++k) w.number(d.colTerm[k]);
    w.endArray();
    w.key("max").number(d.maxValue());
    w.key("min").number(d.minValue());
    w.key("cells");
    writeRect(w, g.cells);
    w.key("cell_px").number(g.cell);
    w.key("colorbar");
    writeRect(w, g.colorbar);
    w.endObject();
    w.endObject();
    ui::writeLayoutJson(w.key("layout"), report);
    w.endObject();
    return QByteArray::fromStdString(w.text()) + '\n';
}

// `poslab figure vision-decay --vision qwen|pixtral --grid TxHxW [--patch R,C] -o F` (cli.md
// "Multimodal positions"): the score from one patch to every patch of the grid.
FigureWriter prepareVisionDecayFigure(const std::vector<std::string>& rawArgs) {
    const std::vector<std::string> args = normalise(rawArgs);
    const TableSelection sel{.only = {"vision", "grid", "head_dim", "base"}, .required = {"vision", "grid"}};
    std::vector<OptionSpec> specs = tableSpecs(visionRopeParamTable(), sel);
    for (auto& spec : specs)
        if (spec.name == "vision" || spec.name == "grid") spec.def = "required";
    specs.push_back({"patch", "R,C", "the chosen patch (the query): its row and column in the grid", "the centre patch (H/2, W/2)",
                     "R,C with 0 <= R < H and 0 <= C < W"});
    specs = concat(specs, pictureSpecs(visionDecayPictureDefaults()));
    Options o(std::vector<std::string>(args.begin() + 1, args.end()), specs, "figure vision-decay");
    if (o.help()) {
        std::fputs(helpText("poslab figure vision-decay --vision qwen|pixtral --grid TxHxW [--patch R,C] -o FILE",
                            "The 2-D decay of a vision encoder's RoPE: the score q·k/√head_dim (q = k = ones) from the chosen "
                            "patch to every\npatch of the grid, as an image over the patch grid (rows follow h, columns w). "
                            "Qwen2-VL's encoder: head_dim/4 frequencies\nfor the rows, as many for the columns; Pixtral's: "
                            "the even frequencies for rows, the odd for columns.",
                            specs)
                       .c_str(),
                   stdout);
        throw CliError{0, ""};
    }
    VisionRopeParams v;
    std::map<std::string, std::string> rename;
    readTable(o, visionRopeParamTable(), sel, v, rename);
    v.merge = 1;                 // not read: the map is over (row, col), whatever order the tokens take
    v.patches_per_side = 4096;   // not read: Pixtral's angles take the row and column, not the id
    check(v.validate(), rename);
    const VisionGrid grid = parseVisionGrid(v.grid).value();
    if (v.encoder == VisionRope::Pixtral && grid.t != 1)
        fail("invalid --grid for --vision pixtral", "1xHxW (Pixtral numbers one image's patches)", v.grid);
    std::int64_t row = grid.h / 2, col = grid.w / 2;
    if (o.has("patch")) {
        const auto rc = parsePatch(o.raw("patch"));
        if (!rc) failParam(rc.error());
        row = rc.value()[0];
        col = rc.value()[1];
    }
    if (auto d = visionDecay(v, row, col); !d) failParam(d.error(), rename);
    const ui::VisionDecayPicture pic = ui::visionDecayPictureOf(v, row, col);
    const PictureOutput out = readPictureOutput(o, visionDecayPictureDefaults());
    return [=] {
        const ui::Theme theme = ui::themeByName(out.theme, out.fontScale);
        const QSize size(out.width, out.height);
        const QByteArray bytes =
            out.format == ui::ExportFormat::Json
                ? visionDecayJson(pic, size, theme)
                : paintedBytes(out.format, size, QStringLiteral("PosLab 2-D RoPE decay: ") + ui::visionEncoderTitle(pic.params.encoder),
                               [&](QPainter& p) { ui::renderVisionDecay(p, QRectF(0, 0, size.width(), size.height()), pic, theme); });
        QString error;
        if (bytes.isEmpty()) failIo("the " + s(ui::exportFormatKey(out.format)) + " writer produced nothing");
        if (!ui::writeFileAtomically(out.path, bytes, &error)) failIo(s(error));
    };
}

// `poslab figure demo KEY -o F`: the demonstration's slide as presentation mode draws it (the
// demonstration's scene on the left, its numbers on the right), one slide of its own.
FigureWriter prepareDemoFigure(const std::vector<std::string>& rawArgs) {
    const std::vector<std::string> args = normalise(rawArgs);
    if (args.size() < 2) fail("missing demonstration KEY for figure demo", demoKeyList(), "nothing");
    if (args[1] == "--help" || args[1] == "-h") {
        std::fputs("Usage: poslab figure demo KEY -o FILE [--width W] [--height H] [--theme T] [--force]\n\n"
                   "Draw a demonstration (`poslab demos` lists the keys) as its slide: the demonstration's scene and its "
                   "numbers, PNG, SVG or PDF by the file's extension; .json writes the slide's layout report.\n",
                   stdout);
        throw CliError{0, ""};
    }
    const DemoId id = demoOrFail(args[1]);
    const std::vector<OptionSpec> specs = pictureSpecs(demoPictureDefaults());
    const Options o = figureOptions(args, 2, specs, "figure demo " + demoInfo(id).key, "poslab figure demo " + demoInfo(id).key + " -o FILE",
                                    s(ui::demoTitle(id)));
    const PictureOutput out = readPictureOutput(o, demoPictureDefaults());
    return [=] {
        const int width = out.width, height = out.height;
        const QString theme = out.theme;

        ui::Session deck;
        deck.scenes = {ui::demoSlide(id)};
        deck.current = 0;
        ui::PresentationWindow slide(deck);
        slide.setThemeName(theme);
        slide.setKeyHints(false);
        slide.resize(width, height);
        const QSize size(width, height);
        QByteArray bytes;
        QString error;
        if (out.format == ui::ExportFormat::Json) {
            // The slide's layout report, as `figure all` writes a figure's (cli.md "Added in 0.4").
            JsonWriter w(JsonWriter::Style::Pretty);
            w.beginObject();
            w.key("format").string("poslab-data");
            w.key("app_version").string(s(ui::poslabVersion()));
            w.key("title").string(s(ui::demoTitle(id)));
            w.key("demo").string(demoInfo(id).key);
            w.key("width").integer(width);
            w.key("height").integer(height);
            w.key("theme").string(s(theme));
            ui::writeLayoutJson(w.key("layout"), slide.slideLayout(size));
            w.endObject();
            bytes = QByteArray::fromStdString(w.text()) + '\n';
        } else if (out.format == ui::ExportFormat::Png) {
            const auto png = ui::encodePng(slide.renderSlide(size), {}, {}, {}, &error);
            if (!png) failIo(s(error));
            bytes = *png;
        } else {
            bytes = paintedBytes(out.format, size, QStringLiteral("PosLab demonstration: ") + ui::demoTitle(id),
                                 [&](QPainter& p) { slide.paintSlide(p, size); });
        }
        writeFigureFile(out, bytes);
    };
}

// `poslab figure deck [--session FILE] [--theme T] [--width W --height H] [--notes] -o F.pdf|DIR/`
// (cli.md "Figures and the deck"): every slide of the deck (the session's, else the default
// lecture) as presentation mode shows it to the audience; one PDF page per slide, or one PNG per
// slide in DIR (DIR/01-KEY.png, …); --notes sets each slide's speaker notes under it.
FigureWriter prepareDeckFigure(const std::vector<std::string>& rawArgs) {
    const std::vector<std::string> args = normalise(rawArgs);
    static const PictureDefaults defaults{{ui::ExportFormat::Pdf},
                                          "F.pdf: one page per slide (text as text); DIR/: one PNG per slide, DIR/01-KEY.png, …",
                                          1920,
                                          1080,
                                          "projector",
                                          "projector (high contrast, large type, as presented), light or dark",
                                          false};
    std::vector<OptionSpec> specs = pictureSpecs(defaults);
    const std::string validOutput = "a file name ending in .pdf, or a folder DIR/ (one PNG per slide)";
    specs.front().valid = validOutput;
    specs.insert(specs.begin() + 1, OptionSpec{"session", "FILE", "the deck of a saved session (.poslab) or of a figure PosLab exported (a deck PDF included)",
                                               "the default lecture", "a readable session or exported figure"});
    specs.push_back(flagSpec("notes", "each slide's speaker notes under it (a handout for the lecturer)"));
    const Options o = figureOptions(args, 1, specs, "figure deck",
                                    "poslab figure deck [--session FILE] [--theme T] [--width W --height H] [--notes] -o F.pdf|DIR/",
                                    "Every slide of the deck (the session's, else the default lecture) as presentation mode shows "
                                    "it to the audience:\none PDF page per slide, text as text, the deck in the PDF's metadata "
                                    "(--session F.pdf reads it back);\nor, with -o DIR/, one PNG per slide: DIR/01-KEY.png, "
                                    "DIR/02-KEY.png, … (KEY: the demonstration's key, else the title).");
    o.require("output");
    const QString output = q(o.raw("output"));
    ui::DeckExportOptions opt;
    opt.slide = QSize(int(o.has("width") ? o.integer("width", ui::kMinExportPixels, ui::kMaxExportPixels) : defaults.width),
                      int(o.has("height") ? o.integer("height", ui::kMinExportPixels, ui::kMaxExportPixels) : defaults.height));
    opt.theme = q(o.has("theme") ? o.choice("theme", themeChoices(), defaults.theme) : defaults.theme);
    opt.notes = o.has("notes");
    const bool force = o.has("force");

    // Where it goes: a folder (DIR/, or an existing folder) for PNGs, else a .pdf file; checked
    // before anything is drawn.
    const QFileInfo info(output);
    const bool folder = output.endsWith(QLatin1Char('/')) || info.isDir();
    if (output.isEmpty() || (!folder && ui::exportFormatFromPath(output) != ui::ExportFormat::Pdf))
        fail("invalid --output", validOutput, o.raw("output"));
    // The nearest folder that exists must be a writable folder (a missing DIR/ is made; a PDF's
    // folder must exist).
    QFileInfo existing(folder ? QFileInfo(QDir::cleanPath(info.absoluteFilePath())) : QFileInfo(info.absolutePath()));
    if (folder)
        while (!existing.exists() && !existing.isRoot() && existing.absoluteFilePath() != existing.absolutePath())
            existing = QFileInfo(existing.absolutePath());
    if (!existing.exists())
        fail("invalid --output", "a file in an existing folder", o.raw("output") + " (no folder " + s(existing.absoluteFilePath()) + ")");
    if (!existing.isDir()) fail("invalid --output", "a path through folders", o.raw("output") + " (" + s(existing.absoluteFilePath()) + " is a file)");
    if (!existing.isWritable()) fail("invalid --output", "a writable folder", o.raw("output") + " (" + s(existing.absoluteFilePath()) + " is read-only)");

    QStringList warnings;
    const ui::Session deck = o.has("session") ? loadSessionArg(q(o.raw("session")), warnings) : ui::demoDeck();
    if (auto problem = ui::deckExportProblem(deck, opt)) {
        const QString p = *problem;
        if (deck.scenes.empty() || p.startsWith(QStringLiteral("the deck")))
            fail("invalid deck", "a deck of 1 to " + std::to_string(ui::kMaxSessionScenes) + " slides", s(p));
        fail("invalid --width/--height", s(p.section(QStringLiteral(": "), 1).section(QStringLiteral(", got "), 0, 0)),
             s(p.section(QStringLiteral(", got "), -1)));
    }
    QStringList targets;
    if (folder)
        for (const QString& name : ui::deckPngNames(deck)) targets << QDir(output).filePath(name);
    else
        targets << output;
    if (!force)
        for (const QString& t : targets)
            if (QFileInfo::exists(t)) fail("output file exists", "pass --force to overwrite it", s(t));
    return [=] {
        QString error;
        if (folder) {
            if (!ui::writeDeckPngs(output, deck, opt, &error)) failIo(s(error));
        } else {
            const auto bytes = ui::deckPdf(deck, opt, &error);
            if (!bytes) failIo("cannot export " + s(output) + ": " + s(error));
            if (!ui::writeFileAtomically(output, *bytes, &error)) failIo(s(error));
        }
        printWarnings(warnings);
    };
}

// The figures that are not views of one scene (`figure demo KEY`, `figure layers`, `figure deck`):
// their writer, once their options are checked; nullptr for a view.
FigureWriter prepareSpecialFigure(const std::vector<std::string>& args) {
    if (args.empty()) return nullptr;
    if (args.front() == "demo") return prepareDemoFigure(args);
    if (args.front() == "layers") return prepareLayersFigure(args);
    if (args.front() == "positions") return preparePositionsFigure(args);
    if (args.front() == "vision-decay") return prepareVisionDecayFigure(args);
    if (args.front() == "deck") return prepareDeckFigure(args);
    return nullptr;
}

// Qt's own chatter (e.g. "XDG_RUNTIME_DIR not set", libpng's warnings through Qt's image
// plugin) would break the one-line error contract; it is shown only with POSLAB_DEBUG=1, and
// a fatal message (which ends the process) as its one line.
void quietMessages(QtMsgType type, const QMessageLogContext&, const QString& msg) {
    if (type == QtFatalMsg) std::fprintf(stderr, "poslab: error: internal failure: %s\n", oneLine(msg.toStdString()).c_str());
    else if (qEnvironmentVariableIsSet("POSLAB_DEBUG")) std::fprintf(stderr, "poslab: qt: %s\n", oneLine(msg.toStdString()).c_str());
}

void ensureApplication(std::unique_ptr<QApplication>& app) {
    if (QCoreApplication::instance()) return;
    // Figures never need a display; the offscreen platform also makes them identical whether or
    // not one is present. An explicit QT_QPA_PLATFORM is respected.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "poslab";
    static char* argv[] = {name, nullptr};
    app = std::make_unique<QApplication>(argc, argv);
}

// A figure of one view that the computation refused outright (every configuration or panel
// carries an error, e.g. past the work limit) would be a picture of an error message: exit 2 with
// that message, and no file. `line` is "VIEW: PARAM: VALID, got VALUE" (exportBytes' refusals).
[[noreturn]] void failRefusedView(const QString& line) {
    const std::string l = s(line);
    const auto firstColon = l.find(": ");
    const std::string view = l.substr(0, firstColon);
    std::string rest = firstColon == std::string::npos ? l : l.substr(firstColon + 2);
    std::string what = "the " + view + " view cannot be computed";
    const auto paramColon = rest.find(": ");
    if (paramColon != std::string::npos && rest.find(' ') > paramColon) {   // "length: …": the option
        what = "invalid --" + kebab(rest.substr(0, paramColon)) + " for the " + view + " view";
        rest = rest.substr(paramColon + 2);
    }
    const auto got = rest.rfind(", got ");
    if (got == std::string::npos) fail(what, rest, "this scene");
    fail(what, rest.substr(0, got), rest.substr(got + 6));
}

void render(const Job& job) {
    QString error;
    QStringList refusals;
    const auto bytes = ui::exportBytes(job.scene, job.request, &error, &refusals);
    if (!bytes) failIo("cannot export " + s(job.output) + ": " + s(error));
    if (job.request.view && !refusals.isEmpty()) failRefusedView(refusals.front());
    if (!ui::writeFileAtomically(job.output, *bytes, &error)) failIo(s(error));
}

std::vector<std::vector<std::string>> batchEntries(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) failIo("cannot read --batch file '" + s(path) + "': " + s(f.errorString()));
    QJsonParseError pe{};
    const QJsonDocument doc = QJsonDocument::fromJson(f.read(64LL * 1024 * 1024), &pe);
    const std::string valid = "a JSON object {\"figures\": [{\"view\": …, \"output\": …}, …]}";
    if (pe.error != QJsonParseError::NoError)
        fail("invalid --batch file " + s(path), valid, s(pe.errorString()) + " at byte " + std::to_string(pe.offset));
    QJsonArray figures;
    if (doc.isArray()) figures = doc.array();
    else if (doc.isObject() && doc.object().value(QStringLiteral("figures")).isArray()) figures = doc.object().value(QStringLiteral("figures")).toArray();
    else fail("invalid --batch file " + s(path), valid, "no \"figures\" array");
    if (figures.isEmpty()) fail("invalid --batch file " + s(path), "at least one figure", "none");
    const QDir base = QFileInfo(path).absoluteDir();
    const auto resolve = [&](const QString& p) { return QDir::isAbsolutePath(p) ? p : base.filePath(p); };
    std::vector<std::vector<std::string>> out;
    for (qsizetype k = 0; k < figures.size(); ++k) {
        const std::string where = "batch figure " + std::to_string(k);
        if (!figures[k].isObject()) fail("invalid " + where, "an object {\"view\": …, \"output\": …}", "not an object");
        const QJsonObject e = figures[k].toObject();
        static const std::set<QString> known = {"view", "key", "output", "session", "scene", "width", "height", "dpi",
                                                "theme", "font_scale", "args", "force"};
        for (auto it = e.begin(); it != e.end(); ++it)
            if (!known.count(it.key()))
                fail("unknown key \"" + s(it.key()) + "\" in " + where,
                     "view, key (demo), output, session, scene, width, height, dpi, theme, font_scale, args, force", s(it.key()));
        const auto str = [&](const char* key) -> std::optional<std::string> {
            const QJsonValue v = e.value(QLatin1String(key));
            if (v.isUndefined()) return std::nullopt;
            if (!v.isString()) fail("invalid \"" + std::string(key) + "\" in " + where, "a string", "a non-string");
            return s(v.toString());
        };
        const auto numText = [&](const char* key) -> std::optional<std::string> {
            const QJsonValue v = e.value(QLatin1String(key));
            if (v.isUndefined()) return std::nullopt;
            if (!v.isDouble()) fail("invalid \"" + std::string(key) + "\" in " + where, "a number", "a non-number");
            return jsonNumber(v.toDouble());
        };
        std::vector<std::string> args;
        const auto view = str("view");
        if (!view) fail("missing \"view\" in " + where, viewList(), "nothing");
        // "demo KEY" as the command line writes it, or "view": "demo" with "key": KEY.
        const QStringList words = q(*view).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (words.isEmpty()) fail("invalid \"view\" in " + where, viewList(), "an empty name");
        for (const QString& word : words) args.push_back(s(word));
        if (auto key = str("key")) {
            if (args.front() != "demo" || args.size() > 1)
                fail("invalid \"key\" in " + where, "a demonstration KEY with \"view\": \"demo\"", *key);
            args.push_back(*key);
        }
        const auto output = str("output");
        if (!output) fail("missing \"output\" in " + where, "a file name", "nothing");
        args.push_back("--output=" + s(resolve(q(*output))));
        if (auto v = str("session")) args.push_back("--session=" + s(resolve(q(*v))));
        if (auto v = numText("scene")) args.push_back("--scene=" + *v);
        if (auto v = numText("width")) args.push_back("--width=" + *v);
        if (auto v = numText("height")) args.push_back("--height=" + *v);
        if (auto v = numText("dpi")) args.push_back("--dpi=" + *v);
        if (auto v = str("theme")) args.push_back("--theme=" + *v);
        if (auto v = numText("font_scale")) args.push_back("--font-scale=" + *v);
        if (e.value(QStringLiteral("force")).toBool()) args.push_back("--force");
        const QJsonValue extra = e.value(QStringLiteral("args"));
        if (!extra.isUndefined()) {
            if (!extra.isArray()) fail("invalid \"args\" in " + where, "an array of strings", "not an array");
            // Every path an option names (--config, --session, --q/--k/--qk, -o) is relative to the
            // batch file, as "output" and "session" are ("-": standard input).
            static const std::set<std::string> pathOptions = {"--config", "--session", "--q", "--k", "--qk", "--output", "-o"};
            bool pathNext = false;
            for (const auto& a : extra.toArray()) {
                if (!a.isString()) fail("invalid \"args\" in " + where, "an array of strings", "a non-string");
                std::string arg = s(a.toString());
                const auto eq = arg.find('=');
                if (pathNext && arg != "-") arg = s(resolve(q(arg)));
                else if (!pathNext && arg.rfind("--", 0) == 0 && eq != std::string::npos && pathOptions.count(arg.substr(0, eq)) &&
                         eq + 1 < arg.size() && arg.substr(eq + 1) != "-")
                    arg = arg.substr(0, eq + 1) + s(resolve(q(arg.substr(eq + 1))));
                pathNext = !pathNext && pathOptions.count(arg) != 0;
                args.push_back(arg);
            }
        }
        out.push_back(std::move(args));
    }
    return out;
}

int runBatch(const std::vector<std::string>& args, std::unique_ptr<QApplication>& app, QStringList* warnings) {
    std::string file;
    bool force = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--batch") {
            if (i + 1 >= args.size()) fail("missing value for --batch", "a JSON FILE listing figures", "nothing");
            file = args[++i];
        } else if (a.rfind("--batch=", 0) == 0) {
            file = a.substr(8);
        } else if (a == "--force") {
            force = true;
        } else {
            fail("unexpected argument with --batch", "--batch FILE [--force]", a);
        }
    }
    if (file.empty()) fail("invalid --batch", "a JSON FILE listing figures", "an empty name");
    ensureApplication(app);
    // Every entry is checked (its writer prepared) before anything is written.
    std::vector<Job> jobs;
    std::vector<FigureWriter> writers;
    std::set<QString> outputs;
    const auto entries = batchEntries(q(file));
    for (std::size_t k = 0; k < entries.size(); ++k) {
        QString output;
        try {
            if (FigureWriter special = prepareSpecialFigure(withForce(entries[k], force))) {
                writers.push_back(std::move(special));
                for (const auto& a : entries[k])
                    if (a.rfind("--output=", 0) == 0) output = q(a.substr(9));
            } else {
                jobs.push_back(prepare(entries[k], force));
                writers.push_back([job = jobs.back()] { render(job); });
                output = jobs.back().output;
            }
        } catch (CliError& e) {
            e.line = "batch figure " + std::to_string(k) + ": " + e.line;
            throw;
        }
        const QString canonical = QFileInfo(output).absoluteFilePath();
        if (!outputs.insert(canonical).second)
            fail("batch figure " + std::to_string(k) + " writes the same file as an earlier one",
                 "a different output for each figure", s(output));
    }
    for (const auto& write : writers) write();
    for (const auto& job : jobs) reportWarnings(job, warnings);
    return 0;
}

}  // namespace

namespace {
// The figure command, throwing CliError (code 0 after --help); warnings go to `warnings` when
// given, else to stderr.
int figureCommand(const std::vector<std::string>& args, std::unique_ptr<QApplication>& app, QStringList* warnings) {
    const bool batch = std::any_of(args.begin(), args.end(), [](const std::string& a) {
        return a == "--batch" || a.rfind("--batch=", 0) == 0;
    });
    if (batch) return runBatch(args, app, warnings);
    // The application first: reading a figure's embedded scene may need image plugins. A --help
    // needs none (the Python module reads the option table at import without making one).
    const bool help = std::any_of(args.begin(), args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; });
    if (!help) ensureApplication(app);
    if (FigureWriter special = prepareSpecialFigure(args)) {
        special();
        return 0;
    }
    const Job job = prepare(args, false);
    render(job);
    reportWarnings(job, warnings);
    return 0;
}

struct QuietQt {
    QtMessageHandler previous = qInstallMessageHandler(quietMessages);
    ~QuietQt() { qInstallMessageHandler(previous); }
};
}  // namespace

int runFigure(const QStringList& list) {
    std::vector<std::string> args;
    for (const auto& a : list) args.push_back(a.toStdString());
    std::unique_ptr<QApplication> app;
    const QuietQt quiet;
    try {
        return figureCommand(args, app, nullptr);
    } catch (const CliError& e) {
        if (e.code == 0) return 0;   // --help
        std::fflush(stdout);
        std::fprintf(stderr, "poslab: error: %s\n", oneLine(e.line).c_str());
        return e.code;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "poslab: error: out of memory\n");
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "poslab: error: internal failure: %s\n", oneLine(e.what()).c_str());
        return 1;
    }
}

QStringList runFigureInProcess(const std::vector<std::string>& args) {
    std::unique_ptr<QApplication> app;
    const QuietQt quiet;
    QStringList warnings;
    figureCommand(args, app, &warnings);
    return warnings;
}

}  // namespace poslab::cli
