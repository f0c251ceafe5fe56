#include "generate/GenerateSkillDialog.h"

#include "common/ModelDefaults.h"
#include "common/Plural.h"
#include "generate/SkillGenerator.h"
#include "jobs/Job.h"
#include "jobs/JobListModel.h"
#include "project/Project.h"
#include "trace/TraceSelection.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

namespace sf {

GenerateSkillDialog::GenerateSkillDialog(ChatClient &client, JobListModel &jobs, const Project &project,
                                         QWidget *parent)
    : QDialog(parent)
    , m_client(client)
    , m_jobs(jobs)
    , m_project(project)
    , m_task(new QPlainTextEdit(this))
    , m_improve(new QComboBox(this))
    , m_traces(new QListWidget(this))
    , m_traceBudget(new QSpinBox(this))
    , m_traceScope(new QLabel(this))
    , m_wholeTrace(new QCheckBox(tr("Send the whole trace, not only the kept steps"), this))
    , m_instructions(new QPlainTextEdit(this))
    , m_teacher(new QComboBox(this))
    , m_profile(new QComboBox(this))
    , m_status(new QLabel(this))
    , m_reply(new QPlainTextEdit(this))
    , m_generate(new QPushButton(tr("Generate"), this))
{
    setWindowTitle(tr("Generate Skill"));
    resize(720, 640);

    m_task->setObjectName(QStringLiteral("task"));
    m_task->setPlaceholderText(tr("What should the skill teach? e.g. Write a fused RMSNorm CUDA kernel for Flux "
                                  "(bf16, hidden size 3072) that beats the PyTorch baseline."));
    m_improve->setObjectName(QStringLiteral("improve"));
    m_improve->addItem(tr("A new skill"), QString());
    for (const ProjectItem &skill : project.items(ProjectItem::Kind::Skill)) {
        m_improve->addItem(tr("Improve %1").arg(skill.name), skill.path);
    }
    // The project's traces, to learn from; those with steps selected in the trace view come ticked.
    m_traces->setObjectName(QStringLiteral("traces"));
    m_traces->setMaximumHeight(90);
    for (const ProjectItem &trace : project.items(ProjectItem::Kind::Trace)) {
        auto *item = new QListWidgetItem(trace.name, m_traces);
        item->setData(Qt::UserRole, trace.path);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        const bool selected = QFileInfo::exists(TraceSelection::selectionPathFor(project.rootPath(), trace.path));
        item->setCheckState(selected ? Qt::Checked : Qt::Unchecked);
    }
    m_traceBudget->setRange(500, 200000);
    m_traceBudget->setSingleStep(1000);
    m_traceBudget->setValue(12000);
    m_traceBudget->setSuffix(tr(" tokens"));
    m_traceBudget->setToolTip(tr("How much of a whole trace the teacher reads: kept steps first, then prompts, "
                                 "reasoning, commands, errors and their fixes; long outputs shortened in the middle."));
    // What the teacher will read of each ticked trace: the steps kept for skill generation in the Trace view, or
    // the whole trace when none are kept or the user asks for it.
    m_traceScope->setObjectName(QStringLiteral("traceScope"));
    m_traceScope->setWordWrap(true);
    m_traceScope->setTextFormat(Qt::PlainText);
    m_wholeTrace->setObjectName(QStringLiteral("wholeTrace"));
    m_wholeTrace->setToolTip(tr("Off: the teacher reads only the steps kept with \"Use for skill generation\" in the "
                                "Trace view. On: the whole trace within the trace budget, the kept steps first."));
    m_wholeTrace->setVisible(false);
    m_instructions->setObjectName(QStringLiteral("instructions"));
    m_instructions->setPlaceholderText(tr("Optional: your own directions to the teacher; they take precedence."));
    m_instructions->setMaximumHeight(90);
    m_teacher->setObjectName(QStringLiteral("teacher"));
    offerModels(m_teacher, modelChoices(project, &client), defaultTeacherModel(project, &client));
    m_teacher->setToolTip(tr("PROVIDER:MODEL, e.g. anthropic:claude-opus-4-5, openai:gpt-4.1"));
    for (const ValidationProfile profile : allProfiles()) {
        m_profile->addItem(profileName(profile), profileName(profile));
    }
    m_profile->setCurrentIndex(qMax(0, m_profile->findData(project.defaults().validationProfile)));
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_reply->setObjectName(QStringLiteral("reply"));
    m_reply->setReadOnly(true);
    m_reply->setPlaceholderText(tr("The teacher's reply appears here as it is written."));
    m_generate->setObjectName(QStringLiteral("generate"));
    m_generate->setDefault(true);

    auto *form = new QFormLayout;
    form->addRow(tr("Task:"), m_task);
    form->addRow(tr("Skill:"), m_improve);
    form->addRow(tr("Learn from:"), m_traces);
    form->addRow(QString(), m_traceScope);
    form->addRow(QString(), m_wholeTrace);
    form->addRow(tr("Trace budget:"), m_traceBudget);
    form->addRow(tr("Instructions:"), m_instructions);
    form->addRow(tr("Teacher:"), m_teacher);
    form->addRow(tr("Profile:"), m_profile);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    buttons->addButton(m_generate, QDialogButtonBox::AcceptRole);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_reply, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);

