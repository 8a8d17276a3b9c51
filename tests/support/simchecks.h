#pragma once
// Helpers for tests of simulation results.

#include "sim/result.h"

#include <QByteArray>

namespace weft::test {

/// The result's warnings as "code (message) ...", for failure messages.
inline QByteArray warningCodes(const SimResult &r)
{
    QByteArray s;
    for (const Finding &f : r.warnings)
        s += QByteArray::fromStdString(f.code + " (" + f.message + ") ");
    return s;
}

} // namespace weft::test
