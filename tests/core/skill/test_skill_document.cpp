#include "SkippedChecks.h"
#include "skill/SkillDocument.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

using namespace sf;

namespace {

QString fixtureText(const QString &relativePath)
{
    QFile file(QFINDTESTDATA("../../fixtures/skills/") + relativePath);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

const QString kSimple = QStringLiteral("---\nname: demo\ndescription: Does a thing. Use when asked.\n---\n\n# Demo\n");

} // namespace

class TestSkillDocument : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parse_simpleFrontMatter_splitsKeysAndBody()
    {
        const SkillDocument doc = SkillDocument::parse(kSimple);
        QVERIFY(doc.hasFrontMatter());
        QVERIFY(!doc.yamlError());
        QCOMPARE(doc.keys(), (QStringList{QStringLiteral("name"), QStringLiteral("description")}));
        QCOMPARE(doc.name(), QStringLiteral("demo"));
        QCOMPARE(doc.description(), QStringLiteral("Does a thing. Use when asked."));
        QCOMPARE(doc.frontMatterFirstLine(), 2);
        QCOMPARE(doc.bodyFirstLine(), 5);
        QCOMPARE(doc.keyLine(QStringLiteral("description")), 3);
        QCOMPARE(doc.frontMatterText(), QStringLiteral("name: demo\ndescription: Does a thing. Use when asked.\n"));
        QCOMPARE(doc.body(), QStringLiteral("\n# Demo\n"));
        QCOMPARE(doc.text(), kSimple);
    }

    void parse_noFrontMatter_wholeTextIsBody()
    {
        const SkillDocument doc = SkillDocument::parse(QStringLiteral("# Title\n\ntext\n"));
        QVERIFY(!doc.hasFrontMatter());
        QVERIFY(!doc.yamlError());
        QCOMPARE(doc.bodyFirstLine(), 1);
        QCOMPARE(doc.frontMatterFirstLine(), 0);
        QCOMPARE(doc.body(), QStringLiteral("# Title\n\ntext\n"));
        QVERIFY(doc.keys().isEmpty());
    }

    void parse_unclosedFrontMatter_reportsLineOne()
    {
        const SkillDocument doc = SkillDocument::parse(QStringLiteral("---\nname: x\n\nbody\n"));
        QVERIFY(!doc.hasFrontMatter());
        QVERIFY(doc.yamlError());
        QCOMPARE(doc.yamlError()->line, 1);
    }

    void parse_multilineYaml_resolvesFoldedLiteralAndQuotedScalars()
    {
        const SkillDocument doc = SkillDocument::parse(fixtureText(QStringLiteral("multiline-yaml/SKILL.md")));
        QVERIFY2(!doc.yamlError(), qPrintable(doc.yamlError() ? doc.yamlError()->message : QString()));
        QCOMPARE(doc.name(), QStringLiteral("multiline-yaml"));
        QCOMPARE(
            doc.description(),
            QStringLiteral("Shows folded descriptions that span several lines. Use when testing the YAML parser."));
        QCOMPARE(doc.license(), QStringLiteral("Apache-2.0"));
        QCOMPARE(*doc.scalar(QStringLiteral("compatibility")),
                 QStringLiteral("Needs Python 3.10+\nand network access.\n"));
        QCOMPARE(doc.allowedTools(), (QStringList{QStringLiteral("Bash(git:*)"), QStringLiteral("Read")}));
        const FrontMatterEntry *metadata = doc.entry(QStringLiteral("metadata"));
        QVERIFY(metadata);
        QCOMPARE(metadata->kind, FrontMatterEntry::Kind::Map);
        QCOMPARE(metadata->mapEntries.size(), 2);
        QCOMPARE(metadata->mapEntries[1].second, QStringLiteral("1.0"));
        QCOMPARE(metadata->mapEntryLines, (QList<int>{13, 14}));
        // Lines are SKILL.md lines: the comment on line 2 pushes name to line 3.
        QCOMPARE(doc.keyLine(QStringLiteral("name")), 3);
        QCOMPARE(doc.entry(QStringLiteral("description"))->lastLine, 7);
        QCOMPARE(doc.keyLine(QStringLiteral("allowed-tools")), 15);
        QCOMPARE(doc.bodyFirstLine(), 17);
    }

