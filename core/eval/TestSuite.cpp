#include "TestSuite.h"

#include "common/AtomicFile.h"
#include "common/JsonLocator.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

namespace sf {

QStringList VerifierSpec::knownTypes()
{
    return {QStringLiteral("contains"),    QStringLiteral("not_contains"),  QStringLiteral("regex"),
            QStringLiteral("file_exists"), QStringLiteral("file_contains"), QStringLiteral("json_valid"),
            QStringLiteral("command"),     QStringLiteral("llm_judge"),     QStringLiteral("cuda_kernel")};
}

QList<VerifierSpec> TestCase::allVerifiers() const
{
    QList<VerifierSpec> all;
    if (!expectedContains.isEmpty()) {
        VerifierSpec spec;
        spec.type = QStringLiteral("contains");
        spec.name = QStringLiteral("expected.contains");
        spec.values = expectedContains;
        spec.line = line;
        all.append(spec);
    }
    return all + verifiers;
}

QString TestCase::studentPrompt(const QString &skillName) const
{
    return isVagueInvocation() ? QStringLiteral("/") + skillName : input;
}

int TestSuite::heldOutCount() const
{
    return int(std::count_if(cases.cbegin(), cases.cend(), [](const TestCase &c) { return c.isHeldOut(); }));
}

namespace {

using Path = QList<JsonStep>;

/// The keys whose statements a judge grades: skill-creator's "expectations", agentskills.io's "assertions", and
/// "expect" as some hand-written suites name them.
const QStringList &statementKeys()
{
    static const QStringList keys = {QStringLiteral("expectations"), QStringLiteral("assertions"),
                                     QStringLiteral("expect")};
    return keys;
}

// A folder given as a fixture goes into the workspace whole; the builtin harness also shows every context file in
// the prompt, so a folder the size of a repository is refused rather than sent.
constexpr int kMaxFolderFiles = 200;
constexpr qint64 kMaxFolderBytes = 2 * 1024 * 1024;

/// Reads one suite's JSON; every problem becomes a LoadError at the line of the value concerned.
class SuiteParser
{
public:
    SuiteParser(const QByteArray &text, QString path)
        : m_locator(text)
        , m_path(std::move(path))
    {
    }

    std::optional<LoadError> error;

    LoadError fail(const Path &at, const QString &message) const
    {
        return LoadError{m_path, m_locator.lineOf(at), 0, message};
    }

    // A string or a list of strings (upskill coerces a bare string to a list).
    bool stringList(const QJsonValue &value, const Path &at, const QString &what, QStringList *out)
    {
        if (value.isString()) {
            *out = {value.toString()};
            return true;
        }
        if (!value.isArray()) {
            error = fail(at, QStringLiteral("%1 must be a string or a list of strings").arg(what));
            return false;
        }
        const QJsonArray array = value.toArray();
        for (int i = 0; i < array.size(); ++i) {
            if (!array[i].isString()) {
                error = fail(at + Path{i}, QStringLiteral("%1 must hold only strings").arg(what));
                return false;
            }
            out->append(array[i].toString());
        }
        return true;
    }

