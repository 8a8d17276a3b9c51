#pragma once
// CompareDock: the designs compared with the current one (product.md, Compare). A table with
// the current result in the first row and every pinned or loaded design below it (label,
// parallelism, step time, change against the current step time, tokens/s, MFU, peak memory
// per GPU); labels are editable. Its actions pin the current result, add a design file
// (simulated in the background, with a Cancel button), remove the selected rows and clear.
// The Results dock's charts show the same designs side by side.

#include <QDockWidget>

class QAction;
class QLabel;
class QTableWidget;
class QToolButton;

namespace weft {

class Comparison;
class DesignDocument;
class SimulationRunner;

class CompareDock : public QDockWidget
{
    Q_OBJECT
public:
    CompareDock(DesignDocument *doc, SimulationRunner *runner, Comparison *comparison,
                QWidget *parent = nullptr);

    [[nodiscard]] QTableWidget *table() const { return m_table; }

    /// Adds the current result to the comparison (enabled when it is current and ok).
    QAction *pin;
    /// Asks for a design file, simulates it in the background and adds it.
    QAction *addFile;
    /// Removes the selected compared designs.
    QAction *remove;
    /// Removes every compared design.
    QAction *clear;

public slots:
    /// Pins the current result under `label` (the design name and its parallelism when empty).
    void pinCurrent(const QString &label = {});

private:
    void refresh();
    void updateActions();
    void renamed(int row, int column);

    DesignDocument *m_doc;
    SimulationRunner *m_runner;
    Comparison *m_comparison;
    QTableWidget *m_table;
    QLabel *m_busy;
    QToolButton *m_cancelFile;
    bool m_filling = false;
};

} // namespace weft
