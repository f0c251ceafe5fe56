#include "SkippedChecks.h"
#include "kernels/KernelRunner.h"
#include "kernels/KernelTask.h"
#include "kernels/harness/Statistics.h"
#include "kernels/harness/TaskSpec.h"
#include "kernels/harness/VerdictProtocol.h"
#include "sandbox/Sandbox.h"

#include <QDir>
#include <QFile>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace sf;
using namespace sf::kernels;
using namespace Qt::StringLiterals;

namespace {
const std::string Key = fromHex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
const std::string Body = R"({"status":"passed","reason":"ok"})";
} // namespace

// The runner always starts inside bubblewrap; where no sandbox can be made, these checks are skipped, not passed.
#define SKIP_WITHOUT_SANDBOX()                                                                                         \
    do {                                                                                                               \
        QString why;                                                                                                   \
        if (!sandboxAvailable(&why))                                                                                   \
            SF_SKIP_BECAUSE(u"no sandbox here: "_s + why);                                                             \
    } while (false)

/// The verdict pipe protocol, the runner process wrapper and the runner's statistics, all on the CPU.
class TestKernelRunner : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    // A stand-in runner: a shell script that does what a hostile or broken candidate would.
    QString fakeRunner(const QString &name, const QByteArray &script)
    {
        const QString path = m_dir.filePath(name);
        QFile file(path);
        file.open(QIODevice::WriteOnly);
        file.write("#!/bin/sh\n" + script);
        file.close();
        file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        return path;
    }

    static void writeFile(const QString &path, const QByteArray &bytes)
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
    }

    KernelRunOutcome runWith(const QString &runner, const QString &taskFile = QString(), int timeoutMs = 20000)
    {
        KernelRunner kernelRunner;
        QSignalSpy finished(&kernelRunner, &KernelRunner::finished);
        KernelRunRequest request;
        request.runnerPath = runner;
        request.taskFile = taskFile.isEmpty() ? m_dir.filePath(u"task.json"_s) : taskFile;
        request.dtype = u"bf16"_s;
        request.candidateLibrary = m_dir.filePath(u"candidate.so"_s);
        request.baselineLibrary = m_dir.filePath(u"baseline.so"_s);
        request.workFolder = m_dir.path();
        request.timeoutMs = timeoutMs;
        kernelRunner.start(request);
        if (finished.isEmpty())
            finished.wait(timeoutMs + 10000);
        return finished.isEmpty() ? KernelRunOutcome{} : finished.first().first().value<KernelRunOutcome>();
    }

