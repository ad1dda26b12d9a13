// SPDX-License-Identifier: GPL-3.0-or-later
// The native formats' registration. They come last in the registry: they accept any object per line and
// any header row, so every more specific format must have had its say first.

#include "ingest/format_registry.h"
#include "ingest/formats/native/csv_reader.h"
#include "ingest/formats/native/jsonl_reader.h"

namespace lx {

void appendNativeFormats(std::vector<TraceFormat> &list)
{
    list.push_back({"jsonl", "native JSON lines", kShapeJsonLines, jsonlCanRead, createJsonlReader, true});
    list.push_back({"csv", "native CSV", kShapeCsv, csvCanRead, createCsvReader});
}

} // namespace lx
