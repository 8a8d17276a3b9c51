#pragma once
// What the benchmarks print about their own process: CPU time (user + system) and peak
// resident memory, from getrusage(RUSAGE_SELF).

#include <sys/resource.h>

namespace weft::test {

/// User + system CPU time of this process so far, seconds.
inline double cpuSeconds()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec)
        + 1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

/// Peak resident set size of this process, MB (2^20 bytes; ru_maxrss is in KiB on Linux).
inline double peakRssMb()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;
}

} // namespace weft::test
