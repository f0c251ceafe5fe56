#pragma once

#include "EvalResult.h"
#include "StudentTools.h"
#include "TestSuite.h"

#include <QJsonObject>
#include <QObject>
#include <QStringList>
#include <optional>

namespace sf {

/// The settings of an evaluation, recorded in run.json.
struct EvalConfig
{
    QStringList models;
    int runs = 1;                            ///< repeats of a case that does not say
    QString mode = QStringLiteral("inline"); ///< "inline" or "agentic"
    int concurrency = 4;
    int maxTurns = 12;          ///< model calls per item
    qint64 maxTokens = 200000;  ///< input + output tokens per item
    int timeoutSeconds = 600;   ///< wall time per item
    int maxOutputTokens = 2048; ///< per model call
    int commandTimeoutSeconds = 60;
    std::optional<double> temperature;
    std::optional<double> topP;
    std::optional<qint64> seed;
    QString judgeModel;
    bool studentTools = true; ///< offer read_file/write_file/list_files/run_command (off for plain Q&A models)

    QJsonObject toJson() const;
    static EvalConfig fromJson(const QJsonObject &object);
};

/// One item handed to an executor: where it runs and everything it needs to run.
struct WorkItem
{
    ItemKey key;
    TestCase testCase;
    QString workspace; ///< an empty folder the item owns
};

/**
 * Runs work items and reports each one's result. The runner hands every item to an executor, so that the same
 * matrix can run in this process (LocalExecutor) or, later, as jobs on a cluster scheduler with the same
 * items in and the same results out.
 */
class Executor : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    /// Starts @p item; itemFinished() follows, always after start() has returned.
    virtual void start(const WorkItem &item) = 0;
    /// Abandons every item in flight; no itemFinished() follows for them.
    virtual void cancelAll() = 0;

Q_SIGNALS:
    void itemFinished(const sf::ItemResult &result, const QJsonObject &transcript);
};

} // namespace sf
