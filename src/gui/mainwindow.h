#pragma once
// The main window: assembles the canvas, docks and actions (it only assembles).

#include <QMainWindow>

namespace weft {

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
};

} // namespace weft
