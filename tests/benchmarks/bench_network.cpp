// Network benchmark: wall time and peak memory of routing, planning and max-min simulation on
// rail-optimized three-tier fat trees of DGX H100 domains (simulator.md, Speed).
//
//   bench_network            runs 1k, 4k, 16k and 64k accelerators, one process each
//   bench_network 131072     one size (e.g. 131k on request)
//
// Fabric: scalable units (pods) of 32 domains; per pod one leaf per rail (32 NICs down, 32 up),
// 8 pod spines (each leaf 4 lanes to each), spine j of every pod to the 32 cores of group j.
// Non-blocking at every tier. Scenarios: one ring all-reduce over every GPU (8 rail channels),
// the same hierarchically, all DP rings of a TP8 x PPp x DPd layout at once, and one TP8
// all-reduce in every domain at once (independent components).
#include "../support/netfabrics.h"
#include "../support/processusage.h"
#include "io/catalogfile.h"
#include "sim/collectives.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace weft;
using weft::test::addTestLink;
using weft::test::addTestNode;
using weft::test::cpuSeconds;
using weft::test::peakRssMb;

namespace {

double seconds(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Fabric
{
    Design design;
    std::vector<std::vector<NodeId>> acc; // [domain][rail]
};

Fabric build(int gpus)
{
    Fabric f;
    Design &d = f.design;
    d.hardware = builtinCatalog().hardware;
    const int domains = gpus / 8, perPod = 32, pods = (domains + perPod - 1) / perPod;
    const double nvl = 25e9, ndr = 50e9;
    d.reserve(static_cast<std::size_t>(gpus + domains * 4 + pods * 16 + 256),
              static_cast<std::size_t>(gpus * 5 + pods * 8 * 8 + pods * 8 * 32),
              static_cast<std::size_t>(domains));
    std::vector<NodeId> cores;
    for (int c = 0; c < 256; ++c)
        cores.push_back(addTestNode(d, NodeKind::Switch, "core" + std::to_string(c), {},
                                    SwitchRole::Core, -1, "qm9700"));
    std::vector<NodeId> leaves;
    for (int p = 0; p < pods; ++p) {
        std::vector<NodeId> spines;
        for (int j = 0; j < 8; ++j) {
            spines.push_back(addTestNode(d, NodeKind::Switch,
                                         "spine" + std::to_string(p) + "." + std::to_string(j), {},
                                         SwitchRole::Spine, -1, "qm9700"));
            for (int c = 0; c < 32; ++c)
                addTestLink(d, spines.back(), cores[static_cast<std::size_t>(j * 32 + c)], "ib-ndr",
                            ndr, 1);
        }
        for (int r = 0; r < 8; ++r) {
            leaves.push_back(addTestNode(d, NodeKind::Switch,
                                         "leaf" + std::to_string(p) + "." + std::to_string(r), {},
                                         SwitchRole::Leaf, -1, "qm9700"));
            for (NodeId s : spines)
                addTestLink(d, leaves.back(), s, "ib-ndr", ndr, 4);
        }
    }
    for (int dom = 0; dom < domains; ++dom) {
        Group g;
        g.name = "dgx" + std::to_string(dom);
        const GroupId gid = d.addGroup(g);
        std::vector<NodeId> chips;
        for (int k = 0; k < 4; ++k)
            chips.push_back(addTestNode(d, NodeKind::Switch, g.name + ".nvs" + std::to_string(k),
                                        gid, SwitchRole::ScaleUp, -1, "nvswitch-gen3"));
        f.acc.emplace_back();
        for (int r = 0; r < 8; ++r) {
            const NodeId a
                = addTestNode(d, NodeKind::Accelerator, g.name + ".gpu" + std::to_string(r), gid,
                              SwitchRole::Leaf, r, "h100-sxm");
            f.acc.back().push_back(a);
            const int lanes[4] = {5, 4, 4, 5};
            for (int k = 0; k < 4; ++k)
                addTestLink(d, a, chips[static_cast<std::size_t>(k)], "nvlink4", nvl, lanes[k]);
            addTestLink(d, a, leaves[static_cast<std::size_t>((dom / perPod) * 8 + r)], "ib-ndr",
                        ndr, 1);
        }
    }
    return f;
}

CollectiveSpec allReduce(std::vector<NodeId> members, double bytes, CollectiveAlgorithm a)
{
    CollectiveSpec s;
    s.kind = CollectiveKind::AllReduce;
    s.members = std::move(members);
    s.bytes = bytes;
    s.algorithm = a;
    return s;
}

void runSize(int gpus)
{
    using clock = std::chrono::steady_clock;
    auto t0 = clock::now();
    Fabric f = build(gpus);
    const double tBuild = seconds(t0);
    t0 = clock::now();
    NetworkOptions opts;
    if (const char *b = std::getenv("WEFT_BENCH_BUCKETS"))
        opts.seriesBuckets = std::atoi(b);
    FlowNetwork net(f.design, opts);
    const CollectivePlanner planner(net.router());
    const double tNet = seconds(t0);
    std::printf("\n== %d accelerators: %zu nodes, %zu links; build %.3f s, network tables %.3f s\n",
                gpus, f.design.nodes().size(), f.design.links().size(), tBuild, tNet);

    auto scenario = [&](const char *name, const std::vector<CollectiveSpec> &specs) {
        net.reset();
        const double cpu0 = cpuSeconds();
        auto s0 = clock::now();
        std::vector<std::vector<Phase>> plans;
        for (const CollectiveSpec &s : specs)
            plans.push_back(planner.plan(s).phases);
        const double tPlan = seconds(s0);
        s0 = clock::now();
        for (std::size_t i = 0; i < plans.size(); ++i)
            net.submit(std::move(plans[i]), 0.0, static_cast<JobTag>(i));
        const double tSubmit = seconds(s0);
        s0 = clock::now();
        const double simulated = net.runUntilIdle();
        net.finish(simulated);
        const double tRun = seconds(s0);
        const double cpu = cpuSeconds() - cpu0;
        std::printf(
            "  %-34s jobs %6zu  plan %.3f s  route+submit %.3f s  run %.3f s  (%llu events)  "
            "simulated %.3f ms  CPU %.3f s  peak RSS %.0f MB\n",
            name, specs.size(), tPlan, tSubmit, tRun,
            static_cast<unsigned long long>(net.eventCount()), simulated * 1e3, cpu, peakRssMb());
    };

    std::vector<NodeId> all;
    for (const auto &dom : f.acc)
        all.insert(all.end(), dom.begin(), dom.end());
    scenario("all-reduce 1 GiB, all GPUs, ring",
             {allReduce(all, 1 << 30, CollectiveAlgorithm::Ring)});
    scenario("all-reduce 1 GiB, all GPUs, hier.",
             {allReduce(all, 1 << 30, CollectiveAlgorithm::Hierarchical)});

    const int domains = gpus / 8, pp = gpus >= 16384 ? 16 : 4, dp = domains / pp;
    std::vector<CollectiveSpec> dpRings;
    for (int p = 0; p < pp; ++p)
        for (int r = 0; r < 8; ++r) {
            std::vector<NodeId> m;
            for (int i = 0; i < dp; ++i)
                m.push_back(
                    f.acc[static_cast<std::size_t>(p * dp + i)][static_cast<std::size_t>(r)]);
            dpRings.push_back(allReduce(std::move(m), 1 << 30, CollectiveAlgorithm::Ring));
        }
    char label[64];
    std::snprintf(label, sizeof label, "DP rings (TP8 PP%d DP%d) 1 GiB", pp, dp);
    scenario(label, dpRings);

    std::vector<CollectiveSpec> tp;
    for (const auto &dom : f.acc)
        tp.push_back(allReduce(dom, 64 << 20, CollectiveAlgorithm::Ring));
    scenario("TP8 all-reduce 64 MiB per domain", tp);
}

} // namespace

int main(int argc, char **argv)
{
    if (argc > 1) {
        const int gpus = std::atoi(argv[1]);
        if (gpus < 8 || gpus % 256 != 0) {
            std::fprintf(stderr, "usage: %s [accelerators, a multiple of 256]\n", argv[0]);
            return 2;
        }
        runSize(gpus);
        return 0;
    }
    for (int gpus : {1024, 4096, 16384, 65536}) {
        const std::string cmd = std::string(argv[0]) + " " + std::to_string(gpus);
        if (std::system(cmd.c_str()) != 0)
            return 1;
    }
    return 0;
}
