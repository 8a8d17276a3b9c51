#include "gui/mainwindow.h"

#include "document/catalogstore.h"
#include "document/designdocument.h"
#include "gui/actions/analysisactions.h"
#include "gui/actions/autosave.h"
#include "gui/actions/editactions.h"
#include "gui/actions/exportactions.h"
#include "gui/actions/fileactions.h"
#include "gui/actions/settingsactions.h"
#include "gui/actions/simulationactions.h"
#include "gui/actions/viewactions.h"
#include "gui/canvas/topologyscene.h"
#include "gui/canvas/topologyview.h"
#include "gui/dialogs/aboutdialog.h"
#include "gui/dialogs/dialogpresenter.h"
#include "gui/dialogs/newclusterwizard.h"
#include "gui/docks/comparedock.h"
#include "gui/docks/findingsdock.h"
#include "gui/docks/palettedock.h"
#include "gui/docks/partitionsdock.h"
#include "gui/docks/propertiesdock.h"
#include "gui/docks/resultsdock.h"
#include "gui/simulation/comparison.h"
#include "gui/simulation/simstatus.h"
#include "gui/simulation/simulationrunner.h"
#include "storage/designstorage.h"

#include <QApplication>
#include <QCloseEvent>
#include <QFileInfo>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QMenuBar>
#include <QMimeData>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
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
    addDockWidget(Qt::LeftDockWidgetArea, m_palette);
    addDockWidget(Qt::RightDockWidgetArea, m_properties);
    m_properties->setDocument(m_doc);
    m_properties->setLinkHeat(&m_scene->linkHeat());
    connect(m_scene, &TopologyScene::linkHeatChanged, m_properties,
            &PropertiesDock::refreshTraffic);
    auto *comparison = new Comparison(this);
    m_results = new ResultsDock(m_doc, m_runner, comparison, this);
    m_findings = new FindingsDock(m_doc, m_runner, this);
    m_compare = new CompareDock(m_doc, m_runner, comparison, this);
    addDockWidget(Qt::RightDockWidgetArea, m_partitions);
    addDockWidget(Qt::BottomDockWidgetArea, m_results);
    addDockWidget(Qt::BottomDockWidgetArea, m_findings);
    addDockWidget(Qt::BottomDockWidgetArea, m_compare);
    arrangeDocks();
    m_partitions->setDocument(m_doc);
    m_scene->setRankColourMode(m_partitions->colourMode());
    connect(m_partitions, &PartitionsDock::colourModeChanged, m_scene,
            &TopologyScene::setRankColourMode);

    m_fileActions = new FileActions(this);
    m_editActions = new EditActions(m_doc, m_view, this);
    m_viewActions = new ViewActions(m_view, this);
    m_settingsActions = new SettingsActions(this, this);
    m_autosave = new Autosave(m_doc, this);
    m_simActions = new SimulationActions(m_runner, this);

    auto *toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("MainToolBar"));
    toolbar->setIconSize(QSize(20, 20));
    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
    m_fileActions->addTo(fileMenu, toolbar);
    auto *exportActions = new ExportActions(this); // canvas SVG/PDF/PNG, BOM CSV
    fileMenu->insertActions(m_fileActions->close,
                            {exportActions->canvas, exportActions->visibleCanvas,
                             exportActions->bom, exportActions->result});
    fileMenu->insertSeparator(m_fileActions->close);
    toolbar->addSeparator();
    QMenu *editMenu = menuBar()->addMenu(tr("&Edit"));
    m_editActions->addTo(editMenu, toolbar);
    toolbar->addSeparator();
    QMenu *viewMenu = menuBar()->addMenu(tr("&View"));
    m_viewActions->addTo(viewMenu, toolbar);
    viewMenu->addSeparator();
    viewMenu->addAction(m_palette->toggleViewAction());
    viewMenu->addAction(m_properties->toggleViewAction());
    viewMenu->addAction(m_results->toggleViewAction());
    viewMenu->addAction(m_findings->toggleViewAction());
    viewMenu->addAction(m_compare->toggleViewAction());
    toolbar->addSeparator();
    QMenu *simMenu = menuBar()->addMenu(tr("&Simulation"));
    m_simActions->addTo(simMenu, toolbar);
    m_analysisActions = new AnalysisActions(m_doc, m_results, m_compare, this);
    m_analysisActions->addTo(simMenu);
    viewMenu->addAction(m_partitions->toggleViewAction());
    m_settingsActions->addTo(viewMenu, editMenu);
    QMenu *helpMenu = menuBar()->addMenu(tr("&Help"));
    QAction *about = helpMenu->addAction(tr("&About Weft"), this, [this] {
        auto *dialog = new AboutDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    about->setObjectName(QStringLiteral("actionAbout"));
    about->setMenuRole(QAction::AboutRole);
    auto *spacer = new QWidget;
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    toolbar->addWidget(spacer);
    toolbar->addWidget(m_editActions->findField);

    m_simStatus = new SimStatus(m_doc, m_runner);
    statusBar()->addWidget(m_simStatus, 1);
    connect(m_runner, &SimulationRunner::resultChanged, m_scene,
            [this] { m_scene->setSimResult(m_runner->result()); });
    connect(m_runner, &SimulationRunner::staleChanged, m_scene, &TopologyScene::setResultStale);
    connect(m_findings, &FindingsDock::subjectsSelected, m_view, &TopologyView::zoomToSelection);
    m_zoomLabel = new QLabel;
    m_countLabel = new QLabel;
    statusBar()->addPermanentWidget(m_countLabel);
    statusBar()->addPermanentWidget(m_zoomLabel);
    connect(this, &MainWindow::statusMessage, statusBar(),
            [this](const QString &t) { statusBar()->showMessage(t, 8000); });
    connect(m_editActions, &EditActions::message, this, &MainWindow::statusMessage);
    connect(m_view, &TopologyView::message, this, [this](const QString &t) {
        statusBar()->showMessage(t, 10000);
        dialogPresenter().showError(this, tr("Cannot do that"), t);
    });
    connect(m_view, &TopologyView::zoomChanged, this, [this](double z) {
        m_zoomLabel->setText(tr("Zoom %1%").arg(z * 100, 0, 'f', z < 0.1 ? 1 : 0));
    });
    auto counts = [this] {
        const Design &d = m_doc->design();
        m_countLabel->setText(tr("%1 accelerators · %2 nodes · %3 links")
                                  .arg(d.acceleratorCount())
                                  .arg(d.nodes().size())
                                  .arg(d.links().size()));
    };
    for (auto sig : {&DesignDocument::added, &DesignDocument::removed})
        connect(m_doc, sig, this, counts);
    connect(m_doc, &DesignDocument::reset, this, [this, counts] {
        counts();
        restoreViewState();
    });
    connect(m_doc, &DesignDocument::filePathChanged, this, &MainWindow::updateTitle);
    connect(m_doc->undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
    counts();
    updateTitle();
    m_zoomLabel->setText(tr("Zoom 100%"));

    restoreWindowLayout();
}

QRect MainWindow::firstRunGeometry(const QRect &available)
{
    const QSize size = (QSizeF(available.size()) * 0.9).toSize();
    return QStyle::alignedRect(Qt::LeftToRight, Qt::AlignCenter, size, available);
}

void MainWindow::arrangeDocks()
{
    // The canvas takes what the docks leave: the Properties / Partitions column runs the full
    // height on the right; Results (charts) spans the bottom below the palette and the canvas,
    // with Findings and Compare as tabs beside it (their titles carry counts).
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::BottomLeftCorner, Qt::BottomDockWidgetArea);
    tabifyDockWidget(m_properties, m_partitions);
    tabifyDockWidget(m_results, m_findings);
    tabifyDockWidget(m_findings, m_compare);
    m_properties->raise();
    m_results->raise();
}

void MainWindow::sizeDocks()
{
    // Absolute sizes that suit a large screen, capped to a share of a small window.
    const int w = width(), h = height();
    resizeDocks({m_palette, m_properties}, {std::min(250, w / 6), std::min(380, w / 4)},
                Qt::Horizontal);
    resizeDocks({m_results}, {std::min(330, h / 3)}, Qt::Vertical);
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (m_sizeDocksOnShow) { // first show without a saved state: the window has its size now
        m_sizeDocksOnShow = false;
        sizeDocks();
    }
}

void MainWindow::restoreWindowLayout()
{
    const QSettings settings;
    layout()->activate(); // the minimum size of the final arrangement, not of a step on the way
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray())) {
        const QScreen *s = screen() ? screen() : QGuiApplication::primaryScreen();
        if (s)
            setGeometry(firstRunGeometry(s->availableGeometry()));
        else
            resize(1280, 800);
    }
    m_sizeDocksOnShow = !restoreState(settings.value(QStringLiteral("window/state")).toByteArray(),
                                      kLayoutVersion);
}

