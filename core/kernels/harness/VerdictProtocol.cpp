#include "VerdictProtocol.h"

#include <cstring>

namespace sf::kernels {

namespace {

constexpr uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
    0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
    0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
    0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};

uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

std::string sha256(const std::string &data)
{
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    std::string m = data;
    const uint64_t bitLength = uint64_t(data.size()) * 8;
    m.push_back(char(0x80));
    while (m.size() % 64 != 56)
        m.push_back('\0');
    for (int i = 7; i >= 0; --i)
        m.push_back(char((bitLength >> (8 * i)) & 0xff));
    for (size_t chunk = 0; chunk < m.size(); chunk += 64) {
        uint32_t w[64];
        for (int i = 0; i < 16; ++i) {
            const auto *p = reinterpret_cast<const unsigned char *>(m.data() + chunk + 4 * size_t(i));
            w[i] = uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | uint32_t(p[3]);
        }
        for (int i = 16; i < 64; ++i) {
            const uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
            const uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        for (int i = 0; i < 64; ++i) {
            const uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
            const uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            hh = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
    }
    std::string digest;
    for (uint32_t v : h) {
        for (int i = 3; i >= 0; --i)
            digest.push_back(char((v >> (8 * i)) & 0xff));
    }
    return digest;
}

std::string toHex(const std::string &bytes)
{
    static const char digits[] = "0123456789abcdef";
    std::string hex;
    for (unsigned char c : bytes) {
        hex.push_back(digits[c >> 4]);
        hex.push_back(digits[c & 15]);
    }
    return hex;
}

// Compares without an early exit, so timing says nothing about how much of a forgery matched.
bool sameBytes(const std::string &a, const std::string &b)
{
    if (a.size() != b.size())
        return false;
    unsigned char diff = 0;
    for (size_t i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

} // namespace

std::string sha256Hex(const std::string &data) { return toHex(sha256(data)); }

std::string hmacSha256Hex(const std::string &key, const std::string &message)
{
    std::string k = key.size() > 64 ? sha256(key) : key;
    k.resize(64, '\0');
    std::string inner(64, '\0'), outer(64, '\0');
    for (size_t i = 0; i < 64; ++i) {
        inner[i] = char(k[i] ^ 0x36);
        outer[i] = char(k[i] ^ 0x5c);
    }
    return toHex(sha256(outer + sha256(inner + message)));
}

std::string fromHex(const std::string &hex)
{
    auto nibble = [](char c) -> int {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    };
    std::string bytes;
    if (hex.size() % 2)
        return {};
    for (size_t i = 0; i < hex.size(); i += 2) {
        const int hi = nibble(hex[i]), lo = nibble(hex[i + 1]);
        if (hi < 0 || lo < 0)
            return {};
        bytes.push_back(char(hi << 4 | lo));
    }
    return bytes;
}

std::string encodeVerdictFrame(const std::string &body, const std::string &key, const std::string &nonce)
{
    const std::string header = "SFV1 " + nonce + " " + std::to_string(body.size()) + "\n";
    return header + body + "\n" + hmacSha256Hex(key, header + body) + "\n";
}

DecodedVerdict decodeVerdictFrame(const std::string &data, const std::string &key, const std::string &nonce)
{
    DecodedVerdict result;
    if (data.empty()) {
        result.error = "the runner sent no verdict";
        return result;
    }
    const std::string prefix = "SFV1 " + nonce + " ";
    if (data.compare(0, prefix.size(), prefix) != 0) {
        result.error = data.compare(0, 5, "SFV1 ") == 0 ? "the verdict is for another run (wrong nonce)"
                                                        : "unexpected bytes on the verdict pipe before the verdict";
        return result;
    }
    const size_t newline = data.find('\n', prefix.size());
    if (newline == std::string::npos || newline - prefix.size() > 12) {
        result.error = "the verdict header is malformed";
        return result;
    }
    const std::string lengthText = data.substr(prefix.size(), newline - prefix.size());
    if (lengthText.empty() || lengthText.find_first_not_of("0123456789") != std::string::npos) {
        result.error = "the verdict header is malformed";
        return result;
    }
    const size_t length = std::stoull(lengthText);
    const size_t bodyStart = newline + 1;
    const size_t expected = bodyStart + length + 1 + 64 + 1;
    if (data.size() < expected) {
        result.error = "the verdict is truncated";
        return result;
    }
    if (data.size() > expected) {
        result.error = "unexpected bytes on the verdict pipe after the verdict";
        return result;
    }
    const std::string signedPart = data.substr(0, bodyStart + length);
    if (data[bodyStart + length] != '\n' || data[expected - 1] != '\n'
        || !sameBytes(data.substr(bodyStart + length + 1, 64), hmacSha256Hex(key, signedPart))) {
        result.error = "the verdict's signature does not match: it was not written by the runner";
        return result;
    }
    result.ok = true;
    result.body = data.substr(bodyStart, length);
    return result;
}

} // namespace sf::kernels
