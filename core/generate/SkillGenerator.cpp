#include "SkillGenerator.h"

#include "PromptTemplate.h"
#include "SkillDraft.h"
#include "common/AtomicFile.h"
#include "llm/ChatCall.h"
#include "llm/ChatClient.h"
#include "skill/SkillDocument.h"
#include "skill/SkillMeta.h"
#include "skill/SkillVersionStore.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>

namespace sf {

namespace {

constexpr int kMaxBodyLines = 500;

// The folder a skill lives in is its name when that is a valid skill name, else a slug of it.
QString folderNameFor(const QString &name)
{
    static const QRegularExpression valid(QStringLiteral("^[a-z0-9]+(-[a-z0-9]+)*$"));
    if (valid.match(name).hasMatch() && name.size() <= 64) {
        return name;
    }
    QString slug = name.toLower();
    slug.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    slug = slug.left(64);
    while (slug.startsWith(u'-')) {
        slug.remove(0, 1);
    }
    while (slug.endsWith(u'-')) {
        slug.chop(1);
    }
    return slug.isEmpty() ? QStringLiteral("generated-skill") : slug;
}

QString nameOf(const QMap<QString, QByteArray> &files)
{
    return SkillDocument::parse(QString::fromUtf8(files.value(QStringLiteral("SKILL.md")))).name().trimmed();
}

// A skill's own files as a teacher should see them: no version history, no generated metadata.
QMap<QString, QByteArray> teachableFiles(const QString &skillDir)
{
    QMap<QString, QByteArray> files = SkillVersionStore(skillDir).currentFiles();
    files.remove(QStringLiteral("skill_meta.json"));
    return files;
}

QString writeFiles(const QString &folder, const QMap<QString, QByteArray> &files)
{
    for (auto it = files.begin(); it != files.end(); ++it) {
        const QString path = QDir(folder).filePath(it.key());
        if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
            return QStringLiteral("cannot create the folder for %1").arg(path);
        }
        if (const QString error = writeFileAtomically(path, it.value()); !error.isEmpty()) {
            return error;
        }
    }
    return {};
}

QList<SkillProblem> validateFiles(const QMap<QString, QByteArray> &files, ValidationProfile profile)
{
    QTemporaryDir scratch;
    const QString folder = QDir(scratch.path()).filePath(folderNameFor(nameOf(files)));
    if (!scratch.isValid() || !writeFiles(folder, files).isEmpty()) {
        return {};
    }
    return validateSkill(folder, profile);
}

QString problemList(const QList<SkillProblem> &problems)
{
    QStringList lines;
    for (const SkillProblem &problem : problems) {
        lines << QStringLiteral("- ") + problem.toString();
    }
    return lines.join(u'\n');
}

int errorCount(const QList<SkillProblem> &problems)
{
    return int(std::count_if(problems.begin(), problems.end(), [](const SkillProblem &p) { return p.isError(); }));
}

} // namespace

QString profileRulesForPrompt(ValidationProfile profile)
{
    switch (profile) {
    case ValidationProfile::AgentSkills:
        return {};
    case ValidationProfile::ClaudeCode:
        return QStringLiteral("- Claude Code also reads the optional keys when_to_use and allowed-tools; use them only "
                              "when they help.");
    case ValidationProfile::ClaudeAi:
        return QStringLiteral("- No XML tags anywhere in the name or description.\n"
                              "- The name must not contain the words \"anthropic\" or \"claude\".\n"
                              "- The description is written in the third person.");
    case ValidationProfile::Upskill:
        return QStringLiteral("- Front matter values fit on one line each (no folded or multi-line YAML).\n"
                              "- The description is one sentence.");
    }
    return {};
}

SkillGenerator::SkillGenerator(ChatClient &client, QObject *parent)
    : QObject(parent)
    , m_client(client)
{
}

SkillGenerator::~SkillGenerator()
{
    delete m_call; // cancels a request still in flight
}

