#include "trigger/TriggerLabDialog.h"

#include "agents/Harness.h"
#include "charts/ChartStyle.h"
#include "common/HarnessChoice.h"
#include "common/ModelDefaults.h"
#include "llm/ChatClient.h"
#include "project/Project.h"
#include "skill/DiffView.h"
#include "skill/SkillDocument.h"
#include "skill/SkillVersionStore.h"
#include "trigger/TriggerQueryModel.h"
#include "trigger/TriggerResultsModel.h"
#include "trigger/TriggerRunner.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <QValueAxis>

namespace sf {

TriggerLabDialog::TriggerLabDialog(ChatClient &client, const Project &project, QWidget *parent)
    : QDialog(parent)
    , m_client(client)
    , m_project(project)
    , m_skill(new QComboBox(this))
    , m_students(new QLineEdit(this))
    , m_teacher(new QComboBox(this))
    , m_harness(new HarnessChoice(this, &client.providers()))
    , m_harnessSummary(new QLabel(this))
    , m_runs(new QSpinBox(this))
    , m_iterations(new QSpinBox(this))
    , m_holdout(new QDoubleSpinBox(this))
    , m_maxCost(new QDoubleSpinBox(this))
    , m_estimate(new QLabel(this))
    , m_status(new QLabel(this))
    , m_measureButton(new QPushButton(tr("&Measure"), this))
    , m_optimizeButton(new QPushButton(tr("&Optimize Description"), this))
    , m_cancelButton(new QPushButton(tr("Cancel Run"), this))
    , m_showReply(new QPushButton(tr("Show Reply"), this))
    , m_retry(new QPushButton(tr("Retry"), this))
    , m_tabs(new QTabWidget(this))
    , m_queries(new TriggerQueryModel(this))
    , m_results(new TriggerResultsModel(this))
    , m_queryTable(new QTableView(this))
    , m_chart(new QChart)
    , m_iterationAxis(new QValueAxis(m_chart))
    , m_proposals(new QListWidget(this))
    , m_diff(new DiffView(this))
{
    setWindowTitle(tr("Trigger Lab"));
    for (const ProjectItem &item : project.items(ProjectItem::Kind::Skill))
        m_skill->addItem(item.name, item.path);
    m_students->setObjectName(QStringLiteral("studentModels"));
    m_teacher->setObjectName(QStringLiteral("teacherModel"));
    m_students->setPlaceholderText(tr("PROVIDER:MODEL, … (students)"));
    // The teacher and students last used, as in Refine; the pickers offer the embedded model and recent ones too.
    const QList<ModelChoice> choices = modelChoices(project, &client);
    m_students->setText(defaultStudentModels(project, &client).join(QStringLiteral(", ")));
    offerModels(m_teacher, choices, defaultTeacherModel(project, &client));
    m_teacher->lineEdit()->setPlaceholderText(tr("PROVIDER:MODEL (rewrites the description)"));
    QToolButton *addStudent = addModelButton(this, choices, [this](const QString &model) {
        m_students->setText(withModelAdded(m_students->text(), model, QStringLiteral(", ")));
    });
    m_runs->setRange(1, 50);
    m_runs->setValue(3);
    m_iterations->setRange(1, 20);
    m_iterations->setValue(5);
    m_holdout->setRange(0, 0.9);
    m_holdout->setSingleStep(0.1);
    m_holdout->setValue(0.4);
    m_maxCost->setRange(0, 10000);
    m_maxCost->setDecimals(2);
    m_maxCost->setPrefix(QStringLiteral("$"));
    m_maxCost->setSpecialValueText(tr("no budget"));
    m_cancelButton->setEnabled(false);
    m_showReply->setObjectName(QStringLiteral("showReply"));
    m_showReply->setToolTip(tr("The teacher's whole reply"));
    m_retry->setObjectName(QStringLiteral("retryProposal"));
    m_retry->setToolTip(tr("Ask the teacher again; the measurements made so far are kept"));
    m_showReply->hide();
    m_retry->hide();
    m_status->setWordWrap(true);
    m_estimate->setWordWrap(true);
    m_harnessSummary->setObjectName(QStringLiteral("harnessSummary"));
    m_harnessSummary->setWordWrap(true);
    m_harnessSummary->setTextFormat(Qt::PlainText);
    m_measureButton->setObjectName(QStringLiteral("measure"));
    m_optimizeButton->setObjectName(QStringLiteral("optimize"));

    // Queries: the set being edited.
    m_queryTable->setModel(m_queries);
    m_queryTable->horizontalHeader()->setSectionResizeMode(TriggerQueryModel::Query, QHeaderView::Stretch);
    m_queryTable->verticalHeader()->hide();
    m_queryTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    auto *addShould = new QPushButton(tr("Add Should Load"), this);
    auto *addShouldNot = new QPushButton(tr("Add Should Not"), this);
    auto *remove = new QPushButton(tr("Remove"), this);
    auto *import = new QPushButton(tr("Import…"), this);
    auto *exportButton = new QPushButton(tr("Export…"), this);
    const auto add = [this](bool should) {
        const int row = m_queries->addQuery(should);
        m_queryTable->edit(m_queries->index(row, TriggerQueryModel::Query));
        updateEstimate();
    };
    connect(addShould, &QPushButton::clicked, this, [add] { add(true); });
    connect(addShouldNot, &QPushButton::clicked, this, [add] { add(false); });
    connect(remove, &QPushButton::clicked, this, [this] {
        QList<int> rows;
        for (const QModelIndex &index : m_queryTable->selectionModel()->selectedRows())
            rows.append(index.row());
        m_queries->removeQueries(rows);
        updateEstimate();
    });
    connect(import, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Import Trigger Queries"), skillDir(), tr("JSON (*.json)"));
        if (!path.isEmpty())
            importQueries(path);
    });
    connect(exportButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export Trigger Queries"), QDir(skillDir()).filePath(QStringLiteral("evals/trigger_evals.json")),
            tr("JSON (*.json)"));
        if (!path.isEmpty())
            exportQueries(path);
    });
    auto *queryButtons = new QHBoxLayout;
    for (QPushButton *b : {addShould, addShouldNot, remove, import, exportButton})
        queryButtons->addWidget(b);
    queryButtons->addStretch();
    auto *queryPage = new QWidget(this);
    auto *queryLayout = new QVBoxLayout(queryPage);
    queryLayout->addWidget(m_queryTable);
    queryLayout->addLayout(queryButtons);

    // Results: per query, and recall and false positives per model and iteration.
    auto *resultTable = new QTableView(this);
    resultTable->setObjectName(QStringLiteral("triggerResults"));
    resultTable->setModel(m_results);
    resultTable->verticalHeader()->hide();
    resultTable->horizontalHeader()->setSectionResizeMode(TriggerResultsModel::Query, QHeaderView::Stretch);
    charts::prepareChart(m_chart);
    m_chart->setTitle(tr("Recall and false positives per iteration"));
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    auto *rateAxis = new QValueAxis(m_chart);
    charts::setPaddedRange(rateAxis, 0, 1, 0.2); // a rate of 0 or 1 drawn whole, not cut by the frame
    rateAxis->setLabelFormat(QStringLiteral("%.1f"));
    rateAxis->setTitleText(tr("Share of trials"));
    // Whole iterations only, with room on both sides so that a single measurement's points are not on the frame.
    m_iterationAxis->setTickType(QValueAxis::TicksDynamic);
    m_iterationAxis->setTickAnchor(0);
    m_iterationAxis->setTickInterval(1);
    m_iterationAxis->setRange(-0.5, 1.5);
    m_iterationAxis->setLabelFormat(QStringLiteral("%d"));
    m_iterationAxis->setTitleText(tr("Iteration"));
    m_chart->addAxis(m_iterationAxis, Qt::AlignBottom);
    m_chart->addAxis(rateAxis, Qt::AlignLeft);
    charts::styleAxes(m_chart);
    auto *chartView = new QChartView(m_chart, this);
    chartView->setObjectName(QStringLiteral("triggerChart"));
    chartView->setRenderHint(QPainter::Antialiasing);
    chartView->setMinimumSize(380, 240);
    auto *resultSplit = new QSplitter(Qt::Horizontal, this);
    resultSplit->addWidget(resultTable);
    resultSplit->addWidget(chartView);
    resultSplit->setStretchFactor(0, 3);
    resultSplit->setStretchFactor(1, 2);

    // Proposals: each iteration's description as a diff of the original, to accept or leave.
    auto *accept = new QPushButton(tr("Accept Proposal"), this);
    accept->setEnabled(false);
    connect(m_proposals, &QListWidget::currentRowChanged, this, [this, accept](int row) {
        showProposal(row);
        accept->setEnabled(row > 0 && !isRunning());
    });
    connect(accept, &QPushButton::clicked, this, [this] { acceptProposal(m_proposals->currentRow()); });
    auto *proposalPage = new QWidget(this);
    auto *proposalLayout = new QHBoxLayout(proposalPage);
    auto *proposalSide = new QVBoxLayout;
    proposalSide->addWidget(m_proposals);
    proposalSide->addWidget(accept);
    proposalLayout->addLayout(proposalSide, 1);
    proposalLayout->addWidget(m_diff, 3);

    m_tabs->addTab(queryPage, tr("Queries"));
    m_tabs->addTab(resultSplit, tr("Results"));
    m_tabs->addTab(proposalPage, tr("Proposals"));

    auto *form = new QFormLayout;
    form->addRow(tr("Skill:"), m_skill);
    auto *studentsRow = new QHBoxLayout;
    studentsRow->addWidget(m_students, 1);
    studentsRow->addWidget(addStudent);
    form->addRow(tr("Students:"), studentsRow);
    form->addRow(tr("Teacher:"), m_teacher);
    m_harness->addRowsTo(form);
    form->addRow(m_harnessSummary);
    auto *numbers = new QHBoxLayout;
    numbers->addWidget(new QLabel(tr("Runs per query"), this));
    numbers->addWidget(m_runs);
    numbers->addWidget(new QLabel(tr("Proposals at most"), this));
    numbers->addWidget(m_iterations);
    numbers->addWidget(new QLabel(tr("Held out"), this));
    numbers->addWidget(m_holdout);
    numbers->addWidget(new QLabel(tr("Budget"), this));
    numbers->addWidget(m_maxCost);
    numbers->addStretch();
    form->addRow(numbers);
    form->addRow(tr("Estimate:"), m_estimate);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_measureButton, QDialogButtonBox::ActionRole);
    buttons->addButton(m_optimizeButton, QDialogButtonBox::ActionRole);
    buttons->addButton(m_cancelButton, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_measureButton, &QPushButton::clicked, this, &TriggerLabDialog::measure);
    connect(m_optimizeButton, &QPushButton::clicked, this, &TriggerLabDialog::optimize);
    connect(m_cancelButton, &QPushButton::clicked, this, &TriggerLabDialog::cancel);

    connect(m_showReply, &QPushButton::clicked, this, &TriggerLabDialog::showReply);
    connect(m_retry, &QPushButton::clicked, this, &TriggerLabDialog::retryProposal);
    auto *statusRow = new QHBoxLayout;
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_showReply);
    statusRow->addWidget(m_retry);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_tabs, 1);
    layout->addLayout(statusRow);
    layout->addWidget(buttons);
    resize(1100, 700);

    connect(m_skill, &QComboBox::currentIndexChanged, this, &TriggerLabDialog::loadDefaultQueries);
    connect(m_students, &QLineEdit::textChanged, this, &TriggerLabDialog::updateEstimate);
    connect(m_teacher, &QComboBox::editTextChanged, this, &TriggerLabDialog::updateEstimate);
    for (QSpinBox *spin : {m_runs, m_iterations})
        connect(spin, &QSpinBox::valueChanged, this, &TriggerLabDialog::updateEstimate);
    connect(m_queries, &QAbstractItemModel::dataChanged, this, &TriggerLabDialog::updateEstimate);
    connect(m_harness, &HarnessChoice::changed, this, &TriggerLabDialog::updateEstimate);
    loadDefaultQueries();
}

