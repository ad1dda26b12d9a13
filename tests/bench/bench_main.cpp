// SPDX-License-Identifier: GPL-3.0-or-later
// latency-explorer-bench: generates N requests in the timestamps form, then times `import` into a store
// and `report --json` on it (and on the file directly), each as its own process so that wall time and
// peak RSS are that stage's alone. Prints every run, the medians, and a peer (reading the file with cat)
// measured in the same session, so that figures from a noisy machine can be compared as ratios.

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

extern char **environ;

namespace {

struct Measure {
    double seconds = 0;
    double peakMiB = 0;
    int status = -1;
};

/// Runs argv with stdout sent to outPath (or /dev/null); wall time and the child's own peak RSS.
Measure run(const std::vector<std::string> &argv, const char *outPath = "/dev/null")
{
    std::vector<char *> args;
    for (const std::string &a : argv)
        args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    Measure m;
    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    if (posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ) != 0) {
        std::fprintf(stderr, "bench: cannot run %s\n", args[0]);
        return m;
    }
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
#if defined(__APPLE__)
    m.peakMiB = static_cast<double>(usage.ru_maxrss) / (1024.0 * 1024.0); // bytes on macOS
#else
    m.peakMiB = static_cast<double>(usage.ru_maxrss) / 1024.0; // KiB on Linux
#endif
    m.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    posix_spawn_file_actions_destroy(&actions);
    return m;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

} // namespace

int main(int argc, char **argv)
{
    std::string cli = "latency-explorer-cli";
    std::string workdir = "bench-data";
    long requests = 1'000'000;
    int runs = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string name = argv[i];
        if (name == "--cli")
            cli = argv[i + 1];
        else if (name == "--workdir")
            workdir = argv[i + 1];
        else if (name == "--requests")
            requests = std::stol(argv[i + 1]);
        else if (name == "--runs")
            runs = std::stoi(argv[i + 1]);
    }
    std::filesystem::create_directories(workdir);
    const std::string trace = workdir + "/timestamps-" + std::to_string(requests) + ".jsonl";
    const std::string store = workdir + "/bench.lxdb";
    if (!std::filesystem::exists(trace)) {
        std::printf("generating %ld requests into %s ...\n", requests, trace.c_str());
        const Measure g = run({cli, "generate", "--requests", std::to_string(requests), "--seed", "1", "-o", trace});
        if (g.status != 0)
            return 1;
    }
    const double bytes = static_cast<double>(std::filesystem::file_size(trace));
    std::printf("input: %s, %ld requests, %.0f MB, %.0f bytes a line\n\n", trace.c_str(), requests, bytes / 1e6,
                bytes / static_cast<double>(requests));
    std::printf("%-4s %12s %10s %12s %10s %12s %12s %10s %10s\n", "run", "import s", "MiB", "report s", "MiB",
                "warm rep. s", "file-report s", "MiB", "cat s");

    std::vector<double> importS, importMiB, reportS, reportMiB, warmS, directS, directMiB, catS;
    for (int r = 1; r <= runs; ++r) {
        std::filesystem::remove(store);
        std::filesystem::remove(store + "-journal");
        const Measure peer = run({"/bin/cat", trace});
        const Measure imp = run({cli, "import", "--db", store, trace});
        // Flush the store first: the kernel writing back the import's pages is not the report's time.
        sync();
        const Measure rep = run({cli, "report", "--json", store}, (workdir + "/report.json").c_str());
        // Again, with the store's pages now in the page cache: how a store reopened for more questions reads.
        const Measure warm = run({cli, "report", "--json", store});
        const Measure direct = run({cli, "report", "--json", trace});
        if (imp.status != 0 || rep.status != 0 || warm.status != 0 || direct.status != 0) {
            std::fprintf(stderr, "bench: a run failed (exit %d/%d/%d)\n", imp.status, rep.status, direct.status);
            return 1;
        }
        std::printf("%-4d %12.3f %10.0f %12.3f %10.0f %12.3f %12.3f %10.0f %10.3f\n", r, imp.seconds, imp.peakMiB, rep.seconds,
                    rep.peakMiB, warm.seconds, direct.seconds, direct.peakMiB, peer.seconds);
        warmS.push_back(warm.seconds);
        importS.push_back(imp.seconds);
        importMiB.push_back(imp.peakMiB);
        reportS.push_back(rep.seconds);
        reportMiB.push_back(rep.peakMiB);
        directS.push_back(direct.seconds);
        directMiB.push_back(direct.peakMiB);
        catS.push_back(peer.seconds);
    }
    const double imp = median(importS);
    std::printf("\nmedians of %d runs:\n", runs);
    std::printf("  import into a store : %.3f s  (%.0f records/s, %.0f MB/s), peak RSS %.0f MiB   [target <= 3 s, <= 500 MB]\n",
                imp, static_cast<double>(requests) / imp, bytes / 1e6 / imp, median(importMiB));
    std::printf("  report --json store : %.3f s right after the import, %.3f s warm, peak RSS %.0f MiB   [target <= 0.5 s]\n",
                median(reportS), median(warmS), median(reportMiB));
    std::printf("  report --json file  : %.3f s, peak RSS %.0f MiB (import on the fly + report)\n", median(directS),
                median(directMiB));
    std::printf("  peer: cat the file  : %.3f s  (import is %.1fx the time to read the file)\n", median(catS),
                imp / std::max(median(catS), 1e-9));
    std::printf("  store size          : %.0f MB\n", static_cast<double>(std::filesystem::file_size(store)) / 1e6);

    // OTLP/JSON of the same simulation (vLLM llm_request spans, about twice the bytes a request): its
    // import rate in bytes/s against the native rate just measured (issue target: at least half).
    const long otlpRequests = std::max(1L, requests / 5);
    const std::string otlp = workdir + "/otlp-" + std::to_string(otlpRequests) + ".jsonl";
    if (!std::filesystem::exists(otlp)) {
        std::printf("\ngenerating %ld requests as OTLP/JSON into %s ...\n", otlpRequests, otlp.c_str());
        if (run({cli, "generate", "--requests", std::to_string(otlpRequests), "--seed", "1", "--form", "otlp", "-o", otlp}).status != 0)
            return 1;
    }
    const double otlpBytes = static_cast<double>(std::filesystem::file_size(otlp));
    std::vector<double> otlpS;
    for (int r = 1; r <= runs; ++r) {
        std::filesystem::remove(store);
        const Measure m = run({cli, "import", "--db", store, otlp});
        if (m.status != 0)
            return 1;
        otlpS.push_back(m.seconds);
    }
    const double otlpRate = otlpBytes / 1e6 / median(otlpS);
    std::printf("  OTLP/JSON import    : %.3f s for %ld requests, %.0f MB: %.0f MB/s, %.2fx the native rate in bytes/s"
                "   [target >= 0.5x]\n",
                median(otlpS), otlpRequests, otlpBytes / 1e6, otlpRate, otlpRate / (bytes / 1e6 / imp));
    return 0;
}
