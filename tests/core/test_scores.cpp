// scores(): sampled positions equal the full matrix, the exact softmax normaliser, causal masks,
// each method's formula rebuilt from its own core pieces; scoresSummary() equals the full-matrix
// computation for every method, content, mask and softmax (both the i−j path and the blocked
// kernel path); the dot kernel against a naive loop; validation.
#include "support/parallelfor.h"
#include "support/testsupport.h"

#include "core/decay.h"
#include "core/precision.h"
#include "core/random.h"
#include "core/scores.h"
#include "core/scores_kernel.h"

#include <limits>
#include <optional>

using namespace poslab;

Q_DECLARE_METATYPE(poslab::ScoreParams)

namespace {

ScoreParams make(Method m, Content c, int dim, bool causal = false, bool softmax = false,
                 Precision pr = Precision::Float32) {
    ScoreParams p;
    p.method = m;
    p.content = c;
    p.dim = dim;
    p.causal = causal;
    p.softmax = softmax;
    p.precision = pr;
    p.seed = 7;
    p.learned.table_size = 64;
    p.shaw.max_relative_position = 3;
    p.t5.num_buckets = 8;
    p.t5.max_distance = 12;
    p.t5.heads = 3;
    p.alibi.heads = 4;
    p.head = 1;
    return p;
}

const char* contentName(Content c) { return c == Content::Ones ? "ones" : c == Content::Random ? "random" : "formula"; }

// Sum/min/max of the unmasked entries of a full matrix.
ScoreSummary summarise(const Matrix& m, bool causal) {
    ScoreSummary s;
    s.rows = m.rows();
    s.cols = m.cols();
    s.min = std::numeric_limits<double>::infinity();
    s.max = -s.min;
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = 0; j < m.cols(); ++j) {
            if (causal && j > i) continue;
            s.sum += m(i, j);
            s.min = std::min(s.min, m(i, j));
            s.max = std::max(s.max, m(i, j));
        }
    return s;
}

bool close(double a, double b, double rel) { return std::abs(a - b) <= rel * std::max(1.0, std::max(std::abs(a), std::abs(b))); }

}  // namespace

class TestScores : public QObject {
    Q_OBJECT
    // The split computations run on two threads here (core/parallel.h), as the window and the
    // command line run them: every result must still be the serial one bit for bit.
    std::optional<poslab::ParallelScope> parallel_;
private Q_SLOTS:
    void initTestCase() { parallel_.emplace(testsupport::threadsParallelFor(2)); }
    void cleanupTestCase() { parallel_.reset(); }
    void contentRowsFormulaAndRandom();
    void sampledEqualsFull_data();
    void sampledEqualsFull();
    void summaryEqualsFull_data();
    void summaryEqualsFull();
    void softmaxRowsSumToOne_data();
    void softmaxRowsSumToOne();
    void causalMask();
    void halfPrecisionRopeScores_data();
    void halfPrecisionRopeScores();
    void nopeIsScaledDot();
    void alibiIsDotMinusSlopeDistance_data();
    void alibiIsDotMinusSlopeDistance();
    void ropeDependsOnlyOnDifference_data();
    void ropeDependsOnlyOnDifference();
    void shawAndT5FromTheirTables();
    void kernelMatchesNaive_data();
    void kernelMatchesNaive();
    void kernelReportsNonFinite_data();
    void kernelReportsNonFinite();
    void longStructuredSummary();
    void longSoftmaxSamples();
    void validation_data();
    void validation();
};

