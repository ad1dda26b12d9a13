// SPDX-License-Identifier: GPL-3.0-or-later
#include "plot_frame.h"

#include <QHBoxLayout>
#include <QVBoxLayout>

QCPTextElement *addPlotTitle(QCustomPlot &plot)
{
    QFont font = plot.font();
    font.setBold(true);
    auto *title = new QCPTextElement(&plot, QString(), font);
    plot.plotLayout()->insertRow(0);
    plot.plotLayout()->addElement(0, 0, title);
    return title;
}

void placeLegendBeside(QCustomPlot &plot)
{
    QCPLayoutGrid *layout = plot.plotLayout();
    const int row = layout->rowCount() - 1; // the axis rect's
    auto *side = new QCPLayoutGrid;
    layout->addElement(row, 1, side);
    plot.axisRect()->insetLayout()->take(plot.legend);
    side->addElement(0, 0, plot.legend);
    side->addElement(1, 0, new QCPLayoutElement(&plot)); // takes the height the legend does not need
    side->setRowStretchFactor(0, 0.001);
    side->setMargins(QMargins(0, 8, 8, 0));
    layout->setColumnStretchFactor(1, 0.001);
    plot.legend->setVisible(true);
}

QHBoxLayout *addToolbarAbove(QWidget &view, QWidget *chart)
{
    auto *layout = new QVBoxLayout(&view);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto *toolbar = new QHBoxLayout;
    toolbar->setContentsMargins(6, 4, 6, 0);
    layout->addLayout(toolbar);
    layout->addWidget(chart, 1);
    return toolbar;
}

QCPItemText *addCentredMessage(QCustomPlot &plot)
{
    auto *message = new QCPItemText(&plot);
    message->position->setType(QCPItemPosition::ptAxisRectRatio);
    message->position->setCoords(0.5, 0.45);
    message->setPositionAlignment(Qt::AlignCenter);
    message->setTextAlignment(Qt::AlignCenter);
    message->setVisible(false);
    return message;
}
