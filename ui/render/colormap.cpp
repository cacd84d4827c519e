#include "ui/render/colormap.h"

#include <algorithm>
#include <cmath>

namespace poslab::ui {

QString colormapKey(ColormapKind k) { return k == ColormapKind::Diverging ? QStringLiteral("diverging") : QStringLiteral("viridis"); }

ColormapKind colormapFromKey(const QString& key, ColormapKind fallback) {
    if (key == QLatin1String("viridis")) return ColormapKind::Viridis;
    if (key == QLatin1String("diverging")) return ColormapKind::Diverging;
    return fallback;
}

int colormapIndex(double t) {
    if (!(t >= 0.0)) return 0;  // NaN and negatives
    if (t >= 1.0) return 255;
    return std::clamp(static_cast<int>(std::floor(t * 255.0 + 0.5)), 0, 255);
}

QRgb colormapRgb(ColormapKind kind, double t) {
    const auto& table = kind == ColormapKind::Diverging ? kDivergingRgb : kViridisRgb;
    return 0xff000000u | table[static_cast<std::size_t>(colormapIndex(t))];
}

double ColorScale::normalise(double v) const {
    if (!std::isfinite(v)) return 0.0;
    if (hi <= lo) return 0.5;
    return (v - lo) / (hi - lo);
}

}  // namespace poslab::ui
