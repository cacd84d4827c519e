#include "core/format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace poslab {

namespace {

std::string chars(double x, std::chars_format f) {
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, x, f);
    return std::string(buf, res.ptr);
}

std::string shortest(double x) {
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, x);
    return std::string(buf, res.ptr);
}

// "2.41" and 7 written in the style: "2.41e7", "2.41 × 10⁷", "2.41\times10^{7}".
std::string withExponent(const std::string& mantissa, int exp, NumberStyle style) {
    switch (style) {
    case NumberStyle::Plain: break;
    case NumberStyle::Typeset: {
        static const char* const sup[10] = {"\u2070", "\u00b9", "\u00b2", "\u00b3", "\u2074",
                                            "\u2075", "\u2076", "\u2077", "\u2078", "\u2079"};
        std::string ex = exp < 0 ? "\u207b" : "";
        for (const char c : std::to_string(std::abs(exp))) ex += sup[c - '0'];
        return (mantissa == "1" ? std::string() : mantissa + " \u00d7 ") + "10" + ex;
    }
    case NumberStyle::Tex: return mantissa + "\\times10^{" + std::to_string(exp) + "}";
    }
    return mantissa + "e" + std::to_string(exp);
}

// to_chars' scientific text ("2.41e+07", "-1e-06") in the style.
std::string restyled(const std::string& sci, NumberStyle style) {
    const auto e = sci.find('e');
    return withExponent(sci.substr(0, e), std::atoi(sci.c_str() + e + 1), style);
}

// |x| rounded to `digits` significant digits as printf rounds them (9.999996 at 6 digits is 10).
double roundSignificant(double ax, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*e", digits - 1, ax);
    return std::strtod(buf, nullptr);
}

// NaN, ±inf and 0 in the style, or nullopt-like empty for every other number.
std::string special(double x, NumberStyle style) {
    const bool tex = style == NumberStyle::Tex, typeset = style == NumberStyle::Typeset;
    if (std::isnan(x)) return tex ? "\\text{nan}" : "nan";
    if (std::isinf(x)) {
        const std::string inf = tex ? "\\infty" : typeset ? "\u221e" : "inf";
        return x > 0 ? inf : (typeset ? "\u2212" : "-") + inf;
    }
    if (x == 0) return "0";
    return {};
}

std::string signed_(double x, const std::string& body, NumberStyle style) {
    return x < 0 ? (style == NumberStyle::Typeset ? "\u2212" : "-") + body : body;
}

}  // namespace

std::string formatNumber(double x) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    return shortest(x);
}

std::string formatBound(double x) {
    const std::string s = shortest(x);
    return s.find('e') == std::string::npos ? s : restyled(s, NumberStyle::Plain);
}

std::string formatDecimal(double x) {
    const double a = std::abs(x);
    if (x == 0) return "0";
    if (a >= 1e-4 && a < 1e9) return chars(x, std::chars_format::fixed);
    return formatBound(x);
}

std::string formatInt(std::int64_t x) { return std::to_string(x); }

std::string formatReadable(double x, int digits, NumberStyle style) {
    if (const std::string s = special(x, style); !s.empty()) return s;
    const double ax = std::abs(x);
    digits = ax < 1e6 && ax == std::floor(ax) ? 17 : std::clamp(digits, 1, 17);
    const double r = roundSignificant(ax, digits);
    const std::string body = r >= 1e-4 && r < 1e6 ? chars(r, std::chars_format::fixed)
                                                  : restyled(chars(r, std::chars_format::scientific), style);
    return signed_(x, body, style);
}

std::string formatScientific(double x, int digits, NumberStyle style) {
    if (const std::string s = special(x, style); !s.empty()) return s;
    const double r = roundSignificant(std::abs(x), std::clamp(digits, 1, 17));
    return signed_(x, restyled(chars(r, std::chars_format::scientific), style), style);
}

}  // namespace poslab
