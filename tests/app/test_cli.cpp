// The `poslab` executable as a user runs it (QProcess on POSLAB_EXE): golden cases through the
// command line, both option forms, LIST/RANGE, FILE/stdin vectors, and the error contract
// (exit 2 + one stderr line "poslab: error: ..." + empty stdout; exit 1 for I/O).
#include "support/runposlab.h"
#include "support/testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>

#include <cmath>
#include <numbers>

using namespace testsupport;

namespace {


using Run = testsupport::PoslabRun;
// runPoslab(args, {stdinData}): tests/support/runposlab.h

QStringList split(const QString& s) { return s.split(QLatin1Char(' '), Qt::SkipEmptyParts); }

// An output of a command given --config without its leading layer keys ("layer", "layer_type",
// "rope": cli.md "Added in 0.3"), which the same command without a config does not print.
QByteArray withoutLayerKeys(const QByteArray& out) {
    static const QRegularExpression keys(QStringLiteral(R"(^\{"layer":\d+,"layer_type":"\w+","rope":(true|false),)"));
    QString s = QString::fromUtf8(out);
    if (!s.contains(keys)) return "(no layer keys) " + out;
    return s.replace(keys, QStringLiteral("{")).toUtf8();
}

QByteArray rowsJson(const poslab::Matrix& m) {
    QJsonArray rows;
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        QJsonArray row;
        for (Eigen::Index c = 0; c < m.cols(); ++c) row.append(m(r, c));
        rows.append(row);
    }
    return QJsonDocument(rows).toJson(QJsonDocument::Compact);
}

}  // namespace

class TestCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void versionAndHelp();
    void whatHelp_data();
    void whatHelp();
    void frequenciesGolden_data();
    void frequenciesGolden();
    void ropeHalfGoldenViaVectors();
    void ropeInterleavedGoldenViaStdin();
    void ropeSeedExampleVector();
    void ropeMatchesPyTorchBitForBit_data();
    void ropeMatchesPyTorchBitForBit();
    void precisionSeedFigures();
    void precisionRejectsFloat16PositionsAbove65504();
    void sinusoidalGolden_data();
    void sinusoidalGolden();
    void t5Golden();
    void t5MatrixForm();
    void alibiGolden_data();
    void alibiGolden();
    void alibiBiasMasked();
    void shawGolden();
    void transformerXLDistances();
    void xposRuns();
    void optionFormsAgree_data();
    void optionFormsAgree();
    void scoresMatrixAndSummary();
    void scoresSummaryAllMethods_data();
    void scoresSummaryAllMethods();
    void decayRopeHasBound();
    void presetsList();
    void badInputs_data();
    void badInputs();
    void documentedMaximaAreBounded_data();
    void documentedMaximaAreBounded();
    void unreadableVectorsFileIsIoError();
    void configGoldenBothForms_data();
    void configGoldenBothForms();
    void configEveryRopeType_data();
    void configEveryRopeType();
    void configMatchesNumpyTranscription();
    void configOptionsOverride();
    void configScoresAndDecay();
    void configErrors_data();
    void configErrors();
    void qkScoresEqualNumpy();
    void qkErrors_data();
    void qkErrors();
};

// `compute rope --precision P --angle-precision A` prints what PyTorch 1.13 computes with
// transformers' rotate_half/apply_rotary_pos_emb (tests/data/precision), bit for bit.
void TestCli::ropeMatchesPyTorchBitForBit_data() {
    QTest::addColumn<int>("index");
    const auto cases = testsupport::loadJson(QStringLiteral(POSLAB_SOURCE_DIR "/tests/data/precision/rope_precision_reference.json"))
                           .value("cases").toArray();
    for (int i = 0; i < cases.size(); ++i) {
        const auto c = cases[i].toObject();
        if (c["head_dim"].toInt() == 128) continue;   // the core test covers them; keep the process runs short
        QTest::newRow(qPrintable(QString("%1_%2_d%3").arg(c["path"].toString(), c["precision"].toString()).arg(c["head_dim"].toInt())))
            << i;
    }
}
void TestCli::ropeMatchesPyTorchBitForBit() {
    QFETCH(int, index);
    const auto c = testsupport::loadJson(QStringLiteral(POSLAB_SOURCE_DIR "/tests/data/precision/rope_precision_reference.json"))
                       .value("cases").toArray()[index].toObject();
    QStringList pos;
    for (const auto& v : c["positions"].toArray()) pos << QString::number(qint64(v.toDouble()));
    QStringList args{"compute", "rope", "--head-dim", QString::number(c["head_dim"].toInt()), "--base",
                     QString::number(c["base"].toDouble(), 'g', 17), "--positions", pos.join(','), "--precision",
                     c["precision"].toString(), "--vectors", "-"};
    // The angles' dtype is read only by the half-precision paths (an option that cannot change
    // the output is refused, cli.md "Added in 0.4").
    if (c["precision"].toString() != "float32" && c["precision"].toString() != "double")
        args << "--angle-precision" << c["angle_precision"].toString();
    if (c.contains("code_path")) args << "--code-path" << c["code_path"].toString() << "--layout" << c["layout"].toString();
    const Run r = runPoslab(args, rowsJson(testsupport::toMatrix(c["q"])));
    EXPECT_OK(r);
    const QJsonObject j = r.json();
    for (const char* key : {"cos", "sin", "rotated"}) {
        const poslab::Matrix got = testsupport::toMatrix(j[key]), want = testsupport::toMatrix(c[key]);
        QCOMPARE(got.rows(), want.rows());
        QCOMPARE(got.cols(), want.cols());
        for (Eigen::Index k = 0; k < want.rows(); ++k)
            for (Eigen::Index m = 0; m < want.cols(); ++m)
                if (got(k, m) != want(k, m))
                    QFAIL(qPrintable(QString("%1[%2][%3]: %4 vs torch %5").arg(key).arg(k).arg(m).arg(got(k, m), 0, 'g', 17).arg(want(k, m), 0, 'g', 17)));
    }
}

