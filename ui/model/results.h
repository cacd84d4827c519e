#pragma once
// Result values the views draw: computed on the worker thread (compute.h) from a SceneParams at
// display resolution, handed to the GUI thread as a Shared<> value: immutable once made, owned by
// whoever still shows it, never copied (a heatmap's values are megabytes, and copying them on the
// GUI thread cost every frame of a drag). Every number here is the core's.
#include "core/aggregate.h"
#include "core/types.h"
#include "core/method.h"

#include <QImage>
#include <QPointF>
#include <QSize>
#include <QString>
#include <QStringList>

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace poslab::ui {

// A finished result, shared between the scheduler and the views (read only).
template <class Result>
using Shared = std::shared_ptr<const Result>;

// A result already drawn by its renderer, on a worker thread, at a view's size, device pixel
// ratio and theme (Scheduler::setRender asks for it). The view shows it while it still fits its
// size and theme and draws the result itself otherwise: either way its renderer made the pixels.
// While edits stream in on a high-DPI screen the renderer draws at logical resolution and each
// of its pixels becomes a block of device pixels (RenderSpec::logical): `resolution` is then 1.
struct Picture {
    QImage image;       // device pixels, devicePixelRatio() set; null when none was asked for
    QString theme;      // themeKey() of the theme it was drawn in
    double resolution = 1.0;   // the pixel ratio the renderer drew at: the image's, or 1 (logical)
};

// Device-pixel size of a picture for a view of `logical` size (what a view checks it against).
inline QSize pictureSize(const QSize& logical, double devicePixelRatio) {
    return QSize(static_cast<int>(std::lround(logical.width() * devicePixelRatio)),
                 static_cast<int>(std::lround(logical.height() * devicePixelRatio)));
}

// ---- Pair vectors -------------------------------------------------------------------------
// One chosen 2-D pair i of one configuration.
struct PairPanel {
    int pair = 0;                       // pair index i
    double theta = 0;                   // θ_i, radians per position (sinusoidal: w_i)
    int channelA = 0, channelB = 0;     // the two channels forming the pair (x, y of the plot)
    std::vector<double> angle;          // per position of interest: the core's m·θ_i
    std::vector<QPointF> query;         // per position of interest: rotated query pair
    std::vector<QPointF> key;           // per position of interest: rotated key pair (empty: none)
    std::vector<QPointF> trail;         // query pair at each trail position
};

// A plotted curve of a method that does not rotate (bias against distance, ...).
struct CurveSeries {
    QString name;
    std::vector<double> x, y;
    bool highlight = false;             // the selected head
};

struct PairsConfigResult {
    QString title;                      // "A: RoPE"
    Method method = Method::Rope;
    bool rotates = false;
    QString summary;                    // what the method does, in one sentence
    QString error;                      // non-empty: nothing else is valid
    // Rotating methods
    Positions positions;                // positions of interest (arrows)
    Positions trailPositions;           // positions of the trail points
    std::vector<PairPanel> pairs;
    QString xLabel, yLabel;             // axis meaning of the pair plots
    bool keyDiffers = false;            // whether key arrows differ from query arrows
    QString note;                       // e.g. "radius ζ^(c/scale_base): xPos spiral"
    // Non-rotating methods: a curve plot and/or a table image
    std::vector<CurveSeries> curves;
    QString curveXLabel, curveYLabel, curveTitle;
    Matrix table;                       // rows × cols values (possibly sampled)
    std::vector<std::int64_t> tableRows;  // the row labels (positions / distances / bucket)
    std::vector<std::int64_t> tableCols;  // the column labels (channel / head), sampled like rows
    QString tableTitle, tableRowLabel, tableColLabel;
};

struct PairsResult {
    std::uint64_t generation = 0;
    std::vector<PairsConfigResult> configs;
    Picture picture;
};

// ---- Heatmap --------------------------------------------------------------------------------
// What a heatmap value stands for: one cell; a statistic (HeatmapPanel::aggregate) over every
// visible cell of a block of cells; or one cell sampled from a block (never called an aggregate).
enum class HeatmapCells { Exact, Aggregate, Sample };

struct HeatmapPanel {
    QString title;
    QString shortTitle;                 // what the title says when it does not fit ("float32 − double")
    // Rows and columns: exact, the cells' positions; aggregate, each block's first position;
    // sample, the positions sampled.
    Positions queries, keys;
    Matrix values;                      // |queries| × |keys|; −inf marks masked entries (an
                                        // aggregate block with no visible cell)
    HeatmapCells cells = HeatmapCells::Exact;
    Aggregate aggregate = Aggregate::Mean;   // the statistic when cells == Aggregate
    std::vector<PositionRange> queryRanges, keyRanges;   // the block [from, to) of each row / column
    QString error;                      // non-empty: values empty
    bool difference = false;            // a "B − A" panel
    QString quantity;                   // what a value is, when not a score, weight or difference ("score error")
    double lo = 0, hi = 1;              // colour range of this panel
    bool diverging = true;
    // The configuration's attention structure (core/attention.h): the renderer draws the edges of
    // its window or chunks and names the mask; maskCausal = causal in effect (the scene's causal
    // flag, or a chunk). Default (full attention) for difference panels.
    AttentionParams attention;
    bool maskCausal = false;
    // With a sink (GPT-OSS): per row, the softmax's mass on the sink p_sink — exact cells: of the
    // row's query; aggregate: the panel's statistic (`aggregate`: mean, max, min) of p_sink over
    // every query of the row's block (queryRanges[r]), exact while that fits the panel's work
    // budget, else p_sink of the block's centre query (sinkSampled); sampled cells: of the
    // sampled query (queries[r]). Empty without a sink.
    std::vector<double> sinkMass;
    bool sinkSampled = false;           // aggregate cells but sinkMass of one query per block
    QString sinkError;                  // why sinkMass could not be computed (one line), else empty
};

struct HeatmapResult {
    std::uint64_t generation = 0;
    std::int64_t length = 0;            // N
    // The window shown (zoom and pan): query positions [queryFrom, queryTo), keys [keyFrom, keyTo).
    std::int64_t queryFrom = 0, queryTo = 0, keyFrom = 0, keyTo = 0;
    bool softmax = false, causal = false;
    bool squareCells = false;           // view.heatmapSquareCells: drawn with square cells
    int head = 0;
    QString content;                    // real content: "file: q.npy, k.npy · head 1"; else empty
    // The scene's token layout (scene.mrope): each image's or video's tokens [from, to) and its
    // kind (1 image, 2 video), outlined over the cells; the rows are that entry's patches as
    // queries, the columns the keys they see (the text around them included). Empty without one.
    struct TokenBlock {
        std::int64_t from = 0, to = 0;
        int kind = 1;
        bool operator==(const TokenBlock&) const = default;
    };
    std::vector<TokenBlock> tokenBlocks;
    std::vector<HeatmapPanel> panels;   // one per configuration, then the differences
    // Compare mode: each configuration's panel has its own colour range (else one linked range).
    bool ownRanges = false;
    // Why some configurations have no difference panel (heatmapDifferenceNote), else empty.
    QString differenceNote;
    Picture picture;
};

// ---- Decay ----------------------------------------------------------------------------------
// One plotted column stands for every integer distance in [distanceFrom[k], distanceTo[k]]
// (inclusive): value is the curve's exact mean over them, valueMin/valueMax its envelope (the
// three equal where a column holds one distance); the same for the bound.
struct DecaySeries {
    QString title;
    std::vector<std::int64_t> distance;     // per column: its centre ⌊(from + to)/2⌋
    std::vector<std::int64_t> distanceFrom, distanceTo;
    std::vector<double> value;              // mean over the column
    std::vector<double> valueMin, valueMax;
    std::vector<double> absMin, absMax;     // envelope of |value| (the band on a log value axis)
    std::vector<double> bound;              // mean of the bound; empty unless the method has one (RoPE)
    std::vector<double> boundMin, boundMax; //   (RoFormer's relative bound, their Figure 2: not in score units)
    // RoFormer's bound on |value| in the value's own units (core decay's scoreBound): what the
    // chart draws. Empty where the core gives none (a mean over a sequence's rows).
    std::vector<double> scoreBound, scoreBoundMin, scoreBoundMax;
    // What the value is: the whole score (RoPE, xPos, NoPE, real content) or the method's
    // positional term alone, the content term q·k/√d left out (learned, sinusoidal, Shaw, T5,
    // Transformer-XL, ALiBi: core/decay.h).
    bool positionalTerm = false;
    // The whole curve is past the decay's work limit: each column is its centre distance only
    // (distanceFrom = distanceTo = distance), and the view says so.
    bool sampled = false;
    QString note;                           // what the series shows beyond its title (N of dynamic/longrope)
    QString error;
    // A window or chunk: the largest distance the layer sees (core decay's visibleTo; the curve
    // stops there) and that in words, "window 1024: no key further than 1023".
    std::optional<std::int64_t> visibleTo;
    QString stopText;
};

struct DecayResult {
    std::uint64_t generation = 0;
    std::int64_t maxDistance = 0;
    std::int64_t distanceFrom = 0, distanceTo = 1;   // the window shown: distances [from, to)
    bool logX = false, logY = false, showBound = true;
    std::vector<DecaySeries> series;
    Picture picture;
};

// ---- Per-pair contributions (RoPE) ----------------------------------------------------------
// core/contributions.h for one configuration, at the sampled distances.
struct ContributionsConfigResult {
    QString title;
    QString error;                       // non-empty: nothing else is valid
    QString content;                     // "ones content", "file: q.npy, k.npy (mean over 4096 rows)"
    std::vector<std::int64_t> distance;  // the columns: their first distance
    std::vector<std::int64_t> distanceTo;   // each column's last distance (inclusive): = distance when one each
    bool sampled = false;                // past the work limit: each column's value is at its middle distance only
    Matrix value;                        // pairs × columns: the mean of c_p(t) over the column's distances
    std::vector<double> share;           // per pair: share of Σ|c|
    std::vector<double> wavelengthBefore, wavelengthAfter;   // per pair, tokens
    std::int64_t trainingContext = 0;
    bool scaled = false;                 // a scaling changes the frequencies
    double absMax = 0;                   // colour range ±absMax (linked over the configurations)
};

struct ContributionsResult {
    std::uint64_t generation = 0;
    std::vector<ContributionsConfigResult> configs;
    Picture picture;
};

// ---- Precision (RoPE in the scene's dtype against exact double) ----------------------------
// ui/model/compute.h computePrecision: for one configuration, what its precision path does to RoPE's
// angles and tables (core/rope.h ropePrecisionErrors, ropePositionCollisions).
struct PrecisionConfigResult {
    QString title;
    QString error;                        // non-empty: nothing else is valid
    QString path;                         // "bfloat16, angles in float32 (transformers main)"
    QString dtypeName;                    // the angle dtype's name ("bfloat16")
    std::vector<int> pairs;               // the chosen pairs (effectivePairs)
    // Positions 0 .. end−1 of the scene (end = N, or 65505 for float16 angles) in columns; per
    // chosen pair (outer) and column (inner) the min and max over the column's positions of the
    // angle error (rad, wrapped to (−π, π]), of the cos error and of the sin error. sampled: each column holds its
    // middle position only (the work limit), said on the view.
    std::int64_t end = 0;
    std::vector<PositionRange> columns;
    std::vector<std::vector<double>> angleMin, angleMax, cosMin, cosMax, sinMin, sinMax;
    bool sampled = false;
    // Per column: whether one of its positions shares its held value with another position.
    std::vector<bool> columnCollides;
    std::int64_t colliding = 0;           // positions of 0 .. end−1 that collide
    std::optional<std::int64_t> firstCollision;   // smallest colliding position up to logEnd
    // The largest |cos error| or |sin error| over all pairs, at log-spaced positions 1 .. logEnd
    // (2^20, or 65504 for float16 angles): these positions only, said on the view.
    std::int64_t logEnd = 0;
    std::vector<std::int64_t> logPositions;
    std::vector<double> logMaxAbs;
    std::int64_t length = 0;              // the scene's N (marked on the log axis)
    // The score error, score in the scene's dtype − score in double (core/aggregate.h
    // aggregateScoreErrors), over the N × N matrix: one difference panel, exact cells, a
    // statistic of blocks (view.aggregate) or samples, as the heatmap view's panels.
    HeatmapResult scoreError;
};

struct PrecisionResult {
    std::uint64_t generation = 0;
    std::vector<PrecisionConfigResult> configs;
    Picture picture;
};

// ---- Frequencies ----------------------------------------------------------------------------
struct FrequencyConfigResult {
    QString title;
    Method method = Method::Rope;
    bool hasFrequencies = false;        // RoPE, xPos, sinusoidal
    QString note;                       // what is shown, or why nothing is
    QString error;
    std::vector<double> before;         // θ_i before scaling (rad/position)
    std::vector<double> after;          // θ_i after scaling (same as before when unscaled)
    bool scaled = false;
    double attentionFactor = 1.0;
    std::int64_t originalContext = 0;   // scaled RoPE: original max positions (0 = none to mark)
    std::int64_t context = 0;           // RoPE: max positions (the context; extended when scaled)
    // M-RoPE (the scene's token layout, scene.mrope): the axis each pair follows, 0 t, 1 h, 2 w
    // (core mropeAxes: sectioned or interleaved); empty otherwise.
    std::vector<int> axis;
    // The picture a method without frequencies is known by (empty for the others):
    std::vector<double> slopes;         // ALiBi: m_h per head (as the bias uses them)
    int t5Buckets = 0;                  // T5: num_buckets (bucket map below), 0 = none
    std::int64_t t5MaxDistance = 0, t5MaxExact = 0;
    bool t5Bidirectional = true;
    std::vector<std::int64_t> t5Distance;   // n = |i − j|, increasing (every n up to 4096, else sampled)
    std::vector<std::int64_t> t5Before;     // bucket of a key n before the query (relative −n)
    std::vector<std::int64_t> t5After;      // bucket of a key n after it (relative +n; bidirectional only)
    // A NoPE layer (attention.nope): no positional encoding, hence no frequencies. With Llama 4's
    // temperature tuning [F, S], the query scale τ(i) = log1p(⌊(i+1)/F⌋)·S + 1 (core
    // temperatureScale, double) at log-spaced positions 0 … 10 485 760 (10M) and at the marks
    // 8 192, 131 072, 1 048 576 and 10 485 760.
    bool nope = false;
    std::vector<double> temperatureTuning;          // [F, S] or empty
    std::vector<std::int64_t> temperaturePositions;
    std::vector<double> temperatureScale;
    std::vector<std::int64_t> temperatureMarks;
    std::vector<double> temperatureAtMarks;
};

struct FrequencyResult {
    std::uint64_t generation = 0;
    std::vector<FrequencyConfigResult> configs;
    Picture picture;
};

}  // namespace poslab::ui