void TestScores::contentRowsFormulaAndRandom() {
    const Positions pos{0, 3, 10};
    const Matrix q = contentRows(Content::Formula, false, pos, 5, 0);
    const Matrix k = contentRows(Content::Formula, true, pos, 5, 0);
    for (std::size_t r = 0; r < pos.size(); ++r)
        for (int c = 0; c < 5; ++c) {
            const double n = double(pos[r] * 5 + c);
            QCOMPARE(q(Eigen::Index(r), c), std::sin(0.5 + 0.7 * n));
            QCOMPARE(k(Eigen::Index(r), c), std::sin(0.3 + 1.1 * n));
        }
    // Random rows are rows of one seeded table (q stream 11, k stream 12), whatever is asked.
    const Matrix full = seededNormal(11, 5, 9, 11);
    const Matrix rows = contentRows(Content::Random, false, pos, 5, 9);
    for (std::size_t r = 0; r < pos.size(); ++r) QCOMPARE(Matrix(rows.row(Eigen::Index(r))), Matrix(full.row(pos[r])));
    QVERIFY(contentRows(Content::Random, true, pos, 5, 9) != rows);
    QCOMPARE(contentRows(Content::Ones, true, pos, 5, 9), Matrix(Matrix::Ones(3, 5)));
}

void TestScores::sampledEqualsFull_data() {
    QTest::addColumn<ScoreParams>("params");
    for (Method m : kAllMethods)
        for (Content c : {Content::Ones, Content::Random, Content::Formula})
            for (int mode = 0; mode < 3; ++mode) {
                const bool causal = mode >= 1, softmax = mode == 2;
                const QString name = QString("%1_%2_%3").arg(methodKey(m).data(), contentName(c),
                                                             mode == 0 ? "plain" : mode == 1 ? "causal" : "causal_softmax");
                QTest::newRow(qPrintable(name)) << make(m, c, 8, causal, softmax);
            }
}

void TestScores::sampledEqualsFull() {
    QFETCH(ScoreParams, params);
    const std::int64_t n = 20;
    const Positions all = arangePositions(0, n);
    auto full = scores(params, all, all, n);
    QVERIFY2(full.ok(), full.ok() ? "" : full.error().message().c_str());
    const Positions qs{19, 0, 7, 7, 13}, ks{2, 19, 11, 0};
    auto part = scores(params, qs, ks, n);
    QVERIFY(part.ok());
    for (std::size_t i = 0; i < qs.size(); ++i)
        for (std::size_t j = 0; j < ks.size(); ++j) {
            const double a = part.value()(Eigen::Index(i), Eigen::Index(j));
            const double b = full.value()(qs[i], ks[j]);
            if (std::isinf(b)) {
                QCOMPARE(a, b);
                continue;
            }
            QVERIFY2(std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b)),
                     qPrintable(QString("(%1,%2): %3 vs %4").arg(qs[i]).arg(ks[j]).arg(a, 0, 'g', 17).arg(b, 0, 'g', 17)));
        }
}

void TestScores::summaryEqualsFull_data() {
    QTest::addColumn<ScoreParams>("params");
    QTest::addColumn<int>("length");
    for (Method m : kAllMethods)
        for (Content c : {Content::Ones, Content::Random, Content::Formula})
            for (Precision pr : {Precision::Float32, Precision::Double})
                for (int mode = 0; mode < 4; ++mode) {
                    const bool causal = mode & 1, softmax = mode & 2;
                    const int n = (mode == 3) ? 37 : 29;   // odd sizes: partial kernel tiles
                    const QString name = QString("%1_%2_%3_%4%5_n%6")
                                             .arg(methodKey(m).data(), contentName(c), pr == Precision::Double ? "double" : "float32",
                                                  causal ? "causal" : "full", softmax ? "_softmax" : "")
                                             .arg(n);
                    QTest::newRow(qPrintable(name)) << make(m, c, 6, causal, softmax, pr) << n;
                }
}

