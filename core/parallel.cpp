#include "core/parallel.h"

#include <utility>

namespace poslab {

namespace {
thread_local const ParallelFor* current = nullptr;
}  // namespace

void serialFor(std::size_t n, const ParallelBody& body) {
    if (n > 0) body(0, n);
}

void parallelFor(std::size_t n, const ParallelBody& body) {
    if (n == 0) return;
    if (current && *current && n > 1) (*current)(n, body);
    else body(0, n);
}

ParallelScope::ParallelScope(ParallelFor f) : f_(std::move(f)), previous_(current) { current = &f_; }

ParallelScope::~ParallelScope() { current = previous_; }

}  // namespace poslab
