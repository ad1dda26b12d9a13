// SPDX-License-Identifier: GPL-3.0-or-later
#include "rejected_dialog.h"

#include "store/request_lookup.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {
constexpr std::size_t kShown = 10000; // enough to read; all of them stay in the store's `rejected` table
}

RejectedDialog::RejectedDialog(const lx::Store &store, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Rejected records"));
    std::int64_t total = 0;
    const std::vector<lx::RejectedRecord> records = lx::loadRejected(store, kShown, &total);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(total > qint64(records.size())
                                     ? tr("The first %1 of %2 rejected records:").arg(records.size()).arg(total)
                                     : tr("%n rejected record(s):", nullptr, int(total)),
                                 this));
    auto *table = new QTableWidget(int(records.size()), 4, this);
    table->setHorizontalHeaderLabels({tr("file"), tr("line"), tr("reason"), tr("record")});
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    for (std::size_t i = 0; i < records.size(); ++i) {
        const lx::RejectedRecord &r = records[i];
        table->setItem(int(i), 0, new QTableWidgetItem(QString::fromStdString(r.path)));
        auto *line = new QTableWidgetItem(QString::number(r.line));
        line->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table->setItem(int(i), 1, line);
        table->setItem(int(i), 2, new QTableWidgetItem(QString::fromStdString(r.reason)));
        auto *excerpt = new QTableWidgetItem(QString::fromStdString(r.excerpt));
        excerpt->setToolTip(excerpt->text());
        table->setItem(int(i), 3, excerpt);
    }
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(table);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(1000, 500);
}
