#include "ui/views/zoom.h"

#include <QObject>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

ViewWindow zoomWindow(const ViewWindow& w, double anchor, double factor, std::int64_t lo, std::int64_t hi) {
    hi = std::max(hi, lo + 1);
    const std::int64_t size = std::max<std::int64_t>(1, w.size());
    if (!std::isfinite(factor) || factor <= 0) factor = 1;
    if (!std::isfinite(anchor)) anchor = double(w.from) + double(size) / 2;
    std::int64_t n = std::llround(std::clamp(double(size) * factor, 1.0, double(hi - lo)));
    if (factor < 1 && n >= size) n = size - 1;
    if (factor > 1 && n <= size) n = size + 1;
    n = std::clamp<std::int64_t>(n, 1, hi - lo);
    const double a = std::clamp(anchor, double(w.from), double(w.from + size));
    const double from = a - (a - double(w.from)) * double(n) / double(size);
    const std::int64_t f = std::clamp<std::int64_t>(std::llround(from), lo, hi - n);
    return {f, f + n};
}

ViewWindow panWindow(const ViewWindow& w, std::int64_t delta, std::int64_t lo, std::int64_t hi) {
    hi = std::max(hi, lo + 1);
    const std::int64_t n = std::clamp<std::int64_t>(w.size(), 1, hi - lo);
    const std::int64_t f = std::clamp<std::int64_t>(w.from + delta, lo, hi - n);
    return {f, f + n};
}

ViewWindow spanWindow(double a, double b, std::int64_t lo, std::int64_t hi) {
    hi = std::max(hi, lo + 1);
    if (b < a) std::swap(a, b);
    const std::int64_t from = std::clamp<std::int64_t>(static_cast<std::int64_t>(std::floor(a)), lo, hi - 1);
    const std::int64_t to = std::clamp<std::int64_t>(static_cast<std::int64_t>(std::ceil(b)), from + 1, hi);
    return {from, to};
}

QString heatmapZoomHelp() {
    return QObject::tr("Heatmap: wheel or pinch zooms about the mouse · drag pans · Shift+drag or right-drag zooms to a "
                       "rectangle · double-click or Home shows all positions · hover for exact values");
}

QString decayZoomHelp() {
    return QObject::tr("Decay: wheel or pinch zooms the distances about the mouse · drag pans · Shift+drag or right-drag "
                       "zooms to a range · double-click or Home shows all distances");
}

}  // namespace poslab::ui
