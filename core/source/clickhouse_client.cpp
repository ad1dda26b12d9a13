// SPDX-License-Identifier: GPL-3.0-or-later
#include "source/clickhouse_client.h"

#include "source/zstd_stream_decoder.h"

#include <curl/curl.h>

#include <cstdlib>
#include <memory>
#include <mutex>

namespace lx::source {

namespace {

/// The error body kept for the message: ClickHouse's error texts are short; a proxy's page is not.
constexpr std::size_t kMaxErrorBodyBytes = 64 * 1024;

void initCurlOnce()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string trimmed(std::string_view text)
{
    while (!text.empty() && (text.back() == '\r' || text.back() == '\n' || text.back() == ' '))
        text.remove_suffix(1);
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    return std::string(text);
}

bool equalsIgnoringCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
        if (lower(a[i]) != lower(b[i]))
            return false;
    }
    return true;
}

/// The state of one transfer, shared by libcurl's callbacks.
struct Transfer {
    CURL *curl = nullptr;
    const ClickHouseRowCallback *onRow = nullptr;
    const ClickHouseProgressCallback *onProgress = nullptr;
    const std::function<bool(std::uint64_t)> *keepGoing = nullptr;
    ClickHouseResult result;
    std::unique_ptr<ZstdStreamDecoder> decoder; ///< when the body is zstd-compressed
    ClickHouseLineSplitter splitter{[this](std::string_view row) { return (*onRow)(row); }};
    std::string errorBody; ///< the body of an HTTP error status
    bool cancelled = false;
    bool badBody = false;
    bool compressedBody = false;

    long status() const
    {
        long code = 0;
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
        return code;
    }

    /// Decoded body bytes: rows for a success, the message for an error status.
    bool decoded(std::string_view bytes)
    {
        if (result.httpStatus >= 400) {
            if (errorBody.size() < kMaxErrorBodyBytes)
                errorBody.append(bytes.substr(0, kMaxErrorBodyBytes - errorBody.size()));
            return true;
        }
        if (!splitter.push(bytes)) {
            cancelled = true;
            return false;
        }
        return true;
    }
};

std::size_t onHeader(char *data, std::size_t size, std::size_t count, void *user)
{
    auto &t = *static_cast<Transfer *>(user);
    const std::string_view line(data, size * count);
    if (line.starts_with("HTTP/")) { // a new response (after a 100 Continue): forget the last one's headers
        t.compressedBody = false;
        return size * count;
    }
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos)
        return size * count;
    const std::string_view name = line.substr(0, colon);
    const std::string value = trimmed(line.substr(colon + 1));
    if (equalsIgnoringCase(name, "Content-Encoding")) {
        t.compressedBody = equalsIgnoringCase(value, "zstd");
    } else if (equalsIgnoringCase(name, "X-ClickHouse-Exception-Code")) {
        t.result.exceptionCode = std::atoi(value.c_str());
    } else if (equalsIgnoringCase(name, "X-ClickHouse-Progress")) {
        if (const auto progress = parseProgressHeader(value)) {
            t.result.progress = *progress;
            if (*t.onProgress && !(*t.onProgress)(*progress, t.splitter.rows())) {
                t.cancelled = true;
                return 0; // aborts the transfer
            }
        }
    }
    return size * count;
}

std::size_t onBody(char *data, std::size_t size, std::size_t count, void *user)
{
    auto &t = *static_cast<Transfer *>(user);
    const std::string_view bytes(data, size * count);
    if (t.result.httpStatus == 0)
        t.result.httpStatus = t.status();
    t.result.bodyBytes += bytes.size();
    if (t.compressedBody) {
        if (!t.decoder)
            t.decoder = std::make_unique<ZstdStreamDecoder>([&t](std::string_view decoded) { return t.decoded(decoded); });
        if (!t.decoder->feed(bytes)) {
            t.badBody = !t.cancelled;
            return 0;
        }
        return bytes.size();
    }
    return t.decoded(bytes) ? bytes.size() : 0;
}