private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<KernelRunOutcome>(); }

    void sha256AndHmac_matchPublishedTestVectors()
    {
        QCOMPARE(sha256Hex("abc"), std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        QCOMPARE(sha256Hex(""), std::string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
        // RFC 4231 test case 2.
        QCOMPARE(hmacSha256Hex("Jefe", "what do ya want for nothing?"),
                 std::string("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"));
        // A key longer than the block is hashed first (RFC 4231 test case 6).
        QCOMPARE(hmacSha256Hex(std::string(131, '\xaa'), "Test Using Larger Than Block-Size Key - Hash Key First"),
                 std::string("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"));
    }

    void verdictFrame_authenticFrameIsAccepted()
    {
        const DecodedVerdict v = decodeVerdictFrame(encodeVerdictFrame(Body, Key, "n1"), Key, "n1");
        QVERIFY(v.ok);
        QCOMPARE(v.body, Body);
    }

    void verdictFrame_anyForgeryOrDamageIsRejected_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QString>("error");
        const std::string good = encodeVerdictFrame(Body, Key, "n1");
        std::string tampered = good;
        tampered.replace(tampered.find("passed"), 6, "failed");
        QTest::newRow("body changed") << QByteArray::fromStdString(tampered) << u"signature does not match"_s;
        QTest::newRow("signed with another key")
            << QByteArray::fromStdString(encodeVerdictFrame(Body, std::string(32, 'x'), "n1")) << u"signature"_s;
        QTest::newRow("another run's nonce") << QByteArray::fromStdString(encodeVerdictFrame(Body, Key, "n0"))
                                             << u"wrong nonce"_s;
        QTest::newRow("bytes before (candidate wrote to fd 3 first)")
            << QByteArray::fromStdString("x" + good) << u"before the verdict"_s;
        QTest::newRow("bytes after") << QByteArray::fromStdString(good + "SFV1 n1 2\n{}\n") << u"after the verdict"_s;
        QTest::newRow("two frames") << QByteArray::fromStdString(good + good) << u"after the verdict"_s;
        QTest::newRow("truncated") << QByteArray::fromStdString(good.substr(0, good.size() - 10)) << u"truncated"_s;
        QTest::newRow("empty") << QByteArray() << u"no verdict"_s;
        QTest::newRow("bad length") << QByteArray("SFV1 n1 x\n{}\n") << u"malformed"_s;
        QTest::newRow("huge length") << QByteArray("SFV1 n1 99999999999999999999\n") << u"malformed"_s;
    }

    void verdictFrame_anyForgeryOrDamageIsRejected()
    {
        QFETCH(QByteArray, data);
        QFETCH(QString, error);
        const DecodedVerdict v = decodeVerdictFrame(data.toStdString(), Key, "n1");
        QVERIFY(!v.ok);
        QVERIFY2(QString::fromStdString(v.error).contains(error), v.error.c_str());
    }

    void runner_candidatePrintingAPassOnStdoutIsIgnored()
    {
        SKIP_WITHOUT_SANDBOX();
        const QString forged = QString::fromStdString(encodeVerdictFrame(Body, Key, "n1"));
        const KernelRunOutcome o = runWith(fakeRunner(u"stdout.sh"_s, "printf '%s' '" + forged.toUtf8() + "'\necho '{\"status\":\"passed\"}'\n"));
        QVERIFY(!o.authentic);
        QVERIFY2(o.problem.contains(u"without a verdict"_s), qPrintable(o.problem));
    }

    void runner_framesOnTheVerdictPipeWithoutTheKeyAreRejected()
    {
        SKIP_WITHOUT_SANDBOX();
        // The script cannot know the key the runner was given, so its signature is wrong.
        const QString forged = QString::fromStdString(encodeVerdictFrame(Body, Key, "guess"));
        KernelRunOutcome o = runWith(fakeRunner(u"fd3.sh"_s, "printf '%s' '" + forged.toUtf8() + "' >&3\n"));
        QVERIFY(!o.authentic);
        QVERIFY2(o.problem.startsWith(u"verdict rejected"_s), qPrintable(o.problem));
        o = runWith(fakeRunner(u"garbage.sh"_s, "echo hello >&3\n"));
        QVERIFY(!o.authentic);
        QVERIFY(o.problem.contains(u"before the verdict"_s));
    }

    void runner_keyFileIsGoneAfterTheRun()
    {
        SKIP_WITHOUT_SANDBOX();
        runWith(fakeRunner(u"quiet.sh"_s, "exit 0\n"));
        QVERIFY(!QFile::exists(m_dir.filePath(u"verdict.key"_s)));
    }

    void runner_crashHangAndExitAreFailuresWithTheirCause()
    {
        SKIP_WITHOUT_SANDBOX();
        KernelRunOutcome o = runWith(fakeRunner(u"crash.sh"_s, "echo 'illegal memory access' >&2\nkill -SEGV $$\n"));
        QVERIFY(!o.authentic);
        QVERIFY(o.crashed);
        QVERIFY2(o.problem.contains(u"crashed"_s), qPrintable(o.problem));
        QVERIFY(o.stdErrTail.contains(u"illegal memory access"_s));

        o = runWith(fakeRunner(u"hang.sh"_s, "exec sleep 30\n"), QString(), 500);
        QVERIFY(o.timedOut);
        QVERIFY2(o.problem.contains(u"did not finish within"_s), qPrintable(o.problem));

        o = runWith(fakeRunner(u"exit.sh"_s, "exit 3\n"));
        QVERIFY(o.problem.contains(u"exit code 3"_s));
    }

    void missingRunner_isAClearFailure()
    {
        const KernelRunOutcome o = runWith(m_dir.filePath(u"does-not-exist"_s));
        QVERIFY(!o.authentic);
        QVERIFY2(o.problem.contains(u"could not be started"_s) || o.problem.contains(u"exit code"_s), qPrintable(o.problem));
    }

    void cudaLibraryFolders_areTheFoldersHoldingTheDriverOrRuntime()
    {
        QTemporaryDir driver, runtime, other;
        writeFile(driver.filePath(u"libcuda.so.1"_s), "driver");
        writeFile(runtime.filePath(u"libcudart.so.13"_s), "runtime");
        writeFile(other.filePath(u"libnotcuda.so"_s), "other");
        const QString path = driver.path() + u":relative/lib:"_s + other.path() + u"::"_s + runtime.path() + u':' +
                             driver.path() + u":/does/not/exist"_s;
        QCOMPARE(KernelRunner::cudaLibraryFolders(path), QStringList({driver.path(), runtime.path()}));
        QVERIFY(KernelRunner::cudaLibraryFolders(QString()).isEmpty());
    }

    void runner_findsADriverNamedOnlyInLdLibraryPath()
    {
        SKIP_WITHOUT_SANDBOX();
        // As on a Kubernetes GPU node: the driver's folder is outside the sandbox's view and named only in the
        // variable, which the sandbox would otherwise clear.
        QTemporaryDir driver;
        writeFile(driver.filePath(u"libcuda.so.1"_s), "the-driver-library");
        const QByteArray saved = qgetenv("LD_LIBRARY_PATH");
        const auto restore = qScopeGuard([&] { qputenv("LD_LIBRARY_PATH", saved); });
        qputenv("LD_LIBRARY_PATH", (driver.path() + u":/does/not/exist"_s).toLocal8Bit());
        const KernelRunOutcome o = runWith(fakeRunner(
            u"driver.sh"_s, "echo \"path=$LD_LIBRARY_PATH\" >&2; cat \"$LD_LIBRARY_PATH/libcuda.so.1\" >&2; exit 3\n"));
        QVERIFY2(o.stdErrTail.contains(u"path="_s + driver.path() + u'\n'), qPrintable(o.stdErrTail));
        QVERIFY2(o.stdErrTail.contains(u"the-driver-library"_s), qPrintable(o.stdErrTail));
    }

    void realRunner_signsItsVerdictForThisRun()
    {
        SKIP_WITHOUT_SANDBOX();
#ifndef SKILLFORGE_KERNEL_RUNNER_BUILD_PATH
        QSKIP("this build has no kernel runner (no CUDA compiler)");
#else
        // Only the work folder and the libraries are visible in the sandbox: the task is copied in, as KernelCheck
        // does.
        const QString task = m_dir.filePath(u"task.json"_s);
        QFile::remove(task);
        QVERIFY(QFile::copy(QStringLiteral(SKILLFORGE_SOURCE_DIR "/resources/kernels/rmsnorm/task.json"), task));
        const KernelRunOutcome o = runWith(QStringLiteral(SKILLFORGE_KERNEL_RUNNER_BUILD_PATH), task, 300000);
        QVERIFY2(o.authentic, qPrintable(o.problem + u" / "_s + o.stdErrTail));
        QCOMPARE(o.body.value(u"task").toString(), u"rmsnorm"_s);
        // No GPU here: "not_run"; with one, the missing libraries make it fail. Never a pass.
        const QString status = o.body.value(u"status").toString();
        QVERIFY2(status == u"not_run"_s || status == u"failed"_s, qPrintable(status));
        QVERIFY(!QFile::exists(m_dir.filePath(u"verdict.key"_s)));
#endif
    }

    void statistics_medianIntervalAndRelativeStandardError()
    {
        const SampleSummary s = summarize({5, 1, 4, 2, 3});
        QCOMPARE(s.count, size_t(5));
        QCOMPARE(s.median, 3.0);
        QCOMPARE(s.min, 1.0);
        QCOMPARE(s.max, 5.0);
        QCOMPARE(s.mean, 3.0);
        QVERIFY(std::abs(s.stddev - std::sqrt(2.5)) < 1e-12);
        QVERIFY(std::abs(s.relStdError - std::sqrt(2.5) / std::sqrt(5.0) / 3.0) < 1e-12);
        QVERIFY(s.medianLow <= s.median && s.median <= s.medianHigh);
        std::vector<double> many;
        for (int i = 0; i < 1000; ++i)
            many.push_back(100.0 + (i % 10) * 0.1);
        const SampleSummary m = summarize(many);
        QVERIFY(m.relStdError < 0.01);
        QVERIFY(m.medianHigh - m.medianLow <= 0.2 + 1e-9);
        QCOMPARE(summarize({}).count, size_t(0));
        QCOMPARE(relativeSpread({100, 101, 99}), 0.02);
        QCOMPARE(relativeSpread({7}), 0.0);
    }

    void runnerTaskReader_agreesWithTheLoaderOnEveryBundledTask()
    {
        QList<LoadError> errors;
        for (const KernelTask &task : KernelTaskLoader::loadAll({}, &errors)) {
            QFile file(task.taskFile);
            QVERIFY(file.open(QIODevice::ReadOnly));
            TaskSpec spec;
            std::string error;
            QVERIFY2(parseTaskSpec(file.readAll().toStdString(), &spec, &error), error.c_str());
            QCOMPARE(QString::fromStdString(spec.id), task.id);
            QCOMPARE(QString::fromStdString(spec.entry), task.entry);
            QCOMPARE(spec.op, task.op);
            QCOMPARE(spec.scalars, task.scalars);
            QCOMPARE(spec.shapes.size(), size_t(task.shapes.size()));
            for (size_t i = 0; i < spec.shapes.size(); ++i)
                QCOMPARE(spec.shapes[i].dims, task.shapes[qsizetype(i)].dims);
            for (const auto &[dtype, tol] : task.tolerances) {
                QCOMPARE(spec.tolerances.at(dtypeName(dtype)).atol, tol.atol);
                QCOMPARE(spec.tolerances.at(dtypeName(dtype)).rtol, tol.rtol);
            }
        }
        TaskSpec spec;
        std::string error;
        QVERIFY(!parseTaskSpec("{\"id\": \"x\", ", &spec, &error));
        QVERIFY(!parseTaskSpec(R"({"id":"x","entry":"x","op":"rope","shapes":[{"name":"s","dims":{"tokens":1,"heads":1,"head_dim":3}}]})",
                               &spec, &error));
        QVERIFY(QString::fromStdString(error).contains(u"even"_s));
    }
};

SF_TEST_GUILESS_MAIN(TestKernelRunner)
#include "test_kernel_runner.moc"
