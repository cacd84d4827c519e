// RoPE core: golden cases (transformers main init functions, Llama half-split and GPT-J
// interleaved application, the seed worked example), an independent float32 re-implementation of
// the torch pipeline at large positions, geometric properties in double precision (norm, relative
// position, layouts, partial rotary), float32-vs-double size, and validation of every parameter.
#include <QtTest>

#include <cmath>
#include <functional>
#include <numbers>

#include "core/precision.h"
#include "core/rope.h"
#include "support/testsupport.h"

using namespace poslab;
using testsupport::goldenCase;
using testsupport::maxAbsDiff;
using testsupport::maxRelDiff;
using testsupport::toMatrix;
using testsupport::toVector;

namespace {

// One float32 ulp relative (2^-23): the frameworks' own rounding step.
constexpr double kF32Ulp = 1.1920928955078125e-7;

RopeScaling scalingOf(const QString& t) {
    if (t == "linear") return RopeScaling::Linear;
    if (t == "dynamic") return RopeScaling::Dynamic;
    if (t == "yarn") return RopeScaling::Yarn;
    if (t == "longrope") return RopeScaling::LongRope;
    if (t == "llama3") return RopeScaling::Llama3;
    return RopeScaling::None;
}

// RopeParams from a transformers config as stored in rope_init_transformers_main.json.
RopeParams paramsFromConfig(const QJsonObject& config) {
    const QJsonObject rp = config.value("rope_parameters").toObject();
    RopeParams p;
    p.head_dim = config.contains("head_dim") ? config.value("head_dim").toInt()
                                             : config.value("hidden_size").toInt() /
                                                   config.value("num_attention_heads").toInt();
    p.base = rp.value("rope_theta").toDouble();
    p.scaling = scalingOf(rp.value("rope_type").toString());
    p.max_positions = config.value("max_position_embeddings").toInteger();
    if (rp.contains("partial_rotary_factor")) p.partial_rotary_factor = rp.value("partial_rotary_factor").toDouble();
    if (rp.contains("factor") && !rp.value("factor").isNull()) p.factor = rp.value("factor").toDouble();
    if (rp.contains("original_max_position_embeddings"))
        p.original_max_positions = rp.value("original_max_position_embeddings").toInteger();
    if (rp.contains("beta_fast")) p.beta_fast = rp.value("beta_fast").toDouble();
    if (rp.contains("beta_slow")) p.beta_slow = rp.value("beta_slow").toDouble();
    if (rp.contains("mscale")) p.mscale = rp.value("mscale").toDouble();
    if (rp.contains("mscale_all_dim")) p.mscale_all_dim = rp.value("mscale_all_dim").toDouble();
    if (rp.contains("truncate")) p.truncate = rp.value("truncate").toBool();
    if (rp.contains("attention_factor")) p.attention_factor = rp.value("attention_factor").toDouble();
    if (rp.contains("low_freq_factor")) p.low_freq_factor = rp.value("low_freq_factor").toDouble();
    if (rp.contains("high_freq_factor")) p.high_freq_factor = rp.value("high_freq_factor").toDouble();
    if (rp.contains("short_factor")) p.short_factor = testsupport::toDoubles(rp.value("short_factor").toArray());
    if (rp.contains("long_factor")) p.long_factor = testsupport::toDoubles(rp.value("long_factor").toArray());
    return p;
}

Positions repeatEach(const Positions& p, int times) {
    Positions out;
    for (auto x : p)
        for (int t = 0; t < times; ++t) out.push_back(x);
    return out;
}
Positions tile(const Positions& p, int times) {
    Positions out;
    for (int t = 0; t < times; ++t) out.insert(out.end(), p.begin(), p.end());
    return out;
}

// Deterministic content, the golden inputs' formula (computed here, not by the core).
Matrix formulaRows(Eigen::Index rows, Eigen::Index cols, double a, double b) {
    Matrix m(rows, cols);
    for (Eigen::Index n = 0; n < rows * cols; ++n) m(n / cols, n % cols) = std::sin(a + b * double(n));
    return m;
}

// Independent float32 transcription of HF's default RoPE forward (float types, <cmath> float
// overloads for sin/cos): inv_freq = 1/(base ** (arange(0,r,2)/r)), freqs = inv_freq @ pos.float(),
// emb = cat(freqs, freqs) (half) or repeat_interleave (interleaved), out = x*cos + rotate(x)*sin.
struct RefF32 {
    std::vector<float> inv;
    RefF32(double base, int r) {
        for (int i = 0; i < r / 2; ++i) {
            const float e = float(2 * i) / float(r);
            // torch 1.13's float32 pow (SLEEF in the vector blocks, powf in the tail), not a
            // correctly rounded one: real torch gives 1/(1e6**(74/128)) = 0.0003398208355065435,
            // the correctly rounded pow 0.00033982080640271306 (tests/data/precision).
            inv.push_back(1.0f / torchPowf(float(base), e, inTorchVectorBlock(std::size_t(i), std::size_t(r / 2))));
        }
    }
    void tables(std::int64_t p, bool inter, std::vector<float>& c, std::vector<float>& s) const {
        const int h = int(inv.size());
        c.assign(2 * h, 0.f);
        s.assign(2 * h, 0.f);
        for (int i = 0; i < h; ++i) {
            const float a = float(p) * inv[i];
            const int j0 = inter ? 2 * i : i, j1 = inter ? 2 * i + 1 : i + h;
            c[j0] = c[j1] = std::cos(a);
            s[j0] = s[j1] = std::sin(a);
        }
    }
};

QString numTag(double x) {
    QString s = QString::number(x, 'g', 6);
    s.replace('+', "");
    return s;
}

}  // namespace

