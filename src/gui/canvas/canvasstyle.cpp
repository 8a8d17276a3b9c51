#include "gui/canvas/canvasstyle.h"

namespace weft {

CanvasStyle CanvasStyle::fromPalette(const QPalette &palette)
{
    CanvasStyle s;
    s.dark = palette.color(QPalette::Window).lightness() < 128;
    s.background = palette.color(QPalette::Base);
    s.text = palette.color(QPalette::Text);
    s.mutedText = palette.color(QPalette::PlaceholderText);
    s.selection = palette.color(QPalette::Highlight);
    if (s.dark) {
        s.grid = s.background.lighter(135);
        s.frame = QColor(0x9a, 0xa4, 0xb1);
        s.link = QColor(0x7d, 0x8a, 0x99);
        s.scaleUpLink = QColor(0xe6, 0x9f, 0x00);
        s.domainFill = QColor(0x2b, 0x31, 0x3a);
        s.domainHeader = QColor(0x37, 0x3f, 0x4b);
        if (s.selection.lightness() < 90)
            s.selection = QColor(0x4c, 0xa3, 0xff);
        s.faultDown = QColor(0xff, 0x5a, 0x4f);
        s.faultDegraded = QColor(0xff, 0xc1, 0x2e);
    } else {
        s.grid = s.background.darker(108);
        s.frame = QColor(0x4b, 0x55, 0x63);
        s.link = QColor(0x9a, 0xa3, 0xaf);
        s.scaleUpLink = QColor(0xd5, 0x5e, 0x00);
        s.domainFill = QColor(0xf4, 0xf6, 0xf8);
        s.domainHeader = QColor(0xe3, 0xe8, 0xee);
        s.faultDown = QColor(0xd7, 0x1f, 0x1f);
        s.faultDegraded = QColor(0xe0, 0x8e, 0x00);
    }
    return s;
}

QColor CanvasStyle::nodeFill(const Node &node) const
{
    QColor c;
    if (node.isAccelerator())
        c = QColor(0x00, 0x9e, 0x73); // bluish green
    else
        switch (node.role) {
        case SwitchRole::ScaleUp:
            c = QColor(0xe6, 0x9f, 0x00);
            break; // orange
        case SwitchRole::Leaf:
            c = QColor(0x56, 0xb4, 0xe9);
            break; // sky blue
        case SwitchRole::Spine:
            c = QColor(0x00, 0x72, 0xb2);
            break; // blue
        case SwitchRole::Core:
            c = QColor(0xcc, 0x79, 0xa7);
            break; // reddish purple
        }
    return dark ? c.darker(115) : c;
}

} // namespace weft
