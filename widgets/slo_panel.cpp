// SPDX-License-Identifier: GPL-3.0-or-later
#include "slo_panel.h"

#include "model/duration_format.h"
#include "model/percentiles.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

namespace {

// Okabe-Ito's bluish green and vermillion: told apart by colour-blind readers too, and never alone (the
// verdict is written out).
const QColor kPassColor(0x00, 0x9E, 0x73);
const QColor kFailColor(0xD5, 0x5E, 0x00);

QString duration(double ns) { return QString::fromStdString(lx::formatDuration(ns)); }

} // namespace

SloPanel::SloPanel(QWidget *parent)
    : QWidget(parent)
    , m_table(new QTreeWidget(this))
    , m_editor(new QLineEdit(this))
    , m_add(new QPushButton(tr("&Add"), this))
    , m_remove(new QPushButton(tr("&Remove"), this))
    , m_error(new QLabel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    m_table->setColumnCount(ColumnCount);
    m_table->setHeaderLabels({tr("Status"), tr("Target"), tr("Value"), tr("Margin"), tr("Threshold"), tr("Segment budget")});
    // The target names its percentile ("e2e.p95<=2s"): the value is the bare duration, the count in its tooltip.
    m_table->headerItem()->setToolTip(ValueColumn, tr("The target's percentile over the matching requests"));
    m_table->setRootIsDecorated(false);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setAlternatingRowColors(true);
    m_table->header()->setStretchLastSection(true);
    layout->addWidget(m_table, 1);

    auto *row = new QHBoxLayout;
    m_editor->setPlaceholderText(tr("e.g. e2e.p95<=2s   ttft.p99 < 500ms   itl.p50<=30ms where model = \"llama\""));
    m_editor->setClearButtonEnabled(true);
    m_editor->setToolTip(tr("METRIC.pQ (<= | <) DURATION [where FILTER]; METRIC is e2e, ttft, tpot, itl, ttlt or a segment"));
    row->addWidget(m_editor, 1);
    row->addWidget(m_add);
    row->addWidget(m_remove);
    layout->addLayout(row);
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setVisible(false);
    layout->addWidget(m_error);

    const auto add = [this] {
        if (addTarget(m_editor->text()))
            m_editor->clear();
    };
    connect(m_add, &QPushButton::clicked, this, add);
    connect(m_editor, &QLineEdit::returnPressed, this, add);
    connect(m_editor, &QLineEdit::textEdited, this, [this] { showError({}); });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        // From the bottom, so that the rows above keep their index.
        QList<int> rows;
        for (QTreeWidgetItem *item : m_table->selectedItems())
            rows.append(m_table->indexOfTopLevelItem(item));
        std::sort(rows.begin(), rows.end(), std::greater<>());
        for (int r : rows)
            removeTarget(r);
    });
    connect(m_table, &QTreeWidget::itemSelectionChanged, this,
            [this] { m_remove->setEnabled(!m_table->selectedItems().isEmpty()); });
    m_remove->setEnabled(false);
}

void SloPanel::setTargets(const QStringList &texts)
{
    m_targets.clear();
    for (const QString &text : texts) {
        if (auto target = lx::parseSlo(text.toStdString(), nullptr)) {
            const QString normal = QString::fromStdString(target->text);
            if (!m_targets.contains(normal))
                m_targets.append(normal);
        }
    }
    m_results.clear();
    rebuildRows();
}

void SloPanel::setResults(std::vector<lx::SloResult> results)
{
    m_results = std::move(results);
    rebuildRows();
}

bool SloPanel::addTarget(const QString &text)
{
    std::string why;
    const auto target = lx::parseSlo(text.toStdString(), &why);
    if (!target) {
        showError(QString::fromStdString(why));
        return false;
    }
    const QString normal = QString::fromStdString(target->text);
    if (m_targets.contains(normal)) {
        showError(tr("\"%1\" is already in the list").arg(normal));
        return false;
    }
    showError({});
    m_targets.append(normal);
    rebuildRows();
    emit targetsChanged(m_targets);
    return true;
}

