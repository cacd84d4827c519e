#include "ui/io/qkfile.h"

#include "ui/io/gguf.h"   // printableText

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace poslab::ui {

namespace {
// The words people read about .npy, .npz and .safetensors files (errors, reports), translated in the context "QkFile"
// (Q_DECLARE_TR_FUNCTIONS: lupdate extracts them, and QkFile::tr works off the GUI thread).
struct QkFile {
    Q_DECLARE_TR_FUNCTIONS(QkFile)
};
}  // namespace

namespace {

constexpr std::uint64_t kMaxSafetensorsHeader = std::uint64_t{100} << 20;   // the format's own limit
constexpr std::uint64_t kNpzHeaderProbe = std::uint64_t{1} << 20;           // inflated bytes for a header
constexpr std::int64_t kMaxDim = 65536;

struct Bad {
    QString message;
};
[[noreturn]] void bad(const QString& m) { throw Bad{m}; }

template <class T>
T le(const char* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));   // little-endian host (x86-64, arm64)
    return v;
}

// a·b with overflow → nullopt.
std::optional<std::uint64_t> mul(std::uint64_t a, std::uint64_t b) {
    std::uint64_t r;
    if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
    return r;
}

std::optional<std::uint64_t> byteCount(const std::vector<std::int64_t>& shape, TensorDType t) {
    std::uint64_t n = static_cast<std::uint64_t>(tensorDTypeSize(t));
    for (auto s : shape) {
        if (s < 0) return std::nullopt;
        auto m = mul(n, static_cast<std::uint64_t>(s));
        if (!m) return std::nullopt;
        n = *m;
    }
    return n;
}

QString shapeText(const std::vector<std::int64_t>& shape) {
    QStringList parts;
    for (auto s : shape) parts << QString::number(s);
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

// ---- .npy header: a Python dict literal ---------------------------------------------------------

struct NpyHeader {
    std::string descr;
    bool fortran = false;
    std::vector<std::int64_t> shape;
    bool haveDescr = false, haveFortran = false, haveShape = false;
};

class DictParser {
public:
    explicit DictParser(std::string_view s) : s_(s) {}
    NpyHeader parse() {
        NpyHeader h;
        ws();
        expect('{');
        for (;;) {
            ws();
            if (peek() == '}') break;
            const std::string key = str();
            ws();
            expect(':');
            ws();
            if (key == "descr") {
                h.descr = str();
                h.haveDescr = true;
            } else if (key == "fortran_order") {
                h.fortran = boolean();
                h.haveFortran = true;
            } else if (key == "shape") {
                h.shape = tuple();
                h.haveShape = true;
            } else {
                bad(QkFile::tr("invalid .npy header: keys descr, fortran_order and shape, got '%1'")
                        .arg(printableText(key, 40)));
            }
            ws();
            if (peek() == ',') {
                ++i_;
                continue;
            }
            ws();
            if (peek() != '}') fail("',' or '}'");
        }
        if (!h.haveDescr || !h.haveFortran || !h.haveShape)
            bad(QkFile::tr("invalid .npy header: descr, fortran_order and shape, got %1 of them")
                    .arg(int(h.haveDescr) + int(h.haveFortran) + int(h.haveShape)));
        return h;
    }

private:
    char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
    void ws() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
    }
    [[noreturn]] void fail(const char* wanted) const {
        bad(QkFile::tr("invalid .npy header at character %1: %2, got '%3'")
                .arg(i_)
                .arg(QString::fromLatin1(wanted))
                .arg(i_ < s_.size() ? printableText(std::string(1, s_[i_])) : QkFile::tr("the end")));
    }
    void expect(char c) {
        if (peek() != c) fail(std::string(1, c).c_str());
        ++i_;
    }
    std::string str() {
        const char q = peek();
        if (q != '\'' && q != '"') fail("a quoted string");
        ++i_;
        const std::size_t start = i_;
        while (i_ < s_.size() && s_[i_] != q) ++i_;
        if (i_ >= s_.size()) fail("the closing quote");
        std::string out(s_.substr(start, i_ - start));
        ++i_;
        return out;
    }
    bool boolean() {
        if (s_.substr(i_, 4) == "True") {
            i_ += 4;
            return true;
        }
        if (s_.substr(i_, 5) == "False") {
            i_ += 5;
            return false;
        }
        fail("True or False");
    }
    std::vector<std::int64_t> tuple() {
        expect('(');
        std::vector<std::int64_t> out;
        for (;;) {
            ws();
            if (peek() == ')') {
                ++i_;
                return out;
            }
            if (peek() < '0' || peek() > '9') fail("a dimension (digits)");
            std::int64_t v = 0;
            while (peek() >= '0' && peek() <= '9') {
                if (v > (std::numeric_limits<std::int64_t>::max() - 9) / 10) fail("a dimension below 2^63");
                v = v * 10 + (peek() - '0');
                ++i_;
            }
            if (peek() == 'L') ++i_;
            if (out.size() >= 32) fail("at most 32 dimensions");
            out.push_back(v);
            ws();
            if (peek() == ',') ++i_;
            else if (peek() != ')') fail("',' or ')'");
        }
    }

    std::string_view s_;
    std::size_t i_ = 0;
};