// The issue's seed figures (docs/HANDBOOK.md "Precision lab").
void TestCli::precisionSeedFigures() {
    // GPT-NeoX #1003 (d = 32, float16 angles): position 1857, pair 1 is 1045 instead of
    // 1857·10000^(-1/16) = 1044.27; over 0..2047 |Δcos| reaches 0.78.
    Run r = runPoslab(split("compute precision --head-dim 32 --positions 1857 --precision float16 --angle-precision float16"));
    EXPECT_OK(r);
    QJsonObject j = r.json();
    const double exact = 1857.0 * std::pow(10000.0, -1.0 / 16);
    QCOMPARE(j["angle_error"].toArray()[0].toArray()[1].toDouble(), 1045.0 - exact);
    QVERIFY(std::abs(exact - 1044.27) < 0.005);
    r = runPoslab(split("compute precision --head-dim 32 --positions 0:2048 --precision float16 --angle-precision float16"));
    EXPECT_OK(r);
    double worst = 0;
    for (const auto& v : r.json()["max_abs_error"].toArray()) worst = std::max(worst, v.toDouble());
    QVERIFY2(worst > 0.78 && worst < 0.79, qPrintable(QString::number(worst)));
    // bfloat16 angles, d = 128: 0.63 rad at 512, 2.5 at 2048; float32 angles: ~1e-4 at 4096.
    const auto angleAt = [](const QString& args) {
        const Run run = runPoslab(split(args));
        double m = 0;
        for (const auto& row : run.json()["angle_error"].toArray())
            for (const auto& v : row.toArray()) m = std::max(m, std::abs(v.toDouble()));
        return m;
    };
    QVERIFY(std::abs(angleAt("compute precision --head-dim 128 --positions 512 --precision bfloat16 --angle-precision bfloat16") - 0.626) < 0.001);
    QVERIFY(std::abs(angleAt("compute precision --head-dim 128 --positions 2048 --precision bfloat16 --angle-precision bfloat16") - 2.505) < 0.001);
    QVERIFY(angleAt("compute precision --head-dim 128 --positions 0:4097 --precision bfloat16 --angle-precision bfloat16") > 3.14);
    QVERIFY(angleAt("compute precision --head-dim 128 --positions 4096 --precision bfloat16") < 2e-4);
    // The phase of the rotation the model applies, atan2(sin, cos) of its bfloat16 table: the
    // same 0.62 / 2.5 / π with bfloat16 angles, and 2.8e-3 once the angles are float32 (what is
    // left is cos/sin's bfloat16 rounding, at most about 2^-9·√2).
    const auto phaseAt = [](const QString& args) {
        const Run run = runPoslab(split(args));
        double m = 0;
        for (const auto& row : run.json()["phase_error"].toArray())
            for (const auto& v : row.toArray()) m = std::max(m, std::abs(v.toDouble()));
        return m;
    };
    QVERIFY(std::abs(phaseAt("compute precision --head-dim 128 --positions 512 --precision bfloat16 --angle-precision bfloat16") - 0.625) < 0.001);
    QVERIFY(std::abs(phaseAt("compute precision --head-dim 128 --positions 2048 --precision bfloat16 --angle-precision bfloat16") - 2.505) < 0.001);
    const double fixed = phaseAt("compute precision --head-dim 128 --positions 0:4097 --precision bfloat16");
    QVERIFY2(fixed > 2.75e-3 && fixed < 2.85e-3, qPrintable(QString::number(fixed)));
    // bfloat16 holds no integer above 256 exactly: 257 → 256, 259 → 260 (pair 0 turns by the position).
    r = runPoslab(split("compute precision --head-dim 2 --positions 256:260 --precision bfloat16 --angle-precision bfloat16"));
    EXPECT_OK(r);
    const QJsonArray a = r.json()["angle_error"].toArray();
    QCOMPARE(a[0].toArray()[0].toDouble(), 0.0);
    QCOMPARE(a[1].toArray()[0].toDouble(), -1.0);
    QCOMPARE(a[3].toArray()[0].toDouble(), 1.0);
    // ... and says which positions collide: 256 and 257 are both 256, 259 and 260 both 260.
    r = runPoslab(split("compute precision --head-dim 2 --positions 256:261 --precision bfloat16 --angle-precision bfloat16"));
    EXPECT_OK(r);
    const QJsonArray col = r.json()["collisions"].toArray();
    QCOMPARE(col.size(), 2);
    QCOMPARE(col[0].toObject()["value"].toDouble(), 256.0);
    QCOMPARE(col[0].toObject()["positions"].toArray(), QJsonArray({256, 257}));
    QCOMPARE(col[1].toObject()["value"].toDouble(), 260.0);
    QCOMPARE(col[1].toObject()["positions"].toArray(), QJsonArray({259, 260}));
    // float32 angles (transformers main) hold every one of them.
    r = runPoslab(split("compute precision --head-dim 2 --positions 256:261 --precision bfloat16"));
    EXPECT_OK(r);
    QCOMPARE(r.json()["collisions"].toArray().size(), 0);
    // float16 holds every integer up to 2048: 2049 → 2048; 0..4096 share 513 values
    // ({2048, 2049}, then {4k−1, 4k, 4k+1} up to {4095, 4096}).
    r = runPoslab(split("compute precision --head-dim 2 --positions 0:4097 --precision float16 --angle-precision float16"));
    EXPECT_OK(r);
    QCOMPARE(r.json()["collisions"].toArray().size(), 513);
    QCOMPARE(r.json()["collisions"].toArray()[0].toObject()["positions"].toArray(), QJsonArray({2048, 2049}));
    // double: no error at all.
    r = runPoslab(split("compute precision --head-dim 8 --positions 0:100 --precision double"));
    EXPECT_OK(r);
    for (const auto& v : r.json()["max_abs_error"].toArray()) QCOMPARE(v.toDouble(), 0.0);
}

void TestCli::precisionRejectsFloat16PositionsAbove65504() {
    for (const QString args : {"compute precision --head-dim 4", "compute rope --head-dim 4 --vector 1,1,1,1"}) {
        const Run r = runPoslab(split(args + " --positions 65504,65505 --precision float16 --angle-precision float16"));
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.startsWith("poslab: error: invalid --positions, integers up to 65504") && r.err.count('\n') == 1, r.err.constData());
    }
}

void TestCli::versionAndHelp() {
    const Run v = runPoslab({"--version"});
    QCOMPARE(v.code, 0);
    QVERIFY(v.out.startsWith("poslab "));
    QVERIFY(v.out.trimmed().split(' ').value(1).count('.') == 2);
    const Run h = runPoslab({"--help"});
    QCOMPARE(h.code, 0);
    for (const char* w : {"compute", "figure", "presets", "--session", "--version"}) QVERIFY2(h.out.contains(w), w);
    // Every WHAT `compute` accepts is listed: each one, asked for its help, is known.
    const QByteArray whatLine = h.out.mid(h.out.indexOf("WHAT: ") + 6).split('\n').value(0);
    const QList<QByteArray> whats = whatLine.split(',');
    QVERIFY2(whats.size() >= 14, whatLine.constData());
    for (const QByteArray& w : whats) {
        const Run wh = runPoslab({"compute", w.trimmed().toStdString().c_str(), "--help"});
        QVERIFY2(wh.code == 0, (w + ": " + wh.err).constData());
    }
    for (const char* w : {"contributions", "layers", "precision", "demo"}) QVERIFY2(whatLine.contains(w), w);
    const Run c = runPoslab({"compute", "--help"});
    QCOMPARE(c.code, 0);
    for (const char* w : {"frequencies", "rope", "xpos", "sinusoidal", "t5-buckets", "alibi", "shaw", "transformer-xl",
                          "scores", "decay"})
        QVERIFY2(c.out.contains(w), w);
}

void TestCli::whatHelp_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("mentions");
    QTest::newRow("frequencies") << split("compute frequencies --help")
                                 << split("--head-dim --base --partial-rotary-factor --scaling --factor --max-positions "
                                          "--original-max-positions --seq-len --beta-fast --beta-slow --mscale "
                                          "--mscale-all-dim --no-truncate --attention-factor --low-freq-factor "
                                          "--high-freq-factor --short-factor --long-factor --precision 10000 2048");
    QTest::newRow("rope") << split("compute rope --help") << split("--theta --layout --rotary-dim --positions --vector --vectors half");
    QTest::newRow("xpos") << split("compute xpos --help") << split("--head-dim --scale-base --length --offset --downscale --vectors 512");
    QTest::newRow("sinusoidal") << split("compute sinusoidal --help")
                                << split("--dim --positions --base --min-timescale --layout --frequencies 0:64 vaswani");
    QTest::newRow("t5-buckets") << split("compute t5-buckets --help")
                                << split("--num-buckets --max-distance --bidirectional --causal --relative --query-length --key-length --past 32 128");
    QTest::newRow("alibi") << split("compute alibi --help") << split("--heads --length --symmetric --bias-max");
    QTest::newRow("shaw") << split("compute shaw --help") << split("--query-length --key-length --max-relative-position --cache");
    QTest::newRow("transformer-xl") << split("compute transformer-xl --help") << split("--dim --key-length --clamp-len");
    QTest::newRow("scores") << split("compute scores --help")
                            << split("--method --length --dim --content --seed --head --causal --softmax --summary --table-size --clamp-len");
    QTest::newRow("scores_rope") << split("compute scores --method rope --help") << split("--base --scaling --layout --dim");
    QTest::newRow("decay") << split("compute decay --help") << split("--method --max-distance --dim --t5-max-distance");
}

void TestCli::whatHelp() {
    QFETCH(QStringList, args);
    QFETCH(QStringList, mentions);
    const Run r = runPoslab(args);
    QCOMPARE(r.code, 0);
    QVERIFY(r.err.isEmpty());
    for (const auto& m : mentions) QVERIFY2(r.out.contains(m.toUtf8()), qPrintable(m));
    QVERIFY(r.out.contains("default"));
}

void TestCli::frequenciesGolden_data() {
    QTest::addColumn<QString>("golden");
    QTest::addColumn<QStringList>("args");
    QTest::newRow("default_d16_theta1e4") << "default_d16_theta1e4" << split("--head-dim 16 --base 10000");
    QTest::newRow("linear_f2_d16") << "linear_f2_d16" << split("--head-dim=16 --scaling=linear --factor=2");
    QTest::newRow("yarn_f4_d64_orig2048_defaults")
        << "yarn_f4_d64_orig2048_defaults" << split("--head-dim 64 --scaling yarn --factor 4 --original-max-positions 2048");
    QTest::newRow("llama3_1_real_d128_theta5e5_f8")
        << "llama3_1_real_d128_theta5e5_f8"
        << split("--head-dim 128 --base 500000 --scaling llama3 --factor 8 --low-freq-factor 1 --high-freq-factor 4 "
                 "--original-max-positions 8192");   // max_position_embeddings: not read with both given (cli.md 0.4)
}

