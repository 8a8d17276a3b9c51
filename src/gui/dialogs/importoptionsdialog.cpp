#include "gui/dialogs/importoptionsdialog.h"

#include "model/catalog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace weft {

namespace {

constexpr int kFromXml = -1; // item data of "From an NCCL topology file" (presets: their key)

} // namespace

ImportOptionsDialog::ImportOptionsDialog(ImportFormat format, const QString &file,
                                         const Catalog &catalog, QWidget *parent)
    : QDialog(parent)
    , servers(new QComboBox(this))
    , serverXml(new QLineEdit(this))
    , dropUnknown(nullptr)
    , nicTech(nullptr)
    , m_format(format)
    , m_browse(new QPushButton(tr("Browse..."), this))
{
    setWindowTitle(tr("Import %1").arg(QFileInfo(file).fileName()));
    auto *form = new QFormLayout;
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    const bool nccl = format == ImportFormat::NcclTopology;
    if (nccl)
        servers->addItem(tr("auto (from the GPUs in the file)"), QStringLiteral("auto"));
    for (const auto &[key, preset] : catalog.scaleUpPresets)
        servers->addItem(QString::fromStdString(key), QString::fromStdString(key));
    if (!nccl)
        servers->addItem(tr("From an NCCL topology file (.xml)"), kFromXml);
    servers->setCurrentIndex(nccl ? 0 : std::max(0, servers->findData(QStringLiteral("dgx-h100"))));
    servers->setToolTip(
        nccl ? tr("The scale-up preset of the server; auto infers it from the GPUs' PCI device id "
                  "or compute capability")
             : tr("The GPU servers the hosts of the file become: a scale-up preset, or the GPUs, "
                  "NVLinks, NICs and GPU-NIC pairing of one server's NCCL topology XML "
                  "(NCCL_TOPO_DUMP_FILE)"));
    form->addRow(tr("GPU servers:"), servers);
    auto *xmlRow = new QHBoxLayout;
    xmlRow->addWidget(serverXml, 1);
    xmlRow->addWidget(m_browse);
    serverXml->setPlaceholderText(tr("one server's NCCL topology XML"));
    form->addRow(tr("Server topology:"), xmlRow);
    connect(m_browse, &QPushButton::clicked, this, [this, file] {
        const QString xml = QFileDialog::getOpenFileName(
            this, tr("GPU Server Topology (NCCL XML)"), QFileInfo(file).absolutePath(),
            tr("NCCL topology XML (*.xml);;All files (*)"));
        if (!xml.isEmpty())
            serverXml->setText(xml);
    });
    if (format == ImportFormat::Ibnetdiscover) {
        dropUnknown = new QCheckBox(
            tr("Leave out HCAs that are not GPU-server rails (storage, management)"), this);
        dropUnknown->setToolTip(tr("Unchecked, they are kept as InfiniBand endpoints on the "
                                   "switches they are cabled to"));
        form->addRow(QString(), dropUnknown);
    }
    if (format == ImportFormat::SlurmTopology) {
        nicTech = new QComboBox(this);
        for (const auto &[key, tech] : catalog.hardware.linkTechs) {
            if (tech.technology != Technology::InfiniBand
                && tech.technology != Technology::Ethernet)
                continue; // scale-out cables only
            nicTech->addItem(QString::fromStdString(tech.name), QString::fromStdString(key));
        }
        nicTech->setCurrentIndex(std::max(0, nicTech->findData(QStringLiteral("ib-ndr"))));
        nicTech->setToolTip(tr("A Slurm topology has no rates: every NIC is one cable of this "
                               "technology and the uplinks are non-blocking"));
        form->addRow(tr("Cable technology:"), nicTech);
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Import"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
    setMinimumWidth(fontMetrics().averageCharWidth() * 80); // the XML path and its placeholder
    connect(servers, &QComboBox::currentIndexChanged, this, &ImportOptionsDialog::update);
    connect(serverXml, &QLineEdit::textChanged, this, &ImportOptionsDialog::update);
    update();
}

void ImportOptionsDialog::update()
{
    const bool xml = fromXml();
    serverXml->setEnabled(xml);
    m_browse->setEnabled(xml);
    m_ok->setEnabled(complete());
}

bool ImportOptionsDialog::fromXml() const
{
    const QVariant data = servers->currentData();
    return data.typeId() == QMetaType::Int && data.toInt() == kFromXml;
}

bool ImportOptionsDialog::complete() const
{
    return !fromXml() || !serverXml->text().trimmed().isEmpty();
}

ImportChoice ImportOptionsDialog::choice() const
{
    ImportChoice c;
    if (fromXml()) {
        c.preset.clear();
        c.serverXml = serverXml->text().trimmed();
    } else {
        c.preset = servers->currentData().toString();
    }
    c.dropUnknown = dropUnknown && dropUnknown->isChecked();
    if (nicTech)
        c.nicTech = nicTech->currentData().toString();
    return c;
}

} // namespace weft
