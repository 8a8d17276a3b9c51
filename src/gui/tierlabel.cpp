#include "gui/tierlabel.h"

namespace weft {

QString tierLabel(const QString &tier)
{
    const QString separator = QStringLiteral(" · ");
    const qsizetype at = tier.indexOf(separator);
    const QString name = at < 0 ? tier : tier.left(at);
    const QString rest = at < 0 ? QString() : tier.mid(at);
    if (name == QLatin1String("nic"))
        return QStringLiteral("NIC") + rest;
    return tier;
}

} // namespace weft
