// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/load_analysis.h"

#include <string>

/// \file knee_text.h
/// The one rounding of the knee's figures, so that the sentence, the findings, the reports and the load
/// charts' labels say the same "2.52 req/s, 7 in flight" of one knee.

namespace lx {

/// The knee's rate: three significant digits, whole numbers from 100 on ("2.52", "41.2", "326"). The rate
/// at the knee is a capacity, which people compare to a second figure: two digits ("2.5") lose a 2%.
std::string kneeRateText(double rps);

/// Requests in flight at the knee: whole numbers from 1 on ("7", "37"), two significant digits below ("0.45").
std::string kneeInFlightText(double inFlight);

/// "2.52 req/s, 7 in flight".
std::string kneeText(const Knee &knee);

} // namespace lx
