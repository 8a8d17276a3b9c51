#pragma once
// LinkHeat: what the canvas shows of a simulation result on the links. Each link is coloured by
// its utilization (the busier direction's average over the step) on a colour-blind-safe
// sequential scale (viridis) and drawn wider the higher its capacity; a highlighted parallel
// group's links stand out and the others are dimmed. The scene owns one; the link layer, the
// legend and the link tooltips read it.

#include "model/design.h"
#include "sim/result.h"

#include <QColor>
#include <QString>
#include <memory>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace weft {

class LinkHeat
{
public:
    /// Shows `result` (null: no colouring). `stale` marks a result older than the design.
    void setResult(std::shared_ptr<const SimResult> result, bool stale = false);
    [[nodiscard]] const std::shared_ptr<const SimResult> &result() const { return m_result; }
    [[nodiscard]] bool active() const { return m_result && m_result->ok; }
    [[nodiscard]] bool stale() const { return m_stale; }
    void setStale(bool stale) { m_stale = stale; }

    /// The link's result, or null when the result does not know it.
    [[nodiscard]] const LinkResult *link(LinkId id) const;
    /// Average utilization (0..1) of the link's busier direction over the step; -1 when unknown.
    [[nodiscard]] double utilization(LinkId id) const;

    /// Colour of utilization `u` (clamped to 0..1): viridis (van der Walt & Smith, matplotlib
    /// 2015: perceptually uniform, readable with the common colour-vision deficiencies) at
    /// scalePosition(u).
    [[nodiscard]] static QColor colour(double u);
    /// Position 0..1 of utilization `u` on the colour scale: sqrt(u) (a power-law scale, as
    /// matplotlib's PowerNorm), because step-averaged link utilizations are mostly below 30%
    /// and a linear scale would draw 5% and 20% in nearly the same dark colour.
    [[nodiscard]] static double scalePosition(double u);
    /// Viridis at position `t` (0..1) of the scale, for legends.
    [[nodiscard]] static QColor scaleColour(double t);
    /// Cosmetic pen width, pixels, for a link of `capacity` bytes/s per direction: 1 px at
    /// 50 GB/s (400 Gb/s NIC) and below, +1 px per doubling, at most 4 px (NVLink).
    [[nodiscard]] static double width(double capacity);

    /// Highlights the links the traffic of the result's parallel group with exactly the
    /// members `nodes` crossed, dimming the others; clears the highlight when no group matches.
    /// Returns the matching group or null.
    const GroupTraffic *highlightGroup(const std::set<NodeId> &nodes);
    [[nodiscard]] bool hasHighlight() const { return m_highlightGroup != nullptr; }
    [[nodiscard]] const GroupTraffic *highlightedGroup() const { return m_highlightGroup; }
    [[nodiscard]] bool highlighted(LinkId id) const { return m_highlight.count(id) != 0; }

    /// Rich-text tooltip for the links of one bundle in `design`: per link its ends, capacity,
    /// bytes, average and peak utilization per direction (at most 8 links listed).
    [[nodiscard]] QString toolTip(const Design &design, const std::vector<LinkId> &links) const;
    /// The link's traffic in the result, one rich-text line per direction joined by <br>:
    /// "a → b: 1.2 GB moved, utilization average 3.4%, peak 56.7%". Empty when unknown.
    [[nodiscard]] QString trafficText(const Design &design, LinkId id) const;

private:
    std::shared_ptr<const SimResult> m_result;
    bool m_stale = false;
    std::unordered_map<LinkId, std::size_t> m_index; ///< link id -> index in m_result->links
    std::unordered_set<LinkId> m_highlight;
    const GroupTraffic *m_highlightGroup = nullptr;
};

} // namespace weft
