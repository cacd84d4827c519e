#pragma once
// Real queries and keys (docs/spec/cli.md "Real queries and keys"): the tensors `q` and `k` of
// `.npy`, `.npz` and `.safetensors` files, read without loading the file into memory.
//
// Formats (all little-endian, C order):
//   .npy          "\x93NUMPY", u8 major (1, 2, 3), u8 minor, header length (u16 for 1.x, u32 for
//                 2.x/3.x), a Python dict literal {'descr': '<f4', 'fortran_order': False,
//                 'shape': (N, d), }, then the data. descr '<f2' (float16), '<f4', '<f8'.
//   .npz          a zip archive (np.savez: stored; np.savez_compressed: deflate) of NAME.npy
//                 members; zip64 sizes and offsets are read from the central directory.
//   .safetensors  u64 header length n, an n-byte JSON header {NAME: {"dtype": "F16"|"BF16"|"F32"|
//                 "F64", "shape": [...], "data_offsets": [begin, end]}, "__metadata__": {...}},
//                 then the data, offsets relative to byte 8 + n.
// Shapes [N, d], [H, N, d] (head h chosen) or [1, H, N, d]. The q tensor is `q` (or the file's
// only tensor), the key tensor `k`; a .npy file is its array. Keys may have fewer heads than the
// queries (grouped-query attention): query head h uses key head h·H_k/H_q when H_k divides H_q.
//
// Memory: the header is parsed, the data memory-mapped (QFile::map), and rows are converted to
// double only when asked for (ContentSource::rows). A deflated .npz member is inflated as a
// stream and only the chosen head's bytes are kept. The chosen head's rows are scanned once
// at load for NaN and Inf.
//
// Every refusal is one line naming the file and what is wrong:
//   "q.npy: Fortran order, C order (np.ascontiguousarray), got fortran_order True".
#include "core/scores.h"
#include "ui/model/sceneparams.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace poslab::ui {

enum class TensorDType { F16, BF16, F32, F64 };
const char* tensorDTypeName(TensorDType t);   // "float16", "bfloat16", "float32", "float64"
int tensorDTypeSize(TensorDType t);

// One tensor found in a file: where its bytes lie in the buffer that was parsed.
struct TensorEntry {
    std::string name;                 // "q" ("" for a .npy file)
    TensorDType dtype = TensorDType::F32;
    std::vector<std::int64_t> shape;
    std::uint64_t offset = 0;         // first byte of the data in the parsed buffer
    std::uint64_t bytes = 0;          // = product(shape)·dtype size (checked)
    // .npz deflate members: the data lies compressed at `offset` (`compressedBytes` of them);
    // the tensor's own bytes start `dataStart` bytes into the inflated member.
    bool deflated = false;
    std::uint64_t compressedBytes = 0;
    std::uint64_t dataStart = 0;
};

struct TensorList {
    std::vector<TensorEntry> tensors;
    QString error;                    // non-empty: what is wrong (without the file name)
    bool ok() const { return error.isEmpty(); }
};

// Parsers of bytes [data, data + size): never read outside, allocate at most what the input's
// size allows, refuse with one line.
TensorList parseNpy(const char* data, std::size_t size);
TensorList parseNpz(const char* data, std::size_t size);
TensorList parseSafetensors(const char* data, std::size_t size);
// By content: npy magic, zip magic "PK\3\4", else safetensors.
TensorList parseTensorFile(const char* data, std::size_t size);

// Inflates a raw-deflate stream [data, data + size) and returns bytes [from, to) of the output,
// or nullopt with `error` set (truncated or corrupt stream).
std::optional<std::string> inflateRange(const char* data, std::size_t size, std::uint64_t from, std::uint64_t to,
                                        QString& error);

// The rows of one file's chosen tensors, as a ContentSource for ScoreParams::source.
class QkContent;

struct QkLoad {
    std::shared_ptr<const ContentSource> content;   // null on error
    QString error;                                  // "FILE: what is wrong"
    bool io = false;                                // the error is an I/O failure (cannot open or map)
};

// `qPath`'s q tensor and `kPath`'s k tensor (the same path for --qk), head `head` of
// [H, N, d] / [1, H, N, d] tensors (must be 0 for [N, d]).
// `separate`: q and k were named apart (--q FILE --k FILE), so one file named for both gives its
// one tensor as both the queries and the keys; otherwise (--qk FILE, a session's single file) the
// file must hold tensors q and k.
QkLoad loadQk(const QString& qPath, const QString& kPath, int head, bool separate = false);

// Loads scene.qFile / scene.kFile (empty kFile = qFile) at head scene.head into scene.qk when
// they are not what scene.qk holds; clears scene.qk when qFile is empty. An unreadable file leaves
// scene.qk with the error (the views show it; the scene keeps the paths).
void refreshQk(SceneParams& scene);

// In-memory variant for fuzzing and tests: the same checks on a buffer holding both tensors.
QkLoad loadQkFromBuffer(const char* data, std::size_t size, int head, const QString& name);

// A tensor already in memory (the Python module's q=/k= arrays): little-endian, C-ordered data
// of `dtype` and `shape` at `data`, read in place (no copy), so it must stay valid and unchanged
// while the content returned is in use. `label` stands for a file name in messages ("q (array)").
struct TensorBuffer {
    const void* data = nullptr;
    TensorDType dtype = TensorDType::F32;
    std::vector<std::int64_t> shape;
    QString label;
};
// Query rows from `q`'s tensor and key rows from `k`'s, each a file (a path) or a TensorBuffer:
// the checks and messages of loadQk(qPath, kPath, head, true) (shape, heads, head, finiteness),
// a buffer's label where a file's name would be.
using QkInput = std::variant<QString, TensorBuffer>;
QkLoad loadQk(const QkInput& q, const QkInput& k, int head);

}  // namespace poslab::ui
