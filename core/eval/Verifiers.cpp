#include "Verifiers.h"

#include "kernels/KernelCheck.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QRegularExpression>

namespace sf {

namespace {

constexpr qsizetype kEvidenceChars = 1200;

QString cut(const QString &text)
{
    if (text.size() <= kEvidenceChars)
        return text;
    return text.left(kEvidenceChars) + QStringLiteral("… (%1 more characters)").arg(text.size() - kEvidenceChars);
}

VerifierOutcome outcome(const VerifierSpec &spec, bool passed, const QString &evidence)
{
    VerifierOutcome o;
    o.type = spec.type;
    o.name = spec.name;
    o.passed = passed;
    o.evidence = evidence;
    return o;
}

VerifierOutcome unavailable(const VerifierSpec &spec, const QString &why)
{
    VerifierOutcome o = outcome(spec, false, QStringLiteral("not available: ") + why);
    o.available = false;
    return o;
}

// Reads a workspace file for a verifier; on failure *evidence says why.
std::optional<QString> readWorkspaceFile(const QString &workspace, const QString &relative, QString *evidence)
{
    const QString path = pathInWorkspace(workspace, relative);
    if (path.isEmpty()) {
        *evidence = QStringLiteral("\"%1\" is outside the workspace").arg(relative);
        return std::nullopt;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *evidence = QStringLiteral("\"%1\" does not exist").arg(relative);
        return std::nullopt;
    }
    return QString::fromUtf8(file.readAll());
}

VerifierOutcome containsCheck(const VerifierSpec &spec, const QString &answer, bool wanted)
{
    QStringList found;
    QStringList missing;
    for (const QString &value : spec.values)
        (answer.contains(value, Qt::CaseInsensitive) ? found : missing).append(value);
    if (wanted) {
        if (missing.isEmpty())
            return outcome(spec, true,
                           QStringLiteral("found all of: \"%1\"").arg(found.join(QStringLiteral("\", \""))));
        return outcome(spec, false, QStringLiteral("missing: \"%1\"").arg(missing.join(QStringLiteral("\", \""))));
    }
    if (found.isEmpty())
        return outcome(spec, true, QStringLiteral("none of: \"%1\"").arg(missing.join(QStringLiteral("\", \""))));
    return outcome(spec, false,
                   QStringLiteral("present but must not be: \"%1\"").arg(found.join(QStringLiteral("\", \""))));
}

} // namespace

CommandRunner refusingCommandRunner(const QString &why)
{
    return [why](const QString &, const QString &, int) {
        CommandOutcome o;
        o.error = why;
        return o;
    };
}

QString pathInWorkspace(const QString &workspace, const QString &relative)
{
    const QString clean = QDir::cleanPath(relative);
    if (clean.isEmpty() || QDir::isAbsolutePath(clean) || clean == QLatin1String("..") ||
        clean.startsWith(QLatin1String("../")))
        return {};
    const QString root = QFileInfo(workspace).canonicalFilePath();
    const QString path = QDir(root).filePath(clean);
    // A symbolic link may point anywhere: judge by where the deepest existing ancestor really is.
    QFileInfo probe(path);
    while (!probe.exists() && probe.absoluteFilePath() != root && probe.absoluteFilePath().size() > root.size())
        probe = QFileInfo(probe.absolutePath());
    const QString real = probe.canonicalFilePath();
    if (real.isEmpty() || (real != root && !real.startsWith(root + u'/')))
        return {};
    return path;
}

VerifierOutcome runVerifier(const VerifierSpec &spec, const VerifyContext &context)
{
    const QString &t = spec.type;
    if (t == QLatin1String("contains"))
        return containsCheck(spec, context.answer, true);
    if (t == QLatin1String("not_contains"))
        return containsCheck(spec, context.answer, false);
    if (t == QLatin1String("regex") || t == QLatin1String("json_valid")) {
        QString subject = context.answer;
        QString where = QStringLiteral("the answer");
        if (!spec.path.isEmpty()) {
            QString why;
            const std::optional<QString> text = readWorkspaceFile(context.workspace, spec.path, &why);
            if (!text)
                return outcome(spec, false, why);
            subject = *text;
            where = QStringLiteral("\"%1\"").arg(spec.path);
        }
        if (t == QLatin1String("regex")) {
            const QRegularExpressionMatch match = QRegularExpression(spec.pattern).match(subject);
            if (match.hasMatch())
                return outcome(spec, true, QStringLiteral("%1 matched: \"%2\"").arg(where, cut(match.captured(0))));
            return outcome(spec, false, QStringLiteral("no match for /%1/ in %2").arg(spec.pattern, where));
        }
        // An answer often wraps its JSON in a Markdown fence; the JSON inside is what is judged.
        static const QRegularExpression fence(QStringLiteral("```(?:json)?\\s*\\n(.*?)```"),
                                              QRegularExpression::DotMatchesEverythingOption);
        const QRegularExpressionMatch fenced = fence.match(subject);
        const QString json = (spec.path.isEmpty() && fenced.hasMatch()) ? fenced.captured(1) : subject;
        QJsonParseError error;
        QJsonDocument::fromJson(json.trimmed().toUtf8(), &error);
        if (error.error == QJsonParseError::NoError)
            return outcome(spec, true, QStringLiteral("%1 is valid JSON").arg(where));
        return outcome(
            spec, false,
            QStringLiteral("%1 is not valid JSON: %2 at offset %3").arg(where, error.errorString()).arg(error.offset));
    }
    if (t == QLatin1String("file_exists")) {
        const QString path = pathInWorkspace(context.workspace, spec.path);
        if (!path.isEmpty() && QFileInfo(path).isFile())
            return outcome(spec, true,
                           QStringLiteral("\"%1\" exists (%2 bytes)").arg(spec.path).arg(QFileInfo(path).size()));
        return outcome(spec, false, QStringLiteral("\"%1\" does not exist").arg(spec.path));
    }
    if (t == QLatin1String("file_contains")) {
        QString why;
        const std::optional<QString> text = readWorkspaceFile(context.workspace, spec.path, &why);
        if (!text)
            return outcome(spec, false, why);
        if (text->contains(spec.text))
            return outcome(spec, true, QStringLiteral("\"%1\" contains \"%2\"").arg(spec.path, spec.text));
        return outcome(spec, false, QStringLiteral("\"%1\" lacks \"%2\"").arg(spec.path, spec.text));
    }
    if (t == QLatin1String("command")) {
        if (!context.runCommand)
            return unavailable(spec, QStringLiteral("no sandbox to run commands in"));
        const CommandOutcome r = context.runCommand(spec.command, context.workspace, spec.timeoutSeconds * 1000);
        if (!r.ran) {
            VerifierOutcome o = unavailable(spec, r.error);
            o.jobError = r.jobError;
            return o;
        }
        QString evidence = QStringLiteral("$ %1\n").arg(spec.command);
        if (r.timedOut)
            evidence += QStringLiteral("timed out after %1 s\n").arg(spec.timeoutSeconds);
        else if (r.outOfMemory)
            evidence += QStringLiteral("killed: out of memory\n");
        else
            evidence += QStringLiteral("exit code %1\n").arg(r.exitCode);
        evidence += cut(r.output);
        return outcome(spec, !r.timedOut && !r.outOfMemory && r.exitCode == 0, evidence);
    }
    if (t == QLatin1String("cuda_kernel")) {
        if (!context.kernels)
            return unavailable(spec, QStringLiteral("the CUDA kernel checker is not part of this build"));
        const QString source = spec.path.isEmpty() ? QStringLiteral("kernel.cu") : spec.path;
        const QString sourcePath = pathInWorkspace(context.workspace, source);
        if (sourcePath.isEmpty())
            return outcome(spec, false, QStringLiteral("\"%1\" is outside the workspace").arg(source));
        // A student without file tools answers with a fenced cuda block instead of writing the file.
        if (!QFileInfo::exists(sourcePath)) {
            const QString fenced = KernelCheck::extractCudaSource(context.answer);
            QFile file(sourcePath);
            if (!fenced.isEmpty() && file.open(QIODevice::WriteOnly))
                file.write(fenced.toUtf8());
        }
        return context.kernels->check(spec, context.workspace, sourcePath);
    }
    if (t == QLatin1String("llm_judge"))
        return unavailable(spec, QStringLiteral("llm_judge needs a judge model call"));
    return unavailable(spec, QStringLiteral("unknown verifier type \"%1\"").arg(t));
}

ChatRequest judgeRequest(const VerifierSpec &spec, const TestCase &testCase, const QString &answer)
{
    ChatRequest request;
    request.system = QStringLiteral(
        "You grade an AI assistant's answer against a rubric. Be strict and concrete. First explain, in a few "
        "sentences, which parts of the rubric the answer meets and which it misses. Then, on the last line, write "
        "SCORE: n, where n is a whole number from 1 (fails the rubric) to 5 (meets all of it).");
    QString prompt =
        QStringLiteral("## Task given to the assistant\n\n%1\n\n")
            .arg(testCase.isVagueInvocation() ? QStringLiteral("(none: the skill was invoked without instructions)")
                                              : testCase.input);
    if (!testCase.expectedOutput.isEmpty())
        prompt += QStringLiteral("## What a good answer looks like\n\n%1\n\n").arg(testCase.expectedOutput);
    prompt += QStringLiteral("## Rubric\n\n%1\n\n## The assistant's answer\n\n%2\n").arg(spec.rubric, answer);
    ChatMessage message;
    message.role = QStringLiteral("user");
    message.content = prompt;
    request.messages.append(message);
    request.maxTokens = 1024;
    request.temperature = 0.0;
    return request;
}

VerifierOutcome judgeOutcome(const VerifierSpec &spec, const QString &judgeModel, const QString &reply)
{
    static const QRegularExpression scoreLine(QStringLiteral("SCORE:\\s*\\**\\s*([1-5])\\b"),
                                              QRegularExpression::CaseInsensitiveOption);
    QRegularExpressionMatch last;
    for (auto it = scoreLine.globalMatch(reply); it.hasNext();)
        last = it.next();
    VerifierOutcome o = outcome(spec, false, QString());
    o.reasoning = reply.trimmed();
    if (!last.hasMatch()) {
        o.evidence = QStringLiteral("judge %1 gave no \"SCORE: n\" line").arg(judgeModel);
        return o;
    }
    o.score = last.captured(1).toInt();
    o.passed = *o.score >= spec.threshold;
    o.evidence =
        QStringLiteral("judge %1 scored %2/5 (threshold %3)").arg(judgeModel).arg(*o.score).arg(spec.threshold);
    return o;
}

} // namespace sf
