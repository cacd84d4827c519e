// decayCurve(): every method's value against its definition rebuilt from independent pieces,
// RoPE's closed form with ones content, RoFormer's bound (its value at 0 and the Abel-summation
// inequality it states, for ones and random content), xPos's explicit damping, sampling, errors.
#include "support/testsupport.h"

#include "core/decay.h"

#include <complex>
#include <numbers>

using namespace poslab;

Q_DECLARE_METATYPE(poslab::ScoreParams)

namespace {

ScoreParams ropeParams(int dim, double base, RopeLayout layout, Content c, Precision pr = Precision::Double) {
    ScoreParams p;
    p.method = Method::Rope;
    p.dim = dim;
    p.content = c;
    p.seed = 5;
    p.precision = pr;
    p.rope.base = base;
    p.rope.layout = layout;
    return p;
}

// Complex pair i of a row for the layout: half pairs (i, i + d/2), interleaved (2i, 2i+1).
std::complex<double> pairOf(const Matrix& row, int i, RopeLayout layout, int dim) {
    return layout == RopeLayout::Half ? std::complex<double>(row(0, i), row(0, i + dim / 2))
                                      : std::complex<double>(row(0, 2 * i), row(0, 2 * i + 1));
}

}  // namespace

class TestDecay : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void ropeOnesClosedForm_data();
    void ropeOnesClosedForm();
    void roformerBoundHolds_data();
    void roformerBoundHolds();
    void boundAtZero();
    void otherMethodsByDefinition();
    void xposDampsRope();
    void sampledEqualsRange();
    void errors();
};

void TestDecay::ropeOnesClosedForm_data() {
    QTest::addColumn<int>("dim");
    QTest::addColumn<double>("base");
    QTest::addColumn<int>("layout");
    QTest::newRow("d64_theta1e4_half") << 64 << 1e4 << int(RopeLayout::Half);
    QTest::newRow("d128_theta5e5_interleaved") << 128 << 5e5 << int(RopeLayout::Interleaved);
    QTest::newRow("d8_theta100_half") << 8 << 100.0 << int(RopeLayout::Half);
}

void TestDecay::ropeOnesClosedForm() {
    QFETCH(int, dim);
    QFETCH(double, base);
    QFETCH(int, layout);
    const auto p = ropeParams(dim, base, RopeLayout(layout), Content::Ones);
    auto c = decayCurve(p, 300);
    QVERIFY(c.ok());
    QCOMPARE(c.value().distance.size(), std::size_t(301));
    for (int d = 0; d <= 300; d += 7) {
        double want = 0;
        for (int i = 0; i < dim / 2; ++i) want += 2 * std::cos(d * std::pow(base, -2.0 * i / dim));
        want /= std::sqrt(double(dim));
        QVERIFY2(std::abs(c.value().value[d] - want) <= 1e-10, qPrintable(QString("d=%1").arg(d)));
    }
}

void TestDecay::roformerBoundHolds_data() {
    QTest::addColumn<ScoreParams>("params");
    QTest::addColumn<QString>("label");
    QTest::newRow("ones_d64_theta1e4_half") << ropeParams(64, 1e4, RopeLayout::Half, Content::Ones) << "";
    QTest::newRow("random_d64_theta1e4_half") << ropeParams(64, 1e4, RopeLayout::Half, Content::Random) << "";
    QTest::newRow("random_d32_theta500_interleaved") << ropeParams(32, 500, RopeLayout::Interleaved, Content::Random) << "";
    QTest::newRow("formula_d128_theta1e4_interleaved") << ropeParams(128, 1e4, RopeLayout::Interleaved, Content::Formula) << "";
}

