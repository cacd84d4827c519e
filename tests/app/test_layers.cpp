// Layer by layer on the command line (cli.md "Added in 0.3"): `compute layers` on the shipped
// model configurations (resources/models) and on the golden cases of tests/data/golden/modern_*.json,
// --layer / --layer-type, the attention options against the golden masks, temperature and sinks,
// the layer keys of every output, and one-line errors.
#include "support/runposlab.h"
#include "support/testsupport.h"

#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>

using namespace testsupport;

namespace {


using Run = testsupport::PoslabRun;
using testsupport::runPoslab;

QJsonObject okJson(const QStringList& args) {
    const Run r = runPoslab(args);
    if (r.code != 0) qWarning("%s", r.err.constData());
    [&] { QCOMPARE(r.code, 0); }();
    return QJsonDocument::fromJson(r.out).object();
}

QString model(const QString& key) { return testsupport::modelFile(key); }

QString writeConfig(const QTemporaryDir& dir, const QString& name, const QByteArray& json) { return testsupport::writeFile(dir, name, json); }

QStringList split(const QString& s) { return s.split(QLatin1Char(' '), Qt::SkipEmptyParts); }

bool close(double a, double b, double rel = 2e-6) { return std::abs(a - b) <= rel * std::max(1.0, std::abs(b)); }

}  // namespace

class TestLayers : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void modelConfigs_data();
    void modelConfigs();
    void goldenLayerTypes_data();
    void goldenLayerTypes();
    void gemma3V4RopePerType();
    void deepseekSoftmaxScaleAndFrequencies();
    void gptOssYarnFrequencies();
    void llama4ScoutFrequenciesAreUnchangedOrDivided();
    void chooseLayer();
    void goldenMasks_data();
    void goldenMasks();
    void goldenTemperature();
    void goldenSinks();
    void decaySaysWhereItStops();
    void errorsAreOneLine_data();
    void errorsAreOneLine();
    void figureLayers_data();
    void figureLayers();
    void figureLayersData_data();
    void figureLayersData();
};

// Each shipped model configuration: layer count, the layers of each type, NoPE layers, window or
// chunk, base θ per type, softmax scale.
void TestLayers::modelConfigs_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<int>("layers");
    QTest::addColumn<QString>("fullLayers");    // comma list of the first full layers (up to 4)
    QTest::addColumn<QString>("nopeLayers");    // first NoPE layers (up to 4)
    QTest::addColumn<QString>("local");         // "window W" / "chunk C" / ""
    QTest::addColumn<double>("thetaFull");
    QTest::addColumn<double>("thetaLocal");
    QTest::addColumn<double>("scale");
    QTest::newRow("gemma-3-4b") << "gemma-3-4b" << 34 << "5,11,17,23" << "" << "window 1024" << 1e6 << 1e4 << 1.0 / 16;
    QTest::newRow("gemma-3-27b") << "gemma-3-27b" << 62 << "5,11,17,23" << "" << "window 1024" << 1e6 << 1e4 << 1.0 / std::sqrt(168.0);
    QTest::newRow("llama-4-scout") << "llama-4-scout" << 48 << "3,7,11,15" << "3,7,11,15" << "chunk 8192" << 5e5 << 5e5 << 1.0 / std::sqrt(128.0);
    QTest::newRow("gpt-oss-20b") << "gpt-oss-20b" << 24 << "1,3,5,7" << "" << "window 128" << 150000.0 << 150000.0 << 0.125;
    QTest::newRow("command-a") << "command-a" << 64 << "3,7,11,15" << "3,7,11,15" << "window 4096" << 50000.0 << 50000.0 << 1.0 / std::sqrt(128.0);
    QTest::newRow("smollm3-3b") << "smollm3-3b" << 36 << "0,1,2,3" << "3,7,11,15" << "" << 5e6 << 5e6 << 1.0 / std::sqrt(128.0);
    QTest::newRow("modernbert-base") << "modernbert-base" << 22 << "0,3,6,9" << "" << "window 128" << 160000.0 << 10000.0 << 0.125;
    QTest::newRow("deepseek-v3") << "deepseek-v3" << 61 << "0,1,2,3" << "" << "" << 1e4 << 1e4 << 0.1352337788608801;
}

