#include "SkippedChecks.h"
#include "kernels/KernelBuild.h"
#include "kernels/KernelBuilder.h"

#include <QFile>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {
QString fixture(const QString &name)
{
    QFile file(QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/kernels/") + name);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}
} // namespace

/// The parsers behind a kernel build, on recorded compiler and nm output (no nvcc needed).
class TestKernelBuildReport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void ptxasReport_readsRegistersSharedMemorySpillsAndStackPerKernel()
    {
        const QList<KernelResources> kernels = kernelbuild::parsePtxasReport(fixture(u"ptxas_spills.txt"_s));
        QCOMPARE(kernels.size(), 2);
        QCOMPARE(kernels[0].function, u"heavy_kernel(float*, float const*, int)"_s);
        QCOMPARE(kernels[0].arch, u"sm_90"_s);
        QCOMPARE(kernels[0].registers, 255);
        QCOMPARE(kernels[0].barriers, 1);
        QCOMPARE(kernels[0].sharedBytes, 49152);
        QCOMPARE(kernels[0].constantBytes, 368);
        QCOMPARE(kernels[0].stackBytes, 4096);
        QCOMPARE(kernels[0].spillStoreBytes, 1024);
        QCOMPARE(kernels[0].spillLoadBytes, 2048);
        // The device function's properties between the two entries are not a kernel's.
        QCOMPARE(kernels[1].function, u"void rmsnormKernel<float>(float*, float const*, float const*, long, float)"_s);
        QCOMPARE(kernels[1].registers, 29);
        QCOMPARE(kernels[1].stackBytes, 0);
        QCOMPARE(kernels[1].sharedBytes, 1024);
    }

    void diagnostics_nameTheUsersFileLineAndSourceLine()
    {
        const QString source = fixture(u"broken_syntax.cu"_s);
        const QString output = u"candidate.cu(9): error: identifier \"undeclared_factor\" is undefined\n"
                               "          out[i] = x[i] * undeclared_factor;\n"
                               "                          ^\n\n"
                               "1 error detected in the compilation of \"candidate.cu\".\n"_s;
        const QList<CompilerDiagnostic> d = kernelbuild::parseDiagnostics(output, u"candidate.cu"_s, u"rmsnorm.cu"_s, source);
        QCOMPARE(d.size(), 1);
        QCOMPARE(d[0].file, u"rmsnorm.cu"_s);
        QCOMPARE(d[0].line, 9);
        QCOMPARE(d[0].severity, u"error"_s);
        QCOMPARE(d[0].message, u"identifier \"undeclared_factor\" is undefined"_s);
        QCOMPARE(d[0].sourceLine.trimmed(), u"out[i] = x[i] * undeclared_factor;"_s);
    }

    void diagnostics_readHostCompilerAndToolMessages()
    {
        const QString output = u"candidate.cu:3:12: error: 'foo' was not declared in this scope\n"
                               "/usr/include/x.h(10): warning #177-D: variable \"y\" was declared but never referenced\n"
                               "ptxas error   : Entry function uses too much shared data (0x20000 bytes, 0xc000 max)\n"_s;
        const QList<CompilerDiagnostic> d =
            kernelbuild::parseDiagnostics(output, u"candidate.cu"_s, u"k.cu"_s, u"a\nb\nint x = foo;\n"_s);
        QCOMPARE(d.size(), 3);
        QCOMPARE(d[0].file, u"k.cu"_s);
        QCOMPARE(d[0].column, 12);
        QCOMPARE(d[0].sourceLine, u"int x = foo;"_s);
        QCOMPARE(d[1].file, u"/usr/include/x.h"_s); // not the candidate: no source line
        QCOMPARE(d[1].severity, u"warning"_s);
        QVERIFY(d[1].sourceLine.isEmpty());
        QCOMPARE(d[2].severity, u"error"_s);
        QVERIFY(d[2].message.startsWith(u"ptxas: Entry function uses too much shared data"_s));
    }

    void symbolScan_rejectsStreamsThreadsLimitsLibrariesAndDescriptorWrites()
    {
        const QList<SymbolRejection> rejected = kernelbuild::scanImportedSymbols(fixture(u"nm_side_stream.txt"_s));
        QStringList symbols;
        for (const SymbolRejection &r : rejected)
            symbols << r.symbol;
        QCOMPARE(symbols, (QStringList{u"cudaStreamCreateWithFlags"_s, u"pthread_create"_s, u"dlopen"_s,
                                       u"cudaDeviceSetLimit"_s, u"write"_s}));
        QVERIFY(rejected[0].reason.contains(u"stream"_s));
        QVERIFY(rejected[1].reason.contains(u"threads"_s));
        QVERIFY(rejected[2].reason.contains(u"loads libraries"_s));
        QVERIFY(rejected[3].reason.contains(u"limits"_s));
    }

    // The build refuses what the runner's process guard refuses too (issue 17): two layers, the second for
    // libraries built some other way.
    void symbolScan_rejectsProcessTampering()
    {
        const QString nm = u"                 U ptrace@GLIBC_2.2.5\n"
                           "                 U process_vm_writev@GLIBC_2.15\n"
                           "                 U mprotect@GLIBC_2.2.5\n"
                           "                 U pkey_mprotect@GLIBC_2.27\n"
                           "                 U mremap@GLIBC_2.2.5\n"
                           "                 U open64@GLIBC_2.2.5\n"
                           "                 U pwrite64@GLIBC_2.2.5\n"
                           "                 U __cudaLaunchKernel@libcudart.so.13\n"_s;
        QStringList symbols;
        for (const SymbolRejection &r : kernelbuild::scanImportedSymbols(nm))
            symbols << r.symbol;
        QCOMPARE(symbols, (QStringList{u"ptrace"_s, u"process_vm_writev"_s, u"mprotect"_s, u"pkey_mprotect"_s,
                                       u"mremap"_s, u"open64"_s, u"pwrite64"_s}));
    }

    void symbolScan_acceptsWhatTheBaselinesImport()
    {
        const QString nm = u"                 U __cudaLaunchKernel@libcudart.so.13\n"
                           "                 U cudaGetLastError@libcudart.so.13\n"
                           "                 U cudaFuncSetAttribute@libcudart.so.13\n"
                           "                 U exit@GLIBC_2.2.5\n"
                           "                 U fwrite@GLIBC_2.2.5\n"
                           "                 w __cxa_finalize@GLIBC_2.2.5\n"_s;
        QVERIFY(kernelbuild::scanImportedSymbols(nm).isEmpty());
    }

    void exportedFunctions_listsDefinedTextSymbols()
    {
        QCOMPARE(kernelbuild::exportedFunctions(fixture(u"nm_side_stream.txt"_s)),
                 (QStringList{u"rmsnorm_bf16"_s, u"weak_export"_s}));
    }

    void archForCapability_mapsMajorMinor()
    {
        QCOMPARE(KernelBuilder::archForCapability(u"9.0"_s), u"sm_90"_s);
        QCOMPARE(KernelBuilder::archForCapability(u" 12.1 "_s), u"sm_121"_s);
        QCOMPARE(KernelBuilder::archForCapability(u"n/a"_s), QString());
        QVERIFY(KernelBuilder::compilerFlags(u"sm_90"_s).contains(u"arch=compute_90,code=sm_90"_s));
        QVERIFY(KernelBuilder::compilerFlags(u"sm_90"_s).join(u' ').contains(u"-cudart shared"_s));
    }

    void buildResult_roundTripsThroughJson()
    {
        KernelBuildResult r;
        r.ok = false;
        r.error = u"k.cu:9: boom"_s;
        r.diagnostics << CompilerDiagnostic{u"k.cu"_s, 9, 3, u"error"_s, u"boom"_s, u"x = y;"_s};
        KernelResources k;
        k.function = u"f"_s;
        k.registers = 40;
        k.spillLoadBytes = 8;
        r.resources << k;
        r.rejectedSymbols << SymbolRejection{u"dlopen"_s, u"loads libraries"_s};
        r.missingEntryPoints << u"rmsnorm_bf16"_s;
        r.flags = KernelBuilder::compilerFlags(u"sm_90"_s);
        r.buildMs = 1234;
        const KernelBuildResult back = KernelBuildResult::fromJson(r.toJson());
        QCOMPARE(back.toJson(), r.toJson());
        QCOMPARE(back.diagnostics.first().sourceLine, u"x = y;"_s);
        QCOMPARE(back.resources.first().spillLoadBytes, 8);
    }
};

SF_TEST_GUILESS_MAIN(TestKernelBuildReport)
#include "test_kernel_build_report.moc"
