#include "SkillTestUtil.h"
#include "SkippedChecks.h"
#include "skill/SkillVersionStore.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;
using namespace sf::test;

class TestSkillVersionStore : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_root;
    QString m_skill;

    SkillVersion snapshot(SkillVersionStore &store, const QString &origin, const QString &message)
    {
        const auto result = store.snapshot(origin, message);
        if (const QString *error = std::get_if<QString>(&result))
            qFatal("snapshot failed: %s", qPrintable(*error));
        return std::get<SkillVersion>(result);
    }

private Q_SLOTS:
    void init()
    {
        m_skill = m_root.filePath(QStringLiteral("demo"));
        QDir(m_skill).removeRecursively();
        QVERIFY(writeText(m_skill, QStringLiteral("SKILL.md"), QStringLiteral("---\nname: demo\n---\nv1\n")));
        QVERIFY(writeText(m_skill, QStringLiteral("references/a.md"), QStringLiteral("A1")));
        QVERIFY(writeText(m_skill, QStringLiteral("run.sh"), QStringLiteral("#!/bin/sh\n")));
        QFile::setPermissions(QDir(m_skill).filePath(QStringLiteral("run.sh")),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }

    void snapshot_storesFilesManifestAndProvenance()
    {
        SkillVersionStore store(m_skill);
        QVERIFY(store.versions().isEmpty());
        const SkillVersion version =
            snapshot(store, QStringLiteral("teacher:anthropic:claude-opus-4-5"), QStringLiteral("generated"));
        QVERIFY(version.id.contains(QRegularExpression(QStringLiteral("^\\d{8}T\\d{9}Z-[0-9a-f]{6}$"))));
        QCOMPARE(version.time.timeSpec(), Qt::UTC);
        QVERIFY(version.contentHash.startsWith(QStringLiteral("sha256:")));

        const QString folder = QDir(m_skill).filePath(QStringLiteral(".versions/") + version.id);
        const QJsonObject manifest =
            QJsonDocument::fromJson(readBytes(folder + QStringLiteral("/version.json"))).object();
        QCOMPARE(manifest.value(QStringLiteral("origin")).toString(),
                 QStringLiteral("teacher:anthropic:claude-opus-4-5"));
        QCOMPARE(manifest.value(QStringLiteral("message")).toString(), QStringLiteral("generated"));
        QCOMPARE(manifest.value(QStringLiteral("content_hash")).toString(), version.contentHash);
        QVERIFY(!manifest.value(QStringLiteral("time")).toString().isEmpty());

        const QMap<QString, QByteArray> files = store.files(version.id);
        QCOMPARE(files.keys(), (QStringList{QStringLiteral("SKILL.md"), QStringLiteral("references/a.md"),
                                            QStringLiteral("run.sh")}));
        QCOMPARE(files.value(QStringLiteral("references/a.md")), QByteArrayLiteral("A1"));

        const QList<SkillVersion> versions = store.versions();
        QCOMPARE(versions.size(), 1);
        QCOMPARE(versions.first().origin, QStringLiteral("teacher:anthropic:claude-opus-4-5"));
        QCOMPARE(versions.first().time, version.time);
    }

    void snapshot_ofARelativeFolder_storesPathsRelativeToTheSkill()
    {
        // `generate --out gen` names the skill as gen/<skill>: its snapshot held files/gen/<skill>/SKILL.md, and a
        // restore wrote into a nested folder.
        const QString previous = QDir::currentPath();
        QVERIFY(QDir::setCurrent(m_root.path()));
        const auto back = qScopeGuard([&] { QDir::setCurrent(previous); });
        SkillVersionStore store(QStringLiteral("demo"));
        const SkillVersion version = snapshot(store, QStringLiteral("test"), QStringLiteral("relative"));
        QCOMPARE(
            store.files(version.id).keys(),
            (QStringList{QStringLiteral("SKILL.md"), QStringLiteral("references/a.md"), QStringLiteral("run.sh")}));
        QVERIFY(QFile::exists(
            m_root.filePath(QStringLiteral("demo/.versions/") + version.id + QStringLiteral("/files/SKILL.md"))));
    }

    void snapshot_unchangedContent_storesNothingNew()
    {
        SkillVersionStore store(m_skill);
        const SkillVersion first = snapshot(store, QStringLiteral("user"), QStringLiteral("save"));
        const SkillVersion second = snapshot(store, QStringLiteral("user"), QStringLiteral("save again"));
        QCOMPARE(second.id, first.id);
        QCOMPARE(store.versions().size(), 1);
    }

    void snapshot_manyInOneMillisecond_neverCollideAndStayOrdered()
    {
        SkillVersionStore store(m_skill);
        QSet<QString> ids;
        for (int i = 0; i < 40; ++i) {
            QVERIFY(
                writeText(m_skill, QStringLiteral("SKILL.md"), QStringLiteral("---\nname: demo\n---\nv%1\n").arg(i)));
            ids.insert(snapshot(store, QStringLiteral("refine:%1").arg(i), QString()).id);
        }
        QCOMPARE(ids.size(), 40);
        const QList<SkillVersion> versions = store.versions();
        QCOMPARE(versions.size(), 40);
        QCOMPARE(versions.first().origin, QStringLiteral("refine:39")); // newest first
        QCOMPARE(versions.last().origin, QStringLiteral("refine:0"));
        for (qsizetype i = 1; i < versions.size(); ++i)
            QVERIFY(versions[i - 1].time > versions[i].time);
    }

    void restore_bringsBackFilesRemovesNewOnes_andSnapshotsFirst()
    {
        SkillVersionStore store(m_skill);
        const SkillVersion v1 = snapshot(store, QStringLiteral("user"), QStringLiteral("v1"));
        QVERIFY(writeText(m_skill, QStringLiteral("SKILL.md"), QStringLiteral("---\nname: demo\n---\nv2\n")));
        QVERIFY(writeText(m_skill, QStringLiteral("scripts/new.py"), QStringLiteral("print()")));
        QFile::remove(QDir(m_skill).filePath(QStringLiteral("references/a.md")));
        QFile::remove(QDir(m_skill).filePath(QStringLiteral("run.sh")));

        QCOMPARE(store.restore(v1.id), QString());
        QCOMPARE(readBytes(QDir(m_skill).filePath(QStringLiteral("SKILL.md"))),
                 QByteArrayLiteral("---\nname: demo\n---\nv1\n"));
        QCOMPARE(readBytes(QDir(m_skill).filePath(QStringLiteral("references/a.md"))), QByteArrayLiteral("A1"));
        QVERIFY(!QFileInfo::exists(QDir(m_skill).filePath(QStringLiteral("scripts"))));
        QVERIFY(QFileInfo(QDir(m_skill).filePath(QStringLiteral("run.sh"))).isExecutable());
        QCOMPARE(SkillVersionStore::contentHash(store.currentFiles()), v1.contentHash);

        // The state before the restore is kept, so the restore can be undone.
        const QList<SkillVersion> versions = store.versions();
        QCOMPARE(versions.size(), 2);
        QVERIFY(versions.first().message.contains(v1.id));
        QVERIFY(store.files(versions.first().id).contains(QStringLiteral("scripts/new.py")));
    }

    void keepBeforeChange_storesTheFolderAsFound_thenOnlyOutsideChanges()
    {
        SkillVersionStore store(m_skill);
        const auto found = store.keepBeforeChange(QStringLiteral("saving SKILL.md"));
        QVERIFY(std::holds_alternative<SkillVersion>(found));
        QCOMPARE(store.versions().size(), 1);
        QCOMPARE(std::get<SkillVersion>(found).message, QStringLiteral("As found, before saving SKILL.md"));
        QCOMPARE(store.files(std::get<SkillVersion>(found).id).value(QStringLiteral("SKILL.md")),
                 QByteArray("---\nname: demo\n---\nv1\n"));

        // Nothing changed since: no new version.
        QVERIFY(std::holds_alternative<SkillVersion>(store.keepBeforeChange(QStringLiteral("saving SKILL.md"))));
        QCOMPARE(store.versions().size(), 1);

        // Another program edited a file: its state is kept, and said to be someone else's.
        QVERIFY(writeText(m_skill, QStringLiteral("references/a.md"), QStringLiteral("A2 by another editor")));
        const auto outside = store.keepBeforeChange(QStringLiteral("deleting references/a.md"));
        QVERIFY(std::holds_alternative<SkillVersion>(outside));
        QCOMPARE(store.versions().size(), 2);
        QCOMPARE(std::get<SkillVersion>(outside).message,
                 QStringLiteral("Changed outside Skillforge, kept before deleting references/a.md"));
        QCOMPARE(store.files(std::get<SkillVersion>(outside).id).value(QStringLiteral("references/a.md")),
                 QByteArray("A2 by another editor"));
    }

    void restore_unknownOrEscapingId_fails()
    {
        SkillVersionStore store(m_skill);
        QVERIFY(!store.restore(QStringLiteral("nope")).isEmpty());
        QVERIFY(!store.restore(QStringLiteral("../demo")).isEmpty());
        QVERIFY(store.files(QStringLiteral("../..")).isEmpty());
    }

    void versions_skipsUnreadableAndHalfWrittenFolders()
    {
        SkillVersionStore store(m_skill);
        snapshot(store, QStringLiteral("user"), QString());
        QVERIFY(QDir(m_skill).mkpath(QStringLiteral(".versions/garbage")));
        QVERIFY(writeText(m_skill, QStringLiteral(".versions/.20990101T000000000Z-abcdef/files/SKILL.md"),
                          QStringLiteral("x")));
        QCOMPARE(store.versions().size(), 1);
    }

    void contentHash_dependsOnPathsAndContent()
    {
        const QString a = SkillVersionStore::contentHash({{QStringLiteral("a"), "bc"}});
        QVERIFY(a != SkillVersionStore::contentHash({{QStringLiteral("ab"), "c"}}));
        QVERIFY(a != SkillVersionStore::contentHash({{QStringLiteral("a"), "bd"}}));
        QCOMPARE(a, SkillVersionStore::contentHash({{QStringLiteral("a"), "bc"}}));
    }
};

SF_TEST_GUILESS_MAIN(TestSkillVersionStore)
#include "test_skill_version_store.moc"