// Parses the .npy header in [data, data + avail) of an array whose whole file is `total` bytes.
TensorEntry parseNpyHeader(const char* data, std::size_t avail, std::uint64_t total) {
    if (avail < 10) bad(QkFile::tr("truncated .npy header: at least 10 bytes, got %1").arg(avail));
    if (std::memcmp(data, "\x93NUMPY", 6) != 0) bad(QkFile::tr("not a .npy file: magic \\x93NUMPY, got %1")
                                                        .arg(printableText(std::string(data, 6))));
    const auto major = static_cast<unsigned char>(data[6]);
    std::uint64_t hlen = 0, start = 0;
    if (major == 1) {
        hlen = le<std::uint16_t>(data + 8);
        start = 10;
    } else if (major == 2 || major == 3) {
        if (avail < 12) bad(QkFile::tr("truncated .npy header: at least 12 bytes, got %1").arg(avail));
        hlen = le<std::uint32_t>(data + 8);
        start = 12;
    } else {
        bad(QkFile::tr("unsupported .npy version, 1, 2 or 3, got %1").arg(major));
    }
    if (start + hlen > avail)
        bad(QkFile::tr("truncated .npy header: %1 header bytes, the file has %2").arg(hlen).arg(avail - start));
    const NpyHeader h = DictParser(std::string_view(data + start, static_cast<std::size_t>(hlen))).parse();
    TensorEntry e;
    if (h.descr == "<f2") e.dtype = TensorDType::F16;
    else if (h.descr == "<f4") e.dtype = TensorDType::F32;
    else if (h.descr == "<f8") e.dtype = TensorDType::F64;
    else
        bad(QkFile::tr("wrong dtype, float16, float32 or float64 little-endian ('<f2', '<f4', '<f8'), got '%1'")
                .arg(printableText(h.descr, 20)));
    if (h.fortran)
        bad(QkFile::tr("Fortran order, C order (np.ascontiguousarray), got fortran_order True"));
    e.shape = h.shape;
    const auto bytes = byteCount(e.shape, e.dtype);
    if (!bytes) bad(QkFile::tr("invalid .npy shape %1: its size overflows").arg(shapeText(e.shape)));
    e.offset = start + hlen;
    e.bytes = *bytes;
    if (total - e.offset < e.bytes)
        bad(QkFile::tr("truncated .npy data: shape %1 of %2 needs %3 bytes, the file has %4")
                .arg(shapeText(e.shape), QString::fromLatin1(tensorDTypeName(e.dtype)))
                .arg(e.bytes)
                .arg(total - e.offset));
    return e;
}

// ---- .npz: a zip of .npy members ----------------------------------------------------------------

