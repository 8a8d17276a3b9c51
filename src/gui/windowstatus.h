#pragma once
// WindowStatus: the main window's status bar: the simulation summary (SimStatus), the counts
// of accelerators, nodes and links of the design and the canvas zoom, and messages (8 s).

#include <QObject>

class QLabel;
class QStatusBar;

namespace weft {

class DesignDocument;
class SimStatus;
class SimulationRunner;
class TopologyView;

class WindowStatus : public QObject
{
    Q_OBJECT
public:
    WindowStatus(QStatusBar *bar, DesignDocument *doc, SimulationRunner *runner,
                 TopologyView *view);

    [[nodiscard]] SimStatus *simStatus() const { return m_sim; }
    /// "N accelerators · N nodes · N links" (object name "designCounts").
    [[nodiscard]] QLabel *countLabel() const { return m_counts; }

    /// "Autosave failed" (object name "autosaveProblem"), shown while autosaving fails.
    [[nodiscard]] QLabel *autosaveLabel() const { return m_autosave; }

public slots:
    void showMessage(const QString &text);
    /// Shows that the autosave fails (`why`: path and cause) or hides it (`why` empty).
    void setAutosaveProblem(const QString &why);
    /// Re-reads the counts from the document.
    void updateCounts();

private:
    QStatusBar *m_bar;
    DesignDocument *m_doc;
    SimStatus *m_sim;
    QLabel *m_counts;
    QLabel *m_zoom;
    QLabel *m_autosave;
};

} // namespace weft