TriggerLabDialog::~TriggerLabDialog()
{
    delete m_runner.data();
    delete m_optimizer.data();
}

bool TriggerLabDialog::setSkill(const QString &name)
{
    const int index = m_skill->findText(name);
    if (index < 0)
        return false;
    m_skill->setCurrentIndex(index);
    return true;
}

bool TriggerLabDialog::selectSkillDir(const QString &skillDir)
{
    const int index = skillDir.isEmpty() ? -1 : m_skill->findData(QDir::cleanPath(skillDir));
    if (index >= 0)
        m_skill->setCurrentIndex(index);
    return index >= 0;
}

void TriggerLabDialog::setStudents(const QStringList &models)
{
    m_students->setText(models.join(QStringLiteral(", ")));
}

void TriggerLabDialog::setTeacher(const QString &model)
{
    m_teacher->setEditText(model);
}

void TriggerLabDialog::setRuns(int runs)
{
    m_runs->setValue(runs);
}

void TriggerLabDialog::setIterations(int iterations)
{
    m_iterations->setValue(iterations);
}

void TriggerLabDialog::setMaxCost(double usd)
{
    m_maxCost->setValue(usd);
}

void TriggerLabDialog::setHoldout(double fraction)
{
    m_holdout->setValue(fraction);
}

