#include "ui/explorer.h"

#include "ui/mainwindow.h"

#include <QApplication>
#include <QMessageBox>

namespace poslab::ui {

int runExplorer(int argc, char** argv, const QString& sessionFile) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("PosLab"));
    QApplication::setApplicationName(QStringLiteral("PosLab"));
    QApplication::setApplicationDisplayName(QStringLiteral("PosLab"));
    MainWindow window;
    if (!sessionFile.isEmpty()) {
        QString error;
        if (!window.openSession(sessionFile, &error)) {
            QMessageBox::warning(&window, QObject::tr("Open session"), error);
            window.restoreLastScene();
        }
    } else {
        window.restoreLastScene();
    }
    window.show();
    return QApplication::exec();
}

}  // namespace poslab::ui
