#include "gui/mainwindow.h"

#include "document/catalogstore.h"
#include "document/designdocument.h"
#include "gui/actions/analysisactions.h"
#include "gui/actions/autosave.h"
#include "gui/actions/autosaverestore.h"
#include "gui/actions/editactions.h"
#include "gui/actions/exportactions.h"
#include "gui/actions/fileactions.h"
#include "gui/actions/helpactions.h"
#include "gui/actions/importactions.h"
#include "gui/actions/settingsactions.h"
#include "gui/actions/simulationactions.h"
#include "gui/actions/viewactions.h"
#include "gui/canvas/topologyscene.h"
#include "gui/canvas/topologyview.h"
#include "gui/dialogs/dialogpresenter.h"
#include "gui/docks/comparedock.h"
#include "gui/docks/findingsdock.h"
#include "gui/docks/palettedock.h"
#include "gui/docks/partitionsdock.h"
#include "gui/docks/propertiesdock.h"
#include "gui/docks/resultsdock.h"
#include "gui/mainwindows.h"
#include "gui/simulation/comparison.h"
#include "gui/simulation/simulationrunner.h"
#include "gui/windowstatus.h"

#include <QCloseEvent>
#include <QLineEdit>
#include <QMenuBar>
#include <QMimeData>
#include <QStatusBar>
#include <QToolBar>

// The icons live in weft_gui, a static library: its resources must be registered explicitly.
static void initWeftResources()
{
    Q_INIT_RESOURCE(weft);
}

namespace weft {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_doc(new DesignDocument(CatalogStore::instance().catalog(), this))
    , m_scene(new TopologyScene(m_doc, this))
    , m_view(new TopologyView(m_scene))
    , m_palette(new PaletteDock(&CatalogStore::instance(), this))
    , m_properties(new PropertiesDock(this))
    , m_partitions(new PartitionsDock(this))
    , m_runner(new SimulationRunner(m_doc, this))
{
    initWeftResources();
    setObjectName(QStringLiteral("MainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/weft/icons/weft.svg")));
    setAcceptDrops(true);
    setCentralWidget(m_view);
    connect(&CatalogStore::instance(), &CatalogStore::changed, m_doc,
            [this] { m_doc->setCatalog(CatalogStore::instance().catalog()); });
    m_properties->setDocument(m_doc);
    m_properties->setLinkHeat(&m_scene->linkHeat());
    connect(m_scene, &TopologyScene::linkHeatChanged, m_properties,
            &PropertiesDock::refreshTraffic);
    auto *comparison = new Comparison(this);
    m_results = new ResultsDock(m_doc, m_runner, comparison, this);
    m_findings = new FindingsDock(m_doc, m_runner, this);
    m_compare = new CompareDock(m_doc, m_runner, comparison, this);
    addDockWidget(Qt::LeftDockWidgetArea, m_palette);
    addDockWidget(Qt::RightDockWidgetArea, m_properties);
    addDockWidget(Qt::RightDockWidgetArea, m_partitions);
    for (QDockWidget *dock : QList<QDockWidget *> {m_results, m_findings, m_compare})
        addDockWidget(Qt::BottomDockWidgetArea, dock);
    WindowLayout::arrange(this, docks());
    m_partitions->setDocument(m_doc);
    m_scene->setRankColourMode(m_partitions->colourMode());
    connect(m_partitions, &PartitionsDock::colourModeChanged, m_scene,
            &TopologyScene::setRankColourMode);

    m_fileActions = new FileActions(this, &MainWindows::instance(), this);
    m_editActions = new EditActions(m_doc, m_view, this);
    m_viewActions = new ViewActions(m_view, this);
    m_settingsActions = new SettingsActions(this, this);
    m_autosave = new Autosave(m_doc, this);
    m_simActions = new SimulationActions(m_runner, this);
    m_analysisActions = new AnalysisActions(m_doc, m_results, m_compare, this);
    m_helpActions = new HelpActions(this, menuBar());
    m_status = new WindowStatus(statusBar(), m_doc, m_runner, m_view);
    buildMenus();

