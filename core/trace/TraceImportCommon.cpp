#include "common/LoadError.h"
#include "trace/FlatIndex_p.h"
#include "trace/TraceImport_p.h"

#include <QJsonDocument>
#include <cstring>

// Warnings by default; the details with QT_LOGGING_RULES="skillforge.trace.debug=true".
Q_LOGGING_CATEGORY(lcTrace, "skillforge.trace", QtWarningMsg)

namespace sf::trace_import {

namespace {
constexpr qint64 ChunkBytes = 4 * 1024 * 1024;
constexpr qint64 MaxDocumentBytes = 1024LL * 1024 * 1024;
} // namespace

bool LineReader::fill()
{
    if (m_eof)
        return false;
    if (m_start > 0) {
        std::memmove(m_buffer.get(), m_buffer.get() + m_start, size_t(m_size - m_start));
        m_size -= m_start;
        m_start = 0;
    }
    if (m_capacity < m_size + ChunkBytes + Padding) {
        // Grows only for a line longer than what is held: by doubling, so a long line costs few copies.
        const qsizetype capacity = std::max<qsizetype>(m_size + ChunkBytes + Padding, 2 * m_capacity);
        auto grown = std::make_unique_for_overwrite<char[]>(size_t(capacity));
        if (m_size > 0)
            std::memcpy(grown.get(), m_buffer.get(), size_t(m_size));
        m_buffer = std::move(grown);
        m_capacity = capacity;
    }
    const qint64 want = m_unread < 0 ? ChunkBytes : std::min(ChunkBytes, m_unread);
    const qint64 got = want > 0 ? m_file->read(m_buffer.get() + m_size, want) : 0;
    m_size += std::max<qint64>(got, 0);
    if (m_unread > 0 && got > 0)
        m_unread -= got;
    std::memset(m_buffer.get() + m_size, 0, Padding);
    if (got <= 0)
        m_eof = true;
    return got > 0;
}

LineReader::Status LineReader::nextView(std::string_view *line, qint64 *lineNumber)
{
    qsizetype searchFrom = m_start;
    bool tooLong = false;
    for (;;) {
        const char *data = m_buffer.get();
        const auto *newline =
            data ? static_cast<const char *>(std::memchr(data + searchFrom, '\n', size_t(m_size - searchFrom)))
                 : nullptr;
        if (newline) {
            const qsizetype at = newline - data;
            *lineNumber = ++m_line;
            m_consumed += at + 1 - m_start;
            if (tooLong) {
                m_start = at + 1;
                *line = {};
                return Status::TooLong;
            }
            qsizetype end = at;
            if (end > m_start && data[end - 1] == '\r')
                --end;
            *line = std::string_view(data + m_start, size_t(end - m_start));
            m_start = at + 1;
            return Status::Line;
        }
        if (m_size - m_start > MaxLineBytes) {
            // Drop what was buffered of the overlong line and keep looking for its end.
            tooLong = true;
            m_consumed += m_size - m_start;
            m_size = 0;
            m_start = 0;
        }
        // fill() moves the unfinished line to the buffer's start: the search goes on after what was searched.
        const qsizetype searched = m_size - m_start;
        if (!fill()) {
            if (m_size == m_start && !tooLong)
                return Status::End;
            *lineNumber = ++m_line;
            m_consumed += m_size - m_start;
            *line = tooLong ? std::string_view() : std::string_view(m_buffer.get() + m_start, size_t(m_size - m_start));
            m_start = m_size;
            return tooLong ? Status::TooLong : Status::Line;
        }
        searchFrom = m_start + searched;
    }
}

LineReader::Status LineReader::next(QByteArray *line, qint64 *lineNumber)
{
    std::string_view view;
    const Status status = nextView(&view, lineNumber);
    *line = QByteArray(view.data(), qsizetype(view.size()));
    return status;
}

TraceTurn &ThreadBuilder::beginTurn(const QString &role, qint64 line)
{
    TraceThread &t = thread();
    TraceTurn turn;
    turn.role = role;
    turn.firstLine = turn.lastLine = line;
    turn.firstStep = int(t.steps.size());
    t.turns.push_back(std::move(turn));
    return t.turns.back();
}

TraceTurn &ThreadBuilder::turnFor(const QString &role, qint64 line)
{
    if (TraceTurn *turn = currentTurn(); turn && turn->role == role) {
        turn->lastLine = std::max(turn->lastLine, line);
        return *turn;
    }
    return beginTurn(role, line);
}

TraceTurn *ThreadBuilder::currentTurn() const
{
    TraceThread &t = thread();
    return t.turns.empty() ? nullptr : &t.turns.back();
}

TraceStep &ThreadBuilder::addStep(StepKind kind, const QString &text, qint64 line)
{
    return addStep(kind, store(text), line);
}

TraceStep &ThreadBuilder::addStep(StepKind kind, TraceText text, qint64 line)
{
    TraceThread &t = thread();
    if (t.turns.empty())
        beginTurn(kind == StepKind::UserText ? QStringLiteral("user") : QStringLiteral("assistant"), line);
    TraceTurn &turn = t.turns.back();
    ++turn.stepCount;
    turn.lastLine = std::max(turn.lastLine, line);
    TraceStep step;
    step.kind = kind;
    step.text = text;
    step.line = line;
    step.turn = int(t.turns.size()) - 1;
    t.steps.push_back(std::move(step));
    return t.steps.back();
}

TraceStep &ThreadBuilder::addToolCall(const QString &id, const QString &name, const QString &input, qint64 line)
{
    TraceStep &step = addStep(StepKind::ToolCall, TraceText(), line);
    step.toolId = store(id);
    step.toolName = store(name);
    step.input = store(input);
    return step;
}

TraceStep &ThreadBuilder::addToolResult(const QString &id, const QString &content, bool isError, qint64 line)
{
    TraceStep &step = addStep(StepKind::ToolResult, content, line);
    step.toolId = store(id);
    step.isError = isError;
    return step;
}

int addThread(Trace *trace, const QString &id, const QString &title, int parentThread)
{
    TraceThread thread;
    thread.id = id;
    thread.title = title;
    thread.parentThread = parentThread;
    trace->threads.push_back(std::move(thread));
    return int(trace->threads.size()) - 1;
}

void finishTrace(Trace *trace)
{
    for (TraceThread &thread : trace->threads) {
        // Drop empty turns (records that carried nothing to show) and renumber the steps' turns, in place:
        // a copy of the turns would be tens of megabytes more at the peak on a large session.
        size_t kept = 0;
        for (size_t t = 0; t < thread.turns.size(); ++t) {
            TraceTurn &turn = thread.turns[t];
            if (turn.stepCount == 0 && !turn.usage)
                continue;
            for (int i = turn.firstStep; i < turn.firstStep + turn.stepCount; ++i)
                thread.steps[size_t(i)].turn = int(kept);
            if (kept != t)
                thread.turns[kept] = std::move(turn);
            ++kept;
        }
        thread.turns.resize(kept);

        TextIndex calls;
        for (int i = 0; i < int(thread.steps.size()); ++i)
            if (thread.steps[size_t(i)].kind == StepKind::ToolCall && !thread.steps[size_t(i)].toolId.isEmpty())
                calls.insert(thread.steps[size_t(i)].toolId.utf8(), i);
        for (int i = 0; i < int(thread.steps.size()); ++i) {
            TraceStep &result = thread.steps[size_t(i)];
            if (result.kind != StepKind::ToolResult || result.toolId.isEmpty())
                continue;
            const int call = calls.value(result.toolId.utf8());
            if (call < 0)
                continue;
            TraceStep &callStep = thread.steps[size_t(call)];
            result.paired = call;
            callStep.paired = i;
            if (result.toolName.isEmpty())
                result.toolName = callStep.toolName;
        }
    }
}

QString compactJson(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    if (value.isString())
        return value.toString();
    if (value.isUndefined() || value.isNull())
        return QString();
    return QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
}

QString jsonTextAsCompact(const QString &text)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || doc.isNull())
        return text;
    return QString::fromUtf8(doc.toJson(QJsonDocument::Compact));
}

