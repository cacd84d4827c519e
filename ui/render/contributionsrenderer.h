#pragma once
// Per-pair contributions renderer (RoPE): for each configuration a panel with
//   · a pair × distance image of c_p(t) (rows: pair 0, the highest frequency, at the top;
//     columns: distance t), diverging colour map centred on 0, ±max|c| linked over the panels,
//     with its colour bar (−max, 0, +max);
//   · beside it, each pair's share of Σ|c| as horizontal bars on the same pair axis;
//   · across both, where the pairs' wavelengths 2π/θ_p pass the training context: a dashed line
//     before scaling, a solid line after it (one line when nothing is scaled).
// Every number drawn is the result's (ui/model/compute.h computeContributions).
#include "ui/render/theme.h"
#include "ui/model/results.h"

#include <QPainter>
#include <QRectF>

namespace poslab::ui {

// First pair whose wavelength exceeds `context` (wavelengths.size() when none does).
int firstPairPast(const std::vector<double>& wavelengths, std::int64_t context);

void renderContributions(QPainter& painter, const QRectF& rect, const ContributionsResult& result, const Theme& theme);

}  // namespace poslab::ui
