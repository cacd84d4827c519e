// Models read as their own code reads them (issue #28; cli.md and conventions.md "Added in 0.4").
// The real config.json files of tests/data/config/real (PROVENANCE says where each comes from):
// `compute layers` and `compute config` against what each family's modeling file in
// transformers @ decba1d2 does — causal or not, RoPE layout, softmax scale, logit soft-cap,
// sliding layers and windows, query scaling — the values written below from reading that code
// (models/<type>/modeling_<type>.py, cited per row), not from the product's output. Then the
// fuzz findings: keys of another scheme (Falcon's alibi, BERT without model_type, Transformer-XL)
// and RoPE blocks without a valid type are refused or read as their scheme, never as RoPE; a
// decoder's config makes the scene causal.
#include "support/runposlab.h"
#include "support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTemporaryDir>

#include <cmath>

using namespace testsupport;

namespace {

QString real(const QString& name) {
    return QStringLiteral(POSLAB_SOURCE_DIR "/tests/data/config/real/") + name + QStringLiteral(".json");
}

QString writeConfig(const QTemporaryDir& dir, const QString& name, const QByteArray& json) { return testsupport::writeFile(dir, name, json); }

bool close(double a, double b) { return std::abs(a - b) <= 2e-6 * std::max(1.0, std::abs(b)); }

// The top-level keys of a config file (and of its text_config, as "text_config.KEY").
QStringList fileKeys(const QString& path) {
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    QStringList keys = o.keys();
    if (o.value(QLatin1String("text_config")).isObject())
        for (const QString& k : o.value(QLatin1String("text_config")).toObject().keys()) keys << QStringLiteral("text_config.") + k;
    return keys;
}

}  // namespace

class TestRealConfigs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void familyAttention_data();
    void familyAttention();
    void everyKeyAccounted_data();
    void everyKeyAccounted();
    void notModelledIsNamed_data();
    void notModelledIsNamed();
    void modelledIsUsed_data();
    void modelledIsUsed();
    void refused_data();
    void refused();
    void otherSchemesAreNotRope_data();
    void otherSchemesAreNotRope();
    void familyAttentionInTheScores();
    void queryScalingInTheDecay();
    void mlaUnrotatedChannels();
    void badFamilyValuesAreRefused_data();
    void badFamilyValuesAreRefused();
    void decoderScenesAreCausal_data();
    void decoderScenesAreCausal();
};

