#pragma once
// The main window's saved geometry, read back only where it fits the screens present.
//
// QWidget::saveGeometry() writes (Qt 6, format 3.0, big-endian QDataStream):
//   quint32 magic 0x1D9D0CB, quint16 major 3, quint16 minor 0,
//   QRect frameGeometry, QRect normalGeometry, qint32 screenNumber,
//   quint8 maximized, quint8 fullScreen, qint32 screenWidth, QRect geometry.
// decodeSavedGeometry() reads that (any other bytes: nullopt), and placeSavedGeometry() decides,
// for the available geometries of the screens present, whether the window may be restored as saved,
// must be moved or shrunk onto a screen, or is dropped (the window is then laid out fresh).
// Nothing here touches a widget: both are pure functions of their inputs (tests/ui/test_windowstate).

#include <QByteArray>
#include <QList>
#include <QMargins>
#include <QRect>
#include <QSize>
#include <QString>

#include <optional>

namespace poslab::ui {

struct SavedGeometry {
    QRect frame;        // the frame (title bar and borders included) when saved
    QRect normal;       // the client geometry the window returns to from maximised / full screen
    int screen = 0;     // the screen's index when saved
    bool maximized = false;
    bool fullScreen = false;
    int screenWidth = 0;
};

// nullopt for anything that is not a complete saveGeometry() of format 2.x or 3.x.
std::optional<SavedGeometry> decodeSavedGeometry(const QByteArray& bytes);

struct GeometryPlacement {
    enum class Kind { Restore, Adjust, Drop } kind = Kind::Drop;
    QRect normal;       // Adjust: the client geometry to use (on a screen, within its available area)
    bool maximized = false;
    bool fullScreen = false;
    QString why;        // for Adjust and Drop: what did not fit (logged, and read by tests)
};

// `available`: each screen's available geometry (QScreen::availableGeometry). `frame`: what the
// window manager's frame adds around the client area, so that the frame stays on the screen too.
// A normal geometry that lies on a screen and fits in it: Restore. One that overlaps a screen by
// less than a third of its area, or is larger than the screen it is on: Adjust (shrunk to that
// screen and moved the least that brings it in; a window off every screen is centred on the screen
// it was saved on, else the first). Empty, absurd (over 32 768 px) or undecodable: Drop.
// `minimum`: the window's minimum size (it grows to that whatever it is given), so that the window
// is placed where it will really stand.
GeometryPlacement placeSavedGeometry(const std::optional<SavedGeometry>& saved, const QList<QRect>& available,
                                     QMargins frame = QMargins(), QSize minimum = QSize(0, 0));

// A first start's client size on a screen of this available geometry: the preferred size, less what
// the frame takes, never more than the screen; centred on the screen.
QRect firstStartGeometry(const QRect& available, QSize preferred, QMargins frame, QSize minimum = QSize(0, 0));

}  // namespace poslab::ui
