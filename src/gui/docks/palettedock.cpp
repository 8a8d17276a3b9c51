#include "gui/docks/palettedock.h"

#include "gui/canvas/catalogmime.h"
#include "gui/dialogs/customhardwaredialog.h"
#include "gui/dialogs/dialogpresenter.h"
#include "gui/simulation/resultsummary.h"
#include "gui/widgets/elidingcombobox.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHash>
#include <QHeaderView>
#include <QIcon>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QToolButton>
#include <QVBoxLayout>
#include <memory>
#include <type_traits>

namespace weft {

namespace {

constexpr int kKindRole = Qt::UserRole + 1;
constexpr int kKeyRole = Qt::UserRole + 2;
constexpr int kSwitchRoleRole = Qt::UserRole + 3;
constexpr int kFullNameRole = Qt::UserRole + 4;

/// `name` without its vendor ("NVIDIA Quantum-2 QM9700 (NDR)" -> "Quantum-2 QM9700 (NDR)"):
/// in a dock 200-250 px wide the vendor took the room that tells the models apart. The
/// tooltip and the filter keep the full name.
QString shownName(const std::string &name)
{
    QString s = QString::fromStdString(name);
    for (const QLatin1String vendor : {QLatin1String("NVIDIA "), QLatin1String("AMD "),
                                       QLatin1String("Broadcom "), QLatin1String("Intel ")})
        if (s.startsWith(vendor) && s.size() > vendor.size())
            return s.mid(vendor.size());
    return s;
}

QString gbps(double bytesPerSecond)
{
    return QString::number(bytesPerSecond * 8 / 1e9, 'g', 4);
}

// A palette row showing `text`; its tooltip starts with `fullName` (the spec's name).
QTreeWidgetItem *entry(QTreeWidgetItem *parent, const QString &text, const QString &fullName,
                       const QString &tip, CatalogItem::Kind kind, const std::string &key,
                       const QIcon &icon, SwitchRole role = SwitchRole::Leaf)
{
    auto *e = new QTreeWidgetItem(parent, {text});
    // The full name first: a narrow palette elides names in the middle (QM8700 / QM9700).
    e->setToolTip(0, tip.isEmpty() ? fullName : fullName + u'\n' + tip);
    e->setData(0, kFullNameRole, fullName);
    e->setIcon(0, icon);
    e->setData(0, kKindRole, int(kind));
    e->setData(0, kKeyRole, QString::fromStdString(key));
    e->setData(0, kSwitchRoleRole, int(role));
    e->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled);
    return e;
}

QTreeWidgetItem *category(QTreeWidget *tree, const QString &text)
{
    auto *c = new QTreeWidgetItem(tree, {text});
    c->setFlags(Qt::ItemIsEnabled);
    QFont f = c->font(0);
    f.setBold(true);
    c->setFont(0, f);
    return c;
}

/// "GB200 (Blackwell GPU in NVL72)" -> "GB200" in `category` when no other entry there shares
/// "GB200": in a dock 200-250 px wide the qualifier was elided in the middle ("GB200 (Bla… in
/// NVL72)", "Grand Tet…B, 500 W)"). The tooltip and the filter keep the full name.
void dropUniqueQualifiers(QTreeWidgetItem *category)
{
    QHash<QString, int> uses;
    for (int i = 0; i < category->childCount(); ++i)
        ++uses[withoutQualifier(category->child(i)->text(0))];
    for (int i = 0; i < category->childCount(); ++i) {
        QTreeWidgetItem *e = category->child(i);
        if (const QString b = withoutQualifier(e->text(0)); uses.value(b) == 1)
            e->setText(0, b);
    }
}

// Shows the children of `parent` (recursively) whose text, or an ancestor's or descendant's,
// contains `text`; returns whether any is shown.
bool filterItems(QTreeWidgetItem *parent, const QString &text, bool ancestorMatches)
{
    bool any = false;
    for (int i = 0; i < parent->childCount(); ++i) {
        QTreeWidgetItem *item = parent->child(i);
        const bool matches = ancestorMatches || item->text(0).contains(text, Qt::CaseInsensitive)
            || item->data(0, kFullNameRole).toString().contains(text, Qt::CaseInsensitive);
        const bool shown = filterItems(item, text, matches) || matches;
        item->setHidden(!shown);
        any = any || shown;
    }
    return any;
}

void addAccelerator(QTreeWidgetItem *parent, const AcceleratorSpec &a)
{
    entry(parent, shownName(a.name), QString::fromStdString(a.name),
          QObject::tr("%1 TFLOP/s BF16 · %2 GB HBM · %3 GB/s\nDrop into a domain to make it a "
                      "member.")
              .arg(a.peakFlopsBf16 / 1e12, 0, 'f', 0)
              .arg(gigabytesText(a.hbmBytes))
              .arg(a.hbmBandwidth / 1e9, 0, 'f', 0),
          CatalogItem::Kind::Accelerator, a.key,
          QIcon(QStringLiteral(":/weft/icons/accelerator.svg")));
}

void addSwitch(QTreeWidgetItem *parent, const SwitchSpec &s)
{
    const QIcon swIcon(QStringLiteral(":/weft/icons/switch.svg"));
    const QString tip
        = QObject::tr("%1 ports × %2 Gb/s (%3)%4")
              .arg(s.radix)
              .arg(gbps(s.portRate))
              .arg(QString::fromLatin1(toString(s.technology)))
              .arg(s.inNetworkReduction ? QObject::tr(", in-network reduction") : QString());
    if (s.technology == Technology::NVLink) {
        entry(parent, shownName(s.name), QString::fromStdString(s.name), tip,
              CatalogItem::Kind::Switch, s.key, swIcon, SwitchRole::ScaleUp);
        return;
    }
    // One row per model, its tiers below it: the tier stays readable in a narrow dock. The model
    // row names the spec (edit, delete) but does not drag.
    QTreeWidgetItem *model = entry(parent, shownName(s.name), QString::fromStdString(s.name),
                                   QObject::tr("%1\nDrag a tier below onto the canvas.").arg(tip),
                                   CatalogItem::Kind::Switch, s.key, swIcon);
    model->setFlags(Qt::ItemIsEnabled);
    const std::pair<SwitchRole, QString> tiers[] = {{SwitchRole::Leaf, QObject::tr("Leaf (ToR)")},
                                                    {SwitchRole::Spine, QObject::tr("Spine")},
                                                    {SwitchRole::Core, QObject::tr("Core")}};
    for (const auto &[role, text] : tiers)
        entry(model, text, text,
              QObject::tr("%1 as a %2 switch\n%3")
                  .arg(QString::fromStdString(s.name), QString::fromLatin1(toString(role)), tip),
              CatalogItem::Kind::Switch, s.key, swIcon, role);
}

} // namespace

