#include "runs/EvalLaunchDialog.h"

#include "agents/Harness.h"
#include "cluster/EvalLaunch.h"
#include "common/ExecutorChoiceBox.h"
#include "common/HarnessChoice.h"
#include "common/ModelDefaults.h"
#include "common/TokenEstimate.h"
#include "eval/EffectiveConcurrency.h"
#include "eval/StudentTools.h"
#include "llm/ChatClient.h"
#include "llm/LocalRuntime.h"
#include "project/AppSettings.h"
#include "project/Project.h"
#include "suite/SuiteEditor.h"
#include "suite/SuiteEditorDialog.h"
#include "usage/Pricing.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>

namespace sf {

EvalLaunchDialog::EvalLaunchDialog(const Project &project, const ChatClient *chat, QWidget *parent)
    : QDialog(parent)
    , m_project(project)
    , m_chat(chat)
    , m_runsDir(project.runsPath())
    , m_skill(new QComboBox(this))
    , m_suite(new QComboBox(this))
    , m_models(new QPlainTextEdit(this))
    , m_repeats(new QSpinBox(this))
    , m_repeatsForEveryCase(new QCheckBox(this))
    , m_harness(new HarnessChoice(this, chat ? &chat->providers() : nullptr))
    , m_mode(new QComboBox(this))
    , m_concurrency(new QSpinBox(this))
    , m_tools(new QComboBox(this))
    , m_judge(new QLineEdit(this))
    , m_maxCost(new QDoubleSpinBox(this))
    , m_executor(new ExecutorChoiceBox(this))
    , m_summary(new QLabel(this))
{
    setWindowTitle(tr("New Evaluation"));
    // Room for whole model names and the plan's summary: it opened at 447x270, the models scrolled mid-name.
    setMinimumWidth(620);
    for (const ProjectItem &skill : project.items(ProjectItem::Kind::Skill))
        m_skill->addItem(skill.name, skill.path);
    m_skill->setObjectName(QStringLiteral("skillChoice"));
    m_suite->setObjectName(QStringLiteral("suiteChoice"));
    const AppSettings settings;
    // The suite last run, else the project's first: a suite that exists beats the skill's own tests, which many
    // skills lack.
    const QString last = settings.lastEvalSuite();
    const QList<ProjectItem> suites = project.items(ProjectItem::Kind::TestSuite);
    const bool lastIsHere =
        std::any_of(suites.cbegin(), suites.cend(), [&last](const ProjectItem &item) { return item.path == last; });
    listSuites(lastIsHere ? last : suites.isEmpty() ? QString() : suites.first().path);
    m_models->setPlainText(defaultStudentModels(project, chat).join(u'\n'));
    m_models->setPlaceholderText(QStringLiteral("%1\nopenai:gpt-4.1-mini").arg(LocalRuntime::qualifiedModelName()));
    m_models->setToolTip(tr("PROVIDER:MODEL, one per line (commas work too). The models of the last run are "
                            "offered first."));
    m_models->setObjectName(QStringLiteral("studentModels"));
    m_models->setTabChangesFocus(true);
    m_models->setFixedHeight(m_models->fontMetrics().lineSpacing() * 4 + 12);
    m_repeats->setObjectName(QStringLiteral("repeats"));
    m_repeats->setRange(1, 50);
    m_repeats->setToolTip(tr("How often each case runs per model and arm, unless the case says itself"));
    m_repeats->setValue(settings.lastEvalRepeats() > 0 ? settings.lastEvalRepeats()
                                                       : std::max(1, project.defaults().repeats));
    m_repeatsForEveryCase->setObjectName(QStringLiteral("repeatsForEveryCase"));
    m_repeatsForEveryCase->setToolTip(tr("Unchecked, a case that sets its own repeats in the suite runs that often"));
    m_repeatsForEveryCase->setVisible(false); // shown when the suite has cases with repeats of their own
    m_mode->addItem(tr("Inline (the skill's body in the system prompt)"), QStringLiteral("inline"));
    m_mode->addItem(tr("Agentic (listed; the model loads it with a tool)"), QStringLiteral("agentic"));
    m_mode->setCurrentIndex(project.defaults().skillDelivery == QLatin1String("agentic") ? 1 : 0);
    m_concurrency->setObjectName(QStringLiteral("concurrency"));
    m_concurrency->setRange(1, 64);
    m_concurrency->setValue(settings.lastEvalConcurrency() > 0 ? settings.lastEvalConcurrency() : 4);
    // Where a case needs them only, by default: a question answered in text gains nothing from tools, and a small
    // model offered them loops through calls (ToolOffer.h).
    m_tools->addItem(tr("Where a case needs them (files, a workspace verifier, agentic mode)"), int(ToolOffer::Auto));
    m_tools->addItem(tr("In every case"), int(ToolOffer::Always));
    m_tools->addItem(tr("Never (the model cannot call tools)"), int(ToolOffer::Never));
    m_judge->setPlaceholderText(tr("only needed for llm_judge verifiers"));
    m_maxCost->setObjectName(QStringLiteral("maxCost"));
    m_maxCost->setRange(0, 1e6);
    m_maxCost->setDecimals(2);
    m_maxCost->setSingleStep(0.5);
    m_maxCost->setPrefix(QStringLiteral("$"));
    m_maxCost->setSpecialValueText(tr("No cap"));
    m_maxCost->setToolTip(tr("No item starts once the spend so far, the items running and what the next item may "
                             "cost would pass the cap; the run stops and Resume carries on. Each request is priced "
                             "on its own."));

    auto *form = new QFormLayout(this);
    form->addRow(tr("Skill:"), m_skill);
    auto *suiteRow = new QHBoxLayout;
    suiteRow->addWidget(m_suite, 1);
    auto *editSuite = new QPushButton(tr("Edit Suite…"), this);
    editSuite->setObjectName(QStringLiteral("editSuite"));
    suiteRow->addWidget(editSuite);
    connect(editSuite, &QPushButton::clicked, this, &EvalLaunchDialog::editSuite);
    form->addRow(tr("Test suite:"), suiteRow);
    auto *modelsRow = new QHBoxLayout;
    modelsRow->addWidget(m_models, 1);
    modelsRow->addWidget(addModelButton(this, modelChoices(project, chat),
                                        [this](const QString &model) {
                                            m_models->setPlainText(
                                                withModelAdded(m_models->toPlainText(), model, QStringLiteral("\n")));
                                        }),
                         0, Qt::AlignTop);
    form->addRow(tr("Student models:"), modelsRow);
    m_harness->addRowsTo(form);
    auto *repeatsRow = new QHBoxLayout;
    repeatsRow->addWidget(m_repeats);
    repeatsRow->addWidget(m_repeatsForEveryCase, 1);
    form->addRow(tr("Repeats:"), repeatsRow);
    form->addRow(tr("Skill delivery:"), m_mode);
    form->addRow(tr("Concurrency:"), m_concurrency);
    form->addRow(tr("Student tools:"), m_tools);
    form->addRow(tr("Judge model:"), m_judge);
    form->addRow(tr("Spending cap:"), m_maxCost);
    form->addRow(tr("Run heavy work on:"), m_executor);
    m_summary->setObjectName(QStringLiteral("planSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    form->addRow(m_summary);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Run"));
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_models, &QPlainTextEdit::textChanged, this, &EvalLaunchDialog::updateSummary);
    connect(m_judge, &QLineEdit::textChanged, this, &EvalLaunchDialog::updateSummary);
    connect(m_maxCost, &QDoubleSpinBox::valueChanged, this, &EvalLaunchDialog::updateSummary);
    connect(m_suite, &QComboBox::currentIndexChanged, this, &EvalLaunchDialog::updateSummary);
    connect(m_repeats, &QSpinBox::valueChanged, this, &EvalLaunchDialog::updateSummary);
    connect(m_repeatsForEveryCase, &QCheckBox::toggled, this, &EvalLaunchDialog::updateSummary);
    connect(m_concurrency, &QSpinBox::valueChanged, this, &EvalLaunchDialog::updateSummary);
    connect(m_executor, &ExecutorChoiceBox::changed, this, &EvalLaunchDialog::updateSummary);
    connect(m_skill, &QComboBox::currentIndexChanged, this, [this] { listSuites(m_suite->currentData().toString()); });
    connect(m_harness, &HarnessChoice::changed, this, &EvalLaunchDialog::harnessChanged);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &EvalLaunchDialog::updateSummary);
    harnessChanged();
}

