// Real queries and keys (ui/io/qkfile.h): .npy, .npz (stored and deflated) and .safetensors in
// float16, bfloat16, float32 and float64, shapes [N,d], [H,N,d] and [1,H,N,d], give the scores
// NumPy computes by RoPE-then-dot on the same arrays (tests/data/qk/make_qk.py wrote the files and
// expected.json with NumPy); the decay is the mean over the file's rows. Corrupt files written
// here are refused with one line naming the file and what is wrong.
#include "support/markertranslator.h"
#include "support/testsupport.h"

#include "core/decay.h"
#include "ui/io/qkfile.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <cmath>
#include <cstring>

using namespace poslab;
using namespace poslab::ui;

namespace {

const QString kDataDir = QStringLiteral(POSLAB_SOURCE_DIR "/tests/data/qk");

QJsonObject expected() {
    QFile f(kDataDir + QStringLiteral("/expected.json"));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

using testsupport::readAll;

bool writeAll(const QString& path, const QByteArray& b) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(b) == b.size();
}

ScoreParams ropeParams(const std::shared_ptr<const ContentSource>& src, Precision pr) {
    ScoreParams p;
    p.method = Method::Rope;
    p.dim = src ? src->dim() : 8;
    p.precision = pr;
    p.source = src;
    return p;
}

// A .npy file written here (version 1.0), independent of the reader.
QByteArray npy(const QByteArray& descr, const QByteArray& fortran, const QByteArray& shape, const QByteArray& data) {
    QByteArray h = "{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + shape + ", }";
    while ((10 + h.size() + 1) % 64 != 0) h += ' ';
    h += '\n';
    QByteArray out("\x93NUMPY\x01\x00", 8);
    const quint16 n = static_cast<quint16>(h.size());
    out.append(reinterpret_cast<const char*>(&n), 2);
    return out + h + data;
}

QByteArray floats(const std::vector<float>& v) {
    return QByteArray(reinterpret_cast<const char*>(v.data()), static_cast<qsizetype>(v.size() * sizeof(float)));
}

// A .safetensors file written here: {name: (dtype, shape, bytes)}.
QByteArray safetensors(const std::vector<std::tuple<QString, QString, QJsonArray, QByteArray>>& ts) {
    QJsonObject header;
    QByteArray data;
    for (const auto& [name, dt, shape, bytes] : ts) {
        header[name] = QJsonObject{{"dtype", dt}, {"shape", shape}, {"data_offsets", QJsonArray{data.size(), data.size() + bytes.size()}}};
        data += bytes;
    }
    const QByteArray h = QJsonDocument(header).toJson(QJsonDocument::Compact);
    const quint64 n = static_cast<quint64>(h.size());
    return QByteArray(reinterpret_cast<const char*>(&n), 8) + h + data;
}

std::vector<float> ramp(int count, float scale = 0.25f) {
    std::vector<float> v(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) v[static_cast<std::size_t>(i)] = std::sin(0.3f + 1.1f * static_cast<float>(i)) * scale * 4;
    return v;
}

}  // namespace

class TestQkFile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The readers' refusals are words a translator reaches (context "QkFile").
    void errorsAreTranslated_data() {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("words");
        QTest::addRow("npy 5 bytes") << "npy" << QByteArray("\x93NUMP", 5) << "truncated .npy header: at least 10 bytes, got 5";
        QTest::addRow("npz 6 bytes") << "npz" << QByteArray("PK\x03\x04" "ab", 6) << "truncated .npz: a zip end record (22 bytes), got 6 bytes";
        QTest::addRow("safetensors 3 bytes") << "safetensors" << QByteArray("abc") << "truncated .safetensors header: 8 bytes of header length, got 3";
    }
    void errorsAreTranslated() {
        QFETCH(QString, format);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, words);
        const testsupport::MarkerTranslator marker("QkFile");
        const auto parse = format == "npy" ? parseNpy : format == "npz" ? parseNpz : parseSafetensors;
        const TensorList t = parse(bytes.constData(), std::size_t(bytes.size()));
        QCOMPARE(t.error, marker.mark() + words);
    }

    void scoresEqualNumpy_data();
    void scoresEqualNumpy();
    void corruptFilesAreOneLine_data();
    void corruptFilesAreOneLine();
    void rowsAreReadFromTheMappedFile();
    void sceneKeepsMissingFilePath();
    void handbookSnippetWritesWhatPoslabReads();
};

