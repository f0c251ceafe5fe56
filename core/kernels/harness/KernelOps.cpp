#include "KernelOps.h"

#include <algorithm>
#include <cmath>

namespace sf::kernels {

namespace {

using Dims = std::vector<int64_t>;

// Signed values whose magnitude changes by up to 100x from row to row: an identity or a copy of the
// input cannot pass a normalization, and a kernel that mixes up rows shows.
void mixedRows(Values &v, int64_t rowLength, DType dtype, Random &rng)
{
    double scale = 1.0;
    for (size_t i = 0; i < v.size(); ++i) {
        if (rowLength > 0 && int64_t(i) % rowLength == 0)
            scale = std::pow(10.0, rng.uniform(-1.0, 1.0));
        v[i] = roundTo(dtype, scale * rng.normal());
    }
}

// Affine parameters around one, some negative: ignoring the weight must fail.
void weights(Values &v, double mean, double spread, DType dtype, Random &rng)
{
    for (double &x : v)
        x = roundTo(dtype, mean + spread * rng.normal());
}

std::string positive(const Dims &dims, const std::vector<std::string> &names)
{
    for (size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] <= 0)
            return names[i] + " must be positive";
    }
    return {};
}

double gelu_erf(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }
double gelu_tanh(double x)
{
    const double k = std::sqrt(2.0 / 3.141592653589793);
    return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
}
double silu(double x) { return x / (1.0 + std::exp(-x)); }

// ---- RMSNorm: out = x * rsqrt(mean(x^2) + eps) * weight
std::vector<BufferSpec> rmsnormBuffers(const Dims &d)
{
    return {{"out", true, false, d[0] * d[1]}, {"x", false, false, d[0] * d[1]}, {"weight", false, false, d[1]}};
}
void rmsnormGenerate(const Dims &d, DType t, uint64_t seed, std::vector<Values> &b)
{
    Random rng(seed);
    mixedRows(b[1], d[1], t, rng);
    weights(b[2], 1.0, 0.5, t, rng);
}
void rmsnormRows(const double *x, const double *w, double eps, int64_t rows, int64_t hidden, double *out)
{
    for (int64_t r = 0; r < rows; ++r) {
        const double *xr = x + r * hidden;
        double ss = 0.0;
        for (int64_t i = 0; i < hidden; ++i)
            ss += xr[i] * xr[i];
        const double inv = 1.0 / std::sqrt(ss / double(hidden) + eps);
        for (int64_t i = 0; i < hidden; ++i)
            out[r * hidden + i] = xr[i] * inv * w[i];
    }
}
void rmsnormReference(const Dims &d, const std::vector<double> &s, std::vector<Values> &b)
{
    rmsnormRows(b[1].data(), b[2].data(), s[0], d[0], d[1], b[0].data());
}
double rmsnormFlops(const Dims &d) { return 4.0 * double(d[0]) * double(d[1]); }
std::string rowsHidden(const Dims &d) { return positive(d, {"rows", "hidden"}); }

// ---- RMSNorm with residual add: h = x + residual; residual_out = h; out = rmsnorm(h) * weight
std::vector<BufferSpec> rmsnormResidualBuffers(const Dims &d)
{
    const int64_t n = d[0] * d[1];
    return {{"out", true, false, n},
            {"residual_out", true, false, n},
            {"x", false, false, n},
            {"residual", false, false, n},
            {"weight", false, false, d[1]}};
}
void rmsnormResidualGenerate(const Dims &d, DType t, uint64_t seed, std::vector<Values> &b)
{
    Random rng(seed);
    mixedRows(b[2], d[1], t, rng);
    mixedRows(b[3], d[1], t, rng);
    weights(b[4], 1.0, 0.5, t, rng);
}
void rmsnormResidualReference(const Dims &d, const std::vector<double> &s, std::vector<Values> &b)
{
    for (size_t i = 0; i < b[1].size(); ++i)
        b[1][i] = b[2][i] + b[3][i];
    rmsnormRows(b[1].data(), b[4].data(), s[0], d[0], d[1], b[0].data());
}
double rmsnormResidualFlops(const Dims &d) { return 5.0 * double(d[0]) * double(d[1]); }

