// Nothing given on the command line is silently ignored (cli.md "Added in 0.4"): for every WHAT
// of `compute` and every view of `figure`, every option the command accepts (as its --help lists
// them: generated from the parameter table, so a new option is audited the day it appears) either
// changes the output when given a valid value other than its default, or is refused with exit 2
// and one line naming it, or (`figure VIEW` only, for an option VIEW does not draw, which the
// file's embedded scene keeps) is reported by a note on stderr naming it. A figure's output is
// its pixels (PNG: the embedded scene does not count) or its values (CSV without its comment
// lines, where float32 and double differ below a pixel). The commands run in this process
// (cli::run with stdout and stderr redirected): the audit is a few thousand commands.
//
// Also the findings of issue 28 about options and files: an option given twice, a GGUF cut inside
// its tensor table, a Hugging Face snapshot folder, `figure --batch` with every view and paths
// relative to the batch file, `compute precision --summary`, `--config` for precision and demo,
// `figure all --config A --config B`, `layer_types` of more than 1024 characters.
#include "app/cli.h"
#include "core/demonstrations.h"
#include "support/testsupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QtTest>

#include <cstdio>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

struct Run {
    int code = -1;
    QByteArray out, err;   // figure: `out` is the written file (a PNG decoded to its pixels)
    QString describe() const {
        return QStringLiteral("exit %1, stdout [%2], stderr [%3]").arg(code).arg(QString::fromUtf8(out.left(200)), QString::fromUtf8(err));
    }
};

QTemporaryDir& workDir() {
    static QTemporaryDir d;
    return d;
}
QString work(const QString& name) { return workDir().filePath(name); }

// Runs `poslab ARGS` in this process; stdout and stderr go to files read back.
Run runCli(const QStringList& args) {
    std::vector<std::string> store{"poslab"};
    for (const auto& a : args) store.push_back(a.toStdString());
    std::vector<char*> argv;
    for (auto& s : store) argv.push_back(s.data());
    argv.push_back(nullptr);
    QTemporaryFile out(work(QStringLiteral("out-XXXXXX"))), err(work(QStringLiteral("err-XXXXXX")));
    Run r;
    if (!out.open() || !err.open()) return r;
    std::fflush(stdout);
    std::fflush(stderr);
    const int so = dup(1), se = dup(2);
    dup2(out.handle(), 1);
    dup2(err.handle(), 2);
    r.code = poslab::cli::run(static_cast<int>(store.size()), argv.data());
    std::fflush(stdout);
    std::fflush(stderr);
    dup2(so, 1);
    dup2(se, 2);
    close(so);
    close(se);
    out.seek(0);
    err.seek(0);
    r.out = out.readAll();
    r.err = err.readAll();
    return r;
}

// A figure command: "%OUT%" in an argument becomes a fresh file name; the result's `out` is the
// file (a PNG as its decoded pixels, so that the scene embedded in its text chunk does not count).
Run runFigure(QStringList args) {
    static int counter = 0;
    const QString stem = work(QStringLiteral("fig%1").arg(++counter));
    QString written;
    for (auto& a : args)
        if (a.contains(QLatin1String("%OUT%"))) {
            a.replace(QLatin1String("%OUT%"), stem);
            written = a.mid(a.indexOf(stem));
        }
    Run r = runCli(args);
    if (r.code != 0 || written.isEmpty()) return r;
    if (written.endsWith(QLatin1String(".png"))) {
        const QImage img = QImage(written).convertToFormat(QImage::Format_ARGB32);
        r.out = QByteArray::number(img.width()) + "x" + QByteArray::number(img.height()) + ":" +
                QByteArray(reinterpret_cast<const char*>(img.constBits()), img.sizeInBytes());
    } else {
        QFile f(written);
        f.open(QIODevice::ReadOnly);
        r.out = f.readAll();
        // A CSV's values without its comment lines (the scene it carries).
        if (written.endsWith(QLatin1String(".csv"))) {
            QByteArray values;
            for (const QByteArray& line : r.out.split('\n'))
                if (!line.startsWith('#')) values += line + '\n';
            r.out = values;
        }
    }
    QFile::remove(written);
    return r;
}

Run runAny(const QStringList& args) { return args.value(0) == QLatin1String("figure") ? runFigure(args) : runCli(args); }

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

// The files the audit's commands read.
QString llamaConfig() { return work(QStringLiteral("llama.json")); }
QString yarnConfig() { return work(QStringLiteral("yarn.json")); }
QString llama3Config() { return work(QStringLiteral("llama3.json")); }
QString vectorsBFile() { return work(QStringLiteral("vectors_b.json")); }
QString modelConfig() { return QStringLiteral(POSLAB_SOURCE_DIR "/resources/models/gemma-3-4b.json"); }
QString vectorsFile() { return work(QStringLiteral("vectors.json")); }
QString vectors4File() { return work(QStringLiteral("vectors4.json")); }
QString sessionFile() { return work(QStringLiteral("session.json")); }
QString qFile() { return QStringLiteral(POSLAB_SOURCE_DIR "/tests/data/qk/3d_float32_q.npy"); }
QString kFile() { return QStringLiteral(POSLAB_SOURCE_DIR "/tests/data/qk/3d_float32_k.npy"); }
QString qkFile() { return QStringLiteral(POSLAB_SOURCE_DIR "/tests/data/qk/3d_float32.npz"); }

void writeInputs() {
    writeFile(llamaConfig(), R"({"model_type": "llama", "hidden_size": 64, "num_attention_heads": 8, "num_hidden_layers": 2,
        "max_position_embeddings": 4096, "rope_theta": 500000.0, "rope_scaling": null})");
    writeFile(yarnConfig(), R"({"model_type": "qwen2", "hidden_size": 64, "num_attention_heads": 8, "num_hidden_layers": 2,
        "max_position_embeddings": 32768, "rope_theta": 1000000.0,
        "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 8192}})");
    writeFile(llama3Config(), R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 2,
        "max_position_embeddings": 131072, "rope_theta": 500000.0,
        "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                         "original_max_position_embeddings": 8192}})");
    writeFile(vectorsFile(), "[[1,2,3,4,5,6,7,8],[0.5,1,1.5,2,2.5,3,3.5,4],[1,0,1,0,1,0,1,0],[0,1,0,1,0,1,0,1]]");
    writeFile(vectors4File(), "[[1,2,3,4],[0.5,1,1.5,2],[1,0,1,0],[0,1,0,1]]");
}

