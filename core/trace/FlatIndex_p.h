#pragma once

// Flat open-addressing tables for the ids a large session pairs, deduplicates and orders by: hundreds of
// thousands of lookups, where QHash and std::unordered_map spend most of their time in cache misses.

#include <QtGlobal>
#include <algorithm>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

namespace sf::trace_import {

/// A hash of an id, spread over all 64 bits (the tables probe by the low ones).
inline quint64 idHash(std::string_view id)
{
    return quint64(std::hash<std::string_view>()(id));
}

/// A set of 64-bit hashes.
class HashSet
{
public:
    bool contains(quint64 hash) const
    {
        if (m_slots.empty())
            return false;
        const quint64 key = hash | 1; // 0 marks an empty slot
        for (size_t i = key & m_mask;; i = (i + 1) & m_mask) {
            if (m_slots[i] == key)
                return true;
            if (m_slots[i] == 0)
                return false;
        }
    }

    void insert(quint64 hash)
    {
        if ((m_size + 1) * 2 > m_slots.size())
            grow();
        const quint64 key = hash | 1;
        for (size_t i = key & m_mask;; i = (i + 1) & m_mask) {
            if (m_slots[i] == key)
                return;
            if (m_slots[i] == 0) {
                m_slots[i] = key;
                ++m_size;
                return;
            }
        }
    }

private:
    void grow()
    {
        const size_t capacity = std::max<size_t>(1024, m_slots.size() * 2);
        std::vector<quint64> old = std::exchange(m_slots, std::vector<quint64>(capacity));
        m_mask = capacity - 1;
        m_size = 0;
        for (const quint64 key : old)
            if (key != 0)
                insert(key);
    }

    std::vector<quint64> m_slots;
    size_t m_mask = 0;
    size_t m_size = 0;
};

/// Byte strings to non-negative ints. The keys are views: what they point at must outlive the index.
class TextIndex
{
public:
    /// The value set for @p key, or -1.
    int value(std::string_view key) const
    {
        if (m_slots.empty())
            return -1;
        const quint64 hash = idHash(key) | 1; // 0 marks an empty slot
        for (size_t i = hash & m_mask;; i = (i + 1) & m_mask) {
            const Slot &slot = m_slots[i];
            if (slot.hash == 0)
                return -1;
            if (slot.hash == hash && slot.key == key)
                return slot.value;
        }
    }

    /// Sets @p key to @p value; the last value set counts, as with QHash::insert.
    void insert(std::string_view key, int value)
    {
        if ((m_size + 1) * 2 > m_slots.size())
            grow();
        place(key, idHash(key) | 1, value);
    }

private:
    struct Slot
    {
        std::string_view key;
        quint64 hash = 0;
        int value = -1;
    };

    void place(std::string_view key, quint64 hash, int value)
    {
        for (size_t i = hash & m_mask;; i = (i + 1) & m_mask) {
            Slot &slot = m_slots[i];
            if (slot.hash == 0) {
                slot = {key, hash, value};
                ++m_size;
                return;
            }
            if (slot.hash == hash && slot.key == key) {
                slot.value = value;
                return;
            }
        }
    }

    void grow()
    {
        const size_t capacity = std::max<size_t>(1024, m_slots.size() * 2);
        std::vector<Slot> old = std::exchange(m_slots, std::vector<Slot>(capacity));
        m_mask = capacity - 1;
        m_size = 0;
        for (const Slot &slot : old)
            if (slot.hash != 0)
                place(slot.key, slot.hash, slot.value);
    }

    std::vector<Slot> m_slots;
    size_t m_mask = 0;
    size_t m_size = 0;
};

} // namespace sf::trace_import
