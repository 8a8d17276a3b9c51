#pragma once
// A chart's export context menu outside the Results dock (the what-if trials dialog, ...): the
// same entries as ChartsPanel's (Export as PNG/PDF/SVG, Export data as CSV, Export options,
// Reset view) with the same user settings (size, DPI, last folder and format).

#include "chartexporter.h"

#include <QString>
#include <functional>

class QMenu;
class QWidget;

namespace weft {

class Chart;

/// Writes `chart` to `path` in `format` with the user's export size and DPI; false with
/// *error (naming the file and the cause) on failure.
bool exportChartTo(Chart *chart, ChartFormat format, const QString &path, QString *error);
/// Asks for a path (DialogPresenter::exportFileName, in the last export folder), writes the
/// file, records its folder and format in the settings; an error is shown. Returns the written
/// path, "" when cancelled or failed.
QString exportChartWithDialog(QWidget *parent, Chart *chart, ChartFormat format);
/// The context menu of `chart` (owned by the caller); its export entries call `exportTo`.
QMenu *createChartMenu(QWidget *parent, Chart *chart,
                       const std::function<void(ChartFormat)> &exportTo);
/// Gives `chart` that menu on a right click, exporting with exportChartWithDialog().
void installChartMenu(Chart *chart);

} // namespace weft
