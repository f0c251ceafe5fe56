#include "BufferRotation.h"

#include <algorithm>

namespace sf::kernels {

RotationPlan planRotation(size_t callBytes, size_t inputBytes, int inputSets, size_t budgetBytes)
{
    RotationPlan plan;
    const size_t staging = size_t(std::max(inputSets, 0)) * inputBytes;
    if (3 * callBytes + staging <= budgetBytes) {
        plan.slots = 3;
        plan.staged = true;
    } else {
        plan.staged = false;
        plan.slots = int(std::clamp<size_t>(callBytes ? budgetBytes / callBytes : 3, 1, 3));
    }
    plan.deviceBytes = size_t(plan.slots) * callBytes + (plan.staged ? staging : 0);
    return plan;
}

BufferRotation::BufferRotation(const SeedSchedule &schedule, uint64_t shape, int slots, int inputSets)
    : m_schedule(schedule)
    , m_shape(shape)
    , m_slots(std::clamp(slots, 1, MaxSlots))
    , m_sets(std::clamp(inputSets, 2, MaxInputSets))
{
    newInputSets();
}

void BufferRotation::newInputSets()
{
    m_lastSetInSlot.fill(-1);
    m_lastSet = -1;
}

BufferRotation::Call BufferRotation::next()
{
    Call call;
    call.slot = int(m_calls++ % uint64_t(m_slots));
    // Draw among the sets that are allowed, uniformly: the slot's last set never, the previous call's where 3+ sets.
    const int inSlot = m_lastSetInSlot[size_t(call.slot)];
    const int previous = m_sets >= 3 ? m_lastSet : -1;
    int allowed[MaxInputSets];
    int count = 0;
    for (int s = 0; s < m_sets; ++s) {
        if (s != inSlot && s != previous)
            allowed[count++] = s;
    }
    const uint64_t draw = m_schedule.seed(Phase::Rotation, m_shape, m_calls);
    call.inputSet = allowed[draw % uint64_t(count)];
    m_lastSetInSlot[size_t(call.slot)] = call.inputSet;
    m_lastSet = call.inputSet;
    return call;
}

} // namespace sf::kernels
