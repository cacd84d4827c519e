// core/aggregate: block statistics from the structure f(i − j) against brute force over the real
// cells (random blocks, methods, sizes, causal), DiagonalStats against a direct sum at 2^19
// distances (one-cell blocks exact to a few ulps), the mean over all blocks against the mean of
// the whole matrix, the generic path (content, absolute methods, float32, softmax) exact when the
// work fits and an honestly marked sample when it does not, splitRange, errors.
#include "support/parallelfor.h"
#include "support/testsupport.h"

#include "core/aggregate.h"
#include "core/decay.h"
#include "core/random.h"

#include <limits>
#include <optional>
#include <functional>
#include <random>

using namespace poslab;

Q_DECLARE_METATYPE(poslab::ScoreParams)

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

ScoreParams params(Method m, Content c, Precision pr, int dim = 16) {
    ScoreParams p;
    p.method = m;
    p.dim = dim;
    p.content = c;
    p.precision = pr;
    p.seed = 3;
    p.alibi.heads = 4;
    p.head = 1;
    return p;
}

// The methods whose ones-content scores are a function of i − j (scoresAreDistanceFunction).
struct DistanceMethod {
    const char* name;
    Method m;
    Precision pr;
};
constexpr DistanceMethod kDistanceMethods[] = {
    {"rope_double", Method::Rope, Precision::Double}, {"xpos_double", Method::Xpos, Precision::Double},
    {"alibi", Method::Alibi, Precision::Float32},     {"t5", Method::T5, Precision::Float32},
    {"shaw", Method::Shaw, Precision::Float32},       {"transformer_xl", Method::TransformerXL, Precision::Float32},
    {"nope", Method::NoPE, Precision::Float32}};
ScoreParams distanceMethodParams(const DistanceMethod& m, bool causal) {
    ScoreParams p = params(m.m, Content::Ones, m.pr);
    p.causal = causal;
    if (m.m == Method::Shaw) p.shaw.max_relative_position = 12;
    return p;
}

// Statistic of the visible cells of a block of the full matrix (brute force).
BlockStats brute(const Matrix& full, std::int64_t q0, std::int64_t q1, std::int64_t k0, std::int64_t k1, bool causal) {
    BlockStats s;
    s.min = kInf;
    s.max = -kInf;
    for (auto i = q0; i < q1; ++i)
        for (auto j = k0; j < k1; ++j) {
            if (causal && j > i) continue;
            const double v = full(i, j);
            s.sum += v;
            s.min = std::min(s.min, v);
            s.max = std::max(s.max, v);
            ++s.count;
        }
    if (s.count == 0) s.min = s.max = -kInf;
    return s;
}

// Three random ranges per axis (not necessarily ordered or adjacent).
std::pair<std::vector<PositionRange>, std::vector<PositionRange>> randomRanges(std::mt19937_64& rng, std::int64_t n) {
    std::uniform_int_distribution<std::int64_t> pos(0, n - 1);
    std::vector<PositionRange> qr, kr;
    for (int t = 0; t < 3; ++t) {
        auto a = pos(rng), b = pos(rng);
        if (a > b) std::swap(a, b);
        qr.push_back({a, b + 1});
        a = pos(rng);
        b = pos(rng);
        if (a > b) std::swap(a, b);
        kr.push_back({a, b + 1});
    }
    return {qr, kr};
}

// Every block of an aggregation against the brute-force statistic of its visible cells
// (−∞ where none is visible), within `tol`. Records a failure (QTest::currentTestFailed()).
void compareBlocks(const AggregatedScores& r, Aggregate agg, const std::function<BlockStats(std::size_t, std::size_t)>& brute,
                   double tol) {
    for (std::size_t a = 0; a < r.queryRanges.size(); ++a)
        for (std::size_t b = 0; b < r.keyRanges.size(); ++b) {
            const BlockStats s = brute(a, b);
            const double got = r.values(Eigen::Index(a), Eigen::Index(b));
            const double want = s.count > 0 ? s.get(agg) : -kInf;
            if (!std::isfinite(want)) {
                QCOMPARE(got, want);
                continue;
            }
            if (!(std::abs(got - want) <= tol))
                QFAIL(qPrintable(QStringLiteral("%1 of %2:%3 x %4:%5: %6 vs brute force %7")
                                     .arg(QString::fromUtf8(enumKey(agg).data()))
                                     .arg(r.queryRanges[a].from).arg(r.queryRanges[a].to)
                                     .arg(r.keyRanges[b].from).arg(r.keyRanges[b].to)
                                     .arg(got, 0, 'g', 17).arg(want, 0, 'g', 17)));
        }
}

