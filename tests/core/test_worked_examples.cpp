// Worked examples: every step's numbers against the golden cases and independent formulas.
#include "core/worked_examples.h"
#include "support/testsupport.h"

#include <cmath>
#include <numbers>

using namespace poslab;

namespace {

std::vector<double> stepValues(const WorkedExample& ex, const std::string& step, const std::string& name) {
    for (const auto& s : ex.steps)
        if (s.id == step)
            if (const auto* v = s.find(name)) return v->values;
    qFatal("no values '%s' in step '%s'", name.c_str(), step.c_str());
    return {};
}
const WorkedStep* findStep(const WorkedExample& ex, const std::string& id) {
    for (const auto& s : ex.steps)
        if (s.id == id) return &s;
    return nullptr;
}
double maxDiff(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return INFINITY;
    double m = 0;
    for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
    return m;
}
QString str(const std::vector<double>& v) {
    QStringList l;
    for (double x : v) l << QString::number(x, 'g', 10);
    return "[" + l.join(", ") + "]";
}
void allFinite(const WorkedExample& ex) {
    for (const auto& s : ex.steps) {
        QVERIFY2(!s.id.empty() && !s.operation.empty() && !s.formula.empty(), s.id.c_str());
        for (const auto& v : s.values)
            for (double x : v.values) QVERIFY2(std::isfinite(x) || (v.name == "last distance in bucket"), v.name.c_str());
        for (const auto& v : s.values) QVERIFY(v.labels.empty() || v.labels.size() == v.values.size());
    }
}

}  // namespace

