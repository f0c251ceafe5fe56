#pragma once
// Calls an entry point `int f(void* buffers..., int64_t dims..., float scalars..., cudaStream_t)`
// whose parameter counts are known only at run time (they come from the task's operation).
// Every typed device pointer (float*, __half*, ...) is passed as void*: the same register class and
// size on every ABI nvcc targets, so the call is exactly what a typed call would be.

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace sf::kernels {

using EntryCaller = int (*)(void *fn, void *const *buffers, const int64_t *dims, const float *scalars, cudaStream_t);

namespace detail {

template <size_t> using VoidPtr = void *;
template <size_t> using Int64 = int64_t;
template <size_t> using Float = float;

template <size_t... P, size_t... D, size_t... F>
int callWith(void *fn, void *const *b, const int64_t *d, const float *f, cudaStream_t s, std::index_sequence<P...>,
             std::index_sequence<D...>, std::index_sequence<F...>)
{
    using Fn = int (*)(VoidPtr<P>..., Int64<D>..., Float<F>..., cudaStream_t);
    return reinterpret_cast<Fn>(fn)(b[P]..., d[D]..., f[F]..., s);
}

template <size_t NP, size_t ND, size_t NF>
int call(void *fn, void *const *b, const int64_t *d, const float *f, cudaStream_t s)
{
    return callWith(fn, b, d, f, s, std::make_index_sequence<NP>{}, std::make_index_sequence<ND>{},
                    std::make_index_sequence<NF>{});
}

template <size_t NP, size_t ND> EntryCaller pickScalars(int nf)
{
    switch (nf) {
    case 0: return &call<NP, ND, 0>;
    case 1: return &call<NP, ND, 1>;
    case 2: return &call<NP, ND, 2>;
    default: return nullptr;
    }
}

template <size_t NP> EntryCaller pickDims(int nd, int nf)
{
    switch (nd) {
    case 1: return pickScalars<NP, 1>(nf);
    case 2: return pickScalars<NP, 2>(nf);
    case 3: return pickScalars<NP, 3>(nf);
    case 4: return pickScalars<NP, 4>(nf);
    default: return nullptr;
    }
}

} // namespace detail

/// The caller for @p buffers pointers, @p dims sizes and @p scalars floats; nullptr when unsupported.
inline EntryCaller entryCaller(int buffers, int dims, int scalars)
{
    switch (buffers) {
    case 1: return detail::pickDims<1>(dims, scalars);
    case 2: return detail::pickDims<2>(dims, scalars);
    case 3: return detail::pickDims<3>(dims, scalars);
    case 4: return detail::pickDims<4>(dims, scalars);
    case 5: return detail::pickDims<5>(dims, scalars);
    case 6: return detail::pickDims<6>(dims, scalars);
    default: return nullptr;
    }
}

} // namespace sf::kernels
