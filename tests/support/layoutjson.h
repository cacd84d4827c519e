#pragma once
// The layout report a figure's JSON carries (`figure VIEW -o F.json`: "layout", one entry per
// item with its view, kind, rectangle [x, y, w, h], text and px), read back for tests.
#include "ui/render/layout.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>

namespace testsupport {

// [x, y, width, height] as a rectangle.
inline QRectF rectOf(const QJsonValue& v) {
    const QJsonArray a = v.toArray();
    return QRectF(a[0].toDouble(), a[1].toDouble(), a[2].toDouble(), a[3].toDouble());
}

inline poslab::ui::LayoutReport reportOf(const QJsonObject& figure) {
    using poslab::ui::LayoutItemKind;
    poslab::ui::LayoutReport report;
    for (const auto& v : figure.value(QStringLiteral("layout")).toArray()) {
        const QJsonObject o = v.toObject();
        poslab::ui::LayoutItem item;
        item.view = o.value(QStringLiteral("view")).toString();
        item.kind = LayoutItemKind::Panel;
        for (LayoutItemKind k : {LayoutItemKind::Plot, LayoutItemKind::Text, LayoutItemKind::Legend, LayoutItemKind::Colorbar})
            if (o.value(QStringLiteral("kind")).toString() == poslab::ui::layoutItemKindKey(k)) item.kind = k;
        item.rect = rectOf(o.value(QStringLiteral("rect")));
        item.text = o.value(QStringLiteral("text")).toString();
        item.px = o.value(QStringLiteral("px")).toDouble();
        report.items.push_back(item);
        report.bounds = report.bounds.united(item.rect);
    }
    return report;
}

}  // namespace testsupport