MainWindow::~MainWindow()
{
    // The document, view and actions are children, deleted by ~QObject after this body, when
    // this object is no longer a MainWindow: their last signals must not reach its slots.
    m_doc->disconnect(this);
    m_doc->undoStack()->disconnect(this);
    m_view->disconnect(this);
    m_editActions->disconnect(this);
    delete m_runner; // stops its worker before the document goes
}

MainWindow *MainWindow::openWindow()
{
    auto *w = new MainWindow;
    w->setAttribute(Qt::WA_DeleteOnClose);
    w->show();
    return w;
}

QList<MainWindow *> MainWindow::windows()
{
    QList<MainWindow *> out;
    for (QWidget *w : QApplication::topLevelWidgets())
        if (auto *mw = qobject_cast<MainWindow *>(w); mw && !mw->property("closing").toBool())
            out << mw;
    return out;
}

void MainWindow::closeAllWindows()
{
    for (MainWindow *w : windows())
        if (!w->close())
            return;
}

bool MainWindow::isPristine() const
{
    return m_doc->filePath().isEmpty() && !m_doc->isModified() && m_doc->design().nodes().empty()
        && m_doc->undoStack()->count() == 0;
}

MainWindow *MainWindow::openFile(const QString &path)
{
    for (MainWindow *w : windows()) // already open: bring it forward
        if (!w->document()->filePath().isEmpty()
            && QFileInfo(w->document()->filePath()) == QFileInfo(path)) {
            w->raise();
            w->activateWindow();
            return w;
        }
    if (isPristine())
        return m_fileActions->load(path) ? this : nullptr;
    auto *w = new MainWindow;
    w->setAttribute(Qt::WA_DeleteOnClose);
    if (!w->fileActions()->load(path, this)) { // the error shows over this window
        delete w;
        return nullptr;
    }
    w->show();
    return w;
}