    void parse_unknownKeys_keptInFileOrder()
    {
        const SkillDocument doc = SkillDocument::parse(fixtureText(QStringLiteral("unknown-keys/SKILL.md")));
        QCOMPARE(doc.keys(), (QStringList{QStringLiteral("name"), QStringLiteral("description"),
                                          QStringLiteral("when_to_use"), QStringLiteral("x-team-owner")}));
        QCOMPARE(*doc.scalar(QStringLiteral("x-team-owner")), QStringLiteral("data-platform"));
    }

    void parse_yamlError_mapsLineToSkillMd()
    {
        const SkillDocument doc = SkillDocument::parse(fixtureText(QStringLiteral("yaml-error/SKILL.md")));
        QVERIFY(doc.hasFrontMatter());
        QVERIFY(doc.yamlError());
        // The flow sequence opened on line 3 never closes; yaml-cpp notices by line 4 at the latest.
        QVERIFY2(doc.yamlError()->line >= 3 && doc.yamlError()->line <= 5,
                 qPrintable(QString::number(doc.yamlError()->line)));
        QVERIFY(doc.yamlError()->column >= 1);
        QVERIFY(doc.keys().isEmpty());
        QCOMPARE(doc.bodyFirstLine(), 6);
    }

    void parse_badIndentation_reportsTheOffendingLine()
    {
        const SkillDocument doc = SkillDocument::parse(QStringLiteral("---\nname: a\n  description: b\n---\nbody\n"));
        QVERIFY(doc.yamlError());
        QCOMPARE(doc.yamlError()->line, 3);
    }

    void parse_quoteLeftOpenAtTheEnd_isAnError()
    {
        // yaml-cpp itself accepts this; a key added after it would vanish into the quoted value.
        const SkillDocument doc =
            SkillDocument::parse(QStringLiteral("---\nname: a\ndescription: \"open\n---\nbody\n"));
        QVERIFY(doc.yamlError());
        QCOMPARE(doc.yamlError()->line, 3);
    }

    void parse_documentEndMarker_isAnError()
    {
        const SkillDocument doc =
            SkillDocument::parse(QStringLiteral("---\nname: a\n...\ndescription: b\n---\nbody\n"));
        QVERIFY(doc.yamlError());
        QCOMPARE(doc.yamlError()->line, 3);
    }

    void parse_emptyKeyAtTheEnd_staysInsideTheFrontMatter()
    {
        const SkillDocument doc = SkillDocument::parse(QStringLiteral("---\nname: a\n? \n---\n"));
        for (const FrontMatterEntry &entry : doc.entries())
            QVERIFY(entry.line >= 2 && entry.lastLine <= 3);
        QCOMPARE(SkillDocument::parse(doc.withScalar(QStringLiteral("license"), QStringLiteral("MIT"))).license(),
                 QStringLiteral("MIT"));
    }

    void parse_frontMatterNotAMap_isAnError()
    {
        const SkillDocument doc = SkillDocument::parse(QStringLiteral("---\n- a\n- b\n---\nbody\n"));
        QVERIFY(doc.yamlError());
        QVERIFY(doc.keys().isEmpty());
    }

    void parse_crlfAndBom_roundTripAndParse()
    {
        const QString text = QStringLiteral("\xfeff---\r\nname: demo\r\ndescription: x\r\n---\r\nbody\r\n");
        const SkillDocument doc = SkillDocument::parse(text);
        QVERIFY(doc.hasFrontMatter());
        QCOMPARE(doc.name(), QStringLiteral("demo"));
        QCOMPARE(doc.text(), text);
        QCOMPARE(doc.body(), QStringLiteral("body\r\n"));
    }

