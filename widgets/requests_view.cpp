// SPDX-License-Identifier: GPL-3.0-or-later
#include "requests_view.h"

#include "count_text.h"
#include "store/request_table.h"
#include "requests_model.h"
#include "store/store.h"
#include "platform/utf8_path.h"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

#include <QFile>
#include <QProgressDialog>
#include <QTimer>

#include <atomic>
#include <fstream>

RequestsView::RequestsView(QWidget *parent)
    : QWidget(parent)
    , m_table(new QTableView(this))
    , m_status(new QLabel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_status);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed); // a million rows: no per-row sizing
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionsMovable(true);
    // Column widths from the first rows only: measuring the default 1000 rows cost 120 ms of frozen UI.
    m_table->horizontalHeader()->setResizeContentsPrecision(64);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QTableView::customContextMenuRequested, this, [this](const QPoint &at) {
        QMenu menu(this);
        menu.addAction(tr("Copy as TSV"), this, [this] { copySelection(false); });
        menu.addAction(tr("Copy as CSV"), this, [this] { copySelection(true); });
        menu.exec(m_table->viewport()->mapToGlobal(at));
    });
}

RequestsView::~RequestsView() = default;

QAbstractItemModel *RequestsView::model() const { return m_model.get(); }

bool RequestsView::busy() const { return m_model && m_model->isBusy(); }

void RequestsView::setStore(const lx::Store *store, const lx::RequestFilter &filter)
{
    m_table->setModel(nullptr);
    m_model.reset();
    m_store = store;
    if (!store) {
        m_status->setText(tr("Importing…"));
        return;
    }
    m_model = std::make_unique<RequestsModel>(*store);
    m_columnsSized = false;
    m_model->setDurationUnit(m_unit);
    m_model->setTimesAreOffsets(m_offsets);
    m_table->setModel(m_model.get());
    m_table->horizontalHeader()->setSortIndicator(int(lx::RequestColumn::Start), Qt::AscendingOrder);
    connect(m_model.get(), &RequestsModel::busyChanged, this, [this](bool busy) {
        updateStatus();
        if (!busy)
            emit settled();
    });
    connect(m_model.get(), &RequestsModel::errorOccurred, this, &RequestsView::errorOccurred);
    connect(m_model.get(), &RequestsModel::orderChanged, this, [this] {
        updateStatus();
        // Size the columns to the rows on screen once (QTableView measures only those, not a million).
        if (!m_columnsSized && m_model->rowCount() > 0) {
            m_table->resizeColumnsToContents();
            fitDurationColumns();
            m_columnsSized = true;
        }
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
        emit requestSelected(current.isValid() ? m_model->rowIdAt(current.row()) : -1);
    });
    m_model->setFilter(filter);
    updateStatus();
}

void RequestsView::setFilter(const lx::RequestFilter &filter)
{
    if (m_model)
        m_model->setFilter(filter);
}

void RequestsView::setTimesAreOffsets(bool offsets)
{
    m_offsets = offsets;
    if (m_model)
        m_model->setTimesAreOffsets(offsets);
}

void RequestsView::setDurationUnit(lx::DurationUnit unit)
{
    m_unit = unit;
    if (m_model)
        m_model->setDurationUnit(unit);
    if (m_columnsSized)
        fitDurationColumns();
}

void RequestsView::fitDurationColumns()
{
    // The first rows measured are the first in start order, seconds long: sorted by E2E a million requests
    // begin with hours ("1 h …"). A duration column is as wide as the longest duration can be written.
    const int widest = m_table->fontMetrics().horizontalAdvance(RequestsModel::widestDurationText(m_unit))
                       + 2 * m_table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_table) + 8;
    for (int column = 0; column < m_table->horizontalHeader()->count(); ++column) {
        if (RequestsModel::isDurationColumn(column) && m_table->columnWidth(column) < widest)
            m_table->setColumnWidth(column, widest);
    }
}

void RequestsView::updateStatus()
{
    if (!m_model) {
        m_status->clear();
        return;
    }
    m_status->setText(m_model->isBusy() ? tr("Sorting and filtering %L1 requests…").arg(m_model->rowCount())
                                        : requestsText(m_model->rowCount()));
}

