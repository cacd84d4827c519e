// decayCurve(): every method's value against its definition rebuilt from independent pieces,
// RoPE's closed form with ones content, RoFormer's bound (its value at 0 and the Abel-summation
// inequality it states, for ones and random content), xPos's explicit damping, sampling, errors.
#include "support/parallelfor.h"
#include "support/testsupport.h"

#include "core/decay.h"

#include <QElapsedTimer>

#include <algorithm>
#include <optional>
#include <complex>
#include <tuple>
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
    // The split computations run on two threads here (core/parallel.h), as the window and the
    // command line run them: every result must still be the serial one bit for bit.
    std::optional<poslab::ParallelScope> parallel_;
private Q_SLOTS:
    void initTestCase() { parallel_.emplace(testsupport::threadsParallelFor(2)); }
    void cleanupTestCase() { parallel_.reset(); }
    void ropeOnesClosedForm_data();
    void ropeOnesClosedForm();
    void roformerBoundHolds_data();
    void roformerBoundHolds();
    void boundAtZero();
    void otherMethodsByDefinition();
    void xposDampsRope();
    void sampledEqualsRange();
    void transformerXLTwoThreadsBitForBit_data();
    void transformerXLTwoThreadsBitForBit();
    void sweepMatchesDirect_data();
    void sweepMatchesDirect();
    void float32RopeAsOneTensor_data();
    void float32RopeAsOneTensor();
    void xposFloat32MatchesDirect_data();
    void xposFloat32MatchesDirect();
    void workLimitRefusesAtOnce();
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

// The O(D·d) sweep (block products of exact rotations; float32 values rounded with a guard)
// against each method's direct evaluation from its own pieces, at sampled distances over the
// whole range (block edges included): within 1e-9 of the curve's natural scale
// s·Σ_j |q_j|·|k_j| in double, within 1e-12 in float32 — so one float32 cos or sin rounded
// differently from the frameworks' (a change of ~6e-8 in one term) fails.
void TestDecay::sweepMatchesDirect_data() {
    QTest::addColumn<ScoreParams>("params");
    QTest::addColumn<qint64>("maxDistance");
    auto rope = [](int dim, double base, RopeLayout l, Content c, Precision pr) { return ropeParams(dim, base, l, c, pr); };
    QTest::newRow("rope_double_D4096_d128_theta1e4_half") << rope(128, 1e4, RopeLayout::Half, Content::Formula, Precision::Double) << qint64(4096);
    QTest::newRow("rope_double_D20000_d64_theta5e5_interleaved") << rope(64, 5e5, RopeLayout::Interleaved, Content::Random, Precision::Double) << qint64(20000);
    QTest::newRow("rope_double_D131072_d128_theta5e5_half") << rope(128, 5e5, RopeLayout::Half, Content::Ones, Precision::Double) << qint64(131072);
    QTest::newRow("rope_double_D3000_d8_theta100_half") << rope(8, 100, RopeLayout::Half, Content::Random, Precision::Double) << qint64(3000);
    QTest::newRow("rope_double_D1000000_d16_theta1e6_half") << rope(16, 1e6, RopeLayout::Half, Content::Formula, Precision::Double) << qint64(1000000);
    QTest::newRow("rope_float32_D4096_d128_theta1e4_half") << rope(128, 1e4, RopeLayout::Half, Content::Formula, Precision::Float32) << qint64(4096);
    QTest::newRow("rope_float32_D131072_d64_theta5e5_interleaved") << rope(64, 5e5, RopeLayout::Interleaved, Content::Random, Precision::Float32) << qint64(131072);
    QTest::newRow("rope_float32_D1048575_d16_theta1e4_half") << rope(16, 1e4, RopeLayout::Half, Content::Ones, Precision::Float32) << qint64(1048575);
    {
        auto p = rope(64, 1e4, RopeLayout::Half, Content::Random, Precision::Float32);
        p.rope.scaling = RopeScaling::Yarn;
        p.rope.factor = 4;
        p.rope.original_max_positions = 2048;
        p.rope.max_positions = 8192;
        QTest::newRow("rope_float32_yarn4_D9000_d64") << p << qint64(9000);
        p.precision = Precision::Double;
        QTest::newRow("rope_double_yarn4_D9000_d64") << p << qint64(9000);
    }
    for (auto [name, layout, pr] : {std::tuple{"interleaved_double", SinusoidalLayout::Interleaved, Precision::Double},
                                    std::tuple{"interleaved_float32", SinusoidalLayout::Interleaved, Precision::Float32},
                                    std::tuple{"concat_float32", SinusoidalLayout::Concat, Precision::Float32},
                                    std::tuple{"concat_double", SinusoidalLayout::Concat, Precision::Double}}) {
        for (auto [dim, base, D] : {std::tuple{128, 1e4, qint64(131072)}, std::tuple{33, 500.0, qint64(5000)}}) {
            ScoreParams p;
            p.method = Method::Sinusoidal;
            p.dim = dim;
            p.precision = pr;
            p.sinusoidal.layout = layout;
            p.sinusoidal.base = base;
            QTest::addRow("sinusoidal_%s_D%lld_d%d_base%g", name, static_cast<long long>(D), dim, base) << p << D;
        }
    }
    for (auto [dim, clamp, D] : {std::tuple{128, 0, qint64(131072)}, std::tuple{16, 700, qint64(3000)}, std::tuple{64, 0, qint64(1048575)}}) {
        ScoreParams p;
        p.method = Method::TransformerXL;
        p.dim = dim;
        p.content = Content::Formula;
        p.transformer_xl.clamp_len = clamp;
        QTest::addRow("transformer_xl_D%lld_d%d_clamp%d", static_cast<long long>(D), dim, clamp) << p << D;
    }
    for (auto [dim, sb, D] : {std::tuple{16, 64.0, qint64(3000)}, std::tuple{128, 512.0, qint64(24000)}, std::tuple{64, 1e5, qint64(131072)}}) {
        ScoreParams p;
        p.method = Method::Xpos;
        p.dim = dim;
        p.content = Content::Random;
        p.precision = Precision::Double;
        p.xpos.scale_base = sb;
        QTest::addRow("xpos_double_D%lld_d%d_sb%g", static_cast<long long>(D), dim, sb) << p << D;
    }
}

