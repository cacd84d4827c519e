#include "ui/teaching/demoscenes.h"
#include "ui/teaching/demotext.h"

#include <QRegularExpression>

#include <algorithm>

namespace poslab::ui {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

MethodConfig config(Method m, int dim, Content content, const QString& label = {}) {
    MethodConfig c;
    c.label = label;
    c.params.method = m;
    c.params.dim = dim;
    c.params.content = content;
    c.params.rope.head_dim = dim;
    c.params.xpos.head_dim = dim;
    c.params.sinusoidal.dim = dim;
    c.params.learned.dim = dim;
    c.params.shaw.dim = dim;
    c.params.transformer_xl.dim = dim;
    return c;
}

void onlyViews(SceneParams& s, bool pairs, bool heatmap, bool decay, bool freqs) {
    s.view.showPairs = pairs;
    s.view.showHeatmap = heatmap;
    s.view.showDecay = decay;
    s.view.showFrequencies = freqs;
}

}  // namespace

SceneParams demoScene(DemoId id) {
    SceneParams s;
    s.view.decayShowBound = true;
    switch (id) {
        case DemoId::PermutationEquivariance:
            // No positions next to RoPE, random content: the NoPE heatmap is the same matrix
            // whatever order the tokens come in; RoPE's depends on where they sit.
            s.methods = {config(Method::NoPE, 16, Content::Random, QStringLiteral("No positions")),
                         config(Method::Rope, 16, Content::Random, QStringLiteral("RoPE"))};
            s.length = 16;
            s.positions = {0, 1, 2, 4, 8};
            s.view.showDifference = false;
            onlyViews(s, false, true, false, false);
            break;
        case DemoId::SinusoidalShift:
            s.methods = {config(Method::Sinusoidal, 16, Content::Ones)};
            s.length = 32;
            s.positions = {0, 5, 10, 15, 20};
            s.pairs = {0, 1, 2, 3};
            onlyViews(s, true, false, false, true);
            break;
        case DemoId::SinusoidalRelative:
            s.methods = {config(Method::Sinusoidal, 16, Content::Ones)};
            s.length = 32;
            s.positions = {0, 1, 3, 17, 19};
            onlyViews(s, true, false, true, false);
            s.view.decayMaxDistance = 64;
            break;
        case DemoId::SinusoidalTokens:
            s.methods = {config(Method::Sinusoidal, 16, Content::Ones, QStringLiteral("ones")),
                         config(Method::Sinusoidal, 16, Content::Random, QStringLiteral("random tokens"))};
            s.length = 32;
            s.view.showDifference = false;
            onlyViews(s, false, true, false, false);
            break;
        case DemoId::RopeShiftInvariance:
            s.methods = {config(Method::Rope, 16, Content::Ones)};
            s.length = 48;
            s.positions = {0, 3, 6};
            s.pairs = {0, 2, 4, 7};
            onlyViews(s, true, true, false, false);
            break;
        case DemoId::RopeNorm:
            // One vector at every position (ones content: the same x wherever it sits), so the
            // arrows are that x rotated: equal lengths before and after, on the pair's circle.
            s.methods = {config(Method::Rope, 16, Content::Ones, QStringLiteral("RoPE: one x rotated to m"))};
            s.length = 64;
            s.positions = {0, 2, 5, 9};
            s.pairs = {0, 1, 4, 7};
            onlyViews(s, true, false, false, false);
            break;
        case DemoId::RopeDecay:
            s.methods = {config(Method::Rope, 64, Content::Ones)};
            s.length = 256;
            s.view.decayMaxDistance = 4096;
            s.view.decayLogX = true;
            s.view.decayLogY = true;   // |score| and RoFormer's bound on it, in the same units
            s.view.decayShowBound = true;
            onlyViews(s, false, false, true, false);
            break;
        case DemoId::RopeComplexIdentity: {
            MethodConfig c = config(Method::Rope, 16, Content::Random, QStringLiteral("RoPE (interleaved)"));
            c.params.rope.layout = RopeLayout::Interleaved;
            c.params.precision = Precision::Double;
            c.params.rope.precision = Precision::Double;
            s.methods = {c};
            s.length = 16;
            s.positions = {3, 7};
            onlyViews(s, true, true, false, false);
            break;
        }
        case DemoId::KvCache: {
            MethodConfig rope = config(Method::Rope, 16, Content::Random, QStringLiteral("RoPE: rotate once"));
            MethodConfig alibi = config(Method::Alibi, 16, Content::Random, QStringLiteral("ALiBi: m·j cached"));
            s.methods = {rope, alibi};
            s.length = 16;
            s.view.causal = true;
            s.view.showDifference = false;
            onlyViews(s, false, true, false, false);
            break;
        }
        case DemoId::Extrapolation: {
            const ExtrapolationInput in;
            auto rope = [&](RopeScaling sc, const QString& label) {
                MethodConfig c = config(Method::Rope, in.head_dim, Content::Ones, label);
                c.params.rope.max_positions = in.train_length;
                if (sc != RopeScaling::None) {
                    c.params.rope.scaling = sc;
                    c.params.rope.factor = in.factor();
                    if (sc == RopeScaling::Yarn) {
                        c.params.rope.original_max_positions = in.train_length;
                        c.params.rope.max_positions = in.target_length;
                    }
                }
                return c;
            };
            const QString factor = displayValue(in.factor());
            s.methods = {rope(RopeScaling::None, QStringLiteral("RoPE")), rope(RopeScaling::Linear, QStringLiteral("linear ×%1").arg(factor)),
                         rope(RopeScaling::Dynamic, QStringLiteral("NTK ×%1").arg(factor)), rope(RopeScaling::Yarn, QStringLiteral("YaRN ×%1").arg(factor))};
            s.length = in.target_length;
            s.positions = {0, in.train_length - 1, in.target_length - 1};
            s.view.decayMaxDistance = in.target_length;
            s.view.decayLogX = true;
            s.view.decayShowBound = false;
            s.view.showDifference = false;
            onlyViews(s, false, false, false, true);
            break;
        }
        case DemoId::HalfVsInterleaved: {
            MethodConfig half = config(Method::Rope, 16, Content::Random, QStringLiteral("half-split"));
            MethodConfig inter = config(Method::Rope, 16, Content::Random, QStringLiteral("interleaved"));
            inter.params.rope.layout = RopeLayout::Interleaved;
            s.methods = {half, inter};
            s.length = LayoutDemoInput{}.heatmap_tokens;   // where the demonstration measures B − A
            s.view.showDifference = true;
            onlyViews(s, false, true, false, false);
            break;
        }
        case DemoId::ComparisonTable:
            s.methods = {config(Method::Rope, 64, Content::Ones)};
            onlyViews(s, true, true, true, true);
            break;
        case DemoId::LearnedTable: {
            // The table's rows as a heatmap of PE(p)·PE(q): trained rows have no structure to continue.
            const ScoreParams dp = demoParams(id);
            MethodConfig c = config(Method::Learned, 64, Content::Ones, QStringLiteral("learned table"));
            c.params.learned.table_size = dp.learned.table_size;
            s.methods = {c};
            s.length = 64;
            onlyViews(s, false, true, true, false);
            s.view.decayMaxDistance = 63;
            break;
        }
        case DemoId::ShawClipping: {
            const ScoreParams dp = demoParams(id);
            MethodConfig c = config(Method::Shaw, dp.dim, Content::Ones, QStringLiteral("Shaw, k = %1").arg(dp.shaw.max_relative_position));
            c.params.shaw.max_relative_position = dp.shaw.max_relative_position;
            s.methods = {c};
            s.length = 24;
            onlyViews(s, false, true, true, false);
            s.view.decayMaxDistance = 16;
            break;
        }
        case DemoId::T5Buckets: {
            MethodConfig c = config(Method::T5, 64, Content::Ones, QStringLiteral("T5 relative bias"));
            s.methods = {c};
            s.length = 64;
            onlyViews(s, false, true, true, false);
            s.view.decayMaxDistance = 512;
            s.view.decayLogX = true;
            break;
        }
        case DemoId::TransformerXLTerms: {
            MethodConfig c = config(Method::TransformerXL, 16, Content::Random, QStringLiteral("Transformer-XL"));
            s.methods = {c};
            s.length = 16;
            onlyViews(s, false, true, true, false);
            s.view.decayMaxDistance = 64;
            break;
        }
        case DemoId::AlibiSlopes: {
            MethodConfig c = config(Method::Alibi, 64, Content::Ones, QStringLiteral("ALiBi"));
            s.methods = {c};
            s.length = 32;
            s.view.causal = true;
            onlyViews(s, false, true, true, false);
            s.view.decayMaxDistance = 64;
            break;
        }
        case DemoId::Llama3Bands:
        case DemoId::YarnRamp: {
            const ScoreParams dp = demoParams(id);
            MethodConfig c;
            c.params = dp;
            c.label = id == DemoId::Llama3Bands ? QStringLiteral("Llama 3.1 scaling ×8") : QStringLiteral("YaRN ×%1").arg(displayValue(dp.rope.resolvedFactor()));
            s.methods = {c};
            // At the extended context (Llama 3.1: 131 072; YaRN: 32 768), so every view and number
            // of the slide is at the model's full length.
            const std::int64_t orig = dp.rope.original_max_positions.value_or(dp.rope.max_positions);
            s.length = std::clamp<std::int64_t>(dp.rope.max_positions, 2, kMaxLength);
            s.positions = {0, orig - 1, s.length - 1};
            onlyViews(s, false, false, false, true);
            break;
        }
        case DemoId::RopeBf16: {
            // The same bfloat16 RoPE on its two code paths, in the precision view: the angle error
            // against position (collisions marked) and the largest error per position.
            const ScoreParams dp = demoParams(id);
            MethodConfig legacy, main;
            legacy.params = main.params = dp;
            legacy.params.rope.angle_precision = dp.precision;
            main.params.rope.angle_precision = Precision::Float32;
            legacy.label = QStringLiteral("%1 angles (legacy)").arg(qs(std::string(enumKey(dp.precision))));
            main.label = QStringLiteral("float32 angles (transformers)");
            s.methods = {legacy, main};
            s.length = 4097;
            s.positions = {512, 2048, 4096};
            s.pairs = {1, 8, 24};
            s.view.showDifference = false;
            onlyViews(s, false, false, false, false);
            s.view.showPrecision = true;
            break;
        }
        case DemoId::XposDecay: {
            // RoPE and xPos (both interleaved, base 10 000), equal content: the decay side by side.
            MethodConfig rope = config(Method::Rope, 64, Content::Ones, QStringLiteral("RoPE"));
            rope.params.rope.layout = RopeLayout::Interleaved;
            MethodConfig xpos = config(Method::Xpos, 64, Content::Ones, QStringLiteral("xPos"));
            s.methods = {rope, xpos};
            s.length = 256;
            s.view.decayMaxDistance = 4096;
            s.view.decayLogX = true;
            s.view.decayLogY = true;
            s.view.decayShowBound = false;
            s.view.showDifference = false;
            onlyViews(s, false, false, true, false);
            break;
        }
        case DemoId::MropeImage:
        case DemoId::MropeSections: {
            // Qwen2-VL's text RoPE over the demonstration's layout (text, an image, text): the
            // heatmap rotates each token by its own (t, h, w); the frequency view colours each
            // frequency by the axis it follows (Qwen2-VL's sections).
            const ScoreParams dp = demoParams(id);
            MethodConfig c;
            c.params = dp;
            c.label = QStringLiteral("Qwen2-VL");
            s.methods = {c};
            const MropeImageInput in;
            s.mrope = in.params();
            if (auto pos = mropePositions(s.mrope)) s.length = std::int64_t(pos.value().kinds.size());
            s.positions = {0};
            s.view.showDifference = false;
            if (id == DemoId::MropeImage) onlyViews(s, false, true, false, true);
            else onlyViews(s, false, false, false, true);
            break;
        }
        case DemoId::LocalGlobalLayers: {
            // Each model's local layer next to its global one: the decay stops where a layer stops
            // seeing; the layer overview shows the edited configuration's whole pattern.
            s.methods.clear();
            for (const auto& m : demoLayerModels()) {
                const LayerPattern& pat = m.params.model;
                for (LayerType type : {LayerType::Sliding, LayerType::Chunked, LayerType::Full}) {
                    const auto layer = firstLayerOfType(pat, type);
                    if (!layer) continue;
                    MethodConfig c;
                    c.params = m.params;
                    c.params.applyLayer(*layer);
                    const LayerParams lp = layerParams(pat, *layer);
                    c.label = QStringLiteral("%1, layer %2 (%3%4)")
                                  .arg(qs(m.name))
                                  .arg(*layer)
                                  .arg(qs(std::string(enumKey(type))))
                                  .arg(lp.rope ? QString() : QStringLiteral(", NoPE"));
                    s.methods.push_back(c);
                }
            }
            s.length = std::min<std::int64_t>(131072, kMaxLength);
            s.positions = {0, 1023, 8191, s.length - 1};
            s.view.causal = true;   // decoders: a window of 1024 reaches 1023 tokens back
            s.view.showDifference = false;
            onlyViews(s, false, false, true, false);
            s.view.showLayers = true;
            s.view.decayMaxDistance = s.length;
            s.view.decayLogX = true;
            s.view.decayShowBound = false;
            break;
        }
    }
    // Clamp positions to the sequence.
    Positions kept;
    for (auto p : s.positions)
        if (p >= 0 && p < s.length) kept.push_back(p);
    if (kept.empty()) kept.push_back(0);
    s.positions = kept;
    return s;
}

