#include "guiapplication.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <pwd.h>
#include <unistd.h>

// The canvas draws icons from weft_gui's resources; a static library's resources must be
// registered by hand, outside any namespace (Q_INIT_RESOURCE declares a global function).
static void initGuiResources()
{
    Q_INIT_RESOURCE(weft);
}

namespace weft::cli {

// Qt's platform code asks for the session's runtime directory; where XDG_RUNTIME_DIR is unset
// (root in a container, a CI job) QStandardPaths warns "XDG_RUNTIME_DIR not set, defaulting to
// '/tmp/runtime-<user>'" on every rendering command, then uses that directory. Offscreen
// rendering needs no session, so the directory Qt would fall back to is given up front
// (created private, 0700, as Qt requires), and the command prints only its own messages.
static void provideRuntimeDir()
{
    if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR"))
        return;
    // the user's name as Qt's fallback takes it (from the uid: USER is often unset as root)
    QString user;
    if (const passwd *pw = getpwuid(geteuid()))
        user = QFile::decodeName(pw->pw_name);
    if (user.isEmpty())
        user = QString::number(geteuid());
    const QString dir = QDir::tempPath() + QStringLiteral("/runtime-") + user;
    if (!QDir().mkpath(dir)
        || !QFile::setPermissions(dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner))
        return; // not ours to use: leave Qt its own fallback and note
    qputenv("XDG_RUNTIME_DIR", QFile::encodeName(dir));
}

std::unique_ptr<QCoreApplication> makeOffscreenApplication(int &argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    provideRuntimeDir();
    auto app = std::make_unique<QApplication>(argc, argv);
    initGuiResources();
    return app;
}

} // namespace weft::cli