void TestDecay::sweepMatchesDirect() {
    QFETCH(ScoreParams, params);
    QFETCH(qint64, maxDistance);
    auto c = decayCurve(params, maxDistance);
    QVERIFY2(c.ok(), c.ok() ? "" : c.error().valid.c_str());
    const DecayCurve& curve = c.value();
    QCOMPARE(curve.value.size(), Eigen::Index(maxDistance + 1));
    const int dim = params.dim;
    const double s = 1 / std::sqrt(double(dim));
    const Matrix q = contentRows(params.content, false, {0}, dim, params.seed);
    const Matrix k = contentRows(params.content, true, {0}, dim, params.seed);
    // Sampled distances: block edges, both ends and a deterministic spread.
    std::vector<std::int64_t> ds{0, 1, 2, 511, 512, 513, 1023, 1024, maxDistance - 1, maxDistance};
    std::uint64_t x = 12345;
    for (int i = 0; i < 60; ++i) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        ds.push_back(std::int64_t((x >> 11) % std::uint64_t(maxDistance + 1)));
    }
    const bool f32 = params.precision == Precision::Float32 || params.method == Method::TransformerXL;
    for (auto d : ds) {
        if (d < 0 || d > maxDistance) continue;
        double want = 0, scale = 0, wantBound = -1;
        switch (params.method) {
        case Method::Rope: {
            const RopeParams rp = params.ropeParams();
            const RopeFrequencies f = ropeFrequencies(rp, maxDistance + 1);
            const Matrix rk = ropeApply(rp, ropeTables(rp, f, {0}), k);
            const Matrix rq = ropeApply(rp, ropeTables(rp, f, {d}), q);
            want = s * rq.row(0).dot(rk.row(0));
            scale = s * rq.row(0).cwiseAbs().dot(rk.row(0).cwiseAbs());
            std::complex<double> sum = 0;
            double total = 0;
            for (Eigen::Index j = 0; j < f.inv_freq.size(); ++j) {
                sum += std::polar(1.0, double(d) * f.inv_freq[j]);
                total += std::abs(sum);
            }
            wantBound = total / double(f.inv_freq.size());
            break;
        }
        case Method::Sinusoidal: {
            const Matrix pe = sinusoidalEncoding(params.sinusoidalParams(), {d});
            const Matrix pe0 = sinusoidalEncoding(params.sinusoidalParams(), {0});
            want = s * pe.row(0).dot(pe0.row(0));
            scale = s * pe.row(0).cwiseAbs().dot(pe0.row(0).cwiseAbs());
            break;
        }
        case Method::TransformerXL: {
            const auto w = transformerXLWeights(params.transformerXLParams());
            const std::int64_t clamp = params.transformer_xl.clamp_len;
            const Matrix r = transformerXLPosEmb(dim, {clamp > 0 ? std::min<std::int64_t>(d, clamp) : d});
            const Vector proj = w.w_r * r.row(0).transpose();
            want = s * (q.row(0).transpose() + w.v).dot(proj);
            scale = s * (q.row(0).transpose() + w.v).cwiseAbs().dot(proj.cwiseAbs());
            break;
        }
        case Method::Xpos: {
            const XposParams xp = params.xposParams();
            const Vector inv = xposInvFreq(xp);
            // Centred position c = p − 1 for length 1: p = d + 1 gives the query's scale ζ^(d/sb).
            const Matrix sc = xposScaleAt(xp, {d + 1}, 1, false);
            for (Eigen::Index i = 0; i < inv.size(); ++i) {
                const double a = double(d) * inv[i], cs = std::cos(a) * sc(0, i), sn = std::sin(a) * sc(0, i);
                const double r0 = q(0, 2 * i) * cs - q(0, 2 * i + 1) * sn, r1 = q(0, 2 * i + 1) * cs + q(0, 2 * i) * sn;
                want += s * (r0 * k(0, 2 * i) + r1 * k(0, 2 * i + 1));
                scale += s * (std::abs(r0 * k(0, 2 * i)) + std::abs(r1 * k(0, 2 * i + 1)));
            }
            break;
        }
        default: QFAIL("no direct evaluation for this method");
        }
        const double got = curve.value[Eigen::Index(d)];
        const double tol = (f32 ? 1e-12 : 1e-9) * std::max(scale, 1e-300);
        QVERIFY2(std::abs(got - want) <= tol,
                 qPrintable(QString("d=%1: sweep %2, direct %3 (tolerance %4)").arg(d).arg(got, 0, 'g', 17).arg(want, 0, 'g', 17).arg(tol)));
        if (wantBound >= 0) {
            const double gotBound = (*curve.bound)[Eigen::Index(d)];
            QVERIFY2(std::abs(gotBound - wantBound) <= 1e-9 * wantBound,
                     qPrintable(QString("bound d=%1: %2 vs %3").arg(d).arg(gotBound, 0, 'g', 17).arg(wantBound, 0, 'g', 17)));
        }
    }
}