void TestScores::summaryEqualsFull() {
    QFETCH(ScoreParams, params);
    QFETCH(int, length);
    const Positions all = arangePositions(0, length);
    auto full = scores(params, all, all, length);
    QVERIFY(full.ok());
    const ScoreSummary want = summarise(full.value(), params.causal);
    auto got = scoresSummary(params, length);
    QVERIFY2(got.ok(), got.ok() ? "" : got.error().message().c_str());
    QCOMPARE(got.value().rows, std::int64_t(length));
    QCOMPARE(got.value().cols, std::int64_t(length));
    QVERIFY2(close(got.value().sum, want.sum, 1e-10), qPrintable(QString("sum %1 vs %2").arg(got.value().sum, 0, 'g', 17).arg(want.sum, 0, 'g', 17)));
    QVERIFY2(close(got.value().min, want.min, 1e-11), qPrintable(QString("min %1 vs %2").arg(got.value().min, 0, 'g', 17).arg(want.min, 0, 'g', 17)));
    QVERIFY2(close(got.value().max, want.max, 1e-11), qPrintable(QString("max %1 vs %2").arg(got.value().max, 0, 'g', 17).arg(want.max, 0, 'g', 17)));
}

void TestScores::softmaxRowsSumToOne_data() {
    QTest::addColumn<ScoreParams>("params");
    for (Method m : kAllMethods)
        for (bool causal : {false, true})
            QTest::newRow(qPrintable(QString("%1_formula_%2").arg(methodKey(m).data(), causal ? "causal" : "full")))
                << make(m, Content::Formula, 8, causal, true);
}

void TestScores::softmaxRowsSumToOne() {
    QFETCH(ScoreParams, params);
    const std::int64_t n = 30;
    const Positions all = arangePositions(0, n);
    auto full = scores(params, all, all, n);
    QVERIFY(full.ok());
    for (Eigen::Index i = 0; i < n; ++i) {
        QVERIFY(std::abs(full.value().row(i).sum() - 1) <= 1e-12);
        for (Eigen::Index j = 0; j < n; ++j) {
            QVERIFY(full.value()(i, j) >= 0);
            if (params.causal && j > i) QCOMPARE(full.value()(i, j), 0.0);
        }
    }
    // Rows over a subset of keys keep the full normaliser: they sum to the subset's share.
    const Positions ks{0, 5, 29};
    auto part = scores(params, {29, 4}, ks, n);
    QVERIFY(part.ok());
    for (std::size_t j = 0; j < ks.size(); ++j) {
        QVERIFY(std::abs(part.value()(0, Eigen::Index(j)) - full.value()(29, ks[j])) <= 1e-14);
        QVERIFY(std::abs(part.value()(1, Eigen::Index(j)) - full.value()(4, ks[j])) <= 1e-14);
    }
}

// RoPE in bfloat16/float16: every score is precisionScores of the rotated rows (q, k in the dtype,
// float32 accumulation, one rounding; checked against PyTorch in test_precision), the summary
// sums those same scores, and the decay curve's value at d is the score of query d and key 0
// (ones content).
void TestScores::halfPrecisionRopeScores_data() {
    QTest::addColumn<int>("precision");
    QTest::addColumn<int>("anglePrecision");
    QTest::newRow("bfloat16_angles_float32") << int(Precision::BFloat16) << int(Precision::Float32);
    QTest::newRow("float16_angles_float32") << int(Precision::Float16) << int(Precision::Float32);
    QTest::newRow("bfloat16_angles_bfloat16") << int(Precision::BFloat16) << int(Precision::BFloat16);
}

