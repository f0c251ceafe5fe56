#pragma once

#include "trace/Trace.h"

#include <QSortFilterProxyModel>
#include <bitset>

namespace sf {

/// Filters the timeline by step kind and by tool name; a subagent's call stays while any of its steps
/// passes, and thread headers always stay.
class TraceFilterModel final : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    explicit TraceFilterModel(QObject *parent = nullptr);

    void setKindVisible(StepKind kind, bool visible);
    bool isKindVisible(StepKind kind) const { return m_kinds.test(size_t(kind)); }
    /// Shows only calls and results of this tool (empty: every tool, and the other kinds).
    void setToolName(const QString &name);
    QString toolName() const { return m_toolName; }
    bool acceptsStep(const TraceStep &step) const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    void refilter();

    std::bitset<StepKindCount> m_kinds;
    QString m_toolName;
    QByteArray m_toolNameUtf8; ///< steps keep their tool names in UTF-8
};

} // namespace sf
