// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

/// The name filter of File ▸ Open and Add Files: the endings of every kind of file the importer reads
/// (native JSON lines and CSV, OTLP/JSON, OTLP/protobuf, any of them zstd-compressed) and of investigations.
/// A file the filter hides is one a user concludes the application cannot open.
QString openFileFilter();
