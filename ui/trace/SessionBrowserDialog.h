#pragma once

#include "trace/AgentSessions.h"

#include <QDialog>
#include <QFutureWatcher>

class QLabel;
class QStandardItemModel;
class QTreeView;
class QSortFilterProxyModel;

namespace sf {

/// Lists the Claude Code and Codex sessions on this machine (title, date, size, project) to open one.
class SessionBrowserDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit SessionBrowserDialog(const QString &claudeProjects, const QString &codexSessions,
                                  QWidget *parent = nullptr);
    QString selectedPath() const;
    bool isLoading() const { return m_watcher.isRunning(); }
    int sessionCount() const;

private:
    void fill(const QList<AgentSessionFile> &sessions);

    QStandardItemModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTreeView *m_view;
    QLabel *m_status;
    QFutureWatcher<QList<AgentSessionFile>> m_watcher;
};

} // namespace sf
