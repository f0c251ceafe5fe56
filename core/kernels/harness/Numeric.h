#pragma once
// Plain C++17 (no Qt, no CUDA): shared by skillforge_core and the kernel runner, which is built
// on GPU machines that have only CUDA and a C++ compiler.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

namespace sf::kernels {

/// The element types a kernel task can be asked for. The suffix is part of the entry point name.
enum class DType { F32, BF16, F16 };

inline const char *dtypeName(DType t)
{
    switch (t) {
    case DType::F32: return "fp32";
    case DType::BF16: return "bf16";
    case DType::F16: return "fp16";
    }
    return "fp32";
}

inline bool parseDType(const std::string &name, DType *out)
{
    for (DType t : {DType::F32, DType::BF16, DType::F16}) {
        if (name == dtypeName(t)) {
            *out = t;
            return true;
        }
    }
    return false;
}

inline int dtypeSize(DType t) { return t == DType::F32 ? 4 : 2; }

inline uint32_t floatBits(float f)
{
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

inline float bitsFloat(uint32_t u)
{
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

/// bfloat16 with round-to-nearest-even, as __float2bfloat16_rn does.
inline uint16_t floatToBf16(float f)
{
    const uint32_t u = floatBits(f);
    if (std::isnan(f))
        return uint16_t((u >> 16) | 0x40u);
    return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

inline float bf16ToFloat(uint16_t h) { return bitsFloat(uint32_t(h) << 16); }

/// IEEE half with round-to-nearest-even, as __float2half_rn does (overflow to infinity).
inline uint16_t floatToF16(float f)
{
    const uint32_t u = floatBits(f);
    const uint32_t sign = (u >> 16) & 0x8000u;
    const uint32_t absBits = u & 0x7fffffffu;
    if (absBits >= 0x7f800000u) // inf or nan
        return uint16_t(sign | 0x7c00u | (absBits > 0x7f800000u ? 0x200u : 0u));
    if (absBits >= 0x477ff000u) // rounds to a value beyond 65504
        return uint16_t(sign | 0x7c00u);
    if (absBits < 0x33000001u) // below half the smallest subnormal
        return uint16_t(sign);
    int exponent = int(absBits >> 23) - 127;
    uint32_t mantissa = (absBits & 0x7fffffu) | 0x800000u;
    int shift; // how many mantissa bits to drop
    uint32_t halfExponent;
    if (exponent < -14) { // subnormal half
        shift = 13 + (-14 - exponent);
        halfExponent = 0;
    } else {
        shift = 13;
        halfExponent = uint32_t(exponent + 15);
        mantissa &= 0x7fffffu;
    }
    const uint32_t dropped = mantissa & ((1u << shift) - 1u);
    const uint32_t halfway = 1u << (shift - 1);
    uint32_t kept = mantissa >> shift;
    if (dropped > halfway || (dropped == halfway && (kept & 1u)))
        ++kept;
    // A carry out of the mantissa moves into the exponent field, which is what we want.
    return uint16_t(sign | ((halfExponent << 10) + kept));
}

inline float f16ToFloat(uint16_t h)
{
    const uint32_t sign = uint32_t(h & 0x8000u) << 16;
    const uint32_t exponent = (h >> 10) & 0x1fu;
    const uint32_t mantissa = h & 0x3ffu;
    if (exponent == 0)
        return (sign ? -1.0f : 1.0f) * std::ldexp(float(mantissa), -24);
    if (exponent == 31)
        return bitsFloat(sign | 0x7f800000u | (mantissa << 13));
    return bitsFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

/// Rounds @p v to the nearest value representable in @p t (through float, as a kernel would).
inline double roundTo(DType t, double v)
{
    const float f = float(v);
    switch (t) {
    case DType::F32: return f;
    case DType::BF16: return bf16ToFloat(floatToBf16(f));
    case DType::F16: return f16ToFloat(floatToF16(f));
    }
    return f;
}

/// Writes @p v as one element of type @p t at @p dst (2 or 4 bytes).
inline void storeAs(DType t, double v, void *dst)
{
    const float f = float(v);
    if (t == DType::F32) {
        std::memcpy(dst, &f, 4);
    } else {
        const uint16_t h = t == DType::BF16 ? floatToBf16(f) : floatToF16(f);
        std::memcpy(dst, &h, 2);
    }
}

inline double loadAs(DType t, const void *src)
{
    if (t == DType::F32) {
        float f;
        std::memcpy(&f, src, 4);
        return f;
    }
    uint16_t h;
    std::memcpy(&h, src, 2);
    return t == DType::BF16 ? bf16ToFloat(h) : f16ToFloat(h);
}

/// A small, fully specified generator (splitmix64 + Box-Muller), so that inputs for a seed are the
/// same in every build and on every machine, unlike std::normal_distribution.
class Random
{
public:
    explicit Random(uint64_t seed) : m_state(seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull) {}

    uint64_t next()
    {
        uint64_t z = (m_state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    /// Uniform in [0, 1).
    double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    double normal()
    {
        if (m_haveSpare) {
            m_haveSpare = false;
            return m_spare;
        }
        double u1 = uniform();
        while (u1 <= 0.0)
            u1 = uniform();
        const double u2 = uniform();
        const double r = std::sqrt(-2.0 * std::log(u1));
        m_spare = r * std::sin(6.283185307179586 * u2);
        m_haveSpare = true;
        return r * std::cos(6.283185307179586 * u2);
    }

private:
    uint64_t m_state;
    double m_spare = 0.0;
    bool m_haveSpare = false;
};

} // namespace sf::kernels
