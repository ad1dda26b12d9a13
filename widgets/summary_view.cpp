// SPDX-License-Identifier: GPL-3.0-or-later
#include "summary_view.h"

#include "count_text.h"
#include "report/dominant_order.h"
#include "report/report_format.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {

const QString kNotMeasured = QStringLiteral("—");

QTableWidgetItem *cell(const QString &text, Qt::Alignment alignment = Qt::AlignRight | Qt::AlignVCenter)
{
    auto *item = new QTableWidgetItem(text);
    item->setTextAlignment(alignment);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

QString scopeText(const lx::MetricSummary &m)
{
    if (m.scope.empty())
        return kNotMeasured;
    QString text = QString::fromStdString(m.scope);
    if (!m.scopes.empty()) {
        QStringList parts;
        for (const auto &[scope, count] : m.scopes)
            parts << QStringLiteral("%1 %2").arg(QString::fromStdString(scope)).arg(count);
        text += QStringLiteral(" (") + parts.join(QStringLiteral(", ")) + QLatin1Char(')');
    }
    return text;
}

} // namespace

SummaryView::SummaryView(QWidget *parent)
    : QWidget(parent)
    , m_counts(new QLabel(this))
    , m_rejectedButton(new QPushButton(tr("Show rejected records…"), this))
    , m_table(new QTableWidget(this))
    , m_dominant(new QLabel(this))
    , m_inputs(new QTableWidget(this))
{
    auto *layout = new QVBoxLayout(this);
    auto *top = new QHBoxLayout;
    m_counts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_counts->setWordWrap(true); // a long sentence (a workload trace's) widened the window past the screen
    top->addWidget(m_counts, 1);
    top->addWidget(m_rejectedButton);
    layout->addLayout(top);
    m_table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    layout->addWidget(m_table);
    m_dominant->setWordWrap(true);
    m_dominant->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_dominant);
    layout->addWidget(new QLabel(tr("Inputs"), this));
    layout->addWidget(m_inputs, 1);
    layout->addStretch();

    for (QTableWidget *table : {m_table, m_inputs}) {
        table->setEditTriggers(QAbstractItemView::NoEditTriggers);
        table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 8);
        table->setAlternatingRowColors(true);
    }
    m_rejectedButton->setToolTip(tr("Every record refused at import, with its file, line and reason"));
    connect(m_rejectedButton, &QPushButton::clicked, this, &SummaryView::showRejectedRequested);
    clear(tr("Open a trace file or an investigation (Ctrl+O), or drop files here."));
}

void SummaryView::clear(const QString &message)
{
    m_hasReport = false;
    m_counts->setText(message);
    m_rejectedButton->setVisible(false);
    m_table->clear();
    m_table->setRowCount(0);
    m_table->setColumnCount(0);
    m_dominant->clear();
    m_inputs->clear();
    m_inputs->setRowCount(0);
    m_inputs->setColumnCount(0);
}

void SummaryView::setReport(const lx::Report &report)
{
    m_report = report;
    m_hasReport = true;
    fill();
}

void SummaryView::setDurationUnit(lx::DurationUnit unit)
{
    m_unit = unit;
    if (m_hasReport)
        fill();
}

