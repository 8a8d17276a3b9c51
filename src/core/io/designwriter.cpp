// serializeDesign(): the writer half of io/designfile.h.
#include "io/designfile.h"
#include "io/designkeys.h"
#include "io/extensionstore.h"
#include "io/hardwarejson.h"

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

ojson groupJson(const Group &g)
{
    ojson j;
    j["id"] = g.id.value;
    j["kind"] = toString(g.kind);
    j["name"] = g.name;
    j["preset"] = g.preset;
    if (g.parent.valid())
        j["parent"] = g.parent.value;
    j["collapsed"] = g.collapsed;
    ojson members = ojson::array();
    for (const NodeId m : g.members)
        members.push_back(m.value);
    j["members"] = std::move(members);
    return j;
}

ojson nodeJson(const Node &n)
{
    ojson j;
    j["id"] = n.id.value;
    j["kind"] = toString(n.kind);
    j["name"] = n.name;
    j["spec"] = n.spec;
    if (n.isSwitch())
        j["role"] = toString(n.role);
    if (n.rail >= 0)
        j["rail"] = n.rail;
    if (n.plane != 0)
        j["plane"] = n.plane;
    j["x"] = n.x;
    j["y"] = n.y;
    return j;
}

ojson linkJson(const Link &l)
{
    ojson j;
    j["id"] = l.id.value;
    j["a"] = l.a.value;
    j["b"] = l.b.value;
    j["tech"] = l.tech;
    j["rate_gbps"] = fileNumber(bytesPerSecondToGbps(l.rate));
    j["lanes"] = l.lanes;
    j["latency_ns"] = fileNumber(l.latency * 1e9);
    return j;
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

// One element per line: "[\n    {...},\n    {...}\n  ]".
template<class T, class ToJson>
std::string objectLines(const std::vector<T> &items, ToJson toJsonFn, const ExtensionStore &ext,
                        const std::string &prefix)
{
    if (items.empty())
        return "[]";
    const bool withExt = ext.hasPrefix(prefix);
    std::string out = "[\n";
    out.reserve(items.size() * 96);
    for (std::size_t i = 0; i < items.size(); ++i) {
        ojson j = toJsonFn(items[i]);
        if (withExt)
            ext.attach(prefix + std::to_string(items[i].id.value), j);
        out += "    ";
        out += dump(j);
        out += i + 1 < items.size() ? ",\n" : "\n";
    }
    return out + "  ]";
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

    std::vector<std::pair<const char *, std::string>> members;
    members.emplace_back("format", dump(designkeys::kFormat));
    members.emplace_back("version", std::to_string(kDesignFormatVersion));
    members.emplace_back("generator", dumpAt(generator, 1));
    members.emplace_back("design", section(designkeys::kDesign, std::move(info)));
    if (d.generator)
        members.emplace_back("fabric_generator",
                             section(designkeys::kFabricGenerator, fabricJson(*d.generator)));
    members.emplace_back("view", section(designkeys::kView, std::move(view)));
    members.emplace_back("hardware", dumpAt(hardwareJson(d.hardware, ext), 1));
    members.emplace_back("groups", objectLines(d.groups(), groupJson, ext, designkeys::kGroupPrefix));
    members.emplace_back("nodes", objectLines(d.nodes(), nodeJson, ext, designkeys::kNodePrefix));
    members.emplace_back("links", objectLines(d.links(), linkJson, ext, designkeys::kLinkPrefix));
    members.emplace_back("extensions", dumpAt(fileExt ? ojson(*fileExt) : ojson::object(), 1));

    std::string out = "{\n";
    for (std::size_t i = 0; i < members.size(); ++i) {
        out += "  \"";
        out += members[i].first;
        out += "\": ";
        out += members[i].second;
        out += i + 1 < members.size() ? ",\n" : "\n";
    }
    return out + "}\n";
}

} // namespace weft