void TestQkFile::scoresEqualNumpy_data() {
    QTest::addColumn<QString>("q");
    QTest::addColumn<QString>("k");
    QTest::addColumn<int>("head");
    QTest::addColumn<QJsonObject>("expect");
    const QJsonArray cases = expected().value("cases").toArray();
    QVERIFY(cases.size() >= 40);
    for (const auto& c : cases) {
        const QJsonObject o = c.toObject();
        QStringList shape;
        for (const auto& s : o.value("shape").toArray()) shape << QString::number(s.toInt());
        const QString name = QStringLiteral("%1 [%2] %3 head %4")
                                 .arg(o.value("format").toString(), shape.join(','), o.value("dtype").toString())
                                 .arg(o.value("head").toInt());
        QTest::newRow(qPrintable(name)) << o.value("q").toString() << o.value("k").toString() << o.value("head").toInt() << o;
    }
}

// Every dtype, shape and format: scores and decay as NumPy computed them from the stored values.
void TestQkFile::scoresEqualNumpy() {
    QFETCH(QString, q);
    QFETCH(QString, k);
    QFETCH(int, head);
    QFETCH(QJsonObject, expect);
    const QkLoad r = loadQk(kDataDir + '/' + q, kDataDir + '/' + k, head);
    QVERIFY2(r.content, qPrintable(r.error));
    const QJsonArray want = expect.value("scores").toArray();
    const std::int64_t n = want.size();
    QCOMPARE(r.content->length(), n);
    QCOMPARE(r.content->dim(), 8);
    const Positions pos = arangePositions(0, n);
    // Double precision: NumPy's float64 RoPE-then-dot on the same values, to rounding.
    for (Precision pr : {Precision::Double, Precision::Float32}) {
        auto s = scores(ropeParams(r.content, pr), pos, pos, n);
        QVERIFY2(s, s ? "" : s.error().message().c_str());
        const double tol = pr == Precision::Double ? 1e-12 : 5e-6;   // cli.md: 5e-6 on float32 paths
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                const double w = want[i].toArray()[j].toDouble();
                if (std::abs(s.value()(i, j) - w) > tol)
                    QFAIL(qPrintable(QStringLiteral("scores[%1][%2] = %3, NumPy %4 (precision %5)")
                                         .arg(i).arg(j).arg(s.value()(i, j), 0, 'g', 17).arg(w, 0, 'g', 17)
                                         .arg(pr == Precision::Double ? "double" : "float32")));
            }
    }
    // Decay: the mean of score(i, i − t) over the file's rows, with its count.
    auto d = decayCurve(ropeParams(r.content, Precision::Double), n - 1);
    QVERIFY2(d, d ? "" : d.error().message().c_str());
    const QJsonArray wantDecay = expect.value("decay").toArray(), wantCount = expect.value("count").toArray();
    QCOMPARE(d.value().count.size(), std::size_t(n));
    for (int t = 0; t < n; ++t) {
        QVERIFY2(std::abs(d.value().value[t] - wantDecay[t].toDouble()) < 1e-12, qPrintable(QString::number(t)));
        QCOMPARE(d.value().count[std::size_t(t)], std::int64_t(wantCount[t].toInt()));
    }
    // The file's N bounds the length and the distances.
    QVERIFY(!scores(ropeParams(r.content, Precision::Double), pos, pos, n + 1));
    QVERIFY(!decayCurve(ropeParams(r.content, Precision::Double), n));
    // The file's d is the dimension.
    ScoreParams wrongDim = ropeParams(r.content, Precision::Double);
    wrongDim.dim = 4;
    QVERIFY(wrongDim.validate());
    QCOMPARE(wrongDim.validate()->parameter, std::string("dim"));
}

