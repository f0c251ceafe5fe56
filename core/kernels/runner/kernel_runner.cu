// skillforge-kernel-runner: runs one candidate CUDA kernel library against a task's float64
// reference and times it against the task's baseline, on the local GPU, in its own process.
//
//   skillforge-kernel-runner run --task task.json --dtype bf16 --candidate lib.so --baseline base.so
//                                --key-file KEY --nonce NONCE [--verdict-fd 3] [--seeds 5]
//                                [--time-budget-ms 1500] [--no-timing]
//   skillforge-kernel-runner verify --key-file KEY --nonce NONCE [--in FILE]
//   skillforge-kernel-runner device
//
// The verdict goes to the verdict fd as one signed frame (harness/VerdictProtocol.h); nothing the
// runner or the candidate prints on stdout/stderr counts. Why each step exists is in
// docs/kernel-runner.md and shared/reference/kernel-evaluation.md.
//
// Plain C++17 + the CUDA runtime: it builds where Qt is not installed (tests/gpu/run.sh).

#include "CandidateCall.h"
#include "harness/BufferRotation.h"
#include "harness/Comparison.h"
#include "harness/KernelOps.h"
#include "harness/ProcessGuard.h"
#include "harness/SeedSchedule.h"
#include "harness/Statistics.h"
#include "harness/TaskSpec.h"
#include "harness/TimingChecks.h"
#include "harness/VerdictProtocol.h"

#include <cuda_runtime.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace sf::kernels;

namespace {

constexpr size_t GuardBytes = 64 * 1024;
constexpr unsigned char GuardByte = 0xA5;
constexpr int ExitUsage = 2;

// ---------------------------------------------------------------- JSON output
std::string jstr(const std::string &s)
{
    std::string out = "\"";
    for (const char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += c;
            }
        }
    }
    return out + "\"";
}

