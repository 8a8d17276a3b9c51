#pragma once
// ParallelGroupTree: the parallel groups of the placed workload (TP groups, pipeline stages, DP
// replicas, CP, EP and expert-DP groups), each with its ranks and accelerators. Selecting an entry
// selects its accelerators on the canvas; an entry drags onto a domain or a selection of
// accelerators (rankGroupMimeData) to place it there.

#include "document/placementedit.h"

#include <QPointer>
#include <QTreeWidget>

namespace weft {

class DesignDocument;

class ParallelGroupTree : public QTreeWidget
{
    Q_OBJECT
public:
    explicit ParallelGroupTree(QWidget *parent = nullptr);
    void setDocument(DesignDocument *doc);
    /// Rebuilds the list from the document's workload (nothing when it is not placed).
    void rebuild();
    /// The entry of `group`, or nullptr (tests).
    [[nodiscard]] QTreeWidgetItem *entry(const RankGroupRef &group) const;
    /// The group an entry stands for (nothing for category rows).
    [[nodiscard]] static std::optional<RankGroupRef> groupOf(const QTreeWidgetItem *item);

protected:
    [[nodiscard]] QMimeData *mimeData(const QList<QTreeWidgetItem *> &items) const override;
    [[nodiscard]] QStringList mimeTypes() const override;

private:
    void selectOnCanvas();

    QPointer<DesignDocument> m_doc;
};

} // namespace weft
