// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "filter/row_condition.h"

#include <optional>
#include <string_view>
#include <vector>

/// \file filter_fields.h
/// The fields of the filter language (docs/FILTER.md): each name, what kind of value it takes, the fixed
/// SQL fragment it stands for, and where a request's statistics columns hold it (row_condition.h). The
/// whitelist of filter_expression.cpp: the only column expressions a filter can produce.

namespace lx::filter {

enum class Kind { Duration, Count, Status, Segment, Scope, Text, Time, SourceId, Flag, Attribute };

using RowField = RowCondition::Field;

struct Field {
    std::string_view name;
    Kind kind;
    std::string_view sql; ///< the fixed fragment the name stands for
    /// What the field is among a request's statistics columns (row_condition.h), if it is one of them.
    std::optional<RowField> row = std::nullopt;
    int rowDetail = 0; ///< the segment's index, the flag's bit
};

/// Every field, built once: e2e, the segments, the rest.
const std::vector<Field> &fields();

/// The field a name was probably meant to be. Strict, since any other name is a valid attribute: short
/// names only as a prefix ("e2" -> e2e, but "ip" is no typo of "id").
const Field *typoOf(std::string_view name);

} // namespace lx::filter
