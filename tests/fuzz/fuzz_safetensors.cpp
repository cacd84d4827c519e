// libFuzzer target: the .safetensors header (ui/io/qkfile.h parseSafetensors) and the
// query/key rows built from it (loadQkFromBuffer, heads 0 and 1).
// Build and run: tests/fuzz/run_fuzzers.sh fuzz_safetensors; seeds in tests/fuzz/corpus/safetensors/.
//
// Contract asserted (fuzzcheck.h qkReaderKeepsContract, asserted): never reads outside [data, data + size)
// (ASan: the input is libFuzzer's exactly-sized buffer, and accepted tensors are read whole); a refusal is
// one line; every accepted tensor lies inside the buffer (stored data) with bytes = its shape's
// size; accepted rows have the shape's d, N >= 1, and finite values.
#include "fuzzcheck.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    assert(fuzzcheck::qkReaderKeepsContract(poslab::ui::parseSafetensors, data, size,
                                            QStringLiteral("f.safetensors")));
    return 0;
}
