// SPDX-License-Identifier: GPL-3.0-or-later
#include "interrupt_signal.h"

#if defined(_WIN32)
#include <windows.h>

#include <atomic>
#else
#include <csignal>
#endif

namespace {

#if defined(_WIN32)

// The console calls the handler on a thread of its own: an atomic, not a sig_atomic_t.
std::atomic<bool> g_interrupted = false;

BOOL WINAPI onConsoleControl(DWORD event)
{
    if (event != CTRL_C_EVENT && event != CTRL_BREAK_EVENT)
        return FALSE; // closing the console, logging off: the default handler ends the process
    if (g_interrupted.exchange(true))
        return FALSE; // the second Ctrl-C: the default handler ends the process at once
    return TRUE;
}

#else // Linux, macOS

volatile std::sig_atomic_t g_interrupted = 0;

extern "C" void onInterrupt(int signal)
{
    if (g_interrupted) {
        std::signal(signal, SIG_DFL);
        std::raise(signal);
        return;
    }
    g_interrupted = 1;
}

#endif

} // namespace

#if defined(_WIN32)

void catchInterrupt() { ::SetConsoleCtrlHandler(onConsoleControl, TRUE); }

bool interrupted() { return g_interrupted.load(); }

#else

// SIGTERM too (a supervisor's `kill`, a CI's timeout): cancelled like Ctrl-C, so that an import rolls back
// its file and `report FILE` removes its temporary store rather than leave hundreds of MB behind.
void catchInterrupt()
{
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
}

bool interrupted() { return g_interrupted != 0; }

#endif
