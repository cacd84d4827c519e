#pragma once
// The layer overview (docs/spec/cli.md "figure layers"): one row per layer of a model — its index,
// type (full / sliding / chunked), RoPE or NoPE, base θ and scaling, window or chunk — and, on a
// logarithmic distance axis from 1 to the context, what the layer can attend to (a bar up to the
// farthest distance it sees: a causal window W − 1 back, a bidirectional model's window ⌊W/2⌋ on
// either side of the query, a chunk C − 1; past it, nothing) and with which positional signal (RoPE, NoPE,
// NoPE with temperature tuning). Draws with QPainter into any rectangle; rowAt() maps a point
// back to its layer (the window's view selects that layer on click).
// When a shown layer has temperature tuning (Llama 4's NoPE layers), a band under the rows plots
// τ(i) = log(⌊(i+1)/F⌋ + 1)·S + 1 against the query position i on a log axis from 1 to
// max(context, 10M) — exact per pixel column (its first and last position: τ is monotone) —
// with labelled ticks, the context's last position marked, and the formula beside it.
#include "core/layers.h"
#include "ui/render/theme.h"
#include "ui/model/sceneparams.h"

#include <QPainter>
#include <QRectF>
#include <QString>

#include <optional>
#include <utility>
#include <vector>

namespace poslab::ui {

struct LayersPicture {
    LayerPattern model;                 // the pattern (empty: a message instead)
    int dim = 64;                       // head dimension (for the default softmax scale)
    std::int64_t context = 131072;      // the distance axis ends here (the model's max positions)
    std::int64_t selected = -1;         // highlighted layer (the one the views show), −1 = none
    std::int64_t compared = -1;         // a second highlighted layer (compare mode), −1 = none
    QString title;                      // model name for the heading
    std::int64_t firstRows = -1;        // draw only layers 0 .. firstRows−1 (a repeating pattern's
                                        // first periods, on a slide), the heading says "of L"; −1 = all
    bool temperatureCurve = true;       // the τ(i) band when a shown layer has temperature tuning
                                        // (off where the picture's neighbours say τ already: a slide)
};

// The layer overview of a scene, as the window shows it: configuration `active`'s layer pattern
// (its context, head dimension and title) with its shown layer selected, and the shown layer of
// another configuration of the same model as `compared`. An empty pattern when `active` has none.
LayersPicture layersPictureOf(const SceneParams& scene, int active);
// The configuration whose layer overview a figure of every view shows: the first with a layer
// pattern, when the scene shows the overview (view.showLayers); −1 when none.
int layersConfigOf(const SceneParams& scene);
// Where the overview goes beside the other views in `area` (the window's and "all views"
// figures' arrangement): a row of a third of the height at the bottom, a view gap above it.
// {the other views' rectangle, the overview's}.
std::pair<QRectF, QRectF> splitForLayers(const QRectF& area, const Theme& theme);

// One row's text columns, for people: "sliding", "RoPE" or "NoPE, τ ≤ 1.716" (the temperature
// scale at the last position of `context`), "θ 10 000", "linear ×8", "window 1024" (a
// bidirectional model's: "window 128 (±64)", ⌊W/2⌋ each side), "everything".
struct LayerRowText {
    QString index, type, signal, base, scaling, reach;
};
LayerRowText layerRowText(const LayerPattern& m, std::int64_t layer, std::int64_t context);

// The layers 0 … layers − 1 of a model in groups of layers alike in everything a row shows
// (type, positional signal, RoPE parameters, window or chunk: their LayerParams are equal), in
// the order of each group's first layer; each group's layers ascending. Gemma 3 27B: {0–4, 6–10,
// …, 60–61} sliding and {5, 11, …, 59} full.
std::vector<std::vector<std::int64_t>> layerGroups(const LayerPattern& m, std::int64_t layers);
// Ascending layer indices as runs: "0–4, 6–10, 12", "5, 11, 17".
QString layerListText(const std::vector<std::int64_t>& layers);

// What every layer of the model shares, for the line under the heading: the score scale, the
// q/k norm and the sinks ("scores × 0.07715 (not 1/√128 = 0.08839) · q/k RMS norm before ...").
QString layersSubtitle(const LayerPattern& m, int dim);

void drawLayers(QPainter& p, const QRectF& rect, const LayersPicture& pic, const Theme& theme);

// The temperature curve's plot area of a picture drawn into `rect`, and its axes: positions
// 1 … positionTo (log), τ from tauLo (at the bottom) to tauHi (at the top). nullopt when no shown
// layer has temperature tuning, or the rectangle leaves no room for the curve (the rows first).
struct LayersTemperaturePlot {
    QRectF plot;
    std::int64_t positionTo = 0;    // max(context, 10 000 000)
    double tauLo = 1, tauHi = 2;
    AttentionParams attention;      // the tuned layers' (their temperature_tuning)
    double x(double position) const;   // pixel x of query position i (i < 1: the left edge)
    double y(double tau) const;
};
std::optional<LayersTemperaturePlot> layersTemperaturePlot(const QRectF& rect, const LayersPicture& pic, const Theme& theme);

// The layer at point `pt` of a picture drawn into `rect`, or nullopt (header, axis, outside).
// The picture has a row per layer where each gets at least a line of text (the body font's line
// height), else a row per group of layers alike (layerGroups): a point on a group's row stands
// for the shown layer (`selected`) when it is one of the group's, else for the group's first.
std::optional<std::int64_t> layerRowAt(const QRectF& rect, const LayersPicture& pic, const Theme& theme, const QPointF& pt);
// Every layer the row at `pt` stands for (one, or its group's), empty where there is no row.
std::vector<std::int64_t> layerRowLayersAt(const QRectF& rect, const LayersPicture& pic, const Theme& theme, const QPointF& pt);
// The rows' rectangles of a picture drawn into `rect`, top to bottom, each with its layers.
struct LayersRow {
    QRectF rect;
    std::vector<std::int64_t> layers;
};
std::vector<LayersRow> layersRows(const QRectF& rect, const LayersPicture& pic, const Theme& theme);

}  // namespace poslab::ui