    bool verifier(const QJsonValue &value, const Path &at, VerifierSpec *spec)
    {
        spec->line = m_locator.lineOf(at);
        if (!value.isObject()) {
            error = fail(at, QStringLiteral("a verifier must be an object with a \"type\""));
            return false;
        }
        QJsonObject object = value.toObject();
        spec->type = object.take(QStringLiteral("type")).toString();
        if (!VerifierSpec::knownTypes().contains(spec->type)) {
            error = fail(at + Path{QStringLiteral("type")},
                         QStringLiteral("unknown verifier type \"%1\" (known: %2)")
                             .arg(spec->type, VerifierSpec::knownTypes().join(QStringLiteral(", "))));
            return false;
        }
        spec->name = object.take(QStringLiteral("name")).toString();
        // upskill's spelling (cmd, config.timeout_seconds) and Skillforge's (command, timeout_seconds) both read.
        const QJsonObject config = object.value(QStringLiteral("config")).toObject();
        auto text = [&](const QString &key, const QString &alias = {}) {
            QString v = object.take(key).toString();
            if (v.isEmpty() && !alias.isEmpty())
                v = object.take(alias).toString();
            if (v.isEmpty())
                v = config.value(key).toString();
            return v;
        };
        if (object.contains(QStringLiteral("values")) &&
            !stringList(object.take(QStringLiteral("values")), at + Path{QStringLiteral("values")},
                        QStringLiteral("\"values\""), &spec->values))
            return false;
        spec->pattern = text(QStringLiteral("pattern"));
        spec->path = text(QStringLiteral("path"));
        spec->text = text(QStringLiteral("text"));
        spec->command = text(QStringLiteral("command"), QStringLiteral("cmd"));
        spec->rubric = text(QStringLiteral("rubric"));
        spec->judgeModel = text(QStringLiteral("model"));
        spec->task = text(QStringLiteral("task"));
        spec->dtype = text(QStringLiteral("dtype"));
        const QJsonValue timeout = object.contains(QStringLiteral("timeout_seconds"))
                                       ? object.take(QStringLiteral("timeout_seconds"))
                                       : config.value(QStringLiteral("timeout_seconds"));
        if (!timeout.isUndefined())
            spec->timeoutSeconds = timeout.toInt(-1);
        const QJsonValue threshold = object.take(QStringLiteral("threshold"));
        if (!threshold.isUndefined())
            spec->threshold = threshold.toInt(0);
        spec->extra = object;

        auto require = [&](bool ok, const QString &message) {
            if (!ok)
                error = fail(at, QStringLiteral("%1 verifier: %2").arg(spec->type, message));
            return ok;
        };
        const QString &t = spec->type;
        if (t == QLatin1String("contains") || t == QLatin1String("not_contains"))
            return require(!spec->values.isEmpty(), QStringLiteral("needs \"values\""));
        if (t == QLatin1String("regex")) {
            if (!require(!spec->pattern.isEmpty(), QStringLiteral("needs \"pattern\"")))
                return false;
            const QRegularExpression re(spec->pattern);
            return require(re.isValid(), QStringLiteral("invalid pattern: %1").arg(re.errorString()));
        }
        if (t == QLatin1String("file_exists"))
            return require(!spec->path.isEmpty(), QStringLiteral("needs \"path\""));
        if (t == QLatin1String("file_contains"))
            return require(!spec->path.isEmpty() && !spec->text.isEmpty(),
                           QStringLiteral("needs \"path\" and \"text\""));
        if (t == QLatin1String("command"))
            return require(!spec->command.isEmpty(), QStringLiteral("needs \"command\" (or \"cmd\")")) &&
                   require(spec->timeoutSeconds > 0, QStringLiteral("timeout_seconds must be a positive number"));
        if (t == QLatin1String("llm_judge"))
            return require(!spec->rubric.isEmpty(), QStringLiteral("needs \"rubric\"")) &&
                   require(spec->threshold >= 1 && spec->threshold <= 5, QStringLiteral("threshold must be 1 to 5"));
        if (t == QLatin1String("cuda_kernel"))
            return require(!spec->task.isEmpty(), QStringLiteral("needs \"task\""));
        return true;
    }

