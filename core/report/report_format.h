// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/analysis.h"

#include <string>

/// \file report_format.h
/// The report as JSON (the shape scripts rely on, documented in README.md) and as a table for people.

namespace lx {

/// {"requests": {...}, "segments": {...}, "e2e": S, "tokens": {...}, "dominant": {...}, ...}; times in ms.
std::string reportToJson(const Report &report);

/// A readable plain-text table of the same numbers.
std::string reportToText(const Report &report);

/// "Client and server records joined: 20 matched, 1 client only, 0 server only (network = client e2e -
/// server e2e)": the text report and the GUI's summary say the same (JoinSummary::active).
std::string joinSentence(const JoinSummary &join);

/// "Simulated: a what-if replay (whatif), not measured on a server; ...": said of a report on whatif's store
/// (Report::simulated()) in every form.
std::string simulatedSentence();

/// "Times of 7 requests are relative to the start of their trace or request (no wall-clock date).", or
/// empty when there are none (Report::relativeTime): the text report and the GUI's summary say the same.
std::string relativeTimeSentence(std::int64_t requests);

/// What to make of requests none of which has a measured time (a workload trace: arrivals and token counts,
/// Azure's or Mooncake's), or empty when some time is measured or there is no request: the text report,
/// the incident report and the GUI's summary say it instead of leaving a table of "-" to explain itself.
std::string noLatencySentence(const Report &report);

} // namespace lx