// ---- LayerNorm: out = (x - mean) * rsqrt(var + eps) * weight + bias (biased variance)
std::vector<BufferSpec> layernormBuffers(const Dims &d)
{
    return {{"out", true, false, d[0] * d[1]},
            {"x", false, false, d[0] * d[1]},
            {"weight", false, false, d[1]},
            {"bias", false, false, d[1]}};
}
void layernormGenerate(const Dims &d, DType t, uint64_t seed, std::vector<Values> &b)
{
    Random rng(seed);
    mixedRows(b[1], d[1], t, rng);
    // An offset per row: a kernel that forgets to subtract the mean must fail.
    for (int64_t r = 0; r < d[0]; ++r) {
        const double offset = rng.uniform(-2.0, 2.0);
        for (int64_t i = 0; i < d[1]; ++i)
            b[1][size_t(r * d[1] + i)] = roundTo(t, b[1][size_t(r * d[1] + i)] + offset);
    }
    weights(b[2], 1.0, 0.5, t, rng);
    weights(b[3], 0.0, 0.5, t, rng);
}
void layerNormRow(const double *x, int64_t hidden, double eps, double *mean, double *inv)
{
    double sum = 0.0;
    for (int64_t i = 0; i < hidden; ++i)
        sum += x[i];
    *mean = sum / double(hidden);
    double var = 0.0;
    for (int64_t i = 0; i < hidden; ++i)
        var += (x[i] - *mean) * (x[i] - *mean);
    *inv = 1.0 / std::sqrt(var / double(hidden) + eps);
}
void layernormReference(const Dims &d, const std::vector<double> &s, std::vector<Values> &b)
{
    for (int64_t r = 0; r < d[0]; ++r) {
        const double *x = b[1].data() + r * d[1];
        double mean, inv;
        layerNormRow(x, d[1], s[0], &mean, &inv);
        for (int64_t i = 0; i < d[1]; ++i)
            b[0][size_t(r * d[1] + i)] = (x[i] - mean) * inv * b[2][size_t(i)] + b[3][size_t(i)];
    }
}
double layernormFlops(const Dims &d) { return 7.0 * double(d[0]) * double(d[1]); }

// ---- AdaLN modulation: out = layernorm(x, no affine) * (1 + scale[b]) + shift[b]
std::vector<BufferSpec> adalnBuffers(const Dims &d)
{
    const int64_t n = d[0] * d[1] * d[2];
    return {{"out", true, false, n},
            {"x", false, false, n},
            {"scale", false, false, d[0] * d[2]},
            {"shift", false, false, d[0] * d[2]}};
}
void adalnGenerate(const Dims &d, DType t, uint64_t seed, std::vector<Values> &b)
{
    Random rng(seed);
    mixedRows(b[1], d[2], t, rng);
    weights(b[2], 0.0, 0.5, t, rng);
    weights(b[3], 0.0, 0.5, t, rng);
}
void adalnReference(const Dims &d, const std::vector<double> &s, std::vector<Values> &b)
{
    const int64_t hidden = d[2];
    for (int64_t batch = 0; batch < d[0]; ++batch) {
        for (int64_t tok = 0; tok < d[1]; ++tok) {
            const int64_t row = batch * d[1] + tok;
            const double *x = b[1].data() + row * hidden;
            double mean, inv;
            layerNormRow(x, hidden, s[0], &mean, &inv);
            for (int64_t i = 0; i < hidden; ++i) {
                const size_t m = size_t(batch * hidden + i);
                b[0][size_t(row * hidden + i)] = (x[i] - mean) * inv * (1.0 + b[2][m]) + b[3][m];
            }
        }
    }
}
double adalnFlops(const Dims &d) { return 8.0 * double(d[0]) * double(d[1]) * double(d[2]); }
std::string adalnCheck(const Dims &d) { return positive(d, {"batch", "tokens", "hidden"}); }