    bool upskillCase(const QJsonValue &value, const Path &at, int index, TestCase *c)
    {
        c->line = m_locator.lineOf(at);
        if (!value.isObject()) {
            error = fail(at, QStringLiteral("case %1 must be an object").arg(index + 1));
            return false;
        }
        QJsonObject object = value.toObject();
        const QJsonValue id = object.take(QStringLiteral("id"));
        c->id = id.isDouble() ? QString::number(id.toInteger()) : id.toString();
        if (c->id.isEmpty())
            c->id = QStringLiteral("case-%1").arg(index + 1);
        // An empty input is a case of its own (the skill invoked without instructions); a missing one is more
        // likely a mistake, and upskill refuses it too.
        const QJsonValue input = object.take(QStringLiteral("input"));
        if (!input.isString()) {
            error = fail(at, QStringLiteral("case %1 has no \"input\" text (write \"input\": \"\" for a case that "
                                            "invokes the skill without instructions)")
                                 .arg(c->id));
            return false;
        }
        c->input = input.toString();
        const QJsonObject context = object.take(QStringLiteral("context")).toObject();
        const QJsonObject files = context.value(QStringLiteral("files")).toObject();
        for (auto it = files.begin(); it != files.end(); ++it) {
            if (!it.value().isString()) {
                error = fail(at + Path{QStringLiteral("context"), QStringLiteral("files"), it.key()},
                             QStringLiteral("context.files[\"%1\"] must be the file's text").arg(it.key()));
                return false;
            }
            const QString clean = QDir::cleanPath(it.key());
            if (clean.startsWith(u'/') || clean == QLatin1String("..") || clean.startsWith(QLatin1String("../"))) {
                error = fail(at + Path{QStringLiteral("context"), QStringLiteral("files"), it.key()},
                             QStringLiteral("context file \"%1\" must stay inside the workspace").arg(it.key()));
                return false;
            }
            c->files.insert(clean, it.value().toString());
        }
        const QJsonValue expected = object.take(QStringLiteral("expected"));
        if (expected.isObject() && expected.toObject().contains(QStringLiteral("contains")) &&
            !stringList(expected.toObject().value(QStringLiteral("contains")),
                        at + Path{QStringLiteral("expected"), QStringLiteral("contains")},
                        QStringLiteral("expected.contains"), &c->expectedContains))
            return false;
        const QJsonValue verifiers = object.take(QStringLiteral("verifiers"));
        if (!verifiers.isUndefined() && !verifiers.isArray()) {
            error = fail(at + Path{QStringLiteral("verifiers")}, QStringLiteral("\"verifiers\" must be a list"));
            return false;
        }
        const QJsonArray list = verifiers.toArray();
        for (int i = 0; i < list.size(); ++i) {
            VerifierSpec spec;
            if (!verifier(list[i], at + Path{QStringLiteral("verifiers"), i}, &spec))
                return false;
            c->verifiers.append(spec);
        }
        const QJsonValue split = object.take(QStringLiteral("split"));
        if (!split.isUndefined()) {
            c->split = split.toString();
            if (c->split != QLatin1String("train") && c->split != QLatin1String("heldout")) {
                error =
                    fail(at + Path{QStringLiteral("split")},
                         QStringLiteral("split must be \"train\" or \"heldout\", not \"%1\"").arg(split.toString()));
                return false;
            }
        }
        const QJsonValue repeats = object.take(QStringLiteral("repeats"));
        if (!repeats.isUndefined()) {
            c->repeats = repeats.toInt(0);
            if (c->repeats < 1) {
                error =
                    fail(at + Path{QStringLiteral("repeats")}, QStringLiteral("repeats must be a whole number >= 1"));
                return false;
            }
        }
        c->expectedOutput = object.take(QStringLiteral("expected_output")).toString();
        std::optional<VerifierSpec> judge;
        if (!gradedStatements(&object, at, &judge))
            return false;
        if (judge)
            c->verifiers.append(*judge);
        c->extra = object;
        if (c->allVerifiers().isEmpty() && !object.contains(QStringLiteral("validator"))) {
            error = fail(at, QStringLiteral("case %1 checks nothing: give expected.contains, verifiers or "
                                            "\"expectations\"")
                                 .arg(c->id));
            return false;
        }
        return true;
    }

