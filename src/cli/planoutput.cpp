#include "planoutput.h"

#include "command.h"
#include "designinput.h"
#include "gui/charts/planchartdata.h"
#include "gui/charts/plancharts.h"
#include "plan/plancountstext.h"
#include "plan/planjson.h"
#include "sim/memoryheadroom.h"

#include <algorithm>

namespace weft::cli {

namespace {

QString scheduleText(const TrainingConfig &c)
{
    if (c.schedule == PipelineSchedule::Interleaved)
        return QStringLiteral("int v%1").arg(c.vpp);
    return QString::fromLatin1(toString(c.schedule));
}

} // namespace

void printPlan(const TrainingPlan &r)
{
    // The table's header only above rows: a plan where nothing runs prints its counts and why.
    if (!r.ranked.empty())
        out(QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9 %10 %11 %12 %13 %14 %15 %16 %17  %18")
                .arg(QStringLiteral("rank"), 4)
                .arg(QStringLiteral("TP"), 3)
                .arg(QStringLiteral("PP"), 3)
                .arg(QStringLiteral("DP"), 5)
                .arg(QStringLiteral("CP"), 3)
                .arg(QStringLiteral("EP"), 3)
                .arg(QStringLiteral("ETP"), 3)
                .arg(QStringLiteral("dispatch"), -8)
                .arg(QStringLiteral("EP ovl"), -6)
                .arg(QStringLiteral("schedule"), -9)
                .arg(QStringLiteral("b"), 2)
                .arg(QStringLiteral("recompute"), -9)
                .arg(QStringLiteral("ZeRO"), 4)
                .arg(QStringLiteral("step ms"), 10)
                .arg(QStringLiteral("tokens/s"), 11)
                .arg(QStringLiteral("MFU %"), 6)
                .arg(QStringLiteral("GB/GPU"), 7)
                .arg(QStringLiteral("placement")));
    for (std::size_t i = 0; i < r.ranked.size(); ++i) {
        const PlanRow &row = r.ranked[i];
        const TrainingConfig &c = row.config;
        out(QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9 %10 %11 %12 %13 %14 %15 %16 %17  %18")
                .arg(i + 1, 4)
                .arg(c.tp, 3)
                .arg(c.pp, 3)
                .arg(c.dp, 5)
                .arg(c.cp, 3)
                .arg(c.ep, 3)
                // expert TP only where it means something: EP or an explicit ETP ("-" for a
                // dense model, where it read as an expert setting of its TP)
                .arg(c.ep > 1 || c.etp > 0 ? QString::number(c.expertTp()) : QStringLiteral("-"), 3)
                .arg(QString::fromLatin1(c.ep > 1 ? toString(c.dispatcher) : "-"), -8)
                .arg(c.ep > 1 ? (c.overlapEp ? QStringLiteral("on") : QStringLiteral("off"))
                              : QStringLiteral("-"),
                     -6)
                .arg(scheduleText(c), -9)
                .arg(c.microBatch, 2)
                .arg(QString::fromLatin1(toString(c.recompute)), -9)
                .arg(c.effectiveZero(), 4)
                .arg(row.stepTime * 1e3, 10, 'f', 1)
                .arg(row.tokensPerSecond, 11, 'f', 0)
                .arg(row.mfu * 100, 6, 'f', 1)
                .arg(QString::number(row.peakMemoryPerGpu / 1e9, 'f', 1)
                         + (row.overHeadroom() ? QStringLiteral("!") : QString()),
                     7)
                .arg(QString::fromStdString(row.order)));
    }
    if (std::any_of(r.ranked.begin(), r.ranked.end(),
                    [](const PlanRow &row) { return row.overHeadroom(); }))
        out(QStringLiteral("! above %1% of HBM: 'weft-cli simulate' warns (memory-headroom) that "
                           "the CUDA context, NCCL buffers and fragmentation may not fit; "
                           "--headroom leaves such candidates out")
                .arg((1 - kMemoryHeadroom) * 100, 0, 'f', 0));
    out(QString::fromStdString(describePlanCounts(r.counts, r.top)));
    if (!r.ranked.empty())
        for (const PlanLoser &l : r.losers)
            out(QStringLiteral("%1: %2: %3% slower (%4 ms against %5 ms): %6")
                    .arg(l.designOwn ? QStringLiteral("against the best")
                                     : QStringLiteral("known loser"))
                    .arg(QString::fromStdString(l.title))
                    .arg(l.slowdown * 100, 0, 'f', 1)
                    .arg(l.row.stepTime * 1e3, 0, 'f', 1)
                    .arg(r.ranked.front().stepTime * 1e3, 0, 'f', 1)
                    .arg(QString::fromStdString(l.why)));
    if (r.ranked.empty())
        err(QStringLiteral("no candidate runs: %1")
                .arg(QString::fromStdString(infeasibleExplanation(r))));
    if (r.cancelled)
        err(QStringLiteral("the plan was cancelled: the ranking covers only the candidates "
                           "simulated before"));
}

int writePlanOutputs(const QString &command, const TrainingPlan &r, const QDir &dir,
                     const QString &base, bool charts)
{
    const QString json = dir.filePath(base + QStringLiteral(".json"));
    const QString csv = dir.filePath(base + QStringLiteral(".csv"));
    if (!writeTextFile(command, json, planToJson(r)) || !writeTextFile(command, csv, planToCsv(r)))
        return ExitUsage;
    out(json);
    out(csv);
    if (!charts || r.ranked.empty())
        return ExitOk;
    QString error;
    for (const QString &f : renderPlanCharts(r, dir.path(), &error))
        out(f);
    if (!error.isEmpty()) {
        err(QStringLiteral("weft-cli %1: %2").arg(command, error));
        return ExitUsage;
    }
    return ExitOk;
}

} // namespace weft::cli
