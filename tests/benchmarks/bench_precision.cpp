// Precision view benchmark: the window's precision task — computePrecision() then
// renderPrecision() into an image of the view's size — for RoPE at N positions, bfloat16 with
// angles in bfloat16 and in float32 (transformers' two paths). The display spec is the window's
// for a view of that size (MainWindow::updateDisplay: at most 128 score-error blocks per axis).
// Median of --repeat runs. Prints one JSON object per case on its own line:
//   {"angles", "length", "dim", "width", "height", "compute_ms", "draw_ms", "total_ms", "total_min_ms"}
// The target (issue #14): the view at N = 8192 within two 60 Hz frames (33 ms).
//   bench_precision [--length N] [--dim d] [--width W] [--height H] [--repeat R]
#include "ui/model/compute.h"
#include "ui/render/precisionrenderer.h"
#include "ui/render/theme.h"

#include <QGuiApplication>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace poslab;
using namespace poslab::ui;

namespace {

[[noreturn]] void usage(const std::string& why) {
    std::fprintf(stderr, "bench_precision: %s\nusage: bench_precision [--length N] [--dim d] [--width W] [--height H] [--repeat R]\n",
                 why.c_str());
    std::exit(2);
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    std::int64_t length = 8192;
    int dim = 128, width = 1075, height = 291, repeat = 9;   // the view in a 1500 × 950 window
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) usage("missing value for " + a);
        const std::string v = argv[++i];
        if (a == "--length") length = std::stoll(v);
        else if (a == "--dim") dim = std::stoi(v);
        else if (a == "--width") width = std::stoi(v);
        else if (a == "--height") height = std::stoi(v);
        else if (a == "--repeat") repeat = std::max(1, std::stoi(v));
        else usage("unknown option " + a);
    }
    if (length < 2 || dim < 2 || width < 64 || height < 64) usage("length >= 2, dim >= 2, width and height >= 64");
    const Theme theme = themeByName(QStringLiteral("light"));
    const QRectF rect(0, 0, width, height);
    for (Precision angles : {Precision::BFloat16, Precision::Float32}) {
        SceneParams scene;
        scene.length = length;
        auto& p = scene.methods.front().params;
        p.method = Method::Rope;
        p.dim = dim;
        p.precision = Precision::BFloat16;
        p.rope.angle_precision = angles;
        scene.view.showPrecision = true;
        DisplaySpec d;
        d.decaySamples = std::clamp(width, 32, 2048);
        d.precisionCells = std::min(128, precisionCellsFor(rect, 1, theme, 1.0));
        std::vector<double> compute, draw, total;
        for (int r = 0; r < repeat; ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            const PrecisionResult res = computePrecision(scene, d);
            const auto t1 = std::chrono::steady_clock::now();
            QImage img(width, height, QImage::Format_ARGB32_Premultiplied);
            img.fill(theme.background);
            {
                QPainter painter(&img);
                painter.setRenderHint(QPainter::Antialiasing, true);
                painter.setRenderHint(QPainter::TextAntialiasing, true);
                renderPrecision(painter, rect, res, theme);
            }
            const auto t2 = std::chrono::steady_clock::now();
            if (!res.configs.empty() && !res.configs.front().error.isEmpty()) {
                std::fprintf(stderr, "bench_precision: %s\n", res.configs.front().error.toUtf8().constData());
                return 1;
            }
            compute.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            draw.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
            total.push_back(std::chrono::duration<double, std::milli>(t2 - t0).count());
        }
        std::printf("{\"angles\": \"%s\", \"length\": %lld, \"dim\": %d, \"width\": %d, \"height\": %d, \"compute_ms\": %.2f, "
                    "\"draw_ms\": %.2f, \"total_ms\": %.2f, \"total_min_ms\": %.2f}\n",
                    angles == Precision::BFloat16 ? "bfloat16" : "float32", static_cast<long long>(length), dim, width, height,
                    median(compute), median(draw), median(total), *std::min_element(total.begin(), total.end()));
        std::fflush(stdout);
    }
    return 0;
}
