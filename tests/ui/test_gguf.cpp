// GGUF metadata (ui/io/gguf.h): a small GGUF written here (header, keys of every scalar type, an
// array, tensor infos with rope_freqs.weight and its data) reads back with its values and rope
// frequencies; an excerpt that ends where the tensor infos begin reads without them; damaged
// files (wrong magic, bad version, huge counts, cut in the header or in the tensor table, bad
// rope_freqs) are refused with the documented message, never read past their end.
#include "ui/io/gguf.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cstring>

using namespace poslab::ui;

namespace {

// Little-endian writer of GGUF's pieces.
struct Writer {
    QByteArray b;
    template <typename T> Writer& put(T v) {
        char bytes[sizeof(T)];
        std::memcpy(bytes, &v, sizeof(T));
        b.append(bytes, sizeof(T));
        return *this;
    }
    Writer& str(const std::string& s) {
        put<std::uint64_t>(s.size());
        b.append(s.data(), qsizetype(s.size()));
        return *this;
    }
};

constexpr std::uint32_t kF32 = 6, kU32 = 4, kString = 8, kArray = 9, kBool = 7, kU64 = 10;

struct Built {
    QByteArray bytes;
    qsizetype metadataEnd = 0;   // where the tensor infos begin
    qsizetype tableEnd = 0;      // where the tensor infos end
};

// A GGUF v3 with Llama-style rope keys, one array, and two tensors (a matrix and
// rope_freqs.weight with `freqs`).
Built buildGguf(const std::vector<float>& freqs, std::uint32_t version = 3) {
    Writer w;
    w.b.append("GGUF", 4);
    w.put<std::uint32_t>(version).put<std::uint64_t>(2).put<std::uint64_t>(6);
    w.str("general.architecture").put<std::uint32_t>(kString).str("llama");
    w.str("llama.rope.freq_base").put<std::uint32_t>(kF32).put<float>(500000.0f);
    w.str("llama.rope.dimension_count").put<std::uint32_t>(kU32).put<std::uint32_t>(128);
    w.str("llama.context_length").put<std::uint32_t>(kU64).put<std::uint64_t>(131072);
    w.str("tokenizer.ggml.scores").put<std::uint32_t>(kArray).put<std::uint32_t>(kF32).put<std::uint64_t>(3)
        .put<float>(1).put<float>(2).put<float>(3);
    w.str("general.flag").put<std::uint32_t>(kBool).put<std::uint8_t>(1);
    Built out;
    out.metadataEnd = w.b.size();
    w.str("token_embd.weight").put<std::uint32_t>(2).put<std::uint64_t>(4).put<std::uint64_t>(2)
        .put<std::uint32_t>(0).put<std::uint64_t>(0);
    w.str("rope_freqs.weight").put<std::uint32_t>(1).put<std::uint64_t>(freqs.size())
        .put<std::uint32_t>(0).put<std::uint64_t>(32);   // after the 4×2 F32 matrix, aligned
    out.tableEnd = w.b.size();
    while (w.b.size() % 32) w.b.append('\0');
    for (int i = 0; i < 8; ++i) w.put<float>(0.5f);
    while (w.b.size() % 32) w.b.append('\0');
    for (float f : freqs) w.put<float>(f);
    out.bytes = w.b;
    return out;
}

GgufResult parse(const QByteArray& b) { return parseGgufMetadata(b.constData(), std::size_t(b.size())); }

}  // namespace

