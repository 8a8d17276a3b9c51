#pragma once
// A contention-free communication backend for schedule tests: every request takes
// sum over calls of repeat * (latency + bytes / bandwidth), independently of the others.

#include "sim/comm.h"

#include <map>
#include <vector>

namespace weft::test {

class FakeComm : public CommBackend
{
public:
    FakeComm(double latency, double bandwidth)
        : m_latency(latency)
        , m_bandwidth(bandwidth)
    {
    }

    CommId submit(const CommRequest &r, double t) override
    {
        double d = 0;
        for (const CollectiveCall &c : r.calls)
            d += c.repeat * (m_latency + (m_bandwidth > 0 ? c.bytes / m_bandwidth : 0));
        const CommId id = m_next++;
        m_done.emplace(t + d, id);
        ++submitted;
        return id;
    }
    double nextCompletionTime() override { return m_done.empty() ? kNever : m_done.begin()->first; }
    std::vector<CommId> advanceTo(double t) override
    {
        std::vector<CommId> out;
        while (!m_done.empty() && m_done.begin()->first <= t) {
            out.push_back(m_done.begin()->second);
            m_done.erase(m_done.begin());
        }
        return out;
    }
    int submitted = 0;

private:
    double m_latency, m_bandwidth;
    std::multimap<double, CommId> m_done;
    CommId m_next = 1;
};

} // namespace weft::test