TensorList parseNpzImpl(const char* data, std::size_t size) {
    TensorList out;
    if (size < 22) bad(QkFile::tr("truncated .npz: a zip end record (22 bytes), got %1 bytes").arg(size));
    std::size_t eocd = std::string::npos;
    const std::size_t lowest = size >= 22 + 65535 ? size - 22 - 65535 : 0;
    for (std::size_t p = size - 22 + 1; p-- > lowest;)
        if (le<std::uint32_t>(data + p) == 0x06054b50u) {
            eocd = p;
            break;
        }
    if (eocd == std::string::npos) bad(QkFile::tr("truncated .npz: no zip end record (the archive is cut short)"));
    std::uint64_t entries = le<std::uint16_t>(data + eocd + 10);
    std::uint64_t cdSize = le<std::uint32_t>(data + eocd + 12);
    std::uint64_t cdOffset = le<std::uint32_t>(data + eocd + 16);
    if (entries == 0xFFFF || cdOffset == 0xFFFFFFFFu || cdSize == 0xFFFFFFFFu) {
        if (eocd < 20 || le<std::uint32_t>(data + eocd - 20) != 0x07064b50u)
            bad(QkFile::tr("invalid .npz: zip64 end locator missing"));
        const std::uint64_t e64 = le<std::uint64_t>(data + eocd - 20 + 8);
        if (e64 > size || size - e64 < 56 || le<std::uint32_t>(data + e64) != 0x06064b50u)
            bad(QkFile::tr("invalid .npz: zip64 end record missing"));
        entries = le<std::uint64_t>(data + e64 + 32);
        cdSize = le<std::uint64_t>(data + e64 + 40);
        cdOffset = le<std::uint64_t>(data + e64 + 48);
    }
    if (cdOffset > size || cdSize > size - cdOffset)
        bad(QkFile::tr("truncated .npz: central directory at %1 (%2 bytes), the file has %3").arg(cdOffset).arg(cdSize).arg(size));
    if (entries > cdSize / 46) bad(QkFile::tr("invalid .npz: %1 entries do not fit the central directory").arg(entries));
    std::uint64_t p = cdOffset;
    const std::uint64_t cdEnd = cdOffset + cdSize;
    for (std::uint64_t n = 0; n < entries; ++n) {
        if (cdEnd - p < 46 || le<std::uint32_t>(data + p) != 0x02014b50u)
            bad(QkFile::tr("invalid .npz: central directory entry %1 is damaged").arg(n));
        const std::uint16_t flags = le<std::uint16_t>(data + p + 8);
        const std::uint16_t method = le<std::uint16_t>(data + p + 10);
        std::uint64_t comp = le<std::uint32_t>(data + p + 20);
        std::uint64_t uncomp = le<std::uint32_t>(data + p + 24);
        const std::uint16_t nameLen = le<std::uint16_t>(data + p + 28);
        const std::uint16_t extraLen = le<std::uint16_t>(data + p + 30);
        const std::uint16_t commentLen = le<std::uint16_t>(data + p + 32);
        std::uint64_t local = le<std::uint32_t>(data + p + 42);
        if (cdEnd - p - 46 < std::uint64_t{nameLen} + extraLen + commentLen)
            bad(QkFile::tr("invalid .npz: central directory entry %1 is damaged").arg(n));
        std::string name(data + p + 46, nameLen);
        // Zip64 extra field (id 1): the 0xFFFFFFFF values in order uncompressed, compressed, offset.
        for (std::uint64_t x = p + 46 + nameLen; x + 4 <= p + 46 + nameLen + extraLen;) {
            const std::uint16_t id = le<std::uint16_t>(data + x), len = le<std::uint16_t>(data + x + 2);
            if (x + 4 + len > p + 46 + nameLen + extraLen) break;
            if (id == 1) {
                std::uint64_t y = x + 4;
                auto take = [&](std::uint64_t& v) {
                    if (v == 0xFFFFFFFFu && y + 8 <= x + 4 + len) {
                        v = le<std::uint64_t>(data + y);
                        y += 8;
                    }
                };
                take(uncomp);
                take(comp);
                take(local);
            }
            x += 4 + len;
        }
        p += 46 + std::uint64_t{nameLen} + extraLen + commentLen;
        if (name.size() < 4 || name.compare(name.size() - 4, 4, ".npy") != 0) continue;   // not an array
        const std::string tensor = name.substr(0, name.size() - 4);
        auto member = [&](const QString& what) {
            return QkFile::tr("member %1: %2").arg(printableText(name, 60), what);
        };
        if (flags & 1) bad(member(QkFile::tr("encrypted, an unencrypted archive")));
        if (method != 0 && method != 8)
            bad(member(QkFile::tr("compression method 0 (np.savez) or 8 (np.savez_compressed), got %1").arg(method)));
        if (local > size || size - local < 30 || le<std::uint32_t>(data + local) != 0x04034b50u)
            bad(member(QkFile::tr("truncated: its local header at %1 is missing").arg(local)));
        const std::uint64_t dataOff =
            local + 30 + le<std::uint16_t>(data + local + 26) + std::uint64_t{le<std::uint16_t>(data + local + 28)};
        if (dataOff > size || comp > size - dataOff)
            bad(member(QkFile::tr("truncated: %1 bytes at %2, the file has %3").arg(comp).arg(dataOff).arg(size)));
        try {
            TensorEntry e;
            if (method == 0) {
                if (comp != uncomp) bad(QkFile::tr("stored sizes differ (%1 and %2)").arg(comp).arg(uncomp));
                e = parseNpyHeader(data + dataOff, static_cast<std::size_t>(comp), comp);
                e.offset += dataOff;
            } else {
                QString err;
                const auto head = inflateRange(data + dataOff, static_cast<std::size_t>(comp), 0,
                                               std::min(uncomp, kNpzHeaderProbe), err);
                if (!head) bad(err);
                e = parseNpyHeader(head->data(), head->size(), uncomp);
                e.deflated = true;
                e.dataStart = e.offset;
                e.offset = dataOff;
                e.compressedBytes = comp;
            }
            e.name = tensor;
            out.tensors.push_back(std::move(e));
        } catch (const Bad& b) {
            bad(member(b.message));
        }
    }
    if (out.tensors.empty()) bad(QkFile::tr("no arrays in the .npz, NAME.npy members, got %1 entries").arg(entries));
    return out;
}

