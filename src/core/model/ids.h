#pragma once
// Strong ids for the objects of a design. Ids are stable: they are written to design files,
// referenced by links and undo commands, and never reused within one design.

#include <compare>
#include <cstdint>
#include <functional>
#include <limits>

namespace weft {

/// A typed integer id; `Tag` keeps node, link and group ids from being mixed up.
template<class Tag>
struct Id
{
    static constexpr std::uint32_t kInvalid = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t value = kInvalid;

    constexpr Id() = default;
    constexpr explicit Id(std::uint32_t v) : value(v) {}
    [[nodiscard]] constexpr bool valid() const { return value != kInvalid; }
    constexpr auto operator<=>(const Id &) const = default;
};

struct NodeTag;
struct LinkTag;
struct GroupTag;
using NodeId = Id<NodeTag>;
using LinkId = Id<LinkTag>;
using GroupId = Id<GroupTag>;

} // namespace weft

template<class Tag>
struct std::hash<weft::Id<Tag>>
{
    std::size_t operator()(const weft::Id<Tag> &id) const noexcept
    {
        return std::hash<std::uint32_t>{}(id.value);
    }
};
