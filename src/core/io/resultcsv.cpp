#include "io/resultcsv.h"

#include "io/csv.h"
#include "io/resultjson.h"

namespace weft {

std::string resultSummaryCsv(const SimResult &r)
{
    const Breakdown &b = r.breakdown;
    std::string s = "ok,step_time_s,tokens_per_s,model_tflops_per_gpu,hardware_tflops_per_gpu,mfu,"
                    "hfu,compute_s,tp_exposed_s,cp_exposed_s,ep_exposed_s,pp_exposed_s,bubble_s,"
                    "dp_exposed_s,optimizer_s,peak_bytes_per_gpu,capacity_bytes_per_gpu,fits,"
                    "warnings,simulation_wall_s\n";
    s += r.ok ? "true" : "false";
    const auto dur = reportedDuration; // never a negative duration (io/resultjson.h)
    for (double v :
         {dur(r.stepTime), r.tokensPerSecond, r.modelTflopsPerGpu, r.hardwareTflopsPerGpu, r.mfu,
          r.hfu, dur(b.compute), dur(b.tpExposed), dur(b.cpExposed), dur(b.epExposed),
          dur(b.ppExposed), dur(b.bubble), dur(b.dpExposed), dur(b.optimizer), r.peakMemoryPerGpu,
          r.memoryCapacityPerGpu})
        s += "," + csvNumber(v);
    s += r.memoryFits ? ",true," : ",false,";
    s += std::to_string(r.warnings.size()) + "," + csvNumber(r.simulationWallSeconds) + "\n";
    return s;
}

std::string resultLinksCsv(const SimResult &r, const Design &design)
{
    std::string s = "id,from,to,from_name,to_name,tier,direction,capacity_bytes_per_s,bytes,busy_s,"
                    "avg_utilization,peak_utilization\n";
    auto name = [&](NodeId id) {
        const Node *n = design.node(id);
        return csvField(n ? n->name : std::string());
    };
    for (const LinkResult &l : r.links)
        for (int d = 0; d < 2; ++d) {
            const LinkDirResult &x = l.dir[d];
            if (x.bytes <= 0)
                continue;
            const NodeId from = d == 0 ? l.from : l.to, to = d == 0 ? l.to : l.from;
            s += std::to_string(l.id.value) + "," + std::to_string(from.value) + ","
                + std::to_string(to.value) + "," + name(from) + "," + name(to) + ","
                + csvField(l.tier) + "," + (d == 0 ? "forward" : "reverse") + ","
                + csvNumber(l.capacity) + "," + csvNumber(x.bytes) + "," + csvNumber(x.busyTime)
                + "," + csvNumber(x.avgUtilization) + "," + csvNumber(x.peakUtilization) + "\n";
        }
    return s;
}

} // namespace weft
