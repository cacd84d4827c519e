#pragma once
// Model presets: the positional-encoding settings of well-known models, taken from their public
// configurations (the config.json on the model hub, or the paper where there is none).
// Each preset is a ScoreParams (method, per-head query/key dimension, the method's parameters)
// plus the model's head count and where the numbers come from. Views and `poslab presets`
// show them; `ScoreParams` of a preset always validates.
#include "core/scores.h"

#include <string>
#include <string_view>
#include <vector>

namespace poslab {

struct ModelPreset {
    std::string key;      // "llama-3.1-8b"
    std::string name;     // "Llama 3.1 8B"
    std::string source;   // "meta-llama/Llama-3.1-8B config.json"
    std::string note;     // one line: what is characteristic
    int heads = 1;        // attention heads of the model (alibi/t5: also params.alibi/t5.heads)
    ScoreParams params;   // method, dim (head dim for rope; model dim for absolute methods), options
};

// All presets, in a fixed teaching order (absolute, relative, biases, RoPE family).
const std::vector<ModelPreset>& modelPresets();

// The preset with that key, or nullptr.
const ModelPreset* findPreset(std::string_view key);

}  // namespace poslab
