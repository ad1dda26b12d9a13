// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/span_mapping.h"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>

/// \file fuzz_support.h
/// What the fuzz targets share: a scratch file per process (the readers take files, as the importer gives
/// them), reading an input as given formats through a sink that checks every record it is handed, and the
/// invariant of the decomposition that no input may break.

namespace lx {
struct RequestRecord;
}

namespace lxfuzz {

/// This process's scratch file (in TMPDIR), rewritten with `bytes`; its path.
const std::string &writeScratch(const std::uint8_t *data, std::size_t size);

/// Reads the input as each of the named formats (format_registry.h), from the start each time, as the
/// single-threaded import does: the format's own reader, whether or not its sniffer accepts the bytes.
/// Every accepted record must satisfy checkRecord(). `mappings` is the OTLP readers' span mapping (null: auto).
void readAs(const std::uint8_t *data, std::size_t size, std::initializer_list<std::string_view> formats,
            std::shared_ptr<const lx::SpanMappings> mappings = {});

/// Aborts (a finding) when an accepted record breaks docs/DOMAIN.md: a measured e2e that the measured
/// segments and the unattributed remainder do not add up to, or a line number that is not positive.
void checkRecord(const lx::RequestRecord &record);

/// Opens `path` as the CLI's `report` does (open_inputs.h: a store is resumed, a trace file imported into a
/// temporary store) and, when that gives a store, computes and formats the whole diagnosis as `report
/// --json` would, with `filter` (a filter expression; empty for all requests).
void reportOn(const std::string &path, const std::string &filter = {});

} // namespace lxfuzz