QString TriggerLabDialog::statusText() const
{
    return m_status->text();
}

QString TriggerLabDialog::estimateText() const
{
    return m_estimate->text();
}

QString TriggerLabDialog::harnessText() const
{
    return m_harnessSummary->text();
}

QString TriggerLabDialog::skillDir() const
{
    return m_skill->currentData().toString();
}

QStringList TriggerLabDialog::students() const
{
    return parseModelList(m_students->text());
}

TriggerConfig TriggerLabDialog::config() const
{
    TriggerConfig config;
    config.models = students();
    config.runs = m_runs->value();
    config.harness = m_harness->harness();
    config.harnessCli = m_harness->harnessCli();
    if (m_maxCost->value() > 0)
        config.maxCostUsd = m_maxCost->value();
    return config;
}

std::optional<SkillCatalogue> TriggerLabDialog::catalogue(QString *why) const
{
    QFile file(QDir(skillDir()).filePath(QStringLiteral("SKILL.md")));
    if (skillDir().isEmpty() || !file.open(QIODevice::ReadOnly)) {
        *why = tr("Choose a project skill.");
        return std::nullopt;
    }
    const SkillDocument doc = SkillDocument::parse(QString::fromUtf8(file.readAll()));
    if (doc.description().trimmed().isEmpty()) {
        *why = tr("The skill has no description: there is nothing to trigger on.");
        return std::nullopt;
    }
    const QString name = doc.name().isEmpty() ? QFileInfo(skillDir()).fileName() : doc.name();
    return SkillCatalogue({name, doc.description().trimmed(), skillDir()},
                          SkillCatalogue::besideAndBundled(skillDir()));
}

