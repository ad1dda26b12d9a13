// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "background_job.h"
#include "model/duration_format.h"
#include "filter/request_filter.h"
#include "store/request_table.h"

#include <QAbstractTableModel>
#include <QModelIndexList>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace lx {
class Store;
}

/// The requests table: one row per request matching the filter, in the order of the sorted column.
///
/// The order (a million row ids) is built off the UI thread on a read connection of its own; the rows a
/// view shows are fetched by id in pages of kPageRows on the store's own connection and kept in a small
/// LRU cache, so scrolling touches SQLite once per page, not once per cell. All SQL is in core
/// (request_table.h).
class RequestsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Role {
        /// The raw value: qint64 ns for durations and timestamps, qint64 counts and enum values, QString
        /// text; an invalid QVariant when not measured.
        SortRole = Qt::UserRole + 1,
    };
    static constexpr int kPageRows = 256;    ///< rows fetched at once: two screens of a tall window
    static constexpr int kCachedPages = 16;  ///< pages kept: scrolling back and forth re-reads nothing

    /// A model over `store`, which must outlive it; starts building the first order (by start time).
    explicit RequestsModel(const lx::Store &store, QObject *parent = nullptr);
    ~RequestsModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

    /// Rebuilds the order in the background; the rows move (layoutChanged, selections follow them) when it
    /// lands. Not-measured values stay last in both orders.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    int sortColumn() const { return static_cast<int>(m_column); }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }

    /// Shows the requests matching `filter`, rebuilt in the background (a model reset when it lands).
    void setFilter(const lx::RequestFilter &filter);
    const lx::RequestFilter &filter() const { return m_filter; }
    /// Re-reads the store with the current filter and order: after an import added requests.
    void refresh();

    /// How durations are shown; a user setting shared with the other views.
    void setDurationUnit(lx::DurationUnit unit);
    /// Whether the start times are offsets from an unknown origin (a Mooncake trace, vLLM's bench): shown
    /// "+3.00 s" as the filter bar and the waterfall show them, not as a day of 1970.
    void setTimesAreOffsets(bool offsets);
    /// The widest text a duration cell can take in `unit` over the durations a trace holds (hours, clock
    /// skew's minus sign): a duration column this wide never elides a value ("1 h …" at a million).
    static QString widestDurationText(lx::DurationUnit unit);
    /// True for the columns that hold durations.
    static bool isDurationColumn(int column);

    /// True while an order is being built.
    bool isBusy() const { return m_busy; }
    /// The store's row id (requests.id) of a row, -1 when out of range.
    std::int64_t rowIdAt(int row) const;
    /// The row showing that request, -1 when the filter leaves it out.
    int rowOfId(std::int64_t id) const;
    /// The order shown, for exporting the filtered rows in it (lx::writeCsv on a connection of one's own).
    std::shared_ptr<const lx::RequestOrder> order() const { return m_order; }

    /// The cells of `indexes` as text for the clipboard: the rows and columns they span, in view order, a
    /// header row first; CSV or tab-separated, values as exported (durations in ms). Empty when the store
    /// could not be read (rather than blanks that would read as "not measured").
    QString copyText(const QModelIndexList &indexes, bool csv) const;

signals:
    /// An order is being built (true) or has landed or failed (false): for a spinner.
    void busyChanged(bool busy);
    /// A new order is shown after sort(), setFilter() or refresh().
    void orderChanged();
    void errorOccurred(const QString &message);

private:
    struct Page {
        int index = -1;
        std::uint64_t lastUse = 0;
        std::vector<lx::TableRow> rows;
    };
    struct Built {
        std::shared_ptr<const lx::RequestOrder> order;
        QString error;
    };

    void startBuild(bool reset);
    void land(const Built &built);
    void setBusy(bool busy);
    const lx::TableRow *rowAt(int row) const;

    const lx::Store &m_store;
    std::unique_ptr<lx::RowFetcher> m_fetcher; ///< on the store's connection: the UI thread's
    std::shared_ptr<const lx::RequestOrder> m_order;
    mutable std::vector<Page> m_pages;
    mutable std::uint64_t m_useClock = 0;

    lx::RequestFilter m_filter;                  ///< as last asked for; the order shown may be older
    lx::RequestColumn m_column = lx::RequestColumn::Start;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    lx::DurationUnit m_unit = lx::DurationUnit::Auto;
    bool m_offsets = false;

    bool m_resetPending = false; ///< a filter change or refresh is on its way: a reset, not a layout change
    bool m_busy = false;
    BackgroundJob<Built> m_build{this}; ///< the latest build; older ones are cancelled and dropped
};
