// SPDX-License-Identifier: GPL-3.0-or-later
// The form of File ▸ Open from Trace Store; its questions to the server are in trace_store_dialog_questions.cpp.
#include "trace_store_dialog.h"

#include "ingest/span_mapping.h"
#include "span_mapping_menu.h"
#include "trace_store_password.h"
#include "trace_store_settings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace {

QDateTimeEdit *utcEdit(QWidget *parent)
{
    auto *edit = new QDateTimeEdit(parent);
    edit->setTimeSpec(Qt::UTC);
    edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    edit->setCalendarPopup(true);
    return edit;
}

} // namespace

TraceStoreDialog::TraceStoreDialog(const QString &mapping, QWidget *parent)
    : QDialog(parent)
    , m_rangeTimer(new QTimer(this))
    , m_recountTimer(new QTimer(this))
{
    setWindowTitle(tr("Open from Trace Store"));
    setObjectName(QStringLiteral("TraceStoreDialog"));
    // A range edited key by key, or services checked one after another, ask the server once.
    m_rangeTimer->setSingleShot(true);
    m_rangeTimer->setInterval(500);
    connect(m_rangeTimer, &QTimer::timeout, this, &TraceStoreDialog::refreshServices);
    m_recountTimer->setSingleShot(true);
    m_recountTimer->setInterval(300);
    connect(m_recountTimer, &QTimer::timeout, this, &TraceStoreDialog::recount);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(buildServerBox());
    layout->addWidget(buildSelectionBox(mapping), 1);
    layout->addWidget(buildBusyRow());
    auto *buttons = new QDialogButtonBox(this);
    m_pullButton = buttons->addButton(tr("&Pull"), QDialogButtonBox::AcceptRole);
    m_pullButton->setObjectName(QStringLiteral("pull"));
    buttons->addButton(QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &TraceStoreDialog::acceptPull);
    connect(buttons, &QDialogButtonBox::rejected, this, &TraceStoreDialog::reject);
    layout->addWidget(buttons);

    fillRemembered();
    lastThirtyMinutes();
    updateButtons();
    resize(640, 680);
}

TraceStoreDialog::~TraceStoreDialog() = default;

QWidget *TraceStoreDialog::buildServerBox()
{
    auto *box = new QGroupBox(tr("Server"), this);
    auto *form = new QFormLayout(box);
    m_url = new QComboBox(box);
    m_url->setObjectName(QStringLiteral("url"));
    m_url->setEditable(true);
    m_url->setInsertPolicy(QComboBox::NoInsert);
    m_url->lineEdit()->setPlaceholderText(QStringLiteral("clickhouse://HOST:8123/DATABASE?table=otel_traces"));
    m_url->setToolTip(tr("clickhouse://HOST[:PORT]/DATABASE[?table=T] (HTTP, port 8123), or http:// and https:// "
                         "(port 8443). No password in the URL."));
    form->addRow(tr("&URL:"), m_url);
    m_user = new QLineEdit(box);
    m_user->setObjectName(QStringLiteral("user"));
    m_user->setPlaceholderText(QStringLiteral("default"));
    form->addRow(tr("U&ser:"), m_user);
    m_password = new QLineEdit(box);
    m_password->setObjectName(QStringLiteral("password"));
    m_password->setEchoMode(QLineEdit::Password);
    if (environmentPasswordSet())
        m_password->setPlaceholderText(tr("from LX_CLICKHOUSE_PASSWORD"));
    m_keychain = new QCheckBox(tr("&Remember in the system keychain"), box);
    m_keychain->setObjectName(QStringLiteral("keychain"));
    m_keychain->setVisible(keychainAvailable());
    auto *passwordRow = new QHBoxLayout;
    passwordRow->addWidget(m_password, 1);
    passwordRow->addWidget(m_keychain);
    // A row of a layout gets no buddy from addRow(): the label is made here, so that Alt+W reaches the field.
    auto *passwordLabel = new QLabel(tr("Pass&word:"), box);
    passwordLabel->setBuddy(m_password);
    form->addRow(passwordLabel, passwordRow);
    m_test = new QPushButton(tr("&Test Connection"), box);
    m_test->setObjectName(QStringLiteral("test"));
    m_status = new QLabel(box);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *testRow = new QHBoxLayout;
    testRow->addWidget(m_test);
    testRow->addStretch(1);
    form->addRow(testRow);
    // A row of its own, the form's width: ClickHouse's messages are long, and a label wrapped beside a
    // button is not given the height its lines need.
    form->addRow(m_status);

    connect(m_url, &QComboBox::activated, this, &TraceStoreDialog::applyRemembered);
    connect(m_url, &QComboBox::editTextChanged, this, &TraceStoreDialog::connectionEdited);
    connect(m_user, &QLineEdit::textEdited, this, &TraceStoreDialog::connectionEdited);
    connect(m_password, &QLineEdit::textEdited, this, &TraceStoreDialog::connectionEdited);
    connect(m_test, &QPushButton::clicked, this, &TraceStoreDialog::testConnection);
    return box;
}