void TriggerLabDialog::loadDefaultQueries()
{
    for (const QString &name : {QStringLiteral("evals/trigger_evals.json"), QStringLiteral("evals/eval_set.json")}) {
        const QString path = QDir(skillDir()).filePath(name);
        if (QFileInfo(path).isFile() && importQueries(path))
            return;
    }
    m_queries->setQueries({});
    updateEstimate();
}

bool TriggerLabDialog::importQueries(const QString &path)
{
    const auto read = triggerqueries::read(path);
    if (const LoadError *e = std::get_if<LoadError>(&read)) {
        m_status->setText(e->toString());
        return false;
    }
    m_queries->setQueries(std::get<QList<TriggerQuery>>(read));
    m_status->setText(
        tr("%n queries from %1", nullptr, int(m_queries->queries().size())).arg(QDir::toNativeSeparators(path)));
    updateEstimate();
    return true;
}

bool TriggerLabDialog::exportQueries(const QString &path)
{
    const QString error = triggerqueries::write(path, m_queries->queries());
    m_status->setText(error.isEmpty() ? tr("Saved %1").arg(QDir::toNativeSeparators(path)) : error);
    if (error.isEmpty())
        m_queries->setModified(false);
    return error.isEmpty();
}

void TriggerLabDialog::updateEstimate()
{
    QString why;
    const auto cat = catalogue(&why);
    updateHarness(cat ? &*cat : nullptr);
    if (!cat || m_queries->queries().isEmpty() || students().isEmpty()) {
        m_estimate->setText(!cat ? why : tr("Add queries and at least one student."));
        return;
    }
    const TriggerEstimate one = estimateTrigger(*cat, m_queries->queries(), config());
    QString text = tr("Measure: %n trials", nullptr, one.trials);
    text += one.usd ? tr(", at most $%1").arg(*one.usd, 0, 'f', 4)
                    : tr(" (no price for %1)").arg(one.unpriced.join(QStringLiteral(", ")));
    if (!m_teacher->currentText().trimmed().isEmpty()) {
        TriggerOptimizeRequest request;
        request.queries = m_queries->queries();
        request.config = config();
        request.teacherModel = m_teacher->currentText().trimmed();
        request.maxIterations = m_iterations->value();
        const TriggerOptimizeEstimate all = estimateOptimize(request, *cat);
        text += tr(". Optimize: at most %1 evaluations and %2 teacher calls")
                    .arg(all.evaluations)
                    .arg(request.maxIterations);
        text += all.usd ? tr(", at most $%1").arg(*all.usd, 0, 'f', 4)
                        : tr(" (no price for %1)").arg(all.unpriced.join(QStringLiteral(", ")));
    }
    m_estimate->setText(text + QLatin1Char('.'));
}

