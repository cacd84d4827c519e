#pragma once
// Precision renderer (RoPE in the scene's dtype against exact double), one column per
// configuration, three plots stacked:
//   · the angle error (rad) against position 0 .. N−1, one band per chosen pair (each column's
//     min..max over its positions, a line where it is one position);
//   · the cos error against position, the same way;
//   · the largest |cos error| or |sin error| over all pairs at log-spaced positions up to 2^20,
//     log-log, with the scene's N and the first colliding position marked.
// The positions that collide in the angle dtype (different integers held as one value) are
// marked by a strip under the first two plots, and counted in the caption. Every number drawn is
// the result's (ui/model/compute.h computePrecision).
#include "ui/render/theme.h"
#include "ui/model/results.h"

#include <QPainter>
#include <QRectF>

namespace poslab::ui {

void renderPrecision(QPainter& painter, const QRectF& rect, const PrecisionResult& result, const Theme& theme);

}  // namespace poslab::ui