// The options a command accepts, as its --help lists them ("  --name ARG   help").
QStringList optionsOf(const QStringList& command) {
    QStringList helpArgs;
    // The options that choose which options exist stay; --help replaces the rest.
    for (int i = 0; i < command.size(); ++i) {
        const QString& a = command[i];
        if (a == QLatin1String("-o")) {
            ++i;   // the output file
        } else if (!a.startsWith(QLatin1String("-"))) {
            helpArgs << a;
        } else if (a == QLatin1String("--method") || a == QLatin1String("--config")) {
            helpArgs << a << command.value(i + 1);
            ++i;
        } else if (!a.startsWith(QLatin1String("--")) || command.value(i + 1).startsWith(QLatin1String("--")) ||
                   i + 1 >= command.size()) {
            continue;
        } else {
            ++i;   // an option's value
        }
    }
    helpArgs << QStringLiteral("--help");
    const Run r = runCli(helpArgs);
    QStringList out;
    static const QRegularExpression line(QStringLiteral(R"(^  --([a-z0-9-]+))"));
    for (const QString& l : QString::fromUtf8(r.out).split(QLatin1Char('\n'))) {
        const auto m = line.match(l);
        if (m.hasMatch() && m.captured(1) != QLatin1String("help") && !out.contains(m.captured(1))) out << m.captured(1);
    }
    return out;
}

// A valid value other than the default for each option ("" = a flag). Where a scenario needs
// another, `overrides` gives it.
const std::map<QString, QString>& auditValues() {
    static const std::map<QString, QString> v = {
        {"link-color-ranges", "own"},
        // RoPE frequencies and application
        {"head-dim", "16"}, {"base", "500"}, {"partial-rotary-factor", "0.5"}, {"rotary-dim", "4"}, {"scaling", "linear --factor 4"},
        {"factor", "3"}, {"max-positions", "1024"}, {"original-max-positions", "256"}, {"seq-len", "8192"},
        {"beta-fast", "16"}, {"beta-slow", "2"}, {"mscale", "2"}, {"mscale-all-dim", "1"}, {"no-truncate", ""},
        {"attention-factor", "1.5"}, {"low-freq-factor", "2"}, {"high-freq-factor", "8"}, {"short-factor", "1,2,3,4"},
        {"long-factor", "5,6,7,8"}, {"theta", "1,0.5,0.25,0.125"}, {"layout", "interleaved"}, {"precision", "double"},
        {"angle-precision", "bfloat16"}, {"code-path", "meta-complex64 --layout interleaved"}, {"positions", "1,7,300"},
        {"vector", "8,7,6,5,4,3,2,1"}, {"vectors", "%VECTORS%"},
        // other WHATs
        {"scale-base", "1024"}, {"length", "4"}, {"offset", "3"}, {"downscale", ""}, {"dim", "6"},
        {"min-timescale", "2"}, {"frequencies", "tensor2tensor"}, {"num-buckets", "8"}, {"max-distance", "16"},
        {"bidirectional", ""}, {"causal", ""}, {"relative", "-3:3"}, {"query-length", "3"}, {"key-length", "5"},
        {"past", "2"}, {"heads", "3"}, {"bias-max", "4"}, {"symmetric", ""}, {"max-relative-position", "1"}, {"cache", ""},
        {"clamp-len", "2"},
        // scores, decay, figure
        {"method", "alibi"}, {"preset", "llama-3.1-8b"}, {"config", "%LLAMA%"}, {"content", "random"}, {"seed", "7"},
        {"head", "1"}, {"q", "%Q%"}, {"k", "%K%"}, {"qk", "%QK%"}, {"softmax", ""}, {"summary", ""}, {"layer", "1"},
        {"layer-type", "sliding"}, {"window", "2"}, {"chunk", "2"}, {"nope", ""}, {"temperature-tuning", "2,0.5"},
        {"qk-norm", "before"}, {"norm-eps", "0.01"}, {"softmax-scale", "0.25"}, {"sink", "0.5"}, {"softcap", "0.5"},
        {"query-scaling", "2,0.5"},
        {"table-size", "32"}, {"t5-max-distance", "16"}, {"t5-num-buckets", "8"}, {"no-bidirectional", ""},
        // figure
        {"output", "%OUT%.svg"}, {"session", "%SESSION%"}, {"scene", "0"}, {"width", "200"}, {"height", "150"},
        {"dpi", "192"}, {"theme", "dark"}, {"font-scale", "1.5"}, {"pairs", "0,2"}, {"colormap", "viridis"},
        {"log-x", ""}, {"log-y", ""}, {"no-bound", ""}, {"no-difference", ""}, {"range", "1:3"}, {"key-range", "1:3"},
        {"aggregate", "max"},
        // multimodal positions (issue 30)
        {"tokens", "text:1,image:1x4x4,text:1 --mrope-section 1,1,2"}, {"model", "qwen2.5-vl"}, {"merge", "1"},
        {"tokens-per-second", "4"}, {"second-per-grid", "0.5"}, {"mrope-section", "1,1,2"}, {"mrope-layout", "interleaved"},
        {"vision", "qwen"}, {"grid", "1x4x6"}, {"patches-per-side", "16"}, {"patch", "1,2"},
    };
    return v;
}

QString substitute(QString v) {
    v.replace(QLatin1String("%VECTORS4%"), vectors4File());
    v.replace(QLatin1String("%VECTORS%"), vectorsFile());
    v.replace(QLatin1String("%LLAMA%"), llamaConfig());
    v.replace(QLatin1String("%Q%"), qFile());
    v.replace(QLatin1String("%K%"), kFile());
    v.replace(QLatin1String("%QK%"), qkFile());
    v.replace(QLatin1String("%SESSION%"), sessionFile());
    return v;
}

struct Scenario {
    QString name;
    QStringList args;
    std::map<QString, QString> overrides{};   // a value for this command ("VALUE --other X": with another option)
    // Options another scenario audits: those the command requires that this command's values do
    // not read (LongRoPE needs both factor lists; a sequence past the original context reads the
    // long ones), and those that show only in a scene made for them (`only`).
    QStringList skip{};
    // When not empty: the only options this scenario audits.
    QStringList only{};
};

QStringList withOption(QStringList args, const QString& option, QString value);

