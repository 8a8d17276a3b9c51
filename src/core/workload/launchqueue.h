#pragma once
// One CUDA stream fed by one host thread (simulator.md, Compute: the host/launch term). The host
// launches kernels one after another, each costing it some time, and runs ahead of the GPU
// through the stream's launch queue; the GPU runs the kernels in launch order, each as soon as
// the one before it has finished and the host has launched it. A run of kernels therefore takes
// at least the longer of its host and GPU times, and more when host-heavy and GPU-heavy kernels
// follow each other: the GPU idles while the host launches a burst of small kernels, then the
// host waits at the next synchronisation while the GPU works through a large one. This is the
// pipelined launch timeline that the Exascale Computing Project's PETSc/TAO highlight draws
// (exascaleproject.org, "PETSc/TAO: how to create, maintain and modernize a numerical toolkit",
// fig. 6, "pipelined kernel launches vs. interrupted kernel launches": kernel i starts at
// max(end of kernel i - 1, its launch)), and what the Megatron-LM DeepSeek-V3 GB200 guide
// (sec. 2) sees in its baseline's Nsight timeline: "large gaps between kernels".

namespace weft {

/// The timeline of one stream between two host synchronisations. Seconds.
class LaunchQueue
{
public:
    /// `n` kernels (n > 0; a fraction counts as one kernel of the group) of together `gpu`
    /// seconds, taken as equal, each costing the host `perLaunch` seconds (0: captured in a CUDA
    /// graph already launched). Kernel j (1..n) starts at max(end of kernel j - 1, host + j
    /// perLaunch); as the terms are linear in j, the group ends at
    ///     max(gpuEnd + gpu, host + perLaunch + gpu, host + n perLaunch + gpu / n).
    /// n <= 0 queues `gpu` behind what is queued (work launched with an earlier kernel).
    void push(double n, double gpu, double perLaunch);
    /// The host waits for the stream (cudaStreamSynchronize, a device-to-host copy): returns the
    /// time from the previous synchronisation until both are done, and starts a new run.
    double sync();
    /// The time of the open run: max(GPU end, host time).
    [[nodiscard]] double wall() const;
    /// GPU busy time of the open run.
    [[nodiscard]] double gpu() const { return m_busy; }
    /// Host time of the open run.
    [[nodiscard]] double host() const { return m_host; }

private:
    double m_host = 0; ///< the host's clock: when it has launched everything pushed
    double m_gpuEnd = 0; ///< when the GPU finishes what is queued
    double m_busy = 0;
};

} // namespace weft
