// String names of the model's enums, as used in design files, the CLI and the UI.
#include "model/fabricparams.h"
#include "model/group.h"
#include "model/hardware.h"
#include "model/node.h"

#include <array>
#include <string_view>
#include <utility>

namespace weft {

namespace {

template<class E, std::size_t N>
const char *nameOf(const std::array<std::pair<E, const char *>, N> &table, E value)
{
    for (const auto &[e, s] : table)
        if (e == value)
            return s;
    return "?";
}

template<class E, std::size_t N>
bool valueOf(const std::array<std::pair<E, const char *>, N> &table, const std::string &s, E &out)
{
    for (const auto &[e, name] : table)
        if (s == name) {
            out = e;
            return true;
        }
    return false;
}

constexpr std::array<std::pair<Technology, const char *>, 5> kTech {{
    {Technology::NVLink, "nvlink"},
    {Technology::InfinityFabric, "infinity-fabric"},
    {Technology::InfiniBand, "infiniband"},
    {Technology::Ethernet, "ethernet"},
    {Technology::PCIe, "pcie"},
}};
constexpr std::array<std::pair<SwitchRole, const char *>, 4> kRole {{
    {SwitchRole::ScaleUp, "scale-up"},
    {SwitchRole::Leaf, "leaf"},
    {SwitchRole::Spine, "spine"},
    {SwitchRole::Core, "core"},
}};
constexpr std::array<std::pair<DataType, const char *>, 3> kDtype {{
    {DataType::BF16, "bf16"},
    {DataType::FP8, "fp8"},
    {DataType::FP4, "fp4"},
}};
constexpr std::array<std::pair<NodeKind, const char *>, 2> kNodeKind {{
    {NodeKind::Accelerator, "accelerator"},
    {NodeKind::Switch, "switch"},
}};
constexpr std::array<std::pair<GroupKind, const char *>, 4> kGroupKind {{
    {GroupKind::ScaleUpDomain, "scale-up-domain"},
    {GroupKind::Rack, "rack"},
    {GroupKind::ScalableUnit, "scalable-unit"},
    {GroupKind::Pod, "pod"},
}};
constexpr std::array<std::pair<FabricKind, const char *>, 3> kFabric {{
    {FabricKind::RailOptimized, "rail-optimized"},
    {FabricKind::FatTree, "fat-tree"},
    {FabricKind::None, "none"},
}};

} // namespace

const char *toString(Technology t)
{
    return nameOf(kTech, t);
}
const char *toString(SwitchRole r)
{
    return nameOf(kRole, r);
}
const char *toString(DataType d)
{
    return nameOf(kDtype, d);
}
const char *toString(NodeKind k)
{
    return nameOf(kNodeKind, k);
}
const char *toString(GroupKind k)
{
    return nameOf(kGroupKind, k);
}
const char *toString(FabricKind k)
{
    return nameOf(kFabric, k);
}
bool fromString(const std::string &s, Technology &out)
{
    return valueOf(kTech, s, out);
}
bool fromString(const std::string &s, SwitchRole &out)
{
    return valueOf(kRole, s, out);
}
bool fromString(const std::string &s, DataType &out)
{
    return valueOf(kDtype, s, out);
}
bool fromString(const std::string &s, NodeKind &out)
{
    return valueOf(kNodeKind, s, out);
}
bool fromString(const std::string &s, GroupKind &out)
{
    return valueOf(kGroupKind, s, out);
}
bool fromString(const std::string &s, FabricKind &out)
{
    return valueOf(kFabric, s, out);
}

} // namespace weft