void TestDecay::roformerBoundHolds() {
    // RoFormer §3.4.3: |Σ_i h_i e^{i d θ_i}| <= max_i |h_{i+1} − h_i| · Σ_j |S_j| (h_{r/2} = 0),
    // and the curve's bound is (1/(r/2))·Σ_j |S_j|. The value is s·Re Σ_i h_i e^{i d θ_i} with
    // h_i = q̃_i·conj(k̃_i) … the real part of which is what the score sums, so
    // |value| / s <= max|Δh| · (r/2) · bound.
    QFETCH(ScoreParams, params);
    auto c = decayCurve(params, 2000);
    QVERIFY(c.ok());
    QVERIFY(c.value().bound.has_value());
    const int dim = params.dim, half = dim / 2;
    const Matrix q = contentRows(params.content, false, {0}, dim, params.seed);
    const Matrix k = contentRows(params.content, true, {0}, dim, params.seed);
    std::vector<std::complex<double>> h(half + 1, 0.0);
    for (int i = 0; i < half; ++i) h[i] = pairOf(q, i, params.rope.layout, dim) * std::conj(pairOf(k, i, params.rope.layout, dim));
    double maxStep = 0;
    for (int i = 0; i < half; ++i) maxStep = std::max(maxStep, std::abs(h[i + 1] - h[i]));
    const double s = 1 / std::sqrt(double(dim));
    for (int d = 0; d <= 2000; ++d) {
        const double lhs = std::abs(c.value().value[d]) / s;
        const double rhs = maxStep * half * (*c.value().bound)[d];
        QVERIFY2(lhs <= rhs * (1 + 1e-12) + 1e-12, qPrintable(QString("d=%1: %2 > %3").arg(d).arg(lhs).arg(rhs)));
    }
    // The bound decays: its mean over the last 500 distances is below half its value at 0.
    QVERIFY(c.value().bound->tail(500).mean() < 0.5 * (*c.value().bound)[0]);
}

void TestDecay::boundAtZero() {
    for (int dim : {2, 8, 64, 128}) {
        auto c = decayCurve(ropeParams(dim, 1e4, RopeLayout::Half, Content::Ones), 0);
        QVERIFY(c.ok());
        // S_j = j at d = 0: (1/(r/2))·Σ_{j=1..r/2} j = (r/2 + 1)/2.
        QCOMPARE((*c.value().bound)[0], (dim / 2 + 1) / 2.0);
    }
}

void TestDecay::otherMethodsByDefinition() {
    ScoreParams p;
    p.dim = 8;
    p.precision = Precision::Double;
    p.content = Content::Formula;
    const double s = 1 / std::sqrt(8.0);
    const Matrix q = contentRows(Content::Formula, false, {0}, 8, 0), k = contentRows(Content::Formula, true, {0}, 8, 0);
    const Positions ds{0, 1, 5, 40, 300};
    {
        p.method = Method::NoPE;
        auto c = decayCurveAt(p, {0, 10, 1000});
        QVERIFY(c.ok());
        for (int i = 0; i < 3; ++i) QVERIFY(std::abs(c.value().value[i] - s * q.row(0).dot(k.row(0))) <= 1e-15);
        QVERIFY(!c.value().bound);
    }
    {
        p.method = Method::Alibi;
        p.alibi.heads = 8;
        p.head = 2;   // slope 2^-3
        auto c = decayCurveAt(p, ds);
        QVERIFY(c.ok());
        for (std::size_t i = 0; i < ds.size(); ++i) QCOMPARE(c.value().value[Eigen::Index(i)], -0.125 * double(ds[i]));
    }
    {
        p.method = Method::Sinusoidal;
        auto c = decayCurveAt(p, ds);
        QVERIFY(c.ok());
        for (std::size_t i = 0; i < ds.size(); ++i) {
            // PE_d·PE_0 = Σ_i cos(d·w_i) (the sin terms of PE_0 are 0), w_i = 10000^(−2i/8).
            double want = 0;
            for (int j = 0; j < 4; ++j) want += std::cos(double(ds[i]) * std::pow(1e4, -2.0 * j / 8));
            QVERIFY(std::abs(c.value().value[Eigen::Index(i)] - s * want) <= 1e-12);
        }
    }
    {
        p.method = Method::T5;
        p.t5.heads = 4;
        p.head = 3;
        auto c = decayCurveAt(p, ds);
        QVERIFY(c.ok());
        const Matrix table = t5BiasTable(p.t5Params());
        for (std::size_t i = 0; i < ds.size(); ++i)
            QCOMPARE(c.value().value[Eigen::Index(i)], table(t5Bucket(-ds[i], p.t5Params()), 3));
    }
    {
        p.method = Method::Shaw;
        p.shaw.max_relative_position = 4;
        auto c = decayCurveAt(p, ds);
        QVERIFY(c.ok());
        const Matrix a = shawKeyTable(p.shawParams());
        for (std::size_t i = 0; i < ds.size(); ++i) {
            const std::int64_t row = std::clamp<std::int64_t>(-ds[i], -4, 4) + 4;
            QVERIFY(std::abs(c.value().value[Eigen::Index(i)] - s * q.row(0).dot(a.row(row))) <= 1e-14);
        }
    }
    {
        p.method = Method::TransformerXL;
        p.transformer_xl.clamp_len = 100;
        auto c = decayCurveAt(p, ds);
        QVERIFY(c.ok());
        const auto w = transformerXLWeights(p.transformerXLParams());
        for (std::size_t i = 0; i < ds.size(); ++i) {
            const Matrix r = transformerXLPosEmb(8, {std::min<std::int64_t>(ds[i], 100)});
            const double want = s * (q.row(0).transpose() + w.v).dot(w.w_r * r.row(0).transpose());
            QVERIFY(std::abs(c.value().value[Eigen::Index(i)] - want) <= 1e-12);
        }
        // Clamped: distances 300 and 101 give the same value.
        auto cc = decayCurveAt(p, {101, 300});
        QCOMPARE(cc.value().value[0], cc.value().value[1]);
    }
    {
        p.method = Method::Learned;
        p.learned.table_size = 400;
        auto c = decayCurveAt(p, ds);
        QVERIFY(c.ok());
        const Matrix e0 = learnedEncoding(p.learnedParams(), {0}).value();
        for (std::size_t i = 0; i < ds.size(); ++i) {
            const Matrix ed = learnedEncoding(p.learnedParams(), {ds[i]}).value();
            QVERIFY(std::abs(c.value().value[Eigen::Index(i)] - s * ed.row(0).dot(e0.row(0))) <= 1e-15);
        }
    }
}

