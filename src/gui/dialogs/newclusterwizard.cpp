#include "gui/dialogs/newclusterwizard.h"

#include "generate/fabricgenerator.h"
#include "ui_newclusterwizard.h"

#include <QPushButton>
#include <QRegularExpression>
#include <QtConcurrent>

namespace weft {

NewClusterWizard::NewClusterWizard(const Catalog &catalog, QWidget *parent)
    : QDialog(parent)
    , m_ui(std::make_unique<Ui::NewClusterWizard>())
    , m_catalog(catalog)
{
    m_ui->setupUi(this);
    m_preset = m_ui->preset;
    m_domains = m_ui->domains;
    m_fabric = m_ui->fabric;
    m_tiers = m_ui->tiers;
    m_switch = m_ui->switchModel;
    m_nic = m_ui->nic;
    m_oversub = m_ui->oversubscription;
    m_planes = m_ui->planes;
    m_suSize = m_ui->suSize;
    m_summary = m_ui->summary;
    m_bom = m_ui->bom;
    m_buttons = m_ui->buttons;
    for (const auto &[key, p] : catalog.scaleUpPresets)
        m_preset->addItem(
            tr("%1 (%2 accelerators)").arg(QString::fromStdString(p.name)).arg(p.accelerators),
            QString::fromStdString(key));
    m_fabric->addItem(tr("Rail-optimized fat-tree"), int(FabricKind::RailOptimized));
    m_fabric->addItem(tr("Plain fat-tree"), int(FabricKind::FatTree));
    m_fabric->addItem(tr("None (scale-up only)"), int(FabricKind::None));
    for (const auto &[key, s] : catalog.hardware.switches)
        if (s.technology != Technology::NVLink)
            m_switch->addItem(tr("%1 (%2 × %3 Gb/s)")
                                  .arg(QString::fromStdString(s.name))
                                  .arg(s.radix)
                                  .arg(s.portRate * 8 / 1e9),
                              QString::fromStdString(key));
    m_buttons->addButton(tr("Create"), QDialogButtonBox::AcceptRole)
        ->setObjectName(QStringLiteral("create"));

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(250);
    connect(&m_debounce, &QTimer::timeout, this, &NewClusterWizard::startGeneration);
    connect(&m_watcher, &QFutureWatcher<std::shared_ptr<Generated>>::finished, this,
            &NewClusterWizard::generationFinished);
    for (QComboBox *c : {m_preset, m_fabric, m_switch})
        connect(c, &QComboBox::currentIndexChanged, this, &NewClusterWizard::paramsChanged);
    for (QSpinBox *s : {m_domains, m_tiers, m_planes, m_suSize})
        connect(s, &QSpinBox::valueChanged, this, &NewClusterWizard::paramsChanged);
    for (QDoubleSpinBox *s : {m_nic, m_oversub})
        connect(s, &QDoubleSpinBox::valueChanged, this, &NewClusterWizard::paramsChanged);
    FabricParams defaults;
    defaults.domains = 32;
    defaults.nicRate = 0;
    setParams(defaults);
}

NewClusterWizard::~NewClusterWizard()
{
    m_watcher.waitForFinished();
}

void NewClusterWizard::setParams(const FabricParams &p)
{
    m_preset->setCurrentIndex(
        std::max(0, m_preset->findData(QString::fromStdString(p.scaleUpPreset))));
    m_domains->setValue(p.domains);
    m_fabric->setCurrentIndex(m_fabric->findData(int(p.fabric)));
    m_tiers->setValue(p.tiers);
    m_switch->setCurrentIndex(
        std::max(0, m_switch->findData(QString::fromStdString(p.switchModel))));
    m_nic->setValue(p.nicRate * 8 / 1e9);
    m_oversub->setValue(p.oversubscription);
    m_planes->setValue(p.planes);
    m_suSize->setValue(p.suSize);
    paramsChanged();
}

FabricParams NewClusterWizard::params() const
{
    FabricParams p;
    p.scaleUpPreset = m_preset->currentData().toString().toStdString();
    p.domains = m_domains->value();
    p.fabric = FabricKind(m_fabric->currentData().toInt());
    p.tiers = m_tiers->value();
    p.switchModel = m_switch->currentData().toString().toStdString();
    p.nicRate = m_nic->value() * 1e9 / 8; // Gb/s -> bytes/s
    p.oversubscription = m_oversub->value();
    p.planes = m_planes->value();
    p.suSize = m_suSize->value();
    return p;
}

QString NewClusterWizard::inFieldTerms(const std::string &message) const
{
    QString s = QString::fromStdString(message);
    const qsizetype at = s.lastIndexOf(QStringLiteral("; use --"));
    if (at < 0)
        return s;
    // The fix: flags and values (a value may be followed by a parenthesis that explains it).
    static const QRegularExpression flag(QStringLiteral("--([a-z-]+) (\\S+)"));
    const QString fix = s.mid(at + 6);
    QString out;
    qsizetype last = 0;
    for (auto it = flag.globalMatch(fix); it.hasNext();) {
        const QRegularExpressionMatch mt = it.next();
        const QString name = mt.captured(1), value = mt.captured(2);
        QString field;
        if (name == u"fabric") {
            FabricKind kind {};
            const int i
                = fromString(value.toStdString(), kind) ? m_fabric->findData(int(kind)) : -1;
            field = tr("Fabric to “%1”").arg(i >= 0 ? m_fabric->itemText(i) : value);
        } else if (name == u"tiers") {
            field = tr("Tiers to %1").arg(value);
        } else if (name == u"switch") {
            const int i = m_switch->findData(value);
            field = tr("Switch model to “%1”").arg(i >= 0 ? m_switch->itemText(i) : value);
        } else if (name == u"su-size") {
            field = tr("Scalable unit to %1 domains").arg(value);
        } else {
            field = mt.captured(0);
        }
        QString between = fix.mid(last, mt.capturedStart() - last);
        if (last > 0 && between == u" ") // the next field of the same fix
            between = QStringLiteral(", ");
        out += between + field;
        last = mt.capturedEnd();
    }
    out += fix.mid(last);
    return s.left(at) + QStringLiteral("; ") + tr("set") + u' ' + out.trimmed();
}

void NewClusterWizard::showProblems()
{
    m_summary->setText(
        QStringLiteral("<span style='color:#d55e00'><b>%1</b><br>%2</span>")
            .arg(tr("Does not fit:"), m_problems.join(QStringLiteral("<br>")).toHtmlEscaped()));
}

void NewClusterWizard::paramsChanged()
{
    ++m_serial;
    m_design.reset();
    for (QAbstractButton *b : m_buttons->buttons())
        if (m_buttons->buttonRole(b) == QDialogButtonBox::AcceptRole)
            b->setEnabled(false);
    m_tiers->setEnabled(m_fabric->currentData().toInt() != int(FabricKind::None));
    // Port budgets: instant (planFabric is O(1) in the fabric size).
    const PlanResult plan = planFabric(params(), m_catalog);
    m_problems.clear();
    for (const std::string &e : plan.errors)
        m_problems << inFieldTerms(e);
    m_bom->clear();
    if (!plan.ok()) {
        showProblems();
        return;
    }
    const FabricPlan &p = plan.plan;
    // "1 spine", "2 spines" (tr's %n plural needs a translation loaded to apply).
    const auto count = [](std::int64_t n, const QString &one, const QString &many) {
        return n == 1 ? one : many.arg(n);
    };
    QStringList tiers {count(p.leaves, tr("1 leaf"), tr("%1 leaves")),
                       count(p.spines, tr("1 spine"), tr("%1 spines"))};
    if (p.cores > 0)
        tiers << count(p.cores, tr("1 core"), tr("%1 cores"));
    m_summary->setText(tr("<b>%1</b> in %2 · per plane: %3 · bill of materials below…")
                           .arg(count(p.accelerators, tr("1 accelerator"), tr("%1 accelerators")),
                                count(p.domains, tr("1 domain"), tr("%1 domains")),
                                tiers.join(QStringLiteral(", "))));
    m_debounce.start();
}

void NewClusterWizard::startGeneration()
{
    if (m_watcher.isRunning()) { // finish the stale run first; its result is discarded by serial
        m_debounce.start();
        return;
    }
    const int serial = m_serial;
    const FabricParams p = params();
    const Catalog catalog = m_catalog;
    m_watcher.setFuture(QtConcurrent::run([serial, p, catalog] {
        auto g = std::make_shared<Generated>();
        g->serial = serial;
        GenerateResult r = generateFabric(p, catalog);
        for (const std::string &e : r.errors)
            g->errors << QString::fromStdString(e);
        if (r.design) {
            g->bom = computeBom(*r.design);
            g->design = std::move(r.design);
        }
        return g;
    }));
}

void NewClusterWizard::generationFinished()
{
    std::shared_ptr<Generated> g = m_watcher.result();
    if (!g || g->serial != m_serial)
        return;
    if (!g->design) {
        m_problems.clear();
        for (const QString &e : g->errors)
            m_problems << inFieldTerms(e.toStdString());
        showProblems();
        return;
    }
    const BillOfMaterials &bom = g->bom;
    auto row = [this](const QString &what, std::int64_t count, std::int64_t cables = -1,
                      std::int64_t tx = -1) {
        auto *item = new QTreeWidgetItem(m_bom,
                                         {what, QString::number(count),
                                          cables < 0 ? QString() : QString::number(cables),
                                          tx < 0 ? QString() : QString::number(tx)});
        for (int c = 1; c < 4; ++c)
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    };
    for (const BomAcceleratorLine &a : bom.accelerators)
        row(QString::fromStdString(a.name), a.count);
    for (const BomSwitchLine &s : bom.switches)
        row(tr("%1 switch: %2")
                .arg(QString::fromLatin1(toString(s.role)), QString::fromStdString(s.name)),
            s.count);
    for (const BomLinkLine &l : bom.links) {
        const QString medium = l.medium == BomMedium::BoardTrace
            ? tr("board traces: %1").arg(l.lanes)
            : l.medium == BomMedium::Copper ? tr("copper")
                                            : tr("optical");
        row(tr("Links %1 (%2)").arg(QString::fromLatin1(toString(l.tier)), medium), l.links,
            l.cables, l.transceivers);
    }
    for (const BomTransceiverLine &t : bom.transceivers)
        row(tr("Transceiver %1").arg(QString::fromStdString(t.type)), t.count);
    row(tr("Total"), bom.totalAccelerators + bom.totalSwitches, bom.totalCables,
        bom.totalTransceivers);
    for (int c = 0; c < 4; ++c)
        m_bom->resizeColumnToContents(c);
    m_bom->setToolTip(QString::fromLatin1(bomAssumptions()));
    m_design = std::move(g->design);
    for (QAbstractButton *b : m_buttons->buttons())
        if (m_buttons->buttonRole(b) == QDialogButtonBox::AcceptRole)
            b->setEnabled(true);
    emit ready();
}

std::optional<Design> NewClusterWizard::takeDesign()
{
    std::optional<Design> d = std::move(m_design);
    m_design.reset();
    return d;
}

} // namespace weft