// One row per real config: what its family's modeling code does.
void TestRealConfigs::familyAttention_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("method");       // rope, learned, alibi, t5
    QTest::addColumn<bool>("causal");
    QTest::addColumn<QString>("layout");       // layer 0's RoPE layout ("" for non-RoPE)
    QTest::addColumn<double>("scale");         // layer 0's softmax scale (0: not checked)
    QTest::addColumn<double>("softcap");       // 0: null
    QTest::addColumn<int>("firstSliding");     // first sliding layer, −1: none
    QTest::addColumn<int>("firstFull");        // first full layer, −1: none
    QTest::addColumn<int>("window");           // the sliding layers' window (0: none)
    QTest::addColumn<double>("queryScale16k"); // the query factor at position 16384 (0: null)
    QTest::addColumn<bool>("warning");         // an unknown family, read Llama-style with a warning
    const double s128 = 1 / std::sqrt(128.0), s64 = 0.125, s80 = 1 / std::sqrt(80.0);
    // llama/modeling_llama.py:130-160 rotate_half (half), :226 head_dim**-0.5, :228 is_causal.
    QTest::newRow("llama-2-7b") << "llama-2-7b" << "rope" << true << "half" << s128 << 0.0 << -1 << 0 << 0 << 0.0 << false;
    QTest::newRow("codellama-7b") << "codellama-7b" << "rope" << true << "half" << s128 << 0.0 << -1 << 0 << 0 << 0.0 << false;
    QTest::newRow("tinyllama-1.1b") << "tinyllama-1.1b-chat-v1.0" << "rope" << true << "half" << s64 << 0.0 << -1 << 0 << 0 << 0.0 << false;
    QTest::newRow("llama-3.1-8b") << "llama-3.1-8b" << "rope" << true << "half" << s128 << 0.0 << -1 << 0 << 0 << 0.0 << false;
    QTest::newRow("llama-3.2-1b") << "llama-3.2-1b" << "rope" << true << "half" << s64 << 0.0 << -1 << 0 << 0 << 0.0 << false;
    QTest::newRow("smollm2-135m") << "smollm2-135m" << "rope" << true << "half" << s64 << 0.0 << -1 << 0 << 0 << 0.0 << false;
    // mistral: sliding_window on every layer (:172, :364); absent = the class default 4096
    // (configuration_mistral.py:80); null = full attention.
    QTest::newRow("mistral-7b-v0.1") << "mistral-7b-v0.1" << "rope" << true << "half" << s128 << 0.0 << 0 << -1 << 4096 << 0.0 << false;
    QTest::newRow("mistral-7b-v0.3") << "mistral-7b-v0.3" << "rope" << true << "half" << s128 << 0.0 << -1 << 0 << 0 << 0.0 << false;
    QTest::newRow("mixtral-8x7b") << "mixtral-8x7b-v0.1" << "rope" << true << "half" << s128 << 0.0 << -1 << 0 << 0 << 0.0 << false;
    // ministral3/modeling_ministral3.py:105-107, 146-150: q ×= 1 + 0.1·ln(1 + ⌊p/16384⌋).
    QTest::newRow("ministral-3-3b") << "ministral-3-3b-2512" << "rope" << true << "half" << s128 << 0.0 << -1 << 0 << 0
                                    << 1.0 + 0.1 * std::log(2.0) << false;
    // phi3: sliding_window on every layer (:257, :395); head_dim 3072/32 = 96, 3072/24 = 128.
    QTest::newRow("phi-3.5-mini") << "phi-3.5-mini" << "rope" << true << "half" << 1 / std::sqrt(96.0) << 0.0 << 0 << -1 << 262144
                                  << 0.0 << false;
    QTest::newRow("phi-4-mini") << "phi-4-mini" << "rope" << true << "half" << s128 << 0.0 << 0 << -1 << 262144 << 0.0 << false;
    // qwen2: no window unless use_sliding_window (configuration_qwen2.py:84-93).
    QTest::newRow("qwen1.5-1.8b") << "qwen1.5-1.8b-qwen2" << "rope" << true << "half" << s128 << 0.0 << -1 << 0 << 0 << 0.0 << false;
    QTest::newRow("qwen1.5-moe") << "qwen1.5-moe-a2.7b" << "rope" << true << "half" << s128 << 0.0 << -1 << 0 << 0 << 0.0 << false;
    QTest::newRow("qwen2.5-3b") << "qwen2.5-3b" << "rope" << true << "half" << s128 << 0.0 << -1 << 0 << 0 << 0.0 << false;
    QTest::newRow("qwen3-0.6b") << "qwen3-0.6b" << "rope" << true << "half" << s128 << 0.0 << -1 << 0 << 0 << 0.0 << false;
    QTest::newRow("qwen3-1.7b") << "qwen3-1.7b" << "rope" << true << "half" << s128 << 0.0 << -1 << 0 << 0 << 0.0 << false;
    // deepseek_v2: complex pairs (2i, 2i+1) (:267-280); scale 192**-0.5·mscale², mscale =
    // 0.1·0.707·ln 40 + 1 (:283-296, :345).
    {
        const double ms = 0.1 * 0.707 * std::log(40.0) + 1;
        QTest::newRow("deepseek-v2-lite") << "deepseek-v2-lite" << "rope" << true << "interleaved" << ms * ms / std::sqrt(192.0) << 0.0
                                          << -1 << 0 << 0 << 0.0 << false;
    }
    // gemma: head_dim 256 (:237); gemma2: query_pre_attn_scalar**-0.5 (:229), soft-cap 50 (:245,
    // :201-206), even layers slide with sliding_window (configuration_gemma2.py:95-98).
    QTest::newRow("gemma-2b") << "gemma-2b" << "rope" << true << "half" << 0.0625 << 0.0 << -1 << 0 << 0 << 0.0 << false;
    QTest::newRow("gemma-2-2b") << "gemma-2-2b" << "rope" << true << "half" << 0.0625 << 50.0 << 0 << 1 << 4096 << 0.0 << false;
    QTest::newRow("gemma-2-9b") << "gemma-2-9b" << "rope" << true << "half" << 0.0625 << 50.0 << 0 << 1 << 4096 << 0.0 << false;
    QTest::newRow("gemma-2-27b") << "gemma-2-27b" << "rope" << true << "half" << 1.0 / 12 << 50.0 << 0 << 1 << 4096 << 0.0 << false;
    // gemma3: (i+1) % 6 pattern, window 512, scale 256**-0.5; soft-cap stored as null.
    QTest::newRow("gemma-3-1b-it") << "gemma-3-1b-it" << "rope" << true << "half" << 0.0625 << 0.0 << 0 << 5 << 512 << 0.0 << false;
    // cohere: repeat_interleave + rotate_half on (2i, 2i+1) (:115, :175-181).
    QTest::newRow("aya-23-8b") << "aya-23-8b" << "rope" << true << "interleaved" << s128 << 0.0 << -1 << 0 << 0 << 0.0 << false;
    // olmo2: Llama's rotation and scale (:162-195, :205).
    QTest::newRow("olmo-2-7b") << "olmo-2-7b" << "rope" << true << "half" << s128 << 0.0 << -1 << 0 << 0 << 0.0 << false;
    // gpt_neox (:111-125, :188), stablelm (:117-150, :243): head 80 / 64.
    QTest::newRow("redpajama-3b") << "redpajama-incite-3b-v1" << "rope" << true << "half" << s80 << 0.0 << -1 << 0 << 0 << 0.0 << false;
    QTest::newRow("stablelm-3b") << "stablelm-3b-4e1t" << "rope" << true << "half" << s80 << 0.0 << -1 << 0 << 0 << 0.0 << false;
    QTest::newRow("stablelm-2-1.6b") << "stablelm-2-zephyr-1.6b" << "rope" << true << "half" << s64 << 0.0 << -1 << 0 << 0 << 0.0 << false;
    // starcoder2: sliding_window on every layer (:192, :367); head 4608/36 = 128.
    QTest::newRow("starcoder2-7b") << "starcoder2-7b" << "rope" << true << "half" << s128 << 0.0 << 0 << -1 << 4096 << 0.0 << false;
    // Learned absolute positions: gpt2 (:493 wpe, :111 causal), gpt_bigcode (:378, :132), bert
    // (:59, :359 is_causal = is_decoder = False).
    QTest::newRow("gpt2") << "gpt2" << "learned" << true << "" << 0.0 << 0.0 << -1 << 0 << 0 << 0.0 << false;
    QTest::newRow("gpt2-medium") << "gpt2-medium" << "learned" << true << "" << 0.0 << 0.0 << -1 << 0 << 0 << 0.0 << false;
    QTest::newRow("gpt-bigcode") << "gpt-bigcode-santacoder" << "learned" << true << "" << 0.0 << 0.0 << -1 << 0 << 0 << 0.0 << false;
    QTest::newRow("bert (arctic-embed-m)") << "snowflake-arctic-embed-m-bert" << "learned" << false << "" << 0.0 << 0.0 << -1 << 0 << 0
                                           << 0.0 << false;
    // Families without a row (custom code): read as Llama-style decoders, with a warning.
    QTest::newRow("phi-2 (phi-msft)") << "phi-2" << "rope" << true << "half" << s80 << 0.0 << -1 << 0 << 0 << 0.0 << true;
    QTest::newRow("internlm2-7b") << "internlm2-7b" << "rope" << true << "half" << s128 << 0.0 << -1 << 0 << 0 << 0.0 << true;
}

