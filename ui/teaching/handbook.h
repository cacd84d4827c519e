#pragma once
// The offline handbook (Help ▸ Handbook, F1): resources/handbook.html, compiled into the program,
// completed from the program's own tables where a hand-written list would go stale:
//   <!--@methods-->            every method (core/method.h): title, what it does, its demonstrations
//   <!--@demos-->              the demonstrations in lecture order (core/demonstrations.h) with claims
//   <!--@figure-views-->       the keys `poslab figure VIEW` takes (export.h viewKeys)
//   <!--@window-keys-->        every menu action of the window that has a shortcut, with its keys
//   <!--@presentation-keys-->  presentation mode's keys (presentation.h presentationKeys)
// The handbook is shown in a QTextBrowser (anchors jump inside it; external links open outside).
#include <QDialog>
#include <QString>

QT_BEGIN_NAMESPACE
class QMainWindow;
class QTextBrowser;
QT_END_NAMESPACE

namespace poslab::ui {

// The handbook as HTML; `window` gives the menu actions and their shortcuts (nullptr: that
// section says to open the handbook from the window).
QString handbookHtml(const QMainWindow* window);

// The "Shortcut — Menu ▸ Action" rows of every menu-bar action of `window` that has a shortcut.
QStringList windowShortcutRows(const QMainWindow* window);

class HandbookDialog : public QDialog {
    Q_OBJECT
public:
    explicit HandbookDialog(QMainWindow* window);
    QTextBrowser* browser() const { return browser_; }
    // Scrolls to a section: "start", "window", "views", "methods", "lecture", "cli", "keys", "presenting".
    void showSection(const QString& anchor);

private:
    QTextBrowser* browser_ = nullptr;
};

}  // namespace poslab::ui
