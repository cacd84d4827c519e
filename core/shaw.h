#pragma once
// Shaw, Uszkoreit & Vaswani (2018) relative position representations, as tensor2tensor's
// _generate_relative_positions_matrix computes the indices:
//   index[i][j] = clip(j − i', −k, k) + k,  i' = K − Q + i  (queries are the last Q of K keys)
//   cache = true: one row for distances −(K−1) … 0.
// Embeddings a^K, a^V are seeded (2k+1) × dim tables; the score is
//   e_ij = (q_i · (k_j + a^K[index[i][j]])) / sqrt(dim).
#include "core/param.h"
#include "core/types.h"

namespace poslab {

struct ShawParams {
    std::int64_t max_relative_position = 16;   // k, 1 .. 1'000'000, and (2k+1)·dim <= 2^26
    int dim = 64;                              // table width, 1 .. 65536
    std::uint64_t seed = 0;
    Check validate() const;
    bool operator==(const ShawParams&) const = default;
};
// Every parameter of ShawParams declared once (core/param.h): validate() checks each one's
// range first, the command line, sessions and the panel are generated from it.
const ParamTable<ShawParams>& shawParamTable();


// Lengths for shawIndex: key_length 1 .. 1'000'000; query_length 1 .. key_length with
// Q·K <= 2^26 (ignored with cache). Errors name "query_length" / "key_length".
Check shawValidateLengths(std::int64_t query_length, std::int64_t key_length, bool cache = false);

// Q × K index matrix (or 1 × K with cache). Precondition: 1 <= Q, 1 <= K (Q > K gives K rows,
// as tensor2tensor: range_vec_k[-Q:] is the whole range).  Entries lie in 0 .. 2k.
IntMatrix shawIndex(std::int64_t query_length, std::int64_t key_length, std::int64_t max_relative_position,
                    bool cache = false);

// Index for arbitrary query/key positions: clip(key − query, −k, k) + k.
IntMatrix shawIndexAt(const Positions& queries, const Positions& keys, std::int64_t max_relative_position);

// Seeded tables, (2k+1) × dim: key table (stream 1) and value table (stream 2), N(0, 1/dim):
// seededNormal(2k+1, dim, seed, stream, 1/sqrt(dim)). Row index[i][j] is a^K for that pair.
Matrix shawKeyTable(const ShawParams& params);
Matrix shawValueTable(const ShawParams& params);

// The given rows of the key table, |rows| × dim, without generating the others (row r is
// a^K[r] = shawKeyTable(params).row(r)). Precondition: 0 <= rows[i] <= 2k.
Matrix shawKeyRows(const ShawParams& params, const std::vector<std::int64_t>& rows);

}  // namespace poslab
