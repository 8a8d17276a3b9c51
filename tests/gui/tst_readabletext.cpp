// Text a fresh user could not read (fresh-user report): palette names elided in the middle
// ("GB200 (Bla… in NVL72)"), findings that did not wrap and an empty Findings dock that said
// nothing, a preset combo box that clipped "qwen3-235b-a22b (235.1 B)" mid-character, the
// Partitions dock's combo boxes clipped in a narrow dock, and the Utilization chart's tier "nic".
#include "gui/charts/utilizationchart.h"
#include "gui/docks/findingsdock.h"
#include "gui/docks/palettedock.h"
#include "gui/docks/partitionsdock.h"
#include "gui/docks/workloadform.h"
#include "gui/mainwindow.h"
#include "gui/tierlabel.h"
#include "gui/widgets/elidingcombobox.h"
#include "windowdriver.h"
#include "workloadfixtures.h"

#include <QComboBox>
#include <QHeaderView>
#include <QScrollArea>
#include <QStandardPaths>
#include <QToolTip>
#include <QTreeWidget>

using namespace weft;
using namespace weft::test;
using namespace Qt::StringLiterals;

namespace {

// The Partitions dock as grabbed, scrolled to its first combo boxes, then to its last.
void savePictures(PartitionsDock &dock)
{
    const QString dir = qEnvironmentVariable("WEFT_SCREENSHOT_DIR");
    auto *scroll = qobject_cast<QScrollArea *>(dock.form()->parentWidget()->parentWidget());
    if (dir.isEmpty() || !scroll)
        return;
    for (const QString &key : {u"preset"_s, u"attention"_s, u"cudaGraphs"_s}) {
        scroll->ensureWidgetVisible(dock.form()->field(key));
        QApplication::processEvents();
        dock.grab().save(u"%1/partitions-narrow-%2.png"_s.arg(dir, key));
    }
}

} // namespace

