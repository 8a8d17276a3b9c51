#include "gui/docks/propertiesdock.h"

#include "document/commands/setfield.h"
#include "document/designdocument.h"
#include "document/faultedit.h"
#include "gui/canvas/canvasstyle.h"
#include "gui/canvas/linkheat.h"
#include "gui/widgets/unitfield.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

namespace weft {

namespace {

// The what-if state of `ids` for the "What if" row: "Healthy", the one fault, or a count.
template<class IdT> QString faultStateText(const Design &d, const std::vector<IdT> &ids)
{
    std::vector<const Fault *> faults;
    for (const IdT id : ids)
        if (const Fault *f = faultOn(d, id))
            faults.push_back(f);
    if (faults.empty())
        return PropertiesDock::tr("Healthy");
    if (ids.size() == 1)
        return PropertiesDock::tr("%1 (right-click it on the canvas to restore)")
            .arg(QString::fromStdString(faultDescription(d, *faults.front())));
    return PropertiesDock::tr("%1 of %2 faulted").arg(faults.size()).arg(ids.size());
}

template<class IdT>
std::function<void()> faultRefresher(DesignDocument *doc, std::vector<IdT> ids, QLabel *label)
{
    return [doc, ids = std::move(ids), label] {
        const QString text = faultStateText(doc->design(), ids);
        label->setText(text);
        const Fault *f = ids.size() == 1 ? faultOn(doc->design(), ids.front()) : nullptr;
        const bool down
            = f && (f->kind == Fault::Kind::LinkDown || f->kind == Fault::Kind::SwitchDown);
        const CanvasStyle st = CanvasStyle::fromPalette(label->palette()); // the canvas's marks
        const QColor colour = down ? st.faultDown : st.faultDegraded.darker(st.dark ? 100 : 125);
        label->setStyleSheet(f ? QStringLiteral("color: %1; font-weight: bold").arg(colour.name())
                               : QString());
    };
}

Node *find(Design &d, NodeId id)
{
    return d.node(id);
}
Link *find(Design &d, LinkId id)
{
    return d.link(id);
}
Group *find(Design &d, GroupId id)
{
    return d.group(id);
}

// The value of `field` shared by all objects in `ids`, or nothing when they differ.
template<class Obj, class T, class IdT>
std::optional<T> common(DesignDocument *doc, const std::vector<IdT> &ids, T Obj::*field)
{
    std::optional<T> value;
    for (const IdT id : ids) {
        const Obj *o = find(doc->editDesign(), id);
        if (!o)
            continue;
        if (value && !(*value == o->*field))
            return std::nullopt;
        value = o->*field;
    }
    return value;
}

template<class Obj, class T, class IdT>
void pushEdit(DesignDocument *doc, const std::vector<IdT> &ids, T Obj::*field, T value,
              const QString &what)
{
    doc->undoStack()->push(new SetField<Obj, T>(doc, ids, field, std::move(value),
                                                QObject::tr("Change %1").arg(what)));
}

// A name field: validated as you type (not empty), committed on Enter or focus loss.
template<class Obj, class IdT>
QLineEdit *nameEdit(DesignDocument *doc, const std::vector<IdT> &ids,
                    std::function<void()> *refresh)
{
    auto *edit = new QLineEdit;
    edit->setEnabled(ids.size() == 1);
    *refresh = [doc, ids, edit] {
        const auto v = common(doc, ids, &Obj::name);
        edit->setText(ids.size() == 1 && v ? QString::fromStdString(*v) : QString());
        edit->setPlaceholderText(ids.size() == 1 ? QString() : QObject::tr("(several)"));
        edit->setStyleSheet(QString());
    };
    QObject::connect(edit, &QLineEdit::textEdited, edit, [edit](const QString &t) {
        const bool ok = !t.trimmed().isEmpty();
        edit->setStyleSheet(ok ? QString()
                               : QStringLiteral("QLineEdit { border: 2px solid #d55e00; }"));
        edit->setToolTip(ok ? QString() : QObject::tr("A name cannot be empty."));
    });
    QObject::connect(edit, &QLineEdit::editingFinished, edit, [doc, ids, edit] {
        const std::string name = edit->text().trimmed().toStdString();
        if (!name.empty() && common(doc, ids, &Obj::name) != name)
            pushEdit(doc, ids, &Obj::name, name, QObject::tr("name"));
    });
    return edit;
}

// A key combo (spec or technology) over `keys`.
template<class Obj, class IdT>
QComboBox *keyCombo(DesignDocument *doc, const std::vector<IdT> &ids, std::string Obj::*field,
                    const std::vector<std::pair<std::string, std::string>> &keys,
                    const QString &what, std::function<void()> *refresh)
{
    auto *combo = new QComboBox;
    for (const auto &[key, name] : keys)
        combo->addItem(QString::fromStdString(name), QString::fromStdString(key));
    *refresh = [doc, ids, field, combo] {
        const auto v = common(doc, ids, field);
        combo->setCurrentIndex(v ? combo->findData(QString::fromStdString(*v)) : -1);
    };
    QObject::connect(combo, &QComboBox::activated, combo, [doc, ids, field, combo, what](int i) {
        pushEdit(doc, ids, field, combo->itemData(i).toString().toStdString(), what);
    });
    return combo;
}

// A UnitField over a double member shown as `value * scale` in the field's unit.
template<class Obj, class IdT>
UnitField *unitField(DesignDocument *doc, const std::vector<IdT> &ids, double Obj::*field,
                     double scale, UnitField *f, const QString &what,
                     std::function<void()> *refresh)
{
    *refresh = [doc, ids, field, scale, f] {
        const auto v = common(doc, ids, field);
        f->setValue(v ? std::optional<double>(*v * scale) : std::nullopt);
    };
    QObject::connect(f, &UnitField::committed, f, [doc, ids, field, scale, what](double v) {
        pushEdit(doc, ids, field, v / scale, what);
    });
    return f;
}

template<class Obj, class IdT>
QSpinBox *intField(DesignDocument *doc, const std::vector<IdT> &ids, int Obj::*field, int lo,
                   int hi, const QString &what, std::function<void()> *refresh)
{
    auto *spin = new QSpinBox;
    spin->setRange(lo, hi);
    spin->setKeyboardTracking(false);
    *refresh = [doc, ids, field, spin] {
        const QSignalBlocker block(spin);
        const auto v = common(doc, ids, field);
        spin->setSpecialValueText(v ? QString() : QObject::tr("mixed"));
        spin->setValue(v ? *v : spin->minimum());
    };
    QObject::connect(spin, &QSpinBox::valueChanged, spin, [doc, ids, field, what](int v) {
        if (common(doc, ids, field) != v)
            pushEdit(doc, ids, field, v, what);
    });
    return spin;
}

// "a ↔ b" of the link's end node names.
QString endsText(const Design &d, const Link &l)
{
    const auto name = [&d](NodeId id) {
        const Node *n = d.node(id);
        return n ? QString::fromStdString(n->name) : QStringLiteral("?");
    };
    return QObject::tr("%1 ↔ %2").arg(name(l.a), name(l.b));
}

template<class Map> std::vector<std::pair<std::string, std::string>> keysOf(const Map &m)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto &[key, spec] : m)
        out.emplace_back(key, spec.name);
    return out;
}

} // namespace

