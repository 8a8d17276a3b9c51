// The plan's counts sentence (issue 16), shared by weft-cli plan and the app's Plan dialog:
// every count a candidate can end in, the infeasible ones by reason, the K-th best by its
// ordinal, zero counts after "simulated" left out.
#include "plan/plancountstext.h"

#include <QtTest>

using namespace weft;

class TestPlanCountsText : public QObject
{
    Q_OBJECT
private slots:
    void ordinals()
    {
        QCOMPARE(ordinal(1), std::string("1st"));
        QCOMPARE(ordinal(2), std::string("2nd"));
        QCOMPARE(ordinal(3), std::string("3rd"));
        QCOMPARE(ordinal(5), std::string("5th"));
        QCOMPARE(ordinal(11), std::string("11th"));
        QCOMPARE(ordinal(12), std::string("12th"));
        QCOMPARE(ordinal(13), std::string("13th"));
        QCOMPARE(ordinal(21), std::string("21st"));
        QCOMPARE(ordinal(102), std::string("102nd"));
        QCOMPARE(ordinal(111), std::string("111th"));
    }

    void everyCountSaid()
    {
        PlanCounts c;
        c.enumerated = 240;
        c.infeasible = {{"gpus-not-divisible", 12}, {"layers-below-stages", 129}};
        c.prunedByBound = 59;
        c.simulated = 7;
        c.stoppedPastBest = 33;
        c.deduplicated = 2;
        c.failed = 1;
        c.cancelled = 3;
        QCOMPARE(describePlanCounts(c, 5),
                 std::string("240 candidates: 141 infeasible (12 gpus-not-divisible, 129 "
                             "layers-below-stages), 59 pruned by the lower bound, 7 simulated, "
                             "33 stopped in simulation once past the 5th best, 2 deduplicated "
                             "(twins of a simulated one), 1 failed in simulation, 3 not run "
                             "(cancelled)"));
        PlanCounts plain;
        plain.enumerated = 4;
        plain.simulated = 4;
        QCOMPARE(describePlanCounts(plain, 10),
                 std::string("4 candidates: 0 infeasible, 0 pruned by the lower bound, 4 "
                             "simulated"));
    }
};

QTEST_APPLESS_MAIN(TestPlanCountsText)
#include "tst_plancountstext.moc"
