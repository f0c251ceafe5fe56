#include "FuzzTraceImport.h"
#include "SkippedChecks.h"
#include "trace/TraceImport.h"

#include <QDir>
#include <QFile>
#include <QTest>
#include <random>

namespace {

// Pieces of JSON and of the trace formats that byte flips alone rarely produce.
const char *const kDictionary[] = {"\n",
                                   "{",
                                   "}",
                                   "[",
                                   "]",
                                   "\"",
                                   ":",
                                   ",",
                                   "null",
                                   "true",
                                   "\\u0000",
                                   "\x00",
                                   "\"type\":\"assistant\"",
                                   "\"type\":\"user\"",
                                   "\"parentUuid\":\"u1\"",
                                   "\"tool_use_id\":\"toolu_1\"",
                                   "\"id\":\"toolu_1\"",
                                   "\"call_id\":\"call_1\"",
                                   "\"role\":\"tool\"",
                                   "\"usage\":{\"output_tokens\":9}",
                                   "\"childThread\"",
                                   "\"parent_tool_use_id\":\"toolu_a\"",
                                   "\"payload\":{}",
                                   "PK\x03\x04",
                                   "\xEF\xBB\xBF",
                                   "\xF0\x9F\x98\x80",
                                   "\xC3"};

QByteArray mutate(QByteArray input, std::mt19937 &random)
{
    auto pick = [&](std::size_t n) { return n == 0 ? std::size_t(0) : std::size_t(random() % n); };
    const int steps = 1 + int(pick(4));
    for (int step = 0; step < steps; ++step) {
        const qsizetype at = qsizetype(pick(std::size_t(input.size()) + 1));
        switch (pick(6)) {
        case 0:
            if (!input.isEmpty())
                input[qsizetype(pick(std::size_t(input.size())))] = char(random());
            break;
        case 1: {
            const char *piece = kDictionary[pick(std::size(kDictionary))];
            input.insert(at, piece[0] == '\0' ? QByteArray(1, '\0') : QByteArray(piece));
            break;
        }
        case 2:
            input.remove(at, qsizetype(pick(64)));
            break;
        case 3: // duplicate a range, such as a whole line
            input.insert(at, input.mid(qsizetype(pick(std::size_t(input.size()) + 1)), qsizetype(pick(400))));
            break;
        case 4:
            input.truncate(at);
            break;
        default: // nesting deeper than a JSON parser allows
            input.insert(at, QByteArray(qsizetype(pick(3000)), pick(2) ? '[' : '{'));
            break;
        }
    }
    return input;
}

} // namespace

/// Runs the libFuzzer entry function under g++ too: each format's saved corpus, forced and detected, then
/// mutations of it from a fixed seed, so CI exercises the importers' edge cases on every run.
class TestFuzzTraceImportReplay : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void corpusAndMutations_everyFormat_data()
    {
        QTest::addColumn<QString>("format");
        const QDir root(QStringLiteral(SKILLFORGE_FUZZ_CORPUS));
        for (const QString &format : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
            QTest::newRow(qPrintable(format)) << format;
    }
    void corpusAndMutations_everyFormat()
    {
        QFETCH(QString, format);
        QVERIFY(sf::traceFormats().contains(format));
        const QDir dir(QDir(QStringLiteral(SKILLFORGE_FUZZ_CORPUS)).filePath(format));
        QList<QByteArray> corpus;
        for (const QString &name : dir.entryList(QDir::Files, QDir::Name)) {
            QFile file(dir.filePath(name));
            QVERIFY(file.open(QIODevice::ReadOnly));
            corpus.append(file.readAll());
        }
        QVERIFY2(!corpus.isEmpty(), "the corpus is missing");
        auto run = [&format](const QByteArray &input) {
            const auto *bytes = reinterpret_cast<const std::uint8_t *>(input.constData());
            QCOMPARE(sf::fuzz::fuzzTraceImport(format, bytes, std::size_t(input.size())), 0);
            QCOMPARE(sf::fuzz::fuzzTraceImport(QString(), bytes, std::size_t(input.size())), 0);
        };
        for (const QByteArray &input : std::as_const(corpus))
            run(input);
        std::mt19937 random(20260401);
        for (int i = 0; i < 300; ++i)
            run(mutate(corpus[qsizetype(random() % std::size_t(corpus.size()))], random));
    }
};

SF_TEST_GUILESS_MAIN(TestFuzzTraceImportReplay)
#include "test_fuzz_trace_import_replay.moc"