void TestRealConfigs::familyAttention() {
    QFETCH(QString, file);
    QFETCH(QString, method);
    QFETCH(bool, causal);
    QFETCH(QString, layout);
    QFETCH(double, scale);
    QFETCH(double, softcap);
    QFETCH(int, firstSliding);
    QFETCH(int, firstFull);
    QFETCH(int, window);
    QFETCH(double, queryScale16k);
    QFETCH(bool, warning);
    const PoslabRun layers = runPoslab({"compute", "layers", "--config", real(file)});
    QVERIFY2(layers.code == 0, qPrintable(layers.describe()));
    const QJsonObject l = layers.json();
    QCOMPARE(l.value("method").toString(), method);
    QCOMPARE(l.value("causal").toBool(), causal);
    QCOMPARE(l.value("bidirectional").toBool(), !causal);
    const QJsonArray rows = l.value("layers").toArray();
    QVERIFY(!rows.isEmpty());
    const QJsonObject first = rows[0].toObject();
    QCOMPARE(first.value("rope").toBool(), method == QLatin1String("rope"));
    if (!layout.isEmpty()) QCOMPARE(first.value("layout").toString(), layout);
    if (scale > 0) QVERIFY2(close(first.value("softmax_scale").toDouble(), scale), qPrintable(QString::number(first.value("softmax_scale").toDouble(), 'g', 17)));
    if (softcap > 0) QCOMPARE(first.value("softcap").toDouble(), softcap);
    else QVERIFY(first.value("softcap").isNull());
    int sliding = -1, full = -1;
    for (int i = 0; i < rows.size(); ++i) {
        const QJsonObject r = rows[i].toObject();
        const QString t = r.value("layer_type").toString();
        if (t == QLatin1String("sliding_attention") && sliding < 0) sliding = i;
        if (t == QLatin1String("full_attention") && full < 0) full = i;
        if (t == QLatin1String("sliding_attention")) QCOMPARE(r.value("window").toInt(), window);
    }
    QCOMPARE(sliding, firstSliding);
    QCOMPARE(full, firstFull);
    if (queryScale16k > 0) {
        const QJsonObject q = first.value("query_scale").toObject();
        QVERIFY2(close(q.value("at").toObject().value("16384").toDouble(), queryScale16k), qPrintable(layers.describe()));
        QCOMPARE(q.value("at").toObject().value("0").toDouble(), 1.0);
    } else {
        QVERIFY(first.value("query_scale").isNull());
    }
    const PoslabRun config = runPoslab({"compute", "config", "--config", real(file)});
    QVERIFY2(config.code == 0, qPrintable(config.describe()));
    const QJsonObject c = config.json();
    QCOMPARE(c.value("method").toString(), method);
    QCOMPARE(c.value("causal").toBool(), causal);
    QCOMPARE(!c.value("warnings").toArray().isEmpty(), warning);
    // What the family's code does that the scene does not draw: only OLMo 2's norm over the whole
    // projection (conventions.md "Added in 0.4" says why); everything else of these files is drawn.
    const QStringList notModelled = c.value("not_modelled").toObject().keys();
    QCOMPARE(notModelled, file == QLatin1String("olmo-2-7b") ? QStringList{"rms_norm_eps"} : QStringList{});
    // Every RoPE layer says how wide its head is and how many channels RoPE turns.
    if (method == QLatin1String("rope"))
        for (const auto& row : rows) {
            const QJsonObject r = row.toObject();
            if (!r.value("rope").toBool()) continue;
            QVERIFY2(r.value("rotary_dim").toInt() >= 2 && r.value("rotary_dim").toInt() <= r.value("head_dim").toInt(),
                     qPrintable(layers.describe()));
        }
}