bool EvalLaunchDialog::isLookingForCli() const
{
    return m_harness->isLookingForCli();
}

bool EvalLaunchDialog::selectSkillDir(const QString &skillDir)
{
    const int index = skillDir.isEmpty() ? -1 : m_skill->findData(QDir::cleanPath(skillDir));
    if (index >= 0)
        m_skill->setCurrentIndex(index);
    return index >= 0;
}

void EvalLaunchDialog::harnessChanged()
{
    const QString harness = m_harness->harness();
    const bool cli = Harness::isAgentCli(harness);
    // The CLI finds the skill and brings its tools itself: the loop's settings for them do not apply.
    m_mode->setEnabled(!cli);
    m_mode->setToolTip(cli ? tr("%1 discovers the skill itself: it is installed in the with-skill arm's workspace "
                                "(%2NAME/), listed by its name and description, and loaded when the model chooses "
                                "to.")
                                 .arg(Harness::label(harness), HarnessChoice::skillsFolderOf(harness))
                           : tr("How Skillforge's loop gives the student the skill"));
    m_tools->setEnabled(!cli);
    m_tools->setToolTip(cli ? tr("%1 brings its own tools, run in the sandbox").arg(Harness::label(harness))
                            : QString());
    updateSummary();
}

QStringList EvalLaunchDialog::harnessLines(const EvalConfig &config, bool *ready) const
{
    const QString harness = config.harness;
    if (!Harness::isAgentCli(harness)) {
        return {config.mode == QLatin1String("agentic")
                    ? tr("Skillforge's loop lists the skill and offers a tool to load it: this measures whether the "
                         "model loads it and what it does then, in a loop no user's agent runs.")
                    : tr("Skillforge's loop puts the skill's body in the system prompt: this measures what the skill's "
                         "text does once the model has it, not whether a model would choose to load it.")};
    }
    const QString label = Harness::label(harness);
    QStringList lines{tr("%1 runs once per item in the sandbox, with a fresh workspace and home; the with-skill arm "
                         "gets the skill in %2, where %1 finds it. This measures the skill as users deploy it: whether "
                         "%1 loads it (reported per model) and what it does once loaded.")
                          .arg(label, HarnessChoice::skillsFolderOf(harness))};
    lines << m_harness->statusLines(config.models);
    if (!m_harness->problem(config.models).isEmpty())
        *ready = false;
    return lines;
}

