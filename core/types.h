#pragma once
// Shared vocabulary of the PosLab core: matrices, position lists, precision, validation errors.
//
// Conventions used by every header in core/:
//   * Matrix is row-major "rows = positions (or queries), columns = channels (or keys)".
//   * Positions are explicit 0-based absolute token indices (int64). A function never
//     assumes 0..N-1: a view asks for exactly the positions its pixels show.
//   * Parameter structs are plain values with defaults and `std::optional<ParamError>
//     validate() const`. Every function's precondition is "its params validate()"; for
//     inputs that pass validation the core returns finite numbers and never throws or aborts.
#include "core/format.h"

#include <Eigen/Core>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace poslab {

using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using IntMatrix = Eigen::Matrix<std::int64_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vector = Eigen::VectorXd;
using Positions = std::vector<std::int64_t>;

// float32 reproduces the frameworks' float32 rounding (see docs/spec/conventions.md, "Precision");
// double computes exactly in double precision. bfloat16 and float16 are the model running in
// that dtype (RoPE only; docs/spec/cli.md "Precision"): the frequencies and, by default, the angles
// stay float32, what the model holds is rounded to the dtype (core/precision.h).
enum class Precision { Float32, Double, BFloat16, Float16 };

// Round to the nearest float32 and back (the frameworks' float32 tensor arithmetic) unless
// `p` is Double: the rounding of every float32 intermediate (for bfloat16/float16 too, whose
// frequencies and angles are float32). Rounding to the dtype itself: roundToPrecision.
inline double roundTo(Precision p, double x) {
    return p != Precision::Double ? static_cast<double>(static_cast<float>(x)) : x;
}

// A parameter that failed validation: which one, what is valid, what was given.
// Rendered for people as "<parameter>: <valid>, got <got>"; the command line maps
// `parameter` (the struct field name, e.g. "head_dim") to its option (--head-dim) and prints
// "invalid --head-dim, <valid>, got <got>".
// `text` on one line: control characters (a value pasted from a file) become escapes (\\n, \\t,
// \\r, \\xNN), so a message that quotes what it was given never spans lines.
std::string printable(const std::string& text);

struct ParamError {
    std::string parameter;  // struct field name, snake_case: "head_dim", "num_buckets", ...
    std::string valid;      // "an even integer >= 2"
    std::string got;        // "7"
    // One line, always: control characters in what was given are escaped (printable()).
    std::string message() const;
    std::string printableGot() const;
};
using Check = std::optional<ParamError>;

// Result of a computation that can fail on valid parameters (e.g. a learned table asked for a
// position beyond its size). Holds either a value or a ParamError.
template <class T>
class Result {
public:
    Result(T value) : v_(std::move(value)) {}                // NOLINT(implicit)
    Result(ParamError error) : v_(std::move(error)) {}       // NOLINT(implicit)
    bool ok() const { return std::holds_alternative<T>(v_); }
    explicit operator bool() const { return ok(); }
    const T& value() const { return std::get<T>(v_); }
    T& value() { return std::get<T>(v_); }
    const ParamError& error() const { return std::get<ParamError>(v_); }
private:
    std::variant<T, ParamError> v_;
};

// Numbers as text (messages, files, views): core/format.h, the one formatter.

// Positions: at most this many entries in one call (memory guard for views and the CLI),
// and |p| at most kMaxPosition.
inline constexpr std::int64_t kMaxPosition = std::int64_t{1} << 40;
// Validate a position list: non-empty (if required), finite range. Names it `name`.
Check validatePositions(const Positions& positions, const std::string& name = "positions",
                        std::int64_t minValue = 0);

// 0, 1, ..., n-1 (the common case of explicit positions).
Positions arangePositions(std::int64_t begin, std::int64_t end);

}  // namespace poslab
