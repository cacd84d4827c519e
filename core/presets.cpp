// Model presets from public configurations. Every number below is the value in the named
// config (Hugging Face model hub config.json unless stated otherwise).
#include "core/presets.h"

namespace poslab {

namespace {

ModelPreset make(std::string key, std::string name, std::string source, std::string note, int heads,
                 Method method, int dim) {
    ModelPreset p;
    p.key = std::move(key);
    p.name = std::move(name);
    p.source = std::move(source);
    p.note = std::move(note);
    p.heads = heads;
    p.params.method = method;
    p.params.dim = dim;
    return p;
}

ModelPreset ropePreset(std::string key, std::string name, std::string source, std::string note, int heads,
                       int headDim, double base, std::int64_t maxPositions, RopeLayout layout) {
    ModelPreset p = make(std::move(key), std::move(name), std::move(source), std::move(note), heads, Method::Rope, headDim);
    p.params.rope.head_dim = headDim;
    p.params.rope.base = base;
    p.params.rope.max_positions = maxPositions;
    p.params.rope.layout = layout;
    return p;
}

std::vector<ModelPreset> build() {
    std::vector<ModelPreset> v;

    // Vaswani et al. 2017, Table 3 "base": d_model 512, h 8, sinusoidal (no config.json exists).
    v.push_back(make("transformer-base", "Transformer (base)", "Vaswani et al. 2017, Table 3 (base model)",
                     "sinusoidal encoding added to the 512-wide embeddings; 8 heads of 64", 8, Method::Sinusoidal, 512));

    // bert-base-uncased: max_position_embeddings 512, hidden_size 768, num_attention_heads 12.
    {
        auto p = make("bert-base", "BERT-base", "google-bert/bert-base-uncased config.json",
                      "learned absolute table of 512 positions, 768 wide; nothing past position 511", 12,
                      Method::Learned, 768);
        p.params.learned.table_size = 512;
        v.push_back(p);
    }
    // gpt2: n_positions 1024, n_embd 768, n_head 12.
    {
        auto p = make("gpt2", "GPT-2 (small)", "openai-community/gpt2 config.json",
                      "learned absolute table of 1024 positions, 768 wide", 12, Method::Learned, 768);
        p.params.learned.table_size = 1024;
        v.push_back(p);
    }
    // t5-base: relative_attention_num_buckets 32, relative_attention_max_distance 128, num_heads 12, d_kv 64.
    {
        auto p = make("t5-base", "T5-base", "google-t5/t5-base config.json",
                      "32 log-spaced relative buckets up to distance 128, one learned bias per bucket and head", 12,
                      Method::T5, 64);
        p.params.t5.num_buckets = 32;
        p.params.t5.max_distance = 128;
        p.params.t5.heads = 12;
        v.push_back(p);
    }
    // transfo-xl-wt103: d_model 1024, n_head 16, d_head 64, clamp_len 1000.
    {
        auto p = make("transformer-xl-wt103", "Transformer-XL (WikiText-103)", "transfo-xl/transfo-xl-wt103 config.json",
                      "relative sinusoid R_(i-j) clamped at 1000, u/v biases; d_model 1024, here per head (d_head 64)", 16,
                      Method::TransformerXL, 64);
        p.params.transformer_xl.clamp_len = 1000;
        v.push_back(p);
    }
    // bigscience/bloom: n_head 112, hidden_size 14336 (head dim 128), ALiBi.
    {
        auto p = make("bloom", "BLOOM (176B)", "bigscience/bloom config.json",
                      "ALiBi with 112 heads (not a power of two: 64 slopes + every other of 128)", 112, Method::Alibi, 128);
        p.params.alibi.heads = 112;
        p.params.alibi.bias_max = 8;
        v.push_back(p);
    }
    // mosaicml/mpt-7b: n_heads 32, d_model 4096, attn_config.alibi true, alibi_bias_max 8.
    {
        auto p = make("mpt-7b", "MPT-7B", "mosaicml/mpt-7b config.json (attn_config)",
                      "ALiBi with 32 heads, alibi_bias_max 8; trained at 2048 tokens", 32, Method::Alibi, 128);
        p.params.alibi.heads = 32;
        p.params.alibi.bias_max = 8;
        v.push_back(p);
    }
    // EleutherAI/gpt-j-6b: n_head 16, n_embd 4096 (head 256), rotary_dim 64, n_positions 2048.
    {
        auto p = ropePreset("gpt-j-6b", "GPT-J-6B", "EleutherAI/gpt-j-6b config.json",
                            "interleaved RoPE on the first 64 of 256 channels (rotary_dim 64)", 16, 256, 10000, 2048,
                            RopeLayout::Interleaved);
        p.params.rope.rotary_dim = 64;
        v.push_back(p);
    }
    // EleutherAI/gpt-neox-20b: num_attention_heads 64, hidden_size 6144 (head 96), rotary_pct 0.25,
    // rotary_emb_base 10000, max_position_embeddings 2048.
    {
        auto p = ropePreset("gpt-neox-20b", "GPT-NeoX-20B", "EleutherAI/gpt-neox-20b config.json",
                            "half-split RoPE on 24 of 96 channels (rotary_pct 0.25)", 64, 96, 10000, 2048, RopeLayout::Half);
        p.params.rope.partial_rotary_factor = 0.25;
        v.push_back(p);
    }
    // meta-llama/Llama-2-7b-hf: 32 heads, hidden 4096 (head 128), rope_theta 10000, max 4096.
    v.push_back(ropePreset("llama-2-7b", "Llama 2 7B", "meta-llama/Llama-2-7b-hf config.json",
                           "plain RoPE, theta 10000, 4096-token context", 32, 128, 10000, 4096, RopeLayout::Half));
    // meta-llama/Llama-3.1-8B: rope_theta 500000, rope_scaling llama3 factor 8, low 1, high 4,
    // original_max_position_embeddings 8192, max_position_embeddings 131072, 32 heads, head 128.
    {
        auto p = ropePreset("llama-3.1-8b", "Llama 3.1 8B", "meta-llama/Llama-3.1-8B config.json",
                            "llama3 scaling: long wavelengths divided by 8, short ones kept, smooth band between", 32, 128,
                            500000, 131072, RopeLayout::Half);
        p.params.rope.scaling = RopeScaling::Llama3;
        p.params.rope.factor = 8.0;
        p.params.rope.low_freq_factor = 1.0;
        p.params.rope.high_freq_factor = 4.0;
        p.params.rope.original_max_positions = 8192;
        v.push_back(p);
    }
    // mistralai/Mistral-7B-v0.1: rope_theta 10000, max_position_embeddings 32768, 32 heads, head 128,
    // sliding_window 4096.
    v.push_back(ropePreset("mistral-7b", "Mistral 7B (v0.1)", "mistralai/Mistral-7B-v0.1 config.json",
                           "plain RoPE, theta 10000; 4096-token sliding-window attention", 32, 128, 10000, 32768,
                           RopeLayout::Half));
    // Qwen/Qwen2-7B-Instruct: rope_theta 1000000, max_position_embeddings 32768, 28 heads,
    // hidden 3584 (head 128).
    v.push_back(ropePreset("qwen2-7b", "Qwen2-7B", "Qwen/Qwen2-7B-Instruct config.json",
                           "RoPE with a large base (theta 1e6) for a 32768-token context", 28, 128, 1e6, 32768,
                           RopeLayout::Half));
    // microsoft/Phi-3-mini-128k-instruct (the July 2024 update): rope_scaling type longrope,
    // rope_theta 10000, original_max_position_embeddings 4096, max_position_embeddings 131072,
    // 32 heads, hidden 3072 (head 96), long_factor and short_factor of 48 numbers each.
    {
        auto p = ropePreset("phi-3-mini-128k", "Phi-3-mini-128k-instruct", "microsoft/Phi-3-mini-128k-instruct config.json",
                            "LongRoPE: 48 searched per-pair factors, short below 4096 tokens, long above", 32, 96, 10000,
                            131072, RopeLayout::Half);
        p.params.rope.scaling = RopeScaling::LongRope;
        p.params.rope.original_max_positions = 4096;
        p.params.rope.long_factor = {
            1.0700000524520874, 1.1200000047683716, 1.149999976158142,  1.4199999570846558, 1.5699999332427979,
            1.7999999523162842, 2.129999876022339,  2.129999876022339,  3.009999990463257,  5.910000324249268,
            6.950000286102295,  9.070000648498535,  9.930000305175781,  10.710000038146973, 11.130000114440918,
            14.609999656677246, 15.409998893737793, 19.809999465942383, 37.279998779296875, 38.279998779296875,
            38.599998474121094, 40.12000274658203,  46.20000457763672,  50.940006256103516, 53.66000747680664,
            54.9373893737793,   56.89738845825195,  57.28738784790039,  59.98738479614258,  60.86738586425781,
            60.887386322021484, 61.71739196777344,  62.91739273071289,  62.957393646240234, 63.41739273071289,
            63.8173942565918,   63.83739471435547,  63.897396087646484, 63.93739700317383,  64.06739807128906,
            64.11434936523438,  64.12435150146484,  64.15435028076172,  64.19435119628906,  64.24435424804688,
            64.57435607910156,  64.69000244140625,  64.76000213623047};
        p.params.rope.short_factor = {
            1.1,                1.1,                1.1,                1.3000000000000003, 1.3500000000000003,
            1.3500000000000003, 1.4000000000000004, 1.5500000000000005, 2.000000000000001,  2.000000000000001,
            2.000000000000001,  2.000000000000001,  2.000000000000001,  2.000000000000001,  2.000000000000001,
            2.000000000000001,  2.000000000000001,  2.000000000000001,  2.000000000000001,  2.000000000000001,
            2.000000000000001,  2.000000000000001,  2.000000000000001,  2.000000000000001,  2.000000000000001,
            2.0500000000000007, 2.0500000000000007, 2.0500000000000007, 2.0500000000000007, 2.0500000000000007,
            2.0500000000000007, 2.1000000000000005, 2.1000000000000005, 2.1500000000000004, 2.25,
            2.25,               2.25,               2.25,               2.25,               2.3999999999999995,
            2.4499999999999993, 2.499999999999999,  2.6999999999999984, 2.6999999999999984, 2.7499999999999982,
            2.799999999999998,  2.8999999999999977, 3.049999999999997};
        v.push_back(p);
    }
    // deepseek-ai/DeepSeek-V3: qk_rope_head_dim 64, rope_theta 10000, rope_scaling yarn factor 40,
    // original_max_position_embeddings 4096, beta_fast 32, beta_slow 1, mscale 1, mscale_all_dim 1,
    // max_position_embeddings 163840, 128 heads. Its modeling code pairs channels (2i, 2i+1).
    {
        auto p = ropePreset("deepseek-v3", "DeepSeek-V3", "deepseek-ai/DeepSeek-V3 config.json",
                            "YaRN x40 on the 64 decoupled rope channels of MLA; mscale = mscale_all_dim gives factor 1",
                            128, 64, 10000, 163840, RopeLayout::Interleaved);
        p.params.rope.scaling = RopeScaling::Yarn;
        p.params.rope.factor = 40.0;
        p.params.rope.original_max_positions = 4096;
        p.params.rope.beta_fast = 32;
        p.params.rope.beta_slow = 1;
        p.params.rope.mscale = 1.0;
        p.params.rope.mscale_all_dim = 1.0;
        v.push_back(p);
    }
    return v;
}

}  // namespace

const std::vector<ModelPreset>& modelPresets() {
    static const std::vector<ModelPreset> presets = build();
    return presets;
}

const ModelPreset* findPreset(std::string_view key) {
    for (const auto& p : modelPresets())
        if (p.key == key) return &p;
    return nullptr;
}

}  // namespace poslab
