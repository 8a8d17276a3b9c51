#pragma once
// After a crash: offers the designs Autosave kept (unless WEFT_NO_AUTOSAVE_PROMPT is set) and
// opens the accepted ones in main windows (a pristine window first), as unsaved work.

namespace weft {

/// Returns the number of designs restored.
int offerAutosaveRestore();

} // namespace weft