// ---- Gated activations over [rows, 2 * hidden]: value = x[:, :hidden], gate = x[:, hidden:]
std::vector<BufferSpec> gatedBuffers(const Dims &d)
{
    return {{"out", true, false, d[0] * d[1]}, {"x", false, false, d[0] * 2 * d[1]}};
}
void gatedGenerate(const Dims &d, DType t, uint64_t seed, std::vector<Values> &b)
{
    Random rng(seed);
    mixedRows(b[1], 2 * d[1], t, rng);
}
template <double (*Activation)(double)> void gatedReference(const Dims &d, const std::vector<double> &, std::vector<Values> &b)
{
    for (int64_t r = 0; r < d[0]; ++r) {
        const double *x = b[1].data() + r * 2 * d[1];
        for (int64_t i = 0; i < d[1]; ++i)
            b[0][size_t(r * d[1] + i)] = x[i] * Activation(x[d[1] + i]);
    }
}
double gatedFlops(const Dims &d) { return 12.0 * double(d[0]) * double(d[1]); }

// ---- GELU (tanh approximation), elementwise over n values
std::vector<BufferSpec> geluBuffers(const Dims &d) { return {{"out", true, false, d[0]}, {"x", false, false, d[0]}}; }
void geluGenerate(const Dims &, DType t, uint64_t seed, std::vector<Values> &b)
{
    Random rng(seed);
    mixedRows(b[1], 1024, t, rng);
}
void geluReference(const Dims &, const std::vector<double> &, std::vector<Values> &b)
{
    for (size_t i = 0; i < b[1].size(); ++i)
        b[0][i] = gelu_tanh(b[1][i]);
}
double geluFlops(const Dims &d) { return 10.0 * double(d[0]); }
std::string nCheck(const Dims &d) { return positive(d, {"n"}); }

// ---- Rotary embedding on interleaved pairs (Flux): x [tokens, heads, head_dim], cos/sin [tokens, head_dim/2]
std::vector<BufferSpec> ropeBuffers(const Dims &d)
{
    const int64_t n = d[0] * d[1] * d[2];
    const int64_t table = d[0] * (d[2] / 2);
    return {{"out", true, false, n}, {"x", false, false, n}, {"cos", false, true, table}, {"sin", false, true, table}};
}
void ropeGenerate(const Dims &d, DType t, uint64_t seed, std::vector<Values> &b)
{
    Random rng(seed);
    mixedRows(b[1], d[2], t, rng);
    for (size_t i = 0; i < b[2].size(); ++i) {
        const double angle = rng.uniform(-3.141592653589793, 3.141592653589793);
        b[2][i] = double(float(std::cos(angle)));
        b[3][i] = double(float(std::sin(angle)));
    }
}
void ropeReference(const Dims &d, const std::vector<double> &, std::vector<Values> &b)
{
    const int64_t heads = d[1], headDim = d[2], half = d[2] / 2;
    for (int64_t tok = 0; tok < d[0]; ++tok) {
        for (int64_t h = 0; h < heads; ++h) {
            const int64_t base = (tok * heads + h) * headDim;
            for (int64_t p = 0; p < half; ++p) {
                const double c = b[2][size_t(tok * half + p)], s = b[3][size_t(tok * half + p)];
                const double x0 = b[1][size_t(base + 2 * p)], x1 = b[1][size_t(base + 2 * p + 1)];
                b[0][size_t(base + 2 * p)] = x0 * c - x1 * s;
                b[0][size_t(base + 2 * p + 1)] = x0 * s + x1 * c;
            }
        }
    }
}
double ropeFlops(const Dims &d) { return 3.0 * double(d[0]) * double(d[1]) * double(d[2]); }
std::string ropeCheck(const Dims &d)
{
    std::string problem = positive(d, {"tokens", "heads", "head_dim"});
    if (problem.empty() && d[2] % 2 != 0)
        problem = "head_dim must be even (pairs are rotated)";
    return problem;
}

