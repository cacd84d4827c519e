#pragma once
// Scheduler: runs the view computations (compute.h) off the GUI thread, so the GUI thread never
// waits for the core or for drawing. One job at a time; within a job each view is a task of its
// own on a small pool (the heatmap, the pair vectors, the decay and the frequencies in parallel).
// When asked (setRender), a task also draws its result with the view's renderer into a Picture at
// the view's size and theme, so the view only copies pixels.
// Each view's result reaches the GUI thread as soon as its task is done (the quick views are
// painted while the slow ones compute); the job ends when all have.
// Newest wins: while a job runs, later requests replace each other and only the last one is
// computed next. Each request gets a generation number; a view's result is delivered (on the GUI
// thread, as a value) only if it is newer than the last one delivered for that view, so a
// superseded result can never overwrite a newer picture. Views whose inputs did not change since
// the last computed request are not recomputed (dragging the decay range does not recompute the
// heatmap); a view's size and theme are inputs of its picture.
// Progressive refinement: where the heatmap had to sample some panel within the display's work
// budget (its subtitle says "samples"), the scheduler delivers that first and then, once no newer
// heatmap was asked for within 150 ms, computes it again on a worker with
// DisplaySpec::heatmapRefineWork; the exact blocks replace the
// samples (heatmapReady again, same generation) unless a newer heatmap was asked for meanwhile.
#include "ui/model/compute.h"
#include "ui/render/theme.h"

#include <QObject>
#include <QThreadPool>

#include <atomic>
#include <memory>
#include <optional>

namespace poslab::ui {

// What the views look like, for the pictures the workers draw: each view's size in logical
// pixels (empty: no picture for that view), the device pixel ratio and the theme.
// `logical`: the renderers draw at logical resolution (pixel ratio 1) and each pixel becomes a
// block of device pixels (a quarter of the drawing at DPR 2; while edits stream, MainWindow).
struct RenderSpec {
    QSize pairs, heatmap, decay, frequencies, contributions, precision;
    double devicePixelRatio = 1.0;
    bool logical = false;
    Theme theme;
};

class Scheduler : public QObject {
    Q_OBJECT
public:
    explicit Scheduler(QObject* parent = nullptr);
    ~Scheduler() override;

    // Asks for every visible view of `scene`; returns the request's generation.
    std::uint64_t request(const SceneParams& scene);
    // Display resolution of the views; a change recomputes the last scene.
    void setDisplay(const DisplaySpec& display);
    const DisplaySpec& display() const { return display_; }
    // Sizes and theme of the views' pictures; a change recomputes the views it concerns (with
    // the last scene).
    void setRender(const RenderSpec& render);
    const RenderSpec& render() const { return render_; }
    // Both at once: one recomputation of the last scene for whatever changed (none when
    // `recompute` is false: the caller's next request() picks the change up).
    void setOutput(const RenderSpec& render, const DisplaySpec& display, bool recompute = true);

    std::uint64_t latestGeneration() const { return generation_; }
    // Worker time of the last finished job, in milliseconds (all its views).
    double lastComputeMs() const { return lastComputeMs_; }
    // CPU time the worker threads spent on it (independent of other processes' load).
    double lastComputeCpuMs() const { return lastComputeCpuMs_; }
    // Per view of the last finished job: the task's wall time in milliseconds (0: not computed).
    struct ViewTimes {
        double pairs = 0, heatmap = 0, decay = 0, frequencies = 0, contributions = 0, precision = 0;
    };
    const ViewTimes& lastViewMs() const { return lastViewMs_; }
    bool busy() const { return running_; }
    // Blocks (processing events) until idle or `timeoutMs` passes; for tests and export.
    bool waitIdle(int timeoutMs = 10000);

Q_SIGNALS:
    void pairsReady(const poslab::ui::Shared<poslab::ui::PairsResult>& result);
    void heatmapReady(const poslab::ui::Shared<poslab::ui::HeatmapResult>& result);
    void decayReady(const poslab::ui::Shared<poslab::ui::DecayResult>& result);
    void frequenciesReady(const poslab::ui::Shared<poslab::ui::FrequencyResult>& result);
    void contributionsReady(const poslab::ui::Shared<poslab::ui::ContributionsResult>& result);
    void precisionReady(const poslab::ui::Shared<poslab::ui::PrecisionResult>& result);
    // A job finished (all of its views delivered or dropped).
    void jobFinished(std::uint64_t generation);
    // The scheduler has nothing running and nothing pending.
    void idle();

private:
    struct Job {
        std::uint64_t generation = 0;
        SceneParams scene;
        DisplaySpec display;
        RenderSpec render;
        bool pairs = false, heatmap = false, decay = false, frequencies = false, contributions = false, precision = false;
    };
    struct Running;
    class PicturePool;
    void start(Job job);
    void refineHeatmap(const Job& job, int coarseSampled);
    void deliver(const std::shared_ptr<Running>& job);
    // On the GUI thread: a view's result, only if it is newer than the last one delivered for
    // that view.
    template <class Result>
    void deliverNewer(const Shared<Result>& result, std::uint64_t& delivered, void (Scheduler::*signal)(const Shared<Result>&)) {
        if (!result || result->generation <= delivered) return;
        delivered = result->generation;
        Q_EMIT(this->*signal)(result);
    }
    void deliverView(const Running& run, const Shared<PairsResult>& r);
    void deliverView(const Running& run, const Shared<HeatmapResult>& r);
    void deliverView(const Running& run, const Shared<DecayResult>& r);
    void deliverView(const Running& run, const Shared<FrequencyResult>& r);
    void deliverView(const Running& run, const Shared<ContributionsResult>& r);
    void deliverView(const Running& run, const Shared<PrecisionResult>& r);
    void finishJob(std::uint64_t generation);

    // Pictures the views no longer show, drawn over again instead of allocated (a fresh picture's
    // pages are faulted in and zeroed by the kernel on every edit).
    std::unique_ptr<PicturePool> pictures_;
    QThreadPool pool_;       // the tasks of the running job (one per view)
    DisplaySpec display_;
    RenderSpec render_;
    std::optional<RenderSpec> lastRender_;
    std::uint64_t generation_ = 0;
    bool running_ = false;
    std::optional<Job> pending_;
    // What the last computed job contained, per view (for skipping unchanged views).
    std::optional<SceneParams> lastScene_;
    std::optional<DisplaySpec> lastDisplay_;
    double lastComputeMs_ = 0, lastComputeCpuMs_ = 0;
    ViewTimes lastViewMs_;
    std::uint64_t heatmapRequested_ = 0;   // the newest request that recomputes the heatmap
    std::uint64_t deliveredPairs_ = 0, deliveredHeatmap_ = 0, deliveredDecay_ = 0, deliveredFrequencies_ = 0,
                  deliveredContributions_ = 0, deliveredPrecision_ = 0;
};

}  // namespace poslab::ui