void TestLayers::modelConfigs() {
    QFETCH(QString, key);
    QFETCH(int, layers);
    QFETCH(QString, fullLayers);
    QFETCH(QString, nopeLayers);
    QFETCH(QString, local);
    QFETCH(double, thetaFull);
    QFETCH(double, thetaLocal);
    QFETCH(double, scale);
    const QJsonObject o = okJson({"compute", "layers", "--config", model(key)});
    QCOMPARE(o.value("num_layers").toInt(), layers);
    // ModernBERT alone is an encoder: its layers attend both ways.
    QCOMPARE(o.value("bidirectional").toBool(), key == QLatin1String("modernbert-base"));
    const QJsonArray ls = o.value("layers").toArray();
    QCOMPARE(ls.size(), layers);
    QStringList full, nope;
    for (const auto& v : ls) {
        const QJsonObject l = v.toObject();
        const bool isFull = l.value("layer_type").toString() == "full_attention";
        if (isFull && full.size() < 4) full << QString::number(l.value("index").toInt());
        if (!l.value("rope").toBool() && nope.size() < 4) nope << QString::number(l.value("index").toInt());
        QVERIFY(close(l.value("softmax_scale").toDouble(), scale));
        const double theta = l.value("rope_theta").toDouble();
        QCOMPARE(theta, isFull ? thetaFull : thetaLocal);
        if (!isFull && !local.isEmpty()) {
            const QStringList w = local.split(' ');
            QCOMPARE(l.value(w[0]).toInt(), w[1].toInt());
        } else {
            QVERIFY(!l.contains("window") && !l.contains("chunk"));
        }
    }
    QCOMPARE(full.join(','), fullLayers);
    QCOMPARE(nope.join(','), nopeLayers);
}

// Golden layer patterns (modern_*.json): a config with just the family and the layer count.
void TestLayers::goldenLayerTypes_data() {
    QTest::addColumn<QByteArray>("config");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("name");
    QTest::newRow("gemma3_n34") << QByteArray(R"({"model_type":"gemma3_text","num_hidden_layers":34})") << "modern_gemma3.json" << "layer_types_n34";
    QTest::newRow("llama4_n8") << QByteArray(R"({"model_type":"llama4_text","num_hidden_layers":8,"no_rope_layer_interval":4})")
                               << "modern_llama4.json" << "layer_pattern_n8_interval4";
    QTest::newRow("cohere2_n8") << QByteArray(R"({"model_type":"cohere2","num_hidden_layers":8,"hidden_size":1024,"num_attention_heads":8})")
                                << "modern_cohere2.json" << "layer_types_n8";
}

void TestLayers::goldenLayerTypes() {
    QFETCH(QByteArray, config);
    QFETCH(QString, file);
    QFETCH(QString, name);
    QTemporaryDir dir;
    const QJsonObject want = goldenCase(file, name).value("output").toObject();
    const QJsonObject o = okJson({"compute", "layers", "--config", writeConfig(dir, "config.json", config)});
    const QJsonArray ls = o.value("layers").toArray();
    const QJsonArray types = want.value("layer_types").toArray();
    QCOMPARE(ls.size(), types.size());
    for (int i = 0; i < ls.size(); ++i) QCOMPARE(ls[i].toObject().value("layer_type").toString(), types[i].toString());
    QJsonArray rope;
    for (const auto& l : ls) rope.append(l.toObject().value("rope").toBool());
    if (want.contains("no_rope_layers"))
        for (int i = 0; i < ls.size(); ++i) QCOMPARE(rope[i].toBool(), want.value("no_rope_layers")[i].toInt() == 1);
    if (want.contains("rope_layers")) {
        QJsonArray ropeLayers;
        for (int i = 0; i < ls.size(); ++i)
            if (rope[i].toBool()) ropeLayers.append(i);
        QCOMPARE(ropeLayers, want.value("rope_layers").toArray());
    }
}

