#pragma once
// The parameter table: every parameter of every method declared once (KDE Step's property
// table, `STEPCORE_PROPERTY_RW`). A declaration binds a struct field to its name, kind, valid
// range, unit, label and help; everything else is generated from it:
//   * validate()           checkParams(table, s) before the cross-field rules of each struct
//   * the command line     one option per parameter (`--` + kebab-case name), --help lines with
//                          default and valid range, parsing with parseParamText()
//   * sessions             one key per parameter (the name), written/read with the kind's codec
//   * the parameter panel  one control per parameter, limited to exactly the valid range
//   * undo                 an edit names the parameter it changes (merging by name)
// Equality is the structs' defaulted operator==.
//
// A ParamValue is the parameter's value in the kind's representation:
//   Int → int64, Real → double, Bool → bool, Choice → string (the key as the CLI and sessions
//   spell it), RealList → vector<double>, IntList → vector<int64>, Seed → uint64, Text → string;
//   monostate = unset (only for optional parameters).
// Preconditions: none; every function here accepts any value and reports, never throws.
#include "core/types.h"

#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace poslab {

enum class ParamKind { Int, Real, Bool, Choice, RealList, IntList, Seed, Text };

using ParamValue = std::variant<std::monostate, bool, std::int64_t, std::uint64_t, double, std::string,
                                std::vector<double>, std::vector<std::int64_t>>;

// Flags of a declaration.
enum ParamFlag : unsigned {
    kParamShared = 1u << 0,      // set from ScoreParams (dim, precision): no option or control of its own there
    kParamApplyOnly = 1u << 1,   // RoPE application only (theta, layout): not an option of `frequencies`
    kParamZeroUnset = 1u << 2,   // Int where 0 means unset (rotary_dim): 0 is valid besides the range
    kParamSlider = 1u << 3,      // the panel shows a (logarithmic) slider beside the number box
    kParamAdvanced = 1u << 4,    // the panel shows it only when the group is expanded
    kParamSliderEven = 1u << 5,  // Int: the slider proposes even values only (dim: rope and xpos need it;
                                 // the number box still takes any valid value)
};

struct ParamInfo {
    std::string_view name{};                 // snake_case: struct field, session key; option = kebab-case
    ParamKind kind = ParamKind::Real;
    double lo = -std::numeric_limits<double>::infinity();   // valid range (Int, Real; list entries)
    double hi = std::numeric_limits<double>::infinity();
    bool loOpen = false, hiOpen = false;   // exclusive bounds
    bool even = false;                     // Int: even values only
    bool optional = false;                 // may be unset (null in sessions, an option not given)
    std::string_view label{};                // for people, short ("Base θ"); ui translates it
    std::string_view help{};                 // one line: --help, tooltips
    std::string_view unit{};                 // "tokens", "" ...
    std::string_view unset{};                // what unset means, as --help's default ("derived")
    std::string_view validNote{};            // words after the generated range ("(bidirectional)")
    std::string_view resets{};               // a parameter that an explicit value of this one resets to
                                           // its default (partial_rotary_factor ↔ rotary_dim)
    std::size_t maxEntries = 32768;        // lists: at most this many entries
    unsigned flags = 0;
    std::vector<std::string_view> choices{};       // Choice: keys (CLI and session spelling)
    std::vector<std::string_view> choiceLabels{};  // Choice: for people, same order (may be empty)
    // kParamSlider: the range the slider spans when the valid range is wider than a hand moves
    // over (base θ: valid up to 1e12, the slider 10 … 1e7, so a pixel is a small step of log θ).
    // NaN: the valid range. A typed value may lie anywhere in the valid range.
    double sliderLo = std::numeric_limits<double>::quiet_NaN();
    double sliderHi = std::numeric_limits<double>::quiet_NaN();
    std::size_t maxChars = 1024;           // Text: at most this many characters (sessions read no more)
    // Who reads the parameter, as bits the table's owner defines: for the scene and view tables
    // the window's views (ui/model/sceneparams.h viewBit), which the scheduler recomputes when it
    // changes and only then. 0 = none of them.
    unsigned readers = 0;

