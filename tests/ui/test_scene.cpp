// Scene: the one front door. Every edit is one undo command and one `changed` signal;
// consecutive edits of one field merge (a slider drag is one undo step) until finishMerge();
// setParams loads without history; SceneParams is a value with working equality.
#include "ui/model/scene.h"

#include <QSignalSpy>
#include <QtTest>

using namespace poslab;
using namespace poslab::ui;

class TestScene : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void defaultsAreTheDefaultScene() {
        const SceneParams s;
        QCOMPARE(s.methods.size(), std::size_t{1});
        QCOMPARE(s.methods[0].params.method, Method::Rope);
        QCOMPARE(s.methods[0].params.dim, 64);
        QCOMPARE(s.methods[0].params.rope.base, 10000.0);
        QCOMPARE(s.length, std::int64_t{64});
        QCOMPARE(s.methods[0].params.content, Content::Ones);
        QVERIFY(!sceneProblem(s));
        QCOMPARE(effectivePairs(s, 0), (std::vector<int>{0, 10, 21, 31}));
    }

    void equalityComparesEveryField_data() {
        QTest::addColumn<int>("which");
        const char* names[] = {"rope_base", "rope_factor", "rope_long_factor", "xpos_scale_base", "sin_layout",
                               "t5_buckets", "alibi_heads", "label", "length", "positions", "view_softmax",
                               "view_theme", "preset", "content_seed"};
        for (int i = 0; i < 14; ++i) QTest::newRow(names[i]) << i;
    }
    void equalityComparesEveryField() {
        QFETCH(int, which);
        SceneParams a, b;
        QVERIFY(a == b);
        auto& p = b.methods[0].params;
        switch (which) {
        case 0: p.rope.base = 500000; break;
        case 1: p.rope.factor = 8.0; break;
        case 2: p.rope.long_factor = {1.0, 2.0}; break;
        case 3: p.xpos.scale_base = 256; break;
        case 4: p.sinusoidal.layout = SinusoidalLayout::Concat; break;
        case 5: p.t5.num_buckets = 64; break;
        case 6: p.alibi.heads = 12; break;
        case 7: b.methods[0].label = QStringLiteral("x"); break;
        case 8: b.length = 65; break;
        case 9: b.positions.push_back(50); break;
        case 10: b.view.softmax = true; break;
        case 11: b.view.theme = QStringLiteral("dark"); break;
        case 12: b.presetKey = QStringLiteral("llama"); break;
        case 13: p.seed = 7; break;
        }
        QVERIFY(a != b);
        SceneParams c = b;
        QVERIFY(c == b);
    }

    void editEmitsOneChangedAndIsUndoable() {
        Scene scene;
        QSignalSpy spy(&scene, &Scene::changed);
        scene.editActive(QStringLiteral("Base"), QStringLiteral("base"), [](MethodConfig& c) { c.params.rope.base = 500000; });
        QCOMPARE(spy.count(), 1);
        QCOMPARE(scene.params().methods[0].params.rope.base, 500000.0);
        QCOMPARE(scene.undoStack()->count(), 1);
        scene.undoStack()->undo();
        QCOMPARE(spy.count(), 2);
        QCOMPARE(scene.params().methods[0].params.rope.base, 10000.0);
        scene.undoStack()->redo();
        QCOMPARE(spy.count(), 3);
        QCOMPARE(scene.params().methods[0].params.rope.base, 500000.0);
    }

    void noOpEditIsNotRecorded() {
        Scene scene;
        QSignalSpy spy(&scene, &Scene::changed);
        scene.editActive(QStringLiteral("Dim"), QStringLiteral("dim"), [](MethodConfig& c) { c.params.dim = 64; });
        QCOMPARE(spy.count(), 0);
        QCOMPARE(scene.undoStack()->count(), 0);
    }

    void sliderDragMergesIntoOneStep_data() {
        QTest::addColumn<int>("ticks");
        QTest::newRow("ticks2") << 2;
        QTest::newRow("ticks300") << 300;
    }
    void sliderDragMergesIntoOneStep() {
        QFETCH(int, ticks);
        Scene scene;
        QSignalSpy spy(&scene, &Scene::changed);
        for (int i = 1; i <= ticks; ++i)
            scene.editActive(QStringLiteral("Dim"), QStringLiteral("dim"), [&](MethodConfig& c) { c.params.dim = 64 + 2 * i; });
        QCOMPARE(spy.count(), ticks);              // every tick is shown live
        QCOMPARE(scene.undoStack()->count(), 1);   // but undo is one step
        QCOMPARE(scene.params().methods[0].params.dim, 64 + 2 * ticks);
        scene.undoStack()->undo();
        QCOMPARE(scene.params().methods[0].params.dim, 64);
    }

    void finishMergeStartsANewStep() {
        Scene scene;
        scene.editActive(QStringLiteral("Dim"), QStringLiteral("dim"), [](MethodConfig& c) { c.params.dim = 66; });
        scene.editActive(QStringLiteral("Dim"), QStringLiteral("dim"), [](MethodConfig& c) { c.params.dim = 68; });
        scene.finishMerge();
        scene.editActive(QStringLiteral("Dim"), QStringLiteral("dim"), [](MethodConfig& c) { c.params.dim = 70; });
        QCOMPARE(scene.undoStack()->count(), 2);
        scene.undoStack()->undo();
        QCOMPARE(scene.params().methods[0].params.dim, 68);
    }

    void differentFieldsDoNotMerge() {
        Scene scene;
        scene.editActive(QStringLiteral("Dim"), QStringLiteral("dim"), [](MethodConfig& c) { c.params.dim = 66; });
        scene.editActive(QStringLiteral("Base"), QStringLiteral("base"), [](MethodConfig& c) { c.params.rope.base = 20000; });
        scene.editActive(QStringLiteral("Dim"), QStringLiteral("dim"), [](MethodConfig& c) { c.params.dim = 68; });
        QCOMPARE(scene.undoStack()->count(), 3);
    }

    void dragBackToStartLeavesNoStep() {
        Scene scene;
        scene.editActive(QStringLiteral("Dim"), QStringLiteral("dim"), [](MethodConfig& c) { c.params.dim = 66; });
        scene.editActive(QStringLiteral("Dim"), QStringLiteral("dim"), [](MethodConfig& c) { c.params.dim = 64; });
        QCOMPARE(scene.undoStack()->count(), 0);
        QCOMPARE(scene.params(), SceneParams{});
    }

    void setParamsLoadsWithoutHistory() {
        Scene scene;
        scene.editActive(QStringLiteral("Dim"), QStringLiteral("dim"), [](MethodConfig& c) { c.params.dim = 66; });
        SceneParams loaded;
        loaded.length = 1024;
        loaded.methods[0].params.method = Method::Alibi;
        QSignalSpy spy(&scene, &Scene::changed);
        scene.setParams(loaded);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(scene.params(), loaded);
        QCOMPARE(scene.undoStack()->count(), 0);
    }

    // A preview (an animation frame) is shown, follows edits, undo and redo of the scene under
    // it, and leaves neither an undo step nor a trace when cleared.
    void previewIsShownButNeverCommitted() {
        Scene scene;
        QSignalSpy changed(&scene, &Scene::changed);
        scene.setPreview([](const SceneParams& s) {
            SceneParams f = s;
            f.positions = {5};
            return f;
        });
        QCOMPARE(changed.count(), 1);
        QVERIFY(scene.previewing());
        QCOMPARE(scene.params().positions, (Positions{5}));
        QCOMPARE(scene.committed(), SceneParams{});
        QCOMPARE(scene.undoStack()->count(), 0);
        scene.edit(QStringLiteral("length"), QString(), [](SceneParams& s) { s.length = 20; });
        QCOMPARE(changed.count(), 2);
        QCOMPARE(scene.params().length, std::int64_t{20});
        QCOMPARE(scene.params().positions, (Positions{5}));
        QCOMPARE(scene.committed().positions, SceneParams{}.positions);
        scene.undoStack()->undo();
        QCOMPARE(scene.params().length, std::int64_t{64});
        QCOMPARE(scene.params().positions, (Positions{5}));
        scene.undoStack()->redo();
        scene.clearPreview();
        QCOMPARE(changed.count(), 5);
        QVERIFY(!scene.previewing());
        SceneParams expected;
        expected.length = 20;
        QCOMPARE(scene.params(), expected);
        QCOMPARE(scene.undoStack()->count(), 1);
        scene.clearPreview();   // nothing to clear: no signal
        QCOMPARE(changed.count(), 5);
    }

    void compareAddRemove() {
        Scene scene;
        scene.addConfig();
        QCOMPARE(scene.params().methods.size(), std::size_t{2});
        QCOMPARE(scene.activeConfig(), 1);
        scene.editActive(QStringLiteral("Scaling"), QString(), [](MethodConfig& c) { c.params.rope.scaling = RopeScaling::Yarn; });
        QCOMPARE(scene.params().methods[0].params.rope.scaling, RopeScaling::None);
        QCOMPARE(scene.params().methods[1].params.rope.scaling, RopeScaling::Yarn);
        QCOMPARE(configTitle(scene.params(), 1), QStringLiteral("B: RoPE + YaRN"));
        for (int i = 0; i < 10; ++i) scene.addConfig();
        QCOMPARE(static_cast<int>(scene.params().methods.size()), kMaxConfigs);
        scene.removeConfig(0);
        QCOMPARE(static_cast<int>(scene.params().methods.size()), kMaxConfigs - 1);
        QCOMPARE(scene.params().methods[0].params.rope.scaling, RopeScaling::Yarn);
        scene.undoStack()->undo();
        QCOMPARE(static_cast<int>(scene.params().methods.size()), kMaxConfigs);
    }

    void effectiveParamsAppliesSceneWideChoices() {
        SceneParams s;
        s.methods[0].params.method = Method::Alibi;
        s.methods[0].params.alibi.heads = 4;
        s.head = 9;
        s.view.causal = true;
        s.view.softmax = true;
        const auto p = effectiveParams(s, 0);
        QCOMPARE(p.head, 3);   // clamped to the head count
        QVERIFY(p.causal);
        QVERIFY(p.softmax);
    }

    void sceneProblemUsesTheCoresMessage() {
        SceneParams s;
        s.methods[0].params.dim = 63;
        const auto e = sceneProblem(s);
        QVERIFY(e.has_value());
        QCOMPARE(*e, QString::fromStdString(effectiveParams(s, 0).validate()->message()));
        s.methods[0].params.dim = 64;
        s.positions = {0, 64};   // past N: left out of the pair view, not an error
        QVERIFY(!sceneProblem(s).has_value());
        s.positions = {0, -1};
        QVERIFY(sceneProblem(s).has_value());
        QVERIFY(sceneProblem(s)->startsWith(QStringLiteral("positions")));
    }

    void parsePositions_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("expected");
        QTest::newRow("list_0_1_8") << "0,1,8" << true << "0,1,8";
        QTest::newRow("range_0_4") << "0:4" << true << "0,1,2,3";
        QTest::newRow("mixed_0_2_and_10") << "0:2, 10" << true << "0,1,10";
        QTest::newRow("negative") << "-1" << false << "";
        QTest::newRow("letters") << "a,b" << false << "";
        QTest::newRow("empty") << "" << false << "";
        QTest::newRow("range_too_long_0_1000") << "0:1000" << false << "";
        QTest::newRow("reversed_range_5_2") << "5:2" << false << "";
    }
    void parsePositions() {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(QString, expected);
        const auto p = ui::parsePositions(text);
        QCOMPARE(p.has_value(), ok);
        if (ok) QCOMPARE(positionsText(*p), expected);
    }

    void defaultPairsSpanFrequencies_data() {
        QTest::addColumn<int>("count");
        QTest::addColumn<QString>("expected");
        QTest::newRow("count1") << 1 << "0";
        QTest::newRow("count3") << 3 << "0,1,2";
        QTest::newRow("count32") << 32 << "0,10,21,31";
        QTest::newRow("count64") << 64 << "0,21,42,63";
    }
    void defaultPairsSpanFrequencies() {
        QFETCH(int, count);
        QFETCH(QString, expected);
        QStringList parts;
        for (int i : defaultPairs(count)) parts << QString::number(i);
        QCOMPARE(parts.join(QLatin1Char(',')), expected);
    }
};

QTEST_MAIN(TestScene)
#include "test_scene.moc"
