// Placement maths of the Partitions dock: parallel groups of a resolved placement, placing a
// group onto accelerators and swapping two accelerators keep the map a permutation.
#include "document/placementedit.h"
#include "model/design.h"
#include "testcluster.h"
#include "workloadfixtures.h"

#include <QTest>
#include <set>

using namespace weft;

namespace {

// 4 DGX A100 domains (32 accelerators): TP 8, PP 2, DP 2 fill them.
Workload smallWorkload()
{
    Workload w;
    w.model = *modelPreset("llama3-8b");
    w.config.tp = 8;
    w.config.pp = 2;
    w.config.dp = 2;
    w.config.microBatch = 1;
    w.config.globalBatch = 16;
    return w;
}

bool isPermutationOf(const std::vector<NodeId> &map, const std::vector<NodeId> &pool)
{
    const std::set<NodeId> used(map.begin(), map.end());
    if (used.size() != map.size())
        return false;
    const std::set<NodeId> all(pool.begin(), pool.end());
    return std::all_of(map.begin(), map.end(), [&](NodeId n) { return all.count(n) > 0; });
}

} // namespace

class TestPlacementEdit : public QObject
{
    Q_OBJECT
private slots:
    void groupsOfMegatronOrder()
    {
        const Design d = test::makeCluster("dgx-a100", 4).design;
        const Workload w = smallWorkload();
        std::vector<Finding> f;
        const RankMap rm(d, w.config, w.placement, f);
        QVERIFY(rm.valid());
        const auto tp = rankGroups(rm, RankGroupKind::Tp);
        QCOMPARE(tp.size(), 4u);
        QCOMPARE(tp[1].ranks, (std::vector<int> {8, 9, 10, 11, 12, 13, 14, 15}));
        const auto stages = rankGroups(rm, RankGroupKind::Stage);
        QCOMPARE(stages.size(), 2u);
        QCOMPARE(stages[1].ranks.front(), 16); // pp is the slowest dimension
        QCOMPARE(stages[1].ranks.size(), 16u);
        const auto replicas = rankGroups(rm, RankGroupKind::DpReplica);
        QCOMPARE(replicas.size(), 2u);
        QCOMPARE(replicas[1].ranks,
                 (std::vector<int> {8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31}));
        QCOMPARE(rankGroups(rm, RankGroupKind::Cp).size(), 32u); // CP 1: one rank per group
        const auto idx = groupIndexOfRanks(rm, RankGroupKind::Stage);
        QCOMPARE(idx[15], 0);
        QCOMPARE(idx[16], 1);
    }

    void expertDpGroupsHoldTheSameExperts()
    {
        // Mixtral 8x7B with TP 2, DP 16, EP 4 on 32 accelerators: the expert-DP groups are the
        // ranks of the same TP and EP index (dp % ep) over the 4 outer DP indices.
        const Design d = test::makeCluster("dgx-a100", 4).design;
        const Workload w = fixtures::mixtralTp2Ep4Dp16();
        std::vector<Finding> f;
        const RankMap rm(d, w.config, w.placement, f);
        QVERIFY(rm.valid());
        const auto groups = rankGroups(rm, RankGroupKind::ExpertDp);
        QCOMPARE(groups.size(), 8u); // tp x ep
        QCOMPARE(groups[0].ranks, (std::vector<int> {0, 8, 16, 24}));
        QCOMPARE(groups[1].ranks, (std::vector<int> {1, 9, 17, 25}));
        for (const RankGroup &g : groups) {
            std::vector<NodeId> nodes;
            for (const int r : g.ranks)
                nodes.push_back(rm.node(r));
            QCOMPARE(nodes, rm.expertDpGroup(rm.coord(g.ranks.front())));
        }
        QCOMPARE(QString::fromLatin1(toString(RankGroupKind::ExpertDp)),
                 QStringLiteral("expert-dp"));
        // With CP 2 (DP 8) the CP ranks hold the same experts too: groups span CP.
        Workload cp = w;
        cp.config.cp = 2;
        cp.config.dp = 8;
        const RankMap rc(d, cp.config, cp.placement, f);
        QVERIFY(rc.valid());
        const auto spanning = rankGroups(rc, RankGroupKind::ExpertDp);
        QCOMPARE(spanning.size(), 8u); // tp x ep
        for (const RankGroup &g : spanning) {
            QCOMPARE(g.ranks.size(), std::size_t(4)); // dp / ep x cp
            std::vector<NodeId> nodes;
            for (const int r : g.ranks)
                nodes.push_back(rc.node(r));
            QCOMPARE(nodes, rc.expertDpGroup(rc.coord(g.ranks.front())));
        }
    }

