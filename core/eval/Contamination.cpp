#include "Contamination.h"

#include "agents/Harness.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

namespace sf {

namespace {

// Where the with-skill prompt's skill section starts (AgentSession's systemPromptFor): inline, or the agentic
// listing.
const QStringList kSkillSectionMarks{QStringLiteral("\n\n## Skill: "), QStringLiteral("\n\n## Available skills")};

QString fixedPart(const QString &system)
{
    qsizetype cut = system.size();
    for (const QString &mark : kSkillSectionMarks) {
        const qsizetype at = system.indexOf(mark);
        if (at >= 0)
            cut = std::min(cut, at);
    }
    return system.left(cut);
}

QStringList skillsIn(const QString &system)
{
    QStringList names;
    static const QRegularExpression listed(QStringLiteral("<skill name=\"([^\"]+)\""));
    for (auto it = listed.globalMatch(system); it.hasNext();)
        names.append(it.next().captured(1));
    static const QRegularExpression inlined(QStringLiteral("\n\n## Skill: ([^\n]+)\n"));
    if (const auto match = inlined.match(system); match.hasMatch())
        names.append(match.captured(1).trimmed());
    names.removeDuplicates();
    return names;
}

QString hashOf(const QString &text)
{
    return QStringLiteral("sha256:") +
           QString::fromLatin1(QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex());
}

// The skill's body: the inline section of a with-skill prompt, else SKILL.md in the skill's folder.
QString skillText(const RunAnalysis &run, const QList<QJsonObject> &withSkillSystems)
{
    for (const QJsonObject &message : withSkillSystems) {
        const QString system = message.value(QStringLiteral("content")).toString();
        const qsizetype at = system.indexOf(kSkillSectionMarks[0]);
        if (at >= 0)
            return system.mid(at);
    }
    if (run.manifest.skillDir.isEmpty())
        return {};
    QFile file(QDir(run.manifest.skillDir).filePath(QStringLiteral("SKILL.md")));
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// Lines long enough to be the skill's own words rather than a phrase any answer might hold.
QStringList distinctiveLines(const QString &text)
{
    QStringList lines;
    for (const QString &raw : text.split(u'\n')) {
        const QString line = raw.trimmed();
        if (line.size() >= 30 && !line.startsWith(QStringLiteral("```")) && !lines.contains(line))
            lines.append(line);
    }
    return lines;
}

} // namespace

ContaminationReport checkContamination(const RunAnalysis &run)
{
    ContaminationReport report;
    struct ArmSeen
    {
        QSet<QString> hashes;
        QString firstHash;
        QSet<QString> skills;
    };
    ArmSeen seen[2];
    QList<QJsonObject> withSkillSystems;
    QList<QPair<QString, QJsonArray>> baselineMessages;
    for (const ItemResult &r : run.results) {
        const QJsonObject transcript = run.transcript(r);
        if (transcript.isEmpty())
            continue;
        ++report.transcriptsRead;
        const int arm = r.key.arm == kWithSkillArm ? 1 : 0;
        if (transcript.contains(QStringLiteral("harness"))) {
            // An agent CLI: what both arms were given is the CLI's settings, and what it showed the model is in its
            // own session file.
            const QString hash =
                QStringLiteral("cli:") + transcript.value(QStringLiteral("settings_fingerprint")).toString();
            if (seen[arm].hashes.isEmpty())
                seen[arm].firstHash = hash;
            seen[arm].hashes.insert(hash);
            report.cliHarness = transcript.value(QStringLiteral("harness")).toString();
            report.cliVersion = transcript.value(QStringLiteral("cli_version")).toString();
            QFile session(QDir(run.dir).filePath(r.harnessSession));
            if (r.harnessSession.isEmpty() || !session.open(QIODevice::ReadOnly))
                continue;
            const QString text = QString::fromUtf8(session.readAll());
            if (!run.manifest.skillName.isEmpty() && text.contains(QStringLiteral("- %1:").arg(run.manifest.skillName)))
                seen[arm].skills.insert(run.manifest.skillName);
            if (arm == 0)
                baselineMessages.append(
                    {r.key.toString(), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("session")},
                                                              {QStringLiteral("content"), text}}}});
            continue;
        }
        const QJsonArray messages = transcript.value(QStringLiteral("messages")).toArray();
        for (const QJsonValue &m : messages) {
            const QJsonObject message = m.toObject();
            if (message.value(QStringLiteral("role")).toString() != u"system")
                continue;
            const QString system = message.value(QStringLiteral("content")).toString();
            const QString hash = hashOf(fixedPart(system));
            if (seen[arm].hashes.isEmpty())
                seen[arm].firstHash = hash;
            seen[arm].hashes.insert(hash);
            for (const QString &name : skillsIn(system))
                seen[arm].skills.insert(name);
            if (arm == 1 && withSkillSystems.size() < 1)
                withSkillSystems.append(message);
            break;
        }
        if (arm == 0)
            baselineMessages.append({r.key.toString(), messages});
    }
    for (int arm = 0; arm < 2; ++arm) {
        QStringList skills(seen[arm].skills.cbegin(), seen[arm].skills.cend());
        skills.sort();
        report.arms.append(
            {arm ? kWithSkillArm : kBaselineArm, seen[arm].firstHash, int(seen[arm].hashes.size()), skills});
    }
    report.promptsMatch =
        seen[0].hashes.size() == 1 && seen[1].hashes.size() == 1 && seen[0].firstHash == seen[1].firstHash;

    const QStringList lines = distinctiveLines(skillText(run, withSkillSystems));
    report.skillLinesChecked = int(lines.size());
    for (const auto &[item, messages] : baselineMessages) {
        bool first = true;
        for (const QJsonValue &m : messages) {
            const QJsonObject message = m.toObject();
            const QString role = message.value(QStringLiteral("role")).toString();
            if (role == u"system")
                continue;
            const QString content = message.value(QStringLiteral("content")).toString();
            const QString where = role == u"user" && first ? QStringLiteral("first message (context files)")
                                  : role == u"tool"        ? QStringLiteral("tool result (a file read or a command)")
                                  : role == u"session"     ? QStringLiteral("the CLI's session file")
                                                           : role;
            if (role == u"user")
                first = false;
            for (const QString &line : lines) {
                if (content.contains(line)) {
                    report.leaks.append({item, where, line.left(120)});
                    break;
                }
            }
        }
    }
    return report;
}