PaletteTree::PaletteTree(QWidget *parent)
    : QTreeWidget(parent)
{
    setHeaderHidden(true);
    setTextElideMode(Qt::ElideMiddle); // "NVIDIA Qu…QM8700 (HDR)" keeps the model apart
    setDragEnabled(true);
    setDragDropMode(DragOnly);
    setIconSize(QSize(20, 20));
    setIndentation(12); // two levels of the default 20 px took the room of "Instinct MI300X"
    setRootIsDecorated(true);
    setContextMenuPolicy(Qt::CustomContextMenu);
}

void PaletteTree::rebuild(const CatalogStore &store)
{
    clear();
    const Catalog &catalog = store.catalog();
    const HardwareTable &hw = catalog.hardware;
    const Catalog &custom = store.custom();
    QTreeWidgetItem *acc = category(this, tr("Accelerators"));
    QTreeWidgetItem *dom = category(this, tr("Scale-up domains"));
    QTreeWidgetItem *sw = category(this, tr("Switches"));
    m_custom = category(this, tr("Custom"));
    m_custom->setToolTip(0,
                         tr("Your own accelerators and switches, saved in %1")
                             .arg(QDir::toNativeSeparators(store.userPath())));
    for (const auto &[key, a] : hw.accelerators)
        addAccelerator(custom.hardware.accelerators.count(key) ? m_custom : acc, a);
    for (const auto &[key, p] : catalog.scaleUpPresets)
        entry(
            custom.scaleUpPresets.count(key) ? m_custom : dom, shownName(p.name),
            QString::fromStdString(p.name),
            tr("%1 accelerators, %2 scale-up switches").arg(p.accelerators).arg(p.scaleUpSwitches),
            CatalogItem::Kind::ScaleUpPreset, key,
            QIcon(QStringLiteral(":/weft/icons/domain.svg")));
    for (const auto &[key, s] : hw.switches)
        addSwitch(custom.hardware.switches.count(key) ? m_custom : sw, s);
    dropUniqueQualifiers(acc);
    dropUniqueQualifiers(dom);
    if (m_custom->childCount() == 0) {
        auto *hint = new QTreeWidgetItem(m_custom, {tr("Add your own with + or right-click")});
        hint->setFlags(Qt::NoItemFlags);
        QFont f = hint->font(0);
        f.setItalic(true);
        hint->setFont(0, f);
    }
    expandAll();
}

