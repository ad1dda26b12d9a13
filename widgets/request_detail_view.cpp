// SPDX-License-Identifier: GPL-3.0-or-later
#include "request_detail_view.h"

#include "store/request_lookup.h"
#include "store/request_scan.h"
#include "segment_colors.h"
#include "token_timeline.h"

#include <QHeaderView>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace {

/// What the panel shows for a value the source did not have (translated; never compared as text).
QString notMeasured() { return RequestDetailView::tr("not measured"); }

QString fromStd(std::string_view text) { return QString::fromUtf8(text.data(), qsizetype(text.size())); }

} // namespace

RequestDetailView::RequestDetailView(QWidget *parent)
    : QWidget(parent)
    , m_tree(new QTreeWidget(this))
    , m_timeline(new TokenTimeline(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("field"), tr("value")});
    // The field column is as wide as the field names (fitFieldColumn()), not the section titles, which
    // span both columns: sized to "Timestamps (UTC; offset from the first)" it cut the timestamps short.
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setAlternatingRowColors(true);
    layout->addWidget(m_tree, 1);
    layout->addWidget(m_timeline);
    showRequest(nullptr, -1);
}

void RequestDetailView::setDurationUnit(lx::DurationUnit unit)
{
    m_unit = unit;
    showRequest(m_store, m_rowId);
}

void RequestDetailView::setFilter(const lx::RequestFilter &filter)
{
    if (!m_store || m_rowId < 0)
        return;
    const qint64 rowId = m_rowId;
    const auto inFilter = [where = lx::toSqlCondition(filter), rowId](const lx::Store &store, const std::atomic<bool> &) {
        bool found = false;
        lx::scanRequestRows(store, where, lx::RowIdRange{rowId, rowId}, [&found](int, const lx::RequestRow &) { found = true; });
        return found;
    };
    // A store that cannot be read now says nothing about the filter: the request stays.
    const auto unreadable = [](const std::string &) { return true; };
    m_filterCheck.start(onOwnStore(m_store->fileName(), inFilter, unreadable), [this](bool found) {
        if (!found) {
            m_rowId = -1; // a change of unit must not bring it back
            showNote(tr("The selected request is not in the current filter"));
        }
        emit filterChecked(found);
    });
}

void RequestDetailView::showNote(const QString &note)
{
    m_tree->clear();
    m_timeline->clear();
    (new QTreeWidgetItem(m_tree, {note, QString()}))->setFirstColumnSpanned(true);
}

void RequestDetailView::fitFieldColumn()
{
    const QFontMetrics metrics(m_tree->font());
    int widest = 0;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *section = m_tree->topLevelItem(i);
        for (int c = 0; c < section->childCount(); ++c) {
            const QTreeWidgetItem *field = section->child(c);
            if (field->isFirstColumnSpanned())
                continue;
            const int icon = field->icon(0).isNull() ? 0 : m_tree->iconSize().width() + 6;
            widest = std::max(widest, metrics.horizontalAdvance(field->text(0)) + icon);
        }
    }
    // A field sits one level in, below a decorated root: two indentations, and the cell's margins.
    m_tree->setColumnWidth(0, widest + 2 * m_tree->indentation() + 2 * metrics.averageCharWidth());
}

