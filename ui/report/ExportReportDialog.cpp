#include "ExportReportDialog.h"

#include "common/Plural.h"
#include "common/RunList.h"
#include "jobs/Job.h"
#include "jobs/JobListModel.h"
#include "project/AppSettings.h"

#include <QComboBox>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace sf {

namespace {

using Outcome = std::variant<QStringList, QString>;

QString formatLabel(ReportFormat format)
{
    switch (format) {
    case ReportFormat::Html:
        return ExportReportDialog::tr("HTML — one self-contained page with charts and transcripts");
    case ReportFormat::Pdf:
        return ExportReportDialog::tr("PDF — paged charts and tables");
    case ReportFormat::Markdown:
        return ExportReportDialog::tr("Markdown — tables, charts as PNG files beside it");
    case ReportFormat::Csv:
        return ExportReportDialog::tr("CSV — one row per item");
    case ReportFormat::Json:
        return ExportReportDialog::tr("JSON — everything");
    case ReportFormat::JUnit:
        return ExportReportDialog::tr("JUnit XML — for CI systems (one run)");
    }
    return {};
}

QWidget *withButton(QWidget *field, QPushButton *button)
{
    auto *row = new QWidget;
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(field, 1);
    layout->addWidget(button);
    return row;
}

/// Selects @p dir in @p combo, adding it (described from its run.json) when it is not listed.
void selectRun(QComboBox *combo, const QString &dir)
{
    if (dir.trimmed().isEmpty()) {
        combo->setCurrentIndex(std::max(0, combo->findData(QString())));
        return;
    }
    // The path as listRuns() and describeRun() give it; run.json is read only for a run not listed yet.
    int index = combo->findData(QDir::cleanPath(QFileInfo(dir.trimmed()).absoluteFilePath()));
    if (index < 0)
        index = addRunItem(combo, describeRun(dir.trimmed()));
    combo->setCurrentIndex(index);
}

} // namespace

ExportReportDialog::ExportReportDialog(JobListModel *jobs, QWidget *parent)
    : QDialog(parent)
    , m_jobs(jobs)
    , m_run(new QComboBox)
    , m_compare(new QComboBox)
    , m_format(new QComboBox)
    , m_output(new QLineEdit)
    , m_status(new QLabel)
    , m_export(new QPushButton(tr("&Export")))
    , m_open(new QPushButton(tr("&Open")))
{
    setWindowTitle(tr("Export Report"));
    m_run->setObjectName(QStringLiteral("runChoice"));
    m_run->setPlaceholderText(tr("no run in this project yet: Browse… for a run folder"));
    m_compare->setObjectName(QStringLiteral("compareChoice"));
    m_compare->addItem(tr("(no second run)"), QString());
    for (const QString &name : reportFormatNames()) {
        const ReportFormat format = *reportFormatFromName(name);
        m_format->addItem(formatLabel(format), int(format));
    }
    auto *browseRun = new QPushButton(tr("Browse…"));
    auto *browseCompare = new QPushButton(tr("Browse…"));
    auto *browseOutput = new QPushButton(tr("Browse…"));
    connect(browseRun, &QPushButton::clicked, this, [this] { chooseRun(m_run); });
    connect(browseCompare, &QPushButton::clicked, this, [this] { chooseRun(m_compare); });
    connect(browseOutput, &QPushButton::clicked, this, &ExportReportDialog::chooseOutput);

    auto *form = new QFormLayout;
    form->addRow(tr("&Run:"), withButton(m_run, browseRun));
    form->addRow(tr("&Compare with:"), withButton(m_compare, browseCompare));
    form->addRow(tr("&Format:"), m_format);
    form->addRow(tr("&Save as:"), withButton(m_output, browseOutput));

    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_open->setVisible(false);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->addButton(m_open, QDialogButtonBox::ActionRole);
    buttons->addButton(m_export, QDialogButtonBox::AcceptRole);
    m_export->setDefault(true);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_export, &QPushButton::clicked, this, &ExportReportDialog::startExport);
    connect(m_open, &QPushButton::clicked, this, [this] { QDesktopServices::openUrl(QUrl::fromLocalFile(m_written)); });

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addStretch();
    layout->addWidget(buttons);
    resize(640, sizeHint().height());

    connect(m_run, &QComboBox::currentIndexChanged, this, &ExportReportDialog::suggestOutput);
    connect(m_compare, &QComboBox::currentIndexChanged, this, &ExportReportDialog::suggestOutput);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ExportReportDialog::suggestOutput);
    connect(m_output, &QLineEdit::textEdited, this, [this] { m_outputEdited = true; });
    connect(m_output, &QLineEdit::textChanged, this, &ExportReportDialog::updateButtons);
    updateButtons();
}