std::string jnum(double v)
{
    if (!std::isfinite(v))
        return std::isnan(v) ? "\"nan\"" : (v > 0 ? "\"inf\"" : "\"-inf\"");
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

std::string jlist(const std::vector<std::string> &items, bool quote)
{
    std::string out = "[";
    for (size_t i = 0; i < items.size(); ++i)
        out += (i ? "," : "") + (quote ? jstr(items[i]) : items[i]);
    return out + "]";
}

// ---------------------------------------------------------------- the verdict
struct Verdict
{
    std::string task, dtype, device = "{}";
    bool failed = false;
    bool notRun = false; ///< no device: nothing was judged
    std::string reason;
    std::vector<std::string> correctness, timing, flags, notes;
    std::string streamCheck = "null", revalidation = "null", determinism = "null";
    std::string processGuard = "null"; ///< ProcessGuardStatus::json(): which parts of the guard were in force
    bool timed = false;
};

Verdict g_verdict;
std::string g_key, g_nonce;
int g_fd = -1;
const ImageSnapshot *g_image = nullptr; ///< the runner's GOT and code before any candidate code was loaded

void fail(const std::string &reason)
{
    if (!g_verdict.failed) {
        g_verdict.failed = true;
        g_verdict.reason = reason;
    }
}

// Writes the signed verdict and ends the process without running destructors: after a candidate
// crashed the GPU context, CUDA teardown itself may fail or hang.
[[noreturn]] void deliver()
{
    const Verdict &v = g_verdict;
    const std::string status = v.notRun ? "not_run" : v.failed ? "failed" : "passed";
    std::string reason = v.reason;
    if (!v.failed)
        reason = v.timed ? "correct on every shape and seed; timed against the baseline"
                         : "correct on every shape and seed (not timed)";
    const std::string body = "{\"runner\":\"skillforge-kernel-runner 1\",\"task\":" + jstr(v.task)
                             + ",\"dtype\":" + jstr(v.dtype) + ",\"status\":" + jstr(status) + ",\"reason\":" + jstr(reason)
                             + ",\"device\":" + v.device + ",\"correctness\":" + jlist(v.correctness, false)
                             + ",\"stream_check\":" + v.streamCheck + ",\"timed\":" + (v.timed ? "true" : "false")
                             + ",\"timing\":" + jlist(v.timing, false) + ",\"revalidation\":" + v.revalidation
                             + ",\"determinism\":" + v.determinism + ",\"flags\":" + jlist(v.flags, true)
                             + ",\"process_guard\":" + v.processGuard + ",\"notes\":" + jlist(v.notes, true) + "}";
    const std::string frame = encodeVerdictFrame(body, g_key, g_nonce);
    size_t written = 0;
    while (written < frame.size()) {
        const ssize_t n = ::write(g_fd, frame.data() + written, frame.size() - written);
        if (n <= 0)
            break;
        written += size_t(n);
    }
    ::close(g_fd);
    std::fflush(stderr);
    _exit(0);
}

[[noreturn]] void fatal(const std::string &reason)
{
    fail(reason);
    deliver();
}

void checkCuda(cudaError_t e, const std::string &what)
{
    if (e != cudaSuccess)
        fatal(what + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

// ---------------------------------------------------------------- device buffers with guards
struct DeviceBuffer
{
    char *base = nullptr;
    char *data = nullptr;
    size_t bytes = 0;
};

DeviceBuffer allocate(size_t bytes)
{
    DeviceBuffer b;
    b.bytes = bytes;
    checkCuda(cudaMalloc(&b.base, bytes + 2 * GuardBytes), "cudaMalloc of a test buffer");
    b.data = b.base + GuardBytes;
    checkCuda(cudaMemset(b.base, GuardByte, GuardBytes), "guard fill");
    checkCuda(cudaMemset(b.data + bytes, GuardByte, GuardBytes), "guard fill");
    return b;
}

/// How many guard bytes around @p b were overwritten (0 when none).
size_t damagedGuardBytes(const DeviceBuffer &b)
{
    std::vector<unsigned char> guard(2 * GuardBytes);
    checkCuda(cudaMemcpy(guard.data(), b.base, GuardBytes, cudaMemcpyDeviceToHost), "guard read");
    checkCuda(cudaMemcpy(guard.data() + GuardBytes, b.data + b.bytes, GuardBytes, cudaMemcpyDeviceToHost), "guard read");
    size_t damaged = 0;
    for (unsigned char c : guard)
        damaged += c != GuardByte;
    return damaged;
}

uint64_t fnv1a(const void *data, size_t n)
{
    const auto *p = static_cast<const unsigned char *>(data);
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; ++i)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

std::string hex64(uint64_t v)
{
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

// ---------------------------------------------------------------- one case: buffers for a shape and seed
struct Case
{
    std::vector<BufferSpec> specs;
    std::vector<int64_t> dims;
    std::vector<Values> values; ///< inputs and float64 reference outputs (those once referenceReady)
    bool referenceReady = false;
    std::vector<std::vector<unsigned char>> hostBytes;
    std::vector<DeviceBuffer> device;
    std::vector<void *> pointers;
};

size_t elementSize(const BufferSpec &b, DType dtype) { return b.alwaysFp32 ? 4 : size_t(dtypeSize(dtype)); }

std::vector<unsigned char> encode(const Values &v, DType t)
{
    std::vector<unsigned char> bytes(v.size() * size_t(dtypeSize(t)));
    for (size_t i = 0; i < v.size(); ++i)
        storeAs(t, v[i], bytes.data() + i * size_t(dtypeSize(t)));
    return bytes;
}

Values decode(const std::vector<unsigned char> &bytes, DType t)
{
    Values v(bytes.size() / size_t(dtypeSize(t)));
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = loadAs(t, bytes.data() + i * size_t(dtypeSize(t)));
    return v;
}

struct Context
{
    TaskSpec task;
    DType dtype = DType::BF16;
    Tolerance tolerance;
    void *candidate = nullptr;
    void *baseline = nullptr;
    EntryCaller caller = nullptr;
    cudaStream_t stream = nullptr;
    int seeds = 5;
    double timeBudgetMs = 1500;
    double peakBandwidth = 0; ///< bytes/s
    double peakFlops = 0;     ///< fp32 FLOP/s
    size_t l2Bytes = 0;
    SeedSchedule schedule{0}; ///< replaced by a fresh secret before any candidate code is loaded
};

/// The float64 reference outputs of @p c's inputs, computed on first need: warm-up inputs never need them, and
/// the timed phase's only when one of its calls is checked.
void ensureReference(Case &c, const Context &ctx)
{
    if (c.referenceReady)
        return;
    ctx.task.op->reference(c.dims, ctx.task.scalars, c.values);
    c.referenceReady = true;
}

void fillCase(Case &c, const Context &ctx, const std::vector<int64_t> &dims, uint64_t seed, bool withReference = true)
{
    // As makeCase(), with the reference left for later where it may never be needed.
    c.dims = dims;
    c.values.clear();
    for (const BufferSpec &b : c.specs)
        c.values.emplace_back(size_t(b.elements), 0.0);
    ctx.task.op->generate(dims, ctx.dtype, seed, c.values);
    c.referenceReady = false;
    if (withReference)
        ensureReference(c, ctx);
    c.hostBytes.clear();
    for (size_t b = 0; b < c.specs.size(); ++b)
        c.hostBytes.push_back(c.specs[b].output ? std::vector<unsigned char>()
                                                : encode(c.values[b], c.specs[b].alwaysFp32 ? DType::F32 : ctx.dtype));
}

void upload(Case &c)
{
    for (size_t b = 0; b < c.specs.size(); ++b) {
        if (c.specs[b].output)
            checkCuda(cudaMemset(c.device[b].data, 0xFF, c.device[b].bytes), "NaN fill of an output"); // all-ones = NaN
        else
            checkCuda(cudaMemcpy(c.device[b].data, c.hostBytes[b].data(), c.device[b].bytes, cudaMemcpyHostToDevice),
                      "input upload");
    }
}

Case makeDeviceCase(const Context &ctx, const std::vector<int64_t> &dims, uint64_t seed, bool withReference = true)
{
    Case c;
    c.specs = ctx.task.op->buffers(dims);
    fillCase(c, ctx, dims, seed, withReference);
    for (const BufferSpec &s : c.specs) {
        c.device.push_back(allocate(size_t(s.elements) * elementSize(s, ctx.dtype)));
        c.pointers.push_back(c.device.back().data);
    }
    upload(c);
    return c;
}

void release(Case &c)
{
    for (DeviceBuffer &b : c.device)
        cudaFree(b.base);
    c.device.clear();
    c.pointers.clear();
}

/// Fails the verdict when loaded code tried a system call the process guard refuses, or changed the runner's GOT (a
/// route the guard missed). Cheap (a counter and a few KiB compared), so it runs after every call.
void checkProcessGuard()
{
    if (const std::string tried = ProcessGuard::attempts(); !tried.empty())
        fatal("process tampering: the candidate tried system calls the process guard refuses: " + tried);
    if (g_image) {
        if (const std::string changed = g_image->relocationsChanged(); !changed.empty())
            fatal("process tampering: the runner's own " + changed + " changed during a call (its timing was patched)");
    }
}

void checkRunnerCode()
{
    if (g_image) {
        if (const std::string changed = g_image->codeChanged(); !changed.empty())
            fatal("process tampering: the runner's own " + changed + " changed (its timing was patched)");
    }
}

int call(const Context &ctx, void *fn, Case &c, const std::vector<int64_t> &dims)
{
    std::vector<float> scalars(ctx.task.scalars.begin(), ctx.task.scalars.end());
    const int rc = ctx.caller(fn, c.pointers.data(), dims.data(), scalars.data(), ctx.stream);
    checkProcessGuard();
    return rc;
}

std::string dimsText(const std::vector<int64_t> &dims)
{
    std::string s;
    for (size_t i = 0; i < dims.size(); ++i)
        s += (i ? "x" : "") + std::to_string(dims[i]);
    return s;
}

struct CheckResult
{
    bool passed = true;
    std::string failure;
    std::string json;
    std::vector<std::vector<unsigned char>> outputs; ///< raw output bytes, for the determinism check
};

/// Reads outputs and inputs back and judges them: tolerance, NaN/Inf parity, inputs unchanged, guards intact.
CheckResult judge(const Context &ctx, Case &c, const std::string &shapeName, uint64_t seed, int rc)
{
    ensureReference(c, ctx);
    CheckResult r;
    Comparison worst;
    int64_t elements = 0, mismatches = 0;
    std::string firstMismatch = "null";
    for (size_t b = 0; b < c.specs.size(); ++b) {
        const BufferSpec &s = c.specs[b];
        std::vector<unsigned char> bytes(c.device[b].bytes);
        checkCuda(cudaMemcpy(bytes.data(), c.device[b].data, bytes.size(), cudaMemcpyDeviceToHost), "read back");
        if (const size_t damaged = damagedGuardBytes(c.device[b])) {
            r.passed = false;
            if (r.failure.empty())
                r.failure = "wrote out of bounds around '" + s.name + "' (" + std::to_string(damaged) + " guard bytes changed)";
        }
        if (!s.output) {
            const uint64_t before = fnv1a(c.hostBytes[b].data(), c.hostBytes[b].size());
            const uint64_t after = fnv1a(bytes.data(), bytes.size());
            if (before != after) {
                r.passed = false;
                if (r.failure.empty())
                    r.failure = "modified its input '" + s.name + "' (checksum " + hex64(before) + " became " + hex64(after) + ")";
            }
            continue;
        }
        const Values out = decode(bytes, s.alwaysFp32 ? DType::F32 : ctx.dtype);
        const Comparison cmp = compareValues(out.data(), c.values[b].data(), int64_t(out.size()), ctx.tolerance);
        elements += cmp.elements;
        mismatches += cmp.mismatches;
        worst.maxAbsError = std::max(worst.maxAbsError, cmp.maxAbsError);
        worst.maxRelError = std::max(worst.maxRelError, cmp.maxRelError);
        worst.relL2Error = std::max(worst.relL2Error, cmp.relL2Error);
        if (!cmp.passed && firstMismatch == "null") {
            firstMismatch = "{\"buffer\":" + jstr(s.name) + ",\"index\":" + std::to_string(cmp.firstMismatch)
                            + ",\"out\":" + jnum(cmp.firstOut) + ",\"ref\":" + jnum(cmp.firstRef) + "}";
            r.passed = false;
            if (r.failure.empty()) {
                std::ostringstream why;
                why << cmp.mismatches << " of " << cmp.elements << " elements of '" << s.name
                    << "' outside the tolerance (first at index " << cmp.firstMismatch << ": got " << cmp.firstOut
                    << ", expected " << cmp.firstRef << ")";
                r.failure = why.str();
            }
        }
        r.outputs.push_back(std::move(bytes));
    }
    if (rc != 0) {
        r.passed = false;
        r.failure = "the entry point returned " + std::to_string(rc) + " ("
                    + cudaGetErrorName(static_cast<cudaError_t>(rc)) + ")";
    }
    r.json = "{\"shape\":" + jstr(shapeName) + ",\"seed\":" + std::to_string(seed) + ",\"passed\":"
             + (r.passed ? "true" : "false") + ",\"elements\":" + std::to_string(elements) + ",\"mismatches\":"
             + std::to_string(mismatches) + ",\"max_abs_error\":" + jnum(worst.maxAbsError) + ",\"max_rel_error\":"
             + jnum(worst.maxRelError) + ",\"rel_l2_error\":" + jnum(worst.relL2Error) + ",\"first_mismatch\":"
             + firstMismatch + ",\"failure\":" + jstr(r.failure) + "}";
    return r;
}

void synchronizeOrDie(const std::string &where)
{
    const cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess)
        return;
    fatal("the candidate failed on the GPU " + where + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

// ---------------------------------------------------------------- stream discipline
__global__ void holdStream(volatile int *release, long long maxCycles)
{
    const long long start = clock64();
    while (*release == 0 && clock64() - start < maxCycles) {
    }
}

/// Blocks the harness stream, calls the candidate, and watches whether its output changes before the
/// stream is released: work that does not wait for the given stream runs somewhere else.
void checkStreamDiscipline(const Context &ctx, const TaskShape &shape)
{
    // A first call, unwatched: CUDA loads a library's kernels lazily at their first launch, and loading waits for the
    // device, so on a held stream a correct kernel's first call blocks until the hold is released (seen on an H200,
    // CUDA 13: every real candidate looked like one that synchronizes, and the check proved nothing). First-call
    // allocations (cudaFree waits for the device too) are made here as well.
    Case first = makeDeviceCase(ctx, shape.dims, ctx.schedule.seed(Phase::StreamCheck, 0, 1), false);
    call(ctx, ctx.candidate, first, shape.dims);
    synchronizeOrDie("(its first call)");
    release(first);

    const uint64_t seed = ctx.schedule.seed(Phase::StreamCheck, 0, 0);
    Case c = makeDeviceCase(ctx, shape.dims, seed);
    int *flag = nullptr;
    checkCuda(cudaHostAlloc(reinterpret_cast<void **>(&flag), sizeof(int), cudaHostAllocMapped), "cudaHostAlloc");
    *flag = 0;
    int *deviceFlag = nullptr;
    checkCuda(cudaHostGetDevicePointer(reinterpret_cast<void **>(&deviceFlag), flag, 0), "mapped flag");
    cudaStream_t observer;
    checkCuda(cudaStreamCreateWithFlags(&observer, cudaStreamNonBlocking), "observer stream");

    holdStream<<<1, 1, 0, ctx.stream>>>(deviceFlag, 20'000'000'000ll);
    checkCuda(cudaGetLastError(), "launching the stream hold");
    std::atomic<bool> returned{false};
    // A candidate that synchronizes inside its entry point would wait for the hold forever.
    std::thread watchdog([&] {
        for (int i = 0; i < 300 && !returned.load(); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        // Release early only for a call that is itself waiting on the held stream; otherwise the
        // stream stays held until the output has been watched below.
        if (!returned.load())
            *reinterpret_cast<volatile int *>(flag) = 1;
    });
    const auto t0 = std::chrono::steady_clock::now();
    const int rc = call(ctx, ctx.candidate, c, shape.dims);
    const double callMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    returned = true;

    bool escaped = false;
    if (callMs < 2500) {
        const size_t probe = std::min<size_t>(c.device[0].bytes, 1 << 20);
        std::vector<unsigned char> host(probe);
        for (int i = 0; i < 20 && !escaped; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            checkCuda(cudaMemcpyAsync(host.data(), c.device[0].data, probe, cudaMemcpyDeviceToHost, observer), "probe");
            checkCuda(cudaStreamSynchronize(observer), "probe");
            for (unsigned char b : host) {
                if (b != 0xFF) {
                    escaped = true;
                    break;
                }
            }
        }
    }
    *reinterpret_cast<volatile int *>(flag) = 1;
    watchdog.join();
    synchronizeOrDie("(stream check)");
    const CheckResult r = judge(ctx, c, shape.name, seed, rc);
    std::string detail;
    if (escaped) {
        detail = "the output changed while the stream it was given was still blocked: the work runs on another stream";
        fail("work outside the harness's stream: " + detail);
    } else if (callMs >= 2500) {
        detail = "the entry point blocked until its stream finished (it synchronizes); the output could not be watched";
        g_verdict.notes.push_back(detail);
    }
    g_verdict.streamCheck = std::string("{\"passed\":") + (escaped ? "false" : "true") + ",\"call_ms\":" + jnum(callMs)
                            + ",\"detail\":" + jstr(detail) + "}";
    if (!r.passed)
        fail("shape " + shape.name + " (stream check): " + r.failure);
    cudaStreamDestroy(observer);
    cudaFreeHost(flag);
    release(c);
}

// ---------------------------------------------------------------- timing
/// The host clock of the timing cross-check, read through the runner's own import table (read-only under full
/// RELRO) straight into the C library, rather than through another library's (possibly writable) one.
double monotonicMicroseconds()
{
    timespec t{};
    ::clock_gettime(CLOCK_MONOTONIC, &t);
    return double(t.tv_sec) * 1e6 + double(t.tv_nsec) * 1e-3;
}

/// One timed call. Its outputs are filled with NaN first, so a call that skips its work leaves NaN for a check to
/// find; persisting-L2 lines are let go and the L2 flushed, all before the events start.
TimingSample timeOnce(const Context &ctx, void *fn, Case &c, const std::vector<int64_t> &dims, DeviceBuffer &flush,
                      cudaEvent_t start, cudaEvent_t stop, int salt)
{
    for (size_t b = 0; b < c.specs.size(); ++b) {
        if (c.specs[b].output)
            checkCuda(cudaMemsetAsync(c.device[b].data, 0xFF, c.device[b].bytes, ctx.stream), "NaN fill of an output");
    }
    if (cudaCtxResetPersistingL2Cache() != cudaSuccess)
        cudaGetLastError();
    checkCuda(cudaMemsetAsync(flush.data, salt & 0xff, flush.bytes, ctx.stream), "L2 flush");
    checkCuda(cudaStreamSynchronize(ctx.stream), "L2 flush");
    const double t0 = monotonicMicroseconds();
    checkCuda(cudaEventRecord(start, ctx.stream), "event");
    const int rc = call(ctx, fn, c, dims);
    checkCuda(cudaEventRecord(stop, ctx.stream), "event");
    synchronizeOrDie("while timing");
    const double t1 = monotonicMicroseconds();
    if (rc != 0)
        fatal("the entry point returned " + std::to_string(rc) + " while timing");
    float ms = 0;
    checkCuda(cudaEventElapsedTime(&ms, start, stop), "event time");
    return {double(ms) * 1000.0, t1 - t0};
}

std::string summaryJson(const SampleSummary &s)
{
    return "{\"median_us\":" + jnum(s.median) + ",\"low_us\":" + jnum(s.medianLow) + ",\"high_us\":" + jnum(s.medianHigh)
           + ",\"mean_us\":" + jnum(s.mean) + ",\"stddev_us\":" + jnum(s.stddev) + ",\"rel_std_error\":"
           + jnum(s.relStdError) + ",\"min_us\":" + jnum(s.min) + ",\"samples\":" + std::to_string(s.count) + "}";
}

double medianOf(std::vector<double> v) { return summarize(std::move(v)).median; }

/// At most this many output elements of a checked timed call are compared, evenly spread with a private offset:
/// enough to find skipped or replayed work in every row, cheap enough to keep the timing loop a timing loop.
constexpr int64_t TimedCheckElements = int64_t(1) << 20;

/// Judges the outputs a timed call left in @p c against @p c's reference: "" when they hold, else why not.
std::string checkTimedOutputs(const Context &ctx, Case &c, uint64_t offsetSeed)
{
    ensureReference(c, ctx);
    for (size_t b = 0; b < c.specs.size(); ++b) {
        const BufferSpec &s = c.specs[b];
        if (!s.output)
            continue;
        const DType type = s.alwaysFp32 ? DType::F32 : ctx.dtype;
        std::vector<unsigned char> bytes(c.device[b].bytes);
        checkCuda(cudaMemcpy(bytes.data(), c.device[b].data, bytes.size(), cudaMemcpyDeviceToHost), "read back");
        const int64_t n = int64_t(c.values[b].size());
        const int64_t stride = std::max<int64_t>(1, n / TimedCheckElements);
        Values out, ref;
        for (int64_t i = int64_t(offsetSeed % uint64_t(stride)); i < n; i += stride) {
            out.push_back(loadAs(type, bytes.data() + size_t(i) * size_t(dtypeSize(type))));
            ref.push_back(c.values[b][size_t(i)]);
        }
        const Comparison cmp = compareValues(out.data(), ref.data(), int64_t(out.size()), ctx.tolerance);
        if (!cmp.passed) {
            std::ostringstream why;
            why << cmp.mismatches << " of " << cmp.elements << " checked elements of '" << s.name
                << "' wrong (got " << cmp.firstOut << ", expected " << cmp.firstRef << ")";
            return why.str();
        }
    }
    return {};
}

/// A candidate that set persisting-L2 state (a cache limit, an access policy window on the harness's stream)
/// keeps lines in L2 across the flush between timed calls: rejected.
void rejectPersistingL2(const Context &ctx, const std::string &when)
{
    size_t limit = 0;
    if (cudaDeviceGetLimit(&limit, cudaLimitPersistingL2CacheSize) == cudaSuccess && limit > 0)
        fail("the candidate set a persisting-L2 cache limit of " + std::to_string(limit) + " bytes " + when
             + ": lines kept in L2 survive the flush between timed calls");
    cudaStreamAttrValue window{};
    if (cudaStreamGetAttribute(ctx.stream, cudaStreamAttributeAccessPolicyWindow, &window) == cudaSuccess
        && window.accessPolicyWindow.num_bytes > 0)
        fail("the candidate set a persisting-L2 access policy window on the harness's stream " + when
             + ": lines kept in L2 survive the flush between timed calls");
    cudaGetLastError();
}

// ---------------------------------------------------------------- buffer rotation (allocator reuse)
/// The buffers of one shape's warm-up and timed calls (harness/BufferRotation.h): slots of device buffers, each
/// allocated once, used in turn, and input sets held on the host (and, where memory allows, staged on the device),
/// one of which is copied into a call's slot before the call, outside the timed window.
struct Rotation
{
    RotationPlan plan;
    std::vector<Case> slots;                       ///< device buffers only (they own them)
    std::vector<Case> sets;                        ///< host values and bytes; device pointers borrowed from a slot
    std::vector<std::vector<DeviceBuffer>> staged; ///< per set, a device copy of each input (outputs left empty)
};

void stageInputs(Rotation &r)
{
    if (!r.plan.staged)
        return;
    for (size_t k = 0; k < r.sets.size(); ++k) {
        const Case &set = r.sets[k];
        for (size_t b = 0; b < set.specs.size(); ++b) {
            if (set.specs[b].output)
                continue;
            checkCuda(cudaMemcpy(r.staged[k][b].data, set.hostBytes[b].data(), r.staged[k][b].bytes,
                                 cudaMemcpyHostToDevice),
                      "input staging");
        }
    }
}

/// Host input sets of @p phase, and the slots (and staging) the plan allows in half the free device memory.
Rotation makeRotation(const Context &ctx, const std::vector<int64_t> &dims, Phase phase, size_t shapeIndex, int sets)
{
    Rotation r;
    for (int k = 0; k < sets; ++k) {
        Case set;
        set.specs = ctx.task.op->buffers(dims);
        fillCase(set, ctx, dims, ctx.schedule.seed(phase, shapeIndex, uint64_t(k)), false);
        r.sets.push_back(std::move(set));
    }
    size_t callBytes = 0, inputBytes = 0;
    for (const BufferSpec &b : r.sets.front().specs) {
        const size_t bytes = size_t(b.elements) * elementSize(b, ctx.dtype);
        callBytes += bytes + 2 * GuardBytes;
        inputBytes += b.output ? 0 : bytes;
    }
    size_t freeBytes = 0, totalBytes = 0;
    checkCuda(cudaMemGetInfo(&freeBytes, &totalBytes), "cudaMemGetInfo");
    r.plan = planRotation(callBytes, inputBytes, sets, freeBytes / 2);
    for (int k = 0; k < r.plan.slots; ++k) {
        Case slot;
        slot.specs = r.sets.front().specs;
        for (const BufferSpec &b : slot.specs) {
            slot.device.push_back(allocate(size_t(b.elements) * elementSize(b, ctx.dtype)));
            slot.pointers.push_back(slot.device.back().data);
        }
        r.slots.push_back(std::move(slot));
    }
    if (r.plan.staged) {
        for (const Case &set : r.sets) {
            std::vector<DeviceBuffer> copies(set.specs.size());
            for (size_t b = 0; b < set.specs.size(); ++b) {
                if (set.specs[b].output)
                    continue;
                copies[b].bytes = set.hostBytes[b].size();
                checkCuda(cudaMalloc(&copies[b].base, copies[b].bytes), "cudaMalloc of a staged input set");
                copies[b].data = copies[b].base;
            }
            r.staged.push_back(std::move(copies));
        }
        stageInputs(r);
    }
    return r;
}

/// Replaces the input sets with @p phase's (the slots stay).
void refillRotation(const Context &ctx, Rotation &r, const std::vector<int64_t> &dims, Phase phase, size_t shapeIndex)
{
    for (size_t k = 0; k < r.sets.size(); ++k)
        fillCase(r.sets[k], ctx, dims, ctx.schedule.seed(phase, shapeIndex, uint64_t(k)), false);
    stageInputs(r);
}

/// Copies @p use's input set into its slot on the harness stream (staged: device to device; else from the host) and
/// returns the set, pointing at the slot's buffers. The caller's timing starts after a synchronize of that stream.
Case &loadCall(const Context &ctx, Rotation &r, BufferRotation::Call use)
{
    Case &set = r.sets[size_t(use.inputSet)];
    const Case &slot = r.slots[size_t(use.slot)];
    set.device = slot.device;
    set.pointers = slot.pointers;
    for (size_t b = 0; b < set.specs.size(); ++b) {
        if (set.specs[b].output)
            continue;
        if (r.plan.staged)
            checkCuda(cudaMemcpyAsync(set.device[b].data, r.staged[size_t(use.inputSet)][b].data, set.device[b].bytes,
                                      cudaMemcpyDeviceToDevice, ctx.stream),
                      "input copy into a fresh slot");
        else
            checkCuda(cudaMemcpyAsync(set.device[b].data, set.hostBytes[b].data(), set.device[b].bytes,
                                      cudaMemcpyHostToDevice, ctx.stream),
                      "input upload into a fresh slot");
    }
    return set;
}

void releaseRotation(Rotation &r)
{
    for (Case &set : r.sets) {
        set.device.clear(); // borrowed from a slot
        set.pointers.clear();
    }
    for (Case &slot : r.slots)
        release(slot);
    for (std::vector<DeviceBuffer> &copies : r.staged) {
        for (DeviceBuffer &b : copies)
            cudaFree(b.base);
    }
    r.staged.clear();
}

void timeShape(const Context &ctx, size_t shapeIndex, const TaskShape &shape, DeviceBuffer &flush)
{
    constexpr int InputSets = 4;
    // Warm-up and the timed calls get inputs of their own (the seed schedule), so outputs computed while warming
    // up and replayed while timed are wrong; the warm-up's reference is never needed. Every call gets its inputs
    // copied into a slot that neither of the two calls before it used, and an input set that slot did not hold last
    // (BufferRotation): an answer cached by buffer address is an answer to other inputs.
    Rotation rotation = makeRotation(ctx, shape.dims, Phase::Warmup, shapeIndex, InputSets);
    BufferRotation order(ctx.schedule, shapeIndex, rotation.plan.slots, InputSets);
    cudaEvent_t start, stop;
    checkCuda(cudaEventCreate(&start), "event");
    checkCuda(cudaEventCreate(&stop), "event");

    // Warm-up: at least 10 calls each and 100 ms.
    const auto warmStart = std::chrono::steady_clock::now();
    for (int i = 0; i < 10 || std::chrono::steady_clock::now() - warmStart < std::chrono::milliseconds(100); ++i) {
        const BufferRotation::Call use = order.next();
        timeOnce(ctx, ctx.baseline, loadCall(ctx, rotation, use), shape.dims, flush, start, stop, i);
        timeOnce(ctx, ctx.candidate, loadCall(ctx, rotation, use), shape.dims, flush, start, stop, i);
        if (i > 2000)
            break;
    }
    rejectPersistingL2(ctx, "while warming up");
    refillRotation(ctx, rotation, shape.dims, Phase::Timed, shapeIndex);
    order.newInputSets();

    // Interleaved, adaptive sampling. The candidate's outputs are checked right after a private draw of its calls
    // (TimedCheckPlan), before the baseline's call in the same slot overwrites them.
    std::vector<TimingSample> cand, base;
    TimedCheckPlan plan(ctx.schedule, shapeIndex);
    std::string timedFailure;
    int checkedCalls = 0;
    auto timeCandidate = [&](BufferRotation::Call use, int salt, bool checked) {
        Case &set = loadCall(ctx, rotation, use);
        cand.push_back(timeOnce(ctx, ctx.candidate, set, shape.dims, flush, start, stop, salt));
        if (!checked || !timedFailure.empty())
            return;
        ++checkedCalls;
        const std::string why = checkTimedOutputs(ctx, set, ctx.schedule.seed(Phase::TimedChecks, shapeIndex, cand.size()));
        if (!why.empty())
            timedFailure = "timed call " + std::to_string(cand.size()) + " (the outputs of a timed call are checked "
                           + "too): " + why;
    };
    const auto begin = std::chrono::steady_clock::now();
    for (int i = 0;; ++i) {
        const BufferRotation::Call use = order.next();
        if (i % 2) {
            timeCandidate(use, i, plan.next());
            base.push_back(timeOnce(ctx, ctx.baseline, loadCall(ctx, rotation, use), shape.dims, flush, start, stop, i));
        } else {
            base.push_back(timeOnce(ctx, ctx.baseline, loadCall(ctx, rotation, use), shape.dims, flush, start, stop, i));
            timeCandidate(use, i, plan.next());
        }
        if (!timedFailure.empty())
            break;
        if (cand.size() < 10)
            continue;
        std::vector<double> ce, be;
        for (const TimingSample &s : cand)
            ce.push_back(s.eventUs);
        for (const TimingSample &s : base)
            be.push_back(s.eventUs);
        const double elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
        if ((summarize(ce).relStdError <= 0.01 && summarize(be).relStdError <= 0.01) || elapsed > ctx.timeBudgetMs
            || cand.size() >= 5000)
            break;
    }
    // One more call, always checked: the loop's length depends on the noise, so the kernel cannot know it is last.
    if (timedFailure.empty())
        timeCandidate(order.next(), int(cand.size()), true);
    if (!timedFailure.empty())
        fail("shape " + shape.name + ": " + timedFailure);
    rejectPersistingL2(ctx, "while timed");
    for (const std::vector<TimingSample> *samples : {&cand, &base}) {
        if (const std::string why = tamperedTimingSample(*samples); !why.empty())
            fail("shape " + shape.name + (samples == &cand ? " (candidate): " : " (baseline): ") + why);
    }
    std::vector<double> ce, be, gapC, gapB, hostC;
    for (const TimingSample &s : cand) {
        ce.push_back(s.eventUs);
        gapC.push_back(s.hostUs - s.eventUs);
        hostC.push_back(s.hostUs);
    }
    for (const TimingSample &s : base) {
        be.push_back(s.eventUs);
        gapB.push_back(s.hostUs - s.eventUs);
    }
    const SampleSummary sc = summarize(ce), sb = summarize(be);
    const double speedup = sc.median > 0 ? sb.median / sc.median : 0;
    const double bytes = ctx.task.op->bytes(shape.dims, ctx.dtype);
    const double flops = ctx.task.op->flops(shape.dims);
    const double seconds = sc.median * 1e-6;
    const double sol = std::max(ctx.peakBandwidth > 0 ? bytes / ctx.peakBandwidth : 0.0,
                                ctx.peakFlops > 0 ? flops / ctx.peakFlops : 0.0) * 1e6;
    std::vector<std::string> flags;
    // Work hidden on another stream or thread shows as host time the events did not see.
    const double hiddenUs = medianOf(gapC) - medianOf(gapB);
    if (hiddenUs > std::max(20.0, 0.25 * medianOf(hostC))) {
        flags.push_back("host time exceeds event time by " + jnum(hiddenUs) + " us more than for the baseline: work outside the timed stream");
        fail("shape " + shape.name + ": " + flags.back());
    }
    if (const std::string why = belowPhysicsFloor(sc.median, sol); !why.empty()) {
        flags.push_back(why);
        fail("shape " + shape.name + ": " + flags.back());
    }
    const FractionOfPeak peak = fractionOfPeak(bytes, flops, seconds, ctx.peakBandwidth, ctx.peakFlops);
    if (speedup > 10)
        flags.push_back("speedup over 10x the baseline: check it");
    if (sc.relStdError > 0.01)
        flags.push_back("timing did not settle to 1% relative standard error within the time budget");
    for (const std::string &f : flags)
        g_verdict.flags.push_back(shape.name + ": " + f);
    g_verdict.timing.push_back(
        "{\"shape\":" + jstr(shape.name) + ",\"dims\":" + jstr(dimsText(shape.dims)) + ",\"candidate\":" + summaryJson(sc)
        + ",\"baseline\":" + summaryJson(sb) + ",\"host_candidate_median_us\":" + jnum(medianOf(hostC))
        + ",\"hidden_host_us\":" + jnum(hiddenUs) + ",\"speedup\":" + jnum(speedup) + ",\"bytes\":" + jnum(bytes)
        + ",\"flops\":" + jnum(flops) + ",\"bandwidth_gbs\":" + jnum(seconds > 0 ? bytes / seconds / 1e9 : 0)
        + ",\"tflops\":" + jnum(seconds > 0 ? flops / seconds / 1e12 : 0) + ",\"speed_of_light_us\":" + jnum(sol)
        + ",\"fraction_of_sol\":" + jnum(sc.median > 0 ? sol / sc.median : 0) + ",\"fraction_of_peak_bandwidth\":"
        + jnum(peak.bandwidth) + ",\"fraction_of_peak_compute\":" + jnum(peak.compute) + ",\"checked_timed_calls\":"
        + std::to_string(checkedCalls) + ",\"buffer_slots\":" + std::to_string(rotation.plan.slots)
        + ",\"inputs_staged\":" + (rotation.plan.staged ? "true" : "false") + ",\"flags\":" + jlist(flags, true)
        + "}");

    // Re-validation in the same buffers with new contents: an output cached by address, or a kernel
    // that goes wrong after many calls, fails here.
    std::string revalidation;
    for (int k = 0; k < rotation.plan.slots && revalidation.empty(); ++k) {
        const BufferRotation::Call use = order.next();
        Case &set = rotation.sets[size_t(use.inputSet)];
        const uint64_t seed = ctx.schedule.seed(Phase::Recheck, shapeIndex, uint64_t(k));
        fillCase(set, ctx, shape.dims, seed);
        set.device = rotation.slots[size_t(use.slot)].device;
        set.pointers = rotation.slots[size_t(use.slot)].pointers;
        upload(set);
        const int rc = call(ctx, ctx.candidate, set, shape.dims);
        synchronizeOrDie("(re-validation)");
        const CheckResult r = judge(ctx, set, shape.name, seed, rc);
        if (!r.passed)
            revalidation = "after " + std::to_string(cand.size()) + " timed calls, new inputs in reused buffers: " + r.failure;
    }
    if (!revalidation.empty())
        fail("shape " + shape.name + " re-validation: " + revalidation);
    if (g_verdict.revalidation == "null" || !revalidation.empty())
        g_verdict.revalidation = std::string("{\"passed\":") + (revalidation.empty() ? "true" : "false")
                                 + ",\"detail\":" + jstr(revalidation) + "}";
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    releaseRotation(rotation);
}

/// Runs the candidate twice on the same inputs; both must pass, and a bitwise difference is reported.
void checkDeterminism(const Context &ctx, const TaskShape &shape)
{
    const uint64_t seed = ctx.schedule.seed(Phase::Determinism, 0, 0);
    Case c = makeDeviceCase(ctx, shape.dims, seed);
    int rc = call(ctx, ctx.candidate, c, shape.dims);
    synchronizeOrDie("(determinism run)");
    const CheckResult first = judge(ctx, c, shape.name, seed, rc);
    upload(c);
    rc = call(ctx, ctx.candidate, c, shape.dims);
    synchronizeOrDie("(determinism run)");
    const CheckResult second = judge(ctx, c, shape.name, seed, rc);
    const bool bitwise = first.outputs == second.outputs;
    if (!first.passed || !second.passed)
        fail("shape " + shape.name + " determinism run: " + (first.passed ? second.failure : first.failure));
    if (!bitwise)
        g_verdict.notes.push_back("two runs on the same inputs differ bitwise (shape " + shape.name + ")");
    g_verdict.determinism = std::string("{\"shape\":") + jstr(shape.name) + ",\"bitwise_identical\":"
                            + (bitwise ? "true" : "false") + ",\"both_correct\":"
                            + (first.passed && second.passed ? "true" : "false") + "}";
    release(c);
}

// ---------------------------------------------------------------- device facts
std::string describeDevice(Context &ctx, std::string *problem)
{
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        *problem = e != cudaSuccess ? std::string(cudaGetErrorString(e)) : "no CUDA device";
        return "{}";
    }
    cudaDeviceProp p{};
    cudaGetDeviceProperties(&p, 0);
    int memClockKHz = 0, busWidth = 0, smClockKHz = 0, driver = 0, runtime = 0;
    cudaDeviceGetAttribute(&memClockKHz, cudaDevAttrMemoryClockRate, 0);
    cudaDeviceGetAttribute(&busWidth, cudaDevAttrGlobalMemoryBusWidth, 0);
    cudaDeviceGetAttribute(&smClockKHz, cudaDevAttrClockRate, 0);
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    ctx.l2Bytes = size_t(p.l2CacheSize);
    ctx.peakBandwidth = 2.0 * double(memClockKHz) * 1e3 * double(busWidth) / 8.0;
    // FP32 lanes per SM: 64 on Volta/Turing/A100 (7.x, 8.0), 128 from Ampere consumer parts on.
    const int lanes = (p.major == 7 || (p.major == 8 && p.minor == 0)) ? 64 : 128;
    ctx.peakFlops = 2.0 * lanes * double(p.multiProcessorCount) * double(smClockKHz) * 1e3;
    return "{\"name\":" + jstr(p.name) + ",\"capability\":" + jstr(std::to_string(p.major) + "." + std::to_string(p.minor))
           + ",\"memory_bytes\":" + jnum(double(p.totalGlobalMem)) + ",\"driver\":"
           + jstr(std::to_string(driver / 1000) + "." + std::to_string(driver % 1000 / 10)) + ",\"runtime\":"
           + jstr(std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10)) + ",\"sms\":"
           + std::to_string(p.multiProcessorCount) + ",\"l2_bytes\":" + jnum(double(p.l2CacheSize))
           + ",\"peak_bandwidth_gbs\":" + jnum(ctx.peakBandwidth / 1e9) + ",\"peak_fp32_tflops\":"
           + jnum(ctx.peakFlops / 1e12) + "}";
}

// ---------------------------------------------------------------- command line
std::string option(int argc, char **argv, const char *name, const char *fallback = "")
{
    for (int i = 2; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], name) == 0)
            return argv[i + 1];
    }
    return fallback;
}

bool flag(int argc, char **argv, const char *name)
{
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], name) == 0)
            return true;
    }
    return false;
}