    /// The statements of @p object a judge grades (statementKeys()), taken out of it, as one llm_judge verifier in
    /// *judge; none there leaves it unset.
    bool gradedStatements(QJsonObject *object, const Path &at, std::optional<VerifierSpec> *judge)
    {
        QStringList expectations;
        QString listKey;
        for (const QString &key : statementKeys()) {
            if (!object->contains(key))
                continue;
            if (!statements(object->take(key), at + Path{key}, key, &expectations))
                return false;
            if (listKey.isEmpty())
                listKey = key;
        }
        if (expectations.isEmpty())
            return true;
        VerifierSpec spec;
        spec.type = QStringLiteral("llm_judge");
        spec.threshold = 4;
        spec.name = listKey;
        spec.rubric = QStringLiteral("- ") + expectations.join(QStringLiteral("\n- "));
        spec.line = m_locator.lineOf(at + Path{listKey});
        *judge = spec;
        return true;
    }

    // skill-creator: {"skill_name", "evals": [{id, prompt, expected_output, files: [paths], expectations: [...]}]},
    // or a bare list of such evals. The statements a grader judges (statementKeys()) become one llm_judge verifier;
    // where there are none, the judge grades the answer against expected_output. An empty or missing prompt is a
    // case of its own: the skill invoked without instructions.
    bool skillCreatorCase(const QJsonValue &value, const Path &at, int index, TestCase *c)
    {
        c->line = m_locator.lineOf(at);
        QJsonObject object = value.toObject();
        const QJsonValue id = object.take(QStringLiteral("id"));
        c->id = id.isDouble() ? QString::number(id.toInteger()) : id.toString();
        if (c->id.isEmpty())
            c->id = QStringLiteral("case-%1").arg(index + 1);
        const QJsonValue prompt = object.take(QStringLiteral("prompt"));
        if (!prompt.isUndefined() && !prompt.isNull() && !prompt.isString()) {
            error = fail(at + Path{QStringLiteral("prompt")},
                         QStringLiteral("eval %1: \"prompt\" must be text").arg(c->id));
            return false;
        }
        c->input = prompt.toString();
        c->expectedOutput = object.take(QStringLiteral("expected_output")).toString();
        if (object.contains(QStringLiteral("files")) &&
            !caseFiles(object.take(QStringLiteral("files")), at + Path{QStringLiteral("files")}, c))
            return false;
        std::optional<VerifierSpec> judge;
        if (!gradedStatements(&object, at, &judge))
            return false;
        if (!judge && !c->expectedOutput.trimmed().isEmpty()) {
            judge.emplace();
            judge->type = QStringLiteral("llm_judge");
            judge->threshold = 4;
            judge->name = QStringLiteral("expected_output");
            judge->rubric = QStringLiteral("The answer does what this expected output describes, in substance "
                                           "(wording may differ):\n\n") +
                            c->expectedOutput.trimmed();
            judge->line = m_locator.lineOf(at + Path{QStringLiteral("expected_output")});
        }
        if (!judge) {
            error = fail(at, QStringLiteral("eval %1 has nothing to grade: give \"expectations\" (or \"assertions\", "
                                            "\"expect\") or an \"expected_output\"")
                                 .arg(c->id));
            return false;
        }
        c->verifiers.append(*judge);
        c->extra = object;
        return true;
    }

    /// skill-creator's `files`: each a path relative to the skill folder, or an object {path, purpose} (the purpose
    /// is for the author; the student gets the files as a user would hand them over). A file goes into the
    /// workspace under its name, a folder under its name with everything in it.
    bool caseFiles(const QJsonValue &value, const Path &at, TestCase *c)
    {
        if (value.isNull())
            return true;
        if (!value.isArray()) {
            error = fail(at, QStringLiteral("eval %1: \"files\" must be a list of paths").arg(c->id));
            return false;
        }
        const QJsonArray files = value.toArray();
        for (int i = 0; i < files.size(); ++i) {
            const QJsonValue path = files[i].isObject() ? files[i].toObject().value(QStringLiteral("path")) : files[i];
            if (!path.isString() || path.toString().trimmed().isEmpty()) {
                error = fail(at + Path{i}, QStringLiteral("eval %1: files[%2] names no file (give a path relative to "
                                                          "the skill folder, or an object with \"path\")")
                                               .arg(c->id)
                                               .arg(i));
                return false;
            }
            if (!caseFile(path.toString(), at + Path{i}, c))
                return false;
        }
        return true;
    }

