#include "chartstyle.h"

#include <array>

namespace weft {

QColor okabeIto(OkabeIto colour)
{
    switch (colour) {
    case OkabeIto::Orange:
        return QColor(0xE6, 0x9F, 0x00);
    case OkabeIto::SkyBlue:
        return QColor(0x56, 0xB4, 0xE9);
    case OkabeIto::BluishGreen:
        return QColor(0x00, 0x9E, 0x73);
    case OkabeIto::Yellow:
        return QColor(0xF0, 0xE4, 0x42);
    case OkabeIto::Blue:
        return QColor(0x00, 0x72, 0xB2);
    case OkabeIto::Vermillion:
        return QColor(0xD5, 0x5E, 0x00);
    case OkabeIto::ReddishPurple:
        return QColor(0xCC, 0x79, 0xA7);
    case OkabeIto::Grey:
        return QColor(0x99, 0x99, 0x99);
    }
    return {};
}

QColor seriesColour(int index)
{
    static constexpr std::array order
        = {OkabeIto::Blue,          OkabeIto::Orange,  OkabeIto::BluishGreen, OkabeIto::Vermillion,
           OkabeIto::ReddishPurple, OkabeIto::SkyBlue, OkabeIto::Grey,        OkabeIto::Yellow};
    const auto n = int(order.size());
    return okabeIto(order[std::size_t(((index % n) + n) % n)]);
}

namespace {

QColor blend(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t),
                            float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

} // namespace

ChartTheme ChartTheme::fromPalette(const QPalette &palette)
{
    ChartTheme t;
    t.background = palette.color(QPalette::Active, QPalette::Base);
    t.foreground = palette.color(QPalette::Active, QPalette::Text);
    t.dark = t.background.lightnessF() < 0.5;
    t.grid = blend(t.background, t.foreground, t.dark ? 0.25 : 0.18);
    t.subGrid = blend(t.background, t.foreground, t.dark ? 0.12 : 0.08);
    t.idle = blend(t.background, t.foreground, t.dark ? 0.18 : 0.12);
    return t;
}

ChartFonts ChartFonts::fromBase(const QFont &base)
{
    ChartFonts f;
    auto sized = [&base](double points, bool bold) {
        QFont font(base);
        font.setPointSizeF(points);
        font.setBold(bold);
        return font;
    };
    f.tickLabel = sized(9, false);
    f.axisLabel = sized(10, false);
    f.legend = sized(9, false);
    f.title = sized(11, true);
    f.annotation = sized(8, false);
    return f;
}

QPalette darkChartPalette()
{
    QPalette p;
    const QColor window(0x2B, 0x2B, 0x2B);
    const QColor base(0x1E, 0x1E, 0x1E);
    const QColor text(0xE6, 0xE6, 0xE6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    return p;
}

QPalette lightChartPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0xF2, 0xF2, 0xF2));
    p.setColor(QPalette::Base, Qt::white);
    p.setColor(QPalette::AlternateBase, QColor(0xF7, 0xF7, 0xF7));
    p.setColor(QPalette::Text, Qt::black);
    p.setColor(QPalette::WindowText, Qt::black);
    p.setColor(QPalette::ToolTipBase, QColor(0xFF, 0xFF, 0xDC));
    p.setColor(QPalette::ToolTipText, Qt::black);
    p.setColor(QPalette::Button, QColor(0xF2, 0xF2, 0xF2));
    p.setColor(QPalette::ButtonText, Qt::black);
    return p;
}

} // namespace weft
