// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "request_filter.h"

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
    QString errorText() const;
    QLineEdit *expressionEdit() const { return m_expression; }
    void setExpression(const QString &text);
    /// The span of the data, for the time-range editors' defaults.
    void setTimeBounds(qint64 firstNs, qint64 lastNs);
    /// Back to no filter; `silently` does not announce it (a new investigation starts unfiltered anyway).
    void clear(bool silently = false);

signals:
    void filterChanged(const lx::RequestFilter &filter);

private:
    void validate();
    void apply();

    QLineEdit *m_expression;
    QLabel *m_error;
    QCheckBox *m_useFrom;
    QDateTimeEdit *m_from;
    QCheckBox *m_useTo;
    QDateTimeEdit *m_to;
    QTimer *m_debounce;
    lx::RequestFilter m_filter;
    bool m_valid = true;
};
