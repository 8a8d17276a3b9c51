// Tests of plan-merge's refusal of shards of different plans (issue 16): a shard made by another
// Weft version or with other plan options is refused, naming its file and the setting.
#include "plan/planidentity.h"
#include "plan/planjson.h"
#include "plan/planner.h"
#include "plandesigns.h"

#include <QtTest>

using namespace weft;

namespace {

TrainingPlan shard(const Design &d, const PlanSpace &s, int i, int n,
                   PlanObjective objective = PlanObjective::StepTime)
{
    PlanOptions o;
    o.top = 3;
    o.jobs = 2;
    o.losers = false;
    o.shard = i;
    o.shards = n;
    o.objective = objective;
    // Through the file format, as plan-merge reads the shards.
    auto parsed = parsePlanJson(planToJson(runPlan(d, s, o)), "x.json");
    if (!std::holds_alternative<TrainingPlan>(parsed))
        throw std::runtime_error(std::get<FileError>(parsed).toString());
    return std::get<TrainingPlan>(parsed);
}

// The message mergePlans() refuses {a, b} with, or "" when it merges them.
QString refusal(const TrainingPlan &a, const TrainingPlan &b)
{
    try {
        mergePlans({a, b}, {"a.json", "b.json"});
    } catch (const std::invalid_argument &e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

} // namespace

class TestPlanMerge : public QObject
{
    Q_OBJECT
private slots:
    void refusesOtherPlans()
    {
        const Design d = test::withModel(test::planFabric("dgx-h100", 1), test::smallDense(), 16);
        PlanSpace s = test::smallSpace(d);
        fixKnobs(s, "cp=1,pp=1,recompute=none");
        const TrainingPlan first = shard(d, s, 0, 2);
        const TrainingPlan second = shard(d, s, 1, 2);
        QCOMPARE(first.weftVersion, std::string(WEFT_VERSION));
        QVERIFY(!first.workload.empty());
        QCOMPARE(refusal(first, second), QString()); // one plan: merged
        QCOMPARE(planDifference(first, second), std::string());

        const auto refused = [&](const TrainingPlan &other, const char *setting) {
            const QString m = refusal(first, other);
            QVERIFY2(m.contains(QStringLiteral("b.json")) && m.contains(QLatin1String(setting)),
                     qPrintable(m));
        };
        TrainingPlan version = second;
        version.weftVersion = "0.0.1";
        refused(version, "Weft version 0.0.1 in b.json");

        Design bigger = d;
        bigger.workload->config.globalBatch = 32;
        PlanSpace sb = s;
        sb.base.config.globalBatch = 32;
        refused(shard(bigger, sb, 1, 2), "global batch 32 in b.json");

        PlanSpace fixed = s;
        fixKnobs(fixed, "tp=8");
        refused(shard(d, fixed, 1, 2), "searched values of knob tp (--fix) 8 in b.json");

        refused(shard(d, s, 1, 2, PlanObjective::TokensPerSecond), "objective tokens-per-s");

        PlanSpace longer = s;
        longer.base.model.seq = 4096;
        refused(shard(d, longer, 1, 2), "workload setting /model/seq_tokens 4096 in b.json");

        PlanSpace noSp = s;
        noSp.base.config.sequenceParallel = !s.base.config.sequenceParallel;
        refused(shard(d, noSp, 1, 2), "sequence_parallel");
    }

    // The simulator can leave a breakdown part a rounding error below zero: a shard holding
    // one was refused by plan-merge ("must not be negative"). It is written as 0 (not
    // "-1.4e-17" in plan.csv), and the CSV of a shard read back is the same.
    void roundingBelowZeroRoundTrips()
    {
        TrainingPlan p;
        p.design = "d";
        p.gpus = 8;
        p.globalBatch = 8;
        PlanRow row;
        row.config.dp = 8;
        row.order = "dp";
        row.stepTime = 1;
        row.fits = true;
        row.breakdown.dpExposed = -1.4e-17;
        p.simulated = {row};
        p.ranked = {row};
        auto parsed = parsePlanJson(planToJson(p), "x.json");
        QVERIFY2(std::holds_alternative<TrainingPlan>(parsed),
                 std::holds_alternative<FileError>(parsed)
                     ? std::get<FileError>(parsed).toString().c_str()
                     : "");
        QCOMPARE(std::get<TrainingPlan>(parsed).ranked.front().breakdown.dpExposed, 0.0);
        QVERIFY(planToCsv(p).find("e-17") == std::string::npos);
        QCOMPARE(planToCsv(std::get<TrainingPlan>(parsed)), planToCsv(p));
        p.ranked.front().breakdown.dpExposed = -0.5; // a real negative is still refused
        QVERIFY(std::holds_alternative<FileError>(parsePlanJson(planToJson(p), "x.json")));
    }
};

QTEST_GUILESS_MAIN(TestPlanMerge)
#include "tst_planmerge.moc"
