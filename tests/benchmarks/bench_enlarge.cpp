// bench_enlarge: the GUI thread's copy of a logical picture onto a DPR 2 window while edits stream
// (ui/render/enlarge.h). A 1200 × 900 RGB32 picture (about the pair dials and the heatmap of the
// live-update benchmark's window together) becomes 2400 × 1800 device pixels of a 3200 × 2000
// RGB32 image (the window's backing store at DPR 2): QPainter::drawImage (Qt's nearest-neighbour
// scaled copy, what the views did before) against copyEnlarged, the same pixels (checked here).
// Prints the median and minimum of 41 copies each, alternating.
//   QT_QPA_PLATFORM=offscreen <build>/tests/benchmarks/bench_enlarge
#include "ui/render/enlarge.h"

#include <QElapsedTimer>
#include <QGuiApplication>
#include <QPainter>
#include <QRandomGenerator>

#include <algorithm>
#include <cstdio>
#include <vector>

using poslab::ui::copyEnlarged;

int main(int argc, char** argv) {
    QGuiApplication app(argc, argv);
    QImage picture(1200, 900, QImage::Format_RGB32);
    QRandomGenerator rng(27);
    for (int y = 0; y < picture.height(); ++y) {
        auto* row = reinterpret_cast<quint32*>(picture.scanLine(y));
        for (int x = 0; x < picture.width(); ++x) row[x] = 0xff000000u | (rng.generate() & 0xffffffu);
    }
    QImage store(3200, 2000, QImage::Format_RGB32);
    store.fill(Qt::black);
    store.setDevicePixelRatio(2);
    const QPoint at(100, 50);   // where the picture goes (logical)
    std::vector<double> qt, ours;
    QImage qtsPixels;
    for (int i = 0; i < 41; ++i) {
        QElapsedTimer t;
        t.start();
        {
            QPainter p(&store);
            p.drawImage(QRectF(QPointF(at), QSizeF(picture.size())), picture);
        }
        qt.push_back(double(t.nsecsElapsed()) / 1e6);
        if (i == 0) qtsPixels = store.copy();
        store.fill(Qt::black);
        t.start();
        bool copied = false;
        {
            QPainter p(&store);
            copied = copyEnlarged(p, picture, &store, at);
        }
        ours.push_back(double(t.nsecsElapsed()) / 1e6);
        if (!copied || (i == 0 && store != qtsPixels)) {
            std::fprintf(stderr, "bench_enlarge: copyEnlarged %s\n", copied ? "gave other pixels than QPainter" : "refused the copy");
            return 1;
        }
        store.fill(Qt::black);
    }
    const auto report = [](const char* what, std::vector<double> v) {
        std::sort(v.begin(), v.end());
        std::printf("  %-40s median %.2f ms, min %.2f ms (of %zu)\n", what, v[v.size() / 2], v.front(), v.size());
    };
    std::printf("Enlarging copy, 1200 x 900 -> 2400 x 1800 device pixels (RGB32, DPR 2):\n");
    report("QPainter::drawImage (scaled copy)", qt);
    report("copyEnlarged (the same pixels)", ours);
    return 0;
}
