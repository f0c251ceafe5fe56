#include "SeedSchedule.h"

#include <random>

namespace sf::kernels {

namespace {

// SplitMix64's finaliser: every input bit changes about half the output bits.
uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

} // namespace

uint64_t SeedSchedule::freshSecret()
{
    std::random_device device; // /dev/urandom on Linux
    return (uint64_t(device()) << 32) ^ uint64_t(device());
}

uint64_t SeedSchedule::seed(Phase phase, uint64_t shape, uint64_t k) const
{
    return mix(mix(mix(m_secret ^ uint64_t(phase)) ^ shape) ^ k);
}

TimedCheckPlan::TimedCheckPlan(const SeedSchedule &schedule, uint64_t shape)
    : m_state(schedule.seed(Phase::TimedChecks, shape, 0))
{
    m_nextChecked = 1 + draw() % 3;
}

uint64_t TimedCheckPlan::draw()
{
    m_state = mix(m_state);
    return m_state;
}

bool TimedCheckPlan::next()
{
    ++m_call;
    if (m_call != m_nextChecked || m_checks >= MaxChecks)
        return false;
    ++m_checks;
    m_nextChecked = m_call + 1 + draw() % m_call;
    return true;
}

} // namespace sf::kernels
