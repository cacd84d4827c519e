#include "ui/teaching/animation.h"

#include "ui/io/export.h"
#include "ui/model/scene.h"
#include "ui/teaching/gifwriter.h"

#include <QBuffer>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QSaveFile>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace poslab::ui {

std::optional<QString> AnimationSpec::problem() const {
    if (from < 0 || from > kMaxPosition) return QStringLiteral("from: a position from 0, got %1").arg(from);
    if (to < 0 || to > kMaxPosition) return QStringLiteral("to: a position from 0, got %1").arg(to);
    if (step < 1) return QStringLiteral("step: an integer >= 1, got %1").arg(step);
    if (!(positionsPerSecond >= 0.25 && positionsPerSecond <= 480))
        return QStringLiteral("speed: 0.25 to 480 positions per second, got %1").arg(positionsPerSecond);
    for (int s : {frameSize.width(), frameSize.height()})
        if (s < 64 || s > 4096) return QStringLiteral("frame size: 64 to 4096 pixels per side, got %1").arg(s);
    const std::int64_t n = (std::abs(to - from) / step) + 1;
    if (n > kMaxFrames) return QStringLiteral("frames: at most %1, got %2 (raise the step)").arg(kMaxFrames).arg(n);
    return std::nullopt;
}

std::vector<std::int64_t> AnimationSpec::positions(std::int64_t length) const {
    std::vector<std::int64_t> out;
    const std::int64_t last = std::max<std::int64_t>(0, length - 1);
    const std::int64_t a = std::clamp<std::int64_t>(from, 0, last), b = std::clamp<std::int64_t>(to, 0, last);
    const std::int64_t st = std::max<std::int64_t>(1, step);
    if (a <= b)
        for (std::int64_t p = a; p <= b && out.size() < std::size_t(kMaxFrames); p += st) out.push_back(p);
    else
        for (std::int64_t p = a; p >= b && out.size() < std::size_t(kMaxFrames); p -= st) out.push_back(p);
    return out;
}

int AnimationSpec::delayCentiseconds() const {
    return std::max(2, int(std::lround(100.0 / std::max(0.25, positionsPerSecond))));
}

SceneParams animationFrameScene(const SceneParams& scene, std::int64_t position) {
    SceneParams s = scene;
    s.positions = {std::clamp<std::int64_t>(position, 0, std::max<std::int64_t>(0, s.length - 1))};
    return s;
}

QImage renderAnimationFrame(const SceneParams& scene, const AnimationSpec& spec, std::int64_t position) {
    const SceneParams s = animationFrameScene(scene, position);
    ExportRequest req;
    req.theme = spec.theme;
    const Theme theme = exportTheme(s, req);
    QImage img(spec.frameSize, QImage::Format_ARGB32_Premultiplied);
    img.fill(theme.background);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    paintViews(p, QRectF(QPointF(0, 0), QSizeF(spec.frameSize)), s, spec.view, theme, 1.0);
    // The position, large, in the corner: what is being played.
    QFont f = theme.titleFont();
    p.setFont(f);
    p.setPen(theme.foreground);
    p.drawText(QRectF(0, 0, spec.frameSize.width() - 10, spec.frameSize.height() - 6), Qt::AlignRight | Qt::AlignBottom,
               QStringLiteral("m = %1").arg(s.positions.front()));
    p.end();
    return img;
}

