#pragma once

#include <QString>

namespace sf {

/** "sk-abcdef…a1b2" -> "sk-…a1b2": enough to tell keys apart, never enough to use one. */
QString redactSecret(const QString &secret);

/** @p text with everything that looks like a credential (vendor API keys such as "sk-ant-…", "hf_…", "ghp_…",
 *  "Bearer …" tokens, "api_key=…"/"token: …" assignments) replaced by its redactSecret() form. For text that
 *  leaves the app (reports): a model may echo a key it saw in a file or an error message. */
QString scrubSecrets(const QString &text);

} // namespace sf
