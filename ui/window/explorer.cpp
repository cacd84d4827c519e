#include "ui/window/explorer.h"

#include "ui/window/welcome.h"
#include "ui/window/mainwindow.h"
#include "ui/window/sessionactions.h"

#include <QApplication>
#include <QIcon>
#include <QMessageBox>

namespace poslab::ui {

int runExplorer(int argc, char** argv, const QString& sessionFile) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("PosLab"));
    QApplication::setApplicationName(QStringLiteral("PosLab"));
    QApplication::setApplicationDisplayName(QStringLiteral("PosLab"));
    // The installed desktop entry and icon (packaging/): the id that ties windows to them.
    QGuiApplication::setDesktopFileName(QStringLiteral("org.poslab.PosLab"));
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("org.poslab.PosLab")));
    MainWindow window;
    // File menu: sessions, recent files, export; autosave and the restore offer after a crash.
    SessionActions sessions(&window);
    if (!sessionFile.isEmpty()) {
        QString error;
        if (!sessions.openFile(sessionFile, &error)) {
            QMessageBox::warning(&window, QObject::tr("Open session"), error);
            window.restoreLastScene();
        }
    } else {
        window.restoreLastScene();
    }
    window.show();
    sessions.offerRestore();
    // The first start (nothing opened, nothing to restore): the welcome page with a start path.
    if (sessionFile.isEmpty() && !sessions.restorePrompt()) welcomeAtStart(&window);
    return QApplication::exec();
}

}  // namespace poslab::ui
