#pragma once
// Model presets: the positional-encoding settings of well-known models, as configuration files
// compiled into the program (resources/presets/: presets.json lists them in their teaching order,
// each with its name, the source of its numbers and a note; each names a config.json holding the
// model's own keys). Each file is read by the reader of `--config` and the window's File → Open
// model configuration (ui/io/modelconfig.h), so a preset is exactly what its config gives.
// A preset sets a configuration's positional encoding only: its method, dim and the method's
// parameters (the layer pattern and attention details of a full config file are left to
// opening the file). Views, `poslab presets`, `compute --preset` and `figure --preset` use them;
// the ScoreParams of a preset always validates.
#include "core/scores.h"

#include <string>
#include <string_view>
#include <vector>

namespace poslab::ui {

struct ModelPreset {
    std::string key;      // "llama-3.1-8b"
    std::string name;     // "Llama 3.1 8B"
    std::string source;   // "meta-llama/Llama-3.1-8B config.json"
    std::string note;     // one line: what is characteristic
    int heads = 1;        // attention heads of the model (alibi/t5: also params.alibi/t5.heads)
    ScoreParams params;   // method, dim (head dim for rope; model dim for absolute methods), options
};

// All presets, in a fixed teaching order (absolute, relative, biases, RoPE family). Read once
// from the compiled-in files; a file that does not read is a fault of the build (qFatal, caught
// by tests/ui/test_presets.cpp).
const std::vector<ModelPreset>& modelPresets();

// The preset with that key, or nullptr.
const ModelPreset* findPreset(std::string_view key);

}  // namespace poslab::ui