// ---- .safetensors -------------------------------------------------------------------------------

TensorList parseSafetensorsImpl(const char* data, std::size_t size) {
    TensorList out;
    if (size < 8) bad(QkFile::tr("truncated .safetensors header: 8 bytes of header length, got %1").arg(size));
    const std::uint64_t n = le<std::uint64_t>(data);
    if (n > kMaxSafetensorsHeader)
        bad(QkFile::tr("invalid .safetensors header length, at most %1 bytes, got %2").arg(kMaxSafetensorsHeader).arg(n));
    if (n > size - 8)
        bad(QkFile::tr("truncated .safetensors header: %1 bytes, the file has %2").arg(n).arg(size - 8));
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromRawData(data + 8, static_cast<qsizetype>(n)), &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        bad(QkFile::tr("invalid .safetensors header: a JSON object, got %1 at byte %2")
                .arg(pe.error != QJsonParseError::NoError ? pe.errorString() : QkFile::tr("another JSON value"))
                .arg(pe.offset));
    const std::uint64_t dataBytes = size - 8 - n;
    const QJsonObject o = doc.object();
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (it.key() == QLatin1String("__metadata__")) continue;
        const QString name = printableText(it.key().toStdString(), 60);
        if (!it.value().isObject()) bad(QkFile::tr("tensor %1: an object {dtype, shape, data_offsets}").arg(name));
        const QJsonObject t = it.value().toObject();
        TensorEntry e;
        e.name = it.key().toStdString();
        const QString dt = t.value(QLatin1String("dtype")).toString();
        if (dt == QLatin1String("F16")) e.dtype = TensorDType::F16;
        else if (dt == QLatin1String("BF16")) e.dtype = TensorDType::BF16;
        else if (dt == QLatin1String("F32")) e.dtype = TensorDType::F32;
        else if (dt == QLatin1String("F64")) e.dtype = TensorDType::F64;
        else {
            // Another dtype is fine for a tensor nobody asks for: recorded with an empty shape.
            e.shape = {-1};
            e.name += '\0';
            e.name += dt.left(20).toStdString();
            out.tensors.push_back(std::move(e));
            continue;
        }
        const QJsonValue shape = t.value(QLatin1String("shape"));
        const QJsonValue offs = t.value(QLatin1String("data_offsets"));
        if (!shape.isArray() || shape.toArray().size() > 32)
            bad(QkFile::tr("tensor %1: shape, an array of at most 32 dimensions").arg(name));
        for (const auto& v : shape.toArray()) {
            const double x = v.toDouble(-1);
            if (!v.isDouble() || x < 0 || x > 9.0e15 || x != std::floor(x))
                bad(QkFile::tr("tensor %1: shape, non-negative integers").arg(name));
            e.shape.push_back(static_cast<std::int64_t>(x));
        }
        if (!offs.isArray() || offs.toArray().size() != 2)
            bad(QkFile::tr("tensor %1: data_offsets, [begin, end]").arg(name));
        const double b = offs.toArray().at(0).toDouble(-1), en = offs.toArray().at(1).toDouble(-1);
        if (b < 0 || en < b || b != std::floor(b) || en != std::floor(en) || en > 9.0e15)
            bad(QkFile::tr("tensor %1: data_offsets, integers 0 <= begin <= end").arg(name));
        const auto bytes = byteCount(e.shape, e.dtype);
        if (!bytes) bad(QkFile::tr("tensor %1: shape %2 overflows").arg(name, shapeText(e.shape)));
        const auto ub = static_cast<std::uint64_t>(b), ue = static_cast<std::uint64_t>(en);
        if (ue - ub != *bytes)
            bad(QkFile::tr("tensor %1: data_offsets span %2 bytes, shape %3 of %4 needs %5")
                    .arg(name)
                    .arg(ue - ub)
                    .arg(shapeText(e.shape), QString::fromLatin1(tensorDTypeName(e.dtype)))
                    .arg(*bytes));
        if (ue > dataBytes)
            bad(QkFile::tr("truncated .safetensors data: tensor %1 ends at byte %2, the data has %3").arg(name).arg(ue).arg(dataBytes));
        e.offset = 8 + n + ub;
        e.bytes = *bytes;
        out.tensors.push_back(std::move(e));
    }
    return out;
}

template <class F>
TensorList guardedParse(F&& f) {
    try {
        return f();
    } catch (const Bad& b) {
        TensorList t;
        t.error = b.message;
        return t;
    } catch (const std::bad_alloc&) {
        TensorList t;
        t.error = QkFile::tr("not enough memory to read the header");
        return t;
    }
}