class TestWorkedExamples : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void ropeSeedExampleMatchesGolden() {
        // The default: d=4, m=2, θ=[1, 0.1], q=[1,0,1,0], interleaved.
        const RopeExampleInput in;
        auto r = ropeWorkedExample(in);
        QVERIFY(r.ok());
        const auto& ex = r.value();
        allFinite(ex);
        const auto golden = testsupport::toDoubles(
            testsupport::goldenCase("rope_seed_example.json", "gptj_interleaved").value("output").toArray());
        QVERIFY2(maxDiff(ex.result, golden) <= 1e-7, qPrintable(str(ex.result)));
        QVERIFY(maxDiff(ex.result, {-0.416, 0.909, 0.980, 0.199}) <= 1e-3);
        // What the half-split layout gives instead (Hugging Face Llama).
        const auto half = testsupport::toDoubles(
            testsupport::goldenCase("rope_seed_example.json", "llama_half_split_contrast").value("output").toArray());
        const auto* other = findStep(ex, "other_layout");
        QVERIFY(other);
        const auto got = other->values.at(0).values;
        QVERIFY2(maxDiff(got, half) <= 1e-6, qPrintable(str(got)));
        QVERIFY(maxDiff(got, {-1.325, 0, 0.493, 0}) <= 1e-3);
        const auto diff = other->find("difference")->values;
        for (std::size_t i = 0; i < 4; ++i) QVERIFY(std::abs(diff[i] - (half[i] - golden[i])) <= 1e-6);
        // cos/sin step equals the golden tables.
        const auto cg = testsupport::toDoubles(testsupport::goldenCase("rope_seed_example.json", "gptj_interleaved")
                                                   .value("params").toObject().value("cos").toArray());
        QVERIFY(maxDiff(stepValues(ex, "cos_sin", "cos a_i"), cg) <= 1e-7);
    }

    void ropeHalfLayoutIsTheMainResultWhenChosen() {
        RopeExampleInput in;
        in.layout = RopeLayout::Half;
        auto r = ropeWorkedExample(in);
        QVERIFY(r.ok());
        QVERIFY(maxDiff(r.value().result, {-1.325444221496582, 0, 0.4931505620479584, 0}) <= 1e-6);
        QVERIFY(findStep(r.value(), "other_layout"));
        // Pairs of the half-split layout are (0,2), (1,3).
        const auto* pairs = findStep(r.value(), "pairs");
        QVERIFY(pairs);
        QCOMPARE(pairs->find("x_i")->labels.at(0), std::string("(0,2)"));
        QCOMPARE(pairs->find("x_i")->labels.at(1), std::string("(1,3)"));
    }

    void ropeSteps_data() {
        QTest::addColumn<int>("dim");
        QTest::addColumn<qint64>("m");
        QTest::addColumn<QList<double>>("theta");
        QTest::addColumn<QList<double>>("q");
        QTest::newRow("d4_m2_theta1_0.1_q1010") << 4 << qint64(2) << QList<double>{1.0, 0.1} << QList<double>{1, 0, 1, 0};
        QTest::newRow("d2_m0_theta1_q3_4") << 2 << qint64(0) << QList<double>{1.0} << QList<double>{3, 4};
        QTest::newRow("d6_m7_theta0.5_0.05_0.005") << 6 << qint64(7) << QList<double>{0.5, 0.05, 0.005}
                                                 << QList<double>{0.3, -1.2, 2.0, 0.7, -0.4, 1.1};
        QTest::newRow("d2_m1000_theta1") << 2 << qint64(1000) << QList<double>{1.0} << QList<double>{1, 0};
    }
    void ropeSteps() {
        QFETCH(int, dim);
        QFETCH(qint64, m);
        QFETCH(QList<double>, theta);
        QFETCH(QList<double>, q);
        RopeExampleInput in;
        in.dim = dim;
        in.position = m;
        in.theta.assign(theta.begin(), theta.end());
        in.q.assign(q.begin(), q.end());
        in.precision = Precision::Double;
        auto r = ropeWorkedExample(in);
        QVERIFY(r.ok());
        const auto& ex = r.value();
        allFinite(ex);
        const double twoPi = 2 * std::numbers::pi;
        const auto a = stepValues(ex, "angles", "m·θ_i");
        const auto amod = stepValues(ex, "angles", "m·θ_i mod 2π");
        const auto c = stepValues(ex, "cos_sin", "cos a_i");
        const auto s = stepValues(ex, "cos_sin", "sin a_i");
        std::vector<double> expect(static_cast<std::size_t>(dim));
        for (int i = 0; i < dim / 2; ++i) {
            const double ang = double(m) * theta[i];
            QVERIFY(std::abs(a[std::size_t(i)] - ang) <= 1e-9 * std::max(1.0, ang));
            QVERIFY(amod[std::size_t(i)] >= 0 && amod[std::size_t(i)] < twoPi);
            QVERIFY(std::abs(std::cos(amod[std::size_t(i)]) - std::cos(ang)) <= 1e-9);
            QVERIFY(std::abs(c[std::size_t(i)] - std::cos(ang)) <= 1e-12);
            QVERIFY(std::abs(s[std::size_t(i)] - std::sin(ang)) <= 1e-12);
            const double x = q[2 * i], y = q[2 * i + 1];
            expect[std::size_t(2 * i)] = x * std::cos(ang) - y * std::sin(ang);
            expect[std::size_t(2 * i + 1)] = x * std::sin(ang) + y * std::cos(ang);
        }
        QVERIFY2(maxDiff(ex.result, expect) <= 1e-12, qPrintable(str(ex.result) + " vs " + str(expect)));
        // Norm is preserved.
        const double n0 = stepValues(ex, "norm", "|q|").at(0);
        const double n1 = stepValues(ex, "norm", "|R_m q|").at(0);
        double expectNorm = 0;
        for (double v : q) expectNorm += v * v;
        QVERIFY(std::abs(n0 - std::sqrt(expectNorm)) <= 1e-12);
        QVERIFY(std::abs(n1 - n0) <= 1e-12);
    }

    void ropeAtTheLargestPositionIsFinite() {
        RopeExampleInput in;
        in.position = kMaxPosition;
        auto r = ropeWorkedExample(in);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message().c_str());
        allFinite(r.value());
        // Still a rotation: the norm of [1, 0, 1, 0] is sqrt(2).
        double n = 0;
        for (double x : r.value().result) n += x * x;
        QVERIFY(std::abs(std::sqrt(n) - std::sqrt(2.0)) <= 1e-6);
    }

    void ropeRejectsInvalidInput_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("parameter");
        QTest::newRow("dim3") << 0 << "dim";
        QTest::newRow("theta_wrong_count") << 1 << "theta";
        QTest::newRow("q_wrong_count") << 2 << "q";
        QTest::newRow("position_negative") << 3 << "position";
        QTest::newRow("theta_zero") << 4 << "theta";
        QTest::newRow("q_nan") << 5 << "q";
    }
    void ropeRejectsInvalidInput() {
        QFETCH(int, which);
        QFETCH(QString, parameter);
        RopeExampleInput in;
        switch (which) {
            case 0: in.dim = 3; break;
            case 1: in.theta = {1.0}; break;
            case 2: in.q = {1, 0}; break;
            case 3: in.position = -1; break;
            case 4: in.theta = {0.0, 0.1}; break;
            case 5: in.q[1] = NAN; break;
        }
        auto r = ropeWorkedExample(in);
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error().parameter), parameter);
    }

    void sinusoidalRow_data() {
        QTest::addColumn<int>("dim");
        QTest::addColumn<qint64>("p");
        QTest::addColumn<bool>("concat");
        QTest::newRow("d8_p5_interleaved") << 8 << qint64(5) << false;
        QTest::newRow("d16_p100_interleaved") << 16 << qint64(100) << false;
        QTest::newRow("d8_p5_concat") << 8 << qint64(5) << true;
        QTest::newRow("d2_p0_interleaved") << 2 << qint64(0) << false;
    }
    void sinusoidalRow() {
        QFETCH(int, dim);
        QFETCH(qint64, p);
        QFETCH(bool, concat);
        SinusoidalExampleInput in;
        in.dim = dim;
        in.position = p;
        in.layout = concat ? SinusoidalLayout::Concat : SinusoidalLayout::Interleaved;
        auto r = sinusoidalWorkedExample(in);
        QVERIFY(r.ok());
        const auto& ex = r.value();
        allFinite(ex);
        QCOMPARE(ex.result.size(), std::size_t(dim));
        const int K = dim / 2;
        const auto sn = stepValues(ex, "sines", "sin(p·w_i)");
        const auto cs = stepValues(ex, "cosines", "cos(p·w_i)");
        const auto wl = stepValues(ex, "wavelengths", "λ_i");
        for (int i = 0; i < K; ++i) {
            const double w = std::pow(10000.0, -2.0 * i / dim);
            const double ang = double(p) * w;
            // float32 tables: atol 5e-6 (docs/spec/conventions.md).
            QVERIFY(std::abs(sn[std::size_t(i)] - std::sin(ang)) <= 5e-6);
            QVERIFY(std::abs(cs[std::size_t(i)] - std::cos(ang)) <= 5e-6);
            QVERIFY(std::abs(wl[std::size_t(i)] - 2 * std::numbers::pi / w) <= 1e-5 * wl[std::size_t(i)]);
            const std::size_t si = concat ? std::size_t(i) : std::size_t(2 * i);
            const std::size_t ci = concat ? std::size_t(K + i) : std::size_t(2 * i + 1);
            QCOMPARE(ex.result[si], sn[std::size_t(i)]);
            QCOMPARE(ex.result[ci], cs[std::size_t(i)]);
        }
    }
    void sinusoidalRowMatchesDistilBertGolden() {
        const auto c = testsupport::goldenCase("sinusoidal_distilbert_interleaved.json", "distilbert_d16");
        const poslab::Matrix table = testsupport::toMatrix(c.value("output"));
        SinusoidalExampleInput in;
        in.dim = 16;
        in.position = 37;
        auto r = sinusoidalWorkedExample(in);
        QVERIFY(r.ok());
        std::vector<double> row(table.row(37).data(), table.row(37).data() + 16);
        QVERIFY2(maxDiff(r.value().result, row) <= 5e-6, qPrintable(str(r.value().result)));
    }

    void alibiSlopes_data() {
        QTest::addColumn<int>("heads");
        QTest::addColumn<QString>("goldenCase");
        QTest::newRow("h12") << 12 << "get_slopes_n12";
        QTest::newRow("h8") << 8 << "get_slopes_n8";
    }
    void alibiSlopes() {
        QFETCH(int, heads);
        QFETCH(QString, goldenCase);
        AlibiExampleInput in;
        in.heads = heads;
        auto r = alibiWorkedExample(in);
        QVERIFY(r.ok());
        allFinite(r.value());
        const auto golden = testsupport::toDoubles(testsupport::goldenCase("alibi_ofirpress.json", goldenCase).value("output").toArray());
        QVERIFY2(maxDiff(r.value().result, golden) <= 1e-15, qPrintable(str(r.value().result)));
        QCOMPARE(stepValues(r.value(), "power_of_two", "p").at(0), 8.0);
        QCOMPARE(findStep(r.value(), "other_heads") != nullptr, heads != 8);
    }
    void alibiNonPowerOfTwoSteps() {
        // H = 6: p = 4 slopes 2^-2, 2^-4, 2^-6, 2^-8, then every other slope of 8 heads: 2^-1, 2^-3.
        AlibiExampleInput in;
        in.heads = 6;
        auto r = alibiWorkedExample(in);
        QVERIFY(r.ok());
        const auto& ex = r.value();
        QCOMPARE(stepValues(ex, "power_of_two", "p").at(0), 4.0);
        QVERIFY(maxDiff(stepValues(ex, "slopes_p", "m_h (p heads)"), {0.25, 0.0625, 0.015625, 0.00390625}) <= 1e-15);
        const auto* other = findStep(ex, "other_heads");
        QVERIFY(other);
        QVERIFY(maxDiff(other->find("every other")->values, {0.5, 0.125}) <= 1e-15);
        QCOMPARE(other->find("every other")->labels, (std::vector<std::string>{"h=0", "h=2"}));
        QVERIFY(maxDiff(ex.result, {0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125}) <= 1e-15);
        // Bias row of head 0 for query 4: −0.25·(4 − j).
        QVERIFY(maxDiff(stepValues(ex, "bias_row", "head 0"), {-1.0, -0.75, -0.5, -0.25, 0.0}) <= 1e-15);
        QVERIFY(maxDiff(stepValues(ex, "bias_row", "head 5"), {-0.5, -0.375, -0.25, -0.125, 0.0}) <= 1e-15);
    }
    void alibiRejectsZeroHeads() {
        AlibiExampleInput in;
        in.heads = 0;
        auto r = alibiWorkedExample(in);
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error().parameter), QStringLiteral("heads"));
    }

    void t5Bucket_data() {
        QTest::addColumn<qint64>("rel");
        QTest::addColumn<bool>("bidirectional");
        QTest::addColumn<int>("bucket");
        QTest::addColumn<qint64>("first");
        QTest::addColumn<qint64>("last");
        // Expected values read from the golden arange(−300, 301) table (bidirectional) and by hand
        // (causal: nb 32, max_exact 16, 16 + int(ln(n/16)/ln(8)·16)).
        QTest::newRow("rel-50_bidir_nb32_md128") << qint64(-50) << true << 13 << qint64(46) << qint64(63);
        QTest::newRow("rel50_bidir_nb32_md128") << qint64(50) << true << 29 << qint64(46) << qint64(63);
        QTest::newRow("rel-3_bidir_nb32_md128") << qint64(-3) << true << 3 << qint64(3) << qint64(3);
        QTest::newRow("rel-1000_bidir_nb32_md128") << qint64(-1000) << true << 15 << qint64(91) << qint64(-1);
        QTest::newRow("rel-50_causal_nb32_md128") << qint64(-50) << false << 24 << qint64(46) << qint64(51);
        QTest::newRow("rel7_causal_nb32_md128") << qint64(7) << false << 0 << qint64(1) << qint64(-1);
    }
    void t5Bucket() {
        QFETCH(qint64, rel);
        QFETCH(bool, bidirectional);
        QFETCH(int, bucket);
        QFETCH(qint64, first);
        QFETCH(qint64, last);
        T5ExampleInput in;
        in.relative = rel;
        in.bidirectional = bidirectional;
        auto r = t5WorkedExample(in);
        QVERIFY(r.ok());
        const auto& ex = r.value();
        allFinite(ex);
        QCOMPARE(ex.result.at(0), double(bucket));
        QCOMPARE(stepValues(ex, "bucket", "first distance in bucket").at(0), double(first));
        QCOMPARE(stepValues(ex, "bucket", "last distance in bucket").at(0), double(last));
        // The logarithmic step's displayed chain agrees with the bucket.
        if (const auto* log = findStep(ex, "logarithmic")) {
            const double base = stepValues(ex, "direction", "base").at(0);
            QCOMPARE(log->find("capped at nb − 1")->values.at(0) + base, double(bucket));
        } else {
            const double n = stepValues(ex, "distance", "n").at(0);
            QCOMPARE(n + stepValues(ex, "direction", "base").at(0), double(bucket));
        }
    }
    void t5RangeAgreesWithGoldenTable() {
        const auto out = testsupport::toDoubles(testsupport::goldenCase("t5_relative_position_bucket.json", "bucket_bidirTrue_nb32_md128")
                                                    .value("output").toArray());
        T5Params p;
        for (int rel : {-299, -120, -64, -63, -46, -45, -8, -7, 0, 1, 9, 46, 63, 64, 127, 128, 250}) {
            const auto range = t5BucketRange(rel, p);
            QCOMPARE(double(range.bucket), out[std::size_t(rel + 300)]);
            // Every |rel| in [first, last] within the table shares the bucket; the neighbours do not.
            const int sign = rel > 0 ? 1 : -1;
            const std::int64_t hi = range.last < 0 ? 300 : range.last;
            for (std::int64_t n = range.first; n <= std::min<std::int64_t>(hi, 300); ++n)
                QCOMPARE(out[std::size_t(sign * n + 300)], double(range.bucket));
            if (range.first > (rel > 0 ? 1 : 0)) QVERIFY(out[std::size_t(sign * (range.first - 1) + 300)] != double(range.bucket));
            if (range.last >= 0 && range.last < 300) QVERIFY(out[std::size_t(sign * (range.last + 1) + 300)] != double(range.bucket));
        }
    }
    void t5RejectsOddBucketsBidirectional() {
        T5ExampleInput in;
        in.num_buckets = 31;
        auto r = t5WorkedExample(in);
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error().parameter), QStringLiteral("num_buckets"));
    }
};

QTEST_GUILESS_MAIN(TestWorkedExamples)
#include "test_worked_examples.moc"