void TestCli::frequenciesGolden() {
    QFETCH(QString, golden);
    QFETCH(QStringList, args);
    const auto c = goldenCase("rope_init_transformers_main.json", golden);
    const Run r = runPoslab(QStringList{"compute", "frequencies"} + args);
    EXPECT_OK(r);
    const auto o = r.json();
    const auto want = toVector(c["output"].toObject()["inv_freq"].toArray());
    const auto got = toVector(o["inv_freq"].toArray());
    QCOMPARE(got.size(), want.size());
    QVERIFY2(maxRelDiff(got, want) <= 2e-6, qPrintable(QString::number(maxRelDiff(got, want))));
    QCOMPARE(o["rotary_dim"].toInt(), int(want.size()) * 2);
    const double af = c["output"].toObject()["attention_factor"].toDouble();
    QVERIFY(std::abs(o["attention_factor"].toDouble() - af) <= 2e-6 * af);
    // wavelength = 2π / inv_freq
    const auto wl = toVector(o["wavelength"].toArray());
    for (Eigen::Index i = 0; i < wl.size(); ++i) QVERIFY(std::abs(wl[i] * got[i] - 2 * std::numbers::pi) <= 1e-12 * 2 * std::numbers::pi);
}

void TestCli::ropeHalfGoldenViaVectors() {
    const auto c = goldenCase("rope_apply_llama_half_split.json", "llama_d8_theta10000_pos0_1_2_3");
    const poslab::Matrix q = toMatrix(c["input"].toObject()["q"]);            // (2 heads · 4 seq) × 8
    const poslab::Matrix want = toMatrix(c["output"].toObject()["q_embed"]);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    for (int h = 0; h < 2; ++h) {
        const QString path = dir.filePath(QString("q%1.json").arg(h));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(rowsJson(q.middleRows(4 * h, 4)));
        f.close();
        const Run r = runPoslab({"compute", "rope", "--head-dim", "8", "--base", "10000", "--positions", "0,1,2,3",
                                 "--vectors", path});
        EXPECT_OK(r);
        const poslab::Matrix got = toMatrix(r.json()["rotated"]);
        POSLAB_VERIFY_ABS(got, poslab::Matrix(want.middleRows(4 * h, 4)), 5e-6);
        // cos/sin tables of the golden input (cat(f, f) layout).
        const poslab::Matrix cosWant = toMatrix(c["input"].toObject()["cos"]);
        POSLAB_VERIFY_ABS(toMatrix(r.json()["cos"]), cosWant, 5e-6);
    }
}

void TestCli::ropeInterleavedGoldenViaStdin() {
    const auto c = goldenCase("rope_apply_gptj_interleaved.json", "gptj_d8_rotary_dimNone_pos0_1_2_3");
    // [batch, seq, heads, dim] → rows (seq·heads) × 8; head h = rows h, h+2, h+4, h+6.
    const poslab::Matrix q = toMatrix(c["input"].toObject()["q"]);
    const poslab::Matrix want = toMatrix(c["output"].toObject()["q_embed"]);
    for (int h = 0; h < 2; ++h) {
        poslab::Matrix qh(4, 8), wh(4, 8);
        for (int s = 0; s < 4; ++s) {
            qh.row(s) = q.row(2 * s + h);
            wh.row(s) = want.row(2 * s + h);
        }
        const Run r = runPoslab(split("compute rope --head-dim 8 --layout interleaved --positions 0:4 --vectors -"), rowsJson(qh));
        EXPECT_OK(r);
        POSLAB_VERIFY_ABS(toMatrix(r.json()["rotated"]), wh, 5e-6);
    }
}

void TestCli::ropeSeedExampleVector() {
    // RoFormer seed example: d=4, m=2, θ=[1, 0.1], q=[1,0,1,0] interleaved → [cos 2, sin 2, cos 0.2, sin 0.2].
    const Run r = runPoslab(split("compute rope --head-dim 4 --base 100 --layout interleaved --positions 2 --vector 1,0,1,0"));
    EXPECT_OK(r);
    const auto row = toVector(r.json()["rotated"].toArray()[0].toArray());
    const double want[] = {std::cos(2.0), std::sin(2.0), std::cos(0.2), std::sin(0.2)};
    for (int i = 0; i < 4; ++i) QVERIFY2(std::abs(row[i] - want[i]) <= 5e-6, qPrintable(QString::number(row[i])));
    // Explicit --theta gives the same numbers.
    const Run t = runPoslab(split("compute rope --head-dim 4 --theta 1,0.1 --layout interleaved --positions 2 --vector 1,0,1,0"));
    EXPECT_OK(t);
    POSLAB_VERIFY_ABS(toMatrix(t.json()["rotated"]), toMatrix(r.json()["rotated"]), 1e-7);
}

void TestCli::sinusoidalGolden_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("args");
    QTest::newRow("distilbert_d16_interleaved") << "sinusoidal_distilbert_interleaved.json" << split("--dim 16 --positions 0:64");
    QTest::newRow("fairseq_d16_concat_tensor2tensor")
        << "sinusoidal_fairseq_concat.json" << split("--dim=16 --positions=0:64 --layout=concat --frequencies=tensor2tensor");
}

void TestCli::sinusoidalGolden() {
    QFETCH(QString, file);
    QFETCH(QStringList, args);
    const auto c = golden(file).value("cases").toArray().first().toObject();
    const Run r = runPoslab(QStringList{"compute", "sinusoidal"} + args);
    EXPECT_OK(r);
    POSLAB_VERIFY_ABS(toMatrix(r.json()["encoding"]), toMatrix(c["output"]), 5e-6);
    QCOMPARE(r.json()["positions"].toArray().size(), 64);
    // The default positions are 0:64.
    if (file.contains("distilbert")) {
        const Run d = runPoslab(split("compute sinusoidal --dim 16"));
        EXPECT_OK(d);
        QCOMPARE(d.out, r.out);
    }
}

void TestCli::t5Golden() {
    const auto c = goldenCase("t5_relative_position_bucket.json", "bucket_bidirTrue_nb32_md128");
    const Run r = runPoslab(split("compute t5-buckets --num-buckets 32 --max-distance 128 --bidirectional --relative -300:301"));
    EXPECT_OK(r);
    const auto got = r.json()["bucket"].toArray();
    const auto want = c["output"].toArray();
    QCOMPARE(got.size(), want.size());
    for (qsizetype i = 0; i < got.size(); ++i) QCOMPARE(got[i].toInteger(), want[i].toInteger());
    QCOMPARE(r.json()["relative"].toArray().first().toInteger(), qint64(-300));
}

void TestCli::t5MatrixForm() {
    // Query i at past+i, key j at j: bucket(j − (past+i)) — the same as the --relative form.
    const Run m = runPoslab(split("compute t5-buckets --causal --query-length 2 --key-length 5 --past 3"));
    EXPECT_OK(m);
    const auto rows = m.json()["bucket"].toArray();
    QCOMPARE(rows.size(), 2);
    for (int i = 0; i < 2; ++i) {
        QStringList rel;
        for (int j = 0; j < 5; ++j) rel << QString::number(j - (3 + i));
        const Run r = runPoslab(QStringList{"compute", "t5-buckets", "--causal", "--relative", rel.join(',')});
        EXPECT_OK(r);
        QCOMPARE(rows[i].toArray(), r.json()["bucket"].toArray());
    }
}

void TestCli::alibiGolden_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("heads");
    QTest::newRow("get_slopes_n8") << "get_slopes_n8" << 8;
    QTest::newRow("get_slopes_n12") << "get_slopes_n12" << 12;
}

void TestCli::alibiGolden() {
    QFETCH(QString, name);
    QFETCH(int, heads);
    const auto want = toVector(goldenCase("alibi_ofirpress.json", name)["output"].toArray());
    for (const char* precision : {"double", "float32"}) {
        const Run r = runPoslab({"compute", "alibi", "--heads", QString::number(heads), "--precision", precision});
        EXPECT_OK(r);
        const auto got = toVector(r.json()["slopes"].toArray());
        QVERIFY(maxRelDiff(got, want) <= 2e-6);
        QVERIFY(!r.json().contains("bias"));
    }
    const Run d = runPoslab({"compute", "alibi", "--heads", QString::number(heads), "--precision", "double"});
    QVERIFY(maxRelDiff(toVector(d.json()["slopes"].toArray()), want) == 0);   // ofirpress doubles, bit-exact
}