// Every top-level key (and text_config's) is in exactly one of used, ignored, not_modelled.
void TestRealConfigs::everyKeyAccounted_data() {
    QTest::addColumn<QString>("path");
    const QDir dir(QStringLiteral(POSLAB_SOURCE_DIR "/tests/data/config/real"));
    for (const QString& f : dir.entryList({"*.json"}, QDir::Files, QDir::Name)) {
        if (f == QLatin1String("rwkv5-3b.json") || f == QLatin1String("chatglm3-6b.json")) continue;   // refused
        QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }
    const QDir shipped(QStringLiteral(POSLAB_SOURCE_DIR "/resources/models"));
    for (const QString& f : shipped.entryList({"*.json"}, QDir::Files, QDir::Name))
        QTest::newRow(qPrintable(QStringLiteral("shipped ") + f)) << shipped.filePath(f);
}

void TestRealConfigs::everyKeyAccounted() {
    QFETCH(QString, path);
    const PoslabRun r = runPoslab({"compute", "config", "--config", path});
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    const QJsonObject c = r.json();
    const QJsonObject used = c.value("used").toObject(), ignored = c.value("ignored").toObject(),
                      notModelled = c.value("not_modelled").toObject();
    const QStringList keys = fileKeys(path);
    for (const QString& k : keys) {
        const int n = int(used.contains(k)) + int(ignored.contains(k)) + int(notModelled.contains(k));
        QVERIFY2(n == 1, qPrintable(QStringLiteral("%1: in %2 of used/ignored/not_modelled").arg(k).arg(n)));
    }
    // Nothing listed that the file does not have (entries KEY.PART name a part of a used key).
    for (const QJsonObject* m : {&used, &ignored, &notModelled})
        for (const QString& k : m->keys()) {
            const QString base = k.startsWith(QLatin1String("text_config.")) ? k : k.section(QLatin1Char('.'), 0, 0);
            QVERIFY2(keys.contains(base) || keys.contains(k.section(QLatin1Char('.'), 0, 1)), qPrintable(k));
        }
    QVERIFY(!c.value("family").toString().isEmpty());
    QVERIFY(!c.value("source").toString().isEmpty());
}

// What a family does that the scene does not draw is named under not_modelled (and the report
// then warns in the window).
void TestRealConfigs::notModelledIsNamed_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("key");
    QTest::newRow("olmo-2 projection norm") << "olmo-2-7b" << "rms_norm_eps";
}

void TestRealConfigs::notModelledIsNamed() {
    QFETCH(QString, file);
    QFETCH(QString, key);
    const PoslabRun r = runPoslab({"compute", "config", "--config", real(file)});
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    const QJsonObject nm = r.json().value("not_modelled").toObject();
    QVERIFY2(nm.contains(key), qPrintable(QJsonDocument(nm).toJson(QJsonDocument::Compact)));
}

