#include "kernels/KernelBuilder.h"

#include "common/AtomicFile.h"
#include "kernels/CudaToolchain.h"
#include "kernels/KernelLogging.h"
#include "kernels/harness/VerdictProtocol.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>

namespace sf {

namespace {
const QString CompiledName = QStringLiteral("candidate.cu");
const QString LibraryName = QStringLiteral("candidate.so");
const QString ReportName = QStringLiteral("build.json");
} // namespace

KernelBuilder::KernelBuilder(QObject *parent)
    : QObject(parent)
{
    m_timeout.setSingleShot(true);
    connect(&m_timeout, &QTimer::timeout, this, [this] {
        if (!m_process)
            return;
        m_result.timedOut = true;
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(2000);
        m_process->deleteLater();
        m_process = nullptr;
        fail(tr("nvcc did not finish within %1 s").arg(m_request.timeoutMs / 1000.0));
    });
}

KernelBuilder::~KernelBuilder()
{
    if (m_sandboxed) {
        m_sandboxed->disconnect(this);
        delete m_sandboxed.data(); // kills what runs in it before its folder goes
    }
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(2000);
    }
    if (!m_workFolder.isEmpty())
        QDir(m_workFolder).removeRecursively();
}

QString KernelBuilder::defaultCacheFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/kernel-builds");
}

QStringList KernelBuilder::compilerFlags(const QString &arch)
{
    const QString number = QString(arch).remove(QStringLiteral("sm_"));
    return {QStringLiteral("-O3"),
            QStringLiteral("-std=c++17"),
            QStringLiteral("-shared"),
            QStringLiteral("-Xcompiler"),
            QStringLiteral("-fPIC"),
            QStringLiteral("-cudart"),
            QStringLiteral("shared"),
            QStringLiteral("-lineinfo"),
            QStringLiteral("-gencode"),
            QStringLiteral("arch=compute_%1,code=sm_%1").arg(number),
            QStringLiteral("-Xptxas"),
            QStringLiteral("-v")};
}

QString KernelBuilder::archForCapability(const QString &capability)
{
    static const QRegularExpression pattern(QStringLiteral(R"(^(\d+)\.(\d+)$)"));
    const auto m = pattern.match(capability.trimmed());
    return m.hasMatch() ? QStringLiteral("sm_%1%2").arg(m.captured(1), m.captured(2)) : QString();
}

void KernelBuilder::start(const KernelBuildRequest &request)
{
    if (m_process)
        return;
    m_request = request;
    if (m_request.cacheFolder.isEmpty())
        m_request.cacheFolder = defaultCacheFolder();
    m_result = {};
    m_result.arch = request.arch;
    m_result.flags = compilerFlags(request.arch);
    m_clock.start();
    const QString nvcc = request.nvccPath.isEmpty() ? CudaToolchain::findNvcc() : request.nvccPath;
    if (nvcc.isEmpty()) {
        fail(tr("nvcc was not found (install the CUDA toolkit or put nvcc on PATH)"));
        return;
    }
    m_request.nvccPath = nvcc;
    static const QRegularExpression arch(QStringLiteral(R"(^sm_\d+[a-z]?$)"));
    if (!arch.match(request.arch).hasMatch()) {
        fail(tr("\"%1\" is not a GPU architecture like sm_90").arg(request.arch));
        return;
    }
    runStep(Step::Version, nvcc, {QStringLiteral("--version")});
}

void KernelBuilder::cancel()
{
    if (m_sandboxed) {
        m_sandboxed->disconnect(this);
        delete m_sandboxed.data(); // kills what runs in it
    } else if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(2000);
        m_process->deleteLater();
        m_process = nullptr;
        m_timeout.stop();
    } else {
        return;
    }
    fail(tr("the build was cancelled"));
}