// ---- values -------------------------------------------------------------------------------------

double halfToDouble(std::uint16_t h) {
    const int sign = h >> 15, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    double v;
    if (exp == 0) v = std::ldexp(static_cast<double>(man), -24);
    else if (exp == 31) v = man ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else v = std::ldexp(static_cast<double>(man | 0x400), exp - 25);
    return sign ? -v : v;
}

double valueAt(const unsigned char* p, TensorDType t) {
    switch (t) {
    case TensorDType::F16: return halfToDouble(le<std::uint16_t>(reinterpret_cast<const char*>(p)));
    case TensorDType::BF16: {
        const std::uint32_t bits = std::uint32_t{le<std::uint16_t>(reinterpret_cast<const char*>(p))} << 16;
        return static_cast<double>(std::bit_cast<float>(bits));
    }
    case TensorDType::F32: return static_cast<double>(le<float>(reinterpret_cast<const char*>(p)));
    case TensorDType::F64: return le<double>(reinterpret_cast<const char*>(p));
    }
    return 0;
}

// The bytes a side reads from: a mapped file or a copy.
struct Holder {
    QFile file;
    uchar* map = nullptr;
    std::string copy;
    ~Holder() {
        if (map) file.unmap(map);
    }
};

struct Side {
    std::shared_ptr<Holder> holder;
    const unsigned char* rows = nullptr;   // the chosen head's first row
    std::string inflated;                  // deflated .npz: the chosen head's bytes
    TensorDType dtype = TensorDType::F32;
    std::int64_t n = 0;
    int d = 0;
    int heads = 1;
};

}  // namespace

class QkContent final : public ContentSource {
public:
    QkContent(Side q, Side k, std::string name) : q_(std::move(q)), k_(std::move(k)), name_(std::move(name)) {}
    std::int64_t length() const override { return q_.n; }
    int dim() const override { return q_.d; }
    std::string name() const override { return name_; }
    Matrix rows(bool key, const Positions& positions) const override {
        const Side& s = key ? k_ : q_;
        Matrix m(static_cast<Eigen::Index>(positions.size()), s.d);
        const int sz = tensorDTypeSize(s.dtype);
        for (std::size_t r = 0; r < positions.size(); ++r) {
            const std::int64_t p = std::clamp<std::int64_t>(positions[r], 0, s.n - 1);   // precondition: in range
            const unsigned char* row = s.rows + static_cast<std::size_t>(p) * static_cast<std::size_t>(s.d) * sz;
            for (int c = 0; c < s.d; ++c) m(static_cast<Eigen::Index>(r), c) = valueAt(row + c * sz, s.dtype);
        }
        return m;
    }

private:
    Side q_, k_;
    std::string name_;
};

const char* tensorDTypeName(TensorDType t) {
    switch (t) {
    case TensorDType::F16: return "float16";
    case TensorDType::BF16: return "bfloat16";
    case TensorDType::F32: return "float32";
    case TensorDType::F64: return "float64";
    }
    return "?";
}

int tensorDTypeSize(TensorDType t) {
    switch (t) {
    case TensorDType::F16:
    case TensorDType::BF16: return 2;
    case TensorDType::F32: return 4;
    case TensorDType::F64: return 8;
    }
    return 1;
}

TensorList parseNpy(const char* data, std::size_t size) {
    return guardedParse([&] {
        TensorList t;
        t.tensors.push_back(parseNpyHeader(data, size, size));
        return t;
    });
}
TensorList parseNpz(const char* data, std::size_t size) {
    return guardedParse([&] { return parseNpzImpl(data, size); });
}
TensorList parseSafetensors(const char* data, std::size_t size) {
    return guardedParse([&] { return parseSafetensorsImpl(data, size); });
}
TensorList parseTensorFile(const char* data, std::size_t size) {
    if (size >= 6 && std::memcmp(data, "\x93NUMPY", 6) == 0) return parseNpy(data, size);
    if (size >= 4 && std::memcmp(data, "PK\x03\x04", 4) == 0) return parseNpz(data, size);
    if (size >= 4 && std::memcmp(data, "PK\x05\x06", 4) == 0) return parseNpz(data, size);   // empty zip
    return parseSafetensors(data, size);
}

