#include "gui/dialogs/sweepdialog.h"

#include "document/designdocument.h"
#include "gui/charts/sweepchartdata.h"
#include "gui/simulation/sweeprunner.h"

#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>
#include <set>
#include <stdexcept>

namespace weft {

namespace {

enum Column { Value, StepTime, Tokens, Mfu, Memory, Status, ColumnCount };

// "a,b,c" of the distinct values of `around` scaled by `factors`, at least 1, ascending.
QString doublings(int around, std::initializer_list<double> factors)
{
    std::set<int> values;
    for (double f : factors)
        if (const int v = int(around * f); v >= 1 && double(v) == around * f)
            values.insert(v);
    QStringList parts;
    for (int v : values)
        parts << QString::number(v);
    return parts.join(QLatin1Char(','));
}

QTableWidgetItem *cell(const QString &text, Qt::Alignment align = Qt::AlignRight)
{
    auto *item = new QTableWidgetItem(text);
    item->setTextAlignment(align | Qt::AlignVCenter);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    return item;
}

} // namespace

QString SweepDialog::defaultValues(SweepParam p, const Design &design)
{
    const TrainingConfig c = design.workload ? design.workload->config : TrainingConfig {};
    switch (p) {
    case SweepParam::ScaleUpDomain:
        return QStringLiteral("8,16,32,72");
    case SweepParam::Tp:
        return doublings(c.tp, {0.25, 0.5, 1, 2, 4});
    case SweepParam::Pp:
        return doublings(c.pp, {0.5, 1, 2});
    case SweepParam::Dp:
        return doublings(c.dp, {0.25, 0.5, 1, 2});
    case SweepParam::MicroBatch:
        return doublings(c.microBatch, {0.5, 1, 2, 4});
    case SweepParam::GlobalBatch:
        return doublings(c.globalBatch, {0.5, 1, 2});
    case SweepParam::Oversubscription:
        return QStringLiteral("1,1.5,2,3,4");
    case SweepParam::NicRate:
        return QStringLiteral("100,200,400,800");
    }
    return {};
}

SweepDialog::SweepDialog(DesignDocument *doc, QWidget *parent)
    : QDialog(parent)
    , m_doc(doc)
    , m_runner(new SweepRunner(this))
    , m_param(new QComboBox)
    , m_values(new QLineEdit)
    , m_jobs(new QSpinBox)
    , m_addSeries(new QCheckBox(tr("Add to the series already in the Sweep chart")))
    , m_held(new QLabel)
    , m_message(new QLabel)
    , m_progress(new QProgressBar)
    , m_table(new QTableWidget(0, ColumnCount))
    , m_run(new QPushButton(tr("&Run")))
    , m_cancel(new QPushButton(tr("&Cancel Sweep")))
{
    setObjectName(QStringLiteral("SweepDialog"));
    setWindowTitle(tr("Sweep"));
    for (SweepParam p : allSweepParams()) {
        const QString unit = QString::fromStdString(sweepParamUnit(p));
        m_param->addItem(QString::fromStdString(sweepParamTitle(p))
                             + (unit.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(unit)),
                         int(p));
    }
    m_param->setCurrentIndex(m_param->findData(int(SweepParam::ScaleUpDomain)));
    m_values->setToolTip(tr("Comma-separated values, e.g. 8,16,32,72"));
    m_jobs->setRange(1, std::max(1, QThread::idealThreadCount() * 2));
    m_jobs->setValue(std::max(1, QThread::idealThreadCount()));
    m_jobs->setSuffix(tr(" threads"));
    m_jobs->setToolTip(tr("Variants simulated at once"));
    m_held->setWordWrap(true);
    m_message->setWordWrap(true);
    m_message->setObjectName(QStringLiteral("SweepMessage"));
    m_progress->setVisible(false);
    m_progress->setFormat(tr("%v of %m variants"));
    m_table->setObjectName(QStringLiteral("SweepTable"));
    m_table->setHorizontalHeaderLabels({tr("Value"), tr("Step time (s)"), tr("Tokens/s"),
                                        tr("MFU (%)"), tr("Peak memory (GB/GPU)"), tr("Status")});
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);

    auto *form = new QFormLayout;
    form->addRow(tr("&Parameter:"), m_param);
    form->addRow(tr("&Values:"), m_values);
    form->addRow(tr("&Jobs:"), m_jobs);
    form->addRow(QString(), m_addSeries);
    form->addRow(tr("Held fixed:"), m_held);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->addButton(m_run, QDialogButtonBox::ActionRole);
    buttons->addButton(m_cancel, QDialogButtonBox::ActionRole);
    m_run->setDefault(true);
    m_cancel->setEnabled(false);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_message);
    layout->addWidget(m_progress);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    resize(720, 460);

    connect(m_param, &QComboBox::currentIndexChanged, this, &SweepDialog::parameterChanged);
    connect(m_values, &QLineEdit::textChanged, this, &SweepDialog::validate);
    connect(m_run, &QPushButton::clicked, this, &SweepDialog::run);
    connect(m_cancel, &QPushButton::clicked, m_runner, &SweepRunner::cancel);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    connect(m_runner, &SweepRunner::progress, this, &SweepDialog::showProgress);
    connect(m_runner, &SweepRunner::finished, this, &SweepDialog::finished);
    connect(doc, &DesignDocument::workloadChanged, this, &SweepDialog::validate);
    connect(doc, &DesignDocument::reset, this, &SweepDialog::parameterChanged);
    parameterChanged();
}