    connect(m_generate, &QPushButton::clicked, this, &GenerateSkillDialog::generate);
    connect(buttons, &QDialogButtonBox::rejected, this, &GenerateSkillDialog::reject);
    connect(m_traces, &QListWidget::itemChanged, this, &GenerateSkillDialog::previewTraces);
    connect(m_wholeTrace, &QCheckBox::toggled, this, &GenerateSkillDialog::previewTraces);
    connect(m_traceBudget, &QSpinBox::valueChanged, this, &GenerateSkillDialog::previewTraces);
    previewTraces();
}

GenerateSkillDialog::~GenerateSkillDialog()
{
    if (m_job && m_job->isActive()) {
        m_job->markCancelled();
    }
}

void GenerateSkillDialog::setTask(const QString &task)
{
    m_task->setPlainText(task);
}

void GenerateSkillDialog::setTeacher(const QString &model)
{
    m_teacher->setCurrentText(model);
}

void GenerateSkillDialog::setInstructions(const QString &text)
{
    m_instructions->setPlainText(text);
}

bool GenerateSkillDialog::setSkillToImprove(const QString &name)
{
    for (int i = 0; i < m_improve->count(); ++i) {
        const QString path = m_improve->itemData(i).toString();
        if ((name.isEmpty() && path.isEmpty()) || (!path.isEmpty() && path.endsWith(u'/' + name))) {
            m_improve->setCurrentIndex(i);
            return true;
        }
    }
    return false;
}

bool GenerateSkillDialog::setTraceUsed(const QString &fileName, bool used)
{
    for (int row = 0; row < m_traces->count(); ++row) {
        QListWidgetItem *item = m_traces->item(row);
        if (item->text() == fileName || QFileInfo(item->data(Qt::UserRole).toString()) == QFileInfo(fileName)) {
            item->setCheckState(used ? Qt::Checked : Qt::Unchecked);
            return true;
        }
    }
    return false;
}

void GenerateSkillDialog::setWholeTraceSent(bool whole)
{
    m_wholeTrace->setChecked(whole);
}

QString GenerateSkillDialog::traceScopeText() const
{
    return m_traceScope->text();
}

QStringList GenerateSkillDialog::usedTraces() const
{
    QStringList traces;
    for (int row = 0; row < m_traces->count(); ++row) {
        if (m_traces->item(row)->checkState() == Qt::Checked) {
            traces << m_traces->item(row)->data(Qt::UserRole).toString();
        }
    }
    return traces;
}

int GenerateSkillDialog::budgetPerTrace() const
{
    return m_traceBudget->value() / int(std::max<qsizetype>(1, usedTraces().size()));
}

TraceScope GenerateSkillDialog::scope() const
{
    return m_wholeTrace->isChecked() ? TraceScope::WholeTrace : TraceScope::KeptSteps;
}