    bool caseFile(const QString &entry, const Path &at, TestCase *c)
    {
        const QString relative = QDir::cleanPath(entry);
        if (QDir::isAbsolutePath(relative) || relative == QLatin1String("..") ||
            relative.startsWith(QLatin1String("../"))) {
            error = fail(at, QStringLiteral("eval file \"%1\" must be a path inside the skill folder").arg(entry));
            return false;
        }
        const QString skillDir = QDir::cleanPath(QFileInfo(m_path).absoluteDir().filePath(QStringLiteral("..")));
        const QString source = locateFixture(skillDir, relative);
        if (source.isEmpty()) {
            error = fail(at, QStringLiteral("eval file \"%1\" is not in the skill folder (%2), nor relative to a "
                                            "folder above it up to the repository's root")
                                 .arg(relative, skillDir));
            return false;
        }
        if (source != QDir::cleanPath(QDir(skillDir).filePath(relative)))
            notes.append(QStringLiteral("eval %1: \"%2\" is not in the skill folder; read %3 instead (the path is "
                                        "taken as relative to %4)")
                             .arg(c->id, relative, source, source.chopped(relative.size() + 1)));
        const QString name = QFileInfo(relative).fileName();
        if (!QFileInfo(source).isDir())
            return addFile(source, name, relative, at, c);
        QDirIterator it(source, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
        int count = 0;
        qint64 bytes = 0;
        while (it.hasNext()) {
            const QString file = it.next();
            const QString inside = QDir(source).relativeFilePath(file);
            if (inside.startsWith(QLatin1String(".git/")))
                continue;
            bytes += it.fileInfo().size();
            if (++count > kMaxFolderFiles || bytes > kMaxFolderBytes) {
                error = fail(at, QStringLiteral("eval folder \"%1\" holds more than %2 files or %3 MiB; every "
                                                "context file is also shown in the student's prompt, so give the "
                                                "files the case needs")
                                     .arg(relative)
                                     .arg(kMaxFolderFiles)
                                     .arg(kMaxFolderBytes / (1024 * 1024)));
                return false;
            }
            if (!addFile(file, name + u'/' + inside, relative, at, c))
                return false;
        }
        if (count == 0) {
            error = fail(at, QStringLiteral("eval folder \"%1\" holds no files (the workspace is given files, not "
                                            "empty folders)")
                                 .arg(relative));
            return false;
        }
        return true;
    }

    bool addFile(const QString &source, const QString &workspacePath, const QString &entry, const Path &at, TestCase *c)
    {
        QFile file(source);
        if (!file.open(QIODevice::ReadOnly)) {
            error = fail(at, QStringLiteral("eval file \"%1\" cannot be read: %2").arg(source, file.errorString()));
            return false;
        }
        if (c->files.contains(workspacePath)) {
            error = fail(at, QStringLiteral("eval file \"%1\" would be \"%2\" in the workspace, as another of the "
                                            "case's files is")
                                 .arg(entry, workspacePath));
            return false;
        }
        c->files.insert(workspacePath, QString::fromUtf8(file.readAll()));
        return true;
    }

    /// Where a fixture lies: in @p skillDir, as skill-creator says, else relative to a folder above it (some suites
    /// name fixtures from the repository's root), stopping at the first folder that holds .git. Empty when nowhere.
    static QString locateFixture(const QString &skillDir, const QString &relative)
    {
        QDir dir(skillDir);
        while (true) {
            if (QFileInfo::exists(dir.filePath(relative)))
                return QDir::cleanPath(dir.filePath(relative));
            if (dir.exists(QStringLiteral(".git")) || !dir.cdUp())
                return {};
        }
    }

    /// Statements to grade: strings, or objects that carry one ("text", as some skill-creator dialects write them);
    /// a single string is one statement.
    bool statements(const QJsonValue &value, const Path &at, const QString &key, QStringList *out)
    {
        if (!value.isArray() && !value.isString()) {
            error = fail(at, QStringLiteral("\"%1\" must be a list of statements").arg(key));
            return false;
        }
        const QJsonArray list = value.isString() ? QJsonArray{value} : value.toArray();
        for (int i = 0; i < list.size(); ++i) {
            QString text = list[i].toString();
            if (list[i].isObject()) {
                const QJsonObject o = list[i].toObject();
                for (const char *field : {"text", "assertion", "expectation", "description"}) {
                    if (text.isEmpty())
                        text = o.value(QLatin1String(field)).toString();
                }
            }
            if (text.trimmed().isEmpty()) {
                error = fail(at + Path{i}, QStringLiteral("%1[%2] is not a statement (a string, or an object with "
                                                          "\"text\")")
                                               .arg(key)
                                               .arg(i));
                return false;
            }
            out->append(text.trimmed());
        }
        return true;
    }

    QStringList notes;

private:
    JsonLocator m_locator;
    QString m_path;
};

std::variant<TestSuite, LoadError> parse(const QByteArray &text, const QString &path, const QString &member)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(text, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        LoadError error{path, 0, 0, QStringLiteral("not valid JSON: %1").arg(parseError.errorString())};
        lineAndColumnAt(text, parseError.offset, &error.line, &error.column);
        return error;
    }
    TestSuite suite;
    suite.path = path;
    suite.hash = QStringLiteral("sha256:") +
                 QString::fromLatin1(QCryptographicHash::hash(text, QCryptographicHash::Sha256).toHex());
    SuiteParser parser(text, path);
    Path root;
    QJsonValue top = document.isArray() ? QJsonValue(document.array()) : QJsonValue(document.object());
    if (!member.isEmpty()) {
        root = {member};
        top = document.object().value(member);
    }
    QJsonArray cases;
    bool skillCreator = false;
    const QJsonObject topObject = top.toObject();
    if (top.isArray()) {
        cases = top.toArray();
    } else if (topObject.contains(QStringLiteral("evals"))) {
        root.append(QStringLiteral("evals"));
        cases = topObject.value(QStringLiteral("evals")).toArray();
        suite.format = TestSuite::Format::SkillCreator;
        skillCreator = true;
    } else if (const QString key =
                   topObject.contains(QStringLiteral("cases")) ? QStringLiteral("cases") : QStringLiteral("test_cases");
               topObject.contains(key)) {
        root.append(key);
        cases = topObject.value(key).toArray();
    } else {
        return parser.fail(root, QStringLiteral("expected a list of test cases, {\"cases\": [...]} (or "
                                                "\"test_cases\") or skill-creator's {\"evals\": [...]}"));
    }
    suite.skillName = topObject.value(QStringLiteral("skill_name")).toString();
    if (cases.isEmpty())
        return parser.fail(root, QStringLiteral("the suite has no test cases"));
    QSet<QString> ids;
    QStringList vague;
    for (int i = 0; i < cases.size(); ++i) {
        TestCase c;
        // A case in skill-creator's shape ({id, prompt, expected_output, expectations}) reads like its "evals" list,
        // wherever it is: a bare list, "cases" or "test_cases". Without "input", graded statements or an
        // expected_output say so when the prompt is missing (a vague invocation).
        const QJsonObject object = cases[i].toObject();
        const QStringList skillCreatorKeys =
            statementKeys() + QStringList{QStringLiteral("prompt"), QStringLiteral("expected_output")};
        const bool skillCreatorShape =
            skillCreator || (!object.contains(QStringLiteral("input")) &&
                             std::any_of(skillCreatorKeys.cbegin(), skillCreatorKeys.cend(),
                                         [&](const QString &key) { return object.contains(key); }));
        if (skillCreatorShape && !skillCreator)
            suite.format = TestSuite::Format::SkillCreator;
        const bool ok = skillCreatorShape ? parser.skillCreatorCase(cases[i], root + Path{i}, i, &c)
                                          : parser.upskillCase(cases[i], root + Path{i}, i, &c);
        if (!ok)
            return *parser.error;
        if (ids.contains(c.id))
            return parser.fail(root + Path{i}, QStringLiteral("case id \"%1\" appears twice").arg(c.id));
        ids.insert(c.id);
        if (c.isVagueInvocation())
            vague.append(c.id);
        suite.cases.append(c);
    }
    suite.notes = parser.notes;
    if (!vague.isEmpty())
        suite.notes.append(QStringLiteral("%1 %2 no prompt: the student is sent only the skill's command "
                                          "(\"/<skill>\"), to test the skill invoked without instructions")
                               .arg(vague.size() == 1 ? QStringLiteral("case") : QStringLiteral("cases"),
                                    vague.join(QStringLiteral(", ")) +
                                        (vague.size() == 1 ? QStringLiteral(" has") : QStringLiteral(" have"))));
    return suite;
}

QJsonObject verifierJson(const VerifierSpec &spec, bool upskillOnly)
{
    QJsonObject o = upskillOnly ? QJsonObject() : spec.extra;
    o.insert(QStringLiteral("type"), spec.type);
    if (!spec.name.isEmpty())
        o.insert(QStringLiteral("name"), spec.name);
    if (!spec.values.isEmpty())
        o.insert(QStringLiteral("values"), QJsonArray::fromStringList(spec.values));
    auto put = [&](const char *key, const QString &value) {
        if (!value.isEmpty())
            o.insert(QLatin1String(key), value);
    };
    put("pattern", spec.pattern);
    put("path", spec.path);
    put("text", spec.text);
    if (spec.type == QLatin1String("command")) {
        if (upskillOnly) {
            o.insert(QStringLiteral("cmd"), spec.command);
            o.insert(QStringLiteral("config"), QJsonObject{{QStringLiteral("timeout_seconds"), spec.timeoutSeconds}});
        } else {
            o.insert(QStringLiteral("command"), spec.command);
            o.insert(QStringLiteral("timeout_seconds"), spec.timeoutSeconds);
        }
    }
    if (spec.type == QLatin1String("llm_judge")) {
        put("rubric", spec.rubric);
        put("model", spec.judgeModel);
        o.insert(QStringLiteral("threshold"), spec.threshold);
    }
    put("task", spec.task);
    put("dtype", spec.dtype);
    return o;
}

} // namespace

std::variant<TestSuite, LoadError> parseTestSuite(const QByteArray &text, const QString &path)
{
    return parse(text, path, {});
}

std::variant<TestSuite, LoadError> readTestSuite(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return LoadError{path, 0, 0, QStringLiteral("cannot read the test suite: %1").arg(file.errorString())};
    return parse(file.readAll(), path, {});
}

std::variant<TestSuite, LoadError> readSkillTestSuite(const QString &skillDir)
{
    const QDir dir(skillDir);
    if (QFileInfo::exists(dir.filePath(QStringLiteral("evals/evals.json"))))
        return readTestSuite(dir.filePath(QStringLiteral("evals/evals.json")));
    const QString metaPath = dir.filePath(QStringLiteral("skill_meta.json"));
    QFile meta(metaPath);
    if (meta.open(QIODevice::ReadOnly)) {
        const QByteArray text = meta.readAll();
        const QJsonArray tests = QJsonDocument::fromJson(text).object().value(QStringLiteral("tests")).toArray();
        if (!tests.isEmpty())
            return parse(text, metaPath, QStringLiteral("tests"));
    }
    return LoadError{skillDir, 0, 0,
                     QStringLiteral("the skill has no tests (neither evals/evals.json nor tests in skill_meta.json); "
                                    "pass --tests FILE")};
}

bool hasSkillTestSuite(const QString &skillDir)
{
    const QDir dir(skillDir);
    if (QFileInfo::exists(dir.filePath(QStringLiteral("evals/evals.json"))))
        return true;
    QFile meta(dir.filePath(QStringLiteral("skill_meta.json")));
    return meta.open(QIODevice::ReadOnly) &&
           !QJsonDocument::fromJson(meta.readAll()).object().value(QStringLiteral("tests")).toArray().isEmpty();
}

QByteArray serializeTestSuite(const TestSuite &suite, bool upskillOnly)
{
    static const QStringList upskillVerifiers = {QStringLiteral("contains"), QStringLiteral("file_exists"),
                                                 QStringLiteral("file_contains"), QStringLiteral("command")};
    QJsonArray cases;
    for (const TestCase &c : suite.cases) {
        QJsonObject o = upskillOnly ? QJsonObject() : c.extra;
        if (!upskillOnly) {
            o.insert(QStringLiteral("id"), c.id);
            o.insert(QStringLiteral("split"), c.split);
            if (c.repeats > 0)
                o.insert(QStringLiteral("repeats"), c.repeats);
            if (!c.expectedOutput.isEmpty())
                o.insert(QStringLiteral("expected_output"), c.expectedOutput);
        }
        o.insert(QStringLiteral("input"), c.input);
        if (!c.files.isEmpty()) {
            QJsonObject files;
            for (auto it = c.files.begin(); it != c.files.end(); ++it)
                files.insert(it.key(), it.value());
            o.insert(QStringLiteral("context"), QJsonObject{{QStringLiteral("files"), files}});
        }
        if (!c.expectedContains.isEmpty())
            o.insert(QStringLiteral("expected"),
                     QJsonObject{{QStringLiteral("contains"), QJsonArray::fromStringList(c.expectedContains)}});
        QJsonArray verifiers;
        for (const VerifierSpec &spec : c.verifiers) {
            if (!upskillOnly || upskillVerifiers.contains(spec.type))
                verifiers.append(verifierJson(spec, upskillOnly));
        }
        if (!verifiers.isEmpty())
            o.insert(QStringLiteral("verifiers"), verifiers);
        cases.append(o);
    }
    return QJsonDocument(QJsonObject{{QStringLiteral("cases"), cases}}).toJson(QJsonDocument::Indented);
}

QString writeTestSuite(const QString &path, const TestSuite &suite, bool upskillOnly)
{
    return writeFileAtomically(path, serializeTestSuite(suite, upskillOnly));
}

QString missingJudgeNote(const TestSuite &suite, const QString &judgeModel, const QString &howToChoose)
{
    if (!judgeModel.isEmpty())
        return {};
    qsizetype judged = 0;
    for (const TestCase &c : suite.cases) {
        const QList<VerifierSpec> verifiers = c.allVerifiers();
        judged += std::any_of(verifiers.cbegin(), verifiers.cend(), [](const VerifierSpec &v) {
            return v.type == QLatin1String("llm_judge") && v.judgeModel.isEmpty();
        });
    }
    if (judged == 0)
        return {};
    return QStringLiteral("%1 of the suite's %2 cases are graded by a judge model (skill-creator expectations or "
                          "expected_output, llm_judge checks) and none was given: those checks will be \"not "
                          "available\". %3")
        .arg(judged)
        .arg(suite.cases.size())
        .arg(howToChoose);
}

} // namespace sf
