#pragma once
// Reproducible draws for the randomized tests: Knuth's MMIX linear congruential generator
// (multiplier 6364136223846793005, increment 1442695040888963407), its high bits taken.

#include <cstdint>

namespace weft::test {

class SeededDraws
{
public:
    explicit SeededDraws(std::uint64_t seed)
        : m_state(seed)
    {
    }
    /// A draw in [0, n), for n > 0.
    int operator()(int n)
    {
        m_state = m_state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<int>((m_state >> 33) % static_cast<std::uint64_t>(n));
    }

private:
    std::uint64_t m_state;
};

} // namespace weft::test
