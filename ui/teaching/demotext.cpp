#include "ui/teaching/demotext.h"

#include "ui/model/sceneparams.h"

#include "core/format.h"
#include "core/method.h"
#include "core/types.h"

#include <cstdio>
#include <functional>
#include <map>

namespace poslab::ui {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }
QString qs(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

// Numbers in sentences, as people read them (core/format.h formatReadable, typeset: a true minus,
// "8.882 × 10⁻¹⁶", never printf's "8.882e-16"). whole: an integer; num and sci: 4 significant
// digits; sci2: 2 significant digits ("0.00024").
QString whole(double v) { return qs(formatInt(std::int64_t(v))); }
QString printf1(const char* format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return QString::fromUtf8(buf);
}
QString num(double v) { return qs(formatReadable(v, 4, NumberStyle::Typeset)); }
QString sci(double v) { return num(v); }
QString sci2(double v) { return qs(formatReadable(v, 2, NumberStyle::Typeset)); }
// A short list of numbers ("[−1.325, 0, 0.493, 0]"): 3 decimals, trailing zeros dropped.
QString list(const std::vector<double>& v) {
    QString out = QStringLiteral("[");
    for (std::size_t i = 0; i < v.size(); ++i) {
        std::string t = printf1("%.3f", v[i]).toStdString();
        while (t.find('.') != std::string::npos && (t.back() == '0' || t.back() == '.')) {
            const bool dot = t.back() == '.';
            t.pop_back();
            if (dot) break;
        }
        if (t == "-0") t = "0";
        QString q = qs(t);
        if (q.startsWith(QLatin1Char('-'))) q = QChar(0x2212) + q.mid(1);
        out += (i ? QStringLiteral(", ") : QString()) + q;
    }
    return out + QStringLiteral("]");
}

// The words of one summary being written: put() sets the label and note of the figure(s) of that name.
struct Writer {
    const DemoSummary& s;
    DemoTexts t;
    explicit Writer(const DemoSummary& sum) : s(sum) { t.figures.resize(s.figures.size()); }
    void put(const std::string& name, const QString& label, const QString& note = {}) {
        for (std::size_t i = 0; i < s.figures.size(); ++i)
            if (s.figures[i].name == name) t.figures[i] = {label, note};
    }
    double v(const std::string& name) const {
        const DemoFigure* f = s.find(name);
        return f ? f->value : 0.0;
    }
    double f(const std::string& name) const { return s.fact(name); }
};

using Describe = void (*)(Writer&);

void permutation(Writer& w) {
    w.put("nope_error", DemoText::tr("max |out(shuffled) − shuffled(out)|, no positions"), DemoText::tr("≈ 0: outputs shuffle with the tokens"));
    w.put("rope_error", DemoText::tr("the same with RoPE"), DemoText::tr("≠ 0: positions break the symmetry"));
    w.put("sinusoidal_error", DemoText::tr("the same with sinusoidal PE"), DemoText::tr("≠ 0"));
    w.t.conclusion = DemoText::tr("Without positions (and without a causal mask, which alone reveals some order), attention is blind to order.");
}

void sinusoidalShift(Writer& w) {
    w.put("shift_error", DemoText::tr("max |PE(p+Δ) − R(Δ)·PE(p)|, Δ = %1").arg(whole(w.f("delta"))), DemoText::tr("≈ 0: a shift is a rotation"));
    w.t.conclusion = DemoText::tr("R(Δ) does not depend on p: the same rotation moves every position by Δ.");
}

void sinusoidalRelative(Writer& w) {
    // The numbers are PE·PE; the decay plot beside them draws the positional term PE·PE/√d.
    const QString rootD = QStringLiteral("√") + whole(w.f("dim"));
    w.put("dot_first", DemoText::tr("PE(%1)·PE(%2) (plotted ÷%3)").arg(whole(w.f("p0")), whole(w.f("q0")), rootD));
    w.put("dot_second", DemoText::tr("PE(%1)·PE(%2)").arg(whole(w.f("p1")), whole(w.f("q1"))), DemoText::tr("the same: only p − q matters"));
    w.put("diagonal_spread", DemoText::tr("max spread of PE·PE along a diagonal"), DemoText::tr("≈ 0"));
    w.t.conclusion = DemoText::tr("PE(p)·PE(q) = Σ cos((p − q)·w_i): a function of p − q alone.");
}

void sinusoidalTokens(Writer& w) {
    w.put("dot_first", DemoText::tr("(x + PE(%1))·(y + PE(%2))").arg(whole(w.f("p0")), whole(w.f("q0"))));
    w.put("dot_second", DemoText::tr("(x + PE(%1))·(y + PE(%2))").arg(whole(w.f("p1")), whole(w.f("q1"))), DemoText::tr("differs: same offset, different score"));
    w.put("tokens_spread", DemoText::tr("max spread along a diagonal, with tokens"), DemoText::tr("≫ 0"));
    w.put("diagonal_spread", DemoText::tr("max spread without tokens"), DemoText::tr("≈ 0"));
    w.t.conclusion = DemoText::tr("The cross terms x·PE(q) and PE(p)·y depend on absolute positions.");
}

void ropeShift(Writer& w) {
    w.put("shift_error", DemoText::tr("max |S(positions) − S(positions + %1)|").arg(whole(w.f("shift"))), DemoText::tr("≈ 0: heatmap unchanged"));
    w.put("shift_error_float32", DemoText::tr("the same with float32 tables"), DemoText::tr("rounding only"));
    w.t.conclusion = DemoText::tr("⟨R_m q, R_n k⟩ = ⟨q, R_{n−m} k⟩: only m − n enters the score.");
}

void ropeNorm(Writer& w) {
    // One content, as the dials draw it: x = (1, …, 1) (query = key, ones), at every position.
    const DemoFigure* at = w.s.find("position");
    w.put("norm_error", DemoText::tr("max | |R_m x| − |x| | / |x|, x = (1, …, 1), %1 positions").arg(whole(at ? double(at->list.size()) : 0.0)),
          DemoText::tr("≈ 0"));
    w.put("position", DemoText::tr("position m"));
    w.put("norm_before", DemoText::tr("|x|, x = (1, …, 1) as drawn"));
    w.put("norm_after", DemoText::tr("|R_m x|: the same x rotated to position m"));
    w.t.conclusion = DemoText::tr("Rotations change direction, never length.");
}

void ropeDecay(Writer& w) {
    for (const auto& fig : w.s.figures) {
        if (fig.name.rfind("score_at_", 0) != 0) continue;
        const std::string d = fig.name.substr(9);
        const auto bound = w.s.facts.find("score_bound_at_" + d);
        w.put(fig.name, DemoText::tr("equal content: score at distance %1").arg(qs(d)),
              bound != w.s.facts.end() ? DemoText::tr("RoFormer's bound on |score|: %1").arg(num(bound->second.front())) : QString());
    }
    w.put("distance", DemoText::tr("distance m − n"));
    w.put("score", DemoText::tr("equal content (ones): score"));
    w.put("bound", DemoText::tr("RoFormer's bound on |score| (same units)"));
    w.put("relative_bound", DemoText::tr("RoFormer's relative bound (1/(d/2))·Σ|S_j| (their Figure 2)"));
    w.put("random_mean_abs", DemoText::tr("random q, k: mean |score| over %1 draws").arg(whole(w.f("draws"))));
    w.put("random_far_over_near", DemoText::tr("random q, k: mean |score| far / near"), DemoText::tr("≈ 1: no decay without equal content"));
    w.t.conclusion = DemoText::tr("Equal content: far tokens get smaller scores (the high-frequency pairs average out). Random content: no decay — "
                        "the decay is a property of aligned q and k, not of RoPE alone.");
}

void ropeComplex(Writer& w) {
    w.put("inner", DemoText::tr("⟨R_%1 q, R_%2 k⟩").arg(whole(w.f("m")), whole(w.f("n"))));
    w.put("complex_form", DemoText::tr("Re[Σ q̃ k̃* e^{i(m−n)θ}]"), DemoText::tr("error %1").arg(num(w.v("identity_error"))));
    w.put("cos_only_form", DemoText::tr("cos-only form Σ Re(q̃ k̃*) cos((m−n)θ)"), DemoText::tr("error %1").arg(num(w.f("cos_only_error"))));
    w.put("sine_term", DemoText::tr("the sine term"), DemoText::tr("what the cos-only form misses"));
    w.put("identity_error", DemoText::tr("|inner − complex form|"));
    w.t.conclusion = DemoText::tr("The identity is exact with its sine term; the cos-only form is wrong.");
}

void kvCache(Writer& w) {
    QString order;
    for (double m : w.s.factList("methods")) order += (order.isEmpty() ? QString() : QStringLiteral(", ")) + methodTitleText(Method(int(m)));
    w.put("operations", DemoText::tr("positional operations over %1 steps: %2").arg(whole(w.f("steps")), order));
    w.put("rope_cache_error", DemoText::tr("RoPE: scores from cached keys vs recomputed, max |diff|"), DemoText::tr("≈ 0: rotate once, cache"));
    w.put("alibi_stale_error", DemoText::tr("ALiBi after softmax, m·j cached: max |diff|"),
          DemoText::tr("≈ 0: softmax ignores a row constant, so cached m·j is exact"));
    w.put("t5_stale_error", DemoText::tr("T5 after softmax, buckets cached a step ago: max |diff|"), DemoText::tr("≠ 0: must be recomputed"));
    w.put("shaw_stale_error", DemoText::tr("Shaw after softmax, clipped indices cached a step ago: max |diff|"), DemoText::tr("≠ 0: must be recomputed"));
    w.put("alibi_stale_logit", DemoText::tr("ALiBi before softmax: cached m·j differs from −m(i − j) by"), DemoText::tr("m·i: the same for every key of the row"));
    w.put("xpos_stale_error", DemoText::tr("xPos after softmax, keys scaled when they arrived: max |diff|"),
          DemoText::tr("≠ 0: the scale is centred on the length, so every key is scaled again"));
    w.put("txl_stale_error", DemoText::tr("Transformer-XL after softmax, terms b, d cached a step ago: max |diff|"),
          DemoText::tr("≠ 0: must be recomputed"));
    w.t.conclusion = w.s.holds ? DemoText::tr("RoPE and ALiBi cache exactly; T5's and Shaw's cached terms go stale, so they recompute one for every cached key.")
                               : DemoText::tr("At these settings the stale errors do not separate the methods: see the numbers above.");
}

void extrapolation(Writer& w) {
    const double T = w.f("target_length"), L = w.f("train_length");
    const bool defined = w.v("learned_defined") != 0;
    w.put("learned_defined", DemoText::tr("learned: a row for position %1").arg(whole(T - 1)),
          defined ? DemoText::tr("defined") : DemoText::tr("no row %1 in a table of %2").arg(whole(T - 1), whole(L)));
    for (const auto& fig : w.s.figures) {
        const std::string suffix = "_unseen_pairs";
        if (fig.name.rfind("rope", 0) != 0 || fig.name.size() <= suffix.size() ||
            fig.name.compare(fig.name.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        const std::string key = fig.name.substr(0, fig.name.size() - suffix.size());
        std::string method = key;
        for (char& c : method)
            if (c == '_') c = '-';
        const double factor = w.f(key + "_attention_factor");
        w.put(fig.name, DemoText::tr("%1: pairs past their trained angles").arg(qs(method)),
              DemoText::tr("of %1").arg(whole(w.f(key + "_pairs"))) + (factor != 1 ? DemoText::tr("; attention factor %1").arg(num(factor)) : QString()));
    }
    w.put("alibi_bias_at_target", DemoText::tr("alibi: bias at distance %1 (flattest head)").arg(whole(T - 1)));
    // What the figure shows: plain RoPE's pairs above the training length's line turn past their
    // trained angles; each scaling lifts its curve so that (as measured) none or fewer do.
    w.t.conclusion = w.s.holds ? DemoText::tr("At %1 tokens, the %2 RoPE pairs whose wavelengths lie above the training length (the context %3 line) reach "
                                              "angles never seen in training; linear, NTK and YaRN ×%4 bring that to %5, %6 and %7 pairs.")
                                     .arg(whole(T), whole(w.v("rope_unseen_pairs")), whole(L), num(T / L), whole(w.v("rope_linear_unseen_pairs")),
                                          whole(w.v("rope_ntk_unseen_pairs")), whole(w.v("rope_yarn_unseen_pairs")))
                               : DemoText::tr("Training length %1, asked for %2: at these settings the numbers above do not show the claim.").arg(whole(L), whole(T));
}

void layouts(Writer& w) {
    w.put("permutation_error", DemoText::tr("max |half(πx) − π·interleaved(x)|"), DemoText::tr("≈ 0: same rotation up to π"));
    w.put("seed_difference", DemoText::tr("seed example: |half − interleaved|"),
          DemoText::tr("%1 vs %2").arg(list(w.s.factList("seed_half")), list(w.s.factList("seed_interleaved"))));
    w.put("wrong_layout_error", DemoText::tr("scores with the wrong layout: max |B − A|"), DemoText::tr("the largest difference drawn"));
    w.put("mixed_shift_error", DemoText::tr("q half, k interleaved: shift changes scores by"), DemoText::tr("relativity lost"));
    w.t.conclusion = DemoText::tr("Convert checkpoints by permuting channels; never mix the layouts.");
}

void comparison(Writer& w) {
    for (const auto& fig : w.s.figures) {
        std::string key = fig.name.substr(0, fig.name.rfind("_parameters"));
        for (char& c : key)
            if (c == '_') c = '-';
        w.put(fig.name, DemoText::tr("%1: positional parameters").arg(qs(key)));
    }
    w.t.conclusion = w.s.holds ? DemoText::tr("Every cell is backed by a demonstration of its own method in this deck.")
                               : DemoText::tr("Some cells are not backed by a demonstration of their method.");
}

void learnedTable(Writer& w) {
    const double L = w.v("table_rows"), last = L - 1, asked = w.v("asked_position");
    const bool lastOk = w.v("last_row_defined") != 0, askedOk = w.v("asked_row_defined") != 0;
    w.put("table_rows", DemoText::tr("rows in the table (one per trained position)"));
    w.put("last_row_defined", DemoText::tr("a row for position %1 (the last one)").arg(whole(last)), lastOk ? DemoText::tr("defined") : QString());
    w.put("asked_position", DemoText::tr("position asked for"));
    w.put("asked_row_defined", DemoText::tr("a row for position %1").arg(whole(asked)),
          askedOk ? DemoText::tr("defined: the table is long enough") : DemoText::tr("no row %1 in a table of %2").arg(whole(asked), whole(L)));
    w.put("last_row_norm", DemoText::tr("|row %1|").arg(whole(last)), DemoText::tr("a trained vector"));
    w.t.conclusion = askedOk ? DemoText::tr("This table reaches position %1; a longer request would fail the same way.").arg(whole(asked))
                             : DemoText::tr("No row %1 in a table of %2: a learned table cannot go past its end.").arg(whole(asked), whole(L));
}

void shawClipping(Writer& w) {
    w.put("distance", DemoText::tr("distance j − i"));
    w.put("index", DemoText::tr("embedding index used (clip(j − i, −k, k) + k)"), DemoText::tr("k = %1").arg(whole(w.f("k"))));
    w.put("beyond_k_difference", DemoText::tr("max |a(d) − a(k)| for every d > k"), DemoText::tr("0: beyond k every distance looks the same"));
    w.put("within_k_difference", DemoText::tr("min |a(d) − a(d+1)| for d < k"), DemoText::tr("> 0: inside ±k each distance has its own vector"));
    w.put("shift_indices_changed", DemoText::tr("indices changed by shifting %1 positions by %2").arg(whole(w.f("tokens")), whole(w.f("shift"))),
          DemoText::tr("0: only j − i matters"));
    w.t.conclusion = DemoText::tr("Shaw sees distances up to k = %1 exactly and nothing beyond; a shift changes nothing.").arg(whole(w.f("k")));
}

void t5Buckets(Writer& w) {
    const QString maxDistance = whole(w.f("max_distance")), exact = whole(w.v("exact_up_to")), lastFrom = whole(w.f("last_bucket_from"));
    w.put("distance", DemoText::tr("distance i − j"));
    w.put("bucket", DemoText::tr("bucket"));
    w.put("max_exact", DemoText::tr("exact buckets up to (the rule's exact range)"), DemoText::tr("buckets ÷ %1").arg(w.f("bidirectional") != 0 ? 4 : 2));
    w.put("exact_up_to", DemoText::tr("largest d with bucket(d) = d, checked against the rule"), DemoText::tr("exact for |k| ≤ %1").arg(exact));
    w.put("log_buckets", DemoText::tr("log buckets, the last included"), DemoText::tr("logarithmically spaced"));
    w.put("last_bucket", DemoText::tr("last bucket: every distance from %1 on").arg(lastFrom),
          DemoText::tr("saturated: the maximum distance %1 and all beyond fall in it").arg(maxDistance));
    w.t.conclusion = DemoText::tr("Exact up to %1, logarithmic after; from %2 on, the maximum distance %3 too, one last bucket.")
                         .arg(exact, lastFrom, maxDistance);
}

void transformerXL(Writer& w) {
    w.put("term_a", DemoText::tr("(a) q_i·k_j, content with content: max |·|"));
    w.put("term_b", DemoText::tr("(b) q_i·W R_{i−j}, content with distance: max |·|"), DemoText::tr("varies along a diagonal: %1").arg(num(w.f("b_diagonal_spread"))));
    w.put("term_c", DemoText::tr("(c) u·k_j, a global content bias: max |·|"), DemoText::tr("the same for every query: spread %1").arg(num(w.v("c_column_spread"))));
    w.put("term_d", DemoText::tr("(d) v·W R_{i−j}, a global distance bias: max |·|"), DemoText::tr("constant along diagonals: spread %1").arg(num(w.v("d_diagonal_spread"))));
    w.put("c_column_spread", DemoText::tr("(c): spread down a column"));
    w.put("d_diagonal_spread", DemoText::tr("(d): spread along a diagonal"));
    w.t.conclusion = DemoText::tr("Four terms, each measured: only (a) and (b) look at the query's content; (d) is a pure function of i − j.");
}

void alibiSlopes(Writer& w) {
    w.put("slopes", DemoText::tr("slopes m_h, h = 0 … %1").arg(whole(w.f("heads") - 1)));
    w.put("formula", DemoText::tr("2^(−8(h+1)/H)"));
    w.put("slope_formula_error", DemoText::tr("max relative |m_h − 2^(−8(h+1)/H)|"), DemoText::tr("≈ 0"));
    w.put("linearity_error", DemoText::tr("max |b(d+1) − b(d) + slope of head H − 1|, d = 0 … %1").arg(whole(w.f("asked"))), DemoText::tr("≈ 0: a straight line"));
    w.put("bias_at_train_end", DemoText::tr("flattest head at distance %1").arg(whole(w.f("train_end"))));
    w.put("bias_at_asked", DemoText::tr("flattest head at distance %1").arg(whole(w.f("asked"))), DemoText::tr("the same line, further down"));
    w.t.conclusion = DemoText::tr("A fixed line per head: nothing was learned per position, so nothing runs out past the training length.");
}

void llama3Bands(Writer& w) {
    const double factor = w.v("factor");
    w.put("original_context", DemoText::tr("original context"));
    w.put("context", DemoText::tr("context after scaling"));
    w.put("factor", DemoText::tr("factor"));
    w.put("high_freq_wavelength", DemoText::tr("wavelengths below %1 tokens: kept").arg(num(w.v("high_freq_wavelength"))));
    w.put("low_freq_wavelength", DemoText::tr("wavelengths above %1 tokens: stretched × %2").arg(num(w.v("low_freq_wavelength")), num(factor)));
    w.put("pairs_kept", DemoText::tr("pairs kept"));
    w.put("pairs_smoothed", DemoText::tr("pairs blended between the bounds"));
    w.put("pairs_divided", DemoText::tr("pairs stretched by the factor"));
    w.put("kept_ratio_error", DemoText::tr("kept: max |θ'/θ − 1|"));
    w.put("divided_ratio_error", DemoText::tr("divided: max |s·θ'/θ − 1|"));
    w.t.conclusion = DemoText::tr("%1 fast pairs untouched, %2 blended, %3 slow pairs stretched ×%4: local detail kept, long range reached.")
                         .arg(whole(w.v("pairs_kept")), whole(w.v("pairs_smoothed")), whole(w.v("pairs_divided")), num(factor));
}

void yarnRamp(Writer& w) {
    const double factor = w.f("factor"), af = w.v("attention_factor");
    w.put("beta_fast", DemoText::tr("β fast (rotations in the original context)"));
    w.put("beta_slow", DemoText::tr("β slow"));
    w.put("ramp_low", DemoText::tr("ramp starts after pair"));
    w.put("ramp_high", DemoText::tr("ramp ends at pair"));
    w.put("pairs_kept", DemoText::tr("pairs kept (turn more than β fast times)"));
    w.put("pairs_ramp", DemoText::tr("pairs on the ramp"));
    w.put("pairs_divided", DemoText::tr("pairs interpolated ×1/%1").arg(num(factor)));
    w.put("attention_factor", DemoText::tr("attention factor (cos and sin multiplied by)"),
          DemoText::tr("0.1·ln %1 + 1 = %2").arg(num(factor), num(w.f("expected_attention_factor"))));
    w.put("temperature_error", DemoText::tr("|attention factor − (0.1·ln s + 1)|"));
    w.put("frequency_ratio", DemoText::tr("θ'_i/θ_i per pair"));
    w.t.conclusion = DemoText::tr("Fast pairs untouched, slow pairs interpolated, a ramp of %1 pairs between; logits sharpened by %2 = %3.")
                         .arg(whole(w.v("pairs_ramp")), num(af) + QStringLiteral("²"), num(af * af));
}

void ropeBf16(Writer& w) {
    const QString dtype = qs(enumKey(Precision(int(w.f("precision"))))), legacyDtype = qs(enumKey(Precision(int(w.f("legacy_precision")))));
    const std::int64_t last = std::int64_t(w.f("last"));
    const QString range = DemoText::tr("0 … %1").arg(whole(double(last)));
    for (const auto& fig : w.s.figures) {
        const std::string prefix = "legacy_phase_error_";
        if (fig.name.rfind(prefix, 0) != 0) continue;
        const std::string p = fig.name.substr(prefix.size());
        w.put(fig.name, DemoText::tr("phase error at %1, angles in %2").arg(qs(p), legacyDtype),
              p == formatInt(last) ? DemoText::tr("radians: max over the pairs of |angle − p·θ_i|") : QString());
    }
    w.put("legacy_max_phase_error", DemoText::tr("largest over %1, angles in %2").arg(range, legacyDtype),
          DemoText::tr("at position %1 (π: the phase is as wrong as it can be)").arg(whole(w.f("legacy_max_phase_at"))));
    const double first = w.v("legacy_first_collision");
    w.put("legacy_first_collision", DemoText::tr("first position %1 holds as its neighbour").arg(legacyDtype),
          DemoText::tr("%1 and %2 get the same angles").arg(whole(first), whole(first + 1)));
    w.put("legacy_colliding_positions", DemoText::tr("positions of %1 sharing their angle with another").arg(range), DemoText::tr("angles in %1").arg(legacyDtype));
    w.put("main_phase_error_" + formatInt(last), DemoText::tr("phase error at %1, angles in float32 (transformers main)").arg(whole(double(last))));
    w.put("main_max_phase_error", DemoText::tr("largest over %1, angles in float32").arg(range));
    w.put("legacy_max_cos_sin_error", DemoText::tr("largest |Δcos|, |Δsin| over %1, angles in %2").arg(range, legacyDtype),
          DemoText::tr("what the wrong angles do to cos and sin (at most 2)"));
    w.put("main_max_cos_sin_error", DemoText::tr("largest |Δcos|, |Δsin| over %1, angles in float32").arg(range),
          DemoText::tr("what remains: cos and sin rounded to %1").arg(dtype));
    w.put("main_colliding_positions", DemoText::tr("positions sharing their angle, angles in float32"));
    w.put("position", DemoText::tr("position p"));
    w.put("legacy_phase_error", DemoText::tr("angles in %1 (legacy)").arg(legacyDtype));
    w.put("main_phase_error", DemoText::tr("angles in float32 (transformers main)"));
    w.t.conclusion = w.s.holds ? DemoText::tr("Angles in %1: off by up to %2 rad (cos, sin by up to %3), %4 positions collide; in float32: "
                                              "at most %5 rad, and cos, sin off by %6, their rounding to %7.")
                                     .arg(legacyDtype, num(w.v("legacy_max_phase_error")), sci2(w.v("legacy_max_cos_sin_error")),
                                          whole(w.v("legacy_colliding_positions")), sci2(w.v("main_max_phase_error")),
                                          sci2(w.v("main_max_cos_sin_error")), dtype)
                               : DemoText::tr("In %1 the angles are as good in both paths (%2 rad at most): the error needs a reduced dtype.")
                                     .arg(dtype, num(w.v("legacy_max_phase_error")));
}

void xposDecay(Writer& w) {
    const QString sb = num(w.f("scale_base")), draws = whole(w.f("draws"));
    w.put("distance", DemoText::tr("distance m − n"));
    w.put("xpos_score", DemoText::tr("xPos, equal content: score"));
    w.put("rope_score", DemoText::tr("RoPE, equal content: score"));
    w.put("xpos_random_mean_abs", DemoText::tr("xPos, random q, k: mean |score| over %1 draws").arg(draws));
    w.put("rope_random_mean_abs", DemoText::tr("RoPE, random q, k: mean |score| over %1 draws").arg(draws));
    w.put("xpos_envelope", DemoText::tr("xPos: the slowest pair's factor ζ_max^(d/%1)").arg(sb));
    w.put("identity_error", DemoText::tr("xPos score against s·Σ 2ζᵢ^(d/%1)·cos(d·θᵢ): max |diff|").arg(sb), DemoText::tr("≈ 0: RoPE's terms, each damped"));
    w.put("shift_error", DemoText::tr("max |S(0 … 7) − S(100 … 107)|, random tokens"), DemoText::tr("≈ 0: depends only on m − n"));
    w.put("xpos_random_far_over_near", DemoText::tr("xPos, random q, k: mean |score| at %1 / at 0").arg(whole(w.f("last_distance"))),
          DemoText::tr("< 1: decays for any content"));
    w.put("rope_random_far_over_near", DemoText::tr("RoPE, random q, k: the same"), DemoText::tr("≈ 1: no decay without equal content"));
    w.t.conclusion = w.s.holds ? DemoText::tr("xPos keeps RoPE's relativity and makes the decay explicit: far scores fall whatever q and k are.")
                               : DemoText::tr("With this scale base the explicit decay is too slow to show at these distances.");
}

void localGlobal(Writer& w) {
    const QString far = DemoText::tr("distance %1 (128k)").arg(whole(w.f("far")));
    w.put("gemma_layers", DemoText::tr("Gemma 3: layers"));
    w.put("gemma_local_layers", DemoText::tr("Gemma 3: local layers"));
    w.put("gemma_global_layers", DemoText::tr("Gemma 3: global layers"));
    w.put("gemma_local_reach", DemoText::tr("Gemma 3: farthest distance a local layer sees"));
    w.put("gemma_local_base", DemoText::tr("Gemma 3: RoPE base of the local layers"));
    w.put("gemma_global_base", DemoText::tr("Gemma 3: RoPE base of the global layers"));
    w.put("gemma_global_factor", DemoText::tr("Gemma 3: linear scaling factor of the global layers"));
    w.put("gemma_layers_seeing_128k", DemoText::tr("Gemma 3: layers that see %1").arg(far));
    w.put("llama4_layers", DemoText::tr("Llama 4: layers"));
    w.put("llama4_local_layers", DemoText::tr("Llama 4: chunked RoPE layers"));
    w.put("llama4_global_layers", DemoText::tr("Llama 4: global layers"));
    w.put("llama4_nope_layers", DemoText::tr("Llama 4: layers without RoPE"));
    w.put("llama4_local_reach", DemoText::tr("Llama 4: farthest distance a chunked layer sees"));
    w.put("llama4_rope_base", DemoText::tr("Llama 4: RoPE base"));
    w.put("llama4_rope_factor", DemoText::tr("Llama 4: Llama 3 scaling factor"));
    w.put("llama4_layers_seeing_128k", DemoText::tr("Llama 4: layers that see %1").arg(far));
    w.put("temperature_position", DemoText::tr("query position"));
    w.put("llama4_temperature", DemoText::tr("Llama 4: query scale τ of the NoPE layers"), DemoText::tr("1 + 0.1·ln(1 + ⌊(p + 1)/8192⌋)"));
    w.t.conclusion = w.s.holds ? DemoText::tr("At 128k only %1 of %2 Gemma 3 layers and %3 of %4 Llama 4 layers see the far tokens; the others look back at most "
                                    "%5 and %6 tokens.")
                                     .arg(whole(w.v("gemma_layers_seeing_128k")), whole(w.v("gemma_layers")), whole(w.v("llama4_layers_seeing_128k")),
                                          whole(w.v("llama4_layers")), whole(w.v("gemma_local_reach")), whole(w.v("llama4_local_reach")))
                               : DemoText::tr("This pattern does not split into local layers and a few global ones that reach 128k.");
}

void mropeImage(Writer& w) {
    const double tokens = w.v("tokens"), offset = w.v("position_offset");
    w.put("image_t_values", DemoText::tr("different t ids among the image's %1 tokens").arg(whole(w.v("image_tokens"))),
          DemoText::tr("one t (%1) for every patch: the image is one moment").arg(whole(w.f("image_t"))));
    w.put("image_rows", DemoText::tr("rows: h ids %1 … %2").arg(whole(w.f("h_first")), whole(w.f("h_last"))));
    w.put("image_cols", DemoText::tr("columns: w ids %1 … %2").arg(whole(w.f("w_first")), whole(w.f("w_last"))));
    w.put("text_after_first_id", DemoText::tr("first text id after the image"), DemoText::tr("the image's largest id %1 + 1").arg(whole(w.v("largest_image_id"))));
    w.put("position_offset", DemoText::tr("position offset: largest id + 1 − tokens"),
          DemoText::tr("the next token (index %1) gets id %2").arg(whole(tokens), whole(tokens + offset)));
    w.put("tokens", DemoText::tr("tokens in the sequence"));
    w.put("image_tokens", DemoText::tr("image tokens (patches after merging)"));
    w.put("largest_image_id", DemoText::tr("largest id in the image (of t, h and w)"));
    w.t.conclusion = w.s.holds ? DemoText::tr("%1 tokens use ids 0 … %2 only: the image's %3 tokens share t = %4 and fill a %5 × %6 grid of (h, w), "
                                    "and the text resumes at %7.")
                                     .arg(whole(tokens), whole(w.f("last_id")), whole(w.v("image_tokens")), whole(w.f("image_t")), whole(w.v("image_rows")),
                                          whole(w.v("image_cols")), whole(w.v("text_after_first_id")))
                               : DemoText::tr("This layout does not show the rule: see the ids above.");
}

void mropeSections(Writer& w) {
    const QString d = whole(w.f("distance"));
    w.put("sectioned_t_share_at_distance", DemoText::tr("Qwen2-VL sections: t's share of the score, %1 apart along t").arg(d),
          DemoText::tr("t follows the %1 fastest frequencies").arg(whole(w.v("sectioned_t_frequencies"))));
    w.put("sectioned_w_share_at_distance", DemoText::tr("Qwen2-VL sections: w's share, %1 apart along w").arg(d),
          DemoText::tr("w follows the %1 slowest: it barely moves").arg(whole(w.v("sectioned_w_frequencies"))));
    w.put("interleaved_spread", DemoText::tr("Qwen3-VL interleaved: largest difference between the axes' shares, %1 apart").arg(d),
          DemoText::tr("each axis follows fast and slow frequencies"));
    w.put("sectioned_spread", DemoText::tr("Qwen2-VL sections: the same difference"));
    static const char* const axes[3] = {"t", "h", "w"};
    for (const char* a : axes) {
        const std::string sec = std::string("sectioned_") + a, inter = std::string("interleaved_") + a;
        w.put(sec + "_frequencies", DemoText::tr("Qwen2-VL sections: frequencies following %1").arg(QLatin1String(a)),
              DemoText::tr("i = %1 … %2, one block").arg(whole(w.f(sec + "_first")), whole(w.f(sec + "_last"))));
        w.put(inter + "_frequencies", DemoText::tr("Qwen3-VL interleaved: frequencies following %1").arg(QLatin1String(a)),
              DemoText::tr("spread from i = %1 to %2").arg(whole(w.f(inter + "_first")), whole(w.f(inter + "_last"))));
        w.put(sec + "_share", DemoText::tr("Qwen2-VL, along %1").arg(QLatin1String(a)));
        w.put(inter + "_share", DemoText::tr("Qwen3-VL, along %1").arg(QLatin1String(a)));
    }
    w.put("identity_error", DemoText::tr("share from the rotated scores against the mean of cos(d·θᵢ): max |diff|"), DemoText::tr("≈ 0"));
    w.put("distance", DemoText::tr("distance d along one axis (patches)"));
    w.t.conclusion = w.s.holds ? DemoText::tr("Sections: %1 apart, t keeps %2 of its share and w %3, so across an image w hardly counts. "
                                    "Interleaved: the three axes stay within %4 of each other.")
                                     .arg(d, num(w.v("sectioned_t_share_at_distance")), num(w.v("sectioned_w_share_at_distance")),
                                          num(w.v("interleaved_spread")))
                               : DemoText::tr("With this base the axes decay alike in both layouts.");
}


// The catalogue's words, in one table: id → title, claim and the function that writes the rest.
struct Entry {
    DemoId id;
    const char* title;
    const char* claim;
    Describe describe;
};

const std::vector<Entry>& entries() {
    static const std::vector<Entry> table = {
        {DemoId::PermutationEquivariance, QT_TRANSLATE_NOOP("DemoText", "Attention without positions is permutation-equivariant"),
         QT_TRANSLATE_NOOP("DemoText", "Shuffle the tokens and the outputs shuffle the same way: without positions and without a causal mask, attention cannot see order."), permutation},
        {DemoId::SinusoidalShift, QT_TRANSLATE_NOOP("DemoText", "Sinusoidal: a shift is a rotation"),
         QT_TRANSLATE_NOOP("DemoText", "PE(p+Δ) = R(Δ)·PE(p): moving Δ positions rotates every (sin, cos) pair by Δ·w_i."), sinusoidalShift},
        {DemoId::SinusoidalRelative, QT_TRANSLATE_NOOP("DemoText", "Sinusoidal: PE(p)·PE(q) depends only on p − q"),
         QT_TRANSLATE_NOOP("DemoText", "The dot product of two encodings is constant along every diagonal p − q = const."), sinusoidalRelative},
        {DemoId::SinusoidalTokens, QT_TRANSLATE_NOOP("DemoText", "Sinusoidal: relativity is lost once tokens are added"),
         QT_TRANSLATE_NOOP("DemoText", "(x + PE(p))·(y + PE(q)) varies along a diagonal: the cross terms x·PE(q), PE(p)·y are absolute."), sinusoidalTokens},
        {DemoId::LearnedTable, QT_TRANSLATE_NOOP("DemoText", "Learned positions: a table with an end"),
         QT_TRANSLATE_NOOP("DemoText", "A learned encoding is one trained row per position: a position past the last row has no encoding at all."), learnedTable},
        {DemoId::ShawClipping, QT_TRANSLATE_NOOP("DemoText", "Shaw: relative distances clipped at ±k"),
         QT_TRANSLATE_NOOP("DemoText", "One learned vector per distance −k … k: distances beyond k look the same, and a shift of every position changes nothing."), shawClipping},
        {DemoId::T5Buckets, QT_TRANSLATE_NOOP("DemoText", "T5: the bucket staircase"),
         QT_TRANSLATE_NOOP("DemoText", "Exact buckets near, logarithmic ones far, one last bucket for all farther distances: the bias sees near distances sharply and far ones coarsely."), t5Buckets},
        {DemoId::TransformerXLTerms, QT_TRANSLATE_NOOP("DemoText", "Transformer-XL: four terms"),
         QT_TRANSLATE_NOOP("DemoText", "q·k = (a) content·content + (b) content·distance + (c) global content bias + (d) global distance bias; (d) depends on i − j alone."), transformerXL},
        {DemoId::RopeShiftInvariance, QT_TRANSLATE_NOOP("DemoText", "RoPE: the score depends only on m − n"),
         QT_TRANSLATE_NOOP("DemoText", "Shift every position by Δ and the score heatmap is unchanged."), ropeShift},
        {DemoId::RopeNorm, QT_TRANSLATE_NOOP("DemoText", "RoPE: norms are preserved"),
         QT_TRANSLATE_NOOP("DemoText", "A rotation never changes a vector's length: |R_m x| = |x| at every position."), ropeNorm},
        {DemoId::RopeDecay, QT_TRANSLATE_NOOP("DemoText", "RoPE: long-term decay, for equal content"),
         QT_TRANSLATE_NOOP("DemoText", "With equal content (q = k), the score and RoFormer's bound on it shrink as the distance grows; with random q and k the score does not decay (Barbero et al., 2025)."), ropeDecay},
        {DemoId::XposDecay, QT_TRANSLATE_NOOP("DemoText", "xPos: RoPE with an explicit decay"),
         QT_TRANSLATE_NOOP("DemoText", "xPos multiplies pair i of RoPE by ζᵢ^((m−n)/512), ζᵢ < 1: its score still depends on m − n only, and falls with distance for random content too, where RoPE's does not."), xposDecay},
        {DemoId::RopeComplexIdentity, QT_TRANSLATE_NOOP("DemoText", "RoPE: the complex identity (with its sine term)"),
         QT_TRANSLATE_NOOP("DemoText", "⟨R_m q, R_n k⟩ = Re[Σ q̃_j k̃_j* e^(i(m−n)θ_j)] exactly; dropping the sine term (a common error) is wrong."), ropeComplex},
        {DemoId::HalfVsInterleaved, QT_TRANSLATE_NOOP("DemoText", "Half-split vs interleaved RoPE"),
         QT_TRANSLATE_NOOP("DemoText", "The same rotation up to a permutation of channels; mixing the layouts gives wrong numbers."), layouts},
        {DemoId::AlibiSlopes, QT_TRANSLATE_NOOP("DemoText", "ALiBi: one slope per head, a linear penalty"),
         QT_TRANSLATE_NOOP("DemoText", "Head h subtracts m_h·(i − j) with m_h = 2^(−8(h+1)/H) for heads h = 0 … H − 1 (H a power of 2): a straight line in the distance, defined at every distance, so it runs past the training length; the steep heads give far tokens almost no weight."), alibiSlopes},
        {DemoId::KvCache, QT_TRANSLATE_NOOP("DemoText", "KV cache: what can be cached"),
         QT_TRANSLATE_NOOP("DemoText", "RoPE rotates each key once and caches it; ALiBi caches m·j once per key, since −m·i is the same for the whole row and softmax ignores it; T5 and Shaw must recompute one term per cached key at every step."), kvCache},
        {DemoId::Extrapolation, QT_TRANSLATE_NOOP("DemoText", "Beyond the training length"),
         QT_TRANSLATE_NOOP("DemoText", "Learned tables fail, sinusoidal and ALiBi stay defined, RoPE's slow pairs reach angles never seen in training; linear interpolation, NTK and YaRN bring those angles back into the trained range."), extrapolation},
        {DemoId::Llama3Bands, QT_TRANSLATE_NOOP("DemoText", "Llama 3.1: three frequency bands, 8k → 128k"),
         QT_TRANSLATE_NOOP("DemoText", "Short wavelengths are kept, long ones stretched by the factor (their frequencies divided by it), and the band between is blended smoothly."), llama3Bands},
        {DemoId::YarnRamp, QT_TRANSLATE_NOOP("DemoText", "YaRN: a ramp between β fast and β slow, and a temperature"),
         QT_TRANSLATE_NOOP("DemoText", "Pairs that turn more than β fast times in the original context keep their frequency, pairs that turn less than β slow times are interpolated, a linear ramp between; cos and sin are multiplied by 0.1·ln s + 1, so the logits by its square."), yarnRamp},
        {DemoId::RopeBf16, QT_TRANSLATE_NOOP("DemoText", "RoPE in bf16 at position 4096"),
         QT_TRANSLATE_NOOP("DemoText", "Angles built in bfloat16 (the legacy path) are off by radians at long context, so cos and sin are wrong, and integer positions above 256 collide; building the angles in float32 (transformers main) removes the angle error, leaving only cos and sin rounded to bfloat16."), ropeBf16},
        {DemoId::LocalGlobalLayers, QT_TRANSLATE_NOOP("DemoText", "Local and global layers: how Gemma 3 and Llama 4 reach 128k and beyond"),
         QT_TRANSLATE_NOOP("DemoText", "Most layers see only a window (Gemma 3: 1024 tokens) or a chunk (Llama 4: 8192); a few global layers reach every token — Gemma 3's with RoPE at base 10⁶ stretched ×8, Llama 4's with no RoPE at all and queries sharpened as positions grow."), localGlobal},
        {DemoId::MropeImage, QT_TRANSLATE_NOOP("DemoText", "How a vision-language model numbers an image"),
         QT_TRANSLATE_NOOP("DemoText", "Qwen2-VL gives every token three ids (t, h, w): an image's patches share one t and spread over h (rows) "
                                       "and w (columns), and the text after the image resumes at the image's largest id + 1, so the "
                                       "sequence uses fewer positions than it has tokens."), mropeImage},
        {DemoId::MropeSections, QT_TRANSLATE_NOOP("DemoText", "Sections or interleaving"),
         QT_TRANSLATE_NOOP("DemoText", "Qwen2-VL gives each axis a block of RoPE frequencies (t the fastest, w the slowest), so scores "
                                       "barely change across an image's width; Qwen3-VL interleaves the axes across the spectrum, so t, h "
                                       "and w decay alike."), mropeSections},
        {DemoId::ComparisonTable, QT_TRANSLATE_NOOP("DemoText", "Comparison of the methods"),
         QT_TRANSLATE_NOOP("DemoText", "Learnable, extrapolation, relative, memory: each cell links to the scene that shows it."), comparison},
    };
    return table;
}

const Entry* entryOf(DemoId id) {
    for (const auto& e : entries())
        if (e.id == id) return &e;
    return nullptr;
}

}  // namespace

QString demoTitle(DemoId id) {
    const Entry* e = entryOf(id);
    return e ? DemoText::tr(e->title) : QString();
}

QString demoClaim(DemoId id) {
    const Entry* e = entryOf(id);
    return e ? DemoText::tr(e->claim) : QString();
}

DemoTexts describeDemo(const DemoSummary& s) {
    Writer w(s);
    if (const Entry* e = entryOf(s.id)) e->describe(w);
    return std::move(w.t);
}

QString extrapolationVerdict(const ExtrapolationRow& r, const ExtrapolationInput& in) {
    const double last = double(in.target_length - 1);
    const QString pairs = DemoText::tr("%1 of %2 pairs reach angles never seen in training; slowest pair at %3× its trained range")
                              .arg(whole(r.unseenPairs), whole(r.pairs), sci(r.lowestPairRatio));
    if (r.method == "nope") return DemoText::tr("nothing positional to extrapolate, and no notion of order either");
    if (r.method == "learned") return r.defined ? DemoText::tr("defined") : DemoText::tr("fails: position %1 has no row in a table of %2").arg(whole(last), whole(double(in.train_length)));
    if (r.method == "sinusoidal") return DemoText::tr("defined at every position; the model never saw row %1 (closest trained row: cosine %2)").arg(whole(last), sci(r.value));
    if (r.method == "alibi") return DemoText::tr("defined: the bias keeps falling linearly (flattest head at distance %1: %2)").arg(whole(last), sci(r.value));
    if (r.method == "shaw") return DemoText::tr("defined: distances beyond k = %1 share the last embedding (index %2)").arg(whole(double(r.limit)), whole(r.value));
    if (r.method == "t5") return DemoText::tr("defined: every distance past the maximum distance %1 falls in bucket %2").arg(whole(double(r.limit)), whole(r.value));
    if (r.method == "transformer-xl") return DemoText::tr("defined: the relative sinusoid exists at every distance (unseen ones past L)");
    if (r.method == "rope") return DemoText::tr("plain RoPE") + QStringLiteral(": ") + pairs;
    if (r.method == "rope-linear") return DemoText::tr("linear interpolation (positions / %1)").arg(sci(in.factor())) + QStringLiteral(": ") + pairs;
    if (r.method == "rope-ntk") return DemoText::tr("NTK (dynamic base)") + QStringLiteral(": ") + pairs;
    if (r.method == "rope-yarn") return DemoText::tr("YaRN (ramp between pairs)") + QStringLiteral(": ") + pairs;
    return {};
}

QString comparisonColumnTitle(TableColumn c) {
    switch (c) {
        case TableColumn::Learnable: return DemoText::tr("Learnable");
        case TableColumn::Extrapolation: return DemoText::tr("Extrapolation");
        case TableColumn::Relative: return DemoText::tr("Relative");
        case TableColumn::Memory: return DemoText::tr("Memory");
    }
    return {};
}

QString comparisonCellText(Method m, TableColumn c, const TableCell& cell) {
    auto arg = [&](std::size_t i) { return i < cell.args.size() ? whole(cell.args[i]) : QString(); };
    // Learnable, extrapolation, relative, and the memory's runtime work, per method.
    struct Words {
        QString learnable, extrapolation, relative, runtime;
    };
    Words t;
    switch (m) {
        case Method::NoPE:
            t = {DemoText::tr("nothing to learn"), DemoText::tr("nothing positional to extrapolate"), DemoText::tr("neither: permutation-equivariant"), DemoText::tr("no positional work")};
            break;
        case Method::Sinusoidal:
            t = {DemoText::tr("no: a fixed formula"), DemoText::tr("defined everywhere, unseen rows past L"), DemoText::tr("absolute; PE·PE is relative only without tokens"),
                 DemoText::tr("added once per token")};
            break;
        case Method::Learned:
            t = {DemoText::tr("yes: %1 × %2 table").arg(arg(0), arg(1)), DemoText::tr("fails past the table"), DemoText::tr("absolute (indexed by position)"), DemoText::tr("added once per token")};
            break;
        case Method::Shaw:
            t = {DemoText::tr("yes: (2k+1) × d key and value tables (k = %1, d = %2)").arg(arg(0), arg(1)), DemoText::tr("clipped at ±k"), DemoText::tr("relative, clipped at ±k"),
                 DemoText::tr("one term per cached key per step")};
            break;
        case Method::T5:
            t = {DemoText::tr("yes: one bias per bucket and head (%1 × %2)").arg(arg(0), arg(1)), DemoText::tr("last bucket past the maximum distance"), DemoText::tr("relative, log buckets"),
                 DemoText::tr("one bias per cached key per step")};
            break;
        case Method::TransformerXL:
            t = {DemoText::tr("yes: u, v (d each), W (d × d), d = %1").arg(arg(0)), DemoText::tr("defined (relative sinusoid)"), DemoText::tr("relative (four terms)"), DemoText::tr("one term per cached key per step")};
            break;
        case Method::Alibi:
            t = {DemoText::tr("no: fixed slopes"), DemoText::tr("yes: linear bias continues"), DemoText::tr("relative: −m_h (i − j)"), DemoText::tr("m·j cached once per key")};
            break;
        case Method::Rope:
            t = {DemoText::tr("no: fixed rotation frequencies"), DemoText::tr("slow pairs leave the trained range; scaling brings them back"),
                 DemoText::tr("relative: depends only on m − n"), DemoText::tr("keys rotated once, then cached")};
            break;
        case Method::Xpos:
            t = {DemoText::tr("no: fixed rotation and decay"), DemoText::tr("explicit decay: far scores fall for any content"), DemoText::tr("relative: depends only on m − n"),
                 DemoText::tr("every key rotated and scaled again per step")};
            break;
    }
    switch (c) {
        case TableColumn::Learnable: return t.learnable;
        case TableColumn::Extrapolation: return t.extrapolation;
        case TableColumn::Relative: return t.relative;
        case TableColumn::Memory: return DemoText::tr("%1 parameters; %2").arg(qs(formatNumber(cell.number)), t.runtime);
    }
    return {};
}

}  // namespace poslab::ui
