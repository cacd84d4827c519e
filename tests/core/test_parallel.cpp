// Where the core's parallel work runs (core/parallel.h): on the calling thread unless the caller
// installs a ParallelFor, scopes nest and restore, and the core's split computations (structured
// heatmap blocks, decay sweeps, blocked and structured summaries) give the serial result bit for
// bit when the pieces run on several threads.
#include "support/parallelfor.h"

#include "core/aggregate.h"
#include "core/decay.h"
#include "core/parallel.h"
#include "core/scores.h"

#include <QtTest>

#include <mutex>
#include <set>
#include <thread>

using namespace poslab;

namespace {

// A ParallelFor that records how it was asked, then runs the pieces on `threads` threads.
struct Recorder {
    std::vector<std::size_t> calls;   // n of each call
    ParallelFor parallelFor(unsigned threads) {
        return [this, run = testsupport::threadsParallelFor(threads)](std::size_t n, const ParallelBody& body) {
            calls.push_back(n);
            run(n, body);
        };
    }
};

ScoreParams params(Method m, int dim, Content c, Precision p = Precision::Double) {
    ScoreParams s;
    s.method = m;
    s.dim = dim;
    s.content = c;
    s.precision = p;
    return s;
}

}  // namespace

class TestParallel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // With no scope the pieces run as one range on the calling thread.
    void serialByDefault() {
        std::vector<std::pair<std::size_t, std::size_t>> ranges;
        std::set<std::thread::id> threads;
        parallelFor(7, [&](std::size_t b, std::size_t e) {
            ranges.emplace_back(b, e);
            threads.insert(std::this_thread::get_id());
        });
        QCOMPARE(ranges.size(), std::size_t(1));
        QCOMPARE(ranges[0].first, std::size_t(0));
        QCOMPARE(ranges[0].second, std::size_t(7));
        QVERIFY(threads == std::set<std::thread::id>{std::this_thread::get_id()});
        parallelFor(0, [&](std::size_t, std::size_t) { QFAIL("no piece of nothing"); });
    }

    // A scope installs its ParallelFor on this thread only; nested scopes restore the outer one.
    void scopesNestAndRestore() {
        Recorder outer, inner;
        const auto touch = [] { parallelFor(3, [](std::size_t, std::size_t) {}); };
        {
            const ParallelScope a(outer.parallelFor(2));
            touch();
            {
                const ParallelScope b(inner.parallelFor(2));
                touch();
                std::thread other(touch);   // another thread sees the serial default
                other.join();
            }
            touch();
        }
        touch();
        QCOMPARE(outer.calls, (std::vector<std::size_t>{3, 3}));
        QCOMPARE(inner.calls, (std::vector<std::size_t>{3}));
    }

    // Every index of [0, n) is run exactly once, and an exception reaches the caller.
    void piecesCoverTheRangeOnce_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("threads");
        for (int n : {1, 2, 5, 64})
            for (int t : {1, 2, 4}) QTest::addRow("n%d_threads%d", n, t) << n << t;
    }
    void piecesCoverTheRangeOnce() {
        QFETCH(int, n);
        QFETCH(int, threads);
        const ParallelScope scope(testsupport::threadsParallelFor(unsigned(threads)));
        std::vector<int> hits(std::size_t(n), 0);
        std::mutex m;
        parallelFor(std::size_t(n), [&](std::size_t b, std::size_t e) {
            const std::lock_guard lock(m);
            for (std::size_t i = b; i < e; ++i) ++hits[i];
        });
        QVERIFY(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }));
        bool thrown = false;
        try {
            parallelFor(std::size_t(n), [](std::size_t b, std::size_t) {
                if (b == 0) throw std::runtime_error("piece 0");
            });
        } catch (const std::runtime_error&) {
            thrown = true;
        }
        QVERIFY(thrown);
    }

    // The core's split computations ask the caller's ParallelFor and give the serial result.
    void splitWorkEqualsSerial_data() {
        QTest::addColumn<QString>("what");
        QTest::addColumn<int>("method");
        QTest::addColumn<int>("content");
        QTest::addColumn<int>("precision");
        QTest::addColumn<qint64>("size");
        const auto row = [](const char* name, const char* what, Method m, Content c, Precision p, qint64 size) {
            QTest::newRow(name) << QString::fromLatin1(what) << int(m) << int(c) << int(p) << size;
        };
        row("decay_rope_double_20000", "decay", Method::Rope, Content::Formula, Precision::Double, 20000);
        row("decay_transformer-xl_5000", "decay", Method::TransformerXL, Content::Formula, Precision::Double, 5000);
        row("decay_xpos_float32_3000", "decay", Method::Xpos, Content::Formula, Precision::Float32, 3000);
        row("summary_rope_formula_600", "summary", Method::Rope, Content::Formula, Precision::Float32, 600);
        row("summary_alibi_ones_3000", "summary", Method::Alibi, Content::Ones, Precision::Double, 3000);
        row("heatmap_rope_ones_4096", "heatmap", Method::Rope, Content::Ones, Precision::Double, 4096);
        row("heatmap_t5_ones_2048", "heatmap", Method::T5, Content::Ones, Precision::Double, 2048);
    }
    void splitWorkEqualsSerial() {
        QFETCH(QString, what);
        QFETCH(int, method);
        QFETCH(int, content);
        QFETCH(int, precision);
        QFETCH(qint64, size);
        const ScoreParams p = params(Method(method), 32, Content(content), Precision(precision));
        const auto compute = [&]() -> std::vector<double> {
            if (what == QLatin1String("decay")) {
                auto r = decayCurve(p, size);
                if (!r.ok()) return {};
                const Vector& v = r.value().value;
                return {v.data(), v.data() + v.size()};
            }
            if (what == QLatin1String("summary")) {
                auto r = scoresSummary(p, size);
                if (!r.ok()) return {};
                return {r.value().sum, r.value().min, r.value().max};
            }
            const auto ranges = splitRange(0, size, 256);
            auto r = aggregateScores(p, size, ranges, ranges, Aggregate::Mean, std::int64_t{1} << 26);
            if (!r.ok()) return {};
            const Matrix& v = r.value().values;
            return {v.data(), v.data() + v.size()};
        };
        const std::vector<double> serial = compute();
        QVERIFY(!serial.empty());
        Recorder rec;
        std::vector<double> split;
        {
            const ParallelScope scope(rec.parallelFor(2));
            split = compute();
        }
        QVERIFY2(!rec.calls.empty(), "the computation did not hand its pieces to the caller's ParallelFor");
        QCOMPARE(split.size(), serial.size());
        for (std::size_t i = 0; i < serial.size(); ++i)
            if (!(split[i] == serial[i]) && !(std::isnan(split[i]) && std::isnan(serial[i])))
                QFAIL(qPrintable(QStringLiteral("value %1: %2 split, %3 serial").arg(i).arg(split[i], 0, 'g', 17).arg(serial[i], 0, 'g', 17)));
    }
};

QTEST_GUILESS_MAIN(TestParallel)
#include "test_parallel.moc"
