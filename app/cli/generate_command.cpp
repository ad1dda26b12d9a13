// SPDX-License-Identifier: GPL-3.0-or-later
#include "generate_command.h"

#include "cli_args.h"

#include "simulation/server_simulation.h"
#include "simulation/trace_output.h"
#include "simulation/trace_writers.h"

#include "platform/utf8_path.h"

#include <charconv>
#include <fstream>
#include <locale>
#include <optional>
#include <sstream>
#include <string_view>
#include <system_error>
#include <type_traits>

namespace {

constexpr std::string_view kUsage =
    "Usage: latency-explorer-cli generate -o FILE [options]\n"
    "Writes a simulated trace of an LLM server with continuous batching under a load that rises past\n"
    "its capacity (the queue takes over from decode as the dominant segment).\n"
    "\n"
    "  -o, --output FILE          where to write; - for standard output (required)\n"
    "  --requests N               number of requests (default 2000)\n"
    "  --seed S                   random seed, an unsigned 64-bit integer (default 42)\n"
    "  --form F                   timestamps (JSONL, default), durations (JSONL), csv, otlp (OTLP/JSON lines,\n"
    "                             the server's spans) or client (what the client saw, as AIPerf's\n"
    "                             profile_export.jsonl): otlp and client of one seed join into the requests\n"
    "  --token-times-every K      give every K-th request its token times (default 0: none; not in csv)\n"
    "  --start-rate R             offered load at the start, requests/s (default 1)\n"
    "  --end-rate R               offered load at the end, requests/s (default 18)\n"
    "  --shape S                  how the load moves from the start rate to the end rate: ramp (default,\n"
    "                             linear), step (the end rate from halfway) or diurnal (three daily\n"
    "                             cycles from the start rate up to the end rate and back)\n"
    "  --slots N                  concurrent decode slots (default 32)\n"
    "  --zstd                     compress the output with zstd (level 3)\n"
    "  --help                     show this help\n";

// Flushing in chunks of about a megabyte keeps memory flat and the writes large.
constexpr std::size_t kChunkBytes = 1 << 20;

struct WriteFailed {};


struct Options {
    lx::sim::SimConfig config;
    lx::sim::TraceForm form = lx::sim::TraceForm::Timestamps;
    std::string output;
    bool zstd = false;
    bool help = false;
};

/// Parses \a args into \a options; returns an error message, or an empty string.
std::string parse(const std::vector<std::string> &args, Options &options)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string_view arg = args[i];
        std::optional<std::string_view> inlineValue; // --name=value
        if (arg.substr(0, 2) == "--") {
            if (const auto eq = arg.find('='); eq != std::string_view::npos) {
                inlineValue = arg.substr(eq + 1);
                arg = arg.substr(0, eq);
            }
        }
        const auto value = [&]() -> std::optional<std::string_view> {
            if (inlineValue)
                return inlineValue;
            if (i + 1 < args.size())
                return std::string_view(args[++i]);
            return std::nullopt;
        };
        const auto bad = [&](std::string_view what) { return std::string(arg) + " needs " + std::string(what); };

