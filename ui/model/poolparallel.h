#pragma once
// The core's ParallelFor (core/parallel.h) on the caller's threads. The window's Scheduler passes
// its QThreadPool (poolParallelFor); the command line, whose commands run one computation at a
// time, threads started for each call (threadsParallelFor: a persistent pool made glibc return and
// fault in the memory of every block again, 12 % slower on `compute scores --summary`).
//
// poolParallelFor: the calling thread takes part: it claims pieces like
// the pool's threads, and a helper the pool has not started by the time every piece is claimed
// is taken back from the queue (QThreadPool::tryTake), so a call from one of the pool's own
// threads, with every other thread busy, runs on the caller alone and never waits for the pool.
#include "core/parallel.h"

class QThreadPool;

namespace poslab::ui {

// Runs the pieces [i, i + 1) of [0, n) on the calling thread and at most `helpers` threads of
// `pool` (by default, as many as the pool may run besides the caller).
ParallelFor poolParallelFor(QThreadPool* pool, int helpers = -1);

// Runs the pieces [i, i + 1) of [0, n) on the calling thread and threads − 1 threads started for
// the call (at most n in all).
ParallelFor threadsParallelFor(unsigned threads);

}  // namespace poslab::ui
