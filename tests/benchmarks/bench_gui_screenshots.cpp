// Screenshots of the main window for review (not a test): a small fabric with one domain
// expanded and a selection, and the 16,384-GPU fabric; light and dark palettes.
//   QT_QPA_PLATFORM=offscreen [QT_SCALE_FACTOR=2] ./bench_gui_screenshots OUTDIR SUFFIX
#include "canvasfixtures.h"
#include "document/designdocument.h"
#include "gui/canvas/topologyview.h"
#include "gui/mainwindow.h"

#include <QApplication>
#include <QDir>
#include <QPalette>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleFactory>
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
    p.setColor(QPalette::ToolTipBase, QColor(0x3c, 0x3f, 0x41));
    p.setColor(QPalette::ToolTipText, QColor(0xdf, 0xe1, 0xe5));
    return p;
}

void settle()
{
    for (int i = 0; i < 5; ++i) {
        QApplication::processEvents();
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
    const QString suffix = argc > 2 ? QString::fromLocal8Bit(argv[2]) : QStringLiteral("100");
    QDir().mkpath(out);
    for (const bool dark : {false, true}) {
        QApplication::setPalette(dark ? darkPalette() : QApplication::style()->standardPalette());
        const QString theme = dark ? QStringLiteral("dark") : QStringLiteral("light");
        {
            MainWindow w;
            w.resize(1400, 860);
            w.show();
            Design d = fixtures::smallFabric();
            w.document()->resetDesign(d);
            const GroupId g = w.document()->design().groups().front().id;
            w.document()->setCollapsed(g, false);
            w.document()->setSelection({{w.document()->design().nodes().front().id}, {}, {}});
            settle();
            w.view()->fitAll();
            settle();
            w.grab().save(QStringLiteral("%1/small-%2-%3.png").arg(out, theme, suffix));
        }
        {
            MainWindow w;
            w.resize(1400, 860);
            w.show();
            w.document()->resetDesign(fixtures::largeFabric());
            settle();
            w.view()->fitAll();
            settle();
            w.grab().save(QStringLiteral("%1/16k-full-%2-%3.png").arg(out, theme, suffix));
            w.view()->setZoom(0.8);
            w.view()->centerOn(w.view()->mapToScene(w.view()->viewport()->rect().center()));
            settle();
            w.grab().save(QStringLiteral("%1/16k-zoom-%2-%3.png").arg(out, theme, suffix));
        }
    }
    return 0;
}
