#include "core/mrope.h"
#include "core/ensure.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace poslab {

namespace {

constexpr std::int64_t kMaxSection = 32768;

ParamError tokensError(const std::string& valid, const std::string& got) { return ParamError{"tokens", valid, got}; }

const std::string kLayoutValid =
    "comma-separated entries text:N, image:TxHxW or video:TxHxW (N, T, H, W positive integers, at most 4194304 tokens in all)";

// A positive integer in full, at most 2^22 (a layout never holds more tokens).
bool parseCount(std::string_view s, std::int64_t& out) {
    if (s.empty() || s.size() > 8) return false;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc{} && p == s.data() + s.size() && out >= 1 && out <= kMaxLayoutTokens;
}

std::string entryText(std::string_view e, std::size_t index) {
    return "\"" + std::string(e.substr(0, 64)) + "\" (entry " + std::to_string(index + 1) + ")";
}

}  // namespace

std::string_view tokenKindKey(TokenKind k) {
    switch (k) {
    case TokenKind::Text: return "text";
    case TokenKind::Image: return "image";
    case TokenKind::Video: return "video";
    }
    return "text";
}

std::string tokenLayoutText(const TokenLayout& layout) {
    std::string out;
    for (const TokenSegment& s : layout) {
        if (!out.empty()) out += ',';
        out += std::string(tokenKindKey(s.kind)) + ':';
        out += s.kind == TokenKind::Text ? std::to_string(s.n)
                                         : std::to_string(s.t) + 'x' + std::to_string(s.h) + 'x' + std::to_string(s.w);
    }
    return out;
}

