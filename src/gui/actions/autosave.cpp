#include "gui/actions/autosave.h"

#include "document/designdocument.h"
#include "storage/designstorage.h"

#include <QDir>
#include <QFile>
#include <QLockFile>
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

QString withSuffix(const QString &autosavePath, QLatin1String suffix)
{
    return autosavePath.left(autosavePath.size() - 5) + suffix;
}

QString originFor(const QString &autosavePath)
{
    return withSuffix(autosavePath, QLatin1String(".origin"));
}

// A lock that is never stale while its owner runs: QLockFile's age limit (30 s by default)
// would hand a live instance's autosave to another one.
std::shared_ptr<QLockFile> makeLock(const QString &autosavePath)
{
    auto lock = std::make_shared<QLockFile>(Autosave::lockPathFor(autosavePath));
    lock->setStaleLockTime(0);
    return lock;
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

QString Autosave::lockPathFor(const QString &autosavePath)
{
    return withSuffix(autosavePath, QLatin1String(".lock"));
}

QList<Autosave::Entry> Autosave::pending()
{
    QList<Entry> out;
    const QDir dir(directory());
    for (const QString &name : dir.entryList({QStringLiteral("*.weft")}, QDir::Files, QDir::Name)) {
        const QString path = dir.filePath(name);
        if (ownPaths().contains(path))
            continue;
        // Taking the lock succeeds only when no running process holds it: QLockFile removes a
        // lock whose process id is not running (on this host) and takes it over.
        auto lock = makeLock(path);
        if (!lock->tryLock(0))
            continue;
        QFile origin(originFor(path));
        QString original;
        if (origin.open(QIODevice::ReadOnly))
            original = QString::fromUtf8(origin.readAll()).trimmed();
        out.push_back({path, original, std::move(lock)});
    }
    return out;
}

void Autosave::remove(const Entry &entry)
{
    QFile::remove(entry.autosavePath);
    QFile::remove(originFor(entry.autosavePath));
    if (entry.lock)
        entry.lock->unlock(); // removes the lock file
}

bool Autosave::own()
{
    if (m_lock && m_lock->isLocked())
        return true;
    m_lock = makeLock(m_path);
    return m_lock->tryLock(0);
}

bool Autosave::saveNow()
{
    if (!m_doc->isModified() || m_doc->undoStack()->index() == m_savedIndex)
        return setProblem({});
    if (!QDir().mkpath(directory()))
        return setProblem(
            tr("cannot create the folder %1").arg(QDir::toNativeSeparators(directory())));
    if (!own()) // lock first: a crash right after the write still leaves an owned autosave
        return setProblem(
            tr("cannot take the lock %1").arg(QDir::toNativeSeparators(lockPathFor(m_path))));
    if (const auto error = saveDesignFile(m_doc->design(), m_path))
        return setProblem(QString::fromStdString(error->toString()));
    const QString origin = originFor(m_path);
    if (const QString why = writeFileAtomically(origin, m_doc->filePath().toUtf8()); !why.isEmpty())
        return setProblem(QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(origin), why));
    m_savedIndex = m_doc->undoStack()->index();
    return setProblem({});
}

bool Autosave::setProblem(const QString &why)
{
    if (why != m_problem) {
        m_problem = why;
        emit problemChanged(why);
    }
    return why.isEmpty();
}

void Autosave::discard()
{
    setProblem({}); // saved or closed: nothing left to protect
    remove({m_path, {}, m_lock});
    m_lock.reset();
    m_savedIndex = -1;
}

void Autosave::adopt(Entry entry)
{
    discard(); // this document's own autosave, if any, is superseded
    ownPaths().remove(m_path);
    m_path = entry.autosavePath;
    ownPaths().insert(m_path);
    m_lock = std::move(entry.lock);
    if (!m_lock || !m_lock->isLocked())
        own();
    m_savedIndex = m_doc->undoStack()->index(); // the file already holds this state
}

} // namespace weft