// One command per WHAT (several where the options that exist depend on a choice: the scaling,
// the method), and one per view of `figure`.
std::vector<Scenario> scenarios() {
    std::vector<Scenario> s;
    const QString d8 = QStringLiteral("--head-dim=8");
    s.push_back({"frequencies", {"compute", "frequencies", d8}, {{"scaling", "linear --factor 4"}}});
    s.push_back({"frequencies_linear", {"compute", "frequencies", d8, "--scaling", "linear", "--factor", "2"}, {{"scaling", "dynamic"}}});
    s.push_back({"frequencies_dynamic", {"compute", "frequencies", d8, "--scaling", "dynamic", "--factor", "2", "--seq-len", "4096"},
                 {{"seq-len", "9000"}, {"max-positions", "1024"}}});
    // 16 pairs: enough that YaRN's ramp and Llama 3's bands move with their parameters.
    const QString d32 = QStringLiteral("--head-dim=32");
    s.push_back({"frequencies_yarn", {"compute", "frequencies", d32, "--scaling", "yarn", "--factor", "4", "--original-max-positions", "512"},
                 {{"max-positions", "1024"}, {"original-max-positions", "64"}, {"head-dim", "64"}, {"mrope-section", "4,6,6"}}});
    s.push_back({"frequencies_longrope",
                 {"compute", "frequencies", d8, "--scaling", "longrope", "--short-factor", "1,1,1,1", "--long-factor", "2,2,2,2",
                  "--original-max-positions", "512", "--seq-len", "1024"},
                 {{"seq-len", "100"}, {"head-dim", "16 --short-factor 1,1,1,1,1,1,1,1 --long-factor 2,2,2,2,2,2,2,2"},
                  {"partial-rotary-factor", "0.5 --short-factor 1,1 --long-factor 2,2"}, {"rotary-dim", "4 --short-factor 1,1 --long-factor 2,2"}},
                 {"short-factor"}});
    s.push_back({"frequencies_longrope_short",
                 {"compute", "frequencies", d8, "--scaling", "longrope", "--short-factor", "1,1,1,1", "--long-factor", "2,2,2,2",
                  "--original-max-positions", "512", "--seq-len", "100"},
                 {{"seq-len", "1000"}, {"head-dim", "16 --short-factor 1,1,1,1,1,1,1,1 --long-factor 2,2,2,2,2,2,2,2"},
                  {"partial-rotary-factor", "0.5 --short-factor 1,1 --long-factor 2,2"}, {"rotary-dim", "4 --short-factor 1,1 --long-factor 2,2"}},
                 {"long-factor"}});
    s.push_back({"frequencies_llama3",
                 {"compute", "frequencies", d32, "--scaling", "llama3", "--factor", "8", "--original-max-positions", "512"},
                 {{"original-max-positions", "64"}, {"head-dim", "64"}, {"mrope-section", "4,6,6"}}});
    s.push_back({"frequencies_config", {"compute", "frequencies", "--config", llamaConfig()},
                 {{"config", yarnConfig()}, {"layer-type", "sliding --config " + modelConfig()}}});
    s.push_back({"rope", {"compute", "rope", d8, "--positions", "0:4", "--vector", "1,2,3,4,5,6,7,8"},
                 {{"vectors", "%VECTORS%"}, {"head-dim", "16 --vector 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16"},
                  {"code-path", "meta-complex64 --layout interleaved"}}});
    // --tokens: each token rotated by its own (t, h, w) ids (an image of 2×2 merged patches: 4 rows).
    s.push_back({"rope_tokens", {"compute", "rope", d8, "--tokens", "image:1x4x4", "--mrope-section", "1,1,2", "--vector", "1,2,3,4,5,6,7,8"},
                 {{"tokens", "text:1,image:1x4x4,text:1"}, {"model", "qwen3-vl"}, {"mrope-section", "2,1,1"},
                  {"head-dim", "16 --vector 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 --mrope-section 2,3,3"},
                  {"partial-rotary-factor", "0.5 --mrope-section 1,0,1"}, {"rotary-dim", "4 --mrope-section 1,0,1"},
                  {"code-path", "meta-complex64 --layout interleaved"}}});
    s.push_back({"frequencies_vision", {"compute", "frequencies", d8, "--vision", "qwen"}, {{"vision", "pixtral"}}});
    s.push_back({"positions", {"compute", "positions", "--tokens", "text:1,video:2x2x2,text:1"}, {{"tokens", "text:3"}}});
    s.push_back({"positions_qwen25", {"compute", "positions", "--tokens", "text:1,video:3x2x2,text:1", "--model", "qwen2.5-vl"},
                 {{"tokens", "text:3"}, {"model", "qwen2-vl"}}});
    s.push_back({"positions_vision", {"compute", "positions", "--vision", "qwen", "--grid", "1x4x4"}, {{"vision", "pixtral"}, {"tokens", "text:3"}}});
    s.push_back({"positions_pixtral", {"compute", "positions", "--vision", "pixtral", "--grid", "1x4x4"}, {{"vision", "qwen"}, {"tokens", "text:3"}}});
    s.push_back({"precision", {"compute", "precision", d8, "--positions", "250:262", "--precision", "bfloat16"},
                 {{"precision", "float16"}}});
    s.push_back({"xpos", {"compute", "xpos", d8, "--vectors", vectorsFile()},
                 {{"head-dim", "4 --vectors %VECTORS4%"}, {"length", "3"}, {"vectors", "%VECTORS4% --head-dim 4"}}});
    s.push_back({"sinusoidal", {"compute", "sinusoidal", "--dim", "8", "--positions", "0:4"}, {{"layout", "concat"}}});
    s.push_back({"sinusoidal_t2t", {"compute", "sinusoidal", "--dim", "8", "--positions", "0:4", "--frequencies", "tensor2tensor"},
                 {{"frequencies", "vaswani"}, {"layout", "concat"}}});
    s.push_back({"t5_relative", {"compute", "t5-buckets", "--relative", "-200:200"}, {{"bidirectional", " --causal"}}});
    s.push_back({"t5_matrix", {"compute", "t5-buckets", "--query-length", "4", "--key-length", "200"}, {{"bidirectional", " --causal"}}});
    s.push_back({"alibi", {"compute", "alibi", "--heads", "4", "--length", "3", "--bias-max", "5"}});
    s.push_back({"shaw", {"compute", "shaw", "--key-length", "6", "--max-relative-position", "2"}});
    s.push_back({"transformer_xl", {"compute", "transformer-xl", "--dim", "8", "--key-length", "6"}});
    for (const QString m : {"nope", "sinusoidal", "learned", "shaw", "t5", "transformer-xl", "alibi", "rope", "xpos"}) {
        std::map<QString, QString> o = {{"content", "random"}, {"method", m == "alibi" ? "nope" : "alibi"}, {"layout", m == "sinusoidal" ? "concat" : "interleaved"}};
        // T5's buckets are exact below max_exact = 8: a longer sequence reaches the logarithmic ones.
        // ALiBi: 16 heads, whose first slope 2^-0.5 float32 rounds (8 heads' are powers of two,
        // exact in float32: --precision shows in neither their bias nor their scores).
        const QStringList heads = m == "alibi" ? QStringList{"--heads", "16"} : QStringList{};
        s.push_back({"scores_" + m, QStringList{"compute", "scores", "--method", m, "--length", m == "t5" ? "40" : "6", "--dim", "8", "--content", "formula"} + heads, o});
        // T5 and alibi: distances far enough to leave the exact buckets.
        const bool bias = m == "t5" || m == "alibi";
        // The bias and absolute methods' curves read no content: their base command does not give
        // it (the rows refuse it).
        const bool absolute = m == "sinusoidal" || m == "learned";
        // T5's and ALiBi's curves are their bias alone: no --dim (refused: a row).
        QStringList decay = QStringList{"compute", "decay", "--method", m, "--max-distance", bias ? "100" : "6"} +
                            (bias ? heads : QStringList{"--dim", "8"});
        if (!bias && !absolute) decay << "--content" << "formula";
        o["max-distance"] = "40";
        if (m == "rope") o["tokens"] = "text:3,image:1x4x4,text:1 --mrope-section 1,1,2";   // 8 tokens: distances 0 … 6 exist
        o["qk"] = "%QK% --max-distance 4";   // the files hold 5 rows
        s.push_back({"decay_" + m, decay, o});
    }
    s.push_back({"contributions", {"compute", "contributions", "--max-distance", "6", "--dim", "8", "--content", "formula"},
                 {{"content", "random"}}});
    s.push_back({"layers", {"compute", "layers", "--config", modelConfig()}, {{"config", "%LLAMA%"}}});
    QString theta64;
    for (int i = 0; i < 64; ++i) theta64 += (i ? "," : "") + QString::number(1.0 / (i + 1));
    for (const auto& demo : poslab::demonstrations()) {
        const QString key = QString::fromStdString(demo.key);
        std::map<QString, QString> o = {{"layout", key.startsWith("sinusoidal") ? "concat" : "interleaved"}, {"theta", theta64}};
        if (key == "llama3-bands") o["config"] = llama3Config(), o["scaling"] = "llama3";
        if (key == "yarn-ramp") o["config"] = yarnConfig(), o["scaling"] = "yarn";
        s.push_back({"demo_" + key, {"compute", "demo", key}, o});
    }
    for (const QString v : {"pairs", "heatmap", "decay", "frequencies", "contributions", "precision", "all"}) {
        // The precision view and `all` need room to draw their plots (the heatmap of `all`, the
        // precision view's three plots): at 240 × 160 they say "no room" and draw none.
        const bool large = v == "precision" || v == "all";
        const QStringList base = {"--method", "rope", "--dim", "8", "--width", large ? "640" : "240", "--height", large ? "400" : "160",
                                  "-o", "%OUT%.png"};
        // Content that tells the layouts and norms apart, where the view reads content.
        const bool content = v != "frequencies";
        const QStringList args = QStringList{"figure", v} + base + (content ? QStringList{"--content", "formula"} : QStringList{}) +
                                 QStringList{"--length", "12"};
        std::map<QString, QString> o = {{"length", "7"}, {"dim", "16"}, {"max-distance", "40"}, {"content", "random"}};
        // The contributions view marks the training context: inside its distances (0 … 256).
        if (v == "contributions") o["max-positions"] = "100";
        // The files hold 5 rows: a scene of N = 12 has no such rows (the content views refuse
        // --qk beside --content).
        if (v == "frequencies") o["qk"] = "%QK% --length 5";
        // float32 and double differ by ~1e-7: in the plotted values (the CSV), not in 8-bit pixels.
        // The heatmaps aggregate where there are more cells than pixels: N = 600.
        const bool csv = v != "all";
        const bool cells = v == "heatmap" || v == "precision" || v == "all";
        s.push_back({"figure_" + v, args, o, QStringList{csv ? "precision" : "", cells ? "aggregate" : ""}});
        if (csv) {
            QStringList c = args;
            c.replace(c.indexOf("%OUT%.png"), "%OUT%.csv");
            s.push_back({"figure_" + v + "_csv", c, {}, {}, {"precision"}});
        }
        if (cells) s.push_back({"figure_" + v + "_cells", withOption(args, "length", "600"), {}, {}, {"aggregate"}});
    }
    s.push_back({"figure_layers", {"figure", "layers", "--config", modelConfig(), "--width", "240", "--height", "160", "-o", "%OUT%.png"},
                 {{"config", "%LLAMA%"}}});
    s.push_back({"figure_demo", {"figure", "demo", "permutation", "--width", "320", "--height", "180", "-o", "%OUT%.png"}});
    // The vision encoder's 2-D decay (issue 30): every option changes the map or the picture.
    s.push_back({"figure_vision_decay",
                 {"figure", "vision-decay", "--vision", "pixtral", "--grid", "1x8x8", "--width", "320", "--height", "240", "-o", "%OUT%.png"},
                 {{"grid", "1x6x10"}}});
    return s;
}

