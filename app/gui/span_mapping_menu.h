// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMenu>

#include <vector>

class QActionGroup;

/// \file span_mapping_menu.h
/// File ▸ OTLP Span Mapping: how OTLP spans become requests in the files opened from then on
/// (docs/OTLP.md): automatic (vLLM, then SGLang, then TGI), one preset, or a mapping file of the user's,
/// as the CLI's --mapping takes them. The choice is kept in the settings; a file that can no longer be
/// read falls back to automatic. Stores already imported keep the requests they were given.
class SpanMappingMenu : public QMenu {
    Q_OBJECT

public:
    explicit SpanMappingMenu(QWidget *parent = nullptr);

    /// "" for automatic, a preset name, or a mapping file's path.
    QString mapping() const { return m_mapping; }
    /// Chooses a mapping as --mapping names it ("auto" or "" for automatic); false with the reason (which
    /// names the file) when it cannot be loaded, the choice unchanged. `remember`: keep it in the settings.
    bool setMapping(const QString &nameOrFile, QString *error, bool remember = true);

    /// A preset's title in menus ("&vLLM"), for the other places that offer the presets.
    static QString presetTitle(const QString &name);

signals:
    void mappingChanged(const QString &mapping);

private:
    void chooseFile();
    void check();

    QString m_mapping;
    QActionGroup *m_group = nullptr;
    QAction *m_automatic = nullptr;
    QAction *m_file = nullptr; ///< checked while a file is in force; its text names the file
    std::vector<QAction *> m_presets;
};
