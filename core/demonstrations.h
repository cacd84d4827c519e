#pragma once
// Demonstrations for teaching: each claim of the topic computed with numbers, by the real core
// functions (rope.h, sinusoidal.h, alibi.h, t5.h, shaw.h, transformer_xl.h, learned.h, decay.h).
// A demonstration returns the measured quantities; a lecturer shows them, a test asserts them.
//
//   PermutationEquivariance  attention without positions: out(P·X) = P·out(X). Measured:
//                            max |out(shuffled) − shuffled(out)| for NoPE (≈ 1e−16) and, for
//                            contrast, for RoPE and sinusoidal (positions stay with the slots: O(0.1..1)).
//                            out = softmax(X Xᵀ/√d)·X (identity projections, like scores.h).
//   SinusoidalShift          PE(p+Δ) = R(Δ)·PE(p), R(Δ) block-diagonal rotations by Δ·w_i.
//                            Measured: max |PE(p+Δ) − R(Δ)PE(p)| over p.
//   SinusoidalRelative       PE(p)·PE(q) depends only on p − q: max spread along each diagonal.
//   SinusoidalTokens         (x_p + PE(p))·(y_q + PE(q)) with fixed tokens x, y does not: spread O(1).
//   RopeShiftInvariance      S(P) = (R_P q)(R_P k)ᵀ/√d equals S(P + Δ): max |ΔS|.
//   RopeNorm                 |R_m x| = |x|: max relative change.
//   RopeDecay                decay.h's curve and RoFormer's bound on it at growing distances, for
//                            equal content (ones); and, for contrast, the mean |score| of random
//                            Gaussian q, k, which does not decay (Barbero et al., ICLR 2025).
//   RopeComplexIdentity      ⟨R_m q, R_n k⟩ = Re[Σ_j q̃_j conj(k̃_j) e^{i(m−n)θ_j}]
//                            = Σ_j Re(q̃_j k̃_j*) cos((m−n)θ_j) − Im(q̃_j k̃_j*) sin((m−n)θ_j);
//                            the cos-only form Σ Re(q̃ k̃*) cos(…) misses the sine term.
//   KvCache                  per decoding step: RoPE rotates the new q and k once (cached keys are
//                            reused; verified equal to a full recomputation); ALiBi caches m·j once per
//                            key (BLOOM): −m(i − j) = −m·i + m·j and −m·i is the same for a whole row,
//                            which softmax ignores; T5, Shaw and Transformer-XL depend on i − j through
//                            a bucket, a clip or a sinusoid and recompute one term per cached key; xPos's
//                            key scale is centred on the sequence length, so its keys are rotated and
//                            scaled again at every step (torchscale caches them unrotated). The stale
//                            error is measured where it matters: on the attention weights.
//   Extrapolation            past the training length: learned → error; sinusoidal/ALiBi defined;
//                            RoPE pairs whose angles leave the trained range, and how linear
//                            interpolation, NTK (dynamic) and YaRN bring them back.
//   HalfVsInterleaved        half(π·x) = π·interleaved(x) for the channel permutation π; mixing the
//                            layouts gives wrong numbers (seed example; scores; broken relativity).
//   RopeBf16                 RoPE in bfloat16 at position 4096: angles built in the model's dtype
//                            (the legacy path) are off by up to π and integer positions collide
//                            above 256; angles built in float32 (transformers main) remove both.
//   LocalGlobalLayers        Gemma 3 and Llama 4: most layers see a window or chunk, a few global
//                            layers (RoPE with a large base, or NoPE with temperature tuning) reach
//                            128k and beyond.
//   XposDecay                xPos = RoPE with each pair times ζ_i^((m−n)/scale_base): its decay beside
//                            RoPE's (equal content and random content), the identity checked against
//                            the formula, and shift invariance (scores depend on m − n only).
//   ComparisonTable          learnable / extrapolation / relative / memory per method, each cell
//                            linked to the demonstration that shows it.
//
// Every input struct has defaults and validate(); for inputs that validate, all numbers are finite.
#include "core/decay.h"
#include "core/scores.h"
#include "core/method.h"
#include "core/mrope.h"
#include "core/types.h"

