// SPDX-License-Identifier: GPL-3.0-or-later
// fuzz_replay TARGET PATH...: runs one fuzz target over every file of the given files and folders, as
// libFuzzer would run it over a corpus. A crash or a sanitizer report fails the ctest row.
#include "fuzz_target.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

namespace {

std::map<std::string, lxfuzz::TargetFunction> &targets()
{
    static std::map<std::string, lxfuzz::TargetFunction> table;
    return table;
}

std::vector<std::filesystem::path> inputsOf(const std::filesystem::path &path)
{
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(path)) {
        for (const auto &entry : std::filesystem::directory_iterator(path)) {
            if (entry.is_regular_file())
                files.push_back(entry.path());
        }
        std::sort(files.begin(), files.end()); // the same order on every run, for a reproducible failure
    } else {
        files.push_back(path);
    }
    return files;
}

} // namespace

lxfuzz::Registration::Registration(const char *name, TargetFunction function)
{
    targets()[name] = function;
}

int main(int argc, char **argv)
{
    if (argc < 3 || !targets().count(argv[1])) {
        std::fprintf(stderr, "usage: fuzz_replay TARGET FILE_OR_FOLDER...\ntargets:");
        for (const auto &[name, function] : targets())
            std::fprintf(stderr, " %s", name.c_str());
        std::fprintf(stderr, "\n");
        return 1;
    }
    const lxfuzz::TargetFunction run = targets()[argv[1]];
    int replayed = 0;
    for (int i = 2; i < argc; ++i) {
        for (const std::filesystem::path &file : inputsOf(argv[i])) {
            std::ifstream in(file, std::ios::binary);
            const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            std::fprintf(stderr, "%s\n", file.filename().string().c_str()); // names the input a crash came from
            run(reinterpret_cast<const std::uint8_t *>(bytes.data()), bytes.size());
            ++replayed;
        }
    }
    std::printf("%s: %d inputs replayed\n", argv[1], replayed);
    return replayed > 0 ? 0 : 1; // an empty corpus is a mistake in the test, not a pass
}