void TestQkFile::corruptFilesAreOneLine_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("fileName");
    QTest::addColumn<int>("head");
    QTest::addColumn<QString>("wantInMessage");
    const QByteArray good32 = readAll(kDataDir + "/2d_float32_q.npy");
    QVERIFY(good32.size() > 128);
    const QByteArray data = floats(ramp(40));
    // .npy written here (paired with itself through --qk is refused, so each uses a .npz or a
    // pair; the loader is asked for q and k from the same buffer).
    QTest::newRow("npy truncated header") << good32.left(20) << "q.npy" << 0 << "truncated .npy header";
    QTest::newRow("npy truncated data") << good32.left(good32.size() - 9) << "q.npy" << 0 << "truncated .npy data";
    QTest::newRow("npy fortran order") << npy("<f4", "True", "(5, 8)", data) << "q.npy" << 0 << "Fortran order";
    QTest::newRow("npy wrong dtype int32") << npy("<i4", "False", "(5, 8)", data) << "q.npy" << 0 << "wrong dtype";
    QTest::newRow("npy big-endian") << npy(">f4", "False", "(5, 8)", data) << "q.npy" << 0 << "got '>f4'";
    QTest::newRow("npy bad header") << npy("<f4", "Maybe", "(5, 8)", data) << "q.npy" << 0 << "True or False";
    QTest::newRow("npy rank 1") << npy("<f4", "False", "(40,)", data) << "q.npy" << 0 << "wrong shape of q";
    QTest::newRow("npy is q only") << npy("<f4", "False", "(5, 8)", data) << "q.npy" << 0 << "missing tensor k";
    // .safetensors written here.
    const QJsonArray s58{5, 8};
    auto nanData = ramp(40);
    nanData[13] = std::numeric_limits<float>::quiet_NaN();
    auto infData = ramp(40);
    infData[39] = std::numeric_limits<float>::infinity();
    QTest::newRow("safetensors NaN in q") << safetensors({{"q", "F32", s58, floats(nanData)}, {"k", "F32", s58, data}})
                                          << "qk.safetensors" << 0 << "NaN at row 1, column 5";
    QTest::newRow("safetensors Inf in k") << safetensors({{"q", "F32", s58, data}, {"k", "F32", s58, floats(infData)}})
                                          << "qk.safetensors" << 0 << "Inf at row 4, column 7";
    QTest::newRow("safetensors missing k") << safetensors({{"q", "F32", s58, data}, {"v", "F32", s58, data}})
                                           << "qk.safetensors" << 0 << "missing tensor k";
    QTest::newRow("safetensors int k") << safetensors({{"q", "F32", s58, data}, {"k", "I32", s58, data}})
                                       << "qk.safetensors" << 0 << "wrong dtype";
    QTest::newRow("safetensors k of another d")
        << safetensors({{"q", "F32", s58, data}, {"k", "F32", QJsonArray{4, 10}, data}}) << "qk.safetensors" << 0
        << "shape of k";
    QTest::newRow("safetensors batch 2") << safetensors({{"q", "F32", QJsonArray{2, 1, 5, 4}, data}, {"k", "F32", s58, data}})
                                         << "qk.safetensors" << 0 << "wrong shape of q";
    QTest::newRow("safetensors head out of range")
        << safetensors({{"q", "F32", QJsonArray{1, 5, 8}, data}, {"k", "F32", QJsonArray{1, 5, 8}, data}}) << "qk.safetensors"
        << 1 << "--head";
    const QByteArray st = safetensors({{"q", "F32", s58, data}, {"k", "F32", s58, data}});
    QTest::newRow("safetensors truncated data") << st.left(st.size() - 4) << "qk.safetensors" << 0 << "truncated .safetensors data";
    QTest::newRow("safetensors truncated header") << st.left(30) << "qk.safetensors" << 0 << "truncated .safetensors header";
    QTest::newRow("safetensors offsets wrong")
        << QByteArray(st).replace("\"data_offsets\":[0,160]", "\"data_offsets\":[0,161]") << "qk.safetensors" << 0 << "span 161 bytes";
    // .npz from the generator, damaged here.
    const QByteArray npz = readAll(kDataDir + "/2d_float32.npz");
    const QByteArray npzc = readAll(kDataDir + "/2d_float32_deflate.npz");
    QVERIFY(npz.size() > 200 && npzc.size() > 200);
    QTest::newRow("npz truncated") << npz.left(npz.size() - 30) << "qk.npz" << 0 << "truncated .npz";
    QByteArray broken = npzc;
    for (int i = 80; i < 140; ++i) broken[i] = static_cast<char>(0xff);   // inside the first member's deflate stream
    QTest::newRow("npz corrupt deflate") << broken << "qk.npz" << 0 << "deflate";
    QTest::newRow("npz cut in the middle") << npz.left(npz.size() / 2) << "qk.npz" << 0 << "truncated .npz";
}

void TestQkFile::corruptFilesAreOneLine() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, fileName);
    QFETCH(int, head);
    QFETCH(QString, wantInMessage);
    QTemporaryDir dir;
    const QString path = dir.filePath(fileName);
    QVERIFY(writeAll(path, bytes));
    const QkLoad r = loadQk(path, path, head);
    QVERIFY2(!r.content, "a corrupt file was accepted");
    QVERIFY(!r.io);
    QVERIFY2(r.error.startsWith(fileName + ": "), qPrintable(r.error));
    QVERIFY2(r.error.contains(wantInMessage), qPrintable(r.error));
    QVERIFY2(!r.error.contains('\n'), qPrintable(r.error));
    // The same bytes from memory (what the fuzz target feeds) give the same refusal.
    const QkLoad m = loadQkFromBuffer(bytes.constData(), static_cast<std::size_t>(bytes.size()), head, fileName);
    QVERIFY(!m.content);
    QCOMPARE(m.error, r.error);
}

