// SPDX-License-Identifier: GPL-3.0-or-later
#include "summary_first.h"

#include "filter/request_filter.h"
#include "ingest/open_inputs.h"
#include "store/held_rows.h"

#include <QFile>

namespace {

// Measured on the timestamps bench traces (2026-12): a JSON line of a request takes ~430 bytes, ~80 once
// zstd-compressed. Other formats (OTLP spans, CSV) spend more bytes of file per request, so the estimate errs
// on the high side for them, which only skips the first pass sooner.
constexpr std::uint64_t kFileBytesPerRequest = 430;
constexpr std::uint64_t kCompressedBytesPerRequest = 80;

bool isZstd(QFile &file)
{
    // The magic number InputFile goes by (input_file.h), whatever the file's name.
    const QByteArray head = file.read(4);
    return head == QByteArray::fromHex("28b52ffd");
}

} // namespace

std::uint64_t estimatedRequests(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    const auto size = std::uint64_t(file.size());
    return size / (isZstd(file) ? kCompressedBytesPerRequest : kFileBytesPerRequest);
}

bool readsSummaryFirst(const lx::OpenPlan &plan, const lx::RequestFilter &filter)
{
    // Held rows are for a new store of exactly one trace file: a merge or a second file writes the table.
    if (plan.target != lx::OpenPlan::Target::NewStore || !plan.merges.empty() || plan.imports.size() != 1)
        return false;
    if (!filter.empty())
        return false;
    // Past the cap of held requests (an eighth of the memory: 12 million requests on a machine of 16 GB, a
    // 5 GB JSON lines file) the first pass would write its rows into its throw-away store, as slow as the
    // second pass: such a file is only read once, into the investigation's store.
    return estimatedRequests(QString::fromStdString(plan.imports.front())) <= lx::maxHeldRequests();
}
