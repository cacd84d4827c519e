#pragma once
// The vision decay view in the window (issue 30): a vision encoder's 2-D RoPE decay from one
// chosen patch to every patch of the grid, drawn by the renderer `figure vision-decay` uses
// (ui/render/visiondecayrenderer.h), beside the positions view. Cheap (O((H + W)·head_dim) numbers
// and one image), so drawn on the GUI thread. A click on a patch chooses it (patchClicked: the
// window makes it the scene's); hovering tells a patch's score.
#include "ui/render/theme.h"
#include "ui/render/visiondecayrenderer.h"

#include <QWidget>

#include <array>
#include <optional>

namespace poslab::ui {

class VisionDecayView : public QWidget {
    Q_OBJECT
public:
    explicit VisionDecayView(QWidget* parent = nullptr);
    // The picture of these parameters and patch (recomputed only when they changed).
    void setParams(const VisionRopeParams& params, std::array<std::int64_t, 2> patch);
    const VisionDecayPicture& picture() const { return picture_; }
    void setTheme(const Theme& theme);
    // Where the cells are drawn in the widget.
    VisionDecayGeometry decayGeometry() const { return visionDecayGeometry(QRectF(rect()), picture_, theme_); }
    // The patch under a widget position, or nullopt.
    std::optional<std::array<std::int64_t, 2>> patchAt(const QPoint& pos) const;
    QSize minimumSizeHint() const override { return {240, 200}; }

Q_SIGNALS:
    void patchClicked(std::int64_t row, std::int64_t col);

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    bool event(QEvent* e) override;   // tooltips: the patch's score

private:
    VisionRopeParams params_;
    std::array<std::int64_t, 2> patch_{-1, -1};
    bool computed_ = false;
    VisionDecayPicture picture_;
    Theme theme_;
};

}  // namespace poslab::ui
