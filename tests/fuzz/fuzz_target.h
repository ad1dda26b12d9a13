// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>

/// \file fuzz_target.h
/// LX_FUZZ_TARGET(name) { ... } defines one fuzz target's body over (data, size). Built for a campaign
/// (-DLX_FUZZ=ON, the `fuzz` preset) it is libFuzzer's LLVMFuzzerTestOneInput, one executable per target;
/// in every other build all targets are linked into one `fuzz_replay` executable that ctest runs over the
/// regression corpus (tests/fuzz/corpus/<name>/), so that whatever a campaign once found stays fixed.

namespace lxfuzz {

using TargetFunction = int (*)(const std::uint8_t *data, std::size_t size);

/// Adds a target to the replay executable's table (replay_main.cpp).
struct Registration {
    Registration(const char *name, TargetFunction function);
};

} // namespace lxfuzz

#ifdef LX_LIBFUZZER
#define LX_FUZZ_TARGET(name) extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
#else
#define LX_FUZZ_TARGET(name)                                                                              \
    static int lxFuzz_##name(const std::uint8_t *data, std::size_t size);                                 \
    static const lxfuzz::Registration lxFuzzRegistration_##name(#name, lxFuzz_##name);                    \
    static int lxFuzz_##name(const std::uint8_t *data, std::size_t size)
#endif