// The rows come from the file as stored: a float16 value and its neighbours, in place.
void TestQkFile::rowsAreReadFromTheMappedFile() {
    QTemporaryDir dir;
    // float16: 1.0 = 0x3c00, -2.5 = 0xc100, 65504 = 0x7bff, the smallest subnormal 0x0001.
    const std::vector<quint16> halves = {0x3c00, 0xc100, 0x7bff, 0x0001};
    QByteArray raw(reinterpret_cast<const char*>(halves.data()), 8);
    const QString qp = dir.filePath("q.npy"), kp = dir.filePath("k.npy");
    QVERIFY(writeAll(qp, npy("<f2", "False", "(2, 2)", raw)));
    QVERIFY(writeAll(kp, npy("<f2", "False", "(2, 2)", raw)));
    const QkLoad r = loadQk(qp, kp, 0);
    QVERIFY2(r.content, qPrintable(r.error));
    const Matrix m = r.content->rows(true, {1, 0});
    QCOMPARE(m(0, 0), 65504.0);
    QCOMPARE(m(0, 1), std::ldexp(1.0, -24));
    QCOMPARE(m(1, 0), 1.0);
    QCOMPARE(m(1, 1), -2.5);
    QCOMPARE(QString::fromStdString(r.content->name()), QStringLiteral("q.npy, k.npy"));
    // A missing file is an I/O failure naming it.
    const QkLoad gone = loadQk(dir.filePath("none.npy"), kp, 0);
    QVERIFY(!gone.content && gone.io);
    QVERIFY(gone.error.startsWith("none.npy: cannot read"));
}

// The scene keeps the files' paths; a missing file is a problem the views show, not lost work.
void TestQkFile::sceneKeepsMissingFilePath() {
    SceneParams sc;
    sc.qFile = kDataDir + "/3d_float32.npz";
    sc.head = 1;
    sc.length = 5;
    sc.methods.front().params.dim = 8;
    refreshQk(sc);
    QVERIFY(sc.qk && sc.qk->content);
    QVERIFY(!sceneProblem(sc));
    QVERIFY(effectiveParams(sc, 0).source == sc.qk->content);
    const auto loaded = sc.qk;
    refreshQk(sc);
    QVERIFY(sc.qk == loaded);   // unchanged paths and head: not reloaded
    sc.length = 6;
    QVERIFY(sceneProblem(sc) && sceneProblem(sc)->contains("at most the N"));
    sc.length = 5;
    sc.qFile = QStringLiteral("/nonexistent/dir/q.npz");
    refreshQk(sc);
    QVERIFY(sc.qk && !sc.qk->content);
    const auto problem = sceneProblem(sc);
    QVERIFY(problem && problem->contains("q.npz: cannot read"));
    QCOMPARE(sc.qFile, QStringLiteral("/nonexistent/dir/q.npz"));
    sc.qFile.clear();
    refreshQk(sc);
    QVERIFY(!sc.qk && !sceneProblem(sc));
}

// docs/HANDBOOK.md's dump snippet: its file-writing part, run by /usr/bin/python3 on q_proj-shaped
// arrays (tests/data/qk/check_readme_snippet.py), writes files whose rows are those arrays' heads.
void TestQkFile::handbookSnippetWritesWhatPoslabReads() {
    QTemporaryDir dir;
    QProcess py;
    py.start(QStringLiteral("/usr/bin/python3"), {kDataDir + "/check_readme_snippet.py",
                                                  QStringLiteral(POSLAB_SOURCE_DIR "/docs/HANDBOOK.md"), dir.path()});
    QVERIFY(py.waitForFinished(60000));
    if (py.exitCode() != 0 && py.readAllStandardError().contains("No module named 'numpy'"))
        QSKIP("/usr/bin/python3 has no NumPy");
    QCOMPARE(py.exitCode(), 0);
    for (const char* file : {"layer0.npz", "layer0.safetensors"}) {
        for (int head = 0; head < 4; ++head) {
            const QkLoad r = loadQk(dir.filePath(file), dir.filePath(file), head);
            QVERIFY2(r.content, qPrintable(r.error));
            QCOMPARE(r.content->length(), std::int64_t(6));
            QCOMPARE(r.content->dim(), 8);
            const Matrix q = r.content->rows(false, arangePositions(0, 6));
            const Matrix k = r.content->rows(true, arangePositions(0, 6));
            const int kh = head / 2;   // 4 query heads share 2 key heads
            for (int n = 0; n < 6; ++n)
                for (int c = 0; c < 8; ++c) {
                    // float32 of NumPy's sin/cos: within one float32 ulp of the C library's.
                    QVERIFY(std::abs(q(n, c) - std::sin(0.1 + 0.01 * (n * 1000 + head * 100 + c))) < 1e-7);
                    QVERIFY(std::abs(k(n, c) - std::cos(0.1 + 0.01 * (n * 1000 + kh * 100 + c))) < 1e-7);
                }
        }
    }
}

QTEST_MAIN(TestQkFile)
#include "test_qkfile.moc"