void TriggerLabDialog::updateHarness(const SkillCatalogue *cat)
{
    const QString harness = m_harness->harness();
    QStringList lines;
    if (Harness::isAgentCli(harness)) {
        const QString label = Harness::label(harness);
        const QString skills =
            cat ? tr("all %n catalogue skills", nullptr, int(cat->entries().size())) : tr("every catalogue skill");
        lines << tr("In %1 each trial runs the real CLI once, in the sandbox, with %2 installed in %3: a trial costs "
                    "%1's whole prompt (its own instructions and tools, and the skills' listing), not one short "
                    "request.")
                     .arg(label, skills, HarnessChoice::skillsFolderOf(harness));
        lines << m_harness->statusLines(students());
    } else {
        lines << tr("Each trial is one request to the student with the catalogue listed and a tool to load a skill.");
    }
    m_harnessSummary->setText(lines.join(u'\n'));
    const bool ready = m_harness->problem(students()).isEmpty();
    m_measureButton->setEnabled(!m_running && ready);
    m_optimizeButton->setEnabled(!m_running && ready);
}

void TriggerLabDialog::setRunning(bool running)
{
    m_running = running;
    m_harness->setEnabled(!running);
    m_cancelButton->setEnabled(running);
    updateEstimate();
}

void TriggerLabDialog::measure()
{
    QString why;
    const auto cat = catalogue(&why);
    if (!cat || m_queries->queries().isEmpty() || students().isEmpty() || isRunning()) {
        m_status->setText(!cat ? why : tr("Add queries and at least one student."));
        return;
    }
    if (const QString problem = m_harness->problem(students()); !problem.isEmpty()) {
        m_status->setText(problem);
        return;
    }
    m_harness->remember();
    rememberStudentModels(students());
    showFailedProposal(false);
    delete m_optimizer.data(); // one that failed, kept for Retry, is done with
    m_iterationsShown.clear();
    m_proposals->clear();
    m_chart->removeAllSeries();
    m_runner = new TriggerRunner(m_client, *cat, m_queries->queries(), config(), this);
    connect(m_runner, &TriggerRunner::trialFinished, this, [this](const TriggerTrial &, int done, int total) {
        m_status->setText(tr("Measuring: %1 of %2 trials").arg(done).arg(total));
    });
    connect(m_runner, &TriggerRunner::finished, this, &TriggerLabDialog::onMeasured);
    connect(m_runner, &TriggerRunner::failed, this, [this](const QString &message) {
        m_status->setText(message);
        m_runner->deleteLater();
        setRunning(false);
        Q_EMIT finished();
    });
    setRunning(true);
    m_tabs->setCurrentIndex(1);
    m_runner->start();
}

void TriggerLabDialog::cancel()
{
    if (m_runner)
        m_runner->cancel(); // finished follows, with what was measured so far
    if (m_optimizer)
        m_optimizer->cancel();
}

void TriggerLabDialog::onMeasured()
{
    TriggerRunner *runner = m_runner;
    const TriggerMeasurement m =
        measureTrigger(runner->queries(), runner->catalogue().candidate().name, students(), runner->trials());
    m_results->setMeasurement(m, runner->queries());
    plot(0, m);
    QStringList parts;
    for (const ModelTriggerRates &r : m.models)
        parts.append(tr("%1: recall %2% [%3–%4%], false positives %5% [%6–%7%]")
                         .arg(r.model)
                         .arg(qRound(r.recall.rate * 100))
                         .arg(qRound(r.recall.ci.low * 100))
                         .arg(qRound(r.recall.ci.high * 100))
                         .arg(qRound(r.falsePositiveRate.rate * 100))
                         .arg(qRound(r.falsePositiveRate.ci.low * 100))
                         .arg(qRound(r.falsePositiveRate.ci.high * 100)));
    if (runner->stopReason() != QLatin1String("complete"))
        parts.append(tr("stopped early (%1)").arg(runner->stopReason()));
    m_status->setText(parts.join(QStringLiteral("; ")));
    runner->deleteLater();
    m_runner = nullptr;
    setRunning(false);
    Q_EMIT finished();
}

