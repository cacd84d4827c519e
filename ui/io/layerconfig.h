#pragma once
// The layer pattern of a Hugging Face config.json (docs/spec/cli.md and conventions.md, "Added in
// 0.3"), read exactly as transformers main builds the model (huggingface/transformers @
// decba1d2, the families' configuration_*.py and modeling_*.py):
//   layers       num_hidden_layers (n_layer, num_layers); none → no pattern.
//   layer types  an explicit `layer_types` list always wins (exactly num_hidden_layers entries of
//                full_attention, sliding_attention, chunked_attention); else the family's rule:
//                gemma3       sliding if (i+1) % sliding_window_pattern (6) else full
//                cohere2      the same with pattern 4;  exaone4: pattern 4 or a string "LLLG"
//                olmo3        sliding if (i+1) % 4 else full
//                gpt_oss      sliding for even i, full for odd i
//                llama4       chunked where no_rope_layers[i] = 1, full where 0
//                modernbert   full if i % global_attn_every_n_layers (3) == 0, else sliding
//                gemma2       even layers slide (sliding_window, 4096; null: none)
//                mistral, mixtral, ministral(3), phi3, starcoder2 with sliding_window: every layer
//                qwen2(_moe), qwen3(_moe): use_sliding_window and sliding_window: layers
//                             i >= max_window_layers (28); else none
//   (the family table, ui/io/families.h, says which rule a model_type follows)
//                others       every layer full
//   RoPE flag    llama4, smollm3: no_rope_layers (1 = uses RoPE; empty/absent: int((i+1) %
//                no_rope_layer_interval (4; Meta: nope_layer_interval) != 0)); cohere2, exaone4:
//                RoPE on the sliding layers only; others: every layer.
//   window       sliding_window (gemma3 4096, cohere2 4096, exaone4 4096, olmo3 4096, gpt_oss 128
//                when absent); modernbert local_attention (128).   chunk: attention_chunk_size (8192).
//   per type     v5 nested rope_parameters {full_attention: {...}, sliding_attention: {...}}: one
//                set per type; gemma3 v4: rope_theta (1e6) + rope_scaling → full, rope_local_base_freq
//                (1e4) → sliding; modernbert v4: global_rope_theta (160000) → full,
//                local_rope_theta (10000) → sliding; others: the one set for every type. Default
//                θ when no key gives one: llama4 5e5, smollm3 2e6.
//   llama4       attn_temperature_tuning (true) → NoPE layers [floor_scale 8192, attn_scale 0.1];
//                use_qk_norm (true) → q/k norm after RoPE on RoPE layers, eps rms_norm_eps (1e-5).
//   modernbert   bidirectional (an encoder: a window W covers |i − j| ≤ ⌊W/2⌋).
//   q/k norm     families.h RmsPerHeadBefore (gemma3, qwen3, qwen3_moe, exaone4): before RoPE (eps
//                rms_norm_eps, 1e-6).
//   scale        gemma2, gemma3: query_pre_attn_scalar (256)^−½; granite: attention_multiplier;
//                deepseek_v2, deepseek_v3: (qk_nope_head_dim + qk_rope_head_dim)^−½ · mscale², mscale =
//                0.1·mscale_all_dim·ln(factor) + 1 when rope_type ≠ default, mscale_all_dim is
//                truthy and factor > 1 (yarn_get_mscale: 1 for factor <= 1).
//   layout       the family table's (interleaved: cohere, cohere2, deepseek_v2, deepseek_v3 unless
//                rope_interleave is false, gptj, glm4, llama4).
// Sinks are learned weights, not config values: none is read.
#include "ui/io/modelconfig.h"

#include <QJsonValue>
#include <QJsonObject>

#include <functional>

namespace poslab::ui {

// A config value as Python's bool() reads it (None, False, 0, "", [] and {} are false): how the
// modeling code tests a switch such as use_sliding_window.
bool jsonTruthy(const QJsonValue& v);

// A v5 rope_parameters object given per layer type: every key is a layer type (full_attention,
// sliding_attention, chunked_attention; standardize_rope_params: the keys are a subset of
// layer_types).
bool isPerLayerTypeBlock(const QJsonObject& block);

// A config.json's own object: its `text_config` when the top level is a multimodal wrapper
// (Gemma 3 4B+, Llama 4) that holds no layers of its own.
QJsonObject textConfigObject(const QJsonObject& top);

// The family's class defaults for the keys a hub config leaves out (transformers builds the
// model from the class defaults): gemma3 (head_dim 256, 8 heads, 26 layers, max positions
// 131072), llama4 (head_dim 128, 40 heads, 48 layers, 131072), gpt_oss (head_dim 64, 64 heads,
// 36 layers, 131072), cohere2 (8192 positions), smollm3 (36 layers, 32768), modernbert (22 layers,
// 8192), mistral and ministral (sliding_window 4096). A key present (even null) is kept.
QJsonObject withFamilyDefaults(const QJsonObject& o);

// Reads the layer pattern of `o` into out.params.model (and shows layer 0: applyLayer). `parse`
// parses a config object without its layer pattern (the per-type RoPE sets are read by parsing
// a copy of `o` with that type's RoPE keys). Returns an error message naming the file's key.
std::optional<QString> readLayerPattern(const QJsonObject& o, ModelFileConfig& out,
                                        const std::function<ModelConfigResult(const QJsonObject&)>& parse);

}  // namespace poslab::ui
