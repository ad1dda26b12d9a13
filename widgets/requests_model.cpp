// SPDX-License-Identifier: GPL-3.0-or-later
#include "requests_model.h"

#include "store/store.h"

#include <QRegularExpression>

#include <algorithm>
#include <set>

namespace {

const QString &notMeasuredText()
{
    static const QString dash(QChar(0x2014)); // an em dash: "not measured" must never read as 0
    return dash;
}

lx::SortDirection directionOf(Qt::SortOrder order)
{
    return order == Qt::AscendingOrder ? lx::SortDirection::Ascending : lx::SortDirection::Descending;
}

} // namespace

RequestsModel::RequestsModel(const lx::Store &store, QObject *parent)
    : QAbstractTableModel(parent)
    , m_store(store)
    , m_fetcher(std::make_unique<lx::RowFetcher>(store.connection()))
    , m_order(std::make_shared<const lx::RequestOrder>())
{
    startBuild(true);
}

// m_build cancels the running build, which stops at its next check: it holds nothing of this model.
RequestsModel::~RequestsModel() = default;

int RequestsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_order->size());
}

int RequestsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : lx::kRequestColumnCount;
}

Qt::ItemFlags RequestsModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemNeverHasChildren;
}

QVariant RequestsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= lx::kRequestColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    const lx::ColumnInfo &info = lx::columnInfo(static_cast<lx::RequestColumn>(section));
    switch (role) {
    case Qt::DisplayRole:
        if (m_offsets && info.kind == lx::ColumnKind::Timestamp)
            return tr("Start (offset)"); // not "(UTC)": these times have no date
        return QString::fromUtf8(info.header.data(), static_cast<qsizetype>(info.header.size()));
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(lx::isNumeric(info.kind) ? Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter)
                                                            : Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
    case Qt::InitialSortOrderRole:
        // The first click on a duration shows the slowest requests first: what one looks for.
        return QVariant::fromValue(info.kind == lx::ColumnKind::Duration ? Qt::DescendingOrder : Qt::AscendingOrder);
    default:
        return {};
    }
}

QVariant RequestsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto column = static_cast<lx::RequestColumn>(index.column());
    const lx::ColumnInfo &info = lx::columnInfo(column);
    if (role == Qt::TextAlignmentRole) // asked for every painted cell: answered without a fetch
        return QVariant::fromValue(lx::isNumeric(info.kind) ? Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter)
                                                            : Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole && role != SortRole)
        return {};
    const lx::TableRow *row = rowAt(index.row());
    if (!row)
        return {};
    const bool measured = row->measured(column) && !(info.kind == lx::ColumnKind::Text && row->text(column).empty());
    if (!measured && role == Qt::DisplayRole)
        return notMeasuredText();
    if (!measured)
        return role == Qt::ToolTipRole ? QVariant(tr("not measured")) : QVariant();
    const std::int64_t value = row->value(column);
    if (role == SortRole) {
        if (info.kind == lx::ColumnKind::Text)
            return QString::fromStdString(row->text(column));
        return QVariant::fromValue(static_cast<qint64>(value));
    }
    if (role == Qt::ToolTipRole) {
        // The exact value behind the rounded display: every ns of a duration or a start time.
        if (info.kind == lx::ColumnKind::Duration)
            return tr("%1 ms").arg(QString::fromStdString(lx::exportCell(*row, column)));
        if (info.kind == lx::ColumnKind::Timestamp)
            return QString::fromStdString(m_offsets ? lx::formatInstant(value, true, 9) : lx::exportCell(*row, column));
        return {};
    }
    switch (info.kind) {
    case lx::ColumnKind::Duration:
        return QString::fromStdString(lx::formatDuration(static_cast<double>(value), m_unit));
    case lx::ColumnKind::Timestamp:
        return QString::fromStdString(lx::formatInstant(value, m_offsets));
    case lx::ColumnKind::Integer:
        return QString::number(value);
    case lx::ColumnKind::Text:
        return QString::fromStdString(row->text(column));
    case lx::ColumnKind::Enum: {
        const std::string_view name = lx::enumName(column, value);
        return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
    }
    }
    return {};
}

const lx::TableRow *RequestsModel::rowAt(int row) const
{
    if (row < 0 || static_cast<std::size_t>(row) >= m_order->size())
        return nullptr;
    const int pageIndex = row / kPageRows;
    auto page = std::find_if(m_pages.begin(), m_pages.end(), [&](const Page &p) { return p.index == pageIndex; });
    if (page == m_pages.end()) {
        if (m_pages.size() < static_cast<std::size_t>(kCachedPages))
            page = m_pages.emplace(m_pages.end());
        else // the least recently used page makes room
            page = std::min_element(m_pages.begin(), m_pages.end(),
                                    [](const Page &a, const Page &b) { return a.lastUse < b.lastUse; });
        page->index = pageIndex;
        const auto ids = m_order->ids();
        const std::size_t first = static_cast<std::size_t>(pageIndex) * kPageRows;
        page->rows = m_fetcher->fetch(ids.subspan(first, std::min<std::size_t>(kPageRows, ids.size() - first)));
        if (!m_fetcher->error().empty()) { // an empty cell, read again next time: never a false "not measured"
            page->index = -1;
            return nullptr;
        }
    }
    page->lastUse = ++m_useClock;
    return &page->rows[static_cast<std::size_t>(row % kPageRows)];
}

void RequestsModel::sort(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= lx::kRequestColumnCount)
        return;
    const auto requested = static_cast<lx::RequestColumn>(column);
    if (requested == m_column && order == m_sortOrder) // already shown or on its way
        return;
    m_column = requested;
    m_sortOrder = order;
    startBuild(false);
}

