#pragma once
// Seeded, platform-independent pseudo-random numbers for the "learned" quantities
// (learned absolute table, Shaw and T5 tables, Transformer-XL u, v, W_R) and for `random`
// content. std::normal_distribution differs between standard libraries, so the core
// uses its own generator: SplitMix64 -> uniform doubles in (0,1) -> Box–Muller.
// The same seed gives bit-identical numbers on every machine (IEEE double, no fast-math).
#include "core/types.h"

namespace poslab {

// A rows × cols matrix of N(0, stddev²) samples from `seed`, filled row-major.
// `stream` separates independent tables drawn from one user seed (e.g. Shaw's key and value
// tables use streams 1 and 2), so adding a table never changes another's numbers.
// Streams in use: 0 learned table, 1/2 Shaw key/value tables, 3 T5 bias table,
// 4/5/6 Transformer-XL u/v/W_R, 11/12 `random` query/key content (scores.h).
// Precondition: rows, cols >= 0.
Matrix seededNormal(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed,
                    std::uint64_t stream = 0, double stddev = 1.0);

// Entry n (row-major flat index) of any seededNormal(rows, cols, seed, stream, stddev) with
// rows·cols > n, computed directly in O(1): an entry depends on n only, not on the shape.
double seededNormalAt(std::uint64_t n, std::uint64_t seed, std::uint64_t stream = 0, double stddev = 1.0);

// The given rows of seededNormal(R, cols, seed, stream, stddev) for any R larger than every
// row index, without generating the others; |rows| × cols. Precondition: rows[i] >= 0, cols >= 0.
Matrix seededNormalRows(const std::vector<std::int64_t>& rows, Eigen::Index cols, std::uint64_t seed,
                        std::uint64_t stream = 0, double stddev = 1.0);

}  // namespace poslab
