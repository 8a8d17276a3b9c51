#pragma once
// The main window: assembles one document's canvas, docks and actions (it only assembles;
// actions live in handler classes under actions/). One window per open design.

#include "gui/actions/designwindow.h"
#include "gui/windowlayout.h"
#include "model/design.h"

#include <QMainWindow>

namespace weft {

class AnalysisActions;
class HelpActions;
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
class WindowStatus;

class MainWindow : public QMainWindow, public DesignWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // The windows of the application (MainWindows::instance(), gui/mainwindows.h).
    /// Opens a new, empty window (deleted on close) and shows it.
    static MainWindow *openWindow();
    /// All open main windows.
    static QList<MainWindow *> windows();
    /// Closes every window (each may ask about unsaved changes).
    static void closeAllWindows();
    /// After a crash: offers the autosaved designs (offerAutosaveRestore in
    /// gui/actions/autosaverestore.h). Returns the number restored.
    static int offerAutosaveRestore();

    /// Opens `path` (FileActions::openFile): here when this window holds an untouched empty
    /// design, else in a new window. Returns the window showing it, or nullptr when the file
    /// could not be read.
    MainWindow *openFile(const QString &path);

    [[nodiscard]] QWidget *widget() override { return this; }
    [[nodiscard]] DesignDocument *document() const override { return m_doc; }
    [[nodiscard]] TopologyView *view() const override { return m_view; }
    [[nodiscard]] PaletteDock *paletteDock() const { return m_palette; }
    [[nodiscard]] PropertiesDock *properties() const { return m_properties; }
    [[nodiscard]] PartitionsDock *partitions() const { return m_partitions; }
    [[nodiscard]] FileActions *fileActions() const override { return m_fileActions; }
    [[nodiscard]] EditActions *editActions() const { return m_editActions; }
    [[nodiscard]] ViewActions *viewActions() const { return m_viewActions; }
    [[nodiscard]] SettingsActions *settingsActions() const { return m_settingsActions; }
    [[nodiscard]] Autosave *autosave() const override { return m_autosave; }
    [[nodiscard]] SimulationRunner *simulation() const { return m_runner; }
    [[nodiscard]] SimulationActions *simulationActions() const { return m_simActions; }
    [[nodiscard]] ResultsDock *results() const { return m_results; }
    [[nodiscard]] FindingsDock *findings() const { return m_findings; }
    [[nodiscard]] CompareDock *compareDock() const { return m_compare; }
    [[nodiscard]] AnalysisActions *analysisActions() const { return m_analysisActions; }
    [[nodiscard]] SimStatus *simStatus() const;
    [[nodiscard]] HelpActions *helpActions() const { return m_helpActions; }
    /// True for an untitled, unmodified, empty design without undo history.
    [[nodiscard]] bool isPristine() const override;

    /// Where a window opens when no geometry was saved (WindowLayout::firstRunGeometry).
    [[nodiscard]] static QRect firstRunGeometry(const QRect &available)
    {
        return WindowLayout::firstRunGeometry(available);
    }
    static constexpr int kLayoutVersion = WindowLayout::kVersion;

signals:
    void statusMessage(const QString &text);

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void buildMenus();
    void updateTitle();
    [[nodiscard]] MainDocks docks() const;

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
    HelpActions *m_helpActions;
    WindowStatus *m_status;
    bool m_sizeDocksOnShow = false; ///< no saved state: size the docks when first shown
};

} // namespace weft
