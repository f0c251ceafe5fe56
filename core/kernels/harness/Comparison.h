#pragma once
// The correctness rule of every kernel task, and the null candidates each task must reject.
// Plain C++17, shared by skillforge_core and the kernel runner.

#include "KernelOps.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sf::kernels {

/// |out - ref| <= atol + rtol * |ref|, per element.
struct Tolerance
{
    double atol = 0.0;
    double rtol = 0.0;
};

/// How one output buffer compared with the reference.
struct Comparison
{
    bool passed = true;
    int64_t elements = 0;
    int64_t mismatches = 0;     ///< elements outside the tolerance, or where the output or the reference is not finite
    int64_t nonFiniteMismatches = 0;
    int64_t nonFiniteReference = 0; ///< reference elements that are NaN or infinite: those inputs judge nothing
    int64_t firstMismatch = -1; ///< index of the first failing element, -1 when none
    double firstOut = 0.0;
    double firstRef = 0.0;
    double maxAbsError = 0.0;
    double maxRelError = 0.0;   ///< over elements whose reference is not zero
    double relL2Error = 0.0;    ///< ||out - ref|| / ||ref|| over finite reference elements
};

/// Compares @p n outputs with the reference: every output must be finite and within the tolerance of a
/// finite reference. NaN and infinity match nothing, not even themselves: an output left NaN (a kernel that
/// wrote nothing over the harness's NaN fill) fails even where the reference is NaN by chance, and such a
/// reference element fails any output, so inputs that cannot judge a kernel never pass one.
Comparison compareValues(const double *out, const double *ref, int64_t n, Tolerance tolerance);

/// The degenerate kernels every task must fail (KernelBench #165, METR, robust-kbench filters).
enum class NullCandidate { WritesNothing, Zeros, CopyOfInput, ConstantMean, ConstantOne, StaleOutput };
const char *nullCandidateName(NullCandidate candidate);
std::vector<NullCandidate> allNullCandidates();

/// Shrinks the outer dimensions of @p dims (never the innermost) until a case has at most
/// @p maxElements per buffer, so the float64 check stays fast on the real, large shapes.
std::vector<int64_t> shrinkForCheck(const OpDef &op, std::vector<int64_t> dims, int64_t maxElements);

/// Evaluates each null candidate on the host against the reference for one shape and dtype.
/// Returns the candidates that pass (the task is broken if any does).
std::vector<NullCandidate> nullCandidatesThatPass(const OpDef &op, const std::vector<int64_t> &dims,
                                                  const std::vector<double> &scalars, DType dtype,
                                                  Tolerance tolerance, uint64_t seed);

} // namespace sf::kernels
