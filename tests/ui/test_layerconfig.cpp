// Layer patterns of a config.json (ui/io/layerconfig.h): an explicit layer_types list, each
// family's sliding-window rule (gemma3, cohere2, exaone4, olmo3, gpt_oss, llama4, modernbert,
// gemma2, mistral, qwen2) and its RoPE flags give one kind per layer; bad lists are one message
// naming the key; the helpers (jsonTruthy, isPerLayerTypeBlock, textConfigObject,
// withFamilyDefaults) keep their promises.
#include "ui/io/layerconfig.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace poslab;
using namespace poslab::ui;

namespace {

QJsonObject base(const char* modelType, int layers) {
    return QJsonObject{{"model_type", modelType}, {"num_hidden_layers", layers},  {"num_attention_heads", 8},
                       {"hidden_size", 512},      {"head_dim", 64},              {"rope_theta", 10000}};
}
QJsonObject with(QJsonObject o, const QJsonObject& more) {
    for (auto it = more.begin(); it != more.end(); ++it) o.insert(it.key(), it.value());
    return o;
}
ModelConfigResult parse(const QJsonObject& o) { return parseHfConfig(QJsonDocument(o).toJson(QJsonDocument::Compact)); }

// "full,sliding,..." from a short code: F full, S sliding, C chunked.
QString kinds(const QString& code) {
    QStringList out;
    for (QChar c : code) out << (c == 'F' ? "full" : c == 'S' ? "sliding" : "chunked");
    return out.join(',');
}

}  // namespace

