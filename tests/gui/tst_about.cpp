// Issue 7: `weft --help`, `weft --version`, and the About dialog with version, licence and the
// third-party notices, reachable from the Help menu.
#include <QtTest>

#include "gui/dialogs/aboutdialog.h"
#include "gui/mainwindow.h"

#include <QAction>
#include <QLabel>
#include <QProcess>

using namespace weft;

namespace {

QString runWeft(const QStringList &args, int *exitCode)
{
    QProcess p;
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
