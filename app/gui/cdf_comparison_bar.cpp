// SPDX-License-Identifier: GPL-3.0-or-later
#include "cdf_comparison_bar.h"

#include "filter/filter_expression.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

CdfComparisonBar::CdfComparisonBar(QWidget *parent)
    : QWidget(parent)
    , m_expression(new QLineEdit(this))
    , m_openStore(new QPushButton(tr("Other Investigation…"), this))
    , m_clear(new QPushButton(tr("Clear"), this))
    , m_status(new QLabel(this))
{
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(4, 2, 4, 2);
    row->addWidget(new QLabel(tr("Compare with (B, dashed):"), this));
    m_expression->setPlaceholderText(tr("a second filter, e.g.  start < 2025-01-01T12:00:00Z  (Enter applies)"));
    m_expression->setClearButtonEnabled(true);
    row->addWidget(m_expression, 1);
    row->addWidget(m_openStore);
    row->addWidget(m_clear);
    row->addWidget(m_status);
    m_openStore->setToolTip(tr("Compare with the requests of a saved investigation (.lxdb)"));
    connect(m_expression, &QLineEdit::returnPressed, this, &CdfComparisonBar::apply);
    connect(m_openStore, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Compare with an investigation"), QString(),
                                                          tr("Investigations (*.lxdb)"));
        if (!path.isEmpty())
            setStoreFile(path);
    });
    connect(m_clear, &QPushButton::clicked, this, &CdfComparisonBar::clear);
}

QString CdfComparisonBar::expression() const { return m_expression->text().trimmed(); }

QString CdfComparisonBar::label() const
{
    QStringList parts;
    if (!m_storeFile.isEmpty())
        parts << QFileInfo(m_storeFile).fileName();
    if (!expression().isEmpty())
        parts << expression();
    return tr("B: %1").arg(parts.join(QStringLiteral(" · ")));
}

void CdfComparisonBar::setExpression(const QString &text)
{
    m_expression->setText(text);
    apply();
}

void CdfComparisonBar::setStoreFile(const QString &path)
{
    m_storeFile = path;
    apply();
}

void CdfComparisonBar::clear()
{
    m_expression->clear();
    m_storeFile.clear();
    m_status->clear();
    const bool was = m_active;
    m_active = false;
    if (was)
        emit comparisonChanged();
}

void CdfComparisonBar::apply()
{
    const QByteArray text = expression().toUtf8();
    if (text.isEmpty() && m_storeFile.isEmpty()) {
        clear();
        return;
    }
    const auto compiled = lx::filterFromExpression(std::string_view(text.constData(), std::size_t(text.size())));
    if (const auto *error = std::get_if<lx::FilterError>(&compiled)) {
        m_status->setText(QStringLiteral("<span style='color:#d55e00'>%1</span>")
                              .arg(QString::fromStdString(error->message).toHtmlEscaped()));
        return; // the last valid comparison stays
    }
    m_filter = std::get<lx::RequestFilter>(compiled);
    m_status->clear();
    m_active = true;
    emit comparisonChanged();
}
