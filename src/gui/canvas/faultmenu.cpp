#include "gui/canvas/faultmenu.h"

#include "document/designdocument.h"
#include "document/faultedit.h"

#include <QMenu>

namespace weft {

namespace {

QString nodeName(const Node &n)
{
    return n.name.empty() ? QStringLiteral("#%1").arg(n.id.value) : QString::fromStdString(n.name);
}

QAction *addAction(QMenu *menu, const char *name, const QString &text)
{
    QAction *a = menu->addAction(text);
    a->setObjectName(QLatin1String(name));
    return a;
}

void linkActions(QMenu *menu, DesignDocument *doc, const std::vector<LinkId> &links,
                 const FractionPrompt &ask, const std::function<void(const QString &)> &message)
{
    const Design &d = doc->design();
    int down = 0, faulted = 0;
    for (const LinkId id : links)
        if (const Fault *f = faultOn(d, id)) {
            ++faulted;
            down += f->kind == Fault::Kind::LinkDown;
        }
    const QString what = links.size() == 1 ? QObject::tr("link %1").arg(links.front().value)
                                           : QObject::tr("%n links", nullptr, int(links.size()));
    const auto apply = [doc, links, message](Fault::Kind kind, double factor) {
        std::vector<Fault> faults;
        for (const LinkId id : links)
            faults.push_back(Fault {kind, faultTarget(id), factor});
        QString error;
        if (!doc->setFaults(faults, &error) && message)
            message(error);
    };
    QAction *markDown = addAction(menu, "whatIfMarkDown", QObject::tr("Mark %1 down").arg(what));
    markDown->setEnabled(down < int(links.size()));
    QObject::connect(markDown, &QAction::triggered, menu,
                     [apply] { apply(Fault::Kind::LinkDown, 1); });
    QAction *restore = addAction(menu, "whatIfRestore", QObject::tr("Restore %1").arg(what));
    restore->setEnabled(faulted > 0);
    QObject::connect(restore, &QAction::triggered, menu, [doc, links] {
        IdSet ids;
        ids.links.insert(links.begin(), links.end());
        doc->restoreFaults(ids);
    });
    QAction *degrade
        = addAction(menu, "whatIfDegradeRate", QObject::tr("Degrade rate of %1...").arg(what));
    QObject::connect(degrade, &QAction::triggered, menu, [menu, doc, links, ask, apply] {
        const Fault *f = faultOn(doc->design(), links.front());
        const double initial = f && f->kind == Fault::Kind::LinkRate ? f->factor : 0.5;
        if (const auto v = ask(menu->parentWidget(), QObject::tr("Degrade link rate"),
                               QObject::tr("Fraction of the line rate kept"), initial))
            apply(Fault::Kind::LinkRate, *v);
    });
}

void nodeActions(QMenu *menu, DesignDocument *doc, const Node &n, const FractionPrompt &ask,
                 const std::function<void(const QString &)> &message)
{
    const Fault *f = faultOn(doc->design(), n.id);
    const NodeId id = n.id;
    const QString name = nodeName(n);
    const auto apply = [doc, id, message](Fault::Kind kind, double factor) {
        QString error;
        if (!doc->setFault(Fault {kind, faultTarget(id), factor}, &error) && message)
            message(error);
    };
    if (n.isSwitch()) {
        QAction *markDown
            = addAction(menu, "whatIfMarkDown", QObject::tr("Mark %1 down").arg(name));
        markDown->setEnabled(!f);
        QObject::connect(markDown, &QAction::triggered, menu,
                         [apply] { apply(Fault::Kind::SwitchDown, 1); });
    } else {
        QAction *slow
            = addAction(menu, "whatIfSlowClock", QObject::tr("Slow down clock of %1...").arg(name));
        QObject::connect(slow, &QAction::triggered, menu, [menu, doc, id, ask, apply] {
            const Fault *g = faultOn(doc->design(), id);
            if (const auto v = ask(menu->parentWidget(), QObject::tr("Slow down accelerator"),
                                   QObject::tr("Fraction of the clock kept"), g ? g->factor : 0.8))
                apply(Fault::Kind::AcceleratorClock, *v);
        });
    }
    QAction *restore = addAction(menu, "whatIfRestore", QObject::tr("Restore %1").arg(name));
    restore->setEnabled(f != nullptr);
    QObject::connect(restore, &QAction::triggered, menu, [doc, id] {
        IdSet ids;
        ids.nodes.insert(id);
        doc->restoreFaults(ids);
    });
}

} // namespace

void FaultMenu::populate(QMenu *menu, DesignDocument *doc, const CanvasHit &hit, FractionPrompt ask,
                         std::function<void(const QString &)> message)
{
    const Design &d = doc->design();
    if (const Node *n = hit.node.valid() ? d.node(hit.node) : nullptr) {
        nodeActions(menu, doc, *n, ask, message);
        menu->addSeparator();
    } else if (!hit.group.valid() && !hit.links.empty()) {
        linkActions(menu, doc, hit.links, ask, message);
        menu->addSeparator();
    }
    const int count = int(d.scenario.faults.size());
    QAction *all = addAction(menu, "whatIfRestoreAll",
                             count ? QObject::tr("Restore all faults (%1)").arg(count)
                                   : QObject::tr("Restore all faults"));
    all->setEnabled(count > 0);
    QObject::connect(all, &QAction::triggered, menu, [doc] { doc->restoreAllFaults(); });
}

} // namespace weft
