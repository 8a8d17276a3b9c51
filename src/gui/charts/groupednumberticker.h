#pragma once
// Default axis ticker of Weft's charts: QCustomPlot's own ticks, but large whole numbers are
// written out with digit grouping ("750,000", "1,000,000") instead of QCustomPlot's default
// "gbd" format, which mixes plain numbers and powers of ten on one axis ("750000", "1·10⁶").

#include "qcp.h"

namespace weft {

/// `tick` as an axis label: whole values of 10,000 and more (in magnitude) with the thousands
/// grouped ("1,250,000"); anything else as QCustomPlot formats it (`fallback`).
QString groupedTickLabel(double tick, const QString &fallback);

class GroupedNumberTicker : public QCPAxisTicker
{
protected:
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar,
                         int precision) override;
};

} // namespace weft
