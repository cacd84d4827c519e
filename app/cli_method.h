#pragma once
// The method options shared by `poslab compute scores/decay` and `poslab figure`: their option
// tables (names, defaults, valid ranges for --help and errors) and the readers that set a
// ScoreParams from parsed options. Only the options given are written; the other fields keep
// their values (the defaults, a preset's or a session's).
#include "app/cli_common.h"
#include "core/method.h"
#include "core/presets.h"

#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace poslab::cli {

inline constexpr std::int64_t kI64Min = std::numeric_limits<std::int64_t>::min();
inline constexpr std::int64_t kI64Max = std::numeric_limits<std::int64_t>::max();

OptionSpec flag(const std::string& name, const std::string& help);
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
void readMethodOptions(const Options& o, Method m, bool decay, ScoreParams& p, std::map<std::string, std::string>& rename);

// An option's value before the full parse (--method and --preset decide the options).
std::optional<std::string> peekOption(const std::vector<std::string>& args, const std::string& name);
// The preset with that key, or exit 2 listing the keys.
const ModelPreset& presetOrFail(const std::string& key);

}  // namespace poslab::cli
