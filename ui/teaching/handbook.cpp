#include "ui/teaching/handbook.h"

#include "core/demonstrations.h"
#include "core/method.h"
#include "ui/io/export.h"
#include "ui/model/sceneparams.h"
#include "ui/teaching/demotext.h"
#include "ui/teaching/presentation.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QFile>
#include <QKeySequence>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <functional>

namespace poslab::ui {

namespace {

QString qs(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }
QString esc(const QString& s) { return s.toHtmlEscaped(); }
QString menuText(QString t) {
    t.remove(QRegularExpression(QStringLiteral("&(?!&)")));
    t.replace(QStringLiteral("&&"), QStringLiteral("&"));
    t.remove(QStringLiteral("…"));
    return t.trimmed();
}

QString methodsHtml() {
    QString out = QStringLiteral("<dl>");
    for (Method m : kAllMethods) {
        QStringList demos;
        for (const auto& d : demonstrations())
            for (const auto& k : d.methods)
                if (k == methodKey(m)) {
                    demos << esc(demoTitle(d.id));
                    break;
                }
        out += QStringLiteral("<dt><b>%1</b> (<tt>--method %2</tt>)</dt><dd>%3")
                   .arg(esc(methodTitleText(m)), esc(qs(methodKey(m))), esc(methodSummaryText(m)));
        if (!demos.isEmpty()) out += QStringLiteral("<br>Demonstrations: ") + demos.join(QStringLiteral("; ")) + QStringLiteral(".");
        out += QStringLiteral("</dd>");
    }
    return out + QStringLiteral("</dl>");
}

QString demosHtml() {
    QString out = QStringLiteral("<ol>");
    for (const auto& d : demonstrations())
        out += QStringLiteral("<li><b>%1</b> (<tt>%2</tt>): %3</li>").arg(esc(demoTitle(d.id)), esc(qs(d.key)), esc(demoClaim(d.id)));
    return out + QStringLiteral("</ol>");
}

QString table(const QList<QPair<QString, QString>>& rows) {
    QString out = QStringLiteral("<table cellpadding=\"3\">");
    for (const auto& [k, v] : rows) out += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(esc(k), esc(v));
    return out + QStringLiteral("</table>");
}

QString presentationKeysHtml() {
    QList<QPair<QString, QString>> rows;
    for (const auto& k : presentationKeys()) {
        QStringList names;
        for (int key : k.keys) names << QKeySequence(key).toString(QKeySequence::NativeText);
        rows.append({names.join(QStringLiteral(", ")), QString::fromUtf8(k.action)});
    }
    return table(rows);
}

}  // namespace

QStringList windowShortcutRows(const QMainWindow* window) {
    QStringList out;
    if (!window) return out;
    std::function<void(const QMenu*, const QString&)> walk = [&](const QMenu* menu, const QString& path) {
        for (QAction* a : menu->actions()) {
            if (a->isSeparator()) continue;
            const QString here = path + QStringLiteral(" ▸ ") + menuText(a->text());
            if (a->menu()) {
                walk(a->menu(), here);
                continue;
            }
            QStringList keys;
            for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
            if (!keys.isEmpty()) out << keys.join(QStringLiteral(" or ")) + QStringLiteral("\t") + here.mid(3);
        }
    };
    for (QAction* top : window->menuBar()->actions())
        if (top->menu()) walk(top->menu(), QStringLiteral(" ▸ ") + menuText(top->text()));
    return out;
}

QString handbookHtml(const QMainWindow* window) {
    QFile f(QStringLiteral(":/poslab/handbook.html"));
    QString html = f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll())
                                               : QStringLiteral("<p>The handbook is missing from this build.</p>");
    QList<QPair<QString, QString>> keys;
    for (const QString& row : windowShortcutRows(window)) keys.append({row.section(QLatin1Char('\t'), 0, 0), row.section(QLatin1Char('\t'), 1)});
    html.replace(QStringLiteral("<!--@methods-->"), methodsHtml());
    html.replace(QStringLiteral("<!--@demos-->"), demosHtml());
    html.replace(QStringLiteral("<!--@figure-views-->"), viewKeys().join(QStringLiteral(", ")) + QStringLiteral(", all, layers, demo, deck"));
    html.replace(QStringLiteral("<!--@window-keys-->"),
                 keys.isEmpty() ? QStringLiteral("<p>Open the handbook from the window (Help ▸ Handbook) to see them.</p>") : table(keys));
    html.replace(QStringLiteral("<!--@presentation-keys-->"), presentationKeysHtml());
    return html;
}

HandbookDialog::HandbookDialog(QMainWindow* window) : QDialog(window) {
    setWindowTitle(tr("PosLab handbook"));
    setObjectName(QStringLiteral("handbookDialog"));
    browser_ = new QTextBrowser(this);
    browser_->setObjectName(QStringLiteral("handbookBrowser"));
    browser_->setOpenExternalLinks(true);
    browser_->setHtml(handbookHtml(window));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(browser_);
    layout->addWidget(buttons);
    resize(860, 760);
}

void HandbookDialog::showSection(const QString& anchor) { browser_->scrollToAnchor(anchor); }

}  // namespace poslab::ui
