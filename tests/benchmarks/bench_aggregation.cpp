// Symmetry aggregation of all-to-all flows (flowclasses.h, issue 14): wall time, CPU time, peak
// memory, events and solver units of one all-to-all alone on a generated fabric, aggregated and
// flow by flow (NetworkOptions::aggregate), with the completion time of both (equal to rounding).
//
//   bench_aggregation                 every case, both modes, one process each (peak memory)
//   bench_aggregation CASE MODE       one case ("a2a-512-h100", "a2a-256-gb200") in one mode
//                                     ("aggregated" or "per-flow")
//
// Cases: 1 GiB all-to-all over 512 H100 (64 DGX H100, rail-optimized, 2 tiers, as `weft-cli
// generate --scaleup dgx-h100 --domains 64`) and over 256 GB200 of 4 NVL72 racks (fat tree).
#include "../support/processusage.h"
#include "../support/testcluster.h"
#include "sim/collectives.h"
#include "sim/network.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace weft;
using weft::test::cpuSeconds;
using weft::test::peakRssMb;

namespace {

int runCase(const std::string &name, bool aggregate)
{
    const bool gb200 = name == "a2a-256-gb200";
    if (!gb200 && name != "a2a-512-h100") {
        std::fprintf(stderr, "unknown case %s\n", name.c_str());
        return 2;
    }
    FabricParams p = test::clusterParams(gb200 ? "gb200-nvl72" : "dgx-h100", gb200 ? 4 : 64);
    if (gb200)
        p.fabric = FabricKind::FatTree;
    const test::Cluster c = test::generateCluster(p);
    std::vector<NodeId> members;
    for (const auto &d : c.acc)
        members.insert(members.end(), d.begin(), d.end());
    members.resize(gb200 ? 256 : 512);
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = cpuSeconds();
    NetworkOptions o;
    o.aggregate = aggregate;
    FlowNetwork net(c.design, o);
    CollectiveSpec s;
    s.kind = CollectiveKind::AllToAll;
    s.members = members;
    s.bytes = 1024.0 * 1024 * 1024;
    const JobId j = net.submit(CollectivePlanner(net.router()).plan(s).phases, 0.0);
    net.runUntilIdle();
    net.finish(net.now());
    const double wall
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const AggregationStats &a = net.aggregation();
    std::printf("%-14s %-10s wall %6.2f s  cpu %6.2f s  peak RSS %7.1f MB  events %8llu  "
                "flows %7llu  units %7llu  split %llu  time %.9g s\n",
                name.c_str(), aggregate ? "aggregated" : "per-flow", wall, cpuSeconds() - c0,
                peakRssMb(), static_cast<unsigned long long>(net.eventCount()),
                static_cast<unsigned long long>(a.flows),
                static_cast<unsigned long long>(aggregate ? a.units : a.flows),
                static_cast<unsigned long long>(a.splitFlows), net.jobFinishTime(j));
    std::fflush(stdout);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc == 3)
        return runCase(argv[1], std::strcmp(argv[2], "per-flow") != 0);
    int rc = 0;
    for (const char *name : {"a2a-512-h100", "a2a-256-gb200"})
        for (const char *mode : {"aggregated", "per-flow"}) {
            const std::string cmd = std::string("\"") + argv[0] + "\" " + name + " " + mode;
            rc |= std::system(cmd.c_str());
        }
    return rc == 0 ? 0 : 1;
}