// What the scene now draws is listed as used, saying what it does.
void TestRealConfigs::modelledIsUsed_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("says");
    QTest::newRow("gemma-2-27b scale") << "gemma-2-27b" << "query_pre_attn_scalar" << "0.08333333333333333";
    QTest::newRow("ministral-3 yarn") << "ministral-3-3b-2512" << "text_config.rope_parameters" << "yarn";
    QTest::newRow("qwen2.5 no window") << "qwen2.5-3b" << "use_sliding_window" << "no layer slides";
    // Applied to the scores since issue 28's family work: Gemma 2's soft-cap, Ministral 3's query scaling.
    QTest::newRow("gemma-2-27b soft-cap") << "gemma-2-27b" << "attn_logit_softcapping" << "logit soft-cap 50";
    QTest::newRow("ministral-3 query scaling") << "ministral-3-3b-2512" << "text_config.rope_parameters"
                                               << "query scaling: queries × 1 + 0.1·ln(1 + ⌊p/16384⌋)";
    // DeepSeek MLA: the head is qk_nope + qk_rope = 192 channels, RoPE on the 64 of q_pe.
    QTest::newRow("deepseek-v2 unrotated channels") << "deepseek-v2-lite" << "qk_nope_head_dim" << "128 unrotated channels";
    QTest::newRow("deepseek-v2 rotated channels") << "deepseek-v2-lite" << "qk_rope_head_dim" << "= 64";
}

void TestRealConfigs::modelledIsUsed() {
    QFETCH(QString, file);
    QFETCH(QString, key);
    QFETCH(QString, says);
    const PoslabRun r = runPoslab({"compute", "config", "--config", real(file)});
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    const QJsonObject used = r.json().value("used").toObject();
    QVERIFY2(used.value(key).toString().contains(says), qPrintable(QJsonDocument(used).toJson(QJsonDocument::Compact)));
    QVERIFY(!r.json().value("not_modelled").toObject().contains(key));
}

// Files whose positional scheme the product does not model: exit 2, one line naming the file.
void TestRealConfigs::refused_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("rwkv5 (no attention)") << real("rwkv5-3b") << "rwkv5";
    QTest::newRow("chatglm3 (custom code, no RoPE key)") << real("chatglm3-6b") << "chatglm";
}

void TestRealConfigs::refused() {
    QFETCH(QString, path);
    QFETCH(QString, mentions);
    for (const char* what : {"config", "layers", "frequencies"}) {
        const PoslabRun r = runPoslab({"compute", what, "--config", path});
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.isEmpty());
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains(mentions.toUtf8()), r.err.constData());
    }
}

// Keys of another scheme are read as that scheme or refused, never drawn as RoPE; a scaling
// block without a valid type is refused (the fuzz findings of issue #28).
void TestRealConfigs::otherSchemesAreNotRope_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("method");   // "" = refused (exit 2)
    QTest::addColumn<bool>("causal");
    QTest::newRow("falcon-rw alibi") << QByteArray(R"({"model_type": "falcon", "alibi": true, "architectures": ["FalconForCausalLM"],
        "hidden_size": 2048, "num_attention_heads": 32, "num_hidden_layers": 24, "multi_query": false, "parallel_attn": false,
        "new_decoder_architecture": false, "bias": true, "vocab_size": 50304})") << "alibi" << true;
    QTest::newRow("bert without model_type") << QByteArray(R"({"architectures": ["BertForMaskedLM"], "hidden_size": 768,
        "num_attention_heads": 12, "num_hidden_layers": 12, "max_position_embeddings": 512, "type_vocab_size": 2,
        "position_embedding_type": "absolute", "vocab_size": 30522})") << "learned" << false;
    QTest::newRow("bert without model_type or architectures") << QByteArray(R"({"hidden_size": 768, "num_attention_heads": 12,
        "num_hidden_layers": 12, "max_position_embeddings": 512, "type_vocab_size": 2, "vocab_size": 30522,
        "hidden_act": "gelu", "intermediate_size": 3072})") << "" << false;
    QTest::newRow("bert relative_key") << QByteArray(R"({"model_type": "bert", "hidden_size": 768, "num_attention_heads": 12,
        "max_position_embeddings": 512, "position_embedding_type": "relative_key"})") << "" << false;
    QTest::newRow("transformer-xl") << QByteArray(R"({"model_type": "transfo-xl", "architectures": ["TransfoXLLMHeadModel"],
        "d_model": 1024, "d_embed": 1024, "n_head": 16, "d_head": 64, "d_inner": 4096, "n_layer": 18, "clamp_len": 1000,
        "mem_len": 1600, "same_length": true, "attn_type": 0, "vocab_size": 267735})") << "transformer-xl" << true;
    QTest::newRow("llama-3.1 scaling without its type") << QByteArray(R"({"model_type": "llama", "hidden_size": 4096,
        "num_attention_heads": 32, "num_hidden_layers": 32, "max_position_embeddings": 131072, "rope_theta": 500000.0,
        "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}})")
                                                             << "" << true;
    QTest::newRow("rope_type null") << QByteArray(R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
        "max_position_embeddings": 131072, "rope_scaling": {"rope_type": null, "factor": 8.0}})") << "" << true;
    QTest::newRow("rope_type junk") << QByteArray(R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
        "max_position_embeddings": 131072, "rope_scaling": {"rope_type": "llama-3", "factor": 8.0}})") << "" << true;
    QTest::newRow("v5 rope_parameters without its type") << QByteArray(R"({"model_type": "llama", "hidden_size": 4096,
        "num_attention_heads": 32, "max_position_embeddings": 131072, "rope_parameters": {"rope_theta": 500000.0, "factor": 8.0,
        "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}})") << "" << true;
}

