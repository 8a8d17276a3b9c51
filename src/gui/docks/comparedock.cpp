#include "gui/docks/comparedock.h"

#include "document/designdocument.h"
#include "gui/dialogs/dialogpresenter.h"
#include "gui/simulation/comparison.h"
#include "gui/simulation/resultsummary.h"
#include "gui/simulation/simulationrunner.h"

#include <QAction>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <set>

namespace weft {

namespace {

enum Column { Label, Parallelism, StepTime, Change, Tokens, Mfu, Memory, ColumnCount };

QTableWidgetItem *cell(const QString &text, Qt::Alignment align = Qt::AlignRight)
{
    auto *item = new QTableWidgetItem(text);
    item->setTextAlignment(align | Qt::AlignVCenter);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    return item;
}

QString baseName(const DesignDocument *doc)
{
    return QFileInfo(doc->displayName()).completeBaseName();
}

} // namespace

CompareDock::CompareDock(DesignDocument *doc, SimulationRunner *runner, Comparison *comparison,
                         QWidget *parent)
    : QDockWidget(tr("Compare"), parent)
    , pin(new QAction(tr("Add Result to &Comparison"), this))
    , addFile(new QAction(tr("Compare with &File..."), this))
    , remove(new QAction(tr("&Remove from Comparison"), this))
    , clear(new QAction(tr("C&lear Comparison"), this))
    , m_doc(doc)
    , m_runner(runner)
    , m_comparison(comparison)
    , m_table(new QTableWidget(0, ColumnCount))
    , m_busy(new QLabel)
    , m_cancelFile(new QToolButton)
{
    setObjectName(QStringLiteral("CompareDock"));
    pin->setObjectName(QStringLiteral("actionPinResult"));
    pin->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    pin->setToolTip(tr("Keep the current result for comparison; later edits (another placement, "
                       "another fabric) are then compared with it side by side"));
    addFile->setObjectName(QStringLiteral("actionCompareFile"));
    addFile->setToolTip(tr("Simulate another design file and compare it with this one"));
    remove->setObjectName(QStringLiteral("actionRemoveCompared"));
    clear->setObjectName(QStringLiteral("actionClearComparison"));

    m_table->setObjectName(QStringLiteral("CompareTable"));
    m_table->setHorizontalHeaderLabels({tr("Design"), tr("Parallelism"), tr("Step time (s)"),
                                        tr("vs current"), tr("Tokens/s"), tr("MFU (%)"),
                                        tr("Peak memory (GB/GPU)")});
    m_table->verticalHeader()->setVisible(false);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);

    auto *bar = new QHBoxLayout;
    for (QAction *a : {pin, addFile, remove, clear}) {
        auto *button = new QToolButton;
        button->setDefaultAction(a);
        bar->addWidget(button);
    }
    m_busy->setObjectName(QStringLiteral("CompareBusy"));
    m_cancelFile->setText(tr("Cancel"));
    m_cancelFile->setVisible(false);
    bar->addStretch(1);
    bar->addWidget(m_busy);
    bar->addWidget(m_cancelFile);
    auto *body = new QWidget;
    auto *layout = new QVBoxLayout(body);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->addLayout(bar);
    layout->addWidget(m_table, 1);
    setWidget(body);

    connect(pin, &QAction::triggered, this, [this] { pinCurrent(); });
    connect(addFile, &QAction::triggered, this, [this] {
        const QString dir
            = m_doc->filePath().isEmpty() ? QString() : QFileInfo(m_doc->filePath()).absolutePath();
        const QString path = dialogPresenter().openFileName(this, dir);
        if (!path.isEmpty())
            m_comparison->addFile(path);
    });
    connect(remove, &QAction::triggered, this, [this] {
        std::set<int, std::greater<>> rows; // remove from the bottom up
        for (const QModelIndex &i : m_table->selectionModel()->selectedRows())
            if (i.row() > 0)
                rows.insert(i.row() - 1);
        for (int r : rows)
            m_comparison->remove(r);
    });
    connect(clear, &QAction::triggered, m_comparison, &Comparison::clear);
    connect(m_cancelFile, &QToolButton::clicked, m_comparison, &Comparison::cancelFile);
    connect(m_comparison, &Comparison::busyChanged, this, [this](bool busy) {
        m_busy->setText(busy ? tr("Simulating the design file...") : QString());
        m_cancelFile->setVisible(busy);
        updateActions();
    });
    connect(m_comparison, &Comparison::failed, this,
            [this](const QString &title, const QString &text) {
                dialogPresenter().showError(this, title, text);
            });
    connect(m_comparison, &Comparison::changed, this, &CompareDock::refresh);
    connect(runner, &SimulationRunner::resultChanged, this, &CompareDock::refresh);
    connect(runner, &SimulationRunner::staleChanged, this, &CompareDock::refresh);
    // The current row names the window's design and its parallelism: follow Open, Save As and
    // edits (it said "Untitled (current)" and the old GPU count until the next simulation).
    for (auto changed : {&DesignDocument::reset, &DesignDocument::filePathChanged,
                         &DesignDocument::workloadChanged})
        connect(m_doc, changed, this, &CompareDock::refresh);
    connect(m_doc, &DesignDocument::added, this, &CompareDock::refresh);
    connect(m_doc, &DesignDocument::removed, this, &CompareDock::refresh);
    connect(m_table, &QTableWidget::cellChanged, this, &CompareDock::renamed);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &CompareDock::updateActions);
    refresh();
}

