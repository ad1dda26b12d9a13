// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "background_job.h"
#include "filter/request_filter.h"
#include "model/duration_format.h"

#include <QWidget>

class QTreeWidget;
class TokenTimeline;

namespace lx {
class Store;
}

/// Everything about the selected request: where it came from, its timestamps, its segments (not-measured
/// marked), token metrics, attributes and its token timeline.
class RequestDetailView : public QWidget {
    Q_OBJECT

public:
    explicit RequestDetailView(QWidget *parent = nullptr);

    /// Shows the request with that row id of the store; -1 clears.
    void showRequest(const lx::Store *store, qint64 rowId);
    /// Checks the shown request against a new filter, off the UI thread (the check is SQL): one the filter
    /// excludes gives way to a note, so that the panel never shows a request the views have dropped.
    void setFilter(const lx::RequestFilter &filter);
    void setDurationUnit(lx::DurationUnit unit);
    const QTreeWidget *tree() const { return m_tree; }
    /// Clears the request and says why in its place (a request picked before its details can be read).
    void showNote(const QString &note);

signals:
    /// The check setFilter() started ended: `inFilter` is false when the request gave way to the note.
    void filterChecked(bool inFilter);

private:
    /// The field column as wide as the widest field name, so that the values have the rest.
    void fitFieldColumn();

    QTreeWidget *m_tree;
    TokenTimeline *m_timeline;
    lx::DurationUnit m_unit = lx::DurationUnit::Auto;
    const lx::Store *m_store = nullptr;
    qint64 m_rowId = -1;
    BackgroundJob<bool> m_filterCheck{this}; ///< a new selection or filter drops the check before it
};
