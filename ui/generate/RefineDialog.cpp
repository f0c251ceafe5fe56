#include "generate/RefineDialog.h"

#include "agents/Harness.h"
#include "charts/ChartStyle.h"
#include "common/HarnessChoice.h"
#include "common/ModelDefaults.h"
#include "eval/RunSummary.h"
#include "generate/RefineIterationsModel.h"
#include "jobs/Job.h"
#include "jobs/JobListModel.h"
#include "llm/ChatClient.h"
#include "project/Project.h"
#include "skill/DiffView.h"
#include "skill/SkillVersionStore.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <QValueAxis>

namespace sf {

RefineDialog::RefineDialog(ChatClient &client, JobListModel &jobs, const Project &project, CommandRunner commandRunner,
                           QWidget *parent)
    : QDialog(parent)
    , m_client(client)
    , m_jobs(jobs)
    , m_project(project)
    , m_commandRunner(std::move(commandRunner))
    , m_skill(new QComboBox(this))
    , m_suite(new QComboBox(this))
    , m_teacher(new QComboBox(this))
    , m_students(new QLineEdit(this))
    , m_harness(new HarnessChoice(this, &client.providers()))
    , m_harnessSummary(new QLabel(this))
    , m_iterations(new QSpinBox(this))
    , m_useTargetLift(new QCheckBox(tr("Stop at a lift of"), this))
    , m_targetLift(new QDoubleSpinBox(this))
    , m_attended(new QCheckBox(tr("Let me accept or reject each proposal"), this))
    , m_start(new QPushButton(tr("Start"), this))
    , m_accept(new QPushButton(tr("Accept"), this))
    , m_reject(new QPushButton(tr("Reject"), this))
    , m_retry(new QPushButton(tr("Retry"), this))
    , m_restore(new QPushButton(tr("Restore This Version"), this))
    , m_failedReply(new QPlainTextEdit(this))
    , m_status(new QLabel(this))
    , m_table(new QTableView(this))
    , m_model(new RefineIterationsModel(this))
    , m_trainLift(new QLineSeries(this))
    , m_heldOutLift(new QLineSeries(this))
    , m_iterationAxis(new QValueAxis(this))
    , m_diff(new DiffView(this))
{
    setWindowTitle(tr("Refine Skill"));
    resize(980, 720);

    for (const ProjectItem &skill : project.items(ProjectItem::Kind::Skill)) {
        m_skill->addItem(skill.name, skill.path);
    }
    m_suite->addItem(tr("The skill's own tests"), QString());
    for (const ProjectItem &suite : project.items(ProjectItem::Kind::TestSuite)) {
        m_suite->addItem(suite.name, suite.path);
    }
    m_teacher->setObjectName(QStringLiteral("teacherModel"));
    m_students->setObjectName(QStringLiteral("studentModels"));
    // The models the user last worked with, not the project's list of models they may never have set up; the
    // pickers offer the embedded model and recent ones too, marking those without a key.
    const QList<ModelChoice> choices = modelChoices(project, &client);
    offerModels(m_teacher, choices, defaultTeacherModel(project, &client));
    m_students->setText(defaultStudentModels(project, &client).join(QStringLiteral(", ")));
    m_students->setPlaceholderText(tr("PROVIDER:MODEL, comma separated"));
    QToolButton *addStudent = addModelButton(this, choices, [this](const QString &model) {
        m_students->setText(withModelAdded(m_students->text(), model, QStringLiteral(", ")));
    });
    m_iterations->setRange(1, 50);
    m_iterations->setValue(3);
    m_iterations->setToolTip(tr("How many new versions the teacher may write. The skill as it is is evaluated "
                                "first, then each new version: 3 improvements are up to 4 evaluations."));
    // Lifts read in percentage points here as everywhere else (Compare, reports, verdicts).
    m_targetLift->setRange(-100.0, 100.0);
    m_targetLift->setDecimals(0);
    m_targetLift->setSingleStep(5);
    m_targetLift->setSuffix(tr(" pp"));
    m_targetLift->setValue(30);
    m_attended->setChecked(true);
    m_accept->setEnabled(false);
    m_reject->setEnabled(false);
    m_retry->setToolTip(tr("Ask the teacher again for a new version; the evaluations made so far are kept"));
    m_retry->hide();
    m_restore->setObjectName(QStringLiteral("restoreVersion"));
    m_restore->setToolTip(tr("Put the selected iteration's version back in the skill folder; the version there now "
                             "is stored first"));
    m_restore->setEnabled(false);
    m_failedReply->setReadOnly(true);
    m_failedReply->setObjectName(QStringLiteral("failedReply"));
    m_failedReply->setPlaceholderText(tr("The teacher sent no reply."));
    m_failedReply->hide();
    m_status->setWordWrap(true);
    m_harnessSummary->setObjectName(QStringLiteral("harnessSummary"));
    m_harnessSummary->setWordWrap(true);
    m_harnessSummary->setTextFormat(Qt::PlainText);
    m_start->setObjectName(QStringLiteral("startRefine"));
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);

