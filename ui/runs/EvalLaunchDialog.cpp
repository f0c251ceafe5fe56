#include "runs/EvalLaunchDialog.h"

#include "project/Project.h"
#include "suite/SuiteEditor.h"
#include "suite/SuiteEditorDialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace sf {

EvalLaunchDialog::EvalLaunchDialog(const Project &project, QWidget *parent)
    : QDialog(parent)
    , m_project(project)
    , m_runsDir(project.runsPath())
    , m_skill(new QComboBox(this))
    , m_suite(new QComboBox(this))
    , m_models(new QLineEdit(this))
    , m_repeats(new QSpinBox(this))
    , m_mode(new QComboBox(this))
    , m_concurrency(new QSpinBox(this))
    , m_tools(new QCheckBox(tr("Offer the student file and shell tools (sandboxed)"), this))
    , m_judge(new QLineEdit(this))
{
    setWindowTitle(tr("New Evaluation"));
    for (const ProjectItem &skill : project.items(ProjectItem::Kind::Skill))
        m_skill->addItem(skill.name, skill.path);
    m_suite->setObjectName(QStringLiteral("suiteChoice"));
    listSuites({});
    QStringList students = project.defaults().students;
    if (students.isEmpty())
        students = {QStringLiteral("local:gemma3-270m")};
    m_models->setText(students.join(QStringLiteral(", ")));
    m_models->setPlaceholderText(QStringLiteral("local:gemma3-270m, openai:gpt-4.1-mini"));
    m_repeats->setRange(1, 50);
    m_repeats->setValue(std::max(1, project.defaults().repeats));
    m_mode->addItem(tr("Inline (the skill's body in the system prompt)"), QStringLiteral("inline"));
    m_mode->addItem(tr("Agentic (listed; the model loads it with a tool)"), QStringLiteral("agentic"));
    m_mode->setCurrentIndex(project.defaults().skillDelivery == QLatin1String("agentic") ? 1 : 0);
    m_concurrency->setRange(1, 64);
    m_concurrency->setValue(4);
    m_tools->setChecked(true);
    m_judge->setPlaceholderText(tr("only needed for llm_judge verifiers"));

    auto *form = new QFormLayout(this);
    form->addRow(tr("Skill:"), m_skill);
    auto *suiteRow = new QHBoxLayout;
    suiteRow->addWidget(m_suite, 1);
    auto *editSuite = new QPushButton(tr("Edit Suite…"), this);
    editSuite->setObjectName(QStringLiteral("editSuite"));
    suiteRow->addWidget(editSuite);
    connect(editSuite, &QPushButton::clicked, this, &EvalLaunchDialog::editSuite);
    form->addRow(tr("Test suite:"), suiteRow);
    form->addRow(tr("Student models:"), m_models);
    form->addRow(tr("Repeats:"), m_repeats);
    form->addRow(tr("Skill delivery:"), m_mode);
    form->addRow(tr("Concurrency:"), m_concurrency);
    form->addRow(QString(), m_tools);
    form->addRow(tr("Judge model:"), m_judge);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Run"));
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_models, &QLineEdit::textChanged, this, &EvalLaunchDialog::updateOk);
    updateOk();
}

void EvalLaunchDialog::listSuites(const QString &select)
{
    m_suite->clear();
    m_suite->addItem(tr("The skill's own tests"), QString());
    for (const ProjectItem &suite : m_project.items(ProjectItem::Kind::TestSuite))
        m_suite->addItem(suite.name, suite.path);
    const int at = m_suite->findData(select);
    if (at >= 0)
        m_suite->setCurrentIndex(at);
}

void EvalLaunchDialog::editSuite()
{
    SuiteEditorDialog dialog(m_project.testsPath(), this);
    QString path = m_suite->currentData().toString();
    // The skill's own tests are editable when they are skill-creator's evals.json; saving them asks for a new
    // file in Skillforge's format (skill_meta.json's tests stay the generator's).
    if (path.isEmpty() && m_skill->count() > 0) {
        const QString evals = QDir(m_skill->currentData().toString()).filePath(QStringLiteral("evals/evals.json"));
        if (QFileInfo::exists(evals))
            path = evals;
    }
    if (path.isEmpty())
        dialog.editor()->newSuite();
    else
        dialog.editor()->openFile(path);
    QString saved = m_suite->currentData().toString();
    connect(dialog.editor(), &SuiteEditor::saved, this, [&saved](const QString &file) { saved = file; });
    dialog.exec();
    listSuites(saved); // a suite saved under a new name in tests/ becomes selectable, and selected
}

void EvalLaunchDialog::updateOk()
{
    auto *buttons = findChild<QDialogButtonBox *>();
    buttons->button(QDialogButtonBox::Ok)->setEnabled(m_skill->count() > 0 && !plan().config.models.isEmpty());
}

EvalPlan EvalLaunchDialog::plan() const
{
    EvalPlan plan;
    plan.skillDir = m_skill->currentData().toString();
    plan.suitePath = m_suite->currentData().toString();
    plan.runsDir = m_runsDir;
    for (const QString &model : m_models->text().split(u',', Qt::SkipEmptyParts)) {
        if (!model.trimmed().isEmpty())
            plan.config.models.append(model.trimmed());
    }
    plan.config.runs = m_repeats->value();
    plan.config.mode = m_mode->currentData().toString();
    plan.config.concurrency = m_concurrency->value();
    plan.config.studentTools = m_tools->isChecked();
    plan.config.judgeModel = m_judge->text().trimmed();
    return plan;
}

} // namespace sf
