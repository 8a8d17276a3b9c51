#include "gui/simulation/resultsummary.h"

#include "gui/charts/chartdata.h"

#include <QCoreApplication>
#include <algorithm>

namespace weft {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("weft::ResultSummary", text);
}
} // namespace

std::pair<QString, double> largestExposed(const Breakdown &b)
{
    const std::pair<BreakdownPart, double> parts[]
        = {{BreakdownPart::TpExposed, b.tpExposed}, {BreakdownPart::CpExposed, b.cpExposed},
           {BreakdownPart::EpExposed, b.epExposed}, {BreakdownPart::PpExposed, b.ppExposed},
           {BreakdownPart::Bubble, b.bubble},       {BreakdownPart::DpExposed, b.dpExposed},
           {BreakdownPart::Optimizer, b.optimizer}};
    const auto *best
        = std::max_element(std::begin(parts), std::end(parts),
                           [](const auto &x, const auto &y) { return x.second < y.second; });
    if (best->second <= 0)
        return {};
    return {breakdownPartName(best->first), best->second};
}

QString durationText(double seconds)
{
    if (seconds >= 1)
        return QStringLiteral("%1 s").arg(seconds, 0, 'f', 3);
    if (seconds >= 1e-3)
        return QStringLiteral("%1 ms").arg(seconds * 1e3, 0, 'f', seconds >= 0.1 ? 0 : 1);
    return QStringLiteral("%1 µs").arg(seconds * 1e6, 0, 'f', 0);
}

QString gigabytesText(double bytes)
{
    return QString::number(bytes / 1e9, 'f', 1);
}

QString summaryText(const SimResult &r)
{
    if (!r.ok) {
        const auto err = std::find_if(r.warnings.begin(), r.warnings.end(), [](const Finding &f) {
            return f.severity == Severity::Error;
        });
        return err == r.warnings.end()
            ? tr("The step could not be simulated.")
            : tr("Cannot simulate: %1").arg(QString::fromStdString(err->message));
    }
    const double tps = r.tokensPerSecond;
    const QString tokens = tps >= 1e6 ? QStringLiteral("%1M").arg(tps / 1e6, 0, 'f', 2)
        : tps >= 1e3                  ? QStringLiteral("%1k").arg(tps / 1e3, 0, 'f', 1)
                                      : QString::number(tps, 'f', 0);
    QString text = tr("Step %1 · %2 tokens/s · MFU %3%")
                       .arg(durationText(r.stepTime), tokens)
                       .arg(r.mfu * 100, 0, 'f', 1);
    const auto [part, seconds] = largestExposed(r.breakdown);
    if (!part.isEmpty())
        text += tr(" · largest overhead: %1 %2").arg(part, durationText(seconds));
    if (r.breakdown.hostBound > 0)
        text += tr(" · host-bound %1 of compute").arg(durationText(r.breakdown.hostBound));
    if (!r.memoryFits)
        text += tr(" · memory over HBM");
    return text;
}

QString whatIfText(int faults, double stepTime, std::optional<double> healthy)
{
    const QString head
        = faults == 1 ? tr("What if (1 fault)") : tr("What if (%1 faults)").arg(faults);
    if (!healthy || *healthy <= 0)
        return head + tr(": the healthy design could not be simulated");
    const double ratio = stepTime / *healthy;
    return head
        + tr(": slowdown ×%1 (%2%3%) against healthy %4")
              .arg(ratio, 0, 'f', 3)
              .arg(ratio >= 1 ? QStringLiteral("+") : QString())
              .arg((ratio - 1) * 100, 0, 'f', 1)
              .arg(durationText(*healthy));
}

QString resultChartHint(bool hasAccelerators, bool hasWorkload, const SimResult *result)
{
    if (!hasAccelerators)
        return tr("The design is empty.\nFile > New Cluster... generates one, or drag "
                  "accelerators\nand switches from the Palette onto the canvas.");
    if (!hasWorkload)
        return tr("No simulation result yet.\nGive the design a workload in the Partitions "
                  "dock,\nthen Simulation > Simulate (F5).");
    if (result && !result->ok)
        return summaryText(*result) + tr("\nThe Findings dock lists what to fix.");
    return tr("Not simulated yet.\nSimulation > Simulate (F5) runs the design's workload\nand "
              "plots the step here.");
}

QString statusSummary(bool hasAccelerators, bool hasWorkload, const SimResult *result, bool stale,
                      const std::vector<Finding> &findings, int faults,
                      std::optional<double> healthyStepTime)
{
    if (!hasAccelerators)
        return tr("The design is empty: File > New Cluster... generates one, or drag accelerators "
                  "from the Palette.");
    if (!hasWorkload)
        return tr("No workload: add one in the Partitions dock to simulate a training step.");
    const auto error = std::find_if(findings.begin(), findings.end(),
                                    [](const Finding &f) { return f.severity == Severity::Error; });
    if (error != findings.end() && (!result || stale))
        return tr("Cannot simulate: %1").arg(QString::fromStdString(error->message));
    if (result)
        return (faults > 0 && result->ok
                    ? whatIfText(faults, result->stepTime, healthyStepTime) + QStringLiteral(" · ")
                    : QString())
            + summaryText(*result)
            + (stale ? tr(" (out of date: Simulation > Simulate, F5)") : QString());
    return tr("Not simulated yet: Simulation > Simulate (F5)");
}

} // namespace weft
