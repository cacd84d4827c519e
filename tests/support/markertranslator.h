#pragma once
// A translator that marks every text of one context: "[Context] text". Installed, it shows which
// words go through that context's translation (tr(), QCoreApplication::translate) — a word shown
// untranslated keeps no mark. Removed again when it goes out of scope.
#include <QByteArray>
#include <QCoreApplication>
#include <QString>
#include <QTranslator>

namespace testsupport {

class MarkerTranslator : public QTranslator {
public:
    explicit MarkerTranslator(QByteArray context) : context_(std::move(context)) { QCoreApplication::installTranslator(this); }
    ~MarkerTranslator() override { QCoreApplication::removeTranslator(this); }
    bool isEmpty() const override { return false; }
    QString translate(const char* context, const char* source, const char*, int) const override {
        return context_ == context ? mark() + QString::fromUtf8(source) : QString();
    }
    // What the translator puts before every text of its context.
    QString mark() const { return QStringLiteral("[%1] ").arg(QString::fromUtf8(context_)); }

private:
    QByteArray context_;
};

}  // namespace testsupport