int onTick(void *user, curl_off_t, curl_off_t, curl_off_t, curl_off_t)
{
    auto &t = *static_cast<Transfer *>(user);
    if (*t.keepGoing && !(*t.keepGoing)(t.result.bodyBytes)) {
        t.cancelled = true;
        return 1; // aborts the transfer
    }
    return 0;
}

struct CurlDeleter {
    void operator()(CURL *curl) const { curl_easy_cleanup(curl); }
};
struct HeaderListDeleter {
    void operator()(curl_slist *list) const { curl_slist_free_all(list); }
};

/// A parameter's value as ClickHouse reads `param_*` values: in its escaped (TSV) form, where a backslash
/// starts an escape sequence and a tab or a line end would end the value. An Identifier's value is taken
/// as it is.
std::string escapedParameter(const ClickHouseQuery &query, const std::string &name, const std::string &value)
{
    if (query.sql.find("{" + name + ":Identifier}") != std::string::npos)
        return value;
    std::string out;
    out.reserve(value.size());
    for (const char c : value) {
        switch (c) {
        case '\\': out += "\\\\"; break;
        case '\t': out += "\\t"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\0': out += "\\0"; break;
        default: out += c;
        }
    }
    return out;
}

} // namespace

std::string clickHouseRequestUrl(const ClickHouseEndpoint &endpoint, const ClickHouseQuery &query, bool compress)
{
    // A query whose client goes away (a cancel, a timeout, Ctrl-C, the dialog's next question) is stopped on
    // the server too: ClickHouse's default runs it to its end, on a production cluster.
    std::string url = endpoint.httpBase() + "?database=" + urlEncode(endpoint.database)
                      + "&default_format=" + urlEncode(query.format)
                      + "&send_progress_in_http_headers=1&cancel_http_readonly_queries_on_client_close=1";
    if (compress)
        url += "&enable_http_compression=1";
    for (const auto &[name, value] : query.params)
        url += "&param_" + urlEncode(name) + "=" + urlEncode(escapedParameter(query, name, value));
    return url;
}

