#include "io/nccltopology.h"

#include "io/serverdomains.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <pugixml.hpp>
#include <set>
#include <stdexcept>

namespace weft {

namespace {

constexpr int kMaxDepth = 64; // NCCL's own files nest ~6 levels (system, cpu, pci x 3, gpu)

/// PCIe device classes (PCI Code and ID Assignment Specification, sec. 1): base class and
/// subclass, the first four hex digits of NCCL's "class" attribute.
bool hasClass(const pugi::xml_node &pci, const char *prefix)
{
    const std::string c = pci.attribute("class").as_string();
    return c.rfind(prefix, 0) == 0;
}

class Reader
{
public:
    Reader(std::string_view text, NcclTopology &out)
        : m_text(text)
        , m_out(out)
    {
    }

    void read()
    {
        pugi::xml_document doc;
        const pugi::xml_parse_result res = doc.load_buffer(m_text.data(), m_text.size());
        if (!res)
            fail(static_cast<std::ptrdiff_t>(res.offset),
                 std::string("malformed XML: ") + res.description());
        const pugi::xml_node root = doc.document_element();
        if (std::string(root.name()) != "system")
            fail(root.offset_debug(),
                 "the root element is <" + std::string(root.name()) + ">, not NCCL's <system>");
        for (const pugi::xml_node &n : root.children())
            visit(n, {}, 1);
        // The switch addresses a GPU reaches, once each.
        for (NcclGpu &g : m_out.gpus) {
            std::sort(g.switchTargets.begin(), g.switchTargets.end());
            g.switchTargets.erase(std::unique(g.switchTargets.begin(), g.switchTargets.end()),
                                  g.switchTargets.end());
        }
        nearestNics();
    }

private:
    struct Place
    {
        int socket = -1;
        std::vector<std::string> bridges; ///< PCIe switches above the slot, outermost first
    };

    [[noreturn]] void fail(std::ptrdiff_t offset, const std::string &what) const
    {
        const std::size_t end
            = std::min<std::size_t>(std::max<std::ptrdiff_t>(offset, 0), m_text.size());
        const long line = 1 + std::count(m_text.begin(), m_text.begin() + long(end), '\n');
        throw std::invalid_argument("line " + std::to_string(line) + ": " + what);
    }