std::optional<std::string> inflateRange(const char* data, std::size_t size, std::uint64_t from, std::uint64_t to,
                                        QString& error) {
    z_stream z{};
    if (inflateInit2(&z, -MAX_WBITS) != Z_OK) {
        error = QkFile::tr("cannot start zlib");
        return std::nullopt;
    }
    std::string out;
    std::vector<unsigned char> buf(1 << 16);
    std::uint64_t produced = 0;
    std::size_t fed = 0;
    int rc = Z_OK;
    while (produced < to) {
        if (z.avail_in == 0 && fed < size) {
            const std::size_t chunk = std::min<std::size_t>(size - fed, 1u << 30);
            z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data + fed));
            z.avail_in = static_cast<uInt>(chunk);
            fed += chunk;
        }
        z.next_out = buf.data();
        z.avail_out = static_cast<uInt>(buf.size());
        rc = inflate(&z, Z_NO_FLUSH);
        const std::uint64_t got = buf.size() - z.avail_out;
        const std::uint64_t lo = std::max(from, produced), hi = std::min(to, produced + got);
        if (hi > lo) out.append(reinterpret_cast<const char*>(buf.data()) + (lo - produced), static_cast<std::size_t>(hi - lo));
        produced += got;
        if (rc == Z_STREAM_END) break;
        if (rc != Z_OK && !(rc == Z_BUF_ERROR && got > 0)) break;
        if (got == 0 && z.avail_in == 0 && fed >= size) break;
    }
    inflateEnd(&z);
    if (produced < to) {
        error = rc == Z_DATA_ERROR ? QkFile::tr("corrupt deflate data: %1").arg(QString::fromLatin1(z.msg ? z.msg : "?"))
                                   : QkFile::tr("truncated deflate data: %1 bytes needed, %2 inflated").arg(to).arg(produced);
        return std::nullopt;
    }
    return out;
}

namespace {

// Finds the tensor `want` ("q" or "k") in a file's list: by name, else the only tensor, else
// (an .npy file) its array.
const TensorEntry& pick(const TensorList& list, const std::string& want) {
    for (const auto& t : list.tensors)
        if (t.name == want) return t;
    std::vector<const TensorEntry*> usable;
    QStringList names;
    for (const auto& t : list.tensors) {
        const auto z = t.name.find('\0');
        if (z != std::string::npos) {
            if (t.name.substr(0, z) == want)
                bad(QkFile::tr("tensor %1: wrong dtype, F16, BF16, F32 or F64, got %2")
                        .arg(QString::fromStdString(want), printableText(t.name.substr(z + 1), 20)));
            names << printableText(t.name.substr(0, z), 30);
            continue;
        }
        usable.push_back(&t);
        names << (t.name.empty() ? QkFile::tr("(the array)") : printableText(t.name, 30));
    }
    if (list.tensors.size() == 1 && usable.size() == 1) return *usable.front();
    if (names.size() > 8) names = names.mid(0, 8) << QStringLiteral("…");
    bad(QkFile::tr("missing tensor %1, a tensor named %1, got %2")
            .arg(QString::fromStdString(want), names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", "))));
}

struct HeadShape {
    int heads = 1;
    std::int64_t n = 0;
    int d = 0;
};

HeadShape headShape(const TensorEntry& t, const char* which) {
    const auto& s = t.shape;
    HeadShape h;
    auto wrong = [&]() {
        bad(QkFile::tr("wrong shape of %1, [N, d], [H, N, d] or [1, H, N, d], got %2")
                .arg(QString::fromLatin1(which), shapeText(s)));
    };
    std::int64_t H = 1, N = 0, D = 0;
    if (s.size() == 2) {
        N = s[0];
        D = s[1];
    } else if (s.size() == 3) {
        H = s[0];
        N = s[1];
        D = s[2];
    } else if (s.size() == 4) {
        if (s[0] != 1) wrong();
        H = s[1];
        N = s[2];
        D = s[3];
    } else {
        wrong();
    }
    if (H < 1 || N < 1 || D < 1) wrong();
    if (D > kMaxDim)
        bad(QkFile::tr("wrong shape of %1: d at most %2, got %3").arg(QString::fromLatin1(which)).arg(kMaxDim).arg(D));
    if (H > std::numeric_limits<int>::max()) wrong();
    if (N > kMaxPosition)
        bad(QkFile::tr("wrong shape of %1: N at most 2^40, got %2").arg(QString::fromLatin1(which)).arg(N));
    h.heads = static_cast<int>(H);
    h.n = N;
    h.d = static_cast<int>(D);
    return h;
}

