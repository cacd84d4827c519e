#pragma once
// Learned absolute position embeddings (BERT, GPT-2): a table E of table_size × dim entries,
// here seeded N(0, 0.02²) (GPT-2's initializer_range) so that it is deterministic:
// E = seededNormal(table_size, dim, seed, stream 0, 0.02) (core/random.h).
// PE[p] = E[p]. The method's known limit: a position >= table_size has no embedding; asking for
// one is an error (the view shows that as the method failing to extrapolate).
#include "core/param.h"
#include "core/types.h"

namespace poslab {

struct LearnedParams {
    int dim = 64;                        // 1 .. 65536
    std::int64_t table_size = 512;       // max_position_embeddings, 1 .. 1'048'576, and
                                         // table_size·dim <= 2^26 (67'108'864 entries, 512 MiB)
    std::uint64_t seed = 0;
    Check validate() const;
    bool operator==(const LearnedParams&) const = default;
};
// Every parameter of LearnedParams declared once (core/param.h): validate() checks each one's
// range first, the command line, sessions and the panel are generated from it.
const ParamTable<LearnedParams>& learnedParamTable();


// The whole table, table_size × dim.
Matrix learnedTable(const LearnedParams& params);

// Rows for the given positions, |positions| × dim (generated directly, without the rest of the
// table); error naming `positions` if the list is empty or one is negative or >= table_size.
Result<Matrix> learnedEncoding(const LearnedParams& params, const Positions& positions);

}  // namespace poslab
