#pragma once

#include "common/LoadError.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <variant>

namespace sf {

/// One check on a student's answer or workspace. Which fields matter depends on `type`:
/// contains / not_contains (values), regex (pattern, against the answer or the file at path),
/// file_exists (path), file_contains (path, text), json_valid (the answer, or path), command (command,
/// timeoutSeconds; run in the sandbox, passes on exit 0), llm_judge (rubric, judgeModel, threshold 1-5),
/// cuda_kernel (task, dtype, path of the kernel source).
struct VerifierSpec
{
    QString type;
    QString name; ///< optional label shown in results
    QStringList values;
    QString pattern;
    QString path;
    QString text;
    QString command;
    int timeoutSeconds = 60;
    QString rubric;
    QString judgeModel; ///< empty: the run's judge model
    int threshold = 4;
    QString task;
    QString dtype;
    QJsonObject extra; ///< keys Skillforge does not use, written back unchanged
    int line = 0;      ///< where it was read, for messages

    static QStringList knownTypes();
};

/// One test case: a prompt, files put in the student's workspace, and the checks on its answer.
struct TestCase
{
    QString id;                    ///< from the file, or "case-N" (1-based position) when it has none
    QString input;                 ///< the user prompt; empty for a vague invocation (see studentPrompt())
    QMap<QString, QString> files;  ///< context.files: workspace-relative path -> content
    QStringList expectedContains;  ///< upskill's expected.contains (case-insensitive substrings of the answer)
    QList<VerifierSpec> verifiers; ///< in addition to expectedContains
    QString split = QStringLiteral("train"); ///< "train" or "heldout"
    int repeats = 0;                         ///< 0: the run's --runs
    QString expectedOutput;                  ///< skill-creator's description of a good answer, given to judges
    QJsonObject extra;                       ///< keys Skillforge does not use, written back unchanged
    int line = 0;

    /// expected.contains as a verifier, followed by the listed verifiers: every check the case makes.
    QList<VerifierSpec> allVerifiers() const;
    bool isHeldOut() const { return split == QLatin1String("heldout"); }
    /// A case without a prompt: it tests whether the skill does its work when invoked without instructions.
    bool isVagueInvocation() const { return input.trimmed().isEmpty(); }
    /// What the student is asked: the input, or for a vague invocation the skill's command alone ("/<skill>"),
    /// which is what a user who invokes the skill without instructions sends (providers refuse an empty message).
    QString studentPrompt(const QString &skillName) const;
};

/// A test suite as read from disk: upskill's list or {"cases": [...]} ({"test_cases": [...]} too), skill-creator's
/// evals/evals.json, or Skillforge's extension of upskill's format (id, split, repeats, more verifier types).
struct TestSuite
{
    enum class Format
    {
        Upskill,
        SkillCreator
    };

    QString path;
    Format format = Format::Upskill;
    QString skillName; ///< skill-creator's skill_name
    QList<TestCase> cases;
    QString hash; ///< "sha256:<hex>" of the file's bytes, recorded in each run
    /// What the reader guessed and the user should know (a fixture found above the skill folder, cases without a
    /// prompt); shown before a run.
    QStringList notes;

    int heldOutCount() const;
};

/// Reads a suite; problems name the file and the line of the offending case or verifier.
std::variant<TestSuite, LoadError> readTestSuite(const QString &path);
/// Parses suite text; @p path is used in messages and to resolve skill-creator's `files`: paths (or {path, purpose}
/// objects) relative to the skill folder, i.e. the folder above evals/, each a file or a folder of files. A path
/// not there is looked for relative to each folder above it, up to the repository's root, and a note says where it
/// was found.
std::variant<TestSuite, LoadError> parseTestSuite(const QByteArray &text, const QString &path);

/// The suite as JSON text: {"cases": [...]} in Skillforge's format. With @p upskillOnly, only the fields
/// upskill accepts are written (its TestCase forbids unknown keys), and verifiers upskill lacks are left out.
QByteArray serializeTestSuite(const TestSuite &suite, bool upskillOnly = false);
/// Writes serializeTestSuite() atomically; "" or an error naming the file.
QString writeTestSuite(const QString &path, const TestSuite &suite, bool upskillOnly = false);

/// The suite a skill carries when none is given: <skill>/evals/evals.json, else the tests in skill_meta.json;
/// an error saying so when it has neither.
std::variant<TestSuite, LoadError> readSkillTestSuite(const QString &skillDir);
/// Whether readSkillTestSuite() has a suite to read: evals/evals.json, or tests in skill_meta.json.
bool hasSkillTestSuite(const QString &skillDir);

/// What to tell the user before a run of @p suite without a judge model (@p judgeModel empty) when some cases are
/// graded by one (skill-creator expectations or expected_output, llm_judge verifiers naming no model): their
/// checks would all be "not available". @p howToChoose ends it ("Choose one with --judge MODEL."). Empty when there
/// is nothing to say.
QString missingJudgeNote(const TestSuite &suite, const QString &judgeModel, const QString &howToChoose);

} // namespace sf
