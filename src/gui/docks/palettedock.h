#pragma once
// PaletteDock: the hardware catalog as a tree (accelerators, scale-up domains, switches by role)
// whose entries drag onto the canvas (product.md, Main window: Palette).

#include "document/designdocument.h"

#include <QDockWidget>
#include <QTreeWidget>

namespace weft {

/// The tree of catalog entries; its drag payload is catalogMimeData().
class PaletteTree : public QTreeWidget
{
    Q_OBJECT
public:
    explicit PaletteTree(const Catalog &catalog, QWidget *parent = nullptr);
    /// The catalog item of a tree entry (nothing for category rows).
    [[nodiscard]] std::optional<CatalogItem> itemOf(const QTreeWidgetItem *entry) const;
    /// The first entry whose text contains `text` (tests and keyboard users).
    [[nodiscard]] QTreeWidgetItem *findEntry(const QString &text) const;

protected:
    [[nodiscard]] QMimeData *mimeData(const QList<QTreeWidgetItem *> &items) const override;
    [[nodiscard]] QStringList mimeTypes() const override;
};

class PaletteDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit PaletteDock(const Catalog &catalog, QWidget *parent = nullptr);
    [[nodiscard]] PaletteTree *tree() const { return m_tree; }

private:
    PaletteTree *m_tree;
};

} // namespace weft