void TriggerLabDialog::optimize()
{
    QString why;
    const auto cat = catalogue(&why);
    if (!cat || m_queries->queries().isEmpty() || students().isEmpty() || isRunning()) {
        m_status->setText(!cat ? why : tr("Add queries and at least one student."));
        return;
    }
    if (m_teacher->currentText().trimmed().isEmpty()) {
        m_status->setText(tr("Choose a teacher to rewrite the description."));
        return;
    }
    if (const QString problem = m_harness->problem(students()); !problem.isEmpty()) {
        m_status->setText(problem);
        return;
    }
    m_harness->remember();
    TriggerOptimizeRequest request;
    request.skillDir = skillDir();
    request.queries = m_queries->queries();
    for (const CatalogueEntry &e : cat->entries()) {
        if (e.name != cat->candidate().name)
            request.others.append(e);
    }
    request.config = config();
    request.maxCostUsd = request.config.maxCostUsd;
    request.config.maxCostUsd.reset();
    request.teacherModel = m_teacher->currentText().trimmed();
    request.maxIterations = m_iterations->value();
    request.holdout = m_holdout->value();
    rememberStudentModels(students());
    rememberTeacherModel(request.teacherModel);
    showFailedProposal(false);
    delete m_optimizer.data(); // one that failed, kept for Retry: Optimize begins anew
    m_original = cat->candidate().description;
    m_iterationsShown.clear();
    m_proposals->clear();
    m_chart->removeAllSeries();
    m_optimizer = new TriggerOptimizer(m_client, this);
    connect(m_optimizer, &TriggerOptimizer::stage, m_status, &QLabel::setText);
    connect(m_optimizer, &TriggerOptimizer::iterationEvaluated, this, &TriggerLabDialog::onIteration);
    connect(m_optimizer, &TriggerOptimizer::finished, this, &TriggerLabDialog::onOptimized);
    connect(m_optimizer, &TriggerOptimizer::failed, this, &TriggerLabDialog::onOptimizeFailed);
    setRunning(true);
    m_tabs->setCurrentIndex(1);
    m_optimizer->start(request);
}

void TriggerLabDialog::onOptimizeFailed(const QString &message)
{
    setRunning(false);
    if (m_optimizer->canRetry()) {
        // Only the teacher's proposal is missing: the measurements stand. A short message; the reply behind a button.
        QString text = tr("The teacher's proposal failed: %1.").arg(message);
        if (!m_iterationsShown.isEmpty())
            text += tr(" The %n measurement(s) made so far are kept: Retry asks the teacher again.", nullptr,
                       int(m_iterationsShown.size()));
        m_status->setText(text);
        showFailedProposal(true);
    } else {
        m_status->setText(message);
        m_optimizer->deleteLater();
        m_optimizer = nullptr;
    }
    Q_EMIT finished();
}

void TriggerLabDialog::showFailedProposal(bool show)
{
    m_retry->setVisible(show);
    m_showReply->setVisible(show && !failedReply().isEmpty());
}

QString TriggerLabDialog::failedReply() const
{
    return m_optimizer && m_optimizer->canRetry() ? m_optimizer->failedReply() : QString();
}

