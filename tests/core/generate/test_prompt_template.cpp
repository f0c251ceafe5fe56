// Prompt templates: values, optional sections, and errors instead of silently empty prompts.
#include "SkippedChecks.h"
#include "generate/PromptTemplate.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

class TestPromptTemplate final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void render_replacesValues()
    {
        const auto prompt = PromptTemplate::fromText(u"Task: {{task}}.\nAgain: {{task}}"_s, u"t.md"_s);
        const auto text = prompt.render({{u"task"_s, u"fuse RMSNorm"_s}});
        QVERIFY2(text.ok(), qPrintable(text.error));
        QCOMPARE(*text.value, u"Task: fuse RMSNorm.\nAgain: fuse RMSNorm"_s);
    }

    void render_emptySection_leavesNoTrace()
    {
        const auto prompt =
            PromptTemplate::fromText(u"A\n{{#traces}}\n\nTraces:\n{{traces}}\n{{/traces}}\nB\n"_s, u"t.md"_s);
        QCOMPARE(*prompt.render({{u"traces"_s, QString()}}).value, u"A\nB\n"_s);
        QCOMPARE(*prompt.render({{u"traces"_s, u"T1"_s}}).value, u"A\n\nTraces:\nT1\nB\n"_s);
    }

    void render_placeholderNotProvided_isAnErrorWithItsLine()
    {
        const auto prompt = PromptTemplate::fromText(u"line one\nuses {{missing}}\n"_s, u"p.md"_s);
        const auto text = prompt.render({});
        QVERIFY(!text.ok());
        QCOMPARE(text.error, u"p.md:2: the template uses {{missing}}, which this flow does not provide"_s);
    }

    void render_unclosedSection_isAnError()
    {
        const auto prompt = PromptTemplate::fromText(u"{{#a}}\ntext"_s, u"p.md"_s);
        QVERIFY(prompt.render({{u"a"_s, u"x"_s}}).error.contains(u"never closed"_s));
        const auto stray = PromptTemplate::fromText(u"{{/a}}"_s, u"p.md"_s);
        QVERIFY(stray.render({{u"a"_s, u"x"_s}}).error.contains(u"closes no open section"_s));
    }

    void load_builtInTemplatesAllRender()
    {
        const QHash<QString, QString> values{{u"task"_s, u"t"_s},           {u"traces"_s, u"x"_s},
                                             {u"existing_skill"_s, u"s"_s}, {u"instructions"_s, u"i"_s},
                                             {u"profile_rules"_s, u"r"_s},  {u"max_body_lines"_s, u"500"_s},
                                             {u"problems"_s, u"p"_s},       {u"feedback"_s, u"f"_s},
                                             {u"reply_format"_s, u"r"_s}};
        for (const QString &name : {u"generate-skill.system"_s, u"generate-skill.user"_s, u"repair-skill.user"_s,
                                    u"skill-reply-files"_s, u"skill-reply-json"_s}) {
            const auto prompt = PromptTemplate::load(name);
            QVERIFY2(prompt.ok(), qPrintable(prompt.error));
            QCOMPARE(prompt.value->origin(), u":/prompts/"_s + name + u".md"_s);
            const auto text = prompt.value->render(values);
            QVERIFY2(text.ok(), qPrintable(text.error));
            QVERIFY(!text.value->contains(u"{{"_s));
        }
    }

    void load_userCopyWinsOverBuiltIn()
    {
        QDir().mkpath(PromptTemplate::userFolder());
        const QString path = QDir(PromptTemplate::userFolder()).filePath(u"repair-skill.user.md"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("Mine: {{problems}}");
        file.close();
        const auto prompt = PromptTemplate::load(u"repair-skill.user"_s);
        QFile::remove(path);
        QVERIFY(prompt.ok());
        QCOMPARE(prompt.value->origin(), path);
        QCOMPARE(*prompt.value->render({{u"problems"_s, u"none"_s}}).value, u"Mine: none"_s);
    }

    void load_unknownTemplate_namesWhereItLooked()
    {
        const auto prompt = PromptTemplate::load(u"no-such-flow"_s);
        QVERIFY(!prompt.ok());
        QVERIFY(prompt.error.contains(u":/prompts/no-such-flow.md"_s));
    }
};

SF_TEST_GUILESS_MAIN(TestPromptTemplate)
#include "test_prompt_template.moc"
