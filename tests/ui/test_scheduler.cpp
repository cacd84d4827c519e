// Scheduler: results equal the synchronous computations, newest wins (a burst of requests
// computes far fewer jobs than requests and ends on the newest), results arrive in order,
// unchanged views are not recomputed (each declared scene and view parameter recomputes exactly
// the views that read it), views compute at display resolution, and a sampled heatmap
// is refined to its exact blocks on a worker.
#include "ui/render/contributionsrenderer.h"
#include "ui/render/decayrenderer.h"
#include "ui/render/frequencyrenderer.h"
#include "ui/render/heatmaprenderer.h"
#include "ui/render/pairsrenderer.h"
#include "ui/render/precisionrenderer.h"
#include "ui/views/scheduler.h"

#include <QSignalSpy>
#include <QtTest>

#include <algorithm>
#include <map>

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
        connect(&s, &Scheduler::heatmapReady, this, [&](const Shared<HeatmapResult>& r_) { const HeatmapResult& r = *r_; got = r; });
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
        connect(&s, &Scheduler::heatmapReady, this, [&](const Shared<HeatmapResult>& r_) { const HeatmapResult& r = *r_; delivered.push_back(r.generation); });
        connect(&s, &Scheduler::frequenciesReady, this, [&](const Shared<FrequencyResult>& r_) { const FrequencyResult& r = *r_; dims.push_back(static_cast<int>(r.configs[0].after.size()) * 2); });
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

    // Progressive refinement: content-dependent scores past the window's work budget are sampled
    // first (labelled as samples), then replaced by the exact blocks computed on a worker.
    static DisplaySpec refiningDisplay() {
        DisplaySpec d;
        d.heatmapCells = 64;
        d.heatmapWork = std::int64_t{1} << 20;        // 1024² cells · (16 + …): samples first
        d.heatmapRefineWork = std::int64_t{1} << 26;  // within this: the exact blocks
        return d;
    }
    static SceneParams refiningScene(std::uint64_t seed) {
        SceneParams scene;
        scene.length = 1024;
        auto& p = scene.methods[0].params;
        p.method = Method::Rope;
        p.dim = 16;
        p.content = Content::Random;
        p.seed = seed;
        return scene;
    }

    void heatmapRefinesSamplesToExactBlocks() {
        Scheduler s;
        s.setDisplay(refiningDisplay());
        const SceneParams scene = refiningScene(1);
        std::vector<HeatmapResult> got;
        connect(&s, &Scheduler::heatmapReady, this, [&](const Shared<HeatmapResult>& r_) { const HeatmapResult& r = *r_; got.push_back(r); });
        const auto g = s.request(scene);
        QVERIFY(s.waitIdle());
        QTRY_COMPARE_WITH_TIMEOUT(got.size(), std::size_t(2), 20000);
        QCOMPARE(got[0].generation, g);
        QCOMPARE(got[1].generation, g);
        QCOMPARE(got[0].panels[0].cells, HeatmapCells::Sample);
        QCOMPARE(got[1].panels[0].cells, HeatmapCells::Aggregate);
        // The exact blocks: what computeHeatmap gives with the larger budget.
        DisplaySpec exact = refiningDisplay();
        exact.heatmapWork = exact.heatmapRefineWork;
        const HeatmapResult direct = computeHeatmap(scene, exact);
        QCOMPARE(direct.panels[0].cells, HeatmapCells::Aggregate);
        QVERIFY(got[1].panels[0].values == direct.panels[0].values);
        QTest::qWait(300);
        QCOMPARE(got.size(), std::size_t(2));   // nothing more
    }

    void heatmapRefinementGivesWayToNewerRequests() {
        Scheduler s;
        s.setDisplay(refiningDisplay());
        std::vector<HeatmapResult> got;
        std::uint64_t newer = 0;
        connect(&s, &Scheduler::heatmapReady, this, [&](const Shared<HeatmapResult>& r_) { const HeatmapResult& r = *r_;
            got.push_back(r);
            // The first samples shown: the user edits at once (a newer heatmap is asked for
            // before the refinement of the first could be shown).
            if (got.size() == 1) newer = s.request(refiningScene(2));
        });
        const auto first = s.request(refiningScene(1));
        QTRY_COMPARE_WITH_TIMEOUT(got.size(), std::size_t(3), 20000);
        QTest::qWait(300);
        QCOMPARE(got.size(), std::size_t(3));
        QCOMPARE(got[0].generation, first);
        QCOMPARE(got[0].panels[0].cells, HeatmapCells::Sample);
        QCOMPARE(got[1].generation, newer);
        QCOMPARE(got[1].panels[0].cells, HeatmapCells::Sample);
        QCOMPARE(got[2].generation, newer);
        QCOMPARE(got[2].panels[0].cells, HeatmapCells::Aggregate);
    }

    void heatmapWithoutRefinementStaysSampled() {
        Scheduler s;
        DisplaySpec d = refiningDisplay();
        d.heatmapRefineWork = 0;
        s.setDisplay(d);
        int count = 0;
        connect(&s, &Scheduler::heatmapReady, this, [&](const Shared<HeatmapResult>& r_) { const HeatmapResult& r = *r_;
            ++count;
            QCOMPARE(r.panels[0].cells, HeatmapCells::Sample);
        });
        s.request(refiningScene(1));
        QVERIFY(s.waitIdle());
        QTest::qWait(300);
        QCOMPARE(count, 1);
    }

    void unchangedViewsAreNotRecomputed() {
        Scheduler s;
        SceneParams scene;
        int heatmaps = 0, decays = 0;
        connect(&s, &Scheduler::heatmapReady, this, [&](const Shared<HeatmapResult>&) { ++heatmaps; });
        connect(&s, &Scheduler::decayReady, this, [&](const Shared<DecayResult>&) { ++decays; });
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

    // ---- Each declared parameter recomputes exactly the views that read it ----------------------
private:

    // What each view reads of the scene (from ui/model/compute.cpp): written out here, not taken
    // from the declarations, so that a declaration that forgets a reader fails. A parameter that
    // no view computes from (the look, the preset's name) recomputes nothing: the window passes
    // the theme and text size to the scheduler as the pictures' RenderSpec.
    static QStringList readersOf(const QString& name) {
        static const QStringList every = {"pairs", "heatmap", "decay", "frequencies", "contributions", "precision"};
        static const std::map<QString, QStringList> readers = {
            {"length", every},   // the sequence; dynamic NTK's factors; a q/k file at least N long
            {"q_file", every},
            {"k_file", every},
            {"positions", {"pairs"}},
            {"pairs", {"pairs", "precision"}},
            {"head", {"pairs", "heatmap", "decay"}},
            {"preset", {}},
            {"softmax", {"heatmap", "decay", "precision"}},
            {"causal", {"heatmap", "decay", "precision"}},
            {"colormap", {"heatmap"}},
            {"show_difference", {"heatmap"}},
            {"link_color_ranges", {"heatmap"}},
            {"aggregate", {"heatmap", "precision"}},   // "Pixel shows"
            {"heatmap_square_cells", {"heatmap"}},
            {"decay_max_distance", {"decay", "contributions"}},
            {"decay_log_x", {"decay"}},
            {"decay_log_y", {"decay"}},
            {"decay_show_bound", {"decay"}},
            // The token layout (multimodal positions): each token rotated by its own ids in the
            // heatmap and the decay; the frequency view colours each frequency by its axis.
            {"mrope.tokens", {"heatmap", "decay", "frequencies"}},
            {"mrope.model", {"heatmap", "decay", "frequencies"}},
            {"mrope.merge", {"heatmap", "decay", "frequencies"}},
            {"mrope.tokens_per_second", {"heatmap", "decay", "frequencies"}},
            {"mrope.second_per_grid", {"heatmap", "decay", "frequencies"}},
            // Each configuration's sections (methodParamTable): the same three views.
            {"mrope.mrope_section", {"heatmap", "decay", "frequencies"}},
            {"mrope.mrope_layout", {"heatmap", "decay", "frequencies"}},
            // The vision decay's (drawn on the GUI thread beside the positions): no scheduled view.
            {"vision.vision", {}},
            {"vision.grid", {}},
            {"vision.head_dim", {}},
            {"vision.base", {}},
            {"vision.patch", {}},
            {"heatmap_query_from", {"heatmap"}},
            {"heatmap_query_to", {"heatmap"}},
            {"heatmap_key_from", {"heatmap"}},
            {"heatmap_key_to", {"heatmap"}},
            {"decay_from", {"decay"}},
            {"decay_to", {"decay"}},
            {"show_pairs", {"pairs"}},
            {"show_heatmap", {"heatmap"}},
            {"show_decay", {"decay"}},
            {"show_frequencies", {"frequencies"}},
            {"show_contributions", {"contributions"}},
            {"show_precision", {"precision"}},
            {"show_layers", {}},
            {"theme", {}},
            {"font_scale", {}},
        };
        const auto it = readers.find(name);
        return it == readers.end() ? QStringList{QStringLiteral("(no row for this parameter)")} : it->second;
    }

    // The scenes the parameters are changed in: RoPE with dynamic NTK scaling past its context
    // (the factors follow N); two RoPE configurations (compare mode: difference panel, colour
    // ranges); ALiBi (the head matters). Every view shown.
    static SceneParams readersScene(const QString& base) {
        SceneParams s;
        s.length = 48;
        s.view.showContributions = s.view.showPrecision = true;
        s.view.decayMaxDistance = 60;
        auto& p = s.methods[0].params;
        p.dim = 16;
        if (base == QLatin1String("alibi")) {
            p.method = Method::Alibi;
            p.alibi.heads = 8;
            return s;
        }
        p.rope.scaling = RopeScaling::Dynamic;
        p.rope.factor = 2;
        p.rope.max_positions = 32;
        if (base == QLatin1String("compare")) {
            s.methods.push_back(s.methods[0]);
            s.methods[1].params.rope.base = 500;
        }
        return s;
    }

    // A different valid value of the parameter: a switch flipped, the next choice, else a value
    // of its own.
    template <class S>
    static void changeParam(const Param<S>& p, S& s) {
        static const std::map<std::string_view, std::string_view> values = {
            {"length", "56"}, {"positions", "3,5"}, {"pairs", "1"}, {"head", "3"}, {"preset", "bloom"},
            {"q_file", "/nonexistent/q.npy"}, {"k_file", "/nonexistent/k.npy"}, {"decay_max_distance", "40"},
            {"heatmap_query_from", "8"}, {"heatmap_query_to", "40"}, {"heatmap_key_from", "4"}, {"heatmap_key_to", "30"},
            {"decay_from", "5"}, {"decay_to", "30"}, {"theme", "dark"}, {"font_scale", "1.5"},
            // The token layout: 48 text tokens (the scene's N), the rule's other numbers.
            {"tokens", "text:48"}, {"merge", "1"}, {"tokens_per_second", "4"}, {"second_per_grid", "0.5"}, {"mrope_section", "2,3,3"},
            // The vision decay.
            {"grid", "1x4x4"}, {"head_dim", "16"}, {"base", "500"}, {"patch", "1,2"}};
        const ParamValue now = p.get(s);
        ParamValue v;
        if (p.info.kind == ParamKind::Bool) {
            v = !std::get<bool>(now);
        } else if (p.info.kind == ParamKind::Choice) {
            const auto& c = p.info.choices;
            const auto at = std::find(c.begin(), c.end(), std::get<std::string>(now));
            v = std::string(at == c.end() || at + 1 == c.end() ? c.front() : *(at + 1));
        } else {
            const auto it = values.find(p.info.name);
            QVERIFY2(it != values.end(), qPrintable(QString::fromUtf8(p.info.name.data(), qsizetype(p.info.name.size()))));
            auto r = parseParamText(p.info, it->second);
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().message().c_str());
            v = r.value();
        }
        QVERIFY(v != now);
        p.set(s, v);
    }

    // The views a request after `before` recomputed.
    static QStringList recomputed(const SceneParams& before, const SceneParams& after) {
        Scheduler s;
        QStringList out;
        s.request(before);
        if (!s.waitIdle(30000)) return {QStringLiteral("(timeout)")};
        connect(&s, &Scheduler::pairsReady, &s, [&] { out << QStringLiteral("pairs"); });
        connect(&s, &Scheduler::heatmapReady, &s, [&] { out << QStringLiteral("heatmap"); });
        connect(&s, &Scheduler::decayReady, &s, [&] { out << QStringLiteral("decay"); });
        connect(&s, &Scheduler::frequenciesReady, &s, [&] { out << QStringLiteral("frequencies"); });
        connect(&s, &Scheduler::contributionsReady, &s, [&] { out << QStringLiteral("contributions"); });
        connect(&s, &Scheduler::precisionReady, &s, [&] { out << QStringLiteral("precision"); });
        s.request(after);
        if (!s.waitIdle(30000)) out << QStringLiteral("(timeout)");
        out.sort();
        return out;
    }

    // The view's picture of the scene, as its renderer draws it.
    static QImage viewPicture(const QString& view, const SceneParams& scene) {
        DisplaySpec d;
        QImage img(360, 240, QImage::Format_RGB32);
        img.fill(Qt::white);
        QPainter p(&img);
        const QRectF r(0, 0, 360, 240);
        const Theme t = themeByName(QStringLiteral("light"), 1.0);
        if (view == QLatin1String("pairs")) renderPairs(p, r, computePairs(scene, d), t);
        else if (view == QLatin1String("heatmap")) renderHeatmap(p, r, computeHeatmap(scene, d), t);
        else if (view == QLatin1String("decay")) renderDecay(p, r, computeDecay(scene, d), t);
        else if (view == QLatin1String("frequencies")) renderFrequencies(p, r, computeFrequencies(scene), t);
        else if (view == QLatin1String("contributions")) renderContributions(p, r, computeContributions(scene, d), t);
        else renderPrecision(p, r, computePrecision(scene, d), t);
        return img;
    }

    template <class S>
    static void addReaderRows(const ParamTable<S>& table) {
        for (const char* base : {"rope", "compare", "alibi"})
            for (const auto& p : table) {
                const std::string path = p.path();   // "mrope.tokens" for the token layout's
                const QString name = QString::fromStdString(path);
                QTest::newRow(qPrintable(name + QLatin1Char('/') + QLatin1String(base))) << name << QString::fromLatin1(base);
            }
    }

