// Demonstrations: each claim's numbers, checked against independent formulas and the golden cases.
#include "core/demonstrations.h"
#include "support/testsupport.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <complex>
#include <cstring>
#include <map>
#include <numbers>
#include <set>

using namespace poslab;

namespace {

// Independent RoPE rotation in double: θ_i = base^(−2i/d), layout pairs as documented.
std::vector<double> rotate(const std::vector<double>& x, double pos, double base, bool interleaved) {
    const std::size_t d = x.size();
    std::vector<double> out(d);
    for (std::size_t i = 0; i < d / 2; ++i) {
        const double th = std::pow(base, -2.0 * double(i) / double(d));
        const std::size_t a = interleaved ? 2 * i : i, b = interleaved ? 2 * i + 1 : i + d / 2;
        const double c = std::cos(pos * th), s = std::sin(pos * th);
        out[a] = x[a] * c - x[b] * s;
        out[b] = x[b] * c + x[a] * s;
    }
    return out;
}
std::vector<double> row(const poslab::Matrix& m, Eigen::Index r) {
    return std::vector<double>(m.row(r).data(), m.row(r).data() + m.cols());
}
// float32 → bfloat16, round to nearest even (written here from the format, not core/precision.h).
double bf16(double x) {
    float f = float(x);
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    u = (u + 0x7FFFu + ((u >> 16) & 1u)) & 0xFFFF0000u;
    std::memcpy(&f, &u, 4);
    return f;
}
// The phase error of the legacy bfloat16 path at position p, max over the pairs of a head of d:
// angle bf16(bf16(p)·bf16(θ_i)) against p·θ_i, wrapped to (−π, π].
double legacyPhaseError(std::int64_t p, int d, double base) {
    double worst = 0;
    for (int i = 0; i < d / 2; ++i) {
        const double th = double(float(1.0 / std::pow(base, 2.0 * i / d)));
        const double exact = double(p) * (1.0 / std::pow(base, 2.0 * i / d));
        double e = std::remainder(bf16(bf16(double(p)) * bf16(th)) - exact, 2 * std::numbers::pi);
        worst = std::max(worst, std::abs(e));
    }
    return worst;
}
double dot(const std::vector<double>& a, const std::vector<double>& b) {
    double s = 0;
    for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
    return s;
}

}  // namespace

