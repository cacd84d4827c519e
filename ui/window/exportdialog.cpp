#include "ui/window/exportdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace poslab::ui {

ExportDialog::ExportDialog(const SceneParams& scene, Defaults windowDefaults, QWidget* parent)
    : QDialog(parent), scene_(scene), defaults_(std::move(windowDefaults)) {
    setWindowTitle(tr("Export figure or data"));
    auto* form = new QFormLayout;

    view_ = new QComboBox(this);
    view_->setObjectName(QStringLiteral("exportView"));
    view_->addItem(tr("All views shown"), QString());
    for (ViewKind v : kAllViews) view_->addItem(viewTitle(v), viewKey(v));
    form->addRow(tr("&View:"), view_);

    format_ = new QComboBox(this);
    format_->setObjectName(QStringLiteral("exportFormat"));
    format_->addItem(tr("PNG image"), QStringLiteral("png"));
    format_->addItem(tr("SVG vector drawing"), QStringLiteral("svg"));
    format_->addItem(tr("PDF vector document"), QStringLiteral("pdf"));
    format_->addItem(tr("CSV plotted values"), QStringLiteral("csv"));
    format_->addItem(tr("JSON plotted values"), QStringLiteral("json"));
    form->addRow(tr("&Format:"), format_);

    auto* size = new QHBoxLayout;
    width_ = new QSpinBox(this);
    width_->setObjectName(QStringLiteral("exportWidth"));
    height_ = new QSpinBox(this);
    height_->setObjectName(QStringLiteral("exportHeight"));
    for (auto* s : {width_, height_}) {
        s->setRange(kMinExportPixels, kMaxExportPixels);
        s->setSuffix(tr(" px"));
    }
    size->addWidget(width_);
    size->addWidget(new QLabel(QStringLiteral("×"), this));
    size->addWidget(height_);
    auto* window = new QPushButton(tr("As in the &window"), this);
    window->setObjectName(QStringLiteral("exportAsWindow"));
    size->addWidget(window);
    // A row whose field is a layout gets a label without a buddy, which would show the '&':
    // the label is made here, its mnemonic going to the width.
    auto* sizeLabel = new QLabel(tr("&Size:"), this);
    sizeLabel->setBuddy(width_);
    form->addRow(sizeLabel, size);

    dpi_ = new QSpinBox(this);
    dpi_->setObjectName(QStringLiteral("exportDpi"));
    dpi_->setRange(kMinDpi, kMaxDpi);
    dpi_->setSuffix(tr(" dpi"));
    dpi_->setToolTip(tr("96 draws at screen scale; 192 is twice as fine; 300 for print. "
                        "SVG and PDF are width/dpi × height/dpi inches."));
    form->addRow(tr("&Resolution:"), dpi_);

    theme_ = new QComboBox(this);
    theme_->setObjectName(QStringLiteral("exportTheme"));
    theme_->addItem(tr("As in the window (%1)").arg(scene.view.theme), QString());
    theme_->addItem(tr("Light (paper)"), QStringLiteral("light"));
    theme_->addItem(tr("Dark"), QStringLiteral("dark"));
    theme_->addItem(tr("Projector (high contrast)"), QStringLiteral("projector"));
    form->addRow(tr("&Theme:"), theme_);

    fontScale_ = new QDoubleSpinBox(this);
    fontScale_->setObjectName(QStringLiteral("exportFontScale"));
    fontScale_->setRange(0.5, 3.0);
    fontScale_->setSingleStep(0.1);
    fontScale_->setDecimals(2);
    fontScale_->setValue(scene.view.fontScale);
    fontScale_->setPrefix(QStringLiteral("× "));
    form->addRow(tr("Text si&ze:"), fontScale_);

    note_ = new QLabel(this);
    note_->setWordWrap(true);
    note_->setObjectName(QStringLiteral("exportNote"));

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    buttons->addButton(tr("&Export…"), QDialogButtonBox::AcceptRole);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note_);
    layout->addWidget(buttons);

    connect(window, &QPushButton::clicked, this, &ExportDialog::resetToWindow);
    connect(view_, &QComboBox::currentIndexChanged, this, &ExportDialog::resetToWindow);
    for (auto* s : {width_, height_, dpi_}) connect(s, &QSpinBox::valueChanged, this, &ExportDialog::updateNote);
    connect(format_, &QComboBox::currentIndexChanged, this, &ExportDialog::updateNote);
    resetToWindow();
}

void ExportDialog::resetToWindow() {
    const ExportRequest d = defaults_ ? defaults_(request().view, request().format) : ExportRequest{};
    width_->setValue(d.pixels.width());
    height_->setValue(d.pixels.height());
    dpi_->setValue(d.dpi);
    updateNote();
}

void ExportDialog::updateNote() {
    const ExportRequest r = request();
    const double w = r.pixels.width() / double(r.dpi), h = r.pixels.height() / double(r.dpi);
    QString text;
    switch (r.format) {
    case ExportFormat::Png: text = tr("%1 × %2 pixels, %3 dpi.").arg(r.pixels.width()).arg(r.pixels.height()).arg(r.dpi); break;
    case ExportFormat::Svg:
    case ExportFormat::Pdf:
        text = tr("%1 × %2 in (%3 × %4 cm), text as text.").arg(w, 0, 'f', 2).arg(h, 0, 'f', 2).arg(w * 2.54, 0, 'f', 1).arg(h * 2.54, 0, 'f', 1);
        break;
    case ExportFormat::Csv:
    case ExportFormat::Json: text = tr("The values the views plot at this size."); break;
    }
    text += QLatin1Char(' ') + tr("The scene is stored in the file: open it with File ▸ Open session or `poslab figure --session`.");
    if (auto p = exportRequestProblem(r)) text = *p;
    note_->setText(text);
}

ExportRequest ExportDialog::request() const {
    ExportRequest r;
    r.view = viewFromKey(view_->currentData().toString());
    r.format = exportFormatFromKey(format_->currentData().toString()).value_or(ExportFormat::Png);
    r.pixels = QSize(width_->value(), height_->value());
    r.dpi = dpi_->value();
    r.theme = theme_->currentData().toString();
    if (fontScale_->value() != scene_.view.fontScale) r.fontScale = fontScale_->value();
    return r;
}

void ExportDialog::setRequest(const ExportRequest& r) {
    view_->setCurrentIndex(std::max(0, view_->findData(r.view ? viewKey(*r.view) : QString())));
    format_->setCurrentIndex(std::max(0, format_->findData(exportFormatKey(r.format))));
    width_->setValue(r.pixels.width());
    height_->setValue(r.pixels.height());
    dpi_->setValue(r.dpi);
    theme_->setCurrentIndex(std::max(0, theme_->findData(r.theme)));
    fontScale_->setValue(r.fontScale.value_or(scene_.view.fontScale));
    updateNote();
}

}  // namespace poslab::ui