// Every statistic of the blocks qr × kr on the structured path (no work budget: structure only),
// each block against `brute`.
void checkStructuredBlocks(const ScoreParams& p, std::int64_t n, const std::vector<PositionRange>& qr,
                           const std::vector<PositionRange>& kr, const std::function<BlockStats(std::size_t, std::size_t)>& brute,
                           double tol) {
    for (Aggregate agg : {Aggregate::Mean, Aggregate::Max, Aggregate::Min}) {
        auto r = aggregateScores(p, n, qr, kr, agg, 0);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message().c_str());
        QVERIFY(r.value().structured);
        QVERIFY(!r.value().sampled);
        compareBlocks(r.value(), agg, brute, tol);
        if (QTest::currentTestFailed()) return;
    }
}

double maxAbs(const Matrix& m) {
    double a = 0;
    for (Eigen::Index i = 0; i < m.size(); ++i)
        if (std::isfinite(m.data()[i])) a = std::max(a, std::abs(m.data()[i]));
    return a;
}

}  // namespace

class TestAggregate : public QObject {
    Q_OBJECT
    // The split computations run on two threads here (core/parallel.h), as the window and the
    // command line run them: every result must still be the serial one bit for bit.
    std::optional<poslab::ParallelScope> parallel_;
private Q_SLOTS:
    void initTestCase() { parallel_.emplace(testsupport::threadsParallelFor(2)); }
    void cleanupTestCase() { parallel_.reset(); }
    void splitRangeBlocks();
    void diagonalStatsMatchesDirect();
    void structuredBlocksMatchBruteForce_data();
    void structuredBlocksMatchBruteForce();
    void windowedBlocksMatchBruteForce_data();
    void windowedBlocksMatchBruteForce();
    void meanOverAllBlocksIsMatrixMean_data();
    void meanOverAllBlocksIsMatrixMean();
    void genericBlocksExactOrMarkedSample_data();
    void genericBlocksExactOrMarkedSample();
    void scoreErrorsMatchIndependentCells_data();
    void scoreErrorsMatchIndependentCells();
    void distanceScoresMatchCells_data();
    void distanceScoresMatchCells();
    void errors();
};

void TestAggregate::splitRangeBlocks() {
    const auto r = splitRange(0, 65536, 118);
    QCOMPARE(r.size(), std::size_t(118));
    QCOMPARE(r.front(), (PositionRange{0, 556}));
    QCOMPARE(r.back(), (PositionRange{117 * 556, 65536}));
    for (std::size_t i = 1; i < r.size(); ++i) QCOMPARE(r[i].from, r[i - 1].to);
    const auto one = splitRange(5, 9, 100);
    QCOMPARE(one.size(), std::size_t(4));
    QCOMPARE(one[2], (PositionRange{7, 8}));
    QVERIFY(splitRange(3, 3, 10).empty());
}

