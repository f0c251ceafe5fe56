#include "kernels/KernelBuild.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

using namespace Qt::StringLiterals;

namespace sf {

namespace kernelbuild {

QString demangle(const QString &mangled)
{
    int status = 0;
    const QByteArray name = mangled.toLatin1();
    std::unique_ptr<char, decltype(&std::free)> plain(abi::__cxa_demangle(name.constData(), nullptr, nullptr, &status),
                                                      &std::free);
    if (status != 0 || !plain)
        return mangled;
    QString text = QString::fromLatin1(plain.get());
    // nvcc names the anonymous namespace after the file; that says nothing to the reader.
    static const QRegularExpression anonymous(QStringLiteral(R"(_GLOBAL__N__[0-9a-f_]+_cu_[0-9a-f]+::)"));
    text.remove(anonymous);
    return text.remove(QStringLiteral("(anonymous namespace)::"));
}

QList<KernelResources> parsePtxasReport(const QString &output)
{
    static const QRegularExpression entry(QStringLiteral(R"(Compiling entry function '([^']+)' for '(\w+)')"));
    static const QRegularExpression properties(QStringLiteral(R"(Function properties for (\S+))"));
    static const QRegularExpression frame(
        QStringLiteral(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)"));
    static const QRegularExpression used(QStringLiteral(R"(Used (\d+) registers)"));
    static const QRegularExpression barriers(QStringLiteral(R"(used (\d+) barriers)"));
    static const QRegularExpression smem(QStringLiteral(R"((\d+) bytes smem)"));
    static const QRegularExpression cmem(QStringLiteral(R"((\d+) bytes cmem\[0\])"));

    QList<KernelResources> kernels;
    QString mangledEntry;
    qsizetype propertiesFor = -1; // index of the kernel the next "stack frame" line belongs to
    for (const QString &line : output.split(u'\n')) {
        if (const auto m = entry.match(line); m.hasMatch()) {
            mangledEntry = m.captured(1);
            KernelResources k;
            k.function = demangle(mangledEntry);
            k.arch = m.captured(2);
            kernels << k;
            propertiesFor = -1;
        } else if (const auto p = properties.match(line); p.hasMatch()) {
            propertiesFor = (!kernels.isEmpty() && p.captured(1) == mangledEntry) ? kernels.size() - 1 : -1;
        } else if (const auto f = frame.match(line); f.hasMatch()) {
            if (propertiesFor >= 0) {
                kernels[propertiesFor].stackBytes = f.captured(1).toLongLong();
                kernels[propertiesFor].spillStoreBytes = f.captured(2).toLongLong();
                kernels[propertiesFor].spillLoadBytes = f.captured(3).toLongLong();
            }
        } else if (const auto u = used.match(line); u.hasMatch() && !kernels.isEmpty() && !mangledEntry.isEmpty()) {
            KernelResources &k = kernels.last();
            k.registers = u.captured(1).toInt();
            if (const auto b = barriers.match(line); b.hasMatch())
                k.barriers = b.captured(1).toInt();
            if (const auto s = smem.match(line); s.hasMatch())
                k.sharedBytes = s.captured(1).toLongLong();
            if (const auto c = cmem.match(line); c.hasMatch())
                k.constantBytes = c.captured(1).toLongLong();
            mangledEntry.clear(); // the "Used" line closes the entry
        }
    }
    return kernels;
}

QList<CompilerDiagnostic> parseDiagnostics(const QString &output, const QString &compiledFile,
                                           const QString &displayName, const QString &source)
{
    static const QRegularExpression nvccStyle(
        QStringLiteral(R"(^(.+?)\((\d+)\): (error|warning|remark|note)(?: #[\w-]+)?: (.*)$)"));
    static const QRegularExpression gccStyle(
        QStringLiteral(R"(^(.+?):(\d+):(\d+): (error|fatal error|warning|note): (.*)$)"));
    static const QRegularExpression toolStyle(QStringLiteral(R"(^(ptxas|nvlink|ld|/usr/bin/ld)\S*\s*(error|fatal)\s*:\s*(.*)$)"));
    const QStringList sourceLines = source.split(u'\n');

    QList<CompilerDiagnostic> diagnostics;
    for (const QString &line : output.split(u'\n')) {
        CompilerDiagnostic d;
        if (const auto m = nvccStyle.match(line); m.hasMatch()) {
            d.file = m.captured(1);
            d.line = m.captured(2).toInt();
            d.severity = m.captured(3) == u"remark" ? QStringLiteral("note") : m.captured(3);
            d.message = m.captured(4).trimmed();
        } else if (const auto g = gccStyle.match(line); g.hasMatch()) {
            d.file = g.captured(1);
            d.line = g.captured(2).toInt();
            d.column = g.captured(3).toInt();
            d.severity = g.captured(4) == u"fatal error" ? QStringLiteral("error") : g.captured(4);
            d.message = g.captured(5).trimmed();
        } else if (const auto t = toolStyle.match(line); t.hasMatch()) {
            d.file = displayName;
            d.severity = QStringLiteral("error");
            d.message = t.captured(1) + QStringLiteral(": ") + t.captured(3).trimmed();
        } else if (line.contains(u"undefined reference to")) {
            d.file = displayName;
            d.severity = QStringLiteral("error");
            d.message = line.trimmed();
        } else {
            continue;
        }
        if (d.file == compiledFile || d.file.endsWith(u'/' + compiledFile)) {
            d.file = displayName;
            if (d.line > 0 && d.line <= sourceLines.size())
                d.sourceLine = sourceLines.at(d.line - 1);
        }
        diagnostics << d;
    }
    return diagnostics;
}

namespace {

struct Rule
{
    const char *name;
    bool prefix;
    const char *reason;
};

// Why each import is refused: the runner owns streams, timing, the device and the process.
constexpr Rule Rules[] = {
    {"cudaStreamCreate", true, "creates its own CUDA stream: work must run on the stream the harness passes"},
    {"cuStreamCreate", true, "creates its own CUDA stream: work must run on the stream the harness passes"},
    {"cudaStreamSetAttribute", false, "changes stream attributes (L2 persistence windows)"},
    {"cudaCtxResetPersistingL2Cache", false, "resets the persisting L2 cache, which the harness controls"},
    {"cudaDeviceReset", false, "resets the device"},
    {"cudaThreadExit", false, "resets the device"},
    {"cudaDeviceSetLimit", false, "changes device limits"},
    {"cudaThreadSetLimit", false, "changes device limits"},
    {"cudaSetDevice", false, "switches the device"},
    {"cudaLaunchHostFunc", false, "runs host code on the stream"},
    {"cudaStreamAddCallback", false, "runs host code on the stream"},
    {"cudaIpc", true, "shares memory with other processes"},
    {"cudaGetDriverEntryPoint", true, "looks up driver functions, bypassing this check"},
    {"cuGetProcAddress", true, "looks up driver functions, bypassing this check"},
    {"cudaGetExportTable", false, "uses the runtime's private tables"},
    {"pthread_create", false, "starts threads"},
    {"thrd_create", false, "starts threads"},
    {"_ZNSt6thread15_M_start_thread", true, "starts threads (std::thread)"},
    {"GOMP_parallel", true, "starts threads (OpenMP)"},
    {"__kmpc_fork_call", false, "starts threads (OpenMP)"},
    {"clone", false, "starts threads or processes"},
    {"fork", false, "starts processes"},
    {"vfork", false, "starts processes"},
    {"posix_spawn", true, "starts processes"},
    {"execv", true, "starts programs"},
    {"execl", true, "starts programs"},
    {"execve", false, "starts programs"},
    {"fexecve", false, "starts programs"},
    {"system", false, "starts programs"},
    {"popen", false, "starts programs"},
    {"dlopen", false, "loads libraries"},
    {"dlmopen", false, "loads libraries"},
    {"dlsym", false, "looks up symbols at run time, bypassing this check"},
    {"dlvsym", false, "looks up symbols at run time, bypassing this check"},
    {"syscall", false, "makes raw system calls"},
    {"ptrace", false, "inspects processes"},
    {"mprotect", false, "changes memory protection (could patch the harness)"},
    {"pkey_mprotect", false, "changes memory protection (could patch the harness)"},
    {"mremap", false, "remaps memory (could patch the harness)"},
    {"process_vm_", true, "reads or writes a process's memory (could patch the harness)"},
    {"mmap", true, "maps memory directly (could patch the harness)"},
    {"signal", false, "installs signal handlers (could hide a crash)"},
    {"sigaction", false, "installs signal handlers (could hide a crash)"},
    {"write", false, "writes to file descriptors (the verdict pipe is the harness's)"},
    {"pwrite", true, "writes to file descriptors"},
    {"writev", false, "writes to file descriptors"},
    {"dprintf", false, "writes to file descriptors"},
    {"fdopen", false, "opens file descriptors (the verdict pipe is the harness's)"},
    {"dup", true, "duplicates file descriptors"},
    {"open", true, "opens files"},
    {"fopen", true, "opens files"},
    {"freopen", true, "reopens files (the standard streams are the harness's)"},
    {"creat", false, "creates files"},
    {"socket", false, "opens network connections"},
    {"connect", false, "opens network connections"},
    {"cublas", true, "calls cuBLAS instead of its own kernel"},
    {"cudnn", true, "calls cuDNN instead of its own kernel"},
    {"cufft", true, "calls a CUDA library instead of its own kernel"},
    {"curand", true, "calls a CUDA library instead of its own kernel"},
    {"cusparse", true, "calls a CUDA library instead of its own kernel"},
    {"cusolver", true, "calls a CUDA library instead of its own kernel"},
};

} // namespace

QList<SymbolRejection> scanImportedSymbols(const QString &nmOutput)
{
    QList<SymbolRejection> rejected;
    for (const QString &line : nmOutput.split(u'\n')) {
        const QStringList parts = line.simplified().split(u' ');
        // Undefined entries read "U name@VERSION" (or "w name" for weak ones).
        if (parts.size() != 2 || (parts[0] != u"U" && parts[0] != u"w"))
            continue;
        const QString symbol = parts[1].section(u'@', 0, 0);
        const QByteArray name = symbol.toLatin1();
        for (const Rule &rule : Rules) {
            const bool match = rule.prefix ? name.startsWith(rule.name) : name == rule.name;
            // open/openat/open64, fopen/fopen64; but not e.g. "openmp" runtime names we never see.
            if (match) {
                rejected << SymbolRejection{demangle(symbol), QString::fromLatin1(rule.reason)};
                break;
            }
        }
    }
    return rejected;
}

QStringList exportedFunctions(const QString &nmOutput)
{
    QStringList names;
    for (const QString &line : nmOutput.split(u'\n')) {
        const QStringList parts = line.simplified().split(u' ');
        if (parts.size() == 3 && (parts[1] == u"T" || parts[1] == u"W"))
            names << parts[2].section(u'@', 0, 0);
    }
    return names;
}

} // namespace kernelbuild

namespace {

QJsonArray stringArray(const QStringList &list) { return QJsonArray::fromStringList(list); }

QStringList toStringList(const QJsonValue &value)
{
    QStringList list;
    for (const QJsonValue &v : value.toArray())
        list << v.toString();
    return list;
}

} // namespace

QJsonObject KernelBuildResult::toJson() const
{
    QJsonArray diagnosticArray;
    for (const CompilerDiagnostic &d : diagnostics) {
        diagnosticArray.append(QJsonObject{{u"file"_s, d.file},
                                           {u"line"_s, d.line},
                                           {u"column"_s, d.column},
                                           {u"severity"_s, d.severity},
                                           {u"message"_s, d.message},
                                           {u"source_line"_s, d.sourceLine}});
    }
    QJsonArray resourceArray;
    for (const KernelResources &k : resources) {
        resourceArray.append(QJsonObject{{u"function"_s, k.function},
                                         {u"arch"_s, k.arch},
                                         {u"registers"_s, k.registers},
                                         {u"barriers"_s, k.barriers},
                                         {u"shared_bytes"_s, k.sharedBytes},
                                         {u"constant_bytes"_s, k.constantBytes},
                                         {u"stack_bytes"_s, k.stackBytes},
                                         {u"spill_store_bytes"_s, k.spillStoreBytes},
                                         {u"spill_load_bytes"_s, k.spillLoadBytes}});
    }
    QJsonArray rejectedArray;
    for (const SymbolRejection &r : rejectedSymbols)
        rejectedArray.append(QJsonObject{{u"symbol"_s, r.symbol}, {u"reason"_s, r.reason}});
    return QJsonObject{{u"ok"_s, ok},
                       {u"from_cache"_s, fromCache},
                       {u"timed_out"_s, timedOut},
                       {u"library"_s, libraryPath},
                       {u"error"_s, error},
                       {u"diagnostics"_s, diagnosticArray},
                       {u"resources"_s, resourceArray},
                       {u"rejected_symbols"_s, rejectedArray},
                       {u"missing_entry_points"_s, stringArray(missingEntryPoints)},
                       {u"compiler_output"_s, compilerOutput},
                       {u"flags"_s, stringArray(flags)},
                       {u"arch"_s, arch},
                       {u"nvcc_version"_s, nvccVersion},
                       {u"cache_key"_s, cacheKey},
                       {u"build_ms"_s, buildMs}};
}

KernelBuildResult KernelBuildResult::fromJson(const QJsonObject &json)
{
    KernelBuildResult r;
    r.ok = json.value(u"ok").toBool();
    r.fromCache = json.value(u"from_cache").toBool();
    r.timedOut = json.value(u"timed_out").toBool();
    r.libraryPath = json.value(u"library").toString();
    r.error = json.value(u"error").toString();
    for (const QJsonValue &v : json.value(u"diagnostics").toArray()) {
        const QJsonObject o = v.toObject();
        r.diagnostics << CompilerDiagnostic{o.value(u"file").toString(),     o.value(u"line").toInt(),
                                            o.value(u"column").toInt(),      o.value(u"severity").toString(),
                                            o.value(u"message").toString(), o.value(u"source_line").toString()};
    }
    for (const QJsonValue &v : json.value(u"resources").toArray()) {
        const QJsonObject o = v.toObject();
        KernelResources k;
        k.function = o.value(u"function").toString();
        k.arch = o.value(u"arch").toString();
        k.registers = o.value(u"registers").toInt();
        k.barriers = o.value(u"barriers").toInt();
        k.sharedBytes = o.value(u"shared_bytes").toInteger();
        k.constantBytes = o.value(u"constant_bytes").toInteger();
        k.stackBytes = o.value(u"stack_bytes").toInteger();
        k.spillStoreBytes = o.value(u"spill_store_bytes").toInteger();
        k.spillLoadBytes = o.value(u"spill_load_bytes").toInteger();
        r.resources << k;
    }
    for (const QJsonValue &v : json.value(u"rejected_symbols").toArray())
        r.rejectedSymbols << SymbolRejection{v.toObject().value(u"symbol").toString(), v.toObject().value(u"reason").toString()};
    r.missingEntryPoints = toStringList(json.value(u"missing_entry_points"));
    r.compilerOutput = json.value(u"compiler_output").toString();
    r.flags = toStringList(json.value(u"flags"));
    r.arch = json.value(u"arch").toString();
    r.nvccVersion = json.value(u"nvcc_version").toString();
    r.cacheKey = json.value(u"cache_key").toString();
    r.buildMs = json.value(u"build_ms").toInteger();
    return r;
}

} // namespace sf
