// The formula sheets show the numbers of the parameters in use: each row sets non-default
// parameters for one method (RoPE: one scaling), builds the sheet, reads the numbers its
// formulas show and compares them, to 4 significant digits, with what `poslab compute` prints
// for the same parameters (run as a separate process).
#include "support/testsupport.h"

#include "ui/render/formula.h"
#include "ui/model/sceneparams.h"
#include "ui/teaching/formulapanel.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

#include <cmath>
#include <functional>
#include <numbers>
#include <optional>

using namespace poslab;
using namespace poslab::ui;

namespace {

// ---------------------------------------------------------------- the command line
struct CliRun {
    QJsonObject out;
    QString error;   // empty: ran and printed one JSON object
};

// `poslab compute ARGS` (stdin: `input`), each distinct call run once.
const CliRun& compute(const QStringList& args, const QByteArray& input = {}) {
    static QMap<QString, CliRun> cache;
    const QString key = args.join(QLatin1Char(' ')) + QLatin1Char('|') + QString::fromLatin1(input.toBase64());
    auto it = cache.find(key);
    if (it != cache.end()) return *it;
    CliRun r;
    QProcess p;
    p.start(QStringLiteral(POSLAB_EXE), QStringList{QStringLiteral("compute")} + args);
    if (!p.waitForStarted(10000)) r.error = QStringLiteral("cannot start ") + QStringLiteral(POSLAB_EXE);
    else {
        if (!input.isEmpty()) p.write(input);
        p.closeWriteChannel();
        p.waitForFinished(120000);
        const QByteArray out = p.readAllStandardOutput();
        if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
            r.error = QStringLiteral("poslab compute %1: exit %2: %3").arg(args.join(QLatin1Char(' '))).arg(p.exitCode())
                          .arg(QString::fromUtf8(p.readAllStandardError()).trimmed());
        else {
            QJsonParseError e{};
            r.out = QJsonDocument::fromJson(out, &e).object();
            if (e.error != QJsonParseError::NoError) r.error = QStringLiteral("poslab compute: not JSON: ") + e.errorString();
        }
    }
    return *cache.insert(key, r);
}

// A number of the command line's output; NaN (and a message) when the call failed.
QString cliProblem;
QJsonObject cli(const QStringList& args, const QByteArray& input = {}) {
    const CliRun& r = compute(args, input);
    if (!r.error.isEmpty() && cliProblem.isEmpty()) cliProblem = r.error;
    return r.out;
}
double at(const QJsonObject& o, const char* key, int i) { return o.value(QLatin1String(key)).toArray().at(i).toDouble(std::nan("")); }
double at(const QJsonObject& o, const char* key, int i, int j) {
    return o.value(QLatin1String(key)).toArray().at(i).toArray().at(j).toDouble(std::nan(""));
}

// ---------------------------------------------------------------- reading a sheet
// formulaNumber's output: "-0.4161", "8192", "1.5\times10^{-4}".
const QRegularExpression kNumber(QStringLiteral("-?\\d+(?:\\.\\d+)?(?:\\\\times10\\^\\{(-?\\d+)\\})?"));

double parseNumber(const QRegularExpressionMatch& m) {
    QString s = m.captured(0);
    const qsizetype t = s.indexOf(QStringLiteral("\\times"));
    double v = (t < 0 ? s : s.left(t)).toDouble();
    if (t >= 0) v *= std::pow(10.0, m.captured(1).toInt());
    return v;
}

// The number the sheet shows for `anchor`: in the first line (numbers first, then definitions)
// whose formula contains it, the text after it up to the next \quad; there, the first number
// after the last " = " (the result of a chain "x = expression = value"), or the first number
// when the segment holds no " = ". Also returns the segment, for messages.
std::optional<double> shown(const FormulaSheet& sheet, const QString& anchor, QString* segment) {
    for (const auto* lines : {&sheet.numbers, &sheet.definitions})
        for (const auto& l : *lines) {
            const qsizetype a = l.tex.indexOf(anchor);
            if (a < 0) continue;
            QString seg = l.tex.mid(a + anchor.size());
            const qsizetype q = seg.indexOf(QStringLiteral("\\quad"));
            if (q >= 0) seg = seg.left(q);
            *segment = seg;
            const qsizetype eq = seg.lastIndexOf(QStringLiteral(" = "));
            const auto m = kNumber.match(seg, eq < 0 ? 0 : eq + 3);
            if (!m.hasMatch()) return std::nullopt;
            return parseNumber(m);
        }
    return std::nullopt;
}

// Whether `value` is `expected` to 4 significant digits.
bool agrees(double value, double expected) {
    if (!std::isfinite(expected)) return false;
    if (expected == 0) return std::abs(value) < 1e-12;
    const double unit = std::pow(10.0, std::floor(std::log10(std::abs(expected))) - 3);
    return std::abs(value - expected) <= 0.5 * unit * (1 + 1e-9) + 1e-300;
}

// ---------------------------------------------------------------- cases
struct SheetCheck {
    QString anchor;                      // where the sheet shows the number
    std::function<double()> expected;    // what `poslab compute` prints (or derives) for it
};

struct SheetCase {
    SceneParams scene;
    FormulaFocus focus;
    QStringList methodOptions;   // the same parameters as `poslab compute scores` options
    std::vector<SheetCheck> checks;
};

QStringList rope(const QStringList& options) { return QStringList{QStringLiteral("frequencies")} + options; }
QStringList S(std::initializer_list<const char*> l) {
    QStringList out;
    for (const char* s : l) out << QString::fromUtf8(s);
    return out;
}
QString n(double x) { return QString::number(x, 'g', 17); }

SceneParams sceneFor(Method method, int dim, std::int64_t length) {
    SceneParams s;
    s.methods[0].params.method = method;
    s.methods[0].params.dim = dim;
    s.methods[0].params.content = Content::Formula;
    s.length = length;
    return s;
}

}  // namespace