    bool has(ParamFlag f) const { return (flags & f) != 0; }
    // "an even integer from 2 to 65536", "a number in (0, 1e6]", "one of none, linear", ...
    std::string valid() const;
    // Type and range of a value (not cross-field rules). Errors name `name` (or `errorName`).
    Check check(const ParamValue& v) const;
    // "--max-positions" without dashes: "max-positions".
    std::string option() const;
    // What --help shows as the default of a struct holding `v` ("32", "none", "off").
    std::string defaultText(const ParamValue& v) const;
};

// Parses what a person typed (a command-line value, a panel box) as the parameter's kind:
// numbers in any form strtod accepts in full (1e12, -5, 0.5, 6.5536e4 for an integer that is
// integral), comma-separated lists, choice keys, "true"/"false"; "" is unset (optional only).
// Then checks the range. Errors are "<name>: <valid>, got <text>" (ParamError).
Result<ParamValue> parseParamText(const ParamInfo& info, std::string_view text);
// The number parsers parseParamText uses, for every other place a person types a number (the
// command line's options, RANGEs, windows): one syntax everywhere. Surrounding spaces are allowed.
// A finite real in full (1e12, -5, .5; no hex, inf or nan), else nullopt.
std::optional<double> parseReal(std::string_view text);
// An integer, also as an integral real (6.4e1 is 64; 64.5 is nullopt).
std::optional<std::int64_t> parseInteger(std::string_view text);
// The value as text that parseParamText reads back to the same value (shortest round trip).
// With `digits` < 17, real numbers for people instead (formatReadable: at most that many
// significant digits; a panel box that is not being edited).
std::string formatParamValue(const ParamInfo& info, const ParamValue& v, int digits = 17);

// ---- Codecs: field type <-> ParamValue --------------------------------------------------------

// Enum spellings, specialised next to each enum: `static constexpr std::array<EnumKey<E>, N> keys`.
template <class E>
struct EnumKey {
    E value;
    std::string_view key;
};
template <class E>
struct EnumKeys;

template <>
struct EnumKeys<Precision> {
    static constexpr std::array<EnumKey<Precision>, 4> keys{{{Precision::Float32, "float32"},
                                                             {Precision::Double, "double"},
                                                             {Precision::BFloat16, "bfloat16"},
                                                             {Precision::Float16, "float16"}}};
};

// The key of an enum value; "" for a value outside the enum (which no check accepts).
template <class E>
std::string_view enumKey(E v) {
    for (const auto& k : EnumKeys<E>::keys)
        if (k.value == v) return k.key;
    return {};
}
template <class E>
std::optional<E> enumFromKey(std::string_view key) {
    for (const auto& k : EnumKeys<E>::keys)
        if (k.key == key) return k.value;
    return std::nullopt;
}

template <class T, class = void>
struct ParamCodec;  // specialisations: static ParamValue to(const T&); static void from(const ParamValue&, T&)

