// The in-app installer of the local model runs the installer compiled into the app, in a cache of the
// test's own (SKILLFORGE_CACHE_DIR), without the network: what it would fetch is either there already
// or a stand-in that never finishes, so cancel can be seen to end it and everything it started.
#include "TestFiles.h"
#include "llm/LocalModelInstaller.h"
#include "llm/LocalRuntime.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <cerrno>
#include <csignal>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

bool writeExecutable(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size() &&
           file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

/// Whether `pid` still runs (a zombie waiting for a reaper does not).
bool isRunning(pid_t pid)
{
    if (::kill(pid, 0) != 0 && errno == ESRCH)
        return false;
    QFile stat(u"/proc/%1/stat"_s.arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray line = stat.readAll();
    const qsizetype close = line.lastIndexOf(')');
    return close < 0 || line.mid(close + 2, 1) != "Z";
}

} // namespace

class TestLocalModelInstaller final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_cache;

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_cache.isValid());
        QDir(m_cache.path()).removeRecursively();
        QVERIFY(QDir().mkpath(m_cache.path()));
        qputenv("SKILLFORGE_CACHE_DIR", m_cache.path().toLocal8Bit());
        qunsetenv("SKILLFORGE_LLAMA_SERVER");
        qunsetenv("SKILLFORGE_LOCAL_MODEL");
        // The server is "built" already, by the installer's current recipe; the model is what each test decides.
        QVERIFY(writeExecutable(m_cache.filePath(u"bin/llama-server"_s), "#!/bin/sh\nexit 0\n"));
        QVERIFY(sf::test::stampFakeLlamaServer(m_cache.path()));
    }

    void alreadyInstalled_finishes_reportsProgress_andPutsTheNoticeBesideTheModel()
    {
        QVERIFY(writeExecutable(LocalRuntime::modelPath(), "GGUF"));
        LocalModelInstaller installer;
        QSignalSpy progress(&installer, &LocalModelInstaller::progress);
        QSignalSpy finished(&installer, &LocalModelInstaller::finished);
        QSignalSpy failed(&installer, &LocalModelInstaller::failed);
        installer.start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count() + failed.count(), 1, 30000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last().at(0).toInt(), 100);
        QVERIFY(QFile::exists(m_cache.filePath(u"models/NOTICE-qwen2.5-coder-1.5b.txt"_s)));
        QVERIFY(QFile::exists(m_cache.filePath(u"installer/setup-local-model"_s)));
    }

    void cancel_endsTheInstallerAndWhatItStarted_andLeavesNoModel()
    {
        // A pip that never finishes its download, and says who it is.
        const QString pidFile = m_cache.filePath(u"pip.pid"_s);
        QVERIFY(writeExecutable(m_cache.filePath(u"venv/bin/python"_s),
                                "#!/bin/sh\ncase \"$*\" in *--version*) exit 0 ;; esac\necho $$ > '" +
                                    pidFile.toLocal8Bit() + "'\nexec sleep 120\n"));
        LocalModelInstaller installer;
        QSignalSpy progress(&installer, &LocalModelInstaller::progress);
        QSignalSpy cancelled(&installer, &LocalModelInstaller::cancelled);
        installer.start();
        // The stage line reaches us through the installer's output, maybe after pip has written its pid: wait for both.
        const auto saidDownloading = [&progress] {
            return std::any_of(progress.cbegin(), progress.cend(), [](const QList<QVariant> &signal) {
                return signal.at(1).toString().startsWith("downloading"_L1);
            });
        };
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(pidFile) && QFileInfo(pidFile).size() > 0, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(saidDownloading(), 10000);
        QFile pid(pidFile);
        QVERIFY(pid.open(QIODevice::ReadOnly));
        const pid_t pip = pid_t(pid.readAll().trimmed().toInt());
        QVERIFY(pip > 0);
        installer.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(cancelled.count(), 1, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!isRunning(pip), 10000);
        QVERIFY(!installer.isRunning());
        QVERIFY(!QFile::exists(LocalRuntime::modelPath()));
        QVERIFY(!LocalRuntime::isInstalled());
    }
};

QTEST_GUILESS_MAIN(TestLocalModelInstaller)
#include "test_local_model_installer.moc"
