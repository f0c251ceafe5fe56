#pragma once

#include <QString>

namespace sf {

struct EvalConfig;
struct TestCase;

/// Whether the student is offered its tools (read_file, write_file, list_files, run_command): "auto" offers them
/// only to a case that needs them, so a question answered in text is not turned into a tool loop (measured with the
/// embedded model on a 7-case upskill suite, 3 repeats: 477 s and 94 requests with tools, 131 s without, the same
/// passes).
enum class ToolOffer
{
    Auto,   ///< where the case needs them (the default)
    Always, ///< every case (--tools)
    Never,  ///< no case (--no-tools: a model that cannot call tools)
};

QString toolOfferName(ToolOffer offer);                               ///< "auto", "always", "never"
ToolOffer toolOfferFromName(const QString &name, ToolOffer fallback); ///< fallback for an unknown name

/// For one case under a run's settings: whether the student gets its tools, and why, in words for the run's summary
/// ("a verifier reads the workspace"). Both arms of a case get the same answer, so the comparison stays fair.
struct ToolDecision
{
    bool offered = false;
    QString why;
};
ToolDecision studentToolsFor(const TestCase &testCase, const EvalConfig &config);

/// Why @p testCase needs a workspace folder whatever the student's tools: files it gives, or a verifier that reads
/// the workspace or runs in it. Empty when it needs none.
QString workspaceNeedOf(const TestCase &testCase);

} // namespace sf