void KernelBuilder::runStep(Step step, const QString &program, const QStringList &arguments)
{
    m_step = step;
    auto *process = new QProcess(this);
    m_process = process;
    process->setProcessChannelMode(QProcess::MergedChannels);
    if (!m_workFolder.isEmpty())
        process->setWorkingDirectory(m_workFolder);
    connect(process, &QProcess::finished, this, [this, process](int exitCode, QProcess::ExitStatus status) {
        const QString output = QString::fromLocal8Bit(process->readAll());
        process->deleteLater();
        m_process = nullptr;
        stepFinished(status == QProcess::NormalExit ? exitCode : -1, output);
    });
    connect(process, &QProcess::errorOccurred, this, [this, process, program](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return;
        process->deleteLater();
        m_process = nullptr;
        m_timeout.stop();
        fail(tr("cannot start %1: %2").arg(program, process->errorString()));
    });
    m_timeout.start(step == Step::Compile ? m_request.timeoutMs : 30000);
    qCDebug(lcKernels) << "running" << program << arguments;
    process->start(program, arguments);
}

void KernelBuilder::runSandboxedStep(Step step, const QString &program, const QStringList &arguments)
{
    m_step = step;
    SandboxSpec spec;
    spec.program = program;
    spec.arguments = arguments;
    spec.workspace = m_workFolder;
    spec.readOnlyPaths = CudaToolchain::toolkitFoldersOutsideUsr(m_request.nvccPath);
    spec.limits.timeoutMs = step == Step::Compile ? m_request.timeoutMs : 30000;
    spec.limits.memoryBytes = 8LL << 30; // cicc and ptxas on a large kernel, and still a bound
    spec.limits.maxOutputBytes = 4LL << 20;
    m_sandboxed = new SandboxProcess(this);
    connect(m_sandboxed, &SandboxProcess::finished, this, &KernelBuilder::onSandboxedStepFinished);
    qCDebug(lcKernels) << "running in the sandbox" << program << arguments;
    m_sandboxed->start(spec);
}

void KernelBuilder::onSandboxedStepFinished(const SandboxResult &result)
{
    m_sandboxed->deleteLater();
    m_sandboxed = nullptr;
    if (!result.error.isEmpty()) {
        fail(tr("kernel builds run only in the sandbox, which could not run %1: %2")
                 .arg(m_step == Step::Compile ? QStringLiteral("nvcc") : QStringLiteral("nm"), result.error));
        return;
    }
    if (result.timedOut) {
        m_result.timedOut = true;
        fail(tr("nvcc did not finish within %1 s").arg(m_request.timeoutMs / 1000.0));
        return;
    }
    // nvcc writes its diagnostics and ptxas's report to stderr; whatever reaches stdout comes first.
    stepFinished(result.exitCode, QString::fromLocal8Bit(result.stdOut + result.stdErr));
}

void KernelBuilder::stepFinished(int exitCode, const QString &output)
{
    m_timeout.stop();
    switch (m_step) {
    case Step::Version:
        if (exitCode != 0) {
            fail(tr("nvcc --version failed: %1").arg(output.trimmed()));
            return;
        }
        afterVersion(output);
        break;
    case Step::Compile: afterCompile(exitCode, output); break;
    case Step::Symbols: afterSymbols(exitCode, output); break;
    }
}

void KernelBuilder::afterVersion(const QString &output)
{
    m_result.nvccVersion = output.trimmed();
    const std::string keyText = m_request.source.toStdString() + '\0' + m_result.flags.join(u' ').toStdString() + '\0'
                                + m_result.nvccVersion.toStdString() + '\0'
                                + m_request.requiredEntryPoints.join(u',').toStdString();
    m_result.cacheKey = QString::fromStdString(kernels::sha256Hex(keyText)).left(32);
    m_entryFolder = m_request.cacheFolder + u'/' + m_result.cacheKey;

    QFile cached(m_entryFolder + u'/' + ReportName);
    if (cached.open(QIODevice::ReadOnly)) {
        KernelBuildResult hit = KernelBuildResult::fromJson(QJsonDocument::fromJson(cached.readAll()).object());
        if (hit.cacheKey == m_result.cacheKey && (!hit.ok || QFileInfo::exists(hit.libraryPath))) {
            hit.fromCache = true;
            hit.buildMs = m_clock.elapsed();
            m_result = hit;
            finish();
            return;
        }
    }

    m_workFolder = QStringLiteral("%1.tmp-%2").arg(m_entryFolder).arg(QRandomGenerator::global()->generate(), 8, 16, QChar(u'0'));
    QFile source(m_workFolder + u'/' + CompiledName);
    if (!QDir().mkpath(m_workFolder) || !source.open(QIODevice::WriteOnly) || source.write(m_request.source.toUtf8()) < 0) {
        fail(tr("cannot write the candidate into %1").arg(m_workFolder));
        return;
    }
    source.close();
    runSandboxedStep(Step::Compile, m_request.nvccPath,
                     m_result.flags + QStringList{QStringLiteral("-o"), LibraryName, CompiledName});
}