    void resolvedMapFollowsOrderOrExplicit()
    {
        const Design d = test::makeCluster("dgx-a100", 4).design;
        Workload w = smallWorkload();
        const auto map = resolvedMap(d, w);
        QVERIFY(map);
        QCOMPARE(*map, acceleratorsInOrder(d));
        w.config.tp = 64; // world 256 > 32 accelerators
        QVERIFY(!resolvedMap(d, w));
    }

    void swapTwoAccelerators()
    {
        const Design d = test::makeCluster("dgx-a100", 4).design;
        std::vector<NodeId> map = *resolvedMap(d, smallWorkload());
        const NodeId a = map[0], b = map[20];
        QVERIFY(swapAccelerators(map, a, b));
        QCOMPARE(map[0], b);
        QCOMPARE(map[20], a);
        QVERIFY(isPermutationOf(map, acceleratorsInOrder(d)));
        QVERIFY(!swapAccelerators(map, a, a));
    }

    void swapWithUnusedAccelerator()
    {
        const Design d = test::makeCluster("dgx-a100", 4).design;
        Workload w = smallWorkload();
        w.config.dp = 1; // 16 ranks on 32 accelerators
        std::vector<NodeId> map = *resolvedMap(d, w);
        const NodeId unused = acceleratorsInOrder(d)[30];
        const NodeId a = map[3];
        QVERIFY(swapAccelerators(map, a, unused));
        QCOMPARE(map[3], unused);
        QVERIFY(std::find(map.begin(), map.end(), a) == map.end());
        QVERIFY(!swapAccelerators(map, a, acceleratorsInOrder(d)[31])); // neither holds a rank
    }

    void placeStageOntoDomain()
    {
        const Design d = test::makeCluster("dgx-a100", 4).design;
        const Workload w = smallWorkload();
        std::vector<Finding> f;
        const RankMap rm(d, w.config, w.placement, f);
        std::vector<NodeId> map = *resolvedMap(d, w);
        const std::vector<NodeId> all = acceleratorsInOrder(d);
        // Domain 0 holds ranks 0..7 (stage 0); place the first 8 ranks of stage 1 there.
        const std::vector<NodeId> domain0(all.begin(), all.begin() + 8);
        const auto stage1 = rankGroups(rm, RankGroupKind::Stage)[1].ranks;
        QCOMPARE(placeRanks(map, stage1, domain0), 8);
        for (int i = 0; i < 8; ++i) {
            QCOMPARE(map[std::size_t(stage1[std::size_t(i)])], domain0[std::size_t(i)]);
            // The ranks that were there took the places the stage left.
            QCOMPARE(map[std::size_t(i)], all[std::size_t(stage1[std::size_t(i)])]);
        }
        QVERIFY(isPermutationOf(map, all));
    }

    void placeKeepsRanksAlreadyOnTargets()
    {
        const Design d = test::makeCluster("dgx-a100", 4).design;
        std::vector<NodeId> map = *resolvedMap(d, smallWorkload());
        const std::vector<NodeId> before = map;
        const std::vector<NodeId> all = acceleratorsInOrder(d);
        // TP group 0 onto its own domain, listed in reverse: nothing moves.
        const std::vector<NodeId> reversed(all.rbegin() + 24, all.rend());
        QCOMPARE(placeRanks(map, {0, 1, 2, 3, 4, 5, 6, 7}, reversed), 0);
        QCOMPARE(map, before);
        // Half on, half off: only the four outside move.
        std::vector<NodeId> mixed(all.begin() + 4, all.begin() + 12);
        QCOMPARE(placeRanks(map, {0, 1, 2, 3, 4, 5, 6, 7}, mixed), 4);
        QVERIFY(isPermutationOf(map, all));
        for (int r = 0; r < 8; ++r)
            QVERIFY(std::find(mixed.begin(), mixed.end(), map[std::size_t(r)]) != mixed.end());
    }

    void placeOnFewerTargetsMovesWhatFits()
    {
        const Design d = test::makeCluster("dgx-a100", 4).design;
        std::vector<NodeId> map = *resolvedMap(d, smallWorkload());
        const std::vector<NodeId> all = acceleratorsInOrder(d);
        QCOMPARE(placeRanks(map, {0, 1, 2, 3}, {all[31], all[30]}), 2);
        QCOMPARE(map[0], all[31]);
        QCOMPARE(map[1], all[30]);
        QCOMPARE(map[2], all[2]);
        QVERIFY(isPermutationOf(map, all));
    }

    void ordersAreValid()
    {
        const Design d = test::makeCluster("dgx-a100", 4).design;
        Workload w = smallWorkload();
        for (const std::string &o : placementOrders()) {
            w.placement.order = o;
            std::vector<Finding> f;
            QVERIFY2(RankMap(d, w.config, w.placement, f).valid(), o.c_str());
        }
        QCOMPARE(placementOrders().front(), std::string("tp-cp-ep-dp-pp"));
    }
};

QTEST_GUILESS_MAIN(TestPlacementEdit)
#include "tst_placementedit.moc"