// Float32 RoPE takes cos/sin from torch's own functions over the whole [D+1, r] table as one
// tensor (SLEEF's 8-lane groups run across rows when r is not a multiple of 8, and a lane's bits
// depend on its group): every value equals the direct evaluation with ropeTables over all the
// distances at once, within 1e-12 of the curve's scale (one float32 cos or sin off by an ulp
// moves a value by ~1e-8 of it).
void TestDecay::float32RopeAsOneTensor_data() {
    QTest::addColumn<ScoreParams>("params");
    QTest::addColumn<qint64>("maxDistance");
    QTest::newRow("d12_half_theta1e4_D4000") << ropeParams(12, 1e4, RopeLayout::Half, Content::Random, Precision::Float32) << qint64(4000);
    QTest::newRow("d20_interleaved_theta1e4_D3000") << ropeParams(20, 1e4, RopeLayout::Interleaved, Content::Random, Precision::Float32) << qint64(3000);
    QTest::newRow("d128_interleaved_theta1e4_D2000") << ropeParams(128, 1e4, RopeLayout::Interleaved, Content::Formula, Precision::Float32) << qint64(2000);
    auto y = ropeParams(64, 1e4, RopeLayout::Half, Content::Random, Precision::Float32);
    y.rope.scaling = RopeScaling::Yarn;
    y.rope.factor = 4;
    y.rope.original_max_positions = 1024;
    y.rope.max_positions = 4096;
    QTest::newRow("d64_half_yarn4_D3000") << y << qint64(3000);
}

