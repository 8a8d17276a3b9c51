#include "gui/canvas/fragmentmime.h"

#include <QCoreApplication>

namespace weft {

std::unique_ptr<QMimeData> fragmentMimeData(const Fragment &fragment)
{
    auto mime = std::make_unique<QMimeData>();
    const std::string text = fragmentToText(fragment);
    mime->setData(QString::fromLatin1(kFragmentMime),
                  QByteArray(text.data(), static_cast<qsizetype>(text.size())));
    mime->setText(fragmentSummary(fragment));
    return mime;
}

std::optional<Fragment> fragmentFrom(const QMimeData *mime, QString *error)
{
    const auto tr
        = [](const char *s) { return QCoreApplication::translate("weft::FragmentMime", s); };
    const auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return std::nullopt;
    };
    if (!mime)
        return fail(tr("The clipboard is empty."));
    QString why;
    if (mime->hasFormat(QString::fromLatin1(kFragmentMime))) {
        const QByteArray bytes = mime->data(QString::fromLatin1(kFragmentMime));
        if (auto f = fragmentFromText(std::string_view(bytes.constData(), bytes.size()), &why))
            return f;
        return fail(tr("The Weft objects on the clipboard are damaged. %1").arg(why));
    }
    if (!mime->hasText() || mime->text().trimmed().isEmpty())
        return fail(tr("The clipboard holds no Weft objects."));
    const QByteArray text = mime->text().toUtf8();
    if (auto f = fragmentFromText(std::string_view(text.constData(), text.size()), &why))
        return f;
    return fail(tr("The clipboard holds text, not Weft objects. %1").arg(why));
}

bool mayHoldFragment(const QMimeData *mime)
{
    return mime && (mime->hasFormat(QString::fromLatin1(kFragmentMime)) || mime->hasText());
}

} // namespace weft
