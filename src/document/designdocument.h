#pragma once
// DesignDocument: owns one Design, its QUndoStack, the selection (ids) and the file it came
// from. Every change to the design goes through an undo command (commands/); the user-level
// operations below are the only places that open undo macros.

#include "document/fragment.h"
#include "document/placementedit.h"
#include "model/catalog.h"
#include "model/design.h"

#include <QObject>
#include <QPointF>
#include <QString>
#include <QUndoStack>

namespace weft {

/// What a palette entry adds to a design (product.md, Main window: Palette).
struct CatalogItem
{
    enum class Kind { Accelerator, ScaleUpPreset, Switch };
    Kind kind = Kind::Accelerator;
    std::string key; ///< key in the catalog's accelerators, presets or switches
    SwitchRole role = SwitchRole::Leaf; ///< role of an added switch
};

class DesignDocument : public QObject
{
    Q_OBJECT
public:
    explicit DesignDocument(const Catalog &catalog, QObject *parent = nullptr);

    [[nodiscard]] const Design &design() const { return m_design; }
    [[nodiscard]] const Catalog &catalog() const { return m_catalog; }
    /// Replaces the catalog palette drops and new links take their specs from (custom entries
    /// added or edited); the design keeps the specs it already holds.
    void setCatalog(const Catalog &catalog) { m_catalog = catalog; }
    [[nodiscard]] QUndoStack *undoStack() { return &m_undo; }

    /// Replaces the whole design (after loading a file); clears undo history and selection.
    void resetDesign(Design design);
    [[nodiscard]] QString filePath() const { return m_filePath; }
    void setFilePath(const QString &path);
    /// Name shown in titles and tabs: the file name, or "Untitled".
    [[nodiscard]] QString displayName() const;
    [[nodiscard]] bool isModified() const { return !m_undo.isClean(); }

    // --- selection (not undoable) ---
    [[nodiscard]] const IdSet &selection() const { return m_selection; }
    void setSelection(IdSet selection);
    void selectAll();
    /// Ids of the nodes a move of the selection moves: selected nodes plus members of selected
    /// groups (recursively).
    [[nodiscard]] std::vector<NodeId> selectedNodesForMove() const;

    // --- user-level operations (each one undo step) ---
    /// Adds the catalog item at scene position `pos`; an accelerator dropped into scale-up
    /// domain `into` becomes its member, wired to the domain's scale-up switches. Returns the
    /// ids added (empty with `error` set when the item is unknown or does not fit).
    IdSet addFromCatalog(const CatalogItem &item, QPointF pos, GroupId into, QString *error);
    /// Connects `a` and `b` with a link whose technology, rate and lanes come from the ends.
    /// Refuses (returns false, `error` says why) a self-link or a port budget overflow.
    bool connectNodes(NodeId a, NodeId b, QString *error);
    /// Deletes the selection; links of deleted nodes and members of deleted groups go too.
    void deleteSelection();
    /// Snapshot of the selection for the clipboard.
    [[nodiscard]] Fragment copySelection() const;
    /// Pastes `fragment` with new ids and names the design does not use yet (pastenames.h),
    /// offset by (dx, dy); the pasted objects become selected.
    void paste(const Fragment &fragment, double dx, double dy);
    /// Replaces the design's contents by `generated` (the "New cluster..." wizard, an import),
    /// one undo step named `undoText` (default "Generate cluster").
    void generateCluster(Design generated, const QString &undoText = QString());
    /// Moves `nodes` to `from[i] + delta`; calls with the same `gesture` merge into one step.
    void moveNodes(const std::vector<NodeId> &nodes, QPointF delta, int gesture);
    /// A fresh gesture number for moveNodes (one per mouse drag).
    int nextGesture() { return ++m_gesture; }
    // --- workload (product.md, Partitions; each one undo step, workloadChanged() follows) ---
    /// Sets the training workload (nullopt removes it). An explicit map whose size no longer
    /// matches the world size is dropped (ranks then follow the order).
    void setWorkload(std::optional<Workload> workload, const QString &text);
    /// Auto-map: ranks follow `order` ("tp-cp-ep-dp-pp") domain by domain; clears any explicit
    /// map. False when there is no workload.
    bool autoMap(const std::string &order);
    /// Places the ranks of `group` onto `targets` (accelerators, in order); the targets'
    /// current ranks take the places the group leaves (placeRanks()). False with `error` set
    /// when there is no valid placement, the group does not exist or nothing would move.
    bool placeGroup(const RankGroupRef &group, const std::vector<NodeId> &targets, QString *error);
    /// Swaps the ranks of accelerators `a` and `b` (false with `error` set when impossible).
    bool swapRanks(NodeId a, NodeId b, QString *error);
    // --- what-if faults (model/fault.h; each one undo step, scenarioChanged() follows) ---
    /// Puts each fault on its link or node, replacing the fault that target had, in one undo
    /// step. A target is faultTarget(id) of an existing link or node; false with `error` set and
    /// nothing changed otherwise (or for a factor outside (0, 1], or a kind that does not fit
    /// the target: switch-down on an accelerator, a clock on a switch).
    bool setFaults(const std::vector<Fault> &faults, QString *error);
    bool setFault(const Fault &fault, QString *error) { return setFaults({fault}, error); }
    /// Removes the faults of `ids` (restores them); false when they had none.
    bool restoreFaults(const IdSet &ids);
    /// Removes every fault; false when there were none.
    bool restoreAllFaults();
    /// Expands or collapses a scale-up domain on the canvas (view state, not undoable).
    void setCollapsed(GroupId group, bool collapsed);
    /// The same for several domains, with one changed() signal.
    void setCollapsed(const std::set<GroupId> &groups, bool collapsed);

    // --- used by undo commands only ---
    [[nodiscard]] Design &editDesign() { return m_design; }
    void notifyAdded(const IdSet &ids);
    void notifyRemoved(const IdSet &ids);
    void notifyChanged(const IdSet &ids);
    void notifyReset();
    void notifyWorkloadChanged();
    /// The scenario changed; `ids` are the objects whose fault state changed.
    void notifyScenarioChanged(const IdSet &ids);

signals:
    void added(const weft::IdSet &ids);
    void removed(const weft::IdSet &ids);
    /// Properties or positions of existing objects changed.
    void changed(const weft::IdSet &ids);
    /// The whole design was replaced.
    void reset();
    void selectionChanged();
    void filePathChanged();
    /// Design::workload changed (an edit, undo or redo, or a replaced design).
    void workloadChanged();
    /// Design::scenario changed (an edit, undo or redo, or a replaced design).
    void scenarioChanged();

private:
    void pruneSelection();
    /// The resolved explicit map of the current workload, or nothing (with `error` set).
    std::optional<std::vector<NodeId>> editableMap(QString *error) const;

    Catalog m_catalog;
    Design m_design;
    QUndoStack m_undo;
    IdSet m_selection;
    QString m_filePath;
    int m_gesture = 0;
};

} // namespace weft