    // Lift per iteration, train and held out: held out diverging from train is overfitting made visible.
    auto *chart = new QChart;
    charts::prepareChart(chart);
    chart->setTitle(tr("Lift per iteration (with − without the skill, pp)"));
    chart->legend()->setAlignment(Qt::AlignBottom);
    m_trainLift->setName(tr("Train"));
    m_heldOutLift->setName(tr("Held out"));
    m_trainLift->setColor(charts::okabeIto(4)); // blue, and vermillion for held out: distinct for colour-blind eyes
    m_heldOutLift->setColor(charts::okabeIto(5));
    charts::showPoints(m_trainLift); // the first iteration is a single point
    charts::showPoints(m_heldOutLift);
    chart->addSeries(m_trainLift);
    chart->addSeries(m_heldOutLift);
    auto *liftAxis = new QValueAxis(chart);
    charts::setPaddedRange(liftAxis, -100.0, 100.0, 50); // a lift of ±100 drawn whole, not cut by the frame
    liftAxis->setTitleText(tr("Lift (pp)"));
    liftAxis->setLabelFormat(QStringLiteral("%+.0f"));
    charts::setPaddedRange(m_iterationAxis, 1, 2, 1);
    m_iterationAxis->setLabelFormat(QStringLiteral("%d"));
    m_iterationAxis->setTitleText(tr("Iteration"));
    chart->addAxis(m_iterationAxis, Qt::AlignBottom);
    chart->addAxis(liftAxis, Qt::AlignLeft);
    for (QLineSeries *series : {m_trainLift, m_heldOutLift}) {
        series->attachAxis(m_iterationAxis);
        series->attachAxis(liftAxis);
    }
    charts::styleAxes(chart);
    auto *chartView = new QChartView(chart, this);
    chartView->setObjectName(QStringLiteral("liftChart"));
    chartView->setRenderHint(QPainter::Antialiasing);
    // Wide and tall enough for its legend, ticks and axis titles whole; the table beside it scrolls instead.
    chartView->setMinimumSize(380, 240);

    auto *form = new QFormLayout;
    form->addRow(tr("Skill:"), m_skill);
    form->addRow(tr("Tests:"), m_suite);
    form->addRow(tr("Teacher:"), m_teacher);
    auto *studentsRow = new QHBoxLayout;
    studentsRow->addWidget(m_students, 1);
    studentsRow->addWidget(addStudent);
    form->addRow(tr("Students:"), studentsRow);
    m_harness->addRowsTo(form);
    form->addRow(m_harnessSummary);
    auto *stops = new QHBoxLayout;
    stops->addWidget(new QLabel(tr("At most"), this));
    stops->addWidget(m_iterations);
    stops->addWidget(new QLabel(tr("improvements;"), this));
    stops->addWidget(m_useTargetLift);
    stops->addWidget(m_targetLift);
    stops->addStretch();
    form->addRow(tr("Stop:"), stops);
    form->addRow(QString(), m_attended);