void TestDecay::float32RopeAsOneTensor() {
    QFETCH(ScoreParams, params);
    QFETCH(qint64, maxDistance);
    auto c = decayCurve(params, maxDistance);
    QVERIFY2(c.ok(), c.ok() ? "" : c.error().valid.c_str());
    const int dim = params.dim;
    const double s = 1 / std::sqrt(double(dim));
    const Matrix q = contentRows(params.content, false, {0}, dim, params.seed);
    const Matrix k = contentRows(params.content, true, {0}, dim, params.seed);
    const RopeParams rp = params.ropeParams();
    const RopeFrequencies f = ropeFrequencies(rp, maxDistance + 1);
    Positions all;
    for (qint64 d = 0; d <= maxDistance; ++d) all.push_back(d);
    const Matrix rk = ropeApply(rp, ropeTables(rp, f, {0}), k);
    const Matrix rq = ropeApply(rp, ropeTables(rp, f, all), q.replicate(Eigen::Index(all.size()), 1));
    for (qint64 d = 0; d <= maxDistance; ++d) {
        const double want = s * rq.row(Eigen::Index(d)).dot(rk.row(0));
        const double scale = s * rq.row(Eigen::Index(d)).cwiseAbs().dot(rk.row(0).cwiseAbs());
        const double got = c.value().value[Eigen::Index(d)];
        QVERIFY2(std::abs(got - want) <= 1e-12 * scale,
                 qPrintable(QString("d=%1: sweep %2, direct %3").arg(d).arg(got, 0, 'g', 17).arg(want, 0, 'g', 17)));
    }
}

