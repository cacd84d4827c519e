// The main window as a user drives it (offscreen): every method in every view from the default
// scene, live updates from the panel's sliders, undo/redo through the Edit menu's stack, compare
// mode, presets, and that nothing shows "nan". With POSLAB_SCREENSHOT_DIR set, each case saves
// a screenshot there (how the views were looked at during development).
#include "core/presets.h"
#include "ui/mainwindow.h"
#include "ui/panel/controls.h"
#include "ui/panel/parameterpanel.h"
#include "ui/views/views.h"

#include <QComboBox>
#include <QLabel>
#include <QSlider>
#include <QSettings>
#include <QStandardPaths>
#include <QtTest>

using namespace poslab;
using namespace poslab::ui;

namespace {

// Waits until every visible view has painted the scheduler's latest results.
bool settle(MainWindow& w, int timeoutMs = 20000) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        w.scheduler()->waitIdle(timeoutMs);
        QCoreApplication::processEvents();
        const auto g = w.scheduler()->latestGeneration();
        const auto& v = w.scene()->params().view;
        bool ok = !w.scheduler()->busy();
        // A view that was skipped (inputs unchanged) keeps an older generation: compare with
        // what it holds, and require that it painted it.
        if (v.showPairs) ok = ok && w.pairsView()->paintedGeneration() == w.pairsView()->resultGeneration();
        if (v.showHeatmap) ok = ok && w.heatmapView()->paintedGeneration() == w.heatmapView()->resultGeneration();
        if (v.showDecay) ok = ok && w.decayView()->paintedGeneration() == w.decayView()->resultGeneration();
        if (v.showFrequencies) ok = ok && w.frequencyView()->paintedGeneration() == w.frequencyView()->resultGeneration();
        if (ok && g == w.scheduler()->latestGeneration()) return true;
        QTest::qWait(5);
    }
    return false;
}

void shot(QWidget& w, const QString& name) {
    const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR");
    if (dir.isEmpty()) return;
    w.grab().save(dir + QStringLiteral("/ui_") + name + QStringLiteral(".png"));
}