    int integer(const pugi::xml_node &n, const char *attr, int fallback) const
    {
        const pugi::xml_attribute a = n.attribute(attr);
        if (!a)
            return fallback;
        const std::string s = a.as_string();
        std::size_t used = 0;
        long v = 0;
        try {
            v = std::stol(s, &used, 10);
        } catch (const std::exception &) {
            used = 0;
        }
        if (used != s.size() || v < 0 || v > 1'000'000'000)
            fail(n.offset_debug(),
                 "<" + std::string(n.name()) + "> " + attr + "=\"" + s + "\" is not a count");
        return int(v);
    }

    void visit(const pugi::xml_node &n, Place place, int depth)
    {
        if (n.type() != pugi::node_element)
            return;
        if (depth > kMaxDepth)
            fail(n.offset_debug(),
                 "elements nested deeper than " + std::to_string(kMaxDepth) + " levels");
        const std::string name = n.name();
        if (name == "cpu") {
            place = Place {m_out.sockets++, {}};
        } else if (name == "pci") {
            slot(n, place);
            place.bridges.push_back(n.attribute("busid").as_string());
        } else if (name == "nic") {
            if (std::string(n.parent().name()) != "pci") // a slot's NIC is read by slot()
                nic(n, place, "");
            return;
        }
        for (const pugi::xml_node &c : n.children())
            visit(c, place, depth + 1);
    }

    /// A PCIe slot: a GPU (its <gpu> child, or class 0x0302/0x0300 alone), a NIC (<nic>, or
    /// InfiniBand class 0x0207 alone), or a bridge whose children are visited by the caller.
    void slot(const pugi::xml_node &pci, const Place &place)
    {
        const std::string busId = pci.attribute("busid").as_string();
        const pugi::xml_node gpuNode = pci.child("gpu");
        if (gpuNode) {
            for (const pugi::xml_node &g : pci.children("gpu"))
                gpu(pci, g, place);
        } else if ((hasClass(pci, "0x0302") || hasClass(pci, "0x0300")) && !pci.first_child()
                   && std::string(pci.attribute("vendor").as_string("0x10de")) == "0x10de") {
            gpu(pci, {}, place);
        }
        // Class-only NIC slots: InfiniBand (0x0207), or AWS's EFA, an Ethernet-class RDMA device
        // of vendor 0x1d0f (aws-ofi-nccl's topology files).
        const bool efa = hasClass(pci, "0x0200")
            && std::string(pci.attribute("vendor").as_string()) == "0x1d0f";
        if (!pci.child("nic") && (hasClass(pci, "0x0207") || efa) && !pci.first_child()) {
            NcclNic c;
            c.name = busId;
            c.busId = busId;
            c.infiniband = !efa;
            m_out.nics.push_back(c);
            m_nicPlace.push_back(place);
        }
        if (const pugi::xml_node nicNode = pci.child("nic"))
            nic(nicNode, place, busId, hasClass(pci, "0x0207"));
    }

    void gpu(const pugi::xml_node &pci, const pugi::xml_node &g, const Place &place)
    {
        NcclGpu out;
        out.busId = pci.attribute("busid").as_string();
        out.device = pci.attribute("device").as_string();
        if (g) {
            out.sm = integer(g, "sm", 0);
            for (const pugi::xml_node &l : g.children("nvlink")) {
                const int count = integer(l, "count", 1);
                const std::string tclass = l.attribute("tclass").as_string();
                if (tclass.rfind("0x0680", 0) == 0) {
                    out.switchLinks += count;
                    out.switchTargets.push_back(l.attribute("target").as_string());
                } else if (tclass.rfind("0x0302", 0) == 0 || tclass.rfind("0x0300", 0) == 0) {
                    out.gpuLinks += count;
                }
            }
            // RCCL's dump: AMD Infinity Fabric (xGMI) links straight to the other GPUs.
            for (const pugi::xml_node &l : g.children("xgmi"))
                out.gpuLinks += integer(l, "count", 1);
        }
        m_out.gpus.push_back(out);
        m_gpuPlace.push_back(place);
    }

    void nic(const pugi::xml_node &nicNode, const Place &place, const std::string &busId,
             bool infiniband = false)
    {
        for (const pugi::xml_node &net : nicNode.children("net")) {
            NcclNic c;
            c.name = net.attribute("name").as_string(busId.c_str());
            c.busId = busId;
            c.rate = integer(net, "speed", 0) * 1e6 / 8; // Mb/s
            c.infiniband = infiniband;
            // A NIC on the CPU without a slot of its own is the host's socket NIC.
            c.gdr = integer(net, "gdr", busId.empty() ? 0 : 1) != 0;
            m_out.nics.push_back(c);
            m_nicPlace.push_back(place);
        }
    }

    /// NCCL's path types (src/graph/paths.cc): PIX through at most one PCIe switch, PXB
    /// through several, PHB through the CPU's host bridge, SYS across sockets.
    static int distance(const Place &a, const Place &b)
    {
        if (a.socket != b.socket)
            return 3;
        std::size_t common = 0;
        while (common < a.bridges.size() && common < b.bridges.size()
               && a.bridges[common] == b.bridges[common])
            ++common;
        if (common == 0)
            return 2;
        return common == a.bridges.size() && common == b.bridges.size() ? 0 : 1;
    }

    void nearestNics()
    {
        static const char *const kNames[] = {"PIX", "PXB", "PHB", "SYS"};
        std::vector<int> users(m_out.nics.size(), 0);
        for (std::size_t g = 0; g < m_out.gpus.size(); ++g) {
            int best = -1, bestD = 4;
            for (std::size_t k = 0; k < m_out.nics.size(); ++k) {
                if (!m_out.nics[k].gdr)
                    continue;
                const int d = distance(m_gpuPlace[g], m_nicPlace[k]);
                if (d < bestD || (d == bestD && users[k] < users[std::size_t(best)])) {
                    best = int(k);
                    bestD = d;
                }
            }
            if (best >= 0) {
                ++users[std::size_t(best)];
                m_out.gpus[g].nearestNic = best;
                m_out.gpus[g].distance = kNames[bestD];
            }
        }
    }

    std::string_view m_text;
    NcclTopology &m_out;
    std::vector<Place> m_gpuPlace, m_nicPlace;
};

/// Catalog accelerator of a GPU's PCI device id (the PCI ID list, pci-ids.ucw.cz, vendors 10de
/// and 1002), else of its compute capability (NVIDIA's sm); empty when neither is known.
// PCI device ids of the catalog's GPUs.
const std::map<std::string, std::string> &knownDevices()
{
    static const std::map<std::string, std::string> kDevices
        = {{"0x20b0", "a100-80gb"},
           {"0x20b2", "a100-80gb"},
           {"0x2330", "h100-sxm"},
           {"0x2324", "h800-sxm"},
           {"0x2335", "h200-sxm"},
           {"0x2901", "b200"},
           // AMD (vendor 1002): MI300X and its virtual function (RCCL's topology dumps)
           {"0x74a1", "mi300x"},
           {"0x74b5", "mi300x"}};
    return kDevices;
}

std::string acceleratorOf(const NcclGpu &g, bool multiNodeNvlink)
{
    if (const auto it = knownDevices().find(g.device); it != knownDevices().end())
        return it->second;
    switch (g.sm) {
    case 80:
        return "a100-80gb";
    case 90:
        return "h100-sxm";
    case 100:
        return multiNodeNvlink ? "gb200" : "b200";
    case 103:
        return multiNodeNvlink ? "gb300" : "b300";
    default:
        return {};
    }
}

template<class T> T mostCommon(const std::vector<T> &v)
{
    std::map<T, int> n;
    for (const T &x : v)
        ++n[x];
    return std::max_element(n.begin(), n.end(),
                            [](const auto &a, const auto &b) { return a.second < b.second; })
        ->first;
}

std::string gbps(double rate)
{
    return std::to_string(int(std::lround(rate * 8 / 1e9))) + " Gb/s";
}

} // namespace

NcclTopology parseNcclTopology(std::string_view text)
{
    NcclTopology t;
    Reader(text, t).read();
    return t;
}

namespace {

/// The catalog preset of the GPUs: `requested` unless it is "auto" or empty.
std::string presetKey(const NcclTopology &topo, const Catalog &catalog,
                      const std::string &requested, bool multiNode, std::vector<std::string> &notes)
{
    if (!requested.empty() && requested != "auto")
        return requested;
    const NcclGpu &g0 = topo.gpus.front();
    const std::string acc = acceleratorOf(g0, multiNode);
    if (acc.empty())
        throw std::invalid_argument(
            g0.device.empty() && g0.sm == 0
                ? std::string("the file names no GPU model (no PCI device id, no sm); name a "
                              "scale-up preset")
                : "the GPUs (PCI device " + (g0.device.empty() ? "-" : g0.device) + ", sm "
                    + std::to_string(g0.sm)
                    + ") match no catalog accelerator; name a scale-up preset");
    std::string key;
    for (const auto &[k, p] : catalog.scaleUpPresets)
        if (p.accelerator == acc && (key.empty() || p.accelerators == int(topo.gpus.size())))
            key = k;
    if (key.empty())
        throw std::invalid_argument("no scale-up preset of the catalog has " + acc
                                    + " GPUs; name one");
    // Said by what decided: an unknown device id falls back on the compute capability (it
    // said "chosen from the GPUs' PCI device id 0x9999" when sm 90 had chosen).
    notes.push_back(
        "preset " + key + " chosen from the GPUs' "
        + (knownDevices().count(g0.device) ? "PCI device id " + g0.device
                                           : "compute capability (sm " + std::to_string(g0.sm) + ")"
                   + (g0.device.empty() ? std::string()
                                        : "; their PCI device id " + g0.device + " is not known")));
    return key;
}

/// NVLinks per GPU (the most common count), NVSwitch chips or a direct mesh, into `p`.
void applyNvlinks(const NcclTopology &topo, bool multiNode, const std::string &key,
                  ScaleUpPreset &p, std::vector<std::string> &notes)
{
    const NcclGpu &g0 = topo.gpus.front();
    std::vector<int> lanes;
    std::set<std::string> switches;
    bool mesh = false;
    for (std::size_t g = 0; g < topo.gpus.size(); ++g) {
        const NcclGpu &x = topo.gpus[g];
        lanes.push_back(x.switchLinks + x.gpuLinks);
        mesh = mesh || x.gpuLinks > 0;
        switches.insert(x.switchTargets.begin(), x.switchTargets.end());
        if (x.sm != g0.sm)
            notes.push_back("GPU " + std::to_string(g) + " (" + x.busId + ") is sm "
                            + std::to_string(x.sm) + ", GPU 0 sm " + std::to_string(g0.sm));
    }
    const int usual = mostCommon(lanes);
    for (std::size_t g = 0; g < lanes.size(); ++g)
        if (lanes[g] != usual)
            notes.push_back("GPU " + std::to_string(g) + " (" + topo.gpus[g].busId + ") has "
                            + std::to_string(lanes[g]) + " NVLinks, the others "
                            + std::to_string(usual)
                            + (lanes[g] == 0 ? ": NCCL sends its traffic over PCIe" : ""));
    if (usual == 0) {
        notes.push_back("the file gives no NVLinks; the preset's "
                        + std::to_string(p.lanesPerAccelerator) + " per GPU are used");
        return;
    }
    if (usual != p.lanesPerAccelerator)
        notes.push_back(std::to_string(usual) + " NVLinks per GPU where " + key + " has "
                        + std::to_string(p.lanesPerAccelerator));
    p.lanesPerAccelerator = usual;
    if (mesh) {
        p.scaleUpSwitch.clear();
        p.scaleUpSwitches = 0;
    } else if (!multiNode && !switches.empty()) {
        p.scaleUpSwitches = int(switches.size());
    }
}

/// RDMA NICs per GPU, their rate and the catalog technology nearest it, into `p`.
void applyNics(const NcclTopology &topo, const Catalog &catalog, const std::string &key,
               ScaleUpPreset &p, std::vector<std::string> &notes)
{
    std::vector<const NcclNic *> rails;
    for (const NcclNic &n : topo.nics)
        if (n.gdr)
            rails.push_back(&n);
    // Fewer NICs than GPUs, each shared by as many GPUs (AWS p4d: 4 EFA devices for 8 GPUs,
    // two GPUs behind each PCIe switch): one link per GPU at its share of the NIC's rate, so the
    // server's scale-out bandwidth is what it has (the preset's one NIC per GPU made it 2-4x).
    const std::size_t gpus = topo.gpus.size();
    const std::size_t sharing = !rails.empty() && rails.size() < gpus && gpus % rails.size() == 0
        ? gpus / rails.size()
        : 1;
    if (sharing > 1)
        p.nicsPerAccelerator = 1;
    else if (!rails.empty() && rails.size() % gpus == 0)
        p.nicsPerAccelerator = int(rails.size() / gpus);
    else
        notes.push_back(std::to_string(rails.size()) + " RDMA NIC(s) for " + std::to_string(gpus)
                        + " GPUs: not one rail per GPU; the preset's "
                        + std::to_string(p.nicsPerAccelerator) + " per GPU are used");
    std::vector<double> rates;
    for (const NcclNic *n : rails)
        if (n->rate > 0)
            rates.push_back(n->rate);
    if (sharing > 1) {
        const double nic = rates.empty() ? p.nicRate : mostCommon(rates);
        notes.push_back(
            std::to_string(rails.size())
            + (rails.size() == 1 ? " RDMA NIC for " : " RDMA NICs for ") + std::to_string(gpus)
            + (rails.size() == 1 ? " GPUs, shared by all " : " GPUs, each shared by ")
            + std::to_string(sharing) + ": one link per GPU at 1/" + std::to_string(sharing)
            + " of " + gbps(nic)
            + (rates.empty() ? " (the preset's NIC rate: the file gives none)" : std::string())
            + ", the server's scale-out bandwidth " + gbps(nic * double(rails.size())));
        p.nicRate = nic / double(sharing);
        return;
    }
    if (rates.empty())
        return;
    const double rate = mostCommon(rates);
    if (std::abs(rate - p.nicRate) <= 1e-6 * rate)
        return;
    // The catalog technology nearest that rate (InfiniBand for class 0x0207 slots).
    const Technology tech
        = rails.front()->infiniband ? Technology::InfiniBand : Technology::Ethernet;
    const LinkTechSpec *best = nullptr;
    for (const auto &[k, t] : catalog.hardware.linkTechs)
        if (t.technology == tech
            && (!best || std::abs(t.laneRate - rate) < std::abs(best->laneRate - rate)))
            best = &t;
    notes.push_back(
        "NICs at " + gbps(rate) + " where " + key + " has " + gbps(p.nicRate)
        + (best ? "; link technology " + best->key + " at the file's rate" : std::string()));
    if (best)
        p.nicTech = best->key;
    p.nicRate = rate;
}

} // namespace

ScaleUpPreset ncclServerPreset(const NcclTopology &topo, const Catalog &catalog,
                               const std::string &requested, std::vector<std::string> &notes)
{
    if (topo.gpus.empty())
        throw std::invalid_argument("the file has no GPU (no <gpu> element and no PCIe slot of "
                                    "class 0x0302)");
    // NVL72-class trays: every NVLink goes to one collapsed switch address (fffffff:ff:ff.0).
    bool multiNode = false;
    for (const NcclGpu &g : topo.gpus)
        for (const std::string &t : g.switchTargets)
            multiNode = multiNode || t.rfind("fffffff", 0) == 0;
    const std::string key = presetKey(topo, catalog, requested, multiNode, notes);
    const auto it = catalog.scaleUpPresets.find(key);
    if (it == catalog.scaleUpPresets.end())
        throw std::invalid_argument("unknown scale-up preset '" + key
                                    + "' (known: " + catalogKeys(catalog.scaleUpPresets) + ")");
    ScaleUpPreset p = it->second;
    p.key = "nccl-topology";
    p.name = it->second.name + " (from an NCCL topology)";
    p.source = "NCCL topology XML; otherwise " + it->second.key;
    if (multiNode)
        notes.push_back("the file shows " + std::to_string(topo.gpus.size())
                        + " GPUs of a multi-node NVLink domain; the domain keeps the preset's "
                        + std::to_string(p.accelerators));
    else
        p.accelerators = int(topo.gpus.size());
    applyNvlinks(topo, multiNode, key, p, notes);
    applyNics(topo, catalog, key, p, notes);
    return p;
}

std::map<int, int> ncclRailOfHca(const NcclTopology &topo, int nicsPerAccelerator,
                                 std::vector<std::string> &notes)
{
    std::map<int, int> railOf;
    if (nicsPerAccelerator != 1) {
        notes.push_back("rails in HCA device order: the file pairs each GPU with one nearest NIC, "
                        "the server has "
                        + std::to_string(nicsPerAccelerator) + " per GPU");
        return {};
    }
    for (std::size_t g = 0; g < topo.gpus.size(); ++g) {
        const int k = topo.gpus[g].nearestNic;
        const std::string name = k < 0 ? std::string() : topo.nics[std::size_t(k)].name;
        // A device name ("mlx5_7"), not a slot address (class-only files name NICs by slot).
        const bool named = !name.empty() && std::isalpha(static_cast<unsigned char>(name[0]))
            && name.find(':') == std::string::npos;
        const int device = named ? hcaHostAndIndex("server " + name).second : -1;
        if (device < 0 || !railOf.emplace(device, int(g)).second) {
            notes.push_back("rails in HCA device order: GPU " + std::to_string(g) + " ("
                            + topo.gpus[g].busId + ") "
                            + (k < 0 ? std::string("has no RDMA NIC")
                                   : device < 0
                                   ? "pairs with NIC \"" + name + "\" (no device number)"
                                   : "pairs with " + name
                                       + ", a device number another "
                                         "GPU's nearest NIC has too"));
            return {};
        }
    }
    bool reordered = false;
    for (const auto &[device, rail] : railOf)
        reordered = reordered || device != rail;
    if (reordered) {
        std::string pairs;
        for (std::size_t g = 0; g < topo.gpus.size(); ++g)
            pairs += (g ? ", gpu" : "gpu") + std::to_string(g) + "-"
                + topo.nics[std::size_t(topo.gpus[g].nearestNic)].name;
        notes.push_back("rails follow the file's GPU-NIC pairing: " + pairs);
    }
    return railOf;
}

NcclServer addNcclServer(Catalog &catalog, std::string_view text, std::vector<std::string> &notes)
{
    const NcclTopology topo = parseNcclTopology(text);
    const ScaleUpPreset p = ncclServerPreset(topo, catalog, "auto", notes);
    catalog.scaleUpPresets[p.key] = p;
    return {p.key, ncclRailOfHca(topo, p.nicsPerAccelerator, notes)};
}

void useNcclServer(Catalog &catalog, std::string_view text, FabricImportOptions &options,
                   std::vector<std::string> &notes)
{
    NcclServer server = addNcclServer(catalog, text, notes);
    options.scaleUpPreset = server.presetKey;
    options.railOfHca = std::move(server.railOfHca);
}

FabricImportResult importNcclTopology(std::string_view text, const Catalog &catalog,
                                      const FabricImportOptions &options)
{
    FabricImportResult r;
    try {
        const NcclTopology topo = parseNcclTopology(text);
        const ScaleUpPreset preset
            = ncclServerPreset(topo, catalog, options.scaleUpPreset, r.findings);
        Catalog withServer = catalog;
        withServer.scaleUpPresets[preset.key] = preset;
        std::vector<std::vector<NodeId>> gpus;
        std::string error;
        std::optional<Design> d
            = serverDomains(withServer, preset.key, {options.name}, gpus, error);
        if (!d)
            throw std::invalid_argument(error);
        d->name = options.name;
        int rdma = 0, host = 0;
        for (const NcclNic &n : topo.nics)
            (n.gdr ? rdma : host)++;
        r.summary.push_back(std::to_string(topo.gpus.size()) + " GPUs on "
                            + std::to_string(topo.sockets) + " CPU socket(s), "
                            + std::to_string(rdma) + " RDMA NIC(s)"
                            + (host ? ", " + std::to_string(host) + " host NIC(s) left out" : ""));
        r.summary.push_back("server: " + std::to_string(preset.accelerators) + " x "
                            + preset.accelerator + ", " + std::to_string(preset.lanesPerAccelerator)
                            + (preset.scaleUpTech.rfind("infinity-fabric", 0) == 0
                                   ? " xGMI links per GPU, " // AMD Infinity Fabric (RCCL's <xgmi>)
                                   : " NVLinks per GPU, ")
                            + (preset.scaleUpSwitch.empty()
                                   ? std::string("no NVSwitch (direct links)")
                                   : std::to_string(preset.scaleUpSwitches) + " NVSwitch chips")
                            + ", " + std::to_string(preset.nicsPerAccelerator) + " x "
                            + gbps(preset.nicRate) + " NIC per GPU");
        std::string railLine = "rails:";
        for (std::size_t g = 0; g < topo.gpus.size(); ++g) {
            const NcclGpu &x = topo.gpus[g];
            railLine += " gpu" + std::to_string(g) + "->"
                + (x.nearestNic < 0 ? std::string("none")
                                    : topo.nics[std::size_t(x.nearestNic)].name + " " + x.distance);
            if (x.nearestNic >= 0 && (x.distance == "PHB" || x.distance == "SYS"))
                r.findings.push_back("GPU " + std::to_string(g) + " (" + x.busId
                                     + ") reaches its nearest RDMA NIC only through the CPU ("
                                     + x.distance + "): GPUDirect RDMA is slow or off there");
        }
        r.summary.push_back(railLine);
        r.design = std::move(d);
    } catch (const std::invalid_argument &e) {
        r.error = e.what();
        r.findings.clear();
    }
    return r;
}

} // namespace weft