void TestCli::alibiBiasMasked() {
    const Run r = runPoslab(split("compute alibi --heads 2 --length 3 --precision double"));
    EXPECT_OK(r);
    const auto bias = r.json()["bias"].toArray();
    QCOMPARE(bias.size(), 2);
    const double slope = r.json()["slopes"].toArray()[1].toDouble();
    const auto h1 = bias[1].toArray();
    QVERIFY(h1[0].toArray()[1].isNull());
    QVERIFY(h1[1].toArray()[2].isNull());
    QCOMPARE(h1[2].toArray()[0].toDouble(), -2 * slope);
    const Run s = runPoslab(split("compute alibi --heads 2 --length 3 --symmetric --precision double"));
    EXPECT_OK(s);
    QCOMPARE(s.json()["bias"].toArray()[1].toArray()[0].toArray()[2].toDouble(), -2 * slope);
}

void TestCli::shawGolden() {
    const auto want = toMatrix(goldenCase("shaw_relative_positions_tensor2tensor.json", "shaw_lq6_lk6_max2_cacheFalse")["output"]);
    const Run r = runPoslab(split("compute shaw --query-length 6 --key-length 6 --max-relative-position 2"));
    EXPECT_OK(r);
    QCOMPARE(testsupport::maxAbsDiff(toMatrix(r.json()["index"]), want), 0.0);
    const Run c = runPoslab(split("compute shaw --key-length 6 --max-relative-position 2 --cache"));
    EXPECT_OK(c);
    // Distances −5 … 0 → clip + 2.
    QCOMPARE(toMatrix(c.json()["index"]), (poslab::Matrix(1, 6) << 0, 0, 0, 0, 1, 2).finished());
}

void TestCli::transformerXLDistances() {
    const Run r = runPoslab(split("compute transformer-xl --dim 4 --key-length 5 --clamp-len 3"));
    EXPECT_OK(r);
    const auto d = r.json()["distances"].toArray();
    QCOMPARE(d, QJsonArray({3, 3, 2, 1, 0}));
    const poslab::Matrix pe = toMatrix(r.json()["pos_emb"]);
    QCOMPARE(pe.rows(), 5);
    QCOMPARE(pe.cols(), 4);
    // Row for distance 2: [sin 2, sin 0.02, cos 2, cos 0.02] (concat, w = 10000^(-2i/4)).
    const double want[] = {std::sin(2.0), std::sin(0.02), std::cos(2.0), std::cos(0.02)};
    for (int i = 0; i < 4; ++i) QVERIFY(std::abs(pe(2, i) - want[i]) <= 5e-6);
}

void TestCli::xposRuns() {
    poslab::Matrix x(3, 4);
    x << 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0;
    const Run r = runPoslab(split("compute xpos --head-dim 4 --scale-base 512 --offset 2 --vectors -"), rowsJson(x));
    EXPECT_OK(r);
    QCOMPARE(r.json()["positions"].toArray(), QJsonArray({2, 3, 4}));
    const poslab::Matrix scale = toMatrix(r.json()["scale"]);
    QCOMPARE(scale.rows(), 3);
    QCOMPARE(scale.cols(), 2);
    const Run d = runPoslab(split("compute xpos --head-dim 4 --offset 2 --downscale --length 3 --vectors -"), rowsJson(x));
    EXPECT_OK(d);
    const poslab::Matrix inv = toMatrix(d.json()["scale"]);
    for (Eigen::Index i = 0; i < scale.size(); ++i) QVERIFY(std::abs(scale.data()[i] * inv.data()[i] - 1) <= 1e-6);
}

void TestCli::optionFormsAgree_data() {
    QTest::addColumn<QStringList>("a");
    QTest::addColumn<QStringList>("b");
    QTest::newRow("space_vs_equals") << split("compute frequencies --head-dim 32 --base 500000 --scaling yarn --factor 4")
                                     << split("compute frequencies --head-dim=32 --base=500000 --scaling=yarn --factor=4");
    QTest::newRow("range_vs_list") << split("compute sinusoidal --dim 6 --positions 3:7")
                                   << split("compute sinusoidal --dim 6 --positions 3,4,5,6");
    QTest::newRow("order_of_options") << split("compute scores --method alibi --length 5 --dim 4 --heads 4 --head 2")
                                      << split("compute scores --head=2 --heads 4 --dim=4 --length 5 --method=alibi");
    QTest::newRow("relative_range_vs_list") << split("compute t5-buckets --relative -2:3")
                                            << split("compute t5-buckets --relative -2,-1,0,1,2");
    QTest::newRow("preset_vs_explicit")
        << split("compute scores --preset llama-3.1-8b --length 40 --content formula --summary")
        << split("compute scores --method rope --dim 128 --base 500000 --scaling llama3 --factor 8 --low-freq-factor 1 "
                 "--high-freq-factor 4 --original-max-positions 8192 --length 40 --content formula --summary");
    QTest::newRow("preset_decay_override")
        << split("compute decay --preset gpt-j-6b --max-distance 20 --rotary-dim 32")
        << split("compute decay --method rope --dim 256 --rotary-dim 32 --layout interleaved --max-distance 20");
    QTest::newRow("plus_sign_and_exponent") << split("compute frequencies --head-dim 8 --base 1e4")
                                            << split("compute frequencies --head-dim +8 --base 10000.0");
}

void TestCli::optionFormsAgree() {
    QFETCH(QStringList, a);
    QFETCH(QStringList, b);
    const Run ra = runPoslab(a), rb = runPoslab(b);
    EXPECT_OK(ra);
    EXPECT_OK(rb);
    QCOMPARE(ra.out, rb.out);
}

void TestCli::scoresMatrixAndSummary() {
    const Run m = runPoslab(split("compute scores --method nope --length 4 --dim 4 --causal"));
    EXPECT_OK(m);
    const auto rows = m.json()["scores"].toArray();
    QCOMPARE(rows.size(), 4);
    QVERIFY(rows[0].toArray()[1].isNull());          // masked
    QCOMPARE(rows[3].toArray()[0].toDouble(), 2.0);  // ones: s·q·k = 4/√4
    const Run s = runPoslab(split("compute scores --method nope --length 4 --dim 4 --causal --summary"));
    EXPECT_OK(s);
    QCOMPARE(s.json()["shape"].toArray(), QJsonArray({4, 4}));
    QCOMPARE(s.json()["sum"].toDouble(), 20.0);      // 10 unmasked entries of 2
    const Run sm = runPoslab(split("compute scores --method rope --length 6 --dim 8 --content formula --softmax"));
    EXPECT_OK(sm);
    for (const auto& row : sm.json()["scores"].toArray()) {
        double sum = 0;
        for (const auto& x : row.toArray()) sum += x.toDouble();
        QVERIFY(std::abs(sum - 1) <= 1e-12);
    }
}

void TestCli::scoresSummaryAllMethods_data() {
    QTest::addColumn<QString>("method");
    for (const char* m : {"nope", "sinusoidal", "learned", "shaw", "t5", "transformer-xl", "alibi", "rope", "xpos"})
        QTest::newRow(m) << QString(m);
}

void TestCli::scoresSummaryAllMethods() {
    // The summary printed by the CLI equals the sum/min/max of the matrix it prints.
    QFETCH(QString, method);
    const QStringList base{"compute", "scores", "--method", method, "--length", "9", "--dim", "6", "--content", "random", "--seed", "3"};
    const Run m = runPoslab(base);
    EXPECT_OK(m);
    const Run s = runPoslab(base + QStringList{"--summary"});
    EXPECT_OK(s);
    double sum = 0, mn = INFINITY, mx = -INFINITY;
    for (const auto& row : m.json()["scores"].toArray())
        for (const auto& x : row.toArray()) {
            sum += x.toDouble();
            mn = std::min(mn, x.toDouble());
            mx = std::max(mx, x.toDouble());
        }
    const auto o = s.json();
    QVERIFY2(std::abs(o["sum"].toDouble() - sum) <= 1e-10 * std::max(1.0, std::abs(sum)), qPrintable(QString::number(sum)));
    QVERIFY(std::abs(o["min"].toDouble() - mn) <= 1e-12 * std::max(1.0, std::abs(mn)));
    QVERIFY(std::abs(o["max"].toDouble() - mx) <= 1e-12 * std::max(1.0, std::abs(mx)));
}

