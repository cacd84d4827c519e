#pragma once
// GGUF metadata (llama.cpp's model file), versions 2 and 3, little-endian: only the header and
// the metadata key/value section are read, never the tensors. Every length and count is checked
// against the bytes that remain before anything is read or allocated; arrays are skipped (their
// element count is checked against the remaining bytes, nothing is allocated from it).
//
// Layout: "GGUF" u32 version, u64 tensor_count, u64 kv_count, then kv_count times
// { string key, u32 type, value }; string = u64 length + bytes; types 0 u8, 1 i8, 2 u16, 3 i16,
// 4 u32, 5 i32, 6 f32, 7 bool, 8 string, 9 array (u32 type, u64 count, values), 10 u64, 11 i64,
// 12 f64.
#include <QString>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace poslab::ui {

struct GgufValue {
    // Scalars and strings; an array is kept as its element count only.
    std::variant<std::int64_t, std::uint64_t, double, bool, std::string> value;
    bool isArray = false;
    std::uint64_t arrayCount = 0;
};

struct GgufMetadata {
    std::uint32_t version = 0;
    std::uint64_t tensorCount = 0;
    std::map<std::string, GgufValue> kv;
    // The F32 vector `rope_freqs.weight` (llama.cpp's per-pair frequency divisors: Llama 3
    // scaling), read from the data section; empty when the file has none. Tensor infos follow the
    // metadata: string name, u32 n_dims (<= 8), u64 dims, u32 type (0 = F32), u64 offset from the
    // data section, which starts at the next multiple of general.alignment (default 32). A file
    // whose tensor infos are cut short (a metadata-only excerpt) has no rope_freqs.
    std::vector<double> ropeFreqs;
    const GgufValue* find(const std::string& key) const {
        auto it = kv.find(key);
        return it == kv.end() ? nullptr : &it->second;
    }
};

struct GgufResult {
    std::optional<GgufMetadata> meta;
    QString error;   // when !meta: what is wrong, e.g. "truncated GGUF header: ..."
};

inline constexpr std::uint64_t kGgufMaxKeys = 1u << 20;        // metadata entries
inline constexpr std::uint64_t kGgufMaxTensors = 1u << 24;     // tensor_count (sanity, never allocated)
inline constexpr std::uint64_t kGgufMaxKeyLength = 65535;      // the format's limit on keys
inline constexpr std::uint64_t kGgufMaxStringValue = 1u << 20; // string values kept (longer: refused)
inline constexpr int kGgufMaxArrayDepth = 4;                   // nested arrays

// Text from a file as messages show it: control bytes and bytes >= 0x7f as \xNN, at most
// `max` bytes (then "…"): one line whatever the file holds.
QString printableText(const std::string& s, std::size_t max = 80);

// True when the bytes start with GGUF's magic.
bool looksLikeGguf(const char* data, std::size_t size);

// Parses the header and metadata of a GGUF held in [data, data + size). Never reads past size.
GgufResult parseGgufMetadata(const char* data, std::size_t size);

// Maps the file (no read of the tensor data) and parses its metadata.
GgufResult readGgufMetadata(const QString& path);

}  // namespace poslab::ui
