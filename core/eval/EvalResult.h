#pragma once

#include "VerifierOutcome.h"
#include "usage/CostTally.h"
#include "usage/TokenUsage.h"

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>
#include <optional>

namespace sf {

/// One cell of a run's matrix: a model, an arm, a case and a repeat (1-based).
struct ItemKey
{
    QString model; ///< as given: PROVIDER:MODEL
    QString arm;   ///< "baseline" or "with_skill"
    QString caseId;
    int repeat = 1;

    /// "model|arm|case|repeat": unique within a run.
    QString toString() const;
    /// A file-name-safe form for transcripts and workspaces.
    QString fileName() const;
    friend bool operator==(const ItemKey &, const ItemKey &) = default;
};

inline const QString kBaselineArm = QStringLiteral("baseline");
inline const QString kWithSkillArm = QStringLiteral("with_skill");

/// An arm as people read it, in the GUI and in human reports: "without skill" or "with skill". Files, data
/// reports and the command line keep the ids.
inline QString armLabel(const QString &arm)
{
    if (arm == kBaselineArm)
        return QStringLiteral("without skill");
    if (arm == kWithSkillArm)
        return QStringLiteral("with skill");
    return arm;
}

/// Why the student stopped.
namespace StopReason {
inline const QString Answered = QStringLiteral("answered"); // it replied without asking for a tool
inline const QString MaxTurns = QStringLiteral("max_turns");
inline const QString MaxTokens = QStringLiteral("max_tokens");
inline const QString Timeout = QStringLiteral("timeout");
inline const QString Error = QStringLiteral("error");
inline const QString Cancelled = QStringLiteral("cancelled");
} // namespace StopReason

/// How an item's cost was worked out, when not as it ran (results.jsonl's "cost_priced").
namespace CostPriced {
/// After the run, from each request it recorded (a run from before requests were priced one by one).
inline const QString Afterwards = QStringLiteral("afterwards");
/// After the run, from the item's token totals: no per-request record was kept, so a tier is chosen by the sum.
inline const QString AfterwardsFromTotals = QStringLiteral("afterwards_from_totals");
} // namespace CostPriced

/// One finished item, as one line of results.jsonl.
struct ItemResult
{
    ItemKey key;
    QString split = QStringLiteral("train");
    bool passed = false;
    QList<VerifierOutcome> verifiers;
    QString answer; ///< the student's final text
    QString resolvedModel;
    QString provider;
    TokenUsage usage;
    /// The item's requests, each priced on its own and added up; absent when any of them has no price (never 0 for
    /// unknown).
    std::optional<double> costUsd;
    int unpricedRequests = 0; ///< requests no table priced (then costUsd is absent)
    double pricedPartUsd = 0; ///< with unpricedRequests: what the priced requests cost, so a partial sum is shown
    QString costPriced;       ///< how: "" as it ran, or CostPriced::Afterwards / AfterwardsFromTotals
    qint64 latencyMs = 0;     ///< wall time of the whole item
    qint64 llmMs = 0;         ///< time spent waiting for the model
    int turns = 0;            ///< model calls
    int toolCalls = 0;
    int toolErrors = 0;
    QMap<QString, int> toolCallCounts;
    QString stopReason;
    QString error;                    ///< non-empty: the item could not be judged (provider fault...)
    std::optional<bool> skillLoaded;  ///< agentic and agent-CLI with_skill items: did it load the skill
    std::optional<bool> toolsOffered; ///< built-in student: was it offered its tools (ToolOffer.h); unset before
    int skillLoadedAtTurn = 0;        ///< 1-based model call after which it loaded it
    QStringList skillFilesRead;       ///< agent-CLI items: files of the skill's folder it read, relative to the folder
    QString harnessSession;           ///< agent-CLI items: the CLI's own session file, relative to the run folder
    qint64 cliStartupMs = -1;         ///< agent-CLI items: from the CLI's start to its first model request
    QString transcript;               ///< path relative to the run folder
    QString startedAt;                ///< ISO 8601 UTC

    bool isError() const { return !error.isEmpty(); }
    /// Takes the item's cost from its requests' tally.
    void setCost(const CostTally &tally);
    /// "$0.0123", "price unknown", "$0.0100 for part of its requests, 1 unpriced".
    QString costText() const;
    qint64 totalTokens() const { return usage.totalInput() + usage.output; }

    QJsonObject toJson() const;
    static std::optional<ItemResult> fromJson(const QJsonObject &object);
};

/// The items of @p results that ended in an error: how many, and the first one's message (what a run that is not
/// finished says before pointing to --resume or Resume).
struct ErrorItems
{
    qsizetype count = 0;
    QString firstError;
};
ErrorItems errorItems(const QList<ItemResult> &results);

QJsonObject usageToJson(const TokenUsage &usage);
TokenUsage usageFromJson(const QJsonObject &object);

} // namespace sf
