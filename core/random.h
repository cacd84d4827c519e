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
// Precondition: rows, cols >= 0.
Matrix seededNormal(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed,
                    std::uint64_t stream = 0, double stddev = 1.0);

}  // namespace poslab
