// SPDX-License-Identifier: GPL-3.0-or-later
#include "findings_view.h"

#include <QApplication>
#include <QHBoxLayout>
#include <QStyledItemDelegate>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTextDocument>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace {

QString text(const std::string &s) { return QString::fromStdString(s); }

/// Wraps a column's text and says how tall that makes the row: QTreeView measures rows without the
/// columns' widths, so its own word wrap never makes a row taller.
class WrappingDelegate : public QStyledItemDelegate {
public:
    WrappingDelegate(QHeaderView *header, QObject *parent)
        : QStyledItemDelegate(parent)
        , m_header(header)
    {
    }

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QStyleOptionViewItem wrapped = option;
        initStyleOption(&wrapped, index);
        wrapped.features |= QStyleOptionViewItem::WrapText;
        wrapped.rect = QRect(0, 0, m_header->sectionSize(index.column()), 1); // the style wraps only in a valid rect
        const QWidget *widget = option.widget;
        QStyle *style = widget ? widget->style() : QApplication::style();
        return style->sizeFromContents(QStyle::CT_ItemViewItem, &wrapped, QSize(), widget);
    }

private:
    QHeaderView *m_header;
};

} // namespace

FindingsView::FindingsView(QWidget *parent)
    : QWidget(parent)
    , m_list(new QTreeWidget(this))
    , m_details(new QLabel(this))
    , m_show(new QPushButton(tr("&Show requests"), this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    m_list->setColumnCount(ColumnCount);
    m_list->setHeaderLabels({tr("#"), tr("Finding"), tr("Tail"), tr("Requests")});
    m_list->headerItem()->setToolTip(TailColumn, tr("The share of the requests above the e2e p90 that the finding explains"));
    m_list->setRootIsDecorated(false);
    m_list->setAlternatingRowColors(true);
    m_list->header()->setSectionResizeMode(TitleColumn, QHeaderView::Stretch);
    m_list->header()->setStretchLastSection(false);
    // Beside the load view the title column is narrow: titles wrap rather than end in "…".
    m_list->setWordWrap(true);
    m_list->setUniformRowHeights(false);
    m_list->setTextElideMode(Qt::ElideNone);
    m_list->setItemDelegateForColumn(TitleColumn, new WrappingDelegate(m_list->header(), m_list));
    // The rows' heights are measured once; a title column that narrows or widens needs them measured again.
    connect(m_list->header(), &QHeaderView::sectionResized, m_list, [this](int section) {
        if (section == TitleColumn)
            m_list->doItemsLayout();
    });
    splitter->addWidget(m_list);

    auto *detailsPane = new QWidget(splitter);
    auto *detailsLayout = new QVBoxLayout(detailsPane);
    detailsLayout->setContentsMargins(0, 4, 0, 0);
    m_details->setWordWrap(true);
    m_details->setTextFormat(Qt::RichText);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    // The evidence, the likely fix and the filter scroll when the pane is short, rather than being cut.
    auto *scroll = new QScrollArea(detailsPane);
    scroll->setWidget(m_details);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_details->setBackgroundRole(QPalette::Window);
    detailsLayout->addWidget(scroll, 1);
    auto *buttons = new QHBoxLayout;
    m_show->setToolTip(tr("Filter the investigation to the requests of this finding"));
    buttons->addStretch(1);
    buttons->addWidget(m_show);
    detailsLayout->addLayout(buttons);
    splitter->addWidget(detailsPane);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 1);
    layout->addWidget(splitter);

    connect(m_list, &QTreeWidget::currentItemChanged, this, [this] { updateDetails(); });
    connect(m_list, &QTreeWidget::itemDoubleClicked, this,
            [this](QTreeWidgetItem *item) { showRequests(m_list->indexOfTopLevelItem(item)); });
    connect(m_show, &QPushButton::clicked, this, [this] { showRequests(currentFinding()); });
    updateDetails();
}

void FindingsView::setFindings(std::vector<lx::Finding> findings, bool latencyMeasured)
{
    m_findings = std::move(findings);
    m_latencyMeasured = latencyMeasured;
    m_list->clear();
    for (std::size_t i = 0; i < m_findings.size(); ++i) {
        const lx::Finding &f = m_findings[i];
        auto *item = new QTreeWidgetItem;
        item->setText(RankColumn, QString::number(i + 1));
        item->setText(TitleColumn, text(f.title));
        item->setToolTip(TitleColumn, text(f.evidence));
        item->setText(TailColumn, f.tailShare > 0 ? QStringLiteral("%1%").arg(f.tailShare * 100, 0, 'f', f.tailShare < 0.1 ? 1 : 0)
                                                  : QStringLiteral("–"));
        item->setText(CountColumn, QLocale().toString(static_cast<qlonglong>(f.count)));
        item->setTextAlignment(TailColumn, Qt::AlignRight | Qt::AlignVCenter);
        item->setTextAlignment(CountColumn, Qt::AlignRight | Qt::AlignVCenter);
        m_list->addTopLevelItem(item);
    }
    for (int c : {RankColumn, TailColumn, CountColumn})
        m_list->resizeColumnToContents(c);
    setCurrentFinding(m_findings.empty() ? -1 : 0);
    updateDetails();
}

void FindingsView::setCurrentFinding(int index)
{
    m_list->setCurrentItem(index >= 0 ? m_list->topLevelItem(index) : nullptr);
}

int FindingsView::currentFinding() const
{
    return m_list->currentItem() ? m_list->indexOfTopLevelItem(m_list->currentItem()) : -1;
}

void FindingsView::showRequests(int index)
{
    if (index < 0 || index >= static_cast<int>(m_findings.size()) || m_findings[static_cast<std::size_t>(index)].filter.empty())
        return;
    const lx::Finding &f = m_findings[static_cast<std::size_t>(index)];
    emit filterRequested(text(f.filter), text(f.title));
}

QString FindingsView::detailsText() const
{
    QTextDocument document;
    document.setHtml(m_details->text());
    return document.toPlainText();
}

void FindingsView::updateDetails()
{
    const int index = currentFinding();
    if (index < 0) {
        m_details->setText(!m_findings.empty() ? tr("Select a finding to see its evidence.")
                               : m_latencyMeasured
                               ? tr("No findings: nothing stands out in the slowest requests.")
                               : tr("No findings: no request has a measured latency to look into."));
        m_show->setEnabled(false);
        return;
    }
    const lx::Finding &f = m_findings[static_cast<std::size_t>(index)];
    QString html = QStringLiteral("<p><b>%1</b></p><p>%2</p>").arg(text(f.title).toHtmlEscaped(), text(f.evidence).toHtmlEscaped());
    if (!f.fix.empty())
        html += QStringLiteral("<p>%1 %2</p>").arg(tr("<b>Likely fix:</b>"), text(f.fix).toHtmlEscaped());
    if (!f.filter.empty())
        html += QStringLiteral("<p>%1 <code>%2</code></p>").arg(tr("<b>Filter:</b>"), text(f.filter).toHtmlEscaped());
    m_details->setText(html);
    m_show->setEnabled(!f.filter.empty());
}
