#pragma once
// Themes for the renderers: the window and every exported figure draw with one of these.
//   light     paper-like, dark text on white (default; print and export)
//   dark      light text on near-black
//   projector high contrast, thick lines and large type for a lecture hall
// Series colours come from the Okabe–Ito palette (distinguishable with the common colour-vision
// deficiencies); heatmaps use the perceptually uniform maps of colormap.h.
#include <QColor>
#include <QFont>
#include <QPalette>
#include <QString>
#include <QStringList>

#include <vector>

namespace poslab::ui {

struct Theme {
    QString name = QStringLiteral("light");
    QColor background{255, 255, 255};
    QColor foreground{25, 25, 25};      // text, axes
    QColor muted{110, 110, 110};        // secondary text, tick labels
    QColor grid{225, 225, 225};
    QColor panel{246, 246, 246};        // plot area behind a circle or table
    QColor masked{160, 160, 160};       // causal-masked heatmap cells (distinct from every colour-map entry)
    QColor error{190, 30, 30};
    std::vector<QColor> palette;        // series colours, colour-blind safe
    double fontPt = 10.0;               // body text (tick labels, legends), before fontScale
    double titlePt = 12.0;              // panel titles
    double lineWidth = 1.6;             // series lines
    double axisWidth = 1.0;
    double fontScale = 1.0;             // user's zoom of all text (0.5 .. 3)
    QString family;                     // empty = the application font's family

    QFont font(double pt) const;        // scaled by fontScale
    QFont bodyFont() const { return font(fontPt); }
    QFont smallFont() const { return font(fontPt * 0.85); }
    QFont titleFont() const;
    QColor series(int i) const;         // palette[i mod size]
};

// Identifies what a theme draws: two themes with the same key draw the same pixels.
QString themeKey(const Theme& theme);

QStringList themeNames();                                  // "light", "dark", "projector"
Theme themeByName(const QString& name, double fontScale = 1.0);  // unknown → light

// The look of the window's own widgets (the parameter panel, the teaching dock) in a theme: the
// application's font scaled as the plots' text is, and the theme's colours (light: the
// application's palette as it is).
QFont themeWidgetFont(const Theme& theme, double fontScale);
QPalette themeWidgetPalette(const Theme& theme);

}  // namespace poslab::ui