ExportReportDialog *ExportReportDialog::exportRun(JobListModel *jobs, const QString &runDir, const QString &compareDir,
                                                  const QString &browseFrom, QWidget *parent)
{
    auto *dialog = new ExportReportDialog(jobs, parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setBrowseFolder(browseFrom);
    dialog->setRunDir(runDir);
    dialog->setCompareDir(compareDir);
    dialog->show();
    return dialog;
}

void ExportReportDialog::setBrowseFolder(const QString &folder)
{
    m_browseFrom = folder;
    const QString run = runDir(), compared = compareDir();
    const QList<RunListEntry> runs = listRuns(folder);
    fillRunCombo(m_run, runs, run);
    fillRunCombo(m_compare, runs, compared, tr("(no second run)"));
    if (!run.isEmpty())
        selectRun(m_run, run);
    if (!compared.isEmpty())
        selectRun(m_compare, compared);
    suggestOutput();
}

void ExportReportDialog::setRunDir(const QString &dir)
{
    selectRun(m_run, dir);
    suggestOutput();
}

void ExportReportDialog::setCompareDir(const QString &dir)
{
    selectRun(m_compare, dir);
    suggestOutput();
}

QString ExportReportDialog::runDir() const
{
    return m_run->currentData().toString();
}

QString ExportReportDialog::compareDir() const
{
    return m_compare->currentData().toString();
}

void ExportReportDialog::setFormat(ReportFormat format)
{
    m_format->setCurrentIndex(m_format->findData(int(format)));
}

void ExportReportDialog::setOutputPath(const QString &path)
{
    m_output->setText(path);
    m_outputEdited = !path.isEmpty();
}

QString ExportReportDialog::outputPath() const
{
    return m_output->text();
}

QString ExportReportDialog::statusText() const
{
    return m_status->text();
}

ReportFormat ExportReportDialog::currentFormat() const
{
    return ReportFormat(m_format->currentData().toInt());
}

void ExportReportDialog::chooseRun(QComboBox *target)
{
    const QString current = target->currentData().toString();
    const QString start = current.isEmpty() ? m_browseFrom : current;
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Choose a Run Folder"), start);
    if (!dir.isEmpty()) {
        selectRun(target, dir);
        suggestOutput();
    }
}

void ExportReportDialog::chooseOutput()
{
    const QString ext = reportExtension(currentFormat());
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Report As"), m_output->text(),
                                                      tr("%1 files (*.%2)").arg(ext.toUpper(), ext));
    if (!path.isEmpty())
        setOutputPath(path);
}

void ExportReportDialog::suggestOutput()
{
    // Until the user types a path of their own: <project>/reports/<run id>[-vs-<other>].<ext>, beside runs/.
    if (!m_outputEdited && !runDir().isEmpty()) {
        const QFileInfo run(QDir::cleanPath(runDir()));
        QString name = run.fileName();
        if (!compareDir().isEmpty())
            name += QStringLiteral("-vs-") + QFileInfo(QDir::cleanPath(compareDir())).fileName();
        const QDir project(QFileInfo(run.absolutePath()).absolutePath());
        m_output->setText(
            project.filePath(QStringLiteral("reports/%1.%2").arg(name, reportExtension(currentFormat()))));
    }
    updateButtons();
}

void ExportReportDialog::updateButtons()
{
    m_export->setEnabled(!m_running && !runDir().isEmpty() && !m_output->text().trimmed().isEmpty());
}

void ExportReportDialog::startExport()
{
    if (m_running || this->runDir().isEmpty() || m_output->text().trimmed().isEmpty())
        return;
    const ReportFormat format = currentFormat();
    const QString runDir = this->runDir(), compareDir = this->compareDir();
    const QString path = m_output->text().trimmed();
    if (!compareDir.isEmpty() && !reportSupportsCompare(format)) {
        m_status->setText(tr("A %1 report describes one run: clear \"Compare with\" or choose another format.")
                              .arg(reportFormatName(format)));
        return;
    }
    m_running = true;
    m_open->setVisible(false);
    m_status->setText(tr("Writing %1…").arg(QDir::toNativeSeparators(path)));
    if (m_jobs) {
        m_job = m_jobs->add(
            new Job(tr("Export %1 report of %2").arg(reportFormatName(format).toUpper(), runNameIn(runDir))));
        m_job->setCancellable(false); // one atomic write: there is nothing half-done to stop
    }
    updateButtons();
    auto *watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        watcher->deleteLater();
        onDone(watcher->result());
    });
    // The verdicts by the thresholds the user set (read here: settings belong to the UI thread).
    ReportOptions options;
    options.verdicts = AppSettings().verdictThresholds();
    watcher->setFuture(QtConcurrent::run([runDir, compareDir, format, path, options] {
        return exportReport(runDir, compareDir, format, path, options);
    }));
}

void ExportReportDialog::onDone(const std::variant<QStringList, QString> &outcome)
{
    m_running = false;
    updateButtons();
    if (const QString *error = std::get_if<QString>(&outcome)) {
        m_status->setText(tr("The report could not be written: %1").arg(*error));
        if (m_job)
            m_job->fail(*error);
        Q_EMIT exportFailed(*error);
        return;
    }
    const QStringList files = std::get<QStringList>(outcome);
    m_written = files.value(0);
    QString text = tr("Written: %1").arg(QDir::toNativeSeparators(m_written));
    if (files.size() > 1)
        text += plural(files.size() - 1, tr(" (and 1 chart image beside it)"), tr(" (and %n chart images beside it)"));
    m_status->setText(text);
    m_open->setVisible(true);
    if (m_job)
        m_job->finish(QDir::toNativeSeparators(m_written));
    Q_EMIT exported(m_written);
}

} // namespace sf
