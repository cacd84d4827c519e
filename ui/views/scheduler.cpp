#include "ui/views/scheduler.h"

#include "core/parallel.h"
#include "ui/model/poolparallel.h"
#include "ui/render/decayrenderer.h"
#include "ui/render/contributionsrenderer.h"
#include "ui/render/precisionrenderer.h"
#include "ui/render/frequencyrenderer.h"
#include "ui/render/heatmaprenderer.h"
#include "ui/render/pairsrenderer.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QMetaObject>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <ctime>
#include <functional>
#include <mutex>

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

// The resolution the renderers draw at: the device pixel ratio, or 1 (RenderSpec::logical).
double drawnResolution(const RenderSpec& r) { return r.logical ? 1.0 : r.devicePixelRatio; }

// Whether a view's picture would differ: its size, the device pixel ratio, the resolution it is
// drawn at or the theme.
bool samePicture(const RenderSpec& a, const RenderSpec& b, QSize RenderSpec::*view) {
    return a.*view == b.*view && (a.*view).isEmpty() == (b.*view).isEmpty() &&
           ((a.*view).isEmpty() || (a.devicePixelRatio == b.devicePixelRatio && drawnResolution(a) == drawnResolution(b) &&
                                    themeKey(a.theme) == themeKey(b.theme)));
}

}  // namespace

// Images of pictures drawn before, kept for drawing again once no view shows them any more (the
// pool holds the only reference). Every renderer paints its whole rectangle, so what an image
// held before does not show. Thread-safe: the workers take and keep, the GUI thread releases.
class Scheduler::PicturePool {
public:
    // An image of `size` (Format_RGB32) that nothing else refers to: one kept before, or a new one.
    QImage take(const QSize& size) {
        {
            const std::lock_guard lock(mutex_);
            for (auto it = images_.begin(); it != images_.end(); ++it)
                if (it->size() == size && it->isDetached()) {
                    QImage image = std::move(*it);
                    images_.erase(it);
                    return image;
                }
        }
        return QImage(size, QImage::Format_RGB32);
    }
    // Keeps a reference to a picture's image for drawing again once its view lets go of it.
    void keep(const QImage& image) {
        const std::lock_guard lock(mutex_);
        images_.push_back(image);
        // A few per view (the one on screen, one in flight, one free); the oldest unused go first.
        while (images_.size() > kMaxImages) {
            auto unused = std::find_if(images_.begin(), images_.end(), [](const QImage& i) { return i.isDetached(); });
            images_.erase(unused != images_.end() ? unused : images_.begin());
        }
    }

private:
    static constexpr std::size_t kMaxImages = 16;
    std::mutex mutex_;
    std::vector<QImage> images_;
};

namespace {

// Draws a result with its renderer into a picture of the view's size (nothing for an empty size).
template <class Pool, class Draw>
Picture drawPicture(Pool& pool, const RenderSpec& render, QSize RenderSpec::*view, Draw draw) {
    const QSize logical = render.*view;
    if (logical.isEmpty()) return {};
    Picture pic;
    pic.resolution = drawnResolution(render);
    pic.image = pool.take(pictureSize(logical, pic.resolution));
    pic.image.setDevicePixelRatio(pic.resolution);
    pic.theme = themeKey(render.theme);
    {
        QPainter p(&pic.image);
        draw(p, QRectF(QPointF(0, 0), QSizeF(logical)), render.theme);
    }
    pool.keep(pic.image);
    // At logical resolution (while edits stream) the picture stays a quarter of the device's
    // pixels at DPR 2: the view enlarges it as it copies it (ViewBase::paintEvent, copyEnlarged),
    // reading a quarter of the pixels it writes (enlarging them here instead was measured: the
    // GUI thread's unscaled copy of four times the pixels cost as much as QPainter's scaled one,
    // and the workers paid the enlarging on top; perf, 2026-11-27).
    return pic;
}

// How long a sampled heatmap rests on screen before its refinement starts.
constexpr int kRefineDelayMs = 150;

// Panels showing samples: sampled cells, or a sink strip of one query per aggregated block.
int sampledPanels(const HeatmapResult& r) {
    return static_cast<int>(std::count_if(r.panels.begin(), r.panels.end(),
                                          [](const HeatmapPanel& p) { return p.cells == HeatmapCells::Sample || p.sinkSampled; }));
}

}  // namespace

