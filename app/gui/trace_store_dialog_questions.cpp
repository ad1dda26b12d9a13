// SPDX-License-Identifier: GPL-3.0-or-later
// The questions File ▸ Open from Trace Store asks the server (core/source/clickhouse_catalog.h), each on a
// worker through BackgroundJob: the window stays live, a newer question supersedes an older one, and Stop
// (or Esc) ends the request at once through the client's cancel.
#include "trace_store_dialog.h"

#include "trace_store_settings.h"

#include <QComboBox>
#include <QDateTimeEdit>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTimer>

namespace {

/// A worker's request options: the dialog's, cancelled with the job.
lx::source::ClickHouseRequestOptions cancelledWith(lx::source::ClickHouseRequestOptions options, const std::atomic<bool> &cancel)
{
    options.keepGoing = [&cancel](std::uint64_t) { return !cancel.load(); };
    return options;
}

} // namespace

bool TraceStoreDialog::readEndpoint(lx::source::ClickHouseEndpoint *endpoint)
{
    std::string why;
    if (!lx::source::parseClickHouseUrl(m_url->currentText().trimmed().toStdString(), *endpoint, &why)) {
        showStatus(QString::fromStdString(why), true);
        return false;
    }
    if (const QString user = m_user->text().trimmed(); !user.isEmpty())
        endpoint->user = user.toStdString();
    return true;
}

lx::source::ClickHouseRequestOptions TraceStoreDialog::requestOptions() const
{
    lx::source::ClickHouseRequestOptions options;
    options.password = m_password->text().toStdString(); // empty: LX_CLICKHOUSE_PASSWORD, when set
    // A count over a large table can take a while; a question that hangs longer is said to have timed out.
    options.totalTimeoutMs = 120'000;
    return options;
}

lx::source::SpanWindow TraceStoreDialog::window() const
{
    lx::source::SpanWindow window;
    window.fromNs = m_from->dateTime().toMSecsSinceEpoch() * 1'000'000;
    window.toNs = m_to->dateTime().toMSecsSinceEpoch() * 1'000'000;
    for (int i = 0; i < m_services->count(); ++i) {
        if (m_services->item(i)->checkState() == Qt::Checked)
            window.services.push_back(m_services->item(i)->data(Qt::UserRole).toString().toStdString());
    }
    return window;
}

void TraceStoreDialog::testConnection()
{
    lx::source::ClickHouseEndpoint endpoint;
    if (!readEndpoint(&endpoint))
        return;
    connectionEdited();
    startBusy(tr("Connecting to %1…").arg(QString::fromStdString(endpoint.displayUrl())));
    m_checkJob.start(
        [endpoint, options = requestOptions()](const std::atomic<bool> &cancel) {
            return lx::source::checkConnection(endpoint, cancelledWith(options, cancel));
        },
        [this, endpoint](const lx::source::ConnectionCheck &check) {
            if (!check.ok()) {
                showStatus(QString::fromStdString(check.error), true);
                endBusy();
                return;
            }
            m_connected = true;
            m_endpoint = endpoint;
            showStatus(tr("Connected: ClickHouse %1, table %2.%3")
                           .arg(QString::fromStdString(check.serverVersion), QString::fromStdString(endpoint.database),
                                QString::fromStdString(endpoint.table)),
                       false);
            updateButtons();
            refreshServices();
        });
}

void TraceStoreDialog::refreshServices()
{
    // Each way out either starts a question or says the dialog is idle (settled()).
    const lx::source::SpanWindow range = window();
    if (!m_connected || range.toNs <= range.fromNs) {
        if (m_connected) {
            m_services->clear();
            m_selected.reset();
            m_count->setText(tr("The range is empty: its end is not after its start."));
        }
        endBusy();
        return;
    }
    // What is checked now stays checked in the new list (before the first list: the remembered services).
    if (m_services->count() > 0) {
        m_wanted.clear();
        for (const std::string &service : range.services)
            m_wanted << QString::fromStdString(service);
    }
    startBusy(tr("Listing the services with spans in the range…"));
    m_servicesJob.start(
        [endpoint = m_endpoint, range, options = requestOptions()](const std::atomic<bool> &cancel) {
            return lx::source::listServices(endpoint, range, cancelledWith(options, cancel));
        },
        [this](const lx::source::ServiceList &list) { showServices(list); });
}

void TraceStoreDialog::showServices(const lx::source::ServiceList &list)
{
    const QSignalBlocker quiet(m_services);
    m_services->clear();
    m_selected.reset();
    if (!list.ok()) {
        showStatus(QString::fromStdString(list.error), true);
        endBusy();
        return;
    }
    for (const lx::source::ServiceSpans &service : list.services) {
        const QString name = QString::fromStdString(service.service);
        auto *item = new QListWidgetItem(tr("%1 — %L2 spans").arg(name.isEmpty() ? tr("(no service name)") : name).arg(service.spans),
                                         m_services);
        item->setData(Qt::UserRole, name);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(m_wanted.contains(name) ? Qt::Checked : Qt::Unchecked);
    }
    if (list.services.empty())
        m_count->setText(tr("No span starts in this range."));
    recount();
}

void TraceStoreDialog::recount()
{
    m_warning->hide();
    m_selected.reset();
    const lx::source::SpanWindow selection = window();
    if (selection.services.empty()) {
        m_countJob.cancel();
        if (m_services->count() > 0)
            m_count->setText(tr("Check the services to pull."));
        updateButtons();
        endBusy();
        return;
    }
    m_count->setText(tr("Counting the spans a pull would read…"));
    startBusy(tr("Counting the spans of the services checked…"));
    m_countJob.start(
        [endpoint = m_endpoint, selection, options = requestOptions()](const std::atomic<bool> &cancel) {
            return lx::source::countSpans(endpoint, selection, cancelledWith(options, cancel));
        },
        [this](const lx::source::SpanCount &count) { showCount(count); });
}

void TraceStoreDialog::showCount(const lx::source::SpanCount &count)
{
    m_selected = count;
    if (!count.ok()) {
        m_count->setText(QString::fromStdString(count.error));
    } else {
        m_count->setText(tr("A pull reads %L1 spans of %L2 traces: every span of the traces that have a span of the "
                            "services checked starting in the range.").arg(count.spans).arg(count.traces));
        const std::uint64_t threshold = spanWarningThreshold();
        m_warning->setText(tr("That is more than %L1 spans (the setting %2): the pull may take long and the store grow large. "
                              "Narrow the range or the services, or pull anyway.").arg(threshold).arg(QLatin1String(kSpanWarningThresholdKey)));
        m_warning->setVisible(count.spans > threshold);
    }
    endBusy();
}

void TraceStoreDialog::startBusy(const QString &what)
{
    m_busyText->setText(what);
    m_busyRow->show();
    updateButtons();
}

void TraceStoreDialog::endBusy()
{
    if (busy())
        return;
    m_busyRow->hide();
    updateButtons();
    emit settled();
}

bool TraceStoreDialog::busy() const { return m_checkJob.running() || m_servicesJob.running() || m_countJob.running(); }

void TraceStoreDialog::cancelQuestions()
{
    m_rangeTimer->stop();
    m_recountTimer->stop();
    if (!busy())
        return;
    m_checkJob.cancel();
    m_servicesJob.cancel();
    m_countJob.cancel();
    if (!m_selected)
        m_count->clear(); // "Counting…" no more
    showStatus(tr("Stopped."), false);
    endBusy();
}
