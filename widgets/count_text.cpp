// SPDX-License-Identifier: GPL-3.0-or-later
#include "count_text.h"

#include <QCoreApplication>
#include <QLocale>

QString requestsText(std::int64_t n)
{
    const QString number = QLocale().toString(static_cast<qlonglong>(n));
    return n == 1 ? QCoreApplication::translate("Count", "%1 request").arg(number)
                  : QCoreApplication::translate("Count", "%1 requests").arg(number);
}

QString agreeing(std::int64_t n, const QString &singular, const QString &plural) { return n == 1 ? singular : plural; }
