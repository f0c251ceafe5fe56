#include "SkillDraft.h"

#include <QRegularExpression>

namespace sf {

namespace {

const QRegularExpression &fileLine()
{
    static const QRegularExpression re(QStringLiteral(R"(^[ \t]*={3,}[ \t]*FILE:[ \t]*(.+?)[ \t]*={3,}[ \t]*$)"),
                                       QRegularExpression::MultilineOption);
    return re;
}

QString checkPath(const QString &path)
{
    if (path.isEmpty()) {
        return QStringLiteral("a file line names no path");
    }
    if (path.startsWith(u'/') || path.contains(u'\\') || path.split(u'/').contains(QStringLiteral("..")) ||
        path.split(u'/').contains(QString())) {
        return QStringLiteral("the path \"%1\" leaves the skill folder or is not a plain relative path").arg(path);
    }
    if (path != u"SKILL.md" && !path.startsWith(u"references/") && !path.startsWith(u"scripts/") &&
        !path.startsWith(u"assets/")) {
        return QStringLiteral("the path \"%1\" is not SKILL.md or under references/, scripts/ or assets/").arg(path);
    }
    return {};
}

} // namespace

// Models like to wrap a whole file in ```markdown ... ```; the fence is not part of the file.
QString SkillDraft::unwrapFence(const QString &content)
{
    static const QRegularExpression fenced(QStringLiteral(R"(^\s*```[A-Za-z0-9_+-]*[ \t]*\n(.*)\n```\s*$)"),
                                           QRegularExpression::DotMatchesEverythingOption);
    const QRegularExpressionMatch match = fenced.match(content);
    return match.hasMatch() ? match.captured(1) + u'\n' : content;
}

SkillDraft SkillDraft::parse(const QString &reply)
{
    SkillDraft draft;
    QList<QRegularExpressionMatch> markers;
    QRegularExpressionMatchIterator it = fileLine().globalMatch(reply);
    while (it.hasNext()) {
        markers.append(it.next());
    }
    if (markers.isEmpty()) {
        const QString whole = unwrapFence(reply).trimmed();
        if (whole.startsWith(QStringLiteral("---"))) {
            draft.files.insert(QStringLiteral("SKILL.md"), (whole + u'\n').toUtf8());
        } else {
            draft.problems.append(QStringLiteral("the reply is not a skill: it neither starts with SKILL.md's front "
                                                 "matter (a \"---\" line, then name and description) nor marks its "
                                                 "files with lines such as \"=== FILE: SKILL.md ===\""));
        }
        return draft;
    }
    if (!reply.left(markers.first().capturedStart()).trimmed().isEmpty()) {
        draft.problems.append(QStringLiteral("text before the first file line was ignored"));
    }
    for (qsizetype i = 0; i < markers.size(); ++i) {
        const QString path = markers.at(i).captured(1).trimmed();
        const qsizetype start = markers.at(i).capturedEnd() + 1;
        const qsizetype end = i + 1 < markers.size() ? markers.at(i + 1).capturedStart() : reply.size();
        if (const QString problem = checkPath(path); !problem.isEmpty()) {
            draft.problems.append(problem + QStringLiteral("; the file was left out"));
            continue;
        }
        if (draft.files.contains(path)) {
            draft.problems.append(QStringLiteral("%1 was written twice; the last one was kept").arg(path));
        }
        QString content = unwrapFence(reply.mid(start, qMax<qsizetype>(0, end - start)));
        while (content.endsWith(QStringLiteral("\n\n"))) {
            content.chop(1);
        }
        if (!content.endsWith(u'\n')) {
            content += u'\n';
        }
        draft.files.insert(path, content.toUtf8());
    }
    if (!draft.files.contains(QStringLiteral("SKILL.md"))) {
        draft.problems.append(QStringLiteral("the reply has no SKILL.md"));
    }
    return draft;
}

QString SkillDraft::format(const QMap<QString, QByteArray> &files)
{
    QString text;
    // SKILL.md first, as the teacher is asked to write it.
    auto add = [&text](const QString &path, const QByteArray &content) {
        text += QStringLiteral("=== FILE: %1 ===\n").arg(path) + QString::fromUtf8(content);
        if (!text.endsWith(u'\n')) {
            text += u'\n';
        }
    };
    if (files.contains(QStringLiteral("SKILL.md"))) {
        add(QStringLiteral("SKILL.md"), files.value(QStringLiteral("SKILL.md")));
    }
    for (auto it = files.begin(); it != files.end(); ++it) {
        if (it.key() != u"SKILL.md") {
            add(it.key(), it.value());
        }
    }
    return text;
}

} // namespace sf
