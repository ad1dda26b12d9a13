// SPDX-License-Identifier: GPL-3.0-or-later
#include "dominant_view.h"

#include "count_text.h"
#include "plot_frame.h"

#include <QButtonGroup>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

DominantView::DominantView(QWidget *parent)
    : QWidget(parent)
    , m_chart(new DominantChart(this))
    , m_groupings(new QButtonGroup(this))
    , m_note(new QLabel(this))
{
    QHBoxLayout *bar = addToolbarAbove(*this, m_chart);
    bar->setSpacing(0);
    const struct {
        DominantChart::Grouping grouping;
        QString text;
        QString tip;
    } choices[] = {
        {DominantChart::Grouping::Overall, tr("&Overall"), tr("The share of all requests each segment dominates")},
        {DominantChart::Grouping::LatencyBand, tr("By &latency band"),
         tr("Shares among the fastest half (p0–50), p50–90, p90–99 and the slowest 1 % (p99+) by e2e")},
        {DominantChart::Grouping::TimeWindow, tr("Over &time"), tr("Shares per time window of request start")},
    };
    for (const auto &choice : choices) {
        auto *button = new QToolButton(this);
        button->setText(choice.text);
        button->setToolTip(choice.tip);
        button->setCheckable(true);
        button->setChecked(choice.grouping == m_chart->grouping());
        m_groupings->addButton(button, static_cast<int>(choice.grouping));
        bar->addWidget(button);
    }
    connect(m_groupings, &QButtonGroup::idClicked, this,
            [this](int id) { setGrouping(static_cast<DominantChart::Grouping>(id)); });
    m_note->setEnabled(false); // a hint, in the disabled colour
    bar->addSpacing(12);
    bar->addWidget(m_note);
    bar->addStretch(1);
    connect(m_chart, &DominantChart::filterRequested, this, &DominantView::filterRequested);
    updateNote();
}

void DominantView::setData(std::shared_ptr<const lx::DominantBreakdown> data)
{
    m_chart->setData(std::move(data));
    updateNote();
}

void DominantView::setGrouping(DominantChart::Grouping grouping)
{
    m_groupings->button(static_cast<int>(grouping))->setChecked(true);
    m_chart->setGrouping(grouping);
    updateNote();
}

void DominantView::updateNote()
{
    const lx::DominantBreakdown *data = m_chart->data();
    QString note = tr("Click a bar to filter to its requests.");
    if (data && m_chart->grouping() == DominantChart::Grouping::TimeWindow && data->withoutStart > 0)
        note = tr("%1 %2 no start time and %3 in no window. ")
                   .arg(requestsText(data->withoutStart), agreeing(data->withoutStart, tr("has"), tr("have")),
                        agreeing(data->withoutStart, tr("is"), tr("are")))
               + note;
    m_note->setText(note);
}
