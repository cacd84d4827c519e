#pragma once
// Shared helpers for the tests that drive the main window (ui/window/mainwindow.h).
#include "ui/views/scheduler.h"
#include "ui/views/views.h"
#include "ui/window/mainwindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QtTest>

namespace testsupport {

// Waits (at most ~10 s) until the heatmap and decay views painted the scheduler's latest
// request. A view whose inputs did not change keeps its result (the scheduler does not
// recompute it): one of the two holding the latest generation is enough.
inline bool settleHeatmapAndDecay(poslab::ui::MainWindow& w) {
    for (int i = 0; i < 2000; ++i) {
        QApplication::processEvents();
        const auto g = w.scheduler()->latestGeneration();
        const bool ok = !w.scheduler()->busy() && w.heatmapView()->paintedGeneration() == w.heatmapView()->resultGeneration() &&
                        w.decayView()->paintedGeneration() == w.decayView()->resultGeneration() &&
                        (w.heatmapView()->result().generation == g || w.decayView()->result().generation == g);
        if (ok) return true;
        QTest::qWait(5);
    }
    return false;
}

// Waits (at most timeoutMs) until the scheduler is idle. With `painted`, also until every view
// the scene shows painted the scheduler's latest results (a view whose inputs did not change keeps
// an older generation: it must have painted what it holds) and the pictures are sharp again (not
// within a stream of edits, where they are drawn at logical resolution).
inline bool settleWindow(poslab::ui::MainWindow& w, bool painted = false, int timeoutMs = 20000) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        w.scheduler()->waitIdle(timeoutMs);
        QCoreApplication::processEvents();
        const auto g = w.scheduler()->latestGeneration();
        bool ok = !w.scheduler()->busy();
        if (ok && !painted) {
            QTest::qWait(20);
            return true;
        }
        const auto& v = w.scene()->params().view;
        if (v.showPairs) ok = ok && w.pairsView()->paintedGeneration() == w.pairsView()->resultGeneration();
        if (v.showHeatmap) ok = ok && w.heatmapView()->paintedGeneration() == w.heatmapView()->resultGeneration();
        if (v.showDecay) ok = ok && w.decayView()->paintedGeneration() == w.decayView()->resultGeneration();
        if (v.showFrequencies) ok = ok && w.frequencyView()->paintedGeneration() == w.frequencyView()->resultGeneration();
        ok = ok && !w.scheduler()->render().logical;
        if (ok && g == w.scheduler()->latestGeneration()) return true;
        QTest::qWait(5);
    }
    return false;
}

}  // namespace testsupport
