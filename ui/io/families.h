#pragma once
// Each model family as its own code applies attention (spec/conventions.md "Added in 0.4"): one
// row per model_type the config reader accepts, read from huggingface/transformers main @
// decba1d2ea4ed3cbf0495d1828abad4b2dba1846 (src/transformers/models/<type>/modeling_<type>.py;
// each row's comment in families.cpp cites the file and lines). A model_type not in the table is
// read as a Llama-style decoder, with a warning saying so (unknownFamilyWarning()).
//
// What a row states:
//   scheme      the positional scheme the family's code applies (RoPE, ALiBi, learned absolute
//               positions, T5 relative buckets)
//   causal      decoders mask keys after the query (j <= i); encoders attend both ways
//   layout      RoPE pairs: half (i, i + r/2: rotate_half) or interleaved (2i, 2i + 1)
//   rotated     which channels RoPE rotates: all, the first partial_rotary_factor·head_dim, the
//               first rotary_dim (GPT-J), or the last qk_rope_head_dim (DeepSeek MLA)
//   scale       the softmax scale: head_dim^−½, query_pre_attn_scalar^−½ (Gemma 2/3),
//               (qk_nope + qk_rope)^−½·mscale² (DeepSeek-V2/V3), attention_multiplier (Granite),
//               attn_config.softmax_scale (MPT)
//   softcap     the config key of a logit soft-cap the attention applies (Gemma 2:
//               attn_logit_softcapping, s ↦ cap·tanh(s/cap) before mask and softmax)
//   windows     which layers slide (ui/io/layerconfig.h reads them)
//   queryScale  position-dependent query scaling (Llama 4 temperature tuning on NoPE layers;
//               Ministral 3 q ×= 1 + β·ln(1 + ⌊p/N⌋))
//   qkNorm      q/k norms: RMS per head before RoPE (Qwen3, Gemma 3), RMS over the whole
//               projection before RoPE (OLMo 2/3), RMS after RoPE on the RoPE layers (Llama 4),
//               LayerNorm when a key switches it on (Cohere use_qk_norm, StableLM/Phi/Persimmon
//               qk_layernorm)
#include "core/rope.h"

#include <span>
#include <string>
#include <string_view>

namespace poslab::ui {

enum class FamilyScheme { Rope, Alibi, Learned, T5 };
enum class FamilyRotated { All, PartialFactor, RotaryDim, LastQkRope };
enum class FamilyScale { HeadDim, QueryPreAttnScalar, DeepseekMscale, AttentionMultiplier, MptSoftmaxScale };
enum class FamilyWindows {
    None,             // no sliding layer
    Pattern,          // layer_types, else the family's pattern (layerconfig.h: gemma3, cohere2, ...)
    EveryLayerIfSet,  // Mistral-style: sliding_window (null = none) on every layer
    Qwen2,            // use_sliding_window and sliding_window: layers i >= max_window_layers (28) slide
    Gemma2Even,       // layer_types, else even layers slide (window sliding_window, 4096)
    GptNeoLocal,      // attention_types: local layers with window_size (not read: learned model)
};
enum class FamilyQueryScale { None, Llama4Temperature, Ministral3 };
enum class FamilyQkNorm { None, RmsPerHeadBefore, RmsProjectionBefore, RmsAfterOnRopeLayers, LayerNormIfKey };

struct Family {
    std::string_view modelType;     // config.json's model_type
    std::string_view source;        // the modeling file, relative to src/transformers/
    std::string_view archPrefix;    // architectures[0] starts with it ("Gemma2" of Gemma2ForCausalLM)
    FamilyScheme scheme = FamilyScheme::Rope;
    bool causal = true;
    RopeLayout layout = RopeLayout::Half;
    FamilyRotated rotated = FamilyRotated::All;
    FamilyScale scale = FamilyScale::HeadDim;
    std::string_view softcapKey{};  // a soft-cap the attention applies, or empty
    FamilyWindows windows = FamilyWindows::None;
    FamilyQueryScale queryScale = FamilyQueryScale::None;
    FamilyQkNorm qkNorm = FamilyQkNorm::None;
    std::string_view qkNormKey{};   // LayerNormIfKey: the switch (use_qk_norm, qk_layernorm)
    // Learned positions that do not start at row 0 (RoBERTa: pad_token_id + 1; OPT, BART: 2).
    std::string_view positionOffset{};
};

// Every row, in the table's order.
std::span<const Family> families();
// The row of a model_type ("gemma3_text" and "llama4_text" find their family), or nullptr.
const Family* findFamily(std::string_view modelType);
// The row whose archPrefix starts architectures[0] (longest prefix wins), or nullptr.
const Family* familyOfArchitecture(std::string_view architecture);
// The row an unknown model_type is read as: a Llama-style decoder.
const Family& llamaStyleFamily();

// Words for people (compute config, the window's model note).
std::string_view familySchemeText(FamilyScheme s);
std::string familyScaleText(const Family& f);
std::string familyQkNormText(FamilyQkNorm n);

}  // namespace poslab::ui
