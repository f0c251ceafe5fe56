#pragma once
// Where the runner puts each warm-up and timed call's buffers, and which inputs they hold. Plain C++17, shared by
// skillforge_core (for tests) and the kernel runner.

#include "SeedSchedule.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace sf::kernels {

/// How many buffer slots the timed phase rotates through and whether its input sets wait on the device.
struct RotationPlan
{
    /// Device buffer sets (every input and output of one call), used in turn: 3 where memory allows, so a call's
    /// pointers are never those of either of the two calls before it.
    int slots = 3;
    /// The input sets are kept on the device and copied into a call's slot (fast); otherwise they are uploaded
    /// from host memory before each call (slow, for shapes too big to keep them twice).
    bool staged = true;
    /// Device bytes the plan needs: slots x call bytes, plus the input sets where staged.
    size_t deviceBytes = 0;
};

/// The plan for one shape: @p callBytes is all the buffers of one call (inputs and outputs), @p inputBytes its
/// inputs, @p inputSets the input sets rotated through, @p budgetBytes the device memory the plan may use (the
/// runner passes half the free memory). Three slots and staged inputs when they fit; else three slots uploaded from
/// the host; else as many slots as fit, never fewer than one (a replay keyed by pointer still finds other inputs
/// there, see BufferRotation).
RotationPlan planRotation(size_t callBytes, size_t inputBytes, int inputSets, size_t budgetBytes);

/// The slot and input set of each call, in order. Slots are used in turn; the input set is a private draw (from the
/// check's seed schedule) that differs from the one the slot held last and, where there are 3 or more, from the
/// previous call's. So a kernel that caches its answer by buffer address (a freed pointer coming back, a slot seen
/// before) or replays its previous answer answers other inputs, and cannot predict which set comes next.
class BufferRotation
{
public:
    static constexpr int MaxSlots = 8;
    static constexpr int MaxInputSets = 64;
    /// @p slots in [1, MaxSlots], @p inputSets in [2, MaxInputSets].
    BufferRotation(const SeedSchedule &schedule, uint64_t shape, int slots, int inputSets);

    struct Call
    {
        int slot = 0;
        int inputSet = 0;
    };
    /// The next call's slot and input set.
    Call next();
    /// The input sets were replaced by new ones (another phase): what the slots held no longer constrains the draw.
    void newInputSets();

private:
    SeedSchedule m_schedule;
    uint64_t m_shape;
    int m_slots;
    int m_sets;
    uint64_t m_calls = 0;
    std::array<int, MaxSlots> m_lastSetInSlot{};
    int m_lastSet = -1;
};

} // namespace sf::kernels
