#pragma once

#include <QString>
#include <cstddef>
#include <cstdint>

namespace sf::fuzz {

/// Imports @p data as a trace of @p format (empty: detected) and checks the properties the viewer relies on:
/// every index inside its range (turns, pairs, subagent links), pairs symmetric, a failed import has a
/// message. Aborts on a violated property, so libFuzzer and the replay test both report it. Returns 0.
int fuzzTraceImport(const QString &format, const std::uint8_t *data, std::size_t size);

} // namespace sf::fuzz
