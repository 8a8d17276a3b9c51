// weft-cli: headless front end of Weft (product.md, Command line).
#include "command.h"

#include <QCoreApplication>
#include <QTextStream>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace weft::cli {

std::vector<CliCommand> &commands()
{
    static std::vector<CliCommand> all;
    return all;
}

CliCommandRegistration::CliCommandRegistration(CliCommand c)
{
    auto &all = commands();
    all.push_back(std::move(c));
    std::sort(all.begin(), all.end(),
              [](const CliCommand &a, const CliCommand &b) { return qstrcmp(a.name, b.name) < 0; });
}

namespace {

QString &outputError()
{
    static QString why;
    return why;
}

// Writes through stdio and checks it: QTextStream's status stays Ok when the FILE's flush fails.
void write(const QString &text, bool newline)
{
    const QByteArray bytes = text.toUtf8() + (newline ? QByteArray("\n") : QByteArray());
    errno = 0;
    if ((std::fwrite(bytes.constData(), 1, std::size_t(bytes.size()), stdout)
             != std::size_t(bytes.size())
         || std::fflush(stdout) != 0)
        && outputError().isEmpty())
        outputError() = QString::fromLocal8Bit(std::strerror(errno != 0 ? errno : EIO));
}

} // namespace

void out(const QString &line)
{
    write(line, true);
}

void outText(const QString &text)
{
    write(text, false);
}

QString outputProblem()
{
    return outputError();
}

void err(const QString &line)
{
    QTextStream s(stderr);
    s << line << Qt::endl;
}

} // namespace weft::cli

namespace {

void printUsage()
{
    using namespace weft::cli;
    QString text = QStringLiteral("Usage: weft-cli COMMAND [options]\n\n"
                                  "Weft %1: design and simulate AI-cluster fabrics.\n\nCommands:\n")
                       .arg(QStringLiteral(WEFT_VERSION));
    for (const CliCommand &c : commands())
        text += QStringLiteral("  %1 %2\n")
                    .arg(QString::fromLatin1(c.name).leftJustified(14),
                         QString::fromUtf8(c.summary));
    text += QStringLiteral("\n'weft-cli COMMAND --help' documents a command's options.\n"
                           "Exit codes: 0 ok, 1 the design is invalid or does not fit, "
                           "2 bad usage or unreadable file.");
    out(text);
}

} // namespace

int main(int argc, char **argv)
{
    using namespace weft::cli;
    // Only commands that render get a QApplication (offscreen); the others stay QtCore-only.
    const CliCommand *chosen = nullptr;
    for (const CliCommand &c : commands())
        if (argc > 1 && qstrcmp(argv[1], c.name) == 0)
            chosen = &c;
    const std::unique_ptr<QCoreApplication> app = chosen && chosen->makeApplication
        ? chosen->makeApplication(argc, argv)
        : std::make_unique<QCoreApplication>(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("weft-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(WEFT_VERSION));
    QStringList args = QCoreApplication::arguments();
    if (args.size() < 2 || args[1] == QLatin1String("--help") || args[1] == QLatin1String("-h")
        || args[1] == QLatin1String("help")) {
        printUsage();
        return args.size() < 2 ? ExitUsage : ExitOk;
    }
    if (args[1] == QLatin1String("--version")) {
        out(QStringLiteral("weft-cli %1").arg(QStringLiteral(WEFT_VERSION)));
        return ExitOk;
    }
    const QString name = args[1];
    for (const CliCommand &c : commands()) {
        if (name == QLatin1String(c.name)) {
            args.removeFirst(); // argv[0]; the sub-command name now stands in its place
            try {
                const int code = c.run(args);
                if (const QString why = outputProblem(); !why.isEmpty()) {
                    err(QStringLiteral("weft-cli %1: cannot write the output: %2").arg(name, why));
                    return ExitUsage;
                }
                return code;
            } catch (const std::exception &e) {
                err(QStringLiteral("weft-cli %1: internal error: %2")
                        .arg(name, QString::fromUtf8(e.what())));
                return ExitUsage;
            }
        }
    }
    err(QStringLiteral("weft-cli: unknown command '%1' (see 'weft-cli --help')").arg(name));
    return ExitUsage;
}
