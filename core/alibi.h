#pragma once
// ALiBi (Press, Smith & Lewis 2022): per-head linear biases.
// Slopes: H a power of two → m_h = 2^(−B(h+1)/H) (B = bias_max, 8 in the paper; MPT's
// alibi_bias_max); other H → the p = 2^⌊log2 H⌋ slopes followed by every other slope of 2p
// ([0::2][:H−p]). Bias: b[h][i][j] = −m_h·(i−j) for j <= i (causal), or −m_h·|i−j| (symmetric).
// Precision: Double reproduces ofirpress (Python doubles: start = 2^(−B/p), slope_i =
// start·start^i, the non-power-of-two extras from the same recursion); Float32 rounds each of
// those slopes to float32 as BLOOM/MPT tensors hold them. The bias is −m_h·(i−j) evaluated in
// double with the (possibly rounded) slope; it is not rounded again.
#include "core/param.h"
#include "core/types.h"

namespace poslab {

struct AlibiParams {
    int heads = 8;              // 1 .. 4096
    double bias_max = 8.0;      // > 0, <= 1024
    bool symmetric = false;
    Precision precision = Precision::Double;
    Check validate() const;
    bool operator==(const AlibiParams&) const = default;
};
// Every parameter of AlibiParams declared once (core/param.h): validate() checks each one's
// range first, the command line, sessions and the panel are generated from it.
const ParamTable<AlibiParams>& alibiParamTable();


Vector alibiSlopes(const AlibiParams& params);

// Size of a full heads × L × L bias (the command line's --length): 1 .. 1'000'000 with
// heads·L² <= 2^26 entries. Errors name "length".
Check alibiValidateLength(int heads, std::int64_t length);

// Bias of head h (0 .. heads−1; out-of-range values are clamped) at explicit query/key positions, |queries| × |keys|: −m_h·(i−j), or −m_h·|i−j|
// when symmetric. Entries with j > i in the causal form are returned as −m_h·(i−j) too (callers mask).
Matrix alibiBias(const AlibiParams& params, int head, const Positions& queries, const Positions& keys);

}  // namespace poslab