    auto *tableSide = new QWidget(this);
    auto *tableLayout = new QVBoxLayout(tableSide);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(m_table, 1);
    auto *restoreRow = new QHBoxLayout;
    restoreRow->addStretch();
    restoreRow->addWidget(m_restore);
    tableLayout->addLayout(restoreRow);
    auto *results = new QSplitter(Qt::Horizontal, this);
    results->addWidget(tableSide);
    results->addWidget(chartView);
    results->setChildrenCollapsible(false);
    results->setStretchFactor(0, 3);
    results->setStretchFactor(1, 2);
    auto *proposal = new QWidget(this);
    auto *proposalLayout = new QVBoxLayout(proposal);
    proposalLayout->setContentsMargins(0, 0, 0, 0);
    proposalLayout->addWidget(m_diff, 1);
    proposalLayout->addWidget(m_failedReply, 1); // in the diff's place when the teacher's proposal failed
    auto *decision = new QHBoxLayout;
    decision->addStretch();
    decision->addWidget(m_retry);
    decision->addWidget(m_reject);
    decision->addWidget(m_accept);
    proposalLayout->addLayout(decision);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(results);
    splitter->addWidget(proposal);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_start, QDialogButtonBox::ActionRole);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);

    connect(m_start, &QPushButton::clicked, this, &RefineDialog::start);
    connect(m_accept, &QPushButton::clicked, this, &RefineDialog::acceptProposal);
    connect(m_reject, &QPushButton::clicked, this, &RefineDialog::rejectProposal);
    connect(m_retry, &QPushButton::clicked, this, &RefineDialog::retryProposal);
    connect(m_restore, &QPushButton::clicked, this, [this] {
        const QModelIndexList rows = m_table->selectionModel()->selectedRows();
        if (!rows.isEmpty())
            restoreIteration(rows.first().row());
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RefineDialog::updateRestore);
    connect(buttons, &QDialogButtonBox::rejected, this, &RefineDialog::reject);
    connect(m_harness, &HarnessChoice::changed, this, &RefineDialog::updateHarness);
    connect(m_students, &QLineEdit::textChanged, this, &RefineDialog::updateHarness);
    updateHarness();
}

RefineDialog::~RefineDialog()
{
    if (m_job && m_job->isActive()) {
        m_job->markCancelled();
    }
}

bool RefineDialog::setSkill(const QString &name)
{
    const int index = m_skill->findText(name);
    m_skill->setCurrentIndex(index >= 0 ? index : m_skill->currentIndex());
    return index >= 0;
}

bool RefineDialog::selectSkillDir(const QString &skillDir)
{
    const int index = skillDir.isEmpty() ? -1 : m_skill->findData(QDir::cleanPath(skillDir));
    if (index >= 0)
        m_skill->setCurrentIndex(index);
    return index >= 0;
}

bool RefineDialog::setSuite(const QString &name)
{
    const int index = m_suite->findText(name);
    m_suite->setCurrentIndex(index >= 0 ? index : m_suite->currentIndex());
    return index >= 0;
}

void RefineDialog::setTeacher(const QString &model)
{
    m_teacher->setCurrentText(model);
}

void RefineDialog::setStudents(const QStringList &models)
{
    m_students->setText(models.join(QStringLiteral(", ")));
}

void RefineDialog::setTargetLift(double lift)
{
    m_useTargetLift->setChecked(true);
    m_targetLift->setValue(lift * 100);
}

void RefineDialog::setIterations(int iterations)
{
    m_iterations->setValue(iterations);
}

void RefineDialog::setAttended(bool attended)
{
    m_attended->setChecked(attended);
}

QString RefineDialog::statusText() const
{
    return m_status->text();
}

QString RefineDialog::harnessText() const
{
    return m_harnessSummary->text();
}

void RefineDialog::updateHarness()
{
    const QString harness = m_harness->harness();
    const QStringList students = parseModelList(m_students->text());
    QStringList lines;
    if (Harness::isAgentCli(harness)) {
        lines << tr("Each evaluation runs %1 once per item in the sandbox; the with-skill arm gets the skill in %2, "
                    "where %1 finds it and loads it when the model chooses to (the project's skill delivery does not "
                    "apply).")
                     .arg(Harness::label(harness), HarnessChoice::skillsFolderOf(harness));
        lines << m_harness->statusLines(students);
    }
    m_harnessSummary->setText(lines.join(u'\n'));
    m_harnessSummary->setVisible(!lines.isEmpty());
    m_start->setEnabled(!m_running && m_harness->problem(students).isEmpty());
}

RefineRequest RefineDialog::request() const
{
    RefineRequest request;
    request.skillDir = m_skill->currentData().toString();
    request.suitePath = m_suite->currentData().toString();
    request.teacherModel = m_teacher->currentText().trimmed();
    request.config.models = parseModelList(m_students->text());
    request.runsDir = m_project.runsPath();
    request.criteria.maxIterations = m_iterations->value();
    if (m_useTargetLift->isChecked()) {
        request.criteria.targetLift = m_targetLift->value() / 100;
    }
    request.profile = profileFromName(m_project.defaults().validationProfile).value_or(ValidationProfile::AgentSkills);
    request.config.mode = m_project.defaults().skillDelivery; // Skillforge's loop only: a CLI finds the skill itself
    request.config.harness = m_harness->harness();
    request.config.harnessCli = m_harness->harnessCli();
    request.attended = m_attended->isChecked();
    return request;
}

