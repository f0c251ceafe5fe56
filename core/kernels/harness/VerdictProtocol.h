#pragma once
// How the kernel runner hands its verdict to Skillforge without the candidate being able to forge it.
//
// The candidate runs inside the runner process, so anything it prints on stdout/stderr is ignored,
// and the verdict travels on a private pipe (fd 3). Because the candidate could also write to that
// pipe, every verdict is a single signed frame:
//
//   "SFV1 <nonce> <length>\n" <length bytes of JSON> "\n" <hex HMAC-SHA256(key, header + body)> "\n"
//
// The key (32 random bytes, hex) reaches the runner in a file that the runner reads and unlinks
// before it loads the candidate library; it never appears in argv or the environment (both readable
// from /proc/self). The nonce is fresh per run. The reader accepts the pipe's bytes only if they are
// exactly one frame with the expected nonce and a valid signature: stray bytes before or after
// (a candidate writing to fd 3 before the runner does) invalidate the verdict, which counts as a
// failure. Plain C++17, shared by skillforge_core and the runner.

#include <cstdint>
#include <string>

namespace sf::kernels {

std::string sha256Hex(const std::string &data);
std::string hmacSha256Hex(const std::string &key, const std::string &message);
/// @p hex decoded to bytes; empty when it is not an even-length hex string.
std::string fromHex(const std::string &hex);

/// Builds the frame for @p body.
std::string encodeVerdictFrame(const std::string &body, const std::string &key, const std::string &nonce);

struct DecodedVerdict
{
    bool ok = false;
    std::string body;  ///< the JSON verdict when ok
    std::string error; ///< why the bytes are not an authentic verdict
};

/// Checks that @p data is exactly one authentic frame for @p nonce.
DecodedVerdict decodeVerdictFrame(const std::string &data, const std::string &key, const std::string &nonce);

} // namespace sf::kernels
