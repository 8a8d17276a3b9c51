#include "importactions.h"

#include "document/catalogstore.h"
#include "document/designdocument.h"
#include "gui/canvas/topologyview.h"
#include "gui/dialogs/dialogpresenter.h"
#include "gui/mainwindow.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenu>

namespace weft {

namespace {

constexpr qint64 kMaxImportBytes = qint64(1) << 30; // as weft-cli import

} // namespace

ImportActions::ImportActions(MainWindow *window)
    : QObject(window)
    , m_window(window)
    , m_menu(new QMenu(tr("&Import"), window))
{
    infiniband = m_menu->addAction(tr("&InfiniBand Fabric (ibnetdiscover)..."));
    infiniband->setStatusTip(tr("Import a running fabric from ibnetdiscover output or an ibsim "
                                "net file"));
    slurm = m_menu->addAction(tr("&Slurm Topology (topology.conf)..."));
    slurm->setStatusTip(tr("Import the switches and nodes of a Slurm topology.conf"));
    nccl = m_menu->addAction(tr("&NCCL Server Topology (XML)..."));
    nccl->setStatusTip(tr("Import one GPU server's GPUs, NVLinks and NICs from NCCL's topology "
                          "XML (NCCL_TOPO_DUMP_FILE)"));
    connect(nccl, &QAction::triggered, this, [this] { choose(ImportFormat::NcclTopology); });
    connect(infiniband, &QAction::triggered, this, [this] { choose(ImportFormat::Ibnetdiscover); });
    connect(slurm, &QAction::triggered, this, [this] { choose(ImportFormat::SlurmTopology); });
}

void ImportActions::choose(ImportFormat format)
{
    QString title, filter;
    switch (format) {
    case ImportFormat::Ibnetdiscover:
        title = tr("Import InfiniBand Fabric");
        filter = tr("ibnetdiscover output (*.ibnetdiscover *.txt *.net *.out);;All files (*)");
        break;
    case ImportFormat::SlurmTopology:
        title = tr("Import Slurm Topology");
        filter = tr("Slurm topology (topology.conf *.conf);;All files (*)");
        break;
    case ImportFormat::NcclTopology:
        title = tr("Import NCCL Server Topology");
        filter = tr("NCCL topology XML (*.xml);;All files (*)");
        break;
    }
    const QString path = QFileDialog::getOpenFileName(m_window, title, QString(), filter);
    if (path.isEmpty())
        return;
    // NCCL's file names the GPUs (PCI device id, sm): the preset is inferred unless one is chosen.
    const bool nccl = format == ImportFormat::NcclTopology;
    const QString automatic = tr("auto (from the file)");
    QStringList presets;
    if (nccl)
        presets << automatic;
    for (const auto &[key, preset] : CatalogStore::instance().catalog().scaleUpPresets)
        presets << QString::fromStdString(key);
    bool ok = false;
    const QString preset = QInputDialog::getItem(
        m_window, tr("GPU Servers"), tr("Scale-up preset of the GPU servers:"), presets,
        nccl ? 0 : std::max<qsizetype>(0, presets.indexOf(QStringLiteral("dgx-h100"))), false, &ok);
    if (ok)
        importFile(format, path, preset == automatic ? QStringLiteral("auto") : preset);
}

bool ImportActions::importFile(ImportFormat format, const QString &path, const QString &preset)
{
    const auto fail = [&](const QString &text) {
        dialogPresenter().showError(m_window,
                                    tr("Cannot import %1").arg(QFileInfo(path).fileName()), text);
        return false;
    };
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(tr("%1: %2").arg(path, file.errorString()));
    if (file.size() > kMaxImportBytes)
        return fail(tr("%1 is larger than 1 GiB.").arg(path));
    const QByteArray text = file.readAll();
    FabricImportOptions o;
    o.scaleUpPreset = preset.toStdString();
    o.name = QFileInfo(path).completeBaseName().toStdString();
    FabricImportResult r
        = importFabric(format, std::string_view(text.constData(), std::size_t(text.size())),
                       CatalogStore::instance().catalog(), o);
    if (!r.ok())
        return fail(tr("%1: %2").arg(path, QString::fromStdString(r.error)));
    m_report.clear();
    for (const std::string &s : r.summary)
        m_report << QString::fromStdString(s);
    for (const std::string &s : r.findings)
        m_report << tr("note: %1").arg(QString::fromStdString(s));
    m_window->document()->generateCluster(std::move(*r.design));
    m_window->view()->fitAll();
    emit m_window->statusMessage(
        tr("Imported %1: %2%3")
            .arg(QFileInfo(path).fileName(), m_report.value(0))
            .arg(r.findings.empty() ? QString()
                                    : tr("; %n note(s), first: %1", nullptr, int(r.findings.size()))
                                          .arg(QString::fromStdString(r.findings.front()))));
    return true;
}

} // namespace weft
