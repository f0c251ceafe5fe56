#include "SkippedChecks.h"
#include "sandbox/Sandbox.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {
struct Result
{
    int exitCode = -1;
    QString out;
    QString err;
};

QString fixture(const QString &name)
{
    return QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/kernels/") + name;
}
} // namespace

/// `skillforge kernel tasks` and `skillforge kernel check` as a user runs them (real nvcc, the GPU if any).
class TestCliKernel : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;
    bool m_haveNvcc = false;
    bool m_haveGpu = false;
    QString m_whyNoBuild; ///< why no kernel can be built here (no nvcc, or no sandbox to run it in); empty if one can

    Result run(const QStringList &arguments)
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"HOME"_s, m_home.path());
        env.insert(u"XDG_CACHE_HOME"_s, m_home.filePath(u"cache"_s)); // a fresh build cache
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(SKILLFORGE_EXECUTABLE), arguments);
        if (!process.waitForFinished(600000))
            process.kill();
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_haveNvcc =
            !QStandardPaths::findExecutable(u"nvcc"_s).isEmpty() || QFile::exists(u"/usr/local/cuda/bin/nvcc"_s);
        QProcess smi;
        smi.start(u"nvidia-smi"_s, {u"-L"_s});
        m_haveGpu = smi.waitForFinished(15000) && smi.exitCode() == 0 && smi.readAll().contains("GPU");
        if (!m_haveNvcc)
            m_whyNoBuild = u"nvcc is not installed here"_s;
        else if (QString why; !sf::sandboxAvailable(&why))
            m_whyNoBuild = u"kernels are built only in the sandbox, and there is none here: "_s + why;
    }

    void help_listsBothKernelCommands()
    {
        const Result r = run({u"--help"_s});
        QVERIFY(r.out.contains(u"  kernel tasks "_s));
        QVERIFY(r.out.contains(u"  kernel check "_s));
        const Result own = run({u"kernel"_s, u"check"_s, u"--help"_s});
        QCOMPARE(own.exitCode, 0);
        QVERIFY(own.out.contains(u"3 compiled but not run"_s));
    }

    void tasks_listsTheNineBundledTasksAndEachRejectsNullCandidates()
    {
        const Result r = run({u"kernel"_s, u"tasks"_s, u"--json"_s});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray tasks = QJsonDocument::fromJson(r.out.toUtf8()).object().value(u"tasks").toArray();
        QCOMPARE(tasks.size(), 9);
        for (const QJsonValue &task : tasks) {
            QVERIFY(task.toObject().value(u"null_candidate_problems").toArray().isEmpty());
            QVERIFY(task.toObject().value(u"signature").toString().startsWith(u"extern \"C\" int "_s));
        }
        const Result text = run({u"kernel"_s, u"tasks"_s});
        QVERIFY(text.out.contains(u"rmsnorm  RMSNorm [bf16,fp16,fp32]"_s));
        QVERIFY(text.out.contains(u"flux-qk-norm: rows=110592 hidden=128"_s));
    }

    void tasks_brokenProjectTaskIsReportedWithFileAndLine()
    {
        QTemporaryDir project;
        QDir(project.path()).mkpath(u"kernels/bad"_s);
        QFile file(project.filePath(u"kernels/bad/task.json"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\n  \"id\": \"bad\",\n  \"op\": \"nope\"\n}\n");
        file.close();
        const Result r = run({u"kernel"_s, u"tasks"_s, u"--project"_s, project.path()});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(u"kernels/bad/task.json:1: \"title\" must be a non-empty string"_s), qPrintable(r.err));
    }

    void check_goodKernelWithoutGpuIsCompiledNotRunAndNeverAPass()
    {
        const QString baseline = QStringLiteral(SKILLFORGE_SOURCE_DIR "/resources/kernels/rmsnorm/baseline.cu");
        const Result r = run({u"kernel"_s, u"check"_s, u"rmsnorm"_s, u"--candidate"_s, baseline, u"--json"_s});
        const QJsonObject verdict = QJsonDocument::fromJson(r.out.toUtf8()).object();
        if (m_haveGpu) {
            QCOMPARE(r.exitCode, 0);
            QCOMPARE(verdict.value(u"status").toString(), u"passed"_s);
            return;
        }
        if (m_haveNvcc && !m_whyNoBuild.isEmpty())
            SF_SKIP_BECAUSE(m_whyNoBuild); // nvcc is there, but the build it would run cannot be contained
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(verdict.value(u"status").toString(), u"not_run"_s);
        QCOMPARE(verdict.value(u"passed").toBool(), false);
        if (m_haveNvcc) {
            QVERIFY(verdict.value(u"reason").toString().startsWith(u"no CUDA device"_s));
            const QJsonObject build = verdict.value(u"build").toObject();
            QVERIFY(build.value(u"ok").toBool());
            QCOMPARE(build.value(u"arch").toString(), u"sm_90"_s);
            QCOMPARE(build.value(u"resources").toArray().size(), 3);
        }
        const Result text = run({u"kernel"_s, u"check"_s, u"rmsnorm"_s, u"--candidate"_s, baseline});
        QCOMPARE(text.exitCode, 3);
        QVERIFY2(text.out.startsWith(u"kernel rmsnorm (bf16): compiled, not run: "_s), qPrintable(text.out));
    }

    void check_compilerErrorIsShownWithFileLineAndSource()
    {
        if (!m_whyNoBuild.isEmpty())
            SF_SKIP_BECAUSE(m_whyNoBuild);
        const Result r = run({u"kernel"_s, u"check"_s, u"rmsnorm"_s, u"--candidate"_s, fixture(u"broken_syntax.cu"_s)});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(u"broken_syntax.cu:9: identifier \"undeclared_factor\" is undefined"_s),
                 qPrintable(r.out));
        QVERIFY(r.out.contains(u"out[i] = x[i] * undeclared_factor;"_s));
    }

    void check_sideStreamCandidateIsRejectedBeforeRunning()
    {
        if (!m_whyNoBuild.isEmpty())
            SF_SKIP_BECAUSE(m_whyNoBuild);
        const Result r =
            run({u"kernel"_s, u"check"_s, u"rmsnorm"_s, u"--candidate"_s, fixture(u"creates_stream.cu"_s)});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(u"cudaStreamCreateWithFlags"_s) && r.out.contains(u"creates its own CUDA stream"_s),
                 qPrintable(r.out));
    }

    void runsRejudge_judgesAgainOnlyTheKernelThatCouldNotRun()
    {
        if (!m_whyNoBuild.isEmpty())
            SF_SKIP_BECAUSE(m_whyNoBuild);
        // The flagship runs kept in docs/flagship, carried as a user carries them to a GPU machine: the inline one
        // judged everything where it was made; in the agentic one a kernel compiled, and waits for a GPU.
        QTemporaryDir carried;
        const QString flagship = QStringLiteral(SKILLFORGE_SOURCE_DIR "/docs/flagship/");
        const QString inlineRun = carried.filePath(u"inline"_s), agenticRun = carried.filePath(u"agentic"_s);
        QCOMPARE(QProcess::execute(u"cp"_s, {u"-r"_s, flagship + u"20261203T125711Z-fe6551"_s, inlineRun}), 0);
        QCOMPARE(QProcess::execute(u"cp"_s, {u"-r"_s, flagship + u"20261203T134331Z-5ad191"_s, agenticRun}), 0);
        const QStringList suiteAndSkill{
            u"--tests"_s, QStringLiteral(SKILLFORGE_SOURCE_DIR "/resources/sample-project/tests/rmsnorm-kernels.json"),
            u"--skill"_s,
            QStringLiteral(SKILLFORGE_SOURCE_DIR "/resources/sample-project/skills/diffusers-cuda-rmsnorm")};

        Result r = run(QStringList{u"runs"_s, u"rejudge"_s, inlineRun} + suiteAndSkill);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(u"nothing to judge again"_s), qPrintable(r.out + r.err));

        const auto lines = [&] {
            QFile file(agenticRun + u"/results.jsonl"_s);
            return file.open(QIODevice::ReadOnly) ? file.readAll().count('\n') : -1;
        };
        const qsizetype before = lines();
        r = run(QStringList{u"runs"_s, u"rejudge"_s, agenticRun} + suiteAndSkill);
        QVERIFY2(r.out.contains(u"verifiers run again: 1; items judged again: 1"_s), qPrintable(r.out + r.err));
        QCOMPARE(lines(), before + 1); // appended, superseding the old line; nothing rewritten
        QFile results(agenticRun + u"/results.jsonl"_s);
        QVERIFY(results.open(QIODevice::ReadOnly));
        const QJsonObject appended = QJsonDocument::fromJson(results.readAll().trimmed().split('\n').last()).object();
        QJsonObject kernelVerdict;
        for (const QJsonValue &verifier : appended.value(u"verifiers"_s).toArray()) {
            if (verifier.toObject().value(u"type"_s).toString() == u"cuda_kernel"_s)
                kernelVerdict = verifier.toObject();
        }
        QVERIFY2(!kernelVerdict.isEmpty(), QJsonDocument(appended).toJson().constData());
        QVERIFY(!kernelVerdict.value(u"passed"_s).toBool());
        QVERIFY(!appended.value(u"passed"_s).toBool());
        if (m_haveGpu) {
            // The kernel is an empty stub: on a GPU its outputs are wrong, and the item stays failed.
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(r.out.contains(u"(0 newly passing, 0 newly failing, 1 unchanged)"_s), qPrintable(r.out));
            QVERIFY2(kernelVerdict.value(u"available"_s).toBool(true),
                     QJsonDocument(kernelVerdict).toJson().constData());
            QVERIFY2(!kernelVerdict.value(u"evidence"_s).toString().contains(u"not run"_s),
                     QJsonDocument(kernelVerdict).toJson().constData());
        } else {
            QCOMPARE(r.exitCode, 3);
            QVERIFY2(r.out.contains(u"still not run here: 1 (kernel rmsnorm (bf16): compiled, not run"_s),
                     qPrintable(r.out));
            QVERIFY(!kernelVerdict.value(u"available"_s).toBool(true));
        }
    }

    void check_badInputIsExitCode2()
    {
        const QString baseline = QStringLiteral(SKILLFORGE_SOURCE_DIR "/resources/kernels/rmsnorm/baseline.cu");
        Result r = run({u"kernel"_s, u"check"_s, u"fft"_s, u"--candidate"_s, baseline});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(u"no kernel task \"fft\""_s));
        r = run({u"kernel"_s, u"check"_s, u"rmsnorm"_s, u"--candidate"_s, baseline, u"--dtype"_s, u"fp8"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(u"has no dtype 'fp8'"_s));
        r = run({u"kernel"_s, u"check"_s, u"rmsnorm"_s, u"--candidate"_s, u"/nonexistent.cu"_s});
        QCOMPARE(r.exitCode, 2);
        r = run({u"kernel"_s, u"check"_s, u"rmsnorm"_s});
        QCOMPARE(r.exitCode, 2);
    }
};

SF_TEST_GUILESS_MAIN(TestCliKernel)
#include "test_cli_kernel.moc"
