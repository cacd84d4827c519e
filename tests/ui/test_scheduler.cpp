// Scheduler: results equal the synchronous computations, newest wins (a burst of requests
// computes far fewer jobs than requests and ends on the newest), results arrive in order,
// unchanged views are not recomputed, and views compute at display resolution.
#include "ui/render/pairsrenderer.h"
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
        // 100 positions on 40 pixels: blocks of 3 positions, 34 of them (the last one a single position).
        QCOMPARE(static_cast<int>(got.panels[0].keys.size()), 34);
        QCOMPARE(got.panels[0].keyRanges.back(), (PositionRange{99, 100}));
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

    // With a RenderSpec the workers draw each view's picture: at the view's size × device pixel
    // ratio, in its theme, and exactly what the renderer draws; views without a size get none.
    void picturesAreTheRenderersDrawing_data() {
        QTest::addColumn<double>("dpr");
        QTest::addColumn<QString>("theme");
        QTest::newRow("dpr1_light") << 1.0 << QStringLiteral("light");
        QTest::newRow("dpr2_dark") << 2.0 << QStringLiteral("dark");
        QTest::newRow("dpr1.5_projector") << 1.5 << QStringLiteral("projector");
    }
    void picturesAreTheRenderersDrawing() {
        QFETCH(double, dpr);
        QFETCH(QString, theme);
        Scheduler s;
        RenderSpec r;
        r.pairs = QSize(420, 300);
        r.heatmap = QSize(300, 260);   // frequencies: no size, no picture
        r.devicePixelRatio = dpr;
        r.theme = themeByName(theme);
        s.setRender(r);
        PairsResult pairs;
        HeatmapResult heat;
        FrequencyResult freqs;
        connect(&s, &Scheduler::pairsReady, this, [&](const PairsResult& x) { pairs = x; });
        connect(&s, &Scheduler::heatmapReady, this, [&](const HeatmapResult& x) { heat = x; });
        connect(&s, &Scheduler::frequenciesReady, this, [&](const FrequencyResult& x) { freqs = x; });
        s.request(SceneParams{});
        QVERIFY(s.waitIdle());
        QCOMPARE(pairs.picture.image.size(), pictureSize(r.pairs, dpr));
        QCOMPARE(pairs.picture.image.devicePixelRatio(), dpr);
        QCOMPARE(pairs.picture.theme, themeKey(r.theme));
        QCOMPARE(heat.picture.image.size(), pictureSize(r.heatmap, dpr));
        QVERIFY(freqs.picture.image.isNull());
        QVERIFY(!freqs.configs.empty());
        QImage direct(pictureSize(r.pairs, dpr), QImage::Format_RGB32);
        direct.setDevicePixelRatio(dpr);
        {
            QPainter p(&direct);
            renderPairs(p, QRectF(QPointF(0, 0), QSizeF(r.pairs)), pairs, r.theme);
        }
        QVERIFY(pairs.picture.image == direct);
    }

    // A view's size and theme are inputs of its picture: a change recomputes the views it
    // concerns, and only those.
    void renderChangesRecomputeOnlyTheirViews() {
        Scheduler s;
        RenderSpec r;
        r.pairs = QSize(400, 300);
        r.heatmap = QSize(300, 300);
        r.frequencies = QSize(300, 200);
        s.setRender(r);
        int pairs = 0, heatmaps = 0, decays = 0, freqs = 0;
        connect(&s, &Scheduler::pairsReady, this, [&](const PairsResult&) { ++pairs; });
        connect(&s, &Scheduler::heatmapReady, this, [&](const HeatmapResult&) { ++heatmaps; });
        connect(&s, &Scheduler::decayReady, this, [&](const DecayResult&) { ++decays; });
        connect(&s, &Scheduler::frequenciesReady, this, [&](const FrequencyResult&) { ++freqs; });
        s.request(SceneParams{});
        QVERIFY(s.waitIdle());
        QCOMPARE(pairs + heatmaps + decays + freqs, 4);
        r.pairs = QSize(500, 300);   // the pair view was resized: it is drawn again, alone
        s.setRender(r);
        QVERIFY(s.waitIdle());
        QCOMPARE(pairs, 2);
        QCOMPARE(heatmaps + decays + freqs, 3);
        s.setRender(r);              // no change: nothing
        QVERIFY(s.waitIdle());
        QCOMPARE(pairs + heatmaps + decays + freqs, 5);
        r.theme = themeByName(QStringLiteral("dark"));   // every picture changes; the decay has none
        s.setRender(r);
        QVERIFY(s.waitIdle());
        QCOMPARE(pairs, 3);
        QCOMPARE(heatmaps, 2);
        QCOMPARE(freqs, 2);
        QCOMPARE(decays, 1);
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
        // At most `cells` values per axis: equal blocks of ceil(N / cells) positions tiling 0..N−1.
        const auto step = (length + cells - 1) / cells;
        const auto expected = (length + step - 1) / step;
        QVERIFY(expected <= cells);
        QCOMPARE(static_cast<qint64>(r.panels[0].values.rows()), expected);
        QCOMPARE(static_cast<qint64>(r.panels[0].values.cols()), expected);
        QCOMPARE(static_cast<qint64>(r.panels[0].queryRanges.size()), expected);
        QCOMPARE(r.panels[0].queryRanges.front().from, std::int64_t{0});
        QCOMPARE(r.panels[0].queryRanges.back().to, std::int64_t{length});
        QCOMPARE(r.panels[0].cells, length <= cells ? HeatmapCells::Exact : HeatmapCells::Sample);
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
