// weft: the desktop application. Only assembles the application object and the main window.
#include "gui/mainwindow.h"

#include <QApplication>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Weft"));
    QApplication::setApplicationVersion(QStringLiteral(WEFT_VERSION));
    weft::MainWindow w;
    w.show();
    return QApplication::exec();
}