ClickHouseResult runClickHouseQuery(const ClickHouseEndpoint &endpoint, const ClickHouseQuery &query,
                                    const ClickHouseRowCallback &onRow, const ClickHouseRequestOptions &options,
                                    const ClickHouseProgressCallback &onProgress)
{
    initCurlOnce();
    Transfer t;
    t.onRow = &onRow;
    t.onProgress = &onProgress;
    t.keepGoing = &options.keepGoing;
    std::unique_ptr<CURL, CurlDeleter> curl(curl_easy_init());
    if (!curl) {
        t.result.outcome = ClickHouseResult::Outcome::ConnectionError;
        t.result.message = "cannot start an HTTP request (libcurl)";
        return t.result;
    }
    t.curl = curl.get();

    std::string password = options.password;
    if (password.empty()) {
        if (const char *fromEnvironment = std::getenv(kClickHousePasswordVariable))
            password = fromEnvironment;
    }
    // The user and password go in ClickHouse's own headers, never in the URL, which libcurl may log.
    std::unique_ptr<curl_slist, HeaderListDeleter> headers;
    const auto addHeader = [&](const std::string &header) { headers.reset(curl_slist_append(headers.release(), header.c_str())); };
    addHeader("X-ClickHouse-User: " + endpoint.user);
    if (!password.empty())
        addHeader("X-ClickHouse-Key: " + password);
    // Set by hand rather than with CURLOPT_ACCEPT_ENCODING, so that libcurl leaves the body as it came and
    // the decoder here reads it whatever libcurl was built with.
    if (options.compress)
        addHeader("Accept-Encoding: zstd");
    addHeader("Content-Type: text/plain; charset=utf-8");
    addHeader("Expect:"); // no 100-continue round trip for a small query

    const std::string url = clickHouseRequestUrl(endpoint, query, options.compress);
    char curlError[CURL_ERROR_SIZE] = {};
    curl_easy_setopt(t.curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(t.curl, CURLOPT_HTTPHEADER, headers.get());
    curl_easy_setopt(t.curl, CURLOPT_POST, 1L);
    curl_easy_setopt(t.curl, CURLOPT_POSTFIELDS, query.sql.c_str());
    curl_easy_setopt(t.curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(query.sql.size()));
    curl_easy_setopt(t.curl, CURLOPT_HEADERFUNCTION, onHeader);
    curl_easy_setopt(t.curl, CURLOPT_HEADERDATA, &t);
    curl_easy_setopt(t.curl, CURLOPT_WRITEFUNCTION, onBody);
    curl_easy_setopt(t.curl, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(t.curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(t.curl, CURLOPT_XFERINFOFUNCTION, onTick);
    curl_easy_setopt(t.curl, CURLOPT_XFERINFODATA, &t);
    curl_easy_setopt(t.curl, CURLOPT_ERRORBUFFER, curlError);
    curl_easy_setopt(t.curl, CURLOPT_NOSIGNAL, 1L); // no SIGALRM for timeouts: safe in threads
    curl_easy_setopt(t.curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(t.curl, CURLOPT_FOLLOWLOCATION, 0L);
    if (options.connectTimeoutMs > 0)
        curl_easy_setopt(t.curl, CURLOPT_CONNECTTIMEOUT_MS, options.connectTimeoutMs);
    if (options.totalTimeoutMs > 0)
        curl_easy_setopt(t.curl, CURLOPT_TIMEOUT_MS, options.totalTimeoutMs);

    const CURLcode code = curl_easy_perform(t.curl);
    password.assign(password.size(), '\0');
    ClickHouseResult &result = t.result;
    result.httpStatus = t.status();
    result.rows = t.splitter.rows();
    const std::string where = endpoint.displayUrl();

    if (t.cancelled) {
        result.outcome = ClickHouseResult::Outcome::Cancelled;
        result.message = "cancelled";
        return result;
    }
    if (code == CURLE_OPERATION_TIMEDOUT) {
        result.outcome = ClickHouseResult::Outcome::Timeout;
        result.message = "timed out talking to " + where + ": " + (curlError[0] ? curlError : curl_easy_strerror(code));
        return result;
    }
    if (t.badBody) {
        result.outcome = ClickHouseResult::Outcome::BadResponse;
        result.message = t.decoder ? t.decoder->error() : "the response could not be read";
        return result;
    }
    if (result.httpStatus >= 400) {
        result.outcome = ClickHouseResult::Outcome::ServerError;
        const std::string body = trimmed(t.errorBody);
        if (result.exceptionCode == 0)
            result.exceptionCode = exceptionCode(body);
        result.message = "ClickHouse at " + where + " answered HTTP " + std::to_string(result.httpStatus)
                         + (body.empty() ? std::string() : ": " + body);
        return result;
    }
    if (code != CURLE_OK) {
        result.outcome = ClickHouseResult::Outcome::ConnectionError;
        result.message = "cannot read from " + where + ": " + (curlError[0] ? curlError : curl_easy_strerror(code));
        return result;
    }
    t.splitter.finish();
    result.rows = t.splitter.rows();
    if (!t.splitter.exception().empty()) {
        result.outcome = ClickHouseResult::Outcome::ServerError;
        result.exceptionCode = exceptionCode(t.splitter.exception());
        result.message = "ClickHouse at " + where + " failed after " + std::to_string(result.rows)
                         + " rows: " + t.splitter.exception();
        return result;
    }
    if (t.decoder && !t.decoder->atFrameEnd()) {
        result.outcome = ClickHouseResult::Outcome::BadResponse;
        result.message = "the compressed response from " + where + " ended in the middle of a zstd frame";
        return result;
    }
    return result;
}

std::string_view outcomeName(ClickHouseResult::Outcome outcome)
{
    switch (outcome) {
    case ClickHouseResult::Outcome::Complete: return "complete";
    case ClickHouseResult::Outcome::ServerError: return "server-error";
    case ClickHouseResult::Outcome::ConnectionError: return "connection-error";
    case ClickHouseResult::Outcome::Timeout: return "timeout";
    case ClickHouseResult::Outcome::Cancelled: return "cancelled";
    case ClickHouseResult::Outcome::BadResponse: return "bad-response";
    }
    return "unknown";
}

} // namespace lx::source
