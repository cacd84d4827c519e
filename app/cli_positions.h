#pragma once
// Multimodal positions on the command line (cli.md "Added in 0.4", "Multimodal positions"):
// `compute positions`, and the options that give `frequencies`, `rope`, `scores` and `decay` the
// M-RoPE sections and a token layout. Options come from core/mrope.h's and core/visionrope.h's
// parameter tables; the maths is the core's.
#include "app/cli_common.h"
#include "core/mrope.h"
#include "core/visionrope.h"
#include "ui/io/modelconfig.h"

#include <optional>
#include <string>
#include <vector>

namespace poslab::cli {

// `poslab compute positions`: its options, and its JSON object's keys written into `j` (an entry of
// cli_compute.cpp's table of subcommands).
std::vector<OptionSpec> positionsSpecs();
void writePositions(const Options& o, const std::vector<std::string>& args, JsonWriter& j);

// `frequencies`: --mrope-section, --mrope-layout, --vision.
std::vector<OptionSpec> mropeFrequencySpecs();
// `rope`, `scores --method rope`, `decay --method rope`: --tokens, --model, --merge,
// --tokens-per-second, --second-per-grid, --mrope-section, --mrope-layout.
std::vector<OptionSpec> mropeTokenSpecs();

// The M-RoPE parameters of a --config (a Qwen-VL model: sections, layout, merge, the model's
// rule), else the defaults.
MropeParams mropeOfConfig(const std::optional<ui::ModelFileConfig>& config);

// A token layout's options (--tokens, --model, --merge, --tokens-per-second, --second-per-grid),
// as `compute positions` reads them.
std::vector<OptionSpec> mropeLayoutSpecs();
// The layout's parameters from those options over `start` (a --config's), checked as `compute
// positions` checks them: a missing --tokens ("missing --tokens for COMMAND"), a layout the rule refuses and options the layout does
// not read are exit 2.
MropeParams readMropeLayout(const Options& o, const MropeParams& start, const std::string& command);

// `frequencies`: the axis of each frequency when sections are given (or the config has them),
// else nullopt. Reads --mrope-section/--mrope-layout. `half` = rotary_dim/2.
std::optional<std::vector<int>> frequencyAxes(const Options& o, const MropeParams& start, int half);

// `rope`/`scores`/`decay` with --tokens: the token layout's ids and each frequency's axis;
// nullopt without --tokens (then --model, --merge, the sections … given alone are exit 2: they
// cannot change the output). A layout without sections (none given, none in --config) is exit 2.
struct MropeTokens {
    MropePositions positions;
    std::vector<int> axes;
};
std::optional<MropeTokens> readMropeTokens(const Options& o, const MropeParams& start, int half);

// `frequencies --vision qwen|pixtral` (given: the options were parsed): the vision encoder's
// frequencies for --head-dim and --base. Other RoPE options given are exit 2.
// `figure heatmap|decay|all --tokens` (a RoPE scene): the layout and sections read into `target`
// over `start` (a --config's) as `compute scores --tokens` reads them (sections required, options
// the layout does not read refused). Returns the layout's token count, or 0 without --tokens (then
// --model, --merge, the sections … given alone are exit 2). `half` = rotary_dim/2.
std::int64_t readSceneTokens(const Options& o, const MropeParams& start, int half, MropeParams& target);

bool visionRequested(const Options& o);
// `compute frequencies --vision`: the encoder's frequencies, the keys of the JSON object.
void writeVisionFrequencies(const Options& o, JsonWriter& j);

}  // namespace poslab::cli
