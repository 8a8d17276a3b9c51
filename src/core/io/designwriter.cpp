// serializeDesign(): the writer half of io/designfile.h.
#include "io/designfile.h"
#include "io/designkeys.h"
#include "io/extensionstore.h"
#include "io/faultjson.h"
#include "io/hardwarejson.h"
#include "io/workloadjson.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace weft {

namespace {

using ojson = nlohmann::ordered_json;

std::string dump(const ojson &j, int indent = -1)
{
    return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

// A nested pretty dump placed at `level` two-space steps of indentation.
std::string dumpAt(const ojson &j, int level)
{
    std::string s = dump(j, 2);
    const std::string pad = "\n" + std::string(static_cast<std::size_t>(2 * level), ' ');
    std::string out;
    out.reserve(s.size() + s.size() / 8);
    for (char c : s) {
        if (c == '\n')
            out += pad;
        else
            out += c;
    }
    return out;
}

// Writes one compact JSON object straight into a string: the per-line objects (groups, nodes,
// links) are most of a large file, and building an nlohmann value for each is several times
// slower. Output matches nlohmann's compact dump (numbers: shortest round-trip form, ".0" on
// whole doubles; non-finite doubles as null).
class ObjectLine
{
public:
    explicit ObjectLine(std::string &out)
        : m_out(out)
    {
    }
    ObjectLine &integer(const char *key, long long v)
    {
        this->key(key);
        char buf[24];
        m_out.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
        return *this;
    }
    ObjectLine &real(const char *key, double v)
    {
        this->key(key);
        if (!std::isfinite(v)) {
            m_out += "null";
            return *this;
        }
        char buf[40];
        char *end = std::to_chars(buf, buf + sizeof buf, v).ptr;
        m_out.append(buf, end);
        if (std::find_if(buf, end, [](char c) { return c == '.' || c == 'e'; }) == end)
            m_out += ".0";
        return *this;
    }
    ObjectLine &string(const char *key, const std::string &v)
    {
        this->key(key);
        const bool plain = std::all_of(v.begin(), v.end(), [](char c) {
            return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
        });
        if (plain) {
            m_out += '"';
            m_out += v;
            m_out += '"';
        } else {
            m_out += dump(ojson(v));
        }
        return *this;
    }
    ObjectLine &boolean(const char *key, bool v)
    {
        this->key(key);
        m_out += v ? "true" : "false";
        return *this;
    }
    ObjectLine &ids(const char *key, const std::vector<NodeId> &v)
    {
        this->key(key);
        m_out += '[';
        char buf[16];
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (i)
                m_out += ',';
            m_out.append(buf, std::to_chars(buf, buf + sizeof buf, v[i].value).ptr);
        }
        m_out += ']';
        return *this;
    }
    ObjectLine &extensions(const nlohmann::json *ext)
    {
        if (ext) {
            key("extensions");
            m_out += dump(ojson(*ext));
        }
        return *this;
    }
    void close() { m_out += m_first ? "{}" : "}"; }

private:
    void key(const char *k)
    {
        m_out += m_first ? "{\"" : ",\"";
        m_first = false;
        m_out += k;
        m_out += "\":";
    }
    std::string &m_out;
    bool m_first = true;
};

void writeGroup(ObjectLine &o, const Group &g)
{
    o.integer("id", g.id.value).string("kind", toString(g.kind)).string("name", g.name);
    o.string("preset", g.preset);
    if (g.parent.valid())
        o.integer("parent", g.parent.value);
    o.boolean("collapsed", g.collapsed).ids("members", g.members);
}

void writeNode(ObjectLine &o, const Node &n)
{
    o.integer("id", n.id.value).string("kind", toString(n.kind)).string("name", n.name);
    o.string("spec", n.spec);
    if (n.isSwitch())
        o.string("role", toString(n.role));
    if (n.rail >= 0)
        o.integer("rail", n.rail);
    if (n.plane != 0)
        o.integer("plane", n.plane);
    o.real("x", n.x).real("y", n.y);
}

void writeLink(ObjectLine &o, const Link &l)
{
    o.integer("id", l.id.value).integer("a", l.a.value).integer("b", l.b.value);
    o.string("tech", l.tech).real("rate_gbps", fileNumber(bytesPerSecondToGbps(l.rate)));
    o.integer("lanes", l.lanes).real("latency_ns", fileNumber(l.latency * 1e9));
}

ojson fabricJson(const FabricParams &p)
{
    ojson j;
    j["scale_up_preset"] = p.scaleUpPreset;
    j["domains"] = p.domains;
    j["fabric"] = toString(p.fabric);
    j["tiers"] = p.tiers;
    j["switch"] = p.switchModel;
    j["nic_gbps"] = fileNumber(bytesPerSecondToGbps(p.nicRate));
    j["oversubscription"] = p.oversubscription;
    j["planes"] = p.planes;
    j["su_size"] = p.suSize;
    return j;
}

ojson hardwareJson(const HardwareTable &t, const ExtensionStore &ext)
{
    ojson j = toJson(t);
    ext.attach(designkeys::kHardware, j);
    for (const auto &[member, prefix] : designkeys::specLocators())
        for (ojson &spec : j[member])
            ext.attach(prefix + spec["key"].get<std::string>(), spec);
    return j;
}

// Appends `items` one per line: "[\n    {...},\n    {...}\n  ]".
template<class T, class WriteFn>
void appendLines(std::string &out, const std::vector<T> &items, WriteFn write,
                 const ExtensionStore &ext, const std::string &prefix)
{
    if (items.empty()) {
        out += "[]";
        return;
    }
    const bool withExt = ext.hasPrefix(prefix);
    out += "[\n";
    for (std::size_t i = 0; i < items.size(); ++i) {
        out += "    ";
        ObjectLine line(out);
        write(line, items[i]);
        if (withExt)
            line.extensions(ext.find(prefix + std::to_string(items[i].id.value)));
        line.close();
        out += i + 1 < items.size() ? ",\n" : "\n";
    }
    out += "  ]";
}

} // namespace

