#include "gui/dialogs/whatifdialog.h"

#include "document/designdocument.h"
#include "gui/charts/chartmenu.h"
#include "gui/charts/whatifchart.h"
#include "gui/simulation/resultsummary.h"
#include "gui/simulation/whatifrunner.h"
#include "ui_whatifdialog.h"

#include <QCloseEvent>
#include <QHeaderView>
#include <QPushButton>
#include <QThread>
#include <algorithm>

namespace weft {

namespace {

// "cable 12: leaf3 – spine1" for a hurt-most entry labelled "cable:12".
QString cableText(const Design &d, const std::string &label)
{
    const std::string id = label.substr(label.find(':') + 1);
    Fault f {Fault::Kind::CableDown, id, 1};
    const Link *l = faultLink(d, f);
    const Node *a = l ? d.node(l->a) : nullptr;
    const Node *b = l ? d.node(l->b) : nullptr;
    return a && b ? WhatIfDialog::tr("cable of link %1: %2 – %3")
                        .arg(QString::fromStdString(id), QString::fromStdString(a->name),
                             QString::fromStdString(b->name))
                  : WhatIfDialog::tr("cable of link %1").arg(QString::fromStdString(id));
}

QString slowdown(double t, double healthy)
{
    return QStringLiteral("×%1").arg(t / healthy, 0, 'f', 3);
}

} // namespace

WhatIfDialog::WhatIfDialog(DesignDocument *doc, QWidget *parent)
    : QDialog(parent)
    , m_ui(std::make_unique<Ui::WhatIfDialog>())
    , m_doc(doc)
    , m_runner(new WhatIfRunner(this))
{
    m_ui->setupUi(this);
    setObjectName(QStringLiteral("whatIfDialog"));
    m_ui->jobsBox->setValue(std::max(1, QThread::idealThreadCount()));
    m_ui->hurtTable->setColumnCount(2);
    m_ui->hurtTable->setHorizontalHeaderLabels({tr("Failed cable"), tr("Mean slowdown")});
    m_ui->hurtTable->verticalHeader()->hide();
    m_ui->hurtTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_ui->hurtTable->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_ui->hurtTable->setToolTip(tr("The cables whose loss hurt most: the mean slowdown of the "
                                   "trials that failed each, worst first"));
    m_ui->chart->setEmptyHint(tr("No trials yet.\nSet K and T, then Run."));
    installChartMenu(m_ui->chart); // right-click: export as PNG, PDF, SVG or CSV
    m_ui->splitter->setStretchFactor(0, 3);
    m_ui->splitter->setStretchFactor(1, 2);
    connect(m_ui->runButton, &QPushButton::clicked, this, &WhatIfDialog::run);
    connect(m_ui->cancelButton, &QPushButton::clicked, m_runner, &WhatIfRunner::cancel);
    connect(m_ui->buttonBox, &QDialogButtonBox::rejected, this, &QDialog::close);
    connect(m_runner, &WhatIfRunner::progress, this, &WhatIfDialog::showProgress);
    connect(m_runner, &WhatIfRunner::finished, this, &WhatIfDialog::finished);
    m_ui->progressBar->setRange(0, 1);
    m_ui->progressBar->setValue(0);
    m_ui->progressBar->setTextVisible(false); // "0 / 1 trials" before any run would mislead
}

WhatIfDialog::~WhatIfDialog() = default;

WhatIfChart *WhatIfDialog::chart() const
{
    return m_ui->chart;
}

QString WhatIfDialog::message() const
{
    return m_ui->messageLabel->text();
}

void WhatIfDialog::setTrials(int failures, int trials, int seed, int jobs)
{
    m_ui->failuresBox->setValue(failures);
    m_ui->trialsBox->setValue(trials);
    m_ui->seedBox->setValue(seed);
    m_ui->jobsBox->setValue(jobs);
}

void WhatIfDialog::run()
{
    if (m_runner->isRunning())
        return;
    if (!m_doc->design().workload) {
        m_ui->messageLabel->setText(
            tr("The design has no workload: add one in the Partitions dock first."));
        return;
    }
    WhatIfOptions o;
    o.failures = m_ui->failuresBox->value();
    o.trials = m_ui->trialsBox->value();
    o.seed = static_cast<std::uint64_t>(m_ui->seedBox->value());
    o.jobs = m_ui->jobsBox->value();
    Design healthy = m_doc->design();
    healthy.scenario = {}; // the trials' own failures only
    if (!m_runner->start(healthy, o))
        return;
    m_failures = o.failures;
    m_ui->progressBar->setRange(0, o.trials);
    m_ui->progressBar->setValue(0);
    m_ui->progressBar->setTextVisible(true);
    m_ui->messageLabel->setText(
        o.trials == 1 ? tr("Simulating the healthy design, then 1 trial...")
                      : tr("Simulating the healthy design, then %1 trials...").arg(o.trials));
    setRunning(true);
}

void WhatIfDialog::setRunning(bool running)
{
    m_ui->runButton->setEnabled(!running);
    m_ui->cancelButton->setEnabled(running);
    for (QWidget *w :
         {static_cast<QWidget *>(m_ui->failuresBox), static_cast<QWidget *>(m_ui->trialsBox),
          static_cast<QWidget *>(m_ui->seedBox), static_cast<QWidget *>(m_ui->jobsBox)})
        w->setEnabled(!running);
}

void WhatIfDialog::showProgress(int done, int total)
{
    m_ui->progressBar->setRange(0, total);
    m_ui->progressBar->setValue(done);
}

void WhatIfDialog::finished()
{
    setRunning(false);
    const WhatIfResult &r = m_runner->result();
    m_ui->hurtTable->setRowCount(0);
    if (!r.ok) {
        m_ui->chart->setData({}, nullptr);
        m_ui->messageLabel->setText(
            tr("Cannot run the trials: %1").arg(QString::fromStdString(r.problem)));
        return;
    }
    const WhatIfStats s = whatIfStats(r.trials);
    QString error;
    if (s.ran == 0
        || !m_ui->chart->setData(
            whatIfChartData(QString::fromStdString(m_doc->design().name), m_failures, r), &error)) {
        m_ui->messageLabel->setText(
            tr("No trial could be simulated (%1 failed)%2")
                .arg(s.failed)
                .arg(error.isEmpty() ? QString() : QStringLiteral(": ") + error));
        return;
    }
    const double h = r.healthyStepTime;
    QString text = tr("Healthy %1 · median %2 (%3) · p95 %4 (%5) · worst %6 (%7) · %8 of %9 "
                      "simulated")
                       .arg(durationText(h), durationText(s.median), slowdown(s.median, h),
                            durationText(s.p95), slowdown(s.p95, h), durationText(s.worst),
                            slowdown(s.worst, h))
                       .arg(s.ran)
                       .arg(int(r.trials.size()));
    if (s.failed > 0)
        text += tr("; %1 could not run (no path left between some pair)").arg(s.failed);
    if (r.cancelled)
        text += tr(" (cancelled)");
    m_ui->messageLabel->setText(text);
    const Design &d = m_doc->design();
    m_ui->hurtTable->setRowCount(int(s.hurtMost.size()));
    for (int i = 0; i < int(s.hurtMost.size()); ++i) {
        const auto &[label, mean] = s.hurtMost[std::size_t(i)];
        m_ui->hurtTable->setItem(i, 0, new QTableWidgetItem(cableText(d, label)));
        auto *v = new QTableWidgetItem(QStringLiteral("×%1").arg(mean, 0, 'f', 3));
        v->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_ui->hurtTable->setItem(i, 1, v);
    }
}

void WhatIfDialog::closeEvent(QCloseEvent *event)
{
    m_runner->cancel();
    QDialog::closeEvent(event);
}

} // namespace weft
