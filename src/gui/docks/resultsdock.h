#pragma once
// ResultsDock: the charts of the last simulation (breakdown, pipeline timeline, utilization per
// tier, the selected link over the step, memory per stage), under a one-line summary. Each chart
// exports from its context menu.

#include <QDockWidget>
#include <memory>

class QLabel;

namespace weft {

class ChartsPanel;
class DesignDocument;
class SimulationRunner;
struct SimResult;

class ResultsDock : public QDockWidget
{
    Q_OBJECT
public:
    ResultsDock(DesignDocument *doc, SimulationRunner *runner, QWidget *parent = nullptr);

    [[nodiscard]] ChartsPanel *charts() const { return m_charts; }
    [[nodiscard]] QString summary() const;

private:
    void showResult();
    void showSelectedLink();
    void updateSummary();

    DesignDocument *m_doc;
    SimulationRunner *m_runner;
    QLabel *m_summary;
    ChartsPanel *m_charts;
};

} // namespace weft
