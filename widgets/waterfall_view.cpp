// SPDX-License-Identifier: GPL-3.0-or-later
#include "waterfall_view.h"

#include "count_text.h"
#include "segment_text.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

namespace {

QString sortLabel(const lx::WaterfallSort &sort)
{
    using Key = lx::WaterfallSort::Key;
    if (sort.key == Key::Start)
        return WaterfallView::tr("Start");
    if (sort.key == Key::E2e)
        return WaterfallView::tr("E2E, longest first");
    return WaterfallView::tr("%1, longest first").arg(segmentTitleText(sort.segment));
}

} // namespace

std::vector<lx::WaterfallSort> WaterfallView::sortChoices()
{
    std::vector<lx::WaterfallSort> choices(2);
    choices[1].key = lx::WaterfallSort::Key::E2e;
    choices[1].descending = true;
    for (int s = 0; s < lx::kSegmentCount; ++s) {
        lx::WaterfallSort sort;
        sort.key = lx::WaterfallSort::Key::Segment;
        sort.segment = lx::Segment(s);
        sort.descending = true;
        choices.push_back(sort);
    }
    return choices;
}

WaterfallView::WaterfallView(QWidget *parent)
    : QWidget(parent)
    , m_chart(new WaterfallChart(this))
    , m_sort(new QComboBox(this))
    , m_lanes(new QToolButton(this))
    , m_fit(new QToolButton(this))
    , m_summary(new QLabel(this))
{
    for (const lx::WaterfallSort &sort : sortChoices())
        m_sort->addItem(sortLabel(sort));
    m_sort->setToolTip(tr("The order of the rows; requests without that segment measured come last"));
    m_lanes->setText(tr("Lanes"));
    m_lanes->setCheckable(true);
    m_lanes->setToolTip(tr("Pack concurrent requests into lanes that never overlap: concurrency and queue pile-ups over time (L)"));
    m_fit->setText(tr("Fit"));
    m_fit->setToolTip(tr("Show every request (Home)"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette muted = m_summary->palette();
    muted.setColor(QPalette::WindowText, muted.color(QPalette::PlaceholderText));
    m_summary->setPalette(muted);

    auto *toolbar = new QHBoxLayout;
    toolbar->addWidget(new QLabel(tr("Sort:"), this));
    toolbar->addWidget(m_sort);
    toolbar->addWidget(m_lanes);
    toolbar->addWidget(m_fit);
    toolbar->addSpacing(12);
    toolbar->addWidget(m_summary, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(toolbar);
    layout->addWidget(m_chart, 1);
    m_chart->setToolTip(QString()); // the chart's own tooltips name the request under the mouse

    connect(m_sort, &QComboBox::currentIndexChanged, this, [this](int index) {
        const auto choices = sortChoices();
        if (index >= 0 && static_cast<std::size_t>(index) < choices.size())
            m_chart->setSort(choices[static_cast<std::size_t>(index)]);
    });
    connect(m_lanes, &QToolButton::toggled, this, [this](bool on) {
        m_chart->setLanes(on);
        m_sort->setEnabled(!on);
        updateSummary();
    });
    connect(m_chart, &WaterfallChart::lanesToggled, m_lanes, &QToolButton::setChecked);
    connect(m_fit, &QToolButton::clicked, m_chart, &WaterfallChart::fit);
    connect(m_chart, &WaterfallChart::requestClicked, this, &WaterfallView::requestSelected);
    connect(m_chart, &WaterfallChart::timeRangeSelected, this, &WaterfallView::timeRangeSelected);
    updateSummary();
}

void WaterfallView::setData(std::shared_ptr<const lx::WaterfallData> data)
{
    m_chart->setData(std::move(data));
    updateSummary();
}

void WaterfallView::setSelectedRequest(qint64 rowId) { m_chart->setSelectedRequest(rowId); }

void WaterfallView::updateSummary()
{
    const auto &data = m_chart->data();
    if (!data || data->empty()) {
        m_summary->clear();
        return;
    }
    const QLocale locale;
    QString text = requestsText(static_cast<std::int64_t>(data->size()));
    if (m_chart->lanes())
        text += tr(" in %1 lanes").arg(locale.toString(static_cast<qint64>(data->laneCount)));
    m_summary->setText(text + tr("  ·  wheel: zoom, drag: pan, Shift+drag: select a time range"));
}
