// SPDX-License-Identifier: GPL-3.0-or-later
#include "whatif_panel.h"

#include "model/duration_format.h"
#include "store/store.h"
#include "whatif/whatif_text.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace {

/// The replicas the panel offers: a what-if about capacity, not a fleet plan (the CLI takes up to 10,000).
constexpr int kPanelMaxReplicas = 64;
/// The arrivals factors offered, as the issue asks: from half the load to three times it.
constexpr double kPanelMinArrivals = 0.5, kPanelMaxArrivals = 3;

/// The index of a percentile in a report's list, -1 when it was not computed.
int percentileIndex(const lx::Report &report, double p)
{
    for (std::size_t i = 0; i < report.percentiles.size(); ++i)
        if (std::abs(report.percentiles[i] - p) < 1e-9)
            return static_cast<int>(i);
    return -1;
}

QString percentileText(const lx::Report &report, const lx::MetricSummary &metric, double p)
{
    const int i = percentileIndex(report, p);
    if (i < 0 || i >= static_cast<int>(metric.stat.percentilesNs.size()) || !metric.stat.percentilesNs[static_cast<std::size_t>(i)])
        return QStringLiteral("–");
    return QString::fromStdString(lx::formatDuration(*metric.stat.percentilesNs[static_cast<std::size_t>(i)]));
}

const lx::MetricSummary &metricOf(const lx::Report &report, int row)
{
    switch (row) {
    case WhatIfPanel::TtftRow: return report.ttft;
    case WhatIfPanel::QueueRow: return report.segments[static_cast<std::size_t>(lx::Segment::Queue)];
    case WhatIfPanel::DecodeRow: return report.segments[static_cast<std::size_t>(lx::Segment::Decode)];
    default: return report.e2e;
    }
}

} // namespace

