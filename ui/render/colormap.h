#pragma once
// Perceptually uniform colour maps with exact 256-entry lookup tables (8-bit sRGB):
//   viridis    matplotlib's sequential map (softmax weights, unsigned tables)
//   diverging  Kovesi's CET-D1A blue–white–red (signed scores, centred on zero)
// The tables live in colormap_tables.cpp (generated from matplotlib and colorcet).
#include <QColor>
#include <QString>
#include <QStringList>

#include <array>
#include <cstdint>

namespace poslab::ui {

extern const std::array<std::uint32_t, 256> kViridisRgb;
extern const std::array<std::uint32_t, 256> kDivergingRgb;

enum class ColormapKind { Viridis, Diverging };

QString colormapKey(ColormapKind k);                  // "viridis", "diverging"
ColormapKind colormapFromKey(const QString& key, ColormapKind fallback = ColormapKind::Viridis);

// Index of the table entry for value t in [0, 1] (clamped; NaN → 0): floor(t·255 + 0.5).
int colormapIndex(double t);

// The colour of t in [0, 1] (clamped), as an opaque QRgb.
QRgb colormapRgb(ColormapKind kind, double t);

// Maps a value v to [0, 1] for a range: diverging ranges are symmetric about 0
// (t = 0.5 + v/(2·max|·|)), sequential ranges are linear between lo and hi.
struct ColorScale {
    ColormapKind kind = ColormapKind::Viridis;
    double lo = 0.0, hi = 1.0;   // diverging: lo = −m, hi = +m
    double normalise(double v) const;
    QRgb rgb(double v) const { return colormapRgb(kind, normalise(v)); }
};

}  // namespace poslab::ui
