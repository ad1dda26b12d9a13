// SPDX-License-Identifier: GPL-3.0-or-later
#include "fuzz_support.h"

#include "analysis/diagnosis.h"
#include "filter/filter_expression.h"
#include "ingest/accept_rules.h"
#include "ingest/format_registry.h"
#include "ingest/input_file.h"
#include "ingest/line_reader.h"
#include "ingest/open_inputs.h"
#include "model/request.h"
#include "platform/utf8_path.h"
#include "report/report_format.h"
#include "report/report_sections.h"
#include "store/store.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#ifdef _WIN32
#include <process.h>
#define getpid _getpid
#else
#include <unistd.h>
#endif
#include <variant>

namespace lxfuzz {
namespace {

/// Takes what a reader hands out and checks it; keeps nothing, so a long campaign's memory stays flat.
class CheckingSink final : public lx::ImportSink {
public:
    lx::RequestRecord &slot() override
    {
        m_record.clear();
        return m_record;
    }
    void accept(std::string_view) override
    {
        lx::sealAccepted(m_record);
        checkRecord(m_record);
    }
    void reject(std::int64_t line, std::string_view reason, std::string_view) override
    {
        if (line < 0 || reason.empty()) {
            std::fprintf(stderr, "rejection without a line or a reason: line %lld, reason '%.*s'\n",
                         static_cast<long long>(line), static_cast<int>(reason.size()), reason.data());
            std::abort();
        }
    }
    bool keepGoing() override { return true; }

private:
    lx::RequestRecord m_record;
};

} // namespace

const std::string &writeScratch(const std::uint8_t *data, std::size_t size)
{
    // UTF-8, as the core takes file names (a Windows temporary folder under a non-ASCII user name).
    static const std::string path = lx::utf8Name(std::filesystem::temp_directory_path()
                                                 / ("lx-fuzz-" + std::to_string(getpid()) + ".input"));
    // A journal left by the last input would be rolled into this one when it is opened as a store: an
    // input's outcome must depend on its own bytes only.
    for (const char *suffix : {"-journal", "-wal", "-shm"})
        std::filesystem::remove(lx::utf8Path(path + suffix));
    std::ofstream out(lx::utf8Path(path), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(data), static_cast<std::streamsize>(size));
    return path;
}

void readAs(const std::uint8_t *data, std::size_t size, std::initializer_list<std::string_view> formats,
            std::shared_ptr<const lx::SpanMappings> mappings)
{
    const std::string &path = writeScratch(data, size);
    for (const lx::TraceFormat &format : lx::traceFormats()) {
        bool wanted = false;
        for (std::string_view name : formats)
            wanted = wanted || name == format.name;
        if (!wanted)
            continue;
        std::string error;
        std::unique_ptr<lx::InputFile> input = lx::InputFile::open(path, &error);
        if (!input)
            continue;
        lx::LineReader lines(*input);
        std::string whyNot;
        lx::sniffFormat(lines.head(), &whyNot);
        format.canRead(lines.head());
        std::unique_ptr<lx::TraceReader> reader = format.create(lx::ReaderOptions{mappings});
        CheckingSink sink;
        reader->read(lines, sink);
        (void)reader->notice();
    }
}

void checkRecord(const lx::RequestRecord &record)
{
    const lx::RequestMetrics &m = record.metrics;
    if (record.sourceLine <= 0) {
        std::fprintf(stderr, "accepted record without a line number (%lld)\n", static_cast<long long>(record.sourceLine));
        std::abort();
    }
    if (!lx::isMeasured(m.e2e))
        return;
    // Summed modulo 2^64, as int64 sums are when they do not overflow; decompose()'s own overflow is the
    // undefined-behaviour sanitizer's to find.
    std::uint64_t sum = 0;
    for (std::int64_t segment : m.segments) {
        if (lx::isMeasured(segment))
            sum += static_cast<std::uint64_t>(segment);
    }
    if (sum != static_cast<std::uint64_t>(m.e2e)) {
        std::fprintf(stderr, "segments add up to %lld, e2e is %lld (line %lld)\n", static_cast<long long>(static_cast<std::int64_t>(sum)),
                     static_cast<long long>(m.e2e), static_cast<long long>(record.sourceLine));
        std::abort();
    }
}


void reportOn(const std::string &path, const std::string &filterText)
{
    lx::RequestFilter filter;
    if (!filterText.empty()) {
        auto parsed = lx::filterFromExpression(filterText);
        if (!std::holds_alternative<lx::RequestFilter>(parsed))
            return;
        filter = std::get<lx::RequestFilter>(parsed);
    }
    lx::OpenedInputs opened = lx::openInputs(lx::planOpenInputs({path}), lx::OpenOptions{});
    if (!opened.store)
        return;
    const lx::Diagnosis diagnosis = lx::diagnose(*opened.store, filter);
    const std::string json = lx::withMembers(lx::reportToJson(diagnosis.report),
                                             {{"load", lx::loadToJson(diagnosis.load)},
                                              {"findings", lx::findingsToJson(diagnosis.findings)}});
    if (json.empty() || json.front() != '{')
        std::abort();
}

} // namespace lxfuzz
