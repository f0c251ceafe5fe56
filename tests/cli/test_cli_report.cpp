#include "SkippedChecks.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Result
{
    int exitCode = -1;
    QString out;
    QString err;
};

QString fixtureRun(const QString &version)
{
    return QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/runs/skill-%1").arg(version);
}

} // namespace

/// `skillforge report` as a user runs it on the fixture runs: no network, no model.
class TestCliReport final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;

    Result run(const QStringList &arguments, const QString &workingDirectory = {})
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_home.path());
        process.setProcessEnvironment(env);
        if (!workingDirectory.isEmpty())
            process.setWorkingDirectory(workingDirectory);
        process.start(QStringLiteral(SKILLFORGE_EXECUTABLE), QStringList{QStringLiteral("report")} + arguments);
        if (!process.waitForFinished(120000))
            process.kill();
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
    }

private Q_SLOTS:
    void html_withoutOutput_isWrittenToTheCurrentFolder_namedAfterTheRun()
    {
        QTemporaryDir cwd;
        const Result r =
            run({fixtureRun(QStringLiteral("v1")), QStringLiteral("--format"), QStringLiteral("html")}, cwd.path());
        QCOMPARE(r.exitCode, 0);
        const QString expected = cwd.filePath(QStringLiteral("20261121T100001Z-000001.html"));
        QVERIFY(QFile::exists(expected));
        QCOMPARE(r.out.trimmed(), QDir::cleanPath(expected));
    }

    void json_toOutputPath_holdsTheRun()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sub/r.json"));
        const Result r = run({fixtureRun(QStringLiteral("v2")), QStringLiteral("--format"), QStringLiteral("json"),
                              QStringLiteral("-o"), path});
        QCOMPARE(r.exitCode, 0);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(root.value(QStringLiteral("format")).toString(), QStringLiteral("skillforge-report/1"));
    }

    void verdictOptions_setTheThresholdsThatDecideEachVerdict()
    {
        // skill-v2: four held-out pairs per model, lifts of 1.0 and 0.75 with intervals above zero.
        QTemporaryDir dir;
        auto reportVerdicts = [&](const QStringList &options) {
            const QString path = dir.filePath(QStringLiteral("r.json"));
            const Result r = run(QStringList{fixtureRun(QStringLiteral("v2")), QStringLiteral("--format"),
                                             QStringLiteral("json"), QStringLiteral("-o"), path} +
                                 options);
            QFile file(path);
            if (r.exitCode != 0 || !file.open(QIODevice::ReadOnly))
                return QJsonObject{{QStringLiteral("error"), r.err}};
            return QJsonDocument::fromJson(file.readAll())
                .object()
                .value(QStringLiteral("run"))
                .toObject()
                .value(QStringLiteral("verdicts"))
                .toObject();
        };
        auto verdictOf = [](const QJsonObject &verdicts, int model) -> QString {
            const QJsonObject v = verdicts.value(QStringLiteral("models")).toArray().at(model).toObject();
            return v.value(QStringLiteral("verdict")).toString() + u' ' +
                   v.value(QStringLiteral("cut_reason")).toString();
        };
        auto thresholds = [](const QJsonObject &verdicts) {
            const QJsonObject t = verdicts.value(QStringLiteral("thresholds")).toObject();
            return QStringLiteral("%1 %2")
                .arg(t.value(QStringLiteral("min_lift")).toDouble())
                .arg(t.value(QStringLiteral("min_pairs")).toInt());
        };

        // The settings' defaults (any lift, ten pairs): four pairs are too few for either model.
        const QJsonObject byDefault = reportVerdicts({});
        QCOMPARE(thresholds(byDefault), QStringLiteral("0 10"));
        QCOMPARE(verdictOf(byDefault, 0), QStringLiteral("cant_tell "));
        QCOMPARE(verdictOf(byDefault, 1), QStringLiteral("cant_tell "));

        // --verdict-min-pairs 3: four pairs now decide, and both lifts are kept.
        const QJsonObject threePairs = reportVerdicts({QStringLiteral("--verdict-min-pairs"), QStringLiteral("3")});
        QCOMPARE(thresholds(threePairs), QStringLiteral("0 3"));
        QCOMPARE(verdictOf(threePairs, 0), QStringLiteral("keep "));
        QCOMPARE(verdictOf(threePairs, 1), QStringLiteral("keep "));
        QVERIFY2(threePairs.value(QStringLiteral("rule")).toString().contains(QStringLiteral("under 3 paired cases")),
                 qPrintable(threePairs.value(QStringLiteral("rule")).toString()));

        // --verdict-min-lift 0.9 as well: the 0.75 lift is now below the minimum and cut; the 1.0 lift is kept.
        const QJsonObject highBar = reportVerdicts({QStringLiteral("--verdict-min-pairs"), QStringLiteral("3"),
                                                    QStringLiteral("--verdict-min-lift"), QStringLiteral("0.9")});
        QCOMPARE(thresholds(highBar), QStringLiteral("0.9 3"));
        QCOMPARE(verdictOf(highBar, 0), QStringLiteral("keep "));
        QCOMPARE(verdictOf(highBar, 1), QStringLiteral("cut below_min_lift"));

        // A value out of range is bad usage, not a silent default.
        const Result bad = run({fixtureRun(QStringLiteral("v2")), QStringLiteral("--format"), QStringLiteral("json"),
                                QStringLiteral("-o"), dir.filePath(QStringLiteral("bad.json")),
                                QStringLiteral("--verdict-min-lift"), QStringLiteral("2")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(QStringLiteral("--verdict-min-lift")), qPrintable(bad.err));
    }

    void markdown_printsTheReportAndItsChartImages()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("r.md"));
        const Result r =
            run({fixtureRun(QStringLiteral("v1")), QStringLiteral("--format"), QStringLiteral("md"),
                 QStringLiteral("-o"), path, QStringLiteral("--compare"), fixtureRun(QStringLiteral("v2"))});
        QCOMPARE(r.exitCode, 0);
        const QStringList files = r.out.split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(files.size(), 8);
        QCOMPARE(files.first(), QDir::cleanPath(path));
        for (const QString &file : files)
            QVERIFY2(QFile::exists(file), qPrintable(file));
        QVERIFY(files.contains(dir.filePath(QStringLiteral("r-lift.png"))));
    }

    void csvWithCompare_listsBothRuns()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("r.csv"));
        const Result r =
            run({fixtureRun(QStringLiteral("v1")), QStringLiteral("--format"), QStringLiteral("csv"),
                 QStringLiteral("-o"), path, QStringLiteral("--compare"), fixtureRun(QStringLiteral("v2"))});
        QCOMPARE(r.exitCode, 0);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll().count("\r\n"), 81);
    }

    void missingRunFolder_exits2_namingTheFile()
    {
        QTemporaryDir dir;
        const Result r = run({dir.filePath(QStringLiteral("nope")), QStringLiteral("--format"), QStringLiteral("html"),
                              QStringLiteral("-o"), dir.filePath(QStringLiteral("r.html"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(dir.filePath(QStringLiteral("nope/run.json"))), qPrintable(r.err));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("r.html"))));
    }

    void brokenManifest_exits2_withFileAndLine()
    {
        QTemporaryDir dir;
        QFile manifest(dir.filePath(QStringLiteral("run.json")));
        QVERIFY(manifest.open(QIODevice::WriteOnly));
        manifest.write("{\n  \"run_id\": \"x\",\n  oops\n}\n");
        manifest.close();
        const Result r = run({dir.path(), QStringLiteral("--format"), QStringLiteral("csv"), QStringLiteral("-o"),
                              dir.filePath(QStringLiteral("r.csv"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(manifest.fileName() + QStringLiteral(":3:")), qPrintable(r.err));
    }

    void unknownFormat_orJUnitWithCompare_isBadUsage()
    {
        QTemporaryDir dir;
        Result r =
            run({fixtureRun(QStringLiteral("v1")), QStringLiteral("--format"), QStringLiteral("docx")}, dir.path());
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("html|pdf|md|csv|json|junit")));
        r = run({fixtureRun(QStringLiteral("v1")), QStringLiteral("--format"), QStringLiteral("junit"),
                 QStringLiteral("--compare"), fixtureRun(QStringLiteral("v2"))},
                dir.path());
        QCOMPARE(r.exitCode, 2);
        QVERIFY(QDir(dir.path()).isEmpty());
    }

    void help_describesTheFormats()
    {
        QProcess process;
        process.start(QStringLiteral(SKILLFORGE_EXECUTABLE), {QStringLiteral("report"), QStringLiteral("--help")});
        QVERIFY(process.waitForFinished(30000));
        const QString out = QString::fromUtf8(process.readAllStandardOutput());
        QVERIFY(out.contains(QStringLiteral("--format html|pdf|md|csv|json|junit")));
    }
};

SF_TEST_GUILESS_MAIN(TestCliReport)
#include "test_cli_report.moc"
