#include "core/json.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace poslab {

std::string jsonNumber(double x) {
    if (x == 0) return "0";   // also −0: JSON readers need no sign on zero
    return formatNumber(x);
}

std::string jsonString(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 2);
    out += '"';
    for (unsigned char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) {
                char b[8];
                std::snprintf(b, sizeof b, "\\u%04x", c);
                out += b;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    out += '"';
    return out;
}

void JsonWriter::newline(std::size_t depth) {
    out_ += '\n';
    out_.append(depth * 2, ' ');
}

void JsonWriter::beforeValue(bool scalar) {
    if (afterKey_) {
        afterKey_ = false;
        return;
    }
    if (stack_.empty()) return;
    Level& l = stack_.back();
    if (style_ == Style::Pretty && !l.object && l.first) l.inlineArray = scalar;
    if (!l.first) out_ += ',';
    if (style_ == Style::Pretty) {
        if (l.object || !l.inlineArray) newline(stack_.size());
        else if (!l.first) out_ += ' ';
    }
    l.first = false;
}

JsonWriter& JsonWriter::beginObject() {
    beforeValue(false);
    out_ += '{';
    stack_.push_back({true, true, false});
    return *this;
}
JsonWriter& JsonWriter::endObject() {
    const bool empty = stack_.empty() || stack_.back().first;
    if (!stack_.empty()) stack_.pop_back();
    if (style_ == Style::Pretty && !empty) newline(stack_.size());
    out_ += '}';
    return *this;
}
JsonWriter& JsonWriter::beginArray() {
    beforeValue(false);
    out_ += '[';
    stack_.push_back({false, true, false});
    return *this;
}
JsonWriter& JsonWriter::endArray() {
    const bool empty = stack_.empty() || stack_.back().first;
    const bool inl = !stack_.empty() && stack_.back().inlineArray;
    if (!stack_.empty()) stack_.pop_back();
    if (style_ == Style::Pretty && !empty && !inl) newline(stack_.size());
    out_ += ']';
    return *this;
}
JsonWriter& JsonWriter::key(std::string_view k) {
    beforeValue(false);
    out_ += jsonString(k);
    out_ += style_ == Style::Pretty ? ": " : ":";
    lastKey_ = std::string(k);
    afterKey_ = true;
    return *this;
}
JsonWriter& JsonWriter::number(double x) {
    beforeValue(true);
    if (!std::isfinite(x)) {
        if (error_.empty()) error_ = formatNumber(x) + " in \"" + (lastKey_.empty() ? std::string("the document") : lastKey_) + "\"";
        out_ += "null";
        return *this;
    }
    out_ += jsonNumber(x);
    return *this;
}
JsonWriter& JsonWriter::integer(std::int64_t x) {
    beforeValue(true);
    out_ += std::to_string(x);
    return *this;
}
JsonWriter& JsonWriter::uinteger(std::uint64_t x) {
    beforeValue(true);
    out_ += std::to_string(x);
    return *this;
}
JsonWriter& JsonWriter::string(std::string_view s) {
    beforeValue(true);
    out_ += jsonString(s);
    return *this;
}
JsonWriter& JsonWriter::null() {
    beforeValue(true);
    out_ += "null";
    return *this;
}
JsonWriter& JsonWriter::boolean(bool b) {
    beforeValue(true);
    out_ += b ? "true" : "false";
    return *this;
}
JsonWriter& JsonWriter::sunk(JsonArray&& a, const double* data, std::size_t n, bool nanIsNull) {
    beforeValue(true);
    // One branch-free pass (it vectorises: this runs over every score of a large matrix), then
    // the first offending number when there is one.
    constexpr double inf = std::numeric_limits<double>::infinity();
    bool bad = false;
    if (nanIsNull)
        for (std::size_t i = 0; i < n; ++i) bad |= std::fabs(data[i]) == inf;
    else
        for (std::size_t i = 0; i < n; ++i) bad |= !(std::fabs(data[i]) <= std::numeric_limits<double>::max());
    for (std::size_t i = 0; bad && i < n; ++i) {
        const double x = data[i];
        if (!std::isfinite(x) && !(nanIsNull && std::isnan(x))) {
            if (error_.empty()) error_ = formatNumber(x) + " in \"" + (lastKey_.empty() ? std::string("the document") : lastKey_) + "\"";
            break;
        }
    }
    out_ += '@';
    out_ += std::to_string(sink_->size());
    sink_->push_back(std::move(a));
    return *this;
}

