#include "workload/overlap.h"

#include <algorithm>

namespace weft {

double ringCpExposed(int cp, double stepComm, double blockAttention)
{
    if (cp <= 1)
        return 0;
    return (cp - 1) * std::max(0.0, stepComm - blockAttention);
}

double ringCpStepBytes(const TransformerSpec &m, const TrainingConfig &c)
{
    const double tokens = double(c.microBatch) * m.seq / std::max(1, c.cp);
    return 2.0 * tokens * (m.keyWidth() + m.valueWidth()) / std::max(1, c.tp); // BF16 K and V
}

double fsdpPrefetchExposed(const std::vector<double> &gather, const std::vector<double> &compute)
{
    if (gather.empty())
        return 0;
    double exposed = gather.front();
    for (std::size_t i = 1; i < gather.size(); ++i)
        exposed += std::max(0.0, gather[i] - (i - 1 < compute.size() ? compute[i - 1] : 0));
    return exposed;
}

} // namespace weft
