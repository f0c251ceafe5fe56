// inspect_ai eval logs: plain .json and .eval zip files whose entries may be zstd-compressed
// (reference/traces.md 2.6). libzip 1.7 has no zstd method, so such entries are read raw and
// decompressed here, frame after frame.

#include "trace/TraceImport_p.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <memory>
#include <zip.h>
#include <zstd.h>

namespace sf::trace_import {

namespace {

using namespace Qt::StringLiterals;

constexpr zip_uint16_t ZipMethodZstd = 93;
constexpr qint64 MaxEntryBytes = 1024LL * 1024 * 1024;

TokenUsage inspectUsage(const QJsonObject &usage)
{
    TokenUsage u;
    u.uncachedInput = intField(usage, "input_tokens"_L1);
    u.cacheRead = intField(usage, "input_tokens_cache_read"_L1);
    u.cacheWrite5m = intField(usage, "input_tokens_cache_write"_L1);
    u.output = intField(usage, "output_tokens"_L1);
    u.reasoning = intField(usage, "reasoning_tokens"_L1);
    return u;
}

/// Content with "attachment://<hash>" references resolved from the sample's attachments.
QString resolved(const QString &text, const QJsonObject &attachments)
{
    static const auto prefix = "attachment://"_L1;
    if (!text.startsWith(prefix))
        return text;
    return attachments.value(text.mid(prefix.size())).toString(text);
}

void addInspectContent(ThreadBuilder &builder, const QJsonValue &content, StepKind textKind,
                       const QJsonObject &attachments)
{
    if (content.isString()) {
        if (!content.toString().isEmpty())
            builder.addStep(textKind, resolved(content.toString(), attachments), 0);
        return;
    }
    for (const QJsonValue &value : content.toArray()) {
        const QJsonObject part = value.toObject();
        const QString type = part.value("type"_L1).toString();
        if (type == "text"_L1)
            builder.addStep(textKind, resolved(part.value("text"_L1).toString(), attachments), 0);
        else if (type == "reasoning"_L1)
            builder.addStep(StepKind::Thinking,
                            part.value("redacted"_L1).toBool()
                                ? QStringLiteral("(redacted reasoning)")
                                : resolved(part.value("reasoning"_L1).toString(), attachments),
                            0);
        else if (type == "image"_L1 || type == "audio"_L1 || type == "video"_L1 || type == "document"_L1)
            builder.addStep(StepKind::Image, type, 0);
    }
}

struct ZipCloser
{
    void operator()(zip_t *zip) const { zip_discard(zip); }
};
struct ZipFileCloser
{
    void operator()(zip_file_t *file) const { zip_fclose(file); }
};

/// Decompresses every zstd frame of @p raw (inspect_ai writes several capped frames).
bool zstdDecompress(const QByteArray &raw, qint64 expected, QByteArray *out, QString *error)
{
    std::unique_ptr<ZSTD_DStream, size_t (*)(ZSTD_DStream *)> stream(ZSTD_createDStream(), ZSTD_freeDStream);
    ZSTD_initDStream(stream.get());
    out->clear();
    out->reserve(qsizetype(std::min(expected, MaxEntryBytes)));
    QByteArray chunk(qsizetype(ZSTD_DStreamOutSize()), Qt::Uninitialized);
    ZSTD_inBuffer input{raw.constData(), size_t(raw.size()), 0};
    while (input.pos < input.size) {
        ZSTD_outBuffer output{chunk.data(), size_t(chunk.size()), 0};
        const size_t rc = ZSTD_decompressStream(stream.get(), &output, &input);
        if (ZSTD_isError(rc)) {
            *error = QStringLiteral("zstd: %1").arg(QString::fromUtf8(ZSTD_getErrorName(rc)));
            return false;
        }
        out->append(chunk.constData(), qsizetype(output.pos));
        if (out->size() > MaxEntryBytes) {
            *error = QStringLiteral("entry larger than 1 GiB once decompressed");
            return false;
        }
    }
    return true;
}

/// Reads entry @p index of @p zip, decompressing zstd entries by hand.
bool readEntry(zip_t *zip, zip_uint64_t index, QByteArray *data, QString *error)
{
    zip_stat_t stat;
    zip_stat_init(&stat);
    if (zip_stat_index(zip, index, 0, &stat) != 0) {
        *error = QString::fromUtf8(zip_strerror(zip));
        return false;
    }
    const bool zstd = (stat.valid & ZIP_STAT_COMP_METHOD) && stat.comp_method == ZipMethodZstd;
    const zip_uint64_t size = zstd ? stat.comp_size : stat.size;
    if (size > zip_uint64_t(MaxEntryBytes)) {
        *error = QStringLiteral("entry larger than 1 GiB");
        return false;
    }
    std::unique_ptr<zip_file_t, ZipFileCloser> file(zip_fopen_index(zip, index, zstd ? ZIP_FL_COMPRESSED : 0));
    if (!file) {
        *error = QString::fromUtf8(zip_strerror(zip));
        return false;
    }
    QByteArray raw(qsizetype(size), Qt::Uninitialized);
    const zip_int64_t got = zip_fread(file.get(), raw.data(), size);
    if (got < 0 || zip_uint64_t(got) != size) {
        *error = QStringLiteral("truncated entry");
        return false;
    }
    if (!zstd) {
        *data = std::move(raw);
        return true;
    }
    return zstdDecompress(raw, qint64(stat.size), data, error);
}

void applyHeader(const QJsonObject &log, Trace *trace)
{
    const QJsonObject eval = log.value("eval"_L1).toObject();
    trace->title = QStringLiteral("%1 — %2").arg(eval.value("task"_L1).toString(), eval.value("model"_L1).toString());
}

} // namespace

void importInspectSample(const QJsonObject &sample, Trace *trace)
{
    const QJsonValue idValue = sample.value("id"_L1);
    const QString id = idValue.isString() ? idValue.toString() : QString::number(idValue.toInteger());
    const int threadIndex =
        addThread(trace, id, QStringLiteral("Sample %1, epoch %2").arg(id).arg(sample.value("epoch"_L1).toInt(1)));
    ThreadBuilder builder(trace, threadIndex);
    const QJsonObject attachments = sample.value("attachments"_L1).toObject();

    // Per-call usage comes from the model events, in the same order as the assistant messages.
    std::vector<std::pair<QString, TokenUsage>> calls;
    for (const QJsonValue &value : sample.value("events"_L1).toArray()) {
        const QJsonObject event = value.toObject();
        if (event.value("event"_L1).toString() != "model"_L1)
            continue;
        const QJsonObject output = event.value("output"_L1).toObject();
        calls.emplace_back(output.value("model"_L1).toString(event.value("model"_L1).toString()),
                           inspectUsage(output.value("usage"_L1).toObject()));
    }
    size_t assistantIndex = 0;
    for (const QJsonValue &value : sample.value("messages"_L1).toArray()) {
        const QJsonObject message = value.toObject();
        const QString role = message.value("role"_L1).toString();
        const QJsonValue content = message.value("content"_L1);
        if (role == "system"_L1) {
            builder.beginTurn(role, 0);
            addInspectContent(builder, content, StepKind::System, attachments);
        } else if (role == "user"_L1) {
            builder.beginTurn(role, 0);
            addInspectContent(builder, content, StepKind::UserText, attachments);
        } else if (role == "assistant"_L1) {
            TraceTurn &turn = builder.beginTurn(role, 0);
            turn.model = message.value("model"_L1).toString();
            if (assistantIndex < calls.size()) {
                if (turn.model.isEmpty())
                    turn.model = calls[assistantIndex].first;
                turn.usage = calls[assistantIndex].second;
            }
            ++assistantIndex;
            addInspectContent(builder, content, StepKind::AssistantText, attachments);
            for (const QJsonValue &callValue : message.value("tool_calls"_L1).toArray()) {
                const QJsonObject call = callValue.toObject();
                builder.addToolCall(call.value("id"_L1).toString(), call.value("function"_L1).toString(),
                                    compactJson(call.value("arguments"_L1)), 0);
            }
        } else if (role == "tool"_L1) {
            builder.turnFor(u"tool"_s, 0);
            const QJsonValue error = message.value("error"_L1);
            QString text = contentText(content);
            if (content.isString())
                text = resolved(text, attachments);
            if (error.isObject())
                text += (text.isEmpty() ? QString() : u"\n"_s) + error.toObject().value("message"_L1).toString();
            TraceStep &step =
                builder.addToolResult(message.value("tool_call_id"_L1).toString(), text, error.isObject(), 0);
            step.toolName = builder.store(message.value("function"_L1).toString());
        }
    }
    // Without per-call events, the sample's own total goes on its last assistant turn.
    if (calls.empty()) {
        TokenUsage total;
        bool any = false;
        const QJsonObject modelUsage = sample.value("model_usage"_L1).toObject();
        for (auto it = modelUsage.begin(); it != modelUsage.end(); ++it) {
            total += inspectUsage(it.value().toObject());
            any = true;
        }
        auto &turns = trace->threads[size_t(threadIndex)].turns;
        for (auto it = turns.rbegin(); any && it != turns.rend(); ++it) {
            if (it->role == "assistant"_L1) {
                it->usage = total;
                break;
            }
        }
    }
}

bool importInspectJson(const QJsonValue &root, Trace *trace, QString *error)
{
    const QJsonObject log = root.toObject();
    applyHeader(log, trace);
    const QJsonArray samples = log.value("samples"_L1).toArray();
    if (samples.isEmpty()) {
        *error = QStringLiteral("the eval log has no samples");
        return false;
    }
    for (const QJsonValue &sample : samples)
        importInspectSample(sample.toObject(), trace);
    finishTrace(trace);
    return true;
}

bool importInspectEval(const QString &path, Progress &progress, Trace *trace, QString *error)
{
    int zipError = 0;
    std::unique_ptr<zip_t, ZipCloser> zip(zip_open(path.toLocal8Bit().constData(), ZIP_RDONLY, &zipError));
    if (!zip) {
        zip_error_t zerror;
        zip_error_init_with_code(&zerror, zipError);
        *error = QStringLiteral("%1: not a readable zip file (%2)")
                     .arg(path, QString::fromUtf8(zip_error_strerror(&zerror)));
        zip_error_fini(&zerror);
        return false;
    }
    const zip_int64_t count = zip_get_num_entries(zip.get(), 0);
    const qint64 total = QFileInfo(path).size();
    qint64 done = 0;
    bool sawHeader = false;
    for (zip_int64_t i = 0; i < count; ++i) {
        const QString name = QString::fromUtf8(zip_get_name(zip.get(), zip_uint64_t(i), 0));
        const bool isSample = name.startsWith("samples/"_L1) && name.endsWith(".json"_L1);
        if (!isSample && name != "header.json"_L1)
            continue;
        QByteArray data;
        QString entryError;
        if (!readEntry(zip.get(), zip_uint64_t(i), &data, &entryError)) {
            trace->skip(0, QStringLiteral("%1: %2").arg(name, entryError));
            continue;
        }
        done += data.size();
        if (!progress.update(std::min(done, total)))
            return false;
        QJsonParseError parseError{};
        const QJsonDocument doc = QJsonDocument::fromJson(data, &parseError);
        if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
            trace->skip(0, QStringLiteral("%1: not a JSON object (%2)").arg(name, parseError.errorString()));
            continue;
        }
        if (isSample) {
            importInspectSample(doc.object(), trace);
        } else {
            applyHeader(doc.object(), trace);
            sawHeader = true;
        }
    }
    if (!sawHeader && trace->threads.empty()) {
        *error = QStringLiteral("%1: a zip file without inspect_ai's header.json or samples/").arg(path);
        return false;
    }
    if (trace->threads.empty())
        addThread(trace, QString(), QStringLiteral("No samples"));
    finishTrace(trace);
    return true;
}

} // namespace sf::trace_import
