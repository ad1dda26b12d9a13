// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

/// Light and dark palettes. "System" keeps the platform's own palette and style.
enum class Theme { System, Light, Dark };

void applyTheme(Theme theme);
QString themeName(Theme theme);
Theme themeFromName(const QString &name);