void TestScores::halfPrecisionRopeScores() {
    QFETCH(int, precision);
    QFETCH(int, anglePrecision);
    ScoreParams p;
    p.method = Method::Rope;
    p.dim = 64;
    p.content = Content::Random;
    p.seed = 3;
    p.precision = Precision(precision);
    p.rope.angle_precision = Precision(anglePrecision);
    QVERIFY(!p.validate());
    const std::int64_t n = 300;
    const Positions all = arangePositions(0, n);
    auto r = scores(p, all, all, n);
    QVERIFY(r.ok());
    const RopeParams rp = p.ropeParams();
    const RopeFrequencies f = ropeFrequencies(rp, n);
    const Matrix q = ropeApply(rp, ropeTables(rp, f, all), contentRows(p.content, false, all, p.dim, p.seed));
    const Matrix k = ropeApply(rp, ropeTables(rp, f, all), contentRows(p.content, true, all, p.dim, p.seed));
    const Matrix want = precisionScores(p.precision, q, k, 1 / std::sqrt(64.0));
    QVERIFY(r.value() == want);
    // Not the double dot product of the same rows.
    QVERIFY(r.value() != (q * k.transpose()) / 8.0);
    auto sum = scoresSummary(p, n);
    QVERIFY(sum.ok());
    QVERIFY(std::abs(sum.value().sum - want.sum()) <= 1e-9 * want.cwiseAbs().sum());
    QCOMPARE(sum.value().max, want.maxCoeff());
    // The decay view holds position 0's content fixed (the same at every position with ones).
    ScoreParams ones = p;
    ones.content = Content::Ones;
    auto col = scores(ones, all, {0}, n);
    auto d = decayCurve(ones, n - 1);
    QVERIFY(d.ok() && col.ok());
    for (Eigen::Index i = 0; i < n; ++i) QCOMPARE(d.value().value[i], col.value()(i, 0));
}

void TestScores::causalMask() {
    const auto p = make(Method::Rope, Content::Formula, 8, true, false);
    auto s = scores(p, {3, 0}, {0, 3, 4}, 5);
    QVERIFY(s.ok());
    QVERIFY(std::isfinite(s.value()(0, 0)));
    QVERIFY(std::isfinite(s.value()(0, 1)));
    QCOMPARE(s.value()(0, 2), -std::numeric_limits<double>::infinity());
    QVERIFY(std::isfinite(s.value()(1, 0)));
    QCOMPARE(s.value()(1, 1), -std::numeric_limits<double>::infinity());
}

void TestScores::nopeIsScaledDot() {
    const auto p = make(Method::NoPE, Content::Random, 5);
    const Positions q{1, 4}, k{0, 2, 3};
    auto s = scores(p, q, k, 6);
    QVERIFY(s.ok());
    const Matrix want = (contentRows(Content::Random, false, q, 5, 7) * contentRows(Content::Random, true, k, 5, 7).transpose()) /
                        std::sqrt(5.0);
    POSLAB_VERIFY_ABS(s.value(), want, 1e-14);
}

void TestScores::alibiIsDotMinusSlopeDistance_data() {
    QTest::addColumn<bool>("causal");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("head");
    QTest::newRow("symmetric_h8_head0") << false << 8 << 0;
    QTest::newRow("causal_h8_head3") << true << 8 << 3;
    QTest::newRow("causal_h12_head10") << true << 12 << 10;
}

void TestScores::alibiIsDotMinusSlopeDistance() {
    QFETCH(bool, causal);
    QFETCH(int, heads);
    QFETCH(int, head);
    auto p = make(Method::Alibi, Content::Formula, 8, causal, false, Precision::Double);
    p.alibi.heads = heads;
    p.head = head;
    const Positions all = arangePositions(0, 12);
    auto s = scores(p, all, all, 12);
    QVERIFY(s.ok());
    // Slopes from the golden ofirpress list where it applies; else 2^(−8(h+1)/H) for powers of two.
    const double m = heads == 12 ? testsupport::toVector(testsupport::goldenCase("alibi_ofirpress.json", "get_slopes_n12")["output"].toArray())[head]
                                 : std::pow(2.0, -8.0 * (head + 1) / heads);
    const Matrix q = contentRows(Content::Formula, false, all, 8, 0), k = contentRows(Content::Formula, true, all, 8, 0);
    for (int i = 0; i < 12; ++i)
        for (int j = 0; j < 12; ++j) {
            if (causal && j > i) continue;
            const double dist = causal ? double(i - j) : std::abs(double(i - j));
            const double want = q.row(i).dot(k.row(j)) / std::sqrt(8.0) - m * dist;
            QVERIFY(std::abs(s.value()(i, j) - want) <= 1e-13);
        }
}

