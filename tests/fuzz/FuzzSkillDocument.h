#pragma once

#include <cstddef>
#include <cstdint>

namespace sf::fuzz {

/// Parses @p data as SKILL.md text and exercises every accessor and editing helper, checking the
/// properties the editor relies on (exact round trip, lines inside the file, edits that read back).
/// Aborts on a violated property, so libFuzzer and the replay test both report it. Returns 0.
int fuzzSkillDocument(const std::uint8_t *data, std::size_t size);

} // namespace sf::fuzz
