#pragma once
// The one include of QCustomPlot for Weft. qcustomplot.h uses the `foreach` keyword in header
// templates (QCustomPlot::plottableAt<T>, itemAt<T>), which QT_NO_FOREACH (set on every Weft
// target) removes; map it to a range-based for while the header is read.

#pragma push_macro("foreach")
#undef foreach
#define foreach(variable, container) for (variable : container)
#include <qcustomplot.h>
#pragma pop_macro("foreach")
