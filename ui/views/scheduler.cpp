#include "ui/views/scheduler.h"

#include "core/parallel.h"
#include "ui/model/poolparallel.h"
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

bool sameHeatmapInputs(const SceneParams& a, const SceneParams& b) {
    return a.methods == b.methods && a.qFile == b.qFile && a.qk == b.qk && a.length == b.length && a.head == b.head && a.view.softmax == b.view.softmax &&
           a.view.causal == b.view.causal && a.view.colormap == b.view.colormap && a.view.colorLink == b.view.colorLink &&
           a.view.aggregate == b.view.aggregate && a.view.showDifference == b.view.showDifference && heatmapQueryWindow(a) == heatmapQueryWindow(b) &&
           heatmapKeyWindow(a) == heatmapKeyWindow(b) && a.view.heatmapSquareCells == b.view.heatmapSquareCells && a.mrope == b.mrope;
}
bool samePairsInputs(const SceneParams& a, const SceneParams& b) {
    return a.methods == b.methods && a.qFile == b.qFile && a.qk == b.qk && a.length == b.length && a.positions == b.positions && a.pairs == b.pairs &&
           a.head == b.head;
}
bool sameDecayInputs(const SceneParams& a, const SceneParams& b) {
    return a.methods == b.methods && a.qFile == b.qFile && a.qk == b.qk && a.head == b.head && a.view.causal == b.view.causal &&
           a.view.softmax == b.view.softmax && a.view.decayMaxDistance == b.view.decayMaxDistance &&
           a.view.decayLogX == b.view.decayLogX && a.view.decayLogY == b.view.decayLogY &&
           a.view.decayShowBound == b.view.decayShowBound && decayWindow(a) == decayWindow(b) && a.mrope == b.mrope &&
           (a.mrope.tokens.empty() || a.length == b.length);
}
bool sameFrequencyInputs(const SceneParams& a, const SceneParams& b) {
    return a.methods == b.methods && a.qFile == b.qFile && a.qk == b.qk && a.length == b.length && a.mrope == b.mrope;
}

bool sameContributionsInputs(const SceneParams& a, const SceneParams& b) {
    return sameDecayInputs(a, b) && a.length == b.length;
}

