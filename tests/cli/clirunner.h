#pragma once
// Runs the built weft-cli in the CLI tests and writes small designs for it.

#include "io/designfile.h"

#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace weft::test {

/// How long a test waits for one weft-cli run: longer than any run takes in a Release build
/// (seconds) or under the asan preset (minutes), so that CTest's TIMEOUT, which the asan preset
/// scales, is the limit that decides.
inline constexpr int kCliTimeoutMs = 30 * 60 * 1000;

struct CliRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

/// Runs weft-cli with `args` in `env` (default: this process's environment). exitCode is -1
/// when it crashed or did not finish within kCliTimeoutMs (then it is killed and err says
/// "timed out").
inline CliRun runWeftCli(const QStringList &args,
                         const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(WEFT_CLI), args);
    if (!p.waitForFinished(kCliTimeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {-1, p.readAllStandardOutput(), "timed out"};
    }
    const int code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return {code, p.readAllStandardOutput(), p.readAllStandardError()};
}

inline QString writeDesignFile(const Design &d, const QString &path)
{
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(QByteArray::fromStdString(serializeDesign(d)));
    return path;
}

} // namespace weft::test