namespace {

QString cliSummary(const ContaminationReport &report)
{
    const auto &[arms, promptsMatch, transcriptsRead, skillLinesChecked, leaks, cliHarness, cliVersion] = report;
    Q_UNUSED(transcriptsRead)
    QString text = QStringLiteral("Each item ran %1 %2 with a fresh private home: the user's own configuration, "
                                  "CLAUDE.md, AGENTS.md and personal skills reached no item.")
                       .arg(Harness::label(cliHarness), cliVersion);
    // In people's words: the hashes are in the data reports (fixed_prompt_hash) and the reports' contamination table.
    text += promptsMatch ? QStringLiteral(" With and without the skill, the CLI got identical settings.")
                         : QStringLiteral(" The CLI's settings differ with and without the skill (in %1 variants "
                                          "without it, %2 with it).")
                               .arg(arms[0].variants)
                               .arg(arms[1].variants);
    text += arms[0].skillsSeen.isEmpty()
                ? QStringLiteral(" Without the skill, the CLI listed it in no item;")
                : QStringLiteral(" Without the skill, the CLI listed %1;").arg(arms[0].skillsSeen.join(u", "));
    text += arms[1].skillsSeen.isEmpty()
                ? QStringLiteral(" with the skill, no session shows it listed: check that the skill was discovered.")
                : QStringLiteral(" with the skill, the CLI listed it.");
    if (skillLinesChecked > 0 && leaks.isEmpty())
        text += QStringLiteral(" None of the skill's %1 distinctive lines reached a session without the skill.")
                    .arg(skillLinesChecked);
    else if (!leaks.isEmpty())
        text += QStringLiteral(" The skill's text reached %1 sessions without the skill.").arg(leaks.size());
    return text;
}

} // namespace

QString ContaminationReport::Leak::itemLabel() const
{
    const QStringList key = item.split(u'|'); // model|arm|case|repeat, as results.jsonl keys an item
    return key.size() == 4 ? QStringLiteral("%1 · %2 · repeat %3").arg(key[0], armLabel(key[1]), key[3]) : item;
}

QString ContaminationReport::summary() const
{
    if (transcriptsRead == 0)
        return QStringLiteral("No transcripts to check.");
    if (!cliHarness.isEmpty())
        return cliSummary(*this);
    QString text = promptsMatch ? QStringLiteral("The system prompts with and without the skill are identical but for "
                                                 "the skill.")
                                : QStringLiteral("The system prompts differ beyond the skill (in %1 variants without "
                                                 "it, %2 with it).")
                                      .arg(arms[0].variants)
                                      .arg(arms[1].variants);
    text += arms[0].skillsSeen.isEmpty() ? QStringLiteral(" Without the skill, the student saw no skill;")
                                         : QStringLiteral(" Without the skill, the student saw skills: %1;")
                                               .arg(arms[0].skillsSeen.join(QStringLiteral(", ")));
    text +=
        QStringLiteral(" with the skill, it saw: %1.")
            .arg(arms[1].skillsSeen.isEmpty() ? QStringLiteral("none") : arms[1].skillsSeen.join(QStringLiteral(", ")));
    if (arms[1].skillsSeen.isEmpty())
        text += QStringLiteral(" The with-skill prompts carried no skill section: check that the skill was delivered.");
    if (skillLinesChecked == 0)
        text += QStringLiteral(" The skill's text was not available to search for.");
    else if (leaks.isEmpty())
        text += QStringLiteral(" None of the skill's %1 distinctive lines reached an item without the skill.")
                    .arg(skillLinesChecked);
    else
        text += QStringLiteral(" The skill's text reached %1 messages of items without the skill.").arg(leaks.size());
    return text;
}

QJsonObject ContaminationReport::toJson() const
{
    QJsonArray armList;
    for (const ArmPrompt &a : arms)
        armList.append(QJsonObject{{QStringLiteral("arm"), a.arm},
                                   {QStringLiteral("fixed_prompt_hash"), a.fixedHash},
                                   {QStringLiteral("fixed_prompt_variants"), a.variants},
                                   {QStringLiteral("skills_seen"), QJsonArray::fromStringList(a.skillsSeen)}});
    QJsonArray leakList;
    for (const Leak &l : leaks)
        leakList.append(QJsonObject{
            {QStringLiteral("item"), l.item}, {QStringLiteral("where"), l.where}, {QStringLiteral("line"), l.line}});
    return {{QStringLiteral("arms"), armList},
            {QStringLiteral("prompts_identical_but_for_the_skill"), promptsMatch},
            {QStringLiteral("transcripts_read"), transcriptsRead},
            {QStringLiteral("skill_lines_checked"), skillLinesChecked},
            {QStringLiteral("skill_text_in_baseline"), leakList},
            {QStringLiteral("cli_harness"), cliHarness},
            {QStringLiteral("cli_version"), cliVersion},
            {QStringLiteral("summary"), summary()}};
}

} // namespace sf
