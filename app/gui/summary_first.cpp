// SPDX-License-Identifier: GPL-3.0-or-later
#include "summary_first.h"

#include "filter/request_filter.h"
#include "ingest/open_inputs.h"

#include <QFile>

namespace {

// Measured on the timestamps bench traces (2026-12): a request held in memory takes ~170 bytes (its row,
// token times and the vectors' slack); a JSON line of one takes ~430 bytes, ~80 once zstd-compressed.
// Other formats (OTLP spans, CSV) spend more bytes of file per request, so the estimate errs on the high
// side for them, which only skips the first pass sooner.
constexpr std::uint64_t kHeldBytesPerRequest = 170;
constexpr std::uint64_t kFileBytesPerRequest = 430;
constexpr std::uint64_t kCompressedBytesPerRequest = 80;

bool isZstd(QFile &file)
{
    // The magic number InputFile goes by (input_file.h), whatever the file's name.
    const QByteArray head = file.read(4);
    return head == QByteArray::fromHex("28b52ffd");
}

} // namespace

bool isUnfiltered(const lx::RequestFilter &filter)
{
    return !filter.expression && filter.models.empty() && filter.routes.empty() && !filter.status
           && !lx::isMeasured(filter.fromNs) && !lx::isMeasured(filter.toNs);
}

std::uint64_t estimatedHeldBytes(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    const auto size = std::uint64_t(file.size());
    const std::uint64_t perRequest = isZstd(file) ? kCompressedBytesPerRequest : kFileBytesPerRequest;
    return size / perRequest * kHeldBytesPerRequest;
}

bool readsSummaryFirst(const lx::OpenPlan &plan, const lx::RequestFilter &filter)
{
    // Held rows are for a new store of exactly one trace file: a merge or a second file writes the table.
    if (plan.target != lx::OpenPlan::Target::NewStore || !plan.merges.empty() || plan.imports.size() != 1)
        return false;
    if (!isUnfiltered(filter))
        return false;
    // Above ~1.5 GB (9 million requests; a 3.8 GB JSON lines file, 0.7 GB compressed) the first pass would
    // hold that much beside the window's own memory, and on a laptop swapping would cost more than the
    // early summary saves: such a file is only read once, into the investigation's store.
    return estimatedHeldBytes(QString::fromStdString(plan.imports.front())) <= kSummaryFirstMaxHeldBytes;
}
