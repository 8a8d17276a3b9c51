#include "document/designdocument.h"

namespace weft {

DesignDocument::DesignDocument(QObject *parent) : QObject(parent) {}

} // namespace weft
