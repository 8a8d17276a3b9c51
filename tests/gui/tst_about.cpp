// Issue 7: `weft --help`, `weft --version`, and the About dialog with version, licence and the
// third-party notices, reachable from the Help menu.
#include "gui/dialogs/aboutdialog.h"
#include "gui/mainwindow.h"

#include <QAction>
#include <QLabel>
#include <QProcess>
#include <QtTest>

using namespace weft;

namespace {

QString runWeft(const QStringList &args, int *exitCode,
                const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral(WEFT_BINARY_DIR "/src/app/weft"), args);
    if (!p.waitForFinished(60000)) {
        p.kill();
        *exitCode = -1;
        return {};
    }
    *exitCode = p.exitCode();
    return QString::fromLocal8Bit(p.readAll());
}

} // namespace

class TestAbout : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QApplication::setApplicationVersion(QStringLiteral(WEFT_VERSION)); }

    void aboutTextNamesVersionLicenceAndThirdParties()
    {
        const QString text = AboutDialog::aboutText();
        QVERIFY(text.contains(QStringLiteral(WEFT_VERSION)));
        QVERIFY(text.contains(QStringLiteral("GPL-3.0-or-later")));
        for (const char *lib : {"Qt ", "QCustomPlot", "nlohmann_json", "LGPL", "MIT"})
            QVERIFY2(text.contains(QLatin1String(lib)), lib);
    }

    void helpMenuOpensTheDialog()
    {
        MainWindow w;
        QAction *about = w.findChild<QAction *>(QStringLiteral("actionAbout"));
        QVERIFY(about);
        about->trigger();
        auto *dialog = w.findChild<AboutDialog *>();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        auto *label = dialog->findChild<QLabel *>(QStringLiteral("aboutText"));
        QVERIFY(label && label->text().contains(QStringLiteral("GPL-3.0-or-later")));
        dialog->close();
    }

    void versionOption()
    {
        int code = 0;
        const QString out = runWeft({QStringLiteral("--version")}, &code);
        QCOMPARE(code, 0);
        QVERIFY2(out.contains(QStringLiteral(WEFT_VERSION)), qPrintable(out));
    }

    // Printing the version or the help needs no display: no platform plugin is loaded.
    void versionAndHelpNeedNoDisplay()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *var : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
            env.remove(QLatin1String(var));
        const std::pair<const char *, QString> runs[]
            = {{"--version", QStringLiteral(WEFT_VERSION)}, {"--help", QStringLiteral("FILE")}};
        for (const auto &[flag, expected] : runs) {
            int code = 0;
            const QString out = runWeft({QLatin1String(flag)}, &code, env);
            QVERIFY2(code == 0 && out.contains(expected),
                     qPrintable(QLatin1String(flag) + QLatin1Char(' ') + out));
        }
    }

    void helpOption()
    {
        int code = 0;
        const QString out = runWeft({QStringLiteral("--help")}, &code);
        QCOMPARE(code, 0);
        QVERIFY2(out.contains(QStringLiteral("--version")) && out.contains(QStringLiteral("FILE")),
                 qPrintable(out));
    }
};

QTEST_MAIN(TestAbout)
#include "tst_about.moc"
