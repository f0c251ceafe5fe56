// Reading a teacher's reply into skill files, whatever shape the reply takes.
#include "SkippedChecks.h"
#include "generate/SkillDraft.h"
#include "generate/StructuredReply.h"
#include "skill/SkillValidator.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <optional>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

// A teacher's reply in the JSON reply format (generate --reply-format json).
QString jsonReply(const QString &name, const QString &description, const QString &body)
{
    return QString::fromUtf8(
        QJsonDocument(QJsonObject{{u"name"_s, name}, {u"description"_s, description}, {u"body"_s, body}}).toJson());
}

/// The longest text @p pattern can match, for the subset the reply schemas use (groups with '|', classes, escapes,
/// ?, {n} and {m,n}); empty when a repetition is unbounded (*, +, {m,}), which a grammar would follow for ever.
std::optional<qint64> longestMatch(const QString &pattern, qsizetype &at, bool inGroup = false)
{
    std::optional<qint64> longest = 0; // of the alternatives seen so far
    std::optional<qint64> branch = 0;
    const auto add = [](std::optional<qint64> &sum, std::optional<qint64> n) {
        sum = sum && n ? std::optional<qint64>(*sum + *n) : std::nullopt;
    };
    while (at < pattern.size()) {
        const QChar c = pattern[at++];
        std::optional<qint64> atom = 1;
        if (c == u')' && inGroup)
            break;
        if (c == u'|') {
            longest = longest && branch ? std::optional<qint64>(std::max(*longest, *branch)) : std::nullopt;
            branch = 0;
            continue;
        }
        if (c == u'^' || c == u'$')
            continue;
        if (c == u'(') {
            atom = longestMatch(pattern, at, true);
        } else if (c == u'[') {
            while (at < pattern.size() && pattern[at] != u']')
                at += pattern[at] == u'\\' ? 2 : 1;
            ++at;
        } else if (c == u'\\') {
            ++at;
        }
        // A quantifier after the atom.
        if (at < pattern.size() && (pattern[at] == u'*' || pattern[at] == u'+')) {
            ++at;
            atom = std::nullopt;
        } else if (at < pattern.size() && pattern[at] == u'?') {
            ++at;
        } else if (at < pattern.size() && pattern[at] == u'{') {
            const qsizetype close = pattern.indexOf(u'}', at);
            const QStringList bounds = pattern.mid(at + 1, close - at - 1).split(u',');
            at = close + 1;
            const QString upper = bounds.last().trimmed();
            if (upper.isEmpty())
                atom = std::nullopt;
            else if (atom)
                atom = *atom * upper.toLongLong();
        }
        add(branch, atom);
    }
    return longest && branch ? std::optional<qint64>(std::max(*longest, *branch)) : std::nullopt;
}

std::optional<qint64> longestMatch(const QString &pattern)
{
    qsizetype at = 0;
    return longestMatch(pattern, at);
}

