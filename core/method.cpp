#include "core/method.h"

#include "core/tr.h"

namespace poslab {

namespace {
struct MethodInfo {
    Method method;
    std::string_view title;
    std::string_view summary;
    bool rotates;
};

// One row per method, in kAllMethods order.
constexpr std::array<MethodInfo, 9> kInfo = {{
    {Method::NoPE, POSLAB_TR_NOOP("Method", "NoPE (no position)"),
     POSLAB_TR_NOOP("Method", "Nothing is added: attention sees only the content of the tokens, and word order can only "
     "leak in through the causal mask."),
     false},
    {Method::Sinusoidal, POSLAB_TR_NOOP("Method", "Sinusoidal (absolute)"),
     POSLAB_TR_NOOP("Method", "Each position gets a fixed vector of sines and cosines at geometrically spaced frequencies, "
     "added to the token before attention."),
     true},
    {Method::Learned, POSLAB_TR_NOOP("Method", "Learned (absolute)"),
     POSLAB_TR_NOOP("Method", "Each position up to the table size has its own trained vector added to the token, and "
     "positions past the table have none."),
     false},
    {Method::Shaw, POSLAB_TR_NOOP("Method", "Shaw et al. (relative)"),
     POSLAB_TR_NOOP("Method", "A trained vector for each key-minus-query distance, clipped to plus or minus k, is added to "
     "the key inside the attention score."),
     false},
    {Method::T5, POSLAB_TR_NOOP("Method", "T5 (relative buckets)"),
     POSLAB_TR_NOOP("Method", "Each distance is sorted into a bucket (exact for short distances, logarithmic for long ones) "
     "and every head adds a trained number per bucket to the attention score."),
     false},
    {Method::TransformerXL, POSLAB_TR_NOOP("Method", "Transformer-XL (relative)"),
     POSLAB_TR_NOOP("Method", "The score adds terms from a sinusoid of the query-to-key distance, projected by a trained "
     "matrix, plus two trained global bias vectors."),
     false},
    {Method::Alibi, POSLAB_TR_NOOP("Method", "ALiBi (linear bias)"),
     POSLAB_TR_NOOP("Method", "Each head subtracts its own slope times the query-to-key distance from the attention "
     "score, so far tokens are penalised linearly."),
     false},
    {Method::Rope, POSLAB_TR_NOOP("Method", "RoPE (rotary)"),
     POSLAB_TR_NOOP("Method", "Query and key channel pairs are rotated by angles proportional to their positions, so "
     "their dot product depends only on the distance between them."),
     true},
    {Method::Xpos, POSLAB_TR_NOOP("Method", "xPos (rotary with decay)"),
     POSLAB_TR_NOOP("Method", "RoPE rotations combined with a per-pair exponential scale that makes scores shrink "
     "smoothly with distance."),
     true},
}};

const MethodInfo& info(Method m) {
    for (const auto& i : kInfo)
        if (i.method == m) return i;
    return kInfo[0];
}
}  // namespace

std::string_view methodKey(Method m) { return enumKey(m); }
std::string_view methodTitle(Method m) { return info(m).title; }
std::string_view methodSummary(Method m) { return info(m).summary; }
bool methodRotates(Method m) { return info(m).rotates; }

std::optional<Method> methodFromKey(std::string_view key) { return enumFromKey<Method>(key); }

std::string_view methodParamGroup(Method m) {
    switch (m) {
    case Method::NoPE: return "";
    case Method::Sinusoidal: return "sinusoidal";
    case Method::Learned: return "learned";
    case Method::Shaw: return "shaw";
    case Method::T5: return "t5";
    case Method::TransformerXL: return "transformer_xl";
    case Method::Alibi: return "alibi";
    case Method::Rope: return "rope";
    case Method::Xpos: return "xpos";
    }
    return "";
}

}  // namespace poslab
