#include "ui/model/compute.h"

#include "core/alibi.h"
#include "core/contributions.h"
#include "core/decay.h"
#include "core/precision.h"
#include "core/rope.h"
#include "core/scores.h"
#include "core/t5.h"

#include <QObject>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

namespace poslab::ui {

namespace {

QString qs(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

// Which rows real content comes from, "file: q.npy, k.npy · head 1"; empty for synthetic content.
QString fileContentText(const SceneParams& scene) {
    if (scene.qFile.isEmpty() || !scene.qk || !scene.qk->content) return {};
    return QObject::tr("file: %1 · head %2").arg(qs(scene.qk->content->name())).arg(scene.qk->head);
}

// Positions of interest that lie in the sequence, in the user's order, without repeats.
Positions validPositions(const SceneParams& scene) {
    Positions out;
    for (auto p : scene.positions)
        if (p >= 0 && p < scene.length && std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
    if (out.empty()) out.push_back(0);
    return out;
}

// Trail positions 0 .. last (sampled to at most `count`).
Positions trailPositions(std::int64_t last, int count) { return samplePositions(last + 1, std::max(2, count)); }

// Keeps the columns of `table` at `display.tableCols` evenly spread indices (all of them when
// there are no more) and records their labels: a table image is drawn at display resolution.
void sampleTableColumns(PairsConfigResult& out, const DisplaySpec& display) {
    const Positions cols = samplePositions(out.table.cols(), display.tableCols);
    if (static_cast<Eigen::Index>(cols.size()) < out.table.cols()) {
        Matrix picked(out.table.rows(), static_cast<Eigen::Index>(cols.size()));
        for (std::size_t c = 0; c < cols.size(); ++c) picked.col(Eigen::Index(c)) = out.table.col(Eigen::Index(cols[c]));
        out.table = std::move(picked);
    }
    out.tableCols.assign(cols.begin(), cols.end());
}

std::optional<std::int64_t> ropeSeqLen(const RopeParams& rp, std::int64_t n) {
    if (rp.seq_len) return rp.seq_len;
    return n;  // the runtime rule for a whole sequence 0..n−1: max(position)+1
}

void computeRopePairs(const SceneParams& scene, const ScoreParams& p, PairsConfigResult& out, const DisplaySpec& d,
                      const std::vector<int>& pairs) {
    const RopeParams rp = p.ropeParams();
    const RopeFrequencies freqs = ropeFrequencies(rp, ropeSeqLen(rp, scene.length));
    const int r = freqs.rotary_dim;
    const Positions& pos = out.positions;
    out.trailPositions = trailPositions(pos.empty() ? 0 : *std::max_element(pos.begin(), pos.end()), d.trailSamples);
    const Matrix angles = ropeAngles(rp, freqs, pos);
    const Matrix q = ropeApply(rp, ropeTables(rp, freqs, pos), contentRows(p, false, pos));
    const Matrix k = ropeApply(rp, ropeTables(rp, freqs, pos), contentRows(p, true, pos));
    // Trail: the first position's query, placed at every trail position.
    const Matrix q0 = contentRows(p, false, Positions{pos.front()});
    Matrix trailIn(static_cast<Eigen::Index>(out.trailPositions.size()), p.dim);
    for (Eigen::Index row = 0; row < trailIn.rows(); ++row) trailIn.row(row) = q0.row(0);
    const Matrix trail = ropeApply(rp, ropeTables(rp, freqs, out.trailPositions), trailIn);
    out.keyDiffers = p.content != Content::Ones || p.source;
    for (int i : pairs) {
        PairPanel pp;
        pp.pair = i;
        pp.theta = freqs.inv_freq(i);
        if (rp.layout == RopeLayout::Half) {
            pp.channelA = i;
            pp.channelB = i + r / 2;
        } else {
            pp.channelA = 2 * i;
            pp.channelB = 2 * i + 1;
        }
        for (Eigen::Index m = 0; m < static_cast<Eigen::Index>(pos.size()); ++m) {
            pp.angle.push_back(angles(m, i));
            pp.query.emplace_back(q(m, pp.channelA), q(m, pp.channelB));
            pp.key.emplace_back(k(m, pp.channelA), k(m, pp.channelB));
        }
        for (Eigen::Index t = 0; t < trail.rows(); ++t) pp.trail.emplace_back(trail(t, pp.channelA), trail(t, pp.channelB));
        out.pairs.push_back(std::move(pp));
    }
    out.xLabel = QObject::tr("first channel of the pair");
    out.yLabel = QObject::tr("second channel");
    if (freqs.attention_factor != 1.0)
        out.note = QObject::tr("cos and sin carry the attention factor %1, so radii are scaled by it")
                       .arg(displayValue(freqs.attention_factor));
}

void computeSinusoidalPairs(const ScoreParams& p, PairsConfigResult& out, const DisplaySpec& d,
                            const std::vector<int>& pairs) {
    const SinusoidalParams sp = p.sinusoidalParams();
    const Positions& pos = out.positions;
    out.trailPositions = trailPositions(*std::max_element(pos.begin(), pos.end()), d.trailSamples);
    const Matrix enc = sinusoidalEncoding(sp, pos);
    const Matrix trail = sinusoidalEncoding(sp, out.trailPositions);
    const Vector w = sinusoidalFrequencies(sp);
    const int half = sp.dim / 2;
    for (int i : pairs) {
        PairPanel pp;
        pp.pair = i;
        pp.theta = w(i);
        int sinCh = 2 * i, cosCh = 2 * i + 1;
        if (sp.layout == SinusoidalLayout::Concat) {
            sinCh = i;
            cosCh = i + half;
        }
        pp.channelA = cosCh;
        pp.channelB = sinCh;
        for (Eigen::Index m = 0; m < static_cast<Eigen::Index>(pos.size()); ++m) {
            pp.angle.push_back(static_cast<double>(pos[static_cast<std::size_t>(m)]) * w(i));
            pp.query.emplace_back(enc(m, cosCh), enc(m, sinCh));
        }
        for (Eigen::Index t = 0; t < trail.rows(); ++t) pp.trail.emplace_back(trail(t, cosCh), trail(t, sinCh));
        out.pairs.push_back(std::move(pp));
    }
    out.xLabel = QObject::tr("cos(m·w_i)");
    out.yLabel = QObject::tr("sin(m·w_i)");
    out.note = QObject::tr("PE_m is added to the token: its (cos, sin) pair turns by w_i per position, the same rotation picture");
}

void computeXposPairs(const SceneParams& scene, const ScoreParams& p, PairsConfigResult& out, const DisplaySpec& d,
                      const std::vector<int>& pairs) {
    const XposParams xp = p.xposParams();
    const Positions& pos = out.positions;
    out.trailPositions = trailPositions(*std::max_element(pos.begin(), pos.end()), d.trailSamples);
    if (auto e = xposCheckPositions(xp, out.trailPositions, scene.length)) {
        out.error = QString::fromStdString(e->message());
        return;
    }
    // Queries are scaled up, keys down, both centred on the sequence 0..N−1 (xposApplyAt).
    const Matrix q = xposApplyAt(xp, contentRows(p, false, pos), pos, scene.length, false);
    const Matrix k = xposApplyAt(xp, contentRows(p, true, pos), pos, scene.length, true);
    const Matrix q0 = contentRows(p, false, Positions{pos.front()});
    Matrix trailIn(static_cast<Eigen::Index>(out.trailPositions.size()), p.dim);
    for (Eigen::Index row = 0; row < trailIn.rows(); ++row) trailIn.row(row) = q0.row(0);
    const Matrix trail = xposApplyAt(xp, trailIn, out.trailPositions, scene.length, false);
    const Vector theta = xposInvFreq(xp);
    out.keyDiffers = true;
    for (int i : pairs) {
        PairPanel pp;
        pp.pair = i;
        pp.theta = theta(i);
        pp.channelA = 2 * i;
        pp.channelB = 2 * i + 1;
        for (std::size_t m = 0; m < pos.size(); ++m) {
            const auto r = static_cast<Eigen::Index>(m);
            pp.angle.push_back(xposAngles(xp, 1, pos[m])(0, i));
            pp.query.emplace_back(q(r, pp.channelA), q(r, pp.channelB));
            pp.key.emplace_back(k(r, pp.channelA), k(r, pp.channelB));
        }
        for (Eigen::Index t = 0; t < trail.rows(); ++t) pp.trail.emplace_back(trail(t, pp.channelA), trail(t, pp.channelB));
        out.pairs.push_back(std::move(pp));
    }
    out.xLabel = QObject::tr("channel 2i");
    out.yLabel = QObject::tr("channel 2i+1");
    out.note = QObject::tr("queries grow by ζ_i^(c/%1) and keys shrink by it (c = position − N/2): a spiral, "
                           "so q·k decays with distance")
                   .arg(formatValue(xp.scale_base));
}

void computeBiasPairs(const SceneParams& scene, const ScoreParams& p, PairsConfigResult& out, const DisplaySpec& d) {
    const std::int64_t D = std::max<std::int64_t>(1, std::min<std::int64_t>(scene.length - 1, 4096));
    switch (p.method) {
    case Method::NoPE:
        out.curveTitle = QObject::tr("Nothing positional to draw: the score is s·q·k of the contents alone.");
        break;
    case Method::Alibi: {
        const AlibiParams ap = p.alibiParams();
        const Vector slopes = alibiSlopes(ap);
        const auto dist = sampleDistances(D, d.decaySamples, false);
        Positions keys;
        for (auto x : dist) keys.push_back(D - x);
        const int shown = std::min(ap.heads, 16);
        for (int h = 0; h < ap.heads; ++h) {
            if (h >= shown && h != p.head) continue;
            const Matrix b = alibiBias(ap, h, Positions{D}, keys);
            CurveSeries s;
            s.name = QObject::tr("head %1 (m = %2)").arg(h).arg(displayValue(slopes(h)));
            s.highlight = h == p.head;
            for (std::size_t j = 0; j < dist.size(); ++j) {
                s.x.push_back(static_cast<double>(dist[j]));
                s.y.push_back(b(0, static_cast<Eigen::Index>(j)));
            }
            out.curves.push_back(std::move(s));
        }
        out.curveTitle = QObject::tr("Bias added to every score: −m_h·(i − j), one slope m_h per head");
        out.curveXLabel = QObject::tr("distance i − j");
        out.curveYLabel = QObject::tr("bias");
        break;
    }
    case Method::T5: {
        const T5Params tp = p.t5Params();
        const std::int64_t R = std::min<std::int64_t>(D, std::max<std::int64_t>(tp.max_distance * 2, 32));
        Positions keys = arangePositions(0, 2 * R + 1);
        const Matrix b = t5Bias(tp, p.head, Positions{R}, keys);
        CurveSeries s;
        s.name = QObject::tr("head %1").arg(p.head);
        s.highlight = true;
        for (std::size_t j = 0; j < keys.size(); ++j) {
            s.x.push_back(static_cast<double>(keys[j] - R));
            s.y.push_back(b(0, static_cast<Eigen::Index>(j)));
        }
        out.curves.push_back(std::move(s));
        out.curveTitle = QObject::tr("Learned bias per bucket of j − i (exact near, logarithmic far), head %1").arg(p.head);
        out.curveXLabel = QObject::tr("relative position j − i");
        out.curveYLabel = QObject::tr("bias");
        const Matrix table = t5BiasTable(tp);
        const Positions rows = samplePositions(table.rows(), d.tableRows);
        out.table.resize(static_cast<Eigen::Index>(rows.size()), table.cols());
        for (std::size_t r = 0; r < rows.size(); ++r) out.table.row(Eigen::Index(r)) = table.row(Eigen::Index(rows[r]));
        out.tableRows = rows;
        sampleTableColumns(out, d);
        out.tableTitle = QObject::tr("Bias table (seed %1)").arg(tp.seed);
        out.tableRowLabel = QObject::tr("bucket");
        out.tableColLabel = QObject::tr("head");
        break;
    }
    case Method::Shaw: {
        const ShawParams sp = p.shawParams();
        const std::int64_t R = std::min<std::int64_t>(D, std::max<std::int64_t>(2 * sp.max_relative_position, 8));
        Positions keys = arangePositions(0, 2 * R + 1);
        const IntMatrix idx = shawIndexAt(Positions{R}, keys, sp.max_relative_position);
        CurveSeries s;
        s.name = QObject::tr("table row");
        s.highlight = true;
        for (std::size_t j = 0; j < keys.size(); ++j) {
            s.x.push_back(static_cast<double>(keys[j] - R));
            s.y.push_back(static_cast<double>(idx(0, static_cast<Eigen::Index>(j))));
        }
        out.curves.push_back(std::move(s));
        out.curveTitle = QObject::tr("Row of a^{K} used: clip(j − i, −%1, %1) + %1").arg(sp.max_relative_position);
        out.curveXLabel = QObject::tr("relative position j − i");
        out.curveYLabel = QObject::tr("row");
        const Positions rows = samplePositions(2 * sp.max_relative_position + 1, d.tableRows);
        out.table = shawKeyRows(sp, rows);
        for (std::int64_t r : rows) out.tableRows.push_back(r - sp.max_relative_position);
        sampleTableColumns(out, d);
        out.tableTitle = QObject::tr("Key table a^{K} (added to k_j)");
        out.tableRowLabel = QObject::tr("j − i");
        out.tableColLabel = QObject::tr("channel");
        break;
    }
    case Method::Learned: {
        const LearnedParams lp = p.learnedParams();
        const std::int64_t rowsAvail = std::min<std::int64_t>(lp.table_size, scene.length);
        const Positions rows = samplePositions(rowsAvail, d.tableRows);
        auto enc = learnedEncoding(lp, rows);
        if (!enc) {
            out.error = QString::fromStdString(enc.error().message());
            return;
        }
        out.table = enc.value();
        out.tableRows = rows;
        sampleTableColumns(out, d);
        out.tableTitle = QObject::tr("Embedding table E (seeded N(0, 0.02²), seed %1)").arg(lp.seed);
        out.tableRowLabel = QObject::tr("position");
        out.tableColLabel = QObject::tr("channel");
        if (scene.length > lp.table_size)
            out.curveTitle = QObject::tr("Positions ≥ %1 have no embedding: the method cannot extrapolate.")
                                 .arg(lp.table_size);
        else
            out.curveTitle = QObject::tr("Each position p adds its own row E[p] to the token; nothing rotates.");
        break;
    }
    case Method::TransformerXL: {
        const TransformerXLParams xp = p.transformerXLParams();
        const Positions rows = samplePositions(scene.length, d.tableRows);
        std::vector<std::int64_t> dist(rows.begin(), rows.end());
        if (xp.clamp_len > 0)
            for (auto& x : dist) x = std::min(x, xp.clamp_len);
        out.table = transformerXLPosEmb(xp.dim, dist);
        out.tableRows = rows;
        sampleTableColumns(out, d);
        out.tableTitle = QObject::tr("Relative sinusoid R(d) = [sin(d·w) | cos(d·w)]%1")
                             .arg(xp.clamp_len > 0 ? QObject::tr(", clamped at %1").arg(xp.clamp_len) : QString());
        out.tableRowLabel = QObject::tr("distance d");
        out.tableColLabel = QObject::tr("channel");
        out.curveTitle = QObject::tr("Scores add q·W R(d) and v·W R(d) with trained u, v and W (seeded): "
                                     "position enters through the distance only.");
        break;
    }
    default: break;
    }
}

template <class F>
void guarded(QString& error, F&& f) {
    try {
        f();
    } catch (const std::bad_alloc&) {
        error = QObject::tr("not enough memory for this view");
    } catch (const std::exception& e) {
        error = QString::fromUtf8(e.what());
    }
}

// A heatmap panel's values from aggregated blocks (panel.queryRanges/keyRanges already set):
// samples, one cell per block (`oneCellEach`: exact cells), or the blocks' statistic.
void setPanelBlocks(HeatmapPanel& panel, Result<AggregatedScores> r, bool oneCellEach) {
    if (!r) {
        panel.error = QString::fromStdString(r.error().message());
        return;
    }
    AggregatedScores& a = r.value();
    if (a.sampled) {
        panel.cells = HeatmapCells::Sample;
        panel.queries = std::move(a.sampledQueries);
        panel.keys = std::move(a.sampledKeys);
    } else {
        panel.cells = oneCellEach ? HeatmapCells::Exact : HeatmapCells::Aggregate;
        panel.queries.clear();
        panel.keys.clear();
        for (const auto& q : panel.queryRanges) panel.queries.push_back(q.from);
        for (const auto& k : panel.keyRanges) panel.keys.push_back(k.from);
    }
    panel.values = std::move(a.values);
}

}  // namespace

Positions samplePositions(std::int64_t n, int count) {
    Positions out;
    if (n <= 0) return out;
    count = std::max(count, 1);
    if (n <= count) return arangePositions(0, n);
    if (count == 1) return {0};
    out.reserve(static_cast<std::size_t>(count));
    for (int k = 0; k < count; ++k) {
        const auto p = static_cast<std::int64_t>(std::llround(double(k) * double(n - 1) / double(count - 1)));
        if (out.empty() || p > out.back()) out.push_back(p);
    }
    return out;
}

std::vector<std::int64_t> sampleDistances(std::int64_t maxDistance, int count, bool logScale) {
    std::vector<std::int64_t> out;
    maxDistance = std::max<std::int64_t>(maxDistance, 1);
    const std::int64_t first = logScale ? 1 : 0;
    count = std::max(count, 2);
    if (maxDistance - first + 1 <= count) {
        for (auto x = first; x <= maxDistance; ++x) out.push_back(x);
        return out;
    }
    for (int k = 0; k < count; ++k) {
        double t = double(k) / double(count - 1);
        double v = logScale ? std::exp(t * std::log(double(maxDistance))) : t * double(maxDistance);
        auto x = std::clamp<std::int64_t>(std::llround(v), first, maxDistance);
        if (out.empty() || x > out.back()) out.push_back(x);
    }
    if (out.back() != maxDistance) out.push_back(maxDistance);
    return out;
}

std::vector<PositionRange> decayColumns(std::int64_t maxDistance, int count, bool logScale) {
    maxDistance = std::max<std::int64_t>(maxDistance, 1);
    return decayColumns(PositionRange{logScale ? 1 : 0, maxDistance + 1}, count, logScale);
}

std::vector<PositionRange> decayColumns(const PositionRange& window, int count, bool logScale) {
    count = std::max(count, 2);
    const std::int64_t first = std::max<std::int64_t>(window.from, logScale ? 1 : 0);
    const std::int64_t end = std::max(window.to, first + 1);
    if (!logScale || end - first <= count) return splitRange(first, end, count);
    std::vector<PositionRange> out;
    // Geometric column ends: first·(end / first)^(k/count), at least one distance each.
    std::int64_t from = first;
    const double l0 = std::log(static_cast<double>(first)), l1 = std::log(static_cast<double>(end));
    for (int k = 1; k <= count && from < end; ++k) {
        const auto to = k == count ? end
                                   : std::clamp<std::int64_t>(std::llround(std::exp(l0 + (l1 - l0) * k / count)), from + 1, end);
        out.push_back({from, to});
        from = to;
    }
    if (from < end) out.push_back({from, end});
    return out;
}

namespace {

// Cells outside their query's visible keys (causal, window, chunk) are masked (−inf), also after
// softmax, where scores() gives them weight 0: the view draws them as masked, not as scores.
void maskInvisibleCells(HeatmapPanel& panel, std::int64_t length) {
    for (Eigen::Index r = 0; r < panel.values.rows(); ++r) {
        const KeyRange kr = visibleKeys(panel.attention, panel.maskCausal, panel.queries[std::size_t(r)], length);
        for (Eigen::Index c = 0; c < panel.values.cols(); ++c)
            if (!kr.contains(panel.keys[std::size_t(c)])) panel.values(r, c) = -std::numeric_limits<double>::infinity();
    }
}

// p_sink (the softmax's mass on the sink logit) of each of `queries`: the core's own normaliser
// (scores() with softmax, one key per row), in batches of queries so that a long window of
// queries keeps within scores()'s limits.
Result<std::vector<double>> sinkMassOf(const ScoreParams& p, const Positions& queries, std::int64_t length) {
    constexpr std::size_t kBatch = 8192;
    std::vector<double> out;
    out.reserve(queries.size());
    for (std::size_t a = 0; a < queries.size(); a += kBatch) {
        const Positions batch(queries.begin() + static_cast<std::ptrdiff_t>(a),
                              queries.begin() + static_cast<std::ptrdiff_t>(std::min(queries.size(), a + kBatch)));
        std::vector<double> mass;
        auto r = scores(p, batch, Positions{batch.front()}, length, &mass);
        if (!r) return r.error();
        out.insert(out.end(), mass.begin(), mass.end());
    }
    return out;
}

// Each row's p_sink when the configuration has a sink (HeatmapPanel::sinkMass): of the row's
// query for exact and sampled cells; for aggregated blocks the panel's statistic over every query
// of the block, exact while the normalisers' work (every visible key of every query, times
// dim + per-entry work) fits `maxWork`, else of the block's centre query (sinkSampled).
void computeSinkMass(HeatmapPanel& panel, ScoreParams p, std::int64_t length, std::int64_t maxWork) {
    if (!p.sinkLogit() || panel.queries.empty()) return;
    p.softmax = true;
    const auto fail = [&](const ParamError& e) { panel.sinkError = QString::fromStdString(e.message()); };
    if (panel.cells != HeatmapCells::Aggregate) {
        auto r = sinkMassOf(p, panel.queries, length);
        if (!r) return fail(r.error());
        panel.sinkMass = std::move(r.value());
        return;
    }
    const bool causal = p.attention.causalWith(p.causal);
    std::int64_t span = 0;
    for (const auto& block : panel.queryRanges)
        for (std::int64_t i = block.from; i < block.to; ++i) {
            const KeyRange kr = visibleKeys(p.attention, causal, i, length);
            span += std::max<std::int64_t>(0, kr.last - kr.first + 1);
        }
    ScoreParams one = p;
    one.softmax = false;
    const std::int64_t perKey = std::max<std::int64_t>(1, aggregateWork(one, length, 1, 1));   // dim + per-entry work
    if (span > maxWork / perKey) {
        Positions centres;
        for (const auto& block : panel.queryRanges) centres.push_back(block.from + (block.size() - 1) / 2);
        auto r = sinkMassOf(p, centres, length);
        if (!r) return fail(r.error());
        panel.sinkMass = std::move(r.value());
        panel.sinkSampled = true;
        return;
    }
    Positions all;
    for (const auto& block : panel.queryRanges)
        for (std::int64_t i = block.from; i < block.to; ++i) all.push_back(i);
    auto r = sinkMassOf(p, all, length);
    if (!r) return fail(r.error());
    const std::vector<double>& mass = r.value();
    panel.sinkMass.clear();
    std::size_t k = 0;
    for (const auto& block : panel.queryRanges) {
        double sum = 0, lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (std::int64_t i = block.from; i < block.to; ++i, ++k) {
            sum += mass[k];
            lo = std::min(lo, mass[k]);
            hi = std::max(hi, mass[k]);
        }
        panel.sinkMass.push_back(panel.aggregate == Aggregate::Mean  ? sum / static_cast<double>(block.size())
                                 : panel.aggregate == Aggregate::Max ? hi
                                                                     : lo);
    }
}

}  // namespace

int heatmapPanelCount(const SceneParams& scene) {
    return static_cast<int>(scene.methods.size() + heatmapDifferenceConfigs(scene).size());
}

namespace {
// What makes two configurations' heatmaps subtractable: the method and the head dimension.
bool sameKind(const ScoreParams& a, const ScoreParams& b) { return a.method == b.method && a.dim == b.dim; }

// "B", "B and C", "B, C and D".
QString listOf(const QStringList& items) {
    if (items.size() <= 1) return items.join(QString());
    return QObject::tr("%1 and %2").arg(items.mid(0, items.size() - 1).join(QStringLiteral(", ")), items.back());
}
}  // namespace

std::vector<int> heatmapDifferenceConfigs(const SceneParams& scene) {
    std::vector<int> out;
    const int n = static_cast<int>(scene.methods.size());
    if (n < 2 || !scene.view.showDifference) return out;
    const ScoreParams& a = scene.methods.front().params;
    for (int c = 1; c < n; ++c)
        if (sameKind(a, scene.methods[static_cast<std::size_t>(c)].params)) out.push_back(c);
    return out;
}

QString heatmapDifferenceNote(const SceneParams& scene) {
    const int n = static_cast<int>(scene.methods.size());
    if (n < 2 || !scene.view.showDifference) return {};
    const ScoreParams& a = scene.methods.front().params;
    QStringList missing;
    for (int c = 1; c < n; ++c) {
        const ScoreParams& b = scene.methods[static_cast<std::size_t>(c)].params;
        if (sameKind(a, b)) continue;
        QStringList what;
        if (b.method != a.method) what << methodDisplayName(b.method);
        if (b.dim != a.dim) what << QObject::tr("d = %1").arg(b.dim);
        missing << QStringLiteral("%1 (%2)").arg(QChar('A' + c)).arg(what.join(QStringLiteral(", ")));
    }
    if (missing.isEmpty()) return {};
    return QObject::tr("No difference to A for %1: a difference is drawn only between configurations of A's method and "
                       "head dimension (%2, d = %3).")
        .arg(listOf(missing), methodDisplayName(a.method))
        .arg(a.dim);
}

bool heatmapOwnRanges(ColorRangeLink link, const std::vector<double>& spans) {
    if (link != ColorRangeLink::Auto) return link == ColorRangeLink::Own;
    double lo = std::numeric_limits<double>::infinity(), hi = 0;
    for (double s : spans) {
        if (!std::isfinite(s)) continue;
        lo = std::min(lo, s);
        hi = std::max(hi, s);
    }
    return hi > 0 && hi > kLinkedRangeRatio * lo;
}

PairsResult computePairs(const SceneParams& scene, const DisplaySpec& display) {
    PairsResult res;
    for (int c = 0; c < static_cast<int>(scene.methods.size()); ++c) {
        PairsConfigResult out;
        ScoreParams p = effectiveParams(scene, c);
        out.title = configTitle(scene, c);
        // A NoPE layer (attention.nope) shows NoPE: nothing rotates.
        if (p.attention.nope) p.method = Method::NoPE;
        out.method = p.method;
        out.rotates = methodRotates(p.method);
        out.summary = p.attention.nope ? QObject::tr("this layer applies no positional encoding (NoPE): ") + methodSummaryText(p.method)
                                       : methodSummaryText(p.method);
        if (auto e = sceneProblem(scene)) {
            out.error = *e;
        } else {
            out.positions = validPositions(scene);
            guarded(out.error, [&] {
                const auto pairs = effectivePairs(scene, c, display.autoPairs);
                switch (p.method) {
                case Method::Rope: computeRopePairs(scene, p, out, display, pairs); break;
                case Method::Sinusoidal: computeSinusoidalPairs(p, out, display, pairs); break;
                case Method::Xpos: computeXposPairs(scene, p, out, display, pairs); break;
                default: computeBiasPairs(scene, p, out, display); break;
                }
                // Say what is sampled: the trail and the table rows are drawn at display
                // resolution, not one per position.
                if (out.trailPositions.size() >= 2 &&
                    static_cast<std::int64_t>(out.trailPositions.size()) < out.trailPositions.back() + 1) {
                    const QString t = QObject::tr("trail: %1 sampled positions of 0 … %2")
                                          .arg(out.trailPositions.size())
                                          .arg(out.trailPositions.back());
                    out.note = out.note.isEmpty() ? t : out.note + QStringLiteral(" · ") + t;
                }
                if (const QString f = fileContentText(scene); !f.isEmpty())
                    out.note = out.note.isEmpty() ? f : f + QStringLiteral(" · ") + out.note;
                if (out.tableRows.size() >= 2 && out.tableRows.size() < std::size_t(display.tableRows + 1) &&
                    out.tableRows.back() - out.tableRows.front() + 1 > static_cast<std::int64_t>(out.tableRows.size()))
                    out.tableTitle += QObject::tr(" · %1 sampled rows").arg(out.tableRows.size());
            });
        }
        res.configs.push_back(std::move(out));
    }
    return res;
}

HeatmapResult computeHeatmap(const SceneParams& scene, const DisplaySpec& display) {
    HeatmapResult res;
    res.length = scene.length;
    res.softmax = scene.view.softmax;
    res.causal = scene.view.causal;
    res.squareCells = scene.view.heatmapSquareCells;
    res.head = scene.head;
    res.content = fileContentText(scene);
    if (const auto tokens = scenePositions(scene)) {
        const auto& kinds = tokens->kinds;
        for (std::size_t k = 0; k < kinds.size();) {
            std::size_t e = k;
            while (e < kinds.size() && kinds[e] == kinds[k]) ++e;
            if (kinds[k] != TokenKind::Text)
                res.tokenBlocks.push_back({static_cast<std::int64_t>(k), static_cast<std::int64_t>(e), static_cast<int>(kinds[k])});
            k = e;
        }
    }
    const auto problem = sceneProblem(scene);
    // Only the window (zoom and pan): queries [qw.from, qw.to) × keys [kw.from, kw.to). The
    // blocks the pixels cover: one cell each when the window fits the display, else equal blocks
    // of ceil(size / cells) positions (the last one shorter).
    const ViewWindow qw = heatmapQueryWindow(scene), kw = heatmapKeyWindow(scene);
    res.queryFrom = qw.from;
    res.queryTo = qw.to;
    res.keyFrom = kw.from;
    res.keyTo = kw.to;
    const std::vector<PositionRange> queryRanges =
        problem ? std::vector<PositionRange>{} : splitRange(qw.from, qw.to, display.heatmapCells);
    const std::vector<PositionRange> keyRanges =
        problem ? std::vector<PositionRange>{} : splitRange(kw.from, kw.to, display.heatmapCells);
    const bool oneCellEach = static_cast<std::int64_t>(queryRanges.size()) == qw.size() &&
                             static_cast<std::int64_t>(keyRanges.size()) == kw.size();
    Positions queryStarts, keyStarts;
    for (const auto& r : queryRanges) queryStarts.push_back(r.from);
    for (const auto& r : keyRanges) keyStarts.push_back(r.from);
    const int n = static_cast<int>(scene.methods.size());
    res.panels.reserve(static_cast<std::size_t>(n > 1 ? 2 * n - 1 : n));
    for (int c = 0; c < n; ++c) {
        HeatmapPanel panel;
        panel.title = configTitle(scene, c);
        const ScoreParams scoring = scoringParams(scene, c);   // its M-RoPE rows computed once
        {
            const ScoreParams& ep = scoring;
            const int heads = ep.method == Method::Alibi ? ep.alibi.heads : ep.method == Method::T5 ? ep.t5.heads : 0;
            if (heads > 0) panel.title += QObject::tr(" · head %1 of %2").arg(ep.head).arg(heads);
        }
        if (problem) {
            panel.error = *problem;
        } else {
            guarded(panel.error, [&] {
                panel.queryRanges = queryRanges;
                panel.keyRanges = keyRanges;
                panel.aggregate = scene.view.aggregate;
                {
                    const ScoreParams& ep = scoring;
                    panel.attention = ep.attention;
                    panel.maskCausal = ep.attention.causalWith(ep.causal);
                }
                if (oneCellEach) {
                    // Every cell, as the core computes it.
                    auto r = scores(scoring, queryStarts, keyStarts, scene.length);
                    if (!r) {
                        panel.error = QString::fromStdString(r.error().message());
                        return;
                    }
                    panel.cells = HeatmapCells::Exact;
                    panel.queries = queryStarts;
                    panel.keys = keyStarts;
                    panel.values = std::move(r.value());
                    maskInvisibleCells(panel, scene.length);
                    return;
                }
                setPanelBlocks(panel, aggregateScores(scoring, scene.length, queryRanges, keyRanges,
                                                      scene.view.aggregate, display.heatmapWork),
                               false);
            });
            if (panel.error.isEmpty()) computeSinkMass(panel, scoring, scene.length, display.heatmapWork);
        }
        res.panels.push_back(std::move(panel));
    }
    // Colour ranges: each panel's own values' range, and the linked range over all of them; the
    // panels take the linked one unless their ranges differ by more than 10× (heatmapOwnRanges).
    struct Range {
        double lo = std::numeric_limits<double>::infinity(), hi = -std::numeric_limits<double>::infinity(), absMax = 0;
        bool any() const { return hi >= lo; }
        void add(double v) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
            absMax = std::max(absMax, std::abs(v));
        }
    };
    Range all;
    std::vector<Range> own(res.panels.size());
    for (std::size_t k = 0; k < res.panels.size(); ++k) {
        const auto& p = res.panels[k];
        for (Eigen::Index i = 0; i < p.values.size(); ++i) {
            const double v = p.values.data()[i];
            if (!std::isfinite(v)) continue;
            own[k].add(v);
            all.add(v);
        }
    }
    // Automatic: diverging (centred on 0) when the scores take both signs, else viridis over
    // [min, max] so that a one-signed matrix still shows its structure.
    const auto divergingFor = [&](const Range& r) {
        return scene.view.colormap == HeatmapColormap::Diverging ||
               (scene.view.colormap == HeatmapColormap::Auto && !scene.view.softmax && r.any() && r.lo < 0 && r.hi > 0);
    };
    const auto apply = [&](HeatmapPanel& p, const Range& r, bool diverging) {
        const double lo = r.any() ? r.lo : 0.0, hi = r.any() ? r.hi : 0.0;
        p.diverging = diverging;
        if (diverging) {
            const double m = r.absMax > 0 ? r.absMax : 1.0;
            p.lo = -m;
            p.hi = m;
        } else if (scene.view.softmax) {
            p.lo = 0;
            p.hi = hi > 0 ? hi : 1.0;
        } else {
            p.lo = lo;
            p.hi = hi > lo ? hi : lo + 1.0;
        }
    };
    const bool linkedDiverging = divergingFor(all);
    std::vector<double> spans;
    for (std::size_t k = 0; k < res.panels.size(); ++k)
        if (own[k].any())
            spans.push_back(own[k].hi - own[k].lo);
    res.ownRanges = n > 1 && heatmapOwnRanges(scene.view.colorLink, spans);
    for (std::size_t k = 0; k < res.panels.size(); ++k) {
        if (res.ownRanges) apply(res.panels[k], own[k], divergingFor(own[k]));
        else apply(res.panels[k], all, linkedDiverging);
    }
    // Differences against the first configuration, for the configurations of its kind (the others
    // are said in one sentence: differenceNote). Appending to res.panels may move its elements:
    // a and b are looked up afresh for each difference and not used after the append.
    res.differenceNote = heatmapDifferenceNote(scene);
    if (!problem) {
        for (int c : heatmapDifferenceConfigs(scene)) {
            HeatmapPanel diff;
            diff.difference = true;
            diff.diverging = true;
            diff.title = QObject::tr("%1 − %2").arg(QString(QChar('A' + c)), QStringLiteral("A"));
            const HeatmapPanel& a0 = res.panels.front();
            const HeatmapPanel& b0 = res.panels[static_cast<std::size_t>(c)];
            if (!a0.error.isEmpty() || !b0.error.isEmpty()) {
                diff.error = QObject::tr("needs both panels");
                res.panels.push_back(std::move(diff));
                continue;
            }
            // One panel sampled (past the work budget) and the other aggregated: the aggregated
            // one's exact cells at the sampled positions, so that both sides are the same samples.
            std::optional<Matrix> resampled;
            const bool aSampled = a0.cells == HeatmapCells::Sample, bSampled = b0.cells == HeatmapCells::Sample;
            if (aSampled != bSampled) {
                const HeatmapPanel& sampled = aSampled ? a0 : b0;
                const HeatmapPanel& other = aSampled ? b0 : a0;
                guarded(diff.error, [&] {
                    auto r = scores(scoringParams(scene, aSampled ? c : 0), sampled.queries, sampled.keys, scene.length);
                    if (!r) {
                        diff.error = QString::fromStdString(r.error().message());
                        return;
                    }
                    HeatmapPanel cells;   // the other panel's mask at the sampled positions
                    cells.attention = other.attention;
                    cells.maskCausal = other.maskCausal;
                    cells.queries = sampled.queries;
                    cells.keys = sampled.keys;
                    cells.values = std::move(r.value());
                    maskInvisibleCells(cells, scene.length);
                    resampled = std::move(cells.values);
                });
                if (!diff.error.isEmpty()) {
                    res.panels.push_back(std::move(diff));
                    continue;
                }
            }
            const HeatmapPanel& a = res.panels.front();
            const HeatmapPanel& b = res.panels[static_cast<std::size_t>(c)];
            const HeatmapPanel& shape = aSampled || !bSampled ? a : b;   // the sampled side's positions
            diff.queries = shape.queries;
            diff.keys = shape.keys;
            diff.queryRanges = a.queryRanges;
            diff.keyRanges = a.keyRanges;
            diff.aggregate = a.aggregate;
            // A sample on either side makes the difference a sample; blocks of the same ranges
            // otherwise (for max/min: the difference of the blocks' maxima/minima).
            diff.cells = aSampled || bSampled ? HeatmapCells::Sample : a.cells;
            const Matrix& av = aSampled == bSampled || aSampled ? a.values : *resampled;
            const Matrix& bv = aSampled == bSampled || bSampled ? b.values : *resampled;
            diff.values = bv - av;
            double m = 0;
            for (Eigen::Index i = 0; i < diff.values.size(); ++i) {
                double& v = diff.values.data()[i];
                if (!std::isfinite(av.data()[i]) || !std::isfinite(bv.data()[i]))
                    v = -std::numeric_limits<double>::infinity();
                else
                    m = std::max(m, std::abs(v));
            }
            diff.lo = -(m > 0 ? m : 1.0);
            diff.hi = m > 0 ? m : 1.0;
            res.panels.push_back(std::move(diff));
        }
    }
    return res;
}

DecayResult computeDecay(const SceneParams& scene, const DisplaySpec& display) {
    DecayResult res;
    res.maxDistance = std::max<std::int64_t>(1, scene.view.decayMaxDistance);
    // Real content: the means exist for the distances below the file's N only (the axis follows).
    if (!scene.qFile.isEmpty() && scene.qk && scene.qk->content)
        res.maxDistance = std::min(res.maxDistance, std::max<std::int64_t>(1, scene.qk->content->length() - 1));
    // A token layout: the means over its tokens' rows exist for the distances below its N.
    bool layout = false;
    for (int c = 0; c < static_cast<int>(scene.methods.size()); ++c) layout = layout || usesTokenLayout(scene, c);
    if (layout) res.maxDistance = std::min(res.maxDistance, std::max<std::int64_t>(1, scene.length - 1));
    res.logX = scene.view.decayLogX;
    res.logY = scene.view.decayLogY;
    res.showBound = scene.view.decayShowBound;
    // Only the window of distances (zoom and pan), within the distances plotted.
    const ViewWindow window =
        clipWindow(scene.view.decayFrom, scene.view.decayTo, res.logX ? 1 : 0, res.maxDistance + 1);
    res.distanceFrom = window.from;
    res.distanceTo = window.to;
    const auto columns = decayColumns(window, display.decaySamples, res.logX);
    for (int c = 0; c < static_cast<int>(scene.methods.size()); ++c) {
        DecaySeries s;
        s.title = configTitle(scene, c);
        if (auto e = configProblem(scene, c)) {
            s.error = *e;
        } else {
            guarded(s.error, [&] {
                ScoreParams p = scoringParams(scene, c);
                // Dynamic NTK and LongRoPE: the factors of a sequence of the scene's length
                // (or the explicit sequence length), as the pair and heatmap views use.
                if (p.method == Method::Rope &&
                    (p.rope.scaling == RopeScaling::Dynamic || p.rope.scaling == RopeScaling::LongRope)) {
                    if (p.rope.seq_len)
                        s.note = QObject::tr("factors for an explicit sequence length %1").arg(*p.rope.seq_len);
                    else
                        s.note = QObject::tr("factors for a sequence of N = %1 (the scene's length)").arg(scene.length);
                    if (!p.rope.seq_len) p.rope.seq_len = scene.length;
                }
                if (usesTokenLayout(scene, c)) {
                    const QString t = QObject::tr("mean over the rows i ≥ d, each token rotated by its own (t, h, w) ids");
                    s.note = s.note.isEmpty() ? t : t + QStringLiteral("; ") + s.note;
                }
                if (const QString f = fileContentText(scene); !f.isEmpty()) {
                    const QString t = QObject::tr("mean over the rows i ≥ d of %1").arg(f);
                    s.note = s.note.isEmpty() ? t : t + QStringLiteral("; ") + s.note;
                }
                // Every integer distance of every column: the curve over the window (the same
                // values as the whole curve's, decayCurve() being decayCurveAt() of 0 … D), then
                // each column's exact envelope and mean.
                std::vector<std::int64_t> every;
                every.reserve(static_cast<std::size_t>(window.size()));
                for (std::int64_t x = window.from; x < window.to; ++x) every.push_back(x);
                auto r = decayCurveAt(p, every);
                if (!r && r.error().parameter == "max_distance" &&
                    r.error().valid.find("work limit") != std::string::npos) {
                    // Past the work limit: the columns' centres only, said on the view.
                    std::vector<std::int64_t> centres;
                    for (const auto& col : columns) centres.push_back(col.from + (col.size() - 1) / 2);
                    r = decayCurveAt(p, centres);
                    s.sampled = true;
                }
                if (!r) {
                    s.error = QString::fromStdString(r.error().message());
                    return;
                }
                const DecayCurve& curve = r.value();
                const bool hasBound = curve.bound.has_value();
                const bool hasScoreBound = curve.scoreBound.has_value();
                {
                    const Method m = p.effectiveMethod();
                    s.positionalTerm = !p.source && (m == Method::Learned || m == Method::Sinusoidal || m == Method::Shaw ||
                                                     m == Method::T5 || m == Method::TransformerXL || m == Method::Alibi);
                }
                s.visibleTo = curve.visibleTo;
                if (curve.visibleTo) {
                    const AttentionParams& at = p.attention;
                    const QString mask = at.chunk ? QObject::tr("chunk %1").arg(*at.chunk)
                                                  : QObject::tr("window %1").arg(at.window.value_or(0));
                    s.stopText = QObject::tr("%1: no key further than %2").arg(mask).arg(*curve.visibleTo);
                }
                // A window or chunk ends the curve (its distances are the first ones asked for).
                const auto have = static_cast<std::int64_t>(curve.distance.size());
                for (std::size_t k = 0; k < columns.size(); ++k) {
                    const auto& col = columns[k];
                    std::int64_t a = col.from, b = col.to - 1;
                    Eigen::Index i0 = a - window.from, i1 = b - window.from;   // indices into the curve
                    if (s.sampled) {
                        if (static_cast<std::int64_t>(k) >= have) break;
                        a = b = curve.distance[k];
                        i0 = i1 = static_cast<Eigen::Index>(k);
                    } else {
                        if (i0 >= have) break;
                        i1 = std::min<Eigen::Index>(i1, have - 1);
                        b = a + (i1 - i0);
                    }
                    double sum = 0, mn = std::numeric_limits<double>::infinity(), mx = -mn;
                    double amn = mn, amx = 0, bsum = 0, bmn = mn, bmx = -mn, ssum = 0, smn = mn, smx = -mn;
                    for (Eigen::Index i = i0; i <= i1; ++i) {
                        const double v = curve.value[i];
                        sum += v;
                        mn = std::min(mn, v);
                        mx = std::max(mx, v);
                        amn = std::min(amn, std::abs(v));
                        amx = std::max(amx, std::abs(v));
                        if (hasBound) {
                            const double x = (*curve.bound)[i];
                            bsum += x;
                            bmn = std::min(bmn, x);
                            bmx = std::max(bmx, x);
                        }
                        if (hasScoreBound) {
                            const double x = (*curve.scoreBound)[i];
                            ssum += x;
                            smn = std::min(smn, x);
                            smx = std::max(smx, x);
                        }
                    }
                    const auto n = static_cast<double>(i1 - i0 + 1);
                    s.distanceFrom.push_back(a);
                    s.distanceTo.push_back(b);
                    s.distance.push_back(a + (b - a) / 2);
                    s.value.push_back(i0 == i1 ? mn : sum / n);
                    s.valueMin.push_back(mn);
                    s.valueMax.push_back(mx);
                    s.absMin.push_back(amn);
                    s.absMax.push_back(amx);
                    if (hasBound) {
                        s.bound.push_back(i0 == i1 ? bmn : bsum / n);
                        s.boundMin.push_back(bmn);
                        s.boundMax.push_back(bmx);
                    }
                    if (hasScoreBound) {
                        s.scoreBound.push_back(i0 == i1 ? smn : ssum / n);
                        s.scoreBoundMin.push_back(smn);
                        s.scoreBoundMax.push_back(smx);
                    }
                }
            });
        }
        res.series.push_back(std::move(s));
    }
    return res;
}

namespace {

// A NoPE layer has no frequencies; with temperature tuning, its query scale against position up
// to 10M (Llama 4's context), at ~200 log-spaced positions and the marks 8k, 128k, 1M, 10M.
void computeNopeFrequencies(const ScoreParams& p, FrequencyConfigResult& f) {
    f.nope = true;
    f.method = Method::NoPE;
    f.hasFrequencies = false;
    f.note = QObject::tr("this layer applies no positional encoding (NoPE): no rotation, no frequencies; "
                         "its scores are q·k whatever the distance");
    const auto& tt = p.attention.temperature_tuning;
    if (tt.size() != 2) return;
    f.temperatureTuning = tt;
    constexpr std::int64_t kEnd = 10485760;   // 10M = 10·2^20
    std::int64_t last = -1;
    for (int k = 0; k <= 200; ++k) {
        const auto i = std::min<std::int64_t>(kEnd, std::llround(std::exp(std::log(double(kEnd)) * k / 200.0)) - 1);
        if (i <= last) continue;
        f.temperaturePositions.push_back(i);
        f.temperatureScale.push_back(temperatureScale(p.attention, i, Precision::Double));
        last = i;
    }
    for (std::int64_t m : {std::int64_t{8192}, std::int64_t{131072}, std::int64_t{1048576}, kEnd}) {
        f.temperatureMarks.push_back(m);
        f.temperatureAtMarks.push_back(temperatureScale(p.attention, m, Precision::Double));
    }
    f.note += QObject::tr(" · temperature tuning: each query row i is scaled by log1p(⌊(i+1)/%1⌋)·%2 + 1")
                  .arg(displayValue(tt[0]), displayValue(tt[1]));
}

}  // namespace

FrequencyResult computeFrequencies(const SceneParams& scene) {
    FrequencyResult res;
    for (int c = 0; c < static_cast<int>(scene.methods.size()); ++c) {
        FrequencyConfigResult f;
        const ScoreParams p = effectiveParams(scene, c);
        f.title = configTitle(scene, c);
        f.method = p.method;
        if (auto e = configProblem(scene, c)) {
            f.error = *e;
            res.configs.push_back(std::move(f));
            continue;
        }
        if (p.attention.nope) {
            computeNopeFrequencies(p, f);
            res.configs.push_back(std::move(f));
            continue;
        }
        guarded(f.error, [&] {
            auto assign = [](std::vector<double>& v, const Vector& x) { v.assign(x.data(), x.data() + x.size()); };
            switch (p.method) {
            case Method::Rope: {
                const RopeParams rp = p.ropeParams();
                const RopeFrequencies after = ropeFrequencies(rp, ropeSeqLen(rp, scene.length));
                const RopeFrequencies before = ropeDefaultFrequencies(rp);
                f.hasFrequencies = true;
                assign(f.before, before.inv_freq);
                assign(f.after, after.inv_freq);
                f.scaled = rp.scaling != RopeScaling::None || !rp.theta.empty();
                f.attentionFactor = after.attention_factor;
                // Scaled: the original (training) context and the extended one; unscaled: the context.
                f.originalContext = f.scaled ? rp.originalMaxPositions() : 0;
                f.context = rp.max_positions;
                f.note = f.scaled ? QObject::tr("θ_i = 1/base^(2i/r) before scaling and after (N = %1)").arg(scene.length)
                                  : QObject::tr("θ_i = 1/base^(2i/r): pair i turns θ_i radians per position");
                // Dynamic NTK and LongRoPE choose their factors by the sequence length: say which.
                if (rp.scaling == RopeScaling::Dynamic || rp.scaling == RopeScaling::LongRope)
                    f.note = rp.seq_len ? QObject::tr("θ_i before scaling and after, factors for an explicit sequence length %1")
                                              .arg(*rp.seq_len)
                                        : QObject::tr("θ_i before scaling and after, factors for a sequence of N = %1 (the scene's length)")
                                              .arg(scene.length);
                // M-RoPE: which of t, h, w each pair's angle follows.
                if (usesTokenLayout(scene, c)) {
                    const int half = rp.rotaryDim() / 2;
                    const auto section = mropeSectionFor(scene, c, half);
                    const MropeLayout layout = scene.methods[static_cast<std::size_t>(c)].mropeLayout;
                    if (auto axes = mropeAxes(half, section, layout)) {
                        f.axis = axes.value();
                        f.note = QObject::tr("M-RoPE, %1 %2,%3,%4: each dot's colour is the axis its pair follows (t, h or w)")
                                     .arg(layout == MropeLayout::Interleaved ? QObject::tr("interleaved")
                                                                                               : QObject::tr("sectioned"))
                                     .arg(section[0])
                                     .arg(section[1])
                                     .arg(section[2]);
                    }
                }
                break;
            }
            case Method::Sinusoidal: {
                f.hasFrequencies = true;
                assign(f.before, sinusoidalFrequencies(p.sinusoidalParams()));
                f.after = f.before;
                f.note = QObject::tr("w_i of the (sin, cos) pairs added to the tokens");
                break;
            }
            case Method::Xpos: {
                f.hasFrequencies = true;
                assign(f.before, xposInvFreq(p.xposParams()));
                f.after = f.before;
                f.note = QObject::tr("θ_i = 10000^(−i/(d/2)) of xPos's interleaved rotation");
                break;
            }
            case Method::TransformerXL: {
                SinusoidalParams sp;
                sp.dim = p.dim;
                sp.layout = SinusoidalLayout::Concat;
                f.hasFrequencies = true;
                assign(f.before, sinusoidalFrequencies(sp));
                f.after = f.before;
                f.note = QObject::tr("w_i of the relative sinusoid R(d) (not a rotation of q and k)");
                break;
            }
            case Method::Alibi: {
                const Vector m = alibiSlopes(p.alibiParams());
                assign(f.slopes, m);
                f.note = QObject::tr("no rotation: head h adds −m_h·(i − j) to every score; its slope m_h per head");
                break;
            }
            case Method::T5: {
                const T5Params tp = p.t5Params();
                f.t5Buckets = tp.num_buckets;
                f.t5MaxDistance = tp.max_distance;
                f.t5Bidirectional = tp.bidirectional;
                f.t5MaxExact = (tp.bidirectional ? tp.num_buckets / 2 : tp.num_buckets) / 2;
                // Distances 0 … 2·max_distance: every one up to 4096, else 4096 evenly spaced.
                const std::int64_t end = std::min<std::int64_t>(2 * tp.max_distance, std::int64_t{1} << 40);
                const std::int64_t count = std::min<std::int64_t>(end + 1, 4097);
                for (std::int64_t k = 0; k < count; ++k) {
                    const std::int64_t n = count == end + 1 ? k : static_cast<std::int64_t>(std::llround(double(k) * double(end) / double(count - 1)));
                    if (!f.t5Distance.empty() && n == f.t5Distance.back()) continue;
                    f.t5Distance.push_back(n);
                    f.t5Before.push_back(t5Bucket(-n, tp));
                    if (tp.bidirectional) f.t5After.push_back(t5Bucket(n, tp));
                }
                f.note = QObject::tr("no rotation: a learned bias per bucket; distance |i − j| → bucket (exact below %1, "
                                     "logarithmic up to %2)").arg(f.t5MaxExact).arg(tp.max_distance);
                break;
            }
            default:
                f.note = QObject::tr("%1 has no rotation frequencies. %2").arg(f.title, methodSummaryText(p.method));
                break;
            }
        });
        res.configs.push_back(std::move(f));
    }
    return res;
}

ContributionsResult computeContributions(const SceneParams& scene, const DisplaySpec& display) {
    ContributionsResult res;
    double absMax = 0;
    for (int c = 0; c < static_cast<int>(scene.methods.size()); ++c) {
        ContributionsConfigResult out;
        const ScoreParams p = effectiveParams(scene, c);
        out.title = configTitle(scene, c);
        if (auto e = configProblem(scene, c)) {
            out.error = *e;
        } else if (p.method != Method::Rope) {
            out.error = QObject::tr("Per-pair contributions need rotary pairs: choose RoPE.");
        } else {
            guarded(out.error, [&] {
                std::int64_t maxD = std::max<std::int64_t>(1, scene.view.decayMaxDistance);
                if (p.source) maxD = std::min<std::int64_t>(maxD, p.source->length() - 1);
                maxD = std::max<std::int64_t>(maxD, 0);
                // Every integer distance, then each column's exact mean (as the decay view does):
                // a column standing for many distances never shows one of them as if it were all.
                const auto columns = decayColumns(PositionRange{0, maxD + 1}, display.decaySamples, false);
                std::vector<std::int64_t> every;
                every.reserve(static_cast<std::size_t>(maxD + 1));
                for (std::int64_t t = 0; t <= maxD; ++t) every.push_back(t);
                auto r = pairContributions(p, every);
                if (!r && r.error().parameter == "max_distance" && every.size() > columns.size()) {
                    std::vector<std::int64_t> centres;   // past the work limit: the columns' middles, said on the view
                    for (const auto& col : columns) centres.push_back(col.from + (col.size() - 1) / 2);
                    r = pairContributions(p, centres);
                    out.sampled = true;
                }
                if (!r) {
                    out.error = QString::fromStdString(r.error().message());
                    return;
                }
                const Contributions& k = r.value();
                out.value = Matrix::Zero(k.value.rows(), static_cast<Eigen::Index>(columns.size()));
                for (std::size_t c = 0; c < columns.size(); ++c) {
                    const auto& col = columns[c];
                    out.distance.push_back(out.sampled ? k.distance[c] : col.from);
                    out.distanceTo.push_back(out.sampled ? k.distance[c] : col.to - 1);
                    if (out.sampled) {
                        out.value.col(static_cast<Eigen::Index>(c)) = k.value.col(static_cast<Eigen::Index>(c));
                        continue;
                    }
                    out.value.col(static_cast<Eigen::Index>(c)) =
                        k.value.middleCols(static_cast<Eigen::Index>(col.from), static_cast<Eigen::Index>(col.size())).rowwise().mean();
                }
                out.share.assign(k.share.data(), k.share.data() + k.share.size());
                out.wavelengthBefore.assign(k.wavelengthBefore.data(), k.wavelengthBefore.data() + k.wavelengthBefore.size());
                out.wavelengthAfter.assign(k.wavelengthAfter.data(), k.wavelengthAfter.data() + k.wavelengthAfter.size());
                out.trainingContext = k.trainingContext;
                const RopeParams rp = p.ropeParams();
                out.scaled = rp.scaling != RopeScaling::None || !rp.theta.empty();
                out.content = p.source ? QObject::tr("file: %1 (mean over the rows i ≥ t, %2 rows)")
                                             .arg(QString::fromStdString(p.source->name()))
                                             .arg(p.source->length())
                                       : QObject::tr("%1 content (query at t, key at 0)").arg(qs(contentKey(p.content)));
                // A soft-cap bends the sum, not each pair: the pairs add up to the score before it.
                if (p.attention.softcap)
                    out.content += QObject::tr("; the pairs add up to the score before the logit soft-cap %1·tanh(s/%1)")
                                       .arg(QString::fromStdString(formatNumber(*p.attention.softcap)));
                if (out.sampled) out.content += QObject::tr("; each column at its middle distance only (past the work limit)");
                else if (out.distance != out.distanceTo) out.content += QObject::tr("; each column the mean over its distances");
                for (Eigen::Index i = 0; i < out.value.size(); ++i) absMax = std::max(absMax, std::abs(out.value.data()[i]));
            });
        }
        res.configs.push_back(std::move(out));
    }
    for (auto& c : res.configs) c.absMax = absMax > 0 ? absMax : 1.0;
    return res;
}

namespace {

// How the precision path builds the angles and tables, in words.
QString precisionPath(const RopeParams& rp) {
    const QString dtype = qs(enumKey(rp.precision));
    switch (rp.precision) {
    case Precision::Double: return QObject::tr("double (exact: no error)");
    case Precision::Float32:
        if (rp.code_path == RopeCodePath::MetaComplex64)
            return QObject::tr("float32, Meta's complex64 path (torch.polar, complex product)");
        return QObject::tr("float32 (angles, cos and sin in float32)");
    default: break;
    }
    if (rp.code_path == RopeCodePath::MetaComplex64)
        return QObject::tr("%1, Meta's complex64 path (angles and cos/sin in float32, product cast to %1)").arg(dtype);
    if (ropeAnglePrecision(rp) == Precision::Float32)
        return QObject::tr("%1, angles in float32, cos/sin cast to %1 (transformers main)").arg(dtype);
    return QObject::tr("%1, angles in %2 (legacy path)").arg(dtype, qs(enumKey(ropeAnglePrecision(rp))));
}

// The score error (the scene's dtype − double) of one configuration over 0 .. N−1 × 0 .. N−1 in
// display.precisionCells blocks per axis: one panel, diverging around 0.
HeatmapResult scoreErrorHeatmap(const SceneParams& scene, const ScoreParams& p, const DisplaySpec& display) {
    HeatmapResult h;
    h.length = scene.length;
    h.queryTo = h.keyTo = scene.length;
    h.softmax = scene.view.softmax;
    h.causal = scene.view.causal;
    h.content = fileContentText(scene);
    h.squareCells = scene.view.heatmapSquareCells;
    HeatmapPanel panel;
    panel.quantity = QObject::tr("score error");
    panel.title = QObject::tr("score error: %1 − double").arg(qs(enumKey(p.precision)));
    panel.shortTitle = QObject::tr("%1 − double").arg(qs(enumKey(p.precision)));
    panel.aggregate = scene.view.aggregate;
    panel.queryRanges = panel.keyRanges = splitRange(0, scene.length, std::max(1, display.precisionCells));
    const bool oneCellEach = static_cast<std::int64_t>(panel.queryRanges.size()) == scene.length;
    guarded(panel.error, [&] {
        setPanelBlocks(panel,
                       aggregateScoreErrors(p, scene.length, panel.queryRanges, panel.keyRanges, scene.view.aggregate,
                                            display.heatmapWork),
                       oneCellEach);
    });
    double m = 0;
    for (Eigen::Index i = 0; i < panel.values.size(); ++i)
        if (std::isfinite(panel.values.data()[i])) m = std::max(m, std::abs(panel.values.data()[i]));
    panel.diverging = true;
    panel.lo = -(m > 0 ? m : 1.0);
    panel.hi = m > 0 ? m : 1.0;
    h.panels.push_back(std::move(panel));
    return h;
}

}  // namespace

PrecisionResult computePrecision(const SceneParams& scene, const DisplaySpec& display) {
    PrecisionResult res;
    for (int c = 0; c < static_cast<int>(scene.methods.size()); ++c) {
        PrecisionConfigResult out;
        const ScoreParams p = effectiveParams(scene, c);
        out.title = configTitle(scene, c);
        out.length = scene.length;
        if (auto e = configProblem(scene, c)) {
            out.error = *e;
        } else if (p.effectiveMethod() != Method::Rope) {
            out.error = QObject::tr("The precision view shows what bfloat16, float16 and float32 do to RoPE's angles: choose RoPE.");
        } else {
            guarded(out.error, [&] {
                RopeParams rp = p.ropeParams();
                // The scene's N is the sequence length the runtime frequencies follow (dynamic, LongRoPE).
                if (!rp.seq_len) rp.seq_len = scene.length;
                out.path = precisionPath(rp);
                out.dtypeName = qs(enumKey(ropeAnglePrecision(rp)));
                out.pairs = effectivePairs(scene, c);
                const std::int64_t maxFinite = ropeMaxFinitePosition(rp);
                out.end = std::min<std::int64_t>(scene.length, maxFinite + 1);
                out.columns = splitRange(0, out.end, std::max(1, display.decaySamples));
                const std::size_t cols = out.columns.size(), np = out.pairs.size();
                const double inf = std::numeric_limits<double>::infinity();
                for (auto* v : {&out.angleMin, &out.cosMin, &out.sinMin}) v->assign(np, std::vector<double>(cols, inf));
                for (auto* v : {&out.angleMax, &out.cosMax, &out.sinMax}) v->assign(np, std::vector<double>(cols, -inf));
                const std::int64_t half = rp.rotaryDim() / 2;
                // Every position exactly up to ~2^22 angle evaluations (tens of ms), else one per column.
                out.sampled = out.end * half > (std::int64_t{1} << 22) && out.end > static_cast<std::int64_t>(cols);
                const std::int64_t block = out.columns.front().size();
                const auto accumulate = [&](const Positions& pos, const RopePrecisionErrors& e) {
                    for (std::size_t k = 0; k < pos.size(); ++k) {
                        const std::size_t col = static_cast<std::size_t>(pos[k] / block);
                        for (std::size_t i = 0; i < np; ++i) {
                            const double a = e.angle(Eigen::Index(k), Eigen::Index(i)), cv = e.cos(Eigen::Index(k), Eigen::Index(i));
                            out.angleMin[i][col] = std::min(out.angleMin[i][col], a);
                            out.angleMax[i][col] = std::max(out.angleMax[i][col], a);
                            out.cosMin[i][col] = std::min(out.cosMin[i][col], cv);
                            out.cosMax[i][col] = std::max(out.cosMax[i][col], cv);
                            const double sv = e.sin(Eigen::Index(k), Eigen::Index(i));
                            out.sinMin[i][col] = std::min(out.sinMin[i][col], sv);
                            out.sinMax[i][col] = std::max(out.sinMax[i][col], sv);
                        }
                    }
                };
                if (out.sampled) {
                    Positions pos;
                    for (const PositionRange& r : out.columns) pos.push_back(r.from + (r.size() - 1) / 2);
                    accumulate(pos, ropePrecisionErrors(rp, pos, out.pairs));
                } else {
                    constexpr std::int64_t chunk = 4096;
                    for (std::int64_t from = 0; from < out.end; from += chunk) {
                        const Positions pos = arangePositions(from, std::min(out.end, from + chunk));
                        accumulate(pos, ropePrecisionErrors(rp, pos, out.pairs));
                    }
                }
                // Collisions among 0 .. end−1, per column.
                out.columnCollides.assign(cols, false);
                for (const PositionCollision& g : ropePositionCollisions(rp, arangePositions(0, out.end))) {
                    out.colliding += static_cast<std::int64_t>(g.positions.size());
                    for (std::int64_t q : g.positions) out.columnCollides[static_cast<std::size_t>(q / block)] = true;
                }
                // The largest error at log-spaced positions up to 2^20.
                out.logEnd = std::min<std::int64_t>(std::int64_t{1} << 20, maxFinite);
                out.firstCollision = ropeFirstCollision(rp, out.logEnd + 1);
                out.logPositions = sampleDistances(out.logEnd, std::max(16, display.decaySamples), true);
                const RopePrecisionErrors e = ropePrecisionErrors(rp, out.logPositions);
                out.logMaxAbs.assign(e.max_abs.data(), e.max_abs.data() + e.max_abs.size());
                out.scoreError = scoreErrorHeatmap(scene, p, display);
            });
        }
        res.configs.push_back(std::move(out));
    }
    return res;
}

}  // namespace poslab::ui