// The command with `option` set to `value`: replaced where the command gives it, else added.
// "VALUE --other X ...": the other options too (each replaced or added the same way).
QStringList withOption(QStringList args, const QString& option, QString value) {
    if (const int more = value.indexOf(QLatin1String(" --")); more >= 0) {
        const QStringList rest = value.mid(more + 1).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        value = value.left(more);
        for (int i = 0; i < rest.size(); ++i) {
            const QString name = rest[i].mid(2);
            const bool hasValue = i + 1 < rest.size() && !rest[i + 1].startsWith(QLatin1String("--"));
            args = withOption(args, name, hasValue ? rest[i + 1] : QString());
            if (hasValue) ++i;
        }
    }
    const QString flag = "--" + option;
    for (int i = 0; i < args.size(); ++i) {
        if (args[i] == flag || (option == QLatin1String("output") && args[i] == QLatin1String("-o"))) {
            if (value.isEmpty()) {
                args.removeAt(i);   // a flag the command gives: the audit leaves it out
                return args;
            }
            args[i + 1] = value;
            return args;
        }
        if (args[i].startsWith(flag + "=")) {
            args[i] = flag + "=" + value;
            return args;
        }
    }
    args << flag;
    if (!value.isEmpty()) args << value;
    return args;
}

}  // namespace

class TestOptions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void everyOptionChangesTheOutputOrIsRefused_data();
    void everyOptionChangesTheOutputOrIsRefused();
    void forceReplacesAnExistingFile();
    void figureNotesWhatItDoesNotDraw();
    void issueFindings_data();
    void issueFindings();
    void optionGivenTwiceIsRefused_data();
    void optionGivenTwiceIsRefused();
    void ggufCutInsideItsTensorTable();
    void snapshotFolderIsAConfig_data();
    void snapshotFolderIsAConfig();
    void sameFileForQueriesAndKeys();
    void precisionSummary();
    void configForPrecisionAndDemo();
    void compareModeFromTwoConfigs();
    void batchTakesEveryViewWithPathsRelativeToIt();
    void manyLayersInFigures();
    void slidingBlockErrorNamesIt();
    void contributionsAggregatePerColumn();
};