Result<TokenLayout> parseTokenLayout(std::string_view text) {
    TokenLayout out;
    if (text.empty()) return tokensError(kLayoutValid, "an empty layout");
    std::int64_t total = 0;
    std::size_t index = 0, start = 0;
    while (start <= text.size()) {
        const std::size_t comma = text.find(',', start);
        const std::string_view e = text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        const std::size_t colon = e.find(':');
        if (colon == std::string_view::npos) return tokensError(kLayoutValid, entryText(e, index));
        const std::string_view kind = e.substr(0, colon), size = e.substr(colon + 1);
        TokenSegment s;
        if (kind == "text") {
            s.kind = TokenKind::Text;
            if (!parseCount(size, s.n)) return tokensError(kLayoutValid, entryText(e, index));
            total += s.n;
        } else if (kind == "image" || kind == "video") {
            s.kind = kind == "image" ? TokenKind::Image : TokenKind::Video;
            const std::size_t x1 = size.find('x');
            const std::size_t x2 = x1 == std::string_view::npos ? x1 : size.find('x', x1 + 1);
            if (x2 == std::string_view::npos || size.find('x', x2 + 1) != std::string_view::npos ||
                !parseCount(size.substr(0, x1), s.t) || !parseCount(size.substr(x1 + 1, x2 - x1 - 1), s.h) ||
                !parseCount(size.substr(x2 + 1), s.w))
                return tokensError(kLayoutValid, entryText(e, index));
            total += s.t * s.h * s.w;   // before merging: an upper bound of the tokens
        } else {
            return tokensError(kLayoutValid, entryText(e, index));
        }
        if (total > kMaxLayoutTokens) return tokensError(kLayoutValid, "more tokens (" + std::string(text.substr(0, 64)) + ")");
        out.push_back(s);
        ++index;
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return out;
}

const ParamTable<MropeParams>& mropeParamTable() {
    using K = ParamKind;
    static const ParamTable<MropeParams> t = {
        field<&MropeParams::tokens>({.name = "tokens", .kind = K::Text, .label = "Tokens",
                                     .help = "token layout: comma-separated text:N, image:TxHxW, video:TxHxW (grids in patches before merging)",
                                     .unset = "none", .maxChars = 65536}),
        field<&MropeParams::model>({.name = "model", .kind = K::Choice, .label = "Position-id rule",
                                    .help = "whose get_rope_index numbers the tokens",
                                    .choiceLabels = {"Qwen2-VL", "Qwen2.5-VL", "Qwen3-VL"}})
            .when([](const MropeParams& s) { return !s.tokens.empty(); }, "with --tokens"),
        field<&MropeParams::merge>({.name = "merge", .kind = K::Int, .lo = 1, .hi = 64, .label = "Merge size",
                                    .help = "vision spatial_merge_size (divides each grid's H and W)"})
            .when([](const MropeParams& s) { return !s.tokens.empty(); }, "with --tokens"),
        field<&MropeParams::tokens_per_second>({.name = "tokens_per_second", .kind = K::Int, .lo = 1, .hi = 1000,
                                                .label = "Tokens per second",
                                                .help = "Qwen2.5-VL vision_config.tokens_per_second (video temporal spacing)"})
            .when([](const MropeParams& s) { return !s.tokens.empty() && s.model == MropeModel::Qwen25VL; },
                  "with --tokens and --model qwen2.5-vl"),
        field<&MropeParams::second_per_grid>({.name = "second_per_grid", .kind = K::RealList, .lo = 0, .hi = 3600,
                                              .optional = true, .label = "Seconds per grid",
                                              .help = "Qwen2.5-VL second_per_grid_ts: one for every video or one per video",
                                              .unset = "none (1 s each, as upstream)"})
            .when([](const MropeParams& s) { return !s.tokens.empty() && s.model == MropeModel::Qwen25VL; },
                  "with --tokens and --model qwen2.5-vl"),
        field<&MropeParams::mrope_section>({.name = "mrope_section", .kind = K::IntList, .lo = 0, .hi = kMaxSection,
                                            .optional = true, .label = "M-RoPE sections",
                                            .help = "frequencies following t, h and w (A,B,C; sum = rotary_dim/2)",
                                            .unset = "none", .maxEntries = 3}),
        field<&MropeParams::mrope_layout>({.name = "mrope_layout", .kind = K::Choice, .label = "M-RoPE layout",
                                           .help = "Qwen2/2.5-VL sections or Qwen3-VL's interleaving",
                                           .choiceLabels = {"Sectioned", "Interleaved"}})
            .when([](const MropeParams& s) { return !s.mrope_section.empty(); }, "with --mrope-section"),
    };
    return t;
}

Check MropeParams::validate() const {
    if (auto e = checkParams(mropeParamTable(), *this)) return e;
    if (!mrope_section.empty() && mrope_section.size() != 3)
        return ParamError{"mrope_section", "three integers A,B,C (t, h, w)", std::to_string(mrope_section.size()) + " entries"};
    if (!tokens.empty())
        if (auto l = parseTokenLayout(tokens); !l) return l.error();
    return std::nullopt;
}

// ---- get_rope_index --------------------------------------------------------------------------------

Result<MropeIndex> mropeRopeIndex(const MropeBatch& batch, const MropeParams& params) {
    POSLAB_ENSURE(!params.validate(), "params validate");
    const std::int64_t m = params.merge;
    std::vector<std::array<std::int64_t, 3>> videos = batch.video_grid_thw;
    if (params.model == MropeModel::Qwen3VL) {   // repeat_interleave(video_grid_thw, T); t := 1
        videos.clear();
        for (const auto& g : batch.video_grid_thw)
            for (std::int64_t k = 0; k < g[0]; ++k) videos.push_back({1, g[1], g[2]});
    }
    std::size_t nextImage = 0, nextVideo = 0, nextSecond = 0;   // upstream's iterators span the batch
    MropeIndex out;
    for (std::size_t b = 0; b < batch.token_types.size(); ++b) {
        const auto& types = batch.token_types[b];
        const auto n = static_cast<Eigen::Index>(types.size());
        std::vector<Eigen::Index> kept;
        for (Eigen::Index k = 0; k < n; ++k)
            if (batch.attention_mask.empty() || batch.attention_mask[b][static_cast<std::size_t>(k)] != 0) kept.push_back(k);
        IntMatrix ids = IntMatrix::Zero(3, n);
        std::int64_t cur = 0, maxId = std::numeric_limits<std::int64_t>::min();
        std::size_t r = 0;
        while (r < kept.size()) {
            const int type = types[static_cast<std::size_t>(kept[r])];
            std::size_t end = r;
            while (end < kept.size() && types[static_cast<std::size_t>(kept[end])] == type) ++end;
            const std::size_t len = end - r;
            if (type == 0) {
                for (std::size_t q = 0; q < len; ++q)
                    for (int a = 0; a < 3; ++a) ids(a, kept[r + q]) = cur + static_cast<std::int64_t>(q);
                maxId = std::max(maxId, cur + static_cast<std::int64_t>(len) - 1);
                cur += static_cast<std::int64_t>(len);
            } else {
                auto& list = type == 1 ? batch.image_grid_thw : videos;
                std::size_t& next = type == 1 ? nextImage : nextVideo;
                const std::string kind = type == 1 ? "image" : "video";
                if (next >= list.size())
                    return tokensError("one " + kind + " grid for every " + kind + " run", "more " + kind + " runs than grids");
                const auto g = list[next++];
                if (g[1] % m != 0 || g[2] % m != 0)
                    return tokensError("grids whose H and W the merge size " + std::to_string(m) + " divides",
                                       kind + ":" + std::to_string(g[0]) + "x" + std::to_string(g[1]) + "x" + std::to_string(g[2]));
                const std::int64_t gt = g[0], gh = g[1] / m, gw = g[2] / m;
                if (static_cast<std::int64_t>(len) != gt * gh * gw)
                    return tokensError("a " + kind + " run of T·(H/m)·(W/m) tokens (" + std::to_string(gt * gh * gw) + ")",
                                       std::to_string(len) + " tokens");
                std::int64_t interval = 1;
                if (type == 2 && params.model == MropeModel::Qwen25VL) {
                    double second = 1.0;
                    if (!batch.second_per_grid_ts.empty()) {
                        if (nextSecond >= batch.second_per_grid_ts.size())
                            return ParamError{"second_per_grid", "one entry per video", "fewer entries than videos"};
                        second = batch.second_per_grid_ts[nextSecond];
                    }
                    ++nextSecond;
                    interval = static_cast<std::int64_t>(params.tokens_per_second) * static_cast<std::int64_t>(std::trunc(second));
                }
                const std::int64_t lastT = cur + (gt - 1) * interval;
                if (lastT > kMaxPosition || cur + std::max(gh, gw) > kMaxPosition)
                    return tokensError("layouts whose position ids stay at most 2^40", formatInt(lastT));
                std::size_t q = r;
                for (std::int64_t it = 0; it < gt; ++it)
                    for (std::int64_t ih = 0; ih < gh; ++ih)
                        for (std::int64_t iw = 0; iw < gw; ++iw, ++q) {
                            const Eigen::Index c = kept[q];
                            ids(0, c) = cur + it * interval;
                            ids(1, c) = cur + ih;
                            ids(2, c) = cur + iw;
                        }
                maxId = std::max({maxId, lastT, cur + gh - 1, cur + gw - 1, cur});
                cur += std::max(g[1], g[2]) / m;
            }
            r = end;
        }
        out.position_ids.push_back(std::move(ids));
        out.rope_deltas.push_back(kept.empty() ? 0 : maxId + 1 - static_cast<std::int64_t>(kept.size()));
    }
    return out;
}

Result<MropePositions> mropePositions(const TokenLayout& layout, const MropeParams& params) {
    MropeBatch batch;
    batch.token_types.emplace_back();
    auto& types = batch.token_types.back();
    MropePositions out;
    const std::int64_t m = params.merge;
    std::size_t videos = 0;
    for (std::size_t i = 0; i < layout.size(); ++i) {
        const TokenSegment& s = layout[i];
        const std::string entry = "\"" + std::string(tokenKindKey(s.kind)) + ":" +
                                  (s.kind == TokenKind::Text ? std::to_string(s.n)
                                                             : std::to_string(s.t) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w)) +
                                  "\" (entry " + std::to_string(i + 1) + ")";
        std::int64_t count = s.n;
        if (s.kind != TokenKind::Text) {
            if (s.h % m != 0 || s.w % m != 0)
                return tokensError("image and video grids whose H and W the merge size " + std::to_string(m) + " divides", entry);
            if (i > 0 && layout[i - 1].kind == s.kind)
                return tokensError("text between two " + std::string(tokenKindKey(s.kind)) +
                                       " entries (upstream groups adjacent ones into one run)",
                                   entry);
            if (s.kind == TokenKind::Video && params.model == MropeModel::Qwen3VL && s.t != 1)
                return tokensError("Qwen3-VL videos as one video:1xHxW per frame with text:N timestamps between them", entry);
            count = s.t * (s.h / m) * (s.w / m);
            std::array<std::int64_t, 3> g{s.t, s.h, s.w};
            (s.kind == TokenKind::Image ? batch.image_grid_thw : batch.video_grid_thw).push_back(g);
            if (s.kind == TokenKind::Video) ++videos;
        }
        types.insert(types.end(), static_cast<std::size_t>(count), static_cast<int>(s.kind));
        out.kinds.insert(out.kinds.end(), static_cast<std::size_t>(count), s.kind);
    }
    if (params.model == MropeModel::Qwen25VL && !params.second_per_grid.empty()) {
        const auto& sp = params.second_per_grid;
        if (sp.size() == 1) batch.second_per_grid_ts.assign(std::max<std::size_t>(videos, 1), sp[0]);
        else if (sp.size() == videos) batch.second_per_grid_ts = sp;
        else
            return ParamError{"second_per_grid", "one number for every video, or one per video (" + std::to_string(videos) + ")",
                              std::to_string(sp.size()) + " numbers"};
    }
    auto r = mropeRopeIndex(batch, params);
    if (!r) return r.error();
    out.ids = std::move(r.value().position_ids[0]);
    out.rope_deltas = r.value().rope_deltas[0];
    return out;
}

