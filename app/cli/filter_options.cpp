// SPDX-License-Identifier: GPL-3.0-or-later
#include "filter_options.h"

#include "cli_args.h"
#include "filter/filter_expression.h"

#include <algorithm>

std::string filterUsage(bool withTimeRange)
{
    std::string usage = "  --filter EXPR          only the requests the expression selects (docs/FILTER.md; repeatable,\n"
                        "                         ANDed with each other and with the options below)\n"
                        "  --model NAME           only this model (repeatable: any of them)\n"
                        "  --route NAME           only this route (repeatable: any of them)\n"
                        "  --status ok|error      only requests with this status\n";
    if (withTimeRange)
        usage += "  --time-range FROM..TO  request start in [FROM, TO): ns since the epoch or ISO-8601 UTC\n"
                 "                         (2025-01-01, 2025-01-01T12:01Z, 2025-01-01T12:01:30.5Z)\n";
    return usage;
}

bool parseFilterOption(CliArgs &args, FilterOptions &options, std::string &error)
{
    std::string value;
    if (args.option("--filter", value)) {
        options.expressions.push_back(value);
        options.given.push_back("--filter '" + value + "'");
    } else if (args.option("--model", value)) {
        options.filter.models.push_back(value);
        options.given.push_back("--model " + value);
    } else if (args.option("--route", value)) {
        options.filter.routes.push_back(value);
        options.given.push_back("--route " + value);
    } else if (args.option("--status", value)) {
        options.given.push_back("--status " + value);
        if (value != "ok" && value != "error")
            error = "--status takes ok or error, not '" + value + "'";
        else
            options.filter.status = value == "ok" ? lx::Status::Ok : lx::Status::Error;
    } else if (options.allowTimeRange && args.option("--time-range", value)) {
        std::string why;
        if (!lx::parseTimeRange(value, options.filter, &why))
            error = "--time-range: " + why;
        options.given.push_back("--time-range " + value);
    } else {
        return false;
    }
    return true;
}

bool compileFilterOptions(FilterOptions &options, const char *command, std::ostream &err)
{
    std::vector<lx::SqlCondition> parts;
    for (const std::string &text : options.expressions) {
        auto compiled = lx::compileFilterExpression(text);
        if (const auto *error = std::get_if<lx::FilterError>(&compiled)) {
            // The expression again with a caret line under the offending token, as the filter bar underlines it.
            const std::size_t length = std::max<std::size_t>(error->length, 1);
            err << command << ": --filter: " << error->message << " (at character " << error->position + 1 << ")\n"
                << "  " << text << "\n  " << std::string(error->position, ' ') << std::string(length, '^') << '\n';
            return false;
        }
        parts.push_back(std::move(std::get<lx::SqlCondition>(compiled)));
    }
    // An empty expression selects everything: leave the filter without a condition, as the filter bar does.
    std::erase_if(parts, [](const lx::SqlCondition &part) { return part.sql == "1" && part.values.empty(); });
    if (!parts.empty())
        options.filter.expression = lx::allOf(parts);
    return true;
}

std::string givenText(const FilterOptions &options)
{
    std::string text;
    for (const std::string &option : options.given)
        text += (text.empty() ? "" : " ") + option;
    return text;
}

lx::RequestFilter withinWindow(const FilterOptions &options, const lx::RequestFilter &window)
{
    lx::RequestFilter filter = options.filter;
    filter.fromNs = window.fromNs;
    filter.toNs = window.toNs;
    return filter;
}
