#pragma once
// CatalogStore: the hardware catalog of the running app, the built-in entries plus the user's
// own ("custom") accelerators and switches (issue 2: "Users can add their own entries"). The
// custom entries live in one catalog file (io/catalogfile.h format) in the standard
// application-data folder, read at start and saved atomically after every change.
//
// Designs do not depend on this file: a design embeds the specs its nodes use (its `hardware`
// section, io/designfile.h), so a design with a custom accelerator opens anywhere.

#include "document/designdocument.h"
#include "model/catalog.h"

#include <QObject>
#include <QString>

namespace weft {

class CatalogStore : public QObject
{
    Q_OBJECT
public:
    /// A store over the user catalog file at `userPath`, read now (see loadError()).
    explicit CatalogStore(QString userPath, QObject *parent = nullptr);

    /// The application's store over defaultUserPath(), created on first use.
    static CatalogStore &instance();
    /// `<AppDataLocation>/catalog.json` (e.g. ~/.local/share/Weft/Weft/catalog.json).
    static QString defaultUserPath();

    /// Built-in entries merged with the custom ones (a custom entry replaces a built-in one
    /// with the same key).
    [[nodiscard]] const Catalog &catalog() const { return m_merged; }
    /// The custom entries only, as stored in the user file.
    [[nodiscard]] const Catalog &custom() const { return m_custom; }
    [[nodiscard]] QString userPath() const { return m_path; }
    /// Why the user file could not be read at the last load ("" when it was fine or absent).
    /// The store then holds the built-in catalog only; the next save keeps the unreadable
    /// file as `<file>.broken`.
    [[nodiscard]] QString loadError() const { return m_loadError; }

    /// Whether the palette entry `item` comes from the user catalog.
    [[nodiscard]] bool isCustom(const CatalogItem &item) const;
    /// A key for a new custom entry named `name`: "custom-<name in lower case, dashes>", with a
    /// number appended when the catalog already has it.
    [[nodiscard]] std::string newKey(const std::string &name) const;

    /// Adds `spec` as a custom entry, or replaces the custom entry with its key, and saves.
    /// False with `error` set (and nothing changed) when the key is empty or the file cannot be
    /// written.
    bool putAccelerator(const AcceleratorSpec &spec, QString *error);
    bool putSwitch(const SwitchSpec &spec, QString *error);
    /// Deletes the custom entry `item` and saves. Refuses an entry a custom scale-up preset
    /// still uses. Designs keep their own copy of the spec.
    bool remove(const CatalogItem &item, QString *error);
    /// Reads the user file again (after it changed on disk; tests).
    void reload();

signals:
    /// The custom entries (and so catalog()) changed.
    void changed();

private:
    bool commit(Catalog custom, QString *error);
    static bool hasKey(const std::string &key, QString *error);

    QString m_path;
    QString m_loadError;
    Catalog m_custom;
    Catalog m_merged;
};

} // namespace weft
