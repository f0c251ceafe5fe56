#pragma once

#include "jobs/Job.h"
#include "report/Report.h"

#include <QDialog>
#include <QPointer>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace sf {

class JobListModel;

/**
 * "Export Report…": the user picks a run (the project's runs by name, or any run folder), optionally a second run to
 * compare it with, a format and where to write; the export runs off the UI thread as a job in the Jobs panel, and the
 * dialog then shows the file with an "Open" button. It opens on the run on screen (exportRun()), else the newest.
 */
class ExportReportDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit ExportReportDialog(JobListModel *jobs, QWidget *parent = nullptr);

    /// Shows the dialog (non-modal, deleted on close) prefilled with @p runDir and @p compareDir; @p browseFrom is
    /// where "Browse…" starts (a project's runs folder). Returns the dialog.
    static ExportReportDialog *exportRun(JobListModel *jobs, const QString &runDir, const QString &compareDir = {},
                                         const QString &browseFrom = {}, QWidget *parent = nullptr);

    void setRunDir(const QString &dir);
    void setCompareDir(const QString &dir);
    void setFormat(ReportFormat format);
    void setOutputPath(const QString &path);
    /// Lists the runs in @p folder (a project's runs/) by name, newest first, and starts "Browse…" there.
    void setBrowseFolder(const QString &folder);
    QString runDir() const;     ///< the chosen run's folder
    QString compareDir() const; ///< "" when no second run is chosen
    QString outputPath() const;
    QString statusText() const;
    /// The report written by the last export, "" before one succeeded.
    QString writtenPath() const { return m_written; }
    Job *job() const { return m_job; }

public Q_SLOTS:
    /// Starts the export with the form's values (ignored while one is running).
    void startExport();

Q_SIGNALS:
    void exported(const QString &path);
    void exportFailed(const QString &error);

private:
    void chooseRun(QComboBox *target);
    void chooseOutput();
    void suggestOutput();
    void updateButtons();
    void onDone(const std::variant<QStringList, QString> &outcome);
    ReportFormat currentFormat() const;

    JobListModel *m_jobs;
    QString m_browseFrom;
    QString m_written;
    bool m_outputEdited = false;
    bool m_running = false;
    QPointer<Job> m_job;
    QComboBox *m_run;
    QComboBox *m_compare;
    QComboBox *m_format;
    QLineEdit *m_output;
    QLabel *m_status;
    QPushButton *m_export;
    QPushButton *m_open;
};

} // namespace sf