    void allowedTools_commaStringAndList_bothSplit()
    {
        QCOMPARE(SkillDocument::parse(QStringLiteral("---\nallowed-tools: Read, Write,Bash(git status:*)\n---\n"))
                     .allowedTools(),
                 (QStringList{QStringLiteral("Read"), QStringLiteral("Write"), QStringLiteral("Bash(git status:*)")}));
        QCOMPARE(SkillDocument::parse(QStringLiteral("---\nallowed-tools:\n  - Read\n  - Grep\n---\n")).allowedTools(),
                 (QStringList{QStringLiteral("Read"), QStringLiteral("Grep")}));
    }

    void roundTrip_fixtureWithoutEdits_isByteForByte()
    {
        for (const QString &fixture : {QStringLiteral("multiline-yaml/SKILL.md"),
                                       QStringLiteral("valid-basic/SKILL.md"), QStringLiteral("yaml-error/SKILL.md")}) {
            const QString text = fixtureText(fixture);
            QVERIFY(!text.isEmpty());
            const SkillDocument doc = SkillDocument::parse(text);
            QCOMPARE(doc.text().toUtf8(), text.toUtf8());
            QCOMPARE(doc.withBody(doc.body()).toUtf8(), text.toUtf8());
        }
    }

    void withScalar_changesOnlyThatKeysLines()
    {
        const QString text = fixtureText(QStringLiteral("multiline-yaml/SKILL.md"));
        const QString edited = SkillDocument::parse(text).withScalar(QStringLiteral("description"),
                                                                     QStringLiteral("Short. Use when needed."));
        QStringList before = text.split(u'\n'), after = edited.split(u'\n');
        // Lines 4-7 (the folded block) became one line; everything else is identical.
        QCOMPARE(after.size(), before.size() - 3);
        QCOMPARE(after.mid(0, 3), before.mid(0, 3));
        QCOMPARE(after[3], QStringLiteral("description: Short. Use when needed."));
        QCOMPARE(after.mid(4), before.mid(7));
        QCOMPARE(SkillDocument::parse(edited).description(), QStringLiteral("Short. Use when needed."));
        QCOMPARE(SkillDocument::parse(edited).license(), QStringLiteral("Apache-2.0"));
    }

    void withScalar_absentKey_appendedBeforeClosingFence()
    {
        const QString edited =
            SkillDocument::parse(kSimple).withScalar(QStringLiteral("license"), QStringLiteral("MIT"));
        QCOMPARE(edited,
                 QStringLiteral(
                     "---\nname: demo\ndescription: Does a thing. Use when asked.\nlicense: MIT\n---\n\n# Demo\n"));
    }

    void withScalar_emptyValue_removesKeyOrWritesEmptyString()
    {
        const SkillDocument doc = SkillDocument::parse(kSimple);
        QCOMPARE(doc.withScalar(QStringLiteral("name"), QString()),
                 QStringLiteral("---\ndescription: Does a thing. Use when asked.\n---\n\n# Demo\n"));
        QCOMPARE(doc.withScalar(QStringLiteral("name"), QString(), false),
                 QStringLiteral("---\nname: \"\"\ndescription: Does a thing. Use when asked.\n---\n\n# Demo\n"));
    }

    void withScalar_noFrontMatter_createsOne()
    {
        const QString edited =
            SkillDocument::parse(QStringLiteral("# Body\n")).withScalar(QStringLiteral("name"), QStringLiteral("x"));
        QCOMPARE(edited, QStringLiteral("---\nname: x\n---\n# Body\n"));
    }

