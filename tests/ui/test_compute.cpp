// The views' computations (ui/model/compute.h) on small scenes agree with the core functions they
// wrap: the heatmap's cells are scores(), the decay's columns decayCurveAt(), the frequencies
// ropeDefaultFrequencies() / alibiSlopes(), the pair angles m·θ_i; a bad scene gives each view
// an error message, never a throw.
#include "ui/model/compute.h"

#include "core/alibi.h"
#include "core/decay.h"
#include "core/rope.h"
#include "core/scores.h"

#include <QtTest>

#include <cmath>

using namespace poslab;
using namespace poslab::ui;

Q_DECLARE_METATYPE(poslab::ui::SceneParams)

namespace {

SceneParams sceneOf(Method m, int dim, Content content, std::int64_t length, bool softmax = false, bool causal = false) {
    SceneParams s;
    s.methods[0].params.method = m;
    s.methods[0].params.dim = dim;
    s.methods[0].params.content = content;
    s.length = length;
    s.view.softmax = softmax;
    s.view.causal = causal;
    s.view.decayMaxDistance = 10;
    return s;
}

Positions upTo(std::int64_t n) {
    Positions p;
    for (std::int64_t i = 0; i < n; ++i) p.push_back(i);
    return p;
}

void addScenes() {
    QTest::addColumn<SceneParams>("scene");
    QTest::newRow("rope d16 ones N12") << sceneOf(Method::Rope, 16, Content::Ones, 12);
    QTest::newRow("rope d32 random N20 softmax causal") << sceneOf(Method::Rope, 32, Content::Random, 20, true, true);
    QTest::newRow("alibi d8 ones N10") << sceneOf(Method::Alibi, 8, Content::Ones, 10);
    QTest::newRow("sinusoidal d16 random N15") << sceneOf(Method::Sinusoidal, 16, Content::Random, 15);
    SceneParams compare = sceneOf(Method::Rope, 16, Content::Random, 14);
    compare.methods.push_back(compare.methods[0]);
    compare.methods[1].params.method = Method::Alibi;
    QTest::newRow("compare rope + alibi N14") << compare;
}

}  // namespace

