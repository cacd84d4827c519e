<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>DeckExport</name>
    <message>
        <source>Speaker notes, slide %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no speaker notes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PosLab deck of %1 slides</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the deck has no slides: at least one slide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the deck has %1 slides: at most %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> with notes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not enough memory for a %1 × %2 image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>slide: an integer from 1 to %1, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot create the folder %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DemoText</name>
    <message>
        <source>Attention without positions is permutation-equivariant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shuffle the tokens and the outputs shuffle the same way: without positions and without a causal mask, attention cannot see order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sinusoidal: a shift is a rotation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PE(p+Δ) = R(Δ)·PE(p): moving Δ positions rotates every (sin, cos) pair by Δ·w_i.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sinusoidal: PE(p)·PE(q) depends only on p − q</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The dot product of two encodings is constant along every diagonal p − q = const.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sinusoidal: relativity is lost once tokens are added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(x + PE(p))·(y + PE(q)) varies along a diagonal: the cross terms x·PE(q), PE(p)·y are absolute.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learned positions: a table with an end</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A learned encoding is one trained row per position: a position past the last row has no encoding at all.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shaw: relative distances clipped at ±k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One learned vector per distance −k … k: distances beyond k look the same, and a shift of every position changes nothing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>T5: the bucket staircase</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transformer-XL: four terms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>q·k = (a) content·content + (b) content·distance + (c) global content bias + (d) global distance bias; (d) depends on i − j alone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE: the score depends only on m − n</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shift every position by Δ and the score heatmap is unchanged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE: norms are preserved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A rotation never changes a vector&apos;s length: |R_m x| = |x| at every position.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE: long-term decay, for equal content</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With equal content (q = k), the score and RoFormer&apos;s bound on it shrink as the distance grows; with random q and k the score does not decay (Barbero et al., 2025).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>xPos: RoPE with an explicit decay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>xPos multiplies pair i of RoPE by ζᵢ^((m−n)/512), ζᵢ &lt; 1: its score still depends on m − n only, and falls with distance for random content too, where RoPE&apos;s does not.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE: the complex identity (with its sine term)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⟨R_m q, R_n k⟩ = Re[Σ q̃_j k̃_j* e^(i(m−n)θ_j)] exactly; dropping the sine term (a common error) is wrong.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Half-split vs interleaved RoPE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same rotation up to a permutation of channels; mixing the layouts gives wrong numbers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ALiBi: one slope per head, a linear penalty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV cache: what can be cached</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE rotates each key once and caches it; ALiBi caches m·j once per key, since −m·i is the same for the whole row and softmax ignores it; T5 and Shaw must recompute one term per cached key at every step.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Beyond the training length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learned tables fail, sinusoidal and ALiBi stay defined, RoPE&apos;s slow pairs reach angles never seen in training; linear interpolation, NTK and YaRN bring those angles back into the trained range.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Llama 3.1: three frequency bands, 8k → 128k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>YaRN: a ramp between β fast and β slow, and a temperature</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pairs that turn more than β fast times in the original context keep their frequency, pairs that turn less than β slow times are interpolated, a linear ramp between; cos and sin are multiplied by 0.1·ln s + 1, so the logits by its square.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE in bf16 at position 4096</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local and global layers: how Gemma 3 and Llama 4 reach 128k and beyond</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Most layers see only a window (Gemma 3: 1024 tokens) or a chunk (Llama 4: 8192); a few global layers reach every token — Gemma 3&apos;s with RoPE at base 10⁶ stretched ×8, Llama 4&apos;s with no RoPE at all and queries sharpened as positions grow.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Comparison of the methods</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learnable, extrapolation, relative, memory: each cell links to the scene that shows it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max |out(shuffled) − shuffled(out)|, no positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>≈ 0: outputs shuffle with the tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the same with RoPE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>≠ 0: positions break the symmetry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the same with sinusoidal PE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>≠ 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Without positions (and without a causal mask, which alone reveals some order), attention is blind to order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max |PE(p+Δ) − R(Δ)·PE(p)|, Δ = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>≈ 0: a shift is a rotation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>R(Δ) does not depend on p: the same rotation moves every position by Δ.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PE(%1)·PE(%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the same: only p − q matters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>≈ 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PE(p)·PE(q) = Σ cos((p − q)·w_i): a function of p − q alone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(x + PE(%1))·(y + PE(%2))</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>differs: same offset, different score</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max spread along a diagonal, with tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>≫ 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max spread without tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cross terms x·PE(q) and PE(p)·y depend on absolute positions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max |S(positions) − S(positions + %1)|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>≈ 0: heatmap unchanged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the same with float32 tables</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rounding only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⟨R_m q, R_n k⟩ = ⟨q, R_{n−m} k⟩: only m − n enters the score.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position m</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>|R_m x|: the same x rotated to position m</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rotations change direction, never length.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>equal content: score at distance %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoFormer&apos;s bound on |score|: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distance m − n</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>equal content (ones): score</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoFormer&apos;s bound on |score| (same units)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoFormer&apos;s relative bound (1/(d/2))·Σ|S_j| (their Figure 2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>random q, k: mean |score| over %1 draws</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>random q, k: mean |score| far / near</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>≈ 1: no decay without equal content</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Equal content: far tokens get smaller scores (the high-frequency pairs average out). Random content: no decay — the decay is a property of aligned q and k, not of RoPE alone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⟨R_%1 q, R_%2 k⟩</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re[Σ q̃ k̃* e^{i(m−n)θ}]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cos-only form Σ Re(q̃ k̃*) cos((m−n)θ)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the sine term</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>what the cos-only form misses</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>|inner − complex form|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The identity is exact with its sine term; the cos-only form is wrong.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>positional operations over %1 steps: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>≈ 0: rotate once, cache</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ALiBi before softmax: cached m·j differs from −m(i − j) by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>m·i: the same for every key of the row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>≈ 0: softmax ignores a row constant, so cached m·j is exact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>≠ 0: must be recomputed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>learned: a row for position %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>defined</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no row %1 in a table of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: pairs past their trained angles</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; attention factor %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>alibi: bias at distance %1 (flattest head)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max |half(πx) − π·interleaved(x)|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>≈ 0: same rotation up to π</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>seed example: |half − interleaved|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 vs %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>q half, k interleaved: shift changes scores by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>relativity lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Convert checkpoints by permuting channels; never mix the layouts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: positional parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every cell is backed by a demonstration of its own method in this deck.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Some cells are not backed by a demonstration of their method.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rows in the table (one per trained position)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a row for position %1 (the last one)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position asked for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a row for position %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>defined: the table is long enough</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>|row %1|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a trained vector</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This table reaches position %1; a longer request would fail the same way.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No row %1 in a table of %2: a learned table cannot go past its end.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distance j − i</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>embedding index used (clip(j − i, −k, k) + k)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>k = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max |a(d) − a(k)| for every d &gt; k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>0: beyond k every distance looks the same</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>min |a(d) − a(d+1)| for d &lt; k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&gt; 0: inside ±k each distance has its own vector</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>indices changed by shifting %1 positions by %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>0: only j − i matters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shaw sees distances up to k = %1 exactly and nothing beyond; a shift changes nothing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distance i − j</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bucket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exact buckets up to (the rule&apos;s exact range)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>buckets ÷ %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>largest d with bucket(d) = d, checked against the rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exact for |k| ≤ %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>logarithmically spaced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(a) q_i·k_j, content with content: max |·|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(b) q_i·W R_{i−j}, content with distance: max |·|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>varies along a diagonal: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(c) u·k_j, a global content bias: max |·|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the same for every query: spread %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(d) v·W R_{i−j}, a global distance bias: max |·|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>constant along diagonals: spread %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(c): spread down a column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(d): spread along a diagonal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Four terms, each measured: only (a) and (b) look at the query&apos;s content; (d) is a pure function of i − j.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>≈ 0: a straight line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>flattest head at distance %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the same line, further down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A fixed line per head: nothing was learned per position, so nothing runs out past the training length.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>original context</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>context after scaling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>factor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wavelengths below %1 tokens: kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pairs kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pairs blended between the bounds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>kept: max |θ&apos;/θ − 1|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>divided: max |s·θ&apos;/θ − 1|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 fast pairs untouched, %2 blended, %3 slow pairs stretched ×%4: local detail kept, long range reached.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>β fast (rotations in the original context)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>β slow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ramp starts after pair</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ramp ends at pair</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pairs kept (turn more than β fast times)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pairs on the ramp</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pairs interpolated ×1/%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attention factor (cos and sin multiplied by)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>0.1·ln %1 + 1 = %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>|attention factor − (0.1·ln s + 1)|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>θ&apos;_i/θ_i per pair</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fast pairs untouched, slow pairs interpolated, a ramp of %1 pairs between; logits sharpened by %2 = %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>0 … %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>phase error at %1, angles in %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>radians: max over the pairs of |angle − p·θ_i|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>largest over %1, angles in %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at position %1 (π: the phase is as wrong as it can be)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first position %1 holds as its neighbour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 and %2 get the same angles</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>positions of %1 sharing their angle with another</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>angles in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>phase error at %1, angles in float32 (transformers main)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>largest over %1, angles in float32</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>largest |Δcos|, |Δsin| over %1, angles in float32</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>what remains: cos and sin rounded to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>positions sharing their angle, angles in float32</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position p</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>angles in %1 (legacy)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>angles in float32 (transformers main)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In %1 the angles are as good in both paths (%2 rad at most): the error needs a reduced dtype.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>xPos, equal content: score</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE, equal content: score</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>xPos, random q, k: mean |score| over %1 draws</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE, random q, k: mean |score| over %1 draws</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>xPos: the slowest pair&apos;s factor ζ_max^(d/%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>xPos score against s·Σ 2ζᵢ^(d/%1)·cos(d·θᵢ): max |diff|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>≈ 0: RoPE&apos;s terms, each damped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max |S(0 … 7) − S(100 … 107)|, random tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>≈ 0: depends only on m − n</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>xPos, random q, k: mean |score| at %1 / at 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt; 1: decays for any content</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE, random q, k: the same</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>xPos keeps RoPE&apos;s relativity and makes the decay explicit: far scores fall whatever q and k are.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With this scale base the explicit decay is too slow to show at these distances.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distance %1 (128k)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gemma 3: layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gemma 3: local layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gemma 3: global layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gemma 3: farthest distance a local layer sees</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gemma 3: RoPE base of the local layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gemma 3: RoPE base of the global layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gemma 3: linear scaling factor of the global layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gemma 3: layers that see %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Llama 4: layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Llama 4: chunked RoPE layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Llama 4: global layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Llama 4: layers without RoPE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Llama 4: farthest distance a chunked layer sees</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Llama 4: RoPE base</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Llama 4: Llama 3 scaling factor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Llama 4: layers that see %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>query position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Llama 4: query scale τ of the NoPE layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 + 0.1·ln(1 + ⌊(p + 1)/8192⌋)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At 128k only %1 of %2 Gemma 3 layers and %3 of %4 Llama 4 layers see the far tokens; the others look back at most %5 and %6 tokens.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This pattern does not split into local layers and a few global ones that reach 128k.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>different t ids among the image&apos;s %1 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one t (%1) for every patch: the image is one moment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rows: h ids %1 … %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>columns: w ids %1 … %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first text id after the image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the image&apos;s largest id %1 + 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position offset: largest id + 1 − tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the next token (index %1) gets id %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens in the sequence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image tokens (patches after merging)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>largest id in the image (of t, h and w)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tokens use ids 0 … %2 only: the image&apos;s %3 tokens share t = %4 and fill a %5 × %6 grid of (h, w), and the text resumes at %7.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This layout does not show the rule: see the ids above.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Qwen2-VL sections: t&apos;s share of the score, %1 apart along t</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>t follows the %1 fastest frequencies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Qwen2-VL sections: w&apos;s share, %1 apart along w</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>w follows the %1 slowest: it barely moves</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Qwen3-VL interleaved: largest difference between the axes&apos; shares, %1 apart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>each axis follows fast and slow frequencies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Qwen2-VL sections: the same difference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Qwen2-VL sections: frequencies following %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>i = %1 … %2, one block</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Qwen3-VL interleaved: frequencies following %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Qwen2-VL, along %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Qwen3-VL, along %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>share from the rotated scores against the mean of cos(d·θᵢ): max |diff|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distance d along one axis (patches)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sections: %1 apart, t keeps %2 of its share and w %3, so across an image w hardly counts. Interleaved: the three axes stay within %4 of each other.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With this base the axes decay alike in both layouts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How a vision-language model numbers an image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Qwen2-VL gives every token three ids (t, h, w): an image&apos;s patches share one t and spread over h (rows) and w (columns), and the text after the image resumes at the image&apos;s largest id + 1, so the sequence uses fewer positions than it has tokens.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sections or interleaving</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Qwen2-VL gives each axis a block of RoPE frequencies (t the fastest, w the slowest), so scores barely change across an image&apos;s width; Qwen3-VL interleaves the axes across the spectrum, so t, h and w decay alike.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 pairs reach angles never seen in training; slowest pair at %3× its trained range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing positional to extrapolate, and no notion of order either</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fails: position %1 has no row in a table of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>defined at every position; the model never saw row %1 (closest trained row: cosine %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>defined: the bias keeps falling linearly (flattest head at distance %1: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>defined: distances beyond k = %1 share the last embedding (index %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>defined: every distance past the maximum distance %1 falls in bucket %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>defined: the relative sinusoid exists at every distance (unseen ones past L)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>plain RoPE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>linear interpolation (positions / %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NTK (dynamic base)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>YaRN (ramp between pairs)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learnable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extrapolation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Relative</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing to learn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing positional to extrapolate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>neither: permutation-equivariant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no positional work</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no: a fixed formula</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>defined everywhere, unseen rows past L</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>absolute; PE·PE is relative only without tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>added once per token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes: %1 × %2 table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fails past the table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>absolute (indexed by position)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes: (2k+1) × d key and value tables (k = %1, d = %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>clipped at ±k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>relative, clipped at ±k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one term per cached key per step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>last bucket past the maximum distance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>relative, log buckets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one bias per cached key per step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>defined (relative sinusoid)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>relative (four terms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no: fixed slopes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes: linear bias continues</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>relative: −m_h (i − j)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>m·j cached once per key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no: fixed rotation frequencies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>slow pairs leave the trained range; scaling brings them back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>relative: depends only on m − n</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>keys rotated once, then cached</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no: fixed rotation and decay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>explicit decay: far scores fall for any content</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 parameters; %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>spread from i = %1 to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2^(−8(h+1)/H)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max relative |m_h − 2^(−8(h+1)/H)|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wavelengths above %1 tokens: stretched × %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pairs stretched by the factor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head h subtracts m_h·(i − j) with m_h = 2^(−8(h+1)/H) for heads h = 0 … H − 1 (H a power of 2): a straight line in the distance, defined at every distance, so it runs past the training length; the steep heads give far tokens almost no weight.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Short wavelengths are kept, long ones stretched by the factor (their frequencies divided by it), and the band between is blended smoothly.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PE(%1)·PE(%2) (plotted ÷%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max spread of PE·PE along a diagonal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max | |R_m x| − |x| | / |x|, x = (1, …, 1), %1 positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>|x|, x = (1, …, 1) as drawn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE: scores from cached keys vs recomputed, max |diff|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ALiBi after softmax, m·j cached: max |diff|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>T5 after softmax, buckets cached a step ago: max |diff|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shaw after softmax, clipped indices cached a step ago: max |diff|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At these settings the stale errors do not separate the methods: see the numbers above.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At %1 tokens, the %2 RoPE pairs whose wavelengths lie above the training length (the context %3 line) reach angles never seen in training; linear, NTK and YaRN ×%4 bring that to %5, %6 and %7 pairs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training length %1, asked for %2: at these settings the numbers above do not show the claim.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scores with the wrong layout: max |B − A|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the largest difference drawn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>log buckets, the last included</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>last bucket: every distance from %1 on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>saturated: the maximum distance %1 and all beyond fall in it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exact up to %1, logarithmic after; from %2 on, the maximum distance %3 too, one last bucket.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>slopes m_h, h = 0 … %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max |b(d+1) − b(d) + slope of head H − 1|, d = 0 … %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>largest |Δcos|, |Δsin| over %1, angles in %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>what the wrong angles do to cos and sin (at most 2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Angles in %1: off by up to %2 rad (cos, sin by up to %3), %4 positions collide; in float32: at most %5 rad, and cos, sin off by %6, their rounding to %7.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exact buckets near, logarithmic ones far, one last bucket for all farther distances: the bias sees near distances sharply and far ones coarsely.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Angles built in bfloat16 (the legacy path) are off by radians at long context, so cos and sin are wrong, and integer positions above 256 collide; building the angles in float32 (transformers main) removes the angle error, leaving only cos and sin rounded to bfloat16.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>xPos after softmax, keys scaled when they arrived: max |diff|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>≠ 0: the scale is centred on the length, so every key is scaled again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every key rotated and scaled again per step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transformer-XL after softmax, terms b, d cached a step ago: max |diff|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE and ALiBi cache exactly; T5&apos;s and Shaw&apos;s cached terms go stale, so they recompute one for every cached key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes: one bias per bucket and head (%1 × %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes: u, v (d each), W (d × d), d = %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FigureExport</name>
    <message>
        <source>%1 (dim %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All views</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the SVG generator could not start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the SVG generator wrote no &lt;svg&gt; element</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a PDF needs at least one page of a positive size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the PDF writer could not start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the PDF writer could not start page %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the PDF writer produced no document</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not enough memory for a %1 × %2 image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>could not paint the PNG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not an image format</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG encoder: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a PNG image (no PNG signature)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the PNG is truncated (no IEND chunk, the file ends at byte %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>damaged PNG: invalid chunk type at byte %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>damaged PNG: chunk %1 at byte %2 has an invalid length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the PNG is truncated (chunk %1 at byte %2 is cut short)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>damaged PNG: chunk %1 at byte %2 fails its CRC check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>damaged PNG: it does not start with an IHDR chunk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>damaged PNG: IHDR size %1 × %2, valid: 1 to 1000000 pixels per side</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>damaged PNG: invalid IHDR (colour type %1, bit depth %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>damaged PNG: a second IHDR chunk at byte %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>damaged PNG: invalid PLTE chunk at byte %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>damaged PNG: a palette image without PLTE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>damaged PNG: no image data (IDAT) before IEND</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>damaged PNG: unknown critical chunk %1 at byte %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pair vectors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention heatmap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decay with distance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frequencies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-pair contributions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: an integer from %2 to %3, got %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>width × height: at most %1 pixels, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dpi: an integer from %1 to %2, got %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dpi: at most %1 for a %2 × %3 figure (at least 64 × 64 at 96 dpi), got %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>theme: one of %1, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>font scale: a number from 0.5 to 3, got %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the scene is not valid: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not enough memory for this figure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot export %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not an exported figure (.png, .svg, .pdf, .csv or .json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read the PNG: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>carries no PosLab scene</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FileWriter</name>
    <message>
        <source>cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no file name given</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it is a directory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the directory %1 does not exist</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a directory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing to write</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unexpected failure while writing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the output could not be produced</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FormulaSheet</name>
    <message>
        <source>ones</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>random N(0,1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>formula</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>score (heatmap cell, before softmax)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Linear interpolation: every frequency divided by the factor s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>linear interpolation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dynamic NTK: past L = max_position_embeddings a larger base, ℓ = max(sequence length, L)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the sequence length and the factor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the new base</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>frequency of pair %1 with the new base</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>YaRN: pairs below low keep θ_i, pairs above high are divided by s, a ramp γ_i between</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Correction range: the pairs that turn β fast and β slow times in L₀ tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention factor c on cos and sin: given</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention factor c on cos and sin (mscale, mscale_all_dim)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention factor c on cos and sin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>correction range (clamped to 0 … r − 1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pair %1 on the ramp</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attention factor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LongRoPE: a factor λ_i per pair (the long factors once the sequence passes L₀, else the short ones)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sequence length past L₀: the long factors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sequence length within L₀: the short factors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Llama 3: by wavelength λ_i = 2π/θ_i against L₀/f_high and L₀/f_low</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the wavelength bounds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pair %1: wavelength below L₀/f_high, frequency kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pair %1: wavelength above L₀/f_low, frequency divided by s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pair %1: wavelength between the bounds, blended</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pair %1&apos;s frequency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>interleaved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>half-split</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, rotary %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frequencies: given, one per pair</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frequencies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only the first r channels rotate; the others pass through</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rotated channels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rotation of pair (2i, 2i+1) at position m</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rotation of pair (i, i + r/2) at position m</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only m − n enters: a cos part (x, y: the two channels of pair i)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>… minus a sin part (the term a cos-only form forgets)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same with each pair as a complex number q̃ = qˣ + i qʸ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>frequency of pair %1 (given)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>frequency of pair %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unscaled frequency of pair %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>angle at m = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cos and sin (times the attention factor c = %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cos and sin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pair %1 of q: channels (%2, %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pair %1&apos;s part of ⟨R_m q, R_n k⟩ at m − n = %2: cos term + sin term</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all pairs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE frequencies (interleaved pairs)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-pair decay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score: rotation times an explicit decay (γ = scale base)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>decay of pair %1 at m − n = %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>concatenated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frequencies, log-spaced from the smallest timescale t to the base (tensor2tensor, K pairs)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Encoding of position p</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A shift is a rotation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Encodings alone are relative; with tokens they are not</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>frequency of pair %1 (K = %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at p = m = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>encodings alone (m − n = %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>with the %1 content</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One learned row per position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No row past the table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>row m = %1 (first entries)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>table size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Relative key embedding, clipped at ±k: 2k + 1 learned rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>clipping distance and table rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>offset j − i = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>content and position terms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bidirectional</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>causal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score: content plus a learned bias per bucket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bidirectional (encoder): half of the buckets for keys after the query</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Causal (decoder): every bucket for keys before the query; keys after it share bucket 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exact buckets for n &lt; nb/2, logarithmic ones up to the maximum distance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>buckets per direction and exact range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>n &lt; nb/2: an exact bucket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>n ≥ nb/2: a logarithmic bucket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>offset j − i = %1, head %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>content term</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, clamp %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Four terms, R the relative sinusoid (base 10000, [sin | cos])</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Distances clamped at C = clamp_len</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distance i − j = %1, clamped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distance i − j = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sum, scaled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Slopes: H = %1 is a power of two, a geometric sequence (B = bias_max)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Slopes: H = %1 is not a power of two: the n = %2 slopes of the closest power of two, then every other slope of 2n = %3 heads (B = bias_max)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score: content minus slope × distance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>heads and bias_max</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the first slope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the first of the other %1 heads: the first slope of %2 heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>slope of head %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bias at i = %1, j = %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score: content only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shuffling the tokens shuffles the outputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This layer applies no positional encoding (NoPE)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score scale: the model&apos;s own, not 1/√d</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>q/k RMS norm, before the rotation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>q/k RMS norm, after the rotation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temperature tuning: query row i scaled by τ(i)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>query scale at i = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Query scaling with position: query row i times</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Logit soft-cap: each score before the mask and softmax</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>score before and after the cap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chunked attention: j visible from i</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sliding window: j visible from i</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sliding window (bidirectional): j visible from i</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sink logit of head %1: a row sums to 1 − p_sink</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key is after the query: the causal mask hides this cell.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key lies outside the layer&apos;s window or chunk: the mask hides this cell.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>GgufFile</name>
    <message>
        <source>truncated GGUF header: %1 needs %2 bytes at offset %3, the file has %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid GGUF %1: length at most %2, got %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid GGUF value type of %1, 0 to 12, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid GGUF array %1: nested deeper than %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>truncated GGUF header: array %1 of %2 elements needs at least %3 bytes each, %4 remain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid GGUF bool %1, 0 or 1, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid GGUF tensor %1: 1 to 8 dimensions, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid GGUF general.alignment, a power of two, got %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>truncated GGUF data: rope_freqs.weight needs %1 bytes at %2, the file has %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid GGUF rope_freqs.weight[%1], a finite number &gt; 0, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a GGUF file (no &quot;GGUF&quot; magic)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unsupported GGUF version, 2 or 3, got %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid GGUF tensor count, at most %1, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid GGUF metadata count, at most %1, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>truncated GGUF header: %1 metadata entries need at least %2 bytes, %3 remain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid GGUF metadata: key %1 appears twice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read: </source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Method</name>
    <message>
        <source>NoPE (no position)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing is added: attention sees only the content of the tokens, and word order can only leak in through the causal mask.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sinusoidal (absolute)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each position gets a fixed vector of sines and cosines at geometrically spaced frequencies, added to the token before attention.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learned (absolute)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each position up to the table size has its own trained vector added to the token, and positions past the table have none.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shaw et al. (relative)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A trained vector for each key-minus-query distance, clipped to plus or minus k, is added to the key inside the attention score.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>T5 (relative buckets)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each distance is sorted into a bucket (exact for short distances, logarithmic for long ones) and every head adds a trained number per bucket to the attention score.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transformer-XL (relative)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The score adds terms from a sinusoid of the query-to-key distance, projected by a trained matrix, plus two trained global bias vectors.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ALiBi (linear bias)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each head subtracts its own slope times the query-to-key distance from the attention score, so far tokens are penalised linearly.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE (rotary)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Query and key channel pairs are rotated by angles proportional to their positions, so their dot product depends only on the distance between them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>xPos (rotary with decay)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE rotations combined with a per-pair exponential scale that makes scores shrink smoothly with distance.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelConfig</name>
    <message>
        <source>an object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not positional: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not positional: dropout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not positional: special tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not positional: mixture of experts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not positional: eps of the layer norms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not positional: vocabulary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not positional: weight initialisation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> must be </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>llama (assumed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file names no model_type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model_type %1 is not in PosLab&apos;s family table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>: read as a causal decoder with %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>50 (the family&apos;s default)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> must be a number in (0, 1e6] or null, got </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 layers: %2 full, %3 sliding, %4 chunked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>family %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not in the family table: read as a Llama-style decoder (see warnings)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>family %1 from %2 (no model_type)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model classes (the family comes from model_type)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the text model: its keys are listed as text_config.KEY</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the %1 encoder: not read (text positions only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 attention heads (the scene shows one)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model width: not positional (the head dimension comes from another key)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every layer applies the same positional scheme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>window %1 on the sliding layers (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key j seen iff i − W &lt; j ≤ i</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>null: no window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>use_sliding_window is false: no layer slides</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a sliding window (the %1 scene draws full attention)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no layer of this family slides</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>true: layers from max_window_layers on slide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>false: no layer slides</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the first sliding layer: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no layer slides (use_sliding_window is false)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the layer pattern: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no layer pattern (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no layer count</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a RoPE model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE θ of the sliding layers = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no layer pattern</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE θ of the full layers = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>softmax scale = query_pre_attn_scalar^-1/2 = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this family&apos;s scale is %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>softmax scale = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>softmax scale = (qk_nope_head_dim + qk_rope_head_dim)^-1/2 · mscale² = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not read by this family</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>half (i, i + r/2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>null: no soft-cap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stored, but this family&apos;s attention does not apply it (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>temperature tuning of the NoPE layers: floor_scale %1, attn_scale %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off: no temperature tuning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>q/k norm %1 RoPE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LayerNorm of q and k (mean removed) before RoPE (%1); the scene does not normalise</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>false: no q/k norm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>eps of the q/k norm = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>false: RoPE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attention: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>see its keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scores × %1 instead of head_dim^-1/2; the ALiBi scene keeps head_dim^-1/2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>context length %1 (the views&apos; training context)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>another key gives the context length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>local layers see only the last window_size keys (%1:62-72); the learned-position scene draws full attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>positions start at row pad_token_id + 1 of the learned table (%1:137); the scene starts at row 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a RoPE model (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>another key sets it (rope_parameters or the block&apos;s own value wins)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not read by PosLab (no positional or attention meaning known to it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; query scaling: queries × 1 + %1·ln(1 + ⌊p/%2⌋) after RoPE (%3:105-107, 146-150)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>default (no scaling)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>128 (the family&apos;s default): head dimension %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (the family&apos;s default)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 = %2 / attention heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> = max / original max positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the family&apos;s pattern: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>llama.cpp GGUF metadata (general.architecture %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not positional: the file&apos;s description</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not positional: tokenizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attention heads (the scene shows one)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a positional or attention key PosLab&apos;s GGUF reader does not apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not read by PosLab (no positional meaning known to it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per-pair frequency divisors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a Hugging Face cache folder with no snapshot holding config.json</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> is missing (the model has sliding layers)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attention_chunk_size is missing (the model has chunked layers)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> is missing (the model has such layers)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>internal: no parameter </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> is missing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>n_head (the number of attention heads) is missing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>n_positions / max_position_embeddings is missing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>d_head (or d_model and n_head) is missing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>d_model (the model dimension) is missing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>type su read as longrope (its older name); </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head_dim is missing, and so is hidden_size or num_attention_heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max_position_embeddings is missing (needed by rope_type </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>relative_attention_num_buckets is missing (model_type </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> uses T5 relative buckets)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the file names no model_type or architectures</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> is not a family PosLab reads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a JSON config (</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> at byte </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a config.json (the top level is not an object)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rope_freqs.weight must have rotary_dim/2 = %1 values, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>general.architecture is missing (or not a string)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a config.json or GGUF file (</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> bytes, a config.json is at most 64 MiB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> must be three non-negative integers summing to head_dim/2 = %1, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> is missing, and the default [24, 20, 20] does not sum to head_dim/2 = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> is missing (apply_multimodal_rotary_pos_emb reads it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>M-RoPE sections [%1, %2, %3] (%4): the frequencies following t, h and w</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>vision_config.spatial_merge_size must be an integer from 1 to 64, got </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2 (the class default)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>vision_config.tokens_per_second must be an integer from 1 to 1000, got </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>4 (the class default; the hub&apos;s files say 2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the class defaults</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>: the multimodal position ids (compute positions); the encoder&apos;s own 2-D RoPE is --vision qwen</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>file: %1 · head %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first channel of the pair</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>second channel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cos and sin carry the attention factor %1, so radii are scaled by it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>channel 2i</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>channel 2i+1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>queries grow by ζ_i^(c/%1) and keys shrink by it (c = position − N/2): a spiral, so q·k decays with distance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing positional to draw: the score is s·q·k of the contents alone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head %1 (m = %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bias added to every score: −m_h·(i − j), one slope m_h per head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distance i − j</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bias</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learned bias per bucket of j − i (exact near, logarithmic far), head %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>relative position j − i</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bias table (seed %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bucket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>table row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Row of a^{K} used: clip(j − i, −%1, %1) + %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key table a^{K} (added to k_j)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>j − i</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>channel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embedding table E (seeded N(0, 0.02²), seed %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Positions ≥ %1 have no embedding: the method cannot extrapolate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each position p adds its own row E[p] to the token; nothing rotates.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Relative sinusoid R(d) = [sin(d·w) | cos(d·w)]%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, clamped at %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distance d</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scores add q·W R(d) and v·W R(d) with trained u, v and W (seeded): position enters through the distance only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not enough memory for this view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>d = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No difference to A for %1: a difference is drawn only between configurations of A&apos;s method and head dimension (%2, d = %3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this layer applies no positional encoding (NoPE): </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>trail: %1 sampled positions of 0 … %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · %1 sampled rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · head %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 − %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>needs both panels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>factors for an explicit sequence length %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>factors for a sequence of N = %1 (the scene&apos;s length)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean over the rows i ≥ d, each token rotated by its own (t, h, w) ids</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean over the rows i ≥ d of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>chunk %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>window %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: no key further than %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this layer applies no positional encoding (NoPE): no rotation, no frequencies; its scores are q·k whatever the distance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · temperature tuning: each query row i is scaled by log1p(⌊(i+1)/%1⌋)·%2 + 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>θ_i = 1/base^(2i/r) before scaling and after (N = %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>θ_i = 1/base^(2i/r): pair i turns θ_i radians per position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>θ_i before scaling and after, factors for an explicit sequence length %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>θ_i before scaling and after, factors for a sequence of N = %1 (the scene&apos;s length)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>M-RoPE, %1 %2,%3,%4: each dot&apos;s colour is the axis its pair follows (t, h or w)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>interleaved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sectioned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>θ_i = 10000^(−i/(d/2)) of xPos&apos;s interleaved rotation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>w_i of the relative sinusoid R(d) (not a rotation of q and k)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no rotation: head h adds −m_h·(i − j) to every score; its slope m_h per head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no rotation: a learned bias per bucket; distance |i − j| → bucket (exact below %1, logarithmic up to %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no rotation frequencies. %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-pair contributions need rotary pairs: choose RoPE.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>file: %1 (mean over the rows i ≥ t, %2 rows)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 content (query at t, key at 0)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; the pairs add up to the score before the logit soft-cap %1·tanh(s/%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; each column at its middle distance only (past the work limit)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; each column the mean over its distances</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>double (exact: no error)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>float32, Meta&apos;s complex64 path (torch.polar, complex product)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>float32 (angles, cos and sin in float32)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, Meta&apos;s complex64 path (angles and cos/sin in float32, product cast to %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, angles in float32, cos/sin cast to %1 (transformers main)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, angles in %2 (legacy path)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>score error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>score error: %1 − double</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 − double</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The precision view shows what bfloat16, float16 and float32 do to RoPE&apos;s angles: choose RoPE.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This view splits RoPE&apos;s score s·(R_i q_i)·(R_j k_j) into its rotary pairs: for each pair p and distance t, c_p(t) = s·(R q)_p·(R k)_p, and each pair&apos;s share of Σ|c|.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distance t (tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pair p (0 = fastest)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>c_p(t)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>share of |score| (max %1 %)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>share (max %1 %)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max %1 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no pair</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pairs ≥ %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>- - wavelength &gt; training context %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>   —— after scaling: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 upper bound on |score| (RoFormer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 RoFormer bound, above the plot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoFormer&apos;s bound (dashed) runs above the plot, up to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoFormer&apos;s bound (dashed) runs partly above the plot, up to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>positional term</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>score or positional term</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>score</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Positional term against distance i − j · without the content term q·k/√d</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score or positional term against distance i − j · RoPE, xPos, NoPE: the score; the others: their positional term alone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score against distance i − j</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · sampled: one distance per point (the whole curve is past the work limit)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · each point: up to %1 distances, band min … max, line their mean</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distance i − j (log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>|%1| (log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distances i − j = %1 … %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distance i − j = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: mean %2, min %3, max %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (bound on |score| %1; RoFormer&apos;s relative bound %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (RoFormer&apos;s relative bound %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no room for its picture at this size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no rotation frequencies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · attention factor %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: NoPE layer, query scale τ(i) = log1p(⌊(i+1)/%2⌋)·%3 + 1 up to 10M positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: NoPE layer, query scale τ(i) up to 10M positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: query scale τ(i)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: τ = %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>query position i</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>query scale τ(i)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head %1: m = %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: slope m_h of each head (bias −m_h·(i − j))</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: slope m_h of %2 heads, %3 (head 0) … %4 (head %5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: slope m_h of %2 heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 slopes m_h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>slope m_h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: bucket of each distance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: buckets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 buckets · exact below %2 · logarithmic up to %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 buckets · exact &lt; %2 · log to %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 buckets, exact &lt; %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 buckets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distance |i − j| (tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distance |i − j|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>|i − j|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exact below %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>≥ %1: last bucket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key before the query (a later key: bucket 0)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key before the query</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key after it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no room for the frequency plot at this size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pair i</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>i</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>original context %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>original %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>context %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (dashed: before scaling)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>t (time)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>h (row)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>w (column)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pair i = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: θ_i = %2, wavelength = %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>    before scaling: θ_i = %1, wavelength = %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>difference of the %1 of %2 blocks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>maxima</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>minima</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 blocks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 × %2 samples (one cell per %3 block)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>chunks of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bidirectional window %1 (|i − j| ≤ %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>causal, j &gt; i</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>chunk %1: j in an earlier chunk than i</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>window %1: j ≤ i − %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>window %1: |i − j| &gt; %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>difference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>softmax weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>causal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>outlined: image and video tokens as queries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>outlined: video tokens as queries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>outlined: image tokens as queries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>i %1–%2, j %3–%4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p_sink, sampled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sampled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 p_sink</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p_sink</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sink</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no room for the heatmap at this size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no room for the %1 heatmap panels at this size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: no room at this size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>differences to A: no room at this size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>differences: no room</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>computing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key position j</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key j</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>query i</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>queries i = %1 … %2, keys j = %3 … %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: masked (causal, every j &gt; i)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: masked (no visible cell: %2%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>causal, </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sink mass p_sink of query i = %1 (sampled for the block): %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 sink mass p_sink of queries i = %2 … %3: %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>query i = %1, key j = %2 (i − j = %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(a sampled cell) </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: masked (causal, j &gt; i)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: masked (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: not a finite number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sink mass p_sink of query i = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>linear ×%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dynamic ×%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>YaRN ×%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LongRoPE ×%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Llama 3 ×%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>chunked: fades, fewer queries see that far back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>context %1 positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NoPE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NoPE, queries × τ(i) (temperature tuning)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>context</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>τ(i) against the query position i (log scale)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>τ(i), position i (log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temperature tuning (NoPE layers): queries × τ(i)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NoPE layers: queries × τ(i)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>queries × τ(i)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>τ(i) = log(⌊(i+1)/%1⌋ + 1)·%2 + 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>τ = 1 for i &lt; %1, a step every %2 positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>τ = 1 for i &lt; %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>τ = %1 at the context&apos;s last position %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>τ = %1 at position %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bidirectional (an encoder): each query sees keys on both sides</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scores × %1 (not 1/√%2 = %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scores × 1/√%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>soft-capped: s ↦ %1·tanh(s/%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>queries × 1 + %1·ln(1 + ⌊p/%2⌋)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>q/k RMS norm %1 the rotation%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>before</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>after</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (RoPE layers only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a sink logit per head (%1 heads): rows sum to less than 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a learned sink logit per head (in the weights: --sink to set them): rows sum to less than 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>full</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sliding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>chunked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, τ ≤ %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>θ %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>window %1 (±%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>everything</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No layer pattern: open a model configuration (File → Open model configuration…)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — layers 0–%2 of %3 (the pattern repeats)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2 layers of %3 kinds: what each kind sees, and with which positional signal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2 layers: what each layer sees, and with which positional signal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distance |i − j| it can attend to, on either side (log scale)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distance |i − j| it can attend to (log scale)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distance |i − j| (log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>|i − j| (log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distance i − j it can attend to (log scale)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distance i − j (log scale)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>i − j (log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>m = %1:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>i = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 rad (%2 turns)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 rad (%2°)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no room at this size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no room</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no room for the pair dial at this size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no room for the %1 pair dials at this size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>table: no room at this size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>table: no room</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no room for the curve at this size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no room for the table at this size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position m:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>m:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>→ PE_m pair (cos, sin)   ··· trail over positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>→ query q_m   ○ key k_m   ··· trail over positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>→ query = key (ones content)   ··· trail over positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 = (%2, %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PE (cos, sin)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>q</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>k = (%1, %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 = %2, %3 = %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>video</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, %2 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 patches → %3 = %4 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 → %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Position ids (t, h, w) of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Position ids</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>t time, h row, w column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No token layout: add text, image or video entries to see their position ids.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>t time, h row, w column: each frequency of RoPE follows one of the three</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>t, h, w</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tokens of the entries between</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>more entries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every token, in order: its index in the sequence, then its t, h and w ids.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each token: index, t, h, w.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 tokens shown; +n stands for n tokens left out between those beside it (their ids continue the run).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 tokens shown; +n: n tokens left out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n frame(s) left out (no room for their cells).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>No room for the patch grids: a larger picture shows them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No room for the grids.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each image or video frame as its grid of merged patches; every cell (t, h, w).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Patch grids; each cell t, h, w.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each image or video frame as its grid of merged patches: cells too small for their ids (%1 px), so rows give h (left), columns w (top), the frame&apos;s t in its title.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cells too small for their ids: rows give h, columns w, the title t.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rows h, columns w, title t.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image %1: %2×%3 tokens, t = %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image %1, t = %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>t = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>video %1, frame %2 of %3: t = %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>frame %1: t = %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max |Δcos|, |Δsin|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max |Δ|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no error: double precision is the reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This view shows the angle, cos and sin errors of RoPE in bfloat16, float16 or float32 against exact double precision, and the positions the dtype cannot tell apart.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pair %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every position drawn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one position per column (sampled: N·r/2 &gt; 2^22)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one position per column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>band = min..max over each column&apos;s positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>band = min..max per column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>band: min..max</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 positions collide in %3 (red marks)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no two positions of 0..%1 collide in %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 collide in %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no collisions in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · red dotted: first collision at %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · dashed: N = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Δangle (rad)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Δcos</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>score error heatmap: no room at this size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>heatmap: no room</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position %1 (sampled for %2 … %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>positions %1 … %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · collides in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pair %1: Δangle = %2 rad, Δcos = %3, Δsin = %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position %1: max over the pairs of |Δcos|, |Δsin| = %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distance d of the key before the query (log scale)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exact up to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>local layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2: %3, up to %4 tokens back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>their positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>global layers (see everything)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>layers that see a token 128k back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>query scale τ at 128k / 1M / 10M</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shuffle order: row r of the shuffled input is token %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>out(X)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>out(shuffled X), rows put back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>R(Δ): one 2×2 rotation per pair, Δ = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PE(p)·PE(q): constant along diagonals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PE(p)·PE(q)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(x + PE(p))·(y + PE(q))</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>positions 0 … %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position m (length axis from 0)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoFormer&apos;s bound on |score|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>|score|, equal content (q = k = ones)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean |score|, random q, k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distance m − n (|score|, log axis)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE: %1 rotations per step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ALiBi: m·j of the new key, cached</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>T5 / Shaw / Transformer-XL: one term per cached key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>decoding step (cumulative positional operations)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>method</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>past the training length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>q = %1, m = %2, θ = %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>interleaved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>half-split:  %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position p: largest phase error over the pairs (rad)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>|score| RoPE, equal content</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>|score| xPos, equal content</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean |score| RoPE, random q, k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean |score| xPos, random q, k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click a cell to open the scene that shows it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1 of %2 — %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Heatmap: wheel or pinch zooms about the mouse · drag pans · Shift+drag or right-drag zooms to a rectangle · double-click or Home shows all positions · hover for exact values</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decay: wheel or pinch zooms the distances about the mouse · drag pans · Shift+drag or right-drag zooms to a range · double-click or Home shows all distances</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PosLab sessions (*.%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SVG drawings (*.svg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PDF documents (*.pdf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV tables (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON data (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Qwen2-VL, sections [%1]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Qwen3-VL, interleaved [%1]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>h (rows)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>w (columns)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>frequency i from 0 (fastest) to 63 (slowest)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Position ids (t, h, w) of %1 · %2 tokens · position offset %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2 tokens · position offset %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Positional term by distance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score or term by distance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score by distance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2 layers of one kind: what each sees, and with which positional signal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Δangle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2-D RoPE decay of the %1 encoder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2-D RoPE decay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2-D RoPE of the %1 encoder: the score from patch (%2, %3) to every patch of the %4×%5 grid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: score from patch (%2, %3), %4×%5 patches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From patch (%1, %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Qwen2-VL vision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pixtral</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; each of the %1 frames has the same map (the encoder&apos;s 2-D positions repeat per frame)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour: (R(p*)·q)·(R(p)·k)/√%1 with q = k = ones; %2 pairs follow the patch row, %3 its column (θ %4)%5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score q·k/√%1 (q = k = ones): %2 pairs follow the row, %3 the column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score from the outlined patch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No room for the patch grid: a larger picture shows it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No room for the grid.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1×%2 patches on %3×%4 pixels: each pixel the exact mean of the patches it covers. Largest %5 at the patch itself, smallest %6.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each pixel the mean of the patches it covers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One cell per patch. Largest %1 at the patch itself (every cosine 1), smallest %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One cell per patch; largest %1, smallest %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>patch column (w)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>patch row (h)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>base, scaling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sees</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cos(m·w_i)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sin(m·w_i)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PE_m is added to the token: its (cos, sin) pair turns by w_i per position, the same rotation picture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>w_i of the (sin, cos) pairs added to the tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wavelength 2π/%1 (positions)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wavelength 2π/%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2π/%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (rad / position)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 = %2 rad/pos</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 = %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>m·%1 at m = %2:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pair i = %1 (channels %2, %3), %4 = %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position m = %1, angle m·%2 = %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>|Δcos|, |Δsin|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max |Δcos|, |Δsin| against position (log, %1 samples)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max |Δcos|, |Δsin| against position (log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>|Δcos|, |Δsin| against position (log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>|Δcos|, |Δsin| by log position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>last bucket from %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (before scaling: %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>term</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>score or term</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QkFile</name>
    <message>
        <source>invalid .npy header: keys descr, fortran_order and shape, got &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid .npy header: descr, fortran_order and shape, got %1 of them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid .npy header at character %1: %2, got &apos;%3&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the end</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>truncated .npy header: at least 10 bytes, got %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a .npy file: magic \x93NUMPY, got %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>truncated .npy header: at least 12 bytes, got %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unsupported .npy version, 1, 2 or 3, got %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>truncated .npy header: %1 header bytes, the file has %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wrong dtype, float16, float32 or float64 little-endian (&apos;&lt;f2&apos;, &apos;&lt;f4&apos;, &apos;&lt;f8&apos;), got &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fortran order, C order (np.ascontiguousarray), got fortran_order True</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid .npy shape %1: its size overflows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>truncated .npy data: shape %1 of %2 needs %3 bytes, the file has %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>truncated .npz: a zip end record (22 bytes), got %1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>truncated .npz: no zip end record (the archive is cut short)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid .npz: zip64 end locator missing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid .npz: zip64 end record missing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>truncated .npz: central directory at %1 (%2 bytes), the file has %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid .npz: %1 entries do not fit the central directory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid .npz: central directory entry %1 is damaged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>member %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>encrypted, an unencrypted archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>compression method 0 (np.savez) or 8 (np.savez_compressed), got %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>truncated: its local header at %1 is missing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>truncated: %1 bytes at %2, the file has %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stored sizes differ (%1 and %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no arrays in the .npz, NAME.npy members, got %1 entries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>truncated .safetensors header: 8 bytes of header length, got %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid .safetensors header length, at most %1 bytes, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>truncated .safetensors header: %1 bytes, the file has %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid .safetensors header: a JSON object, got %1 at byte %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>another JSON value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tensor %1: an object {dtype, shape, data_offsets}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tensor %1: shape, an array of at most 32 dimensions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tensor %1: shape, non-negative integers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tensor %1: data_offsets, [begin, end]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tensor %1: data_offsets, integers 0 &lt;= begin &lt;= end</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tensor %1: shape %2 overflows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tensor %1: data_offsets span %2 bytes, shape %3 of %4 needs %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>truncated .safetensors data: tensor %1 ends at byte %2, the data has %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not enough memory to read the header</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot start zlib</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>corrupt deflate data: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>truncated deflate data: %1 bytes needed, %2 inflated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tensor %1: wrong dtype, F16, BF16, F32 or F64, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(the array)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>missing tensor %1, a tensor named %1, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wrong shape of %1, [N, d], [H, N, d] or [1, H, N, d], got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wrong shape of %1: d at most %2, got %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wrong shape of %1: N at most 2^40, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>truncated data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 at row %2, column %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>missing tensor k, a tensor named k beside q, got only one tensor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: --head, an integer from 0 to %2 (the q tensor&apos;s heads − 1), got %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: shape of k, the N and d of q (%2, %3), got %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: heads of k, a divisor of q&apos;s %2 heads (grouped-query attention), got %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>: tensor q: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>: tensor k: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: tensor q (head %2), finite values, got %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: tensor k (head %2), finite values, got %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: cannot read: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: empty file, a .npy, .npz or .safetensors file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: cannot map: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: not enough memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: shape %2: its size overflows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not enough memory for the query and key rows</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SessionFile</name>
    <message>
        <source>an array</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expected an object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown field %1, ignored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expected a string</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a text of at most %1 characters, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at most %1 entries, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of pairs, heatmap, decay, frequencies, contributions, precision without repeats for %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 to %2 of pairs, heatmap, decay, frequencies, contributions, precision without repeats for %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, got %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only for the demo arrangement, got arrangement %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a demonstration (%1) or &quot;&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: unknown theme &quot;%2&quot; (known: %3), drawn as light</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expected an array of 1 to %1 configurations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 to %1 configurations, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>too large for a session (%1 bytes, at most %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the file is empty, not a PosLab session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not valid JSON (%1 at byte %2)%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>: the file is truncated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>: the file is damaged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a PosLab session (the top level is not a JSON object)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a PosLab session (no &quot;format&quot;: &quot;poslab-session&quot;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>schema: a positive integer, got %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>written by a newer PosLab (schema %1%2), this version reads schema %3; update PosLab to open it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expected an array of 1 to %1 scenes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 to %1 scenes, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an integer from 0 to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>: is a directory, not a session file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot open %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>: too large for a session (%1 bytes, at most %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WorkedText</name>
    <message>
        <source>RoPE on a small vector (d = %1, m = %2, %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>interleaved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>half-split</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A sinusoidal row (d = %1, p = %2, base %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ALiBi slopes for H = %1 heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>T5 bucket of offset %1 (%2 buckets, max distance %3, %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bidirectional</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>causal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frequencies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Angles</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cos and sin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pairs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rotate each pair</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Length is preserved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The half-split layout gives instead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The interleaved layout gives instead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cosines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wavelengths</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Closest power of two</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Slopes of p heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The other %1 heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All H slopes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bias row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Direction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Distance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exact or logarithmic?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Logarithmic bucket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bucket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each pair of channels i turns at its own angular frequency θ_i (here given explicitly, held in float32 like the frameworks).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each pair of channels i turns at its own angular frequency θ_i (here given explicitly).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At position m = %1 pair i is rotated by the angle m·θ_i; only the angle modulo 2π matters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rotation of pair i needs only cos a_i and sin a_i (the tables the model precomputes).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The interleaved layout (GPT-J, Meta LLaMA, RoFormer) pairs neighbouring channels (2i, 2i+1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The half-split layout (Hugging Face Llama, NeoX) pairs channel j with channel j + d/2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each pair is turned by its angle: a 2×2 rotation, the same as multiplying x + iy by e^{i a}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put the rotated pairs back in their channels: this is R_m q.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A rotation never changes the length of the vector, only its direction.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same θ and q with the %1 pairing give a different vector: the two layouts are the same rotation only after permuting the channels, so mixing them gives wrong numbers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frequencies fall geometrically from 1 to 1/base: fast pairs tell neighbours apart, slow pairs tell far regions apart.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Position p turns every pair by p·w_i.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The first coordinate of each pair is the sine of its angle.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The second coordinate is the cosine: each pair is a point on the unit circle.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Interleaved (Vaswani, DistilBERT): sin and cos of each frequency side by side.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Concatenated (fairseq, Transformer-XL): all sines, then all cosines.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pair i repeats every 2π/w_i positions: from 2π tokens up to 2π·base tokens.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>H = %1 is a power of two: one geometric sequence gives all slopes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>H = %1 is not a power of two: start from the largest power of two below it, p = %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A geometric sequence: the first slope is 2^(−B/p) and each next one is that times the first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The remaining heads take every other slope of the %1-head sequence, so they fall between the first ones.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>These are the slopes, one per head.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The p slopes followed by the picked ones: one per head.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Query %1 penalises key j by slope × distance: steep heads look near, flat heads look far.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Causal: all buckets are for keys before the query; keys after it share bucket 0.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bidirectional: half of the %1 buckets are for keys after the query (offset %2), half for keys before it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> This key is after the query.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> This key is not after the query.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only the size of the offset matters from here on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys after the query count as distance 0.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The first half of the buckets hold one distance each (0 … %1); </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>n is small, so its bucket is n itself.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>n is not, so it goes into a logarithmic bucket.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Distances from max_exact to max_distance share the other half of the buckets on a log scale; beyond max_distance everything lands in the last one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every distance from %1 on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>distances %1 to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add the direction base. Offset %1 shares bucket %2 with %3 after the query: one learned bias per bucket and head.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add the direction base. Offset %1 shares bucket %2 with %3 before it: one learned bias per bucket and head.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>param</name>
    <message>
        <source>Valid: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>empty: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::AnimationPanel</name>
    <message>
        <source> positions/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pair vectors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Heatmap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frequencies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All visible views</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>to position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>export view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>frame size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>▶ Play</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export GIF…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export PNG sequence…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⏸ Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position m = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrote %1 frames to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export animation as GIF</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GIF (*.gif)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export animation as a PNG sequence into</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::Autosave</name>
    <message>
        <source>cannot create the autosave directory %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no free autosave slot in %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::DeckModel</name>
    <message>
        <source>(copy)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (copy)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add slide %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move slide %1 to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duplicate slide %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete slide %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retitle slide %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speaker notes of slide %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arrange slide %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show slide %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset the deck to the lecture</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::DeckPanel</name>
    <message>
        <source>As the scene shows them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One view, full size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Two views side by side</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Up to four views, 2×2 grid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A demonstration: views and its numbers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(untitled)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The slides in the order they are presented; drag a slide to move it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move the slide one place earlier</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move the slide one place later</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A copy of the slide after it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the slide (Edit ▸ Undo brings it back)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add this scene</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The window&apos;s scene as a new slide at the end</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Present from here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Presentation mode from the selected slide (F5 starts at the current one)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The slide&apos;s title, shown at the top of the slide (up to 200 characters)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Title</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How the slide arranges its views</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Shows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>—</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>View %1 of the slide (left to right, then top to bottom)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Views</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The formula sheet of the method</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whose numbers the column beside the views shows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Numbers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speaker notes: only you see them (N in presentation mode)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speaker notes, never shown to the audience; N shows them on the presenter&apos;s screen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>N&amp;otes</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n slide(s). The deck is saved with the session; the window shows slide %1.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n slide(s): the default lecture. Your first change makes it part of the session.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poslab::ui::DemoCanvas</name>
    <message>
        <source>Choose a demonstration in the Teach menu.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::ExportDialog</name>
    <message>
        <source>Export figure or data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All views shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SVG vector drawing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PDF vector document</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV plotted values</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON plotted values</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Format:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>As in the &amp;window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Size:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> dpi</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>96 draws at screen scale; 192 is twice as fine; 300 for print. SVG and PDF are width/dpi × height/dpi inches.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Resolution:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>As in the window (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Light (paper)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dark</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Projector (high contrast)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Theme:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text si&amp;ze:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 × %2 pixels, %3 dpi.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 × %2 in (%3 × %4 cm), text as text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The values the views plot at this size.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The scene is stored in the file: open it with File ▸ Open session or `poslab figure --session`.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::FormulaPanel</name>
    <message>
        <source>Query position (m for RoPE and sinusoidal, i for the bias methods)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key position (n, or j)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Which pair of channels the numbers follow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>query</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pair</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score at (1000000, 1000000): −0.000000000</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With the current numbers (query %1, key %2, pair %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score at (%1, %2): %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score undefined here</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::HandbookDialog</name>
    <message>
        <source>PosLab handbook</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::LayersView</name>
    <message>
        <source>Click a layer to show it in every view; Shift-click to compare it beside the shown one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 layers alike: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click: show layer %1 in every view · Shift-click: compare it beside the shown one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click: show this layer in every view · Shift-click: compare it beside the shown one</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::MainWindow</name>
    <message>
        <source>PosLab — positional encodings, live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom heatmap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom decay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show this view full screen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The view alone on the screen; Esc or F11 brings it back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drag a slider: every view follows. Hover a view for exact values.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open session…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PosLab sessions (*.%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save session as…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open model &amp;configuration…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open model configuration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model configurations (*.json *.gguf);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;queries and keys…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queries and keys (*.npy *.npz *.safetensors);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open queries (tensor q, or a file holding q and k)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the keys (tensor k) for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Reset to the default scene</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset scene</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Compare: add a configuration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare: &amp;remove this configuration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Pair vectors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Heatmap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Decay curves</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Frequencies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-pair &amp;contributions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>P&amp;recision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hide view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Layer overview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model&apos;s layers (when the configuration has a layer pattern): click one to show it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Arrange views to fit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size the views as figures are laid out, undoing dragged splitters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Theme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Larger text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Smaller text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Presets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Handbook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Welcome page</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Methods</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Methods</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About PosLab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About PosLab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;PosLab %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;See how transformers encode token positions: every number is the real implementations&apos; (see &lt;tt&gt;poslab compute&lt;/tt&gt;).&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PosLab — %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show layer %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 layer %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare layer %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open queries and keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open queries and keys %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vision decay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose patch %1, %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::ParameterPanel</name>
    <message>
        <source>Method and sequence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE of the full layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE of the sliding layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE of the chunked layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token layout (multimodal positions)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Views</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Query/key content</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Configuration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The configuration the panel edits (compare mode shows several side by side)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare +</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a copy of this configuration to compare against</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Editing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>automatic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Label</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(custom)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model preset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preset %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a causal decoder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a bidirectional encoder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From %1: %2, read as %3 reads it: %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From %1 (%2): read as %3, %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an unknown family</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>interleaved (2i, 2i + 1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>half-split (i, i + d/2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE θ %1 on full layers, %2 on sliding ones, %3 pairs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE θ %1, %2 pairs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scores × %1 (not 1/√%2 = %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scores × 1/√%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>soft-capped: s ↦ %1·tanh(s/%1) before the mask</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>queries × 1 + %1·ln(1 + ⌊p/%2⌋)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 sliding (window %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 chunked (chunk %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 full</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 layers: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not modelled: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warning: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open model configuration %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>file: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vision encoder (2-D RoPE decay)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE on %1 of the head&apos;s %2 channels, the other %3 unrotated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warning: one part of this model&apos;s attention is not drawn; the views differ from the model there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warning: %1 parts of this model&apos;s attention are not drawn; the views differ from the model there.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::PositionsView</name>
    <message>
        <source>text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>video</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>token %1 (%2)
t = %3, h = %4, w = %5</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::PresentationWindow</name>
    <message>
        <source>PosLab — presentation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PosLab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PgDn/→ next · PgUp/← back · P pointer · D draw · C clear · N notes · F numbers · B black · H keys · Esc leave</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::PresenterView</name>
    <message>
        <source>PosLab — presenter view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time since the presentation started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The time of day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys: → or PgDn next · ← or PgUp back · Home/End first/last · P pointer · D draw · C clear · F numbers · B black screen · Esc end</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restart the timer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Slide %1 / %2 —</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no notes for this slide)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The end of the deck</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::Scene</name>
    <message>
        <source>Add comparison</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove comparison</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::SessionActions</name>
    <message>
        <source>Autosave failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open session…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Figures PosLab exported (*.png *.svg *.pdf *.csv *.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save session &amp;as…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export figure or data…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear the list</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Opened %1 with %n unknown field(s) ignored</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1 was opened. Some fields are unknown to this version of PosLab and were ignored:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The scene cannot be saved while a parameter is invalid (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace file?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 already exists. Replace it?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not replaced: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An autosave could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Autosave is off: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore the last deck?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore the last scene?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PosLab did not close properly last time. Restore the deck of %1 scenes autosaved at %2?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PosLab did not close properly last time. Restore the scene autosaved at %1?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Restore</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Discard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restored the autosaved scene</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::TeachingController</name>
    <message>
        <source>Teaching</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Demonstration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Formulas</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Worked example</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Animate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deck</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Teach</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Worked examples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE on a small vector, step by step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A sinusoidal row, step by step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ALiBi slopes for H heads, step by step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Which T5 bucket, step by step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Formulas of the current method</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Presentation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Present the deck</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Present with the presenter &amp;view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The slide for the audience; the current and next slide, the notes and a timer for you</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Edit the deck…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Add this scene to the deck</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset the deck to the lecture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The deck holds the %1 slides of the lecture.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a deck…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a deck</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PosLab sessions (*.%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the deck…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the deck</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E&amp;xport the deck…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every slide as the audience sees it: one PDF (a page per slide) or a folder of PNG images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Animation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play the position forward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Animation settings and export (GIF, PNG)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show a demonstration…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply a demonstration&apos;s ready scene and show its numbers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Demonstration: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The deck is full (%1 slides).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Slide %1 added to the deck: give it a title, choose its views.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot export the deck to %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported the deck&apos;s %1 slides to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported the deck&apos;s %1 slides as PNG images into %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the deck</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every slide of the deck, %1 in all, as the audience sees it: 1920 × 1080, projector theme.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One &amp;PDF file, a page per slide (text stays text)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A &amp;folder of PNG images, one per slide (01-…png, 02-…png, …)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With each slide&apos;s speaker &amp;notes under it (a handout for you, not for the audience)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose where…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the deck as a PDF</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PDF documents (*.pdf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the deck into a folder of PNG images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace the images?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Images of this deck already exist in %1 (%2 of %3). Replace them?</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::TokenLayoutEditor</name>
    <message>
        <source>Text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Video</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No layout: tokens are numbered 0 … N−1. Add text, images and videos to see the three position ids (t, h, w) a vision-language model gives each token.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>+ Text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>+ Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>+ Video</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add text tokens at the end of the sequence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add an image (a grid of patches) at the end of the sequence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a video (frames of patches) at the end of the sequence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add %1 entry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove token entry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move token entry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change token entry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>text tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>T (temporal patches)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>T (frames, temporal patches)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>H (patch rows, before merging)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>W (patch columns, before merging)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move this entry up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move this entry down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove this entry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(H, W: multiples of %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>→ %1 tokens</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::VisionDecayView</name>
    <message>
        <source>patch (%1, %2): score %3 from (%4, %5)
click to measure from this patch</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::WelcomeDialog</name>
    <message>
        <source>Welcome to PosLab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h2&gt;Welcome to PosLab&lt;/h2&gt;&lt;p&gt;See how transformers encode token positions: sinusoidal, learned, Shaw, T5, Transformer-XL, ALiBi, RoPE and its scalings (Llama 3.1, YaRN, …), xPos. Every number is computed the way the real implementations compute it.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Explore</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change any parameter in the panel on the left and every view follows. Hover a field for what it means and its valid range; Ctrl+Z undoes any change.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start exploring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The lecture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A whole lecture on positional encodings in %1 slides, one demonstration each: a claim, its numbers, whether it holds. Edit the deck in the deck panel; present it with F5.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the lecture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Present it now (F5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A real model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Take a real model&apos;s positional parameters: a built-in preset, or the model&apos;s own config.json or GGUF file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use this preset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open config.json or GGUF…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show this page at every start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Handbook (F1)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::WorkedExampleWidget</name>
    <message>
        <source>RoPE on a small vector</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A sinusoidal row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ALiBi slopes for H heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Which T5 bucket?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>◀ Back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>interleaved (GPT-J, Meta, RoFormer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>half-split (HF Llama, NeoX)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>float32 (as the frameworks)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>double</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>d</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position m</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>θ (d/2 numbers)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>q (d numbers)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>layout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>interleaved (Vaswani, DistilBERT)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>concatenated (fairseq, Transformer-XL)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position p</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>base</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>heads H</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bias max B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>query position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bidirectional (encoder)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>offset key − query</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>buckets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max distance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>θ: a list of numbers separated by commas</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>q: a list of numbers separated by commas</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fix the inputs</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
