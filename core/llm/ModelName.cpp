#include "ModelName.h"

using namespace Qt::StringLiterals;

namespace sf {

Result<ModelName> ModelName::parse(const QString &text)
{
    const QString trimmed = text.trimmed();
    const qsizetype colon = trimmed.indexOf(u':');
    if (colon < 0) {
        return Result<ModelName>::failure(
            u"Model name '%1' must be PROVIDER:MODEL, e.g. anthropic:claude-opus-4-5"_s.arg(text));
    }
    ModelName name{trimmed.left(colon).trimmed(), trimmed.mid(colon + 1).trimmed()};
    if (name.provider.isEmpty()) {
        return Result<ModelName>::failure(u"Model name '%1' has no provider before the colon"_s.arg(text));
    }
    if (name.model.isEmpty()) {
        return Result<ModelName>::failure(u"Model name '%1' has no model after the colon"_s.arg(text));
    }
    return Result<ModelName>::success(std::move(name));
}

QString ModelName::toString() const
{
    return provider % u':' % model;
}

} // namespace sf
