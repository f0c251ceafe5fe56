#include "ToolOffer.h"

#include "EvalConfig.h"
#include "TestSuite.h"

using namespace Qt::StringLiterals;

namespace sf {

QString toolOfferName(ToolOffer offer)
{
    switch (offer) {
    case ToolOffer::Always:
        return u"always"_s;
    case ToolOffer::Never:
        return u"never"_s;
    case ToolOffer::Auto:
        break;
    }
    return u"auto"_s;
}

ToolOffer toolOfferFromName(const QString &name, ToolOffer fallback)
{
    for (const ToolOffer offer : {ToolOffer::Auto, ToolOffer::Always, ToolOffer::Never}) {
        if (name == toolOfferName(offer))
            return offer;
    }
    return fallback;
}

ToolDecision studentToolsFor(const TestCase &testCase, const EvalConfig &config)
{
    switch (config.studentTools) {
    case ToolOffer::Always:
        return {true, u"asked for (--tools)"_s};
    case ToolOffer::Never:
        return {false, u"refused (--no-tools)"_s};
    case ToolOffer::Auto:
        break;
    }
    if (config.mode == "agentic"_L1)
        return {true, u"agentic mode (the skill is loaded with a tool)"_s};
    if (const QString need = workspaceNeedOf(testCase); !need.isEmpty())
        return {true, need};
    return {false, u"answered in text"_s};
}

QString workspaceNeedOf(const TestCase &testCase)
{
    if (!testCase.files.isEmpty())
        return u"the case gives files"_s;
    const QList<VerifierSpec> verifiers = testCase.allVerifiers();
    for (const VerifierSpec &v : verifiers) {
        if (v.type == "command"_L1)
            return u"a verifier runs a command in the workspace"_s;
        if (v.type == "cuda_kernel"_L1)
            return u"a verifier builds a kernel from the workspace"_s;
        if (!v.path.isEmpty() || v.type == "file_exists"_L1 || v.type == "file_contains"_L1)
            return u"a verifier reads the workspace"_s;
    }
    return {};
}

} // namespace sf
