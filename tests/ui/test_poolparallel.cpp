// The core's ParallelFor on a QThreadPool and on threads of its own (ui/model/poolparallel.h): every
// piece runs once, on the caller and the pool's (or the call's) threads; a call from a pool thread
// while the pool is full runs on the caller alone and returns (no wait for a thread that cannot
// start); an exception reaches the caller.
#include "core/parallel.h"
#include "ui/model/poolparallel.h"

#include <QThreadPool>
#include <QtTest>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>

using namespace poslab;
using namespace poslab::ui;

class TestPoolParallel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyPieceOnceOnTheCallerAndThePool_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("poolThreads");
        for (int n : {1, 2, 3, 200})
            for (int t : {1, 2, 4}) QTest::addRow("n%d_pool%d", n, t) << n << t;
    }
    void everyPieceOnceOnTheCallerAndThePool() {
        QFETCH(int, n);
        QFETCH(int, poolThreads);
        QThreadPool pool;
        pool.setMaxThreadCount(poolThreads);
        const ParallelFor pf = poolParallelFor(&pool, poolThreads);
        std::vector<int> hits(std::size_t(n), 0);
        std::set<std::thread::id> threads;
        std::mutex m;
        pf(std::size_t(n), [&](std::size_t b, std::size_t e) {
            if (n > 1) QThread::usleep(200);   // give the pool's threads a chance to take pieces
            const std::lock_guard lock(m);
            threads.insert(std::this_thread::get_id());
            for (std::size_t i = b; i < e; ++i) ++hits[i];
        });
        QVERIFY(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }));
        QVERIFY(int(threads.size()) <= poolThreads + 1);
        if (n == 200) QVERIFY2(threads.size() >= 2, "the pool's threads took no piece");
    }

    // From inside a task of a pool whose every thread is busy: the caller does every piece and
    // returns at once; the helpers it queued are taken back, not waited for.
    void fullPoolRunsOnTheCaller() {
        QThreadPool pool;
        pool.setMaxThreadCount(1);
        std::atomic<int> pieces{0};
        std::atomic<bool> done{false};
        std::set<std::thread::id> threads;
        std::mutex m;
        pool.start([&] {
            const ParallelFor more = poolParallelFor(&pool, 3);   // three helpers that cannot start
            more(50, [&](std::size_t b, std::size_t e) {
                const std::lock_guard lock(m);
                threads.insert(std::this_thread::get_id());
                pieces += int(e - b);
            });
            done = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(done.load(), 5000);
        QCOMPARE(pieces.load(), 50);
        QCOMPARE(threads.size(), std::size_t(1));
        QVERIFY(pool.waitForDone(5000));
    }

    // The command line's: threads started for the call, every piece once, at most `threads`.
    void threadsForEveryPieceOnce_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("threads");
        for (int n : {1, 2, 200})
            for (int t : {1, 2, 4}) QTest::addRow("n%d_threads%d", n, t) << n << t;
    }
    void threadsForEveryPieceOnce() {
        QFETCH(int, n);
        QFETCH(int, threads);
        std::vector<int> hits(std::size_t(n), 0);
        std::set<std::thread::id> ids;
        std::mutex m;
        threadsParallelFor(unsigned(threads))(std::size_t(n), [&](std::size_t b, std::size_t e) {
            const std::lock_guard lock(m);
            ids.insert(std::this_thread::get_id());
            for (std::size_t i = b; i < e; ++i) ++hits[i];
        });
        QVERIFY(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }));
        QVERIFY(int(ids.size()) <= std::min(n, threads));
    }

    void exceptionReachesTheCaller() {
        QThreadPool pool;
        pool.setMaxThreadCount(2);
        bool thrown = false;
        try {
            poolParallelFor(&pool, 2)(10, [](std::size_t b, std::size_t) {
                if (b == 7) throw std::runtime_error("piece 7");
            });
        } catch (const std::runtime_error& e) {
            thrown = QByteArray(e.what()) == "piece 7";
        }
        QVERIFY(thrown);
    }
};

QTEST_GUILESS_MAIN(TestPoolParallel)
#include "test_poolparallel.moc"
