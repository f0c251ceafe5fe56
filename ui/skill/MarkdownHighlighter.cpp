#include "skill/MarkdownHighlighter.h"

#include "common/Theme.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <optional>

namespace sf {

namespace {

// Block states. -1 (Qt's "none") and Body are the Markdown body.
constexpr int Body = 0;
constexpr int FrontMatter = 1;
constexpr int CodeFlag = 0x100; // inside a fenced block (or a whole file of code)
constexpr int TildeFlag = 0x40; // the fence is ~~~ rather than ```
constexpr int CarryShift = 4;   // bits 4-5: what a code line leaves open (MarkdownHighlighter::Carry)
constexpr int CarryMask = 0x30;
constexpr int LanguageMask = 0x0f;

using Language = MarkdownHighlighter::Language;
using Role = MarkdownHighlighter::Role;

int codeState(Language language, bool tilde, MarkdownHighlighter::Carry carry)
{
    return CodeFlag | (tilde ? TildeFlag : 0) | (int(carry) << CarryShift) | int(language);
}

MarkdownHighlighter::Carry carryOf(int state)
{
    return state < 0 ? MarkdownHighlighter::Carry::None : MarkdownHighlighter::Carry((state & CarryMask) >> CarryShift);
}

QSet<QString> words(std::initializer_list<const char16_t *> list)
{
    QSet<QString> set;
    for (const char16_t *word : list)
        set.insert(QString::fromUtf16(word));
    return set;
}

const QSet<QString> &cppKeywords()
{
    static const QSet<QString> set = words({u"alignas",       u"alignof",     u"auto",
                                            u"break",         u"case",        u"catch",
                                            u"class",         u"const",       u"constexpr",
                                            u"consteval",     u"constinit",   u"const_cast",
                                            u"continue",      u"decltype",    u"default",
                                            u"delete",        u"do",          u"dynamic_cast",
                                            u"else",          u"enum",        u"explicit",
                                            u"extern",        u"false",       u"for",
                                            u"friend",        u"goto",        u"if",
                                            u"inline",        u"mutable",     u"namespace",
                                            u"new",           u"noexcept",    u"nullptr",
                                            u"operator",      u"private",     u"protected",
                                            u"public",        u"register",    u"reinterpret_cast",
                                            u"return",        u"sizeof",      u"static",
                                            u"static_assert", u"static_cast", u"struct",
                                            u"switch",        u"template",    u"this",
                                            u"throw",         u"true",        u"try",
                                            u"typedef",       u"typename",    u"union",
                                            u"using",         u"virtual",     u"volatile",
                                            u"while",         u"concept",     u"requires",
                                            u"co_await",      u"co_return",   u"co_yield"});
    return set;
}

const QSet<QString> &cppTypes()
{
    static const QSet<QString> set =
        words({u"void",      u"bool",    u"char",     u"short",    u"int",       u"long",     u"float",
               u"double",    u"signed",  u"unsigned", u"size_t",   u"ptrdiff_t", u"int8_t",   u"int16_t",
               u"int32_t",   u"int64_t", u"uint8_t",  u"uint16_t", u"uint32_t",  u"uint64_t", u"intptr_t",
               u"uintptr_t", u"wchar_t", u"char8_t",  u"char16_t", u"char32_t"});
    return set;
}

const QSet<QString> &cudaKeywords()
{
    static const QSet<QString> set =
        words({u"__global__", u"__device__", u"__host__", u"__shared__", u"__constant__", u"__managed__",
               u"__restrict__", u"__launch_bounds__", u"__forceinline__", u"__noinline__", u"__grid_constant__"});
    return set;
}

const QSet<QString> &cudaTypes()
{
    static const QSet<QString> set =
        words({u"dim3", u"cudaStream_t", u"cudaError_t", u"cudaEvent_t", u"__nv_bfloat16", u"__nv_bfloat162", u"__half",
               u"__half2", u"float2", u"float4", u"int2", u"int4", u"uint2", u"uint4", u"half", u"nv_bfloat16"});
    return set;
}

const QSet<QString> &cudaBuiltins()
{
    static const QSet<QString> set = words({u"threadIdx",
                                            u"blockIdx",
                                            u"blockDim",
                                            u"gridDim",
                                            u"warpSize",
                                            u"__syncthreads",
                                            u"__syncwarp",
                                            u"__shfl_sync",
                                            u"__shfl_xor_sync",
                                            u"__shfl_down_sync",
                                            u"__shfl_up_sync",
                                            u"__ldg",
                                            u"atomicAdd",
                                            u"rsqrtf",
                                            u"fmaf",
                                            u"__float2bfloat16",
                                            u"__bfloat162float",
                                            u"__bfloat1622float2",
                                            u"__floats2bfloat162_rn",
                                            u"cudaGetLastError",
                                            u"cudaMalloc",
                                            u"cudaFree",
                                            u"cudaMemcpy",
                                            u"cudaMemcpyAsync",
                                            u"cudaMemset",
                                            u"cudaDeviceSynchronize",
                                            u"cudaStreamSynchronize",
                                            u"cudaEventRecord",
                                            u"cudaSuccess",
                                            u"cudaErrorInvalidValue"});
    return set;
}

const QSet<QString> &pythonKeywords()
{
    static const QSet<QString> set =
        words({u"and",  u"as",   u"assert", u"async", u"await",    u"break", u"class", u"continue", u"def",   u"del",
               u"elif", u"else", u"except", u"False", u"finally",  u"for",   u"from",  u"global",   u"if",    u"import",
               u"in",   u"is",   u"lambda", u"None",  u"nonlocal", u"not",   u"or",    u"pass",     u"raise", u"return",
               u"True", u"try",  u"while",  u"with",  u"yield",    u"match", u"case"});
    return set;
}

const QSet<QString> &pythonBuiltins()
{
    static const QSet<QString> set = words(
        {u"self", u"cls",  u"print", u"len", u"range", u"enumerate", u"zip", u"open", u"int", u"float",      u"str",
         u"bool", u"list", u"dict",  u"set", u"tuple", u"min",       u"max", u"abs",  u"sum", u"isinstance", u"super"});
    return set;
}

const QSet<QString> &bashKeywords()
{
    static const QSet<QString> set =
        words({u"if", u"then", u"else", u"elif", u"fi", u"for", u"while", u"until", u"do", u"done", u"case", u"esac",
               u"function", u"in", u"select", u"return", u"exit", u"time"});
    return set;
}

const QSet<QString> &bashBuiltins()
{
    static const QSet<QString> set = words({u"echo",   u"cd",    u"export",  u"local", u"readonly", u"set",  u"unset",
                                            u"source", u"alias", u"printf",  u"read",  u"shift",    u"test", u"trap",
                                            u"eval",   u"exec",  u"declare", u"pwd",   u"true",     u"false"});
    return set;
}

const QSet<QString> &jsonKeywords()
{
    static const QSet<QString> set = words({u"true", u"false", u"null"});
    return set;
}

bool isCLike(Language language)
{
    return language == Language::Cpp || language == Language::Cuda;
}

bool isIdentifierStart(QChar c)
{
    return c.isLetter() || c == u'_';
}

bool isIdentifierChar(QChar c)
{
    return c.isLetterOrNumber() || c == u'_';
}

/// A fence line: up to three spaces, then ``` or ~~~ (3 or more). Returns the fence length (0 if none).
int fenceLength(const QString &text, QChar *fenceChar, int *infoStart)
{
    int i = 0;
    while (i < text.size() && i < 3 && text[i] == u' ')
        ++i;
    if (i >= text.size() || (text[i] != u'`' && text[i] != u'~'))
        return 0;
    const QChar c = text[i];
    int n = 0;
    while (i + n < text.size() && text[i + n] == c)
        ++n;
    if (n < 3)
        return 0;
    *fenceChar = c;
    *infoStart = i + n;
    return n;
}

} // namespace

MarkdownHighlighter::MarkdownHighlighter(QTextDocument *document)
    : QSyntaxHighlighter(document)
{
    updateColors();
}

void MarkdownHighlighter::updateColors()
{
    const bool dark = Theme::isDark();
    const auto color = [dark](const char *light, const char *darkName) {
        return QColor(QString::fromLatin1(dark ? darkName : light));
    };
    const auto set = [this](Role role, const QColor &foreground, bool bold = false, bool italic = false) {
        QTextCharFormat format;
        if (foreground.isValid())
            format.setForeground(foreground);
        if (bold)
            format.setFontWeight(QFont::Bold);
        if (italic)
            format.setFontItalic(true);
        m_formats[size_t(role)] = format;
    };
    set(Role::Fence, color("#6a737d", "#8b949e"));
    set(Role::YamlKey, color("#0451a5", "#9cdcfe"), true);
    set(Role::YamlValue, color("#a31515", "#ce9178"));
    set(Role::YamlComment, color("#6a737d", "#6a9955"), false, true);
    set(Role::Heading, color("#1f4e99", "#6cb6ff"), true);
    set(Role::Emphasis, QColor(), false, true);
    set(Role::Strong, QColor(), true);
    set(Role::InlineCode, color("#b31d6b", "#d7ba7d"));
    set(Role::LinkText, color("#0366d6", "#4fa3ff"));
    m_formats[size_t(Role::LinkText)].setFontUnderline(true);
    set(Role::LinkUrl, color("#6a737d", "#8b949e"));
    set(Role::ListMarker, color("#d73a49", "#f97583"), true);
    set(Role::Quote, color("#6a737d", "#8b949e"), false, true);
    set(Role::Keyword, color("#0000c8", "#569cd6"), true);
    set(Role::Type, color("#267f99", "#4ec9b0"));
    set(Role::Builtin, color("#795e26", "#dcdcaa"));
    set(Role::String, color("#a31515", "#ce9178"));
    set(Role::Number, color("#098658", "#b5cea8"));
    set(Role::Comment, color("#6a737d", "#6a9955"), false, true);
    set(Role::Preprocessor, color("#af00db", "#c586c0"));
    set(Role::JsonKey, color("#0451a5", "#9cdcfe"));
    rehighlight();
}

void MarkdownHighlighter::setDocumentLanguage(Language language)
{
    if (language == m_documentLanguage)
        return;
    m_documentLanguage = language;
    rehighlight();
}

MarkdownHighlighter::Language MarkdownHighlighter::languageForFence(QStringView info)
{
    info = info.trimmed();
    const qsizetype end = info.indexOf(u' ');
    const QString word = (end < 0 ? info : info.left(end)).toString().toLower();
    if (word.isEmpty())
        return Language::Plain;
    if (word == u"cuda" || word == u"cu" || word == u"cuh")
        return Language::Cuda;
    if (word == u"c++" || word == u"cpp" || word == u"cxx" || word == u"cc" || word == u"c" || word == u"h" ||
        word == u"hpp")
        return Language::Cpp;
    if (word == u"python" || word == u"py" || word == u"python3")
        return Language::Python;
    if (word == u"bash" || word == u"sh" || word == u"shell" || word == u"zsh" || word == u"console")
        return Language::Bash;
    if (word == u"json" || word == u"jsonl" || word == u"jsonc")
        return Language::Json;
    return Language::Plain;
}

MarkdownHighlighter::Language MarkdownHighlighter::languageForFile(const QString &fileName)
{
    const QString suffix = QFileInfo(fileName).suffix().toLower();
    if (suffix == u"md" || suffix == u"markdown")
        return Language::Markdown;
    return languageForFence(suffix);
}

void MarkdownHighlighter::highlightBlock(const QString &text)
{
    const int previous = previousBlockState();

    if (m_documentLanguage != Language::Markdown) {
        setCurrentBlockState(
            codeState(m_documentLanguage, false, highlightCode(text, m_documentLanguage, carryOf(previous))));
        return;
    }

    // Front matter: only when the very first line is '---'.
    if (currentBlock().blockNumber() == 0) {
        if (text.trimmed() == u"---" && text.startsWith(u"---")) {
            setFormat(0, int(text.size()), format(Role::Fence));
            setCurrentBlockState(FrontMatter);
            return;
        }
    } else if (previous == FrontMatter) {
        const QString trimmed = text.trimmed();
        if ((trimmed == u"---" || trimmed == u"...") && !text.startsWith(u' ')) {
            setFormat(0, int(text.size()), format(Role::Fence));
            setCurrentBlockState(Body);
            return;
        }
        highlightYaml(text);
        setCurrentBlockState(FrontMatter);
        return;
    }

    if (previous >= 0 && (previous & CodeFlag)) {
        const QChar expected = (previous & TildeFlag) ? u'~' : u'`';
        QChar fenceChar;
        int infoStart = 0;
        if (fenceLength(text, &fenceChar, &infoStart) > 0 && fenceChar == expected &&
            text.mid(infoStart).trimmed().isEmpty()) {
            setFormat(0, int(text.size()), format(Role::Fence));
            setCurrentBlockState(Body);
            return;
        }
        const auto language = Language(previous & LanguageMask);
        setCurrentBlockState(codeState(language, expected == u'~', highlightCode(text, language, carryOf(previous))));
        return;
    }

    QChar fenceChar;
    int infoStart = 0;
    if (fenceLength(text, &fenceChar, &infoStart) > 0 && !(fenceChar == u'`' && text.indexOf(u'`', infoStart) >= 0)) {
        setFormat(0, int(text.size()), format(Role::Fence));
        setCurrentBlockState(
            codeState(languageForFence(QStringView(text).mid(infoStart)), fenceChar == u'~', Carry::None));
        return;
    }
    highlightMarkdownLine(text);
    setCurrentBlockState(Body);
}

void MarkdownHighlighter::highlightYaml(const QString &text)
{
    static const QRegularExpression keyPattern(QStringLiteral(R"(^(\s*(?:-\s+)?)([^\s#:'"][^:#]*?)\s*:(?=\s|$))"));
    int valueStart = 0;
    if (text.trimmed().startsWith(u'#')) {
        setFormat(0, int(text.size()), format(Role::YamlComment));
        return;
    }
    const QRegularExpressionMatch key = keyPattern.match(text);
    if (key.hasMatch()) {
        setFormat(int(key.capturedStart(2)), int(key.capturedLength(2)), format(Role::YamlKey));
        valueStart = int(key.capturedEnd(0));
    } else {
        const qsizetype dash = text.indexOf(QStringLiteral("- "));
        if (dash >= 0 && text.left(dash).trimmed().isEmpty()) {
            setFormat(int(dash), 1, format(Role::ListMarker));
            valueStart = int(dash + 1);
        }
    }
    // The value, up to a comment (a '#' after whitespace, outside quotes).
    int end = int(text.size());
    QChar quote;
    for (int i = valueStart; i < text.size(); ++i) {
        const QChar c = text[i];
        if (!quote.isNull()) {
            if (c == quote)
                quote = QChar();
        } else if (c == u'"' || c == u'\'') {
            quote = c;
        } else if (c == u'#' && (i == 0 || text[i - 1].isSpace())) {
            end = i;
            setFormat(i, int(text.size()) - i, format(Role::YamlComment));
            break;
        }
    }
    if (end > valueStart)
        setFormat(valueStart, end - valueStart, format(Role::YamlValue));
}

void MarkdownHighlighter::highlightMarkdownLine(const QString &text)
{
    static const QRegularExpression heading(QStringLiteral(R"(^ {0,3}#{1,6}(\s|$))"));
    static const QRegularExpression rule(QStringLiteral(R"(^ {0,3}([-*_])(\s*\1){2,}\s*$)"));
    static const QRegularExpression listMarker(QStringLiteral(R"(^(\s*)([-*+]|\d{1,9}[.)])(\s+\[[ xX]\])?\s)"));
    static const QRegularExpression quote(QStringLiteral(R"(^ {0,3}>)"));

    if (heading.match(text).hasMatch()) {
        setFormat(0, int(text.size()), format(Role::Heading));
        return;
    }
    if (rule.match(text).hasMatch()) {
        setFormat(0, int(text.size()), format(Role::Fence));
        return;
    }
    int from = 0;
    if (quote.match(text).hasMatch()) {
        setFormat(0, int(text.size()), format(Role::Quote));
        from = int(text.indexOf(u'>')) + 1;
    }
    const QRegularExpressionMatch list = listMarker.match(text);
    if (list.hasMatch()) {
        setFormat(int(list.capturedStart(2)), int(list.capturedLength(2)), format(Role::ListMarker));
        if (list.capturedLength(3) > 0)
            setFormat(int(list.capturedStart(3)), int(list.capturedLength(3)), format(Role::ListMarker));
        from = int(list.capturedEnd(0));
    }
    highlightInline(text, from);
}

void MarkdownHighlighter::highlightInline(const QString &text, int from)
{
    static const QRegularExpression strong(QStringLiteral(R"((\*\*|__)(?=\S)(.+?)(?<=\S)\1)"));
    static const QRegularExpression emphasis(QStringLiteral(
        R"((?<![*\w])\*(?=[^\s*])([^*]+?)(?<=\S)\*(?!\*)|(?<![_\w])_(?=[^\s_])([^_]+?)(?<=\S)_(?![_\w]))"));
    static const QRegularExpression link(QStringLiteral(R"(!?\[([^\]]*)\]\(([^)\s]*)(?:\s+"[^"]*")?\))"));
    static const QRegularExpression autolink(QStringLiteral(R"(<(https?://[^>\s]+)>|\bhttps?://[^\s)>\]]+)"));
    static const QRegularExpression codeSpan(QStringLiteral(R"((`+)(.+?)(?<!`)\1(?!`))"));

    for (auto it = strong.globalMatch(text, from); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        setFormat(int(m.capturedStart()), int(m.capturedLength()), format(Role::Strong));
    }
    for (auto it = emphasis.globalMatch(text, from); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        setFormat(int(m.capturedStart()), int(m.capturedLength()), format(Role::Emphasis));
    }
    for (auto it = link.globalMatch(text, from); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        setFormat(int(m.capturedStart(1)), int(m.capturedLength(1)), format(Role::LinkText));
        setFormat(int(m.capturedStart(2)), int(m.capturedLength(2)), format(Role::LinkUrl));
    }
    for (auto it = autolink.globalMatch(text, from); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        setFormat(int(m.capturedStart()), int(m.capturedLength()), format(Role::LinkText));
    }
    // Last, so that nothing inside a code span looks like emphasis or a link.
    for (auto it = codeSpan.globalMatch(text, from); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        setFormat(int(m.capturedStart()), int(m.capturedLength()), format(Role::InlineCode));
    }
}

MarkdownHighlighter::Carry MarkdownHighlighter::highlightCode(const QString &text, Language language, Carry carry)
{
    const int n = int(text.size());
    int i = 0;
    if (language == Language::Plain)
        return Carry::None;

    // Finishes what the previous line left open, if this line closes it.
    const auto closeCarried = [&](const QString &closer, Role role) {
        const qsizetype close = text.indexOf(closer);
        if (close < 0) {
            setFormat(0, n, format(role));
            return false;
        }
        setFormat(0, int(close + closer.size()), format(role));
        i = int(close + closer.size());
        return true;
    };
    switch (carry) {
    case Carry::CComment:
        if (!closeCarried(QStringLiteral("*/"), Role::Comment))
            return carry;
        break;
    case Carry::PythonTripleDouble:
        if (!closeCarried(QStringLiteral("\"\"\""), Role::String))
            return carry;
        break;
    case Carry::PythonTripleSingle:
        if (!closeCarried(QStringLiteral("'''"), Role::String))
            return carry;
        break;
    case Carry::None:
        break;
    }

    if (isCLike(language)) {
        // A preprocessor line: '#' first on the line.
        int first = i;
        while (first < n && text[first].isSpace())
            ++first;
        if (first < n && text[first] == u'#') {
            const qsizetype comment = text.indexOf(QStringLiteral("//"), first);
            const int end = comment < 0 ? n : int(comment);
            setFormat(first, end - first, format(Role::Preprocessor));
            if (comment >= 0)
                setFormat(end, n - end, format(Role::Comment));
            return Carry::None;
        }
    }

    while (i < n) {
        const QChar c = text[i];
        // Comments.
        if (isCLike(language) && c == u'/' && i + 1 < n && text[i + 1] == u'/') {
            setFormat(i, n - i, format(Role::Comment));
            return Carry::None;
        }
        if (isCLike(language) && c == u'/' && i + 1 < n && text[i + 1] == u'*') {
            const qsizetype close = text.indexOf(QStringLiteral("*/"), i + 2);
            if (close < 0) {
                setFormat(i, n - i, format(Role::Comment));
                return Carry::CComment;
            }
            setFormat(i, int(close) + 2 - i, format(Role::Comment));
            i = int(close) + 2;
            continue;
        }
        if (c == u'#' &&
            (language == Language::Python || (language == Language::Bash && (i == 0 || text[i - 1].isSpace())))) {
            setFormat(i, n - i, format(Role::Comment));
            return Carry::None;
        }
        // Python's triple-quoted strings (docstrings) may span lines.
        if (language == Language::Python && (c == u'"' || c == u'\'') && i + 2 < n && text[i + 1] == c &&
            text[i + 2] == c) {
            const QString triple(3, c);
            const qsizetype close = text.indexOf(triple, i + 3);
            if (close < 0) {
                setFormat(i, n - i, format(Role::String));
                return c == u'"' ? Carry::PythonTripleDouble : Carry::PythonTripleSingle;
            }
            setFormat(i, int(close) + 3 - i, format(Role::String));
            i = int(close) + 3;
            continue;
        }
        // Strings.
        if (c == u'"' || (c == u'\'' && language != Language::Json)) {
            int j = i + 1;
            while (j < n && text[j] != c) {
                if (text[j] == u'\\' && language != Language::Bash)
                    ++j;
                ++j;
            }
            const int end = qMin(n, j + 1);
            Role role = Role::String;
            if (language == Language::Json) {
                int k = end;
                while (k < n && text[k].isSpace())
                    ++k;
                if (k < n && text[k] == u':')
                    role = Role::JsonKey;
            }
            setFormat(i, end - i, format(role));
            i = end;
            continue;
        }
        // Numbers.
        if (c.isDigit() && (i == 0 || !isIdentifierChar(text[i - 1]))) {
            int j = i + 1;
            while (j < n && (text[j].isLetterOrNumber() || text[j] == u'.' || text[j] == u'_' ||
                             ((text[j] == u'-' || text[j] == u'+') && (text[j - 1] == u'e' || text[j - 1] == u'E'))))
                ++j;
            setFormat(i, j - i, format(Role::Number));
            i = j;
            continue;
        }
        // Shell variables and Python decorators.
        if (language == Language::Bash && c == u'$') {
            int j = i + 1;
            if (j < n && text[j] == u'{') {
                const qsizetype close = text.indexOf(u'}', j);
                j = close < 0 ? n : int(close) + 1;
            } else {
                while (j < n && (isIdentifierChar(text[j]) || (j == i + 1 && QStringView(u"@#?*!$").contains(text[j]))))
                    ++j;
            }
            setFormat(i, j - i, format(Role::Builtin));
            i = j;
            continue;
        }
        if (language == Language::Python && c == u'@' && (i == 0 || text.left(i).trimmed().isEmpty())) {
            int j = i + 1;
            while (j < n && (isIdentifierChar(text[j]) || text[j] == u'.'))
                ++j;
            setFormat(i, j - i, format(Role::Preprocessor));
            i = j;
            continue;
        }
        // Words.
        if (isIdentifierStart(c)) {
            int j = i + 1;
            while (j < n && (isIdentifierChar(text[j]) || (language == Language::Bash && text[j] == u'-')))
                ++j;
            const QString word = text.mid(i, j - i);
            std::optional<Role> role;
            switch (language) {
            case Language::Cuda:
                if (cudaKeywords().contains(word) || cppKeywords().contains(word))
                    role = Role::Keyword;
                else if (cudaTypes().contains(word) || cppTypes().contains(word))
                    role = Role::Type;
                else if (cudaBuiltins().contains(word))
                    role = Role::Builtin;
                break;
            case Language::Cpp:
                if (cppKeywords().contains(word))
                    role = Role::Keyword;
                else if (cppTypes().contains(word))
                    role = Role::Type;
                break;
            case Language::Python:
                if (pythonKeywords().contains(word))
                    role = Role::Keyword;
                else if (pythonBuiltins().contains(word))
                    role = Role::Builtin;
                break;
            case Language::Bash:
                if (bashKeywords().contains(word))
                    role = Role::Keyword;
                else if (bashBuiltins().contains(word))
                    role = Role::Builtin;
                break;
            case Language::Json:
                if (jsonKeywords().contains(word))
                    role = Role::Keyword;
                break;
            case Language::Markdown:
            case Language::Plain:
                break;
            }
            if (role)
                setFormat(i, j - i, format(*role));
            i = j;
            continue;
        }
        ++i;
    }
    return Carry::None;
}

} // namespace sf