void TestScores::ropeDependsOnlyOnDifference_data() {
    QTest::addColumn<ScoreParams>("params");
    QTest::addColumn<std::int64_t>("shift");
    for (Precision pr : {Precision::Double, Precision::Float32}) {
        const char* prn = pr == Precision::Double ? "double" : "float32";
        auto half = make(Method::Rope, Content::Ones, 16, false, false, pr);
        QTest::newRow(qPrintable(QString("half_d16_theta1e4_%1_shift100").arg(prn))) << half << std::int64_t(100);
        auto inter = half;
        inter.rope.layout = RopeLayout::Interleaved;
        QTest::newRow(qPrintable(QString("interleaved_d16_%1_shift37").arg(prn))) << inter << std::int64_t(37);
        auto llama = make(Method::Rope, Content::Ones, 128, false, false, pr);
        llama.rope.base = 500000;
        llama.rope.scaling = RopeScaling::Llama3;
        llama.rope.factor = 8;
        llama.rope.original_max_positions = 8192;
        llama.rope.max_positions = 131072;
        QTest::newRow(qPrintable(QString("llama3_d128_%1_shift500").arg(prn))) << llama << std::int64_t(500);
    }
}

void TestScores::ropeDependsOnlyOnDifference() {
    QFETCH(ScoreParams, params);
    QFETCH(std::int64_t, shift);
    // With the same q and k at every position (ones content), R_i q · R_j k depends on i − j only:
    // exactly in double, within float32 angle rounding (~1e-4 rad at position 600) in float32.
    const Positions q{0, 3, 9, 20}, k{1, 3, 15};
    Positions qs, ks;
    for (auto x : q) qs.push_back(x + shift);
    for (auto x : k) ks.push_back(x + shift);
    auto a = scores(params, q, k, 1000), b = scores(params, qs, ks, 1000);
    QVERIFY(a.ok() && b.ok());
    const double tol = params.precision == Precision::Double ? 1e-11 : 2e-3;
    POSLAB_VERIFY_ABS(a.value(), b.value(), tol);
    // And the diagonal is the maximum s·dim of aligned vectors.
    QVERIFY(std::abs(a.value()(1, 1) - std::sqrt(double(params.dim))) <= 1e-5);
}

void TestScores::shawAndT5FromTheirTables() {
    const Positions all = arangePositions(0, 9);
    {
        auto p = make(Method::Shaw, Content::Random, 6);
        auto s = scores(p, all, all, 9);
        QVERIFY(s.ok());
        const Matrix q = contentRows(Content::Random, false, all, 6, 7), k = contentRows(Content::Random, true, all, 6, 7);
        const Matrix a = shawKeyTable(p.shawParams());
        const IntMatrix idx = shawIndex(9, 9, 3);
        for (int i = 0; i < 9; ++i)
            for (int j = 0; j < 9; ++j) {
                const double want = q.row(i).dot(k.row(j) + a.row(idx(i, j))) / std::sqrt(6.0);
                QVERIFY(std::abs(s.value()(i, j) - want) <= 1e-13);
            }
    }
    {
        auto p = make(Method::T5, Content::Formula, 6);
        auto s = scores(p, all, all, 9);
        QVERIFY(s.ok());
        const Matrix q = contentRows(Content::Formula, false, all, 6, 0), k = contentRows(Content::Formula, true, all, 6, 0);
        const Matrix table = t5BiasTable(p.t5Params());
        for (int i = 0; i < 9; ++i)
            for (int j = 0; j < 9; ++j) {
                const double want = q.row(i).dot(k.row(j)) / std::sqrt(6.0) + table(t5Bucket(j - i, p.t5Params()), p.head);
                QVERIFY(std::abs(s.value()(i, j) - want) <= 1e-13);
            }
    }
}

