#pragma once
// RankColouring: what the canvas shows of the workload's placement. For each accelerator its
// rank and the colour of its pipeline stage, DP replica or TP group (the colour mode), plus the
// legend entries. The scene owns one and recomputes it on workloadChanged() and design changes;
// NodeItem, GroupItem and the legend only read it.

#include "document/placementedit.h"

#include <QColor>
#include <QString>
#include <unordered_map>
#include <vector>

namespace weft {

class Design;

class RankColouring
{
public:
    enum class Mode { None, Stage, DpReplica, TpGroup };

    /// One legend row: a colour and what it stands for ("Stage 2", "TP groups 3, 11, 19").
    struct LegendEntry
    {
        QColor colour;
        QString text;
    };

    /// Recomputes ranks and colours from `d` (no workload or an invalid placement: nothing).
    void recompute(const Design &d);
    void setMode(Mode mode) { m_mode = mode; }
    /// Dark canvas: the light palette, which keeps its contrast there.
    void setDark(bool dark) { m_dark = dark; }
    [[nodiscard]] Mode mode() const { return m_mode; }
    /// True when the workload's placement resolved (ranks are known).
    [[nodiscard]] bool placed() const { return !m_rank.empty(); }

    /// Rank of accelerator `id`, or -1 when it holds none.
    [[nodiscard]] int rank(NodeId id) const;
    /// Fill for accelerator `id` in the current mode; invalid when the mode is None or the
    /// accelerator holds no rank.
    [[nodiscard]] QColor colour(NodeId id) const;
    /// Legend of the current mode (empty for None or when nothing is placed). Up to the
    /// qualitative palette's size one row per group; beyond, rows for groups spread evenly
    /// from the first to the last along the sequential scale.
    [[nodiscard]] std::vector<LegendEntry> legend() const;
    /// Number of groups (stages, replicas, TP groups) of the current mode; 0 for None.
    [[nodiscard]] int groupCount() const;
    /// Index of the group of accelerator `id` in the current mode, or -1.
    [[nodiscard]] int groupOf(NodeId id) const;
    /// True when there are more groups than qualitative colours: neighbours on the sequential
    /// scale look alike, so accelerators carry their group's label (groupLabel).
    [[nodiscard]] bool needsLabels() const;
    /// Short label of the group of `id` ("S12", "R3", "T5"), empty when it holds none.
    [[nodiscard]] QString groupLabel(NodeId id) const;
    /// Colour of group `g` of `groups` on a canvas (`dark` or light): the qualitative palette up
    /// to its size, else the sequential scale (every group its own colour).
    [[nodiscard]] static QColor groupColour(int g, int groups, bool dark);
    /// Title of the legend ("Pipeline stage", ...).
    [[nodiscard]] QString legendTitle() const;

    /// The qualitative palette: Paul Tol's "muted" scheme on light canvases, his "light"
    /// scheme on dark ones (both colour-blind safe, nine colours).
    static const std::vector<QColor> &palette(bool dark);
    /// The sequential scale for more groups than that, at `t` in [0, 1]: viridis (van der Walt
    /// and Smith, matplotlib 2015: perceptually uniform, readable under the common
    /// colour-vision deficiencies and in grey), its darkest part left out on a dark canvas
    /// and its lightest on a light one.
    static QColor sequential(double t, bool dark);
    /// Black or white, whichever reads better on `fill`.
    static QColor textOn(const QColor &fill);

private:
    [[nodiscard]] const std::vector<int> *indexOfMode() const;

    Mode m_mode = Mode::None;
    bool m_dark = false;
    std::unordered_map<NodeId, int> m_rank;
    std::vector<int> m_stage, m_replica, m_tpGroup; ///< by rank
    int m_stages = 0, m_replicas = 0, m_tpGroups = 0; ///< group counts
};

} // namespace weft