void TestCli::decayRopeHasBound() {
    const Run r = runPoslab(split("compute decay --method rope --max-distance 16 --dim 8 --precision double"));
    EXPECT_OK(r);
    QCOMPARE(r.json()["distance"].toArray().size(), 17);
    QCOMPARE(r.json()["bound"].toArray().size(), 17);
    QCOMPARE(r.json()["bound"].toArray()[0].toDouble(), 2.5);   // d = 0: (r/2 + 1)/2 with r = 8
    const Run a = runPoslab(split("compute decay --method alibi --max-distance 3 --heads 2 --precision double"));
    EXPECT_OK(a);
    QVERIFY(!a.json().contains("bound"));
    QCOMPARE(a.json()["value"].toArray()[3].toDouble(), -3 * 0.0625);
    const Run t = runPoslab(split("compute decay --method t5 --max-distance 3 --t5-max-distance 64"));
    EXPECT_OK(t);
}

void TestCli::presetsList() {
    const Run r = runPoslab({"presets"});
    EXPECT_OK(r);
    const auto list = r.json()["presets"].toArray();
    QVERIFY(list.size() >= 15);
    QStringList keys;
    for (const auto& p : list) {
        const auto o = p.toObject();
        for (const char* k : {"key", "name", "method", "source", "heads", "note", "options"}) QVERIFY2(o.contains(k), k);
        keys << o["key"].toString();
        // Each preset's options are accepted by `compute scores` for its method.
        // A learned preset's table size is read only with a length past the default 512 rows
        // (cli.md "Added in 0.4"): its own length then.
        const auto opts = o["options"].toObject();
        const QString length = opts.contains("table-size") ? QString::number(opts["table-size"].toInt()) : QStringLiteral("4");
        QStringList args{"compute", "scores", "--method", o["method"].toString(), "--length", length, "--summary"};
        for (auto it = opts.begin(); it != opts.end(); ++it) {
            QString v;
            if (it->isArray()) {
                QStringList xs;
                for (const auto& x : it->toArray()) xs << QString::number(x.toDouble(), 'g', 17);
                v = xs.join(',');
            } else if (it->isString()) {
                v = it->toString();
            } else {
                v = QString::number(it->toDouble(), 'g', 17);
            }
            args << "--" + it.key() << v;
        }
        const Run s = runPoslab(args);
        EXPECT_OK(s);
    }
    QVERIFY(keys.contains("llama-3.1-8b"));
    QVERIFY(keys.contains("phi-3-mini-128k"));
    QCOMPARE(keys.removeDuplicates(), 0);
}

void TestCli::badInputs_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("mentions");
    auto row = [](const char* name, const char* args, const char* mentions) {
        QTest::newRow(name) << split(args) << QString(mentions);
    };
    row("unknown_command", "frobnicate", "frobnicate");
    row("unknown_what", "compute nothing", "nothing");
    row("missing_what", "compute", "WHAT");
    row("unknown_option", "compute frequencies --head-dim 8 --bogus 1", "--bogus");
    row("missing_required", "compute frequencies", "--head-dim");
    row("missing_value", "compute frequencies --head-dim", "--head-dim");
    row("odd_head_dim", "compute frequencies --head-dim 7", "--head-dim");
    row("negative_head_dim", "compute frequencies --head-dim -8", "--head-dim");
    row("huge_head_dim", "compute frequencies --head-dim 99999999999999999999999", "--head-dim");
    row("nan_base", "compute frequencies --head-dim 8 --base nan", "--base");
    row("inf_base", "compute frequencies --head-dim 8 --base 1e999", "--base");
    row("text_base", "compute frequencies --head-dim 8 --base ten", "--base");
    row("base_one", "compute frequencies --head-dim 8 --base 1", "--base");
    row("bad_scaling", "compute frequencies --head-dim 8 --scaling magic", "--scaling");
    row("linear_without_factor", "compute frequencies --head-dim 8 --scaling linear", "--factor");
    row("longrope_short_list", "compute frequencies --head-dim 8 --scaling longrope --short-factor 1,1 --long-factor 1,1,1,1", "factor");
    row("partial_zero", "compute frequencies --head-dim 8 --partial-rotary-factor 0", "--partial-rotary-factor");
    row("flag_with_value", "compute frequencies --head-dim 8 --no-truncate=yes", "--no-truncate");
    row("positional_argument", "compute frequencies --head-dim 8 extra", "extra");
    row("rope_no_vector", "compute rope --head-dim 4 --positions 0:3", "--vector");
    row("rope_vector_wrong_length", "compute rope --head-dim 4 --positions 0:3 --vector 1,2,3", "--vector");
    row("rope_empty_range", "compute rope --head-dim 4 --positions 5:5 --vector 1,2,3,4", "--positions");
    row("rope_reversed_range", "compute rope --head-dim 4 --positions 9:2 --vector 1,2,3,4", "--positions");
    row("rope_negative_position", "compute rope --head-dim 4 --positions -1,2 --vector 1,2,3,4", "--positions");
    row("rope_huge_range", "compute rope --head-dim 4 --positions 0:100000000000 --vector 1,2,3,4", "--positions");
    row("rope_empty_list_item", "compute rope --head-dim 4 --positions 1,,2 --vector 1,2,3,4", "--positions");
    row("rope_nan_vector", "compute rope --head-dim 4 --positions 1 --vector 1,nan,2,3", "--vector");
    row("rope_theta_wrong_count", "compute rope --head-dim 4 --positions 1 --vector 1,2,3,4 --theta 1,2,3", "theta");
    row("rope_bad_layout", "compute rope --head-dim 4 --positions 1 --vector 1,2,3,4 --layout diagonal", "--layout");
    row("sinusoidal_zero_dim", "compute sinusoidal --dim 0", "--dim");
    row("sinusoidal_big_output", "compute sinusoidal --dim 65536 --positions 0:1000", "--positions");
    row("t5_both_directions", "compute t5-buckets --relative 1 --causal --bidirectional", "--causal");
    row("t5_odd_buckets", "compute t5-buckets --num-buckets 31 --relative 1", "--num-buckets");
    row("t5_no_form", "compute t5-buckets", "--relative");
    row("t5_huge_matrix", "compute t5-buckets --query-length 100000 --key-length 100000", "--query-length");
    row("alibi_zero_heads", "compute alibi --heads 0", "--heads");
    row("alibi_missing_heads", "compute alibi", "--heads");
    row("alibi_huge_length", "compute alibi --heads 8 --length 100000", "--length");
    row("alibi_bias_max_negative", "compute alibi --heads 8 --bias-max -1", "--bias-max");
    row("shaw_query_longer", "compute shaw --query-length 7 --key-length 6 --max-relative-position 2", "length");
    row("shaw_zero_k", "compute shaw --key-length 6 --max-relative-position 0", "--max-relative-position");
    row("txl_odd_dim", "compute transformer-xl --dim 5 --key-length 4", "--dim");
    row("txl_negative_clamp", "compute transformer-xl --dim 4 --key-length 4 --clamp-len -1", "--clamp-len");
    row("scores_missing_method", "compute scores --length 4 --dim 4", "--method");
    row("scores_bad_method", "compute scores --method magic --length 4 --dim 4", "--method");
    row("scores_option_of_other_method", "compute scores --method alibi --length 4 --dim 4 --base 10", "--base");
    row("scores_too_long_matrix", "compute scores --method nope --length 5000 --dim 4", "--length");
    row("scores_summary_gigantic", "compute scores --method rope --length 1000000000000 --dim 64 --summary --content formula", "--length");
    row("scores_rope_odd_dim", "compute scores --method rope --length 4 --dim 5", "--dim");
    row("scores_head_out_of_range", "compute scores --method alibi --length 4 --dim 4 --heads 4 --head 4", "--head");
    row("scores_learned_past_table", "compute scores --method learned --length 20 --dim 4 --table-size 16", "--length");
    row("scores_bad_content", "compute scores --method nope --length 4 --dim 4 --content zeros", "--content");
    row("scores_negative_seed", "compute scores --method nope --length 4 --dim 4 --seed -1", "--seed");
    row("scores_bad_precision", "compute scores --method nope --length 4 --dim 4 --precision half", "--precision");
    row("scores_unknown_preset", "compute scores --preset gpt-5 --length 4 --summary", "--preset");
    row("scores_preset_method_mismatch", "compute scores --preset gpt2 --method rope --length 4", "--preset");
    row("decay_negative_distance", "compute decay --method rope --max-distance -1 --dim 8", "--max-distance");
    row("decay_learned_past_table", "compute decay --method learned --max-distance 600 --dim 8", "--max-distance");
    // Past the work limit: refused at once, naming the limit (xPos in float32 with 1024 pairs and
    // transformer-xl at its largest dimension are past the sweep's limit).
    row("decay_xpos_float32_dim2048_work_limit",
        "compute decay --method xpos --max-distance 1048575 --dim 2048 --scale-base 1000000", "work limit");
    row("decay_txl_max_dim_work_limit", "compute decay --method transformer-xl --max-distance 1048575 --dim 4096", "work limit");
    row("xpos_missing_vectors", "compute xpos --head-dim 4", "--vectors");
    row("presets_extra_option", "presets --all", "--all");
    row("version_extra", "--version now", "now");
    row("session_missing_file", "--session", "--session");
}