// Gemma 3 v4 keys: rope_theta + rope_scaling → global layers, rope_local_base_freq → local layers
// (convert_v4_gemma3_4b_style); the frequencies of each layer type are those of that dict.
void TestLayers::gemma3V4RopePerType() {
    QTemporaryDir dir;
    const QJsonObject c = goldenCase("modern_gemma3.json", "convert_v4_gemma3_4b_style");
    QJsonObject cfg = c.value("params").toObject().value("kwargs").toObject();
    cfg["model_type"] = "gemma3_text";
    cfg["num_hidden_layers"] = 12;
    cfg["head_dim"] = 256;
    const QString path = writeConfig(dir, "g.json", QJsonDocument(cfg).toJson());
    const QJsonObject want = c.value("output").toObject().value("rope_parameters").toObject();
    const QJsonObject layers = okJson({"compute", "layers", "--config", path});
    const QJsonObject l0 = layers.value("layers")[0].toObject(), l5 = layers.value("layers")[5].toObject();
    QCOMPARE(l0.value("rope_type").toString(), want.value("sliding_attention")["rope_type"].toString());
    QCOMPARE(l0.value("rope_theta").toDouble(), want.value("sliding_attention")["rope_theta"].toDouble());
    QCOMPARE(l5.value("rope_type").toString(), want.value("full_attention")["rope_type"].toString());
    QCOMPARE(l5.value("rope_theta").toDouble(), want.value("full_attention")["rope_theta"].toDouble());
    QCOMPARE(l5.value("factor").toDouble(), want.value("full_attention")["factor"].toDouble());
    // frequencies --layer-type full equals the options of that dict; sliding likewise.
    const Run full = runPoslab({"compute", "frequencies", "--config", path, "--layer-type", "full"});
    const Run fullOpts = runPoslab(split("compute frequencies --head-dim 256 --base 1000000 --scaling linear --factor 8"));
    QCOMPARE(full.code, 0);
    QVERIFY(full.out.startsWith(R"({"layer":5,"layer_type":"full_attention","rope":true,)"));
    QCOMPARE(full.out.mid(full.out.indexOf("\"rotary_dim\"")), fullOpts.out.mid(1));
    const Run local = runPoslab({"compute", "frequencies", "--config", path, "--layer", "0"});
    const Run localOpts = runPoslab(split("compute frequencies --head-dim 256 --base 10000"));
    QCOMPARE(local.out.mid(local.out.indexOf("\"rotary_dim\"")), localOpts.out.mid(1));
}

void TestLayers::deepseekSoftmaxScaleAndFrequencies() {
    const QJsonObject want = goldenCase("modern_deepseek_v3.json", "rope_and_softmax_scale_real_v3").value("output").toObject();
    const QJsonObject l = okJson({"compute", "layers", "--config", model("deepseek-v3")}).value("layers")[0].toObject();
    QVERIFY(close(l.value("softmax_scale").toDouble(), want.value("softmax_scale").toDouble()));
    const QJsonObject f = okJson({"compute", "frequencies", "--config", model("deepseek-v3")});
    const auto inv = toDoubles(f.value("inv_freq").toArray()), winv = toDoubles(want.value("inv_freq").toArray());
    QCOMPARE(inv.size(), winv.size());
    for (std::size_t i = 0; i < inv.size(); ++i) QVERIFY2(close(inv[i], winv[i]), qPrintable(QString::number(i)));
    QVERIFY(close(f.value("attention_factor").toDouble(), want.value("attention_scaling_on_cos_sin").toDouble()));
}

