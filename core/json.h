#pragma once
// The one JSON writer of PosLab: `poslab compute`, sessions, figure data and metadata all write
// through it, with the one number formatter (formatNumber, shortest round-trip; −0 as 0).
//
// A streaming writer: values are appended in order (beginObject, key, number, ..., endObject).
// Style::Compact writes no white space (the command line, metadata); Style::Pretty indents
// objects by two spaces per level and writes an array on one line when its first element is a
// scalar, one element per line otherwise (sessions). The output is deterministic: the same
// calls give the same bytes.
// JSON has no NaN or Infinity: number() of a non-finite value writes null and records the
// first such value (ok() == false, error() names the key it was written under); callers refuse
// the document. Strings are UTF-8; quotes, backslashes and control characters are escaped.
//
// Arrays as numbers (the in-process Python module, app/python): while an array sink is set,
// vector, doubles, integers, matrix and intMatrix append their numbers to the sink instead of
// writing them, and write the placeholder `@K` (K: the array's index in the sink) where the
// array's text would be. The text is then not JSON; only that module's reader reads it. The
// numbers are checked as number() checks them (a non-finite one: ok() == false).
#include "core/param.h"
#include "core/types.h"

#include <string>
#include <string_view>
#include <vector>

namespace poslab {

// One array handed to a sink: a double matrix (row-major; a vector is one row) or integers.
struct JsonArray {
    std::vector<std::int64_t> shape;   // one extent (a vector) or two (rows, columns)
    bool integer = false;
    Matrix doubles;                    // !integer
    std::vector<std::int64_t> ints;    // integer, row-major
};

class JsonWriter {
public:
    enum class Style { Compact, Pretty };
    explicit JsonWriter(Style style = Style::Compact) : style_(style) {}

    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(std::string_view k);
    JsonWriter& number(double x);
    JsonWriter& integer(std::int64_t x);
    JsonWriter& uinteger(std::uint64_t x);
    JsonWriter& string(std::string_view s);
    JsonWriter& null();
    JsonWriter& boolean(bool b);
    // Arrays of numbers; matrices as arrays of rows.
    JsonWriter& vector(const Vector& v);
    JsonWriter& doubles(const std::vector<double>& v);
    JsonWriter& integers(const std::vector<std::int64_t>& v);
    JsonWriter& matrix(const Matrix& m);
    JsonWriter& intMatrix(const IntMatrix& m);
    // A matrix whose NaN entries stand for null (masked cells: `compute scores`); other
    // non-finite entries are an error as in number(). With a sink the matrix is moved into it
    // (no copy), NaN kept; `finiteOrNaN` says the caller has checked every entry already (the
    // core's scores(): a pass over 2^24 entries less).
    JsonWriter& maskedMatrix(Matrix&& m, bool finiteOrNaN = false);

    // The sink arrays go to from now on (nullptr: written as text again). Not owned.
    void setArraySink(std::vector<JsonArray>* sink) { sink_ = sink; }
    bool hasArraySink() const { return sink_ != nullptr; }
    // A parameter's value (core/param.h): unset → null, lists → arrays; a seed above 2^63−1 is
    // written as a decimal string (JSON readers keep integers exactly up to 2^63−1).
    JsonWriter& value(const ParamValue& v);

    const std::string& text() const { return out_; }
    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }   // "nan in \"value\""

private:
    struct Level {
        bool object = false;
        bool first = true;
        bool inlineArray = false;   // Pretty: decided by the first element
    };
    void beforeValue(bool scalar);
    void newline(std::size_t depth);
    // With a sink: checks `n` numbers at `data` as number() would (NaN allowed when nanIsNull),
    // stores `a`, writes its placeholder.
    JsonWriter& sunk(JsonArray&& a, const double* data, std::size_t n, bool nanIsNull);
    Style style_;
    std::string out_;
    std::vector<Level> stack_;
    bool afterKey_ = false;
    std::string lastKey_;
    std::string error_;
    std::vector<JsonArray>* sink_ = nullptr;
};

// A number as JSON and PosLab print it: formatNumber(x), with −0 written as 0.
std::string jsonNumber(double x);
// A JSON string literal (with quotes) for UTF-8 text.
std::string jsonString(std::string_view s);

}  // namespace poslab
