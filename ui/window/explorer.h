#pragma once
// Entry point of the window, called by app/ when poslab is started without a command.
#include <QString>

namespace poslab::ui {

// Creates the QApplication, the main window on the default scene (or on `sessionFile` when not
// empty), runs the event loop and returns its exit status.
int runExplorer(int argc, char** argv, const QString& sessionFile);

}  // namespace poslab::ui