void SummaryView::fill()
{
    const lx::Report &r = m_report;
    QString counts = tr("<b>%L1</b> requests: %L2 ok, %L3 error · %L4 rejected at import")
                         .arg(r.total).arg(r.ok).arg(r.error).arg(r.rejected);
    if (r.clockSkew > 0)
        counts += tr(" · %L1 with client/server clock skew").arg(r.clockSkew);
    counts += r.includeErrors ? tr("<br>Latency statistics over every request, errors included; — means not measured.")
                              : tr("<br>Latency statistics over the ok requests; — means not measured.");
    if (const std::string none = lx::noLatencySentence(r); !none.empty()) // a workload trace, as the text report says
        counts += QStringLiteral("<br>") + QString::fromStdString(none).toHtmlEscaped();
    if (r.join.active) // as the text report says it: whether the join worked
        counts += QStringLiteral("<br>") + QString::fromStdString(lx::joinSentence(r.join)).toHtmlEscaped();
    if (r.simulated()) // as the text report says it: a prediction, never what a server did
        counts += QStringLiteral("<br><b>") + QString::fromStdString(lx::simulatedSentence()).toHtmlEscaped()
            + QStringLiteral("</b>");
    if (r.relativeTime > 0) // as the text report says it: no date is shown for these requests
        counts += QStringLiteral("<br>") + QString::fromStdString(lx::relativeTimeSentence(r.relativeTime)).toHtmlEscaped();
    m_counts->setText(counts);
    m_rejectedButton->setVisible(r.rejected > 0);

    QStringList headers{tr("count"), tr("mean")};
    for (double p : r.percentiles)
        headers << QString::fromStdString(lx::percentileKey(p));
    headers << tr("max") << tr("scope");
    struct Row {
        QString name;
        const lx::MetricSummary *metric;
    };
    std::vector<Row> rows;
    for (int s = 0; s < lx::kSegmentCount; ++s)
        rows.push_back({QString::fromUtf8(lx::segmentName(lx::Segment(s)).data()), &r.segments[s]});
    rows.push_back({tr("e2e"), &r.e2e});
    rows.push_back({tr("TTFT"), &r.ttft});
    rows.push_back({tr("TPOT"), &r.tpot});
    rows.push_back({tr("ITL"), &r.itl});
    rows.push_back({tr("TTLT"), &r.ttlt});

    m_table->clear();
    m_table->setColumnCount(int(headers.size()));
    m_table->setRowCount(int(rows.size()));
    m_table->setHorizontalHeaderLabels(headers);
    QStringList names;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        names << rows[i].name;
        const lx::Statistic &s = rows[i].metric->stat;
        const auto duration = [this](const std::optional<double> &ns) {
            return ns ? QString::fromStdString(lx::formatDuration(*ns, m_unit)) : kNotMeasured;
        };
        int c = 0;
        m_table->setItem(int(i), c++, cell(QLocale().toString(s.count)));
        m_table->setItem(int(i), c++, cell(duration(s.meanNs)));
        for (const auto &p : s.percentilesNs)
            m_table->setItem(int(i), c++, cell(duration(p)));
        m_table->setItem(int(i), c++, cell(duration(s.maxNs)));
        QString scope = scopeText(*rows[i].metric);
        if (rows[i].metric->excluded > 0)
            scope += tr(", %1 skewed left out").arg(rows[i].metric->excluded);
        m_table->setItem(int(i), c++, cell(scope, Qt::AlignLeft | Qt::AlignVCenter));
    }
    m_table->setVerticalHeaderLabels(names);
    m_table->resizeColumnsToContents();

    QStringList shares;
    for (lx::Segment s : lx::dominantSegmentsByShare(r))
        shares << QStringLiteral("<b>%1</b> %2").arg(QString::fromUtf8(lx::segmentName(s).data()))
                      .arg(QString::fromStdString(lx::shareText(r.dominantShare(int(s)))).toHtmlEscaped());
    m_dominant->setText(tr("Dominant segment, share of %1: %2").arg(requestsText(r.dominantTotal)).arg(shares.join(QStringLiteral(" · "))));

    m_inputs->clear();
    m_inputs->setColumnCount(6);
    m_inputs->setHorizontalHeaderLabels({tr("file"), tr("format"), tr("accepted"), tr("rejected"), tr("outcome"), tr("message")});
    m_inputs->setRowCount(int(r.inputs.size()));
    for (std::size_t i = 0; i < r.inputs.size(); ++i) {
        const lx::InputSummary &in = r.inputs[i];
        const auto left = Qt::AlignLeft | Qt::AlignVCenter;
        // The file's name, its path on hover: a long path pushed the counts and the outcome off the table.
        QTableWidgetItem *file = cell(QFileInfo(QString::fromStdString(in.path)).fileName(), left);
        file->setToolTip(QString::fromStdString(in.path));
        m_inputs->setItem(int(i), 0, file);
        m_inputs->setItem(int(i), 1, cell(QString::fromStdString(in.format), left));
        m_inputs->setItem(int(i), 2, cell(QLocale().toString(in.accepted))); // grouped like every count above it
        m_inputs->setItem(int(i), 3, cell(QLocale().toString(in.rejected)));
        m_inputs->setItem(int(i), 4, cell(QString::fromStdString(in.outcome), left));
        // Every record of a file rejected, with no message: "complete" alone read as success.
        const QString message = !in.message.empty() ? QString::fromStdString(in.message)
            : in.accepted == 0 && in.rejected > 0   ? tr("every record was rejected: Show rejected records… says why")
                                                    : QString();
        QTableWidgetItem *said = cell(message, left);
        said->setToolTip(message); // whole, where the column cuts it
        m_inputs->setItem(int(i), 5, said);
    }
    m_inputs->resizeColumnsToContents();
    m_inputs->horizontalHeader()->setStretchLastSection(true);
}
