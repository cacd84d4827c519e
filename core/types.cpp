#include "core/types.h"

#include <charconv>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace poslab {

std::string formatNumber(double x) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, x);
    return std::string(buf, res.ptr);
}

std::string formatInt(std::int64_t x) { return std::to_string(x); }

std::string formatReadable(double x, int digits, NumberStyle style) {
    const bool typeset = style == NumberStyle::Typeset;
    const std::string minus = typeset ? "\u2212" : "-";
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x > 0 ? (typeset ? "\u221e" : "inf") : minus + (typeset ? "\u221e" : "inf");
    if (x == 0) return "0";
    digits = std::clamp(digits, 1, 17);
    // Rounded as printf rounds (9.999996 at 6 digits is 10, not 9.99999...), then read back.
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*e", digits - 1, std::abs(x));
    const double r = std::strtod(buf, nullptr);
    std::string body;
    if (r >= 1e-4 && r < 1e6) {
        auto res = std::to_chars(buf, buf + sizeof buf, r, std::chars_format::fixed);
        body.assign(buf, res.ptr);
    } else {
        auto res = std::to_chars(buf, buf + sizeof buf, r, std::chars_format::scientific);
        const std::string sci(buf, res.ptr);   // "2.41e+07"
        const auto e = sci.find('e');
        const std::string mant = sci.substr(0, e);
        int exp = std::atoi(sci.c_str() + e + 1);
        if (typeset) {
            static const char* const sup[10] = {"\u2070", "\u00b9", "\u00b2", "\u00b3", "\u2074",
                                                "\u2075", "\u2076", "\u2077", "\u2078", "\u2079"};
            std::string ex = exp < 0 ? "\u207b" : "";
            for (const char c : std::to_string(std::abs(exp))) ex += sup[c - '0'];
            body = (mant == "1" ? std::string() : mant + " \u00d7 ") + "10" + ex;
        } else {
            body = mant + "e" + std::to_string(exp);
        }
    }
    return x < 0 ? minus + body : body;
}

std::string printable(const std::string& text) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u != 0x7f) out += c;
        else if (c == '\n') out += "\\n";
        else if (c == '\t') out += "\\t";
        else if (c == '\r') out += "\\r";
        else {
            out += "\\x";
            out += hex[u >> 4];
            out += hex[u & 15];
        }
    }
    return out;
}

std::string ParamError::printableGot() const { return printable(got); }

std::string ParamError::message() const { return parameter + ": " + valid + ", got " + printable(got); }

Check validatePositions(const Positions& positions, const std::string& name, std::int64_t minValue) {
    if (positions.empty())
        return ParamError{name, "at least one position", "an empty list"};
    for (auto p : positions) {
        if (p < minValue || p > kMaxPosition)
            return ParamError{name, "integers from " + formatInt(minValue) + " to " + formatInt(kMaxPosition),
                              formatInt(p)};
    }
    return std::nullopt;
}

Positions arangePositions(std::int64_t begin, std::int64_t end) {
    Positions p;
    if (end > begin) p.reserve(static_cast<std::size_t>(end - begin));
    for (auto i = begin; i < end; ++i) p.push_back(i);
    return p;
}

}  // namespace poslab