void TestLayers::gptOssYarnFrequencies() {
    const QJsonObject c = goldenCase("modern_gpt_oss.json", "inv_freq_small_d8_f4_orig16");
    QJsonObject cfg;
    cfg["model_type"] = "gpt_oss";
    cfg["num_hidden_layers"] = 4;
    cfg["head_dim"] = 8;
    cfg["max_position_embeddings"] = 64;
    cfg["rope_parameters"] = c.value("params").toObject().value("rope_parameters");
    QTemporaryDir dir;
    const QString path = writeConfig(dir, "gptoss.json", QJsonDocument(cfg).toJson());
    for (const char* layer : {"0", "1"}) {   // sliding and full layers: the same RoPE
        const QJsonObject f = okJson({"compute", "frequencies", "--config", path, "--layer", layer});
        const auto inv = toDoubles(f.value("inv_freq").toArray());
        const auto want = toDoubles(c.value("output").toObject().value("inv_freq").toArray());
        for (std::size_t i = 0; i < want.size(); ++i) QVERIFY(close(inv[i], want[i]));
        QVERIFY(close(f.value("attention_factor").toDouble(), c.value("output").toObject().value("attention_scaling").toDouble()));
    }
}

// Scout: llama3 with low_freq_factor == high_freq_factor (empty smooth band): every pair unchanged
// or divided by 16 (conventions.md), interleaved layout.
void TestLayers::llama4ScoutFrequenciesAreUnchangedOrDivided() {
    const QJsonObject f = okJson({"compute", "frequencies", "--config", model("llama-4-scout")});
    const QJsonObject plain = okJson(split("compute frequencies --head-dim 128 --base 500000"));
    const auto inv = toDoubles(f.value("inv_freq").toArray()), base = toDoubles(plain.value("inv_freq").toArray());
    QCOMPARE(inv.size(), std::size_t(64));
    int divided = 0;
    for (std::size_t i = 0; i < inv.size(); ++i) {
        const bool same = inv[i] == base[i];
        const bool div = close(inv[i], base[i] / 16, 1e-6);
        QVERIFY2(same || div, qPrintable(QString::number(i)));
        divided += div;
        if (2 * M_PI / base[i] < 8192) QVERIFY(same);
    }
    QVERIFY(divided > 0);
}

void TestLayers::chooseLayer() {
    // --layer N: the layer's keys and numbers; scores of a NoPE layer ignore positions.
    const QJsonObject s3 = okJson({"compute", "scores", "--config", model("llama-4-scout"), "--layer", "3", "--length", "4"});
    QCOMPARE(s3.value("layer").toInt(), 3);
    QCOMPARE(s3.value("layer_type").toString(), QString("full_attention"));
    QCOMPARE(s3.value("rope").toBool(), false);
    const QJsonObject s0 = okJson({"compute", "scores", "--config", model("llama-4-scout"), "--length", "9000", "--summary"});
    QCOMPARE(s0.value("layer").toInt(), 0);
    QCOMPARE(s0.value("layer_type").toString(), QString("chunked_attention"));
    QCOMPARE(s0.value("rope").toBool(), true);
    // --layer-type: the first layer of the type.
    QCOMPARE(okJson({"compute", "decay", "--config", model("gemma-3-4b"), "--layer-type", "full", "--max-distance", "10"})
                 .value("layer").toInt(),
             5);
    // Options override the layer's values: a window on Gemma's global layer.
    const QJsonObject w = okJson({"compute", "decay", "--config", model("gemma-3-4b"), "--layer", "5", "--window", "16", "--causal",
                                  "--max-distance", "100"});
    QCOMPARE(w.value("visible_to").toInt(), 15);
    QCOMPARE(w.value("layer_type").toString(), QString("sliding_attention"));
}

void TestLayers::goldenMasks_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QStringList>("options");
    QTest::newRow("window3") << "modern_gemma3.json" << "sliding_window_mask_W3_q8_offset0" << split("--window 3 --causal");
    QTest::newRow("chunk3") << "modern_llama4.json" << "chunked_mask_C3_q8_offset0" << split("--chunk 3");
}