void TestRealConfigs::otherSchemesAreNotRope() {
    QFETCH(QByteArray, json);
    QFETCH(QString, method);
    QFETCH(bool, causal);
    QTemporaryDir dir;
    const QString path = writeConfig(dir, QStringLiteral("config.json"), json);
    const PoslabRun layers = runPoslab({"compute", "layers", "--config", path});
    const PoslabRun freq = runPoslab({"compute", "frequencies", "--config", path});
    QCOMPARE(freq.code, 2);   // never RoPE frequencies
    QCOMPARE(freq.err.count('\n'), 1);
    if (method.isEmpty()) {
        QVERIFY2(layers.code == 2, qPrintable(layers.describe()));
        QCOMPARE(layers.err.count('\n'), 1);
        QVERIFY(layers.out.isEmpty());
        return;
    }
    QVERIFY2(layers.code == 0, qPrintable(layers.describe()));
    QCOMPARE(layers.json().value("method").toString(), method);
    QCOMPARE(layers.json().value("causal").toBool(), causal);
    QVERIFY(!layers.json().value("layers").toArray().first().toObject().value("rope").toBool());
}

// A decoder's config makes the scene causal (window i − W < j <= i, reach W − 1); --bidirectional
// overrides it.
// Gemma 2 27B's full layer as its eager attention computes it: (q·k)/12, soft-capped at 50, in
// scores, decay and contributions (tests/data/family/softcap_query_scaling.json, an independent
// plain-Python transcription; its generator beside it).
void TestRealConfigs::familyAttentionInTheScores() {
    const QJsonObject ref = [] {
        QFile f(QStringLiteral(POSLAB_SOURCE_DIR "/tests/data/family/softcap_query_scaling.json"));
        f.open(QIODevice::ReadOnly);
        for (const auto& c : QJsonDocument::fromJson(f.readAll()).object().value("cases").toArray())
            if (c.toObject().value("name").toString() == QLatin1String("gemma_2_27b_full_layer")) return c.toObject().value("output").toObject();
        return QJsonObject();
    }();
    QVERIFY(!ref.isEmpty());
    const QStringList base = {"--config", real("gemma-2-27b"), "--layer", "1", "--content", "formula", "--precision", "double"};
    const PoslabRun s = runPoslab(QStringList{"compute", "scores", "--length", "6"} + base);
    QVERIFY2(s.code == 0, qPrintable(s.describe()));
    const QJsonArray got = s.json().value("scores").toArray(), want = ref.value("scores").toArray();
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j <= i; ++j)
            QVERIFY2(std::abs(got[i].toArray()[j].toDouble() - want[i].toArray()[j].toDouble()) < 1e-9,
                     qPrintable(QStringLiteral("score (%1, %2): %3, want %4").arg(i).arg(j).arg(got[i].toArray()[j].toDouble()).arg(want[i].toArray()[j].toDouble())));
    for (const char* what : {"decay", "contributions"}) {
        const PoslabRun d = runPoslab(QStringList{"compute", what, "--max-distance", "5"} + base);
        QVERIFY2(d.code == 0, qPrintable(d.describe()));
        const QJsonArray v = d.json().value(QLatin1String(what) == QLatin1String("decay") ? "value" : "capped_value").toArray();
        const QJsonArray w = ref.value(QLatin1String(what) == QLatin1String("decay") ? "decay" : "capped_total").toArray();
        QCOMPARE(v.size(), 6);
        for (int t = 0; t < 6; ++t)
            QVERIFY2(std::abs(v[t].toDouble() - w[t].toDouble()) < 1e-9, qPrintable(QStringLiteral("%1(%2)").arg(what).arg(t)));
    }
}