class TestRope : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // ---------------------------------------------------------------- golden: init functions
    void goldenInit_data() {
        QTest::addColumn<QString>("name");
        const auto cases = testsupport::golden("rope_init_transformers_main.json").value("cases").toArray();
        QVERIFY(cases.size() >= 4);
        for (const auto& c : cases) {
            const QString n = c.toObject().value("name").toString();
            QTest::newRow(qPrintable(n)) << n;
        }
    }
    void goldenInit() {
        QFETCH(QString, name);
        const QJsonObject c = goldenCase("rope_init_transformers_main.json", name);
        const QJsonObject params = c.value("params").toObject();
        RopeParams p = paramsFromConfig(params.value("config").toObject());
        if (!params.value("seq_len").isNull()) p.seq_len = params.value("seq_len").toInteger();
        QVERIFY2(!p.validate(), qPrintable(QString::fromStdString(p.validate() ? p.validate()->message() : "")));
        const RopeFrequencies f = ropeFrequencies(p);
        const Vector want = toVector(c.value("output").toObject().value("inv_freq").toArray());
        QCOMPARE(f.inv_freq.size(), want.size());
        QCOMPARE(f.rotary_dim, int(2 * want.size()));
        const double rel = maxRelDiff(f.inv_freq, want);
        QVERIFY2(rel <= 2e-6, qPrintable(QString("inv_freq rel diff %1").arg(rel)));
        // Stricter than the contract: within one float32 ulp of torch (observed: bit-identical).
        QVERIFY2(rel <= kF32Ulp, qPrintable(QString("inv_freq rel diff %1 > 1 ulp").arg(rel)));
        const double att = c.value("output").toObject().value("attention_factor").toDouble();
        QVERIFY2(std::abs(f.attention_factor - att) <= 2e-6 * std::abs(att),
                 qPrintable(QString("attention %1 vs %2").arg(f.attention_factor, 0, 'g', 17).arg(att, 0, 'g', 17)));
        // Wavelengths are 2π/inv_freq.
        const Vector wl = f.wavelength();
        for (Eigen::Index i = 0; i < wl.size(); ++i)
            QVERIFY(std::abs(wl[i] * f.inv_freq[i] - 2 * std::numbers::pi) <= 1e-12);
    }

    // ---------------------------------------------------------------- golden: Llama half-split
    void goldenLlamaHalf() {
        const QJsonObject c = goldenCase("rope_apply_llama_half_split.json", "llama_d8_theta10000_pos0_1_2_3");
        const QJsonObject params = c.value("params").toObject();
        RopeParams p;
        p.head_dim = params.value("head_dim").toInt();
        p.base = params.value("rope_theta").toDouble();
        p.layout = RopeLayout::Half;
        QVERIFY(!p.validate());
        Positions pos;
        for (const auto& v : params.value("position_ids").toArray()) pos.push_back(v.toInteger());
        const QJsonObject in = c.value("input").toObject();
        const RopeTables t = ropeTables(p, ropeFrequencies(p), pos);
        const Matrix wantCos = toMatrix(in.value("cos")), wantSin = toMatrix(in.value("sin"));
        POSLAB_VERIFY_ABS(t.cos, wantCos, 5e-6);
        POSLAB_VERIFY_ABS(t.sin, wantSin, 5e-6);
        POSLAB_VERIFY_ABS(t.cos, wantCos, 1.2e-7);  // one float32 ulp at magnitude 1
        POSLAB_VERIFY_ABS(t.sin, wantSin, 1.2e-7);
        // q, k: [1, heads=2, seq=4, 8] -> 8 rows, positions 0..3 per head.
        const Positions rowsPos = tile(pos, 2);
        for (const char* which : {"q", "k"}) {
            const Matrix x = toMatrix(in.value(which));
            QCOMPARE(x.rows(), Eigen::Index(8));
            const Matrix want = toMatrix(c.value("output").toObject().value(QString(which) + "_embed"));
            const Matrix got = ropeApply(p, ropeTables(p, ropeFrequencies(p), rowsPos), x);
            POSLAB_VERIFY_ABS(got, want, 5e-6);
            POSLAB_VERIFY_ABS(got, want, 2.4e-7);
            POSLAB_VERIFY_ABS(ropeRotate(p, rowsPos, x), want, 5e-6);
        }
    }

    // ---------------------------------------------------------------- golden: GPT-J interleaved
    void goldenGptjInterleaved() {
        const QJsonObject c = goldenCase("rope_apply_gptj_interleaved.json", "gptj_d8_rotary_dimNone_pos0_1_2_3");
        const QJsonObject params = c.value("params").toObject();
        RopeParams p;
        p.head_dim = params.value("head_dim").toInt();
        p.base = 10000.0;
        p.layout = RopeLayout::Interleaved;
        p.max_positions = params.value("max_positions").toInteger();
        QVERIFY(!p.validate());
        Positions pos;
        for (const auto& v : params.value("position_ids").toArray()) pos.push_back(v.toInteger());
        const QJsonObject in = c.value("input").toObject();
        // Golden sin/cos are [seq, r/2] (before repeat_interleave).
        const RopeTables t = ropeTables(p, ropeFrequencies(p), pos);
        const Matrix wantCos = toMatrix(in.value("cos")), wantSin = toMatrix(in.value("sin"));
        Matrix gotCos(t.cos.rows(), t.cos.cols() / 2), gotSin(gotCos.rows(), gotCos.cols());
        for (Eigen::Index i = 0; i < gotCos.cols(); ++i) {
            gotCos.col(i) = t.cos.col(2 * i);
            gotSin.col(i) = t.sin.col(2 * i);
            QCOMPARE(t.cos.col(2 * i + 1), t.cos.col(2 * i));  // each frequency twice in a row
        }
        POSLAB_VERIFY_ABS(gotCos, wantCos, 5e-6);
        POSLAB_VERIFY_ABS(gotSin, wantSin, 5e-6);
        // q: [1, seq=4, heads=2, 8] -> rows (seq0,h0), (seq0,h1), ...
        const Matrix x = toMatrix(in.value("q"));
        const Matrix want = toMatrix(c.value("output").toObject().value("q_embed"));
        const Positions rowsPos = repeatEach(pos, 2);
        const Matrix got = ropeRotate(p, rowsPos, x);
        POSLAB_VERIFY_ABS(got, want, 5e-6);
        POSLAB_VERIFY_ABS(got, want, 2.4e-7);
    }

    // ---------------------------------------------------------------- golden: seed example
    void goldenSeed_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("explicitTheta");
        QTest::addColumn<int>("layout");
        QTest::newRow("gptj_interleaved_theta1_0.1") << "gptj_interleaved" << true << int(RopeLayout::Interleaved);
        QTest::newRow("meta_llama_complex_base100") << "meta_llama_complex_interleaved" << false
                                                    << int(RopeLayout::Interleaved);
        QTest::newRow("torchscale_interleaved_scale1_theta1_0.1")
            << "torchscale_interleaved_scale1" << true << int(RopeLayout::Interleaved);
        QTest::newRow("llama_half_split_contrast_base100") << "llama_half_split_contrast" << false
                                                           << int(RopeLayout::Half);
        QTest::newRow("llama_half_split_contrast_theta1_0.1") << "llama_half_split_contrast" << true
                                                              << int(RopeLayout::Half);
    }
    void goldenSeed() {
        QFETCH(QString, name);
        QFETCH(bool, explicitTheta);
        QFETCH(int, layout);
        const QJsonObject c = goldenCase("rope_seed_example.json", name);
        const QJsonObject params = c.value("params").toObject();
        RopeParams p;
        p.head_dim = params.value("d").toInt();
        p.layout = RopeLayout(layout);
        if (explicitTheta)
            p.theta = {1.0, 0.1};  // float32(0.1) is what the golden used
        else
            p.base = 100.0;
        QVERIFY(!p.validate());
        const RopeFrequencies f = ropeFrequencies(p);
        QCOMPARE(f.inv_freq[1], 0.10000000149011612);  // float32(0.1) in every path
        const Positions pos{params.value("m").toInteger()};
        const Matrix q = toMatrix(QJsonArray{params.value("q").toArray()});
        const Matrix want = toMatrix(QJsonArray{c.value("output").toArray()});
        const Matrix got = ropeRotate(p, pos, q);
        POSLAB_VERIFY_ABS(got, want, 5e-6);
        POSLAB_VERIFY_ABS(got, want, 1.2e-7);
        // Hand value: interleaved gives [cos 2, sin 2, cos 0.2, sin 0.2].
        if (p.layout == RopeLayout::Interleaved) {
            QVERIFY(std::abs(got(0, 0) - std::cos(2.0)) < 1e-7);
            QVERIFY(std::abs(got(0, 1) - std::sin(2.0)) < 1e-7);
            QVERIFY(std::abs(got(0, 2) - std::cos(0.2)) < 1e-7);
            QVERIFY(std::abs(got(0, 3) - std::sin(0.2)) < 1e-7);
        } else {  // half-split pairs (0,2), (1,3): [cos2 − sin2, 0, cos2 + sin2, 0], differs by design
            QVERIFY(std::abs(got(0, 0) - (std::cos(2.0) - std::sin(2.0))) < 1e-6);
            QCOMPARE(got(0, 1), 0.0);
            QVERIFY(std::abs(got(0, 2) - (std::cos(2.0) + std::sin(2.0))) < 1e-6);
            QCOMPARE(got(0, 3), 0.0);
        }
    }

    // ---------------------------------------------------------------- independent float32 reference
    void float32MatchesTorchTranscription_data() {
        QTest::addColumn<int>("headDim");
        QTest::addColumn<double>("base");
        QTest::addColumn<int>("layout");
        const Positions dummy;
        for (int d : {2, 8, 64, 128, 256})
            for (double b : {100.0, 10000.0, 500000.0, 1e6})
                for (int l : {int(RopeLayout::Half), int(RopeLayout::Interleaved)})
                    QTest::newRow(qPrintable(QString("d%1_theta%2_%3")
                                                 .arg(d)
                                                 .arg(numTag(b))
                                                 .arg(l == int(RopeLayout::Half) ? "half" : "interleaved")))
                        << d << b << l;
    }
    void float32MatchesTorchTranscription() {
        QFETCH(int, headDim);
        QFETCH(double, base);
        QFETCH(int, layout);
        RopeParams p;
        p.head_dim = headDim;
        p.base = base;
        p.layout = RopeLayout(layout);
        p.max_positions = 131072;
        QVERIFY(!p.validate());
        const Positions pos{0, 1, 2, 1000, 4095, 8191, 65535, 131071, 1000003, 16777217, 123456789012};
        const RopeFrequencies f = ropeFrequencies(p);
        const RefF32 ref(base, headDim);
        for (std::size_t i = 0; i < ref.inv.size(); ++i) QCOMPARE(f.inv_freq[Eigen::Index(i)], double(ref.inv[i]));
        const RopeTables t = ropeTables(p, f, pos);
        const Matrix x = formulaRows(Eigen::Index(pos.size()), headDim, 0.5, 0.7);
        const Matrix got = ropeApply(p, t, x);
        const bool inter = p.layout == RopeLayout::Interleaved;
        const int h = headDim / 2;
        double worstTable = 0, worstOut = 0;
        std::vector<float> c, s;
        for (std::size_t k = 0; k < pos.size(); ++k) {
            ref.tables(pos[k], inter, c, s);
            for (int j = 0; j < headDim; ++j) {
                worstTable = std::max(worstTable, std::abs(t.cos(Eigen::Index(k), j) - double(c[j])));
                worstTable = std::max(worstTable, std::abs(t.sin(Eigen::Index(k), j) - double(s[j])));
            }
            for (int i = 0; i < h; ++i) {
                const int j0 = inter ? 2 * i : i, j1 = inter ? 2 * i + 1 : i + h;
                const float x0 = float(x(Eigen::Index(k), j0)), x1 = float(x(Eigen::Index(k), j1));
                const float o0 = x0 * c[j0] + (-x1) * s[j0];
                const float o1 = x1 * c[j1] + x0 * s[j1];
                worstOut = std::max(worstOut, std::abs(got(Eigen::Index(k), j0) - double(o0)));
                worstOut = std::max(worstOut, std::abs(got(Eigen::Index(k), j1) - double(o1)));
            }
        }
        // cosf/sinf vs correctly rounded: at most an ulp; the angle rounding itself must agree
        // (without it the difference at position 131071 would be ~1e-3).
        QVERIFY2(worstTable <= 1.2e-7, qPrintable(QString("table diff %1").arg(worstTable)));
        QVERIFY2(worstOut <= 3.6e-7, qPrintable(QString("rotated diff %1").arg(worstOut)));
        // Angles are the float32 products.
        const Matrix a = ropeAngles(p, f, pos);
        for (std::size_t k = 0; k < pos.size(); ++k)
            for (int i = 0; i < h; ++i) QCOMPARE(a(Eigen::Index(k), i), double(float(pos[k]) * ref.inv[i]));
    }

    // ---------------------------------------------------------------- float32 vs double
    void float32VersusDouble_data() {
        QTest::addColumn<int>("headDim");
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        // conventions.md: position 1000, θ = 500000, cos differs from exact double by ≈1.2e-5.
        QTest::newRow("d16_theta5e5_pos1000") << 16 << 1.0e-5 << 1.3e-5;
        QTest::newRow("d128_theta5e5_pos1000") << 128 << 5e-6 << 1e-4;
    }
    void float32VersusDouble() {
        QFETCH(int, headDim);
        QFETCH(double, lo);
        QFETCH(double, hi);
        RopeParams p;
        p.head_dim = headDim;
        p.base = 500000.0;
        RopeParams pd = p;
        pd.precision = Precision::Double;
        const Positions pos{1000};
        const Matrix cf = ropeTables(p, ropeFrequencies(p), pos).cos;
        const Matrix cd = ropeTables(pd, ropeFrequencies(pd), pos).cos;
        const double diff = maxAbsDiff(cf, cd);
        QVERIFY2(diff >= lo && diff <= hi, qPrintable(QString("float32 vs double cos diff %1").arg(diff)));
        // The double table is the exact formula.
        for (int i = 0; i < headDim / 2; ++i)
            QVERIFY(std::abs(cd(0, i) - std::cos(1000.0 * std::pow(500000.0, -2.0 * i / headDim))) < 1e-12);
    }

    // ---------------------------------------------------------------- properties (double)
    void properties_data() {
        QTest::addColumn<int>("headDim");
        QTest::addColumn<double>("base");
        QTest::addColumn<int>("layout");
        QTest::addColumn<double>("partial");
        for (int d : {2, 4, 16, 64, 128})
            for (double b : {10.0, 10000.0, 1e6})
                for (int l : {int(RopeLayout::Half), int(RopeLayout::Interleaved)})
                    for (double f : {1.0, 0.5})
                        if (!(f == 0.5 && d < 4))
                            QTest::newRow(qPrintable(QString("d%1_theta%2_%3_partial%4")
                                                         .arg(d)
                                                         .arg(numTag(b))
                                                         .arg(l == int(RopeLayout::Half) ? "half" : "interleaved")
                                                         .arg(f)))
                                << d << b << l << f;
    }
    void properties() {
        QFETCH(int, headDim);
        QFETCH(double, base);
        QFETCH(int, layout);
        QFETCH(double, partial);
        RopeParams p;
        p.head_dim = headDim;
        p.base = base;
        p.layout = RopeLayout(layout);
        p.partial_rotary_factor = partial;
        p.precision = Precision::Double;
        QVERIFY(!p.validate());
        const int r = p.rotaryDim();
        const Positions pos{0, 1, 5, 1000, 131071, 1000000007};
        const auto n = Eigen::Index(pos.size());
        const Matrix q = formulaRows(n, headDim, 0.5, 0.7);
        const Matrix k = formulaRows(n, headDim, 0.3, 1.1);
        const Matrix rq = ropeRotate(p, pos, q);

        // Norm preserved (relative 1e-12), tail passes through exactly.
        for (Eigen::Index i = 0; i < n; ++i) {
            QVERIFY(std::abs(rq.row(i).norm() - q.row(i).norm()) <= 1e-12 * q.row(i).norm());
            for (int c = r; c < headDim; ++c) QCOMPARE(rq(i, c), q(i, c));
        }
        // Position 0 is the identity.
        QVERIFY(maxAbsDiff(rq.row(0), q.row(0)) <= 1e-15);

        // Relative position: (R_m q)·(R_n k) depends only on m − n.
        const std::int64_t m = 7, nn = 3;
        auto score = [&](std::int64_t a, std::int64_t b) {
            const Matrix ra = ropeRotate(p, {a}, q.topRows(1));
            const Matrix rb = ropeRotate(p, {b}, k.topRows(1));
            return ra.row(0).dot(rb.row(0));
        };
        const double s0 = score(m, nn);
        const double scale = q.row(0).norm() * k.row(0).norm();
        for (std::int64_t delta : {1LL, 17LL, 1000LL, 123456LL, 10000000LL}) {
            const double sd = score(m + delta, nn + delta);
            QVERIFY2(std::abs(sd - s0) <= 1e-8 * scale,
                     qPrintable(QString("delta %1: %2 vs %3").arg(delta).arg(sd, 0, 'g', 17).arg(s0, 0, 'g', 17)));
        }

        // Half vs interleaved: the same rotation up to the channel permutation
        // interleaved 2i <-> half i, interleaved 2i+1 <-> half i + r/2.
        RopeParams other = p;
        other.layout = p.layout == RopeLayout::Half ? RopeLayout::Interleaved : RopeLayout::Half;
        Matrix perm = q;  // q laid out for `other`
        for (int i = 0; i < r / 2; ++i) {
            const int a0 = p.layout == RopeLayout::Half ? i : 2 * i, a1 = p.layout == RopeLayout::Half ? i + r / 2 : 2 * i + 1;
            const int b0 = p.layout == RopeLayout::Half ? 2 * i : i, b1 = p.layout == RopeLayout::Half ? 2 * i + 1 : i + r / 2;
            perm.col(b0) = q.col(a0);
            perm.col(b1) = q.col(a1);
        }
        const Matrix ro = ropeRotate(other, pos, perm);
        for (int i = 0; i < r / 2; ++i) {
            const int a0 = p.layout == RopeLayout::Half ? i : 2 * i, a1 = p.layout == RopeLayout::Half ? i + r / 2 : 2 * i + 1;
            const int b0 = p.layout == RopeLayout::Half ? 2 * i : i, b1 = p.layout == RopeLayout::Half ? 2 * i + 1 : i + r / 2;
            QCOMPARE(ro.col(b0), rq.col(a0));
            QCOMPARE(ro.col(b1), rq.col(a1));
        }
        // ... but the raw vector gives different numbers in the two layouts (unless r = 2).
        if (r > 2) QVERIFY(maxAbsDiff(ropeRotate(other, pos, q), rq) > 1e-3);

        // Frequencies: the exponent uses r (NeoX / GPT-J), inv_freq[i] = base^(−2i/r).
        const RopeFrequencies f = ropeFrequencies(p);
        QCOMPARE(f.rotary_dim, r);
        for (int i = 0; i < r / 2; ++i)
            QVERIFY(std::abs(f.inv_freq[i] / std::pow(base, -2.0 * i / r) - 1) <= 1e-14);

        // Tables: cos²+sin² = 1 per pair, layout of the duplicates.
        const RopeTables t = ropeTables(p, f, pos);
        for (Eigen::Index row = 0; row < n; ++row)
            for (int i = 0; i < r / 2; ++i) {
                const int j0 = p.layout == RopeLayout::Half ? i : 2 * i;
                const int j1 = p.layout == RopeLayout::Half ? i + r / 2 : 2 * i + 1;
                QCOMPARE(t.cos(row, j0), t.cos(row, j1));
                QCOMPARE(t.sin(row, j0), t.sin(row, j1));
                QVERIFY(std::abs(t.cos(row, j0) * t.cos(row, j0) + t.sin(row, j0) * t.sin(row, j0) - 1) < 1e-14);
            }
    }

    // ---------------------------------------------------------------- partial rotary
    void partialRotary_data() {
        QTest::addColumn<int>("headDim");
        QTest::addColumn<double>("partial");
        QTest::addColumn<int>("rotaryDim");
        QTest::addColumn<int>("expectR");
        QTest::addColumn<int>("layout");
        QTest::newRow("neox_d64_partial0.25_half") << 64 << 0.25 << 0 << 16 << int(RopeLayout::Half);
        QTest::newRow("phi2_d80_partial0.4_half") << 80 << 0.4 << 0 << 32 << int(RopeLayout::Half);
        QTest::newRow("gptj_d256_rotary64_interleaved") << 256 << 1.0 << 64 << 64 << int(RopeLayout::Interleaved);
        QTest::newRow("gptj_d8_rotary2_interleaved") << 8 << 1.0 << 2 << 2 << int(RopeLayout::Interleaved);
        QTest::newRow("d12_partial0.5_half") << 12 << 0.5 << 0 << 6 << int(RopeLayout::Half);
    }
    void partialRotary() {
        QFETCH(int, headDim);
        QFETCH(double, partial);
        QFETCH(int, rotaryDim);
        QFETCH(int, expectR);
        QFETCH(int, layout);
        for (Precision prec : {Precision::Float32, Precision::Double}) {
            RopeParams p;
            p.head_dim = headDim;
            p.partial_rotary_factor = partial;
            p.rotary_dim = rotaryDim;
            p.layout = RopeLayout(layout);
            p.precision = prec;
            QVERIFY(!p.validate());
            QCOMPARE(p.rotaryDim(), expectR);
            const RopeFrequencies f = ropeFrequencies(p);
            QCOMPARE(f.inv_freq.size(), Eigen::Index(expectR / 2));
            if (expectR >= 4)  // exponent denominator is r, not head_dim (float32: f32(2/r)·ln 1e4 error)
                QVERIFY(std::abs(f.inv_freq[1] - std::pow(10000.0, -2.0 / expectR)) <= 1.2e-6 * f.inv_freq[1]);
            const Positions pos{3, 77, 5000};
            const Matrix x = formulaRows(3, headDim, 0.5, 0.7);
            const RopeTables t = ropeTables(p, f, pos);
            QCOMPARE(t.cos.cols(), Eigen::Index(expectR));
            const Matrix out = ropeApply(p, t, x);
            for (Eigen::Index i = 0; i < 3; ++i) {
                for (int c = expectR; c < headDim; ++c) QCOMPARE(out(i, c), roundTo(prec, x(i, c)));
                QVERIFY(maxAbsDiff(out.row(i).head(expectR), x.row(i).head(expectR)) > 1e-3);
            }
        }
    }

    // ---------------------------------------------------------------- validation
    void validation_data() {
        using M = std::function<void(RopeParams&)>;
        QTest::addColumn<M>("mutate");
        QTest::addColumn<QString>("field");
        auto row = [](const char* name, M m, const char* field) { QTest::newRow(name) << m << QString(field); };
        const double nan = std::nan(""), inf = INFINITY;
        row("head_dim_odd_7", [](RopeParams& p) { p.head_dim = 7; }, "head_dim");
        row("head_dim_0", [](RopeParams& p) { p.head_dim = 0; }, "head_dim");
        row("head_dim_65538", [](RopeParams& p) { p.head_dim = 65538; }, "head_dim");
        row("base_1", [](RopeParams& p) { p.base = 1.0; }, "base");
        row("base_nan", [nan](RopeParams& p) { p.base = nan; }, "base");
        row("base_inf", [inf](RopeParams& p) { p.base = inf; }, "base");
        row("base_1e13", [](RopeParams& p) { p.base = 1e13; }, "base");
        row("partial_0", [](RopeParams& p) { p.partial_rotary_factor = 0; }, "partial_rotary_factor");
        row("partial_1.5", [](RopeParams& p) { p.partial_rotary_factor = 1.5; }, "partial_rotary_factor");
        row("partial_nan", [nan](RopeParams& p) { p.partial_rotary_factor = nan; }, "partial_rotary_factor");
        row("partial_odd_rotary_d64_0.3", [](RopeParams& p) { p.partial_rotary_factor = 0.3; }, "partial_rotary_factor");
        row("partial_rotary0_d64_0.01", [](RopeParams& p) { p.partial_rotary_factor = 0.01; }, "partial_rotary_factor");
        row("rotary_dim_odd_7", [](RopeParams& p) { p.rotary_dim = 7; }, "rotary_dim");
        row("rotary_dim_above_head_66", [](RopeParams& p) { p.rotary_dim = 66; }, "rotary_dim");
        row("rotary_dim_negative", [](RopeParams& p) { p.rotary_dim = -2; }, "rotary_dim");
        row("rotary_dim_and_partial", [](RopeParams& p) { p.rotary_dim = 32; p.partial_rotary_factor = 0.5; }, "rotary_dim");
        row("factor_0", [](RopeParams& p) { p.scaling = RopeScaling::Linear; p.factor = 0.0; }, "factor");
        row("factor_negative", [](RopeParams& p) { p.scaling = RopeScaling::Linear; p.factor = -2.0; }, "factor");
        row("factor_nan", [nan](RopeParams& p) { p.scaling = RopeScaling::Linear; p.factor = nan; }, "factor");
        row("factor_1e7", [](RopeParams& p) { p.scaling = RopeScaling::Yarn; p.factor = 1e7; }, "factor");
        row("factor_missing_linear", [](RopeParams& p) { p.scaling = RopeScaling::Linear; }, "factor");
        row("factor_missing_dynamic", [](RopeParams& p) { p.scaling = RopeScaling::Dynamic; }, "factor");
        row("factor_missing_llama3", [](RopeParams& p) { p.scaling = RopeScaling::Llama3; }, "factor");
        row("max_positions_0", [](RopeParams& p) { p.max_positions = 0; }, "max_positions");
        row("max_positions_2e12", [](RopeParams& p) { p.max_positions = 2000000000000LL; }, "max_positions");
        row("original_max_positions_0", [](RopeParams& p) { p.original_max_positions = 0; }, "original_max_positions");
        row("seq_len_0", [](RopeParams& p) { p.seq_len = 0; }, "seq_len");
        row("beta_fast_0", [](RopeParams& p) { p.beta_fast = 0; }, "beta_fast");
        row("beta_slow_inf", [inf](RopeParams& p) { p.beta_slow = inf; }, "beta_slow");
        row("mscale_negative", [](RopeParams& p) { p.mscale = -1.0; }, "mscale");
        row("mscale_all_dim_nan", [nan](RopeParams& p) { p.mscale_all_dim = nan; }, "mscale_all_dim");
        row("attention_factor_0", [](RopeParams& p) { p.attention_factor = 0.0; }, "attention_factor");
        row("attention_factor_inf", [inf](RopeParams& p) { p.attention_factor = inf; }, "attention_factor");
        row("low_freq_factor_0", [](RopeParams& p) { p.low_freq_factor = 0; }, "low_freq_factor");
        row("high_freq_factor_below_low", [](RopeParams& p) { p.low_freq_factor = 4; p.high_freq_factor = 1; }, "high_freq_factor");
        row("longrope_short_missing", [](RopeParams& p) {
            p.scaling = RopeScaling::LongRope; p.long_factor.assign(32, 1.0); }, "short_factor");
        row("longrope_long_wrong_size", [](RopeParams& p) {
            p.scaling = RopeScaling::LongRope; p.short_factor.assign(32, 1.0); p.long_factor.assign(31, 1.0); }, "long_factor");
        row("longrope_short_zero", [](RopeParams& p) {
            p.scaling = RopeScaling::LongRope; p.short_factor.assign(32, 0.0); p.long_factor.assign(32, 1.0); }, "short_factor");
        row("yarn_default_factor_2^40", [](RopeParams& p) {
            p.scaling = RopeScaling::Yarn; p.max_positions = kMaxPosition; p.original_max_positions = 1; }, "original_max_positions");
        row("longrope_orig1_derived_attention", [](RopeParams& p) {
            p.scaling = RopeScaling::LongRope; p.short_factor.assign(32, 1.0); p.long_factor.assign(32, 1.0);
            p.max_positions = 4096; p.original_max_positions = 1; }, "original_max_positions");
        row("theta_wrong_size", [](RopeParams& p) { p.theta = {1.0, 0.1}; }, "theta");
        row("theta_zero", [](RopeParams& p) { p.head_dim = 4; p.theta = {1.0, 0.0}; }, "theta");
        row("theta_nan", [nan](RopeParams& p) { p.head_dim = 4; p.theta = {nan, 0.1}; }, "theta");
        row("dynamic_rotary2", [](RopeParams& p) { p.scaling = RopeScaling::Dynamic; p.factor = 2.0; p.head_dim = 2; }, "rotary_dim");
        row("dynamic_base_overflow_d4_f1e6_base1e12", [](RopeParams& p) {
            p.scaling = RopeScaling::Dynamic; p.factor = 1e6; p.head_dim = 4; p.base = 1e12; p.max_positions = 1; }, "factor");
    }
    void validation() {
        using M = std::function<void(RopeParams&)>;
        QFETCH(M, mutate);
        QFETCH(QString, field);
        RopeParams p;
        QVERIFY(!p.validate());
        mutate(p);
        const Check e = p.validate();
        QVERIFY2(e.has_value(), "expected a validation error");
        QCOMPARE(QString::fromStdString(e->parameter), field);
        QVERIFY(!e->valid.empty());
        QVERIFY(!e->got.empty());
    }

    // Valid edge cases give finite numbers everywhere.
    void validEdgesFinite_data() {
        using M = std::function<void(RopeParams&)>;
        QTest::addColumn<M>("mutate");
        auto row = [](const char* name, M m) { QTest::newRow(name) << m; };
        row("d2_base1.0000001", [](RopeParams& p) { p.head_dim = 2; p.base = 1.0000001; });
        row("d65536_base1e12", [](RopeParams& p) { p.head_dim = 65536; p.base = 1e12; });
        row("linear_factor1e-6", [](RopeParams& p) { p.scaling = RopeScaling::Linear; p.factor = 1e-6; });
        row("dynamic_d4_f1e6_maxpos1_seq2^40", [](RopeParams& p) {
            p.scaling = RopeScaling::Dynamic; p.factor = 1e6; p.head_dim = 4; p.max_positions = 1; p.base = 10; });
        row("yarn_orig1_beta1e6", [](RopeParams& p) {
            p.scaling = RopeScaling::Yarn; p.original_max_positions = 1; p.beta_fast = 1e6; p.beta_slow = 1e6; });
        row("yarn_notruncate_betas_equal", [](RopeParams& p) {
            p.scaling = RopeScaling::Yarn; p.truncate = false; p.beta_fast = 2; p.beta_slow = 2; p.factor = 8; });
        row("yarn_beta_fast_below_slow", [](RopeParams& p) {
            p.scaling = RopeScaling::Yarn; p.beta_fast = 1; p.beta_slow = 32; p.factor = 8; });
        row("yarn_orig1e6_maxpos1_factor1e-6", [](RopeParams& p) {
            p.scaling = RopeScaling::Yarn; p.original_max_positions = 1000000; p.max_positions = 1; });
        row("llama3_factor1e6_high1e6", [](RopeParams& p) {
            p.scaling = RopeScaling::Llama3; p.factor = 1e6; p.high_freq_factor = 1e6; p.original_max_positions = kMaxPosition; });
        row("longrope_factors_1e-6", [](RopeParams& p) {
            p.scaling = RopeScaling::LongRope; p.short_factor.assign(32, 1e-6); p.long_factor.assign(32, 1e6);
            p.max_positions = 2000000; p.original_max_positions = 2; });
    }
    void validEdgesFinite() {
        using M = std::function<void(RopeParams&)>;
        QFETCH(M, mutate);
        for (Precision prec : {Precision::Float32, Precision::Double}) {
            RopeParams p;
            mutate(p);
            p.precision = prec;
            const Check e = p.validate();
            QVERIFY2(!e, e ? e->message().c_str() : "");
            const Positions pos{0, 1, 4097, kMaxPosition};
            for (const RopeFrequencies& f : {ropeFrequencies(p), ropeRuntimeFrequencies(p, kMaxPosition + 1),
                                             ropeDefaultFrequencies(p)}) {
                QVERIFY(f.inv_freq.allFinite());
                QVERIFY((f.inv_freq.array() > 0).all());
                QVERIFY(f.wavelength().allFinite());
                QVERIFY(std::isfinite(f.attention_factor));
                const RopeTables t = ropeTables(p, f, pos);
                QVERIFY(t.cos.allFinite());
                QVERIFY(t.sin.allFinite());
            }
            const Matrix x = formulaRows(4, p.head_dim, 0.5, 0.7);
            QVERIFY(ropeRotate(p, pos, x).allFinite());
        }
    }
};

QTEST_APPLESS_MAIN(TestRope)
#include "test_rope.moc"