// Float32 xPos (the sweep with a float32 scale) against the direct evaluation rebuilt from its
// definition (the query at distance d, centred exponent d):
//   e = f32(f32(d)/f32(scale_base)) clamped to ±60/ln(7/2), sc_i = f32(pow(ζ_i, e)),
//   a_i = f32(f32(d)·inv_i), C = f32(cos a_i), S = f32(sin a_i), c = f32(C·sc_i), s = f32(S·sc_i),
//   r0 = f32(f32(q0·c) + f32(−q1·s)), r1 = f32(f32(q1·c) + f32(q0·s))   (q0, q1 = f32(q)).
// Bit for bit: the fast path's scales and rotated rows (xposDecayFloat32), the definition's scale
// and angle against the library's own (xposScale, xposAngles), and its rows against ropeApply
// (the direct path's xposQueryRows), at distances where an unguarded exp rounds the scale the
// wrong way (below). The curve: every distance of 0 .. D (decayCurve) and of
// runs far out and across the clamp (decayCurveAt, consecutive runs longer than two sweep blocks:
// two threads), within 1e-12 of s·Σ|r·k| of both s·Σ_i (r0·k0 + r1·k1) and the direct path's
// s·(rows·k) (one float32 scale or cos off by an ulp moves a value by ~1e-8 of its term); a
// distance computed alone (one thread, a one-distance run) equals the long run's bit for bit.
void TestDecay::xposFloat32MatchesDirect_data() {
    QTest::addColumn<ScoreParams>("params");
    QTest::addColumn<qint64>("maxDistance");
    QTest::addColumn<QList<qint64>>("runStarts");   // runs of 1100 consecutive distances
    const double lim = kXposMaxLogScale / std::log(3.5);
    for (int dim : {2, 8, 64, 128}) {
        for (double sb : {512.0, 131072.0 / 40, 1e6}) {
            ScoreParams p;
            p.method = Method::Xpos;
            p.dim = dim;
            p.content = dim == 64 ? Content::Formula : Content::Random;
            p.precision = Precision::Float32;
            p.xpos.scale_base = sb;
            // Runs: one far out, one across the clamp (where it is below 2^24), the last below
            // 2^24. 0 .. 2600 holds d = 2560, e = 5 at scale_base 512: for dim 128, pair 15 has
            // ζ = 29/64 and ζ^5 = 29^5/2^30 is a float32 tie (25 significant bits), which an exp
            // a few ulps off rounds the wrong way (the guard sends it to std::pow). At scale_base
            // 3276.8 the runs at 16384 (e = 5 again) and 139776 (d = 140256, pair 21: ζ^e within
            // 4e-15 of a float32 rounding boundary) do the same.
            const auto clampAt = static_cast<qint64>(lim * sb);
            QList<qint64> runs{clampAt < 16777216 ? clampAt / 3 : 5000000};
            if (clampAt < 16777216 - 2000) runs.push_back(clampAt - 600);
            if (sb == 131072.0 / 40) runs << 16384 << 139776;
            runs.push_back(16777216 - 1100);
            std::sort(runs.begin(), runs.end());
            QTest::addRow("d%d_sb%g_D2600", dim, sb) << p << qint64(2600) << runs;
        }
    }
}

