// Tests of the planner's schedule bound (planschedulebound.h): the longest path through the
// simulator's stage orders gives the textbook pipeline times where they hold, and the ZeRO-3
// parameter gathers as schedule.cpp asks for them.
#include "plan/planschedulebound.h"

#include <QtTest>
#include <algorithm>

using namespace weft;

namespace {

ScheduleBoundInput uniform(PipelineSchedule s, int p, int m, int v, double f, double b)
{
    ScheduleBoundInput in;
    in.schedule = s;
    in.p = p;
    in.m = m;
    in.v = v;
    const std::size_t n
        = static_cast<std::size_t>(p * (s == PipelineSchedule::Interleaved ? v : 1));
    in.forward.assign(n, f);
    in.backward.assign(n, b);
    return in;
}

double last(const ScheduleBound &b)
{
    return *std::max_element(b.end.begin(), b.end.end());
}

} // namespace

class TestPlanScheduleBound : public QObject
{
    Q_OBJECT
private slots:
    // 1F1B and GPipe on equal stages: (m + p - 1)(f + b) (Narayanan et al. 2021 sec. 2.2).
    void oneFOneBIsTheTextbookTime()
    {
        for (PipelineSchedule s : {PipelineSchedule::OneFOneB, PipelineSchedule::GPipe}) {
            const ScheduleBound b = scheduleLowerBound(uniform(s, 4, 8, 1, 1.0, 2.0));
            QVERIFY(b.valid);
            QCOMPARE(last(b), (8 + 4 - 1) * 3.0);
        }
        // Hops: at least the closed form's 2 (p - 1) hops there and back, and more once the
        // round trip of a micro-batch, (p - 1)(f + b + 2 x) + f + b, outlasts p micro-batches'
        // work (1F1B keeps at most p in flight): the steady state slows too.
        ScheduleBoundInput in = uniform(PipelineSchedule::OneFOneB, 4, 8, 1, 1.0, 2.0);
        in.hop = 0.5;
        const double withHops = last(scheduleLowerBound(in));
        QVERIFY2(withHops > 33.0 + 2 * 3 * 0.5, qPrintable(QString::number(withHops)));
        in.hop = 0.01; // small hops: about the closed form
        const double small = last(scheduleLowerBound(in));
        QVERIFY2(small >= 33.0 + 2 * 3 * 0.01 - 1e-12 && small < 33.5,
                 qPrintable(QString::number(small)));
    }

    // Interleaving with m a multiple of p: the bubble shrinks to (p - 1)(f + b) / v of a
    // whole stage's work (Narayanan et al. 2021 sec. 2.2.1), chunks of 1/v of it.
    void interleavingShrinksTheBubble()
    {
        const int p = 4, m = 8, v = 2;
        const ScheduleBound b
            = scheduleLowerBound(uniform(PipelineSchedule::Interleaved, p, m, v, 0.5, 1.0));
        QVERIFY(b.valid);
        const double work = m * 3.0, bubble = (p - 1) * 3.0 / v;
        QVERIFY2(last(b) >= work + bubble - 1e-9, qPrintable(QString::number(last(b))));
        QVERIFY(last(b) < work + (p - 1) * 3.0); // below 1F1B's
    }

    // ZeRO-3: with prefetch, operation i + 1's gather runs beside operation i (a stage takes
    // sum max(op, gather)); without it, after (sum op + gather).
    void zero3GathersChainTheOperations()
    {
        ScheduleBoundInput in = uniform(PipelineSchedule::OneFOneB, 1, 4, 1, 1.0, 2.0);
        in.gather = {1.5};
        in.overlapDp = true;
        // One stage runs F B F B F B F B: the first gather (1.5), then each operation lasts
        // the longer of itself and the next one's gather (1.5 after each of the four forwards,
        // 2 after the first three backwards), then the last backward (2).
        QCOMPARE(last(scheduleLowerBound(in)), 1.5 + 4 * 1.5 + 3 * 2.0 + 2.0);
        in.overlapDp = false;
        QCOMPARE(last(scheduleLowerBound(in)), 8 * 1.5 + 4 * 1.0 + 4 * 2.0);
        // The last backward of the only chunk starts after everything else.
        const ScheduleBound b = scheduleLowerBound(in);
        QCOMPARE(b.lastBackwardStart[0][0], last(b) - 2.0);
    }

    // A blocking send (no PP overlap) holds the sender for the hop.
    void blockingSendsHoldTheSender()
    {
        ScheduleBoundInput in = uniform(PipelineSchedule::OneFOneB, 2, 4, 1, 1.0, 2.0);
        in.hop = 0.25;
        const double overlapped = last(scheduleLowerBound(in));
        in.overlapPp = false;
        QVERIFY(last(scheduleLowerBound(in)) > overlapped);
    }

    void inconsistentInputMakesNoClaim()
    {
        ScheduleBoundInput in = uniform(PipelineSchedule::OneFOneB, 2, 4, 1, 1.0, 2.0);
        in.forward.pop_back();
        QVERIFY(!scheduleLowerBound(in).valid);
        in = uniform(PipelineSchedule::OneFOneB, 2, 4, 1, 1.0, 2.0);
        in.gather = {1.0};
        QVERIFY(!scheduleLowerBound(in).valid);
    }
};

QTEST_GUILESS_MAIN(TestPlanScheduleBound)
#include "tst_planschedulebound.moc"
