#include "ui/io/gguf.h"

#include <QCoreApplication>
#include <QFile>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

namespace poslab::ui {

namespace {
// The words people read about GGUF files (errors, reports), translated in the context "GgufFile"
// (Q_DECLARE_TR_FUNCTIONS: lupdate extracts them, and GgufFile::tr works off the GUI thread).
struct GgufFile {
    Q_DECLARE_TR_FUNCTIONS(GgufFile)
};
}  // namespace

namespace {

struct GgufError {
    QString message;
};

class Cursor {
public:
    Cursor(const char* data, std::size_t size) : data_(data), size_(size) {}
    std::size_t offset() const { return pos_; }
    std::size_t remaining() const { return size_ - pos_; }

    // Needs n more bytes for `what`, else a "truncated" error.
    void need(std::uint64_t n, const char* what) const {
        if (n > remaining())
            throw GgufError{GgufFile::tr("truncated GGUF header: %1 needs %2 bytes at offset %3, the file has %4")
                                .arg(QString::fromLatin1(what))
                                .arg(n)
                                .arg(pos_)
                                .arg(size_)};
    }
    template <class T>
    T read(const char* what) {
        need(sizeof(T), what);
        T v;
        std::memcpy(&v, data_ + pos_, sizeof(T));   // little-endian host (x86-64, arm64)
        pos_ += sizeof(T);
        return v;
    }
    void skip(std::uint64_t n, const char* what) {
        need(n, what);
        pos_ += static_cast<std::size_t>(n);
    }
    std::string string(std::uint64_t maxLength, const char* what) {
        const auto n = read<std::uint64_t>(what);
        if (n > maxLength)
            throw GgufError{GgufFile::tr("invalid GGUF %1: length at most %2, got %3").arg(QString::fromLatin1(what)).arg(maxLength).arg(n)};
        need(n, what);
        std::string s(data_ + pos_, static_cast<std::size_t>(n));
        pos_ += static_cast<std::size_t>(n);
        return s;
    }

private:
    const char* data_;
    std::size_t size_;
    std::size_t pos_ = 0;
};

enum : std::uint32_t { U8, I8, U16, I16, U32, I32, F32, Bool, String, Array, U64, I64, F64, TypeCount };

std::uint64_t scalarSize(std::uint32_t t) {
    switch (t) {
    case U8: case I8: case Bool: return 1;
    case U16: case I16: return 2;
    case U32: case I32: case F32: return 4;
    case U64: case I64: case F64: return 8;
    default: return 0;
    }
}

[[noreturn]] void badType(std::uint32_t t, const std::string& key) {
    throw GgufError{GgufFile::tr("invalid GGUF value type of %1, 0 to 12, got %2").arg(printableText(key)).arg(t)};
}

// Skips the elements of an array (strings one by one; their count was checked against the bytes).
void skipArray(Cursor& c, const std::string& key, int depth, std::uint64_t& count) {
    const auto type = c.read<std::uint32_t>("array type");
    count = c.read<std::uint64_t>("array count");
    if (type >= TypeCount) badType(type, key);
    if (type == Array && depth >= kGgufMaxArrayDepth)
        throw GgufError{GgufFile::tr("invalid GGUF array %1: nested deeper than %2").arg(printableText(key)).arg(kGgufMaxArrayDepth)};
    // Every element takes at least this many bytes: a count beyond the file is refused at once.
    const std::uint64_t minSize = type == String ? 8 : type == Array ? 12 : scalarSize(type);
    if (count > c.remaining() / minSize)
        throw GgufError{GgufFile::tr("truncated GGUF header: array %1 of %2 elements needs at least %3 bytes each, %4 remain")
                            .arg(printableText(key)).arg(count).arg(minSize).arg(c.remaining())};
    if (type == String) {
        for (std::uint64_t i = 0; i < count; ++i) c.skip(c.read<std::uint64_t>("array string"), "array string");
    } else if (type == Array) {
        std::uint64_t inner = 0;
        for (std::uint64_t i = 0; i < count; ++i) skipArray(c, key, depth + 1, inner);
    } else {
        c.skip(count * minSize, "array");
    }
}

GgufValue readValue(Cursor& c, std::uint32_t type, const std::string& key) {
    GgufValue v;
    switch (type) {
    case U8: v.value = std::int64_t{c.read<std::uint8_t>("value")}; break;
    case I8: v.value = std::int64_t{c.read<std::int8_t>("value")}; break;
    case U16: v.value = std::int64_t{c.read<std::uint16_t>("value")}; break;
    case I16: v.value = std::int64_t{c.read<std::int16_t>("value")}; break;
    case U32: v.value = std::int64_t{c.read<std::uint32_t>("value")}; break;
    case I32: v.value = std::int64_t{c.read<std::int32_t>("value")}; break;
    case F32: v.value = double{c.read<float>("value")}; break;
    case Bool: {
        const auto b = c.read<std::uint8_t>("value");
        if (b > 1) throw GgufError{GgufFile::tr("invalid GGUF bool %1, 0 or 1, got %2").arg(printableText(key)).arg(b)};
        v.value = b == 1;
        break;
    }
    case String: v.value = c.string(kGgufMaxStringValue, "string value"); break;
    case Array:
        v.isArray = true;
        v.value = std::int64_t{0};
        skipArray(c, key, 1, v.arrayCount);
        break;
    case U64: v.value = c.read<std::uint64_t>("value"); break;
    case I64: v.value = c.read<std::int64_t>("value"); break;
    case F64: v.value = c.read<double>("value"); break;
    default: badType(type, key);
    }
    return v;
}

}  // namespace

QString printableText(const std::string& s, std::size_t max) {
    QString out;
    const std::size_t n = std::min(s.size(), max);
    for (std::size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c >= 0x7f) out += QStringLiteral("\\x%1").arg(c, 2, 16, QLatin1Char('0'));
        else out += QLatin1Char(static_cast<char>(c));
    }
    if (s.size() > max) out += QStringLiteral("…");
    return out;
}