PropertiesDock::PropertiesDock(QWidget *parent)
    : QDockWidget(tr("Properties"), parent)
{
    setObjectName(QStringLiteral("PropertiesDock"));
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // fields shrink with the dock
    scroll->setFrameShape(QFrame::NoFrame);
    m_body = new QWidget;
    auto *lay = new QVBoxLayout(m_body);
    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    lay->addWidget(m_summary);
    m_form = new QFormLayout;
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    lay->addLayout(m_form);
    lay->addStretch(1);
    scroll->setWidget(m_body);
    setWidget(scroll);
    rebuild();
}

void PropertiesDock::setDocument(DesignDocument *doc)
{
    for (const auto &c : m_connections)
        disconnect(c);
    m_connections.clear();
    m_doc = doc;
    if (doc) {
        m_connections.push_back(
            connect(doc, &DesignDocument::selectionChanged, this, &PropertiesDock::rebuild));
        m_connections.push_back(
            connect(doc, &DesignDocument::changed, this, &PropertiesDock::refresh));
        m_connections.push_back(
            connect(doc, &DesignDocument::reset, this, &PropertiesDock::rebuild));
    }
    rebuild();
}

void PropertiesDock::setLinkHeat(const LinkHeat *heat)
{
    m_heat = heat;
    refreshTraffic();
}

QString PropertiesDock::summary() const
{
    return m_summary->text();
}

void PropertiesDock::refreshTraffic()
{
    if (m_trafficRefresh)
        m_trafficRefresh();
}

QWidget *PropertiesDock::field(const QString &label) const
{
    for (const auto &[l, w] : m_fields)
        if (l == label)
            return w;
    return nullptr;
}

