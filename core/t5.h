#pragma once
// T5 relative position buckets (Raffel et al. 2020), as transformers' T5Attention computes them.
//   rel = key − query (positive: key after query).
//   bidirectional: nb := num_buckets/2; bucket += nb if rel > 0; n = |rel|
//   causal:        nb := num_buckets;   n = −min(rel, 0)  (future keys → bucket 0)
//   max_exact = nb/2; n < max_exact → bucket n;
//   else max_exact + int(ln(n/max_exact)/ln(max_distance/max_exact)·(nb − max_exact))
//   (float32 log and division, truncation toward zero), capped at nb − 1.
// Float32 steps exactly as torch: f32(n) / f32(max_exact) → f32 log → / f32(math.log(
// max_distance/max_exact) in double) → · f32(nb − max_exact) → truncate.
// Per-head bias: bias[h][i][j] = table[bucket(j − i)][h], table seeded num_buckets × heads:
// seededNormal(num_buckets, heads, seed, stream 3, 1.0).
// Properties: bucket is non-decreasing in |rel| within a direction, equals |rel| below
// max_exact, and is nb − 1 (+ nb if rel > 0, bidirectional) from |rel| >= max_distance on.
#include "core/param.h"
#include "core/types.h"

namespace poslab {

struct T5Params {
    int num_buckets = 32;            // causal 2 .. 1024; bidirectional even, 4 .. 1024 (max_exact >= 1)
    std::int64_t max_distance = 128; // max_exact + 1 .. 1e9 (max_exact = num_buckets/4 bidirectional,
                                     // num_buckets/2 causal)
    bool bidirectional = true;
    int heads = 8;                   // 1 .. 256
    std::uint64_t seed = 0;
    Check validate() const;
    bool operator==(const T5Params&) const = default;
};
// Every parameter of T5Params declared once (core/param.h): validate() checks each one's
// range first, the command line, sessions and the panel are generated from it.
const ParamTable<T5Params>& t5ParamTable();


// Bucket of one relative offset (key − query).
std::int64_t t5Bucket(std::int64_t relative, const T5Params& params);

// Buckets of a list of offsets.
std::vector<std::int64_t> t5Buckets(const std::vector<std::int64_t>& relative, const T5Params& params);

// Q × K bucket matrix: query i at position past+i, key j at j.
IntMatrix t5BucketMatrix(std::int64_t query_length, std::int64_t key_length, std::int64_t past,
                         const T5Params& params);

// Sizes for t5BucketMatrix (the command line's --query-length/--key-length/--past):
// query_length and key_length 1 .. 1'000'000 with Q·K <= 2^26 entries; past 0 .. 2^40.
// Errors name "query_length", "key_length" or "past".
Check t5ValidateMatrix(std::int64_t query_length, std::int64_t key_length, std::int64_t past);

// Seeded bias table, num_buckets × heads (the learned relative_attention_bias weights).
Matrix t5BiasTable(const T5Params& params);

// Bias of head h (0 .. heads−1; out-of-range values are clamped) for explicit query and key
// positions, |queries| × |keys|.
Matrix t5Bias(const T5Params& params, int head, const Positions& queries, const Positions& keys);

}  // namespace poslab
