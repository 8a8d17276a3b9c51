#pragma once
// The canvas context menu's what-if actions (issue 19): on a link bundle "Mark down" /
// "Restore" / "Degrade rate...", on a switch "Mark down" / "Restore", on an accelerator
// "Slow down clock..." / "Restore", and everywhere "Restore all faults" (disabled when the design
// has none). Each action is one undo step of the document. Actions carry object names
// (whatIfMarkDown, whatIfRestore, whatIfDegradeRate, whatIfSlowClock, whatIfRestoreAll) for tests.

#include "gui/canvas/fractionprompt.h"
#include "gui/canvas/topologyscene.h"

class QMenu;

namespace weft {

class DesignDocument;

class FaultMenu
{
public:
    /// Adds the actions for what is under the pointer (`hit`) to `menu`. Degradations ask their
    /// fraction through `ask` (FractionDialog::ask by default); `message` gets refusals.
    static void populate(QMenu *menu, DesignDocument *doc, const CanvasHit &hit,
                         FractionPrompt ask = FractionDialog::ask,
                         std::function<void(const QString &)> message = {});
};

} // namespace weft
