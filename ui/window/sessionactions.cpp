#include "ui/window/sessionactions.h"

#include "ui/window/exportdialog.h"
#include "ui/window/mainwindow.h"
#include "ui/teaching/deck.h"
#include "ui/teaching/demoscenes.h"
#include "ui/window/teaching.h"
#include "ui/views/views.h"

#include <QAction>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QUndoStack>

namespace poslab::ui {

namespace {

const QString kRecentKey = QStringLiteral("sessions/recent");

QString sessionFilter() { return QObject::tr("PosLab sessions (*.%1)").arg(QLatin1String(kSessionSuffix)); }

QString formatFilter(ExportFormat f) {
    switch (f) {
    case ExportFormat::Png: return QObject::tr("PNG images (*.png)");
    case ExportFormat::Svg: return QObject::tr("SVG drawings (*.svg)");
    case ExportFormat::Pdf: return QObject::tr("PDF documents (*.pdf)");
    case ExportFormat::Csv: return QObject::tr("CSV tables (*.csv)");
    case ExportFormat::Json: return QObject::tr("JSON data (*.json)");
    }
    return {};
}

QString withSuffix(QString path, const QString& suffix) {
    if (QFileInfo(path).suffix().compare(suffix, Qt::CaseInsensitive) != 0) path += QLatin1Char('.') + suffix;
    return path;
}

}  // namespace

// ---- Recent files -------------------------------------------------------------------------------

QStringList recentSessions() {
    QStringList out;
    for (const QString& p : QSettings().value(kRecentKey).toStringList())
        if (QFileInfo(p).isFile() && !out.contains(p)) out << p;
    return out.mid(0, kMaxRecentSessions);
}

void addRecentSession(const QString& path) {
    const QString abs = QFileInfo(path).absoluteFilePath();
    QStringList list = QSettings().value(kRecentKey).toStringList();
    list.removeAll(abs);
    list.prepend(abs);
    QSettings().setValue(kRecentKey, list.mid(0, kMaxRecentSessions));
}

void removeRecentSession(const QString& path) {
    QStringList list = QSettings().value(kRecentKey).toStringList();
    list.removeAll(QFileInfo(path).absoluteFilePath());
    list.removeAll(path);
    QSettings().setValue(kRecentKey, list);
}

void clearRecentSessions() { QSettings().remove(kRecentKey); }

// ---- SessionActions ---------------------------------------------------------------------------

SessionActions::SessionActions(MainWindow* window, const Options& options)
    : QObject(window), window_(window), options_(options) {
    baseTitle_ = window_->windowTitle();
    if (options_.autosave) {
        autosave_ = std::make_unique<Autosave>(options_.autosaveDir);
        connect(autosave_.get(), &Autosave::failed, this, [this](const QString& e) {
            window_->statusBar()->showMessage(tr("Autosave failed: %1").arg(e), 10000);
        });
        // A clean exit removes the autosave; a crash or a kill leaves it for the next start.
        connect(qApp, &QCoreApplication::aboutToQuit, this, [this] {
            if (autosave_) autosave_->finish();
        });
    }
    install();
    session_.scenes.front().scene = window_->scene()->committed();
    connect(window_->scene(), &Scene::changed, this, &SessionActions::onSceneChanged);
    // The deck authored in the deck panel is the open session (deck.h).
    if (auto* teaching = teachingOf(window_))
        connect(teaching->deckModel(), &DeckModel::changed, this, &SessionActions::onDeckChanged);
    // A deck opened from the Teach menu is the open session from then on.
    if (auto* teaching = teachingOf(window_))
        connect(teaching, &TeachingController::deckOpened, this, [this](const QString& path, const Session& deck) {
            setSession(deck);
            setCurrent(path);
            window_->scene()->undoStack()->setClean();
            updateTitle();
        });
    connect(window_->scene()->undoStack(), &QUndoStack::cleanChanged, this, &SessionActions::updateTitle);
}

SessionActions::~SessionActions() {
    if (prompt_) prompt_->deleteLater();
}

void SessionActions::install() {
    QMenu* file = nullptr;
    for (QAction* a : window_->menuBar()->actions())
        if (a->menu()) {
            file = a->menu();
            break;
        }
    if (!file) file = window_->menuBar()->addMenu(tr("&File"));
    // The window's own open / save-as entries are replaced by these (same shortcuts).
    const auto shortcutOf = [](QKeySequence::StandardKey k, const QKeySequence& fallback) {
        const QKeySequence s(k);
        return s.isEmpty() ? fallback : s;
    };
    const QKeySequence openKey = shortcutOf(QKeySequence::Open, QKeySequence(Qt::CTRL | Qt::Key_O));
    const QKeySequence saveKey = shortcutOf(QKeySequence::Save, QKeySequence(Qt::CTRL | Qt::Key_S));
    const QKeySequence saveAsKey = shortcutOf(QKeySequence::SaveAs, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    // By name: a platform without standard Open/Save-as keys leaves those shortcuts empty.
    for (QAction* a : file->actions()) {
        const QKeySequence k = a->shortcut();
        const bool replaced = a->objectName() == QLatin1String("windowOpenSession") ||
                              a->objectName() == QLatin1String("windowSaveSessionAs");
        if (replaced || (!k.isEmpty() && (k == openKey || k == saveKey || k == saveAsKey)))
            file->removeAction(a);
    }
    QAction* before = file->actions().isEmpty() ? nullptr : file->actions().first();

    open_ = new QAction(tr("&Open session…"), this);
    open_->setShortcut(openKey);
    connect(open_, &QAction::triggered, this, [this] {
        const QString start = current_.isEmpty() ? QString() : QFileInfo(current_).absolutePath();
        const QString path = QFileDialog::getOpenFileName(window_, tr("Open session"), start,
                                                          sessionFilter() + QStringLiteral(";;") +
                                                              tr("Figures PosLab exported (*.png *.svg *.pdf *.csv *.json)"));
        if (!path.isEmpty()) openFile(path);
    });
    recent_ = new QMenu(tr("Open &recent"), window_);
    recent_->setObjectName(QStringLiteral("recentSessionsMenu"));
    save_ = new QAction(tr("&Save session"), this);
    save_->setShortcut(saveKey);
    connect(save_, &QAction::triggered, this, &SessionActions::save);
    saveAs_ = new QAction(tr("Save session &as…"), this);
    saveAs_->setShortcut(saveAsKey);
    connect(saveAs_, &QAction::triggered, this, &SessionActions::saveAs);
    export_ = new QAction(tr("&Export figure or data…"), this);
    export_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    connect(export_, &QAction::triggered, this, &SessionActions::exportDialog);

    file->insertAction(before, open_);
    file->insertMenu(before, recent_);
    file->insertAction(before, save_);
    file->insertAction(before, saveAs_);
    file->insertSeparator(before);
    file->insertAction(before, export_);
    if (before) file->insertSeparator(before);
    rebuildRecent();
}

void SessionActions::rebuildRecent() {
    recent_->clear();
    const QStringList list = options_.recentFiles ? recentSessions() : QStringList{};
    for (const QString& p : list) {
        QAction* a = recent_->addAction(QFileInfo(p).fileName(), this, [this, p] { openFile(p); });
        a->setToolTip(p);
        a->setStatusTip(p);
    }
    if (!list.isEmpty()) {
        recent_->addSeparator();
        recent_->addAction(tr("Clear the list"), this, [this] {
            clearRecentSessions();
            rebuildRecent();
        });
    }
    recent_->setEnabled(!list.isEmpty());
}

void SessionActions::setCurrent(const QString& path) {
    current_ = path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath();
    if (!current_.isEmpty() && options_.recentFiles) {
        addRecentSession(current_);
        rebuildRecent();
    }
    updateTitle();
}

void SessionActions::updateTitle() {
    if (current_.isEmpty()) {
        window_->setWindowTitle(baseTitle_);
        window_->setWindowModified(false);
        return;
    }
    window_->setWindowTitle(QStringLiteral("%1[*] — PosLab").arg(QFileInfo(current_).fileName()));
    window_->setWindowModified(!window_->scene()->undoStack()->isClean());
}

void SessionActions::onSceneChanged() {
    updateTitle();
    // The window's scene is the session's current one (a preview, an animation frame, is not).
    SceneParams& slot = session_.scenes.at(std::size_t(session_.current)).scene;
    if (slot == window_->scene()->committed()) return;
    slot = window_->scene()->committed();
    autosaveSession();
}

void SessionActions::autosaveSession() {
    // Only sessions that can be opened again are autosaved: while a parameter is invalid, the
    // last valid one stays the one to restore.
    if (autosave_ && !sceneProblem(window_->scene()->committed())) autosave_->setSession(session_);
}

void SessionActions::onDeckChanged() {
    if (adopting_) return;
    auto* teaching = teachingOf(window_);
    if (!teaching) return;
    const DeckModel* deck = teaching->deckModel();
    if (deck->isSession()) {
        sessionIsDeck_ = true;
        if (session_ == deck->deck()) return;
        session_ = deck->deck();
    } else {
        if (!sessionIsDeck_) return;
        // Undone back to before the deck was authored: the session is the window's scene again.
        sessionIsDeck_ = false;
        session_ = Session{};
        session_.scenes.front().scene = window_->scene()->committed();
    }
    updateTitle();
    autosaveSession();
}

void SessionActions::setSession(const Session& session) {
    session_ = session;
    if (session_.scenes.empty()) session_.scenes.push_back(SessionScene{});
    session_.current = std::clamp(session_.current, 0, int(session_.scenes.size()) - 1);
    // A session of several scenes, or an arranged slide, is a deck: the teaching deck and the
    // session are one from now on. A single scene leaves a deck that was not the session alone.
    const bool isDeck = session_.scenes.size() > 1 || !session_.scenes.front().slide.isAuto();
    adopting_ = true;
    if (auto* teaching = teachingOf(window_)) {
        if (isDeck) teaching->deckModel()->reset(session_, true);
        else if (teaching->deckModel()->isSession()) teaching->deckModel()->reset(demoDeck(), false);
    }
    sessionIsDeck_ = isDeck;
    window_->scene()->setParams(session_.scenes.at(std::size_t(session_.current)).scene);
    adopting_ = false;
    // What the scene holds (setParams completes a scene without configurations).
    session_.scenes.at(std::size_t(session_.current)).scene = window_->scene()->committed();
    if (isDeck)
        if (auto* teaching = teachingOf(window_)) teaching->deckModel()->reset(session_, true);
    autosaveSession();
}

bool SessionActions::openFile(const QString& path, QString* error) {
    QString err;
    QStringList warnings;
    std::optional<Session> session;
    const auto exported = exportFormatFromPath(path);
    if (exported && *exported != ExportFormat::Json) session = sessionFromExport(path, &err, &warnings);
    else {
        session = loadSessionFile(path, &err, &warnings);
        if (!session && exported) {   // a .json: a session, or data PosLab exported
            QString second;
            if (auto s = sessionFromExport(path, &second, &warnings)) {
                session = s;
                err.clear();
            }
        }
    }
    if (!session) {
        if (error) *error = err;
        else QMessageBox::warning(window_, tr("Open session"), err);
        if (options_.recentFiles && !QFileInfo::exists(path)) {
            removeRecentSession(path);
            rebuildRecent();
        }
        return false;
    }
    setSession(*session);
    // A figure is not a session file: later saves ask for a name.
    setCurrent(exported && *exported != ExportFormat::Json ? QString() : path);
    window_->scene()->undoStack()->setClean();
    updateTitle();
    if (!warnings.isEmpty()) {
        window_->statusBar()->showMessage(tr("Opened %1 with %n unknown field(s) ignored", nullptr, int(warnings.size()))
                                              .arg(QFileInfo(path).fileName()),
                                          10000);
        if (!error) {
            auto* box = new QMessageBox(QMessageBox::Information, tr("Open session"),
                                        tr("%1 was opened. Some fields are unknown to this version of PosLab and were "
                                           "ignored:").arg(QFileInfo(path).fileName()),
                                        QMessageBox::Ok, window_);
            box->setDetailedText(warnings.join(QLatin1Char('\n')));
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
    } else {
        window_->statusBar()->showMessage(tr("Opened %1").arg(QFileInfo(path).fileName()), 5000);
    }
    return true;
}

bool SessionActions::saveTo(const QString& path, QString* error) {
    QString err;
    if (auto problem = sceneProblem(window_->scene()->committed()))
        err = tr("The scene cannot be saved while a parameter is invalid (%1).").arg(*problem);
    if (!err.isEmpty() || !saveSessionFile(path, session_, &err)) {
        if (error) *error = err;
        else QMessageBox::warning(window_, tr("Save session"), err);
        return false;
    }
    window_->scene()->undoStack()->setClean();
    setCurrent(path);
    window_->statusBar()->showMessage(tr("Saved %1").arg(QFileInfo(path).fileName()), 5000);
    return true;
}

bool SessionActions::save() {
    if (current_.isEmpty()) return saveAs();
    return saveTo(current_);
}

bool SessionActions::saveAs() {
    QFileDialog dialog(window_, tr("Save session"), current_.isEmpty() ? QString() : current_, sessionFilter());
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setDefaultSuffix(QLatin1String(kSessionSuffix));
    dialog.setOption(QFileDialog::DontConfirmOverwrite, true);   // asked below, after the suffix is added
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) return false;
    const QString path = withSuffix(dialog.selectedFiles().first(), QLatin1String(kSessionSuffix));
    if (QFileInfo::exists(path) && QFileInfo(path).absoluteFilePath() != current_ && !confirmReplace(path)) return false;
    return saveTo(path);
}

bool SessionActions::confirmReplace(const QString& path) {
    if (confirmReplace_) return confirmReplace_(path);
    return QMessageBox::question(window_, tr("Replace file?"),
                                 tr("%1 already exists. Replace it?").arg(QFileInfo(path).fileName()),
                                 QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel) == QMessageBox::Yes;
}

ExportRequest SessionActions::windowRequest(std::optional<ViewKind> view, ExportFormat format) const {
    ExportRequest r;
    r.view = view;
    r.format = format;
    QWidget* w = window_->centralWidget();
    if (view) {
        switch (*view) {
        case ViewKind::Pairs: w = window_->pairsView(); break;
        case ViewKind::Heatmap: w = window_->heatmapView(); break;
        case ViewKind::Decay: w = window_->decayView(); break;
        case ViewKind::Frequencies: w = window_->frequencyView(); break;
        case ViewKind::Contributions: w = window_->contributionsView(); break;
        case ViewKind::Precision: w = window_->precisionView(); break;
        }
    }
    const double dpr = w ? w->devicePixelRatioF() : 1.0;
    QSize size = w && w->isVisible() ? w->size() : QSize();
    if (size.width() < kMinExportPixels || size.height() < kMinExportPixels) size = view ? QSize(1200, 800) : QSize(1600, 1000);
    r.pixels = QSize(std::clamp(int(std::lround(size.width() * dpr)), kMinExportPixels, kMaxExportPixels),
                     std::clamp(int(std::lround(size.height() * dpr)), kMinExportPixels, kMaxExportPixels));
    r.dpi = std::clamp(int(std::lround(96 * dpr)), kMinDpi, kMaxDpi);
    return r;
}

bool SessionActions::exportTo(const QString& path, const ExportRequest& request, QString* error) {
    if (QFileInfo::exists(path) && !confirmReplace(path)) {
        if (error) *error = tr("not replaced: %1").arg(path);
        return false;
    }
    QString err;
    if (!exportToFile(path, window_->scene()->params(), request, &err)) {
        if (error) *error = err;
        else QMessageBox::warning(window_, tr("Export"), err);
        return false;
    }
    window_->statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 8000);
    return true;
}

void SessionActions::exportDialog() {
    ExportDialog dialog(window_->scene()->params(),
                        [this](std::optional<ViewKind> v, ExportFormat f) { return windowRequest(v, f); }, window_);
    if (dialog.exec() != QDialog::Accepted) return;
    const ExportRequest request = dialog.request();
    const QString suffix = exportFormatKey(request.format);
    const QString stem = request.view ? viewKey(*request.view) : QStringLiteral("poslab");
    const QString start = (current_.isEmpty() ? QDir::homePath() : QFileInfo(current_).absolutePath()) + QLatin1Char('/') +
                          stem + QLatin1Char('.') + suffix;
    QFileDialog files(window_, tr("Export to"), start, formatFilter(request.format));
    files.setAcceptMode(QFileDialog::AcceptSave);
    files.setDefaultSuffix(suffix);
    files.setOption(QFileDialog::DontConfirmOverwrite, true);   // asked in exportTo()
    if (files.exec() != QDialog::Accepted || files.selectedFiles().isEmpty()) return;
    exportTo(withSuffix(files.selectedFiles().first(), suffix), request);
}

void SessionActions::offerRestore() {
    if (!autosave_) return;
    QStringList problems;
    auto leftovers = autosave_->leftovers(&problems);
    for (const auto& p : problems) window_->statusBar()->showMessage(tr("An autosave could not be read: %1").arg(p), 10000);
    QString error;
    if (!autosave_->start(&error)) window_->statusBar()->showMessage(tr("Autosave is off: %1").arg(error), 10000);
    if (leftovers.empty()) return;
    const Autosave::Leftover newest = leftovers.front();
    const int scenes = int(newest.session.scenes.size());
    const QString when = QLocale().toString(newest.saved, QLocale::ShortFormat);
    auto* box = new QMessageBox(QMessageBox::Question, scenes > 1 ? tr("Restore the last deck?") : tr("Restore the last scene?"),
                                scenes > 1 ? tr("PosLab did not close properly last time. Restore the deck of %1 scenes autosaved at %2?")
                                                 .arg(scenes)
                                                 .arg(when)
                                           : tr("PosLab did not close properly last time. Restore the scene autosaved at %1?").arg(when),
                                QMessageBox::NoButton, window_);
    box->setObjectName(QStringLiteral("restorePrompt"));
    QPushButton* restore = box->addButton(tr("&Restore"), QMessageBox::AcceptRole);
    restore->setObjectName(QStringLiteral("restoreButton"));
    QPushButton* discard = box->addButton(tr("&Discard"), QMessageBox::DestructiveRole);
    discard->setObjectName(QStringLiteral("discardButton"));
    box->setDefaultButton(restore);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this, [this, box, restore, leftovers](QAbstractButton* b) {
        if (b == restore) {
            setSession(leftovers.front().session);
            setCurrent(QString());
            window_->statusBar()->showMessage(tr("Restored the autosaved scene"), 8000);
        }
        // Answered (either way): the leftovers have served their purpose.
        for (const auto& l : leftovers) Autosave::discard(l);
        box->close();
    });
    prompt_ = box;
    box->open();
    // Tests that start PosLab as a process answer the question through the environment
    // (POSLAB_ANSWER_RESTORE=restore or discard), as a click would.
    const QString answer = qEnvironmentVariable("POSLAB_ANSWER_RESTORE");
    if (answer == QLatin1String("restore")) restore->click();
    else if (answer == QLatin1String("discard")) discard->click();
}

}  // namespace poslab::ui
