#include "gui/canvas/catalogmime.h"

#include <QDataStream>
#include <QIODevice>

namespace weft {

std::unique_ptr<QMimeData> catalogMimeData(const CatalogItem &item)
{
    QByteArray bytes;
    QDataStream out(&bytes, QIODevice::WriteOnly);
    out << int(item.kind) << QString::fromStdString(item.key) << int(item.role);
    auto mime = std::make_unique<QMimeData>();
    mime->setData(QString::fromLatin1(kCatalogMime), bytes);
    return mime;
}

std::optional<CatalogItem> catalogItemFrom(const QMimeData *mime)
{
    if (!mime || !mime->hasFormat(QString::fromLatin1(kCatalogMime)))
        return std::nullopt;
    QDataStream in(mime->data(QString::fromLatin1(kCatalogMime)));
    int kind = 0, role = 0;
    QString key;
    in >> kind >> key >> role;
    if (in.status() != QDataStream::Ok || kind < 0 || kind > 2 || role < 0 || role > 3)
        return std::nullopt;
    CatalogItem item;
    item.kind = CatalogItem::Kind(kind);
    item.key = key.toStdString();
    item.role = SwitchRole(role);
    return item;
}

} // namespace weft
