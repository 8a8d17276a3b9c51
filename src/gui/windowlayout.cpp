#include "gui/windowlayout.h"

#include <QDockWidget>
#include <QGuiApplication>
#include <QLayout>
#include <QMainWindow>
#include <QScreen>
#include <QSettings>
#include <QStyle>
#include <algorithm>

namespace weft {

namespace {

const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");

} // namespace

QRect WindowLayout::firstRunGeometry(const QRect &available)
{
    const QSize size = (QSizeF(available.size()) * 0.9).toSize();
    return QStyle::alignedRect(Qt::LeftToRight, Qt::AlignCenter, size, available);
}

void WindowLayout::arrange(QMainWindow *w, const MainDocks &d)
{
    w->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    w->setCorner(Qt::BottomLeftCorner, Qt::BottomDockWidgetArea);
    w->tabifyDockWidget(d.properties, d.partitions);
    w->tabifyDockWidget(d.results, d.findings);
    w->tabifyDockWidget(d.findings, d.compare);
    d.properties->raise();
    d.results->raise();
}

void WindowLayout::sizeDocks(QMainWindow *w, const MainDocks &d)
{
    const int width = w->width(), height = w->height();
    // The palette at least 200 px (PaletteDock::kMinimumWidth; its widget holds that too).
    w->resizeDocks({d.palette, d.properties},
                   {std::clamp(width / 6, 200, 250), std::min(380, width / 4)}, Qt::Horizontal);
    w->resizeDocks({d.results}, {std::min(330, height / 3)}, Qt::Vertical);
}

bool WindowLayout::restore(QMainWindow *w)
{
    const QSettings settings;
    w->layout()->activate(); // the minimum size of the final arrangement, not of a step
    if (!w->restoreGeometry(settings.value(kGeometryKey).toByteArray())) {
        const QScreen *s = w->screen() ? w->screen() : QGuiApplication::primaryScreen();
        if (s)
            w->setGeometry(firstRunGeometry(s->availableGeometry()));
        else
            w->resize(1280, 800);
    }
    return w->restoreState(settings.value(kStateKey).toByteArray(), kVersion);
}

void WindowLayout::save(const QMainWindow *w)
{
    QSettings settings;
    settings.setValue(kGeometryKey, w->saveGeometry());
    settings.setValue(kStateKey, w->saveState(kVersion));
}

} // namespace weft
