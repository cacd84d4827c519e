#include "ui/scheduler.h"

#include <QCoreApplication>
#include <QFuture>
#include <QtConcurrent/QtConcurrentRun>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QMetaObject>
#include <QThread>
#include <QTimer>

#include <ctime>

namespace poslab::ui {

namespace {

// CPU time of the calling thread in milliseconds (what the work costs, whatever the machine's load).
double threadCpuMs() {
#if defined(CLOCK_THREAD_CPUTIME_ID)
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
#else
    return 0.0;
#endif
}

bool sameHeatmapInputs(const SceneParams& a, const SceneParams& b) {
    return a.methods == b.methods && a.length == b.length && a.head == b.head && a.view.softmax == b.view.softmax &&
           a.view.causal == b.view.causal && a.view.colormap == b.view.colormap &&
           a.view.showDifference == b.view.showDifference;
}
bool samePairsInputs(const SceneParams& a, const SceneParams& b) {
    return a.methods == b.methods && a.length == b.length && a.positions == b.positions && a.pairs == b.pairs &&
           a.head == b.head;
}
bool sameDecayInputs(const SceneParams& a, const SceneParams& b) {
    return a.methods == b.methods && a.head == b.head && a.view.causal == b.view.causal &&
           a.view.softmax == b.view.softmax && a.view.decayMaxDistance == b.view.decayMaxDistance &&
           a.view.decayLogX == b.view.decayLogX && a.view.decayLogY == b.view.decayLogY &&
           a.view.decayShowBound == b.view.decayShowBound;
}
bool sameFrequencyInputs(const SceneParams& a, const SceneParams& b) {
    return a.methods == b.methods && a.length == b.length;
}

}  // namespace

Scheduler::Scheduler(QObject* parent) : QObject(parent) {
    qRegisterMetaType<PairsResult>();
    qRegisterMetaType<HeatmapResult>();
    qRegisterMetaType<DecayResult>();
    qRegisterMetaType<FrequencyResult>();
    pool_.setMaxThreadCount(1);
    pool_.setExpiryTimeout(-1);
    heatPool_.setMaxThreadCount(1);
    heatPool_.setExpiryTimeout(-1);
}

Scheduler::~Scheduler() {
    pending_.reset();
    pool_.waitForDone();
    heatPool_.waitForDone();
}

std::uint64_t Scheduler::request(const SceneParams& scene) {
    Job job;
    job.generation = ++generation_;
    job.scene = scene;
    job.display = display_;
    const auto& v = scene.view;
    const bool fresh = !lastScene_ || !lastDisplay_;
    const SceneParams& last = fresh ? scene : *lastScene_;
    const auto& ld = fresh ? display_ : *lastDisplay_;
    job.pairs = v.showPairs && (fresh || !last.view.showPairs || !samePairsInputs(scene, last) ||
                                ld.trailSamples != display_.trailSamples || ld.tableRows != display_.tableRows ||
                                ld.tableCols != display_.tableCols || ld.decaySamples != display_.decaySamples);
    job.heatmap = v.showHeatmap && (fresh || !last.view.showHeatmap || !sameHeatmapInputs(scene, last) ||
                                    ld.heatmapCells != display_.heatmapCells);
    job.decay = v.showDecay && (fresh || !last.view.showDecay || !sameDecayInputs(scene, last) ||
                                ld.decaySamples != display_.decaySamples);
    job.frequencies = v.showFrequencies && (fresh || !last.view.showFrequencies || !sameFrequencyInputs(scene, last));
    lastScene_ = scene;
    lastDisplay_ = display_;
    if (running_) {
        // Merge with a pending job that has not started: its views must still be computed.
        if (pending_) {
            job.pairs = job.pairs || (pending_->pairs && v.showPairs);
            job.heatmap = job.heatmap || (pending_->heatmap && v.showHeatmap);
            job.decay = job.decay || (pending_->decay && v.showDecay);
            job.frequencies = job.frequencies || (pending_->frequencies && v.showFrequencies);
        }
        pending_ = std::move(job);
    } else {
        start(std::move(job));
    }
    return generation_;
}

void Scheduler::setDisplay(const DisplaySpec& display) {
    if (display == display_) return;
    display_ = display;
    if (lastScene_) request(*lastScene_);
}

void Scheduler::start(Job job) {
    running_ = true;
    pool_.start([this, job = std::move(job)]() {
        const auto gen = job.generation;
        QElapsedTimer clock;
        clock.start();
        const double cpu0 = threadCpuMs();
        // All views of a job are delivered together, so the window repaints them in one pass.
        std::optional<PairsResult> pairs;
        std::optional<FrequencyResult> freqs;
        std::optional<DecayResult> decay;
        std::optional<HeatmapResult> heat;
        // The heatmap (the heaviest view) runs on a second thread while this one computes the others.
        QFuture<HeatmapResult> heatFuture;
        double heatCpuMs = 0;
        if (job.heatmap)
            heatFuture = QtConcurrent::run(&heatPool_, [&job, &heatCpuMs] {
                const double c0 = threadCpuMs();
                HeatmapResult r = computeHeatmap(job.scene, job.display);
                heatCpuMs = threadCpuMs() - c0;
                return r;
            });
        if (job.pairs) {
            pairs = computePairs(job.scene, job.display);
            pairs->generation = gen;
        }
        if (job.frequencies) {
            freqs = computeFrequencies(job.scene);
            freqs->generation = gen;
        }
        if (job.decay) {
            decay = computeDecay(job.scene, job.display);
            decay->generation = gen;
        }
        if (job.heatmap) {
            heat = heatFuture.result();
            heat->generation = gen;
        }
        const double computeMs = double(clock.nsecsElapsed()) / 1e6;
        const double computeCpuMs = threadCpuMs() - cpu0 + heatCpuMs;
        QMetaObject::invokeMethod(
            this,
            [this, gen, computeMs, computeCpuMs, pairs = std::move(pairs), freqs = std::move(freqs), decay = std::move(decay),
             heat = std::move(heat)]() {
                if (pairs && pairs->generation > deliveredPairs_) {
                    deliveredPairs_ = pairs->generation;
                    Q_EMIT pairsReady(*pairs);
                }
                if (freqs && freqs->generation > deliveredFrequencies_) {
                    deliveredFrequencies_ = freqs->generation;
                    Q_EMIT frequenciesReady(*freqs);
                }
                if (decay && decay->generation > deliveredDecay_) {
                    deliveredDecay_ = decay->generation;
                    Q_EMIT decayReady(*decay);
                }
                if (heat && heat->generation > deliveredHeatmap_) {
                    deliveredHeatmap_ = heat->generation;
                    Q_EMIT heatmapReady(*heat);
                }
                lastComputeMs_ = computeMs;
                lastComputeCpuMs_ = computeCpuMs;
                finishJob(gen);
            },
            Qt::QueuedConnection);
    });
}

void Scheduler::finishJob(std::uint64_t generation) {
    running_ = false;
    Q_EMIT jobFinished(generation);
    if (pending_) {
        Job next = std::move(*pending_);
        pending_.reset();
        start(std::move(next));
    } else {
        Q_EMIT idle();
    }
}

bool Scheduler::waitIdle(int timeoutMs) {
    QElapsedTimer t;
    t.start();
    while ((running_ || pending_) && t.elapsed() < timeoutMs) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        if (running_ || pending_) QThread::msleep(1);
    }
    QCoreApplication::processEvents();
    return !running_ && !pending_;
}

}  // namespace poslab::ui
