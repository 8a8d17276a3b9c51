// weft: the desktop application. Only assembles the application object and the main window:
// `weft [FILE...]` opens the files, then a crashed instance's autosaves are offered for restore.
#include "gui/actions/autosaverestore.h"
#include "gui/appsettings.h"
#include "gui/mainwindows.h"
#include "gui/theme.h"

#include <QApplication>
#include <QCommandLineParser>
#include <cstring>
#include <memory>

namespace {

// --help and --version only print text: they run without a display (a QCoreApplication, no
// platform plugin), so they work over ssh, in scripts and in package tests.
bool onlyPrints(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i)
        for (const char *flag : {"-h", "--help", "--help-all", "-v", "--version"})
            if (std::strcmp(argv[i], flag) == 0)
                return true;
    return false;
}

} // namespace

int main(int argc, char **argv)
{
    const std::unique_ptr<QCoreApplication> app(
        onlyPrints(argc, argv) ? new QCoreApplication(argc, argv) : new QApplication(argc, argv));
    QApplication::setApplicationName(QStringLiteral("Weft"));
    QApplication::setOrganizationName(QStringLiteral("Weft"));
    QApplication::setOrganizationDomain(QStringLiteral("weft.org"));
    QApplication::setApplicationVersion(QStringLiteral(WEFT_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("org.weft.Weft"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QApplication::translate("main", "Designer and simulator for AI-cluster fabrics"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("files"),
                                 QApplication::translate("main", "Design files to open."),
                                 QStringLiteral("[FILE...]"));
    parser.process(*app); // exits after --help and --version

    weft::applyTheme(weft::AppSettings::theme());

    // The files named here open first; a crashed instance's autosaves are offered after.
    weft::openAtStartup(weft::MainWindows::instance(), parser.positionalArguments());
    return QApplication::exec();
}