    connect(m_runner, &SimulationRunner::resultChanged, m_scene,
            [this] { m_scene->setSimResult(m_runner->result()); });
    connect(m_runner, &SimulationRunner::staleChanged, m_scene, &TopologyScene::setResultStale);
    connect(m_findings, &FindingsDock::subjectsSelected, m_view, &TopologyView::zoomToSelection);
    connect(this, &MainWindow::statusMessage, m_status, &WindowStatus::showMessage);
    connect(m_autosave, &Autosave::problemChanged, m_status, &WindowStatus::setAutosaveProblem);
    connect(m_editActions, &EditActions::message, this, &MainWindow::statusMessage);
    connect(m_fileActions, &FileActions::statusMessage, this, &MainWindow::statusMessage);
    connect(m_view, &TopologyView::message, this, [this](const QString &t) {
        statusBar()->showMessage(t, 10000);
        dialogPresenter().showError(this, tr("Cannot do that"), t);
    });
    connect(m_doc, &DesignDocument::reset, this,
            [this] { m_view->restoreViewState(m_doc->design().view); });
    connect(m_doc, &DesignDocument::filePathChanged, this, &MainWindow::updateTitle);
    connect(m_doc->undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
    updateTitle();
    m_sizeDocksOnShow = !WindowLayout::restore(this);
}

void MainWindow::buildMenus()
{
    auto *toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("MainToolBar"));
    toolbar->setIconSize(QSize(20, 20));
    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
    m_fileActions->addTo(fileMenu, toolbar);
    if (m_fileActions->saveAs->shortcut().isEmpty()) // platforms without a standard one
        m_fileActions->saveAs->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    auto *exportActions = new ExportActions(m_doc, m_view, m_runner, this);
    connect(exportActions, &ExportActions::statusMessage, this, &MainWindow::statusMessage);
    fileMenu->insertActions(m_fileActions->close,
                            {exportActions->canvas, exportActions->visibleCanvas,
                             exportActions->bom, exportActions->result});
    fileMenu->insertSeparator(m_fileActions->close);
    auto *importActions = new ImportActions(this, &MainWindows::instance());
    connect(importActions, &ImportActions::statusMessage, this, &MainWindow::statusMessage);
    fileMenu->insertMenu(exportActions->canvas, importActions->menu()); // File > Import
    toolbar->addSeparator();
    QMenu *editMenu = menuBar()->addMenu(tr("&Edit"));
    m_editActions->addTo(editMenu, toolbar);
    toolbar->addSeparator();
    QMenu *viewMenu = menuBar()->addMenu(tr("&View"));
    m_viewActions->addTo(viewMenu, toolbar);
    viewMenu->addSeparator();
    for (QDockWidget *dock :
         QList<QDockWidget *> {m_palette, m_properties, m_results, m_findings, m_compare})
        viewMenu->addAction(dock->toggleViewAction());
    toolbar->addSeparator();
    QMenu *simMenu = menuBar()->addMenu(tr("&Simulation"));
    m_simActions->addTo(simMenu, toolbar);
    m_analysisActions->addTo(simMenu);
    viewMenu->addAction(m_partitions->toggleViewAction());
    m_settingsActions->addTo(viewMenu, editMenu);
    m_helpActions->addTo(menuBar()->addMenu(tr("&Help")));
    auto *spacer = new QWidget;
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    toolbar->addWidget(spacer);
    toolbar->addWidget(m_editActions->findField);
}

MainDocks MainWindow::docks() const
{
    return {m_palette, m_properties, m_partitions, m_results, m_findings, m_compare};
}

SimStatus *MainWindow::simStatus() const
{
    return m_status->simStatus();
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (m_sizeDocksOnShow) { // first show without a saved state: the window has its size now
        m_sizeDocksOnShow = false;
        WindowLayout::sizeDocks(this, docks());
    }
}

MainWindow::~MainWindow()
{
    // The document, view and actions are children, deleted by ~QObject after this body, when
    // this object is no longer a MainWindow: their last signals must not reach its slots.
    m_doc->disconnect(this);
    m_doc->undoStack()->disconnect(this);
    m_view->disconnect(this);
    m_editActions->disconnect(this);
    m_fileActions->disconnect(this);
    delete m_runner; // stops its worker before the document goes
}

MainWindow *MainWindow::openWindow()
{
    return static_cast<MainWindow *>(MainWindows::instance().openWindow());
}

QList<MainWindow *> MainWindow::windows()
{
    return MainWindows::mainWindows();
}

void MainWindow::closeAllWindows()
{
    MainWindows::instance().closeAllWindows();
}

int MainWindow::offerAutosaveRestore()
{
    return weft::offerAutosaveRestore(MainWindows::instance());
}

bool MainWindow::isPristine() const
{
    return m_doc->filePath().isEmpty() && !m_doc->isModified() && m_doc->design().nodes().empty()
        && m_doc->undoStack()->count() == 0;
}

MainWindow *MainWindow::openFile(const QString &path)
{
    return static_cast<MainWindow *>(m_fileActions->openFile(path));
}

void MainWindow::updateTitle()
{
    setWindowTitle(tr("%1[*] — Weft").arg(m_doc->displayName()));
    setWindowModified(m_doc->isModified());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!m_fileActions->maybeClose()) {
        event->ignore();
        return;
    }
    WindowLayout::save(this);
    m_autosave->discard();
    setProperty("closing", true);
    event->accept();
}

namespace {

bool isDesignFile(const QUrl &url)
{
    return url.isLocalFile() && url.toLocalFile().endsWith(QLatin1String(".weft"));
}

} // namespace

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (std::any_of(urls.begin(), urls.end(), isDesignFile))
        event->acceptProposedAction();
    else
        event->ignore();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    for (const QUrl &url : event->mimeData()->urls())
        if (isDesignFile(url))
            openFile(url.toLocalFile());
    event->acceptProposedAction();
}

} // namespace weft
