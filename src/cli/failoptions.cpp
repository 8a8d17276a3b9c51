#include "failoptions.h"

#include "command.h"
#include "sim/simulator.h"

namespace weft::cli {

namespace {

const QString kFail = QStringLiteral("fail");
const QString kFailRandom = QStringLiteral("fail-random");
const QString kSeed = QStringLiteral("seed");

QString ms(double s)
{
    return QStringLiteral("%1 ms").arg(s * 1e3, 0, 'f', 2);
}

} // namespace

void addFailOptions(QCommandLineParser &parser)
{
    parser.addOption(QCommandLineOption(
        kFail,
        QStringLiteral("What if: simulate with these failures or degradations, comma-separated: "
                       "link:ID (link down), cable:ID (one cable of the bundle down), "
                       "switch:NAME (switch down), link:ID@F (rate x F, e.g. 0.5), gpu:NAME@F "
                       "(straggler at F of its clock). The slowdown against the healthy design "
                       "is printed; the file is not changed."),
        QStringLiteral("LIST")));
    parser.addOption(QCommandLineOption(
        kFailRandom, QStringLiteral("What if: N random scale-out cables down (see --seed)."),
        QStringLiteral("N")));
    parser.addOption(QCommandLineOption(kSeed,
                                        QStringLiteral("Seed of --fail-random (default: 1)."),
                                        QStringLiteral("S"), QStringLiteral("1")));
}

std::optional<int> readFailOptions(const QString &command, const QCommandLineParser &parser,
                                   const Design &design, std::optional<FailedRun> &run)
{
    run.reset();
    const bool asked = parser.isSet(kFail) || parser.isSet(kFailRandom);
    if (!asked && design.scenario.empty())
        return std::nullopt;
    const auto usage = [&](const QString &msg) {
        err(QStringLiteral("weft-cli %1: %2").arg(command, msg));
        return std::optional<int>(ExitUsage);
    };
    Scenario sc = asked ? Scenario {} : design.scenario; // the faults saved in the design file
    if (parser.isSet(kFail)) {
        std::string error;
        const auto parsed = parseScenario(parser.value(kFail).toStdString(), error);
        if (!parsed)
            return usage(QStringLiteral("--fail: %1").arg(QString::fromStdString(error)));
        sc = *parsed;
    }
    if (parser.isSet(kFailRandom)) {
        bool okN = false, okS = false;
        const int n = parser.value(kFailRandom).toInt(&okN);
        const qulonglong seed = parser.value(kSeed).toULongLong(&okS);
        if (!okN || n < 1)
            return usage(QStringLiteral("--fail-random must be a whole number >= 1 (got '%1')")
                             .arg(parser.value(kFailRandom)));
        if (!okS)
            return usage(QStringLiteral("--seed must be a whole number >= 0 (got '%1')")
                             .arg(parser.value(kSeed)));
        const Scenario random = randomCableFailures(design, n, seed);
        sc.faults.insert(sc.faults.end(), random.faults.begin(), random.faults.end());
    }
    std::string error;
    std::optional<FailedDesign> failed = applyScenario(design, sc, error);
    if (!failed)
        return usage(QStringLiteral("--fail: %1").arg(QString::fromStdString(error)));
    run = FailedRun {sc, std::move(*failed)};
    return std::nullopt;
}

void printSlowdown(const Design &healthy, const FailedRun &run, double failedStepTime,
                   bool failedOk, bool toStderr)
{
    const auto print = [toStderr](const QString &s) { toStderr ? err(s) : out(s); };
    print(QStringLiteral("what if          %1").arg(QString::fromStdString(run.scenario.label())));
    const SimResult h = simulate(healthy);
    if (!h.ok) {
        print(QStringLiteral("healthy design   not simulated"));
        return;
    }
    if (!failedOk) {
        print(QStringLiteral("healthy step     %1; the failed design cannot run (see above)")
                  .arg(ms(h.stepTime)));
        return;
    }
    print(QStringLiteral("healthy step     %1; slowdown x%2 (%3%4%)")
              .arg(ms(h.stepTime))
              .arg(failedStepTime / h.stepTime, 0, 'f', 3)
              .arg(failedStepTime >= h.stepTime ? QStringLiteral("+") : QString())
              .arg((failedStepTime / h.stepTime - 1) * 100, 0, 'f', 1));
}

} // namespace weft::cli