void TestAggregate::diagonalStatsMatchesDirect() {
    // f over 2^19 distances, values of mixed sign and magnitude, offset like a 2^18 matrix.
    const std::int64_t m = std::int64_t{1} << 19, lo = -(m / 2 - 1);
    std::mt19937_64 rng(7);
    std::normal_distribution<double> nd(0.0, 1.0);
    std::vector<double> f(static_cast<std::size_t>(m));
    for (auto& v : f) v = nd(rng) * 100.0 + 1000.0;
    const DiagonalStats d(f, lo);
    QCOMPARE(d.hi(), lo + m - 1);
    auto at = [&](std::int64_t delta) { return f[std::size_t(delta - lo)]; };
    std::uniform_int_distribution<std::int64_t> pos(0, m / 2 - 1), len(1, 300);
    for (int trial = 0; trial < 400; ++trial) {
        const std::int64_t q0 = pos(rng), k0 = pos(rng);
        const std::int64_t q1 = std::min(m / 2, q0 + (trial % 4 == 0 ? 1 : len(rng)));
        const std::int64_t k1 = std::min(m / 2, k0 + (trial % 4 == 0 ? 1 : len(rng)));
        const bool causal = trial % 3 == 0;
        // Direct: every cell.
        long double sum = 0;
        double mn = kInf, mx = -kInf;
        std::int64_t count = 0;
        for (auto i = q0; i < q1; ++i)
            for (auto j = k0; j < k1; ++j) {
                if (causal && j > i) continue;
                sum += at(i - j);
                mn = std::min(mn, at(i - j));
                mx = std::max(mx, at(i - j));
                ++count;
            }
        const BlockStats s = d.block(q0, q1, k0, k1, causal);
        QCOMPARE(s.count, count);
        if (count == 0) {
            QCOMPARE(s.max, -kInf);
            QCOMPARE(d.blockValue(q0, q1, k0, k1, causal, Aggregate::Mean), -kInf);
            continue;
        }
        QCOMPARE(d.blockValue(q0, q1, k0, k1, causal, Aggregate::Max), mx);
        QCOMPARE(d.blockValue(q0, q1, k0, k1, causal, Aggregate::Min), mn);
        QCOMPARE(s.min, mn);
        QCOMPARE(s.max, mx);
        // Double-double prefix sums: the block mean within a few ulps of the exact one, one-cell
        // blocks included (plain double prefix sums are off by ~1e-7 relative here).
        const double exact = static_cast<double>(sum / count);
        const double fast = d.blockValue(q0, q1, k0, k1, causal, Aggregate::Mean);
        if (std::abs(fast - exact) > 4e-16 * std::abs(exact))
            QFAIL(qPrintable(QStringLiteral("blockValue %1:%2 x %3:%4 mean %5 vs %6")
                                 .arg(q0).arg(q1).arg(k0).arg(k1).arg(fast, 0, 'g', 17).arg(exact, 0, 'g', 17)));
        if (std::abs(s.mean() - exact) > 4e-16 * std::abs(exact))
            QFAIL(qPrintable(QStringLiteral("block %1:%2 x %3:%4 mean %5 vs %6")
                                 .arg(q0).arg(q1).arg(k0).arg(k1).arg(s.mean(), 0, 'g', 17).arg(exact, 0, 'g', 17)));
    }
    // range(): each distance once.
    const BlockStats r = d.range(-5, 70);
    double s = 0;
    for (std::int64_t x = -5; x <= 70; ++x) s += at(x);
    QCOMPARE(r.count, std::int64_t(76));
    QVERIFY(std::abs(r.sum - s) <= 1e-12 * std::abs(s));
}

void TestAggregate::structuredBlocksMatchBruteForce_data() {
    QTest::addColumn<ScoreParams>("p");
    QTest::addColumn<int>("n");
    QTest::addColumn<bool>("causal");
    for (const auto& m : kDistanceMethods)
        for (int n : {1, 37, 160})
            for (bool causal : {false, true}) {
                const ScoreParams p = distanceMethodParams(m, causal);
                QTest::addRow("%s_n%d_%s", m.name, n, causal ? "causal" : "bidirectional") << p << n << causal;
            }
}

