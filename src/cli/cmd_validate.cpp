// weft-cli validate FILE: reads a design and checks it (product.md, Command line).
// Exit 0: valid (warnings allowed); 1: readable but invalid, findings printed; 2: unreadable
// file or bad usage, with the file, the JSON location and the problem.
#include "command.h"
#include "model/validate.h"
#include "storage/designstorage.h"

#include <QCommandLineParser>

namespace weft::cli {

namespace {

// "nodes #4, #5, ... (16384 in all)": at most `kShown` ids per list.
template<class IdT> QString subjectList(const char *what, const std::vector<IdT> &ids)
{
    constexpr std::size_t kShown = 8;
    QStringList parts;
    for (std::size_t i = 0; i < ids.size() && i < kShown; ++i)
        parts << QStringLiteral("#%1").arg(ids[i].value);
    QString s = QStringLiteral("%1 %2").arg(QLatin1String(what), parts.join(QStringLiteral(", ")));
    if (ids.size() > kShown)
        s += QStringLiteral(", ... (%1 in all)").arg(ids.size());
    return s;
}

QString describe(const Finding &f)
{
    QStringList subjects;
    if (!f.nodes.empty())
        subjects << subjectList(f.nodes.size() == 1 ? "node" : "nodes", f.nodes);
    if (!f.links.empty())
        subjects << subjectList(f.links.size() == 1 ? "link" : "links", f.links);
    if (!f.groups.empty())
        subjects << subjectList(f.groups.size() == 1 ? "group" : "groups", f.groups);
    QString line = QStringLiteral("%1 [%2] %3")
                       .arg(QLatin1String(toString(f.severity)), QString::fromStdString(f.code),
                            QString::fromStdString(f.message));
    if (!subjects.isEmpty())
        line += QStringLiteral(" (%1)").arg(subjects.join(QStringLiteral("; ")));
    return line;
}

int run(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Reads a .weft design and checks it: file structure (types, required fields, ids, "
        "references, value ranges and size limits) and the fabric (switch port budgets against "
        "their radix, link ends, self links, rates and lanes, hardware keys, accelerators with no "
        "path to the others, group membership and nesting).\n"
        "Older file versions are upgraded in memory only (the file is not changed).\n\n"
        "Exit codes: 0 valid (warnings may be printed), 1 the design is invalid (findings are "
        "printed as 'error [code] message (subjects)'), 2 the file cannot be read or bad usage "
        "(the error names the file, the JSON location and the problem)."));
    parser.addHelpOption();
    const QCommandLineOption quiet(QStringList {QStringLiteral("q"), QStringLiteral("quiet")},
                                   QStringLiteral("Print errors only (no warnings, no summary)."));
    parser.addOption(quiet);
    parser.addPositionalArgument(QStringLiteral("FILE"),
                                 QStringLiteral("The .weft design to check."));
    if (!parser.parse(args)) {
        err(QStringLiteral("weft-cli validate: %1").arg(parser.errorText()));
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        // Qt's first line names argv[0]; name the sub-command instead.
        out(QStringLiteral("Usage: weft-cli validate [options] FILE\n")
            + parser.helpText().section(QLatin1Char('\n'), 1));
        return ExitOk;
    }
    const QStringList files = parser.positionalArguments();
    if (files.size() != 1) {
        err(QStringLiteral(
            "weft-cli validate: expected one FILE (see 'weft-cli validate --help')"));
        return ExitUsage;
    }
    const QString path = files.first();
    const LoadResult loaded = loadDesignFile(path, MigrationBackup::Skip);
    if (!loaded.ok()) {
        err(QStringLiteral("weft-cli validate: %1")
                .arg(QString::fromStdString(loaded.error.toString())));
        return ExitUsage;
    }
    const bool loud = !parser.isSet(quiet);
    if (loud)
        for (const QString &m : loaded.migrations)
            out(QStringLiteral("note: %1 is an older file format, read after upgrading (%2)")
                    .arg(path, m));
    const Design &d = *loaded.design;
    const std::vector<Finding> findings = validateDesign(d);
    int errors = 0, warnings = 0;
    for (const Finding &f : findings) {
        (f.severity == Severity::Error ? errors : warnings) += 1;
        if (loud || f.severity == Severity::Error)
            out(describe(f));
    }
    if (loud) {
        const QString counts = QStringLiteral("%1 nodes (%2 accelerators), %3 links, %4 groups")
                                   .arg(d.nodes().size())
                                   .arg(d.acceleratorCount())
                                   .arg(d.links().size())
                                   .arg(d.groups().size());
        out(errors ? QStringLiteral("%1: invalid: %2 error(s), %3 warning(s); %4")
                         .arg(path)
                         .arg(errors)
                         .arg(warnings)
                         .arg(counts)
                   : QStringLiteral("%1: valid, %2 warning(s); %3")
                         .arg(path)
                         .arg(warnings)
                         .arg(counts));
    }
    return errors ? ExitInvalid : ExitOk;
}

const CliCommandRegistration reg {
    {"validate", "check a design file (exit 0 valid, 1 invalid, 2 unreadable)", run}};

} // namespace

} // namespace weft::cli
