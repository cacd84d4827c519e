#pragma once
// Multimodal RoPE (M-RoPE) of Qwen2-VL, Qwen2.5-VL and Qwen3-VL: three position ids per token
// (t, h, w), and which RoPE frequency follows which of them (spec/conventions.md, "Added in 0.4",
// read from transformers main @ decba1d2: Qwen2VLModel.get_rope_index,
// apply_multimodal_rotary_pos_emb, Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope).
//
// Token layout: comma-separated entries `text:N`, `image:TxHxW`, `video:TxHxW` (grids in patches
// before merging, as image_grid_thw / video_grid_thw). A vision entry is T·(H/m)·(W/m) tokens
// (m = spatial_merge_size, which divides H and W, not T).
//
// Position ids (get_rope_index; cur starts at 0, runs of equal token type in order):
//   text run of n        t = h = w = cur .. cur+n−1;                 cur += n
//   vision run (T, H, W)  t = cur + arange(T)·interval, h = cur + arange(H/m), w = cur + arange(W/m)
//                         (meshgrid: t slowest, w fastest);           cur += max(H, W)/m
//   interval: 1, except Qwen2.5-VL videos: tokens_per_second · int(second_per_grid_t) (the
//   seconds are truncated BEFORE the product: 0.5 s gives 0); second_per_grid none = 1 s each.
//   Qwen3-VL splits each video grid into T grids of t = 1 (its frames are separated by
//   timestamp text): a layout gives one `video:1xHxW` per frame.
//   The temporal extent is NOT counted in cur (upstream's trap: text after a long video gets ids
//   below the video's last t). Padding (attention mask 0) is skipped and keeps id 0.
//   rope_deltas = max(ids) + 1 − (unpadded length).
//
// Frequency axes (r/2 frequencies i, section [s_t, s_h, s_w], sum = r/2; 0 t, 1 h, 2 w):
//   sectioned   (Qwen2/2.5-VL) i < s_t → t; i < s_t+s_h → h; else w (the same on both halves).
//   interleaved (Qwen3-VL) i ≡ 1 (mod 3) and i < 3·s_h → h; i ≡ 2 (mod 3) and i < 3·s_w → w;
//               every other i → t (hub [24,20,20] on 64: t = {0,3,…,57,60,61,62,63}).
// Rotation: the cos/sin of frequency i at token k use ids[axis(i)][k]; otherwise ordinary RoPE
// (core/rope.h: half-split, float32 angles f32(f32(p)·inv_freq)). Text-only input = plain RoPE.
//
// Preconditions: none for the parsers and validate(); the computations take parameters that
// validate and return errors (never throw) for layouts the upstream code rejects.
#include "core/param.h"
#include "core/rope.h"
#include "core/scores.h"
#include "core/types.h"

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace poslab {

enum class MropeModel { Qwen2VL, Qwen25VL, Qwen3VL };
enum class MropeLayout { Sectioned, Interleaved };
enum class TokenKind { Text = 0, Image = 1, Video = 2 };

template <>
struct EnumKeys<MropeModel> {
    static constexpr std::array<EnumKey<MropeModel>, 3> keys{
        {{MropeModel::Qwen2VL, "qwen2-vl"}, {MropeModel::Qwen25VL, "qwen2.5-vl"}, {MropeModel::Qwen3VL, "qwen3-vl"}}};
};
template <>
struct EnumKeys<MropeLayout> {
    static constexpr std::array<EnumKey<MropeLayout>, 2> keys{
        {{MropeLayout::Sectioned, "sectioned"}, {MropeLayout::Interleaved, "interleaved"}}};
};
std::string_view tokenKindKey(TokenKind k);   // "text", "image", "video"

// One entry of a layout: text of `n` tokens, or a vision grid T×H×W (patches before merging).
struct TokenSegment {
    TokenKind kind = TokenKind::Text;
    std::int64_t n = 0;            // text
    std::int64_t t = 0, h = 0, w = 0;   // image / video
    bool operator==(const TokenSegment&) const = default;
};
using TokenLayout = std::vector<TokenSegment>;

inline constexpr std::int64_t kMaxLayoutTokens = std::int64_t{1} << 22;   // tokens of one layout
// Parses "text:3,image:1x4x6,text:2". Errors name `tokens` and the entry that is wrong.
Result<TokenLayout> parseTokenLayout(std::string_view text);
// The layout as parseTokenLayout reads it ("text:3,image:1x4x6,text:2"; empty for none).
std::string tokenLayoutText(const TokenLayout& layout);

// The M-RoPE parameters a command line or a scene sets (one declaration each, core/param.h).
struct MropeParams {
    std::string tokens;                    // the layout (empty = none: plain positions)
    MropeModel model = MropeModel::Qwen2VL;
    int merge = 2;                         // vision spatial_merge_size, 1 .. 64
    int tokens_per_second = 2;             // Qwen2.5-VL vision_config.tokens_per_second, 1 .. 1000
    std::vector<double> second_per_grid;   // Qwen2.5-VL second_per_grid_ts, each in [0, 3600]: one
                                           // for every video, or one per video; empty = 1 s each
    std::vector<std::int64_t> mrope_section;   // [s_t, s_h, s_w], each 0 .. 32768; empty = none
    MropeLayout mrope_layout = MropeLayout::Sectioned;
    // Also: mrope_section has 3 entries.
    Check validate() const;
    bool operator==(const MropeParams&) const = default;
};
const ParamTable<MropeParams>& mropeParamTable();

// ---- Position ids --------------------------------------------------------------------------------

// get_rope_index's inputs for a batch, as upstream takes them.
struct MropeBatch {
    std::vector<std::vector<int>> token_types;       // batch × seq: 0 text, 1 image, 2 video
    std::vector<std::vector<int>> attention_mask;    // empty, or batch × seq of 0/1
    std::vector<std::array<std::int64_t, 3>> image_grid_thw, video_grid_thw;
    std::vector<double> second_per_grid_ts;          // Qwen2.5-VL; empty = none (1 s each)
};
struct MropeIndex {
    std::vector<IntMatrix> position_ids;   // per row of the batch: 3 × seq (t, h, w)
    std::vector<std::int64_t> rope_deltas;  // per row
};
// Errors (name `tokens`): a vision run whose length is not its grid's token count, grids that run
// out or a grid that m does not divide (upstream raises), an id beyond 2^40.
// Precondition: params validate (model, merge, tokens_per_second are read).
Result<MropeIndex> mropeRopeIndex(const MropeBatch& batch, const MropeParams& params);

// The ids of one layout (params.tokens parsed, or `layout`): 3 × N, rope_deltas and each token's kind.
struct MropePositions {
    IntMatrix ids;                     // 3 × N
    std::int64_t rope_deltas = 0;
    std::vector<TokenKind> kinds;      // N
};
// Errors (name `tokens`): a grid m does not divide, two vision entries of one kind without text
// between them (upstream groups them into one run and fails), a Qwen3-VL video with T > 1,
// second_per_grid with neither one nor one-per-video entries (names `second_per_grid`).
Result<MropePositions> mropePositions(const TokenLayout& layout, const MropeParams& params);
Result<MropePositions> mropePositions(const MropeParams& params);   // parses params.tokens

// ---- Frequencies ---------------------------------------------------------------------------------

// The axis (0 t, 1 h, 2 w) of each of `half` frequencies. Errors: section not 3 non-negative
// entries summing to `half` (names `mrope_section`).
Result<std::vector<int>> mropeAxes(int half, const std::vector<std::int64_t>& section, MropeLayout layout);

// cos/sin tables (N × r, RopeParams' layout, attention factor applied) with frequency i of token
// k at position ids(axes[i], k): the three axes' ropeTables, each column taken from its axis.
// Preconditions: params validate, ids 3 × N within [0, 2^40], axes.size() == r/2.
RopeTables mropeTables(const RopeParams& params, const RopeFrequencies& freqs, const IntMatrix& ids,
                       const std::vector<int>& axes);
// Rows of x (N × head_dim) rotated by their own (t, h, w) ids (ropeApply with mropeTables; the
// runtime frequency rule at seq_len = max id + 1).
Matrix mropeRotate(const RopeParams& params, const IntMatrix& ids, const std::vector<int>& axes, const Matrix& x);

// Query and key rows already rotated by M-RoPE, for scores()/diagonalMeans() with method nope:
// row p is base row p (the scene's content or file) rotated at token p's ids. RMS norm and
// temperature tuning commute with a rotation, so the nope pipeline gives M-RoPE's scores.
// Precondition: rope validates, ids 3 × N, axes r/2 entries, base rows of rope.head_dim numbers.
std::shared_ptr<const ContentSource> mropeContentSource(const ScoreParams& base, const RopeParams& rope,
                                                        IntMatrix ids, std::vector<int> axes);

}  // namespace poslab