void TestOptions::initTestCase() {
    QVERIFY(workDir().isValid());
    writeInputs();
    // A session whose scene differs from the default one (ALiBi, N = 9).
    const Run r = runCli({"figure", "heatmap", "--method", "alibi", "--length", "9", "-o", sessionFile()});
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
}

void TestOptions::everyOptionChangesTheOutputOrIsRefused_data() {
    QTest::addColumn<QStringList>("base");
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("value");
    for (const Scenario& sc : scenarios()) {
        const QStringList options = optionsOf(sc.args);   // a demonstration on its own scene may take none
        for (const QString& o : options) {
            if (o == QLatin1String("force")) continue;   // forceReplacesAnExistingFile
            if (sc.skip.contains(o) || (!sc.only.isEmpty() && !sc.only.contains(o))) continue;
            QString value;
            if (auto it = sc.overrides.find(o); it != sc.overrides.end()) value = it->second;
            else if (auto jt = auditValues().find(o); jt != auditValues().end()) value = jt->second;
            else value = QStringLiteral("(no audit value)");
            QTest::newRow(qPrintable(sc.name + " --" + o)) << sc.args << o << substitute(value);
        }
    }
}

namespace {
// Whether stderr has a note naming --option (not a longer option that begins with its name).
bool noteNames(const QByteArray& err, const QString& option) {
    const QRegularExpression named("(^|[^a-z0-9-])--" + QRegularExpression::escape(option) + "($|[^a-z0-9-])");
    for (const QByteArray& line : err.split('\n'))
        if (line.startsWith("poslab: note: ") && named.match(QString::fromUtf8(line)).hasMatch()) return true;
    return false;
}
}  // namespace

// Giving the option either changes what the command writes, or is exit 2 with one line naming it
// (and not because the audit's value is out of range: that would be the audit's mistake).
void TestOptions::everyOptionChangesTheOutputOrIsRefused() {
    QFETCH(QStringList, base);
    QFETCH(QString, option);
    QFETCH(QString, value);
    QVERIFY2(value != QLatin1String("(no audit value)"), qPrintable("the audit has no value for --" + option + ": add one"));
    static std::map<QString, Run> baseRuns;
    const QString key = base.join(QLatin1Char(' '));
    if (!baseRuns.count(key)) baseRuns[key] = runAny(base);
    const Run& b = baseRuns[key];
    QVERIFY2(b.code == 0, qPrintable(key + ": " + b.describe()));
    const QStringList args = withOption(base, option, value);
    const Run r = runAny(args);
    const QString cmd = args.join(QLatin1Char(' '));
    // `figure VIEW` with an option VIEW does not draw keeps it in the scene the file saves and
    // says so: a note naming exactly this option (cli.md "Added in 0.4"). Then the picture is
    // the same, and nothing else is on stderr. `figure all` draws every view: no notes there.
    if (r.code == 0 && noteNames(r.err, option)) {
        QVERIFY2(base.value(1) != QLatin1String("all") || option == QLatin1String("session"),
                 qPrintable("figure all noted --" + option + " instead of refusing it: " + cmd));
        QVERIFY2(r.out == b.out, qPrintable("a note says --" + option + " is not drawn, but the figure changed: " + cmd));
        for (const QByteArray& line : r.err.trimmed().split('\n'))
            QVERIFY2(line.startsWith("poslab: note: "), qPrintable(cmd + ": " + QString::fromUtf8(r.err)));
        return;
    }
    if (r.code == 0) {
        QVERIFY2(r.out != b.out, qPrintable("--" + option + " was accepted and changed nothing: " + cmd));
        return;
    }
    QVERIFY2(r.code == 2, qPrintable(cmd + ": " + r.describe()));
    const QString line = QString::fromUtf8(r.err).trimmed();
    QVERIFY2(!line.contains(QLatin1Char('\n')), qPrintable(line));
    const bool files = option == QLatin1String("q") || option == QLatin1String("k") || option == QLatin1String("qk");
    QVERIFY2(line.contains("--" + option) || (option == QLatin1String("output") && line.contains(QLatin1String("-o"))) ||
                 (files && line.contains(QLatin1String("the query/key files"))),
             qPrintable("refused without naming --" + option + ": " + cmd + ": " + line));
    QVERIFY2(!line.contains("invalid --" + option + ","), qPrintable("the audit's value is invalid here: " + cmd + ": " + line));
}

// --force changes what happens to an existing file: without it the figure is refused, with it
// written.
void TestOptions::forceReplacesAnExistingFile() {
    const QString out = work(QStringLiteral("exists.png"));
    writeFile(out, "x");
    const QStringList args = {"figure", "heatmap", "--width", "100", "--height", "80", "-o", out};
    QCOMPARE(runCli(args).code, 2);
    const Run r = runCli(args + QStringList{"--force"});
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    QVERIFY(!QImage(out).isNull());
}

// `figure VIEW` with an option VIEW does not draw: exit 0, one note naming it, the option kept in
// the scene the file embeds. `figure all` refuses an option none of the views its scene shows
// draws. A --session the other options override entirely: a note.
void TestOptions::figureNotesWhatItDoesNotDraw() {
    const QString out = work(QStringLiteral("noted.json"));
    const Run r = runCli({"figure", "heatmap", "--length", "8", "--log-x", "--colormap", "viridis", "-o", out});
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    QCOMPARE(QString::fromUtf8(r.err),
             QStringLiteral("poslab: note: figure heatmap does not draw --log-x (it sets the decay view); kept in the scene saved "
                            "in the file\n"));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QByteArray scene = f.readAll();
    QVERIFY(scene.contains("\"decay_log_x\": true"));
    // A scene that does not show the decay view: figure all refuses --log-x.
    scene.replace("\"show_decay\": true", "\"show_decay\": false");
    const QString noDecay = work(QStringLiteral("nodecay.json"));
    writeFile(noDecay, scene);
    const Run all = runCli({"figure", "all", "--session", noDecay, "--log-x", "--width", "400", "--height", "300", "-o",
                            work(QStringLiteral("nodecay.png"))});
    QCOMPARE(all.code, 2);
    QVERIFY2(all.err.startsWith("poslab: error: --log-x cannot change the output, it is read only by the decay view"),
             qPrintable(all.describe()));
    // The session's every setting overridden (ALiBi, N = 9 → RoPE, N = 12): said.
    const Run session = runCli({"figure", "pairs", "--session", sessionFile(), "--method", "rope", "--length", "12", "-o",
                                work(QStringLiteral("overridden.png"))});
    QVERIFY2(session.code == 0, qPrintable(session.describe()));
    QVERIFY2(session.err.startsWith("poslab: note: --session ") && session.err.contains("override every setting it holds"),
             qPrintable(session.describe()));
    // Not when the session holds something the options leave (its N).
    const Run kept = runCli({"figure", "pairs", "--session", sessionFile(), "--method", "rope", "-o", work(QStringLiteral("kept.png"))});
    QVERIFY2(kept.code == 0 && kept.err.isEmpty(), qPrintable(kept.describe()));
}

