#pragma once
// `--fail LIST` and `--fail-random N [--seed S]` of weft-cli simulate (issue 19): a what-if
// scenario (whatif/scenario.h) applied to a copy of the design before it is simulated, and the
// slowdown against the healthy design printed after the result. The design file is not changed.
// Without either option the faults saved in the design file (Design::scenario) are the scenario;
// with one, they are replaced by it.

#include "model/design.h"
#include "whatif/scenario.h"

#include <QCommandLineParser>
#include <optional>

namespace weft::cli {

/// Adds --fail, --fail-random and --seed to `parser`.
void addFailOptions(QCommandLineParser &parser);

/// The failed design when --fail or --fail-random is given.
struct FailedRun
{
    Scenario scenario;
    FailedDesign failed;
};

/// Reads the options for `design`. Returns ExitUsage (message printed) on a bad option or an
/// unknown target; otherwise nullopt, with `run` set when a scenario was asked for or the design
/// carries faults.
std::optional<int> readFailOptions(const QString &command, const QCommandLineParser &parser,
                                   const Design &design, std::optional<FailedRun> &run);

/// Simulates the healthy design and prints "healthy step time ..., slowdown x..." (to stderr
/// when `toStderr`, so JSON and CSV on stdout stay as documented).
void printSlowdown(const Design &healthy, const FailedRun &run, double failedStepTime,
                   bool failedOk, bool toStderr);

} // namespace weft::cli
