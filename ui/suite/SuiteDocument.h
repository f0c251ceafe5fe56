#pragma once

#include "eval/TestSuite.h"

#include <QObject>
#include <QUndoStack>
#include <functional>
#include <optional>

namespace sf {

/**
 * A test suite being edited: the cases, the file they came from, and the undo stack every change goes through.
 * Each change replaces the whole suite with an edited copy (suites hold tens of cases, so a copy per step is
 * cheap and makes every edit undoable the same way); consecutive typing in one field of one case merges into
 * one step. The modified flag follows the stack's clean state.
 */
class SuiteDocument final : public QObject
{
    Q_OBJECT

public:
    explicit SuiteDocument(QObject *parent = nullptr);
    ~SuiteDocument() override;

    const TestSuite &suite() const { return m_suite; }
    QString path() const { return m_suite.path; }
    QUndoStack *undoStack() { return &m_undo; }
    bool isModified() const { return !m_undo.isClean(); }

    /// Replaces the document with @p suite read from @p suite.path (or a new, unsaved one when it is empty).
    void reset(const TestSuite &suite);
    /// Reads @p path; on failure the document is left as it was and the error is returned.
    std::optional<LoadError> open(const QString &path);
    /// Writes the suite to @p path in Skillforge's format, atomically; "" or the error. On success the document
    /// takes @p path and becomes unmodified.
    QString saveAs(const QString &path);

    /// Applies @p edit as one undoable step named @p text. Steps with the same non-negative @p mergeKey
    /// that follow each other merge (typing in one field).
    void change(const QString &text, const std::function<void(TestSuite &)> &edit, int mergeKey = -1);
    /// Like change(), for the case at @p row only.
    void changeCase(int row, const QString &text, const std::function<void(TestCase &)> &edit, int mergeKey = -1);

    /// The first problem the reader would report for @p testCase ("" when it would read back cleanly).
    static QString problemOf(const TestCase &testCase);
    /// An id not yet used in the suite, starting from @p base.
    QString freshId(const QString &base) const;

    /// Merge keys: one per editable field of a case, so typing in two fields stays two steps.
    enum Field
    {
        Input = 1,
        ExpectedContains,
        ExpectedOutput,
        FileContent,
        Verifier
    };
    static int mergeKey(int row, Field field, int item = 0) { return (row * 64 + int(field)) * 1024 + item; }

Q_SIGNALS:
    /// The cases changed (any edit, undo, redo, open). @p structural: cases were added, removed or reordered;
    /// otherwise @p row is the one case edited, or -1 when it may be any.
    void suiteChanged(bool structural, int row);
    void pathChanged(const QString &path);
    void modificationChanged(bool modified);

private:
    friend class SuiteChangeCommand;
    void push(const QString &text, const std::function<void(TestSuite &)> &edit, int row, int mergeKey);
    void apply(const TestSuite &suite, int row);

    TestSuite m_suite;
    QUndoStack m_undo;
};

} // namespace sf
