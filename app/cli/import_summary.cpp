// SPDX-License-Identifier: GPL-3.0-or-later
#include "import_summary.h"

#include "model/duration_format.h"

void printImportSummary(const std::vector<lx::FileImport> &imports, std::ostream &out, std::ostream &err,
                        RejectionsKept kept)
{
    for (const lx::FileImport &in : imports) {
        if (in.outcome == lx::FileImport::Outcome::Unreadable && in.accepted == 0) {
            err << in.path << ": not imported: " << in.message << '\n';
            continue;
        }
        if (in.outcome == lx::FileImport::Outcome::AlreadyImported) {
            out << in.path << ": " << in.message << '\n';
            continue;
        }
        out << in.path << ": " << in.accepted << " accepted, " << in.rejected << " rejected";
        if (!in.format.empty())
            out << " (" << in.format << (in.compressed ? ", zstd" : "") << ", " << lx::formatDuration(static_cast<double>(in.durationNs)) << ")";
        out << '\n';
        if (!in.message.empty())
            (in.failed() ? err : out) << in.path << ": " << in.message << '\n';
        if (!in.notice.empty())
            out << in.path << ": " << in.notice << '\n';
        for (const lx::RejectionSample &r : in.firstRejections)
            out << "  " << in.locationUnit << ' ' << r.line << ": " << r.reason << '\n';
        const auto shown = static_cast<std::int64_t>(in.firstRejections.size());
        if (in.rejected > shown)
            out << "  ... and " << (in.rejected - shown) << " more rejected records ("
                << (kept == RejectionsKept::InTheStore
                        ? "all are kept with their reasons in the store's rejected table"
                        : "import --db keeps them all with their reasons, in the store's rejected table")
                << ")\n";
    }
}

bool anyInputFailed(const std::vector<lx::FileImport> &imports)
{
    for (const lx::FileImport &in : imports) {
        if (in.failed())
            return true;
    }
    return false;
}
