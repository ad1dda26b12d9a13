// SPDX-License-Identifier: GPL-3.0-or-later
// latency-explorer-bench: generates N requests in the timestamps form, then times what an engineer does with
// them, each stage as its own process so that wall time and peak RSS are that stage's alone:
//   ours: `import` into a store, `report --json` on it (reopened cold), `report --json` on the file;
//   the peer, DuckDB as a notebook would use it (tests/bench/duckdb_peer.mjs): load into a database file and
//   four quantile_cont, reopen it and the quantiles again, and the same in memory.
// The runs interleave ours and the peer's, so a drift of this shared machine touches both; each figure is
// the median of the runs, each ratio the median of the per-run ratios (ours / DuckDB's; lower is better).
// With --cold (Linux, as root) the page cache is emptied before every run that reads the trace, ours and
// DuckDB's alike: the trace as it is read the first time, from the disk.

#include "bench_process.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using bench::Measure;
using bench::median;
using bench::run;

struct Options {
    std::string cli = "latency-explorer-cli";
    std::string workdir = "bench-data";
    std::string duckdbDir; ///< a folder holding node_modules/@duckdb/node-api and duckdb_peer.mjs
    long requests = 1'000'000;
    int runs = 5;
    bool otlp = true;
    bool cold = false; ///< empty the page cache before each run that reads the trace
};

Options parse(int argc, char **argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string name = argv[i];
        const bool hasValue = i + 1 < argc;
        if (name == "--cli" && hasValue)
            o.cli = argv[++i];
        else if (name == "--workdir" && hasValue)
            o.workdir = argv[++i];
        else if (name == "--duckdb" && hasValue)
            o.duckdbDir = argv[++i];
        else if (name == "--requests" && hasValue)
            o.requests = std::stol(argv[++i]);
        else if (name == "--runs" && hasValue)
            o.runs = std::stoi(argv[++i]);
        else if (name == "--no-otlp")
            o.otlp = false;
        else if (name == "--cold")
            o.cold = true;
    }
    return o;
}

/// Writes the dirty pages out and empties the page cache (Linux, as root); false when it cannot.
bool emptyPageCache()
{
    sync();
    std::ofstream dropCaches("/proc/sys/vm/drop_caches");
    return static_cast<bool>(dropCaches << "3" << std::flush);
}

/// One series of measurements: its seconds and peak RSS over the runs.
struct Series {
    std::vector<double> seconds, mib;
    void add(const Measure &m)
    {
        seconds.push_back(m.seconds);
        mib.push_back(m.peakMiB);
    }
    double s() const { return median(seconds); }
    double peak() const { return mib.empty() ? 0 : *std::max_element(mib.begin(), mib.end()); }
};

/// The median over the runs of ours[i] / peer[i].
double pairedRatio(const std::vector<double> &ours, const std::vector<double> &peer)
{
    std::vector<double> ratios;
    for (std::size_t i = 0; i < std::min(ours.size(), peer.size()); ++i)
        ratios.push_back(ours[i] / std::max(peer[i], 1e-9));
    return median(ratios);
}

std::vector<double> sum(const std::vector<double> &a, const std::vector<double> &b)
{
    std::vector<double> out;
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
        out.push_back(a[i] + b[i]);
    return out;
}

void removeStore(const std::string &path)
{
    for (const char *suffix : {"", "-journal", "-wal", "-shm", ".wal"})
        std::filesystem::remove(path + suffix);
}

