// weft: the desktop application. Only assembles the application object and the main window:
// `weft [FILE...]` opens the files, and a crash's autosaves are offered for restore.
#include "gui/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
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
    parser.process(app);

    auto *first = weft::MainWindow::openWindow();
    weft::MainWindow::offerAutosaveRestore();
    for (const QString &file : parser.positionalArguments())
        first->openFile(file);
    return QApplication::exec();
}