/// The most characters of string content a reply matching @p schema can hold, as a grammar built from it allows:
/// a pattern bounds a string by itself (llama.cpp follows it and not the maxLength beside it), an array holds at
/// most maxItems. What has no bound is listed in @p unbounded by its place in the schema.
qint64 mostCharacters(const QJsonObject &schema, const QString &where, QStringList *unbounded)
{
    if (schema.contains(u"anyOf"_s)) {
        qint64 most = 0;
        const QJsonArray options = schema.value(u"anyOf"_s).toArray();
        for (qsizetype i = 0; i < options.size(); ++i)
            most = std::max(most, mostCharacters(options.at(i).toObject(), where + u"/anyOf/%1"_s.arg(i), unbounded));
        return most;
    }
    if (schema.contains(u"enum"_s)) {
        qint64 most = 0;
        for (const QJsonValue &value : schema.value(u"enum"_s).toArray())
            most = std::max(most, qint64(value.isString() ? value.toString().size() : 0));
        return most;
    }
    const QString type = schema.value(u"type"_s).toString();
    if (type == u"string") {
        if (schema.contains(u"pattern"_s)) {
            const std::optional<qint64> longest = longestMatch(schema.value(u"pattern"_s).toString());
            if (!longest)
                unbounded->append(where + u": pattern "_s + schema.value(u"pattern"_s).toString());
            return longest.value_or(0);
        }
        if (!schema.value(u"maxLength"_s).isDouble())
            unbounded->append(where + u": string without maxLength"_s);
        return schema.value(u"maxLength"_s).toInteger();
    }
    if (type == u"array") {
        if (!schema.value(u"maxItems"_s).isDouble())
            unbounded->append(where + u": array without maxItems"_s);
        return schema.value(u"maxItems"_s).toInteger() *
               mostCharacters(schema.value(u"items"_s).toObject(), where + u"/items"_s, unbounded);
    }
    if (type == u"object") {
        if (schema.value(u"additionalProperties"_s) != QJsonValue(false))
            unbounded->append(where + u": object that allows more properties"_s);
        qint64 sum = 0;
        const QJsonObject properties = schema.value(u"properties"_s).toObject();
        for (auto it = properties.begin(); it != properties.end(); ++it)
            sum += mostCharacters(it.value().toObject(), where + u'/' + it.key(), unbounded);
        return sum;
    }
    if (type == u"integer" && !schema.value(u"maximum"_s).isDouble())
        unbounded->append(where + u": integer without maximum"_s);
    return 0;
}

/// The longest single string a reply matching @p schema can hold.
qint64 longestString(const QJsonObject &schema)
{
    qint64 longest = 0;
    if (schema.value(u"type"_s).toString() == u"string" && !schema.contains(u"enum"_s))
        longest = schema.contains(u"pattern"_s) ? longestMatch(schema.value(u"pattern"_s).toString()).value_or(0)
                                                : schema.value(u"maxLength"_s).toInteger();
    for (const QString &key : {u"items"_s, u"properties"_s, u"anyOf"_s}) {
        const QJsonValue inner = schema.value(key);
        if (inner.isArray()) {
            for (const QJsonValue &value : inner.toArray())
                longest = std::max(longest, longestString(value.toObject()));
        } else if (key == u"properties") {
            for (const QJsonValue &value : inner.toObject())
                longest = std::max(longest, longestString(value.toObject()));
        } else if (inner.isObject()) {
            longest = std::max(longest, longestString(inner.toObject()));
        }
    }
    return longest;
}

} // namespace