void TestScores::kernelMatchesNaive_data() {
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("cols");
    QTest::addColumn<int>("dim");
    QTest::newRow("r13_c37_d5") << 13 << 37 << 5;
    QTest::newRow("r8_c24_d128") << 8 << 24 << 128;
    QTest::newRow("r1_c1_d1") << 1 << 1 << 1;
    QTest::newRow("r33_c70_d3") << 33 << 70 << 3;
}

void TestScores::kernelMatchesNaive() {
    QFETCH(int, rows);
    QFETCH(int, cols);
    QFETCH(int, dim);
    const Matrix q = seededNormal(rows, dim, 1), k = seededNormal(cols + 5, dim, 2);
    const PackedKeys packed = packKeys(k.data(), k.rows(), dim);
    Matrix out(rows, cols);
    scaledDots(q.data(), rows, packed, cols, 0.5, out.data());
    const Matrix want = 0.5 * (q * k.topRows(cols).transpose());
    POSLAB_VERIFY_ABS(out, want, 1e-12);
    for (bool causal : {false, true}) {
        const std::int64_t start = 3;
        const DotSummary d = scaledDotsSummary(q.data(), rows, start, packed, cols, 0.5, causal);
        double sum = 0, mn = INFINITY, mx = -INFINITY;
        std::int64_t count = 0;
        for (int i = 0; i < rows; ++i)
            for (int j = 0; j < cols; ++j) {
                if (causal && j > start + i) continue;
                sum += want(i, j);
                mn = std::min(mn, want(i, j));
                mx = std::max(mx, want(i, j));
                ++count;
            }
        QCOMPARE(d.count, count);
        QVERIFY(std::abs(d.sum - sum) <= 1e-10);
        QVERIFY(std::abs(d.min - mn) <= 1e-12);
        QVERIFY(std::abs(d.max - mx) <= 1e-12);
    }
    QVERIFY(QByteArray(scaledDotsIsa()).size() > 0);
}

// scaledDots says whether every value it stored is below +∞ (scores() then skips its own pass):
// one overflowing or NaN dot product anywhere (a full panel, the partial last panel, a row of
// the remainder rows) is reported; −∞ is not a failure (masked cells are −∞).
void TestScores::kernelReportsNonFinite_data() {
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("col");
    QTest::addColumn<double>("value");   // q(row, 0) and k(col, 0) both set to it
    QTest::addColumn<bool>("finite");
    QTest::newRow("none") << -1 << -1 << 0.0 << true;
    QTest::newRow("overflow_first_panel") << 0 << 1 << 1e200 << false;
    QTest::newRow("overflow_last_partial_panel") << 5 << 69 << 1e200 << false;
    QTest::newRow("overflow_remainder_row") << 32 << 30 << 1e200 << false;
    QTest::newRow("nan") << 17 << 40 << std::numeric_limits<double>::quiet_NaN() << false;
    QTest::newRow("minus_inf") << 3 << 3 << -1e200 << true;   // q = −1e200 · k = 1e200: −∞
}

void TestScores::kernelReportsNonFinite() {
    QFETCH(int, row);
    QFETCH(int, col);
    QFETCH(double, value);
    QFETCH(bool, finite);
    Matrix q = seededNormal(33, 4, 1), k = seededNormal(70, 4, 2);
    if (row >= 0) {
        q(row, 0) = value;
        k(col, 0) = value < 0 ? -value : value;
    }
    const PackedKeys packed = packKeys(k.data(), k.rows(), 4);
    Matrix out(33, 70);
    QCOMPARE(scaledDots(q.data(), 33, packed, 70, 0.5, out.data()), finite);
    bool stored = true;
    for (Eigen::Index i = 0; i < out.size(); ++i) stored = stored && out.data()[i] < std::numeric_limits<double>::infinity();
    QCOMPARE(stored, finite);
}

