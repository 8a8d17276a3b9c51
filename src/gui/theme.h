#pragma once
// The application's colour theme: the desktop's palette (System) or Weft's own light and dark
// palettes, applied to the whole application as its QPalette. Every widget then receives a
// PaletteChange, which the canvas (TopologyView -> TopologyScene::setStylePalette -> CanvasStyle)
// and the charts (Chart -> ChartTheme) follow, so one call re-colours everything live.

#include "gui/appsettings.h"

#include <QPalette>

namespace weft {

/// The palette of `theme`. System: the application palette as it was before Weft first
/// changed it (the desktop's); Light and Dark: complete palettes (every colour role, with
/// greyed text in the Disabled group) independent of the desktop.
QPalette themePalette(Theme theme);

/// Makes `theme` the palette of the whole application (QApplication::setPalette).
void applyTheme(Theme theme);
/// Stores `theme` in the settings (AppSettings::setTheme) and applies it: what the View >
/// Theme menu and the Preferences dialog do.
void chooseTheme(Theme theme);

} // namespace weft
