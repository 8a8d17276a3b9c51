// parseDesign(): the reader half of io/designfile.h.
#include "io/catalogfile.h"
#include "io/designfile.h"
#include "io/designkeys.h"
#include "io/extensionstore.h"
#include "io/faultjson.h"
#include "io/hardwarejson.h"
#include "io/jsonreader.h"
#include "io/jsontext.h"
#include "io/migrations.h"
#include "io/workloadjson.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <vector>

namespace weft {

namespace {

using designkeys::kFormat;
constexpr long long kMaxId = Id<NodeTag>::kInvalid - 1;

// Whole-file problems found before the JSON is read.
std::optional<std::string> checkText(std::string_view text)
{
    if (text.size() > kMaxDesignFileBytes)
        return "the file is " + std::to_string(text.size() >> 20) + " MiB, above the limit of "
            + std::to_string(kMaxDesignFileBytes >> 20) + " MiB for a design";
    if (std::all_of(text.begin(), text.end(),
                    [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }))
        return std::string("the file is empty");
    if (const auto nul = text.find('\0'); nul != std::string_view::npos)
        return "this is binary data, not a Weft design (a zero byte at offset "
            + std::to_string(nul) + ")";
    return std::nullopt;
}

nlohmann::json parseJson(std::string_view text)
{
    return parseJsonText(text, kMaxJsonValues, "a design"); // io/jsontext.h
}

template<class E> E readEnum(const JsonReader &r, const char *key, const char *choices)
{
    const std::string s = r.string(key);
    E out {};
    if (!fromString(s, out))
        r.fail(key,
               "unknown " + std::string(key) + " \"" + s + "\" (expected one of: " + choices + ")");
    return out;
}

// A short description of `v` for a message: numbers and short strings as written.
std::string describeValue(const nlohmann::json &v)
{
    if (v.is_number() || (v.is_string() && v.get_ref<const std::string &>().size() <= 40))
        return jsonTypeName(v) + std::string(" (") + v.dump() + ")";
    return jsonTypeName(v);
}

std::uint32_t readId(const JsonReader &r, const char *key)
{
    return static_cast<std::uint32_t>(r.integer(key, 0, kMaxId));
}

// Array member `key` of `r` (optional when `required` is false), at most `limit` elements.
std::optional<JsonReader> readArray(const JsonReader &r, const char *key, std::size_t limit,
                                    const char *what, bool required = true)
{
    std::optional<JsonReader> arr = required ? std::optional(r.array(key)) : r.optional(key);
    if (arr && arr->size() > limit)
        arr->fail(std::to_string(arr->size()) + " " + what + " is above the limit of "
                  + std::to_string(limit) + " for a design");
    return arr;
}

class Reader
{
public:
    Reader(const nlohmann::json &doc, Design &d)
        : m_root(doc, "")
        , m_d(d)
    {
    }

