#include "whatif/trials.h"

#include "io/csv.h"
#include "sim/simulator.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <thread>

namespace weft {

namespace {

std::string firstError(const SimResult &r)
{
    for (const Finding &f : r.warnings)
        if (f.severity == Severity::Error)
            return f.code + ": " + f.message;
    return "the step could not be simulated";
}

} // namespace

std::uint64_t trialSeed(std::uint64_t seed, int index)
{
    std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (static_cast<std::uint64_t>(index) + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

TrialResult simulateScenario(const Design &design, const Scenario &scenario)
{
    TrialResult t;
    t.scenario = scenario;
    std::string error;
    const std::optional<FailedDesign> failed = applyScenario(design, scenario, error);
    if (!failed) {
        t.problem = error;
        return t;
    }
    SimOptions o;
    o.exploitSymmetry = failed->exploitSymmetry;
    const SimResult r = simulate(failed->design, o);
    t.ok = r.ok;
    t.stepTime = r.stepTime;
    if (!r.ok)
        t.problem = firstError(r);
    return t;
}

WhatIfResult runWhatIf(const Design &design, const WhatIfOptions &options)
{
    WhatIfResult out;
    const TrialResult healthy = simulateScenario(design, {});
    if (!healthy.ok) {
        out.problem = "the healthy design does not simulate: " + healthy.problem;
        return out;
    }
    out.ok = true;
    out.healthyStepTime = healthy.stepTime;
    const int count = std::max(1, options.shardCount);
    std::vector<int> mine;
    for (int i = 0; i < options.trials; ++i)
        if (i % count == options.shardIndex)
            mine.push_back(i);
    out.trials.resize(mine.size());
    std::atomic<std::size_t> next {0};
    std::atomic<bool> stop {false};
    std::mutex progressMutex;
    int done = 0;
    const auto worker = [&] {
        for (std::size_t k = next++; k < mine.size() && !stop; k = next++) {
            const int i = mine[k];
            TrialResult t = simulateScenario(
                design, randomCableFailures(design, options.failures, trialSeed(options.seed, i)));
            t.index = i;
            if (t.ok)
                t.slowdown = t.stepTime / out.healthyStepTime;
            out.trials[k] = std::move(t);
            const std::lock_guard lock(progressMutex);
            ++done;
            if (options.progress && !options.progress(done, static_cast<int>(mine.size())))
                stop = true;
        }
    };
    std::vector<std::thread> threads;
    const int jobs = std::clamp(options.jobs, 1, std::max(1, static_cast<int>(mine.size())));
    for (int j = 1; j < jobs; ++j)
        threads.emplace_back(worker);
    worker();
    for (std::thread &t : threads)
        t.join();
    out.cancelled = stop;
    if (stop)
        out.trials.resize(std::min(out.trials.size(), static_cast<std::size_t>(done)));
    return out;
}

std::string trialsCsv(const std::vector<TrialResult> &trials)
{
    std::string out = "trial,failures,ok,step_time_s,slowdown,problem\n";
    for (const TrialResult &t : trials) {
        std::string faults;
        for (const Fault &f : t.scenario.faults)
            faults += (faults.empty() ? "" : ";") + f.label();
        out += std::to_string(t.index) + "," + csvField(faults) + "," + (t.ok ? "1" : "0") + ","
            + (t.ok ? csvNumber(t.stepTime) : std::string()) + ","
            + (t.ok ? csvNumber(t.slowdown) : std::string()) + "," + csvField(t.problem) + "\n";
    }
    return out;
}

WhatIfStats whatIfStats(const std::vector<TrialResult> &trials)
{
    WhatIfStats s;
    std::vector<double> times;
    std::map<std::string, std::pair<double, int>> byCable;
    for (const TrialResult &t : trials) {
        if (!t.ok) {
            ++s.failed;
            continue;
        }
        times.push_back(t.stepTime);
        for (const Fault &f : t.scenario.faults) {
            auto &[sum, n] = byCable[f.label()];
            sum += t.slowdown;
            ++n;
        }
    }
    s.ran = static_cast<int>(times.size());
    if (times.empty())
        return s;
    std::sort(times.begin(), times.end());
    const auto rank = [&](double q) {
        const auto k = static_cast<std::size_t>(std::ceil(q * static_cast<double>(times.size())));
        return times[std::clamp<std::size_t>(k, 1, times.size()) - 1];
    };
    s.median = rank(0.5);
    s.p95 = rank(0.95);
    s.worst = times.back();
    for (const auto &[cable, v] : byCable)
        s.hurtMost.emplace_back(cable, v.first / v.second);
    std::stable_sort(s.hurtMost.begin(), s.hurtMost.end(),
                     [](const auto &a, const auto &b) { return a.second > b.second; });
    if (s.hurtMost.size() > 10)
        s.hurtMost.resize(10);
    return s;
}

} // namespace weft
