#include "Comparison.h"

#include <algorithm>
#include <cmath>

namespace sf::kernels {

Comparison compareValues(const double *out, const double *ref, int64_t n, Tolerance tolerance)
{
    Comparison c;
    c.elements = n;
    double diff2 = 0.0, ref2 = 0.0;
    for (int64_t i = 0; i < n; ++i) {
        const double o = out[i], r = ref[i];
        bool ok;
        if (!std::isfinite(r)) {
            ++c.nonFiniteReference;
            ok = false;
        } else if (!std::isfinite(o)) {
            ok = false;
        } else {
            const double err = std::fabs(o - r);
            ok = err <= tolerance.atol + tolerance.rtol * std::fabs(r);
            c.maxAbsError = std::max(c.maxAbsError, err);
            if (r != 0.0)
                c.maxRelError = std::max(c.maxRelError, err / std::fabs(r));
            diff2 += err * err;
            ref2 += r * r;
        }
        if (!ok) {
            if (!std::isfinite(o) || !std::isfinite(r))
                ++c.nonFiniteMismatches;
            if (c.mismatches++ == 0) {
                c.firstMismatch = i;
                c.firstOut = o;
                c.firstRef = r;
            }
        }
    }
    c.passed = c.mismatches == 0;
    c.relL2Error = ref2 > 0.0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
    return c;
}

const char *nullCandidateName(NullCandidate candidate)
{
    switch (candidate) {
    case NullCandidate::WritesNothing: return "writes nothing";
    case NullCandidate::Zeros: return "zeros";
    case NullCandidate::CopyOfInput: return "copy of the input";
    case NullCandidate::ConstantMean: return "constant (mean of the reference)";
    case NullCandidate::ConstantOne: return "constant 1";
    case NullCandidate::StaleOutput: return "output of another input";
    }
    return "";
}

std::vector<NullCandidate> allNullCandidates()
{
    return {NullCandidate::WritesNothing, NullCandidate::Zeros,       NullCandidate::CopyOfInput,
            NullCandidate::ConstantMean,  NullCandidate::ConstantOne, NullCandidate::StaleOutput};
}

std::vector<int64_t> shrinkForCheck(const OpDef &op, std::vector<int64_t> dims, int64_t maxElements)
{
    auto largest = [&] {
        int64_t most = 0;
        for (const BufferSpec &b : op.buffers(dims))
            most = std::max(most, b.elements);
        return most;
    };
    // Elementwise ops have one dimension; shrinking it keeps the op the same.
    const size_t shrinkable = dims.size() == 1 ? 1 : dims.size() - 1;
    for (size_t i = 0; i < shrinkable; ++i) {
        while (largest() > maxElements && dims[i] > 1)
            dims[i] = std::max<int64_t>(1, dims[i] / 2);
    }
    return dims;
}

std::vector<NullCandidate> nullCandidatesThatPass(const OpDef &op, const std::vector<int64_t> &dims,
                                                  const std::vector<double> &scalars, DType dtype,
                                                  Tolerance tolerance, uint64_t seed)
{
    const std::vector<BufferSpec> specs = op.buffers(dims);
    const std::vector<Values> truth = makeCase(op, dims, scalars, dtype, seed);
    const std::vector<Values> other = makeCase(op, dims, scalars, dtype, seed + 7919);
    size_t firstInput = 0;
    while (firstInput < specs.size() && specs[firstInput].output)
        ++firstInput;

    std::vector<NullCandidate> passing;
    for (NullCandidate candidate : allNullCandidates()) {
        bool allOutputsPass = true;
        for (size_t b = 0; b < specs.size() && allOutputsPass; ++b) {
            if (!specs[b].output)
                continue;
            const Values &ref = truth[b];
            Values out(ref.size());
            double mean = 0.0;
            for (double r : ref)
                mean += r / double(ref.size());
            for (size_t i = 0; i < out.size(); ++i) {
                switch (candidate) {
                case NullCandidate::WritesNothing: out[i] = std::nan(""); break;
                case NullCandidate::Zeros: out[i] = 0.0; break;
                case NullCandidate::CopyOfInput:
                    out[i] = firstInput < truth.size() ? truth[firstInput][i % truth[firstInput].size()] : 0.0;
                    break;
                case NullCandidate::ConstantMean: out[i] = roundTo(dtype, mean); break;
                case NullCandidate::ConstantOne: out[i] = 1.0; break;
                case NullCandidate::StaleOutput: out[i] = roundTo(dtype, other[b][i]); break;
                }
            }
            allOutputsPass = compareValues(out.data(), ref.data(), int64_t(out.size()), tolerance).passed;
        }
        if (allOutputsPass)
            passing.push_back(candidate);
    }
    return passing;
}

} // namespace sf::kernels
