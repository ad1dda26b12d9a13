// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/request.h"

namespace lx {

namespace {
constexpr std::array<std::string_view, kStampCount> kStampNames = {
    "t_client_send", "t_server_recv", "t_preprocess_done", "t_sched",
    "t_first_token", "t_last_token",  "t_server_send",     "t_client_recv",
};
} // namespace

std::string_view stampName(Stamp s) { return kStampNames[static_cast<int>(s)]; }

std::string_view scopeName(E2eScope s)
{
    switch (s) {
    case E2eScope::Client: return "client";
    case E2eScope::Server: return "server";
    case E2eScope::Engine: return "engine";
    case E2eScope::None: break;
    }
    return "none";
}

void RequestRecord::clear()
{
    id.clear();
    status = Status::Ok;
    model.clear();
    route.clear();
    inputTokens = -1;
    outputTokens = -1;
    stamps.fill(kNotMeasured);
    tokenTimes.clear();
    attributesJson.clear();
    sourceLine = 0;
    metrics = RequestMetrics{};
    metrics.segments.fill(kNotMeasured);
}

} // namespace lx