class TestSkillDraft final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parse_fileLines_giveEachFile()
    {
        const auto draft = SkillDraft::parse(u"=== FILE: SKILL.md ===\n---\nname: a\n---\nBody\n\n"
                                             "=== FILE: references/notes.md ===\nNotes\n"_s);
        QVERIFY(draft.problems.isEmpty());
        QCOMPARE(draft.files.keys(), QStringList({u"SKILL.md"_s, u"references/notes.md"_s}));
        QCOMPARE(draft.files.value(u"SKILL.md"_s), QByteArray("---\nname: a\n---\nBody\n"));
        QCOMPARE(draft.files.value(u"references/notes.md"_s), QByteArray("Notes\n"));
    }

    void parse_bareSkillMd_isAccepted()
    {
        const auto draft = SkillDraft::parse(u"---\nname: a\ndescription: d\n---\n# A\n"_s);
        QVERIFY(draft.isUsable());
        QCOMPARE(draft.files.size(), 1);
    }

    void parse_wholeFileInAFence_isUnwrapped()
    {
        const auto draft = SkillDraft::parse(u"=== FILE: SKILL.md ===\n```markdown\n---\nname: a\n---\nB\n```\n"_s);
        QCOMPARE(draft.files.value(u"SKILL.md"_s), QByteArray("---\nname: a\n---\nB\n"));
    }

    void parse_pathsLeavingTheSkill_areRefused()
    {
        const auto draft = SkillDraft::parse(u"=== FILE: SKILL.md ===\nx\n=== FILE: ../evil.sh ===\nrm\n"
                                             "=== FILE: /etc/passwd ===\nroot\n=== FILE: notes.txt ===\nn\n"_s);
        QCOMPARE(draft.files.keys(), QStringList({u"SKILL.md"_s}));
        QCOMPARE(draft.problems.size(), 3);
        QVERIFY(draft.problems.at(0).contains(u"../evil.sh"_s));
    }

    void parse_proseOnly_isNotUsableAndSaysWhy()
    {
        const auto draft = SkillDraft::parse(u"Sure! Here is how you could write it..."_s);
        QVERIFY(!draft.isUsable());
        QVERIFY(draft.problems.first().contains(u"FILE"_s));
    }

    void parse_noSkillMd_isNotUsable()
    {
        const auto draft = SkillDraft::parse(u"=== FILE: references/a.md ===\nA\n"_s);
        QVERIFY(!draft.isUsable());
        QVERIFY(draft.problems.contains(u"the reply has no SKILL.md"_s));
    }

    void format_thenParse_roundTrips()
    {
        const QMap<QString, QByteArray> files{{u"SKILL.md"_s, "---\nname: a\n---\nB\n"},
                                              {u"scripts/run.py"_s, "print(1)\n"}};
        const QString text = SkillDraft::format(files);
        QVERIFY(text.startsWith(u"=== FILE: SKILL.md ==="_s));
        QCOMPARE(SkillDraft::parse(text).files, files);
    }

    // Issue 33: `generate --reply-format json` wrote name: "write-changelog-entry"; upskill keeps the quotes and its
    // eval stops. Front matter is written plain where YAML reads it back unchanged, quoted only where it must be.
    void jsonReply_frontMatterWithoutNeedlessQuotes_loadsInUpskill()
    {
        const SkillDraft draft = skillDraftFromJson(
            jsonReply(u"write-changelog-entry"_s, u"Writes a changelog entry. Use when a change is ready to ship."_s,
                      u"```markdown\n# Changelog entries\n\nWrite one line per change.\n```"_s));
        QVERIFY2(draft.isUsable(), qPrintable(draft.problems.join(u"; "_s)));
        const QByteArray skill = draft.files.value(u"SKILL.md"_s);
        QCOMPARE(skill,
                 QByteArray("---\nname: write-changelog-entry\ndescription: Writes a changelog entry. Use when a "
                            "change is ready to ship.\n---\n\n# Changelog entries\n\nWrite one line per "
                            "change.\n"));

        QTemporaryDir root;
        QVERIFY(QDir(root.path()).mkdir(u"write-changelog-entry"_s));
        QFile file(root.filePath(u"write-changelog-entry/SKILL.md"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(skill);
        file.close();
        const QList<SkillProblem> problems =
            validateSkill(root.filePath(u"write-changelog-entry"_s), ValidationProfile::Upskill);
        QVERIFY(!hasErrors(problems));
    }

    void jsonReply_valuesYamlWouldMisread_areQuoted_onOneLine()
    {
        const SkillDraft draft = skillDraftFromJson(
            jsonReply(u"yes"_s, u"Formats dates: ISO 8601.\nUse when dates appear."_s, u"# Dates"_s));
        QVERIFY(draft.isUsable());
        QCOMPARE(draft.files.value(u"SKILL.md"_s),
                 QByteArray("---\nname: \"yes\"\ndescription: \"Formats dates: ISO 8601. Use when dates appear.\"\n---"
                            "\n\n# Dates\n"));
    }

    // llama.cpp turns the schema into a grammar that follows a pattern and not the maxLength beside it: an
    // unbounded name or id was where the local model rambled until the token limit (380a853).
    void replySchemaPatterns_boundEveryRepetition()
    {
        QCOMPARE(longestMatch(u"^[a-z0-9]+(-[a-z0-9]+)*$"_s), std::nullopt); // the old name pattern
        QCOMPARE(longestMatch(u"^a{2,}$"_s), std::nullopt);
        QCOMPARE(longestMatch(u"^(ab|cde)?x{0,3}\\.y$"_s), std::optional<qint64>(8));

        const QJsonObject skill = QJsonDocument::fromJson(skillReplySchema(16000).schema).object();
        const QJsonObject skillProperties = skill.value(u"properties"_s).toObject();
        // A name is at most 16 + 3 * 16 = 64 characters, the same as its maxLength.
        QCOMPARE(longestMatch(skillProperties.value(u"name"_s).toObject().value(u"pattern"_s).toString()),
                 std::optional<qint64>(64));
        const QJsonObject file =
            skillProperties.value(u"files"_s).toObject().value(u"items"_s).toObject().value(u"properties"_s).toObject();
        QCOMPARE(longestMatch(file.value(u"path"_s).toObject().value(u"pattern"_s).toString()),
                 std::optional<qint64>(QStringLiteral("references/").size() + 40 + QStringLiteral(".json").size()));
        const QJsonObject suite =
            QJsonDocument::fromJson(testSuiteReplySchema(6, {u"rmsnorm"_s}, 12000).schema).object();
        const QJsonObject testCase =
            suite.value(u"properties"_s).toObject().value(u"cases"_s).toObject().value(u"items"_s).toObject();
        const QJsonObject id = testCase.value(u"properties"_s).toObject().value(u"id"_s).toObject();
        QCOMPARE(longestMatch(id.value(u"pattern"_s).toString()), std::optional<qint64>(64));
    }

    // Under a grammar a small model may spend a token on every character, and two on an escape, so a reply that
    // fills every string to its limit must still close its JSON within the token budget (2cf3bb1); no one string may
    // take more than a quarter of it (380a853).
    void replySchemas_boundEveryStringAndArray_withinTheTokenBudget()
    {
        struct Schema
        {
            QString label;
            int maxTokens;
            ReplySchema schema;
        };
        QList<Schema> schemas;
        for (const int maxTokens : {256, 1024, 2048, 4000, 8192, 16000, 64000})
            schemas.append({u"skill"_s, maxTokens, skillReplySchema(maxTokens)});
        schemas.append({u"suite of 1"_s, 1024, testSuiteReplySchema(1, {}, 1024)});
        schemas.append({u"suite of 3"_s, 2048, testSuiteReplySchema(3, {}, 2048)});
        schemas.append({u"suite of 6"_s, 12000, testSuiteReplySchema(6, {u"rmsnorm"_s, u"softmax"_s}, 12000)});
        schemas.append({u"suite of 10"_s, 16000, testSuiteReplySchema(10, {u"rmsnorm"_s}, 16000)});
        schemas.append({u"suite of 20"_s, 64000, testSuiteReplySchema(20, {u"layernorm"_s}, 64000)});

        QStringList overHalf;
        for (const Schema &s : schemas) {
            const QString label = u"%1 at %2 tokens"_s.arg(s.label).arg(s.maxTokens);
            const QJsonObject schema = QJsonDocument::fromJson(s.schema.schema).object();
            QVERIFY2(!schema.isEmpty(), qPrintable(label));
            QStringList unbounded;
            const qint64 characters = mostCharacters(schema, s.schema.name, &unbounded);
            QVERIFY2(unbounded.isEmpty(), qPrintable(label + u": "_s + unbounded.join(u"; "_s)));
            QVERIFY2(characters > 0, qPrintable(label));
            QVERIFY2(characters <= s.maxTokens, qPrintable(label + u": %1 characters"_s.arg(characters)));
            QVERIFY2(longestString(schema) <= s.maxTokens / 4,
                     qPrintable(label + u": a string of %1 characters"_s.arg(longestString(schema))));
            // Together within half the budget, so that even a reply of escapes (two tokens a character) closes.
            if (s.maxTokens >= 512 && characters > s.maxTokens / 2)
                overHalf.append(label + u": %1 characters"_s.arg(characters));
        }
        QVERIFY2(overHalf.isEmpty(), qPrintable(overHalf.join(u"; "_s)));
    }
};

SF_TEST_GUILESS_MAIN(TestSkillDraft)
#include "test_skill_draft.moc"
