#pragma once
// The operations kernel tasks are built on: for each, the C ABI a candidate exports, its buffers,
// how inputs are drawn, the float64 reference, and bytes/FLOPs for the speed-of-light bound.
// Plain C++17, shared by skillforge_core (null-candidate checks on the CPU) and the kernel runner.

#include "Numeric.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sf::kernels {

/// One device buffer of an operation, in ABI order (outputs first, then inputs).
struct BufferSpec
{
    std::string name;
    bool output = false;
    bool alwaysFp32 = false; ///< e.g. rotary cos/sin tables: fp32 whatever the task's dtype
    int64_t elements = 0;
};

using Values = std::vector<double>;

/**
 * A reference operation. A candidate exports
 *   extern "C" int <entry>_<dtype>(buffers..., int64_t dims..., float scalars..., cudaStream_t)
 * with buffers in the order buffers() gives, as raw device pointers.
 */
struct OpDef
{
    std::string name;
    std::string summary;              ///< the formula, for people
    std::vector<std::string> dims;    ///< named sizes, in ABI order; dims[0] is the outer (row-like) one
    std::vector<std::string> scalars; ///< float parameters, in ABI order
    std::vector<double> defaultScalars;

    std::vector<BufferSpec> (*buffers)(const std::vector<int64_t> &dims) = nullptr;
    /// Fills every input buffer (outputs left empty), already rounded to the element type.
    void (*generate)(const std::vector<int64_t> &dims, DType dtype, uint64_t seed, std::vector<Values> &buffers) = nullptr;
    /// Computes every output buffer in float64 from the (rounded) inputs.
    void (*reference)(const std::vector<int64_t> &dims, const std::vector<double> &scalars,
                      std::vector<Values> &buffers) = nullptr;
    double (*flops)(const std::vector<int64_t> &dims) = nullptr;
    /// Empty when @p dims are valid for this operation, else why not.
    std::string (*checkDims)(const std::vector<int64_t> &dims) = nullptr;

    /// Bytes every correct kernel must move at least once: inputs read, outputs written.
    double bytes(const std::vector<int64_t> &dims, DType dtype) const;
    /// The C declaration a candidate must export for @p entry and @p dtype.
    std::string signature(const std::string &entry, DType dtype) const;
    int outputCount(const std::vector<int64_t> &dims) const;
};

/// All operations, in a fixed order; nullptr when @p name is unknown.
const std::vector<OpDef> &allOps();
const OpDef *findOp(const std::string &name);

/// The C type name of @p dtype in CUDA code ("__nv_bfloat16").
const char *cudaTypeName(DType dtype);

/// Inputs for @p seed plus float64 reference outputs: the full buffer list, in ABI order.
std::vector<Values> makeCase(const OpDef &op, const std::vector<int64_t> &dims, const std::vector<double> &scalars,
                             DType dtype, uint64_t seed);

} // namespace sf::kernels