#include <map>
#include <string>
#include <vector>

namespace poslab {

enum class DemoId {
    PermutationEquivariance,
    SinusoidalShift,
    SinusoidalRelative,
    SinusoidalTokens,
    RopeShiftInvariance,
    RopeNorm,
    RopeDecay,
    RopeComplexIdentity,
    KvCache,
    Extrapolation,
    HalfVsInterleaved,
    ComparisonTable,
    LearnedTable,
    ShawClipping,
    T5Buckets,
    TransformerXLTerms,
    AlibiSlopes,
    Llama3Bands,
    YarnRamp,
    RopeBf16,
    LocalGlobalLayers,
    XposDecay,
    MropeImage,
    MropeSections,
};

// A demonstration of the catalogue: ids and keys only. Its title, claim and every sentence about
// its numbers are words for people, in ui/teaching/demotext.h (translatable).
struct DemoInfo {
    DemoId id;
    std::string key;      // "permutation", "sinusoidal-shift", ... (stable; sessions and tests use it)
    std::string section;  // "Attention", "Sinusoidal", "RoPE", "Inference", "Long context", "Overview"
    std::vector<std::string> methods;  // the method and scaling keys it is about ("rope", "llama3", ...)
};
const std::vector<DemoInfo>& demonstrations();
const DemoInfo& demoInfo(DemoId id);
std::optional<DemoId> demoFromKey(const std::string& key);

// ---- Attention without positions --------------------------------------------------------------
struct PermutationInput {
    int tokens = 6;                          // 2 .. 64
    int dim = 8;                             // 2 .. 256, even
    std::uint64_t seed = 0;
    std::vector<int> permutation = {2, 0, 5, 1, 4, 3};  // a permutation of 0..tokens−1; empty = reversed
    Check validate() const;
    std::vector<int> resolvedPermutation() const;
};
struct PermutationResult {
    std::vector<int> permutation;
    Matrix tokens;                 // X, tokens × dim
    Matrix out;                    // attention output without positions
    Matrix outShuffled;            // attention output of the shuffled tokens
    double nopeError = 0;          // max |out(PX) − P out(X)|
    double ropeError = 0;          // same with RoPE at positions 0..n−1 (half-split, base 10000)
    double sinusoidalError = 0;    // same with sinusoidal PE added at positions 0..n−1
};
Result<PermutationResult> demoPermutation(const PermutationInput& in = {});

// Single-head attention with identity projections: softmax(Q Kᵀ/√d)·V (row-wise softmax).
Matrix attentionOutput(const Matrix& q, const Matrix& k, const Matrix& v);

// ---- Sinusoidal ----------------------------------------------------------------------------------
struct SinusoidalDemoInput {
    int dim = 16;                    // even, 2 .. 1024
    double base = 10000.0;           // > 1
    int positions = 32;              // p = 0 .. positions−1, 8 .. 1024
    std::int64_t delta = 5;          // shift Δ, 0 .. 1e6
    std::uint64_t seed = 0;          // token embeddings x, y ~ N(0, 1)
    int layout = 0;                  // 0 interleaved, 1 concat
    Precision precision = Precision::Double;
    Check validate() const;
};
struct SinusoidalDemoResult {
    Matrix rotation;                 // R(Δ), dim × dim
    double shiftError = 0;           // max_p |PE(p+Δ) − R(Δ)·PE(p)|
    Matrix dot;                      // PE(p)·PE(q), positions × positions
    double relativeSpread = 0;       // max over diagonals of (max − min)
    Matrix dotWithTokens;            // (x + PE(p))·(y + PE(q))
    double tokensSpread = 0;         // same spread, with token embeddings added
    // Example pair: the same offset at two places (p, q) = (3, 1) and (3+Δ', 1+Δ') with Δ' = positions/2;
    // dotAtPositions[k] = {p, q}.
    std::int64_t dotAtPositions[2][2] = {{0, 0}, {0, 0}};
    double dotAt[2] = {0, 0};
    double dotWithTokensAt[2] = {0, 0};
};
Result<SinusoidalDemoResult> demoSinusoidal(const SinusoidalDemoInput& in = {});

// ---- RoPE ----------------------------------------------------------------------------------------
struct RopeDemoInput {
    int head_dim = 16;               // even, 2 .. 1024
    double base = 10000.0;           // > 1
    int tokens = 8;                  // 2 .. 256
    std::int64_t shift = 100;        // Δ, 0 .. 1e9
    std::uint64_t seed = 0;
    int layout = 0;                  // 0 half-split, 1 interleaved
    std::int64_t m = 7, n = 3;       // positions of the complex identity, 0 .. 1e9
    Precision precision = Precision::Double;
    Check validate() const;
    RopeParams params() const;
};
struct RopeDemoResult {
    Matrix q, k;                     // content rows (seeded N(0,1)), tokens × head_dim
    Matrix scores;                   // tokens × tokens at positions 0..tokens−1
    Matrix scoresShifted;            // at positions Δ..Δ+tokens−1
    double shiftError = 0;           // max |scores − scoresShifted|
    double shiftErrorFloat32 = 0;    // the same computed with float32 tables (rounding, not the maths)
    double normError = 0;            // max_m | |R_m x| − |x| | / |x| over positions 0..tokens−1 and +Δ
    // One vector x (q's row 0) rotated to each of those positions: |x| and |R_m x| (equal).
    std::vector<std::int64_t> normPositions;
    std::vector<double> normBefore, normAfter;
    // Complex identity at (m, n).
    double inner = 0;                // ⟨R_m q, R_n k⟩ via ropeRotate
    double complexFull = 0;          // Re[Σ q̃ k̃* e^{i(m−n)θ}]
    double cosOnly = 0;              // Σ Re(q̃ k̃*) cos((m−n)θ)
    double sineTerm = 0;             // −Σ Im(q̃ k̃*) sin((m−n)θ)
    double identityError = 0;        // |inner − complexFull|
    double cosOnlyError = 0;         // |inner − cosOnly|
};
Result<RopeDemoResult> demoRope(const RopeDemoInput& in = {});

struct RopeDecayInput {
    int head_dim = 64;
    double base = 10000.0;
    std::vector<std::int64_t> distances = {0, 1, 4, 16, 64, 256, 1024, 4096};
    Check validate() const;
};
struct RopeDecayResult {
    std::vector<std::int64_t> distance;
    std::vector<double> value;       // decay.h curve (ones content)
    std::vector<double> bound;       // RoFormer's relative upper bound (their Figure 2; not in score units)
    std::vector<double> scoreBound;  // RoFormer's bound on |score| in the score's units (decay.h scoreBound)
    std::vector<double> directValue; // the same score computed from ropeRotate (cross-check)
    // Not equal content (Barbero et al., ICLR 2025): q, k ~ N(0, 1) drawn `draws` times (seeds
    // 0 .. draws−1); at each distance the mean of |s·(R_d q)·k| over the draws. No decay.
    int draws = 0;
    std::vector<double> randomMeanAbs;
};
Result<RopeDecayResult> demoRopeDecay(const RopeDecayInput& in = {});

// ---- KV cache ------------------------------------------------------------------------------------
struct KvCacheInput {
    int steps = 16;                  // generated tokens, 1 .. 4096
    int head_dim = 16;               // even, 2 .. 256
    std::uint64_t seed = 0;
    int heads = 8;                   // ALiBi/T5 heads
    Check validate() const;
};
struct KvCacheStep {
    std::int64_t step = 0;           // 1-based: the sequence has `step` tokens after it
    std::int64_t cachedKeys = 0;     // keys reused from the cache (step − 1)
    std::int64_t ropeRotations = 0;  // vectors RoPE rotates at this step (the new q and the new k)
    std::int64_t alibiTerms = 0;     // ALiBi: m_h·j of the new key (1; the row's −m_h·i is dropped)
    std::int64_t relativeTerms = 0;  // positional terms T5/Shaw/Transformer-XL compute (one per key)
};
struct KvCacheMethodCount {
    Method method;
    std::vector<std::int64_t> perStep;   // positional operations at each step
    std::int64_t total = 0;
};
struct KvCacheResult {
    std::vector<KvCacheStep> steps;
    // Rope (2 per step), Alibi (1: m·j of the new key), T5, Shaw, TransformerXL (one per key:
    // step), Xpos (every key and the query: step + 1), Sinusoidal, Learned (1: the new token's encoding), NoPE (0).
    std::vector<KvCacheMethodCount> methods;
    double ropeCacheError = 0;       // max |scores from cached rotated keys − full recomputation|
    // At the last step (query T−1, keys 0..T−1): the attention weights softmax(s·q·k + term) with
    // cached positional terms against the weights with every term recomputed now; s = 1/√d, the
    // demo's seeded q and k. What softmax ignores (a constant added to a whole row) is no error.
    // ALiBi caches m_h·j per key (BLOOM); T5 and Shaw the term each old key got one step earlier
    // (query T−2; the new key's term fresh).
    double alibiStaleError = 0;      // max over heads and keys |Δ weight|: cached m·j is exact (≈ 1e−17)
    double t5StaleError = 0;         // T5 (causal buckets, head 0): > 0, the buckets move
    double shawStaleError = 0;       // Shaw (k = 16, key table a^K): > 0 while a key is within k
    // xPos: each old key rotated and scaled when it arrived (a sequence of j + 1 tokens) against
    // all keys at length T (torchscale, default XposParams): > 0, the centred scale moves.
    double xposStaleError = 0;
    // Transformer-XL (d = head_dim, default weights): b + d of each old key from one step earlier
    // (query T−2, the current query's content): > 0, R_(i−j) moves with i.
    double txlStaleError = 0;
    double alibiStaleLogit = 0;      // ALiBi before softmax: max |m_h·j − (−m_h(T−1−j))| = m_h·(T−1), a row constant
    std::int64_t shawIndicesChanged = 0;   // cached keys whose Shaw index changed in one step
    std::int64_t txlDistancesChanged = 0;  // cached keys whose Transformer-XL distance changed
};
Result<KvCacheResult> demoKvCache(const KvCacheInput& in = {});

// ---- Extrapolation -------------------------------------------------------------------------------
struct ExtrapolationInput {
    std::int64_t train_length = 2048;    // L, 2 .. 1'048'576
    std::int64_t target_length = 8192;   // T > L, .. 16·2^20
    int head_dim = 64;                   // even, 4 .. 1024
    double base = 10000.0;
    int alibi_heads = 8;
    Check validate() const;
    double factor() const { return double(target_length) / double(train_length); }
};
struct ExtrapolationRow {
    std::string method;                  // "nope", "learned", "sinusoidal", "alibi", "shaw", "t5", "transformer-xl",
                                         // "rope", "rope-linear", "rope-ntk", "rope-yarn"
    bool defined = true;                 // false: the method has no value past L (learned)
    std::string error;                   // the core's error message when not defined
    int pairs = 0;                       // rotary pairs (rope variants)
    int unseenPairs = 0;                 // pairs whose angle at T−1 exceeds every angle seen in training
    double lowestPairRatio = 0;          // angle at T−1 / largest trained angle, lowest-frequency pair
    double highestPairStep = 0;          // angle step per token of the highest-frequency pair
    double attentionFactor = 1;          // cos/sin multiplier (YaRN)
    double base = 0;                     // rope variants: the base of their frequencies (rope-ntk: base')
    double value = 0;                    // a number at position T−1 (ALiBi: bias at distance T−1 of the
                                         // flattest head; sinusoidal: max cosine similarity of PE(T−1) to
                                         // a trained row — all rows when L <= 65536, else 65536 evenly
                                         // spaced; Shaw: the clipped index; T5: the bucket)
    std::int64_t limit = 0;              // Shaw: the clipping distance k; T5: the maximum distance
};
struct ExtrapolationResult {
    std::vector<ExtrapolationRow> rows;
    const ExtrapolationRow* find(const std::string& method) const;
};
Result<ExtrapolationResult> demoExtrapolation(const ExtrapolationInput& in = {});

// ---- Half-split vs interleaved -------------------------------------------------------------------
struct LayoutDemoInput {
    int head_dim = 16;               // even, 2 .. 1024
    double base = 10000.0;
    int tokens = 8;                  // 2 .. 256
    std::int64_t shift = 50;
    std::uint64_t seed = 0;
    // The slide's heatmaps: random content (contentRows, this seed) at positions 0 .. this − 1,
    // where wrongLayoutScoreError is measured, so that it is the largest |B − A| drawn. 2 .. 256
    int heatmap_tokens = 24;
    Check validate() const;
};
struct LayoutDemoResult {
    std::vector<int> permutation;    // π: half-split channel c holds interleaved channel π[c]
    double permutationError = 0;     // max |half(π x) − π interleaved(x)|
    double scoreError = 0;           // max |S_half(πq, πk) − S_interleaved(q, k)|
    // Seed example (d = 4, m = 2, θ = [1, 0.1], q = [1, 0, 1, 0]): its inputs and both layouts' R_m q.
    std::int64_t seedPosition = 0;
    std::vector<double> seedTheta, seedQ;
    std::vector<double> seedInterleaved, seedHalf;
    double seedDifference = 0;       // |half − interleaved| (Euclidean)
    // max |S_half(q, k) − S_interleaved(q, k)| (weights not permuted), over the slide's heatmap
    // content (heatmap_tokens random rows): the largest entry of its difference panel.
    double wrongLayoutScoreError = 0;
    double mixedShiftError = 0;      // q half-split, k interleaved: max |S(P) − S(P+Δ)| (relativity lost)
    double consistentShiftError = 0; // both half-split: the same (≈ 0)
};
Result<LayoutDemoResult> demoLayouts(const LayoutDemoInput& in = {});

// ---- RoPE in bfloat16 at position 4096 ---------------------------------------------------------
// One RoPE (rope.head_dim, base, scaling, the model's dtype rope.precision) on two code paths:
// legacy, the angles built in the model's dtype (angle_precision = precision), and transformers
// main, the angles built in float32 (angle_precision = float32); in double or float32 both paths
// are the same. Per path (core/rope.h ropePrecisionErrors, ropePositionCollisions):
//   phase error at p   max over the pairs i of |angle used − p·θ_i|, wrapped to (−π, π]
//   over 0 .. P        (P = the last of `positions`) the largest phase error, the largest |Δcos|
//                      or |Δsin|, the first position the angle dtype holds as the same value as
//                      the next one, and how many of 0 .. P share their held value with another.
struct RopeBf16Input {
    RopeParams rope;                 // default: head_dim 128, base 10000, precision bfloat16
    std::vector<std::int64_t> positions = {256, 512, 1024, 2048, 4096};  // increasing, 0 .. 16384
    RopeBf16Input() { rope.head_dim = 128; rope.precision = Precision::BFloat16; }
    Check validate() const;
};
struct RopePathErrors {
    Precision anglePrecision = Precision::Float32;   // the dtype this path builds the angles in
    std::vector<double> phaseError;                  // per position of the input
    double maxPhaseError = 0;                        // over 0 .. P
    std::int64_t maxPhaseAt = 0;                     // where (the first such position)
    double maxCosSinError = 0;                       // over 0 .. P
    std::optional<std::int64_t> firstCollision;      // in 0 .. P
    std::int64_t collidingPositions = 0;             // of 0 .. P
};
struct RopeBf16Result {
    RopePathErrors legacy, main;
};
Result<RopeBf16Result> demoRopeBf16(const RopeBf16Input& in = {});

// ---- Local and global layers ---------------------------------------------------------------------
// Two models whose layers differ, as transformers main builds them from the configurations
// shipped in resources/models (gemma-3-27b.json, llama-4-scout.json; tests/ui/test_modelconfig
// checks these patterns equal what ui/io reads from the files): Gemma 3 27B and Llama 4 Scout.
// params = the scene (method rope, dim = head_dim, model = the pattern, layer 0 shown).
struct DemoLayerModel {
    std::string key;                 // the configuration's file name without .json
    std::string name;                // "Gemma 3 27B"
    ScoreParams params;
    std::int64_t context = 0;        // max_position_embeddings
};
const std::vector<DemoLayerModel>& demoLayerModels();

// A model's layers summarised (core/layers.h layerParams, core/attention.h visibleTo,
// temperatureScale): local layers = sliding or chunked ones, global = full attention.
struct LayerSummary {
    std::int64_t layers = 0, local = 0, global = 0, rope = 0, nope = 0;
    std::optional<std::int64_t> localReach;          // the largest distance any local layer sees
    std::int64_t seeingFar = 0;                      // layers that see distance `far`
    std::int64_t globalNope = 0;                     // global layers without RoPE
    double localBase = 0, globalBase = 0;            // RoPE base of the first local / global RoPE layer (0: none)
    double localFactor = 1, globalFactor = 1;        // their scaling factors
    std::vector<double> temperature;                 // τ(p) of the first NoPE layer at the asked positions (1: no tuning)
};
// far: a distance; temperatureAt: query positions. Precondition: model.validate(), not empty.
LayerSummary summariseLayers(const LayerPattern& model, std::int64_t far, const std::vector<std::int64_t>& temperatureAt,
                             Precision precision);

// ---- Multimodal positions (Qwen2-VL, Qwen3-VL: core/mrope.h) -------------------------------------
// How a vision-language model numbers an image: a token layout numbered by get_rope_index's rule
// (mropePositions). The image's tokens share one t and spread over h (rows) and w (columns); the
// text after it resumes at the image's largest id + 1; the position offset (upstream's
// rope_deltas) = largest id + 1 − tokens, what generation adds to a new token's index.
struct MropeImageInput {
    std::string tokens = "text:4,image:1x8x12,text:3";   // exactly one image, text before and after
    MropeModel model = MropeModel::Qwen2VL;
    int merge = 2;
    Check validate() const;
    MropeParams params() const;
};
struct MropeImageResult {
    MropePositions positions;             // ids 3 × N, kinds, rope_deltas
    std::int64_t tokens = 0;              // N
    std::int64_t imageBegin = 0, imageEnd = 0;   // the image's tokens [begin, end)
    std::int64_t rows = 0, cols = 0;      // its grid after merging
    std::int64_t tFirst = 0, tLast = 0;   // the image's t ids (equal: one frame)
    std::int64_t hFirst = 0, hLast = 0, wFirst = 0, wLast = 0;
    std::int64_t largestImageId = 0;      // max over the image's t, h, w
    std::int64_t textAfterFirst = 0;      // id of the first text token after the image
    std::int64_t textBeforeLast = 0;      // id of the last text token before it
    std::int64_t lastId = 0;              // the largest id of the sequence
};
Result<MropeImageResult> demoMropeImage(const MropeImageInput& in = {});

// Sections or interleaving: which RoPE frequencies each axis (t, h, w) follows in Qwen2-VL's
// sectioned layout ([16, 24, 24] of 64: t the fastest 16, h the next 24, w the slowest 24) and in
// Qwen3-VL's interleaved one ([24, 20, 20]: h at i ≡ 1, w at i ≡ 2 (mod 3), t the rest), on the
// same RoPE (head 128, θ base 10⁶, double), and the decay along each axis: two tokens with equal
// content (ones) d apart along one axis only, rotated by mropeRotate; the axis's share of the
// score, 1 + (S(d) − S(0))/(2·|A|) = the mean of cos(d·θ_i) over its frequencies A (1 at d = 0).
struct MropeSectionsInput {
    RopeParams rope;
    std::vector<std::int64_t> sectioned = {16, 24, 24};     // Qwen2-VL
    std::vector<std::int64_t> interleaved = {24, 20, 20};   // Qwen3-VL
    std::vector<std::int64_t> distances = {1, 2, 4, 8, 16, 32, 64};
    MropeSectionsInput() {
        rope.head_dim = 128;
        rope.base = 1e6;
        rope.precision = Precision::Double;
    }
    Check validate() const;
};
struct MropeAxisSummary {
    int count = 0;                        // frequencies the axis follows
    int firstIndex = 0, lastIndex = 0;    // its lowest and highest frequency index i
    double fastest = 0, slowest = 0;      // its largest and smallest θ_i (radians per position)
    std::vector<double> decay;            // at each distance: mean cos(d·θ_i) over the axis, from scores
};
struct MropeLayoutSummary {
    MropeLayout layout = MropeLayout::Sectioned;
    std::vector<std::int64_t> section;
    std::vector<int> axes;                // the axis of each frequency i (0 t, 1 h, 2 w)
    std::array<MropeAxisSummary, 3> axis;
    double identityError = 0;             // max |decay from scores − mean cos(d·θ_i)|
};
struct MropeSectionsResult {
    MropeLayoutSummary sectioned, interleaved;
};
Result<MropeSectionsResult> demoMropeSections(const MropeSectionsInput& in = {});

// ---- Comparison table ----------------------------------------------------------------------------
enum class TableColumn { Learnable, Extrapolation, Relative, Memory };
// A cell of the comparison table: which demonstration shows it, and its numbers; its words are
// ui/teaching/demotext.h's (comparisonCellText).
struct TableCell {
    std::optional<DemoId> demo;      // the demonstration that shows this cell
    double number = 0;               // Memory: parameter count at default settings
    std::vector<double> args;        // numbers its words name (Learnable: learned rows × dim; Shaw k, d; T5 buckets, heads; Transformer-XL d)
};
struct TableRow {
    Method method;
    TableCell cells[4];              // indexed by TableColumn
};
struct ComparisonTable {
    std::vector<TableRow> rows;        // one per method, kAllMethods order
    const TableRow* find(Method m) const;
};
ComparisonTable comparisonTable();

// ---- Generic summary for views ------------------------------------------------------------------
// What a demonstration measured, as ids and numbers: no words (ui/teaching/demotext.h writes the
// figures' labels and notes and the conclusion from these).
struct DemoFigure {
    std::string name;       // the key of the number in `compute demo`'s "measured" ("nope_error")
    double value = 0;
    std::vector<double> list;  // when not empty, the measured quantity is this list (value unused)
};
struct DemoSummary {
    DemoId id;
    std::vector<DemoFigure> figures;
    bool holds = false;     // the numbers show the claim (within its tolerance)
    // Numbers the sentences need that are not figures ("delta": the shift Δ, "methods": Method ids
    // in the order of a list, "precision": a Precision id, ...): by name, one number or a list.
    std::map<std::string, std::vector<double>> facts;
    const DemoFigure* find(const std::string& name) const;   // the figure of that name, or nullptr
    double fact(const std::string& name) const;              // the fact's first number (0 when absent)
    const std::vector<double>& factList(const std::string& name) const;
};
// The scene a demonstration runs on, as method parameters: `method` is the demonstration's
// method (its first in DemoInfo::methods), the per-method fields hold its own inputs (dim, base,
// precision, table size, clipping distance, buckets, heads, scaling ...). A caller may change
// them (the command line's method options) and run the demonstration on that scene.
ScoreParams demoParams(DemoId id);
// The parameters of that scene the demonstration reads (names of scoreParamTable(): own ones such
// as "dim", "precision", "causal", and a group's as "rope.base"; "rope.*" = every one of the
// group). Only these may be changed: the others would change nothing it computes.
const std::vector<std::string>& demoSceneParams(DemoId id);

// The demonstration on a scene (default: its own, demoParams(id)), reduced to labelled numbers;
// `holds` says whether the claim holds within its tolerance for that scene. An error only for a
// scene the demonstration cannot run on (message of the failing input).
Result<DemoSummary> runDemonstration(DemoId id);
Result<DemoSummary> runDemonstration(DemoId id, const ScoreParams& scene);

}  // namespace poslab