void SkillGenerator::start(const SkillGenerationRequest &request)
{
    Q_ASSERT(!m_running);
    m_request = request;
    m_result = {};
    m_firstDraft.clear();
    m_running = true;

    if (request.teacherModel.isEmpty()) {
        return fail(QStringLiteral("no teacher model was given"));
    }
    const bool improving = !request.existingSkillDir.isEmpty();
    if (improving && !QFileInfo(QDir(request.existingSkillDir).filePath(QStringLiteral("SKILL.md"))).isFile()) {
        return fail(QStringLiteral("%1 is not a skill folder (it has no SKILL.md)").arg(request.existingSkillDir));
    }
    if (!improving && request.task.trimmed().isEmpty()) {
        return fail(QStringLiteral("no task was given: say what the skill should teach"));
    }
    if (!improving && !QFileInfo(request.skillsFolder).isDir()) {
        return fail(QStringLiteral("the skills folder %1 does not exist").arg(request.skillsFolder));
    }

    QStringList traceTexts;
    for (const TraceExcerpt &trace : request.traces) {
        traceTexts << QStringLiteral("### %1\n\n%2").arg(trace.label, trace.text.trimmed());
    }
    QHash<QString, QString> values{
        {QStringLiteral("task"), request.task.trimmed()},
        {QStringLiteral("traces"), traceTexts.join(QStringLiteral("\n\n"))},
        {QStringLiteral("existing_skill"),
         improving ? SkillDraft::format(teachableFiles(request.existingSkillDir)) : QString()},
        {QStringLiteral("instructions"), request.instructions.trimmed()},
        {QStringLiteral("feedback"), request.feedback.trimmed()},
        {QStringLiteral("profile_rules"), profileRulesForPrompt(request.profile)},
        {QStringLiteral("max_body_lines"), QString::number(kMaxBodyLines)},
    };
    m_result.replyFormat = resolveReplyFormat(request.replyFormat, request.teacherModel);
    const bool json = m_result.replyFormat == ReplyFormat::Json;
    const auto replyFormat =
        PromptTemplate::load(json ? QStringLiteral("skill-reply-json") : QStringLiteral("skill-reply-files"));
    const auto system = PromptTemplate::load(QStringLiteral("generate-skill.system"));
    const auto user = PromptTemplate::load(QStringLiteral("generate-skill.user"));
    if (!system || !user || !replyFormat) {
        return fail(!replyFormat ? replyFormat.error : system ? user.error : system.error);
    }
    const Result<QString> replyFormatText = replyFormat.value->render({});
    if (!replyFormatText) {
        return fail(replyFormatText.error);
    }
    values.insert(QStringLiteral("reply_format"), replyFormatText.value->trimmed());
    const Result<QString> systemText = system.value->render(values);
    const Result<QString> userText = user.value->render(values);
    if (!systemText || !userText) {
        return fail(systemText ? userText.error : systemText.error);
    }
    m_chat = {};
    m_chat.system = *systemText.value;
    m_chat.messages.append({QStringLiteral("user"), *userText.value});
    m_chat.maxTokens = request.maxTokens;
    m_chat.temperature = request.temperature;
    m_chat.stream = request.stream;
    if (json) {
        m_chat.replySchema = skillReplySchema(request.maxTokens);
    }
    ask();
}

void SkillGenerator::cancel()
{
    if (m_running) {
        fail(QStringLiteral("cancelled"));
    }
}

void SkillGenerator::ask()
{
    ++m_result.teacherCalls;
    Q_EMIT stage(m_result.repaired ? QStringLiteral("Asking %1 to fix the problems").arg(m_request.teacherModel)
                                   : QStringLiteral("Asking %1 to write the skill").arg(m_request.teacherModel));
    Q_EMIT replyRestarted();
    m_call = m_client.chat(m_request.teacherModel, m_chat);
    connect(m_call, &ChatCall::textDelta, this, &SkillGenerator::replyDelta);
    // A stream that breaks is retried from scratch, so what it had delivered is void.
    connect(m_call, &ChatCall::retrying, this, &SkillGenerator::replyRestarted);
    connect(m_call, &ChatCall::finished, this, &SkillGenerator::onReply);
    connect(m_call, &ChatCall::failed, this, [this](const QString &message) {
        fail(QStringLiteral("the teacher %1 failed: %2").arg(m_request.teacherModel, message));
    });
}