void TestAggregate::structuredBlocksMatchBruteForce() {
    QFETCH(ScoreParams, p);
    QFETCH(int, n);
    QFETCH(bool, causal);
    QVERIFY(scoresAreDistanceFunction(p));
    auto full = scores(p, arangePositions(0, n), arangePositions(0, n), n);
    QVERIFY(full.ok());
    const Matrix& m = full.value();
    // Rope/xpos: a cell rounds cos(iθ), cos(jθ) separately, f(i − j) once: ~1e-15 relative.
    const double tol = 1e-12 * (1.0 + maxAbs(m));
    std::mt19937_64 rng(static_cast<std::uint64_t>(n) * 31 + causal);
    for (int trial = 0; trial < 40; ++trial) {
        const auto ranges = randomRanges(rng, n);
        const auto& qr = ranges.first;
        const auto& kr = ranges.second;
        checkStructuredBlocks(p, n, qr, kr, [&](std::size_t a, std::size_t b) {
            return brute(m, qr[a].from, qr[a].to, kr[b].from, kr[b].to, causal);
        }, tol);
        if (QTest::currentTestFailed()) return;
    }
}

// A sliding window masks by distance alone: its blocks take the structured path too (only the
// window's distances evaluated), each the statistic of its visible cells (the cells scores()
// gives without the window, where attention.h visible() says so), −∞ where none is visible.
void TestAggregate::windowedBlocksMatchBruteForce_data() {
    QTest::addColumn<ScoreParams>("p");
    QTest::addColumn<int>("n");
    for (const auto& m : kDistanceMethods)
        for (std::int64_t w : {1, 7, 64})
            for (bool causal : {false, true}) {
                ScoreParams p = distanceMethodParams(m, causal);
                p.attention.window = w;
                QTest::addRow("%s_window%lld_%s", m.name, static_cast<long long>(w), causal ? "causal" : "bidirectional") << p << 160;
            }
}

void TestAggregate::windowedBlocksMatchBruteForce() {
    QFETCH(ScoreParams, p);
    QFETCH(int, n);
    ScoreParams unmasked = p;
    unmasked.attention.window.reset();
    auto full = scores(unmasked, arangePositions(0, n), arangePositions(0, n), n);
    QVERIFY(full.ok());
    const Matrix& m = full.value();
    const double tol = 1e-12 * (1.0 + maxAbs(m));
    std::mt19937_64 rng(static_cast<std::uint64_t>(*p.attention.window) * 7 + p.causal);
    for (int trial = 0; trial < 40; ++trial) {
        auto ranges = randomRanges(rng, n);
        auto& qr = ranges.first;
        auto& kr = ranges.second;
        qr.push_back({0, n});   // the whole matrix too
        kr.push_back({0, n});
        checkStructuredBlocks(p, n, qr, kr, [&](std::size_t a, std::size_t b) {
            BlockStats s;
            s.min = kInf;
            s.max = -kInf;
            for (auto i = qr[a].from; i < qr[a].to; ++i)
                for (auto j = kr[b].from; j < kr[b].to; ++j) {
                    if (!visible(p.attention, p.causal, i, j, n)) continue;
                    s.sum += m(i, j);
                    s.min = std::min(s.min, m(i, j));
                    s.max = std::max(s.max, m(i, j));
                    ++s.count;
                }
            return s;
        }, tol);
        if (QTest::currentTestFailed()) return;
    }
}

void TestAggregate::meanOverAllBlocksIsMatrixMean_data() {
    QTest::addColumn<ScoreParams>("p");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("cells");
    for (bool causal : {false, true}) {
        ScoreParams rope = params(Method::Rope, Content::Ones, Precision::Double, 64);
        rope.causal = causal;
        ScoreParams alibi = params(Method::Alibi, Content::Ones, Precision::Float32);
        alibi.causal = causal;
        ScoreParams random = params(Method::Rope, Content::Random, Precision::Float32);
        random.causal = causal;
        const char* c = causal ? "causal" : "bidirectional";
        QTest::addRow("rope_double_n1000_cells37_%s", c) << rope << 1000 << 37;
        QTest::addRow("alibi_n777_cells100_%s", c) << alibi << 777 << 100;
        QTest::addRow("rope_random_float32_n300_cells41_%s", c) << random << 300 << 41;
    }
}

