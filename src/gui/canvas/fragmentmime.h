#pragma once
// Design fragments on the system clipboard: application/x-weft-fragment+json (the fragment as a
// `.weft` design file's text, document/fragment.h) plus a readable text/plain summary, so that
// copy in one Weft window or process and paste in another works.

#include "document/fragment.h"

#include <QMimeData>
#include <memory>
#include <optional>

namespace weft {

inline constexpr const char *kFragmentMime = "application/x-weft-fragment+json";

/// MIME data carrying `fragment` for QClipboard.
std::unique_ptr<QMimeData> fragmentMimeData(const Fragment &fragment);
/// The fragment in `mime`: the Weft format, else text/plain holding a Weft design's text.
/// Nothing, with `error` saying why in words a user understands, for anything else.
std::optional<Fragment> fragmentFrom(const QMimeData *mime, QString *error);
/// Whether `mime` may hold a fragment (enables Paste; fragmentFrom() decides).
bool mayHoldFragment(const QMimeData *mime);

} // namespace weft
