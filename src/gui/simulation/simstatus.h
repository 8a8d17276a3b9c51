#pragma once
// SimStatus: the status-bar summary that is always visible: step time, tokens/s, MFU and the
// largest exposed cost of the last simulation (or why there is none), with a progress bar and a
// cancel button while a simulation runs.

#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;

namespace weft {

class DesignDocument;
class SimulationRunner;

class SimStatus : public QWidget
{
    Q_OBJECT
public:
    SimStatus(DesignDocument *doc, SimulationRunner *runner, QWidget *parent = nullptr);
    [[nodiscard]] QString text() const;

private:
    void sync();

    DesignDocument *m_doc;
    SimulationRunner *m_runner;
    QLabel *m_label;
    QProgressBar *m_progress;
    QToolButton *m_cancel;
};

} // namespace weft