void SkillGenerator::onReply(const ChatResponse &response)
{
    m_call->deleteLater();
    m_lastReply = response.text;
    m_result.usage += response.usage;
    m_result.cost.add(m_request.teacherModel, response.costUsd);
    m_result.latencyMs += response.latencyMs;

    SkillDraft draft = m_result.replyFormat == ReplyFormat::Json ? skillDraftFromJson(response.text)
                                                                  : SkillDraft::parse(response.text);
    if (!draft.isUsable() && replyWasCutOff(response)) {
        draft.problems << QStringLiteral("the reply was cut off at the token limit (%1 tokens)").arg(m_chat.maxTokens);
    }
    m_result.draftNotes.append(draft.problems);
    QMap<QString, QByteArray> files;
    if (draft.isUsable()) {
        // Improving keeps the files the teacher did not rewrite (as upskill carries references over).
        files = m_request.existingSkillDir.isEmpty() ? QMap<QString, QByteArray>()
                                                     : teachableFiles(m_request.existingSkillDir);
        files.insert(draft.files);
    }
    const QList<SkillProblem> problems =
        draft.isUsable() ? validateFiles(files, m_request.profile) : QList<SkillProblem>();

    if (!m_result.repaired && (!draft.isUsable() || hasErrors(problems))) {
        m_result.repaired = true;
        m_firstDraft = files;
        const QString listed = draft.isUsable() ? problemList(problems)
                                                : QStringLiteral("- ") + draft.problems.join(QStringLiteral("\n- "));
        const auto repair = PromptTemplate::load(QStringLiteral("repair-skill.user"));
        const Result<QString> repairText = repair ? repair.value->render({{QStringLiteral("problems"), listed}})
                                                  : Result<QString>::failure(repair.error);
        if (!repairText) {
            return fail(repairText.error);
        }
        // The first problem, so that whoever watches knows what the teacher is asked to fix.
        QString first = draft.problems.value(0);
        for (const SkillProblem &problem : problems) {
            if (problem.isError()) {
                first = problem.toString();
                break;
            }
        }
        Q_EMIT stage(QStringLiteral("The draft has %1 error(s) (%2); asking for a repair")
                         .arg(qMax(1, errorCount(problems)))
                         .arg(first));
        m_chat.messages.append({QStringLiteral("assistant"), response.text});
        m_chat.messages.append({QStringLiteral("user"), *repairText.value});
        ask();
        return;
    }
    if (!draft.isUsable() && m_firstDraft.isEmpty()) {
        return fail(QStringLiteral("the teacher's replies contain no usable skill (asked twice): %1")
                        .arg(draft.problems.join(QStringLiteral("; "))));
    }
    install(draft.isUsable() ? files : m_firstDraft);
}

