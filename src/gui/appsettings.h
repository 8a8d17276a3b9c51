#pragma once
// Typed access to Weft's user settings (QSettings under the organisation and application names
// main() sets: ~/.config/Weft/Weft.conf on Linux). Keys other than these: window layout
// (MainWindow) and recent files (FileActions). Values read back are validated: a missing or
// malformed entry gives the default, never an unusable export size or an unknown theme.

#include "gui/charts/chartexporter.h"

#include <QString>

namespace weft {

/// Colour theme of the whole application: the desktop's palette, or Weft's light or dark one.
enum class Theme { System, Light, Dark };

/// "system", "light", "dark" (the value stored in the settings).
QString themeKey(Theme theme);
/// Inverse of themeKey(); unknown text gives Theme::System.
Theme themeFromKey(const QString &key);

class AppSettings
{
public:
    /// Key "appearance/theme"; default System.
    static Theme theme();
    static void setTheme(Theme theme);

    /// Keys "chartExport/width", "chartExport/height" (device-independent pixels) and
    /// "chartExport/dpi"; defaults and valid ranges are ChartExportOptions' (16..20000 px,
    /// 24..2400 dpi): an out-of-range stored value gives the default.
    static ChartExportOptions chartExportOptions();
    static void setChartExportOptions(const ChartExportOptions &options);

    /// Key "chartExport/format": the format of the last chart export (PNG by default).
    static ChartFormat lastChartFormat();
    static void setLastChartFormat(ChartFormat format);

    /// Key "chartExport/folder": the folder of the last chart export; the user's Pictures
    /// folder (else home) when none was recorded or it no longer exists.
    static QString lastExportFolder();
    static void setLastExportFolder(const QString &folder);

    /// Canvas pictures (File > Export Canvas) in the on-screen theme instead of the light
    /// report style (default false: exports are light whatever the theme).
    static bool canvasExportInScreenTheme();
    static void setCanvasExportInScreenTheme(bool screen);
};

} // namespace weft