WhatIfPanel::WhatIfPanel(QWidget *parent)
    : QWidget(parent)
    , m_replicas(new QSpinBox(this))
    , m_router(new QComboBox(this))
    , m_arrivals(new QDoubleSpinBox(this))
    , m_limit(new QSpinBox(this))
    , m_inputCap(new QSpinBox(this))
    , m_postprocess(new QDoubleSpinBox(this))
    , m_onlyFiltered(new QCheckBox(tr("Only the filtered re&quests"), this))
    , m_run(new QPushButton(tr("R&un"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_progress(new QProgressBar(this))
    , m_message(new QLabel(this))
    , m_table(new QTableWidget(RowCount, ColumnCount, this))
    , m_progressPoll(new QTimer(this))
{
    m_replicas->setRange(1, kPanelMaxReplicas);
    m_replicas->setToolTip(tr("Replicas of the server, each with the concurrency limit"));
    m_router->addItem(tr("round robin"), static_cast<int>(lx::whatif::Router::RoundRobin));
    m_router->addItem(tr("least loaded"), static_cast<int>(lx::whatif::Router::LeastLoaded));
    m_router->setToolTip(tr("How requests are spread over the replicas"));
    m_arrivals->setRange(kPanelMinArrivals, kPanelMaxArrivals);
    m_arrivals->setSingleStep(0.25);
    m_arrivals->setDecimals(2);
    m_arrivals->setValue(1);
    m_arrivals->setPrefix(QStringLiteral("×"));
    m_arrivals->setToolTip(tr("The observed arrivals times this factor: thinned below 1, duplicated above"));
    m_limit->setRange(0, 1'000'000);
    m_limit->setSpecialValueText(tr("as fitted"));
    m_limit->setToolTip(tr("Requests in service at once per replica; \"as fitted\" keeps the limit fitted from the trace"));
    m_inputCap->setRange(0, 100'000'000);
    m_inputCap->setSpecialValueText(tr("none"));
    m_inputCap->setSuffix(tr(" tokens"));
    m_inputCap->setToolTip(tr("Prompts cut to at most this many tokens; \"none\" leaves them as they were"));
    m_postprocess->setRange(0.1, 1000);
    m_postprocess->setDecimals(1);
    m_postprocess->setValue(1);
    m_postprocess->setPrefix(QStringLiteral("×"));
    m_postprocess->setToolTip(tr("Postprocess this many times as fast"));
    for (QAbstractSpinBox *box : std::initializer_list<QAbstractSpinBox *>{m_replicas, m_arrivals, m_limit, m_inputCap, m_postprocess})
        box->setAccelerated(true);

    // Mnemonics the Load tab's other parts and the menus leave free (Alt+A, R, S, F, W are taken there).
    auto *form = new QFormLayout;
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::FieldsStayAtSizeHint);
    auto *replicasRow = new QHBoxLayout;
    replicasRow->addWidget(m_replicas);
    replicasRow->addWidget(m_router);
    replicasRow->addStretch(1);
    // A row holding a layout gets no buddy from addRow(), and its label would show the '&': name it here.
    auto *replicasLabel = new QLabel(tr("Re&plicas"), this);
    replicasLabel->setBuddy(m_replicas);
    form->addRow(replicasLabel, replicasRow);
    form->addRow(tr("Arr&ivals"), m_arrivals);
    form->addRow(tr("Concurrency &limit"), m_limit);
    form->addRow(tr("Input-&token cap"), m_inputCap);
    form->addRow(tr("Postprocess spee&dup"), m_postprocess);
    m_onlyFiltered->setEnabled(false);
    m_onlyFiltered->setToolTip(tr("Fit the model to the requests the filter keeps and replay only their arrivals, e.g. one "
                                  "model served by its own replicas. Off, the whole investigation: the requests the filter "
                                  "hides held the server's slots too."));
    form->addRow(m_onlyFiltered);

    m_cancel->setEnabled(false);
    m_cancel->setToolTip(tr("Stop the run (Esc)"));
    m_run->setToolTip(tr("Fit the server model to the investigation and replay its arrivals with these changes (Enter)"));
    m_progress->setVisible(false);
    m_progress->setTextVisible(false);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_progress, 1);

    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Headers on two lines: the side of the Load tab beside the request detail is some 420 pixels wide.
    m_table->setHorizontalHeaderLabels({tr("Metric"), tr("p50\nobserved"), tr("p50\npredicted"), tr("p99\nobserved"), tr("p99\npredicted")});
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setFocusPolicy(Qt::NoFocus);
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    const QStringList metrics = {tr("e2e"), tr("TTFT"), tr("queue"), tr("decode")};
    for (int row = 0; row < RowCount; ++row)
        m_table->setItem(row, MetricColumn, new QTableWidgetItem(metrics[row]));
    m_table->resizeRowsToContents();
    // As tall as its four rows: the panel sits under the SLOs and findings and should not scroll.
    m_table->setFixedHeight(m_table->horizontalHeader()->sizeHint().height() + m_table->rowHeight(0) * RowCount + 2 * m_table->frameWidth());

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 4);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_message);
    layout->addWidget(m_table);
    layout->addStretch(1);
    // The filter narrows the views, not the model, unless asked: a fit needs the whole server's load.
    setMessage(tr("Set the changes and run: a server model is fitted from the whole investigation (or the filtered "
                  "requests, when ticked) and its arrivals replayed through it with the changes. The predicted load is "
                  "drawn dashed."));
    m_table->setVisible(false);

    connect(m_run, &QPushButton::clicked, this, &WhatIfPanel::run);
    connect(m_cancel, &QPushButton::clicked, this, &WhatIfPanel::cancel);
    m_progressPoll->setInterval(100);
    connect(m_progressPoll, &QTimer::timeout, this, [this] {
        if (!m_runProgress)
            return;
        const std::int64_t total = m_runProgress->total.load();
        // Fitting comes before the replay's first request: a busy bar until then.
        m_progress->setRange(0, total > 0 ? 1000 : 0);
        if (total > 0)
            m_progress->setValue(static_cast<int>(1000 * m_runProgress->done.load() / total));
    });
    setStoreFile({});
}