Result<MropePositions> mropePositions(const MropeParams& params) {
    auto layout = parseTokenLayout(params.tokens);
    if (!layout) return layout.error();
    return mropePositions(layout.value(), params);
}

// ---- Frequencies ---------------------------------------------------------------------------------

Result<std::vector<int>> mropeAxes(int half, const std::vector<std::int64_t>& section, MropeLayout layout) {
    std::int64_t sum = 0;
    bool ok = section.size() == 3;
    for (auto s : section) {
        ok = ok && s >= 0 && s <= kMaxSection;
        sum += s;
    }
    if (!ok || sum != half) {
        std::string got;
        for (std::size_t i = 0; i < section.size(); ++i) got += (i ? "," : "") + formatInt(section[i]);
        return ParamError{"mrope_section", "three non-negative integers A,B,C with A+B+C = rotary_dim/2 = " + std::to_string(half),
                          got.empty() ? "none" : got};
    }
    std::vector<int> axis(static_cast<std::size_t>(half), 0);
    if (layout == MropeLayout::Sectioned) {
        for (int i = 0; i < half; ++i) axis[static_cast<std::size_t>(i)] = i < section[0] ? 0 : i < section[0] + section[1] ? 1 : 2;
    } else {
        // apply_interleaved_mrope: freqs_t[..., offset : 3·section[a] : 3] = freqs[a], a = 1 (h), 2 (w).
        for (int a = 1; a <= 2; ++a)
            for (std::int64_t i = a; i < std::min<std::int64_t>(3 * section[static_cast<std::size_t>(a)], half); i += 3)
                axis[static_cast<std::size_t>(i)] = a;
    }
    return axis;
}