// Fills `side` with tensor t's head `head` (bytes of the buffer [data, data + size)).
void selectHead(Side& side, const TensorEntry& t, const HeadShape& hs, int head, const char* data, std::size_t size) {
    side.dtype = t.dtype;
    side.n = hs.n;
    side.d = hs.d;
    side.heads = hs.heads;
    const std::uint64_t headBytes = static_cast<std::uint64_t>(hs.n) * static_cast<std::uint64_t>(hs.d) *
                                    static_cast<std::uint64_t>(tensorDTypeSize(t.dtype));
    const std::uint64_t from = static_cast<std::uint64_t>(head) * headBytes;
    if (t.deflated) {
        QString err;
        auto bytes = inflateRange(data + t.offset, static_cast<std::size_t>(t.compressedBytes), t.dataStart + from,
                                  t.dataStart + from + headBytes, err);
        if (!bytes) bad(err);
        side.inflated = std::move(*bytes);
        side.rows = reinterpret_cast<const unsigned char*>(side.inflated.data());
    } else {
        if (t.offset + from + headBytes > size) bad(QkFile::tr("truncated data"));
        side.rows = reinterpret_cast<const unsigned char*>(data) + t.offset + from;
    }
}

// The first non-finite value of a side, as "row r, column c" or empty.
QString firstNonFinite(const Side& s) {
    const int sz = tensorDTypeSize(s.dtype);
    const std::size_t count = static_cast<std::size_t>(s.n) * static_cast<std::size_t>(s.d);
    for (std::size_t i = 0; i < count; ++i) {
        const double v = valueAt(s.rows + i * sz, s.dtype);
        if (!std::isfinite(v))
            return QkFile::tr("%1 at row %2, column %3")
                .arg(std::isnan(v) ? QStringLiteral("NaN") : QStringLiteral("Inf"))
                .arg(i / static_cast<std::size_t>(s.d))
                .arg(i % static_cast<std::size_t>(s.d));
    }
    return {};
}

struct Source {
    std::shared_ptr<Holder> holder;
    const char* data = nullptr;
    std::size_t size = 0;
    QString label;   // file name for messages
    TensorList list;
};

// Builds the content from q's and k's sources (the same source for --qk).
std::shared_ptr<const ContentSource> build(const Source& qs, const Source& ks, int head, const QString& name, bool separate = false) {
    Side q, k;
    const TensorEntry* qt = nullptr;
    const TensorEntry* kt = nullptr;
    HeadShape qh, kh;
    try {
        qt = &pick(qs.list, "q");
        qh = headShape(*qt, "q");
    } catch (const Bad& b) {
        bad(qs.label + QStringLiteral(": ") + b.message);
    }
    try {
        kt = &pick(ks.list, "k");
        if (!separate && qs.holder == ks.holder && qt->name == kt->name && qt->offset == kt->offset) bad(QkFile::tr("missing tensor k, a tensor named k beside q, got only one tensor"));
        kh = headShape(*kt, "k");
    } catch (const Bad& b) {
        bad(ks.label + QStringLiteral(": ") + b.message);
    }
    if (head < 0 || head >= qh.heads)
        bad(QkFile::tr("%1: --head, an integer from 0 to %2 (the q tensor's heads − 1), got %3")
                .arg(qs.label)
                .arg(qh.heads - 1)
                .arg(head));
    if (kh.n != qh.n || kh.d != qh.d)
        bad(QkFile::tr("%1: shape of k, the N and d of q (%2, %3), got %4")
                .arg(ks.label)
                .arg(qh.n)
                .arg(qh.d)
                .arg(shapeText(kt->shape)));
    int kHead = head;
    if (kh.heads != qh.heads) {
        if (qh.heads % kh.heads != 0)
            bad(QkFile::tr("%1: heads of k, a divisor of q's %2 heads (grouped-query attention), got %3")
                    .arg(ks.label)
                    .arg(qh.heads)
                    .arg(kh.heads));
        kHead = head / (qh.heads / kh.heads);
    }
    try {
        selectHead(q, *qt, qh, head, qs.data, qs.size);
    } catch (const Bad& b) {
        bad(qs.label + QkFile::tr(": tensor q: ") + b.message);
    }
    try {
        selectHead(k, *kt, kh, kHead, ks.data, ks.size);
    } catch (const Bad& b) {
        bad(ks.label + QkFile::tr(": tensor k: ") + b.message);
    }
    q.holder = qs.holder;
    k.holder = ks.holder;
    if (const QString w = firstNonFinite(q); !w.isEmpty())
        bad(QkFile::tr("%1: tensor q (head %2), finite values, got %3").arg(qs.label).arg(head).arg(w));
    if (const QString w = firstNonFinite(k); !w.isEmpty())
        bad(QkFile::tr("%1: tensor k (head %2), finite values, got %3").arg(ks.label).arg(kHead).arg(w));
    return std::make_shared<QkContent>(std::move(q), std::move(k), name.toStdString());
}

