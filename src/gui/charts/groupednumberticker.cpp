#include "groupednumberticker.h"

#include <cmath>

namespace weft {

QString groupedTickLabel(double tick, const QString &fallback)
{
    const double whole = std::round(tick);
    if (std::abs(tick) < 1e4 || std::abs(tick) >= 1e15 || std::abs(tick - whole) > 1e-6)
        return fallback;
    QLocale c = QLocale::c(); // ',' groups, whatever the plot's locale omits
    c.setNumberOptions({});
    return c.toString(whole, 'f', 0);
}

QString GroupedNumberTicker::getTickLabel(double tick, const QLocale &locale, QChar formatChar,
                                          int precision)
{
    return groupedTickLabel(tick, QCPAxisTicker::getTickLabel(tick, locale, formatChar, precision));
}

} // namespace weft
