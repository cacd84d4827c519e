#pragma once
// Shared helpers for the tests that drive the main window (ui/window/mainwindow.h).
#include "ui/views/scheduler.h"
#include "ui/views/views.h"
#include "ui/window/mainwindow.h"

#include <QApplication>
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

}  // namespace testsupport
