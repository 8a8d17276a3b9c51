#include "gui/dialogs/newclusterwizard.h"

#include "generate/fabricgenerator.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace weft {

NewClusterWizard::NewClusterWizard(const Catalog &catalog, QWidget *parent)
    : QDialog(parent)
    , m_catalog(catalog)
{
    setWindowTitle(tr("New Cluster"));
    setObjectName(QStringLiteral("NewClusterWizard"));
    auto *form = new QFormLayout;
    auto named = [](auto *w, const char *name) {
        w->setObjectName(QLatin1String(name));
        return w;
    };
    m_preset = named(new QComboBox, "preset");
    for (const auto &[key, p] : catalog.scaleUpPresets)
        m_preset->addItem(
            tr("%1 (%2 accelerators)").arg(QString::fromStdString(p.name)).arg(p.accelerators),
            QString::fromStdString(key));
    m_domains = named(new QSpinBox, "domains");
    m_domains->setRange(1, 131072);
    m_fabric = named(new QComboBox, "fabric");
    m_fabric->addItem(tr("Rail-optimized fat-tree"), int(FabricKind::RailOptimized));
    m_fabric->addItem(tr("Plain fat-tree"), int(FabricKind::FatTree));
    m_fabric->addItem(tr("None (scale-up only)"), int(FabricKind::None));
    m_tiers = named(new QSpinBox, "tiers");
    m_tiers->setRange(2, 3);
    m_switch = named(new QComboBox, "switch");
    for (const auto &[key, s] : catalog.hardware.switches)
        if (s.technology != Technology::NVLink)
            m_switch->addItem(tr("%1 (%2 × %3 Gb/s)")
                                  .arg(QString::fromStdString(s.name))
                                  .arg(s.radix)
                                  .arg(s.portRate * 8 / 1e9),
                              QString::fromStdString(key));
    m_nic = named(new QDoubleSpinBox, "nic");
    m_nic->setRange(0, 3200);
    m_nic->setSuffix(tr(" Gb/s"));
    m_nic->setSpecialValueText(tr("preset default"));
    m_oversub = named(new QDoubleSpinBox, "oversubscription");
    m_oversub->setRange(1, 16);
    m_oversub->setSingleStep(0.5);
    m_oversub->setPrefix(tr("1 : "));
    m_planes = named(new QSpinBox, "planes");
    m_planes->setRange(1, 16);
    m_suSize = named(new QSpinBox, "suSize");
    m_suSize->setRange(0, 4096);
    m_suSize->setSpecialValueText(tr("auto"));
    m_suSize->setSuffix(tr(" domains"));
    form->addRow(tr("Scale-up domain"), m_preset);
    form->addRow(tr("Domains"), m_domains);
    form->addRow(tr("Fabric"), m_fabric);
    form->addRow(tr("Tiers"), m_tiers);
    form->addRow(tr("Switch model"), m_switch);
    form->addRow(tr("NIC rate per accelerator"), m_nic);
    form->addRow(tr("Leaf oversubscription"), m_oversub);
    form->addRow(tr("Planes"), m_planes);
    form->addRow(tr("Scalable unit"), m_suSize);

    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_bom = new QTreeWidget;
    m_bom->setHeaderLabels(
        {tr("Bill of materials"), tr("Count"), tr("Cables"), tr("Transceivers")});
    m_bom->setRootIsDecorated(false);
    m_bom->setMinimumHeight(200);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    m_buttons->addButton(tr("Create"), QDialogButtonBox::AcceptRole)
        ->setObjectName(QStringLiteral("create"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *lay = new QVBoxLayout(this);
    lay->addLayout(form);
    lay->addWidget(m_summary);
    lay->addWidget(m_bom, 1);
    lay->addWidget(m_buttons);
    resize(560, 640);

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
        m_problems << QString::fromStdString(e);
    m_bom->clear();
    if (!plan.ok()) {
        m_summary->setText(
            QStringLiteral("<span style='color:#d55e00'><b>%1</b><br>%2</span>")
                .arg(tr("Does not fit:"), m_problems.join(QStringLiteral("<br>")).toHtmlEscaped()));
        return;
    }
    const FabricPlan &p = plan.plan;
    m_summary->setText(
        tr("<b>%1 accelerators</b> in %2 domains · per plane: %3 leaves, %4 spines, %5 cores "
           "· bill of materials below…")
            .arg(p.accelerators)
            .arg(p.domains)
            .arg(p.leaves)
            .arg(p.spines)
            .arg(p.cores));
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
        m_problems = g->errors;
        m_summary->setText(QStringLiteral("<span style='color:#d55e00'>%1</span>")
                               .arg(g->errors.join(QStringLiteral("<br>")).toHtmlEscaped()));
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
    for (const BomLinkLine &l : bom.links)
        row(tr("Links %1 (%2)")
                .arg(QString::fromLatin1(toString(l.tier)),
                     l.optical ? tr("optical") : tr("copper")),
            l.links, l.cables, l.transceivers);
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
