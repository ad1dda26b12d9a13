// SPDX-License-Identifier: GPL-3.0-or-later
#include "cdf_view.h"

#include "plot_frame.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

CdfView::CdfView(QWidget *parent)
    : QWidget(parent)
    , m_chart(new CdfChart(this))
    , m_logScale(new QToolButton(this))
    , m_guideMetric(new QComboBox(this))
{
    m_logScale->setText(tr("Log scale"));
    m_logScale->setToolTip(tr("Logarithmic latency axis: the body and the tail of every segment at once"));
    m_logScale->setCheckable(true);
    m_logScale->setChecked(m_chart->isLogX());
    connect(m_logScale, &QToolButton::toggled, m_chart, &CdfChart::setLogX);

    auto *guidesLabel = new QLabel(tr("&Guides for:"), this);
    guidesLabel->setBuddy(m_guideMetric);
    m_guideMetric->setToolTip(tr("The curve whose p50, p90 and p99 are marked"));
    connect(m_guideMetric, &QComboBox::activated, this,
            [this](int index) { m_chart->setGuideMetric(m_guideMetric->itemData(index).toInt()); });

    auto *hint = new QLabel(tr("Click a legend entry to show or hide its curve; wheel to zoom, double-click for the whole range."), this);
    hint->setEnabled(false); // drawn in the disabled colour: a hint, not a value

    QHBoxLayout *bar = addToolbarAbove(*this, m_chart);
    bar->addWidget(m_logScale);
    bar->addSpacing(12);
    bar->addWidget(guidesLabel);
    bar->addWidget(m_guideMetric);
    bar->addSpacing(12);
    bar->addWidget(hint);
    bar->addStretch(1);
    updateGuideChoices();
}

void CdfView::setData(std::shared_ptr<const lx::CdfData> data, const QString &label)
{
    m_chart->setData(std::move(data), label);
    updateGuideChoices();
}

void CdfView::setComparison(std::shared_ptr<const lx::CdfData> data, const QString &label)
{
    m_chart->setComparison(std::move(data), label);
}

void CdfView::updateGuideChoices()
{
    // Only metrics with samples have guides to show; e2e first, as it is what users feel.
    const lx::CdfData *data = m_chart->data();
    m_guideMetric->clear();
    const auto add = [&](int metric) {
        if (data && data->curves[static_cast<std::size_t>(metric)].count > 0)
            m_guideMetric->addItem(m_chart->curve(metric)->name(), metric);
    };
    add(lx::kCdfE2e);
    add(lx::kCdfTtft);
    for (int s = 0; s < lx::kSegmentCount; ++s)
        add(s);
    const int current = m_guideMetric->findData(m_chart->guideMetric());
    m_guideMetric->setCurrentIndex(std::max(current, 0));
    if (current < 0 && m_guideMetric->count() > 0)
        m_chart->setGuideMetric(m_guideMetric->itemData(0).toInt());
    m_guideMetric->setEnabled(m_guideMetric->count() > 0);
}
