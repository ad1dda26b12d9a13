// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

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
    void setDurationUnit(lx::DurationUnit unit);
    const QTreeWidget *tree() const { return m_tree; }

private:
    QTreeWidget *m_tree;
    TokenTimeline *m_timeline;
    lx::DurationUnit m_unit = lx::DurationUnit::Auto;
    const lx::Store *m_store = nullptr;
    qint64 m_rowId = -1;
};
