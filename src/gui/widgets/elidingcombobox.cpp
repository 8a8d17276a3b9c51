#include "gui/widgets/elidingcombobox.h"

#include <QAbstractItemView>
#include <QHelpEvent>
#include <QScrollBar>
#include <QStyleOptionComboBox>
#include <QStylePainter>
#include <QToolTip>

namespace weft {

QString withoutQualifier(const QString &text)
{
    const qsizetype open = text.indexOf(QStringLiteral(" ("));
    return open > 0 && text.endsWith(u')') ? text.left(open) : text;
}

int comboTextWidth(const QComboBox &box)
{
    QStyleOptionComboBox opt; // what the edit field's size depends on, as initStyleOption sets it
    opt.initFrom(&box);
    opt.editable = box.isEditable();
    opt.frame = box.hasFrame();
    return box.style()
               ->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, &box)
               .width()
        - 2; // the label's inset (QCommonStyle draws it 1 px in from each side)
}

QString ElidingComboBox::shownText(int width) const
{
    const QString text = currentText();
    const QFontMetrics fm = fontMetrics();
    if (fm.horizontalAdvance(text) <= width)
        return text;
    return fm.elidedText(withoutQualifier(text), Qt::ElideRight, width);
}

bool ElidingComboBox::event(QEvent *event)
{
    if (event->type() != QEvent::ToolTip || shownText(textWidth()) == currentText())
        return QComboBox::event(event);
    const QString tip = toolTip();
    QToolTip::showText(static_cast<QHelpEvent *>(event)->globalPos(),
                       tip.isEmpty() ? currentText() : currentText() + QStringLiteral("\n\n") + tip,
                       this);
    return true;
}

void ElidingComboBox::paintEvent(QPaintEvent *)
{
    QStylePainter painter(this);
    QStyleOptionComboBox opt;
    initStyleOption(&opt);
    painter.drawComplexControl(QStyle::CC_ComboBox, opt);
    opt.currentText = shownText(textWidth());
    painter.drawControl(QStyle::CE_ComboBoxLabel, opt);
}

void ElidingComboBox::showPopup()
{
    // The list as wide as its widest item (the box may be narrower than its names).
    QAbstractItemView *list = view();
    list->setMinimumWidth(list->sizeHintForColumn(0) + list->verticalScrollBar()->sizeHint().width()
                          + 2 * list->frameWidth());
    QComboBox::showPopup();
}

} // namespace weft
