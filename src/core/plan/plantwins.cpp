#include "plan/plantwins.h"

#include "plan/planspace.h"

namespace weft {

TrainingConfig simulationTwin(const TrainingConfig &c)
{
    TrainingConfig t = c;
    const int zero = c.effectiveZero();
    if (zero == 3)
        return t;
    const bool nothingToShard = 1LL * c.dp * c.cp == 1 && c.expertDp() <= 1;
    t.zeroStage = nothingToShard ? 0 : (zero >= 1 ? 1 : 0);
    t.distributedOptimizer = false;
    return t;
}

std::string simulationKey(const TrainingConfig &c, const std::string &order)
{
    const TrainingConfig t = simulationTwin(c);
    std::string key;
    for (const PlanKnob &k : planKnobs())
        key += k.format(k.get(t)) + "/";
    return key + std::to_string(t.dp) + "/" + order;
}

} // namespace weft