template <class T>
struct ParamCodec<T, std::enable_if_t<std::is_integral_v<T> && std::is_signed_v<T>>> {
    static ParamValue to(const T& v) { return static_cast<std::int64_t>(v); }
    static void from(const ParamValue& v, T& out) {
        if (auto* x = std::get_if<std::int64_t>(&v)) out = static_cast<T>(*x);
        else if (std::holds_alternative<std::monostate>(v)) out = T{0};
    }
};
template <>
struct ParamCodec<std::uint64_t> {
    static ParamValue to(const std::uint64_t& v) { return v; }
    static void from(const ParamValue& v, std::uint64_t& out) {
        if (auto* x = std::get_if<std::uint64_t>(&v)) out = *x;
    }
};
template <>
struct ParamCodec<bool> {
    static ParamValue to(const bool& v) { return v; }
    static void from(const ParamValue& v, bool& out) {
        if (auto* x = std::get_if<bool>(&v)) out = *x;
    }
};
template <>
struct ParamCodec<double> {
    static ParamValue to(const double& v) { return v; }
    static void from(const ParamValue& v, double& out) {
        if (auto* x = std::get_if<double>(&v)) out = *x;
    }
};
template <>
struct ParamCodec<std::string> {
    static ParamValue to(const std::string& v) { return v; }
    static void from(const ParamValue& v, std::string& out) {
        if (auto* x = std::get_if<std::string>(&v)) out = *x;
    }
};
template <>
struct ParamCodec<std::vector<double>> {
    static ParamValue to(const std::vector<double>& v) { return v; }
    static void from(const ParamValue& v, std::vector<double>& out) {
        if (auto* x = std::get_if<std::vector<double>>(&v)) out = *x;
    }
};
template <class T>
struct ParamCodec<std::vector<T>, std::enable_if_t<std::is_integral_v<T>>> {
    static ParamValue to(const std::vector<T>& v) { return std::vector<std::int64_t>(v.begin(), v.end()); }
    static void from(const ParamValue& v, std::vector<T>& out) {
        if (auto* x = std::get_if<std::vector<std::int64_t>>(&v)) {
            out.clear();
            for (auto e : *x) out.push_back(static_cast<T>(e));
        }
    }
};
template <class T>
struct ParamCodec<std::optional<T>> {
    static ParamValue to(const std::optional<T>& v) { return v ? ParamCodec<T>::to(*v) : ParamValue{}; }
    static void from(const ParamValue& v, std::optional<T>& out) {
        if (std::holds_alternative<std::monostate>(v)) { out.reset(); return; }
        T x{};
        ParamCodec<T>::from(v, x);
        out = x;
    }
};
template <class E>
struct ParamCodec<E, std::enable_if_t<std::is_enum_v<E>>> {
    static ParamValue to(const E& v) { return std::string(enumKey(v)); }
    static void from(const ParamValue& v, E& out) {
        if (auto* x = std::get_if<std::string>(&v))
            if (auto e = enumFromKey<E>(*x)) out = *e;
    }
};

// ---- Declarations bound to fields -----------------------------------------------------------------

template <class S>
struct Param {
    ParamInfo info;
    std::string_view group;                       // "" = the struct's own field, else the nested struct's key
    std::function<ParamValue(const S&)> get;
    std::function<void(S&, const ParamValue&)> set;   // precondition: info.check(v) passed
    // Whether the parameter matters for these values (a YaRN option under YaRN scaling); the
    // panel shows only those. Empty = always.
    std::function<bool(const S&)> relevant;
    // When `relevant` is not a matter of the table's choices and switches alone: the words that
    // say when the parameter is read ("with yarn scaling, mscale_all_dim set and no
    // attention_factor"); messages use them instead of the values enablingValues() finds.
    std::string_view whenText{};
    Param when(std::function<bool(const S&)> f, std::string_view text = {}) && {
        relevant = std::move(f);
        whenText = text;
        return std::move(*this);
    }
    bool matters(const S& s) const { return !relevant || relevant(s); }
    std::string path() const {
        return group.empty() ? std::string(info.name) : std::string(group) + "." + std::string(info.name);
    }
};
template <class S>
using ParamTable = std::vector<Param<S>>;

namespace detail {
template <class M>
struct MemberOf;
template <class S, class T>
struct MemberOf<T S::*> {
    using Struct = S;
    using Type = T;
};
template <class E>
std::vector<std::string_view> enumChoices() {
    std::vector<std::string_view> out;
    for (const auto& k : EnumKeys<E>::keys) out.push_back(k.key);
    return out;
}
}  // namespace detail

