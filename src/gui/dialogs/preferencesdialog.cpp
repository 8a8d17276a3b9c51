#include "gui/dialogs/preferencesdialog.h"

#include "gui/theme.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>

namespace weft {

namespace {

QSpinBox *spinBox(const QString &name, int min, int max, int value, const QString &suffix)
{
    auto *box = new QSpinBox;
    box->setObjectName(name);
    box->setRange(min, max);
    box->setValue(value);
    box->setSuffix(suffix);
    return box;
}

} // namespace

PreferencesDialog::PreferencesDialog(QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Preferences"));
    using O = ChartExportOptions;
    const O options = AppSettings::chartExportOptions();

    m_theme = new QComboBox;
    m_theme->setObjectName(QStringLiteral("themeBox"));
    m_theme->addItem(tr("System"), int(Theme::System));
    m_theme->addItem(tr("Light"), int(Theme::Light));
    m_theme->addItem(tr("Dark"), int(Theme::Dark));
    m_theme->setCurrentIndex(m_theme->findData(int(AppSettings::theme())));
    auto *appearance = new QGroupBox(tr("Appearance"));
    auto *appearanceForm = new QFormLayout(appearance);
    appearanceForm->addRow(tr("&Theme:"), m_theme);

    const QString px = tr(" px");
    m_width
        = spinBox(QStringLiteral("widthBox"), O::kMinSide, O::kMaxSide, options.size.width(), px);
    m_height
        = spinBox(QStringLiteral("heightBox"), O::kMinSide, O::kMaxSide, options.size.height(), px);
    m_dpi = spinBox(QStringLiteral("dpiBox"), int(O::kMinDpi), int(O::kMaxDpi),
                    int(std::lround(options.dpi)), tr(" dpi"));
    m_width->setToolTip(tr("Page width in device-independent pixels (1/96 inch); a PNG has "
                           "width × dpi / 96 pixels"));
    m_height->setToolTip(m_width->toolTip().replace(tr("width"), tr("height")));
    m_format = new QComboBox;
    m_format->setObjectName(QStringLiteral("formatBox"));
    for (ChartFormat f : {ChartFormat::Png, ChartFormat::Pdf, ChartFormat::Svg, ChartFormat::Csv})
        m_format->addItem(chartFormatExtension(f).toUpper(), int(f));
    m_format->setCurrentIndex(m_format->findData(int(AppSettings::lastChartFormat())));
    m_folder = new QLineEdit(AppSettings::lastExportFolder());
    m_folder->setObjectName(QStringLiteral("folderEdit"));
    m_folder->setMinimumWidth(280);
    auto *browse = new QPushButton(tr("&Browse..."));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir
            = QFileDialog::getExistingDirectory(this, tr("Export folder"), m_folder->text());
        if (!dir.isEmpty())
            m_folder->setText(dir);
    });
    auto *folderRow = new QHBoxLayout;
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(browse);

    auto *exports = new QGroupBox(tr("Chart export"));
    auto *exportForm = new QFormLayout(exports);
    auto *size = new QHBoxLayout;
    size->addWidget(m_width);
    size->addWidget(new QLabel(QStringLiteral("×")));
    size->addWidget(m_height);
    size->addStretch();
    // Rows holding a layout need an explicit label with a buddy for their mnemonic.
    auto *sizeLabel = new QLabel(tr("Page &size:"));
    sizeLabel->setBuddy(m_width);
    exportForm->addRow(sizeLabel, size);
    exportForm->addRow(tr("&Resolution:"), m_dpi);
    exportForm->addRow(tr("Default &format:"), m_format);
    auto *folderLabel = new QLabel(tr("F&older:"));
    folderLabel->setBuddy(m_folder);
    exportForm->addRow(folderLabel, folderRow);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        apply();
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(appearance);
    layout->addWidget(exports);
    layout->addStretch();
    layout->addWidget(buttons);
}

void PreferencesDialog::apply()
{
    AppSettings::setChartExportOptions(
        {QSize(m_width->value(), m_height->value()), double(m_dpi->value())});
    AppSettings::setLastChartFormat(ChartFormat(m_format->currentData().toInt()));
    if (!m_folder->text().trimmed().isEmpty())
        AppSettings::setLastExportFolder(m_folder->text().trimmed());
    const auto theme = Theme(m_theme->currentData().toInt());
    if (theme != AppSettings::theme())
        chooseTheme(theme);
}

} // namespace weft