void PropertiesDock::addRow(const QString &label, QWidget *editor, std::function<void()> refresh)
{
    m_form->addRow(label, editor);
    m_fields.emplace_back(label, editor);
    if (refresh)
        m_refreshers.push_back(std::move(refresh));
}

void PropertiesDock::rebuild()
{
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    m_fields.clear();
    m_refreshers.clear();
    m_trafficRefresh = nullptr;
    if (!m_doc || m_doc->selection().empty()) {
        m_summary->setText(m_doc ? tr("Nothing selected. Click a node, a link or a domain; drag "
                                      "on empty canvas to select an area.")
                                 : QString());
        return;
    }
    const IdSet &sel = m_doc->selection();
    const Link *single = sel.nodes.empty() && sel.groups.empty() && sel.links.size() == 1
        ? m_doc->design().link(*sel.links.begin())
        : nullptr;
    m_summary->setText(single ? tr("<b>Link %1</b>").arg(endsText(m_doc->design(), *single))
                              : tr("<b>%1 node(s), %2 link(s), %3 domain(s)</b>")
                                    .arg(sel.nodes.size())
                                    .arg(sel.links.size())
                                    .arg(sel.groups.size()));
    if (!sel.nodes.empty())
        buildNodeRows({sel.nodes.begin(), sel.nodes.end()});
    if (!sel.links.empty())
        buildLinkRows({sel.links.begin(), sel.links.end()});
    if (!sel.groups.empty())
        buildGroupRows({sel.groups.begin(), sel.groups.end()});
    refresh();
}

void PropertiesDock::refresh()
{
    for (const auto &r : m_refreshers)
        r();
}

void PropertiesDock::buildNodeRows(const std::vector<NodeId> &ids)
{
    DesignDocument *doc = m_doc;
    const Design &d = doc->design();
    bool allAcc = true, allSw = true;
    for (const NodeId id : ids)
        if (const Node *n = d.node(id)) {
            allAcc &= n->isAccelerator();
            allSw &= n->isSwitch();
        }
    std::function<void()> r;
    { // build first: the builder sets r, which addRow then copies
        QWidget *editor = nameEdit<Node>(doc, ids, &r);
        addRow(tr("Name"), editor, r);
    }
    if (allAcc || allSw) {
        auto keys = allAcc ? keysOf(d.hardware.accelerators) : keysOf(d.hardware.switches);
        QWidget *editor = keyCombo<Node>(doc, ids, &Node::spec, keys, tr("model"), &r);
        addRow(allAcc ? tr("Accelerator") : tr("Switch model"), editor, r);
    }
    if (allSw) {
        auto *role = new QComboBox;
        for (SwitchRole sr :
             {SwitchRole::ScaleUp, SwitchRole::Leaf, SwitchRole::Spine, SwitchRole::Core})
            role->addItem(QString::fromLatin1(toString(sr)), int(sr));
        r = [doc, ids, role] {
            const auto v = common(doc, ids, &Node::role);
            role->setCurrentIndex(v ? role->findData(int(*v)) : -1);
        };
        connect(role, &QComboBox::activated, role, [doc, ids, role](int i) {
            pushEdit(doc, ids, &Node::role, SwitchRole(role->itemData(i).toInt()), tr("role"));
        });
        addRow(tr("Role"), role, r);
    }
    { // build first: the builder sets r, which addRow then copies
        QWidget *editor = intField<Node>(doc, ids, &Node::plane, 0, 63, tr("plane"), &r);
        addRow(tr("Plane"), editor, r);
    }
    if (allAcc) { // build first: the builder sets r, which addRow then copies
        QWidget *editor = intField<Node>(doc, ids, &Node::rail, -1, 4095, tr("rail"), &r);
        addRow(tr("Rail"), editor, r);
    }
    if (ids.size() == 1) {
        { // build first: the builder sets r, which addRow then copies
            QWidget *editor
                = unitField<Node>(doc, ids, &Node::x, 1, new UnitField(tr("px"), -1e7, 1e7, false),
                                  tr("position"), &r);
            addRow(tr("X"), editor, r);
        }
        { // build first: the builder sets r, which addRow then copies
            QWidget *editor
                = unitField<Node>(doc, ids, &Node::y, 1, new UnitField(tr("px"), -1e7, 1e7, false),
                                  tr("position"), &r);
            addRow(tr("Y"), editor, r);
        }
    }
    auto *fault = new QLabel;
    fault->setWordWrap(true);
    fault->setObjectName(QStringLiteral("FaultState"));
    addRow(tr("What if"), fault, faultRefresher(doc, ids, fault));
}