class TestCompute : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void heatmapCellsAreTheCoresScores_data() { addScenes(); }
    void heatmapCellsAreTheCoresScores() {
        QFETCH(SceneParams, scene);
        QVERIFY(!sceneProblem(scene));
        const HeatmapResult h = computeHeatmap(scene);
        QCOMPARE(h.length, scene.length);
        QCOMPARE(int(h.panels.size()), heatmapPanelCount(scene));
        QCOMPARE(h.panels.size(), scene.methods.size());   // no difference panels unless asked
        const Positions all = upTo(scene.length);
        for (int c = 0; c < int(scene.methods.size()); ++c) {
            const HeatmapPanel& panel = h.panels[std::size_t(c)];
            QVERIFY2(panel.error.isEmpty(), qPrintable(panel.error));
            QCOMPARE(panel.cells, HeatmapCells::Exact);
            QCOMPARE(panel.queries, all);
            QCOMPARE(panel.keys, all);
            const auto core = scores(scoringParams(scene, c), all, all, scene.length);
            QVERIFY(core);
            const Matrix& m = core.value();
            QCOMPARE(panel.values.rows(), m.rows());
            QCOMPARE(panel.values.cols(), m.cols());
            for (Eigen::Index i = 0; i < m.rows(); ++i)
                for (Eigen::Index j = 0; j < m.cols(); ++j) {
                    if (scene.view.causal && j > i) {
                        QVERIFY(!std::isfinite(panel.values(i, j)) || panel.values(i, j) == 0);   // masked
                        continue;
                    }
                    QCOMPARE(panel.values(i, j), m(i, j));
                }
            QVERIFY(panel.lo <= panel.hi);
        }
    }

    void decayColumnsAreTheCoresCurve_data() { addScenes(); }
    void decayColumnsAreTheCoresCurve() {
        QFETCH(SceneParams, scene);
        const DecayResult d = computeDecay(scene);
        QCOMPARE(d.series.size(), scene.methods.size());
        const std::vector<std::int64_t> distances = upTo(11);
        for (int c = 0; c < int(scene.methods.size()); ++c) {
            const DecaySeries& s = d.series[std::size_t(c)];
            QVERIFY2(s.error.isEmpty(), qPrintable(s.error));
            QCOMPARE(s.distance, distances);   // one distance per column: 0 … 10
            const auto core = decayCurveAt(scoringParams(scene, c), distances);
            QVERIFY(core);
            QCOMPARE(s.value.size(), distances.size());
            for (std::size_t i = 0; i < distances.size(); ++i) {
                QCOMPARE(s.value[i], core.value().value[Eigen::Index(i)]);
                QCOMPARE(s.valueMin[i], s.value[i]);
                QCOMPARE(s.valueMax[i], s.value[i]);
            }
        }
    }

    void frequenciesAreTheCoresFrequencies_data() { addScenes(); }
    void frequenciesAreTheCoresFrequencies() {
        QFETCH(SceneParams, scene);
        const FrequencyResult f = computeFrequencies(scene);
        QCOMPARE(f.configs.size(), scene.methods.size());
        for (int c = 0; c < int(scene.methods.size()); ++c) {
            const FrequencyConfigResult& r = f.configs[std::size_t(c)];
            QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
            const ScoreParams p = effectiveParams(scene, c);
            QCOMPARE(r.method, p.method);
            if (p.method == Method::Rope) {
                const RopeParams rp = p.ropeParams();
                const Vector inv = ropeDefaultFrequencies(rp).inv_freq;
                QVERIFY(r.hasFrequencies);
                QVERIFY(!r.scaled);
                QCOMPARE(r.before.size(), std::size_t(p.dim / 2));
                for (std::size_t i = 0; i < r.before.size(); ++i) {
                    QCOMPARE(r.before[i], inv[Eigen::Index(i)]);
                    QCOMPARE(r.after[i], r.before[i]);   // unscaled
                    // θ_i = 1/base^(2i/r), in float32 by default.
                    const double exact = 1.0 / std::pow(rp.base, 2.0 * double(i) / p.dim);
                    QVERIFY(std::abs(r.before[i] / exact - 1) < 1e-6);
                }
            } else if (p.method == Method::Alibi) {
                const Vector slopes = alibiSlopes(p.alibi);
                QCOMPARE(r.slopes.size(), std::size_t(slopes.size()));
                for (std::size_t h = 0; h < r.slopes.size(); ++h) {
                    QCOMPARE(r.slopes[h], slopes[Eigen::Index(h)]);
                    QCOMPARE(r.slopes[h], std::pow(2.0, -double(h + 1)));   // 8 heads: 2^(−8(h+1)/8)
                }
            }
        }
    }

    void pairAnglesArePositionTimesTheta_data() {
        QTest::addColumn<SceneParams>("scene");
        QTest::addColumn<QList<int>>("pairs");
        SceneParams s = sceneOf(Method::Rope, 16, Content::Ones, 40);
        s.pairs = {0, 3, 7};
        QTest::newRow("rope d16 pairs 0 3 7") << s << QList<int>{0, 3, 7};
        s.methods[0].params.rope.base = 500000;
        s.pairs = {1};
        QTest::newRow("rope d16 base 5e5 pair 1") << s << QList<int>{1};
    }
    void pairAnglesArePositionTimesTheta() {
        QFETCH(SceneParams, scene);
        QFETCH(QList<int>, pairs);
        const PairsResult r = computePairs(scene);
        QCOMPARE(r.configs.size(), std::size_t(1));
        const PairsConfigResult& c = r.configs[0];
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QCOMPARE(c.positions, (Positions{0, 1, 2, 4, 8, 16, 32}));
        QCOMPARE(c.pairs.size(), std::size_t(pairs.size()));
        const Vector inv = ropeDefaultFrequencies(effectiveParams(scene, 0).ropeParams()).inv_freq;
        for (std::size_t k = 0; k < c.pairs.size(); ++k) {
            const PairPanel& p = c.pairs[k];
            QCOMPARE(p.pair, pairs[qsizetype(k)]);
            QCOMPARE(p.theta, inv[p.pair]);
            QCOMPARE(p.angle.size(), c.positions.size());
            for (std::size_t m = 0; m < c.positions.size(); ++m)
                QVERIFY(std::abs(p.angle[m] - double(c.positions[m]) * p.theta) < 1e-12 * std::max(1.0, p.angle[m]));
            // A rotation keeps the query pair's length (cos and sin in float32 by default).
            const double len0 = std::hypot(p.query[0].x(), p.query[0].y());
            QVERIFY(len0 > 0);
            for (const QPointF& q : p.query) QVERIFY(std::abs(std::hypot(q.x(), q.y()) / len0 - 1) < 1e-6);
        }
    }

    void badScenesGiveErrors_data() {
        QTest::addColumn<SceneParams>("scene");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("length 0") << sceneOf(Method::Rope, 16, Content::Ones, 0) << "length";
        QTest::newRow("rope dim 15 (odd)") << sceneOf(Method::Rope, 15, Content::Ones, 10) << "dim";
        QTest::newRow("dim 0") << sceneOf(Method::Alibi, 0, Content::Ones, 10) << "dim";
        SceneParams base = sceneOf(Method::Rope, 16, Content::Ones, 10);
        base.methods[0].params.rope.base = -3;
        QTest::newRow("rope base -3") << base << "base";
        SceneParams none = sceneOf(Method::Rope, 16, Content::Ones, 10);
        none.methods.clear();
        QTest::newRow("no configuration") << none << "";
    }
    void badScenesGiveErrors() {
        QFETCH(SceneParams, scene);
        QFETCH(QString, mentions);
        const auto problem = sceneProblem(scene);
        QVERIFY(problem);
        QVERIFY2(problem->contains(mentions), qPrintable(*problem));
        HeatmapResult h;
        DecayResult d;
        FrequencyResult f;
        PairsResult p;
        try {
            h = computeHeatmap(scene);
            d = computeDecay(scene);
            f = computeFrequencies(scene);
            p = computePairs(scene);
        } catch (...) {
            QFAIL("a compute function threw");
        }
        for (const auto& panel : h.panels) QVERIFY(!panel.error.isEmpty() && panel.values.size() == 0);
        // The decay and frequencies do not depend on N: they refuse a configuration that does not
        // validate (configProblem), each with its own message.
        for (int c = 0; c < int(d.series.size()); ++c) {
            const bool bad = bool(configProblem(scene, c));
            QCOMPARE(!d.series[std::size_t(c)].error.isEmpty(), bad);
            QCOMPARE(!f.configs[std::size_t(c)].error.isEmpty(), bad);
            if (bad) QVERIFY(d.series[std::size_t(c)].value.empty());
        }
        for (const auto& c : p.configs) QVERIFY(!c.error.isEmpty() && c.pairs.empty());
        for (const auto& panel : h.panels) QVERIFY(!panel.error.contains(QLatin1Char('\n')));
    }
};

QTEST_APPLESS_MAIN(TestCompute)
#include "test_compute.moc"
