#include "suite/SuiteDocument.h"

#include <QFileInfo>
#include <QSet>
#include <QUndoCommand>

namespace sf {

/// One edit of the suite: the suite before and after it.
class SuiteChangeCommand final : public QUndoCommand
{
public:
    SuiteChangeCommand(SuiteDocument *document, TestSuite before, TestSuite after, const QString &text, int row,
                       int mergeKey)
        : QUndoCommand(text)
        , m_document(document)
        , m_before(std::move(before))
        , m_after(std::move(after))
        , m_row(row)
        , m_mergeKey(mergeKey)
    {
    }

    void undo() override { m_document->apply(m_before, m_row); }
    void redo() override { m_document->apply(m_after, m_row); }
    int id() const override { return m_mergeKey < 0 ? -1 : 1; }
    bool mergeWith(const QUndoCommand *other) override
    {
        const auto *next = static_cast<const SuiteChangeCommand *>(other);
        if (next->m_mergeKey != m_mergeKey)
            return false;
        m_after = next->m_after;
        return true;
    }

private:
    SuiteDocument *m_document;
    TestSuite m_before;
    TestSuite m_after;
    int m_row; ///< the one case changed, or -1
    int m_mergeKey;
};

SuiteDocument::SuiteDocument(QObject *parent)
    : QObject(parent)
{
    connect(&m_undo, &QUndoStack::cleanChanged, this, [this](bool clean) { Q_EMIT modificationChanged(!clean); });
}

SuiteDocument::~SuiteDocument()
{
    // A stack destroyed with unsaved steps reports itself clean; nobody may hear that from a half-destroyed window.
    m_undo.blockSignals(true);
}

void SuiteDocument::reset(const TestSuite &suite)
{
    m_undo.clear();
    m_suite = suite;
    m_undo.setClean();
    Q_EMIT suiteChanged(true, -1);
    Q_EMIT pathChanged(m_suite.path);
    Q_EMIT modificationChanged(false);
}

std::optional<LoadError> SuiteDocument::open(const QString &path)
{
    auto read = readTestSuite(path);
    if (auto *error = std::get_if<LoadError>(&read))
        return *error;
    TestSuite suite = std::get<TestSuite>(std::move(read));
    suite.path = QFileInfo(path).absoluteFilePath();
    reset(suite);
    return std::nullopt;
}

QString SuiteDocument::saveAs(const QString &path)
{
    TestSuite written = m_suite;
    written.format = TestSuite::Format::Upskill; // Skillforge's format is upskill's, extended
    if (const QString error = writeTestSuite(path, written); !error.isEmpty())
        return error;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    const bool moved = absolute != m_suite.path;
    m_suite.path = absolute;
    m_suite.format = written.format;
    m_undo.setClean();
    if (moved)
        Q_EMIT pathChanged(absolute);
    return {};
}

void SuiteDocument::change(const QString &text, const std::function<void(TestSuite &)> &edit, int mergeKey)
{
    push(text, edit, -1, mergeKey);
}

void SuiteDocument::changeCase(int row, const QString &text, const std::function<void(TestCase &)> &edit, int mergeKey)
{
    if (row < 0 || row >= m_suite.cases.size())
        return;
    push(
        text, [&](TestSuite &suite) { edit(suite.cases[row]); }, row, mergeKey);
}

void SuiteDocument::push(const QString &text, const std::function<void(TestSuite &)> &edit, int row, int mergeKey)
{
    TestSuite after = m_suite;
    edit(after);
    m_undo.push(new SuiteChangeCommand(this, m_suite, std::move(after), text, row, mergeKey));
}

void SuiteDocument::apply(const TestSuite &suite, int row)
{
    // Every step either adds or removes cases or edits them in place, so a change of count is what tells them apart.
    const bool structural = suite.cases.size() != m_suite.cases.size();
    // The path and format belong to the file, not to the edit: undo never moves the document.
    const QString path = m_suite.path;
    const TestSuite::Format format = m_suite.format;
    m_suite = suite;
    m_suite.path = path;
    m_suite.format = format;
    Q_EMIT suiteChanged(structural, structural ? -1 : row);
}

QString SuiteDocument::problemOf(const TestCase &testCase)
{
    // The reader is the one judge of a valid case: a case that would not read back is not written silently.
    TestSuite single;
    single.cases = {testCase};
    const auto read = parseTestSuite(serializeTestSuite(single), QString());
    if (const auto *error = std::get_if<LoadError>(&read))
        return error->message;
    return {};
}

QString SuiteDocument::freshId(const QString &base) const
{
    QSet<QString> used;
    for (const TestCase &c : m_suite.cases)
        used.insert(c.id);
    if (!base.isEmpty() && !used.contains(base))
        return base;
    const QString stem = base.isEmpty() ? QStringLiteral("case") : base;
    for (int n = 2;; ++n) {
        const QString id = QStringLiteral("%1-%2").arg(stem).arg(n);
        if (!used.contains(id))
            return id;
    }
}

} // namespace sf
