#pragma once
// The layer overview in the window (docs/spec/cli.md "figure layers"): the edited configuration's
// layer pattern drawn by the renderer `figure layers` uses (ui/render/layersrenderer.h), the
// layer the views show highlighted, and compare mode's second configuration's layer too.
// A click on a row asks to show that layer (layerClicked(layer, false)); Shift- or Ctrl-click
// asks to put it beside the shown one (layerClicked(layer, true)). The window turns either into
// one undo step.
#include "ui/render/layersrenderer.h"
#include "ui/views/pictureview.h"

namespace poslab::ui {

class LayersView : public PictureView {
    Q_OBJECT
public:
    explicit LayersView(QWidget* parent = nullptr);
    void setPicture(const LayersPicture& picture);
    const LayersPicture& picture() const { return picture_; }
    // The layer under a widget position, or nullopt.
    std::optional<std::int64_t> layerAt(const QPoint& pos) const;
    QSize minimumSizeHint() const override { return {240, 200}; }

Q_SIGNALS:
    void layerClicked(std::int64_t layer, bool compare);

protected:
    void paintPicture(QPainter& p, const QRectF& rect) const override;
    QString toolTipAt(const QPoint& pos) const override;   // the row's text
    void mousePressEvent(QMouseEvent* e) override;

private:
    LayersPicture picture_;
};

}  // namespace poslab::ui
