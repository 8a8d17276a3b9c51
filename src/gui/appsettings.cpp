#include "gui/appsettings.h"

#include <QDir>
#include <QSettings>
#include <QStandardPaths>

namespace weft {

namespace {

const QString kTheme = QStringLiteral("appearance/theme");
const QString kWidth = QStringLiteral("chartExport/width");
const QString kHeight = QStringLiteral("chartExport/height");
const QString kDpi = QStringLiteral("chartExport/dpi");
const QString kFormat = QStringLiteral("chartExport/format");
const QString kFolder = QStringLiteral("chartExport/folder");

constexpr ChartFormat kFormats[]
    = {ChartFormat::Png, ChartFormat::Pdf, ChartFormat::Svg, ChartFormat::Csv};

} // namespace

QString themeKey(Theme theme)
{
    switch (theme) {
    case Theme::System:
        break;
    case Theme::Light:
        return QStringLiteral("light");
    case Theme::Dark:
        return QStringLiteral("dark");
    }
    return QStringLiteral("system");
}

Theme themeFromKey(const QString &key)
{
    for (Theme t : {Theme::Light, Theme::Dark})
        if (key == themeKey(t))
            return t;
    return Theme::System;
}

Theme AppSettings::theme()
{
    return themeFromKey(QSettings().value(kTheme).toString());
}

void AppSettings::setTheme(Theme theme)
{
    QSettings().setValue(kTheme, themeKey(theme));
}

ChartExportOptions AppSettings::chartExportOptions()
{
    const QSettings settings;
    const ChartExportOptions defaults;
    ChartExportOptions stored;
    bool okW = false, okH = false, okDpi = false;
    stored.size = QSize(settings.value(kWidth, defaults.size.width()).toInt(&okW),
                        settings.value(kHeight, defaults.size.height()).toInt(&okH));
    stored.dpi = settings.value(kDpi, defaults.dpi).toDouble(&okDpi);
    return okW && okH && okDpi && stored.isValid() ? stored : defaults;
}

void AppSettings::setChartExportOptions(const ChartExportOptions &options)
{
    QSettings settings;
    settings.setValue(kWidth, options.size.width());
    settings.setValue(kHeight, options.size.height());
    settings.setValue(kDpi, options.dpi);
}

ChartFormat AppSettings::lastChartFormat()
{
    const QString key = QSettings().value(kFormat).toString();
    for (ChartFormat f : kFormats)
        if (key == chartFormatExtension(f))
            return f;
    return ChartFormat::Png;
}

void AppSettings::setLastChartFormat(ChartFormat format)
{
    QSettings().setValue(kFormat, chartFormatExtension(format));
}

QString AppSettings::lastExportFolder()
{
    const QString folder = QSettings().value(kFolder).toString();
    if (!folder.isEmpty() && QDir(folder).exists())
        return folder;
    const QString pictures = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    return !pictures.isEmpty() && QDir(pictures).exists() ? pictures : QDir::homePath();
}

void AppSettings::setLastExportFolder(const QString &folder)
{
    QSettings().setValue(kFolder, folder);
}

bool AppSettings::canvasExportInScreenTheme()
{
    return QSettings().value(QStringLiteral("export/canvasScreenTheme"), false).toBool();
}

void AppSettings::setCanvasExportInScreenTheme(bool screen)
{
    QSettings().setValue(QStringLiteral("export/canvasScreenTheme"), screen);
}

} // namespace weft