void TestAggregate::meanOverAllBlocksIsMatrixMean() {
    QFETCH(ScoreParams, p);
    QFETCH(int, n);
    QFETCH(int, cells);
    const auto ranges = splitRange(0, n, cells);
    auto r = aggregateScores(p, n, ranges, ranges, Aggregate::Mean, std::int64_t{1} << 40);
    QVERIFY(r.ok());
    QVERIFY(!r.value().sampled);
    auto mx = aggregateScores(p, n, ranges, ranges, Aggregate::Max, std::int64_t{1} << 40);
    auto mn = aggregateScores(p, n, ranges, ranges, Aggregate::Min, std::int64_t{1} << 40);
    QVERIFY(mx.ok() && mn.ok());
    auto full = scores(p, arangePositions(0, n), arangePositions(0, n), n);
    QVERIFY(full.ok());
    double sum = 0, hi = -kInf, lo = kInf;
    std::int64_t count = 0;
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j < n; ++j) {
            if (p.causal && j > i) continue;
            sum += full.value()(i, j);
            hi = std::max(hi, full.value()(i, j));
            lo = std::min(lo, full.value()(i, j));
            ++count;
        }
    // Σ over pixels of (cells of the block)·mean / Σ cells: each block weighted by its cells.
    double wsum = 0, bhi = -kInf, blo = kInf;
    std::int64_t wcount = 0;
    for (std::size_t a = 0; a < ranges.size(); ++a)
        for (std::size_t b = 0; b < ranges.size(); ++b) {
            const BlockStats s = brute(full.value(), ranges[a].from, ranges[a].to, ranges[b].from, ranges[b].to, p.causal);
            const double v = r.value().values(Eigen::Index(a), Eigen::Index(b));
            if (s.count == 0) {
                QCOMPARE(v, -kInf);
                continue;
            }
            wsum += v * static_cast<double>(s.count);
            wcount += s.count;
            bhi = std::max(bhi, mx.value().values(Eigen::Index(a), Eigen::Index(b)));
            blo = std::min(blo, mn.value().values(Eigen::Index(a), Eigen::Index(b)));
        }
    QCOMPARE(wcount, count);
    const double tol = 1e-12 * (1.0 + maxAbs(full.value()));
    QVERIFY2(std::abs(wsum / double(wcount) - sum / double(count)) <= tol,
             qPrintable(QStringLiteral("%1 vs %2").arg(wsum / double(wcount), 0, 'g', 17).arg(sum / double(count), 0, 'g', 17)));
    QVERIFY(std::abs(bhi - hi) <= tol);
    QVERIFY(std::abs(blo - lo) <= tol);
}

void TestAggregate::genericBlocksExactOrMarkedSample_data() {
    QTest::addColumn<ScoreParams>("p");
    const struct {
        const char* name;
        Method m;
        Content c;
        Precision pr;
        bool softmax;
    } rows[] = {{"rope_float32_ones", Method::Rope, Content::Ones, Precision::Float32, false},
                {"rope_double_random", Method::Rope, Content::Random, Precision::Double, false},
                {"sinusoidal_ones", Method::Sinusoidal, Content::Ones, Precision::Float32, false},
                {"learned_formula", Method::Learned, Content::Formula, Precision::Float32, false},
                {"alibi_ones_softmax", Method::Alibi, Content::Ones, Precision::Float32, true},
                {"t5_random_softmax", Method::T5, Content::Random, Precision::Float32, true}};
    for (const auto& r : rows)
        for (bool causal : {false, true}) {
            ScoreParams p = params(r.m, r.c, r.pr);
            p.softmax = r.softmax;
            p.causal = causal;
            QTest::addRow("%s_%s", r.name, causal ? "causal" : "bidirectional") << p;
        }
}