class TestReadableText : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // Every accelerator and scale-up domain of the palette reads in full in the default
    // layout; a qualifier that only the tooltip needs is left out of the row.
    void paletteRowsReadInFull()
    {
        auto w = shownWindow({1400, 900});
        QVERIFY(w);
        PaletteTree *tree = w->paletteDock()->tree();
        const QFontMetrics fm = tree->fontMetrics();
        int checked = 0;
        for (int c = 0; c < 2; ++c) { // Accelerators, Scale-up domains
            const QTreeWidgetItem *category = tree->topLevelItem(c);
            for (int i = 0; i < category->childCount(); ++i) {
                const QTreeWidgetItem *e = category->child(i);
                const QRect r = tree->visualItemRect(e);
                const int room = std::min(r.right(), tree->viewport()->width()) - r.left()
                    - tree->iconSize().width() - 8;
                QVERIFY2(fm.horizontalAdvance(e->text(0)) <= room,
                         qPrintable(e->text(0) + u" needs more than %1 px"_s.arg(room)));
                ++checked;
            }
        }
        QVERIFY(checked >= 15);
        QTreeWidgetItem *gb200 = tree->findEntry(u"GB200"_s);
        QVERIFY(gb200);
        QCOMPARE(gb200->text(0), u"GB200"_s);
        QVERIFY(gb200->toolTip(0).startsWith(u"NVIDIA GB200 (Blackwell GPU in NVL72)"_s));
        QCOMPARE(withoutQualifier(u"Quantum-2 QM9700 (NDR)"_s), u"Quantum-2 QM9700"_s);
        QCOMPARE(withoutQualifier(u"H100 SXM5 80GB"_s), u"H100 SXM5 80GB"_s);
    }

    // An empty design has no findings, and the dock says so; a long finding wraps to the
    // dock's width instead of ending in "...".
    void findingsSayNoneAndWrap()
    {
        auto w = shownWindow({900, 900});
        QVERIFY(w);
        w->findings()->raise();
        QTreeWidget *list = w->findings()->list();
        QVERIFY(QTest::qWaitFor([list] { return list->topLevelItemCount() == 1; }));
        QCOMPARE(list->topLevelItem(0)->text(0), u"No findings"_s);
        QCOMPARE(list->topLevelItem(0)->flags(), Qt::NoItemFlags);
        QCOMPARE(w->findings()->windowTitle(), u"Findings"_s);

        const QString message = u"pipeline stage 1 needs 81.3 of 85.5 GB of HBM per accelerator "
                                u"(95%): less than the 10% headroom that the CUDA context, NCCL "
                                u"buffers and allocator fragmentation need"_s;
        auto *item = new QTreeWidgetItem({message, u"memory-headroom"_s});
        list->addTopLevelItem(item);
        QApplication::processEvents();
        const int line = list->fontMetrics().height();
        QVERIFY2(list->header()->sectionSize(0) < list->fontMetrics().horizontalAdvance(message),
                 "the dock is wide enough for one line: nothing to wrap");
        QVERIFY2(
            list->visualItemRect(item).height() >= 2 * line,
            qPrintable(u"row %1 px for lines of %2 px"_s.arg(list->visualItemRect(item).height())
                           .arg(line)));
        // The code column is as wide as the code: it does not wrap.
        QVERIFY(list->header()->sectionSize(1)
                >= list->fontMetrics().horizontalAdvance(u"memory-headroom"_s));
    }

    // The closed preset box drops the size before clipping the name; the list shows it all.
    void comboBoxKeepsTheName()
    {
        ElidingComboBox box;
        box.addItem(u"qwen3-235b-a22b (235.1 B)"_s);
        const QFontMetrics fm = box.fontMetrics();
        const int full = fm.horizontalAdvance(box.currentText());
        QCOMPARE(box.shownText(full), box.currentText());
        QCOMPARE(box.shownText(full - 10), u"qwen3-235b-a22b"_s);
        const QString tight = box.shownText(fm.horizontalAdvance(u"qwen3-235b"_s));
        QVERIFY2(tight.endsWith(QChar(0x2026)) && tight.startsWith(u"qwen3"_s), qPrintable(tight));
        auto w = shownWindow({1400, 900});
        QVERIFY(w);
        QVERIFY(w->findChild<ElidingComboBox *>(u"preset"_s));
    }

    // At the narrowest the Partitions dock can be made, every item of every combo box reads in
    // full once chosen, or, shortened, whole in its tooltip: the form's combo boxes had a fixed
    // share of their row and clipped "Fused (generation's own)" at 118 px, "Tensorwise (current
    // scaling)" at 85. A custom model's name of any length is shortened and in the tooltip.
    // WEFT_SCREENSHOT_DIR keeps pictures of the dock.
    void partitionsCombosReadWhenNarrow()
    {
        auto w = shownWindow({1400, 900});
        QVERIFY(w);
        Design d = fixtures::cluster256();
        d.workload->model.name = "llama3-70b-with-a-long-experimental-tokenizer-custom";
        w->document()->resetDesign(std::move(d));
        PartitionsDock *dock = w->partitions();
        dock->raise();
        w->resizeDocks({dock}, {1}, Qt::Horizontal); // as narrow as its contents allow
        QApplication::processEvents();
        QCOMPARE(dock->width(), dock->minimumSizeHint().width());
        savePictures(*dock);
        const auto hoverTip = [](QWidget *c) {
            QHelpEvent e(QEvent::ToolTip, QPoint(4, 4), c->mapToGlobal(QPoint(4, 4)));
            QApplication::sendEvent(c, &e);
            return QToolTip::text();
        };
        auto *preset = qobject_cast<QComboBox *>(dock->form()->field(u"preset"_s));
        QVERIFY(preset->currentText().startsWith(u"Custom: llama3-70b-with-a-long"_s));
        QVERIFY2(hoverTip(preset).startsWith(preset->currentText()), qPrintable(hoverTip(preset)));
        QStringList clipped;
        for (QComboBox *c : dock->findChildren<QComboBox *>())
            for (int i = 0; i < c->count(); ++i) {
                c->setCurrentIndex(i);
                const QString text = c->currentText();
                const int need = c->fontMetrics().horizontalAdvance(text);
                if (need > comboTextWidth(*c) && !hoverTip(c).contains(text))
                    clipped << u"%1: '%2' needs %3 of %4 px"_s.arg(c->objectName(), text)
                                   .arg(need)
                                   .arg(comboTextWidth(*c));
            }
        // Spin boxes showing a text for their minimum ("auto (hidden / heads)", "as TP") read
        // it whole: at 90 px the head dimension showed "to (hidden / heads)".
        for (QSpinBox *spin : dock->findChildren<QSpinBox *>()) {
            if (spin->specialValueText().isEmpty())
                continue;
            spin->setValue(spin->minimum());
            if (spin->width() < spin->sizeHint().width())
                clipped << u"%1: '%2' in %3 of %4 px"_s
                               .arg(spin->objectName(), spin->specialValueText())
                               .arg(spin->width())
                               .arg(spin->sizeHint().width());
        }
        QVERIFY2(clipped.isEmpty(), qPrintable(clipped.join(u"; "_s)));
    }

    // The Utilization chart named the accelerator-to-switch tier "nic" (the JSON key).
    void nicTierIsNamedNic()
    {
        QCOMPARE(tierLabel(u"nic"_s), u"NIC"_s);
        QCOMPARE(tierLabel(u"nic · design B"_s), u"NIC · design B"_s);
        QCOMPARE(tierLabel(u"spine"_s), u"spine"_s);
        UtilizationChart chart;
        UtilizationChartData d;
        d.tiers = {{u"scale-up"_s, {0.2, 0.4}}, {u"nic"_s, {0.1, 0.3}}};
        QVERIFY(chart.setData(d));
        auto ticker = chart.xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QStringList labels;
        for (const QString &t : ticker->ticks())
            labels << t;
        QCOMPARE(labels, (QStringList {u"scale-up"_s, u"NIC"_s}));
    }
};

QTEST_MAIN(TestReadableText)
#include "tst_readabletext.moc"
