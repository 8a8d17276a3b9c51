#pragma once
// A chart that plots one chart-data struct (chartdata.h): the data is validated with
// validateChartData() on the way in, kept, and an invalid struct leaves the chart empty.

#include "chart.h"

namespace weft {

template<typename Data> class DataChart : public Chart
{
public:
    using Chart::Chart;

    /// Plots `data`. Invalid data (see validateChartData) empties the chart, returns false and
    /// sets *error to a message naming the offending element.
    bool setData(const Data &data, QString *error = nullptr)
    {
        const QString e = validateChartData(data);
        m_data = e.isEmpty() ? data : Data {};
        normalize(m_data);
        return acceptData(e, error);
    }
    [[nodiscard]] const Data &data() const { return m_data; }

protected:
    /// Puts accepted data in the order the chart relies on (e.g. sorted points); default none.
    virtual void normalize(Data &) { }

    Data m_data;
};

} // namespace weft