void TestAggregate::genericBlocksExactOrMarkedSample() {
    QFETCH(ScoreParams, p);
    const int n = 90;
    QVERIFY(!scoresAreDistanceFunction(p));
    auto full = scores(p, arangePositions(0, n), arangePositions(0, n), n);
    QVERIFY(full.ok());
    const std::vector<PositionRange> qr{{0, 7}, {7, 50}, {50, 90}}, kr{{3, 4}, {10, 40}, {40, 90}};
    const std::int64_t work = aggregateWork(p, n, 90, 81);
    for (Aggregate agg : {Aggregate::Mean, Aggregate::Max, Aggregate::Min}) {
        auto r = aggregateScores(p, n, qr, kr, agg, work);
        QVERIFY(r.ok());
        QVERIFY(!r.value().sampled && !r.value().structured);
        for (std::size_t a = 0; a < qr.size(); ++a)
            for (std::size_t b = 0; b < kr.size(); ++b) {
                const BlockStats s = brute(full.value(), qr[a].from, qr[a].to, kr[b].from, kr[b].to, p.causal);
                const double want = s.count > 0 ? s.get(agg) : -kInf;
                const double got = r.value().values(Eigen::Index(a), Eigen::Index(b));
                if (!std::isfinite(want)) QCOMPARE(got, want);
                else QVERIFY2(std::abs(got - want) <= 1e-13 * (1 + std::abs(want)),
                              qPrintable(QStringLiteral("%1 vs %2").arg(got).arg(want)));
            }
    }
    // One less than the work it needs: each block's centre cell, marked as a sample.
    auto s = aggregateScores(p, n, qr, kr, Aggregate::Mean, work - 1);
    QVERIFY(s.ok());
    QVERIFY(s.value().sampled);
    QCOMPARE(s.value().sampledQueries, (Positions{3, 28, 69}));
    QCOMPARE(s.value().sampledKeys, (Positions{3, 24, 64}));
    for (std::size_t a = 0; a < 3; ++a)
        for (std::size_t b = 0; b < 3; ++b) {
            const auto i = s.value().sampledQueries[a], j = s.value().sampledKeys[b];
            const double want = p.causal && j > i ? -kInf : full.value()(i, j);
            QCOMPARE(s.value().values(Eigen::Index(a), Eigen::Index(b)), want);
        }
}

// aggregateScoreErrors: RoPE with ones content, cell (i, j) = score in the dtype − the exact score,
// the latter from the closed form s·Σ_pairs 2·cos((i − j)·θ_k) (q = k = ones: each pair (1, 1)
// rotated by a and b gives (cos a − sin a)(cos b − sin b) + (sin a + cos a)(sin b + cos b) =
// 2 cos(a − b)), θ_k = base^(−2k/d) in double. Blocks (mean, max, min; causal too) against brute
// force over those cells; past the work the centre cells, marked.
void TestAggregate::scoreErrorsMatchIndependentCells_data() {
    QTest::addColumn<int>("precision");
    QTest::addColumn<bool>("causal");
    for (Precision pr : {Precision::BFloat16, Precision::Float16, Precision::Float32})
        for (bool causal : {false, true})
            QTest::addRow("rope_ones_%s_%s", enumKey(pr).data(), causal ? "causal" : "bidirectional") << int(pr) << causal;
}