void SloPanel::removeTarget(int row)
{
    if (row < 0 || row >= m_targets.size())
        return;
    m_targets.removeAt(row);
    rebuildRows();
    emit targetsChanged(m_targets);
}

QString SloPanel::errorText() const { return m_error->isVisibleTo(this) ? m_error->text() : QString(); }

void SloPanel::showError(const QString &text)
{
    m_error->setText(text);
    m_error->setVisible(!text.isEmpty());
    QPalette pal = m_error->palette();
    pal.setColor(QPalette::WindowText, kFailColor);
    m_error->setPalette(pal);
}

void SloPanel::rebuildRows()
{
    m_table->clear();
    for (int r = 0; r < m_targets.size(); ++r) {
        m_table->addTopLevelItem(new QTreeWidgetItem);
        fillRow(r);
    }
    for (int c = 0; c < BudgetColumn; ++c)
        m_table->resizeColumnToContents(c);
    m_remove->setEnabled(false);
}

void SloPanel::fillRow(int row)
{
    QTreeWidgetItem *item = m_table->topLevelItem(row);
    const QString text = m_targets.at(row);
    item->setText(TargetColumn, text);
    const auto found = std::find_if(m_results.begin(), m_results.end(),
                                    [&](const lx::SloResult &r) { return QString::fromStdString(r.target.text) == text; });
    if (found == m_results.end()) {
        item->setText(StatusColumn, tr("… not evaluated"));
        item->setForeground(StatusColumn, palette().color(QPalette::Disabled, QPalette::Text));
        return;
    }
    const lx::SloResult &r = *found;
    const QString op = r.target.strict ? QStringLiteral("<") : QStringLiteral("≤");
    item->setText(ThresholdColumn, op + QLatin1Char(' ') + duration(static_cast<double>(r.target.thresholdNs)));
    const QString unit = r.target.metric == "itl" ? tr("gaps") : tr("requests");
    if (!r.valueNs) {
        item->setText(StatusColumn, tr("– no data"));
        item->setToolTip(StatusColumn, tr("No %1 have this metric").arg(unit));
        return;
    }
    QFont bold = item->font(StatusColumn);
    bold.setBold(true);
    item->setFont(StatusColumn, bold);
    item->setText(StatusColumn, r.pass ? tr("✔ pass") : tr("✘ fail"));
    item->setForeground(StatusColumn, r.pass ? kPassColor : kFailColor);
    QColor tint = r.pass ? kPassColor : kFailColor;
    tint.setAlphaF(0.12);
    item->setBackground(StatusColumn, tint);
    item->setText(ValueColumn, duration(*r.valueNs));
    item->setToolTip(ValueColumn, tr("%1 = %2 over %3 %4")
                                      .arg(QString::fromStdString(lx::percentileKey(r.target.percentile)), duration(*r.valueNs),
                                           QLocale().toString(static_cast<qlonglong>(r.count)), unit));
    item->setText(MarginColumn, r.marginNs >= 0 ? tr("%1 to spare").arg(duration(r.marginNs)) : tr("%1 over").arg(duration(-r.marginNs)));
    item->setForeground(MarginColumn, r.marginNs >= 0 ? palette().color(QPalette::Text) : kFailColor);
    const QString budget = QString::fromStdString(r.budgetSentence());
    item->setText(BudgetColumn, budget);
    if (!budget.isEmpty())
        item->setToolTip(BudgetColumn, tr("Over the %1 requests between %2 and %3: the largest segment of their summed e2e")
                                           .arg(QLocale().toString(static_cast<qlonglong>(r.bandCount)), duration(r.bandLoNs),
                                                duration(r.bandHiNs)));
}

void SloPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        rebuildRows();
}
