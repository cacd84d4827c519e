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
// (attention.nope: the method's positional part is left out), temperature tuning and Ministral 3's
// scaling of the query rows, q/k RMS norm before or after the method's transformation, the logit
// soft-cap C·tanh(score/C) of each score below (relative term included) before mask and softmax,
// sinks):
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

#include <memory>
#include <string>

namespace poslab {

enum class Content { Ones, Random, Formula };
template <>
struct EnumKeys<Content> {
    static constexpr std::array<EnumKey<Content>, 3> keys{
        {{Content::Ones, "ones"}, {Content::Random, "random"}, {Content::Formula, "formula"}}};
};
std::string_view contentKey(Content c);                  // "ones", "random", "formula"
std::optional<Content> contentFromKey(std::string_view key);

// Query and key rows from outside: a model's pre-RoPE projections, read at the edge (ui/io's
// q/k file readers). Row p is the token at position p, 0 <= p < length(); dim() numbers each.
// rows() must be safe to call from several threads at once and return finite numbers.
class ContentSource {
public:
    virtual ~ContentSource() = default;
    virtual std::int64_t length() const = 0;                       // N, the rows the file holds
    virtual int dim() const = 0;                                   // d
    virtual Matrix rows(bool key, const Positions& positions) const = 0;   // |positions| × d
    virtual std::string name() const = 0;                          // for messages: "q.npy, k.npy"
};

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
    // Real content: when set, q/k rows come from it and `content`/`seed` do not apply to them.
    // Not a declared parameter (the scene keeps the file's path; core sees the rows only);
    // compared by identity. validate() requires dim == source->dim().
    std::shared_ptr<const ContentSource> source;
    // The layer's attention structure (masks, NoPE, temperature tuning, q/k norm, softmax scale,
    // sinks; core/attention.h), group "attention".
    AttentionParams attention;
    // The model's layer pattern (core/layers.h; empty = none), groups "model" and
    // "model_rope_full|sliding|chunked". Descriptive: the computations use `rope` and `attention`,
    // which applyLayer() sets from it.
    LayerPattern model;

    Check validate() const;
    // Shows layer `layer` of `model`: its RoPE parameters (head_dim kept), its attention structure,
    // model.layer = layer; the method becomes rope. A model that does not validate or a layer that
    // does not exist changes only model.layer, for validate() to report.
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
// The rows the configuration scores with: params.source's rows when set (positions must be below
// its length), else contentRows(params.content, …).
Matrix contentRows(const ScoreParams& params, bool key, const Positions& positions);

// Mean score along diagonals, for real content: for each distance d in `distances`,
// value = mean over i = d … length−1 of score(i, i − d) (the scores() entries, before softmax and
// without the causal mask, which never hides j <= i), count = length − d. Work ~ length·(256 + max
// d)·dim, limited like scores(). Errors: params that do not validate; length outside [1, 2^40]
// (names `length`); no distance, or one outside [0, length) (names `max_distance`); the work limit
// (names `length` or `max_distance`).
struct DiagonalMeans {
    std::vector<std::int64_t> distance;
    Vector value;
    std::vector<std::int64_t> count;
};
Result<DiagonalMeans> diagonalMeans(const ScoreParams& params, const std::vector<std::int64_t>& distances,
                                    std::int64_t length);

// Scores for explicit query and key positions within a sequence of `length` tokens (0..length−1),
// |queries| × |keys|. Errors: params that do not validate; length outside [1, 2^40] (names
// `length`); a position outside [0, length) (names `queries` or `keys`); learned sequence longer than the table (names `length`); |queries|·|keys| > 2^25
// (names `queries`); softmax over a sequence too long to normalise exactly (length·|queries| >
// 2^31 or length·|queries|·(dim + per-entry work) > 2^34, names `length`); a non-finite score (names `result`,
// e.g. xPos scales that overflow).
// With softmax and a sink, `sinkMass` (when given) receives p_sink of each query row.
Result<Matrix> scores(const ScoreParams& params, const Positions& queries, const Positions& keys,
                      std::int64_t length, std::vector<double>* sinkMass = nullptr);

// Summary over the unmasked entries of the full N × N matrix, computed in blocks so that
// memory stays O(N·dim) (and O(N) for positional-only structure, e.g. ones content with a
// relative method, where the matrix is a function of i − j).
// Limits (errors name `length`): N <= 65536, N·dim <= 2^26 and N²·(dim + per-entry work) <= 2^34
// (a few seconds) in general;
// N <= 2^24 when the matrix is a function of i − j (ones content with nope, alibi, t5, shaw,
// transformer-xl, or rope/xpos in double precision) and no softmax.
struct ScoreSummary {
    std::int64_t rows = 0, cols = 0;
    double sum = 0, min = 0, max = 0;
};
Result<ScoreSummary> scoresSummary(const ScoreParams& params, std::int64_t length);

// Whether every entry of the (pre-softmax) matrix is f(i − j) for one function f: ones content
// with nope, alibi, t5, shaw, transformer-xl, or rope/xpos in double precision (their entries
// equal f(i − j) up to the rounding of the angles i·θ and j·θ), and no softmax.
bool scoresAreDistanceFunction(const ScoreParams& params);

// f(δ) for δ in [lo, hi] (the whole matrix when scoresAreDistanceFunction()): the score of a
// query at δ and the key at 0 for δ >= 0, of the query at 0 and a key at −δ for δ < 0, within a
// sequence of `length` positions. Errors: params that do not validate; length outside the
// structured limit; lo > hi or outside ±(length − 1) (names `distances`); length·(per-distance work) past the structured limit (names `length`), as
// scoresSummary; a non-finite score (names `result`).
Result<std::vector<double>> scoresByDistance(const ScoreParams& params, std::int64_t length, std::int64_t lo,
                                            std::int64_t hi);

// Multiply-add equivalents of scores() for |queries| = rows, |keys| = cols (with softmax, the
// row normalisers over all `length` keys too).
std::int64_t scoresWork(const ScoreParams& params, std::int64_t length, std::int64_t rows, std::int64_t cols);

}  // namespace poslab
