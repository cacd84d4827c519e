#pragma once
// The 2-D decay of a vision encoder (issue 30): the score from one chosen patch to every patch of
// the grid, drawn as an image over the patch grid (core/visionrope.h visionDecay: query and key
// rows of ones, s·Σ_j 2cos(a_j(p*) − a_j(p)), the row pairs following the patch row, the column
// pairs its column).
//
//   heading    the encoder, the grid, the chosen patch
//   subtitle   what a cell's colour is, and what a pixel stands for when the grid has more patches
//              than the plot has pixels (the exact mean of the block it covers: the score is
//              rowTerm[r] + colTerm[c], so a block's mean is the mean of its rows' terms plus the
//              mean of its columns' terms)
//   plot       H × W cells, square, the chosen patch outlined; row numbers on the left, column
//              numbers on top (every k-th so that they stay apart)
//   colour bar viridis from the smallest score to the largest (at the chosen patch: √head_dim)
//              when every score has one sign (so with ones content), else diverging about 0
// Every text goes through the layout report (layout.h, view "vision-decay").
#include "core/visionrope.h"
#include "ui/render/colormap.h"
#include "ui/render/theme.h"

#include <QPainter>
#include <QRectF>
#include <QString>

#include <array>
#include <cstdint>
#include <optional>

namespace poslab::ui {

struct VisionDecayPicture {
    VisionRopeParams params;        // the encoder, grid, head_dim, θ
    std::optional<VisionDecay> decay;
    QString error;                  // not empty: the picture is this message
};

// The picture of the encoder's decay from patch (row, col): the core's numbers, or its message.
// The merge size orders the encoder's tokens, not their (row, col), and Pixtral's patches per side
// only bound the grid: neither changes the map (params' merge and patches_per_side are not read).
VisionDecayPicture visionDecayPictureOf(VisionRopeParams params, std::int64_t row, std::int64_t col);

// The colours of the scores: viridis over [min, max] when they have one sign, else diverging
// symmetric about 0.
ColorScale visionDecayScale(const VisionDecay& decay);

// The encoder's name for people: "Qwen2-VL vision", "Pixtral".
QString visionEncoderTitle(VisionRope e);

struct VisionDecayGeometry {
    QRectF cells;                  // the H × W cells (empty on error or without room)
    QRectF colorbar;
    double cell = 0;               // pixels per patch (< 1: a pixel is the mean of a block)
    std::int64_t rows = 0, cols = 0;
};
VisionDecayGeometry visionDecayGeometry(const QRectF& rect, const VisionDecayPicture& pic, const Theme& theme);

// The patch under `point` (row, col), or nullopt outside the cells.
std::optional<std::array<std::int64_t, 2>> visionDecayPatchAt(const QRectF& rect, const VisionDecayPicture& pic, const Theme& theme,
                                                               const QPointF& point);

void renderVisionDecay(QPainter& painter, const QRectF& rect, const VisionDecayPicture& pic, const Theme& theme);

}  // namespace poslab::ui
