#include "ui/window/windowstate.h"

#include <QDataStream>

#include <algorithm>

namespace poslab::ui {

std::optional<SavedGeometry> decodeSavedGeometry(const QByteArray& bytes) {
    QDataStream in(bytes);
    in.setVersion(QDataStream::Qt_4_0);   // as QWidget::saveGeometry() writes it
    quint32 magic = 0;
    quint16 major = 0, minor = 0;
    in >> magic >> major >> minor;
    if (in.status() != QDataStream::Ok || magic != 0x1D9D0CB || major < 2 || major > 3) return std::nullopt;
    SavedGeometry g;
    qint32 screen = 0, screenWidth = 0;
    quint8 maximized = 0, fullScreen = 0;
    QRect client;
    in >> g.frame >> g.normal >> screen >> maximized >> fullScreen >> screenWidth;
    if (major > 2) in >> client;
    if (in.status() != QDataStream::Ok) return std::nullopt;
    g.screen = screen;
    g.maximized = maximized != 0;
    g.fullScreen = fullScreen != 0;
    g.screenWidth = screenWidth;
    return g;
}

namespace {

qint64 area(const QRect& r) { return r.isValid() ? qint64(r.width()) * r.height() : 0; }

}  // namespace

GeometryPlacement placeSavedGeometry(const std::optional<SavedGeometry>& saved, const QList<QRect>& available,
                                     QMargins frame, QSize minimum) {
    GeometryPlacement p;
    if (available.isEmpty()) {
        p.why = QStringLiteral("no screen");
        return p;
    }
    if (!saved) {
        p.why = QStringLiteral("not a saved window geometry");
        return p;
    }
    constexpr int absurd = 32768;
    const QRect saved0 = saved->normal;
    if (!saved0.isValid() || saved0.width() < 64 || saved0.height() < 64 || saved0.width() > absurd || saved0.height() > absurd ||
        std::abs(saved0.x()) > absurd || std::abs(saved0.y()) > absurd) {
        p.why = QStringLiteral("window size %1×%2 at (%3, %4) is not a window's")
                    .arg(saved0.width()).arg(saved0.height()).arg(saved0.x()).arg(saved0.y());
        return p;
    }
    // Where it will stand: never smaller than its minimum.
    const QRect n(saved0.topLeft(), saved0.size().expandedTo(minimum));
    p.maximized = saved->maximized;
    p.fullScreen = saved->fullScreen;
    const QRect withFrame = n.marginsAdded(frame);
    // The screen the window is mostly on.
    int best = -1;
    qint64 bestArea = 0;
    for (int i = 0; i < available.size(); ++i) {
        const qint64 a = area(available[i].intersected(withFrame));
        if (a > bestArea) bestArea = a, best = i;
    }
    if (best >= 0 && available[best].contains(withFrame)) {
        p.kind = GeometryPlacement::Kind::Restore;
        p.normal = n;
        return p;
    }
    const bool mostlyOnScreen = best >= 0 && bestArea * 3 >= area(withFrame);
    const int target = mostlyOnScreen ? best : (saved->screen >= 0 && saved->screen < available.size() ? saved->screen : 0);
    const QRect a = available[target];
    const QRect room = a.marginsRemoved(frame);
    if (room.width() < 64 || room.height() < 64) {
        p.why = QStringLiteral("the screen's %1×%2 holds no window").arg(a.width()).arg(a.height());
        return p;
    }
    QRect r(n.topLeft(), QSize(std::min(n.width(), room.width()), std::min(n.height(), room.height())));
    if (mostlyOnScreen) {   // moved the least that brings it in
        r.moveLeft(std::clamp(r.left(), room.left(), room.right() - r.width() + 1));
        r.moveTop(std::clamp(r.top(), room.top(), room.bottom() - r.height() + 1));
    } else {   // nowhere near: in the middle of the screen
        r.moveCenter(room.center());
    }
    p.kind = GeometryPlacement::Kind::Adjust;
    p.normal = r;
    p.why = mostlyOnScreen ? QStringLiteral("%1×%2 does not fit the %3×%4 screen").arg(n.width()).arg(n.height()).arg(a.width()).arg(a.height())
                           : QStringLiteral("(%1, %2) is off every screen").arg(n.x()).arg(n.y());
    return p;
}

QRect firstStartGeometry(const QRect& available, QSize preferred, QMargins frame, QSize minimum) {
    const QRect room = available.marginsRemoved(frame);
    const QSize s(std::max({1, minimum.width(), std::min(preferred.width(), room.width())}),
                  std::max({1, minimum.height(), std::min(preferred.height(), room.height())}));
    QRect r(QPoint(0, 0), s);
    r.moveCenter(room.center());
    return r;
}

}  // namespace poslab::ui