// Ministral 3 3B: the query at position p is multiplied by 1 + 0.1·ln(1 + ⌊p/16384⌋)
// (modeling_ministral3.py:105-107, 146-150): the decay at d (query at d) is the unscaled one
// (the same config with β = 0) times that factor, 1 below 16384.
void TestRealConfigs::queryScalingInTheDecay() {
    const QStringList base = {"compute", "decay", "--config", real("ministral-3-3b-2512"), "--precision", "double",
                              "--max-distance", "16385"};
    const PoslabRun scaled = runPoslab(base), plain = runPoslab(base + QStringList{"--query-scaling", "16384,0"});
    QVERIFY2(scaled.code == 0, qPrintable(scaled.describe()));
    QVERIFY2(plain.code == 0, qPrintable(plain.describe()));
    const QJsonArray a = scaled.json().value("value").toArray(), b = plain.json().value("value").toArray();
    QCOMPARE(a.size(), 16386);
    for (int d : {0, 1, 100, 16383}) QCOMPARE(a[d].toDouble(), b[d].toDouble());
    for (int d : {16384, 16385})
        QVERIFY2(std::abs(a[d].toDouble() - b[d].toDouble() * (1 + 0.1 * std::log(2.0))) <= 1e-12 * std::abs(a[d].toDouble()),
                 qPrintable(QStringLiteral("d %1: %2 vs %3").arg(d).arg(a[d].toDouble()).arg(b[d].toDouble())));
}

// DeepSeek-V2-Lite as its MLA computes it (modeling_deepseek_v2.py, forward): each head is
// cat(q_nope, q_pe), 128 + 64 channels, RoPE (YaRN, factor 40, complex pairs) on q_pe and k_pe
// only, scores × 192^-1/2·mscale²; the unrotated channels add their position-free term. Scores,
// decay, contributions (the pairs and the unrotated rest) and the layer's widths against
// tests/data/family/mla_unrotated.json (an independent plain-Python transcription; its generator
// beside it).
void TestRealConfigs::mlaUnrotatedChannels() {
    const QJsonObject ref = [] {
        QFile f(QStringLiteral(POSLAB_SOURCE_DIR "/tests/data/family/mla_unrotated.json"));
        f.open(QIODevice::ReadOnly);
        for (const auto& c : QJsonDocument::fromJson(f.readAll()).object().value("cases").toArray())
            if (c.toObject().value("name").toString() == QLatin1String("deepseek_v2_lite")) return c.toObject().value("output").toObject();
        return QJsonObject();
    }();
    QVERIFY(!ref.isEmpty());
    const PoslabRun layers = runPoslab({"compute", "layers", "--config", real("deepseek-v2-lite")});
    QVERIFY2(layers.code == 0, qPrintable(layers.describe()));
    const QJsonObject first = layers.json().value("layers").toArray()[0].toObject();
    QCOMPARE(first.value("head_dim").toInt(), 192);
    QCOMPARE(first.value("rotary_dim").toInt(), 64);
    const QStringList base = {"--config", real("deepseek-v2-lite"), "--content", "formula", "--precision", "double"};
    const PoslabRun s = runPoslab(QStringList{"compute", "scores", "--length", "6"} + base);
    QVERIFY2(s.code == 0, qPrintable(s.describe()));
    const QJsonArray got = s.json().value("scores").toArray(), want = ref.value("scores").toArray();
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j <= i; ++j)
            QVERIFY2(std::abs(got[i].toArray()[j].toDouble() - want[i].toArray()[j].toDouble()) < 1e-9,
                     qPrintable(QStringLiteral("score (%1, %2): %3, want %4").arg(i).arg(j).arg(got[i].toArray()[j].toDouble()).arg(want[i].toArray()[j].toDouble())));
    const PoslabRun d = runPoslab(QStringList{"compute", "decay", "--max-distance", "5"} + base);
    QVERIFY2(d.code == 0, qPrintable(d.describe()));
    const QJsonArray dv = d.json().value("value").toArray(), dw = ref.value("decay").toArray();
    QCOMPARE(dv.size(), 6);
    for (int t = 0; t < 6; ++t)
        QVERIFY2(std::abs(dv[t].toDouble() - dw[t].toDouble()) < 1e-9,
                 qPrintable(QStringLiteral("decay(%1): %2, want %3").arg(t).arg(dv[t].toDouble()).arg(dw[t].toDouble())));
    const PoslabRun c = runPoslab(QStringList{"compute", "contributions", "--max-distance", "5"} + base);
    QVERIFY2(c.code == 0, qPrintable(c.describe()));
    const QJsonArray pairs = c.json().value("contribution").toArray(), rest = c.json().value("rest").toArray();
    const QJsonArray wantPairs = ref.value("contributions").toArray(), wantRest = ref.value("rest").toArray();
    QCOMPARE(pairs.size(), 32);
    QCOMPARE(rest.size(), 6);
    for (int t = 0; t < 6; ++t) {
        QVERIFY2(std::abs(rest[t].toDouble() - wantRest[t].toDouble()) < 1e-9, qPrintable(QStringLiteral("rest(%1)").arg(t)));
        for (int p = 0; p < 32; ++p)
            QVERIFY2(std::abs(pairs[p].toArray()[t].toDouble() - wantPairs[t].toArray()[p].toDouble()) < 1e-9,
                     qPrintable(QStringLiteral("pair %1 at %2").arg(p).arg(t)));
    }
}