void RequestsView::selectRow(int row)
{
    if (!m_model || row < 0 || row >= m_model->rowCount())
        return;
    m_table->selectRow(row);
    m_table->setCurrentIndex(m_model->index(row, 0));
}

bool RequestsView::selectRequest(qint64 rowId)
{
    if (!m_model)
        return false;
    if (selectedRowId() == rowId)
        return true; // the table is where the selection came from: no echo
    const std::int64_t id = rowId;
    const std::ptrdiff_t row = m_model->order()->rowsOf({&id, 1}).front();
    if (row < 0)
        return false;
    selectRow(static_cast<int>(row));
    m_table->scrollTo(m_model->index(static_cast<int>(row), 0), QAbstractItemView::PositionAtCenter);
    return true;
}

qint64 RequestsView::selectedRowId() const
{
    const QModelIndex current = m_table->currentIndex();
    return m_model && current.isValid() ? m_model->rowIdAt(current.row()) : -1;
}

void RequestsView::copySelection(bool csv)
{
    if (!m_model || !m_table->selectionModel())
        return;
    // Counted from the selection's ranges: listing the indexes of a million selected rows would itself freeze.
    qint64 rows = 0;
    for (const QItemSelectionRange &range : m_table->selectionModel()->selection())
        rows += range.height();
    if (rows > kMaxCopiedRows) {
        emit errorOccurred(tr("%L1 rows are too many for the clipboard; use File ▸ Export (Ctrl+E) for more than %L2")
                               .arg(rows).arg(kMaxCopiedRows));
        return;
    }
    const QString text = m_model->copyText(m_table->selectionModel()->selectedIndexes(), csv);
    if (!text.isEmpty())
        QApplication::clipboard()->setText(text);
}

void RequestsView::exportCsv(const QString &path)
{
    if (!m_model || !m_store || !m_model->order()) {
        emit exportFinished(path, tr("no requests to export"));
        return;
    }
    if (m_model->isBusy()) {
        emit exportFinished(path, tr("the table is still applying the filter; export again when it shows the requests"));
        return;
    }
    if (m_export.running()) { // the dialog is modal: only a program asks twice
        emit exportFinished(path, tr("an export is running already"));
        return;
    }
    // Off the UI thread, on a connection of its own, with a progress dialog whose Cancel stops it; the
    // export lands either way, to say so and close the dialog.
    auto order = m_model->order();
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    auto done = std::make_shared<std::atomic<std::uint64_t>>(0);
    auto *dialog = new QProgressDialog(tr("Exporting %L1 requests…").arg(order->size()), tr("Cancel"), 0, 1000, this);
    dialog->setWindowModality(Qt::WindowModal);
    dialog->setMinimumDuration(300);
    auto *poll = new QTimer(dialog);
    connect(poll, &QTimer::timeout, dialog, [dialog, done, order] {
        dialog->setValue(order->size() ? int(1000 * double(done->load()) / double(order->size())) : 0);
    });
    poll->start(100);
    connect(dialog, &QProgressDialog::canceled, this, [cancel] { *cancel = true; });
    auto write = [path, order, connection = m_store->openReader(), cancel, done](const std::atomic<bool> &) -> QString {
        if (!connection)
            return tr("cannot read the store");
        std::ofstream out(lx::utf8Path(path.toStdString()), std::ios::binary);
        if (!out)
            return tr("cannot write the file");
        std::string why;
        const auto progress = [cancel, done](std::uint64_t rows, std::uint64_t) {
            *done = rows;
            return !cancel->load();
        };
        if (!lx::writeCsv(out, connection, *order, lx::allRequestColumns(), progress, &why)) {
            out.close();
            QFile::remove(path); // no half-written export left behind
            return cancel->load() ? tr("cancelled") : QString::fromStdString(why);
        }
        return {};
    };
    m_export.start(std::move(write), [this, dialog, path](const QString &error) {
        dialog->deleteLater();
        emit exportFinished(path, error);
    });
}