void TestCli::badInputs() {
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    const Run r = runPoslab(args);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.out.isEmpty(), r.out.left(200).constData());
    QVERIFY2(r.err.startsWith("poslab: error: "), r.err.constData());
    QVERIFY2(r.err.endsWith('\n') && r.err.count('\n') == 1, r.err.constData());
    QVERIFY2(r.err.contains(", got "), r.err.constData());
    QVERIFY2(r.err.contains(mentions.toUtf8()), r.err.constData());
}

// Issue #11: every option at its documented maximum finishes well within 20 s, or is refused at
// once (exit 2, one line naming the work limit). Each row runs poslab under a 20 s deadline.
void TestCli::documentedMaximaAreBounded_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<bool>("finishes");
    QTest::addColumn<QString>("mentions");   // the refusal's text
    auto row = [](const char* name, const char* args, bool finishes, const char* mentions = "") {
        QTest::newRow(name) << split(QString::fromUtf8(args)) << finishes << QString::fromUtf8(mentions);
    };
    // Transformer-XL's four terms per entry: 16384² entries with softmax took about a minute
    // before its per-entry work was counted (and the limit was 2^38).
    row("scores_txl_softmax_16384", "compute scores --summary --method transformer-xl --length 16384 --dim 128 --content random --softmax",
        false, "a few seconds of work");
    row("scores_rope_random_16384", "compute scores --summary --method rope --length 16384 --dim 128 --content random", false,
        "a few seconds of work");
    row("scores_rope_random_length_max", "compute scores --summary --method rope --length 65536 --dim 1024 --content random", false,
        "a few seconds of work");
    row("scores_txl_softmax_within", "compute scores --summary --method transformer-xl --length 3000 --dim 128 --content random --softmax",
        true);
    row("decay_rope_float32_max", "compute decay --method rope --max-distance 1048575 --dim 128", true);
    row("decay_txl_max", "compute decay --method transformer-xl --max-distance 1048575 --dim 128", true);
    row("decay_xpos_float32_max", "compute decay --method xpos --max-distance 1048575 --dim 65536 --scale-base 1000000", false,
        "work limit");
}

void TestCli::documentedMaximaAreBounded() {
    QFETCH(QStringList, args);
    QFETCH(bool, finishes);
    QFETCH(QString, mentions);
    QProcess p;
    QElapsedTimer clock;
    clock.start();
    p.start(QStringLiteral(POSLAB_EXE), args);
    QVERIFY(p.waitForStarted(10000));
    p.closeWriteChannel();
    QByteArray out;
    const int deadline = testsupport::deadlineMs(20000);
    while (p.state() != QProcess::NotRunning && clock.elapsed() < deadline) {
        p.waitForFinished(100);
        out += p.readAllStandardOutput();   // keep the pipe flowing (a decay prints a million values)
    }
    if (p.state() != QProcess::NotRunning) {
        p.kill();
        p.waitForFinished();
        QFAIL(qPrintable(QStringLiteral("still running after %1 s").arg(deadline / 1000)));
    }
    out += p.readAllStandardOutput();
    const QByteArray err = p.readAllStandardError();
    const qint64 ms = clock.elapsed();
    if (finishes) {
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, err.constData());
        QVERIFY(!out.isEmpty());
        qInfo("finished in %lld ms", static_cast<long long>(ms));
    } else {
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(out.isEmpty());
        QVERIFY2(err.startsWith("poslab: error: ") && err.count('\n') == 1, err.constData());
        QVERIFY2(err.contains(mentions.toUtf8()), err.constData());
        QVERIFY2(ms < 5000, qPrintable(QStringLiteral("refused after %1 ms, not at once").arg(ms)));
    }
}

void TestCli::unreadableVectorsFileIsIoError() {
    const Run r = runPoslab(split("compute rope --head-dim 4 --positions 0 --vectors /nonexistent/dir/v.json"));
    QCOMPARE(r.code, 1);
    QVERIFY(r.out.isEmpty());
    QVERIFY(r.err.startsWith("poslab: error: "));
    QCOMPARE(r.err.count('\n'), 1);
    // A readable file with bad content is a usage error (exit 2) naming the option.
    QTemporaryDir dir;
    for (const QByteArray& content : {QByteArray("[[1,2,3,4]"), QByteArray("{\"a\":1}"), QByteArray("[[1,2],[3,4]]"),
                                      QByteArray("[[1,\"x\",3,4]]"), QByteArray("[]"), QByteArray("[[1,2,3,4],[1,2,3]]")}) {
        QFile f(dir.filePath("bad.json"));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(content);
        f.close();
        const Run b = runPoslab({"compute", "rope", "--head-dim", "4", "--positions", "0", "--vectors", f.fileName()});
        QVERIFY2(b.code == 2, content.constData());
        QVERIFY(b.out.isEmpty());
        QVERIFY2(b.err.startsWith("poslab: error: invalid --vectors"), b.err.constData());
    }
}

QTEST_GUILESS_MAIN(TestCli)
// ----- --config FILE (cli.md "Added in 0.2") ---------------------------------------------------------

namespace {
QString writeConfig(const QTemporaryDir& dir, const QString& name, const QByteArray& json) { return testsupport::writeFile(dir, name, json); }
// The golden v5 config in the v4 form (rope_theta at the top level, rope_scaling with `type`).
QJsonObject goldenToV4(QJsonObject cfg) {
    QJsonObject block = cfg.take("rope_parameters").toObject();
    cfg["rope_theta"] = block.take("rope_theta");
    const QString type = block.take("rope_type").toString();
    if (type != "default") {
        block["type"] = type;
        cfg["rope_scaling"] = block;
    }
    return cfg;
}
}  // namespace

void TestCli::configGoldenBothForms_data() {
    QTest::addColumn<QString>("golden");
    QTest::addColumn<bool>("v4");
    for (const char* g : {"default_d16_theta1e4", "linear_f2_d16", "yarn_f4_d64_orig2048_defaults", "llama3_1_real_d128_theta5e5_f8"}) {
        QTest::newRow((std::string(g) + "_v5").c_str()) << QString(g) << false;
        QTest::newRow((std::string(g) + "_v4").c_str()) << QString(g) << true;
    }
}

// `compute frequencies --config FILE` prints the upstream inv_freq and attention_factor.
void TestCli::configGoldenBothForms() {
    QFETCH(QString, golden);
    QFETCH(bool, v4);
    const auto c = goldenCase("rope_init_transformers_main.json", golden);
    QJsonObject cfg = c["params"].toObject()["config"].toObject();
    if (v4) cfg = goldenToV4(cfg);
    QTemporaryDir dir;
    const QString path = writeConfig(dir, "config.json", QJsonDocument(cfg).toJson());
    const Run r = runPoslab({"compute", "frequencies", "--config", path});
    EXPECT_OK(r);
    const auto want = toVector(c["output"].toObject()["inv_freq"].toArray());
    const auto got = toVector(r.json()["inv_freq"].toArray());
    QCOMPARE(got.size(), want.size());
    QVERIFY2(maxRelDiff(got, want) <= 2e-6, qPrintable(QString::number(maxRelDiff(got, want))));
    const double af = c["output"].toObject()["attention_factor"].toDouble();
    QVERIFY(std::abs(r.json()["attention_factor"].toDouble() - af) <= 2e-6 * af);
}