void EvalLaunchDialog::listSuites(const QString &select)
{
    const QSignalBlocker blocker(m_suite);
    m_readFor.clear(); // a suite saved from Edit Suite… is read again
    m_suite->clear();
    for (const ProjectItem &suite : m_project.items(ProjectItem::Kind::TestSuite))
        m_suite->addItem(suite.name, suite.path);
    if (m_skill->count() > 0 && hasSkillTestSuite(m_skill->currentData().toString()))
        m_suite->addItem(tr("The skill's own tests"), QString());
    const int at = m_suite->findData(select);
    if (at >= 0)
        m_suite->setCurrentIndex(at);
    updateSummary();
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

void EvalLaunchDialog::updateSummary()
{
    auto *buttons = findChild<QDialogButtonBox *>();
    if (!buttons)
        return; // still being built
    const EvalPlan p = plan();
    bool ready = m_skill->count() > 0 && m_suite->count() > 0 && !p.config.models.isEmpty();
    QStringList lines;
    if (m_skill->count() == 0)
        lines << tr("The project has no skill to evaluate yet.");
    else if (m_suite->count() == 0)
        lines << tr("There is no test suite for this skill yet: write one with Edit Suite….");
    if (ready) {
        // The files are read when the skill or suite changes, not on every keystroke in the models field.
        const QString readFor = p.skillDir + u'\n' + p.suitePath;
        if (m_readFor != readFor || !m_suiteRead) {
            m_readFor = readFor;
            m_suiteRead = p.suitePath.isEmpty() ? readSkillTestSuite(p.skillDir) : readTestSuite(p.suitePath);
            const auto skill = loadSkillUnderTest(p.skillDir);
            m_skillTokens = std::holds_alternative<SkillUnderTest>(skill)
                                ? estimateTokens(std::get<SkillUnderTest>(skill).body)
                                : 0;
        }
        if (const auto *error = std::get_if<LoadError>(&*m_suiteRead)) {
            lines << tr("The suite cannot be read: %1").arg(error->toString());
            m_executor->setNothingToSend({});
            ready = false;
        } else {
            if (!m_pace)
                m_pace = measuredPace(m_runsDir);
            const RunEstimate estimate =
                estimateRun(std::get<TestSuite>(*m_suiteRead), p.config, m_skillTokens, *m_pace);
            const auto count = [](qsizetype n, const QString &one, const QString &many) {
                return n == 1 ? one : many.arg(n);
            };
            // Cases with repeats of their own make Repeats a choice: say which wins, and let the user pick.
            m_repeatsForEveryCase->setVisible(estimate.casesOwnRepeats > 0);
            m_repeatsForEveryCase->setText(count(estimate.casesOwnRepeats, tr("also for the 1 case that sets its own"),
                                                 tr("also for the %1 cases that set their own")));
            QString line = tr("%1: %2 × 2 arms × each case's repeats")
                               .arg(count(estimate.items, tr("1 item"), tr("%1 items")),
                                    count(p.config.models.size(), tr("1 model"), tr("%1 models")));
            if (estimate.casesOwnRepeats > 0 && !p.config.runsForEveryCase)
                line += tr(" (%1 own repeats, which win over Repeats)")
                            .arg(count(estimate.casesOwnRepeats, tr("1 case keeps its"), tr("%1 cases keep their")));
            else if (estimate.casesOwnRepeats > 0)
                line += tr(" (Repeats for every case, the suite's own repeats set aside)");
            QString basis;
            if (estimate.guessed.isEmpty())
                basis = tr("at the pace earlier runs measured");
            else if (estimate.measured.isEmpty())
                basis = tr("a first guess: the first run measures the real pace");
            else
                basis =
                    tr("a first guess for %1, which never ran here").arg(estimate.guessed.join(QStringLiteral(", ")));
            lines << line + tr("; %1 (%2).").arg(roughDuration(estimate.seconds), basis);
            // Slurm only takes shell-command and CUDA kernel checks: a suite without them has nothing to send, and
            // must not fail on a scheduler it never needed (issue 35, item 14).
            const HeavyChecks heavy = heavyChecksIn(std::get<TestSuite>(*m_suiteRead));
            m_executor->setNothingToSend(
                heavy.any() ? QString()
                            : tr("This suite has no shell-command or CUDA kernel checks, the only work Slurm takes: "
                                 "everything runs on this machine."));
            if (!heavy.any() && m_executor->slurmAvailable())
                lines << tr("Nothing for Slurm: this suite's checks (text, files, judges) all run on this machine.");
            else if (executor().isSlurm())
                lines << tr("Slurm jobs (%1) run the suite's %2; model calls and the other checks stay here. Slurm "
                            "is asked first whether it takes them.")
                             .arg(executor().slurmOptionsText(), heavy.describe());
            if (const QString note = missingJudgeNote(std::get<TestSuite>(*m_suiteRead), p.config.judgeModel,
                                                      tr("Choose one in Judge model below."));
                !note.isEmpty())
                lines << note;
            // What the concurrency asked for becomes for each provider, and why (a limit the user set, the
            // embedded server's slots).
            if (m_chat) {
                QString concurrency = effectiveConcurrencyText(*m_chat, p.config);
                concurrency[0] = concurrency[0].toUpper();
                lines << concurrency + u'.';
            }
        }
    }
    if (m_skill->count() > 0 && m_suite->count() > 0)
        lines << harnessLines(p.config, &ready);
    if (const QStringList unpriced = Pricing::current()->unpricedOf(p.config.models);
        p.maxCostUsd && !unpriced.isEmpty()) {
        lines << tr("A spending cap needs a price for every student: %1.").arg(priceUnknownHint(unpriced));
        ready = false;
    }
    for (const QString &model : p.config.models) {
        const QString why = m_chat ? m_chat->whyUnavailable(model) : QString();
        if (!why.isEmpty())
            lines << tr("%1 cannot be reached: %2").arg(model, why);
    }
    m_summary->setText(lines.join(u'\n'));
    // A wrapped label in a form does not make the dialog taller by itself: as many lines as it holds, it asks for.
    m_summary->setMinimumHeight(m_summary->heightForWidth(std::max(m_summary->width(), 560)));
    if (isVisible())
        resize(width(), minimumSizeHint().height()); // and no taller than its fields and lines, or a gap opens
    buttons->button(QDialogButtonBox::Ok)->setEnabled(ready);
}

QString EvalLaunchDialog::summaryText() const
{
    return m_summary->text();
}

void EvalLaunchDialog::accept()
{
    const EvalPlan p = plan();
    rememberStudentModels(p.config.models);
    AppSettings settings;
    settings.setLastEvalSuite(p.suitePath);
    settings.setLastEvalRepeats(p.config.runs);
    settings.setLastEvalConcurrency(p.config.concurrency);
    m_executor->remember();
    m_harness->remember();
    QDialog::accept();
}

ExecutorChoice EvalLaunchDialog::executor() const
{
    return m_executor->choice();
}

EvalPlan EvalLaunchDialog::plan() const
{
    EvalPlan plan;
    plan.skillDir = m_skill->currentData().toString();
    plan.suitePath = m_suite->currentData().toString();
    plan.runsDir = m_runsDir;
    plan.config.models = parseModelList(m_models->toPlainText());
    plan.config.runs = m_repeats->value();
    plan.config.runsForEveryCase = m_repeatsForEveryCase->isChecked();
    plan.config.mode = m_mode->currentData().toString();
    plan.config.concurrency = m_concurrency->value();
    plan.config.studentTools = ToolOffer(m_tools->currentData().toInt());
    plan.config.judgeModel = m_judge->text().trimmed();
    plan.config.harness = m_harness->harness();
    plan.config.harnessCli = m_harness->harnessCli();
    if (m_maxCost->value() > 0)
        plan.maxCostUsd = m_maxCost->value();
    return plan;
}

} // namespace sf
