#include "gui/docks/palettedock.h"

#include "gui/canvas/catalogmime.h"

#include <QHeaderView>
#include <QIcon>
#include <QLineEdit>
#include <QVBoxLayout>

namespace weft {

namespace {

constexpr int kKindRole = Qt::UserRole + 1;
constexpr int kKeyRole = Qt::UserRole + 2;
constexpr int kSwitchRoleRole = Qt::UserRole + 3;

QString gbps(double bytesPerSecond)
{
    return QString::number(bytesPerSecond * 8 / 1e9, 'g', 4);
}

QTreeWidgetItem *entry(QTreeWidgetItem *parent, const QString &text, const QString &tip,
                       CatalogItem::Kind kind, const std::string &key, const QIcon &icon,
                       SwitchRole role = SwitchRole::Leaf)
{
    auto *e = new QTreeWidgetItem(parent, {text});
    e->setToolTip(0, tip);
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

// Shows the children of `parent` (recursively) whose text, or an ancestor's or descendant's,
// contains `text`; returns whether any is shown.
bool filterItems(QTreeWidgetItem *parent, const QString &text, bool ancestorMatches)
{
    bool any = false;
    for (int i = 0; i < parent->childCount(); ++i) {
        QTreeWidgetItem *item = parent->child(i);
        const bool matches = ancestorMatches || item->text(0).contains(text, Qt::CaseInsensitive);
        const bool shown = filterItems(item, text, matches) || matches;
        item->setHidden(!shown);
        any = any || shown;
    }
    return any;
}

} // namespace

PaletteTree::PaletteTree(const Catalog &catalog, QWidget *parent)
    : QTreeWidget(parent)
{
    setHeaderHidden(true);
    setDragEnabled(true);
    setDragDropMode(DragOnly);
    setIconSize(QSize(20, 20));
    setRootIsDecorated(true);
    const QIcon accIcon(QStringLiteral(":/weft/icons/accelerator.svg"));
    const QIcon domIcon(QStringLiteral(":/weft/icons/domain.svg"));
    const QIcon swIcon(QStringLiteral(":/weft/icons/switch.svg"));
    const HardwareTable &hw = catalog.hardware;

    QTreeWidgetItem *acc = category(this, tr("Accelerators"));
    for (const auto &[key, a] : hw.accelerators)
        entry(acc, QString::fromStdString(a.name),
              tr("%1\n%2 TFLOP/s BF16 · %3 GB HBM\nDrop into a domain to make it a member.")
                  .arg(QString::fromStdString(a.name))
                  .arg(a.peakFlopsBf16 / 1e12, 0, 'f', 0)
                  .arg(a.hbmBytes / 1e9, 0, 'f', 0),
              CatalogItem::Kind::Accelerator, key, accIcon);
    QTreeWidgetItem *dom = category(this, tr("Scale-up domains"));
    for (const auto &[key, p] : catalog.scaleUpPresets)
        entry(
            dom, QString::fromStdString(p.name),
            tr("%1 accelerators, %2 scale-up switches").arg(p.accelerators).arg(p.scaleUpSwitches),
            CatalogItem::Kind::ScaleUpPreset, key, domIcon);
    QTreeWidgetItem *sw = category(this, tr("Switches"));
    for (const auto &[key, s] : hw.switches) {
        const QString tip = tr("%1 ports × %2 Gb/s (%3)")
                                .arg(s.radix)
                                .arg(gbps(s.portRate))
                                .arg(QString::fromLatin1(toString(s.technology)));
        if (s.technology == Technology::NVLink) {
            entry(sw, QString::fromStdString(s.name), tip, CatalogItem::Kind::Switch, key, swIcon,
                  SwitchRole::ScaleUp);
            continue;
        }
        // One node per model, its tiers below it: the tier stays readable in a narrow dock.
        auto *model = new QTreeWidgetItem(sw, {QString::fromStdString(s.name)});
        model->setToolTip(0,
                          tr("%1\n%2\nDrag a tier below onto the canvas.")
                              .arg(QString::fromStdString(s.name), tip));
        model->setIcon(0, swIcon);
        model->setFlags(Qt::ItemIsEnabled);
        const std::pair<SwitchRole, QString> tiers[] = {{SwitchRole::Leaf, tr("Leaf (ToR)")},
                                                        {SwitchRole::Spine, tr("Spine")},
                                                        {SwitchRole::Core, tr("Core")}};
        for (const auto &[role, text] : tiers)
            entry(
                model, text,
                tr("%1 as a %2 switch\n%3")
                    .arg(QString::fromStdString(s.name), QString::fromLatin1(toString(role)), tip),
                CatalogItem::Kind::Switch, key, swIcon, role);
    }
    expandAll();
}

std::optional<CatalogItem> PaletteTree::itemOf(const QTreeWidgetItem *e) const
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

PaletteDock::PaletteDock(const Catalog &catalog, QWidget *parent)
    : QDockWidget(tr("Palette"), parent)
    , m_tree(new PaletteTree(catalog))
{
    setObjectName(QStringLiteral("PaletteDock"));
    auto *box = new QWidget;
    auto *lay = new QVBoxLayout(box);
    lay->setContentsMargins(4, 4, 4, 4);
    auto *filter = new QLineEdit;
    filter->setPlaceholderText(tr("Filter hardware…"));
    filter->setClearButtonEnabled(true);
    connect(filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        for (int i = 0; i < m_tree->topLevelItemCount(); ++i)
            filterItems(m_tree->topLevelItem(i), text, false);
    });
    lay->addWidget(filter);
    lay->addWidget(m_tree);
    setWidget(box);
}

} // namespace weft