// Every rope type from a file equals the same parameters given as options (whose numbers the
// golden and core tests check against upstream): the file's keys land where transformers reads them.
void TestCli::configEveryRopeType_data() {
    QTest::addColumn<QByteArray>("config");
    QTest::addColumn<QStringList>("options");
    QTest::newRow("dynamic_v4") << QByteArray(R"({"head_dim":32,"max_position_embeddings":4096,"rope_theta":50000,"rope_scaling":{"type":"dynamic","factor":3}})")
                                << split("--head-dim 32 --base 50000 --scaling dynamic --factor 3 --max-positions 4096");
    QTest::newRow("dynamic_v5_seq") << QByteArray(R"({"head_dim":32,"max_position_embeddings":4096,"rope_parameters":{"rope_type":"dynamic","rope_theta":50000,"factor":3}})")
                                    << split("--head-dim 32 --base 50000 --scaling dynamic --factor 3 --max-positions 4096");
    QTest::newRow("yarn_deepseek_mscale") << QByteArray(R"({"hidden_size":7168,"num_attention_heads":128,"qk_rope_head_dim":64,"max_position_embeddings":163840,
        "rope_theta":10000,"rope_scaling":{"type":"yarn","factor":40,"beta_fast":32,"beta_slow":1,"mscale":1.0,"mscale_all_dim":1.0,"original_max_position_embeddings":4096}})")
        << split("--head-dim 64 --scaling yarn --factor 40 --original-max-positions 4096 --mscale 1 --mscale-all-dim 1");
    QTest::newRow("yarn_gptoss_no_truncate") << QByteArray(R"({"head_dim":64,"max_position_embeddings":131072,"rope_parameters":{"rope_type":"yarn","rope_theta":150000,
        "factor":32,"beta_fast":32,"beta_slow":1,"truncate":false,"original_max_position_embeddings":4096}})")
        << split("--head-dim 64 --base 150000 --scaling yarn --factor 32 --original-max-positions 4096 --no-truncate");
    QTest::newRow("yarn_factor_from_lengths") << QByteArray(R"({"head_dim":64,"max_position_embeddings":32768,"rope_scaling":{"rope_type":"yarn","original_max_position_embeddings":4096}})")
        << split("--head-dim 64 --scaling yarn --max-positions 32768 --original-max-positions 4096");
    QTest::newRow("longrope_phi3") << QByteArray(R"({"hidden_size":96,"num_attention_heads":12,"partial_rotary_factor":1.0,"max_position_embeddings":131072,
        "original_max_position_embeddings":4096,"rope_scaling":{"type":"longrope","short_factor":[1,1.1,1.2,1.3],"long_factor":[1,2,4,8]}})")
        << split("--head-dim 8 --scaling longrope --max-positions 131072 --original-max-positions 4096 --short-factor 1,1.1,1.2,1.3 --long-factor 1,2,4,8");
    QTest::newRow("longrope_long_seq") << QByteArray(R"({"head_dim":8,"max_position_embeddings":131072,"rope_parameters":{"rope_type":"longrope","factor":8,
        "attention_factor":1.1,"original_max_position_embeddings":4096,"short_factor":[1,1.1,1.2,1.3],"long_factor":[1,2,4,8]}})")
        << split("--head-dim 8 --scaling longrope --factor 8 --attention-factor 1.1 --original-max-positions 4096 --short-factor 1,1.1,1.2,1.3 --long-factor 1,2,4,8 --seq-len 5000");
    QTest::newRow("partial_neox") << QByteArray(R"({"hidden_size":2560,"num_attention_heads":32,"max_position_embeddings":4096,"rotary_pct":0.25,"rotary_emb_base":10000})")
                                  << split("--head-dim 80 --partial-rotary-factor 0.25");
}

// Every rope type (default, linear, dynamic, yarn with and without factor / original, DeepSeek's
// mscale pair, gpt-oss's fractional range, partial rotary, longrope Phi-3 style and with factor
// in the block, llama3 3.1/3.2/no original), each in the v5 and the v4 form: `compute frequencies
// --config` equals an independent NumPy transcription of transformers main's ROPE_INIT_FUNCTIONS
// (tests/data/config/rope_init_reference.py; e.g. YaRN's factor kept when the block also names
// original_max_position_embeddings, where transformers v4 replaced it by max/original).
void TestCli::configMatchesNumpyTranscription() {
    QTemporaryDir dir;
    QProcess py;
    py.start(QStringLiteral("/usr/bin/python3"), {QStringLiteral(POSLAB_SOURCE_DIR "/tests/data/config/rope_init_reference.py"),
                                                  QStringLiteral(POSLAB_EXE),
                                                  QStringLiteral(POSLAB_SOURCE_DIR "/tests/data/config/rope_init_cases.json"), dir.path()});
    QVERIFY(py.waitForFinished(120000));
    const QByteArray err = py.readAllStandardError(), out = py.readAllStandardOutput();
    if (py.exitCode() != 0 && err.contains("No module named 'numpy'")) QSKIP("/usr/bin/python3 has no NumPy");
    QVERIFY2(py.exitCode() == 0, (out + err).constData());
    QVERIFY2(out.contains("bad 0") && out.count(" ok ") == 34, out.constData());
}

void TestCli::configEveryRopeType() {
    QFETCH(QByteArray, config);
    QFETCH(QStringList, options);
    QTemporaryDir dir;
    const QString path = writeConfig(dir, "config.json", config);
    // --seq-len is not a file key; pass it to both.
    QStringList extra;
    if (options.contains("--seq-len")) extra = options.mid(options.indexOf("--seq-len"), 2);
    const Run fromFile = runPoslab(QStringList{"compute", "frequencies", "--config", path} + extra);
    const Run fromOptions = runPoslab(QStringList{"compute", "frequencies"} + options);
    EXPECT_OK(fromFile);
    EXPECT_OK(fromOptions);
    // A config's output names its layer first (cli.md "Added in 0.3"); the rest is the same.
    const QByteArray layerKeys = "\"layer\":0,\"layer_type\":\"full_attention\",\"rope\":true,";
    QVERIFY(fromFile.out.startsWith("{" + layerKeys));
    QCOMPARE(QByteArray(fromFile.out).remove(1, layerKeys.size()), fromOptions.out);
}

void TestCli::configOptionsOverride() {
    QTemporaryDir dir;
    const QString path = writeConfig(dir, "llama.json", R"({"hidden_size":4096,"num_attention_heads":32,"max_position_embeddings":131072,
        "rope_theta":500000.0,"rope_scaling":{"rope_type":"llama3","factor":8.0,"low_freq_factor":1.0,"high_freq_factor":4.0,
        "original_max_position_embeddings":8192}})");
    const Run over = runPoslab({"compute", "frequencies", "--config", path, "--factor", "4", "--head-dim", "64"});
    const Run plain = runPoslab(split("compute frequencies --head-dim 64 --base 500000 --scaling llama3 --factor 4 --low-freq-factor 1 "
                                      "--high-freq-factor 4 --original-max-positions 8192"));
    EXPECT_OK(over);
    EXPECT_OK(plain);
    QCOMPARE(withoutLayerKeys(over.out), plain.out);
    const Run none = runPoslab({"compute", "frequencies", "--config", path, "--scaling", "none"});
    EXPECT_OK(none);
    QCOMPARE(withoutLayerKeys(none.out), runPoslab(split("compute frequencies --head-dim 128 --base 500000")).out);
    // rope applies the file's parameters too.
    const Run r = runPoslab({"compute", "rope", "--config", path, "--positions", "0,1000", "--vector", QString("1,").repeated(127) + "1"});
    EXPECT_OK(r);
    const Run ro = runPoslab(split("compute rope --head-dim 128 --base 500000 --scaling llama3 --factor 8 --low-freq-factor 1 "
                                   "--high-freq-factor 4 --original-max-positions 8192 --positions 0,1000") +
                             QStringList{"--vector", QString("1,").repeated(127) + "1"});
    QCOMPARE(withoutLayerKeys(r.out), ro.out);
}