void TestDecay::xposFloat32MatchesDirect() {
    QFETCH(ScoreParams, params);
    QFETCH(qint64, maxDistance);
    QFETCH(QList<qint64>, runStarts);
    constexpr qint64 kRun = 1100;
    const int dim = params.dim, h = dim / 2;
    const double s = 1 / std::sqrt(double(dim));
    const XposParams xp = params.xposParams();
    const Vector inv = xposInvFreq(xp), zeta = xposZeta(xp);
    const Matrix q = contentRows(params.content, false, {0}, dim, params.seed);
    const Matrix k = contentRows(params.content, true, {0}, dim, params.seed);
    const double lim = kXposMaxLogScale / std::log(3.5);
    auto f32 = [](double x) { return static_cast<double>(static_cast<float>(x)); };

    // The distances: 0 .. D, then the runs.
    std::vector<std::int64_t> ds;
    for (qint64 d = 0; d <= maxDistance; ++d) ds.push_back(d);
    for (qint64 a : runStarts)
        for (qint64 d = a; d < a + kRun; ++d) ds.push_back(d);
    std::sort(ds.begin(), ds.end());
    ds.erase(std::unique(ds.begin(), ds.end()), ds.end());
    bool clampedSeen = false;

    auto fast = xposDecayFloat32(params, ds);
    QVERIFY2(fast.ok(), fast.ok() ? "" : fast.error().valid.c_str());
    auto dense = decayCurve(params, maxDistance);
    QVERIFY(dense.ok());
    std::vector<std::int64_t> far(ds.begin() + maxDistance + 1, ds.end());
    auto sparse = decayCurveAt(params, far);
    QVERIFY(sparse.ok());

    for (std::size_t n = 0; n < ds.size(); ++n) {
        const std::int64_t d = ds[n];
        const auto row = Eigen::Index(n);
        const double e = std::clamp(f32(f32(double(d)) / f32(params.xpos.scale_base)), -lim, lim);
        // The library's direct pieces for a sample (its scale, angles and rotation), bit for bit:
        // every 97th distance, the last, and the first clamped.
        const bool sample = n % 97 == 0 || n + 1 == ds.size() || (e == lim && !clampedSeen);
        clampedSeen |= e == lim;
        Matrix libScale, libAngle, libRows;
        if (sample) {
            libScale = xposScale(xp, 1, 2 * d + 1, false);
            libAngle = xposAngles(xp, 1, d);
            RopeTables t;
            t.cos.resize(1, dim);
            t.sin.resize(1, dim);
            for (int i = 0; i < h; ++i) {
                t.cos(0, 2 * i) = t.cos(0, 2 * i + 1) = f32(f32(std::cos(libAngle(0, i))) * libScale(0, i));
                t.sin(0, 2 * i) = t.sin(0, 2 * i + 1) = f32(f32(std::sin(libAngle(0, i))) * libScale(0, i));
            }
            RopeParams rp;
            rp.head_dim = dim;
            rp.layout = RopeLayout::Interleaved;
            rp.precision = Precision::Float32;
            libRows = ropeApply(rp, t, q);
        }
        double want = 0, scale = 0;
        for (int i = 0; i < h; ++i) {
            const double sc = f32(std::pow(zeta[i], e));
            const double a = f32(f32(double(d)) * inv[i]);
            const double C = f32(std::cos(a)), S = f32(std::sin(a));
            const double c = f32(C * sc), sn = f32(S * sc);
            const double q0 = f32(q(0, 2 * i)), q1 = f32(q(0, 2 * i + 1));
            const double r0 = f32(f32(q0 * c) + f32(-q1 * sn)), r1 = f32(f32(q1 * c) + f32(q0 * sn));
            const auto at = [&](const char* what, double got, double ref) {
                return qPrintable(QString("d=%1 pair %2 %3: fast %4, direct %5").arg(d).arg(i).arg(what).arg(got, 0, 'g', 17).arg(ref, 0, 'g', 17));
            };
            QVERIFY2(fast.value().scale(row, i) == sc, at("scale", fast.value().scale(row, i), sc));
            QVERIFY2(fast.value().rows(row, 2 * i) == r0, at("r0", fast.value().rows(row, 2 * i), r0));
            QVERIFY2(fast.value().rows(row, 2 * i + 1) == r1, at("r1", fast.value().rows(row, 2 * i + 1), r1));
            if (sample) {
                QVERIFY2(libScale(0, i) == sc, at("xposScale", sc, libScale(0, i)));
                QVERIFY2(libAngle(0, i) == a, at("xposAngles", a, libAngle(0, i)));
                QVERIFY2(libRows(0, 2 * i) == r0 && libRows(0, 2 * i + 1) == r1, at("ropeApply r0", r0, libRows(0, 2 * i)));
            }
            want += r0 * k(0, 2 * i) + r1 * k(0, 2 * i + 1);
            scale += std::abs(r0 * k(0, 2 * i)) + std::abs(r1 * k(0, 2 * i + 1));
        }
        want *= s;
        scale *= s;
        const double direct = sample ? s * libRows.row(0).dot(k.row(0)) : want;
        const double got = d <= maxDistance ? dense.value().value[Eigen::Index(d)]
                                            : sparse.value().value[Eigen::Index(n - std::size_t(maxDistance) - 1)];
        const double tol = 1e-12 * std::max(scale, 1e-300);
        QVERIFY2(std::abs(got - want) <= tol && std::abs(got - direct) <= tol,
                 qPrintable(QString("d=%1: curve %2, definition %3, direct %4 (tolerance %5)").arg(d).arg(got, 0, 'g', 17).arg(want, 0, 'g', 17).arg(direct, 0, 'g', 17).arg(tol)));
    }
    // Where the clamp is below 2^24, a run crosses it (clamped and unclamped distances in one run).
    if (kXposMaxLogScale / std::log(3.5) * params.xpos.scale_base < 16777216 - 2000) QVERIFY(clampedSeen);
    // One distance alone (one thread, a run of one) against the two-thread runs, bit for bit.
    for (std::int64_t d : {std::int64_t{0}, std::int64_t{511}, std::int64_t{1024}, std::int64_t(maxDistance), far.front(), far.back(), far[far.size() / 2]}) {
        auto one = decayCurveAt(params, {d});
        QVERIFY(one.ok());
        const double all = d <= maxDistance ? dense.value().value[Eigen::Index(d)]
                                            : sparse.value().value[Eigen::Index(std::lower_bound(far.begin(), far.end(), d) - far.begin())];
        QCOMPARE(one.value().value[0], all);
    }
}

