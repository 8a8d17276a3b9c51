#pragma once
// Start-up of the desktop app: the files named on the command line open first, then the
// autosaves left by a crashed or killed instance are offered (offerAutosaveRestore). Windows are
// opened through a WindowManager (gui/actions/designwindow.h), never MainWindow itself.

#include <QStringList>

namespace weft {

class WindowManager;

/// Opens the first main window and `files` in it (or in new windows), then, once the event loop
/// runs, offers the autosaves whose owner is no longer running. The files never wait behind
/// that question.
void openAtStartup(WindowManager &windows, const QStringList &files);

/// After a crash: offers the autosaved designs (unless WEFT_NO_AUTOSAVE_PROMPT is set) and opens
/// the accepted ones in windows of `windows` (an untouched one first). Returns the number
/// restored.
int offerAutosaveRestore(WindowManager &windows);

} // namespace weft
