// Scheduler: results equal the synchronous computations, newest wins (a burst of requests
// computes far fewer jobs than requests and ends on the newest), results arrive in order,
// unchanged views are not recomputed, and views compute at display resolution.
#include "ui/scheduler.h"

#include <QSignalSpy>
#include <QtTest>

using namespace poslab;
using namespace poslab::ui;

class TestScheduler : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void resultsEqualDirectComputation() {
        Scheduler s;
        DisplaySpec d;
        d.heatmapCells = 40;
        s.setDisplay(d);
        SceneParams scene;
        scene.length = 100;
        HeatmapResult got;
        connect(&s, &Scheduler::heatmapReady, this, [&](const HeatmapResult& r) { got = r; });
        const auto g = s.request(scene);
        QVERIFY(s.waitIdle());
        QCOMPARE(got.generation, g);
        const HeatmapResult direct = computeHeatmap(scene, d);
        QCOMPARE(got.panels.size(), direct.panels.size());
        QCOMPARE(got.panels[0].queries, direct.panels[0].queries);
        QVERIFY(got.panels[0].values == direct.panels[0].values);
        QCOMPARE(static_cast<int>(got.panels[0].keys.size()), 40);
    }

    void newestWinsAndOrderIsKept() {
        Scheduler s;
        SceneParams scene;
        scene.length = 2048;
        scene.methods[0].params.dim = 128;
        std::vector<std::uint64_t> delivered;
        std::vector<int> dims;
        connect(&s, &Scheduler::heatmapReady, this, [&](const HeatmapResult& r) { delivered.push_back(r.generation); });
        connect(&s, &Scheduler::frequenciesReady, this, [&](const FrequencyResult& r) { dims.push_back(static_cast<int>(r.configs[0].after.size()) * 2); });
        std::uint64_t last = 0;
        for (int i = 0; i < 50; ++i) {
            scene.methods[0].params.dim = 128 + 2 * i;
            last = s.request(scene);
        }
        QVERIFY(s.waitIdle(30000));
        QVERIFY(!delivered.empty());
        QCOMPARE(delivered.back(), last);
        QVERIFY(std::is_sorted(delivered.begin(), delivered.end()));
        QVERIFY2(delivered.size() <= 3, "superseded requests must not be computed");
        QCOMPARE(dims.back(), 128 + 2 * 49);
    }

    void unchangedViewsAreNotRecomputed() {
        Scheduler s;
        SceneParams scene;
        int heatmaps = 0, decays = 0;
        connect(&s, &Scheduler::heatmapReady, this, [&](const HeatmapResult&) { ++heatmaps; });
        connect(&s, &Scheduler::decayReady, this, [&](const DecayResult&) { ++decays; });
        s.request(scene);
        QVERIFY(s.waitIdle());
        QCOMPARE(heatmaps, 1);
        QCOMPARE(decays, 1);
        scene.view.decayMaxDistance = 1000;   // decay only
        s.request(scene);
        QVERIFY(s.waitIdle());
        QCOMPARE(heatmaps, 1);
        QCOMPARE(decays, 2);
        scene.view.theme = QStringLiteral("dark");  // look only: nothing to compute
        s.request(scene);
        QVERIFY(s.waitIdle());
        QCOMPARE(heatmaps, 1);
        QCOMPARE(decays, 2);
    }

    void hiddenViewsAreNotComputed() {
        Scheduler s;
        SceneParams scene;
        scene.view.showHeatmap = false;
        int heatmaps = 0;
        connect(&s, &Scheduler::heatmapReady, this, [&](const HeatmapResult&) { ++heatmaps; });
        s.request(scene);
        QVERIFY(s.waitIdle());
        QCOMPARE(heatmaps, 0);
        scene.view.showHeatmap = true;
        s.request(scene);
        QVERIFY(s.waitIdle());
        QCOMPARE(heatmaps, 1);
    }

    void displayResolution_data() {
        QTest::addColumn<qint64>("length");
        QTest::addColumn<int>("cells");
        QTest::newRow("N65536_cells600") << qint64(65536) << 600;
        QTest::newRow("N8192_cells512") << qint64(8192) << 512;
        QTest::newRow("N100_cells600") << qint64(100) << 600;
    }
    void displayResolution() {
        QFETCH(qint64, length);
        QFETCH(int, cells);
        SceneParams scene;
        scene.length = length;
        DisplaySpec d;
        d.heatmapCells = cells;
        const HeatmapResult r = computeHeatmap(scene, d);
        QVERIFY2(r.panels[0].error.isEmpty(), qPrintable(r.panels[0].error));
        const auto expected = std::min<qint64>(length, cells);
        QCOMPARE(static_cast<qint64>(r.panels[0].values.rows()), expected);
        QCOMPARE(static_cast<qint64>(r.panels[0].values.cols()), expected);
        QCOMPARE(r.panels[0].queries.front(), std::int64_t{0});
        QCOMPARE(r.panels[0].queries.back(), std::int64_t{length - 1});
    }

    void samplePositions_data() {
        QTest::addColumn<qint64>("n");
        QTest::addColumn<int>("count");
        QTest::newRow("n10_count20") << qint64(10) << 20;
        QTest::newRow("n1000_count7") << qint64(1000) << 7;
        QTest::newRow("n65536_count600") << qint64(65536) << 600;
        QTest::newRow("n1_count1") << qint64(1) << 1;
    }
    void samplePositions() {
        QFETCH(qint64, n);
        QFETCH(int, count);
        const auto p = ui::samplePositions(n, count);
        QCOMPARE(static_cast<qint64>(p.size()), std::min<qint64>(n, count));
        QCOMPARE(p.front(), std::int64_t{0});
        QCOMPARE(p.back(), std::int64_t{n - 1});
        QVERIFY(std::adjacent_find(p.begin(), p.end(), [](auto a, auto b) { return b <= a; }) == p.end());
    }
};

QTEST_MAIN(TestScheduler)
#include "test_scheduler.moc"
