// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "filter/request_filter.h"

#include <QWidget>

class QCheckBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QTimer;

/// The filter every view follows: an expression (docs/FILTER.md) checked as you type, with the error shown
/// where it is, and a time range beside it. Only a valid filter is applied.
class FilterBar : public QWidget {
    Q_OBJECT

public:
    explicit FilterBar(QWidget *parent = nullptr);

    /// The filter as it stands; meaningful when valid().
    lx::RequestFilter filter() const { return m_filter; }
    bool valid() const { return m_valid; }
    /// The filter in force as the user set it, in words: the expression, then the time range as the editors
    /// show it ("start 2025-01-01 12:01:00 UTC.."); empty for none. What a report of it states.
    QString statement() const { return m_statement; }
    QString errorText() const;
    QLineEdit *expressionEdit() const { return m_expression; }
    void setExpression(const QString &text);
    /// The span of the data, for the time-range editors' defaults; shows them. Until it is called for an
    /// investigation the time range is hidden: a store without start times (a benchmark result) has no
    /// dates to offer, and the editors would show 2000-01-01. With \a relative (times without a date: a
    /// Mooncake trace, vLLM's perf_counter sends) the editors show the time from the first request, "+00:01:30",
    /// as the load view's axis does, instead of a day of 1970; the first bounds of an investigation set that
    /// origin, so that a filter's narrower span does not move it.
    void setTimeBounds(qint64 firstNs, qint64 lastNs, bool relative = false);
    /// The origin the editors count from: the first request's start for relative times, else 0 (the epoch).
    qint64 timeOrigin() const { return m_originNs; }
    QDateTimeEdit *fromEdit() const { return m_from; }
    QDateTimeEdit *toEdit() const { return m_to; }
    QCheckBox *fromBox() const { return m_useFrom; }
    QCheckBox *toBox() const { return m_useTo; }
    /// Whether the time-range boxes are shown (setTimeBounds() since the last silent clear()).
    bool timeRangeShown() const;
    /// Back to no filter; `silently` does not announce it (a new investigation starts unfiltered anyway)
    /// and hides the time range until the new investigation's span is known.
    void clear(bool silently = false);
    /// Narrows the filter by `condition` (an expression, e.g. from a click on a chart): it is ANDed with
    /// the expression in force, and back() undoes it.
    void narrow(const QString &condition);
    /// The filter applied before the current one, and the one after it again (a browser's history).
    bool canGoBack() const { return m_historyAt > 0; }
    bool canGoForward() const { return m_historyAt + 1 < m_history.size(); }
    void back();
    void forward();

signals:
    void filterChanged(const lx::RequestFilter &filter);
    /// canGoBack() or canGoForward() may have changed.
    void historyChanged();

private:
    /// What a history step restores: the text and the time range as the user set them.
    struct State {
        QString expression;
        bool useFrom = false, useTo = false;
        qint64 fromNs = 0, toNs = 0;
        bool operator==(const State &) const = default;
    };
    State state() const;
    QString m_statement; ///< statement(), made as the filter is applied
    void restore(const State &state);
    void validate();
    void apply();
    void showTimeRange(bool shown);
    /// An editor's time in ns since the epoch, and back: the editors hold the time since m_originNs.
    qint64 editorNs(const QDateTimeEdit *edit) const;
    void setEditorNs(QDateTimeEdit *edit, qint64 ns);

    QLineEdit *m_expression;
    QLabel *m_error;
    QCheckBox *m_useFrom;
    QDateTimeEdit *m_from;
    QCheckBox *m_useTo;
    QDateTimeEdit *m_to;
    QTimer *m_debounce;
    lx::RequestFilter m_filter;
    bool m_valid = true;
    QList<State> m_history; ///< filters applied, oldest first; m_historyAt is the one in force
    qsizetype m_historyAt = -1;
    bool m_restoring = false;
    qint64 m_originNs = 0;       ///< see timeOrigin()
    bool m_originSet = false;    ///< the bounds of this investigation were given once
};
