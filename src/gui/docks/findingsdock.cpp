#include "gui/docks/findingsdock.h"

#include "document/designdocument.h"
#include "gui/simulation/simulationrunner.h"

#include <QApplication>
#include <QHeaderView>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QTreeWidget>
#include <algorithm>

namespace weft {

namespace {

QIcon severityIcon(Severity s)
{
    const QStyle *style = QApplication::style();
    switch (s) {
    case Severity::Error:
        return style->standardIcon(QStyle::SP_MessageBoxCritical);
    case Severity::Warning:
        return style->standardIcon(QStyle::SP_MessageBoxWarning);
    case Severity::Info:
        break;
    }
    return style->standardIcon(QStyle::SP_MessageBoxInformation);
}

/// Rows as tall as their wrapped message: QTreeView asks the delegate for a size without the
/// column's width, so a long finding stayed one line, elided ("... and allocator ...").
class WrappingDelegate : public QStyledItemDelegate
{
public:
    explicit WrappingDelegate(QTreeView *view)
        : QStyledItemDelegate(view)
        , m_view(view)
    {
    }

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        if (index.column() != 0) // the code: one line, its column as wide as it
            return QStyledItemDelegate::sizeHint(option, index);
        QStyleOptionViewItem opt = option;
        opt.rect = QRect(0, 0, std::max(1, m_view->header()->sectionSize(0)), 1);
        return QStyledItemDelegate::sizeHint(opt, index);
    }

private:
    QTreeView *m_view;
};

} // namespace

FindingsDock::FindingsDock(DesignDocument *doc, SimulationRunner *runner, QWidget *parent)
    : QDockWidget(tr("Findings"), parent)
    , m_doc(doc)
    , m_runner(runner)
    , m_list(new QTreeWidget)
{
    setObjectName(QStringLiteral("FindingsDock"));
    m_list->setObjectName(QStringLiteral("FindingsList"));
    m_list->setColumnCount(2);
    m_list->setHeaderLabels({tr("Finding"), tr("Code")});
    m_list->setRootIsDecorated(false);
    m_list->setWordWrap(true);
    m_list->setUniformRowHeights(false);
    m_list->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_list->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_list->header()->setStretchLastSection(false);
    m_list->setItemDelegate(new WrappingDelegate(m_list));
    m_list->setTextElideMode(Qt::ElideNone);
    // Row heights follow the message column's width.
    connect(m_list->header(), &QHeaderView::sectionResized, m_list, [this](int column) {
        if (column == 0)
            m_list->doItemsLayout();
    });
    setWidget(m_list);
    connect(runner, &SimulationRunner::findingsChanged, this, &FindingsDock::refresh);
    connect(m_list, &QTreeWidget::itemClicked, this,
            [this](QTreeWidgetItem *item) { select(m_list->indexOfTopLevelItem(item)); });
    connect(m_list, &QTreeWidget::itemActivated, this,
            [this](QTreeWidgetItem *item) { select(m_list->indexOfTopLevelItem(item)); });
    refresh();
}

IdSet FindingsDock::subjectsOf(const Finding &f, const Design &d)
{
    IdSet ids;
    for (NodeId n : f.nodes)
        if (d.node(n))
            ids.nodes.insert(n);
    for (LinkId l : f.links)
        if (d.link(l))
            ids.links.insert(l);
    for (GroupId g : f.groups)
        if (d.group(g))
            ids.groups.insert(g);
    for (const std::string &s : f.subjects) {
        const auto colon = s.find(':');
        if (colon == std::string::npos)
            continue;
        const std::string kind = s.substr(0, colon);
        char *end = nullptr;
        const unsigned long value = std::strtoul(s.c_str() + colon + 1, &end, 10);
        if (end == s.c_str() + colon + 1 || *end != '\0')
            continue;
        const auto v = static_cast<std::uint32_t>(value);
        if (kind == "node" && d.node(NodeId {v}))
            ids.nodes.insert(NodeId {v});
        else if (kind == "link" && d.link(LinkId {v}))
            ids.links.insert(LinkId {v});
        else if (kind == "group" && d.group(GroupId {v}))
            ids.groups.insert(GroupId {v});
    }
    return ids;
}

QString FindingsDock::titleFor(int findings, int errors)
{
    if (findings == 0)
        return tr("Findings");
    const QString errorText = errors == 1 ? tr("1 error") : tr("%1 errors").arg(errors);
    if (errors == findings) // "Findings (1 error)", not "(1, 1 errors)"
        return tr("Findings (%1)").arg(errorText);
    const int rest = findings - errors;
    const QString others = rest == 1 ? tr("1 warning") : tr("%1 warnings").arg(rest);
    return errors == 0 ? tr("Findings (%1)").arg(others)
                       : tr("Findings (%1, %2)").arg(errorText, others);
}

void FindingsDock::refresh()
{
    m_shown = m_runner->findings();
    std::stable_sort(m_shown.begin(), m_shown.end(), [](const Finding &a, const Finding &b) {
        return static_cast<int>(a.severity) > static_cast<int>(b.severity);
    });
    m_list->clear();
    QList<QTreeWidgetItem *> items;
    for (const Finding &f : m_shown) {
        auto *item = new QTreeWidgetItem(
            {QString::fromStdString(f.message), QString::fromStdString(f.code)});
        item->setIcon(0, severityIcon(f.severity));
        item->setToolTip(0, QString::fromStdString(f.message));
        items << item;
    }
    if (items.isEmpty()) {
        // An empty list looked like a dock that had not loaded; say that nothing was found.
        auto *none = new QTreeWidgetItem({tr("No findings")});
        none->setFlags(Qt::NoItemFlags);
        none->setToolTip(0, tr("The design and its workload pass every check."));
        items << none;
    }
    m_list->addTopLevelItems(items);
    const auto errors = std::count_if(m_shown.begin(), m_shown.end(), [](const Finding &f) {
        return f.severity == Severity::Error;
    });
    setWindowTitle(titleFor(int(m_shown.size()), int(errors)));
}

void FindingsDock::select(int row)
{
    if (row < 0 || row >= static_cast<int>(m_shown.size()))
        return;
    const IdSet ids = subjectsOf(m_shown[static_cast<std::size_t>(row)], m_doc->design());
    if (ids.empty())
        return;
    m_doc->setSelection(ids);
    emit subjectsSelected();
}

} // namespace weft
