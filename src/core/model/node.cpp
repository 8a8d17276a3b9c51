#include "model/node.h"

namespace weft {

int tierLevel(const Node &n)
{
    if (n.isAccelerator())
        return 0;
    switch (n.role) {
    case SwitchRole::ScaleUp:
        return 0;
    case SwitchRole::Leaf:
        return 1;
    case SwitchRole::Spine:
        return 2;
    case SwitchRole::Core:
        return 3;
    }
    return 0;
}

} // namespace weft
