#include "io/slurmswitches.h"
#include "io/slurmtopology.h"
#include "io/textlines.h"

#include <cctype>
#include <stdexcept>
#include <yaml-cpp/yaml.h>

namespace weft {

namespace {

std::string where(const YAML::Node &n)
{
    return "line " + std::to_string(n.Mark().line + 1) + ": ";
}

/// A scalar member `key` of map `n` as text, empty when absent; anything else is refused.
std::string scalar(const YAML::Node &n, const char *key)
{
    const YAML::Node v = n[key];
    if (!v.IsDefined() || v.IsNull())
        return {};
    if (!v.IsScalar())
        throw std::invalid_argument(where(v) + "\"" + key + "\" must be a string");
    return v.Scalar();
}

/// The hosts or switches of a `nodes:` / `children:` member: one Slurm host list, or a list of
/// them.
std::vector<std::string> hostList(const YAML::Node &n, const char *key)
{
    std::vector<std::string> out;
    const YAML::Node v = n[key];
    if (!v.IsDefined() || v.IsNull())
        return out;
    const auto add = [&out](const YAML::Node &item) {
        if (!item.IsScalar())
            throw std::invalid_argument(where(item) + "a host list must be a string");
        try {
            for (std::string &h : expandHostList(item.Scalar()))
                out.push_back(std::move(h));
        } catch (const std::invalid_argument &e) {
            throw std::invalid_argument(where(item) + e.what());
        }
    };
    if (v.IsSequence())
        for (const YAML::Node &item : v)
            add(item);
    else
        add(v);
    return out;
}

std::vector<SlurmSwitch> treeSwitches(const YAML::Node &tree)
{
    const YAML::Node list = tree.IsMap() ? tree["switches"] : YAML::Node();
    if (!list.IsDefined() || !list.IsSequence())
        throw std::invalid_argument(where(tree) + "a tree topology needs a \"switches:\" list");
    if (list.size() == 0)
        throw std::invalid_argument(where(list) + "the tree topology lists no switches");
    std::vector<SlurmSwitch> out;
    for (const YAML::Node &entry : list) {
        if (!entry.IsMap())
            throw std::invalid_argument(where(entry)
                                        + "a switch entry must be a map with "
                                          "\"switch:\"");
        for (const auto &member : entry) {
            const std::string key = member.first.IsScalar() ? member.first.Scalar() : "";
            if (key != "switch" && key != "nodes" && key != "children" && key != "link_speed")
                throw std::invalid_argument(where(member.first) + "unknown key \"" + key
                                            + "\" (expected switch, nodes, children, "
                                              "link_speed)");
        }
        SlurmSwitch sw;
        sw.line = entry.Mark().line + 1;
        sw.name = scalar(entry, "switch");
        if (sw.name.empty())
            throw std::invalid_argument(where(entry) + "a switch entry without \"switch:\"");
        sw.nodes = hostList(entry, "nodes");
        sw.children = hostList(entry, "children");
        out.push_back(std::move(sw));
    }
    return out;
}

} // namespace

bool isTopologyYaml(std::string_view text)
{
    bool yaml = false;
    forEachLine(text, [&yaml](std::string_view line, int) {
        while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front())))
            line.remove_prefix(1);
        if (line.empty() || line.front() == '#')
            return true;
        yaml = line.rfind("---", 0) == 0 || line.rfind("- topology:", 0) == 0;
        return false; // the first content line decides
    });
    return yaml;
}

std::vector<SlurmSwitch> parseTopologyYaml(std::string_view text, std::vector<std::string> &notes)
{
    YAML::Node root;
    try {
        root = YAML::Load(std::string(text));
    } catch (const YAML::Exception &e) {
        throw std::invalid_argument("line " + std::to_string(e.mark.line + 1) + ": " + e.msg);
    }
    if (!root.IsSequence() || root.size() == 0)
        throw std::invalid_argument("line 1: a topology.yaml is a list of topologies "
                                    "(\"- topology: NAME\")");
    YAML::Node chosen;
    bool found = false;
    std::string chosenName;
    std::vector<std::string> others;
    try {
        for (const YAML::Node &t : root) {
            if (!t.IsMap() || !t["topology"].IsDefined())
                throw std::invalid_argument(where(t) + "an entry without \"topology:\"");
            const std::string name = scalar(t, "topology");
            const bool isDefault = t["cluster_default"].IsDefined()
                && t["cluster_default"].IsScalar() && t["cluster_default"].as<bool>(false);
            // One kind per topology (Slurm refuses two: test150.9's tree_mutually_exclusive).
            std::string kind;
            for (const char *k : {"tree", "block", "flat", "ring", "torus3d"})
                if (t[k].IsDefined()) {
                    if (!kind.empty())
                        throw std::invalid_argument(where(t) + "topology \"" + name + "\" is both "
                                                    + kind + " and " + k
                                                    + " (one kind per topology)");
                    kind = k;
                }
            if (kind.empty())
                throw std::invalid_argument(where(t) + "topology \"" + name
                                            + "\" gives no kind (tree, block, flat, ring or "
                                              "torus3d)");
            const bool isTree = kind == "tree";
            if (isTree && (!found || isDefault)) {
                if (found)
                    others.push_back(chosenName + " (tree)");
                found = true;
                chosen = t["tree"];
                chosenName = name;
            } else {
                others.push_back(name + " (" + kind + ")");
            }
        }
    } catch (const YAML::Exception &e) {
        throw std::invalid_argument("line " + std::to_string(e.mark.line + 1) + ": " + e.msg);
    }
    std::string list; // the topologies left out
    for (const std::string &o : others)
        list += (list.empty() ? "" : ", ") + o;
    if (!found)
        throw std::invalid_argument("line 1: no tree topology in the file (only a tree has "
                                    "switches to import; the file has "
                                    + list + ")");
    std::vector<SlurmSwitch> out = treeSwitches(chosen);
    if (!others.empty())
        notes.push_back("imported tree topology \"" + chosenName + "\"; left out: " + list);
    linkSwitchLevels(out);
    return out;
}

} // namespace weft