class TestLayerConfig : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void layerKindsFollowTheFamilysRule_data() {
        QTest::addColumn<QJsonObject>("config");
        QTest::addColumn<QString>("types");     // F, S, C per layer
        QTest::addColumn<QString>("rope");      // 1/0 per layer
        QTest::addColumn<qint64>("window");     // 0: none
        const QJsonArray explicitTypes{"sliding_attention", "full_attention", "chunked_attention", "sliding_attention"};
        QTest::newRow("layer_types list (llama)")
            << with(base("llama", 4), {{"layer_types", explicitTypes}, {"sliding_window", 256}, {"attention_chunk_size", 1024}})
            << "SFCS" << "1111" << qint64(256);
        QTest::newRow("llama, no pattern keys") << base("llama", 3) << "FFF" << "111" << qint64(0);
        QTest::newRow("gemma3_text 8 layers: pattern 6, window 4096")
            << base("gemma3_text", 8) << "SSSSSFSS" << "11111111" << qint64(4096);
        QTest::newRow("gemma3 sliding_window_pattern 2, window 512")
            << with(base("gemma3", 4), {{"sliding_window_pattern", 2}, {"sliding_window", 512}}) << "SFSF" << "1111" << qint64(512);
        QTest::newRow("cohere2 8 layers: pattern 4, RoPE on sliding only")
            << base("cohere2", 8) << "SSSFSSSF" << "11101110" << qint64(4096);
        QTest::newRow("exaone4 pattern LLG") << with(base("exaone4", 6), {{"sliding_window_pattern", "LLG"}})
                                             << "SSFSSF" << "110110" << qint64(4096);
        QTest::newRow("olmo3 5 layers") << base("olmo3", 5) << "SSSFS" << "11111" << qint64(4096);
        QTest::newRow("gpt_oss 4 layers") << base("gpt_oss", 4) << "SFSF" << "1111" << qint64(128);
        QTest::newRow("modernbert 7 layers, every 3rd global")
            << base("modernbert", 7) << "FSSFSSF" << "1111111" << qint64(128);
        QTest::newRow("gemma2 sliding_window 4096") << with(base("gemma2", 4), {{"sliding_window", 4096}})
                                                    << "SFSF" << "1111" << qint64(4096);
        QTest::newRow("mistral sliding_window 1024") << with(base("mistral", 3), {{"sliding_window", 1024}})
                                                     << "SSS" << "111" << qint64(1024);
        QTest::newRow("mistral sliding_window null") << with(base("mistral", 3), {{"sliding_window", QJsonValue()}})
                                                     << "FFF" << "111" << qint64(0);
        QTest::newRow("qwen2 use_sliding_window, max_window_layers 2")
            << with(base("qwen2", 4), {{"use_sliding_window", true}, {"sliding_window", 2048}, {"max_window_layers", 2}})
            << "FFSS" << "1111" << qint64(2048);
        QTest::newRow("qwen2 use_sliding_window false") << with(base("qwen2", 4), {{"use_sliding_window", false}, {"sliding_window", 2048}})
                                                        << "FFFF" << "1111" << qint64(0);
        QTest::newRow("llama4 no_rope_layers 1,1,0,1")
            << with(base("llama4", 4), {{"no_rope_layers", QJsonArray{1, 1, 0, 1}}, {"attention_chunk_size", 8192}})
            << "CCFC" << "1101" << qint64(0);
        QTest::newRow("smollm3 interval 4 (default)") << base("smollm3", 8) << "FFFFFFFF" << "11101110" << qint64(0);
    }
    void layerKindsFollowTheFamilysRule() {
        QFETCH(QJsonObject, config);
        QFETCH(QString, types);
        QFETCH(QString, rope);
        QFETCH(qint64, window);
        const ModelConfigResult r = parse(config);
        QVERIFY2(r.config, qPrintable(r.error));
        const LayerPattern& m = r.config->params.model;
        QCOMPARE(QString::fromStdString(m.layer_types), kinds(types));
        QString flags;
        for (auto f : m.rope_layers) flags += QString::number(f);
        QCOMPARE(flags, rope);
        QCOMPARE(m.window.value_or(0), window);
        QCOMPARE(m.layer, std::int64_t(0));
        QVERIFY(!m.validate());
    }

    void badPatternsAreOneMessage_data() {
        QTest::addColumn<QJsonObject>("config");
        QTest::addColumn<QString>("error");
        QTest::newRow("layer_types too short")
            << with(base("llama", 3), {{"layer_types", QJsonArray{"full_attention", "full_attention"}}})
            << "layer_types must be a list of num_hidden_layers (3) types, got 2 entries";
        QTest::newRow("layer_types unknown word")
            << with(base("llama", 2), {{"layer_types", QJsonArray{"full_attention", "local"}}})
            << "layer_types[1] must be one of full_attention, sliding_attention, chunked_attention, got \"local\"";
        QTest::newRow("layer_types a string") << with(base("llama", 2), {{"layer_types", "full_attention"}})
                                              << "layer_types must be a list of one type per layer, got \"full_attention\"";
        QTest::newRow("llama4 no_rope_layers 2 of 4")
            << with(base("llama4", 4), {{"no_rope_layers", QJsonArray{1, 0}}})
            << "no_rope_layers must be at least one flag per layer (4), got 2 flags";
        QTest::newRow("llama4 no_rope_layers[1] = 2")
            << with(base("llama4", 2), {{"no_rope_layers", QJsonArray{1, 2}}})
            << "no_rope_layers[1] must be 0 or 1 (1 = the layer uses RoPE), got 2";
        QTest::newRow("exaone4 empty pattern") << with(base("exaone4", 2), {{"sliding_window_pattern", ""}})
                                               << "sliding_window_pattern must be a pattern of L and G, or an integer, got \"\"";
    }
    void badPatternsAreOneMessage() {
        QFETCH(QJsonObject, config);
        QFETCH(QString, error);
        const ModelConfigResult r = parse(config);
        QVERIFY(!r.config);
        QCOMPARE(r.error, error);
    }

    void truthyAsPython_data() {
        QTest::addColumn<QJsonValue>("v");
        QTest::addColumn<bool>("truthy");
        QTest::newRow("null") << QJsonValue() << false;
        QTest::newRow("false") << QJsonValue(false) << false;
        QTest::newRow("true") << QJsonValue(true) << true;
        QTest::newRow("0") << QJsonValue(0) << false;
        QTest::newRow("0.5") << QJsonValue(0.5) << true;
        QTest::newRow("empty string") << QJsonValue("") << false;
        QTest::newRow("\"no\"") << QJsonValue("no") << true;
        QTest::newRow("[]") << QJsonValue(QJsonArray{}) << false;
        QTest::newRow("[0]") << QJsonValue(QJsonArray{0}) << true;
        QTest::newRow("{}") << QJsonValue(QJsonObject{}) << false;
        QTest::newRow("undefined") << QJsonValue(QJsonValue::Undefined) << false;
    }
    void truthyAsPython() {
        QFETCH(QJsonValue, v);
        QFETCH(bool, truthy);
        QCOMPARE(jsonTruthy(v), truthy);
    }

    void perLayerTypeBlocks_data() {
        QTest::addColumn<QJsonObject>("block");
        QTest::addColumn<bool>("perType");
        QTest::newRow("{}") << QJsonObject{} << false;
        QTest::newRow("full+sliding") << QJsonObject{{"full_attention", QJsonObject{}}, {"sliding_attention", QJsonObject{}}} << true;
        QTest::newRow("chunked") << QJsonObject{{"chunked_attention", QJsonObject{}}} << true;
        QTest::newRow("rope_theta") << QJsonObject{{"rope_theta", 10000}} << false;
        QTest::newRow("full+rope_type") << QJsonObject{{"full_attention", QJsonObject{}}, {"rope_type", "default"}} << false;
    }
    void perLayerTypeBlocks() {
        QFETCH(QJsonObject, block);
        QFETCH(bool, perType);
        QCOMPARE(isPerLayerTypeBlock(block), perType);
    }

    void textConfigOfAWrapper_data() {
        QTest::addColumn<QJsonObject>("top");
        QTest::addColumn<QJsonObject>("expected");
        const QJsonObject inner{{"num_hidden_layers", 4}, {"head_dim", 64}};
        QTest::newRow("no text_config") << inner << inner;
        QTest::newRow("wrapper gemma3") << QJsonObject{{"model_type", "gemma3"}, {"text_config", inner}}
                                        << with(inner, {{"model_type", "gemma3"}});
        QTest::newRow("wrapper, inner model_type kept")
            << QJsonObject{{"model_type", "llama4"}, {"text_config", with(inner, {{"model_type", "llama4_text"}})}}
            << with(inner, {{"model_type", "llama4_text"}});
        const QJsonObject own{{"model_type", "x"}, {"num_hidden_layers", 2}, {"text_config", inner}};
        QTest::newRow("top level with its own layers") << own << own;
        const QJsonObject notObject{{"model_type", "x"}, {"text_config", 3}};
        QTest::newRow("text_config not an object") << notObject << notObject;
    }
    void textConfigOfAWrapper() {
        QFETCH(QJsonObject, top);
        QFETCH(QJsonObject, expected);
        QCOMPARE(textConfigObject(top), expected);
    }

    void familyDefaults_data() {
        QTest::addColumn<QJsonObject>("config");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QJsonValue>("value");
        QTest::newRow("gemma3 head_dim") << QJsonObject{{"model_type", "gemma3_text"}} << "head_dim" << QJsonValue(256);
        QTest::newRow("gemma3 head_dim given") << QJsonObject{{"model_type", "gemma3"}, {"head_dim", 128}} << "head_dim" << QJsonValue(128);
        QTest::newRow("llama4 layers") << QJsonObject{{"model_type", "llama4"}} << "num_hidden_layers" << QJsonValue(48);
        QTest::newRow("gpt_oss heads") << QJsonObject{{"model_type", "gpt_oss"}} << "num_attention_heads" << QJsonValue(64);
        QTest::newRow("mistral window") << QJsonObject{{"model_type", "mistral"}} << "sliding_window" << QJsonValue(4096);
        QTest::newRow("mistral window null kept") << QJsonObject{{"model_type", "mistral"}, {"sliding_window", QJsonValue()}}
                                                  << "sliding_window" << QJsonValue();
        QTest::newRow("llama: nothing added") << QJsonObject{{"model_type", "llama"}} << "head_dim" << QJsonValue(QJsonValue::Undefined);
    }
    void familyDefaults() {
        QFETCH(QJsonObject, config);
        QFETCH(QString, key);
        QFETCH(QJsonValue, value);
        QCOMPARE(withFamilyDefaults(config).value(key), value);
    }
};

QTEST_APPLESS_MAIN(TestLayerConfig)
#include "test_layerconfig.moc"
