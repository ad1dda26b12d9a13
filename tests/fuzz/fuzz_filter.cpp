// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: the options a user types: a filter expression (docs/FILTER.md), an SLO target and a
// duration. A filter that compiles is run against a small store, so that the SQL it becomes is exercised
// too: a parse that accepts must give a condition SQLite can evaluate.
#include "fuzz_support.h"
#include "fuzz_target.h"

#include "analysis/analysis.h"
#include "analysis/slo.h"
#include "filter/filter_expression.h"
#include "ingest/importer.h"
#include "model/duration_parse.h"
#include "store/store.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <variant>

namespace {

/// Three requests of the sample trace's shape, one an error, one in the durations form.
constexpr char kRequests[] =
    R"({"id":"a","status":"ok","model":"m1","route":"/v1/completions","input_tokens":322,"output_tokens":181,"t_client_send_ns":1735732801292330465,"t_server_recv_ns":1735732801294388791,"t_preprocess_done_ns":1735732801295972872,"t_sched_ns":1735732801295972872,"t_first_token_ns":1735732801328153755,"t_last_token_ns":1735732804151203850,"t_server_send_ns":1735732804155288526,"t_client_recv_ns":1735732804157206973,"region":"eu-west"})"
    "\n"
    R"({"id":"b","status":"error","model":"m2","t_server_recv_ns":1735732802294388791,"t_sched_ns":1735732802395972872,"t_server_send_ns":1735732802455288526})"
    "\n";

const lx::Store &smallStore()
{
    static std::unique_ptr<lx::Store> store = [] {
        const std::string &path = lxfuzz::writeScratch(reinterpret_cast<const std::uint8_t *>(kRequests), sizeof kRequests - 1);
        std::string error;
        std::unique_ptr<lx::Store> s = lx::Store::openTemporary(&error);
        if (!s || lx::importFiles(*s, {path}).front().accepted != 2) {
            std::fprintf(stderr, "fuzz_filter: cannot make its store: %s\n", error.c_str());
            std::abort();
        }
        return s;
    }();
    return *store;
}

} // namespace

LX_FUZZ_TARGET(filter)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    auto filter = lx::filterFromExpression(text);
    if (std::holds_alternative<lx::RequestFilter>(filter))
        lx::analyze(smallStore(), std::get<lx::RequestFilter>(filter));
    std::string why;
    if (auto slo = lx::parseSlo(text, &why))
        lx::evaluateSlos(smallStore(), {}, {*slo});
    lx::parseDurationNs(text, &why);
    return 0;
}
