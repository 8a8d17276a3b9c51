#include "importactions.h"

#include "document/catalogstore.h"
#include "document/designdocument.h"
#include "gui/actions/designwindow.h"
#include "gui/canvas/topologyview.h"
#include "gui/dialogs/dialogpresenter.h"
#include "io/nccltopology.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>

namespace weft {

namespace {

constexpr qint64 kMaxImportBytes = qint64(1) << 30; // as weft-cli import

} // namespace

ImportActions::ImportActions(DesignWindow *window, WindowManager *windows)
    : QObject(window->widget())
    , m_window(window)
    , m_windows(windows)
    , m_menu(new QMenu(tr("&Import"), window->widget()))
{
    infiniband = m_menu->addAction(tr("&InfiniBand Fabric (ibnetdiscover)..."));
    infiniband->setStatusTip(tr("Import a running fabric from ibnetdiscover output or an ibsim "
                                "net file"));
    slurm = m_menu->addAction(tr("&Slurm Topology (topology.conf, topology.yaml)..."));
    slurm->setStatusTip(tr("Import the switches and nodes of a Slurm topology.conf (tree plugin) "
                           "or topology.yaml (its tree topology)"));
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
        filter
            = tr("Slurm topology (topology.conf topology.yaml *.conf *.yaml *.yml);;All files (*)");
        break;
    case ImportFormat::NcclTopology:
        title = tr("Import NCCL Server Topology");
        filter = tr("NCCL topology XML (*.xml);;All files (*)");
        break;
    }
    const QString path = QFileDialog::getOpenFileName(m_window->widget(), title, QString(), filter);
    if (path.isEmpty())
        return;
    ImportOptionsDialog options(format, path, CatalogStore::instance().catalog(),
                                m_window->widget());
    if (options.exec() == QDialog::Accepted)
        importFile(format, path, options.choice());
}

bool ImportActions::importFile(ImportFormat format, const QString &path, const QString &preset,
                               const QString &serverXml)
{
    ImportChoice choice;
    choice.preset = preset;
    choice.serverXml = serverXml;
    return importFile(format, path, choice);
}

bool ImportActions::importFile(ImportFormat format, const QString &path, const ImportChoice &choice)
{
    const QString &serverXml = choice.serverXml;
    QString error;
    const auto fail = [&](const QString &file, const QString &text) {
        dialogPresenter().showError(m_window->widget(),
                                    tr("Cannot import %1").arg(QFileInfo(file).fileName()), text);
        return false;
    };
    const auto read = [&](const QString &file, QByteArray &text) {
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly))
            error = tr("%1: %2").arg(file, f.errorString());
        else if (f.size() > kMaxImportBytes)
            error = tr("%1 is larger than 1 GiB.").arg(file);
        else
            text = f.readAll();
        return error.isEmpty();
    };
    QByteArray text;
    if (!read(path, text))
        return fail(path, error);
    Catalog catalog = CatalogStore::instance().catalog();
    FabricImportOptions o;
    o.scaleUpPreset = choice.preset.toStdString();
    o.dropUnknown = choice.dropUnknown;
    o.nicTech = choice.nicTech.toStdString();
    o.name = QFileInfo(path).completeBaseName().toStdString();
    std::vector<std::string> serverNotes;
    if (!serverXml.isEmpty()) {
        QByteArray xml;
        if (!read(serverXml, xml))
            return fail(serverXml, error);
        try {
            useNcclServer(catalog, std::string_view(xml.constData(), std::size_t(xml.size())), o,
                          serverNotes);
        } catch (const std::invalid_argument &e) {
            return fail(serverXml, tr("%1: %2").arg(serverXml, QString::fromUtf8(e.what())));
        }
    }
    FabricImportResult r = importFabric(
        format, std::string_view(text.constData(), std::size_t(text.size())), catalog, o);
    if (!r.ok())
        return fail(path, tr("%1: %2").arg(path, QString::fromStdString(r.error)));
    r.findings.insert(r.findings.end(), serverNotes.begin(), serverNotes.end());
    m_report.clear();
    for (const std::string &s : r.summary)
        m_report << QString::fromStdString(s);
    for (const std::string &s : r.findings)
        m_report << tr("note: %1").arg(QString::fromStdString(s));
    const bool here = m_window->isPristine();
    DesignWindow *target = here ? m_window : m_windows->openWindow();
    target->document()->generateCluster(std::move(*r.design),
                                        tr("Import %1").arg(QFileInfo(path).fileName()));
    target->view()->fitAll();
    emit statusMessage(tr("Imported %1%2: %3%4")
                           .arg(QFileInfo(path).fileName(),
                                here ? QString() : tr(" into a new window"), m_report.value(0))
                           .arg(r.findings.empty()
                                    ? QString()
                                    : tr("; %n note(s), first: %1", nullptr, int(r.findings.size()))
                                          .arg(QString::fromStdString(r.findings.front()))));
    if (!r.findings.empty())
        dialogPresenter().showReport(
            target->widget(), tr("Imported %1").arg(QFileInfo(path).fileName()),
            tr("%1\n\nThe importer left %n note(s) on what it found or assumed:", nullptr,
               int(r.findings.size()))
                    .arg(m_report.value(0))
                + QStringLiteral("\n\n")
                + QStringList(m_report.mid(int(r.summary.size())).mid(0, 5)).join(QLatin1Char('\n'))
                + (r.findings.size() > 5 ? tr("\n... (all in Show Details)") : QString()),
            m_report);
    return true;
}

} // namespace weft
