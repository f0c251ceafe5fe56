#pragma once

#include <QString>

namespace sf {

/// Estimates how many tokens @p text costs a model, without a tokenizer (models differ; none is bundled).
///
/// The approximation counts word-like runs and symbols separately, because that is where the common
/// "4 characters per token" rule goes wrong on code:
/// - a run of ASCII letters, digits and '_' costs ceil(length / 6) tokens (BPE vocabularies hold most
///   English words whole and split long identifiers into pieces of a few characters);
/// - a punctuation or symbol character costs 1 token, and a run of the same one ("---", "**") costs
///   ceil(length / 4) (code is dense in them: `{}();<>*`);
/// - whitespace is free, except that a run of 4 or more spaces or tabs (code indentation) costs 1;
/// - each other character (non-ASCII: CJK, accents, emoji) costs 1 token.
/// On English prose this gives about 4 characters per token, as the common rule and cl100k/Claude
/// tokenizers do; on C++/CUDA about 3, as real tokenizers give. Expect +-15%, enough for budgets.
int estimateTokens(const QString &text);

} // namespace sf
