// Tests of the discrete-event pipeline schedule: orders, exact bubble fractions, memory in
// flight, communication exposure, deadlock-free completion.
// clang-format off
#include <QtTest> // first: moc cannot parse <compare> on its own
// clang-format on

#include "fakecomm.h"
#include "sim/schedule.h"
#include "workload/overlap.h"

#include <map>

using namespace weft;

namespace {

// A uniform pipeline without communication: p stages, m micro-batches, v chunks per rank,
// forward tf and backward tb per full stage (a chunk takes tf/v, tb/v).
ScheduleSpec uniform(PipelineSchedule s, int p, int m, int v, double tf, double tb)
{
    ScheduleSpec spec;
    spec.p = p;
    spec.m = m;
    spec.v = v;
    spec.schedule = s;
    ChunkWork w;
    w.forwardTime = tf / v;
    w.backwardTime = tb / v;
    w.layers = 1;
    spec.chunks.assign(static_cast<std::size_t>(p * v), w);
    PipelineGroups g;
    g.tp.resize(static_cast<std::size_t>(p));
    g.cp.resize(static_cast<std::size_t>(p));
    g.ep.resize(static_cast<std::size_t>(p));
    g.ppPairs.resize(static_cast<std::size_t>(p));
    spec.pipelines.push_back(g);
    spec.dpGroups.resize(static_cast<std::size_t>(p));
    spec.paramBytes.assign(static_cast<std::size_t>(p), 0);
    spec.optimizerTime.assign(static_cast<std::size_t>(p), 0);
    return spec;
}

} // namespace