void TestLayers::goldenMasks() {
    QFETCH(QString, file);
    QFETCH(QString, name);
    QFETCH(QStringList, options);
    const auto allowed = goldenCase(file, name).value("output").toObject().value("allowed")[0].toArray();
    const QJsonObject o = okJson(split("compute scores --method rope --dim 8 --length 8") + options);
    const QJsonArray s = o.value("scores").toArray();
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) QCOMPARE(!s[i].toArray()[j].isNull(), allowed[i].toArray()[j].toInt() == 1);
}

// --temperature-tuning 4,0.1 on a NoPE layer, ones content, dim 1: score(i, 0) = τ(i).
void TestLayers::goldenTemperature() {
    const auto want = toDoubles(goldenCase("modern_llama4.json", "temperature_tuning_floor4_scale0.1_past0_len40")
                                    .value("output").toObject().value("attn_scales").toArray());
    const QJsonObject o = okJson(split("compute scores --method rope --nope --dim 2 --length 40 --causal --temperature-tuning 4,0.1"));
    const QJsonArray s = o.value("scores").toArray();
    for (int i = 0; i < 40; ++i)
        QVERIFY2(close(s[i].toArray()[0].toDouble() / std::sqrt(2.0), want[std::size_t(i)]), qPrintable(QString::number(i)));
}

void TestLayers::goldenSinks() {
    const auto out = goldenCase("modern_gpt_oss.json", "sinks_causal_sinks0_2").value("output").toObject();
    const QJsonObject o = okJson(split("compute scores --method nope --content formula --dim 4 --length 6 --causal --softmax --sink 0,2 --head 0"));
    const QJsonArray s = o.value("scores").toArray(), w = out.value("attn_weights")[0].toArray();
    const auto sums = toDoubles(out.value("row_sums")[0].toArray());
    const auto mass = toDoubles(o.value("sink_mass").toArray());
    QCOMPARE(mass.size(), std::size_t(6));
    for (int i = 0; i < 6; ++i) {
        QVERIFY(close(1.0 - mass[std::size_t(i)], sums[std::size_t(i)]));
        for (int j = 0; j <= i; ++j) QVERIFY(std::abs(s[i].toArray()[j].toDouble() - w[i].toArray()[j].toDouble()) < 2e-7);
        for (int j = i + 1; j < 6; ++j) QVERIFY(s[i].toArray()[j].isNull());
    }
}

void TestLayers::decaySaysWhereItStops() {
    const QJsonObject o = okJson({"compute", "decay", "--config", model("gpt-oss-20b"), "--causal", "--max-distance", "1000"});
    QCOMPARE(o.value("visible_to").toInt(), 127);
    QCOMPARE(o.value("distance").toArray().size(), 128);
    const QJsonObject full = okJson({"compute", "decay", "--config", model("gpt-oss-20b"), "--layer", "1", "--max-distance", "1000"});
    QVERIFY(!full.contains("visible_to"));
    QCOMPARE(full.value("distance").toArray().size(), 1001);
    // A bidirectional window (ModernBERT's local layers): ⌊128/2⌋.
    QCOMPARE(okJson({"compute", "decay", "--config", model("modernbert-base"), "--layer", "1", "--max-distance", "1000"})
                 .value("visible_to").toInt(),
             64);
}

