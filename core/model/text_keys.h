// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

/// \file text_keys.h
/// Small numbers for the texts that repeat from record to record (a model, a route, a set of attributes),
/// given where the record is parsed. The store's writer then finds a label or an attribute set by its key
/// in an array, instead of hashing and comparing the text again on its own thread, where the text is no
/// longer in the cache: on a million requests that was 13% of the writer's time, the import's slowest stage.

namespace lx {

/// The keys of one record's texts; kNoText for an empty text.
struct RecordKeys {
    std::uint32_t model = 0;
    std::uint32_t route = 0;
    std::uint32_t attributes = 0;
};

inline constexpr std::uint32_t kNoText = 0;
/// A text met after kMaxTextKeys others: not keyed, the writer looks the text itself up.
inline constexpr std::uint32_t kUnkeyedText = UINT32_MAX;
inline constexpr std::size_t kMaxTextKeys = 65536;

class TextKeys {
public:
    /// kNoText for an empty text; the same key for the same text; new texts get 1, 2, ... in the order they
    /// come, until kMaxTextKeys are known (a text with a value per request): kUnkeyedText then, so that the
    /// memory stays bounded. Once full, the known texts keep their keys, unless hardly any of the texts that
    /// come are known (fewer than 1 in kGiveUpRatio of a round of kMaxTextKeys): then every text is
    /// kUnkeyedText, without a look-up. A miss in the full table (hashing the text, a cache miss or two)
    /// was the dearest step of keying a record whose attributes hold a trace id.
    std::uint32_t keyOf(const std::string &text)
    {
        if (text.empty())
            return kNoText;
        if (m_gaveUp)
            return kUnkeyedText;
        const auto it = m_keys.find(text);
        if (m_keys.size() >= kMaxTextKeys)
            return pastTheCap(it != m_keys.end() ? it->second : kUnkeyedText);
        if (it != m_keys.end())
            return it->second;
        const auto key = static_cast<std::uint32_t>(m_keys.size() + 1);
        m_keys.emplace(text, key);
        return key;
    }
    /// True once keyOf() stopped looking texts up.
    bool gaveUp() const { return m_gaveUp; }

    static constexpr std::size_t kGiveUpRatio = 16;

private:
    std::uint32_t pastTheCap(std::uint32_t key)
    {
        m_hitsPastTheCap += key != kUnkeyedText;
        if (++m_lookupsPastTheCap == kMaxTextKeys) {
            m_gaveUp = m_hitsPastTheCap * kGiveUpRatio < m_lookupsPastTheCap;
            m_lookupsPastTheCap = m_hitsPastTheCap = 0;
        }
        return key;
    }

    std::unordered_map<std::string, std::uint32_t> m_keys;
    std::size_t m_lookupsPastTheCap = 0;
    std::size_t m_hitsPastTheCap = 0;
    bool m_gaveUp = false;
};

/// The keys of a record: model and route share one numbering (the store's labels), attributes another.
struct RecordKeyer {
    TextKeys labels;
    TextKeys attributes;
    RecordKeys of(const std::string &model, const std::string &route, const std::string &attributesJson)
    {
        return {labels.keyOf(model), labels.keyOf(route), attributes.keyOf(attributesJson)};
    }
};

} // namespace lx