void TestScores::longStructuredSummary() {
    // Ones content with ALiBi: a function of i − j, summarised without N² work. Closed form:
    // entries s·d − m·|i−j| → sum = N²·s·d − m·Σ_δ (N − |δ|)|δ| = N²√d − m·(N³ − N)/3.
    auto p = make(Method::Alibi, Content::Ones, 64, false, false, Precision::Double);
    p.alibi.heads = 8;
    p.head = 0;   // slope 1/2
    const double n = 1 << 20;
    auto s = scoresSummary(p, std::int64_t(n));
    QVERIFY(s.ok());
    const double want = n * n * 8.0 - 0.5 * (n * n * n - n) / 3.0;
    QVERIFY2(close(s.value().sum, want, 1e-12), qPrintable(QString::number(s.value().sum, 'g', 17)));
    QCOMPARE(s.value().max, 8.0);
    QCOMPARE(s.value().min, 8.0 - 0.5 * (n - 1));
}

void TestScores::longSoftmaxSamples() {
    // A view's case: a few query rows of a long sequence, softmax over every key (the packed
    // kernel computes these large blocks). Rows over all keys sum to 1; single entries asked
    // alone agree with the same entries of the whole rows.
    auto p = make(Method::Rope, Content::Formula, 64, false, true, Precision::Double);
    const std::int64_t n = 4096;
    const Positions qs{0, 1000, 4095}, all = arangePositions(0, n);
    auto rows = scores(p, qs, all, n);
    QVERIFY(rows.ok());
    for (Eigen::Index i = 0; i < 3; ++i) QVERIFY(std::abs(rows.value().row(i).sum() - 1) <= 1e-12);
    for (std::int64_t k : {0, 7, 2048, 4095}) {
        auto one = scores(p, {1000}, {k}, n);
        QVERIFY(one.ok());
        QVERIFY(std::abs(one.value()(0, 0) - rows.value()(1, k)) <= 1e-15 + 1e-12 * rows.value()(1, k));
    }
}

void TestScores::validation_data() {
    QTest::addColumn<ScoreParams>("params");
    QTest::addColumn<std::int64_t>("length");
    QTest::addColumn<QString>("parameter");
    auto p = make(Method::NoPE, Content::Ones, 0);
    QTest::newRow("dim0") << p << std::int64_t(4) << "dim";
    p = make(Method::Rope, Content::Ones, 7);
    QTest::newRow("rope_odd_dim7") << p << std::int64_t(4) << "dim";
    p = make(Method::Alibi, Content::Ones, 8);
    p.head = 4;
    QTest::newRow("alibi_head4_of4") << p << std::int64_t(4) << "head";
    p = make(Method::T5, Content::Ones, 8);
    p.head = -1;
    QTest::newRow("t5_head_negative") << p << std::int64_t(4) << "head";
    p = make(Method::Learned, Content::Ones, 8);
    QTest::newRow("learned_length65_table64") << p << std::int64_t(65) << "length";
    p = make(Method::NoPE, Content::Formula, 8);
    QTest::newRow("nope_length0") << p << std::int64_t(0) << "length";
    QTest::newRow("nope_summary_length_huge") << p << std::int64_t(1) << "length";
}

void TestScores::validation() {
    QFETCH(ScoreParams, params);
    QFETCH(std::int64_t, length);
    QFETCH(QString, parameter);
    if (QByteArray(QTest::currentDataTag()) == "nope_summary_length_huge") {
        auto s = scoresSummary(params, std::int64_t(1) << 40);
        QVERIFY(!s.ok());
        QCOMPARE(QString::fromStdString(s.error().parameter), parameter);
        return;
    }
    const Positions pos = arangePositions(0, std::max<std::int64_t>(1, std::min<std::int64_t>(length, 4)));
    auto r = scores(params, pos, pos, length);
    QVERIFY(!r.ok());
    QCOMPARE(QString::fromStdString(r.error().parameter), parameter);
    auto s = scoresSummary(params, length);
    QVERIFY(!s.ok());
    QCOMPARE(QString::fromStdString(s.error().parameter), parameter);
}

QTEST_GUILESS_MAIN(TestScores)
#include "test_scores.moc"