void SkillGenerator::install(const QMap<QString, QByteArray> &files)
{
    const QString model = m_request.teacherModel;
    const QString origin = m_request.origin.isEmpty() ? QStringLiteral("teacher:") + model : m_request.origin;
    QString target = m_request.existingSkillDir;
    if (target.isEmpty()) {
        target = QDir(m_request.skillsFolder).filePath(folderNameFor(nameOf(files)));
    }
    if (QFileInfo::exists(target)) {
        // Whatever is there becomes a version first: replacing files must never lose the user's work.
        const auto before = SkillVersionStore(target).snapshot(QStringLiteral("user"),
                                                               QStringLiteral("before %1 rewrote it").arg(origin));
        if (const QString *error = std::get_if<QString>(&before)) {
            return fail(QStringLiteral("cannot keep the current version of %1: %2").arg(target, *error));
        }
        if (const QString error = writeFiles(target, files); !error.isEmpty()) {
            return fail(error);
        }
    } else {
        // A new skill appears whole or not at all: written beside its place, then renamed into it.
        const QString partial =
            QDir(m_request.skillsFolder)
                .filePath(QStringLiteral(".%1.partial-%2")
                              .arg(QFileInfo(target).fileName())
                              .arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0')));
        if (const QString error = writeFiles(partial, files); !error.isEmpty()) {
            QDir(partial).removeRecursively();
            return fail(error);
        }
        if (!QDir().rename(partial, target)) {
            QDir(partial).removeRecursively();
            return fail(QStringLiteral("cannot move the new skill into %1").arg(target));
        }
    }

    const auto meta = readSkillMeta(target);
    SkillMeta skillMeta = std::holds_alternative<SkillMeta>(meta) ? std::get<SkillMeta>(meta) : SkillMeta();
    if (skillMeta.version.isEmpty()) {
        skillMeta.version = QStringLiteral("1.0");
    }
    skillMeta.generatedBy = model;
    skillMeta.generatedAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    if (!m_request.task.trimmed().isEmpty()) {
        skillMeta.sourceTask = m_request.task.trimmed();
    }
    if (const QString error = writeSkillMeta(target, skillMeta); !error.isEmpty()) {
        return fail(error);
    }

    const QString summary = m_request.task.trimmed().section(u'\n', 0, 0).left(120);
    const auto version =
        SkillVersionStore(target).snapshot(origin, summary.isEmpty() ? QStringLiteral("improved by the teacher")
                                                                     : QStringLiteral("generated: ") + summary);
    if (const QString *error = std::get_if<QString>(&version)) {
        return fail(
            QStringLiteral("the skill was written to %1 but its version could not be stored: %2").arg(target, *error));
    }
    m_result.versionId = std::get<SkillVersion>(version).id;

    QJsonArray messages;
    for (const ChatMessage &message : std::as_const(m_chat.messages)) {
        messages.append(
            QJsonObject{{QStringLiteral("role"), message.role}, {QStringLiteral("content"), message.content}});
    }
    QJsonObject prompt{{QStringLiteral("model"), model},
                             {QStringLiteral("profile"), profileName(m_request.profile)},
                             {QStringLiteral("max_tokens"), m_chat.maxTokens},
                             {QStringLiteral("reply_format"), m_result.replyFormat == ReplyFormat::Json
                                                                  ? QStringLiteral("json")
                                                                  : QStringLiteral("files")},
                             {QStringLiteral("system"), m_chat.system},
                             {QStringLiteral("messages"), messages}};
    if (m_chat.replySchema) {
        prompt.insert(QStringLiteral("reply_schema"), QJsonDocument::fromJson(m_chat.replySchema->schema).object());
    }
    const QString promptPath =
        QDir(target).filePath(QStringLiteral(".versions/%1/prompt.json").arg(m_result.versionId));
    if (const QString error = writeFileAtomically(promptPath, QJsonDocument(prompt).toJson(QJsonDocument::Indented));
        !error.isEmpty()) {
        return fail(error);
    }
    // The reply as it came, so that it can be read again once the streamed draft is gone.
    const QString replyPath = QDir(target).filePath(QStringLiteral(".versions/%1/reply.md").arg(m_result.versionId));
    if (const QString error = writeFileAtomically(replyPath, m_lastReply.toUtf8()); !error.isEmpty()) {
        return fail(error);
    }
    m_result.promptPath = promptPath;
    m_result.replyPath = replyPath;

    m_result.skillDir = target;
    m_result.name = nameOf(files);
    m_result.problems = validateSkill(target, m_request.profile);
    m_running = false;
    Q_EMIT finished(m_result);
}

void SkillGenerator::fail(const QString &message)
{
    if (m_call) {
        m_call->disconnect(this);
        m_call->deleteLater();
        m_call = nullptr;
    }
    m_running = false;
    // Always after start() returns, so callers can connect after starting.
    QMetaObject::invokeMethod(
        this, [this, message] { Q_EMIT failed(message); }, Qt::QueuedConnection);
}

} // namespace sf
