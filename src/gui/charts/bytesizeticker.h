#pragma once
// Axis ticker for byte sizes on a log2 axis, as nccl-tests plots them: ticks at powers of two
// labelled 1, 2, ..., 512, 1K, ..., 1M, ..., 8G; the exponent step (1, 2, 5 or 10, so 1K,
// 1M and 1G stay on the grid) grows so at most `maxTicks` labels show at the current zoom.

#include "qcp.h"

namespace weft {

/// "1K", "256M", "8G" for 2^10, 2^28, 2^33 bytes; values that are not powers of two get one
/// decimal ("1.5K"). Binary prefixes (K = 1024), as nccl-tests prints sizes.
QString byteSizeLabel(double bytes);

class ByteSizeTicker : public QCPAxisTicker
{
public:
    explicit ByteSizeTicker(int maxTicks = 16);
    void setMaxTicks(int maxTicks) { m_maxTicks = std::max(2, maxTicks); }

protected:
    QVector<double> createTickVector(double tickStep, const QCPRange &range) override;
    QVector<double> createSubTickVector(int subTickCount, const QVector<double> &ticks) override;
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar,
                         int precision) override;

private:
    int m_maxTicks;
};

} // namespace weft
