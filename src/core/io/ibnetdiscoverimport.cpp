#include "io/ibnetdiscoverimport.h"

#include "generate/fabricgenerator.h"
#include "io/hostnames.h"
#include "io/serverdomains.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <queue>
#include <set>
#include <unordered_map>

namespace weft {

namespace {

constexpr std::size_t kExamples = 5; // examples named per finding

struct End
{
    int node = -1; // index in IbFabric::nodes
    int port = 0;
    bool operator<(const End &o) const { return std::tie(node, port) < std::tie(o.node, o.port); }
    bool operator==(const End &o) const = default;
};

struct Cable
{
    End a, b;
    int width = 0;
    std::string speed;
    bool seenA = false, seenB = false;
    int line = 0;
    [[nodiscard]] double rate() const { return width * ibLaneRate(speed); }
    [[nodiscard]] std::string label() const { return std::to_string(width) + "x" + speed; }
};

/// "MF0;leaf-01:MQM8700/U1" (Mellanox switch NodeDescription) -> "leaf-01"; others unchanged.
std::string switchName(const std::string &desc)
{
    const std::size_t semi = desc.find(';');
    const std::size_t colon = desc.find(':', semi == std::string::npos ? 0 : semi);
    if (semi != std::string::npos && colon != std::string::npos && colon > semi + 1)
        return desc.substr(semi + 1, colon - semi - 1);
    return desc;
}

std::string lower(std::string s)
{
    for (char &c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string gbps(double bytesPerSecond)
{
    const double g = bytesPerSecond * 8 / 1e9;
    char buf[32];
    std::snprintf(buf, sizeof buf, g == std::floor(g) ? "%.0f Gb/s" : "%.1f Gb/s", g);
    return buf;
}

/// "a, b, c and 4 more".
std::string examples(const std::vector<std::string> &items)
{
    std::string out;
    for (std::size_t i = 0; i < items.size() && i < kExamples; ++i)
        out += (i ? ", " : "") + items[i];
    if (items.size() > kExamples)
        out += " and " + std::to_string(items.size() - kExamples) + " more";
    return out;
}

template<class K> K modeOf(const std::map<K, int> &counts)
{
    K best {};
    int n = -1;
    for (const auto &[k, c] : counts)
        if (c > n) {
            best = k;
            n = c;
        }
    return best;
}

struct Nic
{
    int index; // device index ("mlx5_3" -> 3)
    int port;
    int node; // CA node index
    [[nodiscard]] long key() const { return index * 256L + port; }
};

/// The distinct HCA devices (rails) of a host's ports, by device index.
std::vector<int> devicesOf(const std::vector<Nic> &nics)
{
    std::vector<int> out;
    for (const Nic &n : nics)
        out.push_back(n.index);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
};

class Importer
{
public:
    Importer(const IbFabric &f, const Catalog &c, const IbImportOptions &o)
        : m_f(f)
        , m_catalog(c)
        , m_o(o)
    {
    }

    IbImportResult run()
    {
        IbImportResult r;
        const auto preset = m_catalog.scaleUpPresets.find(m_o.scaleUpPreset);
        if (preset == m_catalog.scaleUpPresets.end()) {
            r.error = "unknown scale-up preset '" + m_o.scaleUpPreset
                + "' (known: " + catalogKeys(m_catalog.scaleUpPresets) + ")";
            return r;
        }
        m_preset = preset->second;
        m_rails = m_preset.accelerators * std::max(1, m_preset.nicsPerAccelerator);
        collectCables();
        if (!fillRates(r.error))
            return r;
        classifyHosts();
        if (!buildDomains(r.error))
            return r;
        inferTiers();
        addSwitches();
        addEndpoints();
        addLinks();
        placeSwitchTiers(m_design, "ib-endpoint");
        summarize();
        m_design.name = m_o.name;
        r.design = std::move(m_design);
        r.summary = std::move(m_s);
        return r;
    }

private:
    void finding(std::string s) { m_s.findings.push_back(std::move(s)); }

    std::string endName(const End &e) const
    {
        return '"' + m_f.nodes[static_cast<std::size_t>(e.node)].description + "\"["
            + std::to_string(e.port) + ']';
    }

    void collectCables()
    {
        std::unordered_map<std::string, int> index;
        for (std::size_t i = 0; i < m_f.nodes.size(); ++i)
            index.emplace(m_f.nodes[i].id, static_cast<int>(i));
        std::map<End, End> partner;
        std::map<std::pair<End, End>, std::size_t> cableOf;
        std::vector<std::string> unknownRemote, inconsistent, loopbacks;
        for (std::size_t i = 0; i < m_f.nodes.size(); ++i) {
            const IbNode &n = m_f.nodes[i];
            if (isSharpNode(n)) { // left out with its cable (addEndpoints says so)
                ++m_sharpNodes;
                continue;
            }
            if (n.type == IbNodeType::Switch)
                ++m_s.switches;
            else if (n.type == IbNodeType::Ca)
                ++m_s.cas;
            for (const IbPort &p : n.links) {
                const auto it = index.find(p.remoteId);
                if (it == index.end()) {
                    unknownRemote.push_back("line " + std::to_string(p.line));
                    continue;
                }
                if (isSharpNode(m_f.nodes[static_cast<std::size_t>(it->second)]))
                    continue;
                if (it->second == static_cast<int>(i)) { // a loopback plug or test cable
                    if (p.port < p.remotePort)
                        loopbacks.push_back(switchName(n.description) + " ports "
                                            + std::to_string(p.port) + "-"
                                            + std::to_string(p.remotePort));
                    continue;
                }
                const End a {static_cast<int>(i), p.port}, b {it->second, p.remotePort};
                const auto [pa, newA] = partner.emplace(a, b);
                const auto [pb, newB] = partner.emplace(b, a);
                if (!(pa->second == b) || !(pb->second == a)) {
                    inconsistent.push_back("line " + std::to_string(p.line));
                    continue;
                }
                const auto key = a < b ? std::make_pair(a, b) : std::make_pair(b, a);
                auto [c, fresh] = cableOf.emplace(key, m_cables.size());
                if (fresh) {
                    Cable cable;
                    cable.a = key.first;
                    cable.b = key.second;
                    cable.line = p.line;
                    m_cables.push_back(cable);
                }
                Cable &cable = m_cables[c->second];
                (a == cable.a ? cable.seenA : cable.seenB) = true;
                if (cable.width == 0 && p.width > 0) {
                    cable.width = p.width;
                    cable.speed = p.speed;
                }
            }
        }
        if (!unknownRemote.empty())
            finding(std::to_string(unknownRemote.size())
                    + " port(s) lead to a node not described in the file (left out; a truncated "
                      "capture?): "
                    + examples(unknownRemote));
        if (!loopbacks.empty())
            finding(std::to_string(loopbacks.size())
                    + " loopback cable(s) join two ports of one switch (left out: they carry no "
                      "traffic between nodes): "
                    + examples(loopbacks));
        if (!inconsistent.empty())
            finding(std::to_string(inconsistent.size())
                    + " port(s) disagree with the remote record about who they connect to (kept "
                      "the first): "
                    + examples(inconsistent));
        std::vector<std::string> oneSided;
        for (const Cable &c : m_cables)
            if (!c.seenA || !c.seenB)
                oneSided.push_back(endName(c.seenA ? c.a : c.b) + " (line " + std::to_string(c.line)
                                   + ")");
        if (!oneSided.empty())
            finding(std::to_string(oneSided.size())
                    + " cable(s) are listed on one side only (a port going down during the "
                      "sweep?): "
                    + examples(oneSided));
        m_s.cables = static_cast<int>(m_cables.size());
    }

    bool fillRates(std::string &error)
    {
        std::map<std::string, int> known;
        for (const Cable &c : m_cables)
            if (c.rate() > 0)
                ++known[c.label()];
        if (m_cables.empty()) {
            error = "the file describes no connected port";
            return false;
        }
        const bool none = known.empty();
        if (none) { // an ibsim net file without w= / s=: ibsim brings its ports up at 4x SDR
            known["4xSDR"] = 1;
            finding("no port line gives a link width and speed (an ibsim net file?): every cable "
                    "is taken at ibsim's default 4xSDR (10 Gb/s), as ibsim would bring it up");
        }
        const std::string usual = modeOf(known);
        m_usualLabel = usual;
        std::vector<std::string> guessed;
        for (Cable &c : m_cables)
            if (c.rate() <= 0) {
                guessed.push_back(endName(c.a));
                const std::size_t x = usual.find('x');
                c.width = std::stoi(usual.substr(0, x));
                c.speed = usual.substr(x + 1);
            }
        if (!guessed.empty() && !none)
            finding(std::to_string(guessed.size()) + " cable(s) give no known width x speed; "
                    + "taken as the file's usual " + usual + ": " + examples(guessed));
        for (const Cable &c : m_cables) {
            ++m_s.cableRates[c.label()];
            if (c.label() == usual)
                m_usualRate = c.rate();
        }
        return true;
    }

    void classifyHosts()
    {
        std::map<std::string, std::vector<Nic>> hosts;
        for (std::size_t i = 0; i < m_f.nodes.size(); ++i) {
            const IbNode &n = m_f.nodes[i];
            if (n.type != IbNodeType::Ca)
                continue;
            if (isSharpNode(n))
                continue;
            const auto [host, idx] = hcaHostAndIndex(n.description);
            for (const IbPort &p : n.links) {
                if (host.empty())
                    m_unknown[static_cast<int>(i)] = "no host name in its description";
                else
                    hosts[host].push_back({idx, p.port, static_cast<int>(i)});
            }
        }
        std::map<std::string, int> prefixes;
        for (const auto &[h, nics] : hosts)
            if (static_cast<int>(devicesOf(nics).size()) == m_rails)
                ++prefixes[namePrefix(h)];
        if (prefixes.empty())
            for (const auto &[h, nics] : hosts)
                if (static_cast<int>(devicesOf(nics).size()) <= m_rails)
                    ++prefixes[namePrefix(h)];
        const std::string prefix = modeOf(prefixes);
        std::set<std::vector<int>> layouts;
        for (auto &[h, nics] : hosts) {
            std::sort(nics.begin(), nics.end(),
                      [](const Nic &a, const Nic &b) { return a.key() < b.key(); });
            const std::vector<int> devices = devicesOf(nics);
            const bool fits = static_cast<int>(devices.size()) <= m_rails;
            if (prefixes.empty() || namePrefix(h) != prefix || !fits) {
                for (const Nic &n : nics)
                    m_unknown[n.node] = !fits
                        ? "more HCAs than the " + m_preset.key + " preset's "
                            + std::to_string(m_rails) + " rails"
                        : "host name not of the GPU servers' \"" + prefix + "\" pattern";
                continue;
            }
            m_servers.push_back(h);
            m_serverNics.push_back(nics);
            if (static_cast<int>(devices.size()) == m_rails)
                layouts.insert(devices);
        }
        // Servers in natural name order (dgx-2 before dgx-10).
        std::vector<std::size_t> order(m_servers.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return naturalLess(m_servers[a], m_servers[b]);
        });
        std::vector<std::string> names;
        std::vector<std::vector<Nic>> nics;
        for (const std::size_t i : order) {
            names.push_back(m_servers[i]);
            nics.push_back(m_serverNics[i]);
        }
        m_servers = std::move(names);
        m_serverNics = std::move(nics);
        if (layouts.size() == 1)
            for (std::size_t r = 0; r < layouts.begin()->size(); ++r)
                m_railOfKey[(*layouts.begin())[r]] = static_cast<int>(r);
    }

    bool buildDomains(std::string &error)
    {
        std::optional<Design> d = serverDomains(m_catalog, m_preset.key, m_servers, m_gpus, error);
        if (!d)
            return false;
        m_design = std::move(*d);
        std::vector<std::string> missing;
        const int perGpu = std::max(1, m_preset.nicsPerAccelerator);
        for (std::size_t s = 0; s < m_servers.size(); ++s) {
            std::vector<bool> used(static_cast<std::size_t>(m_rails), false);
            const std::vector<int> devices = devicesOf(m_serverNics[s]);
            std::map<int, int> railOf; // device index -> rail
            for (std::size_t k = 0; k < devices.size(); ++k) {
                const auto given = m_o.railOfHca.find(devices[k]);
                const auto learned = m_railOfKey.find(devices[k]);
                int rail = given != m_o.railOfHca.end() && given->second < m_rails ? given->second
                    : learned != m_railOfKey.end()                                 ? learned->second
                                                   : static_cast<int>(k);
                if (used[static_cast<std::size_t>(rail)])
                    rail = static_cast<int>(k);
                used[static_cast<std::size_t>(rail)] = true;
                railOf[devices[k]] = rail;
            }
            for (const Nic &nic : m_serverNics[s])
                m_nicNode[{nic.node, nic.port}]
                    = m_gpus[s][static_cast<std::size_t>(railOf[nic.index] / perGpu)];
            std::string gaps;
            for (int r = 0; r < m_rails; ++r)
                if (!used[static_cast<std::size_t>(r)])
                    gaps += (gaps.empty() ? "" : ",") + std::to_string(r);
            if (!gaps.empty())
                missing.push_back(m_servers[s] + " rail " + gaps);
        }
        // Hosts with far fewer HCAs than the preset has rails are likely not its servers (CPU
        // nodes, or another GPU server): say so before the missing rails.
        std::map<int, int> hcasPerHost;
        for (const std::vector<Nic> &nics : m_serverNics)
            ++hcasPerHost[static_cast<int>(devicesOf(nics).size())];
        const int usualHcas = hcasPerHost.empty() ? 0 : modeOf(hcasPerHost);
        if (usualHcas * 2 <= m_rails)
            finding("most hosts have " + std::to_string(usualHcas) + " HCA(s) where a "
                    + m_preset.key + " server has " + std::to_string(m_rails)
                    + " rails: if they are not such servers, import with the --scaleup preset "
                      "(or NCCL topology file) of the hosts");
        if (!missing.empty())
            finding(std::to_string(missing.size())
                    + " server(s) miss rails (HCA port down or not cabled): " + examples(missing));
        m_s.servers = static_cast<int>(m_servers.size());
        m_s.accelerators = static_cast<int>(m_design.acceleratorCount());
        return true;
    }

    [[nodiscard]] bool isSwitch(int node) const
    {
        return m_f.nodes[static_cast<std::size_t>(node)].type == IbNodeType::Switch;
    }

    void inferTiers()
    {
        const std::size_t n = m_f.nodes.size();
        m_level.assign(n, -1);
        std::vector<std::vector<int>> adj(n);
        std::queue<int> q;
        const auto seedLeaves = [&](bool computeOnly) {
            for (const Cable &c : m_cables)
                for (const auto &[sw, ca] : {std::pair(c.a, c.b), std::pair(c.b, c.a)})
                    if (isSwitch(sw.node) && !isSwitch(ca.node) && m_level[sw.node] < 0
                        && (!computeOnly || m_nicNode.count({ca.node, ca.port}))) {
                        m_level[static_cast<std::size_t>(sw.node)] = 0;
                        q.push(sw.node);
                    }
        };
        seedLeaves(true);
        if (q.empty())
            seedLeaves(false);
        for (const Cable &c : m_cables)
            if (isSwitch(c.a.node) && isSwitch(c.b.node)) {
                adj[static_cast<std::size_t>(c.a.node)].push_back(c.b.node);
                adj[static_cast<std::size_t>(c.b.node)].push_back(c.a.node);
            }
        while (!q.empty()) {
            const int u = q.front();
            q.pop();
            for (const int v : adj[static_cast<std::size_t>(u)])
                if (m_level[static_cast<std::size_t>(v)] < 0) {
                    m_level[static_cast<std::size_t>(v)] = m_level[static_cast<std::size_t>(u)] + 1;
                    q.push(v);
                }
        }
        std::vector<std::string> unreached, deep;
        for (std::size_t i = 0; i < n; ++i) {
            if (m_f.nodes[i].type != IbNodeType::Switch)
                continue;
            if (m_level[i] < 0) {
                unreached.push_back(m_f.nodes[i].description);
                m_level[i] = 1;
            } else if (m_level[i] > 2) {
                deep.push_back(m_f.nodes[i].description);
                m_level[i] = 2;
            }
        }
        if (!unreached.empty())
            finding(std::to_string(unreached.size())
                    + " switch(es) have no path to a leaf (taken as spines): "
                    + examples(unreached));
        if (!deep.empty())
            finding(std::to_string(deep.size())
                    + " switch(es) are more than two hops above the leaves (taken as core): "
                    + examples(deep));
    }

    void addSwitches()
    {
        std::vector<double> maxRate(m_f.nodes.size(), 0);
        std::vector<std::string> speed(m_f.nodes.size());
        for (const Cable &c : m_cables)
            for (const End &e : {c.a, c.b})
                if (c.rate() > maxRate[static_cast<std::size_t>(e.node)]) {
                    maxRate[static_cast<std::size_t>(e.node)] = c.rate();
                    speed[static_cast<std::size_t>(e.node)] = c.label();
                }
        std::vector<std::string> bare;
        std::set<std::string> names;
        for (std::size_t i = 0; i < m_f.nodes.size(); ++i) {
            const IbNode &ib = m_f.nodes[i];
            if (ib.type != IbNodeType::Switch)
                continue;
            if (maxRate[i] <= 0) { // no cabled port in the file: a partial capture
                bare.push_back(switchName(ib.description));
                speed[i] = m_usualLabel;
                maxRate[i] = m_usualRate;
            }
            const std::string spec = switchSpec(ib.ports, maxRate[i], speed[i]);
            Node sw;
            sw.kind = NodeKind::Switch;
            sw.name = unique(names, switchName(ib.description));
            sw.spec = spec;
            static constexpr SwitchRole kRoles[]
                = {SwitchRole::Leaf, SwitchRole::Spine, SwitchRole::Core};
            sw.role = kRoles[m_level[i]];
            m_ibNode[static_cast<int>(i)] = m_design.addNode(std::move(sw));
            ++m_s.tiers[toString(kRoles[m_level[i]])];
            const SwitchSpec &s = m_design.hardware.switches.at(spec);
            ++m_s.switchModels[s.key + " (" + std::to_string(ib.ports) + " ports, " + speed[i]
                               + ")"];
        }
        if (!bare.empty())
            finding(std::to_string(bare.size())
                    + " switch(es) have no cabled port in the file (a partial capture?); their "
                      "model is matched at the file's usual "
                    + m_usualLabel + ": " + examples(bare));
    }

    // SHARP's aggregation nodes: a virtual CA inside each Quantum switch (its in-network
    // reduction engine, NodeDescription "Mellanox Technologies Aggregation Node"), not a host:
    // always left out, with their cables.
    static bool isSharpNode(const IbNode &n)
    {
        return n.type == IbNodeType::Ca
            && n.description.find("Aggregation Node") != std::string::npos;
    }

    static std::string unique(std::set<std::string> &names, std::string name)
    {
        std::string out = name;
        for (int k = 2; !names.insert(out).second; ++k)
            out = name + "#" + std::to_string(k);
        return out;
    }

    std::string switchSpec(int ports, double rate, const std::string &label)
    {
        return matchSwitchSpec(m_design, m_catalog, Technology::InfiniBand, ports, rate,
                               label.substr(label.find('x') + 1), "ib",
                               "imported from ibnetdiscover (port count of the NodeInfo, "
                               "fastest active port)");
    }

    void addEndpoints()
    {
        if (m_sharpNodes > 0)
            finding(std::to_string(m_sharpNodes)
                    + " SHARP aggregation node(s) (\"Aggregation Node\": the in-network "
                      "reduction engine inside a switch, not a host) left out");
        for (const auto &[node, reason] : m_unknown)
            m_s.unknownHcas
                += static_cast<int>(m_f.nodes[static_cast<std::size_t>(node)].links.size());
        if (!m_unknown.empty()) {
            std::map<std::string, std::vector<std::string>> byReason;
            for (const auto &[node, reason] : m_unknown)
                byReason[reason].push_back(m_f.nodes[static_cast<std::size_t>(node)].description);
            for (const auto &[reason, names] : byReason)
                finding(std::to_string(names.size()) + " HCA(s) are not GPU-server rails (" + reason
                        + (m_o.dropUnknown ? "; left out" : "; kept as ib-endpoint nodes")
                        + "): " + examples(names));
        }
        if (m_o.dropUnknown || m_unknown.empty())
            return;
        AcceleratorSpec ep;
        ep.key = "ib-endpoint";
        ep.name = "InfiniBand endpoint (storage, management or unknown host)";
        // Placeholders, not a GPU's figures: the design format requires positive compute and
        // memory figures for every accelerator spec, and an endpoint has none to speak of. Such
        // nodes should get no workload (--drop-unknown leaves them out).
        ep.peakFlopsBf16 = 1e9;
        ep.hbmBytes = 1e9;
        ep.hbmBandwidth = 1e9;
        ep.source = "imported from ibnetdiscover: an HCA that is not a GPU-server rail; compute "
                    "and memory figures are placeholders (1 GFLOP/s, 1 GB, 1 GB/s)";
        m_design.hardware.accelerators[ep.key] = ep;
        Group g;
        g.kind = GroupKind::Rack;
        g.name = "other-hcas";
        const GroupId gid = m_design.addGroup(std::move(g));
        std::set<std::string> names;
        for (const auto &[node, reason] : m_unknown) {
            Node n;
            n.kind = NodeKind::Accelerator;
            n.name = unique(names, m_f.nodes[static_cast<std::size_t>(node)].description);
            n.spec = ep.key;
            n.group = gid;
            const NodeId id = m_design.addNode(std::move(n));
            m_ibNode[node] = id;
        }
    }

    NodeId designNode(const End &e) const
    {
        if (const auto it = m_nicNode.find({e.node, e.port}); it != m_nicNode.end())
            return it->second;
        if (const auto it = m_ibNode.find(e.node); it != m_ibNode.end())
            return it->second;
        return {};
    }

    std::string linkTech(const std::string &speed)
    {
        const std::string key = "ib-" + lower(speed);
        if (m_design.hardware.linkTechs.count(key))
            return key;
        if (const auto it = m_catalog.hardware.linkTechs.find(key);
            it != m_catalog.hardware.linkTechs.end()) {
            m_design.hardware.linkTechs[key] = it->second;
            return key;
        }
        LinkTechSpec t;
        const auto hdr = m_catalog.hardware.linkTechs.find("ib-hdr");
        if (hdr != m_catalog.hardware.linkTechs.end())
            t = hdr->second;
        t.key = key;
        t.name = "InfiniBand " + speed;
        t.technology = Technology::InfiniBand;
        t.laneRate = 4 * ibLaneRate(speed);
        t.source = "IBTA link speed " + speed + " (4x data rate); efficiency and latency as ib-hdr";
        m_design.hardware.linkTechs[key] = t;
        return key;
    }

    void addLinks()
    {
        std::map<std::tuple<std::uint32_t, std::uint32_t, std::string>, LinkId> bundles;
        for (const Cable &c : m_cables) {
            NodeId a = designNode(c.a), b = designNode(c.b);
            if (!a.valid() || !b.valid())
                continue;
            ++m_s.cablesImported;
            if (b < a)
                std::swap(a, b);
            const auto key = std::make_tuple(a.value, b.value, c.label());
            if (const auto it = bundles.find(key); it != bundles.end()) {
                ++m_design.link(it->second)->lanes;
                continue;
            }
            Link l;
            l.a = a;
            l.b = b;
            l.tech = linkTech(c.speed);
            l.rate = c.rate();
            l.latency = m_design.hardware.linkTechs.at(l.tech).latency;
            bundles[key] = m_design.addLink(std::move(l));
        }
    }

    void summarize()
    {
        // Cables below the usual rate of their tier, and switches with unequal uplinks.
        std::map<std::string, std::map<double, int>> rates;
        std::map<NodeId, int> uplinks;
        const auto tierOf = [&](const Link &l) {
            const Node *a = m_design.node(l.a), *b = m_design.node(l.b);
            const int la = tierLevel(*a), lb = tierLevel(*b);
            return std::string(la == 0 || lb == 0          ? "nic"
                                   : std::min(la, lb) == 1 ? "leaf"
                                                           : "spine");
        };
        for (const Link &l : m_design.links()) {
            if (m_design.node(l.a)->role == SwitchRole::ScaleUp
                && m_design.node(l.b)->role == SwitchRole::ScaleUp)
                continue;
            if (l.tech.rfind("ib-", 0) != 0)
                continue;
            rates[tierOf(l)][l.rate] += l.lanes;
            const Node *a = m_design.node(l.a), *b = m_design.node(l.b);
            if (a->isSwitch() && b->isSwitch()) {
                uplinks[tierLevel(*a) < tierLevel(*b) ? a->id : b->id] += l.lanes;
            }
        }
        for (const auto &[tier, counts] : rates) {
            const double usual = modeOf(counts);
            std::vector<std::string> slow;
            for (const Link &l : m_design.links())
                if (l.tech.rfind("ib-", 0) == 0 && tierOf(l) == tier && l.rate < usual)
                    slow.push_back(m_design.node(l.a)->name + " - " + m_design.node(l.b)->name
                                   + " at " + gbps(l.rate));
            if (!slow.empty())
                finding(std::to_string(slow.size()) + " " + tier
                        + " link(s) run below the tier's usual " + gbps(usual)
                        + " per cable (degraded width or speed): " + examples(slow));
        }
        std::map<SwitchRole, std::map<int, int>> byRole;
        for (const auto &[id, n] : uplinks)
            ++byRole[m_design.node(id)->role][n];
        for (const Node &n : m_design.nodes())
            if (n.isSwitch() && n.role != SwitchRole::ScaleUp && n.role != SwitchRole::Core
                && !uplinks.count(n.id) && byRole.count(n.role))
                ++byRole[n.role][0];
        for (const auto &[role, counts] : byRole) {
            if (counts.size() < 2)
                continue;
            const int usual = modeOf(counts);
            std::vector<std::string> odd;
            for (const Node &n : m_design.nodes())
                if (n.isSwitch() && n.role == role) {
                    const auto it = uplinks.find(n.id);
                    const int u = it == uplinks.end() ? 0 : it->second;
                    if (u != usual)
                        odd.push_back(n.name + " has " + std::to_string(u));
                }
            finding(std::string("asymmetric cabling: most ") + toString(role) + " switches have "
                    + std::to_string(usual) + " uplinks, " + examples(odd));
        }
    }

    const IbFabric &m_f;
    const Catalog &m_catalog;
    const IbImportOptions &m_o;
    ScaleUpPreset m_preset;
    int m_rails = 8;
    std::vector<Cable> m_cables;
    std::vector<std::string> m_servers;
    std::vector<std::vector<Nic>> m_serverNics;
    std::map<int, int> m_railOfKey; // device index -> rail, learned on complete servers
    std::map<int, std::string> m_unknown; // CA node -> reason
    int m_sharpNodes = 0; // SHARP aggregation nodes, left out
    std::string m_usualLabel; // the file's most common known cable ("4xHDR"), fillRates
    double m_usualRate = 0; // its rate, bytes/s
    std::vector<std::vector<NodeId>> m_gpus; // per server, by rail
    std::map<std::pair<int, int>, NodeId> m_nicNode; // (CA node, port) -> accelerator
    std::map<int, NodeId> m_ibNode; // switch or kept endpoint -> design node
    std::vector<int> m_level;
    Design m_design;
    IbImportSummary m_s;
};

} // namespace

std::pair<std::string, int> hcaHostAndIndex(const std::string &description)
{
    const std::size_t space = description.find(' ');
    if (space == std::string::npos || space == 0)
        return {"", -1};
    const std::string device = description.substr(space + 1);
    std::size_t d = device.size();
    while (d > 0 && std::isdigit(static_cast<unsigned char>(device[d - 1])))
        --d;
    if (d == device.size() || device.size() - d > 6 || device.find(' ') != std::string::npos)
        return {"", -1};
    return {description.substr(0, space), std::stoi(device.substr(d))};
}

IbImportResult importIbFabric(const IbFabric &fabric, const Catalog &catalog,
                              const IbImportOptions &options)
{
    return Importer(fabric, catalog, options).run();
}

} // namespace weft
