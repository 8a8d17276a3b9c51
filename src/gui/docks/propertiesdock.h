#pragma once
// PropertiesDock: the editor for the selection. Fields are built per selection shape (nodes,
// links, domains); with several objects selected a field edits all of them in one undo step
// (SetField), and shows "mixed" when they disagree. Values show in user units (Gb/s, ns). A
// single link also shows its ends and, from the canvas's LinkHeat, the last simulation's
// traffic per direction.

#include "document/fragment.h"

#include <QDockWidget>
#include <QPointer>
#include <functional>
#include <vector>

class QFormLayout;
class QLabel;

namespace weft {

class DesignDocument;
class LinkHeat;

class PropertiesDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit PropertiesDock(QWidget *parent = nullptr);
    /// Shows the selection of `doc` (nullptr: nothing).
    void setDocument(DesignDocument *doc);
    /// The simulation result shown on the canvas (nullptr: none); call refreshTraffic() when
    /// it changes.
    void setLinkHeat(const LinkHeat *heat);
    /// The editor widget of the field labelled `label` (tests), or nullptr.
    [[nodiscard]] QWidget *field(const QString &label) const;
    /// The bold summary line above the fields (tests).
    [[nodiscard]] QString summary() const;

public slots:
    /// Re-reads the simulation figures of the selection (the result or its staleness changed).
    void refreshTraffic();

private:
    void rebuild();
    void refresh();
    void addRow(const QString &label, QWidget *editor, std::function<void()> refresh);
    void buildNodeRows(const std::vector<NodeId> &ids);
    void buildLinkRows(const std::vector<LinkId> &ids);
    void buildGroupRows(const std::vector<GroupId> &ids);

    QPointer<DesignDocument> m_doc;
    const LinkHeat *m_heat = nullptr;
    std::function<void()> m_trafficRefresh;
    QWidget *m_body = nullptr;
    QFormLayout *m_form = nullptr;
    QLabel *m_summary = nullptr;
    std::vector<std::pair<QString, QWidget *>> m_fields;
    std::vector<std::function<void()>> m_refreshers;
    std::vector<QMetaObject::Connection> m_connections;
};

} // namespace weft
