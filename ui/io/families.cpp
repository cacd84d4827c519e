#include "ui/io/families.h"

#include <array>
#include <string>

namespace poslab::ui {

namespace {

using S = FamilyScheme;
using R = FamilyRotated;
using C = FamilyScale;
using W = FamilyWindows;
using Q = FamilyQueryScale;
using N = FamilyQkNorm;
constexpr RopeLayout kHalf = RopeLayout::Half;
constexpr RopeLayout kInter = RopeLayout::Interleaved;

// transformers @ decba1d2ea4ed3cbf0495d1828abad4b2dba1846, paths under src/transformers/models/.
// Every RoPE row but those marked applies Llama's rotate_half (pairs i, i + r/2), scale
// head_dim**-0.5 and is_causal = True; the lines cited are those statements in the file.
const Family kFamilies[] = {
    // llama/modeling_llama.py:130-160 rotate_half + apply_rotary_pos_emb; :226 scaling; :228 is_causal.
    {"llama", "models/llama/modeling_llama.py", "Llama"},
    // mistral/modeling_mistral.py:51-80 rotate_half; :131 scaling; :133 is_causal; :172, :364
    // sliding_window on every layer, None = full attention.
    {"mistral", "models/mistral/modeling_mistral.py", "Mistral", S::Rope, true, kHalf, R::All, C::HeadDim, {}, W::EveryLayerIfSet},
    // mixtral/modeling_mixtral.py:211-240 rotate_half; :291, :293; :332, :454 sliding_window as Mistral.
    {"mixtral", "models/mixtral/modeling_mixtral.py", "Mixtral", S::Rope, true, kHalf, R::All, C::HeadDim, {}, W::EveryLayerIfSet},
    // ministral/modeling_ministral.py:66-100 rotate_half; :147, :149; :155 window per layer_types
    // (configuration_ministral.py:92-95: every layer slides when sliding_window is set).
    {"ministral", "models/ministral/modeling_ministral.py", "Ministral", S::Rope, true, kHalf, R::All, C::HeadDim, {}, W::EveryLayerIfSet},
    // ministral3/modeling_ministral3.py:35-70 rotate_half; :120 scaling; :122 is_causal; :105-107
    // get_llama_4_attn_scale = 1 + beta·log(1 + floor(p / original_max_position_embeddings));
    // :146-150 query_states *= it after RoPE (keys untouched); :167 sliding_window (None: full).
    {"ministral3", "models/ministral3/modeling_ministral3.py", "Ministral3", S::Rope, true, kHalf, R::All, C::HeadDim, {},
     W::EveryLayerIfSet, Q::Ministral3},
    // qwen2/modeling_qwen2.py:105-135 rotate_half; :186, :188; :193 window on sliding layers;
    // configuration_qwen2.py:84-93: no window unless use_sliding_window, then i >= max_window_layers.
    {"qwen2", "models/qwen2/modeling_qwen2.py", "Qwen2", S::Rope, true, kHalf, R::All, C::HeadDim, {}, W::Qwen2},
    // qwen2_moe/modeling_qwen2_moe.py:146-175; :226, :228; :235 (configuration_qwen2_moe.py:90-91).
    {"qwen2_moe", "models/qwen2_moe/modeling_qwen2_moe.py", "Qwen2Moe", S::Rope, true, kHalf, R::All, C::HeadDim, {}, W::Qwen2},
    // qwen3/modeling_qwen3.py:140-170; :221, :223; :237 q_norm/k_norm RMSNorm(head_dim) before RoPE;
    // :239 window (configuration_qwen3.py:87-96 as Qwen2).
    {"qwen3", "models/qwen3/modeling_qwen3.py", "Qwen3", S::Rope, true, kHalf, R::All, C::HeadDim, {}, W::Qwen2, Q::None,
     N::RmsPerHeadBefore},
    // qwen3_moe/modeling_qwen3_moe.py:51-80; :131, :133; :147 q_norm per head; :149
    // (configuration_qwen3_moe.py:99-115: window only with use_sliding_window).
    {"qwen3_moe", "models/qwen3_moe/modeling_qwen3_moe.py", "Qwen3Moe", S::Rope, true, kHalf, R::All, C::HeadDim, {}, W::Qwen2,
     Q::None, N::RmsPerHeadBefore},
    // qwen2_vl/modeling_qwen2_vl.py:173-215 rotate_half + apply_multimodal_rotary_pos_emb (M-RoPE
    // sections, ui/io/mropeconfig.h); :491 is_causal; :494 scaling; :506 window as Qwen2.
    {"qwen2_vl", "models/qwen2_vl/modeling_qwen2_vl.py", "Qwen2VL", S::Rope, true, kHalf, R::All, C::HeadDim, {}, W::Qwen2},
    // qwen2_5_vl/modeling_qwen2_5_vl.py:153, :557 apply_multimodal_rotary_pos_emb; :624; :627; :639.
    {"qwen2_5_vl", "models/qwen2_5_vl/modeling_qwen2_5_vl.py", "Qwen2_5_VL", S::Rope, true, kHalf, R::All, C::HeadDim, {}, W::Qwen2},
    // qwen3_vl/modeling_qwen3_vl.py:365 apply_interleaved_mrope, :412 rotate_half application; :448
    // scaling; :450 is_causal; :464 q_norm per head before RoPE.
    {"qwen3_vl", "models/qwen3_vl/modeling_qwen3_vl.py", "Qwen3VL", S::Rope, true, kHalf, R::All, C::HeadDim, {}, W::None,
     Q::None, N::RmsPerHeadBefore},
    // gemma/modeling_gemma.py:157-190 rotate_half; :237 scaling; :239 is_causal.
    {"gemma", "models/gemma/modeling_gemma.py", "Gemma"},
    // gemma2/modeling_gemma2.py:139-170 rotate_half; :229 scaling = query_pre_attn_scalar**-0.5;
    // :231 is_causal; :245 attn_logit_softcapping, :201-206 s/cap → tanh → ×cap before the mask;
    // :246 window on sliding layers; configuration_gemma2.py:95-98 even layers slide.
    {"gemma2", "models/gemma2/modeling_gemma2.py", "Gemma2", S::Rope, true, kHalf, R::All, C::QueryPreAttnScalar,
     "attn_logit_softcapping", W::Gemma2Even},
    // gemma3/modeling_gemma3.py:228-260 rotate_half; :318 scaling = query_pre_attn_scalar**-0.5;
    // :320 is_causal; :335 window; :338 q_norm/k_norm per head before RoPE (soft-cap stored, not applied).
    {"gemma3", "models/gemma3/modeling_gemma3.py", "Gemma3", S::Rope, true, kHalf, R::All, C::QueryPreAttnScalar, {},
     W::Pattern, Q::None, N::RmsPerHeadBefore},
    // cohere/modeling_cohere.py:115 repeat_interleave(freqs, 2); :175-181 rotate_half on (2i, 2i+1);
    // :220, :222; :238-245 use_qk_norm: LayerNorm per head before RoPE.
    {"cohere", "models/cohere/modeling_cohere.py", "Cohere", S::Rope, true, kInter, R::All, C::HeadDim, {}, W::None, Q::None,
     N::LayerNormIfKey, "use_qk_norm"},
    // cohere2/modeling_cohere2.py:89 repeat_interleave; :150-156 interleaved rotate_half; :195, :197;
    // :198 window on sliding layers (RoPE on sliding layers only).
    {"cohere2", "models/cohere2/modeling_cohere2.py", "Cohere2", S::Rope, true, kInter, R::All, C::HeadDim, {}, W::Pattern},
    // deepseek_v2/modeling_deepseek_v2.py:267-280 apply_rotary_emb on complex pairs (2i, 2i+1) of
    // q_pe = the last qk_rope_head_dim channels; :283-296 yarn_get_mscale (1 for factor <= 1) and
    // yarn_apply_mscale; :318 is_causal; :345 scaling = qk_head_dim**-0.5 · mscale².
    {"deepseek_v2", "models/deepseek_v2/modeling_deepseek_v2.py", "DeepseekV2", S::Rope, true, kInter, R::LastQkRope,
     C::DeepseekMscale},
    // deepseek_v3/modeling_deepseek_v3.py:273-286 yarn_get_mscale/yarn_apply_mscale; :322-345
    // apply_rotary_pos_emb_interleave (rope_interleave, default true); :380; :407 scaling.
    {"deepseek_v3", "models/deepseek_v3/modeling_deepseek_v3.py", "DeepseekV3", S::Rope, true, kInter, R::LastQkRope,
     C::DeepseekMscale},
    // phi3/modeling_phi3.py:126-132, :170-200; :210, :212; :257, :395 sliding_window on every layer.
    {"phi3", "models/phi3/modeling_phi3.py", "Phi3", S::Rope, true, kHalf, R::PartialFactor, C::HeadDim, {}, W::EveryLayerIfSet},
    // phi/modeling_phi.py:92-125; :172, :174; :179 rotary_ndims = head_dim·partial_rotary_factor;
    // :180-182 qk_layernorm.
    {"phi", "models/phi/modeling_phi.py", "Phi", S::Rope, true, kHalf, R::PartialFactor, C::HeadDim, {}, W::None, Q::None,
     N::LayerNormIfKey, "qk_layernorm"},
    // olmo/modeling_olmo.py:132-140, :177-205; :213, :215.
    {"olmo", "models/olmo/modeling_olmo.py", "Olmo"},
    // olmo2/modeling_olmo2.py:162-195; :205, :207; :221 q_norm = RMSNorm(num_heads·head_dim): over the
    // whole projection, before RoPE.
    {"olmo2", "models/olmo2/modeling_olmo2.py", "Olmo2", S::Rope, true, kHalf, R::All, C::HeadDim, {}, W::None, Q::None,
     N::RmsProjectionBefore},
    // olmo3/modeling_olmo3.py:103-135; :146, :148; :162 q_norm over the projection; :165 window.
    {"olmo3", "models/olmo3/modeling_olmo3.py", "Olmo3", S::Rope, true, kHalf, R::All, C::HeadDim, {}, W::Pattern, Q::None,
     N::RmsProjectionBefore},
    // gpt_oss/modeling_gpt_oss.py:227-245 half-split via chunk; :277, :279; :292 window; :293 sinks.
    {"gpt_oss", "models/gpt_oss/modeling_gpt_oss.py", "GptOss", S::Rope, true, kHalf, R::All, C::HeadDim, {}, W::Pattern},
    // falcon/modeling_falcon.py:69-100 rotate_half (RoPE when alibi is false); :223 is_causal;
    // :239 inv_norm_factor = head_dim**-0.5; :405-406 with alibi, (q·k + alibi)·inv_norm_factor.
    {"falcon", "models/falcon/modeling_falcon.py", "Falcon"},
    // gpt_neox/modeling_gpt_neox.py:111-125; :186-189 rotary_ndims = head_size·partial_rotary_factor.
    {"gpt_neox", "models/gpt_neox/modeling_gpt_neox.py", "GPTNeoX", S::Rope, true, kHalf, R::PartialFactor},
    // gptj/modeling_gptj.py:57-70 rotate_every_two, repeat_interleave: pairs (2i, 2i+1); :79
    // is_causal; :96, :148 / sqrt(head_dim); :102, :196 the first rotary_dim channels.
    {"gptj", "models/gptj/modeling_gptj.py", "GPTJ", S::Rope, true, kInter, R::RotaryDim},
    // llama4/modeling_llama4.py:233-245 apply_rotary_emb (complex, interleaved); :320 scaling; :325
    // is_causal; :339 qk_norm on RoPE layers after RoPE; :370-374 temperature on NoPE layers.
    {"llama4", "models/llama4/modeling_llama4.py", "Llama4", S::Rope, true, kInter, R::All, C::HeadDim, {}, W::Pattern,
     Q::Llama4Temperature, N::RmsAfterOnRopeLayers},
    // smollm3/modeling_smollm3.py:103-135; :183, :185; :200 use_rope = no_rope_layers[i]; :201-203 window.
    {"smollm3", "models/smollm3/modeling_smollm3.py", "SmolLM3", S::Rope, true, kHalf, R::All, C::HeadDim, {}, W::Pattern},
    // exaone4/modeling_exaone4.py:124-155; :205-207 is_causal, scaling, window; :217 q_norm per head.
    {"exaone4", "models/exaone4/modeling_exaone4.py", "Exaone4", S::Rope, true, kHalf, R::All, C::HeadDim, {}, W::Pattern,
     Q::None, N::RmsPerHeadBefore},
    // modernbert/modeling_modernbert.py:188-220; :251-255 local window; :257 is_causal = False.
    {"modernbert", "models/modernbert/modeling_modernbert.py", "ModernBert", S::Rope, false, kHalf, R::All, C::HeadDim, {},
     W::Pattern},
    // starcoder2/modeling_starcoder2.py:70-100; :150, :152; :192, :367 sliding_window on every layer.
    {"starcoder2", "models/starcoder2/modeling_starcoder2.py", "Starcoder2", S::Rope, true, kHalf, R::All, C::HeadDim, {},
     W::EveryLayerIfSet},
    // stablelm/modeling_stablelm.py:117-150; :241 rotary_ndims; :242-243; :255 qk_layernorm.
    {"stablelm", "models/stablelm/modeling_stablelm.py", "StableLm", S::Rope, true, kHalf, R::PartialFactor, C::HeadDim, {},
     W::None, Q::None, N::LayerNormIfKey, "qk_layernorm"},
    // persimmon/modeling_persimmon.py:117-150; :206 is_causal; :216 scaling (qk_layernorm).
    {"persimmon", "models/persimmon/modeling_persimmon.py", "Persimmon", S::Rope, true, kHalf, R::PartialFactor, C::HeadDim, {},
     W::None, Q::None, N::LayerNormIfKey, "qk_layernorm"},
    // granite/modeling_granite.py:44-75; :124 scaling = attention_multiplier; :126 is_causal.
    {"granite", "models/granite/modeling_granite.py", "Granite", S::Rope, true, kHalf, R::All, C::AttentionMultiplier},
    // glm4/modeling_glm4.py:150-185 cos/sin[..., :d/2].repeat_interleave(2): interleaved inside the
    // rotary block (partial_rotary_factor); :206, :208.
    {"glm4", "models/glm4/modeling_glm4.py", "Glm4", S::Rope, true, kInter, R::PartialFactor},
    // Non-RoPE families:
    // bloom/modeling_bloom.py:45-80 build_alibi_tensor; :186-187 beta 1, alpha head_dim**-0.5; :273-274.
    {"bloom", "models/bloom/modeling_bloom.py", "Bloom", S::Alibi},
    // mpt/modeling_mpt.py:42-62 build_mpt_alibi_tensor(alibi_bias_max); :76-77 softmax_scale or head_dim**-0.5.
    {"mpt", "models/mpt/modeling_mpt.py", "Mpt", S::Alibi, true, kHalf, R::All, C::MptSoftmaxScale},
    // t5/modeling_t5.py:211-217 relative_attention_bias, _relative_position_bucket (encoder
    // bidirectional, decoder causal); the encoder's stack is what the scene shows.
    {"t5", "models/t5/modeling_t5.py", "T5", S::T5, false},
    // gpt2/modeling_gpt2.py:96-98 scaling; :111 is_causal; :493 wpe = Embedding(max_position_embeddings).
    {"gpt2", "models/gpt2/modeling_gpt2.py", "GPT2", S::Learned},
    // gpt_bigcode/modeling_gpt_bigcode.py:132 is_causal; :378 wpe.
    {"gpt_bigcode", "models/gpt_bigcode/modeling_gpt_bigcode.py", "GPTBigCode", S::Learned},
    // gpt_neo/modeling_gpt_neo.py:62-72 local layers: window_size; :72 is_causal.
    {"gpt_neo", "models/gpt_neo/modeling_gpt_neo.py", "GPTNeo", S::Learned, true, kHalf, R::All, C::HeadDim, {}, W::GptNeoLocal},
    // bert/modeling_bert.py:59 position_embeddings; :359 is_causal = config.is_decoder (False).
    {"bert", "models/bert/modeling_bert.py", "Bert", S::Learned, false},
    // distilbert/modeling_distilbert.py:86 position_embeddings (sinusoidal_pos_embds: :62-73).
    {"distilbert", "models/distilbert/modeling_distilbert.py", "DistilBert", S::Learned, false},
    // electra/modeling_electra.py:62 position_embeddings; :168 is_causal (False for the encoder).
    {"electra", "models/electra/modeling_electra.py", "Electra", S::Learned, false},
    // albert/modeling_albert.py:57 position_embeddings; :164 is_causal = False.
    {"albert", "models/albert/modeling_albert.py", "Albert", S::Learned, false},
    // roberta/modeling_roberta.py:71 position_embeddings; :137 positions from padding_idx + 1.
    {"roberta", "models/roberta/modeling_roberta.py", "Roberta", S::Learned, false, kHalf, R::All, C::HeadDim, {}, W::None,
     Q::None, N::None, {}, "pad_token_id + 1"},
    // xlm_roberta/modeling_xlm_roberta.py:71, :137 as RoBERTa.
    {"xlm-roberta", "models/xlm_roberta/modeling_xlm_roberta.py", "XLMRoberta", S::Learned, false, kHalf, R::All, C::HeadDim,
     {}, W::None, Q::None, N::None, {}, "pad_token_id + 1"},
    // camembert/modeling_camembert.py:71, :137 as RoBERTa.
    {"camembert", "models/camembert/modeling_camembert.py", "Camembert", S::Learned, false, kHalf, R::All, C::HeadDim, {},
     W::None, Q::None, N::None, {}, "pad_token_id + 1"},
    // opt/modeling_opt.py:53 offset = 2; :121 is_causal.
    {"opt", "models/opt/modeling_opt.py", "OPT", S::Learned, true, kHalf, R::All, C::HeadDim, {}, W::None, Q::None, N::None,
     {}, "2"},
    // bart/modeling_bart.py:82 offset = 2; :171 is_causal per stack (the encoder: False).
    {"bart", "models/bart/modeling_bart.py", "Bart", S::Learned, false, kHalf, R::All, C::HeadDim, {}, W::None, Q::None,
     N::None, {}, "2"},
    // mbart/modeling_mbart.py:88 offset = 2; :179.
    {"mbart", "models/mbart/modeling_mbart.py", "MBart", S::Learned, false, kHalf, R::All, C::HeadDim, {}, W::None, Q::None,
     N::None, {}, "2"},
};

}  // namespace

std::span<const Family> families() { return kFamilies; }

const Family* findFamily(std::string_view modelType) {
    for (const Family& f : kFamilies)
        if (f.modelType == modelType) return &f;
    // A multimodal wrapper's text model: gemma3_text, llama4_text.
    if (modelType.size() > 5 && modelType.substr(modelType.size() - 5) == "_text")
        return findFamily(modelType.substr(0, modelType.size() - 5));
    return nullptr;
}

const Family* familyOfArchitecture(std::string_view architecture) {
    const Family* best = nullptr;
    for (const Family& f : kFamilies) {
        if (f.archPrefix.empty() || architecture.substr(0, f.archPrefix.size()) != f.archPrefix) continue;
        // The prefix must end the model's name: "Gemma" is not "Gemma2ForCausalLM"'s family.
        const std::string_view rest = architecture.substr(f.archPrefix.size());
        if (!rest.empty() && !(rest.substr(0, 3) == "For" || rest.substr(0, 5) == "Model" || rest.substr(0, 6) == "LMHead"))
            continue;
        if (!best || f.archPrefix.size() > best->archPrefix.size()) best = &f;
    }
    return best;
}

const Family& llamaStyleFamily() { return kFamilies[0]; }

std::string_view familySchemeText(FamilyScheme s) {
    switch (s) {
    case FamilyScheme::Rope: return "RoPE";
    case FamilyScheme::Alibi: return "ALiBi";
    case FamilyScheme::Learned: return "learned absolute positions";
    case FamilyScheme::T5: return "T5 relative buckets";
    }
    return "RoPE";
}

std::string familyScaleText(const Family& f) {
    switch (f.scale) {
    case FamilyScale::HeadDim: return "head_dim^-1/2";
    case FamilyScale::QueryPreAttnScalar: return "query_pre_attn_scalar^-1/2";
    case FamilyScale::DeepseekMscale: return "(qk_nope_head_dim + qk_rope_head_dim)^-1/2 · mscale²";
    case FamilyScale::AttentionMultiplier: return "attention_multiplier";
    case FamilyScale::MptSoftmaxScale: return "attn_config.softmax_scale, else head_dim^-1/2";
    }
    return "head_dim^-1/2";
}

std::string familyQkNormText(FamilyQkNorm n) {
    switch (n) {
    case FamilyQkNorm::None: return "none";
    case FamilyQkNorm::RmsPerHeadBefore: return "RMSNorm per head before RoPE";
    case FamilyQkNorm::RmsProjectionBefore: return "RMSNorm over the whole q and k projections (all heads) before RoPE";
    case FamilyQkNorm::RmsAfterOnRopeLayers: return "RMS norm after RoPE on the RoPE layers";
    case FamilyQkNorm::LayerNormIfKey: return "LayerNorm of q and k when switched on";
    }
    return "none";
}

}  // namespace poslab::ui
