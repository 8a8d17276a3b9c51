#include "gui/theme.h"

#include <QApplication>

namespace weft {

namespace {

struct Colours
{
    QColor window, base, alternateBase, text, button, highlight, highlightedText, link, placeholder,
        disabledText, toolTipBase;
};

QPalette makePalette(const Colours &c)
{
    // QPalette's constructor derives Light, Midlight, Dark, Mid and Shadow from the button
    // colour; the other roles are set explicitly.
    QPalette p(c.text, c.button, c.button.lighter(150), c.button.darker(200), c.button.darker(150),
               c.text, Qt::white, c.base, c.window);
    p.setColor(QPalette::AlternateBase, c.alternateBase);
    p.setColor(QPalette::ButtonText, c.text);
    p.setColor(QPalette::Highlight, c.highlight);
    p.setColor(QPalette::HighlightedText, c.highlightedText);
    p.setColor(QPalette::Link, c.link);
    p.setColor(QPalette::LinkVisited, c.link.darker(120));
    p.setColor(QPalette::PlaceholderText, c.placeholder);
    p.setColor(QPalette::ToolTipBase, c.toolTipBase);
    p.setColor(QPalette::ToolTipText, c.text);
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, c.disabledText);
    p.setColor(QPalette::Disabled, QPalette::Highlight, c.button.darker(130));
    p.setColor(QPalette::Disabled, QPalette::Base, c.window);
    return p;
}

// The palette before Weft first changed it: what "System" goes back to.
const QPalette &startupPalette()
{
    static const QPalette palette = QApplication::palette();
    return palette;
}

} // namespace

QPalette themePalette(Theme theme)
{
    switch (theme) {
    case Theme::System:
        break;
    case Theme::Light:
        return makePalette({.window = QColor(0xef, 0xef, 0xef),
                            .base = Qt::white,
                            .alternateBase = QColor(0xf7, 0xf7, 0xf7),
                            .text = Qt::black,
                            .button = QColor(0xef, 0xef, 0xef),
                            .highlight = QColor(0x30, 0x8c, 0xc6),
                            .highlightedText = Qt::white,
                            .link = QColor(0x00, 0x72, 0xb2),
                            .placeholder = QColor(0x80, 0x80, 0x80),
                            .disabledText = QColor(0xa0, 0xa0, 0xa0),
                            .toolTipBase = QColor(0xff, 0xff, 0xdc)});
    case Theme::Dark:
        return makePalette({.window = QColor(0x2b, 0x2b, 0x2b),
                            .base = QColor(0x1e, 0x1e, 0x1e),
                            .alternateBase = QColor(0x26, 0x26, 0x26),
                            .text = QColor(0xe6, 0xe6, 0xe6),
                            .button = QColor(0x35, 0x35, 0x35),
                            .highlight = QColor(0x2f, 0x6f, 0xb3),
                            .highlightedText = Qt::white,
                            .link = QColor(0x56, 0xb4, 0xe9),
                            .placeholder = QColor(0x8a, 0x8a, 0x8a),
                            .disabledText = QColor(0x6e, 0x6e, 0x6e),
                            .toolTipBase = QColor(0x35, 0x35, 0x35)});
    }
    return startupPalette();
}

void applyTheme(Theme theme)
{
    startupPalette(); // remember the desktop's palette before replacing it
    QApplication::setPalette(themePalette(theme));
}

void chooseTheme(Theme theme)
{
    AppSettings::setTheme(theme);
    applyTheme(theme);
}

} // namespace weft