private Q_SLOTS:
    void eachParameterRecomputesItsReaders_data() {
        QTest::addColumn<QString>("param");
        QTest::addColumn<QString>("base");
        addReaderRows(sceneParamTable());
        addReaderRows(viewParamTable());
        addReaderRows(methodParamTable());
    }

    // Every declared scene and view parameter, changed alone, recomputes the views that read it
    // and only those (a view switched on by it is computed; one switched off is not), and each
    // view that does not read it draws the same picture before and after the change.
    void eachParameterRecomputesItsReaders() {
        QFETCH(QString, param);
        QFETCH(QString, base);
        SceneParams before = readersScene(base), after = before;
        if (const auto* p = findParam(sceneParamTable(), param.toStdString())) {
            changeParam(*p, after);
        } else if (const auto* m = findParam(methodParamTable(), param.toStdString())) {
            changeParam(*m, after.methods[0]);   // the first configuration's sections
        } else {
            const auto* v = findParam(viewParamTable(), param.toStdString());
            QVERIFY(v);
            if (param.startsWith(QLatin1String("show_"))) v->set(before.view, false);   // shown by the change
            after.view = before.view;
            changeParam(*v, after.view);
        }
        if (QTest::currentTestFailed()) return;
        QStringList expected;
        const QStringList readers = readersOf(param);
        const std::map<QString, bool> shown = {
            {"pairs", after.view.showPairs}, {"heatmap", after.view.showHeatmap}, {"decay", after.view.showDecay},
            {"frequencies", after.view.showFrequencies}, {"contributions", after.view.showContributions},
            {"precision", after.view.showPrecision}};
        for (const QString& r : readers)
            if (!shown.count(r) || shown.at(r)) expected << r;
        expected.sort();
        QCOMPARE(recomputed(before, after), expected);
        for (const auto& [view, visible] : shown) {
            if (readers.contains(view)) continue;
            QVERIFY2(viewPicture(view, before) == viewPicture(view, after),
                     qPrintable(view + QStringLiteral(" reads ") + param + QStringLiteral(": its picture changed")));
        }
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
        connect(&s, &Scheduler::pairsReady, this, [&](const Shared<PairsResult>& x_) { const PairsResult& x = *x_; pairs = x; });
        connect(&s, &Scheduler::heatmapReady, this, [&](const Shared<HeatmapResult>& x_) { const HeatmapResult& x = *x_; heat = x; });
        connect(&s, &Scheduler::frequenciesReady, this, [&](const Shared<FrequencyResult>& x_) { const FrequencyResult& x = *x_; freqs = x; });
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

    // A picture no view shows any more is drawn over for a later edit (no new image, whose pages
    // the kernel would fault in and zero on every edit); one that is still shown never is, and
    // a drawn-over picture is exactly the renderer's drawing of the new result.
    void picturesAreReusedOnlyOnceReleased_data() {
        QTest::addColumn<bool>("held");
        QTest::newRow("released") << false;
        QTest::newRow("held") << true;
    }
    void picturesAreReusedOnlyOnceReleased() {
        QFETCH(bool, held);
        Scheduler s;
        RenderSpec r;
        r.pairs = QSize(420, 300);
        s.setRender(r);
        PairsResult pairs;
        connect(&s, &Scheduler::pairsReady, this, [&](const Shared<PairsResult>& x_) { const PairsResult& x = *x_; pairs = x; });
        SceneParams scene;
        s.request(scene);
        QVERIFY(s.waitIdle());
        QImage first = pairs.picture.image;
        const QImage firstCopy = first.copy();   // its own pixels, to check it is not drawn over
        const uchar* firstBits = first.constBits();
        if (!held) {
            first = QImage();
            pairs = PairsResult{};
        }
        scene.methods[0].params.rope.base = 500;   // another picture
        s.request(scene);
        QVERIFY(s.waitIdle());
        QCOMPARE(pairs.picture.image.constBits() == firstBits, !held);
        if (held) QVERIFY(first == firstCopy);
        QImage direct(pictureSize(r.pairs, 1.0), QImage::Format_RGB32);
        {
            QPainter p(&direct);
            renderPairs(p, QRectF(QPointF(0, 0), QSizeF(r.pairs)), pairs, r.theme);
        }
        QVERIFY(pairs.picture.image == direct);
        QVERIFY(pairs.picture.image != firstCopy);
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
        connect(&s, &Scheduler::pairsReady, this, [&](const Shared<PairsResult>&) { ++pairs; });
        connect(&s, &Scheduler::heatmapReady, this, [&](const Shared<HeatmapResult>&) { ++heatmaps; });
        connect(&s, &Scheduler::decayReady, this, [&](const Shared<DecayResult>&) { ++decays; });
        connect(&s, &Scheduler::frequenciesReady, this, [&](const Shared<FrequencyResult>&) { ++freqs; });
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
        connect(&s, &Scheduler::heatmapReady, this, [&](const Shared<HeatmapResult>&) { ++heatmaps; });
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