void RequestsModel::setFilter(const lx::RequestFilter &filter)
{
    m_filter = filter;
    startBuild(true);
}

void RequestsModel::refresh() { startBuild(true); }

QString RequestsModel::widestDurationText(lx::DurationUnit unit)
{
    // Up to 99 h, the longest forms of formatDuration(): "-12 h 34 min", or 99 h in ms with three decimals.
    constexpr double kLongestNs = -99 * 3600e9 + -59 * 60e9;
    return QString::fromStdString(lx::formatDuration(kLongestNs, unit)).replace(QRegularExpression(QStringLiteral("[0-9]")), QStringLiteral("8"));
}

bool RequestsModel::isDurationColumn(int column)
{
    return column >= 0 && column < lx::kRequestColumnCount
           && lx::columnInfo(static_cast<lx::RequestColumn>(column)).kind == lx::ColumnKind::Duration;
}

void RequestsModel::setDurationUnit(lx::DurationUnit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), {Qt::DisplayRole});
}

void RequestsModel::setTimesAreOffsets(bool offsets)
{
    if (offsets == m_offsets)
        return;
    m_offsets = offsets;
    emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), { Qt::DisplayRole, Qt::ToolTipRole });
}

void RequestsModel::startBuild(bool reset)
{
    m_resetPending = m_resetPending || reset;
    setBusy(true);
    // The build before this one is stale: it is cancelled (it stops early) and its order dropped.
    const auto build = [filter = m_filter, column = m_column, direction = directionOf(m_sortOrder)](
                           const lx::ReadConnection &connection, const std::atomic<bool> &cancel) {
        Built built;
        std::string why;
        if (auto order = lx::RequestOrder::build(connection, filter, column, direction, &cancel, &why))
            built.order = std::make_shared<const lx::RequestOrder>(std::move(*order));
        else
            built.error = QString::fromStdString(why);
        return built;
    };
    const auto deliver = [this](const Built &built) { land(built); };
    lx::ReadConnection reader = m_store.openReader();
    if (!reader) {
        // A store without a file of its own (none is made so today): build here, land as if it came back.
        m_build.deliverLater(build(m_store.connection(), std::atomic<bool>(false)), deliver);
        return;
    }
    // The job holds the connection: it closes on the worker thread when the pool deletes the finished job.
    m_build.start([build, connection = std::move(reader)](const std::atomic<bool> &cancel) { return build(connection, cancel); },
                  deliver);
}

void RequestsModel::land(const Built &built)
{
    if (!built.order) {
        setBusy(false);
        emit errorOccurred(tr("Cannot read the requests: %1").arg(built.error));
        return;
    }
    if (m_resetPending) {
        beginResetModel();
        m_order = built.order;
        m_pages.clear();
        m_resetPending = false;
        endResetModel();
    } else {
        // The same rows in another order: selections and the current row follow their requests.
        emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
        const QModelIndexList before = persistentIndexList();
        std::vector<std::int64_t> ids;
        ids.reserve(static_cast<std::size_t>(before.size()));
        for (const QModelIndex &index : before)
            ids.push_back(m_order->idAt(static_cast<std::size_t>(index.row())));
        m_order = built.order;
        m_pages.clear();
        const std::vector<std::ptrdiff_t> rows = m_order->rowsOf(ids);
        QModelIndexList after;
        after.reserve(before.size());
        for (qsizetype i = 0; i < before.size(); ++i) {
            const std::ptrdiff_t row = rows[static_cast<std::size_t>(i)];
            after.append(row >= 0 ? index(static_cast<int>(row), before[i].column()) : QModelIndex());
        }
        changePersistentIndexList(before, after);
        emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
    }
    emit orderChanged();
    setBusy(false); // last: whoever waits for "not busy" finds the new rows in place
}

void RequestsModel::setBusy(bool busy)
{
    if (busy == m_busy)
        return;
    m_busy = busy;
    emit busyChanged(busy);
}

std::int64_t RequestsModel::rowIdAt(int row) const
{
    if (row < 0 || static_cast<std::size_t>(row) >= m_order->size())
        return -1;
    return m_order->idAt(static_cast<std::size_t>(row));
}

int RequestsModel::rowOfId(std::int64_t id) const
{
    const std::int64_t ids[] = {id};
    return static_cast<int>(m_order->rowsOf(ids).front());
}

QString RequestsModel::copyText(const QModelIndexList &indexes, bool csv) const
{
    // The rows and columns the selection spans, in view order: a rectangle, as spreadsheets paste it.
    std::set<int> rows;
    std::set<int> columns;
    for (const QModelIndex &index : indexes) {
        if (index.isValid() && index.model() == this && static_cast<std::size_t>(index.row()) < m_order->size()) {
            rows.insert(index.row());
            columns.insert(index.column());
        }
    }
    if (rows.empty())
        return {};
    std::vector<lx::RequestColumn> cols;
    for (int c : columns)
        cols.push_back(static_cast<lx::RequestColumn>(c));
    const auto format = csv ? lx::TextFormat::Csv : lx::TextFormat::Tsv;
    std::string text;
    std::vector<std::int64_t> ids;
    bool failed = false;
    // In batches, so that copying a large selection does not hold every row at once.
    const auto flush = [&] {
        const auto fetched = m_fetcher->fetch(ids);
        failed = failed || !m_fetcher->error().empty();
        text += lx::formatRowsText(fetched, cols, format, text.empty());
        ids.clear();
    };
    for (int row : rows) {
        ids.push_back(m_order->idAt(static_cast<std::size_t>(row)));
        if (ids.size() == 4096)
            flush();
    }
    if (!ids.empty())
        flush();
    return failed ? QString() : QString::fromStdString(text);
}