namespace {
JsonArray doubleArray(Matrix m, std::vector<std::int64_t> shape) {
    JsonArray a;
    a.shape = std::move(shape);
    a.doubles = std::move(m);
    return a;
}
JsonArray intArray(std::vector<std::int64_t> v, std::vector<std::int64_t> shape) {
    JsonArray a;
    a.shape = std::move(shape);
    a.integer = true;
    a.ints = std::move(v);
    return a;
}
}  // namespace

JsonWriter& JsonWriter::vector(const Vector& v) {
    if (sink_) {
        Matrix m = v.transpose();
        const double* d = m.data();
        return sunk(doubleArray(std::move(m), {v.size()}), d, static_cast<std::size_t>(v.size()), false);
    }
    beginArray();
    for (Eigen::Index i = 0; i < v.size(); ++i) number(v[i]);
    return endArray();
}
JsonWriter& JsonWriter::doubles(const std::vector<double>& v) {
    if (sink_) {
        Matrix m = Eigen::Map<const Matrix>(v.data(), 1, static_cast<Eigen::Index>(v.size()));
        const double* d = m.data();
        return sunk(doubleArray(std::move(m), {static_cast<std::int64_t>(v.size())}), d, v.size(), false);
    }
    beginArray();
    for (double x : v) number(x);
    return endArray();
}
JsonWriter& JsonWriter::integers(const std::vector<std::int64_t>& v) {
    if (sink_) return sunk(intArray(v, {static_cast<std::int64_t>(v.size())}), nullptr, 0, false);
    beginArray();
    for (auto x : v) integer(x);
    return endArray();
}
JsonWriter& JsonWriter::matrix(const Matrix& m) {
    if (sink_) {
        Matrix copy = m;
        const double* d = copy.data();
        return sunk(doubleArray(std::move(copy), {m.rows(), m.cols()}), d, static_cast<std::size_t>(m.size()), false);
    }
    beginArray();
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        beginArray();
        for (Eigen::Index c = 0; c < m.cols(); ++c) number(m(r, c));
        endArray();
    }
    return endArray();
}
JsonWriter& JsonWriter::maskedMatrix(Matrix&& m, bool finiteOrNaN) {
    if (sink_) {
        const std::vector<std::int64_t> shape = {m.rows(), m.cols()};
        const double* d = m.data();   // the moved matrix keeps its buffer
        const auto n = finiteOrNaN ? 0 : static_cast<std::size_t>(m.size());
        return sunk(doubleArray(std::move(m), shape), d, n, true);
    }
    beginArray();
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        beginArray();
        for (Eigen::Index c = 0; c < m.cols(); ++c) {
            if (std::isnan(m(r, c))) null();
            else number(m(r, c));
        }
        endArray();
    }
    return endArray();
}
JsonWriter& JsonWriter::intMatrix(const IntMatrix& m) {
    if (sink_) return sunk(intArray(std::vector<std::int64_t>(m.data(), m.data() + m.size()), {m.rows(), m.cols()}), nullptr, 0, false);
    beginArray();
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        beginArray();
        for (Eigen::Index c = 0; c < m.cols(); ++c) integer(m(r, c));
        endArray();
    }
    return endArray();
}

JsonWriter& JsonWriter::value(const ParamValue& v) {
    struct V {
        JsonWriter& w;
        void operator()(std::monostate) const { w.null(); }
        void operator()(bool b) const { w.boolean(b); }
        void operator()(std::int64_t x) const { w.integer(x); }
        void operator()(std::uint64_t x) const {
            if (x <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) w.uinteger(x);
            else w.string(std::to_string(x));
        }
        void operator()(double x) const { w.number(x); }
        void operator()(const std::string& s) const { w.string(s); }
        void operator()(const std::vector<double>& l) const { w.doubles(l); }
        void operator()(const std::vector<std::int64_t>& l) const { w.integers(l); }
    };
    std::visit(V{*this}, v);
    return *this;
}

}  // namespace poslab
