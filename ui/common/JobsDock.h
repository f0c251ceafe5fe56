#pragma once

#include <QDockWidget>
#include <QPointer>
#include <QSet>

class QMainWindow;
class QToolButton;

namespace sf {

class Job;
class JobListModel;
class JobsPanel;

/**
 * The Jobs panel docked at the foot of the main window, and a status bar button that counts its jobs while it is
 * away. It comes by itself for work that lasts (a job still running after a moment), unless the user closed it: then
 * it stays away, the button says what runs, and only a job that fails, the View menu or the button bring it back.
 * It goes when its list empties.
 */
class JobsDock final : public QDockWidget
{
    Q_OBJECT

public:
    /// How long a job must run before the dock comes for it: work that ends at once does not flash it.
    static constexpr int ShowAfterMs = 700;

    JobsDock(JobListModel *model, QMainWindow *window);

    JobsPanel *panel() const { return m_panel; }
    /// For the window's status bar: "Jobs: 2 running" while the dock is away and lists jobs; shows the dock.
    QToolButton *statusButton() const { return m_statusButton; }
    /// The user closed the dock (its close button, the View menu) and has not opened it since.
    bool closedByUser() const { return m_closedByUser; }

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    /// Shows the dock tall enough for its jobs (up to JobsPanel::MaxRowsShown), never shrinking it.
    void appear();
    void onJobsChanged(int firstRow, int lastRow);
    void updateStatusButton();

    QPointer<JobListModel> m_model; ///< may go before the window does
    QMainWindow *m_window;
    JobsPanel *m_panel;
    QToolButton *m_statusButton;
    bool m_closedByUser = false;
    QSet<const Job *> m_failuresShown; ///< failed jobs the dock already came for (forgotten when the list empties)
};

} // namespace sf
