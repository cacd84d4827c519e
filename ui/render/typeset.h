#pragma once
// Prose as people read it. The program's strings write mathematics the way a source file can:
// "θ_i", "w_i", "m_h", "PE_m", "R_{n−m}", "10^{4}". typeset() turns those into Unicode sub- and
// superscript characters ("θᵢ", "wᵢ", "mₕ", "PEₘ", "Rₙ₋ₘ", "10⁴") wherever text reaches the screen
// or a figure (plot::text, plot::wrappedText and fitText call it; widgets' labels too).
//
//   base_x        base: one or two letters (Latin or Greek) standing alone (not the end of a
//                 longer word, so identifiers like rotary_dim or inv_freq stay as written);
//                 x: one letter or digit not followed by another letter or digit
//   base_{…}      a braced group after any base
//   base^{…}      a braced group (parenthesised exponents "base^(−2i/d)" stay as written)
// Each character of the script must have a Unicode sub/superscript form (digits, + − = ( ),
// a e h i j k l m n o p r s t u v x for subscripts, digits and most letters for superscripts);
// a script with one that has none is left as written. Idempotent: typeset(typeset(s)) == typeset(s).
#include <QString>

namespace poslab::ui {

QString typeset(const QString& s);

// Whether `s` still holds a raw script typeset() would rewrite, or any "_{" / "^{" at all (what a
// test of the figures' texts looks for).
bool hasRawScript(const QString& s);

// Text to be word-wrapped with its formulas kept whole: the spaces beside an operator ("a − b",
// "x = 2") and beside a word holding "|" ("max |diff|", "| |R_m x| − |x| |") become no-break
// spaces, and a word joiner follows a "|" or "/" inside a word (Unicode allows a break after
// them: "max | / diff|"). Prose between formulas still wraps at its spaces.
QString keepFormulasTogether(const QString& s);

}  // namespace poslab::ui
