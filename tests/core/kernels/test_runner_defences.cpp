// The kernel runner's defences against 2026's reward hacks (issue 17), in the parts that need no GPU: the private
// seed schedule, which timed calls are checked, the per-sample timer cross-check, the physics floor and the
// fraction of peak. The GPU half is tests/gpu/candidates, run by tests/gpu/run.sh.
#include "SkippedChecks.h"
#include "kernels/harness/BufferRotation.h"
#include "kernels/harness/SeedSchedule.h"
#include "kernels/harness/TimingChecks.h"

#include <QTest>
#include <set>
#include <vector>

using namespace sf::kernels;

class TestRunnerDefences final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void seedSchedule_samePerSecret_distinctAcrossPhasesShapesAndSets()
    {
        const SeedSchedule a(42), again(42), other(43);
        std::set<uint64_t> seen;
        for (Phase phase : {Phase::Correctness, Phase::StreamCheck, Phase::Determinism, Phase::Warmup, Phase::Timed,
                            Phase::Recheck, Phase::TimedChecks, Phase::Rotation}) {
            for (uint64_t shape = 0; shape < 12; ++shape) {
                for (uint64_t k = 0; k < 8; ++k) {
                    const uint64_t seed = a.seed(phase, shape, k);
                    QCOMPARE(again.seed(phase, shape, k), seed); // baseline and candidate see the same inputs
                    QVERIFY(other.seed(phase, shape, k) != seed);
                    seen.insert(seed);
                }
            }
        }
        QCOMPARE(seen.size(), size_t(8 * 12 * 8)); // no phase replays another's inputs
        // The warm-up's k-th set is not the timed phase's k-th set (the replay hack relies on that).
        QVERIFY(a.seed(Phase::Warmup, 0, 0) != a.seed(Phase::Timed, 0, 0));
    }

    // Allocator reuse: a kernel that caches its answer by buffer address must never see an address come back
    // holding the inputs it had there before, and a call's addresses are never those of the two calls before it.
    void bufferRotation_pointersDifferFromTheTwoCallsBefore_acrossPhases()
    {
        BufferRotation rotation(SeedSchedule(7), 0, 3, 4);
        std::vector<int> slots;
        for (int call = 0; call < 10000; ++call) {
            if (call == 5000)
                rotation.newInputSets(); // warm-up -> timed: the slot order carries on
            slots.push_back(rotation.next().slot);
        }
        // Slot s's buffers sit at addresses of their own (the runner allocates each slot once), so distinct slots
        // mean distinct input and output pointers.
        for (size_t n = 2; n < slots.size(); ++n) {
            QVERIFY(slots[n] != slots[n - 1]);
            QVERIFY(slots[n] != slots[n - 2]);
        }
    }

    void bufferRotation_aSlotNeverHoldsTheSameInputsTwiceInARow_andTheDrawIsPrivate()
    {
        for (const int slotCount : {1, 2, 3}) {
            BufferRotation rotation(SeedSchedule(11), 2, slotCount, 4);
            std::vector<int> lastInSlot(size_t(slotCount), -1);
            std::vector<int> used(4, 0);
            int previous = -1;
            for (int call = 0; call < 4000; ++call) {
                const BufferRotation::Call c = rotation.next();
                QVERIFY(c.inputSet >= 0 && c.inputSet < 4);
                QVERIFY2(c.inputSet != lastInSlot[size_t(c.slot)], "a pointer came back with the inputs it had");
                QVERIFY2(c.inputSet != previous, "the previous call's answer would be right again");
                lastInSlot[size_t(c.slot)] = c.inputSet;
                previous = c.inputSet;
                ++used[size_t(c.inputSet)];
            }
            for (int n : used)
                QVERIFY(n > 4000 / 8); // every set in use, none favoured much
        }
        // Another secret, another sequence: the kernel cannot learn which set comes next.
        BufferRotation a(SeedSchedule(1), 0, 3, 4), again(SeedSchedule(1), 0, 3, 4), b(SeedSchedule(2), 0, 3, 4);
        int same = 0, differ = 0;
        for (int call = 0; call < 200; ++call) {
            const int x = a.next().inputSet;
            QCOMPARE(again.next().inputSet, x); // baseline and candidate see the same schedule within a check
            (b.next().inputSet == x ? same : differ) += 1;
        }
        QVERIFY(differ > 50);
    }

    void planRotation_threeSlotsAndStagedInputsWhereTheyFit_elseFewer_neverNone()
    {
        const size_t mib = size_t(1) << 20;
        // 24 MiB in, 24 MiB out per call, 4 input sets: 3 x 48 + 4 x 24 = 240 MiB on the device.
        RotationPlan plan = planRotation(48 * mib, 24 * mib, 4, 1024 * mib);
        QCOMPARE(plan.slots, 3);
        QVERIFY(plan.staged);
        QCOMPARE(plan.deviceBytes, 240 * mib);
        plan = planRotation(48 * mib, 24 * mib, 4, 200 * mib); // staging does not fit: uploaded per call
        QCOMPARE(plan.slots, 3);
        QVERIFY(!plan.staged);
        QCOMPARE(plan.deviceBytes, 144 * mib);
        plan = planRotation(48 * mib, 24 * mib, 4, 100 * mib); // two slots fit
        QCOMPARE(plan.slots, 2);
        QVERIFY(plan.deviceBytes <= 100 * mib);
        plan = planRotation(48 * mib, 24 * mib, 4, 10 * mib); // not even one: one (the allocation will tell)
        QCOMPARE(plan.slots, 1);
    }

    void seedSchedule_freshSecretsDiffer()
    {
        std::set<uint64_t> secrets;
        for (int i = 0; i < 16; ++i)
            secrets.insert(SeedSchedule::freshSecret());
        QCOMPARE(secrets.size(), size_t(16));
    }

    void timedCheckPlan_checksEarlyThenSparsely_andDiffersPerSecret()
    {
        std::vector<std::vector<int>> plans;
        for (uint64_t secret : {1ull, 2ull, 3ull, 4ull, 5ull}) {
            TimedCheckPlan plan(SeedSchedule(secret), 0);
            std::vector<int> checked;
            for (int call = 1; call <= 5000; ++call) {
                if (plan.next())
                    checked.push_back(call);
            }
            QVERIFY(!checked.empty());
            QVERIFY2(checked.front() <= 3, "a short timing loop is checked too");
            QVERIFY(int(checked.size()) <= TimedCheckPlan::MaxChecks);
            QVERIFY(checked.size() >= 4);
            for (size_t i = 1; i < checked.size(); ++i)
                QVERIFY(checked[i] > checked[i - 1] && checked[i] <= 2 * checked[i - 1] + 1);
            plans.push_back(checked);
        }
        // A kernel cannot learn which calls are checked: the draw changes with the check's secret.
        QVERIFY(std::set<std::vector<int>>(plans.begin(), plans.end()).size() > 1);
        // The same secret and shape give the same plan (a verdict can be explained afterwards).
        TimedCheckPlan x(SeedSchedule(9), 3), y(SeedSchedule(9), 3);
        for (int call = 0; call < 200; ++call)
            QCOMPARE(x.next(), y.next());
    }

    void timerCrossCheck_rejectsAnySampleTheHostClockDidNotSee()
    {
        const std::vector<TimingSample> honest{{10.0, 14.0}, {10.5, 13.0}, {9.8, 12.5}, {102.0, 101.0}};
        QCOMPARE(tamperedTimingSample(honest), std::string()); // 1 us over the host at 101 us is within the slack
        std::vector<TimingSample> oneForged = honest;
        oneForged.insert(oneForged.begin() + 2, {50.0, 12.0}); // one sample among honest ones
        const std::string why = tamperedTimingSample(oneForged);
        QVERIFY(why.find("timed call 3") != std::string::npos);
        QVERIFY(why.find("tampered") != std::string::npos);
        for (double bad : {0.0, -1.0, std::nan("")}) {
            const std::vector<TimingSample> zero{{10.0, 12.0}, {bad, 12.0}};
            QVERIFY(tamperedTimingSample(zero).find("timed call 2") != std::string::npos);
        }
    }

    void physicsFloor_belowNinetyPercentOfSpeedOfLight_isAFailure()
    {
        QCOMPARE(belowPhysicsFloor(12.0, 11.8), std::string()); // at the bound: a great kernel
        QCOMPARE(belowPhysicsFloor(10.7, 11.8), std::string()); // within the 10% slack
        const std::string why = belowPhysicsFloor(5.0, 11.8);
        QVERIFY(why.find("speed-of-light") != std::string::npos);
        QCOMPARE(belowPhysicsFloor(5.0, 0.0), std::string()); // no bound known: nothing to say
    }

    void fractionOfPeak_isAchievedOverTheDevicesPeak()
    {
        // 56.6 MB in 16.9 us on a 4.8 TB/s part is 70% of its bandwidth.
        const FractionOfPeak f = fractionOfPeak(56.6e6, 4 * 14.2e6, 16.9e-6, 4.8e12, 60e12);
        QVERIFY(std::abs(f.bandwidth - 56.6e6 / 16.9e-6 / 4.8e12) < 1e-12);
        QVERIFY(f.bandwidth > 0.69 && f.bandwidth < 0.71);
        QVERIFY(f.compute > 0.05 && f.compute < 0.06);
        const FractionOfPeak unknown = fractionOfPeak(1e6, 1e6, 0.0, 4.8e12, 60e12);
        QCOMPARE(unknown.bandwidth, 0.0);
        QCOMPARE(unknown.compute, 0.0);
    }
};

SF_TEST_GUILESS_MAIN(TestRunnerDefences)
#include "test_runner_defences.moc"
