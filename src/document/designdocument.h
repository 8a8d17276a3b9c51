#pragma once
// DesignDocument: owns one Design, its QUndoStack, the selection and the last simulation result.

#include "model/design.h"

#include <QObject>
#include <QUndoStack>

namespace weft {

class DesignDocument : public QObject
{
    Q_OBJECT
public:
    explicit DesignDocument(QObject *parent = nullptr);

    [[nodiscard]] const Design &design() const { return m_design; }
    [[nodiscard]] QUndoStack *undoStack() { return &m_undo; }

private:
    Design m_design;
    QUndoStack m_undo;
};

} // namespace weft
