#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace sf {

/// One compiler message tied to the candidate's source.
struct CompilerDiagnostic
{
    QString file;       ///< as the user knows it (the candidate's name, not the build copy)
    int line = 0;
    int column = 0;     ///< 0 when the compiler gave none
    QString severity;   ///< "error", "warning", "note"
    QString message;
    QString sourceLine; ///< the text of that line of the candidate, when it is the candidate's
};

/// ptxas's resource report for one kernel (-Xptxas -v).
struct KernelResources
{
    QString function; ///< demangled where possible
    QString arch;     ///< e.g. "sm_90"
    int registers = 0;
    int barriers = 0;
    qint64 sharedBytes = 0;
    qint64 constantBytes = 0;
    qint64 stackBytes = 0;
    qint64 spillStoreBytes = 0;
    qint64 spillLoadBytes = 0;
};

/// A symbol the built library imports that the harness does not allow, and why.
struct SymbolRejection
{
    QString symbol;
    QString reason;
};

/// What building a candidate produced: the library, or why there is none, plus the build facts.
struct KernelBuildResult
{
    bool ok = false;              ///< a library was built and passed the symbol scan
    bool fromCache = false;
    bool timedOut = false;
    QString libraryPath;
    QString error;                ///< one line: why the build failed
    QList<CompilerDiagnostic> diagnostics;
    QList<KernelResources> resources;
    QList<SymbolRejection> rejectedSymbols;
    QStringList missingEntryPoints;
    QString compilerOutput;       ///< nvcc's full output
    QStringList flags;
    QString arch;
    QString nvccVersion;
    QString cacheKey;
    qint64 buildMs = 0;

    QJsonObject toJson() const;
    static KernelBuildResult fromJson(const QJsonObject &json);
};

/// Parsers of nvcc, ptxas and nm output; pure functions, so they are tested without a compiler.
namespace kernelbuild {

/// "-Xptxas -v" lines in @p output: one entry per compiled __global__ function.
QList<KernelResources> parsePtxasReport(const QString &output);

/// nvcc front-end ("f.cu(12): error: ...") and host compiler ("f.cu:12:5: error: ...") messages.
/// Messages about @p compiledFile are reported as @p displayName with the line from @p source.
QList<CompilerDiagnostic> parseDiagnostics(const QString &output, const QString &compiledFile,
                                           const QString &displayName, const QString &source);

/// Checks the undefined symbols in `nm -D` output against what a candidate may call: creating
/// streams or threads, resetting the device, changing limits or L2 persistence, loading libraries,
/// starting processes, I/O on descriptors, signal handlers and driver entry-point lookups are rejected.
QList<SymbolRejection> scanImportedSymbols(const QString &nmOutput);

/// Names of the functions `nm -D` lists as defined (exported) in the text section.
QStringList exportedFunctions(const QString &nmOutput);

/// Demangles a C++ symbol; returns @p mangled unchanged when it is not one.
QString demangle(const QString &mangled);

} // namespace kernelbuild

} // namespace sf