RopeTables mropeTables(const RopeParams& params, const RopeFrequencies& freqs, const IntMatrix& ids, const std::vector<int>& axes) {
    POSLAB_ENSURE(!params.validate(), "params validate");
    POSLAB_ENSURE(ids.rows() == 3, "ids 3 × N");
    POSLAB_ENSURE(ids.size() == 0 || (ids.minCoeff() >= 0 && ids.maxCoeff() <= kMaxPosition), "ids within [0, 2^40]");
    POSLAB_ENSURE(static_cast<int>(axes.size()) == params.rotaryDim() / 2, "axes.size() == r/2");
    const Eigen::Index n = ids.cols();
    const bool same = (ids.row(0) == ids.row(1)) && (ids.row(0) == ids.row(2));
    std::array<RopeTables, 3> t;
    for (int a = 0; a < 3; ++a) {
        if (same && a > 0) break;
        Positions p(static_cast<std::size_t>(n));
        for (Eigen::Index k = 0; k < n; ++k) p[static_cast<std::size_t>(k)] = ids(a, k);
        t[static_cast<std::size_t>(a)] = ropeTables(params, freqs, p);
    }
    if (same) return t[0];
    RopeTables out = t[0];
    const Eigen::Index r = out.cos.cols(), h = r / 2;
    const bool inter = params.layout == RopeLayout::Interleaved;
    for (Eigen::Index j = 0; j < r; ++j) {
        const int a = axes[static_cast<std::size_t>(inter ? j / 2 : j % h)];
        if (a == 0) continue;
        out.cos.col(j) = t[static_cast<std::size_t>(a)].cos.col(j);
        out.sin.col(j) = t[static_cast<std::size_t>(a)].sin.col(j);
    }
    return out;
}

