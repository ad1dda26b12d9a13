// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "source/clickhouse_endpoint.h"
#include "source/otel_traces_rows.h"

#include <QString>

#include <cstdint>
#include <string>

/// \file trace_store_pull.h
/// A pull chosen in File ▸ Open from Trace Store (trace_store_dialog.h), for Investigation::pull().

struct TraceStorePull {
    lx::source::ClickHouseEndpoint endpoint;
    lx::source::SpanWindow window;
    /// Typed in the dialog or read from the keychain; empty: LX_CLICKHOUSE_PASSWORD, if set. Held in memory
    /// for the pull's length (never written anywhere).
    std::string password;
    QString mapping;                ///< as lx::ImportOptions::spanMapping: "" automatic, a preset, a file
    std::uint64_t expectedSpans = 0; ///< what the count before the pull said, for the progress bar; 0 unknown
};

/// A short name of the pull for the title bar: "otel.otel_traces on ch.internal:8123".
QString traceStoreTitle(const lx::source::ClickHouseEndpoint &endpoint);