void RefineDialog::start()
{
    if (m_loop && !m_loop->canRetry()) {
        return;
    }
    if (m_loop) {
        m_loop->deleteLater(); // a failed refine, kept for Retry: Start begins anew
        m_loop = nullptr;
    }
    showFailedReply(false);
    const RefineRequest request = this->request();
    if (request.skillDir.isEmpty()) {
        m_status->setText(tr("The project has no skill to refine yet."));
        return;
    }
    if (request.teacherModel.isEmpty() || request.config.models.isEmpty()) {
        m_status->setText(tr("Choose a teacher and at least one student."));
        return;
    }
    if (const QString problem = m_harness->problem(request.config.models); !problem.isEmpty()) {
        m_status->setText(problem);
        return;
    }
    rememberTeacherModel(request.teacherModel);
    rememberStudentModels(request.config.models);
    m_harness->remember();

    m_skillDir = request.skillDir;
    m_model->clear();
    updateRestore();
    m_trainLift->clear();
    m_heldOutLift->clear();
    m_loop = new RefineLoop(m_client, m_commandRunner, this);
    m_job = m_jobs.add(new Job(tr("Refine %1").arg(m_skill->currentText())));
    connect(m_job, &Job::cancelRequested, m_loop, &RefineLoop::cancel);
    connect(m_loop, &RefineLoop::stage, this, [this](const QString &what) {
        m_status->setText(what + QStringLiteral("…"));
        if (m_job) {
            m_job->setDetail(what);
        }
    });
    connect(m_loop, &RefineLoop::iterationEvaluated, this, &RefineDialog::onIteration);
    connect(m_loop, &RefineLoop::proposalReady, this, &RefineDialog::onProposal);
    connect(m_loop, &RefineLoop::finished, this, &RefineDialog::onFinished);
    connect(m_loop, &RefineLoop::failed, this, &RefineDialog::onFailed);
    setRunning(true);
    m_loop->start(request);
}

void RefineDialog::acceptProposal()
{
    if (m_loop) {
        setDeciding(false);
        m_loop->accept();
    }
}

void RefineDialog::rejectProposal()
{
    if (m_loop) {
        setDeciding(false);
        m_loop->reject();
    }
}

void RefineDialog::retryProposal()
{
    if (!m_loop || !m_loop->canRetry()) {
        return;
    }
    showFailedReply(false);
    setRunning(true);
    m_job = m_jobs.add(new Job(tr("Refine %1 (teacher asked again)").arg(QFileInfo(m_skillDir).fileName())));
    connect(m_job, &Job::cancelRequested, m_loop, &RefineLoop::cancel);
    m_loop->retry();
}

void RefineDialog::showFailedReply(bool show)
{
    m_failedReply->setVisible(show);
    m_retry->setVisible(show);
    m_diff->setVisible(!show);
    m_accept->setVisible(!show);
    m_reject->setVisible(!show);
    if (!show) {
        m_failedReply->clear();
    }
}

void RefineDialog::reject()
{
    if (m_loop && m_loop->canRetry()) {
        // Closed instead of Retry: the skill gets the best version measured, not the last one.
        m_loop->keepBest();
        Q_EMIT skillChanged(m_skillDir);
        QDialog::reject();
        return;
    }
    if (m_loop) {
        m_loop->cancel(); // finished("cancelled") follows
        return;
    }
    QDialog::reject();
}

void RefineDialog::onIteration(const RefineIteration &iteration)
{
    m_model->upsert(iteration);
    m_trainLift->append(iteration.number, iteration.trainLift * 100);
    if (iteration.heldOutLift) {
        m_heldOutLift->append(iteration.number, *iteration.heldOutLift * 100);
    }
    charts::setPaddedRange(m_iterationAxis, 1, qMax(2, iteration.number), qMax(1, iteration.number / 8));
    if (m_job) {
        // The first evaluation, then one per improvement.
        m_job->setProgress(double(iteration.number) / double(m_iterations->value() + 1));
    }
}

void RefineDialog::onProposal(const RefineIteration &iteration)
{
    m_model->upsert(iteration);
    const SkillVersionStore store(m_skillDir);
    const QString before = QString::fromUtf8(store.files(iteration.versionId).value(QStringLiteral("SKILL.md")));
    const QString after = QString::fromUtf8(store.files(iteration.proposedVersionId).value(QStringLiteral("SKILL.md")));
    m_diff->setTexts(before, after, tr("Evaluated (iteration %1)").arg(iteration.number), tr("Proposed"));
    m_status->setText(tr("The teacher proposes a new version: accept it to evaluate it, or reject it to ask again."));
    setDeciding(true);
}