void MainWindow::storeViewState(ViewState &view) const
{
    view.zoom = m_view->zoom();
    const QPointF c = m_view->mapToScene(m_view->viewport()->rect().center());
    view.centerX = c.x();
    view.centerY = c.y();
}

void MainWindow::restoreViewState()
{
    const ViewState &v = m_doc->design().view;
    // Defer until the view has its size (after show()).
    QTimer::singleShot(0, this, [this, v] {
        if (v.zoom > 0 && (v.centerX != 0 || v.centerY != 0)) {
            m_view->setZoom(v.zoom);
            m_view->centerOn(v.centerX, v.centerY);
        } else {
            m_view->fitAll();
        }
    });
}

void MainWindow::showNewClusterWizard()
{
    auto *wizard = new NewClusterWizard(CatalogStore::instance().catalog(), this);
    wizard->setAttribute(Qt::WA_DeleteOnClose);
    connect(wizard, &QDialog::accepted, this, [this, wizard] {
        // A new cluster never replaces the open design: it opens in a new window unless
        // this one is still empty.
        if (auto design = wizard->takeDesign()) {
            MainWindow *target = isPristine() ? this : openWindow();
            target->m_doc->generateCluster(std::move(*design));
            target->m_view->fitAll();
        }
    });
    wizard->open();
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
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState(kLayoutVersion));
    m_autosave->discard();
    setProperty("closing", true);
    event->accept();
}

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange
        || event->type() == QEvent::ApplicationPaletteChange) {
        m_scene->setStylePalette(palette());
        m_view->viewport()->update();
    }
    QMainWindow::changeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        for (const QUrl &url : event->mimeData()->urls())
            if (url.isLocalFile() && url.toLocalFile().endsWith(QLatin1String(".weft"))) {
                event->acceptProposedAction();
                return;
            }
    event->ignore();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile() && url.toLocalFile().endsWith(QLatin1String(".weft")))
            openFile(url.toLocalFile());
    event->acceptProposedAction();
}

} // namespace weft