void CompareDock::pinCurrent(const QString &label)
{
    const auto result = m_runner->result();
    if (!result || !result->ok || m_runner->isStale())
        return;
    const Design &d = m_doc->design();
    const QString name = label.isEmpty()
        ? tr("%1 · %2").arg(baseName(m_doc),
                            parallelismSummary(d).section(QStringLiteral(" · "), 0, 2))
        : label;
    m_comparison->add(
        comparedDesign(name, tr("pinned from %1").arg(m_doc->displayName()), d, result));
}

void CompareDock::refresh()
{
    m_filling = true;
    const auto current = m_runner->result();
    const bool haveCurrent = current && current->ok;
    const auto &entries = m_comparison->entries();
    m_table->setRowCount(int(entries.size()) + 1);
    auto fillRow = [&](int row, const QString &label, const QString &parallelism,
                       const SimResult *r, bool editable) {
        QTableWidgetItem *name = cell(label, Qt::AlignLeft);
        if (editable)
            name->setFlags(name->flags() | Qt::ItemIsEditable);
        m_table->setItem(row, Label, name);
        m_table->setItem(row, Parallelism, cell(parallelism, Qt::AlignLeft));
        const QLocale loc;
        const bool ok = r && r->ok;
        m_table->setItem(row, StepTime, cell(ok ? loc.toString(r->stepTime, 'f', 3) : tr("-")));
        QString change = tr("-");
        if (ok && haveCurrent && row > 0 && current->stepTime > 0)
            change = QStringLiteral("%1%2 %")
                         .arg(r->stepTime >= current->stepTime ? QStringLiteral("+") : QString())
                         .arg(loc.toString(100 * (r->stepTime / current->stepTime - 1), 'f', 1));
        m_table->setItem(row, Change, cell(change));
        m_table->setItem(row, Tokens,
                         cell(ok ? loc.toString(r->tokensPerSecond, 'f', 0) : tr("-")));
        m_table->setItem(row, Mfu, cell(ok ? loc.toString(100 * r->mfu, 'f', 1) : tr("-")));
        m_table->setItem(
            row, Memory,
            cell(ok ? QStringLiteral("%1%2").arg(loc.toString(r->peakMemoryPerGpu / 1e9, 'f', 1),
                                                 r->memoryFits ? QString() : tr(" (over HBM)"))
                    : tr("-")));
    };
    QString currentLabel = currentDesignLabel(*m_doc);
    if (haveCurrent && m_runner->isStale())
        currentLabel += tr(", out of date");
    fillRow(0, currentLabel, parallelismSummary(m_doc->design()), current.get(), false);
    QFont italic = m_table->font();
    italic.setItalic(true);
    m_table->item(0, Label)->setFont(italic);
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const ComparedDesign &e = entries[i];
        fillRow(int(i) + 1, e.label, e.parallelism, e.result.get(), true);
        m_table->item(int(i) + 1, Label)->setToolTip(e.source);
    }
    m_filling = false;
    updateActions();
}

void CompareDock::renamed(int row, int column)
{
    if (m_filling || column != Label || row < 1)
        return;
    const int index = row - 1;
    const QString wanted = m_table->item(row, Label)->text();
    if (!m_comparison->rename(index, wanted)) {
        dialogPresenter().showError(
            this, tr("Cannot rename"),
            tr("'%1' is empty or already names another compared design.").arg(wanted));
        refresh(); // back to the old label
    }
}

void CompareDock::updateActions()
{
    const auto result = m_runner->result();
    pin->setEnabled(result && result->ok && !m_runner->isStale());
    addFile->setEnabled(!m_comparison->isBusy());
    bool entrySelected = false;
    for (const QModelIndex &i : m_table->selectionModel()->selectedRows())
        entrySelected = entrySelected || i.row() > 0;
    remove->setEnabled(entrySelected);
    clear->setEnabled(!m_comparison->isEmpty());
}

} // namespace weft
