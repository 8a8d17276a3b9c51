#pragma once
// The main window: assembles one document's canvas, docks and actions (it only assembles;
// actions live in handler classes under actions/). One window per open design.

#include "model/design.h"

#include <QMainWindow>

class QLabel;

namespace weft {

class AnalysisActions;
class Autosave;
class CompareDock;
class DesignDocument;
class EditActions;
class FileActions;
class FindingsDock;
class PaletteDock;
class PartitionsDock;
class PropertiesDock;
class ResultsDock;
class SimStatus;
class SimulationActions;
class SimulationRunner;
class SettingsActions;
class TopologyScene;
class TopologyView;
class ViewActions;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Opens a new, empty window (deleted on close) and shows it.
    static MainWindow *openWindow();
    /// All open main windows.
    static QList<MainWindow *> windows();
    /// Closes every window (each may ask about unsaved changes).
    static void closeAllWindows();
    /// After a crash: offers the autosaved designs (unless WEFT_NO_AUTOSAVE_PROMPT is set) and
    /// opens the accepted ones in windows. Returns the number restored.
    static int offerAutosaveRestore();

    /// Opens `path` here when this window holds an untouched empty design, else in a new window.
    /// Returns the window showing it, or nullptr when the file could not be read.
    MainWindow *openFile(const QString &path);

    [[nodiscard]] DesignDocument *document() const { return m_doc; }
    [[nodiscard]] TopologyView *view() const { return m_view; }
    [[nodiscard]] PaletteDock *paletteDock() const { return m_palette; }
    [[nodiscard]] PropertiesDock *properties() const { return m_properties; }
    [[nodiscard]] PartitionsDock *partitions() const { return m_partitions; }
    [[nodiscard]] FileActions *fileActions() const { return m_fileActions; }
    [[nodiscard]] EditActions *editActions() const { return m_editActions; }
    [[nodiscard]] ViewActions *viewActions() const { return m_viewActions; }
    [[nodiscard]] SettingsActions *settingsActions() const { return m_settingsActions; }
    [[nodiscard]] Autosave *autosave() const { return m_autosave; }
    [[nodiscard]] SimulationRunner *simulation() const { return m_runner; }
    [[nodiscard]] SimulationActions *simulationActions() const { return m_simActions; }
    [[nodiscard]] ResultsDock *results() const { return m_results; }
    [[nodiscard]] FindingsDock *findings() const { return m_findings; }
    [[nodiscard]] CompareDock *compareDock() const { return m_compare; }
    [[nodiscard]] AnalysisActions *analysisActions() const { return m_analysisActions; }
    [[nodiscard]] SimStatus *simStatus() const { return m_simStatus; }

    /// Writes the canvas zoom and centre into `view` (saved with the design).
    void storeViewState(ViewState &view) const;

    /// Where a window opens when no geometry was saved: 90% of the screen's `available`
    /// geometry, centred.
    [[nodiscard]] static QRect firstRunGeometry(const QRect &available);
    /// Version of the dock arrangement saved in QSettings ("window/state"); a state saved by
    /// another version is ignored and the first-run arrangement stays.
    static constexpr int kLayoutVersion = 1;

public slots:
    void showNewClusterWizard();

signals:
    void statusMessage(const QString &text);

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void updateTitle();
    void restoreViewState();
    /// The first-run dock arrangement (a saved state replaces it).
    void arrangeDocks();
    /// Geometry and dock state saved at the last close, or the first-run ones.
    void restoreWindowLayout();
    /// First-run dock sizes for the window's current size.
    void sizeDocks();
    [[nodiscard]] bool isPristine() const;

    DesignDocument *m_doc;
    TopologyScene *m_scene;
    TopologyView *m_view;
    PaletteDock *m_palette;
    PropertiesDock *m_properties;
    PartitionsDock *m_partitions;
    FileActions *m_fileActions;
    EditActions *m_editActions;
    ViewActions *m_viewActions;
    SettingsActions *m_settingsActions;
    Autosave *m_autosave;
    SimulationRunner *m_runner;
    SimulationActions *m_simActions;
    ResultsDock *m_results;
    FindingsDock *m_findings;
    CompareDock *m_compare;
    AnalysisActions *m_analysisActions;
    SimStatus *m_simStatus;
    QLabel *m_zoomLabel;
    QLabel *m_countLabel;
    bool m_sizeDocksOnShow = false; ///< no saved state: size the docks when first shown
};

} // namespace weft
