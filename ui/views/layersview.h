#pragma once
// The layer overview in the window (docs/spec/cli.md "figure layers"): the edited configuration's
// layer pattern drawn by the renderer `figure layers` uses (ui/render/layersrenderer.h), the
// layer the views show highlighted, and compare mode's second configuration's layer too.
// A click on a row asks to show that layer (layerClicked(layer, false)); Shift- or Ctrl-click
// asks to put it beside the shown one (layerClicked(layer, true)). The window turns either into
// one undo step.
#include "ui/render/layersrenderer.h"
#include "ui/render/theme.h"

#include <QWidget>

namespace poslab::ui {

class LayersView : public QWidget {
    Q_OBJECT
public:
    explicit LayersView(QWidget* parent = nullptr);
    void setPicture(const LayersPicture& picture);
    const LayersPicture& picture() const { return picture_; }
    void setTheme(const Theme& theme);
    // The layer under a widget position, or nullopt.
    std::optional<std::int64_t> layerAt(const QPoint& pos) const;
    QSize minimumSizeHint() const override { return {240, 200}; }

Q_SIGNALS:
    void layerClicked(std::int64_t layer, bool compare);

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    bool event(QEvent* e) override;   // tooltips: the row's text

private:
    LayersPicture picture_;
    Theme theme_;
};

}  // namespace poslab::ui