bool exportAnimationGif(const QString& path, const SceneParams& scene, const AnimationSpec& spec, QString* error) {
    if (auto e = spec.problem()) {
        if (error) *error = *e;
        return false;
    }
    if (auto e = sceneProblem(scene)) {
        if (error) *error = QStringLiteral("the scene is not valid: ") + *e;
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error) *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    {
        GifWriter w(&file, spec.frameSize, 0);
        for (auto pos : spec.positions(scene.length)) {
            if (!w.addFrame(renderAnimationFrame(scene, spec, pos), spec.delayCentiseconds())) break;
        }
        if (!w.finish() || !w.ok()) {
            file.cancelWriting();
            if (error) *error = QStringLiteral("%1: could not write (%2)").arg(path, file.errorString());
            return false;
        }
    }
    if (!file.commit()) {
        if (error) *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

bool exportAnimationPngs(const QString& directory, const QString& baseName, const SceneParams& scene, const AnimationSpec& spec,
                         QStringList* written, QString* error) {
    if (auto e = spec.problem()) {
        if (error) *error = *e;
        return false;
    }
    if (auto e = sceneProblem(scene)) {
        if (error) *error = QStringLiteral("the scene is not valid: ") + *e;
        return false;
    }
    QDir dir(directory);
    if (!dir.exists() && !QDir().mkpath(directory)) {
        if (error) *error = QStringLiteral("%1: cannot create the directory").arg(directory);
        return false;
    }
    const auto positions = spec.positions(scene.length);
    const int digits = std::max(4, int(QString::number(positions.size()).size()));
    int k = 0;
    for (auto pos : positions) {
        const QString name = QStringLiteral("%1_%2.png").arg(baseName).arg(k++, digits, 10, QLatin1Char('0'));
        const QString full = dir.filePath(name);
        QSaveFile f(full);
        if (!f.open(QIODevice::WriteOnly) || !renderAnimationFrame(scene, spec, pos).save(&f, "PNG") || !f.commit()) {
            if (error) *error = QStringLiteral("%1: %2").arg(full, f.errorString());
            return false;
        }
        if (written) *written << full;
    }
    return true;
}

// ============================================================================ Animator
Animator::Animator(Scene* scene, QObject* parent) : QObject(parent), scene_(scene) {
    connect(&timer_, &QTimer::timeout, this, &Animator::advance);
    setSpec(AnimationSpec{});
}

void Animator::setSpec(const AnimationSpec& spec) {
    spec_ = spec;
    const double speed = std::clamp(spec.positionsPerSecond, 0.25, 480.0);
    // At most ~30 updates a second; faster speeds move several positions per tick.
    const int ms = std::max(33, int(std::lround(1000.0 / speed)));
    perTick_ = std::max(1, int(std::lround(speed * ms / 1000.0)));
    timer_.setInterval(ms);
}

void Animator::play() {
    if (timer_.isActive()) return;
    const auto pos = spec_.positions(scene_->committed().length);
    if (pos.empty()) return;
    position_ = pos.front();
    timer_.start();
    showPosition();
    Q_EMIT playingChanged(true);
}

void Animator::stop() {
    if (!timer_.isActive()) return;
    timer_.stop();
    scene_->clearPreview();
    Q_EMIT playingChanged(false);
}

void Animator::toggle() {
    if (playing()) stop();
    else play();
}

void Animator::advance() {
    if (!playing()) return;
    const auto pos = spec_.positions(scene_->committed().length);
    // Index of the current position in the sweep (the last one not past it), then perTick on.
    std::size_t i = 0;
    for (std::size_t k = 0; k < pos.size(); ++k)
        if (pos[k] == position_) i = k;
    if (pos.empty() || i + 1 >= pos.size()) {
        stop();
        return;
    }
    position_ = pos[std::min(pos.size() - 1, i + std::size_t(perTick_))];
    showPosition();
}

void Animator::showPosition() {
    const std::int64_t p = position_;
    scene_->setPreview([p](const SceneParams& s) { return animationFrameScene(s, p); });
    Q_EMIT positionChanged(scene_->params().positions.front());
}

// ============================================================================ panel
AnimationPanel::AnimationPanel(Scene* scene, Animator* animator, QWidget* parent)
    : QWidget(parent), scene_(scene), animator_(animator) {
    setObjectName(QStringLiteral("animationPanel"));
    auto* lay = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    from_ = new QSpinBox(this);
    to_ = new QSpinBox(this);
    step_ = new QSpinBox(this);
    for (auto* s : {from_, to_}) s->setRange(0, 1 << 30);
    step_->setRange(1, 1 << 20);
    from_->setValue(0);
    to_->setValue(63);
    speed_ = new QDoubleSpinBox(this);
    speed_->setRange(0.25, 480);
    speed_->setValue(8);
    speed_->setSuffix(tr(" positions/s"));
    view_ = new QComboBox(this);
    view_->addItems({tr("Pair vectors"), tr("Heatmap"), tr("Decay"), tr("Frequencies"), tr("All visible views")});
    width_ = new QSpinBox(this);
    height_ = new QSpinBox(this);
    for (auto* s : {width_, height_}) {
        s->setRange(64, 4096);
        s->setValue(720);
        s->setSuffix(tr(" px"));
    }
    form->addRow(tr("from position"), from_);
    form->addRow(tr("to position"), to_);
    form->addRow(tr("step"), step_);
    form->addRow(tr("speed"), speed_);
    form->addRow(tr("export view"), view_);
    auto* size = new QHBoxLayout;
    size->addWidget(width_);
    size->addWidget(new QLabel(QStringLiteral("×"), this));
    size->addWidget(height_);
    form->addRow(tr("frame size"), size);
    lay->addLayout(form);
    auto* buttons = new QHBoxLayout;
    play_ = new QPushButton(tr("▶ Play"), this);
    play_->setObjectName(QStringLiteral("animationPlay"));
    auto* gif = new QPushButton(tr("Export GIF…"), this);
    auto* png = new QPushButton(tr("Export PNG sequence…"), this);
    buttons->addWidget(play_);
    buttons->addWidget(gif);
    buttons->addWidget(png);
    lay->addLayout(buttons);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    lay->addWidget(status_);
    lay->addStretch(1);

    for (auto* s : {from_, to_, step_}) connect(s, &QSpinBox::valueChanged, this, &AnimationPanel::pushSpec);
    for (auto* s : {width_, height_}) connect(s, &QSpinBox::valueChanged, this, &AnimationPanel::pushSpec);
    connect(speed_, &QDoubleSpinBox::valueChanged, this, &AnimationPanel::pushSpec);
    connect(view_, &QComboBox::currentIndexChanged, this, &AnimationPanel::pushSpec);
    connect(play_, &QPushButton::clicked, animator_, &Animator::toggle);
    connect(animator_, &Animator::playingChanged, this, [this](bool on) { play_->setText(on ? tr("⏸ Pause") : tr("▶ Play")); });
    connect(animator_, &Animator::positionChanged, this, [this](std::int64_t p) { status_->setText(tr("position m = %1").arg(p)); });
    connect(gif, &QPushButton::clicked, this, &AnimationPanel::exportGif);
    connect(png, &QPushButton::clicked, this, &AnimationPanel::exportPngs);
    connect(scene_, &Scene::changed, this, [this] {
        const int last = int(std::min<std::int64_t>(scene_->params().length - 1, 1 << 30));
        // Only on a change: setMaximum re-lays the dock out even when the value is the same.
        for (auto* s : {from_, to_})
            if (s->maximum() != std::max(0, last)) s->setMaximum(std::max(0, last));
    });
    pushSpec();
}

AnimationSpec AnimationPanel::spec() const {
    AnimationSpec s;
    s.from = from_->value();
    s.to = to_->value();
    s.step = step_->value();
    s.positionsPerSecond = speed_->value();
    const int v = view_->currentIndex();
    s.view = v < 4 ? std::optional<ViewKind>(kAllViews[v]) : std::nullopt;
    s.frameSize = QSize(width_->value(), height_->value());
    return s;
}

void AnimationPanel::setSpec(const AnimationSpec& s) {
    const auto toInt = [](std::int64_t v) { return int(std::clamp<std::int64_t>(v, 0, 1 << 30)); };
    from_->setValue(toInt(s.from));
    to_->setValue(toInt(s.to));
    step_->setValue(toInt(s.step));
    speed_->setValue(s.positionsPerSecond);
    int view = 4;
    for (int i = 0; i < 4; ++i)
        if (s.view && kAllViews[i] == *s.view) view = i;
    view_->setCurrentIndex(view);
    width_->setValue(s.frameSize.width());
    height_->setValue(s.frameSize.height());
    pushSpec();
}

void AnimationPanel::pushSpec() { animator_->setSpec(spec()); }

bool AnimationPanel::exportGifTo(const QString& path, QString* error) {
    animator_->stop();
    QString e;
    const bool ok = exportAnimationGif(path, scene_->committed(), spec(), &e);
    status_->setText(ok ? tr("Wrote %1").arg(path) : e);
    if (!ok && error) *error = e;
    return ok;
}

bool AnimationPanel::exportPngsTo(const QString& directory, QStringList* written, QString* error) {
    animator_->stop();
    QString e;
    QStringList files;
    const bool ok = exportAnimationPngs(directory, QStringLiteral("frame"), scene_->committed(), spec(), &files, &e);
    status_->setText(ok ? tr("Wrote %1 frames to %2").arg(files.size()).arg(directory) : e);
    if (written) *written = files;
    if (!ok && error) *error = e;
    return ok;
}

void AnimationPanel::exportGif() {
    QString path = QFileDialog::getSaveFileName(this, tr("Export animation as GIF"), QStringLiteral("rotation.gif"), tr("GIF (*.gif)"));
    if (path.isEmpty()) return;
    if (!path.endsWith(QStringLiteral(".gif"), Qt::CaseInsensitive)) path += QStringLiteral(".gif");
    exportGifTo(path, nullptr);
}

void AnimationPanel::exportPngs() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export animation as a PNG sequence into"));
    if (dir.isEmpty()) return;
    exportPngsTo(dir, nullptr, nullptr);
}

}  // namespace poslab::ui