void TestAggregate::scoreErrorsMatchIndependentCells() {
    QFETCH(int, precision);
    QFETCH(bool, causal);
    ScoreParams p = params(Method::Rope, Content::Ones, Precision(precision), 16);
    p.causal = causal;
    const int n = 300;
    auto dtype = scores(p, arangePositions(0, n), arangePositions(0, n), n);
    QVERIFY(dtype.ok());
    Matrix want(n, n);
    const double s = 1.0 / std::sqrt(double(p.dim));
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            double exact = 0;
            for (int k = 0; k < p.dim / 2; ++k) exact += 2 * std::cos((i - j) * std::pow(p.rope.base, -2.0 * k / p.dim));
            want(i, j) = dtype.value()(i, j) - s * exact;
        }
    // The reduced dtype really errs (bfloat16 ~1e-2, float32 ~1e-6 here), far above the double
    // reference's own rounding.
    QVERIFY(maxAbs(want) > (precision == int(Precision::Float32) ? 1e-8 : 1e-4));
    const std::vector<PositionRange> qr = splitRange(0, n, 7), kr{{0, 1}, {1, 120}, {120, 299}, {299, 300}};
    const std::int64_t work = 2 * aggregateWork(p, n, n, n);
    for (Aggregate agg : {Aggregate::Mean, Aggregate::Max, Aggregate::Min}) {
        auto r = aggregateScoreErrors(p, n, qr, kr, agg, work);
        QVERIFY(r.ok());
        QVERIFY(!r.value().sampled && !r.value().structured);
        for (std::size_t a = 0; a < qr.size(); ++a)
            for (std::size_t b = 0; b < kr.size(); ++b) {
                const BlockStats st = brute(want, qr[a].from, qr[a].to, kr[b].from, kr[b].to, causal);
                const double w = st.count > 0 ? st.get(agg) : -kInf;
                const double got = r.value().values(Eigen::Index(a), Eigen::Index(b));
                if (!std::isfinite(w)) QCOMPARE(got, w);
                else QVERIFY2(std::abs(got - w) <= 1e-12, qPrintable(QStringLiteral("block %1,%2: %3 vs %4").arg(a).arg(b).arg(got).arg(w)));
            }
    }
    // Within less work: the centre cell of each block, marked as a sample, its error exact.
    auto smp = aggregateScoreErrors(p, n, qr, kr, Aggregate::Max, work - 1);
    QVERIFY(smp.ok());
    QVERIFY(smp.value().sampled);
    for (std::size_t a = 0; a < qr.size(); ++a)
        for (std::size_t b = 0; b < kr.size(); ++b) {
            const auto i = smp.value().sampledQueries[a], j = smp.value().sampledKeys[b];
            const double got = smp.value().values(Eigen::Index(a), Eigen::Index(b));
            if (causal && j > i) QCOMPARE(got, -kInf);
            else QVERIFY(std::abs(got - want(i, j)) <= 1e-12);
        }
    // Double precision: no error at all.
    ScoreParams d = p;
    d.precision = Precision::Double;
    auto zero = aggregateScoreErrors(d, n, qr, kr, Aggregate::Max, work);
    QVERIFY(zero.ok());
    for (Eigen::Index i = 0; i < zero.value().values.size(); ++i) {
        const double v = zero.value().values.data()[i];
        QVERIFY(v == 0 || v == -kInf);
    }
}

// The fast f(δ) paths (decay.h sweptDistanceScores for transformer-xl and xpos, the position-free
// rows of nope/alibi/t5/shaw in scoresByDistance) against real cells (i, j) of scores() at
// random positions with i − j = δ, on sizes past the sweep's block (512) and its two-thread split
// (1024): within 1e-12 of the largest score.
void TestAggregate::distanceScoresMatchCells_data() {
    QTest::addColumn<ScoreParams>("p");
    QTest::addColumn<int>("n");
    QTest::addColumn<bool>("swept");
    const struct {
        const char* name;
        Method m;
        Precision pr;
        bool swept;
    } methods[] = {{"xpos_double", Method::Xpos, Precision::Double, true},
                   {"rope_double", Method::Rope, Precision::Double, true},
                   {"transformer_xl", Method::TransformerXL, Precision::Float32, true},
                   {"alibi", Method::Alibi, Precision::Float32, false},
                   {"t5", Method::T5, Precision::Float32, false},
                   {"shaw", Method::Shaw, Precision::Float32, false},
                   {"nope", Method::NoPE, Precision::Float32, false}};
    for (const auto& m : methods)
        for (int n : {1, 2, 513, 2500, 5000})
            for (bool causal : {false, true}) {
                ScoreParams p = params(m.m, Content::Ones, m.pr, 32);
                p.causal = causal;
                p.shaw.max_relative_position = 40;
                p.xpos.scale_base = 4096;
                QTest::addRow("%s_n%d_%s", m.name, n, causal ? "causal" : "bidirectional") << p << n << m.swept;
            }
    ScoreParams clamped = params(Method::TransformerXL, Content::Ones, Precision::Float32, 32);
    clamped.transformer_xl.clamp_len = 700;
    QTest::addRow("transformer_xl_clamp700_n3000") << clamped << 3000 << true;
    ScoreParams norm = params(Method::TransformerXL, Content::Ones, Precision::Float32, 32);
    norm.attention.qk_norm = QkNorm::Before;
    QTest::addRow("transformer_xl_qknorm_n600_engine") << norm << 600 << false;
    ScoreParams partial = params(Method::Rope, Content::Ones, Precision::Double, 32);
    partial.rope.partial_rotary_factor = 0.5;
    partial.rope.layout = RopeLayout::Interleaved;
    QTest::addRow("rope_double_half_rotary_interleaved_n1500") << partial << 1500 << true;
    ScoreParams shortBase = params(Method::Xpos, Content::Ones, Precision::Double, 32);
    shortBase.xpos.scale_base = 30;   // length > 60/ln(3.5)·scale_base: the engine
    QTest::addRow("xpos_scale_base30_n2000_engine") << shortBase << 2000 << false;
}