class TestDemonstrations : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void catalogueKeysAreUniqueAndRoundTrip() {
        std::set<std::string> keys;
        for (const auto& d : demonstrations()) {
            QVERIFY(keys.insert(d.key).second);
            QVERIFY(!d.section.empty());
            QCOMPARE(demoFromKey(d.key).value(), d.id);
            QCOMPARE(demoInfo(d.id).key, d.key);
        }
        // Every DemoId (the enumerators are 0 .. the last one) has exactly one entry.
        std::set<int> ids;
        for (const auto& d : demonstrations()) ids.insert(int(d.id));
        QCOMPARE(int(ids.size()), int(keys.size()));
        QCOMPARE(*ids.begin(), 0);
        QCOMPARE(*ids.rbegin(), int(keys.size()) - 1);
        QCOMPARE(int(keys.size()), int(DemoId::MropeSections) + 1);
        QVERIFY(!demoFromKey("no-such-demo").has_value());
    }

    void attentionOutputAveragesValuesForEqualScores() {
        // q·k = 0 for every pair: uniform weights, every output row is the mean of V.
        poslab::Matrix q = poslab::Matrix::Zero(3, 2), v(3, 2);
        v << 1, 2, 3, 4, 5, 9;
        const auto out = attentionOutput(q, q, v);
        for (int r = 0; r < 3; ++r) {
            QVERIFY(std::abs(out(r, 0) - 3.0) <= 1e-15);
            QVERIFY(std::abs(out(r, 1) - 5.0) <= 1e-15);
        }
    }

    void permutationEquivariance_data() {
        QTest::addColumn<int>("tokens");
        QTest::addColumn<int>("dim");
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<QList<int>>("perm");
        QTest::newRow("n6_d8_seed0_default") << 6 << 8 << quint64(0) << QList<int>{2, 0, 5, 1, 4, 3};
        QTest::newRow("n10_d16_seed3_reversed") << 10 << 16 << quint64(3) << QList<int>{};
        QTest::newRow("n4_d64_seed7_swap") << 4 << 64 << quint64(7) << QList<int>{1, 0, 3, 2};
    }
    void permutationEquivariance() {
        QFETCH(int, tokens);
        QFETCH(int, dim);
        QFETCH(quint64, seed);
        QFETCH(QList<int>, perm);
        PermutationInput in;
        in.tokens = tokens;
        in.dim = dim;
        in.seed = seed;
        in.permutation.assign(perm.begin(), perm.end());
        auto r = demoPermutation(in);
        QVERIFY(r.ok());
        const auto& v = r.value();
        QCOMPARE(v.out.rows(), Eigen::Index(tokens));
        QCOMPARE(v.out.cols(), Eigen::Index(dim));
        QVERIFY2(v.nopeError <= 1e-13, qPrintable(QString::number(v.nopeError)));
        QVERIFY2(v.ropeError >= 1e-3, qPrintable(QString::number(v.ropeError)));
        QVERIFY2(v.sinusoidalError >= 1e-3, qPrintable(QString::number(v.sinusoidalError)));
        // Shuffled output row r is the output of token perm[r].
        for (int rr = 0; rr < tokens; ++rr)
            QVERIFY((v.outShuffled.row(rr) - v.out.row(v.permutation[std::size_t(rr)])).cwiseAbs().maxCoeff() <= 1e-13);
        // And the outputs are not trivially equal to each other (the check has teeth).
        QVERIFY((v.out.row(0) - v.out.row(1)).cwiseAbs().maxCoeff() > 1e-3);
    }
    void permutationRejectsNonPermutation() {
        PermutationInput in;
        in.permutation = {0, 0, 1, 2, 3, 4};
        auto r = demoPermutation(in);
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error().parameter), QStringLiteral("permutation"));
    }

    void sinusoidal_data() {
        QTest::addColumn<int>("dim");
        QTest::addColumn<qint64>("delta");
        QTest::addColumn<int>("layout");
        QTest::newRow("d16_delta5_interleaved") << 16 << qint64(5) << 0;
        QTest::newRow("d64_delta1000_concat") << 64 << qint64(1000) << 1;
        QTest::newRow("d2_delta0_interleaved") << 2 << qint64(0) << 0;
        QTest::newRow("d32_delta77_interleaved") << 32 << qint64(77) << 0;
    }
    void sinusoidal() {
        QFETCH(int, dim);
        QFETCH(qint64, delta);
        QFETCH(int, layout);
        SinusoidalDemoInput in;
        in.dim = dim;
        in.delta = delta;
        in.layout = layout;
        auto r = demoSinusoidal(in);
        QVERIFY(r.ok());
        const auto& v = r.value();
        QVERIFY2(v.shiftError <= 1e-10, qPrintable(QString::number(v.shiftError)));
        QVERIFY2(v.relativeSpread <= 1e-10, qPrintable(QString::number(v.relativeSpread)));
        QVERIFY2(v.tokensSpread >= 0.1, qPrintable(QString::number(v.tokensSpread)));
        // PE(3)·PE(1) = Σ_i cos(2·w_i), w_i = 10000^(−2i/d).
        double expect = 0;
        for (int i = 0; i < dim / 2; ++i) expect += std::cos(2.0 * std::pow(10000.0, -2.0 * i / dim));
        QVERIFY(std::abs(v.dotAt[0] - expect) <= 1e-12);
        QVERIFY(std::abs(v.dotAt[1] - expect) <= 1e-12);
        QVERIFY(std::abs(v.dotWithTokensAt[0] - v.dotWithTokensAt[1]) >= 1e-3);
        // R(Δ) is orthogonal.
        const poslab::Matrix I = v.rotation * v.rotation.transpose();
        POSLAB_VERIFY_ABS(I, poslab::Matrix::Identity(dim, dim), 1e-12);
    }
    // The example pairs (3, 1) and (3 + positions/2, 1 + positions/2): their dot products are the
    // matrix entries at the positions they name (the summary's labels print those positions).
    void sinusoidalExamplePairsNameTheirPositions_data() {
        QTest::addColumn<int>("positions");
        QTest::addColumn<qint64>("p0");
        QTest::addColumn<qint64>("p1");
        QTest::newRow("positions8") << 8 << qint64(3) << qint64(7);
        QTest::newRow("positions9") << 9 << qint64(3) << qint64(7);
        QTest::newRow("positions32") << 32 << qint64(3) << qint64(19);
    }
    void sinusoidalExamplePairsNameTheirPositions() {
        QFETCH(int, positions);
        QFETCH(qint64, p0);
        QFETCH(qint64, p1);
        SinusoidalDemoInput in;
        in.positions = positions;
        auto r = demoSinusoidal(in);
        QVERIFY(r.ok());
        const auto& v = r.value();
        QCOMPARE(v.dotAtPositions[0][0], p0);
        QCOMPARE(v.dotAtPositions[1][0], p1);
        for (int k = 0; k < 2; ++k) {
            const auto p = v.dotAtPositions[k][0], q = v.dotAtPositions[k][1];
            QVERIFY(q >= 0 && p < positions && q < positions);
            QCOMPARE(p - q, v.dotAtPositions[0][0] - v.dotAtPositions[0][1]);
            QCOMPARE(v.dotAt[k], v.dot(p, q));
            QCOMPARE(v.dotWithTokensAt[k], v.dotWithTokens(p, q));
        }
    }

    void sinusoidalFloat32ShowsOnlyRounding() {
        SinusoidalDemoInput in;
        in.precision = Precision::Float32;
        in.delta = 1000;
        auto r = demoSinusoidal(in);
        QVERIFY(r.ok());
        QVERIFY(r.value().shiftError <= 1e-3);
        QVERIFY(r.value().shiftError > 1e-9);  // float32 angle rounding is visible, as the spec says
    }

    void rope_data() {
        QTest::addColumn<int>("headDim");
        QTest::addColumn<int>("layout");
        QTest::addColumn<qint64>("shift");
        QTest::addColumn<qint64>("m");
        QTest::addColumn<qint64>("n");
        QTest::newRow("d16_half_shift100_m7_n3") << 16 << 0 << qint64(100) << qint64(7) << qint64(3);
        QTest::newRow("d16_interleaved_shift100_m7_n3") << 16 << 1 << qint64(100) << qint64(7) << qint64(3);
        QTest::newRow("d64_half_shift5000_m0_n40") << 64 << 0 << qint64(5000) << qint64(0) << qint64(40);
        QTest::newRow("d8_interleaved_shift1_m12_n5") << 8 << 1 << qint64(1) << qint64(12) << qint64(5);
    }
    void rope() {
        QFETCH(int, headDim);
        QFETCH(int, layout);
        QFETCH(qint64, shift);
        QFETCH(qint64, m);
        QFETCH(qint64, n);
        RopeDemoInput in;
        in.head_dim = headDim;
        in.layout = layout;
        in.shift = shift;
        in.m = m;
        in.n = n;
        auto r = demoRope(in);
        QVERIFY(r.ok());
        const auto& v = r.value();
        QVERIFY2(v.shiftError <= 1e-10, qPrintable(QString::number(v.shiftError)));
        QVERIFY2(v.shiftErrorFloat32 <= 1e-3, qPrintable(QString::number(v.shiftErrorFloat32)));
        QVERIFY2(v.normError <= 1e-13, qPrintable(QString::number(v.normError)));
        QVERIFY(v.scores.cwiseAbs().maxCoeff() > 0.1);  // non-trivial heatmap
        // The complex identity including the sine term is exact; the cos-only form misses the sine term.
        QVERIFY2(v.identityError <= 1e-12, qPrintable(QString::number(v.identityError)));
        QVERIFY(std::abs(v.cosOnlyError - std::abs(v.sineTerm)) <= 1e-12);
        QVERIFY2(v.cosOnlyError >= 1e-3, qPrintable(QString::number(v.cosOnlyError)));
        // Independent rotation of the demo's own content rows.
        const bool inter = layout == 1;
        const double s = 1.0 / std::sqrt(double(headDim));
        QVERIFY(std::abs(v.inner - dot(rotate(row(v.q, 0), double(m), 10000, inter), rotate(row(v.k, 0), double(n), 10000, inter))) <= 1e-12);
        for (int i : {0, 3, 7})
            for (int j : {0, 1, 6}) {
                const double e0 = s * dot(rotate(row(v.q, i), i, 10000, inter), rotate(row(v.k, j), j, 10000, inter));
                const double e1 = s * dot(rotate(row(v.q, i), double(shift + i), 10000, inter), rotate(row(v.k, j), double(shift + j), 10000, inter));
                QVERIFY(std::abs(v.scores(i, j) - e0) <= 1e-12);
                QVERIFY(std::abs(v.scoresShifted(i, j) - e1) <= 1e-10);
            }
        QVERIFY(std::abs(v.complexFull - (v.cosOnly + v.sineTerm)) <= 1e-12);
    }
    void ropeComplexIdentityIndependent() {
        // Independent check of the identity itself on fixed vectors (no demo code): interleaved pairs.
        const std::vector<double> q = {0.3, -1.2, 2.0, 0.7, -0.4, 1.1}, k = {1.5, 0.2, -0.6, 0.9, 0.8, -1.3};
        const double base = 10000, m = 7, n = 3;
        const double inner = dot(rotate(q, m, base, true), rotate(k, n, base, true));
        std::complex<double> sum = 0;
        double cosOnly = 0;
        for (int j = 0; j < 3; ++j) {
            const std::complex<double> qt(q[2 * j], q[2 * j + 1]), kt(k[2 * j], k[2 * j + 1]);
            const double th = std::pow(base, -2.0 * j / 6);
            sum += qt * std::conj(kt) * std::polar(1.0, (m - n) * th);
            cosOnly += (qt * std::conj(kt)).real() * std::cos((m - n) * th);
        }
        QVERIFY(std::abs(inner - sum.real()) <= 1e-12);
        QVERIFY(std::abs(inner - cosOnly) >= 1e-2);
    }
    void ropeRejectsOddHeadDim() {
        RopeDemoInput in;
        in.head_dim = 7;
        auto r = demoRope(in);
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error().parameter), QStringLiteral("head_dim"));
    }

    void ropeDecay() {
        RopeDecayInput in;
        auto r = demoRopeDecay(in);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message().c_str());
        const auto& v = r.value();
        QCOMPARE(v.distance.size(), in.distances.size());
        const int half = in.head_dim / 2;
        const double s = 1.0 / std::sqrt(double(in.head_dim));
        for (std::size_t i = 0; i < v.distance.size(); ++i) {
            double expect = 0;
            for (int j = 0; j < half; ++j) expect += 2 * std::cos(double(v.distance[i]) * std::pow(in.base, -2.0 * j / in.head_dim));
            expect *= s;
            QVERIFY2(std::abs(v.value[i] - expect) <= 1e-9, qPrintable(QString("d=%1: %2 vs %3").arg(v.distance[i]).arg(v.value[i]).arg(expect)));
            QVERIFY(std::abs(v.directValue[i] - expect) <= 1e-9);
        }
        QCOMPARE(v.value.front(), std::sqrt(double(in.head_dim)));  // d = 0: s·d
        QCOMPARE(v.bound.size(), v.distance.size());
        // RoFormer bound at d = 0: (1/(r/2))·Σ_{j=1..r/2} j = (r/2 + 1)/2.
        QVERIFY(std::abs(v.bound.front() - (half + 1) / 2.0) <= 1e-9);
        QVERIFY(v.bound.back() < 0.5 * v.bound.front());
        QVERIFY(std::abs(v.value.back()) < 0.25 * v.value.front());
    }

    void kvCache_data() {
        QTest::addColumn<int>("steps");
        QTest::addColumn<int>("heads");
        QTest::newRow("steps16_heads8") << 16 << 8;
        QTest::newRow("steps5_heads12") << 5 << 12;
        QTest::newRow("steps40_heads4") << 40 << 4;
    }
    void kvCache() {
        QFETCH(int, steps);
        QFETCH(int, heads);
        KvCacheInput in;
        in.steps = steps;
        in.heads = heads;
        auto r = demoKvCache(in);
        QVERIFY(r.ok());
        const auto& v = r.value();
        QCOMPARE(int(v.steps.size()), steps);
        for (int t = 1; t <= steps; ++t) {
            const auto& s = v.steps[std::size_t(t - 1)];
            QCOMPARE(s.step, std::int64_t(t));
            QCOMPARE(s.cachedKeys, std::int64_t(t - 1));
            QCOMPARE(s.ropeRotations, std::int64_t(2));
            QCOMPARE(s.alibiTerms, std::int64_t(1));
            QCOMPARE(s.relativeTerms, std::int64_t(t));
        }
        QVERIFY2(v.ropeCacheError <= 1e-12, qPrintable(QString::number(v.ropeCacheError)));
        for (const auto& m : v.methods) {
            std::int64_t expect = 0;
            switch (m.method) {
                case Method::Rope: expect = 2 * steps; break;
                // torchscale applies xPos to every key and the query at each step: t + 1.
                case Method::Xpos: expect = std::int64_t(steps) * (steps + 1) / 2 + steps; break;
                case Method::T5: case Method::Shaw: case Method::TransformerXL:
                    expect = std::int64_t(steps) * (steps + 1) / 2; break;
                case Method::Alibi: case Method::Sinusoidal: case Method::Learned: expect = steps; break;
                case Method::NoPE: expect = 0; break;
            }
            QCOMPARE(m.total, expect);
            QCOMPARE(int(m.perStep.size()), steps);
        }
        // ALiBi before softmax: a cached m·j differs from −m(i − j) by m·i, i = steps − 1, for the
        // steepest head (2^(−8/p) for the p = 2^⌊log2 H⌋ first heads, or of the interleaved ones).
        double steepest = 0;
        int p = 1;
        while (p * 2 <= heads) p *= 2;
        steepest = std::pow(2.0, -8.0 / p);
        if (p != heads) steepest = std::max(steepest, std::pow(2.0, -8.0 / (2 * p)));
        QVERIFY2(std::abs(v.alibiStaleLogit - steepest * (steps - 1)) <= 1e-12 * steps, qPrintable(QString::number(v.alibiStaleLogit)));
        // ... but by the same amount for every key of the row, which softmax ignores: the attention
        // weights with cached terms (m·j, as BLOOM caches it) are exact to rounding; T5's buckets and
        // Shaw's clipped indices move with i − j, so their cached terms change the weights.
        QVERIFY2(v.alibiStaleError <= 1e-15, qPrintable(QString::number(v.alibiStaleError)));
        QVERIFY2(v.t5StaleError > 1e-6, qPrintable(QString::number(v.t5StaleError)));
        QVERIFY2(v.shawStaleError > 1e-6, qPrintable(QString::number(v.shawStaleError)));
        // xPos's key scale is centred on the sequence length: keys scaled when they arrived are
        // off by a factor of their own, which softmax does not ignore (a cache of scaled keys is
        // stale; torchscale scales every key again).
        QVERIFY2(v.xposStaleError > 1e-6 && v.xposStaleError < 1, qPrintable(QString::number(v.xposStaleError)));
        // Transformer-XL's b and d follow i − j through a sinusoid: cached ones go stale too.
        QVERIFY2(v.txlStaleError > 1e-6 && v.txlStaleError < 1, qPrintable(QString::number(v.txlStaleError)));
        // Shaw (k = 16): a cached key's index changes while its distance is below k.
        QCOMPARE(v.shawIndicesChanged, std::int64_t(std::min(steps - 1, 16)));
        QCOMPARE(v.txlDistancesChanged, std::int64_t(steps - 1));
    }

    void extrapolation() {
        ExtrapolationInput in;
        auto r = demoExtrapolation(in);
        QVERIFY(r.ok());
        const auto& v = r.value();
        const auto* learned = v.find("learned");
        QVERIFY(learned && !learned->defined);
        QVERIFY(QString::fromStdString(learned->error).contains("position"));
        const auto* sin = v.find("sinusoidal");
        QVERIFY(sin && sin->defined && sin->value > 0 && sin->value < 1.0);
        const auto* alibi = v.find("alibi");
        QVERIFY(alibi && alibi->defined);
        QVERIFY(std::abs(alibi->value - (-std::pow(2.0, -8.0) * 8191)) <= 1e-9);
        QCOMPARE(v.find("t5")->value, 15.0);
        QCOMPARE(v.find("shaw")->value, 0.0);
        // Plain RoPE: pairs that never completed a turn in training ((L−1)·θ_i < 2π) now exceed their range.
        int expectUnseen = 0;
        for (int i = 0; i < in.head_dim / 2; ++i)
            if (double(in.train_length - 1) * std::pow(in.base, -2.0 * i / in.head_dim) < 2 * std::numbers::pi) ++expectUnseen;
        QVERIFY(expectUnseen > 0);
        const auto* rope = v.find("rope");
        QCOMPARE(rope->unseenPairs, expectUnseen);
        QVERIFY(std::abs(rope->lowestPairRatio - 8191.0 / 2047.0) <= 1e-9);
        const auto* lin = v.find("rope-linear");
        QCOMPARE(lin->unseenPairs, 0);
        QVERIFY(std::abs(lin->lowestPairRatio - 8191.0 / (4 * 2047.0)) <= 1e-9);
        QVERIFY(std::abs(lin->highestPairStep - 0.25) <= 1e-12);  // resolution: θ_0 / factor
        QCOMPARE(v.find("rope-ntk")->unseenPairs, 0);
        QVERIFY(std::abs(v.find("rope-ntk")->highestPairStep - 1.0) <= 1e-12);  // NTK keeps the fast pairs
        const auto* yarn = v.find("rope-yarn");
        QCOMPARE(yarn->unseenPairs, 0);
        QVERIFY(std::abs(yarn->attentionFactor - (0.1 * std::log(4.0) + 1)) <= 1e-6);
        QVERIFY(std::abs(yarn->highestPairStep - 1.0) <= 1e-12);
    }
    void extrapolationRejectsShortTarget() {
        ExtrapolationInput in;
        in.target_length = in.train_length;
        auto r = demoExtrapolation(in);
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error().parameter), QStringLiteral("target_length"));
    }

    void layouts_data() {
        QTest::addColumn<int>("headDim");
        QTest::newRow("d16") << 16;
        QTest::newRow("d4") << 4;
        QTest::newRow("d128") << 128;
    }
    void layouts() {
        QFETCH(int, headDim);
        LayoutDemoInput in;
        in.head_dim = headDim;
        auto r = demoLayouts(in);
        QVERIFY(r.ok());
        const auto& v = r.value();
        // π is a permutation of 0..d−1 with π[0] = 0, π[d/2] = 1.
        std::set<int> s(v.permutation.begin(), v.permutation.end());
        QCOMPARE(int(s.size()), headDim);
        QCOMPARE(v.permutation[std::size_t(headDim / 2)], 1);
        QVERIFY2(v.permutationError <= 1e-14, qPrintable(QString::number(v.permutationError)));
        QVERIFY2(v.scoreError <= 1e-12, qPrintable(QString::number(v.scoreError)));
        QVERIFY2(v.wrongLayoutScoreError >= 1e-3, qPrintable(QString::number(v.wrongLayoutScoreError)));
        QVERIFY2(v.mixedShiftError >= 1e-3, qPrintable(QString::number(v.mixedShiftError)));
        QVERIFY2(v.consistentShiftError <= 1e-10, qPrintable(QString::number(v.consistentShiftError)));
        const auto gi = testsupport::toDoubles(testsupport::goldenCase("rope_seed_example.json", "gptj_interleaved").value("output").toArray());
        const auto gh = testsupport::toDoubles(testsupport::goldenCase("rope_seed_example.json", "llama_half_split_contrast").value("output").toArray());
        double d2 = 0;
        for (int i = 0; i < 4; ++i) {
            QVERIFY(std::abs(v.seedInterleaved[std::size_t(i)] - gi[std::size_t(i)]) <= 1e-7);
            QVERIFY(std::abs(v.seedHalf[std::size_t(i)] - gh[std::size_t(i)]) <= 1e-6);
            d2 += (gi[std::size_t(i)] - gh[std::size_t(i)]) * (gi[std::size_t(i)] - gh[std::size_t(i)]);
        }
        QVERIFY(std::abs(v.seedDifference - std::sqrt(d2)) <= 1e-6);
    }

    void comparisonTable() {
        const auto t = poslab::comparisonTable();
        QCOMPARE(t.rows.size(), kAllMethods.size());
        for (const auto& r : t.rows)
            for (const auto& c : r.cells) {
                QVERIFY2(c.demo.has_value(), std::string(methodKey(r.method)).c_str());
                QVERIFY(demoInfo(*c.demo).id == *c.demo);
            }
        auto mem = [&](Method m) { return t.find(m)->cells[int(TableColumn::Memory)].number; };
        // The sizes of the demonstrations the cells link to: learned-table's 2048 × 64 table,
        // shaw-clipping's k = 4, d = 16, transformer-xl-terms' d = 16.
        QCOMPARE(mem(Method::Learned), 2048.0 * 64);
        QCOMPARE(mem(Method::T5), 32.0 * 8);
        QCOMPARE(mem(Method::Shaw), 2.0 * 9 * 16);
        QCOMPARE(mem(Method::TransformerXL), 2.0 * 16 + 16.0 * 16);
        // The numbers the learned cell names: the table's rows × dim.
        QCOMPARE(t.find(Method::Learned)->cells[int(TableColumn::Learnable)].args, (std::vector<double>{2048, 64}));
        // Each Memory count is the product of the factors its row's Learnable cell names on the
        // same slide: learned rows × d, Shaw's two (2k + 1) × d tables, T5's buckets × heads,
        // Transformer-XL's u, v (d each) and W (d × d).
        auto args = [&](Method m) { return t.find(m)->cells[int(TableColumn::Learnable)].args; };
        QCOMPARE(args(Method::Learned).size(), std::size_t(2));
        QCOMPARE(mem(Method::Learned), args(Method::Learned)[0] * args(Method::Learned)[1]);
        QCOMPARE(args(Method::Shaw).size(), std::size_t(2));
        QCOMPARE(mem(Method::Shaw), 2 * (2 * args(Method::Shaw)[0] + 1) * args(Method::Shaw)[1]);
        QCOMPARE(args(Method::T5), (std::vector<double>{32, 8}));
        QCOMPARE(mem(Method::T5), args(Method::T5)[0] * args(Method::T5)[1]);
        QCOMPARE(args(Method::TransformerXL), (std::vector<double>{16}));
        const double d = args(Method::TransformerXL)[0];
        QCOMPARE(mem(Method::TransformerXL), 2 * d + d * d);
        QCOMPARE(mem(Method::Alibi), 0.0);
        QCOMPARE(mem(Method::Rope), 0.0);
        QCOMPARE(mem(Method::NoPE), 0.0);
        QCOMPARE(*t.find(Method::Rope)->cells[int(TableColumn::Relative)].demo, DemoId::RopeShiftInvariance);
        QCOMPARE(*t.find(Method::Learned)->cells[int(TableColumn::Extrapolation)].demo, DemoId::Extrapolation);
        // Each method's own cells open its own demonstration.
        QCOMPARE(*t.find(Method::Learned)->cells[int(TableColumn::Learnable)].demo, DemoId::LearnedTable);
        QCOMPARE(*t.find(Method::Shaw)->cells[int(TableColumn::Relative)].demo, DemoId::ShawClipping);
        QCOMPARE(*t.find(Method::T5)->cells[int(TableColumn::Relative)].demo, DemoId::T5Buckets);
        QCOMPARE(*t.find(Method::TransformerXL)->cells[int(TableColumn::Relative)].demo, DemoId::TransformerXLTerms);
        QCOMPARE(*t.find(Method::Alibi)->cells[int(TableColumn::Relative)].demo, DemoId::AlibiSlopes);
    }

    // Every cell of the comparison table names a demonstration that exists (in the catalogue,
    // which is the default deck) and is about the cell's method: its numbers back the cell.
    void comparisonCellNamesADemonstrationOfItsMethod_data() {
        QTest::addColumn<int>("method");
        QTest::addColumn<int>("column");
        const char* cols[] = {"learnable", "extrapolation", "relative", "memory"};
        for (Method m : kAllMethods)
            for (int c = 0; c < 4; ++c)
                QTest::newRow((std::string(methodKey(m)) + "_" + cols[c]).c_str()) << int(m) << c;
    }
    void comparisonCellNamesADemonstrationOfItsMethod() {
        QFETCH(int, method);
        QFETCH(int, column);
        const auto t = poslab::comparisonTable();
        const TableRow* row = t.find(Method(method));
        QVERIFY(row);
        const TableCell& cell = row->cells[column];
        QVERIFY(cell.demo.has_value());
        const std::string key = demoInfo(*cell.demo).key;
        QCOMPARE(demoFromKey(key), std::optional<DemoId>(*cell.demo));
        const auto& ms = demoInfo(*cell.demo).methods;
        QVERIFY2(std::find(ms.begin(), ms.end(), std::string(methodKey(Method(method)))) != ms.end(),
                 qPrintable(QString::fromStdString(key + " is not about " + std::string(methodKey(Method(method))))));
        // The demonstration runs and holds on its own scene.
        auto r = runDemonstration(*cell.demo);
        QVERIFY(r.ok());
        QVERIFY2(r.value().holds, key.c_str());
    }

    // RoPE keeps lengths: the norms demonstration's figure data is one x rotated to each position,
    // its length before and after the rotation, equal.
    void ropeNormFigureData_data() {
        QTest::addColumn<int>("dim");
        QTest::addColumn<double>("base");
        QTest::addColumn<QString>("layout");
        QTest::newRow("d16_base10000_half") << 16 << 10000.0 << "half";
        QTest::newRow("d64_base500000_interleaved") << 64 << 500000.0 << "interleaved";
        QTest::newRow("d8_base100_half") << 8 << 100.0 << "half";
    }
    void ropeNormFigureData() {
        QFETCH(int, dim);
        QFETCH(double, base);
        QFETCH(QString, layout);
        ScoreParams scene = demoParams(DemoId::RopeNorm);
        scene.dim = dim;
        scene.rope.head_dim = dim;
        scene.rope.base = base;
        scene.rope.layout = *enumFromKey<RopeLayout>(layout.toStdString());
        auto r = runDemonstration(DemoId::RopeNorm, scene);
        QVERIFY(r.ok());
        QVERIFY(r.value().holds);
        const DemoFigure* at = r.value().find("position");
        const DemoFigure* before = r.value().find("norm_before");
        const DemoFigure* after = r.value().find("norm_after");
        QVERIFY(at && before && after);
        QVERIFY(before->list.size() >= 8);
        QCOMPARE(before->list.size(), after->list.size());
        QCOMPARE(at->list.size(), after->list.size());
        for (std::size_t i = 0; i < after->list.size(); ++i) {
            QCOMPARE(before->list[i], before->list.front());   // one x, the same length everywhere
            QVERIFY2(std::abs(after->list[i] - before->list[i]) <= 1e-12 * before->list[i],
                     qPrintable(QString("position %1: %2 vs %3").arg(at->list[i]).arg(after->list[i]).arg(before->list[i])));
        }
        QVERIFY(at->list.back() > at->list.front());   // positions far apart, not one position
    }

    // xPos beside RoPE: its score is RoPE's terms each damped by ζ_i^(d/scale_base) (the formula
    // written out in the demonstration and checked here on its numbers), relative, and it decays
    // for random content, where RoPE's does not.
    void xposDecayHolds_data() {
        QTest::addColumn<int>("dim");
        QTest::addColumn<double>("scaleBase");
        QTest::newRow("d64_sb512") << 64 << 512.0;
        QTest::newRow("d32_sb512") << 32 << 512.0;
        QTest::newRow("d128_sb256") << 128 << 256.0;
    }
    void xposDecayHolds() {
        QFETCH(int, dim);
        QFETCH(double, scaleBase);
        ScoreParams scene = demoParams(DemoId::XposDecay);
        QCOMPARE(scene.method, Method::Xpos);
        scene.dim = dim;
        scene.xpos.head_dim = dim;
        scene.xpos.scale_base = scaleBase;
        auto r = runDemonstration(DemoId::XposDecay, scene);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message().c_str());
        const DemoSummary& v = r.value();
        QVERIFY(v.holds);
        const auto* dist = v.find("distance");
        const auto* xo = v.find("xpos_score");
        const auto* ro = v.find("rope_score");
        const auto* env = v.find("xpos_envelope");
        QVERIFY(dist && xo && ro && env);
        QCOMPARE(xo->list.size(), dist->list.size());
        // d = 0: no damping, both s·dim·... equal: s·Σ 2 = √dim.
        QVERIFY(std::abs(xo->list.front() - std::sqrt(double(dim))) <= 1e-9);
        QVERIFY(std::abs(ro->list.front() - std::sqrt(double(dim))) <= 1e-9);
        // The slowest pair's factor, written out: ζ_max = (2(d/2 − 1) + 0.4d)/(1.4d), to the d/scale_base.
        const double zmax = (2.0 * (dim / 2 - 1) + 0.4 * dim) / (1.4 * dim);
        for (std::size_t i = 0; i < dist->list.size(); ++i) {
            QVERIFY(std::abs(env->list[i] - std::pow(zmax, dist->list[i] / scaleBase)) <= 1e-12);
            // |xPos| <= s·Σ 2ζ_i^(d/sb) <= √dim · the slowest factor.
            QVERIFY(std::abs(xo->list[i]) <= std::sqrt(double(dim)) * env->list[i] * (1 + 1e-12));
        }
        QVERIFY(v.find("identity_error")->value <= 1e-9);
        QVERIFY(v.find("shift_error")->value <= 1e-9);
        QVERIFY(v.find("xpos_random_far_over_near")->value < 0.5 * v.find("rope_random_far_over_near")->value);
        QVERIFY(v.find("rope_random_far_over_near")->value > 0.5);
        // The comparison table's xPos cells are backed by it.
        const auto t = poslab::comparisonTable();
        QCOMPARE(*t.find(Method::Xpos)->cells[int(TableColumn::Extrapolation)].demo, DemoId::XposDecay);
        QCOMPARE(*t.find(Method::Xpos)->cells[int(TableColumn::Relative)].demo, DemoId::XposDecay);
    }

    // RoPE's decay holds for equal content, not in general (Barbero et al., ICLR 2025): the
    // demonstration shows both, and RoFormer's bound, in the score's units, bounds |score|.
    void ropeDecayIsForEqualContent() {
        auto r = runDemonstration(DemoId::RopeDecay);
        QVERIFY(r.ok());
        QVERIFY(r.value().holds);
        const auto* score = r.value().find("score");
        const auto* bound = r.value().find("bound");
        const auto* random = r.value().find("random_mean_abs");
        QVERIFY(score && bound && random);
        QCOMPARE(bound->list.size(), score->list.size());
        for (std::size_t i = 0; i < score->list.size(); ++i) QVERIFY(std::abs(score->list[i]) <= bound->list[i]);
        QVERIFY(random->list.back() > 0.5 * random->list.front());
    }

    // RoPE in bfloat16: the numbers, against the rounding written out here.
    void ropeBf16Numbers() {
        auto r = demoRopeBf16();
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message().c_str());
        const RopeBf16Input in;
        const auto& legacy = r.value().legacy;
        const auto& main = r.value().main;
        QCOMPARE(legacy.anglePrecision, Precision::BFloat16);
        QCOMPARE(main.anglePrecision, Precision::Float32);
        QCOMPARE(legacy.phaseError.size(), in.positions.size());
        for (std::size_t k = 0; k < in.positions.size(); ++k) {
            const double expected = legacyPhaseError(in.positions[k], 128, 10000.0);
            QVERIFY2(std::abs(legacy.phaseError[k] - expected) < 1e-9,
                     qPrintable(QStringLiteral("p %1: %2 vs %3").arg(in.positions[k]).arg(legacy.phaseError[k]).arg(expected)));
            QVERIFY(main.phaseError[k] < 1e-3);   // float32 angles: a few float32 ulps of p·θ
        }
        // The seed figures: 0.62 rad at 512, 2.5 at 2048, π over 0 … 4096.
        QVERIFY(std::abs(legacy.phaseError[1] - 0.62) < 0.01);
        QVERIFY(std::abs(legacy.phaseError[3] - 2.5) < 0.01);
        QVERIFY(std::abs(legacy.maxPhaseError - std::numbers::pi) < 1e-3);
        QCOMPARE(legacyPhaseError(legacy.maxPhaseAt, 128, 10000.0), legacy.maxPhaseError);
        // Positions bfloat16 holds as the same value, counted here.
        std::map<double, int> held;
        for (std::int64_t p = 0; p <= 4096; ++p) ++held[bf16(double(p))];
        std::int64_t colliding = 0;
        for (const auto& [v, n] : held) colliding += n > 1 ? n : 0;
        QCOMPARE(legacy.collidingPositions, colliding);
        QCOMPARE(legacy.firstCollision.value_or(-1), std::int64_t(256));
        QCOMPARE(main.collidingPositions, std::int64_t(0));
        QVERIFY(!main.firstCollision);
        QVERIFY(main.maxCosSinError > 0 && main.maxCosSinError < 4e-3);   // bfloat16's rounding of cos/sin: ≤ 2^-8
    }

    void ropeBf16Holds_data() {
        QTest::addColumn<QString>("precision");
        QTest::addColumn<bool>("holds");
        QTest::addColumn<qint64>("firstCollision");   // −1: none
        QTest::newRow("bfloat16") << "bfloat16" << true << qint64(256);
        QTest::newRow("float16") << "float16" << true << qint64(2048);
        QTest::newRow("float32") << "float32" << false << qint64(-1);
        QTest::newRow("double") << "double" << false << qint64(-1);
    }
    void ropeBf16Holds() {
        QFETCH(QString, precision);
        QFETCH(bool, holds);
        QFETCH(qint64, firstCollision);
        ScoreParams scene = demoParams(DemoId::RopeBf16);
        scene.precision = *enumFromKey<Precision>(precision.toStdString());
        auto r = runDemonstration(DemoId::RopeBf16, scene);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message().c_str());
        QCOMPARE(r.value().holds, holds);
        const DemoFigure* first = r.value().find("legacy_first_collision");
        QCOMPARE(first ? qint64(first->value) : qint64(-1), firstCollision);
        QVERIFY(r.value().find("main_colliding_positions"));
        QCOMPARE(r.value().find("main_colliding_positions")->value, 0.0);
    }

    // Local and global layers: counts from the models' rules, τ from Llama 4's formula.
    void localGlobalLayersNumbers() {
        auto r = runDemonstration(DemoId::LocalGlobalLayers);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message().c_str());
        const DemoSummary& s = r.value();
        auto v = [&](const char* name) {
            const DemoFigure* f = s.find(name);
            if (!f) qFatal("no figure %s", name);
            return f->value;
        };
        // Gemma 3 27B: 62 layers, layer i global iff (i + 1) % 6 == 0.
        int gemmaGlobal = 0;
        for (int i = 0; i < 62; ++i) gemmaGlobal += (i + 1) % 6 == 0;
        QCOMPARE(v("gemma_layers"), 62.0);
        QCOMPARE(v("gemma_global_layers"), double(gemmaGlobal));
        QCOMPARE(v("gemma_local_layers"), double(62 - gemmaGlobal));
        QCOMPARE(v("gemma_local_reach"), 1023.0);            // causal window 1024: the query and 1023 keys back
        QCOMPARE(v("gemma_local_base"), 10000.0);
        QCOMPARE(v("gemma_global_base"), 1e6);
        QCOMPARE(v("gemma_global_factor"), 8.0);
        QCOMPARE(v("gemma_layers_seeing_128k"), double(gemmaGlobal));
        // Llama 4 Scout: 48 layers, every 4th NoPE and global, the others chunked at 8192.
        QCOMPARE(v("llama4_layers"), 48.0);
        QCOMPARE(v("llama4_global_layers"), 12.0);
        QCOMPARE(v("llama4_nope_layers"), 12.0);
        QCOMPARE(v("llama4_local_layers"), 36.0);
        QCOMPARE(v("llama4_local_reach"), 8191.0);
        QCOMPARE(v("llama4_rope_base"), 5e5);
        QCOMPARE(v("llama4_rope_factor"), 16.0);
        QCOMPARE(v("llama4_layers_seeing_128k"), 12.0);
        const DemoFigure* at = s.find("temperature_position");
        const DemoFigure* tau = s.find("llama4_temperature");
        QVERIFY(at && tau);
        QCOMPARE(at->list, (std::vector<double>{131071, 1048575, 10485759}));
        QCOMPARE(tau->list.size(), std::size_t(3));
        for (std::size_t k = 0; k < 3; ++k) {
            const double expected = 1.0 + 0.1 * std::log1p(std::floor((at->list[k] + 1) / 8192.0));
            QVERIFY2(std::abs(tau->list[k] - expected) < 1e-6, qPrintable(QString::number(tau->list[k])));
        }
        QVERIFY(std::abs(tau->list[0] - 1.2833) < 1e-4 && std::abs(tau->list[2] - 1.7155) < 1e-4);
        QVERIFY(s.holds);
    }

    void localGlobalLayersHolds_data() {
        QTest::addColumn<QString>("change");
        QTest::addColumn<bool>("holds");
        QTest::newRow("gemma-3-27b") << "" << true;
        QTest::newRow("window_200000") << "window" << false;      // the local layers see 128k too
        QTest::newRow("every_layer_full") << "full" << false;     // no local layers
        QTest::newRow("every_layer_sliding") << "sliding" << false;   // nothing sees 128k
    }
    void localGlobalLayersHolds() {
        QFETCH(QString, change);
        QFETCH(bool, holds);
        ScoreParams scene = demoParams(DemoId::LocalGlobalLayers);
        QCOMPARE(scene.model, demoLayerModels().front().params.model);
        const std::int64_t layers = layerCount(scene.model);
        auto all = [&](const char* type) {
            std::string t;
            for (std::int64_t i = 0; i < layers; ++i) t += (i ? "," : "") + std::string(type);
            return t;
        };
        if (change == QLatin1String("window")) scene.model.window = 200000;
        if (change == QLatin1String("full")) scene.model.layer_types = all("full");
        if (change == QLatin1String("sliding")) scene.model.layer_types = all("sliding");
        QVERIFY(!scene.model.validate());
        auto r = runDemonstration(DemoId::LocalGlobalLayers, scene);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message().c_str());
        QCOMPARE(r.value().holds, holds);
    }

    void localGlobalLayersNeedsAPattern() {
        ScoreParams scene = demoParams(DemoId::LocalGlobalLayers);
        scene.model = LayerPattern{};
        auto r = runDemonstration(DemoId::LocalGlobalLayers, scene);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message().find("layer pattern") != std::string::npos, r.error().message().c_str());
    }

    // How Qwen2-VL numbers an image, against get_rope_index's rule written out here: text 0 … 3,
    // the 8 × 12 image merged 2 × 2 into 4 × 6 tokens at t = 4, h = 4 … 7, w = 4 … 9 (t slowest, w
    // fastest), the text after it from max(8, 12)/2 past the image's start = 10, and the position
    // offset (rope_deltas) = 13 − 31.
    void mropeImageNumbers() {
        auto r = demoMropeImage();
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message().c_str());
        const auto& v = r.value();
        QCOMPARE(v.tokens, std::int64_t(4 + 24 + 3));
        const IntMatrix& ids = v.positions.ids;
        for (int k = 0; k < 4; ++k)
            for (int a = 0; a < 3; ++a) QCOMPARE(ids(a, k), std::int64_t(k));
        for (int row = 0; row < 4; ++row)
            for (int col = 0; col < 6; ++col) {
                const int k = 4 + row * 6 + col;
                QCOMPARE(ids(0, k), std::int64_t(4));
                QCOMPARE(ids(1, k), std::int64_t(4 + row));
                QCOMPARE(ids(2, k), std::int64_t(4 + col));
            }
        for (int k = 28; k < 31; ++k)
            for (int a = 0; a < 3; ++a) QCOMPARE(ids(a, k), std::int64_t(10 + k - 28));
        QCOMPARE(v.rows, std::int64_t(4));
        QCOMPARE(v.cols, std::int64_t(6));
        QCOMPARE(v.largestImageId, std::int64_t(9));
        QCOMPARE(v.textAfterFirst, std::int64_t(10));
        QCOMPARE(v.positions.rope_deltas, std::int64_t(13 - 31));
        auto s = runDemonstration(DemoId::MropeImage);
        QVERIFY(s.ok() && s.value().holds);
        QCOMPARE(s.value().find("position_offset")->value, -18.0);
        QCOMPARE(s.value().find("text_after_first_id")->value, 10.0);
        QCOMPARE(s.value().find("image_t_values")->value, 1.0);
        // A layout that is not one image between text is refused with a message naming it.
        MropeImageInput bad;
        bad.tokens = "text:2,video:2x4x4,text:1";
        QVERIFY(!demoMropeImage(bad).ok());
        QCOMPARE(demoMropeImage(bad).error().parameter, std::string("tokens"));
    }

    // Sections or interleaving: Qwen2-VL's blocks (t the fastest 16, h the next 24, w the slowest
    // 24) and Qwen3-VL's interleaving (h at i ≡ 1, w at i ≡ 2 mod 3 below 60), and each axis's share
    // of the score against the mean of cos(d·θ_i) with θ_i = 10⁶^(−i/64) written out here.
    void mropeSectionsNumbers() {
        auto r = demoMropeSections();
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message().c_str());
        const auto& v = r.value();
        for (int i = 0; i < 64; ++i) {
            QCOMPARE(v.sectioned.axes[std::size_t(i)], i < 16 ? 0 : i < 40 ? 1 : 2);
            QCOMPARE(v.interleaved.axes[std::size_t(i)], i < 60 && i % 3 == 1 ? 1 : i < 60 && i % 3 == 2 ? 2 : 0);
        }
        const MropeSectionsInput in;
        for (const auto* l : {&v.sectioned, &v.interleaved})
            for (int a = 0; a < 3; ++a)
                for (std::size_t k = 0; k < in.distances.size(); ++k) {
                    double mean = 0;
                    int n = 0;
                    for (int i = 0; i < 64; ++i)
                        if (l->axes[std::size_t(i)] == a) {
                            mean += std::cos(double(in.distances[k]) * std::pow(1e6, -double(i) / 64));
                            ++n;
                        }
                    QVERIFY(std::abs(l->axis[std::size_t(a)].decay[k] - mean / n) < 1e-9);
                }
        // Sections: along w the score barely moves 8 patches apart, along t it has fallen.
        QVERIFY(v.sectioned.axis[2].decay[3] > 0.99);
        QVERIFY(v.sectioned.axis[0].decay[3] < 0.3);
        auto s = runDemonstration(DemoId::MropeSections);
        QVERIFY(s.ok() && s.value().holds);
        QVERIFY(s.value().find("interleaved_spread")->value < 0.05);
    }

    void everyDemonstrationHolds_data() {
        QTest::addColumn<int>("id");
        for (const auto& d : demonstrations()) QTest::newRow(d.key.c_str()) << int(d.id);
    }
    void everyDemonstrationHolds() {
        QFETCH(int, id);
        auto r = runDemonstration(DemoId(id));
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message().c_str());
        QVERIFY(r.value().holds);
        QVERIFY(!r.value().figures.empty());
        std::set<std::string> names;
        for (const auto& f : r.value().figures) {
            QVERIFY(std::isfinite(f.value));
            QVERIFY2(names.insert(f.name).second, f.name.c_str());   // "measured" keys: unique, snake_case
            QVERIFY(!f.name.empty() && f.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string::npos);
            for (double v : f.list) QVERIFY(std::isfinite(v));
        }
        // The same on its own scene given explicitly.
        auto again = runDemonstration(DemoId(id), demoParams(DemoId(id)));
        QVERIFY(again.ok());
        QCOMPARE(again.value().figures.size(), r.value().figures.size());
        for (std::size_t i = 0; i < r.value().figures.size(); ++i) QCOMPARE(again.value().figures[i].value, r.value().figures[i].value);
        // The scene validates, and every parameter the demonstration reads is one of the table's.
        QVERIFY(!demoParams(DemoId(id)).validate());
        for (const auto& name : demoSceneParams(DemoId(id))) {
            if (name.size() > 2 && name.substr(name.size() - 2) == ".*") {
                QCOMPARE(name.substr(0, name.size() - 2), std::string(methodParamGroup(demoParams(DemoId(id)).method)));
                continue;
            }
            QVERIFY2(findParam(scoreParamTable(), name) != nullptr, name.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestDemonstrations)
#include "test_demonstrations.moc"
