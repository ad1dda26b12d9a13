// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/stamp_scan.h"
#include "whatif/server_fit.h"

#include <vector>

/// \file client_fit.h
/// The model for a trace measured at the client only: the fit to its server stamps as inferred from the
/// client's times (client_inference.h), with the consistent limit. That limit is an upper estimate by a
/// slot or so: the client's end comes after the slot's release (by the postprocess and the way back), so
/// with the true number of slots the implied queue of an overloaded trace falls further behind with every
/// request it serves, and schedules most requests after their first token. The queue past the knee is then
/// predicted short (docs/WHATIF.md has the figures).

namespace lx::whatif {

/// fitServer(); for rows without server stamps, the fit to the stamps rebuilt from their segments
/// (segment_stamps.h: the durations form, OTLP spans) or else inferred from their client times; \a rows
/// then become the rebuilt or inferred rows, which a replay of the observed arrivals takes.
ServerFit fitServerOrInfer(std::vector<StampRow> &rows);

} // namespace lx::whatif
