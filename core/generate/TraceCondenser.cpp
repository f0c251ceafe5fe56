#include "TraceCondenser.h"

#include "trace/TraceImport.h"

#include <QFileInfo>
#include <QSet>
#include <algorithm>
#include <vector>

namespace sf {

namespace {

constexpr int kCharsPerToken = 4; // the usual rough size of a token in English text and code

// Lower is more important.
enum Priority
{
    Selected = 0,
    Prompt = 1,
    Reasoning = 2,
    Call = 2,
    Failure = 2,
    Fix = 2,
    Output = 3,
    Event = 4
};

struct Candidate
{
    int thread = 0;
    int step = 0;
    int priority = Event;
    QString text;
};

int capFor(const TraceStep &step, bool selected)
{
    if (selected) {
        return 8000;
    }
    switch (step.kind) {
    case StepKind::ToolResult:
        return step.isError ? 3000 : 1200;
    case StepKind::ToolCall:
        return 2000;
    default:
        return 4000;
    }
}

QString render(const TraceStep &step, int cap)
{
    const QString text = shortenMiddle(step.text.toString().trimmed(), cap);
    switch (step.kind) {
    case StepKind::UserText:
        return QStringLiteral("USER: ") + text;
    case StepKind::AssistantText:
        return QStringLiteral("ASSISTANT: ") + text;
    case StepKind::Thinking:
        return QStringLiteral("THINKING: ") + text;
    case StepKind::ToolCall:
        return QStringLiteral("TOOL CALL %1: %2")
            .arg(step.toolName.toString(), shortenMiddle(step.input.toString(), cap));
    case StepKind::ToolResult:
        return QStringLiteral("TOOL RESULT%1 %2: %3")
            .arg(step.isError ? QStringLiteral(" (error)") : QString(), step.toolName.toString(), text);
    case StepKind::Image:
        return QStringLiteral("[image %1]").arg(step.text.toString());
    case StepKind::System:
        return QStringLiteral("SYSTEM: ") + text;
    }
    return text;
}

int priorityOf(const TraceThread &thread, int index)
{
    const TraceStep &step = thread.steps.at(size_t(index));
    switch (step.kind) {
    case StepKind::UserText:
        return Prompt;
    case StepKind::AssistantText:
    case StepKind::Thinking:
        return Reasoning;
    case StepKind::ToolCall:
        return Call;
    case StepKind::ToolResult:
        return step.isError ? Failure : Output;
    case StepKind::Image:
    case StepKind::System:
        return step.isError ? Failure : Event;
    }
    return Event;
}

} // namespace

QString shortenMiddle(const QString &text, int maxChars)
{
    if (text.size() <= maxChars) {
        return text;
    }
    const int keep = qMax(1, maxChars / 2);
    return text.left(keep) + QStringLiteral("\n[... %1 characters omitted ...]\n").arg(text.size() - 2 * keep) +
           text.right(keep);
}

QString condenseTrace(const Trace &trace, int budgetTokens, const TraceSelection *selection, TraceScope scope)
{
    const bool keptOnly = scope == TraceScope::KeptSteps && selection && !selection->steps.empty();
    QSet<QPair<int, int>> selected;
    if (selection) {
        for (const SelectedStep &step : selection->steps) {
            selected.insert({step.thread, step.step});
        }
    }
    std::vector<Candidate> candidates;
    for (int t = 0; t < int(trace.threads.size()); ++t) {
        const TraceThread &thread = trace.threads.at(size_t(t));
        bool afterFailure = false;
        for (int i = 0; i < int(thread.steps.size()); ++i) {
            const TraceStep &step = thread.steps.at(size_t(i));
            const bool isSelected = selected.contains({t, i});
            int priority = isSelected ? Selected : priorityOf(thread, i);
            // The first assistant move after a failure is how it was fixed.
            if (!isSelected && afterFailure &&
                (step.kind == StepKind::AssistantText || step.kind == StepKind::ToolCall ||
                 step.kind == StepKind::Thinking)) {
                priority = std::min<int>(priority, Fix);
                afterFailure = false;
            }
            if (step.isError) {
                afterFailure = true;
            }
            candidates.push_back({t, i, priority, render(step, capFor(step, isSelected))});
        }
    }

    // Take the most important steps first, earlier before later among equals, while they fit.
    std::vector<size_t> order(candidates.size());
    for (size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return candidates[a].priority < candidates[b].priority; });
    const qsizetype budget = qsizetype(budgetTokens) * kCharsPerToken;
    qsizetype used = 0;
    std::vector<bool> kept(candidates.size(), false);
    for (const size_t index : order) {
        const qsizetype size = candidates[index].text.size() + 2;
        if (candidates[index].priority != Selected && (keptOnly || used + size > budget)) {
            continue; // a smaller, less important step may still fit
        }
        kept[index] = true;
        used += size;
    }

    QString out;
    int lastThread = -1;
    int skipped = 0;
    for (size_t i = 0; i < candidates.size(); ++i) {
        const Candidate &candidate = candidates[i];
        if (candidate.thread != lastThread) {
            if (skipped > 0) {
                out += QStringLiteral("[... %1 steps omitted ...]\n\n").arg(skipped);
                skipped = 0;
            }
            const TraceThread &thread = trace.threads.at(size_t(candidate.thread));
            if (candidate.thread > 0) {
                out += QStringLiteral("## Subagent: %1\n\n").arg(thread.title.isEmpty() ? thread.id : thread.title);
            }
            lastThread = candidate.thread;
        }
        if (!kept[i]) {
            ++skipped;
            continue;
        }
        if (skipped > 0) {
            out += QStringLiteral("[... %1 steps omitted ...]\n\n").arg(skipped);
            skipped = 0;
        }
        out += candidate.text + QStringLiteral("\n\n");
    }
    if (skipped > 0) {
        out += QStringLiteral("[... %1 steps omitted ...]\n").arg(skipped);
    }
    return out.trimmed();
}

TraceForTeacher traceForTeacher(const QString &path, const QString &projectRoot, int budgetTokens, TraceScope scope)
{
    TraceForTeacher result;
    result.label = QFileInfo(path).fileName();
    const Result<Trace> trace = importTrace(path);
    if (!trace) {
        result.text = QStringLiteral("(could not be read: %1)").arg(trace.error);
        result.readable = false;
        return result;
    }
    for (const TraceThread &thread : trace.value->threads) {
        result.totalSteps += int(thread.steps.size());
    }
    std::optional<TraceSelection> selection;
    const QString selectionFile = TraceSelection::selectionPathFor(projectRoot, path);
    if (!projectRoot.isEmpty() && QFileInfo::exists(selectionFile)) {
        if (Result<TraceSelection> loaded = TraceSelection::load(selectionFile)) {
            selection = std::move(*loaded.value);
            result.keptSteps = int(selection->steps.size());
        }
    }
    result.scope = result.keptSteps > 0 ? scope : TraceScope::WholeTrace;
    result.text = condenseTrace(*trace.value, budgetTokens, selection ? &*selection : nullptr, result.scope);
    return result;
}

} // namespace sf
