#include "gui/actions/autosave.h"

#include "document/designdocument.h"
#include "storage/designstorage.h"

#include <QDir>
#include <QFile>
#include <QSet>
#include <QStandardPaths>
#include <QUuid>

namespace weft {

namespace {

QSet<QString> &ownPaths()
{
    static QSet<QString> paths;
    return paths;
}

QString originFor(const QString &autosavePath)
{
    return autosavePath.left(autosavePath.size() - 5) + QLatin1String(".origin");
}

} // namespace

Autosave::Autosave(DesignDocument *doc, QObject *parent)
    : QObject(parent)
    , m_doc(doc)
{
    m_path = QDir(directory())
                 .filePath(QUuid::createUuid().toString(QUuid::WithoutBraces)
                           + QLatin1String(".weft"));
    ownPaths().insert(m_path);
    m_timer.setInterval(60 * 1000);
    connect(&m_timer, &QTimer::timeout, this, &Autosave::saveNow);
    m_timer.start();
    connect(doc->undoStack(), &QUndoStack::cleanChanged, this, [this](bool clean) {
        if (clean)
            discard();
    });
}

Autosave::~Autosave()
{
    ownPaths().remove(m_path);
}

QString Autosave::directory()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("autosave"));
}

QList<Autosave::Entry> Autosave::pending()
{
    QList<Entry> out;
    const QDir dir(directory());
    for (const QString &name : dir.entryList({QStringLiteral("*.weft")}, QDir::Files, QDir::Name)) {
        const QString path = dir.filePath(name);
        if (ownPaths().contains(path))
            continue;
        QFile origin(originFor(path));
        QString original;
        if (origin.open(QIODevice::ReadOnly))
            original = QString::fromUtf8(origin.readAll()).trimmed();
        out.push_back({path, original});
    }
    return out;
}

void Autosave::remove(const Entry &entry)
{
    QFile::remove(entry.autosavePath);
    QFile::remove(originFor(entry.autosavePath));
}

bool Autosave::saveNow()
{
    if (!m_doc->isModified() || m_doc->undoStack()->index() == m_savedIndex)
        return true;
    QDir().mkpath(directory());
    if (saveDesignFile(m_doc->design(), m_path))
        return false;
    QFile origin(originFor(m_path));
    if (origin.open(QIODevice::WriteOnly | QIODevice::Truncate))
        origin.write(m_doc->filePath().toUtf8());
    m_savedIndex = m_doc->undoStack()->index();
    return true;
}

void Autosave::discard()
{
    remove({m_path, {}});
    m_savedIndex = -1;
}

} // namespace weft
