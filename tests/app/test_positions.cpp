// Multimodal positions on the command line (cli.md "Added in 0.4", "Multimodal positions"):
// `compute positions` against every get_rope_index case of the golden files that is one unpadded
// sequence (exact JSON), `compute frequencies --mrope-section` against the axis cases, `--vision`
// against the vision cases; `rope`, `scores` and `decay` with --tokens checked against the plain
// commands (each token's rotation uses its own t, h, w ids through the sections); Qwen-VL configs
// (v4 rope_scaling type mrope, v5 rope_parameters, text_config/vision_config) setting the sections,
// the layout, θ and the merge size; and bad input: exit 2 with one line naming what is wrong.
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "support/runposlab.h"
#include "support/testsupport.h"

using testsupport::goldenCase;
using testsupport::runPoslab;

namespace {

const QStringList kFiles = {"modern_qwen2_vl.json", "modern_qwen2_5_vl.json", "modern_qwen3_vl.json"};

QString modelOfFile(const QString& file) {
    if (file.contains("qwen2_5")) return "qwen2.5-vl";
    if (file.contains("qwen3")) return "qwen3-vl";
    return "qwen2-vl";
}

QList<QList<qint64>> gridsOf(const QJsonValue& v) {
    QList<QList<qint64>> out;
    for (const auto& g : v.toArray()) out << QList<qint64>{g.toArray()[0].toInteger(), g.toArray()[1].toInteger(), g.toArray()[2].toInteger()};
    return out;
}

// The --tokens layout of a one-sequence case (Qwen3-VL: one video:1xHxW per frame).
QString layoutOf(const QString& file, const QJsonObject& p) {
    auto images = gridsOf(p.value("image_grid_thw")), videos = gridsOf(p.value("video_grid_thw"));
    if (file.contains("qwen3")) {
        QList<QList<qint64>> frames;
        for (const auto& g : videos)
            for (qint64 t = 0; t < g[0]; ++t) frames << QList<qint64>{1, g[1], g[2]};
        videos = frames;
    }
    int ni = 0, nv = 0;
    QStringList parts;
    for (const auto& s : p.value("segments").toArray()[0].toArray()) {
        const int type = s.toArray()[0].toInt();
        if (type == 0) {
            parts << QString("text:%1").arg(s.toArray()[1].toInteger());
        } else {
            const auto g = type == 1 ? images.value(ni++) : videos.value(nv++);
            parts << QString("%1:%2x%3x%4").arg(type == 1 ? "image" : "video").arg(g[0]).arg(g[1]).arg(g[2]);
        }
    }
    return parts.join(',');
}

QJsonArray row0(const QJsonValue& axes) {   // [3][1][seq] → [3][seq]
    QJsonArray out;
    for (const auto& a : axes.toArray()) out << a.toArray()[0];
    return out;
}

QVector<double> doubles(const QJsonValue& v) {
    QVector<double> out;
    for (const auto& x : v.toArray()) out << x.toDouble();
    return out;
}

QVector<QVector<double>> rows(const QJsonValue& v) {
    QVector<QVector<double>> out;
    for (const auto& r : v.toArray()) out << doubles(r);
    return out;
}

}  // namespace

class TestPositions : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString write(const QString& name, const QByteArray& bytes) {
        const QString path = dir_.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
        f.write(bytes);
        return path;
    }