// A job in flight: its tasks fill in the results; the last task to finish delivers them.
struct Scheduler::Running {
    Job job;
    QElapsedTimer clock;
    std::atomic<int> remaining{0};
    std::mutex mutex;   // guards cpuMs and viewMs
    double cpuMs = 0;
    ViewTimes viewMs;
    Shared<PairsResult> pairs;
    Shared<FrequencyResult> freqs;
    Shared<DecayResult> decay;
    Shared<HeatmapResult> heat;
    Shared<ContributionsResult> contrib;
    Shared<PrecisionResult> precision;
};

Scheduler::Scheduler(QObject* parent) : QObject(parent), pictures_(std::make_unique<PicturePool>()) {
    // The views of a job in parallel, without crowding out the GUI thread on a small machine.
    pool_.setMaxThreadCount(std::clamp(QThread::idealThreadCount(), 2, 4));
    pool_.setExpiryTimeout(-1);
}

Scheduler::~Scheduler() {
    pending_.reset();
    pool_.waitForDone();
}

std::uint64_t Scheduler::request(const SceneParams& scene) {
    Job job;
    job.generation = ++generation_;
    job.scene = scene;
    job.display = display_;
    const auto& v = scene.view;
    job.render = render_;
    const bool fresh = !lastScene_ || !lastDisplay_ || !lastRender_;
    const SceneParams& last = fresh ? scene : *lastScene_;
    const auto& ld = fresh ? display_ : *lastDisplay_;
    const auto& lr = fresh ? render_ : *lastRender_;
    job.pairs = v.showPairs && (fresh || !last.view.showPairs || !sameViewInputs(ViewKind::Pairs, scene, last) ||
                                ld.trailSamples != display_.trailSamples || ld.tableRows != display_.tableRows ||
                                ld.tableCols != display_.tableCols || ld.decaySamples != display_.decaySamples ||
                                !samePicture(lr, render_, &RenderSpec::pairs));
    job.heatmap = v.showHeatmap && (fresh || !last.view.showHeatmap || !sameViewInputs(ViewKind::Heatmap, scene, last) ||
                                    ld.heatmapCells != display_.heatmapCells || !samePicture(lr, render_, &RenderSpec::heatmap));
    job.decay = v.showDecay && (fresh || !last.view.showDecay || !sameViewInputs(ViewKind::Decay, scene, last) ||
                                ld.decaySamples != display_.decaySamples || !samePicture(lr, render_, &RenderSpec::decay));
    job.frequencies = v.showFrequencies && (fresh || !last.view.showFrequencies || !sameViewInputs(ViewKind::Frequencies, scene, last) ||
                                            !samePicture(lr, render_, &RenderSpec::frequencies));
    job.contributions = v.showContributions &&
                        (fresh || !last.view.showContributions || !sameViewInputs(ViewKind::Contributions, scene, last) ||
                         ld.decaySamples != display_.decaySamples || !samePicture(lr, render_, &RenderSpec::contributions));
    job.precision = v.showPrecision &&
                    (fresh || !last.view.showPrecision || !sameViewInputs(ViewKind::Precision, scene, last) ||
                     ld.decaySamples != display_.decaySamples || ld.precisionCells != display_.precisionCells ||
                     !samePicture(lr, render_, &RenderSpec::precision));
    lastScene_ = scene;
    lastDisplay_ = display_;
    lastRender_ = render_;
    if (job.heatmap) heatmapRequested_ = job.generation;
    if (running_) {
        // Merge with a pending job that has not started: its views must still be computed.
        if (pending_) {
            job.pairs = job.pairs || (pending_->pairs && v.showPairs);
            job.heatmap = job.heatmap || (pending_->heatmap && v.showHeatmap);
            job.decay = job.decay || (pending_->decay && v.showDecay);
            job.frequencies = job.frequencies || (pending_->frequencies && v.showFrequencies);
            job.contributions = job.contributions || (pending_->contributions && v.showContributions);
            job.precision = job.precision || (pending_->precision && v.showPrecision);
        }
        pending_ = std::move(job);
    } else {
        start(std::move(job));
    }
    return generation_;
}

