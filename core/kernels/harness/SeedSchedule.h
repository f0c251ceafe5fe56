#pragma once
// Which inputs the runner gives a kernel in each phase of a check, and which timed calls it checks.
// Plain C++17, shared by skillforge_core (for tests) and the kernel runner.

#include <cstdint>

namespace sf::kernels {

/// The phases of a check. Each draws its inputs from its own seeds, so a kernel that computes during one
/// phase and replays what it computed in another (the warm-up's outputs while timed) answers the wrong inputs.
enum class Phase : uint64_t { Correctness = 1, StreamCheck, Determinism, Warmup, Timed, Recheck, TimedChecks, Rotation };

/// Seeds derived from a secret drawn once per check (from the system's random source, before any candidate code
/// is loaded): the same secret gives the same schedule, so baseline and candidate see the same inputs within a
/// check, while no candidate can know a schedule in advance (fixed seeds could be learned and precomputed).
class SeedSchedule
{
public:
    explicit SeedSchedule(uint64_t secret)
        : m_secret(secret)
    {
    }
    /// A secret from the system's random source.
    static uint64_t freshSecret();

    /// The seed of the @p k-th input set of @p shape in @p phase.
    uint64_t seed(Phase phase, uint64_t shape, uint64_t k) const;

private:
    uint64_t m_secret;
};

/// Which timed calls of one shape the runner checks. Every timed call's outputs are filled with NaN first (outside
/// the timed window), so a call that skips its work leaves NaN; the calls read back and judged are a private draw:
/// call 1, 2 or 3 first, then each next one within as many calls again as have passed, at most MaxChecks of them
/// (the runner checks one more call after the loop, whose length the kernel cannot know). A kernel cannot tell a
/// checked call from another, and checks stay few on a long timing loop.
class TimedCheckPlan
{
public:
    static constexpr int MaxChecks = 8;
    TimedCheckPlan(const SeedSchedule &schedule, uint64_t shape);
    /// Whether the next timed call is one to check; call once per timed call, in order.
    bool next();

private:
    uint64_t m_state;
    uint64_t m_call = 0;
    uint64_t m_nextChecked = 0;
    int m_checks = 0;
    uint64_t draw();
};

} // namespace sf::kernels
