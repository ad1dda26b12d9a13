// SPDX-License-Identifier: GPL-3.0-or-later
#include "load_tab.h"

#include "filter_bar.h"
#include "findings_view.h"
#include "investigation.h"
#include "load_view.h"
#include "store/request_scan.h"
#include "slo_panel.h"
#include "whatif_panel.h"

#include <algorithm>

#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSplitter>
#include <QVBoxLayout>

namespace {

const QString kTargetsKey = QStringLiteral("slo/targets");

/// What a first run shows: the examples of a chat service's targets, until the user sets theirs.
QStringList defaultTargets() { return {QStringLiteral("e2e.p95<=2s"), QStringLiteral("ttft.p99<=500ms")}; }

QWidget *titled(const QString &title, QWidget *content, QWidget *parent)
{
    auto *box = new QWidget(parent);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(4, 4, 4, 0);
    auto *label = new QLabel(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()), box);
    layout->addWidget(label);
    layout->addWidget(content, 1);
    return box;
}

} // namespace

LoadTab::LoadTab(Investigation *investigation, FilterBar *filterBar, QWidget *parent)
    : QWidget(parent)
    , m_investigation(investigation)
    , m_filterBar(filterBar)
    , m_load(new LoadView(this))
    , m_slos(new SloPanel(this))
    , m_findings(new FindingsView(this))
    , m_whatIf(new WhatIfPanel(this))
    , m_job(this, {}, [this](std::shared_ptr<const LoadTabData> data) {
        m_data = std::move(data);
        m_load->setData(m_data ? std::make_shared<const lx::LoadChartData>(m_data->chart) : nullptr);
        m_slos->setResults(m_data ? m_data->slos : std::vector<lx::SloResult>{});
        m_findings->setFindings(m_data ? m_data->findings : std::vector<lx::Finding> {},
                                !m_data || m_data->latencyMeasured);
        emit settledChanged();
    })
{
    auto *side = new QSplitter(Qt::Vertical, this);
    side->addWidget(titled(tr("Service level objectives"), m_slos, side));
    side->addWidget(titled(tr("Findings, by the share of the tail they explain"), m_findings, side));
    side->addWidget(titled(tr("What if"), m_whatIf, side));
    side->setStretchFactor(0, 1);
    side->setStretchFactor(1, 1);
    side->setStretchFactor(2, 0); // the panel at its size; the SLOs and findings share the rest
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_load);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    // From the start, not only of the space beyond the size hints: at 1400x900, beside the request
    // detail, the hints left the SLO and findings panels about 300 pixels, and their Margin was cut.
    split->setSizes({560, 440});
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    QSettings settings;
    m_slos->setTargets(settings.contains(kTargetsKey) ? settings.value(kTargetsKey).toStringList() : defaultTargets());
    m_whatIf->setSloTargets(m_slos->targets());
    connect(m_slos, &SloPanel::targetsChanged, this, [this](const QStringList &targets) {
        QSettings().setValue(kTargetsKey, targets);
        m_whatIf->setSloTargets(targets);
        invalidate();
        loadIfStale();
    });
    connect(m_load, &LoadView::windowWidthChanged, this, [this] {
        invalidate();
        loadIfStale();
    });
    connect(m_whatIf, &WhatIfPanel::predictionChanged, m_load, &LoadView::setPrediction);
    // A prediction belongs to the investigation and the filter it was drawn over.
    for (const auto signal : {&Investigation::storeChanged, &Investigation::filterChanged})
        connect(m_investigation, signal, this, [this] {
            m_whatIf->cancel();
            m_whatIf->clearResult();
        });
    connect(m_findings, &FindingsView::filterRequested, this, [this](const QString &expression, const QString &description) {
        m_filterBar->narrow(expression);
        emit filterNarrowed(description);
    });
    updateCompute();
}

void LoadTab::updateCompute()
{
    std::vector<lx::SloTarget> targets;
    for (const QString &text : m_slos->targets()) {
        std::string why;
        if (auto target = lx::parseSlo(text.toStdString(), &why))
            targets.push_back(std::move(*target));
    }
    const qint64 windowNs = m_load->windowWidth();
    m_job.setCompute([targets, windowNs](const lx::Store &store, const lx::RequestFilter &filter, const std::atomic<bool> &cancel)
                         -> std::shared_ptr<const LoadTabData> {
        // Requests held for the summary (Investigation::viewSource()) cannot decide a target's condition
        // on a model or an attribute: the tab then waits for the store.
        for (const lx::SloTarget &target : targets) {
            if (target.condition && !lx::scansDecide(store, lx::allOf({lx::toSqlCondition(filter), *target.condition})))
                return nullptr;
        }
        auto data = std::make_shared<LoadTabData>();
        const lx::LoadRows loaded = lx::readLoadRows(store, filter);
        if (cancel)
            return nullptr;
        data->chart = lx::computeLoadChartData(loaded.rows, loaded.tokens, windowNs);
        data->findings = lx::findFindings(loaded.rows, &data->chart.byArrivalRate);
        data->latencyMeasured = std::any_of(loaded.rows.begin(), loaded.rows.end(),
                                            [](const lx::LatencyRow &row) { return lx::isMeasured(row.e2e); });
        if (cancel)
            return nullptr;
        data->slos = lx::evaluateSlos(store, filter, targets);
        return data;
    });
}

void LoadTab::invalidate()
{
    updateCompute();
    const bool readable = m_investigation->hasStore() && !m_investigation->importing();
    const ViewSource source = m_investigation->viewSource(m_investigation->filter());
    m_job.invalidate(source, m_investigation->filter());
    // "What if" fits its model on the written store alone: it is asked for, and waits.
    m_whatIf->setStoreFile(readable ? m_investigation->store()->fileName() : std::string());
    m_whatIf->setWindowWidth(m_load->windowWidth());
    m_whatIf->setFilter(m_investigation->filter(), m_filterBar->statement());
    if (source.empty()) {
        m_data.reset();
        m_load->setData(nullptr);
        m_slos->setResults({});
        m_findings->setFindings({});
    }
}
