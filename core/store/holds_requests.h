// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

/// \file holds_requests.h
/// Whether an investigation has anything to analyse: the CLI's exit status 2 when no input gave a request
/// (an empty report is not a success a script should take for one).

namespace lx {

class Store;

/// True when the store holds at least one request. Asks for one row, not a count, so that it costs the
/// same on a store of millions; false too when the store cannot be read.
bool holdsRequests(const Store &store);

} // namespace lx
