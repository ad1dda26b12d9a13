// SPDX-License-Identifier: GPL-3.0-or-later
#include "terminal_progress.h"

#include "console.h"
#include "interrupt_signal.h"
#include "model/duration_format.h"

#include <chrono>
#include <cstdio>
#include <memory>

lx::ProgressCallback terminalProgress(std::ostream &err)
{
    const bool drawing = stderrIsTerminal();
    using Clock = std::chrono::steady_clock;
    struct State {
        Clock::time_point start = Clock::now();
        Clock::time_point lastDraw{};
        bool drawn = false;
    };
    auto state = std::make_shared<State>();
    return [&err, drawing, state](const lx::ImportProgress &progress) {
        const std::uint64_t done = progress.bytesDone;
        const std::uint64_t total = progress.bytesTotal;
        if (!drawing)
            return !interrupted();
        const auto now = Clock::now();
        const bool finished = total > 0 && done >= total;
        if (!finished && now - state->lastDraw < std::chrono::milliseconds(100))
            return !interrupted();
        state->lastDraw = now;
        if (progress.joining) {
            err << "\rjoining client and server records\033[K" << std::flush;
            state->drawn = true;
            return true;
        }
        if (finished) {
            if (state->drawn)
                err << "\r\033[K" << std::flush; // clear the line for the summary that follows
            return !interrupted();
        }
        const double elapsed = std::chrono::duration<double>(now - state->start).count();
        const double fraction = total ? static_cast<double>(done) / static_cast<double>(total) : 0.0;
        char line[160];
        std::snprintf(line, sizeof line, "\rimporting %3.0f%%  %.0f of %.0f MB  %s left  (Ctrl-C cancels)\033[K",
                      100.0 * fraction, static_cast<double>(done) / 1e6, static_cast<double>(total) / 1e6,
                      fraction > 0.01 ? lx::formatDuration(elapsed * (1 - fraction) / fraction * 1e9).c_str() : "?");
        err << line << std::flush;
        state->drawn = true;
        return !interrupted();
    };
}
