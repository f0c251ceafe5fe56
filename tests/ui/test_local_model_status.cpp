// The status-bar button of the local model where the model is not installed: it offers the install, runs it
// as a job with progress, and a cancel from the Jobs panel ends it. The installer runs for real in a cache of
// the test's own; its pip is a stand-in that never finishes, so nothing is fetched.
#include "SkippedChecks.h"
#include "TestFiles.h"
#include "jobs/Job.h"
#include "jobs/JobListModel.h"
#include "llm/HttpEngine.h"
#include "llm/LocalModelServer.h"
#include "models/LocalModelStatus.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

class TestLocalModelStatus final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_cache;

    bool writeExecutable(const QString &relativePath, const QByteArray &content)
    {
        const QString path = m_cache.filePath(relativePath);
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile file(path);
        return file.open(QIODevice::WriteOnly) && file.write(content) == content.size() &&
               file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_cache.isValid());
        qputenv("SKILLFORGE_CACHE_DIR", m_cache.path().toLocal8Bit());
        qunsetenv("SKILLFORGE_LLAMA_SERVER");
        qunsetenv("SKILLFORGE_LOCAL_MODEL");
        QVERIFY(writeExecutable(u"bin/llama-server"_s, "#!/bin/sh\nexit 0\n"));
        QVERIFY(sf::test::stampFakeLlamaServer(m_cache.path()));
        QVERIFY(writeExecutable(u"venv/bin/python"_s,
                                "#!/bin/sh\ncase \"$*\" in *--version*) exit 0 ;; esac\nexec sleep 120\n"));
    }

    void notInstalled_offersTheInstall_runsItAsAJob_andCancelEndsIt()
    {
        HttpEngine engine;
        LocalModelServer server(engine, LocalModelServer::Options::fromRuntime());
        JobListModel jobs;
        LocalModelStatus status(server, jobs);
        QCOMPARE(status.text(), u"Local model: not installed"_s);
        QVERIFY(status.installAction()->isVisible());
        QVERIFY(status.installAction()->isEnabled());
        QVERIFY(!status.startAction()->isEnabled());

        status.installAction()->trigger();
        QCOMPARE(jobs.rowCount(), 1);
        Job *job = jobs.jobAt(0);
        QCOMPARE(job->title(), u"Installing the local model"_s);
        QVERIFY(!status.installAction()->isEnabled()); // one install at a time
        QCOMPARE(status.text(), u"Local model: installing…"_s);
        // The installer reaches the model download (its pip never returns) and says so.
        QTRY_VERIFY_WITH_TIMEOUT(job->detail().startsWith("downloading"_L1), 30000);
        QVERIFY(job->progress().value_or(0) > 0.5);

        job->requestCancel();
        QTRY_COMPARE_WITH_TIMEOUT(job->state(), Job::State::Cancelled, 10000);
        QCOMPARE(status.text(), u"Local model: not installed"_s);
        QVERIFY(status.installAction()->isEnabled());
    }
};

SF_TEST_MAIN(TestLocalModelStatus)
#include "test_local_model_status.moc"
