#include "core/param.h"

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <optional>

namespace poslab {

namespace {

std::string joined(const std::vector<std::string_view>& keys) {
    std::string s;
    for (std::size_t i = 0; i < keys.size(); ++i) s += (i ? ", " : "") + std::string(keys[i]);
    return s;
}

std::string trim(std::string_view t) {
    std::size_t a = 0, b = t.size();
    while (a < b && (t[a] == ' ' || t[a] == '\t')) ++a;
    while (b > a && (t[b - 1] == ' ' || t[b - 1] == '\t')) --b;
    return std::string(t.substr(a, b - a));
}

}  // namespace

// A finite double written in full (strtod syntax: 1e12, -5, .5, 0x1p3 refused), or nullopt.
std::optional<double> parseReal(std::string_view text) {
    const std::string t = trim(text);
    if (t.empty()) return std::nullopt;
    for (char c : t)
        if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'))
            return std::nullopt;  // no hex, no "inf"/"nan", no spaces inside
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (end != t.c_str() + t.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

// An integer, also written as an integral number in scientific notation (6.5536e4).
std::optional<std::int64_t> parseInteger(std::string_view text) {
    const std::string t = trim(text);
    if (t.empty()) return std::nullopt;
    std::int64_t v = 0;
    const char* b = t.c_str();
    const char* e = b + t.size();
    if (*b == '+') ++b;
    auto r = std::from_chars(b, e, v);
    if (r.ec == std::errc() && r.ptr == e) return v;
    auto d = parseReal(t);
    if (!d || std::floor(*d) != *d || std::abs(*d) > 9.0e18) return std::nullopt;
    return static_cast<std::int64_t>(*d);
}

namespace {

std::optional<std::uint64_t> parseSeed(std::string_view text) {
    const std::string t = trim(text);
    std::uint64_t v = 0;
    const char* b = t.c_str();
    const char* e = b + t.size();
    auto r = std::from_chars(b, e, v);
    if (t.empty() || r.ec != std::errc() || r.ptr != e) return std::nullopt;
    return v;
}

std::vector<std::string> splitComma(std::string_view t) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= t.size(); ++i) {
        if (i == t.size() || t[i] == ',') {
            out.push_back(trim(t.substr(start, i - start)));
            start = i + 1;
        }
    }
    return out;
}

std::string describeValue(const ParamInfo& info, const ParamValue& v) {
    if (std::holds_alternative<std::monostate>(v)) return "unset";
    return formatParamValue(info, v);
}

bool inRange(const ParamInfo& i, double x) {
    if (!std::isfinite(x)) return false;
    if (i.loOpen ? !(x > i.lo) : !(x >= i.lo)) return false;
    if (i.hiOpen ? !(x < i.hi) : !(x <= i.hi)) return false;
    return true;
}

}  // namespace

std::string ParamInfo::valid() const {
    std::string s;
    const bool hasLo = std::isfinite(lo), hasHi = std::isfinite(hi);
    auto range = [&](const char* noun) {
        std::string r = noun;
        if (hasLo && hasHi && !loOpen && !hiOpen) r += " from " + formatBound(lo) + " to " + formatBound(hi);
        else if (hasLo && hasHi)
            r += std::string(" in ") + (loOpen ? "(" : "[") + formatBound(lo) + ", " + formatBound(hi) + (hiOpen ? ")" : "]");
        else if (hasLo) r += std::string(loOpen ? " > " : " >= ") + formatBound(lo);
        else if (hasHi) r += std::string(hiOpen ? " < " : " <= ") + formatBound(hi);
        return r;
    };
    switch (kind) {
    case ParamKind::Int:
        s = range(even ? "an even integer" : "an integer");
        if (has(kParamZeroUnset)) s = "0 (unset) or " + s;
        break;
    case ParamKind::Real: s = range("a number"); break;
    case ParamKind::Bool: s = "true or false"; break;
    case ParamKind::Choice: s = "one of " + joined(choices); break;
    case ParamKind::RealList: s = "a list of numbers, each" + range(""); break;
    case ParamKind::IntList: s = "a list of integers, each" + range(""); break;
    case ParamKind::Seed: s = "an integer from 0 to 18446744073709551615"; break;
    case ParamKind::Text: s = "a text"; break;
    }
    if (kind == ParamKind::RealList || kind == ParamKind::IntList) {
        if (!hasLo && !hasHi) s = kind == ParamKind::RealList ? "a list of finite numbers" : "a list of integers";
        s += " (at most " + std::to_string(maxEntries) + ")";
    }
    if (!validNote.empty()) s += " " + std::string(validNote);
    return s;
}

std::string ParamInfo::option() const {
    std::string s(name);
    for (char& c : s)
        if (c == '_') c = '-';
    return s;
}

std::string ParamInfo::defaultText(const ParamValue& v) const {
    if (std::holds_alternative<std::monostate>(v) || (has(kParamZeroUnset) && v == ParamValue{std::int64_t{0}}))
        return unset.empty() ? "unset" : std::string(unset);
    if (kind == ParamKind::Bool) return std::get<bool>(v) ? "on" : "off";
    if (kind == ParamKind::RealList || kind == ParamKind::IntList) {
        const std::string t = formatParamValue(*this, v);
        return t.empty() ? (unset.empty() ? "none" : std::string(unset)) : t;
    }
    return formatParamValue(*this, v);
}

Check ParamInfo::check(const ParamValue& v) const {
    const std::string n(name);
    auto bad = [&](const std::string& got) { return ParamError{n, valid(), got}; };
    if (std::holds_alternative<std::monostate>(v)) {
        if (optional) return std::nullopt;
        return bad("unset");
    }
    switch (kind) {
    case ParamKind::Int: {
        const auto* x = std::get_if<std::int64_t>(&v);
        if (!x) return bad(describeValue(*this, v));
        if (has(kParamZeroUnset) && *x == 0) return std::nullopt;
        if (!inRange(*this, static_cast<double>(*x)) || (even && *x % 2 != 0)) return bad(formatInt(*x));
        return std::nullopt;
    }
    case ParamKind::Real: {
        const auto* x = std::get_if<double>(&v);
        if (!x) return bad(describeValue(*this, v));
        if (!inRange(*this, *x)) return bad(formatNumber(*x));
        return std::nullopt;
    }
    case ParamKind::Bool:
        if (!std::holds_alternative<bool>(v)) return bad(describeValue(*this, v));
        return std::nullopt;
    case ParamKind::Choice: {
        const auto* x = std::get_if<std::string>(&v);
        if (!x) return bad(describeValue(*this, v));
        for (auto c : choices)
            if (c == *x) return std::nullopt;
        return bad(*x);
    }
    case ParamKind::RealList: {
        const auto* x = std::get_if<std::vector<double>>(&v);
        if (!x) return bad(describeValue(*this, v));
        if (x->size() > maxEntries) return bad(std::to_string(x->size()) + " entries");
        for (std::size_t i = 0; i < x->size(); ++i)
            if (!inRange(*this, (*x)[i])) return bad(formatNumber((*x)[i]) + " at entry " + std::to_string(i));
        return std::nullopt;
    }
    case ParamKind::IntList: {
        const auto* x = std::get_if<std::vector<std::int64_t>>(&v);
        if (!x) return bad(describeValue(*this, v));
        if (x->size() > maxEntries) return bad(std::to_string(x->size()) + " entries");
        for (std::size_t i = 0; i < x->size(); ++i)
            if (!inRange(*this, static_cast<double>((*x)[i]))) return bad(formatInt((*x)[i]) + " at entry " + std::to_string(i));
        return std::nullopt;
    }
    case ParamKind::Seed:
        if (!std::holds_alternative<std::uint64_t>(v)) return bad(describeValue(*this, v));
        return std::nullopt;
    case ParamKind::Text:
        if (!std::holds_alternative<std::string>(v)) return bad(describeValue(*this, v));
        return std::nullopt;
    }
    return std::nullopt;
}

std::string formatParamValue(const ParamInfo& info, const ParamValue& v, int digits) {
    if (info.has(kParamZeroUnset) && v == ParamValue{std::int64_t{0}}) return "";
    struct V {
        int digits;
        std::string formatDecimal(double x) const { return digits < 17 ? formatReadable(x, digits) : poslab::formatDecimal(x); }
        std::string operator()(std::monostate) const { return ""; }
        std::string operator()(bool b) const { return b ? "true" : "false"; }
        std::string operator()(std::int64_t x) const { return formatInt(x); }
        std::string operator()(std::uint64_t x) const { return std::to_string(x); }
        std::string operator()(double x) const { return formatDecimal(x); }
        std::string operator()(const std::string& s) const { return s; }
        std::string operator()(const std::vector<double>& l) const {
            std::string s;
            for (std::size_t i = 0; i < l.size(); ++i) s += (i ? "," : "") + formatDecimal(l[i]);
            return s;
        }
        std::string operator()(const std::vector<std::int64_t>& l) const {
            std::string s;
            for (std::size_t i = 0; i < l.size(); ++i) s += (i ? "," : "") + formatInt(l[i]);
            return s;
        }
    };
    return std::visit(V{digits}, v);
}

Result<ParamValue> parseParamText(const ParamInfo& info, std::string_view text) {
    const std::string t = trim(text);
    auto bad = [&] { return ParamError{std::string(info.name), info.valid(), t.empty() ? "nothing" : t}; };
    if (t.empty()) {
        if (info.optional) return ParamValue{};
        if (info.has(kParamZeroUnset)) return ParamValue{std::int64_t{0}};
        if (info.kind == ParamKind::RealList || info.kind == ParamKind::IntList || info.kind == ParamKind::Text) {
            if (info.kind == ParamKind::RealList) return ParamValue{std::vector<double>{}};
            if (info.kind == ParamKind::IntList) return ParamValue{std::vector<std::int64_t>{}};
            return ParamValue{std::string()};
        }
        return bad();
    }
    ParamValue v;
    switch (info.kind) {
    case ParamKind::Int: {
        auto x = parseInteger(t);
        if (!x) return bad();
        v = *x;
        break;
    }
    case ParamKind::Real: {
        auto x = parseReal(t);
        if (!x) return bad();
        v = *x;
        break;
    }
    case ParamKind::Bool:
        if (t == "true" || t == "on" || t == "1") v = true;
        else if (t == "false" || t == "off" || t == "0") v = false;
        else return bad();
        break;
    case ParamKind::Choice: v = t; break;
    case ParamKind::RealList: {
        std::vector<double> out;
        const auto parts = splitComma(t);
        if (parts.size() > info.maxEntries) return ParamError{std::string(info.name), info.valid(), std::to_string(parts.size()) + " entries"};
        for (const auto& p : parts) {
            auto x = parseReal(p);
            if (!x) return bad();
            out.push_back(*x);
        }
        v = std::move(out);
        break;
    }
    case ParamKind::IntList: {
        std::vector<std::int64_t> out;
        const auto parts = splitComma(t);
        if (parts.size() > info.maxEntries) return ParamError{std::string(info.name), info.valid(), std::to_string(parts.size()) + " entries"};
        for (const auto& p : parts) {
            const auto colon = p.find(':');
            if (colon != std::string::npos) {   // a half-open RANGE A:B
                auto a = parseInteger(p.substr(0, colon));
                auto b = parseInteger(p.substr(colon + 1));
                if (!a || !b || *b <= *a) return bad();
                if (static_cast<double>(*b - *a) + static_cast<double>(out.size()) > static_cast<double>(info.maxEntries))
                    return ParamError{std::string(info.name), info.valid(), "more than " + std::to_string(info.maxEntries) + " entries"};
                for (auto x = *a; x < *b; ++x) out.push_back(x);
                continue;
            }
            auto x = parseInteger(p);
            if (!x) return bad();
            out.push_back(*x);
        }
        v = std::move(out);
        break;
    }
    case ParamKind::Seed: {
        auto x = parseSeed(t);
        if (!x) return bad();
        v = *x;
        break;
    }
    case ParamKind::Text: v = t; break;
    }
    if (auto e = info.check(v)) {
        e->got = t;
        return *e;
    }
    return v;
}

}  // namespace poslab