void TestLayers::errorsAreOneLine_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("config");   // written to c.json and passed as --config when not empty
    QTest::addColumn<QString>("mentions");
    const QByteArray gemma = R"({"model_type":"gemma3_text","num_hidden_layers":12})";
    QTest::newRow("layer_past_end") << split("compute frequencies --layer 12") << gemma << "0 to 11";
    QTest::newRow("layer_type_missing") << split("compute scores --length 4 --layer-type chunked") << gemma << "full, sliding";
    QTest::newRow("layer_and_type") << split("compute frequencies --layer 1 --layer-type full") << gemma << "--layer-type";
    QTest::newRow("layer_without_config") << split("compute frequencies --head-dim 8 --layer 1") << QByteArray() << "--config";
    QTest::newRow("layer_types_wrong_length")
        << split("compute layers") << QByteArray(R"({"model_type":"gemma3_text","num_hidden_layers":3,"layer_types":["full_attention"]})")
        << "layer_types";
    QTest::newRow("layer_types_unknown")
        << split("compute layers")
        << QByteArray(R"({"model_type":"gemma3_text","num_hidden_layers":2,"layer_types":["full_attention","linear_attention"]})")
        << "layer_types[1]";
    QTest::newRow("window_0_in_config")
        << split("compute layers") << QByteArray(R"({"model_type":"gemma3_text","num_hidden_layers":6,"sliding_window":0})") << "sliding_window";
    QTest::newRow("window_0_option") << split("compute scores --method rope --dim 8 --length 4 --window 0") << QByteArray() << "--window";
    QTest::newRow("chunk_without_size")
        << split("compute layers")
        << QByteArray(R"({"model_type":"llama","num_hidden_layers":2,"head_dim":8,"layer_types":["chunked_attention","full_attention"]})")
        << "attention_chunk_size";
    QTest::newRow("no_rope_layers_short")
        << split("compute layers") << QByteArray(R"({"model_type":"llama4_text","num_hidden_layers":4,"no_rope_layers":[1,0]})")
        << "no_rope_layers";
    QTest::newRow("sink_head") << split("compute scores --method rope --dim 8 --length 4 --softmax --sink 1 --head 1") << QByteArray() << "--head";
    QTest::newRow("figure_layers_without_config") << split("figure layers -o x.png") << QByteArray() << "--config";
    QTest::newRow("figure_layers_past_end") << split("figure layers -o x.png --layer 12") << gemma << "0 to 11";
    QTest::newRow("figure_layers_type_missing") << split("figure layers -o x.png --layer-type chunked") << gemma << "full, sliding";
    QTest::newRow("figure_layers_txt") << split("figure layers -o x.txt") << gemma << ".png, .svg, .pdf, .csv or .json";
    QTest::newRow("figure_layers_width") << split("figure layers -o x.png --width 10") << gemma << "64 to 16384";
    QTest::newRow("figure_layers_theme") << split("figure layers -o x.png --theme neon") << gemma << "projector";
    QTest::newRow("temperature_one_number") << split("compute scores --method nope --dim 8 --length 4 --temperature-tuning 4") << QByteArray()
                                            << "--temperature-tuning";
}

void TestLayers::errorsAreOneLine() {
    QFETCH(QStringList, args);
    QFETCH(QByteArray, config);
    QFETCH(QString, mentions);
    QTemporaryDir dir;
    if (!config.isEmpty()) args << "--config" << writeConfig(dir, "c.json", config);
    const Run r = runPoslab(args);
    QCOMPARE(r.code, 2);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.startsWith("poslab: error: ") && r.err.count('\n') == 1, r.err.constData());
    QVERIFY2(r.err.contains(mentions.toUtf8()), r.err.constData());
}

// `figure layers` (cli.md "Added in 0.3"): the overview of each shipped model as PNG, SVG and PDF;
// the SVG keeps its rows as text: each layer's type, base and reach as the config gives them.
void TestLayers::figureLayers_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QStringList>("texts");   // SVG: texts that must appear
    QTest::newRow("gemma-3-27b_png") << "gemma-3-27b" << "g.png" << QStringList{"--width", "1200", "--height", "800"} << QStringList{};
    QTest::newRow("gemma-3-27b_svg") << "gemma-3-27b" << "g.svg" << QStringList{"--layer", "5"}
                                     << QStringList{"62 layers", "linear ×8", "not 1/√128", "sliding"};
    QTest::newRow("llama-4-scout_svg") << "llama-4-scout" << "l.svg" << QStringList{"--theme", "projector"}
                                       << QStringList{"48 layers", "τ ≤ 1.716", "Llama 3 ×16", "chunked", "10M"};
    QTest::newRow("gpt-oss-20b_svg") << "gpt-oss-20b" << "o.svg" << QStringList{"--layer-type", "full"}
                                     << QStringList{"24 layers", "YaRN ×32", "sink logit per head"};
    QTest::newRow("gpt-oss-20b_pdf") << "gpt-oss-20b" << "o.pdf" << QStringList{"--theme", "dark"} << QStringList{};
}

