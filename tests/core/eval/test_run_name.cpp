// Runs named for people (issue 35, item 8): by what tells them apart, never by their id.
#include "SkippedChecks.h"
#include "eval/RunName.h"

#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

RunManifest run(const QString &skill, const QString &startedAt, const QStringList &models = {u"local:qwen"_s},
                const QString &suite = u"/p/tests/checks.json"_s)
{
    RunManifest manifest;
    manifest.runId = u"20261202T062336Z-"_s + QString::number(qHash(startedAt + skill + models.join(u',')), 16);
    manifest.skillName = skill;
    manifest.startedAt = startedAt;
    manifest.suitePath = suite;
    for (const QString &model : models)
        manifest.models.append({model, model.section(u':', 0, 0), {}});
    manifest.parameters.insert(u"mode"_s, u"inline"_s);
    return manifest;
}

} // namespace

class TestRunName final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aRunAlone_isItsSkillVersionAndStart()
    {
        RunManifest alone = run(u"rmsnorm"_s, u"2026-12-02T06:23:36Z"_s);
        QCOMPARE(runName(alone), u"rmsnorm (2026-12-02 06:23)"_s);
        alone.skillVersion = u"v2"_s;
        QCOMPARE(runName(alone), u"rmsnorm v2 (2026-12-02 06:23)"_s);
        // A stored version's id reads as its time.
        alone.skillVersion = u"20260304T094126Z-3f9a1c"_s;
        QCOMPARE(runName(alone), u"rmsnorm version of 2026-03-04 09:41 (2026-12-02 06:23)"_s);
        QVERIFY(!runName(alone).contains(alone.runId));
    }

    void runsOfDifferentSkillsOrVersions_needNothingMore()
    {
        RunManifest v1 = run(u"rmsnorm"_s, u"2026-12-01T10:00:00Z"_s);
        v1.skillVersion = u"v1"_s;
        RunManifest v2 = run(u"rmsnorm"_s, u"2026-12-02T10:00:00Z"_s, {u"local:gemma"_s});
        v2.skillVersion = u"v2"_s;
        const RunManifest other = run(u"layernorm"_s, u"2026-12-02T10:00:00Z"_s, {u"local:gemma"_s});
        QCOMPARE(runNames({v1, v2, other}),
                 (QStringList{u"rmsnorm v1 (2026-12-01 10:00)"_s, u"rmsnorm v2 (2026-12-02 10:00)"_s,
                              u"layernorm (2026-12-02 10:00)"_s}));
    }

    void runsOfOneSkill_saySoWhatDiffers_modelsThenSuiteThenHarnessThenMode()
    {
        const QString at = u"2026-12-02T10:00:00Z"_s;
        // Different students: their names, without the provider where that stays unambiguous.
        QCOMPARE(
            runNames({run(u"s"_s, at, {u"local:qwen"_s}), run(u"s"_s, at, {u"anthropic:haiku"_s, u"local:qwen"_s})}),
            (QStringList{u"s · qwen (2026-12-02 10:00)"_s, u"s · haiku, qwen (2026-12-02 10:00)"_s}));
        QCOMPARE(runNames({run(u"s"_s, at, {u"local:qwen"_s}), run(u"s"_s, at, {u"hf:qwen"_s})}),
                 (QStringList{u"s · local:qwen (2026-12-02 10:00)"_s, u"s · hf:qwen (2026-12-02 10:00)"_s}));
        // The same students on another suite: the suite, and not the models every run shares.
        QCOMPARE(runNames({run(u"s"_s, at, {u"local:qwen"_s}, u"/p/tests/cpu.json"_s),
                           run(u"s"_s, at, {u"local:qwen"_s}, u"/p/tests/kernels.json"_s)}),
                 (QStringList{u"s · cpu (2026-12-02 10:00)"_s, u"s · kernels (2026-12-02 10:00)"_s}));
        // Everything alike but who drove the student, then the delivery mode.
        RunManifest cli = run(u"s"_s, at);
        cli.harness.insert(u"name"_s, u"claude-code"_s);
        RunManifest agentic = run(u"s"_s, at);
        agentic.parameters.insert(u"mode"_s, u"agentic"_s);
        QCOMPARE(runNames({run(u"s"_s, at), cli}),
                 (QStringList{u"s (2026-12-02 10:00)"_s, u"s · Claude Code (2026-12-02 10:00)"_s}));
        QCOMPARE(runNames({run(u"s"_s, at), agentic}),
                 (QStringList{u"s · inline (2026-12-02 10:00)"_s, u"s · agentic (2026-12-02 10:00)"_s}));
    }

    void runsAlikeButForTheirStart_theStartTellsThemApart_toTheSecondWhereNeeded()
    {
        const QStringList names =
            runNames({run(u"s"_s, u"2026-12-02T10:00:05Z"_s), run(u"s"_s, u"2026-12-02T10:00:40Z"_s),
                      run(u"s"_s, u"2026-12-03T09:00:00Z"_s)});
        QCOMPARE(names,
                 (QStringList{u"s (2026-12-02 10:00:05)"_s, u"s (2026-12-02 10:00:40)"_s, u"s (2026-12-03 09:00)"_s}));
        // Alike to the second: numbered, still never the id.
        const RunManifest twin = run(u"s"_s, u"2026-12-02T10:00:05Z"_s);
        QCOMPARE(runNames({twin, twin}), (QStringList{u"s (2026-12-02 10:00)"_s, u"s (2026-12-02 10:00) #2"_s}));
    }

    void shortNames_sayTheStartOnlyWhereNothingElseTellsRunsApart()
    {
        RunManifest v1 = run(u"rmsnorm"_s, u"2026-12-01T10:00:00Z"_s);
        v1.skillVersion = u"v1"_s;
        RunManifest v2 = run(u"rmsnorm"_s, u"2026-12-02T10:00:00Z"_s);
        v2.skillVersion = u"v2"_s;
        const RunManifest again = run(u"rmsnorm"_s, u"2026-12-03T10:00:00Z"_s);
        const RunManifest twice = run(u"rmsnorm"_s, u"2026-12-04T10:00:00Z"_s);
        QCOMPARE(runNames({v1, v2}, RunNaming::Short), (QStringList{u"rmsnorm v1"_s, u"rmsnorm v2"_s}));
        QCOMPARE(runNames({again, twice, v1}, RunNaming::Short),
                 (QStringList{u"rmsnorm (2026-12-03 10:00)"_s, u"rmsnorm (2026-12-04 10:00)"_s, u"rmsnorm v1"_s}));
    }

    void distinctParts_dropTheWordsEveryNameStartsWith()
    {
        QCOMPARE(distinctParts({u"rmsnorm v1"_s, u"rmsnorm v2"_s}), (QStringList{u"v1"_s, u"v2"_s}));
        QCOMPARE(distinctParts({u"s · qwen (2026-12-02 10:00)"_s, u"s · haiku (2026-12-02 10:00)"_s}),
                 (QStringList{u"qwen (2026-12-02 10:00)"_s, u"haiku (2026-12-02 10:00)"_s}));
        // Nothing in common, or one name all of another's start: whole names.
        QCOMPARE(distinctParts({u"rmsnorm"_s, u"layernorm"_s}), (QStringList{u"rmsnorm"_s, u"layernorm"_s}));
        QCOMPARE(distinctParts({u"rmsnorm"_s, u"rmsnorm v2"_s}), (QStringList{u"rmsnorm"_s, u"rmsnorm v2"_s}));
        QCOMPARE(distinctParts({u"only"_s}), QStringList{u"only"_s});
    }

    void aRunThatNamesNothing_fallsBackToItsSuiteThenItsId()
    {
        RunManifest bare;
        bare.runId = u"20261203T000000Z-000000"_s;
        QCOMPARE(runName(bare), bare.runId);
        bare.suitePath = u"tests/cpu-checks.json"_s;
        QCOMPARE(runName(bare), u"cpu-checks"_s);
    }

    void description_carriesTheIdAndEveryFact()
    {
        RunManifest r = run(u"rmsnorm"_s, u"2026-12-02T06:23:36Z"_s, {u"local:qwen"_s, u"anthropic:haiku"_s});
        r.skillVersion = u"v2"_s;
        r.status = u"finished"_s;
        const QString text = runDescription(r);
        for (const QString &fact :
             QStringList{u"Run "_s + r.runId, u"Skill: rmsnorm, v2"_s, u"Models: local:qwen, anthropic:haiku"_s,
                         u"Suite: checks.json"_s, u"Mode: inline"_s, u"Started: 2026-12-02 06:23:36 UTC"_s,
                         u"Status: finished"_s})
            QVERIFY2(text.contains(fact), qPrintable(text));
    }
};

SF_TEST_GUILESS_MAIN(TestRunName)
#include "test_run_name.moc"