Q_DECLARE_METATYPE(SheetCase)

class TestFormulaPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sheetShowsTheNumbersOfTheParameters_data() {
        QTest::addColumn<SheetCase>("c");

        {   // NoPE, d = 24.
            SheetCase c{sceneFor(Method::NoPE, 24, 32), {9, 4, 0}, {}, {}};
            c.checks.push_back({QStringLiteral("\\frac{q_i \\cdot k_j}{\\sqrt{24}} = "),
                                [] { return at(cli(S({"scores", "--method", "nope", "--length", "32", "--dim", "24", "--content", "formula"})), "scores", 9, 4); }});
            QTest::newRow("nope_d24") << c;
        }
        {   // Sinusoidal, tensor2tensor frequencies from min_timescale 2 to base 500, concatenated.
            SheetCase c{sceneFor(Method::Sinusoidal, 20, 32), {9, 4, 3},
                        S({"--base", "500", "--min-timescale", "2", "--layout", "concat", "--frequencies", "tensor2tensor"}), {}};
            auto& sp = c.scene.methods[0].params.sinusoidal;
            sp.base = 500;
            sp.min_timescale = 2;
            sp.layout = SinusoidalLayout::Concat;
            sp.frequencies = SinusoidalFrequencies::Tensor2Tensor;
            const QStringList enc = S({"sinusoidal", "--dim", "20", "--base", "500", "--min-timescale", "2", "--layout", "concat",
                                       "--frequencies", "tensor2tensor", "--positions", "0:10"});
            // w_3 = the angle of pair 3 at position 1 (w_3 < π): atan2(sin, cos).
            c.checks.push_back({QStringLiteral("w_{3} = "), [enc] { const auto o = cli(enc); return std::atan2(at(o, "encoding", 1, 3), at(o, "encoding", 1, 13)); }});
            c.checks.push_back({QStringLiteral("PE_{9,3} = "), [enc] { return at(cli(enc), "encoding", 9, 3); }});
            c.checks.push_back({QStringLiteral("PE_{9,13} = "), [enc] { return at(cli(enc), "encoding", 9, 13); }});
            QTest::newRow("sinusoidal_t2t_concat_min2_base500") << c;
        }
        {   // Sinusoidal, Vaswani frequencies with base 777, interleaved, d = 18.
            SheetCase c{sceneFor(Method::Sinusoidal, 18, 32), {7, 2, 4}, S({"--base", "777"}), {}};
            c.scene.methods[0].params.sinusoidal.base = 777;
            const QStringList enc = S({"sinusoidal", "--dim", "18", "--base", "777", "--positions", "0:8"});
            c.checks.push_back({QStringLiteral("w_{4} = "), [enc] { const auto o = cli(enc); return std::atan2(at(o, "encoding", 1, 8), at(o, "encoding", 1, 9)); }});
            c.checks.push_back({QStringLiteral("PE_{7,8} = "), [enc] { return at(cli(enc), "encoding", 7, 8); }});
            c.checks.push_back({QStringLiteral("PE_{7,9} = "), [enc] { return at(cli(enc), "encoding", 7, 9); }});
            QTest::newRow("sinusoidal_vaswani_base777_d18") << c;
        }
        {   // Learned, a table of 100 rows.
            // Its scores at N = 40 are those of any table of 40 rows or more: the command line
            // gives them without --table-size (which it refuses there as changing nothing).
            SheetCase c{sceneFor(Method::Learned, 16, 40), {30, 6, 0}, {}, {}};
            c.scene.methods[0].params.learned.table_size = 100;
            // The table size the command line uses: position 99 has a row, 100 has none. (A length
            // that fits 100 rows fits the default 512 too, so there --table-size is refused as
            // changing nothing, not as a length past the table: cli.md "Added in 0.4".)
            c.checks.push_back({QStringLiteral("T = "), [] {
                                    const QString in = compute(S({"scores", "--method", "learned", "--table-size", "100", "--length", "100", "--dim", "2", "--summary"})).error;
                                    const QString past = compute(S({"scores", "--method", "learned", "--table-size", "100", "--length", "101", "--dim", "2", "--summary"})).error;
                                    return !in.contains(QStringLiteral("learned table size")) &&
                                                   past.contains(QStringLiteral("at most the learned table size 100"))
                                               ? 100.0
                                               : std::nan("");
                                }});
            QTest::newRow("learned_table100") << c;
        }
        {   // Shaw, k = 5: offset −18 is clipped.
            SheetCase c{sceneFor(Method::Shaw, 16, 32), {20, 2, 0}, S({"--max-relative-position", "5"}), {}};
            c.scene.methods[0].params.shaw.max_relative_position = 5;
            const QStringList idx = S({"shaw", "--query-length", "21", "--key-length", "21", "--max-relative-position", "5"});
            c.checks.push_back({QStringLiteral("2k + 1 = "), [idx] { return at(cli(idx), "index", 0, 20) + 1; }});   // clip(20, −5, 5) + 5 = 2k
            c.checks.push_back({QStringLiteral("\\mathrm{clip}("), [idx] { return at(cli(idx), "index", 20, 2); }});
            QTest::newRow("shaw_k5") << c;
        }
        {   // T5 bidirectional, 24 buckets, max distance 60, head 2 of 4.
            SheetCase c{sceneFor(Method::T5, 16, 48), {40, 2, 0}, S({"--num-buckets", "24", "--max-distance", "60", "--heads", "4"}), {}};
            auto& tp = c.scene.methods[0].params.t5;
            tp.num_buckets = 24;
            tp.max_distance = 60;
            tp.heads = 4;
            c.scene.head = 2;
            const auto bucket = [](int rel) {
                return at(cli(S({"t5-buckets", "--num-buckets", "24", "--max-distance", "60", "--relative", qPrintable(QString::number(rel))})), "bucket", 0);
            };
            // nb: the first bucket of keys after the query; max_exact: the buckets below it hold one distance each.
            c.checks.push_back({QStringLiteral("nb = "), [bucket] { return bucket(1) - 1; }});
            c.checks.push_back({QStringLiteral("\\mathrm{max\\_exact} = "), [] { return 24.0 / 4; }});
            c.checks.push_back({QStringLiteral("\\mathrm{bucket}(-38) = "), [bucket] { return bucket(-38); }});
            QTest::newRow("t5_bidirectional_24_60_head2") << c;
        }
        {   // T5 causal (decoder), 20 buckets, max distance 50.
            SheetCase c{sceneFor(Method::T5, 16, 48), {30, 3, 0}, S({"--num-buckets", "20", "--max-distance", "50"}), {}};
            c.scene.methods[0].params.t5.num_buckets = 20;
            c.scene.methods[0].params.t5.max_distance = 50;
            c.scene.view.causal = true;
            const auto bucket = [](int rel) {
                return at(cli(S({"t5-buckets", "--num-buckets", "20", "--max-distance", "50", "--causal", "--relative", qPrintable(QString::number(rel))})), "bucket", 0);
            };
            // Causal: every bucket is for keys before the query; the last one is nb − 1.
            c.checks.push_back({QStringLiteral("nb = "), [bucket] { return bucket(-1000000) + 1; }});
            c.checks.push_back({QStringLiteral("\\mathrm{max\\_exact} = "), [] { return 20.0 / 2; }});
            c.checks.push_back({QStringLiteral("\\mathrm{bucket}(-27) = "), [bucket] { return bucket(-27); }});
            QTest::newRow("t5_causal_20_50") << c;
        }
        {   // Transformer-XL, distances clamped at 6.
            SheetCase c{sceneFor(Method::TransformerXL, 16, 32), {20, 3, 0}, S({"--clamp-len", "6"}), {}};
            c.scene.methods[0].params.transformer_xl.clamp_len = 6;
            c.checks.push_back({QStringLiteral("\\min(17, "), [] {
                                    return at(cli(S({"transformer-xl", "--dim", "16", "--key-length", "21", "--clamp-len", "6"})), "distances", 3);
                                }});
            QTest::newRow("transformer_xl_clamp6") << c;
        }
        {   // ALiBi with 112 heads (not a power of two) and bias_max 6, head 70.
            SheetCase c{sceneFor(Method::Alibi, 32, 32), {9, 2, 0}, S({"--heads", "112", "--bias-max", "6"}), {}};
            c.scene.methods[0].params.alibi.heads = 112;
            c.scene.methods[0].params.alibi.bias_max = 6;
            c.scene.head = 70;
            const QStringList sl = S({"alibi", "--heads", "112", "--bias-max", "6"});
            // n from the first slope 2^(−B/n).
            c.checks.push_back({QStringLiteral("n = 2^{"), [sl] { return -6.0 / std::log2(at(cli(sl), "slopes", 0)); }});
            c.checks.push_back({QStringLiteral("m_{0} = "), [sl] { return at(cli(sl), "slopes", 0); }});
            c.checks.push_back({QStringLiteral("m_{64} = "), [sl] { return at(cli(sl), "slopes", 64); }});
            c.checks.push_back({QStringLiteral("m_{70} = "), [sl] { return at(cli(sl), "slopes", 70); }});
            c.checks.push_back({QStringLiteral("b_{9,2} = "), [sl] { return -at(cli(sl), "slopes", 70) * 7; }});   // the bias −m_h·|i − j|
            QTest::newRow("alibi_112heads_biasmax6_head70") << c;
        }
        {   // ALiBi with 16 heads and bias_max 4, head 5.
            SheetCase c{sceneFor(Method::Alibi, 32, 32), {9, 2, 0}, S({"--heads", "16", "--bias-max", "4"}), {}};
            c.scene.methods[0].params.alibi.heads = 16;
            c.scene.methods[0].params.alibi.bias_max = 4;
            c.scene.head = 5;
            const QStringList sl = S({"alibi", "--heads", "16", "--bias-max", "4"});
            c.checks.push_back({QStringLiteral("m_{0} = "), [sl] { return at(cli(sl), "slopes", 0); }});
            c.checks.push_back({QStringLiteral("m_{5} = "), [sl] { return at(cli(sl), "slopes", 5); }});
            QTest::newRow("alibi_16heads_biasmax4_head5") << c;
        }
        {   // RoPE, no scaling: base 5e5, partial rotary 0.5 of d = 48, interleaved, pair 7.
            SheetCase c{sceneFor(Method::Rope, 48, 32), {11, 4, 7},
                        S({"--base", "500000", "--partial-rotary-factor", "0.5", "--layout", "interleaved"}), {}};
            auto& rp = c.scene.methods[0].params.rope;
            rp.base = 500000;
            rp.partial_rotary_factor = 0.5;
            rp.layout = RopeLayout::Interleaved;
            const QStringList fr = rope(S({"--head-dim", "48", "--base", "500000", "--partial-rotary-factor", "0.5"}));
            QStringList ro = S({"rope", "--head-dim", "48", "--base", "500000", "--partial-rotary-factor", "0.5", "--layout", "interleaved", "--positions", "11", "--vector"});
            ro << QStringLiteral("1") + QStringLiteral(",0").repeated(47);
            c.checks.push_back({QStringLiteral("r = "), [fr] { return cli(fr).value(QLatin1String("rotary_dim")).toDouble(std::nan("")); }});
            c.checks.push_back({QStringLiteral("\\theta_{7} = "), [fr] { return at(cli(fr), "inv_freq", 7); }});
            c.checks.push_back({QStringLiteral("\\cos m\\theta_{7} = "), [ro] { return at(cli(ro), "cos", 0, 14); }});
            c.checks.push_back({QStringLiteral("\\sin m\\theta_{7} = "), [ro] { return at(cli(ro), "sin", 0, 14); }});
            QTest::newRow("rope_none_base5e5_partial0.5_interleaved") << c;
        }
        {   // RoPE, linear interpolation by 3.5.
            SheetCase c{sceneFor(Method::Rope, 32, 32), {11, 4, 5}, S({"--scaling", "linear", "--factor", "3.5"}), {}};
            c.scene.methods[0].params.rope.scaling = RopeScaling::Linear;
            c.scene.methods[0].params.rope.factor = 3.5;
            const QStringList plain = rope(S({"--head-dim", "32", "--precision", "double"}));
            const QStringList lin = rope(S({"--head-dim", "32", "--scaling", "linear", "--factor", "3.5"}));
            const QStringList linD = lin + S({"--precision", "double"});
            c.checks.push_back({QStringLiteral("s = "), [plain, linD] { return at(cli(plain), "inv_freq", 5) / at(cli(linD), "inv_freq", 5); }});
            c.checks.push_back({QStringLiteral("\\theta_{5}' = "), [lin] { return at(cli(lin), "inv_freq", 5); }});
            QTest::newRow("rope_linear_3.5") << c;
        }
        {   // RoPE, dynamic NTK: factor 3, max_position_embeddings 128, base 20000, at a sequence of 300.
            SheetCase c{sceneFor(Method::Rope, 32, 300), {250, 10, 4}, S({"--base", "20000", "--scaling", "dynamic", "--factor", "3", "--max-positions", "128"}), {}};
            auto& rp = c.scene.methods[0].params.rope;
            rp.base = 20000;
            rp.scaling = RopeScaling::Dynamic;
            rp.factor = 3;
            rp.max_positions = 128;
            const QStringList fr = rope(S({"--head-dim", "32", "--base", "20000", "--scaling", "dynamic", "--factor", "3", "--max-positions", "128", "--seq-len", "300"}));
            const QStringList frD = fr + S({"--precision", "double"});
            // base' from θ_1 = base'^(−2/r), r = 32.
            c.checks.push_back({QStringLiteral("\\mathrm{base}' = "), [frD] { return std::pow(at(cli(frD), "inv_freq", 1), -16.0); }});
            c.checks.push_back({QStringLiteral("\\ell = "), [] { return 300.0; }});
            c.checks.push_back({QStringLiteral("\\theta_{4}' = "), [fr] { return at(cli(fr), "inv_freq", 4); }});
            QTest::newRow("rope_dynamic_3_max128_base20000_len300") << c;
        }
        {   // RoPE, YaRN: factor 8 from 1024 original positions, β_fast 24, β_slow 2, pair 12.
            SheetCase c{sceneFor(Method::Rope, 64, 32), {11, 4, 12},
                        S({"--scaling", "yarn", "--factor", "8", "--original-max-positions", "1024", "--beta-fast", "24", "--beta-slow", "2"}), {}};
            auto& rp = c.scene.methods[0].params.rope;
            rp.scaling = RopeScaling::Yarn;
            rp.factor = 8;
            rp.original_max_positions = 1024;
            rp.max_positions = 8192;
            rp.beta_fast = 24;
            rp.beta_slow = 2;
            const QStringList plain = rope(S({"--head-dim", "64", "--precision", "double"}));
            const QStringList yarn = rope(S({"--head-dim", "64", "--scaling", "yarn", "--factor", "8", "--original-max-positions", "1024",
                                             "--beta-fast", "24", "--beta-slow", "2"}));
            const QStringList yarnD = yarn + S({"--precision", "double"});
            // The ramp γ_i = (1 − θ_i'/θ_i)/(1 − 1/s): low is the last pair with γ = 0, high the first with γ = 1.
            const auto ramp = [plain, yarnD](int i) { return (1 - at(cli(yarnD), "inv_freq", i) / at(cli(plain), "inv_freq", i)) / (1 - 1.0 / 8); };
            c.checks.push_back({QStringLiteral("\\mathrm{low} = "), [ramp] {
                                    int last = -1;
                                    for (int i = 0; i < 32; ++i)
                                        if (std::abs(ramp(i)) < 1e-9) last = i;
                                    return double(last);
                                }});
            c.checks.push_back({QStringLiteral("\\mathrm{high} = "), [ramp] {
                                    for (int i = 0; i < 32; ++i)
                                        if (std::abs(ramp(i) - 1) < 1e-9) return double(i);
                                    return std::nan("");
                                }});
            c.checks.push_back({QStringLiteral("\\gamma_{12} = "), [ramp] { return ramp(12); }});
            c.checks.push_back({QStringLiteral("\\theta_{12}' = "), [yarn] { return at(cli(yarn), "inv_freq", 12); }});
            c.checks.push_back({QStringLiteral("c = "), [yarn] { return cli(yarn).value(QLatin1String("attention_factor")).toDouble(std::nan("")); }});
            QTest::newRow("rope_yarn_8_orig1024_beta24_2") << c;
        }
        {   // RoPE, YaRN with DeepSeek's mscale 1 / mscale_all_dim 0.5: factor 40 from 512 positions.
            SheetCase c{sceneFor(Method::Rope, 32, 32), {11, 4, 3},
                        S({"--scaling", "yarn", "--factor", "40", "--original-max-positions", "512", "--mscale", "1", "--mscale-all-dim", "0.5"}), {}};
            auto& rp = c.scene.methods[0].params.rope;
            rp.scaling = RopeScaling::Yarn;
            rp.factor = 40;
            rp.original_max_positions = 512;
            rp.mscale = 1;
            rp.mscale_all_dim = 0.5;
            const QStringList yarn = rope(S({"--head-dim", "32", "--scaling", "yarn", "--factor", "40", "--original-max-positions", "512",
                                             "--mscale", "1", "--mscale-all-dim", "0.5"}));
            c.checks.push_back({QStringLiteral("c = "), [yarn] { return cli(yarn).value(QLatin1String("attention_factor")).toDouble(std::nan("")); }});
            c.checks.push_back({QStringLiteral("\\theta_{3}' = "), [yarn] { return at(cli(yarn), "inv_freq", 3); }});
            QTest::newRow("rope_yarn_40_mscale1_alldim0.5") << c;
        }
        {   // RoPE, LongRoPE: 8 pairs, original 256 of 1024 positions (factor 4), a sequence of 300 uses the long factors.
            const char* shortF = "1,1.1,1.2,1.3,1.4,1.5,1.6,1.7";
            const char* longF = "2,2.5,3,3.5,4,4.5,5,5.5";
            SheetCase c{sceneFor(Method::Rope, 16, 300), {200, 20, 3},
                        S({"--scaling", "longrope", "--original-max-positions", "256", "--max-positions", "1024", "--short-factor", shortF, "--long-factor", longF}), {}};
            auto& rp = c.scene.methods[0].params.rope;
            rp.scaling = RopeScaling::LongRope;
            rp.original_max_positions = 256;
            rp.max_positions = 1024;
            rp.short_factor = {1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7};
            rp.long_factor = {2, 2.5, 3, 3.5, 4, 4.5, 5, 5.5};
            const QStringList plain = rope(S({"--head-dim", "16", "--precision", "double"}));
            const QStringList lr = rope(S({"--head-dim", "16", "--scaling", "longrope", "--original-max-positions", "256", "--max-positions", "1024",
                                           "--short-factor", shortF, "--long-factor", longF, "--seq-len", "300"}));
            const QStringList lrD = lr + S({"--precision", "double"});
            c.checks.push_back({QStringLiteral("\\lambda_{3} = "), [plain, lrD] { return at(cli(plain), "inv_freq", 3) / at(cli(lrD), "inv_freq", 3); }});
            c.checks.push_back({QStringLiteral("\\theta_{3}' = "), [lr] { return at(cli(lr), "inv_freq", 3); }});
            c.checks.push_back({QStringLiteral("c = "), [lr] { return cli(lr).value(QLatin1String("attention_factor")).toDouble(std::nan("")); }});
            QTest::newRow("rope_longrope_orig256_max1024_len300") << c;
        }
        // Llama 3: factor 16, low_freq_factor 2, high_freq_factor 8, original 2048, base 5e5, d = 64.
        const QStringList llama = S({"--base", "500000", "--scaling", "llama3", "--factor", "16", "--low-freq-factor", "2",
                                     "--high-freq-factor", "8", "--original-max-positions", "2048"});
        const auto llamaScene = [] {
            SceneParams s = sceneFor(Method::Rope, 64, 32);
            auto& rp = s.methods[0].params.rope;
            rp.base = 500000;
            rp.scaling = RopeScaling::Llama3;
            rp.factor = 16;
            rp.low_freq_factor = 2;
            rp.high_freq_factor = 8;
            rp.original_max_positions = 2048;
            return s;
        };
        const QStringList plainL = rope(S({"--head-dim", "64", "--base", "500000"}));
        const QStringList llamaF = rope(S({"--head-dim", "64"}) + llama);
        // The wavelength bounds: pairs below L₀/f_high keep θ_i, pairs above L₀/f_low are divided.
        const auto bounds = [plainL, llamaF](bool high) {
            const QJsonObject p = cli(plainL), l = cli(llamaF);
            double below = 0, above = INFINITY;   // the bound lies between the wavelengths of two pairs
            for (int i = 0; i < 32; ++i) {
                const double wl = at(p, "wavelength", i), ratio = at(l, "inv_freq", i) / at(p, "inv_freq", i);
                const bool kept = std::abs(ratio - 1) < 1e-6, divided = std::abs(ratio * 16 - 1) < 1e-6;
                if (high ? kept : !divided) below = std::max(below, wl);
                else above = std::min(above, wl);
            }
            return std::pair{below, above};
        };
        {   // pair 11: between the bounds (blended).
            SheetCase c{llamaScene(), {11, 4, 11}, llama, {}};
            // L₀/f_high = 2048/8 as the parameters give it, and between the wavelengths the command line keeps and blends.
            c.checks.push_back({QStringLiteral("\\frac{L_0}{f_{\\mathrm{high}}} = "), [bounds] {
                                    const auto [below, above] = bounds(true);
                                    return below < 256 && 256 <= above ? 2048.0 / 8 : std::nan("");
                                }});
            c.checks.push_back({QStringLiteral("\\frac{L_0}{f_{\\mathrm{low}}} = "), [bounds] {
                                    const auto [below, above] = bounds(false);
                                    return below <= 1024 && 1024 < above ? 2048.0 / 2 : std::nan("");
                                }});
            c.checks.push_back({QStringLiteral("\\lambda_{11} = "), [plainL] { return at(cli(plainL), "wavelength", 11); }});
            // γ from θ' = (1 − γ)θ/s + γθ.
            c.checks.push_back({QStringLiteral("\\gamma_{11} = "), [plainL, llamaF] {
                                    const double r = at(cli(llamaF), "inv_freq", 11) / at(cli(plainL), "inv_freq", 11);
                                    return (r - 1.0 / 16) / (1 - 1.0 / 16);
                                }});
            c.checks.push_back({QStringLiteral("\\theta_{11}' = "), [llamaF] { return at(cli(llamaF), "inv_freq", 11); }});
            QTest::newRow("rope_llama3_16_low2_high8_orig2048_pair11") << c;
        }
        {   // pair 14: above L₀/f_low (divided by the factor); pair 8: below L₀/f_high (kept).
            SheetCase c{llamaScene(), {11, 4, 14}, llama, {}};
            c.checks.push_back({QStringLiteral("\\theta_{14}' = "), [llamaF] { return at(cli(llamaF), "inv_freq", 14); }});
            c.checks.push_back({QStringLiteral("\\lambda_{14} = "), [plainL] { return at(cli(plainL), "wavelength", 14); }});
            QTest::newRow("rope_llama3_16_low2_high8_orig2048_pair14") << c;
            SheetCase k{llamaScene(), {11, 4, 8}, llama, {}};
            k.checks.push_back({QStringLiteral("\\theta_{8}' = "), [llamaF] { return at(cli(llamaF), "inv_freq", 8); }});
            QTest::newRow("rope_llama3_16_low2_high8_orig2048_pair8") << k;
        }
        {   // RoPE with given frequencies (they replace base and scaling), d = 8, pair 2.
            SheetCase c{sceneFor(Method::Rope, 8, 32), {13, 4, 2}, S({"--theta", "0.9,0.5,0.2,0.05"}), {}};
            c.scene.methods[0].params.rope.theta = {0.9, 0.5, 0.2, 0.05};
            const QStringList ro = S({"rope", "--head-dim", "8", "--theta", "0.9,0.5,0.2,0.05", "--positions", "13", "--vector", "1,0,0,0,0,0,0,0"});
            c.checks.push_back({QStringLiteral("\\theta_{2} = "), [] { return double(float(0.2)); }});
            c.checks.push_back({QStringLiteral("\\cos m\\theta_{2} = "), [ro] { return at(cli(ro), "cos", 0, 2); }});
            QTest::newRow("rope_theta_given") << c;
        }
        {   // xPos, scale base 64, d = 16, a sequence of 40, pair 3 at m − n = 25.
            SheetCase c{sceneFor(Method::Xpos, 16, 40), {30, 5, 3}, S({"--scale-base", "64"}), {}};
            c.scene.methods[0].params.xpos.scale_base = 64;
            QByteArray rows = "[";
            for (int r = 0; r < 40; ++r) rows += QByteArray(r ? "," : "") + "[1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0]";
            rows += "]";
            const QStringList xs = S({"xpos", "--head-dim", "16", "--scale-base", "64", "--length", "40", "--vectors", "-"});
            c.checks.push_back({QStringLiteral("\\zeta_{3}^{(m-n)/\\gamma} = "), [xs, rows] {
                                    const auto o = cli(xs, rows);
                                    return at(o, "scale", 30, 3) / at(o, "scale", 5, 3);
                                }});
            // The angle at m = 30 modulo 2π: pair (6, 7) of the rotated (1, 0) is s·(cos, sin).
            c.checks.push_back({QStringLiteral("\\equiv "), [xs, rows] {
                                    const auto o = cli(xs, rows);
                                    double a = std::atan2(at(o, "rotated", 30, 7), at(o, "rotated", 30, 6));
                                    return a < 0 ? a + 2 * std::numbers::pi : a;
                                }});
            QTest::newRow("xpos_scalebase64_d16") << c;
        }
    }

    void sheetShowsTheNumbersOfTheParameters() {
        QFETCH(SheetCase, c);
        cliProblem.clear();
        const FormulaSheet sheet = formulaSheet(c.scene, 0, c.focus);
        QVERIFY2(sheet.note.isEmpty(), qPrintable(sheet.note));
        for (const auto* lines : {&sheet.definitions, &sheet.numbers})
            for (const auto& l : *lines) {
                const Formula f = Formula::parse(l.tex);
                QVERIFY2(f.ok(), qPrintable(l.tex + QStringLiteral(": ") + f.error()));
            }
        // The score: the heatmap cell as `poslab compute scores` prints it.
        const ScoreParams p = c.scene.methods[0].params;
        QStringList scoreArgs = S({"scores", "--method"}) << QString::fromStdString(std::string(methodKey(p.method)));
        scoreArgs << QStringLiteral("--length") << QString::number(c.scene.length) << QStringLiteral("--dim") << QString::number(p.dim)
                  << QStringLiteral("--content") << QStringLiteral("formula");
        // --head only where the method has heads (the command line refuses an option it does not read).
        if (p.method == Method::Alibi || p.method == Method::T5) scoreArgs << QStringLiteral("--head") << QString::number(c.scene.head);
        if (c.scene.view.causal) scoreArgs << QStringLiteral("--causal");
        scoreArgs += c.methodOptions;
        std::vector<SheetCheck> checks = c.checks;
        const QString lhs = p.method == Method::Shaw ? QStringLiteral("e_{%1,%2} = ") : QStringLiteral("s_{%1,%2} = ");
        checks.push_back({lhs.arg(c.focus.query).arg(c.focus.key), [scoreArgs, c] { return at(cli(scoreArgs), "scores", int(c.focus.query), int(c.focus.key)); }});

        for (const SheetCheck& k : checks) {
            QString segment;
            const std::optional<double> value = shown(sheet, k.anchor, &segment);
            QStringList lines;
            for (const auto& l : sheet.numbers) lines << l.tex;
            QVERIFY2(value.has_value(), qPrintable(QStringLiteral("the sheet shows no number at \"%1\" (numbers: %2)")
                                                       .arg(k.anchor, lines.join(QStringLiteral(" | ")))));
            const double expected = k.expected();
            QVERIFY2(cliProblem.isEmpty(), qPrintable(cliProblem));
            QVERIFY2(agrees(*value, expected),
                     qPrintable(QStringLiteral("at \"%1\": the sheet shows %2 (\"%3\"), poslab compute gives %4")
                                    .arg(k.anchor, n(*value), segment, n(expected))));
        }
    }

    // With the causal mask a key after the query has no score: the sheet says so (and T5 shows the
    // decoder's buckets, ALiBi the one-sided distance).
    void causalSheetsFollowTheMask_data() {
        QTest::addColumn<int>("method");
        QTest::newRow("t5") << int(Method::T5);
        QTest::newRow("alibi") << int(Method::Alibi);
    }
    void causalSheetsFollowTheMask() {
        QFETCH(int, method);
        SceneParams s = sceneFor(Method(method), 16, 32);
        s.view.causal = true;
        const FormulaSheet masked = formulaSheet(s, 0, {3, 9, 0});
        QVERIFY(!masked.score.has_value());
        QVERIFY(!masked.note.isEmpty());
        const FormulaSheet visible = formulaSheet(s, 0, {9, 3, 0});
        QVERIFY(visible.score.has_value());
        QVERIFY(visible.note.isEmpty());
        QString seg;
        if (Method(method) == Method::T5) QVERIFY(shown(visible, QStringLiteral("n = \\max("), &seg).has_value());
        else QVERIFY(shown(visible, QStringLiteral("b_{9,3} = -"), &seg).has_value() && seg.contains(QStringLiteral("(6)")));
    }

    // The layer in the formulas: a NoPE layer shows NoPE (no rotation lines), the score scale
    // used (Gemma 3's query_pre_attn_scalar^−½), the q/k norm and where it sits, temperature
    // tuning with τ at the query, the window or chunk, the sink; a cell the mask hides has no score.
    void sheetShowsTheLayer_data() {
        QTest::addColumn<bool>("nope");
        QTest::addColumn<double>("scale");      // 0: none
        QTest::addColumn<int>("qkNorm");
        QTest::addColumn<qint64>("window");
        QTest::addColumn<qint64>("chunk");
        QTest::addColumn<double>("sink");       // NaN: none
        QTest::addColumn<QStringList>("texts");
        QTest::newRow("gemma3_sliding_scale168") << false << 1.0 / std::sqrt(168.0) << 0 << qint64(1024) << qint64(0) << std::nan("")
                                                 << QStringList{"\\frac{1}{\\sqrt{168}} = ", "i - 1024 < j \\le i"};
        QTest::newRow("llama4_nope_temperature") << true << 0.0 << 0 << qint64(0) << qint64(0) << std::nan("")
                                                 << QStringList{"s_{ij} = s \\cdot q_i \\cdot k_j", "\\tau(5) = 1"};
        QTest::newRow("llama4_chunk8192_qknorm_before") << false << 0.0 << int(QkNorm::Before) << qint64(0) << qint64(8192) << std::nan("")
                                                        << QStringList{"\\mathrm{mean}(x^2)", "\\frac{j}{8192}"};
        QTest::newRow("gptoss_window128_sink0.5") << false << 0.0 << 0 << qint64(128) << qint64(0) << 0.5
                                                  << QStringList{"p_{sink}", "i - 128 < j \\le i"};
    }
    void sheetShowsTheLayer() {
        QFETCH(bool, nope);
        QFETCH(double, scale);
        QFETCH(int, qkNorm);
        QFETCH(qint64, window);
        QFETCH(qint64, chunk);
        QFETCH(double, sink);
        QFETCH(QStringList, texts);
        SceneParams s = sceneFor(Method::Rope, 128, 32);
        s.view.causal = true;
        AttentionParams& a = s.methods[0].params.attention;
        a.nope = nope;
        if (nope) a.temperature_tuning = {8192, 0.1};
        if (scale > 0) a.softmax_scale = scale;
        a.qk_norm = QkNorm(qkNorm);
        if (window > 0) a.window = window;
        if (chunk > 0) a.chunk = chunk;
        if (!std::isnan(sink)) a.sink = {sink};
        const FormulaSheet sh = formulaSheet(s, 0, {5, 2, 0});
        QVERIFY2(sh.score.has_value(), qPrintable(sh.note));
        // The score is the core's, with everything the layer does.
        QCOMPARE(*sh.score, scores(effectiveParams(s, 0), {5}, {2}, 32).value()(0, 0));
        QString all;
        for (const auto& l : sh.definitions) all += l.label + QLatin1Char('|') + l.tex + QLatin1Char('\n');
        for (const auto& l : sh.numbers) all += l.label + QLatin1Char('|') + l.tex + QLatin1Char('\n');
        for (const QString& t : texts) QVERIFY2(all.contains(t), qPrintable(t + QStringLiteral(" not in\n") + all));
        QCOMPARE(all.contains(QStringLiteral("no positional encoding")), nope);
        if (nope) QVERIFY(!all.contains(QStringLiteral("\\cos")));   // a NoPE layer rotates nothing
        for (const auto& l : sh.definitions) QVERIFY2(Formula::parse(l.tex).ok(), qPrintable(l.tex));
        for (const auto& l : sh.numbers) QVERIFY2(Formula::parse(l.tex).ok(), qPrintable(l.tex));
        if (window > 0 || chunk > 0) {
            // Key 0 from query 299: hidden by a window or chunk narrower than the distance.
            SceneParams far = s;
            far.length = 300;
            const std::int64_t w = window > 0 ? window : chunk;
            if (w < 299) {
                const FormulaSheet hidden = formulaSheet(far, 0, {299, 0, 0});
                QVERIFY(!hidden.score.has_value());
                QVERIFY(hidden.note.contains(QStringLiteral("window or chunk")));
            }
        }
    }

    // The number format the sheets use: 4 significant digits, a rounding that carries into the exponent.
    void formulaNumbersCarryFourSignificantDigits_data() {
        QTest::addColumn<double>("x");
        QTest::addColumn<QString>("text");
        QTest::newRow("0.41614683") << 0.41614683 << "0.4161";
        QTest::newRow("-0.90929743") << -0.90929743 << "-0.9093";
        QTest::newRow("8192") << 8192.0 << "8192";
        // Plain decimals down to 1e-4 as every number for people (core/format.h), a power of ten below.
        QTest::newRow("1.234567e-4") << 1.234567e-4 << "0.0001235";
        QTest::newRow("1.234567e-5") << 1.234567e-5 << "1.235\\times10^{-5}";
        QTest::newRow("9.99996e-6_carries") << 9.99996e-6 << "1\\times10^{-5}";
        QTest::newRow("-9.99996e7_carries") << -9.99996e7 << "-1\\times10^{8}";
        QTest::newRow("2.5e6") << 2.5e6 << "2.5\\times10^{6}";
    }
    void formulaNumbersCarryFourSignificantDigits() {
        QFETCH(double, x);
        QFETCH(QString, text);
        QCOMPARE(formulaNumber(x), text);
        QString seg;
        FormulaSheet sh;
        sh.numbers.push_back({QString(), QStringLiteral("x = ") + formulaNumber(x)});
        const auto back = shown(sh, QStringLiteral("x = "), &seg);
        QVERIFY(back.has_value());
        QVERIFY(agrees(*back, x));
    }
};

QTEST_MAIN(TestFormulaPanel)
#include "test_formulapanel.moc"