bool readFile(const std::string &path, std::string *out)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return false;
    std::ostringstream s;
    s << in.rdbuf();
    *out = s.str();
    return true;
}

int usage()
{
    std::fprintf(stderr, "usage: skillforge-kernel-runner run --task task.json --dtype D --candidate lib.so --baseline "
                         "base.so --key-file K --nonce N [--verdict-fd 3] [--seeds 5] [--time-budget-ms 1500] "
                         "[--no-timing]\n       skillforge-kernel-runner verify --key-file K --nonce N [--in FILE]\n"
                         "       skillforge-kernel-runner device\n");
    return ExitUsage;
}

std::string readKey(const std::string &path)
{
    std::string text;
    if (path.empty() || !readFile(path, &text))
        return {};
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    return fromHex(text);
}

int verifyCommand(int argc, char **argv)
{
    const std::string key = readKey(option(argc, argv, "--key-file"));
    const std::string in = option(argc, argv, "--in");
    std::string data;
    if (key.empty() || (!in.empty() && !readFile(in, &data)))
        return usage();
    if (in.empty()) {
        std::ostringstream s;
        s << std::cin.rdbuf();
        data = s.str();
    }
    const DecodedVerdict v = decodeVerdictFrame(data, key, option(argc, argv, "--nonce"));
    if (!v.ok) {
        std::printf("not authentic: %s\n", v.error.c_str());
        return 3;
    }
    std::printf("%s\n", v.body.c_str());
    return v.body.find("\"status\":\"passed\"") != std::string::npos ? 0 : 1;
}