QString contentText(const QJsonValue &content)
{
    if (content.isString())
        return content.toString();
    if (!content.isArray())
        return content.isObject() ? contentText(QJsonArray{content}) : compactJson(content);
    QStringList parts;
    for (const QJsonValue &part : content.toArray()) {
        if (part.isString()) {
            parts.append(part.toString());
            continue;
        }
        const QJsonObject block = part.toObject();
        const QString type = block.value(QLatin1StringView("type")).toString();
        if (block.contains(QLatin1StringView("text")))
            parts.append(block.value(QLatin1StringView("text")).toString());
        else if (type.contains(QLatin1StringView("image")))
            parts.append(QStringLiteral("[image]"));
        else if (block.contains(QLatin1StringView("content")))
            parts.append(contentText(block.value(QLatin1StringView("content"))));
        else if (!type.isEmpty())
            parts.append(QStringLiteral("[%1]").arg(type));
    }
    return parts.join(u'\n');
}

qint64 intField(const QJsonObject &object, QLatin1StringView key)
{
    return qint64(object.value(key).toDouble());
}

bool parseJsonDocument(const QByteArray &data, const QString &path, QJsonValue *value, QString *error)
{
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(data, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        LoadError load{path, 0, 0, QStringLiteral("not valid JSON: %1").arg(parseError.errorString())};
        lineAndColumnAt(data, parseError.offset, &load.line, &load.column);
        *error = load.toString();
        return false;
    }
    *value = doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
    return true;
}

bool readWholeFile(const QString &path, QByteArray *data, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    if (file.size() > MaxDocumentBytes) {
        *error = QStringLiteral("%1: a JSON document of %2 MiB is more than this importer reads whole (1 GiB)")
                     .arg(path)
                     .arg(file.size() / (1024 * 1024));
        return false;
    }
    *data = file.readAll();
    return true;
}

} // namespace sf::trace_import
