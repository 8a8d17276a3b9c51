#pragma once
// PaletteDock: the hardware catalog as a tree (accelerators, scale-up domains, switches by role,
// and the user's custom entries) whose entries drag onto the canvas (product.md, Main window:
// Palette). Custom accelerators and switches are created, edited and deleted here; they live in
// the CatalogStore's user file.

#include "document/catalogstore.h"

#include <QDockWidget>
#include <QTreeWidget>

class QAction;
class QLabel;
class QLineEdit;
class QMenu;

namespace weft {

/// The tree of catalog entries; its drag payload is catalogMimeData().
class PaletteTree : public QTreeWidget
{
    Q_OBJECT
public:
    explicit PaletteTree(QWidget *parent = nullptr);
    /// Lists `store`'s catalog: built-in entries by category, custom ones under "Custom".
    void rebuild(const CatalogStore &store);
    /// The catalog item of a draggable entry (nothing for category and switch-model rows).
    [[nodiscard]] std::optional<CatalogItem> itemOf(const QTreeWidgetItem *entry) const;
    /// The spec a row stands for: an entry, or a switch-model row (its tiers' switch).
    [[nodiscard]] std::optional<CatalogItem> specOf(const QTreeWidgetItem *row) const;
    /// The first entry whose text contains `text` (tests and keyboard users).
    [[nodiscard]] QTreeWidgetItem *findEntry(const QString &text) const;
    /// The "Custom" category row.
    [[nodiscard]] QTreeWidgetItem *customCategory() const { return m_custom; }

protected:
    [[nodiscard]] QMimeData *mimeData(const QList<QTreeWidgetItem *> &items) const override;
    [[nodiscard]] QStringList mimeTypes() const override;

private:
    QTreeWidgetItem *m_custom = nullptr;
};

class PaletteDock : public QDockWidget
{
    Q_OBJECT
public:
    /// Least width of the palette's contents in pixels (the window's layout keeps it).
    static constexpr int kMinimumWidth = 200;

    /// A palette over `store` (not owned; it outlives the dock).
    explicit PaletteDock(CatalogStore *store, QWidget *parent = nullptr);
    [[nodiscard]] PaletteTree *tree() const { return m_tree; }
    /// The message shown when the user catalog could not be read (hidden otherwise).
    [[nodiscard]] QLabel *problemLabel() const { return m_problem; }

    /// Opens the dialog for a new custom accelerator / switch (non-blocking).
    QAction *newAccelerator;
    QAction *newSwitch;

    /// The context menu of `row` (caller owns it): Edit/Delete on custom entries, "New custom
    /// ... based on this" on built-in ones, and the two New actions.
    [[nodiscard]] QMenu *contextMenuFor(QTreeWidgetItem *row);
    /// Opens the edit dialog of the custom entry `item` (non-blocking).
    void editCustom(const CatalogItem &item);
    /// Deletes the custom entry `item` after asking; designs keep their copy of the spec.
    void deleteCustom(const CatalogItem &item);

private:
    /// Opens the dialog for `spec`; on OK stores it under its key (a new one when empty).
    template<class Spec> void openDialog(Spec spec);
    /// Opens the dialog for a new custom entry with `spec`'s figures, named `name`.
    template<class Spec> void openNew(Spec spec, std::string name);
    void refresh();
    void applyFilter();

    CatalogStore *m_store;
    PaletteTree *m_tree;
    QLineEdit *m_filter;
    QLabel *m_problem;
};

} // namespace weft