void GenerateSkillDialog::previewTraces()
{
    const int budget = budgetPerTrace();
    const TraceScope wanted = scope();
    if (budget != m_previewBudget || wanted != m_previewScope) {
        m_previews.clear();
        m_previewBudget = budget;
        m_previewScope = wanted;
    }
    QStringList missing;
    for (const QString &path : usedTraces()) {
        if (!m_previews.contains(path)) {
            missing << path;
        }
    }
    showTraceScope();
    if (missing.isEmpty()) {
        return;
    }
    const int round = ++m_previewRound;
    const QString projectRoot = m_project.rootPath();
    auto *watcher = new QFutureWatcher<QList<TraceForTeacher>>(this);
    connect(watcher, &QFutureWatcher<QList<TraceForTeacher>>::finished, this,
            [this, watcher, round, budget, wanted, missing] {
                watcher->deleteLater();
                m_previewDone = std::max(m_previewDone, round);
                if (budget == m_previewBudget && wanted == m_previewScope) {
                    const QList<TraceForTeacher> read = watcher->result();
                    for (qsizetype i = 0; i < read.size(); ++i) {
                        m_previews.insert(missing.at(i), read.at(i));
                    }
                }
                showTraceScope();
            });
    watcher->setFuture(QtConcurrent::run([missing, projectRoot, budget, wanted] {
        QList<TraceForTeacher> read;
        for (const QString &path : missing) {
            read.append(traceForTeacher(path, projectRoot, budget, wanted));
        }
        return read;
    }));
}

void GenerateSkillDialog::showTraceScope()
{
    const QLocale locale;
    QStringList lines;
    bool anyKept = false;
    bool reading = false;
    for (const QString &path : usedTraces()) {
        const auto it = m_previews.constFind(path);
        if (it == m_previews.cend()) {
            reading = true;
            continue;
        }
        const TraceForTeacher &trace = *it;
        const QString characters = locale.toString(qsizetype(trace.text.size()));
        anyKept = anyKept || trace.keptSteps > 0;
        if (!trace.readable) {
            lines << tr("%1: could not be read").arg(trace.label);
        } else if (trace.scope == TraceScope::KeptSteps) {
            lines << tr("%1: %2 of %3 steps kept (%4 characters); the teacher reads only these")
                         .arg(trace.label, locale.toString(trace.keptSteps), locale.toString(trace.totalSteps),
                              characters);
        } else if (trace.keptSteps > 0) {
            lines << tr("%1: the whole trace, %3 steps, the %2 kept first (%4 characters)")
                         .arg(trace.label, locale.toString(trace.keptSteps), locale.toString(trace.totalSteps),
                              characters);
        } else {
            lines << tr("%1: no steps kept; the whole trace, %2 steps (%3 characters)")
                         .arg(trace.label, locale.toString(trace.totalSteps), characters);
        }
    }
    if (reading) {
        lines << tr("Reading the ticked traces…");
    }
    m_traceScope->setText(lines.join(u'\n'));
    m_traceScope->setVisible(!lines.isEmpty());
    m_wholeTrace->setVisible(anyKept || m_wholeTrace->isChecked());
}

QString GenerateSkillDialog::statusText() const
{
    return m_status->text();
}

QString GenerateSkillDialog::replyText() const
{
    return m_reply->toPlainText();
}

void GenerateSkillDialog::generate()
{
    if (m_generator) {
        return;
    }
    SkillGenerationRequest request;
    request.task = m_task->toPlainText();
    request.existingSkillDir = m_improve->currentData().toString();
    request.instructions = m_instructions->toPlainText();
    request.teacherModel = m_teacher->currentText().trimmed();
    request.profile = profileFromName(m_profile->currentData().toString()).value_or(ValidationProfile::AgentSkills);
    request.skillsFolder = m_project.skillsPath();
    request.stream = true;
    if (request.teacherModel.isEmpty()) {
        m_status->setText(tr("Choose the teacher model first."));
        return;
    }
    if (request.existingSkillDir.isEmpty() && request.task.trimmed().isEmpty()) {
        m_status->setText(tr("Describe the task the skill should teach."));
        return;
    }

    rememberTeacherModel(request.teacherModel);
    const QStringList traces = usedTraces();
    setBusy(true);
    if (traces.isEmpty()) {
        startGenerator(request);
        return;
    }
    // What the dialog said the teacher reads is what it reads: the previews, when they are all there for this budget
    // and scope.
    const int budget = budgetPerTrace();
    const TraceScope wanted = scope();
    const bool previewed =
        budget == m_previewBudget && wanted == m_previewScope &&
        std::all_of(traces.cbegin(), traces.cend(), [this](const QString &path) { return m_previews.contains(path); });
    if (previewed) {
        for (const QString &path : traces) {
            request.traces.append({m_previews.value(path).label, m_previews.value(path).text});
        }
        startGenerator(request);
        return;
    }
    // Importing a large session takes a while: off the UI thread, then on to the teacher.
    m_status->setText(plural(traces.size(), tr("Reading 1 trace…"), tr("Reading %n traces…")));
    const QString projectRoot = m_project.rootPath();
    auto *watcher = new QFutureWatcher<QList<TraceExcerpt>>(this);
    connect(watcher, &QFutureWatcher<QList<TraceExcerpt>>::finished, this, [this, watcher, request]() mutable {
        watcher->deleteLater();
        request.traces = watcher->result();
        startGenerator(request);
    });
    watcher->setFuture(QtConcurrent::run([traces, projectRoot, budget, wanted] {
        QList<TraceExcerpt> excerpts;
        for (const QString &path : traces) {
            const TraceForTeacher trace = traceForTeacher(path, projectRoot, budget, wanted);
            excerpts.append({trace.label, trace.text});
        }
        return excerpts;
    }));
}

