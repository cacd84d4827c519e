#include "core/types.h"

#include <charconv>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace poslab {

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
