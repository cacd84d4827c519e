#include "ui/model/poolparallel.h"

#include <QRunnable>
#include <QSemaphore>
#include <QThreadPool>

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace poslab::ui {

namespace {

// What the caller and its helpers share for one call.
struct Pieces {
    std::size_t n = 0;
    const ParallelBody* body = nullptr;
    std::atomic<std::size_t> next{0};
    std::mutex mutex;
    std::exception_ptr error;

    // Claims pieces until none is left; the first exception is kept for the caller.
    void work() {
        for (std::size_t i = next++; i < n; i = next++) {
            try {
                (*body)(i, i + 1);
            } catch (...) {
                const std::lock_guard lock(mutex);
                if (!error) error = std::current_exception();
            }
        }
    }
};

class Helper : public QRunnable {
public:
    explicit Helper(Pieces& pieces) : pieces_(pieces) { setAutoDelete(false); }
    void run() override {
        pieces_.work();
        done_.release();
    }
    void wait() { done_.acquire(); }

private:
    Pieces& pieces_;
    QSemaphore done_;
};

}  // namespace

ParallelFor poolParallelFor(QThreadPool* pool, int helpers) {
    return [pool, helpers](std::size_t n, const ParallelBody& body) {
        const int most = helpers >= 0 ? helpers : std::max(0, pool->maxThreadCount() - 1);
        const std::size_t count = std::min<std::size_t>(n - std::min<std::size_t>(n, 1), std::size_t(most));
        if (count == 0) {
            body(0, n);
            return;
        }
        Pieces pieces;
        pieces.n = n;
        pieces.body = &body;
        std::vector<std::unique_ptr<Helper>> started;
        for (std::size_t h = 0; h < count; ++h) {
            started.push_back(std::make_unique<Helper>(pieces));
            pool->start(started.back().get());
        }
        pieces.work();
        // A helper still queued has nothing left to do: take it back; wait for the running ones.
        for (auto& h : started)
            if (!pool->tryTake(h.get())) h->wait();
        if (pieces.error) std::rethrow_exception(pieces.error);
    };
}

ParallelFor threadsParallelFor(unsigned threads) {
    return [threads](std::size_t n, const ParallelBody& body) {
        Pieces pieces;
        pieces.n = n;
        pieces.body = &body;
        std::vector<std::thread> others;
        for (std::size_t t = 1; t < std::min<std::size_t>(n, threads); ++t) others.emplace_back([&pieces] { pieces.work(); });
        pieces.work();
        for (auto& t : others) t.join();
        if (pieces.error) std::rethrow_exception(pieces.error);
    };
}

}  // namespace poslab::ui
