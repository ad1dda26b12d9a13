// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/temporary_files.h"

#include "platform/utf8_path.h"

#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace lx::temporary_files {

namespace {

void removeNow(const std::string &file)
{
    std::error_code ec;
    std::filesystem::remove(utf8Path(file), ec);
    std::filesystem::remove(utf8Path(file + "-journal"), ec);
}

struct Registry {
    struct File {
        int connections = 0;
        bool released = false;
    };
    std::mutex mutex;
    std::condition_variable changed;
    std::unordered_map<std::string, File> files;
    std::deque<std::string> queue; ///< released, closed, not removed yet
    int removing = 0;              ///< taken from the queue, being removed
    bool workerStarted = false;

    /// Under the lock: queues `it`'s file when nothing holds it any more.
    void removeIfDone(std::unordered_map<std::string, File>::iterator it)
    {
        if (!it->second.released || it->second.connections > 0)
            return;
        queue.push_back(it->first);
        files.erase(it);
        if (!workerStarted) {
            workerStarted = true;
            std::thread([this] { work(); }).detach(); // lives as long as the process; the registry too
        }
        changed.notify_all();
    }

    void work()
    {
        std::unique_lock lock(mutex);
        for (;;) {
            changed.wait(lock, [&] { return !queue.empty(); });
            const std::string file = std::move(queue.front());
            queue.pop_front();
            ++removing;
            lock.unlock();
            removeNow(file);
            lock.lock();
            --removing;
            changed.notify_all();
        }
    }

    /// At the end of the process: what is still to go goes now, connections or not (they end with it).
    void removeAllLeft()
    {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return removing == 0; });
        for (const std::string &file : queue)
            removeNow(file);
        queue.clear();
        for (const auto &[file, state] : files) {
            if (state.released)
                removeNow(file);
        }
    }
};

/// Never destroyed: connections may close during the process's end, after static objects are gone.
Registry &registry()
{
    static Registry *r = [] {
        auto *made = new Registry;
        std::atexit([] { registry().removeAllLeft(); });
        return made;
    }();
    return *r;
}

} // namespace

void track(const std::string &file)
{
    Registry &r = registry();
    const std::lock_guard lock(r.mutex);
    r.files[file] = {};
}

void opened(const std::string &file)
{
    Registry &r = registry();
    const std::lock_guard lock(r.mutex);
    if (auto it = r.files.find(file); it != r.files.end())
        ++it->second.connections;
}

void closed(const std::string &file)
{
    Registry &r = registry();
    const std::lock_guard lock(r.mutex);
    if (auto it = r.files.find(file); it != r.files.end()) {
        --it->second.connections;
        r.removeIfDone(it);
    }
}

void release(const std::string &file)
{
    Registry &r = registry();
    const std::lock_guard lock(r.mutex);
    if (auto it = r.files.find(file); it != r.files.end()) {
        it->second.released = true;
        r.removeIfDone(it);
    }
}

void waitForRemovals()
{
    Registry &r = registry();
    std::unique_lock lock(r.mutex);
    r.changed.wait(lock, [&] { return r.queue.empty() && r.removing == 0; });
}

} // namespace lx::temporary_files