void RequestDetailView::showRequest(const lx::Store *store, qint64 rowId)
{
    m_filterCheck.cancel(); // a check of the request before says nothing about this one
    m_store = store;
    m_rowId = rowId;
    lx::RequestDetail r;
    if (!store || rowId < 0 || !lx::loadRequestDetail(*store, rowId, r)) {
        showNote(tr("No request selected"));
        return;
    }
    m_tree->clear();
    const auto duration = [this](std::int64_t ns) {
        return lx::isMeasured(ns) ? QString::fromStdString(lx::formatDuration(double(ns), m_unit)) : QString();
    };
    const auto section = [this](const QString &title) {
        auto *item = new QTreeWidgetItem(m_tree, {title});
        QFont font = item->font(0);
        font.setBold(true);
        item->setFont(0, font);
        item->setFirstColumnSpanned(true);
        item->setExpanded(true);
        return item;
    };
    // An empty value is one the source did not have: shown as such, greyed, never as 0.
    const auto add = [](QTreeWidgetItem *parent, const QString &name, const QString &value) {
        auto *item = new QTreeWidgetItem(parent, {name, value.isEmpty() ? notMeasured() : value});
        if (value.isEmpty())
            item->setForeground(1, QBrush(Qt::gray));
        else
            item->setToolTip(1, value); // the whole value, should the panel be narrower than it
        return item;
    };

    QTreeWidgetItem *request = section(tr("Request"));
    add(request, tr("id"), QString::fromStdString(r.sourceId));
    add(request, tr("source"), QStringLiteral("%1:%2").arg(QString::fromStdString(r.sourcePath)).arg(r.sourceLine));
    add(request, tr("status"), r.status == lx::Status::Ok ? tr("ok") : tr("error"));
    add(request, tr("model"), QString::fromStdString(r.model));
    add(request, tr("route"), QString::fromStdString(r.route));
    add(request, tr("input tokens"), lx::isMeasured(r.inputTokens) ? QString::number(r.inputTokens) : QString());
    add(request, tr("output tokens"), lx::isMeasured(r.outputTokens) ? QString::number(r.outputTokens) : QString());

    QTreeWidgetItem *segments = section(tr("Segments"));
    for (int s = 0; s < lx::kSegmentCount; ++s) {
        QTreeWidgetItem *item = add(segments, fromStd(lx::segmentName(lx::Segment(s))), duration(r.metrics.segments[s]));
        item->setIcon(0, [&] {
            QPixmap swatch(12, 12);
            swatch.fill(segmentColor(lx::Segment(s)));
            return QIcon(swatch);
        }());
        if (s == r.metrics.dominant)
            item->setText(1, tr("%1  (dominant)").arg(item->text(1)));
    }
    add(segments, tr("e2e"), lx::isMeasured(r.metrics.e2e)
                                 ? duration(r.metrics.e2e) + QStringLiteral("  [") + fromStd(lx::scopeName(r.metrics.e2eScope)) + QLatin1Char(']')
                                 : QString());
    if (r.metrics.flags & lx::kFlagClockSkew)
        add(segments, tr("clock skew"), tr("network came out negative: the client and server clocks disagree"));

    QTreeWidgetItem *tokens = section(tr("Token metrics [%1]").arg(fromStd(lx::scopeName(r.metrics.tokenScope))));
    // A joined request takes each metric the client did not measure from the server: said where it is so.
    const auto tokenMetric = [&](const QString &name, std::int64_t value, lx::RequestFlag serverFlag) {
        const lx::E2eScope scope = lx::tokenMetricScope(r.metrics.tokenScope, r.metrics.flags, serverFlag);
        add(tokens, name,
            scope == r.metrics.tokenScope || !lx::isMeasured(value)
                ? duration(value)
                : duration(value) + QStringLiteral("  [") + fromStd(lx::scopeName(scope)) + QLatin1Char(']'));
    };
    tokenMetric(tr("TTFT"), r.metrics.ttft, lx::kFlagServerTtft);
    tokenMetric(tr("TPOT"), r.metrics.tpot, lx::kFlagServerTpot);
    tokenMetric(tr("TTLT"), r.metrics.ttlt, lx::kFlagServerTtlt);

    std::int64_t first = INT64_MAX;
    for (std::int64_t t : r.stamps) {
        if (lx::isMeasured(t))
            first = std::min(first, t);
    }
    // The stamps of one request rarely cross midnight: their date goes in the title once, and each line
    // keeps the time of day, so that the timestamps fit a narrow dock ("2025-01-01T" ten times is noise).
    // Offsets from an unknown origin (a Mooncake trace) have no date: shown "+3.00 s", never a day of 1970.
    const bool offsets = (r.metrics.flags & lx::kFlagRelativeTime) != 0;
    QString date;
    for (std::int64_t t : r.stamps) {
        if (!lx::isMeasured(t) || offsets)
            continue;
        const QString day = QString::fromStdString(lx::formatTimestamp(t)).left(10);
        date = date.isEmpty() || date == day ? day : QStringLiteral("-");
    }
    const bool oneDate = !date.isEmpty() && date != QLatin1String("-");
    QTreeWidgetItem *stamps
        = section(offsets       ? tr("Timestamps (from the trace's origin, no date; offset from the first)")
                      : oneDate ? tr("Timestamps (%1 UTC; offset from the first)").arg(date)
                                : tr("Timestamps (UTC; offset from the first)"));
    for (int i = 0; i < lx::kStampCount; ++i) {
        const std::int64_t t = r.stamps[i];
        QString when = QString::fromStdString(lx::formatInstant(t, offsets));
        if (oneDate)
            when = when.mid(11); // "12:00:00.141644Z"
        add(stamps, fromStd(lx::stampName(lx::Stamp(i))),
            lx::isMeasured(t) ? QStringLiteral("%1  (+%2)").arg(when, QString::fromStdString(lx::formatDuration(double(t - first), m_unit)))
                              : QString());
    }

    const auto attributes = lx::attributePairs(*store, rowId);
    QTreeWidgetItem *attrs = section(tr("Attributes"));
    if (attributes.empty())
        (new QTreeWidgetItem(attrs, {tr("(none in the source)")}))->setFirstColumnSpanned(true);
    for (const auto &[key, value] : attributes)
        add(attrs, QString::fromStdString(key), QString::fromStdString(value));

    fitFieldColumn();
    m_timeline->setRequest(r);
}