// ---- Softmax over the last dimension
std::vector<BufferSpec> softmaxBuffers(const Dims &d)
{
    return {{"out", true, false, d[0] * d[1]}, {"x", false, false, d[0] * d[1]}};
}
void softmaxGenerate(const Dims &d, DType t, uint64_t seed, std::vector<Values> &b)
{
    Random rng(seed);
    // Large offsets make exp() overflow unless the row maximum is subtracted; the spread varies so
    // some rows are nearly one-hot and others nearly flat.
    for (int64_t r = 0; r < d[0]; ++r) {
        const double offset = rng.uniform(-100.0, 100.0);
        const double spread = rng.uniform(0.5, 8.0);
        for (int64_t i = 0; i < d[1]; ++i)
            b[1][size_t(r * d[1] + i)] = roundTo(t, offset + spread * rng.normal());
    }
}
void softmaxReference(const Dims &d, const std::vector<double> &, std::vector<Values> &b)
{
    for (int64_t r = 0; r < d[0]; ++r) {
        const double *x = b[1].data() + r * d[1];
        const double m = *std::max_element(x, x + d[1]);
        double sum = 0.0;
        for (int64_t i = 0; i < d[1]; ++i)
            sum += std::exp(x[i] - m);
        for (int64_t i = 0; i < d[1]; ++i)
            b[0][size_t(r * d[1] + i)] = std::exp(x[i] - m) / sum;
    }
}
double softmaxFlops(const Dims &d) { return 5.0 * double(d[0]) * double(d[1]); }
std::string rowsCols(const Dims &d) { return positive(d, {"rows", "cols"}); }

std::vector<OpDef> makeOps()
{
    std::vector<OpDef> ops;
    auto add = [&ops](OpDef op) { ops.push_back(std::move(op)); };
    OpDef op;

    op = {};
    op.name = "rmsnorm";
    op.summary = "out[r,i] = x[r,i] * rsqrt(mean_i(x[r,:]^2) + eps) * weight[i]";
    op.dims = {"rows", "hidden"};
    op.scalars = {"eps"};
    op.defaultScalars = {1e-6};
    op.buffers = rmsnormBuffers;
    op.generate = rmsnormGenerate;
    op.reference = rmsnormReference;
    op.flops = rmsnormFlops;
    op.checkDims = rowsHidden;
    add(op);

    op = {};
    op.name = "rmsnorm_residual";
    op.summary = "h = x + residual; residual_out = h; out[r,i] = h[r,i] * rsqrt(mean_i(h[r,:]^2) + eps) * weight[i]";
    op.dims = {"rows", "hidden"};
    op.scalars = {"eps"};
    op.defaultScalars = {1e-6};
    op.buffers = rmsnormResidualBuffers;
    op.generate = rmsnormResidualGenerate;
    op.reference = rmsnormResidualReference;
    op.flops = rmsnormResidualFlops;
    op.checkDims = rowsHidden;
    add(op);

    op = {};
    op.name = "layernorm";
    op.summary = "out[r,i] = (x[r,i] - mean) * rsqrt(var + eps) * weight[i] + bias[i] (biased variance)";
    op.dims = {"rows", "hidden"};
    op.scalars = {"eps"};
    op.defaultScalars = {1e-5};
    op.buffers = layernormBuffers;
    op.generate = layernormGenerate;
    op.reference = layernormReference;
    op.flops = layernormFlops;
    op.checkDims = rowsHidden;
    add(op);

    op = {};
    op.name = "adaln";
    op.summary = "out[b,t,i] = layernorm(x[b,t,:])[i] * (1 + scale[b,i]) + shift[b,i] (no affine in the norm)";
    op.dims = {"batch", "tokens", "hidden"};
    op.scalars = {"eps"};
    op.defaultScalars = {1e-6};
    op.buffers = adalnBuffers;
    op.generate = adalnGenerate;
    op.reference = adalnReference;
    op.flops = adalnFlops;
    op.checkDims = adalnCheck;
    add(op);

    op = {};
    op.name = "geglu";
    op.summary = "x is [rows, 2*hidden]; out[r,i] = x[r,i] * gelu_erf(x[r,hidden+i])";
    op.dims = {"rows", "hidden"};
    op.buffers = gatedBuffers;
    op.generate = gatedGenerate;
    op.reference = gatedReference<gelu_erf>;
    op.flops = gatedFlops;
    op.checkDims = rowsHidden;
    add(op);

    op = {};
    op.name = "gelu_tanh";
    op.summary = "out[i] = 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))";
    op.dims = {"n"};
    op.buffers = geluBuffers;
    op.generate = geluGenerate;
    op.reference = geluReference;
    op.flops = geluFlops;
    op.checkDims = nCheck;
    add(op);

    op = {};
    op.name = "swiglu";
    op.summary = "x is [rows, 2*hidden]; out[r,i] = x[r,i] * silu(x[r,hidden+i])";
    op.dims = {"rows", "hidden"};
    op.buffers = gatedBuffers;
    op.generate = gatedGenerate;
    op.reference = gatedReference<silu>;
    op.flops = gatedFlops;
    op.checkDims = rowsHidden;
    add(op);

    op = {};
    op.name = "rope";
    op.summary = "pairs (2p, 2p+1) of x[t,h,:] rotated by cos/sin[t,p]: out = (x0*c - x1*s, x0*s + x1*c)";
    op.dims = {"tokens", "heads", "head_dim"};
    op.buffers = ropeBuffers;
    op.generate = ropeGenerate;
    op.reference = ropeReference;
    op.flops = ropeFlops;
    op.checkDims = ropeCheck;
    add(op);

    op = {};
    op.name = "softmax";
    op.summary = "out[r,i] = exp(x[r,i] - max_r) / sum_j exp(x[r,j] - max_r)";
    op.dims = {"rows", "cols"};
    op.buffers = softmaxBuffers;
    op.generate = softmaxGenerate;
    op.reference = softmaxReference;
    op.flops = softmaxFlops;
    op.checkDims = rowsCols;
    add(op);

    return ops;
}

} // namespace

