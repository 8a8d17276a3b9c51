#include "gui/widgets/elidingcombobox.h"

#include <QAbstractItemView>
#include <QScrollBar>
#include <QStyleOptionComboBox>
#include <QStylePainter>

namespace weft {

QString withoutQualifier(const QString &text)
{
    const qsizetype open = text.indexOf(QStringLiteral(" ("));
    return open > 0 && text.endsWith(u')') ? text.left(open) : text;
}

QString ElidingComboBox::shownText(int width) const
{
    const QString text = currentText();
    const QFontMetrics fm = fontMetrics();
    if (fm.horizontalAdvance(text) <= width)
        return text;
    return fm.elidedText(withoutQualifier(text), Qt::ElideRight, width);
}

int ElidingComboBox::textWidth() const
{
    QStyleOptionComboBox opt;
    initStyleOption(&opt);
    return style()
               ->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, this)
               .width()
        - 2; // the label's inset (QCommonStyle draws it 1 px in from each side)
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