Matrix mropeRotate(const RopeParams& params, const IntMatrix& ids, const std::vector<int>& axes, const Matrix& x) {
    const std::int64_t seq = ids.size() ? ids.maxCoeff() + 1 : 1;
    const RopeFrequencies f = ropeRuntimeFrequencies(params, params.seq_len.value_or(seq));
    return ropeApply(params, mropeTables(params, f, ids, axes), x);
}

namespace {

class MropeSource final : public ContentSource {
public:
    MropeSource(ScoreParams base, RopeParams rope, IntMatrix ids, std::vector<int> axes)
        : base_(std::move(base)), rope_(std::move(rope)), ids_(std::move(ids)), axes_(std::move(axes)) {
        freqs_ = ropeRuntimeFrequencies(rope_, rope_.seq_len.value_or(ids_.size() ? ids_.maxCoeff() + 1 : 1));
    }
    std::int64_t length() const override { return ids_.cols(); }
    int dim() const override { return rope_.head_dim; }
    Matrix rows(bool key, const Positions& positions) const override {
        const Matrix x = contentRows(base_, key, positions);
        IntMatrix sub(3, static_cast<Eigen::Index>(positions.size()));
        for (std::size_t k = 0; k < positions.size(); ++k) sub.col(static_cast<Eigen::Index>(k)) = ids_.col(positions[k]);
        return ropeApply(rope_, mropeTables(rope_, freqs_, sub, axes_), x);
    }
    std::string name() const override { return base_.source ? base_.source->name() : std::string(contentKey(base_.content)); }

private:
    ScoreParams base_;
    RopeParams rope_;
    IntMatrix ids_;
    std::vector<int> axes_;
    RopeFrequencies freqs_;
};

}  // namespace

std::shared_ptr<const ContentSource> mropeContentSource(const ScoreParams& base, const RopeParams& rope, IntMatrix ids,
                                                        std::vector<int> axes) {
    POSLAB_ENSURE(!rope.validate(), "rope validates");
    POSLAB_ENSURE(ids.rows() == 3, "ids 3 × N");
    POSLAB_ENSURE(static_cast<int>(axes.size()) == rope.rotaryDim() / 2, "axes r/2 entries");
    POSLAB_ENSURE(base.dim == rope.head_dim, "base rows of rope.head_dim numbers");
    return std::make_shared<MropeSource>(base, rope, std::move(ids), std::move(axes));
}

}  // namespace poslab