    void read()
    {
        m_ext.collect(designkeys::kFile, m_root.raw(), designkeys::kTopKeys);
        if (const auto info = m_root.optional("design")) {
            m_d.name = info->string("name", "");
            m_d.description = info->string("description", "");
            m_ext.collect(designkeys::kDesign, info->raw(), designkeys::kDesignKeys);
        }
        if (const auto view = m_root.optional("view")) {
            m_d.view.zoom = view->positive("zoom");
            m_d.view.centerX = view->number("center_x", 0);
            m_d.view.centerY = view->number("center_y", 0);
            m_ext.collect(designkeys::kView, view->raw(), designkeys::kViewKeys);
        }
        if (const auto gen = m_root.optional("fabric_generator")) {
            m_d.generator = readFabric(*gen);
            m_ext.collect(designkeys::kFabricGenerator, gen->raw(), designkeys::kFabricKeys);
        }
        if (const auto wl = m_root.optional("workload"))
            m_d.workload = workloadFromJson(*wl); // io/workloadjson.h
        readHardware(m_root.object("hardware"));
        const auto groups = readArray(m_root, "groups", kMaxGroups, "groups", false);
        const auto nodes = readArray(m_root, "nodes", kMaxNodes, "nodes");
        const auto links = readArray(m_root, "links", kMaxLinks, "links");
        m_d.reserve(nodes->size(), links->size(), groups ? groups->size() : 0);
        if (groups)
            for (std::size_t i = 0; i < groups->size(); ++i)
                readGroup(groups->at(i));
        for (std::size_t i = 0; i < nodes->size(); ++i)
            readNode(nodes->at(i));
        if (groups)
            resolveGroups(*groups);
        for (std::size_t i = 0; i < links->size(); ++i)
            readLink(links->at(i));
        embedCatalogSpecs();
        if (const auto faults = m_root.optional("faults")) // absent in files before what-if
            m_d.scenario = faultsFromJson(*faults, m_d); // io/faultjson.h
        m_d.extensions = m_ext.toText();
    }

private:
    static FabricParams readFabric(const JsonReader &r)
    {
        FabricParams p;
        p.scaleUpPreset = r.string("scale_up_preset");
        p.domains = static_cast<int>(r.integer("domains", 1, static_cast<long long>(kMaxNodes)));
        p.fabric = readEnum<FabricKind>(r, "fabric", "rail-optimized, fat-tree, none");
        p.tiers = static_cast<int>(r.integer("tiers", 2, 3));
        p.switchModel = r.string("switch");
        p.nicRate = gbpsToBytesPerSecond(r.positive("nic_gbps", kMaxRateGbps, "Gb/s"));
        p.oversubscription = r.number("oversubscription", 1.0);
        if (p.oversubscription < 1 || p.oversubscription > 1024)
            r.fail("oversubscription", "must be between 1 and 1024 (downlink:uplink ratio)");
        p.planes = static_cast<int>(r.integer("planes", 1, 64, 1));
        p.suSize = static_cast<int>(r.integer("su_size", 0, 65536, p.suSize));
        return p;
    }

    void readHardware(const JsonReader &hw)
    {
        m_d.hardware = hardwareFromJson(hw);
        m_ext.collect(designkeys::kHardware, hw.raw(), designkeys::kHardwareKeys);
        // Unknown members of each spec: its known members are what the writer emits for it.
        for (const auto &[member, prefix] : designkeys::specLocators()) {
            const auto arr = hw.optional(member);
            if (!arr)
                continue;
            for (std::size_t i = 0; i < arr->size(); ++i) {
                const nlohmann::json &raw = arr->at(i).raw();
                const std::string key = raw.at("key").get<std::string>();
                const nlohmann::ordered_json written = writtenSpec(member, key);
                m_ext.collectUnwritten(prefix + key, raw, written);
            }
        }
    }

    /// Models that the nodes and links name but the file's "hardware" section lacks are taken
    /// from the built-in catalog (a hand-edited "spec": "qm8700" was refused as "not in the
    /// design's hardware table" though the catalog has it); the design embeds them from now on.
    void embedCatalogSpecs()
    {
        const HardwareTable &catalog = builtinCatalog().hardware;
        HardwareTable &hw = m_d.hardware;
        for (const Node &n : m_d.nodes()) {
            if (n.isSwitch()) {
                if (const auto it = catalog.switches.find(n.spec); it != catalog.switches.end())
                    hw.switches.try_emplace(n.spec, it->second);
                continue;
            }
            if (hw.accelerators.count(n.spec))
                continue;
            const auto base = catalog.accelerators.find(n.spec.substr(0, n.spec.find('@')));
            AcceleratorSpec spec;
            std::string error;
            if (base != catalog.accelerators.end()
                && applyVariants(base->second, n.spec, spec, error))
                hw.accelerators.emplace(n.spec, std::move(spec));
        }
        for (const Link &l : m_d.links())
            if (const auto it = catalog.linkTechs.find(l.tech); it != catalog.linkTechs.end())
                hw.linkTechs.try_emplace(l.tech, it->second);
    }

    nlohmann::ordered_json writtenSpec(const std::string &member, const std::string &key) const
    {
        const HardwareTable &t = m_d.hardware;
        if (member == "accelerators")
            return toJson(t.accelerators.at(key));
        if (member == "switches")
            return toJson(t.switches.at(key));
        return toJson(t.linkTechs.at(key));
    }