void TestCli::configScoresAndDecay() {
    QTemporaryDir dir;
    const QString bloom = writeConfig(dir, "bloom.json", R"({"model_type":"bloom","n_head":16,"hidden_size":1024})");
    const Run s = runPoslab({"compute", "scores", "--config", bloom, "--length", "5", "--head", "3", "--causal"});
    EXPECT_OK(s);
    QCOMPARE(withoutLayerKeys(s.out), runPoslab(split("compute scores --method alibi --dim 64 --heads 16 --length 5 --head 3 --causal")).out);
    const QString t5 = writeConfig(dir, "t5.json", R"({"model_type":"t5","num_heads":8,"d_kv":64,"relative_attention_num_buckets":32,
        "relative_attention_max_distance":64})");
    const Run d = runPoslab({"compute", "decay", "--config", t5, "--max-distance", "100"});
    EXPECT_OK(d);
    QCOMPARE(withoutLayerKeys(d.out), runPoslab(split("compute decay --method t5 --heads 8 --num-buckets 32 --t5-max-distance 64 --max-distance 100")).out);
    const QString gpt2 = writeConfig(dir, "gpt2.json", R"({"model_type":"gpt2","n_head":12,"n_embd":768,"n_positions":1024})");
    // 600 positions: past the default table's 512 rows, inside n_positions 1024.
    const Run g = runPoslab({"compute", "scores", "--config", gpt2, "--length", "600", "--summary", "--dim", "32"});
    EXPECT_OK(g);
    // GPT-2 is a decoder: its config makes the scene causal (cli.md "Added in 0.4").
    QCOMPARE(withoutLayerKeys(g.out),
             runPoslab(split("compute scores --method learned --dim 32 --table-size 1024 --length 600 --summary --causal")).out);
    // --method must agree with the file.
    const Run m = runPoslab({"compute", "scores", "--config", gpt2, "--method", "rope", "--length", "4"});
    QCOMPARE(m.code, 2);
    QVERIFY(m.out.isEmpty());
    QVERIFY2(m.err.startsWith("poslab: error: --method does not match --config"), m.err.constData());
}

void TestCli::configErrors_data() {
    QTest::addColumn<QByteArray>("config");
    QTest::addColumn<QStringList>("command");
    QTest::addColumn<QString>("error");   // after "poslab: error: --config <path>: "
    QTest::newRow("factor_negative") << QByteArray(R"({"head_dim":16,"max_position_embeddings":8,"rope_scaling":{"type":"linear","factor":-2}})")
                                     << split("compute frequencies") << "rope_scaling.factor must be a number from 1e-6 to 1e6, got -2";
    QTest::newRow("bad_json") << QByteArray("{") << split("compute scores --length 3") << "not a JSON config";
    QTest::newRow("theta_in_decay") << QByteArray(R"({"head_dim":16,"rope_theta":-1})") << split("compute decay --max-distance 3")
                                    << "rope_theta must be a number in (1, 1e12], got -1";
    QTest::newRow("figure") << QByteArray(R"({"head_dim":16,"rope_parameters":{"rope_type":"yarn","factor":0}})") << split("figure decay -o x.png")
                            << "max_position_embeddings is missing";
}

void TestCli::configErrors() {
    QFETCH(QByteArray, config);
    QFETCH(QStringList, command);
    QFETCH(QString, error);
    QTemporaryDir dir;
    const QString path = writeConfig(dir, "c.json", config);
    const Run r = runPoslab(command + QStringList{"--config", path});
    QCOMPARE(r.code, 2);
    QVERIFY(r.out.isEmpty());
    const QString want = "poslab: error: --config " + path + ": " + error;
    QVERIFY2(QString(r.err).startsWith(want), r.err.constData());
    QCOMPARE(r.err.count('\n'), 1);
    // An unreadable file is exit 2 naming it, too (cli.md).
    const Run missing = runPoslab(command + QStringList{"--config", dir.filePath("none.json")});
    QCOMPARE(missing.code, 2);
    QVERIFY(missing.err.startsWith("poslab: error: --config " + dir.filePath("none.json").toUtf8() + ": cannot read"));
}

// Real queries and keys (cli.md "Real queries and keys"): --length defaults to the files' N and
// --dim to their d; scores equal NumPy's RoPE-then-dot (tests/data/qk/expected.json); decay is the
// mean over the files' rows with "count".
void TestCli::qkScoresEqualNumpy() {
    const QString dir = QStringLiteral(POSLAB_SOURCE_DIR "/tests/data/qk/");
    QFile f(dir + "expected.json");
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonArray cases = QJsonDocument::fromJson(f.readAll()).object().value("cases").toArray();
    int checked = 0;
    for (const auto& c : cases) {
        const QJsonObject o = c.toObject();
        if (o.value("format").toString() == "npz-deflate") continue;   // the same reader path as npz (test_qkfile has all)
        const QString q = dir + o.value("q").toString(), k = dir + o.value("k").toString();
        const QStringList files = q == k ? QStringList{"--qk", q} : QStringList{"--q", q, "--k", k};
        const QStringList head{"--head", QString::number(o.value("head").toInt())};
        const Run r = runPoslab(QStringList{"compute", "scores", "--method", "rope", "--precision", "double"} + files + head);
        EXPECT_OK(r);
        const QJsonArray got = r.json().value("scores").toArray(), want = o.value("scores").toArray();
        QCOMPARE(got.size(), want.size());
        for (int i = 0; i < want.size(); ++i)
            for (int j = 0; j < want.size(); ++j)
                QVERIFY2(std::abs(got[i].toArray()[j].toDouble() - want[i].toArray()[j].toDouble()) < 1e-12,
                         qPrintable(o.value("q").toString()));
        const Run d = runPoslab(QStringList{"compute", "decay", "--method", "rope", "--precision", "double"} + files + head);
        EXPECT_OK(d);
        QCOMPARE(d.json().value("count").toArray(), o.value("count").toArray());
        const QJsonArray dv = d.json().value("value").toArray(), dw = o.value("decay").toArray();
        QCOMPARE(dv.size(), dw.size());
        for (int t = 0; t < dw.size(); ++t) QVERIFY(std::abs(dv[t].toDouble() - dw[t].toDouble()) < 1e-12);
        ++checked;
    }
    QVERIFY(checked >= 25);
}

void TestCli::qkErrors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    const QString dir = QStringLiteral(POSLAB_SOURCE_DIR "/tests/data/qk/");
    const QStringList scores{"compute", "scores", "--method", "rope"};
    QTest::newRow("length past N") << scores + QStringList{"--qk", dir + "3d_float32.npz", "--length", "6"} << 2
                                   << "poslab: error: invalid --length, at most the N of the query/key file (3d_float32.npz) = 5, got 6";
    QTest::newRow("dim not d") << scores + QStringList{"--qk", dir + "3d_float32.npz", "--dim", "4"} << 2
                               << "poslab: error: invalid --dim, the d of the query/key file (3d_float32.npz) = 8, got 4";
    QTest::newRow("q without k") << scores + QStringList{"--q", dir + "2d_float32_q.npy"} << 2 << "poslab: error: --q needs --k";
    QTest::newRow("qk and q") << scores + QStringList{"--qk", dir + "2d_float32.npz", "--q", dir + "2d_float32_q.npy"} << 2
                              << "poslab: error: --qk and --q/--k conflict";
    QTest::newRow("content beside files") << scores + QStringList{"--qk", dir + "2d_float32.npz", "--content", "random"} << 2
                                          << "poslab: error: --content and the query/key files conflict";
    QTest::newRow("npy holds no k") << scores + QStringList{"--qk", dir + "2d_float32_q.npy"} << 2
                                    << "poslab: error: --qk 2d_float32_q.npy: missing tensor k";
    QTest::newRow("head past the file's") << scores + QStringList{"--qk", dir + "3d_float32.npz", "--head", "2"} << 2
                                          << "poslab: error: --qk 3d_float32.npz: --head, an integer from 0 to 1";
    QTest::newRow("missing file") << scores + QStringList{"--q", dir + "none.npy", "--k", dir + "2d_float32_k.npy"} << 1
                                  << "poslab: error: --q none.npy: cannot read";
    QTest::newRow("decay past N") << QStringList{"compute", "decay", "--method", "rope", "--qk", dir + "2d_float32.npz",
                                                 "--max-distance", "5"}
                                  << 2 << "poslab: error: invalid --max-distance, distances from 0 to length − 1 = 4, got 5";
}

void TestCli::qkErrors() {
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, message);
    const Run r = runPoslab(args);
    QCOMPARE(r.code, code);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(QString::fromUtf8(r.err).startsWith(message), r.err.constData());
    QCOMPARE(r.err.count('\n'), 1);
}

#include "test_cli.moc"