SessionScene demoSlide(DemoId id) {
    const DemoInfo& info = demoInfo(id);
    SessionScene sl;
    sl.title = demoTitle(id);
    sl.notes = demoClaim(id);
    sl.slide.arrangement = SlideArrangement::Demo;
    sl.slide.demo = qs(info.key);
    sl.scene = demoScene(id);
    sl.scene.view.theme = QStringLiteral("projector");
    return sl;
}

Session demoDeck() {
    Session s;
    s.scenes.clear();
    for (const auto& d : demonstrations()) s.scenes.push_back(demoSlide(d.id));
    s.current = 0;
    return s;
}

std::optional<DemoId> demoOfSlide(const SessionScene& slide) {
    if (slide.slide.arrangement == SlideArrangement::Demo) {
        if (slide.slide.demo.isEmpty()) return std::nullopt;
        return demoFromKey(slide.slide.demo.toStdString());
    }
    // Decks written before slides had arrangements: the key in the notes.
    static const QRegularExpression re(QStringLiteral("^\\s*\\[demo:([a-z0-9\\-]+)\\]"));
    const auto m = re.match(slide.notes);
    if (!m.hasMatch()) return std::nullopt;
    return demoFromKey(m.captured(1).toStdString());
}

QString slideNotesText(const SessionScene& slide) {
    static const QRegularExpression re(QStringLiteral("^\\s*\\[demo:[a-z0-9\\-]+\\]\\s*"));
    QString n = slide.notes;
    n.remove(re);
    return n;
}

}  // namespace poslab::ui
