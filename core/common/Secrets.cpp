#include "Secrets.h"

#include <QRegularExpression>
#include <QStringBuilder>

using namespace Qt::StringLiterals;

namespace sf {

QString redactSecret(const QString &secret)
{
    const QString ellipsis = QString(QChar(0x2026));
    // Short secrets would be half revealed by their last four characters.
    if (secret.size() < 12) {
        return ellipsis;
    }
    // Keep a vendor prefix such as "sk-" or "hf_", which says which kind of key it is.
    static const QRegularExpression vendorPrefix(u"^[A-Za-z]{2,4}[-_]"_s);
    const QString prefix = vendorPrefix.match(secret).captured();
    return prefix % ellipsis % secret.right(4);
}

QString scrubSecrets(const QString &text)
{
    // Group 1, when present, is kept as written (the "Bearer " or "api_key=" before a secret); group 2 is the
    // secret. Key shapes: OpenAI/Anthropic "sk-", Hugging Face "hf_", GitHub "ghp_" and kin, AWS access key ids,
    // Google "AIza", Slack "xox?-".
    static const QRegularExpression secrets(
        u"()(\\b(?:sk|pk|rk)-[A-Za-z0-9_\\-]{16,}|\\bhf_[A-Za-z0-9]{16,}|\\bgh[opsur]_[A-Za-z0-9]{20,}"
        u"|\\bgithub_pat_[A-Za-z0-9_]{20,}|\\bAKIA[0-9A-Z]{16}\\b|\\bAIza[0-9A-Za-z_\\-]{30,}"
        u"|\\bxox[abprs]-[A-Za-z0-9\\-]{10,})"
        u"|(\\bBearer\\s+)([A-Za-z0-9._~+/=\\-]{8,})"
        u"|((?i:\\b(?:x-api-key|api[_-]?key|apikey|access[_-]?token|auth[_-]?token|secret|password|passwd|token|key))"
        u"\\s*[=:]\\s*[\"']?)([A-Za-z0-9._~+/\\-]{8,})"_s);
    QString result;
    result.reserve(text.size());
    qsizetype last = 0;
    auto matches = secrets.globalMatch(text);
    while (matches.hasNext()) {
        const QRegularExpressionMatch match = matches.next();
        int secretGroup = 2;
        for (int group : {2, 4, 6}) {
            if (match.capturedStart(group) >= 0) {
                secretGroup = group;
                break;
            }
        }
        result += QStringView(text).mid(last, match.capturedStart(secretGroup) - last);
        result += redactSecret(match.captured(secretGroup));
        last = match.capturedEnd(secretGroup);
    }
    result += QStringView(text).mid(last);
    return result;
}

} // namespace sf
