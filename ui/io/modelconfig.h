#pragma once
// Model configuration files: a Hugging Face config.json (v4 and v5 forms) or a GGUF file's
// metadata, turned into the ScoreParams transformers main would compute from it (docs/spec/cli.md
// "--config", docs/spec/conventions.md). Every number is checked through the parameter table
// (ParamInfo::check) and a bad value is one message naming the file's key:
//   "rope_scaling.factor must be a number from 1e-6 to 1e6, got -2".
//
// config.json → parameters (transformers main, modeling_rope_utils.py):
//   RoPE block      v5 `rope_parameters` (a dict, or per layer type {full_attention: {...}}: the
//                   full-attention one), else v4 `rope_scaling` (`type` or `rope_type`);
//                   rope_theta (block, else top level, else 10000), partial_rotary_factor (block,
//                   else top level; NeoX v4 `rotary_pct`), GPT-J `rotary_dim`.
//   head_dim        `qk_rope_head_dim` (DeepSeek MLA: the rotated part), else `head_dim` (when
//                   truthy), else hidden_size // num_attention_heads (n_embd/n_head for GPT-style).
//   max_positions   max_position_embeddings (n_positions).
//   original_max    yarn, longrope, llama3: a top-level `original_max_position_embeddings` wins
//                   (Phi-3 style), else the block's, else max_position_embeddings (standardize).
//   factor          linear, dynamic, llama3: required; yarn, longrope: unset → max/original.
//   yarn            beta_fast/beta_slow (`or` 32/1: 0 or null = default), mscale, mscale_all_dim,
//                   attention_factor, truncate (default true).
//   longrope        short_factor, long_factor (required), attention_factor.
//   llama3          low_freq_factor, high_freq_factor (required).
//   layout          DeepSeek's `rope_interleave: true` → interleaved; else half-split.
// Layer pattern (ui/io/layerconfig.h): num_hidden_layers, layer_types, no_rope_layers, per-type
//   RoPE, window, chunk, ... into params.model, and layer 0 shown (params.applyLayer(0)). A
//   multimodal wrapper's `text_config` is read as the config.
// Non-RoPE families: BLOOM (model_type bloom) and MPT (attn_config.alibi) → alibi with n_head /
// n_heads heads and attn_config.alibi_bias_max; T5 (relative_attention_num_buckets) → t5;
// GPT-2/BERT family (no RoPE key, n_positions or a learned-position model_type) → learned with
// table_size = n_positions / max_position_embeddings and dim = the model dimension.
#include "core/mrope.h"
#include "core/scores.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstddef>
#include <map>
#include <optional>
#include <string>

namespace poslab::ui {

// What a config.json's reading did with each of its keys (docs/spec/cli.md "compute config"): every
// top-level key (and text_config's, as "text_config.KEY", when the text model is read) is in
// exactly one of used (what it set), ignored (why) and notModelled (what it would do); entries
// named "KEY.PART" in notModelled say what part of a used key the product does not draw.
// defaults: parameters taken because the file has no key for them. GGUF: its metadata keys.
struct ConfigReport {
    QString family;        // the family table's row the file was read as (ui/io/families.h)
    QString source;        // that row's modeling file
    std::map<QString, QString> used, ignored, notModelled, defaults;
    QStringList warnings;  // e.g. an unknown model_type read as a Llama-style decoder
};

struct ModelFileConfig {
    ScoreParams params;                          // method, dim and the method's own parameters
                                                 // (params.causal: the model's own masking)
    int heads = 1;                               // attention heads of the model
    std::optional<std::int64_t> contextLength;   // max_position_embeddings / context_length
    QString modelType;                           // "llama", "bloom", GGUF general.architecture, ...
    // scoreParamTable() path ("rope.factor", "dim") → the file's key it came from
    // ("rope_scaling.factor", "llama.rope.freq_base").
    std::map<std::string, QString> fromFile;
    std::int64_t layerCount = 0;                 // num_hidden_layers (n_layer, num_layers; GGUF block_count), 0 = unknown
    // Qwen2-VL / Qwen2.5-VL / Qwen3-VL (M-RoPE, conventions.md "Added in 0.4"): the sections and
    // their layout, the position-id rule, vision_config.spatial_merge_size and tokens_per_second.
    std::optional<MropeParams> mrope;
    ConfigReport report;
    // The file's keys that set something, sorted.
    QStringList keys() const;
};

struct ModelConfigResult {
    std::optional<ModelFileConfig> config;
    QString error;   // when !config: "<key> must be <valid>, got <value>" or what is wrong with the file
};

// A Hugging Face config.json's bytes.
ModelConfigResult parseHfConfig(const QByteArray& json);

// A GGUF file's bytes (ui/io/gguf.h): general.architecture selects the method (bloom, mpt →
// alibi; t5 → t5; gpt2, starcoder, bert → learned; any other → rope); keys <arch>.rope.freq_base,
// .rope.dimension_count (≠ head dim → rotary_dim), .attention.head_count, .attention.key_length
// (else embedding_length / head_count), .context_length, .rope.scaling.type (none, linear, yarn),
// .rope.scaling.factor, .rope.scaling.original_context_length, .embedding_length; and the tensor
// rope_freqs.weight (llama.cpp's Llama 3 scaling: per-pair divisors of inv_freq, read from the
// mapped data section): llama3 scaling when transformers' llama3 rule reproduces its frequencies
// (factor = its largest divisor, low/high freq factors 1 and 4, original context the file's or
// 8192) to 1e-6, else those exact frequencies as explicit θ.
ModelConfigResult parseGgufConfig(const char* data, std::size_t size);

// A file: GGUF (by its magic "GGUF") or else config.json. Reads at most the metadata of a GGUF
// (ui/io/gguf.h). Unreadable file → error "cannot read: <reason>". A folder: the config.json of
// a Hugging Face snapshot or cache folder it stands for (ui/io/hfsnapshot.h).
ModelConfigResult readModelConfigFile(const QString& path);

}  // namespace poslab::ui
