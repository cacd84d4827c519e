// The demonstrations as commands (docs/spec/cli.md, "Demonstrations"), run as a user runs
// them (QProcess on POSLAB_EXE): `poslab demos`, `poslab compute demo KEY [options]`,
// `poslab figure demo KEY -o F`, and their error contract.
#include "support/runposlab.h"
#include "support/testsupport.h"

#include "core/demonstrations.h"
#include "ui/teaching/demotext.h"

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace testsupport;
using namespace poslab;

namespace {


using Run = testsupport::PoslabRun;
using testsupport::runPoslab;

QStringList split(const QString& s) { return s.split(QLatin1Char(' '), Qt::SkipEmptyParts); }

std::vector<double> numbers(const QJsonValue& v) {
    std::vector<double> out;
    for (const auto& x : v.toArray()) out.push_back(x.toDouble());
    return out;
}

}  // namespace

class TestDemos : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // `poslab demos`: the catalogue in lecture order, every method and scaling of the lecture.
    void demosListsEveryMethodAndScalingInLectureOrder() {
        const Run r = runPoslab({"demos"});
        EXPECT_OK(r);
        const QJsonArray demos = r.json().value("demos").toArray();
        QCOMPARE(demos.size(), qsizetype(demonstrations().size()));
        QStringList keys;
        QSet<QString> methods;
        for (qsizetype i = 0; i < demos.size(); ++i) {
            const QJsonObject d = demos[i].toObject();
            QCOMPARE(d.value("key").toString().toStdString(), demonstrations()[std::size_t(i)].key);
            QVERIFY(!d.value("title").toString().isEmpty());
            QVERIFY(!d.value("claim").toString().isEmpty());
            QVERIFY(!d.value("methods").toArray().isEmpty());
            for (const auto& m : d.value("methods").toArray()) methods.insert(m.toString());
            keys << d.value("key").toString();
        }
        for (const char* m : {"nope", "sinusoidal", "learned", "shaw", "t5", "transformer-xl", "alibi", "rope", "llama3", "yarn"})
            QVERIFY2(methods.contains(QLatin1String(m)), m);
        // One demonstration of its own for each, in the lecture's order.
        const QStringList lecture = {"permutation", "sinusoidal-shift", "learned-table", "shaw-clipping", "t5-buckets",
                                     "transformer-xl-terms", "rope-shift", "alibi-slopes", "kv-cache", "extrapolation",
                                     "llama3-bands", "yarn-ramp", "rope-bf16", "local-global-layers", "comparison"};
        qsizetype last = -1;
        for (const auto& k : lecture) {
            const qsizetype at = keys.indexOf(k);
            QVERIFY2(at > last, qPrintable(k));
            last = at;
        }
    }

    // Every demonstration holds on its own scene, and prints exactly the core's numbers.
    void computeDemoHoldsOnItsOwnScene_data() {
        QTest::addColumn<int>("id");
        for (const auto& d : demonstrations()) QTest::newRow(d.key.c_str()) << int(d.id);
    }
    void computeDemoHoldsOnItsOwnScene() {
        QFETCH(int, id);
        const DemoInfo& info = demoInfo(DemoId(id));
        const Run r = runPoslab({"compute", "demo", QString::fromStdString(info.key)});
        EXPECT_OK(r);
        const QJsonObject j = r.json();
        QCOMPARE(j.value("key").toString().toStdString(), info.key);
        QCOMPARE(j.value("title").toString(), ui::demoTitle(info.id));
        QCOMPARE(j.value("claim").toString(), ui::demoClaim(info.id));
        QVERIFY(j.value("holds").isBool());
        QVERIFY(j.value("holds").toBool());
        const QJsonObject measured = j.value("measured").toObject();
        QVERIFY(!measured.isEmpty());
        const auto core = runDemonstration(DemoId(id));
        QVERIFY(core.ok());
        QCOMPARE(measured.size(), qsizetype(core.value().figures.size()));
        for (const auto& f : core.value().figures) {
            const QJsonValue v = measured.value(QString::fromStdString(f.name));
            QVERIFY2(!v.isUndefined(), f.name.c_str());
            if (f.list.empty()) {
                QVERIFY2(v.isDouble(), f.name.c_str());
                QCOMPARE(v.toDouble(), f.value);
            } else {
                QCOMPARE(numbers(v), f.list);
            }
        }
    }

    // A scene that breaks the claim: the demonstration still runs, and says it does not hold.
    void brokenSceneDoesNotHold_data() {
        QTest::addColumn<QString>("args");
        QTest::newRow("sinusoidal-shift float32") << "sinusoidal-shift --precision float32";
        QTest::newRow("rope-shift float32") << "rope-shift --precision float32";
        QTest::newRow("rope-norm float32") << "rope-norm --precision float32";
        QTest::newRow("learned-table long enough") << "learned-table --table-size 8192";
        QTest::newRow("alibi-slopes 12 heads") << "alibi-slopes --heads 12";
        QTest::newRow("alibi-slopes bias-max 4") << "alibi-slopes --bias-max 4";
        QTest::newRow("yarn-ramp attention-factor 2") << "yarn-ramp --attention-factor 2";
        QTest::newRow("rope-bf16 double") << "rope-bf16 --precision double";
        QTest::newRow("rope-bf16 float32") << "rope-bf16 --precision float32";
    }
    void brokenSceneDoesNotHold() {
        QFETCH(QString, args);
        const Run r = runPoslab(QStringList{"compute", "demo"} + split(args));
        EXPECT_OK(r);
        QCOMPARE(r.json().value("holds").toBool(true), false);
    }

    // A changed scene that keeps the claim: it still holds, with the scene's numbers.
    void changedSceneStillHolds_data() {
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("value");
        QTest::newRow("learned-table 4096 rows") << "learned-table --table-size 4096" << "table_rows" << 4096.0;
        QTest::newRow("t5-buckets 64 buckets") << "t5-buckets --num-buckets 64" << "exact_up_to" << 16.0;
        QTest::newRow("alibi-slopes 16 heads") << "alibi-slopes --heads 16" << "slope_formula_error" << 0.0;
        QTest::newRow("yarn-ramp factor 16") << "yarn-ramp --factor 16" << "attention_factor" << double(float(0.1 * std::log(16.0) + 1.0));
        QTest::newRow("llama3-bands factor 4") << "llama3-bands --factor 4" << "factor" << 4.0;
        QTest::newRow("rope-bf16 float16") << "rope-bf16 --precision float16" << "legacy_first_collision" << 2048.0;
        QTest::newRow("rope-bf16 head 64") << "rope-bf16 --dim 64" << "legacy_first_collision" << 256.0;
    }
    void changedSceneStillHolds() {
        QFETCH(QString, args);
        QFETCH(QString, name);
        QFETCH(double, value);
        const Run r = runPoslab(QStringList{"compute", "demo"} + split(args));
        EXPECT_OK(r);
        QVERIFY(r.json().value("holds").toBool());
        QVERIFY(std::abs(r.json().value("measured").toObject().value(name).toDouble() - value) <= 1e-6 * std::max(1.0, std::abs(value)));
    }

    // KV cache: the stale error of a positional term cached one step earlier is measured on the
    // attention weights (after softmax). ALiBi's −m(i − j) = −m·i + m·j: −m·i is the same for the
    // whole row and softmax ignores it, so a cached m·j is exact (BLOOM); T5's buckets and Shaw's
    // clipped indices depend on i − j otherwise, so a cached term changes the weights.
    void kvCacheStaleErrorAfterSoftmax_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("exact");
        QTest::newRow("alibi") << "alibi_stale_error" << true;
        QTest::newRow("t5") << "t5_stale_error" << false;
        QTest::newRow("shaw") << "shaw_stale_error" << false;
    }
    void kvCacheStaleErrorAfterSoftmax() {
        QFETCH(QString, name);
        QFETCH(bool, exact);
        const Run r = runPoslab({"compute", "demo", "kv-cache"});
        EXPECT_OK(r);
        QVERIFY(r.json().value("holds").toBool());
        const QJsonObject m = r.json().value("measured").toObject();
        QVERIFY2(m.value(name).isDouble(), qPrintable(name));
        const double v = m.value(name).toDouble();
        // Attention weights lie in [0, 1]: an error is at most 1.
        QVERIFY(v >= 0 && v <= 1);
        if (exact) QVERIFY2(v <= 1e-15, qPrintable(QString::number(v)));
        else QVERIFY2(v > 1e-6, qPrintable(QString::number(v)));
        // The claim says what can be cached, and does not lump ALiBi with the recomputing methods.
        const QString claim = r.json().value("claim").toString();
        QVERIFY(claim.contains(QStringLiteral("ALiBi caches")));
    }

    // T5's staircase against the bucket rule written out here (bidirectional, 32 buckets,
    // max_distance 128: 16 per direction, max_exact 8): exact near, logarithmic far, saturated.
    void t5StaircaseIsTheRule() {
        const Run r = runPoslab({"compute", "demo", "t5-buckets"});
        EXPECT_OK(r);
        const QJsonObject m = r.json().value("measured").toObject();
        const auto dist = numbers(m.value("distance"));
        const auto bucket = numbers(m.value("bucket"));
        QCOMPARE(dist.size(), bucket.size());
        QVERIFY(dist.size() >= 10);
        for (std::size_t i = 0; i < dist.size(); ++i) {
            const double d = dist[i];
            const double expected = d < 8 ? d : std::min(15.0, 8.0 + std::floor(std::log(d / 8.0) / std::log(128.0 / 8.0) * 8.0));
            QCOMPARE(bucket[i], expected);
        }
        QCOMPARE(m.value("max_exact").toDouble(), 8.0);
        QCOMPARE(m.value("exact_up_to").toDouble(), 8.0);   // the seeds' "exact for |k| <= 8"
        QCOMPARE(m.value("last_bucket").toDouble(), 15.0);
    }

    // Llama 3.1's three bands at 8192 → 131072, counted here from the wavelengths 2π·500000^(i/64).
    void llama3BandsCountedIndependently() {
        const Run r = runPoslab({"compute", "demo", "llama3-bands"});
        EXPECT_OK(r);
        const QJsonObject m = r.json().value("measured").toObject();
        int kept = 0, divided = 0, smoothed = 0;
        for (int i = 0; i < 64; ++i) {
            const double wavelength = 2 * std::numbers::pi * std::pow(500000.0, i / 64.0);
            if (wavelength < 8192.0 / 4) ++kept;
            else if (wavelength > 8192.0 / 1) ++divided;
            else ++smoothed;
        }
        QCOMPARE(m.value("pairs_kept").toDouble(), double(kept));
        QCOMPARE(m.value("pairs_divided").toDouble(), double(divided));
        QCOMPARE(m.value("pairs_smoothed").toDouble(), double(smoothed));
        QCOMPARE(m.value("context").toDouble(), 131072.0);
        QCOMPARE(m.value("original_context").toDouble(), 8192.0);
    }

    // YaRN's ramp from the paper's formula: pair index where a pair turns β times in the original
    // context, d·ln(L/(2πβ))/(2 ln base), floored (β_fast) and ceiled (β_slow).
    void yarnRampFromTheFormula() {
        const Run r = runPoslab({"compute", "demo", "yarn-ramp"});
        EXPECT_OK(r);
        const QJsonObject m = r.json().value("measured").toObject();
        auto dimAt = [](double beta) { return 128.0 * std::log(4096.0 / (beta * 2 * std::numbers::pi)) / (2 * std::log(10000.0)); };
        QCOMPARE(m.value("ramp_low").toDouble(), std::floor(dimAt(32)));
        QCOMPARE(m.value("ramp_high").toDouble(), std::ceil(dimAt(1)));
        QVERIFY(std::abs(m.value("attention_factor").toDouble() - (0.1 * std::log(8.0) + 1)) < 1e-6);
        const auto ratio = numbers(m.value("frequency_ratio"));
        QCOMPARE(ratio.size(), std::size_t(64));
        QCOMPARE(ratio.front(), 1.0);
        QVERIFY(std::abs(ratio.back() - 1.0 / 8) < 1e-6);
    }

    // The ALiBi slopes are 2^(−8h/H) and the learned table ends where it ends.
    void alibiAndLearnedNumbers() {
        const Run a = runPoslab({"compute", "demo", "alibi-slopes"});
        EXPECT_OK(a);
        const auto slopes = numbers(a.json().value("measured").toObject().value("slopes"));
        QCOMPARE(slopes.size(), std::size_t(8));
        for (int h = 1; h <= 8; ++h) QCOMPARE(slopes[std::size_t(h - 1)], std::pow(2.0, -h));
        QCOMPARE(a.json().value("measured").toObject().value("bias_at_asked").toDouble(), -8191.0 / 256);
        const Run l = runPoslab({"compute", "demo", "learned-table"});
        EXPECT_OK(l);
        const QJsonObject m = l.json().value("measured").toObject();
        QCOMPARE(m.value("table_rows").toDouble(), 2048.0);
        QCOMPARE(m.value("last_row_defined").toDouble(), 1.0);
        QCOMPARE(m.value("asked_row_defined").toDouble(), 0.0);
    }

    void errors_data() {
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("unknown key") << "compute demo no-such-demo" << "yarn-ramp";
        QTest::newRow("missing key") << "compute demo" << "learned-table";
        QTest::newRow("option the demo does not read") << "compute demo rope-shift --scaling linear" << "--scaling";
        QTest::newRow("out of range") << "compute demo learned-table --table-size 0" << "table-size";
        QTest::newRow("llama3 needs its scaling") << "compute demo llama3-bands --scaling yarn" << "llama3";
        QTest::newRow("layers read no options") << "compute demo local-global-layers --window 5" << "--window";
        QTest::newRow("rope-bf16 reads no scaling") << "compute demo rope-bf16 --scaling linear" << "--scaling";
        QTest::newRow("figure unknown key") << "figure demo no-such-demo -o x.png" << "t5-buckets";
        QTest::newRow("figure bad format") << "figure demo t5-buckets -o x.csv" << "output";
        QTest::newRow("figure bad theme") << "figure demo t5-buckets -o x.png --theme neon" << "theme";
    }
    void errors() {
        QFETCH(QString, args);
        QFETCH(QString, mentions);
        QTemporaryDir dir;
        QStringList a = split(args);
        for (auto& s : a)
            if (s.startsWith(QLatin1String("x."))) s = dir.filePath(s);
        const Run r = runPoslab(a);
        EXPECT_USAGE_ERROR(r);
        QVERIFY2(r.err.contains(mentions.toUtf8()), r.err.constData());
        QVERIFY(QDir(dir.path()).isEmpty());
    }

    // RoPE in bfloat16: the demonstration's phase errors are `compute precision`'s (largest
    // |angle_error| over the pairs), on both code paths.
    void ropeBf16IsComputePrecision_data() {
        QTest::addColumn<qint64>("position");
        QTest::newRow("512") << qint64(512);
        QTest::newRow("2048") << qint64(2048);
        QTest::newRow("4096") << qint64(4096);
    }
    void ropeBf16IsComputePrecision() {
        QFETCH(qint64, position);
        const Run demo = runPoslab({"compute", "demo", "rope-bf16"});
        EXPECT_OK(demo);
        const QJsonObject m = demo.json().value("measured").toObject();
        QVERIFY(demo.json().value("holds").toBool());
        auto largest = [&](const QString& angles) {
            const Run r = runPoslab({"compute", "precision", "--head-dim", "128", "--positions", QString::number(position), "--precision",
                                     "bfloat16", "--angle-precision", angles});
            if (r.code != 0) qFatal("%s", r.err.constData());
            double worst = 0;
            for (double v : numbers(r.json().value("angle_error").toArray().at(0))) worst = std::max(worst, std::abs(v));
            return worst;
        };
        const QString at = QString::number(position);
        QCOMPARE(m.value("legacy_phase_error_" + at).toDouble(), largest(QStringLiteral("bfloat16")));
        const auto positions = numbers(m.value("position"));
        const auto mainList = numbers(m.value("main_phase_error"));
        const auto it = std::find(positions.begin(), positions.end(), double(position));
        QVERIFY(it != positions.end());
        QCOMPARE(mainList[std::size_t(it - positions.begin())], largest(QStringLiteral("float32")));
    }

    // Local and global layers: the demonstration's models are the shipped configurations, as
    // `compute layers --config` reads them (types, RoPE flags, windows, chunks, bases, factors).
    void localGlobalLayersAreTheShippedConfigs_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("prefix");
        QTest::newRow("gemma-3-27b") << "gemma-3-27b" << "gemma";
        QTest::newRow("llama-4-scout") << "llama-4-scout" << "llama4";
    }
    void localGlobalLayersAreTheShippedConfigs() {
        QFETCH(QString, file);
        QFETCH(QString, prefix);
        const Run layers = runPoslab({"compute", "layers", "--config", QStringLiteral(POSLAB_SOURCE_DIR "/resources/models/") + file + ".json"});
        EXPECT_OK(layers);
        const Run demo = runPoslab({"compute", "demo", "local-global-layers"});
        EXPECT_OK(demo);
        QVERIFY(demo.json().value("holds").toBool());
        const QJsonObject m = demo.json().value("measured").toObject();
        const QJsonArray rows = layers.json().value("layers").toArray();
        int global = 0, local = 0, nope = 0;
        double localReach = 0, localBase = 0;
        for (const auto& v : rows) {
            const QJsonObject l = v.toObject();
            const bool full = l.value("layer_type").toString() == QLatin1String("full_attention");
            ++(full ? global : local);
            nope += !l.value("rope").toBool();
            if (!full) {
                localReach = std::max(localReach, (l.contains("window") ? l.value("window") : l.value("chunk")).toDouble() - 1);
                if (localBase == 0) localBase = l.value("rope_theta").toDouble();
            }
        }
        auto v = [&](const char* name) { return m.value(prefix + QLatin1String(name)).toDouble(); };
        QCOMPARE(v("_layers"), double(rows.size()));
        QCOMPARE(v("_global_layers"), double(global));
        QCOMPARE(v("_local_layers"), double(local));
        QCOMPARE(v("_local_reach"), localReach);
        QCOMPARE(v(prefix == QLatin1String("gemma") ? "_local_base" : "_rope_base"), localBase);
        if (prefix == QLatin1String("llama4")) {
            QCOMPARE(v("_nope_layers"), double(nope));
            // The NoPE layers' temperature tuning [floor_scale, attn_scale] of the file.
            for (const auto& r : rows)
                if (!r.toObject().value("rope").toBool()) {
                    const auto ft = numbers(r.toObject().value("temperature_tuning"));
                    QCOMPARE(ft.size(), std::size_t(2));
                    const auto tau = numbers(m.value("llama4_temperature"));
                    QVERIFY(std::abs(tau.back() - (1 + ft[1] * std::log1p(std::floor(10485760.0 / ft[0])))) < 1e-6);
                }
        } else {
            for (const auto& r : rows)
                if (r.toObject().value("layer_type").toString() == QLatin1String("full_attention")) {
                    QCOMPARE(v("_global_base"), r.toObject().value("rope_theta").toDouble());
                    QCOMPARE(v("_global_factor"), r.toObject().value("factor").toDouble());
                }
        }
    }

    // The handbook's lecture is the deck: its numbered list is demonstrations()' titles, in order.
    void handbookListsTheLecture() {
        QFile f(QStringLiteral(POSLAB_SOURCE_DIR "/docs/HANDBOOK.md"));
        QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
        const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
        const qsizetype start = lines.indexOf(QStringLiteral("## The lecture"));
        QVERIFY(start >= 0);
        QStringList titles;
        for (qsizetype i = start + 1; i < lines.size() && !lines[i].startsWith(QLatin1String("## ")); ++i) {
            static const QRegularExpression item(QStringLiteral("^(\\d+)\\. (.+)$"));
            const auto match = item.match(lines[i]);
            if (match.hasMatch()) {
                QCOMPARE(match.captured(1).toInt(), int(titles.size()) + 1);
                titles << match.captured(2);
            }
        }
        QStringList expected;
        for (const auto& d : demonstrations()) expected << ui::demoTitle(d.id);
        QCOMPARE(titles, expected);
    }

    // Each demonstration's slide as a 1920×1080 projector PNG: written, the right size, not blank.
    void figureDemoWritesItsSlide_data() {
        QTest::addColumn<int>("id");
        for (const auto& d : demonstrations()) QTest::newRow(d.key.c_str()) << int(d.id);
    }
    void figureDemoWritesItsSlide() {
        QFETCH(int, id);
        QTemporaryDir dir;
        const QString key = QString::fromStdString(demoInfo(DemoId(id)).key);
        const QString out = dir.filePath(key + QStringLiteral(".png"));
        const Run r = runPoslab({"figure", "demo", key, "-o", out});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(r.out.isEmpty() && r.err.isEmpty());
        QImage img(out);
        QCOMPARE(img.size(), QSize(1920, 1080));
        // The slide is filled: its numbers column (right 38 %) and its views (left) both draw.
        auto inked = [&](int x0, int x1) {
            const QRgb bg = img.pixel(2, 2);
            int n = 0;
            for (int y = 150; y < 1000; y += 4)
                for (int x = x0; x < x1; x += 4) n += img.pixel(x, y) != bg;
            return n;
        };
        QVERIFY2(inked(1200, 1900) > 500, "numbers column empty");
        if (DemoId(id) != DemoId::ComparisonTable) QVERIFY2(inked(40, 1100) > 500, "views empty");
    }

    void figureDemoFormatsAndTheme_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("extra");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("svg") << "slide.svg" << "" << QByteArray("<?xml");
        QTest::newRow("pdf") << "slide.pdf" << "" << QByteArray("%PDF");
        QTest::newRow("png dark 800x600") << "slide.png" << "--theme dark --width 800 --height 600" << QByteArray("\x89PNG");
    }
    void figureDemoFormatsAndTheme() {
        QFETCH(QString, file);
        QFETCH(QString, extra);
        QFETCH(QByteArray, magic);
        QTemporaryDir dir;
        const QString out = dir.filePath(file);
        const Run r = runPoslab(QStringList{"figure", "demo", "yarn-ramp", "-o", out} + split(extra));
        QVERIFY2(r.code == 0, r.err.constData());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(bytes.size() > 10000);
        QVERIFY(bytes.startsWith(magic));
        if (file.endsWith(QLatin1String(".svg"))) QVERIFY(bytes.contains("β fast"));   // text, not a bitmap
        if (file.endsWith(QLatin1String(".png"))) {
            const QImage img(out);
            QCOMPARE(img.size(), QSize(800, 600));
            QVERIFY(QColor(img.pixel(2, 2)).lightness() < 80);   // dark theme: a dark background (the projector's is white)
        }
        // An existing file is kept without --force.
        const Run again = runPoslab(QStringList{"figure", "demo", "yarn-ramp", "-o", out});
        EXPECT_USAGE_ERROR(again);
    }

    // A slide carries no interaction hints: the comparison table's "click a cell" belongs to the
    // dock, where a click does something, not to a figure.
    void comparisonSlideHasNoClickHint() {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("comparison.svg"));
        const Run r = runPoslab(QStringList{"figure", "demo", "comparison", "-o", out});
        QVERIFY2(r.code == 0, r.err.constData());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(bytes.contains("ALiBi") || bytes.contains("alibi"));   // the table is there, as text
        QVERIFY(!bytes.contains("Click a cell"));
    }
};

QTEST_MAIN(TestDemos)
#include "test_demos.moc"
