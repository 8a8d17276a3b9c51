#pragma once
// The workload flags of `weft-cli generate` (issue 3, Command line): model preset and overrides,
// parallelism, batch, schedule, recomputation, sequence parallelism, ZeRO, datatype, placement.

#include "workload/workload.h"

#include <QCommandLineParser>
#include <QString>
#include <optional>

namespace weft::cli {

/// Adds --model --layers --hidden --heads --kv-heads --ffn --gated-mlp --vocab --seq --experts
/// --top-k --moe-ffn --tp --pp --dp --cp --ep --vpp --micro-batch --global-batch --schedule
/// --recompute --sequence-parallel --zero --dtype --placement to `p`.
/// `searched`: flags a command searches over when they are not given (weft-cli plan's knobs:
/// their help says so instead of a default); `fromDesign`: the other flags change the design's
/// workload, so their defaults are the design's (the stated ones without a workload);
/// `required`: flags of those that a design without a workload must be given (weft-cli plan's
/// --model and --global-batch): their help says so instead of the stated default. `refused`:
/// flags the command does not accept, each with why (plan: --dp, --placement); the help shows the
/// reason and refusedFlag() finds one given.
struct WorkloadHelp
{
    QStringList searched;
    bool fromDesign = false;
    QStringList required;
    QList<QPair<QString, QString>> refused;
};
/// The first of `help.refused` set in `p`, as "--flag is not accepted: reason"; empty if none.
QString refusedFlag(const QCommandLineParser &p, const WorkloadHelp &help);
void addWorkloadOptions(QCommandLineParser &p, const WorkloadHelp &help = {});

/// The workload the flags describe, or nullopt when none of them is set. Unset parallel degrees
/// default to 1, except DP, which fills the `accelerators` (dp = accelerators / (tp*pp*cp));
/// the global batch defaults to 4*pp micro-batches per replica. With a `base` (the design's
/// workload) the flags change it instead, as they change a --workload file: --model (or a
/// model flag) its model, each other flag the knob it names; DP keeps the base's world size
/// (dp = tp*pp*cp*dp of the base / (tp*pp*cp)) unless --dp is given. A bad value sets `error`
/// (naming the flag) and returns nullopt.
std::optional<Workload> workloadFromOptions(const QCommandLineParser &p, long long accelerators,
                                            QString &error, const Workload *base = nullptr);

} // namespace weft::cli
