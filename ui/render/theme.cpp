#include "ui/render/theme.h"

#include <QGuiApplication>

#include <algorithm>

namespace poslab::ui {

namespace {
// Okabe & Ito (2008), "Color Universal Design": blue, vermillion, bluish green, reddish purple,
// orange, sky blue, yellow, black — ordered so that the first few are the most distinct.
std::vector<QColor> okabeIto(bool dark) {
    std::vector<QColor> p = {QColor(0, 114, 178), QColor(213, 94, 0),  QColor(0, 158, 115),
                             QColor(204, 121, 167), QColor(230, 159, 0), QColor(86, 180, 233),
                             QColor(240, 228, 66), QColor(0, 0, 0)};
    if (dark) {
        p[0] = QColor(86, 180, 233);   // sky blue reads better than blue on black
        p[5] = QColor(0, 114, 178).lighter(160);
        p[7] = QColor(230, 230, 230);
    }
    return p;
}
}  // namespace

QFont Theme::font(double pt) const {
    QFont f = family.isEmpty() ? QGuiApplication::font() : QFont(family);
    f.setPointSizeF(std::max(4.0, pt * fontScale));
    return f;
}

QFont Theme::titleFont() const {
    QFont f = font(titlePt);
    f.setBold(true);
    return f;
}

QColor Theme::series(int i) const {
    if (palette.empty()) return foreground;
    const int n = static_cast<int>(palette.size());
    return palette[static_cast<std::size_t>(((i % n) + n) % n)];
}

QStringList themeNames() { return {QStringLiteral("light"), QStringLiteral("dark"), QStringLiteral("projector")}; }

Theme themeByName(const QString& name, double fontScale) {
    Theme t;
    t.fontScale = std::clamp(fontScale, 0.5, 3.0);
    if (name == QLatin1String("dark")) {
        t.name = name;
        t.background = QColor(24, 26, 30);
        t.foreground = QColor(235, 235, 235);
        t.muted = QColor(165, 165, 170);
        t.grid = QColor(55, 58, 64);
        t.panel = QColor(34, 37, 42);
        t.masked = QColor(70, 70, 75);
        t.error = QColor(255, 120, 110);
        t.palette = okabeIto(true);
    } else if (name == QLatin1String("projector")) {
        t.name = name;
        t.background = QColor(255, 255, 255);
        t.foreground = QColor(0, 0, 0);
        t.muted = QColor(40, 40, 40);
        t.grid = QColor(200, 200, 200);
        t.panel = QColor(250, 250, 250);
        t.masked = QColor(170, 170, 170);
        t.error = QColor(180, 0, 0);
        t.palette = okabeIto(false);
        t.fontPt = 13.0;
        t.titlePt = 15.0;
        t.lineWidth = 3.0;
        t.axisWidth = 1.8;
    } else {
        t.palette = okabeIto(false);
    }
    return t;
}

}  // namespace poslab::ui

namespace poslab::ui {

QString themeKey(const Theme& t) {
    QStringList parts{t.name, QString::number(t.fontScale, 'g', 17), t.family, QString::number(t.fontPt, 'g', 17),
                      QString::number(t.titlePt, 'g', 17), QString::number(t.lineWidth, 'g', 17),
                      QString::number(t.axisWidth, 'g', 17)};
    for (const QColor& c : {t.background, t.foreground, t.muted, t.grid, t.panel, t.masked, t.error}) parts << c.name();
    for (const QColor& c : t.palette) parts << c.name();
    return parts.join(QLatin1Char('|'));
}

QFont themeWidgetFont(const Theme& theme, double fontScale) {
    QFont f = QGuiApplication::font();
    const double base = f.pointSizeF() > 0 ? f.pointSizeF() : 10.0;
    f.setPointSizeF(base * fontScale * (theme.fontPt / Theme{}.fontPt));
    return f;
}

QPalette themeWidgetPalette(const Theme& t) {
    QPalette pal = QGuiApplication::palette();
    if (t.name != QLatin1String("light")) {
        pal.setColor(QPalette::Window, t.panel);
        pal.setColor(QPalette::WindowText, t.foreground);
        pal.setColor(QPalette::Base, t.background);
        pal.setColor(QPalette::AlternateBase, t.panel);
        pal.setColor(QPalette::Text, t.foreground);
        pal.setColor(QPalette::Button, t.panel);
        pal.setColor(QPalette::ButtonText, t.foreground);
        pal.setColor(QPalette::PlaceholderText, t.muted);
        pal.setColor(QPalette::Disabled, QPalette::Text, t.muted);
        pal.setColor(QPalette::Disabled, QPalette::WindowText, t.muted);
        pal.setColor(QPalette::Disabled, QPalette::ButtonText, t.muted);
    }
    return pal;
}

}  // namespace poslab::ui
