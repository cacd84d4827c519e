#pragma once
// A view drawn on the GUI thread from a picture cheap enough to draw there (the layer overview,
// the positions view): its theme, the whole widget painted antialiased by the picture's renderer,
// and a tooltip for what is under the mouse. A subclass says how to paint (paintPicture) and what
// the tooltip at a point says (toolTipAt).
#include "ui/render/theme.h"

#include <QWidget>

namespace poslab::ui {

class PictureView : public QWidget {
    Q_OBJECT
public:
    explicit PictureView(QWidget* parent = nullptr);
    void setTheme(const Theme& theme);

protected:
    virtual void paintPicture(QPainter& p, const QRectF& rect) const = 0;
    // The tooltip for a widget position; empty: none there (a shown one is hidden).
    virtual QString toolTipAt(const QPoint& pos) const = 0;
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override;

    Theme theme_;
};

}  // namespace poslab::ui