std::optional<CatalogItem> PaletteTree::itemOf(const QTreeWidgetItem *e) const
{
    if (!e || !(e->flags() & Qt::ItemIsDragEnabled))
        return std::nullopt;
    return specOf(e);
}

std::optional<CatalogItem> PaletteTree::specOf(const QTreeWidgetItem *e) const
{
    if (!e || !e->data(0, kKindRole).isValid())
        return std::nullopt;
    CatalogItem item;
    item.kind = CatalogItem::Kind(e->data(0, kKindRole).toInt());
    item.key = e->data(0, kKeyRole).toString().toStdString();
    item.role = SwitchRole(e->data(0, kSwitchRoleRole).toInt());
    return item;
}

QTreeWidgetItem *PaletteTree::findEntry(const QString &text) const
{
    const auto found = findItems(text, Qt::MatchContains | Qt::MatchRecursive);
    for (QTreeWidgetItem *e : found)
        if (itemOf(e))
            return e;
    return nullptr;
}

QMimeData *PaletteTree::mimeData(const QList<QTreeWidgetItem *> &items) const
{
    if (items.isEmpty())
        return nullptr;
    const auto item = itemOf(items.front());
    return item ? catalogMimeData(*item).release() : nullptr; // QDrag takes ownership
}

QStringList PaletteTree::mimeTypes() const
{
    return {QString::fromLatin1(kCatalogMime)};
}

template<class Spec> void PaletteDock::openNew(Spec spec, std::string name)
{
    spec.key.clear(); // a new key on OK
    spec.name = std::move(name);
    spec.source.clear(); // the figures are the user's now
    openDialog(spec);
}

template<class Spec> void PaletteDock::openDialog(Spec spec)
{
    auto *dialog = new CustomHardwareDialog(spec, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        QString error;
        bool ok = false;
        std::string key;
        if constexpr (std::is_same_v<Spec, AcceleratorSpec>) {
            AcceleratorSpec s = dialog->accelerator();
            if (s.key.empty())
                s.key = m_store->newKey(s.name);
            key = s.key;
            ok = m_store->putAccelerator(s, &error);
        } else {
            SwitchSpec s = dialog->switchSpec();
            if (s.key.empty())
                s.key = m_store->newKey(s.name);
            key = s.key;
            ok = m_store->putSwitch(s, &error);
        }
        if (!ok) {
            dialogPresenter().showError(this, tr("Cannot save the custom entry"), error);
            return;
        }
        // Show the entry just saved (the Custom group is at the bottom of a long list).
        QTreeWidgetItem *custom = m_tree->customCategory();
        for (int i = 0; i < custom->childCount(); ++i)
            if (const auto spec = m_tree->specOf(custom->child(i)); spec && spec->key == key) {
                m_tree->setCurrentItem(custom->child(i));
                m_tree->scrollToItem(custom->child(i));
            }
    });
    dialog->open();
}

PaletteDock::PaletteDock(CatalogStore *store, QWidget *parent)
    : QDockWidget(tr("Palette"), parent)
    , m_store(store)
    , m_tree(new PaletteTree)
    , m_filter(new QLineEdit)
    , m_problem(new QLabel)
{
    setObjectName(QStringLiteral("PaletteDock"));
    auto *box = new QWidget;
    box->setMinimumWidth(kMinimumWidth); // "Quantum-X800 Q3400 (XDR)" and the like in full
    auto *lay = new QVBoxLayout(box);
    lay->setContentsMargins(4, 4, 4, 4);
    m_filter->setPlaceholderText(tr("Filter hardware…"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, this, &PaletteDock::applyFilter);

    newAccelerator = new QAction(QIcon(QStringLiteral(":/weft/icons/accelerator.svg")),
                                 tr("New Custom &Accelerator…"), this);
    newSwitch = new QAction(QIcon(QStringLiteral(":/weft/icons/switch.svg")),
                            tr("New Custom &Switch…"), this);
    // New entries start from common figures (H100 SXM, Quantum-2 NDR), to be overwritten.
    connect(newAccelerator, &QAction::triggered, this,
            [this] { openNew(m_store->catalog().hardware.accelerators.at("h100-sxm"), {}); });
    connect(newSwitch, &QAction::triggered, this,
            [this] { openNew(m_store->catalog().hardware.switches.at("qm9700"), {}); });
    auto *add = new QToolButton;
    add->setText(QStringLiteral("+"));
    add->setToolTip(tr("Add a custom accelerator or switch"));
    add->setPopupMode(QToolButton::InstantPopup);
    auto *addMenu = new QMenu(add);
    addMenu->addActions({newAccelerator, newSwitch});
    add->setMenu(addMenu);
    auto *row = new QHBoxLayout;
    row->addWidget(m_filter, 1);
    row->addWidget(add);
    lay->addLayout(row);

    m_problem->setWordWrap(true);
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problem->setStyleSheet(QStringLiteral("color: #d55e00;"));
    lay->addWidget(m_problem);
    lay->addWidget(m_tree);
    setWidget(box);

    connect(m_tree, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        std::unique_ptr<QMenu> menu(contextMenuFor(m_tree->itemAt(pos)));
        menu->exec(m_tree->viewport()->mapToGlobal(pos));
    });
    connect(m_tree, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem *row) {
        if (const auto spec = m_tree->specOf(row); spec && m_store->isCustom(*spec))
            editCustom(*spec);
    });
    connect(m_store, &CatalogStore::changed, this, &PaletteDock::refresh);
    refresh();
}

