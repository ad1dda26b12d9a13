// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "background_job.h"
#include "source/clickhouse_catalog.h"
#include "trace_store_pull.h"

#include <QDateTime>
#include <QDialog>
#include <QStringList>

#include <optional>

class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QTimer;

/// File ▸ Open from Trace Store (docs/CLICKHOUSE.md, "In the app"): a ClickHouse connection (URL, user,
/// password), tested before anything else; the services with spans in a time range, with their counts;
/// the span count of the services checked, with a warning above a threshold; the span mapping. Every
/// question to the server runs on a worker (BackgroundJob) with a busy row and Cancel; Esc cancels the
/// question running, else closes. Pull remembers the connection (never its password) and accepts: the
/// caller pulls pull() into an investigation.
class TraceStoreDialog : public QDialog {
    Q_OBJECT

public:
    /// `mapping`: the app's span mapping, chosen when no remembered connection names one.
    explicit TraceStoreDialog(const QString &mapping, QWidget *parent = nullptr);
    ~TraceStoreDialog() override;

    /// What Pull chose (valid once accepted).
    TraceStorePull pull() const { return m_pull; }
    /// The range of span starts, shown in UTC (the last 30 minutes by default).
    void setTimeRange(const QDateTime &from, const QDateTime &to);
    /// A question to the server is running.
    bool busy() const;

    /// Esc and Cancel: stop the question running; when none runs, close.
    void reject() override;

signals:
    /// A question to the server was answered (or failed, or was cancelled): the dialog is idle again.
    void settled();

private:
    // trace_store_dialog.cpp: the form.
    QWidget *buildServerBox();
    QWidget *buildSelectionBox(const QString &mapping);
    QWidget *buildBusyRow();
    void fillRemembered();
    void applyRemembered(int index);
    void lastThirtyMinutes();
    void connectionEdited();
    void updateButtons();
    void showStatus(const QString &text, bool error);
    void acceptPull();

    // trace_store_dialog_questions.cpp: the questions to the server, each on a worker.
    bool readEndpoint(lx::source::ClickHouseEndpoint *endpoint);
    lx::source::ClickHouseRequestOptions requestOptions() const;
    lx::source::SpanWindow window() const;
    void testConnection();
    void refreshServices();
    void showServices(const lx::source::ServiceList &list);
    void recount();
    void showCount(const lx::source::SpanCount &count);
    void startBusy(const QString &what);
    void endBusy();
    void cancelQuestions();

    QComboBox *m_url;
    QLineEdit *m_user;
    QLineEdit *m_password;
    QCheckBox *m_keychain;
    QPushButton *m_test;
    QLabel *m_status;
    QDateTimeEdit *m_from;
    QDateTimeEdit *m_to;
    QListWidget *m_services;
    QLabel *m_count;
    QLabel *m_warning;
    QComboBox *m_mapping;
    QWidget *m_busyRow;
    QLabel *m_busyText;
    QProgressBar *m_busyBar;
    QPushButton *m_pullButton;
    QTimer *m_rangeTimer;
    QTimer *m_recountTimer;

    bool m_connected = false; ///< the connection as typed answered Test connection
    int m_keychainReads = 0;  ///< bumped by each keychain read and each edit: a stale read's answer is dropped
    lx::source::ClickHouseEndpoint m_endpoint;       ///< the one that answered
    QStringList m_wanted;                            ///< services to check when the list arrives
    std::optional<lx::source::SpanCount> m_selected; ///< the count of the services checked, once known
    TraceStorePull m_pull;
    BackgroundJob<lx::source::ConnectionCheck> m_checkJob{this};
    BackgroundJob<lx::source::ServiceList> m_servicesJob{this};
    BackgroundJob<lx::source::SpanCount> m_countJob{this};
};
