// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/temporary_files.h"

#include "platform/utf8_path.h"

#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <mutex>
#include <thread>
#include <system_error>
#include <unordered_map>
#include <vector>

namespace lx::temporary_files {

namespace {

/// Removes the file and its journal; false when the file is still there (Windows: a handle still open).
bool removeNow(const std::string &file)
{
    std::error_code ec;
    std::filesystem::remove(utf8Path(file + "-journal"), ec);
    std::filesystem::remove(utf8Path(file), ec);
    return !std::filesystem::exists(utf8Path(file), ec);
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
    std::vector<std::string> failed; ///< could not be removed: tried again at the end of the process
    int removing = 0;              ///< taken from the queue, being removed
    bool workerStarted = false;
    bool exiting = false;          ///< the process is ending: no worker to count on, files go at once

    /// Under the lock: removes `it`'s file, by the worker, once nothing holds it any more.
    void removeIfDone(std::unordered_map<std::string, File>::iterator it)
    {
        if (!it->second.released || it->second.connections > 0)
            return;
        const std::string file = it->first;
        files.erase(it);
        if (exiting || !startWorker()) {
            removeOrKeep(file);
            return;
        }
        queue.push_back(file);
        changed.notify_all();
    }

    /// Under the lock: whether the worker runs (started now if not). A thread the system refuses leaves
    /// the removals to the caller, never an exception out of a destructor.
    bool startWorker()
    {
        if (workerStarted)
            return true;
        try {
            std::thread([this] { work(); }).detach(); // lives as long as the process; the registry too
            workerStarted = true;
        } catch (const std::system_error &) {
        }
        return workerStarted;
    }

    void removeOrKeep(const std::string &file)
    {
        if (!removeNow(file))
            failed.push_back(file);
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
            const bool removed = removeNow(file);
            lock.lock();
            if (!removed)
                failed.push_back(file);
            --removing;
            changed.notify_all();
        }
    }

    /// At the end of the process: every temporary file goes now, connections or not (they end with it),
    /// and whatever is released later (a static object's store) goes at once.
    void removeAllLeft()
    {
        std::unique_lock lock(mutex);
        exiting = true;
        changed.wait(lock, [&] { return removing == 0; });
        for (const std::string &file : queue)
            removeNow(file);
        queue.clear();
        for (const auto &[file, state] : files)
            removeNow(file);
        for (const std::string &file : failed)
            removeNow(file);
        failed.clear();
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

bool opened(const std::string &file)
{
    Registry &r = registry();
    const std::lock_guard lock(r.mutex);
    const auto it = r.files.find(file);
    if (it == r.files.end())
        return false;
    ++it->second.connections;
    return true;
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