void TestDecay::workLimitRefusesAtOnce() {
    // RoPE at 2^24 − 1 distances with dim 1024: 512 pairs × 2^24 is past the work limit, refused
    // before any work (the timer guards against a slow refusal).
    auto p = ropeParams(1024, 1e4, RopeLayout::Half, Content::Ones, Precision::Double);
    QElapsedTimer t;
    t.start();
    auto c = decayCurve(p, (std::int64_t{1} << 24) - 1);
    QVERIFY(!c.ok());
    QVERIFY(t.elapsed() < 1000);
    QCOMPARE(QString::fromStdString(c.error().parameter), QString("max_distance"));
    QVERIFY(QString::fromStdString(c.error().valid).contains("work limit"));
    // xPos in float32 sweeps with a weight (its guarded float32 scale and rotation): 1024 pairs
    // at 2^20 distances are past the limit, refused at once.
    ScoreParams x;
    x.method = Method::Xpos;
    x.dim = 2048;
    x.precision = Precision::Float32;
    x.xpos.scale_base = 1e6;
    t.restart();
    auto cx = decayCurve(x, 1048575);
    QVERIFY(!cx.ok());
    QVERIFY(t.elapsed() < 1000);
    QVERIFY(QString::fromStdString(cx.error().valid).contains("work limit"));
    // Past 2^24 (float32 positions round) it evaluates directly, with the direct path's lower
    // limit: 2^20 distances × 64 pairs, refused at once.
    x.dim = 128;
    std::vector<std::int64_t> past;
    for (std::int64_t d = 0; d < (std::int64_t{1} << 20); ++d) past.push_back((std::int64_t{1} << 24) + d);
    t.restart();
    auto cp = decayCurveAt(x, past);
    QVERIFY(!cp.ok());
    QVERIFY(t.elapsed() < 1000);
    QVERIFY(QString::fromStdString(cp.error().valid).contains("work limit"));
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

// Transformer-XL's sweep runs on two threads for a long run (split on a sweep block): the curve
// equals, bit for bit, each distance computed on its own (a one-distance run, one thread).
void TestDecay::transformerXLTwoThreadsBitForBit_data() {
    QTest::addColumn<int>("maxDistance");
    QTest::addColumn<int>("dim");
    for (int d : {1023, 1024, 5000, 20000})
        for (int dim : {16, 128}) QTest::addRow("D%d_dim%d", d, dim) << d << dim;
}

void TestDecay::transformerXLTwoThreadsBitForBit() {
    QFETCH(int, maxDistance);
    QFETCH(int, dim);
    ScoreParams p;
    p.method = Method::TransformerXL;
    p.dim = dim;
    p.content = Content::Formula;
    auto all = decayCurve(p, maxDistance);
    QVERIFY(all.ok());
    for (std::int64_t d : {std::int64_t{0}, std::int64_t{511}, std::int64_t{512}, std::int64_t(maxDistance / 2),
                           std::int64_t(maxDistance / 2 + 1), std::int64_t(maxDistance - 1), std::int64_t(maxDistance)}) {
        auto one = decayCurveAt(p, {d});
        QVERIFY(one.ok());
        QCOMPARE(all.value().value[Eigen::Index(d)], one.value().value[0]);
    }
}

QTEST_GUILESS_MAIN(TestDecay)
#include "test_decay.moc"