void KernelBuilder::afterCompile(int exitCode, const QString &output)
{
    m_result.compilerOutput = output;
    m_result.diagnostics = kernelbuild::parseDiagnostics(output, CompiledName, m_request.displayName, m_request.source);
    m_result.resources = kernelbuild::parsePtxasReport(output);
    if (exitCode != 0) {
        m_result.error = tr("nvcc failed (exit code %1)").arg(exitCode);
        for (const CompilerDiagnostic &d : std::as_const(m_result.diagnostics)) {
            if (d.severity == u"error") {
                m_result.error = d.line > 0 ? QStringLiteral("%1:%2: %3").arg(d.file).arg(d.line).arg(d.message)
                                            : QStringLiteral("%1: %2").arg(d.file, d.message);
                break;
            }
        }
        finish();
        return;
    }
    runSandboxedStep(Step::Symbols, QStringLiteral("nm"), {QStringLiteral("-D"), LibraryName});
}

void KernelBuilder::afterSymbols(int exitCode, const QString &output)
{
    if (exitCode != 0) {
        fail(tr("nm could not read the built library: %1").arg(output.trimmed()));
        return;
    }
    m_result.rejectedSymbols = kernelbuild::scanImportedSymbols(output);
    const QStringList exported = kernelbuild::exportedFunctions(output);
    for (const QString &entry : std::as_const(m_request.requiredEntryPoints)) {
        if (!exported.contains(entry))
            m_result.missingEntryPoints << entry;
    }
    if (!m_result.rejectedSymbols.isEmpty()) {
        const SymbolRejection &first = m_result.rejectedSymbols.first();
        m_result.error = tr("the library imports %1, which is not allowed: it %2").arg(first.symbol, first.reason);
    } else if (!m_result.missingEntryPoints.isEmpty()) {
        m_result.error = tr("the library does not export %1 (declare it extern \"C\" with exactly that name)")
                             .arg(m_result.missingEntryPoints.join(QStringLiteral(", ")));
    } else {
        m_result.ok = true;
    }
    finish();
}

void KernelBuilder::finish()
{
    if (!m_result.fromCache && !m_workFolder.isEmpty()) {
        // Move the finished build into the cache; a failed build is cached too (same input, same errors).
        if (m_result.ok)
            m_result.libraryPath = m_entryFolder + u'/' + LibraryName;
        m_result.buildMs = m_clock.elapsed();
        QSaveFile report(m_workFolder + u'/' + ReportName);
        if (report.open(QIODevice::WriteOnly)) {
            report.write(QJsonDocument(m_result.toJson()).toJson());
            commitSaveFile(report);
        }
        // An entry without a report is the remains of an interrupted build: replace it.
        if (QFileInfo::exists(m_entryFolder) && !QFileInfo::exists(m_entryFolder + u'/' + ReportName))
            QDir(m_entryFolder).removeRecursively();
        if (QFileInfo::exists(m_entryFolder) || !QDir().rename(m_workFolder, m_entryFolder)) {
            // Another build of the same key won the race; use its entry.
            QDir(m_workFolder).removeRecursively();
        }
        m_workFolder.clear();
    }
    Q_EMIT finished(m_result);
}

void KernelBuilder::fail(const QString &message)
{
    m_result.ok = false;
    m_result.error = message;
    m_result.buildMs = m_clock.isValid() ? m_clock.elapsed() : 0;
    if (!m_workFolder.isEmpty()) {
        QDir(m_workFolder).removeRecursively();
        m_workFolder.clear();
    }
    Q_EMIT finished(m_result);
}

KernelBuildResult KernelBuilder::build(const KernelBuildRequest &request)
{
    KernelBuilder builder;
    KernelBuildResult result;
    bool done = false;
    QEventLoop loop;
    connect(&builder, &KernelBuilder::finished, &loop, [&](const KernelBuildResult &r) {
        result = r;
        done = true;
        loop.quit();
    });
    builder.start(request);
    if (!done)
        loop.exec();
    return result;
}

} // namespace sf