// Tensor infos after the metadata; rope_freqs.weight's values from the data section. A file that
// ends where the tensor infos begin is an excerpt of the metadata (read as such); one that ends
// inside the table is damaged: the tensor it cut (rope_freqs.weight, Llama 3's scaling) would be
// silently missing, so it is refused.
static void readRopeFreqs(Cursor& c, GgufMetadata& m, const char* data, std::size_t size) {
    std::optional<std::pair<std::uint64_t, std::uint64_t>> rope;   // offset, count
    if (c.remaining() == 0) return;   // an excerpt: the metadata only
    for (std::uint64_t i = 0; i < m.tensorCount; ++i) {
        std::string name;
        std::uint32_t dims = 0, type = 0;
        std::uint64_t first = 0, offset = 0;
        try {
            name = c.string(kGgufMaxKeyLength, "tensor name");
            dims = c.read<std::uint32_t>("tensor dimensions");
            if (dims == 0 || dims > 8)
                throw GgufError{GgufFile::tr("invalid GGUF tensor %1: 1 to 8 dimensions, got %2").arg(printableText(name)).arg(dims)};
            for (std::uint32_t d = 0; d < dims; ++d) {
                const auto n = c.read<std::uint64_t>("tensor dimension");
                if (d == 0) first = n;
            }
            type = c.read<std::uint32_t>("tensor type");
            offset = c.read<std::uint64_t>("tensor offset");
        } catch (const GgufError& e) {
            if (e.message.startsWith(QStringLiteral("truncated")))
                throw GgufError{QStringLiteral("truncated GGUF tensor table: tensor %1 of %2 is cut at byte %3, the file has %4 "
                                               "(a complete table, or the metadata alone)")
                                    .arg(i + 1).arg(m.tensorCount).arg(c.offset()).arg(size)};
            throw;
        }
        if (name == "rope_freqs.weight") {
            if (type != 0 || dims != 1 || first == 0 || first > 32768)
                throw GgufError{QStringLiteral("invalid GGUF rope_freqs.weight: an F32 vector of 1 to 32768 values, got type %1 "
                                               "with %2 dimensions of first size %3")
                                    .arg(type).arg(dims).arg(first)};
            rope = std::make_pair(offset, first);
        }
    }
    if (!rope) return;
    std::uint64_t alignment = 32;
    if (const GgufValue* a = m.find("general.alignment")) {
        const auto* u = std::get_if<std::uint64_t>(&a->value);
        const auto* s = std::get_if<std::int64_t>(&a->value);
        alignment = u ? *u : s && *s > 0 ? static_cast<std::uint64_t>(*s) : 0;
        if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment > (1u << 20))
            throw GgufError{GgufFile::tr("invalid GGUF general.alignment, a power of two, got %1").arg(alignment)};
    }
    const std::uint64_t start = (c.offset() + alignment - 1) / alignment * alignment;
    const std::uint64_t bytes = rope->second * 4;
    if (rope->first > size || start > size - rope->first || bytes > size - start - rope->first)
        throw GgufError{GgufFile::tr("truncated GGUF data: rope_freqs.weight needs %1 bytes at %2, the file has %3")
                            .arg(bytes).arg(start + rope->first).arg(size)};
    const std::uint64_t at = start + rope->first;
    m.ropeFreqs.resize(static_cast<std::size_t>(rope->second));
    for (std::size_t i = 0; i < m.ropeFreqs.size(); ++i) {
        float f;
        std::memcpy(&f, data + at + 4 * i, 4);
        if (!(f > 0) || !std::isfinite(f))
            throw GgufError{GgufFile::tr("invalid GGUF rope_freqs.weight[%1], a finite number > 0, got %2").arg(i).arg(double(f))};
        m.ropeFreqs[i] = f;
    }
}

