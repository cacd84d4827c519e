// Method options shared by `compute scores/decay` and `figure` (see cli_method.h).
#include "app/cli_method.h"

#include <climits>

namespace poslab::cli {

const std::vector<std::string> kMethods = {"nope", "sinusoidal", "learned", "shaw", "t5", "transformer-xl", "alibi", "rope", "xpos"};

OptionSpec flag(const std::string& name, const std::string& help) { return {name, "", help, "", ""}; }

// ----- option tables ---------------------------------------------------------------------------

OptionSpec precisionSpec() {
    return {"precision", "P", "float32 reproduces the frameworks' float32 rounding; double is exact", "float32",
            "float32 or double"};
}

// The RoPE frequency options (`frequencies`, `rope`, and the rope method of scores/decay).
std::vector<OptionSpec> ropeFrequencySpecs(bool withHeadDim) {
    std::vector<OptionSpec> s;
    if (withHeadDim) s.push_back({"head-dim", "N", "head dimension", "required", "an even integer from 2 to 65536"});
    s.insert(s.end(), {
        {"base", "F", "rope theta", "10000", "a number > 1 (at most 1e12)"},
        {"partial-rotary-factor", "F", "rotary_dim = int(head_dim*F), even; the exponent uses rotary_dim (GPT-NeoX)", "1",
         "0 < F <= 1"},
        {"rotary-dim", "N", "rotate only the first N channels; frequencies use N (GPT-J); not with --partial-rotary-factor",
         "from the partial factor", "an even integer from 2 to head-dim"},
        {"scaling", "T", "RoPE scaling type", "none", "none, linear, dynamic, yarn, longrope, llama3"},
        {"factor", "F", "scaling factor", "yarn, longrope: max/original max positions; linear, dynamic, llama3: required",
         "a number from 1e-6 to 1e6"},
        {"max-positions", "N", "max_position_embeddings", "2048", "an integer >= 1"},
        {"original-max-positions", "N", "original_max_position_embeddings", "= max-positions", "an integer >= 1"},
        {"seq-len", "N", "current sequence length (dynamic, longrope)", "none (rope: max(positions)+1)", "an integer >= 1"},
        {"beta-fast", "F", "YaRN beta_fast", "32", "a number in (0, 1e6]"},
        {"beta-slow", "F", "YaRN beta_slow", "1", "a number in (0, 1e6]"},
        {"mscale", "F", "YaRN mscale (DeepSeek)", "unset", "a number in [0, 1e6]"},
        {"mscale-all-dim", "F", "YaRN mscale_all_dim (DeepSeek)", "unset", "a number in [0, 1e6]"},
        flag("no-truncate", "YaRN: keep the correction range fractional (gpt-oss)"),
        {"attention-factor", "F", "explicit attention factor (yarn, longrope)", "derived", "a number in (0, 1e6]"},
        {"low-freq-factor", "F", "Llama 3 low_freq_factor", "1", "a number in (0, 1e6]"},
        {"high-freq-factor", "F", "Llama 3 high_freq_factor", "4", "a number > low-freq-factor and <= 1e6"},
        {"short-factor", "LIST", "LongRoPE short factors", "required for longrope", "rotary_dim/2 numbers from 1e-6 to 1e6"},
        {"long-factor", "LIST", "LongRoPE long factors", "required for longrope", "rotary_dim/2 numbers from 1e-6 to 1e6"},
    });
    return s;
}

std::vector<OptionSpec> ropeApplySpecs() {
    return {
        {"theta", "LIST", "explicit per-pair frequencies (replaces base and scaling)", "none", "rotary_dim/2 finite numbers"},
        {"layout", "L", "half: pairs (j, j+r/2) (Llama/NeoX); interleaved: pairs (2i, 2i+1) (GPT-J/Meta/RoFormer)", "half",
         "half or interleaved"},
    };
}

std::vector<OptionSpec> concat(std::vector<OptionSpec> a, const std::vector<OptionSpec>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

int toInt(const Options& o, const std::string& name, int def) {
    if (!o.has(name)) return def;
    return static_cast<int>(o.integer(name, INT_MIN, INT_MAX));
}

Precision precisionOf(const Options& o) {
    return o.choice("precision", {"float32", "double"}, "float32") == "double" ? Precision::Double : Precision::Float32;
}

// Sets the RoPE fields given as options (and theta/layout when present); the others keep their
// values (defaults, or a preset's).
void readRope(const Options& o, RopeParams& r) {
    if (o.has("base")) r.base = o.number("base");
    if (o.has("partial-rotary-factor")) {
        r.partial_rotary_factor = o.number("partial-rotary-factor");
        if (!o.has("rotary-dim")) r.rotary_dim = 0;
    }
    if (o.has("rotary-dim")) {
        r.rotary_dim = toInt(o, "rotary-dim", 0);
        if (r.rotary_dim == 0) fail("invalid --rotary-dim", o.spec("rotary-dim").valid, "0");
        if (!o.has("partial-rotary-factor")) r.partial_rotary_factor = 1.0;
    }
    if (o.has("scaling")) {
        const std::string sc = o.choice("scaling", {"none", "linear", "dynamic", "yarn", "longrope", "llama3"}, "none");
        r.scaling = sc == "linear"     ? RopeScaling::Linear
                    : sc == "dynamic"  ? RopeScaling::Dynamic
                    : sc == "yarn"     ? RopeScaling::Yarn
                    : sc == "longrope" ? RopeScaling::LongRope
                    : sc == "llama3"   ? RopeScaling::Llama3
                                       : RopeScaling::None;
    }
    if (o.has("factor")) r.factor = o.number("factor");
    if (o.has("max-positions")) r.max_positions = o.integer("max-positions", kI64Min, kI64Max);
    if (o.has("original-max-positions")) r.original_max_positions = o.integer("original-max-positions", kI64Min, kI64Max);
    if (o.has("seq-len")) r.seq_len = o.integer("seq-len", kI64Min, kI64Max);
    if (o.has("beta-fast")) r.beta_fast = o.number("beta-fast");
    if (o.has("beta-slow")) r.beta_slow = o.number("beta-slow");
    if (o.has("mscale")) r.mscale = o.number("mscale");
    if (o.has("mscale-all-dim")) r.mscale_all_dim = o.number("mscale-all-dim");
    if (o.has("no-truncate")) r.truncate = false;
    if (o.has("attention-factor")) r.attention_factor = o.number("attention-factor");
    if (o.has("low-freq-factor")) r.low_freq_factor = o.number("low-freq-factor");
    if (o.has("high-freq-factor")) r.high_freq_factor = o.number("high-freq-factor");
    if (o.has("short-factor")) r.short_factor = o.numberList("short-factor");
    if (o.has("long-factor")) r.long_factor = o.numberList("long-factor");
    if (o.has("theta")) r.theta = o.numberList("theta");
    if (o.has("layout"))
        r.layout = o.choice("layout", {"half", "interleaved"}, "half") == "interleaved" ? RopeLayout::Interleaved
                                                                                        : RopeLayout::Half;
    r.precision = precisionOf(o);
}

// ----- sinusoidal -------------------------------------------------------------------------------

std::vector<OptionSpec> sinusoidalMethodSpecs() {
    return {
        {"base", "F", "largest timescale", "10000", "a number > 1"},
        {"min-timescale", "F", "smallest timescale (tensor2tensor frequencies only)", "1", "0 < F < base"},
        {"layout", "L", "interleaved (sin at 2i, cos at 2i+1) or concat ([sin | cos])", "interleaved", "interleaved or concat"},
        {"frequencies", "K", "vaswani (w_i = base^(-2i/d)) or tensor2tensor (log-spaced over d/2-1 steps)", "vaswani",
         "vaswani or tensor2tensor"},
    };
}

void readSinusoidal(const Options& o, SinusoidalParams& p) {
    if (o.has("base")) p.base = o.number("base");
    if (o.has("min-timescale")) p.min_timescale = o.number("min-timescale");
    if (o.has("layout"))
        p.layout = o.choice("layout", {"interleaved", "concat"}, "interleaved") == "concat" ? SinusoidalLayout::Concat
                                                                                             : SinusoidalLayout::Interleaved;
    if (o.has("frequencies"))
        p.frequencies = o.choice("frequencies", {"vaswani", "tensor2tensor"}, "vaswani") == "tensor2tensor"
                            ? SinusoidalFrequencies::Tensor2Tensor
                            : SinusoidalFrequencies::Vaswani;
}

// ----- methods ----------------------------------------------------------------------------------

std::string methodList() {
    std::string s = "one of ";
    for (std::size_t i = 0; i < kMethods.size(); ++i) s += (i ? ", " : "") + kMethods[i];
    return s;
}

// Options of one method inside scores/decay (decay names T5's max distance --t5-max-distance).
std::vector<OptionSpec> methodSpecs(Method m, bool decay) {
    switch (m) {
    case Method::NoPE: return {};
    case Method::Sinusoidal: return sinusoidalMethodSpecs();
    case Method::Learned: return {{"table-size", "N", "learned table rows (max_position_embeddings)", "512", "an integer from 1 to 1048576"}};
    case Method::Shaw: return {{"max-relative-position", "k", "Shaw clipping distance", "16", "an integer from 1 to 1000000"}};
    case Method::T5:
        return {{"num-buckets", "N", "T5 buckets", "32", "an even integer >= 4 (bidirectional) or >= 2 (causal)"},
                {decay ? "t5-max-distance" : "max-distance", "N", "T5 relative_attention_max_distance", "128",
                 "an integer above max_exact"},
                {"heads", "H", "heads of the seeded bias table", "8", "an integer from 1 to 256"}};
    case Method::TransformerXL: return {{"clamp-len", "C", "clamp distances at C (0 = none)", "0", "an integer >= 0"}};
    case Method::Alibi:
        return {{"heads", "H", "ALiBi heads", "8", "an integer from 1 to 4096"},
                {"bias-max", "B", "MPT's alibi_bias_max", "8", "0 < B <= 1024"}};
    case Method::Rope: {
        auto s = ropeFrequencySpecs(false);
        s = concat(s, ropeApplySpecs());
        return s;
    }
    case Method::Xpos: return {{"scale-base", "F", "xPos scale_base", "512", "a number > 0"}};
    }
    return {};
}

void readMethodOptions(const Options& o, Method m, bool decay, ScoreParams& p, std::map<std::string, std::string>& rename) {
    switch (m) {
    case Method::Sinusoidal: readSinusoidal(o, p.sinusoidal); break;
    case Method::Learned:
        if (o.has("table-size")) p.learned.table_size = o.integer("table-size", kI64Min, kI64Max);
        break;
    case Method::Shaw:
        if (o.has("max-relative-position")) p.shaw.max_relative_position = o.integer("max-relative-position", kI64Min, kI64Max);
        break;
    case Method::T5: {
        p.t5.num_buckets = toInt(o, "num-buckets", p.t5.num_buckets);
        const std::string md = decay ? "t5-max-distance" : "max-distance";
        if (o.has(md)) p.t5.max_distance = o.integer(md, kI64Min, kI64Max);
        p.t5.heads = toInt(o, "heads", p.t5.heads);
        if (decay) rename["max_distance"] = "t5-max-distance";
        break;
    }
    case Method::TransformerXL:
        if (o.has("clamp-len")) p.transformer_xl.clamp_len = o.integer("clamp-len", kI64Min, kI64Max);
        break;
    case Method::Alibi:
        p.alibi.heads = toInt(o, "heads", p.alibi.heads);
        if (o.has("bias-max")) p.alibi.bias_max = o.number("bias-max");
        break;
    case Method::Rope: readRope(o, p.rope); break;
    case Method::Xpos:
        if (o.has("scale-base")) p.xpos.scale_base = o.number("scale-base");
        break;
    case Method::NoPE: break;
    }
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

}  // namespace poslab::cli
