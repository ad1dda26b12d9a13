// SPDX-License-Identifier: GPL-3.0-or-later
#include "span_mapping_menu.h"

#include "ingest/span_mapping.h"

#include <QActionGroup>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>

namespace {

const QString kSettingsKey = QStringLiteral("import/spanMapping");

} // namespace

QString SpanMappingMenu::presetTitle(const QString &name)
{
    if (name == QLatin1String("vllm"))
        return tr("&vLLM");
    if (name == QLatin1String("sglang"))
        return tr("&SGLang");
    if (name == QLatin1String("tgi"))
        return tr("&TGI (Text Generation Inference)");
    if (name == QLatin1String("http-gateway"))
        return tr("&HTTP Gateway in Front of a Server");
    return name;
}

SpanMappingMenu::SpanMappingMenu(QWidget *parent)
    : QMenu(tr("OTLP &Span Mapping"), parent)
    , m_group(new QActionGroup(this))
{
    setToolTipsVisible(true);
    m_automatic = addAction(tr("&Automatic (vLLM, then SGLang, then TGI)"));
    m_automatic->setData(QString());
    addSeparator();
    for (std::string_view name : lx::spanMappingPresetNames()) {
        const QString preset = QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
        QAction *action = addAction(presetTitle(preset));
        action->setData(preset);
        m_presets.push_back(action);
    }
    addSeparator();
    m_file = addAction(tr("Mapping &File…"));
    m_file->setToolTip(tr("A JSON file naming the spans and attributes of each segment (docs/OTLP.md)"));
    for (QAction *action : actions()) {
        if (action->isSeparator())
            continue;
        action->setCheckable(true);
        m_group->addAction(action);
    }
    connect(m_group, &QActionGroup::triggered, this, [this](QAction *action) {
        if (action == m_file) {
            chooseFile();
            return;
        }
        QString why;
        setMapping(action->data().toString(), &why);
    });
    QString why;
    if (!setMapping(QSettings().value(kSettingsKey).toString(), &why, false))
        setMapping(QString(), &why, false); // the file is gone: automatic
}

bool SpanMappingMenu::setMapping(const QString &nameOrFile, QString *error, bool remember)
{
    const QString chosen = nameOrFile == QLatin1String("auto") ? QString() : nameOrFile;
    std::string why;
    if (!lx::loadSpanMappings(chosen.toStdString(), &why)) {
        *error = QString::fromStdString(why);
        check(); // back to what is in force
        return false;
    }
    const bool changed = chosen != m_mapping;
    m_mapping = chosen;
    if (remember)
        QSettings().setValue(kSettingsKey, m_mapping);
    check();
    if (changed)
        emit mappingChanged(m_mapping);
    return true;
}

void SpanMappingMenu::chooseFile()
{
    const QString path = QFileDialog::getOpenFileName(parentWidget(), tr("OTLP Span Mapping File"), QString(),
                                                      tr("Span mappings (*.json);;All files (*)"));
    QString why;
    if (!path.isEmpty() && !setMapping(path, &why))
        QMessageBox::warning(parentWidget(), tr("OTLP Span Mapping"), why);
    check();
}

void SpanMappingMenu::check()
{
    bool preset = m_mapping.isEmpty();
    m_automatic->setChecked(preset);
    for (QAction *action : m_presets) {
        if (action->data().toString() == m_mapping) {
            action->setChecked(true);
            preset = true;
        }
    }
    m_file->setChecked(!preset);
    m_file->setText(preset ? tr("Mapping &File…") : tr("Mapping &File: %1…").arg(QFileInfo(m_mapping).fileName()));
    m_file->setToolTip(preset ? tr("A JSON file naming the spans and attributes of each segment (docs/OTLP.md)") : m_mapping);
}
