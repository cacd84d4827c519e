#pragma once
// The computations behind the views: pure functions from a SceneParams to result values, at
// display resolution. They call the core and do no maths of their own beyond choosing which
// positions to ask for. Thread-safe (no shared state): the Scheduler runs them on a worker
// thread, export and `poslab figure` call them directly.
#include "ui/model/results.h"
#include "ui/model/sceneparams.h"

namespace poslab::ui {

// How many samples each view can show (usually its size in device pixels).
struct DisplaySpec {
    int heatmapCells = 512;     // per axis, per panel
    // Work (multiply-add equivalents) a heatmap panel may spend reducing every cell of its blocks
    // where the scores are not a function of i − j; past it each block's centre cell is sampled
    // and the panel says so. The window keeps it within a frame; figures allow ~seconds.
    std::int64_t heatmapWork = std::int64_t{1} << 26;
    // Where a panel had to sample within heatmapWork, the scheduler then computes it again with
    // this budget on a worker (progressive refinement: the samples first, labelled as samples,
    // then the exact blocks). 0: no refinement.
    std::int64_t heatmapRefineWork = std::int64_t{1} << 30;
    int precisionCells = 96;    // blocks per axis of the precision view's score error heatmap
    int decaySamples = 600;     // points along the distance axis
    int trailSamples = 360;     // trail points of the pair-vector view
    int autoPairs = 4;          // pairs the pair-vector view shows when the scene names none (automaticPairsFor)
    int tableRows = 256;        // rows of a table image (learned, Shaw, T5, Transformer-XL)
    int tableCols = 256;        // columns of a table image (channels or heads, sampled beyond)
    bool operator==(const DisplaySpec&) const = default;
};

// `count` positions evenly spread over 0 .. n−1 (all of them when n <= count): the k-th is
// round(k·(n−1)/(count−1)). Strictly increasing, always contains 0 and n−1.
Positions samplePositions(std::int64_t n, int count);

// Distances for the decay view: 0 .. maxDistance (1 .. maxDistance on a log axis), sampled
// evenly (or geometrically on a log axis) down to at most `count` distinct integers.
std::vector<std::int64_t> sampleDistances(std::int64_t maxDistance, int count, bool logScale);

// The decay view's columns: consecutive ranges [from, to) of integer distances covering
// 0 .. maxDistance (1 .. maxDistance on a log axis, geometrically growing), at most `count` of
// them; one distance each when they fit.
std::vector<PositionRange> decayColumns(std::int64_t maxDistance, int count, bool logScale);
// The same over a window of distances [window.from, window.to) (from 1 on a log axis): the
// columns of a zoomed decay view.
std::vector<PositionRange> decayColumns(const PositionRange& window, int count, bool logScale);

// Panels the heatmap view shows for a scene: one per configuration, plus the differences
// (configuration − A) in compare mode when view.showDifference, for the configurations of A's
// kind (heatmapDifferenceConfigs).
int heatmapPanelCount(const SceneParams& scene);
// The configurations (1 … n−1) whose difference to A the heatmap shows: those of A's kind — the
// same method and head dimension — so that a difference means something (RoPE with two bases,
// a scaling, two layers of one model); none without view.showDifference or in single mode.
std::vector<int> heatmapDifferenceConfigs(const SceneParams& scene);
// Why the other configurations have no difference panel, as one whole sentence for people
// ("No difference to A for B (ALiBi) and C (T5): a difference is drawn only between
// configurations of A's method and head dimension (RoPE, d = 64)."); empty when none is missing.
QString heatmapDifferenceNote(const SceneParams& scene);
// Compare mode's colour ranges: whether each panel takes its own (view.colorLink own, or auto
// and the largest of the configurations' ranges more than 10× the smallest); `spans` are the
// panels' ranges (max − min of their values), a panel without values left out. A range of 0
// beside one that is not is more than 10× apart.
bool heatmapOwnRanges(ColorRangeLink link, const std::vector<double>& spans);
inline constexpr double kLinkedRangeRatio = 10.0;

// The heatmap and the decay compute only their view window (heatmapQueryWindow(),
// heatmapKeyWindow(), decayWindow() of the scene): the whole range unless zoomed.
PairsResult computePairs(const SceneParams& scene, const DisplaySpec& display = {});
HeatmapResult computeHeatmap(const SceneParams& scene, const DisplaySpec& display = {});
DecayResult computeDecay(const SceneParams& scene, const DisplaySpec& display = {});
FrequencyResult computeFrequencies(const SceneParams& scene);
// RoPE's per-pair contributions (core/contributions.h) at display.decaySamples distances from 0
// to the decay view's maximum distance (below N for real content); other methods: an error.
ContributionsResult computeContributions(const SceneParams& scene, const DisplaySpec& display);
// What the configurations' precision (RoPE's `precision` and `angle_precision`) does to the
// angles and tables (core/rope.h ropePrecisionErrors) for the chosen pairs over positions
// 0 .. N−1 in display.decaySamples columns (each column's min and max over all its positions
// while N·r/2 <= 2^22, else its middle position, marked sampled), the positions that collide in
// the angle dtype, and the largest error at log-spaced positions up to 2^20, and the score error
// heatmap (dtype − double, core/aggregate.h aggregateScoreErrors) in display.precisionCells blocks
// per axis within display.heatmapWork (past it: sampled, said on the panel). Other methods: an error.
PrecisionResult computePrecision(const SceneParams& scene, const DisplaySpec& display);

}  // namespace poslab::ui