    void readGroup(const JsonReader &r)
    {
        Group g;
        g.id = GroupId(readId(r, "id"));
        g.kind = readEnum<GroupKind>(r, "kind", "scale-up-domain, rack, scalable-unit, pod");
        g.name = r.string("name", "");
        g.preset = r.string("preset", "");
        if (r.has("parent"))
            g.parent = GroupId(readId(r, "parent"));
        g.collapsed = r.boolean("collapsed", true);
        if (const auto members = r.optional("members")) {
            g.members.reserve(members->size());
            for (std::size_t k = 0; k < members->size(); ++k) {
                const auto &v = members->at(k).raw();
                if (!v.is_number_unsigned() || v.get<unsigned long long>() > kMaxId)
                    members->at(k).fail("group " + std::to_string(g.id.value)
                                        + (g.name.empty() ? "" : " (\"" + g.name + "\")")
                                        + ", member " + std::to_string(k)
                                        + ": expected a node id (an integer from 0 to "
                                        + std::to_string(kMaxId) + "), found " + describeValue(v));
                g.members.push_back(NodeId(v.get<std::uint32_t>()));
            }
        }
        if (const Group *other = m_d.group(g.id))
            r.fail("id",
                   "duplicate group id " + std::to_string(g.id.value) + " (also at /groups/"
                       + std::to_string(other - m_d.groups().data()) + ")");
        m_ext.collect(designkeys::kGroupPrefix + std::to_string(g.id.value), r.raw(),
                      designkeys::kGroupKeys);
        m_d.addGroup(std::move(g));
    }

    void readNode(const JsonReader &r)
    {
        Node n;
        n.id = NodeId(readId(r, "id"));
        n.kind = readEnum<NodeKind>(r, "kind", "accelerator, switch");
        n.name = r.string("name", "");
        n.spec = r.string("spec");
        if (n.isSwitch())
            n.role = readEnum<SwitchRole>(r, "role", "scale-up, leaf, spine, core");
        n.rail = static_cast<int>(r.integer("rail", -1, 65535, -1));
        n.plane = static_cast<int>(r.integer("plane", 0, 1023, 0));
        // Canvas coordinates within a bound, as rates have one: a node at 1e308 opened and
        // left the canvas at a zoom where nothing showed.
        for (const auto &[key, target] : {std::pair {"x", &n.x}, std::pair {"y", &n.y}}) {
            *target = r.number(key, 0);
            if (std::abs(*target) > kMaxCoordinate) {
                std::ostringstream found;
                found << *target;
                r.fail(key,
                       "a canvas coordinate within +/-1e8 is expected (found " + found.str() + ")");
            }
        }
        if (const Node *other = m_d.node(n.id))
            r.fail("id",
                   "duplicate node id " + std::to_string(n.id.value) + " (also at /nodes/"
                       + std::to_string(other - m_d.nodes().data()) + ")");
        m_ext.collect(designkeys::kNodePrefix + std::to_string(n.id.value), r.raw(),
                      designkeys::kNodeKeys);
        m_d.addNode(std::move(n));
    }

    // Every member must be a node, in one group only; parents must exist.
    void resolveGroups(const JsonReader &groups)
    {
        for (std::size_t i = 0; i < groups.size(); ++i) {
            const Group &g = m_d.groups()[i];
            const JsonReader r = groups.at(i);
            if (g.parent.valid() && !m_d.group(g.parent))
                r.fail("parent", "group " + std::to_string(g.parent.value) + " does not exist");
            for (std::size_t k = 0; k < g.members.size(); ++k) {
                Node *n = m_d.node(g.members[k]);
                const std::string where = r.childPath("members") + "/" + std::to_string(k);
                if (!n)
                    throw JsonFieldError(
                        where, "node " + std::to_string(g.members[k].value) + " does not exist");
                if (n->group.valid())
                    throw JsonFieldError(where,
                                         "node " + std::to_string(n->id.value)
                                             + " is already a member of group "
                                             + std::to_string(n->group.value));
                n->group = g.id;
            }
        }
    }

