#pragma once
// Exact block statistics of the N × N score matrix: what a heatmap pixel that covers many cells
// shows (the mean, max or min of the cells of its block), and what a decay column that covers
// many distances shows (the min, max and mean of the curve over those distances).
//
// A block is [q0, q1) × [k0, k1) of (query i, key j) cells; a block leaves out the cells its
// queries do not see (causal: j > i; a window or chunk: core/attention.h visibleKeys), also after
// softmax; a block with no visible cell is −infinity. A block's statistic is over its visible
// cells only.
//
// Structure: when every score is f(i − j) (scoresAreDistanceFunction(): ones content with a
// relative method, or rope/xpos in double precision; no softmax), a block's statistics come from
// the 2N − 1 distinct values f(δ), δ = i − j:
//   count(δ) = number of cells of the block on diagonal δ
//            = min(δ − a + 1, b − δ + 1, q1 − q0, k1 − k0) for δ in [a, b], a = q0 − k1 + 1,
//              b = q1 − 1 − k0 (a trapezoid: rising, flat, falling);
//   sum      = Σ_δ count(δ)·f(δ) = on each of the three linear pieces count = α + β·δ,
//              Σ (α + β·δ) f(δ) = α·(P1[e+1] − P1[s]) + β·(P2[e+1] − P2[s]) with the prefix sums
//              P1[t] = Σ_{u<t} f(u), P2[t] = Σ_{u<t} u·f(u) held in double-double (≈ 106-bit), so
//              that a one-cell block is its cell's value to a few ulps: O(1) per block;
//   max, min = max/min of f over δ in [a, b] (causal: [max(a, 0), b]), every δ of the range being
//              a cell of the block: a range-min/max table (prefix/suffix extremes within blocks
//              of 64 distances, a sparse table over those blocks): O(1) per block, 4·(2N)
//              doubles + O(N/64·log N) memory.
// Where the structure does not apply (content, absolute methods, float32, softmax), the blocks
// are reduced from the real cells when cells·(dim + per-entry work) fits `maxWork`; otherwise
// one cell per block is sampled (the block's centre cell) and the result says so.
#include "core/scores.h"

#include <array>

namespace poslab {

enum class Aggregate { Mean, Max, Min };
template <>
struct EnumKeys<Aggregate> {
    static constexpr std::array<EnumKey<Aggregate>, 3> keys{
        {{Aggregate::Mean, "mean"}, {Aggregate::Max, "max"}, {Aggregate::Min, "min"}}};
};

// A half-open range of positions [from, to) (or of distances).
struct PositionRange {
    std::int64_t from = 0, to = 0;
    std::int64_t size() const { return to - from; }
    bool operator==(const PositionRange&) const = default;
};

// Splits [from, to) into at most `count` consecutive blocks of ceil(n / count) positions each
// (the last one possibly shorter): one block per position when n <= count. An empty range
// (to <= from) gives no blocks; a count below 1 counts as 1.
std::vector<PositionRange> splitRange(std::int64_t from, std::int64_t to, int count);

// Statistics of the visible cells of one block.
struct BlockStats {
    std::int64_t count = 0;    // visible cells
    double sum = 0, min = 0, max = 0;
    double mean() const { return count > 0 ? sum / static_cast<double>(count) : 0.0; }
    double get(Aggregate a) const { return a == Aggregate::Mean ? mean() : a == Aggregate::Max ? max : min; }
};

// The distances δ = i − j a query sees when visibility depends on δ alone: causal [0, ∞), a
// causal sliding window W [0, W − 1], a bidirectional one [−⌊W/2⌋, ⌊W/2⌋], full (−∞, ∞).
struct DistanceBand {
    static constexpr std::int64_t kUnbounded = std::int64_t{1} << 62;
    std::int64_t lo = -kUnbounded, hi = kUnbounded;
    static DistanceBand causal(bool c) { return c ? DistanceBand{0, kUnbounded} : DistanceBand{}; }
};

// Block statistics of a matrix whose entries are f(i − j), f given for δ in [lo, lo + |f|).
class DiagonalStats {
public:
    // Preconditions: f non-empty and finite. `only`: build just the tables that statistic needs
    // (Mean: the prefix sums; Max or Min: that extreme's range table), so that a heatmap of one
    // statistic allocates and fills a third of the memory; blockValue() of that statistic is
    // then exact as always, block() and range() fill only its fields (sum/count, or max/min).
    DiagonalStats(std::vector<double> f, std::int64_t lo, std::optional<Aggregate> only = std::nullopt);
    // Statistics of the block [q0, q1) × [k0, k1), causal: leaving out j > i. Preconditions:
    // q0 < q1, k0 < k1 and every δ = i − j of the block's visible cells in [lo, hi].
    BlockStats block(std::int64_t q0, std::int64_t q1, std::int64_t k0, std::int64_t k1, bool causal) const {
        return block(q0, q1, k0, k1, DistanceBand::causal(causal));
    }
    // The same with the visible cells those whose δ lies in `band` (a sliding window).
    BlockStats block(std::int64_t q0, std::int64_t q1, std::int64_t k0, std::int64_t k1, DistanceBand band) const;
    // One statistic of the same block (−infinity: no visible cell), computing only that one; a
    // block with every cell visible takes its sum from four second-order prefix sums
    // C[t] = Σ_{u<t} P1[u] (rows i contribute P1[i − k0 + 1 − lo] − P1[i − k1 + 1 − lo]).
    // Preconditions: as block().
    double blockValue(std::int64_t q0, std::int64_t q1, std::int64_t k0, std::int64_t k1, bool causal,
                      Aggregate which) const {
        return blockValue(q0, q1, k0, k1, DistanceBand::causal(causal), which);
    }
    double blockValue(std::int64_t q0, std::int64_t q1, std::int64_t k0, std::int64_t k1, DistanceBand band,
                      Aggregate which) const;
    // Extremes and sum of f over δ in [d0, d1] (inclusive, within [lo, hi]): each δ once.
    BlockStats range(std::int64_t d0, std::int64_t d1) const;
    std::int64_t lo() const { return lo_; }
    std::int64_t hi() const { return lo_ + static_cast<std::int64_t>(f_.size()) - 1; }

private:
    struct DD {
        double hi = 0, lo = 0;
    };
    void buildSums(std::int64_t m);        // p1_, p2_, c_
    void buildExtremes(std::int64_t m);    // the range tables of mins_/maxs_
    DD segment(std::int64_t s, std::int64_t e, double alpha, double beta) const;   // Σ_{t=s..e} (α + β·t)·f[t]
    double rangeMin(std::int64_t l, std::int64_t r) const;
    double rangeMax(std::int64_t l, std::int64_t r) const;

