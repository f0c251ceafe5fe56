#include "common/ModelDefaults.h"

#include "llm/ChatClient.h"
#include "llm/LocalRuntime.h"
#include "llm/ModelName.h"
#include "llm/ProviderRegistry.h"
#include "project/AppSettings.h"
#include "project/Project.h"

#include <QComboBox>
#include <QMenu>
#include <QRegularExpression>
#include <QToolButton>

namespace sf {

namespace {

ModelChoice choiceFor(const QString &model, const ChatClient *chat)
{
    ModelChoice choice{model, {}, {}};
    if (!chat)
        return choice;
    const QString why = chat->whyUnavailable(model);
    const Result<ModelName> name = ModelName::parse(model);
    const ProviderConfig *provider = name ? chat->providers().find(name.value->provider) : nullptr;
    choice.detail = why;
    if (!provider) {
        choice.problem = QObject::tr("unknown provider");
    } else if (provider->name == QLatin1String("local")) {
        choice.problem = why.isEmpty() ? QString() : QObject::tr("not installed");
    } else if (provider->apiKeyRequired && chat->providers().apiKey(*provider).isEmpty()) {
        choice.problem = QObject::tr("no key");
    } else if (!why.isEmpty() || !chat->isSetUp(model)) {
        choice.problem = QObject::tr("not set up");
        if (choice.detail.isEmpty())
            choice.detail = QObject::tr("%1 has Skillforge's defaults only: set its address or add it in Settings › "
                                        "Providers once a server is there.")
                                .arg(provider->name);
    }
    return choice;
}

QString listedText(const ModelChoice &choice)
{
    return choice.problem.isEmpty() ? choice.model : QStringLiteral("%1 (%2)").arg(choice.model, choice.problem);
}

} // namespace

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

QString defaultTeacherModel(const Project &project, const ChatClient *chat)
{
    if (const QString last = AppSettings().lastTeacherModel(); !last.isEmpty())
        return last;
    const QString projects = project.defaults().teacher;
    if (!chat || (!projects.isEmpty() && chat->isSetUp(projects)))
        return projects;
    // A new user has no key for the project's teacher: start on a model that answers.
    for (const ModelChoice &choice : modelChoices(project, chat)) {
        if (choice.problem.isEmpty())
            return choice.model;
    }
    return projects;
}

void rememberStudentModels(const QStringList &models)
{
    if (models.isEmpty())
        return;
    AppSettings settings;
    settings.setLastStudentModels(models);
    settings.addRecentModels(models);
}

void rememberTeacherModel(const QString &model)
{
    if (model.isEmpty())
        return;
    AppSettings settings;
    settings.setLastTeacherModel(model);
    settings.addRecentModels({model});
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

QString withModelAdded(const QString &text, const QString &model, const QString &separator)
{
    QStringList models = parseModelList(text);
    if (!models.contains(model))
        models.append(model);
    return models.join(separator);
}

QList<ModelChoice> modelChoices(const Project &project, const ChatClient *chat)
{
    const AppSettings settings;
    QStringList candidates = settings.recentModels();
    if (const QString teacher = settings.lastTeacherModel(); !teacher.isEmpty())
        candidates.append(teacher);
    candidates += settings.lastStudentModels();
    candidates.append(LocalRuntime::qualifiedModelName());
    if (!project.defaults().teacher.isEmpty())
        candidates.append(project.defaults().teacher);
    candidates += project.defaults().students;
    candidates.removeDuplicates();

    QList<ModelChoice> ready;
    QList<ModelChoice> notReady;
    for (const QString &model : std::as_const(candidates)) {
        if (model.trimmed().isEmpty())
            continue;
        const ModelChoice choice = choiceFor(model.trimmed(), chat);
        (choice.problem.isEmpty() ? ready : notReady).append(choice);
    }
    return ready + notReady;
}

void offerModels(QComboBox *combo, const QList<ModelChoice> &choices, const QString &current)
{
    combo->clear();
    combo->setEditable(true);
    combo->setInsertPolicy(QComboBox::NoInsert);
    bool separated = false;
    for (const ModelChoice &choice : choices) {
        if (!choice.problem.isEmpty() && !separated && combo->count() > 0) {
            combo->insertSeparator(combo->count());
            separated = true;
        }
        combo->addItem(listedText(choice), choice.model);
        combo->setItemData(combo->count() - 1, choice.detail.isEmpty() ? choice.model : choice.detail, Qt::ToolTipRole);
    }
    // The list says why a model cannot be called; the field holds the name alone, as it is sent.
    QObject::connect(combo, &QComboBox::currentIndexChanged, combo, [combo](int index) {
        const QString model = combo->itemData(index).toString();
        if (index >= 0 && !model.isEmpty() && combo->currentText() != model)
            combo->setEditText(model);
    });
    const int at = combo->findData(current);
    if (at >= 0)
        combo->setCurrentIndex(at);
    combo->setEditText(current);
    combo->setToolTip(QObject::tr("PROVIDER:MODEL: pick one, or type any model of a provider you set up "
                                  "(e.g. openai:gpt-4.1, ollama:llama3.1)"));
}

QToolButton *addModelButton(QWidget *parent, const QList<ModelChoice> &choices,
                            std::function<void(const QString &)> add)
{
    auto *button = new QToolButton(parent);
    button->setText(QStringLiteral("+"));
    button->setObjectName(QStringLiteral("addModel"));
    button->setToolTip(QObject::tr("Add a model: recently used, the embedded one, the project's"));
    button->setAccessibleName(QObject::tr("Add a model"));
    button->setPopupMode(QToolButton::InstantPopup);
    auto *menu = new QMenu(button);
    bool separated = false;
    for (const ModelChoice &choice : choices) {
        if (!choice.problem.isEmpty() && !separated && !menu->isEmpty()) {
            menu->addSeparator();
            separated = true;
        }
        QAction *action = menu->addAction(listedText(choice));
        action->setToolTip(choice.detail);
        QObject::connect(action, &QAction::triggered, button, [add, model = choice.model] { add(model); });
    }
    menu->setToolTipsVisible(true);
    button->setMenu(menu);
    button->setEnabled(!choices.isEmpty());
    return button;
}

} // namespace sf
