// SPDX-License-Identifier: GPL-3.0-or-later
#include "background_pool.h"

#include <QThreadPool>

QThreadPool &backgroundPool()
{
    static QThreadPool pool;
    return pool;
}
