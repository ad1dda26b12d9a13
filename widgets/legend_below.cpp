// SPDX-License-Identifier: GPL-3.0-or-later
#include "legend_below.h"

#include <algorithm>

void placeLegendBelow(QCustomPlot &plot)
{
    QCPLegend *legend = plot.legend;
    plot.axisRect()->insetLayout()->take(legend);
    QCPLayoutGrid *layout = plot.plotLayout();
    layout->addElement(layout->rowCount(), 0, legend);
    layout->setRowStretchFactor(layout->rowCount() - 1, 0.001); // as tall as its rows, the plot takes the rest
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setMargins(QMargins(4, 2, 4, 2));
    legend->setVisible(true);
}

bool fitLegendColumns(QCustomPlot &plot)
{
    QCPLegend *legend = plot.legend;
    int widest = 1;
    for (int i = 0; i < legend->elementCount(); ++i) // the grid may hold empty cells after clearItems()
        if (QCPLayoutElement *item = legend->elementAt(i))
            widest = std::max(widest, item->minimumOuterSizeHint().width());
    const int fit = (plot.width() - 24) / (widest + legend->columnSpacing());
    const int columns = std::clamp(fit, 1, std::max(1, legend->itemCount()));
    if (columns == legend->wrap())
        return false;
    legend->setWrap(columns);
    legend->setFillOrder(QCPLegend::foColumnsFirst, true); // setWrap() alone leaves the entries where they are
    return true;
}