QWidget *TraceStoreDialog::buildSelectionBox(const QString &mapping)
{
    auto *box = new QGroupBox(tr("What to pull"), this);
    auto *form = new QFormLayout(box);
    m_from = utcEdit(box);
    m_from->setObjectName(QStringLiteral("from"));
    m_to = utcEdit(box);
    m_to->setObjectName(QStringLiteral("to"));
    auto *last = new QPushButton(tr("&Last 30 Minutes"), box);
    last->setAutoDefault(false);
    auto *range = new QHBoxLayout;
    range->addWidget(m_from);
    range->addWidget(new QLabel(QStringLiteral("…"), box));
    range->addWidget(m_to);
    range->addWidget(new QLabel(tr("UTC"), box));
    range->addStretch(1);
    range->addWidget(last);
    form->addRow(tr("Spans starting:"), range);
    m_services = new QListWidget(box);
    m_services->setObjectName(QStringLiteral("services"));
    m_services->setToolTip(tr("The services with spans starting in the range, and how many. A pull takes every trace "
                              "that has a span of a service checked, with all its spans."));
    form->addRow(tr("Ser&vices:"), m_services);
    m_count = new QLabel(box);
    m_count->setObjectName(QStringLiteral("count"));
    m_count->setWordWrap(true);
    form->addRow(m_count);
    m_warning = new QLabel(box);
    m_warning->setObjectName(QStringLiteral("warning"));
    m_warning->setWordWrap(true);
    m_warning->setStyleSheet(QStringLiteral("QLabel { color: #b35900; font-weight: bold; }"));
    m_warning->hide();
    form->addRow(m_warning);
    m_mapping = new QComboBox(box);
    m_mapping->setObjectName(QStringLiteral("mapping"));
    m_mapping->addItem(tr("Automatic (vLLM, then SGLang, then TGI)"), QString());
    for (std::string_view name : lx::spanMappingPresetNames()) {
        const QString preset = QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
        m_mapping->addItem(SpanMappingMenu::presetTitle(preset).remove(QLatin1Char('&')), preset);
    }
    if (!mapping.isEmpty() && m_mapping->findData(mapping) < 0)
        m_mapping->addItem(tr("Mapping file: %1").arg(QFileInfo(mapping).fileName()), mapping);
    m_mapping->setCurrentIndex(std::max(0, m_mapping->findData(mapping)));
    form->addRow(tr("Span &mapping:"), m_mapping);

    connect(last, &QPushButton::clicked, this, &TraceStoreDialog::lastThirtyMinutes);
    for (QDateTimeEdit *edit : {m_from, m_to}) {
        connect(edit, &QDateTimeEdit::dateTimeChanged, this, [this] {
            // The count and its warning were the old range's: Pull waits for the new range's.
            m_selected.reset();
            m_warning->hide();
            updateButtons();
            if (m_connected)
                m_rangeTimer->start();
        });
    }
    connect(m_services, &QListWidget::itemChanged, this, [this] {
        m_selected.reset();
        updateButtons();
        m_recountTimer->start();
    });
    return box;
}

QWidget *TraceStoreDialog::buildBusyRow()
{
    m_busyRow = new QWidget(this);
    m_busyRow->setObjectName(QStringLiteral("busy"));
    auto *row = new QHBoxLayout(m_busyRow);
    row->setContentsMargins(0, 0, 0, 0);
    m_busyText = new QLabel(m_busyRow);
    m_busyBar = new QProgressBar(m_busyRow);
    m_busyBar->setRange(0, 0); // busy, no fraction: the server does not say how long a question takes
    m_busyBar->setMaximumWidth(160);
    auto *cancel = new QPushButton(tr("Stop"), m_busyRow);
    cancel->setAutoDefault(false);
    cancel->setToolTip(tr("Stop asking the server (Esc)"));
    row->addWidget(m_busyText, 1);
    row->addWidget(m_busyBar);
    row->addWidget(cancel);
    connect(cancel, &QPushButton::clicked, this, &TraceStoreDialog::cancelQuestions);
    // Kept in the layout while hidden, so that the dialog does not jump as questions come and go.
    QSizePolicy policy = m_busyRow->sizePolicy();
    policy.setRetainSizeWhenHidden(true);
    m_busyRow->setSizePolicy(policy);
    m_busyRow->hide();
    return m_busyRow;
}

void TraceStoreDialog::fillRemembered()
{
    for (const RememberedConnection &connection : rememberedConnections())
        m_url->addItem(connection.url);
    if (m_url->count() > 0)
        applyRemembered(0);
}

