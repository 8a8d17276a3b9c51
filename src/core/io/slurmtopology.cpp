#include "io/slurmtopology.h"

#include "io/hostnames.h"
#include "io/serverdomains.h"
#include "io/slurmswitches.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <unordered_map>

namespace weft {

namespace {

constexpr std::size_t kMaxHosts = std::size_t(1) << 20; // a host list asking for more is absurd

/// Splits at commas outside brackets.
std::vector<std::string> topLevelItems(std::string_view list)
{
    std::vector<std::string> items;
    int depth = 0;
    std::string cur;
    for (const char c : list) {
        if (c == '[')
            ++depth;
        else if (c == ']')
            --depth;
        if (c == ',' && depth == 0) {
            items.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (depth != 0)
        throw std::invalid_argument("unbalanced brackets in host list \"" + std::string(list)
                                    + "\"");
    items.push_back(cur);
    return items;
}

void expandItem(const std::string &item, std::vector<std::string> &out)
{
    const std::size_t open = item.find('[');
    if (open == std::string::npos) {
        if (!item.empty())
            out.push_back(item);
        return;
    }
    const std::size_t close = item.find(']', open);
    const std::string prefix = item.substr(0, open);
    const std::string rest = item.substr(close + 1);
    std::vector<std::string> tails;
    expandItem(rest.empty() ? std::string() : rest, tails);
    if (tails.empty())
        tails.emplace_back();
    for (const std::string &range : topLevelItems(item.substr(open + 1, close - open - 1))) {
        const std::size_t dash = range.find('-');
        const std::string lo = range.substr(0, dash);
        const std::string hi = dash == std::string::npos ? lo : range.substr(dash + 1);
        long a = 0, b = 0;
        const auto pa = std::from_chars(lo.data(), lo.data() + lo.size(), a);
        const auto pb = std::from_chars(hi.data(), hi.data() + hi.size(), b);
        if (lo.empty() || hi.empty() || pa.ptr != lo.data() + lo.size()
            || pb.ptr != hi.data() + hi.size() || b < a)
            throw std::invalid_argument("bad range \"" + range + "\" in host list \"" + item
                                        + "\"");
        if (static_cast<std::size_t>(b - a) * tails.size() + out.size() > kMaxHosts)
            throw std::invalid_argument("host list \"" + item + "\" names over a million hosts");
        for (long v = a; v <= b; ++v) {
            std::string num = std::to_string(v);
            if (num.size() < lo.size())
                num.insert(0, lo.size() - num.size(), '0');
            for (const std::string &t : tails)
                out.push_back(prefix + num + t);
        }
    }
}

/// The number ending a host name: "007" is {7, 3, padded}, "10" is {10, 2, not padded}.
struct HostNumber
{
    long value;
    std::size_t digits;
    bool padded; // written with leading zeros, so only a range of exactly its width holds it
};

/// lo-hi written `width` digits wide: Slurm reads a range's width from its lower bound and pads
/// shorter numbers with zeros ("x[09-11]" is x09 x10 x11, "n[0-31]" is n0 ... n31).
struct HostRange
{
    long lo, hi;
    std::size_t width;
};

std::string padded(long value, std::size_t width)
{
    const std::string s = std::to_string(value);
    return std::string(width > s.size() ? width - s.size() : 0, '0') + s;
}

/// The fewest ranges that write `numbers` (ascending) as they are: a number joins the range
/// ending just below it when that range writes it unchanged, i.e. a zero-padded number one of
/// its own width, an unpadded one any range not wider than its digits ("dgx-h100-[0-31]").
std::vector<HostRange> hostRanges(const std::vector<HostNumber> &numbers)
{
    std::vector<HostRange> out;
    std::vector<std::size_t> open; // ranges ending at the previous number or at this one
    for (const HostNumber &n : numbers) {
        std::erase_if(open, [&](std::size_t r) { return out[r].hi < n.value - 1; });
        const auto joins = std::find_if(open.begin(), open.end(), [&](std::size_t r) {
            return out[r].hi == n.value - 1
                && (n.padded ? n.digits == out[r].width : n.digits >= out[r].width);
        });
        if (joins != open.end()) {
            out[*joins].hi = n.value;
            continue;
        }
        out.push_back({n.value, n.value, n.digits});
        open.push_back(out.size() - 1);
    }
    return out;
}

std::string lowerKey(std::string s)
{
    for (char &c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

/// Parses the lines; throws std::invalid_argument "line N: ...".
std::vector<SlurmSwitch> parseTopologyConf(std::string_view text)
{
    std::vector<SlurmSwitch> out;
    std::size_t pos = 0;
    int line = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        std::string s(text.substr(pos, end - pos));
        pos = end + 1;
        ++line;
        if (const std::size_t hash = s.find('#'); hash != std::string::npos)
            s.resize(hash);
        std::vector<std::string> tokens;
        std::string tok;
        for (const char c : s + ' ') {
            if (std::isspace(static_cast<unsigned char>(c))) {
                if (!tok.empty())
                    tokens.push_back(tok);
                tok.clear();
            } else {
                tok += c;
            }
        }
        if (tokens.empty())
            continue;
        const std::string where = "line " + std::to_string(line) + ": ";
        SlurmSwitch sw;
        sw.line = line;
        for (const std::string &t : tokens) {
            const std::size_t eq = t.find('=');
            if (eq == std::string::npos)
                throw std::invalid_argument(where + "expected KEY=VALUE, got \"" + t + "\"");
            const std::string key = lowerKey(t.substr(0, eq)), value = t.substr(eq + 1);
            try {
                if (key == "switchname")
                    sw.name = value;
                else if (key == "nodes")
                    sw.nodes = expandHostList(value);
                else if (key == "switches")
                    sw.children = expandHostList(value);
                else if (key == "linkspeed")
                    continue;
                else if (key == "blockname" || key == "blocksizes")
                    throw std::invalid_argument("the block plugin's " + t.substr(0, eq)
                                                + " is not a tree topology");
                else
                    throw std::invalid_argument("unknown key \"" + t.substr(0, eq)
                                                + "\" (expected SwitchName, Nodes, Switches, "
                                                  "LinkSpeed)");
            } catch (const std::invalid_argument &e) {
                throw std::invalid_argument(where + e.what());
            }
        }
        if (sw.name.empty())
            throw std::invalid_argument(where + "a line without SwitchName=");
        out.push_back(std::move(sw));
    }
    if (out.empty())
        throw std::invalid_argument("no SwitchName= line found (is this a topology.conf?)");
    linkSwitchLevels(out);
    return out;
}

} // namespace

void linkSwitchLevels(std::vector<SlurmSwitch> &out)
{
    std::unordered_map<std::string, std::size_t> byName;
    for (std::size_t i = 0; i < out.size(); ++i)
        if (!byName.emplace(out[i].name, i).second)
            throw std::invalid_argument("line " + std::to_string(out[i].line) + ": switch \""
                                        + out[i].name + "\" is defined twice");
    for (const SlurmSwitch &sw : out)
        for (const std::string &c : sw.children)
            if (!byName.count(c))
                throw std::invalid_argument("line " + std::to_string(sw.line) + ": switch \""
                                            + sw.name + "\" lists unknown switch \"" + c + "\"");
    // Levels: leaves 0, a parent one above its highest child; a cycle is refused.
    std::vector<int> state(out.size(), 0);
    std::function<int(std::size_t)> level = [&](std::size_t i) -> int {
        if (state[i] == 2)
            return out[i].level;
        if (state[i] == 1)
            throw std::invalid_argument("line " + std::to_string(out[i].line) + ": switch \""
                                        + out[i].name + "\" is its own ancestor");
        state[i] = 1;
        int l = 0;
        for (const std::string &c : out[i].children)
            l = std::max(l, level(byName.at(c)) + 1);
        state[i] = 2;
        return out[i].level = l;
    };
    for (std::size_t i = 0; i < out.size(); ++i)
        level(i);
}

std::vector<std::string> expandHostList(std::string_view list)
{
    std::vector<std::string> out;
    for (const std::string &item : topLevelItems(list))
        expandItem(item, out);
    return out;
}

std::string compressHostList(std::vector<std::string> names)
{
    std::sort(names.begin(), names.end(), naturalLess);
    names.erase(std::unique(names.begin(), names.end()), names.end());
    // Numbers by prefix, in natural order; names without trailing digits stay as they are.
    std::map<std::string, std::vector<HostNumber>> groups;
    std::vector<std::string> order;
    std::vector<std::string> plain;
    for (const std::string &n : names) {
        const std::string prefix = namePrefix(n);
        const std::size_t digits = n.size() - prefix.size();
        if (digits == 0 || digits > 9 || prefix.find_first_of("[],") != std::string::npos) {
            plain.push_back(n);
            continue;
        }
        if (!groups.count(prefix))
            order.push_back(prefix);
        groups[prefix].push_back(
            {std::stol(n.substr(prefix.size())), digits, digits > 1 && n[prefix.size()] == '0'});
    }
    std::string out;
    const auto add = [&out](const std::string &s) { out += (out.empty() ? "" : ",") + s; };
    for (const std::string &prefix : order) {
        const std::vector<HostRange> ranges = hostRanges(groups[prefix]);
        if (ranges.size() == 1 && ranges[0].lo == ranges[0].hi) {
            add(prefix + padded(ranges[0].lo, ranges[0].width));
            continue;
        }
        std::string list;
        for (const HostRange &r : ranges)
            list += (list.empty() ? "" : ",") + padded(r.lo, r.width)
                + (r.hi > r.lo ? "-" + padded(r.hi, r.width) : "");
        add(prefix + "[" + list + "]");
    }
    for (const std::string &p : plain)
        add(p);
    return out;
}

FabricImportResult importSlurmTopology(std::string_view text, const Catalog &catalog,
                                       const FabricImportOptions &options)
{
    FabricImportResult r;
    std::vector<SlurmSwitch> switches;
    // A UTF-8 byte-order mark (an editor's) is no part of the first key: it was read as
    // "\ufeffSwitchName", an unknown key the terminal does not show.
    if (text.starts_with("\xEF\xBB\xBF")) {
        text.remove_prefix(3);
        r.findings.push_back("a UTF-8 byte-order mark at the start of the file was skipped");
    }
    const bool yaml = isTopologyYaml(text);
    try {
        switches = yaml ? parseTopologyYaml(text, r.findings) : parseTopologyConf(text);
    } catch (const std::invalid_argument &e) {
        r.error = e.what();
        r.findings.clear();
        return r;
    }
    const auto tech = catalog.hardware.linkTechs.find(options.nicTech);
    if (tech == catalog.hardware.linkTechs.end()) {
        r.error = "unknown link technology '" + options.nicTech
            + "' (known: " + catalogKeys(catalog.hardware.linkTechs) + ")";
        return r;
    }
    // Hosts in natural order; a host under several leaves deals its rails over them.
    std::map<std::string, std::vector<std::size_t>, decltype(&naturalLess)> leavesOf(naturalLess);
    for (std::size_t i = 0; i < switches.size(); ++i)
        for (const std::string &h : switches[i].nodes)
            leavesOf[h].push_back(i);
    std::vector<std::string> hosts;
    for (const auto &[h, l] : leavesOf)
        hosts.push_back(h);
    std::vector<std::vector<NodeId>> gpus;
    std::optional<Design> built
        = serverDomains(catalog, options.scaleUpPreset, hosts, gpus, r.error);
    if (!built)
        return r;
    Design &d = *built;
    d.name = options.name;
    d.hardware.linkTechs[tech->first] = tech->second;
    const ScaleUpPreset &preset = catalog.scaleUpPresets.at(options.scaleUpPreset);
    const int nics = std::max(1, preset.nicsPerAccelerator);
    std::vector<NodeId> ids(switches.size());
    std::map<std::string, int> tiers;
    for (std::size_t i = 0; i < switches.size(); ++i) {
        Node n;
        n.kind = NodeKind::Switch;
        n.name = switches[i].name;
        n.role = switches[i].level == 0 ? SwitchRole::Leaf
            : switches[i].level == 1    ? SwitchRole::Spine
                                        : SwitchRole::Core;
        ++tiers[toString(n.role)];
        ids[i] = d.addNode(std::move(n));
    }
    const auto addLink = [&](NodeId a, NodeId b, int lanes) {
        Link l;
        l.a = a;
        l.b = b;
        l.tech = tech->first;
        l.rate = tech->second.laneRate;
        l.lanes = lanes;
        l.latency = tech->second.latency;
        d.addLink(std::move(l));
    };
    std::vector<int> down(switches.size(), 0), ports(switches.size(), 0);
    std::size_t h = 0;
    for (const auto &[host, leaves] : leavesOf) {
        for (std::size_t g = 0; g < gpus[h].size(); ++g) {
            const std::size_t leaf = leaves[g % leaves.size()];
            addLink(gpus[h][g], ids[leaf], nics);
            down[leaf] += nics;
        }
        ++h;
    }
    // Non-blocking uplinks, level by level: a switch's downlink cables spread over its parents.
    std::vector<std::vector<std::size_t>> parents(switches.size());
    std::unordered_map<std::string, std::size_t> byName;
    for (std::size_t i = 0; i < switches.size(); ++i)
        byName[switches[i].name] = i;
    for (std::size_t i = 0; i < switches.size(); ++i)
        for (const std::string &c : switches[i].children)
            parents[byName.at(c)].push_back(i);
    const int top = std::max_element(switches.begin(), switches.end(), [](auto &a, auto &b) {
                        return a.level < b.level;
                    })->level;
    for (int level = 0; level < top; ++level)
        for (std::size_t i = 0; i < switches.size(); ++i) {
            if (switches[i].level != level || parents[i].empty())
                continue;
            const int per = std::max(1,
                                     (down[i] + static_cast<int>(parents[i].size()) - 1)
                                         / static_cast<int>(parents[i].size()));
            for (const std::size_t p : parents[i]) {
                addLink(ids[i], ids[p], per);
                down[p] += per;
                ports[i] += per;
            }
        }
    for (std::size_t i = 0; i < switches.size(); ++i) {
        ports[i] += down[i];
        Node *n = d.node(ids[i]);
        n->spec = matchSwitchSpec(
            d, catalog, tech->second.technology, ports[i], tech->second.laneRate, tech->first,
            "slurm", "imported from Slurm topology.conf: ports used, NIC rate", PortCount::Used);
    }
    placeSwitchTiers(d);
    std::map<std::string, int> models;
    for (const NodeId id : ids)
        ++models[d.node(id)->spec];
    const auto list = [](const std::map<std::string, int> &m) {
        std::string s;
        for (const auto &[k, v] : m)
            s += (s.empty() ? "" : ", ") + std::to_string(v) + " x " + k;
        return s;
    };
    r.summary.push_back(std::to_string(switches.size()) + " switches, "
                        + std::to_string(hosts.size()) + " " + options.scaleUpPreset + " servers, "
                        + std::to_string(d.acceleratorCount()) + " GPUs");
    r.summary.push_back("tiers: " + list(tiers));
    r.summary.push_back("switch models: " + list(models));
    r.findings.push_back(std::string(yaml ? "topology.yaml" : "topology.conf")
                         + " gives no cable counts or rates: every NIC is one " + tech->first
                         + " cable and uplinks are sized non-blocking (1:1)");
    if (hosts.empty())
        r.findings.push_back("no switch lists any Nodes=: the design has switches only (no GPU "
                             "server to simulate); is the topology's node list kept elsewhere?");
    std::vector<std::string> multi;
    for (const auto &[host, leaves] : leavesOf)
        if (leaves.size() > 1)
            multi.push_back(host);
    if (!multi.empty())
        r.findings.push_back(std::to_string(multi.size())
                             + " host(s) sit under several leaf switches (rails dealt over them), "
                               "e.g. "
                             + multi.front());
    r.design = std::move(d);
    return r;
}

namespace {

/// The Slurm switches of a design, leaves first (see exportSlurmTopology()).
std::vector<SlurmSwitch> slurmSwitchesOf(const Design &design)
{
    std::unordered_map<NodeId, std::set<std::string>> hostsOf;
    std::unordered_map<NodeId, std::set<NodeId>> below;
    for (const Link &l : design.links()) {
        const Node *a = design.node(l.a), *b = design.node(l.b);
        if (!a || !b)
            continue;
        for (const auto &[x, y] : {std::pair(a, b), std::pair(b, a)}) {
            if (!x->isSwitch() || x->role == SwitchRole::ScaleUp)
                continue;
            if (y->isAccelerator()) {
                const Group *g = y->group.valid() ? design.group(y->group) : nullptr;
                hostsOf[x->id].insert(g ? g->name : y->name);
            } else if (y->isSwitch() && tierLevel(*y) < tierLevel(*x) && tierLevel(*y) > 0) {
                below[x->id].insert(y->id);
            }
        }
    }
    // Leaves serving the same hosts are one Slurm switch.
    std::map<std::set<std::string>, std::vector<NodeId>> leafSets;
    std::vector<std::set<std::string>> leafOrder;
    for (const Node &n : design.nodes())
        if (n.isSwitch() && n.role == SwitchRole::Leaf && hostsOf.count(n.id)) {
            auto &v = leafSets[hostsOf[n.id]];
            if (v.empty())
                leafOrder.push_back(hostsOf[n.id]);
            v.push_back(n.id);
        }
    std::unordered_map<NodeId, std::string> slurmName;
    std::set<std::string> used;
    std::vector<SlurmSwitch> out;
    for (const auto &hosts : leafOrder) {
        const std::vector<NodeId> &leaves = leafSets[hosts];
        const Node *first = design.node(leaves.front());
        const Group *g = first->group.valid() ? design.group(first->group) : nullptr;
        std::string name = leaves.size() > 1 && g ? g->name : first->name;
        for (int k = 2; !used.insert(name).second; ++k)
            name = first->name + "-" + std::to_string(k);
        for (const NodeId id : leaves)
            slurmName[id] = name;
        SlurmSwitch sw;
        sw.name = name;
        sw.nodes.assign(hosts.begin(), hosts.end());
        out.push_back(std::move(sw));
    }
    for (const Node &n : design.nodes()) {
        if (!n.isSwitch() || n.role == SwitchRole::ScaleUp || n.role == SwitchRole::Leaf
            || !below.count(n.id))
            continue;
        std::vector<std::string> children;
        for (const NodeId c : below[n.id])
            if (slurmName.count(c) || design.node(c)->role != SwitchRole::Leaf)
                children.push_back(slurmName.count(c) ? slurmName[c] : design.node(c)->name);
        slurmName[n.id] = n.name;
        SlurmSwitch sw;
        sw.name = n.name;
        sw.children = std::move(children);
        out.push_back(std::move(sw));
    }
    return out;
}

} // namespace

std::size_t slurmSwitchCount(const Design &design)
{
    return slurmSwitchesOf(design).size();
}

std::string exportSlurmTopology(const Design &design)
{
    std::string out
        = "# Slurm topology.conf (topology/tree) written by Weft from \"" + design.name + "\"\n";
    for (const SlurmSwitch &sw : slurmSwitchesOf(design))
        out += "SwitchName=" + sw.name
            + (sw.nodes.empty() ? " Switches=" + compressHostList(sw.children)
                                : " Nodes=" + compressHostList(sw.nodes))
            + "\n";
    return out;
}

std::string exportSlurmTopologyYaml(const Design &design)
{
    std::string out = "# Slurm topology.yaml (tree) written by Weft from \"" + design.name
        + "\"\n---\n- topology: weft\n  cluster_default: true\n  tree:\n    switches:\n";
    for (const SlurmSwitch &sw : slurmSwitchesOf(design))
        out += "      - switch: " + sw.name + "\n        "
            + (sw.nodes.empty() ? "children: " + compressHostList(sw.children)
                                : "nodes: " + compressHostList(sw.nodes))
            + "\n";
    return out;
}

} // namespace weft