void WhatIfPanel::setStoreFile(const std::string &file)
{
    if (file != m_storeFile) {
        cancel();
        clearResult();
    }
    m_storeFile = file;
    m_run->setEnabled(!file.empty());
}

void WhatIfPanel::setFilter(const lx::RequestFilter &filter, const QString &text)
{
    m_filter = filter;
    m_filterText = text;
    m_onlyFiltered->setEnabled(!text.isEmpty());
}

void WhatIfPanel::setSloTargets(const QStringList &texts)
{
    m_sloTargets.clear();
    for (const QString &text : texts) {
        std::string why;
        if (auto target = lx::parseSlo(text.toStdString(), &why))
            m_sloTargets.push_back(std::move(*target));
    }
}

lx::whatif::ReplayChanges WhatIfPanel::changes() const
{
    lx::whatif::ReplayChanges c;
    c.replicas = m_replicas->value();
    c.router = static_cast<lx::whatif::Router>(m_router->currentData().toInt());
    c.arrivalFactor = m_arrivals->value();
    c.concurrencyLimit = m_limit->value();
    c.inputTokenCap = m_inputCap->value();
    c.postprocessSpeedup = m_postprocess->value();
    return c;
}

void WhatIfPanel::run()
{
    if (m_storeFile.empty())
        return;
    for (QAbstractSpinBox *box : std::initializer_list<QAbstractSpinBox *>{m_replicas, m_arrivals, m_limit, m_inputCap, m_postprocess})
        box->interpretText(); // a value typed but not yet taken (Enter pressed in the box)
    clearResult();
    lx::whatif::WhatIfRequest request;
    request.changes = changes();
    request.slos = m_sloTargets;
    if (m_onlyFiltered->isEnabled() && m_onlyFiltered->isChecked()) {
        request.filter = m_filter;
        request.filterText = m_filterText.toStdString();
    }
    request.observedName = QFileInfo(QString::fromStdString(m_storeFile)).fileName().toStdString();
    const qint64 windowNs = m_windowNs;
    m_runProgress = std::make_shared<Progress>();
    auto progress = m_runProgress;
    const auto compute = [request, windowNs, progress](lx::Store &observed, const std::atomic<bool> &cancel) {
        auto result = std::make_shared<WhatIfPanelResult>();
        std::string why;
        std::shared_ptr<lx::Store> simulated = lx::Store::openTemporary(&why);
        if (!simulated) {
            result->error = why;
            return result;
        }
        result->outcome = lx::whatif::runWhatIf(observed, *simulated, request, &cancel, [progress](std::int64_t done, std::int64_t total) {
            progress->total = total;
            progress->done = done;
            return true;
        });
        if (result->outcome.observed && result->outcome.predicted && !cancel) {
            result->summary = lx::whatif::summarySentence(request.changes, *result->outcome.observed, *result->outcome.predicted);
            result->fittedToTheFilter = !request.filterText.empty();
            // The overlay's data, as the load view's own: both keys and the load over time, from a scan of
            // the simulated store (the outcome's Side holds the arrival rate's analysis only).
            const lx::LoadRows rows = lx::readLoadRows(*simulated, {});
            result->predictedLoad = std::make_shared<const lx::LoadChartData>(lx::computeLoadChartData(rows.rows, rows.tokens, windowNs));
        }
        result->simulated = std::move(simulated);
        return result;
    };
    const auto fail = [](const std::string &why) {
        auto result = std::make_shared<WhatIfPanelResult>();
        result->error = why;
        return result;
    };
    m_job.start(onOwnStore(m_storeFile, compute, fail), [this](std::shared_ptr<WhatIfPanelResult> result) {
        setRunning(false);
        showResult(std::move(result));
        emit finished();
    });
    setRunning(true);
    setMessage(tr("Fitting the model and replaying the arrivals…"));
}

void WhatIfPanel::cancel()
{
    if (!m_job.running())
        return;
    m_job.cancel();
    setRunning(false);
    setMessage(tr("Cancelled: no prediction."));
    emit finished();
}

