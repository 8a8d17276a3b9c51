#include "gui/dialogs/preferencesdialog.h"

#include "gui/theme.h"
#include "ui_preferencesdialog.h"

#include <QFileDialog>
#include <cmath>

namespace weft {

PreferencesDialog::PreferencesDialog(QWidget *parent)
    : QDialog(parent)
    , m_ui(std::make_unique<Ui::PreferencesDialog>())
{
    m_ui->setupUi(this);
    using O = ChartExportOptions;
    const O options = AppSettings::chartExportOptions();
    m_ui->themeBox->addItem(tr("System"), int(Theme::System));
    m_ui->themeBox->addItem(tr("Light"), int(Theme::Light));
    m_ui->themeBox->addItem(tr("Dark"), int(Theme::Dark));
    m_ui->themeBox->setCurrentIndex(m_ui->themeBox->findData(int(AppSettings::theme())));
    for (QSpinBox *side : {m_ui->widthBox, m_ui->heightBox})
        side->setRange(O::kMinSide, O::kMaxSide);
    m_ui->widthBox->setValue(options.size.width());
    m_ui->heightBox->setValue(options.size.height());
    m_ui->dpiBox->setRange(int(O::kMinDpi), int(O::kMaxDpi));
    m_ui->dpiBox->setValue(int(std::lround(options.dpi)));
    for (ChartFormat f : {ChartFormat::Png, ChartFormat::Pdf, ChartFormat::Svg, ChartFormat::Csv})
        m_ui->formatBox->addItem(chartFormatExtension(f).toUpper(), int(f));
    m_ui->formatBox->setCurrentIndex(
        m_ui->formatBox->findData(int(AppSettings::lastChartFormat())));
    m_ui->folderEdit->setText(AppSettings::lastExportFolder());
    m_ui->screenThemeBox->setChecked(AppSettings::canvasExportInScreenTheme());
    connect(m_ui->browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Export folder"),
                                                              m_ui->folderEdit->text());
        if (!dir.isEmpty())
            m_ui->folderEdit->setText(dir);
    });
    connect(m_ui->buttons, &QDialogButtonBox::accepted, this, [this] {
        apply();
        accept();
    });
}

PreferencesDialog::~PreferencesDialog() = default;

QComboBox *PreferencesDialog::themeBox() const
{
    return m_ui->themeBox;
}
QSpinBox *PreferencesDialog::widthBox() const
{
    return m_ui->widthBox;
}
QSpinBox *PreferencesDialog::heightBox() const
{
    return m_ui->heightBox;
}
QSpinBox *PreferencesDialog::dpiBox() const
{
    return m_ui->dpiBox;
}
QComboBox *PreferencesDialog::formatBox() const
{
    return m_ui->formatBox;
}
QLineEdit *PreferencesDialog::folderEdit() const
{
    return m_ui->folderEdit;
}

void PreferencesDialog::apply()
{
    AppSettings::setChartExportOptions(
        {QSize(m_ui->widthBox->value(), m_ui->heightBox->value()), double(m_ui->dpiBox->value())});
    AppSettings::setLastChartFormat(ChartFormat(m_ui->formatBox->currentData().toInt()));
    if (const QString folder = m_ui->folderEdit->text().trimmed(); !folder.isEmpty())
        AppSettings::setLastExportFolder(folder);
    AppSettings::setCanvasExportInScreenTheme(m_ui->screenThemeBox->isChecked());
    const auto theme = Theme(m_ui->themeBox->currentData().toInt());
    if (theme != AppSettings::theme())
        chooseTheme(theme);
}

} // namespace weft