void TestOptions::issueFindings_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("error");   // what the one line must contain
    QTest::newRow("frequencies --factor without scaling")
        << QStringList{"compute", "frequencies", "--head-dim", "128", "--factor", "8"} << "--factor cannot change the output";
    QTest::newRow("llama3 --beta-fast")
        << QStringList{"compute", "frequencies", "--head-dim", "128", "--scaling", "llama3", "--factor", "8", "--beta-fast", "64"}
        << "--beta-fast cannot change the output, it is read only with --scaling yarn";
    QTest::newRow("llama3 --short-factor")
        << QStringList{"compute", "frequencies", "--head-dim", "8", "--scaling", "llama3", "--factor", "8", "--short-factor", "1,2"}
        << "--short-factor cannot change the output, it is read only with --scaling longrope";
    QTest::newRow("llama3 --mscale")
        << QStringList{"compute", "frequencies", "--head-dim", "8", "--scaling", "llama3", "--factor", "8", "--mscale", "3"}
        << "--mscale cannot change the output";
    QTest::newRow("sinusoidal --min-timescale")
        << QStringList{"compute", "sinusoidal", "--dim", "8", "--min-timescale", "5"}
        << "--min-timescale cannot change the output, it is read only with --frequencies tensor2tensor";
    QTest::newRow("config without scaling --factor")
        << QStringList{"compute", "frequencies", "--config", "%LLAMA%", "--factor", "8"} << "--factor cannot change the output";
    QTest::newRow("plain rope --max-positions")
        << QStringList{"compute", "frequencies", "--head-dim", "8", "--max-positions", "4096"}
        << "--max-positions cannot change the output, it is read only with --scaling dynamic";
    QTest::newRow("yarn with factor and original --max-positions")
        << QStringList{"compute", "frequencies", "--head-dim", "8", "--scaling", "yarn", "--factor", "4", "--original-max-positions",
                       "512", "--max-positions", "4096"}
        << "--max-positions cannot change the output";
    QTest::newRow("decay alibi --dim") << QStringList{"compute", "decay", "--method", "alibi", "--max-distance", "4", "--dim", "8"}
                                       << "--dim cannot change the output";
    QTest::newRow("figure precision --nope") << QStringList{"figure", "precision", "--nope", "-o", "%OUT%.png"} << "invalid --nope";
    QTest::newRow("--q twice") << QStringList{"compute", "scores", "--method", "rope", "--length", "4", "--q", "%Q%", "--q", "%Q%", "--k", "%K%"}
                               << "--q given twice";
}

void TestOptions::issueFindings() {
    QFETCH(QStringList, args);
    QFETCH(QString, error);
    for (auto& a : args) a = substitute(a);
    const Run r = runAny(args);
    QVERIFY2(r.code == 2, qPrintable(r.describe()));
    QVERIFY2(r.out.isEmpty(), qPrintable(r.describe()));
    QVERIFY2(QString::fromUtf8(r.err).contains(error), qPrintable(r.describe()));
}

void TestOptions::optionGivenTwiceIsRefused_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("option");
    QTest::newRow("value") << QStringList{"compute", "frequencies", "--head-dim", "8", "--base", "100", "--base=200"} << "base";
    QTest::newRow("flag") << QStringList{"compute", "alibi", "--heads", "2", "--symmetric", "--symmetric"} << "symmetric";
    QTest::newRow("figure -o and --output")
        << QStringList{"figure", "heatmap", "-o", "%OUT%a.png", "--output", "%OUT%b.png"} << "output";
}

void TestOptions::optionGivenTwiceIsRefused() {
    QFETCH(QStringList, args);
    QFETCH(QString, option);
    const Run r = runAny(args);
    QVERIFY2(r.code == 2, qPrintable(r.describe()));
    QVERIFY2(QString::fromUtf8(r.err).contains("--" + option + " given twice"), qPrintable(r.describe()));
}

namespace {
// A GGUF v3 header: metadata (architecture llama, 4096-wide, 32 heads, θ 500000) and `tensors`
// tensor infos (the first rope_freqs.weight), then the aligned data (64 float32 divisors).
QByteArray ggufWithTensors(int tensors) {
    QByteArray b;
    auto u32 = [&](quint32 v) { b.append(reinterpret_cast<const char*>(&v), 4); };
    auto u64 = [&](quint64 v) { b.append(reinterpret_cast<const char*>(&v), 8); };
    auto str = [&](const QByteArray& s) { u64(quint64(s.size())); b.append(s); };
    b.append("GGUF");
    u32(3);
    u64(quint64(tensors));
    u64(4);
    str("general.architecture"); u32(8); str("llama");
    str("llama.embedding_length"); u32(4); u32(4096);
    str("llama.attention.head_count"); u32(4); u32(32);
    str("llama.rope.freq_base"); u32(6);
    const float theta = 500000.f;
    b.append(reinterpret_cast<const char*>(&theta), 4);
    for (int t = 0; t < tensors; ++t) {
        str(t == 0 ? QByteArray("rope_freqs.weight") : QByteArray("blk.%1.attn_q.weight").replace("%1", QByteArray::number(t)));
        u32(1);
        u64(64);
        u32(0);
        u64(quint64(t) * 256);
    }
    while (b.size() % 32) b.append('\0');
    for (int t = 0; t < tensors; ++t)
        for (int i = 0; i < 64; ++i) {
            const float f = i < 32 ? 1.f : 8.f;
            b.append(reinterpret_cast<const char*>(&f), 4);
        }
    return b;
}
}  // namespace

// A GGUF cut inside its tensor-info table would lose rope_freqs.weight (Llama 3's scaling: the low
// frequencies 8× off): refused with one line. Cut right after the metadata, it is an excerpt of
// the metadata and read as such.
void TestOptions::ggufCutInsideItsTensorTable() {
    const QByteArray full = ggufWithTensors(3);
    const QString path = work(QStringLiteral("cut.gguf"));
    writeFile(path, full);
    const Run whole = runCli({"compute", "frequencies", "--config", path});
    QVERIFY2(whole.code == 0, qPrintable(whole.describe()));
    int cuts = 0;
    for (qsizetype n = full.indexOf("rope_freqs.weight") - 8 + 1; n < full.indexOf("blk.2") + 30; n += 7) {
        writeFile(path, full.left(n));
        const Run r = runCli({"compute", "frequencies", "--config", path});
        QVERIFY2(r.code == 2 && r.err.contains("truncated GGUF tensor table"), qPrintable(QString::number(n) + ": " + r.describe()));
        ++cuts;
    }
    QVERIFY(cuts > 5);
    // The metadata alone (the file ends where the tensor infos begin): read, no rope_freqs.
    writeFile(path, full.left(full.indexOf("rope_freqs.weight") - 8));
    const Run excerpt = runCli({"compute", "frequencies", "--config", path});
    QVERIFY2(excerpt.code == 0, qPrintable(excerpt.describe()));
}