    std::vector<double> f_;
    std::int64_t lo_ = 0;
    std::vector<DD> p1_, p2_;                            // prefix sums, |f| + 1 entries
    std::vector<DD> c_;                                  // prefix sums of p1_, |f| + 2 entries
    std::vector<double> preMin_, preMax_, sufMin_, sufMax_;   // within blocks of kBlock
    std::vector<std::vector<double>> tabMin_, tabMax_;   // sparse tables over block extremes
    bool sums_ = true, mins_ = true, maxs_ = true;       // which tables are built
};

// A heatmap's aggregated panel: values[r][c] is the statistic of block queryRanges[r] ×
// keyRanges[c] (−infinity: no visible cell), or, when `sampled`, the single cell
// (sampledQueries[r], sampledKeys[c]) standing for that block.
struct AggregatedScores {
    Matrix values;
    std::vector<PositionRange> queryRanges, keyRanges;
    bool structured = false;               // computed from f(i − j)
    bool sampled = false;                  // one cell per block, not an aggregate
    Positions sampledQueries, sampledKeys; // the positions sampled (when sampled)
};

// The statistic of each block of the query ranges × key ranges within a sequence of `length`
// positions. Exact (structure, or every cell reduced) unless that needs more than `maxWork`
// multiply-add equivalents, in which case each block's centre cell is sampled (`sampled`).
// Errors: params that do not validate; no range, or a range empty or outside [0, length) (names
// `queries` or `keys`); as scores() and scoresByDistance() (a non-finite score names `result`).
Result<AggregatedScores> aggregateScores(const ScoreParams& params, std::int64_t length,
                                         const std::vector<PositionRange>& queryRanges,
                                         const std::vector<PositionRange>& keyRanges, Aggregate aggregate,
                                         std::int64_t maxWork);

// The same blocks of the error of a reduced-precision path: cell (i, j) is scores(params)(i, j) −
// scores(params with precision = double)(i, j), the score in the scene's dtype (bfloat16,
// float16, float32: content, rotation and dot product rounded as core/scores.h says) minus the
// exact one (core/precision.h). Never structured (a rounded score is not a function of i − j):
// exact while both matrices' cells fit `maxWork` (2·aggregateWork), else the centre cells, marked
// `sampled`. Errors: as aggregateScores.
Result<AggregatedScores> aggregateScoreErrors(const ScoreParams& params, std::int64_t length,
                                              const std::vector<PositionRange>& queryRanges,
                                              const std::vector<PositionRange>& keyRanges, Aggregate aggregate,
                                              std::int64_t maxWork);

// Work of reducing every cell of the given ranges exactly (multiply-add equivalents).
std::int64_t aggregateWork(const ScoreParams& params, std::int64_t length, std::int64_t rows, std::int64_t cols);

}  // namespace poslab