// A soft-cap or query scaling the family reads, of the wrong kind, or values valid only for another
// masking: exit 2, one line naming the key.
void TestRealConfigs::badFamilyValuesAreRefused_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("key");
    const QByteArray gemma = R"({"model_type": "gemma2", "head_dim": 16, "num_attention_heads": 2, "num_hidden_layers": 2,
        "hidden_size": 32, "attn_logit_softcapping": %1})";
    const QByteArray ministral = R"({"model_type": "ministral3", "head_dim": 16, "num_attention_heads": 2, "num_hidden_layers": 2,
        "hidden_size": 32, "rope_parameters": {"rope_type": "default", "rope_theta": 10000, "llama_4_scaling_beta": %1,
        "original_max_position_embeddings": 16384}})";
    QTest::newRow("softcap text") << QByteArray(gemma).replace("%1", "\"x\"") << "attn_logit_softcapping";
    QTest::newRow("softcap negative") << QByteArray(gemma).replace("%1", "-3") << "attn_logit_softcapping";
    QTest::newRow("beta text") << QByteArray(ministral).replace("%1", "\"0.1\"") << "rope_parameters.llama_4_scaling_beta";
    QTest::newRow("beta negative") << QByteArray(ministral).replace("%1", "-0.1") << "rope_parameters.llama_4_scaling_beta";
    // Found by fuzz_modelconfig: T5 buckets in a decoder's file are checked as the decoder's
    // (max_distance above num_buckets/2 = 166, not /4), not accepted and refused by every command.
    QTest::newRow("decoder t5 buckets") << QByteArray(R"({"model_type": "starcoder2", "num_attention_heads": 2, "hidden_size": 32,
        "num_hidden_layers": 2, "relative_attention_num_buckets": 332})") << "max_distance";
}

void TestRealConfigs::badFamilyValuesAreRefused() {
    QFETCH(QByteArray, json);
    QFETCH(QString, key);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("config.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(json);
    f.close();
    const PoslabRun r = runPoslab({"compute", "layers", "--config", path});
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY2(r.err.contains(key.toUtf8()), r.err.constData());
}

void TestRealConfigs::decoderScenesAreCausal_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<int>("visibleTo");
    QTest::newRow("gemma-3-1b sliding") << real("gemma-3-1b-it") << QStringList{"--layer-type", "sliding"} << 511;
    QTest::newRow("gpt-oss-20b sliding") << QStringLiteral(POSLAB_SOURCE_DIR "/resources/models/gpt-oss-20b.json")
                                         << QStringList{"--layer-type", "sliding"} << 127;
    QTest::newRow("gemma-2-27b layer 0") << real("gemma-2-27b") << QStringList{"--layer", "0"} << 4095;
    QTest::newRow("gemma-3-1b sliding, --bidirectional") << real("gemma-3-1b-it")
                                                         << QStringList{"--layer-type", "sliding", "--bidirectional"} << 256;
}

void TestRealConfigs::decoderScenesAreCausal() {
    QFETCH(QString, path);
    QFETCH(QStringList, extra);
    QFETCH(int, visibleTo);
    const PoslabRun r = runPoslab(QStringList{"compute", "decay", "--config", path, "--max-distance", "8192"} + extra);
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    QCOMPARE(r.json().value("visible_to").toInt(), visibleTo);
    QCOMPARE(r.json().value("distance").toArray().last().toInt(), visibleTo);
}

QTEST_GUILESS_MAIN(TestRealConfigs)
#include "test_realconfigs.moc"