void WhatIfPanel::clearResult()
{
    const bool had = m_result && m_result->predictedLoad;
    m_result.reset(); // the temporary store with it
    m_table->setVisible(false);
    if (had)
        emit predictionChanged(nullptr);
}

QString WhatIfPanel::message() const { return m_message->text(); }

void WhatIfPanel::setRunning(bool running)
{
    const QWidget *focus = QApplication::focusWidget();
    const bool focusHere = focus == nullptr || focus == this || isAncestorOf(focus);
    m_run->setEnabled(!running && !m_storeFile.empty());
    m_cancel->setEnabled(running);
    m_progress->setVisible(running);
    m_progress->setRange(0, 0);
    if (running) {
        m_progressPoll->start();
        if (focusHere)
            m_cancel->setFocus(); // Esc and Space stop it from here; the Run button lost its focus
    } else {
        m_progressPoll->stop();
        m_runProgress.reset();
        if (m_cancel->hasFocus())
            m_run->setFocus();
    }
}

void WhatIfPanel::setMessage(const QString &text)
{
    m_message->setText(text);
}

void WhatIfPanel::showResult(std::shared_ptr<WhatIfPanelResult> result)
{
    const lx::whatif::WhatIfOutcome &outcome = result->outcome;
    if (!result->error.empty()) {
        setMessage(tr("Cannot run: %1").arg(QString::fromStdString(result->error)));
        return;
    }
    if (!outcome.refused.empty()) {
        setMessage(tr("No prediction: %1.").arg(QString::fromStdString(outcome.refused)));
        return;
    }
    if (outcome.cancelled || !outcome.observed || !outcome.predicted) {
        setMessage(tr("Cancelled: no prediction."));
        return;
    }
    m_result = std::move(result);
    QString text = QString::fromStdString(m_result->summary);
    if (!text.isEmpty())
        text = text.left(1).toUpper() + text.mid(1) + QLatin1Char('.');
    // As the CLI notes it: without a limit reached in the trace, the replay has none, and overload is hidden.
    if (!outcome.fit.limitReached && changes().concurrencyLimit == 0)
        text += QLatin1Char(' ') + tr("The trace never reached a concurrency limit, so the replay sets none: a prediction past "
                                      "the observed load is optimistic (set a concurrency limit).");
    // As the CLI cautions it: the requests the filter hides held the server's slots too.
    if (m_result->fittedToTheFilter)
        text += QLatin1Char(' ')
            + tr("Fitted to the filtered requests alone: the requests the filter hides held the server's "
                 "slots too, so this holds only if these had a server of their own (untick \"Only the "
                 "filtered requests\" to fit the whole investigation).");
    for (const std::string &line : lx::whatif::sloVerdictLines(*outcome.observed, *outcome.predicted))
        text += QLatin1Char('\n') + QString::fromStdString(line);
    setMessage(text);
    fillTable(*outcome.observed, *outcome.predicted);
    m_table->setVisible(true);
    emit predictionChanged(m_result->predictedLoad);
}

void WhatIfPanel::fillTable(const lx::whatif::Side &observed, const lx::whatif::Side &predicted)
{
    for (int row = 0; row < RowCount; ++row) {
        const auto set = [&](int column, const lx::Report &report, double p) {
            auto *item = new QTableWidgetItem(percentileText(report, metricOf(report, row), p));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (column == PredictedP50Column || column == PredictedP99Column) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
            }
            m_table->setItem(row, column, item);
        };
        set(ObservedP50Column, observed.report, 50);
        set(PredictedP50Column, predicted.report, 50);
        set(ObservedP99Column, observed.report, 99);
        set(PredictedP99Column, predicted.report, 99);
    }
}

void WhatIfPanel::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (m_run->isEnabled()) {
            run();
            return;
        }
        break;
    case Qt::Key_Escape:
        if (running()) {
            cancel();
            return;
        }
        break;
    default: break;
    }
    QWidget::keyPressEvent(event);
}
