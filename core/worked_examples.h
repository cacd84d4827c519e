#pragma once
// Worked examples for teaching: each one is a list of steps a lecturer can step through, one
// operation at a time. Every number a step shows is produced by the real core functions
// (rope.h ropeFrequencies/ropeTables/ropeAngles/ropeApply, sinusoidal.h, alibi.h, t5.h); the
// steps only select, label and (for display) reduce them — they never re-implement a method.
//
// Examples and their defaults (all inputs editable; validate() names the offending field):
//   RoPE on a small vector   d = 4, m = 2, θ = [1, 0.1], q = [1, 0, 1, 0], interleaved pairs
//                            → [cos 2, sin 2, cos 0.2, sin 0.2] = [−0.416, 0.909, 0.980, 0.199];
//                            the half-split layout pairs (0,2),(1,3) and gives [−1.325, 0, 0.493, 0].
//   Sinusoidal row           PE[p, 2i] = sin(p·w_i), PE[p, 2i+1] = cos(p·w_i), w_i = base^(−2i/d)
//                            (default d = 8, p = 5, base = 10000, interleaved).
//   ALiBi slopes             H heads; p = 2^⌊log2 H⌋ slopes 2^(−B(h+1)/p), then every other slope of
//                            2p heads for the remaining H − p (default H = 12, B = 8).
//   T5 bucket                which bucket the offset rel = key − query falls into and why
//                            (default rel = −50, 32 buckets, max distance 128, bidirectional).
//
// Output: a WorkedExample — its steps and the numbers its words need; each step has an id, the
// operation as plain text and as a TeX-like formula (for the formula typesetter), and the named
// numeric values it produced. For inputs that validate, every value is finite. The titles and
// explanations are ui/teaching/workedtext.h's.
#include "core/alibi.h"
#include "core/rope.h"
#include "core/sinusoidal.h"
#include "core/t5.h"
#include "core/types.h"

#include <map>
#include <string>
#include <vector>

namespace poslab {

// A named list of numbers a step produced, with optional per-entry labels ("i=0", "h=3").
struct WorkedValues {
    std::string name;                 // "θ_i", "m·θ_i mod 2π", "output"
    std::vector<double> values;
    std::vector<std::string> labels;  // empty, or one per value
};

// A step: its id ("angles"), the operation and the numbers; its title and the sentence that
// explains it are words for people, in ui/teaching/workedtext.h.
struct WorkedStep {
    std::string id;           // "frequencies", "angles", ... (per example, stable)
    std::string operation;    // plain text: "a_i = m · θ_i"
    std::string formula;      // TeX-like: "a_i = m\\,\\theta_i" (ui/render/formula.h parses it)
    std::vector<WorkedValues> values;

    // The values named `name`, or nullptr.
    const WorkedValues* find(const std::string& name) const;
};

struct WorkedExample {
    std::string key;          // "rope", "sinusoidal", "alibi", "t5"
    // The numbers its title and explanations name ("dim", "position", "heads", "bucket", ...;
    // flags as 0/1: "interleaved", "float32", "power_of_two", "bidirectional").
    std::map<std::string, double> facts;
    std::vector<WorkedStep> steps;
    std::vector<double> result;  // the example's final answer (rotated vector, row, slopes, {bucket})
};

// ---- RoPE on a small vector ------------------------------------------------------------------
struct RopeExampleInput {
    int dim = 4;                                 // even, 2 .. 64
    std::int64_t position = 2;                   // m, 0 .. kMaxPosition
    std::vector<double> theta = {1.0, 0.1};      // dim/2 frequencies, each finite and > 0
    std::vector<double> q = {1.0, 0.0, 1.0, 0.0};  // dim finite numbers
    RopeLayout layout = RopeLayout::Interleaved;   // the layout of the main result
    Precision precision = Precision::Float32;
    Check validate() const;
    RopeParams ropeParams(RopeLayout l) const;   // head_dim = dim, explicit theta
};
// Steps: frequencies → angles (and mod 2π) → cos/sin → pairs of the layout → rotation of each pair
// → result → norm check → what the other layout gives instead.
Result<WorkedExample> ropeWorkedExample(const RopeExampleInput& in);

// ---- A sinusoidal row ------------------------------------------------------------------------
struct SinusoidalExampleInput {
    int dim = 8;                       // 2 .. 64
    std::int64_t position = 5;         // 0 .. kMaxPosition
    double base = 10000.0;             // > 1
    SinusoidalLayout layout = SinusoidalLayout::Interleaved;
    Precision precision = Precision::Float32;
    Check validate() const;
    SinusoidalParams params() const;
};
// Steps: frequencies w_i → angles p·w_i → sin → cos → the row as laid out → wavelengths.
Result<WorkedExample> sinusoidalWorkedExample(const SinusoidalExampleInput& in);

// ---- ALiBi slopes for H heads ----------------------------------------------------------------
struct AlibiExampleInput {
    int heads = 12;                    // 1 .. 1024
    double bias_max = 8.0;             // > 0, <= 1024
    std::int64_t query_position = 4;   // the query whose bias row is shown, 0 .. 4096
    Precision precision = Precision::Double;
    Check validate() const;
    AlibiParams params(int h) const;   // this input's params with `heads = h`
};
// Steps: closest power of two p → its slopes → (H not a power of two) slopes of 2p heads and every
// other one → the H slopes → bias row −m_h·(i − j) of the first and last heads.
Result<WorkedExample> alibiWorkedExample(const AlibiExampleInput& in);

// ---- Which T5 bucket an offset falls into --------------------------------------------------
struct T5ExampleInput {
    std::int64_t relative = -50;       // key − query, |rel| <= 1e12
    int num_buckets = 32;
    std::int64_t max_distance = 128;
    bool bidirectional = true;
    Check validate() const;            // also validates the T5Params it implies
    T5Params params() const;
};
// Steps: direction (offset for keys after the query) → n = |rel| (or −min(rel,0)) → exact range?
// → logarithmic formula with its intermediate numbers → cap → the bucket (t5Bucket) and the range
// of offsets that share it.
Result<WorkedExample> t5WorkedExample(const T5ExampleInput& in);

// Offsets with the same sign as `relative` that share its bucket: [first, last] in |rel|
// (last = −1 when the bucket extends to infinity, i.e. the capped last bucket). Found by binary
// search over t5Bucket, which is monotone in |rel| for a fixed sign.
struct T5BucketRange {
    std::int64_t bucket = 0;
    std::int64_t first = 0;   // smallest |rel| in the bucket
    std::int64_t last = 0;    // largest |rel| in the bucket, or −1 for "and beyond"
};
T5BucketRange t5BucketRange(std::int64_t relative, const T5Params& params);

}  // namespace poslab
