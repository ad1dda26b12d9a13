// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: a span-mapping file (docs/OTLP.md "Mapping files"). One that parses is applied to the
// golden OTLP/JSON spans, so that whatever a mapping may say is exercised on real spans.
#include "fuzz_support.h"
#include "fuzz_target.h"

#include "ingest/span_mapping.h"

#include <fstream>
#include <iterator>
#include <string>

LX_FUZZ_TARGET(span_mapping)
{
    static const std::string spans = [] {
        std::ifstream in(LX_SOURCE_DIR "/tests/golden/otlp_json/spans.otlp.jsonl", std::ios::binary);
        return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    }();
    std::string error;
    const auto mappings = lx::parseSpanMappingJson({reinterpret_cast<const char *>(data), size}, &error);
    if (mappings)
        lxfuzz::readAs(reinterpret_cast<const std::uint8_t *>(spans.data()), spans.size(), {"otlp-json"}, mappings);
    return 0;
}
