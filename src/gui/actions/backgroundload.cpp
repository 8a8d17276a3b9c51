#include "gui/actions/backgroundload.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLocale>
#include <QProgressDialog>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>
#include <limits>

namespace weft {

LoadResult loadDesignInBackground(const QString &path, QWidget *parent, MigrationBackup backup,
                                  int progressDelayMs)
{
    QFutureWatcher<LoadResult> watcher;
    QEventLoop loop;
    QObject::connect(&watcher, &QFutureWatcher<LoadResult>::finished, &loop, &QEventLoop::quit);
    watcher.setFuture(QtConcurrent::run([path, backup] { return loadDesignFile(path, backup); }));

    QProgressDialog progress(parent);
    progress.setWindowTitle(QCoreApplication::translate("weft", "Opening design"));
    progress.setCancelButton(nullptr); // the reader cannot be interrupted
    progress.setRange(0, 0); // reading, parsing and checking have no known total
    progress.setWindowModality(Qt::WindowModal);
    // Shown by `update` below, not by QProgressDialog's own timer (which ignores the delay).
    progress.setMinimumDuration(std::numeric_limits<int>::max());
    const QString size = QLocale().formattedDataSize(QFileInfo(path).size());
    QElapsedTimer clock;
    clock.start();
    const auto update = [&] {
        if (clock.elapsed() < progressDelayMs)
            return;
        progress.setLabelText(
            QCoreApplication::translate("weft", "Reading and checking %1 (%2)… %3 s")
                .arg(QDir::toNativeSeparators(path), size)
                .arg(clock.elapsed() / 1000.0, 0, 'f', 1));
        if (!progress.isVisible())
            progress.show();
    };
    QTimer tick;
    tick.setInterval(100);
    QObject::connect(&tick, &QTimer::timeout, &progress, update);
    tick.start();
    update();
    if (!watcher.isFinished())
        loop.exec(QEventLoop::ExcludeUserInputEvents);
    return watcher.future().takeResult();
}

} // namespace weft
