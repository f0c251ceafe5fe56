#pragma once

#include "EvalConfig.h"
#include "EvalResult.h"
#include "StudentTools.h"
#include "TestSuite.h"

#include <QJsonObject>
#include <QObject>

namespace sf {

/// One item handed to an executor: where it runs and everything it needs to run.
struct WorkItem
{
    ItemKey key;
    TestCase testCase;
    QString workspace; ///< an empty folder the item owns; "" when it needs none (no tools, files or file verifiers)
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
