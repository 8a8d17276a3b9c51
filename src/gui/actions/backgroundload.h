#pragma once
// Reading a design file off the GUI thread: a 16k-accelerator design takes seconds to parse,
// and a file at the size limits much longer; the windows keep painting meanwhile.

#include "storage/designstorage.h"

class QWidget;

namespace weft {

/// loadDesignFile(`path`, `backup`) on a worker thread. The caller waits (user input is held
/// back, so nothing can close the window or edit the document meanwhile) while the event loop
/// keeps painting; after `progressDelayMs` a progress dialog over `parent` names the file, its
/// size and the seconds elapsed.
LoadResult loadDesignInBackground(const QString &path, QWidget *parent,
                                  MigrationBackup backup = MigrationBackup::Write,
                                  int progressDelayMs = 400);

} // namespace weft