void PaletteDock::refresh()
{
    m_tree->rebuild(*m_store);
    applyFilter();
    const QString problem = m_store->loadError();
    m_problem->setVisible(!problem.isEmpty());
    m_problem->setText(tr("Your custom catalog could not be read, so only the built-in hardware "
                          "is listed.\n%1\nAdding a custom entry keeps that file as %2.broken.")
                           .arg(problem, QFileInfo(m_store->userPath()).fileName()));
}

void PaletteDock::applyFilter()
{
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i)
        filterItems(m_tree->topLevelItem(i), m_filter->text(), false);
}

QMenu *PaletteDock::contextMenuFor(QTreeWidgetItem *row)
{
    auto *menu = new QMenu(this);
    const auto spec = m_tree->specOf(row);
    const HardwareTable &hw = m_store->catalog().hardware;
    if (spec && m_store->isCustom(*spec)) {
        const CatalogItem item = *spec;
        if (item.kind != CatalogItem::Kind::ScaleUpPreset)
            menu->addAction(tr("&Edit…"), this, [this, item] { editCustom(item); });
        menu->addAction(QIcon(QStringLiteral(":/weft/icons/delete.svg")), tr("&Delete"), this,
                        [this, item] { deleteCustom(item); });
        menu->addSeparator();
    } else if (spec && spec->kind == CatalogItem::Kind::Accelerator) {
        const AcceleratorSpec &a = hw.accelerators.at(spec->key);
        menu->addAction(tr("New Custom Accelerator &Based on This…"), this,
                        [this, a] { openNew(a, a.name + " (custom)"); });
    } else if (spec && spec->kind == CatalogItem::Kind::Switch) {
        const SwitchSpec &sw = hw.switches.at(spec->key);
        menu->addAction(tr("New Custom Switch &Based on This…"), this,
                        [this, sw] { openNew(sw, sw.name + " (custom)"); });
    }
    menu->addActions({newAccelerator, newSwitch});
    return menu;
}

void PaletteDock::editCustom(const CatalogItem &item)
{
    const HardwareTable &hw = m_store->custom().hardware;
    if (item.kind == CatalogItem::Kind::Accelerator && hw.accelerators.count(item.key))
        openDialog(hw.accelerators.at(item.key));
    else if (item.kind == CatalogItem::Kind::Switch && hw.switches.count(item.key))
        openDialog(hw.switches.at(item.key));
}

void PaletteDock::deleteCustom(const CatalogItem &item)
{
    const Catalog &c = m_store->catalog();
    std::string name = item.key;
    if (auto a = c.hardware.accelerators.find(item.key);
        item.kind == CatalogItem::Kind::Accelerator && a != c.hardware.accelerators.end())
        name = a->second.name;
    else if (auto sw = c.hardware.switches.find(item.key);
             item.kind == CatalogItem::Kind::Switch && sw != c.hardware.switches.end())
        name = sw->second.name;
    if (!dialogPresenter().askConfirm(
            this, tr("Delete custom entry"),
            tr("Delete \"%1\" from your custom catalog?\n\nDesigns that use it keep their own "
               "copy of its figures.")
                .arg(QString::fromStdString(name))))
        return;
    QString error;
    if (!m_store->remove(item, &error))
        dialogPresenter().showError(this, tr("Cannot delete"), error);
}

} // namespace weft