void TestLayers::figureLayers() {
    QFETCH(QString, key);
    QFETCH(QString, file);
    QFETCH(QStringList, extra);
    QFETCH(QStringList, texts);
    QTemporaryDir dir;
    const QString out = dir.filePath(file);
    const Run r = runPoslab(QStringList{"figure", "layers", "--config", model(key), "-o", out} + extra);
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY(r.out.isEmpty() && r.err.isEmpty());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    if (file.endsWith(".png")) {
        QImage img;
        QVERIFY(img.loadFromData(bytes, "PNG"));
        QCOMPARE(img.size(), QSize(1200, 800));
    } else if (file.endsWith(".pdf")) {
        QVERIFY(bytes.startsWith("%PDF"));
    }
    QString svg = QString::fromUtf8(bytes);
    svg.replace(QChar(0x2009), QLatin1Char(' '));
    svg.replace(QStringLiteral("&#x2009;"), QStringLiteral(" "));
    for (const QString& t : texts) QVERIFY2(svg.contains(t.toHtmlEscaped()), qPrintable(t));
    // Refuses to overwrite without --force.
    const Run again = runPoslab(QStringList{"figure", "layers", "--config", model(key), "-o", out} + extra);
    QCOMPARE(again.code, 2);
}

// `figure layers -o F.json` / `.csv`: one entry per layer with the fields of `compute layers`
// (equal, key by key) and what the overview plots against distance (visible_to: W − 1 for a
// window of a decoder, ⌊W/2⌋ either side for a bidirectional model's (ModernBERT), C − 1 for a
// chunk, null for a full layer; attends_to; the signal; τ at the context's end), and the figure's
// `layout`; the CSV holds the same rows.
void TestLayers::figureLayersData_data() {
    QTest::addColumn<QString>("key");
    QTest::newRow("gemma-3-27b") << "gemma-3-27b";
    QTest::newRow("llama-4-scout") << "llama-4-scout";
    QTest::newRow("gpt-oss-20b") << "gpt-oss-20b";
    QTest::newRow("modernbert-base") << "modernbert-base";
}

