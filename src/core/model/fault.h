#pragma once
// What-if faults (issue 19): the failures and degradations a design can carry. A design holds
// one Scenario (Design::scenario, saved in the file's "faults" array, io/designfile.h); the
// simulator never reads it: whatif/scenario.h applies it to a copy of the design first.

#include "model/ids.h"

#include <optional>
#include <string>
#include <vector>

namespace weft {

class Design;
struct Link;
struct Node;

struct Fault
{
    enum class Kind { LinkDown, CableDown, SwitchDown, LinkRate, AcceleratorClock };
    Kind kind = Kind::LinkDown;
    std::string target; ///< link id as text, or a node name / "#<id>"
    double factor = 1; ///< LinkRate, AcceleratorClock: fraction kept, in (0, 1]

    /// The fault in the --fail syntax ("link:12@0.5").
    [[nodiscard]] std::string label() const;
    /// True for the kinds whose target is a link (LinkDown, CableDown, LinkRate).
    [[nodiscard]] bool onLink() const
    {
        return kind == Kind::LinkDown || kind == Kind::CableDown || kind == Kind::LinkRate;
    }
    bool operator==(const Fault &) const = default;
};

struct Scenario
{
    std::vector<Fault> faults;
    [[nodiscard]] std::string label() const; ///< labels joined by ','; "healthy" when empty
    [[nodiscard]] bool empty() const { return faults.empty(); }
    bool operator==(const Scenario &) const = default;
};

/// The link a link fault names (its target is the link id in decimal), or nullptr.
const Link *faultLink(const Design &design, const Fault &fault);
/// The node a node fault names (its target is a node name or "#<id>"), or nullptr.
const Node *faultNode(const Design &design, const Fault &fault);
/// The target text the GUI and the file reader give a link ("12") or a node ("#40").
/// A factor as the --fail syntax writes it (%g: "0.5", "0.8").
std::string faultFactorText(double factor);
std::string faultTarget(LinkId id);
std::string faultTarget(NodeId id);

} // namespace weft
