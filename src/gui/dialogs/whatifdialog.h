#pragma once
// WhatIfDialog (Simulation > What-if Trials...): the step time of the window's design under K
// random cable failures, T trials from a seed, on J threads (whatif/trials.h, as `weft-cli
// whatif`), in the background with progress and Cancel. Shows the distribution (WhatIfChart: step
// time in ms against the share of trials, healthy step dashed; right-click exports it), the median,
// p95 and worst step times with their slowdown, and the cables whose loss hurt most. Modeless: the
// trials run on a copy of the design. Form: ui/whatifdialog.ui.

#include <QDialog>
#include <memory>

class QLabel;

namespace Ui {
class WhatIfDialog;
}

namespace weft {

class DesignDocument;
class WhatIfChart;
class WhatIfRunner;

class WhatIfDialog : public QDialog
{
    Q_OBJECT
public:
    explicit WhatIfDialog(DesignDocument *doc, QWidget *parent = nullptr);
    ~WhatIfDialog() override;

    [[nodiscard]] WhatIfChart *chart() const;
    [[nodiscard]] WhatIfRunner *runner() const { return m_runner; }
    /// The message line: what is running, the statistics of the last run, or why it failed.
    [[nodiscard]] QString message() const;
    /// Sets the fields (tests and scripted use).
    void setTrials(int failures, int trials, int seed, int jobs);

public slots:
    /// Starts the trials of the current fields (does nothing while a run is going).
    void run();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void showProgress(int done, int total);
    void finished();
    void setRunning(bool running);

    std::unique_ptr<Ui::WhatIfDialog> m_ui;
    DesignDocument *m_doc;
    WhatIfRunner *m_runner;
    int m_failures = 0; ///< K of the run shown
};

} // namespace weft
