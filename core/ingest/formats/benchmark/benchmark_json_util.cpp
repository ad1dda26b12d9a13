// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/formats/benchmark/benchmark_json_util.h"

#include "ingest/formats/native/native_fields.h"

namespace lx::bench {

void addAttribute(RequestRecord &record, std::string_view key, dom::element value)
{
    appendJsonKey(record.attributesJson, key);
    record.attributesJson += simdjson::minify(value);
}

void addAttributeText(RequestRecord &record, std::string_view key, std::string_view text)
{
    appendJsonKey(record.attributesJson, key);
    appendJsonString(record.attributesJson, text);
}

} // namespace lx::bench
