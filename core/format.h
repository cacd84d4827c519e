#pragma once
// THE number formatter of PosLab: every writer and every view formats its numbers here (core, no
// Qt; ui/ wraps the text in a QString). Two forms, for two readers.
//
// For files and copies (JSON, CSV, sessions, the command line's output, the clipboard, a box
// being edited, the numbers of a message): the SHORTEST ROUND TRIP, the fewest digits that
// strtod reads back to exactly the same double. Three notations of the same digits:
//   formatNumber(x)   std::to_chars' shortest: "0.1", "-2.5", "1e+30", "nan", "inf" (data files)
//   formatBound(x)    the exponent without sign or padding: "1e6", "2.5e-7", "0.5" (messages, ranges)
//   formatDecimal(x)  plain decimals for 1e-4 <= |x| < 1e9 ("500000", "0.0125"), else as
//                     formatBound ("1e-7", "2.5e20") (a parameter's value as text)
//   formatInt(n)      "131072"
//
// For people (boxes not being edited, tooltips, hover text, captions, axis ticks, slides,
// formulas): formatReadable(x, digits = 6), at most `digits` significant digits (6 as issue #27
// asks; fewer where a view has no room; 1 to 17), the value rounded as printf rounds (9.999996
// at 6 digits is 10), then written in the shortest form of the rounded value: fixed notation for
// 1e-4 <= |x| < 1e6 ("0.111803", "500000"), else scientific ("2.41e7", "4.44e-16"). An integer
// below 1e6 is never rounded (a position or a count: 131072, not 131100 at 4 digits).
// formatScientific(x, digits) is the same rounding always as mantissa and exponent ("5e5",
// "1.5e-4"): one axis' ticks written one way.
// Styles: Plain reads back with strtod ("-2.41e7"); Typeset is only read ("−2.41 × 10⁷", a true
// minus, "10⁶" for a mantissa of 1); Tex goes into a formula ("-2.41\times10^{7}", "\infty").
#include <cstdint>
#include <string>

namespace poslab {

std::string formatNumber(double x);
std::string formatBound(double x);
std::string formatDecimal(double x);
std::string formatInt(std::int64_t x);

enum class NumberStyle { Plain, Typeset, Tex };
std::string formatReadable(double x, int digits = 6, NumberStyle style = NumberStyle::Plain);
std::string formatScientific(double x, int digits = 6, NumberStyle style = NumberStyle::Plain);

}  // namespace poslab
