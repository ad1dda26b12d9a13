// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/id_hash.h"
#include "model/request.h"

#include <string>
#include <string_view>

/// \file accept_rules.h
/// What happens to a parsed record on its way to the store, the same whether one thread parses the file
/// (importer.cpp) or several do (parallel_parse.h): its attributes object is closed, its id hashed, a
/// repeated id refused in the same words, and the half line where a zstd stream was cut said to be that.

namespace lx {

/// Closes the record's attribute object (the readers leave it open for appending) and returns its id's hash.
inline std::uint64_t sealAccepted(RequestRecord &record)
{
    if (!record.attributesJson.empty())
        record.attributesJson += '}';
    return hashRequestId(record.id);
}

inline std::string duplicateIdReason(const std::string &id)
{
    return "duplicate id \"" + id + "\" (already used earlier in this file)";
}

/// The reason for rejecting the last line of a truncated zstd stream: no malformed record, a cut one.
inline std::string cutOffReason(std::string_view why)
{
    return "cut off where the zstd stream is truncated (" + std::string(why) + ")";
}

/// The reason for rejecting the last line of a file that ends inside it, with no line end: a file copied
/// or read while it was written, most often (the import's outcome is "truncated" then).
inline std::string endsInsideReason(std::string_view why)
{
    return "the file ends inside this line, with no line end: cut off? (" + std::string(why) + ")";
}

} // namespace lx
