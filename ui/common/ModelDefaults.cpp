#include "common/ModelDefaults.h"

#include "llm/ChatClient.h"
#include "llm/LocalRuntime.h"
#include "project/AppSettings.h"
#include "project/Project.h"

#include <QRegularExpression>

namespace sf {

QStringList defaultStudentModels(const Project &project, const ChatClient *chat)
{
    const QStringList last = AppSettings().lastStudentModels();
    if (!last.isEmpty())
        return last;
    QStringList students{LocalRuntime::qualifiedModelName()};
    for (const QString &model : project.defaults().students) {
        if (!students.contains(model) && !model.startsWith(QLatin1String("local:")) && chat && chat->isSetUp(model))
            students.append(model);
    }
    return students;
}

QString defaultTeacherModel(const Project &project)
{
    const QString last = AppSettings().lastTeacherModel();
    return last.isEmpty() ? project.defaults().teacher : last;
}

void rememberStudentModels(const QStringList &models)
{
    if (!models.isEmpty())
        AppSettings().setLastStudentModels(models);
}

void rememberTeacherModel(const QString &model)
{
    if (!model.isEmpty())
        AppSettings().setLastTeacherModel(model);
}

QStringList parseModelList(const QString &text)
{
    QStringList models;
    static const QRegularExpression separators(QStringLiteral("[,\\n]"));
    for (const QString &part : text.split(separators, Qt::SkipEmptyParts)) {
        const QString model = part.trimmed();
        if (!model.isEmpty() && !models.contains(model))
            models.append(model);
    }
    return models;
}

} // namespace sf