double OpDef::bytes(const std::vector<int64_t> &d, DType dtype) const
{
    double total = 0.0;
    for (const BufferSpec &b : buffers(d))
        total += double(b.elements) * (b.alwaysFp32 ? 4 : dtypeSize(dtype));
    return total;
}

int OpDef::outputCount(const std::vector<int64_t> &d) const
{
    int n = 0;
    for (const BufferSpec &b : buffers(d))
        n += b.output ? 1 : 0;
    return n;
}

const char *cudaTypeName(DType dtype)
{
    switch (dtype) {
    case DType::F32: return "float";
    case DType::BF16: return "__nv_bfloat16";
    case DType::F16: return "__half";
    }
    return "float";
}

std::string OpDef::signature(const std::string &entry, DType dtype) const
{
    std::string s = "extern \"C\" int " + entry + "_" + dtypeName(dtype) + "(";
    std::vector<int64_t> ones(dims.size(), 2);
    bool first = true;
    auto sep = [&] {
        if (!first)
            s += ", ";
        first = false;
    };
    for (const BufferSpec &b : buffers(ones)) {
        sep();
        s += std::string(b.output ? "" : "const ") + (b.alwaysFp32 ? "float" : cudaTypeName(dtype)) + "* " + b.name;
    }
    for (const std::string &dim : dims) {
        sep();
        s += "int64_t " + dim;
    }
    for (const std::string &scalar : scalars) {
        sep();
        s += "float " + scalar;
    }
    sep();
    s += "cudaStream_t stream)";
    return s;
}

const std::vector<OpDef> &allOps()
{
    static const std::vector<OpDef> ops = makeOps();
    return ops;
}

const OpDef *findOp(const std::string &name)
{
    for (const OpDef &op : allOps()) {
        if (op.name == name)
            return &op;
    }
    return nullptr;
}

std::vector<Values> makeCase(const OpDef &op, const std::vector<int64_t> &dims, const std::vector<double> &scalars,
                             DType dtype, uint64_t seed)
{
    std::vector<Values> buffers;
    for (const BufferSpec &b : op.buffers(dims))
        buffers.emplace_back(size_t(b.elements), 0.0);
    op.generate(dims, dtype, seed, buffers);
    op.reference(dims, scalars, buffers);
    return buffers;
}

} // namespace sf::kernels
