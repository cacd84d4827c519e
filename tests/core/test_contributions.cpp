// Per-pair contributions (core/contributions.h): each pair's part of the score against distance
// adds up (with the non-rotated channels) to the decay curve; for real content it equals an
// independent rotation of each pair by i·θ_p averaged over the rows; shares sum to one; the
// wavelengths before and after scaling are 2π/inv_freq.
#include "support/testsupport.h"

#include "core/contributions.h"
#include "core/decay.h"

#include <cmath>
#include <numbers>

using namespace poslab;

namespace {

// Rows from memory: a ContentSource for the test.
class Rows final : public ContentSource {
public:
    Rows(Matrix q, Matrix k) : q_(std::move(q)), k_(std::move(k)) {}
    std::int64_t length() const override { return q_.rows(); }
    int dim() const override { return static_cast<int>(q_.cols()); }
    std::string name() const override { return "rows"; }
    Matrix rows(bool key, const Positions& pos) const override {
        Matrix m(static_cast<Eigen::Index>(pos.size()), q_.cols());
        for (std::size_t i = 0; i < pos.size(); ++i) m.row(Eigen::Index(i)) = (key ? k_ : q_).row(Eigen::Index(pos[i]));
        return m;
    }

private:
    Matrix q_, k_;
};

ScoreParams rope(int dim) {
    ScoreParams p;
    p.method = Method::Rope;
    p.dim = dim;
    p.precision = Precision::Double;
    return p;
}

std::vector<std::int64_t> range(std::int64_t n) {
    std::vector<std::int64_t> d(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) d[std::size_t(i)] = i;
    return d;
}

}  // namespace

class TestContributions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sumIsTheDecay_data();
    void sumIsTheDecay();
    void realContentIsTheMeanOfRotatedPairs();
    void onesContentIsCosine();
    void wavelengthsAndContext();
    void refusals();
};

void TestContributions::sumIsTheDecay_data() {
    QTest::addColumn<QString>("content");
    QTest::addColumn<QString>("layout");
    QTest::addColumn<double>("partial");
    QTest::addColumn<QString>("scaling");
    for (const char* c : {"ones", "random", "formula"})
        for (const char* l : {"half", "interleaved"})
            for (double f : {1.0, 0.5})
                for (const char* s : {"none", "yarn"})
                    QTest::addRow("%s %s partial %g %s", c, l, f, s) << QString(c) << QString(l) << f << QString(s);
}

// Σ_p c_p(t) + rest(t) = decayCurve(t) for the configuration's own content.
void TestContributions::sumIsTheDecay() {
    QFETCH(QString, content);
    QFETCH(QString, layout);
    QFETCH(double, partial);
    QFETCH(QString, scaling);
    ScoreParams p = rope(32);
    p.content = *contentFromKey(content.toStdString());
    p.seed = 7;
    p.rope.layout = layout == "half" ? RopeLayout::Half : RopeLayout::Interleaved;
    p.rope.partial_rotary_factor = partial;
    if (scaling == "yarn") {
        p.rope.scaling = RopeScaling::Yarn;
        p.rope.factor = 4;
        p.rope.original_max_positions = 64;
        p.rope.max_positions = 256;
    }
    const auto d = range(300);
    auto c = pairContributions(p, d);
    QVERIFY2(c, c ? "" : c.error().message().c_str());
    auto ref = decayCurve(p, 299);
    QVERIFY(ref);
    QCOMPARE(c.value().value.rows(), static_cast<Eigen::Index>(p.ropeParams().rotaryDim() / 2));
    for (Eigen::Index t = 0; t < 300; ++t)
        QVERIFY2(std::abs(c.value().total[t] - ref.value().value[t]) < 1e-12,
                 qPrintable(QString("t=%1: %2 vs %3").arg(t).arg(c.value().total[t]).arg(ref.value().value[t])));
    if (partial == 1.0) QCOMPARE(c.value().rest.cwiseAbs().maxCoeff(), 0.0);
    else QVERIFY(c.value().rest.cwiseAbs().maxCoeff() > 0);
    QVERIFY(std::abs(c.value().share.sum() - 1.0) < 1e-12);
}

