#include "document/catalogstore.h"

#include "io/catalogfile.h"
#include "storage/designstorage.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <cctype>

namespace weft {

CatalogStore::CatalogStore(QString userPath, QObject *parent)
    : QObject(parent)
    , m_path(std::move(userPath))
{
    reload();
}

CatalogStore &CatalogStore::instance()
{
    static CatalogStore store(defaultUserPath());
    return store;
}

QString CatalogStore::defaultUserPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
        + QStringLiteral("/catalog.json");
}

void CatalogStore::reload()
{
    m_custom = {};
    m_loadError.clear();
    if (QFileInfo::exists(m_path)) {
        auto parsed = loadCatalogFile(QFile::encodeName(m_path).toStdString(), builtinCatalog());
        if (auto *err = std::get_if<FileError>(&parsed)) {
            err->file = m_path.toStdString(); // the path as the user knows it
            m_loadError = QString::fromStdString(err->toString());
        } else {
            m_custom = std::move(std::get<Catalog>(parsed));
        }
    }
    m_merged = builtinCatalog();
    m_merged.merge(m_custom);
    emit changed();
}

bool CatalogStore::isCustom(const CatalogItem &item) const
{
    switch (item.kind) {
    case CatalogItem::Kind::Accelerator:
        return m_custom.hardware.accelerators.count(item.key) > 0;
    case CatalogItem::Kind::Switch:
        return m_custom.hardware.switches.count(item.key) > 0;
    case CatalogItem::Kind::ScaleUpPreset:
        return m_custom.scaleUpPresets.count(item.key) > 0;
    }
    return false;
}

std::string CatalogStore::newKey(const std::string &name) const
{
    std::string slug;
    for (const char c : name) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) && u < 0x80)
            slug += char(std::tolower(u));
        else if (!slug.empty() && slug.back() != '-')
            slug += '-';
    }
    while (!slug.empty() && slug.back() == '-')
        slug.pop_back();
    const std::string base = "custom-" + (slug.empty() ? std::string("entry") : slug);
    const HardwareTable &hw = m_merged.hardware;
    const auto taken = [&](const std::string &k) {
        return hw.accelerators.count(k) || hw.switches.count(k) || hw.linkTechs.count(k)
            || m_merged.scaleUpPresets.count(k);
    };
    std::string key = base;
    for (int n = 2; taken(key); ++n)
        key = base + "-" + std::to_string(n);
    return key;
}

bool CatalogStore::putAccelerator(const AcceleratorSpec &spec, QString *error)
{
    Catalog next = m_custom;
    next.hardware.accelerators[spec.key] = spec;
    return hasKey(spec.key, error) && commit(std::move(next), error);
}

bool CatalogStore::putSwitch(const SwitchSpec &spec, QString *error)
{
    Catalog next = m_custom;
    next.hardware.switches[spec.key] = spec;
    return hasKey(spec.key, error) && commit(std::move(next), error);
}

bool CatalogStore::hasKey(const std::string &key, QString *error)
{
    if (key.empty() && error)
        *error = tr("A custom entry needs a key.");
    return !key.empty();
}

bool CatalogStore::remove(const CatalogItem &item, QString *error)
{
    auto fail = [error](const QString &msg) {
        if (error)
            *error = msg;
        return false;
    };
    if (!isCustom(item))
        return fail(tr("\"%1\" is not a custom entry.").arg(QString::fromStdString(item.key)));
    for (const auto &[key, p] : m_custom.scaleUpPresets)
        if ((item.kind == CatalogItem::Kind::Accelerator && p.accelerator == item.key)
            || (item.kind == CatalogItem::Kind::Switch && p.scaleUpSwitch == item.key))
            return fail(tr("The custom scale-up preset \"%1\" uses \"%2\"; delete it first.")
                            .arg(QString::fromStdString(p.name), QString::fromStdString(item.key)));
    Catalog next = m_custom;
    next.hardware.accelerators.erase(item.kind == CatalogItem::Kind::Accelerator ? item.key : "");
    next.hardware.switches.erase(item.kind == CatalogItem::Kind::Switch ? item.key : "");
    next.scaleUpPresets.erase(item.kind == CatalogItem::Kind::ScaleUpPreset ? item.key : "");
    return commit(std::move(next), error);
}

bool CatalogStore::commit(Catalog custom, QString *error)
{
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    // Never overwrite a file we could not read: the user may want to repair it.
    if (!m_loadError.isEmpty() && QFileInfo::exists(m_path)) {
        const QString broken = m_path + QStringLiteral(".broken");
        QFile::remove(broken);
        if (!QFile::rename(m_path, broken)) {
            if (error)
                *error = tr("Cannot move the unreadable catalog %1 aside.").arg(m_path);
            return false;
        }
    }
    const std::string text = serializeCatalog(custom);
    if (const QString why
        = writeFileAtomically(m_path, QByteArray(text.data(), static_cast<qsizetype>(text.size())));
        !why.isEmpty()) {
        if (error)
            *error = tr("Cannot save the custom catalog %1: %2").arg(m_path, why);
        return false;
    }
    m_loadError.clear();
    m_custom = std::move(custom);
    m_merged = builtinCatalog();
    m_merged.merge(m_custom);
    emit changed();
    return true;
}

} // namespace weft
