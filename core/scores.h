#pragma once
// Attention scores of any method for any content — what the heatmap draws and
// `poslab compute scores` prints.
//
// Content gives query and key rows q_i, k_j (dim numbers each, identity projections), for the
// token at absolute position p (row p of an N × dim matrix):
//   ones     every entry 1
//   random   seeded N(0,1) (core/random.h; q stream 11, k stream 12), row p the same
//            whatever other positions are asked for
//   formula  q.flat[n] = sin(0.5 + 0.7n), k.flat[n] = sin(0.3 + 1.1n), n = p·dim + c
// Pre-softmax scores, s = 1/sqrt(dim) or attention.softmax_scale (attention.h: masks, NoPE layers
// (attention.nope: the method's positional part is left out), temperature tuning of the query
// rows, q/k RMS norm before or after the method's transformation, sinks):
//   nope           s·q_i·k_j
//   sinusoidal     s·(q_i + PE_i)·(k_j + PE_j)                (params.sinusoidal, dim = dim)
//   learned        s·(q_i + E_i)·(k_j + E_j)                  (params.learned; error past the table)
//   shaw           s·q_i·(k_j + a^K[clip(j − i, −k, k) + k])
//   t5             s·q_i·k_j + table[bucket(j − i)][head]
//   transformer-xl s·(a + b + c + d)  (core/transformer_xl.h, memory length 0)
//   alibi          s·q_i·k_j − m_head·(i − j)   (|i − j| unless causal)
//   rope           s·(R_i q_i)·(R_j k_j)                      (all rope options; dim = head_dim)
//   xpos           s·(xpos_up(q)_i)·(xpos_down(k)_j)          (sequence of length N, offset 0)
// causal masks j > i, a window or chunk the keys outside it (attention.h, visibleKeys): such
// entries are −infinity before softmax and 0 after it.
// softmax: row-wise over the visible keys of the sequence 0..N−1 (the exact normaliser, computed
// over those keys only), plus the head's sink logit when attention.sink is set; the
// returned entries are those asked for.
#include "core/alibi.h"
#include "core/attention.h"
#include "core/layers.h"
#include "core/learned.h"
#include "core/method.h"
#include "core/rope.h"
#include "core/shaw.h"
#include "core/sinusoidal.h"
#include "core/t5.h"
#include "core/transformer_xl.h"
#include "core/types.h"
#include "core/xpos.h"

namespace poslab {

enum class Content { Ones, Random, Formula };
template <>
struct EnumKeys<Content> {
    static constexpr std::array<EnumKey<Content>, 3> keys{
        {{Content::Ones, "ones"}, {Content::Random, "random"}, {Content::Formula, "formula"}}};
};
std::string_view contentKey(Content c);                  // "ones", "random", "formula"
std::optional<Content> contentFromKey(std::string_view key);

struct ScoreParams {
    Method method = Method::Rope;
    int dim = 64;                    // query/key dimension (head_dim for rope/xpos), 1 .. 65536
    Content content = Content::Ones;
    std::uint64_t seed = 0;
    int head = 0;                    // alibi / t5 head, 0 .. heads−1
    bool causal = false;
    bool softmax = false;
    Precision precision = Precision::Float32;
    // Per-method parameters; their `dim`/`head_dim` fields are overridden by `dim` above.
    RopeParams rope;
    XposParams xpos;
    SinusoidalParams sinusoidal;
    LearnedParams learned;
    ShawParams shaw;
    T5Params t5;
    TransformerXLParams transformer_xl;
    AlibiParams alibi;
    // The layer's attention structure (masks, NoPE, temperature tuning, q/k norm, softmax scale,
    // sinks; core/attention.h), group "attention".
    AttentionParams attention;
    // The model's layer pattern (core/layers.h; empty = none), groups "model" and
    // "model_rope_full|sliding|chunked". Descriptive: the computations use `rope` and `attention`,
    // which applyLayer() sets from it.
    LayerPattern model;

    Check validate() const;
    // Shows layer `layer` of `model`: its RoPE parameters (head_dim kept), its attention structure,
    // model.layer = layer; the method becomes rope. Precondition: model.validate() and the layer
    // exists (an invalid one is left to validate() to report, nothing changes).
    void applyLayer(std::int64_t layer);
    // The method in effect: nope for a NoPE layer (attention.nope), else `method`.
    Method effectiveMethod() const { return attention.nope ? Method::NoPE : method; }
    // The sink logit of the shown head, if any.
    std::optional<double> sinkLogit() const;
    bool operator==(const ScoreParams&) const = default;
    // The per-method structs with dim/precision synchronised from the fields above, and the
    // direction from `causal`: t5Params().bidirectional = !causal (encoder vs decoder buckets),
    // alibiParams().symmetric = !causal (−m·|i−j| unless causal). Table seeds stay the structs' own.
    RopeParams ropeParams() const;
    XposParams xposParams() const;
    SinusoidalParams sinusoidalParams() const;
    LearnedParams learnedParams() const;
    ShawParams shawParams() const;
    T5Params t5Params() const;
    TransformerXLParams transformerXLParams() const;
    AlibiParams alibiParams() const;
};

// Every parameter of ScoreParams declared once: its own fields (method, dim, content, seed, head,
// causal, softmax, precision), then each method's table nested under its group ("rope.base").
// Entries flagged kParamShared inside a group are set from the own fields (dim, precision, ...).
const ParamTable<ScoreParams>& scoreParamTable();

// Content rows for the given absolute positions, |positions| × dim. `key` selects k (true) or q.
Matrix contentRows(Content content, bool key, const Positions& positions, int dim, std::uint64_t seed);

// Scores for explicit query and key positions within a sequence of `length` tokens (0..length−1),
// |queries| × |keys|. Preconditions: params validate; every position in [0, length).
// Errors: learned sequence longer than the table (names `length`); |queries|·|keys| > 2^25
// (names `queries`); softmax over a sequence too long to normalise exactly (length·|queries| >
// 2^31 or length·|queries|·dim > 2^38, names `length`); a non-finite score (names `result`,
// e.g. xPos scales that overflow).
// With softmax and a sink, `sinkMass` (when given) receives p_sink of each query row.
Result<Matrix> scores(const ScoreParams& params, const Positions& queries, const Positions& keys,
                      std::int64_t length, std::vector<double>* sinkMass = nullptr);

// Summary over the unmasked entries of the full N × N matrix, computed in blocks so that
// memory stays O(N·dim) (and O(N) for positional-only structure, e.g. ones content with a
// relative method, where the matrix is a function of i − j).
// Limits (errors name `length`): N <= 65536, N·dim <= 2^26 and N²·dim <= 2^38 in general;
// N <= 2^24 when the matrix is a function of i − j (ones content with nope, alibi, t5, shaw,
// transformer-xl, or rope/xpos in double precision) and no softmax.
struct ScoreSummary {
    std::int64_t rows = 0, cols = 0;
    double sum = 0, min = 0, max = 0;
};
Result<ScoreSummary> scoresSummary(const ScoreParams& params, std::int64_t length);

}  // namespace poslab
