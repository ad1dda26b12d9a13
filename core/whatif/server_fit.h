// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/stamp_scan.h"
#include "whatif/estimates.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

/// \file server_fit.h
/// A model of the server fitted from an investigation's own requests (docs/WHATIF.md): a FIFO queue in
/// front of a concurrency limit (the slots of continuous batching), prefill as a line in the input tokens,
/// the time per output token as a line in the batch a request joined, and what the rest took (network,
/// preprocess, postprocess, the admission wait) as observed. Every parameter carries its standard error
/// and the requests behind it, or why the trace cannot give it.

namespace lx {
class Store;
}

namespace lx::whatif {

/// What one served request leaves beside the fitted lines: the part of it that the model does not
/// explain, which a replay gives back to the same request (or to a request of an external trace that
/// borrows it). Times in ns, kNotMeasured where the request lacks the stamps.
struct Residuals {
    bool served = false;        ///< it was scheduled and produced its tokens (sched, first and last token)
    std::int64_t networkIn = kNotMeasured, networkOut = kNotMeasured;
    std::int64_t preprocess = 0, postprocess = 0;
    double prefillRatio = 1;    ///< observed prefill / the line's, 1 without input tokens
    double tpotRatio = 1;       ///< observed TPOT / the line's at its batch, 1 below 2 output tokens
    std::int64_t prefillNs = 0, decodeNs = 0; ///< as observed, for requests without token counts
    int batch = 0;              ///< requests in service when it was scheduled, itself included
};

struct ServerFit {
    std::int64_t requests = 0;          ///< in the investigation
    std::int64_t served = 0;            ///< with the server stamps a fit needs
    /// The most requests in service at once (scheduled, last token not yet out): the slots of the batch.
    Estimate concurrencyLimit;
    /// True when requests waited in the queue while the server held that many: the limit was reached, so
    /// the value is the limit; otherwise it is a lower bound and concurrencyLimit.refused says so.
    bool limitReached = false;
    Estimate prefillBaseNs, prefillPerTokenNs;  ///< prefill = base + per token * input tokens
    Estimate tpotBaseNs, tpotPerRequestNs;      ///< TPOT = base + per request * batch
    EmpiricalDistribution networkIn, networkOut, preprocess, postprocess;
    EmpiricalDistribution admissionWait;        ///< queue time of requests that found a free slot
    EmpiricalDistribution prefillRatio, tpotRatio;
    std::vector<Residuals> residuals;           ///< one per request fitted from, in their order
    /// The trace had client times only (a benchmark client's send, TTFT and end): the server stamps the fit
    /// was made from were inferred (client_inference.h), with the network, preprocess and postprocess
    /// inside queue, prefill and decode.
    bool inferredFromClient = false;
    /// The records held durations, not stamps (the durations form, OTLP spans): the stamps the fit was made
    /// from were rebuilt from the segments (segment_stamps.h).
    bool stampsFromSegments = false;
    double inconsistentShare = 0; ///< with inferred stamps: the share scheduled after their first token
    /// Why no model can be fitted at all ("no server stamps: no queue can be fitted"); empty when it can.
    std::string refused;

    bool ok() const { return refused.empty(); }
    /// The model as one JSON object (ms and counts): what `whatif --json` prints and the simulated store's meta holds.
    std::string toJson() const;
};

/// The fewest requests with server stamps a model is fitted from.
inline constexpr std::int64_t kMinFitRequests = 10;

/// Fits the model to the requests (store order). Refused, with the reason, when fewer than kMinFitRequests
/// have the stamps from the server's receive to the last token.
ServerFit fitServer(std::span<const StampRow> rows);

/// Reads the store's requests that \a filter keeps and fits them (fitServerOrInfer() of client_fit.h); nullopt
/// with the reason when the store cannot be read.
std::optional<ServerFit> fitServer(const Store &store, const RequestFilter &filter, std::vector<StampRow> *rows, std::string *error);

} // namespace lx::whatif
