#pragma once
// The positions view in the window (issue 30): the scene's token layout and the position ids its
// Qwen-VL rule gives each token, drawn by the renderer `figure positions` uses
// (ui/render/positionsrenderer.h). Cheap to draw (the ids are O(N), the strip and grids a few
// thousand cells), so it is drawn on the GUI thread as the layer overview is. Hovering a cell of
// the strip or of a grid tells its token's index, kind and (t, h, w).
#include "ui/render/positionsrenderer.h"
#include "ui/views/pictureview.h"

#include <optional>

namespace poslab::ui {

class PositionsView : public PictureView {
    Q_OBJECT
public:
    explicit PositionsView(QWidget* parent = nullptr);
    // The picture of these parameters (re-numbered only when they changed).
    void setParams(const MropeParams& params);
    const PositionsPicture& picture() const { return picture_; }
    // The token under a widget position (a strip cell of one token, or a grid cell), or nullopt.
    std::optional<std::int64_t> tokenAt(const QPoint& pos) const;
    QSize minimumSizeHint() const override { return {320, 200}; }
    // How many times the view has painted (the live-update benchmark waits for the next one).
    std::uint64_t paintCount() const { return paints_; }

protected:
    void paintPicture(QPainter& p, const QRectF& rect) const override;
    QString toolTipAt(const QPoint& pos) const override;   // the token's ids

private:
    MropeParams params_;
    bool numbered_ = false;
    PositionsPicture picture_;
    mutable std::uint64_t paints_ = 0;   // counted as the picture is painted
};

}  // namespace poslab::ui
