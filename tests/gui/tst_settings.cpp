// Issue 7: user settings for the theme and the chart-export defaults. View > Theme and the
// Preferences dialog store them and re-colour the whole application live (canvas and charts
// included); chart exports use the stored size and DPI and remember their folder and format;
// everything is still there after a restart (a second process reading the same settings).

#include "canvasdriver.h"
#include "chartsamples.h"
#include "gui/actions/settingsactions.h"
#include "gui/appsettings.h"
#include "gui/canvas/topologyscene.h"
#include "gui/charts/breakdownchart.h"
#include "gui/charts/chartspanel.h"
#include "gui/dialogs/preferencesdialog.h"
#include "gui/docks/palettedock.h"
#include "gui/mainwindow.h"
#include "gui/theme.h"

#include <QAction>
#include <QComboBox>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace weft;

namespace {

// What settingsSurviveARestart stores and the second process expects.
const ChartExportOptions kStoredOptions {QSize(640, 360), 300};
const char kChildDirVar[] = "WEFT_TEST_SETTINGS_DIR";

// Top-level windows get the application's palette changes through their native window: show
// them, as the application does.
void showWindow(QWidget &w)
{
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
}

// Chooses a theme from the menu; the palette reaches top-level windows through a posted event.
void choose(QAction *themeAction)
{
    themeAction->trigger();
    QCoreApplication::processEvents();
}

TopologyScene *sceneOf(MainWindow &w)
{
    return qobject_cast<TopologyScene *>(w.view()->scene());
}

QColor base(Theme theme)
{
    return themePalette(theme).color(QPalette::Active, QPalette::Base);
}

} // namespace

