#include "gui/mainwindows.h"

#include "gui/mainwindow.h"

#include <QApplication>

namespace weft {

MainWindows &MainWindows::instance()
{
    static MainWindows manager;
    return manager;
}

DesignWindow *MainWindows::createWindow()
{
    auto *w = new MainWindow;
    w->setAttribute(Qt::WA_DeleteOnClose);
    return w;
}

QList<MainWindow *> MainWindows::mainWindows()
{
    QList<MainWindow *> out;
    for (QWidget *w : QApplication::topLevelWidgets())
        if (auto *mw = qobject_cast<MainWindow *>(w); mw && !mw->property("closing").toBool())
            out << mw;
    return out;
}

QList<DesignWindow *> MainWindows::windows() const
{
    QList<DesignWindow *> out;
    for (MainWindow *w : mainWindows())
        out << w;
    return out;
}

} // namespace weft
