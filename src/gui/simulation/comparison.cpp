#include "gui/simulation/comparison.h"

#include "document/designdocument.h"
#include "gui/charts/reportchartdata.h"
#include "sim/simulator.h"
#include "storage/designstorage.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QLocale>
#include <QtConcurrent/QtConcurrentRun>

namespace weft {

QString parallelismSummary(const Design &design)
{
    const QString gpus = QCoreApplication::translate("weft", "%1 GPUs")
                             .arg(QLocale().toString(qulonglong(design.acceleratorCount())));
    if (!design.workload)
        return gpus;
    const TrainingConfig &c = design.workload->config;
    QStringList parts {QStringLiteral("TP %1").arg(c.tp), QStringLiteral("PP %1").arg(c.pp),
                       QStringLiteral("DP %1").arg(c.dp)};
    if (c.cp > 1)
        parts << QStringLiteral("CP %1").arg(c.cp);
    if (c.ep > 1)
        parts << QStringLiteral("EP %1").arg(c.ep);
    parts << gpus;
    return parts.join(QStringLiteral(" · "));
}

QString currentDesignLabel(const DesignDocument &doc)
{
    return QCoreApplication::translate("weft", "%1 (current)")
        .arg(QFileInfo(doc.displayName()).completeBaseName());
}

ComparedDesign comparedDesign(const QString &label, const QString &source, const Design &design,
                              std::shared_ptr<const SimResult> result)
{
    ComparedDesign entry;
    entry.label = label;
    entry.source = source;
    entry.parallelism = parallelismSummary(design);
    entry.charts = reportChartData(*result, design, false);
    entry.result = std::move(result);
    return entry;
}

Comparison::Comparison(QObject *parent)
    : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<FileOutcome>::finished, this, [this] {
        FileOutcome outcome = m_watcher.result();
        emit busyChanged(false);
        if (outcome.entry)
            add(std::move(*outcome.entry));
        else if (!outcome.error.isEmpty())
            emit failed(tr("Cannot compare"), outcome.error);
    });
}

Comparison::~Comparison()
{
    cancelFile();
    m_watcher.waitForFinished();
}

QString Comparison::uniqueLabel(const QString &label, int except) const
{
    auto taken = [&](const QString &l) {
        for (int i = 0; i < int(m_entries.size()); ++i)
            if (i != except && m_entries[std::size_t(i)].label == l)
                return true;
        return false;
    };
    QString candidate = label;
    for (int n = 2; taken(candidate); ++n)
        candidate = QStringLiteral("%1 (%2)").arg(label).arg(n);
    return candidate;
}

int Comparison::add(ComparedDesign entry)
{
    entry.label
        = uniqueLabel(entry.label.trimmed().isEmpty() ? tr("design") : entry.label.trimmed());
    m_entries.push_back(std::move(entry));
    emit changed();
    return int(m_entries.size()) - 1;
}

void Comparison::remove(int index)
{
    if (index < 0 || index >= int(m_entries.size()))
        return;
    m_entries.erase(m_entries.begin() + index);
    emit changed();
}

bool Comparison::rename(int index, const QString &label)
{
    const QString l = label.trimmed();
    if (index < 0 || index >= int(m_entries.size()) || l.isEmpty() || uniqueLabel(l, index) != l)
        return false;
    m_entries[std::size_t(index)].label = l;
    emit changed();
    return true;
}

void Comparison::clear()
{
    if (m_entries.empty())
        return;
    m_entries.clear();
    emit changed();
}

bool Comparison::addFile(const QString &path)
{
    if (isBusy())
        return false;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    emit busyChanged(true);
    m_watcher.setFuture(QtConcurrent::run([path, cancel = m_cancel]() -> FileOutcome {
        LoadResult loaded = loadDesignFile(path, MigrationBackup::Skip);
        if (!loaded.ok())
            return {std::nullopt, describeLoadError(path, loaded.error)};
        const Design &design = *loaded.design;
        const QString name = QFileInfo(path).fileName();
        if (!design.workload)
            return {std::nullopt,
                    tr("%1 has no workload, so there is nothing to simulate. Open it and add one "
                       "in the Partitions dock.")
                        .arg(name)};
        SimOptions options;
        options.cancel = cancel.get();
        auto result = std::make_shared<SimResult>(simulate(design, options));
        if (result->cancelled)
            return {};
        if (!result->ok) {
            QStringList reasons;
            for (const Finding &f : result->warnings)
                if (f.severity == Severity::Error)
                    reasons << QString::fromStdString(f.message);
            return {
                std::nullopt,
                tr("%1 could not be simulated: %2").arg(name, reasons.join(QStringLiteral("; ")))};
        }
        const QString label = QFileInfo(path).completeBaseName();
        return {
            comparedDesign(label, QFileInfo(path).absoluteFilePath(), design, std::move(result)),
            {}};
    }));
    return true;
}

void Comparison::cancelFile()
{
    if (m_cancel)
        m_cancel->store(true);
}

} // namespace weft
