// SPDX-License-Identifier: GPL-3.0-or-later
#include "open_file_filter.h"

#include <QCoreApplication>

QString openFileFilter()
{
    // .pb and .binpb are the usual endings of a bare OTLP/protobuf message (protoc, OTLP/HTTP bodies).
    return QCoreApplication::translate("MainWindow", "Traces and investigations (*.jsonl *.json *.csv *.pb *.binpb *.zst *.lxdb);;"
                                                     "Investigations (*.lxdb);;All files (*)");
}