void TestOptions::snapshotFolderIsAConfig_data() {
    QTest::addColumn<QString>("layout");   // how the folder is laid out
    QTest::addColumn<QString>("given");    // the folder given to --config, relative to the root
    QTest::addColumn<QString>("error");    // "" = read as the config inside
    QTest::newRow("snapshot folder") << "snap/config.json" << "snap" << "";
    QTest::newRow("cache folder with refs/main")
        << "models--org--name/refs/main=abc;models--org--name/snapshots/abc/config.json;models--org--name/snapshots/old/config.json"
        << "models--org--name" << "";
    QTest::newRow("cache folder, one snapshot") << "models--a--b/snapshots/r1/config.json" << "models--a--b" << "";
    QTest::newRow("cache snapshots folder") << "models--c--d/refs/main=r2;models--c--d/snapshots/r2/config.json"
                                            << "models--c--d/snapshots" << "";
    QTest::newRow("cache folder, two snapshots, no ref")
        << "models--e--f/snapshots/r1/config.json;models--e--f/snapshots/r2/config.json" << "models--e--f" << "2 snapshots";
    QTest::newRow("empty folder") << "empty/readme.txt" << "empty" << "a folder without config.json";
}

// A Hugging Face snapshot or cache folder stands for its config.json (--config).
void TestOptions::snapshotFolderIsAConfig() {
    QFETCH(QString, layout);
    QFETCH(QString, given);
    QFETCH(QString, error);
    QTemporaryDir root;
    QFile cfg(llamaConfig());
    QVERIFY(cfg.open(QIODevice::ReadOnly));
    const QByteArray config = cfg.readAll();
    for (const QString& entry : layout.split(QLatin1Char(';'))) {
        const QString path = root.filePath(entry.section(QLatin1Char('='), 0, 0));
        QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
        writeFile(path, entry.contains(QLatin1Char('=')) ? entry.section(QLatin1Char('='), 1).toUtf8()
                        : path.endsWith(QLatin1String(".json")) ? config : QByteArray("x"));
    }
    const Run r = runCli({"compute", "frequencies", "--config", root.filePath(given)});
    if (error.isEmpty()) {
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        const Run direct = runCli({"compute", "frequencies", "--config", llamaConfig()});
        QCOMPARE(r.out, direct.out);
    } else {
        QVERIFY2(r.code == 2 && r.err.contains(error.toUtf8()), qPrintable(r.describe()));
    }
}

// --q FILE --k FILE with the same one-tensor file: its rows are both queries and keys (not the
// --qk message about a file holding q and k).
void TestOptions::sameFileForQueriesAndKeys() {
    const Run r = runCli({"compute", "scores", "--method", "rope", "--length", "4", "--q", qFile(), "--k", qFile()});
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    const QJsonArray rows = QJsonDocument::fromJson(r.out).object().value("scores").toArray();
    QCOMPARE(rows.size(), 4);
    // q = k: the score matrix is symmetric at distance 0 (the diagonal is |q_i|²·s ≥ 0).
    for (int i = 0; i < 4; ++i) QVERIFY(rows[i].toArray()[i].toDouble() >= 0);
}

// `compute precision --summary`: a few numbers, agreeing with the full answer.
void TestOptions::precisionSummary() {
    const QStringList args = {"compute", "precision", "--head-dim", "16", "--positions", "0:1000", "--precision", "bfloat16",
                              "--angle-precision", "bfloat16"};
    const Run full = runCli(args);
    QVERIFY2(full.code == 0, qPrintable(full.describe()));
    const Run sum = runCli(args + QStringList{"--summary"});
    QVERIFY2(sum.code == 0, qPrintable(sum.describe()));
    QVERIFY2(sum.out.size() < 400, sum.out.constData());
    const QJsonObject f = QJsonDocument::fromJson(full.out).object(), s = QJsonDocument::fromJson(sum.out).object();
    double maxAngle = 0;
    for (const auto& row : f.value("angle_error").toArray())
        for (const auto& x : row.toArray()) maxAngle = std::max(maxAngle, std::abs(x.toDouble()));
    QCOMPARE(s.value("max_angle_error").toObject().value("value").toDouble(), maxAngle);
    int colliding = 0;
    for (const auto& g : f.value("collisions").toArray()) colliding += int(g.toObject().value("positions").toArray().size());
    QCOMPARE(s.value("colliding_positions").toInt(), colliding);
    QCOMPARE(s.value("first_collision").toInt(), 256);   // bfloat16 holds every integer up to 256
    QCOMPARE(s.value("positions").toInt(), 1000);
}

// --config for `compute precision` and `compute demo`: the model's RoPE.
void TestOptions::configForPrecisionAndDemo() {
    const Run p = runCli({"compute", "precision", "--config", llamaConfig(), "--positions", "0:3", "--precision", "bfloat16"});
    QVERIFY2(p.code == 0, qPrintable(p.describe()));
    QCOMPARE(QJsonDocument::fromJson(p.out).object().value("angle_error").toArray().at(0).toArray().size(), 4);   // head_dim 8
    QString ropeDemo;
    for (const auto& d : poslab::demonstrations())
        if (poslab::demoParams(d.id).method == poslab::Method::Rope && ropeDemo.isEmpty()) {
            const Run h = runCli({"compute", "demo", QString::fromStdString(d.key), "--help"});
            if (h.out.contains("--config")) ropeDemo = QString::fromStdString(d.key);
        }
    QVERIFY(!ropeDemo.isEmpty());
    const Run own = runCli({"compute", "demo", ropeDemo});
    const Run model = runCli({"compute", "demo", ropeDemo, "--config", llamaConfig()});
    QVERIFY2(model.code == 0, qPrintable(model.describe()));
    QVERIFY2(own.out != model.out, qPrintable(ropeDemo));
}

// `figure all --config A --config B`: the two models side by side (compare mode: two columns).
void TestOptions::compareModeFromTwoConfigs() {
    const QString out = work(QStringLiteral("compare.json"));
    const Run r = runCli({"figure", "heatmap", "--config", llamaConfig(), "--config", yarnConfig(), "--length", "8", "-o", out});
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY2(text.contains("llama.json") && text.contains("yarn.json"), text.left(400).constData());
    const Run all = runCli({"figure", "all", "--config", llamaConfig(), "--config", yarnConfig(), "--width", "400", "--height",
                            "300", "-o", work(QStringLiteral("compare.png"))});
    QVERIFY2(all.code == 0, qPrintable(all.describe()));
}