private Q_SLOTS:
    // ------------------------------------------------------------------ golden: position ids
    void goldenPositions_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("name");
        int n = 0;
        for (const QString& file : kFiles)
            for (const auto& c : testsupport::golden(file).value("cases").toArray()) {
                const QJsonObject o = c.toObject();
                const QJsonObject p = o.value("params").toObject();
                if (!o.value("output").toObject().contains("position_ids")) continue;
                // One unpadded sequence is what a --tokens layout describes (core tests take the batches).
                if (p.value("mm_token_type_ids").toArray().size() != 1 || p.value("attention_mask").isArray()) continue;
                QTest::newRow(qPrintable(file.section('.', 0, 0) + "/" + o.value("name").toString())) << file << o.value("name").toString();
                ++n;
            }
        QVERIFY(n >= 2);
    }
    void goldenPositions() {
        QFETCH(QString, file);
        QFETCH(QString, name);
        const QJsonObject c = goldenCase(file, name);
        const QJsonObject p = c.value("params").toObject(), out = c.value("output").toObject();
        QStringList args = {"compute", "positions", "--tokens", layoutOf(file, p), "--model", modelOfFile(file), "--merge",
                            QString::number(p.value("spatial_merge_size").toInt())};
        if (p.contains("vision_config.tokens_per_second"))
            args << "--tokens-per-second" << QString::number(p.value("vision_config.tokens_per_second").toInt());
        if (p.value("second_per_grid_ts").isArray()) {
            QStringList s;
            for (const auto& x : p.value("second_per_grid_ts").toArray()) s << QString::number(x.toDouble(), 'g', 17);
            args << "--second-per-grid" << s.join(',');
        }
        const auto r = runPoslab(args);
        QVERIFY2(r.code == 0, qPrintable(args.join(' ') + ": " + r.describe()));
        const QJsonObject j = r.json();
        QCOMPARE(j.value("position_ids").toArray(), row0(out.value("position_ids")));
        QCOMPARE(j.value("rope_deltas").toInteger(), out.value("rope_deltas").toArray()[0].toArray()[0].toInteger());
        const QJsonArray types = p.value("mm_token_type_ids").toArray()[0].toArray();
        const QJsonArray kinds = j.value("kinds").toArray();
        QCOMPARE(kinds.size(), types.size());
        static const QStringList names = {"text", "image", "video"};
        for (qsizetype k = 0; k < kinds.size(); ++k) QCOMPARE(kinds[k].toString(), names[types[k].toInt()]);
    }

    // ------------------------------------------------------------------ golden: axes
    void goldenAxes_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("name");
        for (const QString& file : kFiles)
            for (const auto& c : testsupport::golden(file).value("cases").toArray()) {
                const QJsonObject out = c.toObject().value("output").toObject();
                if (out.contains("axis_of_channel") || out.contains("axis_of_frequency"))
                    QTest::newRow(qPrintable(file.section('.', 0, 0) + "/" + c.toObject().value("name").toString()))
                        << file << c.toObject().value("name").toString();
            }
    }
    void goldenAxes() {
        QFETCH(QString, file);
        QFETCH(QString, name);
        const QJsonObject c = goldenCase(file, name);
        const QJsonObject p = c.value("params").toObject(), out = c.value("output").toObject();
        QStringList section;
        for (const auto& x : p.value("mrope_section").toArray()) section << QString::number(x.toInt());
        const bool inter = out.contains("axis_of_frequency");
        const int headDim = p.value("head_dim").toInt();
        const auto r = runPoslab({"compute", "frequencies", "--head-dim", QString::number(headDim), "--mrope-section",
                                  section.join(','), "--mrope-layout", inter ? "interleaved" : "sectioned"});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        const QJsonArray axis = r.json().value("axis").toArray();
        QCOMPARE(axis.size(), qsizetype(headDim / 2));
        const QJsonArray want = out.value(inter ? "axis_of_frequency" : "axis_of_channel").toArray();
        for (qsizetype ch = 0; ch < want.size(); ++ch) QCOMPARE(axis[ch % (headDim / 2)].toInt(), want[ch].toInt());
    }

    // ------------------------------------------------------------------ golden: vision
    void goldenVision_data() {
        QTest::addColumn<QString>("name");
        for (const auto& c : testsupport::golden("modern_vision_2d.json").value("cases").toArray())
            QTest::newRow(qPrintable(c.toObject().value("name").toString())) << c.toObject().value("name").toString();
    }
    void goldenVision() {
        QFETCH(QString, name);
        const QJsonObject c = goldenCase("modern_vision_2d.json", name);
        const QJsonObject p = c.value("params").toObject(), out = c.value("output").toObject();
        const QString function = c.value("function").toString();
        if (function.contains("get_vision_position_ids")) {
            const auto g = p.value("grid_thw").toArray()[0].toArray();
            const auto r = runPoslab({"compute", "positions", "--vision", "qwen", "--grid",
                                      QString("%1x%2x%3").arg(g[0].toInt()).arg(g[1].toInt()).arg(g[2].toInt()), "--merge",
                                      QString::number(p.value("spatial_merge_size").toInt())});
            QVERIFY2(r.code == 0, qPrintable(r.describe()));
            QCOMPARE(r.json().value("position_ids").toArray(), out.value("position_ids").toArray());
            return;
        }
        if (function.startsWith("Pixtral") && out.contains("table")) {
            const int headDim = p.value("head_dim").toInt();
            const int side = p.value("image_size").toInt() / p.value("patch_size").toInt();
            const auto f = runPoslab({"compute", "frequencies", "--vision", "pixtral", "--head-dim", QString::number(headDim), "--base",
                                      QString::number(p.value("rope_theta").toDouble(), 'g', 17)});
            QVERIFY2(f.code == 0, qPrintable(f.describe()));
            const auto inv = doubles(f.json().value("inv_freq"));
            const auto axis = doubles(f.json().value("axis"));
            const auto ids = runPoslab({"compute", "positions", "--vision", "pixtral", "--grid", QString("1x%1x%1").arg(side),
                                        "--patches-per-side", QString::number(side)});
            QVERIFY2(ids.code == 0, qPrintable(ids.describe()));
            const auto table = rows(out.value("table"));
            const QJsonArray idList = ids.json().value("position_ids").toArray();
            QCOMPARE(idList.size(), qsizetype(side * side));
            for (int k = 0; k < side * side; ++k) {
                const int id = idList[k].toInt(), row = k / side, col = k % side;
                QCOMPARE(id, row * side + col);
                for (int j = 0; j < headDim; ++j) {
                    const double angle = float(float(axis[j % (headDim / 2)] == 1 ? row : col) * float(inv[j % (headDim / 2)]));
                    QVERIFY2(std::abs(angle - table[id][j]) <= 5e-6, qPrintable(QString("id %1 channel %2").arg(id).arg(j)));
                }
            }
            return;
        }
        QFAIL(qPrintable("no check for this kind of case: " + function));
    }

    // ------------------------------------------------------------------ rope --tokens
    // Each frequency of each token uses its axis' id: the columns of `rope --tokens` equal those of
    // plain `rope --positions` at the t, h or w ids.
    void ropeTokens_data() {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<QString>("model");
        QTest::newRow("sectioned qwen2-vl") << "sectioned" << "qwen2-vl";
        QTest::newRow("interleaved qwen3-vl") << "interleaved" << "qwen3-vl";
    }
    void ropeTokens() {
        QFETCH(QString, layout);
        QFETCH(QString, model);
        const QString tokens = "text:2,image:1x4x6,text:1";
        const QString vec = "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16";
        const auto m = runPoslab({"compute", "rope", "--head-dim", "16", "--base", "1000000", "--mrope-section", "2,3,3", "--model",
                                  model, "--tokens", tokens, "--vector", vec});
        QVERIFY2(m.code == 0, qPrintable(m.describe()));
        const QJsonArray ids = m.json().value("position_ids").toArray();
        QCOMPARE(ids.size(), qsizetype(3));
        const auto pos = runPoslab({"compute", "positions", "--tokens", tokens, "--model", model});
        QCOMPARE(ids, pos.json().value("position_ids").toArray());
        // The axis of each frequency, as frequencies reports it for these sections.
        const auto f = runPoslab({"compute", "frequencies", "--head-dim", "16", "--mrope-section", "2,3,3", "--mrope-layout", layout});
        const auto axis = doubles(f.json().value("axis"));
        const auto cos = rows(m.json().value("cos")), sin = rows(m.json().value("sin"));
        for (int a = 0; a < 3; ++a) {
            QStringList p;
            for (const auto& x : ids[a].toArray()) p << QString::number(x.toInteger());
            const auto plain = runPoslab({"compute", "rope", "--head-dim", "16", "--base", "1000000", "--positions", p.join(','),
                                          "--vector", vec});
            QVERIFY2(plain.code == 0, qPrintable(plain.describe()));
            const auto pc = rows(plain.json().value("cos")), ps = rows(plain.json().value("sin"));
            for (int k = 0; k < cos.size(); ++k)
                for (int j = 0; j < 16; ++j)
                    if (int(axis[j % 8]) == a) {
                        QCOMPARE(cos[k][j], pc[k][j]);
                        QCOMPARE(sin[k][j], ps[k][j]);
                    }
        }
        // Text only: the plain rotation at 0..N-1.
        const auto t = runPoslab({"compute", "rope", "--head-dim", "16", "--mrope-section", "2,3,3", "--tokens", "text:4", "--vector", vec});
        const auto plain = runPoslab({"compute", "rope", "--head-dim", "16", "--positions", "0:4", "--vector", vec});
        QCOMPARE(t.json().value("rotated"), plain.json().value("rotated"));
    }

    // scores --tokens: s·(R q_i)·(R k_j) with the rows rotated at their own ids (from rope --tokens
    // --vectors with the formula content); decay --tokens: the mean of score(i, i − d).
    void scoresAndDecayTokens() {
        const QString tokens = "text:2,image:1x4x4,text:2";
        const int n = 8, d = 16;
        QByteArray q = "[", k = "[";
        for (int i = 0; i < n; ++i) {
            q += i ? ",[" : "[";
            k += i ? ",[" : "[";
            for (int c = 0; c < d; ++c) {
                const int flat = i * d + c;
                q += QByteArray::number(std::sin(0.5 + 0.7 * flat), 'g', 17) + (c + 1 < d ? "," : "");
                k += QByteArray::number(std::sin(0.3 + 1.1 * flat), 'g', 17) + (c + 1 < d ? "," : "");
            }
            q += "]";
            k += "]";
        }
        q += "]";
        k += "]";
        const QStringList common = {"--mrope-section", "2,3,3", "--tokens", tokens, "--precision", "double"};
        const auto rq = runPoslab(QStringList{"compute", "rope", "--head-dim", "16", "--vectors", write("q.json", q)} + common);
        const auto rk = runPoslab(QStringList{"compute", "rope", "--head-dim", "16", "--vectors", write("k.json", k)} + common);
        QVERIFY2(rq.code == 0 && rk.code == 0, qPrintable(rq.describe() + rk.describe()));
        const auto Q = rows(rq.json().value("rotated")), K = rows(rk.json().value("rotated"));
        const auto s = runPoslab(QStringList{"compute", "scores", "--method", "rope", "--dim", "16", "--content", "formula"} + common);
        QVERIFY2(s.code == 0, qPrintable(s.describe()));
        const auto S = rows(s.json().value("scores"));
        QCOMPARE(S.size(), n);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                double dot = 0;
                for (int c = 0; c < d; ++c) dot += Q[i][c] * K[j][c];
                QVERIFY2(std::abs(S[i][j] - dot / 4.0) <= 1e-9, qPrintable(QString("(%1, %2): %3 vs %4").arg(i).arg(j).arg(S[i][j]).arg(dot / 4)));
            }
        // Not the plain RoPE scores: the image's tokens carry other ids than 2..5.
        const auto plain = runPoslab({"compute", "scores", "--method", "rope", "--dim", "16", "--content", "formula", "--length", "8",
                                      "--precision", "double"});
        QVERIFY(plain.json().value("scores") != s.json().value("scores"));
        const auto dc = runPoslab(QStringList{"compute", "decay", "--method", "rope", "--dim", "16", "--content", "formula"} + common);
        QVERIFY2(dc.code == 0, qPrintable(dc.describe()));
        const auto value = doubles(dc.json().value("value"));
        QCOMPARE(value.size(), n);   // distances 0 … N−1 by default
        for (int dist = 0; dist < n; ++dist) {
            double sum = 0;
            for (int i = dist; i < n; ++i) sum += S[i][i - dist];
            QVERIFY2(std::abs(value[dist] - sum / (n - dist)) <= 1e-9, qPrintable(QString("distance %1").arg(dist)));
        }
    }

    // ------------------------------------------------------------------ configs
    void qwenVlConfigs_data() {
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<QString>("axisCounts");   // frequencies following t, h, w
        QTest::addColumn<bool>("interleaved");
        QTest::addColumn<double>("theta");
        QTest::addColumn<QString>("positionsArgs");
        QTest::addColumn<QString>("t");   // the t ids of those positions
        // Qwen2-VL-7B's keys (v4): rope_scaling type mrope, vision_config.spatial_merge_size.
        QTest::newRow("qwen2-vl v4 rope_scaling mrope")
            << QByteArray(R"({"model_type": "qwen2_vl", "architectures": ["Qwen2VLForConditionalGeneration"], "hidden_size": 3584,
                "num_attention_heads": 28, "num_hidden_layers": 28, "max_position_embeddings": 32768, "rope_theta": 1000000.0,
                "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}, "vision_config": {"spatial_merge_size": 2}})")
            << "16,24,24" << false << 1e6 << "text:1,image:1x4x4" << "0,1,1,1,1";
        // Qwen2.5-VL's keys (v4) with tokens_per_second 2: a 2-frame video at interval 2.
        QTest::newRow("qwen2.5-vl v4 tokens_per_second")
            << QByteArray(R"({"model_type": "qwen2_5_vl", "hidden_size": 2048, "num_attention_heads": 16, "num_hidden_layers": 36,
                "max_position_embeddings": 128000, "rope_theta": 1000000.0,
                "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]},
                "vision_config": {"spatial_merge_size": 2, "tokens_per_second": 2}})")
            << "16,24,24" << false << 1e6 << "video:2x2x2,text:1" << "0,2,1";
        // Qwen3-VL (v5): text_config with rope_parameters, interleaved whatever mrope_interleaved says.
        QTest::newRow("qwen3-vl v5 text_config")
            << QByteArray(R"({"model_type": "qwen3_vl", "text_config": {"model_type": "qwen3_vl_text", "head_dim": 128,
                "hidden_size": 2560, "num_attention_heads": 32, "num_hidden_layers": 36, "max_position_embeddings": 262144,
                "rope_parameters": {"rope_type": "default", "rope_theta": 5000000, "mrope_section": [24, 20, 20],
                "mrope_interleaved": true}}, "vision_config": {"spatial_merge_size": 2, "hidden_size": 1024}})")
            << "24,20,20" << true << 5e6 << "text:1,video:1x4x4,text:2,video:1x4x4" << "0,1,1,1,1,3,4,5,5,5,5";
        // merge 1 from vision_config: an image 1x2x2 is 4 tokens.
        QTest::newRow("qwen2-vl v5 merge 1")
            << QByteArray(R"({"model_type": "qwen2_vl", "hidden_size": 1024, "num_attention_heads": 16, "num_hidden_layers": 2,
                "max_position_embeddings": 4096, "rope_parameters": {"rope_type": "default", "rope_theta": 10000,
                "mrope_section": [8, 12, 12]}, "vision_config": {"spatial_merge_size": 1}})")
            << "8,12,12" << false << 1e4 << "image:1x2x2" << "0,0,0,0";
    }
    void qwenVlConfigs() {
        QFETCH(QByteArray, config);
        QFETCH(QString, axisCounts);
        QFETCH(bool, interleaved);
        QFETCH(double, theta);
        QFETCH(QString, positionsArgs);
        QFETCH(QString, t);
        const QString path = write(QString("config-%1.json").arg(QTest::currentDataTag()).replace(' ', '_'), config);
        const auto f = runPoslab({"compute", "frequencies", "--config", path});
        QVERIFY2(f.code == 0, qPrintable(f.describe()));
        const auto axis = doubles(f.json().value("axis"));
        int counts[3] = {0, 0, 0};
        for (double a : axis) ++counts[int(a)];
        QCOMPARE(QString("%1,%2,%3").arg(counts[0]).arg(counts[1]).arg(counts[2]), axisCounts);
        QCOMPARE(axis.size() > 1 && axis[1] == 1, interleaved);   // sectioned: index 1 follows t
        const auto inv = doubles(f.json().value("inv_freq"));
        QVERIFY(std::abs(inv[1] - std::pow(theta, -2.0 / (2 * inv.size()))) <= 1e-6 * inv[1]);
        const auto p = runPoslab({"compute", "positions", "--config", path, "--tokens", positionsArgs});
        QVERIFY2(p.code == 0, qPrintable(p.describe()));
        QStringList got;
        for (const auto& x : p.json().value("position_ids").toArray()[0].toArray()) got << QString::number(x.toInteger());
        QCOMPARE(got.join(','), t);
        // The read report: vision_config is used (it set the merge size), nothing is left out.
        const auto rep = runPoslab({"compute", "config", "--config", path});
        QVERIFY2(rep.code == 0, qPrintable(rep.describe()));
        QVERIFY2(rep.json().value("used").toObject().contains("vision_config"), rep.out.constData());
        QVERIFY(!rep.json().value("ignored").toObject().contains("vision_config"));
        // scores --tokens with the config: still a RoPE layer (each token rotated by its own ids).
        const auto sc = runPoslab({"compute", "scores", "--config", path, "--tokens", positionsArgs, "--summary"});
        QVERIFY2(sc.code == 0, qPrintable(sc.describe()));
        QCOMPARE(sc.json().value("rope").toBool(false), true);
        // rope --tokens with the config: sections from the file, no --mrope-section needed.
        const auto r = runPoslab({"compute", "rope", "--config", path, "--tokens", positionsArgs, "--vector",
                                  QString("1,").repeated(2 * inv.size() - 1) + "1"});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
    }

    // ------------------------------------------------------------------ bad input
    void errors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("names");
        const QStringList pos = {"compute", "positions"};
        QTest::newRow("positions no tokens") << pos << "--tokens";
        QTest::newRow("positions imag:1x4x6") << pos + QStringList{"--tokens", "imag:1x4x6"} << "--tokens";
        QTest::newRow("positions text:0") << pos + QStringList{"--tokens", "text:0"} << "--tokens";
        QTest::newRow("positions image:1x3x4") << pos + QStringList{"--tokens", "image:1x3x4"} << "--tokens";
        QTest::newRow("positions image,image") << pos + QStringList{"--tokens", "image:1x2x2,image:1x2x2"} << "--tokens";
        QTest::newRow("positions qwen3 video:2x2x2") << pos + QStringList{"--tokens", "video:2x2x2", "--model", "qwen3-vl"} << "--tokens";
        QTest::newRow("positions model qwen4") << pos + QStringList{"--tokens", "text:2", "--model", "qwen4"} << "--model";
        QTest::newRow("positions merge 0") << pos + QStringList{"--tokens", "text:2", "--merge", "0"} << "--merge";
        QTest::newRow("positions tps without qwen2.5") << pos + QStringList{"--tokens", "video:2x2x2", "--tokens-per-second", "4"}
                                                        << "--tokens-per-second";
        QTest::newRow("positions spg 3 for 1 video")
            << pos + QStringList{"--tokens", "video:2x2x2", "--model", "qwen2.5-vl", "--second-per-grid", "1,2,3"} << "--second-per-grid";
        QTest::newRow("positions merge text only") << pos + QStringList{"--tokens", "text:4", "--merge", "1"} << "--merge";
        QTest::newRow("positions spg without video")
            << pos + QStringList{"--tokens", "image:1x2x2", "--model", "qwen2.5-vl", "--second-per-grid", "2"} << "--second-per-grid";
        QTest::newRow("positions tps without video")
            << pos + QStringList{"--tokens", "text:2,image:1x2x2", "--model", "qwen2.5-vl", "--tokens-per-second", "4"}
            << "--tokens-per-second";
        QTest::newRow("positions grid without vision") << pos + QStringList{"--tokens", "text:2", "--grid", "1x4x4"} << "--grid";
        QTest::newRow("positions vision without grid") << pos + QStringList{"--vision", "qwen"} << "--grid";
        QTest::newRow("positions vision grid 1x3x4") << pos + QStringList{"--vision", "qwen", "--grid", "1x3x4"} << "--grid";
        QTest::newRow("positions pixtral grid too wide") << pos + QStringList{"--vision", "pixtral", "--grid", "1x4x65"} << "--grid";
        QTest::newRow("positions pixtral merge") << pos + QStringList{"--vision", "pixtral", "--grid", "1x4x4", "--merge", "1"} << "--merge";
        QTest::newRow("frequencies section sum") << QStringList{"compute", "frequencies", "--head-dim", "128", "--mrope-section", "16,24,23"}
                                                 << "--mrope-section";
        QTest::newRow("frequencies layout without section")
            << QStringList{"compute", "frequencies", "--head-dim", "128", "--mrope-layout", "interleaved"} << "--mrope-layout";
        QTest::newRow("frequencies vision head-dim 10") << QStringList{"compute", "frequencies", "--head-dim", "10", "--vision", "qwen"}
                                                        << "--head-dim";
        QTest::newRow("frequencies vision with scaling")
            << QStringList{"compute", "frequencies", "--head-dim", "16", "--vision", "qwen", "--scaling", "linear", "--factor", "2"}
            << "--scaling";
        QTest::newRow("rope tokens without section")
            << QStringList{"compute", "rope", "--head-dim", "8", "--tokens", "text:2", "--vector", "1,1,1,1,1,1,1,1"} << "--mrope-section";
        QTest::newRow("rope tokens and positions")
            << QStringList{"compute", "rope", "--head-dim", "8", "--tokens", "text:2", "--mrope-section", "1,1,2", "--positions", "0:2",
                           "--vector", "1,1,1,1,1,1,1,1"}
            << "--tokens";
        QTest::newRow("rope section without tokens")
            << QStringList{"compute", "rope", "--head-dim", "8", "--mrope-section", "1,1,2", "--positions", "0:2", "--vector", "1,1,1,1,1,1,1,1"}
            << "--mrope-section";
        QTest::newRow("scores length vs tokens")
            << QStringList{"compute", "scores", "--method", "rope", "--dim", "8", "--tokens", "text:3", "--mrope-section", "1,1,2", "--length", "4"}
            << "--length";
        QTest::newRow("scores tokens with alibi")
            << QStringList{"compute", "scores", "--method", "alibi", "--dim", "8", "--tokens", "text:3", "--length", "3"} << "--tokens";
        QTest::newRow("positions llama config")
            << QStringList{"compute", "positions", "--tokens", "text:2", "--config", POSLAB_SOURCE_DIR "/resources/models/gemma-3-4b.json"}
            << "--config";
    }
    void errors() {
        QFETCH(QStringList, args);
        QFETCH(QString, names);
        const auto r = runPoslab(args);
        EXPECT_REFUSAL_NAMING(r, names);
        QVERIFY(r.out.isEmpty());
    }

    void help() {
        const auto r = runPoslab({"compute", "positions", "--help"});
        QCOMPARE(r.code, 0);
        for (const char* o : {"--tokens", "--model", "--merge", "--tokens-per-second", "--second-per-grid", "--vision", "--grid",
                              "--patches-per-side"})
            QVERIFY2(r.out.contains(o), o);
        const auto c = runPoslab({"compute", "--help"});
        QVERIFY(c.out.contains("positions"));
    }
};

QTEST_GUILESS_MAIN(TestPositions)
#include "test_positions.moc"