void PropertiesDock::buildLinkRows(const std::vector<LinkId> &ids)
{
    DesignDocument *doc = m_doc;
    std::function<void()> r;
    auto techs = keysOf(doc->design().hardware.linkTechs);
    for (const auto &kv : keysOf(doc->catalog().hardware.linkTechs))
        if (!doc->design().hardware.linkTechs.count(kv.first))
            techs.push_back(kv);
    { // build first: the builder sets r, which addRow then copies
        QWidget *editor = keyCombo<Link>(doc, ids, &Link::tech, techs, tr("technology"), &r);
        addRow(tr("Technology"), editor, r);
    }
    // bytes/s -> Gb/s: * 8 / 1e9; seconds -> ns: * 1e9.
    { // build first: the builder sets r, which addRow then copies
        QWidget *editor = unitField<Link>(doc, ids, &Link::rate, 8e-9,
                                          new UnitField(tr("Gb/s"), 0, 1e5, true), tr("rate"), &r);
        addRow(tr("Rate per lane"), editor, r);
    }
    { // build first: the builder sets r, which addRow then copies
        QWidget *editor = intField<Link>(doc, ids, &Link::lanes, 1, 4096, tr("lanes"), &r);
        addRow(tr("Lanes"), editor, r);
    }
    { // build first: the builder sets r, which addRow then copies
        QWidget *editor
            = unitField<Link>(doc, ids, &Link::latency, 1e9, new UnitField(tr("ns"), 0, 1e9, false),
                              tr("latency"), &r);
        addRow(tr("Latency"), editor, r);
    }
    auto *cap = new QLabel;
    r = [doc, ids, cap] {
        double total = 0;
        for (const LinkId id : ids)
            if (const Link *l = doc->design().link(id))
                total += l->capacity();
        cap->setText(tr("%1 GB/s (%2 Gb/s) per direction%3")
                         .arg(total / 1e9, 0, 'f', 1)
                         .arg(total * 8 / 1e9, 0, 'f', 0)
                         .arg(ids.size() > 1 ? tr(", together") : QString()));
    };
    addRow(tr("Capacity"), cap, r);
    auto *fault = new QLabel;
    fault->setWordWrap(true);
    fault->setObjectName(QStringLiteral("FaultState"));
    addRow(tr("What if"), fault, faultRefresher(doc, ids, fault));
    if (ids.size() != 1)
        return;
    // The last simulation's traffic: a row shown only when the result knows this link.
    auto *traffic = new QLabel;
    traffic->setWordWrap(true);
    traffic->setTextFormat(Qt::RichText);
    const int row = m_form->rowCount();
    addRow(tr("Traffic"), traffic, nullptr);
    m_trafficRefresh = [this, doc, id = ids.front(), traffic, row] {
        const QString text
            = m_heat && m_heat->active() ? m_heat->trafficText(doc->design(), id) : QString();
        m_form->setRowVisible(row, !text.isEmpty());
        traffic->setText(
            m_heat && m_heat->stale()
                ? tr("%1<br><i>The design changed after this simulation.</i>").arg(text)
                : text);
    };
    m_refreshers.push_back([this] { refreshTraffic(); });
}

void PropertiesDock::buildGroupRows(const std::vector<GroupId> &ids)
{
    DesignDocument *doc = m_doc;
    std::function<void()> r;
    { // build first: the builder sets r, which addRow then copies
        QWidget *editor = nameEdit<Group>(doc, ids, &r);
        addRow(tr("Domain name"), editor, r);
    }
    auto *info = new QLabel;
    r = [doc, ids, info] {
        std::size_t members = 0;
        QStringList presets;
        for (const GroupId id : ids)
            if (const Group *g = doc->design().group(id)) {
                members += g->members.size();
                if (!presets.contains(QString::fromStdString(g->preset)))
                    presets << QString::fromStdString(g->preset);
            }
        info->setText(tr("%1 (%2 members)").arg(presets.join(QStringLiteral(", "))).arg(members));
    };
    addRow(tr("Preset"), info, r);
    auto *expanded = new QCheckBox(tr("Show members"));
    r = [doc, ids, expanded] {
        const auto v = common(doc, ids, &Group::collapsed);
        const QSignalBlocker block(expanded);
        expanded->setTristate(!v);
        expanded->setCheckState(!v ? Qt::PartiallyChecked : (*v ? Qt::Unchecked : Qt::Checked));
    };
    connect(expanded, &QCheckBox::clicked, expanded, [doc, ids](bool on) {
        for (const GroupId id : ids)
            doc->setCollapsed(id, !on);
    });
    addRow(tr("Expanded"), expanded, r);
}

} // namespace weft