        if (arg == "--help" || arg == "-h") {
            options.help = true;
        } else if (arg == "--zstd") {
            options.zstd = true;
        } else if (arg == "-o" || arg == "--output") {
            const auto v = value();
            if (!v || v->empty())
                return bad("a file name (or - for standard output)");
            options.output = std::string(*v);
        } else if (arg == "--requests") {
            const auto v = value();
            const auto n = v ? parseNumber<std::int64_t>(*v) : std::nullopt;
            if (!n || *n < 1)
                return bad("a positive number of requests");
            options.config.requests = *n;
        } else if (arg == "--seed") {
            const auto v = value();
            const auto n = v ? parseNumber<std::uint64_t>(*v) : std::nullopt;
            if (!n)
                return bad("an unsigned 64-bit integer");
            options.config.seed = *n;
        } else if (arg == "--form") {
            const auto v = value();
            const auto form = v ? lx::sim::traceFormFromName(*v) : std::nullopt;
            if (!form)
                return bad("timestamps, durations, csv, otlp or client");
            options.form = *form;
        } else if (arg == "--shape") {
            const auto v = value();
            const auto shape = v ? lx::sim::loadShapeFromName(*v) : std::nullopt;
            if (!shape)
                return bad("ramp, step or diurnal");
            options.config.shape = *shape;
        } else if (arg == "--token-times-every" || arg == "--slots") {
            const auto v = value();
            const auto n = v ? parseNumber<int>(*v) : std::nullopt;
            if (!n || *n < 0)
                return bad("a non-negative integer");
            (arg == "--slots" ? options.config.decodeSlots : options.config.tokenTimesEvery) = *n;
        } else if (arg == "--start-rate" || arg == "--end-rate") {
            const auto v = value();
            const auto r = v ? parseNumber<double>(*v) : std::nullopt;
            if (!r || !(*r > 0))
                return bad("a positive rate in requests/s");
            (arg == "--start-rate" ? options.config.startRateRps : options.config.endRateRps) = *r;
        } else {
            return "unknown argument '" + std::string(args[i]) + "'";
        }
        if (inlineValue && (arg == "--help" || arg == "-h" || arg == "--zstd"))
            return std::string(arg) + " takes no value";
    }
    if (options.help)
        return {};
    if (options.output.empty())
        return "-o FILE is required";
    return lx::sim::validateConfig(options.config);
}

std::string_view formName(lx::sim::TraceForm form)
{
    switch (form) {
    case lx::sim::TraceForm::Timestamps: return "timestamps";
    case lx::sim::TraceForm::Durations: return "durations";
    case lx::sim::TraceForm::Csv: return "csv";
    case lx::sim::TraceForm::Otlp: return "otlp";
    case lx::sim::TraceForm::Client: return "client";
    }
    return "?";
}

} // namespace

int runGenerateCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    Options options;
    if (const std::string why = parse(args, options); !why.empty()) {
        err << "generate: " << why << "\n\n" << kUsage;
        return 1;
    }
    if (options.help) {
        out << kUsage;
        return 0;
    }

    const bool toStdout = options.output == "-";
    std::ofstream file;
    if (!toStdout) {
        file.open(lx::utf8Path(options.output), std::ios::binary | std::ios::trunc);
        if (!file) {
            err << "generate: cannot open '" << options.output << "' for writing\n";
            return 2;
        }
    }
    // Note: on Windows the standard output is in text mode, so --zstd to "-" is only safe elsewhere.
    lx::sim::TraceOutput sink(toStdout ? out : file, options.zstd);

    std::string buffer;
    buffer.reserve(kChunkBytes + 64 * 1024);
    if (options.form == lx::sim::TraceForm::Csv)
        lx::sim::appendCsvHeader(buffer);
    std::int64_t written = 0;
    try {
        lx::sim::simulate(options.config, [&](const lx::sim::SimRequest &request) {
            lx::sim::appendRecord(buffer, options.form, request);
            ++written;
            if (buffer.size() >= kChunkBytes) {
                if (!sink.write(buffer))
                    throw WriteFailed{}; // no point simulating what cannot be written
                buffer.clear();
            }
        });
    } catch (const WriteFailed &) {
    }
    if (sink.error().empty())
        sink.write(buffer);
    const std::string target = toStdout ? std::string("standard output") : "'" + options.output + "'";
    if (!sink.finish()) {
        err << "generate: cannot write to " << target << ": " << sink.error() << '\n';
        return 2;
    }

    err << "generate: wrote " << written << " requests (" << formName(options.form) << " form, "
        << sink.bytesWritten() << " bytes";
    if (options.zstd)
        err << " zstd-compressed from " << sink.bytesIn();
    err << ") to " << target << '\n';
    return 0;
}
