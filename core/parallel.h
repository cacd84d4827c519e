#pragma once
// Where the core's parallel work runs: on threads the caller provides. The core starts no thread
// of its own. A long computation (a decay sweep, the blocks of a heatmap, the rows of a summary)
// cuts its work into pieces that do not depend on the threads and hands them to parallelFor(),
// which runs them with the ParallelFor the caller installed on this thread — the window's
// Scheduler pool around each view's task, the command line's pool around a command — or, by
// default, one after another on the calling thread. The pieces write disjoint results, so every
// result is the same bit for bit whichever ParallelFor runs them.
#include <cstddef>
#include <functional>

namespace poslab {

// Runs body(begin, end) over disjoint ranges that together cover [0, n), on the calling thread
// and perhaps others, and returns once every range is done. An exception thrown by a range is
// rethrown on the calling thread (the first one, after the others have finished).
using ParallelBody = std::function<void(std::size_t begin, std::size_t end)>;
using ParallelFor = std::function<void(std::size_t n, const ParallelBody& body)>;

// The serial ParallelFor: body(0, n) on the calling thread.
void serialFor(std::size_t n, const ParallelBody& body);

// Runs body with the ParallelFor in effect on this thread: the innermost ParallelScope's, else
// serialFor. What runs inside body on other threads sees serialFor (no nested pools).
void parallelFor(std::size_t n, const ParallelBody& body);

// Installs a ParallelFor for the core's work on this thread while it lives; scopes nest.
class ParallelScope {
public:
    explicit ParallelScope(ParallelFor f);
    ~ParallelScope();
    ParallelScope(const ParallelScope&) = delete;
    ParallelScope& operator=(const ParallelScope&) = delete;

private:
    ParallelFor f_;
    const ParallelFor* previous_;
};

}  // namespace poslab
