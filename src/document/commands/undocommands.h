#pragma once
// Ids of the mergeable undo commands (QUndoCommand::id()).

namespace weft {

enum class CommandId : int {
    MoveNodes = 1, ///< merges the moves of one drag gesture
};

} // namespace weft