int runCommand(int argc, char **argv)
{
    // The key first, before any candidate code is loaded: read it, then remove the file.
    const std::string keyFile = option(argc, argv, "--key-file");
    g_key = readKey(keyFile);
    if (!keyFile.empty())
        ::unlink(keyFile.c_str());
    g_nonce = option(argc, argv, "--nonce");
    g_fd = std::atoi(option(argc, argv, "--verdict-fd", "3").c_str());
    if (g_key.size() < 16 || g_nonce.empty() || ::fcntl(g_fd, F_GETFD) < 0) {
        std::fprintf(stderr, "skillforge-kernel-runner: a key file, a nonce and an open verdict fd are required\n");
        return usage();
    }
    ::fcntl(g_fd, F_SETFD, FD_CLOEXEC);

    Context ctx;
    g_verdict.dtype = option(argc, argv, "--dtype", "bf16");
    if (!parseDType(g_verdict.dtype, &ctx.dtype))
        fatal("unknown dtype " + g_verdict.dtype);
    std::string text, error;
    if (!readFile(option(argc, argv, "--task"), &text) || !parseTaskSpec(text, &ctx.task, &error))
        fatal("cannot read the task: " + (error.empty() ? option(argc, argv, "--task") : error));
    g_verdict.task = ctx.task.id;
    const auto tol = ctx.task.tolerances.find(g_verdict.dtype);
    if (tol == ctx.task.tolerances.end())
        fatal("the task has no tolerance for " + g_verdict.dtype);
    ctx.tolerance = tol->second;
    ctx.seeds = std::max(5, std::atoi(option(argc, argv, "--seeds", "5").c_str()));
    // The seed schedule's secret, like the key, is drawn before any candidate code is loaded.
    ctx.schedule = SeedSchedule(SeedSchedule::freshSecret());
    ctx.timeBudgetMs = std::atof(option(argc, argv, "--time-budget-ms", "1500").c_str());

    std::string problem;
    g_verdict.device = describeDevice(ctx, &problem);
    if (!problem.empty()) {
        g_verdict.notRun = true;
        fatal("not run: " + problem);
    }
    checkCuda(cudaSetDevice(0), "cudaSetDevice");
    // Persisting L2 lines survive a memset flush; the harness allows none.
    if (cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0) != cudaSuccess)
        cudaGetLastError();
    checkCuda(cudaStreamCreateWithFlags(&ctx.stream, cudaStreamNonBlocking), "harness stream");

    const std::vector<int64_t> anyDims(ctx.task.op->dims.size(), 2);
    const int buffers = int(ctx.task.op->buffers(anyDims).size());
    ctx.caller = entryCaller(buffers, int(ctx.task.op->dims.size()), int(ctx.task.op->scalars.size()));
    if (!ctx.caller)
        fatal("the runner cannot call an entry point of this shape");
    // The process guard, after CUDA is initialised and before any loaded code runs (docs/kernel-runner.md): seccomp is
    // required; Landlock and mseal are used where the kernel has them, and the verdict says which were in force.
    static const ImageSnapshot image;
    g_image = &image;
    const ProcessGuardStatus guard = ProcessGuard::install();
    g_verdict.processGuard = guard.json();
    if (!guard.seccomp) {
        g_verdict.notRun = true;
        fatal("not run: the process guard could not be installed: " + guard.problems);
    }
    if (!guard.problems.empty())
        g_verdict.notes.push_back("process guard incomplete: " + guard.problems);
    const std::string entry = ctx.task.entry + "_" + g_verdict.dtype;
    for (const auto &[path, slot, who] : {std::tuple{option(argc, argv, "--baseline"), &ctx.baseline, "baseline"},
                                          std::tuple{option(argc, argv, "--candidate"), &ctx.candidate, "candidate"}}) {
        void *library = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!library)
            fatal(std::string("cannot load the ") + who + ": " + ::dlerror());
        *slot = ::dlsym(library, entry.c_str());
        if (!*slot)
            fatal(std::string("the ") + who + " does not export " + entry);
    }

    // Correctness: every shape, every seed, fresh inputs and NaN-filled outputs each time.
    checkStreamDiscipline(ctx, ctx.task.shapes.front());
    for (size_t s = 0; s < ctx.task.shapes.size(); ++s) {
        const TaskShape &shape = ctx.task.shapes[s];
        for (int k = 1; k <= ctx.seeds; ++k) {
            const uint64_t seed = ctx.schedule.seed(Phase::Correctness, s, uint64_t(k));
            Case c = makeDeviceCase(ctx, shape.dims, seed);
            const int rc = call(ctx, ctx.candidate, c, shape.dims);
            synchronizeOrDie("on shape " + shape.name + " (" + dimsText(shape.dims) + "), input set " + std::to_string(k));
            // The verdict names the input set (1..seeds); the seed itself comes from the private schedule.
            const CheckResult r = judge(ctx, c, shape.name, uint64_t(k), rc);
            g_verdict.correctness.push_back(r.json);
            if (!r.passed)
                fail("shape " + shape.name + " (" + dimsText(shape.dims) + "), input set " + std::to_string(k) + ": "
                     + r.failure);
            release(c);
        }
    }
    if (g_verdict.failed)
        deliver();

    checkDeterminism(ctx, ctx.task.shapes.front());
    rejectPersistingL2(ctx, "while checked for correctness");
    if (g_verdict.failed)
        deliver();
    if (!flag(argc, argv, "--no-timing")) {
        DeviceBuffer flush = allocate(std::max<size_t>(2 * ctx.l2Bytes, 8u << 20));
        for (size_t s = 0; s < ctx.task.shapes.size(); ++s) {
            timeShape(ctx, s, ctx.task.shapes[s], flush);
            checkRunnerCode();
        }
        g_verdict.timed = true;
    }
    checkRunnerCode();
    deliver();
}

int deviceCommand()
{
    Context ctx;
    std::string problem;
    const std::string json = describeDevice(ctx, &problem);
    if (!problem.empty()) {
        std::printf("no CUDA device: %s\n", problem.c_str());
        return 77;
    }
    std::printf("%s\n", json.c_str());
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    const std::string command = argv[1];
    if (command == "run")
        return runCommand(argc, argv);
    if (command == "verify")
        return verifyCommand(argc, argv);
    if (command == "device")
        return deviceCommand();
    return usage();
}
