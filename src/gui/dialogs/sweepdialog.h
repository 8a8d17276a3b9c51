#pragma once
// SweepDialog (Simulation > Sweep...): varies one parameter of the window's design (scale-up
// domain size, TP, PP, DP, micro-batch, global batch, oversubscription, NIC rate), simulates the
// variants in the background on several threads with progress and Cancel, lists every variant
// (failures with their reason) and sends the chart data to the Results dock's Sweep tab.
// Modeless: the design stays editable while a sweep runs (the sweep works on a copy).
// Form: ui/sweepdialog.ui.

#include "sweep/sweep.h"

#include <QDialog>
#include <memory>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace Ui {
class SweepDialog;
}

namespace weft {

class DesignDocument;
class SweepRunner;
struct SweepChartData;

class SweepDialog : public QDialog
{
    Q_OBJECT
public:
    explicit SweepDialog(DesignDocument *doc, QWidget *parent = nullptr);
    ~SweepDialog() override;

    /// The values offered for a parameter and a sentence saying how they were chosen and which
    /// were left out (with the reason of each).
    struct Defaults
    {
        QString values; ///< "2,4,8,16"; empty when none works (or there is no workload)
        QString note;
    };
    /// Values offered for `p` on `design`: of the candidates (TP: divisors of the heads up to
    /// the world size; PP: divisors of the ranks per pipeline up to the layers; DP, micro-batch,
    /// global batch: halvings and doublings; domain sizes 4-72, oversubscriptions 1-4, NIC
    /// rates 100-800 Gb/s), those whose variant builds (with `catalog`), passes the workload
    /// checks and fits in HBM; at most the 5 nearest to the design's own value.
    static Defaults defaultValues(SweepParam p, const Design &design, const Catalog &catalog);

    [[nodiscard]] QComboBox *parameterBox() const { return m_param; }
    [[nodiscard]] QLineEdit *valuesField() const { return m_values; }
    [[nodiscard]] QSpinBox *jobsBox() const { return m_jobs; }
    [[nodiscard]] QCheckBox *addSeriesBox() const { return m_addSeries; }
    [[nodiscard]] QPushButton *runButton() const { return m_run; }
    [[nodiscard]] QPushButton *cancelButton() const { return m_cancel; }
    [[nodiscard]] QTableWidget *table() const { return m_table; }
    [[nodiscard]] QLabel *messageLabel() const { return m_message; }
    [[nodiscard]] SweepRunner *runner() const { return m_runner; }

public slots:
    /// Starts the sweep of the current fields (does nothing when they are invalid).
    void run();

signals:
    /// A sweep ended with at least one variant simulated: its chart data and whether the user
    /// asked to add it to the series already shown.
    void chartReady(const SweepChartData &data, bool addSeries);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void parameterChanged();
    void validate();
    void showProgress(int done, int total);
    void finished();

    std::unique_ptr<Ui::SweepDialog> m_ui;
    DesignDocument *m_doc;
    SweepRunner *m_runner;
    QComboBox *m_param;
    QLineEdit *m_values;
    QSpinBox *m_jobs;
    QCheckBox *m_addSeries;
    QLabel *m_held;
    QLabel *m_defaultsNote;
    QString m_defaults; ///< the values offered for the current parameter
    QLabel *m_message;
    QProgressBar *m_progress;
    QTableWidget *m_table;
    QPushButton *m_run;
    QPushButton *m_cancel;
    std::vector<double> m_parsed;
};

} // namespace weft
