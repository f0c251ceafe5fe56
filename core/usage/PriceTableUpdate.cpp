#include "PriceTableUpdate.h"

#include "GenaiPriceTable.h"
#include "Pricing.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

bool writeAtomically(const QString &path, const QByteArray &bytes, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        *error = u"%1: cannot be written: %2"_s.arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace

QString defaultPriceTableUrl()
{
    QFile own(u":/pricing/pricing.json"_s);
    if (!own.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(own.readAll())
        .object()
        .value("maintainedTable"_L1)
        .toObject()
        .value("updateUrl"_L1)
        .toString();
}

Result<PriceTableSummary> installPriceTable(const QByteArray &bytes, const QString &source)
{
    const Result<GenaiPriceTable> table = GenaiPriceTable::fromJson(bytes, source);
    if (!table)
        return Result<PriceTableSummary>::failure(table.error + u"; the prices in use are kept"_s);
    const auto priced = [&](const QString &provider, const QString &model) {
        return table.value->ratesFor(provider, model, QDateTime::currentDateTimeUtc()).has_value();
    };
    // A table that reads but has lost the providers Skillforge's students use most (a stub, another project's file)
    // would turn every cost into "price unknown".
    if (!priced(u"anthropic"_s, u"claude-sonnet-4-5"_s) || !priced(u"openai"_s, u"gpt-4.1"_s)) {
        return Result<PriceTableSummary>::failure(
            u"%1: reads as a genai-prices table but has no price for Claude Sonnet 4.5 or GPT-4.1, so it is not the "
            u"table Skillforge prices with; the prices in use are kept"_s.arg(source));
    }
    const QString path = Pricing::updatedTablePath();
    QString error;
    if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        return Result<PriceTableSummary>::failure(
            u"%1: the folder cannot be made; the prices in use are kept"_s.arg(QFileInfo(path).absolutePath()));
    }
    const QJsonObject origin{{u"source"_s, source},
                             {u"retrieved"_s, QDateTime::currentDateTimeUtc().toString(Qt::ISODate)}};
    if (!writeAtomically(path, bytes, &error))
        return Result<PriceTableSummary>::failure(error + u"; the prices in use are kept"_s);
    // The table is in place; a note that cannot be written only leaves `prices show` less precise about its origin.
    if (!writeAtomically(path + u".origin.json"_s, QJsonDocument(origin).toJson(QJsonDocument::Indented), &error))
        QFile::remove(path + u".origin.json"_s);
    Pricing::reload();
    return Result<PriceTableSummary>::success({table.value->providerCount(), table.value->modelCount(), path});
}

} // namespace sf
