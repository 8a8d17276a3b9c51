#include "gui/actions/designwindow.h"

#include <QWidget>

namespace weft {

DesignWindow *WindowManager::openWindow()
{
    DesignWindow *w = createWindow();
    w->widget()->show();
    return w;
}

bool WindowManager::closeAllWindows()
{
    for (DesignWindow *w : windows())
        if (!w->widget()->close())
            return false;
    return true;
}

} // namespace weft
