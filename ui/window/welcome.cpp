#include "ui/window/welcome.h"

#include "ui/io/presets.h"
#include "ui/window/mainwindow.h"
#include "ui/panel/parameterpanel.h"
#include "ui/teaching/deck.h"
#include "ui/window/teaching.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace poslab::ui {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QLabel* text(const QString& t, QWidget* parent) {
    auto* l = new QLabel(t, parent);
    l->setWordWrap(true);
    return l;
}

}  // namespace

WelcomeDialog::WelcomeDialog(MainWindow* window) : QDialog(window), window_(window) {
    setWindowTitle(tr("Welcome to PosLab"));
    setObjectName(QStringLiteral("welcomeDialog"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(text(tr("<h2>Welcome to PosLab</h2><p>See how transformers encode token positions: sinusoidal, "
                              "learned, Shaw, T5, Transformer-XL, ALiBi, RoPE and its scalings (Llama 3.1, YaRN, …), "
                              "xPos. Every number is computed the way the real implementations compute it.</p>"),
                           this));

    auto* explore = new QGroupBox(tr("Explore"), this);
    auto* el = new QVBoxLayout(explore);
    el->addWidget(text(tr("Change any parameter in the panel on the left and every view follows. Hover a field for "
                          "what it means and its valid range; Ctrl+Z undoes any change."),
                       explore));
    explore_ = new QPushButton(tr("Start exploring"), explore);
    explore_->setObjectName(QStringLiteral("welcomeExplore"));
    el->addWidget(explore_, 0, Qt::AlignLeft);
    layout->addWidget(explore);

    auto* lecture = new QGroupBox(tr("The lecture"), this);
    auto* ll = new QVBoxLayout(lecture);
    TeachingController* teaching = teachingOf(window);
    const int slides = teaching ? teaching->deckModel()->count() : 0;
    ll->addWidget(text(tr("A whole lecture on positional encodings in %1 slides, one demonstration each: a claim, "
                          "its numbers, whether it holds. Edit the deck in the deck panel; present it with F5.")
                           .arg(slides),
                       lecture));
    auto* lb = new QHBoxLayout;
    lecture_ = new QPushButton(tr("Open the lecture"), lecture);
    lecture_->setObjectName(QStringLiteral("welcomeLecture"));
    present_ = new QPushButton(tr("Present it now (F5)"), lecture);
    present_->setObjectName(QStringLiteral("welcomePresent"));
    lb->addWidget(lecture_);
    lb->addWidget(present_);
    lb->addStretch(1);
    ll->addLayout(lb);
    layout->addWidget(lecture);

    auto* model = new QGroupBox(tr("A real model"), this);
    auto* ml = new QVBoxLayout(model);
    ml->addWidget(text(tr("Take a real model's positional parameters: a built-in preset, or the model's own "
                          "config.json or GGUF file."),
                       model));
    auto* mb = new QHBoxLayout;
    presets_ = new QComboBox(model);
    presets_->setObjectName(QStringLiteral("welcomePresets"));
    for (const auto& p : modelPresets()) {
        presets_->addItem(qs(p.name), qs(p.key));
        presets_->setItemData(presets_->count() - 1, qs(p.note), Qt::ToolTipRole);
    }
    usePreset_ = new QPushButton(tr("Use this preset"), model);
    usePreset_->setObjectName(QStringLiteral("welcomeUsePreset"));
    openConfig_ = new QPushButton(tr("Open config.json or GGUF…"), model);
    openConfig_->setObjectName(QStringLiteral("welcomeOpenConfig"));
    mb->addWidget(presets_, 1);
    mb->addWidget(usePreset_);
    mb->addWidget(openConfig_);
    ml->addLayout(mb);
    layout->addWidget(model);

    auto* bottom = new QHBoxLayout;
    atEveryStart_ = new QCheckBox(tr("Show this page at every start"), this);
    atEveryStart_->setObjectName(QStringLiteral("welcomeAtEveryStart"));
    atEveryStart_->setChecked(QSettings().value(QStringLiteral("welcome/atEveryStart"), false).toBool());
    handbook_ = new QPushButton(tr("Handbook (F1)"), this);
    handbook_->setObjectName(QStringLiteral("welcomeHandbook"));
    bottom->addWidget(atEveryStart_);
    bottom->addStretch(1);
    bottom->addWidget(handbook_);
    layout->addLayout(bottom);

    connect(atEveryStart_, &QCheckBox::toggled, this, [](bool on) { QSettings().setValue(QStringLiteral("welcome/atEveryStart"), on); });
    connect(explore_, &QPushButton::clicked, this, &QDialog::accept);
    connect(lecture_, &QPushButton::clicked, this, [this] {
        if (TeachingController* t = teachingOf(window_)) {
            if (t->deckModel()->count() > 0) t->deckModel()->openSlide(0);
            t->showDeck(0);
        }
        accept();
    });
    connect(present_, &QPushButton::clicked, this, [this] {
        accept();
        if (TeachingController* t = teachingOf(window_)) t->presentAction()->trigger();
    });
    connect(usePreset_, &QPushButton::clicked, this, [this] {
        window_->panel()->applyPreset(presets_->currentData().toString());
        accept();
    });
    connect(openConfig_, &QPushButton::clicked, this, [this] {
        accept();
        if (auto* a = window_->findChild<QAction*>(QStringLiteral("windowOpenModelConfig"))) a->trigger();
    });
    connect(handbook_, &QPushButton::clicked, this, [this] {
        if (auto* a = window_->findChild<QAction*>(QStringLiteral("helpHandbook"))) a->trigger();
    });
}

WelcomeDialog* welcomeAtStart(MainWindow* window) {
    QSettings settings;
    const bool first = !settings.value(QStringLiteral("welcome/seen"), false).toBool();
    if (!first && !settings.value(QStringLiteral("welcome/atEveryStart"), false).toBool()) return nullptr;
    settings.setValue(QStringLiteral("welcome/seen"), true);
    auto* d = new WelcomeDialog(window);
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->show();
    return d;
}

}  // namespace poslab::ui