class TestGguf : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsKeysAndRopeFreqs_data() {
        QTest::addColumn<QList<float>>("freqs");
        QTest::addColumn<bool>("fromFile");
        QTest::newRow("one frequency, bytes") << QList<float>{1.0f} << false;
        QTest::newRow("Llama 3 divisors, bytes") << QList<float>{1.0f, 1.0f, 2.5f, 8.0f} << false;
        QTest::newRow("Llama 3 divisors, file") << QList<float>{1.0f, 1.0f, 2.5f, 8.0f} << true;
    }
    void readsKeysAndRopeFreqs() {
        QFETCH(QList<float>, freqs);
        QFETCH(bool, fromFile);
        const Built g = buildGguf({freqs.begin(), freqs.end()});
        GgufResult r;
        if (fromFile) {
            QTemporaryDir dir;
            QFile f(dir.filePath(QStringLiteral("m.gguf")));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(g.bytes);
            f.close();
            r = readGgufMetadata(f.fileName());
        } else {
            r = parse(g.bytes);
        }
        QVERIFY2(r.meta, qPrintable(r.error));
        const GgufMetadata& m = *r.meta;
        QCOMPARE(m.version, 3u);
        QCOMPARE(m.tensorCount, 2u);
        QCOMPARE(m.kv.size(), std::size_t(6));
        QCOMPARE(std::get<std::string>(m.find("general.architecture")->value), std::string("llama"));
        QCOMPARE(std::get<double>(m.find("llama.rope.freq_base")->value), 500000.0);
        QCOMPARE(std::get<std::int64_t>(m.find("llama.rope.dimension_count")->value), std::int64_t(128));
        QCOMPARE(std::get<std::uint64_t>(m.find("llama.context_length")->value), std::uint64_t(131072));
        QCOMPARE(std::get<bool>(m.find("general.flag")->value), true);
        const GgufValue* scores = m.find("tokenizer.ggml.scores");
        QVERIFY(scores && scores->isArray);
        QCOMPARE(scores->arrayCount, std::uint64_t(3));
        QVERIFY(!m.find("llama.rope.scaling.type"));
        QCOMPARE(m.ropeFreqs.size(), std::size_t(freqs.size()));
        for (qsizetype i = 0; i < freqs.size(); ++i) QCOMPARE(m.ropeFreqs[std::size_t(i)], double(freqs[i]));
    }

    void metadataExcerptHasNoRopeFreqs() {
        const Built g = buildGguf({1.0f, 4.0f});
        const GgufResult r = parse(g.bytes.left(g.metadataEnd));
        QVERIFY2(r.meta, qPrintable(r.error));
        QCOMPARE(r.meta->kv.size(), std::size_t(6));
        QVERIFY(r.meta->ropeFreqs.empty());
    }

    void damagedFilesAreRefused_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("error");
        const Built g = buildGguf({1.0f, 4.0f});
        auto patched = [&](qsizetype at, const QByteArray& with) {
            QByteArray b = g.bytes;
            b.replace(at, with.size(), with);
            return b;
        };
        auto u64 = [](std::uint64_t v) { return Writer{}.put(v).b; };
        QTest::newRow("empty") << QByteArray() << QStringLiteral("not a GGUF file (no \"GGUF\" magic)");
        QTest::newRow("magic GGML") << patched(0, "GGML") << QStringLiteral("not a GGUF file (no \"GGUF\" magic)");
        QTest::newRow("version 1") << patched(4, Writer{}.put<std::uint32_t>(1).b)
                                   << QStringLiteral("unsupported GGUF version, 2 or 3, got 1");
        QTest::newRow("tensor count 2^40") << patched(8, u64(1ull << 40))
                                           << QStringLiteral("invalid GGUF tensor count, at most 16777216, got 1099511627776");
        QTest::newRow("metadata count 2^62") << patched(16, u64(1ull << 62))
                                             << QStringLiteral("invalid GGUF metadata count, at most 1048576, got 4611686018427387904");
        QTest::newRow("key length 2^63") << patched(24, u64(1ull << 63))
                                         << QStringLiteral("invalid GGUF key: length at most 65535, got 9223372036854775808");
        QTest::newRow("cut in the version") << g.bytes.left(6) << QStringLiteral("truncated GGUF header: version needs 4 bytes at offset 4, the file has 6");
        QTest::newRow("cut in the tensor table")
            << g.bytes.left(g.metadataEnd + 10)
            << QStringLiteral("truncated GGUF tensor table: tensor 1 of 2 is cut at byte %1, the file has %2 "
                              "(a complete table, or the metadata alone)").arg(g.metadataEnd + 8).arg(g.metadataEnd + 10);
        QTest::newRow("cut in the second tensor")
            << g.bytes.left(g.tableEnd - 3)
            << QStringLiteral("truncated GGUF tensor table: tensor 2 of 2 is cut at byte %1, the file has %2 "
                              "(a complete table, or the metadata alone)").arg(g.tableEnd - 8).arg(g.tableEnd - 3);
        QTest::newRow("cut in rope_freqs data")
            << g.bytes.left(g.bytes.size() - 2)
            << QStringLiteral("truncated GGUF data: rope_freqs.weight needs 8 bytes at %1, the file has %2").arg(g.bytes.size() - 8).arg(g.bytes.size() - 2);
        QTest::newRow("rope_freqs 0") << buildGguf({1.0f, 0.0f}).bytes
                                      << QStringLiteral("invalid GGUF rope_freqs.weight[1], a finite number > 0, got 0");
    }
    void damagedFilesAreRefused() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, error);
        // A copy exactly the size of the bytes: reading past it is caught by the sanitizers.
        const std::unique_ptr<char[]> exact(new char[std::size_t(bytes.size()) + 1]);
        std::memcpy(exact.get(), bytes.constData(), std::size_t(bytes.size()));
        const GgufResult r = parseGgufMetadata(exact.get(), std::size_t(bytes.size()));
        QVERIFY(!r.meta);
        QCOMPARE(r.error, error);
        QVERIFY(!r.error.contains(QLatin1Char('\n')));
    }

    void missingFileIsAnError() {
        const GgufResult r = readGgufMetadata(QStringLiteral("/nonexistent/poslab/m.gguf"));
        QVERIFY(!r.meta);
        QVERIFY(r.error.startsWith(QStringLiteral("cannot read: ")));
    }

    void printableTextIsOneLine_data() {
        QTest::addColumn<QByteArray>("in");
        QTest::addColumn<QString>("out");
        QTest::newRow("plain") << QByteArray("llama.rope") << QStringLiteral("llama.rope");
        QTest::newRow("newline") << QByteArray("a\nb") << QStringLiteral("a\\x0ab");
        QTest::newRow("byte 0xff") << QByteArray("a\xff") << QStringLiteral("a\\xff");
        QTest::newRow("90 bytes") << QByteArray(90, 'x') << QString(80, QLatin1Char('x')) + QStringLiteral("…");
    }
    void printableTextIsOneLine() {
        QFETCH(QByteArray, in);
        QFETCH(QString, out);
        QCOMPARE(printableText(in.toStdString()), out);
    }
};

QTEST_APPLESS_MAIN(TestGguf)
#include "test_gguf.moc"
