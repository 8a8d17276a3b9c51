#include "gui/mainwindow.h"

#include <QIcon>

namespace weft {

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setWindowTitle(QStringLiteral("Weft"));
    setWindowIcon(QIcon(QStringLiteral(":/weft/icons/weft.svg")));
    resize(1280, 800);
}

} // namespace weft
