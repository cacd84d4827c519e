#pragma once
// A ParallelFor (core/parallel.h) on plain threads, for the core's tests, which link no pool:
// the calling thread and `threads` − 1 others claim the pieces [i, i + 1) of [0, n) in turn, so
// a split computation really runs on several threads and its result can be compared, bit for bit,
// with the serial one. (The product passes a pool: ui/model/poolparallel.h.)
#include "core/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace testsupport {

inline poslab::ParallelFor threadsParallelFor(unsigned threads) {
    return [threads](std::size_t n, const poslab::ParallelBody& body) {
        std::atomic<std::size_t> next{0};
        std::mutex mutex;
        std::exception_ptr error;
        const auto work = [&] {
            for (std::size_t i = next++; i < n; i = next++) {
                try {
                    body(i, i + 1);
                } catch (...) {
                    const std::lock_guard lock(mutex);
                    if (!error) error = std::current_exception();
                }
            }
        };
        std::vector<std::thread> others;
        for (unsigned t = 1; t < std::min<std::size_t>(threads, n); ++t) others.emplace_back(work);
        work();
        for (auto& t : others) t.join();
        if (error) std::rethrow_exception(error);
    };
}

}  // namespace testsupport
