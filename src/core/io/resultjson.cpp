#include "io/resultjson.h"

#include <algorithm>
#include <unordered_set>

namespace weft {

namespace {

nlohmann::ordered_json findingJson(const Finding &f)
{
    return {{"code", f.code},
            {"severity", toString(f.severity)},
            {"message", f.message},
            {"subjects", f.subjects}};
}

std::string nodeName(const Design &d, NodeId id)
{
    const Node *n = d.node(id);
    return n ? n->name : std::string();
}

const char *kindName(TimelineOp::Kind k)
{
    switch (k) {
    case TimelineOp::Kind::Forward:
        return "forward";
    case TimelineOp::Kind::Backward:
        return "backward";
    case TimelineOp::Kind::DpComm:
        return "dp";
    case TimelineOp::Kind::Optimizer:
        return "optimizer";
    }
    return "?";
}

bool carried(const LinkResult &l)
{
    return l.dir[0].bytes > 0 || l.dir[1].bytes > 0;
}

double busiest(const LinkResult &l)
{
    return std::max(l.dir[0].avgUtilization, l.dir[1].avgUtilization);
}

// The links to list: those `o` asks for, in id order, or the busiest first when capped.
std::vector<const LinkResult *> listedLinks(const SimResult &r, const ResultJsonOptions &o)
{
    std::vector<const LinkResult *> out;
    for (const LinkResult &l : r.links)
        if (o.idleLinks || carried(l))
            out.push_back(&l);
    if (o.maxLinks >= 0 && static_cast<long long>(out.size()) > o.maxLinks) {
        const auto n = static_cast<std::ptrdiff_t>(o.maxLinks);
        std::partial_sort(out.begin(), out.begin() + n, out.end(),
                          [](const LinkResult *a, const LinkResult *b) {
                              const double ua = busiest(*a), ub = busiest(*b);
                              return ua != ub ? ua > ub : a->id.value < b->id.value;
                          });
        out.resize(static_cast<std::size_t>(n));
    }
    return out;
}

} // namespace

long long defaultMaxLinks(const SimResult &r)
{
    const auto n = std::count_if(r.links.begin(), r.links.end(), carried);
    return n <= kAllLinksUpTo ? -1 : kBusiestLinks;
}

nlohmann::ordered_json toJson(const SimResult &r, const Design &design, const ResultJsonOptions &o)
{
    nlohmann::ordered_json j;
    j["schema"] = "weft-simulation-result";
    j["version"] = 1;
    j["ok"] = r.ok;
    const auto dur = reportedDuration;
    j["step_time_s"] = dur(r.stepTime);
    j["tokens_per_s"] = r.tokensPerSecond;
    j["model_tflops_per_gpu"] = r.modelTflopsPerGpu;
    j["hardware_tflops_per_gpu"] = r.hardwareTflopsPerGpu;
    j["mfu"] = r.mfu;
    j["hfu"] = r.hfu;
    const Breakdown &b = r.breakdown;
    j["breakdown"] = {{"compute_s", dur(b.compute)},      {"tp_exposed_s", dur(b.tpExposed)},
                      {"cp_exposed_s", dur(b.cpExposed)}, {"ep_exposed_s", dur(b.epExposed)},
                      {"pp_exposed_s", dur(b.ppExposed)}, {"bubble_s", dur(b.bubble)},
                      {"dp_exposed_s", dur(b.dpExposed)}, {"optimizer_s", dur(b.optimizer)},
                      {"host_bound_s", dur(b.hostBound)}};
    j["memory"] = {{"peak_bytes_per_gpu", r.peakMemoryPerGpu},
                   {"capacity_bytes_per_gpu", r.memoryCapacityPerGpu},
                   {"fits", r.memoryFits}};
    nlohmann::ordered_json links = nlohmann::ordered_json::array();
    const std::vector<const LinkResult *> listed = listedLinks(r, o);
    const auto total = std::count_if(r.links.begin(), r.links.end(), [&o](const LinkResult &l) {
        return o.idleLinks || carried(l);
    });
    j["links_total"] = total;
    j["links_omitted"] = total - static_cast<std::ptrdiff_t>(listed.size());
    for (const LinkResult *lp : listed) {
        const LinkResult &l = *lp;
        nlohmann::ordered_json lj {{"id", l.id.value},
                                   {"from", l.from.value},
                                   {"to", l.to.value},
                                   {"from_name", nodeName(design, l.from)},
                                   {"to_name", nodeName(design, l.to)},
                                   {"tier", l.tier},
                                   {"capacity_bytes_per_s", l.capacity}};
        const char *names[2] = {"forward", "reverse"};
        for (int d = 0; d < 2; ++d) {
            const LinkDirResult &x = l.dir[d];
            nlohmann::ordered_json dj {{"bytes", x.bytes},
                                       {"busy_s", dur(x.busyTime)},
                                       {"avg_utilization", x.avgUtilization},
                                       {"peak_utilization", x.peakUtilization}};
            if (o.series)
                dj["utilization_series"] = x.series;
            lj[names[d]] = dj;
        }
        links.push_back(std::move(lj));
    }
    j["links"] = std::move(links);
    // With --links capped, a group names only the links listed above (link_count: all).
    const bool capped = o.maxLinks >= 0;
    std::unordered_set<std::uint32_t> shown;
    if (capped)
        for (const LinkResult *l : listed)
            shown.insert(l->id.value);
    nlohmann::ordered_json warnings = nlohmann::ordered_json::array();
    for (const Finding &f : r.warnings)
        warnings.push_back(findingJson(f));
    j["warnings"] = std::move(warnings);
    nlohmann::ordered_json groups = nlohmann::ordered_json::array();
    for (const GroupTraffic &g : r.groups) {
        if (g.links.empty())
            continue;
        nlohmann::ordered_json m = nlohmann::ordered_json::array(),
                               ls = nlohmann::ordered_json::array();
        for (NodeId id : g.members)
            m.push_back(id.value);
        for (LinkId id : g.links)
            if (!capped || shown.count(id.value))
                ls.push_back(id.value);
        groups.push_back({{"kind", g.kind},
                          {"index", g.index},
                          {"members", m},
                          {"links", ls},
                          {"link_count", g.links.size()}});
    }
    j["groups"] = std::move(groups);
    nlohmann::ordered_json accs = nlohmann::ordered_json::array();
    for (const AcceleratorResult &a : r.accelerators) {
        nlohmann::ordered_json aj {{"node", a.node.value},
                                   {"rank", a.rank},
                                   {"stage", a.stage},
                                   {"timeline", a.timeline},
                                   {"memory",
                                    {{"weights_bytes", a.memory.weights},
                                     {"gradients_bytes", a.memory.gradients},
                                     {"optimizer_bytes", a.memory.optimizer},
                                     {"activations_bytes", a.memory.activations},
                                     {"runtime_bytes", a.memory.runtime},
                                     {"nccl_buffers_bytes", a.memory.commBuffers},
                                     {"fragmentation_bytes", a.memory.fragmentation},
                                     {"total_bytes", a.memory.total()},
                                     {"capacity_bytes", a.memory.capacity}}}};
        accs.push_back(std::move(aj));
    }
    j["accelerators"] = std::move(accs);
    if (o.timelines) {
        nlohmann::ordered_json tls = nlohmann::ordered_json::array();
        for (const auto &tl : r.timelines) {
            nlohmann::ordered_json ops = nlohmann::ordered_json::array();
            for (const TimelineOp &op : tl)
                ops.push_back({{"kind", kindName(op.kind)},
                               {"micro_batch", op.microBatch},
                               {"chunk", op.chunk},
                               {"start_s", op.start},
                               {"compute_end_s", op.computeEnd},
                               {"end_s", op.end}});
            tls.push_back(std::move(ops));
        }
        j["timelines"] = std::move(tls);
    }
    j["events"] = r.events;
    j["simulation_wall_s"] = r.simulationWallSeconds;
    return j;
}

} // namespace weft
