#include "FuzzSkillDocument.h"
#include "SkippedChecks.h"

#include <QDir>
#include <QFile>
#include <QTest>
#include <random>

namespace {

// Pieces of SKILL.md syntax that byte flips alone rarely produce.
const char *const kDictionary[] = {"---",
                                   "\n",
                                   "\r\n",
                                   ": ",
                                   "  ",
                                   "\t",
                                   ">-\n",
                                   "|\n",
                                   "|2-\n",
                                   "'",
                                   "\"",
                                   "[",
                                   "]",
                                   "{",
                                   "}",
                                   ",",
                                   "&a ",
                                   "*a",
                                   "? ",
                                   "- ",
                                   "#",
                                   "...",
                                   "name",
                                   "description",
                                   "metadata:\n  k: v\n",
                                   "\xEF\xBB\xBF",
                                   "\\",
                                   "\xC3\xA9",
                                   "\xF0\x9F\x98\x80",
                                   "!!str ",
                                   "<<: ",
                                   "%YAML 1.2\n"};

QByteArray mutate(QByteArray input, std::mt19937 &random)
{
    auto pick = [&](std::size_t n) { return n == 0 ? std::size_t(0) : std::size_t(random() % n); };
    const int steps = 1 + int(pick(4));
    for (int step = 0; step < steps; ++step) {
        const qsizetype at = qsizetype(pick(std::size_t(input.size()) + 1));
        switch (pick(6)) {
        case 0: // flip a byte
            if (!input.isEmpty())
                input[qsizetype(pick(std::size_t(input.size())))] = char(random());
            break;
        case 1: // insert syntax
            input.insert(at, kDictionary[pick(std::size(kDictionary))]);
            break;
        case 2: // delete a range
            input.remove(at, qsizetype(pick(16)));
            break;
        case 3: // duplicate a range
            input.insert(at, input.mid(qsizetype(pick(std::size_t(input.size()) + 1)), qsizetype(pick(64))));
            break;
        case 4: // truncate
            input.truncate(at);
            break;
        default: // nest deeper than a parser's stack likes
            input.insert(at, QByteArray(qsizetype(pick(3000)), pick(2) ? '[' : ' '));
            break;
        }
    }
    return input;
}

} // namespace

/// Runs the libFuzzer entry function under g++ too: over the saved corpus, then over mutations of it from
/// a fixed seed, so that CI (which builds with g++) exercises the parser's edge cases on every run.
class TestFuzzSkillDocumentReplay : public QObject
{
    Q_OBJECT

private:
    QList<QByteArray> m_corpus;

private Q_SLOTS:
    void initTestCase()
    {
        const QDir dir(QStringLiteral(SKILLFORGE_FUZZ_CORPUS));
        for (const QString &name : dir.entryList(QDir::Files, QDir::Name)) {
            QFile file(dir.filePath(name));
            QVERIFY(file.open(QIODevice::ReadOnly));
            m_corpus.append(file.readAll());
        }
        QVERIFY2(m_corpus.size() >= 10, "the corpus is missing");
    }

    void corpus_everyInputKeepsTheProperties()
    {
        for (const QByteArray &input : std::as_const(m_corpus))
            QCOMPARE(sf::fuzz::fuzzSkillDocument(reinterpret_cast<const std::uint8_t *>(input.constData()),
                                                 std::size_t(input.size())),
                     0);
    }

    void mutations_twoThousandFromAFixedSeed_keepTheProperties()
    {
        std::mt19937 random(20260304);
        for (int i = 0; i < 2000; ++i) {
            const QByteArray input = mutate(m_corpus[qsizetype(random() % std::size_t(m_corpus.size()))], random);
            QCOMPARE(sf::fuzz::fuzzSkillDocument(reinterpret_cast<const std::uint8_t *>(input.constData()),
                                                 std::size_t(input.size())),
                     0);
        }
    }
};

SF_TEST_GUILESS_MAIN(TestFuzzSkillDocumentReplay)
#include "test_fuzz_skill_document_replay.moc"
