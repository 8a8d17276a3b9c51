#include "workload/launchqueue.h"

#include <algorithm>

namespace weft {

void LaunchQueue::push(double n, double gpu, double perLaunch)
{
    gpu = std::max(0.0, gpu);
    perLaunch = std::max(0.0, perLaunch);
    m_busy += gpu;
    if (n <= 0) {
        m_gpuEnd += gpu;
        return;
    }
    const double kernels = std::max(1.0, n);
    const double first = m_host + perLaunch + gpu; // the first kernel waits for its launch
    const double last = m_host + n * perLaunch + gpu / kernels; // the last one too
    m_gpuEnd = std::max({m_gpuEnd + gpu, first, last});
    m_host += n * perLaunch;
}

double LaunchQueue::sync()
{
    const double t = wall();
    *this = LaunchQueue {};
    return t;
}

double LaunchQueue::wall() const
{
    return std::max(m_gpuEnd, m_host);
}

} // namespace weft
