#pragma once
// The positions picture (issue 30): a multimodal token sequence and the position ids a
// vision-language model gives it (core/mrope.h mropePositions, as `poslab compute positions`).
//
//   heading   the model, the token count, the position offset (upstream's rope_deltas)
//   legend    a swatch per kind of token present (text, image, video)
//   strip     the tokens in order, one cell each, coloured by kind, four lines per cell: the
//             token's index in the sequence and its t, h and w ids; a label over each entry of the
//             layout ("image 1×4×6 → 2×3"). When the tokens do not fit, each run keeps its first and
//             last tokens and an elision cell "+n" stands for the n tokens left out between them
//             (runs in the middle of a very long layout are left out whole, one cell for all of
//             them); a line under the strip says how many tokens are shown.
//   grids     each image and each video frame as its grid of merged patches (rows × columns),
//             coloured by kind, with the frame's t in its title: the cells carry their (t, h, w) ids
//             when three lines of small type fit in a cell, else the rows' h ids on the left and
//             the columns' w ids on top (every k-th when they would touch), and a line says so.
//             Frames that leave too little room for their cells are left out, and a line names them.
// Every text goes through the layout report (layout.h, view "positions"); the cells' labels are
// annotations inside the strip's and the grids' plot items.
#include "core/mrope.h"
#include "ui/render/theme.h"

#include <QPainter>
#include <QRectF>
#include <QString>

#include <cstdint>
#include <vector>

namespace poslab::ui {

struct PositionsPicture {
    TokenLayout layout;
    MropePositions positions;   // ids 3 × N and each token's kind
    MropeModel model = MropeModel::Qwen2VL;
    int merge = 2;
    QString error;              // not empty: the picture is this message (a layout the rule refuses)
};

// The picture of an M-RoPE parameter set: its layout parsed and numbered by the core; an empty
// layout or one the core refuses gives `error` (the core's message, "tokens: …").
PositionsPicture positionsPictureOf(const MropeParams& params);

// The model's name for people: "Qwen2-VL", "Qwen2.5-VL", "Qwen3-VL".
QString mropeModelTitle(MropeModel m);

// One cell of the strip: `count` tokens from `from` (1: the token itself, with its ids; more: an
// elision standing for them). `segment`: the layout entry the tokens belong to, −1 for an
// elision spanning whole entries.
struct PositionsStripCell {
    std::int64_t from = 0, count = 1;
    int segment = 0;
    QRectF rect;   // where it is drawn
};

// One grid drawn: a frame of a vision entry.
struct PositionsGrid {
    int segment = 0;
    std::int64_t frame = 0;            // frame within the entry (0 for an image)
    std::int64_t firstToken = 0;       // token index of its top-left cell
    std::int64_t rows = 0, cols = 0;   // merged patches
    QRectF cells;                      // the cells' rectangle
    bool idsInCells = false;           // each cell carries its (t, h, w)
};

struct PositionsGeometry {
    std::vector<PositionsStripCell> strip;
    std::vector<PositionsGrid> grids;
    std::int64_t framesLeftOut = 0;    // vision frames without a grid (no room)
};

// Where the strip's cells and the grids go for a picture drawn into `rect` (what renderPositions
// draws; tests read the ids under each cell from the layout report).
PositionsGeometry positionsGeometry(const QRectF& rect, const PositionsPicture& pic, const Theme& theme);

void renderPositions(QPainter& painter, const QRectF& rect, const PositionsPicture& pic, const Theme& theme);

}  // namespace poslab::ui