void TraceStoreDialog::applyRemembered(int index)
{
    const std::vector<RememberedConnection> connections = rememberedConnections();
    if (index < 0 || index >= int(connections.size()))
        return;
    const RememberedConnection &connection = connections[std::size_t(index)];
    m_url->setEditText(connection.url);
    m_user->setText(connection.user);
    m_wanted = connection.services;
    if (const int mapping = m_mapping->findData(connection.mapping); mapping >= 0)
        m_mapping->setCurrentIndex(mapping);
    m_keychain->setChecked(connection.passwordInKeychain && keychainAvailable());
    m_password->clear();
    connectionEdited();
    lx::source::ClickHouseEndpoint endpoint;
    std::string why;
    if (!m_keychain->isChecked() || !lx::source::parseClickHouseUrl(connection.url.toStdString(), endpoint, &why))
        return;
    const QString user = connection.user.isEmpty() ? QString::fromStdString(endpoint.user) : connection.user;
    const QString account = keychainAccount(user, QStringLiteral("%1:%2").arg(QString::fromStdString(endpoint.host)).arg(endpoint.port));
    // A keychain read can take seconds (an unlock prompt): the answer is dropped when another connection
    // was chosen meanwhile, so that one server's password never fills the field of another.
    const int read = ++m_keychainReads;
    readKeychainPassword(account, this, [this, read](const QString &password, const QString &error) {
        if (read != m_keychainReads)
            return;
        if (!error.isEmpty()) {
            showStatus(tr("The keychain gave no password: %1").arg(error), true);
            return;
        }
        if (m_password->text().isEmpty())
            m_password->setText(password);
    });
}

void TraceStoreDialog::setTimeRange(const QDateTime &from, const QDateTime &to)
{
    m_from->setDateTime(from.toUTC());
    m_to->setDateTime(to.toUTC());
}

void TraceStoreDialog::lastThirtyMinutes()
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    setTimeRange(now.addSecs(-30 * 60), now);
}

void TraceStoreDialog::connectionEdited()
{
    ++m_keychainReads; // a password read for the connection as it was is not this one's
    // What was asked of another server says nothing of this one.
    cancelQuestions();
    m_connected = false;
    m_selected.reset();
    m_services->clear();
    m_count->clear();
    m_warning->hide();
    showStatus(QString(), false);
    updateButtons();
}

void TraceStoreDialog::updateButtons()
{
    const bool canPull = m_connected && m_selected && m_selected->ok() && m_selected->spans > 0 && !busy();
    m_pullButton->setEnabled(canPull);
    // Enter tests a connection not yet tested, then pulls.
    m_test->setDefault(!m_connected);
    m_pullButton->setDefault(m_connected);
}

void TraceStoreDialog::showStatus(const QString &text, bool error)
{
    // ClickHouse's messages can run to a stack trace: the label shows their start, the tooltip all of it.
    constexpr int kShown = 400;
    m_status->setText(text.size() > kShown ? text.left(kShown) + QStringLiteral("…") : text);
    m_status->setToolTip(text.size() > kShown ? text : QString());
    m_status->setStyleSheet(error ? QStringLiteral("QLabel { color: #c0392b; }") : QString());
}

void TraceStoreDialog::acceptPull()
{
    if (!m_pullButton->isEnabled())
        return;
    m_pull = TraceStorePull{};
    m_pull.endpoint = m_endpoint;
    m_pull.window = window();
    m_pull.password = m_password->text().toStdString();
    m_pull.mapping = m_mapping->currentData().toString();
    m_pull.expectedSpans = m_selected->spans;

    RememberedConnection connection;
    connection.url = m_url->currentText().trimmed();
    connection.user = m_user->text().trimmed();
    for (const std::string &service : m_pull.window.services)
        connection.services << QString::fromStdString(service);
    connection.mapping = m_pull.mapping;
    connection.passwordInKeychain = m_keychain->isChecked() && !m_password->text().isEmpty();
    bool wasInKeychain = false;
    for (const RememberedConnection &old : rememberedConnections())
        wasInKeychain |= old.url == connection.url && old.user == connection.user && old.passwordInKeychain;
    rememberConnection(connection);
    if (keychainAvailable() && (connection.passwordInKeychain || wasInKeychain)) {
        // Kept, or forgotten when the box was unchecked; the write outlives the dialog.
        const QString account = keychainAccount(QString::fromStdString(m_endpoint.user),
                                                QStringLiteral("%1:%2").arg(QString::fromStdString(m_endpoint.host)).arg(m_endpoint.port));
        writeKeychainPassword(account, connection.passwordInKeychain ? m_password->text() : QString(), QCoreApplication::instance(),
                              [](const QString &error) {
                                  if (!error.isEmpty())
                                      qWarning("The keychain did not keep the password: %s", qPrintable(error));
                              });
    }
    accept();
}

void TraceStoreDialog::reject()
{
    if (busy()) {
        cancelQuestions();
        return;
    }
    QDialog::reject();
}