class TestSettings : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("Weft"));
        QCoreApplication::setApplicationName(QStringLiteral("Weft"));
        // The second process of settingsSurviveARestart reads the first one's folder.
        const QString dir = qEnvironmentVariableIsSet(kChildDirVar)
            ? qEnvironmentVariable(kChildDirVar)
            : m_config.path();
        QVERIFY(!dir.isEmpty());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir);
        themePalette(Theme::System); // remember the start-up palette
    }

    void init()
    {
        if (qEnvironmentVariableIsSet(kChildDirVar))
            return;
        QSettings().clear();
        applyTheme(Theme::System);
    }

    void defaultsWhenNothingIsStored()
    {
        QCOMPARE(AppSettings::theme(), Theme::System);
        QCOMPARE(AppSettings::chartExportOptions(), ChartExportOptions());
        QCOMPARE(AppSettings::lastChartFormat(), ChartFormat::Png);
        QVERIFY(QDir(AppSettings::lastExportFolder()).exists());
    }

    void malformedValuesGiveTheDefaults()
    {
        QSettings s;
        s.setValue(QStringLiteral("appearance/theme"), QStringLiteral("purple"));
        s.setValue(QStringLiteral("chartExport/width"), QStringLiteral("wide"));
        s.setValue(QStringLiteral("chartExport/format"), QStringLiteral("gif"));
        s.setValue(QStringLiteral("chartExport/folder"), QStringLiteral("/nonexistent/folder"));
        QCOMPARE(AppSettings::theme(), Theme::System);
        QCOMPARE(AppSettings::chartExportOptions(), ChartExportOptions());
        QCOMPARE(AppSettings::lastChartFormat(), ChartFormat::Png);
        QVERIFY(AppSettings::lastExportFolder() != QStringLiteral("/nonexistent/folder"));
        s.setValue(QStringLiteral("chartExport/width"), 1000);
        s.setValue(QStringLiteral("chartExport/dpi"), 1e6); // outside 24..2400
        QCOMPARE(AppSettings::chartExportOptions(), ChartExportOptions());
        s.setValue(QStringLiteral("chartExport/dpi"), 96);
        QCOMPARE(AppSettings::chartExportOptions(), (ChartExportOptions {QSize(1000, 500), 96}));
    }

    void themeMenuRecoloursCanvasAndCharts()
    {
        MainWindow w;
        showWindow(w);
        ChartsPanel panel;
        BreakdownChart *chart = panel.breakdownChart();
        chart->setData(samples::breakdownData());
        auto *menu = w.findChild<QMenu *>(QStringLiteral("menuTheme"));
        QVERIFY(menu);
        QCOMPARE(menu->actions().size(), 3);
        auto *dark = w.findChild<QAction *>(QStringLiteral("actionThemeDark"));
        auto *light = w.findChild<QAction *>(QStringLiteral("actionThemeLight"));
        auto *system = w.findChild<QAction *>(QStringLiteral("actionThemeSystem"));
        QVERIFY(dark && light && system);
        QVERIFY(system->isChecked());

        choose(dark);
        QCOMPARE(AppSettings::theme(), Theme::Dark);
        QVERIFY(dark->isChecked());
        QCOMPARE(QApplication::palette().color(QPalette::Base), base(Theme::Dark));
        QVERIFY(sceneOf(w)->style().dark);
        QCOMPARE(sceneOf(w)->style().background, base(Theme::Dark));
        QCOMPARE(sceneOf(w)->backgroundBrush().color(), base(Theme::Dark));
        QVERIFY(chart->theme().dark);
        QCOMPARE(chart->theme().background, base(Theme::Dark));
        QCOMPARE(chart->grab().toImage().pixelColor(2, 2), base(Theme::Dark));

        choose(light);
        QCOMPARE(AppSettings::theme(), Theme::Light);
        QVERIFY(!sceneOf(w)->style().dark);
        QCOMPARE(sceneOf(w)->style().background, base(Theme::Light));
        QVERIFY(!chart->theme().dark);
        QCOMPARE(chart->theme().background, base(Theme::Light));

        choose(dark);
        choose(system); // back to the palette the application started with
        QCOMPARE(AppSettings::theme(), Theme::System);
        QCOMPARE(QApplication::palette().color(QPalette::Base), base(Theme::System));
        QCOMPARE(chart->theme().background, base(Theme::System));
        QCOMPARE(sceneOf(w)->style().background, base(Theme::System));
    }

    void windowsOpenedLaterFollowTheTheme()
    {
        chooseTheme(Theme::Dark);
        MainWindow w;
        QVERIFY(sceneOf(w)->style().dark);
        QVERIFY(w.settingsActions()->themeAction(Theme::Dark)->isChecked());
        ChartsPanel panel;
        QVERIFY(panel.breakdownChart()->theme().dark);
    }

    void themeMenuShowsAChangeMadeElsewhere()
    {
        MainWindow a;
        MainWindow b;
        a.settingsActions()->themeAction(Theme::Light)->trigger();
        QVERIFY(!b.settingsActions()->themeAction(Theme::Light)->isChecked());
        auto *menu = b.findChild<QMenu *>(QStringLiteral("menuTheme"));
        emit menu->aboutToShow();
        QVERIFY(b.settingsActions()->themeAction(Theme::Light)->isChecked());
    }

    void preferencesOpenWithTheStoredValues()
    {
        AppSettings::setTheme(Theme::Light);
        AppSettings::setChartExportOptions({QSize(1024, 768), 150});
        AppSettings::setLastChartFormat(ChartFormat::Svg);
        AppSettings::setLastExportFolder(m_config.path());
        PreferencesDialog d;
        QCOMPARE(d.themeBox()->currentText(), QStringLiteral("Light"));
        QCOMPARE(d.widthBox()->value(), 1024);
        QCOMPARE(d.heightBox()->value(), 768);
        QCOMPARE(d.dpiBox()->value(), 150);
        QCOMPARE(d.formatBox()->currentText(), QStringLiteral("SVG"));
        QCOMPARE(d.folderEdit()->text(), m_config.path());
    }

    void preferencesStoreAndApply()
    {
        MainWindow w;
        showWindow(w);
        ChartsPanel panel;
        PreferencesDialog d(&w);
        d.themeBox()->setCurrentIndex(d.themeBox()->findText(QStringLiteral("Dark")));
        d.widthBox()->setValue(300);
        d.heightBox()->setValue(200);
        d.dpiBox()->setValue(96);
        d.formatBox()->setCurrentIndex(d.formatBox()->findText(QStringLiteral("PDF")));
        d.folderEdit()->setText(m_config.path());
        QVERIFY(!sceneOf(w)->style().dark);
        d.apply();
        QCoreApplication::processEvents();
        QCOMPARE(AppSettings::theme(), Theme::Dark);
        QVERIFY(sceneOf(w)->style().dark);
        QVERIFY(panel.breakdownChart()->theme().dark);
        QCOMPARE(panel.exportOptions(), (ChartExportOptions {QSize(300, 200), 96}));
        QCOMPARE(AppSettings::lastChartFormat(), ChartFormat::Pdf);
        QCOMPARE(AppSettings::lastExportFolder(), m_config.path());
    }

    void preferencesAreInTheEditMenuAndTheChartMenu()
    {
        MainWindow w;
        auto *prefs = w.findChild<QAction *>(QStringLiteral("actionPreferences"));
        QVERIFY(prefs);
        prefs->trigger();
        auto *dialog = w.findChild<PreferencesDialog *>();
        QVERIFY(dialog && dialog->isVisible());
        dialog->close();

        ChartsPanel panel;
        std::unique_ptr<QMenu> menu(panel.createContextMenu(panel.breakdownChart()));
        auto *options = menu->findChild<QAction *>(QStringLiteral("actionExportOptions"));
        QVERIFY(options);
        options->trigger();
        QVERIFY(panel.findChild<PreferencesDialog *>());
    }

    void exportUsesTheStoredOptionsAndRemembersFolderAndFormat()
    {
        test::RecordingPresenter presenter;
        QTemporaryDir out;
        ChartsPanel panel;
        BreakdownChart *chart = panel.breakdownChart();
        chart->setData(samples::breakdownData());
        AppSettings::setChartExportOptions({QSize(400, 300), 192});

        // Through the context menu, as a user does: PNG of 400 x 300 px at 192 dpi.
        presenter.exportPath = out.filePath(QStringLiteral("chart")); // extension added
        std::unique_ptr<QMenu> menu(panel.createContextMenu(chart));
        QCOMPARE(ChartFormat(menu->defaultAction()->data().toInt()), ChartFormat::Png);
        menu->actions().at(0)->trigger();
        QVERIFY2(presenter.errors.isEmpty(), qPrintable(presenter.errors.join(QLatin1Char('\n'))));
        const QImage png(out.filePath(QStringLiteral("chart.png")));
        QCOMPARE(png.size(), QSize(800, 600));
        QCOMPARE(png.dotsPerMeterX(), int(std::lround(192 / 0.0254)));
        QCOMPARE(AppSettings::lastExportFolder(), out.path());

        // The next export starts in that folder; SVG becomes the remembered format.
        presenter.exportPath = out.filePath(QStringLiteral("second.svg"));
        QCOMPARE(panel.exportWithDialog(chart, ChartFormat::Svg), presenter.exportPath);
        QCOMPARE(presenter.exportSuggestions.last(), out.filePath(QStringLiteral("breakdown.svg")));
        QCOMPARE(AppSettings::lastChartFormat(), ChartFormat::Svg);
        menu.reset(panel.createContextMenu(chart));
        QCOMPARE(ChartFormat(menu->defaultAction()->data().toInt()), ChartFormat::Svg);

        // A failed export is shown and records nothing.
        presenter.exportPath = QStringLiteral("/nonexistent/dir/c.pdf");
        QVERIFY(panel.exportWithDialog(chart, ChartFormat::Pdf).isEmpty());
        QCOMPARE(presenter.errors.size(), 1);
        QVERIFY(presenter.errors.first().contains(QStringLiteral("/nonexistent/dir/c.pdf")));
        QCOMPARE(AppSettings::lastChartFormat(), ChartFormat::Svg);
        QCOMPARE(AppSettings::lastExportFolder(), out.path());
    }

    void settingsSurviveARestart()
    {
        if (qEnvironmentVariableIsSet(kChildDirVar))
            QSKIP("this is the second process");
        MainWindow w;
        w.settingsActions()->themeAction(Theme::Dark)->trigger();
        ChartsPanel::setExportOptions(kStoredOptions);
        AppSettings::setLastChartFormat(ChartFormat::Csv);
        AppSettings::setLastExportFolder(m_config.path());
        QSettings().sync();
        QVERIFY(QFileInfo::exists(m_config.filePath(QStringLiteral("Weft/Weft.conf"))));

        QProcess second;
        second.setProcessChannelMode(QProcess::MergedChannels);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QLatin1String(kChildDirVar), m_config.path());
        second.setProcessEnvironment(env);
        second.start(QCoreApplication::applicationFilePath(),
                     {QStringLiteral("startsWithTheStoredSettings")});
        QVERIFY(second.waitForFinished(600000));
        const QString output = QString::fromLocal8Bit(second.readAll());
        QVERIFY2(second.exitStatus() == QProcess::NormalExit && second.exitCode() == 0,
                 qPrintable(output));
        QVERIFY2(
            output.contains(QStringLiteral("PASS   : TestSettings::startsWithTheStoredSettings")),
            qPrintable(output));
    }

    // Run by settingsSurviveARestart in a second process: starts as main() does.
    void startsWithTheStoredSettings()
    {
        if (!qEnvironmentVariableIsSet(kChildDirVar))
            QSKIP("run in a second process by settingsSurviveARestart");
        applyTheme(AppSettings::theme()); // what main() does at start-up
        MainWindow w;
        showWindow(w);
        ChartsPanel panel;
        QVERIFY(w.settingsActions()->themeAction(Theme::Dark)->isChecked());
        // The widgets, not only the canvas and charts: menus, docks and lists are dark too.
        const QPalette dark = themePalette(Theme::Dark);
        QCOMPARE(QApplication::palette().color(QPalette::Window), dark.color(QPalette::Window));
        QCOMPARE(w.palette().color(QPalette::Window), dark.color(QPalette::Window));
        QCOMPARE(w.paletteDock()->palette().color(QPalette::Base), dark.color(QPalette::Base));
        QCOMPARE(w.menuBar()->palette().color(QPalette::Window), dark.color(QPalette::Window));
        QVERIFY(sceneOf(w)->style().dark);
        QVERIFY(panel.breakdownChart()->theme().dark);
        QCOMPARE(panel.exportOptions(), kStoredOptions);
        PreferencesDialog d;
        QCOMPARE(d.formatBox()->currentText(), QStringLiteral("CSV"));
        QCOMPARE(d.folderEdit()->text(), qEnvironmentVariable(kChildDirVar));
    }

private:
    QTemporaryDir m_config;
};

QTEST_MAIN(TestSettings)
#include "tst_settings.moc"