void TestAggregate::distanceScoresMatchCells() {
    QFETCH(ScoreParams, p);
    QFETCH(int, n);
    QFETCH(bool, swept);
    const std::int64_t lo = p.causal ? 0 : -(n - 1), hi = n - 1;
    const auto fast = sweptDistanceScores(p, n, lo, hi);
    QCOMPARE(fast.has_value(), swept);
    const auto f = fast ? *fast : scoresByDistance(p, n, lo, hi);
    QVERIFY2(f.ok(), f.ok() ? "" : f.error().message().c_str());
    std::mt19937_64 rng(static_cast<std::uint64_t>(n) * 7 + p.causal);
    std::uniform_int_distribution<std::int64_t> pos(0, n - 1);
    Positions qs, ks;
    for (int t = 0; t < 24; ++t) qs.push_back(pos(rng)), ks.push_back(pos(rng));
    qs.push_back(n - 1), ks.push_back(0);   // the largest distances
    qs.push_back(0), ks.push_back(n - 1);
    auto cells = scores(p, qs, ks, n);
    QVERIFY(cells.ok());
    const Matrix& m = cells.value();
    const double tol = 1e-12 * (1.0 + maxAbs(m));
    for (std::size_t a = 0; a < qs.size(); ++a)
        for (std::size_t b = 0; b < ks.size(); ++b) {
            const std::int64_t d = qs[a] - ks[b];
            if (d < lo) continue;   // masked
            const double want = m(Eigen::Index(a), Eigen::Index(b));
            const double got = f.value()[static_cast<std::size_t>(d - lo)];
            if (!(std::abs(got - want) <= tol))
                QFAIL(qPrintable(QStringLiteral("f(%1) = %2, cell (%3, %4) = %5").arg(d).arg(got, 0, 'g', 17)
                                     .arg(qs[a]).arg(ks[b]).arg(want, 0, 'g', 17)));
        }
}

void TestAggregate::errors() {
    const ScoreParams p = params(Method::Rope, Content::Ones, Precision::Double);
    auto r = aggregateScores(p, 10, {{0, 11}}, {{0, 10}}, Aggregate::Mean, 0);
    QVERIFY(!r.ok());
    QCOMPARE(QString::fromStdString(r.error().parameter), QStringLiteral("queries"));
    r = aggregateScores(p, 10, {{0, 10}}, {{4, 4}}, Aggregate::Mean, 0);
    QVERIFY(!r.ok());
    QCOMPARE(QString::fromStdString(r.error().parameter), QStringLiteral("keys"));
    r = aggregateScores(p, 10, {}, {{0, 10}}, Aggregate::Mean, 0);
    QVERIFY(!r.ok());
    // A causal window above the diagonal: every block masked.
    ScoreParams c = p;
    c.causal = true;
    r = aggregateScores(c, 100, {{0, 10}}, {{50, 60}, {60, 100}}, Aggregate::Max, 0);
    QVERIFY(r.ok());
    QCOMPARE(r.value().values(0, 1), -kInf);
    // The score errors check their ranges the same way.
    ScoreParams b = p;
    b.precision = Precision::BFloat16;
    r = aggregateScoreErrors(b, 10, {{0, 10}}, {{0, 11}}, Aggregate::Mean, 1 << 20);
    QVERIFY(!r.ok());
    QCOMPARE(QString::fromStdString(r.error().parameter), QStringLiteral("keys"));
}

QTEST_APPLESS_MAIN(TestAggregate)
#include "test_aggregate.moc"