std::string serializeDesign(const Design &d)
{
    const ExtensionStore ext = ExtensionStore::fromText(d.extensions);
    const auto section = [&ext](const char *locator, ojson j) {
        ext.attach(locator, j);
        return dumpAt(j, 1);
    };
    ojson generator;
    generator["name"] = "weft";
    generator["version"] = WEFT_VERSION;
    ojson info;
    info["name"] = d.name;
    info["description"] = d.description;
    ojson view;
    view["zoom"] = d.view.zoom;
    view["center_x"] = d.view.centerX;
    view["center_y"] = d.view.centerY;
    const nlohmann::json *fileExt = ext.find(designkeys::kFile);

    // Appended in place: a large design's text is tens of MB, so no intermediate copies.
    std::string out;
    out.reserve(4096 + 100 * d.nodes().size() + 112 * d.links().size() + 64 * d.groups().size());
    const auto member = [&out](const char *key, bool first = false) {
        out += first ? "{\n  \"" : ",\n  \"";
        out += key;
        out += "\": ";
    };
    member("format", true);
    out += dump(designkeys::kFormat);
    member("version");
    out += std::to_string(kDesignFormatVersion);
    member("generator");
    out += dumpAt(generator, 1);
    member("design");
    out += section(designkeys::kDesign, std::move(info));
    if (d.generator) {
        member("fabric_generator");
        out += section(designkeys::kFabricGenerator, fabricJson(*d.generator));
    }
    if (d.workload) {
        member("workload");
        out += dumpAt(toJson(*d.workload), 1);
    }
    member("view");
    out += section(designkeys::kView, std::move(view));
    member("hardware");
    out += dumpAt(hardwareJson(d.hardware, ext), 1);
    member("groups");
    appendLines(out, d.groups(), writeGroup, ext, designkeys::kGroupPrefix);
    member("nodes");
    appendLines(out, d.nodes(), writeNode, ext, designkeys::kNodePrefix);
    member("links");
    appendLines(out, d.links(), writeLink, ext, designkeys::kLinkPrefix);
    if (!d.scenario.empty()) { // written only when there are faults: older files stay as they were
        member("faults");
        out += dumpAt(faultsToJson(d), 1);
    }
    member("extensions");
    out += dumpAt(fileExt ? ojson(*fileExt) : ojson::object(), 1);
    out += "\n}\n";
    return out;
}

} // namespace weft
