#include "ui/teaching/workedtext.h"

#include "core/types.h"

namespace poslab::ui {

namespace {

QString whole(double v) { return QString::fromStdString(formatInt(std::int64_t(v))); }
double fact(const WorkedExample& ex, const char* name) {
    auto it = ex.facts.find(name);
    return it == ex.facts.end() ? 0.0 : it->second;
}
bool flag(const WorkedExample& ex, const char* name) { return fact(ex, name) != 0; }

}  // namespace

QString workedTitle(const WorkedExample& ex) {
    if (ex.key == "rope")
        return WorkedText::tr("RoPE on a small vector (d = %1, m = %2, %3)")
            .arg(whole(fact(ex, "dim")), whole(fact(ex, "position")),
                 flag(ex, "interleaved") ? WorkedText::tr("interleaved") : WorkedText::tr("half-split"));
    if (ex.key == "sinusoidal")
        return WorkedText::tr("A sinusoidal row (d = %1, p = %2, base %3)")
            .arg(whole(fact(ex, "dim")), whole(fact(ex, "position")), QString::fromStdString(formatNumber(fact(ex, "base"))));
    if (ex.key == "alibi") return WorkedText::tr("ALiBi slopes for H = %1 heads").arg(whole(fact(ex, "heads")));
    if (ex.key == "t5")
        return WorkedText::tr("T5 bucket of offset %1 (%2 buckets, max distance %3, %4)")
            .arg(whole(fact(ex, "relative")), whole(fact(ex, "buckets")), whole(fact(ex, "max_distance")),
                 flag(ex, "bidirectional") ? WorkedText::tr("bidirectional") : WorkedText::tr("causal"));
    return {};
}

QString workedStepTitle(const WorkedExample& ex, const WorkedStep& s) {
    const std::string& id = s.id;
    if (ex.key == "rope") {
        if (id == "frequencies") return WorkedText::tr("Frequencies");
        if (id == "angles") return WorkedText::tr("Angles");
        if (id == "cos_sin") return WorkedText::tr("cos and sin");
        if (id == "pairs") return WorkedText::tr("Pairs");
        if (id == "rotate") return WorkedText::tr("Rotate each pair");
        if (id == "result") return WorkedText::tr("Result");
        if (id == "norm") return WorkedText::tr("Length is preserved");
        if (id == "other_layout")
            return flag(ex, "interleaved") ? WorkedText::tr("The half-split layout gives instead") : WorkedText::tr("The interleaved layout gives instead");
    } else if (ex.key == "sinusoidal") {
        if (id == "frequencies") return WorkedText::tr("Frequencies");
        if (id == "angles") return WorkedText::tr("Angles");
        if (id == "sines") return WorkedText::tr("Sines");
        if (id == "cosines") return WorkedText::tr("Cosines");
        if (id == "row") return WorkedText::tr("The row");
        if (id == "wavelengths") return WorkedText::tr("Wavelengths");
    } else if (ex.key == "alibi") {
        if (id == "power_of_two") return WorkedText::tr("Closest power of two");
        if (id == "slopes_p") return WorkedText::tr("Slopes of p heads");
        if (id == "other_heads") return WorkedText::tr("The other %1 heads").arg(whole(fact(ex, "heads") - fact(ex, "p")));
        if (id == "all_slopes") return WorkedText::tr("All H slopes");
        if (id == "bias_row") return WorkedText::tr("Bias row");
    } else if (ex.key == "t5") {
        if (id == "direction") return WorkedText::tr("Direction");
        if (id == "distance") return WorkedText::tr("Distance");
        if (id == "exact") return WorkedText::tr("Exact or logarithmic?");
        if (id == "logarithmic") return WorkedText::tr("Logarithmic bucket");
        if (id == "bucket") return WorkedText::tr("The bucket");
    }
    return QString::fromStdString(id);
}

QString workedStepExplanation(const WorkedExample& ex, const WorkedStep& s) {
    const std::string& id = s.id;
    if (ex.key == "rope") {
        const bool inter = flag(ex, "interleaved");
        if (id == "frequencies")
            return flag(ex, "float32") ? WorkedText::tr("Each pair of channels i turns at its own angular frequency θ_i (here given explicitly, held in float32 like the frameworks).")
                                       : WorkedText::tr("Each pair of channels i turns at its own angular frequency θ_i (here given explicitly).");
        if (id == "angles")
            return WorkedText::tr("At position m = %1 pair i is rotated by the angle m·θ_i; only the angle modulo 2π matters.").arg(whole(fact(ex, "position")));
        if (id == "cos_sin") return WorkedText::tr("The rotation of pair i needs only cos a_i and sin a_i (the tables the model precomputes).");
        if (id == "pairs")
            return inter ? WorkedText::tr("The interleaved layout (GPT-J, Meta LLaMA, RoFormer) pairs neighbouring channels (2i, 2i+1).")
                         : WorkedText::tr("The half-split layout (Hugging Face Llama, NeoX) pairs channel j with channel j + d/2.");
        if (id == "rotate") return WorkedText::tr("Each pair is turned by its angle: a 2×2 rotation, the same as multiplying x + iy by e^{i a}.");
        if (id == "result") return WorkedText::tr("Put the rotated pairs back in their channels: this is R_m q.");
        if (id == "norm") return WorkedText::tr("A rotation never changes the length of the vector, only its direction.");
        if (id == "other_layout")
            return WorkedText::tr("The same θ and q with the %1 pairing give a different vector: the two layouts are the same rotation only after "
                                  "permuting the channels, so mixing them gives wrong numbers.")
                .arg(inter ? WorkedText::tr("half-split") : WorkedText::tr("interleaved"));
    } else if (ex.key == "sinusoidal") {
        if (id == "frequencies")
            return WorkedText::tr("Frequencies fall geometrically from 1 to 1/base: fast pairs tell neighbours apart, slow pairs tell far regions apart.");
        if (id == "angles") return WorkedText::tr("Position p turns every pair by p·w_i.");
        if (id == "sines") return WorkedText::tr("The first coordinate of each pair is the sine of its angle.");
        if (id == "cosines") return WorkedText::tr("The second coordinate is the cosine: each pair is a point on the unit circle.");
        if (id == "row")
            return flag(ex, "interleaved") ? WorkedText::tr("Interleaved (Vaswani, DistilBERT): sin and cos of each frequency side by side.")
                                           : WorkedText::tr("Concatenated (fairseq, Transformer-XL): all sines, then all cosines.");
        if (id == "wavelengths") return WorkedText::tr("Pair i repeats every 2π/w_i positions: from 2π tokens up to 2π·base tokens.");
    } else if (ex.key == "alibi") {
        const QString H = whole(fact(ex, "heads")), p = whole(fact(ex, "p"));
        const bool pow2 = flag(ex, "power_of_two");
        if (id == "power_of_two")
            return pow2 ? WorkedText::tr("H = %1 is a power of two: one geometric sequence gives all slopes.").arg(H)
                        : WorkedText::tr("H = %1 is not a power of two: start from the largest power of two below it, p = %2.").arg(H, p);
        if (id == "slopes_p") return WorkedText::tr("A geometric sequence: the first slope is 2^(−B/p) and each next one is that times the first.");
        if (id == "other_heads")
            return WorkedText::tr("The remaining heads take every other slope of the %1-head sequence, so they fall between the first ones.")
                .arg(whole(2 * fact(ex, "p")));
        if (id == "all_slopes")
            return pow2 ? WorkedText::tr("These are the slopes, one per head.") : WorkedText::tr("The p slopes followed by the picked ones: one per head.");
        if (id == "bias_row")
            return WorkedText::tr("Query %1 penalises key j by slope × distance: steep heads look near, flat heads look far.").arg(whole(fact(ex, "query")));
    } else if (ex.key == "t5") {
        const bool bidirectional = flag(ex, "bidirectional");
        const double rel = fact(ex, "relative"), last = fact(ex, "last");
        if (id == "direction") {
            if (!bidirectional) return WorkedText::tr("Causal: all buckets are for keys before the query; keys after it share bucket 0.");
            return WorkedText::tr("Bidirectional: half of the %1 buckets are for keys after the query (offset %2), half for keys before it.")
                       .arg(whole(fact(ex, "buckets")), whole(fact(ex, "nb"))) +
                   (rel > 0 ? WorkedText::tr(" This key is after the query.") : WorkedText::tr(" This key is not after the query."));
        }
        if (id == "distance")
            return bidirectional ? WorkedText::tr("Only the size of the offset matters from here on.") : WorkedText::tr("Keys after the query count as distance 0.");
        if (id == "exact") {
            const WorkedValues* exact = s.find("n < max_exact");
            const bool isExact = exact && !exact->values.empty() && exact->values.front() != 0;
            return WorkedText::tr("The first half of the buckets hold one distance each (0 … %1); ").arg(whole(fact(ex, "max_exact") - 1)) +
                   (isExact ? WorkedText::tr("n is small, so its bucket is n itself.") : WorkedText::tr("n is not, so it goes into a logarithmic bucket."));
        }
        if (id == "logarithmic")
            return WorkedText::tr("Distances from max_exact to max_distance share the other half of the buckets on a log scale; beyond max_distance "
                                  "everything lands in the last one.");
        if (id == "bucket") {
            const QString shared = last < 0 ? WorkedText::tr("every distance from %1 on").arg(whole(fact(ex, "first")))
                                            : WorkedText::tr("distances %1 to %2").arg(whole(fact(ex, "first")), whole(last));
            return (rel > 0 ? WorkedText::tr("Add the direction base. Offset %1 shares bucket %2 with %3 after the query: one learned bias per bucket and head.")
                            : WorkedText::tr("Add the direction base. Offset %1 shares bucket %2 with %3 before it: one learned bias per bucket and head."))
                .arg(whole(rel), whole(fact(ex, "bucket")), shared);
        }
    }
    return {};
}

}  // namespace poslab::ui