void Scheduler::setRender(const RenderSpec& render) { setOutput(render, display_); }

void Scheduler::setDisplay(const DisplaySpec& display) { setOutput(render_, display); }

void Scheduler::setOutput(const RenderSpec& render, const DisplaySpec& display, bool recompute) {
    const bool same = samePicture(render, render_, &RenderSpec::pairs) && samePicture(render, render_, &RenderSpec::heatmap) &&
                      samePicture(render, render_, &RenderSpec::decay) &&
                      samePicture(render, render_, &RenderSpec::frequencies) &&
                      samePicture(render, render_, &RenderSpec::contributions) &&
                      samePicture(render, render_, &RenderSpec::precision) && display == display_;
    render_ = render;
    display_ = display;
    if (!same && recompute && lastScene_) request(*lastScene_);
}

void Scheduler::start(Job job) {
    running_ = true;
    auto run = std::make_shared<Running>();
    run->job = std::move(job);
    run->clock.start();
    const Job& j = run->job;
    // One task per view, the heaviest first (the pool starts them in this order): compute the
    // result, then (for the views that have a picture size) draw it with the view's renderer.
    std::vector<std::function<void()>> tasks;
    // Each view is handed to the GUI thread as soon as its task is done, so that the window
    // paints the quick views while the slow ones are still being computed (the GUI thread's
    // work overlaps the workers' instead of following it).
    const auto add = [&](auto slot, double ViewTimes::*time, auto compute, QSize RenderSpec::*view, auto render) {
        tasks.emplace_back([this, run, slot, time, compute, view, render] {
            QElapsedTimer clock;
            clock.start();
            auto r = compute(run->job);
            r.generation = run->job.generation;
            if constexpr (requires { r.picture; })
                r.picture = drawPicture(*pictures_, run->job.render, view,
                                        [&](QPainter& p, const QRectF& rect, const Theme& t) { render(p, rect, r, t); });
            (*run).*slot = std::make_shared<const decltype(r)>(std::move(r));
            {
                const std::lock_guard lock(run->mutex);
                run->viewMs.*time = double(clock.nsecsElapsed()) / 1e6;
            }
            QMetaObject::invokeMethod(this, [this, run, slot] { deliverView(*run, (*run).*slot); }, Qt::QueuedConnection);
        });
    };
    if (j.heatmap)
        add(&Running::heat, &ViewTimes::heatmap, [](const Job& x) { return computeHeatmap(x.scene, x.display); }, &RenderSpec::heatmap, renderHeatmap);
    if (j.pairs) add(&Running::pairs, &ViewTimes::pairs, [](const Job& x) { return computePairs(x.scene, x.display); }, &RenderSpec::pairs, renderPairs);
    if (j.decay) add(&Running::decay, &ViewTimes::decay, [](const Job& x) { return computeDecay(x.scene, x.display); }, &RenderSpec::decay, renderDecay);
    if (j.frequencies)
        add(&Running::freqs, &ViewTimes::frequencies, [](const Job& x) { return computeFrequencies(x.scene); }, &RenderSpec::frequencies, renderFrequencies);
    if (j.contributions)
        add(&Running::contrib, &ViewTimes::contributions, [](const Job& x) { return computeContributions(x.scene, x.display); },
            &RenderSpec::contributions, renderContributions);
    if (j.precision)
        add(&Running::precision, &ViewTimes::precision, [](const Job& x) { return computePrecision(x.scene, x.display); },
            &RenderSpec::precision, renderPrecision);
    if (tasks.empty()) {
        deliver(run);
        return;
    }
    run->remaining = static_cast<int>(tasks.size());
    for (auto& task : tasks)
        pool_.start([this, run, task = std::move(task)] {
            const double cpu0 = threadCpuMs();
            {
                // The core's parallel work of the task on this pool too (core/parallel.h).
                const ParallelScope parallel(poolParallelFor(&pool_));
                task();
            }
            {
                const std::lock_guard lock(run->mutex);
                run->cpuMs += threadCpuMs() - cpu0;
            }
            if (--run->remaining == 0) deliver(run);
        });
}

