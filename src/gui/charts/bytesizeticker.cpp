#include "bytesizeticker.h"

#include <cmath>

namespace weft {

QString byteSizeLabel(double bytes)
{
    static const char *const prefixes[] = {"", "K", "M", "G", "T", "P"};
    int p = 0;
    while (bytes >= 1024 && p < 5) {
        bytes /= 1024;
        ++p;
    }
    const bool whole = std::abs(bytes - std::round(bytes)) < 1e-9;
    return QString::number(bytes, 'f', whole ? 0 : 1) + QLatin1String(prefixes[p]);
}

ByteSizeTicker::ByteSizeTicker(int maxTicks)
    : m_maxTicks(maxTicks)
{
}

QVector<double> ByteSizeTicker::createTickVector(double, const QCPRange &range)
{
    QVector<double> ticks;
    if (range.lower <= 0 || range.upper <= range.lower)
        return ticks;
    const int first = int(std::ceil(std::log2(range.lower) - 1e-9));
    const int last = int(std::floor(std::log2(range.upper) + 1e-9));
    const int span = last - first + 1;
    int step = 1;
    for (int candidate : {1, 2, 5, 10, 20}) {
        step = candidate;
        if ((span + candidate - 1) / candidate <= m_maxTicks)
            break;
    }
    // Align to multiples of the step so the labels stay put while panning.
    const int start = int(std::ceil(double(first) / step)) * step;
    for (int e = start; e <= last; e += step)
        ticks << std::ldexp(1.0, e);
    return ticks;
}

QVector<double> ByteSizeTicker::createSubTickVector(int, const QVector<double> &)
{
    return {};
}

QString ByteSizeTicker::getTickLabel(double tick, const QLocale &, QChar, int)
{
    return byteSizeLabel(tick);
}

} // namespace weft