bool samePrecisionInputs(const SceneParams& a, const SceneParams& b) {
    // The score error heatmap follows the heatmap's softmax, causal mask and aggregate statistic.
    return a.methods == b.methods && a.qFile == b.qFile && a.qk == b.qk && a.length == b.length && a.pairs == b.pairs && a.head == b.head &&
           a.view.softmax == b.view.softmax && a.view.causal == b.view.causal && a.view.aggregate == b.view.aggregate;
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

// `image` scaled up to `size` without smoothing: each pixel a block of pixels (a whole number
// of them per pixel: copied, the 2 × 2 blocks of DPR 2 in a fraction of a millisecond; else
// QImage::scaled's nearest neighbour).
QImage pixelBlocks(const QImage& image, const QSize& size) {
    const int k = image.width() > 0 ? size.width() / image.width() : 0;
    if (k < 1 || image.format() != QImage::Format_RGB32 || size != image.size() * k)
        return image.scaled(size, Qt::IgnoreAspectRatio, Qt::FastTransformation);
    QImage out(size, QImage::Format_RGB32);
    const int w = image.width();
    for (int y = 0; y < image.height(); ++y) {
        const auto* s = reinterpret_cast<const quint32*>(image.constScanLine(y));
        auto* d = reinterpret_cast<quint32*>(out.scanLine(y * k));
        if (k == 2) {
            auto* d2 = reinterpret_cast<quint64*>(d);   // two pixels at once
            for (int x = 0; x < w; ++x) d2[x] = quint64(s[x]) * 0x100000001ull;
        } else {
            for (int x = 0; x < w; ++x) std::fill_n(d + std::size_t(x) * k, k, s[x]);
        }
        for (int i = 1; i < k; ++i) std::memcpy(out.scanLine(y * k + i), d, std::size_t(w) * k * sizeof(quint32));
    }
    return out;
}

// Draws a result with its renderer into a picture of the view's size (nothing for an empty size).
template <class Draw>
Picture drawPicture(const RenderSpec& render, QSize RenderSpec::*view, Draw draw) {
    const QSize logical = render.*view;
    if (logical.isEmpty()) return {};
    Picture pic;
    pic.resolution = drawnResolution(render);
    pic.image = QImage(pictureSize(logical, pic.resolution), QImage::Format_RGB32);
    pic.image.setDevicePixelRatio(pic.resolution);
    pic.theme = themeKey(render.theme);
    {
        QPainter p(&pic.image);
        draw(p, QRectF(QPointF(0, 0), QSizeF(logical)), render.theme);
    }
    if (pic.resolution != render.devicePixelRatio) {
        pic.image = pixelBlocks(pic.image, pictureSize(logical, render.devicePixelRatio));
        pic.image.setDevicePixelRatio(render.devicePixelRatio);
    }
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
    std::optional<PairsResult> pairs;
    std::optional<FrequencyResult> freqs;
    std::optional<DecayResult> decay;
    std::optional<HeatmapResult> heat;
    std::optional<ContributionsResult> contrib;
    std::optional<PrecisionResult> precision;
};

Scheduler::Scheduler(QObject* parent) : QObject(parent) {
    qRegisterMetaType<PairsResult>();
    qRegisterMetaType<HeatmapResult>();
    qRegisterMetaType<DecayResult>();
    qRegisterMetaType<FrequencyResult>();
    qRegisterMetaType<ContributionsResult>();
    qRegisterMetaType<PrecisionResult>();
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
    job.pairs = v.showPairs && (fresh || !last.view.showPairs || !samePairsInputs(scene, last) ||
                                ld.trailSamples != display_.trailSamples || ld.tableRows != display_.tableRows ||
                                ld.tableCols != display_.tableCols || ld.decaySamples != display_.decaySamples ||
                                !samePicture(lr, render_, &RenderSpec::pairs));
    job.heatmap = v.showHeatmap && (fresh || !last.view.showHeatmap || !sameHeatmapInputs(scene, last) ||
                                    ld.heatmapCells != display_.heatmapCells || !samePicture(lr, render_, &RenderSpec::heatmap));
    job.decay = v.showDecay && (fresh || !last.view.showDecay || !sameDecayInputs(scene, last) ||
                                ld.decaySamples != display_.decaySamples);
    job.frequencies = v.showFrequencies && (fresh || !last.view.showFrequencies || !sameFrequencyInputs(scene, last) ||
                                            !samePicture(lr, render_, &RenderSpec::frequencies));
    job.contributions = v.showContributions &&
                        (fresh || !last.view.showContributions || !sameContributionsInputs(scene, last) ||
                         ld.decaySamples != display_.decaySamples || !samePicture(lr, render_, &RenderSpec::contributions));
    job.precision = v.showPrecision &&
                    (fresh || !last.view.showPrecision || !samePrecisionInputs(scene, last) ||
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
    const auto add = [&](auto slot, double ViewTimes::*time, auto compute, QSize RenderSpec::*view, auto render) {
        tasks.emplace_back([run, slot, time, compute, view, render] {
            QElapsedTimer clock;
            clock.start();
            auto r = compute(run->job);
            r.generation = run->job.generation;
            if constexpr (requires { r.picture; })
                r.picture = drawPicture(run->job.render, view,
                                        [&](QPainter& p, const QRectF& rect, const Theme& t) { render(p, rect, r, t); });
            (*run).*slot = std::move(r);
            const std::lock_guard lock(run->mutex);
            run->viewMs.*time = double(clock.nsecsElapsed()) / 1e6;
        });
    };
    const auto noRender = [](QPainter&, const QRectF&, const DecayResult&, const Theme&) {};
    if (j.heatmap)
        add(&Running::heat, &ViewTimes::heatmap, [](const Job& x) { return computeHeatmap(x.scene, x.display); }, &RenderSpec::heatmap, renderHeatmap);
    if (j.pairs) add(&Running::pairs, &ViewTimes::pairs, [](const Job& x) { return computePairs(x.scene, x.display); }, &RenderSpec::pairs, renderPairs);
    if (j.decay) add(&Running::decay, &ViewTimes::decay, [](const Job& x) { return computeDecay(x.scene, x.display); }, nullptr, noRender);
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

void Scheduler::deliver(const std::shared_ptr<Running>& run) {
    // All views of a job are delivered together, so the window repaints them in one pass.
    QMetaObject::invokeMethod(
        this,
        [this, run] {
            const auto gen = run->job.generation;
            // A view's result only if it is newer than the last one delivered for that view.
            const auto deliverNewer = [this](const auto& result, std::uint64_t& delivered, auto signal) {
                if (!result || result->generation <= delivered) return;
                delivered = result->generation;
                Q_EMIT(this->*signal)(*result);
            };
            deliverNewer(run->pairs, deliveredPairs_, &Scheduler::pairsReady);
            deliverNewer(run->freqs, deliveredFrequencies_, &Scheduler::frequenciesReady);
            deliverNewer(run->decay, deliveredDecay_, &Scheduler::decayReady);
            deliverNewer(run->heat, deliveredHeatmap_, &Scheduler::heatmapReady);
            if (run->heat && run->heat->generation == deliveredHeatmap_ && deliveredHeatmap_ == heatmapRequested_) {
                const int sampled = sampledPanels(*run->heat);
                // Once the heatmap has rested for a moment (not between the edits of a drag,
                // where the refinement would take a worker from the next edit).
                if (sampled > 0 && run->job.display.heatmapRefineWork > run->job.display.heatmapWork)
                    QTimer::singleShot(kRefineDelayMs, this, [this, job = run->job, sampled] {
                        if (job.generation == deliveredHeatmap_ && job.generation == heatmapRequested_) refineHeatmap(job, sampled);
                    });
            }
            deliverNewer(run->contrib, deliveredContributions_, &Scheduler::contributionsReady);
            deliverNewer(run->precision, deliveredPrecision_, &Scheduler::precisionReady);
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
        r.picture = drawPicture(j->render, &RenderSpec::heatmap,
                                [&](QPainter& p, const QRectF& rect, const Theme& t) { renderHeatmap(p, rect, r, t); });
        QMetaObject::invokeMethod(
            this,
            [this, r = std::move(r)] {
                // Only over the samples of the same request, and only while no newer heatmap was
                // asked for.
                if (r.generation != deliveredHeatmap_ || r.generation != heatmapRequested_) return;
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