/// The OTLP/JSON import rate of the same simulation (vLLM llm_request spans, about twice the bytes a
/// request) in bytes/s, against the native rate just measured.
int benchOtlp(const Options &o, double nativeMBps)
{
    const long otlpRequests = std::max(1L, o.requests / 5);
    const std::string otlp = o.workdir + "/otlp-" + std::to_string(otlpRequests) + ".jsonl";
    const std::string store = o.workdir + "/bench-otlp.lxdb";
    if (!std::filesystem::exists(otlp)) {
        std::printf("\ngenerating %ld requests as OTLP/JSON into %s ...\n", otlpRequests, otlp.c_str());
        if (run({o.cli, "generate", "--requests", std::to_string(otlpRequests), "--seed", "1", "--form", "otlp", "-o", otlp}).status != 0)
            return 1;
    }
    const double otlpBytes = static_cast<double>(std::filesystem::file_size(otlp));
    Series imports;
    for (int r = 1; r <= o.runs; ++r) {
        removeStore(store);
        const Measure m = run({o.cli, "import", "--db", store, otlp});
        if (m.status != 0)
            return 1;
        imports.add(m);
    }
    removeStore(store);
    const double rate = otlpBytes / 1e6 / imports.s();
    std::printf("  OTLP/JSON import      %8.3f s for %ld requests, %.0f MB: %.0f MB/s, %.2fx the native rate in bytes/s\n",
                imports.s(), otlpRequests, otlpBytes / 1e6, rate, rate / nativeMBps);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    const Options o = parse(argc, argv);
    std::filesystem::create_directories(o.workdir);
    const std::string trace = o.workdir + "/timestamps-" + std::to_string(o.requests) + ".jsonl";
    const std::string store = o.workdir + "/bench.lxdb";
    const std::string duckStore = o.workdir + "/bench.duckdb";
    if (!std::filesystem::exists(trace)) {
        std::printf("generating %ld requests into %s ...\n", o.requests, trace.c_str());
        const std::string partial = trace + ".part";
        if (run({o.cli, "generate", "--requests", std::to_string(o.requests), "--seed", "1", "-o", partial}).status != 0)
            return 1;
        std::filesystem::rename(partial, trace);
    }
    if (o.cold && !emptyPageCache()) {
        std::fprintf(stderr, "bench: --cold empties the page cache through /proc/sys/vm/drop_caches, which needs Linux and root\n");
        return 2;
    }
    // Runs that read the trace start from the disk with --cold, and from the page cache without.
    const auto reading = [&](const std::vector<std::string> &argv) {
        if (o.cold)
            emptyPageCache();
        return run(argv);
    };
    const std::string node = bench::findInPath("node");
    const std::string peerScript = o.duckdbDir + "/duckdb_peer.mjs";
    const bool peer = !o.duckdbDir.empty() && !node.empty() && std::filesystem::exists(peerScript)
                      && std::filesystem::exists(o.duckdbDir + "/node_modules/@duckdb/node-api");
    const double bytes = static_cast<double>(std::filesystem::file_size(trace));
    std::printf("input: %s, %ld requests, %.0f MB, %.0f bytes a line; read %s\n", trace.c_str(), o.requests, bytes / 1e6,
                bytes / static_cast<double>(o.requests), o.cold ? "from the disk (--cold)" : "from the page cache");
    if (!peer)
        std::printf("DuckDB peer skipped: it needs node in PATH and @duckdb/node-api installed beside duckdb_peer.mjs "
                    "(the bench target installs it from npm when node and npm are present)\n");
    std::printf("\n%-4s %9s %9s %9s %9s %9s %9s %9s\n", "run", "import", "report", "file-rep", "duck-load", "duck-reop",
                "duck-mem", "cat");

    Series import, report, fileReport, duckLoad, duckReopen, duckMemory, cat;
    for (int r = 1; r <= o.runs; ++r) {
        removeStore(store);
        removeStore(duckStore);
        const Measure catRun = reading({"cat", trace});
        const Measure imp = reading({o.cli, "import", "--db", store, trace});
        sync(); // the kernel writing back the import's pages is not the report's time
        const Measure rep = run({o.cli, "report", "--json", store}, (o.workdir + "/report.json").c_str());
        const Measure direct = reading({o.cli, "report", "--json", trace});
        Measure load, reopen, memory;
        if (peer) {
            load = reading({node, peerScript, "persist", trace, duckStore});
            sync();
            reopen = run({node, peerScript, "reopen", duckStore});
            memory = reading({node, peerScript, "memory", trace});
        }
        if (imp.status != 0 || rep.status != 0 || direct.status != 0
            || (peer && (load.status != 0 || reopen.status != 0 || memory.status != 0))) {
            std::fprintf(stderr, "bench: a run failed (exit import %d, report %d, file report %d, duckdb %d/%d/%d)\n",
                         imp.status, rep.status, direct.status, load.status, reopen.status, memory.status);
            return 1;
        }
        std::printf("%-4d %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f\n", r, imp.seconds, rep.seconds, direct.seconds,
                    load.seconds, reopen.seconds, memory.seconds, catRun.seconds);
        import.add(imp);
        report.add(rep);
        fileReport.add(direct);
        cat.add(catRun);
        if (peer) {
            duckLoad.add(load);
            duckReopen.add(reopen);
            duckMemory.add(memory);
        }
    }

    const double imp = import.s();
    std::printf("\nmedians of %d runs (peak RSS is the largest of the runs):\n", o.runs);
    std::printf("  import into a store   %8.3f s  %6.0f MiB  (%.0f records/s, %.0f MB/s; store %.0f MB)\n", imp,
                import.peak(), static_cast<double>(o.requests) / imp, bytes / 1e6 / imp,
                static_cast<double>(std::filesystem::file_size(store)) / 1e6);
    std::printf("  report --json store   %8.3f s  %6.0f MiB\n", report.s(), report.peak());
    std::printf("  report --json file    %8.3f s  %6.0f MiB\n", fileReport.s(), fileReport.peak());
    std::printf("  peer: cat the file    %8.3f s  (import is %.1fx the time to read the file)\n", cat.s(),
                imp / std::max(cat.s(), 1e-9));
    if (peer) {
        std::printf("  DuckDB load + quantiles into a file %8.3f s  %6.0f MiB\n", duckLoad.s(), duckLoad.peak());
        std::printf("  DuckDB reopen + quantiles           %8.3f s  %6.0f MiB\n", duckReopen.s(), duckReopen.peak());
        std::printf("  DuckDB in memory + quantiles        %8.3f s  %6.0f MiB\n", duckMemory.s(), duckMemory.peak());
        std::printf("\nratios, ours / DuckDB's (median of the per-run ratios; lower is better):\n");
        std::printf("  import + report on the store / load + quantiles   %5.2fx   [target <= 1.0x, goal 0.5x]\n",
                    pairedRatio(sum(import.seconds, report.seconds), duckLoad.seconds));
        std::printf("  import / load + quantiles                         %5.2fx   [10M target <= 0.6x]\n",
                    pairedRatio(import.seconds, duckLoad.seconds));
        std::printf("  report on the store / reopen + quantiles          %5.2fx   [target <= 1.0x]\n",
                    pairedRatio(report.seconds, duckReopen.seconds));
        std::printf("  report on the file / in memory + quantiles        %5.2fx   [target <= 1.0x, goal 0.5x]\n",
                    pairedRatio(fileReport.seconds, duckMemory.seconds));
    }
    removeStore(duckStore);
    return o.otlp ? benchOtlp(o, bytes / 1e6 / imp) : 0;
}
