#pragma once
// Cells (a heatmap's values, a colour bar, a table) and dots drawn so that a figure for a paper
// stays sharp:
//   raster painters (the window, PNG)  the cell image drawn nearest-neighbour, as before;
//   vector painters (SVG, PDF, print)  one filled rectangle per run of equal cells when the image
//                                      has at most kMaxVectorCells cells, else the image
//                                      enlarged nearest-neighbour to the figure's resolution
//                                      (2× its logical size, at most kMaxVectorImageSide a side),
//                                      so that no viewer smooths a few hundred cells into a blur.
// Dots on vector painters are ellipses, not stamped bitmaps.
#include <QImage>
#include <QPainter>
#include <QRectF>

namespace poslab::ui {

inline constexpr int kMaxVectorCells = 160 * 160;
inline constexpr int kMaxVectorImageSide = 4096;

// True when `p` writes a vector format (SVG, PDF, a printer).
bool isVectorPainter(QPainter& p);

// Draws `cells` (one pixel per cell, row 0 at the top) into `target` as described above.
void drawCells(QPainter& p, const QRectF& target, const QImage& cells);

// The image drawCells() embeds on a vector painter for more than kMaxVectorCells cells: `cells`
// enlarged by whole factors (nearest-neighbour) towards 2 × `target`'s size.
QImage enlargedCells(const QImage& cells, const QSizeF& target);

}  // namespace poslab::ui