void SweepDialog::parameterChanged()
{
    const auto p = static_cast<SweepParam>(m_param->currentData().toInt());
    m_values->setText(defaultValues(p, m_doc->design()));
    m_held->setText(QString::fromStdString(sweepHeldFixed(p)));
    validate();
}

void SweepDialog::validate()
{
    const auto p = static_cast<SweepParam>(m_param->currentData().toInt());
    QString problem;
    m_parsed.clear();
    if (!m_doc->design().workload) {
        problem = tr("This design has no workload: add one in the Partitions dock first.");
    } else {
        try {
            m_parsed = parseSweepValues(p, m_values->text().toStdString());
        } catch (const std::invalid_argument &e) {
            problem = tr("Values: %1").arg(QString::fromUtf8(e.what()));
        }
    }
    if (problem.isEmpty() && m_parsed.empty())
        problem
            = tr("Values: give at least one value, e.g. %1").arg(defaultValues(p, m_doc->design()));
    if (!m_runner->isRunning())
        m_message->setText(problem);
    m_message->setStyleSheet(problem.isEmpty() ? QString() : QStringLiteral("color: #d55e00"));
    m_run->setEnabled(problem.isEmpty() && !m_runner->isRunning());
}

void SweepDialog::run()
{
    validate();
    if (!m_run->isEnabled())
        return;
    const auto p = static_cast<SweepParam>(m_param->currentData().toInt());
    if (!m_runner->start(m_doc->design(), m_doc->catalog(), p, m_parsed, m_jobs->value()))
        return;
    m_table->setRowCount(0);
    m_progress->setRange(0, int(m_parsed.size()));
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_message->setStyleSheet({});
    m_message->setText(tr("Simulating %1 variants of %2 on %3 threads...")
                           .arg(m_parsed.size())
                           .arg(m_doc->displayName())
                           .arg(m_jobs->value()));
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    m_param->setEnabled(false);
    m_values->setEnabled(false);
}

void SweepDialog::showProgress(int done, int total)
{
    m_progress->setRange(0, total);
    m_progress->setValue(done);
}

void SweepDialog::finished()
{
    const SweepTable &t = m_runner->table();
    const QLocale loc;
    const QString unit = QString::fromStdString(sweepParamUnit(t.param));
    m_table->setRowCount(int(t.rows.size()));
    int ran = 0;
    for (int i = 0; i < int(t.rows.size()); ++i) {
        const SweepRow &r = t.rows[std::size_t(i)];
        const bool figures = r.stepTime > 0; // simulated, even when over HBM
        ran += r.ok ? 1 : 0;
        m_table->setItem(
            i, Value,
            cell(loc.toString(r.value, 'g', 6) + (unit.isEmpty() ? QString() : u' ' + unit)));
        m_table->setItem(i, StepTime, cell(figures ? loc.toString(r.stepTime, 'f', 3) : tr("-")));
        m_table->setItem(i, Tokens,
                         cell(figures ? loc.toString(r.tokensPerSecond, 'f', 0) : tr("-")));
        m_table->setItem(i, Mfu, cell(figures ? loc.toString(100 * r.mfu, 'f', 1) : tr("-")));
        m_table->setItem(i, Memory,
                         cell(figures ? loc.toString(r.peakMemoryPerGpu / 1e9, 'f', 1) : tr("-")));
        QString status = r.ok ? tr("ok") : QString::fromStdString(r.reason);
        if (!r.note.empty())
            status += QStringLiteral(" (%1)").arg(QString::fromStdString(r.note));
        QTableWidgetItem *s = cell(status, Qt::AlignLeft);
        s->setToolTip(status);
        if (!r.ok)
            s->setForeground(QColor(0xd5, 0x5e, 0x00));
        m_table->setItem(i, Status, s);
    }
    m_progress->setVisible(false);
    m_cancel->setEnabled(false);
    m_param->setEnabled(true);
    m_values->setEnabled(true);
    validate();
    m_message->setStyleSheet({});
    m_message->setText(ran == 0
                           ? tr("No variant could be simulated; the Status column says why.")
                           : tr("%1 of %2 variants simulated; the chart is in the Results dock's "
                                "Sweep tab.")
                                 .arg(ran)
                                 .arg(t.rows.size()));
    if (ran > 0)
        emit chartReady(sweepChartData(t, QFileInfo(m_doc->displayName()).completeBaseName()),
                        m_addSeries->isChecked());
}

void SweepDialog::closeEvent(QCloseEvent *event)
{
    m_runner->cancel(); // closing stops the sweep; its rows say "cancelled"
    QDialog::closeEvent(event);
}

} // namespace weft
