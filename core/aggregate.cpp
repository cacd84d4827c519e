// Exact block statistics (see aggregate.h).
#include "core/aggregate.h"

#include "core/decay.h"
#include "core/ensure.h"
#include "core/parallel.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <limits>

namespace poslab {

namespace {

constexpr std::int64_t kBlock = 64;   // distances per block of the range-min/max table
constexpr double kInf = std::numeric_limits<double>::infinity();

// Error-free transformations (Knuth's two-sum, Dekker's fast two-sum, fma two-product). The
// file is compiled without contraction of a·b + c into fma beyond the explicit std::fma calls.
inline void twoSum(double a, double b, double& s, double& e) {
    s = a + b;
    const double bb = s - a;
    e = (a - (s - bb)) + (b - bb);
}
inline void fastTwoSum(double a, double b, double& s, double& e) {
    s = a + b;
    e = b - (s - a);
}
// a·b = p + e exactly (Dekker/Veltkamp splitting: no fma instruction needed, nothing called).
inline void twoProd(double a, double b, double& p, double& e) {
    constexpr double kSplit = 134217729.0;   // 2^27 + 1
    p = a * b;
    const double ca = kSplit * a, cb = kSplit * b;
    const double ah = ca - (ca - a), al = a - ah;
    const double bh = cb - (cb - b), bl = b - bh;
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
}

}  // namespace

std::vector<PositionRange> splitRange(std::int64_t from, std::int64_t to, int count) {
    std::vector<PositionRange> out;
    const std::int64_t n = to - from;
    if (n <= 0) return out;
    count = std::max(count, 1);
    const std::int64_t step = (n + count - 1) / count;
    out.reserve(static_cast<std::size_t>((n + step - 1) / step));
    for (std::int64_t a = from; a < to; a += step) out.push_back({a, std::min(to, a + step)});
    return out;
}

DiagonalStats::DiagonalStats(std::vector<double> f, std::int64_t lo, std::optional<Aggregate> only)
    : f_(std::move(f)), lo_(lo), sums_(!only || *only == Aggregate::Mean), mins_(!only || *only == Aggregate::Min),
      maxs_(!only || *only == Aggregate::Max) {
    POSLAB_ENSURE(!f_.empty(), "f non-empty");
    POSLAB_ENSURE(std::all_of(f_.begin(), f_.end(), [](double v) { return std::isfinite(v); }), "f finite");
    const auto m = static_cast<std::int64_t>(f_.size());
    if (sums_) buildSums(m);
    if (mins_ || maxs_) buildExtremes(m);
}

void DiagonalStats::buildSums(std::int64_t m) {
    p1_.resize(static_cast<std::size_t>(m + 1));
    p2_.resize(static_cast<std::size_t>(m + 1));
    DD a, b;
    for (std::int64_t t = 0; t < m; ++t) {
        const double v = f_[static_cast<std::size_t>(t)];
        // a += v
        double s, e;
        twoSum(a.hi, v, s, e);
        e += a.lo;
        fastTwoSum(s, e, a.hi, a.lo);
        // b += t·v, the product exact as p + q
        double p, q;
        twoProd(static_cast<double>(t), v, p, q);
        twoSum(b.hi, p, s, e);
        e += b.lo + q;
        fastTwoSum(s, e, b.hi, b.lo);
        p1_[static_cast<std::size_t>(t + 1)] = a;
        p2_[static_cast<std::size_t>(t + 1)] = b;
    }
    // C[t] = Σ_{u<t} P1[u], t = 0 .. m + 1.
    c_.resize(static_cast<std::size_t>(m + 2));
    DD c;
    for (std::int64_t t = 0; t <= m; ++t) {
        const DD& x = p1_[static_cast<std::size_t>(t)];
        double s, e;
        twoSum(c.hi, x.hi, s, e);
        e += c.lo + x.lo;
        fastTwoSum(s, e, c.hi, c.lo);
        c_[static_cast<std::size_t>(t + 1)] = c;
    }
}

// Range extremes: within blocks of kBlock the prefix and suffix extreme, and a sparse table over
// the blocks' extremes; for the minimum when mins_, for the maximum when maxs_.
void DiagonalStats::buildExtremes(std::int64_t m) {
    auto build = [&](std::vector<double>& pre, std::vector<double>& suf, std::vector<std::vector<double>>& tab, auto pick,
                     double none) {
        pre.resize(f_.size());
        suf.resize(f_.size());
        const std::int64_t blocks = (m + kBlock - 1) / kBlock;
        std::vector<double> be(static_cast<std::size_t>(blocks));
        for (std::int64_t bk = 0; bk < blocks; ++bk) {
            const std::int64_t s = bk * kBlock, e = std::min(m, s + kBlock);
            double x = none;
            for (std::int64_t t = s; t < e; ++t) pre[std::size_t(t)] = x = pick(x, f_[std::size_t(t)]);
            be[std::size_t(bk)] = x;
            x = none;
            for (std::int64_t t = e - 1; t >= s; --t) suf[std::size_t(t)] = x = pick(x, f_[std::size_t(t)]);
        }
        tab.push_back(std::move(be));
        for (std::int64_t w = 1; 2 * w <= blocks; w *= 2) {
            const auto& prev = tab.back();
            std::vector<double> next(static_cast<std::size_t>(blocks - 2 * w + 1));
            for (std::size_t i = 0; i < next.size(); ++i) next[i] = pick(prev[i], prev[i + std::size_t(w)]);
            tab.push_back(std::move(next));
        }
    };
    if (mins_) build(preMin_, sufMin_, tabMin_, [](double x, double y) { return std::min(x, y); }, kInf);
    if (maxs_) build(preMax_, sufMax_, tabMax_, [](double x, double y) { return std::max(x, y); }, -kInf);
}

double DiagonalStats::rangeMin(std::int64_t l, std::int64_t r) const {
    const std::int64_t bl = l / kBlock, br = r / kBlock;
    if (bl == br) {
        double m = kInf;
        for (std::int64_t t = l; t <= r; ++t) m = std::min(m, f_[std::size_t(t)]);
        return m;
    }
    double m = std::min(sufMin_[std::size_t(l)], preMin_[std::size_t(r)]);
    if (bl + 1 <= br - 1) {
        const std::int64_t span = br - 1 - bl;   // blocks bl+1 .. br−1
        const int k = std::bit_width(static_cast<std::uint64_t>(span)) - 1;
        const auto& t = tabMin_[std::size_t(k)];
        m = std::min({m, t[std::size_t(bl + 1)], t[std::size_t(br - (std::int64_t{1} << k))]});
    }
    return m;
}

double DiagonalStats::rangeMax(std::int64_t l, std::int64_t r) const {
    const std::int64_t bl = l / kBlock, br = r / kBlock;
    if (bl == br) {
        double m = -kInf;
        for (std::int64_t t = l; t <= r; ++t) m = std::max(m, f_[std::size_t(t)]);
        return m;
    }
    double m = std::max(sufMax_[std::size_t(l)], preMax_[std::size_t(r)]);
    if (bl + 1 <= br - 1) {
        const std::int64_t span = br - 1 - bl;
        const int k = std::bit_width(static_cast<std::uint64_t>(span)) - 1;
        const auto& t = tabMax_[std::size_t(k)];
        m = std::max({m, t[std::size_t(bl + 1)], t[std::size_t(br - (std::int64_t{1} << k))]});
    }
    return m;
}

// Σ_{t=s..e} (α + β·t)·f[t] = α·(P1[e+1] − P1[s]) + β·(P2[e+1] − P2[s]), in double-double.
DiagonalStats::DD DiagonalStats::segment(std::int64_t s, std::int64_t e, double alpha, double beta) const {
    auto diff = [](const DD& x, const DD& y) {
        double h, l;
        twoSum(x.hi, -y.hi, h, l);
        l += x.lo - y.lo;
        DD r;
        fastTwoSum(h, l, r.hi, r.lo);
        return r;
    };
    auto scale = [](const DD& x, double c) {
        double p, q;
        twoProd(x.hi, c, p, q);
        q += x.lo * c;
        DD r;
        fastTwoSum(p, q, r.hi, r.lo);
        return r;
    };
    const DD s1 = scale(diff(p1_[std::size_t(e + 1)], p1_[std::size_t(s)]), alpha);
    if (beta == 0) return s1;
    const DD s2 = scale(diff(p2_[std::size_t(e + 1)], p2_[std::size_t(s)]), beta);
    double h, l;
    twoSum(s1.hi, s2.hi, h, l);
    l += s1.lo + s2.lo;
    DD r;
    fastTwoSum(h, l, r.hi, r.lo);
    return r;
}

BlockStats DiagonalStats::range(std::int64_t d0, std::int64_t d1) const {
    BlockStats st;
    st.count = d1 - d0 + 1;
    if (sums_) {
        const DD s = segment(d0 - lo_, d1 - lo_, 1.0, 0.0);
        st.sum = s.hi + s.lo;
    }
    if (mins_) st.min = rangeMin(d0 - lo_, d1 - lo_);
    if (maxs_) st.max = rangeMax(d0 - lo_, d1 - lo_);
    return st;
}

double DiagonalStats::blockValue(std::int64_t q0, std::int64_t q1, std::int64_t k0, std::int64_t k1, DistanceBand band,
                                 Aggregate which) const {
    POSLAB_ENSURE(q0 < q1 && k0 < k1, "q0 < q1 and k0 < k1");
    const std::int64_t a = q0 - k1 + 1, b = q1 - 1 - k0;
    const std::int64_t dlo = std::max(a, band.lo), dhi = std::min(b, band.hi);
    if (dlo > dhi) return -kInf;
    POSLAB_ENSURE(dlo >= lo_ && dhi < lo_ + static_cast<std::int64_t>(f_.size()),
                  "every distance of the block's visible cells in [lo, hi]");
    if (which == Aggregate::Max) return rangeMax(dlo - lo_, dhi - lo_);
    if (which == Aggregate::Min) return rangeMin(dlo - lo_, dhi - lo_);
    if (dlo != a || dhi != b) return block(q0, q1, k0, k1, band).mean();   // the block meets the band's edge
    // Every cell visible: row i sums P1[i − k0 + 1 − lo] − P1[i − k1 + 1 − lo], and the rows
    // together C[q1 + A] − C[q0 + A] − (C[q1 + B] − C[q0 + B]), A = 1 − k0 − lo, B = 1 − k1 − lo.
    const std::int64_t A = 1 - k0 - lo_, B = 1 - k1 - lo_;
    auto at = [&](std::int64_t t) { return c_[static_cast<std::size_t>(t)]; };
    const DD terms[4] = {at(q1 + A), at(q0 + B), at(q0 + A), at(q1 + B)};
    double hi = 0, lo = 0;
    for (int k = 0; k < 4; ++k) {
        const double sign = k < 2 ? 1.0 : -1.0;
        double x, y;
        twoSum(hi, sign * terms[k].hi, x, y);
        y += lo + sign * terms[k].lo;
        fastTwoSum(x, y, hi, lo);
    }
    return (hi + lo) / static_cast<double>((q1 - q0) * (k1 - k0));
}

BlockStats DiagonalStats::block(std::int64_t q0, std::int64_t q1, std::int64_t k0, std::int64_t k1, DistanceBand band) const {
    BlockStats st;
    const std::int64_t h = q1 - q0, w = k1 - k0, m = std::min(h, w);
    const std::int64_t a = q0 - k1 + 1, b = q1 - 1 - k0;
    POSLAB_ENSURE(q0 < q1 && k0 < k1, "q0 < q1 and k0 < k1");
    const std::int64_t dlo = std::max(a, band.lo), dhi = std::min(b, band.hi);
    if (dlo > dhi) {
        st.min = st.max = -kInf;
        return st;
    }
    POSLAB_ENSURE(dlo >= lo_ && dhi < lo_ + static_cast<std::int64_t>(f_.size()),
                  "every distance of the block's visible cells in [lo, hi]");
    if (!sums_) {
        if (mins_) st.min = rangeMin(dlo - lo_, dhi - lo_);
        if (maxs_) st.max = rangeMax(dlo - lo_, dhi - lo_);
        return st;
    }
    // The three linear pieces of count(δ) = α + β·δ.
    struct Piece {
        std::int64_t s, e, alpha, beta;
    };
    const Piece pieces[3] = {{a, a + m - 2, 1 - a, 1}, {a + m - 1, b - m + 1, m, 0}, {b - m + 2, b, b + 1, -1}};
    double hi = 0, lo = 0;
    for (const Piece& p : pieces) {
        const std::int64_t s = std::max(p.s, dlo), e = std::min(p.e, dhi);
        if (s > e) continue;
        const std::int64_t n = e - s + 1;
        st.count += n * p.alpha + p.beta * ((s + e) * n / 2);
        // In t = δ − lo: α + β·δ = (α + β·lo) + β·t.
        const DD d = segment(s - lo_, e - lo_, static_cast<double>(p.alpha + p.beta * lo_), static_cast<double>(p.beta));
        double x, y;
        twoSum(hi, d.hi, x, y);
        y += lo + d.lo;
        fastTwoSum(x, y, hi, lo);
    }
    st.sum = hi + lo;
    if (mins_) st.min = rangeMin(dlo - lo_, dhi - lo_);
    if (maxs_) st.max = rangeMax(dlo - lo_, dhi - lo_);
    return st;
}

std::int64_t aggregateWork(const ScoreParams& params, std::int64_t length, std::int64_t rows, std::int64_t cols) {
    return scoresWork(params, length, rows, cols);
}

namespace {

std::int64_t totalSize(const std::vector<PositionRange>& r) {
    std::int64_t n = 0;
    for (const auto& x : r) n += x.size();
    return n;
}

// Even a sample has a price: with softmax each sampled row needs its exact normaliser over all
// `length` keys. Past this it is refused at once rather than left running for minutes.
constexpr std::int64_t kMaxSampleWork = std::int64_t{1} << 34;

// The values of the cells queries × keys (|queries| × |keys|) that the blocks reduce: scores(), or
// the error of a reduced-precision path (aggregateScoreErrors), with `passes` × scoresWork's work.
struct CellValues {
    std::function<Result<Matrix>(const Positions& queries, const Positions& keys)> at;
    std::int64_t passes = 1;
};

CellValues scoreCells(const ScoreParams& params, std::int64_t length) {
    return {[&params, length](const Positions& q, const Positions& k) { return scores(params, q, k, length); }, 1};
}

Result<AggregatedScores> sampledBlocks(const ScoreParams& params, std::int64_t length, const CellValues& cells,
                                       AggregatedScores out) {
    for (const auto& r : out.queryRanges) out.sampledQueries.push_back(r.from + (r.size() - 1) / 2);
    for (const auto& r : out.keyRanges) out.sampledKeys.push_back(r.from + (r.size() - 1) / 2);
    const std::int64_t work = cells.passes * scoresWork(params, length, static_cast<std::int64_t>(out.sampledQueries.size()),
                                                        static_cast<std::int64_t>(out.sampledKeys.size()));
    if (work > kMaxSampleWork)
        return ParamError{"length",
                          "a sample within the work limit (" + formatInt(kMaxSampleWork) + " multiply-adds" +
                              (params.softmax ? "; softmax normalises each sampled row over all N keys" : std::string{}) + ")",
                          formatInt(length) + " (" + formatInt(work) + " multiply-adds)"};
    auto s = cells.at(out.sampledQueries, out.sampledKeys);
    if (!s) return s.error();
    out.values = std::move(s.value());
    // A sampled cell outside its query's visible keys (causal, window, chunk) is masked, also
    // after softmax (where scores() gives it weight 0).
    for (Eigen::Index i = 0; i < out.values.rows(); ++i) {
        const KeyRange kr = visibleKeys(params.attention, params.attention.causalWith(params.causal),
                                        out.sampledQueries[std::size_t(i)], length);
        for (Eigen::Index j = 0; j < out.values.cols(); ++j)
            if (!kr.contains(out.sampledKeys[std::size_t(j)])) out.values(i, j) = -kInf;
    }
    out.sampled = true;
    return out;
}

// Every cell of the ranges through `cells` (scores()), in tiles that respect scores()'s limits.
Result<AggregatedScores> reducedBlocks(const ScoreParams& params, std::int64_t length, Aggregate aggregate, const CellValues& cells,
                                       AggregatedScores out) {
    const auto R = static_cast<Eigen::Index>(out.queryRanges.size()), C = static_cast<Eigen::Index>(out.keyRanges.size());
    Positions qpos, kpos;
    std::vector<Eigen::Index> qblock, kblock;
    for (Eigen::Index r = 0; r < R; ++r)
        for (auto x = out.queryRanges[std::size_t(r)].from; x < out.queryRanges[std::size_t(r)].to; ++x) {
            qpos.push_back(x);
            qblock.push_back(r);
        }
    for (Eigen::Index c = 0; c < C; ++c)
        for (auto x = out.keyRanges[std::size_t(c)].from; x < out.keyRanges[std::size_t(c)].to; ++x) {
            kpos.push_back(x);
            kblock.push_back(c);
        }
    Matrix sum = Matrix::Zero(R, C), mn = Matrix::Constant(R, C, kInf), mx = Matrix::Constant(R, C, -kInf);
    IntMatrix count = IntMatrix::Zero(R, C);
    // Tiles within scores()'s limits: (rows + cols)·dim <= 2^26, rows·cols <= 2^25.
    const std::int64_t nk = static_cast<std::int64_t>(kpos.size()), nq = static_cast<std::int64_t>(qpos.size());
    const std::int64_t sideCap = (std::int64_t{1} << 25) / std::max(1, params.dim);
    const std::int64_t kt = std::clamp<std::int64_t>(std::min(nk, sideCap), 1, std::int64_t{1} << 16);
    const std::int64_t qt = std::clamp<std::int64_t>(std::min({nq, sideCap, (std::int64_t{1} << 25) / kt}), 1, nq);
    for (std::int64_t q0 = 0; q0 < nq; q0 += qt) {
        const Positions qs(qpos.begin() + q0, qpos.begin() + std::min(nq, q0 + qt));
        for (std::int64_t k0 = 0; k0 < nk; k0 += kt) {
            const Positions ks(kpos.begin() + k0, kpos.begin() + std::min(nk, k0 + kt));
            auto s = cells.at(qs, ks);
            if (!s) return s.error();
            const Matrix& v = s.value();
            for (Eigen::Index i = 0; i < v.rows(); ++i) {
                const Eigen::Index r = qblock[std::size_t(q0 + i)];
                // Only the query's visible keys (causal, window, chunk) enter its blocks.
                const KeyRange visibleRow = visibleKeys(params.attention, params.attention.causalWith(params.causal),
                                                        qs[std::size_t(i)], length);
                for (Eigen::Index j = 0; j < v.cols(); ++j) {
                    if (!visibleRow.contains(ks[std::size_t(j)])) continue;
                    const Eigen::Index c = kblock[std::size_t(k0 + j)];
                    const double x = v(i, j);
                    sum(r, c) += x;
                    mn(r, c) = std::min(mn(r, c), x);
                    mx(r, c) = std::max(mx(r, c), x);
                    ++count(r, c);
                }
            }
        }
    }
    out.values.resize(R, C);
    for (Eigen::Index r = 0; r < R; ++r)
        for (Eigen::Index c = 0; c < C; ++c) {
            if (count(r, c) == 0) {
                out.values(r, c) = -kInf;
                continue;
            }
            out.values(r, c) = aggregate == Aggregate::Mean ? sum(r, c) / static_cast<double>(count(r, c))
                               : aggregate == Aggregate::Max ? mx(r, c)
                                                             : mn(r, c);
        }
    return out;
}

// f(δ) for δ in [lo, hi]: decay.h sweptDistanceScores where it applies (rope, transformer-xl,
// xpos with ones content). Otherwise: RoPE in double with ones content (and a q/k norm) scores (i, j) and (j, i) alike and
// f(δ) = s·(R_δ q)·(R_0 k) is its decay curve: the O(D·d) sweep of core/decay (the sequence's
// length fixes dynamic/longrope factors, as the scores' runtime rule does). Transformer-XL and
// xPos with ones content: the same sweep (decay.h sweptDistanceScores). Else scoresByDistance.
Result<std::vector<double>> distanceValues(const ScoreParams& params, std::int64_t length, std::int64_t lo,
                                           std::int64_t hi) {
    if (auto r = sweptDistanceScores(params, length, lo, hi)) return std::move(*r);
    if (params.method == Method::Rope && params.content == Content::Ones && params.precision == Precision::Double &&
        !params.softmax) {
        ScoreParams d = params;
        if (!d.rope.seq_len) d.rope.seq_len = length;
        const std::int64_t top = std::max(std::abs(lo), std::abs(hi));
        auto c = decayCurve(d, top);
        if (c) {
            const Vector& v = c.value().value;
            std::vector<double> f(static_cast<std::size_t>(hi - lo + 1));
            for (std::int64_t x = lo; x <= hi; ++x) {
                const double y = v[static_cast<Eigen::Index>(std::abs(x))];
                if (!std::isfinite(y)) return ParamError{"result", "parameters for which every score is finite", formatNumber(y)};
                f[static_cast<std::size_t>(x - lo)] = y;
            }
            return f;
        }
        if (c.error().parameter == "result") return c.error();
    }
    return scoresByDistance(params, length, lo, hi);
}

Check checkRanges(const std::vector<PositionRange>& rs, const char* name, std::int64_t length) {
    if (rs.empty()) return ParamError{name, "at least one range", "none"};
    for (const auto& r : rs)
        if (r.from < 0 || r.to <= r.from || r.to > length)
            return ParamError{name, "non-empty ranges within [0, length = " + formatInt(length) + ")",
                              formatInt(r.from) + ":" + formatInt(r.to)};
    return std::nullopt;
}

// Every block's statistic from the diagonal tables, O(1) per block; the rows of blocks in two
// halves on the caller's threads (core/parallel.h), when there are enough blocks to pay for it.
Matrix structuredBlocks(const DiagonalStats& d, const std::vector<PositionRange>& queryRanges,
                        const std::vector<PositionRange>& keyRanges, DistanceBand band, Aggregate aggregate) {
    const auto R = static_cast<Eigen::Index>(queryRanges.size()), C = static_cast<Eigen::Index>(keyRanges.size());
    Matrix values(R, C);
    auto rows = [&](Eigen::Index r0, Eigen::Index r1) {
        for (Eigen::Index r = r0; r < r1; ++r) {
            const auto& qr = queryRanges[std::size_t(r)];
            for (Eigen::Index c = 0; c < C; ++c) {
                const auto& kr = keyRanges[std::size_t(c)];
                values(r, c) = d.blockValue(qr.from, qr.to, kr.from, kr.to, band, aggregate);
            }
        }
    };
    const bool split = R >= 2 && R * C >= 16384;
    if (!split) {
        rows(0, R);
        return values;
    }
    parallelFor(2, [&](std::size_t h0, std::size_t h1) {
        for (std::size_t h = h0; h < h1; ++h) h == 0 ? rows(0, R / 2) : rows(R / 2, R);
    });
    return values;
}

}  // namespace

Result<AggregatedScores> aggregateScores(const ScoreParams& params, std::int64_t length,
                                         const std::vector<PositionRange>& queryRanges,
                                         const std::vector<PositionRange>& keyRanges, Aggregate aggregate,
                                         std::int64_t maxWork) {
    if (auto e = params.validate()) return *e;
    if (auto e = checkRanges(queryRanges, "queries", length)) return *e;
    if (auto e = checkRanges(keyRanges, "keys", length)) return *e;
    AggregatedScores out;
    out.queryRanges = queryRanges;
    out.keyRanges = keyRanges;
    const auto R = static_cast<Eigen::Index>(queryRanges.size()), C = static_cast<Eigen::Index>(keyRanges.size());

    // A sliding window masks by distance alone (attention.h visibleKeys): the scores inside it
    // are those without it, and the window is a band of visible distances, so the structure
    // holds and the masked cells cost nothing (only the band's distances are evaluated).
    ScoreParams unmasked = params;
    DistanceBand band = DistanceBand::causal(params.causal);
    if (params.attention.window && !params.attention.chunk) {
        const std::int64_t reach = *visibleTo(params.attention, params.causal);
        band.hi = reach;
        if (!params.causal) band.lo = -reach;
        unmasked.attention.window.reset();
    }
    if (scoresAreDistanceFunction(unmasked)) {
        std::int64_t qmin = length, qmax = 0, kmin = length, kmax = 0;
        for (const auto& r : queryRanges) qmin = std::min(qmin, r.from), qmax = std::max(qmax, r.to);
        for (const auto& r : keyRanges) kmin = std::min(kmin, r.from), kmax = std::max(kmax, r.to);
        const std::int64_t lo = std::max(qmin - kmax + 1, band.lo);
        const std::int64_t hi = std::min(qmax - 1 - kmin, band.hi);
        if (lo > hi) {
            out.values = Matrix::Constant(R, C, -kInf);
            out.structured = true;
            return out;
        }
        auto f = distanceValues(unmasked, length, lo, hi);
        if (f) {
            const DiagonalStats d(std::move(f.value()), lo, aggregate);
            out.values = structuredBlocks(d, queryRanges, keyRanges, band, aggregate);
            out.structured = true;
            return out;
        }
        if (f.error().parameter == "result") return f.error();
        // Past the structured work limit: as any other matrix below.
    }
    const CellValues cells = scoreCells(params, length);
    if (aggregateWork(params, length, totalSize(queryRanges), totalSize(keyRanges)) <= maxWork)
        return reducedBlocks(params, length, aggregate, cells, std::move(out));
    return sampledBlocks(params, length, cells, std::move(out));
}

Result<AggregatedScores> aggregateScoreErrors(const ScoreParams& params, std::int64_t length,
                                              const std::vector<PositionRange>& queryRanges,
                                              const std::vector<PositionRange>& keyRanges, Aggregate aggregate,
                                              std::int64_t maxWork) {
    if (auto e = params.validate()) return *e;
    if (auto e = checkRanges(queryRanges, "queries", length)) return *e;
    if (auto e = checkRanges(keyRanges, "keys", length)) return *e;
    ScoreParams exact = params;
    exact.precision = Precision::Double;
    const CellValues cells{[&](const Positions& q, const Positions& k) -> Result<Matrix> {
                               auto a = scores(params, q, k, length);
                               if (!a) return a.error();
                               auto b = scores(exact, q, k, length);
                               if (!b) return b.error();
                               return Matrix(a.value() - b.value());
                           },
                           2};
    AggregatedScores out;
    out.queryRanges = queryRanges;
    out.keyRanges = keyRanges;
    if (2 * aggregateWork(params, length, totalSize(queryRanges), totalSize(keyRanges)) <= maxWork)
        return reducedBlocks(params, length, aggregate, cells, std::move(out));
    return sampledBlocks(params, length, cells, std::move(out));
}

}  // namespace poslab
