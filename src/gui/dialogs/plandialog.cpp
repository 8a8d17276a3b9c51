#include "gui/dialogs/plandialog.h"

#include "document/designdocument.h"
#include "gui/charts/planchartdata.h"
#include "gui/charts/plancharts.h"
#include "gui/simulation/comparison.h"
#include "gui/simulation/planrunner.h"
#include "plan/plancountstext.h"
#include "sim/memoryheadroom.h"
#include "ui_plandialog.h"

#include <QCloseEvent>
#include <QHeaderView>
#include <QLocale>
#include <QMessageBox>
#include <QThread>
#include <QTimer>
#include <algorithm>
#include <limits>
#include <stdexcept>

namespace weft {

namespace {

// The answer first (rank, step time, throughput, MFU, memory), then the knobs.
enum Column {
    ColRank,
    ColStep,
    ColTokens,
    ColMfu,
    ColMemory,
    ColTp,
    ColPp,
    ColDp,
    ColCp,
    ColEp,
    ColEtp,
    ColDispatcher,
    ColEpOverlap,
    ColSchedule,
    ColMicroBatch,
    ColRecompute,
    ColZero,
    ColPlacement,
    ColCount
};

} // namespace

PlanDialog::PlanDialog(DesignDocument *doc, Comparison *comparison, QWidget *parent)
    : QDialog(parent)
    , m_ui(std::make_unique<Ui::PlanDialog>())
    , m_doc(doc)
    , m_comparison(comparison)
    , m_runner(new PlanRunner(this))
{
    m_ui->setupUi(this);
    setObjectName(QStringLiteral("planDialog"));
    m_ui->jobsBox->setValue(std::max(1, QThread::idealThreadCount()));
    m_ui->table->setColumnCount(ColCount);
    m_ui->table->setHorizontalHeaderLabels(
        {tr("Rank"), tr("Step (ms)"), tr("Tokens/s"), tr("MFU (%)"), tr("Memory (GB/GPU)"),
         tr("TP"), tr("PP"), tr("DP"), tr("CP"), tr("EP"), tr("ETP"), tr("Dispatcher"),
         tr("EP overlap"), tr("Schedule"), tr("Micro-batch"), tr("Recompute"), tr("ZeRO"),
         tr("Placement")});
    m_ui->table->verticalHeader()->hide();
    m_ui->table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_ui->compareButton->setVisible(m_comparison != nullptr);
    // The table above the chart, full width: beside it, half a candidate's knobs (schedule,
    // micro-batch, recomputation, ZeRO, placement) hid behind a horizontal scroll bar.
    m_ui->splitter->setStretchFactor(0, 1);
    m_ui->splitter->setStretchFactor(1, 1);
    // Before a run the chart's bare axes said nothing: say what fills it.
    m_ui->paretoChart->setEmptyHint(tr("No candidates yet.\nRun plans the design and plots each "
                                       "simulated candidate here:\nthroughput against peak "
                                       "memory per GPU."));
    connect(m_ui->runButton, &QPushButton::clicked, this, &PlanDialog::run);
    connect(m_ui->cancelButton, &QPushButton::clicked, m_runner, &PlanRunner::cancel);
    connect(m_ui->applyButton, &QPushButton::clicked, this, &PlanDialog::applySelected);
    connect(m_ui->compareButton, &QPushButton::clicked, this, &PlanDialog::compareSelected);
    connect(m_ui->buttonBox, &QDialogButtonBox::rejected, this, &QDialog::close);
    connect(m_ui->table, &QTableWidget::itemSelectionChanged, this, &PlanDialog::updateButtons);
    connect(m_ui->table, &QTableWidget::cellDoubleClicked, this, &PlanDialog::applySelected);
    connect(m_runner, &PlanRunner::progress, this,
            [this](qint64 done, qint64 total, qint64 simulated, qint64 pruned) {
                m_ui->progressBar->setMaximum(static_cast<int>(std::max<qint64>(1, total)));
                m_ui->progressBar->setValue(static_cast<int>(done));
                m_ui->messageLabel->setText(
                    tr("%1 of %2 candidates that fit: %3 simulated, %4 pruned by the bound or "
                       "stopped past the %5 best")
                        .arg(done)
                        .arg(total)
                        .arg(simulated)
                        .arg(pruned)
                        .arg(QString::fromStdString(ordinal(m_ui->topBox->value()))));
            });
    connect(m_runner, &PlanRunner::preparing, this, [this](qint64 prepared, qint64 total) {
        m_ui->progressBar->setMaximum(static_cast<int>(
            std::min<qint64>(std::numeric_limits<int>::max(), std::max<qint64>(1, total))));
        m_ui->progressBar->setValue(static_cast<int>(std::min(prepared, total)));
        m_ui->messageLabel->setText(
            tr("Preparing the candidates' memory and lower bounds: %1 of %2")
                .arg(prepared)
                .arg(total));
    });
    connect(m_runner, &PlanRunner::rowFound, this, &PlanDialog::addRow);
    connect(m_runner, &PlanRunner::finished, this, &PlanDialog::finished);
    connect(m_runner, &PlanRunner::comparisonReady, this, [this](const ComparedDesign &entry) {
        if (m_comparison)
            m_comparison->add(entry);
        compareNext();
    });
    connect(m_runner, &PlanRunner::comparisonFailed, this, [this](const QString &message) {
        m_ui->messageLabel->setText(message);
        compareNext();
    });
    // The chart is rebuilt at most a few times a second while results arrive.
    auto *timer = new QTimer(this);
    timer->setInterval(250);
    connect(timer, &QTimer::timeout, this, [this] {
        if (m_chartDirty)
            refreshChart();
    });
    timer->start();
    updateButtons();
}

PlanDialog::~PlanDialog() = default;

PlanObjective PlanDialog::objective() const
{
    return m_ui->objectiveBox->currentIndex() == 1 ? PlanObjective::TokensPerSecond
                                                   : PlanObjective::StepTime;
}

void PlanDialog::run()
{
    if (m_runner->isRunning())
        return;
    const Design &d = m_doc->design();
    if (!d.workload) {
        m_ui->messageLabel->setText(
            tr("The design has no workload: choose a model in the Partitions dock first."));
        return;
    }
    PlanSpace space = defaultPlanSpace(d, *d.workload);
    try {
        fixKnobs(space, m_ui->fixField->text().trimmed().toStdString());
    } catch (const std::invalid_argument &e) {
        m_ui->messageLabel->setText(tr("Fixed knobs: %1").arg(QString::fromUtf8(e.what())));
        return;
    }
    m_design = d;
    m_space = space;
    m_simulated.clear();
    m_ranked.clear();
    refreshTable();
    refreshChart();
    PlanOptions o;
    o.jobs = m_ui->jobsBox->value();
    o.top = m_ui->topBox->value();
    o.objective = objective();
    if (!m_runner->start(m_design, m_space, o))
        return;
    m_ui->progressBar->setValue(0);
    m_ui->messageLabel->setText(tr("Screening the candidates by memory and lower bound..."));
    m_ui->paretoChart->setEmptyHint(
        tr("Screening the candidates...\nEach one is plotted here once simulated."));
    updateButtons();
}

void PlanDialog::addRow(const PlanRow &row)
{
    m_simulated.push_back(row);
    m_ranked.insert(std::upper_bound(m_ranked.begin(), m_ranked.end(), row,
                                     [this](const PlanRow &a, const PlanRow &b) {
                                         return ranksBefore(a, b, objective());
                                     }),
                    row);
    if (static_cast<int>(m_ranked.size()) > m_ui->topBox->value())
        m_ranked.pop_back();
    refreshTable();
    m_chartDirty = true;
}

void PlanDialog::refreshTable()
{
    const std::vector<int> selected = selectedRanks();
    QTableWidget *t = m_ui->table;
    // The expert knobs mean nothing for a dense model: their columns only for MoE.
    const Design &d = m_doc->design();
    const bool moe = m_runner->isRunning() || !m_ranked.empty()
        ? m_space.base.model.isMoe()
        : d.workload && d.workload->model.isMoe();
    for (int col : {ColEp, ColEtp, ColDispatcher, ColEpOverlap})
        t->setColumnHidden(col, !moe);
    t->setRowCount(static_cast<int>(m_ranked.size()));
    const auto set = [t](int row, int col, const QString &text) {
        auto *item = new QTableWidgetItem(text);
        if (col != ColSchedule && col != ColRecompute && col != ColPlacement && col != ColDispatcher
            && col != ColEpOverlap)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        t->setItem(row, col, item);
    };
    for (int i = 0; i < static_cast<int>(m_ranked.size()); ++i) {
        const PlanRow &r = m_ranked[static_cast<std::size_t>(i)];
        const TrainingConfig &c = r.config;
        set(i, ColRank, QString::number(i + 1));
        set(i, ColTp, QString::number(c.tp));
        set(i, ColPp, QString::number(c.pp));
        set(i, ColDp, QString::number(c.dp));
        set(i, ColCp, QString::number(c.cp));
        set(i, ColEp, QString::number(c.ep));
        set(i, ColEtp, QString::number(c.expertTp()));
        set(i, ColDispatcher, QString::fromLatin1(toString(c.dispatcher)));
        // Megatron-Core's combined 1F1B all-to-all overlap; nothing to overlap without EP.
        set(i, ColEpOverlap, c.ep <= 1 ? QStringLiteral("-") : c.overlapEp ? tr("on") : tr("off"));
        set(i, ColSchedule,
            c.schedule == PipelineSchedule::Interleaved
                ? tr("interleaved, %1 virtual stages").arg(c.vpp)
                : QString::fromLatin1(toString(c.schedule)));
        set(i, ColMicroBatch, QString::number(c.microBatch));
        set(i, ColRecompute, QString::fromLatin1(toString(c.recompute)));
        set(i, ColZero, QString::number(c.effectiveZero()));
        set(i, ColPlacement, QString::fromStdString(r.order));
        set(i, ColStep, QString::number(r.stepTime * 1e3, 'f', 1));
        set(i, ColTokens, QLocale().toString(r.tokensPerSecond, 'f', 0)); // 1,029,231 (as Compare)
        set(i, ColMfu, QString::number(r.mfu * 100, 'f', 1));
        set(i, ColMemory, QString::number(r.peakMemoryPerGpu / 1e9, 'f', 1));
        if (r.overHeadroom()) {
            // What simulate warns about (memory-headroom): flagged, not hidden.
            QTableWidgetItem *m = t->item(i, ColMemory);
            m->setText(m->text() + QStringLiteral(" !"));
            m->setForeground(QColor(0xc0, 0x60, 0x00));
            m->setToolTip(tr("%1% of HBM: above the %2% that simulate warns about "
                             "(memory-headroom); the estimate leaves out the CUDA context, "
                             "NCCL buffers and fragmentation")
                              .arg(r.peakMemoryPerGpu / r.memoryCapacityPerGpu * 100, 0, 'f', 0)
                              .arg((1 - kMemoryHeadroom) * 100, 0, 'f', 0));
        }
    }
    if (!selected.empty() && selected.front() < t->rowCount())
        t->selectRow(selected.front());
    updateButtons();
}

void PlanDialog::refreshChart()
{
    m_chartDirty = false;
    TrainingPlan r;
    r.simulated = m_simulated;
    r.ranked = m_ranked;
    m_ui->paretoChart->setData(planParetoData(r));
}

void PlanDialog::finished()
{
    const TrainingPlan &r = m_runner->result();
    // The final ranking replaces the incremental one (identical unless cancelled mid-way).
    m_simulated = r.simulated;
    m_ranked = r.ranked;
    refreshTable();
    refreshChart();
    QString text = QString::fromStdString(describePlanCounts(r.counts, r.top)) + u'.';
    if (r.cancelled)
        text = tr("Cancelled. ") + text;
    if (r.ranked.empty() && !r.cancelled)
        text += QLatin1Char(' ') + QString::fromStdString(infeasibleExplanation(r));
    for (const PlanLoser &l : r.losers)
        text += tr("\n%1: %2% slower: %3")
                    .arg(QString::fromStdString(l.title))
                    .arg(l.slowdown * 100, 0, 'f', 1)
                    .arg(QString::fromStdString(l.why));
    m_ui->messageLabel->setText(text);
    if (m_simulated.empty())
        m_ui->paretoChart->setEmptyHint(
            r.cancelled ? tr("Cancelled before a candidate was simulated.\nRun starts again.")
                        : tr("No candidate was simulated:\nthe message above says why."));
    m_ui->progressBar->setValue(m_ui->progressBar->maximum());
    if (!m_ranked.empty() && m_ui->table->selectedItems().isEmpty())
        m_ui->table->selectRow(0);
    updateButtons();
}

std::vector<int> PlanDialog::selectedRanks() const
{
    std::vector<int> rows;
    for (const QModelIndex &i : m_ui->table->selectionModel()->selectedRows())
        rows.push_back(i.row());
    std::sort(rows.begin(), rows.end());
    return rows;
}

void PlanDialog::updateButtons()
{
    const bool running = m_runner->isRunning();
    m_ui->runButton->setEnabled(!running);
    m_ui->cancelButton->setEnabled(running);
    m_ui->applyButton->setEnabled(!m_ranked.empty());
    m_ui->compareButton->setEnabled(!m_ranked.empty() && m_toCompare.empty());
}

void PlanDialog::applySelected()
{
    if (m_ranked.empty() || !m_doc->design().workload)
        return;
    std::vector<int> rows = selectedRanks();
    const PlanRow &r = m_ranked[static_cast<std::size_t>(rows.empty() ? 0 : rows.front())];
    m_doc->setWorkload(candidateWorkload(*m_doc->design().workload, r.config, r.order),
                       tr("Apply Plan Candidate"));
    m_ui->messageLabel->setText(tr("Applied %1 (Edit > Undo reverts it).").arg(planRowLabel(r)));
}

void PlanDialog::compareSelected()
{
    if (!m_comparison || m_ranked.empty() || !m_toCompare.empty())
        return;
    std::vector<int> rows = selectedRanks();
    if (rows.empty())
        rows = {0};
    for (int i : rows)
        m_toCompare.push_back(m_ranked[static_cast<std::size_t>(i)]);
    std::reverse(m_toCompare.begin(), m_toCompare.end());
    compareNext();
}

void PlanDialog::compareNext()
{
    if (m_toCompare.empty()) {
        updateButtons();
        return;
    }
    const PlanRow row = m_toCompare.back();
    m_toCompare.pop_back();
    const auto rank = std::find_if(m_ranked.begin(), m_ranked.end(),
                                   [&](const PlanRow &r) { return r.index == row.index; });
    const QString label = tr("plan #%1: TP %2 PP %3 DP %4")
                              .arg(rank - m_ranked.begin() + 1)
                              .arg(row.config.tp)
                              .arg(row.config.pp)
                              .arg(row.config.dp);
    m_ui->messageLabel->setText(tr("Simulating %1 for the comparison...").arg(label));
    m_runner->simulateForComparison(m_design, m_space.base, row, label);
    updateButtons();
}

void PlanDialog::closeEvent(QCloseEvent *event)
{
    m_runner->cancel();
    QDialog::closeEvent(event);
}

} // namespace weft
