#pragma once
// The method options shared by `poslab compute scores/decay` and `poslab figure`: their option
// tables (names, defaults, valid ranges for --help and errors) and the readers that set a
// ScoreParams from parsed options. Only the options given are written; the other fields keep
// their values (the defaults, a preset's or a session's).
#include "app/cli_common.h"
#include "core/method.h"
#include "ui/io/presets.h"
#include "ui/io/modelconfig.h"
#include "ui/io/qkfile.h"

#include <limits>
#include <map>
#include <set>
#include <optional>
#include <string>
#include <vector>

namespace poslab::cli {

// The model presets are configuration files read in ui/io (ui/io/presets.h).
using ui::findPreset;
using ui::ModelPreset;
using ui::modelPresets;

inline constexpr std::int64_t kI64Min = std::numeric_limits<std::int64_t>::min();
inline constexpr std::int64_t kI64Max = std::numeric_limits<std::int64_t>::max();

OptionSpec flag(const std::string& name, const std::string& help);

// ----- options generated from the parameter table (core/param.h) ---------------------------------
// Every parameter is an option `--` + kebab-case name with the declaration's help, default and
// valid range; a Bool is a flag that sets the value its default is not (--name or --no-name).

std::string argOf(const ParamInfo& info);
std::string flagName(const ParamInfo& info, bool defaultOn);

// Which entries of a table a command takes, and under which names.
struct TableSelection {
    std::string_view group{};                // the entries of this group ("" = the struct's own)
    unsigned skipFlags = kParamShared;       // leave out entries with these flags ...
    std::set<std::string> only{};            // ... or, when not empty, take exactly these names
    std::set<std::string> skip{};            // names the command sets otherwise (--seed sets every table seed)
    std::set<std::string> required{};         // names whose option must be given
    std::set<std::string> reserved{};         // options the command uses otherwise: prefixed
    std::string prefix{};                    // "t5-" (T5's --t5-max-distance in decay)
    std::set<std::string> alwaysRead{};      // names the command reads whatever the table's `relevant`
                                             // says (contributions prints max_positions)
    bool takes(std::string_view g, const ParamInfo& i) const {
        if (g != group) return false;
        if (!only.empty()) return only.count(std::string(i.name)) != 0;
        if (skip.count(std::string(i.name))) return false;
        return (i.flags & skipFlags) == 0;
    }
    std::string option(const ParamInfo& i) const {
        const std::string o = i.option();
        return reserved.count(o) ? prefix + o : o;
    }
};

template <class S>
std::vector<OptionSpec> tableSpecs(const ParamTable<S>& table, const TableSelection& sel) {
    std::vector<OptionSpec> out;
    const S defaults{};
    for (const auto& p : table) {
        if (!sel.takes(p.group, p.info)) continue;
        const ParamValue def = p.get(defaults);
        if (p.info.kind == ParamKind::Bool) {
            const bool on = std::get<bool>(def);
            out.push_back(flag(flagName(p.info, on), (on ? "turns off: " : "") + std::string(p.info.help)));
            continue;
        }
        out.push_back({sel.option(p.info), argOf(p.info), std::string(p.info.help),
                       sel.required.count(std::string(p.info.name)) ? "required" : p.info.defaultText(def), p.info.valid()});
    }
    return out;
}

// How an option that sets `v` of parameter `info` is written: "--scaling yarn", "--causal",
// "--no-truncate".
std::string optionWithValue(const ParamInfo& info, const std::string& option, const ParamValue& v, const ParamValue& def);

// An option given for a parameter that does not matter for `s` (its declaration's `relevant`:
// YaRN's --beta-fast under --scaling llama3, --min-timescale with Vaswani frequencies, a --factor
// without scaling) cannot change the output: exit 2 naming it and the values of the table that
// would make it read (cli.md "Added in 0.4": nothing silently ignored).
template <class S>
void refuseIrrelevant(const Options& o, const ParamTable<S>& table, const TableSelection& sel, const S& s) {
    const S defaults{};
    for (const auto& p : table) {
        if (!sel.takes(p.group, p.info) || p.matters(s) || sel.alwaysRead.count(std::string(p.info.name))) continue;
        const std::string name = p.info.kind == ParamKind::Bool ? flagName(p.info, std::get<bool>(p.get(defaults)))
                                                                : sel.option(p.info);
        if (!o.has(name)) continue;
        const std::string given = "--" + name + (p.info.kind == ParamKind::Bool ? "" : " " + o.raw(name));
        std::string when, now;
        for (const auto& e : enablingValues(table, p, s)) {
            const ParamInfo& qi = e.param->info;
            const ParamValue qdef = e.param->get(defaults);
            const std::string qopt = sel.option(qi);
            std::string alternatives;
            for (std::size_t k = 0; k < e.values.size(); ++k) {
                const std::string text = qi.kind == ParamKind::Bool ? optionWithValue(qi, qopt, e.values[k], qdef)
                                                                    : formatParamValue(qi, e.values[k]);
                alternatives += (k == 0 ? "" : k + 1 == e.values.size() ? " or " : ", ") + text;
            }
            when += (when.empty() ? "" : "; or with ") + (qi.kind == ParamKind::Bool ? alternatives : "--" + qopt + " " + alternatives);
            now += " with " + optionWithValue(qi, qopt, e.param->get(s), qdef);
        }
        if (!p.whenText.empty()) fail("--" + name + " cannot change the output", "it is read only " + std::string(p.whenText), given + now);
        if (when.empty()) fail("--" + name + " cannot change the output", "it is not read with these parameters", given);
        fail("--" + name + " cannot change the output", "it is read only with " + when, given + now);
    }
}

// Sets the entries of `group` given as options; the others keep their values (defaults, a
// preset's or a session's). A value also resets the parameter it declares `resets` unless that
// one is given too (then both stand and validate() reports the conflict).
// Then refuses what cannot change the output (refuseIrrelevant).
template <class S>
void readTable(const Options& o, const ParamTable<S>& table, const TableSelection& sel, S& s,
               std::map<std::string, std::string>& rename) {
    auto given = [&](const ParamInfo& info) { return o.has(sel.option(info)) || o.has("no-" + info.option()); };
    for (const auto& p : table) {
        if (!sel.takes(p.group, p.info)) continue;
        const std::string name = sel.option(p.info);
        if (sel.required.count(std::string(p.info.name))) o.require(name);
        if (name != p.info.option()) rename[std::string(p.info.name)] = name;
        ParamValue v;
        if (p.info.kind == ParamKind::Bool) {
            const bool on = std::get<bool>(p.get(S{}));
            const std::string f = flagName(p.info, on);
            if (!o.has(f)) continue;
            v = !on;
        } else {
            if (!o.has(name)) continue;
            auto r = parseParamText(p.info, o.raw(name));
            if (!r) fail("invalid --" + name, p.info.valid(), o.raw(name));
            v = r.value();
        }
        bool reset = true;
        if (!p.info.resets.empty())
            for (const auto& q : table)
                if (q.group == p.group && q.info.name == p.info.resets && given(q.info)) reset = false;
        if (auto e = setParam(table, s, p, v, reset)) failParam(*e, rename);
    }
    refuseIrrelevant(o, table, sel, s);
}


std::vector<OptionSpec> concat(std::vector<OptionSpec> a, const std::vector<OptionSpec>& b);
int toInt(const Options& o, const std::string& name, int def);

// The option of one of ScoreParams' own parameters (dim, content, seed, precision, ...), with its
// range from the parameter table; `def` is what --help shows as the default.
OptionSpec paramSpec(std::string_view name, const std::string& def, const std::string& help = {});
OptionSpec precisionSpec();
// Sets those of ScoreParams' own parameters (by name) that were given as options.
void readOwnOptions(const Options& o, std::initializer_list<std::string_view> names, ScoreParams& p);
Precision precisionOf(const Options& o);

// RoPE: frequency options (with --head-dim for `frequencies`/`rope`), application options.
std::vector<OptionSpec> ropeFrequencySpecs(bool withHeadDim);
std::vector<OptionSpec> ropeApplySpecs();
void readRope(const Options& o, RopeParams& r);
// --max-positions where the frequencies do not read it (RopeParams::readsMaxPositions) and the
// command neither prints nor draws the context: exit 2 naming it and when it is read.
void refuseUnreadMaxPositions(const Options& o, const RopeParams& r);

std::vector<OptionSpec> sinusoidalMethodSpecs();
void readSinusoidal(const Options& o, SinusoidalParams& p);

// The method keys of --method, and "one of nope, sinusoidal, …" (the table's choices).
extern const std::vector<std::string> kMethods;
std::string methodList();

// Options of one method (decay and figure name T5's max distance --t5-max-distance, since
// --max-distance is the decay range there).
std::vector<OptionSpec> methodSpecs(Method m, bool decay);
// Sets method m's own parameters from the options given; `rename` gets the core-field → option
// renames its errors need.
// `alwaysRead`: parameters the command reads whatever the table says (TableSelection::alwaysRead).
void readMethodOptions(const Options& o, Method m, bool decay, ScoreParams& p, std::map<std::string, std::string>& rename,
                       const std::set<std::string>& alwaysRead = {});

// An option's value before the full parse (--method and --preset decide the options).
std::optional<std::string> peekOption(const std::vector<std::string>& args, const std::string& name);
// The preset with that key, or exit 2 listing the keys.
const ModelPreset& presetOrFail(const std::string& key);

// --config FILE (cli.md "Added in 0.2"): a Hugging Face config.json or a GGUF file.
OptionSpec configSpec();
// The model configuration named by --config in args (read before the full parse), or nullopt.
// A file that cannot be read, is not such a file or holds an invalid value → exit 2:
// "--config FILE: <key> must be <valid>, got <value>". With --preset too → exit 2 (conflict).
std::optional<ui::ModelFileConfig> peekConfig(const std::vector<std::string>& args);
// Every --config in args, in order (figure: several make compare mode), each read as peekConfig
// reads one; with --preset too → exit 2.
std::vector<std::pair<std::string, ui::ModelFileConfig>> peekConfigs(const std::vector<std::string>& args);
// The RoPE parameters of a configuration (head_dim synchronised), or exit 2 when the file's
// model does not use RoPE.
RopeParams ropeOfConfig(const ui::ModelFileConfig& c, const std::string& path);

// --q FILE --k FILE / --qk FILE (cli.md "Real queries and keys"): the options, and the rows they
// name (head = --head, default 0), or nullptr when none is given. --qk with --q/--k, one of
// --q/--k alone, or --content beside them → exit 2; a file that cannot be opened → exit 1; a bad
// file → exit 2, "--q FILE: <file>: <what is wrong>, <valid>, got <value>".
std::vector<OptionSpec> qkSpecs();
std::shared_ptr<const ContentSource> readQk(const Options& o);

// Query and key rows handed over in memory (the Python module's q=/k= arrays): while alive on
// this thread, a --q or --k whose value is the label of one of `buffers` ("q (array)") reads that
// buffer in place (no file, no copy), with the files' checks and messages, the label leading
// them ("k (array): shape of k, ..."). The buffers must outlive the command.
struct QkArrays {
    std::vector<ui::TensorBuffer> buffers;
    QkArrays();
    ~QkArrays();
    QkArrays(const QkArrays&) = delete;
    QkArrays& operator=(const QkArrays&) = delete;

private:
    QkArrays* previous_;
};
// ----- layers (cli.md "Added in 0.3") -----------------------------------------------------------
// --layer N (the model group's `layer`, from the table) and --layer-type T (a chooser: the first
// layer of that type).
std::vector<OptionSpec> layerSpecs();
// The attention options of the table's "attention" group: --window, --chunk, --nope,
// --temperature-tuning, --qk-norm, --norm-eps, --softmax-scale, --sink.
std::vector<OptionSpec> attentionSpecs();
// Shows the layer --layer / --layer-type choose (default 0) of a configuration's layer pattern:
// applyLayer(). Exit 2 for --layer or --layer-type without --config, both together, a layer past
// the end or a type the model does not have.
void selectLayer(const Options& o, ScoreParams& p, bool hasConfig);
// Sets the attention options given (over a layer's values).
void readAttention(const Options& o, ScoreParams& p, std::map<std::string, std::string>& rename);
// "layer": N, "layer_type": "full_attention"|..., "rope": bool of the layer shown.
void writeLayerKeys(JsonWriter& j, const ScoreParams& p);
// The fields of layer `i` of a pattern as `compute layers` prints them (cli.md "Added in 0.3"):
// "index", "layer_type", "rope", "rope_type", "rope_theta", "factor"?, "window"?, "chunk"?,
// "temperature_tuning"?, "qk_norm"?, "softmax_scale" (dim: the head dimension), written into the
// object already open. `figure layers -o F.json` writes the same and what it plots.
void writeLayerFields(JsonWriter& j, const LayerPattern& m, std::int64_t i, int dim);

}  // namespace poslab::cli
