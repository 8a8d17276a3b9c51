#include "document/pastenames.h"

#include <cctype>
#include <map>
#include <set>
#include <string>

namespace weft {

namespace {

// "gpu57" -> {"gpu", 57}; "leaf" -> {"leaf", -1}.
std::pair<std::string, long long> split(const std::string &name)
{
    std::size_t i = name.size();
    while (i > 0 && std::isdigit(static_cast<unsigned char>(name[i - 1])))
        --i;
    if (i == name.size() || name.size() - i > 15)
        return {name, -1};
    return {name.substr(0, i), std::stoll(name.substr(i))};
}

// The names in use and the highest number of each series.
class NameSpace
{
public:
    void add(const std::string &name)
    {
        m_used.insert(name);
        const auto [prefix, number] = split(name);
        auto [it, fresh] = m_highest.try_emplace(prefix, number);
        if (!fresh)
            it->second = std::max(it->second, number);
    }

    // `name` when free, else the next of its series; the result is taken.
    std::string claim(const std::string &name)
    {
        std::string out = name;
        if (m_used.count(name)) {
            const auto [prefix, number] = split(name);
            if (number >= 0) {
                long long next = std::max(m_highest[prefix], number) + 1;
                while (m_used.count(out = prefix + std::to_string(next)))
                    ++next;
            } else {
                for (int k = 2; m_used.count(out = name + "-" + std::to_string(k)); ++k) { }
            }
        }
        add(out);
        return out;
    }

private:
    std::set<std::string> m_used;
    std::map<std::string, long long> m_highest;
};

} // namespace

void mintUniqueNames(Fragment &fragment, const Design &design)
{
    NameSpace nodes, groups;
    for (const Node &n : design.nodes())
        nodes.add(n.name);
    for (const Group &g : design.groups())
        groups.add(g.name);
    for (Node &n : fragment.nodes)
        if (!n.name.empty())
            n.name = nodes.claim(n.name);
    for (Group &g : fragment.groups)
        if (!g.name.empty())
            g.name = groups.claim(g.name);
}

} // namespace weft