    void readLink(const JsonReader &r)
    {
        Link l;
        l.id = LinkId(readId(r, "id"));
        l.a = NodeId(readId(r, "a"));
        l.b = NodeId(readId(r, "b"));
        for (const auto &[end, id] : {std::pair {"a", l.a}, std::pair {"b", l.b}})
            if (!m_d.node(id))
                r.fail(end, "node " + std::to_string(id.value) + " does not exist");
        l.tech = r.string("tech");
        l.rate = gbpsToBytesPerSecond(r.positive("rate_gbps", kMaxRateGbps, "Gb/s"));
        l.lanes = static_cast<int>(r.integer("lanes", 1, kMaxLanes, 1));
        l.latency = r.nonNegative("latency_ns", 0) * 1e-9;
        if (const Link *other = m_d.link(l.id))
            r.fail("id",
                   "duplicate link id " + std::to_string(l.id.value) + " (also at /links/"
                       + std::to_string(other - m_d.links().data()) + ")");
        m_ext.collect(designkeys::kLinkPrefix + std::to_string(l.id.value), r.raw(),
                      designkeys::kLinkKeys);
        m_d.addLink(std::move(l));
    }

    JsonReader m_root;
    Design &m_d;
    ExtensionStore m_ext;
};

/// Whether dotted version `a` ("0.10.2") is newer than `b`; a part that is not a number
/// counts as 0.
bool versionIsNewer(const std::string &a, const std::string &b)
{
    const auto parts = [](const std::string &v) {
        std::vector<long> out;
        std::size_t i = 0;
        while (i <= v.size()) {
            const std::size_t dot = std::min(v.find('.', i), v.size());
            out.push_back(std::strtol(v.substr(i, dot - i).c_str(), nullptr, 10));
            i = dot + 1;
        }
        return out;
    };
    const std::vector<long> pa = parts(a), pb = parts(b);
    return std::lexicographical_compare(pb.begin(), pb.end(), pa.begin(), pa.end());
}

// Checks format and version; returns the version.
int readHeader(const JsonReader &root)
{
    if (!root.raw().is_object())
        root.fail(std::string("expected a JSON object at the top level, found ")
                  + jsonTypeName(root.raw()));
    if (!root.has("format"))
        root.fail("format", "not a Weft design file (the \"format\" member is missing)");
    if (const std::string format = root.string("format"); format != kFormat)
        root.fail("format",
                  "not a Weft design file (format is \"" + format + "\", expected \"" + kFormat
                      + "\")");
    const long long version = root.integer("version", 0, 1'000'000'000);
    if (version > kDesignFormatVersion) {
        std::string name, writer;
        if (const auto gen = root.optional("generator"); gen && gen->raw().is_object()) {
            name = gen->string("name", "?");
            writer = gen->string("version", "?");
        }
        const std::string newer = "design format version " + std::to_string(version)
            + " is newer than this Weft (" WEFT_VERSION ") reads (up to version "
            + std::to_string(kDesignFormatVersion) + ")";
        // A file that names this Weft, or an older one, as its writer cannot be of a newer
        // format: saying "written by Weft 0.1.0 ... open it with a newer Weft" to Weft 0.1.0
        // contradicted itself.
        if (name == "weft" && !versionIsNewer(writer, WEFT_VERSION))
            root.fail("version",
                      newer + ", but the file names Weft " + writer
                          + " as its writer, which writes at most version "
                          + std::to_string(kDesignFormatVersion)
                          + ": the version was probably edited; set it to "
                          + std::to_string(kDesignFormatVersion));
        root.fail(
            "version",
            newer + (name.empty() ? std::string() : "; it was written by " + name + " " + writer)
                + ": open it with a newer Weft");
    }
    return static_cast<int>(version);
}

} // namespace

ParseResult parseDesign(std::string_view text, const std::string &sourceName)
{
    ParseResult res;
    const auto fail = [&](std::string path, std::string message) {
        if (res.migrated() && !path.empty())
            message += " (in the file as upgraded from version " + std::to_string(res.fileVersion)
                + ")";
        res.design.reset();
        res.error = FileError {sourceName, std::move(path), std::move(message)};
        return std::move(res);
    };
    if (auto problem = checkText(text))
        return fail("", std::move(*problem));
    try {
        nlohmann::json doc = parseJson(text);
        res.fileVersion = readHeader(JsonReader(doc, ""));
        if (res.fileVersion < kDesignFormatVersion)
            res.migrations = upgradeDesign(doc, res.fileVersion);
        res.design.emplace();
        Reader(doc, *res.design).read();
        return res;
    } catch (const JsonFieldError &e) {
        return fail(e.path(), e.what());
    } catch (const std::bad_alloc &) {
        return fail("", "not enough memory to read the design");
    } catch (const std::exception &e) {
        return fail("", std::string("could not read the design: ") + e.what());
    }
}

} // namespace weft
