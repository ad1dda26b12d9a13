// SPDX-License-Identifier: GPL-3.0-or-later
#include "load_view.h"

#include "load_chart_text.h"
#include "load_decomposition_chart.h"
#include "load_profile_chart.h"
#include "plot_frame.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

namespace {

constexpr qint64 kSecond = 1'000'000'000;

} // namespace

LoadView::LoadView(QWidget *parent)
    : QWidget(parent)
    , m_decomposition(new LoadDecompositionChart(this))
    , m_profile(new LoadProfileChart(this))
    , m_keys(new QButtonGroup(this))
    , m_shares(new QToolButton(this))
    , m_window(new QComboBox(this))
    , m_sentence(new QLabel(this))
{
    auto *splitter = new QSplitter(Qt::Vertical, this);
    auto *top = new QWidget(splitter);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(2);
    m_sentence->setWordWrap(true);
    m_sentence->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_sentence->setContentsMargins(8, 4, 8, 2);
    QFont larger = m_sentence->font();
    larger.setPointSizeF(larger.pointSizeF() * 1.15);
    m_sentence->setFont(larger);
    topLayout->addWidget(m_sentence);
    topLayout->addWidget(m_decomposition, 1);
    splitter->addWidget(top);
    splitter->addWidget(m_profile);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);

    QHBoxLayout *bar = addToolbarAbove(*this, splitter);
    bar->setSpacing(0);
    bar->addWidget(new QLabel(tr("By "), this));
    const struct {
        lx::LoadKey key;
        QString text;
        QString tip;
    } keys[] = {
        {lx::LoadKey::ArrivalRate, tr("&Arrival rate"), tr("Group the windows by the rate at which requests arrived in them")},
        {lx::LoadKey::InFlight, tr("Requests in &flight"), tr("Group the windows by the mean number of requests in flight in them")},
    };
    for (const auto &choice : keys) {
        auto *button = new QToolButton(this);
        button->setText(choice.text);
        button->setToolTip(choice.tip);
        button->setCheckable(true);
        button->setChecked(choice.key == lx::LoadKey::ArrivalRate);
        m_keys->addButton(button, static_cast<int>(choice.key));
        bar->addWidget(button);
    }
    connect(m_keys, &QButtonGroup::idClicked, this, [this](int id) { setLoadKey(static_cast<lx::LoadKey>(id)); });

    bar->addSpacing(16);
    // One checkable button rather than a pair: the toolbar has to fit beside the SLO panel at 1400x900.
    m_shares->setText(tr("&Shares"));
    m_shares->setCheckable(true);
    m_shares->setToolTip(tr("Checked: stack each segment's share of the bucket's mean time per request, every bucket as "
                            "legible as the next however long the queues past the knee. Unchecked: the mean times on "
                            "one duration axis"));
    bar->addWidget(m_shares);
    connect(m_shares, &QToolButton::clicked, this, [this](bool checked) { setShowShares(checked); });

    bar->addSpacing(16);
    auto *windowLabel = new QLabel(tr("&Window "), this);
    windowLabel->setBuddy(m_window);
    bar->addWidget(windowLabel);
    m_window->setToolTip(tr("The width of the load profile's time windows; automatic gives 100 to 200 of them"));
    m_window->addItem(tr("auto"), qint64(0));
    for (const qint64 seconds : {1, 5, 10, 30, 60, 300})
        m_window->addItem(loadtext::roundDuration(static_cast<double>(seconds * kSecond)), seconds * kSecond);
    m_window->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_window->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed); // "auto (15 min)" whole, not "auto (1"
    connect(m_window, &QComboBox::activated, this, [this] { emit windowWidthChanged(windowWidth()); });
    bar->addWidget(m_window);
    bar->addStretch(1);
    setData(nullptr);
}

void LoadView::setData(std::shared_ptr<const lx::LoadChartData> data)
{
    m_data = std::move(data);
    m_decomposition->setData(m_data);
    m_profile->setData(m_data);
    // Without arrival times the charts would be empty axes: the sentence says why instead.
    const bool drawable = !m_data || !m_data->noArrivalTimes();
    m_decomposition->setVisible(drawable);
    m_profile->setVisible(drawable);
    updateSentence();
    updateAutoText();
    updateScale();
}

void LoadView::setLoadKey(lx::LoadKey key)
{
    m_keys->button(static_cast<int>(key))->setChecked(true);
    m_decomposition->setLoadKey(key);
    updateScale();
}

lx::LoadKey LoadView::loadKey() const { return m_decomposition->loadKey(); }

void LoadView::setShowShares(bool shares)
{
    m_chosenShares = shares;
    updateScale();
}

bool LoadView::showsShares() const { return m_decomposition->showsShares(); }

void LoadView::updateScale()
{
    const bool shares = m_chosenShares.value_or(m_data && lx::bucketsSpanTenfold(m_data->analysis(loadKey())));
    m_shares->setChecked(shares);
    m_decomposition->setShowShares(shares);
}

void LoadView::setWindowWidth(qint64 ns)
{
    int index = m_window->findData(ns);
    if (index < 0) {
        m_window->addItem(loadtext::roundDuration(static_cast<double>(ns)), ns);
        index = m_window->count() - 1;
    }
    m_window->setCurrentIndex(index);
}

qint64 LoadView::windowWidth() const { return m_window->currentData().toLongLong(); }

QString LoadView::sentence() const { return m_sentence->text(); }

Chart *LoadView::decompositionChart() const { return m_decomposition; }

Chart *LoadView::profileChart() const { return m_profile; }

void LoadView::updateSentence()
{
    if (!m_data) {
        m_sentence->setText(tr("No load data yet."));
        return;
    }
    // Core's sentence, whole: the knee's figures and the dominant segments on both sides, or why there is none.
    const QString text = QString::fromStdString(m_data->byArrivalRate.sentence());
    m_sentence->setText(text.isEmpty() ? text : text.left(1).toUpper() + text.mid(1) + QLatin1Char('.'));
}

void LoadView::updateAutoText()
{
    // "auto (10 s)": what the automatic choice came to on the data shown.
    const bool automatic = windowWidth() == 0;
    const qint64 width = m_data ? m_data->byArrivalRate.profile.windowNs : 0;
    m_window->setItemText(0, automatic && width > 0 ? tr("auto (%1)").arg(loadtext::roundDuration(static_cast<double>(width))) : tr("auto"));
}