void RefineDialog::onFinished(const QString &reason)
{
    m_loop->deleteLater();
    setRunning(false);
    setDeciding(false);
    for (const RefineIteration &iteration : m_loop->iterations()) {
        m_model->upsert(iteration);
    }
    m_model->setKept(m_loop->keptIteration());
    // Which version the folder holds and why, last: the user's next step depends on it.
    QString text = tr("Stopped: %1.").arg(reason);
    if (!m_loop->keptText().isEmpty()) {
        text += u'\n' + m_loop->keptText();
        if (m_model->rowCount() > 1)
            text += tr(" The other versions stay: select one above and Restore This Version.");
    }
    m_status->setText(text);
    updateRestore();
    if (m_job) {
        reason == u"cancelled" ? m_job->markCancelled()
                               : m_job->finish(reason + QStringLiteral(". ") + m_loop->keptText());
    }
    Q_EMIT skillChanged(m_skillDir);
}

void RefineDialog::onFailed(const QString &message)
{
    setRunning(false);
    setDeciding(false);
    if (m_job) {
        m_job->fail(message);
    }
    if (m_loop->canRetry()) {
        // The evaluations stand; only the teacher's new version is missing. Show what it wrote and offer Retry.
        const QString reply = m_loop->failedReply();
        m_failedReply->setPlainText(reply);
        showFailedReply(true);
        m_status->setText(reply.isEmpty()
                              ? tr("The teacher could not be asked for a new version: %1. Retry asks it again; "
                                   "the evaluations made so far are kept.")
                                    .arg(message)
                              : tr("The teacher's reply (below) held no usable new version: %1. Retry asks it "
                                   "again; the evaluations made so far are kept.")
                                    .arg(message));
    } else {
        m_loop->deleteLater();
        m_model->setKept(m_loop->keptIteration());
        m_status->setText(m_loop->keptText().isEmpty() ? message : message + u'\n' + m_loop->keptText());
    }
    updateRestore();
    Q_EMIT skillChanged(m_skillDir);
}

bool RefineDialog::restoreIteration(int row)
{
    if (m_running || row < 0 || row >= m_model->rowCount())
        return false;
    const RefineIteration &iteration = m_model->iterations().at(row);
    if (iteration.versionId.isEmpty()) {
        m_status->setText(tr("Iteration %1's version was not stored; it cannot be put back.").arg(iteration.number));
        return false;
    }
    if (const QString error = SkillVersionStore(m_skillDir).restore(iteration.versionId); !error.isEmpty()) {
        m_status->setText(tr("Iteration %1's version could not be put back: %2").arg(iteration.number).arg(error));
        return false;
    }
    m_model->setKept(iteration.number);
    m_status->setText(
        tr("The skill holds iteration %1's version again (lift %2%3); the version it replaced is "
           "stored too.")
            .arg(iteration.number)
            .arg(liftInPoints(iteration.trainLift))
            .arg(iteration.heldOutLift ? tr(", %1 held out").arg(liftInPoints(*iteration.heldOutLift)) : QString()));
    updateRestore();
    Q_EMIT skillChanged(m_skillDir);
    return true;
}

void RefineDialog::updateRestore()
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    const RefineIteration *selected = rows.isEmpty() ? nullptr : &m_model->iterations().at(rows.first().row());
    m_restore->setEnabled(!m_running && selected && !selected->versionId.isEmpty() &&
                          selected->number != m_model->kept());
}

void RefineDialog::setRunning(bool running)
{
    m_running = running;
    m_harness->setEnabled(!running);
    updateHarness();
    updateRestore();
    for (QWidget *input : {static_cast<QWidget *>(m_skill), static_cast<QWidget *>(m_suite),
                           static_cast<QWidget *>(m_teacher), static_cast<QWidget *>(m_students),
                           static_cast<QWidget *>(m_iterations), static_cast<QWidget *>(m_useTargetLift),
                           static_cast<QWidget *>(m_targetLift), static_cast<QWidget *>(m_attended)}) {
        input->setEnabled(!running);
    }
}

void RefineDialog::setDeciding(bool deciding)
{
    m_accept->setEnabled(deciding);
    m_reject->setEnabled(deciding);
}

} // namespace sf
