// Screenshots of the Partitions dock and the coloured canvas for review (not a test): 256 DGX
// H100 GPUs training Llama 3 70B (TP 8, PP 4, DP 8) coloured by stage, at overview and zoomed in
// to read the ranks; light and dark palettes.
//   QT_QPA_PLATFORM=offscreen ./bench_gui_partitions OUTDIR
#include "document/designdocument.h"
#include "gui/canvas/topologyscene.h"
#include "gui/canvas/topologyview.h"
#include "gui/docks/partitionsdock.h"
#include "gui/mainwindow.h"
#include "workloadfixtures.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTimer>

using namespace weft;

namespace {

QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x30));
    p.setColor(QPalette::WindowText, QColor(0xdf, 0xe1, 0xe5));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
    p.setColor(QPalette::AlternateBase, QColor(0x2b, 0x2d, 0x30));
    p.setColor(QPalette::Text, QColor(0xdf, 0xe1, 0xe5));
    p.setColor(QPalette::PlaceholderText, QColor(0x8c, 0x90, 0x96));
    p.setColor(QPalette::Button, QColor(0x3c, 0x3f, 0x41));
    p.setColor(QPalette::ButtonText, QColor(0xdf, 0xe1, 0xe5));
    p.setColor(QPalette::Highlight, QColor(0x35, 0x74, 0xf0));
    p.setColor(QPalette::HighlightedText, Qt::white);
    return p;
}

void settle()
{
    for (int i = 0; i < 5; ++i) {
        QTimer t;
        t.start(80);
        while (t.remainingTime() > 0)
            QApplication::processEvents();
    }
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    const QString out = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral(".");
    QDir().mkpath(out);
    for (const bool dark : {false, true}) {
        QApplication::setPalette(dark ? darkPalette() : QApplication::style()->standardPalette());
        const QString theme = dark ? QStringLiteral("dark") : QStringLiteral("light");
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        w.document()->resetDesign(fixtures::cluster256());
        w.partitions()->raise();
        settle();
        w.view()->fitAll();
        settle();
        w.grab().save(QStringLiteral("%1/partitions-overview-%2.png").arg(out, theme));
        w.partitions()->tabs()->setCurrentIndex(1);
        // Expand the domains on the stage 0 / stage 1 boundary, swap two accelerators across
        // it by hand, and zoom in on them: ranks readable, one cell of each colour swapped.
        std::vector<GroupId> domains;
        for (const Group &g : w.document()->design().groups())
            if (g.kind == GroupKind::ScaleUpDomain)
                domains.push_back(g.id);
        IdSet sel;
        for (const std::size_t i : {std::size_t(7), std::size_t(8)}) {
            w.document()->setCollapsed(domains[i], false);
            sel.groups.insert(domains[i]);
        }
        const Design &d = w.document()->design();
        const auto map = *resolvedMap(d, *d.workload);
        w.document()->swapRanks(map[63], map[64], nullptr);
        w.document()->setSelection(sel);
        settle();
        w.view()->zoomToSelection();
        w.document()->setSelection({});
        settle();
        w.grab().save(QStringLiteral("%1/partitions-zoom-%2.png").arg(out, theme));
        w.partitions()->colourCombo()->setCurrentIndex(3); // TP group
        settle();
        w.grab().save(QStringLiteral("%1/partitions-tp-%2.png").arg(out, theme));
    }
    return 0;
}