// Declares the parameter bound to member M (`field<&RopeParams::base>({...})`). Choice
// kinds take their keys from EnumKeys of the field's enum when `info.choices` is empty.
template <auto M>
Param<typename detail::MemberOf<decltype(M)>::Struct> field(ParamInfo info) {
    using S = typename detail::MemberOf<decltype(M)>::Struct;
    using T = typename detail::MemberOf<decltype(M)>::Type;
    if constexpr (std::is_enum_v<T>)
        if (info.choices.empty()) info.choices = detail::enumChoices<T>();
    Param<S> p;
    p.info = std::move(info);
    p.get = [](const S& s) { return ParamCodec<T>::to(s.*M); };
    p.set = [](S& s, const ParamValue& v) { ParamCodec<T>::from(v, s.*M); };
    return p;
}

// The entries of an inner struct's table as entries of the outer struct (group = `key`).
template <class Outer, class Inner>
void appendNested(ParamTable<Outer>& outer, std::string_view key, Inner Outer::*member, const ParamTable<Inner>& inner) {
    for (const auto& e : inner) {
        Param<Outer> p;
        p.info = e.info;
        p.group = key;
        p.get = [member, g = e.get](const Outer& s) { return g(s.*member); };
        p.set = [member, st = e.set](Outer& s, const ParamValue& v) { st(s.*member, v); };
        if (e.relevant) p.relevant = [member, r = e.relevant](const Outer& s) { return r(s.*member); };
        p.whenText = e.whenText;
        outer.push_back(std::move(p));
    }
}

// ---- Generic operations -----------------------------------------------------------------------------

// Every declared parameter's type and range, in declaration order; the first failure.
template <class S>
Check checkParams(const ParamTable<S>& table, const S& s) {
    for (const auto& p : table)
        if (auto e = p.info.check(p.get(s))) return e;
    return std::nullopt;
}

// The declaration with that path ("rope.base") or name ("dim"), or nullptr.
template <class S>
const Param<S>* findParam(const ParamTable<S>& table, std::string_view path) {
    for (const auto& p : table)
        if (p.path() == path) return &p;
    return nullptr;
}

// Where a parameter does not matter for `s` (its `relevant` is false): the values of the
// table's choices and switches in its group that would make it matter, each with the keys that
// do ({scaling: [yarn]} for YaRN's beta_fast under llama3 scaling). What an error names as "read
// only with ..." (the command line refuses an option that cannot change its output).
template <class S>
struct EnablingValues {
    const Param<S>* param = nullptr;
    std::vector<ParamValue> values;
};
template <class S>
std::vector<EnablingValues<S>> enablingValues(const ParamTable<S>& table, const Param<S>& p, const S& s) {
    std::vector<EnablingValues<S>> out;
    for (const auto& q : table) {
        if (&q == &p || q.group != p.group) continue;
        std::vector<ParamValue> candidates;
        if (q.info.kind == ParamKind::Choice)
            for (auto c : q.info.choices) candidates.emplace_back(std::string(c));
        else if (q.info.kind == ParamKind::Bool)
            candidates = {ParamValue{true}, ParamValue{false}};
        else
            continue;
        EnablingValues<S> e{&q, {}};
        const ParamValue now = q.get(s);
        for (const auto& v : candidates) {
            if (v == now) continue;
            S t = s;
            q.set(t, v);
            if (p.matters(t)) e.values.push_back(v);
        }
        if (!e.values.empty()) out.push_back(std::move(e));
    }
    return out;
}

// Checks and sets one parameter; with `reset`, on success also resets the parameter it `resets`
// (in the same group) to its value in a default-constructed S.
template <class S>
Check setParam(const ParamTable<S>& table, S& s, const Param<S>& p, const ParamValue& v, bool reset = true) {
    if (auto e = p.info.check(v)) return e;
    p.set(s, v);
    if (reset && !p.info.resets.empty()) {
        for (const auto& q : table)
            if (q.group == p.group && q.info.name == p.info.resets) q.set(s, q.get(S{}));
    }
    return std::nullopt;
}

}  // namespace poslab
