#include "trace/TraceFileSummary.h"

#include <QFile>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace sf {

TraceFileSummary TraceFileSummary::read(const QString &path, qint64 previewBytes)
{
    TraceFileSummary summary;
    summary.path = path;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        summary.error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return summary;
    }
    summary.bytes = file.size();

    QByteArray previewData;
    QHash<QString, qint64> typeCounts;
    qint64 nonEmptyLines = 0, objectLines = 0;
    // Lines are capped so a single 100 MB line cannot exhaust memory; an overlong line counts as invalid.
    constexpr qint64 MaxLineBytes = 64 * 1024 * 1024;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine(MaxLineBytes);
        if (previewData.size() < previewBytes)
            previewData.append(line.left(previewBytes - previewData.size()));
        if (line.endsWith('\n') || file.atEnd())
            ++summary.lines;
        const QByteArray trimmed = line.trimmed();
        if (trimmed.isEmpty())
            continue;
        ++nonEmptyLines;
        QJsonParseError error{};
        const QJsonDocument doc = QJsonDocument::fromJson(trimmed, &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject()) {
            ++summary.invalidJsonLines;
            if (summary.firstInvalidLine == 0)
                summary.firstInvalidLine = summary.lines;
            continue;
        }
        ++objectLines;
        const QString type = doc.object().value(QStringLiteral("type")).toString();
        if (!type.isEmpty())
            ++typeCounts[type];
    }
    // A file is JSON Lines when most of its lines are JSON objects, whatever its extension says.
    summary.isJsonLines = nonEmptyLines > 1 && objectLines * 2 > nonEmptyLines;
    if (!summary.isJsonLines) {
        summary.invalidJsonLines = 0;
        summary.firstInvalidLine = 0;
    }
    for (auto it = typeCounts.cbegin(); it != typeCounts.cend(); ++it)
        summary.recordTypes.append({it.key(), it.value()});
    std::sort(summary.recordTypes.begin(), summary.recordTypes.end(), [](const auto &a, const auto &b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    summary.preview = QString::fromUtf8(previewData);
    summary.previewTruncated = summary.bytes > previewData.size();
    return summary;
}

} // namespace sf