void TestLayers::figureLayersData() {
    QFETCH(QString, key);
    QTemporaryDir dir;
    const QString json = dir.filePath("l.json"), csv = dir.filePath("l.csv");
    for (const QString& out : {json, csv}) {
        const Run r = runPoslab(QStringList{"figure", "layers", "--config", model(key), "-o", out, "--width", "1920", "--height", "1080"});
        QVERIFY2(r.code == 0, r.err.constData());
    }
    const QJsonObject computed = okJson({"compute", "layers", "--config", model(key)});
    const QJsonObject doc = loadJson(json);
    QCOMPARE(doc.value("format").toString(), QStringLiteral("poslab-data"));
    const QJsonObject v = doc.value("views").toObject().value("layers").toObject();
    const QJsonArray layers = v.value("layers").toArray();
    const QJsonArray expected = computed.value("layers").toArray();
    QCOMPARE(v.value("num_layers").toInt(), computed.value("num_layers").toInt());
    QCOMPARE(layers.size(), expected.size());
    const auto context = static_cast<std::int64_t>(v.value("context").toDouble());
    QVERIFY(context > 1);
    for (qsizetype i = 0; i < layers.size(); ++i) {
        const QJsonObject e = layers[i].toObject(), c = expected[i].toObject();
        // (softcap and query_scale come from the model's report, compute layers' own: the overview
        // does not draw them.)
        for (const QString& k : c.keys())
            if (k != QLatin1String("softcap") && k != QLatin1String("query_scale"))
                QVERIFY2(e.value(k) == c.value(k), qPrintable(QStringLiteral("layer %1 %2").arg(i).arg(k)));
        // A decoder's window reaches W − 1 keys back; an encoder's ⌊W/2⌋ on either side.
        const bool bidirectional = computed.value("bidirectional").toBool();
        QCOMPARE(v.value("bidirectional").toBool(), bidirectional);
        QCOMPARE(bidirectional, key == QLatin1String("modernbert-base"));
        if (c.contains("chunk")) QCOMPARE(e.value("visible_to").toInteger(), c.value("chunk").toInteger() - 1);
        else if (c.contains("window"))
            QCOMPARE(e.value("visible_to").toInteger(), bidirectional ? c.value("window").toInteger() / 2 : c.value("window").toInteger() - 1);
        else QVERIFY(e.value("visible_to").isNull());
        const std::int64_t reach = e.value("visible_to").isNull() ? context - 1 : std::min<std::int64_t>(context - 1, e.value("visible_to").toInteger());
        QCOMPARE(std::int64_t(e.value("attends_to").toInteger()), reach);
        const QString signal = !c.value("rope").toBool() ? (c.contains("temperature_tuning") ? "nope_temperature" : "nope") : "rope";
        QCOMPARE(e.value("signal").toString(), signal);
        if (c.contains("temperature_tuning") && !c.value("rope").toBool()) {
            const QJsonArray tt = c.value("temperature_tuning").toArray();
            const double tau = std::log1p(std::floor(double(context) / tt[0].toDouble())) * tt[1].toDouble() + 1;
            QVERIFY(close(e.value("temperature_at_context").toDouble(), tau, 1e-12));
        }
    }
    // The layout of the 1920 × 1080 figure: text and plots inside it, of the view "layers".
    const QJsonArray layout = doc.value("layout").toArray();
    QVERIFY(layout.size() > layers.size());
    for (const auto& item : layout) {
        const QJsonObject o = item.toObject();
        QCOMPARE(o.value("view").toString(), QStringLiteral("layers"));
        const QJsonArray rect = o.value("rect").toArray();
        QVERIFY(rect[0].toDouble() >= -0.5 && rect[0].toDouble() + rect[2].toDouble() <= 1920.5);
        QVERIFY(rect[1].toDouble() >= -0.5 && rect[1].toDouble() + rect[3].toDouble() <= 1080.5);
    }
    // The CSV: a header and one row per layer, its visible_to and signal as in the JSON.
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QStringList lines;
    for (const QByteArray& l : f.readAll().split('\n'))
        if (!l.isEmpty() && !l.startsWith('#')) lines << QString::fromUtf8(l);
    QCOMPARE(lines.size(), layers.size() + 1);
    const QStringList header = lines[0].split(',');
    const auto col = [&](const QString& name) { return header.indexOf(name); };
    QVERIFY(col("visible_to") >= 0 && col("signal") >= 0 && col("rope_theta") >= 0);
    for (qsizetype i = 0; i < layers.size(); ++i) {
        const QStringList cells = lines[i + 1].split(',');
        QCOMPARE(cells.size(), header.size());
        const QJsonObject e = layers[i].toObject();
        QCOMPARE(cells[col("signal")], e.value("signal").toString());
        QCOMPARE(cells[col("visible_to")], e.value("visible_to").isNull() ? QString() : QString::number(e.value("visible_to").toInteger()));
        QVERIFY(close(cells[col("rope_theta")].toDouble(), e.value("rope_theta").toDouble(), 1e-15));
    }
}

QTEST_GUILESS_MAIN(TestLayers)
#include "test_layers.moc"
