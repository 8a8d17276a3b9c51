#include "gui/dialogs/sweepdialog.h"

#include "document/designdocument.h"
#include "gui/charts/sweepchartdata.h"
#include "gui/simulation/resultsummary.h"
#include "gui/simulation/sweeprunner.h"
#include "gui/widgets/workloadsummary.h"
#include "sim/schedule.h"
#include "ui_sweepdialog.h"

#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QThread>
#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace weft {

namespace {

enum Column { Value, StepTime, Tokens, Mfu, Memory, Status, ColumnCount };

// Values tried for `p`: the design's own value and those around it that the parameter's
// constraints allow at all; `what` says how they were picked.
std::vector<double> candidates(SweepParam p, const Design &d, QString *what)
{
    const TransformerSpec m = d.workload ? d.workload->model : TransformerSpec {};
    const TrainingConfig c = d.workload ? d.workload->config : TrainingConfig {};
    const long long world = c.worldSize();
    std::vector<double> out;
    const auto scaled = [&](int around, int lo, int hi) { // around * 2^k, lo <= k <= hi
        for (int k = lo; k <= hi; ++k)
            if (const double v = std::ldexp(double(around), k); v >= 1 && v == std::floor(v))
                out.push_back(v);
    };
    switch (p) {
    case SweepParam::ScaleUpDomain:
        out = {4, 8, 16, 32, 64, 72};
        *what = QObject::tr("typical domain sizes");
        break;
    case SweepParam::Tp:
        for (int t = 1; t <= m.heads && t <= world; ++t)
            if (m.heads % t == 0)
                out.push_back(t);
        *what = QObject::tr("divisors of the %1 attention heads up to the world size %2")
                    .arg(m.heads)
                    .arg(world);
        break;
    case SweepParam::Pp: {
        const long long perPipeline = world / std::max(1, c.tp * c.cp);
        for (long long v = 1; v <= perPipeline && v <= m.layers; ++v)
            if (perPipeline % v == 0)
                out.push_back(double(v));
        *what = QObject::tr("PP degrees that keep the world size %1 and at most the %2 layers")
                    .arg(world)
                    .arg(m.layers);
        break;
    }
    case SweepParam::Dp:
        scaled(c.dp, -4, 4);
        *what = QObject::tr("DP %1 halved and doubled (the global batch follows)").arg(c.dp);
        break;
    case SweepParam::MicroBatch:
        scaled(1, 0, 5);
        out.push_back(c.microBatch);
        *what = QObject::tr("micro-batches of 1 to 32 sequences");
        break;
    case SweepParam::GlobalBatch:
        scaled(c.globalBatch, -2, 2);
        *what = QObject::tr("the global batch %1 halved and doubled").arg(c.globalBatch);
        break;
    case SweepParam::Oversubscription:
        out = {1, 1.5, 2, 3, 4};
        *what = QObject::tr("typical oversubscriptions");
        break;
    case SweepParam::NicRate:
        out = {100, 200, 400, 800};
        *what = QObject::tr("NIC generations");
        break;
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// The design's own value of `p`, or 0 when it has none to centre on.
double ownValue(SweepParam p, const Design &d)
{
    if (!d.workload)
        return 0;
    const TrainingConfig &c = d.workload->config;
    switch (p) {
    case SweepParam::Tp:
        return c.tp;
    case SweepParam::Pp:
        return c.pp;
    case SweepParam::Dp:
        return c.dp;
    case SweepParam::MicroBatch:
        return c.microBatch;
    case SweepParam::GlobalBatch:
        return c.globalBatch;
    default:
        return 0;
    }
}

// Why the variant of `p` = `value` would fail without simulating it (it cannot be built, the
// workload checks fail or a stage does not fit in HBM), or empty.
QString variantProblem(const Design &d, const Catalog &catalog, SweepParam p, double value)
{
    const SweepVariant v = buildSweepVariant(d, catalog, p, value);
    if (!v.design)
        return QString::fromStdString(v.error);
    const Design &vd = *v.design;
    const Workload &w = *vd.workload;
    for (const Finding &f : validate(w.model, w.config, vd.acceleratorCount()))
        if (f.severity == Severity::Error)
            return QString::fromStdString(f.message);
    if (const AcceleratorSpec *spec = WorkloadSummary::tightestAccelerator(vd))
        for (const MemoryBreakdown &mem : stageMemories(w.model, w.config, *spec))
            if (mem.total() > spec->hbmBytes)
                return QObject::tr("%1 GB per GPU does not fit in %2 GB of HBM")
                    .arg(gigabytesText(mem.total()), gigabytesText(spec->hbmBytes));
    return {};
}

QString valueText(double v)
{
    return QLocale::c().toString(v, 'g', 6);
}

QTableWidgetItem *cell(const QString &text, Qt::Alignment align = Qt::AlignRight)
{
    auto *item = new QTableWidgetItem(text);
    item->setTextAlignment(align | Qt::AlignVCenter);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    return item;
}

} // namespace

SweepDialog::Defaults SweepDialog::defaultValues(SweepParam p, const Design &design,
                                                 const Catalog &catalog)
{
    Defaults out;
    if (!design.workload)
        return out;
    QString what;
    const std::vector<double> tried = candidates(p, design, &what);
    std::vector<double> ok;
    QStringList left;
    for (const double v : tried) {
        const QString problem = variantProblem(design, catalog, p, v);
        if (problem.isEmpty())
            ok.push_back(v);
        else
            left << QStringLiteral("%1 (%2)").arg(valueText(v), problem);
    }
    // Around the design's own value: the kMax nearest on a log scale.
    constexpr std::size_t kMax = 5;
    if (const double own = ownValue(p, design); own > 0 && ok.size() > kMax) {
        std::stable_sort(ok.begin(), ok.end(), [own](double a, double b) {
            return std::abs(std::log(a / own)) < std::abs(std::log(b / own));
        });
        ok.resize(kMax);
        std::sort(ok.begin(), ok.end());
    }
    QStringList values;
    for (const double v : ok)
        values << valueText(v);
    out.values = values.join(QLatin1Char(','));
    out.note = ok.empty()
        ? tr("No value of %1 builds, passes the workload checks and fits in HBM.").arg(what)
        : tr("Offered: %1 that build, pass the workload checks and fit in HBM.").arg(what);
    if (!left.isEmpty())
        out.note += u' '
            + tr("Left out: %1%2.")
                  .arg(left.mid(0, 3).join(QStringLiteral("; ")),
                       left.size() > 3 ? tr(" and %n more", nullptr, int(left.size()) - 3)
                                       : QString());
    return out;
}

SweepDialog::SweepDialog(DesignDocument *doc, QWidget *parent)
    : QDialog(parent)
    , m_ui(std::make_unique<Ui::SweepDialog>())
    , m_doc(doc)
    , m_runner(new SweepRunner(this))
    , m_run(new QPushButton(tr("&Run")))
    , m_cancel(new QPushButton(tr("&Cancel Sweep")))
{
    m_ui->setupUi(this);
    m_param = m_ui->param;
    m_values = m_ui->values;
    m_jobs = m_ui->jobs;
    m_addSeries = m_ui->addSeries;
    m_held = m_ui->held;
    m_defaultsNote = m_ui->SweepDefaults;
    m_message = m_ui->SweepMessage;
    m_progress = m_ui->progress;
    m_table = m_ui->SweepTable;
    for (SweepParam p : allSweepParams()) {
        const QString unit = QString::fromStdString(sweepParamUnit(p));
        m_param->addItem(QString::fromStdString(sweepParamTitle(p))
                             + (unit.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(unit)),
                         int(p));
    }
    m_param->setCurrentIndex(m_param->findData(int(SweepParam::ScaleUpDomain)));
    m_jobs->setRange(1, std::max(1, QThread::idealThreadCount() * 2));
    m_jobs->setValue(std::max(1, QThread::idealThreadCount()));
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(Status, QHeaderView::Stretch);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Shrunk to its least size the dialog kept a table two rows tall and cut its columns: the
    // least width shows every column's header (the form asks for a few rows' height).
    int columns = 0;
    for (int c = 0; c < m_table->columnCount(); ++c)
        columns += m_table->horizontalHeader()->sectionSizeHint(c);
    m_table->setMinimumWidth(columns + 2 * m_table->frameWidth() + 4);
    QDialogButtonBox *buttons = m_ui->buttons;
    buttons->addButton(m_run, QDialogButtonBox::ActionRole);
    buttons->addButton(m_cancel, QDialogButtonBox::ActionRole);
    m_run->setDefault(true);
    m_cancel->setEnabled(false);

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

SweepDialog::~SweepDialog() = default;

void SweepDialog::parameterChanged()
{
    const auto p = static_cast<SweepParam>(m_param->currentData().toInt());
    const Defaults defaults = defaultValues(p, m_doc->design(), m_doc->catalog());
    m_defaults = defaults.values;
    m_values->setText(defaults.values);
    m_defaultsNote->setText(defaults.note);
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
        problem = m_defaults.isEmpty()
            ? tr("Values: give at least one value.")
            : tr("Values: give at least one value, e.g. %1").arg(m_defaults);
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
        const bool figures = r.ok; // a variant that cannot run has no step time to show
        const bool memory = r.peakMemoryPerGpu > 0; // also when over HBM: that is the reason
        ran += r.ok ? 1 : 0;
        m_table->setItem(
            i, Value,
            cell(loc.toString(r.value, 'g', 6) + (unit.isEmpty() ? QString() : u' ' + unit)));
        m_table->setItem(i, StepTime, cell(figures ? loc.toString(r.stepTime, 'f', 3) : tr("-")));
        m_table->setItem(i, Tokens,
                         cell(figures ? loc.toString(r.tokensPerSecond, 'f', 0) : tr("-")));
        m_table->setItem(i, Mfu, cell(figures ? loc.toString(100 * r.mfu, 'f', 1) : tr("-")));
        m_table->setItem(i, Memory,
                         cell(memory ? loc.toString(r.peakMemoryPerGpu / 1e9, 'f', 1) : tr("-")));
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
