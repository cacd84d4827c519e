#pragma once
// Scheduler: runs the view computations (compute.h) off the GUI thread (one job at a time; its
// heatmap on a second thread beside the other views) so the GUI thread never waits for the core. Newest wins: while a job runs, later requests replace each other and only
// the last one is computed next. Each request gets a generation number; a view's result is
// delivered (on the GUI thread, as a value) only if it is newer than the last one delivered for
// that view, so a superseded result can never overwrite a newer picture. Views whose inputs did
// not change since the last computed request are not recomputed (dragging the decay range does
// not recompute the heatmap).
#include "ui/compute.h"

#include <QObject>
#include <QThreadPool>

#include <atomic>
#include <memory>
#include <optional>

namespace poslab::ui {

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

    std::uint64_t latestGeneration() const { return generation_; }
    // Worker time of the last finished job, in milliseconds (all its views).
    double lastComputeMs() const { return lastComputeMs_; }
    // CPU time the worker thread spent on it (independent of other processes' load).
    double lastComputeCpuMs() const { return lastComputeCpuMs_; }
    bool busy() const { return running_; }
    // Blocks (processing events) until idle or `timeoutMs` passes; for tests and export.
    bool waitIdle(int timeoutMs = 10000);

Q_SIGNALS:
    void pairsReady(const poslab::ui::PairsResult& result);
    void heatmapReady(const poslab::ui::HeatmapResult& result);
    void decayReady(const poslab::ui::DecayResult& result);
    void frequenciesReady(const poslab::ui::FrequencyResult& result);
    // A job finished (all of its views delivered or dropped).
    void jobFinished(std::uint64_t generation);
    // The scheduler has nothing running and nothing pending.
    void idle();

private:
    struct Job {
        std::uint64_t generation = 0;
        SceneParams scene;
        DisplaySpec display;
        bool pairs = false, heatmap = false, decay = false, frequencies = false;
    };
    void start(Job job);
    void finishJob(std::uint64_t generation);

    QThreadPool pool_;       // runs jobs, one at a time
    QThreadPool heatPool_;   // the heatmap of the running job, in parallel with its other views
    DisplaySpec display_;
    std::uint64_t generation_ = 0;
    bool running_ = false;
    std::optional<Job> pending_;
    // What the last computed job contained, per view (for skipping unchanged views).
    std::optional<SceneParams> lastScene_;
    std::optional<DisplaySpec> lastDisplay_;
    double lastComputeMs_ = 0, lastComputeCpuMs_ = 0;
    std::uint64_t deliveredPairs_ = 0, deliveredHeatmap_ = 0, deliveredDecay_ = 0, deliveredFrequencies_ = 0;
};

}  // namespace poslab::ui

Q_DECLARE_METATYPE(poslab::ui::PairsResult)
Q_DECLARE_METATYPE(poslab::ui::HeatmapResult)
Q_DECLARE_METATYPE(poslab::ui::DecayResult)
Q_DECLARE_METATYPE(poslab::ui::FrequencyResult)
