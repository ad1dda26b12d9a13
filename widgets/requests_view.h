// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "background_job.h"
#include "model/duration_format.h"
#include "filter/request_filter.h"

#include <QWidget>

#include <memory>

class QAbstractItemModel;
class QLabel;
class QTableView;
class RequestsModel;

namespace lx {
class Store;
}

/// The requests of the investigation as a table: a million rows scroll smoothly, any column sorts (off the
/// UI thread), selected rows copy as TSV or CSV, and the filtered rows export to CSV.
class RequestsView : public QWidget {
    Q_OBJECT

public:
    static constexpr qint64 kMaxCopiedRows = 100000; ///< beyond this, Export is the tool
    explicit RequestsView(QWidget *parent = nullptr);
    ~RequestsView() override;

    /// Shows the store's requests matching the filter; null lets go of the store (while an import writes it).
    void setStore(const lx::Store *store, const lx::RequestFilter &filter);
    void setFilter(const lx::RequestFilter &filter);
    void setDurationUnit(lx::DurationUnit unit);
    /// RequestsModel::setTimesAreOffsets(), kept for the next store's model too.
    void setTimesAreOffsets(bool offsets);

    QAbstractItemModel *model() const;
    QTableView *table() const { return m_table; }
    bool busy() const;
    void selectRow(int row);
    /// Selects the request with this store row id and scrolls to it (a chart's click); false when the
    /// current filter hides it.
    bool selectRequest(qint64 rowId);
    /// The store row id of the current request; -1 when none is selected.
    qint64 selectedRowId() const;
    void copySelection(bool csv);
    /// Writes the filtered rows in the table's order to a CSV file in the background; exportFinished() follows.
    void exportCsv(const QString &path);

signals:
    void requestSelected(qint64 rowId);
    /// The table shows the current filter and order.
    void settled();
    /// Something the user should read in the status bar.
    void errorOccurred(const QString &message);
    /// An export ended: `error` is empty on success.
    void exportFinished(const QString &path, const QString &error);

private:
    void updateStatus();
    /// Widens the duration columns to the longest duration text of the unit (never narrows them).
    void fitDurationColumns();

    const lx::Store *m_store = nullptr;
    std::unique_ptr<RequestsModel> m_model;
    QTableView *m_table;
    QLabel *m_status;
    lx::DurationUnit m_unit = lx::DurationUnit::Auto;
    bool m_offsets = false;
    bool m_columnsSized = false;
    BackgroundJob<QString> m_export{this}; ///< the running CSV export: why it failed, empty when it did not
};
