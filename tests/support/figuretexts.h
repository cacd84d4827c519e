#pragma once
// Every view's figure of a scene as the export lays it out (the layout report holds each text
// drawn): for tests that read what a figure shows, one pass over viewKeys() and "all".
#include "ui/io/export.h"

#include <QString>
#include <QStringList>

#include <utility>
#include <vector>

namespace testsupport {

// (view key, layout report) for every view and the "all" figure, at `pixels`.
inline std::vector<std::pair<QString, poslab::ui::LayoutReport>> everyFigureLayout(const poslab::ui::SceneParams& scene,
                                                                                  QSize pixels = QSize(1920, 1080)) {
    std::vector<std::pair<QString, poslab::ui::LayoutReport>> out;
    const QStringList views = poslab::ui::viewKeys() << QStringLiteral("all");
    for (const QString& view : views) {
        poslab::ui::ExportRequest r;
        r.view = poslab::ui::viewFromKey(view);
        r.format = poslab::ui::ExportFormat::Json;
        r.pixels = pixels;
        out.emplace_back(view, poslab::ui::exportLayout(scene, r));
    }
    return out;
}

}  // namespace testsupport
