#pragma once
// 2-D RoPE of vision encoders: patch positions and the frequency each rotated pair uses
// (spec/conventions.md, "Added in 0.4"; transformers main @ decba1d2: vision_utils
// .get_vision_position_ids, VisionRotaryEmbedding, PixtralRotaryEmbedding, position_ids_in_meshgrid).
//
// Qwen2-VL / 2.5-VL / 3-VL (`qwen`): a grid T×H×W (patches, m = spatial_merge_size divides H, W)
//   is T·H·W tokens in merge-block-major order, repeated for each t: for block (bh, bw) in
//   row-major order, then (i, j) inside the m×m block: (row, col) = (bh·m + i, bw·m + j).
//   Frequencies: head_dim/4 of them, f_i = 1/θ^(2i/(head_dim/2)) (float32); angles of a patch
//   [row·f | col·f] (head_dim/2), emb = cat(angles, angles), half-split: pairs 0 .. hd/4−1 follow
//   the row, hd/4 .. hd/2−1 the column.
// Pixtral (`pixtral`): f = 1/θ^(2i/head_dim), i < head_dim/2 (float32); rows use f[0::2], columns
//   f[1::2]: pair j < ⌈hd/4⌉ row·f[2j], the others col·f[2(j−⌈hd/4⌉)+1]. A patch's id is
//   row·P + col with P = image_size/patch_size (patches per side of the largest image), not the
//   image's own width; patches row-major.
// Angles are float32 products f32(f32(p)·f) (torch's int64 × float32).
#include "core/param.h"
#include "core/types.h"

#include <array>
#include <string>
#include <vector>

namespace poslab {

enum class VisionRope { Qwen, Pixtral };
template <>
struct EnumKeys<VisionRope> {
    static constexpr std::array<EnumKey<VisionRope>, 2> keys{{{VisionRope::Qwen, "qwen"}, {VisionRope::Pixtral, "pixtral"}}};
};

struct VisionRopeParams {
    VisionRope encoder = VisionRope::Qwen;
    std::string grid;                   // "TxHxW", patches (required for positions)
    int merge = 2;                      // Qwen spatial_merge_size, 1 .. 64 (divides H and W)
    std::int64_t patches_per_side = 64; // Pixtral image_size // patch_size (1024/16), 1 .. 4096; H, W <= it
    int head_dim = 80;                  // 4 .. 65536, a multiple of 4 (Qwen2-VL vision 80, Pixtral 64)
    double theta = 10000.0;             // > 1, <= 1e12
    Precision precision = Precision::Float32;
    Check validate() const;             // also: the grid parses (T, H, W >= 1, T·H·W <= 2^22), m | H, W (qwen), H, W <= P (pixtral)
    bool operator==(const VisionRopeParams&) const = default;
};
const ParamTable<VisionRopeParams>& visionRopeParamTable();

struct VisionGrid {
    std::int64_t t = 1, h = 1, w = 1;
};
// "TxHxW" → grid. Errors name `grid`.
Result<VisionGrid> parseVisionGrid(std::string_view text);

// Qwen: T·H·W (row, col) pairs in the encoder's token order. Precondition: m divides H and W.
std::vector<std::array<std::int64_t, 2>> qwenVisionPositionIds(const VisionGrid& grid, int merge);
// Pixtral: H·W ids row·P + col, row-major. Precondition: H, W <= P.
Positions pixtralPositionIds(const VisionGrid& grid, std::int64_t patchesPerSide);

// Per rotated pair (head_dim/2 of them): its frequency and its axis (1 row, 2 column).
struct VisionFrequencies {
    Vector inv_freq;          // head_dim/2
    std::vector<int> axis;    // head_dim/2: 1 (row) or 2 (column)
};
VisionFrequencies visionFrequencies(const VisionRopeParams& params);   // precondition: validate()

// Angles of each patch (rows) for each rotated pair (head_dim/2 columns): row·f or col·f as the
// pair's axis says (float32 products in Float32). `rows`/`cols` one entry per patch.
Matrix visionAngles(const VisionRopeParams& params, const std::vector<std::int64_t>& rows,
                    const std::vector<std::int64_t>& cols);
// Pixtral's precomputed table (compute_default_rope_parameters): P² rows (id = row·P + col), each
// [row·f[0::2] | col·f[1::2]] duplicated to head_dim.
Matrix pixtralAngleTable(const VisionRopeParams& params);

}  // namespace poslab

namespace poslab {

// The 2-D decay of a vision encoder: the score from one chosen patch (the query, at (row, col))
// to every patch of the grid's H×W (the key), with query and key rows of ones as the decay view's
// default content (core/decay.h): s·(R(p*)·1)·(R(p)·1) = s·Σ_j 2·cos(a_j(p*) − a_j(p)), s =
// 1/√head_dim, a_j the pair's angle (visionAngles: float32 products in Float32). Each pair follows
// the row or the column alone, so the score is rowTerm[r] + colTerm[c] exactly: rowTerm sums the
// row pairs, colTerm the column pairs. Every frame of a Qwen grid repeats the same 2-D positions,
// so one H×W map stands for all T of them; Pixtral numbers one image (T must be 1).
struct VisionDecay {
    VisionGrid grid;
    std::int64_t row = 0, col = 0;   // the chosen patch
    Vector rowTerm;                  // H: s·Σ_{row pairs} 2cos(a_j(row*) − a_j(r))
    Vector colTerm;                  // W: s·Σ_{column pairs} 2cos(a_j(col*) − a_j(c))
    double scale = 1.0;              // s
    double value(std::int64_t r, std::int64_t c) const { return rowTerm[r] + colTerm[c]; }
    double maxValue() const { return rowTerm.maxCoeff() + colTerm.maxCoeff(); }   // at the chosen patch
    double minValue() const { return rowTerm.minCoeff() + colTerm.minCoeff(); }
};
// Errors: params that do not validate; no grid (names `grid`); a Pixtral grid with T > 1 (names
// `grid`); a patch outside the grid (names `patch`: "R,C with 0 <= R < H, 0 <= C < W").
Result<VisionDecay> visionDecay(const VisionRopeParams& params, std::int64_t row, std::int64_t col);
// "R,C" → (row, col), non-negative integers. Errors name `patch`.
Result<std::array<std::int64_t, 2>> parsePatch(std::string_view text);

}  // namespace poslab
