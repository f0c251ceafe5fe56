#include "RunName.h"

#include "agents/Harness.h"

#include <QDateTime>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <functional>

namespace sf {

namespace {

const QString kSeparator = QStringLiteral(" · ");

QDateTime startOf(const RunManifest &run)
{
    return QDateTime::fromString(run.startedAt, Qt::ISODate).toUTC();
}

QString minuteOf(const RunManifest &run)
{
    const QDateTime started = startOf(run);
    return started.isValid() ? started.toString(QStringLiteral("yyyy-MM-dd HH:mm")) : QString();
}

QString suiteOf(const RunManifest &run)
{
    return run.suitePath.isEmpty() ? QString() : QFileInfo(run.suitePath).completeBaseName();
}

/// What a run is of, before anything tells it apart from another: its skill and the skill's version, else its suite,
/// else its id.
QString baseOf(const RunManifest &run)
{
    if (!run.skillName.isEmpty())
        return run.skillVersion.isEmpty() ? run.skillName : run.skillName + u' ' + skillVersionText(run.skillVersion);
    if (const QString suite = suiteOf(run); !suite.isEmpty())
        return suite;
    return run.runId;
}

QString harnessOf(const RunManifest &run)
{
    const QString name = run.harness.value(QStringLiteral("name")).toString();
    return name.isEmpty() ? QString() : Harness::label(name);
}

/// The student models of every run, as short as stays unambiguous across @p runs: without the "provider:" prefix
/// where no two models then read the same.
QHash<QString, QString> shortModelNames(const QList<RunManifest> &runs)
{
    QHash<QString, QStringList> byShort;
    for (const RunManifest &run : runs) {
        for (const RunModel &model : run.models) {
            const QString shortName = model.name.mid(model.name.indexOf(u':') + 1);
            if (!byShort[shortName].contains(model.name))
                byShort[shortName].append(model.name);
        }
    }
    QHash<QString, QString> names;
    for (auto it = byShort.cbegin(); it != byShort.cend(); ++it) {
        for (const QString &full : it.value())
            names.insert(full, it.value().size() == 1 ? it.key() : full);
    }
    return names;
}

} // namespace

QString skillVersionText(const QString &version)
{
    // A stored version's id is its UTC time plus a random suffix (SkillVersionStore): the time is what a person reads.
    static const QRegularExpression storedId(QStringLiteral("^(\\d{8}T\\d{6}Z)-[0-9a-f]+$"));
    if (const QRegularExpressionMatch match = storedId.match(version); match.hasMatch()) {
        const QDateTime time = QDateTime::fromString(match.captured(1), QStringLiteral("yyyyMMdd'T'HHmmss'Z'"));
        if (time.isValid())
            return QStringLiteral("version of %1").arg(time.toString(QStringLiteral("yyyy-MM-dd HH:mm")));
    }
    return version;
}

QStringList runNames(const QList<RunManifest> &runs, RunNaming naming)
{
    const QHash<QString, QString> modelNames = shortModelNames(runs);
    QStringList names;
    for (const RunManifest &run : runs)
        names.append(baseOf(run));

    // Each part joins the names of runs that still share one, only where it differs among them.
    struct Part
    {
        std::function<QString(const RunManifest &)> value;
        QString separator;
    };
    const QList<Part> parts{
        {[&modelNames](const RunManifest &run) {
             QStringList models;
             for (const RunModel &model : run.models)
                 models.append(modelNames.value(model.name, model.name));
             return models.join(QStringLiteral(", "));
         },
         kSeparator},
        {[](const RunManifest &run) { return run.skillName.isEmpty() ? QString() : suiteOf(run); }, kSeparator},
        {harnessOf, kSeparator},
        {[](const RunManifest &run) { return run.parameters.value(QStringLiteral("mode")).toString(); }, kSeparator},
    };
    const auto sharedNames = [&names] {
        QHash<QString, QList<int>> groups;
        for (int i = 0; i < names.size(); ++i)
            groups[names[i]].append(i);
        QList<QList<int>> shared;
        for (const QList<int> &group : std::as_const(groups)) {
            if (group.size() > 1)
                shared.append(group);
        }
        return shared;
    };
    for (const Part &part : parts) {
        for (const QList<int> &group : sharedNames()) {
            QSet<QString> values;
            for (const int i : group)
                values.insert(part.value(runs[i]));
            if (values.size() < 2)
                continue;
            for (const int i : group) {
                if (const QString value = part.value(runs[i]); !value.isEmpty())
                    names[i] += part.separator + value;
            }
        }
    }
    // When the run started, which a person remembers it by: in every name for lists, else where nothing else told
    // runs apart; to the second where the minute is shared.
    const QStringList beforeTime = names;
    QList<int> timed;
    if (naming == RunNaming::WithStart) {
        for (int i = 0; i < names.size(); ++i)
            timed.append(i);
    } else {
        for (const QList<int> &group : sharedNames())
            timed.append(group);
    }
    for (const int i : std::as_const(timed)) {
        if (const QString minute = minuteOf(runs[i]); !minute.isEmpty())
            names[i] += QStringLiteral(" (%1)").arg(minute);
    }
    for (const QList<int> &group : sharedNames()) {
        QSet<QDateTime> starts;
        for (const int i : group)
            starts.insert(startOf(runs[i]));
        if (starts.size() < 2)
            continue;
        for (const int i : group) {
            if (const QDateTime started = startOf(runs[i]); started.isValid())
                names[i] = QStringLiteral("%1 (%2)").arg(beforeTime[i],
                                                         started.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
        }
    }
    // Alike in everything a person can see: numbered in list order.
    for (const QList<int> &group : sharedNames()) {
        for (qsizetype n = 1; n < group.size(); ++n)
            names[group[n]] += QStringLiteral(" #%1").arg(n + 1);
    }
    return names;
}

QStringList distinctParts(const QStringList &names)
{
    if (names.size() < 2)
        return names;
    // The longest start all names share, cut back to a word's end.
    qsizetype common = names.first().size();
    for (const QString &name : names) {
        qsizetype i = 0;
        while (i < common && i < name.size() && name[i] == names.first()[i])
            ++i;
        common = i;
    }
    qsizetype cut = 0;
    for (qsizetype i = 0; i < common; ++i) {
        if (names.first()[i] == u' ')
            cut = i + 1;
    }
    QStringList distinct;
    for (const QString &name : names) {
        QString rest = name.mid(cut);
        while (rest.startsWith(u'·') || rest.startsWith(u' '))
            rest.remove(0, 1);
        if (rest.isEmpty())
            return names; // one name is all another starts with: only the whole names tell them apart
        distinct.append(rest);
    }
    return distinct;
}

QString runName(const RunManifest &run)
{
    return runNames({run}).constFirst();
}

QString runDescription(const RunManifest &run)
{
    QStringList lines{QStringLiteral("Run %1").arg(run.runId)};
    if (!run.skillName.isEmpty())
        lines.append(run.skillVersion.isEmpty()
                         ? QStringLiteral("Skill: %1").arg(run.skillName)
                         : QStringLiteral("Skill: %1, %2").arg(run.skillName, skillVersionText(run.skillVersion)));
    QStringList models;
    for (const RunModel &model : run.models)
        models.append(model.name);
    if (!models.isEmpty())
        lines.append(QStringLiteral("Models: %1").arg(models.join(QStringLiteral(", "))));
    if (!run.suitePath.isEmpty())
        lines.append(QStringLiteral("Suite: %1").arg(QFileInfo(run.suitePath).fileName()));
    if (const QString harness = harnessOf(run); !harness.isEmpty())
        lines.append(QStringLiteral("Student driven by: %1 %2")
                         .arg(harness, run.harness.value(QStringLiteral("version")).toString())
                         .trimmed());
    if (const QString mode = run.parameters.value(QStringLiteral("mode")).toString(); !mode.isEmpty())
        lines.append(QStringLiteral("Mode: %1").arg(mode));
    if (const QDateTime started = startOf(run); started.isValid())
        lines.append(QStringLiteral("Started: %1 UTC").arg(started.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))));
    if (!run.status.isEmpty())
        lines.append(QStringLiteral("Status: %1").arg(run.status));
    return lines.join(u'\n');
}

} // namespace sf