class TestSchedule : public QObject
{
    Q_OBJECT
private slots:
    void bubbleIsExact_data()
    {
        QTest::addColumn<int>("schedule");
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("v");
        QTest::addColumn<double>("expectedBubbleFraction");
        QTest::newRow("1f1b p4 m8") << int(PipelineSchedule::OneFOneB) << 4 << 8 << 1 << 3.0 / 8;
        QTest::newRow("1f1b p8 m64") << int(PipelineSchedule::OneFOneB) << 8 << 64 << 1 << 7.0 / 64;
        QTest::newRow("1f1b p1 m4") << int(PipelineSchedule::OneFOneB) << 1 << 4 << 1 << 0.0;
        QTest::newRow("1f1b m<p") << int(PipelineSchedule::OneFOneB) << 4 << 2 << 1 << 3.0 / 2;
        QTest::newRow("gpipe p4 m8") << int(PipelineSchedule::GPipe) << 4 << 8 << 1 << 3.0 / 8;
        QTest::newRow("interleaved p4 m8 v2")
            << int(PipelineSchedule::Interleaved) << 4 << 8 << 2 << 3.0 / 16;
        QTest::newRow("interleaved p4 m4 v3")
            << int(PipelineSchedule::Interleaved) << 4 << 4 << 3 << 3.0 / 12;
        QTest::newRow("interleaved p8 m64 v3")
            << int(PipelineSchedule::Interleaved) << 8 << 64 << 3 << 7.0 / 192;
    }
    void bubbleIsExact()
    {
        QFETCH(int, schedule);
        QFETCH(int, p);
        QFETCH(int, m);
        QFETCH(int, v);
        QFETCH(double, expectedBubbleFraction);
        const double tf = 1.0, tb = 2.0;
        ScheduleSpec spec = uniform(PipelineSchedule(schedule), p, m, v, tf, tb);
        test::FakeComm comm(0, 0);
        const ScheduleOutcome out = runSchedule(spec, comm);
        QVERIFY2(out.ok, out.error.c_str());
        const double ideal = m * (tf + tb);
        QCOMPARE(out.stepTime, ideal * (1 + expectedBubbleFraction));
        QCOMPARE(out.breakdown.bubble, ideal * expectedBubbleFraction);
        QCOMPARE(out.breakdown.compute, ideal);
        QCOMPARE(out.breakdown.sum(), out.stepTime);
    }
    void ordersHaveEveryOpOnce()
    {
        for (auto s :
             {PipelineSchedule::GPipe, PipelineSchedule::OneFOneB, PipelineSchedule::Interleaved})
            for (int st = 0; st < 4; ++st) {
                const auto order = stageOrder(s, 4, 8, 2, st);
                const int v = s == PipelineSchedule::Interleaved ? 2 : 1;
                QCOMPARE(int(order.size()), 2 * 8 * v);
                QSet<int> seen;
                for (const StageOp &o : order)
                    seen.insert((o.forward ? 1000 : 0) + o.chunk * 100 + o.microBatch);
                QCOMPARE(int(seen.size()), 2 * 8 * v);
            }
    }
    void firstStageHoldsPMicroBatches()
    {
        // Korthikanti 2022 sec. 4.2.3: the first 1F1B stage keeps p micro-batches in flight.
        const auto order = stageOrder(PipelineSchedule::OneFOneB, 8, 32, 1, 0);
        QCOMPARE(peakActivationBytes(order, {1.0}), 8.0);
        const auto last = stageOrder(PipelineSchedule::OneFOneB, 8, 32, 1, 7);
        QCOMPARE(peakActivationBytes(last, {1.0}), 1.0);
        const auto gpipe = stageOrder(PipelineSchedule::GPipe, 8, 32, 1, 0);
        QCOMPARE(peakActivationBytes(gpipe, {1.0}), 32.0);
    }
    void tpCommIsExposedUnlessOverlapped()
    {
        ScheduleSpec spec = uniform(PipelineSchedule::OneFOneB, 1, 4, 1, 1.0, 2.0);
        spec.chunks[0].tpForward = {{CollectiveOp::AllReduce, 100, 2}};
        spec.chunks[0].tpBackward = {{CollectiveOp::AllReduce, 100, 2}};
        spec.pipelines[0].tp[0] = {CommGroup {{NodeId(0), NodeId(1)}, 0}};
        test::FakeComm comm(0, 1000); // 0.1 s per all-reduce
        ScheduleOutcome out = runSchedule(spec, comm);
        QVERIFY(out.ok);
        QCOMPARE(out.stepTime, 4 * 3.0 + 4 * 0.4);
        QCOMPARE(out.breakdown.tpExposed, 1.6);
        spec.overlapTp = true;
        test::FakeComm comm2(0, 1000);
        out = runSchedule(spec, comm2);
        QCOMPARE(out.stepTime, 12.0);
        QCOMPARE(out.breakdown.tpExposed, 0.0);
    }
    // Ring CP on 2 ranks, one layer: the attention core (0.6 s of the 1 s forward) runs on two
    // K/V blocks of 0.3 s; the one ring step (0.5 s) hides behind the first block only, so the
    // forward ends ringCpExposed(2, 0.5, 0.3) = 0.2 s late and that is exposed CP, not compute.
    void cpExchangeHidesOnlyBehindItsWindow()
    {
        ScheduleSpec spec = uniform(PipelineSchedule::OneFOneB, 1, 4, 1, 1.0, 2.0);
        ChunkWork &w = spec.chunks[0];
        w.cpForward = {{CollectiveOp::AllGather, 100, 5}}; // 0.5 s
        w.cpBackward = {{CollectiveOp::ReduceScatter, 100, 5}};
        w.cpWindowForward = 0.6 / 2;
        w.cpWindowBackward = 1.2 / 2; // hides the backward's step
        spec.pipelines[0].cp[0] = {CommGroup {{NodeId(0), NodeId(1)}, 0}};
        test::FakeComm comm(0, 1000);
        ScheduleOutcome out = runSchedule(spec, comm);
        QVERIFY(out.ok);
        const double stall = ringCpExposed(2, 0.5, 0.3);
        QVERIFY(qAbs(stall - 0.2) < 1e-12);
        QVERIFY(qAbs(out.stepTime - 4 * (3.0 + stall)) < 1e-9);
        QVERIFY(qAbs(out.breakdown.cpExposed - 4 * stall) < 1e-9);
        QVERIFY(qAbs(out.breakdown.compute - 12.0) < 1e-9);
        QVERIFY(qAbs(out.breakdown.sum() - out.stepTime) < 1e-9);
        // The all-gather kind has no window: the whole exchange precedes the attention.
        w.cpWindowForward = w.cpWindowBackward = 0;
        test::FakeComm comm2(0, 1000);
        out = runSchedule(spec, comm2);
        QVERIFY(qAbs(out.stepTime - 4 * (3.0 + 2 * 0.5)) < 1e-9);
        QVERIFY(qAbs(out.breakdown.cpExposed - 4.0) < 1e-9);
        // A window as long as the compute hides everything the compute can cover.
        w.cpWindowForward = 1.0;
        w.cpWindowBackward = 2.0;
        test::FakeComm comm3(0, 1000);
        out = runSchedule(spec, comm3);
        QVERIFY(qAbs(out.stepTime - 12.0) < 1e-9);
        QCOMPARE(out.breakdown.cpExposed, 0.0);
    }
    void ppTransferDelaysAndIsAccounted()
    {
        ScheduleSpec spec = uniform(PipelineSchedule::OneFOneB, 2, 4, 1, 1.0, 2.0);
        spec.ppBytes = 100;
        spec.pipelines[0].ppPairs[0] = CommGroup {{NodeId(0), NodeId(1)}, 0};
        test::FakeComm comm(0, 1000); // 0.1 s per transfer
        const ScheduleOutcome out = runSchedule(spec, comm);
        QVERIFY(out.ok);
        QVERIFY(out.stepTime > 4 * 3.0 + 3.0);
        QVERIFY(out.breakdown.ppExposed > 0);
        QCOMPARE(out.breakdown.sum(), out.stepTime);
    }
    void dpReductionOverlapsBackward()
    {
        ScheduleSpec spec = uniform(PipelineSchedule::OneFOneB, 1, 4, 1, 1.0, 2.0);
        spec.chunks[0].gradBytes = 1000;
        spec.chunks[0].layers = 4;
        spec.dpBucketBytes = 250; // 4 buckets, the last released at the end of the backward
        spec.dpGroups[0] = {CommGroup {{NodeId(0), NodeId(1)}, 0}};
        test::FakeComm comm(0, 1000); // 0.25 s per bucket
        ScheduleOutcome out = runSchedule(spec, comm);
        QVERIFY(out.ok);
        QCOMPARE(out.breakdown.dpExposed, 0.25);
        spec.overlapDp = false;
        test::FakeComm comm2(0, 1000);
        out = runSchedule(spec, comm2);
        QCOMPARE(out.breakdown.dpExposed, 1.0);
        QCOMPARE(out.breakdown.sum(), out.stepTime);
    }
    // ZeRO-3: every operation first all-gathers its chunk's parameters over the DP group. Without
    // overlap each gather (1 s here) waits in front of its operation; with prefetch only the
    // first one does, the others run behind the previous operation's compute.
    void zero3GathersParametersBeforeEachOperation()
    {
        ScheduleSpec spec = uniform(PipelineSchedule::OneFOneB, 1, 4, 1, 1.0, 2.0);
        spec.shardedGrads = spec.gatherParams = true;
        spec.chunks[0].gatherBytes = 1000;
        spec.chunks[0].layers = 2;
        spec.dpGroups[0] = {CommGroup {{NodeId(0), NodeId(1)}, 0}};
        spec.overlapDp = false;
        test::FakeComm comm(0, 1000);
        ScheduleOutcome out = runSchedule(spec, comm);
        QVERIFY2(out.ok, out.error.c_str());
        QCOMPARE(out.breakdown.dpExposed, 8.0); // 4 forwards + 4 backwards, 1 s each
        QCOMPARE(out.stepTime, 4 * 3.0 + 8.0);
        QCOMPARE(out.breakdown.compute, 12.0);
        QCOMPARE(out.breakdown.sum(), out.stepTime);
        QCOMPARE(out.ops[0][0][1].gatherWait, 1.0);
        spec.overlapDp = true;
        test::FakeComm comm2(0, 1000);
        out = runSchedule(spec, comm2);
        QVERIFY(out.ok);
        QCOMPARE(out.breakdown.dpExposed, 1.0);
        QCOMPARE(out.stepTime, 4 * 3.0 + 1.0);
        QCOMPARE(out.breakdown.sum(), out.stepTime);
        // 8 gathers + the gradient reduce-scatter at the end of the backward; no parameter
        // all-gather after the optimizer (the next step gathers again).
        QCOMPARE(comm2.submitted, 8 + 1);
    }
    // Expert gradients go to the expert-DP groups, the rest to the DP groups.
    void expertGradientsUseExpertDpGroups()
    {
        struct Recorder : test::FakeComm
        {
            using FakeComm::FakeComm;
            CommId submit(const CommRequest &r, double t) override
            {
                bytesByGroup[r.tag] += r.calls.front().bytes * r.calls.front().repeat;
                return FakeComm::submit(r, t);
            }
            std::map<int, double> bytesByGroup;
        };
        ScheduleSpec spec = uniform(PipelineSchedule::OneFOneB, 1, 2, 1, 1.0, 2.0);
        spec.chunks[0].gradBytes = 1000;
        spec.chunks[0].expertGradBytes = 300;
        spec.chunks[0].layers = 2;
        spec.dpBucketBytes = 500; // 2 buckets
        spec.dpGroups[0] = {CommGroup {{NodeId(0), NodeId(1), NodeId(2), NodeId(3)}, 7}};
        spec.expertDpGroups
            = {{CommGroup {{NodeId(0), NodeId(2)}, 8}, CommGroup {{NodeId(1), NodeId(3)}, 9}}};
        Recorder comm(0, 1000);
        const ScheduleOutcome out = runSchedule(spec, comm);
        QVERIFY(out.ok);
        QCOMPARE(comm.bytesByGroup[7], 700.0);
        QCOMPARE(comm.bytesByGroup[8], 300.0);
        QCOMPARE(comm.bytesByGroup[9], 300.0);
    }
    void cancelStops()
    {
        ScheduleSpec spec = uniform(PipelineSchedule::OneFOneB, 8, 4096, 1, 1.0, 2.0);
        test::FakeComm comm(0, 0);
        const ScheduleOutcome out = runSchedule(spec, comm, [](double) { return false; });
        QVERIFY(out.cancelled);
        QVERIFY(!out.ok);
    }
    void eventBoundIsReported()
    {
        ScheduleSpec spec = uniform(PipelineSchedule::OneFOneB, 4, 64, 1, 1.0, 2.0);
        spec.maxEvents = 10;
        test::FakeComm comm(0, 0);
        const ScheduleOutcome out = runSchedule(spec, comm);
        QVERIFY(!out.ok);
        QCOMPARE(QString::fromStdString(out.errorCode), QStringLiteral("event-bound-reached"));
    }
};

QTEST_GUILESS_MAIN(TestSchedule)
#include "tst_schedule.moc"