// Opens and maps a file; the error names it.
Source openSource(const QString& path, bool& io) {
    Source s;
    s.label = QFileInfo(path).fileName();
    if (s.label.isEmpty()) s.label = path;
    s.label = printableText(s.label.toStdString(), 80);
    s.holder = std::make_shared<Holder>();
    s.holder->file.setFileName(path);
    if (!s.holder->file.open(QIODevice::ReadOnly)) {
        io = true;
        bad(QkFile::tr("%1: cannot read: %2").arg(s.label, s.holder->file.errorString()));
    }
    const qint64 size = s.holder->file.size();
    if (size <= 0) bad(QkFile::tr("%1: empty file, a .npy, .npz or .safetensors file").arg(s.label));
    s.holder->map = s.holder->file.map(0, size);
    if (!s.holder->map) {
        io = true;
        bad(QkFile::tr("%1: cannot map: %2").arg(s.label, s.holder->file.errorString()));
    }
    s.data = reinterpret_cast<const char*>(s.holder->map);
    s.size = static_cast<std::size_t>(size);
    s.list = parseTensorFile(s.data, s.size);
    if (!s.list.ok()) bad(s.label + QStringLiteral(": ") + s.list.error);
    return s;
}

}  // namespace

QkLoad loadQk(const QString& qPath, const QString& kPath, int head, bool separate) {
    QkLoad out;
    try {
        const Source qs = openSource(qPath, out.io);
        const Source ks = kPath == qPath ? qs : openSource(kPath, out.io);
        const QString name = kPath == qPath ? qs.label : qs.label + QStringLiteral(", ") + ks.label;
        out.content = build(qs, ks, head, name, separate);
    } catch (const Bad& b) {
        out.error = b.message;
    } catch (const std::bad_alloc&) {
        out.error = QkFile::tr("%1: not enough memory").arg(QFileInfo(qPath).fileName());
    }
    return out;
}

void refreshQk(SceneParams& scene) {
    if (scene.qFile.isEmpty()) {
        scene.qk.reset();
        return;
    }
    const QString k = scene.kFile.isEmpty() ? scene.qFile : scene.kFile;
    if (scene.qk && scene.qk->qFile == scene.qFile && scene.qk->kFile == scene.kFile && scene.qk->head == scene.head) return;
    auto st = std::make_shared<QkState>();
    st->qFile = scene.qFile;
    st->kFile = scene.kFile;
    st->head = scene.head;
    const QkLoad r = loadQk(scene.qFile, k, scene.head, !scene.kFile.isEmpty());
    st->content = r.content;
    st->error = r.error;
    scene.qk = std::move(st);
}

namespace {
// A tensor in memory as a source holding one unnamed tensor (as a .npy file does).
Source bufferSource(const TensorBuffer& b) {
    Source s;
    s.label = b.label;
    s.holder = std::make_shared<Holder>();
    TensorEntry e;
    e.dtype = b.dtype;
    e.shape = b.shape;
    const auto bytes = byteCount(e.shape, e.dtype);
    if (!bytes || *bytes > static_cast<std::uint64_t>(std::numeric_limits<std::ptrdiff_t>::max()))
        bad(QkFile::tr("%1: shape %2: its size overflows").arg(b.label, shapeText(e.shape)));
    e.bytes = *bytes;
    s.data = static_cast<const char*>(b.data);
    s.size = static_cast<std::size_t>(e.bytes);
    s.list.tensors.push_back(std::move(e));
    return s;
}
}  // namespace

QkLoad loadQk(const QkInput& q, const QkInput& k, int head) {
    QkLoad out;
    auto open = [&](const QkInput& in) {
        if (const auto* path = std::get_if<QString>(&in)) return openSource(*path, out.io);
        return bufferSource(std::get<TensorBuffer>(in));
    };
    try {
        const Source qs = open(q);
        const Source ks = open(k);
        out.content = build(qs, ks, head, qs.label + QStringLiteral(", ") + ks.label, true);
    } catch (const Bad& b) {
        out.error = b.message;
    } catch (const std::bad_alloc&) {
        out.error = QkFile::tr("not enough memory for the query and key rows");
    }
    return out;
}

QkLoad loadQkFromBuffer(const char* data, std::size_t size, int head, const QString& name) {
    QkLoad out;
    try {
        Source s;
        s.label = name;
        s.holder = std::make_shared<Holder>();
        s.holder->copy.assign(data, size);
        s.data = s.holder->copy.data();
        s.size = size;
        s.list = parseTensorFile(s.data, s.size);
        if (!s.list.ok()) bad(name + QStringLiteral(": ") + s.list.error);
        out.content = build(s, s, head, name);
    } catch (const Bad& b) {
        out.error = b.message;
    } catch (const std::bad_alloc&) {
        out.error = QkFile::tr("%1: not enough memory").arg(name);
    }
    return out;
}

}  // namespace poslab::ui