void Scheduler::deliverView(const Running&, const Shared<PairsResult>& r) { deliverNewer(r, deliveredPairs_, &Scheduler::pairsReady); }
void Scheduler::deliverView(const Running&, const Shared<FrequencyResult>& r) {
    deliverNewer(r, deliveredFrequencies_, &Scheduler::frequenciesReady);
}
void Scheduler::deliverView(const Running&, const Shared<DecayResult>& r) { deliverNewer(r, deliveredDecay_, &Scheduler::decayReady); }
void Scheduler::deliverView(const Running&, const Shared<ContributionsResult>& r) {
    deliverNewer(r, deliveredContributions_, &Scheduler::contributionsReady);
}
void Scheduler::deliverView(const Running&, const Shared<PrecisionResult>& r) {
    deliverNewer(r, deliveredPrecision_, &Scheduler::precisionReady);
}
void Scheduler::deliverView(const Running& run, const Shared<HeatmapResult>& r) {
    deliverNewer(r, deliveredHeatmap_, &Scheduler::heatmapReady);
    if (r && r->generation == deliveredHeatmap_ && deliveredHeatmap_ == heatmapRequested_) {
        const int sampled = sampledPanels(*r);
        // Once the heatmap has rested for a moment (not between the edits of a drag, where the
        // refinement would take a worker from the next edit).
        if (sampled > 0 && run.job.display.heatmapRefineWork > run.job.display.heatmapWork)
            QTimer::singleShot(kRefineDelayMs, this, [this, job = run.job, sampled] {
                if (job.generation == deliveredHeatmap_ && job.generation == heatmapRequested_) refineHeatmap(job, sampled);
            });
    }
}

void Scheduler::deliver(const std::shared_ptr<Running>& run) {
    // Every view was handed over as its task finished (posted before this); the job ends here.
    QMetaObject::invokeMethod(
        this,
        [this, run] {
            const auto gen = run->job.generation;
            lastComputeMs_ = double(run->clock.nsecsElapsed()) / 1e6;
            {
                const std::lock_guard lock(run->mutex);
                lastComputeCpuMs_ = run->cpuMs;
                lastViewMs_ = run->viewMs;
            }
            finishJob(gen);
        },
        Qt::QueuedConnection);
}

void Scheduler::refineHeatmap(const Job& job, int coarseSampled) {
    auto j = std::make_shared<Job>(job);
    pool_.start([this, j, coarseSampled] {
        DisplaySpec d = j->display;
        d.heatmapWork = d.heatmapRefineWork;
        const ParallelScope parallel(poolParallelFor(&pool_));
        HeatmapResult r = computeHeatmap(j->scene, d);
        // Nothing gained (still sampled within the larger budget): keep the samples on screen.
        if (sampledPanels(r) >= coarseSampled) return;
        r.generation = j->generation;
        r.picture = drawPicture(*pictures_, j->render, &RenderSpec::heatmap,
                                [&](QPainter& p, const QRectF& rect, const Theme& t) { renderHeatmap(p, rect, r, t); });
        QMetaObject::invokeMethod(
            this,
            [this, r = Shared<HeatmapResult>(std::make_shared<const HeatmapResult>(std::move(r)))] {
                // Only over the samples of the same request, and only while no newer heatmap was
                // asked for.
                if (r->generation != deliveredHeatmap_ || r->generation != heatmapRequested_) return;
                Q_EMIT heatmapReady(r);
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