void TriggerLabDialog::showReply()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("The Teacher's Reply"));
    auto *text = new QPlainTextEdit(failedReply(), &dialog);
    text->setReadOnly(true);
    text->setObjectName(QStringLiteral("teacherReply"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(&dialog);
    layout->addWidget(text);
    layout->addWidget(buttons);
    dialog.resize(720, 480);
    dialog.exec();
}

void TriggerLabDialog::retryProposal()
{
    if (!m_optimizer || !m_optimizer->canRetry())
        return;
    showFailedProposal(false);
    setRunning(true);
    m_status->setText(tr("Asking the teacher again…"));
    m_optimizer->retry();
}

void TriggerLabDialog::onIteration(const TriggerIteration &iteration)
{
    m_iterationsShown.append(iteration);
    m_results->setMeasurement(iteration.measurement, m_queries->queries(), m_optimizer->heldOut());
    plot(iteration.number, iteration.measurement);
    QString label = iteration.number == 0 ? tr("Original") : tr("Proposal %1").arg(iteration.number);
    label += tr(" — train %1/%2").arg(iteration.trainPassed).arg(iteration.trainTotal);
    if (iteration.heldOutTotal)
        label += tr(", held out %1/%2").arg(iteration.heldOutPassed).arg(iteration.heldOutTotal);
    m_proposals->addItem(label);
}

void TriggerLabDialog::onOptimized(const QString &reason)
{
    const TriggerIteration *best = m_optimizer->best();
    QString text = tr("Stopped (%1).").arg(reason);
    if (m_optimizer->spend().requests() > 0)
        text += tr(" %1 spent.").arg(m_optimizer->spend().text());
    if (best && best->number > 0)
        text += tr(" Best: proposal %1; review it in Proposals and accept it to use it.").arg(best->number);
    else if (best)
        text += tr(" No proposal beat the original description.");
    m_status->setText(text);
    for (int row = 0; row < m_proposals->count(); ++row) {
        if (best && row == best->number)
            m_proposals->item(row)->setText(m_proposals->item(row)->text() + tr(" (best)"));
    }
    m_optimizer->deleteLater();
    m_optimizer = nullptr;
    setRunning(false);
    if (best) {
        m_tabs->setCurrentIndex(2);
        m_proposals->setCurrentRow(best->number);
    }
    Q_EMIT finished();
}

void TriggerLabDialog::showProposal(int row)
{
    if (row < 0 || row >= m_iterationsShown.size())
        return;
    // One sentence a line, so that the diff shows which sentences the teacher changed.
    const auto sentences = [](QString text) {
        static const QRegularExpression end(QStringLiteral("([.!?;])\\s+"));
        return text.replace(end, QStringLiteral("\\1\n"));
    };
    m_diff->setTexts(sentences(m_original), sentences(m_iterationsShown.at(row).description), tr("Original"),
                     row == 0 ? tr("Original") : tr("Proposal %1").arg(row));
}

bool TriggerLabDialog::acceptProposal(int iteration)
{
    if (iteration <= 0 || iteration >= m_iterationsShown.size() || isRunning())
        return false;
    const QString error = SkillVersionStore(skillDir()).restore(m_iterationsShown.at(iteration).versionId);
    if (!error.isEmpty()) {
        m_status->setText(error);
        return false;
    }
    m_status->setText(tr("The skill now has proposal %1's description (version %2).")
                          .arg(iteration)
                          .arg(m_iterationsShown.at(iteration).versionId));
    Q_EMIT skillChanged(skillDir());
    updateEstimate();
    return true;
}

void TriggerLabDialog::plot(int iteration, const TriggerMeasurement &measurement)
{
    for (int i = 0; i < measurement.models.size(); ++i) {
        const ModelTriggerRates &r = measurement.models.at(i);
        for (const bool recall : {true, false}) {
            const QString name = recall ? tr("%1 recall").arg(r.model) : tr("%1 FPR").arg(r.model);
            QLineSeries *line = nullptr;
            for (QAbstractSeries *s : m_chart->series()) {
                if (s->name() == name)
                    line = static_cast<QLineSeries *>(s);
            }
            if (!line) {
                line = new QLineSeries(m_chart);
                line->setName(name);
                // Recall and false positives of one model in two colours (and solid vs dashed), each model its own
                // pair.
                QPen pen(charts::okabeIto(2 * i + (recall ? 4 : 5)));
                pen.setWidth(2);
                if (!recall)
                    pen.setStyle(Qt::DashLine);
                line->setPen(pen);
                charts::showPoints(line);
                m_chart->addSeries(line);
                m_chart->legend()->setVisible(true);
                for (QAbstractAxis *axis : m_chart->axes())
                    line->attachAxis(axis);
            }
            line->append(iteration, recall ? r.recall.rate : r.falsePositiveRate.rate);
        }
    }
    m_iterationAxis->setRange(-0.5, std::max(1, iteration) + 0.5);
}

} // namespace sf