void TestDecay::xposDampsRope() {
    // Ones content, double: value(d) = s·Σ_i 2cos(d·θ_i)·ζ_i^(d/scale_base), θ_i = 10000^(−2i/D),
    // ζ_i = (2i + 0.4D)/(1.4D) (torchscale).
    ScoreParams p;
    p.method = Method::Xpos;
    p.dim = 16;
    p.content = Content::Ones;
    p.precision = Precision::Double;
    p.xpos.scale_base = 64;
    auto c = decayCurve(p, 200);
    QVERIFY(c.ok());
    QVERIFY(!c.value().bound);
    for (int d = 0; d <= 200; d += 9) {
        double want = 0;
        for (int i = 0; i < 8; ++i)
            want += 2 * std::cos(d * std::pow(1e4, -2.0 * i / 16)) * std::pow((2.0 * i + 0.4 * 16) / (1.4 * 16), d / 64.0);
        want /= 4.0;
        QVERIFY2(std::abs(c.value().value[d] - want) <= 1e-10 * std::max(1.0, std::abs(want)),
                 qPrintable(QString("d=%1: %2 vs %3").arg(d).arg(c.value().value[d]).arg(want)));
    }
}

void TestDecay::sampledEqualsRange() {
    auto p = ropeParams(64, 1e4, RopeLayout::Half, Content::Random, Precision::Float32);
    p.rope.scaling = RopeScaling::Yarn;
    p.rope.factor = 4;
    p.rope.original_max_positions = 2048;
    p.rope.max_positions = 8192;
    auto all = decayCurve(p, 4000);
    auto some = decayCurveAt(p, {4000, 0, 17, 2500});
    QVERIFY(all.ok() && some.ok());
    const std::int64_t idx[] = {4000, 0, 17, 2500};
    for (int i = 0; i < 4; ++i) {
        QCOMPARE(some.value().value[i], all.value().value[idx[i]]);
        QCOMPARE((*some.value().bound)[i], (*all.value().bound)[idx[i]]);
    }
}

void TestDecay::errors() {
    ScoreParams p;
    p.method = Method::Learned;
    p.dim = 8;
    p.learned.table_size = 16;
    auto c = decayCurve(p, 16);
    QVERIFY(!c.ok());
    QCOMPARE(QString::fromStdString(c.error().parameter), QString("max_distance"));
    QVERIFY(decayCurve(p, 15).ok());
    p.method = Method::Rope;
    QCOMPARE(QString::fromStdString(decayCurve(p, -1).error().parameter), QString("max_distance"));
    p.dim = 7;
    QCOMPARE(QString::fromStdString(decayCurve(p, 4).error().parameter), QString("dim"));
    p.dim = 8;
    QCOMPARE(QString::fromStdString(decayCurveAt(p, {}).error().parameter), QString("distances"));
}

QTEST_GUILESS_MAIN(TestDecay)
#include "test_decay.moc"