// Real rows: c_p(t) = mean_i s·⟨rot(i·θ_p) q_i,p, rot((i−t)·θ_p) k_{i−t},p⟩, computed here with
// std::cos/std::sin on each pair (half layout: channels p and p + d/2); also the decay's mean.
void TestContributions::realContentIsTheMeanOfRotatedPairs() {
    const int n = 40, dim = 8, half = dim / 2;
    Matrix q(n, dim), k(n, dim);
    for (int i = 0; i < n; ++i)
        for (int c = 0; c < dim; ++c) {
            q(i, c) = std::sin(0.3 + 0.77 * (i * dim + c));
            k(i, c) = std::cos(1.1 + 0.51 * (i * dim + c));
        }
    ScoreParams p = rope(dim);
    p.source = std::make_shared<Rows>(q, k);
    const auto d = range(n);
    auto c = pairContributions(p, d);
    QVERIFY2(c, c ? "" : c.error().message().c_str());
    const double s = 1.0 / std::sqrt(double(dim));
    for (int t = 0; t < n; ++t) {
        QCOMPARE(c.value().count[std::size_t(t)], std::int64_t(n - t));
        for (int pr = 0; pr < half; ++pr) {
            const double theta = std::pow(10000.0, -2.0 * pr / dim);
            double sum = 0;
            for (int i = t; i < n; ++i) {
                const double a = i * theta, b = (i - t) * theta;
                const double qx = q(i, pr) * std::cos(a) - q(i, pr + half) * std::sin(a);
                const double qy = q(i, pr) * std::sin(a) + q(i, pr + half) * std::cos(a);
                const double kx = k(i - t, pr) * std::cos(b) - k(i - t, pr + half) * std::sin(b);
                const double ky = k(i - t, pr) * std::sin(b) + k(i - t, pr + half) * std::cos(b);
                sum += qx * kx + qy * ky;
            }
            const double want = s * sum / (n - t);
            QVERIFY2(std::abs(c.value().value(pr, t) - want) < 1e-12,
                     qPrintable(QString("pair %1, t %2: %3 vs %4").arg(pr).arg(t).arg(c.value().value(pr, t)).arg(want)));
        }
    }
    auto ref = decayCurve(p, n - 1);
    QVERIFY(ref);
    for (int t = 0; t < n; ++t) QVERIFY(std::abs(c.value().total[t] - ref.value().value[t]) < 1e-12);
    // Distances reach N − 1 only.
    QVERIFY(!pairContributions(p, {std::int64_t(n)}));
}

// Ones content: pair p contributes s·2cos(t·θ_p) (RoFormer's Σ 2cos(dθ_i), pair by pair).
void TestContributions::onesContentIsCosine() {
    const ScoreParams p = rope(16);
    auto c = pairContributions(p, {0, 5, 1000});
    QVERIFY(c);
    const double s = 1.0 / 4.0;
    const std::int64_t ts[] = {0, 5, 1000};
    for (int pr = 0; pr < 8; ++pr)
        for (int j = 0; j < 3; ++j) {
            const double theta = std::pow(10000.0, -2.0 * pr / 16);
            QVERIFY(std::abs(c.value().value(pr, j) - s * 2 * std::cos(double(ts[j]) * theta)) < 1e-9);
        }
}

void TestContributions::wavelengthsAndContext() {
    ScoreParams p = rope(128);
    p.rope.base = 500000;
    p.rope.scaling = RopeScaling::Llama3;
    p.rope.factor = 8;
    p.rope.low_freq_factor = 1;
    p.rope.high_freq_factor = 4;
    p.rope.original_max_positions = 8192;
    p.rope.max_positions = 131072;
    auto c = pairContributions(p, {0, 1});
    QVERIFY(c);
    QCOMPARE(c.value().trainingContext, std::int64_t(8192));
    QCOMPARE(c.value().context, std::int64_t(131072));
    const auto before = ropeDefaultFrequencies(p.ropeParams()), after = ropeFrequencies(p.ropeParams(), 2);
    for (int i = 0; i < 64; ++i) {
        QCOMPARE(c.value().wavelengthBefore[i], 2 * std::numbers::pi / before.inv_freq[i]);
        QCOMPARE(c.value().wavelengthAfter[i], 2 * std::numbers::pi / after.inv_freq[i]);
    }
    // Llama 3 stretches the low frequencies by 8: the last pair's wavelength grows eightfold.
    QVERIFY(std::abs(c.value().wavelengthAfter[63] / c.value().wavelengthBefore[63] - 8) < 1e-9);
}

void TestContributions::refusals() {
    ScoreParams p = rope(8);
    p.method = Method::Alibi;
    auto a = pairContributions(p, {0});
    QVERIFY(!a);
    QCOMPARE(a.error().parameter, std::string("method"));
    auto e = pairContributions(rope(8), {});
    QVERIFY(!e);
    auto neg = pairContributions(rope(8), {-1});
    QVERIFY(!neg);
    QCOMPARE(neg.error().parameter, std::string("max_distance"));
}

QTEST_GUILESS_MAIN(TestContributions)
#include "test_contributions.moc"