QString allText(const MainWindow& w) {
    QString s;
    for (const auto& c : w.findChildren<QLabel*>()) s += c->text() + QLatin1Char('\n');
    return s;
}

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("PosLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("test_mainwindow"));
        QSettings().clear();
    }

    void layoutAndLastScenePersist() {
        SceneParams edited;
        QSize size;
        {
            MainWindow w(true);
            w.resize(1300, 850);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.scene()->editActive(QStringLiteral("alibi"), QString(), [](MethodConfig& c) {
                c.params.method = Method::Alibi;
                c.params.alibi.heads = 12;
            });
            w.scene()->edit(QStringLiteral("length"), QString(), [](SceneParams& s) {
                s.length = 300;
                s.view.theme = QStringLiteral("dark");
            });
            edited = w.scene()->params();
            size = w.size();
            w.close();
        }
        MainWindow w2(true);
        QCOMPARE(w2.scene()->params(), SceneParams{});   // the default until the last scene is restored
        w2.restoreLastScene();
        QCOMPARE(w2.scene()->params(), edited);
        QCOMPARE(w2.size(), size);
        QCOMPARE(w2.scene()->undoStack()->count(), 0);
        QSettings().clear();
    }

    void defaultSceneShowsEveryView() {
        MainWindow w(false);
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(settle(w));
        QCOMPARE(w.pairsView()->result().configs.size(), std::size_t{1});
        QCOMPARE(w.pairsView()->result().configs[0].method, Method::Rope);
        QVERIFY(!w.pairsView()->result().configs[0].pairs.empty());
        QVERIFY(w.heatmapView()->result().panels[0].error.isEmpty());
        QCOMPARE(static_cast<std::int64_t>(w.heatmapView()->result().panels[0].queries.size()), std::int64_t{64});
        QVERIFY(!w.decayView()->result().series[0].value.empty());
        QVERIFY(!w.frequencyView()->result().configs[0].after.empty());
        shot(w, QStringLiteral("default"));
    }

    void everyMethodInEveryView_data() {
        QTest::addColumn<int>("method");
        for (Method m : kAllMethods) QTest::newRow(std::string(methodKey(m)).c_str()) << static_cast<int>(m);
    }
    void everyMethodInEveryView() {
        QFETCH(int, method);
        MainWindow w(false);
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(settle(w));
        auto* combo = w.panel()->methodControl();
        combo->setCurrentIndex(combo->findData(method));
        QCOMPARE(static_cast<int>(w.scene()->params().methods[0].params.method), method);
        QVERIFY(settle(w));
        const auto& pr = w.pairsView()->result().configs.at(0);
        QCOMPARE(static_cast<int>(pr.method), method);
        QVERIFY2(pr.error.isEmpty(), qPrintable(pr.error));
        const auto& hm = w.heatmapView()->result().panels.at(0);
        QVERIFY2(hm.error.isEmpty(), qPrintable(hm.error));
        for (Eigen::Index i = 0; i < hm.values.size(); ++i) QVERIFY(!std::isnan(hm.values.data()[i]));
        const auto& dc = w.decayView()->result().series.at(0);
        QVERIFY2(dc.error.isEmpty(), qPrintable(dc.error));
        for (double v : dc.value) QVERIFY(std::isfinite(v));
        QVERIFY(!allText(w).contains(QStringLiteral("nan"), Qt::CaseInsensitive));
        shot(w, QStringLiteral("method_") + QString::fromUtf8(methodKey(static_cast<Method>(method)).data()));
    }

    void dimSliderUpdatesEveryViewWhileDragging() {
        MainWindow w(false);
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(settle(w));
        auto* slider = w.panel()->dimControl()->slider();
        slider->setSliderDown(true);          // a drag in progress: valueChanged must still apply
        slider->setValue(slider->value() + 60);
        const int dim = w.scene()->params().methods[0].params.dim;
        QVERIFY(dim > 64);
        QVERIFY(settle(w));
        QCOMPARE(static_cast<int>(w.frequencyView()->result().configs[0].after.size()), dim / 2);
        QCOMPARE(w.pairsView()->result().configs[0].pairs.back().pair, dim / 2 - 1);
        slider->setValue(slider->value() + 20);
        slider->setSliderDown(false);
        QVERIFY(settle(w));
        // One drag = one undo step.
        QCOMPARE(w.scene()->undoStack()->count(), 1);
        w.scene()->undoStack()->undo();
        QCOMPARE(w.scene()->params().methods[0].params.dim, 64);
        QVERIFY(settle(w));
        QCOMPARE(static_cast<int>(w.frequencyView()->result().configs[0].after.size()), 32);
        QCOMPARE(w.panel()->dimControl()->value(), 64.0);
    }

    void compareModeWithDifference() {
        MainWindow w(false);
        w.resize(1700, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.scene()->addConfig();
        QCOMPARE(w.scene()->activeConfig(), 1);
        w.scene()->editActive(QStringLiteral("YaRN"), QString(), [](MethodConfig& c) {
            c.params.rope.scaling = RopeScaling::Yarn;
            c.params.rope.factor = 4.0;
            c.params.rope.max_positions = 64;
            c.params.rope.original_max_positions = 16;
        });
        QVERIFY(settle(w));
        const auto& hm = w.heatmapView()->result();
        QCOMPARE(hm.panels.size(), std::size_t{3});
        QVERIFY(hm.panels[2].difference);
        QVERIFY2(hm.panels[1].error.isEmpty(), qPrintable(hm.panels[1].error));
        // Linked colour range across A and B.
        QCOMPARE(hm.panels[0].lo, hm.panels[1].lo);
        QCOMPARE(hm.panels[0].hi, hm.panels[1].hi);
        // The difference is B − A, entry by entry.
        QCOMPARE(hm.panels[2].values(3, 1), hm.panels[1].values(3, 1) - hm.panels[0].values(3, 1));
        QCOMPARE(w.decayView()->result().series.size(), std::size_t{2});
        const auto& fr = w.frequencyView()->result().configs;
        QVERIFY(fr[1].scaled);
        QVERIFY(fr[1].after.back() < fr[1].before.back());   // low frequencies divided by the factor
        shot(w, QStringLiteral("compare_rope_yarn"));
    }

    void presetSetsPositionalParameters() {
        if (modelPresets().empty()) QSKIP("no presets");
        MainWindow w(false);
        w.show();
        const auto& preset = modelPresets().back();
        w.panel()->applyPreset(QString::fromStdString(preset.key));
        QCOMPARE(w.scene()->params().presetKey, QString::fromStdString(preset.key));
        QVERIFY(sameScoreParams(w.scene()->params().methods[0].params, preset.params));
        QVERIFY(settle(w));
        QVERIFY(!sceneProblem(w.scene()->params()));
        w.scene()->undoStack()->undo();
        QVERIFY(w.scene()->params().presetKey.isEmpty());
    }

    void invalidCombinationShowsTheCoresMessage() {
        MainWindow w(false);
        w.show();
        w.scene()->editActive(QStringLiteral("odd"), QString(), [](MethodConfig& c) { c.params.dim = 63; });
        QVERIFY(settle(w));
        QVERIFY(w.panel()->problemLabel()->isVisibleTo(&w));
        const QString expected = QString::fromStdString(effectiveParams(w.scene()->params(), 0).validate()->message());
        QCOMPARE(w.panel()->problemLabel()->text(), expected);
        QCOMPARE(w.heatmapView()->result().panels[0].error, expected);
        QVERIFY(!w.heatmapView()->toolTipAt(QPoint(300, 300)).contains(QStringLiteral("nan")));
    }

    void themesRender_data() {
        QTest::addColumn<QString>("theme");
        QTest::newRow("dark") << QStringLiteral("dark");
        QTest::newRow("projector") << QStringLiteral("projector");
    }
    void themesRender() {
        QFETCH(QString, theme);
        MainWindow w(false);
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.scene()->edit(QStringLiteral("theme"), QString(), [&](SceneParams& s) { s.view.theme = theme; });
        QVERIFY(settle(w));
        QCOMPARE(w.heatmapView()->theme().name, theme);
        const QImage img = w.heatmapView()->grab().toImage();
        QCOMPARE(QColor(img.pixel(2, 2)), themeByName(theme).background);
        shot(w, QStringLiteral("theme_") + theme);
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_mainwindow.moc"