    void withScalar_valuesNeedingQuotes_readBackUnchanged_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("plain");
        QTest::newRow("prose") << QStringLiteral("Formats CSV files. Use when asked.") << true;
        QTest::newRow("colon-space") << QStringLiteral("Note: this breaks plain YAML") << false;
        QTest::newRow("hash") << QStringLiteral("a #comment lookalike") << false;
        QTest::newRow("leading-dash") << QStringLiteral("- a list lookalike") << false;
        QTest::newRow("bool") << QStringLiteral("yes") << false;
        QTest::newRow("number") << QStringLiteral("1.0") << false;
        QTest::newRow("null") << QStringLiteral("null") << false;
        QTest::newRow("quotes") << QStringLiteral("\"quoted\" and 'single'") << false;
        QTest::newRow("brackets") << QStringLiteral("[not a list]") << false;
        QTest::newRow("trailing-space") << QStringLiteral("space ") << false;
        QTest::newRow("unicode") << QStringLiteral("Größe prüfen") << true;
        QTest::newRow("backslash") << QStringLiteral("C:\\path\\to") << true;
        QTest::newRow("multiline") << QStringLiteral("line one\nline two") << false;
        QTest::newRow("multiline-trailing-newline") << QStringLiteral("one\n\ntwo\n") << false;
        QTest::newRow("multiline-leading-space") << QStringLiteral("  indented\nnext") << false;
        QTest::newRow("control") << QStringLiteral("bell\x07here") << false;
    }
    void withScalar_valuesNeedingQuotes_readBackUnchanged()
    {
        QFETCH(QString, value);
        QFETCH(bool, plain);
        QCOMPARE(SkillDocument::yamlScalar(value) == value, plain);
        const QString edited = SkillDocument::parse(kSimple).withScalar(QStringLiteral("description"), value);
        const SkillDocument reparsed = SkillDocument::parse(edited);
        QVERIFY2(!reparsed.yamlError(), qPrintable(edited));
        QCOMPARE(reparsed.description(), value);
        QCOMPARE(reparsed.name(), QStringLiteral("demo"));
        QCOMPARE(reparsed.body(), QStringLiteral("\n# Demo\n"));
    }

    void withScalar_crlfDocument_keepsCrlf()
    {
        const QString text = QStringLiteral("---\r\nname: a\r\ndescription: b\r\n---\r\nbody\r\n");
        const QString edited = SkillDocument::parse(text).withScalar(QStringLiteral("name"), QStringLiteral("c"));
        QCOMPARE(edited, QStringLiteral("---\r\nname: c\r\ndescription: b\r\n---\r\nbody\r\n"));
        const QString multi =
            SkillDocument::parse(text).withScalar(QStringLiteral("description"), QStringLiteral("x\ny"));
        QVERIFY(!multi.contains(QRegularExpression(QStringLiteral("[^\r]\n"))));
        QCOMPARE(SkillDocument::parse(multi).description(), QStringLiteral("x\ny"));
    }

    void withScalar_brokenYaml_stillEditsTheKeysLine()
    {
        const QString text = fixtureText(QStringLiteral("yaml-error/SKILL.md"));
        const QString edited = SkillDocument::parse(text).withScalar(QStringLiteral("description"),
                                                                     QStringLiteral("Fixed. Use when needed."));
        const SkillDocument reparsed = SkillDocument::parse(edited);
        QVERIFY(!reparsed.yamlError());
        QCOMPARE(reparsed.description(), QStringLiteral("Fixed. Use when needed."));
        QCOMPARE(reparsed.license(), QStringLiteral("MIT"));
    }

    void withScalar_flowStyleFrontMatter_rewrittenAsBlock()
    {
        const QString text = QStringLiteral("---\n{name: a, description: b}\n---\nbody\n");
        const SkillDocument reparsed =
            SkillDocument::parse(SkillDocument::parse(text).withScalar(QStringLiteral("name"), QStringLiteral("c")));
        QCOMPARE(reparsed.name(), QStringLiteral("c"));
        QCOMPARE(reparsed.description(), QStringLiteral("b"));
        QCOMPARE(reparsed.body(), QStringLiteral("body\n"));
    }

    void withBody_keepsFrontMatterVerbatim()
    {
        const QString text = fixtureText(QStringLiteral("multiline-yaml/SKILL.md"));
        const SkillDocument doc = SkillDocument::parse(text);
        const QString edited = doc.withBody(QStringLiteral("New body.\n"));
        QVERIFY(edited.startsWith(text.left(text.size() - doc.body().size())));
        QCOMPARE(SkillDocument::parse(edited).body(), QStringLiteral("New body.\n"));
        QCOMPARE(SkillDocument::parse(QStringLiteral("---\nname: a\n---")).withBody(QStringLiteral("b")),
                 QStringLiteral("---\nname: a\n---\nb"));
    }
};

SF_TEST_GUILESS_MAIN(TestSkillDocument)
#include "test_skill_document.moc"