// `figure --batch` takes every view figure lists (layers, demo KEY) and resolves every path of an
// entry (output, session, and --config/--q/--k/--session/-o in args) relative to the batch file.
void TestOptions::batchTakesEveryViewWithPathsRelativeToIt() {
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath("sub"));
    QVERIFY(QFile::copy(llamaConfig(), dir.filePath("sub/model.json")));
    QVERIFY(QFile::copy(modelConfig(), dir.filePath("sub/gemma.json")));
    QVERIFY(QFile::copy(qFile(), dir.filePath("sub/q.npy")));
    QVERIFY(QFile::copy(kFile(), dir.filePath("sub/k.npy")));
    const QString demo = QString::fromStdString(poslab::demonstrations().front().key);
    const QByteArray batch = QStringLiteral(R"({"figures": [
        {"view": "layers", "output": "out/layers.png", "width": 300, "height": 200, "args": ["--config", "sub/gemma.json"]},
        {"view": "demo %1", "output": "out/demo.png", "width": 320, "height": 180},
        {"view": "demo", "key": "%1", "output": "out/demo2.svg"},
        {"view": "heatmap", "output": "out/heat.png", "width": 200, "height": 150,
         "args": ["--config=sub/model.json", "--q", "sub/q.npy", "--k", "sub/k.npy"]}]})").arg(demo).toUtf8();
    QVERIFY(QDir(dir.path()).mkpath("out"));
    writeFile(dir.filePath("batch.json"), batch);
    const QString cwd = QDir::currentPath();
    QDir::setCurrent(workDir().path());   // elsewhere: paths must not follow the working directory
    const Run r = runCli({"figure", "--batch", dir.filePath("batch.json")});
    QDir::setCurrent(cwd);
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    for (const char* f : {"out/layers.png", "out/demo.png", "out/demo2.svg", "out/heat.png"})
        QVERIFY2(QFileInfo(dir.filePath(f)).size() > 0, f);
}

// A model of 300 layers: its layer_types text is longer than 1024 characters; figures draw it
// (the session embedded in the figure keeps the whole pattern).
void TestOptions::manyLayersInFigures() {
    QJsonArray types;
    for (int i = 0; i < 300; ++i) types.append(i % 6 == 5 ? "full_attention" : "sliding_attention");
    QJsonObject c = QJsonDocument::fromJson(R"({"model_type": "gemma3_text", "hidden_size": 64, "num_attention_heads": 8,
        "head_dim": 8, "max_position_embeddings": 4096, "rope_theta": 1000000.0, "sliding_window": 16})").object();
    c.insert("num_hidden_layers", 300);
    c.insert("layer_types", types);
    const QString path = work(QStringLiteral("deep.json"));
    writeFile(path, QJsonDocument(c).toJson());
    const QString out = work(QStringLiteral("deep.png"));
    const Run r = runCli({"figure", "heatmap", "--config", path, "--layer", "299", "--width", "200", "--height", "150", "-o", out});
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    const Run again = runCli({"figure", "decay", "--session", out, "--width", "200", "--height", "150", "-o", work("deep2.png")});
    QVERIFY2(again.code == 0, qPrintable(again.describe()));
}

// An error inside rope_parameters.sliding_attention names that block, not rope_parameters.
void TestOptions::slidingBlockErrorNamesIt() {
    const QString path = work(QStringLiteral("sliding.json"));
    writeFile(path, R"({"model_type": "gemma3_text", "hidden_size": 64, "num_attention_heads": 8, "head_dim": 8,
        "num_hidden_layers": 2, "max_position_embeddings": 4096, "sliding_window": 16,
        "layer_types": ["sliding_attention", "full_attention"],
        "rope_parameters": {"full_attention": {"rope_type": "default", "rope_theta": 1000000.0}, "sliding_attention": 5}})");
    const Run r = runCli({"compute", "layers", "--config", path});
    QVERIFY2(r.code == 2, qPrintable(r.describe()));
    QVERIFY2(r.err.contains("rope_parameters.sliding_attention"), qPrintable(r.describe()));
}

// `figure contributions` over 65 535 distances: each column is the exact mean of c_p(t) over its
// distances (from, to), the same numbers `compute contributions` gives at every distance — not a
// point sample (pair 14's wavelength ≈ 111 would alias into a false slow oscillation).
void TestOptions::contributionsAggregatePerColumn() {
    const QString out = work(QStringLiteral("contrib.json"));
    const QStringList scene = {"--method", "rope", "--dim", "32", "--content", "formula", "--max-distance", "65535"};
    const Run f = runCli(QStringList{"figure", "contributions"} + scene + QStringList{"--width", "600", "--height", "300", "-o", out});
    QVERIFY2(f.code == 0, qPrintable(f.describe()));
    QFile file(out);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject views = QJsonDocument::fromJson(file.readAll()).object().value("views").toObject();
    const QJsonObject c = views.value("contributions").toObject().value("configs").toArray().at(0).toObject();
    QCOMPARE(c.value("aggregate").toString(), QStringLiteral("mean"));
    const QJsonArray from = c.value("distance_from").toArray(), to = c.value("distance_to").toArray();
    QVERIFY(from.size() > 10 && from.size() < 2000);
    QCOMPARE(from.size(), to.size());
    QCOMPARE(from.first().toInteger(), 0);
    QCOMPARE(to.last().toInteger(), 65535);
    const Run k = runCli(QStringList{"compute", "contributions"} + scene);
    QVERIFY2(k.code == 0, qPrintable(k.describe()));
    const QJsonArray all = QJsonDocument::fromJson(k.out).object().value("contribution").toArray();
    const QJsonArray shown = c.value("contribution").toArray();
    for (int pair : {0, 14}) {
        const QJsonArray every = all.at(pair).toArray(), cols = shown.at(pair).toArray();
        for (int col : {1, int(from.size()) / 2, int(from.size()) - 1}) {
            const qint64 a = from.at(col).toInteger(), b = to.at(col).toInteger();
            QVERIFY(b > a);   // a column of many distances
            double sum = 0;
            for (qint64 t = a; t <= b; ++t) sum += every.at(t).toDouble();
            QVERIFY2(std::abs(cols.at(col).toDouble() - sum / double(b - a + 1)) <= 1e-9 * (1 + std::abs(sum)),
                     qPrintable(QString("pair %1, column %2").arg(pair).arg(col)));
        }
    }
}

QTEST_MAIN(TestOptions)
#include "test_options.moc"