bool looksLikeGguf(const char* data, std::size_t size) { return size >= 4 && std::memcmp(data, "GGUF", 4) == 0; }

GgufResult parseGgufMetadata(const char* data, std::size_t size) {
    try {
        if (!looksLikeGguf(data, size)) throw GgufError{GgufFile::tr("not a GGUF file (no \"GGUF\" magic)")};
        Cursor c(data, size);
        c.skip(4, "magic");
        GgufMetadata m;
        m.version = c.read<std::uint32_t>("version");
        if (m.version != 2 && m.version != 3)
            throw GgufError{GgufFile::tr("unsupported GGUF version, 2 or 3, got %1").arg(m.version)};
        m.tensorCount = c.read<std::uint64_t>("tensor count");
        const auto kvCount = c.read<std::uint64_t>("metadata count");
        if (m.tensorCount > kGgufMaxTensors)
            throw GgufError{GgufFile::tr("invalid GGUF tensor count, at most %1, got %2").arg(kGgufMaxTensors).arg(m.tensorCount)};
        // Each entry takes at least 8 (key length) + 4 (type) + 1 bytes.
        if (kvCount > kGgufMaxKeys)
            throw GgufError{GgufFile::tr("invalid GGUF metadata count, at most %1, got %2").arg(kGgufMaxKeys).arg(kvCount)};
        if (kvCount > c.remaining() / 13)
            throw GgufError{GgufFile::tr("truncated GGUF header: %1 metadata entries need at least %2 bytes, %3 remain")
                                .arg(kvCount).arg(kvCount * 13).arg(c.remaining())};
        for (std::uint64_t i = 0; i < kvCount; ++i) {
            std::string key = c.string(kGgufMaxKeyLength, "key");
            const auto type = c.read<std::uint32_t>("value type");
            GgufValue v = readValue(c, type, key);
            if (m.kv.count(key)) throw GgufError{GgufFile::tr("invalid GGUF metadata: key %1 appears twice").arg(printableText(key))};
            m.kv.emplace(std::move(key), std::move(v));
        }
        readRopeFreqs(c, m, data, size);
        return {std::move(m), {}};
    } catch (const GgufError& e) {
        return {std::nullopt, e.message};
    }
}

GgufResult readGgufMetadata(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {std::nullopt, GgufFile::tr("cannot read: ") + f.errorString()};
    const qint64 size = f.size();
    if (size <= 0) return parseGgufMetadata("", 0);
    // Mapping reads nothing: only the pages the metadata parser touches are loaded.
    uchar* p = f.map(0, size);
    if (!p) return {std::nullopt, GgufFile::tr("cannot read: ") + f.errorString()};
    GgufResult r = parseGgufMetadata(reinterpret_cast<const char*>(p), static_cast<std::size_t>(size));
    f.unmap(p);
    return r;
}

}  // namespace poslab::ui
