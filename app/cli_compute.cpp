// `poslab compute WHAT`: parse the options, build the core's parameter structs, validate them
// through the core, call it, print one JSON object. No maths here.
#include "app/cli_compute.h"

#include "app/cli_common.h"
#include "app/cli_demo.h"
#include "app/cli_method.h"
#include "app/cli_positions.h"
#include "core/contributions.h"
#include "core/decay.h"
#include "ui/io/presets.h"
#include "core/scores.h"

#include <climits>
#include <cmath>
#include <cstdio>
#include <functional>
#include <set>

namespace poslab::cli {

namespace {

constexpr std::int64_t kMaxFullScores = 2048;   // N for a printed N × N matrix
constexpr std::int64_t kMaxBinaryScores = 5792;   // N for the matrix as numbers: N² <= 2^25 (core/scores.h)

using Args = std::vector<std::string>;

// One `compute WHAT`. Most share one skeleton (runCompute): their options parsed against `specs`,
// --help from `usage`, `description` and the options, then `write` fills the one JSON object that
// is printed. A subcommand whose options depend on what is given (scores, decay and contributions:
// the method's; demo: the demonstration's) parses and prints in `run` instead.
struct Subcommand {
    std::string name;      // WHAT
    std::string summary;   // its line in `compute --help`
    std::function<std::vector<OptionSpec>()> specs;
    std::string usage, description;
    std::function<void(const Options&, const Args&, Json&)> write;
    std::function<int(const Args&)> run;
    std::string argument;  // shown after the name in `compute --help` ("demo KEY")
};

void printHelpAndExit(const std::string& usage, const std::string& description, const std::vector<OptionSpec>& specs) {
    const std::string t = helpText(usage, description, specs);
    std::fwrite(t.data(), 1, t.size(), stdout);
}

// ----- frequencies / rope ------------------------------------------------------------------------

// --config's RoPE parameters (or the defaults with --head-dim required), then the options given.
// With a config, `layer` receives the layer shown (--layer / --layer-type).
RopeParams ropeFromOptions(const std::vector<std::string>& args, const Options& o, std::optional<ScoreParams>* layer = nullptr) {
    RopeParams r;
    if (const auto c = peekConfig(args)) {
        ui::ModelFileConfig chosen = *c;
        selectLayer(o, chosen.params, true);
        r = ropeOfConfig(chosen, o.raw("config"));
        if (layer) *layer = chosen.params;
    } else {
        ScoreParams none;
        selectLayer(o, none, false);   // --layer without --config: exit 2
        o.require("head-dim");
    }
    r.head_dim = toInt(o, "head-dim", r.head_dim);
    readRope(o, r);
    check(r.validate());
    return r;
}

std::vector<OptionSpec> frequenciesSpecs() {
    auto specs = ropeFrequencySpecs(true);
    specs.push_back(precisionSpec());
    specs.push_back(configSpec());
    specs = concat(specs, layerSpecs());
    specs = concat(specs, mropeFrequencySpecs());
    return specs;
}

void writeFrequencies(const Options& o, const Args& args, Json& j) {
    if (visionRequested(o)) {
        std::string given;
        for (const auto& s : frequenciesSpecs())
            if (s.name != "head-dim" && s.name != "base" && s.name != "precision" && s.name != "vision" && o.has(s.name))
                given += (given.empty() ? "--" : ", --") + s.name;
        if (!given.empty())
            fail(given + " cannot change the output with --vision", "--vision reads --head-dim, --base and --precision only", given);
        writeVisionFrequencies(o, j);
        return;
    }
    std::optional<ScoreParams> layer;
    const RopeParams r = ropeFromOptions(args, o, &layer);
    const RopeFrequencies f = ropeFrequencies(r);
    const auto axes = frequencyAxes(o, mropeOfConfig(peekConfig(args)), static_cast<int>(f.inv_freq.size()));
    if (layer) writeLayerKeys(j, *layer);
    j.key("rotary_dim").integer(f.rotary_dim);
    j.key("inv_freq").vector(f.inv_freq);
    j.key("wavelength").vector(f.wavelength());
    j.key("attention_factor").number(f.attention_factor);
    if (axes) j.key("axis").integers(std::vector<std::int64_t>(axes->begin(), axes->end()));
}

// With float16 angles a position above 65504 is inf in the model (cos/sin NaN): rejected.
void checkAnglePositions(const RopeParams& r, const Positions& pos, const Options& o) {
    const std::int64_t limit = ropeMaxFinitePosition(r);
    for (std::int64_t p : pos)
        if (p > limit)
            fail("invalid --positions",
                 "integers up to " + formatInt(limit) +
                     " with --angle-precision float16 (float16 holds no larger position; the model's cos/sin are NaN)",
                 o.raw("positions"));
}

void checkFiniteResult(const Matrix& m, const std::string& what) {
    for (Eigen::Index i = 0; i < m.size(); ++i)
        if (!std::isfinite(m.data()[i]))
            fail("invalid " + what, "values whose result stays finite in the dtype (float16: |value| <= 65504)",
                 formatNumber(m.data()[i]));
}

std::vector<OptionSpec> ropeSpecs() {
    auto specs = concat(ropeFrequencySpecs(true), ropeApplySpecs());
    specs.insert(specs.end(), {
        {"positions", "LIST|RANGE", "one position per output row", "required (or --tokens)", "integers from 0 to 2^40"},
        {"vector", "LIST", "one head_dim vector rotated at every position", "", "head-dim finite numbers"},
        {"vectors", "FILE", "JSON array of rows, one per position ('-' = stdin); exactly one of --vector/--vectors", "",
         "|positions| rows of head-dim numbers"},
        precisionSpec(),
        configSpec(),
    });
    specs = concat(specs, layerSpecs());
    specs = concat(specs, mropeTokenSpecs());
    return specs;
}

void writeRope(const Options& o, const Args& args, Json& j) {
    std::optional<ScoreParams> layer;
    const RopeParams r = ropeFromOptions(args, o, &layer);
    // --tokens: each token rotated by its own (t, h, w) ids through the M-RoPE sections.
    const auto tokens = readMropeTokens(o, mropeOfConfig(peekConfig(args)), r.rotaryDim() / 2);
    if (tokens && o.has("positions"))
        fail("give one of --positions and --tokens", "positions, or a token layout (its tokens carry their own ids)", "both");
    if (!tokens) o.require("positions");
    const Positions pos = tokens ? arangePositions(0, tokens->positions.ids.cols()) : o.positions("positions", 0, kMaxPosition);
    guardOutput(static_cast<std::int64_t>(pos.size()) * r.head_dim * 3, tokens ? "tokens" : "positions", o.raw(tokens ? "tokens" : "positions"));
    checkAnglePositions(r, tokens ? Positions{tokens->positions.ids.maxCoeff()} : pos, o);
    if (o.has("vector") == o.has("vectors"))
        fail("give exactly one of --vector and --vectors", "one head_dim vector or a FILE of rows",
             o.has("vector") ? "both" : "neither");
    Matrix x;
    if (o.has("vector")) {
        const auto v = o.numberList("vector");
        if (static_cast<int>(v.size()) != r.head_dim)
            fail("invalid --vector", formatInt(r.head_dim) + " numbers (--head-dim)", formatInt(static_cast<std::int64_t>(v.size())) + " numbers");
        x.resize(static_cast<Eigen::Index>(pos.size()), r.head_dim);
        for (Eigen::Index i = 0; i < x.rows(); ++i)
            for (int c = 0; c < r.head_dim; ++c) x(i, c) = v[static_cast<std::size_t>(c)];
    } else {
        x = readMatrixFile(o.raw("vectors"), "vectors");
        if (x.rows() != static_cast<Eigen::Index>(pos.size()) || x.cols() != r.head_dim)
            fail("invalid --vectors",
                 formatInt(static_cast<std::int64_t>(pos.size())) + " rows (one per position) of " + formatInt(r.head_dim) +
                     " numbers (--head-dim)",
                 formatInt(x.rows()) + " rows of " + formatInt(x.cols()) + " numbers");
    }
    // The runtime rule for dynamic/longrope: seq_len = max(positions) + 1 unless given.
    const std::int64_t maxPos = tokens ? tokens->positions.ids.maxCoeff() : *std::max_element(pos.begin(), pos.end());
    const RopeFrequencies f = ropeFrequencies(r, r.seq_len ? r.seq_len : std::optional<std::int64_t>(maxPos + 1));
    const RopeTables t = tokens ? mropeTables(r, f, tokens->positions.ids, tokens->axes) : ropeTables(r, f, pos);
    const Matrix rotated = ropeApply(r, t, x);
    checkFiniteResult(rotated, o.has("vector") ? "--vector" : "--vectors");
    if (layer) writeLayerKeys(j, *layer);
    if (tokens) j.key("position_ids").intMatrix(tokens->positions.ids);
    else j.key("positions").integers(pos);
    j.key("cos").matrix(t.cos);
    j.key("sin").matrix(t.sin);
    j.key("rotated").matrix(rotated);
    j.key("attention_factor").number(f.attention_factor);
}

// ----- xpos -----------------------------------------------------------------------------------

const TableSelection xposOptions{.only = {"head_dim", "scale_base"}, .required = {"head_dim"}};

std::vector<OptionSpec> xposSpecs() {
    const std::vector<OptionSpec> specs = concat(tableSpecs(xposParamTable(), xposOptions), {
        {"length", "L", "number of tokens (rows of --vectors)", "the rows of --vectors", "an integer >= 1"},
        {"offset", "O", "position of the first token", "0", "an integer from 0 to 2^40"},
        flag("downscale", "keys: apply 1/scale (torchscale's downscale=True)"),
        {"vectors", "FILE", "JSON array of L rows of head-dim numbers ('-' = stdin)", "required", "L rows of head-dim numbers"},
        precisionSpec(),
    });
    return specs;
}

void writeXpos(const Options& o, const Args&, Json& j) {
    XposParams p;
    std::map<std::string, std::string> rename;
    readTable(o, xposParamTable(), xposOptions, p, rename);
    p.precision = precisionOf(o);
    check(p.validate());
    const std::int64_t offset = o.has("offset") ? o.integer("offset", 0, kMaxPosition) : 0;
    o.require("vectors");
    const Matrix x = readMatrixFile(o.raw("vectors"), "vectors");
    const std::int64_t length = o.has("length") ? o.integer("length", 1, kMaxPosition) : x.rows();
    if (x.rows() != length || x.cols() != p.head_dim)
        fail("invalid --vectors", formatInt(length) + " rows (--length) of " + formatInt(p.head_dim) + " numbers (--head-dim)",
             formatInt(x.rows()) + " rows of " + formatInt(x.cols()) + " numbers");
    if (offset + length - 1 > kMaxPosition)
        fail("invalid --offset", "offset + length − 1 at most " + formatInt(kMaxPosition), o.raw("offset"));
    guardOutput(length * p.head_dim * 2, "vectors", formatInt(length) + " rows");
    const bool down = o.has("downscale");
    const Matrix scale = xposScale(p, length, offset, down);
    const Matrix rotated = xposApply(p, x, offset, down);
    j.key("positions").integers(arangePositions(offset, offset + length));
    j.key("scale").matrix(scale);
    j.key("rotated").matrix(rotated);
}

std::vector<OptionSpec> sinusoidalSpecs() {
    auto specs = concat({{"dim", "N", "model dimension (odd allowed)", "required", "an integer from 1 to 65536"},
                         {"positions", "LIST|RANGE", "rows", "0:64", "integers from 0 to 2^40"}},
                        sinusoidalMethodSpecs());
    specs.push_back(precisionSpec());
    return specs;
}

void writeSinusoidal(const Options& o, const Args&, Json& j) {
    SinusoidalParams p;
    p.dim = toInt(o, "dim", 0);
    o.require("dim");
    readSinusoidal(o, p);
    p.precision = precisionOf(o);
    check(p.validate());
    const Positions pos = o.has("positions") ? o.positions("positions", 0, kMaxPosition) : arangePositions(0, 64);
    guardOutput(static_cast<std::int64_t>(pos.size()) * p.dim, "positions", o.has("positions") ? o.raw("positions") : "0:64");
    j.key("positions").integers(pos);
    j.key("encoding").matrix(sinusoidalEncoding(p, pos));
}

// ----- t5-buckets -------------------------------------------------------------------------------

const TableSelection t5Options{.only = {"num_buckets", "max_distance"}};

std::vector<OptionSpec> t5BucketsSpecs() {
    const std::vector<OptionSpec> specs = concat(tableSpecs(t5ParamTable(), t5Options), {
        flag("bidirectional", "encoder buckets (the default)"),
        flag("causal", "decoder buckets: future keys map to bucket 0"),
        {"relative", "LIST|RANGE", "key − query offsets", "", "integers from -2^40 to 2^40"},
        {"query-length", "Q", "queries i at positions past+i", "", "an integer >= 1"},
        {"key-length", "K", "keys j at positions j", "", "an integer >= 1"},
        {"past", "P", "tokens already in the cache (query offset)", "0", "an integer from 0 to 2^40"},
    });
    return specs;
}

void writeT5Buckets(const Options& o, const Args&, Json& j) {
    if (o.has("bidirectional") && o.has("causal"))
        fail("give at most one of --bidirectional and --causal", "one direction", "both");
    T5Params p;
    std::map<std::string, std::string> rename;
    readTable(o, t5ParamTable(), t5Options, p, rename);
    p.bidirectional = !o.has("causal");
    check(p.validate());
    const bool matrixForm = o.has("query-length") || o.has("key-length") || o.has("past");
    if (o.has("relative") && matrixForm)
        fail("give either --relative or --query-length/--key-length/--past", "one of the two forms", "both");
    if (o.has("relative")) {
        const Positions rel = o.positions("relative", -kMaxPosition, kMaxPosition);
        j.key("relative").integers(rel);
        j.key("bucket").integers(t5Buckets(rel, p));
    } else {
        if (!matrixForm) fail("missing --relative or --query-length/--key-length", "one of the two forms", "nothing");
        o.require("query-length");
        o.require("key-length");
        const std::int64_t q = o.integer("query-length", 1, kMaxPosition);
        const std::int64_t k = o.integer("key-length", 1, kMaxPosition);
        const std::int64_t past = o.has("past") ? o.integer("past", 0, kMaxPosition) : 0;
        if (q > kMaxOutputEntries || k > kMaxOutputEntries || q * k > kMaxOutputEntries)
            guardOutput(kMaxOutputEntries + 1, "query-length", formatInt(q) + "·" + formatInt(k) + " buckets");
        j.key("bucket").intMatrix(t5BucketMatrix(q, k, past, p));
    }
}

// ----- alibi ------------------------------------------------------------------------------------

const TableSelection alibiOptions{.only = {"heads", "bias_max"}, .required = {"heads"}};

std::vector<OptionSpec> alibiSpecs() {
    std::vector<OptionSpec> specs = concat(tableSpecs(alibiParamTable(), alibiOptions), {
        {"length", "L", "also print the H × L × L bias", "none", "an integer >= 1"},
        flag("symmetric", "-slope·|i−j| everywhere instead of the causal -slope·(i−j) with null above the diagonal"),
        precisionSpec(),
    });
    specs.back().help = "float32 rounds the slopes as BLOOM/MPT tensors hold them; double = ofirpress";
    return specs;
}

void writeAlibi(const Options& o, const Args&, Json& j) {
    AlibiParams p;
    std::map<std::string, std::string> rename;
    readTable(o, alibiParamTable(), alibiOptions, p, rename);
    p.symmetric = o.has("symmetric");
    p.precision = precisionOf(o);
    check(p.validate());
    j.key("slopes").vector(alibiSlopes(p));
    if (o.has("length")) {
        const std::int64_t l = o.integer("length", 1, kMaxPosition);
        if (l > kMaxOutputEntries || l * l > kMaxOutputEntries || l * l * p.heads > kMaxOutputEntries)
            guardOutput(kMaxOutputEntries + 1, "length", o.raw("length") + " (" + formatInt(p.heads) + " heads)");
        const Positions pos = arangePositions(0, l);
        j.key("bias").beginArray();
        for (int h = 0; h < p.heads; ++h) {
            const Matrix b = alibiBias(p, h, pos, pos);
            j.beginArray();
            for (Eigen::Index r = 0; r < b.rows(); ++r) {
                j.beginArray();
                for (Eigen::Index c = 0; c < b.cols(); ++c) {
                    if (!p.symmetric && c > r) j.null();
                    else j.number(b(r, c));
                }
                j.endArray();
            }
            j.endArray();
        }
        j.endArray();
    }
}

// ----- shaw -------------------------------------------------------------------------------------

const TableSelection shawOptions{.only = {"max_relative_position"}, .required = {"max_relative_position"}};

std::vector<OptionSpec> shawSpecs() {
    const std::vector<OptionSpec> specs = {
        {"query-length", "Q", "queries: the last Q of the K positions", "= key-length", "an integer from 1 to key-length"},
        {"key-length", "K", "keys", "required", "an integer from 1 to 1000000"},
        tableSpecs(shawParamTable(), shawOptions).front(),
        flag("cache", "one row for distances −(K−1) … 0 (incremental decoding)"),
    };
    return specs;
}

void writeShaw(const Options& o, const Args&, Json& j) {
    o.require("key-length");
    const std::int64_t k = o.integer("key-length", kI64Min, kI64Max);
    const std::int64_t q = o.has("query-length") ? o.integer("query-length", kI64Min, kI64Max) : k;
    const bool cache = o.has("cache");
    check(shawValidateLengths(q, k, cache));
    ShawParams sp;
    sp.dim = 1;
    std::map<std::string, std::string> rename;
    readTable(o, shawParamTable(), shawOptions, sp, rename);
    check(sp.validate());
    guardOutput(cache ? k : q * k, "key-length", o.raw("key-length"));
    j.key("index").intMatrix(shawIndex(q, k, sp.max_relative_position, cache));
}

// ----- transformer-xl ---------------------------------------------------------------------------

const TableSelection txlOptions{.only = {"dim", "clamp_len"}, .required = {"dim"}};

std::vector<OptionSpec> transformerXLSpecs() {
    const std::vector<OptionSpec> specs = concat(tableSpecs(transformerXLParamTable(), txlOptions), {
        {"key-length", "K", "keys (memory + segment)", "required", "an integer >= 1"},
    });
    return specs;
}

void writeTransformerXL(const Options& o, const Args&, Json& j) {
    TransformerXLParams p;
    std::map<std::string, std::string> rename;
    readTable(o, transformerXLParamTable(), txlOptions, p, rename);
    check(p.validate());
    o.require("key-length");
    const std::int64_t k = o.integer("key-length", 1, kMaxPosition);
    if (k > kMaxOutputEntries) guardOutput(kMaxOutputEntries + 1, "key-length", o.raw("key-length"));
    guardOutput(k * (p.dim + 1), "key-length", o.raw("key-length"));
    const auto d = transformerXLDistances(k, p.clamp_len);
    j.key("distances").integers(d);
    j.key("pos_emb").matrix(transformerXLPosEmb(p.dim, d));
}

// ----- scores / decay ---------------------------------------------------------------------------


std::vector<OptionSpec> commonScoreSpecs(bool decay) {
    std::vector<OptionSpec> s = {
        {"method", "M", "positional method", "required (or from --preset)", methodList()},
        {"preset", "KEY", "start from a model preset (`poslab presets`); other options override its values", "none",
         "a preset key, e.g. llama-3.1-8b"},
        configSpec(),
    };
    if (decay)
        s.push_back({"max-distance", "D", "distances 0 … D", "required", "an integer from 0 to 1048575"});
    else
        s.push_back({"length", "N", "sequence length (positions 0 … N−1)",
                     "required", "an integer from 1 to 2048 for the matrix; with --summary up to 65536 (2^24 when the "
                                 "scores depend on i−j only)"});
    s.insert(s.end(), {
        paramSpec("dim", "required (or from --preset)"),
        paramSpec("content", "ones", "query/key rows: ones, random (seeded) or formula (sin(0.5+0.7n), sin(0.3+1.1n))"),
        paramSpec("seed", "0", "seed of random content and of the learned tables"),
        {"head", "h", "alibi/t5 head; with --q/--k/--qk also the files' head ([H,N,d] tensors)", "0",
         "an integer from 0 to heads−1"},
        flag("causal", "mask keys after the query (decoder); t5 uses decoder buckets; a decoder's --config is causal "
                       "without it"),
        flag("bidirectional", "every key visible both ways (an encoder): overrides a decoder --config's causal masking"),
    });
    const auto qk = qkSpecs();
    s.insert(s.end(), qk.begin(), qk.end());
    if (!decay) {
        s.push_back(flag("softmax", "softmax rows (exact normaliser over all keys) instead of scores"));
        s.push_back(flag("summary", "print {shape, sum, min, max} over the unmasked entries instead of the matrix"));
    }
    s.push_back(precisionSpec());
    s = concat(s, layerSpecs());
    return concat(s, attentionSpecs());
}


struct ScoreSetup {
    ScoreParams params;
    std::map<std::string, std::string> rename;
};

ScoreSetup readScoreParams(const Options& o, Method m, bool decay, const ScoreParams* preset,
                           std::shared_ptr<const ContentSource> source, bool fromConfig, bool contributions) {
    ScoreSetup s;
    ScoreParams& p = s.params;
    if (preset) p = *preset;
    selectLayer(o, p, fromConfig);   // the layer's RoPE and attention, before the options
    p.method = m;
    // Against distance T5's and ALiBi's curve is their bias alone: no dimension enters it (a --dim
    // given is refused below).
    const bool biasCurve = decay && !contributions && !source && (m == Method::T5 || m == Method::Alibi);
    if (!preset && !source && !biasCurve) o.require("dim");
    p.dim = toInt(o, "dim", source ? source->dim() : p.dim);   // file content: d unless --dim is given
    p.source = std::move(source);
    readOwnOptions(o, {"content", "seed"}, p);
    p.head = toInt(o, "head", 0);
    // A config's own masking (a decoder is causal) unless --causal / --bidirectional says otherwise.
    if (o.has("causal") && o.has("bidirectional"))
        fail("give at most one of --causal and --bidirectional", "one direction", "both");
    const bool configCausal = fromConfig && preset && preset->causal;
    if (o.has("bidirectional") && !configCausal)
        fail("--bidirectional changes nothing here: the scene attends both ways unless --causal or a decoder's --config "
             "masks it",
             "--bidirectional with a decoder's --config", "--bidirectional");
    p.causal = o.has("causal") || (configCausal && !o.has("bidirectional"));
    p.softmax = o.has("softmax");
    p.precision = precisionOf(o);
    p.learned.seed = p.shaw.seed = p.t5.seed = p.transformer_xl.seed = p.seed;
    // `compute contributions` prints the training context (max_positions, original_max_positions).
    readMethodOptions(o, m, decay, p, s.rename,
                      contributions ? std::set<std::string>{"max_positions"} : std::set<std::string>{});
    readAttention(o, p, s.rename);
    // --seed with content that is not random and a method without seeded tables, --head with a
    // method without heads: they cannot change the output (the table says when they are read).
    refuseIrrelevant(o, scoreParamTable(), TableSelection{.only = {"seed", "head", "precision"}}, p);
    s.rename["head_dim"] = "dim";
    s.rename["queries"] = "length";
    s.rename["keys"] = "length";
    s.rename["positions"] = decay ? "max-distance" : "length";
    check(p.validate(), s.rename);
    return s;
}

std::vector<OptionSpec> allMethodSpecs(bool decay) {
    std::vector<OptionSpec> all = commonScoreSpecs(decay);
    std::set<std::string> seen;
    for (const auto& s : all) seen.insert(s.name);
    for (const auto& key : kMethods) {
        for (auto s : methodSpecs(*methodFromKey(key), decay)) {
            if (seen.insert(s.name).second) {
                s.help = "(" + key + ") " + s.help;
                all.push_back(s);
            } else {
                for (auto& a : all)
                    if (a.name == s.name && a.help.find(key) == std::string::npos && a.help.front() == '(')
                        a.help.insert(a.help.find(')'), ", " + key);
            }
        }
    }
    return all;
}

// Contributions are s·(R q)_p·(R k)_p per pair, at 1/√d: the layer's attention options (window,
// chunk, norm, scale, sinks) do not enter, so they are not its options.
std::vector<OptionSpec> contributionsSpecs() {
    auto specs = concat(commonScoreSpecs(true), methodSpecs(Method::Rope, true));
    for (const auto& a : attentionSpecs())
        specs.erase(std::remove_if(specs.begin(), specs.end(), [&](const OptionSpec& s) { return s.name == a.name; }), specs.end());
    return specs;
}

int scoresOrDecay(const std::vector<std::string>& args, bool decay, bool contributions = false) {
    const std::string what = contributions ? "contributions" : decay ? "decay" : "scores";
    const auto presetKey = peekOption(args, "preset");
    const ModelPreset* preset = presetKey ? &presetOrFail(*presetKey) : nullptr;
    const std::optional<ui::ModelFileConfig> config = peekConfig(args);
    const ScoreParams* base = preset ? &preset->params : config ? &config->params : nullptr;
    auto peek = peekOption(args, "method");
    if (!peek && base) peek = std::string(methodKey(base->method));
    if (!peek && contributions) peek = "rope";
    std::optional<Method> method = peek ? methodFromKey(*peek) : std::nullopt;
    const bool wantsHelp = std::find(args.begin(), args.end(), "--help") != args.end() ||
                           std::find(args.begin(), args.end(), "-h") != args.end();
    if (wantsHelp && contributions) {
        const auto specs = contributionsSpecs();
        printHelpAndExit("poslab compute contributions [--method rope] --max-distance D --dim d [rope options] [--content C | "
                         "--q FILE --k FILE | --qk FILE]",
                         "Per-pair contributions of RoPE to the score against distance (the contributions view): "
                         "c_p(t) = s·(R q)_p·(R k)_p for pair p, query at t and key at 0 (real q/k: the mean over the "
                         "files' rows i >= t of pair p of score(i, i−t)).\nPrints {\"distance\", \"pair\", "
                         "\"contribution\" (pairs × distances), \"rest\" (channels past rotary_dim), \"value\" (their "
                         "sum: the decay value), \"share\" (each pair's share of Σ|c|), \"wavelength_before\", "
                         "\"wavelength_after\", \"training_context\", \"max_positions\"} plus \"count\" with files.",
                         specs);
        return 0;
    }
    if (wantsHelp && !method) {
        const auto all = allMethodSpecs(decay);
        if (decay)
            printHelpAndExit("poslab compute decay --method M --max-distance D --dim d [method options]",
                             "How a method's score varies with the distance d = i − j (query at d, key at 0, the content's "
                             "rows held fixed).\nPrints {\"distance\", \"value\"} plus \"bound\" for rope (RoFormer's "
                             "long-term decay bound). Method options apply to their method only.",
                             all);
        else
            printHelpAndExit("poslab compute scores --method M --length N --dim d [method options] [--content C] [--seed S] "
                             "[--head h] [--causal] [--softmax] [--summary]",
                             "Attention scores s·(q̃_i·k̃_j) (+ the method's relative term) for positions 0 … N−1, s = "
                             "1/sqrt(d).\nPrints {\"scores\": N × N} (null = masked) or, with --summary, {\"shape\", \"sum\", "
                             "\"min\", \"max\"}. Method options apply to their method only.",
                             all);
        return 0;
    }
    if (!peek) fail("missing --method for compute " + what, methodList(), "nothing");
    if (!method) fail("invalid --method", methodList(), *peek);
    const Method chosen = method.value_or(Method::NoPE);
    if (preset && chosen != preset->params.method)
        fail("--method does not match --preset " + preset->key,
             "--method " + std::string(methodKey(preset->params.method)) + " or no --method", *peek);
    if (config && chosen != config->params.method)
        fail("--method does not match --config " + *peekOption(args, "config"),
             "--method " + std::string(methodKey(config->params.method)) + " or no --method", *peek);
    if (contributions && chosen != Method::Rope)
        fail("invalid --method for compute contributions", "rope (per-pair contributions need rotary pairs)", *peek);
    auto specs = contributions ? contributionsSpecs() : concat(commonScoreSpecs(decay), methodSpecs(chosen, decay));
    if (chosen == Method::Rope && !contributions) specs = concat(specs, mropeTokenSpecs());   // --tokens: M-RoPE
    Options o(args, specs, "compute " + what + " --method " + *peek);
    if (o.help()) {
        printHelpAndExit("poslab compute " + what + " --method " + *peek + " [options]",
                         std::string(methodTitle(chosen)) + ": " + std::string(methodSummary(chosen)), specs);
        return 0;
    }
    ScoreSetup setup = readScoreParams(o, chosen, decay, base, readQk(o), config.has_value() && !preset, contributions);
    // --tokens: the rows rotated by each token's own (t, h, w) ids, scored without a further
    // positional term (the nope pipeline: masks, scale, norms and softmax as the scene says).
    std::optional<MropeTokens> tokens;
    if (chosen == Method::Rope && !contributions)
        tokens = readMropeTokens(o, mropeOfConfig(config), setup.params.ropeParams().rotaryDim() / 2);
    if (tokens && setup.params.attention.nope)
        fail("--tokens cannot change the output", "it is read only on a RoPE layer (this one applies no positional encoding)",
             "--tokens " + o.raw("tokens"));
    const ScoreParams shown = setup.params;   // what the layer keys describe (a RoPE layer)
    if (tokens) {
        const std::int64_t n = tokens->positions.ids.cols();
        if (o.has("length") && o.integer("length", 1, kI64Max) != n)
            fail("--length does not match --tokens", "the layout's token count " + formatInt(n) + " or no --length", o.raw("length"));
        if (setup.params.source && setup.params.source->length() < n)
            fail("--tokens is longer than the query/key files", "at most " + formatInt(setup.params.source->length()) + " tokens",
                 formatInt(n) + " tokens");
        ScoreParams& sp = setup.params;
        sp.source = mropeContentSource(sp, sp.ropeParams(), tokens->positions.ids, tokens->axes);
        sp.method = Method::NoPE;
    }
    const ScoreParams& p = setup.params;
    // Against distance the query sits at d and the key at 0 (j <= i): masking keys after the
    // query hides none; --causal matters only for T5's decoder buckets and a window's shape.
    if (o.has("nope") && p.method == Method::NoPE && !tokens)
        fail("--nope cannot change the output", "it is read only with a positional --method (this one is nope)", "--method nope --nope");
    // Sink logits join the softmax's normaliser: raw scores and the decay curve do not read them.
    if (o.has("sink") && (decay || !p.softmax))
        fail("--sink cannot change the output", "it is read only with compute scores --softmax",
             decay ? "compute " + what + " --sink" : "--sink without --softmax");
    if (decay && o.has("causal") && p.method != Method::T5 && !p.attention.window)
        fail("--causal cannot change the output", "against distance it is read only with --method t5 or a --window",
             "compute " + what + " --method " + std::string(methodKey(p.method)) + " --causal");
    // Against distance T5's and ALiBi's curve is their bias alone, sinusoidal and learned ones
    // PE_d·PE_0 alone (decay.h): what does not enter them cannot change the output (T5's and
    // ALiBi's do not require --dim. Query/key files: the curve is the mean of the whole scores.)
    if (decay && !contributions && !p.source) {
        const Method em = p.effectiveMethod();
        const bool bias = em == Method::T5 || em == Method::Alibi, absolute = em == Method::Sinusoidal || em == Method::Learned;
        const std::pair<const char*, bool> unread[] = {
            {"dim", bias}, {"content", bias || absolute}, {"temperature-tuning", bias}, {"qk-norm", bias}, {"norm-eps", bias},
            {"softmax-scale", bias}, {"softcap", bias}, {"query-scaling", bias}, {"layout", em == Method::Sinusoidal},
            {"table-size", em == Method::Learned}};
        for (const auto& [option, refused] : unread)
            if (refused && o.has(option))
                fail(std::string("--") + option + " cannot change the output",
                     "against distance the " + std::string(methodKey(em)) + " curve is " +
                         (bias ? "its bias alone (no dimension, content, scale or query scaling)" : "PE_d·PE_0 alone (no content, any layout)"),
                     "compute decay --method " + std::string(methodKey(em)) + " --" + option);
    }
    Json j;
    if (decay) {
        // File content: distances 0 … N−1 unless --max-distance is given (it may not reach N).
        if (!p.source) o.require("max-distance");
        const std::int64_t d = o.has("max-distance") ? o.integer("max-distance", 0, (std::int64_t{1} << 20) - 1)
                                                     : std::min<std::int64_t>(p.source->length() - 1, (std::int64_t{1} << 20) - 1);
        if (contributions) {
            std::vector<std::int64_t> dist(static_cast<std::size_t>(d + 1));
            for (std::int64_t t = 0; t <= d; ++t) dist[static_cast<std::size_t>(t)] = t;
            auto r = pairContributions(p, dist);
            if (!r) failParam(r.error(), {{"head_dim", "dim"}, {"positions", "max-distance"}, {"distances", "max-distance"}});
            const Contributions& c = r.value();
            guardOutput((d + 1) * (c.value.rows() + 2), "max-distance", o.has("max-distance") ? o.raw("max-distance") : formatInt(d));
            j.beginObject();
            j.key("distance").integers(c.distance);
            std::vector<std::int64_t> pairs(static_cast<std::size_t>(c.value.rows()));
            for (std::size_t i = 0; i < pairs.size(); ++i) pairs[i] = static_cast<std::int64_t>(i);
            j.key("pair").integers(pairs);
            j.key("contribution").matrix(c.value);
            if (p.ropeParams().rotaryDim() < p.dim) j.key("rest").vector(c.rest);
            j.key("value").vector(c.total);
            // Gemma 2's logit soft-cap: the score the model uses (the pairs add up to `value`).
            if (c.capped) j.key("softcap").number(*p.attention.softcap).key("capped_value").vector(*c.capped);
            j.key("share").vector(c.share);
            j.key("wavelength_before").vector(c.wavelengthBefore);
            j.key("wavelength_after").vector(c.wavelengthAfter);
            j.key("training_context").integer(c.trainingContext);
            j.key("max_positions").integer(c.context);
            if (!c.count.empty()) j.key("count").integers(c.count);
            j.endObject();
            printJson(j);
            return 0;
        }
        auto r = decayCurve(p, d);
        if (!r) failParam(r.error(), {{"head_dim", "dim"}, {"positions", "max-distance"}, {"distances", "max-distance"}});
        const DecayCurve& c = r.value();
        j.beginObject();
        if (config) writeLayerKeys(j, shown);
        j.key("distance").integers(c.distance);
        j.key("value").vector(c.value);
        if (c.bound) j.key("bound").vector(*c.bound);
        if (!c.count.empty()) j.key("count").integers(c.count);
        if (c.visibleTo) j.key("visible_to").integer(*c.visibleTo);
        j.endObject();
    } else {
        if (!p.source) o.require("length");
        const bool summary = o.has("summary");
        // The matrix as numbers (the Python module, no text): up to the core's 2^25 entries.
        const bool binary = j.hasArraySink();
        const std::int64_t maxN = summary ? kI64Max : binary ? kMaxBinaryScores : kMaxFullScores;
        std::string validN = o.spec("length").valid;
        const std::string printed = "to " + formatInt(kMaxFullScores) + " for the matrix";
        if (binary && validN.find(printed) != std::string::npos)
            validN.replace(validN.find(printed), printed.size(), "to " + formatInt(kMaxBinaryScores) + " for the matrix (from Python)");
        std::int64_t n = 0;
        if (o.has("length")) {
            const auto v = parseInteger(o.raw("length"));
            if (!v || *v < 1 || *v > maxN) fail("invalid --length", validN, o.raw("length"));
            n = *v;
        } else {
            n = p.source->length();   // the file's N
        }
        if (n > maxN)
            fail("invalid --length", validN + " (the files hold N = " + formatInt(n) + ": give --length or --summary)",
                 formatInt(n));
        // A learned table's rows 0 … N−1 do not depend on its size (core/learned.h): --table-size
        // changes the scores only by admitting a --length past the rows the table has without it.
        if (o.has("table-size") && p.effectiveMethod() == Method::Learned) {
            const std::int64_t without = preset ? preset->params.learned.table_size
                                         : config ? config->params.learned.table_size
                                                  : LearnedParams{}.table_size;
            if (n <= std::min(without, p.learned.table_size))
                fail("--table-size cannot change the output",
                     "the learned table's rows 0 … N−1 do not depend on its size: it is read only with a --length past the "
                     "table's " + formatInt(without) + " rows",
                     "--table-size " + o.raw("table-size") + " with N = " + formatInt(n));
        }
        if (summary) {
            auto r = scoresSummary(p, n);
            if (!r) failParam(r.error(), setup.rename);
            const ScoreSummary& s = r.value();
            j.beginObject();
            if (config) writeLayerKeys(j, shown);
            j.key("shape").beginArray().integer(s.rows).integer(s.cols).endArray();
            j.key("sum").number(s.sum);
            j.key("min").number(s.min);
            j.key("max").number(s.max);
            j.endObject();
        } else {
            const Positions pos = arangePositions(0, n);
            std::vector<double> sinkMass;
            auto r = scores(p, pos, pos, n, &sinkMass);
            if (!r) failParam(r.error(), setup.rename);
            Matrix& m = r.value();
            const bool causal = p.attention.causalWith(p.causal);
            // Masked cells are null (NaN in Python's array).
            for (Eigen::Index i = 0; i < m.rows(); ++i) {
                const KeyRange kr = visibleKeys(p.attention, causal, i, n);
                if (kr.first <= 0 && kr.last >= n - 1) continue;   // every key visible
                for (Eigen::Index k = 0; k < m.cols(); ++k)
                    if (!kr.contains(k)) m(i, k) = std::numeric_limits<double>::quiet_NaN();
            }
            j.beginObject();
            if (config) writeLayerKeys(j, shown);
            // scores() refused NaN and +inf; −inf only in masked cells, now NaN.
            j.key("scores").maskedMatrix(std::move(m), true);
            if (!sinkMass.empty()) j.key("sink_mass").doubles(sinkMass);
            j.endObject();
        }
    }
    printJson(j);
    return 0;
}

// ----- layers -------------------------------------------------------------------------------------

// One layer's query scaling: Llama 4's temperature on its NoPE layers, Ministral 3's on every
// layer; the factor at a few positions (cli.md "compute layers").
void writeQueryScale(JsonWriter& j, const ui::ModelFileConfig& c, const AttentionParams& a) {
    static const std::int64_t kAt[] = {0, 16384, 131072, 1048576};
    j.key("query_scale");
    if (!queryScaled(a)) {
        j.null();
        return;
    }
    std::string formula;
    if (!a.temperature_tuning.empty())
        formula = "1 + " + formatNumber(a.temperature_tuning[1]) + "·ln(1 + ⌊(p + 1)/" + formatNumber(a.temperature_tuning[0]) + "⌋)";
    if (!a.query_scaling.empty())
        formula += (formula.empty() ? "" : " × ") + ("1 + " + formatNumber(a.query_scaling[1]) + "·ln(1 + ⌊p/" +
                                                     formatNumber(a.query_scaling[0]) + "⌋)");
    j.beginObject();
    j.key("formula").string(formula);
    j.key("at").beginObject();
    for (auto p : kAt) j.key(formatInt(p)).number(queryScale(a, p, c.params.precision));
    j.endObject().endObject();
}

void writeSoftcap(JsonWriter& j, const AttentionParams& a) {
    j.key("softcap");
    if (a.softcap) j.number(*a.softcap);
    else j.null();
}

// `compute layers` and `compute config`: --config, required.
std::vector<OptionSpec> configOnlySpecs() {
    std::vector<OptionSpec> specs = {configSpec()};
    specs.front().def = "required";
    return specs;
}

// `compute layers --config FILE` (cli.md "Added in 0.3", "Added in 0.4"): every layer as
// transformers main builds it, for every config the product reads (non-RoPE families: "rope":
// false and their method), with the model's masking and each layer's layout, soft-cap and
// query scaling.
void writeLayers(const Options& o, const Args& args, Json& j) {
    o.require("config");
    const auto c = peekConfig(args);
    const LayerPattern& m = c->params.model;
    const std::int64_t patternLayers = layerCount(m);
    const std::int64_t n = patternLayers > 0 ? patternLayers : std::max<std::int64_t>(c->layerCount, 1);
    const bool causal = c->params.causal;
    j.key("num_layers").integer(n);
    j.key("method").string(methodKey(c->params.method));
    j.key("causal").boolean(causal);
    j.key("bidirectional").boolean(!causal);
    j.key("layers").beginArray();
    for (std::int64_t i = 0; i < n; ++i) {
        j.beginObject();
        if (patternLayers > 0) {
            writeLayerFields(j, m, i, c->params.dim);
            const LayerParams lp = layerParams(m, i);
            writeSoftcap(j, lp.attention);
            writeQueryScale(j, *c, lp.attention);
        } else {
            // One scheme on every layer (no layer pattern): the config's own parameters.
            const bool rope = c->params.method == Method::Rope;
            j.key("index").integer(i);
            j.key("layer_type").string("full_attention");
            j.key("rope").boolean(rope);
            if (!rope) j.key("method").string(methodKey(c->params.method));
            if (rope) {
                const RopeParams r = c->params.ropeParams();
                j.key("rope_type").string(r.scaling == RopeScaling::None ? std::string_view("default") : enumKey(r.scaling));
                j.key("rope_theta").number(r.base);
                if (r.scaling != RopeScaling::None) j.key("factor").number(r.resolvedFactor());
                j.key("layout").string(enumKey(r.layout));
                j.key("head_dim").integer(c->params.dim).key("rotary_dim").integer(r.rotaryDim());
            }
            j.key("softmax_scale").number(scoreScale(c->params.attention, c->params.dim));
            writeSoftcap(j, c->params.attention);
            writeQueryScale(j, *c, c->params.attention);
        }
        j.endObject();
    }
    j.endArray();
}

// `compute config --config FILE` (cli.md "Added in 0.4"): what the reader did with every key.
void writeConfigReport(const Options& o, const Args& args, Json& j) {
    o.require("config");
    const auto c = peekConfig(args);
    const ui::ConfigReport& r = c->report;
    auto map = [](const char* name, const std::map<QString, QString>& m) {
        return std::pair<const char*, const std::map<QString, QString>*>{name, &m};
    };
    j.key("file").string(o.raw("config"));
    j.key("model_type").string(c->modelType.toStdString());
    j.key("family").string(r.family.toStdString());
    j.key("source").string(r.source.toStdString());
    j.key("method").string(methodKey(c->params.method));
    j.key("causal").boolean(c->params.causal);
    for (const auto& [name, m] : {map("used", r.used), map("ignored", r.ignored), map("not_modelled", r.notModelled),
                                  map("defaults", r.defaults)}) {
        j.key(name).beginObject();
        for (const auto& [k, v] : *m) j.key(k.toStdString()).string(v.toStdString());
        j.endObject();
    }
    j.key("warnings").beginArray();
    for (const QString& w : r.warnings) j.string(w.toStdString());
    j.endArray();
}


// `compute precision --summary`: the largest angle error and |cos/sin error| (where: position and
// pair), the first position the angle dtype cannot tell from another given one, and how many
// collide — computed over the positions in blocks, so no answer needs megabytes.
void writePrecisionSummary(Json& j, const RopeParams& r, const Positions& pos, const std::optional<ScoreParams>& layer) {
    struct Max {
        double value = -1;
        std::int64_t position = 0;
        Eigen::Index pair = 0;
    } angle, abs;
    constexpr std::size_t kBlock = 4096;
    for (std::size_t from = 0; from < pos.size(); from += kBlock) {
        const Positions block(pos.begin() + static_cast<std::ptrdiff_t>(from),
                              pos.begin() + static_cast<std::ptrdiff_t>(std::min(pos.size(), from + kBlock)));
        const RopePrecisionErrors e = ropePrecisionErrors(r, block);
        for (Eigen::Index i = 0; i < e.angle.rows(); ++i)
            for (Eigen::Index k = 0; k < e.angle.cols(); ++k) {
                const double a = std::abs(e.angle(i, k)), c = std::max(std::abs(e.cos(i, k)), std::abs(e.sin(i, k)));
                if (a > angle.value) angle = {a, block[static_cast<std::size_t>(i)], k};
                if (c > abs.value) abs = {c, block[static_cast<std::size_t>(i)], k};
            }
    }
    const std::vector<PositionCollision> groups = ropePositionCollisions(r, pos);
    std::int64_t colliding = 0;
    std::optional<std::int64_t> first;
    for (const PositionCollision& g : groups) {
        colliding += static_cast<std::int64_t>(g.positions.size());
        if (!g.positions.empty() && (!first || g.positions.front() < *first)) first = g.positions.front();
    }
    if (layer) writeLayerKeys(j, *layer);
    j.key("positions").integer(static_cast<std::int64_t>(pos.size()));
    for (const auto& [name, m] : {std::pair<const char*, const Max&>{"max_angle_error", angle}, {"max_abs_error", abs}}) {
        j.key(name).beginObject();
        j.key("value").number(std::max(m.value, 0.0));
        j.key("position").integer(m.position);
        j.key("pair").integer(m.pair);
        j.endObject();
    }
    if (first) j.key("first_collision").integer(*first);
    else j.key("first_collision").null();
    j.key("colliding_positions").integer(colliding);
    j.key("collision_groups").integer(static_cast<std::int64_t>(groups.size()));
}

std::vector<OptionSpec> precisionSpecs() {
    auto specs = concat(ropeFrequencySpecs(true), ropeApplySpecs());
    specs.insert(specs.end(), {
        {"positions", "LIST|RANGE", "positions to compare", "required", "integers from 0 to 2^40"},
        precisionSpec(),
        flag("summary", "print the few numbers a person asks instead of the tables: {\"positions\", \"max_angle_error\", "
                        "\"max_abs_error\" (each {value, position, pair}), \"first_collision\", \"colliding_positions\", "
                        "\"collision_groups\"}"),
        configSpec(),
    });
    specs = concat(specs, layerSpecs());
    return specs;
}

void writePrecision(const Options& o, const Args& args, Json& j) {
    std::optional<ScoreParams> layer;
    const RopeParams r = ropeFromOptions(args, o, &layer);
    // The errors are per pair: the layout only matters where it is required (Meta's complex path).
    if (o.has("layout") && r.code_path != RopeCodePath::MetaComplex64)
        fail("--layout cannot change the output", "compute precision's errors are per pair (it is read only with --code-path "
             "meta-complex64, which needs --layout interleaved)", "--layout " + o.raw("layout"));
    const Positions pos = o.positions("positions", 0, kMaxPosition);
    checkAnglePositions(r, pos, o);
    if (o.has("summary")) {
        writePrecisionSummary(j, r, pos, layer);
        return;
    }
    guardOutput(static_cast<std::int64_t>(pos.size()) * r.rotaryDim() * 2, "positions", o.raw("positions"));
    const RopePrecisionErrors e = ropePrecisionErrors(r, pos);
    if (layer) writeLayerKeys(j, *layer);
    j.key("positions").integers(pos);
    j.key("angle_error").matrix(e.angle);
    j.key("cos_error").matrix(e.cos);
    j.key("sin_error").matrix(e.sin);
    j.key("max_abs_error").vector(e.max_abs);
    j.key("phase_error").matrix(e.phase);
    // Positions the angle dtype cannot tell apart (bfloat16 above 256, float16 above 2048).
    j.key("collisions").beginArray();
    for (const PositionCollision& c : ropePositionCollisions(r, pos)) {
        j.beginObject();
        j.key("value").number(c.value);
        j.key("positions").integers(c.positions);
        j.endObject();
    }
    j.endArray();
}
// ----- the table of subcommands ------------------------------------------------------------------

const std::vector<Subcommand>& subcommands() {
    static const std::vector<Subcommand> table = {
        {"frequencies", "RoPE inverse frequencies for every scaling type", frequenciesSpecs,
         "poslab compute frequencies (--head-dim N | --config FILE) [options]",
         "RoPE inverse frequencies, wavelengths and attention factor for every scaling type\n"
         "(Hugging Face transformers main). Prints {\"rotary_dim\", \"inv_freq\", \"wavelength\", "
         "\"attention_factor\"}; with --mrope-section (or a Qwen-VL --config) also \"axis\": 0 t, 1 h, 2 w "
         "per frequency.",
         writeFrequencies, {}, {}},
        {"rope", "apply rotary position embedding to vectors", ropeSpecs,
         "poslab compute rope --head-dim N (--positions LIST|RANGE | --tokens LAYOUT --mrope-section A,B,C) "
         "(--vector LIST | --vectors FILE) [options]",
         "Apply rotary position embedding. Prints {\"positions\", \"cos\", \"sin\", \"rotated\", "
         "\"attention_factor\"};\ncos/sin rows are laid out for the layout and include the attention factor.",
         writeRope, {}, {}},
        {"precision", "what bfloat16/float16/float32 do to RoPE's angles and cos/sin", precisionSpecs,
         "poslab compute precision (--head-dim N | --config FILE) --positions LIST|RANGE --precision P "
         "[--angle-precision A] [--summary] [options]",
         "What the precision path does to RoPE's angles and tables: per position and pair, the angle\n"
         "(wrapped to (-pi, pi]), cos and sin the path uses minus the exact double-precision values.\n"
         "Prints {\"positions\", \"angle_error\", \"cos_error\", \"sin_error\", \"max_abs_error\", \"phase_error\",\n"
         "\"collisions\"} (max_abs_error: per position, the largest |cos error| or |sin error| over the pairs;\n"
         "phase_error: per position and pair, atan2(sin, cos) of what the path uses minus the exact angle;\n"
         "collisions: [{\"value\", \"positions\"}], the given positions the angle dtype holds as one value).",
         writePrecision, {}, {}},
        {"xpos", "xPos (RoPE with per-pair exponential scale, torchscale)", xposSpecs,
         "poslab compute xpos --head-dim N --vectors FILE [options]",
         "xPos as torchscale's XPOS module. Prints {\"positions\", \"scale\", \"rotated\"}; scale is the "
         "factor actually applied.",
         writeXpos, {}, {}},
        {"sinusoidal", "absolute sinusoidal encoding", sinusoidalSpecs,
         "poslab compute sinusoidal --dim N [options]",
         "Absolute sinusoidal encoding (Vaswani et al.) and its framework variants. Prints "
         "{\"positions\", \"encoding\"}.",
         writeSinusoidal, {}, {}},
        {"t5-buckets", "T5 relative-position buckets", t5BucketsSpecs,
         "poslab compute t5-buckets (--relative LIST|RANGE | --query-length Q --key-length K [--past P]) [options]",
         "T5 relative-position buckets (transformers T5Attention). Prints {\"relative\", \"bucket\"} or "
         "{\"bucket\": Q rows of K}.",
         writeT5Buckets, {}, {}},
        {"alibi", "ALiBi slopes and bias", alibiSpecs,
         "poslab compute alibi --heads H [--length L] [options]",
         "ALiBi slopes and bias. Prints {\"slopes\": [H], \"bias\": H × L × L} (no bias without --length).",
         writeAlibi, {}, {}},
        {"shaw", "Shaw et al. clipped relative positions", shawSpecs,
         "poslab compute shaw --key-length K --max-relative-position k [--query-length Q] [--cache]",
         "Shaw et al. clipped relative positions (tensor2tensor). Prints {\"index\": rows of clip(j − i', "
         "−k, k) + k}.",
         writeShaw, {}, {}},
        {"transformer-xl", "Transformer-XL relative sinusoid", transformerXLSpecs,
         "poslab compute transformer-xl --dim N --key-length K [--clamp-len C]",
         "Transformer-XL relative sinusoid (concat, Vaswani frequencies, float32). Prints {\"distances\": "
         "[K−1 … 0, clamped], \"pos_emb\"}.",
         writeTransformerXL, {}, {}},
        {"scores", "attention scores of any method (what the heatmap draws)", {}, {}, {}, {}, [](const Args& a) { return scoresOrDecay(a, false); }, {}},
        {"decay", "score against distance (what the decay view draws)", {}, {}, {}, {}, [](const Args& a) { return scoresOrDecay(a, true); }, {}},
        {"contributions", "RoPE's per-pair contributions to the score against distance", {}, {}, {}, {}, [](const Args& a) { return scoresOrDecay(a, true, true); }, {}},
        {"layers", "a model's layers from --config: type, RoPE or NoPE, window or chunk, scale", configOnlySpecs,
         "poslab compute layers --config FILE",
         "The model's layers, exactly as transformers main builds them from the file: per layer its type, "
         "RoPE or NoPE,\nRoPE type and base, layout, window or chunk, temperature tuning, q/k norm, softmax "
         "scale, logit soft-cap and query scaling.\nPrints {\"num_layers\", \"method\", \"causal\", "
         "\"bidirectional\", \"layers\": [...]}.",
         writeLayers, {}, {}},
        {"config", "how --config is read: every key used, ignored or not modelled, defaults taken", configOnlySpecs,
         "poslab compute config --config FILE",
         "How the file is read: its family (and that family's modeling file), method and masking, and every "
         "key\nof the file as used (what it set), ignored (why) or not_modelled (what it would do), plus the "
         "defaults taken.\nPrints {\"file\", \"model_type\", \"family\", \"source\", \"method\", "
         "\"causal\", \"used\", \"ignored\", \"not_modelled\", \"defaults\", \"warnings\"}.",
         writeConfigReport, {}, {}},
        {"positions", "multimodal position ids (Qwen2-VL, Qwen2.5-VL, Qwen3-VL) or a vision encoder's patch positions", positionsSpecs,
         "poslab compute positions (--tokens LAYOUT [--model M] | --vision qwen|pixtral --grid TxHxW) [options]",
         "Position ids as the model's code makes them. With --tokens: get_rope_index of Qwen2-VL, Qwen2.5-VL or "
         "Qwen3-VL;\nprints {\"position_ids\": [[t…], [h…], [w…]], \"rope_deltas\", \"kinds\"}. With --vision: the "
         "encoder's patch positions;\nqwen prints {\"position_ids\": [[row, col], …]} in the encoder's token "
         "order, pixtral {\"position_ids\": [row·P + col, …]}.",
         writePositions, {}, {}},
        {"demo", "a demonstration of the Teach menu: its claim, whether it holds, its numbers", {}, {}, {}, {}, runComputeDemo, "KEY"},
    };
    return table;
}

}  // namespace

std::string computeHelp() {
    std::string lines;
    for (const Subcommand& c : subcommands()) {
        const std::string shown = c.name + (c.argument.empty() ? "" : " " + c.argument);
        lines += "  " + shown + std::string(std::max<std::size_t>(16, shown.size() + 2) - shown.size(), ' ') + c.summary + "\n";
    }
    return "Usage: poslab compute WHAT [OPTIONS]\n\n"
           "Compute and print one JSON object on stdout. WHAT is one of:\n" +
           lines +
           "\n`poslab compute WHAT --help` lists every option with its default and valid range.\n"
           "Exit status: 0 success, 2 invalid usage or parameter, 1 other failure (I/O).\n";
}

const std::string& computeWhatNames() {
    static const std::string names = [] {
        std::string n;
        for (const Subcommand& c : subcommands()) n += (n.empty() ? "" : ", ") + c.name;
        return n;
    }();
    return names;
}

int runCompute(const std::vector<std::string>& args) {
    const std::string whatList = "one of " + computeWhatNames();
    if (args.empty()) fail("missing WHAT for compute", whatList, "nothing");
    const std::string& what = args.front();
    if (what == "--help" || what == "-h") {
        const std::string t = computeHelp();
        std::fwrite(t.data(), 1, t.size(), stdout);
        return 0;
    }
    const Args rest(args.begin() + 1, args.end());
    for (const Subcommand& c : subcommands()) {
        if (c.name != what) continue;
        if (c.run) return c.run(rest);
        // The skeleton every other subcommand shares: its options, its --help, one JSON object.
        const std::vector<OptionSpec> specs = c.specs();
        Options o(rest, specs, "compute " + c.name);
        if (o.help()) {
            printHelpAndExit(c.usage, c.description, specs);
            return 0;
        }
        Json j;
        j.beginObject();
        c.write(o, rest, j);
        j.endObject();
        printJson(j);
        return 0;
    }
    fail("unknown WHAT for compute", whatList, what);
}

// ----- presets ------------------------------------------------------------------------------------

namespace {

// The preset's parameters under their option names: dim, then every parameter of the method's
// table that matters for these values and is set (the parameter table decides both).
void presetOptions(JsonWriter& j, const ModelPreset& m) {
    const ScoreParams& p = m.params;
    j.key("dim").integer(p.dim);
    const std::string_view g = methodParamGroup(p.method);
    if (g.empty()) return;
    for (const auto& e : scoreParamTable()) {
        if (e.group != g || e.info.has(kParamShared) || !e.matters(p)) continue;
        // The model's context where its frequencies do not read it: `compute` refuses it there.
        if (p.method == Method::Rope && e.info.name == "max_positions" && !p.rope.readsMaxPositions()) continue;
        // A learned table of the default size: `compute scores` refuses --table-size there (it
        // cannot change the output at any length).
        if (p.method == Method::Learned && e.info.name == "table_size" && p.learned.table_size == LearnedParams{}.table_size)
            continue;
        const ParamValue v = e.get(p);
        if (std::holds_alternative<std::monostate>(v) || (e.info.has(kParamZeroUnset) && v == ParamValue{std::int64_t{0}})) continue;
        if (auto* l = std::get_if<std::vector<double>>(&v); l && l->empty()) continue;
        if (e.info.kind == ParamKind::Bool || e.info.kind == ParamKind::Seed) continue;   // flags and table seeds
        j.key(e.info.option()).value(v);
    }
}

}  // namespace

int runPresets(const std::vector<std::string>& args) {
    return runListing(args, "presets",
                      "Usage: poslab presets\n\nList the built-in model presets as JSON: {\"presets\": [{\"key\", \"name\", "
                      "\"source\", \"method\", \"heads\", \"note\", \"options\"}]}.\n\"options\" holds the preset's parameters "
                      "under the option names of `poslab compute scores --method M`.\n",
                      [](JsonWriter& j) {
                          j.key("presets").beginArray();
                          for (const auto& m : modelPresets()) {
                              j.beginObject();
                              j.key("key").string(m.key);
                              j.key("name").string(m.name);
                              j.key("source").string(m.source);
                              j.key("method").string(std::string(methodKey(m.params.method)));
                              j.key("heads").integer(m.heads);
                              j.key("note").string(m.note);
                              j.key("options").beginObject();
                              presetOptions(j, m);
                              j.endObject();
                              j.endObject();
                          }
                          j.endArray();
                      });
}

}  // namespace poslab::cli