void GenerateSkillDialog::startGenerator(const SkillGenerationRequest &request)
{
    m_generator = new SkillGenerator(m_client, this);
    m_job = m_jobs.add(new Job(tr("Generate skill with %1").arg(request.teacherModel)));
    connect(m_job, &Job::cancelRequested, m_generator, &SkillGenerator::cancel);
    connect(m_generator, &SkillGenerator::stage, this, [this](const QString &what) {
        m_status->setText(what + QStringLiteral("…"));
        if (m_job) {
            m_job->setDetail(what);
        }
    });
    connect(m_generator, &SkillGenerator::replyRestarted, m_reply, &QPlainTextEdit::clear);
    connect(m_generator, &SkillGenerator::replyDelta, m_reply, [this](const QString &text) {
        m_reply->moveCursor(QTextCursor::End);
        m_reply->insertPlainText(text);
    });
    connect(m_generator, &SkillGenerator::finished, this, &GenerateSkillDialog::onFinished);
    connect(m_generator, &SkillGenerator::failed, this, &GenerateSkillDialog::onFailed);
    m_generator->start(request);
    Q_EMIT generationStarted(m_generator, request.teacherModel);
}

void GenerateSkillDialog::reject()
{
    if (m_generator) {
        m_generator->cancel(); // failed("cancelled") follows and ends the job
        return;
    }
    QDialog::reject();
}

void GenerateSkillDialog::onFinished(const SkillGenerationResult &result)
{
    m_generator->deleteLater();
    setBusy(false);
    const int errors = int(std::count_if(result.problems.begin(), result.problems.end(),
                                         [](const SkillProblem &problem) { return problem.isError(); }));
    const QString summary =
        errors == 0 ? tr("Wrote %1.").arg(result.name)
                    : plural(errors, tr("Wrote %1 with 1 error left; the editor lists it."), tr("Wrote %1 with %n errors left; the editor lists them.")).arg(result.name);
    m_status->setText(summary);
    if (m_job) {
        m_job->finish(summary);
    }
    Q_EMIT skillGenerated(result.skillDir);
    accept();
}

void GenerateSkillDialog::onFailed(const QString &message)
{
    m_generator->deleteLater();
    setBusy(false);
    const bool cancelled = message == u"cancelled";
    m_status->setText(cancelled ? tr("Cancelled.") : message);
    if (m_job) {
        cancelled ? m_job->markCancelled() : m_job->fail(message);
    }
    if (!isVisible()) {
        show(); // the form as the user left it, with the reason, to change and try again
    }
}

void GenerateSkillDialog::setBusy(bool busy)
{
    m_generate->setEnabled(!busy);
    for (QWidget *input :
         {static_cast<QWidget *>(m_task), static_cast<QWidget *>(m_improve), static_cast<QWidget *>(m_instructions),
          static_cast<QWidget *>(m_teacher), static_cast<QWidget *>(m_profile)}) {
        input->setEnabled(!busy);
    }
}

} // namespace sf
